//! OpenCode (sst/opencode, now anomalyco/opencode): `opencode run --format json` and
//! `opencode export`. Both carry the same parts of the same messages (the shapes of
//! `packages/opencode/src/session/message-v2.ts`):
//!
//! - `opencode run --format json` writes one event a line,
//!   `{type, timestamp (ms), sessionID, part | error}`: `step_start`, `text` and
//!   `reasoning` (once the part is complete), `tool_use` (a `tool` part once its
//!   `state.status` is `completed` or `error`), `step_finish` (`reason`, `tokens`,
//!   `cost`), `error` (the session's error, `{name, data: {message}}`) and, in newer
//!   versions, `done`. The prompt is not written.
//! - `opencode export [id]` writes one session, `{info, messages: [{info, parts}],
//!   todos}`; the library reads OpenCode's store (`opencode.db`: tables `session`,
//!   `message`, `part`, whose `data` columns hold the same objects) into this shape.
//!
//! Parts: `text` is prose (`synthetic` and `ignored` text is what OpenCode adds for the
//! model, not shown), `reasoning` thinking, `tool` a call by OpenCode's tool names
//! (`bash` → a terminal run with `metadata.exit`; `edit` → a diff placed by the first
//! hunk of `metadata.diff`; `write` → a written file; `apply_patch` / `patch` → one
//! file edit per file of its `patchText`; `todowrite` → the plan's todos; `task` →
//! a sub-agent), `step-finish` the tokens and cost of one API call, `retry` a
//! warning. A user message's `compaction` part and the assistant's `summary` message
//! that answers it are a compaction with its summary. Other part types (`step-start`,
//! `snapshot`, `patch`, `agent`, `subtask`, `file` of an answer) are read and show
//! nothing; unknown ones are counted.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value, json};

use super::common::end_open_response;
use super::fields::{self, Fields, Read};
use super::{Adapter, Format, Payload, apply_patch, or_report};
use crate::model::{Attachment, CallStatus, Compaction, PromptFrom, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// OpenCode's tool names.
pub(super) const TOOLS: ToolNames = &[
    ("bash", ToolKind::Shell),
    ("edit", ToolKind::Edit),
    ("multiedit", ToolKind::Edit),
    ("write", ToolKind::Write),
    ("patch", ToolKind::Patch),
    ("apply_patch", ToolKind::Patch),
    ("read", ToolKind::Read),
    ("list", ToolKind::List),
    ("grep", ToolKind::Grep),
    ("glob", ToolKind::Glob),
    ("webfetch", ToolKind::WebFetch),
    ("websearch", ToolKind::WebSearch),
    ("codesearch", ToolKind::CodebaseSearch),
    ("todowrite", ToolKind::Todo),
    ("task", ToolKind::Task),
];

/// The first keys of a payload, enough to tell OpenCode's two shapes.
#[derive(Deserialize)]
struct Sniff<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(rename = "sessionID", default)]
    session: Option<IgnoredAny>,
    #[serde(default)]
    timestamp: Option<IgnoredAny>,
    #[serde(default)]
    part: Option<IgnoredAny>,
    #[serde(default)]
    info: Option<IgnoredAny>,
    #[serde(default)]
    messages: Option<IgnoredAny>,
}

/// OpenCode's format of a JSON object, for detection: a `run --format json` event
/// (a `type` with its `timestamp` and `sessionID` or `part`: a part file of OpenCode's
/// older storage has no `timestamp`), or an export (`info` with `messages`).
pub(super) fn sniff(text: &str) -> Option<Format> {
    let s: Sniff<'_> = docstream_model::read_json::from_str(text).ok()?;
    match s.kind.as_deref() {
        Some(
            "step_start" | "step_finish" | "text" | "reasoning" | "tool_use" | "error" | "done",
        ) if s.timestamp.is_some() && (s.session.is_some() || s.part.is_some()) => {
            Some(Format::OpencodeRunJson)
        }
        None if s.info.is_some() && s.messages.is_some() => Some(Format::OpencodeExport),
        _ => None,
    }
}

