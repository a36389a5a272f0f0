//! The parser on two threads: html5ever's tokenizer on a helper thread, its tree builder on
//! the caller's, with tokens shipped between them in batches.
//!
//! Why: on a large page the tokenizer and the tree builder cost about the same wall time
//! (`docs/performance.md`), and they talk one way but for two things. After a start tag the
//! tree builder tells the tokenizer which state to go on in (`<script>`, `<style>`,
//! `<textarea>`, `<title>`… switch it to raw text, the same tags inside SVG or MathML do
//! not), and at `<![` the tokenizer asks whether the current node is foreign (CDATA sections
//! exist only there). Browsers tokenize in the background the same way: Chromium's
//! `HTMLTreeBuilderSimulator` predicts those answers on the tokenizer's thread from a stack
//! of namespaces.
//!
//! Here [`Simulator`] predicts them, and every prediction travels with its token: the tree
//! builder checks each against the answer it actually gives. The tokenizer is deterministic
//! given its input and those answers, so when every prediction held, the token stream, and
//! so the arena, is exactly the one-thread parse's. The first wrong prediction (a `<style>`
//! inside a frameset, an HTML end tag closing an `<svg>` from outside…) stops both threads
//! and the page is parsed again on one thread: never a different tree, at worst the time of
//! one more parse.
//!
//! Only [`Threads::Two`](super::Threads::Two) parses this way. On the generated shop pages it
//! was built on it saves about a tenth; on real pages (web2025, the reading set) shipping the
//! tokens costs more than the overlap saves, 7 % to 31 % slower at every page size
//! (`docs/performance.md`, "Two threads on real pages"), so the default parses on one thread.
//!
//! Tendrils are not `Send` (their reference counts are not atomic), so tokens cross as plain
//! data: names as atoms, text and attribute values copied into one buffer per batch, which
//! the tree builder's side turns back into tendrils sharing that buffer.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

use html5ever::tendril::{fmt::UTF8, SendTendril, StrTendril};
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer,
};
use html5ever::{local_name, Attribute, LocalName, QualName};
use markup5ever::TokenizerResult;

use super::guard::{take_raw_text, tokenizer_opts, tree_builder, DepthGuard};
use super::{Dom, ElementNs, StrSpan, View};

/// Text bytes per batch: large enough that the channel costs nothing per token, small enough
/// that the tree builder starts while the tokenizer is still near the top of the page.
const BATCH_TEXT: u32 = 8 * 1024;
/// Tokens per batch, for pages of tags and little text.
const BATCH_RECORDS: usize = 256;
/// Batches in flight. When the tree builder falls behind, the tokenizer waits rather than
/// holding the whole page twice.
const QUEUE: usize = 2;

/// Where the tokenizer goes on after a tag: the one thing the tree builder tells it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Next {
    Data,
    Raw(RawKind),
    Plaintext,
}

impl Next {
    /// The state the tokenizer ends up in for this answer: it is set to data before a tag is
    /// emitted, and `Script` and `EncodingIndicator` only pause it.
    fn of<H>(result: &TokenSinkResult<H>) -> Next {
        match result {
            TokenSinkResult::RawData(kind) => Next::Raw(*kind),
            TokenSinkResult::Plaintext => Next::Plaintext,
            TokenSinkResult::Continue
            | TokenSinkResult::Script(_)
            | TokenSinkResult::EncodingIndicator(_) => Next::Data,
        }
    }
}

/// Where a token's text is: most text tokens are slices of the input, which both threads
/// hold, so only their position crosses; the rest (decoded character references, joined
/// runs, attribute values, which the tokenizer builds a character at a time) is copied.
#[derive(Clone, Copy)]
enum Text {
    Input(StrSpan),
    Batch(StrSpan),
}

