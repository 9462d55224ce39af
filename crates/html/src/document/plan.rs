//! `plan`: title (or "Plan"), overview, the plan's body (Markdown), and, when it has
//! todos, progress and the todos in dependency order with their current status (the
//! normaliser applies each `todo_update` to the plan it follows).

use super::{l, todo_update::todo_status};
use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::Label;
use crate::markdown::{Slugs, render_markdown_into};
use crate::plan::{PlanProblem, plan_view};
use docstream_model::{ApprovalStatus, Document, PlanMeta};

pub(super) fn render(doc: &Document, meta: &PlanMeta, opts: &RenderOptions, out: &mut String) {
    let view = plan_view(meta);
    let mut body = doc.content.as_deref().filter(|b| !b.trim().is_empty());
    // An untitled plan whose body opens with a heading is titled by it (Claude Code's
    // and Codex's plans are Markdown that name themselves); Cursor's repeat their title
    // as the body's first heading.
    let title = match (view.title.as_str(), body.and_then(opening_heading)) {
        ("", Some((heading, rest))) => {
            body = Some(rest).filter(|b| !b.trim().is_empty());
            heading
        }
        ("", None) => l(opts, Label::PlanHeading),
        // The same heading again under the title says nothing new.
        (t, Some((heading, rest))) if heading == t => {
            body = Some(rest).filter(|b| !b.trim().is_empty());
            t
        }
        (t, _) => t,
    };
    out.raw("<h3 class=\"ds-plan-title\">").text(title);
    let chip = meta.approval.as_ref().and_then(|a| match a.status {
        ApprovalStatus::Approved => Some(("approved", Label::PlanApproved)),
        ApprovalStatus::Rejected => Some(("rejected", Label::PlanRejected)),
        ApprovalStatus::Unknown => None,
    });
    if let Some((class, label)) = chip {
        out.raw(" <span class=\"ds-plan-approval ds-plan-")
            .raw(class)
            .raw("\">")
            .text(l(opts, label))
            .raw("</span>");
    }
    out.raw("</h3>\n");
    if let Some(feedback) = meta.approval.as_ref().and_then(|a| a.feedback.as_deref()) {
        out.raw("<blockquote class=\"ds-plan-feedback\">")
            .text(feedback)
            .raw("</blockquote>\n");
    }
    if !view.todos.is_empty() {
        out.raw("<div class=\"ds-progress\"><progress max=\"")
            .num(view.total as u64)
            .raw("\" value=\"")
            .num(view.done as u64)
            .raw("\"></progress> ")
            .num(view.done as u64)
            .raw("/")
            .num(view.total as u64)
            .raw(" ")
            .text(l(opts, Label::Progress))
            .raw("</div>\n");
    }
    let md = opts.markdown(&doc.id);
    let mut slugs = Slugs::default();
    if !view.overview.is_empty() {
        out.raw("<div class=\"ds-plan-overview\">");
        render_markdown_into(&view.overview, &md, &mut slugs, out);
        out.raw("</div>\n");
    }
    if let Some(body) = body {
        out.raw("<div class=\"ds-plan-body\">");
        render_markdown_into(body, &md, &mut slugs, out);
        out.raw("</div>\n");
    }
    if view.todos.is_empty() && view.problems.is_empty() {
        return;
    }
    out.raw("<ol class=\"ds-todos\">\n");
    for t in &view.todos {
        let (key, class) = todo_status(t.status);
        out.raw("<li class=\"ds-todo ds-todo-")
            .raw(class)
            .raw(" ds-level-")
            .num(t.level.min(9) as u64)
            .raw("\" data-todo-id=\"")
            .text(&t.id)
            .raw("\"><span class=\"ds-todo-status\">")
            .text(l(opts, key))
            .raw("</span> <span class=\"ds-todo-content\">")
            .text(&t.content)
            .raw("</span>");
        if !t.dependencies.is_empty() {
            out.raw(" <span class=\"ds-todo-deps\">")
                .text(l(opts, Label::DependsOn))
                .raw(" ")
                .text(&t.dependencies.join(", "))
                .raw("</span>");
        }
        out.raw("</li>\n");
    }
    out.raw("</ol>\n");
    for p in &view.problems {
        out.raw("<div class=\"ds-plan-problem\">");
        match p {
            PlanProblem::UnknownDependency { todo, dependency } => {
                out.text(l(opts, Label::UnknownDependency))
                    .raw(": ")
                    .text(todo)
                    .raw(" → ")
                    .text(dependency);
            }
            PlanProblem::Cycle { todo } => {
                out.text(l(opts, Label::CyclicDependency))
                    .raw(": ")
                    .text(todo);
            }
        }
        out.raw("</div>\n");
    }
}

/// The text of an ATX heading on a body's first non-blank line, and the rest of it.
fn opening_heading(body: &str) -> Option<(&str, &str)> {
    let start = body.len() - body.trim_start().len();
    let line_end = body[start..].find('\n').map_or(body.len(), |i| start + i);
    let line = body[start..line_end].trim_end();
    let hashes = line.len() - line.trim_start_matches('#').len();
    let text = line[hashes..]
        .strip_prefix(' ')?
        .trim()
        .trim_end_matches('#')
        .trim();
    ((1..=6).contains(&hashes) && !text.is_empty()).then_some((text, &body[line_end..]))
}

#[cfg(test)]
mod tests {
    use super::opening_heading;

    #[test]
    fn an_opening_heading_titles_the_plan() {
        assert_eq!(
            opening_heading("\n## Rename greet ##\n\n1. Rename"),
            Some(("Rename greet", "\n\n1. Rename"))
        );
        assert_eq!(opening_heading("# Only"), Some(("Only", "")));
        for no in [
            "1. Rename\n# Later",
            "#NoSpace",
            "####### Seven",
            "#   ",
            "",
        ] {
            assert_eq!(opening_heading(no), None, "{no:?}");
        }
    }
}
