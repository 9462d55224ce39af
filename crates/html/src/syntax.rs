//! Syntax colours for pages written without a script (the CLI's `html` and `export`):
//! the code of rendered HTML gets the same token classes the element's highlighter gives
//! in the browser (`ds-hl-keyword`, `ds-hl-string` … in docs/classes.md), so the
//! stylesheet colours both alike, from the theme.
//!
//! Grammars are syntect's, with the extra ones `bat` ships (TypeScript, TOML, Kotlin,
//! Swift, Dockerfile …) through `two-face`; a token's class comes from its innermost
//! scope that a rule names, the rules following the CSS-variables theme the browser
//! highlighter uses. Code elements with a language (`<code class="language-…">`) are
//! coloured line by line, the grammar's state carried from one line to the next; so are
//! both sides of a diff view, by its file's extension, each side with its own state, the
//! word marks kept, as the browser's colorer does. Native builds only (feature
//! `highlight`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use crate::escape::{push_escaped, unescape};

/// Lines longer than this are shown plain (minified files), as in the browser.
const MAX_LINE: usize = 2000;

/// Scope selectors and the token kind they give (`""`: plain), as the browser
/// highlighter's theme maps them. The longest selector that is a prefix of a scope wins.
const RULES: &[(&str, &str)] = &[
    ("comment", "comment"),
    ("punctuation.definition.comment", "comment"),
    ("string.quoted.docstring.multi", "comment"),
    ("string", "string"),
    ("markup.fenced_code", "string"),
    ("markup.inline", "string"),
    ("punctuation.definition.string", "string"),
    ("string.regexp", "string-expression"),
    ("string.template", "string-expression"),
    ("string.interpolated", "string-expression"),
    ("entity.name.tag", "string-expression"),
    ("constant.numeric", "constant"),
    ("constant.language", "constant"),
    ("constant.character", "constant"),
    ("constant.other.placeholder", "constant"),
    ("variable.language", "constant"),
    ("variable.other.constant", "constant"),
    ("meta.property-name", "constant"),
    ("support", "constant"),
    ("keyword", "keyword"),
    ("keyword.operator.accessor", ""),
    ("storage.type", "keyword"),
    ("storage.modifier", "keyword"),
    ("support.type.property-name.json", "keyword"),
    ("punctuation.separator.key-value", "keyword"),
    ("entity.name.tag.yaml", "keyword"),
    ("variable.parameter", "parameter"),
    ("entity.name.function", "function"),
    ("support.function", "function"),
    ("variable.function", "function"),
    ("entity.name.type", "function"),
    ("entity.other.inherited-class", "function"),
    ("entity.other.attribute-name", "function"),
    ("markup.underline.link", "link"),
    ("markup.inserted", "inserted"),
    ("markup.deleted", "deleted"),
    ("markup.changed", "changed"),
];

fn syntaxes() -> &'static SyntaxSet {
    static SET: OnceLock<SyntaxSet> = OnceLock::new();
    SET.get_or_init(two_face::syntax::extra_newlines)
}

/// The grammar for a fence name or extension (`rust`, `ts`, `sh`, `c++` …); `None` for
/// plain text and names no grammar knows.
fn syntax_for(lang: &str) -> Option<&'static SyntaxReference> {
    let set = syntaxes();
    let lang = match lang {
        "c++" => "cpp",
        "shell" | "console" | "zsh" => "bash",
        "dockerfile" => "Dockerfile",
        l => l,
    };
    set.find_syntax_by_token(lang)
        .filter(|s| s.name != "Plain Text")
}

/// The grammar for a file path: by its extension, else its name (`Dockerfile`).
fn syntax_for_path(path: &str) -> Option<&'static SyntaxReference> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => syntax_for(&ext.to_ascii_lowercase()),
        _ => syntax_for(name),
    }
}

/// The kind of the token a scope stack ends in, innermost scope first.
struct Kinds(HashMap<Scope, Option<&'static str>>);

impl Kinds {
    fn of(&mut self, stack: &ScopeStack) -> &'static str {
        for scope in stack.as_slice().iter().rev() {
            let kind = *self.0.entry(*scope).or_insert_with(|| rule_for(*scope));
            if let Some(kind) = kind {
                return kind;
            }
        }
        ""
    }
}

