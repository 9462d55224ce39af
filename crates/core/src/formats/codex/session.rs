//! A saved Codex session (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
//! `{timestamp, type, payload}` record per line.
//!
//! - `session_meta` (id, cwd) and `turn_context` (model, cwd) are session facts.
//! - `response_item`s are what the model saw and said: `message` (the user's prompt,
//!   the assistant's text; `developer` and injected context such as
//!   `<environment_context>` are left out), `reasoning` (its `summary` is shown as
//!   thinking — its `encrypted_content` is never read), `function_call` /
//!   `function_call_output` (shell tools → terminal runs, `apply_patch` → file edits,
//!   `update_plan` → the plan and its todo updates, MCP and other tools → tool calls),
//!   `custom_tool_call` / `custom_tool_call_output` (the freeform `apply_patch`),
//!   `local_shell_call`, `web_search_call`.
//! - `event_msg`s are what the UI showed: `user_message`, `agent_message`,
//!   `agent_reasoning` repeat the items above — a text that comes both ways is shown
//!   once, whichever comes first —, `token_count` gives the usage, `turn_aborted` and
//!   `task_complete` end the response, `error` is an `error` document.
//!
//! - `compacted` (the summary that replaced the context, empty when the server
//!   compacted it) and the `context_compacted` event that follows it are one compaction
//!   turn: a divider with the summary folded, never a prompt.
//!
//! Record types not listed (and `ghost_snapshot` …) are counted as not understood and
//! skipped. Each prompt and what follows it is one response; the last
//! one ends with the input.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Value, json};
use serde_json_borrow::Value as Tree;

use super::{Tokens, command_line, shell_output};
use crate::error::codes;
use crate::formats::apply_patch;
use crate::formats::common::{end_open_response, tool_input};
use crate::formats::fields::{self, Fields, Read, each, wire};
use crate::formats::{Adapter, Payload, json_error, or_report};
use crate::model::{Attachment, CallStatus, Compaction};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolOutcome};

wire! {
    /// One record.
    struct Record<'v, 'a> {
        timestamp: string "timestamp",
        kind: str "type" or_default,
        payload: get "payload",
    }
}

wire! {
    /// `session_meta` and `turn_context` payloads: the facts shown.
    struct Facts {
        id: string "id",
        cwd: string "cwd",
        model: string "model",
    }
}

wire! {
    /// An `event_msg` payload, flat.
    struct EventMsg<'v> {
        /// `info.total_token_usage`.
        total: Option<Tokens> = |f| match f.object("info")? {
            Some(info) => info.object("total_token_usage")?.map(Tokens::read).transpose(),
            None => Ok(None),
        },
        kind: str "type" or_default,
        message: str "message",
        text: str "text",
        /// How many `images` and `local_images`.
        images: usize = |f| {
            let count = |key| Ok::<_, serde_json::Error>(f.array(key)?.map_or(0, <[_]>::len));
            Ok(count("images")? + count("local_images")?)
        },
        /// Early versions: `plain`, or the injected `user_instructions` /
        /// `environment_context`.
        input_kind: str "kind",
        reason: string "reason",
    }
}

wire! {
    /// A `response_item` payload, flat.
    struct Item<'v> {
        kind: str "type" or_default,
        role: str "role",
        content: Option<Body<'v>> = |f| Body::read(f, "content"),
        summary: list<Part<'v>> "summary",
        name: string "name",
        arguments: str "arguments",
        call_id: string "call_id",
        input: str "input",
        output: Option<Body<'v>> = |f| Body::read(f, "output"),
        action: value "action",
        status: str "status",
    }
}

wire! {
    /// A content part: `input_text`, `output_text`, `input_image`, `summary_text`,
    /// `reasoning_text`.
    struct Part<'v> {
        kind: str "type" or_default,
        text: str "text",
    }
}

