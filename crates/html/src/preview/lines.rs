//! The preview's block structure: how a line starts (a list item, a fence, a heading,
//! a table row, …), the containers and the leaf block it opens or closes, and the rows
//! of a table.

use super::{BLANKS, Container, Hold, Leaf, LineStart, Pending, Preview, PreviewOut};
use crate::parts::Tag;

impl Preview {
    /// Judges a line from its start (`eol`: the line is complete).
    pub(super) fn classify(&self, line: &str, eol: bool) -> LineStart {
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
    pub(super) fn line(&mut self, kind: &LineStart, held: &str, out: &mut dyn PreviewOut) {
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
    fn done_line(&mut self, complete: bool, out: &mut dyn PreviewOut) {
        if complete {
            self.flush(out);
            self.at_line_start = true;
        }
    }

    /// Text continuing or starting a paragraph.
    fn paragraph_line(&mut self, line: &str, out: &mut dyn PreviewOut) {
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
    fn item(&mut self, ordered: bool, indent: usize, content: usize, out: &mut dyn PreviewOut) {
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
    fn leave_containers_for_block(&mut self, indent: usize, out: &mut dyn PreviewOut) {
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
    fn close_containers(&mut self, keep: usize, out: &mut dyn PreviewOut) {
        while self.containers.len() > keep {
            self.containers.pop();
            out.close();
        }
    }

    /// Ends a line inside a leaf: headings and table rows end with it.
    pub(super) fn end_line(&mut self, out: &mut dyn PreviewOut) {
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
    fn close_leaf(&mut self, out: &mut dyn PreviewOut) {
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

    fn start_table(&mut self, head: &str, out: &mut dyn PreviewOut) {
        self.close_leaf(out);
        out.open(Tag::Table);
        out.open(Tag::Thead);
        self.leaf = Leaf::Table;
        self.table_row(head, true, out);
        out.close();
        out.open(Tag::Tbody);
    }

    /// One row of cells.
    fn table_row(&mut self, line: &str, head: bool, out: &mut dyn PreviewOut) {
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
