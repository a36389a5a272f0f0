//! The main content as blocks of markdown-like lines: headings, paragraphs with inline
//! links, list items, quotes, code and table rows, each with the range of page positions it
//! came from (so `--from REF` can find where to start).
//!
//! Inside the content, Readability's `_prepArticle` cleaning applies: containers that are
//! mostly links, images or controls are left out, as are share bars and headers with a
//! negative class weight.

use html5ever::local_name;

use crate::aria::gap::gap_before;
use crate::content::{heading_level, is_block, Page};
use crate::parse::{push_in_order, Element, NodeData, NodeId};
use crate::text::{is_html_space, truncate_with_ellipsis};

/// Longest cell and code line, in characters.
const MAX_CELL_CHARS: usize = 300;
const MAX_CODE_LINE_CHARS: usize = 500;
/// Most lines of one code block, columns of one row, rows of one table.
const MAX_CODE_LINES: usize = 300;
const MAX_COLUMNS: usize = 20;
const MAX_ROWS: usize = 300;
/// A term longer than this is a heading of its own, not a field's name.
const MAX_TERM_CHARS: usize = 80;

/// One block of output: one line, or several for code and a table's header row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Block {
    pub text: String,
    /// Page positions ([`Page::order`]) this block covers: `start..end`.
    pub start: u32,
    pub end: u32,
    /// Ref numbers shown in the block, in order.
    pub refs: Vec<u32>,
    /// A fenced code block: a cut inside it closes the fence.
    pub code: bool,
    /// A heading's words: their byte range in `text`, after the `#` marks.
    pub heading_words: Option<(usize, usize)>,
}

/// A line being collected: rendered text with whitespace collapsed as in a browser.
#[derive(Default)]
struct Line {
    out: String,
    pending_space: bool,
    refs: Vec<u32>,
    /// Where the text of the link just opened starts, until its first word: a space there
    /// (the whitespace before an avatar's image, `<a> <img alt=Rabbids></a>`) is not
    /// written, `[Rabbids]`.
    link_text: Option<usize>,
}

impl Line {
    fn text(&mut self, s: &str) {
        let shown = crate::text::without_soft_hyphens(s);
        for (i, word) in shown.split(is_html_space).enumerate() {
            if i > 0 {
                self.pending_space = true;
            }
            if word.is_empty() {
                continue;
            }
            self.glue_space();
            crate::text::push_defanged(&mut self.out, word);
        }
    }

    /// Writes a pending space before what comes next (not at the start of the line, nor at
    /// the start of a link's text).
    fn glue_space(&mut self) {
        let opens_link = self.link_text.take() == Some(self.out.len());
        if self.pending_space && !self.out.is_empty() && !opens_link {
            self.out.push(' ');
        }
        self.pending_space = false;
    }

    fn boundary(&mut self) {
        self.pending_space = true;
    }

    /// Whether the line shows nothing: no text, or only no-break spaces (`<p>&nbsp;</p>`, a
    /// spacer), which the collapsing of HTML whitespace keeps.
    fn is_empty(&self) -> bool {
        self.out.trim().is_empty()
    }
}

/// What leaving an element does.
enum Exit {
    Nothing,
    /// An inline-level box of its own: a word boundary after it.
    Word,
    Block,
    Heading,
    List,
    Item,
    Quote,
    /// A link with a ref: where its `[` went, whether a space was pending before it, and
    /// the blocks there were (a block ended inside the link leaves its line alone).
    Link {
        ref_: u32,
        mark: usize,
        inner: usize,
        pending: bool,
        blocks: usize,
    },
    /// A link without a ref (its text reads as plain text) or inside another link.
    PlainLink,
    /// A link around blocks (a card): its blocks read as they are, and the first of them
    /// with text (the card's title) carries the link's ref. `first`: the blocks before it.
    Card {
        ref_: u32,
        first: usize,
    },
    Table,
    Row,
    Cell,
    Figure,
    /// A `dt`: the blocks there were before it.
    Term {
        before: usize,
    },
    /// A `dd`: the blocks there were before it, and the block its term wrote.
    Definition {
        before: usize,
        term: Option<usize>,
    },
    /// The end of a pane's name (`Page::pane_heading`).
    PaneName,
}

