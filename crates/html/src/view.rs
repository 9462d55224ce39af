//! [`HtmlView`]: the incremental renderer. It turns the change log of a
//! [`DocStream`](https://docs.rs/docstream-core) into patches, touching only the turns and documents
//! the log names, and only what changed in them:
//!
//! - a Markdown text appends each block once, when the next one starts, rendered exactly
//!   as the whole text would render it; the unfinished block is shown by the
//!   [`preview`](crate::preview), which only ever appends, and is rendered exactly once
//!   the text closes;
//! - a code document appends each line once, when it is complete;
//! - a tool document replaces the parts whose content changed (its status, its result),
//!   and renders a heavy part again only when what it is drawn from changed;
//! - anything else is rendered again and replaced only when its HTML changed.
//!
//! Applying every patch of a finished stream gives exactly
//! [`render_conversation`](crate::render_conversation)'s HTML.

use std::hash::{Hash, Hasher};

use crate::RenderOptions;
use crate::blocks::BlockScanner;
use crate::document::{self, Key, Layout, TAIL, code_line, render_document, render_part};
use crate::escape::Markup;
use crate::markdown::{MarkdownOptions, Slugs, markdown_bytes_rendered, render_markdown_into};
use crate::parts::{Attr, Part, Tag};
use crate::patch::{At, Patch, PatchWriter, decode};
use crate::preview::{Preview, PreviewOut};
use crate::turn::{turn_close, turn_header, turn_open};
use docstream_model::{Changes, Conversation, DocChange, DocKey, Document, DocumentType, Turn};

/// The incremental renderer: what the page shows of each turn and document, kept as
/// small summaries (hashes, offsets, the state of the open block), never as HTML.
#[derive(Debug, Clone, Default)]
pub struct HtmlView {
    options: RenderOptions,
    turns: Vec<TurnView>,
    /// Reused for rendering a part before it is written or compared.
    scratch: String,
    work: Work,
}

/// What a view has done so far, counted in bytes: deterministic work counters for
/// tests that guard against rendering work growing faster than the input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Work {
    /// HTML rendered (documents, parts, blocks, headers), whether or not it was sent.
    pub rendered: u64,
    /// Markdown handed to pulldown-cmark (by this view, on this thread).
    pub markdown: u64,
    /// Text read by the preview of open blocks.
    pub previewed: u64,
}

#[derive(Debug, Clone, Default)]
struct TurnView {
    header: u64,
    /// A sub-agent's run, shown inside its call (its header is a `<summary>`).
    nested: bool,
    docs: Vec<DocView>,
}

#[derive(Debug, Clone)]
struct DocView {
    doc_type: DocumentType,
    state: DocState,
}

#[derive(Debug, Clone)]
enum DocState {
    Markdown(Box<MarkdownView>),
    Code(CodeView),
    /// The hash of each part's HTML, or of what a heavy part is drawn from.
    Parts(Vec<(Part, u64)>),
    /// The hash of the element's HTML.
    Whole(u64),
}

/// A Markdown text as shown: blocks appended so far, and the open block's preview.
#[derive(Debug, Clone, Default)]
struct MarkdownView {
    scanner: BlockScanner,
    slugs: Slugs,
    /// Where the open block starts.
    tail_start: usize,
    /// Bytes of the text read (by the scanner and the preview).
    read: usize,
    preview: Preview,
    /// A link reference definition was seen: the text is one block.
    unsplit: bool,
    /// Hash of the head (a thinking document's summary).
    head: u64,
    /// Reused for split points.
    points: Vec<usize>,
}

/// A code document as shown: complete lines appended, the open line built.
#[derive(Debug, Clone, Default)]
struct CodeView {
    /// End of the last complete line.
    done: usize,
    /// Number of the next line.
    next_line: u64,
    /// Bytes of the open line shown.
    open_len: usize,
    head: u64,
}

fn hash_str(s: &str) -> u64 {
    let mut h = Key::new();
    s.hash(&mut h);
    h.finish()
}

