//! The end of an article's read: where its prose ends, what follows it is the page's chrome
//! that the cleaning left in the content's container (a "Related posts" heading whose links
//! went, "Leave a comment", "Share this:", a photo credit, "Tags"). Trafilatura ends an
//! article where its text ends; Readability keeps what shares the body's container.
//!
//! So is a box of other stories between the paragraphs ("Schon gelesen?" and three linked
//! headlines), and a cross-reference inside the text: a line that is a short label and a
//! link ("Read more: [Looted colonial art]", "Lea también: […]", "Auch lesen: […]"), another
//! story's headline the page puts between the paragraphs.
//!
//! The rules read the laid-out blocks, the read's own format: a block's shown text (link
//! labels and image alts, without refs or list, heading and quote marks) and its own text
//! (outside links and images).

use super::blocks::Block;

/// A trailing block shorter than this (shown characters) that does not end a sentence is a
/// label, not text: "Share this:", "Tags", "Foto: dpa", "Leave a Comment!". With the rule the
/// trafeval articles lose 5 `with` segments of 1 606 and 25 of the 310 `without` ones found go.
const SHORT_LABEL: usize = 40;

/// A block with this many characters of its own text (outside links) is a paragraph of
/// prose, which the trim never crosses.
const PROSE_BLOCK: usize = 80;

/// The trim applies to a read of this many paragraphs of prose at least: an article's body, not
/// a short text beside its page's parts.
const MIN_PROSE_BLOCKS: usize = 3;

/// The trim applies to a read that is an article: paragraphs of prose hold at least this share
/// of its shown characters. A listing, a product page or a landing page ends in cards, prices
/// and links that are its content (web2025: without this share, the listing and collection
/// pages lost their last cards, F1 0.683 -> 0.681 and 0.483 -> 0.481).
const PROSE_SHARE: f32 = 0.5;

/// The tail trimmed holds at most this share of the read's shown characters: more is a part
/// of the content (a second article, a thread's replies), not its trailing chrome.
const TAIL_SHARE: f32 = 0.25;

/// An article's read without the page's chrome inside it and after it: its boxes of other
/// stories ([`drop_story_boxes`]), then its tail ([`trim`]). A read that is no article
/// ([`is_article`]) keeps all. (One measure of the blocks serves both.)
pub(super) fn end_article(blocks: &mut Vec<Block>) {
    let mut measures: Vec<(usize, usize)> = blocks.iter().map(|b| measure(&b.text)).collect();
    if !is_article(blocks, &measures) {
        return;
    }
    drop_story_boxes(blocks, &mut measures);
    trim(blocks, &measures);
}

/// Leaves out the blocks after an article's last paragraph that are chrome: headings, blocks
/// that are mostly links or images, and short labels that end no sentence. A list of links
/// is trimmed only under a heading of the tail (a "More on this" box); loose list items right
/// after the text may be the article's own list. Code and table blocks stop the trim.
/// trafeval: F1 0.875 -> 0.880, precision 0.828 -> 0.839; web2025 unchanged to the third
/// decimal (ALL 0.795); the reading set 0.972 / 0.981 -> 0.973 / 0.981. Asked of an
/// article's read only ([`end_article`]): the boxes dropped before it hold no paragraph, so
/// the read is still one.
fn trim(blocks: &mut Vec<Block>, measures: &[(usize, usize)]) {
    let total: usize = measures.iter().map(|&(shown, _)| shown).sum();
    let mut cut = blocks.len();
    while cut > 0 && is_chrome(&blocks[cut - 1], measures[cut - 1]) {
        cut -= 1;
    }
    // A list item before the tail's first heading may be the article's own list: the trim
    // starts after the last such item.
    let mut heading = false;
    let mut from = cut;
    for (i, b) in blocks.iter().enumerate().skip(cut) {
        heading |= b.heading_words.is_some();
        if !heading && is_list_item(&b.text) {
            from = i + 1;
        }
    }
    let tail: usize = measures[from..].iter().map(|&(shown, _)| shown).sum();
    if from == 0 || tail as f32 > TAIL_SHARE * total as f32 {
        return;
    }
    blocks.truncate(from);
}

