//! `DocStream` for JavaScript: the stream binding (cargo feature `wasm`), the module
//! `docstream` and `docstream/define` load.

use serde::Serialize;
use serde::de::Error as _;
use wasm_bindgen::prelude::*;

use crate::js_error;
use docstream_core::error::Error;
use docstream_core::formats::fields::{self, Fields};
use docstream_core::{Format, Limits, Options};
use docstream_html::ascii_runs::{MIN_ASCII_RUN, ascii_runs};
use docstream_html::labels::Locale;
use docstream_html::patch::PatchWriter;
use docstream_html::{DiffMode, HtmlView, RenderOptions, render_conversation_in_pieces};
#[cfg(feature = "views")]
use docstream_html::{diff_view_by_id, plan_view_by_id, progress};

#[wasm_bindgen(typescript_custom_section)]
const DOCUMENT_TS: &str = include_str!("document.d.ts");

/// `Document` and `DocumentType`, from the table of document types.
#[wasm_bindgen(typescript_custom_section)]
const DOCUMENT_TYPES_TS: &str = docstream_model::DOCUMENT_TYPES_TS;

/// `push()` and `finish()`: JavaScript on `write()` and `pull()` (src/wasm/push.js,
/// appended to the glue by scripts/build-wasm.sh).
#[wasm_bindgen(typescript_custom_section)]
const PUSH_TS: &str = include_str!("push.d.ts");

/// How much HTML `html()` writes before handing it to JavaScript.
const HTML_PIECE_BYTES: usize = 64 * 1024;

/// `text` as a JavaScript string, crossing in ASCII runs and the stretches between them
/// ([`ascii_runs`] says why): a rope of one-byte strings but for a few short ones.
fn js_string(text: &str) -> js_sys::JsString {
    let mut runs = ascii_runs(text, MIN_ASCII_RUN);
    let mut joined = js_sys::JsString::from(runs.next().unwrap_or(""));
    for run in runs {
        joined = joined.concat(&JsValue::from_str(run));
    }
    joined
}

// Read by their fields (`DocStreamOptions::read`); the serde attributes name the
// fields of the TypeScript declarations.
/// Options of `new DocStream(options)`.
#[derive(Default, tsify::Tsify)]
#[serde(rename_all = "camelCase", default)]
pub struct DocStreamOptions {
    /// A format name, or `auto` (the default) to detect the format from the first bytes.
    #[tsify(optional, type = "Format | \"auto\"")]
    pub format: Option<String>,
    /// Images: none load unless their origin is allowed here.
    #[tsify(optional)]
    pub images: Option<ImageOptions>,
    /// Language of the labels in `html()`, the patches and `text()` (default `en`).
    #[tsify(optional)]
    pub locale: Option<Locale>,
    /// Which diff view a file edit shows: `unified`, `split` (side by side), or `both`
    /// (the default: both are in the HTML and the stylesheet shows the unified one).
    #[tsify(optional)]
    pub diff: Option<DiffOption>,
    /// Size and depth limits; an event over a limit becomes an `error` document.
    #[tsify(optional)]
    pub limits: Option<LimitOptions>,
    /// A price table: per model id, US dollars per million tokens. A model is matched by
    /// exact id, then by the longest id that is a prefix of it. A response whose source
    /// states no cost shows one computed from it, marked as computed; none is built in.
    #[cfg(feature = "prices")]
    #[tsify(
        optional,
        type = "Record<string, { input: number; output: number; cacheRead?: number; cacheWrite?: number; reasoning?: number }>"
    )]
    pub prices: Option<docstream_core::model::Prices>,
}

