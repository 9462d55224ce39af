//! Terminal output: ANSI escape sequences stripped, or their SGR styles kept as classes;
//! huge outputs cut to head and tail.

use std::borrow::Cow;

use anstyle_parse::{Params, Parser, Perform};

use crate::escape::Markup;

/// Outputs longer than this many lines show head and tail, the full text folded.
pub(crate) const MAX_LINES: usize = 200;
/// Lines kept at each end of a cut output.
pub(crate) const KEEP_LINES: usize = 60;

/// Removes ANSI escape sequences (CSI, OSC, DCS, other ESC sequences) and control
/// characters other than line breaks and tabs ([`parse_ansi`]'s text, its styles left
/// out). Text without any is returned as it is, after one scan.
pub(crate) fn strip_ansi(s: &str) -> Cow<'_, str> {
    parse_ansi(s).text
}

/// The SGR style of a run of terminal text: colours as indices of the 16-colour
/// palette (256-colour and 24-bit colours are taken to the nearest of them, so every
/// colour comes from the page's stylesheet and follows its light and dark themes; the
/// page's Content-Security-Policy allows no inline style).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Style {
    fg: Option<u8>,
    bg: Option<u8>,
    bold: bool,
    dim: bool,
    italic: bool,
    underline: bool,
    inverse: bool,
}

impl Style {
    fn is_plain(&self) -> bool {
        *self == Style::default()
    }

    /// `<span class="ds-ansi …">`: `ds-ansi-fg-N`/`ds-ansi-bg-N` (N 0-15, swapped
    /// under inverse), `ds-ansi-bold`, `-dim`, `-italic`, `-underline`, `-inverse`.
    fn open(&self, out: &mut String) {
        let (fg, bg) = if self.inverse {
            (self.bg, self.fg)
        } else {
            (self.fg, self.bg)
        };
        out.raw("<span class=\"ds-ansi");
        if let Some(n) = fg {
            out.raw(" ds-ansi-fg-").num(u64::from(n));
        }
        if let Some(n) = bg {
            out.raw(" ds-ansi-bg-").num(u64::from(n));
        }
        for (on, class) in [
            (self.bold, " ds-ansi-bold"),
            (self.dim, " ds-ansi-dim"),
            (self.italic, " ds-ansi-italic"),
            (self.underline, " ds-ansi-underline"),
            (self.inverse, " ds-ansi-inverse"),
        ] {
            if on {
                out.raw(class);
            }
        }
        out.raw("\">");
    }

    /// Applies one SGR sequence's parameters (`ESC [ … m`), colon and semicolon forms.
    fn apply(&mut self, params: &Params) {
        let mut it = params.iter();
        if params.is_empty() {
            *self = Style::default();
            return;
        }
        while let Some(p) = it.next() {
            let Some(&code) = p.first() else { continue };
            match code {
                0 => *self = Style::default(),
                1 => self.bold = true,
                2 => self.dim = true,
                3 => self.italic = true,
                // `4:0` is underline off; other `4:n` are its styles.
                4 => self.underline = p.get(1) != Some(&0),
                7 => self.inverse = true,
                21 => self.underline = true,
                22 => (self.bold, self.dim) = (false, false),
                23 => self.italic = false,
                24 => self.underline = false,
                27 => self.inverse = false,
                30..=37 => self.fg = Some((code - 30) as u8),
                39 => self.fg = None,
                40..=47 => self.bg = Some((code - 40) as u8),
                49 => self.bg = None,
                90..=97 => self.fg = Some((code - 90 + 8) as u8),
                100..=107 => self.bg = Some((code - 100 + 8) as u8),
                38 | 48 => {
                    let colour = if p.len() > 1 {
                        // Colon form: 38:5:n, 38:2:r:g:b or 38:2:space:r:g:b.
                        match p[1] {
                            5 => p.get(2).map(|&n| indexed(n)),
                            2 => {
                                let rgb = &p[2..];
                                let rgb = if rgb.len() >= 4 { &rgb[1..] } else { rgb };
                                (rgb.len() >= 3).then(|| nearest(rgb[0], rgb[1], rgb[2]))
                            }
                            _ => None,
                        }
                    } else {
                        // Semicolon form: the next parameters.
                        match it.next().and_then(|p| p.first().copied()) {
                            Some(5) => it.next().and_then(|p| p.first()).map(|&n| indexed(n)),
                            Some(2) => {
                                let mut c = || it.next().and_then(|p| p.first().copied());
                                match (c(), c(), c()) {
                                    (Some(r), Some(g), Some(b)) => Some(nearest(r, g, b)),
                                    _ => None,
                                }
                            }
                            _ => None,
                        }
                    };
                    if let Some(c) = colour {
                        if code == 38 {
                            self.fg = Some(c);
                        } else {
                            self.bg = Some(c);
                        }
                    }
                }
                // Blink, conceal, strike, fonts, overline …: not shown.
                _ => {}
            }
        }
    }
}

