//! The Responses API's streamed events, as SSE (`event: response.created` …), NDJSON
//! or a JSON array of events:
//!
//! - `response.created` / `queued` / `in_progress` start the response (once per id);
//!   `response.completed`, `response.incomplete` (stopped early: an `error` document
//!   says why) and `response.failed` end it, with its usage. An `error` event ends the
//!   open response as failed (the `response.failed` that may follow repeats it).
//! - `response.output_item.added` shows a call as started; `response.output_item.done`
//!   shows the item whole ([`items`](super::items)).
//! - `response.output_text.delta`, `response.refusal.delta`: prose;
//!   `response.reasoning_summary_text.delta` (a paragraph per summary part) and
//!   `response.reasoning_text.delta` (where there is no summary): thinking. The
//!   `*.done` of a text, and the item's `done`, bring it whole: what the deltas left
//!   out (a stream that dropped some) is shown then.
//! - The deltas of a call's input (`function_call_arguments`, `custom_tool_call_input`,
//!   `mcp_call_arguments`, `code_interpreter_call_code`, `apply_patch_call_operation_diff`,
//!   `shell_call_command`) are appended and read once, when the item is done; only a
//!   stream cut off before that shows what had come.
//! - Progress events (`*.in_progress`, `*.searching`, `*.interpreting`, `*.generating`,
//!   `*.partial_image`, `*.completed` of a tool, `content_part.*`, `*.done` of a text
//!   or of arguments, `output_text.annotation.added`, `mcp_list_tools.*`) add nothing
//!   the item's `done` does not; other event types are counted as not understood.

use serde_json::Value;
use serde_json_borrow::Value as Tree;

use crate::formats::common::{for_each_event, is_done_sentinel, provider_error};
use crate::formats::fields::{self, Fields, Read, wire};
use crate::formats::{Adapter, Payload, json_error};
use crate::normalize::{Event, Sink};

use super::items::{Head, Item, Items, end};

wire! {
    /// One event, flat.
    struct StreamEvent<'v, 'a> {
        kind: str "type" or_default,
        response: object "response",
        item: object "item",
        item_id: str "item_id",
        output_index: u64 "output_index",
        content_index: u64 "content_index",
        summary_index: u64 "summary_index",
        /// Text deltas are strings; a hosted shell's output delta is an object (not read).
        delta: str "delta" lenient,
        error: get "error",
        /// The whole event (an `error` event may carry its fields at the top).
        whole: Fields<'v, 'a> = Ok,
    }
}

impl<'v, 'a> StreamEvent<'v, 'a> {
    /// The item an event is about: `item_id`, else its place in the output.
    fn item_key(&self) -> String {
        match (self.item_id, self.output_index) {
            (Some(id), _) => id.to_owned(),
            (None, Some(i)) => format!("#{i}"),
            (None, None) => String::new(),
        }
    }
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct ResponsesStream {
    /// The response being read, by id, while it is open.
    open: Option<String>,
    /// A response an `error` event ended: its `response.failed` adds nothing.
    failed: Option<String>,
    items: Items,
}

impl Adapter for ResponsesStream {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        // `[DONE]` (some proxies end the stream with it) would read as a JSON array.
        if is_done_sentinel(p.text) {
            return;
        }
        for_each_event(p, n, |p, n| self.event(p, n));
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        // Cut off: the calls keep the input that had come; the normaliser says the
        // response was cut off.
        self.items.cut_off(n);
    }
}

impl ResponsesStream {
    fn event(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let read = fields::parse(p.text).and_then(|tree| {
            let e = StreamEvent::read(Fields::of(&tree, "the event")?)?;
            self.apply(e, &p, n)
        });
        if let Err(e) = read {
            n.apply(Event::Error(json_error(&e, &p)));
        }
    }

