//! An OpenAI message history: a JSON array of messages, a request with `messages`, or
//! one `chat.completion` (its choice's `message`). Roles `user`, `assistant` (with
//! `reasoning_content`/`reasoning`, `content`, `tool_calls`), `tool`; `system` and
//! `developer` have nothing to show. The legacy `function_call` of an assistant message
//! is a call of its own (`function_call_1`, `function_call_2` … in order), and a
//! `function` message is the result of the latest one.

use std::borrow::Cow;

use serde_json::Value;
use serde_json_borrow::Value as Tree;

use super::WireUsage;
use crate::formats::common::{end_open_response, iso8601, tool_input};
use crate::formats::fields::{self, Fields, Read, each, wire};
use crate::formats::{Adapter, Payload, json_error, or_report};
use crate::model::{Attachment, CallStatus};
use crate::normalize::{Event, SessionInfo, Sink, ToolOutcome};

wire! {
    struct Message<'v> {
        role: str "role" or_default,
        content: value "content",
        reasoning_content: str "reasoning_content",
        /// `reasoning`: text in some servers' messages, an object in others' (not read).
        reasoning: str "reasoning" lenient,
        refusal: string "refusal",
        tool_calls: list<ToolCall> "tool_calls" or_default,
        function_call: object<Function> "function_call",
        tool_call_id: string "tool_call_id",
    }
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

wire! {
    struct ToolCall {
        id: string "id",
        function: object<Function> "function",
    }
}

wire! {
    struct Function {
        name: string "name",
        arguments: value "arguments",
    }
}

wire! {
    /// A request (`messages`), or a `chat.completion` (`choices`).
    struct Top<'v> {
        messages: list<Message<'v>> "messages",
        choices: list<Choice<'v>> "choices",
        id: string "id",
        model: string "model",
        created: u64 "created",
        usage: object<WireUsage> "usage",
    }
}

wire! {
    struct Choice<'v> {
        message: object<Message<'v>> "message",
        finish_reason: string "finish_reason",
    }
}

/// A history (a JSON array of messages) or a request or completion.
enum Payloaded<'v> {
    History(Vec<Message<'v>>),
    Top(Top<'v>),
}

fn read<'v>(tree: &'v Tree<'_>) -> Read<Payloaded<'v>> {
    match tree {
        Tree::Array(list) => Ok(Payloaded::History(each(
            list,
            "the history",
            Message::read,
        )?)),
        other => Ok(Payloaded::Top(Top::read(Fields::of(
            other,
            "the payload",
        )?)?)),
    }
}

/// The adapter (no state: each payload is a whole history).
#[derive(Default)]
pub(in crate::formats) struct Messages;

impl Adapter for Messages {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let top = match read(&tree) {
            Ok(Payloaded::History(list)) => return history(list, &p, n),
            Ok(Payloaded::Top(top)) => top,
            Err(e) => return n.apply(Event::Error(json_error(&e, &p))),
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
        n.apply(Event::stopped(choice.finish_reason));
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
        match m.role {
            "user" => user(m, n),
            "assistant" => assistant(m, p, n, &mut legacy),
            role @ ("tool" | "function") => n.apply(Event::tool_end(
                match role {
                    "function" => legacy.current(),
                    _ => m.tool_call_id.unwrap_or_default(),
                },
                ToolOutcome {
                    status: CallStatus::Success,
                    data: Value::String(content_text(m.content.as_ref())),
                },
            )),
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
    let reasoning = m.reasoning_content.or(m.reasoning);
    if let Some(text) = reasoning.filter(|t| !t.is_empty()) {
        n.apply(Event::Thinking(Cow::Borrowed(text)));
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
    let calls = m.tool_calls.into_iter().enumerate();
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
        n.apply(Event::tool_start(call_id, name, args));
    }
}
