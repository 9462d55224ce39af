//! TeX formulas as MathML (feature `math`).
//!
//! The Markdown renderer writes a formula (`$…$`, `$$…$$`, pulldown-cmark's math
//! syntax) as its TeX source in `<code class="ds-math">` (`ds-math ds-math-display` for
//! display formulas): what every build shows, and what a reader without MathML keeps.
//! Where this module is built, the formula is also shown as MathML, which browsers
//! render natively: the CLI's pages get it from [`math_html`], the element from the
//! `docstream/math` module (`src/wasm/math.rs`) when the first formula appears. Both
//! put the `<math>` element right after the code and mark the code `data-ds-math`
//! (the stylesheet then hides it).
//!
//! pulldown-latex writes the MathML. Its output is checked before use: elements from a
//! fixed list of MathML Core's, attributes from a fixed list (its `style` attributes
//! are dropped: the page's CSP allows none), text escaped; anything else and the
//! formula stays code.

use std::borrow::Cow;

use pulldown_latex::config::DisplayMode;
use pulldown_latex::{Parser, RenderConfig, Storage, push_mathml};

use crate::escape::unescape;

/// Formulas longer than this stay code (a formula is a line or two of TeX).
const MAX_TEX: usize = 4096;

/// MathML elements a formula may use (MathML Core's presentation elements).
const ELEMENTS: &[&str] = &[
    "math",
    "semantics",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msqrt",
    "mroot",
    "mfrac",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mmultiscripts",
    "mprescripts",
    "none",
    "mtable",
    "mtr",
    "mtd",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "merror",
];

/// Attributes kept on them (layout only: no links, no styles, no events).
const ATTRIBUTES: &[&str] = &[
    "display",
    "displaystyle",
    "scriptlevel",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "form",
    "lspace",
    "rspace",
    "minsize",
    "maxsize",
    "largeop",
    "movablelimits",
    "symmetric",
    "accent",
    "accentunder",
    "linethickness",
    "width",
    "height",
    "depth",
    "voffset",
    "columnalign",
    "rowalign",
    "columnspan",
    "rowspan",
    "notation",
    "class",
];

/// The MathML of a TeX formula, or `None` when it does not parse, is too long, or its
/// MathML is not what [`checked`] lets through.
pub fn tex_to_mathml(tex: &str, display: bool) -> Option<String> {
    if tex.len() > MAX_TEX {
        return None;
    }
    let storage = Storage::new();
    let events: Vec<_> = Parser::new(tex, &storage).collect();
    if events.iter().any(Result::is_err) {
        return None;
    }
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..RenderConfig::default()
    };
    let mut mathml = String::new();
    push_mathml(&mut mathml, events.into_iter(), config).ok()?;
    checked(&mathml)
}

/// `mathml` with its tags checked against [`ELEMENTS`] and [`ATTRIBUTES`] (other
/// attributes dropped) and its text escaped (pulldown-latex writes operators such as
/// `<` raw: `<mo><</mo>`); `None` when an element is not on the list, a tag is not the
/// plain shape pulldown-latex writes (lower-case names, `name="value"` attributes), or
/// the whole is not one `<math>` element.
pub fn checked(mathml: &str) -> Option<String> {
    let bytes = mathml.as_bytes();
    let mut out = String::with_capacity(mathml.len());
    // The open elements, innermost last.
    let mut open: Vec<&str> = Vec::new();
    let mut seen_root = false;
    let mut i = 0;
    while i < bytes.len() {
        let is_tag = bytes[i] == b'<'
            && bytes
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_lowercase() || *c == b'/');
        if !is_tag {
            // Text: only inside the root.
            if open.is_empty() {
                return None;
            }
            let end =
                memchr::memchr2(b'<', b'>', &bytes[i + 1..]).map_or(bytes.len(), |n| i + 1 + n);
            match bytes[i] {
                b'<' => out.push_str("&lt;"),
                b'>' => out.push_str("&gt;"),
                _ => out.push_str(&mathml[i..end]),
            }
            i = if matches!(bytes[i], b'<' | b'>') {
                i + 1
            } else {
                end
            };
            continue;
        }
        let gt = i + memchr::memchr(b'>', &bytes[i..])?;
        let tag = &mathml[i + 1..gt];
        i = gt + 1;
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop() != Some(name) {
                return None;
            }
            out.push_str("</");
            out.push_str(name);
            out.push('>');
            continue;
        }
        let (body, self_closing) = match tag.strip_suffix('/') {
            Some(body) => (body.trim_end(), true),
            None => (tag, false),
        };
        let name_end = body
            .find(|c: char| !c.is_ascii_lowercase())
            .unwrap_or(body.len());
        let name = &body[..name_end];
        let root = open.is_empty();
        if !ELEMENTS.contains(&name) || root == seen_root || (root && name != "math") {
            return None;
        }
        seen_root = true;
        out.push('<');
        out.push_str(name);
        push_attributes(&body[name_end..], &mut out)?;
        if self_closing {
            if root {
                return None;
            }
            out.push_str(" />");
        } else {
            out.push('>');
            open.push(name);
        }
    }
    (seen_root && open.is_empty()).then_some(out)
}

