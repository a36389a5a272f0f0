//! The choice of the main content, "what wins": the strict extraction (Readability's top
//! candidate, grown by the coverage, table, post and thread steps, with the siblings that
//! join it and the headline's block), the relaxed one, the largest run of cards and the
//! largest text region compared, and the structured data's product region as a sanity check
//! of the winner. What an element is lives in [`super::element`], what it measures and what
//! a read leaves out in [`super::measure`].

use html5ever::local_name;

use super::element::{
    element_siblings, first_class, heading_level, is_hatom_entry, is_main_landmark,
    is_microdata_thread, is_other_products, is_post_id, same_template,
};
use super::measure::{Page, BOILER, HIDDEN, UNLIKELY, VISITED};
use super::structured::{self, ProductRegion};
use super::{Cleaning, MainContent};
use crate::aria::Index;
use crate::parse::{push_in_order, Dom, Element, NodeId};

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
    let mut first = attempt(dom, index, Cleaning::Strict);
    let pane_extras = std::mem::take(&mut first.pane_extras);
    let product = first.product;
    let chosen = choose(dom, index, first);
    let mut found = match product {
        Some(product) => settle(dom, chosen, product),
        None => chosen,
    };
    if product.is_some() && found.cleaning == Cleaning::Relaxed {
        found.left_out = other_products(dom, &found.parts);
        found.ends_at_prose = false;
    }
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
    // What a read leaves out of the posts' author panes, whichever extraction won: the
    // snapshot ranks it with the rest of the page (`Page::pane_extras`). (One pass marks the
    // parts: asking each pane's ancestors is quadratic on a page nested deep.)
    if !pane_extras.is_empty() {
        let mut inside = vec![false; dom.len()];
        for &part in &found.parts {
            dom.descendants(part).for_each(|d| inside[d.index()] = true);
        }
        found
            .left_out
            .extend(pane_extras.into_iter().filter(|e| inside[e.index()]));
    }
    found
}

