//! One renderer per document type, all writing into one [`Markup`] sink.
//!
//! Every document's element is `<div class="ds-doc ds-TYPE" data-doc-id="…">` around
//! the parts its type declares in [`layout`] (the markup contract of
//! [`parts`](super::parts)). The incremental view renders a part on its own with
//! [`render_part`] and skips a heavy part whose inputs did not change ([`part_key`]).

mod clarification;
mod code;
mod error;
mod file_edit;
mod plan;
mod terminal;
mod text;
mod thinking;
mod todo_update;
mod tool_call;
mod tool_read;
mod tool_search;
mod tool_web;

use std::hash::{BuildHasher, Hash, Hasher};

use super::RenderOptions;
use super::escape::{Markup, class_fragment};
use super::labels::{Label, label};
use super::parts::Part;
use docstream_model::{CallStatus, Document, Meta, TextFormat};

use crate::facts::push_duration;
use crate::lines::line_count;
pub(crate) use code::{code_line, head as code_head};
pub(crate) use text::TAIL;

/// How the incremental view keeps a document of this type up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// Markdown in [`Part::Blocks`] and [`Part::Tail`] (and a [`Part::Head`] when
    /// `head` is set): finished blocks are appended, the open one is built.
    Markdown { head: bool },
    /// Code in [`Part::Lines`] and [`Part::Open`] under a [`Part::Head`].
    Code,
    /// These parts, each replaced when its content changes.
    Parts(&'static [Part]),
    /// Replaced whole when it changes.
    Whole,
}

/// The layout of a document.
pub(crate) fn layout(doc: &Document) -> Layout {
    match &doc.meta {
        Meta::Text(m) if m.format == TextFormat::Markdown => Layout::Markdown { head: false },
        Meta::Thinking(m) if !m.redacted => Layout::Markdown { head: true },
        Meta::CodeBlock(_) | Meta::CodeReference(_) => Layout::Code,
        Meta::FileEdit(_) => Layout::Parts(file_edit::PARTS),
        Meta::TerminalCommand(_) => Layout::Parts(terminal::PARTS),
        Meta::ToolCall(_) => Layout::Parts(tool_call::PARTS),
        Meta::Text(_)
        | Meta::Thinking(_)
        | Meta::Plan(_)
        | Meta::TodoUpdate(_)
        | Meta::Clarification(_)
        | Meta::Error(_) => Layout::Whole,
    }
}

/// Renders one document's element (a call that started a sub-agent with its run's
/// element empty: the run is a turn of its own, see [`render_document_with_run`]).
pub(crate) fn render_document(doc: &Document, opts: &RenderOptions, out: &mut String) {
    render_document_with_run(doc, false, opts, out, &mut |_| {});
}

/// Renders one document's element; for a call that started a sub-agent, `run` writes
/// the run's turn inside it. A `growing` document (one the stream may still append to)
/// is shown as the incremental view shows it mid-stream: a Markdown text's open block
/// as its preview, a code document's open line as it arrived.
pub(crate) fn render_document_with_run(
    doc: &Document,
    growing: bool,
    opts: &RenderOptions,
    out: &mut String,
    run: &mut dyn FnMut(&mut String),
) {
    open(doc, out);
    match &doc.meta {
        Meta::Text(m) => text::render(doc, m, growing, opts, out),
        Meta::Thinking(m) => thinking::render(doc, m, growing, opts, out),
        Meta::CodeBlock(_) | Meta::CodeReference(_) => code::render(doc, growing, opts, out),
        Meta::FileEdit(m) => file_edit::render(doc, m, opts, out),
        Meta::TerminalCommand(m) => terminal::render(m, opts, out),
        Meta::ToolCall(m) => tool_call::render(doc, m, opts, out, run),
        Meta::Plan(m) => plan::render(doc, m, opts, out),
        Meta::TodoUpdate(m) => todo_update::render(m, opts, out),
        Meta::Clarification(m) => clarification::render(m, out),
        Meta::Error(m) => error::render(doc, m, opts, out),
    }
    out.raw("</div>\n");
}

