//! Renderers: safe HTML for every document type, the diff and plan view objects and
//! plain-text progress lines (SPEC §5).
//!
//! Renderers read the conversation and never change it; they are pure functions of the
//! state and [`RenderOptions`] (no clock, no IO) writing into one sink
//! ([`escape::Markup`]). [`render_conversation`] renders a whole page at once;
//! [`patch::HtmlView`] keeps a page up to date from the change log while a stream
//! arrives, and both give the same HTML.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod ascii_runs;
mod blocks;
mod diff;
mod document;
pub mod escape;
mod facts;
mod json;
pub mod labels;
mod lines;
pub mod markdown;
pub mod markdown_export;
#[cfg(feature = "math")]
pub mod math;
pub mod page;
pub mod parts;
pub mod patch;
mod plan;
mod preview;
pub mod progress;
#[cfg(feature = "highlight")]
pub mod syntax;
mod terminal;
mod time;
mod tool_call;
mod turn;
pub mod url;
mod user_prompt;
mod view;

use serde::{Deserialize, Serialize};

use docstream_model::{Conversation, DocKey, Meta, Turn};
use escape::Markup;
use labels::Locale;

pub use view::{HtmlView, Work};

/// Which diff view(s) a `file_edit` shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum DiffMode {
    /// Both views; the stylesheet shows the unified one and the embedder may switch.
    #[default]
    Both,
    /// Only the unified view.
    Unified,
    /// Only the side-by-side view.
    SideBySide,
}

/// Options of the renderers.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderOptions {
    /// Language of the labels.
    pub locale: Locale,
    /// Origins (`https://host[:port]`) whose images may be loaded; none by default.
    pub image_origins_allowed: Vec<String>,
    /// Which diff views to show.
    pub diff_mode: DiffMode,
    /// The caller's price table: responses whose source states no cost show one computed
    /// from it, marked as computed (`≈`). None by default: no price is built in.
    /// (Feature `prices`.)
    #[cfg(feature = "prices")]
    #[serde(skip)]
    pub prices: Option<docstream_model::Prices>,
}

impl RenderOptions {
    /// What `response` cost: stated by the source, else computed from [`Self::prices`]
    /// (in a build with the `prices` feature). `format` is the conversation's.
    pub(crate) fn cost_of(
        &self,
        response: &docstream_model::ChatResponse,
        format: Option<&str>,
    ) -> Option<docstream_model::Cost> {
        #[cfg(feature = "prices")]
        return response.cost(self.prices.as_ref(), format);
        #[cfg(not(feature = "prices"))]
        {
            let _ = format;
            response.stated_cost()
        }
    }

    /// The conversation's totals, costs as [`Self::cost_of`] gives them.
    pub(crate) fn totals_of(&self, c: &docstream_model::Conversation) -> docstream_model::Totals {
        #[cfg(feature = "prices")]
        return c.totals_priced(self.prices.as_ref());
        #[cfg(not(feature = "prices"))]
        c.totals()
    }

    /// Whether costs are computed from a price table (responses without one are counted).
    pub(crate) fn has_prices(&self) -> bool {
        #[cfg(feature = "prices")]
        return self.prices.is_some();
        #[cfg(not(feature = "prices"))]
        false
    }

    /// The options of one Markdown text whose anchors take `anchor_prefix`.
    pub(crate) fn markdown<'a>(&'a self, anchor_prefix: &'a str) -> markdown::MarkdownOptions<'a> {
        markdown::MarkdownOptions {
            image_origins_allowed: &self.image_origins_allowed,
            anchor_prefix,
            locale: self.locale,
        }
    }
}

/// The opening tag of the conversation's element.
pub const CONVERSATION_OPEN: &str = "<main class=\"ds-conversation\">\n";
/// The closing tag of the conversation's element.
pub const CONVERSATION_CLOSE: &str = "</main>\n";

/// Renders one turn with its documents, and the sub-agent runs shown inside them.
pub fn render_turn(
    conversation: &Conversation,
    index: usize,
    opts: &RenderOptions,
    out: &mut String,
) {
    render_turn_into(conversation, index, opts, &[], out, &mut |_| {});
}

