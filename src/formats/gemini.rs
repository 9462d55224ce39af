//! Gemini `streamGenerateContent` events (seed 002): `candidates[0].content.parts[]`
//! with `text`, `thought: true` (reasoning), `thoughtSignature`, `functionCall`;
//! `finishReason`; `usageMetadata`; `error`. As SSE `data:` events, NDJSON, or one JSON
//! array of events; the Code Assist wrapper `{"response": {…}}` is unwrapped.
//!
//! Gemini sends no final event: a stream whose candidate finished ends with the input;
//! one that did not is cut off.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;

use super::common::{for_each_event, is_done_sentinel, provider_error};
use super::{Adapter, Payload, parse};
use crate::model::Usage;
use crate::normalize::{Event, Normalizer, SessionInfo};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeminiEvent<'a> {
    #[serde(borrow, default)]
    candidates: Vec<Candidate<'a>>,
    #[serde(default)]
    usage_metadata: Option<UsageMetadata>,
    #[serde(default)]
    model_version: Option<String>,
    #[serde(default)]
    response_id: Option<String>,
    #[serde(default)]
    error: Option<Value>,
    /// The Code Assist API wraps each event.
    #[serde(borrow, default)]
    response: Option<Box<GeminiEvent<'a>>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Candidate<'a> {
    #[serde(borrow, default)]
    content: Option<CandidateContent<'a>>,
    #[serde(default)]
    finish_reason: Option<String>,
    #[serde(default)]
    index: u64,
}

#[derive(Deserialize)]
struct CandidateContent<'a> {
    #[serde(borrow, default)]
    parts: Vec<Part<'a>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Part<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(default)]
    thought: bool,
    #[serde(default)]
    thought_signature: Option<String>,
    #[serde(default)]
    function_call: Option<FunctionCall>,
}

#[derive(Deserialize)]
struct FunctionCall {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    args: Option<Value>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct UsageMetadata {
    #[serde(default)]
    prompt_token_count: u64,
    #[serde(default)]
    candidates_token_count: u64,
    #[serde(default)]
    thoughts_token_count: u64,
    #[serde(default)]
    total_token_count: u64,
    #[serde(default)]
    cached_content_token_count: Option<u64>,
}

impl From<UsageMetadata> for Usage {
    fn from(u: UsageMetadata) -> Usage {
        Usage {
            prompt_tokens: u.prompt_token_count,
            // Reasoning counts as output, as OpenAI counts it.
            completion_tokens: u.candidates_token_count + u.thoughts_token_count,
            total_tokens: u.total_token_count,
            cache_read_tokens: u.cached_content_token_count,
            cache_write_tokens: None,
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
}

impl Adapter for GeminiStream {
    fn payload(&mut self, p: Payload<'_>, n: &mut Normalizer) {
        if is_done_sentinel(p.text) {
            return;
        }
        for_each_event(p, n, |p, n| {
            if let Some(e) = parse::<GeminiEvent<'_>>(&p, n) {
                self.event(e, &p, n);
            }
        });
    }

    fn finish(&mut self, n: &mut Normalizer) {
        if self.open && self.finished {
            n.apply(Event::Done { error: None });
        }
    }
}

impl GeminiStream {
    fn event(&mut self, e: GeminiEvent<'_>, p: &Payload<'_>, n: &mut Normalizer) {
        if let Some(inner) = e.response {
            return self.event(*inner, p, n);
        }
        if let Some(error) = &e.error {
            n.apply(Event::Done {
                error: Some(provider_error(error, &p.at)),
            });
            self.open = false;
            return;
        }
        let new_id = e.response_id.is_some() && e.response_id != self.response_id;
        if self.open && self.finished && new_id {
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
            for part in c.content.map(|c| c.parts).unwrap_or_default() {
                self.part(part, n);
            }
            if let Some(reason) = c.finish_reason {
                self.finished = true;
                n.apply(Event::ResponseMeta {
                    duration_ms: None,
                    duration_api_ms: None,
                    request_id: None,
                    stop_reason: Some(reason),
                });
            }
        }
        if let Some(u) = e.usage_metadata {
            n.apply(Event::Usage(u.into()));
        }
    }

    fn part(&mut self, part: Part<'_>, n: &mut Normalizer) {
        if part.thought {
            if let Some(text) = part.text.filter(|t| !t.is_empty()) {
                n.apply(Event::Thinking(text));
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
            n.apply(Event::Text(text));
        }
        if let Some(call) = part.function_call {
            self.calls += 1;
            n.apply(Event::ToolStart {
                call_id: call
                    .id
                    .filter(|id| !id.is_empty())
                    .unwrap_or_else(|| format!("gemini_call_{}", self.calls)),
                name: call.name.unwrap_or_else(|| "tool".to_owned()),
                args: call.args.unwrap_or(Value::Object(Default::default())),
                doc_id: None,
            });
        }
    }
}