/// A message's `content` or a call's `output`: text, content parts, or (early
/// outputs) `{content, success}`.
enum Body<'v> {
    Text(&'v str),
    Parts(Vec<Part<'v>>),
    Payload {
        content: &'v str,
        success: Option<bool>,
    },
}

impl<'v> Body<'v> {
    /// The field `key` of `f`, if there.
    fn read(f: Fields<'v, '_>, key: &str) -> Read<Option<Self>> {
        let Some(v) = f.get(key) else {
            return Ok(None);
        };
        Ok(Some(match v {
            Tree::Str(s) => Body::Text(s.as_ref()),
            Tree::Array(a) => Body::Parts(each(a, key, Part::read)?),
            other => {
                let o = Fields::of(other, &format!("field `{key}`"))?;
                Body::Payload {
                    content: o.str("content")?.unwrap_or_default(),
                    success: o.bool("success")?,
                }
            }
        }))
    }

    /// The text, and whether the output says the call failed.
    fn text(&self) -> (Cow<'v, str>, bool) {
        match self {
            Body::Text(t) => (Cow::Borrowed(*t), false),
            Body::Parts(parts) => (
                Cow::Owned(join(parts, &["input_text", "output_text"], "\n")),
                false,
            ),
            Body::Payload { content, success } => {
                (Cow::Borrowed(*content), *success == Some(false))
            }
        }
    }
}

/// The texts of the parts of the given types, joined.
fn join(parts: &[Part<'_>], kinds: &[&str], separator: &str) -> String {
    let texts: Vec<&str> = parts
        .iter()
        .filter(|p| kinds.contains(&p.kind))
        .filter_map(|p| p.text)
        .collect();
    texts.join(separator)
}

/// What a call's output ends.
enum Call {
    /// A shell command: a terminal run.
    Shell,
    /// A patch: its file edits.
    Patch(Vec<String>),
    /// Anything else (the plan, MCP and other tools).
    Other,
}

/// Which record a text came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Event,
    Item,
}

/// What a text is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Said {
    Prompt,
    Answer,
    Reasoning,
}

/// The texts shown from one kind of record and not yet seen from the other: Codex saves
/// a prompt, an answer and a reasoning summary both as an `event_msg` and as a
/// `response_item`, in either order.
#[derive(Default)]
struct Echoes {
    events: Vec<(Said, String)>,
    items: Vec<(Said, String)>,
}

impl Echoes {
    /// True when `text` repeats one shown from the other kind of record (which is then
    /// forgotten); otherwise it is remembered.
    fn repeats(&mut self, source: Source, said: Said, text: &str) -> bool {
        let (theirs, ours) = match source {
            Source::Event => (&mut self.items, &mut self.events),
            Source::Item => (&mut self.events, &mut self.items),
        };
        if let Some(i) = theirs.iter().position(|(s, t)| *s == said && t == text) {
            theirs.remove(i);
            return true;
        }
        ours.push((said, text.to_owned()));
        if ours.len() > 64 {
            ours.remove(0);
        }
        false
    }

    /// Forgets the texts of a kind: their repeats would have come by now.
    fn forget(&mut self, said: Said) {
        self.events.retain(|(s, _)| *s != said);
        self.items.retain(|(s, _)| *s != said);
    }
}

/// What was shown last, so that the next text of the same kind starts a paragraph.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
enum Last {
    #[default]
    Other,
    Text,
    Thinking,
}

/// The adapter's state.
#[derive(Default)]
pub(in crate::formats) struct CodexSession {
    calls: HashMap<String, Call>,
    echoes: Echoes,
    last: Last,
    /// A todo list was shown as the plan.
    planned: bool,
    /// The session's running token total, and its value when the response began.
    total: Option<Tokens>,
    base: Option<Tokens>,
    /// Web searches seen, for their ids (the records carry none).
    searches: u64,
    /// A `compacted` record was read and its `context_compacted` event has not come.
    compacted: bool,
}

