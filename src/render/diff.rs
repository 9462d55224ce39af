//! The diff view of a `file_edit`: a serialisable view object and its HTML.
//!
//! The line diff and the changed words inside changed lines come from the `similar`
//! crate. No clock is read: diffs are computed without deadlines.

use serde::Serialize;
use similar::{ChangeTag, TextDiff};

use super::escape::{escape, push_escaped};
use super::labels::{Label, Locale, label};
use crate::model::{FileEditMeta, FileOperation};

/// Unchanged lines kept around each change; longer unchanged runs are folded.
pub const CONTEXT_LINES: usize = 3;

/// The kind of a diff line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum LineKind {
    /// Unchanged.
    Context,
    /// Added.
    Added,
    /// Removed.
    Removed,
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    /// Added, removed or unchanged.
    pub kind: LineKind,
    /// Line number in the old text (absent for added lines).
    pub old_line: Option<u64>,
    /// Line number in the new text (absent for removed lines).
    pub new_line: Option<u64>,
    /// The line, without its line break.
    pub text: String,
    /// Byte ranges of `text` that changed (words marked inside changed lines).
    pub changed: Vec<(usize, usize)>,
}

/// A run of changed lines with their context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Hunk {
    /// First old line of the hunk.
    pub old_start: u64,
    /// Old lines in the hunk.
    pub old_len: u64,
    /// First new line of the hunk.
    pub new_start: u64,
    /// New lines in the hunk.
    pub new_len: u64,
    /// Unchanged lines folded away before this hunk.
    pub folded_before: u64,
    /// The lines.
    pub lines: Vec<DiffLine>,
}

/// The diff view of a file edit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct DiffView {
    /// Path of the file.
    pub path: String,
    /// The new path of a rename.
    pub new_path: Option<String>,
    /// What was done to the file.
    pub operation: FileOperation,
    /// Lines added.
    pub added: u64,
    /// Lines removed.
    pub removed: u64,
    /// The hunks.
    pub hunks: Vec<Hunk>,
    /// Unchanged lines folded away after the last hunk.
    pub folded_after: u64,
}

fn strip_eol(s: &str) -> &str {
    s.strip_suffix('\n')
        .map(|s| s.strip_suffix('\r').unwrap_or(s))
        .unwrap_or(s)
}

/// Diffs two texts into hunks; line numbers start at `start_line`.
///
/// A missing final line break is not a change: both texts are compared as if they
/// ended in one.
pub fn diff_texts(old: &str, new: &str, start_line: u64) -> (Vec<Hunk>, u64, u64, u64) {
    let terminate = |s: &str| {
        if s.is_empty() || s.ends_with('\n') {
            s.to_owned()
        } else {
            format!("{s}\n")
        }
    };
    let (old, new) = (terminate(old), terminate(new));
    let diff = TextDiff::configure().diff_lines(old.as_str(), new.as_str());
    let groups = diff.grouped_ops(CONTEXT_LINES);
    let mut hunks = Vec::new();
    let (mut added, mut removed) = (0, 0);
    let mut last_old_end = 0usize;
    let old_total = diff.old_len();
    for group in &groups {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let mut lines = Vec::new();
        for op in group {
            for change in diff.iter_inline_changes_deadline(op, None) {
                let kind = match change.tag() {
                    ChangeTag::Equal => LineKind::Context,
                    ChangeTag::Insert => {
                        added += 1;
                        LineKind::Added
                    }
                    ChangeTag::Delete => {
                        removed += 1;
                        LineKind::Removed
                    }
                };
                let mut text = String::new();
                let mut changed = Vec::new();
                let values = change.values();
                let any_unemphasised = values.iter().any(|(e, _)| !*e);
                for (emph, part) in values {
                    let start = text.len();
                    text.push_str(part);
                    // Mark words only when part of the line stayed (a wholly new line is
                    // marked by its kind already).
                    if *emph && any_unemphasised {
                        let end = strip_eol(&text).len().max(start);
                        if end > start {
                            changed.push((start, end));
                        }
                    }
                }
                let text = strip_eol(&text).to_owned();
                lines.push(DiffLine {
                    kind,
                    old_line: change.old_index().map(|i| i as u64 + start_line),
                    new_line: change.new_index().map(|i| i as u64 + start_line),
                    text,
                    changed,
                });
            }
        }
        hunks.push(Hunk {
            old_start: old_range.start as u64 + start_line,
            old_len: old_range.len() as u64,
            new_start: new_range.start as u64 + start_line,
            new_len: new_range.len() as u64,
            folded_before: (old_range.start - last_old_end) as u64,
            lines,
        });
        last_old_end = old_range.end;
    }
    let folded_after = if groups.is_empty() {
        0
    } else {
        (old_total - last_old_end) as u64
    };
    (hunks, added, removed, folded_after)
}

