//! Cursor's saved conversation (seed 003): one whole JSON value.
//!
//! Three shapes are read:
//! - a composer: `fullConversationHeadersOnly` (bubble ids and types, in order) with
//!   `conversationMap` (the bubbles by id), plus `modelConfig`, `unified_mode` …;
//! - the storage wrapper `{composerData: {<composerId>: composer, …}}` (or one composer);
//! - the grouped request form: `conversation: [{kind: HUMAN|AI, messages: [bubble, …]}]`,
//!   with `conversationId`, `model`, `unified_mode` and `cachedConversationSummary` beside
//!   it (`firstUserMessages`/`conversationMessages` repeat the array and are not read);
//! - the older stored composer (`_v` 1 and 2 in `state.vscdb`): `conversation` is the
//!   list of bubbles itself, each with its `type`.
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
//! from the map, a field of the wrong type (the bubble's other fields are still read),
//! or a tool field that is not valid JSON each give an `error` document naming the
//! bubble.
//!
//! The value is walked as a `serde_json::Value`, not read into typed structs: it is
//! parsed once, not per chunk, and the typed structs cost 13 KB more gzip in the
//! WebAssembly module.

use std::borrow::Cow;

use docstream_model::read_json::json_kind;
use docstream_model::time::time_of;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use super::{Adapter, Payload, parse, preview};
use crate::error::codes;
use crate::model::{Attachment, CallStatus};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// The tool names of Cursor's saved conversations (seed 003), older and newer
/// (`_v2`) tools; seed 000 §7 maps the first four.
pub(super) const TOOLS: ToolNames = &[
    ("edit_file", ToolKind::Edit),
    ("run_terminal_cmd", ToolKind::Shell),
    ("create_plan", ToolKind::Plan),
    ("todo_write", ToolKind::Todo),
    ("search_replace", ToolKind::Edit),
    ("edit_file_v2", ToolKind::Edit),
    ("delete_file", ToolKind::Delete),
    ("run_terminal_command", ToolKind::Shell),
    ("run_terminal_command_v2", ToolKind::Shell),
    ("read_file", ToolKind::Read),
    ("read_file_v2", ToolKind::Read),
    ("grep_search", ToolKind::Grep),
    ("ripgrep_search", ToolKind::Grep),
    ("ripgrep_raw_search", ToolKind::Grep),
    ("file_search", ToolKind::Glob),
    ("glob_file_search", ToolKind::Glob),
    ("list_dir", ToolKind::List),
    ("codebase_search", ToolKind::CodebaseSearch),
    ("web_search", ToolKind::WebSearch),
];

/// `errorCode` of the `error` document for a bubble the headers name and the map lacks.
const MISSING_BUBBLE: &str = "MISSING_BUBBLE";

/// True when a JSON object has the keys of this format; used by format detection.
pub(crate) fn sniff(text: &str) -> bool {
    #[derive(Deserialize)]
    struct Sniff {
        #[serde(default, rename = "fullConversationHeadersOnly")]
        headers: Option<IgnoredAny>,
        #[serde(default, rename = "conversationMap")]
        map: Option<IgnoredAny>,
        #[serde(default, rename = "composerData")]
        composers: Option<IgnoredAny>,
        #[serde(default)]
        conversation: Option<Value>,
        #[serde(default, rename = "cachedConversationSummary")]
        summary: Option<IgnoredAny>,
        #[serde(default, rename = "composerId")]
        composer_id: Option<IgnoredAny>,
    }
    // An array would fill the fields in order: only an object is this format.
    if !text.trim_start().starts_with('{') {
        return false;
    }
    let Ok(s) = docstream_model::read_json::from_str::<Sniff>(text) else {
        return false;
    };
    // The request form: an array of groups, each with a `kind`.
    let groups = match &s.conversation {
        Some(Value::Array(groups)) => groups.iter().all(|g| g.get("kind").is_some()),
        _ => false,
    };
    let non_empty = s
        .conversation
        .as_ref()
        .and_then(Value::as_array)
        .is_some_and(|g| !g.is_empty());
    // The older stored composer: its bubbles inline.
    let inline = s.composer_id.is_some() && s.conversation.as_ref().is_some_and(Value::is_array);
    s.headers.is_some()
        || s.map.is_some()
        || s.composers.is_some()
        || inline
        || (groups && (non_empty || s.summary.is_some()))
}