/// Renders the content of one part of a document (what a patch puts inside the part's
/// element). Parts a type does not have render nothing.
pub(crate) fn render_part(doc: &Document, part: Part, opts: &RenderOptions, out: &mut String) {
    match (&doc.meta, part) {
        (Meta::Thinking(m), Part::Head) => thinking::head(doc, m, opts, out),
        (Meta::CodeBlock(_) | Meta::CodeReference(_), Part::Head) => {
            code::head(doc, line_count(doc.text()), opts, out)
        }
        (Meta::FileEdit(m), _) => file_edit::part(doc, m, part, opts, out),
        (Meta::TerminalCommand(m), _) => terminal::part(m, part, opts, out),
        (Meta::ToolCall(m), _) => tool_call::part(doc, m, part, opts, out),
        _ => {}
    }
}

/// A hash of what a heavy part is rendered from, so that an update that leaves it alone
/// (a tool call's status changing, say) does not render it again; `None` for parts that
/// are cheap to render and compare.
pub(crate) fn part_key(doc: &Document, part: Part, opts: &RenderOptions) -> Option<u64> {
    let mut h = Key::new();
    match (&doc.meta, part) {
        (Meta::FileEdit(m), Part::Head | Part::Body) => {
            part.hash(&mut h);
            file_edit::diff_key(doc, m, &mut h)
        }
        (Meta::TerminalCommand(m), Part::Body) => (&m.output, &m.reason).hash(&mut h),
        (Meta::ToolCall(m), Part::Args | Part::Result) => {
            // Both are rendered from the call's view, which reads the name, the
            // arguments and the result (a result can turn a generic call into a read).
            part.hash(&mut h);
            m.tool_name.hash(&mut h);
            hash_value(&m.arguments, &mut h);
            match &m.result {
                Some(r) => {
                    (r.status as u8).hash(&mut h);
                    hash_value(&r.data, &mut h);
                }
                None => 0u8.hash(&mut h),
            }
        }
        _ => return None,
    }
    // The options a document's parts read (a price table changes turn headers only).
    (opts.locale, &opts.image_origins_allowed, opts.diff_mode).hash(&mut h);
    Some(h.finish())
}

/// The hasher of part keys: fast, with a fixed seed (no randomness in the renderer).
pub(crate) struct Key(foldhash::fast::FoldHasher<'static>);

impl Key {
    pub(crate) fn new() -> Key {
        Key(foldhash::fast::FixedState::with_seed(0x6473_7472_6561_6d00).build_hasher())
    }
}

impl Hasher for Key {
    fn finish(&self) -> u64 {
        self.0.finish()
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
    }
}

/// Hashes a JSON value (which has no `Hash` of its own).
fn hash_value(v: &serde_json::Value, h: &mut Key) {
    use serde_json::Value;
    match v {
        Value::Null => 0u8.hash(h),
        Value::Bool(b) => (1u8, *b).hash(h),
        Value::Number(n) => (2u8, n.as_f64().map(f64::to_bits), n.as_i64()).hash(h),
        Value::String(s) => (3u8, s).hash(h),
        Value::Array(a) => {
            (4u8, a.len()).hash(h);
            a.iter().for_each(|v| hash_value(v, h));
        }
        Value::Object(o) => {
            (5u8, o.len()).hash(h);
            for (k, v) in o {
                k.hash(h);
                hash_value(v, h);
            }
        }
    }
}

/// The opening tag of a document's element.
pub(crate) fn open(doc: &Document, out: &mut String) {
    out.raw("<div class=\"ds-doc ds-")
        .raw(doc.doc_type().class_name())
        .raw("\" data-doc-id=\"")
        .text(&doc.id)
        .raw("\">\n");
}

fn l(opts: &RenderOptions, key: Label) -> &'static str {
    label(opts.locale, key)
}

