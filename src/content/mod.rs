//! Stage 3, the main-content stage: which part of a parsed page is its content, for every
//! reader of it. [`read`](mod@crate::read) reads what it finds, the snapshot ranks it as its
//! second priority class (the walk marks it in the node tree, `TreeNode::main`), and
//! [`Document::main_content`](crate::Document::main_content) names it, so all three agree.
//!
//! One bottom-up pass measures every element (`measure`: visible text, link text, commas,
//! paragraphs, images, controls; hidden text and boilerplate count nothing), Mozilla
//! Readability's paragraph scoring picks a top candidate, and two steps that Readability
//! does not have make it hold for pages other than articles:
//!
//! - **coverage**: the candidate grows to the nearest ancestor holding a fair share of the
//!   page's prose (one post of a thread, one section of a service page, the intro of a
//!   product are parts of the content, not the content), or to the body when the page's
//!   text is spread over the body's children (a landing page's sections side by side);
//!   a data table's body or row grows to its table, whose head names the columns;
//! - **builder rows**: a story a page builder split into rows of one template
//!   (`div.vc_row` after `div.vc_row`) is the unbroken run of rows around the top
//!   candidate's that hold prose like it, when none of the top's own siblings joins;
//! - **a FAQ box**: a box whose titles are mostly questions with short answers, chosen on a
//!   page that names its subject (`h1`) outside it and has sections beside it, grows to the
//!   region holding both: a service page reads its sections, its FAQ one of them;
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
//!   in page order; a choice inside an add-to-cart block grows to it. A product's region
//!   read as it stands leaves out its blocks of other products (related products, upsells,
//!   recommendations, by class or id). The JSON-LD is only
//!   *located*: its text is never output. Microdata `itemprop=author` panes are kept by the
//!   conditional cleaning (a thread is its posts with their authors), and an `<aside>`
//!   inside a repeated `article`/`section` (a post's author pane) is looked at though it
//!   counts as boilerplate, so that read gives each post its author's name (the pane's
//!   first heading) without its badges and counts, which the snapshot ranks with the rest
//!   of the page. Inside a thread's post or a listing's card, the conditional cleaning
//!   judges links as in a block of good class: a short reply among its author, date and
//!   number links is read, and so is a card's row of linked facts.
//!
//! `<form>` is a container here, not boilerplate: forum software wraps whole threads in one
//! (for its moderation checkboxes); its controls are boilerplate still.
//!
//! Never content: text of `script`, `style`, `template`, `noscript`, hidden elements (the
//! rules of [`crate::aria::hidden`] and the page's own sheets), navigation, asides, footers,
//! dialogs, controls, a checkbox's label (the control's name: a filter's option, a
//! "Remember me"), a block's twin laid out beside it for another screen width, a share bar
//! of links and a post's signature by its class, whichever
//! extraction won (the relaxed one keeps other unlikely classes: a thread's `comment`
//! posts). A node the pass did not look at is never read by any path.

//! The stage's files, in the order data flows through them (each uses only those above it):
//!
//! - `element`: what an element is (block, heading, boilerplate by tag or role, the class
//!   and id hints, landmarks, an item's author pane, a numbered post, microdata types);
//! - `measure`: the pass that flags and measures every element (`Page`), Readability's
//!   scoring, and the cleaning: what a read of the content leaves out;
//! - `structured`: what the page's structured data names as its product, located on the
//!   measured page;
//! - `choice`: what wins: the top candidate and its growth, the extractions, cards and text
//!   regions compared, the product region's check (`find`), and which view of the page is
//!   read (the no-script view's rule);
//! - `facts`: the page's own data, its structured data's typed facts as one line.
//! - this file: the result (`MainContent`) and where each node stands to it.

mod choice;
mod declared;
mod element;
mod facts;
mod measure;
mod structured;

pub(crate) use choice::{find, no_script_view_may_win, no_script_view_wins};
pub(crate) use declared::{for_snapshot, shows_nothing, unshown_description, DECLARED};
pub(crate) use element::{heading_level, is_block};
pub(crate) use facts::{data_line, declared_text};
pub(crate) use measure::Page;

use crate::parse::{Dom, NodeId};

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
    /// post's signature, a share bar, a related-posts box), then what it leaves out of the
    /// items' author panes (`Page::pane_extras`: all but the author's name). The relaxed
    /// cleaning leaves out only hidden text, boilerplate and the panes' extras, and, in a
    /// product's region, its blocks of other products (related products, upsells,
    /// recommendations).
    pub left_out: Vec<NodeId>,
    /// Characters of shown text the content keeps, as the extraction that chose it
    /// measured them: what two views of a page are compared by ([`no_script_view_wins`]).
    pub kept: usize,
    /// Whether a read of it ends where its prose ends (`read::tail`): the content of one of
    /// the prose extractions, strict or relaxed, on a page with no product. A run of cards, a
    /// product's block or the largest text region is read as it stands, to its end (a
    /// product's "In stock", a listing's last card).
    pub ends_at_prose: bool,
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
            ends_at_prose: false,
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
