//! [`DocStream`]: the pipeline put together. Bytes are framed, each payload goes to
//! the format's adapter, the adapter's events to the normaliser.

use crate::error::{Error, codes};
use crate::formats::detect::{Detection, FramingDetector, json_format, sse_format};
use crate::formats::{Adapter, Format, Framing, Location, Payload};
use crate::framing::{JsonValue, Line, Lines, SseItem, SseParser, nests_deeper_than, utf8_lossy};
use crate::limits::Limits;
use crate::model::{Changes, Conversation};
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
        };
        if let Some(format) = options.format {
            reader.set_format(format);
        }
        let framer = Framer::Detecting {
            held: Vec::new(),
            detector: FramingDetector::default(),
            named: options.format.and_then(Format::named_framing),
        };
        DocStream {
            framer,
            reader,
            bytes: 0,
            finished: false,
        }
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
        if self.finished {
            return Err(Error::Finished);
        }
        self.feed(&[], true);
        let r = &mut self.reader;
        match &mut self.framer {
            Framer::Detecting { .. } | Framer::Unknown => {}
            Framer::Sse(p) => p.finish(&mut |item| r.sse(item)),
            Framer::Lines(l) => l.finish(&mut |line| r.line(line)),
            Framer::Values(v) => v.finish(&mut |value| r.value(value)),
        }
        if let Some(adapter) = r.adapter.as_mut() {
            adapter.finish(&mut r.normalizer);
        } else if self.bytes > 0 {
            r.normalizer.apply(Event::Error(ErrorInfo {
                code: codes::UNKNOWN_FORMAT.to_owned(),
                source: "stream".to_owned(),
                message: "The input is not in a format docstream reads.".to_owned(),
                details: format!(
                    "{} bytes read; none was a Server-Sent Event, an NDJSON line or a JSON value of a known format ({}).",
                    self.bytes,
                    Format::NAMES.join(", ")
                ),
            }));
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
        if let Framer::Detecting {
            held,
            detector,
            named,
        } = &mut self.framer
        {
            held.extend_from_slice(chunk);
            let skip = bom_len(held);
            if skip.is_none() && !at_end {
                return; // Not yet known whether it starts with a BOM.
            }
            let skip = skip.unwrap_or(0);
            let detection = match named {
                Some(framing) => Detection::Framing(*framing),
                None => {
                    let seen = held.len() - chunk.len();
                    detector.feed(&held[seen.max(skip)..], at_end)
                }
            };
            let framer = match detection {
                Detection::Undecided => return,
                Detection::Framing(f) => self.reader.framer(f),
                Detection::Unknown => Framer::Unknown,
            };
            let held = std::mem::take(held);
            self.framer = framer;
            // SSE drops the BOM itself; the JSON framings do not know it.
            let start = if matches!(self.framer, Framer::Sse(_)) {
                0
            } else {
                skip
            };
            return self.frame(&held[start..]);
        }
        self.frame(chunk);
    }

    fn frame(&mut self, chunk: &[u8]) {
        let r = &mut self.reader;
        match &mut self.framer {
            Framer::Detecting { .. } | Framer::Unknown => {}
            Framer::Sse(p) => p.push(chunk, &mut |item| r.sse(item)),
            Framer::Lines(l) => l.push(chunk, &mut |line| r.line(line)),
            Framer::Values(v) => v.push(chunk, &mut |value| r.value(value)),
        }
    }
}

/// `Some(3)` for a BOM, `Some(0)` for none, `None` while too few bytes tell.
fn bom_len(bytes: &[u8]) -> Option<usize> {
    let n = bytes.len().min(BOM.len());
    if bytes[..n] != BOM[..n] {
        Some(0)
    } else if n == BOM.len() {
        Some(BOM.len())
    } else {
        None
    }
}

impl Reader {
    fn framer(&mut self, framing: Framing) -> Framer {
        self.framing = Some(framing);
        let limits = self.options.limits;
        match framing {
            Framing::Sse => Framer::Sse(SseParser::new(limits.max_event_bytes)),
            Framing::Lines => Framer::Lines(Lines::new(limits.max_event_bytes)),
            Framing::Values => Framer::Values(crate::framing::JsonValues::new(
                limits.max_event_bytes,
                limits.max_depth.min(Limits::MAX_DEPTH),
            )),
        }
    }

    fn set_format(&mut self, format: Format) {
        self.adapter = Some(format.adapter());
        self.format = Some(format);
        self.normalizer.conversation_mut().format = Some(format.name().to_owned());
    }

    fn sse(&mut self, item: SseItem) {
        match item {
            SseItem::Event(e) => {
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
            code: codes::TOO_LARGE.to_owned(),
            source: "stream".to_owned(),
            message: format!("{what} was over the size limit and was skipped ({at})."),
            details: format!("{at}: longer than {limit} bytes (Limits::max_event_bytes)."),
        }));
    }

    fn too_deep(&mut self, at: Location) {
        let limit = self.options.limits.max_depth;
        self.normalizer.apply(Event::Error(ErrorInfo {
            code: codes::TOO_DEEP.to_owned(),
            source: "stream".to_owned(),
            message: format!("JSON nested too deeply was skipped ({at})."),
            details: format!("{at}: nested deeper than {limit} levels (Limits::max_depth)."),
        }));
    }
}
