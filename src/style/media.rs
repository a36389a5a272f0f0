//! Media queries, evaluated for one configured viewport.
//!
//! A small evaluator written by hand (no crate evaluates media queries outside a browser
//! engine): media types, `and` / `or` / `not`, the range syntax (`400px <= width < 800px`) and
//! the features pages use to pick a layout: `width`, `height`, `aspect-ratio`, `orientation`,
//! `resolution`, `prefers-*`, `hover`, `pointer`, `color`…
//! (<https://drafts.csswg.org/mediaqueries-4/>). A query that does not parse, or asks about a
//! feature not listed here, is false, as browsers treat unknown queries (`not all`).

use cssparser::{match_ignore_ascii_case, Delimiter, Parser, Token};

/// Parenthesised conditions nested deeper than this are false: real sheets nest two or three.
const MAX_NESTING: usize = 16;

/// The device the page's `@media` rules are evaluated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Viewport {
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
    /// `print` instead of `screen`.
    pub print: bool,
    /// `prefers-color-scheme: dark`.
    pub dark: bool,
    /// `prefers-reduced-motion: reduce`.
    pub reduced_motion: bool,
    /// `scripting: none`: the page is read as a browser that runs no scripts shows it (the
    /// no-script view, [`crate::parse::View`]); `scripting: enabled` otherwise.
    pub no_script: bool,
}

impl Default for Viewport {
    /// A desktop screen of 1280 × 800, as the live tests' Chromium uses.
    fn default() -> Self {
        Viewport {
            width: 1280,
            height: 800,
            print: false,
            dark: false,
            reduced_motion: false,
            no_script: false,
        }
    }
}

/// The parse failed: the query it was in is false.
struct Unknown;

type Res<T> = Result<T, Unknown>;

impl Viewport {
    /// Whether a media query list (`screen and (min-width: 768px), print`) matches. An empty
    /// list matches, as `<style>` without `media` does.
    ///
    /// ```
    /// use agent_snapshot::style::Viewport;
    ///
    /// let desktop = Viewport::default();
    /// assert!(desktop.matches_str("screen and (min-width: 1024px)"));
    /// assert!(!desktop.matches_str("(max-width: 767.98px)"));
    /// assert!(desktop.matches_str("not print and (orientation: landscape)"));
    /// ```
    pub fn matches_str(&self, media: &str) -> bool {
        self.matches(&mut Parser::new(media))
    }

    /// [`Viewport::matches_str`] on a parser (an `@media` prelude).
    pub fn matches(&self, input: &mut Parser<'_>) -> bool {
        if input.is_exhausted() {
            return true;
        }
        let mut any = false;
        loop {
            let one = input.parse_until_before(Delimiter::Comma, |i| {
                let r = self.query(i);
                // Anything left over makes the query unknown.
                Ok::<_, cssparser::ParseError<()>>(r.is_ok_and(|m| m && i.is_exhausted()))
            });
            any |= one.unwrap_or(false);
            if input.next().is_err() {
                return any;
            }
        }
    }

    /// `[not|only]? type [and condition]?` or a bare condition.
    fn query(&self, input: &mut Parser<'_>) -> Res<bool> {
        let state = input.state();
        let typed = input.try_parse(|i| {
            let first = i.expect_ident_cloned()?;
            if first.eq_ignore_ascii_case("not") || first.eq_ignore_ascii_case("only") {
                // `not (width < 600px)` is a negated condition, not a media type.
                let media_type = i.expect_ident_cloned()?;
                Ok((first.eq_ignore_ascii_case("not"), media_type))
            } else {
                Ok::<_, cssparser::BasicParseError>((false, first))
            }
        });
        if let Ok((negated, media_type)) = typed {
            let mut matched = match_ignore_ascii_case! { &*media_type,
                "all" => true,
                "screen" => !self.print,
                "print" => self.print,
                // `tv`, `handheld`, `speech`…: valid types this device is not.
                _ => false,
            };
            if input.try_parse(|i| i.expect_ident_matching("and")).is_ok() {
                matched &= self.condition(input, 0, false)?;
            }
            return Ok(matched != negated);
        }
        input.reset(&state);
        self.condition(input, 0, true)
    }

