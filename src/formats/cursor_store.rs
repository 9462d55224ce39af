//! Cursor's saved conversation (seed 003): one whole JSON value.
//!
//! Three shapes are read:
//! - a composer: `fullConversationHeadersOnly` (bubble ids and types, in order) with
//!   `conversationMap` (the bubbles by id), plus `modelConfig`, `unified_mode` …;
//! - the storage wrapper `{composerData: {<composerId>: composer, …}}` (or one composer);
//! - the grouped request form: `conversation: [{kind: HUMAN|AI, messages: [bubble, …]}]`,
//!   with `conversationId`, `model`, `unified_mode` and `cachedConversationSummary` beside
//!   it (`firstUserMessages`/`conversationMessages` repeat the array and are not read).
//!
//! A bubble is `HUMAN` (`type` `"HUMAN"` or `1`) — a user prompt whose `selections`,
//! `images`, `links`, `docs` and `commits` become attachments — or `AI` (`"AI"` or `2`):
//! its `thinking`, `text`, tool activity (`toolFormerData`: `name`, `status`, and
//! `rawArgs`, `params`, `result` as JSON strings) and `errorDetails`, in that order.
//! Consecutive AI bubbles are one response. A `cachedConversationSummary` is attached to
//! the next user prompt as a `summary` attachment (the context that prompt was sent
//! with; when no prompt follows, to an empty one at the end). The composer's unsent
//! draft (`text`, `richText`) and its `name` are not shown.
//!
//! Bad parts are reported and the rest is kept: a bubble named by a header but missing
//! from the map, a bubble of the wrong shape, or a tool field that is not valid JSON
//! each give an `error` document naming the bubble.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{Adapter, Payload, parse, preview};
use crate::error::codes;
use crate::model::{Attachment, CallStatus};
use crate::normalize::{ErrorInfo, Event, Normalizer, SessionInfo, ToolOutcome};

/// `errorCode` of the `error` document for a bubble the headers name and the map lacks.
const MISSING_BUBBLE: &str = "MISSING_BUBBLE";

/// True when a JSON object has the keys of this format; used by format detection.
pub(crate) fn sniff(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Sniff {
        #[serde(default, rename = "fullConversationHeadersOnly")]
        headers: Option<serde::de::IgnoredAny>,
        #[serde(default, rename = "conversationMap")]
        map: Option<serde::de::IgnoredAny>,
        #[serde(default, rename = "composerData")]
        composers: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        conversation: Option<Vec<GroupSniff>>,
        #[serde(default, rename = "cachedConversationSummary")]
        summary: Option<serde::de::IgnoredAny>,
    }
    /// A group of the request form: an object with a `kind`.
    #[derive(Deserialize)]
    struct GroupSniff {
        #[allow(dead_code)]
        kind: serde::de::IgnoredAny,
    }
    // An array would fill the fields in order: only an object is this format.
    if !text.trim_start().starts_with('{') {
        return false;
    }
    serde_json::from_str::<Sniff>(text).is_ok_and(|s| {
        s.headers.is_some()
            || s.map.is_some()
            || s.composers.is_some()
            || s.conversation
                .is_some_and(|g| !g.is_empty() || s.summary.is_some())
    })
}

/// A composer, a request, or the storage wrapper: every top-level field any of them has.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Composer<'a> {
    #[serde(borrow, default)]
    composer_data: Option<&'a RawValue>,
    #[serde(default)]
    composer_id: Option<String>,
    #[serde(default)]
    conversation_id: Option<String>,
    #[serde(borrow, default)]
    full_conversation_headers_only: Option<Vec<&'a RawValue>>,
    #[serde(borrow, default)]
    conversation_map: Option<Ordered<'a>>,
    #[serde(borrow, default)]
    conversation: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    model_config: Option<ModelConfig>,
    /// The request form's model.
    #[serde(default)]
    model: Option<String>,
    #[serde(default, rename = "unified_mode", alias = "unifiedMode")]
    unified_mode: Option<Value>,
    #[serde(default)]
    is_agentic: Option<bool>,
    #[serde(default)]
    is_chat: Option<bool>,
    #[serde(default)]
    cached_conversation_summary: Option<Value>,
}

