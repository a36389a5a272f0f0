//! What the page says about itself, as a check on the region the scoring chose: the best
//! extractors (trafilatura's JSON-LD metadata, rs-trafilatura's page types) read the page's
//! structured data. Here it only *locates* visible text: a JSON-LD `Product`'s name and
//! description are looked up among the page's shown headings and text, and microdata
//! (`itemtype=…/Product`) names its element. The JSON-LD text itself is never output (it
//! sits in a `<script>`, which no reading path enters).
//!
//! Every walk is iterative (explicit stacks, arena links): no recursion on page depth or on
//! JSON depth (serde_json's parser stops at 128 levels).

use html5ever::local_name;
use serde_json::Value;

use super::element::PRODUCT_TYPES;
use super::measure::Page;
use crate::parse::{Dom, Element, NodeData, NodeId};

/// JSON-LD scripts longer than this are not read (a page's whole state dumped as JSON-LD).
pub(super) const MAX_JSON_LD: usize = 256 * 1024;
/// Characters of the description looked up in the page's text.
const KEY_CHARS: usize = 40;
/// A description shorter than this says too little to be found by.
const MIN_KEY_CHARS: usize = 20;
/// Shown characters a product region holds at least.
const MIN_REGION_TEXT: u32 = 100;
/// A product's name and description, from the page's JSON-LD.
#[derive(Default, Debug)]
struct Product {
    name: Option<String>,
    description: Option<String>,
}

/// schema.org types that say a page is something other than a product's page: an article
/// or post (a shop's blog post has product widgets with add-to-cart buttons), a recipe, a
/// thread, a category or results page. Site-wide types (`WebSite`, `Organization`,
/// `BreadcrumbList`, `WebPage`, `ItemPage`) say nothing of the kind.
const OTHER_KINDS: &[&str] = &[
    "Article",
    "NewsArticle",
    "BlogPosting",
    "LiveBlogPosting",
    "ScholarlyArticle",
    "TechArticle",
    "Report",
    "Recipe",
    "HowTo",
    "QAPage",
    "DiscussionForumPosting",
    "CollectionPage",
    "SearchResultsPage",
];

/// What a page's JSON-LD says of it.
#[derive(Default)]
struct JsonLd {
    /// The first product with a description (or at least a name).
    product: Option<Product>,
    /// A type of [`OTHER_KINDS`] is declared.
    other_kind: bool,
}

/// Reads the page's JSON-LD scripts.
fn json_ld(dom: &Dom, scripts: &[NodeId]) -> JsonLd {
    let mut found = JsonLd::default();
    for &script in scripts {
        let mut text = String::new();
        for c in dom.children(script) {
            if let Some(t) = dom.text(c) {
                text.push_str(t);
            }
        }
        if text.len() > MAX_JSON_LD {
            continue;
        }
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let mut stack = vec![&value];
        while let Some(v) = stack.pop() {
            match v {
                Value::Array(items) => stack.extend(items.iter().rev()),
                Value::Object(map) => {
                    let typed = |types: &[&str]| {
                        map.get("@type").is_some_and(|t| match t {
                            Value::String(s) => types.contains(&s.as_str()),
                            Value::Array(a) => a
                                .iter()
                                .any(|t| t.as_str().is_some_and(|s| types.contains(&s))),
                            _ => false,
                        })
                    };
                    found.other_kind |= typed(OTHER_KINDS);
                    if typed(PRODUCT_TYPES)
                        && found
                            .product
                            .as_ref()
                            .is_none_or(|p| p.description.is_none())
                    {
                        let text_of = |k: &str| {
                            map.get(k)
                                .and_then(Value::as_str)
                                .map(crate::text::normalize)
                                .filter(|s| !s.is_empty())
                        };
                        let product = Product {
                            name: text_of("name"),
                            description: text_of("description"),
                        };
                        if product.description.is_some() || found.product.is_none() {
                            found.product = Some(product);
                        }
                    }
                    stack.extend(map.values().rev());
                }
                _ => {}
            }
        }
    }
    found
}

/// The description's first words as they would render: tags a shop left in it dropped,
/// whitespace collapsed, `KEY_CHARS` at most. Then the same of its first line alone, when
/// that differs: a description's first line is often a heading of its own on the page
/// ("REDEFINING YOUR POTENTIAL" above the paragraph), so the two never meet in one text.
fn keys_of(description: &str) -> Vec<String> {
    let plain = crate::text::strip_tags(description);
    let key = |s: &str| -> Option<String> {
        let key: String = crate::text::normalize(s).chars().take(KEY_CHARS).collect();
        (key.chars().count() >= MIN_KEY_CHARS).then_some(key)
    };
    let mut keys: Vec<String> = key(&plain).into_iter().collect();
    let first_line = plain
        .split(['\n', '\r'])
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if let Some(line) = key(first_line).filter(|k| !keys.contains(k)) {
        keys.push(line);
    }
    keys
}

