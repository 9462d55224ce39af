//! The JavaScript binding: a thin layer over [`crate::DocStream`]. Nothing here decides
//! anything; it converts chunks in and objects out, and turns every error into a JS
//! `Error` with a stable `code`.

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::{Format, Limits, Options};

#[wasm_bindgen(typescript_custom_section)]
const DOCUMENT_TS: &str = include_str!("document.d.ts");

/// Options as JavaScript passes them (`DocStreamOptions` in TypeScript).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct JsOptions {
    format: Option<String>,
    limits: JsLimits,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct JsLimits {
    max_event_bytes: Option<usize>,
    max_depth: Option<usize>,
}

/// A JS `Error` with a `code` property.
fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

fn from_error(e: Error) -> JsValue {
    js_error(e.code(), &e.to_string())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error("DS_INTERNAL", &e.to_string()))
}

/// A live conversation read from a byte stream (`new DocStream(options)` in JS).
#[wasm_bindgen(js_name = DocStream)]
pub struct JsDocStream {
    inner: crate::DocStream,
}

#[wasm_bindgen(js_class = DocStream)]
impl JsDocStream {
    /// `new DocStream({ format?, limits?: { maxEventBytes?, maxDepth? } })`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "DocStreamOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<JsDocStream, JsValue> {
        let options: JsOptions = match options.filter(|o| !o.is_null() && !o.is_undefined()) {
            None => JsOptions::default(),
            Some(o) => serde_wasm_bindgen::from_value(o)
                .map_err(|e| js_error("DS_BAD_OPTIONS", &e.to_string()))?,
        };
        let format = match options.format.as_deref() {
            None => None,
            Some(name) => Format::parse(name).map_err(from_error)?,
        };
        let defaults = Limits::default();
        let limits = Limits {
            max_event_bytes: options
                .limits
                .max_event_bytes
                .unwrap_or(defaults.max_event_bytes),
            max_depth: options
                .limits
                .max_depth
                .unwrap_or(defaults.max_depth)
                .min(Limits::MAX_DEPTH),
        };
        Ok(JsDocStream {
            inner: crate::DocStream::new(Options { format, limits }),
        })
    }

    /// Reads a chunk: a `Uint8Array`, an `ArrayBuffer` or a string.
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | ArrayBuffer | string")] chunk: JsValue,
    ) -> Result<(), JsValue> {
        if let Some(text) = chunk.as_string() {
            return self.inner.push_str(&text).map_err(from_error);
        }
        let bytes = if let Some(array) = chunk.dyn_ref::<js_sys::Uint8Array>() {
            array.to_vec()
        } else if let Some(buffer) = chunk.dyn_ref::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(buffer).to_vec()
        } else {
            return Err(js_error(
                "DS_BAD_CHUNK",
                "push() takes a Uint8Array, an ArrayBuffer or a string",
            ));
        };
        self.inner.push(&bytes).map_err(from_error)
    }

    /// Ends the stream; a response without its final event is marked cut off.
    pub fn finish(&mut self) -> Result<(), JsValue> {
        self.inner.finish().map_err(from_error)
    }

    /// The conversation as plain objects (turns; responses in seed 000's shape).
    #[wasm_bindgen(unchecked_return_type = "Conversation")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.conversation())
    }

    /// The detected or named format, once known.
    #[wasm_bindgen(getter)]
    pub fn format(&self) -> Option<String> {
        self.inner.format().map(|f| f.name().to_owned())
    }
}
