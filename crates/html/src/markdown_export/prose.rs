//! Prose as written, kept inside its place: the Markdown of a text, a prompt, a
//! thinking or an answer is copied as it is, except for what could reach past it.
//!
//! - Raw HTML (a block or an inline tag, a comment) is shown as text: its `<` become
//!   `&lt;`. A `</details>` in a thinking would otherwise close the fold it is in, and
//!   an unclosed `<!--` or `<pre>` would swallow the rest of the file. This is what the
//!   HTML renderer does with raw HTML too (SPEC §5: no raw HTML reaches the page).
//! - A fenced code block left open at the end (top level) is closed, or it would run
//!   to the end of the file.
//!
//! Each fix can change how the rest is read (an escaped comment shows what it hid), so
//! the text is read again after each round; text still not contained after a few rounds
//! is shown whole as a fenced block of Markdown.

use std::borrow::Cow;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag};

use super::escape::fence;

/// Rounds of fixing before the text is fenced instead.
const ROUNDS: usize = 4;

/// What a reading of the text found to fix.
#[derive(Default)]
struct Fixes {
    /// Byte offsets of `<` that open raw HTML.
    html: Vec<usize>,
    /// The fence that closes a fenced block left open at the end.
    close: Option<String>,
}

/// Reads `text` and lists what reaches past it.
fn read(text: &str) -> Fixes {
    let mut fixes = Fixes::default();
    let mut depth = 0usize;
    for (event, range) in
        Parser::new_ext(text, crate::markdown::parser_options()).into_offset_iter()
    {
        match event {
            Event::Html(_) | Event::InlineHtml(_) => {
                let at = range.start;
                fixes
                    .html
                    .extend(text[range].match_indices('<').map(|(i, _)| at + i));
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) if depth == 0 => {
                if let Some(close) = unclosed_fence(&text[range]) {
                    fixes.close = Some(close);
                }
                depth += 1;
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    fixes
}

/// For a fenced block's source, the fence that would close it when it is not closed.
fn unclosed_fence(block: &str) -> Option<String> {
    let first = block.lines().next()?.trim_start_matches(' ');
    let ch = first.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = first.chars().take_while(|c| *c == ch).count();
    let mut lines = block.lines();
    lines.next();
    let closed = lines.next_back().is_some_and(|last| {
        let t = last
            .trim_start_matches(' ')
            .trim_end_matches([' ', '\t', '\r']);
        t.len() >= n && t.chars().all(|c| c == ch)
    });
    (!closed).then(|| ch.to_string().repeat(n))
}

/// The prose, contained (see the module's comment), without trailing blank lines.
pub(crate) fn contain(source: &str) -> Cow<'_, str> {
    let mut text = Cow::Borrowed(source.trim_end());
    for _ in 0..ROUNDS {
        let fixes = read(&text);
        if fixes.html.is_empty() && fixes.close.is_none() {
            return text;
        }
        let mut fixed = String::with_capacity(text.len() + 4 * fixes.html.len() + 8);
        let mut from = 0;
        for at in fixes.html {
            fixed.push_str(&text[from..at]);
            fixed.push_str("&lt;");
            from = at + 1;
        }
        fixed.push_str(&text[from..]);
        if let Some(close) = fixes.close {
            fixed.push('\n');
            fixed.push_str(&close);
        }
        text = Cow::Owned(fixed);
    }
    let fence = fence(source);
    let body = source.trim_end();
    Cow::Owned(format!("{fence}markdown\n{body}\n{fence}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_stays_as_written() {
        let s = "# Title\n\nSome *prose* with `code <b>` and a list:\n\n- one\n- two\n\n```rust\nfn main() {}\n```";
        assert_eq!(contain(s), s);
    }

    #[test]
    fn raw_html_is_text() {
        assert_eq!(contain("a </details> b"), "a &lt;/details> b");
        assert_eq!(contain("</details>\n\nx"), "&lt;/details>\n\nx");
        assert_eq!(contain("<!-- hide\n\nall"), "&lt;!-- hide\n\nall");
    }

    #[test]
    fn an_open_fence_is_closed() {
        assert_eq!(contain("x\n\n```sh\nrm -rf"), "x\n\n```sh\nrm -rf\n```");
        assert_eq!(contain("~~~~\n~~~"), "~~~~\n~~~\n~~~~");
        // A comment that hid an open fence: both fixed.
        assert_eq!(contain("<!--\n```"), "&lt;!--\n```\n```");
    }
}
