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
use super::url::{UrlVerdict, check_link};

/// Where the preview writes.
pub trait PreviewOut {
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
pub struct Preview {
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
    pub fn feed(&mut self, mut text: &str, out: &mut impl PreviewOut) {
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

    /// Judges a line from its start (`eol`: the line is complete).
    fn classify(&self, line: &str, eol: bool) -> LineStart {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let indent = line.len() - line.trim_start_matches(' ').len();
        let rest = &line[indent..];
        if let Leaf::Fence(c, n) = self.leaf {
            let run = rest.bytes().take_while(|&b| b == c).count();
            if run == rest.len() && !eol {
                return LineStart::Undecided(if rest.is_empty() {
                    BLANKS
                } else {
                    Hold::Run {
                        byte: c,
                        blanks: false,
                    }
                });
            }
            if run >= n && rest[run..].trim().is_empty() {
                return LineStart::Fence(c, run);
            }
            return LineStart::Text { indent };
        }
        if self.table_head.is_some() || self.leaf == Leaf::Table {
            // A row, or the delimiter row under the head, is read whole.
            let row = match rest.as_bytes().first() {
                None => !eol,
                Some(b'|') => true,
                Some(b'-' | b':') => self.table_head.is_some(),
                Some(_) => false,
            };
            if row {
                return if eol {
                    LineStart::TableRow
                } else if rest.is_empty() {
                    LineStart::Undecided(BLANKS)
                } else {
                    LineStart::Undecided(Hold::Any)
                };
            }
        }
        let Some(&first) = rest.as_bytes().first() else {
            return if eol {
                LineStart::Blank
            } else {
                LineStart::Undecided(BLANKS)
            };
        };
        let need_more = |hold| {
            if eol {
                None
            } else {
                Some(LineStart::Undecided(hold))
            }
        };
        match first {
            b'>' => need_more(Hold::Any).unwrap_or(LineStart::Quote),
            b'#' => {
                let n = rest.bytes().take_while(|&b| b == b'#').count();
                match rest.as_bytes().get(n) {
                    None if n <= 6 => need_more(Hold::Judge).unwrap_or(LineStart::Heading(n)),
                    Some(b' ' | b'\t') if n <= 6 => LineStart::Heading(n),
                    _ => LineStart::Text { indent },
                }
            }
            b'-' | b'*' | b'+' | b'_' => {
                // A rule is three or more markers and nothing else but spaces.
                let only = rest.bytes().all(|b| b == first || b == b' ' || b == b'\t');
                if only && first != b'+' {
                    if !eol {
                        return LineStart::Undecided(Hold::Run {
                            byte: first,
                            blanks: true,
                        });
                    }
                    if rest.bytes().filter(|&b| b == first).count() >= 3 {
                        return LineStart::Rule;
                    }
                }
                if first != b'_' && matches!(rest.as_bytes().get(1), Some(b' ' | b'\t')) {
                    let after = &rest[1..];
                    let spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
                    return LineStart::Item {
                        ordered: false,
                        indent,
                        content: indent + 1 + spaces.clamp(1, 4),
                    };
                }
                if rest.len() == 1 {
                    return need_more(Hold::Judge).unwrap_or(LineStart::Text { indent });
                }
                LineStart::Text { indent }
            }
            b'0'..=b'9' => {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                match rest.as_bytes().get(digits) {
                    None if digits <= 9 => {
                        need_more(Hold::Judge).unwrap_or(LineStart::Text { indent })
                    }
                    Some(b'.' | b')') if digits <= 9 => match rest.as_bytes().get(digits + 1) {
                        None => need_more(Hold::Judge).unwrap_or(LineStart::Text { indent }),
                        Some(b' ' | b'\t') => LineStart::Item {
                            ordered: true,
                            indent,
                            content: indent + digits + 2,
                        },
                        Some(_) => LineStart::Text { indent },
                    },
                    _ => LineStart::Text { indent },
                }
            }
            b'`' | b'~' => {
                let n = rest.bytes().take_while(|&b| b == first).count();
                if (n == rest.len() || n >= 3) && !eol {
                    // A fence's info string is not content: hold the line whole.
                    return LineStart::Undecided(if n >= 3 {
                        Hold::Any
                    } else {
                        Hold::Run {
                            byte: first,
                            blanks: false,
                        }
                    });
                }
                if n >= 3 && !(first == b'`' && rest[n..].contains('`')) {
                    LineStart::Fence(first, n)
                } else {
                    LineStart::Text { indent }
                }
            }
            b'|' => {
                if eol {
                    LineStart::TableRow
                } else {
                    LineStart::Undecided(Hold::Any)
                }
            }
            // A definition cannot interrupt a paragraph.
            b'[' if !matches!(self.leaf, Leaf::Paragraph | Leaf::ItemText) => {
                match rest.find(']').map(|i| rest.as_bytes().get(i + 1)) {
                    None => need_more(Hold::Until(b']')).unwrap_or(LineStart::Text { indent }),
                    Some(None) => need_more(Hold::Judge).unwrap_or(LineStart::Text { indent }),
                    Some(Some(b':')) => need_more(Hold::Any).unwrap_or(LineStart::Definition),
                    Some(Some(_)) => LineStart::Text { indent },
                }
            }
            _ => LineStart::Text { indent },
        }
    }

    /// Handles a line whose kind is known; `held` is what was held of it (its newline
    /// included when it is complete).
    fn line(&mut self, kind: &LineStart, held: &str, out: &mut impl PreviewOut) {
        let complete = held.ends_with('\n');
        let line = held.strip_suffix('\n').unwrap_or(held);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(head) = self.table_head.take() {
            if *kind == LineStart::TableRow && is_delimiter_row(line) {
                self.start_table(&head, out);
                self.done_line(complete, out);
                return;
            }
            // Not a table after all: the held line was text.
            self.paragraph_line(&head, out);
            self.end_line(out);
            self.at_line_start = false;
        }
        if let Leaf::Fence(..) = self.leaf {
            if let LineStart::Fence(..) = kind {
                self.close_leaf(out);
                self.after_blank = false;
            } else {
                self.run.push_str(line);
                if complete {
                    self.run.push('\n');
                }
            }
            self.done_line(complete, out);
            return;
        }
        if self.leaf == Leaf::Table && !matches!(kind, LineStart::TableRow | LineStart::Blank) {
            self.close_leaf(out);
        }
        match kind {
            LineStart::Blank => {
                self.close_leaf(out);
                self.after_blank = true;
                self.done_line(complete, out);
            }
            LineStart::TableRow => {
                if self.leaf == Leaf::Table {
                    self.table_row(line, false, out);
                } else {
                    self.table_head = Some(line.to_owned());
                }
                self.done_line(complete, out);
            }
            LineStart::Quote => {
                let rest = line.trim_start_matches(' ');
                let rest = rest[1..].strip_prefix(' ').unwrap_or(&rest[1..]);
                if !self.containers.contains(&Container::Quote) {
                    self.close_leaf(out);
                    self.close_containers(0, out);
                    out.open(Tag::Blockquote);
                    self.containers.push(Container::Quote);
                }
                // The rest of the line is read like a line of its own.
                let kind = match self.classify(rest, true) {
                    LineStart::Quote => LineStart::Text { indent: 0 },
                    k => k,
                };
                let rest = rest.to_owned() + if complete { "\n" } else { "" };
                self.line(&kind, &rest, out);
            }
            LineStart::Heading(n) => {
                self.close_leaf(out);
                self.leave_containers_for_block(0, out);
                let tag =
                    [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6][(*n).clamp(1, 6) - 1];
                out.open(tag);
                self.leaf = Leaf::Heading;
                self.prev = ' ';
                self.after_blank = false;
                let rest = line.trim_start_matches(' ')[*n..].trim_start();
                self.content(rest, out);
                if complete {
                    self.end_line(out);
                }
            }
            LineStart::Definition => {
                // Shown nowhere: it only gives links their targets.
                self.done_line(complete, out);
            }
            LineStart::Rule => {
                self.close_leaf(out);
                self.leave_containers_for_block(0, out);
                out.open(Tag::Hr);
                self.after_blank = false;
                self.done_line(complete, out);
            }
            LineStart::Fence(c, n) => {
                self.close_leaf(out);
                let indent = line.len() - line.trim_start_matches(' ').len();
                self.leave_containers_for_block(indent, out);
                out.open(Tag::Pre);
                out.open(Tag::Code);
                self.leaf = Leaf::Fence(*c, *n);
                self.after_blank = false;
                self.done_line(complete, out);
            }
            LineStart::Item {
                ordered,
                indent,
                content,
            } => {
                self.close_leaf(out);
                self.item(*ordered, *indent, *content, out);
                self.leaf = Leaf::ItemText;
                self.prev = ' ';
                self.after_blank = false;
                let rest = line.get(*content..).unwrap_or("").trim_start_matches(' ');
                let rest = task_marker(rest, &mut self.run);
                self.content(rest, out);
                if complete {
                    self.end_line(out);
                }
            }
            LineStart::Text { indent } => {
                let within = self.item_content().is_some_and(|c| *indent >= c);
                if self.after_blank && !within {
                    self.close_leaf(out);
                    self.close_containers(0, out);
                }
                self.paragraph_line(line, out);
                if complete {
                    self.end_line(out);
                }
            }
            LineStart::Undecided(_) => {
                // Held too long to decide: text.
                self.paragraph_line(line, out);
                if complete {
                    self.end_line(out);
                }
            }
        }
    }

    /// After a line handled whole: the next byte starts a line.
    fn done_line(&mut self, complete: bool, out: &mut impl PreviewOut) {
        if complete {
            self.flush(out);
            self.at_line_start = true;
        }
    }

    /// Text continuing or starting a paragraph.
    fn paragraph_line(&mut self, line: &str, out: &mut impl PreviewOut) {
        let text = line.trim_start_matches(' ');
        match self.leaf {
            Leaf::Paragraph | Leaf::ItemText if !self.after_blank => {
                self.run.push('\n');
                self.prev = '\n';
            }
            _ => {
                self.close_leaf(out);
                out.open(Tag::P);
                self.leaf = Leaf::Paragraph;
                self.prev = ' ';
            }
        }
        self.after_blank = false;
        self.content(text, out);
    }

    /// The content of an item's line starts where this says, if inside an item.
    fn item_content(&self) -> Option<usize> {
        self.containers.iter().rev().find_map(|c| match c {
            Container::Item { content } => Some(*content),
            _ => None,
        })
    }

    /// Opens a list item at `indent`, as a sibling, a child or the first of a new list.
    fn item(&mut self, ordered: bool, indent: usize, content: usize, out: &mut impl PreviewOut) {
        // Leave the items this one is not inside of.
        while let Some(&c) = self.containers.last() {
            match c {
                Container::Item { content: c } if indent < c => {
                    self.flush(out);
                    out.close();
                    self.containers.pop();
                }
                Container::List { ordered: o, marker } if indent < marker || o != ordered => {
                    out.close();
                    self.containers.pop();
                }
                _ => break,
            }
        }
        if !matches!(self.containers.last(), Some(Container::List { .. })) {
            out.open(if ordered { Tag::Ol } else { Tag::Ul });
            self.containers.push(Container::List {
                ordered,
                marker: indent,
            });
        }
        out.open(Tag::Li);
        self.containers.push(Container::Item { content });
    }

    /// Before a block that does not continue a list item: leaves the lists unless the
    /// block is indented into the item.
    fn leave_containers_for_block(&mut self, indent: usize, out: &mut impl PreviewOut) {
        if self.item_content().is_some_and(|c| indent >= c) {
            return;
        }
        let keep = self
            .containers
            .iter()
            .position(|c| !matches!(c, Container::Quote))
            .unwrap_or(self.containers.len());
        self.close_containers(keep, out);
    }

    /// Closes containers down to `keep` of them.
    fn close_containers(&mut self, keep: usize, out: &mut impl PreviewOut) {
        while self.containers.len() > keep {
            self.containers.pop();
            out.close();
        }
    }

    /// Ends a line inside a leaf: headings and table rows end with it.
    fn end_line(&mut self, out: &mut impl PreviewOut) {
        self.resolve_pending(b'\n', out);
        self.pending = Pending::Nothing;
        match self.leaf {
            Leaf::Heading => self.close_leaf(out),
            Leaf::Fence(..) => self.run.push('\n'),
            _ => {}
        }
        self.flush(out);
        self.at_line_start = true;
    }

    /// Closes the open leaf block and its inline elements.
    fn close_leaf(&mut self, out: &mut impl PreviewOut) {
        self.resolve_pending(b'\n', out);
        self.flush(out);
        for _ in self.inlines.drain(..) {
            out.close();
        }
        match self.leaf {
            Leaf::None | Leaf::ItemText => {}
            Leaf::Fence(..) => {
                out.close();
                out.close();
            }
            Leaf::Table => {
                out.close(); // tbody
                out.close(); // table
            }
            Leaf::Paragraph | Leaf::Heading => out.close(),
        }
        self.leaf = Leaf::None;
        self.pending = Pending::Nothing;
    }

    fn start_table(&mut self, head: &str, out: &mut impl PreviewOut) {
        self.close_leaf(out);
        out.open(Tag::Table);
        out.open(Tag::Thead);
        self.leaf = Leaf::Table;
        self.table_row(head, true, out);
        out.close();
        out.open(Tag::Tbody);
    }

    /// One row of cells.
    fn table_row(&mut self, line: &str, head: bool, out: &mut impl PreviewOut) {
        out.open(Tag::Tr);
        for cell in cells(line) {
            out.open(if head { Tag::Th } else { Tag::Td });
            self.prev = ' ';
            self.content(cell.trim(), out);
            self.resolve_pending(b'\n', out);
            self.flush(out);
            for _ in self.inlines.drain(..) {
                out.close();
            }
            self.pending = Pending::Nothing;
            out.close();
        }
        out.close();
    }

    /// Writes the text read so far.
    fn flush(&mut self, out: &mut impl PreviewOut) {
        if !self.run.is_empty() {
            out.text(&self.run);
            self.run.clear();
        }
    }

    /// Inline content of the open leaf (no newline).
    fn content(&mut self, text: &str, out: &mut impl PreviewOut) {
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
    fn inline_char(&mut self, c: char, out: &mut impl PreviewOut) {
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
    fn resolve_pending(&mut self, next: u8, out: &mut impl PreviewOut) {
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
    fn end_link(&mut self, target: Option<&str>, out: &mut impl PreviewOut) {
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
        out: &mut impl PreviewOut,
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
    fn close_to(&mut self, at: usize, out: &mut impl PreviewOut) {
        self.flush(out);
        while self.inlines.len() > at {
            self.inlines.pop();
            out.close();
        }
    }
}

/// A task-list marker at the start of an item shows as a box.
fn task_marker<'a>(rest: &'a str, run: &mut String) -> &'a str {
    for (marker, shown) in [("[ ] ", "☐ "), ("[x] ", "☑ "), ("[X] ", "☑ ")] {
        if let Some(r) = rest.strip_prefix(marker) {
            run.push_str(shown);
            return r;
        }
    }
    rest
}

/// A table's delimiter row: `| --- | :-: |`.
fn is_delimiter_row(line: &str) -> bool {
    let t = line.trim();
    t.contains('-')
        && t.bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
}

/// The cells of a table row (outer pipes dropped, `\|` kept in a cell).
fn cells(line: &str) -> Vec<&str> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t
        .strip_suffix('|')
        .filter(|s| !s.ends_with('\\'))
        .unwrap_or(t);
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = t.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'|' => {
                out.push(&t[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&t[start.min(t.len())..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An open element: tag, attributes, content so far.
    type Open = (Tag, Vec<(Attr, String)>, String);

    /// Builds HTML from the preview's calls, as the page would.
    #[derive(Default)]
    struct Html {
        out: String,
        open: Vec<Open>,
    }

    impl Html {
        fn sink(&mut self) -> &mut String {
            match self.open.last_mut() {
                Some(e) => &mut e.2,
                None => &mut self.out,
            }
        }
        fn html(&self) -> String {
            let mut inner = String::new();
            for (tag, attrs, content) in self.open.iter().rev() {
                inner = element(*tag, attrs, &(content.clone() + &inner));
            }
            self.out.clone() + &inner
        }
    }

    fn element(tag: Tag, attrs: &[(Attr, String)], inner: &str) -> String {
        let mut s = format!("<{}", tag.name());
        for (a, v) in attrs {
            s += &format!(" {}=\"{}\"", a.name(), super::super::escape::escape(v));
        }
        if tag.is_void() {
            return s + ">";
        }
        format!("{s}>{inner}</{}>", tag.name())
    }

    impl PreviewOut for Html {
        fn open(&mut self, tag: Tag) {
            if tag.is_void() {
                let e = element(tag, &[], "");
                self.sink().push_str(&e);
            } else {
                self.open.push((tag, Vec::new(), String::new()));
            }
        }
        fn attr(&mut self, attr: Attr, value: &str) {
            if let Some(e) = self.open.last_mut() {
                e.1.push((attr, value.to_owned()));
            }
        }
        fn text(&mut self, text: &str) {
            let t = super::super::escape::escape(text);
            self.sink().push_str(&t);
        }
        fn close(&mut self) {
            if let Some((tag, attrs, inner)) = self.open.pop() {
                let e = element(tag, &attrs, &inner);
                self.sink().push_str(&e);
            }
        }
    }

    fn preview_in(chunks: &[&str]) -> String {
        let mut p = Preview::default();
        let mut h = Html::default();
        for c in chunks {
            p.feed(c, &mut h);
        }
        h.html()
    }

    fn preview(text: &str) -> String {
        let whole = preview_in(&[text]);
        let bytes: Vec<String> = text.chars().map(String::from).collect();
        let refs: Vec<&str> = bytes.iter().map(String::as_str).collect();
        assert_eq!(preview_in(&refs), whole, "char by char: {text:?}");
        whole
    }

    /// Counts how deep the preview nests elements and how many calls it makes.
    #[derive(Default)]
    struct Depth {
        open: usize,
        deepest: usize,
        calls: usize,
    }

    impl PreviewOut for Depth {
        fn open(&mut self, tag: Tag) {
            self.calls += 1;
            if !tag.is_void() {
                self.open += 1;
                self.deepest = self.deepest.max(self.open);
            }
        }
        fn attr(&mut self, _: Attr, _: &str) {
            self.calls += 1;
        }
        fn text(&mut self, _: &str) {
            self.calls += 1;
        }
        fn close(&mut self) {
            self.calls += 1;
            self.open -= 1;
        }
    }

    #[test]
    fn openers_without_closers_nest_no_deeper_than_the_bound() {
        // The pathological corpus's shapes: each opener would otherwise nest one level
        // deeper, and every closer would walk all of them.
        for (name, unit) in [
            ("comrak-emph", "*a_ "),
            ("link-openers-emph-closers", "[ a_"),
            ("emph-**_*", "**_* "),
            ("code-and-strike", "`a ~b "),
        ] {
            let text = unit.repeat(20_000);
            let mut p = Preview::default();
            let mut d = Depth::default();
            for chunk in text.as_bytes().chunks(16) {
                p.feed(std::str::from_utf8(chunk).unwrap(), &mut d);
            }
            assert!(
                d.deepest <= MAX_INLINE_DEPTH + 2,
                "{name}: nested {} deep",
                d.deepest
            );
            assert!(
                d.calls <= 2 * text.len(),
                "{name}: {} output calls for {} bytes",
                d.calls,
                text.len()
            );
        }
        let deep = preview(&"*a ".repeat(40));
        assert_eq!(deep.matches("<em>").count(), MAX_INLINE_DEPTH);
        assert!(
            !deep.contains('*'),
            "openers past the bound are withheld: {deep}"
        );
    }

    #[test]
    fn a_held_line_is_judged_again_only_when_more_may_decide_it() {
        // Lines undecided until their end (a rule, a fence's info string, a table row, a
        // run of backticks, a label without its `]`, blanks): fed in 16-byte deltas,
        // each is judged about once, not once per delta from its start.
        for (name, line) in [
            ("rule", "_".repeat(4000)),
            ("spaced rule", "- ".repeat(2000)),
            ("fence info", format!("```{}", "x".repeat(4000))),
            ("backticks", "`".repeat(4000)),
            ("table row", format!("|{}", " a |".repeat(1000))),
            ("label", format!("[{}", "a".repeat(4000))),
            ("blanks", " ".repeat(4000)),
        ] {
            let text = format!("{line} word\n");
            let mut p = Preview::default();
            let mut h = Html::default();
            for chunk in text.as_bytes().chunks(16) {
                p.feed(std::str::from_utf8(chunk).unwrap(), &mut h);
            }
            assert!(
                p.judged <= 3 * text.len(),
                "{name}: {} bytes judged for {} bytes",
                p.judged,
                text.len()
            );
            let mut whole = Html::default();
            Preview::default().feed(&text, &mut whole);
            assert_eq!(h.html(), whole.html(), "{name}: in deltas as whole");
        }
    }

    #[test]
    fn unclosed_emphasis_is_shown_styled() {
        assert_eq!(
            preview("Some **bold wor"),
            "<p>Some <strong>bold wor</strong></p>"
        );
        assert_eq!(preview("a *b* c"), "<p>a <em>b</em> c</p>");
        assert_eq!(preview("2 * 3 * 4"), "<p>2 * 3 * 4</p>");
        assert_eq!(preview("snake_case_name"), "<p>snake_case_name</p>");
        assert_eq!(preview("use `cargo te"), "<p>use <code>cargo te</code></p>");
        assert_eq!(preview("~~gone~~ ok"), "<p><del>gone</del> ok</p>");
    }

    #[test]
    fn links_get_a_target_only_when_complete_and_allowed() {
        assert_eq!(preview("see [docs](https://exa"), "<p>see <a>docs</a></p>");
        assert_eq!(
            preview("see [docs](https://example.com) now"),
            "<p>see <a href=\"https://example.com\" rel=\"noopener noreferrer\">docs</a> now</p>"
        );
        assert_eq!(preview("[x](javascript:alert(1))"), "<p><a>x</a></p>");
        assert_eq!(preview("a[0] = 1"), "<p>a[0] = 1</p>");
        assert_eq!(
            preview("![alt](https://e/x.png)"),
            "<p><span>alt</span></p>"
        );
    }

    #[test]
    fn blocks_are_recognised_from_their_start() {
        assert_eq!(preview("# Title\ntext"), "<h1>Title</h1><p>text</p>");
        assert_eq!(
            preview("- one\n- two\n  - deep\n- three"),
            "<ul><li>one</li><li>two<ul><li>deep</li></ul></li><li>three</li></ul>"
        );
        assert_eq!(preview("1. a\n2. b"), "<ol><li>a</li><li>b</li></ol>");
        assert_eq!(
            preview("```rust\nfn main() {}\n"),
            "<pre><code>fn main() {}\n</code></pre>"
        );
        assert_eq!(
            preview("> quoted\n> more\n"),
            "<blockquote><p>quoted\nmore</p></blockquote>"
        );
        assert_eq!(preview("a\n\n---\n"), "<p>a</p><hr>");
    }

    #[test]
    fn tables_grow_by_rows() {
        assert_eq!(
            preview("| a | b |\n|---|---|\n| 1 | **2** |\n| 3"),
            "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><strong>2</strong></td></tr></tbody></table>"
        );
        assert_eq!(preview("| a |\nnot a table"), "<p>| a |\nnot a table</p>");
    }

    #[test]
    fn nothing_from_the_text_becomes_markup() {
        let h = preview("<script>alert(1)</script> **<b>**");
        assert!(!h.contains("<script"), "{h}");
        assert!(!h.contains("<b>"), "{h}");
    }
}
