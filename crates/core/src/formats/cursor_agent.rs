//! Cursor's agent transcripts, `~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`
//! (and `<id>/subagents/<id>.jsonl`), written by Cursor's agent in the IDE and the CLI.
//!
//! Each line is a message, `{"role": "user" | "assistant", "message": {"content": …}}`,
//! its content a string (older files) or Anthropic-style blocks: `text`, `tool_use`
//! (`name`, `input`, no id in the files seen), and where a build writes them `thinking`
//! and `tool_result`. A turn ends with a line `{"type": "turn_ended", "status":
//! "success" | "error", "error": …}`. What the person typed is the `<user_query>` of a
//! user message; the other tagged sections Cursor puts around it (`<timestamp>` prose in
//! the person's locale, attached files, rules) are kept as the prompt's attachments,
//! and a user message of such sections only goes with the next prompt. A text that
//! ends in `[REDACTED]` marks thinking Cursor withheld.
//!
//! The files record no times, no model, no usage and (in the builds seen) no tool
//! results: none is made up. A call without its result says so ("no result recorded").

use std::borrow::Cow;
use std::collections::{HashSet, VecDeque};

use serde_json::{Map, Value};
use serde_json_borrow::Value as Tree;

use super::apply_patch;
use super::common::end_open_response;
use super::fields::{self, Fields, Read};
use super::{Adapter, Payload, or_report};
use crate::model::{Attachment, CallStatus};
use crate::normalize::{ErrorInfo, Event, Sink, ToolKind, ToolNames, ToolOutcome};

/// The agent's tool names that the Cursor CLI's table (also looked up) lacks.
pub(super) const TOOLS: ToolNames = &[
    ("ApplyPatch", ToolKind::Patch),
    ("Edit", ToolKind::Edit),
    ("MultiEdit", ToolKind::Edit),
    ("TodoWrite", ToolKind::Todo),
    ("CreatePlan", ToolKind::Plan),
    ("Task", ToolKind::Task),
    ("SemanticSearch", ToolKind::CodebaseSearch),
    ("WebSearch", ToolKind::WebSearch),
    ("WebFetch", ToolKind::WebFetch),
];

/// True for a line of this format's own, for detection: a turn's end.
pub(super) fn is_line_type(kind: &str) -> bool {
    kind == "turn_ended"
}

/// The transcript's state.
#[derive(Default)]
pub(in crate::formats) struct CursorAgent {
    /// Calls started, oldest first (an id no longer in `open` has ended): a
    /// `tool_result` without an id ends the oldest still open.
    order: VecDeque<String>,
    /// The calls started and not ended.
    open: HashSet<String>,
    /// Context Cursor added in user messages of their own, for the next prompt.
    context: Vec<Attachment>,
    /// The last thing shown was text: the next text starts a new paragraph.
    after_text: bool,
}

impl Adapter for CursorAgent {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let line = p.at.line.unwrap_or(p.at.offset);
        let read = Fields::of(&tree, "the line").and_then(|f| self.line(f, line, n));
        let _ = or_report(read, &p, n);
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        if !self.context.is_empty() {
            n.apply(Event::UserPrompt {
                text: Cow::Borrowed(""),
                attachments: std::mem::take(&mut self.context),
            });
        }
        end_open_response(n);
    }
}

/// One block of a message, read whole before anything is shown.
enum Block {
    Text(String),
    Thinking(String),
    ToolUse {
        id: Option<String>,
        name: String,
        input: Value,
    },
    ToolResult {
        id: Option<String>,
        content: String,
        is_error: bool,
    },
    Image,
    TurnEnded(TurnEnd),
    Unknown,
}

/// A `turn_ended`: its status and error.
struct TurnEnd {
    status: Option<String>,
    error: Option<String>,
}

