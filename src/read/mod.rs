//! Stage 5, beside [`render`](mod@crate::render): the page's main content as readable
//! lines, under a hard character budget.
//!
//! The [content stage](mod@crate::content) finds the main content (the part the snapshot
//! ranks as its main content too); `blocks` turns it into markdown-like blocks; this module
//! spends the budget on them in document order and says where to continue:
//!
//! ```text
//! [read]
//! # Gold hits a record [ref=e4]
//! Prices rose 2% on Tuesday, says the [central bank](e5).
//! - Spot: $2,400
//! > "Demand is strong," said one trader.
//! | Metal | Price |
//! | --- | --- |
//! | Gold | $2,400 |
//! ```
//!
//! Refs are the [`Document`](crate::Document)'s refs: `e5` here is `e5` in the snapshot and in queries. The
//! same hidden rules as everywhere apply ([`crate::aria::hidden`]): hidden text never reaches
//! the output. Every pass uses an explicit stack or the arena's links: no recursion on page
//! depth.

mod blocks;
mod listing;
mod tail;

use serde::Serialize;

use crate::aria::Index;
use crate::parse::{Dom, NodeId, View};
use crate::render::{node_ref, RefMap, RenderOptions, TruncateReason};
use crate::tree::{NodeTree, Ref, TreeNode};

use crate::content::{shows_nothing, MainContent, Page, DECLARED};
use blocks::{shows_ref, Block, Extract};

/// Budgets for [`Document::read`](crate::Document::read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Hard limit on `text.chars().count()`, header and last line included.
    pub max_chars_total: usize,
    /// Start at the block that holds this ref (from a cut read's last line, or any ref of
    /// the page: a ref outside the main content starts at the next block after it).
    pub from: Option<Ref>,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            max_chars_total: 12_000,
            from: None,
        }
    }
}

/// What the read wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadStats {
    /// Characters of `text`.
    pub chars: usize,
    /// Blocks (lines, code blocks, table rows) written, a cut one included.
    pub blocks: usize,
    pub truncated: bool,
    pub truncate_reasons: Vec<TruncateReason>,
    /// The ref of the element found as the main content, when it has one.
    pub main: Option<Ref>,
    /// Where to continue a cut read (`ReadOptions::from`); `None` when nothing is left, or
    /// when the only block left to show is larger than the whole budget.
    pub next: Option<Ref>,
}

/// A read: the text, the refs it shows, and what it wrote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadResult {
    pub text: String,
    pub refs: RefMap,
    pub stats: ReadStats,
    /// The page's URL (given, or its `<base>`, canonical link or `og:url`) and title: not in
    /// `text`, whose every character goes to the content.
    pub url: Option<String>,
    pub title: Option<String>,
}

/// Why a read has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// `from` names no element of the page.
    #[error(
        "ref {0} not found: continue with the ref a cut read names on its last line \
         (read --from eN), or with a ref from the page's snapshot"
    )]
    RefNotFound(Ref),
}

/// Reads a ref as models copy it: `e57`, `@e57` or `ref=e57`.
///
/// ```
/// use agent_snapshot::read::parse_ref;
///
/// assert_eq!(parse_ref(" @e57").map(|r| r.number()), Some(57));
/// assert_eq!(parse_ref("ref=e3").map(|r| r.number()), Some(3));
/// assert!(parse_ref("57").is_none());
/// ```
pub fn parse_ref(s: &str) -> Option<Ref> {
    let s = s.trim();
    let s = s.strip_prefix("ref=").unwrap_or(s);
    Ref::parse(s.strip_prefix('@').unwrap_or(s))
}

/// What `read` says of a page that shows no text offline.
const NOTHING_SHOWN: &str =
    "... (the page shows no text without running its scripts: open it in a live browser with `agent-snapshot agent`)";

/// The main content's blocks and where they came from.
struct Extracted {
    blocks: Vec<Block>,
    main: Option<NodeId>,
    order: Vec<u32>,
}

