//! Patches: what [`HtmlView`](crate::HtmlView) hands out to bring a page up to date, in
//! a compact wire form ([`PatchWriter`]) that crosses the WebAssembly boundary as one
//! string, and as typed values ([`Patch`], decoded from it).
//!
//! # The wire form
//!
//! A sequence of records, each a header line of space-separated fields ending in `\n`,
//! then, for records that carry one, a payload whose length (the last header field) is
//! counted in UTF-16 code units, so that JavaScript can slice it out of the string:
//!
//! | record | fields | payload |
//! |---|---|---|
//! | `t` | turn, length | the turn's element (header, no documents) |
//! | `h` | turn, length | the turn's new header element |
//! | `i` | turn, index, length | the document's element, to insert at `index` |
//! | `d` | turn, index, length | the document's new element |
//! | `a` | turn, index, part, length | HTML to append to the part |
//! | `r` | turn, index, part, length | the part's new content (resets its builder) |
//! | `o` | turn, index, part, tag | — (opens an element in the part's builder) |
//! | `s` | turn, index, part, attribute, length | the value, for the builder's open element |
//! | `x` | turn, index, part, length | text (not HTML) to append in the builder |
//! | `c` | turn, index, part | — (closes the builder's open element) |
//!
//! A part's builder appends below its innermost open element; text arrives unescaped
//! and is added as a text node (or escaped, in [`PageModel`]).

use serde::{Deserialize, Serialize};

use std::collections::HashMap;

use crate::escape::{Markup, push_escaped};
use crate::parts::SUBAGENT_RUN_OPEN;
use crate::parts::{Attr, Part, Tag};
use crate::preview::PreviewOut;
use crate::turn::{RUN_CLOSE, TURN_CLOSE};
use crate::{CONVERSATION_CLOSE, CONVERSATION_OPEN};

/// One change to the rendered page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(tag = "op", rename_all = "snake_case")]
#[must_use = "patches must be applied to the page"]
pub enum Patch {
    /// Insert a turn element at `turn` (without documents; they follow as
    /// `insert_document`).
    InsertTurn {
        /// Index of the turn.
        turn: usize,
        /// The turn element: opening tag, header, closing tag.
        html: String,
    },
    /// Replace the header element of a turn (its first child).
    ReplaceTurnHeader {
        /// Index of the turn.
        turn: usize,
        /// The new header element.
        html: String,
    },
    /// Insert a document element at `index` within its turn (after the header).
    InsertDocument {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The document element.
        html: String,
    },
    /// Replace a document element whole.
    ReplaceDocument {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The new document element.
        html: String,
    },
    /// Append HTML to a part of a document.
    AppendPart {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The part.
        part: Part,
        /// HTML to append.
        html: String,
    },
    /// Replace the content of a part of a document (its builder starts again at the
    /// part's element).
    ReplacePart {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The part.
        part: Part,
        /// The new content.
        html: String,
    },
    /// Open an element below the innermost open element of a part's builder.
    OpenElement {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The part.
        part: Part,
        /// The element.
        tag: Tag,
    },
    /// Set an attribute of the innermost open element of a part's builder.
    SetAttr {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The part.
        part: Part,
        /// The attribute.
        attr: Attr,
        /// Its value.
        value: String,
    },
    /// Append text (not HTML) below the innermost open element of a part's builder.
    AppendText {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The part.
        part: Part,
        /// The text.
        text: String,
    },
    /// Close the innermost open element of a part's builder.
    CloseElement {
        /// Index of the turn.
        turn: usize,
        /// Index within the turn's documents.
        index: usize,
        /// The part.
        part: Part,
    },
}

/// Where a document is: turn and index within the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// Index of the turn.
    pub turn: usize,
    /// Index within the turn's documents.
    pub index: usize,
}

/// Length of a string in UTF-16 code units (what JavaScript's `length` counts): its
/// bytes, less continuation bytes, plus one for each four-byte sequence, counted eight
/// bytes at a time.
pub fn utf16_len(s: &str) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let bytes = s.as_bytes();
    let mut chunks = bytes.chunks_exact(8);
    let mut units = bytes.len();
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        if w & HIGH == 0 {
            continue;
        }
        // Bit 7 set and bit 6 clear: a continuation byte (10xxxxxx).
        let continuation = w & !(w << 1) & HIGH;
        // Bits 7 to 4 set: the lead byte of a four-byte sequence (11110xxx).
        let four = w & (w << 1) & (w << 2) & (w << 3) & HIGH;
        units -= continuation.count_ones() as usize;
        units += four.count_ones() as usize;
    }
    for &b in chunks.remainder() {
        units -= usize::from(b & 0xC0 == 0x80);
        units += usize::from(b >= 0xF0);
    }
    units
}

