//! Splits assistant prose into text and fenced code, incrementally (seed 000 §7).
//!
//! Text arrives in deltas cut anywhere. A line that might be a fence (up to three
//! spaces, then backticks or tildes) is held back until its newline decides; every other
//! byte goes straight out, so prose shows as it streams. The output is a series of calls
//! on a [`Sink`]; for any way of cutting the same text into deltas the calls add up to
//! the same documents.

/// Receives the split text.
pub(crate) trait Sink {
    /// Prose, to append to the open text document.
    fn prose(&mut self, text: &str);
    /// A fence opened; `info` is its info string, trimmed (`python`, `12:30:src/a.rs`).
    fn open_code(&mut self, info: &str);
    /// Code, to append to the open code document (never ends with the line's newline:
    /// a code document's content has no trailing newline, as in seed 000 §3.3).
    fn code(&mut self, text: &str);
    /// The open fence closed (or the text ended inside it).
    fn close_code(&mut self);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Prose,
    Code { ch: u8, len: usize },
}

/// Where the scan of a possible fence line stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Indent(usize),
    Fence { ch: u8, n: usize },
    Info { ch: u8, n: usize },
}

enum Scan {
    /// All input consumed into the held line; still undecided.
    NeedMore,
    /// The held line is no fence; `usize` bytes of the input were consumed into it.
    NotFence(usize),
    /// The held line is a fence line; `usize` bytes consumed, including its newline.
    Fence(usize),
}

/// The incremental fence state machine.
#[derive(Debug, Clone)]
pub(crate) struct FenceSplitter {
    mode: Mode,
    /// True when the next byte starts a line.
    at_line_start: bool,
    /// Held-back start of the current line while it may be a fence.
    line: String,
    phase: Phase,
    /// In code: a line's newline not yet passed on.
    newline_held: bool,
}

impl Default for FenceSplitter {
    fn default() -> Self {
        FenceSplitter {
            mode: Mode::Prose,
            at_line_start: true,
            line: String::new(),
            phase: Phase::Indent(0),
            newline_held: false,
        }
    }
}

impl FenceSplitter {
    /// True while inside a fence.
    pub(crate) fn in_code(&self) -> bool {
        matches!(self.mode, Mode::Code { .. })
    }

    /// True while inside a fence or holding the start of a line.
    pub(crate) fn holds_text(&self) -> bool {
        self.in_code() || !self.line.is_empty()
    }

    /// Feeds one delta.
    pub(crate) fn feed(&mut self, mut s: &str, sink: &mut impl Sink) {
        while !s.is_empty() {
            if self.at_line_start {
                match self.scan(s) {
                    Scan::NeedMore => return,
                    Scan::NotFence(used) => {
                        self.at_line_start = false;
                        let line = std::mem::take(&mut self.line);
                        self.phase = Phase::Indent(0);
                        self.ordinary(&line, sink);
                        s = &s[used..];
                    }
                    Scan::Fence(used) => {
                        let line = std::mem::take(&mut self.line);
                        self.phase = Phase::Indent(0);
                        self.fence_line(&line, sink);
                        s = &s[used..];
                    }
                }
            } else {
                match memchr::memchr(b'\n', s.as_bytes()) {
                    Some(i) => {
                        self.ordinary(&s[..=i], sink);
                        self.at_line_start = true;
                        s = &s[i + 1..];
                    }
                    None => {
                        self.ordinary(s, sink);
                        s = "";
                    }
                }
            }
        }
    }

    /// Ends the text: flushes a held line and closes an open fence. The splitter is then
    /// ready for unrelated text.
    pub(crate) fn close(&mut self, sink: &mut impl Sink) {
        let line = std::mem::take(&mut self.line);
        // A closing fence as the very last line needs no newline after it.
        let closes = match (self.at_line_start, self.phase) {
            (true, Phase::Fence { ch, n } | Phase::Info { ch, n }) => {
                self.in_code() && self.accepts(ch, n)
            }
            _ => false,
        };
        if !closes {
            self.ordinary(&line, sink);
        }
        if self.in_code() {
            sink.close_code();
        }
        *self = FenceSplitter::default();
    }

