//! `error`: what failed, where, and the details; a warning (`AGENT_WARNING`) is one
//! line.

use super::l;
use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::Label;
use docstream_model::{Document, ErrorMeta};

/// The code of a warning: the run went on, so it is a line in the response, not an
/// error.
const WARNING: &str = "AGENT_WARNING";

pub(super) fn render(doc: &Document, meta: &ErrorMeta, opts: &RenderOptions, out: &mut String) {
    if meta.error_code == WARNING {
        out.raw("<div class=\"ds-warning-line\" role=\"note\"><span class=\"ds-warning-label\">")
            .text(l(opts, Label::Warning))
            .raw("</span> ")
            .text(doc.text())
            .raw("</div>\n");
        return;
    }
    out.raw("<div class=\"ds-error-header\"><span class=\"ds-error-code\">")
        .text(&meta.error_code)
        .raw("</span> <span class=\"ds-error-source\">")
        .text(l(opts, Label::Source))
        .raw(" ")
        .text(&meta.source)
        .raw("</span></div>\n<div class=\"ds-error-message\">")
        .text(doc.text())
        .raw("</div>\n");
    if !meta.details.is_empty() {
        out.raw("<pre class=\"ds-error-details\" tabindex=\"0\">")
            .text(&meta.details)
            .raw("</pre>\n");
    }
}
