//! The Markdown export (cargo feature `markdown`): `DocStream.markdown(turn?)`, and the
//! Markdown of a conversation another module read (`__markdownOf`). The default module
//! of `docstream/define` (docstream-lite_bg.wasm) is built without it (about 10 KB gzip):
//! the element asks the full module for a lite stream's Markdown, handing it the lite
//! stream's snapshot (`__snapshotJson`), which gives exactly the Markdown the full
//! module gives for the same stream (tests/js/split-node.mjs checks every fixture).
//!
//! A snapshot leaves out what the normaliser derives (a tool call's view and error
//! message) and what only it links (a sub-agent run's parent call, rewound branches):
//! [`conversation_from_snapshot`] reads the links back from the snapshot
//! (`docstream_model::snapshot`), and has each
//! response with tool calls read again as a saved response (`response-json`), whose
//! normaliser derives the views from the calls' kinds, arguments and results, as
//! it did when the stream was read.

use wasm_bindgen::prelude::*;

use crate::js_error;
use crate::stream::{DocStreamOptions, JsDocStream, render_options};
use docstream_core::model::{Conversation, Meta, Turn, snapshot};
use docstream_core::{DocStream, Format, Limits, Options};
use docstream_html::RenderOptions;
use docstream_html::markdown_export::{KeepAll, conversation_markdown, turn_markdown};

/// The conversation, or turn `turn` of it, as Markdown.
fn markdown_of(conversation: &Conversation, options: &RenderOptions, turn: Option<u32>) -> String {
    match turn {
        Some(i) => turn_markdown(conversation, i as usize, options, &mut KeepAll),
        None => conversation_markdown(conversation, options),
    }
}

#[wasm_bindgen(js_class = DocStream)]
impl JsDocStream {
    /// The conversation as GitHub-flavoured Markdown, as `docstream md` writes it
    /// (turns with role and time, prose as written, code and diffs fenced, tool calls,
    /// thinking and sub-agents folded in `<details>`, usage at the end), in `locale`;
    /// with `turn` (an index of `snapshot().turns`), that turn alone, with the sub-agent
    /// runs inside its calls: what the element's "Copy as Markdown" copies (`""` past
    /// the end).
    pub fn markdown(&self, turn: Option<u32>) -> String {
        markdown_of(self.conversation(), self.render_options(), turn)
    }
}

/// The conversation of `snapshot` (another module's `__snapshotJson()`) and the render
/// options of `options` (a stream's): `DS_BAD_OPTIONS` or `DS_BAD_INPUT` when unreadable.
fn read_snapshot(
    snapshot: &str,
    options: Option<JsValue>,
) -> Result<(Conversation, RenderOptions), JsValue> {
    let options = render_options(&DocStreamOptions::from_js(options)?)?;
    let conversation = conversation_from_snapshot(snapshot).map_err(|e| {
        js_error(
            "DS_BAD_INPUT",
            &format!("a snapshot docstream cannot read: {e}"),
        )
    })?;
    Ok((conversation, options))
}

/// The Markdown of a conversation read by another module: `snapshot` is its
/// `__snapshotJson()`, `options` the stream's options (`locale`, `images`, `diff` as
/// `new DocStream` takes them), `turn` as `markdown(turn)` takes it. Throws an `Error`
/// with code `DS_BAD_INPUT` for a snapshot it cannot read, `DS_BAD_OPTIONS` for options.
#[wasm_bindgen(js_name = __markdownOf, skip_typescript)]
pub fn markdown_of_snapshot(
    snapshot: &str,
    options: Option<JsValue>,
    turn: Option<u32>,
) -> Result<String, JsValue> {
    let (conversation, options) = read_snapshot(snapshot, options)?;
    Ok(markdown_of(&conversation, &options, turn))
}

/// The page `docstream html` writes of a conversation another module read (`snapshot`
/// its `__snapshotJson()`, `options` the stream's options), titled `title`; with
/// `masked` (`[[kind, count]]`, what masking the snapshot counted), the page
/// `docstream html --redact` writes, whose header says what was masked. What the
/// element's `export({ as: 'html', redact: true })` gives. Throws as `__markdownOf`.
#[wasm_bindgen(js_name = __pageOf, skip_typescript)]
pub fn page_of_snapshot(
    snapshot: &str,
    options: Option<JsValue>,
    title: String,
    masked: Option<js_sys::Array>,
) -> Result<String, JsValue> {
    use docstream_html::{page, render_conversation};
    let (conversation, options) = read_snapshot(snapshot, options)?;
    let mut body = match masked {
        None => page::page_header(&conversation, &title, &options),
        Some(masked) => {
            let counts: Vec<(String, u64)> = masked
                .iter()
                .filter_map(|pair| {
                    let pair = js_sys::Array::from(&pair);
                    Some((pair.get(0).as_string()?, pair.get(1).as_f64()? as u64))
                })
                .collect();
            let counts: Vec<(&str, u64)> = counts.iter().map(|(k, n)| (k.as_str(), *n)).collect();
            page::page_header_masked(&conversation, &title, &options, &counts)
        }
    };
    body.push_str(&render_conversation(&conversation, &options));
    // As the element's own `page()`: no script (its copy controls hidden).
    Ok(page::wrap_page_without_script(
        &page::dressed(&body, false),
        &title,
        options.locale,
    ))
}

/// The conversation a snapshot (`snapshot()` as JSON) holds, as the module that wrote it
/// has it: its fields, the links between sub-agent runs and their calls, rewound turns
/// ([`snapshot::read_snapshot`]), and each tool call's view and error message.
pub(crate) fn conversation_from_snapshot(json: &str) -> Result<Conversation, serde_json::Error> {
    let mut conversation = snapshot::read_snapshot(json)?;
    for turn in &mut conversation.turns {
        if let Turn::Assistant(r) = turn {
            read_views(r)?;
        }
    }
    Ok(conversation)
}

/// Each tool call's view and error message, derived as the normaliser derives them for
/// a saved response: the response read again as `response-json`.
fn read_views(r: &mut docstream_core::model::ChatResponse) -> Result<(), serde_json::Error> {
    if !r
        .documents
        .iter()
        .any(|d| matches!(d.meta, Meta::ToolCall(_)))
    {
        return Ok(());
    }
    let json = serde_json::to_string(&*r)?;
    let mut stream = DocStream::new(Options {
        format: Some(Format::ResponseJson),
        limits: Limits {
            max_event_bytes: json.len().saturating_add(1),
            max_depth: Limits::MAX_DEPTH,
        },
    });
    // Our own JSON, read whole: neither call can fail but after a finish.
    let _ = stream.push(json.as_bytes());
    let _ = stream.finish();
    let read = stream.into_conversation();
    let Some(Turn::Assistant(again)) = read
        .turns
        .into_iter()
        .find(|t| matches!(t, Turn::Assistant(_)))
    else {
        return Ok(());
    };
    for (d, a) in r.documents.iter_mut().zip(again.documents) {
        if let (Meta::ToolCall(m), Meta::ToolCall(a)) = (&mut d.meta, a.meta) {
            if m.tool_call_id == a.tool_call_id {
                m.view = a.view;
                m.error = a.error;
            }
        }
    }
    Ok(())
}