enum Work {
    Enter(NodeId),
    Exit(Exit),
}

struct List {
    ordered: bool,
    next: u32,
    /// The current item has not written its bullet yet.
    fresh: bool,
}

struct Table {
    rows: usize,
    skipped: usize,
}

/// Builds the blocks of `parts` (the main content's elements, in document order).
pub(super) struct Extract<'p> {
    page: &'p Page<'p>,
    /// What the content stage leaves out of its parts (`MainContent::left_out`: a product's
    /// related products, besides what the page's measure leaves out by class).
    left_out: foldhash::HashSet<NodeId>,
    /// Ref number of each node (by arena index), 0 for none.
    ref_of: &'p [u32],
    blocks: Vec<Block>,
    line: Line,
    cell: Option<Line>,
    row: Option<(Vec<String>, bool, Vec<u32>)>,
    start: Option<u32>,
    last: u32,
    lists: Vec<List>,
    quotes: usize,
    heading: Option<(usize, u32)>,
    links: usize,
    /// Links open whose text reads in brackets (`[text](e5)`): one line to their end.
    bracketed: usize,
    tables: Vec<Table>,
    figures: usize,
    /// Alt texts of the images read so far: a gallery shows each picture twice (thumbnail
    /// and full size), and a second copy says nothing new.
    images: std::collections::HashSet<String>,
    /// Each figure's shown caption, letters and digits only (`caption_says`).
    captions: foldhash::HashMap<NodeId, Option<String>>,
    /// The block the last `dt` wrote, for its `dd` to join.
    term: Option<usize>,
    /// The last author pane read: its parent (the post) and its heading's first words.
    pane: Option<(Option<NodeId>, String)>,
    /// Inside a pane's name: its images (the member's avatar, "User avatar") say nothing
    /// the name does not.
    pane_name: usize,
}

/// A caption longer than this is no copy of an alt text (and comparing each image with it
/// would cost its length again).
const MAX_CAPTION_LETTERS: usize = 2_000;

/// A text's letters and digits, lower case: captions space their brackets and break their
/// lines where the alt text does not.
fn letters(s: &str) -> String {
    crate::text::alnum(s).flat_map(char::to_lowercase).collect()
}

