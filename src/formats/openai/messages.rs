//! An OpenAI message history: a JSON array of messages, a request with `messages`, or
//! one `chat.completion` (its choice's `message`). Roles `user`, `assistant` (with
//! `reasoning_content`/`reasoning`, `content`, `tool_calls`), `tool`; `system` and
//! `developer` have nothing to show. The legacy `function_call` of an assistant message
//! is a call of its own (`function_call_1`, `function_call_2` … in order), and a
//! `function` message is the result of the latest one.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;

use super::WireUsage;
use crate::formats::common::{end_open_response, iso8601, tool_input};
use crate::formats::{Adapter, Payload, parse};
use crate::model::{Attachment, CallStatus};
use crate::normalize::{Event, SessionInfo, Sink, ToolOutcome};

#[derive(Deserialize, Default)]
struct Message<'a> {
    #[serde(borrow, default)]
    role: Cow<'a, str>,
    #[serde(default)]
    content: Option<Value>,
    #[serde(borrow, default)]
    reasoning_content: Option<Cow<'a, str>>,
    #[serde(default)]
    reasoning: Option<Value>,
    #[serde(default)]
    refusal: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolCall>>,
    #[serde(default)]
    function_call: Option<Function>,
    #[serde(default)]
    tool_call_id: Option<String>,
}

/// How many legacy `function_call`s a history has had: the latest one's id.
#[derive(Default)]
struct Legacy(usize);

impl Legacy {
    fn next(&mut self) -> String {
        self.0 += 1;
        self.current()
    }

    fn current(&self) -> String {
        format!("function_call_{}", self.0)
    }
}

#[derive(Deserialize)]
struct ToolCall {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<Function>,
}

#[derive(Deserialize)]
struct Function {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
}

/// A request (`messages`), or a `chat.completion` (`choices`).
#[derive(Deserialize)]
struct Top<'a> {
    #[serde(borrow, default)]
    messages: Option<Vec<Message<'a>>>,
    #[serde(borrow, default)]
    choices: Option<Vec<Choice<'a>>>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    created: Option<u64>,
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
struct Choice<'a> {
    #[serde(borrow, default)]
    message: Option<Message<'a>>,
    #[serde(default)]
    finish_reason: Option<String>,
}

/// The adapter (no state: each payload is a whole history).
#[derive(Default)]
pub(in crate::formats) struct Messages;

impl Adapter for Messages {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        if p.text.trim_start().starts_with('[') {
            if let Some(list) = parse::<Vec<Message<'_>>>(&p, n) {
                history(list, &p, n);
            }
            return;
        }
        let Some(top) = parse::<Top<'_>>(&p, n) else {
            return;
        };
        if let Some(list) = top.messages {
            n.apply(Event::Session(SessionInfo {
                model: top.model,
                ..SessionInfo::default()
            }));
            return history(list, &p, n);
        }
        let Some(choice) = top.choices.and_then(|c| c.into_iter().next()) else {
            return n.apply(Event::Unknown);
        };
        n.apply(Event::ResponseStart(SessionInfo {
            response_id: top.id,
            model: top.model,
            created: top.created.map(iso8601),
            ..SessionInfo::default()
        }));
        if let Some(m) = choice.message {
            assistant(m, &p, n, &mut Legacy::default());
        }
        n.apply(Event::ResponseMeta {
            duration_ms: None,
            duration_api_ms: None,
            request_id: None,
            stop_reason: choice.finish_reason,
        });
        if let Some(u) = top.usage {
            n.apply(Event::Usage(u.into()));
        }
        n.apply(Event::Done { error: None });
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        end_open_response(n);
    }
}

fn history(list: Vec<Message<'_>>, p: &Payload<'_>, n: &mut dyn Sink) {
    let mut legacy = Legacy::default();
    for m in list {
        match m.role.as_ref() {
            "user" => user(m, n),
            "assistant" => assistant(m, p, n, &mut legacy),
            role @ ("tool" | "function") => n.apply(Event::ToolEnd {
                call_id: match role {
                    "function" => legacy.current(),
                    _ => m.tool_call_id.unwrap_or_default(),
                },
                name: None,
                args: None,
                outcome: ToolOutcome {
                    status: CallStatus::Success,
                    data: Value::String(content_text(m.content.as_ref())),
                },
                duration_ms: None,
            }),
            "system" | "developer" => {}
            _ => n.apply(Event::Unknown),
        }
    }
    end_open_response(n);
}

/// The text of `content`: a string, or its text parts joined.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn user(m: Message<'_>, n: &mut dyn Sink) {
    let attachments = match &m.content {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                Some("image_url") => Some(Attachment {
                    kind: "image".to_owned(),
                    // A `data:` URL is the image itself, not a name for it.
                    path: p
                        .pointer("/image_url/url")
                        .and_then(Value::as_str)
                        .filter(|u| !u.starts_with("data:"))
                        .map(str::to_owned),
                    ..Attachment::default()
                }),
                Some("file" | "input_audio") => Some(Attachment {
                    kind: "file".to_owned(),
                    path: p
                        .pointer("/file/filename")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    ..Attachment::default()
                }),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    n.apply(Event::UserPrompt {
        text: Cow::Owned(content_text(m.content.as_ref())),
        attachments,
    });
}

fn assistant(m: Message<'_>, p: &Payload<'_>, n: &mut dyn Sink, legacy: &mut Legacy) {
    let reasoning = m.reasoning_content.or_else(|| {
        m.reasoning
            .as_ref()?
            .as_str()
            .map(|s| Cow::Owned(s.to_owned()))
    });
    if let Some(text) = reasoning.filter(|t| !t.is_empty()) {
        n.apply(Event::Thinking(text));
        n.apply(Event::ThinkingEnd {
            signature: None,
            redacted: false,
        });
    }
    let text = content_text(m.content.as_ref());
    if !text.is_empty() {
        n.apply(Event::Text(Cow::Owned(text)));
    }
    if let Some(refusal) = m.refusal.filter(|r| !r.is_empty()) {
        n.apply(Event::Text(Cow::Owned(refusal)));
    }
    let calls = m.tool_calls.unwrap_or_default().into_iter().enumerate();
    let calls = calls.map(|(i, c)| (c.id.unwrap_or_else(|| format!("call_{i}")), c.function));
    let legacy = m.function_call.map(|f| (legacy.next(), Some(f)));
    for (call_id, function) in calls.chain(legacy) {
        let (name, arguments) = function.map(|f| (f.name, f.arguments)).unwrap_or_default();
        let name = name.unwrap_or_else(|| "tool".to_owned());
        let args = match arguments {
            Some(Value::String(s)) => tool_input(&s, &call_id, &name, &p.at, n),
            Some(v) => v,
            None => Value::Object(Default::default()),
        };
        n.apply(Event::ToolStart {
            call_id,
            name,
            args,
            doc_id: None,
        });
    }
}
