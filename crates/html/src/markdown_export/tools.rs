//! A tool call: one summary line (the progress line: "Read src/main.rs (40 lines)",
//! "Searched “Helo” in src (1 match in 1 file)", with its time) with what it gave
//! folded under it (`<details>`): a file's text in its language, matches as
//! `path:line: text`, web results as links, the arguments and result of any other tool
//! as JSON or text. A sub-agent's call holds its prompt, its whole run and its answer.

use serde_json::Value;

use super::WriteRun;
use super::words::duration_text;
use super::writer::Md;
use crate::labels::Label;
use crate::progress::headline;
use crate::url::{UrlVerdict, check_link, normalise};
use docstream_model::{
    CallStatus, Conversation, DocKey, Document, GenericView, RunFacts, ToolCallMeta, ToolView,
};

pub(super) fn tool_call(
    md: &mut Md<'_>,
    c: &Conversation,
    key: DocKey,
    doc: &Document,
    m: &ToolCallMeta,
    depth: usize,
    run: WriteRun,
) {
    let mut summary = match headline(doc, md.opts.locale) {
        Some(h) => h.line(),
        None => m.tool_name.clone(),
    };
    if let Some(ms) = m.duration_ms {
        summary.push_str(" · ");
        summary.push_str(&duration_text(ms));
    }
    md.fold(&summary, |md| {
        arguments(md, m);
        if let Some(index) = c.subagent_run(key) {
            run(md, c, index, depth + 1);
        }
        result(md, m);
    });
}

/// What the call was given, where the summary line does not say it all: a generic
/// tool's arguments as JSON, a sub-agent's whole prompt.
fn arguments(md: &mut Md<'_>, m: &ToolCallMeta) {
    match &m.view {
        ToolView::Generic(_) => {
            let args = m.shown_arguments();
            let empty = match args {
                Value::Null => true,
                Value::Object(o) => o.is_empty(),
                _ => false,
            };
            if !empty {
                let name = md.l(Label::Arguments);
                md.line(name, "");
                json(md, args);
            }
        }
        ToolView::Subagent(v) => {
            if let Some(prompt) = &v.prompt {
                let name = md.l(Label::Prompt);
                md.fold(name, |md| {
                    md.prose(prompt);
                });
            }
        }
        ToolView::Read(_)
        | ToolView::Search(_)
        | ToolView::WebSearch(_)
        | ToolView::WebFetch(_) => {}
    }
}

fn json(md: &mut Md<'_>, v: &Value) {
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    md.block("json", &text);
}

/// What the call gave.
fn result(md: &mut Md<'_>, m: &ToolCallMeta) {
    let Some(result) = &m.result else { return };
    if result.status.refused() {
        if let Some(why) = &m.error {
            let reason = md.l(Label::Reason);
            md.quote(reason, why);
        }
        return;
    }
    if result.status == CallStatus::Error {
        if let Some(msg) = &m.error {
            md.block("text", msg);
            return;
        }
    }
    match &m.view {
        ToolView::Read(r) => {
            let text = r.content.as_ref().map_or("", |t| m.view_text(t));
            if !text.is_empty() {
                md.block(&r.language, text);
            }
        }
        ToolView::Search(s) if s.groups.is_some() => {
            let mut text = String::new();
            for g in s.groups.iter().flatten() {
                if g.lines.is_empty() {
                    text.push_str(&g.path);
                    text.push('\n');
                }
                for (n, line) in &g.lines {
                    text.push_str(&g.path);
                    if let Some(n) = n {
                        text.push_str(&format!(":{n}"));
                    }
                    text.push_str(": ");
                    text.push_str(line.trim_end());
                    text.push('\n');
                }
            }
            if !text.is_empty() {
                md.block("text", &text);
            }
        }
        ToolView::WebSearch(w) => {
            for link in &w.links {
                md.raw("- ");
                web_link(md, &link.url, &link.title);
                if let Some(s) = link.snippet.as_deref().filter(|s| !s.trim().is_empty()) {
                    md.raw(" — ").inline(s);
                }
                md.raw("\n");
            }
            if !w.links.is_empty() {
                md.raw("\n");
            }
            if let Some(text) = &w.text {
                md.prose(text);
            }
        }
        ToolView::WebFetch(f) => {
            if let Some(url) = &f.url {
                web_link(md, url, url);
                if let Some(code) = f.code {
                    md.raw(" (").inline(&code.to_string()).raw(")");
                }
                md.raw("\n\n");
            }
            if let Some(text) = f.text.as_ref().map(|t| m.view_text(t)) {
                if !text.trim().is_empty() {
                    md.block("text", text);
                }
            }
        }
        ToolView::Subagent(v) => {
            if let Some(facts) = &v.facts {
                run_facts(md, facts);
            }
            if let Some(answer) = &v.answer {
                md.prose(answer);
            }
        }
        ToolView::Generic(GenericView { text: Some(t), .. }) => {
            let text = m.view_text(t);
            if !text.is_empty() {
                let name = md.l(Label::Result);
                md.line(name, "");
                md.block("text", text);
            }
        }
        ToolView::Search(_) | ToolView::Generic(_) => {
            let name = md.l(Label::Result);
            match &result.data {
                Value::Null => {}
                Value::String(s) if s.is_empty() => {}
                Value::String(s) => {
                    md.line(name, "");
                    md.block("text", s);
                }
                other => {
                    md.line(name, "");
                    json(md, other);
                }
            }
        }
    }
}

/// A link to an http(s) address the URL policy allows (its address kept inside `<…>`,
/// with the characters that could end it encoded); any other address as code.
fn web_link(md: &mut Md<'_>, url: &str, title: &str) {
    let n = normalise(url).to_ascii_lowercase();
    let web = n.starts_with("http://") || n.starts_with("https://");
    if !(web && check_link(url) == UrlVerdict::Allowed) {
        if title != url {
            md.inline(title).raw(" ");
        }
        md.code_span(url);
        return;
    }
    let title = if title.trim().is_empty() { url } else { title };
    md.raw("[").inline(title).raw("](<");
    md.url(url).raw(">)");
}

/// What a sub-agent's result says of its run, in one line.
fn run_facts(md: &mut Md<'_>, f: &RunFacts) {
    let mut parts = Vec::new();
    if let Some(id) = &f.agent_id {
        parts.push(format!("{} {id}", md.l(Label::AgentId)));
    }
    if let Some(status) = &f.status {
        parts.push(status.clone());
    }
    if let Some(n) = f.tokens {
        parts.push(format!("{n} {}", md.l(Label::Tokens)));
    }
    if let Some(n) = f.tool_uses {
        parts.push(crate::facts::counted(
            n,
            Label::ToolCallOne,
            Label::ToolCallMany,
            md.opts.locale,
        ));
    }
    if let Some(ms) = f.duration_ms {
        parts.push(duration_text(ms));
    }
    if !parts.is_empty() {
        md.raw("_").inline(&parts.join(" · ")).raw("_\n\n");
    }
}
