//! What earns a place in the budget: the renderer's analysis and choice, before any line is
//! written.
//!
//! Three linear passes over the flattened tree (see `docs/rendering.md`):
//! 1. bottom-up: per subtree, text and link-text bytes, links, controls, refs, key fields, a
//!    signature of its links (to spot a repeated menu);
//! 2. top-down, in named steps (`Plan::new`): the main content (a `main` landmark, else
//!    Readability-style scoring over the tree), the kind of line each node makes, a priority
//!    class inherited from the nearest classified ancestor, the key forms, the lines of
//!    prose and the cards;
//! 3. the choice: priority classes in turn, each in document order, take nodes while their
//!    line, the lines of their ancestors and the stub lines their neighbours will need still
//!    fit the budget; then a run of hidden lines no longer than its stub is shown instead of
//!    it, and the classes run again with what that gave back (`super::choice`).
//!
//! The output is then written in document order (`super::emit`): what was not chosen folds
//! into one stub line per run of siblings, which says what it holds and how to get it.

use std::collections::HashMap;

use super::{Flat, Format, RenderOptions, TruncateReason};
use crate::tree::TreeNode;

/// Priority classes, most important first.
pub(super) const P_KEY: u8 = 0; // dialogs, alerts, search, forms with a key field, h1
pub(super) const P_MAIN: u8 = 1; // the main content, h1–h3 outside navigation
pub(super) const P_REST: u8 = 2; // other controls, the rest of the page
pub(super) const P_ASIDE: u8 = 3; // complementary regions
pub(super) const P_CHROME: u8 = 4; // navigation, banner, footer, consent, link farms, repeats

/// A dialog holding more text than this (bytes) ranks as the region it is in, not first: a
/// prompt, a sign-in, a cart confirmation or a cookie notice is shorter. 2 000 bytes is
/// about 300 words.
const DIALOG_MAX_TEXT: u32 = 2000;

/// A card (a teaser, a gallery item) holds under this many bytes of text, about 150 words:
/// its title and a blurb. A section of a product or landing page (`<article>` "Design",
/// "Performance", each with its paragraphs) holds more and is the content itself. (On
/// web2025, at 1 000 four snapshots carry more of their content and none less; at 600 three
/// carry less, at 2 000 one carries more.)
const CARD_MAX_TEXT: u32 = 1000;

/// A table of the content with this many rows or fewer ranks with its prose (see
/// [`small_tables`]): a syntax box, a specification, a price list.
const SMALL_TABLE_ROWS: u32 = 12;

/// What line a node makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// No line of its own: no content (compact), or part of an ancestor's line.
    None,
    /// One line that holds the node's whole subtree (a leaf, or text with inline links).
    Line,
    /// A line with its children's lines below it.
    Container,
    /// No line: a wrapper with nothing to say and one child, which takes its place.
    Transparent,
}

/// Roles that can sit inside a line of text: `[label](ref)` for a link, its alt for an
/// image.
fn inline_role(role: &str) -> bool {
    matches!(role, "link" | "img")
}

/// Roles a person fills in or operates (a form's controls).
pub(super) fn is_control(role: &str) -> bool {
    matches!(
        role,
        "textbox"
            | "searchbox"
            | "combobox"
            | "listbox"
            | "checkbox"
            | "radio"
            | "switch"
            | "spinbutton"
            | "slider"
            | "button"
    )
}

/// Words in a field's name, label or placeholder that make it a key field of a login,
/// search, registration or recovery form.
const KEY_FIELD_WORDS: &[&str] = &[
    "user",
    "login",
    "log in",
    "sign in",
    "signin",
    "email",
    "e-mail",
    "mail",
    "password",
    "passwort",
    "contraseña",
    "mot de passe",
    "search",
    "query",
    "keyword",
    "suche",
    "recherche",
    "buscar",
    "搜索",
    "検索",
    "account",
    "phone",
];

/// Words that name a search button.
const SEARCH_WORDS: &[&str] = &["search", "suche", "recherche", "buscar", "搜索", "検索"];

/// Words that say a field is for an e-mail address only. A form whose only key field is
/// one of these may be a mailing-list sign-up or a comment form rather than a recovery
/// form (see `key_form`).
const EMAIL_WORDS: &[&str] = &["email", "e-mail", "mail"];

/// Words on a form's button or label that make it a mailing-list sign-up (Formasaurus'
/// "join mailing list"), which no task on the page is likely to need first.
const MAILING_WORDS: &[&str] = &[
    "subscribe",
    "newsletter",
    "abonn",
    "suscrib",
    "iscriviti",
    "訂閱",
    "订阅",
];

/// What makes a field key: a task on this page most likely needs it.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum Key {
    #[default]
    No,
    /// An e-mail field: key for recovery and registration, not for a newsletter.
    Email,
    /// A password, user-name or search field.
    Strong,
}

/// Whether a node is a key field ([`key_of`]): `read` leaves such a form's boxes out of a
/// listing's filters.
pub(crate) fn is_key_field(n: &TreeNode) -> bool {
    key_of(n) != Key::No
}

/// A field a task on this page most likely needs: a password, e-mail, user-name or search
/// field.
fn key_of(n: &TreeNode) -> Key {
    let role = n.role.as_deref().unwrap_or("");
    if role == "searchbox" {
        return Key::Strong;
    }
    // A run of selects and a "Search" button is a search form (filters by category, year…).
    // (Every button is asked: compared without lower-casing a copy of each name, and only
    // a short name, as a search button's is; a shop's thousand "Add to cart: <product>"
    // buttons are not scanned word by word.)
    // (The `name` attribute too: a "Go" or "Fetch" button named `hotelSearchSubmit`.)
    if role == "button" {
        let says = |name: &[u8]| {
            name.len() <= 32
                && SEARCH_WORDS.iter().any(|w| {
                    let w = w.as_bytes();
                    name.len() >= w.len()
                        && name.windows(w.len()).any(|x| x.eq_ignore_ascii_case(w))
                })
        };
        let name = n.name.as_deref().unwrap_or("").as_bytes();
        let name_attr = n.attrs.get("name").unwrap_or("").as_bytes();
        return if says(name) || says(name_attr) {
            Key::Strong
        } else {
            Key::No
        };
    }
    if !matches!(role, "textbox" | "combobox") {
        return Key::No;
    }
    let ty = n.attrs.get("type").unwrap_or("").trim();
    if ["password", "search"]
        .iter()
        .any(|t| ty.eq_ignore_ascii_case(t))
    {
        return Key::Strong;
    }
    let name_attr = n.attrs.get("name").unwrap_or("").trim();
    if ["q", "s", "k", "p", "wd", "query"]
        .iter()
        .any(|t| name_attr.eq_ignore_ascii_case(t))
    {
        return Key::Strong;
    }
    let mut key = if ty.eq_ignore_ascii_case("email") {
        Key::Email
    } else {
        Key::No
    };
    for s in [
        n.attrs.get("name"),
        n.name.as_deref(),
        n.attrs.get("placeholder"),
        n.attrs.get("aria-label"),
    ]
    .into_iter()
    .flatten()
    {
        let s = s.to_lowercase();
        for w in KEY_FIELD_WORDS.iter().filter(|w| s.contains(*w)) {
            key = key.max(if EMAIL_WORDS.contains(w) {
                Key::Email
            } else {
                Key::Strong
            });
        }
    }
    key
}

