//! The preview of the Markdown block that is still being written.
//!
//! While a block streams, no Markdown parser can say how it ends: a `**` may be closed
//! three words later, a `[` may turn out to be a link. Rendering the open block again
//! after every delta would cost its length each time, so a long paragraph, list or
//! table would cost the square of its length. The preview instead reads each byte once
//! and only ever appends: it opens elements, adds text and closes elements through a
//! [`PreviewOut`], showing the block as it will most likely end (an unclosed `**word`
//! is already bold, an unclosed backtick span already code, a fence already a code
//! block, a table already a table), and never shows a link target before its `)` has
//! arrived and passed the URL policy. When the block is finished, the view replaces the
//! preview with the exact rendering of the block (pulldown-cmark's), so the final HTML
//! never depends on the preview.
//!
//! The preview is safe by construction: text goes out as text (never parsed as HTML),
//! elements come from the [`Tag`] list, and the only attributes are the renderer's own
//! and link targets the URL policy allowed.

use super::parts::{Attr, Tag};

/// Where the preview writes.
pub(crate) trait PreviewOut {
    /// Opens an element below the innermost open one.
    fn open(&mut self, tag: Tag);
    /// Sets an attribute of the innermost open element.
    fn attr(&mut self, attr: Attr, value: &str);
    /// Appends text (not HTML).
    fn text(&mut self, text: &str);
    /// Closes the innermost open element.
    fn close(&mut self);
}

/// Longest line start held back while its kind is undecided (a list marker, a fence, a
/// heading, a rule); a table row is held whole, up to this many bytes too.
const MAX_HELD: usize = 4096;

/// Deepest nesting of inline elements the preview opens; past it, openers are withheld
/// (shown neither as elements nor as raw markers) until the block is finished and
/// rendered exactly. Finding a closer's opener
/// walks the open inlines, so the bound keeps a delta's cost independent of how many
/// openers came before it (`*a_ ` repeated would otherwise cost the square of its
/// length), and the page never holds thousands of nested elements.
const MAX_INLINE_DEPTH: usize = 32;

/// A container block that is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Container {
    Quote,
    /// A list: ordered or not, and where its items' markers start.
    List {
        ordered: bool,
        marker: usize,
    },
    /// A list item: where its content starts.
    Item {
        content: usize,
    },
}

/// The leaf block that is open (inline content goes into it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leaf {
    None,
    Paragraph,
    /// Text directly in a list item (a tight list has no paragraph element).
    ItemText,
    Heading,
    /// A fenced code block: its fence character and length.
    Fence(u8, usize),
    /// A table: whether its body element is open.
    Table,
}

/// An inline element that is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inline {
    Emphasis(u8),
    Strong(u8),
    Strike,
    /// A code span opened by this many backticks.
    Code(usize),
    /// Link text (or an image's alt text).
    Link {
        image: bool,
    },
}

/// What the inline reader is in the middle of.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Pending {
    #[default]
    Nothing,
    /// A run of a delimiter character, and the character before it.
    Run { ch: u8, n: usize, before: char },
    /// A backslash.
    Escape,
    /// A `!` that may start an image.
    Bang,
    /// A `]` closing link text; a `(` next starts its target.
    CloseBracket,
    /// A link's target being read (not shown), with its parenthesis depth.
    Target {
        url: String,
        depth: usize,
        title: Title,
    },
    /// The character that decided what was pending belongs to it.
    Taken,
}

/// Where in `(url "title")` a link target's reader is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Title {
    /// Still in the URL.
    None,
    /// Past the URL, before a title.
    Space,
    /// In a title that ends with this character.
    Open(char),
    /// Past the title.
    Closed,
    /// Something a link target cannot hold: it will not be a link.
    Bad,
}