    /// `not (x)`, `(x) and (y) and …`, or (when `or` is allowed) `(x) or (y) or …`.
    fn condition(&self, input: &mut Parser<'_>, depth: usize, allow_or: bool) -> Res<bool> {
        if depth > MAX_NESTING {
            return Err(Unknown);
        }
        if input.try_parse(|i| i.expect_ident_matching("not")).is_ok() {
            return Ok(!self.in_parens(input, depth)?);
        }
        let mut value = self.in_parens(input, depth)?;
        let mut joiner: Option<bool> = None; // Some(true): and, Some(false): or
        while let Ok(word) = input.try_parse(|i| i.expect_ident_cloned()) {
            let and = match_ignore_ascii_case! { &word,
                "and" => true,
                "or" if allow_or => false,
                _ => return Err(Unknown),
            };
            // `and` and `or` do not mix without parentheses.
            if joiner.is_some_and(|j| j != and) {
                return Err(Unknown);
            }
            joiner = Some(and);
            let next = self.in_parens(input, depth)?;
            value = if and { value && next } else { value || next };
        }
        Ok(value)
    }

    /// `( condition )` or `( feature )`.
    fn in_parens(&self, input: &mut Parser<'_>, depth: usize) -> Res<bool> {
        input.expect_parenthesis_block().map_err(|_| Unknown)?;
        input
            .parse_nested_block(|i| {
                let state = i.state();
                let nested = match i.next() {
                    Ok(Token::ParenthesisBlock) => true,
                    Ok(Token::Ident(word)) => word.eq_ignore_ascii_case("not"),
                    _ => false,
                };
                i.reset(&state);
                let r = if nested {
                    self.condition(i, depth + 1, true)
                } else {
                    self.feature(i)
                };
                match r {
                    Ok(v) if i.is_exhausted() => Ok(v),
                    _ => Err(cssparser::ParseError::<()>::custom(())),
                }
            })
            .map_err(|_| Unknown)
    }

    /// `name`, `name: value`, `name op value`, `value op name`, `value op name op value`.
    fn feature(&self, input: &mut Parser<'_>) -> Res<bool> {
        if let Ok(name) = input.try_parse(|i| i.expect_ident_cloned()) {
            let name = name.to_ascii_lowercase();
            if input.is_exhausted() {
                return self.boolean(&name);
            }
            if input.try_parse(|i| i.expect_colon()).is_ok() {
                let value = Value::parse(input)?;
                let (base, cmp) = if let Some(b) = name.strip_prefix("min-") {
                    (b, Cmp::Ge)
                } else if let Some(b) = name.strip_prefix("max-") {
                    (b, Cmp::Le)
                } else {
                    (name.as_str(), Cmp::Eq)
                };
                return self.compare(base, cmp, &value);
            }
            let cmp = Cmp::parse(input)?;
            let value = Value::parse(input)?;
            return self.compare(&name, cmp, &value);
        }
        // `400px <= width` and `400px <= width <= 700px`.
        let low = Value::parse(input)?;
        let cmp = Cmp::parse(input)?;
        let name = input
            .expect_ident_cloned()
            .map_err(|_| Unknown)?
            .to_ascii_lowercase();
        let mut result = self.compare(&name, cmp.flip(), &low)?;
        if !input.is_exhausted() {
            let cmp2 = Cmp::parse(input)?;
            let high = Value::parse(input)?;
            result &= self.compare(&name, cmp2, &high)?;
        }
        Ok(result)
    }

    /// A feature used without a value: true unless its value would be zero or `none`.
    fn boolean(&self, name: &str) -> Res<bool> {
        Ok(match name {
            "width"
            | "height"
            | "device-width"
            | "device-height"
            | "aspect-ratio"
            | "device-aspect-ratio"
            | "resolution"
            | "color"
            | "hover"
            | "any-hover"
            | "pointer"
            | "any-pointer"
            | "orientation"
            | "display-mode"
            | "update"
            | "color-gamut"
            | "dynamic-range" => true,
            "prefers-reduced-motion" => self.reduced_motion,
            "scripting" => !self.no_script,
            "prefers-color-scheme" => true,
            "prefers-contrast"
            | "prefers-reduced-transparency"
            | "prefers-reduced-data"
            | "forced-colors"
            | "inverted-colors"
            | "grid"
            | "monochrome"
            | "color-index" => false,
            _ => return Err(Unknown),
        })
    }

