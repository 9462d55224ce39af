//! `tool_call`: any tool without a document type of its own, in the view the
//! normaliser stored for it ([`ToolView`]): a header with a human label and a one-line
//! summary ("Read src/main.rs (40 lines)"), the arguments, and the result — a file's
//! text, matches grouped by file, web links, or for MCP and unknown tools the arguments
//! as a key–value list and the result as text or folded JSON.

use crate::parts::SUBAGENT_RUN_OPEN;
use serde_json::Value;

use super::{duration_span, fold_text, l, reason, status_badge, tool_read, tool_search, tool_web};
use crate::RenderOptions;
use crate::escape::Markup;
use crate::facts::{counted, push_duration};
use crate::json::push_json_pretty;
use crate::labels::Label;
use crate::markdown::{Slugs, render_markdown_into};
use crate::parts::{Part, Slot};
use crate::progress::headline;
use crate::terminal::strip_ansi;
use crate::tool_call::summarize_arguments;
use docstream_model::{CallStatus, Document, GenericView, RunFacts, ToolCallMeta, ToolView};

pub(super) const PARTS: &[Part] = &[Part::Head, Part::Args, Part::Result];

const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "div",
    class: "ds-tool-header",
};

const ARGS: Slot = Slot {
    part: Part::Args,
    tag: "div",
    class: "ds-tool-args-part",
};

const RESULT: Slot = Slot {
    part: Part::Result,
    tag: "div",
    class: "ds-tool-result-part",
};

pub(super) fn render(
    doc: &Document,
    meta: &ToolCallMeta,
    opts: &RenderOptions,
    out: &mut String,
    run: &mut dyn FnMut(&mut String),
) {
    for slot in [HEAD, ARGS] {
        slot.wrap(out, |out| part(doc, meta, slot.part, opts, out));
        out.raw("\n");
    }
    if meta.subagent.is_some() {
        out.raw(SUBAGENT_RUN_OPEN);
        run(out);
        out.raw("</div>\n");
    }
    RESULT.wrap(out, |out| part(doc, meta, Part::Result, opts, out));
    out.raw("\n");
}

pub(super) fn part(
    doc: &Document,
    m: &ToolCallMeta,
    part: Part,
    opts: &RenderOptions,
    out: &mut String,
) {
    match part {
        Part::Head => head(doc, m, opts, out),
        Part::Args => match &m.view {
            ToolView::Generic(_) => arguments(m.shown_arguments(), opts, out),
            ToolView::Subagent(v) => {
                if let Some(prompt) = &v.prompt {
                    out.raw("<details class=\"ds-subagent-prompt\"><summary>")
                        .text(l(opts, Label::Prompt))
                        .raw("</summary>");
                    markdown(prompt, &doc.id, "prompt", opts, out);
                    out.raw("</details>");
                }
            }
            _ => {}
        },
        Part::Result => {
            let Some(result) = &m.result else { return };
            if result.status.refused() {
                if let Some(msg) = &m.error {
                    reason(out, msg, opts);
                }
                return;
            }
            if result.status == CallStatus::Error {
                if let Some(msg) = &m.error {
                    out.raw("<div class=\"ds-tool-error\">")
                        .text(&strip_ansi(msg))
                        .raw("</div>");
                    return;
                }
            }
            match &m.view {
                ToolView::Read(r) => {
                    let text = r.content.as_ref().map_or("", |t| m.view_text(t));
                    tool_read::render(r, text, opts, out);
                }
                ToolView::Search(s) if s.groups.is_some() => tool_search::render(s, opts, out),
                ToolView::WebSearch(w) => {
                    tool_web::search(w, opts, out, &mut |text, out| {
                        markdown(text, &doc.id, "answer", opts, out)
                    });
                }
                ToolView::WebFetch(f) => {
                    tool_web::fetch(f, f.text.as_ref().map(|t| m.view_text(t)), opts, out);
                }
                // No answer beside its run (Cursor's result is the run and its ids): the
                // run says it all.
                ToolView::Subagent(v)
                    if v.answer.is_none()
                        && m.subagent.as_ref().is_some_and(|s| s.turn.is_some()) => {}
                ToolView::Subagent(v) if v.answer.is_some() || v.facts.is_some() => {
                    if let Some(facts) = &v.facts {
                        run_facts(facts, opts, out);
                    }
                    if let Some(answer) = v.answer.as_deref() {
                        out.raw("<div class=\"ds-subagent-answer\">");
                        markdown(answer, &doc.id, "answer", opts, out);
                        out.raw("</div>");
                    }
                }
                ToolView::Generic(GenericView { text: Some(t), .. }) => {
                    fold_text(out, m.view_text(t), opts);
                }
                _ => match &result.data {
                    Value::String(s) => fold_text(out, s, opts),
                    other => folded_json(out, Label::Result, other, opts),
                },
            }
        }
        _ => {}
    }
}

