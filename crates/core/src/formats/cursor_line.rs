//! The Cursor CLI's line as it comes on the wire (seed 001 and what real runs add), read
//! flat, and what a tool result's payload says of its outcome: shared by the CLI stream
//! ([`super::cursor_cli`]) and the Python wrapper's tool events ([`super::cursor_wrapper`]).

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;

use super::usage::WireUsage;
use crate::model::CallStatus;
use crate::normalize::ToolOutcome;

/// One line, flat: every field any event type uses, borrowed where possible.
#[derive(Deserialize, Default)]
pub(super) struct Line<'a> {
    #[serde(rename = "type", borrow, default)]
    pub kind: Cow<'a, str>,
    #[serde(borrow, default)]
    pub subtype: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    pub message: Option<Message<'a>>,
    #[serde(borrow, default)]
    pub text: Option<Cow<'a, str>>,
    #[serde(default)]
    pub timestamp_ms: Option<Stamp>,
    #[serde(default)]
    pub model_call_id: Option<IgnoredAny>,
    #[serde(default)]
    pub session_id: Option<String>,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub cwd: Option<String>,
    #[serde(default)]
    pub call_id: Option<String>,
    /// Parsed straight into a value (not kept raw and parsed again): the tool payload is
    /// most of a transcript's bytes.
    #[serde(default)]
    pub tool_call: Option<Value>,
    #[serde(borrow, default)]
    pub result: Option<&'a RawValue>,
    #[serde(default)]
    pub is_error: Option<bool>,
    #[serde(default)]
    pub duration_ms: Option<u64>,
    #[serde(default)]
    pub duration_api_ms: Option<u64>,
    #[serde(default)]
    pub request_id: Option<String>,
    #[serde(default)]
    pub error: Option<Value>,
    #[serde(default)]
    pub usage: Option<WireUsage>,
    #[serde(default)]
    pub tool_name: Option<String>,
    #[serde(default)]
    pub tool_call_id: Option<String>,
    #[serde(default)]
    pub parameters: Option<Value>,
    #[serde(borrow, default)]
    pub query: Option<&'a RawValue>,
    /// An `interaction_query` response: what the user answered.
    #[serde(borrow, default)]
    pub response: Option<&'a RawValue>,
}

#[derive(Deserialize, Default)]
pub(super) struct Message<'a> {
    #[serde(borrow, default)]
    content: Vec<Part<'a>>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Cow<'a, str>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
}

impl Line<'_> {
    /// The text of an `assistant`/`user` line: the message parts, or the top-level
    /// `text` of the wrapper's deltas.
    pub(super) fn text(&self) -> Cow<'_, str> {
        if let Some(m) = &self.message {
            let mut parts = m
                .content
                .iter()
                .filter(|p| p.kind == "text")
                .filter_map(|p| p.text.as_deref());
            let first = parts.next().unwrap_or("");
            return match parts.next() {
                None => Cow::Borrowed(first),
                Some(second) => {
                    let mut s = String::from(first);
                    s.push_str(second);
                    parts.for_each(|p| s.push_str(p));
                    Cow::Owned(s)
                }
            };
        }
        Cow::Borrowed(self.text.as_deref().unwrap_or(""))
    }

    /// A per-token delta, as opposed to a consolidated line repeating them.
    pub(super) fn is_delta(&self) -> bool {
        self.timestamp_ms.is_some() && self.model_call_id.is_none()
    }
}

/// A `timestamp_ms`: its presence marks a delta; its value, when a whole number of
/// milliseconds, times thinking. Any other value is accepted and not read.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stamp(pub(super) Option<u64>);

impl<'de> Deserialize<'de> for Stamp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Stamp, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Stamp;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a timestamp")
            }
            fn visit_u64<E>(self, v: u64) -> Result<Stamp, E> {
                Ok(Stamp(Some(v)))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Stamp, E> {
                Ok(Stamp(None))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Stamp, E> {
                Ok(Stamp((v.is_finite() && v >= 0.0).then_some(v as u64)))
            }
            fn visit_str<E>(self, _: &str) -> Result<Stamp, E> {
                Ok(Stamp(None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Stamp, E> {
                Ok(Stamp(None))
            }
            fn visit_unit<E>(self) -> Result<Stamp, E> {
                Ok(Stamp(None))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Stamp, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Stamp(None))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Stamp, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Stamp(None))
            }
        }
        d.deserialize_any(Visit)
    }
}

/// A result payload `{success: …}`, `{error: …}`, `{rejected: …}` (the user said no) or
/// `{permissionDenied: {command, workingDirectory, error}}` (a permission rule said no).
pub(super) fn outcome(result: Value) -> ToolOutcome {
    if let Value::Object(map) = &result {
        for (key, status) in [
            ("success", CallStatus::Success),
            ("error", CallStatus::Error),
            ("failure", CallStatus::Error),
            ("rejected", CallStatus::Rejected),
            ("permissionDenied", CallStatus::Denied),
        ] {
            if let Some(data) = map.get(key) {
                return ToolOutcome {
                    status,
                    data: data.clone(),
                };
            }
        }
    }
    ToolOutcome {
        status: CallStatus::Success,
        data: result,
    }
}
