//! The parsed page with its node tree: what the CLI, queries and tools hold on to.

use std::borrow::Cow;

use crate::aria::Index;
use crate::error::Error;
use crate::parse::encoding::{self, EncodingSource};
use crate::parse::{Dom, NodeId};
use crate::render::{render, RenderOptions, SnapshotResult};
use crate::style::Styles;
use crate::tree::{NodeTree, Ref};
use crate::walk::{walk, TreeOptions};

/// A parsed page: the arena, its node tree and the ref table.
///
/// Refs depend only on the HTML and the [`TreeOptions`], so any ref of the tree can be
/// queried, including refs a render budget left out of the text.
///
/// ```
/// use agent_snapshot::{Document, RenderOptions, TreeOptions};
///
/// let doc = Document::parse_bytes(
///     b"<meta charset=windows-1252><h1>Caf\xE9</h1><a href=/menu>Menu</a>",
///     &TreeOptions::default(),
/// )?;
/// let snap = doc.snapshot(&RenderOptions::default());
/// assert!(snap.text.contains("- heading \"Café\" [level=1] [ref=e1]"));
/// # Ok::<(), agent_snapshot::Error>(())
/// ```
pub struct Document {
    dom: Dom,
    index: Index,
    tree: NodeTree,
    refs: Vec<NodeId>,
    encoding: &'static encoding_rs::Encoding,
    encoding_source: EncodingSource,
    decode_errors: bool,
}

impl Document {
    /// Parses decoded text. Never fails: every string is some HTML document.
    pub fn parse(html: &str, opts: &TreeOptions) -> Document {
        Document::build(
            Dom::parse_with(html, opts.threads),
            opts,
            encoding_rs::UTF_8,
            EncodingSource::Forced,
            false,
        )
    }

    /// Parses bytes, sniffing the encoding (BOM, valid UTF-8, `<meta>`, then windows-1252).
    ///
    /// Takes the bytes borrowed (`&[u8]`, `&Vec<u8>`) or owned (`Vec<u8>`). Owned bytes are
    /// freed as soon as the parser has its copy, before the walk builds the tree: on a 2 MB
    /// page that is 2 MB less at the peak.
    ///
    /// ```
    /// use agent_snapshot::{Document, TreeOptions};
    ///
    /// let page = b"<meta charset=windows-1252><a href=/>caf\xe9</a>".to_vec();
    /// let doc = Document::parse_bytes(page, &TreeOptions::default())?;
    /// assert!(doc.snapshot(&Default::default()).text.contains("link \"caf\u{e9}\""));
    /// # Ok::<(), agent_snapshot::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::UnknownEncoding`] when [`TreeOptions::encoding`] names no known encoding.
    /// Malformed bytes are not an error: they decode to U+FFFD, as in a browser.
    pub fn parse_bytes<'a>(
        bytes: impl Into<Cow<'a, [u8]>>,
        opts: &TreeOptions,
    ) -> Result<Document, Error> {
        let forced = opts
            .encoding
            .as_deref()
            .map(encoding::encoding_for_label)
            .transpose()?;
        let bytes = bytes.into();
        let (dom, encoding, source, had_errors) = {
            let decoded = encoding::decode(&bytes, forced);
            let dom = Dom::parse_with(&decoded.text, opts.threads);
            (dom, decoded.encoding, decoded.source, decoded.had_errors)
        };
        // The arena holds its own copy of everything it needs from here on.
        drop(bytes);
        Ok(Document::build(dom, opts, encoding, source, had_errors))
    }

    fn build(
        dom: Dom,
        opts: &TreeOptions,
        encoding: &'static encoding_rs::Encoding,
        encoding_source: EncodingSource,
        decode_errors: bool,
    ) -> Document {
        let index = Index::with_styles(&dom, Styles::build(&dom, &opts.style));
        let walked = walk(&dom, &index, opts);
        Document {
            dom,
            index,
            tree: walked.tree,
            refs: walked.refs,
            encoding,
            encoding_source,
            decode_errors,
        }
    }

    /// The node tree (the JSON contract shared with the in-browser script).
    pub fn tree(&self) -> &NodeTree {
        &self.tree
    }

    /// The node tree, giving up the arena: for a caller that only renders, since the arena
    /// (nodes, attributes, the decoded input) is most of a document's memory and refs can
    /// no longer be queried once it is gone.
    ///
    /// ```
    /// use agent_snapshot::{render, Document, RenderOptions};
    ///
    /// let tree = Document::parse("<a href=/>Home</a>", &Default::default()).into_tree();
    /// assert!(render(&tree, &RenderOptions::default()).text.contains("link \"Home\""));
    /// ```
    pub fn into_tree(self) -> NodeTree {
        self.tree
    }

    /// Renders the node tree: [`crate::render()`] on [`Document::tree`].
    pub fn snapshot(&self, opts: &RenderOptions) -> SnapshotResult {
        render(&self.tree, opts)
    }

    /// The arena.
    pub fn dom(&self) -> &Dom {
        &self.dom
    }

    /// Id and label lookups over the arena.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The arena node of a ref such as `"e7"` (also accepts `"@e7"` and `"ref=e7"`, the
    /// spellings models copy from snapshots).
    pub fn resolve(&self, ref_: &str) -> Option<NodeId> {
        let r = ref_.trim();
        let r = r.strip_prefix("ref=").unwrap_or(r);
        let r = r.strip_prefix('@').unwrap_or(r);
        let n = usize::try_from(Ref::parse(r)?.number()).ok()?;
        self.refs.get(n - 1).copied()
    }

    /// Number of refs in the tree.
    pub fn ref_count(&self) -> usize {
        self.refs.len()
    }

    /// The encoding the bytes were decoded with, and why it was chosen.
    pub fn encoding(&self) -> (&'static encoding_rs::Encoding, EncodingSource) {
        (self.encoding, self.encoding_source)
    }

    /// Whether malformed byte sequences were replaced with U+FFFD while decoding.
    pub fn had_decode_errors(&self) -> bool {
        self.decode_errors
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_ref_spellings() {
        let d = Document::parse("<a href=x>1</a><a href=y>2</a>", &TreeOptions::default());
        assert!(d.resolve("e1").is_some());
        assert_eq!(d.resolve("@e2"), d.resolve("ref=e2"));
        for bad in [
            "e0",
            "e3",
            "e01",
            "x1",
            "",
            "e",
            "e-1",
            "e+1",
            "e99999999999999999999999",
        ] {
            assert!(d.resolve(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn unknown_forced_encoding_is_an_error() {
        let opts = TreeOptions {
            encoding: Some("no-such-charset".into()),
            ..Default::default()
        };
        let err = Document::parse_bytes(b"x", &opts).err().expect("error");
        assert!(err.to_string().contains("no-such-charset"));
    }
}
