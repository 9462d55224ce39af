//! The JavaScript binding: a thin layer over [`crate::DocStream`] and
//! [`HtmlView`](crate::render::patch::HtmlView) (in `stream.rs`) and [`crate::convert`]
//! (in `convert.rs`). Nothing here
//! decides anything; it converts chunks and options in and objects out, and turns every
//! error into a JS `Error` with a stable `code`:
//!
//! | code | when |
//! |---|---|
//! | `DS_FINISHED` | `push` or `finish` after `finish` |
//! | `DS_BAD_CHUNK` | `push` given something other than bytes or a string |
//! | `DS_BAD_OPTIONS` | options of the wrong shape or value |
//! | `DS_UNKNOWN_FORMAT` | a format name docstream does not know |
//! | `DS_BAD_INPUT` | a conversion given input of the wrong shape, or invalid JSON |
//! | `DS_INTERNAL` | a value that could not cross the boundary (a bug) |
//!
//! Three WebAssembly modules are built from this crate: `docstream_bg.wasm` (feature
//! `wasm`: [`JsDocStream`] and its options), `convert_bg.wasm` (feature
//! `wasm-convert`: the conversions of `convert.rs`) and `math_bg.wasm` (feature
//! `wasm-math`: TeX to MathML, `math.rs`), so the stream's module carries neither and a
//! page loads them only when it uses them.

#[cfg(any(feature = "wasm", feature = "wasm-convert"))]
use wasm_bindgen::JsValue;

#[cfg(feature = "wasm-convert")]
mod convert;
#[cfg(feature = "wasm-math")]
mod math;
#[cfg(feature = "wasm")]
mod stream;

#[cfg(feature = "wasm-convert")]
pub use convert::{
    JsGeminiToOpenAi, JsSignatureCache, clean_schema_for_gemini, history_disables_thinking,
    messages_to_anthropic, messages_to_openai, model_supports_thinking,
    thinking_enabled_by_default, tool_choice_to_anthropic, tool_choice_to_openai,
    tools_to_anthropic, tools_to_openai,
};
#[cfg(feature = "wasm-math")]
pub use math::tex_to_mathml;
#[cfg(feature = "wasm")]
pub use stream::*;

/// A JS `Error` with a `code` property.
#[cfg(any(feature = "wasm", feature = "wasm-convert"))]
pub(crate) fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}