impl DocStreamOptions {
    /// The options given to the constructor, through `JSON.stringify`: `undefined` and
    /// `null` give the defaults; anything it cannot read is a `DS_BAD_OPTIONS` error.
    pub(crate) fn from_js(options: Option<JsValue>) -> Result<DocStreamOptions, JsValue> {
        let bad = |message: &str| js_error("DS_BAD_OPTIONS", message);
        let Some(v) = options.filter(|v| !v.is_null() && !v.is_undefined()) else {
            return Ok(DocStreamOptions::default());
        };
        let json = js_sys::JSON::stringify(&v)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| bad("options are not representable as JSON"))?;
        DocStreamOptions::read(&json).map_err(|e| bad(&e.to_string()))
    }

    /// The options as JSON text (`JSON.stringify` of the object given). Fields this
    /// version does not know are left alone.
    fn read(json: &str) -> Result<DocStreamOptions, serde_json::Error> {
        let tree = fields::parse(json)?;
        let f = Fields::of(&tree, "the options")?;
        let images = match f.object("images")? {
            None => None,
            Some(i) => Some(ImageOptions {
                allow: match i.array("allow")? {
                    None => Vec::new(),
                    Some(a) => fields::each_str(a, "allow")?
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                },
            }),
        };
        let locale = match f.str("locale")? {
            None => None,
            Some(name) => Some(Locale::parse(name).ok_or_else(|| {
                serde_json::Error::custom(format_args!("locale {name:?} has no labels"))
            })?),
        };
        let diff = match f.str("diff")? {
            None => None,
            Some(name) => Some(DiffOption::parse(name).ok_or_else(|| {
                serde_json::Error::custom(format_args!(
                    "diff {name:?} is not one of \"unified\", \"split\", \"both\""
                ))
            })?),
        };
        // A limit beyond what the address space holds is no limit.
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        let limits = match f.object("limits")? {
            None => None,
            Some(l) => Some(LimitOptions {
                max_event_bytes: l.u64("maxEventBytes")?.map(size),
                max_depth: l.u64("maxDepth")?.map(size),
            }),
        };
        #[cfg(feature = "prices")]
        let prices = match f.get("prices") {
            None => None,
            Some(v) => Some(
                docstream_core::price_table::read(v)
                    .map_err(|e| serde_json::Error::custom(format_args!("prices: {e}")))?,
            ),
        };
        Ok(DocStreamOptions {
            format: f.string("format")?,
            images,
            locale,
            diff,
            limits,
            #[cfg(feature = "prices")]
            prices,
        })
    }
}

/// `images` of `DocStreamOptions`.
#[derive(Default, tsify::Tsify)]
#[serde(rename_all = "camelCase", default)]
pub struct ImageOptions {
    /// Origins (`https://host[:port]`) whose images may load; none by default.
    #[tsify(optional)]
    pub allow: Vec<String>,
}

/// `diff` of `DocStreamOptions`.
#[derive(Clone, Copy, tsify::Tsify)]
#[serde(rename_all = "lowercase")]
pub enum DiffOption {
    /// Only the unified view.
    Unified,
    /// Only the side-by-side view.
    Split,
    /// Both views.
    Both,
}

impl DiffOption {
    /// `unified`, `split` or `both`.
    fn parse(name: &str) -> Option<DiffOption> {
        match name {
            "unified" => Some(DiffOption::Unified),
            "split" => Some(DiffOption::Split),
            "both" => Some(DiffOption::Both),
            _ => None,
        }
    }
}

impl From<DiffOption> for DiffMode {
    fn from(option: DiffOption) -> DiffMode {
        match option {
            DiffOption::Unified => DiffMode::Unified,
            DiffOption::Split => DiffMode::SideBySide,
            DiffOption::Both => DiffMode::Both,
        }
    }
}

/// `limits` of `DocStreamOptions`.
#[derive(Default, tsify::Tsify)]
#[serde(rename_all = "camelCase", default)]
pub struct LimitOptions {
    /// Largest line, SSE event or JSON value in bytes (default 16 MiB).
    #[tsify(optional)]
    pub max_event_bytes: Option<usize>,
    /// Deepest JSON nesting accepted (default and maximum 128).
    #[tsify(optional)]
    pub max_depth: Option<usize>,
}

fn from_error(e: Error) -> JsValue {
    js_error(e.code(), &e.to_string())
}