/// A JSON object.
type Object = Map<String, Value>;

/// Reads the fields of one object, noting the ones of the wrong type.
struct Fields<'v> {
    o: &'v Object,
    wrong: Vec<String>,
}

impl<'v> Fields<'v> {
    fn new(o: &'v Object) -> Fields<'v> {
        Fields {
            o,
            wrong: Vec::new(),
        }
    }

    /// A field present and not null.
    fn get(&self, key: &str) -> Option<&'v Value> {
        self.o.get(key).filter(|v| !v.is_null())
    }

    /// A string field; any other type is noted.
    fn str(&mut self, key: &str) -> Option<&'v str> {
        let v = self.get(key)?;
        match v.as_str() {
            Some(s) => Some(s),
            None => {
                self.wrong
                    .push(format!("{key} is {}, not a string", json_kind(v)));
                None
            }
        }
    }

    /// An object field; any other type is noted.
    fn object(&mut self, key: &str) -> Option<&'v Object> {
        let v = self.get(key)?;
        match v.as_object() {
            Some(o) => Some(o),
            None => {
                self.wrong
                    .push(format!("{key} is {}, not an object", json_kind(v)));
                None
            }
        }
    }

    /// An array field; any other type is noted.
    fn array(&mut self, key: &str) -> Option<&'v [Value]> {
        let v = self.get(key)?;
        match v.as_array() {
            Some(a) => Some(a),
            None => {
                self.wrong
                    .push(format!("{key} is {}, not an array", json_kind(v)));
                None
            }
        }
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
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        // A saved conversation is read once, not per chunk: one `Value` tree keeps the
        // WebAssembly module small (typed structs per shape cost 30 KB gzip).
        let Some(top) = parse::<Value>(&p, n) else {
            return;
        };
        let mut run = Run {
            n,
            open: false,
            last_text: false,
            summary: None,
        };
        match &top {
            Value::Object(top) => run.top(top),
            other => run.bad(
                "the saved conversation",
                &format!("it is {}, not an object", json_kind(other)),
            ),
        }
    }
}

/// Reading one payload.
struct Run<'n> {
    n: &'n mut dyn Sink,
    /// A response is open (something of an AI bubble was applied since the last
    /// prompt or end).
    open: bool,
    /// The last thing applied was an AI bubble's text: the next text is a new paragraph.
    last_text: bool,
    /// A conversation summary waiting for the next prompt.
    summary: Option<String>,
}

fn has_conversation(o: &Object) -> bool {
    [
        "fullConversationHeadersOnly",
        "conversationMap",
        "conversation",
    ]
    .iter()
    .any(|k| o.contains_key(*k))
}