/// Writes patches in the wire form, appending to one growing string.
#[derive(Debug, Clone, Default)]
pub struct PatchWriter {
    buf: String,
    /// Bytes of payload written (HTML, text, values), a work counter.
    payload_bytes: u64,
    /// Records written.
    records: u64,
}

impl PatchWriter {
    /// An empty writer.
    pub fn new() -> PatchWriter {
        PatchWriter::default()
    }

    /// True when nothing was written since the last take or clear.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The records written since the last take or clear.
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    /// Takes the records written, leaving the writer empty.
    pub fn take(&mut self) -> String {
        std::mem::take(&mut self.buf)
    }

    /// Clears the records written, keeping the allocation.
    pub fn clear(&mut self) {
        self.buf.clear();
    }

    /// Clears the records written, keeping the allocation only when it is at most
    /// `keep` bytes (a large one, from a pull of a whole page, goes back to the allocator).
    pub fn clear_keeping(&mut self, keep: usize) {
        if self.buf.capacity() > keep {
            self.buf = String::new();
        } else {
            self.buf.clear();
        }
    }

    /// Payload bytes written over the writer's life (a deterministic work counter).
    pub fn payload_bytes(&self) -> u64 {
        self.payload_bytes
    }

    /// Records written over the writer's life.
    pub fn records(&self) -> u64 {
        self.records
    }

    fn head(&mut self, op: &str, fields: &[usize]) {
        self.records += 1;
        self.buf.raw(op);
        for &f in fields {
            self.buf.raw(" ").num(f as u64);
        }
    }

    fn payload(&mut self, s: &str) {
        self.payload_bytes += s.len() as u64;
        self.buf.raw(" ").num(utf16_len(s) as u64).raw("\n").raw(s);
    }

    fn part_head(&mut self, op: &str, at: At, part: Part) {
        self.head(op, &[at.turn, at.index]);
        self.buf.raw(" ").raw(part.name());
    }

    /// A new turn element.
    pub fn insert_turn(&mut self, turn: usize, html: &str) {
        self.head("t", &[turn]);
        self.payload(html);
    }

    /// A turn's new header element.
    pub fn replace_turn_header(&mut self, turn: usize, html: &str) {
        self.head("h", &[turn]);
        self.payload(html);
    }

    /// A new document element.
    pub fn insert_document(&mut self, at: At, html: &str) {
        self.head("i", &[at.turn, at.index]);
        self.payload(html);
    }

    /// A document's new element.
    pub fn replace_document(&mut self, at: At, html: &str) {
        self.head("d", &[at.turn, at.index]);
        self.payload(html);
    }

    /// HTML appended to a part.
    pub fn append_part(&mut self, at: At, part: Part, html: &str) {
        self.part_head("a", at, part);
        self.payload(html);
    }

    /// A part's new content.
    pub fn replace_part(&mut self, at: At, part: Part, html: &str) {
        self.part_head("r", at, part);
        self.payload(html);
    }

    /// Opens an element in a part's builder.
    pub fn open_element(&mut self, at: At, part: Part, tag: Tag) {
        self.part_head("o", at, part);
        self.buf.raw(" ").raw(tag.name()).raw("\n");
    }

    /// Sets an attribute of a part's builder's open element.
    pub fn set_attr(&mut self, at: At, part: Part, attr: Attr, value: &str) {
        self.part_head("s", at, part);
        self.buf.raw(" ").raw(attr.name());
        self.payload(value);
    }

    /// Appends text in a part's builder.
    pub fn append_text(&mut self, at: At, part: Part, text: &str) {
        if text.is_empty() {
            return;
        }
        self.part_head("x", at, part);
        self.payload(text);
    }

    /// Closes a part's builder's open element.
    pub fn close_element(&mut self, at: At, part: Part) {
        self.part_head("c", at, part);
        self.buf.raw("\n");
    }
}

