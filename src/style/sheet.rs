//! The page's own style sheets → the rules that decide what a person sees.
//!
//! Parsed with `cssparser` the way browsers recover from errors: a bad declaration is dropped up
//! to its `;`, a bad rule (an unknown selector, a missing brace) up to its block, and parsing
//! goes on (<https://drafts.csswg.org/css-syntax-3/#error-handling>). Only declarations of the
//! properties in [`Decls`] are kept, and a rule that sets none of them is dropped before its
//! selector is even parsed: most of a real sheet is colours and margins.

use cssparser::{
    match_ignore_ascii_case, AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser,
    ParserState, QualifiedRuleParser, RuleBodyItemParser, RuleBodyParser, StyleSheetParser,
};
use selectors::parser::{Component, ParseRelative, Selector, SelectorList};

use std::cell::OnceCell;

use foldhash::HashSet;
use html5ever::LocalName;

use super::media::Viewport;
use crate::parse::select::{ClassNames, Impl, SelectorParser};
use crate::parse::Dom;
use crate::text::TextTransform;

/// `@media`, `@supports` and `@layer` blocks nested deeper than this are skipped: real sheets
/// nest two or three, and each level is a call.
const MAX_BLOCK_NESTING: usize = 32;

/// The computed `display` classes the snapshot tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    None,
    /// `inline` or `contents`: text runs into its neighbours'.
    Inline,
    /// An inline-level box of its own (`inline-block`, `inline-flex`…): in the line, but a
    /// word of its own.
    InlineBox,
    /// Every other box (block, flex, grid, list-item, table parts…): a word of its own, and
    /// block-level ones a line of their own.
    Other,
}

/// One declared value and whether it is `!important`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decl<T> {
    pub value: T,
    pub important: bool,
}

/// The declarations of one rule or `style` attribute that the snapshot reads. Within one
/// block a later declaration of a property wins, unless only the earlier one is `!important`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decls {
    pub display: Option<Decl<Display>>,
    /// `Some(true)`: hidden or collapse; `Some(false)`: visible; `None`: inherit.
    pub visibility: Option<Decl<Option<bool>>>,
    /// `content-visibility: hidden`.
    pub content_hidden: Option<Decl<bool>>,
    /// `None`: inherit.
    pub text_transform: Option<Decl<Option<TextTransform>>>,
    /// Only read from `style` attributes (see the module docs of [`crate::style`]).
    pub opacity_zero: Option<Decl<bool>>,
    /// Only read from `style` attributes.
    pub cursor_pointer: Option<Decl<bool>>,
    /// A `transform` other than `none`, or a `will-change` other than `auto`, is declared:
    /// beside `opacity: 0`, the first frame of an entrance animation. Only read from `style`
    /// attributes.
    pub moves: bool,
}

impl Decls {
    /// Whether no property the snapshot reads is declared.
    pub fn is_empty(&self) -> bool {
        *self == Decls::default()
    }

    /// Parses a declaration list (a `style` attribute or a rule's block).
    pub fn parse(css: &str) -> Decls {
        let mut decls = Decls::default();
        decls.parse_block(&mut Parser::new(css));
        decls
    }

    fn parse_block(&mut self, input: &mut Parser<'_>) {
        let mut parser = DeclParser(self);
        for _ in RuleBodyParser::new(input, &mut parser) {}
    }

    /// These declarations without those that hide (`display: none`, `visibility: hidden`,
    /// `content-visibility: hidden`, `opacity: 0`).
    pub fn without_hiding(self) -> Decls {
        Decls {
            display: self.display.filter(|d| d.value != Display::None),
            visibility: self.visibility.filter(|d| d.value != Some(true)),
            content_hidden: None,
            opacity_zero: None,
            ..self
        }
    }

    /// The declarations that only hide (for a selector too costly to match exactly).
    pub fn hiding_only(&self) -> Decls {
        Decls {
            display: self.display.filter(|d| d.value == Display::None),
            visibility: self.visibility.filter(|d| d.value == Some(true)),
            content_hidden: self.content_hidden.filter(|d| d.value),
            ..Decls::default()
        }
    }
}

fn set<T>(slot: &mut Option<Decl<T>>, value: T, important: bool) {
    if slot.as_ref().is_some_and(|d| d.important && !important) {
        return;
    }
    *slot = Some(Decl { value, important });
}

/// Reads declarations into [`Decls`]; everything else is a parse error, i.e. dropped.
struct DeclParser<'d>(&'d mut Decls);

