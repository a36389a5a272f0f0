//! The node tree: the versioned JSON contract between the offline walk and the in-browser
//! script, and the only input of the renderer.
//!
//! The schema is documented in `docs/node-tree.md` (with a JSON Schema beside it). Both
//! producers emit only what a person can see, in document order, with generic wrappers
//! (`div`, `span`…) folded into their nearest emitted ancestor.
//!
//! Reading JSON from outside ([`NodeTree::from_json`]) is bounded: the size is capped and the
//! nesting depth is checked by a linear byte scan *before* serde recurses into it, so hostile
//! input gets an error, never a stack overflow.

use std::borrow::Cow;
use std::fmt;
use std::num::NonZeroU32;

use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub use crate::parse::View;

/// The schema version this crate writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

/// The deepest tree a producer may emit, and the renderer accepts. The offline walk hoists
/// anything deeper to this depth; a page nested deeper than this is not readable by a person
/// either.
pub const MAX_TREE_DEPTH: usize = 256;

/// The largest node-tree JSON accepted, in bytes (the script's output is ~100 KB typically).
pub const MAX_JSON_BYTES: usize = 64 * 1024 * 1024;

/// A whole snapshot document: `{version, url, title, tree, stats}`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct NodeTree {
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The browser the page was read as: absent for the scripted view (every live page and
    /// most offline ones), `"noscript"` when an offline page showed its content only without
    /// scripts ([`View`]); the outputs' headers say so.
    #[serde(default, skip_serializing_if = "View::is_scripted")]
    pub view: View,
    /// The page's own data as one labelled line (`[data] type=Product price=129.00 EUR …`,
    /// at most 300 characters): what its structured data states of the thing it is about;
    /// the outputs print it under their header.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Free text the page's structured data declares and no node of the tree shows (a
    /// product's description only in its JSON-LD, the body of a page its scripts build), at
    /// most 4 000 characters: the snapshot prints it under its header, labelled as the
    /// page's declaration. Absent on most pages, and on live trees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<String>,
    pub tree: TreeNode,
    #[serde(default)]
    pub stats: TreeStats,
}

/// One node: an element a person can see and that means something (a role, a ref, or the
/// root).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TreeNode {
    /// Lower-case tag name. (`Cow`: producers in this crate use static strings, so building
    /// and dropping a large tree allocates little.)
    pub tag: Cow<'static, str>,
    /// The computed ARIA role, or `clickable` / `focusable` for cursor-interactive elements
    /// without one; absent for generic elements.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Cow<'static, str>>,
    /// `e1`, `e2`… in document order, for nodes an agent can act on or ask about. Read
    /// leniently: a `ref` that is not `e` and a number (from a tree made outside this crate)
    /// reads as absent, so it can never reach the ref map.
    #[serde(
        rename = "ref",
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_ref"
    )]
    pub ref_: Option<Ref>,
    /// The accessible name. (`Box<str>` rather than `String`: a tree holds one per node and
    /// never grows them, so the spare capacity and word of a `String` would be waste.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<Box<str>>,
    /// Visible text owned by this node and not by an emitted descendant, whitespace
    /// normalised and cut at `maxTextPerNode`; absent when empty or equal to `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Box<str>>,
    /// Heading level (1–6, or `aria-level`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// Selected attributes, values cut at `maxAttrValueLen`.
    #[serde(default, skip_serializing_if = "Attrs::is_empty")]
    pub attrs: Attrs,
    /// Boolean states that are on: `checked`, `mixed`, `selected`, `expanded`, `pressed`,
    /// `disabled`, `required`.
    #[serde(default, skip_serializing_if = "States::is_empty")]
    pub states: States,
    /// Whether the ref comes from `onclick` / `tabindex` / `contenteditable` (or
    /// `cursor:pointer` in the browser) rather than from the role.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cursor_interactive: bool,
    /// The page's main content starts here (offline: what [`crate::content`] found, the part
    /// `read` reads; on a `#text` run, text of the content whose element made no node). The
    /// renderer ranks marked subtrees as its main content; a tree with no mark (from the
    /// in-browser script) is ranked by the renderer's own scoring. Omitted when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub main: bool,
    /// Inside the main content, a part its reader leaves out by its class (a post's
    /// signature, a share bar, a related-posts box) or of a post's author pane (all but the
    /// author's name): the renderer ranks it with the rest of the page. Omitted when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left_out: bool,
    /// On a control that reveals collapsed panels (a disclosure, a tab, a framework's
    /// collapse toggle; not shown until clicked, but one click away): how many characters of
    /// text they hold. The renderer says so on the control's line, and a scope on the
    /// control's ref shows them. Omitted when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collapsed: Option<NonZeroU32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<TreeNode>,
}