/// A wire record that could not be read (a bug, or a string not from a writer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset of the record.
    pub offset: usize,
}

/// Decodes the wire form into patches.
pub fn decode(wire: &str) -> Result<Vec<Patch>, DecodeError> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < wire.len() {
        let err = DecodeError { offset: pos };
        let nl = wire[pos..].find('\n').ok_or(err.clone())? + pos;
        let mut fields = wire[pos..nl].split(' ');
        let op = fields.next().ok_or(err.clone())?;
        let num = |f: Option<&str>| f.and_then(|f| f.parse::<usize>().ok()).ok_or(err.clone());
        let mut payload = |len: usize| -> Result<String, DecodeError> {
            let start = nl + 1;
            let end = utf16_offset(&wire[start..], len).ok_or(DecodeError { offset: pos })? + start;
            pos = end;
            Ok(wire[start..end].to_owned())
        };
        let patch = match op {
            "t" | "h" => {
                let turn = num(fields.next())?;
                let html = payload(num(fields.next())?)?;
                if op == "t" {
                    Patch::InsertTurn { turn, html }
                } else {
                    Patch::ReplaceTurnHeader { turn, html }
                }
            }
            "i" | "d" => {
                let (turn, index) = (num(fields.next())?, num(fields.next())?);
                let html = payload(num(fields.next())?)?;
                if op == "i" {
                    Patch::InsertDocument { turn, index, html }
                } else {
                    Patch::ReplaceDocument { turn, index, html }
                }
            }
            _ => {
                let (turn, index) = (num(fields.next())?, num(fields.next())?);
                let part = fields.next().and_then(Part::parse).ok_or(err.clone())?;
                match op {
                    "a" | "r" | "x" => {
                        let text = payload(num(fields.next())?)?;
                        match op {
                            "a" => Patch::AppendPart {
                                turn,
                                index,
                                part,
                                html: text,
                            },
                            "r" => Patch::ReplacePart {
                                turn,
                                index,
                                part,
                                html: text,
                            },
                            _ => Patch::AppendText {
                                turn,
                                index,
                                part,
                                text,
                            },
                        }
                    }
                    "s" => {
                        let attr = fields.next().and_then(Attr::parse).ok_or(err.clone())?;
                        let value = payload(num(fields.next())?)?;
                        Patch::SetAttr {
                            turn,
                            index,
                            part,
                            attr,
                            value,
                        }
                    }
                    "o" => {
                        let tag = fields.next().and_then(Tag::parse).ok_or(err.clone())?;
                        pos = nl + 1;
                        Patch::OpenElement {
                            turn,
                            index,
                            part,
                            tag,
                        }
                    }
                    "c" => {
                        pos = nl + 1;
                        Patch::CloseElement { turn, index, part }
                    }
                    _ => return Err(err),
                }
            }
        };
        out.push(patch);
    }
    Ok(out)
}

/// The byte offset after `units` UTF-16 code units of `s`.
fn utf16_offset(s: &str, units: usize) -> Option<usize> {
    let mut n = 0;
    for (i, c) in s.char_indices() {
        if n == units {
            return Some(i);
        }
        n += c.len_utf16();
        if n > units {
            return None;
        }
    }
    (n == units).then_some(s.len())
}

/// A rendered page held in memory, to which patches apply (what a browser's DOM does
/// with them). Its [`html`](PageModel::html) equals `render_conversation`'s output once
/// every patch of a finished stream is applied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageModel {
    turns: Vec<TurnModel>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct TurnModel {
    open: String,
    header: String,
    docs: Vec<DocModel>,
    close: &'static str,
    /// A sub-agent's run: the document (turn, index) it is shown in.
    parent: Option<(usize, usize)>,
}

/// The value of `name="…"` in an opening tag, as a number.
fn attr_num(tag: &str, name: &str) -> Option<usize> {
    let at = tag.find(name)? + name.len();
    let rest = tag[at..].strip_prefix("=\"")?;
    rest[..rest.find('"')?].parse().ok()
}

/// A document as a list of segments: markup between parts, and parts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct DocModel {
    segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Markup(String),
    Part(Part, PartModel),
}

/// A part's content: finished HTML and the elements its builder has open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PartModel {
    html: String,
    open: Vec<OpenModel>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct OpenModel {
    tag: Tag,
    attrs: Vec<(Attr, String)>,
    inner: String,
}