impl HtmlView {
    /// A renderer for an empty page.
    pub fn new(options: RenderOptions) -> HtmlView {
        HtmlView {
            options,
            ..HtmlView::default()
        }
    }

    /// The options the view renders with.
    pub fn options(&self) -> &RenderOptions {
        &self.options
    }

    /// The work done so far.
    pub fn work(&self) -> Work {
        self.work
    }

    /// The patches that bring the page up to date with `conversation`, given what
    /// changed since the last call.
    pub fn update(&mut self, conversation: &Conversation, changes: &Changes) -> Vec<Patch> {
        let mut w = PatchWriter::new();
        self.update_into(conversation, changes, &mut w);
        decode(w.as_str()).unwrap_or_default()
    }

    /// The patches that build, on an empty page, what `conversation` holds so far (`open`:
    /// its documents still growing, as the stream's `open_documents()` lists them), as
    /// one update that carried the whole stream would: for a view that starts after the
    /// stream did (a second reader of a followed file). Updates follow on from it. Costs
    /// the conversation's size once.
    pub fn catch_up(&mut self, conversation: &Conversation, open: &[DocKey]) -> Vec<Patch> {
        let mut changes = Changes::default();
        for (t, turn) in conversation.turns.iter().enumerate() {
            changes.turn_added(t);
            let Turn::Assistant(response) = turn else {
                continue;
            };
            for index in 0..response.documents.len() {
                let key = DocKey { turn: t, index };
                changes.doc(key, DocChange::Inserted);
                if !open.contains(&key) {
                    changes.close(key);
                }
            }
        }
        self.update(conversation, &changes)
    }

    /// Writes the patches that bring the page up to date with `conversation`, given what
    /// changed since the last call, in the wire form.
    pub fn update_into(&mut self, conv: &Conversation, changes: &Changes, w: &mut PatchWriter) {
        let markdown = markdown_bytes_rendered();
        self.update_changes(conv, changes, w);
        self.work.markdown += markdown_bytes_rendered() - markdown;
    }

    fn update_changes(&mut self, conv: &Conversation, changes: &Changes, w: &mut PatchWriter) {
        // New turns in order; a sub-agent's run (and any turn after it) waits until the
        // call it goes in has been inserted.
        let mut added = changes.turns_added().iter().copied().peekable();
        let first = changes.documents().first().map(|&(k, _)| k);
        self.insert_ready_turns(conv, &mut added, first, w);
        for &t in changes.turns_updated() {
            let Some(turn) = conv.turns.get(t) else {
                continue;
            };
            if t >= self.turns.len() {
                self.insert_turn(conv, t, turn, w);
                continue;
            }
            self.scratch.clear();
            turn_header(
                conv,
                t,
                self.turns[t].nested,
                &self.options,
                &mut self.scratch,
            );
            self.work.rendered += self.scratch.len() as u64;
            let h = hash_str(&self.scratch);
            if h != self.turns[t].header {
                self.turns[t].header = h;
                w.replace_turn_header(t, &self.scratch);
            }
        }
        let mut closed = changes.closed().iter().peekable();
        for &(key, change) in changes.documents() {
            self.insert_ready_turns(conv, &mut added, Some(key), w);
            while let Some(&&c) = closed.peek() {
                if c >= key {
                    break;
                }
                self.close(conv, c, w);
                closed.next();
            }
            let is_closed = closed.next_if_eq(&&key).is_some();
            self.document(conv, key, change, is_closed, w);
            if is_closed {
                self.close(conv, key, w);
            }
        }
        for &c in closed {
            self.close(conv, c, w);
        }
        self.insert_ready_turns(conv, &mut added, None, w);
    }