impl<'i> DeclarationParser<'i> for DeclParser<'_> {
    type Declaration = ();
    type Error = ();

    fn parse_value(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
        _start: &ParserState,
    ) -> Result<(), ParseError<()>> {
        enum Prop {
            Display,
            Visibility,
            ContentVisibility,
            TextTransform,
            Opacity,
            Cursor,
            Moves,
        }
        let prop = match_ignore_ascii_case! { &name,
            "display" => Prop::Display,
            "visibility" => Prop::Visibility,
            "content-visibility" => Prop::ContentVisibility,
            "text-transform" => Prop::TextTransform,
            "opacity" => Prop::Opacity,
            "cursor" => Prop::Cursor,
            "transform" | "will-change" => Prop::Moves,
            _ => return Err(ParseError::custom(())),
        };
        let d = &mut *self.0;
        if let Prop::Moves = prop {
            // The initial values (`transform: none`, `will-change: auto`) move nothing.
            let initial = input
                .try_parse(|i| i.expect_ident_cloned())
                .is_ok_and(|w| w.eq_ignore_ascii_case("none") || w.eq_ignore_ascii_case("auto"))
                && input.is_exhausted();
            while input.next().is_ok() {}
            d.moves |= !initial;
            return Ok(());
        }
        if let Prop::Opacity = prop {
            let zero = match input.next()? {
                cssparser::Token::Number { value, .. } => *value == 0.0,
                cssparser::Token::Percentage { unit_value, .. } => *unit_value == 0.0,
                _ => return Err(ParseError::custom(())),
            };
            let important = important(input)?;
            set(&mut d.opacity_zero, zero, important);
            return Ok(());
        }
        // The other properties take keywords.
        let mut words: Vec<CowRcStr<'i>> = Vec::new();
        while let Ok(word) = input.try_parse(|i| i.expect_ident_cloned()) {
            words.push(word);
            if words.len() > 3 {
                return Err(ParseError::custom(()));
            }
        }
        let important = important(input)?;
        let [first, rest @ ..] = words.as_slice() else {
            return Err(ParseError::custom(()));
        };
        let invalid = || Err(ParseError::custom(()));
        let single = rest.is_empty();
        let global = single
            && matches!(
                first.to_ascii_lowercase().as_str(),
                "inherit" | "initial" | "unset" | "revert" | "revert-layer"
            );
        match prop {
            Prop::Display => {
                let value = match display(first, rest) {
                    Some(v) => v,
                    // `initial` and `unset` are `inline`; `inherit` and `revert` (to the UA
                    // sheet) are left to the element's default.
                    None if global => match first.to_ascii_lowercase().as_str() {
                        "initial" | "unset" => Display::Inline,
                        _ => return invalid(),
                    },
                    None => return invalid(),
                };
                set(&mut d.display, value, important);
            }
            Prop::Visibility if single => {
                let value = match_ignore_ascii_case! { first,
                    "hidden" | "collapse" => Some(true),
                    "visible" | "initial" => Some(false),
                    "inherit" | "unset" | "revert" | "revert-layer" => None,
                    _ => return invalid(),
                };
                set(&mut d.visibility, value, important);
            }
            Prop::ContentVisibility if single => {
                let value = match_ignore_ascii_case! { first,
                    "hidden" => true,
                    "visible" | "auto" | "initial" | "unset" | "revert" | "revert-layer" => false,
                    _ => return invalid(),
                };
                set(&mut d.content_hidden, value, important);
            }
            Prop::TextTransform => {
                let value = match_ignore_ascii_case! { first,
                    "uppercase" => Some(TextTransform::Uppercase),
                    "lowercase" => Some(TextTransform::Lowercase),
                    "capitalize" => Some(TextTransform::Capitalize),
                    "none" | "initial" | "full-width" | "full-size-kana" => Some(TextTransform::None),
                    "inherit" | "unset" | "revert" | "revert-layer" => None,
                    _ => return invalid(),
                };
                set(&mut d.text_transform, value, important);
            }
            Prop::Cursor if single => set(
                &mut d.cursor_pointer,
                first.eq_ignore_ascii_case("pointer"),
                important,
            ),
            _ => return invalid(),
        }
        Ok(())
    }
}

/// An optional `!important`, then the end of the value.
fn important<'i>(input: &mut Parser<'i>) -> Result<bool, ParseError<()>> {
    let important = input.try_parse(cssparser::parse_important).is_ok();
    input.expect_exhausted()?;
    Ok(important)
}

/// A `display` value (<https://drafts.csswg.org/css-display-3/#the-display-properties>):
/// one keyword or the two-keyword form; `None` for anything else.
fn display(first: &str, rest: &[CowRcStr<'_>]) -> Option<Display> {
    const INLINE_BOXES: &[&str] = &[
        "inline-block",
        "inline-flex",
        "inline-grid",
        "inline-table",
        "-webkit-inline-box",
        "-webkit-inline-flex",
        "-ms-inline-flexbox",
        "-ms-inline-grid",
        "-moz-inline-box",
    ];
    const OTHER: &[&str] = &[
        "block",
        "flex",
        "grid",
        "table",
        "table-row-group",
        "table-header-group",
        "table-footer-group",
        "table-row",
        "table-cell",
        "table-column-group",
        "table-column",
        "table-caption",
        "list-item",
        "flow-root",
        "run-in",
        "ruby",
        "ruby-base",
        "ruby-text",
        "ruby-base-container",
        "ruby-text-container",
        "math",
        "flow",
        "-webkit-box",
        "-webkit-flex",
        "-ms-flexbox",
        "-ms-grid",
        "-moz-box",
    ];
    let lower = first.to_ascii_lowercase();
    let known = |w: &str| {
        let w = w.to_ascii_lowercase();
        w == "inline"
            || w == "contents"
            || w == "none"
            || INLINE_BOXES.contains(&w.as_str())
            || OTHER.contains(&w.as_str())
    };
    match (lower.as_str(), rest) {
        ("none", []) => Some(Display::None),
        ("inline" | "contents", []) => Some(Display::Inline),
        (w, []) if INLINE_BOXES.contains(&w) => Some(Display::InlineBox),
        (w, []) if OTHER.contains(&w) => Some(Display::Other),
        // `inline flow` is plain inline; every other pair is some box of its own, inline-level
        // when one of its words is `inline` (`inline flex`, `flow-root inline`).
        ("inline", [second]) if second.eq_ignore_ascii_case("flow") => Some(Display::Inline),
        (w, more) if known(w) && more.iter().all(|m| known(m)) && !more.is_empty() => {
            let inline = |w: &str| w.eq_ignore_ascii_case("inline");
            Some(if inline(w) || more.iter().any(|m| inline(m)) {
                Display::InlineBox
            } else {
                Display::Other
            })
        }
        _ => None,
    }
}

impl<'i> AtRuleParser<'i> for DeclParser<'_> {
    type Prelude = ();
    type AtRule = ();
    type Error = ();
}

impl<'i> QualifiedRuleParser<'i> for DeclParser<'_> {
    type Prelude = ();
    type QualifiedRule = ();
    type Error = ();
}

impl<'i> RuleBodyItemParser<'i, (), ()> for DeclParser<'_> {
    fn parse_declarations(&self) -> bool {
        true
    }
    fn parse_qualified(&self) -> bool {
        false
    }
}

/// One selector of a kept rule, with its declarations and cascade position.
pub struct Rule {
    pub selector: Selector<Impl>,
    pub decls: Decls,
    /// Source order over all of the page's sheets.
    pub order: u32,
    /// Cascade layer rank: `u16::MAX` for rules outside any `@layer`.
    pub layer: u16,
}

/// The class names and ids the page's elements carry. A selector needs every class and id of
/// its compounds (`.menu .item#x` matches only where `menu`, `item` and `x` are all on the
/// page; names inside `:not(…)`, `:is(…)` and attribute values do not count), so a rule
/// whose every selector needs one the page lacks matches nothing and is left out before the
/// parser reads it: a site's sheets style every page of the site, and on a news page with
/// 1 MB of CSS four of five rules that set a property read here are for other pages.
///
/// Gathered on the first question: most sheets set none of the properties read here, and a
/// page whose sheets keep no rule needs neither its names nor its [`ClassNames`].
pub struct Vocabulary<'d> {
    dom: &'d Dom,
    class_names: &'d OnceCell<ClassNames>,
    names: OnceCell<Names<'d>>,
}

