//! NDJSON framing: complete lines out of chunks cut anywhere.

/// One framed line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    /// A complete line, without its LF or CRLF; never empty or blank.
    Text {
        /// The line's bytes (not yet checked as UTF-8).
        bytes: &'a [u8],
        /// 1-based line number.
        number: u64,
        /// Byte offset of the line in the stream.
        offset: u64,
    },
    /// A line over the limit; its bytes were dropped.
    TooLong {
        /// 1-based line number.
        number: u64,
        /// Byte offset of the line in the stream.
        offset: u64,
    },
}

/// Splits a byte stream into lines, keeping only the unfinished last line.
///
/// Each byte is scanned once, so a long line arriving in many chunks costs linear time.
#[derive(Debug, Clone)]
pub struct Lines {
    buf: Vec<u8>,
    /// Number of the line being read (1-based).
    number: u64,
    /// Stream offset of the line being read.
    line_start: u64,
    /// Bytes of the line being read seen in earlier chunks (held or dropped).
    seen: u64,
    max: usize,
    /// Dropping the rest of an oversized line.
    skipping: bool,
}

impl Lines {
    /// A framer refusing lines over `max` bytes.
    pub fn new(max: usize) -> Lines {
        Lines {
            buf: Vec::new(),
            number: 1,
            line_start: 0,
            seen: 0,
            max,
            skipping: false,
        }
    }

    /// The same framer for a stream whose first byte is at `offset`, on line `number`
    /// (after lines skipped before it).
    pub fn starting_at(mut self, number: u64, offset: u64) -> Lines {
        self.number = number;
        self.line_start = offset;
        self
    }

    /// Bytes held for the unfinished line.
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Frames a chunk, calling `out` for each complete line.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut impl FnMut(Line<'_>)) {
        // Finish the held line first.
        if self.seen > 0 {
            let Some(i) = memchr::memchr(b'\n', chunk) else {
                self.hold(chunk, out);
                return;
            };
            self.hold(&chunk[..i], out);
            if !self.skipping {
                let line = std::mem::take(&mut self.buf);
                self.emit(&line, out);
                self.buf = line;
                self.buf.clear();
            }
            self.skipping = false;
            self.next_line(self.seen + 1);
            chunk = &chunk[i + 1..];
        }
        // Whole lines straight from the chunk, without copying.
        while let Some(i) = memchr::memchr(b'\n', chunk) {
            self.emit(&chunk[..i], out);
            self.next_line(i as u64 + 1);
            chunk = &chunk[i + 1..];
        }
        self.hold(chunk, out);
    }

    /// Ends the stream: a last line without LF is still a line.
    pub fn finish(&mut self, out: &mut impl FnMut(Line<'_>)) {
        if !self.skipping && !self.buf.is_empty() {
            let line = std::mem::take(&mut self.buf);
            self.emit(&line, out);
        }
        self.buf = Vec::new();
        self.skipping = false;
        self.seen = 0;
    }

    fn next_line(&mut self, length_with_lf: u64) {
        self.line_start += length_with_lf;
        self.number += 1;
        self.seen = 0;
    }

    /// Holds bytes of an unfinished line, refusing it once it passes the limit.
    fn hold(&mut self, bytes: &[u8], out: &mut impl FnMut(Line<'_>)) {
        self.seen += bytes.len() as u64;
        if self.skipping || bytes.is_empty() {
            return;
        }
        if self.buf.len() + bytes.len() > self.max {
            out(Line::TooLong {
                number: self.number,
                offset: self.line_start,
            });
            self.buf.clear();
            self.skipping = true;
            return;
        }
        self.buf.extend_from_slice(bytes);
    }

    fn emit(&mut self, line: &[u8], out: &mut impl FnMut(Line<'_>)) {
        let (number, offset) = (self.number, self.line_start);
        let too_long = line.len() > self.max;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if too_long {
            out(Line::TooLong { number, offset });
        } else if !line.iter().all(u8::is_ascii_whitespace) {
            out(Line::Text {
                bytes: line,
                number,
                offset,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(chunks: &[&[u8]], max: usize) -> Vec<String> {
        let mut lines = Lines::new(max);
        let mut got = Vec::new();
        let mut out = |l: Line<'_>| {
            got.push(match l {
                Line::Text {
                    bytes,
                    number,
                    offset,
                } => {
                    format!("{number}@{offset}:{}", String::from_utf8_lossy(bytes))
                }
                Line::TooLong { number, offset } => format!("{number}@{offset}:TOO LONG"),
            })
        };
        for c in chunks {
            lines.push(c, &mut out);
        }
        lines.finish(&mut out);
        got
    }

    #[test]
    fn lf_crlf_blank_and_unterminated() {
        let input = b"a\r\n\n  \nbb\nc";
        let whole = frame(&[input], 100);
        assert_eq!(whole, ["1@0:a", "4@7:bb", "5@10:c"]);
        for i in 0..=input.len() {
            assert_eq!(
                frame(&[&input[..i], &input[i..]], 100),
                whole,
                "split at {i}"
            );
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(frame(&bytes, 100), whole);
    }

    #[test]
    fn crlf_split_between_chunks() {
        assert_eq!(frame(&[b"x\r", b"\ny\n"], 100), ["1@0:x", "2@3:y"]);
    }

    #[test]
    fn oversized_line_is_refused_and_the_next_is_read() {
        let input = b"0123456789abc\nok\n";
        let whole = frame(&[input], 8);
        assert_eq!(whole, ["1@0:TOO LONG", "2@14:ok"]);
        for i in 0..=input.len() {
            assert_eq!(frame(&[&input[..i], &input[i..]], 8), whole, "split at {i}");
        }
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(frame(&bytes, 8), whole);
    }
}