/// The attributes of a tag (`attrs`: what follows its name) that [`ATTRIBUTES`] lists;
/// `None` when they are not ` name="value"` pairs.
fn push_attributes(mut attrs: &str, out: &mut String) -> Option<()> {
    loop {
        let trimmed = attrs.trim_start();
        if trimmed.is_empty() {
            return Some(());
        }
        if trimmed.len() == attrs.len() {
            return None;
        }
        let eq = trimmed.find("=\"")?;
        let name = &trimmed[..eq];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
            return None;
        }
        let value_end = eq + 2 + trimmed[eq + 2..].find('"')?;
        let value = &trimmed[eq + 2..value_end];
        if value.contains(['<', '&']) {
            return None;
        }
        if ATTRIBUTES.contains(&name) {
            out.push(' ');
            out.push_str(name);
            out.push_str("=\"");
            out.push_str(value);
            out.push('"');
        }
        attrs = &trimmed[value_end + 1..];
    }
}

const MATH_OPEN: &str = "<code class=\"ds-math";
const CODE_CLOSE: &str = "</code>";
/// What marks a formula shown as MathML.
const SHOWN: &str = " data-ds-math=\"\"";

/// A finished page with every formula also shown as MathML (the CLI's pages): after
/// each `<code class="ds-math…">` the renderer wrote, its `<math>` element.
pub fn math_html(html: &str) -> Cow<'_, str> {
    if !html.contains(MATH_OPEN) {
        return Cow::Borrowed(html);
    }
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut rest = html;
    while let Some(at) = rest.find(MATH_OPEN) {
        let after = &rest[at..];
        let (Some(tag_end), Some(close)) = (after.find('>'), after.find(CODE_CLOSE)) else {
            break;
        };
        if close < tag_end {
            break;
        }
        let tag = &after[..tag_end];
        let tex = unescape(&after[tag_end + 1..close]);
        let end = close + CODE_CLOSE.len();
        out.push_str(&rest[..at]);
        match tex_to_mathml(&tex, tag.contains("ds-math-display")) {
            Some(mathml) => {
                out.push_str(tag);
                out.push_str(SHOWN);
                out.push_str(&after[tag_end..end]);
                out.push_str(&mathml);
            }
            None => out.push_str(&after[..end]),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_become_mathml() {
        let inline = tex_to_mathml("x^2", false).unwrap();
        assert!(inline.starts_with("<math"), "{inline}");
        assert!(
            inline.contains("<msup>") && inline.contains(">2</mn>"),
            "{inline}"
        );
        let block = tex_to_mathml(r"\frac{a}{b}", true).unwrap();
        assert!(
            block.contains("display=\"block\"") && block.contains("<mfrac>"),
            "{block}"
        );
    }

    #[test]
    fn bad_tex_stays_code() {
        assert_eq!(tex_to_mathml(r"\frac{a", false), None);
        assert_eq!(tex_to_mathml(&"x".repeat(MAX_TEX + 1), false), None);
    }

    #[test]
    fn text_in_a_formula_is_text() {
        let m = tex_to_mathml(r#"\text{<img src=x onerror="alert(1)">}"#, false).unwrap();
        assert!(!m.contains("<img"), "{m}");
        assert!(m.contains("&lt;img"), "{m}");
    }

    #[test]
    fn colours_lose_their_style_attributes() {
        let m = tex_to_mathml(r"\color{red} x", false).unwrap();
        assert!(!m.contains("style"), "{m}");
        assert!(m.contains(">x</mi>"), "{m}");
    }

    #[test]
    fn the_check_refuses_what_pulldown_latex_never_writes() {
        let ok = r#"<math display="inline"><mi mathvariant="normal" style="color: red">x</mi><mspace width="1em" /></math>"#;
        assert_eq!(
            checked(ok).as_deref(),
            Some(
                r#"<math display="inline"><mi mathvariant="normal">x</mi><mspace width="1em" /></math>"#
            )
        );
        // An attribute off the list goes; the formula stays.
        assert_eq!(
            checked(r#"<math><mi href="javascript:alert(1)" onclick="x">x</mi></math>"#).as_deref(),
            Some("<math><mi>x</mi></math>")
        );
        assert_eq!(checked("<math><mglyph src=\"x\"></mglyph></math>"), None);
        assert_eq!(checked("<math><mi>x</mi></math><img src=x>"), None);
        assert_eq!(checked("<math><style>x</style></math>"), None);
        assert_eq!(checked("<mi>x</mi>"), None);
        assert_eq!(checked("<math><mi>x</mi>"), None);
        assert_eq!(checked("<math><mi x='1'>x</mi></math>"), None);
        assert_eq!(
            checked("<math><mo><</mo><mo>></mo></math>").as_deref(),
            Some("<math><mo>&lt;</mo><mo>&gt;</mo></math>"),
            "operators written raw are escaped"
        );
        assert_eq!(checked("<math><mi>x</mi></math><math></math>"), None);
        assert_eq!(checked("<math><mi>x</mo></math>"), None);
        assert_eq!(checked("text<math></math>"), None);
        assert_eq!(checked(""), None);
    }

    #[test]
    fn pages_show_formulas_after_their_code() {
        let html = r#"<p>Area <code class="ds-math">\pi r^2</code> and <code class="ds-math ds-math-display">a &lt; b</code>, <code class="ds-math">\frac{</code>.</p>"#;
        let out = math_html(html);
        assert!(
            out.contains(r#"<code class="ds-math" data-ds-math="">\pi r^2</code><math"#),
            "{out}"
        );
        assert!(
            out.contains(r#"<code class="ds-math ds-math-display" data-ds-math="">a &lt; b</code><math display="block""#),
            "{out}"
        );
        assert!(
            out.contains(r#"<code class="ds-math">\frac{</code>."#),
            "bad TeX stays code: {out}"
        );
        assert!(matches!(math_html("<p>no formulas</p>"), Cow::Borrowed(_)));
    }
}