impl Adapter for CodexSession {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let Some(record) = or_report(Fields::of(&tree, "the line").and_then(Record::read), &p, n)
        else {
            return;
        };
        let Some(payload) = record.payload else {
            return n.apply(Event::Unknown);
        };
        if let Some(at) = &record.timestamp {
            n.apply(Event::Time(at.clone()));
        }
        match record.kind {
            "session_meta" | "turn_context" => {
                if let Some(f) = read(payload, Facts::read, &p, n) {
                    n.apply(Event::Session(SessionInfo {
                        conversation_id: f.id.filter(|_| record.kind == "session_meta"),
                        model: f.model,
                        cwd: f.cwd,
                        ..SessionInfo::default()
                    }));
                }
            }
            "event_msg" => {
                if let Some(e) = read(payload, EventMsg::read, &p, n) {
                    self.event(e, record.timestamp, n);
                }
            }
            "response_item" => {
                if let Some(item) = read(payload, Item::read, &p, n) {
                    self.item(item, record.timestamp, &p, n);
                }
            }
            // The context was compacted: the summary that replaced it (empty when the
            // server compacted it, encrypted), then, from newer Codex, the event saying
            // so, which is the same compaction.
            "compacted" => {
                self.last = Last::Other;
                n.apply(Event::Compaction(Compaction::default()));
                let summary = match payload {
                    Tree::Object(_) => payload.get("message").as_str().unwrap_or_default(),
                    _ => "",
                };
                if !summary.trim().is_empty() {
                    n.apply(Event::CompactSummary(Cow::Borrowed(summary)));
                }
                self.compacted = true;
                return;
            }
            _ => n.apply(Event::Unknown),
        }
        // What the model says next is after the compaction.
        if record.kind == "response_item" {
            self.compacted = false;
        }
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        end_open_response(n);
    }
}

/// Reads a record's payload (an object) with `read`, reporting a failure as an `error`
/// document.
fn read<'v, 'a, T>(
    payload: &'v Tree<'a>,
    read: impl FnOnce(Fields<'v, 'a>) -> Read<T>,
    p: &Payload<'_>,
    n: &mut dyn Sink,
) -> Option<T> {
    match Fields::of(payload, "field `payload`").and_then(read) {
        Ok(v) => Some(v),
        Err(e) => {
            n.apply(Event::Error(json_error(&e, p)));
            None
        }
    }
}

