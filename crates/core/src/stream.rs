//! [`DocStream`]: the pipeline put together. Bytes are framed, each payload goes to
//! the format's adapter, the adapter's events to the normaliser.

use std::borrow::Cow;

use crate::error::{Error, codes};
use crate::formats::detect::{Detection, FramingDetector, Noise, json_format, sse_format};
use crate::formats::{Adapter, Format, Framing, Location, Payload};
use crate::framing::{
    JsonValue, Line, Lines, SseItem, SseParser, invalid_utf8, nests_deeper_than, utf8_lossy,
};
use crate::limits::Limits;
use crate::model::{Changes, Conversation, DocKey, Problem};
use crate::normalize::{ErrorInfo, Event, Normalizer};

/// How a stream is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The format; `None` detects it from the first bytes.
    pub format: Option<Format>,
    /// Size and depth limits.
    pub limits: Limits,
}

/// The framer in use, once the framing is known.
enum Framer {
    /// Bytes are held until the framing is known (and whether a BOM starts them).
    Detecting {
        held: Vec<u8>,
        detector: FramingDetector,
        /// The framing of a format the caller named.
        named: Option<Framing>,
        /// Length of a BOM (or of a broken one) at the start, once known.
        skip: Option<usize>,
        /// Bytes of `held` the detector has seen.
        fed: usize,
    },
    Sse(SseParser),
    Lines(Lines),
    Values(crate::framing::JsonValues),
    /// No format docstream reads: bytes are counted and dropped.
    Unknown,
}

/// Everything but the framer, so that a framer can hand payloads to it.
struct Reader {
    options: Options,
    framing: Option<Framing>,
    format: Option<Format>,
    normalizer: Normalizer,
    adapter: Option<Box<dyn Adapter>>,
    /// Sub-agent transcripts given before the format was known.
    subagents: Vec<(String, Vec<u8>)>,
    /// The format detected or named when this build leaves it out: nothing more is read.
    missing: Option<Format>,
}