/// The state of a run's events or of an export.
#[derive(Default)]
pub(in crate::formats) struct OpenCode {
    /// Reading an export (one whole session) rather than a run's events.
    export: bool,
    /// The part whose prose was written last.
    prose: super::common::Prose,
    /// What the open response cost so far (the steps' costs add up).
    cost: f64,
    /// The last step's finish reason: `tool-calls` means another step follows.
    stop: Option<String>,
    /// The run ended (`done`, or the session's `error`).
    ended: bool,
    /// The session id was said.
    session: bool,
    /// A user message asked for a compaction: the summary message answers it.
    compacting: bool,
    /// Steps counted, for a step without a part id.
    steps: u64,
}

impl OpenCode {
    /// A reader of `opencode run --format json` lines.
    pub(in crate::formats) fn run() -> OpenCode {
        OpenCode::default()
    }

    /// A reader of `opencode export` output.
    pub(in crate::formats) fn export() -> OpenCode {
        OpenCode {
            export: true,
            ..OpenCode::default()
        }
    }
}

impl Adapter for OpenCode {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let read = Fields::of(&tree, "the payload").and_then(|f| {
            if self.export {
                self.session_export(f, n)
            } else {
                self.event(f, n)
            }
        });
        let _ = or_report(read, &p, n);
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        // A run ends when its last step stops for another reason than tool calls;
        // one that ends mid-step was cut off. A saved session ends with its input.
        if self.export || self.ended || self.stop.as_deref().is_some_and(|r| r != "tool-calls") {
            end_open_response(n);
        }
    }
}

/// `kind.field` in error messages.
fn at(kind: &str, e: serde_json::Error) -> serde_json::Error {
    serde::de::Error::custom(format_args!("`{kind}`: {e}"))
}

