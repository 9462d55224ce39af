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
        s += &format!(" {}=\"{}\"", a.name(), crate::escape::escape(v));
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
        let t = crate::escape::escape(text);
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
