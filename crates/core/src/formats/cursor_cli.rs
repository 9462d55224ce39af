//! Cursor Agent CLI output (seed 001): `stream-json` lines, and the single `result`
//! object of the `json` format, which is the same event on its own.
//!
//! Real runs add what the documentation leaves out (`../shared/samples/README.md`):
//! per-token `assistant` deltas carrying `timestamp_ms`, then a consolidated `assistant`
//! line (with `model_call_id`, or without `timestamp_ms`) repeating the streamed text;
//! `thinking` deltas; tool payloads keyed `shellToolCall`, `editToolCall` …;
//! `interaction_query`; `system` subtypes; `connection` and `retry` events. The
//! Python wrapper's variant (seed 004) is read here too; its tool events are in
//! [`super::cursor_wrapper`].

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;

use super::common::RunResult;
use super::cursor_line::{Line, outcome};
use super::cursor_wrapper;
use super::{Adapter, Format, Payload, parse};
use crate::model::CallStatus;
use crate::normalize::{Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// Cursor's tool names: the CLI's payload keys (`{shellToolCall: {args, result}}`),
/// the plan an `interaction_query` puts to the user, and the wrapper's names (seed 004).
pub(super) const TOOLS: ToolNames = &[
    ("shellToolCall", ToolKind::Shell),
    ("editToolCall", ToolKind::Edit),
    ("writeToolCall", ToolKind::Write),
    ("deleteToolCall", ToolKind::Delete),
    ("readToolCall", ToolKind::Read),
    ("grepToolCall", ToolKind::Grep),
    ("globToolCall", ToolKind::Glob),
    ("lsToolCall", ToolKind::List),
    ("semSearchToolCall", ToolKind::CodebaseSearch),
    ("webSearchToolCall", ToolKind::WebSearch),
    ("webFetchToolCall", ToolKind::WebFetch),
    ("mcpToolCall", ToolKind::Mcp),
    ("taskToolCall", ToolKind::Task),
    ("updateTodosToolCall", ToolKind::Todo),
    ("todoToolCall", ToolKind::Todo),
    ("createPlanToolCall", ToolKind::Plan),
    ("createPlanRequest", ToolKind::Plan),
    ("Shell", ToolKind::Shell),
    ("Read", ToolKind::Read),
    ("Write", ToolKind::Write),
    ("StrReplace", ToolKind::Edit),
    ("EditNotebook", ToolKind::Edit),
    ("Glob", ToolKind::Glob),
    ("Grep", ToolKind::Grep),
    ("LS", ToolKind::List),
    ("Delete", ToolKind::Delete),
];

/// Adapter state: the text streamed as deltas and not yet repeated by a
/// consolidated line.
#[derive(Default)]
pub(crate) struct CursorCli {
    streamed: String,
    /// What the last consolidated line repeated: a second consolidated line with the
    /// same text (with `model_call_id`, then without `timestamp_ms`) repeats it again.
    echoed: String,
    /// The stream used an event only the wrapper's variant has.
    wrapper: bool,
    /// When the open thinking began (its first delta's `timestamp_ms`).
    thinking_since: Option<u64>,
    /// The call of the plan put to the user and not yet answered.
    plan_request: Option<String>,
}

impl CursorCli {
    /// Text of a consolidated `assistant` line, less what the deltas already gave.
    fn consolidated<'t>(&mut self, text: &'t str) -> Option<&'t str> {
        if self.streamed.is_empty() {
            let echo = !self.echoed.is_empty() && self.echoed == text;
            self.echoed.clear();
            return (!echo).then_some(text);
        }
        if let Some(rest) = self.streamed.strip_prefix(text) {
            // The line repeats the first part of what was streamed.
            self.streamed = rest.to_owned();
            self.echoed = text.to_owned();
            return None;
        }
        self.echoed.clear();
        let streamed = std::mem::take(&mut self.streamed);
        match text.strip_prefix(streamed.as_str()) {
            Some(rest) => Some(rest),
            // Not a repeat: a segment of its own.
            None => Some(text),
        }
        .filter(|t| !t.is_empty())
    }
}

