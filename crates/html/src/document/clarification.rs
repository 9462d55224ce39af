//! `clarification`: questions for the user, each option a button that reports the
//! choice to the page.

use crate::escape::Markup;
use docstream_model::ClarificationMeta;

pub(super) fn render(meta: &ClarificationMeta, out: &mut String) {
    for q in &meta.questions {
        out.raw("<fieldset class=\"ds-question\" data-question-id=\"")
            .text(&q.id)
            .raw("\"><legend>")
            .text(&q.text)
            .raw("</legend>\n");
        for o in &q.options {
            out.raw("<button type=\"button\" class=\"ds-option\" data-question-id=\"")
                .text(&q.id)
                .raw("\" data-option-id=\"")
                .text(&o.id)
                .raw("\">")
                .text(&o.label)
                .raw("</button>\n");
        }
        out.raw("</fieldset>\n");
    }
}
