//! `thinking`: reasoning text, folded under a one-line summary.

use std::borrow::Cow;

use pulldown_cmark::{Event, Options, Parser};

use super::l;
use super::text::{render_blocks_of, render_growing_blocks_of};
use crate::RenderOptions;
use crate::escape::Markup;
use crate::facts::push_duration;
use crate::labels::Label;
use crate::parts::{Part, Slot};
use docstream_model::{Document, ThinkingMeta};

/// The summary's preview text.
const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "span",
    class: "ds-preview",
};

/// Characters of the first line the summary shows.
const PREVIEW_CHARS: usize = 100;

/// Bytes at the start of the text the summary is looked for in, so that finding it costs
/// the same however long the text grows.
const PREVIEW_WINDOW: usize = 4096;

pub(super) fn render(
    doc: &Document,
    meta: &ThinkingMeta,
    growing: bool,
    opts: &RenderOptions,
    out: &mut String,
) {
    out.raw("<details class=\"ds-thinking-body\"><summary>");
    HEAD.wrap(out, |out| head(doc, meta, opts, out));
    out.raw("</summary>\n");
    match (meta.redacted, growing) {
        (true, _) => {}
        (false, true) => render_growing_blocks_of(doc.text(), &doc.id, opts, out),
        (false, false) => render_blocks_of(doc.text(), &doc.id, opts, out),
    }
    out.raw("</details>\n");
}

/// The summary: "Thinking" (or "Thought for 3.5 s" where the stream timed it), then the
/// first non-blank line, shortened (or that the text was withheld).
pub(super) fn head(doc: &Document, meta: &ThinkingMeta, opts: &RenderOptions, out: &mut String) {
    out.raw("<span class=\"ds-label\">");
    match meta.duration_ms {
        Some(ms) => {
            out.text(l(opts, Label::ThoughtFor)).raw(" ");
            push_duration(out, ms);
        }
        None => {
            out.text(l(opts, Label::Thinking));
        }
    }
    out.raw("</span> ");
    if meta.redacted {
        out.text(l(opts, Label::Redacted));
        return;
    }
    let text = doc.text();
    let mut window = text.len().min(PREVIEW_WINDOW);
    while !text.is_char_boundary(window) {
        window -= 1;
    }
    let first = text[..window]
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    out.text(&preview(&plain_line(first)));
}

/// The first [`PREVIEW_CHARS`] characters of a line, ending at a word: a line cut in
/// the middle of a word loses that word and ends in `…`.
fn preview(plain: &str) -> Cow<'_, str> {
    let Some((end, _)) = plain.char_indices().nth(PREVIEW_CHARS) else {
        return Cow::Borrowed(plain);
    };
    let cut = &plain[..end];
    // The cut falls between words when the next character is a space.
    let at_word = plain[end..].starts_with(char::is_whitespace);
    let kept = if at_word {
        cut
    } else {
        match cut.rfind(char::is_whitespace) {
            Some(space) if space > 0 => &cut[..space],
            _ => cut,
        }
    };
    Cow::Owned(format!("{}…", kept.trim_end()))
}

/// Bytes of the first line read for the summary (it shows [`PREVIEW_CHARS`]).
const LINE_WINDOW: usize = 4 * PREVIEW_CHARS;

/// A line of Markdown as the text it shows: `**Checking the build**` is "Checking the
/// build", `` `cargo test` `` is "cargo test", a heading's `#` and a link's target are
/// gone. A marker still waiting for its closing half (the line is still streaming, or
/// cut at [`LINE_WINDOW`]) is left out too.
fn plain_line(line: &str) -> String {
    let mut end = line.len().min(LINE_WINDOW);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    let mut plain = String::with_capacity(end);
    for event in Parser::new_ext(&line[..end], Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Text(t) | Event::Code(t) => plain.push_str(&t),
            Event::SoftBreak | Event::HardBreak => plain.push(' '),
            _ => {}
        }
    }
    let unclosed = |c: char| matches!(c, '*' | '_' | '`' | '~');
    let start = plain.len() - plain.trim_start_matches(unclosed).len();
    let stop = plain.trim_end_matches(unclosed).len().max(start);
    plain[start..stop].trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::{plain_line, preview};

    #[test]
    fn the_preview_ends_at_a_word() {
        let words = "word ".repeat(30);
        let p = preview(words.trim());
        assert!(p.ends_with("word…"), "{p}");
        assert!(p.chars().count() <= 101, "{p}");
        // Cut inside a word: that word goes.
        let line = format!("{} verylongword and more", "a".repeat(95));
        assert_eq!(preview(&line), format!("{}…", "a".repeat(95)));
        // One long word: cut where it must be.
        let long = "x".repeat(150);
        assert_eq!(preview(&long).chars().count(), 101);
        assert_eq!(preview("short line"), "short line");
    }

    #[test]
    fn the_summary_shows_no_markers() {
        for (line, want) in [
            ("**Checking the build**", "Checking the build"),
            (
                "## Plan: run `cargo test` first",
                "Plan: run cargo test first",
            ),
            (
                "See [the docs](https://x.example) *now*",
                "See the docs now",
            ),
            ("**Looking for the fail", "Looking for the fail"),
            ("Compute 2 * 3 and 4 * 5", "Compute 2 * 3 and 4 * 5"),
            ("`", ""),
        ] {
            assert_eq!(plain_line(line), want, "{line:?}");
        }
    }
}
