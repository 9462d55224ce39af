//! Escaping for the Markdown export: what untrusted text may contain cannot change the
//! structure around it. Four contexts, one function each:
//!
//! - inline Markdown (a heading, a list item, a line of facts): [`inline`] puts a
//!   backslash before every character that could start Markdown or HTML syntax, and
//!   makes the text one line;
//! - inline code: [`code_span`] delimits with one backtick more than the longest run
//!   inside;
//! - a fenced block: [`fence`] is one backtick more than the longest run inside (at
//!   least three), so no line of the content can close it;
//! - HTML (a `<summary>`, which GitHub does not read as Markdown): [`html`] escapes
//!   `& < > "` and makes the text one line.

use std::borrow::Cow;

/// The characters that can start Markdown or HTML syntax inside a line (CommonMark
/// allows a backslash before any ASCII punctuation): emphasis, code, links, images,
/// raw HTML, entities, tables, strikethrough, math, headings, footnotes.
const SYNTAX: &[char] = &[
    '\\', '`', '*', '_', '[', ']', '<', '>', '&', '|', '~', '$', '#', '!', '^',
];

/// One line: line breaks, tabs and other control characters become spaces (a blank
/// line would end the paragraph or the HTML block the text is in).
pub(crate) fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect(),
    )
}

/// Text for inline Markdown: one line, every syntax character escaped, leading and
/// trailing spaces trimmed (they would make a hard break or an indented block).
pub(crate) fn inline(s: &str) -> String {
    let line = one_line(s);
    let line = line.trim();
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.chars() {
        if SYNTAX.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Text for HTML (a `<summary>`): one line, `& < > "` as entities.
pub(crate) fn html(s: &str) -> String {
    let line = one_line(s);
    let mut out = String::with_capacity(line.len() + 8);
    for c in line.trim().chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The longest run of `c` in `s`.
fn longest_run(s: &str, c: u8) -> usize {
    let (mut best, mut run) = (0, 0);
    for &b in s.as_bytes() {
        if b == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// Inline code: the text on one line between backtick runs longer than any inside,
/// padded with a space where it starts or ends with a backtick (or a space, which the
/// padding rule would otherwise eat). Empty text is nothing.
pub(crate) fn code_span(s: &str) -> String {
    let line = one_line(s);
    if line.trim().is_empty() {
        return String::new();
    }
    let ticks = "`".repeat(longest_run(&line, b'`') + 1);
    let pad = line.starts_with(['`', ' ']) || line.ends_with(['`', ' ']);
    let space = if pad { " " } else { "" };
    format!("{ticks}{space}{line}{space}{ticks}")
}

/// The fence of a fenced block holding `content`: backticks, at least three and one
/// more than the longest run inside, so that no line of the content closes it.
pub(crate) fn fence(content: &str) -> String {
    "`".repeat((longest_run(content, b'`') + 1).max(3))
}

/// A fence's info string: the language as a word (letters, digits, `+ - . _ #`), so it
/// holds no backtick and no space; anything else is dropped.
pub(crate) fn info_string(language: &str) -> String {
    language
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "+-._#".contains(*c))
        .take(40)
        .collect()
}

/// Text for a fenced block: control characters other than line breaks and tabs
/// removed (ANSI sequences with them), CR and CRLF made LF, and a final line break.
pub(crate) fn block_text(s: &str) -> String {
    let mut text = crate::terminal::strip_ansi(s).into_owned();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_outlast_every_backtick_run() {
        assert_eq!(fence("plain"), "```");
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("``````"), "```````");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_span("  "), "");
    }

    #[test]
    fn inline_text_is_one_line_of_plain_characters() {
        assert_eq!(inline("a *b*\n\n<x> [l](u)"), r"a \*b\*  \<x\> \[l\](u)");
        assert_eq!(
            html("</summary>\n& \"x\""),
            "&lt;/summary&gt; &amp; &quot;x&quot;"
        );
        assert_eq!(info_string("rust `x` y"), "rustxy");
    }
}
