//! GitHub Copilot CLI's session log, `~/.copilot/session-state/<id>/events.jsonl`: one
//! session event a line, each `{type, data, id, timestamp, parentId}` (`ephemeral` and
//! `agentId` where set). The shapes are those of the Copilot SDK's generated session
//! event types and its `docs/features/streaming-events.md` (github/copilot-sdk).
//!
//! `user.message` is a prompt; `assistant.message` the model's text (with
//! `reasoningText`, and the `toolRequests` it made); `assistant.reasoning` its thinking;
//! `tool.execution_start` / `tool.execution_complete` a tool call and its result
//! (`success`, `result.content`, or `error {message, code}`: code `denied` a rule or
//! hook refused it, `rejected` the user did). Tool names (`bash`, `powershell`, `view`,
//! `create`, `edit`, `grep`, `glob`, `web_fetch`, `task` …) map to documents in the
//! normaliser. `session.compaction_complete` is a compaction with its summary;
//! `session.model_change` the model from then on; `session.error`, `session.warning`
//! and `abort` are errors. The SDK's live stream sends the same events with the
//! ephemeral ones among them (`assistant.message_delta`, `assistant.reasoning_delta`,
//! `assistant.usage`): text streamed as deltas is not shown again by the whole message.
//! A sub-agent's events (the envelope's `agentId`, named with the `task` call that
//! started it by `subagent.started`; the deprecated `data.parentToolCallId`) are shown
//! in that call's run. The log has no end of its own: the response open when it ends
//! is complete.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::common::end_open_response;
use super::fields::{self, Fields, Read};
use super::{Adapter, Payload, or_report};
use crate::model::{Attachment, CallStatus, Compaction, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// Copilot CLI's tool names (the shell tool is `bash`, or `powershell` on Windows).
pub(super) const TOOLS: ToolNames = &[
    ("bash", ToolKind::Shell),
    ("powershell", ToolKind::Shell),
    ("view", ToolKind::Read),
    ("create", ToolKind::Write),
    ("edit", ToolKind::Edit),
    ("grep", ToolKind::Grep),
    ("glob", ToolKind::Glob),
    ("web_fetch", ToolKind::WebFetch),
    ("web_search", ToolKind::WebSearch),
    ("task", ToolKind::Task),
    ("exit_plan_mode", ToolKind::Plan),
];

/// Whether an event `type` is one of Copilot CLI's session events (for detection).
pub(super) fn is_event_type(kind: &str) -> bool {
    const PREFIXES: [&str; 6] = [
        "session.",
        "assistant.",
        "user.message",
        "tool.execution_",
        "subagent.",
        "system.message",
    ];
    PREFIXES.iter().any(|p| kind.starts_with(p))
}

/// Events read and shown as nothing: the CLI's own bookkeeping, progress that the
/// events after it repeat, and requests whose outcome the tool's result says.
const QUIET: &[&str] = &[
    "session.compaction_start",
    "session.info",
    "session.idle",
    "session.usage_info",
    "session.usage_checkpoint",
    "session.truncation",
    "session.mode_changed",
    "session.plan_changed",
    "session.todos_changed",
    "session.workspace_file_changed",
    "session.session_limits_changed",
    "session.task_complete",
    "session.tools_updated",
    "session.background_tasks_changed",
    "assistant.turn_start",
    "assistant.turn_end",
    "assistant.intent",
    "assistant.streaming_delta",
    "assistant.tool_call_delta",
    "tool.execution_partial_result",
    "tool.execution_progress",
    "tool.user_requested",
    "permission.requested",
    "permission.completed",
    "user_input.requested",
    "user_input.completed",
    "elicitation.requested",
    "elicitation.completed",
    "exit_plan_mode.requested",
    "exit_plan_mode.completed",
    "external_tool.requested",
    "external_tool.completed",
    "command.queued",
    "command.completed",
    "hook.start",
    "hook.end",
    "skill.invoked",
    "system.message",
    "subagent.started",
    "subagent.selected",
    "subagent.deselected",
];

/// The log's state.
#[derive(Default)]
pub(in crate::formats) struct CopilotCli {
    /// Tool names by call id: calls started (by the message's `toolRequests` or by
    /// `tool.execution_start`), to read each result as its tool gives it.
    tools: HashMap<String, String>,
    /// Text streamed as `assistant.message_delta`s, by message id, until its whole
    /// message.
    streamed: HashMap<String, String>,
    /// Reasoning streamed as `assistant.reasoning_delta`s, by reasoning id.
    reasoned: HashMap<String, String>,
    /// An `assistant.reasoning` came since the last message: the message's
    /// `reasoningText` repeats it.
    thought: bool,
    /// The last assistant message's id: the API call an `assistant.usage` counts.
    message_id: Option<String>,
    /// The call that started each sub-agent, by the `agentId` its events carry.
    agents: HashMap<String, String>,
    /// The call whose sub-agent the last event came from (`None`: the main agent).
    lane: Option<String>,
}

impl Adapter for CopilotCli {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let read = Fields::of(&tree, "the line").and_then(|f| {
            let kind = f.str("type")?;
            let timestamp = f.str("timestamp")?;
            let data = f.object("data")?;
            let agent = f.str("agentId")?;
            let parent = match data {
                Some(d) => d.str("parentToolCallId")?,
                None => None,
            };
            let started = match (kind, data) {
                (Some("subagent.started"), Some(d)) => d.str("toolCallId")?,
                _ => None,
            };
            Ok((kind, timestamp, data, agent, parent, started))
        });
        let Some((kind, timestamp, data, agent, parent, started)) = or_report(read, &p, n) else {
            return;
        };
        // A sub-agent's events: shown in the run of the call that started it (the
        // deprecated `parentToolCallId`, or the call its `agentId` started with).
        if let (Some(agent), Some(call)) = (agent, started) {
            self.agents.insert(agent.to_owned(), call.to_owned());
        }
        let lane = parent
            .map(str::to_owned)
            .or_else(|| agent.and_then(|a| self.agents.get(a)).cloned());
        if lane != self.lane && started.is_none() {
            n.apply(Event::Agent {
                parent: lane.clone(),
            });
            self.lane = lane;
        }
        let Some(kind) = kind else {
            n.apply(Event::Unknown);
            return;
        };
        // Events without data (`session.compaction_start`) read as empty ones.
        let empty = serde_json_borrow::Value::Object(Default::default());
        let data = data.unwrap_or_else(|| Fields::of(&empty, "data").expect("an object"));
        if let Some(at) = timestamp {
            n.apply(Event::Time(at.to_owned()));
        }
        let _ = or_report(self.event(kind, data, n), &p, n);
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        end_open_response(n);
    }
}