    /// Inserts the next new turns, in order, up to one that is a sub-agent's run whose
    /// call is not yet on the page (at or after `next`, the next document to be
    /// written; `None` when every document is).
    fn insert_ready_turns(
        &mut self,
        conv: &Conversation,
        added: &mut std::iter::Peekable<impl Iterator<Item = usize>>,
        next: Option<DocKey>,
        w: &mut PatchWriter,
    ) {
        while let Some(&t) = added.peek() {
            let ready = match (conv.subagent_parent(t), next) {
                (Some(parent), Some(next)) => parent < next,
                _ => true,
            };
            if !ready {
                return;
            }
            added.next();
            if let Some(turn) = conv.turns.get(t) {
                self.insert_turn(conv, t, turn, w);
            }
        }
    }

    /// A new turn's element; a sub-agent's run names the call it goes in, and the page
    /// puts it there.
    fn insert_turn(&mut self, conv: &Conversation, t: usize, turn: &Turn, w: &mut PatchWriter) {
        let parent = conv.subagent_parent(t);
        self.scratch.clear();
        turn_header(conv, t, parent.is_some(), &self.options, &mut self.scratch);
        self.work.rendered += self.scratch.len() as u64;
        let header = hash_str(&self.scratch);
        let mut html = String::with_capacity(self.scratch.len() + 120);
        turn_open(t, turn, parent, &mut html);
        html.push_str(&self.scratch);
        html.push_str(turn_close(parent));
        w.insert_turn(t, &html);
        if t >= self.turns.len() {
            self.turns.resize_with(t + 1, TurnView::default);
        }
        self.turns[t] = TurnView {
            header,
            nested: parent.is_some(),
            docs: Vec::new(),
        };
    }

    fn document(
        &mut self,
        conv: &Conversation,
        key: DocKey,
        change: DocChange,
        complete: bool,
        w: &mut PatchWriter,
    ) {
        let Some(doc) = doc_at(conv, key) else { return };
        let Some(turn) = self.turns.get_mut(key.turn) else {
            return;
        };
        let at = At {
            turn: key.turn,
            index: key.index,
        };
        let known = turn.docs.get(key.index).map(|d| d.doc_type);
        match (known, change) {
            (None, _) => self.insert(doc, at, complete, w),
            (Some(t), _) if t != doc.doc_type() => self.replace(doc, at, complete, w),
            (Some(_), DocChange::Appended { .. } | DocChange::Head) => self.grow(doc, at, w),
            (Some(_), _) => self.refresh(doc, at, w),
        }
    }

    fn view_mut(&mut self, at: At) -> &mut DocView {
        &mut self.turns[at.turn].docs[at.index]
    }

    /// A new document: its element, then (for a growing one) what it holds so far.
    fn insert(&mut self, doc: &Document, at: At, complete: bool, w: &mut PatchWriter) {
        if at.index > self.turns[at.turn].docs.len() {
            return; // a gap the change log never leaves
        }
        let state = self.render_new(doc, complete);
        self.work.rendered += self.scratch.len() as u64;
        w.insert_document(at, &self.scratch);
        let growing = matches!(state, DocState::Markdown(_) | DocState::Code(_));
        self.turns[at.turn].docs.insert(
            at.index,
            DocView {
                doc_type: doc.doc_type(),
                state,
            },
        );
        if growing {
            self.grow(doc, at, w);
        }
    }

    /// A document whose element is replaced whole (its type or content changed).
    fn replace(&mut self, doc: &Document, at: At, complete: bool, w: &mut PatchWriter) {
        let state = self.render_new(doc, complete);
        self.work.rendered += self.scratch.len() as u64;
        w.replace_document(at, &self.scratch);
        let growing = matches!(state, DocState::Markdown(_) | DocState::Code(_));
        *self.view_mut(at) = DocView {
            doc_type: doc.doc_type(),
            state,
        };
        if growing {
            self.grow(doc, at, w);
        }
    }