impl Composer<'_> {
    fn has_conversation(&self) -> bool {
        self.full_conversation_headers_only.is_some()
            || self.conversation_map.is_some()
            || self.conversation.is_some()
    }
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct ModelConfig {
    #[serde(default)]
    model_name: Option<String>,
}

/// A header of `fullConversationHeadersOnly`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Header {
    #[serde(default)]
    bubble_id: Option<String>,
    #[serde(rename = "type", default)]
    kind: Option<Value>,
}

/// A group of the request form.
#[derive(Deserialize)]
struct Group<'a> {
    #[serde(default)]
    kind: Option<Value>,
    #[serde(borrow, default)]
    messages: Vec<&'a RawValue>,
}

/// One message (bubble).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Bubble<'a> {
    #[serde(default)]
    bubble_id: Option<String>,
    #[serde(rename = "type", default)]
    kind: Option<Value>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    thinking: Option<Value>,
    #[serde(default)]
    selections: Option<Value>,
    #[serde(default)]
    images: Option<Value>,
    #[serde(default)]
    links: Option<Value>,
    #[serde(default)]
    docs: Option<Value>,
    #[serde(default)]
    commits: Option<Value>,
    #[serde(default)]
    error_details: Option<Value>,
    #[serde(default)]
    cached_conversation_summary: Option<Value>,
    #[serde(default)]
    model_name: Option<String>,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default)]
    timestamp: Option<Value>,
    #[serde(default)]
    created_at: Option<Value>,
    #[serde(default)]
    tool_former_data: Option<ToolFormer>,
}

/// A bubble's tool activity.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolFormer {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    tool_call_id: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    raw_args: Option<Value>,
    #[serde(default)]
    params: Option<Value>,
    #[serde(default)]
    result: Option<Value>,
    #[serde(default)]
    user_decision: Option<String>,
}

/// A JSON object's entries in their order, values left raw.
#[derive(Default)]
struct Ordered<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Ordered<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = Ordered<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut m: M) -> Result<Ordered<'a>, M::Error> {
                let mut entries = Vec::new();
                while let Some((k, v)) = m.next_entry::<String, &'de RawValue>()? {
                    entries.push((k, v));
                }
                Ok(Ordered(entries))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

/// Who wrote a bubble.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Human,
    Ai,
}

/// `"HUMAN"`/`"AI"` (any case, with or without `MESSAGE_TYPE_`), `1`/`2`.
fn kind_of(v: Option<&Value>) -> Option<Kind> {
    match v? {
        Value::Number(n) => match n.as_u64()? {
            1 => Some(Kind::Human),
            2 => Some(Kind::Ai),
            _ => None,
        },
        Value::String(s) => {
            let s = s.to_ascii_uppercase();
            match s.strip_prefix("MESSAGE_TYPE_").unwrap_or(&s) {
                "HUMAN" | "USER" => Some(Kind::Human),
                "AI" | "ASSISTANT" => Some(Kind::Ai),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `unified_mode` as a mode name: `1`/`CHAT` → `ask`, `2`/`AGENT` → `agent`, `3` edit,
/// `4` custom, `5` plan, `6` debug (Cursor's `UnifiedMode` enum; seed 003 gives
/// `1 // CHAT`); strings may carry the `UNIFIED_MODE_` prefix.
fn mode_of(v: &Value) -> Option<String> {
    const NAMES: [&str; 6] = ["chat", "agent", "edit", "custom", "plan", "debug"];
    let name = match v {
        Value::Number(n) => NAMES.get(n.as_u64()?.checked_sub(1)? as usize)?.to_string(),
        Value::String(s) => {
            let s = s.to_ascii_lowercase();
            s.strip_prefix("unified_mode_").unwrap_or(&s).to_owned()
        }
        _ => return None,
    };
    match name.as_str() {
        "" | "unspecified" => None,
        "chat" => Some("ask".to_owned()),
        _ => Some(name),
    }
}

/// A time as ISO 8601: strings are kept, numbers are Unix time in milliseconds (or in
/// seconds when too small to be milliseconds of this century).
fn time_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => {
            let t = n.as_f64()?;
            if !(0.0..=1e15).contains(&t) {
                return None;
            }
            let ms = if t < 1e11 { t * 1000.0 } else { t } as u64;
            Some(iso_8601(ms))
        }
        _ => None,
    }
}

/// Milliseconds since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` (proleptic Gregorian calendar).
fn iso_8601(ms: u64) -> String {
    let (secs, millis) = (ms / 1000, ms % 1000);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days to civil date (H. Hinnant's algorithm), for days since 1970-01-01 ≥ 0.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The text of a value that is a string, or an object with one of `keys` as a string.
fn text_in(v: &Value, keys: &[&str]) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => keys
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str))
            .map(str::to_owned),
        _ => None,
    }
}