    /// Scans bytes of a possible fence line, holding them in `self.line`.
    fn scan(&mut self, s: &str) -> Scan {
        for (i, &b) in s.as_bytes().iter().enumerate() {
            let next = match (self.phase, b) {
                (_, b'\n') => {
                    let fence = match self.phase {
                        Phase::Indent(_) => false,
                        Phase::Fence { ch, n } | Phase::Info { ch, n } => self.accepts(ch, n),
                    };
                    if fence {
                        self.line.push_str(&s[..i]);
                        return Scan::Fence(i + 1);
                    }
                    None
                }
                (Phase::Indent(n), b' ') if n < 3 => Some(Phase::Indent(n + 1)),
                (Phase::Indent(_), b'`' | b'~') => Some(Phase::Fence { ch: b, n: 1 }),
                (Phase::Indent(_), _) => None,
                (Phase::Fence { ch, n }, _) if b == ch => Some(Phase::Fence { ch, n: n + 1 }),
                (Phase::Fence { n, .. }, _) if n < 3 => None,
                (Phase::Fence { ch, n } | Phase::Info { ch, n }, _) => match self.mode {
                    // An opener's info string may not hold a backtick for ``` fences.
                    Mode::Prose if ch == b'`' && b == b'`' => None,
                    Mode::Prose => Some(Phase::Info { ch, n }),
                    // A closer is followed by nothing but whitespace.
                    Mode::Code { .. } if matches!(b, b' ' | b'\t' | b'\r') => {
                        Some(Phase::Info { ch, n })
                    }
                    Mode::Code { .. } => None,
                },
            };
            match next {
                Some(p) => self.phase = p,
                None => {
                    self.line.push_str(&s[..i]);
                    return Scan::NotFence(i);
                }
            }
        }
        self.line.push_str(s);
        Scan::NeedMore
    }

    /// Whether a complete fence line of `n` × `ch` opens (prose) or closes (code).
    fn accepts(&self, ch: u8, n: usize) -> bool {
        match self.mode {
            Mode::Prose => n >= 3,
            Mode::Code { ch: open, len } => ch == open && n >= len,
        }
    }

    fn fence_line(&mut self, line: &str, sink: &mut impl Sink) {
        match self.mode {
            Mode::Prose => {
                let body = line.trim_start_matches(' ');
                let ch = body.as_bytes()[0];
                let n = body.bytes().take_while(|&b| b == ch).count();
                sink.open_code(body[n..].trim());
                self.mode = Mode::Code { ch, len: n };
                self.newline_held = false;
            }
            Mode::Code { .. } => {
                sink.close_code();
                self.mode = Mode::Prose;
                self.newline_held = false;
            }
        }
        self.at_line_start = true;
    }

