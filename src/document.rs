//! The parsed page with its node tree: what the CLI, queries and tools hold on to.

use std::borrow::Cow;

use crate::aria::Index;
use crate::content::MainContent;
use crate::error::Error;
use crate::parse::encoding::{self, EncodingSource};
use crate::parse::{Dom, NodeId, View};
use crate::read::{ReadError, ReadOptions, ReadResult};
use crate::render::{render, render_scope, scope_ref, RenderOptions, ScopeError, SnapshotResult};
use crate::style::Styles;
use crate::tree::{NodeTree, Ref, TreeNode};
use crate::walk::{walk_from, walk_marking_main, TreeOptions};

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
    /// What [`crate::content`] found: the snapshot ranks it, `read` reads it.
    main: MainContent,
    encoding: &'static encoding_rs::Encoding,
    encoding_source: EncodingSource,
    decode_errors: bool,
    /// The options the tree was made with (a scoped walk uses them again).
    opts: TreeOptions,
}

impl Document {
    /// Parses decoded text. Never fails: every string is some HTML document.
    pub fn parse(html: &str, opts: &TreeOptions) -> Document {
        Document::build(
            Viewed::of(html, opts),
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
    /// [`Error::UnknownEncoding`] when [`TreeOptions::encoding`] names no known encoding;
    /// [`Error::BadArgument`] for gzip-compressed bytes (a saved `page.html.gz`: decoded as
    /// text it would be a page of mojibake). Malformed bytes are not an error: they decode to
    /// U+FFFD, as in a browser.
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
        // gzip's magic number (RFC 1952 §2.3.1); no HTML document starts with these bytes.
        if bytes.starts_with(&[0x1f, 0x8b]) {
            return Err(Error::BadArgument(
                "the input is gzip-compressed, not HTML: decompress it first (`gunzip -c page.html.gz`)"
                    .into(),
            ));
        }
        let (viewed, encoding, source, had_errors) = {
            let decoded = encoding::decode(&bytes, forced);
            let viewed = Viewed::of(&decoded.text, opts);
            (viewed, decoded.encoding, decoded.source, decoded.had_errors)
        };
        // The arena holds its own copy of everything it needs from here on.
        drop(bytes);
        Ok(Document::build(viewed, opts, encoding, source, had_errors))
    }

    fn build(
        viewed: Viewed,
        opts: &TreeOptions,
        encoding: &'static encoding_rs::Encoding,
        encoding_source: EncodingSource,
        decode_errors: bool,
    ) -> Document {
        let Viewed { dom, index, main } = viewed;
        let mut walked = walk_marking_main(&dom, &index, opts, &main.membership(&dom));
        walked.tree.data = crate::content::data_line(&dom);
        walked.tree.declared = crate::content::for_snapshot(&dom, &walked.tree);
        Document {
            dom,
            index,
            tree: walked.tree,
            refs: walked.refs,
            main,
            encoding,
            encoding_source,
            decode_errors,
            opts: opts.clone(),
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

    /// Renders one part of the page: `scope` is a ref (`e12`: that node and its content, the
    /// way a folded stub line invites) or a CSS selector (the first visible match: scoped as
    /// its ref when it has one, else its content). Refs are the whole page's, whatever the
    /// scope.
    ///
    /// ```
    /// use agent_snapshot::{Document, RenderOptions, TreeOptions};
    ///
    /// let doc = Document::parse(
    ///     "<nav><a href=/>Home</a></nav><div id=deal><p>Gold <a href=/g>¥580</a></p></div>",
    ///     &TreeOptions::default(),
    /// );
    /// let opts = RenderOptions::default();
    /// let by_css = doc.snapshot_scoped("#deal", &opts)?;
    /// assert!(by_css.text.contains("[¥580](e3)") && !by_css.text.contains("Home"), "{}", by_css.text);
    /// let by_ref = doc.snapshot_scoped("e1", &opts)?;
    /// assert!(by_ref.text.contains("Home") && !by_ref.text.contains("Gold"));
    /// // A match with a ref shows its own line, as its ref does.
    /// let link = doc.snapshot_scoped("#deal a", &opts)?;
    /// assert_eq!(link.text, doc.snapshot_scoped("e3", &opts)?.text);
    /// assert!(link.text.contains(r#"- link "¥580" [href=/g] [ref=e3]"#), "{}", link.text);
    /// assert!(doc.snapshot_scoped("#nothing", &opts).is_err());
    /// # Ok::<(), agent_snapshot::ScopeError>(())
    /// ```
    ///
    /// # Errors
    /// [`ScopeError`] when the ref is not in the tree, the selector is invalid, or nothing
    /// visible matches it.
    pub fn snapshot_scoped(
        &self,
        scope: &str,
        opts: &RenderOptions,
    ) -> Result<SnapshotResult, ScopeError> {
        if let Some(r) = scope_ref(scope) {
            // A control that reveals collapsed panels (a disclosure, a tab): its scope is
            // what a click on it shows, as its line says.
            let panels = usize::try_from(r.number())
                .ok()
                .and_then(|n| self.refs.get(n.checked_sub(1)?))
                .map_or(&[][..], |&id| self.index.collapsed_panels(id));
            if !panels.is_empty() {
                return Ok(self.render_walked(panels, opts));
            }
            return render_scope(&self.tree, r, opts);
        }
        let scope = scope.trim();
        let selector =
            crate::parse::select::Selector::parse(scope).map_err(|e| ScopeError::BadSelector {
                selector: scope.to_string(),
                message: e.to_string(),
            })?;
        // Hidden matches are no scope: their content must not reach the model.
        let id = self
            .dom
            .elements()
            .map(|(id, _)| id)
            .find(|&id| {
                selector.matches(&self.dom, id)
                    && crate::aria::hidden::is_hidden(&self.dom, self.index.styles(), id).is_none()
            })
            .ok_or_else(|| ScopeError::NoMatch(scope.to_string()))?;
        // A match with a ref is that ref's scope: its own line first (a link or a button
        // scoped is its line, not only its text), then its content.
        if let Some(r) = self.ref_of(id) {
            return render_scope(&self.tree, r, opts);
        }
        Ok(self.render_walked(&[id], opts))
    }

    /// The page ref of an arena node, when it has one.
    fn ref_of(&self, id: NodeId) -> Option<Ref> {
        let i = self.refs.iter().position(|&r| r == id)?;
        Ref::new(u32::try_from(i + 1).ok()?)
    }

    /// The content of `roots`, walked on their own (a collapsed panel's hidden root
    /// included: a scoped walk starts at its children) and rendered with the page's refs.
    fn render_walked(&self, roots: &[NodeId], opts: &RenderOptions) -> SnapshotResult {
        let page_ref: std::collections::HashMap<NodeId, Ref> = self
            .refs
            .iter()
            .enumerate()
            .filter_map(|(i, id)| Some((*id, Ref::new(u32::try_from(i + 1).ok()?)?)))
            .collect();
        let mut tree = NodeTree {
            version: crate::tree::SCHEMA_VERSION,
            url: self.tree.url.clone(),
            title: self.tree.title.clone(),
            view: self.tree.view,
            data: None,
            declared: None,
            tree: TreeNode::default(),
            stats: Default::default(),
        };
        for &root in roots {
            let walked = walk_from(&self.dom, &self.index, &self.opts, root);
            let mut part = walked.tree;
            // The scoped walk numbers its refs from e1; give each node the whole page's ref
            // (none inside a collapsed panel, which the page's walk does not enter).
            let mut stack: Vec<&mut TreeNode> = vec![&mut part.tree];
            while let Some(node) = stack.pop() {
                if let Some(r) = node.ref_ {
                    let id = usize::try_from(r.number())
                        .ok()
                        .and_then(|n| walked.refs.get(n - 1));
                    node.ref_ = id.and_then(|id| page_ref.get(id).copied());
                }
                stack.extend(node.children.iter_mut());
            }
            if tree.tree.tag.is_empty() {
                tree.tree.tag = part.tree.tag.clone();
            }
            tree.tree.children.append(&mut part.tree.children);
        }
        render(&tree, opts)
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

    /// The element found as the page's main content (see [`crate::read`]): the top
    /// candidate of the Readability-style scoring, before the siblings that join it are
    /// added. `None` when no paragraph on the page scored. Its ref, when it has one, is
    /// [`crate::read::ReadStats::main`].
    ///
    /// ```
    /// use agent_snapshot::{Document, TreeOptions};
    /// use html5ever::local_name;
    ///
    /// let prose = "<p>A paragraph long enough to score, with commas, clauses and words.</p>";
    /// let html = format!("<nav><a href=/>Home</a></nav><div id=story>{prose}{prose}</div>");
    /// let doc = Document::parse(&html, &TreeOptions::default());
    /// let main = doc.main_content().and_then(|id| doc.dom().element(id)).expect("main");
    /// assert_eq!(main.attr(&local_name!("id")), Some("story"));
    /// ```
    pub fn main_content(&self) -> Option<NodeId> {
        self.main.top
    }

    /// The main content as readable lines under [`ReadOptions::max_chars_total`], with the
    /// document's refs on its links, headings and images (see [`crate::read`]).
    ///
    /// ```
    /// use agent_snapshot::read::ReadOptions;
    /// use agent_snapshot::{Document, TreeOptions};
    ///
    /// let html = "<nav><a href=/>Home</a></nav><article><h1>Gold</h1>\
    ///             <p>Gold rose on Tuesday, says the <a href=/bank>central bank</a>, \
    ///             to a record.</p></article>";
    /// let doc = Document::parse(html, &TreeOptions::default());
    /// let read = doc.read(&ReadOptions::default())?;
    /// assert!(read.text.contains("# Gold [ref=e3]"));
    /// assert!(read.text.contains("says the [central bank](e4), to a record."));
    /// assert!(!read.text.contains("Home"));
    /// assert_eq!(read.refs.get("e4").and_then(|r| r.name.as_deref()), Some("central bank"));
    /// # Ok::<(), agent_snapshot::read::ReadError>(())
    /// ```
    ///
    /// # Errors
    /// [`ReadError::RefNotFound`] when [`ReadOptions::from`] names no ref of the page.
    pub fn read(&self, opts: &ReadOptions) -> Result<ReadResult, ReadError> {
        crate::read::read(
            &self.dom,
            &self.index,
            &self.tree,
            crate::read::Refs {
                ids: &self.refs,
                numbers: None,
            },
            &self.main,
            opts,
        )
    }
}

/// A page parsed in one [`View`], with what the view is chosen by: its styles and roles,
/// and its main content.
struct Viewed {
    dom: Dom,
    index: Index,
    main: MainContent,
}

impl Viewed {
    /// The page as a browser running its scripts shows it, or, when that shows no main
    /// content or far less than the `<noscript>` elements hold, as a browser running none
    /// shows it (`content::no_script_view_wins`). The second parse happens only on pages
    /// whose `<noscript>` holds enough text to win.
    fn of(html: &str, opts: &TreeOptions) -> Viewed {
        if let Some(view) = opts.view {
            return Viewed::parse(html, opts, view);
        }
        let scripted = Viewed::parse(html, opts, View::Scripted);
        if !crate::content::no_script_view_may_win(&scripted.main, scripted.dom.noscript_chars()) {
            return scripted;
        }
        let no_script = Viewed::parse(html, opts, View::NoScript);
        if crate::content::no_script_view_wins(&scripted.main, &no_script.main) {
            no_script
        } else {
            scripted
        }
    }

    fn parse(html: &str, opts: &TreeOptions, view: View) -> Viewed {
        let dom = Dom::parse_view(html, opts.threads, view);
        let mut style = opts.style.clone();
        style.viewport.no_script = view == View::NoScript;
        let index = Index::with_styles(&dom, Styles::build(&dom, &style));
        let main = crate::content::find(&dom, &index);
        Viewed { dom, index, main }
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

    #[test]
    fn compressed_input_is_an_error_that_says_what_to_do() {
        let gz = [0x1f, 0x8b, 0x08, 0x00, b'<', b'p', b'>'];
        let err = Document::parse_bytes(&gz[..], &TreeOptions::default())
            .err()
            .expect("error");
        assert!(err.to_string().contains("gunzip"), "{err}");
        // Bytes that only contain the magic number later are a page like any other.
        assert!(Document::parse_bytes(&b"<p>\x1f\x8b</p>"[..], &TreeOptions::default()).is_ok());
    }
}