    /// Renders a document's element into the scratch buffer: whole, or for a text or
    /// code document that will grow, without content (it follows as appends). Returns
    /// the state of what was rendered.
    fn render_new(&mut self, doc: &Document, complete: bool) -> DocState {
        let opts = &self.options;
        let out = &mut self.scratch;
        out.clear();
        let layout = document::layout(doc);
        match layout {
            Layout::Markdown { head } if !complete => {
                render_shell(doc, opts, out);
                let mut m = MarkdownView::default();
                if head {
                    let mut h = String::new();
                    render_part(&shell_of(doc), Part::Head, opts, &mut h);
                    m.head = hash_str(&h);
                }
                DocState::Markdown(Box::new(m))
            }
            Layout::Code if !complete => {
                render_shell(doc, opts, out);
                let mut h = String::new();
                document::code_head(doc, 0, opts, &mut h);
                DocState::Code(CodeView {
                    next_line: code_start(doc),
                    head: hash_str(&h),
                    ..CodeView::default()
                })
            }
            Layout::Parts(parts) => {
                render_document(doc, opts, out);
                let mut hashes = Vec::with_capacity(parts.len());
                let mut part = String::new();
                for &p in parts {
                    let h = match document::part_key(doc, p, opts) {
                        Some(k) => k,
                        None => {
                            part.clear();
                            render_part(doc, p, opts, &mut part);
                            hash_str(&part)
                        }
                    };
                    hashes.push((p, h));
                }
                DocState::Parts(hashes)
            }
            Layout::Markdown { .. } | Layout::Code | Layout::Whole => {
                render_document(doc, opts, out);
                DocState::Whole(hash_str(out))
            }
        }
    }

    /// Content was appended (or only the head changed): text and code grow by appending
    /// and show their head again; anything else is refreshed.
    fn grow(&mut self, doc: &Document, at: At, w: &mut PatchWriter) {
        let view = &mut self.turns[at.turn].docs[at.index];
        let r = Render {
            opts: &self.options,
            scratch: &mut self.scratch,
            work: &mut self.work,
        };
        match &mut view.state {
            DocState::Markdown(m) => grow_markdown(m, doc, at, r, w),
            DocState::Code(c) => grow_code(c, doc, at, r, w),
            DocState::Parts(_) | DocState::Whole(_) => self.refresh(doc, at, w),
        }
    }

    /// Metadata or content changed in place.
    fn refresh(&mut self, doc: &Document, at: At, w: &mut PatchWriter) {
        match &self.view_mut(at).state {
            DocState::Markdown(_) | DocState::Code(_) => self.replace(doc, at, false, w),
            DocState::Whole(old) => {
                let old = *old;
                self.scratch.clear();
                render_document(doc, &self.options, &mut self.scratch);
                self.work.rendered += self.scratch.len() as u64;
                let h = hash_str(&self.scratch);
                if h != old {
                    w.replace_document(at, &self.scratch);
                    self.view_mut(at).state = DocState::Whole(h);
                }
            }
            DocState::Parts(parts) => {
                let parts = parts.clone();
                let mut new = Vec::with_capacity(parts.len());
                for (part, old) in parts {
                    let key = document::part_key(doc, part, &self.options);
                    let h = match key {
                        Some(k) if k == old => k,
                        _ => {
                            self.scratch.clear();
                            render_part(doc, part, &self.options, &mut self.scratch);
                            self.work.rendered += self.scratch.len() as u64;
                            let h = key.unwrap_or_else(|| hash_str(&self.scratch));
                            if h != old {
                                w.replace_part(at, part, &self.scratch);
                            }
                            h
                        }
                    };
                    new.push((part, h));
                }
                self.view_mut(at).state = DocState::Parts(new);
            }
        }
    }

    /// The document will not grow: what was shown provisionally becomes final, and from
    /// now on any change to it replaces it whole.
    fn close(&mut self, conv: &Conversation, key: DocKey, w: &mut PatchWriter) {
        let Some(doc) = doc_at(conv, key) else { return };
        let at = At {
            turn: key.turn,
            index: key.index,
        };
        let Some(view) = self
            .turns
            .get_mut(key.turn)
            .and_then(|t| t.docs.get_mut(key.index))
        else {
            return;
        };
        let r = Render {
            opts: &self.options,
            scratch: &mut self.scratch,
            work: &mut self.work,
        };
        match &mut view.state {
            DocState::Markdown(m) => close_markdown(m, doc, at, r, w),
            DocState::Code(c) => close_code(c, doc, at, r, w),
            DocState::Parts(_) | DocState::Whole(_) => return,
        }
        // A hash no rendering has: the next change renders it again.
        view.state = DocState::Whole(0);
    }
}

