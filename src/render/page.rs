//! A standalone HTML page: styles included, no script needed to read it.

use super::escape::escape;
use super::{RenderOptions, labels::Locale, render_conversation};
use crate::model::Conversation;

/// The stylesheet (class names in `docs/classes.md`).
pub const STYLESHEET: &str = include_str!("../../assets/docstream.css");

/// Wraps rendered conversation HTML into a standalone page.
pub fn wrap_page(body: &str, title: &str, locale: Locale) -> String {
    let lang = match locale {
        Locale::En => "en",
        Locale::De => "de",
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src https:\">\n<title>{}</title>\n<style>\n{STYLESHEET}/* No script runs on this page: the copy controls are not shown. */\n.ds-page .ds-copy {{ display: none; }}\n</style>\n</head>\n<body class=\"ds-page\">\n{body}</body>\n</html>\n",
        escape(title)
    )
}

/// Renders a conversation as a standalone page.
pub fn render_page(conversation: &Conversation, title: &str, opts: &RenderOptions) -> String {
    wrap_page(&render_conversation(conversation, opts), title, opts.locale)
}
