//! Gemini stream events → OpenAI `chat.completion.chunk`s (seed 002).
//!
//! Feed each Gemini SSE `data:` payload to [`GeminiToOpenAi::convert`]; it returns the
//! OpenAI chunks for it. Thought parts become `delta.reasoning_content`, function calls
//! `delta.tool_calls` (numbered by `index` across the stream, arguments as a JSON
//! string), text `delta.content`; `finishReason` becomes `finish_reason` (`tool_calls`
//! once a function was called) and `usageMetadata` a usage chunk. The `v1internal`
//! wrapper (`{"response": {...}}`) is accepted too. Thought signatures are kept in the
//! converter's [`SignatureCache`].
//!
//! ```
//! use docstream_convert::gemini_to_openai::GeminiToOpenAi;
//!
//! let mut conv = GeminiToOpenAi::new("chatcmpl-1", "gemini-3-pro");
//! let chunks = conv
//!     .convert(r#"{"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}"#)
//!     .unwrap();
//! assert_eq!(chunks[0]["choices"][0]["delta"]["content"], "Hi");
//! ```

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::thinking::SignatureCache;

/// The converter's state for one stream.
#[derive(Debug, Clone)]
pub struct GeminiToOpenAi {
    id: String,
    model: String,
    tool_index: usize,
    signatures: SignatureCache,
}

#[derive(Deserialize)]
struct Event<'a> {
    #[serde(default, borrow)]
    response: Option<Box<Event<'a>>>,
    #[serde(default, borrow)]
    candidates: Vec<Candidate<'a>>,
    #[serde(default, rename = "usageMetadata")]
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Candidate<'a> {
    #[serde(default, borrow)]
    content: Option<Content<'a>>,
    #[serde(default, rename = "finishReason")]
    finish_reason: Option<&'a str>,
}

#[derive(Deserialize)]
struct Content<'a> {
    #[serde(default, borrow)]
    parts: Vec<Part<'a>>,
}

#[derive(Deserialize)]
struct Part<'a> {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    thought: bool,
    #[serde(default, borrow, rename = "thoughtSignature")]
    thought_signature: Option<Cow<'a, str>>,
    #[serde(default, rename = "functionCall")]
    function_call: Option<FunctionCall>,
}

#[derive(Deserialize)]
struct FunctionCall {
    name: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    args: Value,
}

#[derive(Deserialize)]
struct Usage {
    #[serde(default, rename = "promptTokenCount")]
    prompt: u64,
    #[serde(default, rename = "candidatesTokenCount")]
    candidates: u64,
    #[serde(default, rename = "thoughtsTokenCount")]
    thoughts: u64,
    #[serde(default, rename = "totalTokenCount")]
    total: Option<u64>,
}

impl GeminiToOpenAi {
    /// A converter whose chunks carry this `id` and `model`.
    pub fn new(id: impl Into<String>, model: impl Into<String>) -> Self {
        GeminiToOpenAi {
            id: id.into(),
            model: model.into(),
            tool_index: 0,
            signatures: SignatureCache::default(),
        }
    }

    /// The thought signatures seen so far.
    pub fn signatures(&self) -> &SignatureCache {
        &self.signatures
    }

    /// Converts one Gemini event (the JSON of one SSE `data:` line) into OpenAI chunks.
    pub fn convert(&mut self, data: &str) -> Result<Vec<Value>, serde_json::Error> {
        let mut event: Event<'_> = docstream_model::read_json::from_str(data)?;
        if let Some(inner) = event.response.take() {
            event = *inner;
        }
        let mut out = Vec::new();
        for candidate in &event.candidates {
            for part in candidate.content.iter().flat_map(|c| &c.parts) {
                if let Some(signature) = &part.thought_signature {
                    self.signatures.observe(signature);
                }
                if let Some(call) = &part.function_call {
                    let id = call
                        .id
                        .clone()
                        .unwrap_or_else(|| format!("call_{}_{}", self.id, self.tool_index));
                    let delta = json!({"tool_calls": [{
                        "index": self.tool_index,
                        "id": id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.args.to_string()}
                    }]});
                    self.tool_index += 1;
                    out.push(self.chunk(delta, None));
                } else if let Some(text) = &part.text {
                    let delta = if part.thought {
                        json!({"role": "assistant", "content": null, "reasoning_content": text})
                    } else {
                        json!({"content": text})
                    };
                    out.push(self.chunk(delta, None));
                }
            }
            if let Some(reason) = candidate.finish_reason {
                let reason = if self.tool_index > 0 {
                    "tool_calls"
                } else {
                    match reason {
                        "STOP" => "stop",
                        "MAX_TOKENS" => "length",
                        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" => {
                            "content_filter"
                        }
                        _ => "stop",
                    }
                };
                out.push(self.chunk(json!({}), Some(reason)));
            }
        }
        if let Some(usage) = &event.usage {
            let completion = usage.candidates + usage.thoughts;
            out.push(json!({
                "id": self.id,
                "object": "chat.completion.chunk",
                "model": self.model,
                "choices": [],
                "usage": {
                    "prompt_tokens": usage.prompt,
                    "completion_tokens": completion,
                    "total_tokens": usage.total.unwrap_or(usage.prompt + completion),
                    "completion_tokens_details": {"reasoning_tokens": usage.thoughts}
                }
            }));
        }
        Ok(out)
    }

    fn chunk(&self, delta: Value, finish: Option<&str>) -> Value {
        json!({
            "id": self.id,
            "object": "chat.completion.chunk",
            "model": self.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thought_call_text_finish_and_usage() {
        let mut conv = GeminiToOpenAi::new("c1", "gemini-3-pro");
        let sig = "q".repeat(64);
        let thought = format!(
            r#"{{"response":{{"candidates":[{{"content":{{"parts":[{{"text":"Check the file","thought":true,"thoughtSignature":"{sig}"}}]}}}}]}}}}"#
        );
        let chunks = conv.convert(&thought).unwrap();
        let delta = &chunks[0]["choices"][0]["delta"];
        assert_eq!(delta["reasoning_content"], "Check the file");
        assert_eq!(delta["content"], Value::Null);
        assert_eq!(conv.signatures().longest(), Some(sig.as_str()));

        let call = r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"read_file","args":{"path":"/src/main.go"}}}]},"finishReason":"STOP"}],
            "usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"thoughtsTokenCount":3,"totalTokenCount":18}}"#;
        let chunks = conv.convert(call).unwrap();
        let tool = &chunks[0]["choices"][0]["delta"]["tool_calls"][0];
        assert_eq!(tool["index"], 0);
        assert_eq!(tool["function"]["name"], "read_file");
        assert_eq!(tool["function"]["arguments"], r#"{"path":"/src/main.go"}"#);
        assert_eq!(chunks[1]["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(chunks[2]["usage"]["completion_tokens"], 8);
        assert_eq!(chunks[2]["usage"]["total_tokens"], 18);

        let mut plain = GeminiToOpenAi::new("c2", "gemini-2.5-flash");
        let chunks = plain
            .convert(r#"{"candidates":[{"content":{"parts":[{"text":"Done."}]},"finishReason":"MAX_TOKENS"}]}"#)
            .unwrap();
        assert_eq!(chunks[0]["choices"][0]["delta"]["content"], "Done.");
        assert_eq!(chunks[1]["choices"][0]["finish_reason"], "length");
    }
}
