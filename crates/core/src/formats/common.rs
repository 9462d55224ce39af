//! Small pieces the provider adapters share: the `[DONE]` sentinel, payloads that
//! are JSON arrays of events, tool input that arrives as JSON text, and whether a
//! response is still open.

use std::borrow::Cow;
use std::collections::HashSet;

use serde_json::Value;
use serde_json::value::RawValue;

use super::{Location, Payload, parse, preview};
use crate::error::codes;
use crate::normalize::{ErrorInfo, Event, Sink, ToolOutcome};

/// True for the `[DONE]` sentinel that ends OpenAI-style SSE streams (proxies put it
/// after other providers' streams too).
pub(super) fn is_done_sentinel(text: &str) -> bool {
    text.trim() == "[DONE]"
}

/// Calls `each` with every event of a payload: the payload itself, or each element
/// when it is a JSON array of events.
pub(super) fn for_each_event<'a>(
    p: Payload<'a>,
    n: &mut dyn Sink,
    mut each: impl FnMut(Payload<'a>, &mut dyn Sink),
) {
    if !p.text.trim_start().starts_with('[') {
        return each(p, n);
    }
    let Some(items) = parse::<Vec<&RawValue>>(&p, n) else {
        return;
    };
    for item in items {
        each(
            Payload {
                text: item.get(),
                ..p
            },
            n,
        );
    }
}

/// Parses tool input that arrived as JSON text (streamed in pieces, or as an
/// `arguments` string). Blank text is an empty object. Text that is not JSON is kept
/// as a string, and an `error` document says which call and where.
pub(super) fn tool_input(
    json: &str,
    call_id: &str,
    name: &str,
    at: &Location,
    n: &mut dyn Sink,
) -> Value {
    if json.trim().is_empty() {
        return Value::Object(Default::default());
    }
    match docstream_model::read_json::from_str::<Value>(json) {
        Ok(v) => v,
        Err(e) => {
            n.apply(Event::Error(ErrorInfo {
                at: None,
                code: codes::INVALID_EVENT.to_owned(),
                source: "stream".to_owned(),
                message: format!(
                    "The input of tool call {} ({name}) was not valid JSON ({}); it is shown as text.",
                    call_id.trim(),
                    at
                ),
                details: format!("{at}: {e}; the input starts with {}", preview(json)),
            }));
            Value::String(json.to_owned())
        }
    }
}

/// Ends the open response, if any, as completed (saved histories end with the input).
pub(super) fn end_open_response(n: &mut dyn Sink) {
    if n.response_open() {
        n.apply(Event::Done { error: None });
    }
}

/// An `error` document's facts for a provider's error object (`{type, message}`,
/// `{code, message, status}`, or a string).
pub(super) fn provider_error(error: &Value, at: &Location) -> ErrorInfo {
    let kind = ["type", "status", "code"]
        .iter()
        .find_map(|k| error.get(*k))
        .map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        });
    let message = crate::normalize::error_message(error)
        .unwrap_or_else(|| "The provider reported an error.".to_owned());
    ErrorInfo {
        at: None,
        code: codes::AGENT_ERROR.to_owned(),
        source: "provider".to_owned(),
        details: match kind {
            Some(kind) => format!("{at}: {kind}: {message}"),
            None => format!("{at}: {message}"),
        },
        message,
    }
}

/// `1970-01-01T00:00:00Z`-style time for a Unix time in seconds.
pub(super) fn iso8601(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// What a format that repeats whole items has written so far: the prose part being
/// written and the calls whose start was shown.
#[derive(Debug, Default)]
pub(super) struct Written {
    /// The prose part being written.
    pub(super) prose: Prose,
    /// Calls whose start was shown, by call id.
    started: HashSet<String>,
}

impl Written {
    /// True the first time call `id` is asked for: its start is to be shown now.
    pub(super) fn starts(&mut self, id: &str) -> bool {
        !self.started.contains(id) && self.started.insert(id.to_owned())
    }

    /// A call seen again: its end when it has an outcome, else its start the first
    /// time, its new arguments after. The prose before it is done.
    pub(super) fn call(
        &mut self,
        call_id: String,
        name: String,
        args: Value,
        outcome: Option<ToolOutcome>,
        n: &mut dyn Sink,
    ) {
        self.prose.end();
        let first = self.starts(&call_id);
        n.apply(match outcome {
            Some(outcome) => Event::ToolEnd {
                call_id,
                name: Some(name),
                args: Some(args),
                outcome,
                duration_ms: None,
            },
            None if first => Event::tool_start(call_id, name, args),
            None => Event::ToolArgs { call_id, args },
        });
    }
}

/// The prose part being written, by the id its format gives it: text of another part
/// starts a new paragraph.
#[derive(Debug, Default)]
pub(super) struct Prose(Option<String>);

impl Prose {
    /// Writes `text` of part `id`, after a paragraph break when another part's prose
    /// came last.
    pub(super) fn write(&mut self, id: &str, text: &str, n: &mut dyn Sink) {
        if text.is_empty() {
            return;
        }
        match self.0.as_deref() {
            Some(last) if last == id => {}
            last => {
                if last.is_some() {
                    n.apply(Event::Text(Cow::Borrowed("\n\n")));
                }
                self.0 = Some(id.to_owned());
            }
        }
        n.apply(Event::Text(Cow::Owned(text.to_owned())));
    }

    /// Something other than prose came: the next prose is a new paragraph of its own.
    pub(super) fn end(&mut self) {
        self.0 = None;
    }
}

/// A run's `result` line (Claude Code's stream-json, and Cursor's that copies it): the
/// run's facts, then its answer or its error, which end the response.
pub(super) struct RunResult<'t> {
    /// The session the run belongs to.
    pub(super) session_id: Option<String>,
    /// Wall time of the run.
    pub(super) duration_ms: Option<u64>,
    /// API time of the run.
    pub(super) duration_api_ms: Option<u64>,
    /// The request id, where given.
    pub(super) request_id: Option<String>,
    /// Tokens of the whole run.
    pub(super) usage: Option<crate::model::Usage>,
    /// What the run cost in US dollars, where stated.
    pub(super) cost_usd: Option<f64>,
    /// The final answer, or the message of a failed run.
    pub(super) answer: Result<Option<Cow<'t, str>>, String>,
}

impl RunResult<'_> {
    /// Tells the sink all the line says and ends the response.
    pub(super) fn apply(self, n: &mut dyn Sink) {
        n.apply(Event::Session(crate::normalize::SessionInfo {
            conversation_id: self.session_id,
            ..Default::default()
        }));
        n.apply(Event::ResponseMeta {
            duration_ms: self.duration_ms,
            duration_api_ms: self.duration_api_ms,
            request_id: self.request_id,
            stop_reason: None,
        });
        if let Some(u) = self.usage {
            n.apply(Event::Usage(u));
        }
        if let Some(usd) = self.cost_usd {
            n.apply(Event::Cost(usd));
        }
        let error = match self.answer {
            Ok(text) => {
                if let Some(text) = text {
                    n.apply(Event::FinalText(text));
                }
                None
            }
            Err(message) => Some(ErrorInfo::agent(message)),
        };
        n.apply(Event::Done { error });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_times_format_as_iso_8601() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_764_664_568), "2025-12-02T08:36:08Z");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00Z");
    }
}
