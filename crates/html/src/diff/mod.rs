//! The diff view of a `file_edit`: a serialisable view object and its HTML.
//!
//! The line diff and the changed words inside changed lines come from `imara-diff`
//! (the diff of gitoxide and helix): Myers for lines, with git's indent heuristic
//! choosing where an ambiguous change sits, as `git diff` shows it, and Histogram (a
//! patience diff) for the words of replaced lines. Both run on interned tokens, so each
//! algorithm is compiled once. No clock is read: no deadlines.

use std::ops::Range;

use imara_diff::{Algorithm, Diff, InternedInput};
use serde::Serialize;

use super::escape::Markup;
use super::labels::{Label, Locale, label};
use docstream_model::{FileEditMeta, FileOperation};

mod prune_cost;

/// Unchanged lines kept around each change; longer unchanged runs are folded.
pub(crate) const CONTEXT_LINES: usize = 3;

/// The kind of a diff line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
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
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
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
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
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
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
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

/// Below this share of unchanged words (runs of whitespace count too), a replaced run of
/// lines gets no word marks: the lines are too different for marks to help.
const MIN_WORD_RATIO: f32 = 0.5;

/// Above this many words and runs of whitespace, old and new together, a replaced run
/// of lines gets no word marks: about 250 lines of code, more than marks help to read,
/// and the word diff's cost (imara-diff's pruning scan, see [`prune_cost`]) stays within
/// a thousand steps a word.
const MAX_WORD_TOKENS: usize = 4096;

/// A changed run: the old tokens `old` became the new tokens `new` (either may be empty).
type Change = (Range<usize>, Range<usize>);

/// The changed runs between two token sequences, in order: lines by Myers, placed by the
/// indent heuristic; words by Histogram. Lines whose diff would cost more than their
/// length (see [`prune_cost`]) are one replaced run between their common start and end.
fn changes(old: &[&str], new: &[&str], lines: bool) -> Vec<Change> {
    let mut input = InternedInput::default();
    input.update_before(old.iter().copied());
    input.update_after(new.iter().copied());
    if lines {
        let (o, n) = prune_cost::middle(&input.before, &input.after);
        let (before, after) = (&input.before[o.clone()], &input.after[n.clone()]);
        if prune_cost::costs_too_much(before, after, input.interner.num_tokens()) {
            return vec![(o, n)];
        }
    }
    let mut diff = Diff::compute(
        if lines {
            Algorithm::Myers
        } else {
            Algorithm::Histogram
        },
        &input,
    );
    if lines {
        diff.postprocess_lines(&input);
    } else {
        diff.postprocess_no_heuristic(&input);
    }
    let range = |r: Range<u32>| r.start as usize..r.end as usize;
    diff.hunks()
        .map(|h| (range(h.before), range(h.after)))
        .collect()
}

/// A piece of a hunk: `len` unchanged lines from `old` / `new`, or a change.
enum Piece {
    Same { old: usize, new: usize, len: usize },
    Changed(Change),
}

/// The changes with `context` unchanged lines around each, as hunks: changes closer
/// than twice the context share a hunk; longer unchanged runs are folded.
fn hunks_of(changes: &[Change], old_len: usize, context: usize) -> Vec<Vec<Piece>> {
    let mut hunks = Vec::new();
    let mut hunk = Vec::new();
    // Where the last change ended.
    let (mut old_at, mut new_at) = (0, 0);
    for (old, new) in changes {
        let same = old.start - old_at;
        if hunk.is_empty() || same > 2 * context {
            if !hunk.is_empty() {
                hunk.push(Piece::Same {
                    old: old_at,
                    new: new_at,
                    len: context,
                });
                hunks.push(std::mem::take(&mut hunk));
            }
            let len = same.min(context);
            hunk.push(Piece::Same {
                old: old.start - len,
                new: new.start - len,
                len,
            });
        } else {
            hunk.push(Piece::Same {
                old: old_at,
                new: new_at,
                len: same,
            });
        }
        hunk.push(Piece::Changed((old.clone(), new.clone())));
        (old_at, new_at) = (old.end, new.end);
    }
    if !hunk.is_empty() {
        let len = (old_len - old_at).min(context);
        hunk.push(Piece::Same {
            old: old_at,
            new: new_at,
            len,
        });
        hunks.push(hunk);
    }
    hunks
}

