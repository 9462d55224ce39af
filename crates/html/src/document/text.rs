//! `text`: Markdown prose as finished blocks and an unfinished tail (plain text as one
//! preformatted block).

use crate::RenderOptions;
use crate::blocks::split_points;
use crate::escape::Markup;
use crate::markdown::{MarkdownOptions, Slugs, render_markdown_into};
use crate::parts::{Part, Slot};
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

pub(super) fn render(doc: &Document, meta: &TextMeta, opts: &RenderOptions, out: &mut String) {
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
    render_blocks_of(doc.text(), &doc.id, opts, out);
}

/// The blocks and tail parts of a Markdown text, split where the incremental renderer
/// splits it ([`split_points`]), so both give the same HTML.
pub(crate) fn render_blocks_of(
    text: &str,
    anchor_prefix: &str,
    opts: &RenderOptions,
    out: &mut String,
) {
    let md = MarkdownOptions {
        image_origins_allowed: &opts.image_origins_allowed,
        anchor_prefix,
        locale: opts.locale,
    };
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