/// One token, or one answer the tokenizer was given, as it crosses threads.
enum Record {
    Tag {
        kind: TagKind,
        name: LocalName,
        self_closing: bool,
        had_duplicate_attributes: bool,
        /// How many of the batch's attributes, in order, are this tag's.
        attrs: u32,
        /// What the tokenizer was told to do next.
        predicted: Next,
    },
    Characters(Text),
    NullCharacter,
    Comment(Text),
    Doctype {
        name: Option<StrSpan>,
        public_id: Option<StrSpan>,
        system_id: Option<StrSpan>,
        force_quirks: bool,
    },
    Eof,
    ParseError(Cow<'static, str>),
    /// The tokenizer asked whether the adjusted current node is foreign, and was told this.
    ForeignCheck(bool),
    /// The tokenizer reached the end of the input; anything short of this is an incomplete
    /// stream.
    End,
}

struct Batch {
    records: Vec<Record>,
    attrs: Vec<(QualName, StrSpan)>,
    text: SendTendril<UTF8>,
}

/// The batch being filled on the tokenizer's side.
struct Pending {
    records: Vec<Record>,
    attrs: Vec<(QualName, StrSpan)>,
    text: StrTendril,
}

impl Pending {
    fn new() -> Pending {
        Pending {
            records: Vec::with_capacity(BATCH_RECORDS),
            attrs: Vec::new(),
            text: StrTendril::with_capacity(BATCH_TEXT),
        }
    }

    fn span(&mut self, s: &str) -> StrSpan {
        let start = self.text.len32();
        self.text.push_slice(s);
        StrSpan {
            start,
            len: self.text.len32() - start,
        }
    }

    /// Full a little before the text buffer is, so that the last token's text rarely makes
    /// it grow.
    fn is_full(&self) -> bool {
        self.records.len() >= BATCH_RECORDS || self.text.len32() >= BATCH_TEXT - 1024
    }
}

/// Input bytes per chunk handed to the tokenizer. The tokenizer's thread copies the page a
/// chunk at a time rather than whole: the tree builder's thread holds the one full copy, which
/// text tokens are cut from.
const CHUNK: usize = 16 * 1024;

/// The chunks the tokenizer is reading, to tell which text tokens are slices of the input.
#[derive(Default)]
struct Input {
    /// The last two chunks with their offsets in the page. Held so that their buffers stay
    /// where they are (and nothing else is allocated there) while addresses are compared
    /// with them; a token from an older chunk is simply copied.
    chunks: RefCell<[Option<(StrTendril, usize)>; 2]>,
}

impl Input {
    fn push(&self, chunk: StrTendril, offset: usize) {
        let mut chunks = self.chunks.borrow_mut();
        chunks[0] = chunks[1].take();
        chunks[1] = Some((chunk, offset));
    }

    /// Where `text` sits in the page, if it is a slice of a chunk.
    fn span_of(&self, text: &str) -> Option<StrSpan> {
        let chunks = self.chunks.borrow();
        chunks.iter().flatten().find_map(|(chunk, offset)| {
            // Comparing addresses is enough: while `chunk` lives, its buffer is one
            // allocation that no other string can overlap.
            let start = (text.as_ptr() as usize).checked_sub(chunk.as_ptr() as usize)?;
            let end = start.checked_add(text.len())?;
            (end <= chunk.len()).then_some(())?;
            Some(StrSpan {
                start: u32::try_from(offset + start).ok()?,
                len: u32::try_from(text.len()).ok()?,
            })
        })
    }
}

/// A foreign (SVG or MathML) element the simulated tree builder has open.
struct Frame {
    /// The tag name as the tokenizer gave it (lower case).
    name: LocalName,
    ns: ElementNs,
    /// An HTML integration point: start tags inside are HTML.
    html_integration: bool,
    /// A MathML text integration point: start tags inside are HTML, but `mglyph` and
    /// `malignmark`.
    text_integration: bool,
}

impl Frame {
    fn new(tag: &Tag, ns: ElementNs) -> Frame {
        let name: &str = &tag.name;
        // https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point
        let html_integration = match ns {
            ElementNs::Svg => matches!(name, "foreignobject" | "desc" | "title"),
            ElementNs::MathMl => {
                name == "annotation-xml"
                    && tag.attrs.iter().any(|a| {
                        a.name.local == local_name!("encoding")
                            && (a.value.eq_ignore_ascii_case("text/html")
                                || a.value.eq_ignore_ascii_case("application/xhtml+xml"))
                    })
            }
            ElementNs::Html => false,
        };
        // https://html.spec.whatwg.org/multipage/parsing.html#mathml-text-integration-point
        let text_integration =
            ns == ElementNs::MathMl && matches!(name, "mi" | "mo" | "mn" | "ms" | "mtext");
        Frame {
            name: tag.name.clone(),
            ns,
            html_integration,
            text_integration,
        }
    }

