//! `tool_call`: any other tool: its name and a summary of its arguments, the arguments
//! and the result folded below.

use super::super::RenderOptions;
use super::super::escape::Markup;
use super::super::json::push_json_pretty;
use super::super::labels::Label;
use super::super::parts::{Part, Slot};
use super::super::terminal::strip_ansi;
use super::super::tool_call::summarize_arguments;
use super::{duration_span, l, status_badge};
use crate::model::ToolCallMeta;

pub(super) const PARTS: &[Part] = &[Part::Head, Part::Args, Part::Result];

const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "div",
    class: "ds-tool-header",
};

const ARGS: Slot = Slot {
    part: Part::Args,
    tag: "div",
    class: "ds-tool-args-part",
};

const RESULT: Slot = Slot {
    part: Part::Result,
    tag: "div",
    class: "ds-tool-result-part",
};

pub(super) fn render(meta: &ToolCallMeta, opts: &RenderOptions, out: &mut String) {
    for slot in [HEAD, ARGS, RESULT] {
        slot.wrap(out, |out| part(meta, slot.part, opts, out));
        out.raw("\n");
    }
}

pub(super) fn part(m: &ToolCallMeta, part: Part, opts: &RenderOptions, out: &mut String) {
    match part {
        Part::Head => {
            out.raw("<span class=\"ds-tool-name\">")
                .text(&m.tool_name)
                .raw("</span> <span class=\"ds-tool-summary\">")
                .text(&summarize_arguments(&m.arguments))
                .raw("</span> ");
            status_badge(out, m.status(), opts);
            duration_span(out, m.duration_ms, opts);
        }
        Part::Args => {
            out.raw("<details class=\"ds-tool-args\"><summary>")
                .text(l(opts, Label::Arguments))
                .raw("</summary><pre tabindex=\"0\">");
            push_json_pretty(out, &m.arguments);
            out.raw("</pre></details>");
        }
        Part::Result => {
            let Some(result) = &m.result else { return };
            out.raw("<details class=\"ds-tool-result\"><summary>")
                .text(l(opts, Label::Result))
                .raw("</summary><pre tabindex=\"0\">");
            match &result.data {
                serde_json::Value::String(s) => {
                    out.text(&strip_ansi(s));
                }
                other => push_json_pretty(out, other),
            }
            out.raw("</pre></details>");
        }
        _ => {}
    }
}
