//! Markdown to safe HTML with pulldown-cmark (SPEC §5).
//!
//! Raw HTML from the source is turned into escaped text; link targets pass the
//! [`url`](crate::url) policy and carry `rel="noopener noreferrer"`; images load only
//! from allowed origins, otherwise a placeholder shows the alt text and the URL; fence
//! languages become sanitised `language-…` classes; headings get stable anchors.

use std::cell::Cell;
use std::collections::HashMap;

use linkify::{LinkFinder, LinkKind};
use pulldown_cmark::{
    Alignment, CodeBlockKind, CowStr, Event, LinkType, Options, Parser, Tag, TagEnd,
};
use unicase::UniCase;

use crate::escape::{class_fragment, escape, push_escaped};
use crate::labels::{Label, Locale, label};
use crate::url::{UrlVerdict, check_image, check_link};

thread_local! {
    static MARKDOWN_BYTES: Cell<u64> = const { Cell::new(0) };
}

/// Total bytes of Markdown handed to pulldown-cmark by this thread so far (a work
/// counter for tests).
pub fn markdown_bytes_rendered() -> u64 {
    MARKDOWN_BYTES.with(Cell::get)
}

/// Options for one Markdown rendering.
#[derive(Debug, Clone, Default)]
pub struct MarkdownOptions<'a> {
    /// Origins (`https://host[:port]`) whose images may be loaded.
    pub image_origins_allowed: &'a [String],
    /// Prefix of heading anchors and footnote ids (the document id), so that ids of
    /// documents differ.
    pub anchor_prefix: &'a str,
    /// The language of the few labels Markdown output carries (a footnote's way back).
    pub locale: Locale,
}

/// Block quotes deeper than this are not nested further (their content still shows).
const MAX_QUOTE_DEPTH: usize = 32;
/// About what a link's tags add besides its target (`<a href="" rel="noopener
/// noreferrer"></a>`), for the link budget.
const LINK_MARKUP: usize = 42;
/// Link markup allowed per byte of source.
const LINK_MARKUP_PER_BYTE: usize = 6;

/// The GitHub-flavoured Markdown docstream reads (the Markdown export checks its output
/// with the same).
pub(crate) fn parser_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_GFM
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_MATH
}

/// A heading anchor slug: letters (ASCII ones in lower case) and digits, runs of others
/// become `-`. (Unicode lower-casing would bring 26 KB of tables into the wasm module.)
fn slug(text: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c.to_ascii_lowercase());
        } else {
            dash = true;
        }
    }
    if out.is_empty() {
        out.push_str("section");
    }
    out
}

/// Renders Markdown to safe HTML.
pub fn render_markdown(source: &str, options: &MarkdownOptions<'_>) -> String {
    render_markdown_with(source, options, &mut Slugs::default())
}

/// Heading anchors used so far in a document, so that a later block's anchors do not
/// repeat an earlier block's.
pub type Slugs = HashMap<String, usize>;

/// Renders one block of a larger Markdown text, carrying heading anchors in `slugs`.
pub fn render_markdown_with(
    source: &str,
    options: &MarkdownOptions<'_>,
    slugs: &mut Slugs,
) -> String {
    let mut html = String::with_capacity(source.len() * 3 / 2);
    render_markdown_into(source, options, slugs, &mut html);
    html
}