/// The xterm default palette: what the 16 colours are taken to be when another colour
/// is matched to the nearest of them.
const PALETTE: [(u16, u16, u16); 16] = [
    (0, 0, 0),
    (205, 0, 0),
    (0, 205, 0),
    (205, 205, 0),
    (0, 0, 238),
    (205, 0, 205),
    (0, 205, 205),
    (229, 229, 229),
    (127, 127, 127),
    (255, 0, 0),
    (0, 255, 0),
    (255, 255, 0),
    (92, 92, 255),
    (255, 0, 255),
    (0, 255, 255),
    (255, 255, 255),
];

/// A 256-colour index as the nearest of the 16 (the 6×6×6 cube and the grey ramp as
/// xterm draws them).
fn indexed(n: u16) -> u8 {
    match n {
        0..=15 => n as u8,
        16..=231 => {
            let n = n - 16;
            let level = |v: u16| if v == 0 { 0 } else { 55 + v * 40 };
            nearest(level(n / 36), level(n / 6 % 6), level(n % 6))
        }
        232..=255 => {
            let v = 8 + (n - 232) * 10;
            nearest(v, v, v)
        }
        _ => 7,
    }
}

/// The palette index nearest to a 24-bit colour ("redmean" weighted distance).
fn nearest(r: u16, g: u16, b: u16) -> u8 {
    let (r, g, b) = (
        i32::from(r.min(255)),
        i32::from(g.min(255)),
        i32::from(b.min(255)),
    );
    let mut best = (i32::MAX, 0u8);
    for (i, &(pr, pg, pb)) in PALETTE.iter().enumerate() {
        let (pr, pg, pb) = (i32::from(pr), i32::from(pg), i32::from(pb));
        let mean = (r + pr) / 2;
        let (dr, dg, db) = (r - pr, g - pg, b - pb);
        let d = (((512 + mean) * dr * dr) >> 8) + 4 * dg * dg + (((767 - mean) * db * db) >> 8);
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

/// Terminal output as plain text and the styles over it: `runs` says from which byte of
/// `text` on a style holds (in order; the first from 0).
#[derive(Debug, Default)]
pub(crate) struct Styled<'a> {
    pub(crate) text: Cow<'a, str>,
    runs: Vec<(usize, Style)>,
}

struct Collect {
    text: String,
    runs: Vec<(usize, Style)>,
    style: Style,
    cr: bool,
    c1_csi: bool,
}

impl Collect {
    fn push(&mut self, c: char) {
        if self.cr {
            self.cr = false;
            self.text.push('\n');
            if c == '\n' {
                return;
            }
        }
        match c {
            '\r' => self.cr = true,
            '\n' | '\t' => self.text.push(c),
            // A C1 CSI as a character: the caller feeds `ESC [` in its place.
            '\u{9b}' => self.c1_csi = true,
            c if c.is_control() => {}
            c => self.text.push(c),
        }
    }
}

impl Perform for Collect {
    fn print(&mut self, c: char) {
        self.push(c);
    }

    fn execute(&mut self, byte: u8) {
        self.push(char::from(byte));
    }

    fn csi_dispatch(&mut self, params: &Params, intermediates: &[u8], ignore: bool, action: u8) {
        // SGR only; cursor moves, erases, modes … are dropped.
        if action != b'm' || ignore || !intermediates.is_empty() {
            return;
        }
        let mut style = self.style;
        style.apply(params);
        if style != self.style {
            self.style = style;
            let at = self.text.len();
            match self.runs.last_mut() {
                Some(last) if last.0 == at => last.1 = style,
                _ => self.runs.push((at, style)),
            }
        }
    }
}

/// Parses terminal output: SGR styles kept, every other escape sequence (cursor moves,
/// OSC titles and hyperlinks — their text stays, DCS) and control character but tab and
/// line feed dropped, CR LF and lone CR as line feeds. Text without any is borrowed,
/// after one scan.
pub(crate) fn parse_ansi(s: &str) -> Styled<'_> {
    if is_clean(s) {
        return Styled {
            text: Cow::Borrowed(s),
            runs: Vec::new(),
        };
    }
    let mut parser = Parser::<anstyle_parse::Utf8Parser>::new();
    let mut c = Collect {
        text: String::with_capacity(s.len()),
        runs: Vec::new(),
        style: Style::default(),
        cr: false,
        c1_csi: false,
    };
    for &b in s.as_bytes() {
        parser.advance(&mut c, b);
        if c.c1_csi {
            c.c1_csi = false;
            parser.advance(&mut c, 0x1b);
            parser.advance(&mut c, b'[');
        }
    }
    if c.cr {
        c.text.push('\n');
    }
    // Styles that end where the text ends show nothing.
    while c.runs.last().is_some_and(|r| r.0 == c.text.len()) {
        c.runs.pop();
    }
    Styled {
        text: Cow::Owned(c.text),
        runs: c.runs,
    }
}

