//! A turn's element: `<section class="ds-turn …">` with its header (the prompt of a user
//! turn, or the header of a response), then the response's documents.
//!
//! A sub-agent's run is shown inside the call that started it, folded:
//! `<details class="ds-turn ds-assistant ds-subagent" data-parent-turn data-parent-index>`
//! with a `<summary>` header ("Sub-agent Find the callers · 2 tool calls …").

use crate::RenderOptions;
use crate::escape::Markup;
use crate::facts::{compaction_facts, counted, push_cost, push_duration, push_usage, title_line};
use crate::labels::{Label, label};
use crate::time::push_time;
use crate::user_prompt::render_user_content;
use docstream_model::{
    Conversation, Cost, DocKey, PromptFrom, Response, ResponseStatus, Rewound, Turn, UserTurn,
};

/// The closing tag of a turn's element.
pub(crate) const TURN_CLOSE: &str = "</section>\n";

/// The closing tag of a sub-agent run's element.
pub(crate) const RUN_CLOSE: &str = "</details>\n";

/// The closing tag of a turn's element, nested (a sub-agent's run) or not.
pub(crate) fn turn_close(parent: Option<DocKey>) -> &'static str {
    if parent.is_some() {
        RUN_CLOSE
    } else {
        TURN_CLOSE
    }
}

/// Writes the opening tag of a turn's element (a turn's index never changes); `parent`
/// is the call a sub-agent's run is shown in
/// ([`Conversation::subagent_parent`](docstream_model::Conversation::subagent_parent)).
pub(crate) fn turn_open(index: usize, turn: &Turn, parent: Option<DocKey>, out: &mut String) {
    let class = match turn {
        Turn::User(u) if u.compaction.is_some() => "ds-compaction",
        Turn::User(_) => "ds-user",
        Turn::Assistant(_) => "ds-assistant",
    };
    let Some(p) = parent else {
        out.raw("<section class=\"ds-turn ")
            .raw(class)
            .raw("\" data-turn-index=\"")
            .num(index as u64)
            .raw("\">\n");
        return;
    };
    out.raw("<details class=\"ds-turn ")
        .raw(class)
        .raw(" ds-subagent\" data-turn-index=\"")
        .num(index as u64)
        .raw("\" data-parent-turn=\"")
        .num(p.turn as u64)
        .raw("\" data-parent-index=\"")
        .num(p.index as u64)
        .raw("\">\n");
}

/// Writes the header of turn `index`: one element, replaced whole when it changes (for
/// a sub-agent's run, `nested`, the `<summary>` of its element). The header of a turn
/// of a branch the user rewound from folds it: a `<details class="ds-rewound">` whose
/// summary says so (at the fork, what replaced the branch), holding the turn's own
/// header; while it is closed the stylesheet hides the documents after it.
pub(crate) fn turn_header(
    conv: &Conversation,
    index: usize,
    nested: bool,
    opts: &RenderOptions,
    out: &mut String,
) {
    let Some(turn) = conv.turns.get(index) else {
        return;
    };
    match conv.rewound(index).filter(|_| !nested) {
        Some(mark) => {
            out.raw("<details class=\"ds-rewound\" data-replaced-by=\"")
                .num(mark.replaced_by as u64)
                .raw("\"><summary class=\"ds-rewound-mark")
                .raw(if mark.fork { " ds-fork" } else { "" })
                .raw("\">");
            rewound_mark(mark, conv.turns.get(mark.replaced_by), opts, out);
            out.raw("</summary>\n");
            own_header(turn, nested, conv.format.as_deref(), opts, out);
            out.raw("</details>\n");
        }
        None => own_header(turn, nested, conv.format.as_deref(), opts, out),
    }
}

/// What a rewound turn's fold says: at the fork, what replaced the branch (the prompt
/// the user gave instead, or the response that follows); after it, that it was rewound.
fn rewound_mark(mark: Rewound, replacing: Option<&Turn>, opts: &RenderOptions, out: &mut String) {
    let l = |k| label(opts.locale, k);
    if !mark.fork {
        out.text(l(Label::Rewound));
        return;
    }
    let prompt = match replacing {
        Some(Turn::User(u)) if u.compaction.is_none() => title_line(&u.content),
        _ => None,
    };
    match prompt {
        Some(p) => {
            out.text(l(Label::RewoundReplacedBy))
                .raw(" <q class=\"ds-replaced-by\">")
                .text(&p)
                .raw("</q>");
        }
        None => {
            out.text(l(Label::RewoundByResponse));
        }
    }
}

fn own_header(
    turn: &Turn,
    nested: bool,
    format: Option<&str>,
    opts: &RenderOptions,
    out: &mut String,
) {
    let cost = |r: &Response| opts.cost_of(r, format);
    match turn {
        Turn::User(u) if u.compaction.is_some() => compaction_header(u, opts, out),
        Turn::User(u) => user_header(u, opts, out),
        Turn::Assistant(r) if nested => run_header(r, cost(r), opts, out),
        Turn::Assistant(r) => response_header(r, cost(r), opts, out),
    }
}