fn pointer_str(v: &Value, pointers: &[&str]) -> Option<String> {
    pointers
        .iter()
        .find_map(|p| v.pointer(p).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

fn pointer_u64(v: &Value, pointers: &[&str]) -> Option<u64> {
    pointers
        .iter()
        .find_map(|p| v.pointer(p).and_then(Value::as_u64))
}

/// The attachments of one list field (`selections`, `images` …).
fn attachments(list: Option<&Value>, kind: &str, out: &mut Vec<Attachment>) {
    let items = match list {
        Some(Value::Array(items)) => items.as_slice(),
        Some(other @ (Value::Object(_) | Value::String(_))) => std::slice::from_ref(other),
        _ => return,
    };
    for item in items {
        let a = match item {
            Value::String(s) if kind == "selection" => Attachment {
                kind: kind.to_owned(),
                text: Some(s.clone()),
                ..Attachment::default()
            },
            Value::String(s) => Attachment {
                kind: kind.to_owned(),
                path: Some(s.clone()),
                ..Attachment::default()
            },
            Value::Object(_) => Attachment {
                kind: kind.to_owned(),
                path: pointer_str(
                    item,
                    &[
                        "/uri/fsPath",
                        "/uri/path",
                        "/uri/external",
                        "/relativeWorkspacePath",
                        "/path",
                        "/filePath",
                        "/file",
                        "/url",
                        "/name",
                        "/sha",
                        "/commitHash",
                        "/docId",
                    ],
                ),
                start_line: pointer_u64(
                    item,
                    &[
                        "/range/selectionStartLineNumber",
                        "/range/startLineNumber",
                        "/range/startLine",
                        "/startLine",
                    ],
                ),
                end_line: pointer_u64(
                    item,
                    &[
                        "/range/positionLineNumber",
                        "/range/endLineNumber",
                        "/range/endLine",
                        "/endLine",
                    ],
                ),
                text: pointer_str(item, &["/text", "/rawText", "/content", "/message"]),
            },
            _ => continue,
        };
        out.push(a);
    }
}

/// Reads Cursor's saved conversations.
#[derive(Default)]
pub(crate) struct CursorStore;

impl Adapter for CursorStore {
    fn payload(&mut self, p: Payload<'_>, n: &mut Normalizer) {
        let Some(top) = parse::<Composer<'_>>(&p, n) else {
            return;
        };
        let mut run = Run {
            n,
            open: false,
            last_text: false,
            summary: None,
        };
        run.top(top);
    }
}

/// Reading one payload.
struct Run<'n> {
    n: &'n mut Normalizer,
    /// A response is open (something of an AI bubble was applied since the last
    /// prompt or end).
    open: bool,
    /// The last thing applied was an AI bubble's text: the next text is a new paragraph.
    last_text: bool,
    /// A conversation summary waiting for the next prompt.
    summary: Option<String>,
}