/// A live conversation read from a byte stream.
///
/// Push chunks as they arrive, cut anywhere; read the [`conversation`](Self::conversation)
/// or [`take_changes`](Self::take_changes) whenever convenient; call
/// [`finish`](Self::finish) at the end. The state after any sequence of chunks equals
/// the state after pushing their concatenation at once.
pub struct DocStream {
    framer: Framer,
    reader: Reader,
    bytes: u64,
    finished: bool,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl DocStream {
    /// A stream reading with the given options.
    pub fn new(options: Options) -> DocStream {
        let mut reader = Reader {
            options,
            framing: None,
            format: None,
            normalizer: Normalizer::new(),
            adapter: None,
            subagents: Vec::new(),
            missing: None,
        };
        if let Some(format) = options.format {
            reader.set_format(format);
        }
        let framer = Framer::Detecting {
            held: Vec::new(),
            detector: FramingDetector::default(),
            named: options.format.and_then(Format::named_framing),
            skip: None,
            fed: 0,
        };
        DocStream {
            framer,
            reader,
            bytes: 0,
            finished: false,
        }
    }

    /// Gives the stream a sub-agent's own transcript, read from beside the session
    /// (Claude Code 2.1+ keeps each in `<session>/subagents/agent-<id>.jsonl`): when the
    /// result of the call that started agent `agent_id` comes, the transcript is read
    /// as that call's run, as if its lines had been in the session. Give them before
    /// the session's bytes; a format without sub-agent files ignores them.
    pub fn add_subagent(&mut self, agent_id: &str, transcript: Vec<u8>) {
        match self.reader.adapter.as_mut() {
            Some(adapter) => adapter.subagent(agent_id.to_owned(), transcript),
            None => self
                .reader
                .subagents
                .push((agent_id.to_owned(), transcript)),
        }
    }

    /// Marks the prompts this stream reads as its parent agent's, not the user's, where
    /// the format does not say who wrote them: for a sub-agent's transcript read on its
    /// own (a library entry with a parent, as Cursor keeps them), so that no page labels
    /// its prompts "You". Call it before the first byte.
    pub fn prompts_from_parent_agent(&mut self) {
        self.reader.normalizer.apply(Event::PromptsFrom(Some(
            crate::model::PromptFrom::ParentAgent,
        )));
    }

    /// Reads a chunk of bytes.
    ///
    /// # Errors
    /// [`Error::Finished`] after [`finish`](Self::finish).
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Error> {
        if self.finished {
            return Err(Error::Finished);
        }
        self.bytes += chunk.len() as u64;
        self.feed(chunk, false);
        Ok(())
    }

    /// Reads a chunk of text.
    ///
    /// # Errors
    /// [`Error::Finished`] after [`finish`](Self::finish).
    pub fn push_str(&mut self, chunk: &str) -> Result<(), Error> {
        self.push(chunk.as_bytes())
    }

    /// Ends the stream: frames what is left, and marks a response that did not end as
    /// cut off.
    ///
    /// # Errors
    /// [`Error::Finished`] when called twice.
    pub fn finish(&mut self) -> Result<(), Error> {
        self.finish_missing("")
    }

    /// The format this stream turned out to be in (detected or named) when this build
    /// leaves it out ([`Format::in_build`]): nothing after the first payload in it is
    /// read. The browser's default module reads only the default formats; the element
    /// then hands the stream's bytes to the full module.
    pub fn missing_format(&self) -> Option<Format> {
        self.reader.missing
    }

    /// True while the format may still be detected: nothing told it yet, and the bytes
    /// were not found to be in no format at all.
    pub fn detecting(&self) -> bool {
        !self.finished
            && self.reader.adapter.is_none()
            && self.reader.missing.is_none()
            && !matches!(self.framer, Framer::Unknown)
    }

    /// [`finish`](Self::finish), saying in the `error` document that ends a stream in a
    /// [missing format](Self::missing_format) how to read it (`fix`; a sentence saying
    /// that the full build reads it when empty). Same as `finish` for any other stream.
    ///
    /// # Errors
    /// [`Error::Finished`] when the stream was finished already.
    pub fn finish_missing(&mut self, fix: &str) -> Result<(), Error> {
        if self.finished {
            return Err(Error::Finished);
        }
        self.feed(&[], true);
        let r = &mut self.reader;
        match &mut self.framer {
            _ if r.missing.is_some() => {}
            Framer::Detecting { .. } | Framer::Unknown => {}
            Framer::Sse(p) => p.finish(&mut |item| r.sse(item)),
            Framer::Lines(l) => l.finish(&mut |line| r.line(line)),
            Framer::Values(v) => v.finish(&mut |value| r.value(value)),
        }
        if let Some(format) = r.missing {
            let fix = if fix.is_empty() {
                "docstream's full build reads it (the cargo feature every-format; in the browser, docstream_bg.wasm)."
            } else {
                fix
            };
            r.normalizer.apply(Event::Done {
                error: Some(ErrorInfo {
                    at: None,
                    code: codes::FORMAT_UNAVAILABLE.to_owned(),
                    source: "stream".to_owned(),
                    message: format!(
                        "The stream is in the {format} format, which this build of docstream does not read."
                    ),
                    details: format!("{format}: {fix}"),
                }),
            });
        } else if let Some(adapter) = r.adapter.as_mut() {
            adapter.finish(&mut r.normalizer);
        } else if self.bytes > 0 {
            // It ends the (only) response: nothing was cut off.
            r.normalizer.apply(Event::Done {
                error: Some(ErrorInfo {
                    at: None,
                    code: codes::UNKNOWN_FORMAT.to_owned(),
                    source: "stream".to_owned(),
                    message: "The input is not in a format docstream reads.".to_owned(),
                    details: format!(
                        "{} bytes read; none was a Server-Sent Event, an NDJSON line or a JSON value of a known format ({}).",
                        self.bytes,
                        Format::NAMES.join(", ")
                    ),
                }),
            });
        }
        r.normalizer.finish();
        self.finished = true;
        Ok(())
    }

    /// The conversation so far.
    pub fn conversation(&self) -> &Conversation {
        self.reader.normalizer.conversation()
    }

    /// Consumes the stream, returning the conversation.
    pub fn into_conversation(self) -> Conversation {
        self.reader.normalizer.into_conversation()
    }

    /// The changes since the last call: which turns and documents to re-render.
    pub fn take_changes(&mut self) -> Changes {
        self.reader.normalizer.take_changes()
    }

    /// The documents that may still grow (an open text, thinking or code document; an
    /// explicit document before its end), in no particular order: a renderer shows them as
    /// they stand mid-stream (the open Markdown block previewed, as the patches show it),
    /// everything else as finished. Empty once the stream is finished.
    pub fn open_documents(&self) -> Vec<DocKey> {
        self.reader.normalizer.open_documents()
    }

    /// True when something changed since the changes were last taken or cleared.
    pub fn has_changes(&self) -> bool {
        !self.reader.normalizer.changes().is_empty()
    }

    /// The changes since they were last taken or cleared, to read in place (then
    /// [`clear_changes`](Self::clear_changes)): nothing is allocated per chunk.
    pub fn changes(&self) -> &Changes {
        self.reader.normalizer.changes()
    }

    /// Forgets the changes read with [`changes`](Self::changes).
    pub fn clear_changes(&mut self) {
        self.reader.normalizer.clear_changes();
    }

    /// The format being read, once known.
    pub fn format(&self) -> Option<Format> {
        self.reader.format
    }

    /// True once [`finish`](Self::finish) has been called.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    fn feed(&mut self, chunk: &[u8], at_end: bool) {
        if self.reader.missing.is_some() {
            return; // The full build reads this stream.
        }
        if let Framer::Detecting {
            held,
            detector,
            named,
            skip,
            fed,
        } = &mut self.framer
        {
            held.extend_from_slice(chunk);
            if skip.is_none() {
                *skip = bom_len(held, at_end);
            }
            let Some(skip) = *skip else {
                return; // Not yet known whether it starts with a BOM.
            };
            let detection = match named {
                Some(framing) => Detection::Framing(*framing),
                None => {
                    // Every byte after the BOM goes to the detector exactly once, however
                    // the input was cut.
                    let from = (*fed).max(skip);
                    *fed = held.len();
                    detector.feed(&held[from..], at_end)
                }
            };
            let framing = match detection {
                Detection::Undecided => return,
                Detection::Framing(f) => Some(f),
                Detection::Unknown => None,
            };
            let held = std::mem::take(held);
            let noise = detector.noise().clone();
            let bom = held.starts_with(BOM);
            if skip > 0 && !bom {
                self.reader.broken_bom(skip);
            }
            if noise.lines > 0 && framing.is_some() {
                self.reader.skipped_noise(&noise, skip);
            }
            let start = match framing {
                Some(_) => skip + noise.bytes,
                None => held.len(),
            };
            // Offsets count from after a BOM, which is not content.
            let base = Start {
                line: noise.newlines + 1,
                offset: (start - if bom { BOM.len() } else { 0 }) as u64,
            };
            self.framer = match framing {
                Some(f) => self.reader.framer(f, base),
                None => Framer::Unknown,
            };
            // SSE drops a BOM itself (the standard's one BOM); the JSON framings do not
            // know it.
            let start = if bom && start == BOM.len() && matches!(self.framer, Framer::Sse(_)) {
                0
            } else {
                start
            };
            return self.frame(&held[start..]);
        }
        self.frame(chunk);
    }