    /// Passes on text that is not a fence line (it may end with its newline).
    fn ordinary(&mut self, text: &str, sink: &mut impl Sink) {
        if text.is_empty() {
            return;
        }
        match self.mode {
            Mode::Prose => sink.prose(text),
            Mode::Code { .. } => {
                if self.newline_held {
                    sink.code("\n");
                    self.newline_held = false;
                }
                match text.strip_suffix('\n') {
                    Some(body) => {
                        if !body.is_empty() {
                            sink.code(body);
                        }
                        self.newline_held = true;
                    }
                    None => sink.code(text),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the sink calls as a flat list of (kind, text), merging adjacent appends.
    #[derive(Default, Debug, PartialEq)]
    struct Record(Vec<(&'static str, String)>);

    impl Record {
        fn push(&mut self, kind: &'static str, text: &str) {
            if let Some(last) = self.0.last_mut() {
                if last.0 == kind && matches!(kind, "prose" | "code") {
                    last.1.push_str(text);
                    return;
                }
            }
            self.0.push((kind, text.to_owned()));
        }
    }

    impl Sink for Record {
        fn prose(&mut self, t: &str) {
            self.push("prose", t)
        }
        fn open_code(&mut self, info: &str) {
            self.push("open", info)
        }
        fn code(&mut self, t: &str) {
            self.push("code", t)
        }
        fn close_code(&mut self) {
            self.push("close", "")
        }
    }

    fn split(deltas: &[&str]) -> Vec<(&'static str, String)> {
        let mut f = FenceSplitter::default();
        let mut r = Record::default();
        for d in deltas {
            f.feed(d, &mut r);
        }
        f.close(&mut r);
        r.0
    }

    fn owned(v: &[(&'static str, &str)]) -> Vec<(&'static str, String)> {
        v.iter().map(|(k, t)| (*k, (*t).to_owned())).collect()
    }

    const SAMPLE: &str = "Intro:\n```python\ndef f():\n\n    return 1\n```\nAfter `x` and\n```12:14:src/a.rs\nfn a() {}\n```\n~~~\nraw ``` inside\n~~~\n";

    #[test]
    fn splits_prose_and_fences() {
        assert_eq!(
            split(&[SAMPLE]),
            owned(&[
                ("prose", "Intro:\n"),
                ("open", "python"),
                ("code", "def f():\n\n    return 1"),
                ("close", ""),
                ("prose", "After `x` and\n"),
                ("open", "12:14:src/a.rs"),
                ("code", "fn a() {}"),
                ("close", ""),
                ("open", ""),
                ("code", "raw ``` inside"),
                ("close", ""),
            ])
        );
    }

    #[test]
    fn a_closing_fence_may_end_the_text_without_a_newline() {
        let calls = owned(&[("open", "rust"), ("code", "x"), ("close", "")]);
        assert_eq!(split(&["```rust\nx\n```"]), calls);
        assert_eq!(split(&["```rust\nx\n`", "``"]), calls);
        // Not a closer: too short, so it is code.
        assert_eq!(
            split(&["````rust\nx\n```"]),
            owned(&[("open", "rust"), ("code", "x\n```"), ("close", "")])
        );
    }

    #[test]
    fn every_two_way_and_byte_split_gives_the_same_calls() {
        let whole = split(&[SAMPLE]);
        for i in 0..=SAMPLE.len() {
            if SAMPLE.is_char_boundary(i) {
                assert_eq!(split(&[&SAMPLE[..i], &SAMPLE[i..]]), whole, "split at {i}");
            }
        }
        let bytes: Vec<String> = SAMPLE.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(split(&refs), whole);
    }

    #[test]
    fn inline_triple_backticks_are_not_a_fence() {
        assert_eq!(
            split(&["```js``` is inline\n"]),
            owned(&[("prose", "```js``` is inline\n")])
        );
    }

    #[test]
    fn four_space_indent_is_not_a_fence() {
        assert_eq!(
            split(&["    ```\ncode\n"]),
            owned(&[("prose", "    ```\ncode\n")])
        );
    }

    #[test]
    fn longer_closer_and_non_closers_inside_code() {
        assert_eq!(
            split(&["````md\n```\ninner\n```\n`````\nend"]),
            owned(&[
                ("open", "md"),
                ("code", "```\ninner\n```"),
                ("close", ""),
                ("prose", "end"),
            ])
        );
    }

    #[test]
    fn unterminated_fence_closes_at_the_end() {
        assert_eq!(
            split(&["```rust\nfn x()\n``"]),
            owned(&[("open", "rust"), ("code", "fn x()\n``"), ("close", "")])
        );
    }

    #[test]
    fn crlf_fence_lines() {
        assert_eq!(
            split(&["a\r\n```py\r\nx = 1\r\n```\r\n"]),
            owned(&[
                ("prose", "a\r\n"),
                ("open", "py"),
                ("code", "x = 1\r"),
                ("close", "")
            ])
        );
    }
}
