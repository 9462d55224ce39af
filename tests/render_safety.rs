//! Safety of the rendered HTML (SPEC §5), checked with a real HTML5 parser over the
//! shared attack vectors (`../shared/corpora/md-url-vectors.json`, read in place), and
//! pathological Markdown rendered without blow-up.

mod support;

use docstream::render::markdown::{MarkdownOptions, render_markdown};
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
    "align",
    "start",
    "src",
    "alt",
    "loading",
    "referrerpolicy",
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

fn check(node: &Handle, id: &str, problems: &mut Vec<String>, text: &mut String) {
    match &node.data {
        NodeData::Element { name, attrs, .. } => {
            let tag = name.local.to_string();
            if !ELEMENTS.contains(&tag.as_str()) {
                problems.push(format!("{id}: element <{tag}>"));
            }
            if tag == "img" {
                problems.push(format!(
                    "{id}: an image was loaded without an allowed origin"
                ));
            }
            for a in attrs.borrow().iter() {
                let attr = a.name.local.to_string();
                if !ATTRIBUTES.contains(&attr.as_str()) {
                    problems.push(format!("{id}: attribute {attr} on <{tag}>"));
                }
                if attr == "href" || attr == "src" {
                    if let Some(s) = scheme(&a.value) {
                        if !matches!(s.as_str(), "http" | "https" | "mailto") {
                            problems.push(format!("{id}: {attr}={:?}", &*a.value));
                        }
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

#[test]
fn attack_vectors_render_safely() {
    let Some(path) = support::shared("corpora/md-url-vectors.json") else {
        support::skip("md-url-vectors.json");
        return;
    };
    let corpus: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut problems = Vec::new();
    for v in corpus["vectors"].as_array().unwrap() {
        let id = v["id"].as_str().unwrap();
        let md = v["markdown"].as_str().unwrap();
        let html = render_markdown(md, &MarkdownOptions::default());
        let dom = parse(&html);
        let mut text = String::new();
        check(&dom.document, id, &mut problems, &mut text);
        // Raw HTML is shown as text, not dropped.
        if v["cls"] == "raw-html" && !md.trim().is_empty() && text.trim().is_empty() {
            problems.push(format!("{id}: raw HTML dropped instead of shown as text"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Builds an input from its structured form: `lit`, `rep` × `n`, and `seq` [a, b) loops
/// whose body may use the loop index as `n: "i"`.
fn expand_parts(parts: &[serde_json::Value], index: u64, out: &mut String) {
    for part in parts {
        if let Some(lit) = part["lit"].as_str() {
            out.push_str(lit);
        } else if let Some(rep) = part["rep"].as_str() {
            let n = part["n"].as_u64().unwrap_or(index) as usize;
            out.push_str(&rep.repeat(n));
        } else if let Some(seq) = part["seq"].as_array() {
            let (a, b) = (seq[0].as_u64().unwrap(), seq[1].as_u64().unwrap());
            for i in a..b {
                expand_parts(part["body"].as_array().unwrap(), i, out);
            }
        }
    }
}

fn expand(case: &serde_json::Value) -> String {
    let mut s = String::new();
    expand_parts(case["expand"].as_array().unwrap(), 0, &mut s);
    s
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
        let input = expand(case);
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
