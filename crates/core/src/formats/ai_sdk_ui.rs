//! The Vercel AI SDK's UI message stream (protocol v1, header
//! `x-vercel-ai-ui-message-stream: v1`): SSE events whose data is one chunk each
//! (`{"type": …}`), ending with `[DONE]`; NDJSON lines or a JSON array of chunks read
//! the same. The shapes are those of `UIMessageChunk` in vercel/ai
//! (`packages/ai/src/ui-message-stream/ui-message-chunks.ts`).
//!
//! - `start` (`messageId`) starts a response; `finish` (`finishReason`) ends it, and
//!   `abort` ends it as stopped; `[DONE]` ends one still open. `start-step` and
//!   `finish-step` mark the agent's steps (the normaliser counts them by tool results).
//! - `text-start` / `text-delta` / `text-end`: prose (two text parts one after another
//!   are two paragraphs); `reasoning-*`: thinking.
//! - `tool-input-start` shows the call; `tool-input-delta`s are kept, not read, until
//!   `tool-input-available` brings the input whole (or, when a stream never sends it,
//!   until the call's output); `tool-input-error`, `tool-output-available` (the final
//!   one: `preliminary` outputs are progress), `tool-output-error` and
//!   `tool-output-denied` end it. `tool-approval-request` leaves the call waiting;
//!   `tool-approval-response` that refuses ends it as rejected.
//! - `source-url` / `source-document`: the sources of a step, gathered into one
//!   `sources` call whose result lists them (links where they have a URL), shown when
//!   the step goes on with something else.
//! - `file`, `reasoning-file`: a `file` call naming its media type and URL (a `data:`
//!   URL is shown by its size, not kept).
//! - `data-<name>`: a call named `data-<name>` with the data as its arguments; a data
//!   part with the same `id` replaces it. `transient` parts are not part of the message
//!   and are left out.
//! - `error` (`errorText`): an `error` document. `message-metadata` has nothing to show;
//!   `reset-step` (drop the step's parts) and `custom` cannot be shown and are counted as
//!   not understood, as is any other chunk type.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::error::codes;
use crate::formats::common::{Prose, for_each_event, is_done_sentinel};
use crate::formats::fields::{self, Fields, wire};
use crate::formats::{Adapter, Payload, json_error};
use crate::model::CallStatus;
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome};

/// The one name this format gives a call of its own: a step's sources, shown as the
/// links of a search.
pub(super) const TOOLS: ToolNames = &[("sources", ToolKind::WebSearch)];

wire! {
    /// One chunk, flat. Only what the chunk's type uses is read of `input`, `output`
    /// and `data` (a data part's `data` can be large).
    struct Chunk<'v> {
        kind: str "type" or_default,
        id: str "id",
        delta: str "delta",
        message_id: string "messageId",
        finish_reason: string "finishReason",
        reason: string "reason",
        tool_call_id: str "toolCallId",
        tool_name: str "toolName",
        input_text_delta: str "inputTextDelta",
        input: Option<Value> = |f| Ok(of_type(f, |t| t.starts_with("tool-input"), "input")),
        output: Option<Value> = |f| Ok(of_type(f, |t| t == "tool-output-available", "output")),
        preliminary: bool "preliminary",
        error_text: string "errorText",
        approved: bool "approved",
        approval_id: str "approvalId",
        source_id: str "sourceId",
        url: str "url",
        title: str "title",
        media_type: str "mediaType",
        filename: str "filename",
        data: Option<Value> = |f| Ok(of_type(f, |t| t.starts_with("data-"), "data")),
        transient: bool "transient",
    }
}

/// The field `key` of a chunk whose `type` is one `uses` it.
fn of_type(f: Fields<'_, '_>, uses: impl FnOnce(&str) -> bool, key: &str) -> Option<Value> {
    uses(f.str("type").ok().flatten().unwrap_or_default())
        .then(|| f.value(key))
        .flatten()
}

/// A tool call between its start and its output.
struct Call {
    name: String,
    /// Input streamed so far, read only if `tool-input-available` never comes.
    input: String,
    /// `tool-input-available` came.
    has_input: bool,
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct AiSdkUi {
    /// A response is open.
    open: bool,
    /// The text part whose text was shown last, while nothing else came since.
    prose: Prose,
    calls: HashMap<String, Call>,
    /// Approval id → tool call id.
    approvals: HashMap<String, String>,
    /// The sources of the current step not shown yet.
    sources: Vec<Value>,
    /// Source lists shown so far (their call ids).
    source_lists: usize,
    /// Files shown so far.
    files: usize,
}

impl Adapter for AiSdkUi {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        // `[DONE]` first: it would read as a JSON array.
        if is_done_sentinel(p.text) {
            return self.event(p, n);
        }
        for_each_event(p, n, |p, n| self.event(p, n));
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        self.flush_sources(n);
        // Calls whose input never came whole keep what was streamed; the normaliser
        // says the response was cut off.
        // In the order of their ids, so that the result does not depend on a hash.
        let mut calls: Vec<_> = std::mem::take(&mut self.calls).into_iter().collect();
        calls.sort_by(|a, b| a.0.cmp(&b.0));
        for (id, call) in calls {
            if !call.has_input && !call.input.trim().is_empty() {
                let args = parse_input(&call.input);
                n.apply(Event::ToolArgs { call_id: id, args });
            }
        }
    }
}

