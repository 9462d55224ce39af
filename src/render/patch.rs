//! Incremental rendering: [`HtmlView`] turns the [`Changes`] of a [`DocStream`]
//! (`take_changes()`) into [`Patch`]es, and [`PageModel`] applies them to an in-memory
//! page, so that applying every patch gives exactly [`render_conversation`]'s HTML.
//!
//! A growing text document re-renders only its unfinished tail; finished blocks are
//! rendered once and appended.
//!
//! [`DocStream`]: crate::DocStream
//! [`render_conversation`]: super::render_conversation

use serde::{Deserialize, Serialize};

use super::blocks::{SplitState, advance, has_reference_definition};
use super::markdown::{MarkdownOptions, Slugs, render_markdown_with};
use super::{
    CONVERSATION_CLOSE, CONVERSATION_OPEN, RenderOptions, TURN_CLOSE, document_open,
    render_document, render_turn_header, text_document_html, todo_changes, turn_open,
};
use crate::model::{Changes, Conversation, DocChange, Document, Meta, TextFormat};

/// One change to the rendered page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(tag = "op", rename_all = "snake_case")]
#[must_use = "patches must be applied to the page"]
pub enum Patch {
    /// Append a turn element (without documents; they follow as `insert_document`).
    InsertTurn {
        /// Index of the turn.
        turn: usize,
        /// The turn element: opening tag, header, closing tag.
        html: String,
    },
    /// Replace the header element of a turn (prompt, or model, status, usage …).
    ReplaceTurnHeader {
        /// Index of the turn.
        turn: usize,
        /// The new header element.
        html: String,
    },
    /// Insert a document element at `index` within its turn.
    InsertDocument {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The document's id (`data-doc-id`).
        id: String,
        /// The document element.
        html: String,
    },
    /// Replace a document element whole.
    ReplaceDocument {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The document's id.
        id: String,
        /// The new document element.
        html: String,
    },
    /// Append finished blocks to a text document's `.ds-blocks` element.
    AppendBlocks {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The document's id.
        id: String,
        /// HTML of the blocks.
        html: String,
    },
    /// Replace the content of a text document's `.ds-tail` element.
    ReplaceTail {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The document's id.
        id: String,
        /// HTML of the unfinished tail.
        html: String,
    },
}

/// Render cache of one document.
#[derive(Debug, Clone)]
enum DocCache {
    /// Anything rendered whole.
    Whole(String),
    /// A Markdown text: finished blocks, tail.
    Text {
        open: String,
        blocks: String,
        tail: String,
        tail_start: usize,
        state: SplitState,
        slugs: Slugs,
        no_split: bool,
    },
}

/// The incremental renderer: owns the render caches of a page.
#[derive(Debug, Clone, Default)]
pub struct HtmlView {
    options: RenderOptions,
    opens: Vec<String>,
    headers: Vec<String>,
    docs: Vec<Vec<DocCache>>,
}

impl HtmlView {
    /// A renderer for an empty page.
    pub fn new(options: RenderOptions) -> HtmlView {
        HtmlView {
            options,
            opens: Vec::new(),
            headers: Vec::new(),
            docs: Vec::new(),
        }
    }

    /// The patches that bring the page up to date with `conversation`, given what
    /// changed since the last call.
    pub fn update(&mut self, conversation: &Conversation, changes: &Changes) -> Vec<Patch> {
        let mut patches = Vec::new();
        let updates = todo_changes(conversation);
        let todo_changed = changes.documents.keys().any(|k| {
            doc_at(conversation, k.turn, k.index)
                .is_some_and(|d| matches!(d.meta, Meta::TodoUpdate(_)))
        });
        // New turns (and any turn the view has not seen: robust to missed records).
        for (t, turn) in conversation.turns.iter().enumerate() {
            let header = render_turn_header(turn, &self.options);
            if t >= self.headers.len() {
                let open = turn_open(t, turn);
                let mut html = open.clone();
                html.push_str(&header);
                html.push_str(TURN_CLOSE);
                patches.push(Patch::InsertTurn { turn: t, html });
                self.opens.push(open);
                self.headers.push(header);
                self.docs.push(Vec::new());
            } else if (changes.turns_updated.contains(&t) || changes.turns_added.contains(&t))
                && self.headers[t] != header
            {
                patches.push(Patch::ReplaceTurnHeader {
                    turn: t,
                    html: header.clone(),
                });
                self.headers[t] = header;
            }
        }
        for (t, turn) in conversation.turns.iter().enumerate() {
            let crate::model::Turn::Assistant(r) = turn else {
                continue;
            };
            for (i, doc) in r.documents.iter().enumerate() {
                let key = crate::model::DocKey { turn: t, index: i };
                let change = changes.documents.get(&key).copied();
                let changed =
                    change.is_some() || (todo_changed && matches!(doc.meta, Meta::Plan(_)));
                if i >= self.docs[t].len() {
                    let cache = self.fresh(doc, &updates);
                    patches.push(Patch::InsertDocument {
                        turn: t,
                        index: i,
                        id: doc.id.clone(),
                        html: cache_html(&cache),
                    });
                    self.docs[t].push(cache);
                } else if changed {
                    self.refresh(t, i, doc, change, &updates, &mut patches);
                }
            }
        }
        patches
    }

