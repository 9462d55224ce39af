//! Terminal output: ANSI escape sequences stripped, huge outputs cut to head and tail.

use std::borrow::Cow;

/// Outputs longer than this many lines show head and tail, the full text folded.
pub(crate) const MAX_LINES: usize = 200;
/// Lines kept at each end of a cut output.
pub(crate) const KEEP_LINES: usize = 60;

/// Removes ANSI escape sequences (CSI, OSC, other ESC sequences) and control
/// characters other than line breaks and tabs. Text without any is returned as it is,
/// after one scan.
pub(crate) fn strip_ansi(s: &str) -> Cow<'_, str> {
    // C0 controls but tab and line feed, DEL, and the lead byte of C1 controls (U+0080
    // to U+009F, and other characters that share it).
    let clean = s
        .bytes()
        .all(|b| (b >= 0x20 || b == b'\n' || b == b'\t') && b != 0x7f && b != 0xc2);
    if clean {
        return Cow::Borrowed(s);
    }
    Cow::Owned(strip_slow(s))
}

fn strip_slow(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                Some('[') => {
                    chars.next();
                    // CSI: parameters and intermediates up to a final byte 0x40..=0x7e.
                    for c in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    chars.next();
                    // OSC: up to BEL or ESC \.
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' {
                            break;
                        }
                        if c == '\u{1b}' {
                            if chars.peek() == Some(&'\\') {
                                chars.next();
                            }
                            break;
                        }
                    }
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            },
            '\u{9b}' => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            '\n' | '\t' => out.push(c),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    continue;
                }
                out.push('\n');
            }
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Splits an output into (head, hidden middle, tail) when it has more than
/// [`MAX_LINES`] lines; `None` when it is short enough to show whole.
pub(crate) fn head_tail(s: &str) -> Option<(&str, &str, &str)> {
    let lines: Vec<usize> = s.match_indices('\n').map(|(i, _)| i + 1).collect();
    if lines.len() <= MAX_LINES {
        return None;
    }
    let head_end = lines[KEEP_LINES - 1];
    let tail_start = lines[lines.len() - KEEP_LINES - 1];
    Some((&s[..head_end], &s[head_end..tail_start], &s[tail_start..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colours() {
        assert_eq!(strip_ansi("\u{1b}[31mred\u{1b}[0m ok\r\n"), "red ok\n");
        assert_eq!(strip_ansi("\u{1b}]0;title\u{7}x"), "x");
    }

    #[test]
    fn cuts_long_output() {
        let s: String = (0..500).map(|i| format!("{i}\n")).collect();
        let (h, m, t) = head_tail(&s).unwrap();
        assert_eq!(format!("{h}{m}{t}"), s);
        assert_eq!(h.lines().count(), KEEP_LINES);
    }
}
