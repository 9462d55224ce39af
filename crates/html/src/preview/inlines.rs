//! The preview's inline reader: text, code spans, emphasis, strikethrough and links as
//! they arrive, each shown as it will most likely end and closed when it ends.

use super::{Inline, Leaf, MAX_INLINE_DEPTH, Pending, Preview, PreviewOut, Title};
use crate::parts::{Attr, Tag};
use crate::url::{UrlVerdict, check_link};

impl Preview {
    /// Writes the text read so far.
    pub(super) fn flush(&mut self, out: &mut dyn PreviewOut) {
        if !self.run.is_empty() {
            out.text(&self.run);
            self.run.clear();
        }
    }

    /// Inline content of the open leaf (no newline).
    pub(super) fn content(&mut self, text: &str, out: &mut dyn PreviewOut) {
        if let Leaf::Fence(..) = self.leaf {
            self.run.push_str(text);
            return;
        }
        if self.leaf == Leaf::None && !text.is_empty() {
            out.open(Tag::P);
            self.leaf = Leaf::Paragraph;
        }
        for c in text.chars() {
            self.inline_char(c, out);
        }
    }

    fn in_code_span(&self) -> Option<usize> {
        match self.inlines.last() {
            Some(Inline::Code(n)) => Some(*n),
            _ => None,
        }
    }

    /// Whether another inline element may open (see [`MAX_INLINE_DEPTH`]).
    fn can_nest(&self) -> bool {
        self.inlines.len() < MAX_INLINE_DEPTH
    }

    /// Reads one character of inline content.
    fn inline_char(&mut self, c: char, out: &mut dyn PreviewOut) {
        match &mut self.pending {
            Pending::Target { url, depth, title } => {
                match (*title, c) {
                    (Title::Open(end), c) if c == end => *title = Title::Closed,
                    (Title::Open(_), _) => {}
                    (Title::None | Title::Space | Title::Closed | Title::Bad, ')')
                        if *depth == 0 =>
                    {
                        let url = std::mem::take(url);
                        let bad = *title == Title::Bad;
                        self.pending = Pending::Nothing;
                        self.end_link((!bad).then_some(url.as_str()), out);
                        self.prev = ')';
                    }
                    (Title::None, '(') => {
                        *depth += 1;
                        url.push(c);
                    }
                    (Title::None, ')') => {
                        *depth -= 1;
                        url.push(c);
                    }
                    (Title::None | Title::Space | Title::Closed, ' ' | '\t') => {
                        if *title == Title::None {
                            *title = Title::Space;
                        }
                    }
                    (Title::Space, '"' | '\'') => *title = Title::Open(c),
                    (Title::Space, '(') => *title = Title::Open(')'),
                    (Title::None, c) => url.push(c),
                    _ => *title = Title::Bad,
                }
                return;
            }
            Pending::Run { ch, n, .. } if char::from(*ch) == c => {
                *n += 1;
                return;
            }
            _ => {}
        }
        let ascii = u8::try_from(c).unwrap_or(0);
        self.resolve_pending(if c.is_ascii() { ascii } else { b'a' }, out);
        match self.pending {
            Pending::Nothing => {}
            Pending::Taken => {
                // The character was taken by what was pending (an escape, a `![`).
                self.pending = Pending::Nothing;
                return;
            }
            _ => return, // a link's target begins
        }
        if self.in_code_span().is_some() {
            if c == '`' {
                self.pending = Pending::Run {
                    ch: b'`',
                    n: 1,
                    before: self.prev,
                };
            } else {
                self.run.push(c);
            }
            return;
        }
        match c {
            '*' | '_' | '~' | '`' => {
                self.pending = Pending::Run {
                    ch: ascii,
                    n: 1,
                    before: self.prev,
                };
                return;
            }
            '\\' => {
                self.pending = Pending::Escape;
                return;
            }
            '!' => {
                self.pending = Pending::Bang;
                return;
            }
            '[' if !self.prev.is_alphanumeric() && self.prev != ']' => {
                if self.can_nest() {
                    self.flush(out);
                    out.open(Tag::A);
                    self.inlines.push(Inline::Link { image: false });
                }
            }
            ']' if self
                .inlines
                .iter()
                .any(|i| matches!(i, Inline::Link { .. })) =>
            {
                self.flush(out);
                while let Some(
                    Inline::Emphasis(_) | Inline::Strong(_) | Inline::Strike | Inline::Code(_),
                ) = self.inlines.last()
                {
                    self.inlines.pop();
                    out.close();
                }
                self.pending = Pending::CloseBracket;
            }
            c => self.run.push(c),
        }
        self.prev = c;
    }

