//! A turn's element: `<section class="ds-turn …">` with its header (the prompt of a user
//! turn, or the header of a response), then the response's documents.

use super::RenderOptions;
use super::document::push_duration;
use super::escape::Markup;
use super::labels::{Label, label};
use crate::model::{Response, ResponseStatus, Turn, UserTurn};

/// The closing tag of a turn's element.
pub const TURN_CLOSE: &str = "</section>\n";

/// Writes the opening tag of a turn's element (a turn's index never changes).
pub fn turn_open(index: usize, turn: &Turn, out: &mut String) {
    let class = match turn {
        Turn::User(_) => "ds-user",
        Turn::Assistant(_) => "ds-assistant",
    };
    out.raw("<section class=\"ds-turn ")
        .raw(class)
        .raw("\" data-turn-index=\"")
        .num(index as u64)
        .raw("\">\n");
}

/// Writes the header of a turn: one element, replaced whole when it changes.
pub fn turn_header(turn: &Turn, opts: &RenderOptions, out: &mut String) {
    match turn {
        Turn::User(u) => user_header(u, opts, out),
        Turn::Assistant(r) => response_header(r, opts, out),
    }
}

fn user_header(turn: &UserTurn, opts: &RenderOptions, out: &mut String) {
    out.raw("<div class=\"ds-turn-header ds-user-body\" data-turn-id=\"")
        .text(&turn.id)
        .raw("\"><div class=\"ds-role\">")
        .text(label(opts.locale, Label::You))
        .raw("</div>\n<div class=\"ds-user-content\">")
        .text(&turn.content)
        .raw("</div>\n");
    for a in &turn.attachments {
        out.raw("<div class=\"ds-attachment\">")
            .text(a.path.as_deref().unwrap_or(&a.kind))
            .raw("</div>\n");
    }
    out.raw("</div>\n");
}

fn response_header(response: &Response, opts: &RenderOptions, out: &mut String) {
    let (status, key) = match response.status {
        ResponseStatus::Streaming => ("streaming", Label::Streaming),
        ResponseStatus::Completed => ("completed", Label::Completed),
        ResponseStatus::Error => ("error", Label::Error),
    };
    out.raw("<div class=\"ds-turn-header\" data-turn-id=\"")
        .text(&response.id)
        .raw("\"><span class=\"ds-role\">")
        .text(label(opts.locale, Label::Assistant))
        .raw("</span>");
    if !response.model.is_empty() {
        out.raw(" <span class=\"ds-model\">")
            .text(&response.model)
            .raw("</span>");
    }
    if !response.mode.is_empty() {
        out.raw(" <span class=\"ds-mode\">")
            .text(&response.mode)
            .raw("</span>");
    }
    out.raw(" <span class=\"ds-response-status ds-response-")
        .raw(status)
        .raw("\">")
        .text(label(opts.locale, key))
        .raw("</span>");
    if let Some(u) = &response.usage {
        out.raw(" <span class=\"ds-usage\">")
            .text(label(opts.locale, Label::Usage))
            .raw(" ")
            .num(u.total_tokens)
            .raw(" ")
            .text(label(opts.locale, Label::Tokens))
            .raw("</span>");
    }
    if let Some(ms) = response.metadata.duration_ms {
        out.raw(" <span class=\"ds-duration\">")
            .text(label(opts.locale, Label::Duration))
            .raw(" ");
        push_duration(out, ms);
        out.raw("</span>");
    }
    out.raw("</div>\n");
}