    fn compare(&self, name: &str, cmp: Cmp, value: &Value) -> Res<bool> {
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        let number = |actual: f64, wanted: Option<f64>| match wanted {
            Some(v) => Ok(cmp.holds(actual, v)),
            None => Err(Unknown),
        };
        let keyword = |expected: &str| match value {
            Value::Ident(v) if cmp == Cmp::Eq => Ok(v.eq_ignore_ascii_case(expected)),
            _ => Err(Unknown),
        };
        match name {
            "width" | "device-width" => number(w, value.px(w, h)),
            "height" | "device-height" => number(h, value.px(w, h)),
            "aspect-ratio" | "device-aspect-ratio" => number(w / h, value.ratio()),
            "resolution" => number(1.0, value.dppx()),
            "-webkit-device-pixel-ratio" | "-webkit-min-device-pixel-ratio" => {
                number(1.0, value.number())
            }
            "color" => number(8.0, value.number()),
            "monochrome" | "grid" | "color-index" => number(0.0, value.number()),
            "orientation" => keyword(if h >= w { "portrait" } else { "landscape" }),
            "prefers-color-scheme" => keyword(if self.dark { "dark" } else { "light" }),
            "prefers-reduced-motion" => keyword(if self.reduced_motion {
                "reduce"
            } else {
                "no-preference"
            }),
            "prefers-contrast" | "prefers-reduced-transparency" | "prefers-reduced-data" => {
                keyword("no-preference")
            }
            "forced-colors" | "inverted-colors" => keyword("none"),
            "hover" | "any-hover" => keyword("hover"),
            "pointer" | "any-pointer" => keyword("fine"),
            "display-mode" => keyword("browser"),
            "scripting" => keyword(if self.no_script { "none" } else { "enabled" }),
            "update" => keyword("fast"),
            "color-gamut" => keyword("srgb"),
            "dynamic-range" => keyword("standard"),
            _ => Err(Unknown),
        }
    }
}

/// A comparison in a feature.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn parse(input: &mut Parser<'_>) -> Res<Cmp> {
        let first = match input.next() {
            Ok(Token::Delim(c)) => *c,
            _ => return Err(Unknown),
        };
        // `<=` is two tokens with nothing between them.
        let eq = input
            .try_parse(|i| match i.next_including_whitespace() {
                Ok(Token::Delim('=')) => Ok(()),
                _ => Err(()),
            })
            .is_ok();
        Ok(match (first, eq) {
            ('=', false) => Cmp::Eq,
            ('<', false) => Cmp::Lt,
            ('<', true) => Cmp::Le,
            ('>', false) => Cmp::Gt,
            ('>', true) => Cmp::Ge,
            _ => return Err(Unknown),
        })
    }

    /// The same comparison with its sides swapped (`400px < width` is `width > 400px`).
    fn flip(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Eq,
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
        }
    }

    fn holds(self, actual: f64, wanted: f64) -> bool {
        match self {
            Cmp::Eq => actual == wanted,
            Cmp::Lt => actual < wanted,
            Cmp::Le => actual <= wanted,
            Cmp::Gt => actual > wanted,
            Cmp::Ge => actual >= wanted,
        }
    }
}

/// A feature's value.
enum Value {
    Number(f64),
    Dimension(f64, String),
    Ratio(f64, f64),
    Ident(String),
}

impl Value {
    fn parse(input: &mut Parser<'_>) -> Res<Value> {
        let value = match input.next().map_err(|_| Unknown)? {
            Token::Number { value, .. } => Value::Number(f64::from(*value)),
            Token::Dimension { value, unit, .. } => {
                Value::Dimension(f64::from(*value), unit.to_ascii_lowercase())
            }
            Token::Ident(name) => return Ok(Value::Ident(name.to_string())),
            _ => return Err(Unknown),
        };
        if let Value::Number(n) = value {
            if input.try_parse(|i| i.expect_delim('/')).is_ok() {
                let d = input.expect_number().map_err(|_| Unknown)?;
                return Ok(Value::Ratio(n, f64::from(d)));
            }
        }
        Ok(value)
    }

