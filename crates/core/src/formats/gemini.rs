//! Gemini `streamGenerateContent` events (seed 002): `candidates[0].content.parts[]`
//! with `text`, `thought: true` (reasoning), `thoughtSignature`, `functionCall`;
//! `finishReason`; `usageMetadata`; `error`. As SSE `data:` events, NDJSON, or one JSON
//! array of events; the Code Assist wrapper `{"response": {…}}` is unwrapped.
//!
//! Gemini 3 can stream a call's arguments (`streamFunctionCallArguments`): a
//! `functionCall` with a `name` and `willContinue: true`, then nameless ones whose
//! `partialArgs` each set (or, for strings, extend) the value at a JSON path, until one
//! without `willContinue`. The call starts when it is named and gets its arguments, whole,
//! when it ends (or when a new call, a finish, an error or the end of the input cuts it).
//!
//! Gemini sends no final event: a stream whose candidate finished ends with the input;
//! one that did not is cut off.

use std::borrow::Cow;

use serde_json::Value;

use super::common::{for_each_event, is_done_sentinel, provider_error};
use super::fields::{self, Fields, wire};
use super::{Adapter, Payload, json_error};
use crate::model::Usage;
use crate::normalize::{Event, SessionInfo, Sink};

wire! {
    /// One event.
    struct GeminiEvent<'v> {
        candidates: list<Candidate<'v>> "candidates" or_default,
        usage_metadata: object<UsageMetadata> "usageMetadata",
        model_version: string "modelVersion",
        response_id: string "responseId",
        error: value "error",
        /// The Code Assist API wraps each event.
        response: Option<Box<GeminiEvent<'v>>> =
            |f| Ok(f.object("response")?.map(GeminiEvent::read).transpose()?.map(Box::new)),
    }
}

wire! {
    struct Candidate<'v> {
        /// `content.parts`.
        parts: Vec<Part<'v>> = |f| match f.object("content")? {
            Some(content) => Ok(content.list("parts", Part::read)?.unwrap_or_default()),
            None => Ok(Vec::new()),
        },
        finish_reason: string "finishReason",
        index: u64 "index" or_default,
    }
}

wire! {
    struct Part<'v> {
        text: str "text",
        thought: bool "thought" or_default,
        thought_signature: string "thoughtSignature",
        function_call: object<FunctionCall<'v>> "functionCall",
    }
}

wire! {
    struct FunctionCall<'v> {
        id: string "id",
        name: string "name",
        args: value "args",
        /// Pieces of the arguments (streamed function-call arguments).
        partial_args: list<PartialArg<'v>> "partialArgs",
        /// More of this call follows.
        will_continue: bool "willContinue" or_default,
    }
}

wire! {
    /// One piece of a streamed call's arguments: a value at a JSON path.
    struct PartialArg<'v> {
        json_path: str "jsonPath" or_default,
        string_value: str "stringValue",
        number_value: f64 "numberValue",
        bool_value: bool "boolValue",
        /// `nullValue` is there (not null).
        null_value: bool = |f| Ok(f.get("nullValue").is_some()),
    }
}

/// A call whose arguments are still streaming.
struct OpenCall {
    id: String,
    args: Value,
}

impl OpenCall {
    /// Sets the value a piece names; a string piece extends the string already there.
    fn apply(&mut self, piece: PartialArg<'_>) {
        let Some(slot) = json_path_slot(&mut self.args, piece.json_path) else {
            return;
        };
        if let Some(s) = piece.string_value {
            match slot {
                Value::String(have) => have.push_str(s),
                _ => *slot = Value::String(s.to_owned()),
            }
        } else if let Some(x) = piece.number_value {
            // JSON has one number type; a whole one reads back as it was written.
            *slot = if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
                Value::from(x as i64)
            } else {
                serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
            };
        } else if let Some(b) = piece.bool_value {
            *slot = Value::Bool(b);
        } else if piece.null_value {
            *slot = Value::Null;
        }
    }
}