/// A Rust value as plain JS objects (maps as objects, no `Map`s or `BigInt`s): written
/// as JSON by serde_json and read by `JSON.parse`. One serialiser for every type (the
/// model is serialised as JSON elsewhere anyway), where serde-wasm-bindgen's second
/// one cost about 11 KB of wasm. Not for patches: they leave as the wire string of
/// `pull()`, read into objects in JavaScript (`pkg-template/wire.js`).
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_string(value).map_err(|e| js_error("DS_INTERNAL", &e.to_string()))?;
    js_sys::JSON::parse(&json).map_err(|_| js_error("DS_INTERNAL", "JSON.parse failed"))
}

fn stream_options(options: &DocStreamOptions) -> Result<Options, JsValue> {
    let format = match options.format.as_deref() {
        None => None,
        Some(name) => Format::parse(name).map_err(from_error)?,
    };
    let defaults = Limits::default();
    let limits = options.limits.as_ref();
    Ok(Options {
        format,
        limits: Limits {
            max_event_bytes: limits
                .and_then(|l| l.max_event_bytes)
                .unwrap_or(defaults.max_event_bytes),
            max_depth: limits
                .and_then(|l| l.max_depth)
                .unwrap_or(defaults.max_depth)
                .min(Limits::MAX_DEPTH),
        },
    })
}

pub(crate) fn render_options(options: &DocStreamOptions) -> Result<RenderOptions, JsValue> {
    let mut origins = Vec::new();
    for o in options.images.iter().flat_map(|i| &i.allow) {
        let origin = docstream_html::url::origin(o).ok_or_else(|| {
            js_error(
                "DS_BAD_OPTIONS",
                &format!("images.allow: {o:?} is not an origin like https://example.com"),
            )
        })?;
        origins.push(origin);
    }
    Ok(RenderOptions {
        locale: options.locale.unwrap_or_default(),
        image_origins_allowed: origins,
        diff_mode: options.diff.map(DiffMode::from).unwrap_or_default(),
        #[cfg(feature = "prices")]
        prices: options.prices.clone(),
    })
}

impl JsDocStream {
    /// The conversation read so far.
    #[cfg_attr(not(feature = "markdown"), allow(dead_code))]
    pub(crate) fn conversation(&self) -> &docstream_core::model::Conversation {
        self.inner.conversation()
    }

    /// The options the view renders with.
    #[cfg_attr(not(feature = "markdown"), allow(dead_code))]
    pub(crate) fn render_options(&self) -> &RenderOptions {
        self.view.options()
    }
}

/// A live conversation read from a byte stream, and its rendered page
/// (`new DocStream(options)` in JS).
///
/// Two ways to use it:
/// - `push(chunk)` and `finish()` return the patches as objects: simple (JavaScript on
///   the form below, src/wasm/push.js);
/// - `write(chunk)` only reads (it returns whether there is something new to show),
///   `end()` ends the stream, and `pull()` hands out every patch since the last pull as
///   one string in the wire form (`applyPatches` of `docstream/apply` applies it): one
///   crossing of the boundary per frame, however many chunks arrived.
#[wasm_bindgen(js_name = DocStream)]
pub struct JsDocStream {
    inner: docstream_core::DocStream,
    view: HtmlView,
    wire: PatchWriter,
    /// Where `write()` copies a small chunk before `__writeStaged` reads it
    /// (src/wasm/push.js): a chunk crosses with no allocation and no result array.
    staging: Vec<u8>,
    /// The error of the last `__writeStaged` that failed, for `__takeError`.
    error: Option<JsValue>,
}