fn head(doc: &Document, m: &ToolCallMeta, opts: &RenderOptions, out: &mut String) {
    match &m.view {
        ToolView::Generic(g) => {
            out.raw("<span class=\"ds-tool-name\">");
            if let Some(server) = &g.server {
                out.raw("<span class=\"ds-tool-server\">")
                    .text(server)
                    .raw("</span> · ");
            }
            out.text(g.tool.as_deref().unwrap_or(&m.tool_name))
                .raw("</span> <span class=\"ds-tool-summary\">")
                .text(&summarize_arguments(m.shown_arguments()))
                .raw("</span> ");
        }
        _ => {
            let h = headline(doc, opts.locale);
            let (label, summary) = h
                .as_ref()
                .map_or(("", ""), |h| (h.label, h.summary.as_str()));
            out.raw("<span class=\"ds-tool-name\" title=\"")
                .text(&m.tool_name)
                .raw("\">")
                .text(label)
                .raw("</span> <span class=\"ds-tool-summary\">")
                .text(summary)
                .raw("</span> ");
        }
    }
    status_badge(out, m.status(), opts);
    duration_span(out, m.duration_ms, opts);
}

/// Arguments as a key–value list: text as text, numbers and flags as they are, objects
/// and lists as folded JSON; arguments that are not an object as folded JSON.
fn arguments(args: &Value, opts: &RenderOptions, out: &mut String) {
    let Value::Object(map) = args else {
        if !args.is_null() {
            folded_json(out, Label::Arguments, args, opts);
        }
        return;
    };
    if map.is_empty() {
        return;
    }
    out.raw("<dl class=\"ds-kv\">");
    for (k, v) in map {
        out.raw("<dt>").text(k).raw("</dt><dd>");
        if !scalar(out, v) {
            out.raw("<details class=\"ds-kv-json\"><summary>")
                .text(&summarize_arguments(v))
                .raw("</summary>");
            value_tree(out, v, 1);
            out.raw("</details>");
        }
        out.raw("</dd>");
    }
    out.raw("</dl>");
}

/// What a sub-agent's result says of its run, as one small line: its id, how it ended,
/// its tokens, tool calls and time.
fn run_facts(f: &RunFacts, opts: &RenderOptions, out: &mut String) {
    out.raw("<div class=\"ds-subagent-facts\">");
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.raw(" · ");
        }
    };
    if let Some(id) = &f.agent_id {
        sep(out);
        out.raw("<span class=\"ds-subagent-id\">")
            .text(l(opts, Label::AgentId))
            .raw(" <code>")
            .text(id)
            .raw("</code></span>");
    }
    if let Some(status) = &f.status {
        sep(out);
        let shown = match status.as_str() {
            "completed" | "success" => l(opts, Label::Completed),
            "async_launched" => l(opts, Label::InBackground),
            "error" | "failed" => l(opts, Label::Failed),
            other => other,
        };
        out.raw("<span class=\"ds-subagent-status\">")
            .text(shown)
            .raw("</span>");
    }
    if let Some(n) = f.tokens {
        sep(out);
        out.raw("<span class=\"ds-usage\">")
            .num(n)
            .raw(" ")
            .text(l(opts, Label::Tokens))
            .raw("</span>");
    }
    if let Some(n) = f.tool_uses {
        sep(out);
        out.raw("<span class=\"ds-tool-count\">")
            .text(&counted(
                n,
                Label::ToolCallOne,
                Label::ToolCallMany,
                opts.locale,
            ))
            .raw("</span>");
    }
    if let Some(ms) = f.duration_ms {
        sep(out);
        out.raw("<span class=\"ds-duration\">");
        push_duration(out, ms);
        out.raw("</span>");
    }
    out.raw("</div>");
}