/// The main content ([`crate::content`]) as blocks.
fn extract(dom: &Dom, index: &Index, main: &MainContent, ref_of: &[u32]) -> Extracted {
    let page = Page::measure(dom, index, main.cleaning);
    let mut blocks = Extract::new(&page, ref_of, &main.left_out).run(&main.parts);
    blocks.retain(|b| !tail::is_cross_reference(b) && !tail::is_copyright(b));
    // A prose extraction's read, strict or relaxed, ends where its prose ends; a region read
    // as it stands (cards, a product's block, the largest text region) keeps its end
    // (`MainContent::ends_at_prose`). Trimming the relaxed extraction's read too: trafeval
    // precision 0.861 -> 0.863 (short posts' "Leave a comment", "Recommended posts"),
    // web2025's boilerplate read 0.057 -> 0.056, the reading set unchanged.
    if main.ends_at_prose {
        tail::end_article(&mut blocks);
    }
    Extracted {
        blocks,
        main: main.top,
        order: page.order,
    }
}

/// The page's refs: the arena node of each, in document order, and its number. Offline the
/// numbers are the places (`e1`, `e2`…); a live page's are the session's, in no order
/// ([`crate::rendered`]).
#[derive(Clone, Copy)]
pub(crate) struct Refs<'a> {
    pub ids: &'a [NodeId],
    /// The number of `ids[i]`; `None`: `i + 1`.
    pub numbers: Option<&'a [u32]>,
}

impl Refs<'_> {
    /// The number of the `i`th ref in document order.
    fn number(&self, i: usize) -> Option<Ref> {
        match self.numbers {
            Some(numbers) => numbers.get(i).copied().and_then(Ref::new),
            None => u32::try_from(i + 1).ok().and_then(Ref::new),
        }
    }

    /// The arena node of ref `r`.
    fn node(&self, r: Ref) -> Option<NodeId> {
        let i = match self.numbers {
            Some(numbers) => numbers.iter().position(|&n| n == r.number())?,
            None => usize::try_from(r.number()).ok()?.checked_sub(1)?,
        };
        self.ids.get(i).copied()
    }
}

/// The ref number of every arena node (0: none).
fn ref_numbers(dom: &Dom, refs: Refs<'_>) -> Vec<u32> {
    let mut ref_of = vec![0u32; dom.len()];
    for (i, id) in refs.ids.iter().enumerate() {
        if let Some(slot) = ref_of.get_mut(id.index()) {
            *slot = refs.number(i).map_or(0, Ref::number);
        }
    }
    ref_of
}