    fn frame(&mut self, chunk: &[u8]) {
        let r = &mut self.reader;
        if r.missing.is_some() {
            return;
        }
        match &mut self.framer {
            Framer::Detecting { .. } | Framer::Unknown => {}
            Framer::Sse(p) => p.push(chunk, &mut |item| r.sse(item)),
            Framer::Lines(l) => l.push(chunk, &mut |line| r.line(line)),
            Framer::Values(v) => v.push(chunk, &mut |value| r.value(value)),
        }
    }
}

/// The length of a BOM at the start, or of a broken one (up to three bytes of the
/// BOM's, such as a stray `0xEF`); `None` while too few bytes tell.
fn bom_len(bytes: &[u8], at_end: bool) -> Option<usize> {
    let n = bytes
        .iter()
        .take(BOM.len())
        .take_while(|b| BOM.contains(b))
        .count();
    (n == BOM.len() || n < bytes.len() || at_end).then_some(n)
}

/// Where a framer starts in the stream (after a BOM and skipped lines).
#[derive(Debug, Clone, Copy)]
struct Start {
    line: u64,
    offset: u64,
}

impl Reader {
    fn framer(&mut self, framing: Framing, start: Start) -> Framer {
        self.framing = Some(framing);
        let limits = self.options.limits;
        match framing {
            Framing::Sse => {
                Framer::Sse(SseParser::new(limits.max_event_bytes).starting_at_line(start.line))
            }
            Framing::Lines => Framer::Lines(
                Lines::new(limits.max_event_bytes).starting_at(start.line, start.offset),
            ),
            Framing::Values => Framer::Values(
                crate::framing::JsonValues::new(
                    limits.max_event_bytes,
                    limits.max_depth.min(Limits::MAX_DEPTH),
                )
                .starting_at(start.offset),
            ),
        }
    }