/// The element of a growing document with none of its content yet: its parts follow as
/// appends.
fn render_shell(doc: &Document, opts: &RenderOptions, out: &mut String) {
    render_document(&shell_of(doc), opts, out);
}

fn shell_of(doc: &Document) -> Document {
    Document {
        id: doc.id.clone(),
        sequence: doc.sequence,
        content: Some(String::new()),
        meta: doc.meta.clone(),
    }
}

fn code_start(doc: &Document) -> u64 {
    match &doc.meta {
        docstream_model::Meta::CodeReference(m) => m.start_line.max(1),
        _ => 1,
    }
}

fn doc_at(c: &Conversation, key: DocKey) -> Option<&Document> {
    match c.turns.get(key.turn)? {
        Turn::Assistant(r) => r.documents.get(key.index),
        Turn::User(_) => None,
    }
}

/// Where the preview of an open block writes: the tail part of one document.
struct TailOut<'a> {
    w: &'a mut PatchWriter,
    at: At,
}

impl PreviewOut for TailOut<'_> {
    fn open(&mut self, tag: Tag) {
        self.w.open_element(self.at, Part::Tail, tag);
    }
    fn attr(&mut self, attr: Attr, value: &str) {
        self.w.set_attr(self.at, Part::Tail, attr, value);
    }
    fn text(&mut self, text: &str) {
        self.w.append_text(self.at, Part::Tail, text);
    }
    fn close(&mut self) {
        self.w.close_element(self.at, Part::Tail);
    }
}

/// What a free function renders with: the options, the scratch buffer, the counters.
struct Render<'a> {
    opts: &'a RenderOptions,
    scratch: &'a mut String,
    work: &'a mut Work,
}

impl Render<'_> {
    /// Renders Markdown into the scratch buffer (cleared first), counted.
    fn markdown(&mut self, source: &str, md: &MarkdownOptions<'_>, slugs: &mut Slugs) {
        self.scratch.clear();
        render_markdown_into(source, md, slugs, self.scratch);
        self.work.rendered += self.scratch.len() as u64;
    }
}

fn grow_markdown(m: &mut MarkdownView, doc: &Document, at: At, r: Render<'_>, w: &mut PatchWriter) {
    let Render {
        opts,
        scratch,
        work,
    } = r;
    let text = doc.text();
    if text.len() < m.read || !text.is_char_boundary(m.read) {
        return; // not an append of what was read; the normaliser reports that as an update
    }
    if let Layout::Markdown { head: true } = document::layout(doc) {
        scratch.clear();
        render_part(doc, Part::Head, opts, scratch);
        work.rendered += scratch.len() as u64;
        let h = hash_str(scratch);
        if h != m.head {
            m.head = h;
            w.replace_part(at, Part::Head, scratch);
        }
    }
    let md = opts.markdown(&doc.id);
    m.points.clear();
    m.scanner.feed(text, &mut m.points);
    if m.scanner.has_reference_definition() && !m.unsplit {
        unsplit(m, at, w);
        restart_preview(m, at, w);
    }
    if !m.unsplit && !m.points.is_empty() {
        // The blocks that ended go out as one append and the tail is emptied once: a
        // push that ends a thousand blocks is two records, not two thousand.
        let mut ended = String::new();
        for i in 0..m.points.len() {
            let p = m.points[i];
            let mut r = Render {
                opts,
                scratch,
                work,
            };
            r.markdown(&text[m.tail_start..p], &md, &mut m.slugs);
            ended.push_str(scratch);
            m.tail_start = p;
        }
        w.append_part(at, Part::Blocks, &ended);
        // What the preview showed of the ended blocks is in `ended` now.
        restart_preview(m, at, w);
    }
    let mut out = TailOut { w, at };
    work.previewed += (text.len() - m.read) as u64;
    m.preview.feed(&text[m.read..], &mut out);
    m.read = text.len();
}

