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

/// Scanner state carried from one split point to the next.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SplitState {
    /// Offset scanned up to (always the start of a line).
    pub scanned: usize,
    /// The open fence: its character and length.
    fence: Option<(u8, usize)>,
    /// True when the previous complete line was blank.
    prev_blank: bool,
    /// True when the previous line had content (so a block is non-empty).
    seen_content: bool,
    /// No split points from here on.
    stopped: bool,
}

/// True when the text has a line that looks like a link reference definition.
pub fn has_reference_definition(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start_matches([' ', '\t', '>']);
        t.starts_with('[') && t.contains("]:")
    })
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

/// Scans complete lines from `state.scanned` and returns the new split points.
pub fn advance(text: &str, state: &mut SplitState) -> Vec<usize> {
    let mut points = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = state.scanned;
    while pos < text.len() {
        let Some(nl) = memchr::memchr(b'\n', &bytes[pos..]) else {
            break;
        };
        let line = &text[pos..pos + nl];
        let line = line.strip_suffix('\r').unwrap_or(line);
        let first = line.chars().next();
        if !state.stopped
            && state.fence.is_none()
            && state.prev_blank
            && state.seen_content
            && first.is_some_and(char::is_alphabetic)
        {
            points.push(pos);
            state.seen_content = false;
        }
        let blank = line.trim().is_empty();
        match (state.fence, fence_of(line)) {
            (None, Some((c, n, indent))) => {
                if indent > 3 || line.trim_start().starts_with('>') {
                    state.stopped = true;
                }
                state.fence = Some((c, n));
            }
            (Some((c, n)), Some((c2, n2, _)))
                if c == c2 && n2 >= n && line.trim().bytes().all(|b| b == c) =>
            {
                state.fence = None;
            }
            _ => {}
        }
        if line.trim_start().starts_with('<') && state.fence.is_none() {
            state.stopped = true;
        }
        if !blank {
            state.seen_content = true;
        }
        state.prev_blank = blank && state.fence.is_none();
        pos += nl + 1;
    }
    state.scanned = pos;
    points
}

/// Every split point of a complete text (the one-shot equivalent of [`advance`]).
pub fn split_points(text: &str) -> Vec<usize> {
    if has_reference_definition(text) {
        return Vec::new();
    }
    advance(text, &mut SplitState::default())
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
        let mut st = SplitState::default();
        let mut pts = Vec::new();
        for end in 1..=t.len() {
            pts.extend(advance(&t[..end], &mut st));
        }
        assert_eq!(pts, split_points(t));
    }
}
