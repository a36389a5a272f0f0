//! The main-content stage: which part of a parsed page is its content, for every reader of
//! it. [`read`](mod@crate::read) reads what it finds, the snapshot ranks it as its second
//! priority class (the walk marks it in the node tree, `TreeNode::main`), and
//! [`Document::main_content`](crate::Document::main_content) names it, so all three agree.
//!
//! One bottom-up pass measures every element (`page`: visible text, link text, commas,
//! paragraphs, images, controls; hidden text and boilerplate count nothing), Mozilla
//! Readability's paragraph scoring picks a top candidate, and two steps that Readability
//! does not have make it hold for pages other than articles:
//!
//! - **coverage**: the candidate grows to the nearest ancestor holding a fair share of the
//!   page's prose (one post of a thread, one section of a service page, the intro of a
//!   product are parts of the content, not the content), or to the body when the page's
//!   text is spread over the body's children (a landing page's sections side by side);
//!   a data table's body or row grows to its table, whose head names the columns;
//! - **the headline's block**: the block holding the page's `h1`, before the content and outside
//!   it, joins it first when it holds a lead's worth of prose (a story above the comments that
//!   outweigh it, a landing page's hero above its sections);
//! - **posts**: a thread whose first post holds most of its prose is still every post: a
//!   top candidate inside a post that forum software numbers (`id="post-123"`, `msg123`)
//!   with two or more siblings like it grows to their parent;
//! - **cards**: a run of four or more sibling cards (one tag and first class, each with a
//!   link and text) that holds more than twice the prose extraction's text is the content
//!   (listings, category pages);
//! - **two extractions compared**: the strict one (unlikely classes out, class weights,
//!   Readability's conditional cleaning) and, when that keeps little, a relaxed one (the
//!   fallback chain of trafilatura, which compares its own extraction with Readability's and
//!   jusText's and keeps the better); the page's own `<main>`, chosen as it stands, keeps
//!   the unlikely-class rules but not the conditional cleaning (`Cleaning::Classes`);
//! - **largest text region**, the chain's last link: when both keep under 2 000 characters
//!   of a page whose largest visible text region (from the body down, into the child holding
//!   60% of the page's text while there is one: the "largest block" fallback of boilerpipe
//!   and of trafilatura's baseline) holds five times as much, that region is the content.
//!   "No main content" is left for a page with no visible text;
//! - **structured data as a sanity check** (`structured`): what the page says it is about,
//!   as trafilatura reads JSON-LD for its metadata and rs-trafilatura for its page types. A
//!   JSON-LD `Product` is looked up in the visible page (its name as a shown `h1`, the start
//!   of its description in shown text; their common container is the product), or a single
//!   microdata `itemtype=…/Product` names it; without either (or when the JSON-LD product's
//!   description is not shown), the block holding a shown add-to-cart control and the `h1`
//!   nearest it. A choice beside the product (a reviews
//!   section that outscored a short description) reads the product first, then the choice,
//!   in page order; a choice inside an add-to-cart block grows to it. The JSON-LD is only
//!   *located*: its text is never output. Microdata `itemprop=author` panes are kept by the
//!   conditional cleaning (a thread is its posts with their authors), and an `<aside>`
//!   inside a repeated `article`/`section` (a post's author pane) is looked at though it
//!   counts as boilerplate, so that read gives each post its author's name (the pane's
//!   first heading) without its badges and counts.
//!
//! `<form>` is a container here, not boilerplate: forum software wraps whole threads in one
//! (for its moderation checkboxes); its controls are boilerplate still.
//!
//! Never content: text of `script`, `style`, `template`, `noscript`, hidden elements (the
//! rules of [`crate::aria::hidden`] and the page's own sheets), navigation, asides, footers,
//! dialogs, controls, a checkbox's label (the control's name: a filter's option, a
//! "Remember me") and a post's signature by its class, whichever extraction won (the
//! relaxed one keeps other unlikely classes: a thread's `comment` posts). A node the pass
//! did not look at is never read by any path.

mod facts;
mod page;
mod structured;

pub(crate) use facts::{data_line, declared_text};
use page::is_main_landmark;
pub(crate) use page::{heading_level, is_block, Page};

use crate::aria::Index;
use crate::parse::{Dom, NodeId};
use structured::ProductRegion;