    /// The options the view renders with.
    pub fn options(&self) -> &RenderOptions {
        &self.options
    }

    /// The HTML of the page as the patches so far leave it (the conversation element),
    /// assembled from the render caches: after [`update`](HtmlView::update) with every
    /// change, it equals [`render_conversation`](super::render_conversation)'s output
    /// without rendering anything again.
    pub fn html(&self) -> String {
        let mut out = String::from(CONVERSATION_OPEN);
        for (t, open) in self.opens.iter().enumerate() {
            out.push_str(open);
            out.push_str(&self.headers[t]);
            for cache in &self.docs[t] {
                out.push_str(&cache_html(cache));
            }
            out.push_str(TURN_CLOSE);
        }
        out.push_str(CONVERSATION_CLOSE);
        out
    }

    fn fresh(&self, doc: &Document, updates: &[&crate::model::TodoChange]) -> DocCache {
        match &doc.meta {
            Meta::Text(m) if m.format == TextFormat::Markdown => {
                let mut cache = DocCache::Text {
                    open: document_open(doc),
                    blocks: String::new(),
                    tail: String::new(),
                    tail_start: 0,
                    state: SplitState::default(),
                    slugs: Slugs::default(),
                    no_split: false,
                };
                self.grow(&mut cache, doc);
                cache
            }
            _ => DocCache::Whole(render_document(doc, &self.options, updates)),
        }
    }

    /// Brings a text cache up to date; returns the newly finished blocks' HTML.
    fn grow(&self, cache: &mut DocCache, doc: &Document) -> String {
        let DocCache::Text {
            blocks,
            tail,
            tail_start,
            state,
            slugs,
            no_split,
            ..
        } = cache
        else {
            return String::new();
        };
        let text = doc.text();
        let opts = MarkdownOptions {
            image_origins_allowed: &self.options.image_origins_allowed,
            anchor_prefix: &doc.id,
        };
        let mut appended = String::new();
        if !*no_split {
            // Only the unscanned part can hold a new reference definition.
            let from = state.scanned.min(text.len());
            let from = text[..from].rfind('\n').map_or(0, |p| p + 1);
            if has_reference_definition(&text[from..]) {
                *no_split = true;
            } else {
                for p in advance(text, state) {
                    let html = render_markdown_with(&text[*tail_start..p], &opts, slugs);
                    appended.push_str(&html);
                    *tail_start = p;
                }
                blocks.push_str(&appended);
            }
        }
        let mut tail_slugs = slugs.clone();
        *tail = render_markdown_with(&text[*tail_start..], &opts, &mut tail_slugs);
        appended
    }

    fn refresh(
        &mut self,
        t: usize,
        i: usize,
        doc: &Document,
        change: Option<DocChange>,
        updates: &[&crate::model::TodoChange],
        patches: &mut Vec<Patch>,
    ) {
        let id = doc.id.clone();
        let old = &self.docs[t][i];
        // A text cache survives when the document is still the same Markdown text and
        // its content was only appended to (so the finished blocks' text is unchanged).
        let appended_only = matches!(change, Some(DocChange::Appended { .. }));
        let reuse = appended_only
            && match (old, &doc.meta) {
                (
                    DocCache::Text {
                        open,
                        tail_start,
                        no_split,
                        ..
                    },
                    Meta::Text(m),
                ) => {
                    m.format == TextFormat::Markdown
                        && *open == document_open(doc)
                        && !*no_split
                        && doc.text().len() >= *tail_start
                        && doc.text().is_char_boundary(*tail_start)
                }
                _ => false,
            };
        if reuse {
            let mut cache = self.docs[t][i].clone();
            let old_tail = match &cache {
                DocCache::Text { tail, .. } => tail.clone(),
                DocCache::Whole(_) => String::new(),
            };
            let appended = self.grow(&mut cache, doc);
            if let DocCache::Text { no_split: true, .. } = cache {
                // A reference definition appeared: start again, unsplit.
                let cache = self.fresh_unsplit(doc);
                patches.push(Patch::ReplaceDocument {
                    turn: t,
                    index: i,
                    id,
                    html: cache_html(&cache),
                });
                self.docs[t][i] = cache;
                return;
            }
            if !appended.is_empty() {
                patches.push(Patch::AppendBlocks {
                    turn: t,
                    index: i,
                    id: id.clone(),
                    html: appended,
                });
            }
            if let DocCache::Text { tail, .. } = &cache
                && *tail != old_tail
            {
                patches.push(Patch::ReplaceTail {
                    turn: t,
                    index: i,
                    id,
                    html: tail.clone(),
                });
            }
            self.docs[t][i] = cache;
            return;
        }
        let cache = match &doc.meta {
            Meta::Text(m)
                if m.format == TextFormat::Markdown && has_reference_definition(doc.text()) =>
            {
                self.fresh_unsplit(doc)
            }
            _ => self.fresh(doc, updates),
        };
        let html = cache_html(&cache);
        if html != cache_html(&self.docs[t][i]) {
            patches.push(Patch::ReplaceDocument {
                turn: t,
                index: i,
                id,
                html,
            });
        }
        self.docs[t][i] = cache;
    }