impl OpenCode {
    /// One line of `opencode run --format json`.
    fn event(&mut self, f: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let kind = f.str("type")?;
        let timestamp = f.u64("timestamp")?;
        let session = f.string("sessionID")?;
        let Some(kind) = kind else {
            n.apply(Event::Unknown);
            return Ok(());
        };
        if let Some(ms) = timestamp {
            n.apply(Event::Time(docstream_model::time::iso_8601(ms)));
        }
        // The run's answer starts with its first step (or whatever comes first).
        if !n.response_open() && kind != "done" {
            n.apply(Event::ResponseStart(SessionInfo {
                created: timestamp.map(docstream_model::time::iso_8601),
                ..SessionInfo::default()
            }));
        }
        if let (Some(id), false) = (session, self.session) {
            self.session = true;
            n.apply(Event::Session(SessionInfo {
                conversation_id: Some(id),
                ..SessionInfo::default()
            }));
        }
        match kind {
            "step_start" | "text" | "reasoning" | "tool_use" | "step_finish" => {
                let part = f.object("part").map_err(|e| at(kind, e))?;
                match part {
                    Some(part) => self.part(part, n).map_err(|e| at(kind, e))?,
                    None => n.apply(Event::Unknown),
                }
            }
            "error" => {
                let info = match f.object("error").map_err(|e| at(kind, e))? {
                    Some(e) => session_error(e).map_err(|e| at(kind, e))?,
                    None => ErrorInfo::agent("OpenCode reported an error.".to_owned()),
                };
                self.ended = true;
                n.apply(Event::Done { error: Some(info) });
            }
            "done" => {
                self.ended = true;
                end_open_response(n);
            }
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    /// A whole exported session: its facts, then each message.
    fn session_export(&mut self, f: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let info = f.object("info")?;
        let messages = f.array("messages")?.unwrap_or_default();
        if let Some(info) = info {
            let at = |e| self::at("info", e);
            let time = info.object("time").map_err(at)?;
            let created = match time {
                Some(t) => t.u64("created").map_err(at)?,
                None => None,
            };
            n.apply(Event::Session(SessionInfo {
                conversation_id: info.string("id").map_err(at)?,
                cwd: info.string("directory").map_err(at)?,
                created: created.map(docstream_model::time::iso_8601),
                ..SessionInfo::default()
            }));
            if let Some(title) = info.str("title").map_err(at)?.filter(|t| !placeholder(t)) {
                n.apply(Event::Title {
                    text: title.to_owned(),
                    chosen: false,
                });
            }
            if info.str("parentID").map_err(at)?.is_some() {
                // A sub-agent's session: its prompts are the agent's that started it.
                n.apply(Event::PromptsFrom(Some(PromptFrom::ParentAgent)));
            }
        }
        for (i, m) in messages.iter().enumerate() {
            // A message of the wrong shape is one error; the messages after it are read.
            let read = Fields::of(m, "a message").and_then(|m| self.message(m, n));
            if let Err(e) = read {
                n.apply(Event::Error(ErrorInfo {
                    at: None,
                    code: crate::error::codes::INVALID_EVENT.to_owned(),
                    source: "stream".to_owned(),
                    message: format!(
                        "Message {} of the session did not have the expected shape.",
                        i + 1
                    ),
                    details: format!("message {}: {e}", i + 1),
                }));
            }
        }
        Ok(())
    }

    /// One message with its parts.
    fn message(&mut self, m: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let info = m.object("info")?.ok_or_else(|| missing("info"))?;
        let parts = m.array("parts")?.unwrap_or_default();
        let role = info.str("role")?;
        let created = match info.object("time")? {
            Some(t) => t.u64("created")?,
            None => None,
        };
        if let Some(ms) = created {
            n.apply(Event::Time(docstream_model::time::iso_8601(ms)));
        }
        match role {
            Some("user") => self.user(parts, n),
            Some("assistant") => self.assistant(info, parts, n),
            _ => {
                n.apply(Event::Unknown);
                Ok(())
            }
        }
    }

    /// A prompt: its text parts (not the ones OpenCode added), its files as
    /// attachments; or a request to compact the context.
    fn user(&mut self, parts: &[serde_json_borrow::Value<'_>], n: &mut dyn Sink) -> Read<()> {
        let mut text = String::new();
        let mut attachments = Vec::new();
        let mut compaction = None;
        for p in parts {
            let p = Fields::of(p, "a part")?;
            match p.str("type")? {
                Some("text") => {
                    let hidden =
                        p.bool("synthetic")? == Some(true) || p.bool("ignored")? == Some(true);
                    if let (Some(t), false) = (p.str("text")?, hidden) {
                        if !text.is_empty() {
                            text.push_str("\n\n");
                        }
                        text.push_str(t);
                    }
                }
                Some("file") => attachments.push(file(p)?),
                Some("compaction") => compaction = Some(p.bool("auto")?.unwrap_or(false)),
                Some("agent" | "subtask") => {}
                _ => n.apply(Event::Unknown),
            }
        }
        self.cost = 0.0;
        self.stop = None;
        self.prose.end();
        if let Some(auto) = compaction {
            self.compacting = true;
            n.apply(Event::Compaction(Compaction {
                trigger: Some(if auto { "auto" } else { "manual" }.to_owned()),
                pre_tokens: None,
                post_tokens: None,
            }));
            return Ok(());
        }
        self.compacting = false;
        n.apply(Event::UserPrompt {
            text: Cow::Owned(text),
            attachments,
        });
        Ok(())
    }

    /// An answer: one API call's step, or several; the summary of a compaction.
    fn assistant(
        &mut self,
        info: Fields<'_, '_>,
        parts: &[serde_json_borrow::Value<'_>],
        n: &mut dyn Sink,
    ) -> Read<()> {
        if info.bool("summary")? == Some(true) || self.compacting {
            self.compacting = false;
            let mut summary = String::new();
            for p in parts {
                let p = Fields::of(p, "a part")?;
                if p.str("type")? == Some("text") {
                    summary.push_str(p.str("text")?.unwrap_or_default());
                }
            }
            if !summary.trim().is_empty() {
                n.apply(Event::CompactSummary(Cow::Owned(summary.trim().to_owned())));
            }
            return Ok(());
        }
        let cwd = match info.object("path")? {
            Some(p) => p.string("cwd")?,
            None => None,
        };
        let mode = match info.string("agent")? {
            Some(a) => Some(a),
            None => info.string("mode")?,
        };
        n.apply(Event::Session(SessionInfo {
            model: info.string("modelID")?,
            mode,
            cwd,
            ..SessionInfo::default()
        }));
        for p in parts {
            self.part(Fields::of(p, "a part")?, n)?;
        }
        if let Some(e) = info.object("error")? {
            n.apply(Event::Error(session_error(e)?));
        }
        Ok(())
    }

    /// One part of an answer.
    fn part(&mut self, p: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let id = p.str("id")?.unwrap_or_default();
        match p.str("type")? {
            Some("text") => {
                let hidden = p.bool("synthetic")? == Some(true) || p.bool("ignored")? == Some(true);
                if let (Some(t), false) = (p.str("text")?, hidden) {
                    self.prose.write(id, t, n);
                }
            }
            Some("reasoning") => {
                self.prose.end();
                let text = p.str("text")?.unwrap_or_default();
                if !text.trim().is_empty() {
                    n.apply(Event::Thinking(Cow::Owned(text.to_owned())));
                    if let Some(ms) = span(p)? {
                        n.apply(Event::ThinkingDuration(ms));
                    }
                    n.apply(Event::ThinkingEnd {
                        signature: None,
                        redacted: false,
                    });
                }
            }
            Some("tool") => {
                self.prose.end();
                self.tool(p, n)?;
            }
            Some("step-finish") => self.step_finish(id, p, n)?,
            Some("retry") => {
                let attempt = p.u64("attempt")?;
                let why = match p.object("error")? {
                    Some(e) => session_error(e)?.message,
                    None => "the provider failed".to_owned(),
                };
                let message = match attempt {
                    Some(a) => format!("Retrying (attempt {a}): {why}"),
                    None => format!("Retrying: {why}"),
                };
                n.apply(Event::Error(ErrorInfo::warning(message)));
            }
            Some("step-start" | "snapshot" | "patch" | "agent" | "subtask" | "file") => {}
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    /// A step's end: the tokens of its API call and what it cost.
    fn step_finish(&mut self, id: &str, p: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        self.steps += 1;
        self.stop = p.string("reason")?;
        if let Some(t) = p.object("tokens")? {
            let input = t.u64("input")?.unwrap_or(0);
            let output = t.u64("output")?.unwrap_or(0);
            let reasoning = t.u64("reasoning")?.unwrap_or(0);
            let (read, write) = match t.object("cache")? {
                Some(c) => (c.u64("read")?, c.u64("write")?),
                None => (None, None),
            };
            let completion = output.saturating_add(reasoning);
            let total = t.u64("total")?.unwrap_or_else(|| {
                input
                    .saturating_add(completion)
                    .saturating_add(read.unwrap_or(0))
                    .saturating_add(write.unwrap_or(0))
            });
            let call = if id.is_empty() {
                format!("step {}", self.steps)
            } else {
                id.to_owned()
            };
            n.apply(Event::CallUsage {
                call,
                usage: Usage {
                    prompt_tokens: input,
                    completion_tokens: completion,
                    total_tokens: total,
                    cache_read_tokens: read,
                    cache_write_tokens: write,
                    reasoning_tokens: (reasoning > 0).then_some(reasoning),
                },
            });
        }
        if let Some(cost) = p.f64("cost")?.filter(|c| c.is_finite() && *c > 0.0) {
            // Summed in millionths of a cent, so that the sum is the sum written.
            self.cost = ((self.cost + cost) * 1e8).round() / 1e8;
            n.apply(Event::Cost(self.cost));
        }
        n.apply(Event::stopped(self.stop.clone()));
        Ok(())
    }

    /// A tool part: the call, and its end once its state is `completed` or `error`.
    fn tool(&mut self, p: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let name = p.str("tool")?.unwrap_or("tool");
        let call_id = match p.str("callID")? {
            Some(c) => c,
            None => p.str("id")?.unwrap_or_default(),
        };
        let Some(state) = p.object("state")? else {
            n.apply(Event::tool_start(
                call_id.to_owned(),
                name.to_owned(),
                Value::Object(Map::new()),
            ));
            return Ok(());
        };
        let status = state.str("status")?;
        let input = state
            .value("input")
            .unwrap_or_else(|| Value::Object(Map::new()));
        let output = state.str("output")?;
        let error = state.str("error")?;
        let metadata = state.object("metadata")?;
        let duration_ms = span(state)?;
        let kind = crate::normalize::kind_in(&[TOOLS], name);
        // A patch is one file edit per file it changes.
        let patch = match (kind, input.get("patchText").and_then(Value::as_str)) {
            (ToolKind::Patch, Some(text)) => apply_patch::find(text),
            _ => None,
        };
        let ids = match patch {
            Some(text) => apply_patch::start(call_id, text, name, input.clone(), n),
            None => {
                n.apply(Event::tool_start(
                    call_id.to_owned(),
                    name.to_owned(),
                    input.clone(),
                ));
                vec![call_id.to_owned()]
            }
        };
        let outcome = match status {
            Some("completed") => {
                let exit = match metadata {
                    Some(m) => m.i64("exit")?,
                    None => None,
                };
                let shown = match metadata {
                    Some(m) => m.str("output")?,
                    None => None,
                };
                let diff = match metadata {
                    Some(m) => m.str("diff")?,
                    None => None,
                };
                match kind {
                    ToolKind::Shell => ToolOutcome {
                        status: if exit.is_some_and(|c| c != 0) {
                            CallStatus::Error
                        } else {
                            CallStatus::Success
                        },
                        data: json!({ "output": output.or(shown), "exitCode": exit }),
                    },
                    ToolKind::Edit => {
                        let old = input.get("oldString").and_then(Value::as_str);
                        ToolOutcome {
                            status: CallStatus::Success,
                            data: json!({
                                "output": output,
                                "startLine": diff.zip(old).and_then(|(d, o)| old_start(d, o)),
                            }),
                        }
                    }
                    ToolKind::Grep => ToolOutcome {
                        status: CallStatus::Success,
                        data: Value::from(grep_text(output.unwrap_or_default())),
                    },
                    ToolKind::Read => ToolOutcome {
                        status: CallStatus::Success,
                        data: Value::from(read_text(output.unwrap_or_default())),
                    },
                    _ => ToolOutcome {
                        status: CallStatus::Success,
                        data: Value::from(output.unwrap_or_default()),
                    },
                }
            }
            Some("error") => {
                let message = error.unwrap_or("The tool failed.");
                let interrupted = match metadata {
                    Some(m) => m.bool("interrupted")? == Some(true),
                    None => false,
                };
                let status = if interrupted {
                    CallStatus::Interrupted
                } else {
                    refusal(message)
                };
                ToolOutcome {
                    status,
                    data: Value::from(message),
                }
            }
            // Pending or running: the call has no result yet.
            _ => return Ok(()),
        };
        for id in ids {
            n.apply(Event::ToolEnd {
                call_id: id,
                name: None,
                args: None,
                outcome: outcome.clone(),
                duration_ms,
            });
        }
        Ok(())
    }
}

/// A title OpenCode gives a session before it has one of its own.
fn placeholder(title: &str) -> bool {
    title.starts_with("New session - ") || title.starts_with("Child session - ")
}

fn missing(key: &str) -> serde_json::Error {
    serde::de::Error::custom(format_args!("field `{key}` is missing"))
}

/// `time.end - time.start`, in milliseconds, where both are given.
fn span(f: Fields<'_, '_>) -> Read<Option<u64>> {
    Ok(match f.object("time")? {
        Some(t) => match (t.u64("start")?, t.u64("end")?) {
            (Some(s), Some(e)) => e.checked_sub(s),
            _ => None,
        },
        None => None,
    })
}

/// A prompt's file: its path (from its source, else its name), kind `file` (a folder
/// is `directory`).
fn file(p: Fields<'_, '_>) -> Read<Attachment> {
    let source = p.object("source")?;
    let path = match source {
        Some(s) => s.string("path")?,
        None => None,
    };
    let path = match path {
        Some(p) => Some(p),
        None => p.string("filename")?,
    };
    let kind = match p.str("mime")? {
        Some("application/x-directory") => "directory",
        _ => "file",
    };
    Ok(Attachment {
        kind: kind.to_owned(),
        path,
        start_line: None,
        end_line: None,
        text: None,
    })
}

/// A session's or a message's error, `{name, data: {message}}`: `MessageAbortedError`
/// is the user stopping the run.
fn session_error(e: Fields<'_, '_>) -> Read<ErrorInfo> {
    let name = e.str("name")?;
    let data = e.object("data")?;
    let message = match data {
        Some(d) => d.str("message")?,
        None => None,
    };
    let whole = match message.or(e.str("message")?) {
        Some(m) => m.to_owned(),
        None => name.unwrap_or("OpenCode reported an error.").to_owned(),
    };
    // A provider's error is often its JSON body: its `message` says it.
    let message = docstream_model::read_json::from_str::<Value>(&whole)
        .ok()
        .and_then(|v| v.get("message").and_then(Value::as_str).map(str::to_owned))
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| whole.clone());
    if name == Some("MessageAbortedError") {
        return Ok(ErrorInfo::interrupted(message));
    }
    let mut info = ErrorInfo::agent(message);
    if let Some(name) = name {
        info.details = format!("{name}: {whole}");
    }
    Ok(info)
}

/// A failed call's status by OpenCode's messages: a permission the user rejected, a
/// rule that denied it.
fn refusal(message: &str) -> CallStatus {
    let lower = message.to_ascii_lowercase();
    if lower.contains("rejected permission") || lower.contains("user dismissed") {
        CallStatus::Rejected
    } else if lower.contains("specified a rule which prevents") {
        CallStatus::Denied
    } else if lower.contains("tool execution aborted") {
        CallStatus::Interrupted
    } else {
        CallStatus::Error
    }
}

/// The line where the replaced text `old` starts, read from the edit's unified diff
/// (`metadata.diff`): the number of the first line of a hunk's old side that is
/// `old`'s first line.
fn old_start(diff: &str, old: &str) -> Option<u64> {
    let first = old.lines().find(|l| !l.trim().is_empty())?;
    let mut line: Option<u64> = None;
    for l in diff.lines() {
        if let Some(header) = l.strip_prefix("@@ -") {
            line = header.split([',', ' ']).next()?.parse().ok();
            continue;
        }
        let Some(n) = line else { continue };
        let text = match l.as_bytes().first() {
            Some(b' ' | b'-') => &l[1..],
            Some(b'+') | Some(b'\\') => continue,
            _ => l,
        };
        if text == first {
            return Some(n.max(1));
        }
        line = Some(n.saturating_add(1));
    }
    None
}

/// The `grep` tool's text (`Found N matches`, then each file's path with a colon and
/// its `  Line N: text` lines) as `file:line:text` lines, which searches read; other
/// text (`No files found`) is kept as it is.
fn grep_text(output: &str) -> String {
    if !output.starts_with("Found ") {
        return output.to_owned();
    }
    let mut out = String::with_capacity(output.len());
    let mut file: Option<&str> = None;
    for line in output.lines().skip(1) {
        if let Some(rest) = line.trim_start().strip_prefix("Line ") {
            if let (Some(f), Some((n, text))) = (file, rest.split_once(": ")) {
                if n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty() {
                    out.push_str(f);
                    out.push(':');
                    out.push_str(n);
                    out.push(':');
                    out.push_str(text);
                    out.push('\n');
                }
            }
        } else if let Some(path) = line.strip_suffix(':').filter(|l| !l.starts_with(' ')) {
            file = Some(path);
        } else if !line.trim().is_empty() {
            // A note (`(Results are truncated …)`): the matches end.
            file = None;
        }
    }
    if out.is_empty() {
        output.to_owned()
    } else {
        out
    }
}

/// The `read` tool's text as `cat -n` numbers it (`N\t…`), which reads know: OpenCode
/// wraps the file in `<file>` … `</file>` and numbers each line `00001| `; newer
/// versions write `<content>` with `N: ` lines. Other text is kept as it is.
fn read_text(output: &str) -> String {
    let body = output
        .split_once("<file>\n")
        .or_else(|| output.split_once("<content>\n"))
        .map_or(output, |(_, rest)| rest);
    let mut out = String::with_capacity(body.len());
    for line in body.lines() {
        if line.starts_with("</file>") || line.starts_with("</content>") {
            break;
        }
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let rest = &line[digits..];
        let text = rest
            .strip_prefix("| ")
            .or_else(|| rest.strip_prefix(": "))
            .or_else(|| (rest == "|" || rest == ":").then_some(""));
        match (digits, text) {
            (1.., Some(text)) => {
                let n = line[..digits].trim_start_matches('0');
                out.push_str(if n.is_empty() { "0" } else { n });
                out.push('\t');
                out.push_str(text);
                out.push('\n');
            }
            // An end note (`(End of file - total 3 lines)`) or other text: not a file.
            _ if out.is_empty() => return output.to_owned(),
            _ => break,
        }
    }
    if out.is_empty() {
        output.to_owned()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::detect::json_format;

    #[test]
    fn each_shape_is_detected_from_its_first_object() {
        for (text, format) in [
            (
                r#"{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"type":"step-start"}}"#,
                Some(Format::OpencodeRunJson),
            ),
            (
                r#"{"type":"error","timestamp":1,"sessionID":"ses_1","error":{"name":"UnknownError"}}"#,
                Some(Format::OpencodeRunJson),
            ),
            (
                r#"{"type":"text","timestamp":1,"part":{"type":"text","text":"hi"}}"#,
                Some(Format::OpencodeRunJson),
            ),
            // A part file of OpenCode's storage before its database.
            (
                r#"{"id":"prt_1","sessionID":"ses_1","messageID":"msg_1","type":"text","text":"hi"}"#,
                None,
            ),
            (
                r#"{"info":{"id":"ses_1","title":"t"},"messages":[{"info":{"role":"user"},"parts":[]}]}"#,
                Some(Format::OpencodeExport),
            ),
            // Others' `text` and `error` lines stay theirs.
            (r#"{"type":"text","text":"hi"}"#, None),
        ] {
            assert_eq!(sniff(text), format, "{text}");
        }
        // Gemini CLI's `tool_use` line has no `sessionID` and no `part`.
        let gemini = r#"{"type":"tool_use","timestamp":"2026-01-01T00:00:00Z","tool_name":"x","tool_id":"t","parameters":{}}"#;
        assert_eq!(sniff(gemini), None);
        assert_ne!(json_format(gemini), Some(Format::OpencodeRunJson));
    }

    #[test]
    fn an_edit_starts_where_its_old_text_is_in_the_diff() {
        let diff = "Index: a\n===\n--- a\n+++ a\n@@ -7,4 +7,5 @@\n x\n y\n+z\n w\n";
        assert_eq!(old_start(diff, "y\n"), Some(8));
        assert_eq!(old_start(diff, "\nx"), Some(7));
        assert_eq!(old_start(diff, "w"), Some(9));
        assert_eq!(old_start(diff, "q"), None);
        assert_eq!(old_start("@@ -x +1 @@\n-a\n", "a"), None);
        let huge = format!("@@ -{} +1 @@\n a\n b\n", u64::MAX);
        assert_eq!(old_start(&huge, "b"), Some(u64::MAX));
    }

    #[test]
    fn reads_are_numbered_as_cat_n_does() {
        assert_eq!(
            read_text(
                "<file>\n00001| a\n00002| \n00003| b\n\n(End of file - total 3 lines)\n</file>"
            ),
            "1\ta\n2\t\n3\tb\n"
        );
        assert_eq!(
            read_text("<path>/a</path>\n<type>file</type>\n<content>\n10: x\n11: y\n</content>"),
            "10\tx\n11\ty\n"
        );
        assert_eq!(read_text("no file here"), "no file here");
        assert_eq!(
            read_text("<file>\n(End of file)\n</file>"),
            "<file>\n(End of file)\n</file>"
        );
    }

    fn read(input: &str) -> crate::model::Conversation {
        let mut s = crate::DocStream::new(crate::Options::default());
        s.push(input.as_bytes()).unwrap();
        s.finish().unwrap();
        s.into_conversation()
    }

    fn errors(c: &crate::model::Conversation) -> Vec<String> {
        c.documents()
            .filter_map(|d| match &d.meta {
                crate::model::Meta::Error(m) => Some(format!(
                    "{} {}",
                    m.error_code,
                    d.content.as_deref().unwrap_or_default()
                )),
                _ => None,
            })
            .collect()
    }

    /// A run that ends after a step that stopped for tool calls was cut off; one whose
    /// last step stopped is complete.
    #[test]
    fn a_run_ends_with_a_step_that_stops() {
        use crate::model::{ResponseStatus, Turn};
        let step = |reason: &str| {
            format!(
                r#"{{"type":"step_start","timestamp":1000,"sessionID":"s","part":{{"id":"a","type":"step-start"}}}}
{{"type":"text","timestamp":1001,"sessionID":"s","part":{{"id":"b","type":"text","text":"hi"}}}}
{{"type":"step_finish","timestamp":1002,"sessionID":"s","part":{{"id":"c","type":"step-finish","reason":"{reason}","cost":0,"tokens":{{"input":1,"output":2,"reasoning":0,"cache":{{"read":0,"write":0}}}}}}}}
"#
            )
        };
        let status = |c: &crate::model::Conversation| match &c.turns[0] {
            Turn::Assistant(r) => r.status,
            Turn::User(_) => panic!("a user turn"),
        };
        let done = read(&step("stop"));
        assert_eq!(
            status(&done),
            ResponseStatus::Completed,
            "{:?}",
            errors(&done)
        );
        assert_eq!(errors(&done), Vec::<String>::new());
        let cut = read(&step("tool-calls"));
        assert_eq!(status(&cut), ResponseStatus::Error);
        assert_eq!(errors(&cut).len(), 1, "{:?}", errors(&cut));
    }

    /// A message of the wrong shape in an export is one error that says which; the
    /// messages after it are read.
    #[test]
    fn an_exports_bad_message_is_an_error_and_the_rest_is_read() {
        let c = read(
            r#"{"info":{"id":"s","title":"T","time":{"created":1}},"messages":[
            {"info":{"role":"user","time":{"created":2}},"parts":[{"type":"text","text":"first"}]},
            {"info":{"role":"assistant","modelID":5},"parts":[]},
            "not a message",
            {"info":{"role":"assistant"},"parts":[{"id":"p","type":"text","text":"answer"}]}
        ]}"#,
        );
        let e = errors(&c);
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].contains("Message 2"), "{e:?}");
        assert!(e[1].contains("Message 3"), "{e:?}");
        assert_eq!(c.title.as_deref(), Some("T"));
        assert!(
            c.documents()
                .any(|d| d.content.as_deref() == Some("answer"))
        );
    }

    #[test]
    fn grep_matches_are_file_line_text() {
        assert_eq!(
            grep_text(
                "Found 3 matches\n/a/x.js:\n  Line 2: let a = 1;\n  Line 9: a: b\n\n/a/y.js:\n  Line 1: hi\n"
            ),
            "/a/x.js:2:let a = 1;\n/a/x.js:9:a: b\n/a/y.js:1:hi\n"
        );
        assert_eq!(grep_text("No files found"), "No files found");
        assert_eq!(grep_text("Found 0 matches\n"), "Found 0 matches\n");
    }

    #[test]
    fn refusals_by_opencodes_messages() {
        assert_eq!(
            refusal("The user rejected permission to use this specific tool call."),
            CallStatus::Rejected
        );
        assert_eq!(
            refusal(
                "The user has specified a rule which prevents you from using this specific tool call."
            ),
            CallStatus::Denied
        );
        assert_eq!(refusal("Tool execution aborted"), CallStatus::Interrupted);
        assert_eq!(refusal("File /x not found"), CallStatus::Error);
    }
}