/// The main content of a page, as found: owned, so a [`Document`](crate::Document) keeps it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct MainContent {
    /// What a read of the parts leaves out (read measures the page again for it).
    pub cleaning: Cleaning,
    /// The element named as the main content; `None` when nothing scored.
    pub top: Option<NodeId>,
    /// The elements read, in document order: the top element and the siblings joining it,
    /// or the body when nothing scored.
    pub parts: Vec<NodeId>,
    /// Inside the parts, what a read leaves out by its class (`Page::left_out_by_class`: a
    /// post's signature, a share bar, a related-posts box), in document order; empty for
    /// the relaxed cleaning, which leaves out only hidden text and boilerplate.
    pub left_out: Vec<NodeId>,
    /// Characters of shown text the content keeps, as the extraction that chose it
    /// measured them: what two views of a page are compared by ([`no_script_view_wins`]).
    pub kept: usize,
}

/// What a read of the main content leaves out of its subtree, beyond hidden text and
/// boilerplate: Readability's `_prepArticle`, in steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Cleaning {
    /// The strict extraction won: unlikely classes, share bars, headings of negative class
    /// weight and the conditional cleaning (link lists, galleries, forms) go.
    Strict,
    /// The page's own main landmark is the content: unlikely classes and share bars go, but
    /// not the conditional cleaning, which takes a landing page's link-rich sections.
    Classes,
    /// The relaxed extraction, a run of cards, a product block or the largest text region:
    /// only hidden text and boilerplate go.
    #[default]
    Relaxed,
}

/// Where an arena node stands to the main content ([`MainContent::membership`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Member {
    #[default]
    Outside,
    /// In a part, and read.
    Content,
    /// In a part, but what a read of it leaves out (a post's signature, a share bar).
    LeftOut,
}

impl MainContent {
    /// Content read as it stands (a run of cards, a product block, the largest text
    /// region): only hidden text and boilerplate go, so nothing is left out by class.
    fn relaxed(top: NodeId, parts: Vec<NodeId>, kept: usize) -> MainContent {
        MainContent {
            cleaning: Cleaning::Relaxed,
            top: Some(top),
            parts,
            left_out: Vec::new(),
            kept,
        }
    }

    /// Where each arena node stands: the parts and their descendants are content, less what
    /// a read of them leaves out by its class (`left_out`).
    pub(crate) fn membership(&self, dom: &Dom) -> Vec<Member> {
        let mut member = vec![Member::Outside; dom.len()];
        for &part in &self.parts {
            member[part.index()] = Member::Content;
            for d in dom.descendants(part) {
                member[d.index()] = Member::Content;
            }
        }
        // A part left out whole still bounds the content for the snapshot (what lies between
        // the parts is content there): only what is inside a part is marked, a root whose
        // parent is content too. (Parts are siblings, so a part's parent is outside; asking
        // the parent keeps this linear however many parts Readability's sibling step joins.)
        // (The roots are outermost, so marking one never changes another's parent.)
        for &root in &self.left_out {
            let inside_a_part = dom
                .node(root)
                .parent
                .is_some_and(|p| member[p.index()] == Member::Content);
            if !inside_a_part {
                continue;
            }
            member[root.index()] = Member::LeftOut;
            for d in dom.descendants(root) {
                member[d.index()] = Member::LeftOut;
            }
        }
        member
    }
}

/// A strict extraction that keeps fewer characters than this is compared with a relaxed one,
/// which must keep twice as many to win: a short article stays short rather than gaining the
/// sidebar its rules had removed, but a service page whose cards the cleaning took (images
/// outnumber paragraphs) gets them back. Readability compares at 500 characters; at 2 000
/// the web2025 pages gain 0.013 F1 and the reading set's articles lose nothing.
const RELAXED_BELOW: usize = 2_000;

/// A strict extraction of [`RELAXED_BELOW`] to this many characters is compared too, and gives
/// way to a relaxed one only when that keeps five times as much: a product page whose strict
/// top is its specification table (its feature bullets are list items, which Readability does
/// not score) against the product's whole block. Trafilatura compares at any length; with
/// five times here, comparing at any length changes two pages more on web2025, one for the
/// worse, and costs a second pass on every page.
const RELAXED_COMPARED_BELOW: usize = 2 * RELAXED_BELOW;
/// What the relaxed extraction must keep, in times the strict one's, to win: twice below
/// [`RELAXED_BELOW`] (Readability's retry without its flags), five times above it.
fn relaxed_factor(kept: usize) -> usize {
    if kept < RELAXED_BELOW {
        2
    } else {
        5
    }
}

