//! Whole JSON values (a saved response, a conversation, a message array), framed by
//! bracket depth so that each is handed out as soon as it closes. Values may follow one
//! another; whitespace between them is skipped.

/// One framed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    /// A complete value's bytes (not yet parsed).
    Complete {
        /// The bytes.
        bytes: &'a [u8],
        /// Its byte offset in the stream.
        offset: u64,
    },
    /// A value over the size limit (its bytes were dropped).
    TooLarge {
        /// Its byte offset in the stream.
        offset: u64,
    },
    /// A value nested deeper than the limit (its bytes were dropped).
    TooDeep {
        /// Its byte offset in the stream.
        offset: u64,
    },
}

/// The incremental framer.
#[derive(Debug, Clone)]
pub struct JsonValues {
    buf: Vec<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// Inside a value (after its first byte).
    started: bool,
    /// The value is a bare scalar (not an object or array): it ends at whitespace.
    scalar: bool,
    too_large: bool,
    too_deep: bool,
    /// Stream offset of the value being read.
    start: u64,
    /// Stream offset of the next byte.
    pos: u64,
    max_bytes: usize,
    max_depth: usize,
}

impl JsonValues {
    /// A framer with the given limits.
    pub fn new(max_bytes: usize, max_depth: usize) -> JsonValues {
        JsonValues {
            buf: Vec::new(),
            depth: 0,
            in_string: false,
            escaped: false,
            started: false,
            scalar: false,
            too_large: false,
            too_deep: false,
            start: 0,
            pos: 0,
            max_bytes,
            max_depth,
        }
    }

    /// The same framer for a stream whose first byte is at `offset`.
    pub fn starting_at(mut self, offset: u64) -> JsonValues {
        self.pos = offset;
        self
    }

    /// Frames a chunk, calling `out` for each value that closes in it.
    pub fn push(&mut self, chunk: &[u8], out: &mut impl FnMut(Value<'_>)) {
        let mut from = 0; // start of the unheld part of `chunk` belonging to the value
        for (i, &b) in chunk.iter().enumerate() {
            if !self.started {
                if b.is_ascii_whitespace() {
                    from = i + 1;
                    continue;
                }
                self.started = true;
                self.start = self.pos + i as u64;
                from = i;
                self.scalar = !matches!(b, b'{' | b'[');
            }
            let end = if self.scalar {
                b.is_ascii_whitespace() || matches!(b, b'{' | b'[')
            } else {
                self.step(b)
            };
            if end {
                let upto = if self.scalar { i } else { i + 1 };
                self.hold(&chunk[from..upto]);
                self.emit(out);
                from = upto;
                if self.scalar && matches!(b, b'{' | b'[') {
                    // A new value starts right here.
                    self.started = true;
                    self.scalar = false;
                    self.start = self.pos + i as u64;
                    self.step(b);
                } else {
                    from = i + 1;
                }
            }
        }
        if self.started {
            self.hold(&chunk[from..]);
        }
        self.pos += chunk.len() as u64;
    }

    /// Ends the stream: an unfinished value is handed out as it is (and will fail to
    /// parse, saying where).
    pub fn finish(&mut self, out: &mut impl FnMut(Value<'_>)) {
        if self.started {
            self.emit(out);
        }
    }

    /// Advances the bracket state by one byte; true when the value closed.
    fn step(&mut self, b: u8) -> bool {
        if self.in_string {
            if self.escaped {
                self.escaped = false;
            } else if b == b'\\' {
                self.escaped = true;
            } else if b == b'"' {
                self.in_string = false;
            }
            return false;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => {
                self.depth += 1;
                if self.depth > self.max_depth {
                    self.too_deep = true;
                }
            }
            b'}' | b']' => {
                self.depth = self.depth.saturating_sub(1);
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }

    fn hold(&mut self, bytes: &[u8]) {
        if self.too_large || self.too_deep {
            return;
        }
        if self.buf.len() + bytes.len() > self.max_bytes {
            self.too_large = true;
            self.buf = Vec::new();
            return;
        }
        self.buf.extend_from_slice(bytes);
    }

    fn emit(&mut self, out: &mut impl FnMut(Value<'_>)) {
        let offset = self.start;
        if self.too_deep {
            out(Value::TooDeep { offset });
        } else if self.too_large {
            out(Value::TooLarge { offset });
        } else {
            out(Value::Complete {
                bytes: &self.buf,
                offset,
            });
        }
        self.buf.clear();
        self.depth = 0;
        self.in_string = false;
        self.escaped = false;
        self.started = false;
        self.scalar = false;
        self.too_large = false;
        self.too_deep = false;
    }
}

/// True when JSON text nests deeper than `max` (strings are skipped).
pub fn nests_deeper_than(bytes: &[u8], max: usize) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Strings are skipped a vector at a time, to their closing quote.
                i += 1;
                loop {
                    match memchr::memchr2(b'"', b'\\', bytes.get(i..).unwrap_or_default()) {
                        None => return false,
                        Some(j) if bytes[i + j] == b'\\' => i += j + 2,
                        Some(j) => {
                            i += j;
                            break;
                        }
                    }
                }
            }
            b'{' | b'[' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(chunks: &[&[u8]], max_bytes: usize, max_depth: usize) -> Vec<String> {
        let mut f = JsonValues::new(max_bytes, max_depth);
        let mut got = Vec::new();
        let mut out = |v: Value<'_>| {
            got.push(match v {
                Value::Complete { bytes, offset } => {
                    format!("{offset}:{}", String::from_utf8_lossy(bytes))
                }
                Value::TooLarge { offset } => format!("{offset}:TOO LARGE"),
                Value::TooDeep { offset } => format!("{offset}:TOO DEEP"),
            })
        };
        for c in chunks {
            f.push(c, &mut out);
        }
        f.finish(&mut out);
        got
    }

    #[test]
    fn values_in_sequence_under_every_split() {
        let input = b" {\"a\": \"}\\\"{\"}\n[1, [2]] {\"b\":{}} x";
        let whole = frame(&[input], 1000, 10);
        assert_eq!(
            whole,
            [
                "1:{\"a\": \"}\\\"{\"}",
                "15:[1, [2]]",
                "24:{\"b\":{}}",
                "33:x"
            ]
        );
        for i in 0..=input.len() {
            assert_eq!(
                frame(&[&input[..i], &input[i..]], 1000, 10),
                whole,
                "split at {i}"
            );
        }
    }

    #[test]
    fn limits() {
        assert_eq!(
            frame(&[b"[[[[1]]]] [1]"], 1000, 3),
            ["0:TOO DEEP", "10:[1]"]
        );
        assert_eq!(
            frame(&[b"[1,2,3,4,5,6] [1]"], 8, 10),
            ["0:TOO LARGE", "14:[1]"]
        );
        assert!(!nests_deeper_than(b"[[[\"[[[[\"]]]", 3));
        assert!(nests_deeper_than(b"[[[[]]]]", 3));
    }
}