/// The shown text node holding `key`, first in document order.
fn find_text(page: &Page<'_>, key: &str) -> Option<NodeId> {
    let dom = page.dom;
    let min = key.len();
    dom.descendants(page.body).find(|&id| {
        matches!(dom.node(id).data, NodeData::Text(_))
            && !page.text_hidden(id)
            && dom.text(id).is_some_and(|t| {
                t.len() >= min.min(KEY_CHARS) && crate::text::normalize(t).contains(key)
            })
    })
}

/// Whether a heading's text is the product's name (or the name holds it, or it the name).
fn names(heading: &str, name: &str) -> bool {
    let h = heading.to_lowercase();
    let n = name.to_lowercase();
    !h.is_empty() && (h == n || (h.len() >= 8 && n.contains(&h)) || h.contains(&n))
}

/// The product region: a shown microdata product element; else the smallest element holding
/// both the JSON-LD product's name (as a shown `h1`) and the start of its description; else
/// the one holding a shown add-to-cart control and the `h1` nearest it (`bought_here`). A
/// region with less than `MIN_REGION_TEXT` of shown text is no region (a microdata `Product`
/// on the add-to-cart form only).
pub(super) fn product_region(page: &Page<'_>) -> Option<ProductRegion> {
    product_element(page).filter(|p| page.agg[p.region.index()].text >= MIN_REGION_TEXT)
}

/// Where a page's product is, and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ProductRegion {
    pub region: NodeId,
    /// Found by its add-to-cart control (`bought_here`), not by structured data: the region
    /// is the product's whole block, which the content chosen inside it grows to.
    pub by_control: bool,
}

fn product_element(page: &Page<'_>) -> Option<ProductRegion> {
    let structured = |region| ProductRegion {
        region,
        by_control: false,
    };
    let by_control = || {
        bought_here(page).map(|region| ProductRegion {
            region,
            by_control: true,
        })
    };
    if let Some(&first) = page.microdata_products.first() {
        // One product and its parts; several side by side are a category page's cards.
        return page.microdata_products[1..]
            .iter()
            .all(|&p| page.dom.is_ancestor(first, p))
            .then(|| structured(first));
    }
    if page.json_ld.is_empty() {
        return by_control();
    }
    // The page says what it is: a product shown as its `h1`, or something else (a shop's
    // blog post, whose product widgets have add-to-cart buttons too: growing it to one cost
    // an article 0.99 -> 0.88 on web2025), which is left alone. JSON-LD of neither (the
    // site's `WebSite`, `BreadcrumbList`, `ItemPage`) leaves it to the add-to-cart control.
    let dom = page.dom;
    let ld = json_ld(dom, &page.json_ld);
    let Some(product) = ld.product else {
        return if ld.other_kind { None } else { by_control() };
    };
    let heading = named_heading(page, &product)?;
    // The name and the start of the description, where both are shown; a product whose
    // description is not (it sits in a closed sheet or tab) is found by its add-to-cart
    // control.
    product
        .description
        .as_deref()
        .and_then(|d| keys_of(d).iter().find_map(|key| find_text(page, key)))
        .and_then(|description| dom.common_ancestor(heading, description))
        .map(structured)
        .or_else(by_control)
}

/// Words of a control that puts the page's product in the cart, in the languages of the
/// shops most agents meet (its text or `value`, lower-cased).
const BUY_WORDS: &[&str] = &[
    "add to cart",
    "add to bag",
    "add to basket",
    "add to trolley",
    "buy now",
    "buy it now",
    "in den warenkorb",
    "jetzt kaufen",
    "ajouter au panier",
    "acheter maintenant",
    "añadir al carrito",
    "agregar al carrito",
    "comprar ahora",
    "aggiungi al carrello",
    "in winkelwagen",
    "adicionar ao carrinho",
    "カートに入れる",
    "加入购物车",
];

/// The names shop software gives that control (`id`, `name` or `class`, lower-cased, `-`
/// and `_` dropped): WooCommerce's `add-to-cart`, Shopify's `AddToCart`, Amazon's
/// `add-to-cart-button`, `buy-now`.
const BUY_NAMES: &[&str] = &["addtocart", "addtobag", "addtobasket", "buynow"];

/// A page without structured data that sells one thing: its shown add-to-cart control and
/// the shown `h1` nearest it; the smallest element holding both is the product (its name,
/// price, options and, on most shops, its description). A page with more than `MAX_BUY`
/// such controls sells a list (a category page's cards): left alone.
fn bought_here(page: &Page<'_>) -> Option<NodeId> {
    let dom = page.dom;
    let mut buys = dom.elements().filter_map(|(id, el)| {
        let control = el.is_html(&local_name!("button"))
            || (el.is_html(&local_name!("input"))
                && el.attr(&local_name!("type")).is_some_and(|t| {
                    t.eq_ignore_ascii_case("submit") || t.eq_ignore_ascii_case("button")
                }));
        (control && page.control_shown(id) && says_buy(dom, id, el)).then_some(id)
    });
    let first = buys.next()?;
    if buys.nth(MAX_BUY - 1).is_some() {
        return None;
    }
    // The product's name is the `h1` nearest the control (a "follow the author" card may
    // have one too): the one whose common container with it is the deepest.
    page.h1s
        .iter()
        .filter_map(|&h| dom.common_ancestor(h, first))
        .max_by_key(|&c| dom.ancestors(c).count())
}

