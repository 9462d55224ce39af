//! The Python wrapper's tool events (seed 004): `tool-call-started` with `tool_name`,
//! `tool_call_id` and `parameters`; `tool-call-completed` with `result` and
//! `duration_ms`. The rest of that variant is the Cursor CLI stream itself.

use serde_json::Value;

use super::cursor_line::{Line, outcome};
use crate::model::CallStatus;
use crate::normalize::{Event, Sink, ToolOutcome};

/// `tool-call-started`.
pub(super) fn started(line: Line<'_>, n: &mut dyn Sink) {
    n.apply(Event::tool_start(
        line.tool_call_id.unwrap_or_default(),
        line.tool_name.unwrap_or_default(),
        line.parameters.unwrap_or(Value::Object(Default::default())),
    ));
}

/// `tool-call-completed`: `result` is `{success: bool, output, exit_code}`, or the
/// CLI's own `{success: {…}}` / `{error: …}` shape.
pub(super) fn completed(line: Line<'_>, n: &mut dyn Sink) {
    let result = line
        .result
        .and_then(|r| docstream_model::read_json::from_str::<Value>(r.get()).ok())
        .unwrap_or(Value::Null);
    let outcome = match result.get("success") {
        Some(Value::Bool(ok)) => ToolOutcome {
            status: if *ok {
                CallStatus::Success
            } else {
                CallStatus::Error
            },
            data: result,
        },
        _ => outcome(result),
    };
    n.apply(Event::ToolEnd {
        call_id: line.tool_call_id.unwrap_or_default(),
        name: line.tool_name,
        args: line.parameters,
        outcome,
        duration_ms: line.duration_ms,
    });
}