impl<'p> Extract<'p> {
    pub(super) fn new(page: &'p Page<'p>, ref_of: &'p [u32], left_out: &[NodeId]) -> Extract<'p> {
        Extract {
            page,
            left_out: left_out.iter().copied().collect(),
            ref_of,
            blocks: Vec::new(),
            line: Line::default(),
            cell: None,
            row: None,
            start: None,
            last: 0,
            lists: Vec::new(),
            quotes: 0,
            heading: None,
            links: 0,
            bracketed: 0,
            tables: Vec::new(),
            figures: 0,
            images: std::collections::HashSet::new(),
            captions: foldhash::HashMap::default(),
            term: None,
            pane: None,
            pane_name: 0,
        }
    }

    /// The blocks of `parts`, in document order.
    pub(super) fn run(mut self, parts: &[NodeId]) -> Vec<Block> {
        let mut stack: Vec<Work> = parts.iter().rev().map(|&p| Work::Enter(p)).collect();
        while let Some(work) = stack.pop() {
            match work {
                Work::Enter(id) => self.enter(id, &mut stack),
                Work::Exit(exit) => self.exit(exit),
            }
        }
        self.flush();
        self.blocks
    }

    fn pos(&self, id: NodeId) -> u32 {
        self.page.order[id.index()]
    }

    fn cur(&mut self) -> &mut Line {
        self.cell.as_mut().unwrap_or(&mut self.line)
    }

    /// Whether a block here is a word of the line, not a line: in a table's cell, a
    /// heading, a link read in brackets (a block the page's sheet makes of a link's icon
    /// ended the line inside the brackets, and `[Sign up` read without its ref).
    fn inline_only(&self) -> bool {
        self.cell.is_some() || self.heading.is_some() || self.bracketed > 0
    }

    fn enter(&mut self, id: NodeId, stack: &mut Vec<Work>) {
        let dom = self.page.dom;
        let at = self.pos(id);
        let el = match &dom.node(id).data {
            NodeData::Text(t) => {
                if !self.page.text_hidden(id) {
                    self.start.get_or_insert(at);
                    self.last = self.last.max(at);
                    if gap_before(dom, self.page.styles(), id) {
                        self.cur().boundary();
                    }
                    self.cur().text(dom.str(*t));
                }
                return;
            }
            NodeData::Element(data) => dom.element_of(data),
            _ => return,
        };
        if let Some(heading) = self.page.pane_heading(id) {
            // A post's author pane: its heading (the author's name) is read with the post,
            // its badges and counts are not. A theme that draws the pane twice in one post
            // (a column for wide screens, a header for narrow ones, one of them hidden by a
            // sheet the page links) names the author once.
            if let Some(h) = heading {
                let name = self.page.shown_text(h).find(|t| !t.trim().is_empty());
                let pane = (dom.node(id).parent, name.unwrap_or("").trim().to_owned());
                if self.pane.as_ref() == Some(&pane) {
                    return;
                }
                self.pane = Some(pane);
                self.pane_name += 1;
                stack.push(Work::Exit(Exit::PaneName));
                stack.push(Work::Enter(h));
            }
            return;
        }
        if self.left_out(id, el) {
            // A shown block left out still breaks the line: `<span>Filter by:</span>` and
            // `<span>Sort by:</span>` on either side of a drop-down's `<div>` are two lines.
            if is_block(el) && self.page.laid_out(id) {
                self.block_start();
            }
            return;
        }
        if gap_before(dom, self.page.styles(), id) {
            self.cur().boundary();
        }
        // Opening may end the line before: that block ends before this element.
        let exit = self.open(id, el);
        self.start.get_or_insert(at);
        self.last = self.last.max(at);
        if let Some(exit) = exit {
            stack.push(Work::Exit(exit));
            push_in_order(stack, dom.children(id).map(Work::Enter));
        }
    }

    /// Whether an element of the content is left out with its subtree. Inside a heading only
    /// what is not shown is: the cleaning's rules are for blocks of the content, and a
    /// heading's `<div>` of eight characters (`<h4><div>amount integer</div></h4>`) is its
    /// words, not a stray fragment.
    fn left_out(&self, id: NodeId, el: Element<'_>) -> bool {
        if self.heading.is_some() {
            return self.page.not_shown(id);
        }
        self.left_out.contains(&id) || self.page.left_out(id, el, self.figures > 0)
    }

    /// Starts an element; `None` when its children are not to be visited.
    fn open(&mut self, id: NodeId, el: Element<'_>) -> Option<Exit> {
        if !el.in_html_ns() {
            return Some(Exit::Nothing);
        }
        if let Some(level) = heading_level(el) {
            if self.inline_only() {
                self.cur().boundary();
                return Some(Exit::Block);
            }
            self.flush();
            self.heading = Some((level as usize, self.ref_of[id.index()]));
            return Some(Exit::Heading);
        }
        let exit = match *el.local() {
            local_name!("br") => {
                // Inside a link a break is a space: the link's text stays on one line with
                // its brackets (`<a href=/x><br></a>` left a lone `[`).
                if self.inline_only() || self.links > 0 {
                    self.cur().boundary();
                } else {
                    self.flush();
                }
                return None;
            }
            local_name!("img") => {
                self.image(id, el);
                return None;
            }
            local_name!("pre") if !self.inline_only() => {
                self.flush();
                self.code(id);
                return None;
            }
            local_name!("a") => {
                let ref_ = self.ref_of[id.index()];
                // A link around blocks (a card) reads as its blocks, without brackets.
                if ref_ == 0 || self.links > 0 {
                    self.links += 1;
                    Exit::PlainLink
                } else if self.page.holds_block(id) || self.holds_styled_block(id) {
                    self.links += 1;
                    self.block_start();
                    Exit::Card {
                        ref_,
                        first: self.blocks.len(),
                    }
                } else {
                    self.links += 1;
                    self.bracketed += 1;
                    let line = self.cur();
                    let pending = line.pending_space;
                    let mark = line.out.len();
                    line.glue_space();
                    line.out.push('[');
                    let inner = line.out.len();
                    line.link_text = Some(inner);
                    Exit::Link {
                        ref_,
                        mark,
                        inner,
                        pending,
                        blocks: self.blocks.len(),
                    }
                }
            }
            local_name!("ul") | local_name!("ol") if !self.inline_only() => {
                self.flush();
                let start = el
                    .attr(&local_name!("start"))
                    .and_then(|s| s.trim().parse::<u32>().ok())
                    .unwrap_or(1);
                self.lists.push(List {
                    ordered: el.is_html(&local_name!("ol")),
                    next: start,
                    fresh: false,
                });
                Exit::List
            }
            local_name!("li") if !self.inline_only() => {
                self.flush();
                if let Some(list) = self.lists.last_mut() {
                    list.fresh = true;
                }
                Exit::Item
            }
            local_name!("dt") if !self.inline_only() => {
                self.flush();
                Exit::Term {
                    before: self.blocks.len(),
                }
            }
            local_name!("dd") if !self.inline_only() => {
                self.flush();
                Exit::Definition {
                    before: self.blocks.len(),
                    term: self.term.take(),
                }
            }
            local_name!("blockquote") if !self.inline_only() => {
                self.flush();
                self.quotes += 1;
                Exit::Quote
            }
            // A table of tables is laid out with tables, whatever the accessibility tree
            // calls it (Chromium's 20 rows make Hacker News's comment tree a data table): its
            // cells read as blocks, a comment whole, not as a row cut at 300 characters.
            local_name!("table") if self.cell.is_none() && self.page.reads_as_table(id) => {
                self.flush();
                self.tables.push(Table {
                    rows: 0,
                    skipped: 0,
                });
                Exit::Table
            }
            local_name!("tr") if self.cell.is_none() && !self.tables.is_empty() => {
                self.flush();
                self.start = Some(self.pos(id));
                self.row = Some((Vec::new(), true, Vec::new()));
                Exit::Row
            }
            local_name!("td") | local_name!("th") if self.cell.is_none() && self.row.is_some() => {
                if let Some(row) = &mut self.row {
                    // A header row is all header cells: a `th` beside `td`s names its row.
                    row.1 &= el.is_html(&local_name!("th"));
                }
                self.cell = Some(Line::default());
                Exit::Cell
            }
            local_name!("figure") => {
                self.figures += 1;
                self.block_start();
                Exit::Figure
            }
            _ if is_block(el) => {
                self.block_start();
                Exit::Block
            }
            _ => self.styled_box(id),
        };
        Some(exit)
    }

    /// Whether a link holds a box with text that the page's sheet makes block-level, in no
    /// inline-level box of the link's own (a picture's credit, `<em style="display:block">`):
    /// the browser breaks the link's lines there, and the link reads as its blocks, as a
    /// card does. A block inside an inline-block (a link's icon in its `span`) stays a word
    /// of the link's line ([`Extract::inline_only`]).
    fn holds_styled_block(&self, link: NodeId) -> bool {
        let dom = self.page.dom;
        let styles = self.page.styles();
        let mut stack: Vec<NodeId> = dom.children(link).collect();
        while let Some(id) = stack.pop() {
            if dom.element(id).is_none() || self.page.not_shown(id) {
                continue;
            }
            let style = styles.get(id);
            if style.display_inline == Some(false) {
                if style.inline_box {
                    continue;
                }
                if self.page.agg[id.index()].text > 0 {
                    return true;
                }
            }
            stack.extend(dom.children(id));
        }
        false
    }

    /// An inline element the page's sheet makes a box of its own: a block-level one (a
    /// `<span class=br>` with `.br{display:block}` between two paragraphs written as bare
    /// text) is a line of its own, an inline-level one (`inline-block`, `inline-flex`: a
    /// badge, a chip) a word of its own. A block element is never made inline: a card
    /// grid's `inline-block` cards each hold their own lines.
    fn styled_box(&mut self, id: NodeId) -> Exit {
        let style = self.page.styles().get(id);
        match style.display_inline {
            Some(false) if style.inline_box => {
                self.cur().boundary();
                Exit::Word
            }
            Some(false) => {
                self.block_start();
                Exit::Block
            }
            _ => Exit::Nothing,
        }
    }

    fn block_start(&mut self) {
        if self.inline_only() {
            self.cur().boundary();
        } else {
            self.flush();
        }
    }

    fn exit(&mut self, exit: Exit) {
        match exit {
            Exit::Nothing => {}
            Exit::Word => self.cur().boundary(),
            Exit::PaneName => self.pane_name -= 1,
            Exit::Block => self.block_start(),
            Exit::Figure => {
                self.figures -= 1;
                self.block_start();
            }
            Exit::Heading => {
                self.flush();
                self.heading = None;
            }
            Exit::Term { before } => {
                self.flush();
                self.term = (self.blocks.len() == before + 1).then_some(before);
            }
            Exit::Definition { before, term } => {
                self.flush();
                if let Some(term) = term {
                    self.join_definition(term, before);
                }
            }
            Exit::List => {
                self.flush();
                self.lists.pop();
            }
            Exit::Item => {
                self.flush();
                if let Some(list) = self.lists.last_mut() {
                    list.fresh = false;
                }
            }
            Exit::Quote => {
                self.flush();
                self.quotes -= 1;
            }
            Exit::PlainLink => self.links -= 1,
            Exit::Card { ref_, first } => {
                self.links -= 1;
                self.block_start();
                let title = self.blocks.get_mut(first..).and_then(|blocks| {
                    blocks.iter_mut().find(|b| {
                        b.text.chars().any(char::is_alphanumeric) && !b.text.starts_with("![")
                    })
                });
                if let Some(b) = title.filter(|b| !b.refs.contains(&ref_)) {
                    link_title(b, ref_);
                }
            }
            Exit::Link {
                ref_,
                mark,
                inner,
                pending,
                blocks,
            } => {
                self.links -= 1;
                self.bracketed -= 1;
                if self.blocks.len() != blocks && self.cell.is_none() {
                    // A block ended inside the link: the line holding its `[` is gone, and
                    // this one is another's (no block is expected there: a link holding one
                    // reads as a card).
                    return;
                }
                let in_heading = self.heading.is_some();
                let line = self.cur();
                line.link_text = None;
                let text = line.out.get(inner..).unwrap_or_default();
                if text.trim().is_empty() || (in_heading && is_permalink_mark(text)) {
                    // Nothing visible inside (an icon, a space): no brackets. Nor for a
                    // heading's permalink, a mark shown on hover that says nothing the
                    // heading's own ref does not.
                    let spaced = line.out.len() > inner;
                    line.out.truncate(mark);
                    line.pending_space |= pending || spaced;
                } else {
                    // A trailing space inside the link goes after it.
                    line.out.push_str("](");
                    line.out.push_str(&format!("e{ref_})"));
                    line.refs.push(ref_);
                }
            }
            Exit::Cell => {
                if let (Some(cell), Some(row)) = (self.cell.take(), &mut self.row) {
                    if row.0.len() < MAX_COLUMNS {
                        let text = if cell.out.chars().count() > MAX_CELL_CHARS {
                            cut_words(&cell.out, MAX_CELL_CHARS)
                                .unwrap_or_else(|| crate::text::ELLIPSIS.to_string())
                        } else {
                            cell.out
                        };
                        // A cut cell keeps only the refs still in it.
                        row.2
                            .extend(cell.refs.iter().filter(|&&r| shows_ref(&text, r)));
                        row.0.push(text.replace('|', "\\|"));
                    }
                }
            }
            Exit::Row => self.finish_row(),
            Exit::Table => {
                self.flush();
                if let Some(table) = self.tables.pop() {
                    if table.skipped > 0 {
                        let start = self.last;
                        self.push_block(
                            format!("... ({} more rows)", table.skipped),
                            start,
                            Vec::new(),
                            false,
                        );
                    }
                }
            }
        }
    }

    /// A term and its definition, each one short line of plain text right after the other
    /// (a specification's `<dt>Weight</dt><dd>1.2 kg</dd>`), read as one line: `Weight:
    /// 1.2 kg`. A long term, a definition of several blocks, or a list inside a list or a
    /// quote (whose lines carry markers) keeps its lines.
    fn join_definition(&mut self, term: usize, before: usize) {
        let joinable = |b: &Block| !b.code && !b.text.contains('\n');
        if term + 1 != before
            || self.blocks.len() != before + 1
            || !self.lists.is_empty()
            || self.quotes > 0
            || !joinable(&self.blocks[term])
            || !joinable(&self.blocks[before])
            || self.blocks[term].text.chars().count() > MAX_TERM_CHARS
        {
            return;
        }
        let Some(definition) = self.blocks.pop() else {
            return;
        };
        let term = &mut self.blocks[term];
        let colon = if term.text.ends_with(':') { " " } else { ": " };
        term.text.push_str(colon);
        term.text.push_str(&definition.text);
        term.refs.extend(definition.refs);
        term.end = definition.end;
    }

    fn finish_row(&mut self) {
        let Some((cells, header, refs)) = self.row.take() else {
            return;
        };
        let start = self.start.take().unwrap_or(self.last);
        if cells.iter().all(String::is_empty) {
            return;
        }
        let Some(table) = self.tables.last_mut() else {
            return;
        };
        if table.rows >= MAX_ROWS {
            table.skipped += 1;
            return;
        }
        table.rows += 1;
        let first = table.rows == 1;
        let mut text = format!("| {} |", cells.join(" | "));
        if first && header {
            text.push_str("\n|");
            text.push_str(&" --- |".repeat(cells.len()));
        }
        self.push_block(text, start, refs, false);
    }

    fn image(&mut self, id: NodeId, el: Element<'_>) {
        let alt = el
            .attr(&local_name!("alt"))
            .map(crate::text::normalize)
            .unwrap_or_default();
        // Icons and spacers say nothing; a declared size under 50 px marks them.
        let tiny = [local_name!("width"), local_name!("height")]
            .iter()
            .any(|a| {
                el.attr(a)
                    .and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok())
                    .is_some_and(|v| v < 50)
            });
        if alt.is_empty()
            || tiny
            || is_file_name(&alt)
            || self.page.visibility_hidden(id)
            || self.pane_name > 0
        {
            return;
        }
        let ref_ = self.ref_of[id.index()];
        let in_link = self.links > 0;
        if in_link {
            self.cur().text(&alt);
            return;
        }
        if !self.images.insert(alt.clone()) || self.caption_says(id, &alt) {
            return;
        }
        let line = self.cur();
        line.glue_space();
        // Escaped as the snapshot's labels are: the alt can neither close the label early
        // nor write a ref marker.
        line.out.push('!');
        crate::text::push_label_open(&mut line.out, &alt);
        line.out.push(']');
        if ref_ != 0 {
            line.out.push_str(&format!("(e{ref_})"));
            line.refs.push(ref_);
        }
    }