impl Run<'_> {
    fn top(&mut self, top: Composer<'_>) {
        if top.has_conversation() || top.composer_data.is_none() {
            return self.composer(top);
        }
        let raw = top.composer_data.expect("checked above");
        // One composer, or composers by id.
        match serde_json::from_str::<Composer<'_>>(raw.get()) {
            Ok(c) if c.has_conversation() => self.composer(c),
            _ => match serde_json::from_str::<Ordered<'_>>(raw.get()) {
                Ok(all) => {
                    for (id, raw) in all.0 {
                        match serde_json::from_str::<Composer<'_>>(raw.get()) {
                            Ok(c) => self.composer(c),
                            Err(e) => self.bad_shape(&format!("composer {id}"), &e, raw.get()),
                        }
                    }
                }
                Err(e) => self.bad_shape("composerData", &e, raw.get()),
            },
        }
    }

    fn composer(&mut self, c: Composer<'_>) {
        let mode =
            c.unified_mode
                .as_ref()
                .and_then(mode_of)
                .or_else(|| match (c.is_agentic, c.is_chat) {
                    (Some(true), _) => Some("agent".to_owned()),
                    (_, Some(true)) => Some("ask".to_owned()),
                    _ => None,
                });
        let info = SessionInfo {
            conversation_id: c.conversation_id.or(c.composer_id),
            model: c.model_config.and_then(|m| m.model_name).or(c.model),
            mode,
            ..SessionInfo::default()
        };
        if info != SessionInfo::default() {
            self.n.apply(Event::Session(info));
        }
        if let Some(s) = c
            .cached_conversation_summary
            .as_ref()
            .and_then(summary_text)
        {
            self.summary = Some(s);
        }
        if let Some(headers) = c.full_conversation_headers_only {
            let map = c.conversation_map.unwrap_or_default();
            let index: HashMap<&str, &RawValue> =
                map.0.iter().map(|(k, v)| (k.as_str(), *v)).collect();
            for raw in headers {
                let header = match serde_json::from_str::<Header>(raw.get()) {
                    Ok(h) => h,
                    Err(e) => {
                        self.bad_shape("a header of fullConversationHeadersOnly", &e, raw.get());
                        continue;
                    }
                };
                let Some(id) = header.bubble_id.filter(|id| !id.is_empty()) else {
                    self.n.apply(Event::Error(ErrorInfo {
                        code: codes::INVALID_EVENT.to_owned(),
                        source: "fullConversationHeadersOnly".to_owned(),
                        message: "A header of the conversation names no bubble.".to_owned(),
                        details: format!("a header without a bubbleId: {}", preview(raw.get())),
                    }));
                    self.open = true;
                    self.last_text = false;
                    continue;
                };
                match index.get(id.as_str()) {
                    Some(raw) if raw.get().trim() != "null" => {
                        self.bubble(raw, &id, kind_of(header.kind.as_ref()))
                    }
                    found => self.missing(&id, found.is_some()),
                }
            }
        } else if let Some(map) = c.conversation_map {
            for (id, raw) in map.0 {
                self.bubble(raw, &id, None);
            }
        } else if let Some(groups) = c.conversation {
            for raw in groups {
                match serde_json::from_str::<Group<'_>>(raw.get()) {
                    Ok(g) => {
                        let kind = kind_of(g.kind.as_ref());
                        for m in g.messages {
                            self.bubble(m, "", kind);
                        }
                    }
                    Err(e) => self.bad_shape("a group of conversation", &e, raw.get()),
                }
            }
        }
        if self.open {
            self.n.apply(Event::Done { error: None });
            self.open = false;
        }
        if let Some(summary) = self.summary.take() {
            // No prompt came after it: it is the context of the next one, not yet written.
            self.n.apply(Event::UserPrompt {
                text: Cow::Borrowed(""),
                attachments: vec![summary_attachment(summary)],
            });
        }
        self.last_text = false;
    }

    /// One bubble; `id` is the map key (empty in the request form), `kind` the type the
    /// header or group gives.
    fn bubble(&mut self, raw: &RawValue, id: &str, kind: Option<Kind>) {
        let b = match serde_json::from_str::<Bubble<'_>>(raw.get()) {
            Ok(b) => b,
            Err(e) => {
                let name = if id.is_empty() {
                    "a bubble".to_owned()
                } else {
                    format!("bubble {id}")
                };
                return self.bad_shape(&name, &e, raw.get());
            }
        };
        let id = b
            .bubble_id
            .clone()
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| id.to_owned());
        let summary = b
            .cached_conversation_summary
            .as_ref()
            .and_then(summary_text);
        match kind_of(b.kind.as_ref()).or(kind) {
            Some(Kind::Human) => {
                let mut att = Vec::new();
                if let Some(s) = self.summary.take().or(summary) {
                    att.push(summary_attachment(s));
                }
                attachments(b.selections.as_ref(), "selection", &mut att);
                attachments(b.images.as_ref(), "image", &mut att);
                attachments(b.links.as_ref(), "link", &mut att);
                attachments(b.docs.as_ref(), "document", &mut att);
                attachments(b.commits.as_ref(), "commit", &mut att);
                self.n.apply(Event::UserPrompt {
                    text: Cow::Owned(b.text.unwrap_or_default().into_owned()),
                    attachments: att,
                });
                self.open = false;
                self.last_text = false;
                if let Some(e) = &b.error_details {
                    self.error_details(e, &id);
                }
            }
            Some(Kind::Ai) => {
                if summary.is_some() {
                    self.summary = summary;
                }
                self.ai(b, &id);
            }
            None => self.n.apply(Event::Unknown),
        }
    }

    fn ai(&mut self, b: Bubble<'_>, id: &str) {
        let info = SessionInfo {
            model: b.model_name.clone().filter(|m| !m.is_empty()),
            created: b
                .created_at
                .as_ref()
                .or(b.timestamp.as_ref())
                .and_then(time_of),
            ..SessionInfo::default()
        };
        if info != SessionInfo::default() {
            self.n.apply(Event::Session(info));
        }
        if let Some(t) = &b.thinking {
            let text = text_in(t, &["text", "thinking", "content"]).unwrap_or_default();
            let signature = match t {
                Value::Object(o) => o
                    .get("signature")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
                _ => None,
            };
            if !text.is_empty() || signature.is_some() {
                self.n.apply(Event::Thinking(Cow::Owned(text)));
                self.n.apply(Event::ThinkingEnd {
                    signature,
                    redacted: false,
                });
                self.open = true;
                self.last_text = false;
            }
        }
        if let Some(text) = b.text.filter(|t| !t.trim().is_empty()) {
            if self.last_text {
                self.n.apply(Event::Text(Cow::Borrowed("\n\n")));
            }
            self.n.apply(Event::Text(text));
            self.open = true;
            self.last_text = true;
        }
        if let Some(tool) = b.tool_former_data {
            self.tool(tool, id);
        }
        if let Some(request_id) = b.request_id.filter(|r| !r.is_empty()) {
            self.n.apply(Event::ResponseMeta {
                duration_ms: None,
                duration_api_ms: None,
                request_id: Some(request_id),
                stop_reason: None,
            });
            self.open = true;
        }
        if let Some(e) = &b.error_details {
            self.error_details(e, id);
        }
    }

    /// `toolFormerData`: a tool call, ended when its status says so.
    fn tool(&mut self, t: ToolFormer, bubble: &str) {
        let raw_args = self.json_field(t.raw_args, "rawArgs", bubble, true);
        let params = self.json_field(t.params, "params", bubble, true);
        let result = self.json_field(t.result, "result", bubble, false);
        let name = t
            .name
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "tool".to_owned());
        let call_id = t
            .tool_call_id
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| bubble.to_owned());
        let args = merge_args(raw_args, params);
        self.n.apply(Event::ToolStart {
            call_id: call_id.clone(),
            name,
            args,
            doc_id: None,
        });
        self.open = true;
        self.last_text = false;
        let rejected = t.user_decision.as_deref() == Some("rejected");
        let status = match t.status.as_deref().map(str::to_ascii_lowercase).as_deref() {
            _ if rejected => Some(CallStatus::Rejected),
            Some("completed" | "complete" | "success" | "succeeded" | "done") => {
                Some(CallStatus::Success)
            }
            Some("error" | "failed" | "failure") => Some(CallStatus::Error),
            Some("cancelled" | "canceled" | "rejected" | "aborted") => Some(CallStatus::Rejected),
            // Loading, pending …: the call had not ended when the conversation was saved.
            Some(_) => None,
            None if result.is_some() => Some(CallStatus::Success),
            None => None,
        };
        if let Some(status) = status {
            self.n.apply(Event::ToolEnd {
                call_id,
                name: None,
                args: None,
                outcome: ToolOutcome {
                    status,
                    data: result.unwrap_or(Value::Null),
                },
                duration_ms: None,
            });
        }
    }

    /// A tool field stored as a JSON string, parsed. A field that is not valid JSON gives
    /// an `error` document naming the bubble; for `result` (`strict` false), plain text
    /// that does not look like JSON is the tool's output and is kept as a string.
    fn json_field(
        &mut self,
        v: Option<Value>,
        field: &str,
        bubble: &str,
        strict: bool,
    ) -> Option<Value> {
        match v? {
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => match serde_json::from_str::<Value>(&s) {
                Ok(v) => Some(v),
                Err(_) if !strict && !s.trim_start().starts_with(['{', '[']) => {
                    Some(Value::String(s))
                }
                Err(e) => {
                    self.n.apply(Event::Error(ErrorInfo {
                        code: codes::MALFORMED_JSON.to_owned(),
                        source: format!("bubble {bubble}"),
                        message: format!(
                            "The tool call's {field} in bubble {bubble} was not valid JSON."
                        ),
                        details: format!(
                            "bubble {bubble}: toolFormerData.{field}: {e}; starts with {}",
                            preview(&s)
                        ),
                    }));
                    self.open = true;
                    self.last_text = false;
                    // Kept as the text it was, so nothing is lost.
                    Some(Value::String(s))
                }
            },
            Value::Null => None,
            other => Some(other),
        }
    }

    /// `errorDetails`: the response ends with an error.
    fn error_details(&mut self, e: &Value, bubble: &str) {
        let code = match e {
            Value::Object(o) => o.get("error").and_then(Value::as_str),
            _ => None,
        }
        .filter(|c| !c.is_empty())
        .unwrap_or(codes::AGENT_ERROR);
        let message = text_in(e, &["message", "error"])
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "Cursor reported an error.".to_owned());
        let details = match e {
            Value::Object(o) => o.get("stackTrace").and_then(Value::as_str),
            _ => None,
        }
        .filter(|s| !s.is_empty())
        .map_or_else(
            || format!("bubble {bubble}"),
            |t| format!("bubble {bubble}: {t}"),
        );
        self.n.apply(Event::Done {
            error: Some(ErrorInfo {
                code: code.to_owned(),
                source: "cursor".to_owned(),
                message,
                details,
            }),
        });
        self.open = false;
        self.last_text = false;
    }

    fn missing(&mut self, id: &str, null: bool) {
        let has = if null {
            "holds null for it"
        } else {
            "has no entry for it"
        };
        self.n.apply(Event::Error(ErrorInfo {
            code: MISSING_BUBBLE.to_owned(),
            source: format!("bubble {id}"),
            message: format!("Bubble {id} is listed in the conversation but was not saved."),
            details: format!(
                "fullConversationHeadersOnly names bubble {id:?}; conversationMap {has}."
            ),
        }));
        self.open = true;
        self.last_text = false;
    }

    fn bad_shape(&mut self, what: &str, e: &serde_json::Error, text: &str) {
        self.n.apply(Event::Error(ErrorInfo {
            code: codes::INVALID_EVENT.to_owned(),
            source: what.to_owned(),
            message: format!("{} did not have the expected shape.", capitalise(what)),
            details: format!("{what}: {e}; starts with {}", preview(text)),
        }));
        self.open = true;
        self.last_text = false;
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn summary_attachment(text: String) -> Attachment {
    Attachment {
        kind: "summary".to_owned(),
        text: Some(text),
        ..Attachment::default()
    }
}

/// A conversation summary: a string, or an object holding one.
fn summary_text(v: &Value) -> Option<String> {
    text_in(v, &["summary", "text", "content"]).filter(|s| !s.trim().is_empty())
}

/// The arguments of a call: the model's `rawArgs`, with what Cursor's `params` add.
fn merge_args(raw: Option<Value>, params: Option<Value>) -> Value {
    match (raw, params) {
        (Some(Value::Object(mut raw)), Some(Value::Object(params))) => {
            for (k, v) in params {
                raw.entry(k).or_insert(v);
            }
            Value::Object(raw)
        }
        (Some(raw @ Value::Object(_)), _) => raw,
        // `rawArgs` that did not parse is kept beside the params.
        (Some(raw), Some(Value::Object(mut params))) => {
            params.entry("rawArgs").or_insert(raw);
            Value::Object(params)
        }
        (Some(raw), None) | (None, Some(raw)) | (Some(raw), Some(_)) => raw,
        (None, None) => Value::Object(Map::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(iso_8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_8601(1_735_689_599_999), "2024-12-31T23:59:59.999Z");
        assert_eq!(
            time_of(&Value::from(1_700_000_000u64)).as_deref(),
            Some("2023-11-14T22:13:20.000Z")
        );
        assert_eq!(time_of(&Value::from(-1)), None);
    }

    #[test]
    fn modes_and_kinds() {
        assert_eq!(mode_of(&Value::from(1)).as_deref(), Some("ask"));
        assert_eq!(mode_of(&Value::from(2)).as_deref(), Some("agent"));
        assert_eq!(mode_of(&Value::from(6)).as_deref(), Some("debug"));
        assert_eq!(mode_of(&Value::from(0)), None);
        assert_eq!(
            mode_of(&Value::from("UNIFIED_MODE_PLAN")).as_deref(),
            Some("plan")
        );
        assert_eq!(mode_of(&Value::from("CHAT")).as_deref(), Some("ask"));
        assert_eq!(kind_of(Some(&Value::from(1))), Some(Kind::Human));
        assert_eq!(kind_of(Some(&Value::from("AI"))), Some(Kind::Ai));
        assert_eq!(
            kind_of(Some(&Value::from("MESSAGE_TYPE_HUMAN"))),
            Some(Kind::Human)
        );
        assert_eq!(kind_of(Some(&Value::from(3))), None);
    }

    #[test]
    fn sniffs_its_shapes_only() {
        assert!(sniff(
            r#"{"composerId":"c","fullConversationHeadersOnly":[]}"#
        ));
        assert!(sniff(r#"{"conversationMap":{}}"#));
        assert!(sniff(r#"{"composerData":{"c":{}}}"#));
        assert!(sniff(
            r#"{"conversation":[{"kind":"HUMAN","messages":[]}]}"#
        ));
        assert!(!sniff(r#"{"conversation":[]}"#));
        assert!(sniff(
            r#"{"cachedConversationSummary":"s","conversation":[]}"#
        ));
        assert!(!sniff(r#"{"conversation":"x"}"#));
        assert!(!sniff(r#"{"type":"assistant"}"#));
        assert!(!sniff("[1]"));
    }
}