impl Run<'_> {
    fn top(&mut self, top: &Object) {
        let data = match top.get("composerData") {
            Some(d) if !has_conversation(top) => d,
            _ => return self.composer(top),
        };
        // One composer, or composers by id.
        match data {
            Value::Object(c) if has_conversation(c) => self.composer(c),
            Value::Object(all) => {
                for (id, c) in all {
                    match c {
                        Value::Object(c) => self.composer(c),
                        other => self.bad(
                            &format!("composer {id}"),
                            &format!("it is {}, not an object", json_kind(other)),
                        ),
                    }
                }
            }
            other => self.bad(
                "composerData",
                &format!("it is {}, not an object", json_kind(other)),
            ),
        }
    }

    fn composer(&mut self, c: &Object) {
        let mut f = Fields::new(c);
        let mode = f
            .get("unified_mode")
            .or_else(|| f.get("unifiedMode"))
            .and_then(mode_of)
            .or_else(|| {
                match (
                    f.get("isAgentic").and_then(Value::as_bool),
                    f.get("isChat").and_then(Value::as_bool),
                ) {
                    (Some(true), _) => Some("agent".to_owned()),
                    (_, Some(true)) => Some("ask".to_owned()),
                    _ => None,
                }
            });
        let model = match f.object("modelConfig") {
            Some(m) => Fields::new(m).str("modelName"),
            None => None,
        }
        .or_else(|| f.str("model"));
        let info = SessionInfo {
            conversation_id: f
                .str("conversationId")
                .or_else(|| f.str("composerId"))
                .map(str::to_owned),
            model: model.filter(|m| !m.is_empty()).map(str::to_owned),
            mode,
            ..SessionInfo::default()
        };
        if let Some(at) = &info.created {
            self.n.apply(Event::Time(at.clone()));
        }
        if info != SessionInfo::default() {
            self.n.apply(Event::Session(info));
        }
        if let Some(s) = f.get("cachedConversationSummary").and_then(summary_text) {
            self.summary = Some(s);
        }
        let headers = f.array("fullConversationHeadersOnly");
        let map = f.object("conversationMap");
        let groups = f.array("conversation");
        if !f.wrong.is_empty() {
            let wrong = f.wrong.join("; ");
            self.bad("the conversation", &wrong);
        }
        if let Some(headers) = headers {
            let empty = Object::new();
            let map = map.unwrap_or(&empty);
            for h in headers {
                self.header(h, map);
            }
        } else if let Some(map) = map.filter(|m| !m.is_empty() || groups.is_none()) {
            for (id, b) in map {
                self.bubble(b, id, None);
            }
        } else if let Some(groups) = groups {
            for g in groups {
                let Some(o) = g.as_object() else {
                    self.bad(
                        "a group of conversation",
                        &format!("it is {}, not an object", json_kind(g)),
                    );
                    continue;
                };
                // The older stored composer lists its bubbles here, not groups of them.
                if !o.contains_key("kind") && !o.contains_key("messages") {
                    self.bubble(g, "", None);
                    continue;
                }
                let g = o;
                let mut gf = Fields::new(g);
                let kind = kind_of(gf.get("kind"));
                let messages = gf.array("messages").unwrap_or_default();
                if !gf.wrong.is_empty() {
                    let wrong = gf.wrong.join("; ");
                    self.bad("a group of conversation", &wrong);
                }
                for m in messages {
                    self.bubble(m, "", kind);
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

    /// A header of `fullConversationHeadersOnly`: its bubble from the map.
    fn header(&mut self, h: &Value, map: &Object) {
        let id = h.get("bubbleId").and_then(Value::as_str).unwrap_or("");
        if id.is_empty() {
            return self.bad(
                "a header of fullConversationHeadersOnly",
                &format!("it names no bubble: {}", preview(&h.to_string())),
            );
        }
        match map.get(id) {
            Some(b) if !b.is_null() => self.bubble(b, id, kind_of(h.get("type"))),
            found => self.missing(id, found.is_some()),
        }
    }

    /// One bubble; `id` is the map key (empty in the request form), `kind` the type the
    /// header or group gives.
    fn bubble(&mut self, b: &Value, key: &str, kind: Option<Kind>) {
        let id = b
            .get("bubbleId")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or(key);
        let name = if id.is_empty() {
            "a bubble".to_owned()
        } else {
            format!("bubble {id}")
        };
        let Some(o) = b.as_object() else {
            if let Some(why) = b.as_str().filter(|s| !s.is_empty()) {
                // A string in place of a bubble: why the host could not read its row
                // (docstream::library::cursor::assemble writes these).
                self.n.apply(Event::Error(ErrorInfo {
                    at: None,
                    code: codes::INVALID_EVENT.to_owned(),
                    source: name.clone(),
                    message: format!("{} could not be read.", capitalise(&name)),
                    details: format!("{why}; the rest was read."),
                }));
                self.open = true;
                self.last_text = false;
                return;
            }
            return self.bad(&name, &format!("it is {}, not an object", json_kind(b)));
        };
        let mut f = Fields::new(o);
        let text = f.str("text");
        let summary = f.get("cachedConversationSummary").and_then(summary_text);
        let kind = kind_of(f.get("type")).or(kind);
        match kind {
            Some(Kind::Human) => {
                let mut att = Vec::new();
                if let Some(s) = self.summary.take().or(summary) {
                    att.push(summary_attachment(s));
                }
                for (key, kind) in [
                    ("selections", "selection"),
                    ("images", "image"),
                    ("links", "link"),
                    ("docs", "document"),
                    ("commits", "commit"),
                ] {
                    attachments(f.get(key), kind, &mut att);
                }
                let at = f
                    .get("createdAt")
                    .or_else(|| f.get("timestamp"))
                    .and_then(time_of);
                self.report(&name, &mut f);
                if let Some(at) = at {
                    self.n.apply(Event::Time(at));
                }
                self.n.apply(Event::UserPrompt {
                    text: Cow::Owned(text.unwrap_or_default().to_owned()),
                    attachments: att,
                });
                self.open = false;
                self.last_text = false;
            }
            Some(Kind::Ai) => {
                if summary.is_some() {
                    self.summary = summary;
                }
                self.ai(&mut f, text, id, &name);
            }
            None => {
                self.report(&name, &mut f);
                return self.n.apply(Event::Unknown);
            }
        }
        if let Some(e) = f.get("errorDetails") {
            self.error_details(e, &name);
        }
    }

    fn ai(&mut self, f: &mut Fields<'_>, text: Option<&str>, id: &str, name: &str) {
        let info = SessionInfo {
            model: f
                .str("modelName")
                .filter(|m| !m.is_empty())
                .map(str::to_owned),
            created: f
                .get("createdAt")
                .or_else(|| f.get("timestamp"))
                .and_then(time_of),
            ..SessionInfo::default()
        };
        let request_id = f.str("requestId").filter(|r| !r.is_empty());
        let tool = f.object("toolFormerData");
        self.report(name, f);
        if let Some(at) = &info.created {
            self.n.apply(Event::Time(at.clone()));
        }
        if info != SessionInfo::default() {
            self.n.apply(Event::Session(info));
        }
        if let Some(t) = f.get("thinking") {
            let text = text_in(t, &["text", "thinking", "content"]).unwrap_or_default();
            let signature = t
                .get("signature")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
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
        if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
            if self.last_text {
                self.n.apply(Event::Text(Cow::Borrowed("\n\n")));
            }
            self.n.apply(Event::Text(Cow::Owned(text.to_owned())));
            self.open = true;
            self.last_text = true;
        }
        if let Some(tool) = tool {
            self.tool(tool, id, name);
        }
        if let Some(request_id) = request_id {
            self.n.apply(Event::ResponseMeta {
                duration_ms: None,
                duration_api_ms: None,
                request_id: Some(request_id.to_owned()),
                stop_reason: None,
            });
            self.open = true;
        }
    }

    /// `toolFormerData`: a tool call, ended when its status says so.
    fn tool(&mut self, t: &Object, id: &str, bubble: &str) {
        let mut f = Fields::new(t);
        let name = f.str("name").filter(|s| !s.is_empty()).unwrap_or("tool");
        let call_id = f
            .str("toolCallId")
            .filter(|s| !s.is_empty())
            .unwrap_or(id)
            .to_owned();
        let status = f.str("status").map(str::to_ascii_lowercase);
        let rejected = f.str("userDecision") == Some("rejected");
        for w in &mut f.wrong {
            w.insert_str(0, "toolFormerData.");
        }
        self.report(bubble, &mut f);
        let raw_args = self.json_field(f.get("rawArgs"), "rawArgs", bubble, true);
        let params = self.json_field(f.get("params"), "params", bubble, true);
        let result = self.json_field(f.get("result"), "result", bubble, false);
        self.n.apply(Event::tool_start(
            call_id.clone(),
            name.to_owned(),
            merge_args(raw_args, params),
        ));
        self.open = true;
        self.last_text = false;
        let status = match status.as_deref() {
            _ if rejected => Some(CallStatus::Rejected),
            Some("completed" | "complete" | "success" | "succeeded" | "done") => {
                Some(CallStatus::Success)
            }
            Some("error" | "failed" | "failure") => Some(CallStatus::Error),
            Some("rejected") => Some(CallStatus::Rejected),
            Some("cancelled" | "canceled" | "aborted") => Some(CallStatus::Interrupted),
            Some("permission_denied" | "permissiondenied" | "denied") => Some(CallStatus::Denied),
            // Loading, pending …: the call had not ended when the conversation was saved.
            Some(_) => None,
            None if result.is_some() => Some(CallStatus::Success),
            None => None,
        };
        if let Some(status) = status {
            self.n.apply(Event::tool_end(
                call_id,
                ToolOutcome {
                    status,
                    data: result.unwrap_or(Value::Null),
                },
            ));
        }
    }

    /// A tool field stored as a JSON string, parsed. A field that is not valid JSON gives
    /// an `error` document naming the bubble and is kept as the text it was; for
    /// `result` (`strict` false), plain text that does not look like JSON is the tool's
    /// output and is kept as a string without complaint.
    fn json_field(
        &mut self,
        v: Option<&Value>,
        field: &str,
        bubble: &str,
        strict: bool,
    ) -> Option<Value> {
        match v? {
            Value::String(s) if s.trim().is_empty() => None,
            Value::String(s) => match docstream_model::read_json::from_str::<Value>(s) {
                Ok(v) => Some(v),
                Err(_) if !strict && !s.trim_start().starts_with(['{', '[']) => {
                    Some(Value::String(s.clone()))
                }
                Err(e) => {
                    self.n.apply(Event::Error(ErrorInfo {
                        at: None,
                        code: codes::MALFORMED_JSON.to_owned(),
                        source: bubble.to_owned(),
                        message: format!("The tool call's {field} in {bubble} was not valid JSON."),
                        details: format!(
                            "{bubble}: toolFormerData.{field}: {e}; starts with {}",
                            preview(s)
                        ),
                    }));
                    self.open = true;
                    self.last_text = false;
                    Some(Value::String(s.clone()))
                }
            },
            other => Some(other.clone()),
        }
    }

    /// `errorDetails`: the response ends with an error.
    fn error_details(&mut self, e: &Value, bubble: &str) {
        let code = e
            .get("error")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .unwrap_or(codes::AGENT_ERROR);
        let message = text_in(e, &["message", "error"])
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "Cursor reported an error.".to_owned());
        let details = e
            .get("stackTrace")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map_or_else(|| bubble.to_owned(), |t| format!("{bubble}: {t}"));
        self.n.apply(Event::Done {
            error: Some(ErrorInfo {
                at: None,
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
            at: None,
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

    /// Reports the fields of the wrong type that `f` noted, if any.
    fn report(&mut self, what: &str, f: &mut Fields<'_>) {
        if !f.wrong.is_empty() {
            let wrong = std::mem::take(&mut f.wrong).join("; ");
            self.bad(what, &wrong);
        }
    }

    fn bad(&mut self, what: &str, why: &str) {
        self.n.apply(Event::Error(ErrorInfo {
            at: None,
            code: codes::INVALID_EVENT.to_owned(),
            source: what.to_owned(),
            message: format!("{} did not have the expected shape.", capitalise(what)),
            details: format!("{what}: {why}; the rest was read."),
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
        assert!(sniff(
            r#"{"composerId":"c","conversation":[{"type":1,"text":"hi"}]}"#
        ));
        assert!(!sniff(r#"{"type":"assistant"}"#));
        assert!(!sniff("[1]"));
    }
}
