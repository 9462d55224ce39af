//! The sink every part of the export writes into: our own Markdown goes in as it is
//! ([`Md::raw`]); every text of the run goes through the [`Redact`] hook first, then
//! through the escaping of its context ([`super::escape`], [`super::prose`]).
//!
//! Blocks are written each followed by a blank line, so no block runs into the next.

use std::borrow::Cow;

use super::escape;
use super::prose::contain;
use crate::RenderOptions;
use crate::labels::{Label, label};

/// What the export does to every text a run holds (prose, code, commands and their
/// output, tool arguments and results, diffs, thinking, paths, titles) before it is
/// escaped and written: the hook for masking secrets. [`KeepAll`] keeps every text.
///
/// It is called once per piece of text, in the order the pieces are written, so an
/// implementation can give the same value the same mask and count what it masked.
pub trait Redact {
    /// The text to write in place of `text`.
    fn redact<'t>(&mut self, text: &'t str) -> Cow<'t, str>;
}

/// A [`Redact`] that keeps every text as it is.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeepAll;

impl Redact for KeepAll {
    fn redact<'t>(&mut self, text: &'t str) -> Cow<'t, str> {
        Cow::Borrowed(text)
    }
}

/// The Markdown being written.
pub(crate) struct Md<'a> {
    pub(crate) out: String,
    pub(crate) opts: &'a RenderOptions,
    redact: &'a mut dyn Redact,
}

impl<'a> Md<'a> {
    pub(crate) fn new(opts: &'a RenderOptions, redact: &'a mut dyn Redact) -> Md<'a> {
        Md {
            out: String::with_capacity(4096),
            opts,
            redact,
        }
    }

    /// A label in the page's language.
    pub(crate) fn l(&self, key: Label) -> &'static str {
        label(self.opts.locale, key)
    }

    /// A label, written.
    pub(crate) fn label(&mut self, key: Label) -> &mut Self {
        self.out.push_str(label(self.opts.locale, key));
        self
    }

    /// Our own Markdown, written as it is.
    pub(crate) fn raw(&mut self, s: &str) -> &mut Self {
        self.out.push_str(s);
        self
    }

    /// A text of the run inside a line of Markdown.
    pub(crate) fn inline(&mut self, s: &str) -> &mut Self {
        let s = self.redact.redact(s);
        self.out.push_str(&escape::inline(&s));
        self
    }

    /// A text of the run as inline code.
    pub(crate) fn code_span(&mut self, s: &str) -> &mut Self {
        let s = self.redact.redact(s);
        self.out.push_str(&escape::code_span(&s));
        self
    }

    /// A link's address of the run, for inside `<…>`: the characters that could end
    /// it (`<`, `>`, a backslash, spaces and line breaks) percent-encoded.
    pub(crate) fn url(&mut self, s: &str) -> &mut Self {
        let s = self.redact.redact(s);
        for c in s.trim().chars() {
            match c {
                '<' => self.out.push_str("%3C"),
                '>' => self.out.push_str("%3E"),
                '\\' => self.out.push_str("%5C"),
                ' ' => self.out.push_str("%20"),
                c if c.is_control() || c.is_whitespace() => {}
                c => self.out.push(c),
            }
        }
        self
    }

    /// A text of the run as a fenced block with its language.
    pub(crate) fn block(&mut self, language: &str, s: &str) -> &mut Self {
        let s = self.redact.redact(s);
        let text = escape::block_text(&s);
        let fence = escape::fence(&text);
        self.out.push_str(&fence);
        let language = self.redact.redact(language);
        self.out.push_str(&escape::info_string(&language));
        self.out.push('\n');
        self.out.push_str(&text);
        self.out.push_str(&fence);
        self.out.push_str("\n\n");
        self
    }

    /// Prose of the run, as written and contained, as blocks.
    pub(crate) fn prose(&mut self, s: &str) -> &mut Self {
        let s = self.redact.redact(s);
        // Control characters (an ANSI colour, a NUL) are no part of prose.
        let s = crate::terminal::strip_ansi(&s);
        let text = contain(&s);
        if !text.trim().is_empty() {
            self.out.push_str(&text);
            self.out.push_str("\n\n");
        }
        self
    }

    /// A paragraph of one line: `bold` (ours) then a text of the run.
    pub(crate) fn line(&mut self, bold: &str, text: &str) -> &mut Self {
        if !bold.is_empty() {
            self.raw("**").raw(&escape::inline(bold)).raw("**");
            if !text.trim().is_empty() {
                self.raw(" ");
            }
        }
        self.inline(text).raw("\n\n")
    }

    /// A quote of one line: `why` (ours, bold) and a text of the run.
    pub(crate) fn quote(&mut self, why: &str, text: &str) -> &mut Self {
        self.raw("> ");
        self.line(why, text)
    }

    /// A fold: `<details>` with `summary` (a text of the run, as HTML) and what `body`
    /// writes as Markdown; a summary line alone when the body writes nothing.
    pub(crate) fn fold(&mut self, summary: &str, body: impl FnOnce(&mut Md<'_>)) -> &mut Self {
        let start = self.out.len();
        let summary = self.redact.redact(summary).into_owned();
        self.raw("<details>\n<summary>")
            .raw(&escape::html(&summary))
            .raw("</summary>\n\n");
        let body_at = self.out.len();
        body(self);
        if self.out.len() == body_at {
            self.out.truncate(start);
            let line = escape::inline(&summary);
            return self.raw(&line).raw("\n\n");
        }
        self.raw("</details>\n\n")
    }
}
