//! The frame of the export: the title and facts, a heading per turn with its role and
//! time, each response's status and usage after it, and the totals at the end.

use super::documents;
use super::words::{cost_text, dollars, duration_text, time_text, usage_text};
use super::writer::Md;
use crate::facts::{compaction_facts, counted, rewound_mark_text};
use crate::labels::Label;
use crate::page::{agent_name, conversation_title, keeps_no_times};
use docstream_model::{Conversation, DocKey, PromptFrom, Response, ResponseStatus, Turn, UserTurn};

/// Sub-agent runs nested deeper than this are not written (the model nests at most 8).
const MAX_DEPTH: usize = 16;

/// The title and what the run was: agent, project, models, when.
pub(super) fn header(md: &mut Md<'_>, c: &Conversation) {
    md.raw("# ").inline(&conversation_title(c)).raw("\n\n");
    let t = c.totals();
    let mut facts = false;
    let mut fact = |md: &mut Md<'_>, key: Label| {
        facts = true;
        let name = md.l(key);
        md.raw("- **").raw(name).raw(":** ");
    };
    if let Some(format) = &c.format {
        fact(md, Label::Agent);
        md.inline(agent_name(format)).raw("\n");
    }
    if let Some(cwd) = &t.cwd {
        fact(md, Label::Project);
        md.code_span(cwd).raw("\n");
    }
    if !t.models.is_empty() {
        fact(md, Label::Models);
        md.inline(&t.models.join(", ")).raw("\n");
    }
    if let Some(first) = &t.first {
        fact(md, Label::When);
        md.inline(&time_text(first));
        if let Some(last) = t.last.as_ref().filter(|l| *l != first) {
            md.raw(" – ").inline(&time_text(last));
        }
        md.raw("\n");
    } else if c.format.as_deref().is_some_and(keeps_no_times) {
        fact(md, Label::When);
        let text = md.l(Label::NotRecorded);
        md.inline(text).raw("\n");
    }
    if facts {
        md.raw("\n");
    }
}

/// Writes turn `index` (`depth` > 0: a sub-agent's run, inside its call's fold).
pub(super) fn turn(md: &mut Md<'_>, c: &Conversation, index: usize, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    // A branch the user rewound from: folded, marked where it forked.
    if let Some(mark) = c.rewound(index) {
        let mut summary = String::new();
        rewound_mark_text(
            mark,
            c.turns.get(mark.replaced_by),
            md.opts.locale,
            &mut summary,
        );
        md.fold(&summary, |md| one_turn(md, c, index, depth));
        return;
    }
    one_turn(md, c, index, depth);
}

fn one_turn(md: &mut Md<'_>, c: &Conversation, index: usize, depth: usize) {
    match &c.turns[index] {
        Turn::User(u) if u.compaction.is_some() => compaction(md, u),
        Turn::User(u) => user(md, u, depth),
        Turn::Assistant(r) => {
            if depth == 0 {
                response_heading(md, r);
            } else {
                run_heading(md, r);
            }
            for (i, doc) in r.documents.iter().enumerate() {
                let key = DocKey {
                    turn: index,
                    index: i,
                };
                documents::document(md, c, key, doc, depth, turn);
            }
            footer(md, r, c.format.as_deref());
        }
    }
}

/// A compaction: a rule, "Context compacted (auto, 155k → 12k tokens)", and the summary
/// the agent went on from, folded (never a prompt).
fn compaction(md: &mut Md<'_>, u: &UserTurn) {
    let facts = compaction_facts(&u.compaction.clone().unwrap_or_default(), md.opts.locale);
    md.raw("---\n\n**").label(Label::ContextCompacted).raw("**");
    if !facts.is_empty() {
        md.raw(" (").inline(&facts).raw(")");
    }
    if let Some(at) = &u.created {
        md.raw(" · ").inline(&time_text(at));
    }
    md.raw("\n\n");
    if !u.content.trim().is_empty() {
        let summary = md.l(Label::CompactionSummary);
        md.fold(summary, |md| {
            md.prose(&u.content);
        });
    }
}