    fn fresh_unsplit(&self, doc: &Document) -> DocCache {
        let opts = MarkdownOptions {
            image_origins_allowed: &self.options.image_origins_allowed,
            anchor_prefix: &doc.id,
        };
        DocCache::Text {
            open: document_open(doc),
            blocks: String::new(),
            tail: render_markdown_with(doc.text(), &opts, &mut Slugs::default()),
            tail_start: 0,
            state: SplitState::default(),
            slugs: Slugs::default(),
            no_split: true,
        }
    }
}

fn doc_at(c: &Conversation, turn: usize, index: usize) -> Option<&Document> {
    match c.turns.get(turn)? {
        crate::model::Turn::Assistant(r) => r.documents.get(index),
        crate::model::Turn::User(_) => None,
    }
}

fn cache_html(cache: &DocCache) -> String {
    match cache {
        DocCache::Whole(h) => h.clone(),
        DocCache::Text {
            open, blocks, tail, ..
        } => text_document_html(open, blocks, tail),
    }
}

/// A rendered page held in memory, to which patches apply (what a browser's DOM does
/// with them). Its [`html`](PageModel::html) equals `render_conversation`'s output once
/// every patch is applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageModel {
    turns: Vec<TurnModel>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct TurnModel {
    open: String,
    header: String,
    docs: Vec<DocModel>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum DocModel {
    Whole(String),
    Text {
        open: String,
        blocks: String,
        tail: String,
    },
}

const BLOCKS_OPEN: &str = "<div class=\"ds-blocks\">";
const BLOCKS_TO_TAIL: &str = "</div>\n<div class=\"ds-tail\">";
const TAIL_CLOSE: &str = "</div>\n</div>\n";

fn parse_doc(html: &str) -> DocModel {
    if let Some(b) = html.find(BLOCKS_OPEN)
        && html.contains("class=\"ds-doc ds-text\"")
        && html.ends_with(TAIL_CLOSE)
        && let Some(m) = html.rfind(BLOCKS_TO_TAIL)
    {
        return DocModel::Text {
            open: html[..b].to_owned(),
            blocks: html[b + BLOCKS_OPEN.len()..m].to_owned(),
            tail: html[m + BLOCKS_TO_TAIL.len()..html.len() - TAIL_CLOSE.len()].to_owned(),
        };
    }
    DocModel::Whole(html.to_owned())
}

impl PageModel {
    /// An empty page.
    pub fn new() -> PageModel {
        PageModel::default()
    }

    /// Applies one patch. Patches naming a turn or document the page does not have are
    /// ignored.
    pub fn apply(&mut self, patch: &Patch) {
        match patch {
            Patch::InsertTurn { turn, html } => {
                let body = html.strip_suffix(TURN_CLOSE).unwrap_or(html);
                let split = body.find('\n').map_or(0, |p| p + 1);
                let model = TurnModel {
                    open: body[..split].to_owned(),
                    header: body[split..].to_owned(),
                    docs: Vec::new(),
                };
                let at = (*turn).min(self.turns.len());
                self.turns.insert(at, model);
            }
            Patch::ReplaceTurnHeader { turn, html } => {
                if let Some(t) = self.turns.get_mut(*turn) {
                    t.header = html.clone();
                }
            }
            Patch::InsertDocument {
                turn, index, html, ..
            } => {
                if let Some(t) = self.turns.get_mut(*turn) {
                    let at = (*index).min(t.docs.len());
                    t.docs.insert(at, parse_doc(html));
                }
            }
            Patch::ReplaceDocument {
                turn, index, html, ..
            } => {
                if let Some(d) = self.doc_mut(*turn, *index) {
                    *d = parse_doc(html);
                }
            }
            Patch::AppendBlocks {
                turn, index, html, ..
            } => {
                if let Some(DocModel::Text { blocks, .. }) = self.doc_mut(*turn, *index) {
                    blocks.push_str(html);
                }
            }
            Patch::ReplaceTail {
                turn, index, html, ..
            } => {
                if let Some(DocModel::Text { tail, .. }) = self.doc_mut(*turn, *index) {
                    *tail = html.clone();
                }
            }
        }
    }

    fn doc_mut(&mut self, turn: usize, index: usize) -> Option<&mut DocModel> {
        self.turns.get_mut(turn)?.docs.get_mut(index)
    }

    /// The page's HTML (the conversation element).
    pub fn html(&self) -> String {
        let mut out = String::from(CONVERSATION_OPEN);
        for t in &self.turns {
            out.push_str(&t.open);
            out.push_str(&t.header);
            for d in &t.docs {
                match d {
                    DocModel::Whole(h) => out.push_str(h),
                    DocModel::Text { open, blocks, tail } => {
                        out.push_str(&text_document_html(open, blocks, tail))
                    }
                }
            }
            out.push_str(TURN_CLOSE);
        }
        out.push_str(CONVERSATION_CLOSE);
        out
    }
}