/// Renders one block of a larger Markdown text into `out`, carrying heading anchors in
/// `slugs`.
pub fn render_markdown_into(
    source: &str,
    options: &MarkdownOptions<'_>,
    slugs: &mut Slugs,
    out: &mut String,
) {
    if source.is_empty() {
        return;
    }
    MARKDOWN_BYTES.with(|n| n.set(n.get() + source.len() as u64));
    let events = autolink(Parser::new_ext(source, parser_options()).collect());
    let mut out_events: Vec<Event<'_>> = Vec::with_capacity(events.len());
    let mut link_ends: Vec<String> = Vec::new();
    let mut notes = Footnotes::number(&events, options);
    // Markup a link may add, in all: past it links show as their text, so that a
    // source dense with links (`[a] ` repeated after one definition) cannot make HTML
    // over about ten times its size.
    let mut link_budget = source.len().saturating_mul(LINK_MARKUP_PER_BYTE);
    // Block quotes nested deeper than this are shown at this depth.
    let mut quote_depth = 0usize;
    let mut i = 0;
    while i < events.len() {
        let ev = &events[i];
        match ev {
            Event::FootnoteReference(name) => {
                out_events.push(Event::InlineHtml(notes.reference(name).into()));
            }
            Event::Start(Tag::FootnoteDefinition(name)) => {
                notes.open = Some((out_events.len(), notes.number_of(name)));
                out_events.push(Event::InlineHtml(notes.definition_start(name).into()));
            }
            Event::End(TagEnd::FootnoteDefinition) => notes.definition_end(&mut out_events),
            Event::Html(h) | Event::InlineHtml(h) => {
                out_events.push(Event::Text(h.clone()));
            }
            // A formula is its TeX as code; where MathML can be had, it is shown beside
            // (render/math.rs, the element's math module).
            Event::InlineMath(tex) | Event::DisplayMath(tex) => {
                let display = matches!(ev, Event::DisplayMath(_));
                out_events.push(Event::InlineHtml(CowStr::Borrowed(if display {
                    "<code class=\"ds-math ds-math-display\">"
                } else {
                    "<code class=\"ds-math\">"
                })));
                out_events.push(Event::Text(tex.clone()));
                out_events.push(Event::InlineHtml(CowStr::Borrowed("</code>")));
            }
            Event::Start(Tag::HtmlBlock) | Event::End(TagEnd::HtmlBlock) => {
                // Raw HTML blocks become a paragraph of text.
                let open = matches!(ev, Event::Start(_));
                out_events.push(Event::InlineHtml(CowStr::Borrowed(if open {
                    "<p class=\"ds-raw-html\">"
                } else {
                    "</p>\n"
                })));
            }
            Event::Start(Tag::BlockQuote(_)) => {
                quote_depth += 1;
                if quote_depth <= MAX_QUOTE_DEPTH {
                    out_events.push(ev.clone());
                }
            }
            Event::End(TagEnd::BlockQuote(_)) => {
                if quote_depth <= MAX_QUOTE_DEPTH {
                    out_events.push(ev.clone());
                }
                quote_depth = quote_depth.saturating_sub(1);
            }
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) if link_budget < LINK_MARKUP + 2 * dest_url.len() + title.len() => {
                link_budget = 0;
                link_ends.push(String::new());
            }
            Event::Start(Tag::Link {
                dest_url, title, ..
            }) => {
                link_budget -= LINK_MARKUP + 2 * dest_url.len() + title.len();
                if check_link(dest_url) == UrlVerdict::Allowed {
                    let mut tag = String::from("<a href=\"");
                    push_escaped(&mut tag, dest_url);
                    tag.push('"');
                    if !title.is_empty() {
                        tag.push_str(" title=\"");
                        push_escaped(&mut tag, title);
                        tag.push('"');
                    }
                    tag.push_str(" rel=\"noopener noreferrer\">");
                    out_events.push(Event::InlineHtml(tag.into()));
                    link_ends.push("</a>".to_owned());
                } else {
                    let mut tag = String::from("<span class=\"ds-link-blocked\" title=\"");
                    push_escaped(&mut tag, dest_url);
                    tag.push_str("\">");
                    out_events.push(Event::InlineHtml(tag.into()));
                    // The blocked target stays readable as text after the link text.
                    let mut end = String::from("<span class=\"ds-link-url\"> (");
                    push_escaped(&mut end, dest_url);
                    end.push_str(")</span></span>");
                    link_ends.push(end);
                }
            }
            Event::End(TagEnd::Link) => {
                let end = link_ends.pop().unwrap_or_default();
                if !end.is_empty() {
                    out_events.push(Event::InlineHtml(end.into()));
                }
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                let mut alt = String::new();
                let mut depth = 1;
                i += 1;
                while i < events.len() {
                    match &events[i] {
                        Event::Start(_) => depth += 1,
                        Event::End(_) => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                            alt.push_str(t)
                        }
                        _ => {}
                    }
                    i += 1;
                }
                let mut tag = String::new();
                if check_image(dest_url, options.image_origins_allowed) == UrlVerdict::Allowed {
                    tag.push_str("<img src=\"");
                    push_escaped(&mut tag, dest_url);
                    tag.push_str("\" alt=\"");
                    push_escaped(&mut tag, &alt);
                    tag.push('"');
                    if !title.is_empty() {
                        tag.push_str(" title=\"");
                        push_escaped(&mut tag, title);
                        tag.push('"');
                    }
                    tag.push_str(" loading=\"lazy\" referrerpolicy=\"no-referrer\">");
                } else {
                    tag.push_str(
                        "<span class=\"ds-image-placeholder\"><span class=\"ds-image-alt\">",
                    );
                    push_escaped(&mut tag, &alt);
                    tag.push_str("</span> <span class=\"ds-image-url\">");
                    push_escaped(&mut tag, dest_url);
                    tag.push_str("</span></span>");
                }
                out_events.push(Event::InlineHtml(tag.into()));
            }
            Event::Start(Tag::Heading { level, .. }) => {
                let mut text = String::new();
                let mut j = i + 1;
                while j < events.len() && !matches!(events[j], Event::End(TagEnd::Heading(_))) {
                    if let Event::Text(t) | Event::Code(t) = &events[j] {
                        text.push_str(t);
                    }
                    j += 1;
                }
                let base = slug(&text);
                let n = slugs.entry(base.clone()).or_insert(0);
                let anchor = if *n == 0 { base } else { format!("{base}-{n}") };
                *n += 1;
                let mut tag = format!("<{level} id=\"");
                if !options.anchor_prefix.is_empty() {
                    push_escaped(&mut tag, &class_fragment(options.anchor_prefix));
                    tag.push('-');
                }
                push_escaped(&mut tag, &anchor);
                tag.push_str("\">");
                out_events.push(Event::InlineHtml(tag.into()));
            }
            Event::End(TagEnd::Heading(level)) => {
                out_events.push(Event::InlineHtml(format!("</{level}>\n").into()));
            }
            Event::TaskListMarker(checked) => {
                // A task's box, named (pulldown-cmark's has no label for screen readers).
                let name = label(
                    options.locale,
                    if *checked {
                        Label::TaskDone
                    } else {
                        Label::TaskOpen
                    },
                );
                let mut tag = String::from("<input type=\"checkbox\" disabled=\"\"");
                if *checked {
                    tag.push_str(" checked=\"\"");
                }
                tag.push_str(" aria-label=\"");
                push_escaped(&mut tag, name);
                tag.push_str("\"> ");
                out_events.push(Event::InlineHtml(tag.into()));
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => {
                        info.split_whitespace().next().unwrap_or("").to_owned()
                    }
                    CodeBlockKind::Indented => String::new(),
                };
                let tag = if lang.is_empty() {
                    "<pre><code>".to_owned()
                } else {
                    format!("<pre><code class=\"language-{}\">", class_fragment(&lang))
                };
                out_events.push(Event::InlineHtml(tag.into()));
            }
            Event::End(TagEnd::CodeBlock) => {
                out_events.push(Event::InlineHtml("</code></pre>\n".into()));
            }
            other => out_events.push(other.clone()),
        }
        i += 1;
    }
    // The parser's events are not needed past here: dropped before the table passes, a
    // block holds two lists of its events at a time, not three.
    drop(events);
    let out_events = aligned_by_class(drop_padding_cells(out_events));
    pulldown_cmark::html::push_html(out, out_events.into_iter());
}

