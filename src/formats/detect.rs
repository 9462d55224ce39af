//! Format detection: the framing from the first bytes, then the format from the first
//! payload. A caller who names the format skips both.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{Format, Framing};

/// Decides the framing from the first bytes, incrementally (each byte is looked at
/// once, so a long first line costs linear time).
#[derive(Debug, Clone, Default)]
pub struct FramingDetector {
    /// Bytes seen.
    seen: usize,
    /// First non-blank byte, once seen.
    first: Option<u8>,
    /// For SSE: the first line's bytes, up to a field name's length.
    head: Vec<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The first JSON value closed (a line must then end with only blanks after it).
    closed: bool,
}

/// What the detector knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detection {
    /// More bytes are needed.
    Undecided,
    /// The framing.
    Framing(Framing),
    /// No format docstream reads starts like this.
    Unknown,
}

/// A first line longer than this without closing its JSON value is taken as a whole
/// JSON value.
const MAX_FIRST_LINE: usize = 1 << 20;

const SSE_FIELDS: [&[u8]; 5] = [b"event", b"data", b"id", b"retry", b""];

impl FramingDetector {
    /// Looks at more bytes (after any BOM); `at_end` when the stream has ended.
    pub fn feed(&mut self, bytes: &[u8], at_end: bool) -> Detection {
        for &b in bytes {
            self.seen += 1;
            let Some(first) = self.first else {
                if b.is_ascii_whitespace() {
                    continue;
                }
                self.first = Some(b);
                if matches!(b, b'{' | b'[') {
                    self.depth = 1;
                } else {
                    self.head.push(b);
                    if let Some(d) = self.sse_decision(false) {
                        return d;
                    }
                }
                continue;
            };
            if matches!(first, b'{' | b'[') {
                // Checked per byte, so that the decision does not depend on chunking.
                if self.seen > MAX_FIRST_LINE {
                    return Detection::Framing(Framing::Values);
                }
                if let Some(d) = self.json_byte(b) {
                    return d;
                }
            } else {
                self.head.push(b);
                if let Some(d) = self.sse_decision(false) {
                    return d;
                }
            }
        }
        match self.first {
            None => Detection::Undecided,
            Some(b'{' | b'[') if at_end => Detection::Framing(Framing::Values),
            Some(b'{' | b'[') => Detection::Undecided,
            Some(_) if at_end => self.sse_decision(true).unwrap_or(Detection::Unknown),
            Some(_) => Detection::Undecided,
        }
    }

    fn json_byte(&mut self, b: u8) -> Option<Detection> {
        if self.in_string {
            match (self.escaped, b) {
                (true, _) => self.escaped = false,
                (false, b'\\') => self.escaped = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            return None;
        }
        if b == b'\n' {
            let lines = self.closed;
            return Some(Detection::Framing(if lines {
                Framing::Lines
            } else {
                Framing::Values
            }));
        }
        if self.closed {
            // Something after the first value on its line: not one value per line.
            if !b.is_ascii_whitespace() {
                return Some(Detection::Framing(Framing::Values));
            }
            return None;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth -= 1;
                self.closed = self.depth == 0;
            }
            _ => {}
        }
        None
    }

    /// SSE when the first line starts with a field name and `:` (or is a bare field
    /// name, or a comment).
    fn sse_decision(&self, at_end: bool) -> Option<Detection> {
        let head = &self.head;
        let name_end = head.iter().position(|&b| matches!(b, b':' | b'\n' | b'\r'));
        match name_end {
            Some(i) => {
                let name = &head[..i];
                Some(if SSE_FIELDS.contains(&name) {
                    Detection::Framing(Framing::Sse)
                } else {
                    Detection::Unknown
                })
            }
            None if at_end => Some(if SSE_FIELDS[..4].contains(&head.as_slice()) {
                Detection::Framing(Framing::Sse)
            } else {
                Detection::Unknown
            }),
            None if SSE_FIELDS[..4].iter().any(|f| f.starts_with(head)) => None,
            None => Some(Detection::Unknown),
        }
    }
}

/// The keys that tell JSON formats apart.
#[derive(Deserialize)]
struct Sniff<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(default)]
    documents: Option<IgnoredAny>,
    #[serde(default)]
    turns: Option<IgnoredAny>,
}

/// The format of a JSON payload (an NDJSON line or a whole value); `None` if unknown.
pub fn json_format(text: &str) -> Option<Format> {
    let text = text.trim_start();
    if !text.starts_with('{') {
        return None;
    }
    if super::cursor_store::sniff(text) {
        return Some(Format::CursorStore);
    }
    let sniff: Sniff<'_> = serde_json::from_str(text).ok()?;
    if sniff.documents.is_some() || sniff.turns.is_some() {
        return Some(Format::ResponseJson);
    }
    match sniff.kind.as_deref()? {
        "system" | "user" | "assistant" | "thinking" | "tool_call" | "result"
        | "interaction_query" | "connection" | "retry" => Some(Format::CursorStreamJson),
        "tool-call-started" | "tool-call-completed" => Some(Format::CursorWrapper),
        _ => None,
    }
}

/// The format of an SSE stream from its first event; `None` if unknown.
pub fn sse_format(event: &str, data: &str) -> Option<Format> {
    const DOC_EVENTS: [&str; 8] = [
        "document_start",
        "content_delta",
        "tool_call_start",
        "tool_call_arguments",
        "tool_result",
        "document_end",
        "done",
        "error",
    ];
    if DOC_EVENTS.contains(&event) {
        return Some(Format::DocumentSse);
    }
    let sniff: Sniff<'_> = serde_json::from_str(data).ok()?;
    let kind = sniff.kind.as_deref()?;
    DOC_EVENTS.contains(&kind).then_some(Format::DocumentSse)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(input: &[u8]) -> Detection {
        let mut d = FramingDetector::default();
        let mut last = Detection::Undecided;
        for b in input.chunks(1) {
            last = d.feed(b, false);
            if last != Detection::Undecided {
                return last;
            }
        }
        if last == Detection::Undecided {
            d.feed(&[], true)
        } else {
            last
        }
    }

    #[test]
    fn framings() {
        assert_eq!(
            detect(b"{\"a\":\"{\\n\"}\n{}"),
            Detection::Framing(Framing::Lines)
        );
        assert_eq!(
            detect(b"  {\n  \"a\": 1\n}"),
            Detection::Framing(Framing::Values)
        );
        assert_eq!(detect(b"{\"a\":1}"), Detection::Framing(Framing::Values));
        assert_eq!(detect(b"[1] [2]\n"), Detection::Framing(Framing::Values));
        assert_eq!(
            detect(b"event: x\ndata: y\n\n"),
            Detection::Framing(Framing::Sse)
        );
        assert_eq!(detect(b": comment\n"), Detection::Framing(Framing::Sse));
        assert_eq!(detect(b"data"), Detection::Framing(Framing::Sse));
        assert_eq!(detect(b"hello world"), Detection::Unknown);
        assert_eq!(detect(b"dat"), Detection::Unknown);
    }
}