// Trees hold a node per visible element (40 000 on a dense 2 MB page) while the arena is
// still alive: keep a node within 152 bytes (checked at build time). It was 144 until
// `collapsed` came: 8 bytes more a node, 320 KB on that page.
const _: () = assert!(std::mem::size_of::<TreeNode>() <= 152);

/// The tag of a text run: a `#text` node carries, in `text`, visible text that sits among
/// its parent's element children, so that text and inline elements keep their order.
pub const TEXT_RUN_TAG: &str = "#text";

impl TreeNode {
    /// Drops soft hyphens from the text and names of this node and every node below it: a
    /// script's tree keeps the DOM's text as it is, and the offline walk shows none
    /// ([`crate::text::without_soft_hyphens`]), so that both paths render one text.
    fn drop_soft_hyphens(&mut self) {
        let mut stack = vec![self];
        while let Some(node) = stack.pop() {
            for s in [&mut node.text, &mut node.name].into_iter().flatten() {
                if let std::borrow::Cow::Owned(shown) = crate::text::without_soft_hyphens(s) {
                    *s = shown.into();
                }
            }
            stack.extend(node.children.iter_mut());
        }
    }

    /// This node and every node below it, in document order (an explicit stack: no
    /// recursion on tree depth).
    pub fn descendants(&self) -> impl Iterator<Item = &TreeNode> {
        let mut stack = vec![self];
        std::iter::from_fn(move || {
            let node = stack.pop()?;
            stack.extend(node.children.iter().rev());
            Some(node)
        })
    }

    /// A `#text` node holding `text`.
    pub fn text_run(text: String) -> TreeNode {
        TreeNode {
            tag: Cow::Borrowed(TEXT_RUN_TAG),
            text: Some(text.into_boxed_str()),
            ..Default::default()
        }
    }

    /// Whether this is a `#text` node (a run of text between elements), not an element.
    pub fn is_text_run(&self) -> bool {
        self.tag == TEXT_RUN_TAG
    }

    /// Whether this is an unnamed `<form>`: a node without role, name or ref that only says
    /// which controls belong together (`docs/node-tree.md`). A renderer writes no line for it.
    pub fn is_form_wrapper(&self) -> bool {
        self.role.is_none() && self.ref_.is_none() && self.tag == "form"
    }

    /// Whether an unnamed form holds text of its own (in a run, or in an unnamed form
    /// inside it): text that, were the form not a node, would be its parent's.
    pub(crate) fn form_wrapper_has_text(&self) -> bool {
        self.is_form_wrapper()
            && self
                .children
                .iter()
                .any(|c| c.is_text_run() || c.form_wrapper_has_text())
    }
}

/// A ref: `e` and a positive number without leading zeros, as `e1`, `e2`… in document order.
///
/// ```
/// use agent_snapshot::Ref;
///
/// let r = Ref::parse("e12").expect("well formed");
/// assert_eq!((r.number(), r.to_string()), (12, "e12".to_string()));
/// assert_eq!(Ref::parse("e012"), None);
/// assert_eq!(Ref::parse("e+5"), None);
/// assert_eq!(Ref::new(0), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Ref(NonZeroU32);

impl Ref {
    /// The ref numbered `n`, if `n` is positive.
    pub fn new(n: u32) -> Option<Ref> {
        NonZeroU32::new(n).map(Ref)
    }

