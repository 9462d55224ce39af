//! `terminal_command`: the command, where it ran and how it ended, and its output (long
//! output folded in the middle).

use super::{copy_button, count, duration_span, l, reason, status_badge};
use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::Label;
use crate::parts::{Part, Slot};
use crate::terminal::{head_tail, parse_ansi};
use docstream_model::TerminalMeta;

pub(super) const PARTS: &[Part] = &[Part::Head, Part::Body];

const HEAD: Slot = Slot {
    part: Part::Head,
    tag: "div",
    class: "ds-term-header",
};

const BODY: Slot = Slot {
    part: Part::Body,
    tag: "div",
    class: "ds-term-body",
};

pub(super) fn render(meta: &TerminalMeta, opts: &RenderOptions, out: &mut String) {
    HEAD.wrap(out, |out| part(meta, Part::Head, opts, out));
    out.raw("\n");
    BODY.wrap(out, |out| part(meta, Part::Body, opts, out));
    out.raw("\n");
}

pub(super) fn part(meta: &TerminalMeta, part: Part, opts: &RenderOptions, out: &mut String) {
    match part {
        Part::Head => head(meta, opts, out),
        Part::Body => body(meta, opts, out),
        _ => {}
    }
}

fn head(m: &TerminalMeta, opts: &RenderOptions, out: &mut String) {
    out.raw("<code class=\"ds-command\">$ ")
        .text(&m.command)
        .raw("</code>");
    if !m.command.is_empty() {
        copy_button(out, "command", Label::CopyCommand, opts);
    }
    if let Some(cwd) = &m.working_directory {
        out.raw(" <span class=\"ds-cwd\">")
            .text(l(opts, Label::WorkingDirectory))
            .raw(" ")
            .text(cwd)
            .raw("</span>");
    }
    // A command refused or stopped says so, whatever exit code it was given.
    let refused = m.status.filter(|s| s.refused());
    if let Some(status) = refused {
        out.raw(" ");
        status_badge(out, status, opts);
    }
    if let Some(code) = m.exit_code {
        let class = if code == 0 { "success" } else { "error" };
        out.raw(" <span class=\"ds-exit ds-status-")
            .raw(class)
            .raw("\">")
            .text(l(opts, Label::ExitCode))
            .raw(" ");
        if code < 0 {
            out.raw("-");
        }
        out.num(code.unsigned_abs()).raw("</span>");
    } else if let Some(status) = m.status.filter(|_| refused.is_none()) {
        out.raw(" ");
        status_badge(out, status, opts);
    }
    duration_span(out, m.duration_ms, opts);
}

fn body(m: &TerminalMeta, opts: &RenderOptions, out: &mut String) {
    if let Some(why) = &m.reason {
        reason(out, why, opts);
        out.raw("\n");
    }
    let styled = parse_ansi(&m.output);
    let output: &str = &styled.text;
    if output.is_empty() {
        return;
    }
    copy_button(out, "output", Label::CopyOutput, opts);
    out.raw("\n");
    match head_tail(output) {
        None => {
            out.raw("<pre class=\"ds-output\" tabindex=\"0\">");
            styled.push_html(0..output.len(), out);
            out.raw("</pre>\n");
        }
        Some((head, middle, _)) => {
            // The colours hold across the fold: each part opens the style in force.
            let (a, b) = (head.len(), head.len() + middle.len());
            out.raw("<pre class=\"ds-output\" tabindex=\"0\">");
            styled.push_html(0..a, out);
            out.raw("</pre>\n<details class=\"ds-output-more\"><summary>")
                .text(l(opts, Label::OutputTruncated))
                .raw(" (");
            let n = memchr::memchr_iter(b'\n', middle.as_bytes()).count() as u64;
            count(out, n, Label::Line, Label::Lines, opts);
            out.raw(")</summary><pre class=\"ds-output\" tabindex=\"0\">");
            styled.push_html(a..b, out);
            out.raw("</pre></details>\n<pre class=\"ds-output\" tabindex=\"0\">");
            styled.push_html(b..output.len(), out);
            out.raw("</pre>\n");
        }
    }
}
