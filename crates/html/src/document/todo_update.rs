//! `todo_update`: the todos whose status changed; for a merging update, the whole list
//! with the changed todos marked.

use super::l;
use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::Label;
use docstream_model::{TodoStatus, TodoUpdateMeta};

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
    // A merging update shows the whole list it leaves, the todos it changed marked.
    let (list, marked) = if meta.merged_todos.is_empty() {
        (&meta.todos, false)
    } else {
        (&meta.merged_todos, true)
    };
    for t in list {
        let (key, class) = todo_status(t.status);
        out.raw("<li class=\"ds-todo ds-todo-").raw(class);
        if marked && meta.todos.iter().any(|c| c.id == t.id) {
            out.raw(" ds-todo-changed");
        }
        out.raw("\" data-todo-id=\"")
            .text(&t.id)
            .raw("\"><span class=\"ds-todo-status\">")
            .text(l(opts, key))
            .raw("</span> <span class=\"ds-todo-content\">")
            .text(t.content.as_deref().unwrap_or(&t.id))
            .raw("</span></li>\n");
    }
    out.raw("</ul>\n");
}