/// [`Document::read`](crate::Document::read): the page's arena, its index, node tree, ref
/// table and main content.
pub(crate) fn read(
    dom: &Dom,
    index: &Index,
    tree: &NodeTree,
    refs: Refs<'_>,
    main: &MainContent,
    opts: &ReadOptions,
) -> Result<ReadResult, ReadError> {
    let ref_of = ref_numbers(dom, refs);
    let found = extract(dom, index, main, &ref_of);
    let blocks = &found.blocks;
    // Where to start: the block holding `from` (or the first after it).
    let first = match opts.from {
        None => 0,
        Some(r) => {
            let id = refs.node(r).ok_or(ReadError::RefNotFound(r))?;
            block_at(blocks, found.order[id.index()])
        }
    };
    let title = tree.title.as_deref().filter(|t| {
        opts.from.is_none()
            && !blocks[first..].iter().take(3).any(|b| {
                // A heading's words (`## Gold rises [ref=e4]`), or its link's label when it
                // reads as the card's link (`## [Gold rises](e5) [ref=e4]`).
                b.heading_words.is_some_and(|(from, to)| {
                    let words = &b.text[from..to];
                    repeats_title(t, words.split("](e").next().unwrap_or(words))
                })
            })
    });
    let mut text = header(opts.from, title, tree.view);
    // The page's own data under the header, when it fits the budget with room to spare.
    if let Some(data) = tree.data.as_deref().filter(|d| {
        opts.from.is_none()
            && text.chars().count() + 1 + d.chars().count() < opts.max_chars_total / 2
    }) {
        text.push('\n');
        text.push_str(data);
    }
    // A listing's filters and sort open the read (not a continuation's), when they fit.
    let mut shown: Vec<u32> = Vec::new();
    let listing = match opts.from {
        None => listing::state_line(&tree.tree),
        Some(_) => None,
    };
    if let Some((line, refs)) = listing.filter(|(line, _)| {
        text.chars().count() + 1 + line.chars().count() < opts.max_chars_total / 2
    }) {
        text.push('\n');
        text.push_str(&line);
        shown = refs;
    }
    let laid = lay_out(&blocks[first..], opts.max_chars_total, text.chars().count());
    let next = laid.cut.and_then(|cut| {
        next_ref(
            blocks,
            first,
            first + cut.block,
            cut.partial,
            refs,
            &found.order,
        )
    });
    for line in &laid.lines {
        text.push('\n');
        text.push_str(line);
    }
    if laid.cut.is_some() {
        text.push('\n');
        text.push_str(&cut_line(opts.max_chars_total, next));
    } else if blocks.get(first).is_none() {
        let note = match opts.from {
            Some(_) => "... (nothing of the main content after this ref)",
            // Nothing shows at all: a page its scripts build (a forum app, a shop front) with
            // only a `<noscript>` fallback too short to be its content. The snapshot is as
            // empty.
            None if shows_nothing(&tree.tree) => NOTHING_SHOWN,
            None => "... (no main content found: try snapshot)",
        };
        if opts.from.is_none() {
            declare(&mut text, dom, opts.max_chars_total, note.chars().count());
        }
        text.push('\n');
        text.push_str(note);
    } else if opts.from.is_none() && blocks.iter().all(|b| b.heading_words.is_some()) {
        // Headings and nothing under them (a shell its scripts fill, its title shown): the
        // page shows none of its content, and what its data declares is read as above.
        declare(&mut text, dom, opts.max_chars_total, 0);
    } else if opts.from.is_none() {
        declare_description(&mut text, dom, tree, opts.max_chars_total);
    }
    let mut reasons = Vec::new();
    if laid.cut.is_some() {
        reasons.push(TruncateReason::MaxCharsTotal);
    }
    // Only a budget smaller than the header itself gets here: cut, on a char boundary.
    if text.chars().count() > opts.max_chars_total {
        if let Some((cut, _)) = text.char_indices().nth(opts.max_chars_total) {
            text.truncate(cut);
        }
        if reasons.is_empty() {
            reasons.push(TruncateReason::MaxCharsTotal);
        }
    }
    shown.extend(laid.refs);
    Ok(ReadResult {
        stats: ReadStats {
            chars: text.chars().count(),
            blocks: laid.lines.len(),
            truncated: !reasons.is_empty(),
            truncate_reasons: reasons,
            main: found.main.and_then(|m| Ref::new(ref_of[m.index()])),
            next,
        },
        refs: ref_map(tree, &shown),
        text,
        url: tree.url.clone(),
        title: tree.title.clone(),
    })
}

/// Where the page shows none of its content: the free text its structured data declares (a
/// product's description, a question and its answers), labelled as the page's declaration,
/// in the room the budget leaves beside the closing `note` of `note_chars`.
fn declare(text: &mut String, dom: &Dom, max_chars: usize, note_chars: usize) {
    let Some(declared) = crate::content::declared_text(dom) else {
        return;
    };
    push_declared(text, &declared, max_chars.saturating_sub(note_chars + 1));
}

/// Appends `declared` under the [`DECLARED`] label, cut to what `max_chars` leaves after
/// `text`; nothing when no more than a character of it fits.
fn push_declared(text: &mut String, declared: &str, max_chars: usize) {
    let room = max_chars.saturating_sub(text.chars().count() + DECLARED.len() + 2);
    // Text that reads like a ref marker is defanged, as any page text is.
    let declared = crate::text::defang_refs(declared);
    let declared = crate::text::truncate_with_ellipsis(&declared, room);
    if declared.chars().count() > 1 {
        text.push('\n');
        text.push_str(DECLARED);
        text.push('\n');
        text.push_str(&declared);
    }
}