/// Text Codex adds to the user's messages for the model: instructions, the
/// environment, skills. Not the user's words.
fn injected(text: &str) -> bool {
    let t = text.trim_start();
    [
        "<environment_context>",
        "<user_instructions>",
        "<INSTRUCTIONS>",
        "# AGENTS.md instructions",
        "<permissions instructions>",
        "<skill>",
        "<turn_aborted>",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// Early versions put the prompt after the instructions in one message.
fn prompt_text(text: &str) -> &str {
    match text.rfind("## My request for Codex:") {
        Some(i) => text[i + "## My request for Codex:".len()..].trim(),
        None => text,
    }
}

impl CodexSession {
    fn event(&mut self, e: EventMsg<'_>, timestamp: Option<String>, n: &mut dyn Sink) {
        match e.kind {
            "user_message" => {
                if matches!(e.input_kind, Some(k) if k != "plain") {
                    return;
                }
                let text = e.message.unwrap_or_default();
                self.prompt(Source::Event, prompt_text(text), e.images, n);
            }
            "agent_message" => {
                if let Some(text) = e.message {
                    self.answer(Source::Event, text, timestamp, n);
                }
            }
            "agent_reasoning" => {
                if let Some(text) = e.text {
                    self.reasoning(Source::Event, &[text], timestamp, n);
                }
            }
            "token_count" => {
                let Some(total) = e.total else {
                    return;
                };
                self.total = Some(total);
                if n.response_open() {
                    let used = total.since(self.base.unwrap_or_default());
                    n.apply(Event::Usage(used.into()));
                }
            }
            "task_complete" => {
                self.last = Last::Other;
                end_open_response(n);
            }
            "turn_aborted" => {
                self.last = Last::Other;
                let reason = e.reason.unwrap_or_else(|| "interrupted".to_owned());
                n.apply(Event::Done {
                    error: Some(ErrorInfo {
                        at: None,
                        code: codes::AGENT_ERROR.to_owned(),
                        source: "agent".to_owned(),
                        message: format!("The turn was stopped ({reason})."),
                        details: format!("turn_aborted: {reason}"),
                    }),
                });
            }
            "error" | "warning" | "stream_error" => {
                self.last = Last::Other;
                let message = e
                    .message
                    .map(str::to_owned)
                    .unwrap_or_else(|| "Codex reported an error.".to_owned());
                n.apply(Event::Error(ErrorInfo {
                    at: None,
                    code: if e.kind == "error" {
                        codes::AGENT_ERROR
                    } else {
                        "AGENT_WARNING"
                    }
                    .to_owned(),
                    source: "agent".to_owned(),
                    details: format!("{}: {message}", e.kind),
                    message,
                }));
            }
            "context_compacted" if self.compacted => {}
            "context_compacted" => {
                self.last = Last::Other;
                n.apply(Event::Compaction(Compaction::default()));
            }
            // Bookkeeping, and raw reasoning (shown from the reasoning items, if at all).
            "task_started"
            | "entered_review_mode"
            | "exited_review_mode"
            | "undo_started"
            | "undo_completed"
            | "agent_reasoning_raw_content"
            | "agent_reasoning_section_break" => {}
            _ => n.apply(Event::Unknown),
        }
    }

    fn item(
        &mut self,
        item: Item<'_>,
        timestamp: Option<String>,
        p: &Payload<'_>,
        n: &mut dyn Sink,
    ) {
        match item.kind {
            "message" => self.message(item, timestamp, n),
            "reasoning" => {
                let summary = item.summary.unwrap_or_default();
                let mut texts: Vec<&str> = summary
                    .iter()
                    .filter(|p| p.kind == "summary_text")
                    .filter_map(|p| p.text)
                    .collect();
                // Raw reasoning only where there is no summary; the encrypted content
                // is never read.
                let raw = match (&item.content, texts.is_empty()) {
                    (Some(Body::Parts(parts)), true) => {
                        join(parts, &["reasoning_text", "text"], "\n\n")
                    }
                    _ => String::new(),
                };
                if !raw.is_empty() {
                    texts.push(&raw);
                }
                self.reasoning(Source::Item, &texts, timestamp, n);
            }
            "function_call" => {
                self.at(timestamp, n);
                let call_id = item.call_id.unwrap_or_default();
                let name = item.name.unwrap_or_else(|| "tool".to_owned());
                let args = tool_input(
                    item.arguments.unwrap_or_default(),
                    &call_id,
                    &name,
                    &p.at,
                    n,
                );
                self.function_call(call_id, name, args, n);
            }
            "custom_tool_call" => {
                self.at(timestamp, n);
                let call_id = item.call_id.unwrap_or_default();
                let name = item.name.unwrap_or_else(|| "tool".to_owned());
                let input = item.input.unwrap_or_default();
                let args = json!({ "input": input });
                let call = if name == apply_patch::TOOL {
                    Call::Patch(apply_patch::start(&call_id, input, &name, args, n))
                } else {
                    n.apply(Event::tool_start(call_id.clone(), name, args));
                    Call::Other
                };
                self.calls.insert(call_id, call);
            }
            "local_shell_call" => {
                self.at(timestamp, n);
                let call_id = item.call_id.unwrap_or_default();
                let action = item.action.unwrap_or(Value::Null);
                let args = json!({
                    "command": action.get("command").cloned().unwrap_or(Value::Null),
                    "workdir": action.get("working_directory").cloned().unwrap_or(Value::Null),
                });
                self.function_call(call_id, "local_shell".to_owned(), args, n);
            }
            "function_call_output" | "custom_tool_call_output" => {
                self.last = Last::Other;
                let call_id = item.call_id.unwrap_or_default();
                let (text, failed) = item
                    .output
                    .as_ref()
                    .map_or((Cow::Borrowed(""), false), Body::text);
                self.output(call_id, &text, failed, n);
            }
            "web_search_call" => {
                self.at(timestamp, n);
                self.searches += 1;
                let call_id = format!("web_search_{}", self.searches);
                let action = item.action.unwrap_or(Value::Null);
                n.apply(Event::tool_start(
                    call_id.clone(),
                    "web_search".to_owned(),
                    action,
                ));
                let status = match item.status {
                    Some("failed") => CallStatus::Error,
                    _ => CallStatus::Success,
                };
                // The results are not saved.
                n.apply(Event::tool_end(
                    call_id,
                    ToolOutcome {
                        status,
                        data: Value::from(""),
                    },
                ));
            }
            // Bookkeeping of Codex's own.
            "ghost_snapshot" | "compaction" | "compaction_summary" => {}
            _ => n.apply(Event::Unknown),
        }
    }

    /// Sets the time of a response about to open.
    fn at(&mut self, timestamp: Option<String>, n: &mut dyn Sink) {
        self.last = Last::Other;
        self.echoes.forget(Said::Prompt);
        if !n.response_open() && timestamp.is_some() {
            n.apply(Event::Session(SessionInfo {
                created: timestamp,
                ..SessionInfo::default()
            }));
        }
    }

    fn message(&mut self, item: Item<'_>, timestamp: Option<String>, n: &mut dyn Sink) {
        let parts = match item.content {
            Some(Body::Parts(parts)) => parts,
            Some(Body::Text(text)) => vec![Part {
                kind: match item.role {
                    Some("assistant") => "output_text",
                    _ => "input_text",
                },
                text: Some(text),
            }],
            Some(Body::Payload { .. }) | None => Vec::new(),
        };
        match item.role {
            Some("user") => {
                let texts: Vec<&str> = parts
                    .iter()
                    .filter(|p| p.kind == "input_text")
                    .filter_map(|p| p.text)
                    .map(prompt_text)
                    .filter(|t| !injected(t))
                    .collect();
                let images = parts.iter().filter(|p| p.kind == "input_image").count();
                self.prompt(Source::Item, &texts.join("\n\n"), images, n);
            }
            Some("assistant") => {
                let text = join(&parts, &["output_text", "text"], "");
                self.answer(Source::Item, &text, timestamp, n);
            }
            // `developer` and `system`: instructions.
            _ => {}
        }
    }

    fn prompt(&mut self, source: Source, text: &str, images: usize, n: &mut dyn Sink) {
        if (text.trim().is_empty() && images == 0)
            || self.echoes.repeats(source, Said::Prompt, text)
        {
            return;
        }
        self.last = Last::Other;
        self.echoes.forget(Said::Answer);
        self.echoes.forget(Said::Reasoning);
        self.base = self.total;
        n.apply(Event::UserPrompt {
            text: Cow::Owned(text.to_owned()),
            attachments: (0..images)
                .map(|_| Attachment {
                    kind: "image".to_owned(),
                    ..Attachment::default()
                })
                .collect(),
        });
    }

    fn answer(&mut self, source: Source, text: &str, timestamp: Option<String>, n: &mut dyn Sink) {
        if text.is_empty() || self.echoes.repeats(source, Said::Answer, text) {
            return;
        }
        let last = self.last;
        self.at(timestamp, n);
        if last == Last::Text {
            n.apply(Event::Text(Cow::Borrowed("\n\n")));
        }
        n.apply(Event::Text(Cow::Owned(text.to_owned())));
        self.last = Last::Text;
    }

    fn reasoning(
        &mut self,
        source: Source,
        texts: &[&str],
        timestamp: Option<String>,
        n: &mut dyn Sink,
    ) {
        let new: Vec<&&str> = texts
            .iter()
            .filter(|t| !t.is_empty() && !self.echoes.repeats(source, Said::Reasoning, t))
            .collect();
        if new.is_empty() {
            return;
        }
        let last = self.last;
        self.at(timestamp, n);
        for (i, text) in new.into_iter().enumerate() {
            if i > 0 || last == Last::Thinking {
                n.apply(Event::Thinking(Cow::Borrowed("\n\n")));
            }
            n.apply(Event::Thinking(Cow::Owned((*text).to_owned())));
        }
        self.last = Last::Thinking;
    }

    /// A function call: shell tools (a patch they apply is file edits), `apply_patch`,
    /// `update_plan`, anything else.
    fn function_call(&mut self, call_id: String, name: String, args: Value, n: &mut dyn Sink) {
        let call = match name.as_str() {
            "shell" | "container.exec" | "shell_command" | "exec_command" | "local_shell" => {
                let workdir = args.get("workdir").cloned().filter(|w| !w.is_null());
                let script = match args.get("command").or_else(|| args.get("cmd")) {
                    Some(Value::Array(words)) => {
                        let words: Vec<String> = words
                            .iter()
                            .map(|w| w.as_str().unwrap_or_default().to_owned())
                            .collect();
                        match words.as_slice() {
                            [tool, patch] if tool == "apply_patch" || tool == "applypatch" => {
                                patch.clone()
                            }
                            _ => command_line(&words),
                        }
                    }
                    Some(Value::String(s)) => s.clone(),
                    _ => String::new(),
                };
                let shown = json!({ "command": script, "workdir": workdir });
                match apply_patch::in_command(&script).or_else(|| {
                    script
                        .trim_start()
                        .starts_with("*** Begin Patch")
                        .then_some(script.as_str())
                }) {
                    Some(patch) => {
                        Call::Patch(apply_patch::start(&call_id, patch, &name, shown, n))
                    }
                    None => {
                        n.apply(Event::tool_start(call_id.clone(), name, shown));
                        Call::Shell
                    }
                }
            }
            "apply_patch" => {
                let patch = match &args {
                    Value::String(s) => s.clone(),
                    other => other
                        .get("input")
                        .or_else(|| other.get("patch"))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                };
                Call::Patch(apply_patch::start(&call_id, &patch, &name, args, n))
            }
            "update_plan" => {
                let todos: Vec<Value> = args
                    .get("plan")
                    .and_then(Value::as_array)
                    .map(|steps| {
                        steps
                            .iter()
                            .map(|s| {
                                json!({
                                    "content": s.get("step").cloned().unwrap_or(Value::Null),
                                    "status": s.get("status").cloned().unwrap_or(Value::Null),
                                })
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let mut plan = json!({ "todos": todos });
                if let Some(e) = args.get("explanation").filter(|e| e.is_string()) {
                    plan["overview"] = e.clone();
                }
                let name = if std::mem::replace(&mut self.planned, true) {
                    "update_todos"
                } else {
                    "create_plan"
                };
                n.apply(Event::tool_start(call_id.clone(), name.to_owned(), plan));
                Call::Other
            }
            _ => {
                // MCP tools are named `server__tool`; shown as `mcp__server__tool`, as
                // the stream and Claude Code name them.
                let name = if name.contains("__") && !name.starts_with("mcp__") {
                    format!("mcp__{name}")
                } else {
                    name
                };
                n.apply(Event::tool_start(call_id.clone(), name, args));
                Call::Other
            }
        };
        self.calls.insert(call_id, call);
    }

    /// A call's output ends it (for a patch, each of its file edits).
    fn output(&mut self, call_id: String, text: &str, failed: bool, n: &mut dyn Sink) {
        let call = self.calls.remove(&call_id).unwrap_or(Call::Other);
        if let Some(status) = super::refusal(text) {
            // Not run: the reason, and nothing the command printed.
            let ids = match call {
                Call::Patch(ids) => ids,
                Call::Shell | Call::Other => vec![call_id],
            };
            for id in ids {
                n.apply(Event::tool_end(
                    id,
                    ToolOutcome {
                        status,
                        data: json!({ "error": text.trim() }),
                    },
                ));
            }
            return;
        }
        match call {
            Call::Shell => {
                let out = shell_output(text);
                let status = if failed || out.exit_code.is_some_and(|c| c != 0) {
                    CallStatus::Error
                } else {
                    CallStatus::Success
                };
                n.apply(Event::ToolEnd {
                    call_id,
                    name: None,
                    args: None,
                    outcome: ToolOutcome {
                        status,
                        data: json!({ "exitCode": out.exit_code, "output": out.output }),
                    },
                    duration_ms: out.duration_ms,
                });
            }
            Call::Patch(ids) => {
                let out = shell_output(text);
                let said = out.output.trim_start();
                let failed = failed
                    || out.exit_code.is_some_and(|c| c != 0)
                    || ["apply_patch verification failed", "Failed to ", "error: "]
                        .iter()
                        .any(|p| said.starts_with(p));
                let outcome = ToolOutcome {
                    status: if failed {
                        CallStatus::Error
                    } else {
                        CallStatus::Success
                    },
                    data: if failed {
                        Value::from(out.output.trim_end())
                    } else {
                        json!({ "output": out.output })
                    },
                };
                for id in ids {
                    n.apply(Event::ToolEnd {
                        call_id: id,
                        name: None,
                        args: None,
                        outcome: outcome.clone(),
                        duration_ms: out.duration_ms,
                    });
                }
            }
            Call::Other => {
                let failed = failed || text.starts_with("err: ");
                n.apply(Event::tool_end(
                    call_id,
                    ToolOutcome {
                        status: if failed {
                            CallStatus::Error
                        } else {
                            CallStatus::Success
                        },
                        data: Value::from(text),
                    },
                ));
            }
        }
    }
}
