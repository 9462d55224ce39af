//! Renderers: safe HTML for every document type, the diff and plan view objects and
//! plain-text progress lines (SPEC §5).
//!
//! Renderers read the conversation and never change it; they are pure functions of the
//! state and [`RenderOptions`]: no clock, no IO.

pub mod blocks;
pub mod diff;
pub mod escape;
pub mod labels;
pub mod markdown;
pub mod page;
pub mod patch;
pub mod plan;
pub mod progress;
pub mod terminal;
pub mod tool_call;
pub mod url;

use serde::{Deserialize, Serialize};

use crate::model::{
    CallStatus, Conversation, Document, Meta, Response, ResponseStatus, TextFormat, TodoChange,
    TodoStatus, Turn, UserTurn,
};
use escape::{class_fragment, escape, push_escaped};
use labels::{Label, Locale, label};
use markdown::{MarkdownOptions, render_markdown};

/// Which diff view(s) a `file_edit` shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum DiffMode {
    /// Both views; the stylesheet shows the unified one and the embedder may switch.
    #[default]
    Both,
    /// Only the unified view.
    Unified,
    /// Only the side-by-side view.
    SideBySide,
}

/// Options of the renderers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderOptions {
    /// Language of the labels.
    pub locale: Locale,
    /// Origins (`https://host[:port]`) whose images may be loaded; none by default.
    pub image_origins_allowed: Vec<String>,
    /// Which diff views to show.
    pub diff_mode: DiffMode,
}

fn md(source: &str, opts: &RenderOptions, prefix: &str) -> String {
    render_markdown(
        source,
        &MarkdownOptions {
            image_origins_allowed: &opts.image_origins_allowed,
            anchor_prefix: prefix,
        },
    )
}

fn l(opts: &RenderOptions, key: Label) -> &'static str {
    label(opts.locale, key)
}

fn status_label(status: CallStatus) -> (Label, &'static str) {
    match status {
        CallStatus::Running => (Label::Running, "running"),
        CallStatus::Success => (Label::Success, "success"),
        CallStatus::Error => (Label::Error, "error"),
        CallStatus::Rejected => (Label::Rejected, "rejected"),
    }
}

fn status_badge(out: &mut String, status: CallStatus, opts: &RenderOptions) {
    let (key, class) = status_label(status);
    out.push_str(&format!(
        "<span class=\"ds-status ds-status-{class}\">{}</span>",
        escape(l(opts, key))
    ));
}

/// Formats a duration in milliseconds: `850 ms`, `2.4 s`, `3 min 5 s`.
pub fn format_duration(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        format!("{}.{} s", ms / 1000, (ms % 1000) / 100)
    } else {
        format!("{} min {} s", ms / 60_000, (ms % 60_000) / 1000)
    }
}

fn duration_span(out: &mut String, ms: Option<u64>, opts: &RenderOptions) {
    if let Some(ms) = ms {
        out.push_str(&format!(
            " <span class=\"ds-duration\">{} {}</span>",
            escape(l(opts, Label::Duration)),
            format_duration(ms)
        ));
    }
}

fn todo_status(status: TodoStatus) -> (Label, &'static str) {
    match status {
        TodoStatus::Pending => (Label::Pending, "pending"),
        TodoStatus::InProgress => (Label::InProgress, "in_progress"),
        TodoStatus::Completed => (Label::Completed, "completed"),
        TodoStatus::Cancelled => (Label::Cancelled, "cancelled"),
    }
}

fn code_lines(out: &mut String, text: &str, start: u64, lang: &str) {
    let class = class_fragment(lang);
    out.push_str("<pre class=\"ds-code\"><code");
    if !class.is_empty() {
        out.push_str(&format!(" class=\"language-{class}\""));
    }
    out.push('>');
    for (i, line) in text.lines().enumerate() {
        out.push_str(&format!(
            "<span class=\"ds-line\"><span class=\"ds-ln\">{}</span>",
            start + i as u64
        ));
        push_escaped(out, line);
        out.push_str("</span>\n");
    }
    out.push_str("</code></pre>\n");
}

