//! Safety of the rendered HTML (SPEC §5), checked with a real HTML5 parser over the
//! shared attack vectors (`../shared/corpora/md-url-vectors.json`, read in place), and
//! pathological Markdown rendered without blow-up.

use docstream_testkit as support;

use docstream_core::{DocStream, Format, Options};
use docstream_html::markdown::{MarkdownOptions, render_markdown};
use docstream_html::{RenderOptions, render_conversation};
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

const ELEMENTS: &[&str] = &[
    "html",
    "head",
    "body",
    "p",
    "a",
    "em",
    "strong",
    "del",
    "code",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "blockquote",
    "hr",
    "br",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "input",
    "span",
    "img",
    "div",
    "sup",
    "main",
    "section",
    "header",
    "footer",
    "div",
    "figure",
    "figcaption",
    "button",
    "details",
    "summary",
    "dl",
    "dt",
    "dd",
    "time",
    "small",
    "ins",
    "mark",
    "label",
];
const ATTRIBUTES: &[&str] = &[
    "href",
    "title",
    "rel",
    "class",
    "id",
    "type",
    "checked",
    "disabled",
    "tabindex",
    "align",
    "start",
    "src",
    "alt",
    "loading",
    "referrerpolicy",
    "aria-label",
];

/// WHATWG URL preprocessing, then the scheme, lower-cased.
fn scheme(url: &str) -> Option<String> {
    let trimmed = url.trim_matches(|c: char| c <= ' ');
    let cleaned: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let colon = cleaned.find(':')?;
    let before = &cleaned[..colon];
    if before.is_empty()
        || !before.starts_with(|c: char| c.is_ascii_alphabetic())
        || !before
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        return None;
    }
    Some(before.to_ascii_lowercase())
}

/// Origins the image policy allows in this test (the vectors' "allowed" hosts).
const ALLOWED_IMAGE_ORIGINS: &[&str] =
    &["https://allowed.example", "https://allowed-proxy.example"];

/// True when an image source loads from one of [`ALLOWED_IMAGE_ORIGINS`], judged as a
/// browser would: after URL preprocessing, the authority must be exactly an allowed
/// host (no user-info, no backslash, no longer host sharing the prefix).
fn image_allowed(src: &str) -> bool {
    let cleaned: String = src
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    ALLOWED_IMAGE_ORIGINS.iter().any(|origin| {
        cleaned.len() > origin.len()
            && cleaned[..origin.len()].eq_ignore_ascii_case(origin)
            && cleaned.as_bytes()[origin.len()] == b'/'
    })
}

fn check(node: &Handle, id: &str, problems: &mut Vec<String>, text: &mut String) {
    match &node.data {
        NodeData::Element { name, attrs, .. } => {
            let tag = name.local.to_string();
            if !ELEMENTS.contains(&tag.as_str()) {
                problems.push(format!("{id}: element <{tag}>"));
            }
            for a in attrs.borrow().iter() {
                let attr = a.name.local.to_string();
                let data = attr.starts_with("data-") || attr.starts_with("aria-");
                if !data && !ATTRIBUTES.contains(&attr.as_str()) {
                    problems.push(format!("{id}: attribute {attr} on <{tag}>"));
                }
                if attr == "href" || attr == "src" {
                    if let Some(s) = scheme(&a.value) {
                        if !matches!(s.as_str(), "http" | "https" | "mailto") {
                            problems.push(format!("{id}: {attr}={:?}", &*a.value));
                        }
                    }
                }
                if tag == "img" && attr == "src" && !image_allowed(&a.value) {
                    problems.push(format!("{id}: image loaded from {:?}", &*a.value));
                }
                if tag == "a" && attr == "href" {
                    let rel = attrs
                        .borrow()
                        .iter()
                        .any(|r| &*r.name.local == "rel" && &*r.value == "noopener noreferrer");
                    if !rel {
                        problems.push(format!("{id}: link without rel=noopener noreferrer"));
                    }
                }
            }
        }
        NodeData::Text { contents } => text.push_str(&contents.borrow()),
        _ => {}
    }
    for child in node.children.borrow().iter() {
        check(child, id, problems, text);
    }
}

