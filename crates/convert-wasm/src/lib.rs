//! The seed 002 conversions (`docstream-convert`) for JavaScript: `pkg/convert_bg.wasm`,
//! the module of `docstream/convert`. Messages, schemas and
//! chunks cross the boundary as JSON (`JSON.stringify` in, `JSON.parse` out), so they
//! keep JSON's meaning exactly: fields the conversions do not know are kept, `undefined`
//! fields are left out. Wrong input is a JS `Error` with code `DS_BAD_INPUT`.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use docstream_convert::gemini_to_openai::GeminiToOpenAi;
use docstream_convert::thinking::{self, SignatureCache};
use docstream_convert::{messages, schema, tools};

#[wasm_bindgen(typescript_custom_section)]
const CONVERT_TS: &str = include_str!("convert.d.ts");

/// A JS `Error` with a `code` property (as the stream's module makes them).
fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

fn bad_input(what: &str, why: impl std::fmt::Display) -> JsValue {
    js_error("DS_BAD_INPUT", &format!("{what}: {why}"))
}

/// A JS value read as JSON into `T`.
fn read<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<T, JsValue> {
    let json = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| bad_input(what, "not representable as JSON"))?;
    docstream_model::read_json::from_str(&json).map_err(|e| bad_input(what, e))
}

/// A Rust value written as JSON and parsed into JS objects.
fn write<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_string(value).map_err(|e| js_error("DS_INTERNAL", &e.to_string()))?;
    js_sys::JSON::parse(&json).map_err(|_| js_error("DS_INTERNAL", "JSON.parse failed"))
}

/// Anthropic/Cursor messages (`tool_use`, `tool_result`, `thinking` blocks) to OpenAI
/// Chat Completions messages (`tool_calls`, `tool` role, `reasoning_content`).
#[wasm_bindgen(js_name = messagesToOpenAI, unchecked_return_type = "OpenAIMessage[]")]
pub fn messages_to_openai(
    #[wasm_bindgen(unchecked_param_type = "AnthropicMessage[]")] messages: JsValue,
) -> Result<JsValue, JsValue> {
    let messages: Vec<Value> = read(&messages, "messagesToOpenAI(messages)")?;
    write(&messages::to_openai(&messages))
}

/// OpenAI Chat Completions messages to Anthropic/Cursor messages (consecutive `tool`
/// messages become one `user` message of `tool_result` blocks).
#[wasm_bindgen(js_name = messagesToAnthropic, unchecked_return_type = "AnthropicMessage[]")]
pub fn messages_to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "OpenAIMessage[]")] messages: JsValue,
) -> Result<JsValue, JsValue> {
    let messages: Vec<Value> = read(&messages, "messagesToAnthropic(messages)")?;
    write(&messages::to_anthropic(&messages))
}

/// Flat tool definitions (`{name, description, input_schema}`) to the nested OpenAI form
/// (`{type: "function", function: {name, description, parameters}}`).
#[wasm_bindgen(js_name = toolsToOpenAI, unchecked_return_type = "NestedTool[]")]
pub fn tools_to_openai(
    #[wasm_bindgen(unchecked_param_type = "FlatTool[]")] tools: JsValue,
) -> Result<JsValue, JsValue> {
    let flat: Vec<tools::FlatTool> = read(&tools, "toolsToOpenAI(tools)")?;
    let nested: Vec<tools::NestedTool> = flat.into_iter().map(Into::into).collect();
    write(&nested)
}

/// Nested OpenAI tool definitions to the flat form.
#[wasm_bindgen(js_name = toolsToAnthropic, unchecked_return_type = "FlatTool[]")]
pub fn tools_to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "NestedTool[]")] tools: JsValue,
) -> Result<JsValue, JsValue> {
    let nested: Vec<tools::NestedTool> = read(&tools, "toolsToAnthropic(tools)")?;
    let flat: Vec<tools::FlatTool> = nested.into_iter().map(Into::into).collect();
    write(&flat)
}

/// An Anthropic `tool_choice` to the OpenAI one (`{type: "any"}` → `"required"` …);
/// `undefined` when it has no counterpart.
#[wasm_bindgen(
    js_name = toolChoiceToOpenAI,
    unchecked_return_type = "OpenAIToolChoice | undefined"
)]
pub fn tool_choice_to_openai(
    #[wasm_bindgen(unchecked_param_type = "AnthropicToolChoice")] choice: JsValue,
) -> Result<JsValue, JsValue> {
    let choice: Value = read(&choice, "toolChoiceToOpenAI(choice)")?;
    match tools::tool_choice_to_openai(&choice) {
        Some(v) => write(&v),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// An OpenAI `tool_choice` to the Anthropic one; `undefined` when it has no counterpart.
#[wasm_bindgen(
    js_name = toolChoiceToAnthropic,
    unchecked_return_type = "AnthropicToolChoice | undefined"
)]
pub fn tool_choice_to_anthropic(
    #[wasm_bindgen(unchecked_param_type = "OpenAIToolChoice")] choice: JsValue,
) -> Result<JsValue, JsValue> {
    let choice: Value = read(&choice, "toolChoiceToAnthropic(choice)")?;
    match tools::tool_choice_to_anthropic(&choice) {
        Some(v) => write(&v),
        None => Ok(JsValue::UNDEFINED),
    }
}

