//! Plans and todo lists as GitHub task lists: `- [x]` done, `- [ ]` open (in progress
//! said, cancelled struck through), the plan's title, overview and the user's answer.

use super::writer::Md;
use crate::labels::Label;
use crate::progress::headline;
use docstream_model::{ApprovalStatus, Document, PlanMeta, TodoStatus, TodoUpdateMeta};

/// One task list item.
fn item(md: &mut Md<'_>, status: TodoStatus, text: &str) {
    let done = status == TodoStatus::Completed;
    md.raw(if done { "- [x] " } else { "- [ ] " });
    match status {
        TodoStatus::Cancelled => {
            md.raw("~~").inline(text).raw("~~");
        }
        _ => {
            md.inline(text);
        }
    }
    let note = match status {
        TodoStatus::InProgress => Some(Label::InProgress),
        TodoStatus::Cancelled => Some(Label::Cancelled),
        TodoStatus::Unknown => Some(Label::UnknownStatus),
        TodoStatus::Pending | TodoStatus::Completed => None,
    };
    if let Some(key) = note {
        md.raw(" _(").label(key).raw(")_");
    }
    md.raw("\n");
}

pub(super) fn plan(md: &mut Md<'_>, m: &PlanMeta) {
    let heading = md.l(Label::PlanHeading);
    md.line(heading, &m.title);
    md.prose(&m.overview);
    for t in &m.todos {
        item(md, t.status, &t.content);
    }
    if !m.todos.is_empty() {
        md.raw("\n");
    }
    if let Some(a) = &m.approval {
        let key = match a.status {
            ApprovalStatus::Approved => Some(Label::PlanApproved),
            ApprovalStatus::Rejected => Some(Label::PlanRejected),
            ApprovalStatus::Unknown => None,
        };
        if let Some(key) = key {
            let answer = md.l(key);
            md.quote(answer, a.feedback.as_deref().unwrap_or(""));
        }
    }
}

pub(super) fn todo_update(md: &mut Md<'_>, doc: &Document, m: &TodoUpdateMeta) {
    if let Some(h) = headline(doc, md.opts.locale) {
        md.line(h.label, &h.summary);
    }
    let list = if m.merged_todos.is_empty() {
        &m.todos
    } else {
        &m.merged_todos
    };
    for t in list {
        item(md, t.status, t.content.as_deref().unwrap_or(&t.id));
    }
    if !list.is_empty() {
        md.raw("\n");
    }
}