    /// Reports bytes of a broken BOM dropped from the start.
    fn broken_bom(&mut self, len: usize) {
        let c = self.normalizer.conversation_mut();
        c.stats.invalid_utf8 += 1;
        c.note_problem(Problem {
            code: codes::INVALID_UTF8.to_owned(),
            message: format!(
                "The input starts with {len} byte{} of a broken byte-order mark, which {} dropped.",
                if len == 1 { "" } else { "s" },
                if len == 1 { "was" } else { "were" }
            ),
            line: Some(1),
            offset: Some(0),
        });
    }

    /// Reports the lines skipped before the stream.
    fn skipped_noise(&mut self, noise: &Noise, skip: usize) {
        let c = self.normalizer.conversation_mut();
        c.stats.skipped_lines += noise.lines;
        let excerpt = utf8_lossy(&noise.excerpt);
        let excerpt = excerpt.trim();
        let lines = if noise.lines == 1 {
            "1 line".to_owned()
        } else {
            format!("{} lines", noise.lines)
        };
        c.note_problem(Problem {
            code: codes::SKIPPED_LINES.to_owned(),
            message: format!(
                "Skipped {lines} before the stream (from line 1, up to line {}), in no format docstream reads; the first: {excerpt:?}.",
                noise.newlines
            ),
            line: Some(1),
            offset: Some(skip as u64),
        });
    }

    /// Reports a line before the format was known that is not JSON: skipped, and
    /// detection goes on with the next.
    fn skipped_line(&mut self, p: &Payload<'_>) {
        let c = self.normalizer.conversation_mut();
        c.stats.skipped_lines += 1;
        let excerpt: String = p.text.trim().chars().take(80).collect();
        c.note_problem(Problem {
            code: codes::SKIPPED_LINES.to_owned(),
            message: format!(
                "Skipped {} before the format was known: not JSON ({excerpt:?}).",
                p.at
            ),
            line: p.at.line,
            offset: Some(p.at.offset),
        });
    }

    /// Counts and reports invalid UTF-8 in a payload's bytes.
    fn invalid_utf8(&mut self, bytes: &[u8], line: Option<u64>, offset: Option<u64>) {
        let (count, first) = invalid_utf8(bytes);
        self.invalid_utf8_at(count, line, offset.map(|o| o + first as u64));
    }

    fn invalid_utf8_at(&mut self, count: u64, line: Option<u64>, offset: Option<u64>) {
        let c = self.normalizer.conversation_mut();
        c.stats.invalid_utf8 += count;
        let place = match (line, offset) {
            (Some(l), Some(o)) => format!("line {l}, byte {o}"),
            (Some(l), None) => format!("line {l}"),
            (None, Some(o)) => format!("byte {o}"),
            (None, None) => "the input".to_owned(),
        };
        c.note_problem(Problem {
            code: codes::INVALID_UTF8.to_owned(),
            message: format!(
                "{place}: {count} invalid UTF-8 sequence{} shown as U+FFFD.",
                if count == 1 { "" } else { "s" }
            ),
            line,
            offset,
        });
    }

    fn set_format(&mut self, format: Format) {
        let Some(mut adapter) = format.adapter() else {
            self.missing = Some(format);
            return;
        };
        for (id, transcript) in std::mem::take(&mut self.subagents) {
            adapter.subagent(id, transcript);
        }
        self.adapter = Some(adapter);
        self.normalizer.set_tool_names(format.tools());
        self.format = Some(format);
        self.normalizer.conversation_mut().format = Some(format.name().to_owned());
    }

    fn sse(&mut self, item: SseItem) {
        match item {
            SseItem::Event(e) => {
                if e.invalid_utf8 > 0 {
                    self.invalid_utf8_at(e.invalid_utf8, Some(e.invalid_utf8_line), None);
                }
                let at = Location {
                    line: Some(e.line),
                    offset: 0,
                };
                self.payload(Payload {
                    text: &e.data,
                    event: Some(&e.event),
                    at,
                });
            }
            SseItem::Retry(_) => {}
            SseItem::TooLarge { line } => self.too_large(
                Location {
                    line: Some(line),
                    offset: 0,
                },
                "An event",
            ),
        }
    }

