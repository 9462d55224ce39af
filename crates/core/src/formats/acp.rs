//! The Agent Client Protocol (ACP) as a client sees it: one JSON-RPC 2.0 message a
//! line, both ways — the client's requests (`session/new`, `session/load`,
//! `session/prompt`, `session/set_mode`) and the agent's answers, the agent's
//! `session/update` notifications, and the agent's requests to the client
//! (`session/request_permission`, `terminal/*`, `fs/*`) with the client's answers. The
//! shapes are those of `agent-client-protocol-schema` (`v1`) in
//! agentclientprotocol/agent-client-protocol.
//!
//! - A `session/prompt` request is the user's turn (its text blocks, with resources and
//!   images as attachments); the response to it ends the agent's turn with its
//!   `stopReason` (`refusal` and `cancelled` as errors) and its `usage`. Replayed
//!   `user_message_chunk`s (`session/load`) make a prompt of their own.
//! - `agent_message_chunk`: prose (a new `messageId` is a new paragraph);
//!   `agent_thought_chunk`: thinking.
//! - `tool_call` / `tool_call_update`: a call known by its `kind` — `execute` a terminal
//!   run (its command from `rawInput`, the `terminal/create` request or the title, its
//!   output and exit code from the embedded terminal's `terminal/output` /
//!   `terminal/wait_for_exit` answers, else from `rawOutput` or the text content),
//!   `edit` a file edit per `diff` content (`oldText` null: a new file), `delete`,
//!   `read`, `search`, `fetch` their views; `locations` name the file where `rawInput`
//!   does not. Other kinds are tool calls named by their title. `completed` and
//!   `failed` end a call; a later update (a terminal's output) updates it.
//! - `plan`: the first is the plan, each later one a `todo_update` of it.
//! - `session/request_permission`: a `request_permission` call that waits for the
//!   client's answer: the option chosen (a `reject_*` option, or `cancelled`, is a
//!   rejection, which also ends the call asked about).
//! - `usage_update`: the tokens in context, as the response's input tokens;
//!   `current_mode_update` and `session/set_mode`: the response's mode;
//!   `compaction_update` / `compaction_summary_chunk` (unstable): a `compaction` call
//!   whose result is the retained summary.
//! - `available_commands_update`, `config_option_update`, `session_info_update`,
//!   `initialize`, `fs/*`, `terminal/kill` / `release` and `session/cancel` have nothing
//!   to show; other methods and update types are counted as not understood.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value, json};
use serde_json_borrow::Value as Tree;