/// Empties the tail and lets the preview read the open block from its start.
/// The text has a reference definition, so it is one block after all (a definition
/// anywhere changes links before it): takes back the blocks shown, from now on the
/// whole text is the tail.
fn unsplit(m: &mut MarkdownView, at: At, w: &mut PatchWriter) {
    m.unsplit = true;
    if m.tail_start > 0 {
        w.replace_part(at, Part::Blocks, "");
        m.slugs = Slugs::default();
    }
    m.tail_start = 0;
}

fn restart_preview(m: &mut MarkdownView, at: At, w: &mut PatchWriter) {
    w.replace_part(at, Part::Tail, "");
    m.preview = Preview::default();
    m.read = m.tail_start;
}

fn close_markdown(
    m: &mut MarkdownView,
    doc: &Document,
    at: At,
    r: Render<'_>,
    w: &mut PatchWriter,
) {
    let Render {
        opts,
        scratch,
        work,
    } = r;
    grow_markdown(
        m,
        doc,
        at,
        Render {
            opts,
            scratch,
            work,
        },
        w,
    );
    let text = doc.text();
    m.scanner.finish(text);
    if m.scanner.has_reference_definition() && !m.unsplit {
        unsplit(m, at, w);
    }
    let md = opts.markdown(&doc.id);
    let mut r = Render {
        opts,
        scratch,
        work,
    };
    r.markdown(&text[m.tail_start..], &md, &mut m.slugs);
    w.replace_part(at, TAIL.part, scratch);
}

fn grow_code(c: &mut CodeView, doc: &Document, at: At, r: Render<'_>, w: &mut PatchWriter) {
    let Render {
        opts,
        scratch,
        work,
    } = r;
    let text = doc.text();
    let scan_from = c.done + c.open_len;
    if text.len() < scan_from || !text.is_char_boundary(scan_from) {
        return;
    }
    let bytes = text.as_bytes();
    scratch.clear();
    let mut pos = c.done;
    for nl in memchr::memchr_iter(b'\n', &bytes[scan_from..]) {
        let end = scan_from + nl;
        code_line(scratch, c.next_line, &text[pos..end]);
        scratch.raw("\n");
        c.next_line = c.next_line.saturating_add(1);
        pos = end + 1;
    }
    work.rendered += scratch.len() as u64;
    if pos > c.done {
        w.append_part(at, Part::Lines, scratch);
        if c.open_len > 0 {
            w.replace_part(at, Part::Open, "");
        }
        c.done = pos;
        c.open_len = 0;
    }
    let open = &text[c.done..];
    if open.len() > c.open_len {
        if c.open_len == 0 {
            w.open_element(at, Part::Open, Tag::Span);
            w.set_attr(at, Part::Open, Attr::Class, "ds-line");
            w.set_attr(
                at,
                Part::Open,
                Attr::DataLn,
                itoa::Buffer::new().format(c.next_line),
            );
        }
        w.append_text(at, Part::Open, &open[c.open_len..]);
        c.open_len = open.len();
    }
    let start = code_start(doc);
    let lines = (c.next_line - start) + u64::from(!open.is_empty());
    scratch.clear();
    document::code_head(doc, lines, opts, scratch);
    work.rendered += scratch.len() as u64;
    let h = hash_str(scratch);
    if h != c.head {
        w.replace_part(at, Part::Head, scratch);
        c.head = h;
    }
}

/// The last line was shown as it streamed, carriage return and all; the final HTML has
/// none.
fn close_code(c: &mut CodeView, doc: &Document, at: At, r: Render<'_>, w: &mut PatchWriter) {
    let open = &doc.text()[c.done.min(doc.text().len())..];
    if c.open_len > 0 && open.ends_with('\r') {
        r.scratch.clear();
        code_line(r.scratch, c.next_line, open);
        r.work.rendered += r.scratch.len() as u64;
        w.replace_part(at, Part::Open, r.scratch);
    }
}
