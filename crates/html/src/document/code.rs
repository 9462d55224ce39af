//! `code_block` and `code_reference`: numbered lines in a figure with a copy control.
//!
//! Each complete line is one `<span class="ds-line" data-ln="N">` followed by its
//! newline, inside one `<pre>`: copying the block gives exactly its text, and the line
//! numbers, drawn by the stylesheet from `data-ln`, are never copied. Complete lines
//! live in [`Part::Lines`] (appended as they complete); the unfinished last line in
//! [`Part::Open`].

use super::{copy_button, count, language_class};
use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::Label;
use crate::lines::line_count;
use crate::parts::{Part, Slot};
use docstream_model::{Document, Meta};

const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "span",
    class: "ds-code-head",
};

const LINES: Slot = Slot {
    part: Part::Lines,
    tag: "span",
    class: "ds-lines",
};

const OPEN: Slot = Slot {
    part: Part::Open,
    tag: "span",
    class: "ds-open",
};

/// The number of the first line, and the language.
fn start_and_language(doc: &Document) -> (u64, &str) {
    match &doc.meta {
        Meta::CodeReference(m) => (m.start_line.max(1), &m.language),
        Meta::CodeBlock(m) => (1, &m.language),
        _ => (1, ""),
    }
}

pub(super) fn render(doc: &Document, growing: bool, opts: &RenderOptions, out: &mut String) {
    let (start, language) = start_and_language(doc);
    out.raw("<figure class=\"ds-code-figure\"><figcaption>");
    HEAD.wrap(out, |out| head(doc, line_count(doc.text()), opts, out));
    copy_button(out, "code", Label::CopyCode, opts);
    out.raw("</figcaption>\n<pre class=\"ds-code\" tabindex=\"0\"><code");
    language_class(out, language);
    out.raw(">");
    let text = doc.text();
    let last = text.rfind('\n').map_or(0, |i| i + 1);
    let mut n = start;
    LINES.wrap(out, |out| {
        for line in text[..last].split_terminator('\n') {
            code_line(out, n, line);
            out.raw("\n");
            n = n.saturating_add(1);
        }
    });
    OPEN.wrap(out, |out| {
        if last < text.len() {
            match growing {
                // Shown as it streams, a carriage return before its newline included.
                true => line_as_is(out, n, &text[last..]),
                false => code_line(out, n, &text[last..]),
            }
        }
    });
    out.raw("</code></pre>\n</figure>\n");
}

/// One numbered line (without its newline).
pub(crate) fn code_line(out: &mut String, n: u64, line: &str) {
    line_as_is(out, n, line.strip_suffix('\r').unwrap_or(line));
}

/// One numbered line as given.
fn line_as_is(out: &mut String, n: u64, line: &str) {
    out.raw("<span class=\"ds-line\" data-ln=\"")
        .num(n)
        .raw("\">")
        .text(line)
        .raw("</span>");
}

/// The caption: language and line count, or the quoted file's path and lines.
pub(crate) fn head(doc: &Document, lines: u64, opts: &RenderOptions, out: &mut String) {
    match &doc.meta {
        Meta::CodeReference(m) => {
            out.raw("<span class=\"ds-path\">")
                .text(&m.file_path)
                .raw(":")
                .num(m.start_line)
                .raw("–")
                .num(m.end_line)
                .raw("</span>");
        }
        Meta::CodeBlock(m) => {
            out.raw("<span class=\"ds-lang\">")
                .text(&m.language)
                .raw("</span> <span class=\"ds-line-count\">");
            count(out, lines, Label::Line, Label::Lines, opts);
            out.raw("</span>");
        }
        _ => {}
    }
}