/// The distinct class names and ids of a page.
struct Names<'d> {
    classes: HashSet<&'d str>,
    ids: HashSet<&'d str>,
}

impl<'d> Vocabulary<'d> {
    /// The names of `dom`'s elements, with the cell its interned class names are kept in
    /// (filled here if not yet, for the cascade to reuse). Class and id selectors match
    /// case-sensitively, as the cascade matches them (no quirks mode).
    pub fn new(dom: &'d Dom, class_names: &'d OnceCell<ClassNames>) -> Vocabulary<'d> {
        Vocabulary {
            dom,
            class_names,
            names: OnceCell::new(),
        }
    }

    fn names(&self) -> &Names<'d> {
        self.names.get_or_init(|| {
            let class_names = self.class_names.get_or_init(|| ClassNames::new(self.dom));
            // Equal names are one atom: comparing atoms first spares hashing every copy of a
            // class that thousands of elements carry.
            let atoms: HashSet<&LocalName> = class_names.all().iter().collect();
            Names {
                classes: atoms.into_iter().map(|c| &**c).collect(),
                ids: self
                    .dom
                    .elements()
                    .filter_map(|(_, el)| el.attr(&html5ever::local_name!("id")))
                    .collect(),
            }
        })
    }

    /// Whether a selector list (a style rule's prelude, as the page wrote it) may match an
    /// element of the page: `false` only when each of its selectors names a class or id
    /// that no element carries. A comment, an escape or an unclosed string gives no verdict.
    fn may_match(&self, prelude: &str) -> bool {
        let b = prelude.as_bytes();
        if b.iter().any(|&c| c == b'/' || c == b'\\') {
            return true;
        }
        // Brackets open: names inside `(…)` and `[…]` are arguments and values.
        let mut depth = 0u32;
        let mut selector_may_match = true;
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            match c {
                b'"' | b'\'' => match b[i + 1..].iter().position(|&q| q == c || q == b'\n') {
                    Some(n) if b[i + 1 + n] == c => i += n + 1,
                    _ => return true,
                },
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => {
                    if selector_may_match {
                        return true;
                    }
                    selector_may_match = true;
                }
                b'.' | b'#' if depth == 0 => {
                    // An ident's code points (<https://drafts.csswg.org/css-syntax-3/#ident-code-point>);
                    // a non-ASCII byte is part of one, so the name ends on a char boundary.
                    let len = b[i + 1..]
                        .iter()
                        .position(|&n| {
                            !(n.is_ascii_alphanumeric() || n == b'-' || n == b'_' || n >= 0x80)
                        })
                        .unwrap_or(b.len() - i - 1);
                    let name = &prelude[i + 1..i + 1 + len];
                    let names = self.names();
                    let names = if c == b'.' {
                        &names.classes
                    } else {
                        &names.ids
                    };
                    if !name.is_empty() && !names.contains(name) {
                        selector_may_match = false;
                    }
                    i += len;
                }
                _ => {}
            }
            i += 1;
        }
        selector_may_match
    }
}

/// The properties a sheet's declaration can set here, in lower case: `opacity` and `cursor`
/// count from `style` attributes only (see [`QualifiedRuleParser::parse_block`] below).
const SHEET_PROPERTIES: [&[u8]; 4] = [
    b"display",
    b"visibility",
    b"content-visibility",
    b"text-transform",
];

/// Group rules the parser evaluates, whose blocks hold style rules: filtered inside, to this
/// nesting depth (deeper ones are kept whole). Every other at-rule (`@import`, `@font-face`,
/// `@keyframes`, `@container`…) is skipped by the parser, so the filter leaves it out.
const GROUP_RULES: [&str; 3] = ["media", "supports", "layer"];
const MAX_GROUP_DEPTH: u32 = 8;

/// `css` with only what can set a property this stage reads from sheets: a page's sheet is
/// mostly colours and boxes, and tokenizing all of it was most of the stage's time (1 MB of
/// CSS on a news page: 55 M instructions). Within a style rule only the declarations of
/// [`SHEET_PROPERTIES`] are kept, and a rule with none of them is left out, unless its text
/// has a `@` or a backslash (an escaped name, `disp\lay`, must reach the parser): then it is
/// kept whole. `@media`, `@supports` and `@layer` blocks are filtered the same way inside, and
/// an `@media` or `@supports` block left empty goes too (an `@layer` block stays: it ranks its
/// layer); other at-rules are left out. Strings, comments, escapes and brackets are followed
/// as CSS tokenizes them, and anything unbalanced keeps the sheet whole: the parser then sees
/// exactly what the page wrote.
fn relevant_rules<'a>(
    css: &'a str,
    vocabulary: Option<&'a Vocabulary<'_>>,
) -> std::borrow::Cow<'a, str> {
    let mut filter = Filter {
        css,
        vocabulary,
        specials: Specials::new(css.as_bytes()),
        comment_end: memchr::memmem::Finder::new(b"*/"),
        out: String::with_capacity(css.len() / 4),
    };
    match filter.rule_list(0, 0) {
        Ok(None) => std::borrow::Cow::Owned(filter.out),
        // An error, or a `}` that closes nothing.
        _ => std::borrow::Cow::Borrowed(css),
    }
}

/// Whether a byte is CSS whitespace (<https://drafts.csswg.org/css-syntax-3/#whitespace>).
fn is_css_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Whether one declaration's text (up to its `;`) names a property of [`SHEET_PROPERTIES`]:
/// the name is the first token after whitespace and comments, as the parser reads it (a
/// longer name that starts so, `display-x`, is kept too; the parser drops it).
fn declares_sheet_property(decl: &[u8], comment_end: &memchr::memmem::Finder<'_>) -> bool {
    let mut s = decl;
    loop {
        let start = s.iter().position(|&b| !is_css_space(b)).unwrap_or(s.len());
        s = &s[start..];
        if !s.starts_with(b"/*") {
            break;
        }
        match comment_end.find(&s[2..]) {
            Some(end) => s = &s[end + 4..],
            // The scanner found the comment closed; if not, keep the declaration.
            None => return true,
        }
    }
    SHEET_PROPERTIES.iter().any(|name| {
        s.get(..name.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(name))
    })
}

/// The next byte that may change how CSS around it tokenizes, found with `memchr3` in four
/// groups of three: the filter jumps from one to the next instead of looking at every byte.
struct Specials<'a> {
    groups: [memchr::Memchr3<'a>; 4],
    /// Each group's next position (`None`: no more).
    next: [Option<usize>; 4],
}