/// A product's or an article's page whose declared text no person sees: that text after
/// the read, labelled ([`crate::content::unshown_description`]).
fn declare_description(text: &mut String, dom: &Dom, tree: &NodeTree, max_chars: usize) {
    if let Some(description) = crate::content::unshown_description(dom, tree, Some(text)) {
        push_declared(text, &description, max_chars);
    }
}

/// The first block at or after page position `order`.
fn block_at(blocks: &[Block], order: u32) -> usize {
    blocks.partition_point(|b| b.end <= order)
}

/// Where a cut read continues so that nothing is lost: a ref whose block is after the first
/// block shown and at or before the first block not shown in full. `None` when no such ref
/// exists (the rest of a block larger than the budget is then out of reach of `--from`).
fn next_ref(
    blocks: &[Block],
    first: usize,
    cut: usize,
    partial: bool,
    refs: Refs<'_>,
    order: &[u32],
) -> Option<Ref> {
    // A block cut because it alone is larger than the budget: continue after it.
    let target = if partial && cut == first {
        cut + 1
    } else {
        cut
    };
    let block = blocks.get(target)?;
    if let Some(&r) = block.refs.first() {
        return Ref::new(r);
    }
    // The last ref of the page at or before the block's start.
    let at = refs
        .ids
        .partition_point(|id| order[id.index()] <= block.start);
    let r = at.checked_sub(1)?;
    let j = block_at(blocks, order[refs.ids[r].index()]);
    (j > first && j <= target).then(|| refs.number(r)).flatten()
}

/// The first line: `[read]` and the page title, unless the content opens with a heading
/// that says it (the article's own headline); `[from=e40]` on a continuation. The URL, the
/// main content and the counts are in [`ReadResult`]; whether the read was cut is its last
/// line's business.
///
/// The title is written as a bracketed attribute (`[title=…]`), the syntax the outputs use
/// for what is said *about* the text (`[ref=e5]`, `[level=2]`), so that a reader, or a
/// benchmark's scorer, can tell it from the page's content. Brackets inside the title become
/// parentheses so the attribute stays one. (A read whose headline sits outside the content
/// would otherwise not say what page it is.) `[view=noscript]` says the page showed its
/// content only without scripts ([`View`]).
fn header(from: Option<Ref>, title: Option<&str>, view: View) -> String {
    let head = match (from, title) {
        (Some(f), _) => format!("[read] [from={f}]"),
        (None, Some(t)) => {
            let t = crate::text::truncate_with_ellipsis(t, crate::render::MAX_TITLE_CHARS);
            format!("[read] [title={}]", crate::text::bracket_safe(&t))
        }
        (None, None) => "[read]".to_string(),
    };
    match view {
        View::Scripted => head,
        View::NoScript => format!("{head} [view={}]", view.as_str()),
    }
}

/// Readability's `_headerDuplicatesTitle`: a heading whose words are (almost) all in the
/// title says nothing the title does not.
fn repeats_title(title: &str, heading: &str) -> bool {
    let title = crate::text::lower_words(title);
    let heading = crate::text::lower_words(heading);
    let total: usize = heading.iter().map(|w| w.chars().count()).sum();
    if total == 0 {
        return false;
    }
    let new: usize = heading
        .iter()
        .filter(|w| !title.contains(w))
        .map(|w| w.chars().count())
        .sum();
    (new as f32 / total as f32) < 0.25
}

fn cut_line(max: usize, next: Option<Ref>) -> String {
    match next {
        Some(r) => format!("... (cut at {max} chars; continue with: read --from {r})"),
        None => format!("... (cut at {max} chars; read with a larger --max-chars for the rest)"),
    }
}