/// Splits a line into runs of whitespace and runs of anything else (byte ranges).
fn words(line: &str, offset: usize, out: &mut Vec<Range<usize>>) {
    let mut start = 0;
    let mut space = None;
    for (i, c) in line.char_indices() {
        let is_space = c.is_whitespace();
        if space.is_some_and(|s| s != is_space) {
            out.push(offset + start..offset + i);
            start = i;
        }
        space = Some(is_space);
    }
    if start < line.len() {
        out.push(offset + start..offset + line.len());
    }
}

/// Changed byte ranges of one line.
type LineMarks = Vec<(usize, usize)>;

/// The changed byte ranges of each line of a replaced run, old side and new side: words
/// marked only when the lines are alike enough and only in a line part of which stayed.
fn word_marks(old: &[&str], new: &[&str]) -> (Vec<LineMarks>, Vec<LineMarks>) {
    let side = |lines: &[&str]| {
        let text: String = lines.concat();
        let (mut tokens, mut line_of) = (Vec::new(), Vec::new());
        let mut offset = 0;
        for (n, line) in lines.iter().enumerate() {
            let before = tokens.len();
            words(line, offset, &mut tokens);
            line_of.extend(std::iter::repeat_n(n, tokens.len() - before));
            offset += line.len();
        }
        (text, tokens, line_of)
    };
    let (old_text, old_tokens, old_line) = side(old);
    let (new_text, new_tokens, new_line) = side(new);
    if old_tokens.len() + new_tokens.len() > MAX_WORD_TOKENS {
        return (vec![Vec::new(); old.len()], vec![Vec::new(); new.len()]);
    }
    let old_words: Vec<&str> = old_tokens.iter().map(|r| &old_text[r.clone()]).collect();
    let new_words: Vec<&str> = new_tokens.iter().map(|r| &new_text[r.clone()]).collect();
    let mut old_changed = vec![false; old_words.len()];
    let mut new_changed = vec![false; new_words.len()];
    for (o, n) in changes(&old_words, &new_words, false) {
        old_changed[o].fill(true);
        new_changed[n].fill(true);
    }
    // How alike the lines are: the share of words (and runs of whitespace) that stayed.
    let stayed = old_changed.iter().filter(|&&changed| !changed).count();
    let words = old_words.len() + new_words.len();
    if words > 0 && ((2 * stayed) as f32) < MIN_WORD_RATIO * words as f32 {
        old_changed.fill(false);
        new_changed.fill(false);
    }
    let marks = |lines: &[&str], tokens: &[Range<usize>], line_of: &[usize], changed: &[bool]| {
        let mut starts = Vec::with_capacity(lines.len());
        let mut at = 0;
        for line in lines {
            starts.push(at);
            at += line.len();
        }
        let mut out = vec![Vec::new(); lines.len()];
        let mut stayed = vec![false; lines.len()];
        for (i, &n) in line_of.iter().enumerate() {
            stayed[n] |= !changed[i];
        }
        for (i, range) in tokens.iter().enumerate() {
            let n = line_of[i];
            if !changed[i] || !stayed[n] {
                continue;
            }
            let end_of_text = strip_eol(lines[n]).len();
            let (start, end) = (
                range.start - starts[n],
                (range.end - starts[n]).min(end_of_text),
            );
            if end <= start {
                continue;
            }
            match out[n].last_mut() {
                Some((_, last_end)) if *last_end == start => *last_end = end,
                _ => out[n].push((start, end)),
            }
        }
        out
    };
    (
        marks(old, &old_tokens, &old_line, &old_changed),
        marks(new, &new_tokens, &new_line, &new_changed),
    )
}