/// `data.field` in error messages.
fn at(kind: &str, e: serde_json::Error) -> serde_json::Error {
    serde::de::Error::custom(format_args!("`{kind}` data: {e}"))
}

impl CopilotCli {
    /// One event: its data is read whole before anything is shown, so that a line of
    /// the wrong shape is one error document and nothing else.
    fn event(&mut self, kind: &str, d: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        match kind {
            "session.start" | "session.resume" => {
                let context = d.object("context").map_err(|e| at(kind, e))?;
                let cwd = match context {
                    Some(c) => c.string("cwd").map_err(|e| at(kind, e))?,
                    None => None,
                };
                let info = SessionInfo {
                    conversation_id: d.string("sessionId").map_err(|e| at(kind, e))?,
                    model: d.string("selectedModel").map_err(|e| at(kind, e))?,
                    created: d.string("startTime").map_err(|e| at(kind, e))?,
                    cwd,
                    ..SessionInfo::default()
                };
                n.apply(Event::Session(info));
            }
            "session.model_change" => {
                let model = d.string("newModel").map_err(|e| at(kind, e))?;
                n.apply(Event::Session(SessionInfo {
                    model,
                    ..SessionInfo::default()
                }));
            }
            "session.context_changed" => {
                let cwd = d.string("cwd").map_err(|e| at(kind, e))?;
                n.apply(Event::Session(SessionInfo {
                    cwd,
                    ..SessionInfo::default()
                }));
            }
            "session.title_changed" => {
                if let Some(title) = d.string("title").map_err(|e| at(kind, e))? {
                    n.apply(Event::Title {
                        text: title,
                        chosen: false,
                    });
                }
            }
            "session.error" => {
                let error_type = d.str("errorType").map_err(|e| at(kind, e))?;
                let message = d.str("message").map_err(|e| at(kind, e))?;
                let message = message.unwrap_or("Copilot CLI reported an error.");
                let mut info = ErrorInfo::agent(message.to_owned());
                if let Some(t) = error_type {
                    info.details = format!("{t}: {message}");
                }
                n.apply(Event::Error(info));
            }
            "session.warning" => {
                let message = d.string("message").map_err(|e| at(kind, e))?;
                if let Some(m) = message {
                    n.apply(Event::Error(ErrorInfo::warning(m)));
                }
            }
            "session.shutdown" => {
                let failed = d.str("shutdownType").map_err(|e| at(kind, e))? == Some("error");
                let reason = d.str("errorReason").map_err(|e| at(kind, e))?;
                if failed {
                    let message = reason.unwrap_or("The session ended with an error.");
                    n.apply(Event::Error(ErrorInfo::agent(message.to_owned())));
                }
            }
            "session.compaction_complete" => {
                let success = d.bool("success").map_err(|e| at(kind, e))?;
                let error = d.str("error").map_err(|e| at(kind, e))?;
                let pre = d.u64("preCompactionTokens").map_err(|e| at(kind, e))?;
                let post = d.u64("postCompactionTokens").map_err(|e| at(kind, e))?;
                let summary = d.str("summaryContent").map_err(|e| at(kind, e))?;
                if success == Some(false) {
                    let why = error.unwrap_or("no reason given");
                    let message = format!("The context could not be compacted: {why}");
                    n.apply(Event::Error(ErrorInfo::warning(message)));
                    return Ok(());
                }
                n.apply(Event::Compaction(Compaction {
                    trigger: None,
                    pre_tokens: pre,
                    post_tokens: post,
                }));
                if let Some(s) = summary.filter(|s| !s.trim().is_empty()) {
                    n.apply(Event::CompactSummary(Cow::Owned(s.to_owned())));
                }
            }
            "abort" => {
                let reason = d.str("reason").map_err(|e| at(kind, e))?;
                let message = match reason {
                    Some(r) => format!("The turn was aborted ({r})."),
                    None => "The turn was aborted.".to_owned(),
                };
                n.apply(Event::Error(ErrorInfo::interrupted(message)));
            }
            "user.message" => {
                let content = d.str("content").map_err(|e| at(kind, e))?;
                let attachments = d
                    .list("attachments", attachment)
                    .map_err(|e| at(kind, e))?
                    .unwrap_or_default();
                self.streamed.clear();
                self.reasoned.clear();
                self.thought = false;
                n.apply(Event::UserPrompt {
                    text: Cow::Owned(content.unwrap_or_default().to_owned()),
                    attachments,
                });
            }
            "assistant.message_delta" => {
                let id = d.str("messageId").map_err(|e| at(kind, e))?;
                let delta = d.str("deltaContent").map_err(|e| at(kind, e))?;
                if let Some(delta) = delta.filter(|t| !t.is_empty()) {
                    let id = id.unwrap_or_default().to_owned();
                    self.streamed.entry(id).or_default().push_str(delta);
                    n.apply(Event::Text(Cow::Owned(delta.to_owned())));
                }
            }
            "assistant.reasoning_delta" => {
                let id = d.str("reasoningId").map_err(|e| at(kind, e))?;
                let delta = d.str("deltaContent").map_err(|e| at(kind, e))?;
                if let Some(delta) = delta.filter(|t| !t.is_empty()) {
                    let id = id.unwrap_or_default().to_owned();
                    self.reasoned.entry(id).or_default().push_str(delta);
                    n.apply(Event::Thinking(Cow::Owned(delta.to_owned())));
                }
            }
            "assistant.reasoning" => {
                let id = d.str("reasoningId").map_err(|e| at(kind, e))?;
                let content = d.str("content").map_err(|e| at(kind, e))?;
                let streamed = self.reasoned.remove(id.unwrap_or_default());
                let text = content.unwrap_or_default();
                let new = rest_of(text, streamed.as_deref());
                if !new.is_empty() {
                    n.apply(Event::Thinking(Cow::Owned(new.to_owned())));
                }
                if !text.is_empty() {
                    n.apply(Event::ThinkingEnd {
                        signature: None,
                        redacted: false,
                    });
                    self.thought = true;
                }
            }
            "assistant.message" => self.message(kind, d, n)?,
            "assistant.usage" => {
                let model = d.string("model").map_err(|e| at(kind, e))?;
                let input = d.u64("inputTokens").map_err(|e| at(kind, e))?;
                let output = d.u64("outputTokens").map_err(|e| at(kind, e))?;
                let cache_read = d.u64("cacheReadTokens").map_err(|e| at(kind, e))?;
                let cache_write = d.u64("cacheWriteTokens").map_err(|e| at(kind, e))?;
                let call = d.string("apiCallId").map_err(|e| at(kind, e))?;
                if model.is_some() {
                    n.apply(Event::Session(SessionInfo {
                        model,
                        ..SessionInfo::default()
                    }));
                }
                if input.is_some() || output.is_some() {
                    // The call that wrote the last message: its `outputTokens` counted
                    // once with these.
                    let call = self.message_id.clone().or(call).unwrap_or_default();
                    n.apply(Event::CallUsage {
                        call,
                        usage: Usage {
                            prompt_tokens: input.unwrap_or(0),
                            completion_tokens: output.unwrap_or(0),
                            total_tokens: 0,
                            cache_read_tokens: cache_read.filter(|c| *c > 0),
                            cache_write_tokens: cache_write.filter(|c| *c > 0),
                            reasoning_tokens: None,
                        },
                    });
                }
            }
            "tool.execution_start" => {
                let id = d.string("toolCallId").map_err(|e| at(kind, e))?;
                let name = d.string("toolName").map_err(|e| at(kind, e))?;
                let args = d.value("arguments");
                let id = id.unwrap_or_default();
                let name = name.unwrap_or_else(|| "tool".to_owned());
                self.start(id, name, args, n);
            }
            "tool.execution_complete" => self.complete(kind, d, n)?,
            "subagent.completed" | "subagent.failed" => {
                if let Some(call) = d.string("toolCallId").map_err(|e| at(kind, e))? {
                    let failed = kind == "subagent.failed";
                    n.apply(Event::AgentEnd {
                        parent: call,
                        failed,
                    });
                }
            }
            _ if QUIET.contains(&kind) => {}
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    /// `assistant.message`: its reasoning, its text, the calls it requested, and the
    /// output tokens of the API call that wrote it.
    fn message(&mut self, kind: &str, d: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let id = d.string("messageId").map_err(|e| at(kind, e))?;
        let content = d.str("content").map_err(|e| at(kind, e))?;
        let reasoning = d.str("reasoningText").map_err(|e| at(kind, e))?;
        let output = d.u64("outputTokens").map_err(|e| at(kind, e))?;
        let requests = d
            .list("toolRequests", |r| {
                Ok((
                    r.string("toolCallId")?,
                    r.string("name")?,
                    r.value("arguments"),
                ))
            })
            .map_err(|e| at(kind, e))?;
        if let Some(text) = reasoning.filter(|t| !t.trim().is_empty() && !self.thought) {
            n.apply(Event::Thinking(Cow::Owned(text.to_owned())));
            n.apply(Event::ThinkingEnd {
                signature: None,
                redacted: false,
            });
        }
        self.thought = false;
        let streamed = id.as_deref().and_then(|i| self.streamed.remove(i));
        let new = rest_of(content.unwrap_or_default(), streamed.as_deref());
        if !new.is_empty() {
            n.apply(Event::Text(Cow::Owned(new.to_owned())));
        }
        for (call_id, name, args) in requests.unwrap_or_default() {
            let name = name.unwrap_or_else(|| "tool".to_owned());
            self.start(call_id.unwrap_or_default(), name, args, n);
        }
        if let Some(output) = output.filter(|o| *o > 0) {
            n.apply(Event::CallUsage {
                call: id.clone().unwrap_or_default(),
                usage: Usage {
                    completion_tokens: output,
                    ..Usage::default()
                },
            });
        }
        self.message_id = id;
        Ok(())
    }

    /// A call requested or started: a start the first time, its arguments again after.
    fn start(&mut self, id: String, name: String, args: Option<Value>, n: &mut dyn Sink) {
        let args = args.unwrap_or_else(|| Value::Object(Map::new()));
        if self.tools.contains_key(&id) {
            n.apply(Event::ToolArgs { call_id: id, args });
            return;
        }
        self.tools.insert(id.clone(), name.clone());
        n.apply(Event::tool_start(id, name, args));
    }

    /// `tool.execution_complete`: the call's outcome, as its tool gives it.
    fn complete(&mut self, kind: &str, d: Fields<'_, '_>, n: &mut dyn Sink) -> Read<()> {
        let id = d.string("toolCallId").map_err(|e| at(kind, e))?;
        let success = d.bool("success").map_err(|e| at(kind, e))?;
        let model = d.string("model").map_err(|e| at(kind, e))?;
        let result = match d.get("result") {
            // A capture with its results taken out (`"[REDACTED]"`) still has them.
            Some(serde_json_borrow::Value::Str(s)) => Some(Result_ {
                content: Some(s.to_string()),
                detailed: None,
                exit_code: None,
            }),
            Some(_) => {
                let r = d.object("result").map_err(|e| at(kind, e))?;
                r.map(Result_::read).transpose().map_err(|e| at(kind, e))?
            }
            None => None,
        };
        let error = match d.object("error").map_err(|e| at(kind, e))? {
            Some(e) => Some((e.string("message")?, e.string("code")?)),
            None => None,
        };
        if model.is_some() {
            n.apply(Event::Session(SessionInfo {
                model,
                ..SessionInfo::default()
            }));
        }
        let call_id = id.unwrap_or_default();
        let tool = self.tools.get(&call_id);
        let tool_kind = tool.map_or(ToolKind::Other, |t| crate::normalize::kind_in(&[TOOLS], t));
        let shell = tool_kind == ToolKind::Shell;
        let failed = success == Some(false) || error.is_some();
        let (status, data) = match (&error, result) {
            (Some((message, code)), _) => {
                let message = message
                    .clone()
                    .unwrap_or_else(|| "The tool failed.".to_owned());
                let status = refusal(code.as_deref(), &message);
                // The CLI's stock sentence for a call the user declined says no more
                // than the status.
                let stock = status == CallStatus::Rejected
                    && message.trim() == "The user rejected this tool call.";
                let data = if stock {
                    Value::Null
                } else {
                    Value::from(message)
                };
                (status, data)
            }
            (None, Some(r)) if shell => {
                let (output, marked) = r.output();
                let exit_code = r.exit_code.or(marked);
                let status = if failed || exit_code.is_some_and(|c| c != 0) {
                    CallStatus::Error
                } else {
                    CallStatus::Success
                };
                (status, json!({ "output": output, "exitCode": exit_code }))
            }
            (None, Some(r)) if failed => {
                let text = r.detailed.or(r.content).unwrap_or_default();
                (CallStatus::Error, Value::from(text))
            }
            (None, Some(r)) if tool_kind == ToolKind::Edit => {
                // The diff the timeline shows says where the edit is; the arguments
                // only hold the old and new text.
                let start = r.detailed.as_deref().and_then(first_changed_line);
                let data = json!({ "content": r.content, "startLine": start });
                (CallStatus::Success, data)
            }
            (None, Some(r)) if tool_kind == ToolKind::Read => {
                let text = r.detailed.or(r.content).unwrap_or_default();
                let text = numbered_with_tabs(&text).unwrap_or(text);
                (CallStatus::Success, Value::from(text))
            }
            (None, Some(r)) => {
                let text = r.detailed.or(r.content).unwrap_or_default();
                (CallStatus::Success, Value::from(text))
            }
            (None, None) if failed => (CallStatus::Error, Value::Null),
            (None, None) => (CallStatus::Success, Value::Null),
        };
        n.apply(Event::tool_end(call_id, ToolOutcome { status, data }));
        Ok(())
    }
}

/// An attachment of a prompt: a `file` (with its `lineRange`), a `directory`, a
/// `selection` (its file and text), or another kind (a GitHub reference, a blob) by its
/// `type` and whichever of `path`, `filePath`, `url` it has.
fn attachment(f: Fields<'_, '_>) -> Read<Attachment> {
    let range = f.object("lineRange")?;
    let (start_line, end_line) = match range {
        Some(r) => (r.u64("start")?, r.u64("end")?),
        None => (None, None),
    };
    let path = match f.string("path")? {
        Some(p) => Some(p),
        None => match f.string("filePath")? {
            Some(p) => Some(p),
            None => f.string("url")?,
        },
    };
    Ok(Attachment {
        kind: f.string("type")?.unwrap_or_else(|| "file".to_owned()),
        path,
        start_line,
        end_line,
        text: f.string("text")?,
    })
}

/// What a whole text adds to what was streamed of it: all of it when nothing was, or
/// when it does not start with what was.
fn rest_of<'t>(text: &'t str, streamed: Option<&str>) -> &'t str {
    match streamed {
        Some(s) => text.strip_prefix(s).unwrap_or(text),
        None => text,
    }
}