    /// Whether the read caption of the figure holding the image says its alt text already
    /// (WordPress and most CMSs fill both from one field): the caption is read, and the alt
    /// a second time would be the same sentence twice. Each figure's caption is read once,
    /// however many images it holds.
    fn caption_says(&mut self, id: NodeId, alt: &str) -> bool {
        let dom = self.page.dom;
        let Some((figure, _)) = dom
            .ancestors(id)
            .take(FIGURE_LEVELS)
            .find(|(_, a)| a.is_html(&local_name!("figure")))
        else {
            return false;
        };
        let page = self.page;
        let caption = self.captions.entry(figure).or_insert_with(|| {
            let caption = dom.descendants(figure).find(|&d| {
                dom.element(d)
                    .is_some_and(|e| e.is_html(&local_name!("figcaption")))
            })?;
            // A caption the read leaves out (a short one) says nothing: the alt does.
            if page.not_shown(caption) || page.is_caption_line(caption) {
                return None;
            }
            let text: String = page.shown_text(caption).collect();
            Some(letters(&text)).filter(|l| l.len() <= MAX_CAPTION_LETTERS)
        });
        let alt = letters(alt);
        caption
            .as_deref()
            .is_some_and(|c| !alt.is_empty() && c.contains(&alt))
    }

    /// A `<pre>`: its visible text as it is, in a fence.
    fn code(&mut self, id: NodeId) {
        let dom = self.page.dom;
        let start = self.pos(id);
        let mut raw = String::new();
        let mut walk = dom.descendants(id);
        let mut last = start;
        while let Some(d) = walk.next() {
            last = last.max(self.pos(d));
            match &dom.node(d).data {
                NodeData::Text(t) if !self.page.text_hidden(d) => raw.push_str(dom.str(*t)),
                NodeData::Element(data) => {
                    let el = dom.element_of(data);
                    if self.page.not_shown(d) {
                        walk.skip_subtree(d);
                    } else if el.is_html(&local_name!("br")) {
                        raw.push('\n');
                    }
                }
                _ => {}
            }
        }
        self.last = self.last.max(last);
        let lines: Vec<&str> = raw.lines().map(str::trim_end).collect();
        let first = lines.iter().position(|l| !l.is_empty());
        let end = lines.iter().rposition(|l| !l.is_empty());
        let (Some(first), Some(end)) = (first, end) else {
            return;
        };
        // Every character of the budget should say something: the indentation all lines
        // share and runs of blank lines (page layout in preformatted text) go.
        let indent = common_indent(&lines[first..=end]);
        let mut kept: Vec<&str> = Vec::with_capacity(end + 1 - first);
        for line in &lines[first..=end] {
            if line.is_empty() && kept.last().is_some_and(|l| l.is_empty()) {
                continue;
            }
            kept.push(line.strip_prefix(indent).unwrap_or(line));
        }
        let lines = &kept[..];
        let mut text = String::from("```");
        for line in lines.iter().take(MAX_CODE_LINES) {
            text.push('\n');
            text.push_str(&truncate_with_ellipsis(line, MAX_CODE_LINE_CHARS));
        }
        if lines.len() > MAX_CODE_LINES {
            text.push_str(&format!(
                "\n... ({} more lines)",
                lines.len() - MAX_CODE_LINES
            ));
        }
        text.push_str("\n```");
        self.push_block(text, start, Vec::new(), true);
        self.start = None;
    }