/// Diffs two texts into hunks; line numbers start at `start_line`.
///
/// A missing final line break is not a change: both texts are compared as if they
/// ended in one.
pub(crate) fn diff_texts(old: &str, new: &str, start_line: u64) -> (Vec<Hunk>, u64, u64, u64) {
    let terminate = |s: &str| {
        if s.is_empty() || s.ends_with('\n') {
            s.to_owned()
        } else {
            format!("{s}\n")
        }
    };
    let (old, new) = (terminate(old), terminate(new));
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let hunks_of_lines = hunks_of(
        &changes(&old_lines, &new_lines, true),
        old_lines.len(),
        CONTEXT_LINES,
    );
    let mut hunks = Vec::new();
    let (mut added, mut removed) = (0, 0);
    let mut last_old_end = 0usize;
    let line =
        |kind, old_index: Option<usize>, new_index: Option<usize>, text: &str, changed| DiffLine {
            kind,
            old_line: old_index.map(|i| start_line.saturating_add(i as u64)),
            new_line: new_index.map(|i| start_line.saturating_add(i as u64)),
            text: strip_eol(text).to_owned(),
            changed,
        };
    for pieces in &hunks_of_lines {
        let span = |piece: &Piece| match piece {
            Piece::Same { old, new, len } => (*old..old + len, *new..new + len),
            Piece::Changed((o, n)) => (o.clone(), n.clone()),
        };
        let (Some(first), Some(last)) = (pieces.first().map(span), pieces.last().map(span)) else {
            continue;
        };
        let old_range = first.0.start..last.0.end;
        let new_range = first.1.start..last.1.end;
        let mut lines = Vec::new();
        for piece in pieces {
            let (o, n) = match piece {
                Piece::Same { old, new, len } => {
                    for k in 0..*len {
                        lines.push(line(
                            LineKind::Context,
                            Some(old + k),
                            Some(new + k),
                            old_lines[old + k],
                            Vec::new(),
                        ));
                    }
                    continue;
                }
                Piece::Changed(change) => change.clone(),
            };
            let (old_marks, new_marks) = if !o.is_empty() && !n.is_empty() {
                word_marks(&old_lines[o.clone()], &new_lines[n.clone()])
            } else {
                (vec![Vec::new(); o.len()], vec![Vec::new(); n.len()])
            };
            for (i, marks) in o.zip(old_marks) {
                removed += 1;
                lines.push(line(LineKind::Removed, Some(i), None, old_lines[i], marks));
            }
            for (i, marks) in n.zip(new_marks) {
                added += 1;
                lines.push(line(LineKind::Added, None, Some(i), new_lines[i], marks));
            }
        }
        hunks.push(Hunk {
            old_start: start_line.saturating_add(old_range.start as u64),
            old_len: old_range.len() as u64,
            new_start: start_line.saturating_add(new_range.start as u64),
            new_len: new_range.len() as u64,
            folded_before: (old_range.start - last_old_end) as u64,
            lines,
        });
        last_old_end = old_range.end;
    }
    let folded_after = if hunks_of_lines.is_empty() {
        0
    } else {
        (old_lines.len() - last_old_end) as u64
    };
    (hunks, added, removed, folded_after)
}

/// Reads a unified diff (`@@ -a,b +c,d @@` hunks) into hunks.
pub(crate) fn parse_unified(text: &str) -> (Vec<Hunk>, u64, u64) {
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
pub(crate) fn diff_view(meta: &FileEditMeta, content: Option<&str>) -> DiffView {
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
        out.text(&line.text[pos..s])
            .raw("<mark class=\"ds-diff-word\">")
            .text(&line.text[s..e])
            .raw("</mark>");
        pos = e;
    }
    out.text(&line.text[pos..]);
}

fn line_number(out: &mut String, n: Option<u64>) {
    out.raw("<td class=\"ds-ln\">");
    if let Some(n) = n {
        out.num(n);
    }
    out.raw("</td>");
}

fn kind_class(kind: LineKind) -> &'static str {
    match kind {
        LineKind::Context => "ds-diff-context",
        LineKind::Added => "ds-diff-added",
        LineKind::Removed => "ds-diff-removed",
    }
}

fn fold_row(out: &mut String, n: u64, locale: Locale) {
    if n > 0 {
        out.raw("<tr class=\"ds-diff-fold\"><td colspan=\"4\">⋯ ")
            .num(n)
            .raw(" ")
            .text(label(locale, Label::UnchangedLines))
            .raw("</td></tr>\n");
    }
}

/// Writes the unified view of the hunks as an HTML table (nothing when there are no
/// hunks, as for a rename that changed no line).
pub(crate) fn push_unified(out: &mut String, view: &DiffView, locale: Locale) {
    if view.hunks.is_empty() {
        return;
    }
    out.raw("<table class=\"ds-diff-unified\">\n");
    for hunk in &view.hunks {
        fold_row(out, hunk.folded_before, locale);
        for line in &hunk.lines {
            let sign = match line.kind {
                LineKind::Context => " ",
                LineKind::Added => "+",
                LineKind::Removed => "−",
            };
            out.raw("<tr class=\"")
                .raw(kind_class(line.kind))
                .raw("\">");
            line_number(out, line.old_line);
            line_number(out, line.new_line);
            out.raw("<td class=\"ds-diff-sign\">")
                .raw(sign)
                .raw("</td><td class=\"ds-diff-text\">");
            push_line_text(out, line);
            out.raw("</td></tr>\n");
        }
    }
    fold_row(out, view.folded_after, locale);
    out.raw("</table>\n");
}