/// Streamed input, parsed where it is whole JSON, else kept as text.
fn parse_input(text: &str) -> Value {
    docstream_model::read_json::from_str::<Value>(text)
        .unwrap_or_else(|_| Value::String(text.to_owned()))
}

impl AiSdkUi {
    fn event(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        if is_done_sentinel(p.text) {
            self.flush_sources(n);
            if self.open {
                self.open = false;
                n.apply(Event::Done { error: None });
            }
            return;
        }
        let read = fields::parse(p.text).and_then(|tree| {
            let chunk = Chunk::read(Fields::of(&tree, "the chunk")?)?;
            self.chunk(chunk, n);
            Ok(())
        });
        if let Err(e) = read {
            n.apply(Event::Error(json_error(&e, &p)));
        }
    }

    fn chunk(&mut self, c: Chunk<'_>, n: &mut dyn Sink) {
        if !c.kind.starts_with("source-") {
            self.flush_sources(n);
        }
        match c.kind {
            "start" => {
                self.open = true;
                self.prose.end();
                n.apply(Event::ResponseStart(SessionInfo {
                    response_id: c.message_id,
                    ..SessionInfo::default()
                }));
            }
            "start-step" | "finish-step" | "message-metadata" => {}
            "text-start" | "text-end" => {}
            "text-delta" => {
                let (id, text) = (c.id.unwrap_or_default(), c.delta.unwrap_or_default());
                self.prose.write(id, text, n);
            }
            "reasoning-start" => self.prose.end(),
            "reasoning-delta" => {
                self.prose.end();
                if let Some(text) = c.delta.filter(|t| !t.is_empty()) {
                    n.apply(Event::Thinking(Cow::Owned(text.to_owned())));
                }
            }
            "reasoning-end" => n.apply(Event::ThinkingEnd {
                signature: None,
                redacted: false,
            }),
            "tool-input-start" => {
                let id = c.tool_call_id.unwrap_or_default().to_owned();
                let name = c.tool_name.unwrap_or("tool").to_owned();
                self.start(id, name, json!({}), n);
            }
            "tool-input-delta" => {
                if let Some(call) = self.calls.get_mut(c.tool_call_id.unwrap_or_default()) {
                    call.input.push_str(c.input_text_delta.unwrap_or_default());
                }
            }
            "tool-input-available" => {
                let id = c.tool_call_id.unwrap_or_default().to_owned();
                let args = c.input.unwrap_or_else(|| json!({}));
                match self.calls.get_mut(&id) {
                    Some(call) => {
                        call.has_input = true;
                        call.input = String::new();
                        self.prose.end();
                        n.apply(Event::ToolArgs { call_id: id, args });
                    }
                    None => {
                        let name = c.tool_name.unwrap_or("tool").to_owned();
                        self.start(id.clone(), name, args, n);
                        if let Some(call) = self.calls.get_mut(&id) {
                            call.has_input = true;
                        }
                    }
                }
            }
            "tool-input-error" => {
                let id = c.tool_call_id.unwrap_or_default().to_owned();
                let text = c.error_text.unwrap_or_default();
                let args = c.input;
                self.end(id, c.tool_name, args, CallStatus::Error, text.into(), n);
            }
            "tool-output-available" => {
                if c.preliminary == Some(true) {
                    return; // progress: the final output follows
                }
                let id = c.tool_call_id.unwrap_or_default().to_owned();
                let data = c.output.unwrap_or(Value::Null);
                self.end(id, None, None, CallStatus::Success, data, n);
            }
            "tool-output-error" => {
                let id = c.tool_call_id.unwrap_or_default().to_owned();
                let text = c.error_text.unwrap_or_default();
                self.end(id, None, None, CallStatus::Error, text.into(), n);
            }
            "tool-output-denied" => {
                let id = c.tool_call_id.unwrap_or_default().to_owned();
                let text = Value::from("The user denied this tool call.");
                self.end(id, None, None, CallStatus::Rejected, text, n);
            }
            "tool-approval-request" => {
                if let (Some(approval), Some(call)) = (c.approval_id, c.tool_call_id) {
                    self.approvals.insert(approval.to_owned(), call.to_owned());
                }
            }
            "tool-approval-response" => {
                let call = c.approval_id.and_then(|a| self.approvals.get(a)).cloned();
                if let (Some(id), Some(false)) = (call, c.approved) {
                    let text = match c.reason {
                        Some(reason) => format!("The user denied this tool call: {reason}"),
                        None => "The user denied this tool call.".to_owned(),
                    };
                    self.end(id, None, None, CallStatus::Rejected, text.into(), n);
                }
            }
            "source-url" | "source-document" => {
                let mut source = Map::new();
                for (key, value) in [
                    ("id", c.source_id),
                    ("title", c.title),
                    ("url", c.url),
                    ("mediaType", c.media_type),
                    ("filename", c.filename),
                ] {
                    if let Some(v) = value {
                        source.insert(key.into(), v.into());
                    }
                }
                self.sources.push(Value::Object(source));
            }
            "file" | "reasoning-file" => {
                self.files += 1;
                let id = format!("file_{}", self.files);
                let url = c.url.unwrap_or_default();
                let shown = if url.starts_with("data:") {
                    format!("data: URL of {} bytes, not kept", url.len())
                } else {
                    url.to_owned()
                };
                let args = json!({ "mediaType": c.media_type, "url": shown });
                self.prose.end();
                n.apply(Event::ToolEnd {
                    call_id: id,
                    name: Some(c.kind.to_owned()),
                    args: Some(args),
                    outcome: ToolOutcome {
                        status: CallStatus::Success,
                        data: Value::from(""),
                    },
                    duration_ms: None,
                });
            }
            kind if kind.starts_with("data-") => {
                if c.transient == Some(true) {
                    return;
                }
                // The same id again replaces the part; a part without one is its own.
                let id = match c.id {
                    Some(id) => format!("{kind}:{id}"),
                    None => {
                        self.files += 1;
                        format!("{kind}#{}", self.files)
                    }
                };
                self.prose.end();
                n.apply(Event::ToolEnd {
                    call_id: id,
                    name: Some(kind.to_owned()),
                    args: Some(c.data.unwrap_or(Value::Null)),
                    outcome: ToolOutcome {
                        status: CallStatus::Success,
                        data: Value::from(""),
                    },
                    duration_ms: None,
                });
            }
            "error" => {
                self.prose.end();
                let text = c
                    .error_text
                    .unwrap_or_else(|| "The stream reported an error.".to_owned());
                n.apply(Event::Error(ErrorInfo::agent(text)));
            }
            "finish" => {
                n.apply(Event::stopped(c.finish_reason));
                self.open = false;
                n.apply(Event::Done { error: None });
            }
            "abort" => {
                self.open = false;
                let message = match c.reason {
                    Some(reason) => format!("The response was stopped: {reason}."),
                    None => "The response was stopped.".to_owned(),
                };
                n.apply(Event::Done {
                    error: Some(ErrorInfo {
                        at: None,
                        code: codes::AGENT_ERROR.to_owned(),
                        source: "stream".to_owned(),
                        details: message.clone(),
                        message,
                    }),
                });
            }
            _ => n.apply(Event::Unknown),
        }
    }