    /// Ends the current line as a block (with its prefix: heading marks, bullet, quote).
    fn flush(&mut self) {
        let line = std::mem::take(&mut self.line);
        let start = self.start.take();
        if line.is_empty() {
            return;
        }
        let start = start.unwrap_or(self.last);
        let mut text = String::with_capacity(line.out.len() + 16);
        for _ in 0..self.quotes {
            text.push_str("> ");
        }
        if let Some((level, ref_)) = self.heading {
            text.push_str(&"#".repeat(level));
            text.push(' ');
            let words = (text.len(), text.len() + line.out.len());
            text.push_str(&line.out);
            let mut refs = line.refs;
            if ref_ != 0 {
                text.push_str(&format!(" [ref=e{ref_}]"));
                refs.push(ref_);
            }
            self.push_block(text, start, refs, false);
            if let Some(b) = self.blocks.last_mut() {
                b.heading_words = Some(words);
            }
            return;
        }
        let depth = self.lists.len();
        if let Some(list) = self.lists.last_mut() {
            text.push_str(&"  ".repeat(depth - 1));
            if list.fresh {
                list.fresh = false;
                if list.ordered {
                    text.push_str(&format!("{}. ", list.next));
                    list.next = list.next.saturating_add(1);
                } else {
                    text.push_str("- ");
                }
            } else {
                text.push_str("  ");
            }
        }
        text.push_str(&line.out);
        self.push_block(text, start, line.refs, false);
    }