fn rule_for(scope: Scope) -> Option<&'static str> {
    let name = scope.build_string();
    RULES
        .iter()
        .filter(|(sel, _)| {
            name.strip_prefix(sel)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
        .max_by_key(|(sel, _)| sel.len())
        .map(|(_, kind)| *kind)
}

/// One code element's lines, tokenized in order.
struct Block {
    state: ParseState,
    stack: ScopeStack,
    /// A line could not be parsed: the rest is plain.
    broken: bool,
}

impl Block {
    fn new(syntax: &SyntaxReference) -> Block {
        Block {
            state: ParseState::new(syntax),
            stack: ScopeStack::new(),
            broken: false,
        }
    }

    /// Appends one line (text without its newline), coloured.
    fn line(&mut self, text: &str, kinds: &mut Kinds, out: &mut String) {
        match self.runs(text, kinds) {
            Some(runs) => {
                let mut start = 0;
                for (end, kind) in runs {
                    span(out, &text[start..end], kind);
                    start = end;
                }
            }
            None => push_escaped(out, text),
        }
    }

    /// One line's tokens as runs of one kind, each `(end, kind)` from where the last
    /// ended, covering the line; `None` when the line stays plain (too long, or the
    /// grammar failed on it or before it).
    fn runs(&mut self, text: &str, kinds: &mut Kinds) -> Option<Vec<(usize, &'static str)>> {
        if self.broken || text.len() > MAX_LINE {
            return None;
        }
        let line = format!("{text}\n");
        let Ok(ops) = self.state.parse_line(&line, syntaxes()) else {
            self.broken = true;
            return None;
        };
        let mut runs = Vec::new();
        let mut at = 0;
        let mut kind = kinds.of(&self.stack);
        for (pos, op) in ops {
            let pos = pos.min(text.len());
            if pos > at {
                let now = kinds.of(&self.stack);
                if now != kind {
                    runs.push((at, kind));
                    kind = now;
                }
                at = pos;
            }
            if self.stack.apply(&op).is_err() {
                self.broken = true;
            }
        }
        let now = kinds.of(&self.stack);
        if now != kind && at < text.len() {
            runs.push((at, kind));
            kind = now;
        }
        runs.push((text.len(), kind));
        runs.retain(|&(end, _)| end > 0);
        Some(runs)
    }

    /// Colours the text of an HTML fragment (a diff cell) whose elements (word marks)
    /// stay as they are: each text node is cut where the tokens change kind.
    fn paint(&mut self, inner: &str, kinds: &mut Kinds, out: &mut String) {
        let plain: String = segments(inner)
            .filter(|&(tag, _)| !tag)
            .map(|(_, s)| unescape(s))
            .collect();
        let Some(runs) = self.runs(&plain, kinds) else {
            out.push_str(inner);
            return;
        };
        let mut runs = runs.into_iter().peekable();
        let mut at = 0;
        for (tag, s) in segments(inner) {
            if tag {
                out.push_str(s);
                continue;
            }
            let text = unescape(s);
            let end = at + text.len();
            let mut from = at;
            while from < end {
                let Some(&(run_end, kind)) = runs.peek() else {
                    break;
                };
                let to = run_end.min(end);
                span(out, &text[from - at..to - at], kind);
                from = to;
                if run_end <= end {
                    runs.next();
                }
            }
            at = end;
        }
    }
}

/// An HTML fragment as its tags (`true`) and text runs (`false`), in order.
fn segments(html: &str) -> impl Iterator<Item = (bool, &str)> {
    let mut rest = html;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = if rest.starts_with('<') {
            rest.find('>').map_or(rest.len(), |i| i + 1)
        } else {
            rest.find('<').unwrap_or(rest.len())
        };
        let (piece, next) = rest.split_at(end);
        rest = next;
        Some((piece.starts_with('<'), piece))
    })
}

