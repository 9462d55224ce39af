//! The markup contract between the renderers and whoever applies patches: the parts of
//! a document's element that a patch may address, each marked `data-part="…"`.
//!
//! A document's element is `<div class="ds-doc ds-TYPE" data-doc-id="…">` holding its
//! parts in a fixed order. A patch replaces or appends to a part's content; the part's
//! own element and everything around it stay, so what the reader opened, focused or
//! selected elsewhere in the document is kept.

use serde::{Deserialize, Serialize};

use crate::escape::Markup;

/// A part of a document's element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// The header line: name, path, status, counts (replaced when it changes).
    Head,
    /// A Markdown text's finished blocks (appended to, never replaced).
    Blocks,
    /// A Markdown text's unfinished last block (built while open, replaced at the end).
    Tail,
    /// A code document's complete lines (appended to).
    Lines,
    /// A code document's unfinished last line (built while open).
    Open,
    /// A status badge and error (replaced when the status changes).
    Status,
    /// The main body: a diff, a terminal's output, a plan (replaced when it changes).
    Body,
    /// A tool call's arguments.
    Args,
    /// A tool call's result.
    Result,
}

impl Part {
    /// Every part.
    pub const ALL: [Part; 9] = [
        Part::Head,
        Part::Blocks,
        Part::Tail,
        Part::Lines,
        Part::Open,
        Part::Status,
        Part::Body,
        Part::Args,
        Part::Result,
    ];

    /// The value of its `data-part` attribute.
    pub fn name(self) -> &'static str {
        match self {
            Part::Head => "head",
            Part::Blocks => "blocks",
            Part::Tail => "tail",
            Part::Lines => "lines",
            Part::Open => "open",
            Part::Status => "status",
            Part::Body => "body",
            Part::Args => "args",
            Part::Result => "result",
        }
    }

    /// Parses a `data-part` value.
    pub fn parse(name: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The element a part lives in: its tag and class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    pub part: Part,
    pub tag: &'static str,
    pub class: &'static str,
}

impl Slot {
    /// Writes the part's opening tag.
    pub(crate) fn open(self, out: &mut String) {
        out.raw("<")
            .raw(self.tag)
            .raw(" class=\"")
            .raw(self.class)
            .raw("\" data-part=\"")
            .raw(self.part.name())
            .raw("\">");
    }

    /// Writes the part's closing tag.
    pub(crate) fn close(self, out: &mut String) {
        out.raw("</").raw(self.tag).raw(">");
    }

    /// Writes the whole part with `inner` as its content.
    pub(crate) fn wrap(self, out: &mut String, inner: impl FnOnce(&mut String)) {
        self.open(out);
        inner(out);
        self.close(out);
    }
}

/// Tags an element built in a part may have (the `open_element` patch): the Markdown
/// preview's elements and a code line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Tag {
    P,
    H1,
    H2,
    H3,
    H4,
    H5,
    H6,
    Ul,
    Ol,
    Li,
    Blockquote,
    Pre,
    Code,
    Strong,
    Em,
    Del,
    A,
    Span,
    Table,
    Thead,
    Tbody,
    Tr,
    Th,
    Td,
    Hr,
}

impl Tag {
    /// Every tag.
    pub const ALL: [Tag; 25] = [
        Tag::P,
        Tag::H1,
        Tag::H2,
        Tag::H3,
        Tag::H4,
        Tag::H5,
        Tag::H6,
        Tag::Ul,
        Tag::Ol,
        Tag::Li,
        Tag::Blockquote,
        Tag::Pre,
        Tag::Code,
        Tag::Strong,
        Tag::Em,
        Tag::Del,
        Tag::A,
        Tag::Span,
        Tag::Table,
        Tag::Thead,
        Tag::Tbody,
        Tag::Tr,
        Tag::Th,
        Tag::Td,
        Tag::Hr,
    ];

    /// The element name.
    pub fn name(self) -> &'static str {
        match self {
            Tag::P => "p",
            Tag::H1 => "h1",
            Tag::H2 => "h2",
            Tag::H3 => "h3",
            Tag::H4 => "h4",
            Tag::H5 => "h5",
            Tag::H6 => "h6",
            Tag::Ul => "ul",
            Tag::Ol => "ol",
            Tag::Li => "li",
            Tag::Blockquote => "blockquote",
            Tag::Pre => "pre",
            Tag::Code => "code",
            Tag::Strong => "strong",
            Tag::Em => "em",
            Tag::Del => "del",
            Tag::A => "a",
            Tag::Span => "span",
            Tag::Table => "table",
            Tag::Thead => "thead",
            Tag::Tbody => "tbody",
            Tag::Tr => "tr",
            Tag::Th => "th",
            Tag::Td => "td",
            Tag::Hr => "hr",
        }
    }

    /// Parses an element name.
    pub fn parse(name: &str) -> Option<Tag> {
        Tag::ALL.into_iter().find(|t| t.name() == name)
    }

    /// True for an element without content or closing tag.
    pub fn is_void(self) -> bool {
        self == Tag::Hr
    }
}

/// Attributes an element built in a part may be given (the `set_attr` patch); their
/// values come from the renderer (a link's target only after the URL policy allowed it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum Attr {
    /// `class`
    Class,
    /// `href` (an allowed link target)
    Href,
    /// `rel`
    Rel,
    /// `data-ln`: a code line's number, shown by the stylesheet and never copied.
    DataLn,
}

impl Attr {
    /// Every attribute.
    pub const ALL: [Attr; 4] = [Attr::Class, Attr::Href, Attr::Rel, Attr::DataLn];

    /// The attribute name.
    pub fn name(self) -> &'static str {
        match self {
            Attr::Class => "class",
            Attr::Href => "href",
            Attr::Rel => "rel",
            Attr::DataLn => "data-ln",
        }
    }

    /// Parses an attribute name.
    pub fn parse(name: &str) -> Option<Attr> {
        Attr::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// The opening tag of the element that holds a sub-agent's run (its turn), between the
/// prompt and the answer; it is not a part: patches insert the run's turn into it.
pub(crate) const SUBAGENT_RUN_OPEN: &str = "<div class=\"ds-subagent-run\">";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in Part::ALL {
            assert_eq!(Part::parse(p.name()), Some(p));
        }
        for t in Tag::ALL {
            assert_eq!(Tag::parse(t.name()), Some(t));
        }
        for a in Attr::ALL {
            assert_eq!(Attr::parse(a.name()), Some(a));
        }
    }
}