impl<'a> Specials<'a> {
    fn new(bytes: &'a [u8]) -> Specials<'a> {
        let mut groups = [
            memchr::memchr3_iter(b'{', b'}', b';', bytes),
            memchr::memchr3_iter(b'(', b')', b'"', bytes),
            memchr::memchr3_iter(b'[', b']', b'\'', bytes),
            memchr::memchr3_iter(b'/', b'\\', b'@', bytes),
        ];
        let next = [
            groups[0].next(),
            groups[1].next(),
            groups[2].next(),
            groups[3].next(),
        ];
        Specials { groups, next }
    }

    /// The first special byte at or after `from`.
    fn find(&mut self, from: usize) -> Option<usize> {
        let mut first = None;
        for (group, next) in self.groups.iter_mut().zip(&mut self.next) {
            while next.is_some_and(|p| p < from) {
                *next = group.next();
            }
            if let Some(p) = *next {
                first = Some(first.map_or(p, |f: usize| f.min(p)));
            }
        }
        first
    }
}

/// What the scanner saw in a stretch of text besides brackets.
#[derive(Default)]
struct Marks {
    /// A `@` outside strings and comments.
    at: bool,
    /// A backslash (an escape), in a string or not.
    escape: bool,
}

/// The brackets open in a stretch of CSS, the innermost last.
#[derive(Default)]
struct Brackets(Vec<u8>);

impl Brackets {
    /// Follows one of `{}()[]`: a closing one that does not match is an error.
    fn follow(&mut self, b: u8) -> Result<(), ()> {
        match b {
            b'(' => self.0.push(b')'),
            b'[' => self.0.push(b']'),
            b'{' => self.0.push(b'}'),
            _ if self.0.pop() == Some(b) => {}
            _ => return Err(()),
        }
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

struct Filter<'a, 'v> {
    css: &'a str,
    /// When given, a style rule that cannot match the page is left out as well.
    vocabulary: Option<&'a Vocabulary<'v>>,
    specials: Specials<'a>,
    comment_end: memchr::memmem::Finder<'static>,
    out: String,
}

impl Filter<'_, '_> {
    /// The position of the next byte among `{}()[];` from `from`, past strings, comments and
    /// escapes (`None` at the end of the sheet); an unclosed string or comment is an error.
    fn next_structural(&mut self, from: usize, marks: &mut Marks) -> Result<Option<usize>, ()> {
        let bytes = self.css.as_bytes();
        let mut i = from;
        loop {
            let Some(p) = self.specials.find(i) else {
                return Ok(None);
            };
            match bytes[p] {
                b'/' if bytes.get(p + 1) == Some(&b'*') => {
                    let end = self.comment_end.find(&bytes[p + 2..]).ok_or(())?;
                    i = p + end + 4;
                }
                b'/' => i = p + 1,
                b'"' | b'\'' => i = self.string_end(p, marks)?,
                b'@' => {
                    marks.at = true;
                    i = p + 1;
                }
                // An escaped character (`.a\{`) is part of a name, never a bracket.
                b'\\' => {
                    marks.escape = true;
                    if p + 1 >= bytes.len() {
                        return Err(());
                    }
                    i = p + 2;
                }
                _ => return Ok(Some(p)),
            }
        }
    }

    /// Where the string opening at `open` ends: after its closing quote, or at a newline (a
    /// bad string, as CSS tokenizes it). A string still open at the end is an error.
    fn string_end(&self, open: usize, marks: &mut Marks) -> Result<usize, ()> {
        let bytes = self.css.as_bytes();
        let quote = bytes[open];
        let mut i = open + 1;
        while let Some(&b) = bytes.get(i) {
            match b {
                _ if b == quote => return Ok(i + 1),
                b'\n' | b'\r' | b'\x0c' => return Ok(i),
                b'\\' => {
                    marks.escape = true;
                    // An escaped newline continues the string; CR LF is one newline.
                    i += if bytes.get(i + 1) == Some(&b'\r') && bytes.get(i + 2) == Some(&b'\n') {
                        3
                    } else {
                        2
                    };
                }
                _ => i += 1,
            }
        }
        Err(())
    }

    /// Copies to `out` what may matter of the rule list from `from` (a sheet, or a group
    /// rule's block at `depth`). Returns where the `}` closing the list is, `None` at the end
    /// of the sheet.
    fn rule_list(&mut self, from: usize, depth: u32) -> Result<Option<usize>, ()> {
        let bytes = self.css.as_bytes();
        let mut unit_start = from;
        'units: loop {
            // One unit: a rule up to its block, an at-rule statement up to its `;`, or the
            // text before the `}` closing the list.
            let mut marks = Marks::default();
            let mut brackets = Brackets::default();
            let mut i = unit_start;
            loop {
                let Some(p) = self.next_structural(i, &mut marks)? else {
                    if depth > 0 || !brackets.is_empty() {
                        return Err(());
                    }
                    self.out.push_str(&self.css[unit_start..]);
                    return Ok(None);
                };
                i = p + 1;
                match bytes[p] {
                    b'{' if brackets.is_empty() => {
                        unit_start = self.block_unit(unit_start, p, marks, depth)? + 1;
                        continue 'units;
                    }
                    b';' if brackets.is_empty() && self.is_at_rule(unit_start, p) => {
                        // An at-rule statement: only `@layer a, b;` ranks anything.
                        if marks.escape || self.at_keyword_is(unit_start, p, &["layer"]) {
                            self.out.push_str(&self.css[unit_start..=p]);
                        }
                        unit_start = p + 1;
                        continue 'units;
                    }
                    b';' => {}
                    b'}' if brackets.is_empty() => {
                        if depth == 0 {
                            return Err(());
                        }
                        self.out.push_str(&self.css[unit_start..p]);
                        return Ok(Some(p));
                    }
                    b => brackets.follow(b)?,
                }
            }
        }
    }

    /// One unit with a block, `css[start..open]` its prelude: copies what may matter and
    /// returns where its block closes.
    fn block_unit(
        &mut self,
        start: usize,
        open: usize,
        marks: Marks,
        depth: u32,
    ) -> Result<usize, ()> {
        if !self.is_at_rule(start, open) {
            return self.style_rule(start, open, marks);
        }
        let group = self.at_keyword_is(start, open, &GROUP_RULES);
        if group && depth < MAX_GROUP_DEPTH && !marks.escape {
            let mark = self.out.len();
            self.out.push_str(&self.css[start..=open]);
            let content = self.out.len();
            let close = self.rule_list(open + 1, depth + 1)?.ok_or(())?;
            let empty = self.out.as_bytes()[content..]
                .iter()
                .all(|&b| is_css_space(b));
            if empty && !self.at_keyword_is(start, open, &["layer"]) {
                self.out.truncate(mark);
            } else {
                self.out.push('}');
            }
            return Ok(close);
        }
        let close = self.block_end(open + 1)?;
        // An escaped name (`@med\ia`) may still be a group rule: the parser decides.
        if group || marks.escape {
            self.out.push_str(&self.css[start..=close]);
        }
        Ok(close)
    }

    /// A style rule whose block opens at `open`: copies its prelude and the declarations of
    /// [`SHEET_PROPERTIES`], or the whole rule when it has a `@` or an escape.
    fn style_rule(&mut self, start: usize, open: usize, mut marks: Marks) -> Result<usize, ()> {
        let bytes = self.css.as_bytes();
        let mark = self.out.len();
        self.out.push_str(&self.css[start..=open]);
        let mut kept = false;
        let mut decl_start = open + 1;
        let mut brackets = Brackets::default();
        let mut i = open + 1;
        loop {
            let p = self.next_structural(i, &mut marks)?.ok_or(())?;
            i = p + 1;
            match bytes[p] {
                // A declaration ends at a `;` outside brackets, as the parser reads it.
                b';' if brackets.is_empty() => {
                    if declares_sheet_property(&bytes[decl_start..p], &self.comment_end) {
                        self.out.push_str(&self.css[decl_start..=p]);
                        kept = true;
                    }
                    decl_start = p + 1;
                }
                b';' => {}
                b'}' if brackets.is_empty() => {
                    if marks.at || marks.escape {
                        self.out.truncate(mark);
                        self.out.push_str(&self.css[start..=p]);
                    } else if declares_sheet_property(&bytes[decl_start..p], &self.comment_end) {
                        self.out.push_str(&self.css[decl_start..=p]);
                    } else if kept {
                        self.out.push('}');
                    } else {
                        self.out.truncate(mark);
                    }
                    // Asked last: few rules are kept, and a selector list can be long.
                    if self.out.len() > mark
                        && !marks.at
                        && self
                            .vocabulary
                            .is_some_and(|v| !v.may_match(&self.css[start..open]))
                    {
                        self.out.truncate(mark);
                    }
                    return Ok(p);
                }
                b => brackets.follow(b)?,
            }
        }
    }

    /// Where the block whose content starts at `from` closes.
    fn block_end(&mut self, from: usize) -> Result<usize, ()> {
        let bytes = self.css.as_bytes();
        let mut brackets = Brackets(vec![b'}']);
        let mut i = from;
        let mut marks = Marks::default();
        loop {
            let p = self.next_structural(i, &mut marks)?.ok_or(())?;
            i = p + 1;
            if bytes[p] != b';' {
                brackets.follow(bytes[p])?;
                if brackets.is_empty() {
                    return Ok(p);
                }
            }
        }
    }

    /// Whether the unit starting at `start` is an at-rule (its first byte past whitespace
    /// `@`; a comment before it makes it a style rule here, kept whole for its `@`).
    fn is_at_rule(&self, start: usize, end: usize) -> bool {
        self.css.as_bytes()[start..end]
            .iter()
            .find(|&&b| !is_css_space(b))
            == Some(&b'@')
    }

    /// Whether the at-rule `css[start..end]`'s name is one of `names` (in any case).
    fn at_keyword_is(&self, start: usize, end: usize, names: &[&str]) -> bool {
        let keyword = self.css[start..end]
            .trim_start_matches(|c: char| c.is_ascii() && is_css_space(c as u8))
            .trim_start_matches('@')
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .next()
            .unwrap_or("");
        names.iter().any(|k| keyword.eq_ignore_ascii_case(k))
    }
}

/// The page's sheets, parsed in document order.
pub struct Sheets<'v> {
    viewport: &'v Viewport,
    vocabulary: Option<&'v Vocabulary<'v>>,
    pub rules: Vec<Rule>,
    order: u32,
    /// Layer names in the order they first appear (their rank is the position).
    layers: Vec<String>,
}

impl<'v> Sheets<'v> {
    /// Sheets read for `viewport`; with a `vocabulary`, rules that cannot match the page it
    /// was taken from are left out.
    pub fn new(viewport: &'v Viewport, vocabulary: Option<&'v Vocabulary<'v>>) -> Sheets<'v> {
        Sheets {
            viewport,
            vocabulary,
            rules: Vec::new(),
            order: 0,
            layers: Vec::new(),
        }
    }

    /// Adds one sheet (the text of a `<style>` or of a `data:` stylesheet).
    pub fn add(&mut self, css: &str) {
        let css = relevant_rules(css, self.vocabulary);
        let mut input = Parser::new(&css);
        let mut top = RuleParser {
            sheets: self,
            filtered: matches!(css, std::borrow::Cow::Owned(_)),
            depth: 0,
            layer: u16::MAX,
            layer_name: String::new(),
        };
        for _ in StyleSheetParser::new(&mut input, &mut top) {}
    }

    /// The rank of a layer name, registering it the first time it is seen.
    fn layer(&mut self, name: String) -> u16 {
        if let Some(i) = self.layers.iter().position(|l| *l == name) {
            return i as u16;
        }
        // Past 65 534 layers, later ones share the last rank (only a hostile sheet has that
        // many); unlayered rules keep u16::MAX.
        let rank = self.layers.len().min(usize::from(u16::MAX - 1)) as u16;
        if self.layers.len() < usize::from(u16::MAX - 1) {
            self.layers.push(name);
        }
        rank
    }
}

/// Rules at the top level of a sheet or inside a conditional block.
struct RuleParser<'s, 'v> {
    sheets: &'s mut Sheets<'v>,
    /// Whether the sheet went through [`relevant_rules`]' filter.
    filtered: bool,
    depth: usize,
    layer: u16,
    /// The dotted name of the enclosing layer (`""` outside layers).
    layer_name: String,
}

/// What an at-rule's prelude said.
enum AtPrelude {
    /// `@media` (whether it matches the viewport), `@supports` (taken as true).
    Conditional(bool),
    /// `@layer name { … }` or an anonymous `@layer { … }`: the layer's rank.
    LayerBlock(u16, String),
    /// `@layer a, b;`: the names, declared in this order.
    LayerStatement,
}

impl<'i> AtRuleParser<'i> for RuleParser<'_, '_> {
    type Prelude = AtPrelude;
    type AtRule = ();
    type Error = ();