    /// Reads exactly `e` and a number (1 to 4 294 967 295, no sign, no leading zero).
    pub fn parse(s: &str) -> Option<Ref> {
        let digits = s.strip_prefix('e')?;
        if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // `u32::from_str` alone would accept a leading `+`; the check above rules it out.
        digits.parse().ok().and_then(Ref::new)
    }

    /// The number after the `e`.
    pub fn number(self) -> u32 {
        self.0.get()
    }
}

impl fmt::Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}", self.0)
    }
}

impl Serialize for Ref {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// `ref` as the schema has it (a string, or null for none); a string that is not a
/// well-formed ref reads as none.
fn lenient_ref<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Ref>, D::Error> {
    struct RefVisitor;
    impl<'de> Visitor<'de> for RefVisitor {
        type Value = Option<Ref>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a ref string such as \"e7\"")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Option<Ref>, E> {
            Ok(Ref::parse(v))
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Option<Ref>, E> {
            Ok(None)
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Option<Ref>, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Ref>, D::Error> {
            d.deserialize_str(RefVisitor)
        }
    }
    deserializer.deserialize_option(RefVisitor)
}

/// One boolean state of a node, in the schema's order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum State {
    Checked,
    Mixed,
    Selected,
    Expanded,
    Pressed,
    Disabled,
    Required,
}

impl State {
    /// Every state, in the order the schema lists them and producers emit them.
    pub const ALL: [State; 7] = [
        State::Checked,
        State::Mixed,
        State::Selected,
        State::Expanded,
        State::Pressed,
        State::Disabled,
        State::Required,
    ];

    /// The schema's name for the state.
    pub fn as_str(self) -> &'static str {
        match self {
            State::Checked => "checked",
            State::Mixed => "mixed",
            State::Selected => "selected",
            State::Expanded => "expanded",
            State::Pressed => "pressed",
            State::Disabled => "disabled",
            State::Required => "required",
        }
    }

    /// The state named `name` in the schema.
    pub fn from_name(name: &str) -> Option<State> {
        State::ALL.into_iter().find(|s| s.as_str() == name)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The states that are on: a set, iterated (and serialised as a JSON array) in the schema's
/// order.
///
/// ```
/// use agent_snapshot::{State, States};
///
/// let states: States = [State::Required, State::Checked].into_iter().collect();
/// assert!(states.contains(State::Checked));
/// let names: Vec<&str> = states.iter().map(State::as_str).collect();
/// assert_eq!(names, ["checked", "required"]);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct States(u8);

impl States {
    /// Turns `state` on.
    pub fn insert(&mut self, state: State) {
        self.0 |= state.bit();
    }

    /// Whether `state` is on.
    pub fn contains(self, state: State) -> bool {
        self.0 & state.bit() != 0
    }

    /// Whether no state is on.
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The states that are on, in the schema's order.
    pub fn iter(self) -> impl Iterator<Item = State> {
        State::ALL.into_iter().filter(move |s| self.contains(*s))
    }
}

impl fmt::Debug for States {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<State> for States {
    fn from_iter<I: IntoIterator<Item = State>>(iter: I) -> Self {
        let mut out = States::default();
        for s in iter {
            out.insert(s);
        }
        out
    }
}

impl Serialize for States {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(State::as_str))
    }
}

impl<'de> Deserialize<'de> for States {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StatesVisitor;
        impl<'de> Visitor<'de> for StatesVisitor {
            type Value = States;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of state names")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<States, A::Error> {
                // A state this version does not know (a newer producer's) is left out rather
                // than failing the whole tree; the renderer only ever shows known ones.
                let mut out = States::default();
                while let Some(name) = seq.next_element::<Cow<'de, str>>()? {
                    if let Some(s) = State::from_name(&name) {
                        out.insert(s);
                    }
                }
                Ok(out)
            }
        }
        deserializer.deserialize_seq(StatesVisitor)
    }
}