fn status_badge(out: &mut String, status: CallStatus, opts: &RenderOptions) {
    let (key, class) = match status {
        CallStatus::Running => (Label::Running, "running"),
        CallStatus::Success => (Label::Success, "success"),
        CallStatus::Error => (Label::Error, "error"),
        CallStatus::Rejected => (Label::Rejected, "rejected"),
        CallStatus::NoResult => (Label::NoResult, "no-result"),
        CallStatus::Denied => (Label::Denied, "denied"),
        CallStatus::Interrupted => (Label::Interrupted, "interrupted"),
    };
    out.raw("<span class=\"ds-status ds-status-")
        .raw(class)
        .raw("\">")
        .text(l(opts, key))
        .raw("</span>");
}

/// Why a call was refused or stopped, quoted as the tool said it.
fn reason(out: &mut String, text: &str, opts: &RenderOptions) {
    out.raw("<blockquote class=\"ds-reason\"><span class=\"ds-reason-label\">")
        .text(l(opts, Label::Reason))
        .raw("</span> ")
        .text(&super::terminal::strip_ansi(text.trim()))
        .raw("</blockquote>");
}

fn duration_span(out: &mut String, ms: Option<u64>, opts: &RenderOptions) {
    if let Some(ms) = ms {
        out.raw(" <span class=\"ds-duration\">")
            .text(l(opts, Label::Duration))
            .raw(" ");
        push_duration(out, ms);
        out.raw("</span>");
    }
}

/// A count with its noun: `1 line`, `3 lines`.
fn count(out: &mut String, n: u64, one: Label, many: Label, opts: &RenderOptions) {
    out.num(n)
        .raw(" ")
        .text(l(opts, if n == 1 { one } else { many }));
}

/// A copy control for the component to wire (no script in the markup): `what` says
/// which text of the document it copies (`code`, `output`), `name` is its label.
fn copy_button(out: &mut String, what: &str, name: Label, opts: &RenderOptions) {
    out.raw(" <button type=\"button\" class=\"ds-copy\" data-copy=\"")
        .raw(what)
        .raw("\">")
        .text(l(opts, name))
        .raw("</button>");
}

/// Lines of a tool's text shown before the rest fold (a body of up to one and a half
/// times this is shown whole).
pub(crate) const FOLD_LINES: usize = 40;

/// Opens the fold of a long body: `<details class="ds-more"><summary>Show all N
/// lines</summary>`; the caller writes the rest and closes it.
fn show_all(out: &mut String, lines: u64, opts: &RenderOptions) {
    show_all_of(out, lines, Label::Line, Label::Lines, opts);
}

/// Opens the fold of a long list: `Show all N files`/`matches`.
fn show_all_items(out: &mut String, n: u64, opts: &RenderOptions) {
    show_all_of(out, n, Label::ResultOne, Label::Results, opts);
}

fn show_all_of(out: &mut String, n: u64, one: Label, many: Label, opts: &RenderOptions) {
    out.raw("<details class=\"ds-more\"><summary>")
        .text(l(opts, Label::ShowAll))
        .raw(" ");
    count(out, n, one, many, opts);
    out.raw("</summary>");
}

/// A tool's text output (ANSI codes stripped) in a block that scrolls, folded after
/// [`FOLD_LINES`] lines.
fn fold_text(out: &mut String, text: &str, opts: &RenderOptions) {
    let text = super::terminal::strip_ansi(text);
    let total = line_count(&text);
    if total as usize <= FOLD_LINES + FOLD_LINES / 2 {
        out.raw("<pre class=\"ds-tool-text\" tabindex=\"0\">")
            .text(&text)
            .raw("</pre>");
        return;
    }
    let cut = text
        .match_indices('\n')
        .nth(FOLD_LINES - 1)
        .map_or(text.len(), |(i, _)| i + 1);
    out.raw("<pre class=\"ds-tool-text\" tabindex=\"0\">")
        .text(&text[..cut])
        .raw("</pre>");
    show_all(out, total, opts);
    out.raw("<pre class=\"ds-tool-text\" tabindex=\"0\">")
        .text(&text[cut..])
        .raw("</pre></details>");
}

/// A `language-…` class attribute for a fence's language (nothing when empty).
fn language_class(out: &mut String, language: &str) {
    let class = class_fragment(language);
    if !class.is_empty() {
        out.raw(" class=\"language-").raw(&class).raw("\"");
    }
}
