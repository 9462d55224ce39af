//! The `math` target: TeX to MathML and the check of MathML (src/render/math.rs).

use docstream_html::escape::escape;
use docstream_html::math::{MAX_DEPTH, checked, math_html, tex_to_mathml};

/// How deep `mathml`'s elements nest (its tags as the check writes them).
fn depth(mathml: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0);
    let mut rest = mathml;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').map_or(rest.len(), |e| at + e + 1);
        let tag = &rest[at..end];
        if tag.starts_with("</") {
            depth = depth.saturating_sub(1);
        } else if !tag.ends_with("/>") {
            depth += 1;
            deepest = deepest.max(depth);
        }
        rest = &rest[end..];
    }
    deepest
}

/// Whether `mathml` names a class of the page's own (`ds-…`).
fn page_class(mathml: &str) -> bool {
    mathml.split(" class=\"").skip(1).any(|rest| {
        rest.split('"')
            .next()
            .is_some_and(|value| value.split(' ').any(|c| c.starts_with("ds-")))
    })
}

/// The input's first byte picks inline (even) or display (odd); the rest is TeX, and
/// also MathML for the check alone. A formula's MathML is one `<math>` element, passes
/// the check unchanged, nests at most `MAX_DEPTH` deep and names no class of the
/// page's; whatever the check lets through does the same; a page of the formula is
/// written. Nothing panics.
pub fn math(input: &[u8]) {
    let (display, text) = match input {
        [b, rest @ ..] => (b & 1 == 1, String::from_utf8_lossy(rest)),
        [] => (false, "".into()),
    };
    if let Some(mathml) = tex_to_mathml(&text, display) {
        assert!(mathml.starts_with("<math"), "{mathml}");
        assert_eq!(
            checked(&mathml).as_deref(),
            Some(mathml.as_str()),
            "a formula's MathML does not pass the check unchanged"
        );
        assert!(depth(&mathml) <= MAX_DEPTH, "{mathml}");
        assert!(!page_class(&mathml), "{mathml}");
    }
    if let Some(once) = checked(&text) {
        assert_eq!(
            checked(&once).as_deref(),
            Some(once.as_str()),
            "checked MathML does not pass the check again unchanged"
        );
        assert!(depth(&once) <= MAX_DEPTH, "{once}");
        assert!(!page_class(&once), "{once}");
    }
    let class = if display {
        "ds-math ds-math-display"
    } else {
        "ds-math"
    };
    let page = format!("<p><code class=\"{class}\">{}</code></p>", escape(&text));
    let _ = math_html(&page);
}