fn is_clean(s: &str) -> bool {
    // C0 controls but tab and line feed, DEL, and the lead byte of C1 controls (U+0080
    // to U+009F, and other characters that share it).
    s.bytes()
        .all(|b| (b >= 0x20 || b == b'\n' || b == b'\t') && b != 0x7f && b != 0xc2)
}

impl Styled<'_> {
    /// Writes `text[range]`, escaped, with the styles over it as spans (a span is closed
    /// at the end of the range and opened again at the start of the next).
    pub(crate) fn push_html(&self, range: std::ops::Range<usize>, out: &mut String) {
        let (start, end) = (range.start, range.end);
        // The style in force at `start`.
        let first = self.runs.partition_point(|r| r.0 <= start);
        let mut style = if first == 0 {
            Style::default()
        } else {
            self.runs[first - 1].1
        };
        let mut at = start;
        let open = |style: &Style, out: &mut String| {
            if !style.is_plain() {
                style.open(out);
                true
            } else {
                false
            }
        };
        let mut is_open = open(&style, out);
        for &(from, next) in &self.runs[first..] {
            if from >= end {
                break;
            }
            out.text(&self.text[at..from]);
            if is_open {
                out.raw("</span>");
            }
            style = next;
            is_open = open(&style, out);
            at = from;
        }
        out.text(&self.text[at..end]);
        if is_open {
            out.raw("</span>");
        }
    }
}

