//! Bytes → text: which encoding a saved page is in.
//!
//! Order of evidence (first that applies wins):
//! 1. an encoding the caller forces (an unknown label is an error, not a silent fallback);
//! 2. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE);
//! 3. bytes that are valid UTF-8 and hold at least one non-ASCII character are UTF-8, whatever
//!    `<meta>` says. Saved pages are very often re-encoded to UTF-8 without their `<meta>`
//!    being updated (the shared corpus has `iso-8859-1`, `gbk` and `utf-16` pages that are
//!    really UTF-8), and text in a legacy encoding that happens to be valid multi-byte UTF-8
//!    is vanishingly rare. A browser would show such pages as mojibake; an agent wants words;
//! 4. `<meta charset>` or `<meta http-equiv=content-type content="…charset=…">` in the first
//!    1024 bytes, found by the HTML prescan
//!    (<https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding>),
//!    or later in the head, as Chromium's meta charset parser goes on past 1024 bytes until
//!    the first element that is not a head element (the spec reaches the same encoding by
//!    "changing the encoding while parsing" when the tree builder meets the `<meta>`): an
//!    archived page whose archive put a kilobyte of scripts before the page's own head
//!    (trafeval: a `gb2312` news page read as mojibake);
//!    a declared UTF-16 means UTF-8, as the spec says, since the prescan only ever sees
//!    ASCII-compatible bytes;
//! 5. UTF-8 for pure ASCII, otherwise windows-1252 (the WHATWG fallback for unlabelled
//!    Western pages).
//!
//! Malformed sequences decode to U+FFFD, as in a browser; [`Decoded::had_errors`] reports it.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// Where the chosen encoding came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodingSource {
    Forced,
    ByteOrderMark,
    ValidUtf8,
    Meta,
    Fallback,
}

/// The result of decoding a byte buffer.
#[derive(Debug)]
pub struct Decoded<'a> {
    pub text: Cow<'a, str>,
    pub encoding: &'static Encoding,
    pub source: EncodingSource,
    /// Whether malformed byte sequences were replaced with U+FFFD.
    pub had_errors: bool,
}

/// An encoding label that the WHATWG Encoding Standard does not know.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown encoding {label:?}: use a WHATWG encoding label such as utf-8, windows-1252, \
     iso-8859-2, shift_jis, gbk or big5"
)]
pub struct UnknownEncoding {
    pub label: String,
}

/// Looks up an encoding label (`"latin1"`, `"UTF-8"`, `"gb2312"`…).
pub fn encoding_for_label(label: &str) -> Result<&'static Encoding, UnknownEncoding> {
    Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| UnknownEncoding {
        label: label.to_string(),
    })
}

/// Decodes `bytes` following the order of evidence in the module documentation.
pub fn decode<'a>(bytes: &'a [u8], forced: Option<&'static Encoding>) -> Decoded<'a> {
    if let Some(enc) = forced {
        return finish(bytes, enc, EncodingSource::Forced);
    }
    if let Some((enc, _bom_len)) = Encoding::for_bom(bytes) {
        // `decode_with_bom_removal` strips the BOM itself.
        let (text, had_errors) = enc.decode_with_bom_removal(bytes);
        return Decoded {
            text,
            encoding: enc,
            source: EncodingSource::ByteOrderMark,
            had_errors,
        };
    }
    let valid_utf8 = std::str::from_utf8(bytes).ok();
    if let Some(text) = valid_utf8 {
        if !text.is_ascii() {
            return Decoded {
                text: Cow::Borrowed(text),
                encoding: UTF_8,
                source: EncodingSource::ValidUtf8,
                had_errors: false,
            };
        }
    }
    if let Some(enc) = prescan(bytes) {
        return finish(bytes, enc, EncodingSource::Meta);
    }
    match valid_utf8 {
        Some(text) => Decoded {
            text: Cow::Borrowed(text),
            encoding: UTF_8,
            source: EncodingSource::Fallback,
            had_errors: false,
        },
        None => finish(bytes, WINDOWS_1252, EncodingSource::Fallback),
    }
}

fn finish<'a>(bytes: &'a [u8], enc: &'static Encoding, source: EncodingSource) -> Decoded<'a> {
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    Decoded {
        text,
        encoding: enc,
        source,
        had_errors,
    }
}

/// The bytes the HTML prescan always looks at.
const PRESCAN_BYTES: usize = 1024;

/// Elements that belong in a document's head (and the tags around it): past
/// [`PRESCAN_BYTES`], the prescan goes on while it sees only these, as Chromium's
/// `HTMLMetaCharsetParser` does.
const HEAD_TAGS: &[&[u8]] = &[
    b"html",
    b"head",
    b"meta",
    b"link",
    b"script",
    b"style",
    b"title",
    b"base",
    b"noscript",
    b"object",
];

