//! The document SSE stream of seed 000 §5: `document_start`, `content_delta`,
//! `tool_call_start`, `tool_call_arguments`, `tool_result`, `document_end`, `done`.
//!
//! The event type is the SSE `event` field, or, for plain `message` events, the data's
//! `type` field (seed 000 §6 `StreamEvent`, whose payload may sit under `data`).

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::{Adapter, Payload, parse};
use crate::error::codes;
use crate::model::{CallStatus, DocumentType, ResponseMetadata, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolOutcome};

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Wire<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    document_id: Option<Cow<'a, str>>,
    #[serde(default)]
    metadata: Option<Value>,
    #[serde(borrow, default)]
    delta: Option<Cow<'a, str>>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_call_id: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
    #[serde(default)]
    result: Option<WireResult>,
    #[serde(default, rename = "duration_ms")]
    duration_ms: Option<u64>,
    #[serde(default)]
    final_content: Option<String>,
    #[serde(default)]
    usage: Option<Usage>,
    #[serde(default)]
    conversation_id: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    created: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    code: Option<String>,
    /// The `StreamEvent` envelope's payload.
    #[serde(borrow, default)]
    data: Option<&'a serde_json::value::RawValue>,
}

#[derive(Deserialize)]
struct WireResult {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    data: Value,
}

/// Adapter state: which tool call belongs to which document.
#[derive(Default)]
pub(crate) struct DocumentSse {
    calls: HashMap<String, String>,
}

impl DocumentSse {
    fn call_for(&mut self, doc: &str, n: &mut dyn Sink) -> String {
        if let Some(call) = self.calls.get(doc) {
            return call.clone();
        }
        n.apply(Event::ToolStart {
            call_id: doc.to_owned(),
            name: "tool".to_owned(),
            args: Value::Object(Default::default()),
            doc_id: Some(doc.to_owned()),
        });
        self.calls.insert(doc.to_owned(), doc.to_owned());
        doc.to_owned()
    }
}

impl Adapter for DocumentSse {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(mut w) = parse::<Wire<'_>>(&p, n) else {
            return;
        };
        let event = match p.event {
            Some(e) if e != "message" => Cow::Borrowed(e),
            _ => w.kind.clone().unwrap_or(Cow::Borrowed("")),
        };
        // `{type, documentId, data: {...}}`: the payload is under `data`.
        if let Some(inner) = w.data.filter(|d| d.get().trim_start().starts_with('{')) {
            let Some(mut inner) = parse::<Wire<'_>>(
                &Payload {
                    text: inner.get(),
                    ..p
                },
                n,
            ) else {
                return;
            };
            inner.document_id = inner.document_id.or(w.document_id.take());
            w = inner;
        }
        let doc = w
            .document_id
            .as_deref()
            .or(w.id.as_deref())
            .unwrap_or("")
            .to_owned();
        match event.as_ref() {
            "document_start" => {
                let doc_type = w.kind.as_deref().and_then(DocumentType::parse);
                match doc_type {
                    Some(doc_type) => n.apply(Event::DocStart {
                        id: doc,
                        doc_type,
                        metadata: w.metadata,
                    }),
                    None => n.apply(Event::Error(ErrorInfo {
                        at: None,
                        code: codes::INVALID_EVENT.to_owned(),
                        source: "stream".to_owned(),
                        message: format!(
                            "A document of unknown type {:?} ({}).",
                            w.kind.as_deref().unwrap_or(""),
                            p.at
                        ),
                        details: format!("{}: document_start {:?}", p.at, doc),
                    })),
                }
            }
            "content_delta" => n.apply(Event::DocDelta {
                id: Cow::Owned(doc),
                text: w.delta.unwrap_or_default(),
            }),
            "tool_call_start" => {
                let call_id = w.tool_call_id.unwrap_or_else(|| doc.clone());
                self.calls.insert(doc.clone(), call_id.clone());
                n.apply(Event::ToolStart {
                    call_id,
                    name: w.tool_name.unwrap_or_default(),
                    args: w.arguments.unwrap_or(Value::Object(Default::default())),
                    doc_id: Some(doc),
                });
            }
            "tool_call_arguments" => {
                let call_id = self.call_for(&doc, n);
                n.apply(Event::ToolArgs {
                    call_id,
                    args: w.arguments.unwrap_or(Value::Null),
                });
            }
            "tool_result" => {
                let call_id = self.call_for(&doc, n);
                let (status, data) = match w.result {
                    Some(r) => (
                        r.status.as_deref().map_or(CallStatus::Success, status_of),
                        r.data,
                    ),
                    None => (CallStatus::Success, Value::Null),
                };
                n.apply(Event::ToolEnd {
                    call_id,
                    name: None,
                    args: None,
                    outcome: ToolOutcome { status, data },
                    duration_ms: w.duration_ms,
                });
            }
            "document_end" => n.apply(Event::DocEnd {
                id: doc,
                final_content: w.final_content,
            }),
            "done" => {
                n.apply(Event::Session(SessionInfo {
                    conversation_id: w.conversation_id,
                    model: w.model,
                    mode: w.mode,
                    created: w.created,
                    ..SessionInfo::default()
                }));
                if let Some(u) = w.usage {
                    n.apply(Event::Usage(u));
                }
                if let Some(m) = w.metadata.and_then(|m| {
                    docstream_model::read_json::from_value::<ResponseMetadata>(m).ok()
                }) {
                    n.apply(Event::ResponseMeta {
                        duration_ms: m.duration_ms,
                        duration_api_ms: m.duration_api_ms,
                        request_id: m.request_id,
                        stop_reason: m.stop_reason,
                    });
                }
                let error =
                    (w.status.as_deref() == Some("error")).then(|| agent_error(w.message, w.code));
                n.apply(Event::Done { error });
            }
            "error" => n.apply(Event::Done {
                error: Some(agent_error(w.message, w.code)),
            }),
            _ => n.apply(Event::Unknown),
        }
    }
}

fn status_of(s: &str) -> CallStatus {
    match s {
        "error" | "failed" | "failure" => CallStatus::Error,
        "rejected" | "denied" => CallStatus::Rejected,
        _ => CallStatus::Success,
    }
}

fn agent_error(message: Option<String>, code: Option<String>) -> ErrorInfo {
    let message = message.unwrap_or_else(|| "The response failed.".to_owned());
    ErrorInfo {
        at: None,
        code: code.unwrap_or_else(|| codes::AGENT_ERROR.to_owned()),
        source: "agent".to_owned(),
        details: message.clone(),
        message,
    }
}