    fn line(&mut self, line: Line<'_>) {
        match line {
            Line::Text {
                bytes,
                number,
                offset,
            } => {
                let text = utf8_lossy(bytes);
                if matches!(text, Cow::Owned(_)) {
                    self.invalid_utf8(bytes, Some(number), Some(offset));
                }
                self.payload(Payload {
                    text: &text,
                    event: None,
                    at: Location {
                        line: Some(number),
                        offset,
                    },
                });
            }
            Line::TooLong { number, offset } => self.too_large(
                Location {
                    line: Some(number),
                    offset,
                },
                "A line",
            ),
        }
    }

    fn value(&mut self, value: JsonValue<'_>) {
        match value {
            JsonValue::Complete { bytes, offset } => {
                let text = utf8_lossy(bytes);
                if matches!(text, Cow::Owned(_)) {
                    self.invalid_utf8(bytes, None, Some(offset));
                }
                self.payload(Payload {
                    text: &text,
                    event: None,
                    at: Location { line: None, offset },
                });
            }
            JsonValue::TooLarge { offset } => {
                self.too_large(Location { line: None, offset }, "A JSON value")
            }
            JsonValue::TooDeep { offset } => self.too_deep(Location { line: None, offset }),
        }
    }

    fn payload(&mut self, p: Payload<'_>) {
        if self.missing.is_some() {
            return; // Payloads framed with the one that told the format.
        }
        self.normalizer.conversation_mut().stats.events += 1;
        // serde_json bounds the depth of what it parses, but not of what it skips, so
        // the limit is checked here; a payload shorter than twice the limit cannot
        // nest deeper than it.
        let max_depth = self.options.limits.max_depth.min(Limits::MAX_DEPTH);
        if p.text.len() > 2 * max_depth && nests_deeper_than(p.text.as_bytes(), max_depth) {
            return self.too_deep(p.at);
        }
        if self.adapter.is_none() {
            let format = match (self.framing, p.event) {
                (Some(Framing::Sse), Some(event)) => sse_format(event, p.text),
                (framing, _) => json_format(p.text).map(|f| match (f, framing) {
                    (Format::CursorStreamJson, Some(Framing::Values)) => Format::CursorJson,
                    // Saved messages, not a live stream: complete when the input ends.
                    (Format::ClaudeCodeStreamJson, Some(Framing::Values)) => {
                        Format::ClaudeCodeTranscript
                    }
                    (f, _) => f,
                }),
            };
            match format {
                Some(format) => self.set_format(format),
                None if self.framing == Some(Framing::Lines) && !is_json(p.text) => {
                    return self.skipped_line(&p);
                }
                None => return self.normalizer.apply(Event::Unknown),
            }
        }
        if let Some(adapter) = self.adapter.as_mut() {
            adapter.payload(p, &mut self.normalizer);
            let refined = adapter.refined();
            if refined.is_some()
                && refined != self.format
                && self.format == Some(Format::CursorStreamJson)
            {
                self.format = refined;
                self.normalizer.conversation_mut().format = refined.map(|f| f.name().to_owned());
            }
        }
    }

    fn too_large(&mut self, at: Location, what: &str) {
        let limit = self.options.limits.max_event_bytes;
        self.normalizer.conversation_mut().stats.events += 1;
        self.normalizer.apply(Event::Error(ErrorInfo {
            at: Some(at.to_string()),
            code: codes::TOO_LARGE.to_owned(),
            source: "stream".to_owned(),
            message: format!("{what} was over the size limit and was skipped ({at})."),
            details: format!("{at}: longer than {limit} bytes (Limits::max_event_bytes)."),
        }));
    }

    fn too_deep(&mut self, at: Location) {
        let limit = self.options.limits.max_depth;
        self.normalizer.apply(Event::Error(ErrorInfo {
            at: Some(at.to_string()),
            code: codes::TOO_DEEP.to_owned(),
            source: "stream".to_owned(),
            message: format!("JSON nested too deeply was skipped ({at})."),
            details: format!("{at}: nested deeper than {limit} levels (Limits::max_depth)."),
        }));
    }
}

/// True when `text` is one JSON value.
fn is_json(text: &str) -> bool {
    docstream_model::read_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}