/// Reads a unified diff (`@@ -a,b +c,d @@` hunks) into hunks.
pub fn parse_unified(text: &str) -> (Vec<Hunk>, u64, u64) {
    let mut hunks: Vec<Hunk> = Vec::new();
    let (mut added, mut removed) = (0, 0);
    let (mut old_no, mut new_no) = (1u64, 1u64);
    for raw in text.lines() {
        if let Some(rest) = raw.strip_prefix("@@") {
            let mut nums = rest.split_whitespace();
            let parse = |s: Option<&str>, sign: char| -> (u64, u64) {
                let s = s.and_then(|s| s.strip_prefix(sign)).unwrap_or("1");
                let mut it = s.split(',');
                let a = it.next().and_then(|n| n.parse().ok()).unwrap_or(1);
                let b = it.next().and_then(|n| n.parse().ok()).unwrap_or(1);
                (a, b)
            };
            let (os, ol) = parse(nums.next(), '-');
            let (ns, nl) = parse(nums.next(), '+');
            old_no = os;
            new_no = ns;
            hunks.push(Hunk {
                old_start: os,
                old_len: ol,
                new_start: ns,
                new_len: nl,
                folded_before: 0,
                lines: Vec::new(),
            });
            continue;
        }
        if raw.starts_with("---") || raw.starts_with("+++") || raw.starts_with('\\') {
            continue;
        }
        if hunks.is_empty() {
            if raw.starts_with("diff ") || raw.starts_with("index ") {
                continue;
            }
            hunks.push(Hunk {
                old_start: 1,
                old_len: 0,
                new_start: 1,
                new_len: 0,
                folded_before: 0,
                lines: Vec::new(),
            });
        }
        let hunk = hunks.last_mut().expect("a hunk was pushed");
        let (kind, body) = match raw.chars().next() {
            Some('+') => (LineKind::Added, &raw[1..]),
            Some('-') => (LineKind::Removed, &raw[1..]),
            Some(' ') => (LineKind::Context, &raw[1..]),
            _ => (LineKind::Context, raw),
        };
        let (o, n) = match kind {
            LineKind::Added => {
                added += 1;
                new_no += 1;
                (None, Some(new_no - 1))
            }
            LineKind::Removed => {
                removed += 1;
                old_no += 1;
                (Some(old_no - 1), None)
            }
            LineKind::Context => {
                old_no += 1;
                new_no += 1;
                (Some(old_no - 1), Some(new_no - 1))
            }
        };
        hunk.lines.push(DiffLine {
            kind,
            old_line: o,
            new_line: n,
            text: body.to_owned(),
            changed: Vec::new(),
        });
    }
    (hunks, added, removed)
}

/// Builds the diff view of a file edit; `content` is the document's content (the new
/// file of a `create`, the removed one of a `delete`).
pub fn diff_view(meta: &FileEditMeta, content: Option<&str>) -> DiffView {
    let content = content.unwrap_or("");
    let (hunks, added, removed, folded_after) =
        match (meta.operation, &meta.diff, &meta.diff_string) {
            (FileOperation::Create, None, None) => diff_texts("", content, 1),
            (FileOperation::Delete, None, None) => diff_texts(content, "", 1),
            (_, Some(d), _) => diff_texts(&d.old_string, &d.new_string, d.start_line.max(1)),
            (_, None, Some(u)) => {
                let (h, a, r) = parse_unified(u);
                (h, a, r, 0)
            }
            (_, None, None) => (Vec::new(), 0, 0, 0),
        };
    DiffView {
        path: meta.file_path.clone(),
        new_path: meta.new_path.clone(),
        operation: meta.operation,
        added,
        removed,
        hunks,
        folded_after,
    }
}

fn push_line_text(out: &mut String, line: &DiffLine) {
    let mut pos = 0;
    for &(s, e) in &line.changed {
        let (s, e) = (s.min(line.text.len()), e.min(line.text.len()));
        if s < pos || !line.text.is_char_boundary(s) || !line.text.is_char_boundary(e) {
            continue;
        }
        push_escaped(out, &line.text[pos..s]);
        out.push_str("<mark class=\"ds-diff-word\">");
        push_escaped(out, &line.text[s..e]);
        out.push_str("</mark>");
        pos = e;
    }
    push_escaped(out, &line.text[pos..]);
}

fn num(n: Option<u64>) -> String {
    n.map_or_else(String::new, |n| n.to_string())
}

fn kind_class(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Context => "ds-diff-context",
        LineKind::Added => "ds-diff-added",
        LineKind::Removed => "ds-diff-removed",
    }
}

fn fold_row(out: &mut String, n: u64, cols: usize, locale: Locale) {
    if n > 0 {
        out.push_str(&format!(
            "<tr class=\"ds-diff-fold\"><td colspan=\"{cols}\">⋯ {n} {}</td></tr>\n",
            label(locale, Label::UnchangedLines)
        ));
    }
}

