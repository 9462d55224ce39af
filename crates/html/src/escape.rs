//! The one escaping module every renderer uses, and the [`Markup`] sink they write to.
//!
//! Escaping scans bytes against a table and copies the runs between special bytes in
//! one piece, so text without markup characters costs one scan and one copy.

#[cfg(any(feature = "highlight", feature = "math"))]
use std::borrow::Cow;

/// What a special byte becomes; `None` for bytes copied as they are.
const fn replacement(b: u8) -> Option<&'static str> {
    match b {
        b'&' => Some("&amp;"),
        b'<' => Some("&lt;"),
        b'>' => Some("&gt;"),
        b'"' => Some("&quot;"),
        b'\'' => Some("&#39;"),
        // NUL is not allowed in HTML text; the parser would replace it too.
        b'\0' => Some("\u{FFFD}"),
        _ => None,
    }
}

/// True for the bytes [`push_escaped`] replaces.
static SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = replacement(b as u8).is_some();
        b += 1;
    }
    table
};

/// Escapes text for an HTML text node or a quoted attribute value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` escaped for HTML text or a double-quoted attribute value.
pub fn push_escaped(out: &mut String, s: &str) {
    let bytes = s.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if SPECIAL[b as usize] {
            // Special bytes are ASCII, so `run..i` and `i + 1..` are char boundaries.
            out.push_str(&s[run..i]);
            out.push_str(replacement(b).unwrap_or_default());
            run = i + 1;
        }
    }
    out.push_str(&s[run..]);
}

/// A class-name fragment derived from input (a fence's language): ASCII letters, digits,
/// `-` and `_` kept, anything else replaced by `-`, at most 40 characters.
pub fn class_fragment(s: &str) -> String {
    s.chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

/// The sink every renderer writes to: markup from the renderer's own constants, text
/// from the stream (always escaped) and numbers, with no formatting machinery.
pub trait Markup {
    /// Appends markup written by the renderer itself (never text from the stream).
    fn raw(&mut self, markup: &str) -> &mut Self;
    /// Appends text, escaped.
    fn text(&mut self, text: &str) -> &mut Self;
    /// Appends a number in decimal.
    fn num(&mut self, n: u64) -> &mut Self;
}

impl Markup for String {
    fn raw(&mut self, markup: &str) -> &mut Self {
        self.push_str(markup);
        self
    }

    fn text(&mut self, text: &str) -> &mut Self {
        push_escaped(self, text);
        self
    }

    fn num(&mut self, n: u64) -> &mut Self {
        self.push_str(itoa::Buffer::new().format(n));
        self
    }
}

/// Text of an HTML text node as docstream escapes it (for the passes over finished
/// pages: syntax colours, formulas).
#[cfg(any(feature = "highlight", feature = "math"))]
pub(crate) fn unescape(s: &str) -> Cow<'_, str> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">'&"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;"
        );
        assert_eq!(escape("a\0ü€😀<"), "a\u{FFFD}ü€😀&lt;");
        assert_eq!(escape(""), "");
    }

    #[test]
    fn class_fragment_is_safe() {
        assert_eq!(class_fragment("c++\" onclick=x"), "c----onclick-x");
    }

    #[test]
    fn markup_chains() {
        let mut s = String::new();
        s.raw("<b>").text("1<2").raw("</b> ").num(42);
        assert_eq!(s, "<b>1&lt;2</b> 42");
    }
}