/// Where the budget ran out: the block (counted from the first shown) not shown in full,
/// and whether part of it was.
#[derive(Clone, Copy)]
struct Cut {
    block: usize,
    partial: bool,
}

struct Laid {
    lines: Vec<String>,
    refs: Vec<u32>,
    cut: Option<Cut>,
}

/// A block is cut inside only when at least this much room is left (or nothing is shown
/// yet); otherwise the read stops at the block boundary.
const MIN_PARTIAL: usize = 200;

/// Spends `max` characters on the header, the blocks in order and, when they do not all
/// fit, the last line.
fn lay_out(blocks: &[Block], max: usize, header: usize) -> Laid {
    let costs: Vec<usize> = blocks.iter().map(|b| 1 + b.text.chars().count()).collect();
    let all: usize = costs.iter().sum();
    let mut laid = Laid {
        lines: Vec::new(),
        refs: Vec::new(),
        cut: None,
    };
    if header + all <= max {
        for b in blocks {
            laid.lines.push(b.text.clone());
            laid.refs.extend(&b.refs);
        }
        return laid;
    }
    let worst_cut = cut_line(max, Ref::new(u32::MAX))
        .chars()
        .count()
        .max(cut_line(max, None).chars().count());
    let budget = max.saturating_sub(header + 1 + worst_cut);
    let mut used = 0;
    for (i, (b, cost)) in blocks.iter().zip(&costs).enumerate() {
        if used + cost <= budget {
            used += cost;
            laid.lines.push(b.text.clone());
            laid.refs.extend(&b.refs);
            continue;
        }
        let room = budget.saturating_sub(used + 1);
        let mut partial = false;
        if room >= MIN_PARTIAL || (laid.lines.is_empty() && room > 0) {
            if let Some(kept) = cut_block(b, room) {
                laid.refs
                    .extend(b.refs.iter().filter(|&&r| shows_ref(&kept, r)));
                laid.lines.push(kept);
                partial = true;
            }
        }
        laid.cut = Some(Cut { block: i, partial });
        break;
    }
    laid
}

/// The start of a block in at most `room` characters: whole lines of code (the fence closed),
/// else words and an ellipsis ([`blocks::cut_words`]). `None` when nothing useful fits.
fn cut_block(b: &Block, room: usize) -> Option<String> {
    const FENCE: &str = "\n```";
    if b.code {
        let mut kept = String::new();
        let mut chars = 0;
        for line in b.text.lines() {
            let cost = usize::from(!kept.is_empty()) + line.chars().count();
            if chars + cost + FENCE.len() > room {
                break;
            }
            if !kept.is_empty() {
                kept.push('\n');
            }
            kept.push_str(line);
            chars += cost;
        }
        // The opening fence alone says nothing.
        if !kept.contains('\n') {
            return None;
        }
        kept.push_str(FENCE);
        return Some(kept);
    }
    blocks::cut_words(&b.text, room)
}

/// The ref map entries of the refs shown, first appearance first.
fn ref_map(tree: &NodeTree, shown: &[u32]) -> RefMap {
    if shown.is_empty() {
        return RefMap::default();
    }
    let mut by_number: std::collections::HashMap<u32, &TreeNode> =
        std::collections::HashMap::with_capacity(shown.len());
    let wanted: std::collections::HashSet<u32> = shown.iter().copied().collect();
    for node in tree.tree.descendants() {
        if let Some(r) = node.ref_ {
            if wanted.contains(&r.number()) {
                by_number.entry(r.number()).or_insert(node);
            }
        }
    }
    let opts = RenderOptions::default();
    let mut seen = std::collections::HashSet::new();
    let entries = shown
        .iter()
        .filter(|&&n| seen.insert(n))
        .filter_map(|&n| Some(node_ref(Ref::new(n)?, by_number.get(&n)?, &opts)))
        .collect();
    RefMap::from_entries(entries)
}

#[cfg(test)]
mod tests;