/// Nesting shown as lists; deeper values are JSON.
const TREE_DEPTH: usize = 6;

/// Writes a text, number, flag or null as it is (text of several lines as a block);
/// false, writing nothing, for an object or a list.
fn scalar(out: &mut String, v: &Value) -> bool {
    match v {
        Value::String(s) if s.contains('\n') => {
            out.raw("<pre class=\"ds-kv-text\" tabindex=\"0\">")
                .text(&strip_ansi(s))
                .raw("</pre>");
        }
        Value::String(s) => {
            out.text(s);
        }
        Value::Number(n) => {
            out.text(&n.to_string());
        }
        Value::Bool(b) => {
            out.raw(if *b { "true" } else { "false" });
        }
        Value::Null => {
            out.raw("null");
        }
        Value::Object(_) | Value::Array(_) => return false,
    }
    true
}

/// A JSON value as a person reads it: an object as a key–value list, an array as a
/// numbered list, a text with line breaks as its lines (a tool's Markdown or log kept
/// in a JSON field), never as one line of `\n` escapes.
fn value_tree(out: &mut String, v: &Value, depth: usize) {
    if scalar(out, v) {
        return;
    }
    match v {
        Value::Object(map) if !map.is_empty() && depth <= TREE_DEPTH => {
            out.raw("<dl class=\"ds-kv\">");
            for (k, v) in map {
                out.raw("<dt>").text(k).raw("</dt><dd>");
                value_tree(out, v, depth + 1);
                out.raw("</dd>");
            }
            out.raw("</dl>");
        }
        Value::Array(items) if !items.is_empty() && depth <= TREE_DEPTH => {
            out.raw("<ol class=\"ds-kv-list\">");
            for item in items {
                out.raw("<li>");
                value_tree(out, item, depth + 1);
                out.raw("</li>");
            }
            out.raw("</ol>");
        }
        other => {
            out.raw("<pre class=\"ds-kv-text\" tabindex=\"0\">");
            push_json_pretty(out, other);
            out.raw("</pre>");
        }
    }
}

/// Markdown of a tool call (a sub-agent's prompt or answer), its heading anchors under
/// the document's id and `what`.
fn markdown(text: &str, doc_id: &str, what: &str, opts: &RenderOptions, out: &mut String) {
    let prefix = format!("{doc_id}-{what}");
    let md = opts.markdown(&prefix);
    out.raw("<div class=\"ds-markdown\">");
    render_markdown_into(text, &md, &mut Slugs::default(), out);
    out.raw("</div>");
}

/// JSON folded under a label: a result as a tree ([`value_tree`]), arguments that are
/// not an object as JSON.
fn folded_json(out: &mut String, name: Label, v: &Value, opts: &RenderOptions) {
    let class = if name == Label::Arguments {
        "ds-tool-args"
    } else {
        "ds-tool-result"
    };
    out.raw("<details class=\"")
        .raw(class)
        .raw("\"><summary>")
        .text(l(opts, name))
        .raw("</summary>");
    if name == Label::Result && (v.is_object() || v.is_array()) {
        value_tree(out, v, 0);
    } else {
        out.raw("<pre tabindex=\"0\">");
        push_json_pretty(out, v);
        out.raw("</pre>");
    }
    out.raw("</details>");
}
