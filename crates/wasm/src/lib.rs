//! The JavaScript binding of the stream: a thin layer over `docstream_core::DocStream`
//! and `docstream_html::HtmlView` (in `stream.rs`). Nothing here
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
//! This crate is `docstream_bg.wasm` ([`JsDocStream`] and its options); the
//! conversions (`docstream-convert-wasm`, `convert_bg.wasm`) and TeX to MathML
//! (`docstream-math-wasm`, `math_bg.wasm`) are modules of their own, so the stream's
//! module carries neither and a page loads them only when it uses them.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

use wasm_bindgen::JsValue;

#[cfg(feature = "markdown")]
mod markdown;
mod stream;

#[cfg(feature = "markdown")]
pub use markdown::*;

pub use stream::*;

/// A JS `Error` with a `code` property.
pub(crate) fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}