/// Whether `rest` starts with a tag that ends the head: `</head>`, or the start tag of an
/// element that is not a head element.
fn ends_the_head(rest: &[u8]) -> bool {
    let Some(tag) = rest.strip_prefix(b"<") else {
        return false;
    };
    if starts_with_ci(tag, b"/head") {
        return true;
    }
    let name_len = tag
        .iter()
        .position(|b| !b.is_ascii_alphanumeric())
        .unwrap_or(tag.len());
    let name = &tag[..name_len];
    name_len > 0
        && name[0].is_ascii_alphabetic()
        && !HEAD_TAGS.iter().any(|t| name.eq_ignore_ascii_case(t))
}

/// The length of a `<script>`, `<style>` or `<title>` element at the start of `rest`, up to
/// its end tag: their text is not markup, and a string in a script that looks like a tag
/// (`"<div>"`, `"<meta charset=…>"`) is neither a declaration nor the end of the head.
fn raw_text_len(rest: &[u8]) -> Option<usize> {
    let name: &[u8] = [&b"script"[..], b"style", b"title"].into_iter().find(|n| {
        rest.len() > n.len() + 1
            && starts_with_ci(&rest[1..], n)
            && rest[0] == b'<'
            && matches!(
                rest[n.len() + 1],
                b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'/'
            )
    })?;
    let mut at = 1;
    while let Some(i) = find(&rest[at..], b"</") {
        at += i + 2;
        if starts_with_ci(&rest[at..], name) {
            return Some(at + name.len());
        }
    }
    Some(rest.len())
}

/// The HTML prescan, restricted to what matters for saved pages: `<meta>` tags in the first
/// [`PRESCAN_BYTES`] and on to the end of the head, skipping comments, the text of scripts,
/// styles and titles, and other tags' attributes.
fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0;
    while pos < bytes.len() {
        let rest = &bytes[pos..];
        if pos >= PRESCAN_BYTES && ends_the_head(rest) {
            return None;
        }
        if let Some(skip) = raw_text_len(rest) {
            pos += skip;
        } else if rest.starts_with(b"<!--") {
            pos += find(&rest[4..], b"-->").map_or(rest.len(), |i| i + 7);
        } else if starts_with_ci(rest, b"<meta")
            && rest.get(5).is_some_and(|&b| is_space_or_slash(b))
        {
            let (enc, consumed) = meta_charset(&rest[5..]);
            if let Some(enc) = enc {
                // A prescan that finds UTF-16 means the bytes are ASCII-compatible after all.
                return Some(
                    if enc == encoding_rs::UTF_16LE || enc == encoding_rs::UTF_16BE {
                        UTF_8
                    } else if enc == encoding_rs::X_USER_DEFINED {
                        WINDOWS_1252
                    } else {
                        enc
                    },
                );
            }
            pos += 5 + consumed;
        } else if rest.first() == Some(&b'<')
            && rest
                .get(1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'/')
        {
            // Another tag: skip its attributes so that `<div title="<meta charset=x>">` is
            // not mistaken for a declaration.
            let mut p = 1;
            while p < rest.len() && !is_space_or_slash(rest[p]) && rest[p] != b'>' {
                p += 1;
            }
            while let Some((_, _, used)) = attribute(&rest[p..]) {
                p += used;
            }
            pos += p.max(1);
        } else if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
            pos += memchr::memchr(b'>', rest).map_or(rest.len(), |i| i + 1);
        } else {
            pos += 1;
        }
    }
    None
}

fn meta_charset(bytes: &[u8]) -> (Option<&'static Encoding>, usize) {
    let mut p = 0;
    let mut http_equiv_content_type = false;
    let mut content: Option<Vec<u8>> = None;
    let mut charset: Option<&'static Encoding> = None;
    while let Some((name, value, used)) = attribute(&bytes[p..]) {
        p += used;
        match name.as_slice() {
            b"http-equiv" => http_equiv_content_type = value.eq_ignore_ascii_case(b"content-type"),
            b"content" if content.is_none() => content = Some(value),
            b"charset" if charset.is_none() => charset = Encoding::for_label(value.trim_ascii()),
            _ => {}
        }
    }
    if charset.is_some() {
        return (charset, p);
    }
    if http_equiv_content_type {
        if let Some(content) = content {
            return (charset_from_content(&content), p);
        }
    }
    (None, p)
}

/// `charset=` inside a `content` attribute
/// (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#algorithm-for-extracting-a-character-encoding-from-a-meta-element>).
fn charset_from_content(content: &[u8]) -> Option<&'static Encoding> {
    let lower = content.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = find(&lower[from..], b"charset") {
        let mut p = from + i + 7;
        while lower.get(p).is_some_and(|b| b.is_ascii_whitespace()) {
            p += 1;
        }
        if lower.get(p) != Some(&b'=') {
            from = p;
            continue;
        }
        p += 1;
        while lower.get(p).is_some_and(|b| b.is_ascii_whitespace()) {
            p += 1;
        }
        let rest = &content[p..];
        let value = match rest.first() {
            Some(&q @ (b'"' | b'\'')) => {
                let end = memchr::memchr(q, &rest[1..])?;
                &rest[1..1 + end]
            }
            _ => {
                let end = rest
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || b == b';')
                    .unwrap_or(rest.len());
                &rest[..end]
            }
        };
        return Encoding::for_label(value);
    }
    None
}