/// Whether a read is an article's: [`MIN_PROSE_BLOCKS`] paragraphs of prose or more, holding
/// [`PROSE_SHARE`] of its shown characters at least.
fn is_article(blocks: &[Block], measures: &[(usize, usize)]) -> bool {
    let total: usize = measures.iter().map(|&(shown, _)| shown).sum();
    let paragraphs = || {
        blocks
            .iter()
            .zip(measures)
            .filter(|(b, &(_, own))| is_paragraph(b, own))
            .map(|(_, &(_, own))| own)
    };
    let prose: usize = paragraphs().sum();
    total > 0
        && paragraphs().count() >= MIN_PROSE_BLOCKS
        && prose as f32 >= PROSE_SHARE * total as f32
}

/// Whether a block with `own` characters outside links is a paragraph of prose.
fn is_paragraph(b: &Block, own: usize) -> bool {
    b.heading_words.is_none() && own >= PROSE_BLOCK
}

/// A box of other stories holds this many links saying a headline at least: one link under a
/// label is a cross-reference ([`is_cross_reference`]) or the article's own pointer.
const MIN_BOX_LINKS: usize = 2;
/// A headline says at most this many words: a link of a sentence's length is the article's
/// own (an interview's index of its questions).
const MAX_HEADLINE_WORDS: usize = 16;
/// A box holds at most this many links: a longer run of links is the article's list (its
/// references, its sources), not a box beside it.
const MAX_BOX_LINKS: usize = 12;

/// Leaves out the boxes of other stories that an article's read holds between its paragraphs
/// and its tail: a label (a heading such as "Weiterlesen:", or a short line that ends no
/// statement: "Schon gelesen?", "Vea también") after a paragraph of prose, then
/// [`MIN_BOX_LINKS`] to [`MAX_BOX_LINKS`] blocks that are each nothing but links saying a
/// headline. The tail's trim ([`trim`]) stops at the article's last paragraph, and such a box
/// often stands before it or before an author's bio, a comment or a gallery that the trim
/// keeps. A line that ends in a colon introduces the article's own list ("Our picks for the
/// weekend:", "Jump to a section:") and labels no box. trafeval: precision 0.869 -> 0.873
/// (9 of its boilerplate segments go, no article text), F1 0.908 -> 0.911; web2025 F1
/// unchanged per type (tables of contents and "More on …" boxes go from eight pages, 0.85 ->
/// 0.95 on one; a promotion's "Get the guide" links from a service page, 0.768 -> 0.760); the
/// reading set unchanged.
fn drop_story_boxes(blocks: &mut Vec<Block>, measures: &mut Vec<(usize, usize)>) {
    let mut keep = vec![true; blocks.len()];
    let mut prose_before = false;
    let mut i = 0;
    while i < blocks.len() {
        let run = if prose_before && is_box_label(&blocks[i], measures[i].0) {
            box_run(&blocks[i + 1..])
        } else {
            0
        };
        if (MIN_BOX_LINKS..=MAX_BOX_LINKS).contains(&run) {
            keep[i..=i + run].iter_mut().for_each(|k| *k = false);
            i += run + 1;
            continue;
        }
        prose_before |= is_paragraph(&blocks[i], measures[i].1);
        i += 1;
    }
    let mut k = keep.iter();
    blocks.retain(|_| k.next().copied().unwrap_or(true));
    let mut k = keep.iter();
    measures.retain(|_| k.next().copied().unwrap_or(true));
}

/// How many blocks at the start of `blocks` are links saying a headline
/// ([`is_headline_links`]), counted no further than one past a box's size: a read of a
/// thousand linked lines costs a few looks after each label, not a thousand.
fn box_run(blocks: &[Block]) -> usize {
    blocks
        .iter()
        .take(MAX_BOX_LINKS + 1)
        .take_while(|b| is_headline_links(b))
        .count()
}