/// Writes turn `index` into `out` (a sub-agent's run as nested in its call), calling
/// `between` before each document; the documents in `open` are still growing.
fn render_turn_into(
    conversation: &Conversation,
    index: usize,
    opts: &RenderOptions,
    open: &[DocKey],
    out: &mut String,
    between: &mut dyn FnMut(&mut String),
) {
    let Some(turn) = conversation.turns.get(index) else {
        return;
    };
    let parent = conversation.subagent_parent(index);
    turn::turn_open(index, turn, parent, out);
    turn::turn_header(conversation, index, parent.is_some(), opts, out);
    if let Turn::Assistant(r) = turn {
        for (i, doc) in r.documents.iter().enumerate() {
            between(out);
            let key = DocKey {
                turn: index,
                index: i,
            };
            // A few documents grow at a time: looked up one by one (no sort, whose
            // code would cost the default module about 6 KB gzip).
            let growing = open.contains(&key);
            match conversation.subagent_run(key) {
                Some(run) => {
                    document::render_document_with_run(doc, growing, opts, out, &mut |out| {
                        render_turn_into(conversation, run, opts, open, out, between)
                    })
                }
                None => document::render_document_with_run(doc, growing, opts, out, &mut |_| {}),
            }
        }
    }
    out.raw(turn::turn_close(parent));
}

/// Renders a whole conversation (the body of a page, without the page around it), every
/// document as finished: what applying every patch of a finished stream gives.
pub fn render_conversation(conversation: &Conversation, opts: &RenderOptions) -> String {
    render_conversation_live(conversation, opts, &[])
}

/// Renders a whole conversation as it stands mid-stream: the documents in `open`
/// (those the stream may still append to, `DocStream::open_documents`) as the
/// incremental view shows them — a Markdown text's finished blocks and the preview of
/// its open block, a code document's open line — and everything else as finished. At
/// any moment this is the page that applying the patches so far has built.
pub fn render_conversation_live(
    conversation: &Conversation,
    opts: &RenderOptions,
    open: &[DocKey],
) -> String {
    let mut out = String::with_capacity(4096);
    render_into(conversation, opts, open, &mut out, |_| {});
    out
}

/// Renders a whole conversation as [`render_conversation_live`] does, handing it to
/// `emit` in pieces of about `piece_bytes` (cut between documents), so that the whole
/// page never has to be in memory at once: the WebAssembly binding hands each piece to
/// JavaScript as it is written.
pub fn render_conversation_in_pieces(
    conversation: &Conversation,
    opts: &RenderOptions,
    open: &[DocKey],
    piece_bytes: usize,
    mut emit: impl FnMut(&str),
) {
    let mut out = String::with_capacity(piece_bytes.min(1 << 16) + 4096);
    render_into(conversation, opts, open, &mut out, |out| {
        if out.len() >= piece_bytes {
            emit(out);
            out.clear();
        }
    });
    emit(&out);
}

/// Writes the conversation into `out`, calling `between` before each document; the
/// documents in `open` are still growing.
fn render_into(
    conversation: &Conversation,
    opts: &RenderOptions,
    open: &[DocKey],
    out: &mut String,
    mut between: impl FnMut(&mut String),
) {
    out.raw(CONVERSATION_OPEN);
    for i in 0..conversation.turns.len() {
        // A sub-agent's run is written inside the call that started it.
        if conversation.subagent_parent(i).is_none() {
            render_turn_into(conversation, i, opts, open, out, &mut between);
        }
    }
    out.raw(CONVERSATION_CLOSE);
}

/// The diff view of the `file_edit` document with this id; `None` when there is no
/// such document or it is not a file edit.
pub fn diff_view_by_id(conversation: &Conversation, id: &str) -> Option<diff::DiffView> {
    let doc = conversation.document(id)?;
    match &doc.meta {
        Meta::FileEdit(m) => Some(diff::diff_view(m, doc.content.as_deref())),
        _ => None,
    }
}

/// The plan view of the `plan` document with this id (todo statuses as the
/// `todo_update`s that followed it set them, as its HTML shows them); `None` when there
/// is no such document or it is not a plan.
pub fn plan_view_by_id(conversation: &Conversation, id: &str) -> Option<plan::PlanView> {
    match &conversation.document(id)?.meta {
        Meta::Plan(m) => Some(plan::plan_view(m)),
        _ => None,
    }
}