impl CursorAgent {
    fn line(&mut self, f: Fields<'_, '_>, line: u64, n: &mut dyn Sink) -> Read<()> {
        let kind = f.str("type")?;
        let role = f.str("role")?;
        if role.is_none() {
            match kind {
                Some(k) if is_line_type(k) => {
                    let end = turn_end(f)?;
                    self.end_turn(end, n);
                }
                _ => n.apply(Event::Unknown),
            }
            return Ok(());
        }
        let blocks = match f.object("message")? {
            Some(m) => blocks(m)?,
            None => Vec::new(),
        };
        match role {
            Some("user") => self.user(blocks, n),
            Some("assistant") => self.assistant(blocks, line, n),
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    fn user(&mut self, blocks: Vec<Block>, n: &mut dyn Sink) {
        let mut text = String::new();
        let mut images = 0;
        for b in blocks {
            match b {
                Block::Text(t) => {
                    if !text.is_empty() {
                        text.push_str("\n\n");
                    }
                    text.push_str(&t);
                }
                Block::Image => images += 1,
                Block::ToolResult {
                    id,
                    content,
                    is_error,
                } => self.result(id, content, is_error, n),
                Block::TurnEnded(end) => self.end_turn(end, n),
                Block::Thinking(_) | Block::ToolUse { .. } | Block::Unknown => {
                    n.apply(Event::Unknown)
                }
            }
        }
        let prompt = Prompt::of(&text);
        self.context.extend(prompt.context);
        self.context.extend((0..images).map(|_| Attachment {
            kind: "image".to_owned(),
            ..Attachment::default()
        }));
        // A message of Cursor's context only (no query, no other words) goes with
        // the next prompt.
        let Some(typed) = prompt.typed else {
            return;
        };
        self.after_text = false;
        n.apply(Event::UserPrompt {
            text: Cow::Owned(typed),
            attachments: std::mem::take(&mut self.context),
        });
    }

    fn assistant(&mut self, blocks: Vec<Block>, line: u64, n: &mut dyn Sink) {
        for (i, b) in blocks.into_iter().enumerate() {
            match b {
                Block::Text(t) => {
                    let (said, redacted) = split_redacted(&t);
                    if !said.trim().is_empty() {
                        let text = if self.after_text {
                            format!("\n\n{said}")
                        } else {
                            said.to_owned()
                        };
                        n.apply(Event::Text(Cow::Owned(text)));
                        self.after_text = true;
                    }
                    if redacted {
                        n.apply(Event::ThinkingEnd {
                            signature: None,
                            redacted: true,
                        });
                        self.after_text = false;
                    }
                }
                Block::Thinking(t) => {
                    if !t.is_empty() {
                        n.apply(Event::Thinking(Cow::Owned(t)));
                        n.apply(Event::ThinkingEnd {
                            signature: None,
                            redacted: false,
                        });
                        self.after_text = false;
                    }
                }
                Block::ToolUse { id, name, input } => {
                    // The files give calls no id: the line and the block's place name it.
                    let id = id.unwrap_or_else(|| format!("line{line}.{i}"));
                    let patch = input
                        .get("patch")
                        .or_else(|| input.get("input"))
                        .and_then(Value::as_str)
                        .filter(|_| name == "ApplyPatch")
                        .map(str::to_owned);
                    match patch {
                        // One file edit per file (and hunk) the patch changes.
                        Some(patch) => {
                            for id in apply_patch::start(&id, &patch, &name, input, n) {
                                self.opened(id);
                            }
                        }
                        None => {
                            self.opened(id.clone());
                            n.apply(Event::tool_start(id, name, input));
                        }
                    }
                    self.after_text = false;
                }
                Block::ToolResult {
                    id,
                    content,
                    is_error,
                } => self.result(id, content, is_error, n),
                Block::TurnEnded(end) => self.end_turn(end, n),
                Block::Image | Block::Unknown => n.apply(Event::Unknown),
            }
        }
    }

    fn opened(&mut self, id: String) {
        if self.open.insert(id.clone()) {
            self.order.push_back(id);
        }
    }

    /// A tool's result: to the call it names, else to the oldest open call (each in
    /// constant time, amortised: ended calls leave `order` as they are passed).
    fn result(&mut self, id: Option<String>, content: String, is_error: bool, n: &mut dyn Sink) {
        let call = match id {
            Some(id) => {
                self.open.remove(&id);
                Some(id)
            }
            None => loop {
                match self.order.pop_front() {
                    Some(c) if self.open.remove(&c) => break Some(c),
                    Some(_) => continue,
                    None => break None,
                }
            },
        };
        let Some(call) = call else {
            n.apply(Event::Unknown);
            return;
        };
        let status = if is_error {
            CallStatus::Error
        } else {
            CallStatus::Success
        };
        n.apply(Event::tool_end(
            call,
            ToolOutcome {
                status,
                data: Value::String(content),
            },
        ));
        self.after_text = false;
    }

    /// A turn ends: its response is complete, or failed with the error it names (a
    /// request the user aborted is an interruption).
    fn end_turn(&mut self, end: TurnEnd, n: &mut dyn Sink) {
        self.open.clear();
        self.order.clear();
        self.after_text = false;
        let status = end.status.as_deref().unwrap_or("success");
        if status == "success" && end.error.is_none() {
            n.apply(Event::Done { error: None });
            return;
        }
        let message = end
            .error
            .unwrap_or_else(|| format!("The turn ended with status “{status}”."));
        let lower = message.to_ascii_lowercase();
        let stopped = matches!(status, "aborted" | "cancelled" | "canceled")
            || lower.contains("aborted")
            || lower.contains("cancelled");
        let error = if stopped {
            ErrorInfo::interrupted(message)
        } else {
            ErrorInfo::agent(message)
        };
        n.apply(Event::Done { error: Some(error) });
    }
}

/// A `turn_ended`'s fields.
fn turn_end(f: Fields<'_, '_>) -> Read<TurnEnd> {
    Ok(TurnEnd {
        status: f.string("status")?,
        error: f.string("error")?,
    })
}

/// A message's content: a string is one text block.
fn blocks(m: Fields<'_, '_>) -> Read<Vec<Block>> {
    match m.get("content") {
        None => Ok(Vec::new()),
        Some(Tree::Str(s)) => Ok(vec![Block::Text(s.to_string())]),
        Some(Tree::Array(items)) => items
            .iter()
            .map(|b| block(Fields::of(b, "a content block")?))
            .collect(),
        Some(other) => Err(fields::wrong(
            "`message.content`",
            "a string or an array",
            other,
        )),
    }
}

fn block(b: Fields<'_, '_>) -> Read<Block> {
    Ok(match b.str("type")?.unwrap_or_default() {
        "text" => Block::Text(b.string("text")?.unwrap_or_default()),
        "thinking" => {
            let text = match b.string("thinking")? {
                Some(t) => t,
                None => b.string("text")?.unwrap_or_default(),
            };
            Block::Thinking(text)
        }
        "tool_use" => {
            let input = match b.value("input") {
                Some(Value::Object(o)) => Value::Object(o),
                // ApplyPatch's input is the patch itself.
                Some(Value::String(s)) => {
                    let mut o = Map::new();
                    o.insert("input".to_owned(), Value::String(s));
                    Value::Object(o)
                }
                _ => Value::Object(Map::new()),
            };
            Block::ToolUse {
                id: b.string("id")?,
                name: b.string("name")?.unwrap_or_else(|| "tool".to_owned()),
                input,
            }
        }
        "tool_result" => Block::ToolResult {
            id: b.string("tool_use_id")?,
            content: result_text(b.get("content")),
            is_error: b.bool("is_error")?.unwrap_or(false),
        },
        "image" => Block::Image,
        "turn_ended" => Block::TurnEnded(turn_end(b)?),
        _ => Block::Unknown,
    })
}

/// A result's content: a string, or the text of its blocks.
fn result_text(v: Option<&Tree<'_>>) -> String {
    match v {
        Some(Tree::Str(s)) => s.to_string(),
        Some(Tree::Array(items)) => items
            .iter()
            .filter_map(|b| b.get("text").as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A text less the `[REDACTED]` that ends it (thinking Cursor withheld), and whether
/// it had one.
fn split_redacted(text: &str) -> (&str, bool) {
    const MARK: &str = "[REDACTED]";
    let trimmed = text.trim_end();
    match trimmed.strip_suffix(MARK) {
        Some(rest) if rest.is_empty() || rest.ends_with('\n') => (rest.trim_end(), true),
        _ => (text, false),
    }
}

/// A user message's text taken apart: what the person typed (the `<user_query>`, or
/// the words outside any tag), and the sections Cursor added, as attachments named by
/// their tag.
struct Prompt {
    typed: Option<String>,
    context: Vec<Attachment>,
}

impl Prompt {
    fn of(text: &str) -> Prompt {
        let mut queries: Vec<&str> = Vec::new();
        let mut loose = String::new();
        let mut context = Vec::new();
        let mut rest = text;
        while !rest.trim().is_empty() {
            let start = rest.trim_start();
            if start.starts_with('<') {
                // A tag that does not close makes the rest words: each byte is
                // searched for a closing tag at most once.
                let Some((tag, body, after)) = section(start) else {
                    if !loose.is_empty() {
                        loose.push('\n');
                    }
                    loose.push_str(start.trim_end());
                    break;
                };
                if tag == "user_query" {
                    queries.push(body.trim());
                } else {
                    context.push(Attachment {
                        kind: tag.to_owned(),
                        text: Some(body.trim().to_owned()),
                        ..Attachment::default()
                    });
                }
                rest = after;
                continue;
            }
            // Words outside a tag, up to the next line that opens one.
            let end = start.find("\n<").map_or(start.len(), |i| i + 1);
            if !loose.is_empty() {
                loose.push('\n');
            }
            loose.push_str(start[..end].trim_end());
            rest = &start[end..];
        }
        let typed = if queries.is_empty() {
            (!loose.trim().is_empty()).then(|| loose.trim().to_owned())
        } else {
            let mut t = queries.join("\n\n");
            if !loose.trim().is_empty() {
                t.push_str("\n\n");
                t.push_str(loose.trim());
            }
            Some(t)
        };
        Prompt { typed, context }
    }
}

/// A section `<tag …>body</tag>` at the start of `text`: its tag, body and what
/// follows; `None` when `text` does not open with one that closes.
fn section(text: &str) -> Option<(&str, &str, &str)> {
    let open = text.strip_prefix('<')?;
    let name_end = open.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))?;
    let name = &open[..name_end];
    if name.is_empty() {
        return None;
    }
    let head_end = open[name_end..].find('>')? + name_end;
    if open[name_end..head_end].contains('\n') {
        return None;
    }
    let body_and_rest = &open[head_end + 1..];
    let close = format!("</{name}>");
    let body_end = body_and_rest.find(&close)?;
    Some((
        name,
        &body_and_rest[..body_end],
        &body_and_rest[body_end + close.len()..],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::formats::detect::json_format;

    #[test]
    fn a_message_line_or_a_turns_end_tells_the_format() {
        for line in [
            r#"{"role":"user","message":{"content":[{"type":"text","text":"<user_query>\nhi\n</user_query>"}]}}"#,
            r#"{"role":"assistant","message":{"content":"legacy"}}"#,
            r#"{"type":"turn_ended","status":"success"}"#,
        ] {
            assert_eq!(
                json_format(line),
                Some(Format::CursorAgentTranscript),
                "{line}"
            );
        }
        // Claude Code's lines carry a message and a role too, with their own keys.
        let claude = r#"{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u","sessionId":"s"}"#;
        assert_eq!(json_format(claude), Some(Format::ClaudeCodeTranscript));
        // A chat message of a provider API (no `message` wrapper) is not this.
        assert_ne!(
            json_format(r#"{"role":"user","content":"hi"}"#),
            Some(Format::CursorAgentTranscript)
        );
    }

    #[test]
    fn the_typed_query_is_the_prompt_and_the_rest_is_context() {
        let p = Prompt::of(
            "<timestamp>Thursday, Jul 23, 2026, 1:18 PM (UTC+9)</timestamp>\n<user_query>\nRun it.\n</user_query>\n<attached_files>\n<file path=\"a\"/>\n</attached_files>",
        );
        assert_eq!(p.typed.as_deref(), Some("Run it."));
        let kinds: Vec<&str> = p.context.iter().map(|a| a.kind.as_str()).collect();
        assert_eq!(kinds, ["timestamp", "attached_files"]);
        assert_eq!(
            p.context[0].text.as_deref(),
            Some("Thursday, Jul 23, 2026, 1:18 PM (UTC+9)")
        );
        // Untagged words are what was typed; a tag that never closes is words too.
        assert_eq!(
            Prompt::of("review this").typed.as_deref(),
            Some("review this")
        );
        assert_eq!(Prompt::of("a <b> c").typed.as_deref(), Some("a <b> c"));
        assert_eq!(
            Prompt::of("<x>never closed").typed.as_deref(),
            Some("<x>never closed")
        );
        // Context alone types nothing.
        let only = Prompt::of("<agent_skills>\nlist\n</agent_skills>");
        assert_eq!(only.typed, None);
        assert_eq!(only.context.len(), 1);
    }

    /// Words before the tags are typed words too; hostile text costs linear time.
    #[test]
    fn prompts_of_any_shape_are_read_in_linear_time() {
        let p = Prompt::of("Please look.\n<user_query>Fix it.</user_query>\n<rules>r</rules>");
        assert_eq!(p.typed.as_deref(), Some("Fix it.\n\nPlease look."));
        assert_eq!(p.context.len(), 1);
        let start = std::time::Instant::now();
        let many = "<a>\n".repeat(200_000);
        let p = Prompt::of(&many);
        assert_eq!(p.typed.map(|t| t.len()), Some(many.trim_end().len()));
        let closed = "<a>x</a>\n".repeat(100_000) + &"<b>".repeat(100_000);
        assert_eq!(Prompt::of(&closed).context.len(), 100_000);
        assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    }

    /// Results end their calls in constant time each, by id or the oldest open.
    #[test]
    fn results_end_calls_by_id_or_oldest_first() {
        use crate::model::{Conversation, Meta};
        use crate::{DocStream, Options};
        let read = |input: &str| -> Conversation {
            let mut s = DocStream::new(Options::default());
            s.push(input.as_bytes()).unwrap();
            s.finish().unwrap();
            s.into_conversation()
        };
        let c = read(concat!(
            r#"{"role":"user","message":{"content":"go"}}"#,
            "\n",
            r#"{"role":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Shell","input":{"command":"true"}},{"type":"tool_use","name":"Shell","input":{"command":"false"}}]}}"#,
            "\n",
            r#"{"role":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"ok"},{"type":"tool_result","content":"boom","is_error":true}]}}"#,
            "\n",
        ));
        let runs: Vec<Option<CallStatus>> = c
            .documents()
            .filter_map(|d| match &d.meta {
                Meta::TerminalCommand(m) => Some(m.status),
                _ => None,
            })
            .collect();
        assert_eq!(runs, [Some(CallStatus::Success), Some(CallStatus::Error)]);
        // Many calls, and as many results naming no call: still quick.
        let start = std::time::Instant::now();
        let uses: Vec<String> = (0..20_000)
            .map(|i| format!(r#"{{"type":"tool_use","id":"c{i}","name":"x","input":{{}}}}"#))
            .collect();
        let results: Vec<String> = (0..20_000)
            .map(|i| format!(r#"{{"type":"tool_result","tool_use_id":"z{i}","content":""}}"#))
            .collect();
        let input = format!(
            "{{\"role\":\"assistant\",\"message\":{{\"content\":[{}]}}}}\n{{\"role\":\"user\",\"message\":{{\"content\":[{}]}}}}\n",
            uses.join(","),
            results.join(",")
        );
        let _ = read(&input);
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    }

    #[test]
    fn a_trailing_redacted_mark_is_withheld_thinking() {
        assert_eq!(split_redacted("[REDACTED]"), ("", true));
        assert_eq!(
            split_redacted("Looking.\n\n[REDACTED]\n"),
            ("Looking.", true)
        );
        assert_eq!(split_redacted("see [REDACTED]"), ("see [REDACTED]", false));
        assert_eq!(split_redacted("plain"), ("plain", false));
    }
}