fn parse(html: &str) -> RcDom {
    html5ever::parse_document(RcDom::default(), Default::default())
        .from_utf8()
        .read_from(&mut html.as_bytes())
        .unwrap()
}

/// The raw-HTML tags of a vector (`<…>` runs starting with a letter, `/` or `!`), which
/// must reach the reader as text.
fn raw_tags(markdown: &str) -> Vec<&str> {
    let mut tags = Vec::new();
    let mut rest = markdown;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else { break };
        if after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!') {
            tags.push(&rest[open..open + 1 + close + 1]);
        }
        rest = &after[close + 1..];
    }
    tags
}

/// A whole response whose documents carry the vector: as a Markdown text document, and
/// (for the terminal class) as a command's output.
fn response_with(markdown: &str) -> String {
    serde_json::json!({
        "id": "r", "status": "completed",
        "documents": [
            { "id": "t", "type": "text", "sequence": 1, "content": markdown,
              "metadata": { "format": "markdown" } },
            { "id": "c", "type": "terminal_command", "sequence": 2, "content": null,
              "metadata": { "command": markdown, "exitCode": 0, "output": markdown } }
        ]
    })
    .to_string()
}

/// The oracle of `md-url-vectors.json`: every element and attribute allowlisted, every
/// URL-bearing attribute http(s), mailto or relative after WHATWG preprocessing, images
/// only from allowed origins, links with `rel`, and the attack text shown, not dropped.
#[test]
fn attack_vectors_render_safely() {
    let Some(path) = support::shared("corpora/md-url-vectors.json") else {
        support::skip("md-url-vectors.json");
        return;
    };
    let corpus: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let options = RenderOptions {
        image_origins_allowed: ALLOWED_IMAGE_ORIGINS
            .iter()
            .map(|o| o.to_string())
            .collect(),
        ..RenderOptions::default()
    };
    let mut problems = Vec::new();
    let vectors = corpus["vectors"].as_array().unwrap();
    assert!(vectors.len() >= 60, "the corpus shrank: {}", vectors.len());
    for v in vectors {
        let id = v["id"].as_str().unwrap();
        let md = v["markdown"].as_str().unwrap();
        let mut stream = DocStream::new(Options {
            format: Some(Format::ResponseJson),
            ..Options::default()
        });
        stream.push(response_with(md).as_bytes()).unwrap();
        stream.finish().unwrap();
        let html = render_conversation(stream.conversation(), &options);
        let mut text = String::new();
        check(&parse(&html).document, id, &mut problems, &mut text);
        // The attack text is escaped, not silently dropped.
        let literal = !matches!(
            v["cls"].as_str(),
            Some("scheme" | "entity" | "whitespace" | "unicode" | "attr")
        );
        if literal {
            for tag in raw_tags(md) {
                if !text.contains(tag) {
                    problems.push(format!("{id}: {tag:?} is not shown as text"));
                }
            }
        }
        if md.contains("SECRET_TOKEN_123") && !text.contains("SECRET_TOKEN_123") {
            problems.push(format!("{id}: the URL is not shown to the reader"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn pathological_markdown_does_not_blow_up() {
    let Some(path) = support::shared("corpora/pathological-markdown.json") else {
        support::skip("pathological-markdown.json");
        return;
    };
    let corpus: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for case in corpus["cases"].as_array().unwrap() {
        if case.get("expand").is_none() {
            continue;
        }
        let input = support::expand(case["expand"].as_array().unwrap());
        let html = render_markdown(&input, &MarkdownOptions::default());
        assert!(
            html.len() <= 20 * input.len() + 1000,
            "{}: {} bytes of HTML from {} bytes",
            case["id"],
            html.len(),
            input.len()
        );
    }
}
