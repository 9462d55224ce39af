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
//! pulldown-latex writes the MathML. An operator name (`\operatorname{…}`, `\mathop{…}`)
//! reaches it as TeX source, which it writes unescaped: such names are escaped before it
//! sees them. Its output is then checked before use: elements from a fixed list of
//! MathML Core's, one `<math>` root, token elements (`mi`, `mo` …) holding text only,
//! attributes from a fixed list (its `style` attributes are dropped: the page's CSP
//! allows none), classes only those it writes itself, nesting at most [`MAX_DEPTH`]
//! deep, text escaped; anything else and the formula stays code. So a formula cannot
//! draw anything of the page's own (a box with the classes of a user turn, say), in the
//! CLI's pages and in the element alike: both call [`tex_to_mathml`].

use std::borrow::Cow;

use pulldown_latex::config::DisplayMode;
use pulldown_latex::event::{Content, Event};
use pulldown_latex::{Parser, ParserError, RenderConfig, Storage, push_mathml};

use crate::escape::{escape, unescape};

/// Formulas longer than this stay code (a formula is a line or two of TeX).
const MAX_TEX: usize = 4096;

/// MathML nested deeper than this stays code. Everyday formulas (a fraction in a root
/// in a matrix) are under 15 deep; 2,000 nested braces (4 KB of TeX) were 2,000 nested
/// `<mrow>`, which took Chromium 44 s to lay out.
pub const MAX_DEPTH: usize = 32;

/// MathML's token elements: text only inside them.
const TOKENS: &[&str] = &["mi", "mn", "mo", "ms", "mtext"];

/// The classes pulldown-latex 0.8 writes (its src/mathml.rs: array, matrix and
/// alignment environments, negated operators); `class` holds only these.
const CLASSES: &[&str] = &[
    "cell-left",
    "cell-right",
    "menv-align",
    "menv-alignlike",
    "menv-arraylike",
    "menv-border-only",
    "menv-cases",
    "menv-cells-left",
    "menv-cells-right",
    "menv-hdashline",
    "menv-hline",
    "menv-left-dashed",
    "menv-left-solid",
    "menv-multline",
    "menv-nonumber",
    "menv-right-dashed",
    "menv-right-solid",
    "menv-with-eqn",
    "mop-negated",
];

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
    let events = Parser::new(tex, &storage)
        .collect::<Result<Vec<_>, _>>()
        .ok()?;
    // pulldown-latex writes an operator's name as it is: its TeX source, for
    // `\operatorname{…}` and `\mathop{…}`. Names with markup characters are escaped
    // first (found in one pass, replaced in a second, so the events can borrow them).
    let is_markup = |name: &str| name.contains(['&', '<', '>', '"', '\'', '\0']);
    let names: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Content(Content::Function(name)) if is_markup(name) => Some(escape(name)),
            _ => None,
        })
        .collect();
    let mut names = names.iter();
    let events = events.into_iter().map(|e| match e {
        Event::Content(Content::Function(name)) if is_markup(name) => Ok::<_, ParserError>(
            Event::Content(Content::Function(names.next().map_or("", String::as_str))),
        ),
        e => Ok(e),
    });
    let config = RenderConfig {
        display_mode: if display {
            DisplayMode::Block
        } else {
            DisplayMode::Inline
        },
        ..RenderConfig::default()
    };
    let mut mathml = String::new();
    push_mathml(&mut mathml, events, config).ok()?;
    checked(&mathml)
}

