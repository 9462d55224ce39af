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
            } else if let Some(chunk) = text_field(v, &["chunk"]) {
                // Cursor's `webSearchToolCall`: one reference with no address whose
                // `chunk` is the answer, its sources listed first (`Links:` and
                // `1. [title](url)` lines).
                let answer = listed_links(chunk, links);
                if !answer.trim().is_empty() {
                    texts.push(answer.trim().to_owned());
                }
            }
        }
        _ => {}
    }
}

/// The text after a leading `Links:` list of Markdown links (`1. [title](url)`), whose
/// links are added to `links`; the whole text when it does not start so.
fn listed_links<'t>(text: &'t str, links: &mut Vec<WebLink>) -> &'t str {
    let mut rest = text.trim_start();
    let Some(after) = rest.strip_prefix("Links:") else {
        return text;
    };
    rest = after;
    loop {
        let (line, next) = rest
            .trim_start_matches([' ', '\t', '\r'])
            .split_once('\n')
            .unwrap_or((rest, ""));
        let line = line.trim();
        if line.is_empty() {
            if next.is_empty() {
                return next;
            }
            rest = next;
            // A blank line after the list ends it.
            if !links.is_empty() {
                return rest;
            }
            continue;
        }
        let item = line
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .strip_prefix(". ")
            .or_else(|| line.strip_prefix("- "));
        let Some((title, url)) = item
            .and_then(|i| i.strip_prefix('['))
            .and_then(|i| i.strip_suffix(')'))
            .and_then(|i| i.split_once("]("))
        else {
            return rest;
        };
        links.push(WebLink {
            title: if title.is_empty() { url } else { title }.to_owned(),
            url: url.to_owned(),
            snippet: None,
        });
        rest = next;
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_cursor_search_shows_its_answer_and_its_links() {
        // The shape of a real `webSearchToolCall` result.
        let data = json!({"references": [{
            "title": "Web search results for query: place.horse API",
            "url": "",
            "chunk": "Links:\n1. [API docs](https://theponyapi.com/docs)\n2. [Lorem Picsum](http://picsum.photos/)\n\nBased on your query about a **place.horse** API..."
        }]});
        let v = web_search(&json!({"searchTerm": "place.horse API"}), Some(&data));
        assert_eq!(v.query.as_deref(), Some("place.horse API"));
        let urls: Vec<&str> = v.links.iter().map(|l| l.url.as_str()).collect();
        assert_eq!(
            urls,
            ["https://theponyapi.com/docs", "http://picsum.photos/"]
        );
        assert_eq!(v.links[0].title, "API docs");
        assert_eq!(
            v.text.as_deref(),
            Some("Based on your query about a **place.horse** API...")
        );
        // A chunk without a list of links is the answer whole.
        let plain = json!({"references": [{"title": "t", "url": "", "chunk": "Just *text*"}]});
        let v = web_search(&json!({}), Some(&plain));
        assert_eq!((v.links.len(), v.text.as_deref()), (0, Some("Just *text*")));
        // A list that is all there is.
        let only =
            json!({"references": [{"url": "", "chunk": "Links:\n1. [a](https://a.example)"}]});
        let v = web_search(&json!({}), Some(&only));
        assert_eq!((v.links.len(), v.text), (1, None));
    }
}
