//! `thinking`: reasoning text, folded under a one-line summary.

use super::super::RenderOptions;
use super::super::escape::Markup;
use super::super::labels::Label;
use super::super::parts::{Part, Slot};
use super::l;
use super::text::render_blocks_of;
use crate::model::{Document, ThinkingMeta};

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

pub(super) fn render(doc: &Document, meta: &ThinkingMeta, opts: &RenderOptions, out: &mut String) {
    out.raw("<details class=\"ds-thinking-body\"><summary><span class=\"ds-label\">")
        .text(l(opts, Label::Thinking))
        .raw("</span> ");
    HEAD.wrap(out, |out| head(doc, meta, opts, out));
    out.raw("</summary>\n");
    if !meta.redacted {
        render_blocks_of(doc.text(), &doc.id, opts, out);
    }
    out.raw("</details>\n");
}

/// The summary: the first non-blank line, shortened (or that the text was withheld).
pub(super) fn head(doc: &Document, meta: &ThinkingMeta, opts: &RenderOptions, out: &mut String) {
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
    let end = first
        .char_indices()
        .nth(PREVIEW_CHARS)
        .map_or(first.len(), |(i, _)| i);
    out.text(&first[..end]);
}