    /// Decides what was pending, now that the next byte (`next`, `\n` at a line's end;
    /// non-ASCII characters pass as `a`) is known. May leave something pending when
    /// `next` is taken by it.
    pub(super) fn resolve_pending(&mut self, next: u8, out: &mut dyn PreviewOut) {
        match std::mem::take(&mut self.pending) {
            Pending::Nothing | Pending::Target { .. } => {}
            Pending::Escape => {
                if next.is_ascii_punctuation() {
                    self.run.push(char::from(next));
                    self.prev = char::from(next);
                    self.pending = Pending::Taken;
                } else {
                    self.run.push('\\');
                    self.prev = '\\';
                }
            }
            Pending::Bang => {
                if next == b'[' && self.can_nest() {
                    self.flush(out);
                    out.open(Tag::Span);
                    self.inlines.push(Inline::Link { image: true });
                    self.prev = '[';
                    self.pending = Pending::Taken;
                } else {
                    self.run.push('!');
                    self.prev = '!';
                }
            }
            Pending::CloseBracket => {
                if next == b'(' {
                    self.pending = Pending::Target {
                        url: String::new(),
                        depth: 0,
                        title: Title::None,
                    };
                } else {
                    self.end_link(None, out);
                    self.prev = ']';
                }
            }
            Pending::Run { ch, n, before } => self.delimiter_run(ch, n, before, next, out),
            Pending::Taken => {}
        }
    }

    /// Closes the innermost link (an allowed target becomes its `href`).
    fn end_link(&mut self, target: Option<&str>, out: &mut dyn PreviewOut) {
        let Some(at) = self
            .inlines
            .iter()
            .rposition(|i| matches!(i, Inline::Link { .. }))
        else {
            return;
        };
        self.flush(out);
        while self.inlines.len() > at + 1 {
            self.inlines.pop();
            out.close();
        }
        if let (Some(Inline::Link { image: false }), Some(url)) = (self.inlines.last(), target) {
            // A target with an entity or a backslash escape reads otherwise once decoded:
            // it waits for the exact rendering rather than being live with another value.
            if !url.contains(['&', '\\']) && check_link(url) == UrlVerdict::Allowed {
                out.attr(Attr::Href, url);
                out.attr(Attr::Rel, "noopener noreferrer");
            }
        }
        self.inlines.pop();
        out.close();
    }

    /// A run of `n` delimiter characters between `before` and `next`.
    fn delimiter_run(
        &mut self,
        ch: u8,
        n: usize,
        before: char,
        next: u8,
        out: &mut dyn PreviewOut,
    ) {
        let c = char::from(ch);
        if ch == b'`' {
            match self.in_code_span() {
                Some(open) if open == n => {
                    self.flush(out);
                    self.inlines.pop();
                    out.close();
                }
                Some(_) => self.run.extend(std::iter::repeat_n(c, n)),
                None if !self.can_nest() => {}
                None => {
                    self.flush(out);
                    out.open(Tag::Code);
                    self.inlines.push(Inline::Code(n));
                }
            }
            self.prev = c;
            return;
        }
        let after = char::from(next);
        let before_space = before.is_whitespace();
        let after_space = after.is_whitespace();
        let before_punct = before.is_ascii_punctuation();
        let after_punct = after.is_ascii_punctuation();
        let left = !after_space && (!after_punct || before_space || before_punct);
        let right = !before_space && (!before_punct || after_space || after_punct);
        let (can_open, can_close) = if ch == b'_' {
            (
                left && (!right || before_punct),
                right && (!left || after_punct),
            )
        } else {
            (left, right)
        };
        let mut n = n;
        if ch == b'~' {
            let open = self.inlines.iter().rposition(|i| *i == Inline::Strike);
            if can_close && open.is_some() && n <= 2 {
                self.close_to(open.unwrap_or(0), out);
            } else if can_open && n <= 2 {
                if self.can_nest() {
                    self.flush(out);
                    out.open(Tag::Del);
                    self.inlines.push(Inline::Strike);
                }
            } else {
                self.run.extend(std::iter::repeat_n(c, n));
            }
            self.prev = c;
            return;
        }
        if can_close {
            while n > 0 {
                let Some(at) = self.inlines.iter().rposition(
                    |i| matches!(i, Inline::Strong(c) | Inline::Emphasis(c) if *c == ch),
                ) else {
                    break;
                };
                let used = match self.inlines[at] {
                    Inline::Strong(_) if n >= 2 => 2,
                    Inline::Emphasis(_) => 1,
                    _ => break,
                };
                self.close_to(at, out);
                n -= used;
            }
        }
        if n > 0 {
            if can_open && n <= 3 && self.inlines.len() + n.div_ceil(2) > MAX_INLINE_DEPTH {
                // Withheld: too deep to show (see MAX_INLINE_DEPTH).
            } else if can_open && n <= 3 {
                self.flush(out);
                if n >= 2 {
                    out.open(Tag::Strong);
                    self.inlines.push(Inline::Strong(ch));
                }
                if n != 2 {
                    out.open(Tag::Em);
                    self.inlines.push(Inline::Emphasis(ch));
                }
            } else {
                self.run.extend(std::iter::repeat_n(c, n));
            }
        }
        self.prev = c;
    }

    /// Closes inline elements down to and including the one at `at`.
    fn close_to(&mut self, at: usize, out: &mut dyn PreviewOut) {
        self.flush(out);
        while self.inlines.len() > at {
            self.inlines.pop();
            out.close();
        }
    }
}