/// A JSON Schema cleaned for Gemini: `additionalProperties`, `$schema`, `title`,
/// `default` dropped, `type` upper-cased, `anyOf` narrowed to its first non-null branch.
#[wasm_bindgen(js_name = cleanSchemaForGemini, unchecked_return_type = "JsonSchema")]
pub fn clean_schema_for_gemini(
    #[wasm_bindgen(unchecked_param_type = "JsonSchema")] schema: JsValue,
) -> Result<JsValue, JsValue> {
    let schema: Value = read(&schema, "cleanSchemaForGemini(schema)")?;
    write(&schema::clean_for_gemini(&schema))
}

/// Whether `model` can think (`-thinking` names, `gemini-3-pro`, every `claude-` model).
#[wasm_bindgen(js_name = modelSupportsThinking)]
pub fn model_supports_thinking(model: &str) -> bool {
    thinking::model_supports_thinking(model)
}

/// Whether thinking is on by default for `model` (Opus 4.5, `-thinking` names).
#[wasm_bindgen(js_name = thinkingEnabledByDefault)]
pub fn thinking_enabled_by_default(model: &str) -> bool {
    thinking::thinking_enabled_by_default(model)
}

/// Whether thinking must be off because the last assistant turn of an Anthropic-style
/// history used tools without thinking.
#[wasm_bindgen(js_name = historyDisablesThinking)]
pub fn history_disables_thinking(
    #[wasm_bindgen(unchecked_param_type = "AnthropicMessage[]")] messages: JsValue,
) -> Result<bool, JsValue> {
    let messages: Vec<Value> = read(&messages, "historyDisablesThinking(messages)")?;
    Ok(thinking::history_disables_thinking(&messages))
}

/// The thinking-signature rules of one conversation: remembers the longest valid
/// signature seen and uses it to repair invalid ones (`new SignatureCache()` in JS).
#[wasm_bindgen(js_name = SignatureCache)]
#[derive(Default)]
pub struct JsSignatureCache {
    inner: SignatureCache,
}

#[wasm_bindgen(js_class = SignatureCache)]
impl JsSignatureCache {
    /// An empty cache.
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsSignatureCache {
        JsSignatureCache::default()
    }

    /// Remembers `signature` when it is valid (at least 50 characters) and the longest.
    pub fn observe(&mut self, signature: &str) {
        self.inner.observe(signature);
    }

    /// The longest valid signature seen so far.
    #[wasm_bindgen(getter)]
    pub fn longest(&self) -> Option<String> {
        self.inner.longest().map(str::to_owned)
    }

    /// What to do with one thinking block: keep it (with its own or a repaired
    /// signature), send it as text, or drop it.
    #[wasm_bindgen(unchecked_return_type = "ThinkingCheck")]
    pub fn check(&mut self, thinking: &str, signature: &str) -> Result<JsValue, JsValue> {
        write(&self.inner.check(thinking, signature))
    }

    /// Applies [`check`](Self::check) to every `thinking` block of an Anthropic-style
    /// history, in order, and returns the repaired history.
    #[wasm_bindgen(js_name = repairHistory, unchecked_return_type = "AnthropicMessage[]")]
    pub fn repair_history(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "AnthropicMessage[]")] messages: JsValue,
    ) -> Result<JsValue, JsValue> {
        let messages: Vec<Value> = read(&messages, "repairHistory(messages)")?;
        write(&self.inner.repair_history(&messages))
    }
}

/// Gemini stream events to OpenAI `chat.completion.chunk`s, for one stream
/// (`new GeminiToOpenAI(id, model)` in JS).
#[wasm_bindgen(js_name = GeminiToOpenAI)]
pub struct JsGeminiToOpenAi {
    inner: GeminiToOpenAi,
}

#[wasm_bindgen(js_class = GeminiToOpenAI)]
impl JsGeminiToOpenAi {
    /// A converter whose chunks carry this `id` and `model`.
    #[wasm_bindgen(constructor)]
    pub fn new(id: &str, model: &str) -> JsGeminiToOpenAi {
        JsGeminiToOpenAi {
            inner: GeminiToOpenAi::new(id, model),
        }
    }

    /// Converts one Gemini event (the JSON text of one SSE `data:` line, or the parsed
    /// object; the `v1internal` `{response: …}` wrapper is accepted) into OpenAI chunks.
    #[wasm_bindgen(unchecked_return_type = "OpenAIChunk[]")]
    pub fn convert(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | GeminiEvent")] event: JsValue,
    ) -> Result<JsValue, JsValue> {
        let data = match event.as_string() {
            Some(text) => text,
            None => read::<Value>(&event, "convert(event)")?.to_string(),
        };
        let chunks = self
            .inner
            .convert(&data)
            .map_err(|e| bad_input("convert(event)", e))?;
        write(&chunks)
    }

    /// The longest valid thought signature seen in this stream.
    #[wasm_bindgen(getter, js_name = longestSignature)]
    pub fn longest_signature(&self) -> Option<String> {
        self.inner.signatures().longest().map(str::to_owned)
    }
}
