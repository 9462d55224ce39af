//! Google's Gemini CLI: `--output-format stream-json` (one event per line: `init`,
//! `message`, `tool_use`, `tool_result`, `error`, `result`) and `--output-format json`
//! (one object: `session_id`, `response`, `stats`, `error`, `warnings`). The shapes are
//! those of `packages/core/src/output/types.ts` in google-gemini/gemini-cli.
//!
//! Assistant messages arrive as deltas (`"delta": true`); a whole message that repeats
//! what the deltas gave is not shown again. Tool names (`run_shell_command`, `replace`,
//! `write_file`, `write_todos` …) map to documents in the normaliser; the first
//! `write_todos` of a run is the plan, later ones update it. One run (`init` … `result`)
//! is one response; a stream that ends before `result` is cut off.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Value, json};

use super::fields::{self, Fields, wire};
use super::{Adapter, Payload, or_report};
use crate::error::codes;
use crate::model::{CallStatus, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// Gemini CLI's tool names.
pub(super) const TOOLS: ToolNames = &[
    ("run_shell_command", ToolKind::Shell),
    ("replace", ToolKind::Edit),
    ("write_file", ToolKind::Write),
    ("read_file", ToolKind::Read),
    ("glob", ToolKind::Glob),
    ("search_file_content", ToolKind::Grep),
    ("list_directory", ToolKind::List),
    ("google_web_search", ToolKind::WebSearch),
    ("web_fetch", ToolKind::WebFetch),
    ("write_todos", ToolKind::Todo),
];

wire! {
    /// One event, or the `json` format's object (which has no `type`), flat.
    struct Line<'v, 'a> {
        kind: str "type",
        timestamp: string "timestamp",
        session_id: string "session_id",
        model: string "model",
        role: str "role",
        content: str "content",
        delta: bool "delta",
        tool_name: string "tool_name",
        tool_id: string "tool_id",
        parameters: value "parameters",
        status: str "status",
        output: string "output",
        error: object<JsonError> "error",
        severity: str "severity",
        message: string "message",
        stats: object<Stats<'v, 'a>> "stats",
        /// The `json` format.
        response: str "response",
        warnings: strs "warnings",
    }
}

wire! {
    /// `{type, message, code?}`.
    struct JsonError {
        kind: string "type",
        message: string "message",
    }
}

wire! {
    /// The stream's `StreamStats`, or the `json` format's `SessionMetrics`.
    struct Stats<'v, 'a> {
        input_tokens: u64 "input_tokens",
        output_tokens: u64 "output_tokens",
        total_tokens: u64 "total_tokens",
        cached: u64 "cached",
        duration_ms: u64 "duration_ms",
        /// `SessionMetrics.models`: per model `{api: {totalLatencyMs}, tokens: {prompt,
        /// candidates, total, cached}}` (the stream's per-model counts are not read).
        models: get "models",
    }
}

impl Stats<'_, '_> {
    /// The token counts; none when they are all zero (a run that failed before it
    /// started).
    fn usage(&self) -> Option<Usage> {
        self.counts().filter(|u| u.total_tokens > 0)
    }

    fn counts(&self) -> Option<Usage> {
        if let (Some(input), Some(output)) = (self.input_tokens, self.output_tokens) {
            return Some(Usage {
                prompt_tokens: input,
                completion_tokens: output,
                total_tokens: self.total_tokens.unwrap_or(input.saturating_add(output)),
                cache_read_tokens: self.cached.filter(|c| *c > 0),
                cache_write_tokens: None,
                reasoning_tokens: None,
            });
        }
        let models = self.models?.as_object()?;
        let count = |key: &str| -> u64 {
            models
                .values()
                .filter_map(|m| m.get("tokens").get(key).as_u64())
                .fold(0, u64::saturating_add)
        };
        let (prompt, candidates, thoughts) =
            (count("prompt"), count("candidates"), count("thoughts"));
        let cached = count("cached");
        Some(Usage {
            prompt_tokens: prompt,
            // Reasoning counts as output, as for the Gemini API's own counts.
            completion_tokens: candidates.saturating_add(thoughts),
            total_tokens: count("total")
                .max(prompt.saturating_add(candidates).saturating_add(thoughts)),
            cache_read_tokens: (cached > 0).then_some(cached),
            cache_write_tokens: None,
            reasoning_tokens: (thoughts > 0).then_some(thoughts),
        })
    }

    /// The API time of `SessionMetrics`, summed over models.
    fn api_ms(&self) -> Option<u64> {
        let models = self.models?.as_object()?;
        let ms: Vec<u64> = models
            .values()
            .filter_map(|m| m.get("api").get("totalLatencyMs").as_u64())
            .collect();
        (!ms.is_empty()).then(|| ms.iter().fold(0u64, |a, b| a.saturating_add(*b)))
    }
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct GeminiCli {
    /// Assistant text streamed as deltas since the last other event.
    streamed: String,
    /// Tool names by id, to read each result as its tool gives it.
    tools: HashMap<String, String>,
    /// A todo list was shown as the plan.
    planned: bool,
}

impl Adapter for GeminiCli {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let Some(line) = or_report(Fields::of(&tree, "the line").and_then(Line::read), &p, n)
        else {
            return;
        };
        let kind = line.kind;
        if kind != Some("message") {
            self.streamed.clear();
        }
        if let Some(at) = &line.timestamp {
            n.apply(Event::Time(at.clone()));
        }
        match kind {
            Some("init") => n.apply(Event::Session(SessionInfo {
                conversation_id: line.session_id,
                model: line.model,
                created: line.timestamp,
                ..SessionInfo::default()
            })),
            Some("message") => self.message(line, n),
            Some("tool_use") => self.tool_use(line, n),
            Some("tool_result") => self.tool_result(line, n),
            Some("error") => {
                let warning = line.severity == Some("warning");
                let message = line
                    .message
                    .unwrap_or_else(|| "Gemini CLI reported an error.".to_owned());
                n.apply(Event::Error(agent_error(&message, warning)));
            }
            Some("result") => result(line, n),
            Some(_) => n.apply(Event::Unknown),
            None if line.response.is_some() || line.stats.is_some() || line.error.is_some() => {
                whole(line, n)
            }
            None => n.apply(Event::Unknown),
        }
    }
}

fn agent_error(message: &str, warning: bool) -> ErrorInfo {
    ErrorInfo {
        at: None,
        code: if warning {
            codes::AGENT_WARNING
        } else {
            codes::AGENT_ERROR
        }
        .to_owned(),
        source: "agent".to_owned(),
        message: message.to_owned(),
        details: format!("{}: {message}", if warning { "warning" } else { "error" }),
    }
}

impl GeminiCli {
    fn message(&mut self, line: Line<'_, '_>, n: &mut dyn Sink) {
        let text = line.content.unwrap_or_default();
        match line.role {
            Some("user") => {
                self.streamed.clear();
                n.apply(Event::UserPrompt {
                    text: Cow::Borrowed(text),
                    attachments: Vec::new(),
                });
            }
            Some("assistant") => {
                if line.delta == Some(true) {
                    self.streamed.push_str(text);
                    if !text.is_empty() {
                        n.apply(Event::Text(Cow::Borrowed(text)));
                    }
                } else {
                    // A whole message: what the deltas did not already give.
                    let streamed = std::mem::take(&mut self.streamed);
                    let new = text.strip_prefix(streamed.as_str()).unwrap_or(text);
                    if !new.is_empty() {
                        n.apply(Event::Text(Cow::Owned(new.to_owned())));
                    }
                }
            }
            _ => n.apply(Event::Unknown),
        }
    }

    fn tool_use(&mut self, line: Line<'_, '_>, n: &mut dyn Sink) {
        let call_id = line.tool_id.unwrap_or_default();
        let name = line.tool_name.unwrap_or_else(|| "tool".to_owned());
        self.tools.insert(call_id.clone(), name.clone());
        // The first todo list is the plan; later ones update its todos.
        let shown = if name == "write_todos" && !std::mem::replace(&mut self.planned, true) {
            "create_plan".to_owned()
        } else {
            name
        };
        n.apply(Event::tool_start(
            call_id,
            shown,
            line.parameters.unwrap_or(Value::Object(Default::default())),
        ));
    }

    fn tool_result(&mut self, line: Line<'_, '_>, n: &mut dyn Sink) {
        let call_id = line.tool_id.unwrap_or_default();
        let refused = refusal(line.error.as_ref(), line.output.as_deref());
        let mut failed = line.status == Some("error") || line.error.is_some();
        let shell = self.tools.get(&call_id).map(String::as_str) == Some("run_shell_command");
        let data = match (line.error, line.output) {
            (Some(e), _) => Value::from(
                e.message
                    .or(e.kind)
                    .unwrap_or_else(|| "The tool failed.".to_owned()),
            ),
            (None, Some(output)) if shell => {
                // The CLI shows a failed command with no output as this line.
                let exit_code = output
                    .trim()
                    .strip_prefix("Command exited with code: ")
                    .and_then(|c| c.parse::<i64>().ok());
                failed |= exit_code.is_some_and(|c| c != 0);
                json!({ "output": output, "exitCode": exit_code })
            }
            (None, Some(output)) => Value::from(output),
            (None, None) => Value::Null,
        };
        n.apply(Event::tool_end(
            call_id,
            ToolOutcome {
                status: match refused {
                    Some(status) => status,
                    None if failed => CallStatus::Error,
                    None => CallStatus::Success,
                },
                data,
            },
        ));
    }
}

/// A call Gemini CLI did not run or stopped: refused by a policy (`policy_violation`,
/// "Tool execution denied by policy."), or cancelled (the model is told
/// `[Operation Cancelled] Reason: …`: the user declined it or pressed Escape).
fn refusal(error: Option<&JsonError>, output: Option<&str>) -> Option<CallStatus> {
    let message = error.and_then(|e| e.message.as_deref());
    let kind = error.and_then(|e| e.kind.as_deref());
    if kind == Some("policy_violation")
        || message.is_some_and(|m| m.starts_with("Tool execution denied by policy"))
    {
        return Some(CallStatus::Denied);
    }
    let cancelled = |t: &str| t.trim_start().starts_with("[Operation Cancelled]");
    (message.is_some_and(cancelled) || output.is_some_and(cancelled))
        .then_some(CallStatus::Interrupted)
}

/// `result`: usage, time, and the end of the response.
fn result(line: Line<'_, '_>, n: &mut dyn Sink) {
    if let Some(stats) = &line.stats {
        n.apply(Event::ResponseMeta {
            // A run that fails reports 0.
            duration_ms: stats.duration_ms.filter(|ms| *ms > 0),
            duration_api_ms: None,
            request_id: None,
            stop_reason: None,
        });
        if let Some(u) = stats.usage() {
            n.apply(Event::Usage(u));
        }
    }
    let failed = line.status == Some("error") || line.error.is_some();
    let error = failed.then(|| {
        let message = line
            .error
            .and_then(|e| e.message.or(e.kind))
            .unwrap_or_else(|| "Gemini CLI reported an error.".to_owned());
        agent_error(&message, false)
    });
    n.apply(Event::Done { error });
}

/// The `json` format's one object: the response text, warnings, usage, an error.
fn whole(line: Line<'_, '_>, n: &mut dyn Sink) {
    n.apply(Event::Session(SessionInfo {
        conversation_id: line.session_id,
        ..SessionInfo::default()
    }));
    for w in line.warnings.unwrap_or_default() {
        n.apply(Event::Error(agent_error(w, true)));
    }
    if let Some(text) = line.response.filter(|t| !t.is_empty()) {
        n.apply(Event::Text(Cow::Borrowed(text)));
    }
    if let Some(stats) = &line.stats {
        n.apply(Event::ResponseMeta {
            duration_ms: None,
            duration_api_ms: stats.api_ms(),
            request_id: None,
            stop_reason: None,
        });
        if let Some(u) = stats.usage() {
            n.apply(Event::Usage(u));
        }
    }
    let error = line.error.map(|e| {
        let message = e
            .message
            .clone()
            .or(e.kind.clone())
            .unwrap_or_else(|| "Gemini CLI reported an error.".to_owned());
        ErrorInfo {
            at: None,
            code: codes::AGENT_ERROR.to_owned(),
            source: "agent".to_owned(),
            details: match e.kind {
                Some(kind) => format!("{kind}: {message}"),
                None => message.clone(),
            },
            message,
        }
    });
    n.apply(Event::Done { error });
}