    fn integration_point(&self) -> bool {
        self.html_integration || self.text_integration
    }
}

/// Predicts the tree builder's answers to the tokenizer from the tags alone, by following
/// which SVG and MathML elements are open (as Chromium's `HTMLTreeBuilderSimulator` does).
/// It does not follow insertion modes or HTML elements, so it can be wrong (the caller finds
/// out and parses on one thread); it is right on ordinary pages.
#[derive(Default)]
struct Simulator {
    frames: Vec<Frame>,
}

impl Simulator {
    /// Whether a start tag is handled by the rules for foreign content (tree construction
    /// dispatcher, <https://html.spec.whatwg.org/multipage/parsing.html#tree-construction>),
    /// and if so the namespace it would open an element in.
    fn foreign_start(&self, name: &LocalName) -> Option<ElementNs> {
        let f = self.frames.last()?;
        let foreign = if f.html_integration {
            false
        } else if f.text_integration {
            matches!(*name, local_name!("mglyph") | local_name!("malignmark"))
        } else {
            !(&*f.name == "annotation-xml" && *name == local_name!("svg"))
        };
        foreign.then_some(f.ns)
    }

    fn start_tag(&mut self, tag: &Tag) -> Next {
        if let Some(ns) = self.foreign_start(&tag.name) {
            if !breaks_out_of_foreign_content(tag) {
                return self.open(tag, ns);
            }
            // "Pop until the current node is an integration point or an HTML element", then
            // the tag is HTML.
            self.pop_to_integration_point();
        }
        match tag.name {
            local_name!("svg") => self.open(tag, ElementNs::Svg),
            local_name!("math") => self.open(tag, ElementNs::MathMl),
            // The "generic RCDATA / raw text element parsing algorithms" of the in-head and
            // in-body insertion modes (scripting on, as in `guard::tree_builder`).
            local_name!("textarea") | local_name!("title") => Next::Raw(RawKind::Rcdata),
            local_name!("script") => Next::Raw(RawKind::ScriptData),
            local_name!("style")
            | local_name!("xmp")
            | local_name!("iframe")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript") => Next::Raw(RawKind::Rawtext),
            local_name!("plaintext") => Next::Plaintext,
            _ => Next::Data,
        }
    }

    /// A foreign element opens (a self-closing one closes at once); the tokenizer's state
    /// does not change.
    fn open(&mut self, tag: &Tag, ns: ElementNs) -> Next {
        if !tag.self_closing {
            self.frames.push(Frame::new(tag, ns));
        }
        Next::Data
    }

    fn end_tag(&mut self, tag: &Tag) {
        if self.frames.is_empty() {
            return;
        }
        if matches!(tag.name, local_name!("br") | local_name!("p")) {
            // `</br>` and `</p>` break out of foreign content like the start tags do.
            self.pop_to_integration_point();
        } else if let Some(i) = self.frames.iter().rposition(|f| f.name == tag.name) {
            // "Any other end tag" in foreign content: pop up to the element of that name.
            self.frames.truncate(i);
        }
    }

    fn pop_to_integration_point(&mut self) {
        while self.frames.last().is_some_and(|f| !f.integration_point()) {
            self.frames.pop();
        }
    }

