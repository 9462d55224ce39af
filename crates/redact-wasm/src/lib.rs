//! Secrets masked for JavaScript: `pkg/redact_bg.wasm`, the module `<docstream-view>`
//! loads the first time an export asks for secrets masked, so no other module carries
//! the regex crate. A thin binding of `docstream-redact`: the full module renders the
//! masked snapshot (Markdown, the page `docstream html --redact` writes).
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

use docstream_model::snapshot::read_snapshot;
use docstream_redact::{Redactor, mask_conversation};
use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::*;

/// A JS `Error` with a `code` property (the codes of `docstream.js`).
fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    let _ = Reflect::set(&error, &"code".into(), &code.into());
    error.into()
}

/// `[[kind, count], …]`.
fn counts(report: &docstream_redact::Report) -> Array {
    report
        .counts()
        .map(|(kind, n)| Array::of2(&kind.into(), &(n as f64).into()))
        .collect()
}

/// A stream's snapshot (its `__snapshotJson()`) with every credential-shaped value in its
/// texts masked as `[redacted: kind]` (prompts, prose, code, edits and diffs, commands
/// and output, tool arguments and results, thinking; ids and numbers stay), and `title`
/// (a page's, perhaps a first prompt cut to a line) masked too, as `docstream md` and
/// `docstream export` mask them: `{ snapshot, title, masked }`, `masked` as `[[kind,
/// count]]`. Throws an `Error` with code `DS_BAD_INPUT` for JSON that is not a snapshot.
#[wasm_bindgen(js_name = maskSnapshot)]
pub fn mask_snapshot(json: &str, title: Option<String>) -> Result<JsValue, JsValue> {
    let bad = |e: serde_json::Error| {
        js_error(
            "DS_BAD_INPUT",
            &format!("a snapshot docstream cannot read: {e}"),
        )
    };
    let mut conversation = read_snapshot(json).map_err(bad)?;
    let mut report = mask_conversation(&mut conversation);
    let title = title.map(|t| Redactor::global().mask_title(&t, &mut report).into_owned());
    let masked = serde_json::to_string(&conversation).map_err(bad)?;
    let out = js_sys::Object::new();
    let _ = Reflect::set(&out, &"snapshot".into(), &masked.into());
    let _ = Reflect::set(
        &out,
        &"title".into(),
        &title.map_or(JsValue::UNDEFINED, JsValue::from),
    );
    let _ = Reflect::set(&out, &"masked".into(), &counts(&report));
    Ok(out.into())
}