/// A node's attributes, by name, iterated in name order (a JSON object in the schema).
///
/// A node carries a handful at most, so they are a vector sorted by name: a `BTreeMap` would
/// allocate a ~500-byte leaf for every node that has one attribute, which on a page with
/// thousands of links was the largest part of the tree.
///
/// ```
/// use agent_snapshot::Attrs;
///
/// let mut attrs = Attrs::default();
/// attrs.insert("type", "search".to_string());
/// attrs.insert("href", "/".to_string());
/// assert_eq!(attrs.get("type"), Some("search"));
/// let names: Vec<&str> = attrs.iter().map(|(name, _)| name).collect();
/// assert_eq!(names, ["href", "type"]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attrs(Vec<(Cow<'static, str>, String)>);

impl Attrs {
    /// The value of `name`, if the node has it.
    pub fn get(&self, name: &str) -> Option<&str> {
        let i = self.0.binary_search_by(|(k, _)| (**k).cmp(name)).ok()?;
        Some(self.0[i].1.as_str())
    }

    /// Sets `name` to `value`; returns the value it replaces.
    pub fn insert(&mut self, name: impl Into<Cow<'static, str>>, value: String) -> Option<String> {
        let name = name.into();
        match self.0.binary_search_by(|(k, _)| (**k).cmp(&*name)) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                // Grown one slot at a time: a node has one to three attributes, and doubling
                // would leave most of a four-slot block (48 bytes a slot) empty on each.
                self.0.reserve_exact(1);
                self.0.insert(i, (name, value));
                None
            }
        }
    }

    /// `(name, value)` pairs in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (&**k, v.as_str()))
    }

    /// How many attributes there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Sorts pairs gathered in any order; a repeated name keeps its last value. O(n log n):
    /// inserting one by one into the sorted vector would be O(n²) for a hostile JSON object
    /// with a million keys in reverse order.
    fn from_pairs(mut pairs: Vec<(Cow<'static, str>, String)>) -> Attrs {
        // Stable: among equal names the input order survives, so the last one is last.
        pairs.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Cow<'static, str>, String)> = Vec::with_capacity(pairs.len());
        for pair in pairs {
            match out.last_mut() {
                Some(last) if last.0 == pair.0 => *last = pair,
                _ => out.push(pair),
            }
        }
        Attrs(out)
    }
}

impl<K: Into<Cow<'static, str>>> FromIterator<(K, String)> for Attrs {
    fn from_iter<I: IntoIterator<Item = (K, String)>>(iter: I) -> Self {
        Attrs::from_pairs(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl Serialize for Attrs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Attrs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct AttrsVisitor;
        impl<'de> Visitor<'de> for AttrsVisitor {
            type Value = Attrs;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of attribute names to string values")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Attrs, A::Error> {
                // A repeated name keeps its last value, as a JSON object read into a map does.
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    pairs.push((Cow::Owned(k), v));
                }
                Ok(Attrs::from_pairs(pairs))
            }
        }
        deserializer.deserialize_map(AttrsVisitor)
    }
}

/// Counters from the producer.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TreeStats {
    /// Elements in the page.
    pub dom_nodes: u64,
    /// Elements the walk looked at (hidden subtrees are not entered).
    pub visited_nodes: u64,
    /// Nodes in `tree`.
    pub emitted_nodes: u64,
    /// Hidden subtrees skipped, each counted once at its root.
    pub skipped_hidden: u64,
    /// Time the in-browser script took (absent offline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub js_time_ms: Option<f64>,
    /// The producer stopped early (the script's coarse `maxNodes`); the renderer reports it
    /// as `maxNodes`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// Why node-tree JSON was rejected.
#[derive(Debug, thiserror::Error)]
pub enum TreeJsonError {
    #[error("node-tree JSON is {size} bytes, over the {max}-byte limit: snapshot a smaller scope")]
    TooLarge { size: usize, max: usize },
    #[error(
        "node-tree JSON nests deeper than {max} levels: producers must hoist nodes deeper than \
         {MAX_TREE_DEPTH} tree levels"
    )]
    TooDeep { max: usize },
    #[error("node-tree JSON is malformed: {0}")]
    Malformed(#[from] serde_json::Error),
    #[error(
        "node-tree JSON has schema version {found}, but this build reads version \
         {SCHEMA_VERSION}: upgrade agent-snapshot or the script that produced it"
    )]
    Version { found: u32 },
}