/// Add-to-cart controls one product's page shows at most (the form's, a sticky bar's, "buy
/// now").
const MAX_BUY: usize = 3;

fn says_buy(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    let squeezed = |v: &str| {
        v.chars()
            .filter(|c| *c != '-' && *c != '_')
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let named = [local_name!("id"), local_name!("name"), local_name!("class")]
        .iter()
        .filter_map(|a| el.attr(a))
        .any(|v| {
            let v = squeezed(v);
            BUY_NAMES.iter().any(|n| v.contains(n))
        });
    if named {
        return true;
    }
    let mut text = el
        .attr(&local_name!("value"))
        .unwrap_or_default()
        .to_string();
    for d in dom.descendants(id).take(64) {
        if let Some(t) = dom.text(d) {
            text.push(' ');
            text.push_str(t);
        }
    }
    let text = crate::text::normalize(&text);
    text.len() <= 80 && crate::text::mentions_any(&text, BUY_WORDS)
}

/// The shown `h1` that names the JSON-LD product.
fn named_heading(page: &Page<'_>, product: &Product) -> Option<NodeId> {
    let dom = page.dom;
    let name = product.name.as_deref()?;
    page.h1s.iter().copied().find(|&h| {
        let mut text = String::new();
        for d in dom.descendants(h) {
            if let Some(t) = dom.text(d) {
                text.push_str(t);
            }
        }
        names(&crate::text::normalize(&text), name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_is_the_description_start_without_tags() {
        assert_eq!(
            keys_of("<p>Hand-thrown  stoneware mug, glazed\nin blue.</p>"),
            [
                "Hand-thrown stoneware mug, glazed in blu",
                "Hand-thrown stoneware mug, glazed"
            ]
        );
        assert_eq!(
            keys_of("REDEFINING YOUR POTENTIAL\nThe Arrival T-Shirt is your admission"),
            [
                "REDEFINING YOUR POTENTIAL The Arrival T-",
                "REDEFINING YOUR POTENTIAL"
            ]
        );
        assert!(keys_of("Short.").is_empty());
    }

    #[test]
    fn headings_name_the_product() {
        assert!(names("Atelier Sofa", "Atelier Sofa"));
        assert!(names("Atelier Sofa – 3 seats", "Atelier Sofa"));
        assert!(!names("Reviews", "Atelier Sofa"));
    }
}

#[cfg(test)]
mod region_tests {
    use super::*;
    use crate::aria::Index;
    use crate::style::Styles;

    fn region_id(html: &str) -> Option<String> {
        let dom = Dom::parse(html);
        let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
        let page = Page::measure(&dom, &index, crate::content::Cleaning::Strict);
        let region = product_region(&page)?.region;
        dom.element(region)?
            .attr(&local_name!("id"))
            .map(str::to_string)
    }

    const DESCRIPTION: &str = "Hand-thrown stoneware mug with a speckled glaze, fired twice \
                               for a glassy finish that keeps coffee warm. Each mug is unique.";

    #[test]
    fn json_ld_locates_the_product_by_its_name_and_description() {
        let html = format!(
            "<html><head><script type=application/ld+json>{{\"@graph\":[{{\"@type\":\
             \"WebPage\"}},{{\"@type\":[\"Product\"],\"name\":\"Speckled Mug\",\
             \"description\":\"<p>{DESCRIPTION}</p>\"}}]}}</script></head><body>\
             <div id=top><div id=product><h1>Speckled Mug</h1><p>$32.00, in stock</p>\
             <div><p>{DESCRIPTION}</p></div></div><div id=reviews><p>Great.</p></div></div>"
        );
        assert_eq!(region_id(&html).as_deref(), Some("product"));
        // Named by no shown heading: no region.
        assert_eq!(region_id(&html.replace("<h1>Speckled Mug</h1>", "")), None);
    }

    #[test]
    fn without_structured_data_the_buy_button_locates_the_product() {
        let page = |buttons: &str| {
            format!(
                "<h1>Follow the author</h1><div id=dp><div><h1>Speckled Mug</h1>\
                 <p>{DESCRIPTION}</p></div><div>{buttons}</div></div>"
            )
        };
        // Its text in the shop's language, or the name shop software gives it; the `h1`
        // nearest it names the product.
        for button in [
            "<button>Add to Cart</button>",
            "<input type=submit value='In den Warenkorb'>",
            "<button id=AddToCart><svg></svg></button>",
            "<input type=submit name=add-to-cart value=1><button>Buy now</button>",
        ] {
            assert_eq!(region_id(&page(button)).as_deref(), Some("dp"), "{button}");
        }
        // A list of things to buy (a category page's cards), a hidden button, none: no region.
        let cards = "<button>Add to cart</button>".repeat(4);
        assert_eq!(region_id(&page(&cards)), None);
        assert_eq!(
            region_id(&page("<button hidden>Add to cart</button>")),
            None
        );
        assert_eq!(region_id(&page("<button>Share</button>")), None);
    }
}