/// The number of the first line a unified diff removes or adds, counted from its first
/// hunk's header (`@@ -10,7 +10,7 @@`) over the context lines before it.
fn first_changed_line(diff: &str) -> Option<u64> {
    let mut lines = diff.lines().skip_while(|l| !l.starts_with("@@ -"));
    let header = lines.next()?;
    let old = header.strip_prefix("@@ -")?.split([',', ' ']).next()?;
    let mut line: u64 = old.parse().ok()?;
    for l in lines {
        if l.starts_with('-') || l.starts_with('+') {
            return Some(line.max(1));
        }
        line = line.saturating_add(1);
    }
    None
}

/// The `view` tool's text, each line numbered `N. ` (or a bare `N.` for an empty line),
/// numbered as `cat -n` does (`N\t`), which reads know; `None` when not every line is.
fn numbered_with_tabs(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 8);
    for line in text.lines() {
        let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let rest = line[digits..].strip_prefix('.')?;
        let rest = match rest.strip_prefix(' ') {
            Some(r) => r,
            None if rest.is_empty() => rest,
            None => return None,
        };
        if digits == 0 {
            return None;
        }
        out.push_str(&line[..digits]);
        out.push('\t');
        out.push_str(rest);
        out.push('\n');
    }
    (!out.is_empty()).then_some(out)
}