/// The blocks of other products inside a product's region, read as it stands (relaxed): its
/// related products, upsells and recommendations, by their class or id, outermost first, in
/// document order. A read of the product leaves them out, as the snapshot ranks them outside
/// its content. web2025: product F1 0.565 -> 0.567, boilerplate read 0.149 -> 0.141 (a shop's
/// dress page read its four related dresses, precision 0.13 -> 0.36); nothing else moves.
fn other_products(dom: &Dom, parts: &[NodeId]) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for &part in parts.iter().rev() {
        push_in_order(&mut stack, dom.children(part));
    }
    while let Some(id) = stack.pop() {
        let Some(el) = dom.element(id) else {
            continue;
        };
        if is_other_products(el) {
            out.push(id);
            continue;
        }
        push_in_order(&mut stack, dom.children(id));
    }
    out
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
    let both = dom
        .common_ancestor(top, product)
        .filter(|&c| Some(c) != body && Some(c) != dom.document_element());
    let parts = match both {
        Some(both) => vec![both],
        // Only the body holds both: the product, then what was chosen (its description or
        // reviews, further down), or the other way round, as the page has them.
        None => {
            let mut parts = chosen.parts;
            let at = parts
                .iter()
                .position(|&p| dom.precedes(product, p))
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
        headline,
        comments,
        ..
    } = first;
    // An alternative that leaves the headline's region for a region without it (a rail of
    // teasers, the comments) gives way to the strict choice beside the headline.
    let strays = |alt: NodeId| {
        headline.is_some_and(|(h1, region)| !dom.holds(region, alt) && !dom.holds(alt, h1))
    };
    let listing = |kept: usize| {
        cards
            .filter(|&(parent, text)| text as usize > 2 * kept && !strays(parent))
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
    // The comments the strict rules left out do not replace a post's worth of story that
    // they outweigh less than [`DISCUSSION`] times: the relaxed extraction gets them back
    // (for a thread whose posts are classed `comment`), and a short article's comments
    // outweigh it.
    let comments_of_a_story = |alt: NodeId, text: usize| {
        kept >= STORY_KEPT
            && text < DISCUSSION * kept
            && comments.iter().any(|&c| dom.holds(c, alt))
    };
    let entry = entry_of(dom, strict.top, kept);
    let outside_entry = |alt: NodeId| entry.is_some_and(|e| !dom.holds(e, alt));
    let (best, kept) = if relaxed_kept > relaxed_factor(kept) * kept
        && !relaxed.top.is_some_and(outside_entry)
        && !relaxed
            .top
            .is_some_and(|t| comments_of_a_story(t, relaxed_kept))
    {
        (relaxed, relaxed_kept)
    } else {
        (strict, kept)
    };
    if let Some(found) = listing(kept) {
        return found;
    }
    match region {
        Some((region, text))
            if kept < RELAXED_BELOW
                && text as usize > FALLBACK_RATIO * kept
                && !outside_entry(region)
                && !comments_of_a_story(region, text as usize) =>
        {
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

/// Characters a strict extraction keeps of a post that make it the post's text (a short
/// post's paragraph), which no wider region replaces (`entry_of`).
const ENTRY_KEPT: usize = 100;

/// The post the strict extraction's top is or lies in ([`is_entry`]: an hAtom entry, or a
/// lone numbered post) when the extraction keeps [`ENTRY_KEPT`] characters of it. A
/// region that is not inside that post (the relaxed extraction's, the largest text region)
/// is the page around one short post, or beside it: its sidebar's widgets, its comments
/// and pingbacks, its teasers.
/// trafeval: F1 0.898 -> 0.901, precision 0.854 -> 0.858 (18 boilerplate lines fewer on
/// 8 blog posts of 150 to 2 300 characters, none of their text lost); web2025 and the
/// reading set unchanged (without the floor, a shop whose strict read kept nothing read
/// nothing). A lone numbered post as an entry too: trafeval precision 0.863 -> 0.866, the
/// other sets unchanged.
fn entry_of(dom: &Dom, top: Option<NodeId>, kept: usize) -> Option<NodeId> {
    let top = top.filter(|_| kept >= ENTRY_KEPT)?;
    std::iter::successors(Some(top), |&n| dom.node(n).parent)
        .find(|&n| dom.element(n).is_some_and(|e| is_entry(dom, n, e)))
}

/// Whether an element is one post of a blog: an hAtom entry, or the only element among its
/// siblings whose id numbers it as a post (`div.post#post-1701`, the markup of blog themes
/// older than hAtom; a thread numbers several posts side by side).
fn is_entry(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    is_hatom_entry(el)
        || (is_post_id(el)
            && !element_siblings(dom, id, false)
                .chain(element_siblings(dom, id, true))
                .filter_map(|s| dom.element(s))
                .any(is_post_id))
}

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
    /// The page's headline (its first shown `h1` with text) and the region it shares with
    /// the content chosen, when that region is prose (strict attempt only).
    headline: Option<(NodeId, NodeId)>,
    /// The blocks the strict pass skipped as the page's comments (strict attempt only).
    comments: Vec<NodeId>,
    /// What a read leaves out of the page's item panes (strict attempt only).
    pane_extras: Vec<NodeId>,
}

/// One extraction, `Cleaning::Strict` or `Cleaning::Relaxed`.
fn attempt(dom: &Dom, index: &Index, cleaning: Cleaning) -> Attempt {
    let strict = cleaning == Cleaning::Strict;
    let page = Page::measure(dom, index, cleaning);
    let (mut top, mut parts) = match page.main_content() {
        Some(m) => (Some(m.top), m.parts),
        // Nothing scored (no paragraph of 25 characters): the whole body is the content.
        None => (None, vec![page.body]),
    };
    let mut kept = page.kept_chars(&parts);
    let headline = if strict {
        top.and_then(|top| page.headline_region(top, kept))
    } else {
        None
    };
    if let Some(story) = headline.and_then(|(_, region)| page.story_around_table(top?, region)) {
        (top, parts) = (Some(story), vec![story]);
        kept = page.kept_chars(&parts);
    }
    let comments = if strict {
        page.comments.clone()
    } else {
        Vec::new()
    };
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
            ends_at_prose: true,
        },
        kept,
        cards,
        product,
        region,
        headline,
        comments,
        pane_extras: if strict {
            page.all_pane_extras()
        } else {
            Vec::new()
        },
    }
}

/// Characters a strict extraction keeps that make it a story (a short post of a few
/// paragraphs) which what the strict rules left out by class does not replace (`choose`).
const STORY_KEPT: usize = 1_000;
/// Comments that outweigh the story this many times are the page's content: a discussion
/// (a Slashdot story's summary under its thread, 36 times its length), where a blog post's
/// comments are 7 to 8 times its length.
const DISCUSSION: usize = 20;

/// The share of the page's prose the main content holds at least, where an ancestor of the
/// top candidate holds it (`Page::main_content`). Measured on the web2025 pages: 0.3 to 0.7
/// score alike there; above 0.4 the reading set's articles gain their comment threads.
const COVER: f32 = 0.4;
/// A run of cards has this many at least, each with this much text.
const MIN_CARDS: u32 = 4;
const MIN_CARD_TEXT: u32 = 20;
/// The share of the page's visible text the largest text region's every step down holds
/// (`Page::largest_text_region`).
const REGION_SHARE: f32 = 0.6;
/// Levels above the top candidate where a post of a run is looked for (`Page::post_run`).
const POST_ANCESTORS: usize = 6;
/// The prose (text outside links) a headline's block holds to join the content
/// ([`Page::headline_block`]): a lead paragraph's, more than a title, a byline and a date.
/// At 200 an article's header with a one-line standfirst joined, and the web2025 articles
/// lost precision; at 300 `with` 0.834 -> 0.840 (forum 0.780 -> 0.798, service 0.768 ->
/// 0.786), the reading set's precision 0.973 -> 0.972.
const LEAD_PROSE: f32 = 300.0;
/// Other posts the run has at least, each with this much prose.
const MIN_REPLIES: usize = 2;
const MIN_POST_PROSE: f32 = 25.0;
/// Questions that make a box a FAQ ([`Page::is_faq`]): one question heading is a section
/// that asks ("Why choose us?"); two or more, most of the box's titles, are its items.
const MIN_QUESTIONS: usize = 2;
/// Levels above the top candidate its builder row is looked for ([`Page::rows_around`]):
/// WPBakery's `vc_row > wpb_column > vc_column-inner > wpb_wrapper > wpb_text_column` is five.
const ROW_DEPTH: usize = 6;
/// Siblings of one template that make rows: two are a layout's columns (a product's
/// description beside its reviews), a builder's page is rows down the page.
const MIN_ROWS: usize = 3;
/// A builder's row with no more shown text than this is a spacer or a divider
/// (`rows_around`): a space or a `&nbsp;`. trafeval: lost 12 -> 11 (a leasing guide read
/// one of its four rows), web2025: a ranking read whole (0285, F1 0.765 -> 0.971), no page
/// lower; the reading set unchanged.
const SPACER_TEXT: u32 = 1;
/// Prose a row holds, as a share of the top candidate's, to be more of the same story.
const ROW_SHARE: f32 = 0.25;
/// How many divs may wrap a paragraph that joins the top candidate as a paragraph does
/// (`div.short-definition > div.short-definition__text > p` is two).
const PARAGRAPH_WRAPPERS: usize = 4;
/// Prose per question, at most, in a FAQ box: its answers are a few sentences each, where an
/// article whose headings are questions answers each in sections of paragraphs (2 000
/// characters a question on the two such articles of web2025 that the rule took without it).
const FAQ_ANSWER: f32 = 500.0;
/// Prose per item, at most, in an accordion ([`Page::is_faq`]): a paragraph each (a cloud
/// service's four use cases, 570 characters each). web2025: that page 0.74 -> 0.85, service
/// 0.777 -> 0.778, no other page moved; trafeval and the reading set unchanged.
const ACCORDION_ITEM: f32 = 1000.0;
/// Headings outside a FAQ box that make its page one of sections ([`Page::sections_around_faq`]).
const MIN_SECTIONS_BESIDE: usize = 2;
/// Readability's test for a short paragraph of prose: a full stop followed by a space or the
/// end (`/\.( |$)/`).
fn ends_a_sentence(dom: &Dom, id: NodeId) -> bool {
    let mut text = String::new();
    for d in dom.descendants(id) {
        if let Some(t) = dom.text(d) {
            text.push_str(t);
            if text.len() > 400 {
                break;
            }
        }
    }
    let text = crate::text::normalize(&text);
    text.ends_with('.') || text.contains(". ")
}

/// The main content found.
struct Main {
    /// The top candidate (after climbing): the element named as the main content.
    pub top: NodeId,
    /// The elements read, in document order: the top candidate and the siblings joining it.
    pub parts: Vec<NodeId>,
}

impl<'a> Page<'a> {
    /// The main content: the top candidate and the siblings that join it, in document
    /// order; `None` when nothing on the page scored.
    fn main_content(&self) -> Option<Main> {
        let mut top: Vec<(NodeId, f32)> = Vec::with_capacity(6);
        for &c in &self.candidates {
            if c == self.body || self.dom.element(c).is_none() {
                continue;
            }
            let s = self.final_score(c);
            // Ties keep the earlier candidate: the result depends on the page only.
            let at = top.iter().position(|&(_, t)| s > t).unwrap_or(top.len());
            if at < 5 {
                top.insert(at, (c, s));
                top.truncate(5);
            }
        }
        let &(mut best, mut best_score) = top.first()?;
        let score_of = |id: NodeId| self.score_of(id);
        // Several near-equal candidates: their common container is the content.
        let alternatives: Vec<NodeId> = top[1..]
            .iter()
            .filter(|&&(_, s)| best_score > 0.0 && s / best_score >= 0.75)
            .map(|&(id, _)| id)
            .collect();
        if alternatives.len() >= 3 {
            let mut up = self.parent_element(best);
            while let Some(p) = up.filter(|&p| p != self.body) {
                let containing = alternatives
                    .iter()
                    .filter(|&&alt| self.dom.is_ancestor(p, alt))
                    .count();
                if containing >= 3 {
                    best = p;
                    best_score = score_of(p);
                    break;
                }
                up = self.parent_element(p);
            }
        }
        // Climb while the parent scores close to it (its siblings are content too).
        let mut last = score_of(best).max(best_score);
        let threshold = last / 3.0;
        let mut up = self.parent_element(best);
        while let Some(p) = up.filter(|&p| p != self.body) {
            if !self.is_candidate(p) {
                up = self.parent_element(p);
                continue;
            }
            let s = score_of(p);
            if s < threshold {
                break;
            }
            if s > last {
                best = p;
                break;
            }
            last = s;
            up = self.parent_element(p);
        }
        // An only child says no more than its parent.
        while let Some(p) = self.parent_element(best).filter(|&p| p != self.body) {
            if self
                .dom
                .children(p)
                .filter(|&c| self.dom.element(c).is_some())
                .count()
                != 1
            {
                break;
            }
            best = p;
        }
        // A part of the content is not the content: a service page's first section, one post
        // of a thread, the intro of a product. The top candidate grows to the nearest
        // ancestor holding `COVER` of the page's prose (text outside links), unless that
        // ancestor is mostly links (the page's chrome, not more of its content).
        let total = self.prose(self.body);
        // When none below the body holds it and no child of the body holds most of the
        // page's text (the largest text region is the body), the content is spread over the
        // body's children, a landing page's sections side by side: the body is the content,
        // its boilerplate left out as everywhere ("sections in order"; Readability would read
        // the one section with the most commas, a FAQ). Where one child does hold most, the
        // fallback chain reads that region (`content::find`).
        let spread = || self.largest_text_region() == Some(self.body);
        let mut up = Some(best);
        while let Some(p) = up {
            if p == self.body && !spread() {
                break;
            }
            if self.prose(p) >= COVER * total {
                if self.agg[p.index()].link_density() < 0.5 {
                    best = p;
                }
                break;
            }
            up = self.parent_element(p);
        }
        if let Some(page) = self.sections_around_faq(best) {
            best = page;
        }
        if let Some(table) = self.table_of_rows(best) {
            best = table;
        }
        if let Some(run) = self.post_run(best) {
            best = run;
        }
        if let Some(thread) = self.thread_scope(best) {
            best = thread;
        }
        let mut parts = self.join_siblings(best);
        if parts.len() == 1 {
            if let Some(rows) = self.rows_around(best) {
                parts = rows;
            }
        }
        if let Some(lead) = self.headline_block(best, &parts) {
            parts.insert(0, lead);
        }
        Some(Main { top: best, parts })
    }

    /// The rows of a story a page builder split (`div.vc_row` after `div.vc_row`, each a
    /// part of the same interview or article): when no sibling of the top candidate joins
    /// it, its nearest ancestor within [`ROW_DEPTH`] levels that has [`MIN_ROWS`] siblings
    /// or more of its tag and first class (itself included) is its row, and the unbroken run
    /// of rows around it that hold prose like it (at least [`ROW_SHARE`] of the top's, links
    /// under a quarter of their text, no fields, no negative class weight) joins it, in
    /// document order. Readability looks at the top candidate's own siblings only, and its
    /// score reaches two levels up: a builder's row is five or six. A rail of teasers is rows
    /// of links and short text; a plea to subscribe or an author's box is far shorter than a
    /// story's part; a comments pane says so in its class.
    /// trafeval: lost 14 -> 13 (an interview read from its second row); web2025: service
    /// 0.765 -> 0.767, no page lower; the reading set unchanged. Matching the whole class
    /// string instead of its first class kept only the interview.
    fn rows_around(&self, top: NodeId) -> Option<Vec<NodeId>> {
        let alike =
            |a: Element<'_>, b: Element<'_>| first_class(a).is_some() && same_template(a, b);
        let mut row = top;
        for _ in 0..ROW_DEPTH {
            let parent = self.parent_element(row).filter(|&p| p != self.body)?;
            let el = self.dom.element(row)?;
            let like: Vec<NodeId> = self
                .dom
                .children(parent)
                .filter(|&c| self.dom.element(c).is_some_and(|e| alike(e, el)))
                .collect();
            if like.len() >= MIN_ROWS {
                let prose = self.prose(top);
                let story = |c: NodeId| {
                    let a = self.agg[c.index()];
                    let skipped = self.strict() && self.flags[c.index()] & UNLIKELY != 0;
                    !(self.not_shown(c) || skipped)
                        && self.prose(c) >= ROW_SHARE * prose
                        && a.link_density() < 0.25
                        && a.inputs == 0
                        && self.class_weight(c) >= 0.0
                };
                // The run of story rows around the top's, unbroken.
                // An empty row (a builder's spacer or divider between two of the story's
                // rows) is layout: it neither breaks the run nor joins it.
                let like: Vec<NodeId> = like
                    .into_iter()
                    .filter(|&c| c == row || self.agg[c.index()].text > SPACER_TEXT)
                    .collect();
                let at = like.iter().position(|&c| c == row)?;
                let start = like[..at]
                    .iter()
                    .rposition(|&c| !story(c))
                    .map_or(0, |i| i + 1);
                let end = like[at + 1..]
                    .iter()
                    .position(|&c| !story(c))
                    .map_or(like.len(), |i| at + 1 + i);
                let rows = like[start..end].to_vec();
                return (rows.len() >= 2).then_some(rows);
            }
            row = parent;
        }
        None
    }

    /// The region of the page's sections around a FAQ box chosen as the content: the
    /// nearest element holding both the box and the page's headline (its first shown `h1`),
    /// when that region has sections of its own beside the box ([`MIN_SECTIONS_BESIDE`]
    /// shown headings and a lead's worth of prose outside it, [`LEAD_PROSE`]) and is not
    /// mostly links. A FAQ's answers are prose in one box, so Readability's commas make it
    /// outscore a landing page's short sections; but a page that names its subject above
    /// them is about that subject, and its FAQ is one section of it (issue 44, ruling 4: a
    /// service page reads its sections, not one FAQ box). An article whose headings are
    /// questions holds its own `h1`, or has no other sections beside it.
    /// web2025: service 0.758 -> 0.765 (one page, twice: 0.57 -> 0.89), no other page moved;
    /// trafeval and the reading set unchanged.
    fn sections_around_faq(&self, top: NodeId) -> Option<NodeId> {
        if !self.is_faq(top) {
            return None;
        }
        let h1 = self
            .h1s
            .iter()
            .copied()
            .find(|&h| !self.not_shown(h) && self.agg[h.index()].text > 0)?;
        let region = self.dom.common_ancestor(h1, top)?;
        if region == top || (region != self.body && !self.dom.is_ancestor(self.body, region)) {
            return None;
        }
        // The region's shown headings below `h1`, the box's subtree not walked.
        let mut beside = 0;
        let mut walk = self.dom.descendants(region);
        while let Some(id) = walk.next() {
            if id == top {
                walk.skip_subtree(id);
                continue;
            }
            let heading = self
                .dom
                .element(id)
                .and_then(heading_level)
                .is_some_and(|level| level > 1);
            beside += usize::from(heading && self.agg[id.index()].text > 0);
        }
        (beside >= MIN_SECTIONS_BESIDE
            && self.prose(region) - self.prose(top) >= LEAD_PROSE
            && self.agg[region.index()].link_density() < 0.5)
            .then_some(region)
    }

    /// Whether an element is a FAQ box: [`MIN_QUESTIONS`] or more of its shown item titles
    /// (headings below `h1`, a `<details>`' summary, a term, a toggle button) are questions,
    /// they are most of its titles, and its answers are short ([`FAQ_ANSWER`]). A question is
    /// read from its text's last character (`?`, or the full-width `？` of CJK text), so the
    /// rule holds in any language that marks questions so. An accordion is such a box too:
    /// most of its titles are disclosures (a `<summary>`, or an `aria-expanded` control on or
    /// in the title, <https://www.w3.org/WAI/ARIA/apg/patterns/accordion/>), each opening a
    /// paragraph ([`ACCORDION_ITEM`]): a landing page's use cases or features, one section of
    /// it, whose bodies outscore the page's short sections as a FAQ's answers do.
    fn is_faq(&self, id: NodeId) -> bool {
        let (mut titles, mut questions, mut toggles) = (0usize, 0usize, 0usize);
        for d in self.dom.descendants(id) {
            let Some(el) = self.dom.element(d) else {
                continue;
            };
            let title = el.is_html(&local_name!("summary"))
                || el.is_html(&local_name!("dt"))
                || el.is_html(&local_name!("button"))
                || heading_level(el).is_some_and(|level| level > 1);
            if !title || self.not_shown(d) {
                continue;
            }
            titles += 1;
            let toggle = el.is_html(&local_name!("summary"))
                || self.dom.descendants(d).take(8).any(|b| {
                    self.dom
                        .element(b)
                        .is_some_and(|e| e.has_attr(&local_name!("aria-expanded")))
                });
            toggles += usize::from(toggle);
            let last = self
                .shown_text(d)
                .filter_map(|t| t.trim_end().chars().last())
                .last();
            questions += usize::from(matches!(last, Some('?' | '\u{FF1F}')));
        }
        let prose = self.prose(id);
        let faq = questions >= MIN_QUESTIONS
            && questions * 2 > titles
            && prose <= FAQ_ANSWER * questions as f32;
        let accordion = toggles >= MIN_QUESTIONS
            && toggles * 2 > titles
            && prose <= ACCORDION_ITEM * toggles as f32;
        faq || accordion
    }

    /// The block holding the page's headline (its first shown `h1`), when that block comes
    /// before the content found, outside it, and holds a lead's worth of prose
    /// ([`LEAD_PROSE`]): a thread's title and first post above its replies (a story above
    /// its comments, which outweigh it), a landing page's hero above its sections, an
    /// article's standfirst above its body. Readability names the title apart from the
    /// body it reads; a read has no other place to show them. The block is the headline's
    /// ancestor just below the nearest element holding the content too, never the body.
    /// The lead is what a read of the block keeps, not its raw prose: a headline beside an
    /// author's box that the cleaning takes would join as content for the snapshot while
    /// the read shows none of it.
    fn headline_block(&self, top: NodeId, parts: &[NodeId]) -> Option<NodeId> {
        let h1 = self.h1s.iter().copied().find(|&h| !self.not_shown(h))?;
        let &first = parts.first()?;
        let both = self
            .dom
            .common_ancestor(h1, top)
            .filter(|&c| c != h1 && c != self.body && self.dom.is_ancestor(self.body, c))?;
        let mut block = h1;
        while let Some(parent) = self.parent_element(block).filter(|&p| p != both) {
            block = parent;
        }
        // The parts are the top and its siblings: the headline is inside one of them when
        // the top holds it or its block is one of them.
        if both == top || parts.contains(&block) {
            return None;
        }
        let unlikely = self.strict() && self.flags[block.index()] & UNLIKELY != 0;
        let shown = !(self.not_shown(block) || unlikely);
        (shown
            && self.prose(block) >= LEAD_PROSE
            && self.agg[block.index()].link_density() < 0.5
            && self.dom.precedes(block, first)
            && self.kept_chars(&[block]) >= LEAD_PROSE as usize)
            .then_some(block)
    }

    /// The page's headline (its first shown `h1` with text) and the region it shares with the
    /// content chosen (`top`, keeping `kept` characters): their nearest common ancestor below
    /// the body, when that holds a lead's worth of prose ([`LEAD_PROSE`]) with link density
    /// under 0.5 and the content keeps as much. The page names its story by its `h1`: an
    /// alternative the fallback chain offers (the relaxed extraction, a run of cards, the
    /// largest text region) that lies outside this region and does not hold the headline
    /// either (a rail of teasers, the comments) does not replace the story (issue 44, ruling
    /// 4); one inside it, more of the same article, still may.
    fn headline_region(&self, top: NodeId, kept: usize) -> Option<(NodeId, NodeId)> {
        // A page whose only headline sits in a header the strict rules skip (its class says
        // `header`) still names its story by it.
        let h1 = self
            .h1s
            .iter()
            .copied()
            .find(|&h| !self.not_shown(h) && self.agg[h.index()].text > 0)
            .or(self.skipped_h1)?;
        let both = self.dom.common_ancestor(h1, top)?;
        (both != h1
            && both != self.body
            && self.dom.is_ancestor(self.body, both)
            && kept >= LEAD_PROSE as usize
            && self.prose(both) >= LEAD_PROSE
            && self.agg[both.index()].link_density() < 0.5)
            .then_some((h1, both))
    }

    /// The headline's region (`region`, [`Page::headline_region`]) around a table the top
    /// candidate is, or is a row or body of, when the region holds a lead's worth of prose
    /// outside the table ([`LEAD_PROSE`]): the table is a part of the story (an open
    /// letter's signatories, a list of MPs and their addresses under a news story), whose
    /// short cells Readability scores as paragraphs, one by one, above the story's text.
    fn story_around_table(&self, top: NodeId, region: NodeId) -> Option<NodeId> {
        let table = if self.dom.element(top)?.is_html(&local_name!("table")) {
            top
        } else {
            self.table_of_part(top)?
        };
        (region != table
            && self.dom.holds(region, table)
            && self.prose(region) - self.prose(table) >= LEAD_PROSE)
            .then_some(region)
    }

    /// The table whose body or row `id` is.
    fn table_of_part(&self, id: NodeId) -> Option<NodeId> {
        let el = self.dom.element(id)?;
        let rows = matches!(
            *el.local(),
            local_name!("tbody") | local_name!("thead") | local_name!("tfoot") | local_name!("tr")
        );
        if !(rows && el.in_html_ns()) {
            return None;
        }
        self.dom
            .ancestors(id)
            .take(2)
            .find(|(_, e)| e.is_html(&local_name!("table")))
            .map(|(table, _)| table)
    }

    /// The data table whose body or row the top candidate is: the rows score (their cells
    /// are the paragraphs), but a table's body is not the table. Its head names the columns
    /// and its rows read as rows only from the table (a comparison of cloud services read as
    /// loose cells, without "Service category | Service type | …").
    fn table_of_rows(&self, top: NodeId) -> Option<NodeId> {
        let table = self.table_of_part(top)?;
        (!self.index.is_layout_table(table)).then_some(table)
    }

    /// The parent of the run of posts the content is one of: the top candidate, or an
    /// ancestor a few levels up, that forum software numbers as a post (`id="post-4896267"`,
    /// `msg4175421`) and that has siblings of its tag and first class holding prose too (the
    /// thread's replies after its first post). One long first post holds most of a thread's
    /// prose, so the coverage step stops at it; the run is the thread. Not through the body,
    /// nor to a parent that is mostly links. (Page builders repeat tag and class as much,
    /// `div.elementor-element` around an article's parts, but do not number posts.)
    fn post_run(&self, top: NodeId) -> Option<NodeId> {
        let mut id = top;
        for _ in 0..POST_ANCESTORS {
            let parent = self.parent_element(id).filter(|&p| p != self.body)?;
            let el = self.dom.element(id)?;
            if first_class(el).is_some() && is_post_id(el) {
                let same = self
                    .dom
                    .children(parent)
                    .filter(|&c| c != id && self.prose(c) >= MIN_POST_PROSE)
                    .filter(|&c| self.dom.element(c).is_some_and(|e| same_template(e, el)))
                    .count();
                if same >= MIN_REPLIES && self.agg[parent.index()].link_density() < 0.5 {
                    return Some(parent);
                }
            }
            id = parent;
        }
        None
    }

    /// The element the page's microdata names as the thread (a `Question`, a
    /// `DiscussionForumPosting`) around the content chosen: on a Q&A page the answers hold
    /// most of the prose and the question sits beside them, its first post, under the
    /// thread's scope with the thread's title. Not the body, nor an element that is mostly
    /// links.
    fn thread_scope(&self, top: NodeId) -> Option<NodeId> {
        self.dom
            .ancestors(top)
            .take_while(|&(id, _)| id != self.body)
            .find(|&(_, el)| is_microdata_thread(el))
            .map(|(id, _)| id)
            .filter(|&id| self.agg[id.index()].link_density() < 0.5)
    }

    /// The largest run of cards: consecutive sibling elements of one tag and first class,
    /// each with a link and some text (a category page's products, a listing's results, a
    /// forum's threads), four at least. Returns their parent and the text the run holds.
    ///
    /// Cards differ in their other classes (`item has-image has-audio` beside `item
    /// has-image`: a result with a podcast and one without), and a listing interleaves ad
    /// slots (`<aside class="ad-wrap">`) and empty spacers: a sibling that is boilerplate,
    /// hidden or without text neither counts nor ends the run.
    fn largest_card_run(&self) -> Option<(NodeId, u32)> {
        let dom = self.dom;
        let card = |id: NodeId| {
            let a = self.agg[id.index()];
            self.flags[id.index()] & (HIDDEN | BOILER | UNLIKELY | VISITED) == VISITED
                && a.text >= MIN_CARD_TEXT
                && a.link > 0.0
        };
        let passed_by = |id: NodeId| self.not_shown(id) || self.agg[id.index()].text == 0;
        let mut best: Option<(NodeId, u32)> = None;
        for (parent, _) in dom.elements() {
            if self.not_shown(parent) || self.agg[parent.index()].text < MIN_CARD_TEXT * 4 {
                continue;
            }
            // (signature of the run, cards in it, their text)
            let mut run: Option<(Element<'_>, u32, u32)> = None;
            for c in dom.children(parent) {
                let Some(el) = dom.element(c) else { continue };
                if passed_by(c) {
                    continue;
                }
                let same = run
                    .as_ref()
                    .is_some_and(|(first, _, _)| same_template(*first, el));
                if !same {
                    run = None;
                }
                if !card(c) {
                    run = None;
                    continue;
                }
                let (_, count, text) = run.get_or_insert((el, 0, 0));
                *count += 1;
                *text = text.saturating_add(self.agg[c.index()].text);
                if *count >= MIN_CARDS && best.is_none_or(|(_, t)| *text > t) {
                    best = Some((parent, *text));
                }
            }
        }
        best
    }

    /// The largest region of visible text: from the body down, into the child element
    /// holding `REGION_SHARE` of the page's text while there is one (the page's one big
    /// column, below its unmarked header and footer). The fallback when the scored content
    /// keeps next to nothing of a page that has text (`content::find`).
    fn largest_text_region(&self) -> Option<NodeId> {
        let total = self.agg[self.body.index()].text;
        if total == 0 {
            return None;
        }
        let mut current = self.body;
        loop {
            let biggest = self
                .dom
                .children(current)
                .filter(|&c| {
                    self.dom.element(c).is_some()
                        && !self.not_shown(c)
                        && !(self.strict() && self.flags[c.index()] & UNLIKELY != 0)
                })
                .max_by_key(|&c| self.agg[c.index()].text);
            match biggest {
                Some(c) if self.agg[c.index()].text as f32 >= REGION_SHARE * total as f32 => {
                    current = c;
                }
                _ => return Some(current),
            }
        }
    }

    /// Whether a div is one paragraph in wrappers: a `<p>` under at most
    /// [`PARAGRAPH_WRAPPERS`] divs, each holding nothing else (no text of its own, no other
    /// element). Readability turns such a div into its `<p>` before it joins siblings, so
    /// an article's lead in `div.body-intro > div > p`, beside the body that scored, joins
    /// it as a paragraph does. trafeval: recall 0.947 -> 0.950, F1 0.906 -> 0.907 (four
    /// leads found, no boilerplate line more); web2025: one lead found, three affiliate
    /// notices read ("We may earn commission…", which its truths leave out), article F1
    /// 0.953 unchanged; the reading set unchanged.
    fn wraps_one_paragraph(&self, id: NodeId) -> bool {
        let mut at = id;
        for _ in 0..PARAGRAPH_WRAPPERS {
            if self.agg[at.index()].own_text > 0 {
                return false;
            }
            let mut kids = self
                .dom
                .children(at)
                .filter_map(|c| Some(c).zip(self.dom.element(c)));
            let (Some((only, el)), None) = (kids.next(), kids.next()) else {
                return false;
            };
            if el.is_html(&local_name!("p")) {
                return true;
            }
            if !el.is_html(&local_name!("div")) {
                return false;
            }
            at = only;
        }
        false
    }

    /// The top candidate with the siblings that score close to it, or are paragraphs of
    /// prose, in document order.
    fn join_siblings(&self, top: NodeId) -> Vec<NodeId> {
        let Some(parent) = self.parent_element(top) else {
            return vec![top];
        };
        let top_score = if self.is_candidate(top) {
            self.final_score(top)
        } else {
            0.0
        };
        let threshold = (top_score * 0.2).max(10.0);
        let top_class = self
            .dom
            .element(top)
            .and_then(|e| e.attr(&local_name!("class")))
            .filter(|c| !c.is_empty());
        let mut parts = Vec::new();
        for s in self.dom.children(parent) {
            let Some(el) = self.dom.element(s) else {
                continue;
            };
            if s == top {
                parts.push(s);
                continue;
            }
            if self.flags[s.index()] & (HIDDEN | BOILER) != 0
                || (self.strict() && self.flags[s.index()] & UNLIKELY != 0)
            {
                continue;
            }
            let bonus = match (top_class, el.attr(&local_name!("class"))) {
                (Some(a), Some(b)) if a == b => top_score * 0.2,
                _ => 0.0,
            };
            let joins = if self.is_candidate(s) && self.final_score(s) + bonus >= threshold {
                true
            } else if el.is_html(&local_name!("p")) || self.wraps_one_paragraph(s) {
                let a = self.agg[s.index()];
                let density = a.link_density();
                if a.text > 80 {
                    density < 0.25
                } else {
                    a.text > 0 && a.link == 0.0 && ends_a_sentence(self.dom, s)
                }
            } else {
                false
            };
            if joins {
                parts.push(s);
            }
        }
        parts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::Styles;

    #[test]
    fn a_products_other_products_are_left_out_of_its_region() {
        let html = "<div id=product><h1>Harbour Wool Socks</h1><div class=description>\
            <p>Knitted in Donegal.</p><p>Not related to any sock you owned.</p></div>\
            <section class='related products'><h2>Related products</h2><ul class=related-list>\
            <li><a href=/p/1>Linen Shirt</a></ul></section>\
            <div id=upsells><a href=/p/2>Wool Cap</a></div><p>Free returns.</p></div>";
        let dom = Dom::parse(html);
        let part = dom
            .elements()
            .find(|(_, el)| el.attr(&local_name!("id")) == Some("product"))
            .map(|(id, _)| id)
            .expect("the product");
        // Outermost only, in document order; the product's own text stays, whatever it says.
        let out: Vec<String> = other_products(&dom, &[part])
            .into_iter()
            .filter_map(|id| dom.element(id))
            .map(|el| el.local().to_string())
            .collect();
        assert_eq!(out, ["section", "div"]);
    }

    fn main_of(html: &str) -> Option<String> {
        let dom = Dom::parse(html);
        let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
        let page = Page::measure(&dom, &index, Cleaning::Strict);
        let main = page.main_content()?;
        let el = dom.element(main.top)?;
        Some(
            el.attr(&local_name!("id"))
                .unwrap_or(el.local())
                .to_string(),
        )
    }

    use crate::testutil::PROSE;

    /// An interview a page builder split into rows of one template: the rows of its
    /// questions and answers are the content, not the row that scored most; the rows around
    /// them (a photo credit, the author's box, a plea) are not, nor two columns side by side.
    #[test]
    fn a_story_split_into_builder_rows_is_every_row() {
        let qa = |n: u32| format!("<h2>Question {n}?</h2><p>{PROSE} {PROSE}</p>");
        let row = |inner: &str| {
            format!(
                "<div class='vc_row wpb_row'><div class=wpb_column><div class=vc_column-inner>\
                 <div class=wpb_wrapper><div class=wpb_text_column>{inner}</div></div></div>\
                 </div></div>"
            )
        };
        let rows = [
            row("<p>Photo: A. Person</p>"),
            row(&(1..=2).map(qa).collect::<String>()),
            // A spacer row between two of the story's rows.
            row("&nbsp;"),
            row(&(3..=8).map(qa).collect::<String>()),
            row("<p>Celia writes about film.</p>"),
        ]
        .concat();
        let html =
            format!("<body><article><h1>An interview</h1><div>{rows}</div></article></body>");
        let dom = Dom::parse(&html);
        let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
        let page = Page::measure(&dom, &index, Cleaning::Strict);
        // The top candidate as on such pages: the text column of the longest row.
        let columns: Vec<NodeId> = dom
            .elements()
            .filter(|(_, e)| e.attr(&local_name!("class")) == Some("wpb_text_column"))
            .map(|(id, _)| id)
            .collect();
        let texts = |parts: &[NodeId]| -> Vec<String> {
            parts
                .iter()
                .map(|&p| page.shown_text(p).collect())
                .collect()
        };
        let rows = page.rows_around(columns[3]).expect("rows");
        let texts = texts(&rows);
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(
            texts[0].starts_with("Question 1?") && texts[1].contains("Question 8?"),
            "{texts:?}"
        );
        // Two columns side by side are no rows.
        let two = format!("<body><div>{}{}</div></body>", row(&qa(1)), row(&qa(2)));
        let dom = Dom::parse(&two);
        let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
        let page = Page::measure(&dom, &index, Cleaning::Strict);
        let column = dom
            .elements()
            .find(|(_, e)| e.attr(&local_name!("class")) == Some("wpb_text_column"))
            .map(|(id, _)| id)
            .expect("column");
        assert!(page.rows_around(column).is_none());
    }

    /// A landing page of short sections under its headline and a FAQ box whose answers
    /// outscore them: the page's sections are the content, the FAQ one of them. A box whose
    /// questions open long sections (an article that asks) stays the content, and so does a
    /// FAQ page, whose headline is inside the box.
    #[test]
    fn a_faq_box_is_one_section_of_the_page_that_names_its_subject() {
        let answer = "Yes, our service works with every channel you use today, and it keeps \
                      your data in one place, so your team sees the same numbers, in real \
                      time, without exports, spreadsheets or waiting for the monthly report.";
        let section = |n: u32| {
            format!("<div><h3>Benefit {n}</h3><p>Insights that help you find what to improve in your campaigns, every week.</p></div>")
        };
        let sections: String = (1..=4).map(section).collect();
        let faq = |answer: &str| -> String {
            (1..=3)
                .map(|n| format!("<h3>Does it work with channel {n}?</h3><p>{answer}</p>"))
                .collect()
        };
        let landing = |faq: &str| {
            format!(
                "<body><div id=wrap><div id=hero><h1>Data analytics</h1></div>\
                 <div id=benefits><h2>Benefits</h2>{sections}</div>\
                 <div id=asked>{faq}</div></div></body>"
            )
        };
        assert_eq!(main_of(&landing(&faq(answer))).as_deref(), Some("wrap"));
        // Long answers are an article's sections, not a FAQ's items.
        let long = format!("{PROSE} {PROSE} {PROSE} {PROSE}");
        assert_eq!(main_of(&landing(&faq(&long))).as_deref(), Some("asked"));
        // A FAQ page: its headline is in the box.
        let faq_page = format!(
            "<body><div id=asked><h1>FAQ</h1>{}</div><div id=more>{sections}</div></body>",
            faq(answer)
        );
        assert_eq!(main_of(&faq_page).as_deref(), Some("asked"));
        // An accordion of use cases is one section too; the same box whose buttons say
        // nothing of a disclosure (no `aria-expanded`), and ask nothing, is read alone (its
        // bodies outscore the page's sections).
        let accordion = |control: &str| -> String {
            (1..=3)
                .map(|n| format!("<h3><button {control}>Use case {n}</button></h3><p>{answer}</p>"))
                .collect()
        };
        let open = landing(&accordion("aria-expanded=true"));
        assert_eq!(main_of(&open).as_deref(), Some("wrap"));
        assert_eq!(main_of(&landing(&accordion(""))).as_deref(), Some("asked"));
    }

    /// A header whose prose the cleaning takes is no lead: a headline beside an author's
    /// box of links and a bio joins only if what a read keeps of it is a lead's worth, or the
    /// snapshot would rank as content a block the read shows none of.
    #[test]
    fn a_headline_beside_a_box_the_cleaning_takes_does_not_join() {
        let links: String = (1..=6)
            .map(|n| format!(" <a href=/author/{n}>the author's article number {n}</a>"))
            .collect();
        let joins = |html: &str| {
            let dom = Dom::parse(html);
            let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
            let page = Page::measure(&dom, &index, Cleaning::Strict);
            let main = page.main_content().expect("content");
            main.parts.iter().any(|&p| {
                dom.element(p)
                    .is_some_and(|e| e.attr(&local_name!("id")) == Some("lead"))
            })
        };
        let bio = format!(
            "<div><p>The author has written about kernels and compilers for twenty years \
             and has been a maintainer of several drivers and of a build system that many \
             projects use today and she teaches a course on operating systems at a \
             university in the north of the country. Read more of her work here:{links}</p>\
             </div>"
        );
        let page = crate::testutil::story_with_comments;
        assert!(!joins(&page(&bio)));
        assert!(joins(&page(&format!("<p>{PROSE} {PROSE} {PROSE}</p>"))));
    }

    /// The `id` of the content `find` names, the whole fallback chain run.
    fn found_id(html: &str) -> Option<String> {
        let dom = Dom::parse(html);
        let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
        let top = find(&dom, &index).top?;
        Some(dom.element(top)?.attr(&local_name!("id"))?.to_string())
    }

    /// The headline in a header the strict rules skip (`div.page-header`) still names the
    /// story: a run of teaser cards beside it, holding more text, does not replace it.
    #[test]
    fn a_headline_in_a_skipped_header_keeps_the_story_over_a_rail() {
        let cards: String = (1..=12)
            .map(|n| {
                format!(
                    "<div class=teaser><a href=/n/{n}>Another story of the day, number {n},                      under a long title</a> <span>A blurb.</span></div>"
                )
            })
            .collect();
        let page = |header: &str| {
            format!(
                "<div id=wrap><div class=item><div class={header}><h1>Drinks go by boat                  to the city</h1></div><div id=story><p>{PROSE}</p><p>{PROSE}</p>                 <p>{PROSE}</p></div></div><div id=rail>{cards}</div></div>"
            )
        };
        assert_eq!(found_id(&page("page-header")).as_deref(), Some("story"));
        // The same page with a header the rules keep: the same choice.
        assert_eq!(found_id(&page("page-top")).as_deref(), Some("story"));
    }

    /// A short article's comments, which the strict rules leave out and the relaxed
    /// extraction gets back, do not replace it; a discussion's thread, twenty times its
    /// story or more, is the content.
    #[test]
    fn comments_do_not_replace_a_story_unless_they_are_a_discussion() {
        let page = |comments: usize| {
            let comments: String = (1..=comments)
                .map(|n| format!("<li id=c{n}><p>{PROSE}</p><p>{PROSE}</p></li>"))
                .collect();
            format!(
                "<div id=story><p>{p}</p></div><ol id=comments class=commentlist>{comments}</ol>",
                p = PROSE.repeat(9)
            )
        };
        assert_eq!(found_id(&page(12)).as_deref(), Some("story"));
        assert_eq!(found_id(&page(120)).as_deref(), Some("comments"));
    }

    /// A short post its blog software marks as an hAtom entry (`hentry`), or numbers as the
    /// only post of the page (`id=post-1701`), is the content: the sidebar's widgets, which
    /// the relaxed extraction keeps and which hold more text, are not. An unmarked short
    /// post gives way to them as before.
    #[test]
    fn a_short_post_marked_as_an_entry_keeps_its_sidebar_out() {
        let page = |id: &str, class: &str| {
            format!(
                "<div id=wrap><div id={id} class='{class}'><h2>Our trip</h2><p>{PROSE}</p>\
                 </div><div class=sidebar><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div></div>"
            )
        };
        assert_eq!(
            found_id(&page("trip", "post hentry")).as_deref(),
            Some("trip")
        );
        assert_eq!(
            found_id(&page("post-1701", "post")).as_deref(),
            Some("post-1701")
        );
        assert_ne!(found_id(&page("trip", "post")).as_deref(), Some("trip"));
    }

    /// A table whose short cells outscore the story around it (an open letter's
    /// signatories) is a part of the story under the headline: the content is the
    /// headline's region, the letter and its signatories.
    #[test]
    fn a_table_in_a_story_is_part_of_it() {
        let cells: String = (1..=30)
            .map(|n| format!("<td>Name Surname {n}, University of Somewhere</td>"))
            .collect();
        let html = format!(
            "<div id=page><article id=post><h1>A letter on justice</h1><div class=letter>\
             <p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div><table id=signatories><tr>{cells}\
             </tr></table></article><div id=side><p>Other things.</p></div></div>"
        );
        assert_eq!(found_id(&html).as_deref(), Some("post"));
        // Without the letter, the table is the content.
        let bare = html.replace(&format!("<p>{PROSE}</p>"), "");
        assert_eq!(found_id(&bare).as_deref(), Some("signatories"));
    }

    /// A banner never closed holds the whole page (the parser nests everything after it):
    /// it holds the main landmark, so it is not boilerplate; a closed one stays out.
    #[test]
    fn a_banner_left_open_around_the_main_landmark_is_not_boilerplate() {
        let story = format!(
            "<main id=content><article id=story><h1>A singer registers his name</h1>\
             <p>{PROSE}</p><p>{PROSE}</p></article></main>"
        );
        let open = format!("<header role=banner><a href=#content>Skip to content</a>{story}");
        let found = found_id(&open);
        assert!(
            matches!(found.as_deref(), Some("story" | "content")),
            "{found:?}"
        );
        let closed = format!("<header role=banner><p id=banner>{PROSE}</p></header>{story}");
        let found = found_id(&closed);
        assert!(
            matches!(found.as_deref(), Some("story" | "content")),
            "{found:?}"
        );
    }

    #[test]
    fn the_container_of_the_prose_wins() {
        let html = format!(
            "<div id=nav><a href=/>Home</a> <a href=/b>Blog</a></div>\
             <div id=story><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=side><p><a href=/x>{PROSE}</a></p></div>"
        );
        assert_eq!(main_of(&html).as_deref(), Some("story"));
    }

    #[test]
    fn class_hints_and_link_density_count() {
        // Same prose: the comment box loses to the article body on its class, the link list
        // on its link density.
        let html = format!(
            "<div id=a class=comments><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=b class=post-body><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=c><p><a href=/1>{PROSE}</a></p><p><a href=/2>{PROSE}</a></p></div>"
        );
        assert_eq!(main_of(&html).as_deref(), Some("b"));
    }

    #[test]
    fn boilerplate_and_hidden_text_do_not_score() {
        let html = format!(
            "<nav id=n><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></nav>\
             <div id=h hidden><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=real><p>{PROSE}</p></div>"
        );
        assert_eq!(main_of(&html).as_deref(), Some("real"));
    }

    #[test]
    fn nothing_to_score_is_none() {
        assert_eq!(main_of("<a href=/>Home</a><button>Go</button>"), None);
    }
}