/// Characters the no-script view's content must keep to be read instead of the scripted
/// view's: more than a "please enable JavaScript" line or a crawler's stub, about a short
/// post's worth.
const NO_SCRIPT_MIN: usize = 250;

/// How many times the scripted view's content the no-script view's must keep: "far less"
/// in the ruling's words, so that a page showing its content with scripts keeps that view
/// and its `<noscript>` fallbacks (images shown already, tracking pixels, tag-manager frames)
/// are never read.
const NO_SCRIPT_FACTOR: usize = 3;

/// Whether a page whose scripted view's content is `scripted`, and whose `<noscript>`
/// elements hold about `noscript_chars` characters ([`Dom::noscript_chars`]), is worth
/// parsing again in the no-script view: only when that view could win
/// ([`no_script_view_wins`]).
pub(crate) fn no_script_view_may_win(scripted: &MainContent, noscript_chars: usize) -> bool {
    noscript_chars >= NO_SCRIPT_MIN && noscript_chars >= (NO_SCRIPT_FACTOR - 1) * scripted.kept
}

/// Whether the no-script view of a page is read instead of its scripted view: when the
/// scripted view has no main content or far less than the no-script view (forum software
/// serves the thread in `<noscript>` and an empty shell to browsers with scripts). Never
/// both views mixed: the no-script view is the whole page as a browser without scripts
/// shows it.
pub(crate) fn no_script_view_wins(scripted: &MainContent, no_script: &MainContent) -> bool {
    no_script.kept >= NO_SCRIPT_MIN && no_script.kept > NO_SCRIPT_FACTOR * scripted.kept
}

/// Finds the main content of a parsed page. A run of cards holding more than twice the text
/// of the prose extraction is the content instead (a category page's products, a listing's
/// results: link-heavy, so Readability's scoring and cleaning pass them by and pick the
/// newsletter box). web2025: collection F1 0.372 -> 0.410, listing 0.597 -> 0.637, the
/// reading set unchanged.
pub(crate) fn find(dom: &Dom, index: &Index) -> MainContent {
    let first = attempt(dom, index, Cleaning::Strict);
    let product = first.product;
    let chosen = choose(dom, index, first);
    let mut found = match product {
        Some(product) => settle(dom, chosen, product),
        None => chosen,
    };
    // The page's own main landmark, chosen as it stands: the author's word on what the
    // content is. A landing page's sections there are link-rich and image-rich (cards of
    // features, customer stories), which the conditional cleaning takes; an article's
    // content is the body inside the landmark, a smaller node, and keeps the strict rules.
    // web2025: service F1 0.738 -> 0.749 (`with` 0.697 -> 0.774), product 0.529 -> 0.536
    // (the name, price, stock and specifications of a product laid out in `<main>`); the
    // reading set's precision 0.975 -> 0.973.
    if found.cleaning == Cleaning::Strict
        && found
            .top
            .and_then(|t| dom.element(t))
            .is_some_and(is_main_landmark)
    {
        found.cleaning = Cleaning::Classes;
    }
    found
}

/// The region the page's structured data names as its product, as a sanity check of the one
/// chosen: a choice beside it (the reviews, a recommendations strip) gives way to the element
/// holding both, or to the product alone when only the body holds both. A choice that holds
/// the product, or is part of it, stays.
fn settle(dom: &Dom, chosen: MainContent, found: ProductRegion) -> MainContent {
    let ProductRegion {
        region: product,
        by_control,
    } = found;
    // The product holds at least what was chosen: its measure stands for both.
    let kept = chosen.kept;
    let Some(top) = chosen.top else {
        return MainContent::relaxed(product, vec![product], kept);
    };
    if chosen.parts.iter().any(|&p| dom.holds(p, product)) {
        return chosen;
    }
    if dom.holds(product, top) {
        // Inside the block that holds the product's name and its add-to-cart control (the
        // reviews or a description that outscored them): that block is read, the name,
        // price and availability first, as a person sees the page. A structured-data region
        // is the name and description already: a choice inside it stays.
        if by_control && product != top {
            return MainContent::relaxed(product, vec![product], kept);
        }
        return chosen;
    }
    let body = dom.body();
    let both = structured::common_ancestor(dom, top, product)
        .filter(|&c| Some(c) != body && Some(c) != dom.document_element());
    let parts = match both {
        Some(both) => vec![both],
        // Only the body holds both: the product, then what was chosen (its description or
        // reviews, further down), or the other way round, as the page has them.
        None => {
            let mut parts = chosen.parts;
            let at = parts
                .iter()
                .position(|&p| structured::precedes(dom, product, p))
                .unwrap_or(parts.len());
            parts.insert(at, product);
            parts
        }
    };
    // The product region is read as it stands: its specifications are link-dense and
    // image-dense, which the strict cleaning takes.
    MainContent::relaxed(both.unwrap_or(product), parts, kept)
}