/// Whether a block is a box's label: a heading, or a short line of the page's own words (not
/// a link) that ends no statement ("Schon gelesen?" asks one).
fn is_box_label(b: &Block, shown: usize) -> bool {
    if b.code || b.text.contains('\n') || is_list_item(&b.text) {
        return false;
    }
    if b.heading_words.is_some() {
        return true;
    }
    if shown >= SHORT_LABEL {
        return false;
    }
    let (text, own) = texts(&b.text);
    let text = text.trim_end();
    let statement = |c: char| matches!(c, '.' | '!' | '…' | ':');
    // A sentence before the label's end ("Great! Let's do this") makes it text, not a label.
    let inner = text
        .char_indices()
        .any(|(i, c)| matches!(c, '.' | '!' | '?') && text[i + c.len_utf8()..].starts_with(' '));
    own.chars().any(char::is_alphanumeric) && !text.ends_with(statement) && !inner
}

/// Whether a block is nothing but links (a list item, a quote or a line of them) saying
/// [`XREF_LINK_WORDS`] words or more: a headline of another story, not a picture.
fn is_headline_links(b: &Block) -> bool {
    if b.code || b.heading_words.is_some() || b.text.contains('\n') || is_pictures(&b.text) {
        return false;
    }
    let (shown, own) = texts(&b.text);
    !own.chars().any(char::is_alphanumeric)
        && (XREF_LINK_WORDS..=MAX_HEADLINE_WORDS).contains(&shown.split_whitespace().count())
}

/// A cross-reference's label has at most this many words ("Read more", "Lea también",
/// "LE PUEDE INTERESAR", "Lesen Sie auch"); a longer text before a colon is a sentence.
const XREF_LABEL_WORDS: usize = 4;
/// ... and at most this many characters.
const XREF_LABEL_CHARS: usize = 40;
/// A cross-reference's links say a headline: this many words at least ("Looted colonial
/// art"). One or two words after a label are a value ("Colour: [Black]", "Email: [a@b.org]",
/// "Source: [Reuters]", "More: [New kettles]"), a field of the page's own.
const XREF_LINK_WORDS: usize = 3;

/// Whether a block is a cross-reference to another page: a label of a few words, a colon and
/// nothing but links saying a headline ("Read more: [Looted colonial art](e12)"). Such a line is a headline of
/// another story set between an article's paragraphs (trafilatura's truths count them as
/// boilerplate in every language of its set). trafeval: F1 0.881 -> 0.883, precision 0.839
/// -> 0.844, recall unchanged; web2025 and the reading set unchanged. Without
/// [`XREF_LINK_WORDS`] the reading set's recall went 0.981 -> 0.980 and a specification's
/// "Colour: [Black]" went.
pub(super) fn is_cross_reference(b: &Block) -> bool {
    if b.code || b.heading_words.is_some() || b.text.contains('\n') || is_list_item(&b.text) {
        return false;
    }
    let t = b.text.trim_start();
    if t.starts_with(['-', '|', '#']) {
        return false;
    }
    let Some((label, rest)) = t.split_once(':') else {
        return false;
    };
    let label = label.trim();
    if label.is_empty()
        || label.contains(['[', ']'])
        || label.chars().count() > XREF_LABEL_CHARS
        || label.split_whitespace().count() > XREF_LABEL_WORDS
    {
        return false;
    }
    let mut rest = rest.trim_start();
    let mut words = 0;
    while !rest.is_empty() {
        if let Some(end) = ref_marker(rest) {
            rest = rest[end..].trim_start();
        } else if let Some((label, end)) = link(rest) {
            words += label.split_whitespace().count();
            rest = rest[end..].trim_start();
        } else {
            return false;
        }
    }
    words >= XREF_LINK_WORDS
}

/// A copyright line is at most this many shown characters: a holder, a year, a licence
/// ("© 2020 Breaking Belize News. All rights reserved."), and the terms of reprinting a
/// notice may add (a news site's runs to 250: at 200 it was read, trafeval precision 0.872
/// -> 0.873; no other line of the 1 191 shared pages is between the two).
const COPYRIGHT_LINE: usize = 300;