impl Adapter for CursorCli {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(line) = parse::<Line<'_>>(&p, n) else {
            return;
        };
        if line.kind != "assistant" {
            self.echoed.clear();
        }
        match line.kind.as_ref() {
            "system" => {
                // Other subtypes (`task_notification` …) are known, with nothing to show.
                if line.subtype.as_deref() == Some("init") {
                    // Each run of an appended log starts with its own `init`.
                    n.apply(Event::SessionStart(SessionInfo {
                        conversation_id: line.session_id,
                        model: line.model,
                        cwd: line.cwd,
                        ..SessionInfo::default()
                    }));
                }
            }
            "user" => {
                self.streamed.clear();
                n.apply(Event::UserPrompt {
                    text: Cow::Owned(line.text().into_owned()),
                    attachments: Vec::new(),
                });
            }
            "assistant" => {
                self.wrapper |= line.message.is_none() && line.text.is_some();
                let text = line.text();
                if line.is_delta() {
                    self.echoed.clear();
                    self.streamed.push_str(&text);
                    n.apply(Event::Text(text));
                } else if let Some(new) = self.consolidated(&text) {
                    n.apply(Event::Text(Cow::Borrowed(new)));
                }
            }
            "thinking" => {
                let at = line.timestamp_ms.and_then(|s| s.0);
                match line.subtype.as_deref() {
                    Some("completed") => {
                        let since = self.thinking_since.take();
                        if let (Some(since), Some(at)) = (since, at) {
                            n.apply(Event::ThinkingDuration(at.saturating_sub(since)));
                        }
                        n.apply(Event::ThinkingEnd {
                            signature: None,
                            redacted: false,
                        })
                    }
                    _ => {
                        self.thinking_since = self.thinking_since.or(at);
                        n.apply(Event::Thinking(line.text.unwrap_or_default()))
                    }
                }
            }
            "tool_call" => tool_call(line, n),
            "tool-call-started" => {
                self.wrapper = true;
                cursor_wrapper::started(line, n);
            }
            "tool-call-completed" => {
                self.wrapper = true;
                cursor_wrapper::completed(line, n);
            }
            "interaction_query" => interaction_query(&line, &mut self.plan_request, n),
            "result" => {
                self.streamed.clear();
                result(line, n);
            }
            // Transport events: nothing to show.
            "connection" | "retry" => {}
            _ => n.apply(Event::Unknown),
        }
    }

    fn refined(&self) -> Option<Format> {
        self.wrapper.then_some(Format::CursorWrapper)
    }
}

/// `tool_call` `started`/`completed`: `{<key>: {args, result}}` or
/// `{function: {name, arguments}}`.
fn tool_call(mut line: Line<'_>, n: &mut dyn Sink) {
    let Some((name, args, result)) = line.tool_call.take().and_then(call_parts) else {
        return n.apply(Event::Unknown);
    };
    let call_id = line.call_id.clone().unwrap_or_default();
    if line.subtype.as_deref() == Some("completed") {
        end_call(call_id, name, args, result, line.duration_ms, None, n);
    } else {
        n.apply(Event::tool_start(call_id, name, args));
    }
}

/// The name, arguments and result of a tool payload, `{<key>: {args, result}}` or
/// `{function: {name, arguments}}`.
fn call_parts(payload: Value) -> Option<(String, Value, Option<Value>)> {
    let Value::Object(map) = payload else {
        return None;
    };
    let (key, body) = map.into_iter().next()?;
    Some(match (key.as_str(), body) {
        ("function", Value::Object(mut f)) => {
            let name = f
                .remove("name")
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or(key);
            let args = f.remove("arguments").unwrap_or(Value::Null);
            (name, args, f.remove("result"))
        }
        (_, Value::Object(mut body)) => {
            let args = body.remove("args").unwrap_or(Value::Null);
            (key, args, body.remove("result"))
        }
        (_, other) => (key, other, None),
    })
}

/// A call's end, made by the main agent or, `within` a sub-agent's run, by that
/// agent. A `taskToolCall`'s result carries its sub-agent's run (`conversationSteps`),
/// which becomes the run shown inside the call.
fn end_call(
    call_id: String,
    name: String,
    args: Value,
    result: Option<Value>,
    duration_ms: Option<u64>,
    within: Option<&str>,
    n: &mut dyn Sink,
) {
    let mut outcome = outcome(result.unwrap_or(Value::Null));
    let steps = match &mut outcome.data {
        Value::Object(data) => data.remove("conversationSteps"),
        _ => None,
    };
    let duration_ms = duration_ms.or_else(|| millis(outcome.data.get("durationMs")));
    let failed = outcome.status != CallStatus::Success;
    n.apply(Event::ToolEnd {
        call_id: call_id.clone(),
        name: Some(name),
        // A `completed` line may carry only the result (a refused call's does): the
        // arguments its `started` line gave stay.
        args: Some(args).filter(|a| !a.is_null()),
        outcome,
        duration_ms,
    });
    if let Some(Value::Array(steps)) = steps {
        subagent_run(call_id, steps, failed, within, n);
    }
}