fn side_cell(out: &mut String, line: Option<&DiffLine>, old: bool) {
    match line {
        Some(l) => {
            line_number(out, if old { l.old_line } else { l.new_line });
            out.raw("<td class=\"ds-diff-text ")
                .raw(kind_class(l.kind))
                .raw("\">");
            push_line_text(out, l);
            out.raw("</td>");
        }
        None => {
            out.raw("<td class=\"ds-ln\"></td><td class=\"ds-diff-text ds-diff-empty\"></td>");
        }
    }
}

/// Writes the side-by-side view of the same hunks as an HTML table (nothing when there
/// are no hunks).
pub(crate) fn push_side_by_side(out: &mut String, view: &DiffView, locale: Locale) {
    if view.hunks.is_empty() {
        return;
    }
    out.raw("<table class=\"ds-diff-split\">\n");
    for hunk in &view.hunks {
        fold_row(out, hunk.folded_before, locale);
        let mut i = 0;
        let lines = &hunk.lines;
        while i < lines.len() {
            if lines[i].kind == LineKind::Context {
                out.raw("<tr>");
                side_cell(out, Some(&lines[i]), true);
                side_cell(out, Some(&lines[i]), false);
                out.raw("</tr>\n");
                i += 1;
                continue;
            }
            let run = i;
            while i < lines.len() && lines[i].kind != LineKind::Context {
                i += 1;
            }
            let removed: Vec<&DiffLine> = lines[run..i]
                .iter()
                .filter(|l| l.kind == LineKind::Removed)
                .collect();
            let added: Vec<&DiffLine> = lines[run..i]
                .iter()
                .filter(|l| l.kind == LineKind::Added)
                .collect();
            for k in 0..removed.len().max(added.len()) {
                out.raw("<tr>");
                side_cell(out, removed.get(k).copied(), true);
                side_cell(out, added.get(k).copied(), false);
                out.raw("</tr>\n");
            }
        }
    }
    fold_row(out, view.folded_after, locale);
    out.raw("</table>\n");
}