    /// Applies one event; an event not of its type's shape is an error, returned
    /// before anything is applied.
    fn apply(&mut self, e: StreamEvent<'_, '_>, p: &Payload<'_>, n: &mut dyn Sink) -> Read<()> {
        let kind = e.kind;
        match kind {
            "response.created" | "response.queued" | "response.in_progress" => {
                if let Some(head) = e.response.map(Head::read).transpose()? {
                    self.start(&head, n);
                }
            }
            "response.completed" | "response.incomplete" | "response.failed" => {
                let Some(head) = e.response.map(Head::read).transpose()? else {
                    n.apply(Event::Unknown);
                    return Ok(());
                };
                if self.failed.is_some() && self.failed == head.id {
                    return Ok(()); // its `error` event ended it already
                }
                if self.open.is_none() {
                    self.start(&head, n);
                }
                self.open = None;
                self.items.cut_off(n);
                end(head, &p.at, n);
            }
            "error" => {
                // `{type: "error", code, message}`, or the error in `error`.
                let error = match e.error {
                    Some(error @ Tree::Object(_)) => Value::from(error),
                    _ => {
                        let mut top = serde_json::Map::new();
                        for key in ["type", "code", "message", "param"] {
                            if let Some(v) = e.whole.value(key) {
                                top.insert(key.to_owned(), v);
                            }
                        }
                        Value::Object(top)
                    }
                };
                let info = provider_error(&error, &p.at);
                self.items.cut_off(n);
                self.failed = self.open.take();
                n.apply(Event::Done { error: Some(info) });
            }
            "response.output_item.added" | "response.output_item.done" => {
                let Some(item) = e.item.map(Item::read).transpose()? else {
                    n.apply(Event::Unknown);
                    return Ok(());
                };
                if kind.ends_with("added") {
                    self.items.added(item, n);
                } else {
                    self.items.done(item, p, n);
                }
            }
            "response.output_text.delta" | "response.refusal.delta" => {
                let (key, part) = (e.item_key(), e.content_index.unwrap_or_default());
                self.items.text(&key, part, e.delta.unwrap_or_default(), n);
            }
            "response.output_text.done" | "response.refusal.done" => {
                let (key, part) = (e.item_key(), e.content_index.unwrap_or_default());
                let field = if kind.contains("refusal") {
                    "refusal"
                } else {
                    "text"
                };
                let whole = e.whole.str(field)?.unwrap_or_default();
                self.items.text_done(&key, part, whole, n);
            }
            "response.reasoning_summary_text.done" => {
                let key = e.item_key();
                let part = e.summary_index.unwrap_or_default();
                let whole = e.whole.str("text")?.unwrap_or_default();
                self.items.thinking_done(&key, part, whole, n);
            }
            "response.reasoning_summary_text.delta" => {
                let key = e.item_key();
                let part = e.summary_index.unwrap_or_default();
                self.items
                    .thinking(&key, part, e.delta.unwrap_or_default(), n);
            }
            "response.reasoning_text.delta" => {
                let (key, part) = (e.item_key(), e.content_index.unwrap_or_default());
                self.items
                    .raw_thinking(&key, part, e.delta.unwrap_or_default(), n);
            }
            "response.reasoning_text.done" => {
                let (key, part) = (e.item_key(), e.content_index.unwrap_or_default());
                let whole = e.whole.str("text")?.unwrap_or_default();
                self.items.raw_thinking_done(&key, part, whole, n);
            }
            "response.function_call_arguments.delta"
            | "response.custom_tool_call_input.delta"
            | "response.mcp_call_arguments.delta"
            | "response.code_interpreter_call_code.delta"
            | "response.apply_patch_call_operation_diff.delta"
            | "response.shell_call_command.delta" => {
                self.items
                    .input_delta(&e.item_key(), e.delta.unwrap_or_default());
            }
            _ if is_progress(kind) => {}
            _ => n.apply(Event::Unknown),
        }
        Ok(())
    }

    /// A response starts, unless it is the one open (`created`, then `in_progress`).
    fn start(&mut self, head: &Head, n: &mut dyn Sink) {
        if self.open.is_some() && self.open == head.id {
            return;
        }
        self.open = Some(head.id.clone().unwrap_or_default());
        self.items.reset();
        n.apply(Event::ResponseStart(head.info()));
    }
}

/// Events that say a tool or part is progressing: what they say, the item's `done`
/// says too.
fn is_progress(kind: &str) -> bool {
    const SUFFIXES: [&str; 8] = [
        ".in_progress",
        ".searching",
        ".interpreting",
        ".generating",
        ".partial_image",
        ".completed",
        ".failed",
        ".done",
    ];
    const KINDS: [&str; 4] = [
        "response.content_part.added",
        "response.reasoning_summary_part.added",
        "response.output_text.annotation.added",
        "response.shell_call_command.added",
    ];
    (kind.starts_with("response.") && SUFFIXES.iter().any(|s| kind.ends_with(s)))
        || KINDS.contains(&kind)
        || kind == "response.shell_call_output_content.delta"
}