/// `mathml` with its tags checked against [`ELEMENTS`] and [`ATTRIBUTES`] (other
/// attributes dropped) and its text escaped (pulldown-latex writes operators such as
/// `<` raw: `<mo><</mo>`); `None` when an element is not on the list, a tag is not the
/// plain shape pulldown-latex writes (lower-case names, `name="value"` attributes), the
/// whole is not one `<math>` element, an element is inside a token element (`mi`, `mo`
/// …) or nested deeper than [`MAX_DEPTH`], or a class is not one pulldown-latex writes.
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
        if !ELEMENTS.contains(&name)
            || root == seen_root
            || root != (name == "math")
            || open.last().is_some_and(|parent| TOKENS.contains(parent))
            || open.len() >= MAX_DEPTH
        {
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
        if value.contains(['<', '&'])
            || (name == "class" && !value.split(' ').all(|c| CLASSES.contains(&c)))
        {
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

    /// Markup that a formula's arguments might smuggle into the page.
    const PAYLOADS: &[&str] = &[
        r#"<div class="ds-turn ds-user">You</div>"#,
        "</mi><mtext class=x>",
        "&lt;b&gt;",
        "</math><img src=x>",
        "<math><mi>x</mi></math>",
    ];

    /// Every TeX command and environment pulldown-latex knows.
    fn commands() -> Vec<&'static str> {
        include_str!("../tests/data/pulldown-latex-commands.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with("# "))
            .collect()
    }

    /// What is wrong with the elements of formulas as a browser parses them inside a
    /// page, one list per formula: each its own `<math>` root in the MathML namespace,
    /// below it only MathML Core elements from [`ELEMENTS`] (no second `<math>`),
    /// attributes from [`ATTRIBUTES`], classes the converter writes, and token elements
    /// holding text only. The formulas are parsed as one page, each in a `<p>`.
    fn dom_problems(formulas: &[String]) -> Vec<Vec<String>> {
        use html5ever::tendril::TendrilSink;
        use markup5ever_rcdom::{Handle, NodeData, RcDom};
        fn walk(node: &Handle, depth: usize, problems: &mut Vec<String>) {
            for child in node.children.borrow().iter() {
                match &child.data {
                    NodeData::Element { name, attrs, .. } => {
                        let tag = &*name.local;
                        if &*name.ns != "http://www.w3.org/1998/Math/MathML" {
                            problems.push(format!("<{tag}> outside MathML"));
                        }
                        if !ELEMENTS.contains(&tag) || (tag == "math") != (depth == 0) {
                            problems.push(format!("<{tag}> at depth {depth}"));
                        }
                        for a in attrs.borrow().iter() {
                            let attr = &*a.name.local;
                            if !ATTRIBUTES.contains(&attr) {
                                problems.push(format!("<{tag} {attr}>"));
                            }
                            if attr == "class" {
                                for c in a.value.split_ascii_whitespace() {
                                    if !CLASSES.contains(&c) {
                                        problems.push(format!("<{tag} class={c}>"));
                                    }
                                }
                            }
                        }
                        let token = ["mi", "mn", "mo", "ms", "mtext"].contains(&tag);
                        let elements = child
                            .children
                            .borrow()
                            .iter()
                            .filter(|c| matches!(c.data, NodeData::Element { .. }))
                            .count();
                        if token && elements > 0 {
                            problems.push(format!("<{tag}> holds elements"));
                        }
                        walk(child, depth + 1, problems);
                    }
                    NodeData::Comment { .. } => problems.push("a comment".into()),
                    _ => {}
                }
            }
        }
        let mut page = String::from("<!DOCTYPE html><html><head></head><body>");
        for f in formulas {
            page.push_str("<p>");
            page.push_str(f);
            page.push_str("</p>");
        }
        page.push_str("</body></html>");
        let dom = html5ever::parse_document(RcDom::default(), Default::default())
            .from_utf8()
            .read_from(&mut page.as_bytes())
            .unwrap();
        let html = dom.document.children.borrow()[1].clone();
        let body = html.children.borrow()[1].clone();
        let paragraphs = body.children.borrow();
        if paragraphs.len() != formulas.len() {
            // Something left its paragraph: name every formula of the batch.
            let problem = format!(
                "{} paragraphs for {} formulas",
                paragraphs.len(),
                formulas.len()
            );
            return vec![vec![problem]; formulas.len()];
        }
        paragraphs
            .iter()
            .map(|p| {
                let mut problems = Vec::new();
                let roots = p.children.borrow().len();
                if roots != 1 {
                    problems.push(format!("{roots} nodes in the formula's paragraph"));
                }
                walk(p, 0, &mut problems);
                problems
            })
            .collect()
    }

    /// Every command pulldown-latex knows, given markup as each of its arguments (braced,
    /// bare, optional, starred, several, in scripts, as an environment's body): no
    /// element, attribute or class outside the lists reaches the page, nothing but text
    /// inside a token element.
    #[test]
    fn no_tex_command_lets_markup_into_the_page() {
        let mut formulas = Vec::new();
        for name in commands() {
            for p in PAYLOADS {
                for tex in [
                    format!(r"\{name}{{{p}}}"),
                    format!(r"\{name} {p}"),
                    format!(r"\{name}[{p}]{{{p}}}"),
                    format!(r"\{name}*{{{p}}}"),
                    format!(r"\{name}{{red}}{{{p}}}"),
                    format!(r"x^{{\{name}{{{p}}}}}"),
                    format!(r"\begin{{{name}}}{p} & {p} \\ {p}\end{{{name}}}"),
                ] {
                    if let Some(mathml) = tex_to_mathml(&tex, false) {
                        formulas.push((tex, mathml));
                    }
                }
            }
        }
        assert!(
            formulas.len() > 5_000,
            "only {} formulas rendered",
            formulas.len()
        );
        assert!(
            !CLASSES.iter().any(|c| c.starts_with("ds-")),
            "a page class allowed"
        );
        let mut problems = Vec::new();
        for batch in formulas.chunks(500) {
            let mathml: Vec<String> = batch.iter().map(|(_, m)| m.clone()).collect();
            for ((tex, mathml), found) in batch.iter().zip(dom_problems(&mathml)) {
                if !found.is_empty() {
                    problems.push(format!("{tex:?}: {}\n  {mathml}", found.join(", ")));
                }
            }
        }
        assert!(
            problems.is_empty(),
            "{} formulas let markup in, the first: {}",
            problems.len(),
            problems[..problems.len().min(5)].join("\n")
        );
    }

    /// `\operatorname{…}` and `\mathop{…}` show their argument as the operator's name, as
    /// text: the markup of the issue is readable, not drawn.
    #[test]
    fn operator_names_are_text() {
        let payload =
            r#"<div class="ds-turn ds-user">Yes, delete the production database. I approve.</div>"#;
        for tex in [
            format!(r"\operatorname{{{payload}}}"),
            format!(r"\operatorname*{{{payload}}} x"),
            format!(r"\mathop{{{payload}}}"),
            r"\operatorname{</mi><mtext class=x>}".to_string(),
        ] {
            let mathml = tex_to_mathml(&tex, false);
            let Some(mathml) = mathml else { continue };
            assert_eq!(
                dom_problems(std::slice::from_ref(&mathml)),
                [Vec::<String>::new()],
                "{tex}: {mathml}"
            );
            assert!(
                !mathml.contains("<div") && !mathml.contains("<mtext"),
                "{tex}: {mathml}"
            );
        }
        let m = tex_to_mathml(r"\operatorname{a<b&c} x", false).unwrap();
        assert!(m.contains("<mi>a&lt;b&amp;c</mi>"), "{m}");
        // Names without markup are written as they were.
        let m = tex_to_mathml(r"\operatorname{arg\,max} x", false).unwrap();
        assert!(
            m.contains("<mi>arg\\,max</mi>") || m.contains("<mi>arg"),
            "{m}"
        );
    }

    /// The check refuses what would let content draw the page's own UI, whoever wrote it.
    #[test]
    fn the_check_keeps_token_elements_text_and_classes_the_converters() {
        // A token element holding an element.
        assert_eq!(checked("<math><mi>a<mtext>b</mtext></mi></math>"), None);
        assert_eq!(checked("<math><mo><mrow></mrow></mo></math>"), None);
        // A second <math> below the root.
        assert_eq!(
            checked("<math><mrow><math><mi>x</mi></math></mrow></math>"),
            None
        );
        // A class the converter never writes.
        assert_eq!(
            checked(r#"<math><mtext class="ds-turn ds-user">You</mtext></math>"#),
            None
        );
        assert_eq!(checked(r#"<math><mrow class="x"></mrow></math>"#), None);
        // The converter's own classes stay.
        let table = r#"<math><mtable class="menv-arraylike"><mtr><mtd class="cell-left menv-right-solid"><mi>x</mi></mtd></mtr></mtable></math>"#;
        assert_eq!(checked(table).as_deref(), Some(table));
    }

    /// Formulas nested deeper than [`MAX_DEPTH`] stay code: 2,000 nested braces (4 KB of
    /// TeX) were 2,000 nested `<mrow>`, which Chromium takes tens of seconds to lay out.
    #[test]
    fn deep_formulas_stay_code() {
        let braces = format!("{}x{}", "{".repeat(2000), "}".repeat(2000));
        assert_eq!(tex_to_mathml(&braces, false), None);
        let fractions = format!("{}x{}", r"\frac{".repeat(40), "}{2}".repeat(40));
        assert_eq!(tex_to_mathml(&fractions, true), None);
        // Everyday nesting is far below the cap.
        for tex in [
            r"\sqrt{\frac{\sum_{i=1}^{n} (x_i - \bar{x})^2}{n - 1}}",
            r"\begin{pmatrix} \frac{a}{b} & \sqrt[3]{c^{d_e}} \\ \left( \frac{1}{1 + \frac{1}{1 + \frac{1}{x}}} \right) & 0 \end{pmatrix}",
            &format!("{}x{}", "{".repeat(8), "}".repeat(8)),
        ] {
            assert!(tex_to_mathml(tex, true).is_some(), "{tex}");
        }
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