/// Array indexes beyond this in a streamed argument's path are not followed.
const MAX_PATH_INDEX: usize = 10_000;

/// The value a JSON path (`$`, `.name`, `['name']`, `["name"]`, `[3]`) names in `root`,
/// made (as objects, arrays and nulls) where missing. `None` for a path it cannot read,
/// or one that runs through a value of another kind.
fn json_path_slot<'v>(root: &'v mut Value, path: &str) -> Option<&'v mut Value> {
    let mut rest = path.trim().strip_prefix('$')?;
    let mut at = root;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let (key, r) = r.split_at(end);
            if key.is_empty() {
                return None;
            }
            at = object_slot(at, key)?;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('[') {
            let close = r.find(']')?;
            let (inside, r) = (r[..close].trim(), &r[close + 1..]);
            let quoted = inside
                .strip_prefix('\'')
                .and_then(|k| k.strip_suffix('\''))
                .or_else(|| inside.strip_prefix('"').and_then(|k| k.strip_suffix('"')));
            at = match quoted {
                Some(key) => object_slot(at, key)?,
                None => {
                    let i: usize = inside.parse().ok().filter(|i| *i <= MAX_PATH_INDEX)?;
                    if at.is_null() {
                        *at = Value::Array(Vec::new());
                    }
                    let items = at.as_array_mut()?;
                    if items.len() <= i {
                        items.resize(i + 1, Value::Null);
                    }
                    &mut items[i]
                }
            };
            rest = r;
        } else {
            return None;
        }
    }
    Some(at)
}

/// The member `key` of an object (made from a null).
fn object_slot<'v>(at: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    if at.is_null() {
        *at = Value::Object(Default::default());
    }
    Some(at.as_object_mut()?.entry(key).or_insert(Value::Null))
}

wire! {
    struct UsageMetadata {
        prompt_token_count: u64 "promptTokenCount" or_default,
        candidates_token_count: u64 "candidatesTokenCount" or_default,
        thoughts_token_count: u64 "thoughtsTokenCount" or_default,
        total_token_count: u64 "totalTokenCount" or_default,
        cached_content_token_count: u64 "cachedContentTokenCount",
    }
}

impl From<UsageMetadata> for Usage {
    fn from(u: UsageMetadata) -> Usage {
        Usage {
            prompt_tokens: u.prompt_token_count,
            // Reasoning counts as output, as OpenAI counts it.
            completion_tokens: u
                .candidates_token_count
                .saturating_add(u.thoughts_token_count),
            total_tokens: u.total_token_count,
            cache_read_tokens: u.cached_content_token_count,
            cache_write_tokens: None,
            reasoning_tokens: (u.thoughts_token_count > 0).then_some(u.thoughts_token_count),
        }
    }
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct GeminiStream {
    open: bool,
    finished: bool,
    response_id: Option<String>,
    /// Function calls seen, for ids where Gemini sends none.
    calls: u64,
    /// The call whose arguments are streaming.
    open_call: Option<OpenCall>,
}

impl Adapter for GeminiStream {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        if is_done_sentinel(p.text) {
            return;
        }
        for_each_event(p, n, |p, n| {
            // Read whole first: an event of another shape is one error document.
            let read = fields::parse(p.text).and_then(|tree| {
                let e = Fields::of(&tree, "the event").and_then(GeminiEvent::read)?;
                self.event(e, &p, n);
                Ok(())
            });
            if let Err(e) = read {
                n.apply(Event::Error(json_error(&e, &p)));
            }
        });
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        self.close_call(n);
        if self.open && self.finished {
            n.apply(Event::Done { error: None });
        }
    }
}