    fn push_block(&mut self, text: String, start: u32, refs: Vec<u32>, code: bool) {
        let start = self.blocks.last().map_or(start, |b| start.max(b.end));
        let end = (self.last + 1).max(start + 1);
        self.blocks.push(Block {
            text,
            start,
            end,
            refs,
            code,
            heading_words: None,
        });
    }
}

/// Gives a card's title block the card link's ref. A heading (a listing's result:
/// `<a><h2>Title</h2><p>…</p></a>`) reads as the link it is, `## [Title](e20) [ref=e21]`,
/// where `## Title [ref=e21] [ref=e20]` left the model to guess which ref is the link;
/// another block (a product card's name) ends with the link's ref, `Name [ref=e20]`.
fn link_title(b: &mut Block, ref_: u32) {
    if let Some((from, to)) = b.heading_words {
        let words = &b.text[from..to];
        // Links do not nest: a heading that shows one already keeps its words.
        if !words.is_empty() && !words.contains("](e") {
            // The words are page text escaped already; only the bracket is chosen.
            let linked = format!("{}{words}](e{ref_})", crate::text::label_open(words));
            // The heading's own ref, when it has one, ends the line after the words; the
            // link's comes before it, as the line shows them.
            let own = usize::from(to < b.text.len());
            b.text.replace_range(from..to, &linked);
            b.heading_words = Some((from, from + linked.len()));
            b.refs.insert(b.refs.len().saturating_sub(own), ref_);
            return;
        }
    }
    b.text.push_str(&format!(" [ref=e{ref_}]"));
    b.refs.push(ref_);
}

