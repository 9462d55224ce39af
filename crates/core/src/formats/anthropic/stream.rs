//! Anthropic's streamed events: `message_start`, `content_block_start`,
//! `content_block_delta` (`text_delta`, `thinking_delta`, `signature_delta`,
//! `input_json_delta`, `compaction_delta`), `content_block_stop`, `message_delta`, `message_stop`, `ping`,
//! `error`. Tool input arrives as pieces of JSON text and is parsed when its block
//! stops. Claude Code's `stream_event` lines carry the same events inside its own
//! session ([`Stream::nested`]).

use std::borrow::Cow;

use serde_json::Value;

use super::blocks::{Block, assistant_block};
use crate::formats::common::{for_each_event, is_done_sentinel, provider_error, tool_input};
use crate::formats::fields::{self, Fields, Read, wire};
use crate::formats::usage::WireUsage;
use crate::formats::{Adapter, Payload, json_error};
use crate::normalize::{Event, SessionInfo, Sink};

wire! {
    struct StreamEvent<'v> {
        kind: str "type" or_default,
        index: u64 "index",
        message: object<StartMessage> "message",
        content_block: object<Block<'v>> "content_block",
        delta: object<Delta<'v>> "delta",
        usage: object<WireUsage> "usage",
        error: value "error",
    }
}

wire! {
    struct StartMessage {
        id: string "id",
        model: string "model",
        usage: object<WireUsage> "usage",
    }
}

wire! {
    /// A block delta, or the message delta (`stop_reason`).
    struct Delta<'v> {
        kind: str "type" or_default,
        text: str "text",
        thinking: str "thinking",
        signature: str "signature",
        partial_json: str "partial_json",
        /// `compaction_delta`: a piece of the summary.
        content: str "content",
        stop_reason: string "stop_reason",
    }
}

/// A content block between its start and its stop.
enum Open {
    Text,
    Thinking {
        signature: String,
    },
    Tool {
        id: String,
        name: String,
        json: String,
    },
    /// A `compaction` block: its summary, shown when the block stops.
    Compaction(String),
    Other,
}

/// The stream's state: open blocks by index, and the message being read.
#[derive(Default)]
pub(in crate::formats) struct Stream {
    open: Vec<(u64, Open)>,
    message_id: Option<String>,
    /// Inside Claude Code: a message is one step of the session's response, which
    /// the session's own `result` ends.
    nested: bool,
}

impl Adapter for Stream {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        for_each_event(p, n, |p, n| self.event(p, n));
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        // Keep the input of tool calls still streaming; the response stays cut off.
        self.close_all(None, n);
    }
}

impl Stream {
    /// A stream inside Claude Code's session.
    pub(in crate::formats) fn nested() -> Stream {
        Stream {
            nested: true,
            ..Stream::default()
        }
    }