fn user(md: &mut Md<'_>, u: &UserTurn, depth: usize) {
    let who = match u.from {
        Some(PromptFrom::ParentAgent) => Label::ParentAgent,
        None => Label::You,
    };
    if depth == 0 {
        md.raw("## ");
    } else {
        md.raw("**");
    }
    md.label(who);
    if let Some(at) = &u.created {
        md.raw(" · ").inline(&time_text(at));
    }
    md.raw(if depth == 0 { "\n\n" } else { "**\n\n" });
    for a in &u.attachments {
        md.raw("- 📎 ")
            .code_span(a.path.as_deref().unwrap_or(&a.kind))
            .raw("\n");
    }
    if !u.attachments.is_empty() {
        md.raw("\n");
    }
    md.prose(&u.content);
}

fn response_heading(md: &mut Md<'_>, r: &Response) {
    md.raw("## ").label(Label::Assistant);
    if let Some(at) = &r.created {
        md.raw(" · ").inline(&time_text(at));
    }
    if !r.model.is_empty() {
        md.raw(" · ").inline(&r.model);
    }
    if !r.mode.is_empty() {
        md.raw(" · ").inline(&r.mode);
    }
    md.raw("\n\n");
}

/// A sub-agent's run: what it was asked, and how many tools it called.
fn run_heading(md: &mut Md<'_>, r: &Response) {
    md.raw("**").label(Label::Subagent).raw("**");
    if let Some(p) = &r.parent {
        if !p.description.is_empty() {
            md.raw(" ").inline(&p.description);
        }
        if let Some(t) = &p.agent_type {
            md.raw(" (").inline(t).raw(")");
        }
    }
    if !r.model.is_empty() {
        md.raw(" · ").inline(&r.model);
    }
    let n = u64::from(r.metadata.tool_call_count);
    let tools = counted(n, Label::ToolCallOne, Label::ToolCallMany, md.opts.locale);
    md.raw(" · ").inline(&tools).raw("\n\n");
}

/// After a response: how it ended, its usage, cost and time, in one line of italics.
fn footer(md: &mut Md<'_>, r: &Response, format: Option<&str>) {
    let status = match r.status {
        ResponseStatus::Streaming => Label::Streaming,
        ResponseStatus::Completed => Label::Completed,
        ResponseStatus::Error => Label::Error,
    };
    let mut parts = vec![md.l(status).to_owned()];
    if let Some(u) = &r.usage {
        parts.push(usage_text(md, u));
    }
    if let Some(cost) = md.opts.cost_of(r, format) {
        parts.push(cost_text(md, cost));
    }
    if let Some(ms) = r.metadata.duration_ms {
        parts.push(format!("{} {}", md.l(Label::Duration), duration_text(ms)));
    }
    md.raw("_").inline(&parts.join(" · ")).raw("_\n\n");
}

/// The totals of the run, at the end: tokens, cost, prompts and responses.
pub(super) fn totals(md: &mut Md<'_>, c: &Conversation) {
    let t = md.opts.totals_of(c);
    md.raw("## ").label(Label::Totals).raw("\n\n");
    md.raw("| | |\n|---|---:|\n");
    let row = |md: &mut Md<'_>, name: &str, value: String| {
        md.raw("| ")
            .inline(name)
            .raw(" | ")
            .inline(&value)
            .raw(" |\n");
    };
    row(md, md.l(Label::Prompts), t.prompts.to_string());
    row(md, md.l(Label::Responses), t.responses.to_string());
    if let Some(u) = &t.usage {
        let tokens = md.l(Label::Tokens);
        for (n, key, _) in crate::facts::token_counts(u) {
            if let Some(n) = n {
                row(md, &format!("{tokens} {}", md.l(key)), n.to_string());
            }
        }
        let total = format!("{} {tokens}", md.l(Label::Totals));
        row(md, &total, u.total_tokens.to_string());
    }
    if let Some(usd) = t.cost_usd {
        let mut source = Vec::new();
        if t.cost_stated > 0 {
            source.push(md.l(Label::CostStated));
        }
        if t.cost_computed > 0 {
            source.push(md.l(Label::CostComputed));
        }
        let computed = if t.cost_computed > 0 { "≈ " } else { "" };
        let value = format!("{computed}{} ({})", dollars(usd), source.join(", "));
        row(md, md.l(Label::Cost), value);
    }
    if t.cost_missing > 0 && md.opts.has_prices() {
        let name = format!("{} {}", md.l(Label::Responses), md.l(Label::CostMissing));
        row(md, &name, t.cost_missing.to_string());
    }
    md.raw("\n");
}