use crate::error::codes;
use crate::formats::fields::{self, Fields, Read, each, wire};
use crate::formats::{Adapter, Payload, json_error};
use crate::model::{Attachment, CallStatus, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// ACP's tool kinds, by the names the calls of each kind are given here.
pub(super) const TOOLS: ToolNames = &[
    ("acp:execute", ToolKind::Shell),
    ("acp:edit", ToolKind::Edit),
    ("acp:delete", ToolKind::Delete),
    ("acp:read", ToolKind::Read),
    ("acp:search", ToolKind::Grep),
    ("acp:fetch", ToolKind::WebFetch),
];

wire! {
    /// One JSON-RPC message.
    struct Message<'v, 'a> {
        id: Option<String> = |f| {
            Ok(f.get("id").map(|id| match id {
                Tree::Str(s) => s.to_string(),
                other => Value::from(other).to_string(),
            }))
        },
        method: str "method",
        params: object "params",
        result: get "result",
        error: value "error",
    }
}

/// A request waiting for its answer.
enum Pending {
    Prompt,
    NewSession,
    /// `session/load`: its answer ends the replayed history.
    LoadSession,
    Permission {
        call: String,
        options: Vec<(String, String, String)>,
    },
    TerminalCreate {
        command: String,
        cwd: Option<String>,
    },
    TerminalOutput(String),
    TerminalWait(String),
    Other,
}

/// What is known of a terminal.
#[derive(Default)]
struct Terminal {
    command: String,
    cwd: Option<String>,
    output: Option<String>,
    exit_code: Option<i64>,
    /// The call that embeds it.
    call: Option<String>,
}

/// A tool call as its updates have left it.
struct Call {
    /// The name its document was started with (its kind is fixed by it).
    name: String,
    kind: String,
    title: String,
    raw_input: Option<Value>,
    raw_output: Option<Value>,
    /// The text of its `content` blocks.
    text: String,
    /// Its `diff` contents: path, old text (`None` for a new file), new text.
    diffs: Vec<(String, Option<String>, String)>,
    locations: Vec<(String, Option<u64>)>,
    terminal: Option<String>,
    status: Option<String>,
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct Acp {
    /// Requests by direction and id: the client's (`c:<id>`) and the agent's (`a:<id>`).
    pending: HashMap<String, Pending>,
    calls: HashMap<String, Call>,
    terminals: HashMap<String, Terminal>,
    /// A replayed user message, chunk by chunk, until something else comes.
    user: Option<String>,
    /// The message whose text was shown last, while nothing else came since.
    prose: Option<String>,
    /// Plans shown so far.
    plans: usize,
    /// Compaction summaries being received, by id.
    compactions: HashMap<String, String>,
    /// An agent's turn is open: a prompt's, or a replayed one's.
    open: bool,
}

/// Where the methods come from: the agent's requests go to the client.
fn agent_method(method: &str) -> bool {
    method.starts_with("fs/")
        || method.starts_with("terminal/")
        || method == "session/request_permission"
}

impl Adapter for Acp {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let read = fields::parse(p.text).and_then(|tree| {
            let m = Message::read(Fields::of(&tree, "the message")?)?;
            self.message(m, n)
        });
        if let Err(e) = read {
            n.apply(Event::Error(json_error(&e, &p)));
        }
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        self.flush_user(n);
    }
}

impl Acp {
    fn message(&mut self, m: Message<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        match (m.method, &m.id) {
            (Some(method), Some(id)) => self.request(method, id, m.params, n),
            (Some(method), None) => self.notification(method, m.params, n),
            (None, Some(id)) => {
                self.flush_user(n);
                self.response(id, m.result, m.error, n)
            }
            (None, None) => {
                n.apply(Event::Unknown);
                Ok(())
            }
        }
    }

    fn request(
        &mut self,
        method: &str,
        id: &str,
        params: Option<Fields<'_, '_>>,
        n: &mut dyn Sink,
    ) -> Read<()> {
        let key = format!("{}:{id}", if agent_method(method) { 'a' } else { 'c' });
        let get = |k: &str| params.map(|p| p.str(k)).transpose().map(Option::flatten);
        let pending = match method {
            "session/prompt" => {
                self.flush_user(n);
                let blocks = match params {
                    Some(p) => p.array("prompt")?.unwrap_or_default(),
                    None => &[],
                };
                let (text, attachments) = prompt(blocks)?;
                self.prose = None;
                n.apply(Event::UserPrompt {
                    text: Cow::Owned(text),
                    attachments,
                });
                self.end_replayed(n);
                n.apply(Event::ResponseStart(SessionInfo::default()));
                self.open = true;
                Pending::Prompt
            }
            "session/new" | "session/load" => {
                n.apply(Event::Session(SessionInfo {
                    conversation_id: get("sessionId")?.map(str::to_owned),
                    cwd: get("cwd")?.map(str::to_owned),
                    ..SessionInfo::default()
                }));
                if method == "session/load" {
                    Pending::LoadSession
                } else {
                    Pending::NewSession
                }
            }
            "session/set_mode" => {
                self.mode(get("modeId")?, n);
                Pending::Other
            }
            "session/request_permission" => self.permission(id, params, n)?,
            "terminal/create" => {
                let mut command = get("command")?.unwrap_or_default().to_owned();
                if let Some(args) = params.map(|p| p.strs("args")).transpose()?.flatten() {
                    for a in args {
                        command.push(' ');
                        command.push_str(&shell_word(a));
                    }
                }
                Pending::TerminalCreate {
                    command,
                    cwd: get("cwd")?.map(str::to_owned),
                }
            }
            "terminal/output" => {
                Pending::TerminalOutput(get("terminalId")?.unwrap_or_default().to_owned())
            }
            "terminal/wait_for_exit" => {
                Pending::TerminalWait(get("terminalId")?.unwrap_or_default().to_owned())
            }
            "initialize"
            | "authenticate"
            | "fs/read_text_file"
            | "fs/write_text_file"
            | "terminal/kill"
            | "terminal/release"
            | "session/list"
            | "session/resume"
            | "session/close"
            | "session/set_config_option"
            | "session/set_model" => Pending::Other,
            _ => {
                n.apply(Event::Unknown);
                Pending::Other
            }
        };
        self.pending.insert(key, pending);
        Ok(())
    }

    fn notification(
        &mut self,
        method: &str,
        params: Option<Fields<'_, '_>>,
        n: &mut dyn Sink,
    ) -> Read<()> {
        match method {
            "session/update" => {
                let Some(update) = params.map(|p| p.object("update")).transpose()?.flatten() else {
                    n.apply(Event::Unknown);
                    return Ok(());
                };
                self.update(update, n)
            }
            "session/cancel" => Ok(()),
            _ => {
                n.apply(Event::Unknown);
                Ok(())
            }
        }
    }

    /// An answer: to the client's request (`c:<id>`) or the agent's (`a:<id>`); where
    /// both wait with this id, the answer's shape says which.
    fn response(
        &mut self,
        id: &str,
        result: Option<&Tree<'_>>,
        error: Option<Value>,
        n: &mut dyn Sink,
    ) -> Result<(), serde_json::Error> {
        let result = match result {
            Some(r @ Tree::Object(_)) => Some(Fields::of(r, "the result")?),
            _ => None,
        };
        let agents = result.is_some_and(|r| {
            ["outcome", "terminalId", "output", "exitCode", "content"]
                .iter()
                .any(|k| r.get(k).is_some())
        });
        let (first, second) = if agents { ('a', 'c') } else { ('c', 'a') };
        let Some(pending) = self
            .pending
            .remove(&format!("{first}:{id}"))
            .or_else(|| self.pending.remove(&format!("{second}:{id}")))
        else {
            n.apply(Event::Unknown);
            return Ok(());
        };
        match pending {
            Pending::Prompt => self.prompt_done(result, error, n)?,
            Pending::LoadSession => {
                // The history is replayed whole: its last turn is complete.
                if self.open {
                    self.open = false;
                    n.apply(Event::Done { error: None });
                }
            }
            Pending::NewSession => {
                if let Some(r) = result {
                    let mode = match r.object("modes")? {
                        Some(m) => m.string("currentModeId")?,
                        None => None,
                    };
                    n.apply(Event::Session(SessionInfo {
                        conversation_id: r.string("sessionId")?,
                        mode,
                        ..SessionInfo::default()
                    }));
                }
            }
            Pending::Permission { call, options } => {
                self.permission_done(call, options, result, n)?
            }
            Pending::TerminalCreate { command, cwd } => {
                if let Some(tid) = result
                    .map(|r| r.string("terminalId"))
                    .transpose()?
                    .flatten()
                {
                    let t = self.terminals.entry(tid).or_default();
                    t.command = command;
                    t.cwd = cwd;
                    if let Some(call) = t.call.clone() {
                        self.show(&call, n);
                    }
                }
            }
            Pending::TerminalOutput(tid) => {
                if let Some(r) = result {
                    let exit = match r.object("exitStatus")? {
                        Some(s) => s.i64("exitCode")?,
                        None => None,
                    };
                    let t = self.terminals.entry(tid).or_default();
                    t.output = r.string("output")?.or(t.output.take());
                    t.exit_code = exit.or(t.exit_code);
                    if let Some(call) = t.call.clone() {
                        self.show(&call, n);
                    }
                }
            }
            Pending::TerminalWait(tid) => {
                if let Some(r) = result {
                    let t = self.terminals.entry(tid).or_default();
                    t.exit_code = r.i64("exitCode")?.or(t.exit_code);
                    if let Some(call) = t.call.clone() {
                        self.show(&call, n);
                    }
                }
            }
            Pending::Other => {}
        }
        Ok(())
    }

    /// The answer to `session/prompt`: the turn ends.
    fn prompt_done(
        &mut self,
        result: Option<Fields<'_, '_>>,
        error: Option<Value>,
        n: &mut dyn Sink,
    ) -> Read<()> {
        self.prose = None;
        self.open = false;
        if let Some(error) = error {
            let message = crate::normalize::error_message(&error)
                .unwrap_or_else(|| "The agent answered the prompt with an error.".to_owned());
            n.apply(Event::Done {
                error: Some(ErrorInfo {
                    at: None,
                    code: codes::AGENT_ERROR.to_owned(),
                    source: "agent".to_owned(),
                    details: error.to_string(),
                    message,
                }),
            });
            return Ok(());
        }
        let reason = result
            .map(|r| r.string("stopReason"))
            .transpose()?
            .flatten();
        if let Some(u) = result.map(|r| r.object("usage")).transpose()?.flatten() {
            n.apply(Event::Usage(Usage {
                prompt_tokens: u.u64("inputTokens")?.unwrap_or_default(),
                completion_tokens: u.u64("outputTokens")?.unwrap_or_default(),
                total_tokens: u.u64("totalTokens")?.unwrap_or_default(),
                cache_read_tokens: u.u64("cachedReadTokens")?,
                cache_write_tokens: u.u64("cachedWriteTokens")?,
                reasoning_tokens: u.u64("thoughtTokens")?,
            }));
        }
        n.apply(Event::stopped(reason.clone()));
        let failure = match reason.as_deref() {
            Some("refusal") => Some("The agent refused to continue."),
            Some("cancelled") => Some("The turn was cancelled."),
            _ => None,
        };
        n.apply(Event::Done {
            error: failure.map(|m| ErrorInfo::agent(m.to_owned())),
        });
        Ok(())
    }

    /// One `session/update`.
    fn update(&mut self, u: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let kind = u.str("sessionUpdate")?.unwrap_or_default();
        if kind != "user_message_chunk" {
            self.flush_user(n);
        }
        match kind {
            "user_message_chunk" => {
                if let Some(text) = chunk_text(u)? {
                    self.user.get_or_insert_with(String::new).push_str(text);
                }
            }
            "agent_message_chunk" => {
                let id = u.str("messageId")?.unwrap_or_default();
                match chunk_text(u)? {
                    Some(text) if !text.is_empty() => {
                        if self.prose.as_deref().is_some_and(|p| p != id) {
                            n.apply(Event::Text(Cow::Borrowed("\n\n")));
                        }
                        if self.prose.as_deref() != Some(id) {
                            self.prose = Some(id.to_owned());
                        }
                        n.apply(Event::Text(Cow::Owned(text.to_owned())));
                    }
                    Some(_) => {}
                    None => n.apply(Event::Unknown),
                }
            }
            "agent_thought_chunk" => {
                self.prose = None;
                match chunk_text(u)? {
                    Some(text) if !text.is_empty() => {
                        n.apply(Event::Thinking(Cow::Owned(text.to_owned())));
                    }
                    Some(_) => {}
                    None => n.apply(Event::Unknown),
                }
            }
            "tool_call" | "tool_call_update" => {
                self.prose = None;
                let id = u.string("toolCallId")?.unwrap_or_default();
                if self.merge(&id, u)? {
                    self.show(&id, n);
                }
            }
            "plan" => {
                self.prose = None;
                let todos = each(u.array("entries")?.unwrap_or_default(), "entries", |e| {
                    Ok(json!({
                        "content": e.str("content")?.unwrap_or_default(),
                        "status": e.str("status")?.unwrap_or("pending"),
                        "priority": e.str("priority")?,
                    }))
                })?;
                self.plans += 1;
                let name = if self.plans == 1 {
                    "create_plan"
                } else {
                    "update_todos"
                };
                let call_id = format!("plan@{}", self.plans);
                n.apply(Event::ToolEnd {
                    call_id,
                    name: Some(name.to_owned()),
                    args: Some(json!({ "todos": todos })),
                    outcome: success(Value::Null),
                    duration_ms: None,
                });
            }
            "usage_update" => {
                let used = u.u64("used")?.unwrap_or_default();
                n.apply(Event::Usage(Usage {
                    prompt_tokens: used,
                    total_tokens: used,
                    ..Usage::default()
                }));
            }
            // The schema's `currentModeId`; the protocol's own pages write `modeId`.
            "current_mode_update" => self.mode(u.str("currentModeId")?.or(u.str("modeId")?), n),
            "compaction_update" => {
                self.prose = None;
                let id = u.string("compactionId")?.unwrap_or_default();
                let status = u.str("status")?.unwrap_or("in_progress");
                let summary = u.array("summary")?.map(blocks_text).transpose()?;
                let error = u.string("error")?;
                let text = self.compactions.entry(id.clone()).or_default();
                if let Some(summary) = summary {
                    *text = summary;
                }
                let call_id = format!("compaction@{id}");
                let name = "compaction".to_owned();
                match status {
                    "completed" => {
                        let data = Value::from(self.compactions.remove(&id).unwrap_or_default());
                        n.apply(Event::ToolEnd {
                            call_id,
                            name: Some(name),
                            args: Some(json!({})),
                            outcome: success(data),
                            duration_ms: None,
                        });
                    }
                    "failed" | "cancelled" => {
                        self.compactions.remove(&id);
                        let data =
                            Value::from(error.unwrap_or_else(|| format!("Compaction {status}.")));
                        n.apply(Event::ToolEnd {
                            call_id,
                            name: Some(name),
                            args: Some(json!({})),
                            outcome: ToolOutcome {
                                status: CallStatus::Error,
                                data,
                            },
                            duration_ms: None,
                        });
                    }
                    _ => n.apply(Event::tool_start(call_id, name, json!({}))),
                }
            }
            "compaction_summary_chunk" => {
                let id = u.string("compactionId")?.unwrap_or_default();
                if let Some(content) = u.object("content")? {
                    if let Some(text) = content.str("text")? {
                        self.compactions.entry(id).or_default().push_str(text);
                    }
                }
            }
            "available_commands_update" | "config_option_update" | "session_info_update" => {}
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    /// A replayed user message ends when something else comes; the agent's replayed
    /// answer follows it.
    fn flush_user(&mut self, n: &mut dyn Sink) {
        if let Some(text) = self.user.take() {
            self.prose = None;
            self.end_replayed(n);
            n.apply(Event::UserPrompt {
                text: Cow::Owned(text),
                attachments: Vec::new(),
            });
            n.apply(Event::ResponseStart(SessionInfo::default()));
            self.open = true;
        }
    }

    /// A replayed turn still open when the next user message comes was complete.
    fn end_replayed(&mut self, n: &mut dyn Sink) {
        if std::mem::take(&mut self.open) {
            n.apply(Event::Done { error: None });
        }
    }

    fn mode(&mut self, mode: Option<&str>, n: &mut dyn Sink) {
        if let Some(mode) = mode {
            n.apply(Event::Session(SessionInfo {
                mode: Some(mode.to_owned()),
                ..SessionInfo::default()
            }));
        }
    }

    /// Merges a `tool_call` or `tool_call_update` (or a permission request's tool
    /// call) into what is known of the call: the fields it carries replace theirs.
    /// Returns whether it changed anything (an update that repeats a status shows
    /// nothing again: work follows what changed).
    fn merge(&mut self, id: &str, u: Fields<'_, '_>) -> Read<bool> {
        let kind = u.str("kind")?;
        let title = u.str("title")?;
        let status = u.str("status")?;
        let raw_input = u.value("rawInput");
        let raw_output = u.value("rawOutput");
        let content = u.array("content")?;
        let locations = u.list("locations", |l| {
            Ok((l.string("path")?.unwrap_or_default(), l.u64("line")?))
        })?;
        let new = !self.calls.contains_key(id);
        let call = self.calls.entry(id.to_owned()).or_insert_with(|| Call {
            name: String::new(),
            kind: String::new(),
            title: String::new(),
            raw_input: None,
            raw_output: None,
            text: String::new(),
            diffs: Vec::new(),
            locations: Vec::new(),
            terminal: None,
            status: None,
        });
        if let Some(kind) = kind {
            call.kind = kind.to_owned();
        }
        if let Some(title) = title {
            call.title = title.to_owned();
        }
        let changed = new
            || kind.is_some()
            || title.is_some()
            || raw_input.is_some()
            || raw_output.is_some()
            || content.is_some()
            || locations.is_some()
            || status.is_some_and(|s| call.status.as_deref() != Some(s));
        if let Some(status) = status {
            call.status = Some(status.to_owned());
        }
        if raw_input.is_some() {
            call.raw_input = raw_input;
        }
        if raw_output.is_some() {
            call.raw_output = raw_output;
        }
        if let Some(locations) = locations {
            call.locations = locations;
        }
        if let Some(content) = content {
            // The content given replaces the call's content.
            call.text.clear();
            call.diffs.clear();
            for c in content {
                let c = Fields::of(c, "a content item")?;
                // `{type: "content", content: <block>}`; a bare text block is read too.
                let block = match c.str("type")? {
                    Some("content") => c.object("content")?,
                    Some("text") => Some(c),
                    _ => None,
                };
                if let Some(text) = block.map(|b| b.str("text")).transpose()?.flatten() {
                    if !call.text.is_empty() {
                        call.text.push('\n');
                    }
                    call.text.push_str(text);
                }
                match c.str("type")? {
                    Some("diff") => call.diffs.push((
                        c.string("path")?.unwrap_or_default(),
                        c.string("oldText")?,
                        c.string("newText")?.unwrap_or_default(),
                    )),
                    Some("terminal") => {
                        let tid = c.string("terminalId")?.unwrap_or_default();
                        self.terminals.entry(tid.clone()).or_default().call = Some(id.to_owned());
                        call.terminal = Some(tid);
                    }
                    _ => {}
                }
            }
        }
        Ok(changed)
    }

    /// Shows a call as what is known of it now: started, updated, or ended.
    fn show(&mut self, id: &str, n: &mut dyn Sink) {
        let Some(call) = self.calls.get_mut(id) else {
            return;
        };
        let first = call.name.is_empty();
        if first {
            call.name = match call.kind.as_str() {
                k @ ("execute" | "edit" | "delete" | "read" | "search" | "fetch") => {
                    format!("acp:{k}")
                }
                _ if !call.title.is_empty() => call.title.clone(),
                _ => "tool".to_owned(),
            };
        }
        let terminal = call.terminal.as_ref().and_then(|t| self.terminals.get(t));
        let (args, extra) = arguments(call, terminal);
        // Its status says when it ended; a terminal it embeds that exited ends it too.
        let exit = terminal.and_then(|t| t.exit_code);
        let status = match (call.status.as_deref(), exit) {
            (Some("completed"), _) | (_, Some(0)) => Some(CallStatus::Success),
            (Some("failed"), _) | (_, Some(_)) => Some(CallStatus::Error),
            _ => None,
        };
        let outcome = status.map(|status| ToolOutcome {
            status,
            data: outcome_data(call, terminal),
        });
        let name = call.name.clone();
        match &outcome {
            Some(outcome) => n.apply(Event::ToolEnd {
                call_id: id.to_owned(),
                name: Some(name.clone()),
                args: Some(args),
                outcome: outcome.clone(),
                duration_ms: None,
            }),
            None if first => n.apply(Event::tool_start(id.to_owned(), name.clone(), args)),
            None => n.apply(Event::ToolArgs {
                call_id: id.to_owned(),
                args,
            }),
        }
        // A call that edits several files: a file edit for each further diff.
        for (i, args) in extra.into_iter().enumerate() {
            let extra_id = format!("{id}~{}", i + 2);
            match &outcome {
                Some(outcome) => n.apply(Event::ToolEnd {
                    call_id: extra_id,
                    name: Some(name.clone()),
                    args: Some(args),
                    outcome: outcome.clone(),
                    duration_ms: None,
                }),
                None => n.apply(Event::tool_start(extra_id, name.clone(), args)),
            }
        }
    }

    /// `session/request_permission`: the call asked about (its fields as sent with the
    /// request), and a `request_permission` call that waits for the answer.
    fn permission(
        &mut self,
        id: &str,
        params: Option<Fields<'_, '_>>,
        n: &mut dyn Sink,
    ) -> Read<Pending> {
        self.prose = None;
        let Some(params) = params else {
            return Ok(Pending::Other);
        };
        let call = match params.object("toolCall")? {
            Some(tc) => {
                let call = tc.string("toolCallId")?.unwrap_or_default();
                if self.merge(&call, tc)? {
                    self.show(&call, n);
                }
                call
            }
            None => String::new(),
        };
        let options = params
            .list("options", |o| {
                Ok((
                    o.string("optionId")?.unwrap_or_default(),
                    o.string("name")?.unwrap_or_default(),
                    o.string("kind")?.unwrap_or_default(),
                ))
            })?
            .unwrap_or_default();
        let title = self
            .calls
            .get(&call)
            .map(|c| c.title.clone())
            .unwrap_or_default();
        let names: Vec<&str> = options.iter().map(|(_, name, _)| name.as_str()).collect();
        n.apply(Event::tool_start(
            permission_id(&call, id),
            "request_permission".to_owned(),
            json!({ "toolCallId": call, "title": title, "options": names }),
        ));
        Ok(Pending::Permission {
            call: permission_id(&call, id),
            options,
        })
    }

    /// The client's answer to a permission request: the option chosen, or cancelled.
    fn permission_done(
        &mut self,
        permission: String,
        options: Vec<(String, String, String)>,
        result: Option<Fields<'_, '_>>,
        n: &mut dyn Sink,
    ) -> Read<()> {
        let outcome = match result {
            Some(r) => r.object("outcome")?,
            None => None,
        };
        let (chosen, rejected) = match outcome {
            Some(o) if o.str("outcome")? == Some("selected") => {
                let option = o.str("optionId")?.unwrap_or_default();
                match options.iter().find(|(id, _, _)| id == option) {
                    Some((_, name, kind)) => (name.clone(), kind.starts_with("reject")),
                    None => (option.to_owned(), false),
                }
            }
            _ => ("Cancelled".to_owned(), true),
        };
        n.apply(Event::tool_end(
            permission.clone(),
            ToolOutcome {
                status: if rejected {
                    CallStatus::Rejected
                } else {
                    CallStatus::Success
                },
                data: Value::from(chosen.clone()),
            },
        ));
        // A refusal ends the call asked about, unless it has ended already.
        let call = permission
            .split_once("#permission")
            .map(|(c, _)| c.to_owned());
        if let Some(call) = call.filter(|_| rejected) {
            let ended = self
                .calls
                .get(&call)
                .is_some_and(|c| matches!(c.status.as_deref(), Some("completed" | "failed")));
            if self.calls.contains_key(&call) && !ended {
                n.apply(Event::tool_end(
                    call,
                    ToolOutcome {
                        status: CallStatus::Rejected,
                        data: Value::from(format!("Permission refused: {chosen}.")),
                    },
                ));
            }
        }
        Ok(())
    }
}

/// The id of the permission request `request` about `call`.
fn permission_id(call: &str, request: &str) -> String {
    format!("{call}#permission:{request}")
}

fn success(data: Value) -> ToolOutcome {
    ToolOutcome {
        status: CallStatus::Success,
        data,
    }
}

/// The text of a message chunk's content block; `None` for a block that is not text.
fn chunk_text<'v>(u: Fields<'v, '_>) -> Read<Option<&'v str>> {
    match u.object("content")? {
        Some(c) if matches!(c.str("type")?, Some("text") | None) => Ok(c.str("text")?.or(Some(""))),
        _ => Ok(None),
    }
}

/// The text blocks of a list, one after another.
fn blocks_text(blocks: &[Tree<'_>]) -> Read<String> {
    let texts = each(blocks, "summary", |b| b.string("text"))?;
    Ok(texts.into_iter().flatten().collect::<Vec<_>>().join("\n\n"))
}

/// A prompt's blocks: the text, and what it attaches (resources, links, images).
fn prompt(blocks: &[Tree<'_>]) -> Read<(String, Vec<Attachment>)> {
    let mut text = String::new();
    let mut attachments = Vec::new();
    for b in blocks {
        let b = Fields::of(b, "a prompt block")?;
        match b.str("type")? {
            Some("text") => {
                if !text.is_empty() {
                    text.push_str("\n\n");
                }
                text.push_str(b.str("text")?.unwrap_or_default());
            }
            Some("resource") => {
                let r = b.object("resource")?;
                attachments.push(Attachment {
                    kind: "file".to_owned(),
                    path: r.map(|r| r.string("uri")).transpose()?.flatten(),
                    text: r.map(|r| r.string("text")).transpose()?.flatten(),
                    ..Attachment::default()
                });
            }
            Some("resource_link") => attachments.push(Attachment {
                kind: "file".to_owned(),
                path: b.string("uri")?.or(b.string("name")?),
                ..Attachment::default()
            }),
            Some(kind @ ("image" | "audio")) => attachments.push(Attachment {
                kind: kind.to_owned(),
                path: b.string("uri")?,
                ..Attachment::default()
            }),
            _ => {}
        }
    }
    Ok((text, attachments))
}

/// A word of a command line, quoted where it holds spaces or quotes.
fn shell_word(word: &str) -> String {
    if !word.is_empty() && !word.contains(|c: char| c.is_whitespace() || "'\"\\$`".contains(c)) {
        return word.to_owned();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// A call's arguments as the tool readers take them: its `rawInput`, with what its
/// kind needs where `rawInput` lacks it (the command, the file, the diff), and its
/// title; and the arguments of the file edits of its further diffs.
fn arguments(call: &Call, terminal: Option<&Terminal>) -> (Value, Vec<Value>) {
    let mut args = match &call.raw_input {
        Some(Value::Object(o)) => o.clone(),
        Some(other) => {
            let mut m = Map::new();
            m.insert("input".into(), other.clone());
            m
        }
        None => Map::new(),
    };
    if !call.title.is_empty() && !args.contains_key("title") {
        args.insert("title".into(), call.title.clone().into());
    }
    let has = |args: &Map<String, Value>, keys: &[&str]| keys.iter().any(|k| args.contains_key(*k));
    let mut extra = Vec::new();
    match call.kind.as_str() {
        "execute" => {
            if !has(&args, &["command", "cmd"]) {
                let command = match terminal {
                    Some(t) if !t.command.is_empty() => t.command.clone(),
                    _ => call.title.trim().trim_matches('`').to_owned(),
                };
                args.insert("command".into(), command.into());
            }
            if let Some(cwd) = terminal.and_then(|t| t.cwd.clone()) {
                args.entry("cwd").or_insert(cwd.into());
            }
        }
        "edit" => {
            let mut diffs = call.diffs.iter();
            if let Some(first) = diffs.next() {
                edit_args(&mut args, first);
            }
            for d in diffs {
                let mut a = Map::new();
                edit_args(&mut a, d);
                extra.push(Value::Object(a));
            }
        }
        _ => {}
    }
    if !has(
        &args,
        &["path", "file_path", "filePath", "abs_path", "absolute_path"],
    ) {
        if let Some((path, line)) = call.locations.first() {
            args.insert("path".into(), path.clone().into());
            if let Some(line) = line {
                args.entry("line").or_insert((*line).into());
            }
        }
    }
    (Value::Object(args), extra)
}

/// A diff's file, and its old and new text (a new file's as its content).
fn edit_args(args: &mut Map<String, Value>, (path, old, new): &(String, Option<String>, String)) {
    for key in ["old_string", "new_string", "old_str", "new_str", "content"] {
        args.remove(key);
    }
    args.insert("path".into(), path.clone().into());
    match old {
        Some(old) => {
            args.insert("old_text".into(), old.clone().into());
            args.insert("new_text".into(), new.clone().into());
        }
        None => {
            args.insert("content".into(), new.clone().into());
        }
    }
}

/// What a finished call gave: a terminal's output and exit code, else its
/// `rawOutput` (with the content's text as `output` where it has none), else the text.
fn outcome_data(call: &Call, terminal: Option<&Terminal>) -> Value {
    if let Some(t) = terminal {
        let output = t.output.clone().unwrap_or_else(|| call.text.clone());
        return json!({ "output": output, "exitCode": t.exit_code });
    }
    match &call.raw_output {
        Some(Value::Object(o)) => {
            let mut o = o.clone();
            if !call.text.is_empty() && !o.contains_key("output") {
                o.insert("output".into(), call.text.clone().into());
            }
            Value::Object(o)
        }
        Some(Value::String(s)) if call.text.is_empty() => Value::String(s.clone()),
        _ => Value::String(call.text.clone()),
    }
}