#[wasm_bindgen(js_class = DocStream)]
impl JsDocStream {
    /// `new DocStream({ format?, images?, locale?, diff?, limits? })`. Throws an `Error`
    /// with code `DS_BAD_OPTIONS` or `DS_UNKNOWN_FORMAT` for options it cannot honour.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_optional_param_type = "DocStreamOptions")] options: Option<
            JsValue,
        >,
    ) -> Result<JsDocStream, JsValue> {
        let options = DocStreamOptions::from_js(options)?;
        Ok(JsDocStream {
            inner: docstream_core::DocStream::new(stream_options(&options)?),
            view: HtmlView::new(render_options(&options)?),
            wire: PatchWriter::new(),
            staging: Vec::new(),
            error: None,
        })
    }

    /// Turns the changes read so far into patches in the wire buffer.
    fn render(&mut self) {
        if self.inner.has_changes() {
            self.view.update_into(
                self.inner.conversation(),
                self.inner.changes(),
                &mut self.wire,
            );
            self.inner.clear_changes();
        }
    }

    /// Gives the stream a sub-agent's own transcript from beside the session (Claude
    /// Code 2.1+: `<session>/subagents/agent-<agentId>.jsonl`, `agentId` from its file
    /// name): it is shown as the run of the call whose result names that agent. Call it
    /// before writing the session; other formats ignore it.
    #[wasm_bindgen(js_name = addSubagent)]
    pub fn add_subagent(&mut self, agent_id: &str, transcript: Vec<u8>) {
        self.inner.add_subagent(agent_id, transcript);
    }

    /// Marks the prompts of the stream as its parent agent's (a sub-agent's transcript
    /// read on its own, as the viewer's library opens one), where the format does not
    /// say who wrote them. Call it before writing. The full module's only: the element's
    /// default module never reads a library entry.
    #[cfg(feature = "every-format")]
    #[wasm_bindgen(js_name = promptsFromParentAgent)]
    pub fn prompts_from_parent_agent(&mut self) {
        self.inner.prompts_from_parent_agent();
    }

    /// Reads a chunk of bytes without rendering anything; returns `true` when there is
    /// something new for `pull()`. Throws an `Error` with code `DS_FINISHED` after the
    /// stream ended.
    pub fn write(&mut self, chunk: &[u8]) -> Result<bool, JsValue> {
        self.inner.push(chunk).map_err(from_error)?;
        Ok(self.inner.has_changes())
    }

    /// The address of the staging area, grown to `len` bytes when smaller. It moves
    /// only when it grows, so `write()` asks again only for a larger chunk.
    #[wasm_bindgen(js_name = __stage, skip_typescript)]
    pub fn stage(&mut self, len: usize) -> usize {
        if self.staging.len() < len {
            self.staging = vec![0; len];
        }
        self.staging.as_mut_ptr() as usize
    }

    /// `write` of the first `len` bytes of the staging area: 0 when there is nothing
    /// new, 1 when there is, 2 when it failed (`__takeError` gives the error).
    #[wasm_bindgen(js_name = __writeStaged, skip_typescript)]
    pub fn write_staged(&mut self, len: usize) -> u32 {
        let result = match self.staging.get(..len) {
            Some(chunk) => self.inner.push(chunk).map_err(from_error),
            None => Err(js_error(
                "DS_INTERNAL",
                "a staged chunk larger than its area",
            )),
        };
        match result {
            Ok(()) => u32::from(self.inner.has_changes()),
            Err(e) => {
                self.error = Some(e);
                2
            }
        }
    }

    /// The error of the last `__writeStaged` that returned 2.
    #[wasm_bindgen(js_name = __takeError, skip_typescript)]
    pub fn take_error(&mut self) -> JsValue {
        self.error.take().unwrap_or(JsValue::UNDEFINED)
    }

    /// `write` for a chunk of text.
    #[wasm_bindgen(js_name = writeText)]
    pub fn write_text(&mut self, chunk: &str) -> Result<bool, JsValue> {
        self.inner.push_str(chunk).map_err(from_error)?;
        Ok(self.inner.has_changes())
    }

    /// Ends the stream without rendering (see `finish`); the last patches come from
    /// `pull()`. Throws an `Error` with code `DS_FINISHED` when the stream already ended.
    pub fn end(&mut self) -> Result<(), JsValue> {
        self.inner.finish().map_err(from_error)
    }

    /// Every patch since the last pull, as one string in the wire form (empty when
    /// nothing changed); apply it with `applyPatches` of `docstream/apply`.
    pub fn pull(&mut self) -> js_sys::JsString {
        // The string is made from the writer's buffer, which is then cleared and kept
        // (up to 64 KiB): a pull allocates nothing in WebAssembly.
        self.render();
        let wire = js_string(self.wire.as_str());
        self.wire.clear_keeping(64 * 1024);
        wire
    }

    /// The conversation as plain objects (turns; responses in seed 000's shape).
    #[wasm_bindgen(unchecked_return_type = "Conversation")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        to_js(self.inner.conversation())
    }

    /// `snapshot()` as JSON text, as serde_json writes it: what the full module's
    /// `__markdownOf` reads (numbers as written, not as JavaScript's doubles).
    #[wasm_bindgen(js_name = __snapshotJson, skip_typescript)]
    pub fn snapshot_json(&self) -> Result<String, JsValue> {
        serde_json::to_string(self.inner.conversation())
            .map_err(|e| js_error("DS_INTERNAL", &e.to_string()))
    }

    /// The conversation element's HTML, rendered from the state at once: at any moment
    /// what applying every patch of the state so far gives (an open Markdown block as
    /// its preview shows it, an unclosed `**` already bold).
    ///
    /// Handed over in pieces joined by JavaScript (a rope, no copy), so the page never
    /// has to fit in WebAssembly memory beside the conversation.
    pub fn html(&self) -> js_sys::JsString {
        let mut html = js_sys::JsString::from("");
        render_conversation_in_pieces(
            self.inner.conversation(),
            self.view.options(),
            &self.inner.open_documents(),
            HTML_PIECE_BYTES,
            |piece| html = html.concat(&js_string(piece)),
        );
        html
    }

    /// One progress line per agent action (seed 001's `text` format), in `locale`.
    #[cfg(feature = "views")]
    pub fn text(&self) -> String {
        progress::progress_lines(self.inner.conversation(), self.view.options().locale)
    }

    /// The diff view of the `file_edit` document with this id, or `undefined`.
    #[cfg(feature = "views")]
    #[wasm_bindgen(js_name = diffView, unchecked_return_type = "DiffView | undefined")]
    pub fn diff_view(&self, id: &str) -> Result<JsValue, JsValue> {
        match diff_view_by_id(self.inner.conversation(), id) {
            Some(view) => to_js(&view),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The plan view of the `plan` document with this id, or `undefined`.
    #[cfg(feature = "views")]
    #[wasm_bindgen(js_name = planView, unchecked_return_type = "PlanView | undefined")]
    pub fn plan_view(&self, id: &str) -> Result<JsValue, JsValue> {
        match plan_view_by_id(self.inner.conversation(), id) {
            Some(view) => to_js(&view),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The format the stream turned out to be in when this module leaves it out (the
    /// default module of `docstream/define` reads the default formats only): the
    /// element then replays the stream into the full module. `undefined` otherwise.
    #[wasm_bindgen(getter, js_name = __missingFormat, skip_typescript)]
    pub fn missing_format(&self) -> Option<String> {
        self.inner.missing_format().map(|f| f.name().to_owned())
    }

    /// Where detection is: 0 while the format may still be detected, 1 when this
    /// module reads the stream (or no format will), 2 when the stream is in a format
    /// this module leaves out (`__missingFormat`).
    #[wasm_bindgen(getter, js_name = __detection, skip_typescript)]
    pub fn detection(&self) -> u32 {
        if self.inner.missing_format().is_some() {
            2
        } else if self.inner.detecting() {
            0
        } else {
            1
        }
    }

    /// `end()` of a stream in a missing format whose full module did not load: its
    /// `error` document names the format and says how to fix it (`fix`).
    #[wasm_bindgen(js_name = __endMissing, skip_typescript)]
    pub fn end_missing(&mut self, fix: &str) -> Result<(), JsValue> {
        self.inner.finish_missing(fix).map_err(from_error)
    }

    /// The detected or named format, once known.
    #[wasm_bindgen(getter, unchecked_return_type = "Format | undefined")]
    pub fn format(&self) -> Option<String> {
        self.inner.format().map(|f| f.name().to_owned())
    }
}