    /// A call's start.
    fn start(&mut self, id: String, name: String, args: Value, n: &mut dyn Sink) {
        self.prose.end();
        self.calls.insert(
            id.clone(),
            Call {
                name: name.clone(),
                input: String::new(),
                has_input: false,
            },
        );
        n.apply(Event::tool_start(id, name, args));
    }

    /// A call's end. A call whose input only came as deltas gets it parsed now.
    fn end(
        &mut self,
        id: String,
        name: Option<&str>,
        args: Option<Value>,
        status: CallStatus,
        data: Value,
        n: &mut dyn Sink,
    ) {
        self.prose.end();
        let call = self.calls.remove(&id);
        let args = args.or_else(|| {
            let call = call.as_ref()?;
            (!call.has_input && !call.input.trim().is_empty()).then(|| parse_input(&call.input))
        });
        let name = name.map(str::to_owned).or_else(|| call.map(|c| c.name));
        n.apply(Event::ToolEnd {
            call_id: id,
            name,
            args,
            outcome: ToolOutcome { status, data },
            duration_ms: None,
        });
    }

    /// Shows the sources gathered since the last part that was not one.
    fn flush_sources(&mut self, n: &mut dyn Sink) {
        if self.sources.is_empty() {
            return;
        }
        self.source_lists += 1;
        let sources = std::mem::take(&mut self.sources);
        self.prose.end();
        n.apply(Event::ToolEnd {
            call_id: format!("sources_{}", self.source_lists),
            name: Some("sources".to_owned()),
            args: Some(json!({})),
            outcome: ToolOutcome {
                status: CallStatus::Success,
                data: json!({ "sources": sources }),
            },
            duration_ms: None,
        });
    }
}