impl NodeTree {
    /// Reads node-tree JSON as the script returns it. Bounded in size and depth.
    pub fn from_json(json: &str) -> Result<NodeTree, TreeJsonError> {
        if json.len() > MAX_JSON_BYTES {
            return Err(TreeJsonError::TooLarge {
                size: json.len(),
                max: MAX_JSON_BYTES,
            });
        }
        // Each tree level is an object plus a `children` array; a little slack for the
        // envelope and `attrs`.
        let max = 2 * MAX_TREE_DEPTH + 8;
        if json_depth_exceeds(json.as_bytes(), max) {
            return Err(TreeJsonError::TooDeep { max });
        }
        let mut de = serde_json::Deserializer::from_str(json);
        // Depth was checked above, so serde's own limit (128) would only reject valid trees.
        de.disable_recursion_limit();
        let mut tree = NodeTree::deserialize(&mut de)?;
        de.end()?;
        if tree.version != SCHEMA_VERSION {
            return Err(TreeJsonError::Version {
                found: tree.version,
            });
        }
        tree.tree.drop_soft_hyphens();
        Ok(tree)
    }

    /// Serialises to compact JSON.
    pub fn to_json(&self) -> String {
        // Serialising plain structs with string keys cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Whether `[`/`{` nesting outside strings goes deeper than `max`. Linear, no allocation.
fn json_depth_exceeds(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_with_camel_case_keys() {
        let tree = NodeTree {
            version: SCHEMA_VERSION,
            url: Some("https://example.com/".into()),
            title: None,
            view: View::Scripted,
            data: None,
            declared: None,
            tree: TreeNode {
                tag: "body".into(),
                children: vec![TreeNode {
                    tag: "a".into(),
                    role: Some("link".into()),
                    ref_: Ref::new(1),
                    name: Some("Home".into()),
                    cursor_interactive: true,
                    ..Default::default()
                }],
                ..Default::default()
            },
            stats: TreeStats::default(),
        };
        let json = tree.to_json();
        assert!(json.contains("\"ref\":\"e1\""));
        assert!(json.contains("\"cursorInteractive\":true"));
        assert!(json.contains("\"domNodes\":0"));
        assert_eq!(NodeTree::from_json(&json).expect("parse"), tree);
    }

    #[test]
    fn a_scripts_tree_shows_no_soft_hyphens() {
        let json = "{\"version\":1,\"tree\":{\"tag\":\"body\",\"children\":[\
            {\"tag\":\"h1\",\"name\":\"Mit\\u00adtel\\u00adal\\u00adter\"},\
            {\"tag\":\"#text\",\"text\":\"Wein\\u00adbau\"}]}}";
        let tree = NodeTree::from_json(json).expect("parse");
        let kids = &tree.tree.children;
        assert_eq!(kids[0].name.as_deref(), Some("Mittelalter"));
        assert_eq!(kids[1].text.as_deref(), Some("Weinbau"));
    }

    #[test]
    fn malformed_refs_and_unknown_states_read_as_absent() {
        let json = r#"{"version":1,"tree":{"tag":"body","children":[
            {"tag":"a","ref":"e 8","states":["busy","checked"]},
            {"tag":"a","ref":"e01"},
            {"tag":"a","ref":"e+5"},
            {"tag":"a","ref":null},
            {"tag":"a","ref":"e4294967296"},
            {"tag":"a","ref":"e4294967295","states":["required","disabled","required"]}]}}"#;
        let tree = NodeTree::from_json(json).expect("parse");
        let kids = &tree.tree.children;
        let refs: Vec<Option<u32>> = kids.iter().map(|n| n.ref_.map(Ref::number)).collect();
        assert_eq!(refs, [None, None, None, None, None, Some(u32::MAX)]);
        assert_eq!(kids[0].states.iter().collect::<Vec<_>>(), [State::Checked]);
        let out = tree.to_json();
        assert!(
            out.contains(r#""ref":"e4294967295","states":["disabled","required"]"#),
            "{out}"
        );
        // A ref of the wrong type is still malformed JSON for the schema, not a missing ref.
        assert!(matches!(
            NodeTree::from_json(r#"{"version":1,"tree":{"tag":"a","ref":7}}"#),
            Err(TreeJsonError::Malformed(_))
        ));
    }

    #[test]
    fn attrs_read_as_an_object_in_name_order_last_value_wins() {
        let json =
            r#"{"version":1,"tree":{"tag":"a","attrs":{"type":"x","href":"/a","href":"/b"}}}"#;
        let tree = NodeTree::from_json(json).expect("parse");
        let attrs = &tree.tree.attrs;
        assert_eq!(attrs.len(), 2);
        assert_eq!(attrs.get("href"), Some("/b"));
        assert_eq!(attrs.get("title"), None);
        assert!(tree
            .to_json()
            .contains(r#""attrs":{"href":"/b","type":"x"}"#));
        assert!(matches!(
            NodeTree::from_json(r#"{"version":1,"tree":{"tag":"a","attrs":{"href":1}}}"#),
            Err(TreeJsonError::Malformed(_))
        ));
    }

    #[test]
    fn many_attributes_in_reverse_order_read_in_n_log_n() {
        // 200 000 keys, descending: one-by-one sorted insertion would move ~2·10^10 entries.
        let n = 200_000;
        let body: Vec<String> = (0..n).rev().map(|i| format!("\"a{i:06}\":\"v\"")).collect();
        let json = format!(
            "{{\"version\":1,\"tree\":{{\"tag\":\"a\",\"attrs\":{{{}}}}}}}",
            body.join(",")
        );
        let tree = NodeTree::from_json(&json).expect("parse");
        let names: Vec<&str> = tree.tree.attrs.iter().map(|(k, _)| k).collect();
        assert_eq!(names.len(), n);
        assert!(names.windows(2).all(|w| w[0] < w[1]));
        let collected: Attrs = [
            ("b", "1".to_string()),
            ("a", "2".to_string()),
            ("b", "3".to_string()),
        ]
        .into_iter()
        .collect();
        assert_eq!(
            collected.iter().collect::<Vec<_>>(),
            [("a", "2"), ("b", "3")]
        );
    }

    #[test]
    fn rejects_deep_malformed_and_future_json() {
        let deep = format!(
            "{{\"version\":1,\"tree\":{}{}}}",
            "{\"tag\":\"div\",\"children\":[".repeat(100_000),
            "]}".repeat(100_000)
        );
        assert!(matches!(
            NodeTree::from_json(&deep),
            Err(TreeJsonError::TooDeep { .. })
        ));
        assert!(matches!(
            NodeTree::from_json("{\"version\":1"),
            Err(TreeJsonError::Malformed(_))
        ));
        assert!(matches!(
            NodeTree::from_json("{\"version\":9,\"tree\":{\"tag\":\"body\"}}"),
            Err(TreeJsonError::Version { found: 9 })
        ));
        // Brackets inside strings do not count.
        let s = format!(
            "{{\"version\":1,\"tree\":{{\"tag\":\"{}\"}}}}",
            "[".repeat(5000)
        );
        assert!(NodeTree::from_json(&s).is_ok());
    }

    #[test]
    fn accepts_a_tree_at_the_depth_limit() {
        let json = format!(
            "{{\"version\":1,\"tree\":{}{}}}",
            "{\"tag\":\"ul\",\"children\":[".repeat(MAX_TREE_DEPTH),
            "]}".repeat(MAX_TREE_DEPTH)
        );
        // The innermost object is missing its tag; fix by appending one leaf.
        let json = json.replacen("[]", "[{\"tag\":\"li\"}]", 1);
        assert!(NodeTree::from_json(&json).is_ok());
    }
}