fn element_html(e: &OpenModel) -> String {
    let mut s = String::new();
    s.raw("<").raw(e.tag.name());
    for (a, v) in &e.attrs {
        s.raw(" ").raw(a.name()).raw("=\"").text(v).raw("\"");
    }
    s.raw(">");
    if !e.tag.is_void() {
        s.raw(&e.inner).raw("</").raw(e.tag.name()).raw(">");
    }
    s
}

/// What the part's builder does with the element and text patches (and what the
/// preview writes when `html()` shows an open block as the patches do).
impl PreviewOut for PartModel {
    fn open(&mut self, tag: Tag) {
        let e = OpenModel {
            tag,
            attrs: Vec::new(),
            inner: String::new(),
        };
        if tag.is_void() {
            self.sink().push_str(&element_html(&e));
        } else {
            self.open.push(e);
        }
    }

    fn attr(&mut self, attr: Attr, value: &str) {
        if let Some(e) = self.open.last_mut() {
            e.attrs.retain(|(a, _)| *a != attr);
            e.attrs.push((attr, value.to_owned()));
        }
    }

    fn text(&mut self, text: &str) {
        push_escaped(self.sink(), text);
    }

    fn close(&mut self) {
        if let Some(e) = self.open.pop() {
            let html = element_html(&e);
            self.sink().push_str(&html);
        }
    }
}

impl PartModel {
    /// The part's HTML: what is finished, and the open elements closed.
    pub(crate) fn html(&self) -> String {
        let mut inner = String::new();
        for e in self.open.iter().rev() {
            let mut e = e.clone();
            e.inner.push_str(&inner);
            inner = element_html(&e);
        }
        format!("{}{inner}", self.html)
    }

    fn sink(&mut self) -> &mut String {
        match self.open.last_mut() {
            Some(e) => &mut e.inner,
            None => &mut self.html,
        }
    }
}

/// Splits a document element's HTML into markup and parts (`data-part="…"` elements,
/// found by the attribute the renderer writes on every part).
fn parse_doc(html: &str) -> DocModel {
    let mut segments = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(" data-part=\"") {
        let name_start = at + " data-part=\"".len();
        let Some(name_len) = rest[name_start..].find('"') else {
            break;
        };
        let Some(part) = Part::parse(&rest[name_start..name_start + name_len]) else {
            break;
        };
        let Some(gt) = rest[name_start..].find('>') else {
            break;
        };
        let content_start = name_start + gt + 1;
        let tag_start = rest[..at].rfind('<').unwrap_or(0);
        let tag = rest[tag_start + 1..]
            .split([' ', '>'])
            .next()
            .unwrap_or_default();
        let Some(len) = element_content_len(&rest[content_start..], tag) else {
            break;
        };
        segments.push(Segment::Markup(rest[..content_start].to_owned()));
        segments.push(Segment::Part(
            part,
            PartModel {
                html: rest[content_start..content_start + len].to_owned(),
                open: Vec::new(),
            },
        ));
        rest = &rest[content_start + len..];
    }
    segments.push(Segment::Markup(rest.to_owned()));
    DocModel { segments }
}

/// The length of an element's content up to its closing tag, counting elements of the
/// same name nested inside (the renderer's HTML is well formed and its text escaped).
fn element_content_len(html: &str, tag: &str) -> Option<usize> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut depth = 0usize;
    let mut pos = 0;
    loop {
        let next_close = html[pos..].find(&close)? + pos;
        match html[pos..next_close].find(&open) {
            Some(o) if html[pos + o + open.len()..].starts_with([' ', '>']) => {
                depth += 1;
                pos += o + open.len();
            }
            Some(o) => pos += o + open.len(),
            None if depth == 0 => return Some(next_close),
            None => {
                depth -= 1;
                pos = next_close + close.len();
            }
        }
    }
}

impl DocModel {
    fn part(&mut self, part: Part) -> Option<&mut PartModel> {
        self.segments.iter_mut().find_map(|s| match s {
            Segment::Part(p, m) if *p == part => Some(m),
            _ => None,
        })
    }

    fn html(&self, out: &mut String) {
        for s in &self.segments {
            match s {
                Segment::Markup(m) => out.push_str(m),
                Segment::Part(_, p) => out.push_str(&p.html()),
            }
        }
    }
}

