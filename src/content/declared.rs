//! Free text a page declares and does not show: ruling 3 of issue 44. Structured data's free
//! text (a product's `description`, an article's `articleBody`, a question's answers) is
//! evidence, never content, where the page shows its own text; where the page shows none of
//! it, it is the content, labelled as the page's declaration ([`DECLARED`]). `read` prints
//! it after its text; the snapshot under its header ([`for_snapshot`]).

use super::facts::{declared_description, declared_text};
use crate::aria::roles;
use crate::parse::Dom;
use crate::tree::{NodeTree, TreeNode};

/// The label of what a page's structured data declares, printed where the page shows no text.
pub(crate) const DECLARED: &str = "[declared by the page's data, not shown on it]";

/// Characters of a declared description looked for in what the page shows, from its start
/// and from its middle (letters and digits only, lower-cased: a shop's description and its
/// shown copy differ in spaces, quotes and line breaks).
const DESCRIPTION_KEY: usize = 40;

/// Words a declared description has at least to be read as one: shorter is a tagline, and
/// a description with no spaces is an encoded string (`An%20elegant%20sofa`), not text.
const DESCRIPTION_WORDS: usize = 8;

/// An article's declared body is read where the read shows under `1 / SHOWN_SHARE` of its
/// length ([`unshown_description`]). trafeval: a paywall's teaser of 200 characters with its
/// offer reads at a fifth of its body, a story summarised in its data at ten times its body.
const SHOWN_SHARE: usize = 4;

/// What the snapshot prints under its header as the page's declaration: on a page that
/// shows nothing but headings (a shell its scripts fill, its title shown), the free text its
/// data declares, as `read` reads it; on a product's or an article's page, the
/// description or body no node of the tree shows ([`unshown_description`], with the tree's
/// text standing for the read's). `None` on most pages: they declare no such thing, or show
/// it.
pub(crate) fn for_snapshot(dom: &Dom, tree: &NodeTree) -> Option<String> {
    if shows_headings_only(&tree.tree) {
        return declared_text(dom);
    }
    unshown_description(dom, tree, None)
}

/// A product's or an article's page whose declared text no person sees (a product's
/// description only in the page's data or in a sheet no control opens; an article's body
/// only in its JSON-LD, the page a shell its scripts fill): the text its structured data
/// declares. The page must be that thing's (its title names it), and neither `read` (the
/// read's text, when a read asks) nor any shown text of the tree may hold the text's start
/// or its middle (an article's body can open with a dateline the page shows apart). An
/// article's page that shows a quarter of its body's length or more (a teaser, a summary,
/// the story in other words) is read as it stands.
/// web2025: product F1 0.549 -> 0.565, empty reads 15 -> 13; no other type moves. Articles
/// and linked words: trafeval lost 15 -> 14 (an opinion piece whose page is a shell), and
/// a product whose shown description has a linked word no longer reads it twice.
pub(crate) fn unshown_description(
    dom: &Dom,
    tree: &NodeTree,
    read: Option<&str>,
) -> Option<String> {
    // Only a page whose data line names a thing can declare one (and most pages have none,
    // so most skip the second parse of their JSON-LD).
    tree.data.as_ref()?;
    let declared = declared_description(dom)?;
    let description = declared.text;
    let read_chars = read.map(|t| t.chars().count());
    // Against the whole body: a read of 1 000 characters is a teaser of a body of 6 000,
    // whatever part of it the declaration prints.
    if declared.article && read_chars.is_some_and(|n| n * SHOWN_SHARE >= declared.chars) {
        return None;
    }
    let named = tree
        .title
        .as_deref()
        .is_some_and(|t| squeezed(t).contains(&squeezed(&declared.name)));
    if !named || description.split_whitespace().count() < DESCRIPTION_WORDS {
        return None;
    }
    let keys = keys_of(&description);
    // The page's shown text as one run: a description shown with a word in bold is split
    // across nodes, and a word in a link is the link's name (a leaf of the tree).
    let pieces = tree
        .tree
        .descendants()
        .filter_map(|n| {
            n.text
                .as_deref()
                .or(n.name.as_deref().filter(|_| n.children.is_empty()))
        })
        .chain(read);
    let mut page = String::new();
    for piece in pieces {
        page.extend(crate::text::alnum(piece).flat_map(char::to_lowercase));
    }
    // Without a read, the tree's text is what the page shows of the article (its letters
    // and digits, against the body's characters: a shade more often declared).
    let story_shown =
        declared.article && read.is_none() && page.chars().count() * SHOWN_SHARE >= declared.chars;
    let shown = keys.iter().any(|key| page.contains(key.as_str()));
    (!shown && !story_shown).then_some(description)
}

/// The description's start and middle, [`DESCRIPTION_KEY`] letters and digits each.
fn keys_of(description: &str) -> [String; 2] {
    let key_text = squeezed(description);
    let length = key_text.chars().count();
    [0, length.saturating_sub(DESCRIPTION_KEY) / 2]
        .map(|at| key_text.chars().skip(at).take(DESCRIPTION_KEY).collect())
}

/// Letters and digits only, lower-cased.
fn squeezed(s: &str) -> String {
    crate::text::alnum(s).flat_map(char::to_lowercase).collect()
}

/// Whether a page's tree shows a person nothing: no text, no name, no attribute beyond a
/// `role` and no role but a landmark's anywhere (the empty `role=main` of a challenge page
/// or of a script's shell is still a node). A page with an unnamed field or a link still
/// has something for the snapshot to show.
pub(crate) fn shows_nothing(tree: &TreeNode) -> bool {
    tree.descendants().all(shows_no_thing)
}

/// A node that shows nothing of its own: no text, no name, no attribute beyond a `role`,
/// no role but a shell's.
fn shows_no_thing(n: &TreeNode) -> bool {
    n.text.as_deref().is_none_or(str::is_empty)
        && n.name.as_deref().is_none_or(str::is_empty)
        && n.attrs.iter().all(|(name, _)| name == "role")
        && n.role.as_deref().is_none_or(shell_role)
}

/// Whether a page's tree shows nothing but headings: [`shows_nothing`] once the headings
/// are left out.
fn shows_headings_only(tree: &TreeNode) -> bool {
    let mut stack = vec![tree];
    while let Some(n) = stack.pop() {
        if n.role.as_deref() == Some("heading") {
            continue;
        }
        if !shows_no_thing(n) {
            return false;
        }
        stack.extend(&n.children);
    }
    true
}

/// Roles of the empty boxes a page's shell is made of: landmarks and generic groups. A
/// dialog or a frame, empty or not, is something the snapshot shows with its ref.
fn shell_role(role: &str) -> bool {
    matches!(role, "generic" | "group")
        || (roles::is_landmark(role) && !matches!(role, "dialog" | "alertdialog" | "iframe"))
}
