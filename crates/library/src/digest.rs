//! What a list and a search need of one conversation: counts, the first prompt, the
//! files it touched, the commands it ran, and the searchable text of each prompt and
//! document with the anchor that opens it.
//!
//! Searchable: prompts, prose, code, thinking, plans, errors, file paths, commands, tool
//! names and short string arguments. Not searchable: tool output and file contents
//! (they would make the index as large as the store, and a hit there is rarely what a
//! reader looks for).

use serde::Serialize;
use serde_json::Value;

use docstream_model::{Conversation, Document, Meta, Turn, Usage};

/// String arguments of a tool call longer than this are not searched.
const MAX_ARGUMENT: usize = 300;

/// The searchable text of one prompt or document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    /// The element to open: a document id (`data-doc-id`) or a user turn's id
    /// (`data-turn-id`).
    pub anchor: String,
    /// Its text, lines joined by `\n`.
    pub text: String,
}

/// Counts and searchable text of a conversation.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Digest {
    /// Prompts plus responses.
    pub messages: usize,
    /// Tool calls, file edits, terminal runs, plans and todo updates.
    pub tools: usize,
    /// `error` documents (bad rows, missing bubbles, failures).
    pub errors: usize,
    /// The first non-empty prompt.
    pub first_prompt: Option<String>,
    /// When the first turn that says so was written.
    pub created: Option<String>,
    /// Files edited, in first-seen order, each once.
    pub paths: Vec<String>,
    /// Commands run, in order.
    pub commands: Vec<String>,
    /// Searchable text by anchor, in conversation order.
    pub parts: Vec<Part>,
    /// (tool call id, document id) of every tool call, to link a sub-agent to its call.
    pub calls: Vec<(String, String)>,
    /// The working directory the agent ran in, where a response says (Codex's
    /// `session_meta.cwd`, Claude Code's `cwd`).
    pub project: Option<String>,
    /// When the last turn that says so was written.
    pub updated: Option<String>,
    /// Tokens used, summed over the responses that report them.
    pub usage: Option<Usage>,
    /// Cost in US dollars, summed over the responses that state it.
    pub cost_usd: Option<f64>,
}

/// The digest of a conversation.
pub fn digest(conversation: &Conversation) -> Digest {
    let totals = conversation.totals();
    let mut d = Digest {
        project: totals.cwd,
        updated: totals.last,
        usage: totals.usage,
        cost_usd: totals.cost_usd,
        ..Digest::default()
    };
    for turn in &conversation.turns {
        d.messages += 1;
        match turn {
            Turn::User(u) => {
                if d.created.is_none() {
                    d.created.clone_from(&u.created);
                }
                let mut text = u.content.clone();
                for a in &u.attachments {
                    if let Some(p) = &a.path {
                        push_line(&mut text, p);
                    }
                }
                // A compaction's summary is the agent's note, not a prompt.
                if d.first_prompt.is_none()
                    && u.compaction.is_none()
                    && !u.content.trim().is_empty()
                {
                    d.first_prompt = Some(u.content.clone());
                }
                if !text.trim().is_empty() {
                    d.parts.push(Part {
                        anchor: u.id.clone(),
                        text,
                    });
                }
            }
            Turn::Assistant(r) => {
                if d.created.is_none() {
                    d.created.clone_from(&r.created);
                }
                for doc in &r.documents {
                    document(doc, &mut d);
                }
            }
        }
    }
    d
}

fn push_line(text: &mut String, line: &str) {
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(line);
}