impl PageModel {
    /// An empty page.
    pub fn new() -> PageModel {
        PageModel::default()
    }

    /// Applies patches in the wire form.
    ///
    /// # Errors
    /// A record that cannot be read.
    pub fn apply_wire(&mut self, wire: &str) -> Result<(), DecodeError> {
        for p in decode(wire)? {
            self.apply(&p);
        }
        Ok(())
    }

    /// Applies one patch. Patches naming a turn, document or part the page does not have
    /// are ignored.
    pub fn apply(&mut self, patch: &Patch) {
        match patch {
            Patch::InsertTurn { turn, html } => {
                let (body, close) = match html.strip_suffix(RUN_CLOSE) {
                    Some(body) => (body, RUN_CLOSE),
                    None => (html.strip_suffix(TURN_CLOSE).unwrap_or(html), TURN_CLOSE),
                };
                let split = body.find('\n').map_or(0, |p| p + 1);
                let open = &body[..split];
                let parent = attr_num(open, " data-parent-turn")
                    .zip(attr_num(open, " data-parent-index"))
                    .filter(|_| close == RUN_CLOSE);
                let model = TurnModel {
                    open: open.to_owned(),
                    header: body[split..].to_owned(),
                    docs: Vec::new(),
                    close,
                    parent,
                };
                let at = (*turn).min(self.turns.len());
                self.turns.insert(at, model);
            }
            Patch::ReplaceTurnHeader { turn, html } => {
                if let Some(t) = self.turns.get_mut(*turn) {
                    t.header.clone_from(html);
                }
            }
            Patch::InsertDocument { turn, index, html } => {
                if let Some(t) = self.turns.get_mut(*turn) {
                    let at = (*index).min(t.docs.len());
                    t.docs.insert(at, parse_doc(html));
                }
            }
            Patch::ReplaceDocument { turn, index, html } => {
                if let Some(d) = self.doc_mut(*turn, *index) {
                    *d = parse_doc(html);
                }
            }
            Patch::AppendPart {
                turn,
                index,
                part,
                html,
            } => {
                if let Some(p) = self.part_mut(*turn, *index, *part) {
                    p.sink().push_str(html);
                }
            }
            Patch::ReplacePart {
                turn,
                index,
                part,
                html,
            } => {
                if let Some(p) = self.part_mut(*turn, *index, *part) {
                    *p = PartModel {
                        html: html.clone(),
                        open: Vec::new(),
                    };
                }
            }
            Patch::OpenElement {
                turn,
                index,
                part,
                tag,
            } => {
                if let Some(p) = self.part_mut(*turn, *index, *part) {
                    p.open(*tag);
                }
            }
            Patch::SetAttr {
                turn,
                index,
                part,
                attr,
                value,
            } => {
                if let Some(p) = self.part_mut(*turn, *index, *part) {
                    p.attr(*attr, value);
                }
            }
            Patch::AppendText {
                turn,
                index,
                part,
                text,
            } => {
                if let Some(p) = self.part_mut(*turn, *index, *part) {
                    PreviewOut::text(p, text);
                }
            }
            Patch::CloseElement { turn, index, part } => {
                if let Some(p) = self.part_mut(*turn, *index, *part) {
                    PreviewOut::close(p);
                }
            }
        }
    }

    fn doc_mut(&mut self, turn: usize, index: usize) -> Option<&mut DocModel> {
        self.turns.get_mut(turn)?.docs.get_mut(index)
    }

    fn part_mut(&mut self, turn: usize, index: usize, part: Part) -> Option<&mut PartModel> {
        self.doc_mut(turn, index)?.part(part)
    }

    /// The page's HTML (the conversation element). A sub-agent's run is written in the
    /// document it names, and left out when that document is not there.
    pub fn html(&self) -> String {
        let mut out = String::new();
        self.write_html(|piece| out.push_str(piece));
        out
    }

