//! A file read (`tool_call` of a read tool): the text as numbered code in its language,
//! numbered from the first line read; long files fold after the first lines.

use super::{FOLD_LINES, code_line, language_class, show_all};
use crate::RenderOptions;
use crate::escape::Markup;
use docstream_model::ReadView;

pub(super) fn render(r: &ReadView, text: &str, opts: &RenderOptions, out: &mut String) {
    if text.is_empty() {
        return; // a tool that gives no text back (Gemini CLI's summary) shows none
    }
    let lines: Vec<&str> = text.lines().collect();
    let pre = |out: &mut String, from: usize, lines: &[&str]| {
        out.raw("<pre class=\"ds-code ds-read\" tabindex=\"0\"><code");
        language_class(out, &r.language);
        out.raw(">");
        for (i, line) in lines.iter().enumerate() {
            code_line(out, r.start.saturating_add((from + i) as u64), line);
            out.raw("\n");
        }
        out.raw("</code></pre>");
    };
    if lines.len() <= FOLD_LINES + FOLD_LINES / 2 {
        pre(out, 0, &lines);
        return;
    }
    pre(out, 0, &lines[..FOLD_LINES]);
    show_all(out, lines.len() as u64, opts);
    pre(out, FOLD_LINES, &lines[FOLD_LINES..]);
    out.raw("</details>");
}