/// A sub-agent's run as `taskToolCall`'s result gives it, whole, once it has ended:
/// `conversationSteps` of assistant messages, thinking, the agent's tool calls (each
/// `{toolCall: {<key>: {args, result}}}`, as in the main stream) and the user's
/// message (its prompt, shown with the call); a step of another kind counts as not
/// understood. The run is shown inside the call, as Claude Code's sub-agents are, and
/// ends with the call: the stream says no more of it, even of one left in the
/// background (`isBackground`). Afterwards the agent the call was made `within` goes on.
fn subagent_run(
    parent: String,
    steps: Vec<Value>,
    failed: bool,
    within: Option<&str>,
    n: &mut dyn Sink,
) {
    n.apply(Event::Agent {
        parent: Some(parent.clone()),
    });
    let mut prose = false;
    for (i, mut step) in steps.into_iter().enumerate() {
        let said = |key: &str| {
            step.pointer(&format!("/{key}/text"))
                .and_then(Value::as_str)
        };
        if let Some(text) = said("assistantMessage") {
            if prose && !text.is_empty() {
                n.apply(Event::Text(Cow::Borrowed("\n\n")));
            }
            prose |= !text.is_empty();
            n.apply(Event::Text(Cow::Owned(text.to_owned())));
        } else if let Some(text) = said("thinkingMessage") {
            prose = false;
            n.apply(Event::Thinking(Cow::Owned(text.to_owned())));
            n.apply(Event::ThinkingEnd {
                signature: None,
                redacted: false,
            });
        } else if step.get("userMessage").is_some() {
            // The prompt, which the call's arguments give.
        } else if let Some((name, args, result)) = step
            .get_mut("toolCall")
            .map(Value::take)
            .and_then(call_parts)
        {
            prose = false;
            let call_id = match args.get("toolCallId").and_then(Value::as_str) {
                Some(id) if !id.is_empty() => id.to_owned(),
                _ => format!("{parent}#{i}"),
            };
            n.apply(Event::tool_start(
                call_id.clone(),
                name.clone(),
                args.clone(),
            ));
            if result.is_some() {
                end_call(call_id, name, args, result, None, Some(&parent), n);
            }
        } else {
            n.apply(Event::Unknown);
        }
    }
    n.apply(Event::Agent {
        parent: within.map(str::to_owned),
    });
    n.apply(Event::AgentEnd { parent, failed });
}

/// Milliseconds as a number or, as Cursor writes 64-bit integers, a string.
fn millis(value: Option<&Value>) -> Option<u64> {
    match value? {
        Value::String(s) => s.parse().ok(),
        v => v.as_u64(),
    }
}

/// `interaction_query`: an approval request and, in a line of its own, the user's
/// answer. A plan request carries the plan, shown as a `plan` document; the answer
/// (`success`, or `rejected` with a `reason`) is that plan's approval.
fn interaction_query(line: &Line<'_>, pending: &mut Option<String>, n: &mut dyn Sink) {
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Query {
        #[serde(default)]
        create_plan_request_query: Option<PlanQuery>,
    }
    #[derive(Deserialize)]
    struct PlanQuery {
        #[serde(default)]
        args: Value,
    }
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Answer {
        #[serde(default)]
        create_plan_request_response: Option<PlanAnswer>,
    }
    #[derive(Deserialize)]
    struct PlanAnswer {
        #[serde(default)]
        result: Value,
    }
    if let Some(answer) = line
        .response
        .and_then(|r| docstream_model::read_json::from_str::<Answer>(r.get()).ok())
        .and_then(|a| a.create_plan_request_response)
    {
        if let Some(call_id) = pending.take() {
            n.apply(Event::tool_end(call_id, plan_answer(answer.result)));
        }
        return;
    }
    let Some(query) = line
        .query
        .and_then(|q| docstream_model::read_json::from_str::<Query>(q.get()).ok())
    else {
        return;
    };
    if let Some(plan) = query.create_plan_request_query {
        let call_id = plan
            .args
            .get("toolCallId")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        *pending = Some(call_id.clone());
        n.apply(Event::tool_start(
            call_id,
            "createPlanRequest".to_owned(),
            plan.args,
        ));
    }
}

/// The user's answer to a plan request: `{"success": {}}` or `{"rejected": {"reason"}}`.
fn plan_answer(result: Value) -> ToolOutcome {
    match result {
        Value::Object(mut m) if m.contains_key("rejected") => ToolOutcome {
            status: CallStatus::Rejected,
            data: m.remove("rejected").unwrap_or_default(),
        },
        Value::Object(mut m) if m.contains_key("error") => ToolOutcome {
            status: CallStatus::Error,
            data: m.remove("error").unwrap_or_default(),
        },
        other => ToolOutcome {
            status: CallStatus::Success,
            data: other,
        },
    }
}

/// The final `result`: timings, usage, the text, and the end of the response.
fn result(line: Line<'_>, n: &mut dyn Sink) {
    let failed =
        line.is_error == Some(true) || line.subtype.as_deref().is_some_and(|s| s != "success");
    let text = line
        .result
        .and_then(|r| docstream_model::read_json::from_str::<String>(r.get()).ok());
    let answer = if failed {
        Err(line
            .error
            .as_ref()
            .and_then(crate::normalize::error_message)
            .or(text)
            .unwrap_or_else(|| "The agent reported an error.".to_owned()))
    } else {
        Ok(text.map(Cow::Owned))
    };
    RunResult {
        session_id: line.session_id,
        duration_ms: line.duration_ms,
        duration_api_ms: line.duration_api_ms,
        request_id: line.request_id,
        usage: line.usage.map(Into::into),
        cost_usd: None,
        answer,
    }
    .apply(n);
}