    /// The page's HTML, as [`PageModel::html`] makes it, handed out a turn at a time
    /// (with its runs), so that a writer need not hold the whole page.
    pub fn write_html(&self, mut emit: impl FnMut(&str)) {
        let mut runs: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
        for (i, t) in self.turns.iter().enumerate() {
            if let Some(p) = t.parent.filter(|p| p.0 < i) {
                runs.entry(p).or_default().push(i);
            }
        }
        emit(CONVERSATION_OPEN);
        let mut turn = String::new();
        for (i, t) in self.turns.iter().enumerate() {
            if t.parent.is_none() {
                turn.clear();
                self.turn_html(i, &runs, &mut turn);
                emit(&turn);
            }
        }
        emit(CONVERSATION_CLOSE);
    }

    fn turn_html(&self, i: usize, runs: &HashMap<(usize, usize), Vec<usize>>, out: &mut String) {
        let t = &self.turns[i];
        out.push_str(&t.open);
        out.push_str(&t.header);
        for (d, doc) in t.docs.iter().enumerate() {
            let nested = runs.get(&(i, d)).map_or(&[][..], Vec::as_slice);
            if nested.is_empty() {
                doc.html(out);
                continue;
            }
            let mut html = String::new();
            doc.html(&mut html);
            let empty = format!("{SUBAGENT_RUN_OPEN}</div>");
            match html.find(&empty) {
                Some(at) => {
                    let inner = at + SUBAGENT_RUN_OPEN.len();
                    out.push_str(&html[..inner]);
                    for &run in nested {
                        self.turn_html(run, runs, out);
                    }
                    out.push_str(&html[inner..]);
                }
                None => out.push_str(&html),
            }
        }
        out.push_str(t.close);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_round_trips() {
        let at = At { turn: 1, index: 2 };
        let mut w = PatchWriter::new();
        w.insert_turn(1, "<section>😀\n</section>\n");
        w.append_part(at, Part::Blocks, "<p>a é</p>\n");
        w.open_element(at, Part::Tail, Tag::Strong);
        w.set_attr(at, Part::Tail, Attr::Href, "https://x.y/\n");
        w.append_text(at, Part::Tail, "<b>");
        w.close_element(at, Part::Tail);
        let patches = decode(w.as_str()).unwrap();
        assert_eq!(patches.len(), 6);
        assert_eq!(
            patches[4],
            Patch::AppendText {
                turn: 1,
                index: 2,
                part: Part::Tail,
                text: "<b>".into()
            }
        );
        assert_eq!(
            patches[3],
            Patch::SetAttr {
                turn: 1,
                index: 2,
                part: Part::Tail,
                attr: Attr::Href,
                value: "https://x.y/\n".into()
            }
        );
    }

    #[test]
    fn utf16_lengths() {
        for s in [
            "",
            "a",
            "aé€😀",
            "😀😀😀😀😀",
            "ascii only, longer than eight",
            "–→−⋯ mixed 😀 text é",
        ] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s}");
            for i in 0..s.len() {
                if s.is_char_boundary(i) {
                    assert_eq!(
                        utf16_len(&s[i..]),
                        s[i..].encode_utf16().count(),
                        "{s} from {i}"
                    );
                }
            }
        }
    }

    #[test]
    fn builders_nest_and_escape() {
        let mut page = PageModel::new();
        page.apply(&Patch::InsertTurn {
            turn: 0,
            html: "<section>\n<h></h></section>\n".into(),
        });
        page.apply(&Patch::InsertDocument {
            turn: 0,
            index: 0,
            html:
                "<div class=\"ds-doc\">\n<div class=\"ds-tail\" data-part=\"tail\"></div>\n</div>\n"
                    .into(),
        });
        let p = Part::Tail;
        page.apply(&Patch::OpenElement {
            turn: 0,
            index: 0,
            part: p,
            tag: Tag::P,
        });
        page.apply(&Patch::AppendText {
            turn: 0,
            index: 0,
            part: p,
            text: "a<".into(),
        });
        page.apply(&Patch::OpenElement {
            turn: 0,
            index: 0,
            part: p,
            tag: Tag::A,
        });
        page.apply(&Patch::SetAttr {
            turn: 0,
            index: 0,
            part: p,
            attr: Attr::Href,
            value: "h\"".into(),
        });
        page.apply(&Patch::AppendText {
            turn: 0,
            index: 0,
            part: p,
            text: "b".into(),
        });
        assert!(page.html().contains(
            "<div class=\"ds-tail\" data-part=\"tail\"><p>a&lt;<a href=\"h&quot;\">b</a></p></div>"
        ), "{}", page.html());
    }
}