/// The state of the preview of one open block.
#[derive(Debug, Clone)]
pub(crate) struct Preview {
    /// Start of the current line, held while its kind is undecided.
    held: String,
    /// What more of `held` leaves it undecided.
    hold: Hold,
    /// Bytes of held lines judged, a work counter for the tests.
    #[cfg(test)]
    judged: usize,
    /// The next byte starts a line.
    at_line_start: bool,
    /// The previous line was blank.
    after_blank: bool,
    containers: Vec<Container>,
    leaf: Leaf,
    inlines: Vec<Inline>,
    pending: Pending,
    /// The last character read inside the leaf (for emphasis flanking).
    prev: char,
    /// Text read but not yet written.
    run: String,
    /// The table's header line, held until the next line says whether it is a table.
    table_head: Option<String>,
}

impl Default for Preview {
    fn default() -> Preview {
        Preview {
            held: String::new(),
            hold: Hold::Judge,
            #[cfg(test)]
            judged: 0,
            at_line_start: true,
            after_blank: false,
            containers: Vec::new(),
            leaf: Leaf::None,
            inlines: Vec::new(),
            pending: Pending::Nothing,
            prev: ' ',
            run: String::new(),
            table_head: None,
        }
    }
}

/// What a line is, as far as its start tells.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineStart {
    /// Not known yet: hold more, and what more keeps it so.
    Undecided(Hold),
    Blank,
    Quote,
    Heading(usize),
    Item {
        ordered: bool,
        indent: usize,
        content: usize,
    },
    Fence(u8, usize),
    Rule,
    TableRow,
    /// A link reference definition (`[label]: url`): never shown.
    Definition,
    Text {
        indent: usize,
    },
}

/// What more of a held line leaves it undecided, as its last judgement found: more
/// of that is only appended to the held line, which is judged again from its start
/// only when something else comes. Without this, a long undecided line (a rule of
/// many `_`, a run of backticks) would be scanned whole again for every delta.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Hold {
    /// Any byte may decide: judge again.
    Judge,
    /// The kind waits for the line's end, whatever comes before it.
    Any,
    /// More of this byte (and of spaces and tabs, when `blanks`).
    Run { byte: u8, blanks: bool },
    /// Anything but this byte.
    Until(u8),
}

impl Hold {
    /// Whether `more`, appended to the held line, leaves it undecided.
    fn keeps(self, more: &[u8]) -> bool {
        match self {
            Hold::Judge => false,
            Hold::Any => true,
            Hold::Run { byte, blanks } => more
                .iter()
                .all(|&b| b == byte || (blanks && (b == b' ' || b == b'\t'))),
            Hold::Until(stop) => !more.contains(&stop),
        }
    }
}

/// An undecided line whose start is spaces only: more spaces keep it so.
const BLANKS: Hold = Hold::Run {
    byte: b' ',
    blanks: false,
};

impl Preview {
    /// Reads more text of the open block.
    pub(crate) fn feed(&mut self, mut text: &str, out: &mut dyn PreviewOut) {
        while !text.is_empty() {
            if self.at_line_start {
                // Hold the start of the line until its kind is known.
                let nl = memchr::memchr(b'\n', text.as_bytes());
                let take = nl.map_or(text.len(), |i| i + 1);
                let (head, rest) = text.split_at(take);
                let eol = nl.is_some();
                if !eol
                    && self.held.len() + head.len() < MAX_HELD
                    && self.hold.keeps(head.as_bytes())
                {
                    self.held.push_str(head);
                    return;
                }
                let mut held = std::mem::take(&mut self.held);
                held.push_str(head);
                let line = held.strip_suffix('\n').unwrap_or(&held);
                #[cfg(test)]
                {
                    self.judged += line.len();
                }
                let kind = self.classify(line, eol);
                if let LineStart::Undecided(hold) = kind {
                    if !eol && held.len() < MAX_HELD {
                        self.held = held;
                        self.hold = hold;
                        return;
                    }
                }
                self.hold = Hold::Judge;
                self.at_line_start = false;
                self.line(&kind, &held, out);
                text = rest;
            } else {
                match memchr::memchr(b'\n', text.as_bytes()) {
                    Some(i) => {
                        self.content(&text[..i], out);
                        self.end_line(out);
                        text = &text[i + 1..];
                    }
                    None => {
                        self.content(text, out);
                        text = "";
                    }
                }
            }
        }
        self.flush(out);
    }
}

mod inlines;
mod lines;

#[cfg(test)]
mod tests;