impl GeminiStream {
    fn event(&mut self, e: GeminiEvent<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
        if let Some(inner) = e.response {
            return self.event(*inner, p, n);
        }
        if let Some(error) = &e.error {
            self.close_call(n);
            n.apply(Event::Done {
                error: Some(provider_error(error, &p.at)),
            });
            self.open = false;
            return;
        }
        let new_id = e.response_id.is_some() && e.response_id != self.response_id;
        if self.open && self.finished && new_id {
            self.close_call(n);
            n.apply(Event::Done { error: None });
            self.open = false;
        }
        if !self.open {
            self.open = true;
            self.finished = false;
            self.response_id.clone_from(&e.response_id);
            n.apply(Event::ResponseStart(SessionInfo {
                response_id: e.response_id,
                model: e.model_version,
                ..SessionInfo::default()
            }));
        }
        for c in e.candidates.into_iter().filter(|c| c.index == 0) {
            for part in c.parts {
                self.part(part, n);
            }
            if let Some(reason) = c.finish_reason {
                self.close_call(n);
                self.finished = true;
                n.apply(Event::stopped(Some(reason)));
            }
        }
        if let Some(u) = e.usage_metadata {
            n.apply(Event::Usage(u.into()));
        }
    }

    fn part(&mut self, part: Part<'_>, n: &mut dyn Sink) {
        if part.thought {
            if let Some(text) = part.text.filter(|t| !t.is_empty()) {
                n.apply(Event::Thinking(Cow::Borrowed(text)));
            }
            if part.thought_signature.is_some() {
                n.apply(Event::ThinkingEnd {
                    signature: part.thought_signature,
                    redacted: false,
                });
            }
            return;
        }
        // A signature on an answer part signs the reasoning before it (shown or not).
        if part.thought_signature.is_some() {
            n.apply(Event::ThinkingEnd {
                signature: part.thought_signature,
                redacted: false,
            });
        }
        if let Some(text) = part.text.filter(|t| !t.is_empty()) {
            n.apply(Event::Text(Cow::Borrowed(text)));
        }
        if let Some(call) = part.function_call {
            self.function_call(call, n);
        }
    }

    fn function_call(&mut self, call: FunctionCall<'_>, n: &mut dyn Sink) {
        let streamed = call.will_continue || call.partial_args.is_some();
        if self.open_call.is_some() && call.name.is_none() {
            // The open call goes on.
        } else {
            self.close_call(n);
            self.calls += 1;
            let call_id = call
                .id
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| format!("gemini_call_{}", self.calls));
            let args = call.args.unwrap_or(Value::Object(Default::default()));
            let name = call.name.unwrap_or_else(|| "tool".to_owned());
            if !streamed {
                return n.apply(Event::tool_start(call_id, name, args));
            }
            // Streamed: started empty, given its arguments whole when it ends.
            n.apply(Event::tool_start(
                call_id.clone(),
                name,
                Value::Object(Default::default()),
            ));
            self.open_call = Some(OpenCall { id: call_id, args });
        }
        let Some(open) = self.open_call.as_mut() else {
            return;
        };
        for piece in call.partial_args.unwrap_or_default() {
            open.apply(piece);
        }
        if !call.will_continue {
            self.close_call(n);
        }
    }

    /// Ends the call whose arguments were streaming: it gets them, whole.
    fn close_call(&mut self, n: &mut dyn Sink) {
        if let Some(call) = self.open_call.take() {
            n.apply(Event::ToolArgs {
                call_id: call.id,
                args: call.args,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_paths_make_what_they_name() {
        let mut v = json!({});
        *json_path_slot(&mut v, "$.a.b").unwrap() = json!(1);
        *json_path_slot(&mut v, "$['c d'][1]").unwrap() = json!("x");
        *json_path_slot(&mut v, "$[\"e\"]").unwrap() = json!(true);
        assert_eq!(v, json!({"a": {"b": 1}, "c d": [null, "x"], "e": true}));
        for bad in ["", "a", "$.", "$[", "$[x]", "$[10001]", "$.a.b.c", "$..a"] {
            assert!(json_path_slot(&mut v, bad).is_none(), "{bad}");
        }
        assert!(json_path_slot(&mut v, "$").is_some());
    }
}