/// A failed call's status by the error's `code` (the SDK's tool result types) and, for
/// built-in tools, the CLI's messages: `denied` by a rule, a hook or the content
/// exclusion policy; `rejected` by the user.
fn refusal(code: Option<&str>, message: &str) -> CallStatus {
    let lower = message.to_ascii_lowercase();
    match code {
        Some("denied") => CallStatus::Denied,
        Some("rejected") => CallStatus::Rejected,
        _ if lower.contains("user rejected") => CallStatus::Rejected,
        _ if lower.starts_with("permission denied")
            || lower.starts_with("denied by ")
            || lower.starts_with("permission to run this tool was denied") =>
        {
            CallStatus::Denied
        }
        _ => CallStatus::Error,
    }
}

/// A tool's `result`: `content` (what the model was given), `detailedContent` (what
/// the timeline shows), and a shell's exit code from its `contents` blocks.
struct Result_ {
    content: Option<String>,
    detailed: Option<String>,
    exit_code: Option<i64>,
}

impl Result_ {
    fn read(f: Fields<'_, '_>) -> Read<Self> {
        let blocks = f.array("contents")?.unwrap_or_default();
        let exit_code = blocks.iter().find_map(|b| {
            let kind = b.get("type").as_str()?;
            matches!(kind, "terminal" | "shell_exit")
                .then(|| b.get("exitCode").as_i64())
                .flatten()
        });
        Ok(Result_ {
            content: f.string("content")?,
            detailed: f.string("detailedContent")?,
            exit_code,
        })
    }