/// The footnotes of one rendering: numbers in order of first reference (definitions
/// never referred to come after), and the ids that link references and definitions.
struct Footnotes<'o> {
    numbers: HashMap<UniCase<String>, usize>,
    /// Numbers up to this one have references (the others only definitions).
    referenced: usize,
    /// References to each number so far (a second reference gets its own id).
    refs: HashMap<usize, usize>,
    /// The definition being written: where it starts in the output, and its number.
    open: Option<(usize, usize)>,
    options: &'o MarkdownOptions<'o>,
}

impl<'o> Footnotes<'o> {
    fn number(events: &[Event<'_>], options: &'o MarkdownOptions<'o>) -> Footnotes<'o> {
        let mut numbers = HashMap::new();
        let mut referenced = 0;
        for pass in [true, false] {
            if !pass {
                referenced = numbers.len();
            }
            for ev in events {
                let name = match ev {
                    Event::FootnoteReference(n) if pass => n,
                    Event::Start(Tag::FootnoteDefinition(n)) if !pass => n,
                    _ => continue,
                };
                let next = numbers.len() + 1;
                numbers
                    .entry(UniCase::new(name.to_string()))
                    .or_insert(next);
            }
        }
        Footnotes {
            numbers,
            referenced,
            refs: HashMap::new(),
            open: None,
            options,
        }
    }

    fn number_of(&self, name: &str) -> usize {
        self.numbers
            .get(&UniCase::new(name.to_owned()))
            .copied()
            .unwrap_or(0)
    }

    /// `<prefix>-fn-<n>`, the id of a definition (`fn`) or reference (`fnref`).
    fn id(&self, kind: &str, n: usize) -> String {
        let mut id = String::new();
        if !self.options.anchor_prefix.is_empty() {
            push_escaped(&mut id, &class_fragment(self.options.anchor_prefix));
            id.push('-');
        }
        id.push_str(kind);
        id.push('-');
        id.push_str(&n.to_string());
        id
    }

    fn reference(&mut self, name: &str) -> String {
        let n = self.number_of(name);
        let k = self.refs.entry(n).or_insert(0);
        *k += 1;
        let k = *k;
        let mut own = self.id("fnref", n);
        if k > 1 {
            own.push('-');
            own.push_str(&k.to_string());
        }
        format!(
            "<sup class=\"ds-fnref\"><a href=\"#{}\" id=\"{own}\">{n}</a></sup>",
            self.id("fn", n)
        )
    }

    fn definition_start(&self, name: &str) -> String {
        let n = self.number_of(name);
        format!(
            "<div class=\"ds-footnote\" id=\"{}\"><sup class=\"ds-footnote-label\">{n}</sup>",
            self.id("fn", n)
        )
    }

    /// Closes the definition, with the way back to its first reference at the end of its
    /// last paragraph (or on its own when it ends otherwise).
    fn definition_end(&mut self, out: &mut Vec<Event<'_>>) {
        let Some((start, n)) = self.open.take() else {
            return;
        };
        let mut back = String::new();
        if (1..=self.referenced).contains(&n) {
            let text = label(self.options.locale, Label::BackToReference);
            back = format!(
                " <a href=\"#{}\" class=\"ds-footnote-back\" aria-label=\"{text} {n}\">↩</a>",
                self.id("fnref", n)
            );
        }
        let last_paragraph = out[start..]
            .iter()
            .rposition(|e| matches!(e, Event::End(TagEnd::Paragraph)))
            .filter(|&at| start + at + 1 == out.len());
        match last_paragraph {
            Some(at) => out.insert(start + at, Event::InlineHtml(back.into())),
            None => out.push(Event::InlineHtml(back.into())),
        }
        out.push(Event::InlineHtml("</div>\n".into()));
    }
}

/// GitHub's extended autolinks: bare `http(s)://…` and `www.…` URLs and e-mail
/// addresses in text become links (then judged by the link policy like any other).
/// Text inside links, images and code is left alone; adjacent text events are joined
/// first, since the parser may cut a URL at a possible emphasis delimiter.
fn autolink(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut finder = LinkFinder::new();
    finder.url_must_have_scheme(false);
    let mut out = Vec::with_capacity(events.len());
    let mut text = String::new();
    let mut shielded = 0usize;
    let flush = |text: &mut String, out: &mut Vec<Event<'_>>| {
        if text.is_empty() {
            return;
        }
        let mut rest = 0;
        for link in finder.links(text) {
            let found = link.as_str();
            let dest = match link.kind() {
                LinkKind::Email => format!("mailto:{found}"),
                LinkKind::Url if found.contains("://") => {
                    if !(found.starts_with("http://") || found.starts_with("https://")) {
                        continue;
                    }
                    found.to_owned()
                }
                // Without a scheme GFM links only `www.` hosts (a file name such as
                // `main.rs` stays text).
                LinkKind::Url if found.starts_with("www.") => format!("http://{found}"),
                _ => continue,
            };
            if link.start() > rest {
                out.push(Event::Text(text[rest..link.start()].to_owned().into()));
            }
            out.push(Event::Start(Tag::Link {
                link_type: LinkType::Autolink,
                dest_url: dest.into(),
                title: CowStr::Borrowed(""),
                id: CowStr::Borrowed(""),
            }));
            out.push(Event::Text(found.to_owned().into()));
            out.push(Event::End(TagEnd::Link));
            rest = link.end();
        }
        if rest < text.len() {
            out.push(Event::Text(text[rest..].to_owned().into()));
        }
        text.clear();
    };
    for ev in events {
        match ev {
            Event::Text(t) if shielded == 0 => text.push_str(&t),
            other => {
                flush(&mut text, &mut out);
                match &other {
                    Event::Start(Tag::Link { .. } | Tag::Image { .. } | Tag::CodeBlock(_)) => {
                        shielded += 1
                    }
                    Event::End(TagEnd::Link | TagEnd::Image | TagEnd::CodeBlock) => {
                        shielded = shielded.saturating_sub(1)
                    }
                    _ => {}
                }
                out.push(other);
            }
        }
    }
    flush(&mut text, &mut out);
    out
}

/// Drops the empty cells the parser adds to pad a short body row to the table's width,
/// so that a wide header over many short rows cannot make the output grow with
/// rows × columns (a row with fewer cells displays the same).
fn drop_padding_cells(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    let mut row: Option<Vec<Event<'_>>> = None;
    for ev in events {
        match (&mut row, &ev) {
            (None, Event::Start(Tag::TableRow)) => row = Some(vec![ev]),
            (Some(r), Event::End(TagEnd::TableRow)) => {
                // Keep up to the end of the last cell with content.
                let mut keep = 1;
                let mut cell_has_content = false;
                for (i, e) in r.iter().enumerate() {
                    match e {
                        Event::Start(Tag::TableCell) => cell_has_content = false,
                        Event::End(TagEnd::TableCell) => {
                            if cell_has_content || keep == 1 {
                                keep = i + 1;
                            }
                        }
                        Event::Start(Tag::TableRow) => {}
                        _ => cell_has_content = true,
                    }
                }
                r.truncate(keep);
                out.append(r);
                out.push(ev);
                row = None;
            }
            (Some(r), _) => r.push(ev),
            (None, _) => out.push(ev),
        }
    }
    if let Some(mut r) = row {
        out.append(&mut r);
    }
    out
}

/// Table cells with their column's alignment as a class (`ds-align-right`) instead of
/// pulldown-cmark's `style` attribute, which a strict Content-Security-Policy refuses
/// (and reports).
fn aligned_by_class(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut align: Vec<Alignment> = Vec::new();
    let mut head = false;
    let mut column = 0;
    events
        .into_iter()
        .map(|ev| match ev {
            Event::Start(Tag::Table(a)) => {
                align = a;
                Event::Start(Tag::Table(Vec::new()))
            }
            Event::Start(Tag::TableHead) => {
                head = true;
                column = 0;
                ev
            }
            Event::End(TagEnd::TableHead) => {
                head = false;
                ev
            }
            Event::Start(Tag::TableRow) => {
                column = 0;
                ev
            }
            Event::Start(Tag::TableCell) => {
                let tag = if head { "th" } else { "td" };
                let class = match align.get(column) {
                    Some(Alignment::Left) => " class=\"ds-align-left\"",
                    Some(Alignment::Center) => " class=\"ds-align-center\"",
                    Some(Alignment::Right) => " class=\"ds-align-right\"",
                    _ => "",
                };
                column += 1;
                Event::InlineHtml(format!("<{tag}{class}>").into())
            }
            Event::End(TagEnd::TableCell) => {
                Event::InlineHtml(if head { "</th>" } else { "</td>" }.into())
            }
            other => other,
        })
        .collect()
}

/// Plain text as HTML paragraphs (for `format: plain`).
pub fn render_plain(source: &str) -> String {
    if source.is_empty() {
        return String::new();
    }
    format!("<pre class=\"ds-plain\">{}</pre>\n", escape(source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md(s: &str) -> String {
        render_markdown(s, &MarkdownOptions::default())
    }

    #[test]
    fn table_alignment_is_a_class_not_a_style() {
        let h = md("| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n");
        assert_eq!(
            h,
            "<table><thead><tr><th class=\"ds-align-left\">a</th><th class=\"ds-align-center\">b</th><th class=\"ds-align-right\">c</th><th>d</th></tr></thead><tbody>\n<tr><td class=\"ds-align-left\">1</td><td class=\"ds-align-center\">2</td><td class=\"ds-align-right\">3</td><td>4</td></tr>\n</tbody></table>\n"
        );
    }

    #[test]
    fn raw_html_is_text() {
        let h = md("<script>alert(1)</script>\n\nhi <b>x</b>");
        assert!(!h.contains("<script"), "{h}");
        assert!(!h.contains("<b>"), "{h}");
        assert!(h.contains("&lt;script&gt;"), "{h}");
    }

    #[test]
    fn links_are_checked() {
        let h = md("[a](javascript:alert(1)) [b](https://x.y)");
        assert!(!h.contains("href=\"javascript"), "{h}");
        assert!(
            h.contains("<a href=\"https://x.y\" rel=\"noopener noreferrer\">b</a>"),
            "{h}"
        );
    }

    #[test]
    fn images_are_placeholders() {
        let h = md("![cat](https://evil.example/x.png)");
        assert!(!h.contains("<img"), "{h}");
        assert!(h.contains("ds-image-placeholder"), "{h}");
    }

    #[test]
    fn headings_have_anchors_and_fences_safe_classes() {
        let h = md("# Hello World\n\n# Hello World\n\n```c\"x\nint\n```\n");
        assert!(h.contains("<h1 id=\"hello-world\">"), "{h}");
        assert!(h.contains("<h1 id=\"hello-world-1\">"), "{h}");
        assert!(h.contains("class=\"language-c-x\""), "{h}");
    }

    #[test]
    fn bare_urls_and_emails_become_links() {
        let h = md("See https://example.com/a_b_c, www.rust-lang.org and a@b.example.");
        assert!(
            h.contains("<a href=\"https://example.com/a_b_c\" rel=\"noopener noreferrer\">https://example.com/a_b_c</a>,"),
            "{h}"
        );
        assert!(h.contains("<a href=\"http://www.rust-lang.org\""), "{h}");
        assert!(h.contains("<a href=\"mailto:a@b.example\""), "{h}");
    }

    #[test]
    fn autolinks_leave_code_links_and_file_names_alone() {
        let h = md(
            "`https://a.example` [x https://b.example](https://c.example) main.rs\n\n```\nhttps://d.example\n```\n",
        );
        assert!(!h.contains("href=\"https://a.example"), "{h}");
        assert!(!h.contains("href=\"https://b.example"), "{h}");
        assert!(!h.contains("href=\"https://d.example"), "{h}");
        assert!(!h.contains("href=\"http://main.rs"), "{h}");
        assert_eq!(h.matches("<a ").count(), 1, "{h}");
    }

    #[test]
    fn autolinks_keep_other_schemes_as_text() {
        let h = md("ftp://files.example/x and javascript://x%0aalert(1)");
        assert!(!h.contains("<a "), "{h}");
    }

    #[test]
    fn footnotes_link_both_ways_under_the_document_prefix() {
        let src =
            "Second[^b] and first[^a], again[^b].\n\n[^a]: Note A.\n[^b]: Note B.\n[^c]: Unused.\n";
        let h = render_markdown(
            src,
            &MarkdownOptions {
                anchor_prefix: "doc-1",
                ..Default::default()
            },
        );
        assert!(
            h.contains("Second<sup class=\"ds-fnref\"><a href=\"#doc-1-fn-1\" id=\"doc-1-fnref-1\">1</a></sup>"),
            "numbered by first reference: {h}"
        );
        assert!(
            h.contains("first<sup class=\"ds-fnref\"><a href=\"#doc-1-fn-2\" id=\"doc-1-fnref-2\">2</a></sup>"),
            "{h}"
        );
        assert!(
            h.contains("again<sup class=\"ds-fnref\"><a href=\"#doc-1-fn-1\" id=\"doc-1-fnref-1-2\">1</a></sup>"),
            "a second reference has its own id: {h}"
        );
        assert!(
            h.contains("<div class=\"ds-footnote\" id=\"doc-1-fn-2\"><sup class=\"ds-footnote-label\">2</sup>\n<p>Note A. <a href=\"#doc-1-fnref-2\" class=\"ds-footnote-back\" aria-label=\"Back to reference 2\">↩</a></p>\n</div>"),
            "{h}"
        );
        assert!(h.contains("id=\"doc-1-fn-3\""), "{h}");
        assert!(
            !h.contains("#doc-1-fnref-3"),
            "an unused note has no way back: {h}"
        );
        let other = render_markdown(
            src,
            &MarkdownOptions {
                anchor_prefix: "doc-2",
                locale: Locale::De,
                ..Default::default()
            },
        );
        assert!(other.contains("id=\"doc-2-fn-1\""), "{other}");
        assert!(
            other.contains("aria-label=\"Zurück zum Verweis 1\""),
            "{other}"
        );
    }

    #[test]
    fn a_footnote_reference_without_definition_stays_text() {
        let h = md("See [^x] and [^y](https://a.example).");
        assert!(h.contains("See [^x] and"), "{h}");
        assert!(!h.contains("ds-fnref"), "{h}");
    }

    #[test]
    fn footnote_labels_match_whatever_their_case() {
        let h = md("Über[^Ä] and this[^note].\n\n[^ä]: Umlaut.\n[^NOTE]: Plain.\n");
        assert!(h.contains("href=\"#fn-1\""), "{h}");
        assert!(h.contains("href=\"#fn-2\""), "{h}");
        assert!(h.contains("id=\"fn-1\""), "{h}");
        assert!(h.contains("id=\"fn-2\""), "{h}");
        assert!(!h.contains("fn-0"), "every reference has its number: {h}");
    }

    #[test]
    fn heading_slugs_lower_ascii_and_keep_other_letters() {
        assert_eq!(slug("Über das API-Design 2"), "Über-das-api-design-2");
        assert_eq!(slug("¿?"), "section");
    }
}