    /// The prediction for "is the adjusted current node foreign?".
    fn in_foreign_content(&self) -> bool {
        !self.frames.is_empty()
    }
}

/// Start tags that end foreign content ("parsing tokens in foreign content").
fn breaks_out_of_foreign_content(tag: &Tag) -> bool {
    match tag.name {
        local_name!("b")
        | local_name!("big")
        | local_name!("blockquote")
        | local_name!("body")
        | local_name!("br")
        | local_name!("center")
        | local_name!("code")
        | local_name!("dd")
        | local_name!("div")
        | local_name!("dl")
        | local_name!("dt")
        | local_name!("em")
        | local_name!("embed")
        | local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("head")
        | local_name!("hr")
        | local_name!("i")
        | local_name!("img")
        | local_name!("li")
        | local_name!("listing")
        | local_name!("menu")
        | local_name!("meta")
        | local_name!("nobr")
        | local_name!("ol")
        | local_name!("p")
        | local_name!("pre")
        | local_name!("ruby")
        | local_name!("s")
        | local_name!("small")
        | local_name!("span")
        | local_name!("strong")
        | local_name!("strike")
        | local_name!("sub")
        | local_name!("sup")
        | local_name!("table")
        | local_name!("tt")
        | local_name!("u")
        | local_name!("ul")
        | local_name!("var") => true,
        local_name!("font") => tag.attrs.iter().any(|a| {
            matches!(
                a.name.local,
                local_name!("color") | local_name!("face") | local_name!("size")
            )
        }),
        _ => false,
    }
}

/// The tokenizer's sink on the helper thread: records tokens into batches and answers the
/// tokenizer with the simulator's predictions.
struct Forwarder {
    input: Input,
    /// The tokenizer's input: a raw-text element's text is taken from it in one piece, as
    /// on one thread ([`take_raw_text`]).
    queue: Rc<BufferQueue>,
    pending: RefCell<Pending>,
    simulator: RefCell<Simulator>,
    out: SyncSender<Batch>,
    /// The tree builder's side hung up (it saw a wrong prediction): stop tokenizing.
    stopped: Cell<bool>,
}

impl Forwarder {
    fn text(&self, text: &str) -> Text {
        match self.input.span_of(text) {
            Some(span) => Text::Input(span),
            None => Text::Batch(self.pending.borrow_mut().span(text)),
        }
    }

    fn record(&self, record: Record) {
        let mut pending = self.pending.borrow_mut();
        pending.records.push(record);
        if pending.is_full() {
            let full = std::mem::replace(&mut *pending, Pending::new());
            drop(pending);
            self.send(full);
        }
    }

    fn send(&self, batch: Pending) {
        if self.stopped.get() {
            return;
        }
        let batch = Batch {
            records: batch.records,
            attrs: batch.attrs,
            text: batch.text.into_send(),
        };
        if self.out.send(batch).is_err() {
            self.stopped.set(true);
        }
    }
}

impl TokenSink for Forwarder {
    type Handle = ();

    fn process_token(&self, token: Token, _line_number: u64) -> TokenSinkResult<()> {
        if self.stopped.get() {
            // Make `feed` return (only a tag may answer other than `Continue`).
            return match token {
                Token::TagToken(_) => TokenSinkResult::Script(()),
                _ => TokenSinkResult::Continue,
            };
        }
        let record = match token {
            Token::TagToken(tag) => {
                let predicted = match tag.kind {
                    TagKind::StartTag => self.simulator.borrow_mut().start_tag(&tag),
                    TagKind::EndTag => {
                        self.simulator.borrow_mut().end_tag(&tag);
                        Next::Data
                    }
                };
                // The name goes into the record; a raw-text element needs it after.
                let raw_name = matches!(predicted, Next::Raw(_)).then(|| tag.name.clone());
                let mut pending = self.pending.borrow_mut();
                let count = u32::try_from(tag.attrs.len()).unwrap_or(u32::MAX);
                for attr in tag.attrs {
                    let span = pending.span(&attr.value);
                    pending.attrs.push((attr.name, span));
                }
                drop(pending);
                self.record(Record::Tag {
                    kind: tag.kind,
                    name: tag.name,
                    self_closing: tag.self_closing,
                    had_duplicate_attributes: tag.had_duplicate_attributes,
                    attrs: count,
                    predicted,
                });
                return match predicted {
                    Next::Data => TokenSinkResult::Continue,
                    Next::Raw(kind) => {
                        let text = raw_name.and_then(|n| take_raw_text(&self.queue, &n, kind));
                        if let Some(text) = text {
                            self.record(Record::Characters(self.text(&text)));
                        }
                        TokenSinkResult::RawData(kind)
                    }
                    Next::Plaintext => TokenSinkResult::Plaintext,
                };
            }
            Token::CharacterTokens(text) => Record::Characters(self.text(&text)),
            Token::CommentToken(text) => Record::Comment(self.text(&text)),
            Token::NullCharacterToken => Record::NullCharacter,
            Token::DoctypeToken(d) => {
                let mut pending = self.pending.borrow_mut();
                let mut span = |s: Option<StrTendril>| s.map(|s| pending.span(&s));
                Record::Doctype {
                    name: span(d.name),
                    public_id: span(d.public_id),
                    system_id: span(d.system_id),
                    force_quirks: d.force_quirks,
                }
            }
            Token::EOFToken => Record::Eof,
            Token::ParseError(e) => Record::ParseError(e),
        };
        self.record(record);
        TokenSinkResult::Continue
    }