/// A button or label that names a mailing-list sign-up.
fn says_mailing(n: &TreeNode) -> bool {
    [n.name.as_deref(), n.text.as_deref(), n.attrs.get("value")]
        .into_iter()
        .flatten()
        .any(|s| crate::text::mentions_any(s, MAILING_WORDS))
}

/// Words that mark a cookie or consent block (it ranks with the page's chrome, however
/// modal it is).
const CONSENT_WORDS: &[&str] = &[
    "cookie",
    "consent",
    "gdpr",
    "datenschutz",
    "privacy settings",
    "privacy preferences",
];

/// Per-node facts, gathered bottom-up.
#[derive(Clone, Copy, Default)]
pub(super) struct Counts {
    /// Visible text in the subtree, in bytes (names of leaves that have no text count).
    pub text: u32,
    /// The part of `text` inside links.
    pub link_text: u32,
    pub links: u32,
    pub controls: u32,
    /// Valid refs in the subtree.
    pub refs: u32,
    /// Text lines (paragraphs, runs, items with text) in the subtree.
    pub blocks: u32,
    /// The strongest key field in the subtree (see `Key`).
    pub key: Key,
    /// A multi-line text field (`<textarea>`) in the subtree: a comment or contact form.
    pub multiline: bool,
    /// Order-sensitive hash of the subtree's links (name and href); 0 without links.
    pub link_sig: u64,
    /// Order-sensitive hash of the subtree's text outside links; 0 without such text.
    pub text_sig: u64,
}

/// The analysis and the choice.
#[derive(Clone)]
pub(super) struct Plan {
    pub kind: Vec<Kind>,
    pub counts: Vec<Counts>,
    /// The depth a line of this node is written at.
    pub depth: Vec<u32>,
    /// The flat index of the main content (0: the whole page), or of the nearest node
    /// holding every part the producer marked.
    pub main: usize,
    /// Whether the page has main content apart from the rest (else all of it ranks as main).
    pub has_main: bool,
    pub in_main: Vec<bool>,
    pub prio: Vec<u8>,
    /// A line of prose: a paragraph-like block of some length with few links.
    pub prose: Vec<bool>,
    /// Inside a card of the main content: a list item or a nested article, one of three
    /// siblings or more, with a heading of its own and under a quarter of the content's text
    /// (a gallery, "more stories", a results list). The article's own text comes
    /// before the cards' when the budget is short.
    pub in_card: Vec<bool>,
    /// This subtree repeats the links of an earlier one (its flat index).
    pub repeats: Vec<Option<u32>>,
    pub shown: Vec<bool>,
    /// A line cut to this many chars (main text at the end of the budget).
    pub cut: HashMap<usize, usize>,
    pub reasons: Vec<TruncateReason>,
    /// A text run shown shorter: without the words its neighbours' names already say.
    pub text_override: HashMap<usize, String>,
    /// The key form each line of one belongs to (the flat index of its first member), for
    /// the choice to take or leave a form whole (`form_clusters`).
    pub form_of: HashMap<usize, usize>,
}

pub(super) fn role_of(node: &TreeNode) -> &str {
    node.role.as_deref().unwrap_or("")
}