fn document(doc: &Document, d: &mut Digest) {
    let call = match &doc.meta {
        Meta::ToolCall(m) => Some(&m.tool_call_id).filter(|c| !c.is_empty()),
        Meta::FileEdit(m) => m.tool_call_id.as_ref(),
        Meta::TerminalCommand(m) => m.tool_call_id.as_ref(),
        Meta::Plan(m) => m.tool_call_id.as_ref(),
        _ => None,
    };
    if let Some(c) = call {
        d.calls.push((c.clone(), doc.id.clone()));
    }
    let mut text = String::new();
    match &doc.meta {
        Meta::Text(_) | Meta::CodeBlock(_) | Meta::CodeReference(_) | Meta::Thinking(_) => {
            text.push_str(doc.text());
        }
        Meta::FileEdit(m) => {
            d.tools += 1;
            push_line(&mut text, &m.file_path);
            if !d.paths.contains(&m.file_path) {
                d.paths.push(m.file_path.clone());
            }
            if let Some(p) = &m.new_path {
                push_line(&mut text, p);
            }
        }
        Meta::TerminalCommand(m) => {
            d.tools += 1;
            push_line(&mut text, &m.command);
            d.commands.push(m.command.clone());
        }
        Meta::ToolCall(m) => {
            d.tools += 1;
            push_line(&mut text, &m.tool_name);
            strings(&m.arguments, &mut text);
        }
        Meta::Plan(m) => {
            d.tools += 1;
            push_line(&mut text, &m.title);
            push_line(&mut text, &m.overview);
            for t in &m.todos {
                push_line(&mut text, &t.content);
            }
        }
        Meta::TodoUpdate(_) => d.tools += 1,
        Meta::Error(m) => {
            d.errors += 1;
            push_line(&mut text, doc.text());
            push_line(&mut text, &m.details);
        }
        Meta::Clarification(_) => text.push_str(doc.text()),
    }
    if !text.trim().is_empty() {
        d.parts.push(Part {
            anchor: doc.id.clone(),
            text,
        });
    }
}

/// The short string values of a tool's arguments (paths, patterns, queries).
fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) if s.len() <= MAX_ARGUMENT => push_line(out, s),
        Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Format;

    #[test]
    fn counts_and_text_of_a_claude_code_session() {
        let session = concat!(
            r#"{"type":"user","sessionId":"s","uuid":"u1","timestamp":"2025-01-02T03:04:05Z","message":{"role":"user","content":"Fix the parser"}}"#,
            "\n",
            r#"{"type":"assistant","sessionId":"s","uuid":"a1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Looking."},{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"cargo test"}},{"type":"tool_use","id":"t2","name":"Edit","input":{"file_path":"src/p.rs","old_string":"a","new_string":"b"}},{"type":"tool_use","id":"t3","name":"Grep","input":{"pattern":"fn parse"}}]}}"#,
            "\n"
        );
        let c = crate::parse(session.as_bytes(), Some(Format::ClaudeCodeTranscript));
        let d = digest(&c);
        assert_eq!(d.messages, 2);
        assert_eq!(d.tools, 3);
        assert_eq!(d.first_prompt.as_deref(), Some("Fix the parser"));
        assert_eq!(d.paths, ["src/p.rs"]);
        assert_eq!(d.commands, ["cargo test"]);
        let all: Vec<&str> = d.parts.iter().map(|p| p.text.as_str()).collect();
        assert!(all.contains(&"Fix the parser"), "{all:?}");
        assert!(all.iter().any(|t| t.contains("fn parse")), "{all:?}");
        assert!(d.parts.iter().all(|p| !p.anchor.is_empty()));
        let calls: Vec<&str> = d.calls.iter().map(|(c, _)| c.as_str()).collect();
        assert_eq!(calls, ["t1", "t2", "t3"]);
    }

    #[test]
    fn a_session_that_opens_with_a_compaction_is_named_by_its_first_prompt() {
        // The compaction fixture from its last compaction on: a session continued after
        // its context was compacted opens with the boundary and the summary.
        let whole = include_str!("../../../tests/fixtures/claude-code-transcript/compaction.jsonl");
        let lines: Vec<&str> = whole.lines().collect();
        let from = lines
            .iter()
            .rposition(|l| l.contains("compact_boundary"))
            .unwrap();
        let continued: String = lines[from..].iter().map(|l| format!("{l}\n")).collect();
        let c = crate::parse(continued.as_bytes(), Some(Format::ClaudeCodeTranscript));
        assert!(
            matches!(&c.turns[0], docstream_model::Turn::User(u) if u.compaction.is_some()),
            "the fixture's session opens with a compaction: {:?}",
            c.turns.first()
        );
        let first = digest(&c).first_prompt;
        assert_eq!(
            first.as_deref(),
            Some("Add a test that counts the queries.")
        );
    }
}