    fn parse_prelude(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
    ) -> Result<AtPrelude, ParseError<()>> {
        match_ignore_ascii_case! { &name,
            "media" => Ok(AtPrelude::Conditional(self.sheets.viewport.matches(input))),
            "supports" => {
                while input.next().is_ok() {}
                Ok(AtPrelude::Conditional(true))
            },
            "layer" => {
                let mut names = Vec::new();
                while !input.is_exhausted() {
                    let mut full = self.layer_name.clone();
                    loop {
                        let part = input.expect_ident_cloned()?;
                        if !full.is_empty() {
                            full.push('.');
                        }
                        full.push_str(&part);
                        if input.try_parse(|i| i.expect_delim('.')).is_err() {
                            break;
                        }
                    }
                    names.push(full);
                    if !input.is_exhausted() {
                        input.expect_comma()?;
                    }
                }
                if names.len() > 1 {
                    for n in names {
                        self.sheets.layer(n);
                    }
                    return Ok(AtPrelude::LayerStatement);
                }
                // Anonymous: a layer of its own that nothing else can name.
                let name = names.pop().unwrap_or_else(|| {
                    format!("{}\u{0}{}", self.layer_name, self.sheets.layers.len())
                });
                let rank = self.sheets.layer(name.clone());
                Ok(AtPrelude::LayerBlock(rank, name))
            },
            // @import (external), @font-face, @keyframes, @page, @container (needs layout)…
            _ => Err(ParseError::custom(())),
        }
    }