/// Whether a block is a copyright line: it opens with `©`, or with "(c)" or "Copyright"
/// and then a year or `©` ("Copyright © 2020", "(c) 2019 dpa"), and says little more (at
/// most [`COPYRIGHT_LINE`] characters). It says who owns the page, not what the page says;
/// a picture's credit in a caption goes by the same rule (`content::measure`). A sentence
/// about copyright ("Copyright lasts 70 years…"), or a list's "(c) the third case", is no
/// such line. trafeval: precision 0.859 -> 0.861 (17 lines left out, 4 of its boilerplate
/// lines among them, none of its article text); web2025 and the reading set unchanged.
pub(super) fn is_copyright(b: &Block) -> bool {
    if b.code || b.heading_words.is_some() || b.text.contains('\n') {
        return false;
    }
    // The line's own start says it (checked first: a read has a block per paragraph).
    let mut rest = strip_mark(&b.text).trim_start();
    if !rest.starts_with('©') {
        // "Copyright", "(c)" or both, then a year or `©`.
        let mut labelled = false;
        for label in ["copyright", "(c)"] {
            if let Some(r) = strip_prefix_ignore_case(rest, label) {
                rest = r.trim_start();
                labelled = true;
            }
        }
        if !labelled || !rest.starts_with(|c: char| c == '©' || c.is_ascii_digit()) {
            return false;
        }
    }
    let (shown, _) = texts(&b.text);
    shown.trim().chars().count() <= COPYRIGHT_LINE
}

/// `s` without `prefix`, compared ignoring ASCII case.
fn strip_prefix_ignore_case<'s>(s: &'s str, prefix: &str) -> Option<&'s str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Whether a trailing block is the page's chrome rather than the article's text.
fn is_chrome(b: &Block, (shown, own): (usize, usize)) -> bool {
    if b.code || b.text.starts_with('|') || b.text.contains('\n') || is_pictures(&b.text) {
        return false;
    }
    if b.heading_words.is_some() {
        return true;
    }
    if 2 * own < shown {
        return true;
    }
    shown < SHORT_LABEL && !ends_a_sentence(&b.text)
}

/// A block of pictures only (`![alt](e7)`, a gallery's row): the article's own, where it ends.
fn is_pictures(text: &str) -> bool {
    let line = strip_mark(text).trim();
    let mut rest = line;
    let mut any = false;
    while let Some(after) = rest.strip_prefix('!') {
        let Some((_, end)) = link(after) else {
            return false;
        };
        rest = after[end..].trim_start();
        while let Some(end) = ref_marker(rest) {
            rest = rest[end..].trim_start();
        }
        any = true;
    }
    any && rest.is_empty()
}

/// A list item's line: `- item`, `3. item`, indented or not.
fn is_list_item(text: &str) -> bool {
    let t = text.trim_start();
    if t.starts_with("- ") {
        return true;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with(". ")
}

/// Whether a block's text (refs aside) ends a sentence: `.`, `!`, `?` or `…`, before a closing
/// quote or bracket.
fn ends_a_sentence(text: &str) -> bool {
    let (shown, _) = texts(text);
    shown
        .trim_end()
        .trim_end_matches(['"', '\'', '”', '»', '“', '«', ')'])
        .ends_with(['.', '!', '?', '…'])
}

/// A block's shown and own characters.
fn measure(text: &str) -> (usize, usize) {
    let (shown, own) = texts(text);
    (shown.trim().chars().count(), own.trim().chars().count())
}

/// A block's shown text (link labels and image alts kept, refs and line marks left out) and
/// its own text (outside links and images).
fn texts(text: &str) -> (String, String) {
    let line = strip_mark(text);
    let mut shown = String::with_capacity(line.len());
    let mut own = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('[') {
        let (before, after) = rest.split_at(open);
        if let Some(end) = ref_marker(after) {
            shown.push_str(before);
            own.push_str(before);
            rest = &after[end..];
            continue;
        }
        match link(after) {
            Some((label, end)) => {
                // An image's `!` is its mark, not its text.
                let before = before.strip_suffix('!').unwrap_or(before);
                shown.push_str(before);
                own.push_str(before);
                shown.push_str(label);
                rest = &after[end..];
            }
            None => {
                shown.push_str(before);
                own.push_str(before);
                shown.push('[');
                own.push('[');
                rest = &after[1..];
            }
        }
    }
    shown.push_str(rest);
    own.push_str(rest);
    (shown, own)
}

/// The length of a `[ref=e12]` marker at the start of `s`.
fn ref_marker(s: &str) -> Option<usize> {
    let digits = s.strip_prefix("[ref=e")?;
    let n = digits.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0 && digits[n..].starts_with(']')).then_some("[ref=e".len() + n + 1)
}