/// Reads one attribute at the start of `bytes` (after optional whitespace and slashes).
/// Returns its lower-cased name, its value and the number of bytes used; `None` at `>` or at the
/// end of input.
fn attribute(bytes: &[u8]) -> Option<(Vec<u8>, Vec<u8>, usize)> {
    let mut p = 0;
    while p < bytes.len() && is_space_or_slash(bytes[p]) {
        p += 1;
    }
    if p >= bytes.len() || bytes[p] == b'>' {
        return None;
    }
    let name_start = p;
    while p < bytes.len()
        && !is_space_or_slash(bytes[p])
        && bytes[p] != b'>'
        && (bytes[p] != b'=' || p == name_start)
    {
        p += 1;
    }
    let name = bytes[name_start..p].to_ascii_lowercase();
    while p < bytes.len() && bytes[p].is_ascii_whitespace() {
        p += 1;
    }
    if bytes.get(p) != Some(&b'=') {
        return Some((name, Vec::new(), p));
    }
    p += 1;
    while p < bytes.len() && bytes[p].is_ascii_whitespace() {
        p += 1;
    }
    match bytes.get(p) {
        Some(&q @ (b'"' | b'\'')) => {
            let end = memchr::memchr(q, &bytes[p + 1..]).map_or(bytes.len(), |i| p + 1 + i);
            let value = bytes[p + 1..end].to_vec();
            Some((name, value, (end + 1).min(bytes.len())))
        }
        _ => {
            let start = p;
            while p < bytes.len() && !bytes[p].is_ascii_whitespace() && bytes[p] != b'>' {
                p += 1;
            }
            Some((name, bytes[start..p].to_vec(), p))
        }
    }
}

fn is_space_or_slash(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'/'
}

fn starts_with_ci(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.len() >= needle.len() && haystack[..needle.len()].eq_ignore_ascii_case(needle)
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(haystack, needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An archive's kilobyte of scripts before the page's own head: the `<meta>` further on
    /// in the head still names the encoding, as in Chromium; one after the head does not.
    #[test]
    fn meta_later_in_the_head_counts_until_the_body() {
        let scripts = format!("<script>var x = \"<div>{}\";</script>", "a".repeat(1200));
        let page = |at_end: &str| {
            let mut bytes = format!("<html><head>{scripts}<title>t</title>").into_bytes();
            bytes.extend_from_slice(at_end.as_bytes());
            bytes.extend_from_slice(b"<p>\xD6\xD0</p>");
            bytes
        };
        let late = page("<meta charset=gb2312></head><body>");
        let d = decode(&late, None);
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert!(d.text.ends_with("<p>中</p>"));
        let in_body = page("</head><body><meta charset=gb2312>");
        assert_eq!(decode(&in_body, None).encoding, WINDOWS_1252);
    }

    #[test]
    fn bom_wins_over_meta() {
        let mut bytes = vec![0xFF, 0xFE];
        for unit in "<meta charset=latin1><p>é".encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        let d = decode(&bytes, None);
        assert_eq!(d.encoding, encoding_rs::UTF_16LE);
        assert_eq!(d.source, EncodingSource::ByteOrderMark);
        assert!(d.text.ends_with("<p>é"));
    }

    #[test]
    fn meta_charset_decodes_legacy_bytes() {
        let bytes = b"<html><head><meta charset=\"windows-1250\"></head><p>\xB9";
        let d = decode(bytes, None);
        assert_eq!(d.encoding.name(), "windows-1250");
        assert!(d.text.ends_with('ą'));
    }

    #[test]
    fn http_equiv_content_type() {
        let bytes =
            b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=ISO-8859-2\">\xB1";
        let d = decode(bytes, None);
        assert_eq!(d.encoding.name(), "ISO-8859-2");
        assert_eq!(d.source, EncodingSource::Meta);
    }

    #[test]
    fn valid_utf8_beats_a_wrong_meta() {
        let bytes = "<meta charset=iso-8859-1><p>café".as_bytes();
        let d = decode(bytes, None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.ends_with("café"));
    }

    #[test]
    fn meta_inside_another_attribute_is_ignored() {
        let bytes = b"<div title=\"<meta charset=big5>\">\xE9</div>";
        let d = decode(bytes, None);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert_eq!(d.source, EncodingSource::Fallback);
    }

    #[test]
    fn invalid_utf8_without_a_label_falls_back_to_windows_1252() {
        let d = decode(b"<p>caf\xE9", None);
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.ends_with("café"));
    }

    #[test]
    fn declared_utf8_with_bad_bytes_keeps_utf8_and_reports_errors() {
        let d = decode(b"<meta charset=utf-8><p>a\xFFb", None);
        assert_eq!(d.encoding, UTF_8);
        assert!(d.had_errors);
        assert!(d.text.ends_with("a\u{FFFD}b"));
    }

    #[test]
    fn unknown_label_is_an_error() {
        let err = encoding_for_label("klingon-8").unwrap_err();
        assert!(err.to_string().contains("klingon-8"));
        assert!(encoding_for_label(" Latin1 ").is_ok());
    }
}