    fn rule_without_block(&mut self, prelude: AtPrelude, _: &ParserState) -> Result<(), ()> {
        match prelude {
            AtPrelude::LayerStatement | AtPrelude::LayerBlock(..) => Ok(()),
            AtPrelude::Conditional(_) => Err(()),
        }
    }

    fn parse_block(
        &mut self,
        prelude: AtPrelude,
        _: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<()>> {
        if self.depth >= MAX_BLOCK_NESTING {
            return Err(ParseError::custom(()));
        }
        let (layer, layer_name) = match prelude {
            AtPrelude::Conditional(false) | AtPrelude::LayerStatement => {
                return Err(ParseError::custom(()))
            }
            AtPrelude::Conditional(true) => (self.layer, self.layer_name.clone()),
            AtPrelude::LayerBlock(rank, name) => (rank, name),
        };
        let mut nested = RuleParser {
            sheets: &mut *self.sheets,
            filtered: self.filtered,
            depth: self.depth + 1,
            layer,
            layer_name,
        };
        for _ in StyleSheetParser::new(input, &mut nested) {}
        Ok(())
    }
}

/// A style rule's selectors: parsed as the prelude is read (tokenized once) when the filter
/// has left only rules that declare a property read here; in a sheet it could not filter
/// (unbalanced), kept as text and parsed only if the block declares one.
enum Selectors<'i> {
    Parsed(SelectorList<Impl>),
    Text(&'i str),
}

impl<'i> QualifiedRuleParser<'i> for RuleParser<'_, '_> {
    type Prelude = Selectors<'i>;
    type QualifiedRule = ();
    type Error = ();