/// The unified view of the hunks, as an HTML table (nothing when there are no hunks,
/// as for a rename that changed no line).
pub fn unified_html(view: &DiffView, locale: Locale) -> String {
    if view.hunks.is_empty() {
        return String::new();
    }
    let mut out = String::from("<table class=\"ds-diff-unified\">\n");
    for hunk in &view.hunks {
        fold_row(&mut out, hunk.folded_before, 4, locale);
        for line in &hunk.lines {
            let sign = match line.kind {
                LineKind::Context => " ",
                LineKind::Added => "+",
                LineKind::Removed => "−",
            };
            out.push_str(&format!(
                "<tr class=\"{}\"><td class=\"ds-ln\">{}</td><td class=\"ds-ln\">{}</td><td class=\"ds-diff-sign\">{sign}</td><td class=\"ds-diff-text\">",
                kind_class(line.kind),
                num(line.old_line),
                num(line.new_line)
            ));
            push_line_text(&mut out, line);
            out.push_str("</td></tr>\n");
        }
    }
    fold_row(&mut out, view.folded_after, 4, locale);
    out.push_str("</table>\n");
    out
}

fn side_cell(out: &mut String, line: Option<&DiffLine>, old: bool) {
    match line {
        Some(l) => {
            out.push_str(&format!(
                "<td class=\"ds-ln\">{}</td><td class=\"ds-diff-text {}\">",
                num(if old { l.old_line } else { l.new_line }),
                kind_class(l.kind)
            ));
            push_line_text(out, l);
            out.push_str("</td>");
        }
        None => {
            out.push_str("<td class=\"ds-ln\"></td><td class=\"ds-diff-text ds-diff-empty\"></td>")
        }
    }
}

/// The side-by-side view of the same hunks, as an HTML table (nothing when there are
/// no hunks).
pub fn side_by_side_html(view: &DiffView, locale: Locale) -> String {
    if view.hunks.is_empty() {
        return String::new();
    }
    let mut out = String::from("<table class=\"ds-diff-split\">\n");
    for hunk in &view.hunks {
        fold_row(&mut out, hunk.folded_before, 4, locale);
        let mut i = 0;
        let lines = &hunk.lines;
        while i < lines.len() {
            if lines[i].kind == LineKind::Context {
                out.push_str("<tr>");
                side_cell(&mut out, Some(&lines[i]), true);
                side_cell(&mut out, Some(&lines[i]), false);
                out.push_str("</tr>\n");
                i += 1;
                continue;
            }
            let mut removed = Vec::new();
            let mut added = Vec::new();
            while i < lines.len() && lines[i].kind != LineKind::Context {
                if lines[i].kind == LineKind::Removed {
                    removed.push(&lines[i]);
                } else {
                    added.push(&lines[i]);
                }
                i += 1;
            }
            for k in 0..removed.len().max(added.len()) {
                out.push_str("<tr>");
                side_cell(&mut out, removed.get(k).copied(), true);
                side_cell(&mut out, added.get(k).copied(), false);
                out.push_str("</tr>\n");
            }
        }
    }
    fold_row(&mut out, view.folded_after, 4, locale);
    out.push_str("</table>\n");
    out
}

/// The header of the diff view: path (old → new for a rename), operation, counts.
pub fn header_html(view: &DiffView, locale: Locale) -> String {
    let mut out = String::from("<div class=\"ds-diff-header\"><span class=\"ds-path\">");
    push_escaped(&mut out, &view.path);
    out.push_str("</span>");
    if let Some(new_path) = &view.new_path {
        out.push_str(" → <span class=\"ds-path ds-path-new\">");
        push_escaped(&mut out, new_path);
        out.push_str("</span>");
    }
    let op = match view.operation {
        FileOperation::Create => Some(Label::Created),
        FileOperation::Delete => Some(Label::Deleted),
        FileOperation::Rename => Some(Label::Renamed),
        FileOperation::Edit => None,
    };
    if let Some(op) = op {
        out.push_str(&format!(
            " <span class=\"ds-diff-op\">{}</span>",
            escape(label(locale, op))
        ));
    }
    out.push_str(&format!(
        " <span class=\"ds-diff-count-added\">+{}</span> <span class=\"ds-diff-count-removed\">−{}</span></div>\n",
        view.added, view.removed
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_from_start_line_and_marks_words() {
        let (hunks, a, r, _) = diff_texts("let x = 1;\nkeep\n", "let x = 2;\nkeep\n", 10);
        assert_eq!((a, r), (1, 1));
        let lines = &hunks[0].lines;
        assert_eq!(lines[0].old_line, Some(10));
        assert_eq!(lines[1].new_line, Some(10));
        assert!(!lines[0].changed.is_empty());
        assert_eq!(lines[2].kind, LineKind::Context);
    }

    #[test]
    fn folds_long_unchanged_runs() {
        let old: String = (0..20).map(|i| format!("{i}\n")).collect();
        let new = old.replace("10\n", "ten\n");
        let (hunks, _, _, after) = diff_texts(&old, &new, 1);
        assert_eq!(hunks[0].folded_before, 7);
        assert_eq!(after, 6);
    }

    #[test]
    fn reads_unified_diffs() {
        let (h, a, r) = parse_unified("--- a\n+++ b\n@@ -3,2 +3,2 @@\n ctx\n-old\n+new\n");
        assert_eq!((a, r), (1, 1));
        assert_eq!(h[0].lines[1].old_line, Some(4));
        assert_eq!(h[0].lines[2].new_line, Some(4));
    }
}