/// A `[label](e12)` link at the start of `s`: its label and length. A label may hold
/// brackets of its own, in pairs ("[Safe-sport plan [PDF]](e12)").
fn link(s: &str) -> Option<(&str, usize)> {
    let inner = s.strip_prefix('[')?;
    let close = inner.find("](e")? + 1;
    let label = &s[1..close];
    if label.matches('[').count() != label.matches(']').count() {
        return None;
    }
    let after = &s[close + 3..];
    let n = after.bytes().take_while(u8::is_ascii_digit).count();
    (n > 0 && after[n..].starts_with(')')).then_some((label, close + 3 + n + 1))
}

/// A line without its indentation and its heading, list or quote mark.
fn strip_mark(text: &str) -> &str {
    let t = text.trim_start();
    let t = t.trim_start_matches('#');
    let t = t.strip_prefix("- ").unwrap_or(t);
    let t = t.strip_prefix("> ").unwrap_or(t);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    match t[digits..].strip_prefix(". ") {
        Some(rest) if digits > 0 => rest,
        _ => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(text: &str) -> Block {
        Block {
            text: text.to_string(),
            start: 0,
            end: 0,
            refs: Vec::new(),
            code: false,
            heading_words: None,
        }
    }

    #[test]
    fn a_label_and_a_link_is_a_cross_reference() {
        assert!(is_cross_reference(&block(
            "Lea también: [Impiden ingreso a Nicaragua](e12)"
        )));
        assert!(is_cross_reference(&block(
            "> Read more: [Looted colonial art](e3) [ref=e4]"
        )));
        // A sentence before a colon, text after the link, a list's item: not one.
        assert!(!is_cross_reference(&block(
            "The mayor said this to the council on Monday evening: [the plan](e3)"
        )));
        assert!(!is_cross_reference(&block("Source: [Reuters](e3), edited")));
        assert!(!is_cross_reference(&block("Colour: [Black](e3)")));
        assert!(!is_cross_reference(&block("- Read more: [Looted art](e3)")));
        assert!(!is_cross_reference(&block("Read more: Looted art")));
        assert!(!is_cross_reference(&block("Zitat: „Über“ [a](e3)")));
        assert!(!is_pictures("!„Über“"));
    }

    #[test]
    fn shown_and_own_text_of_a_line() {
        let (shown, own) = texts("- See [the source](e5) ![a map](e7) now [ref=e9]");
        assert_eq!(shown.trim(), "See the source a map now");
        assert_eq!(own.split_whitespace().collect::<Vec<_>>(), ["See", "now"]);
        assert!(ends_a_sentence("It rained. [ref=e3]"));
        assert!(!ends_a_sentence("Share this: [ref=e3]"));
        assert!(is_list_item("  12. item") && !is_list_item("12.5 kg"));
        assert!(is_pictures("![a](e3)![b](e4) [ref=e5]") && !is_pictures("![a](e3) by Ann"));
        assert!(is_copyright(&block(
            "© 2020 Breaking Belize News. All rights reserved."
        )));
        assert!(is_copyright(&block(
            "Copyright (c) 2019 [dpa](e4) [ref=e5]"
        )));
        assert!(is_copyright(&block("Copyright © 2019 [dpa](e4)")));
        assert!(is_copyright(&block("(c) 2019 dpa")));
        assert!(!is_copyright(&block(
            "Copyright lasts seventy years after the author's death."
        )));
        assert!(!is_copyright(&block(
            "(c) the third case, which the court left open."
        )));
        // A label's own brackets ("[PDF]") are the link's text, not the line's.
        let (shown, own) = texts("- [Safe-sport plan [PDF]](e5)");
        assert_eq!((shown.trim(), own.trim()), ("Safe-sport plan [PDF]", ""));
    }
}