    /// The id of the message being streamed, once its start has come.
    pub(in crate::formats) fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }

    /// Reads one event.
    fn event(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        if is_done_sentinel(p.text) {
            return;
        }
        let read = fields::parse(p.text).and_then(|tree| {
            let f = Fields::of(&tree, "the event")?;
            self.read_event(f, &p, n)
        });
        if let Err(e) = read {
            n.apply(Event::Error(json_error(&e, &p)));
        }
    }

    /// Reads one event from its fields (`p` says where it is). An event not of the
    /// shape of Anthropic's is an error, returned before anything is applied.
    pub(in crate::formats) fn read_event(
        &mut self,
        f: Fields<'_, '_>,
        p: &Payload<'_>,
        n: &mut dyn Sink,
    ) -> Read<()> {
        let e = StreamEvent::read(f)?;
        match e.kind {
            "message_start" => self.message_start(e, n),
            "content_block_start" => self.block_start(e, p, n),
            "content_block_delta" => self.block_delta(e, n),
            "content_block_stop" => {
                let index = e.index.unwrap_or(0);
                if let Some(i) = self.open.iter().position(|(k, _)| *k == index) {
                    let (_, block) = self.open.remove(i);
                    close(block, Some(p), n);
                }
            }
            "message_delta" => {
                n.apply(Event::stopped(e.delta.and_then(|d| d.stop_reason)));
                if let Some(u) = e.usage {
                    n.apply(Event::Usage(u.into()));
                }
            }
            "message_stop" => {
                self.close_all(Some(p), n);
                if !self.nested {
                    n.apply(Event::Done { error: None });
                }
            }
            "ping" => {}
            "error" => {
                self.close_all(Some(p), n);
                let info = provider_error(e.error.as_ref().unwrap_or(&Value::Null), &p.at);
                if self.nested {
                    n.apply(Event::Error(info));
                } else {
                    n.apply(Event::Done { error: Some(info) });
                }
            }
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    fn message_start(&mut self, e: StreamEvent<'_>, n: &mut dyn Sink) {
        let Some(m) = e.message else {
            return n.apply(Event::Unknown);
        };
        if m.id.is_some() && m.id == self.message_id {
            return; // a proxy repeated the start: nothing new
        }
        self.message_id.clone_from(&m.id);
        self.open.clear();
        let info = SessionInfo {
            response_id: m.id,
            model: m.model,
            ..SessionInfo::default()
        };
        n.apply(if self.nested {
            Event::Session(info)
        } else {
            Event::ResponseStart(info)
        });
        if let Some(u) = m.usage {
            n.apply(Event::Usage(u.into()));
        }
    }

    fn block_start(&mut self, e: StreamEvent<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
        let index = e.index.unwrap_or(0);
        let Some(block) = e.content_block else {
            return n.apply(Event::Unknown);
        };
        if let Some(i) = self.open.iter().position(|(k, _)| *k == index) {
            // A block started again without its stop: close the first one.
            let (_, old) = self.open.remove(i);
            close(old, Some(p), n);
        }
        let open = match block.kind {
            "text" => {
                if let Some(text) = block.text.filter(|t| !t.is_empty()) {
                    n.apply(Event::Text(Cow::Borrowed(text)));
                }
                Open::Text
            }
            "thinking" => {
                // Opens the thinking document at once; the text follows as deltas.
                n.apply(Event::Thinking(Cow::Borrowed(
                    block.thinking.unwrap_or_default(),
                )));
                Open::Thinking {
                    signature: block.signature.unwrap_or_default(),
                }
            }
            "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                let id = block.id.clone().unwrap_or_else(|| format!("block_{index}"));
                let name = block.name.clone().unwrap_or_else(|| "tool".to_owned());
                assistant_block(
                    Block {
                        id: Some(id.clone()),
                        name: Some(name.clone()),
                        ..block
                    },
                    n,
                );
                Open::Tool {
                    id,
                    name,
                    json: String::new(),
                }
            }
            "compaction" => {
                n.apply(Event::tool_start(
                    "compaction".to_owned(),
                    "compaction".to_owned(),
                    Value::Object(Default::default()),
                ));
                Open::Compaction(block.content_text.unwrap_or_default().to_owned())
            }
            _ => {
                // Whole blocks: redacted thinking, server tool results …
                assistant_block(block, n);
                Open::Other
            }
        };
        self.open.push((index, open));
    }

    fn block_delta(&mut self, e: StreamEvent<'_>, n: &mut dyn Sink) {
        let index = e.index.unwrap_or(0);
        let Some(d) = e.delta else {
            return n.apply(Event::Unknown);
        };
        let open = self
            .open
            .iter_mut()
            .find(|(k, _)| *k == index)
            .map(|(_, o)| o);
        match (d.kind, open) {
            ("text_delta", _) => {
                if let Some(text) = d.text.filter(|t| !t.is_empty()) {
                    n.apply(Event::Text(Cow::Borrowed(text)));
                }
            }
            ("thinking_delta", _) => {
                if let Some(text) = d.thinking.filter(|t| !t.is_empty()) {
                    n.apply(Event::Thinking(Cow::Borrowed(text)));
                }
            }
            ("signature_delta", Some(Open::Thinking { signature })) => {
                signature.push_str(d.signature.unwrap_or_default());
            }
            ("input_json_delta", Some(Open::Tool { json, .. })) => {
                json.push_str(d.partial_json.unwrap_or_default());
            }
            ("compaction_delta", Some(Open::Compaction(summary))) => {
                summary.push_str(d.content.unwrap_or_default());
            }
            ("citations_delta", _) => {}
            _ => n.apply(Event::Unknown),
        }
    }

    /// Closes every open block (the message ended, or the stream did).
    fn close_all(&mut self, p: Option<&Payload<'_>>, n: &mut dyn Sink) {
        for (_, block) in std::mem::take(&mut self.open) {
            close(block, p, n);
        }
    }
}

/// A block's stop: thinking gets its signature, a tool call its parsed input.
fn close(block: Open, p: Option<&Payload<'_>>, n: &mut dyn Sink) {
    match block {
        Open::Thinking { signature } => n.apply(Event::ThinkingEnd {
            signature: Some(signature).filter(|s| !s.is_empty()),
            redacted: false,
        }),
        Open::Tool { id, name, json } if !json.trim().is_empty() => {
            let args = match p {
                Some(p) => tool_input(&json, &id, &name, &p.at, n),
                None => docstream_model::read_json::from_str(&json).unwrap_or(Value::String(json)),
            };
            n.apply(Event::ToolArgs { call_id: id, args });
        }
        Open::Compaction(summary) => super::server_tools::compaction(&summary, n),
        Open::Text | Open::Tool { .. } | Open::Other => {}
    }
}
