//! A terminal run: the command and its output in one `console` block (`$ ` before the
//! command, as a shell shows it; a long output folded below it), then its exit code,
//! time and folder, and why it did not run where it was refused.

use super::words::{duration_text, status_word};
use super::writer::Md;
use crate::document::FOLD_LINES;
use crate::labels::Label;
use crate::lines::line_count;
use crate::terminal::strip_ansi;
use docstream_model::{Document, TerminalMeta};

pub(super) fn terminal(md: &mut Md<'_>, _doc: &Document, m: &TerminalMeta) {
    let output = strip_ansi(&m.output);
    let lines = line_count(&output) as usize;
    let short = lines <= FOLD_LINES + FOLD_LINES / 2;
    let mut block = format!("$ {}\n", m.command.trim_end());
    if short {
        block.push_str(&output);
    }
    md.block("console", &block);
    if !short {
        let summary = format!("{} ({lines} {})", md.l(Label::Output), md.l(Label::Lines));
        md.fold(&summary, |md| {
            md.block("text", &output);
        });
    }
    let mut facts = Vec::new();
    if let Some(code) = m.exit_code {
        facts.push(format!("{} {code}", md.l(Label::ExitCodeShort)));
    }
    if let Some(ms) = m.duration_ms {
        facts.push(duration_text(ms));
    }
    if m.is_background == Some(true) {
        facts.push(md.l(Label::InBackground).to_owned());
    }
    if let Some(status) = m.status.filter(|s| s.refused()) {
        facts.push(status_word(md, status).to_owned());
    }
    if !facts.is_empty() || m.working_directory.is_some() {
        md.raw("_").inline(&facts.join(" · "));
        if let Some(cwd) = &m.working_directory {
            if !facts.is_empty() {
                md.raw(" · ");
            }
            md.inline(&format!("{} {cwd}", md.l(Label::InWhere)));
        }
        md.raw("_\n\n");
    }
    if let Some(why) = &m.reason {
        let reason = md.l(Label::Reason);
        md.quote(reason, why);
    }
}