/// The prose extraction, the relaxed one, the cards and the largest text region compared.
fn choose(dom: &Dom, index: &Index, first: Attempt) -> MainContent {
    let Attempt {
        content: strict,
        kept,
        cards,
        ..
    } = first;
    let listing = |kept: usize| {
        cards
            .filter(|&(_, text)| text as usize > 2 * kept)
            .map(|(parent, text)| MainContent::relaxed(parent, vec![parent], text as usize))
    };
    if kept >= RELAXED_COMPARED_BELOW {
        return listing(kept).unwrap_or(strict);
    }
    let Attempt {
        content: relaxed,
        kept: relaxed_kept,
        region,
        ..
    } = attempt(dom, index, Cleaning::Relaxed);
    let (best, kept) = if relaxed_kept > relaxed_factor(kept) * kept {
        (relaxed, relaxed_kept)
    } else {
        (strict, kept)
    };
    if let Some(found) = listing(kept) {
        return found;
    }
    match region {
        Some((region, text)) if kept < RELAXED_BELOW && text as usize > FALLBACK_RATIO * kept => {
            MainContent::relaxed(region, vec![region], text as usize)
        }
        _ => best,
    }
}

/// The last link of the fallback chain: an extraction keeping fewer than [`RELAXED_BELOW`]
/// characters, on a page whose largest visible text region holds this many times as much,
/// gives way to that region ("no main content" is for a page with no visible text). A shop's product page
/// or a front page of cards scores a newsletter line or a 404 heading; a short article (a
/// paywalled lead of 465 characters beside a page of teasers) keeps its lead: at a ratio of
/// 3 the reading set's short articles took their page's teasers, at 5 nothing changes there
/// (nor at 4 with a second rule for 1 000 to 2 000 characters, which took an article's menu).
/// web2025: ALL F1 0.755 -> 0.760, collection 0.410 -> 0.450, listing 0.637 -> 0.667, empty
/// 38 -> 33; at 1 000 characters instead of 2 000 one listing fewer.
const FALLBACK_RATIO: usize = 5;

/// One extraction and what the comparisons need of its measured page.
struct Attempt {
    content: MainContent,
    /// Characters the extraction keeps after cleaning.
    kept: usize,
    /// The largest card run and its text (strict attempt only).
    cards: Option<(NodeId, u32)>,
    /// The structured data's product region (strict attempt only).
    product: Option<ProductRegion>,
    /// The largest text region and its text (relaxed attempt only).
    region: Option<(NodeId, u32)>,
}

/// One extraction, `Cleaning::Strict` or `Cleaning::Relaxed`.
fn attempt(dom: &Dom, index: &Index, cleaning: Cleaning) -> Attempt {
    let strict = cleaning == Cleaning::Strict;
    let page = Page::measure(dom, index, cleaning);
    let (top, parts) = match page.main_content() {
        Some(m) => (Some(m.top), m.parts),
        // Nothing scored (no paragraph of 25 characters): the whole body is the content.
        None => (None, vec![page.body]),
    };
    let kept = page.kept_chars(&parts);
    let (cards, product, region) = if strict {
        (
            page.largest_card_run(),
            structured::product_region(&page),
            None,
        )
    } else {
        let region = page
            .largest_text_region()
            .map(|r| (r, page.agg[r.index()].text));
        (None, None, region)
    };
    Attempt {
        content: MainContent {
            cleaning,
            top,
            left_out: page.left_out_by_class(&parts),
            parts,
            kept,
        },
        kept,
        cards,
        product,
        region,
    }
}