    /// A length in CSS pixels (`em` and `rem` at the default 16px font size).
    fn px(&self, vw: f64, vh: f64) -> Option<f64> {
        match self {
            Value::Number(n) if *n == 0.0 => Some(0.0),
            Value::Dimension(v, unit) => Some(
                v * match unit.as_str() {
                    "px" => 1.0,
                    "em" | "rem" => 16.0,
                    "in" => 96.0,
                    "cm" => 96.0 / 2.54,
                    "mm" => 96.0 / 25.4,
                    "q" => 96.0 / 101.6,
                    "pt" => 96.0 / 72.0,
                    "pc" => 16.0,
                    "vw" => vw / 100.0,
                    "vh" => vh / 100.0,
                    _ => return None,
                },
            ),
            _ => None,
        }
    }

    fn ratio(&self) -> Option<f64> {
        match self {
            Value::Ratio(a, b) if *b != 0.0 => Some(a / b),
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    fn dppx(&self) -> Option<f64> {
        match self {
            Value::Dimension(v, unit) => Some(match unit.as_str() {
                "dppx" | "x" => *v,
                "dpi" => v / 96.0,
                "dpcm" => v * 2.54 / 96.0,
                _ => return None,
            }),
            _ => None,
        }
    }

    fn number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn desktop_viewport() {
        let vp = Viewport::default();
        for yes in [
            "",
            "all",
            "screen",
            "only screen and (min-width: 768px)",
            "(min-width:1024px) and (max-width:1439px)",
            "(width >= 1280px)",
            "(400px <= width <= 1400px)",
            "(orientation: landscape)",
            "(hover: hover) and (pointer: fine)",
            "not print",
            "print, (min-width: 1200px)",
            "(max-width: 600px) or (min-width: 1000px)",
            "not (max-width: 600px)",
            "((min-width: 80em))",
            "(prefers-color-scheme: light)",
            "(min-resolution: 1dppx)",
            "(min-aspect-ratio: 16/10)",
            "(prefers-reduced-motion: no-preference)",
        ] {
            assert!(vp.matches_str(yes), "{yes:?} should match");
        }
        for no in [
            "print",
            "speech",
            "(max-width: 767px)",
            "screen and (max-width: 1279.98px)",
            "(width < 1280px)",
            "not screen",
            "(orientation: portrait)",
            "(prefers-color-scheme: dark)",
            "(min-resolution: 2dppx)",
            "(-webkit-min-device-pixel-ratio: 2)",
            "(unknown-feature: 1)",
            "(min-width: 10 px)",
            "screen and",
            "(min-width: 1px) and (max-width: 2000px) or (color)",
            "garbage{}",
        ] {
            assert!(!vp.matches_str(no), "{no:?} should not match");
        }
    }

    #[test]
    fn configured_viewport() {
        let phone = Viewport {
            width: 390,
            height: 844,
            ..Default::default()
        };
        assert!(phone.matches_str("(max-width: 767px)"));
        assert!(phone.matches_str("(orientation: portrait)"));
        let print = Viewport {
            print: true,
            ..Default::default()
        };
        assert!(print.matches_str("print"));
        let no_script = Viewport {
            no_script: true,
            ..Default::default()
        };
        assert!(no_script.matches_str("(scripting: none)"));
        assert!(!no_script.matches_str("(scripting)"));
        assert!(Viewport::default().matches_str("(scripting: enabled)"));
        assert!(Viewport::default().matches_str("(scripting)"));
        assert!(!print.matches_str("screen and (min-width: 1px)"));
    }

    #[test]
    fn hostile_nesting_is_false_not_a_crash() {
        let deep = format!(
            "{}(min-width: 1px){}",
            "(".repeat(10_000),
            ")".repeat(10_000)
        );
        assert!(!Viewport::default().matches_str(&deep));
        let many = "(min-width: 1px) and ".repeat(10_000) + "(color)";
        assert!(Viewport::default().matches_str(&many));
    }
}
