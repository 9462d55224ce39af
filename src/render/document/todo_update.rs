//! `todo_update`: the todos whose status changed.

use super::super::RenderOptions;
use super::super::escape::Markup;
use super::super::labels::Label;
use super::l;
use crate::model::{TodoStatus, TodoUpdateMeta};

/// The label and class of a todo's status.
pub(super) fn todo_status(status: TodoStatus) -> (Label, &'static str) {
    match status {
        TodoStatus::Pending => (Label::Pending, "pending"),
        TodoStatus::InProgress => (Label::InProgress, "in_progress"),
        TodoStatus::Completed => (Label::Completed, "completed"),
        TodoStatus::Cancelled => (Label::Cancelled, "cancelled"),
        TodoStatus::Unknown => (Label::UnknownStatus, "unknown"),
    }
}

pub(super) fn render(meta: &TodoUpdateMeta, opts: &RenderOptions, out: &mut String) {
    out.raw("<div class=\"ds-label\">")
        .text(l(opts, Label::TodoUpdate))
        .raw("</div>\n<ul class=\"ds-todos\">\n");
    for t in &meta.todos {
        let (key, class) = todo_status(t.status);
        out.raw("<li class=\"ds-todo ds-todo-")
            .raw(class)
            .raw("\" data-todo-id=\"")
            .text(&t.id)
            .raw("\"><span class=\"ds-todo-status\">")
            .text(l(opts, key))
            .raw("</span> <span class=\"ds-todo-content\">")
            .text(t.content.as_deref().unwrap_or(&t.id))
            .raw("</span></li>\n");
    }
    out.raw("</ul>\n");
}