    /// A shell's output, without the `<exited with exit code N>` line the CLI ends it
    /// with, and that code.
    fn output(&self) -> (String, Option<i64>) {
        let text = self
            .detailed
            .as_deref()
            .or(self.content.as_deref())
            .unwrap_or_default();
        let trimmed = text.trim_end();
        let last = trimmed.rsplit('\n').next().unwrap_or_default();
        let code = last
            .trim()
            .strip_prefix("<exited with exit code ")
            .and_then(|rest| rest.strip_suffix('>'))
            .and_then(|c| c.trim().parse::<i64>().ok());
        match code {
            Some(c) => {
                let body = &trimmed[..trimmed.len() - last.len()];
                (body.trim_end_matches('\n').to_owned(), Some(c))
            }
            None => (text.to_owned(), None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::Format;
    use crate::formats::detect::json_format;
    use crate::model::{Conversation, DocumentType, Meta, Turn};
    use crate::{DocStream, Options};

    fn read(input: &str) -> Conversation {
        let mut s = DocStream::new(Options::default());
        s.push(input.as_bytes()).unwrap();
        s.finish().unwrap();
        s.into_conversation()
    }

    /// Any of the log's events may come first (a log read from the middle, the SDK's
    /// stream); other agents' dotted types stay theirs.
    #[test]
    fn the_first_event_tells_the_format() {
        for line in [
            r#"{"type":"session.start","data":{"sessionId":"s","version":1},"id":"a","timestamp":"2026-01-01T00:00:00Z","parentId":null}"#,
            r#"{"type":"session.resume","data":{"eventCount":9},"id":"a"}"#,
            r#"{"type":"user.message","data":{"content":"hi"}}"#,
            r#"{"type":"assistant.turn_start","data":{"turnId":"0"}}"#,
            r#"{"type":"tool.execution_complete","data":{"toolCallId":"c","success":true}}"#,
        ] {
            assert_eq!(json_format(line), Some(Format::CopilotCliEvents), "{line}");
        }
        for (line, format) in [
            (r#"{"type":"turn.started"}"#, Format::CodexExecJson),
            (
                r#"{"type":"item.completed","item":{}}"#,
                Format::CodexExecJson,
            ),
            (
                r#"{"type":"response.created","response":{}}"#,
                Format::OpenaiResponsesStream,
            ),
        ] {
            assert_eq!(json_format(line), Some(format), "{line}");
        }
    }

    #[test]
    fn a_shells_exit_line_is_its_exit_code_not_its_output() {
        let r = |text: &str| Result_ {
            content: Some(text.to_owned()),
            detailed: None,
            exit_code: None,
        };
        assert_eq!(
            r("a\nb\n<exited with exit code 2>").output(),
            ("a\nb".to_owned(), Some(2))
        );
        assert_eq!(
            r("<exited with exit code 0>").output(),
            (String::new(), Some(0))
        );
        assert_eq!(r("plain\n").output(), ("plain\n".to_owned(), None));
        assert_eq!(
            r("x\n<exited with exit code nope>").output(),
            ("x\n<exited with exit code nope>".to_owned(), None)
        );
    }

    #[test]
    fn an_edits_diff_says_its_first_changed_line() {
        let diff = "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -10,4 +10,4 @@\n x\n y\n-z\n+Z\n";
        assert_eq!(first_changed_line(diff), Some(12));
        assert_eq!(first_changed_line("@@ -1 +1 @@\n-a\n+b\n"), Some(1));
        assert_eq!(first_changed_line("@@ -0,0 +1 @@\n+a\n"), Some(1));
        assert_eq!(first_changed_line("no hunk"), None);
        assert_eq!(first_changed_line("@@ -x,1 +1 @@\n-a"), None);
        let huge = format!("@@ -{} +1 @@\n{}-a\n", u64::MAX, " c\n".repeat(3));
        assert_eq!(first_changed_line(&huge), Some(u64::MAX));
    }

    #[test]
    fn views_numbering_is_read_only_when_every_line_has_it() {
        assert_eq!(
            numbered_with_tabs("3. a\n4. \n5."),
            Some("3\ta\n4\t\n5\t\n".to_owned())
        );
        assert_eq!(numbered_with_tabs("1. a\nb"), None);
        assert_eq!(numbered_with_tabs(". a"), None);
        assert_eq!(numbered_with_tabs("1.a"), None);
        assert_eq!(numbered_with_tabs("src/\nREADME.md"), None);
    }

    #[test]
    fn refusals_by_code_and_by_the_clis_messages() {
        use CallStatus::*;
        for (code, message, status) in [
            (
                Some("denied"),
                "Access denied: insufficient permissions",
                Denied,
            ),
            (
                Some("rejected"),
                "Deployment rejected: policy violation",
                Rejected,
            ),
            (None, "The user rejected this tool call.", Rejected),
            (
                None,
                "Permission denied and could not request permission from user",
                Denied,
            ),
            (
                None,
                "Denied by preToolUse hook: No reason provided",
                Denied,
            ),
            (Some("failure"), "Path /x does not exist.", Error),
            (None, "boom", Error),
        ] {
            assert_eq!(refusal(code, message), status, "{code:?} {message}");
        }
    }

    /// A line of the wrong shape is one error document that names the event and the
    /// field, and the lines after it are read.
    #[test]
    fn a_line_of_the_wrong_shape_is_an_error_and_the_rest_is_read() {
        let c = read(concat!(
            r#"{"type":"session.start","data":{"sessionId":"s","version":1,"producer":"copilot-agent","copilotVersion":"1","startTime":"2026-01-01T00:00:00Z"}}"#,
            "\n",
            r#"{"type":"user.message","data":{"content":5}}"#,
            "\n",
            r#"{"type":"user.message","data":"not an object"}"#,
            "\n",
            r#"{"type":"user.message","data":{"content":"after"}}"#,
            "\n",
            r#"{"type":"assistant.message","data":{"messageId":"m","content":"ok","toolRequests":[{"toolCallId":"c","name":"bash","arguments":{"command":"true"}}]}}"#,
            "\n",
        ));
        let errors: Vec<&str> = c
            .documents()
            .filter(|d| d.doc_type() == DocumentType::Error)
            .map(|d| match &d.meta {
                Meta::Error(m) => m.details.as_str(),
                _ => "",
            })
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("line 2"), "{errors:?}");
        assert!(errors[0].contains("`user.message` data"), "{errors:?}");
        assert!(errors[0].contains("content"), "{errors:?}");
        assert_eq!(c.stats.bad_events, 2, "{:?}", c.stats);
        let prompts: Vec<&str> = c
            .turns
            .iter()
            .filter_map(|t| match t {
                Turn::User(u) => Some(u.content.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(prompts, ["after"]);
        // A call requested but never run stays without its result.
        let run = c.documents().find_map(|d| match &d.meta {
            Meta::TerminalCommand(m) => Some(m.status),
            _ => None,
        });
        assert_eq!(run, Some(Some(CallStatus::NoResult)));
    }
}
