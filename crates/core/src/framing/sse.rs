//! Server-Sent Events, as the WHATWG HTML standard parses them (§9.2.6).
//!
//! One leading BOM is dropped; lines end at CR, LF or CRLF (a CR at the end of a chunk
//! waits to see whether an LF follows); `data` lines join with LF; `id` values holding
//! NUL are ignored; `retry` takes ASCII digits only; a blank line dispatches; an
//! unfinished event at the end of the stream is dropped.

use super::utf8_lossy;

/// A dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The event type (`message` when none was given).
    pub event: String,
    /// The data lines joined by LF.
    pub data: String,
    /// The last event ID at dispatch.
    pub last_event_id: String,
    /// Line number of the blank line that dispatched it (1-based).
    pub line: u64,
    /// Invalid UTF-8 sequences in its lines (each shown as U+FFFD).
    pub invalid_utf8: u64,
    /// The first line holding one (0 when there is none).
    pub invalid_utf8_line: u64,
}

/// What the parser hands out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SseItem {
    /// An event.
    Event(SseEvent),
    /// A valid `retry` field: the reconnection time in milliseconds.
    Retry(u64),
    /// An event whose data passed the size limit; its data was dropped.
    TooLarge {
        /// Line where the event was refused.
        line: u64,
    },
}

/// An incremental SSE parser.
#[derive(Debug, Clone)]
pub struct SseParser {
    /// Bytes of the unfinished line.
    line: Vec<u8>,
    /// Start of stream: up to three bytes held to see whether they are a BOM.
    bom_pending: bool,
    /// The last chunk ended with CR: an LF at the start of the next belongs to it.
    after_cr: bool,
    data: String,
    event_type: String,
    id_buffer: String,
    last_event_id: String,
    line_no: u64,
    max: usize,
    /// Dropping the rest of an oversized line or event.
    oversized_line: bool,
    oversized_event: bool,
    /// Invalid UTF-8 in the event's lines so far, and the first line holding it.
    invalid_utf8: u64,
    invalid_utf8_line: u64,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl SseParser {
    /// A parser refusing lines and events over `max` bytes.
    pub fn new(max: usize) -> SseParser {
        SseParser {
            line: Vec::new(),
            bom_pending: true,
            after_cr: false,
            data: String::new(),
            event_type: String::new(),
            id_buffer: String::new(),
            last_event_id: String::new(),
            line_no: 1,
            max,
            oversized_line: false,
            oversized_event: false,
            invalid_utf8: 0,
            invalid_utf8_line: 0,
        }
    }

    /// The same parser for a stream whose first line is line `number` (after lines
    /// skipped before it).
    pub fn starting_at_line(mut self, number: u64) -> SseParser {
        self.line_no = number;
        self
    }

    /// The last event ID (updated when a block is dispatched).
    pub fn last_event_id(&self) -> &str {
        &self.last_event_id
    }

    /// Parses a chunk, calling `out` for each item.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut impl FnMut(SseItem)) {
        if self.bom_pending {
            // Hold bytes until three are in or the prefix stops matching the BOM.
            let take = chunk.len().min(BOM.len() - self.line.len());
            self.line.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
            if BOM.starts_with(&self.line) && self.line.len() < BOM.len() {
                return;
            }
            self.bom_pending = false;
            let held = std::mem::take(&mut self.line);
            let held = held.strip_prefix(BOM).unwrap_or(&held);
            self.scan(held, out);
        }
        self.scan(chunk, out);
    }

    /// Ends the stream: a pending line and an undispatched event are discarded.
    pub fn finish(&mut self, out: &mut impl FnMut(SseItem)) {
        if self.bom_pending {
            self.bom_pending = false;
            let held = std::mem::take(&mut self.line);
            if held != BOM {
                self.scan(&held, out);
            }
        }
        self.line.clear();
        self.data.clear();
        self.event_type.clear();
    }

    fn scan(&mut self, mut chunk: &[u8], out: &mut impl FnMut(SseItem)) {
        if self.after_cr {
            self.after_cr = false;
            if let Some(rest) = chunk.strip_prefix(b"\n") {
                chunk = rest;
            }
        }
        while let Some(i) = memchr::memchr2(b'\n', b'\r', chunk) {
            if self.line.is_empty() && !self.oversized_line {
                self.line_done(&chunk[..i], out);
            } else {
                self.hold(&chunk[..i], out);
                let line = std::mem::take(&mut self.line);
                if !self.oversized_line {
                    self.line_done(&line, out);
                }
                self.line = line;
                self.line.clear();
                self.oversized_line = false;
            }
            let cr = chunk[i] == b'\r';
            chunk = &chunk[i + 1..];
            if cr {
                match chunk.first() {
                    Some(b'\n') => chunk = &chunk[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.hold(chunk, out);
    }

    fn hold(&mut self, bytes: &[u8], out: &mut impl FnMut(SseItem)) {
        if self.oversized_line || bytes.is_empty() {
            return;
        }
        if self.line.len() + bytes.len() > self.max {
            self.oversized_line = true;
            self.line.clear();
            self.refuse_event(self.line_no, out);
            return;
        }
        self.line.extend_from_slice(bytes);
    }

    /// Drops the event being read, reporting it at `line` (the line that made it too
    /// large, whichever chunk it came in).
    fn refuse_event(&mut self, line: u64, out: &mut impl FnMut(SseItem)) {
        if !self.oversized_event {
            self.oversized_event = true;
            self.data = String::new();
            out(SseItem::TooLarge { line });
        }
    }

    fn line_done(&mut self, line: &[u8], out: &mut impl FnMut(SseItem)) {
        let number = self.line_no;
        self.line_no += 1;
        if line.len() > self.max {
            self.refuse_event(number, out);
            return;
        }
        if line.is_empty() {
            self.dispatch(number, out);
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (bad, _) = super::invalid_utf8(line);
        if bad > 0 && !self.oversized_event {
            if self.invalid_utf8 == 0 {
                self.invalid_utf8_line = number;
            }
            self.invalid_utf8 += bad;
        }
        let line = utf8_lossy(line);
        let (field, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => value.clone_into(&mut self.event_type),
            "data" => {
                if self.oversized_event {
                    return;
                }
                if self.data.len() + value.len() + 1 > self.max {
                    self.refuse_event(number, out);
                    return;
                }
                self.data.push_str(value);
                self.data.push('\n');
            }
            "id" if !value.contains('\0') => value.clone_into(&mut self.id_buffer),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse() {
                    out(SseItem::Retry(ms));
                }
            }
            _ => {}
        }
    }

    fn dispatch(&mut self, line: u64, out: &mut impl FnMut(SseItem)) {
        self.last_event_id.clone_from(&self.id_buffer);
        let invalid_utf8 = std::mem::take(&mut self.invalid_utf8);
        let invalid_utf8_line = std::mem::take(&mut self.invalid_utf8_line);
        if std::mem::take(&mut self.oversized_event) || self.data.is_empty() {
            self.data.clear();
            self.event_type.clear();
            return;
        }
        let mut data = std::mem::take(&mut self.data);
        data.pop(); // the last LF
        let event = match std::mem::take(&mut self.event_type) {
            t if t.is_empty() => "message".to_owned(),
            t => t,
        };
        out(SseItem::Event(SseEvent {
            event,
            data,
            last_event_id: self.last_event_id.clone(),
            line,
            invalid_utf8,
            invalid_utf8_line,
        }));
    }
}
