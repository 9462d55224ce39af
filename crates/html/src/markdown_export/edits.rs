//! A file edit: what was done to which file ("Edited src/main.rs (+3 −1)"), then the
//! change as a `diff` block with the path in its `---`/`+++` lines, as `git diff`
//! writes it; why it failed or was refused, quoted.

use super::writer::Md;
use crate::diff::{LineKind, diff_view};
use crate::labels::Label;
use crate::progress::headline;
use docstream_model::{Document, FileEditMeta, FileOperation};

pub(super) fn file_edit(md: &mut Md<'_>, doc: &Document, m: &FileEditMeta) {
    if let Some(h) = headline(doc, md.opts.locale) {
        let mut text = h.summary.clone();
        if let Some(o) = &h.outcome {
            text.push_str(" — ");
            text.push_str(o);
        }
        md.line(h.label, &text);
    }
    let view = diff_view(m, doc.content.as_deref());
    if !view.hunks.is_empty() {
        let path = view.path.as_str();
        let new_path = view.new_path.as_deref().unwrap_or(path);
        let mut diff = String::new();
        let (old, new) = match view.operation {
            FileOperation::Create => ("/dev/null".to_owned(), format!("b/{new_path}")),
            FileOperation::Delete => (format!("a/{path}"), "/dev/null".to_owned()),
            FileOperation::Edit | FileOperation::Rename => {
                (format!("a/{path}"), format!("b/{new_path}"))
            }
        };
        // Paths are one line each, so they cannot end the header early.
        let one = |s: &str| super::escape::one_line(s).into_owned();
        diff.push_str(&format!("--- {}\n+++ {}\n", one(&old), one(&new)));
        for h in &view.hunks {
            diff.push_str(&format!(
                "@@ -{},{} +{},{} @@\n",
                h.old_start, h.old_len, h.new_start, h.new_len
            ));
            for line in &h.lines {
                diff.push(match line.kind {
                    LineKind::Context => ' ',
                    LineKind::Added => '+',
                    LineKind::Removed => '-',
                });
                diff.push_str(&line.text);
                diff.push('\n');
            }
        }
        md.block("diff", &diff);
    }
    match (&m.error, m.status) {
        (Some(why), Some(s)) if s.refused() => {
            let reason = md.l(Label::Reason);
            md.quote(reason, why);
        }
        (Some(err), _) => {
            let name = md.l(Label::Error);
            md.quote(name, err);
        }
        (None, _) => {}
    }
}