    fn end(&self) {
        self.record(Record::End);
        let last = std::mem::replace(&mut *self.pending.borrow_mut(), Pending::new());
        self.send(last);
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        let answer = self.simulator.borrow().in_foreign_content();
        self.record(Record::ForeignCheck(answer));
        answer
    }
}

/// The helper thread: tokenizes `html` into batches until the end or until the tree builder
/// hangs up.
fn tokenize(html: &str, out: SyncSender<Batch>) {
    let queue = Rc::new(BufferQueue::default());
    let forwarder = Forwarder {
        input: Input::default(),
        queue: Rc::clone(&queue),
        pending: RefCell::new(Pending::new()),
        simulator: RefCell::new(Simulator::default()),
        out,
        stopped: Cell::new(false),
    };
    let tokenizer = Tokenizer::new(forwarder, tokenizer_opts());
    let mut offset = 0;
    while offset < html.len() {
        let mut end = (offset + CHUNK).min(html.len());
        while !html.is_char_boundary(end) {
            end += 1;
        }
        // The tokenizer reads a stream: a chunk may end inside a tag, a character reference
        // or `\r\n`, and it picks up where it was when the next one comes.
        let chunk = StrTendril::from(&html[offset..end]);
        tokenizer.sink.input.push(chunk.clone(), offset);
        queue.push_back(chunk);
        // As in `guard::parse`: `feed` pauses, nothing runs, keep feeding.
        while !matches!(tokenizer.feed(&queue), TokenizerResult::Done) {
            if tokenizer.sink.stopped.get() {
                return;
            }
        }
        offset = end;
    }
    tokenizer.end();
}

/// Why the two-thread parse gave up (the caller parses on one thread).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum GaveUp {
    /// The simulator's answer to the tokenizer differed from the tree builder's.
    Mispredicted,
    /// The token stream ended early (the tokenizer's thread stopped) or did not fit its
    /// buffers.
    Incomplete,
    /// No second thread could be started.
    NoThread,
}

