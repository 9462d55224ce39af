//! One writer per document type (the match is exhaustive: a new type is a compile
//! error here until it is written), and the simple ones: text, code, thinking,
//! clarifying questions, errors.

use super::words::duration_text;
use super::writer::Md;
use super::{WriteRun, edits, plan, terminal, tools};
use crate::labels::Label;
use docstream_model::{
    ClarificationMeta, Conversation, DocKey, Document, ErrorMeta, Meta, TextFormat, ThinkingMeta,
};

/// Writes one document; `key` is where it is, `depth` how deep in sub-agent runs.
pub(super) fn document(
    md: &mut Md<'_>,
    c: &Conversation,
    key: DocKey,
    doc: &Document,
    depth: usize,
    run: WriteRun,
) {
    match &doc.meta {
        Meta::Text(m) => match m.format {
            TextFormat::Markdown => {
                md.prose(doc.text());
            }
            TextFormat::Plain => {
                md.block("text", doc.text());
            }
            TextFormat::Json => {
                md.block("json", doc.text());
            }
        },
        Meta::CodeBlock(m) => {
            md.block(&m.language, doc.text());
        }
        Meta::CodeReference(m) => {
            md.code_span(&m.file_path);
            if m.start_line > 0 {
                let lines = format!(
                    "{} {}–{}",
                    md.l(Label::Lines),
                    m.start_line,
                    m.end_line.max(m.start_line)
                );
                md.raw(" ").inline(&lines);
            }
            md.raw("\n\n").block(&m.language, doc.text());
        }
        Meta::FileEdit(m) => edits::file_edit(md, doc, m),
        Meta::TerminalCommand(m) => terminal::terminal(md, doc, m),
        Meta::ToolCall(m) => tools::tool_call(md, c, key, doc, m, depth, run),
        Meta::Plan(m) => plan::plan(md, m),
        Meta::TodoUpdate(m) => plan::todo_update(md, doc, m),
        Meta::Clarification(m) => clarification(md, m),
        Meta::Error(m) => error(md, doc, m),
        Meta::Thinking(m) => thinking(md, doc, m),
    }
}

/// Thinking, folded: "Thinking" (or "Thought for 3.5 s"), the text inside.
fn thinking(md: &mut Md<'_>, doc: &Document, m: &ThinkingMeta) {
    let mut summary = match m.duration_ms {
        Some(ms) => format!("{} {}", md.l(Label::ThoughtFor), duration_text(ms)),
        None => md.l(Label::Thinking).to_owned(),
    };
    if m.redacted {
        summary.push(' ');
        summary.push_str(md.l(Label::Redacted));
    }
    let text = doc.text();
    md.fold(&summary, |md| {
        if !m.redacted {
            md.prose(text);
        }
    });
}

/// Questions with their options, as a list each.
fn clarification(md: &mut Md<'_>, m: &ClarificationMeta) {
    for q in &m.questions {
        md.line("❓", &q.text);
        for o in &q.options {
            md.raw("- ").inline(&o.label).raw("\n");
        }
        if !q.options.is_empty() {
            md.raw("\n");
        }
    }
}

/// A warning or the user stopping the agent as one quoted line; an error as a quote
/// with its code and source, its details in a block.
fn error(md: &mut Md<'_>, doc: &Document, m: &ErrorMeta) {
    let line = match m.error_code.as_str() {
        "AGENT_WARNING" => Some(Label::Warning),
        "AGENT_NOTE" => Some(Label::Note),
        "USER_INTERRUPTED" => Some(Label::Stopped),
        _ => None,
    };
    if let Some(key) = line {
        let name = md.l(key);
        md.quote(name, doc.text());
        return;
    }
    md.raw("> [!CAUTION]\n> **").label(Label::Error).raw("** ");
    md.code_span(&m.error_code);
    if !m.source.is_empty() {
        let source = format!("{} {}", md.l(Label::Source), m.source);
        md.raw(" (").inline(&source).raw(")");
    }
    if !doc.text().trim().is_empty() {
        md.raw(": ").inline(doc.text());
    }
    md.raw("\n\n");
    if !m.details.is_empty() {
        md.block("text", &m.details);
    }
}
