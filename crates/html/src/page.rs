//! A standalone HTML page: styles included, no script needed to read it. The frame is
//! `assets/page.html`, which the package's `<docstream-view>.page()` fills too, so the
//! CLI's pages and the viewer's export are the same page.

use std::borrow::Cow;

use crate::escape::escape;
use crate::{RenderOptions, labels::Locale, render_conversation};
use docstream_model::Conversation;

/// The stylesheet (class names in `docs/classes.md`).
pub const STYLESHEET: &str = include_str!("../../../assets/docstream.css");

/// The page frame, with `{lang}`, `{attributes}`, `{title}`, `{style}` and `{body}` to
/// fill.
const FRAME: &str = include_str!("../../../assets/page.html");

/// A page body as a page without a script shows it: formulas also as MathML (feature
/// `math`) and, with `colours`, code coloured (feature `highlight`). The passes a page
/// gets in one place, for the CLI's pages and the library's site alike.
pub fn dressed(body: &str, colours: bool) -> Cow<'_, str> {
    #[cfg(feature = "math")]
    let body = crate::math::math_html(body);
    #[cfg(not(feature = "math"))]
    let body = Cow::Borrowed(body);
    #[cfg(feature = "highlight")]
    if colours && let Cow::Owned(coloured) = crate::syntax::highlight_html(&body) {
        return Cow::Owned(coloured);
    }
    #[cfg(not(feature = "highlight"))]
    let _ = colours;
    body
}

/// Wraps rendered conversation HTML into a standalone page.
pub fn wrap_page(body: &str, title: &str, locale: Locale) -> String {
    let lang = match locale {
        Locale::En => "en",
        Locale::De => "de",
    };
    let title = escape(title);
    fill_frame(|slot| match slot {
        "lang" => Some(lang),
        "attributes" => Some(""),
        "title" => Some(&title),
        "style" => Some(STYLESHEET),
        "body" => Some(body),
        _ => None,
    })
}

/// The frame with each `{slot}` replaced by `value(slot)`, in one pass over the frame
/// only (a value that holds `{body}` stays as it is); unknown slots are kept.
fn fill_frame<'a>(value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(FRAME.len() + STYLESHEET.len());
    let mut rest = FRAME;
    while let Some(open) = rest.find('{') {
        let (before, from) = rest.split_at(open);
        out.push_str(before);
        let slot = from[1..].find('}').map(|end| &from[1..1 + end]);
        match slot.and_then(|s| value(s).map(|v| (s, v))) {
            Some((s, v)) => {
                out.push_str(v);
                rest = &from[s.len() + 2..];
            }
            None => {
                out.push('{');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Renders a conversation as a standalone page.
pub fn render_page(conversation: &Conversation, title: &str, opts: &RenderOptions) -> String {
    wrap_page(&render_conversation(conversation, opts), title, opts.locale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_is_filled_once() {
        let page = wrap_page("<p>{title}</p>\n", "a {body} <b>", Locale::De);
        assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"de\">\n"));
        assert!(page.contains("<title>a {body} &lt;b&gt;</title>"));
        assert!(page.contains("<body class=\"ds-page\">\n<p>{title}</p>\n</body>\n</html>\n"));
        assert!(page.contains(".ds-page .ds-copy { display: none; }"));
        assert!(page.contains(STYLESHEET));
    }
}