/// A compaction: a divider, "Context compacted (auto, 155k → 12k tokens)", and the
/// summary the agent went on from, folded, as a note of the system (never a prompt).
fn compaction_header(turn: &UserTurn, opts: &RenderOptions, out: &mut String) {
    let l = |k| label(opts.locale, k);
    let c = turn.compaction.clone().unwrap_or_default();
    out.raw("<div class=\"ds-turn-header ds-compaction-divider\" data-turn-id=\"")
        .text(&turn.id)
        .raw("\"><span class=\"ds-compaction-mark\">")
        .text(l(Label::ContextCompacted));
    let facts = compaction_facts(&c, opts.locale);
    if !facts.is_empty() {
        out.raw(" <span class=\"ds-compaction-facts\">(")
            .text(&facts)
            .raw(")</span>");
    }
    out.raw("</span>");
    if let Some(at) = &turn.created {
        out.raw(" ");
        push_time(out, at);
    }
    if !turn.content.trim().is_empty() {
        out.raw("\n<details class=\"ds-note ds-compaction-summary\"><summary>")
            .text(l(Label::CompactionSummary))
            .raw("</summary>\n<div class=\"ds-note-markdown\">");
        render_user_content(&turn.content, &turn.id, opts, out);
        out.raw("</div></details>");
    }
    out.raw("</div>\n");
}

/// A sub-agent's run: what it was asked, how many tools it called, its model, status,
/// usage and time.
fn run_header(response: &Response, cost: Option<Cost>, opts: &RenderOptions, out: &mut String) {
    out.raw("<summary class=\"ds-turn-header ds-subagent-header\" data-turn-id=\"")
        .text(&response.id)
        .raw("\"><span class=\"ds-role\">")
        .text(label(opts.locale, Label::Subagent))
        .raw("</span>");
    if let Some(p) = &response.parent {
        if !p.description.is_empty() {
            out.raw(" <span class=\"ds-subagent-description\">")
                .text(&p.description)
                .raw("</span>");
        }
        if let Some(t) = &p.agent_type {
            out.raw(" <span class=\"ds-subagent-type\">")
                .text(t)
                .raw("</span>");
        }
    }
    let n = u64::from(response.metadata.tool_call_count);
    out.raw(" · <span class=\"ds-tool-count\">")
        .text(&counted(
            n,
            Label::ToolCallOne,
            Label::ToolCallMany,
            opts.locale,
        ))
        .raw("</span>");
    response_facts(response, cost, opts, out);
    out.raw("</summary>\n");
}

fn user_header(turn: &UserTurn, opts: &RenderOptions, out: &mut String) {
    // A sub-agent's prompt is its parent agent's, not the person's.
    let (class, who) = match turn.from {
        Some(PromptFrom::ParentAgent) => (" ds-from-agent", Label::ParentAgent),
        None => ("", Label::You),
    };
    out.raw("<div class=\"ds-turn-header ds-user-body\" data-turn-id=\"")
        .text(&turn.id)
        .raw("\"><div class=\"ds-role")
        .raw(class)
        .raw("\">")
        .text(label(opts.locale, who));
    if let Some(at) = &turn.created {
        out.raw(" ");
        push_time(out, at);
    }
    out.raw("</div>\n<div class=\"ds-user-content\">");
    render_user_content(&turn.content, &turn.id, opts, out);
    out.raw("</div>\n");
    for a in &turn.attachments {
        out.raw("<div class=\"ds-attachment\">")
            .text(a.path.as_deref().unwrap_or(&a.kind))
            .raw("</div>\n");
    }
    out.raw("</div>\n");
}

fn response_header(
    response: &Response,
    cost: Option<Cost>,
    opts: &RenderOptions,
    out: &mut String,
) {
    out.raw("<div class=\"ds-turn-header\" data-turn-id=\"")
        .text(&response.id)
        .raw("\"><span class=\"ds-role\">")
        .text(label(opts.locale, Label::Assistant))
        .raw("</span>");
    if let Some(at) = &response.created {
        out.raw(" ");
        push_time(out, at);
    }
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
    response_status(response, cost, opts, out);
    out.raw("</div>\n");
}

/// The model, status, usage and time of a sub-agent's run.
fn response_facts(response: &Response, cost: Option<Cost>, opts: &RenderOptions, out: &mut String) {
    if !response.model.is_empty() {
        out.raw(" <span class=\"ds-model\">")
            .text(&response.model)
            .raw("</span>");
    }
    response_status(response, cost, opts, out);
}

/// Status, usage and time of a response.
fn response_status(
    response: &Response,
    cost: Option<Cost>,
    opts: &RenderOptions,
    out: &mut String,
) {
    let (status, key) = match response.status {
        ResponseStatus::Streaming => ("streaming", Label::Streaming),
        ResponseStatus::Completed => ("completed", Label::Completed),
        ResponseStatus::Error => ("error", Label::Error),
    };
    out.raw(" <span class=\"ds-response-status ds-response-")
        .raw(status)
        .raw("\">")
        .text(label(opts.locale, key))
        .raw("</span>");
    if let Some(u) = &response.usage {
        out.raw(" ");
        push_usage(out, u, opts);
    }
    if let Some(cost) = cost {
        out.raw(" ");
        push_cost(out, cost, opts);
    }
    if let Some(ms) = response.metadata.duration_ms {
        out.raw(" <span class=\"ds-duration\">")
            .text(label(opts.locale, Label::Duration))
            .raw(" ");
        push_duration(out, ms);
        out.raw("</span>");
    }
}