/// The status changes of the `todo_update`s of a conversation, in order (applied to the
/// plans they follow).
pub fn todo_changes(conversation: &Conversation) -> Vec<&TodoChange> {
    conversation
        .documents()
        .filter_map(|d| match &d.meta {
            Meta::TodoUpdate(u) => Some(u.todos.iter()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The HTML of a text document's finished blocks and of its unfinished tail, split as
/// [`blocks::split_points`] says (the incremental renderer reaches the same split).
pub fn text_parts(doc: &Document, opts: &RenderOptions) -> (String, String) {
    let text = doc.text();
    if let Meta::Text(m) = &doc.meta
        && m.format == TextFormat::Plain
    {
        return (String::new(), markdown::render_plain(text));
    }
    let mut slugs = markdown::Slugs::default();
    let mut finished = String::new();
    let mut from = 0;
    for p in blocks::split_points(text) {
        finished.push_str(&md_block(&text[from..p], opts, &doc.id, &mut slugs));
        from = p;
    }
    let tail = md_block(&text[from..], opts, &doc.id, &mut slugs);
    (finished, tail)
}

fn md_block(
    source: &str,
    opts: &RenderOptions,
    prefix: &str,
    slugs: &mut markdown::Slugs,
) -> String {
    markdown::render_markdown_with(
        source,
        &MarkdownOptions {
            image_origins_allowed: &opts.image_origins_allowed,
            anchor_prefix: prefix,
        },
        slugs,
    )
}

/// The opening tag of a document's element.
pub fn document_open(doc: &Document) -> String {
    format!(
        "<div class=\"ds-doc ds-{}\" data-doc-id=\"{}\">\n",
        doc.doc_type().as_str().replace('_', "-"),
        escape(&doc.id)
    )
}

/// A text document's element from its parts.
pub fn text_document_html(open: &str, finished: &str, tail: &str) -> String {
    format!(
        "{open}<div class=\"ds-blocks\">{finished}</div>\n<div class=\"ds-tail\">{tail}</div>\n</div>\n"
    )
}

/// A copy control for the component to wire: it copies the document's code or output
/// (the text of its `pre` elements without line numbers). No script in the markup.
fn copy_button(out: &mut String, doc_id: &str, opts: &RenderOptions) {
    out.push_str(&format!(
        " <button type=\"button\" class=\"ds-copy\" data-copy-target=\"{}\">{}</button>",
        escape(doc_id),
        escape(l(opts, Label::Copy))
    ));
}

/// Renders one document to HTML. `todo_updates` are the status changes that apply to a
/// plan (see [`todo_changes`]).
pub fn render_document(
    doc: &Document,
    opts: &RenderOptions,
    todo_updates: &[&TodoChange],
) -> String {
    let mut out = document_open(doc);
    match &doc.meta {
        Meta::Text(_) => {
            let (finished, tail) = text_parts(doc, opts);
            return text_document_html(&out, &finished, &tail);
        }
        Meta::Thinking(m) => {
            let text = doc.text();
            let preview: String = text
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .chars()
                .take(100)
                .collect();
            out.push_str(&format!(
                "<details class=\"ds-thinking-body\"><summary><span class=\"ds-label\">{}</span> <span class=\"ds-preview\">{}</span></summary>\n",
                escape(l(opts, Label::Thinking)),
                escape(if m.redacted { l(opts, Label::Redacted) } else { &preview })
            ));
            out.push_str(&md(text, opts, &doc.id));
            out.push_str("</details>\n");
        }
        Meta::CodeBlock(m) => {
            let text = doc.text();
            let count = text.lines().count();
            out.push_str("<figure class=\"ds-code-figure\"><figcaption>");
            out.push_str(&format!(
                "<span class=\"ds-lang\">{}</span> <span class=\"ds-line-count\">{count} {}</span>",
                escape(&m.language),
                escape(l(opts, Label::Lines)),
            ));
            copy_button(&mut out, &doc.id, opts);
            out.push_str("</figcaption>\n");
            code_lines(&mut out, text, 1, &m.language);
            out.push_str("</figure>\n");
        }
        Meta::CodeReference(m) => {
            out.push_str("<figure class=\"ds-code-figure\"><figcaption><span class=\"ds-path\">");
            push_escaped(&mut out, &m.file_path);
            out.push_str(&format!(
                ":{}–{}</span></figcaption>\n",
                m.start_line, m.end_line
            ));
            code_lines(&mut out, doc.text(), m.start_line.max(1), &m.language);
            out.push_str("</figure>\n");
        }
        Meta::FileEdit(m) => {
            let view = diff::diff_view(m, doc.content.as_deref());
            out.push_str(&diff::header_html(&view, opts.locale));
            if let Some(status) = m.status {
                status_badge(&mut out, status, opts);
                out.push('\n');
            }
            if let Some(err) = &m.error {
                out.push_str("<div class=\"ds-error-message\">");
                push_escaped(&mut out, err);
                out.push_str("</div>\n");
            }
            if matches!(opts.diff_mode, DiffMode::Both | DiffMode::Unified) {
                out.push_str(&diff::unified_html(&view, opts.locale));
            }
            if matches!(opts.diff_mode, DiffMode::Both | DiffMode::SideBySide) {
                out.push_str(&diff::side_by_side_html(&view, opts.locale));
            }
        }
        Meta::TerminalCommand(m) => {
            out.push_str("<div class=\"ds-term-header\"><code class=\"ds-command\">$ ");
            push_escaped(&mut out, &m.command);
            out.push_str("</code>");
            if let Some(cwd) = &m.working_directory {
                out.push_str(&format!(
                    " <span class=\"ds-cwd\">{} {}</span>",
                    escape(l(opts, Label::WorkingDirectory)),
                    escape(cwd)
                ));
            }
            if let Some(code) = m.exit_code {
                let class = if code == 0 { "success" } else { "error" };
                out.push_str(&format!(
                    " <span class=\"ds-exit ds-status-{class}\">{} {code}</span>",
                    escape(l(opts, Label::ExitCode))
                ));
            } else if let Some(status) = m.status {
                out.push(' ');
                status_badge(&mut out, status, opts);
            }
            duration_span(&mut out, m.duration_ms, opts);
            let output = terminal::strip_ansi(&m.output);
            if !output.is_empty() {
                copy_button(&mut out, &doc.id, opts);
            }
            out.push_str("</div>\n");
            if !output.is_empty() {
                match terminal::head_tail(&output) {
                    None => {
                        out.push_str("<pre class=\"ds-output\">");
                        push_escaped(&mut out, &output);
                        out.push_str("</pre>\n");
                    }
                    Some((head, middle, tail)) => {
                        out.push_str("<pre class=\"ds-output\">");
                        push_escaped(&mut out, head);
                        out.push_str("</pre>\n<details class=\"ds-output-more\"><summary>");
                        push_escaped(&mut out, l(opts, Label::OutputTruncated));
                        out.push_str(&format!(
                            " ({} {})</summary><pre class=\"ds-output\">",
                            middle.lines().count(),
                            escape(l(opts, Label::Lines))
                        ));
                        push_escaped(&mut out, middle);
                        out.push_str("</pre></details>\n<pre class=\"ds-output\">");
                        push_escaped(&mut out, tail);
                        out.push_str("</pre>\n");
                    }
                }
            }
        }
        Meta::ToolCall(m) => {
            out.push_str("<div class=\"ds-tool-header\"><span class=\"ds-tool-name\">");
            push_escaped(&mut out, &m.tool_name);
            out.push_str("</span> <span class=\"ds-tool-summary\">");
            push_escaped(&mut out, &tool_call::summarize_arguments(&m.arguments));
            out.push_str("</span> ");
            status_badge(&mut out, m.status(), opts);
            duration_span(&mut out, m.duration_ms, opts);
            out.push_str("</div>\n<details class=\"ds-tool-args\"><summary>");
            push_escaped(&mut out, l(opts, Label::Arguments));
            out.push_str("</summary><pre>");
            push_escaped(
                &mut out,
                &serde_json::to_string_pretty(&m.arguments).unwrap_or_default(),
            );
            out.push_str("</pre></details>\n");
            if let Some(result) = &m.result {
                out.push_str("<details class=\"ds-tool-result\"><summary>");
                push_escaped(&mut out, l(opts, Label::Result));
                out.push_str("</summary><pre>");
                let text = match &result.data {
                    serde_json::Value::String(s) => s.clone(),
                    other => serde_json::to_string_pretty(other).unwrap_or_default(),
                };
                push_escaped(&mut out, &terminal::strip_ansi(&text));
                out.push_str("</pre></details>\n");
            }
        }
        Meta::Plan(m) => {
            let view = plan::plan_view(m, todo_updates);
            out.push_str("<h3 class=\"ds-plan-title\">");
            push_escaped(&mut out, &view.title);
            out.push_str(&format!(
                "</h3>\n<div class=\"ds-progress\"><progress max=\"{}\" value=\"{}\"></progress> {}/{} {}</div>\n",
                view.total,
                view.done,
                view.done,
                view.total,
                escape(l(opts, Label::Progress))
            ));
            if !view.overview.is_empty() {
                out.push_str("<div class=\"ds-plan-overview\">");
                out.push_str(&md(&view.overview, opts, &doc.id));
                out.push_str("</div>\n");
            }
            out.push_str("<ol class=\"ds-todos\">\n");
            for t in &view.todos {
                let (key, class) = todo_status(t.status);
                out.push_str(&format!(
                    "<li class=\"ds-todo ds-todo-{class} ds-level-{}\" data-todo-id=\"{}\"><span class=\"ds-todo-status\">{}</span> <span class=\"ds-todo-content\">{}</span>",
                    t.level.min(9),
                    escape(&t.id),
                    escape(l(opts, key)),
                    escape(&t.content)
                ));
                if !t.dependencies.is_empty() {
                    out.push_str(&format!(
                        " <span class=\"ds-todo-deps\">{} {}</span>",
                        escape(l(opts, Label::DependsOn)),
                        escape(&t.dependencies.join(", "))
                    ));
                }
                out.push_str("</li>\n");
            }
            out.push_str("</ol>\n");
            for p in &view.problems {
                let text = match p {
                    plan::PlanProblem::UnknownDependency { todo, dependency } => format!(
                        "{}: {todo} → {dependency}",
                        l(opts, Label::UnknownDependency)
                    ),
                    plan::PlanProblem::Cycle { todo } => {
                        format!("{}: {todo}", l(opts, Label::CyclicDependency))
                    }
                };
                out.push_str("<div class=\"ds-plan-problem\">");
                push_escaped(&mut out, &text);
                out.push_str("</div>\n");
            }
        }
        Meta::TodoUpdate(m) => {
            out.push_str(&format!(
                "<div class=\"ds-label\">{}</div>\n<ul class=\"ds-todos\">\n",
                escape(l(opts, Label::TodoUpdate))
            ));
            for t in &m.todos {
                let (key, class) = todo_status(t.status);
                out.push_str(&format!(
                    "<li class=\"ds-todo ds-todo-{class}\" data-todo-id=\"{}\"><span class=\"ds-todo-status\">{}</span> <span class=\"ds-todo-content\">{}</span></li>\n",
                    escape(&t.id),
                    escape(l(opts, key)),
                    escape(t.content.as_deref().unwrap_or(&t.id))
                ));
            }
            out.push_str("</ul>\n");
        }
        Meta::Clarification(m) => {
            for q in &m.questions {
                out.push_str(&format!(
                    "<fieldset class=\"ds-question\" data-question-id=\"{}\"><legend>{}</legend>\n",
                    escape(&q.id),
                    escape(&q.text)
                ));
                for o in &q.options {
                    out.push_str(&format!(
                        "<button type=\"button\" class=\"ds-option\" data-question-id=\"{}\" data-option-id=\"{}\">{}</button>\n",
                        escape(&q.id),
                        escape(&o.id),
                        escape(&o.label)
                    ));
                }
                out.push_str("</fieldset>\n");
            }
        }
        Meta::Error(m) => {
            out.push_str(&format!(
                "<div class=\"ds-error-header\"><span class=\"ds-error-code\">{}</span> <span class=\"ds-error-source\">{} {}</span></div>\n<div class=\"ds-error-message\">{}</div>\n",
                escape(&m.error_code),
                escape(l(opts, Label::Source)),
                escape(&m.source),
                escape(doc.text())
            ));
            if !m.details.is_empty() {
                out.push_str("<pre class=\"ds-error-details\">");
                push_escaped(&mut out, &m.details);
                out.push_str("</pre>\n");
            }
        }
    }
    out.push_str("</div>\n");
    out
}

/// The opening tag of a turn's element (the turn's index never changes).
pub fn turn_open(index: usize, turn: &Turn) -> String {
    let class = match turn {
        Turn::User(_) => "ds-user",
        Turn::Assistant(_) => "ds-assistant",
    };
    format!("<section class=\"ds-turn {class}\" data-turn-index=\"{index}\">\n")
}

/// The closing tag of a turn's element.
pub const TURN_CLOSE: &str = "</section>\n";

/// The header of a turn: the prompt of a user turn, the response header of a response.
/// One element, replaced whole when it changes.
pub fn render_turn_header(turn: &Turn, opts: &RenderOptions) -> String {
    match turn {
        Turn::User(u) => render_user_turn(u, opts),
        Turn::Assistant(r) => render_response_header(r, opts),
    }
}

/// Renders the body of a user turn (one element).
pub fn render_user_turn(turn: &UserTurn, opts: &RenderOptions) -> String {
    let mut out = format!(
        "<div class=\"ds-turn-header ds-user-body\" data-turn-id=\"{}\"><div class=\"ds-role\">{}</div>\n<div class=\"ds-user-content\">",
        escape(&turn.id),
        escape(l(opts, Label::You))
    );
    push_escaped(&mut out, &turn.content);
    out.push_str("</div>\n");
    for a in &turn.attachments {
        out.push_str("<div class=\"ds-attachment\">");
        push_escaped(&mut out, a.path.as_deref().unwrap_or(&a.kind));
        out.push_str("</div>\n");
    }
    out.push_str("</div>\n");
    out
}

/// Renders the header of a response: model, mode, status, usage, duration.
pub fn render_response_header(response: &Response, opts: &RenderOptions) -> String {
    let (status, label) = match response.status {
        ResponseStatus::Streaming => ("streaming", Label::Streaming),
        ResponseStatus::Completed => ("completed", Label::Completed),
        ResponseStatus::Error => ("error", Label::Error),
    };
    let mut out = format!(
        "<div class=\"ds-turn-header\" data-turn-id=\"{}\"><span class=\"ds-role\">{}</span>",
        escape(&response.id),
        escape(l(opts, Label::Assistant))
    );
    if !response.model.is_empty() {
        out.push_str(&format!(
            " <span class=\"ds-model\">{}</span>",
            escape(&response.model)
        ));
    }
    if !response.mode.is_empty() {
        out.push_str(&format!(
            " <span class=\"ds-mode\">{}</span>",
            escape(&response.mode)
        ));
    }
    out.push_str(&format!(
        " <span class=\"ds-response-status ds-response-{status}\">{}</span>",
        escape(l(opts, label))
    ));
    if let Some(u) = &response.usage {
        out.push_str(&format!(
            " <span class=\"ds-usage\">{} {} {}</span>",
            escape(l(opts, Label::Usage)),
            u.total_tokens,
            escape(l(opts, Label::Tokens))
        ));
    }
    duration_span(&mut out, response.metadata.duration_ms, opts);
    out.push_str("</div>\n");
    out
}

/// The opening tag of the conversation's element.
pub const CONVERSATION_OPEN: &str = "<main class=\"ds-conversation\">\n";
/// The closing tag of the conversation's element.
pub const CONVERSATION_CLOSE: &str = "</main>\n";

/// Renders one turn with its documents.
pub fn render_turn(
    index: usize,
    turn: &Turn,
    opts: &RenderOptions,
    todo_updates: &[&TodoChange],
) -> String {
    let mut out = turn_open(index, turn);
    out.push_str(&render_turn_header(turn, opts));
    if let Turn::Assistant(r) = turn {
        for doc in &r.documents {
            out.push_str(&render_document(doc, opts, todo_updates));
        }
    }
    out.push_str(TURN_CLOSE);
    out
}

/// The diff view of the `file_edit` document with this id; `None` when there is no
/// such document or it is not a file edit.
pub fn diff_view_by_id(conversation: &Conversation, id: &str) -> Option<diff::DiffView> {
    let doc = conversation.document(id)?;
    match &doc.meta {
        Meta::FileEdit(m) => Some(diff::diff_view(m, doc.content.as_deref())),
        _ => None,
    }
}

/// The plan view of the `plan` document with this id, with the todo statuses the
/// conversation's `todo_update`s set (as its HTML shows them); `None` when there is no
/// such document or it is not a plan.
pub fn plan_view_by_id(conversation: &Conversation, id: &str) -> Option<plan::PlanView> {
    match &conversation.document(id)?.meta {
        Meta::Plan(m) => Some(plan::plan_view(m, &todo_changes(conversation))),
        _ => None,
    }
}

/// Renders a whole conversation (the body of a page, without the page around it).
pub fn render_conversation(conversation: &Conversation, opts: &RenderOptions) -> String {
    let updates = todo_changes(conversation);
    let mut out = String::from(CONVERSATION_OPEN);
    for (i, turn) in conversation.turns.iter().enumerate() {
        out.push_str(&render_turn(i, turn, opts, &updates));
    }
    out.push_str(CONVERSATION_CLOSE);
    out
}
