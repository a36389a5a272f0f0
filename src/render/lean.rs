//! Lean attribute values: what a line shows of an attribute, without what the line (or the
//! page's own URL) already says. The full value stays in the tree, the ref map and the
//! `attrs` query.

use std::borrow::Cow;

use crate::text::truncate_with_ellipsis;

/// Query parameters that only track the visit (analytics campaign and click ids).
const TRACKING_PARAMS: &[&str] = &[
    "fbclid", "gclid", "dclid", "gbraid", "wbraid", "msclkid", "yclid", "mc_cid", "mc_eid", "_ga",
    "_gl", "igshid", "ref_src", "spm",
];

/// A query longer than this (after tracking parameters are dropped) shows as `?…`.
const MAX_QUERY_CHARS: usize = 40;

/// The `type` an input of this role has by default or by definition: showing it says
/// nothing the role does not (`type=text` on a textbox, `type=submit` on a button).
fn implied_type(role: &str, value: &str) -> bool {
    let v = value.trim();
    let is = |t: &str| v.eq_ignore_ascii_case(t);
    match role {
        "textbox" => is("text"),
        "button" => is("submit") || is("button") || is("reset") || is("image"),
        "checkbox" => is("checkbox"),
        "radio" => is("radio"),
        "searchbox" => is("search"),
        "spinbutton" => is("number"),
        "slider" => is("range"),
        "link" | "img" => true,
        _ => false,
    }
}

/// Whether attribute `name` with `value` adds nothing to a line for `role`.
pub(super) fn redundant(name: &str, value: &str, role: &str) -> bool {
    value.trim().is_empty()
        || (name == "role" && value.trim().eq_ignore_ascii_case(role))
        || (name == "type" && implied_type(role, value))
}

/// The value shown for attribute `name`: URLs shortened (see [`url`]), then cut.
pub(super) fn value<'v>(
    name: &str,
    value: &'v str,
    origin: Option<&str>,
    max: usize,
) -> Cow<'v, str> {
    let v = match name {
        "href" | "src" | "action" => url(value, origin),
        _ => Cow::Borrowed(value),
    };
    match truncate_with_ellipsis(&v, max) {
        Cow::Borrowed(_) => v,
        Cow::Owned(cut) => Cow::Owned(cut),
    }
}

/// `scheme://host[:port]` of an absolute http(s) URL.
pub(super) fn origin_of(url: &str) -> Option<&str> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let scheme_len = url.len() - rest.len();
    let host_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    (host_len > 0).then(|| &url[..scheme_len + host_len])
}

/// A URL as a line shows it: a `data:` URL as its media type, a same-origin URL as its
/// path, without tracking parameters, and a long query as `?…`.
///
/// ```text
/// https://shop.example/p/1?utm_source=x&id=7  (on shop.example)  ->  /p/1?id=7
/// data:image/png;base64,iVBORw0…                                   ->  data:image/png;base64,…
/// ```
pub(super) fn url<'v>(value: &'v str, origin: Option<&str>) -> Cow<'v, str> {
    let v = value.trim();
    // An inline `data:` URL is bytes, not a location: keep its media type only.
    if v.get(..5).is_some_and(|s| s.eq_ignore_ascii_case("data:")) {
        return match v.find(',') {
            Some(comma) if comma + 1 < v.len() => Cow::Owned(format!("{}…", &v[..=comma])),
            _ => Cow::Borrowed(v),
        };
    }
    let local = match origin {
        Some(o) if v.eq_ignore_ascii_case(o) => "/",
        // `get`, not indexing: the origin's length may fall inside a character of the value.
        Some(o) => match (v.get(..o.len()), v.get(o.len()..)) {
            (Some(head), Some(rest))
                if head.eq_ignore_ascii_case(o) && rest.starts_with(['/', '?', '#']) =>
            {
                rest
            }
            _ => v,
        },
        None => v,
    };
    let Some(q) = local.find('?') else {
        return Cow::Borrowed(local);
    };
    let (path, query_and_fragment) = local.split_at(q);
    let (query, fragment) = match query_and_fragment.find('#') {
        Some(h) => query_and_fragment.split_at(h),
        None => (query_and_fragment, ""),
    };
    let params = query[1..].split('&').filter(|p| !p.is_empty());
    let kept: Vec<&str> = params
        .clone()
        .filter(|p| {
            let key = p.split('=').next().unwrap_or("");
            !key.to_ascii_lowercase().starts_with("utm_")
                && !TRACKING_PARAMS.iter().any(|t| key.eq_ignore_ascii_case(t))
        })
        .collect();
    let kept_query = kept.join("&");
    if kept_query.chars().count() > MAX_QUERY_CHARS {
        return Cow::Owned(format!("{path}?…{fragment}"));
    }
    if kept.len() == params.count() {
        return Cow::Borrowed(local);
    }
    if kept_query.is_empty() {
        Cow::Owned(format!("{path}{fragment}"))
    } else {
        Cow::Owned(format!("{path}?{kept_query}{fragment}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_shortened_but_keep_their_meaning() {
        let o = Some("https://shop.example");
        assert_eq!(
            url("https://shop.example/p/1?utm_source=x&id=7", o),
            "/p/1?id=7"
        );
        assert_eq!(url("https://shop.example", o), "/");
        assert_eq!(
            url("https://shop.example.evil/x", o),
            "https://shop.example.evil/x"
        );
        assert_eq!(
            url("https://other.example/a?gclid=1", o),
            "https://other.example/a"
        );
        assert_eq!(url("/a?fbclid=1#top", o), "/a#top");
        assert_eq!(url("/search?q=a", None), "/search?q=a");
        let long = format!("/s?q={}", "x".repeat(60));
        assert_eq!(url(&long, None), "/s?…");
        assert_eq!(
            url("data:image/png;base64,AAAA", None),
            "data:image/png;base64,…"
        );
        assert_eq!(
            origin_of("https://a.example:8080/x?y"),
            Some("https://a.example:8080")
        );
        assert_eq!(origin_of("file:///tmp/x"), None);
        // The origin's length falling inside a character of the value (a fuzzed page): no
        // panic, the value unchanged.
        assert_eq!(url("https://shop.examp€le/x", o), "https://shop.examp€le/x");
        assert_eq!(url("€", Some("a")), "€");
    }

    #[test]
    fn implied_and_empty_attributes_are_redundant() {
        assert!(redundant("type", "text", "textbox"));
        assert!(!redundant("type", "password", "textbox"));
        assert!(redundant("type", "submit", "button"));
        assert!(redundant("role", "Button", "button"));
        assert!(redundant("aria-label", " ", "link"));
        assert!(!redundant("name", "q", "searchbox"));
    }
}
