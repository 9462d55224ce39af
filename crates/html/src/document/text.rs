//! `text`: Markdown prose as finished blocks and an unfinished tail (plain text as one
//! preformatted block).

use super::{code_line, copy_button};
use crate::RenderOptions;
use crate::blocks::{BlockScanner, split_points};
use crate::escape::Markup;
use crate::labels::{Label, label};
use crate::markdown::{Slugs, render_markdown_into};
use crate::parts::{Part, Slot};
use crate::patch::PartModel;
use crate::preview::Preview;
use docstream_model::{Document, TextFormat, TextMeta};

/// The finished blocks' element.
pub(crate) const BLOCKS: Slot = Slot {
    part: Part::Blocks,
    tag: "div",
    class: "ds-blocks",
};

/// The unfinished tail's element.
pub(crate) const TAIL: Slot = Slot {
    part: Part::Tail,
    tag: "div",
    class: "ds-tail",
};

pub(super) fn render(
    doc: &Document,
    meta: &TextMeta,
    growing: bool,
    opts: &RenderOptions,
    out: &mut String,
) {
    if meta.format == TextFormat::Plain {
        BLOCKS.wrap(out, |_| {});
        out.raw("\n");
        TAIL.wrap(out, |out| {
            if !doc.text().is_empty() {
                out.raw("<pre class=\"ds-plain\">")
                    .text(doc.text())
                    .raw("</pre>\n");
            }
        });
        out.raw("\n");
        return;
    }
    if meta.format == TextFormat::Json {
        return json(doc, opts, out);
    }
    match growing {
        true => render_growing_blocks_of(doc.text(), &doc.id, opts, out),
        false => render_blocks_of(doc.text(), &doc.id, opts, out),
    }
}

/// An answer that is one JSON value: pretty-printed in a code figure marked as JSON
/// (coloured where the page colours code), with a copy control.
fn json(doc: &Document, opts: &RenderOptions, out: &mut String) {
    let text = doc.text();
    let pretty = docstream_model::read_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok());
    let shown = pretty.as_deref().unwrap_or(text);
    out.raw("<figure class=\"ds-code-figure ds-json-answer\"><figcaption><span class=\"ds-code-head\"><span class=\"ds-lang\">")
        .text(label(opts.locale, Label::Json))
        .raw("</span></span>");
    copy_button(out, "code", Label::CopyCode, opts);
    out.raw("</figcaption>\n<pre class=\"ds-code\" tabindex=\"0\"><code class=\"language-json\">");
    for (i, line) in shown.lines().enumerate() {
        code_line(out, i as u64 + 1, line);
        out.raw("\n");
    }
    out.raw("</code></pre>\n</figure>\n");
}

/// The blocks and tail parts of a Markdown text, split where the incremental renderer
/// splits it ([`split_points`]), so both give the same HTML.
pub(crate) fn render_blocks_of(
    text: &str,
    anchor_prefix: &str,
    opts: &RenderOptions,
    out: &mut String,
) {
    let md = opts.markdown(anchor_prefix);
    let mut slugs = Slugs::default();
    let mut from = 0;
    BLOCKS.wrap(out, |out| {
        for p in split_points(text) {
            render_markdown_into(&text[from..p], &md, &mut slugs, out);
            from = p;
        }
    });
    out.raw("\n");
    TAIL.wrap(out, |out| {
        render_markdown_into(&text[from..], &md, &mut slugs, out)
    });
    out.raw("\n");
}

/// The blocks and tail parts of a Markdown text that is still growing, as the
/// incremental renderer shows them: the blocks that ended (split where it splits them
/// as the text grows: complete lines judged, the last one not yet), and the open block
/// as its preview shows it (an unclosed `**` already bold, no half-arrived link
/// target), built as the page builds it from the preview's patches.
pub(crate) fn render_growing_blocks_of(
    text: &str,
    anchor_prefix: &str,
    opts: &RenderOptions,
    out: &mut String,
) {
    let md = opts.markdown(anchor_prefix);
    let mut slugs = Slugs::default();
    let mut scanner = BlockScanner::default();
    let mut points = Vec::new();
    scanner.feed(text, &mut points);
    if scanner.has_reference_definition() {
        // A definition changes links before it: the text streams as one block.
        points.clear();
    }
    let mut from = 0;
    BLOCKS.wrap(out, |out| {
        for p in points {
            render_markdown_into(&text[from..p], &md, &mut slugs, out);
            from = p;
        }
    });
    out.raw("\n");
    let mut tail = PartModel::default();
    Preview::default().feed(&text[from..], &mut tail);
    TAIL.wrap(out, |out| out.push_str(&tail.html()));
    out.raw("\n");
}