/// Splits an output into (head, hidden middle, tail) when it has more than
/// [`MAX_LINES`] lines; `None` when it is short enough to show whole.
pub(crate) fn head_tail(s: &str) -> Option<(&str, &str, &str)> {
    let lines: Vec<usize> = s.match_indices('\n').map(|(i, _)| i + 1).collect();
    if lines.len() <= MAX_LINES {
        return None;
    }
    let head_end = lines[KEEP_LINES - 1];
    let tail_start = lines[lines.len() - KEEP_LINES - 1];
    Some((&s[..head_end], &s[head_end..tail_start], &s[tail_start..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colours() {
        assert_eq!(strip_ansi("\u{1b}[31mred\u{1b}[0m ok\r\n"), "red ok\n");
        assert_eq!(strip_ansi("\u{1b}]0;title\u{7}x"), "x");
    }

    fn html(s: &str) -> String {
        let styled = parse_ansi(s);
        let mut out = String::new();
        styled.push_html(0..styled.text.len(), &mut out);
        out
    }

    #[test]
    fn sgr_becomes_classes() {
        let cases = [
            (
                "\u{1b}[1;32mok\u{1b}[0m",
                "<span class=\"ds-ansi ds-ansi-fg-2 ds-ansi-bold\">ok</span>",
            ),
            (
                "\u{1b}[91ma\u{1b}[39mb",
                "<span class=\"ds-ansi ds-ansi-fg-9\">a</span>b",
            ),
            (
                "\u{1b}[38;5;196mx\u{1b}[m",
                "<span class=\"ds-ansi ds-ansi-fg-9\">x</span>",
            ),
            (
                "\u{1b}[38;5;4mx",
                "<span class=\"ds-ansi ds-ansi-fg-4\">x</span>",
            ),
            (
                "\u{1b}[48;2;0;0;0mx",
                "<span class=\"ds-ansi ds-ansi-bg-0\">x</span>",
            ),
            (
                "\u{1b}[38:2::255:255:255mx",
                "<span class=\"ds-ansi ds-ansi-fg-15\">x</span>",
            ),
            (
                "\u{1b}[38:2:0:255:0mx",
                "<span class=\"ds-ansi ds-ansi-fg-10\">x</span>",
            ),
            (
                "\u{1b}[7;31mx\u{1b}[27my",
                "<span class=\"ds-ansi ds-ansi-bg-1 ds-ansi-inverse\">x</span><span class=\"ds-ansi ds-ansi-fg-1\">y</span>",
            ),
            (
                "\u{1b}[2;3;4mx\u{1b}[22;23;24my",
                "<span class=\"ds-ansi ds-ansi-dim ds-ansi-italic ds-ansi-underline\">x</span>y",
            ),
            // A style that changes nothing visible, or ends where the text ends.
            ("a\u{1b}[31m", "a"),
            ("\u{1b}[0mplain", "plain"),
            // Malformed extended colours are ignored, the rest of the sequence kept.
            ("\u{1b}[38;5m\u{1b}[38;2;1mx", "x"),
            (
                "\u{1b}[38;9;1;4mx",
                "<span class=\"ds-ansi ds-ansi-bold ds-ansi-underline\">x</span>",
            ),
            // Text is escaped inside and outside spans.
            (
                "\u{1b}[31m<b>&\u{1b}[0m<i>",
                "<span class=\"ds-ansi ds-ansi-fg-1\">&lt;b&gt;&amp;</span>&lt;i&gt;",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(html(input), expected, "input {input:?}");
        }
    }

    #[test]
    fn other_sequences_are_dropped_and_their_text_kept() {
        let cases = [
            ("\u{1b}]0;title\u{7}x", "x"),
            (
                "\u{1b}]8;;https://e.com\u{1b}\\link\u{1b}]8;;\u{1b}\\ y",
                "link y",
            ),
            ("\u{1b}[2J\u{1b}[H\u{1b}[3;4Hxy\u{1b}[K\u{1b}[?25l", "xy"),
            ("\u{1b}P1$r0m\u{1b}\\z", "z"),
            ("\u{1b}(Ba\u{1b}=b\u{1b}7c", "abc"),
            ("a\r\nb\rc\u{8}d\u{7}\u{0}", "a\nb\ncd"),
            ("\u{9b}31mred\u{9b}0m", "red"),
            ("unterminated \u{1b}[31", "unterminated "),
            ("\u{1b}]0;never ends", ""),
            (
                "caf\u{e9} \u{1b}[1m\u{1F600}\u{1b}[0m",
                "caf\u{e9} \u{1F600}",
            ),
        ];
        for (input, expected) in cases {
            assert_eq!(strip_ansi(input), expected, "input {input:?}");
        }
        assert_eq!(
            html("\u{9b}31mred\u{9b}0m"),
            "<span class=\"ds-ansi ds-ansi-fg-1\">red</span>"
        );
    }

    #[test]
    fn a_range_opens_the_style_in_force() {
        let styled = parse_ansi("a\u{1b}[35mb\nc\nd\u{1b}[0me");
        let part = |r: std::ops::Range<usize>| {
            let mut out = String::new();
            styled.push_html(r, &mut out);
            out
        };
        assert_eq!(styled.text, "ab\nc\nde");
        assert_eq!(
            part(0..3),
            "a<span class=\"ds-ansi ds-ansi-fg-5\">b\n</span>"
        );
        assert_eq!(
            part(3..5),
            "<span class=\"ds-ansi ds-ansi-fg-5\">c\n</span>"
        );
        assert_eq!(part(5..7), "<span class=\"ds-ansi ds-ansi-fg-5\">d</span>e");
    }

    #[test]
    fn every_prefix_renders_and_the_whole_is_the_same() {
        // An output that grows a byte at a time, cut inside every escape: each state
        // renders (no panic, no escape leaks), and the last is the one-shot render.
        let s = "\u{1b}[1;38;5;208mA\u{1b}]8;;u\u{1b}\\B\u{1b}[0m\r\n\u{9b}4mC\u{1b}[24m";
        for (i, _) in s.char_indices() {
            let h = html(&s[..i]);
            assert!(
                !h.contains('\u{1b}') && !h.contains('\u{9b}'),
                "{:?}",
                &s[..i]
            );
        }
        assert_eq!(
            html(s),
            "<span class=\"ds-ansi ds-ansi-fg-3 ds-ansi-bold\">AB</span>\n<span class=\"ds-ansi ds-ansi-underline\">C</span>"
        );
    }

    #[test]
    fn cuts_long_output() {
        let s: String = (0..500).map(|i| format!("{i}\n")).collect();
        let (h, m, t) = head_tail(&s).unwrap();
        assert_eq!(format!("{h}{m}{t}"), s);
        assert_eq!(h.lines().count(), KEEP_LINES);
    }
}