/// Marks that documentation generators put after a heading as its permalink, shown on
/// hover: Sphinx's and MkDocs' pilcrow, rustdoc's section sign, a hash, a link symbol.
const PERMALINK_MARKS: &[&str] = &["¶", "§", "#", "🔗", "⚓"];

/// Whether a link's text is only a permalink mark (zero-width characters and spaces aside).
fn is_permalink_mark(text: &str) -> bool {
    let mark: String = text
        .chars()
        .filter(|c| {
            !c.is_whitespace() && !matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}')
        })
        .collect();
    mark.is_empty() || PERMALINK_MARKS.contains(&mark.as_str())
}

/// The leading whitespace all non-empty lines share (the same characters, so that tabs and
/// spaces are never mixed up).
fn common_indent<'a>(lines: &[&'a str]) -> &'a str {
    let mut common: Option<&'a str> = None;
    for line in lines.iter().filter(|l| !l.is_empty()) {
        let lead = &line[..line.len() - line.trim_start().len()];
        common = Some(match common {
            None => lead,
            Some(c) => {
                let same = c
                    .char_indices()
                    .zip(lead.chars())
                    .find(|&((_, a), b)| a != b)
                    .map_or(c.len().min(lead.len()), |((i, _), _)| i);
                &c[..same]
            }
        });
    }
    common.unwrap_or("")
}

