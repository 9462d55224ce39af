//! Web tools: a search to a [`WebSearchView`] (its links and any text answer), a
//! fetch to a [`WebFetchView`].

use serde_json::Value;

use super::fields::{field, named_text, text_field, u64_field};
use crate::model::{ViewText, WebFetchView, WebLink, WebSearchView};

/// A web search: its query, the links of its results and any text answer.
pub(super) fn web_search(args: &Value, data: Option<&Value>) -> WebSearchView {
    let query = text_field(args, &["query", "searchTerm", "search_term", "q"]);
    let mut links = Vec::new();
    let mut texts = Vec::new();
    if let Some(d) = data {
        collect_links(d, &mut links, &mut texts, 0);
    }
    WebSearchView {
        query: query.map(str::to_owned),
        links,
        text: (!texts.is_empty()).then(|| texts.join("\n\n")),
    }
}

/// Links (`{title, url}` objects, in `references`, `results`, `content` …) and texts.
fn collect_links(v: &Value, links: &mut Vec<WebLink>, texts: &mut Vec<String>, depth: u8) {
    if depth > 4 {
        return;
    }
    match v {
        Value::String(s) if !s.trim().is_empty() => texts.push(s.clone()),
        Value::Array(items) => items
            .iter()
            .for_each(|i| collect_links(i, links, texts, depth + 1)),
        Value::Object(_) => {
            if let Some(url) = text_field(v, &["url", "link", "uri", "href"]) {
                links.push(WebLink {
                    title: text_field(v, &["title", "name"]).unwrap_or(url).to_owned(),
                    url: url.to_owned(),
                    snippet: text_field(v, &["snippet", "chunk", "description", "summary"])
                        .map(str::to_owned),
                });
                return;
            }
            for key in ["references", "results", "content", "links", "sources"] {
                if let Some(inner) = field(v, &[key]) {
                    collect_links(inner, links, texts, depth + 1);
                }
            }
            if let Some(s) = text_field(v, &["text", "answer", "output"]) {
                texts.push(s.to_owned());
            }
        }
        _ => {}
    }
}

/// A fetched page: its address, what was asked about it, its text and HTTP status.
pub(super) fn web_fetch(args: &Value, data: Option<&Value>) -> WebFetchView {
    WebFetchView {
        url: text_field(args, &["url", "uri", "href"])
            .or_else(|| data.and_then(|d| text_field(d, &["url"])))
            .map(str::to_owned),
        prompt: text_field(args, &["prompt", "query"]).map(str::to_owned),
        text: data.and_then(|d| match d {
            Value::String(_) => Some(ViewText::InResult(String::new())),
            _ => named_text(d, &["result", "markdown", "content", "text", "body"])
                .map(|(_, name)| ViewText::InResult(format!("/{name}"))),
        }),
        code: data.and_then(|d| u64_field(d, &["code", "status", "statusCode"])),
    }
}