/// The caller's thread: rebuilds tokens from batches, feeds the tree builder and checks every
/// prediction.
fn build(html: &str, batches: &Receiver<Batch>) -> Result<Dom, GaveUp> {
    let guard: DepthGuard = tree_builder(html, View::Scripted);
    // This thread's own copy of the input: text tokens that are slices of it are cut from it
    // (a tendril per token without an allocation each), as from the tokenizer's input in a
    // one-thread parse. The arena copies their text and this copy is freed with the parse.
    let input = StrTendril::from(html);
    for batch in batches {
        let text = StrTendril::from(batch.text);
        // Spans come from the same strings, so they always fit; were one not to, the stream
        // is not the tokenizer's and this parse gives up rather than panic.
        let sub = |s: StrSpan| {
            text.try_subtendril(s.start, s.len)
                .map_err(|_| GaveUp::Incomplete)
        };
        let text_of = |t: Text| match t {
            Text::Input(s) => input
                .try_subtendril(s.start, s.len)
                .map_err(|_| GaveUp::Incomplete),
            Text::Batch(s) => sub(s),
        };
        let mut attrs = batch.attrs.into_iter();
        for record in batch.records {
            let token = match record {
                Record::Tag {
                    kind,
                    name,
                    self_closing,
                    had_duplicate_attributes,
                    attrs: count,
                    predicted,
                } => {
                    let attrs = attrs
                        .by_ref()
                        .take(count as usize)
                        .map(|(name, span)| {
                            Ok(Attribute {
                                name,
                                value: sub(span)?,
                            })
                        })
                        .collect::<Result<_, GaveUp>>()?;
                    let tag = Tag {
                        kind,
                        name,
                        self_closing,
                        attrs,
                        had_duplicate_attributes,
                    };
                    let answer = guard.process_token(Token::TagToken(tag), 0);
                    if Next::of(&answer) != predicted {
                        return Err(GaveUp::Mispredicted);
                    }
                    continue;
                }
                Record::ForeignCheck(predicted) => {
                    if guard.adjusted_current_node_present_but_not_in_html_namespace() != predicted
                    {
                        return Err(GaveUp::Mispredicted);
                    }
                    continue;
                }
                Record::End => {
                    guard.end();
                    return Ok(guard.finish());
                }
                Record::Characters(t) => Token::CharacterTokens(text_of(t)?),
                Record::Comment(t) => Token::CommentToken(text_of(t)?),
                Record::NullCharacter => Token::NullCharacterToken,
                Record::Doctype {
                    name,
                    public_id,
                    system_id,
                    force_quirks,
                } => Token::DoctypeToken(Doctype {
                    name: name.map(sub).transpose()?,
                    public_id: public_id.map(sub).transpose()?,
                    system_id: system_id.map(sub).transpose()?,
                    force_quirks,
                }),
                Record::Eof => Token::EOFToken,
                Record::ParseError(e) => Token::ParseError(e),
            };
            // Only tags change the tokenizer's state; the rest always continue.
            let _ = guard.process_token(token, 0);
        }
    }
    Err(GaveUp::Incomplete)
}