fn span(out: &mut String, text: &str, kind: &str) {
    if text.is_empty() {
        return;
    }
    if kind.is_empty() {
        push_escaped(out, text);
        return;
    }
    out.push_str("<span class=\"ds-hl-");
    out.push_str(kind);
    out.push_str("\">");
    push_escaped(out, text);
    out.push_str("</span>");
}

const CODE_OPEN: &str = "<code class=\"language-";
const CODE_CLOSE: &str = "</code>";
const LINE_OPEN: &str = "<span class=\"ds-line\"";
/// A file edit's header names its file before its diff views.
const PATH_OPEN: &str = "<span class=\"ds-path\">";
const DIFF_OPEN: &str = "<table class=\"ds-diff-";
const TABLE_CLOSE: &str = "</table>";
const CELL_OPEN: &str = "<td class=\"ds-diff-text";
const CELL_CLOSE: &str = "</td>";

/// `html` with the code of every `<code class="language-…">` element and both sides of
/// every diff view coloured; the same text when there is none.
pub fn highlight_html(html: &str) -> Cow<'_, str> {
    if !html.contains(CODE_OPEN) && !html.contains(DIFF_OPEN) {
        return Cow::Borrowed(html);
    }
    let mut kinds = Kinds(HashMap::new());
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    let mut rest = html;
    // The file the diff views that follow show (the last path a header named).
    let mut path = Cow::Borrowed("");
    loop {
        let next = [CODE_OPEN, DIFF_OPEN, PATH_OPEN]
            .into_iter()
            .filter_map(|m| rest.find(m).map(|at| (at, m)))
            .min();
        let Some((at, marker)) = next else {
            break;
        };
        let after = &rest[at + marker.len()..];
        out.push_str(&rest[..at + marker.len()]);
        rest = after;
        if marker == PATH_OPEN {
            let end = after.find('<').unwrap_or(after.len());
            path = Cow::Owned(unescape(&after[..end]).into_owned());
        } else if marker == DIFF_OPEN {
            let end = after.find(TABLE_CLOSE).unwrap_or(after.len());
            match syntax_for_path(&path) {
                Some(syntax) => diff_table(&after[..end], syntax, &mut kinds, &mut out),
                None => out.push_str(&after[..end]),
            }
            rest = &after[end..];
        } else {
            let (Some(quote), Some(close)) = (after.find('"'), after.find(CODE_CLOSE)) else {
                break;
            };
            let Some(tag_end) = after[quote..].find('>').map(|i| quote + i + 1) else {
                break;
            };
            out.push_str(&after[..tag_end]);
            let inner = &after[tag_end..close.max(tag_end)];
            match syntax_for(&after[..quote]) {
                Some(syntax) => code(inner, &mut Block::new(syntax), &mut kinds, &mut out),
                None => out.push_str(inner),
            }
            rest = &after[close.max(tag_end)..];
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A diff view's rows (from after `<table class="ds-diff-` to before `</table>`): the
/// old side (removed and context lines) and the new side (added and context lines) are
/// each read in order with their own grammar state; a context line is coloured as the
/// new side reads it.
fn diff_table(table: &str, syntax: &SyntaxReference, kinds: &mut Kinds, out: &mut String) {
    let split = table.starts_with("split");
    let (mut old, mut new) = (Block::new(syntax), Block::new(syntax));
    let mut rest = table;
    // Where the row of the last cell began (in the split view, a row's first text cell
    // is the old side).
    let mut last_row = None;
    let mut consumed = 0;
    while let Some(at) = rest.find(CELL_OPEN) {
        let Some(open_end) = rest[at..].find('>').map(|i| at + i + 1) else {
            break;
        };
        let Some(close) = rest[open_end..].find(CELL_CLOSE).map(|i| open_end + i) else {
            break;
        };
        let tag = &rest[at..open_end];
        let row_start = table[..consumed + at].rfind("<tr");
        let row = row_start.map_or("", |r| &table[r..table[r..].find('>').map_or(r, |e| r + e)]);
        let first_in_row = last_row != Some(row_start);
        last_row = Some(row_start);
        out.push_str(&rest[..open_end]);
        let inner = &rest[open_end..close];
        let class = if split { tag } else { row };
        if class.contains("ds-diff-empty") {
            out.push_str(inner);
        } else if class.contains("ds-diff-removed") {
            old.paint(inner, kinds, out);
        } else if class.contains("ds-diff-added") {
            new.paint(inner, kinds, out);
        } else if split && first_in_row {
            old.paint(inner, kinds, out);
        } else if split {
            new.paint(inner, kinds, out);
        } else {
            let mut ignored = String::new();
            old.paint(inner, kinds, &mut ignored);
            new.paint(inner, kinds, out);
        }
        consumed += close;
        rest = &rest[close..];
    }
    out.push_str(rest);
}

/// One code element's content: its `ds-line` spans coloured line by line, or, with no
/// markup at all, its text.
fn code(inner: &str, block: &mut Block, kinds: &mut Kinds, out: &mut String) {
    if !inner.contains('<') {
        let text = unescape(inner);
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push('\n');
            }
            block.line(line, kinds, out);
        }
        return;
    }
    let mut rest = inner;
    while let Some(at) = rest.find(LINE_OPEN) {
        let Some(open_end) = rest[at..].find('>').map(|i| at + i + 1) else {
            break;
        };
        let Some(text_end) = rest[open_end..].find('<').map(|i| open_end + i) else {
            break;
        };
        out.push_str(&rest[..open_end]);
        block.line(&unescape(&rest[open_end..text_end]), kinds, out);
        rest = &rest[text_end..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_a_code_block_get_token_classes() {
        let html = "<pre class=\"ds-code\"><code class=\"language-rust\"><span class=\"ds-line\" data-ln=\"1\">fn main() { let s = &quot;a&lt;b&quot;; // done</span>\n</code></pre>";
        let out = highlight_html(html);
        assert_eq!(
            out,
            "<pre class=\"ds-code\"><code class=\"language-rust\"><span class=\"ds-line\" data-ln=\"1\"><span class=\"ds-hl-keyword\">fn</span> <span class=\"ds-hl-function\">main</span>() { <span class=\"ds-hl-keyword\">let</span> s <span class=\"ds-hl-keyword\">=</span> <span class=\"ds-hl-string\">&quot;a&lt;b&quot;</span>; <span class=\"ds-hl-comment\">// done</span></span>\n</code></pre>"
        );
    }

    #[test]
    fn state_carries_across_lines_and_plain_code_is_read_too() {
        let html = "<code class=\"language-python\">x = \"\"\"one\ntwo\"\"\"\n</code>";
        let out = highlight_html(html);
        assert!(
            out.contains("<span class=\"ds-hl-string\">two&quot;&quot;&quot;</span>"),
            "{out}"
        );
    }

    #[test]
    fn unknown_languages_and_pages_without_code_are_left_alone() {
        let page = "<p>no code</p>";
        assert!(matches!(highlight_html(page), Cow::Borrowed(_)));
        let text = "<code class=\"language-text\"><span class=\"ds-line\" data-ln=\"1\">fn x</span></code>";
        assert_eq!(highlight_html(text), text);
        let unknown = "<code class=\"language-nosuchlang\">fn x</code>";
        assert_eq!(highlight_html(unknown), unknown);
    }

    /// `html` without the token spans `highlight_html` adds.
    fn uncoloured(html: &str) -> String {
        let mut out = String::new();
        let mut rest = html;
        while let Some(at) = rest.find("<span class=\"ds-hl-") {
            out.push_str(&rest[..at]);
            let open_end = at + rest[at..].find('>').unwrap() + 1;
            let close = open_end + rest[open_end..].find("</span>").unwrap();
            out.push_str(&rest[open_end..close]);
            rest = &rest[close + "</span>".len()..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn both_sides_of_a_diff_are_coloured_by_the_file_extension_word_marks_kept() {
        let unified = "<span class=\"ds-path\">src/a.rs</span><table class=\"ds-diff-unified\">\n<tr class=\"ds-diff-context\"><td class=\"ds-ln\">1</td><td class=\"ds-ln\">1</td><td class=\"ds-diff-sign\"> </td><td class=\"ds-diff-text\">/* open</td></tr>\n<tr class=\"ds-diff-removed\"><td class=\"ds-ln\">2</td><td class=\"ds-ln\"></td><td class=\"ds-diff-sign\">−</td><td class=\"ds-diff-text\">*/ fn <mark class=\"ds-diff-word\">old_name()</mark> {}</td></tr>\n<tr class=\"ds-diff-added\"><td class=\"ds-ln\"></td><td class=\"ds-ln\">2</td><td class=\"ds-diff-sign\">+</td><td class=\"ds-diff-text\">*/ fn <mark class=\"ds-diff-word\">new_name()</mark> { &quot;s&quot; }</td></tr>\n</table>";
        let out = highlight_html(unified);
        assert_eq!(uncoloured(&out), unified, "only token spans are added");
        // The comment opened on a context line carries into both sides.
        assert!(out.contains("<td class=\"ds-diff-text\"><span class=\"ds-hl-comment\">*/</span> <span class=\"ds-hl-keyword\">fn</span> <mark class=\"ds-diff-word\"><span class=\"ds-hl-function\">old_name</span>()</mark> {}</td>"), "{out}");
        assert!(
            out.contains("<span class=\"ds-hl-string\">&quot;s&quot;</span>"),
            "{out}"
        );
        let split = "<span class=\"ds-path\">b.py</span><table class=\"ds-diff-split\">\n<tr><td class=\"ds-ln\">1</td><td class=\"ds-diff-text ds-diff-removed\">def f(): pass</td><td class=\"ds-ln\">1</td><td class=\"ds-diff-text ds-diff-added\">def g(): pass</td></tr>\n<tr><td class=\"ds-ln\"></td><td class=\"ds-diff-text ds-diff-empty\"></td><td class=\"ds-ln\">2</td><td class=\"ds-diff-text ds-diff-added\">return 1</td></tr>\n</table>";
        let out = highlight_html(split);
        assert_eq!(uncoloured(&out), split);
        assert_eq!(
            out.matches("<span class=\"ds-hl-keyword\">def</span>")
                .count(),
            2,
            "{out}"
        );
        let unknown = "<span class=\"ds-path\">notes.unknownext</span><table class=\"ds-diff-unified\"><tr class=\"ds-diff-added\"><td class=\"ds-diff-text\">fn x</td></tr></table>";
        assert_eq!(highlight_html(unknown), unknown);
    }

    #[test]
    fn every_fixture_page_keeps_its_text_when_coloured() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("tests/fixtures");
        let mut coloured = 0;
        for dir in std::fs::read_dir(root).unwrap() {
            for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let path = file.unwrap().path();
                if !path.to_string_lossy().ends_with(".expected.html") {
                    continue;
                }
                let html = std::fs::read_to_string(&path).unwrap();
                let out = highlight_html(&html);
                assert_eq!(uncoloured(&out), html, "{}", path.display());
                coloured +=
                    usize::from(out.contains("<td class=\"ds-diff-text\"><span class=\"ds-hl-"));
            }
        }
        assert!(coloured > 5, "fixtures with coloured diffs: {coloured}");
    }

    #[test]
    fn cut_markup_is_copied_as_it_is() {
        for html in [
            "<code class=\"language-rust",
            "<code class=\"language-rust\">fn",
            "<code class=\"language-rust\"><span class=\"ds-line\">fn</code>",
            "<span class=\"ds-path\">a.rs</span><table class=\"ds-diff-unified\"><tr class=\"ds-diff-added\"><td class=\"ds-diff-text\">fn",
            "<span class=\"ds-path\">a.rs</span><table class=\"ds-diff-split\"><tr><td class=\"ds-diff-text\"",
            "<span class=\"ds-path",
        ] {
            let _ = highlight_html(html);
        }
        assert_eq!(
            highlight_html("a<code class=\"language-rust"),
            "a<code class=\"language-rust"
        );
    }
}
