//! Syntax colours for pages written without a script (the CLI's `html` and `export`):
//! the code of rendered HTML gets the same token classes the element's highlighter gives
//! in the browser (`ds-hl-keyword`, `ds-hl-string` … in docs/classes.md), so the
//! stylesheet colours both alike, from the theme.
//!
//! Grammars are syntect's, with the extra ones `bat` ships (TypeScript, TOML, Kotlin,
//! Swift, Dockerfile …) through `two-face`; a token's class comes from its innermost
//! scope that a rule names, the rules following the CSS-variables theme the browser
//! highlighter uses. Only code elements with a language (`<code class="language-…">`)
//! are coloured, line by line, the grammar's state carried from one line to the next;
//! diff views stay uncoloured here. Native builds only (feature `highlight`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use syntect::parsing::{ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet};

use super::escape::push_escaped;

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
        if self.broken || text.len() > MAX_LINE {
            push_escaped(out, text);
            return;
        }
        let line = format!("{text}\n");
        let Ok(ops) = self.state.parse_line(&line, syntaxes()) else {
            self.broken = true;
            push_escaped(out, text);
            return;
        };
        let mut at = 0;
        let mut run = (0, kinds.of(&self.stack));
        for (pos, op) in ops {
            let pos = pos.min(text.len());
            if pos > at {
                let kind = kinds.of(&self.stack);
                if kind != run.1 {
                    span(out, &text[run.0..at], run.1);
                    run = (at, kind);
                }
                at = pos;
            }
            if self.stack.apply(&op).is_err() {
                self.broken = true;
            }
        }
        let kind = kinds.of(&self.stack);
        if kind != run.1 && at < text.len() {
            span(out, &text[run.0..at], run.1);
            run = (at, kind);
        }
        span(out, &text[run.0..], run.1);
    }
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

/// Text of an HTML text node as docstream escapes it.
fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('&') {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&amp;", "&"),
    )
}

const CODE_OPEN: &str = "<code class=\"language-";
const CODE_CLOSE: &str = "</code>";
const LINE_OPEN: &str = "<span class=\"ds-line\"";

/// `html` with the code of every `<code class="language-…">` element coloured; the
/// same text when there is none.
pub fn highlight_html(html: &str) -> Cow<'_, str> {
    if !html.contains(CODE_OPEN) {
        return Cow::Borrowed(html);
    }
    let mut kinds = Kinds(HashMap::new());
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    let mut rest = html;
    while let Some(at) = rest.find(CODE_OPEN) {
        let after = &rest[at + CODE_OPEN.len()..];
        let (Some(quote), Some(close)) = (after.find('"'), after.find(CODE_CLOSE)) else {
            break;
        };
        let Some(tag_end) = after[quote..].find('>').map(|i| quote + i + 1) else {
            break;
        };
        out.push_str(&rest[..at + CODE_OPEN.len()]);
        out.push_str(&after[..tag_end]);
        let inner = &after[tag_end..close.max(tag_end)];
        match syntax_for(&after[..quote]) {
            Some(syntax) => code(inner, &mut Block::new(syntax), &mut kinds, &mut out),
            None => out.push_str(inner),
        }
        rest = &after[close.max(tag_end)..];
    }
    out.push_str(rest);
    Cow::Owned(out)
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

    #[test]
    fn cut_markup_is_copied_as_it_is() {
        for html in [
            "<code class=\"language-rust",
            "<code class=\"language-rust\">fn",
            "<code class=\"language-rust\"><span class=\"ds-line\">fn</code>",
        ] {
            let _ = highlight_html(html);
        }
        assert_eq!(
            highlight_html("a<code class=\"language-rust"),
            "a<code class=\"language-rust"
        );
    }
}