/// Parses `html` with the tokenizer on a second thread. The arena is the one
/// [`super::guard::parse`] builds, or the reason it could not be built this way.
pub(super) fn parse(html: &str) -> Result<Dom, GaveUp> {
    let (out, batches) = sync_channel(QUEUE);
    std::thread::scope(|scope| {
        let tokenizer = std::thread::Builder::new()
            .name("agent-snapshot tokenizer".into())
            .spawn_scoped(scope, move || tokenize(html, out))
            .map_err(|_| GaveUp::NoThread)?;
        let built = build(html, &batches);
        // Hang up first, so that a tokenizer still sending after a misprediction stops.
        drop(batches);
        if let Err(panic) = tokenizer.join() {
            // The tokenizer panicking is a bug that the one-thread parse would hit too:
            // report it where it happened rather than parse again.
            std::panic::resume_unwind(panic);
        }
        built
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arena, node by node, as text: equal strings mean equal trees.
    fn dump(dom: &Dom) -> String {
        format!("{:?}\n{:?}\n{:?}", dom.nodes, dom.attrs, dom.strings)
    }

    fn same_as_one_thread(html: &str) -> Result<(), GaveUp> {
        let two = parse(html)?;
        assert_eq!(
            dump(&two),
            dump(&super::super::guard::parse(html, View::Scripted)),
            "{html}"
        );
        Ok(())
    }

    #[test]
    fn raw_text_elements_switch_the_tokenizer() {
        for html in [
            "<title>a <b> c</title><p>x",
            "<script>if (a<b) document.write('</p>')</script><p>after",
            "<style>p > a { color: red }</style><textarea><b>not bold</b></textarea>",
            "<noscript><a href=x>in noscript</a></noscript><iframe><p>raw</iframe>",
            "<xmp><i>x</i></xmp><noembed><b></noembed><noframes><p></noframes>",
            "<table><style>td{}</style><tr><td><textarea>a</textarea></table>",
            "<select><option>a<style>x</style></select><plaintext><p>all text</p>",
            "<body><title>late title <b></title>",
        ] {
            assert_eq!(same_as_one_thread(html), Ok(()), "{html}");
        }
    }

    #[test]
    fn foreign_content_does_not_switch_the_tokenizer() {
        for html in [
            "<svg><style><b>not raw</b></style><script>a<b</script></svg><style>x<y</style>",
            "<svg><title><style>raw <b></style></title><g><desc><textarea>x</textarea></desc></g></svg>",
            "<svg><foreignObject><div><style>a</style></div></foreignObject><style>b</style></svg>",
            "<math><mi><style>raw</style></mi><mglyph/><annotation-xml encoding=text/html><title>t</title></annotation-xml></math>",
            "<math><annotation-xml><svg><style>no</style></svg></annotation-xml></math>",
            "<svg><g><p>breaks out<style>raw</style>",
            "<svg><font color=red><style>raw</style>",
            "<svg><font><style>not raw</style></font></svg>",
            "<svg/><style>raw</style><math/><title>t</title>",
            "<svg><![CDATA[ <b> ]]></svg><![CDATA[ html ]]><p>",
            "<svg></p><title>x</title></svg>",
        ] {
            assert_eq!(same_as_one_thread(html), Ok(()), "{html}");
        }
    }

    #[test]
    fn a_wrong_prediction_gives_up_instead_of_building_another_tree() {
        // In a frameset a `<style>` is ignored (no raw text); the simulator does not follow
        // insertion modes, so it predicts raw text and the tree builder disagrees.
        assert_eq!(
            parse("<frameset><style><frame></style></frameset>").err(),
            Some(GaveUp::Mispredicted)
        );
        // An HTML end tag that closes an <svg> from outside: the simulator still thinks it
        // is in SVG when the next <style> comes.
        assert_eq!(
            parse("<div><svg><g></div><style>a</style>").err(),
            Some(GaveUp::Mispredicted)
        );
        // Either way the public entry point falls back and returns the one-thread tree.
        for html in [
            "<frameset><style><frame></style></frameset>",
            "<div><svg><g></div><style>a</style>",
        ] {
            let dom = Dom::parse_with(html, super::super::Threads::Two);
            assert_eq!(
                dump(&dom),
                dump(&super::super::guard::parse(html, View::Scripted))
            );
        }
    }

    #[test]
    fn batches_split_anywhere_rebuild_the_same_tree() {
        // Many batches: more tokens than one batch holds, and text longer than one buffer.
        let mut html = String::from("<!DOCTYPE html><html><body>");
        for i in 0..5_000 {
            html.push_str(&format!(
                "<div class=c{i} id='x{i}'><a href=/p/{i}>link {i}</a>\0<!-- c{i} --></div>"
            ));
        }
        html.push_str(&"long text ".repeat(20_000));
        assert_eq!(same_as_one_thread(&html), Ok(()));
    }

    #[test]
    fn constructs_cut_by_a_chunk_boundary() {
        // The tokenizer's thread reads the page in chunks: every construct that needs more
        // than one character of look-ahead, cut at every point by a chunk's end.
        let tail =
            "\u{feff}&amp;&notin;&#x4e2d;\r\n<!-- c --><!DOCTYPE x><a href='v&amp;w'>é中</a>\
                    <svg><![CDATA[y]]><style>s</style></svg><script>a</script>";
        for cut in 0..tail.len() {
            let html = format!("{}{tail}", "a".repeat(CHUNK - cut));
            assert_eq!(same_as_one_thread(&html), Ok(()), "cut {cut}");
        }
    }

    #[test]
    fn empty_and_truncated_input() {
        for html in [
            "",
            "<",
            "<div",
            "<a href='x",
            "<!--",
            "<!DOCTYPE",
            "<svg><![CDATA[x",
        ] {
            assert_eq!(same_as_one_thread(html), Ok(()), "{html}");
        }
    }

    /// Every page of the repo's and the shared corpus (when `../shared` is beside the repo)
    /// parses to the same arena on two threads, and almost never needs the second parse.
    #[test]
    fn corpus_pages_parse_the_same_on_two_threads() {
        let pages = crate::testutil::corpus_pages();
        let mut gave_up = Vec::new();
        for (page, html) in &pages {
            match same_as_one_thread(html) {
                Ok(()) => {}
                Err(why) => gave_up.push(format!("{}: {why:?}", page.display())),
            }
        }
        eprintln!(
            "{} pages, gave up on {}: {gave_up:#?}",
            pages.len(),
            gave_up.len()
        );
        // A wrong prediction costs a second parse: more than one page in 20 would make the
        // two-thread parse slower on average than it is worth.
        assert!(gave_up.len() * 20 <= pages.len(), "{gave_up:#?}");
    }
}
