//! `error`: what failed, where, and the details; a warning (`AGENT_WARNING`) is one
//! line.

use super::l;
use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::Label;
use docstream_model::{Document, ErrorMeta};

/// The codes shown as one line, with their label: a warning (the run went on) and the
/// user stopping the agent are not failures.
const LINES: &[(&str, Label, &str)] = &[
    ("AGENT_WARNING", Label::Warning, "ds-warning-line"),
    ("AGENT_NOTE", Label::Note, "ds-warning-line ds-note-line"),
    (
        "USER_INTERRUPTED",
        Label::Stopped,
        "ds-warning-line ds-interrupted-line",
    ),
];

pub(super) fn render(doc: &Document, meta: &ErrorMeta, opts: &RenderOptions, out: &mut String) {
    if let Some((_, label, class)) = LINES.iter().find(|(code, ..)| meta.error_code == *code) {
        out.raw("<div class=\"")
            .raw(class)
            .raw("\" role=\"note\"><span class=\"ds-warning-label\">")
            .text(l(opts, *label))
            .raw("</span> ")
            .text(doc.text())
            .raw("</div>\n");
        return;
    }
    out.raw("<div class=\"ds-error-header\"><span class=\"ds-error-code\">")
        .text(&meta.error_code)
        .raw("</span> <span class=\"ds-error-source\">")
        .text(l(opts, Label::Source))
        .raw(" ")
        .text(&meta.source)
        .raw("</span></div>\n<div class=\"ds-error-message\">")
        .text(doc.text())
        .raw("</div>\n");
    if !meta.details.is_empty() {
        out.raw("<pre class=\"ds-error-details\" tabindex=\"0\">")
            .text(&meta.details)
            .raw("</pre>\n");
    }
}
