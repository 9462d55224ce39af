//! Streamed `chat.completion.chunk`s: `delta.content`, `delta.reasoning_content` (or
//! `reasoning`), `delta.tool_calls` pieces accumulated by `index` (a later piece never
//! replaces a name or id with an empty one; arguments are JSON text parsed when the call
//! is complete), the legacy `delta.function_call` (one call, read as piece 0),
//! `finish_reason`, a usage chunk with no choices, and `[DONE]`.
//!
//! The response ends at `[DONE]`; a stream whose choice finished but that has no
//! `[DONE]` (NDJSON captures) ends with the input. Only choice 0 is shown.

use std::borrow::Cow;

use serde_json::Value;

use super::WireUsage;
use crate::formats::common::{is_done_sentinel, iso8601, provider_error, tool_input};
use crate::formats::fields::{self, Fields, wire};
use crate::formats::{Adapter, Location, Payload, or_report};
use crate::normalize::{Event, SessionInfo, Sink};

wire! {
    struct Chunk<'v> {
        id: string "id",
        model: string "model",
        created: u64 "created",
        choices: list<Choice<'v>> "choices" or_default,
        usage: object<WireUsage> "usage",
        error: value "error",
    }
}

wire! {
    struct Choice<'v> {
        index: u64 "index" or_default,
        delta: object<Delta<'v>> "delta",
        finish_reason: string "finish_reason",
    }
}

wire! {
    struct Delta<'v> {
        content: str "content",
        reasoning_content: str "reasoning_content",
        /// `reasoning`: text in some servers' chunks, an object in others' (not read).
        reasoning: str "reasoning" lenient,
        refusal: str "refusal",
        tool_calls: list<Piece<'v>> "tool_calls" or_default,
        /// The legacy single call (`functions` instead of `tools`).
        function_call: object<FunctionPiece<'v>> "function_call",
    }
}

wire! {
    /// A piece of a tool call.
    struct Piece<'v> {
        index: u64 "index",
        id: string "id",
        function: object<FunctionPiece<'v>> "function",
    }
}

wire! {
    struct FunctionPiece<'v> {
        name: string "name",
        arguments: str "arguments",
    }
}

/// A tool call being accumulated.
struct Call {
    index: u64,
    id: String,
    name: String,
    arguments: String,
    /// Its `ToolStart` has been applied.
    started: bool,
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct Stream {
    /// A response is open (started and not yet ended).
    open: bool,
    /// Choice 0 finished (`finish_reason`).
    finished: bool,
    id: Option<String>,
    calls: Vec<Call>,
    /// Where the last payload was, for errors found at the end.
    last_at: Option<Location>,
}

impl Adapter for Stream {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        self.last_at = Some(p.at);
        if is_done_sentinel(p.text) {
            self.complete_calls(Some(p.at), n);
            if self.open {
                n.apply(Event::Done { error: None });
            }
            self.open = false;
            self.finished = false;
            return;
        }
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let Some(chunk) = or_report(Fields::of(&tree, "the chunk").and_then(Chunk::read), &p, n)
        else {
            return;
        };
        if let Some(error) = &chunk.error {
            self.complete_calls(Some(p.at), n);
            n.apply(Event::Done {
                error: Some(provider_error(error, &p.at)),
            });
            self.open = false;
            return;
        }
        self.chunk(chunk, &p, n);
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        if self.finished {
            self.complete_calls(self.last_at, n);
            if self.open {
                n.apply(Event::Done { error: None });
            }
        } else {
            // Cut off: keep what the calls received; the normaliser reports the cut.
            self.complete_calls(None, n);
        }
    }
}

impl Stream {
    fn chunk(&mut self, chunk: Chunk<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
        let choices = chunk.choices;
        let new_id = chunk.id.is_some() && chunk.id != self.id;
        if self.open && self.finished && new_id && !choices.is_empty() {
            // A finished response followed by another one.
            self.complete_calls(Some(p.at), n);
            n.apply(Event::Done { error: None });
            self.open = false;
        }
        if !self.open {
            self.open = true;
            self.finished = false;
            self.id.clone_from(&chunk.id);
            n.apply(Event::ResponseStart(SessionInfo {
                response_id: chunk.id,
                model: chunk.model,
                created: chunk.created.map(iso8601),
                ..SessionInfo::default()
            }));
        }
        for choice in choices.into_iter().filter(|c| c.index == 0) {
            if let Some(d) = choice.delta {
                self.delta(d, n);
            }
            if let Some(reason) = choice.finish_reason {
                self.complete_calls(Some(p.at), n);
                self.finished = true;
                n.apply(Event::stopped(Some(reason)));
            }
        }
        if let Some(u) = chunk.usage {
            n.apply(Event::Usage(u.into()));
        }
    }