fn fnv(h: u64, bytes: &[u8]) -> u64 {
    let mut h = h ^ 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Pass 1: per-subtree counts, children before parents.
fn count(flat: &[Flat<'_>], refs_ok: &[bool]) -> Vec<Counts> {
    let mut counts = vec![Counts::default(); flat.len()];
    for i in (0..flat.len()).rev() {
        let mut c = counts[i];
        c.add_own(flat[i].node, refs_ok[i]);
        counts[i] = c;
        if i > 0 {
            counts[flat[i].parent as usize].add_child(c);
        }
    }
    counts
}

impl Counts {
    /// Adds what `node` says itself to the counts of its children.
    fn add_own(&mut self, node: &TreeNode, ref_ok: bool) {
        let role = role_of(node);
        let own_text = node.text.as_deref().map_or(0, str::len)
            + if node.children.is_empty() && node.text.is_none() && !node.is_text_run() {
                node.name.as_deref().map_or(0, str::len)
            } else {
                0
            };
        let own = u32::try_from(own_text).unwrap_or(u32::MAX);
        self.text = self.text.saturating_add(own);
        if role == "link" {
            self.links += 1;
            // A link's text is everything in it.
            self.link_text = self
                .text
                .max(node.name.as_deref().map_or(0, |n| n.len() as u32));
            self.link_sig = fnv(
                fnv(0, node.name.as_deref().unwrap_or("").as_bytes()),
                node.attrs.get("href").unwrap_or("").as_bytes(),
            );
        }
        // (Only controls can be key fields: the checks below are skipped for the rest.)
        if is_control(role) {
            self.controls += 1;
            self.key = self.key.max(key_of(node));
            self.multiline |= role == "textbox" && node.tag == "textarea";
        }
        if ref_ok {
            self.refs += 1;
        }
        if own_text > 0 && role != "link" {
            self.blocks += 1;
            if let Some(t) = node.text.as_deref() {
                self.text_sig = fnv(self.text_sig, t.as_bytes());
            }
        }
    }

    /// Adds a child's subtree counts `c` to its parent's.
    fn add_child(&mut self, c: Counts) {
        self.text = self.text.saturating_add(c.text);
        self.link_text = self.link_text.saturating_add(c.link_text);
        self.links += c.links;
        self.controls += c.controls;
        self.refs += c.refs;
        self.blocks += c.blocks;
        self.key = self.key.max(c.key);
        self.multiline |= c.multiline;
        if c.link_sig != 0 {
            self.link_sig = fnv(self.link_sig, &c.link_sig.to_le_bytes());
        }
        if c.text_sig != 0 {
            self.text_sig = fnv(self.text_sig, &c.text_sig.to_le_bytes());
        }
    }
}

/// Whether a node between two marked parts of the main content, in their parent, reads as
/// part of it: text that is not mostly links (bare text, a code block, a table the content
/// stage's sibling step passed over), and no region of its own.
fn between_part(role: &str, c: Counts) -> bool {
    !matches!(
        role,
        "navigation" | "complementary" | "banner" | "contentinfo" | "form" | "search" | "dialog"
    ) && c.text > 0
        && c.link_text * 2 < c.text
}

/// Text blocks worth scoring (Readability scores `p`, `pre`, `td`… of 25 characters or more).
fn scores_as_block(node: &TreeNode) -> bool {
    node.is_text_run()
        || matches!(
            role_of(node),
            "paragraph"
                | "blockquote"
                | "listitem"
                | "cell"
                | "definition"
                | "code"
                | "article"
                | "note"
                | "caption"
                | "figure"
        )
}

/// The main content of a tree no producer marked: the page's `main` landmark (the largest,
/// should there be several), else none (the whole page ranks as content).
///
/// Both producers in this crate mark the content stage's finding (the offline walk, and the
/// live agent from the page's rendered HTML, [`crate::rendered`]), so this serves only a host
/// that has the script's tree and nothing else (a WebView that returns `snapshot()` alone).
/// It is no content detector: a second one would disagree with `read`. Against the content
/// stage on web2025's 534 pages (tests/main_fallback.rs): the landmark holds all of the
/// content on 338, both say "the whole page" on 54, the page has no landmark so the whole
/// page ranks as content (broader than the content) on 110, the landmark holds part of it on
/// 12, and on 20 the content stage takes the whole page where the landmark is one part.
fn main_landmark(flat: &[Flat<'_>], counts: &[Counts]) -> usize {
    let mains = (1..flat.len()).filter(|&i| role_of(flat[i].node) == "main");
    mains
        .max_by_key(|&i| (counts[i].text, std::cmp::Reverse(i)))
        .filter(|&m| counts[m].text > 0)
        .unwrap_or(0)
}

/// The nearest node holding flat nodes `a` and `b` (the root at worst).
fn common_ancestor(flat: &[Flat<'_>], mut a: usize, mut b: usize) -> usize {
    // A parent comes before its children in the flat order: step up from the later one.
    while a != b {
        if a > b {
            a = flat[a].parent as usize;
        } else {
            b = flat[b].parent as usize;
        }
    }
    a
}

/// Whether the first kilobyte of the subtree's text speaks of cookies or consent.
fn consent_block(flat: &[Flat<'_>], i: usize) -> bool {
    let mut seen = 0;
    let end = flat[i].end as usize;
    for f in &flat[i..end] {
        for s in [f.node.name.as_deref(), f.node.text.as_deref()]
            .into_iter()
            .flatten()
        {
            if crate::text::mentions_any(s, CONSENT_WORDS) {
                return true;
            }
            seen += s.len();
        }
        if seen > 1024 {
            break;
        }
    }
    false
}

/// Whether `flat[i]` can render as one line with its children inline: its children are text
/// runs and links or images whose own children are only text and images.
fn inlineable(flat: &[Flat<'_>], i: usize) -> bool {
    let end = flat[i].end as usize;
    let mut j = i + 1;
    if j == end {
        return false;
    }
    while j < end {
        let c = flat[j].node;
        if !c.is_text_run() {
            if !inline_role(role_of(c)) {
                return false;
            }
            // Inside the link: only text and images.
            let c_end = flat[j].end as usize;
            if flat[j + 1..c_end]
                .iter()
                .any(|d| !d.node.is_text_run() && role_of(d.node) != "img")
            {
                return false;
            }
            j = c_end;
            continue;
        }
        j += 1;
    }
    true
}

/// A `<select>` (combobox or listbox) holding only options, in groups or not: one line
/// with the option labels, not a line and a ref per option. The select action takes an
/// option's label or value, so the model needs the labels, not their refs; a country list
/// would otherwise spend 200 lines of the budget.
pub(super) fn option_list(flat: &[Flat<'_>], i: usize) -> bool {
    let end = flat[i].end as usize;
    matches!(role_of(flat[i].node), "combobox" | "listbox")
        && end > i + 1
        && flat[i + 1..end].iter().all(|d| {
            d.node.is_text_run()
                || matches!(role_of(d.node), "option" | "group")
                || d.node.role.is_none()
        })
}

impl Plan {
    /// The analysis, pass by pass: [`count`] (bottom-up, pass 1), then the top-down pass 2
    /// in steps, each over the whole tree in document order: [`locate_main`],
    /// [`membership`], [`lines`], [`priorities`], [`form_clusters`], [`prose_lines`],
    /// [`small_tables`], [`prose_runs`] and [`cards`]. Nothing is chosen yet: only the root
    /// is shown (pass 3, the choice, is `super::choice`).
    pub(super) fn new(
        flat: &[Flat<'_>],
        forms: &[(u32, u32)],
        refs_ok: &[bool],
        opts: &RenderOptions,
    ) -> Plan {
        let counts = count(flat, refs_ok);
        let at = locate_main(flat, &counts);
        let in_main = membership(flat, &counts, &at);
        let Lines {
            kind,
            depth,
            folded,
            text_override,
        } = lines(flat, &counts, &in_main, opts);
        let (mut prio, repeats) = priorities(flat, &counts, &kind, &folded, &in_main, &at);
        let form_of = form_clusters(flat, forms, &kind, &counts, &mut prio);
        let mut prose = prose_lines(flat, &counts, &kind);
        small_tables(flat, &counts, &kind, &in_main, &mut prose);
        prose_runs(flat, &counts, &kind, &in_main, &mut prose);
        let in_card = cards(flat, &counts, &kind, &in_main, &prose, at.main);
        let n = flat.len();
        let mut plan = Plan {
            prose,
            in_card,
            kind,
            counts,
            depth,
            main: at.main,
            has_main: at.has_main,
            in_main,
            prio,
            repeats,
            shown: vec![false; n],
            cut: HashMap::new(),
            reasons: Vec::new(),
            text_override,
            form_of,
        };
        plan.shown[0] = true;
        plan
    }
}

/// Where the main content is ([`locate_main`]).
struct MainAt {
    /// The flat index of the main content (0: the whole page), or of the nearest node
    /// holding every part the producer marked.
    main: usize,
    /// Whether the page has main content apart from the rest (else all of it ranks as main).
    has_main: bool,
    /// Whether the producer marked parts of the tree as the content.
    marked: bool,
    /// From the first marked part to the end of the last: what lies between them, directly
    /// in their common parent, may be content too ([`membership`]).
    between: (usize, usize),
}

/// Where the main content is. The producer's word first: the offline walk marks what the
/// content stage found (the part `read` reads); a tree without marks falls back to its
/// `main` landmark ([`main_landmark`]).
fn locate_main(flat: &[Flat<'_>], counts: &[Counts]) -> MainAt {
    let marked: Vec<usize> = (1..flat.len()).filter(|&i| flat[i].node.main).collect();
    // The whole page marked (the content stage found the content spread over the body:
    // a landing page's sections) is the page without a main part: everything ranks as
    // content but its chrome. Not the tree's own scoring, which would pick one part.
    let whole = flat.first().is_some_and(|f| f.node.main);
    let main = match marked.as_slice() {
        _ if whole => 0,
        [] => main_landmark(flat, counts),
        [one] => *one,
        [first, rest @ ..] => rest
            .iter()
            .fold(*first, |a, &b| common_ancestor(flat, a, b)),
    };
    // What lies between the marked parts, directly in their common parent: the content
    // stage joins sibling elements (Readability's sibling step) and cannot name a text
    // node, but a paragraph written as bare text and inline links between two joined
    // paragraphs (news sites do this), or a code block it passed over, is as much the
    // content as they are (`between_part`).
    let between = match marked.as_slice() {
        [first, .., last] => (*first, flat[*last].end as usize),
        _ => (0, 0),
    };
    MainAt {
        main,
        has_main: main != 0 || !marked.is_empty(),
        marked: !marked.is_empty(),
        between,
    }
}

/// Which nodes are in the main content: the marked parts (or the node scored as the
/// content) and what lies between the marked parts, less what the content's reader leaves
/// out of it. The whole page is, when it has no main part.
fn membership(flat: &[Flat<'_>], counts: &[Counts], at: &MainAt) -> Vec<bool> {
    let mut in_main = vec![false; flat.len()];
    in_main[0] = !at.has_main;
    for i in 1..flat.len() {
        let p = flat[i].parent as usize;
        let node = flat[i].node;
        in_main[i] = !node.left_out
            && (in_main[p]
                || if !at.marked {
                    i == at.main
                } else {
                    node.main
                        || (p == at.main
                            && i > at.between.0
                            && i < at.between.1
                            && between_part(role_of(node), counts[i]))
                });
    }
    in_main
}

/// What [`lines`] finds: the kind of line each node makes and where.
struct Lines {
    kind: Vec<Kind>,
    depth: Vec<u32>,
    /// No line of its own and no say on its rank: inside an ancestor's line, or without
    /// content (compact). It ranks as its parent.
    folded: Vec<bool>,
    /// A text run shown shorter: without the words its neighbours' names already say.
    text_override: HashMap<usize, String>,
}

/// The kind of line each node makes ([`kind_of`]) and the depth it is written at; a text
/// run loses the words the elements around it say already ([`strip_names`]).
fn lines(flat: &[Flat<'_>], counts: &[Counts], in_main: &[bool], opts: &RenderOptions) -> Lines {
    let n = flat.len();
    let content = |i: usize| !opts.compact || flat[i].has_ref || flat[i].has_text;
    let mut lines = Lines {
        kind: vec![Kind::None; n],
        depth: vec![0u32; n],
        folded: vec![false; n],
        text_override: HashMap::new(),
    };
    lines.kind[0] = Kind::Container;
    // (index of the line that swallowed this subtree, if any)
    let mut swallowed_until = 0usize;
    let mut last_child: HashMap<usize, usize> = HashMap::new();
    for i in 1..n {
        let f = &flat[i];
        let p = f.parent as usize;
        lines.depth[i] = lines.depth[p] + u32::from(lines.kind[p] == Kind::Container && p != 0);
        if i < swallowed_until || !content(i) {
            lines.folded[i] = true;
            continue;
        }
        lines.kind[i] = kind_of(flat, counts, i, in_main[i], opts, &content);
        if lines.kind[i] == Kind::Line {
            swallowed_until = f.end as usize;
        }
        if f.node.is_text_run() && lines.kind[p] != Kind::Line {
            lines.say_once(flat, i, last_child.get(&p).copied());
        }
        last_child.insert(p, i);
    }
    lines
}

impl Lines {
    /// A label's words beside the field they name, a legend repeating its group's name:
    /// said once, on the element's line. `prev`: the sibling line before the text run.
    fn say_once(&mut self, flat: &[Flat<'_>], i: usize, prev: Option<usize>) {
        let f = &flat[i];
        let p = f.parent as usize;
        let prev = prev.map(|j| flat[j].node);
        let next = flat.get(f.end as usize).filter(|_| f.end < flat[p].end);
        let text = f.node.text.as_deref().unwrap_or("");
        let rest = strip_names(text, flat[p].node, prev, next.map(|n| n.node));
        if rest.len() != text.len() {
            if rest.is_empty() {
                self.kind[i] = Kind::None;
            } else {
                self.text_override.insert(i, rest.to_string());
            }
        }
    }
}

/// The kind of line a node with content makes: one line for a text run, a simple row, an
/// option list, a leaf or what reads inline (outside the main content, only while it is
/// short); no line for a wrapper with nothing to say and one child; else a container.
fn kind_of(
    flat: &[Flat<'_>],
    counts: &[Counts],
    i: usize,
    in_main: bool,
    opts: &RenderOptions,
    content: &impl Fn(usize) -> bool,
) -> Kind {
    let node = flat[i].node;
    let role = role_of(node);
    if node.is_text_run()
        || (role == "row" && simple_row(flat, i))
        || option_list(flat, i)
        || node.children.is_empty()
        || (inline_role(role) && inlineable(flat, i))
        || (inlineable(flat, i) && (in_main || counts[i].text as usize <= opts.max_text_per_node))
    {
        Kind::Line
    } else if node.ref_.is_none()
        && node.name.is_none()
        && !matches!(role, "list" | "table" | "row" | "")
        && single_content_child(flat, i, content)
    {
        Kind::Transparent
    } else {
        Kind::Container
    }
}

/// The priority class of every node and the link groups that repeat an earlier one: a
/// node inherits its parent's class ([`inherited_priority`]), then says what it is
/// ([`role_priority`]); a link farm outside the content ([`link_farm`]) and a repeated
/// group of links ([`repeat_of`]) rank with the chrome. A folded node ranks as its parent.
fn priorities(
    flat: &[Flat<'_>],
    counts: &[Counts],
    kind: &[Kind],
    folded: &[bool],
    in_main: &[bool],
    at: &MainAt,
) -> (Vec<u8>, Vec<Option<u32>>) {
    let n = flat.len();
    let mut prio = vec![P_REST; n];
    let mut repeats: Vec<Option<u32>> = vec![None; n];
    let mut first_sig: HashMap<u64, u32> = HashMap::new();
    prio[0] = if at.has_main { P_REST } else { P_MAIN };
    for i in 1..n {
        let f = &flat[i];
        let p = f.parent as usize;
        if folded[i] {
            prio[i] = prio[p];
            continue;
        }
        let pr = inherited_priority(prio[p], in_main[i], f.node.left_out);
        let mut pr = role_priority(flat, counts, i, pr, in_main[i], at.main);
        let holds_main = i <= at.main && at.main < f.end as usize;
        if link_farm(counts[i], kind[i], in_main[i], holds_main, pr) {
            pr = P_CHROME;
        }
        if kind[i] != Kind::None && !holds_main {
            if let Some(first) = repeat_of(&mut first_sig, flat, counts, i) {
                repeats[i] = Some(first);
                pr = P_CHROME;
            }
        }
        prio[i] = pr;
    }
    (prio, repeats)
}

/// The class a node inherits from its parent: the rest of the page is the main content
/// inside it, and what the content's reader leaves out of it ranks with the rest of the
/// page.
fn inherited_priority(parent: u8, in_main: bool, left_out: bool) -> u8 {
    let mut pr = parent;
    if in_main && pr == P_REST {
        pr = P_MAIN;
    }
    if left_out && pr == P_MAIN {
        pr = P_REST;
    }
    pr
}

/// The class a node says it is, by its role, given the class `pr` it inherits: chrome
/// landmarks, complementary regions, prompts (dialogs, alerts, search) and consent
/// notices, headings.
fn role_priority(
    flat: &[Flat<'_>],
    counts: &[Counts],
    i: usize,
    mut pr: u8,
    in_main: bool,
    main: usize,
) -> u8 {
    let node = flat[i].node;
    match role_of(node) {
        "navigation" | "banner" | "contentinfo" if i != main => pr = P_CHROME,
        "complementary" if pr != P_KEY && pr != P_CHROME => pr = P_ASIDE,
        // A document in a modal (terms, a refund policy, a size guide) is no prompt:
        // offline its dialog is most likely closed (a script or an external sheet
        // hides it), and first it would take the budget from the page.
        "dialog" | "alertdialog" if counts[i].text > DIALOG_MAX_TEXT => {}
        // A `role=dialog` box in the banner, a menu or the footer (a region picker, a
        // mega-menu panel) is one of the chrome's popups, most likely closed offline:
        // it ranks with the chrome. A `<dialog>` element is in the tree only when open
        // (a closed one is `display: none`), and an alert dialog asks now.
        "dialog" if pr == P_CHROME && node.tag != "dialog" => {}
        "dialog" | "alertdialog" | "alert" | "search" => {
            pr = if consent_block(flat, i) {
                P_CHROME
            } else {
                P_KEY
            };
        }
        // A section of the content that speaks of cookies is a recipe's, not a
        // consent notice (those sit outside the content).
        "region" | "form" if !in_main && consent_block(flat, i) => pr = P_CHROME,
        "heading" => match node.level {
            Some(1) if pr != P_CHROME => pr = P_KEY,
            Some(2 | 3) if pr == P_REST => pr = P_MAIN,
            _ => {}
        },
        "searchbox" => pr = P_KEY,
        _ => {}
    }
    pr
}

/// A link farm outside the main content: five links or more, link text 80 % of all text
/// (trafilatura's rule). Not the node holding the content's parts nor one around it
/// (`holds_main`): a results page's `main`, its cards' links and buttons straight under it
/// beside the marked paragraphs, is link-heavy, and as a link farm it ranked its whole
/// content with the chrome.
fn link_farm(c: Counts, kind: Kind, in_main: bool, holds_main: bool, pr: u8) -> bool {
    !in_main
        && !holds_main
        && kind == Kind::Container
        && c.links >= 5
        && u64::from(c.link_text) * 10 >= u64::from(c.text) * 8
        && pr > P_KEY
}

/// The earlier group of links `flat[i]` repeats (the mobile copy of the desktop menu:
/// shown once), else `None`, and then the first with its links is noted in `first_sig`.
/// A group of mostly text repeats only with its text: a forum's second post by one author
/// has the links of the first (the author's name, badge and post count), but its text is
/// its own. A quotation with the links of an earlier post quotes it, whatever its labels
/// ("… wrote:").
fn repeat_of(
    first_sig: &mut HashMap<u64, u32>,
    flat: &[Flat<'_>],
    counts: &[Counts],
    i: usize,
) -> Option<u32> {
    let c = counts[i];
    if c.links < 3 || c.link_sig == 0 {
        return None;
    }
    let links_only =
        u64::from(c.link_text) * 2 >= u64::from(c.text) || role_of(flat[i].node) == "blockquote";
    match first_sig.get(&c.link_sig) {
        Some(&first)
            if !inside(flat, i, first as usize)
                && (links_only || counts[first as usize].text_sig == c.text_sig) =>
        {
            Some(first)
        }
        Some(_) => None,
        None => {
            first_sig.insert(c.link_sig, i as u32);
            None
        }
    }
}

/// Lines of prose: a paragraph-like line of some length with few links. A table row is
/// one line of its cells: text of the article when the table is (a list of films, of
/// results), so it ranks with paragraphs, not after the references below it.
fn prose_lines(flat: &[Flat<'_>], counts: &[Counts], kind: &[Kind]) -> Vec<bool> {
    (0..flat.len())
        .map(|i| {
            let c = counts[i];
            kind[i] == Kind::Line
                && c.text >= 40
                && c.link_text * 2 < c.text
                && (scores_as_block(flat[i].node) || role_of(flat[i].node) == "row")
        })
        .collect()
}

/// A small table of the content (a directive's syntax, a product's specifications) is
/// read with the text around it: its short rows ("Default: aio off;") would wait behind
/// every paragraph of the page and fold, away from the text that explains them. Its rows
/// with text are prose ([`SMALL_TABLE_ROWS`]).
fn small_tables(
    flat: &[Flat<'_>],
    counts: &[Counts],
    kind: &[Kind],
    in_main: &[bool],
    prose: &mut [bool],
) {
    let rows_before = count_before(flat, |node| role_of(node) == "row");
    for i in 1..flat.len() {
        if !in_main[i] || prose[i] || kind[i] != Kind::Line || role_of(flat[i].node) != "row" {
            continue;
        }
        // The table: the row's parent, or its row group's.
        let mut t = flat[i].parent as usize;
        if role_of(flat[t].node) == "rowgroup" {
            t = flat[t].parent as usize;
        }
        let small = matches!(role_of(flat[t].node), "table" | "grid" | "treegrid")
            && rows_before[flat[t].end as usize] - rows_before[t] <= SMALL_TABLE_ROWS;
        prose[i] = small && counts[i].text > 0;
    }
}

/// Within the main content (prose ranks only there), the items of a list that holds
/// prose read as one text: a short item ("2021 planning underway") or one made mostly of
/// its links ("[Bug 1678173] fixed") stays with its siblings. So does a short text between
/// two paragraphs ("Advertising", a pull quote's credit). Alone, each would be folded into
/// a stub line as long as itself. (Three quarters of link text still marks a list of
/// links.)
fn prose_runs(
    flat: &[Flat<'_>],
    counts: &[Counts],
    kind: &[Kind],
    in_main: &[bool],
    prose: &mut [bool],
) {
    let n = flat.len();
    let mut holds_prose = vec![false; n];
    for i in 1..n {
        if in_main[i] && prose[i] {
            holds_prose[flat[i].parent as usize] = true;
        }
    }
    // The line before each, among its parent's lines, as the pass goes.
    let mut last_line = vec![u32::MAX; n];
    for i in 1..n {
        if !in_main[i] || kind[i] != Kind::Line {
            continue;
        }
        let p = flat[i].parent as usize;
        let prev = std::mem::replace(&mut last_line[p], i as u32);
        let c = counts[i];
        if prose[i] || c.text == 0 || u64::from(c.link_text) * 4 >= u64::from(c.text) * 3 {
            continue;
        }
        let in_prose_list = role_of(flat[i].node) == "listitem" && holds_prose[p];
        let next = next_line(flat, kind, i);
        let between = prev != u32::MAX
            && prose[prev as usize]
            && next < n
            && flat[next].parent as usize == p
            && prose[next];
        if in_prose_list || between {
            prose[i] = true;
        }
    }
}

/// The next sibling of `flat[i]` that makes a line (an empty `<p>` between a code sample
/// and the paragraph after it makes none), or the end of the parent (or of the tree) when
/// none does.
fn next_line(flat: &[Flat<'_>], kind: &[Kind], i: usize) -> usize {
    let p = flat[i].parent as usize;
    let mut next = flat[i].end as usize;
    while next < flat.len() && flat[next].parent as usize == p && kind[next] == Kind::None {
        next = flat[next].end as usize;
    }
    next
}

/// Which nodes are inside a card of the main content ([`Cards::starts_card`]). Cards wait
/// for the article's own text; on a page that is mostly cards (a front page, a listing: its
/// cards hold more prose than the rest of its content) the cards are the content, and they
/// come in document order with the rest of it: none is a card.
fn cards(
    flat: &[Flat<'_>],
    counts: &[Counts],
    kind: &[Kind],
    in_main: &[bool],
    prose: &[bool],
    main: usize,
) -> Vec<bool> {
    let mut cards = Cards::new(flat);
    let mut in_card = vec![false; flat.len()];
    // Prose of the content outside its cards and inside them, in bytes.
    let (mut own, mut carded) = (0u64, 0u64);
    for i in 1..flat.len() {
        in_card[i] = in_card[flat[i].parent as usize]
            || (in_main[i] && cards.starts_card(flat, counts, i, main));
        if in_main[i] && prose[i] && kind[i] == Kind::Line {
            let text = u64::from(counts[i].text);
            if in_card[i] {
                carded += text;
            } else {
                own += text;
            }
        }
    }
    if carded >= own {
        in_card.iter_mut().for_each(|c| *c = false);
    }
    in_card
}

/// What [`cards`] needs to tell a card in O(1).
struct Cards<'f> {
    headings_before: Vec<u32>,
    h1_before: Vec<u32>,
    /// The last parent asked about, a role, and whether three of its children or more have
    /// that role.
    last_parent: (usize, &'f str, bool),
}

impl<'f> Cards<'f> {
    fn new(flat: &[Flat<'_>]) -> Cards<'f> {
        Cards {
            headings_before: count_before(flat, |node| role_of(node) == "heading"),
            h1_before: count_before(flat, |node| {
                role_of(node) == "heading" && node.level == Some(1)
            }),
            last_parent: (usize::MAX, "", false),
        }
    }

    /// Whether `flat[i]`, in the main content, is a card. A card is one of three siblings or
    /// more of its role (a lone article inside `main` is the content itself), titled by a
    /// heading, but not by the page's `h1`: the `<article>` holding the title is the page's
    /// opening among its teasers. It is short (`CARD_MAX_TEXT`).
    fn starts_card(&mut self, flat: &[Flat<'f>], counts: &[Counts], i: usize, main: usize) -> bool {
        let f = &flat[i];
        let end = f.end as usize;
        let role = role_of(f.node);
        i != main
            && matches!(role, "listitem" | "article")
            && self.headings_before[end] > self.headings_before[i]
            && self.h1_before[end] == self.h1_before[i]
            && counts[i].text < CARD_MAX_TEXT
            // Small beside the content: not the article among its comments.
            && u64::from(counts[i].text) * 4 < u64::from(counts[main].text)
            && {
                // Once per parent: its children are counted a single time.
                let p = f.parent as usize;
                if (self.last_parent.0, self.last_parent.1) != (p, role) {
                    self.last_parent = (p, role, repeated(flat, i, role));
                }
                self.last_parent.2
            }
    }
}

/// Whether three children or more of `flat[i]`'s parent have `role`.
fn repeated(flat: &[Flat<'_>], i: usize, role: &str) -> bool {
    flat[flat[i].parent as usize]
        .node
        .children
        .iter()
        .filter(|c| role_of(c) == role)
        .nth(2)
        .is_some()
}

/// `text` without the names that the elements around it show anyway: the parent's name at
/// its start, the previous sibling's at its start, the next sibling's at its end.
fn strip_names<'t, 'n>(
    text: &'t str,
    parent: &'n TreeNode,
    prev: Option<&'n TreeNode>,
    next: Option<&'n TreeNode>,
) -> &'t str {
    fn name(n: Option<&TreeNode>) -> Option<&str> {
        n.filter(|n| !n.is_text_run())
            .and_then(|n| n.name.as_deref())
            .filter(|s| !s.is_empty())
    }
    // A parent whose name may come from its content (a heading, a button, a cell) leaves
    // that name off its line when the content says it (`format::said_by_content`): the
    // words must stay on the child's line then, or neither line says them.
    let parent_role = role_of(parent);
    let parent_says_name = !(crate::aria::roles::allows_name_from_content(parent_role)
        || matches!(parent_role, "row" | "figure"));
    let parent_name = name(Some(parent)).filter(|_| parent_says_name);
    let mut t = text.trim();
    for n in [parent_name, name(prev)].into_iter().flatten() {
        if let Some(rest) = t.strip_prefix(n) {
            if rest.is_empty() || rest.starts_with(' ') {
                t = rest.trim_start();
            }
        }
    }
    if let Some(n) = name(next) {
        if let Some(rest) = t.strip_suffix(n) {
            if rest.is_empty() || rest.ends_with(' ') {
                t = rest.trim_end();
            }
        }
    }
    // Punctuation alone (a colon after a label) says nothing either.
    if t.chars().all(|c| !c.is_alphanumeric()) {
        ""
    } else {
        t
    }
}

/// A table row whose cells are text and links only: one line, cells joined with ` | `.
fn simple_row(flat: &[Flat<'_>], i: usize) -> bool {
    let end = flat[i].end as usize;
    let mut j = i + 1;
    let mut cells = 0;
    while j < end {
        let c = flat[j].node;
        let cell = matches!(
            role_of(c),
            "cell" | "gridcell" | "columnheader" | "rowheader"
        );
        if !cell || !(c.children.is_empty() || inlineable(flat, j)) {
            return false;
        }
        cells += 1;
        j = flat[j].end as usize;
    }
    cells > 0
}

/// For each flat position, how many nodes before it are `such`: a subtree's count is then
/// `before[end] - before[i]`, in O(1).
fn count_before(flat: &[Flat<'_>], such: impl Fn(&TreeNode) -> bool) -> Vec<u32> {
    let mut before = Vec::with_capacity(flat.len() + 1);
    let mut count = 0u32;
    before.push(count);
    for f in flat {
        count += u32::from(such(f.node));
        before.push(count);
    }
    before
}

/// Whether `i` lies inside the subtree of `a`.
fn inside(flat: &[Flat<'_>], i: usize, a: usize) -> bool {
    a < i && i < flat[a].end as usize
}

/// Whether `flat[i]` has exactly one child with content.
fn single_content_child(flat: &[Flat<'_>], i: usize, content: &impl Fn(usize) -> bool) -> bool {
    let end = flat[i].end as usize;
    let mut j = i + 1;
    let mut n = 0;
    while j < end {
        if content(j) {
            n += 1;
            if n > 1 {
                return false;
            }
        }
        j = flat[j].end as usize;
    }
    n == 1
}

/// Most controls a form element holds to be one unit a person fills in: a `<form>` around
/// the whole page (ASP.NET wraps every page in one) is not, and neither is one that holds
/// the page's landmarks or a menu's worth of links. Its controls are then grouped in runs,
/// as on a page without form elements.
const MAX_FORM_CONTROLS: u32 = 40;

const MAX_FORM_LINKS: u32 = 20;

/// A text of a form shorter than this (in bytes) is one of its labels or notes ("Remember
/// me", "I agree to the terms", "Forgot your password?"): it stays with the controls. A
/// longer one (the site rules, the terms themselves) may fold.
const FORM_SHORT_TEXT: u32 = 100;

/// A form's message that says an entry was refused ("Invalid e-mail or password") stays with
/// its controls when it is longer than a label, up to this length.
const FORM_MESSAGE_TEXT: u32 = 300;

/// Words of such a message.
const ERROR_WORDS: &[&str] = &[
    "error",
    "invalid",
    "incorrect",
    "wrong",
    "failed",
    "try again",
    "does not match",
    "required",
    "fehler",
    "ungültig",
    "falsch",
    "erreur",
    "invalide",
    "incorrecto",
    "inválid",
    "错误",
    "エラー",
];

/// Whether a form's text line reads as an error or alert message.
fn says_error(flat: &[Flat<'_>], i: usize) -> bool {
    let end = flat[i].end as usize;
    flat[i..end].iter().any(|f| {
        f.node
            .text
            .as_deref()
            .is_some_and(|t| crate::text::mentions_any(t, ERROR_WORDS))
    })
}

/// Whether the controls in `members` make a form a task on the page most likely needs:
/// a password, user-name or search field, or an e-mail field in what reads like a recovery
/// or registration form. Not with a multi-line field (a comment or contact form), not when
/// a button or label says "subscribe" or "newsletter", and not in a sidebar or the page's
/// chrome, where such a form is the newsletter sign-up. The shared forms set labels comment
/// and mailing-list forms apart from the key kinds for the same reason: they hold an e-mail
/// field and no task needs them first.
fn key_form(members: &[usize], flat: &[Flat<'_>], counts: &[Counts], prio: &[u8]) -> bool {
    let any = |f: &dyn Fn(usize) -> bool| members.iter().any(|&m| f(m));
    any(&|m| counts[m].key == Key::Strong)
        || (any(&|m| counts[m].key == Key::Email)
            && !any(&|m| counts[m].multiline || says_mailing(flat[m].node))
            && any(&|m| !matches!(prio[m], P_ASIDE | P_CHROME)))
}

/// The spans `[start, end)` of the form elements that are units a person fills in: unnamed
/// forms (`forms`, from the flat list) and named ones (role `form`), outermost first. A
/// form around the page (see `MAX_FORM_CONTROLS`) is no unit; the forms inside it may be.
fn form_units(flat: &[Flat<'_>], forms: &[(u32, u32)]) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = forms
        .iter()
        .map(|&(s, e)| (s as usize, e as usize))
        .chain(
            (1..flat.len())
                .filter(|&i| role_of(flat[i].node) == "form")
                .map(|i| (i + 1, flat[i].end as usize)),
        )
        .filter(|(s, e)| s < e)
        .collect();
    spans.sort_by_key(|&(s, e)| (s, std::cmp::Reverse(e)));
    let mut units = Vec::new();
    let mut claimed_until = 0;
    for (s, e) in spans {
        if s < claimed_until {
            continue;
        }
        let (mut controls, mut links) = (0u32, 0u32);
        let around_page = flat[s..e].iter().any(|f| {
            let role = role_of(f.node);
            controls += u32::from(is_control(role));
            links += u32::from(role == "link");
            matches!(
                role,
                "main" | "navigation" | "banner" | "contentinfo" | "complementary"
            ) || controls > MAX_FORM_CONTROLS
                || links > MAX_FORM_LINKS
        });
        if !around_page {
            units.push((s, e));
            claimed_until = e;
        }
    }
    units
}

/// A form with a key field comes first, whole: every visible control of it (fields,
/// "Remember me" and "I agree" boxes, radio groups, selects, its submit and reset buttons),
/// its labels, its short links ("Forgot password?") and its error message. None of it is
/// left to fold while a field of it shows. A long text inside it (the site rules, the
/// terms) is not part of the unit: it keeps its own class and may fold, and the controls
/// after it stay.
///
/// The form is its `<form>` element where the page has one (`form_units`). Where it has
/// none, it is a run of controls in document order, with short texts and at most two links
/// between them (labels, "Forgot password?"), and at most one longer text that the next
/// control resumes the run after; a heading, or a second long text, ends it. A run does not
/// cross from one priority class into another (the header's search into the sidebar's
/// sign-up).
fn form_clusters(
    flat: &[Flat<'_>],
    forms: &[(u32, u32)],
    kind: &[Kind],
    counts: &[Counts],
    prio: &mut [u8],
) -> HashMap<usize, usize> {
    let units = form_units(flat, forms);
    let mut form_of = HashMap::new();
    let mut members: Vec<usize> = Vec::new();
    for &(s, e) in &units {
        unit_members(flat, kind, counts, (s, e), &mut members);
        if key_form(&members, flat, counts, prio) {
            for &m in &members {
                prio[m] = P_KEY;
                form_of.insert(m, members[0]);
            }
        }
    }
    let mut run = ControlRun {
        flat,
        counts,
        members,
        links_in_row: 0,
        gap: 0,
    };
    run.members.clear();
    let mut units = units.iter().peekable();
    let mut i = 1;
    while i < flat.len() {
        // A form element's controls are its unit, never part of a run.
        if let Some(&&(s, e)) = units.peek() {
            if i >= s {
                run.close(prio, &mut form_of);
                units.next();
                i = i.max(e);
                continue;
            }
        }
        if kind[i] == Kind::Line {
            run.step(i, prio, &mut form_of);
        }
        i += 1;
    }
    run.close(prio, &mut form_of);
    form_of
}

/// The members of a form element's unit (`s..e`): its controls, alerts and short links,
/// and its texts while they are short or an error message, up to four messages' worth of
/// text.
fn unit_members(
    flat: &[Flat<'_>],
    kind: &[Kind],
    counts: &[Counts],
    (s, e): (usize, usize),
    members: &mut Vec<usize>,
) {
    members.clear();
    let mut text = 0u32;
    for i in s..e {
        if kind[i] != Kind::Line {
            continue;
        }
        let role = role_of(flat[i].node);
        let len = counts[i].text;
        let member = is_control(role)
            || matches!(role, "alert" | "status")
            || (role == "link" && len < FORM_SHORT_TEXT)
            || (text < FORM_MESSAGE_TEXT * 4
                && (len < FORM_SHORT_TEXT || (len < FORM_MESSAGE_TEXT && says_error(flat, i))));
        if member {
            if !is_control(role) {
                text += len;
            }
            members.push(i);
        }
    }
}

/// A run of controls outside form elements, as [`form_clusters`] gathers it line by line.
struct ControlRun<'r, 'f> {
    flat: &'r [Flat<'f>],
    counts: &'r [Counts],
    members: Vec<usize>,
    /// Links in a row among the members (a control starts the count again).
    links_in_row: u32,
    /// Lines since the last member, after a long text: the run is open only for a control.
    gap: u32,
}

impl ControlRun<'_, '_> {
    /// The line `flat[i]`: a member of the run, a text it bridges, or its end.
    fn step(&mut self, i: usize, prio: &mut [u8], form_of: &mut HashMap<usize, usize>) {
        let role = role_of(self.flat[i].node);
        let len = self.counts[i].text;
        let short = len < 60 && role != "heading";
        if !self.admits(role, short) {
            // One long text (the terms between the fields and "I agree") may sit inside,
            // and a label or two after it.
            let bridge = !self.members.is_empty()
                && role != "link"
                && if self.gap == 0 {
                    role != "heading" && len < FORM_MESSAGE_TEXT * 5
                } else {
                    short && self.gap < 3
                };
            if bridge {
                self.gap += 1;
            } else {
                self.close(prio, form_of);
                self.links_in_row = 0;
                self.gap = 0;
            }
            return;
        }
        self.gap = 0;
        // A run does not cross into another region (the sidebar's sign-up after the
        // header's search): it keeps the priority class it started in.
        if self.members.first().is_some_and(|&s| prio[s] != prio[i]) {
            self.close(prio, form_of);
            self.links_in_row = 0;
        }
        self.members.push(i);
        if self.members.len() >= 40 {
            self.close(prio, form_of);
        }
    }

    /// Whether a line of `role` joins the run: a control always, a link while there are
    /// two at most in a row, a short text when the run has begun; nothing after a long
    /// text but a control.
    fn admits(&mut self, role: &str, short: bool) -> bool {
        if is_control(role) {
            self.links_in_row = 0;
            true
        } else if self.gap > 0 {
            false
        } else if role == "link" {
            self.links_in_row += 1;
            self.links_in_row <= 2 && !self.members.is_empty()
        } else {
            // Short texts (a label, "Remember me") stay inside the form; a heading or a
            // paragraph ends it.
            !self.members.is_empty() && short
        }
    }

    /// Ends the run: a key form ranks first, but for what of it is in the chrome without
    /// a key field of its own.
    fn close(&mut self, prio: &mut [u8], form_of: &mut HashMap<usize, usize>) {
        let members = &self.members;
        if key_form(members, self.flat, self.counts, prio) {
            for &m in members.iter() {
                if prio[m] != P_CHROME || self.counts[m].key != Key::No {
                    prio[m] = P_KEY;
                    form_of.insert(m, members[0]);
                }
            }
        }
        self.members.clear();
    }
}

/// How a stub line is costed while the choice is made ([`stub_estimate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StubCost {
    /// About the usual length (web2025: 63 characters on average with the indent).
    Usual,
    /// About the longest (nine stubs in ten are shorter).
    Longest,
}

/// The estimated cost of a stub line (it is written only at the end, once the runs are
/// known).
pub(super) fn stub_estimate(format: Format, depth: u32, cost: StubCost) -> usize {
    let base = match (format, cost) {
        (Format::Json, StubCost::Usual) => 90,
        (Format::Json, StubCost::Longest) => 110,
        (_, StubCost::Usual) => 58,
        (_, StubCost::Longest) => 78,
    };
    base + 2 * depth as usize
}