/// Writes the header of the diff view: path (old → new for a rename), operation, counts.
pub(crate) fn push_header(out: &mut String, view: &DiffView, locale: Locale) {
    out.raw("<div class=\"ds-diff-header\"><span class=\"ds-path\">")
        .text(&view.path)
        .raw("</span>");
    if let Some(new_path) = &view.new_path {
        out.raw(" → <span class=\"ds-path ds-path-new\">")
            .text(new_path)
            .raw("</span>");
    }
    let op = match view.operation {
        FileOperation::Create => Some(Label::Created),
        FileOperation::Delete => Some(Label::Deleted),
        FileOperation::Rename => Some(Label::Renamed),
        FileOperation::Edit => None,
    };
    if let Some(op) = op {
        out.raw(" <span class=\"ds-diff-op\">")
            .text(label(locale, op))
            .raw("</span>");
    }
    // No counts where nothing changed (a rejected edit, a plain rename).
    if view.added + view.removed > 0 {
        out.raw(" <span class=\"ds-diff-count-added\">+")
            .num(view.added)
            .raw("</span> <span class=\"ds-diff-count-removed\">−")
            .num(view.removed)
            .raw("</span>");
    }
    out.raw("</div>\n");
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

    /// The lines of each hunk as `git diff` prints them: sign and text.
    fn signed(hunks: &[Hunk]) -> Vec<Vec<String>> {
        let sign = |kind| match kind {
            LineKind::Context => ' ',
            LineKind::Added => '+',
            LineKind::Removed => '-',
        };
        hunks
            .iter()
            .map(|h| {
                h.lines
                    .iter()
                    .map(|l| format!("{}{}", sign(l.kind), l.text))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn an_added_function_is_shown_whole_as_git_shows_it() {
        // As short a diff adds "fn b() {" … "" and "#[test]" after the first
        // "#[test]" (what the minimal Myers of the `similar` crate showed); the indent
        // heuristic places the added lines where a reader sees them, as `git diff` does.
        let old = "x\n\n#[test]\nfn c() {\n    3\n}\n";
        let new = "x\n\n#[test]\nfn b() {\n    2\n}\n\n#[test]\nfn c() {\n    3\n}\n";
        let (hunks, added, removed, _) = diff_texts(old, new, 1);
        assert_eq!((added, removed), (5, 0));
        assert_eq!(
            signed(&hunks),
            [[
                " x",
                " ",
                "+#[test]",
                "+fn b() {",
                "+    2",
                "+}",
                "+",
                " #[test]",
                " fn c() {",
                "     3"
            ]]
        );
    }

    #[test]
    fn changes_close_together_share_a_hunk() {
        let numbers = |changed: &[usize]| -> String {
            (0..30)
                .map(|i| {
                    if changed.contains(&i) {
                        format!("line {i} changed\n")
                    } else {
                        format!("{i}\n")
                    }
                })
                .collect()
        };
        let old = numbers(&[]);
        // Six unchanged lines between two changes: one hunk; seven: two.
        assert_eq!(diff_texts(&old, &numbers(&[5, 12]), 1).0.len(), 1);
        let (hunks, ..) = diff_texts(&old, &numbers(&[5, 13]), 1);
        assert_eq!(hunks.len(), 2);
        assert_eq!((hunks[0].old_start, hunks[0].old_len), (3, 7));
        assert_eq!((hunks[1].old_start, hunks[1].folded_before), (11, 1));
        // A change at the very start and end: context on one side only.
        let (hunks, _, _, after) = diff_texts(&old, &numbers(&[0, 29]), 1);
        assert_eq!(signed(&hunks)[0][..2], ["-0", "+line 0 changed"]);
        assert_eq!(signed(&hunks)[1][3..], ["-29", "+line 29 changed"]);
        assert_eq!(after, 0);
    }

    #[test]
    fn reads_unified_diffs() {
        let (h, a, r) = parse_unified("--- a\n+++ b\n@@ -3,2 +3,2 @@\n ctx\n-old\n+new\n");
        assert_eq!((a, r), (1, 1));
        assert_eq!(h[0].lines[1].old_line, Some(4));
        assert_eq!(h[0].lines[2].new_line, Some(4));
    }

    /// `n` lines of `words` words each, drawn in turn from a few words.
    fn repetitive(n: usize, words: usize, shift: usize) -> String {
        const FEW: [&str; 5] = ["let", "x", "=", "y", "+"];
        (0..n)
            .map(|i| {
                let line: Vec<&str> = (0..words)
                    .map(|w| FEW[(i * 7 + w * 3 + shift) % FEW.len()])
                    .collect();
                line.join(" ") + "\n"
            })
            .collect()
    }

    #[test]
    fn lines_too_costly_to_diff_are_one_replaced_run_between_common_ends() {
        // 20,000 lines drawn from five, rotated: diffing them would cost the square of
        // their number (see prune_cost), so they show as replaced, not as the two lines
        // a minimal diff finds; the lines both sides start and end with stay context.
        let middle_old = repetitive(20_000, 3, 0);
        let middle_new = repetitive(20_000, 3, 1);
        let old = format!("start\n{middle_old}end\n");
        let new = format!("start\n{middle_new}end\n");
        let (hunks, added, removed, _) = diff_texts(&old, &new, 1);
        assert_eq!((added, removed), (20_000, 20_000));
        assert_eq!(hunks.len(), 1);
        let lines = &hunks[0].lines;
        assert_eq!(
            (lines[0].kind, lines[0].text.as_str()),
            (LineKind::Context, "start")
        );
        let last = lines.last().unwrap();
        assert_eq!((last.kind, last.text.as_str()), (LineKind::Context, "end"));
        assert!(lines.iter().all(|l| l.changed.is_empty()));
        // One line changed in the same input: the common ends leave little to diff.
        let mut lines: Vec<&str> = old.lines().collect();
        lines[10_000] = "changed";
        let new = lines.join("\n") + "\n";
        let (hunks, added, removed, _) = diff_texts(&old, &new, 1);
        assert_eq!((added, removed, hunks.len()), (1, 1, 1));
    }

    #[test]
    fn a_replaced_run_of_many_words_gets_no_word_marks() {
        // One line of 100,000 words became another: no marks (and no cost to find them).
        let (hunks, added, removed, _) =
            diff_texts(&repetitive(1, 100_000, 0), &repetitive(1, 100_000, 1), 1);
        assert_eq!((added, removed), (1, 1));
        assert!(hunks[0].lines.iter().all(|l| l.changed.is_empty()));
        // Just under the limit the same kind of line is marked.
        let words = MAX_WORD_TOKENS / 4;
        let old = repetitive(1, words, 0);
        let new = old.replacen("x", "z", 1);
        let (hunks, ..) = diff_texts(&old, &new, 1);
        assert!(hunks[0].lines.iter().any(|l| !l.changed.is_empty()));
    }
}