    fn delta(&mut self, d: Delta<'_>, n: &mut dyn Sink) {
        let reasoning = d.reasoning_content.or(d.reasoning);
        if let Some(text) = reasoning.filter(|t| !t.is_empty()) {
            n.apply(Event::Thinking(Cow::Borrowed(text)));
        }
        if let Some(text) = d.content.filter(|t| !t.is_empty()) {
            n.apply(Event::Text(Cow::Borrowed(text)));
        }
        if let Some(text) = d.refusal.filter(|t| !t.is_empty()) {
            n.apply(Event::Text(Cow::Borrowed(text)));
        }
        for piece in d.tool_calls {
            self.piece(piece, n);
        }
        if let Some(function) = d.function_call {
            let piece = Piece {
                index: Some(0),
                id: Some("function_call".to_owned()),
                function: Some(function),
            };
            self.piece(piece, n);
        }
    }

    /// Adds a piece to the call with its `index`.
    fn piece(&mut self, piece: Piece<'_>, n: &mut dyn Sink) {
        let index = piece.index.unwrap_or_else(|| {
            // No index: a new id is a new call, anything else continues the last one.
            let known = |id: &String| self.calls.iter().any(|c| &c.id == id);
            match (&piece.id, self.calls.last()) {
                (Some(id), Some(last)) if !id.is_empty() && !known(id) => {
                    last.index.saturating_add(1)
                }
                (_, Some(last)) => last.index,
                (_, None) => 0,
            }
        });
        let at = match self.calls.iter().position(|c| c.index == index) {
            Some(at) => at,
            None => {
                self.calls.push(Call {
                    index,
                    id: String::new(),
                    name: String::new(),
                    arguments: String::new(),
                    started: false,
                });
                self.calls.len() - 1
            }
        };
        let call = &mut self.calls[at];
        if let Some(id) = piece.id.filter(|s| !s.is_empty()) {
            if !call.started {
                call.id = id;
            }
        }
        if let Some(f) = piece.function {
            if let Some(name) = f.name.filter(|s| !s.is_empty()) {
                if !call.started {
                    call.name = name;
                }
            }
            if let Some(args) = f.arguments {
                call.arguments.push_str(args);
            }
        }
        if !call.started && !call.name.is_empty() {
            start(call, n);
        }
    }

    /// The calls are complete: each gets its parsed arguments. Without a location
    /// (a cut-off stream) arguments that are not JSON are kept as text, unreported.
    fn complete_calls(&mut self, at: Option<Location>, n: &mut dyn Sink) {
        for mut c in std::mem::take(&mut self.calls) {
            start(&mut c, n);
            if c.arguments.trim().is_empty() {
                continue;
            }
            let args = match &at {
                Some(at) => tool_input(&c.arguments, &c.id, &c.name, at, n),
                None => docstream_model::read_json::from_str(&c.arguments)
                    .unwrap_or_else(|_| Value::String(c.arguments.clone())),
            };
            n.apply(Event::ToolArgs {
                call_id: c.id,
                args,
            });
        }
    }
}

/// Applies a call's start, once. A call without an id gets one from its index; a
/// call that never got a name is started when it completes, as `tool`.
fn start(c: &mut Call, n: &mut dyn Sink) {
    if c.started {
        return;
    }
    c.started = true;
    if c.id.is_empty() {
        c.id = format!("call_{}", c.index);
    }
    n.apply(Event::ToolStart {
        call_id: c.id.clone(),
        name: if c.name.is_empty() {
            "tool".to_owned()
        } else {
            c.name.clone()
        },
        args: Value::Object(Default::default()),
        doc_id: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::Sink;
    use serde_json::json;

    /// A sink that keeps what it is given: the adapter is read on its own.
    #[derive(Default)]
    struct Recorder(Vec<String>);

    impl Sink for Recorder {
        fn apply(&mut self, event: Event<'_>) {
            self.0.push(format!("{event:?}"));
        }

        fn response_open(&self) -> bool {
            false
        }

        fn turn_count(&self) -> usize {
            0
        }
    }

    #[test]
    fn a_legacy_function_call_is_one_call_with_its_arguments() {
        let chunks = [
            r#"{"choices":[{"index":0,"delta":{"role":"assistant","function_call":{"name":"get_weather","arguments":""}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"function_call":{"arguments":"{\"city\":"}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"function_call":{"arguments":"\"Oslo\"}"}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"function_call"}]}"#,
            "[DONE]",
        ];
        let mut stream = Stream::default();
        let mut sink = Recorder::default();
        for (i, text) in chunks.iter().enumerate() {
            let at = Location {
                line: Some(i as u64 + 1),
                offset: 0,
            };
            stream.payload(
                Payload {
                    text,
                    event: None,
                    at,
                },
                &mut sink,
            );
        }
        let calls: Vec<&String> = sink
            .0
            .iter()
            .filter(|e| {
                ["ToolStart", "ToolArgs", "Done"]
                    .iter()
                    .any(|k| e.starts_with(k))
            })
            .collect();
        let expected = [
            Event::tool_start(
                "function_call".to_owned(),
                "get_weather".to_owned(),
                json!({}),
            ),
            Event::ToolArgs {
                call_id: "function_call".to_owned(),
                args: json!({"city": "Oslo"}),
            },
            Event::Done { error: None },
        ]
        .map(|e| format!("{e:?}"));
        assert_eq!(calls, expected.iter().collect::<Vec<_>>());
    }
}