    fn parse_prelude(&mut self, input: &mut Parser<'i>) -> Result<Selectors<'i>, ParseError<()>> {
        if self.filtered {
            return SelectorList::parse(&SelectorParser, input, ParseRelative::No)
                .map(Selectors::Parsed)
                .map_err(|_| ParseError::custom(()));
        }
        let start = input.position();
        while input.next().is_ok() {}
        Ok(Selectors::Text(input.slice_from(start)))
    }

    fn parse_block(
        &mut self,
        prelude: Selectors<'i>,
        _: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<()>> {
        let mut decls = Decls::default();
        decls.parse_block(input);
        // `opacity`, `cursor` and movement count from `style` attributes only (see the module doc):
        // fade-in classes start at `opacity: 0` and a script reveals them.
        decls.opacity_zero = None;
        decls.cursor_pointer = None;
        decls.moves = false;
        if decls.is_empty() {
            return Ok(());
        }
        let list = match prelude {
            Selectors::Parsed(list) => list,
            Selectors::Text(text) => {
                SelectorList::parse(&SelectorParser, &mut Parser::new(text), ParseRelative::No)
                    .map_err(|_| ParseError::custom(()))?
            }
        };
        // A rule that hides custom elements by name (`rhcl-typography, .cmp-container {
        // visibility: hidden }`, `x-card:not(:defined) { visibility: hidden }`) is a component
        // library's hydration guard: it hides the page until the scripts that define the
        // elements have run, and a person never sees the page so, as with the anti-flicker
        // snippets `style` lifts. The whole rule goes: what it lists beside the elements is the
        // same guard. Only `visibility`: `display: none` until defined is a menu's closed state.
        if decls.visibility.is_some_and(|d| d.value == Some(true))
            && list.slice().iter().any(names_custom_element)
        {
            decls.visibility = None;
            if decls.is_empty() {
                return Ok(());
            }
        }
        let order = self.sheets.order;
        self.sheets.order = order.saturating_add(1);
        for selector in list.slice() {
            if selector.has_pseudo_element() {
                continue;
            }
            self.sheets.rules.push(Rule {
                selector: selector.clone(),
                decls,
                order,
                layer: self.layer,
            });
        }
        Ok(())
    }
}

/// Whether the selector's subject is a custom element by name: a type selector with a hyphen
/// (<https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name>).
fn names_custom_element(selector: &Selector<Impl>) -> bool {
    selector.iter().any(|c| match c {
        Component::LocalName(n) => {
            let name: &str = n.lower_name.as_local();
            name.contains('-') && name.starts_with(|c: char| c.is_ascii_lowercase())
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rules_that_cannot_matter_are_left_out() {
        let keep = |css: &str| relevant_rules(css, None).into_owned();
        // Colours go, and so do `opacity` and `cursor` (read from `style` attributes only);
        // any spelling of a property read stays, and only its declarations.
        assert_eq!(keep(".a{color:red}.b{DISPLAY:none}"), ".b{DISPLAY:none}");
        assert_eq!(keep(".a{color:red} .b{cursor:pointer;opacity:0}"), "");
        assert_eq!(
            keep(".a{color:red;display:none;margin:0}.b{ /*x*/ Visibility:hidden }"),
            ".a{display:none;}.b{ /*x*/ Visibility:hidden }"
        );
        // A name in a value or a selector is no declaration.
        assert_eq!(keep(".display{transition:opacity 1s;x:display}"), "");
        // A `;` in brackets ends no declaration.
        assert_eq!(
            keep(".a{background:url(data:x;base64,AA);display:none}"),
            ".a{display:none}"
        );
        // An escaped name, braces in strings, comments and selectors are followed.
        let escaped = ".a{disp\\lay:none}";
        assert_eq!(keep(escaped), escaped);
        assert_eq!(
            keep(".a::after{content:\"}{\"} .b{display:none}"),
            " .b{display:none}"
        );
        // (A comment goes with the rule after it.)
        assert_eq!(
            keep("/* { */.a{color:red}.b\\{{display:none}"),
            ".b\\{{display:none}"
        );
        // Group rules are filtered inside, and left out when nothing is left but an
        // `@layer`'s (it ranks its layer); other at-rules go, `@layer` statements stay.
        assert_eq!(
            keep("@layer x;@media (min-width:1px){.a{color:red}.b{display:none}}"),
            "@layer x;@media (min-width:1px){.b{display:none}}"
        );
        assert_eq!(
            keep("@media print{.a{color:red}} @supports (x:y){ } @layer z{.a{color:red}}"),
            " @layer z{}"
        );
        assert_eq!(
            keep("@font-face{font-family:x}@import 'x.css';@charset \"x\";.a{display:none}"),
            ".a{display:none}"
        );
        // An escaped at-rule name may be `@media`: kept whole.
        let at = "@med\\ia all{.a{display:none;color:red}}";
        assert_eq!(keep(at), at);
        // Unbalanced: the parser sees what the page wrote.
        for broken in [
            ".a{color:red",
            ".a{color:red}}",
            ".a{x:(}",
            "/* open",
            ".a{content:\"open",
            "@media all{.a{color:red}",
            ".a{x:(]}",
            ".a\\",
        ] {
            assert_eq!(keep(broken), broken);
        }
    }

    /// One rule as a test compares it: selector, declarations, order and layer.
    type Seen = (String, String, u32, u16);

    /// The rules a sheet yields, and its layers.
    fn parsed(css: &str, filtered: bool) -> (Vec<Seen>, Vec<String>) {
        use cssparser::ToCss;
        let v = Viewport::default();
        let mut s = Sheets::new(&v, None);
        if filtered {
            s.add(css);
        } else {
            let mut input = Parser::new(css);
            let mut top = RuleParser {
                sheets: &mut s,
                filtered: false,
                depth: 0,
                layer: u16::MAX,
                layer_name: String::new(),
            };
            for _ in StyleSheetParser::new(&mut input, &mut top) {}
        }
        let rules = s
            .rules
            .iter()
            .map(|r| {
                (
                    r.selector.to_css_string(),
                    format!("{:?}", r.decls),
                    r.order,
                    r.layer,
                )
            })
            .collect();
        (rules, s.layers)
    }

    #[test]
    fn leaving_rules_out_changes_no_computed_style() {
        let css =
            "@media (max-width:600px){.m{display:none}} .a{color:red} .b .c{visibility:hidden}\
                   .d{text-transform:uppercase} @supports (x:y){.e{display:none}.f{margin:0}}";
        let (whole, filtered) = (parsed(css, false), parsed(css, true));
        assert_eq!(whole, filtered);
        // `.b .c`, `.d`, `.e` (the `@media` is for narrow screens).
        assert_eq!(filtered.0.len(), 3);
    }

    #[test]
    fn the_filter_reads_structure_as_css_does() {
        // Every sequence of three of these pieces, filtered or not, gives the same rules:
        // comments and strings with braces, escapes, brackets, nested and unbalanced blocks.
        let pieces = [
            ".a{color:red}",
            ".b{display:none}",
            ".c{color:red;VISIBILITY:hidden!important;opacity:0}",
            "@media (max-width:1px){",
            "@media all{",
            "@supports (x:y){",
            "@layer l{",
            "@layer m, n;",
            "@font-face{display:none}",
            "}",
            "{",
            "/*}{*/",
            "/*",
            "\"}\\\"{\"",
            "'\\",
            "\n",
            "\\{",
            "(",
            ")",
            "[x=\"}\"]",
            ";",
            ".d{x:(;}display:none);text-transform:uppercase}",
            ".e{.f{display:none} display:block;display:inline}",
            ".g{x:1;/*;*/display:none;}",
            "@media screen{.h{display:none}}",
        ];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let css = format!("{a}{b}{c}");
                    assert_eq!(parsed(&css, false), parsed(&css, true), "{css:?}");
                }
            }
        }
    }

    #[test]
    fn huge_sheets_are_filtered_in_one_pass() {
        // Deep group rules past the filter's depth are kept whole; the parser cuts them.
        let deep = "@media all{".repeat(20) + ".x{display:none;color:red}" + &"}".repeat(20);
        assert_eq!(relevant_rules(&deep, None), deep);
        // 100 000 rules, nested in `@media`, a few kept.
        let mut css = String::from("@media screen{");
        for i in 0..100_000 {
            css.push_str(&format!(".r{i}{{color:red;margin:0}}"));
            if i % 10_000 == 0 {
                css.push_str(&format!(".k{i}{{display:none}}"));
            }
        }
        css.push('}');
        let kept = relevant_rules(&css, None);
        assert_eq!(kept.matches("display:none").count(), 10);
        assert!(kept.len() < 300, "{}", kept.len());
    }

    #[test]
    fn declarations() {
        let d = Decls::parse("color:red; DISPLAY : None !important; display: block");
        assert_eq!(
            d.display,
            Some(Decl {
                value: Display::None,
                important: true
            }),
            "a normal declaration does not beat an important one in the same block"
        );
        assert_eq!(
            Decls::parse("display:none;display:flex")
                .display
                .map(|d| d.value),
            Some(Display::Other)
        );
        assert_eq!(
            Decls::parse("display:inline flow").display.map(|d| d.value),
            Some(Display::Inline)
        );
        for (inline_box, v) in [
            (true, "inline-block"),
            (true, "inline flex"),
            (true, "flow-root inline"),
            (false, "block flex"),
            (false, "list-item"),
        ] {
            let want = if inline_box {
                Display::InlineBox
            } else {
                Display::Other
            };
            let d = Decls::parse(&format!("display:{v}")).display;
            assert_eq!(d.map(|d| d.value), Some(want), "{v}");
        }
        assert!(Decls::parse("display: nonee").is_empty());
        assert!(Decls::parse("display: none garbage").is_empty());
        assert!(Decls::parse("display: var(--x)").is_empty());
        assert_eq!(
            Decls::parse("visibility:collapse")
                .visibility
                .map(|d| d.value),
            Some(Some(true))
        );
        assert_eq!(
            Decls::parse("opacity: 0.0").opacity_zero.map(|d| d.value),
            Some(true)
        );
        assert_eq!(
            Decls::parse("opacity: 0%").opacity_zero.map(|d| d.value),
            Some(true)
        );
        assert_eq!(
            Decls::parse("opacity: .5").opacity_zero.map(|d| d.value),
            Some(false)
        );
        assert_eq!(
            Decls::parse("text-transform: UPPERCASE")
                .text_transform
                .map(|d| d.value),
            Some(Some(TextTransform::Uppercase))
        );
        // Broken declarations are skipped one by one.
        let d = Decls::parse("display:;; visibility: hidden; ]] ; cursor: pointer");
        assert_eq!(d.visibility.map(|d| d.value), Some(Some(true)));
        assert_eq!(d.cursor_pointer.map(|d| d.value), Some(true));
    }

    fn rules(css: &str) -> Vec<(String, u32, u16)> {
        let vp = Viewport::default();
        let mut sheets = Sheets::new(&vp, None);
        sheets.add(css);
        sheets
            .rules
            .iter()
            .map(|r| {
                use cssparser::ToCss;
                (r.selector.to_css_string(), r.order, r.layer)
            })
            .collect()
    }

    #[test]
    fn a_selector_needs_the_classes_and_ids_of_its_compounds() {
        let dom =
            Dom::parse("<div id=top class='menu \u{e9}t\u{e9}'><a class=item id=x>a</a></div>");
        let classes = OnceCell::new();
        let v = Vocabulary::new(&dom, &classes);
        for (prelude, may) in [
            (".menu .item", true),
            ("#top>a#x.item", true),
            (".\u{e9}t\u{e9}", true),
            // Every compound counts, and the names are case-sensitive.
            (".other .item", false),
            (".Menu", false),
            ("#top .item#y", false),
            ("a.item-x", false),
            // One selector of the list that may match keeps the rule.
            (".no, .gone, .item", true),
            (".no, .gone", false),
            // Arguments and attribute values are not needed names.
            ("a:not(.no)", true),
            (":is(.no, .gone) a", true),
            ("a[href='x.no'], [data-x=.no]", true),
            ("a:nth-child(2n of .no)", true),
            (".no:is(a)", false),
            // No verdict: a comment or an escape may spell a name; a string left open.
            (".no/**/", true),
            (".n\\o", true),
            ("a[title=\"x]", true),
            // No class or id: nothing needed.
            ("a > b ~ c", true),
            ("*", true),
        ] {
            assert_eq!(v.may_match(prelude), may, "{prelude:?}");
        }
    }

    #[test]
    fn rules_left_out_for_the_page_match_none_of_its_elements() {
        use crate::parse::select::Selector;
        use cssparser::ToCss;
        let dom = Dom::parse(
            "<nav class='menu wide' id=nav><ul><li class=item><a class='item on' href=/>x</a>\
             </li></ul></nav><p id=p class=note>y</p>",
        );
        let classes = OnceCell::new();
        let vocabulary = Vocabulary::new(&dom, &classes);
        let css = ".menu a{display:none} .gone a, #nav .on{visibility:hidden} \
                   .gone, #p.note{text-transform:uppercase} .item .gone{display:none} \
                   @media screen{#nope{display:none} .wide :not(.gone){display:block}} \
                   .x\\31{display:none} .gone{color:red;display:none;}";
        let viewport = Viewport::default();
        let selectors = |vocabulary| {
            let mut sheets = Sheets::new(&viewport, vocabulary);
            sheets.add(css);
            sheets
                .rules
                .iter()
                .map(|r| r.selector.to_css_string())
                .collect::<Vec<_>>()
        };
        let (all, kept) = (selectors(None), selectors(Some(&vocabulary)));
        // What is kept comes in the same order; what is left out matches nothing.
        let mut kept_rest = kept.iter().peekable();
        let mut left_out = Vec::new();
        for rule in &all {
            if kept_rest.peek() == Some(&rule) {
                kept_rest.next();
                continue;
            }
            let selector = Selector::parse(rule).expect("a rule's selector parses");
            let matches = dom.elements().any(|(id, _)| selector.matches(&dom, id));
            assert!(!matches, "{rule:?} matches but was left out");
            left_out.push(rule.as_str());
        }
        assert_eq!(
            kept_rest.next(),
            None,
            "{kept:?} is no subsequence of {all:?}"
        );
        // A list with one selector that may match stays whole (`.gone a, #nav .on`), and so
        // does a rule with an escape (`.x\31`).
        assert_eq!(left_out, [".item .gone", "#nope", ".gone"]);
    }

    #[test]
    fn rules_that_matter_are_kept() {
        let got = rules(
            "a{color:red} .x, #y::before, p:hover{display:none} @import url(x.css); \
             @media (max-width: 600px){.m{display:none}} @media screen{.d{display:none}} \
             @supports (display:grid){.s{visibility:hidden}} @font-face{font-family:x} \
             .bad{{display:none} .ok{display:none}",
        );
        let names: Vec<&str> = got.iter().map(|(s, ..)| s.as_str()).collect();
        assert_eq!(names, [".x", "p:hover", ".d", ".s"], "{got:?}");
    }

    #[test]
    fn layers_rank_by_first_appearance() {
        let got = rules(
            "@layer base, theme; @layer theme{.t{display:none}} @layer base{.b{display:none}} \
             .u{display:none} @layer{.anon{display:none}}",
        );
        let layer = |s: &str| got.iter().find(|r| r.0 == s).map(|r| r.2);
        assert_eq!(layer(".b"), Some(0));
        assert_eq!(layer(".t"), Some(1));
        assert_eq!(layer(".u"), Some(u16::MAX));
        assert_eq!(layer(".anon"), Some(2));
    }

    #[test]
    fn deep_nesting_is_cut_not_a_crash() {
        let css = "@media all{".repeat(50_000) + ".x{display:none}";
        assert!(rules(&css).is_empty());
        let css = "@media all{".repeat(10) + ".x{display:none}";
        assert_eq!(rules(&css).len(), 1);
    }
}
