//! Splitting a growing Markdown text into finished blocks and an unfinished tail.
//!
//! A split point is the start of a line that follows a blank line, begins with a letter
//! (so it cannot continue a list, quote, table or indented code) and lies outside any
//! fence. Whether an offset is a split point depends only on the text before it and its
//! first character, so split points found in a prefix stay split points as the text
//! grows: rendering the blocks as they finish gives the same HTML as splitting the final
//! text at once. When in doubt no split is made: after a line starting with `<` (a raw
//! HTML block may run across blank lines) or a fence inside a container, and not at all
//! in a text with a link reference definition (it changes links before it).
//!
//! [`BlockScanner`] reads each byte once: a split point is reported as soon as the first
//! character of its line arrives, and a line is judged once, when it is complete.

/// Incremental scanner of a growing text for split points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct BlockScanner {
    /// Bytes read.
    scanned: usize,
    /// Start of the line being read.
    line_start: usize,
    /// The line's first character has been judged.
    judged: bool,
    /// The open fence: its character and length.
    fence: Option<(u8, usize)>,
    /// True when the previous complete line was blank.
    prev_blank: bool,
    /// True when the block so far has content.
    seen_content: bool,
    /// No split points from here on.
    stopped: bool,
    /// A line looks like a link reference definition: the text must not be split.
    reference_definition: bool,
}

impl BlockScanner {
    /// Reads what `text` (the whole text so far, a longer version of what the last call
    /// saw) adds, pushing the new split points to `points`.
    pub(crate) fn feed(&mut self, text: &str, points: &mut Vec<usize>) {
        let bytes = text.as_bytes();
        while self.scanned < bytes.len() {
            if !self.judged {
                self.judged = true;
                let first = text[self.line_start..].chars().next();
                if !self.stopped
                    && self.fence.is_none()
                    && self.prev_blank
                    && self.seen_content
                    && first.is_some_and(char::is_alphabetic)
                {
                    points.push(self.line_start);
                    self.seen_content = false;
                }
            }
            let Some(nl) = memchr::memchr(b'\n', &bytes[self.scanned..]) else {
                self.scanned = bytes.len();
                return;
            };
            let end = self.scanned + nl;
            self.line(&text[self.line_start..end]);
            self.line_start = end + 1;
            self.scanned = end + 1;
            self.judged = false;
        }
    }

    /// Judges the last line of a text that will not grow (it has no newline).
    pub(crate) fn finish(&mut self, text: &str) {
        if self.line_start < text.len() {
            let last = &text[self.line_start..];
            if looks_like_reference_definition(last) {
                self.reference_definition = true;
            }
        }
    }

    /// True once a line looked like a link reference definition.
    pub(crate) fn has_reference_definition(&self) -> bool {
        self.reference_definition
    }

    /// Judges a complete line.
    fn line(&mut self, line: &str) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if looks_like_reference_definition(line) {
            self.reference_definition = true;
        }
        let blank = line.trim().is_empty();
        match (self.fence, fence_of(line)) {
            (None, Some((c, n, indent))) => {
                if indent > 3 || line.trim_start().starts_with('>') {
                    self.stopped = true;
                }
                self.fence = Some((c, n));
            }
            (Some((c, n)), Some((c2, n2, _)))
                if c == c2 && n2 >= n && line.trim().bytes().all(|b| b == c) =>
            {
                self.fence = None;
            }
            _ => {}
        }
        if line.trim_start().starts_with('<') && self.fence.is_none() {
            self.stopped = true;
        }
        if !blank {
            self.seen_content = true;
        }
        self.prev_blank = blank && self.fence.is_none();
    }
}

/// True for a line that looks like a link reference definition (`[label]: …`).
fn looks_like_reference_definition(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t', '>']);
    t.starts_with('[') && t.contains("]:")
}

fn fence_of(line: &str) -> Option<(u8, usize, usize)> {
    let indent = line.len() - line.trim_start_matches([' ', '\t', '>']).len();
    let t = &line[indent..];
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|&b| b == c).count();
    (n >= 3).then_some((c, n, indent))
}

/// Every split point of a complete text (what [`BlockScanner`] finds as it grows).
pub(crate) fn split_points(text: &str) -> Vec<usize> {
    let mut scanner = BlockScanner::default();
    let mut points = Vec::new();
    scanner.feed(text, &mut points);
    scanner.finish(text);
    if scanner.has_reference_definition() {
        return Vec::new();
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_outside_fences_and_lists() {
        let t = "a\n\nb\n\n```\nx\n\ny\n```\n\n- l\n\n  m\n\nc\nd";
        let pts = split_points(t);
        let starts: Vec<&str> = pts.iter().map(|&p| &t[p..p + 1]).collect();
        assert_eq!(starts, ["b", "c"]);
    }

    #[test]
    fn incremental_equals_one_shot() {
        let t = "p1\n\np2 long\n\n# H\n\ntext\n\n<div>\n\nafter\n";
        let mut st = BlockScanner::default();
        let mut pts = Vec::new();
        for end in 1..=t.len() {
            st.feed(&t[..end], &mut pts);
        }
        assert_eq!(pts, split_points(t));
    }

    #[test]
    fn a_split_is_known_at_its_first_character() {
        let mut st = BlockScanner::default();
        let mut pts = Vec::new();
        st.feed("one\n\nt", &mut pts);
        assert_eq!(pts, [5]);
    }

    #[test]
    fn reference_definitions_stop_splitting() {
        assert!(split_points("a\n\nb\n\n[x]: https://x.y").is_empty());
        assert_eq!(split_points("a\n\nb [x]: y").len(), 1);
    }
}