/// The start of `text` in at most `max` characters, the ellipsis included: back to a word
/// boundary unless that loses most of it, and never inside a link or image (`[label](e12)`:
/// a cut marker would read as another ref). `None` when nothing is left.
pub(super) fn cut_words(text: &str, max: usize) -> Option<String> {
    let head = crate::text::word_head(text, max);
    let head = match head.rfind('[') {
        Some(open) if !head[open..].contains(')') => head[..open].trim_end_matches('!'),
        _ => head,
    };
    let head = head.trim_end();
    if head.is_empty() {
        return None;
    }
    Some(format!("{head}{}", crate::text::ELLIPSIS))
}

/// Whether ref `n` shows in (a cut) block text, as `(eN)` or `[ref=eN]`.
pub(super) fn shows_ref(text: &str, n: u32) -> bool {
    // Page text reading like a marker is escaped (`]\(e5)`, `\[ref=e5]`): it does not count.
    text.contains(&format!("](e{n})")) || text.contains(&format!(" [ref=e{n}]"))
}

/// Levels above an image where the `<figure>` holding it is looked for (`<figure><a><img>`,
/// `<figure><div><picture><img>`).
const FIGURE_LEVELS: usize = 4;

/// An alt text that is only the image's file name (`IMG_3886.jpg`, `Mozilla logo.png`) or an
/// asset id (`0226-lupita-getty-01`: one "word" of several parts joined by `-` or `_`, with a
/// digit) describes nothing.
fn is_file_name(alt: &str) -> bool {
    let lower = alt.to_ascii_lowercase();
    let image_file = [
        ".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".avif", ".bmp",
    ]
    .iter()
    .any(|ext| lower.ends_with(ext));
    let asset_id = !alt.contains(' ')
        && alt.chars().filter(|&c| c == '-' || c == '_').count() >= 2
        && alt.chars().any(|c| c.is_ascii_digit());
    image_file || asset_id
}
