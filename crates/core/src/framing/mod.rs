//! Framing: bytes to events, incrementally. A chunk may end anywhere — inside a line,
//! inside a UTF-8 sequence, between CR and LF — and the events are the same as for the
//! whole input. Each framer keeps only the unfinished tail of its input.

mod json_values;
mod lines;
mod sse;

pub use json_values::{JsonValues, Value as JsonValue, nests_deeper_than};
pub use lines::{Line, Lines};
pub use sse::{SseEvent, SseItem, SseParser};

use std::borrow::Cow;

/// Bytes as text: borrowed when valid UTF-8, otherwise with U+FFFD for each bad sequence.
pub fn utf8_lossy(bytes: &[u8]) -> Cow<'_, str> {
    // The strict check is the fast one (word at a time over ASCII); the lossy decoder
    // runs only when there is something to replace.
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The number of invalid UTF-8 sequences in `bytes` (each becomes one U+FFFD), and
/// the offset of the first.
pub fn invalid_utf8(bytes: &[u8]) -> (u64, usize) {
    let first = match std::str::from_utf8(bytes) {
        Ok(_) => return (0, 0),
        Err(e) => e.valid_up_to(),
    };
    let count = bytes[first..]
        .utf8_chunks()
        .filter(|c| !c.invalid().is_empty())
        .count();
    (count as u64, first)
}
