//! A search or listing (`tool_call` of grep, glob, ls, codebase search): files first,
//! each with its count and its matching lines; many files fold.

use super::show_all_items;
use crate::RenderOptions;
use crate::escape::Markup;
use docstream_model::{FileGroup, SearchView};

/// Files shown before the rest fold.
const FOLD_FILES: usize = 25;
/// Matching lines shown per file before the rest fold.
const FOLD_MATCHES: usize = 10;

pub(super) fn render(s: &SearchView, opts: &RenderOptions, out: &mut String) {
    let Some(groups) = &s.groups else { return };
    let list = |out: &mut String, groups: &[FileGroup]| {
        out.raw("<ul class=\"ds-search-files\">");
        for g in groups {
            file(g, opts, out);
        }
        out.raw("</ul>");
    };
    if groups.len() <= FOLD_FILES + FOLD_FILES / 2 {
        list(out, groups);
        return;
    }
    list(out, &groups[..FOLD_FILES]);
    show_all_items(out, groups.len() as u64, opts);
    list(out, &groups[FOLD_FILES..]);
    out.raw("</details>");
}

fn file(g: &FileGroup, opts: &RenderOptions, out: &mut String) {
    out.raw("<li class=\"ds-search-file\"><span class=\"ds-path\">")
        .text(&g.path)
        .raw("</span>");
    if g.count > 1 || !g.lines.is_empty() {
        out.raw(" <span class=\"ds-count\">")
            .num(g.count)
            .raw("</span>");
    }
    if g.lines.is_empty() {
        out.raw("</li>");
        return;
    }
    let matches = |out: &mut String, lines: &[(Option<u64>, String)]| {
        out.raw("<ol class=\"ds-matches\">");
        for (n, text) in lines {
            out.raw("<li class=\"ds-match\">");
            if let Some(n) = n {
                out.raw("<span class=\"ds-ln\">").num(*n).raw("</span> ");
            }
            if !text.trim().is_empty() {
                out.raw("<code>").text(text.trim_end()).raw("</code>");
            }
            out.raw("</li>");
        }
        out.raw("</ol>");
    };
    if g.lines.len() <= FOLD_MATCHES + FOLD_MATCHES / 2 {
        matches(out, &g.lines);
    } else {
        matches(out, &g.lines[..FOLD_MATCHES]);
        show_all_items(out, g.lines.len() as u64, opts);
        matches(out, &g.lines[FOLD_MATCHES..]);
        out.raw("</details>");
    }
    out.raw("</li>");
}
