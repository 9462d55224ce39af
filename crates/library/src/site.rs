//! A static site of a listing: `index.html` (every conversation, and a search over all
//! of them), one page per conversation under `c/`, and their scripts and styles. It
//! needs no server: the search data is a script file (`search-data.js`), not fetched,
//! so the site works from `file://` as well as from any static host. No inline script
//! or style: every page carries a strict Content-Security-Policy.
//!
//! [`Site`] collects pages as conversations are rendered (one at a time, so a large
//! store is never held whole) and [`Site::finish`] returns the remaining files.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::digest::Digest;
use crate::{Entry, one_line};
use docstream_html::escape::escape;
use docstream_html::page::STYLESHEET;
use docstream_html::{RenderOptions, render_conversation};
use docstream_model::Conversation;

/// The index page's script: search over `search-data.js`.
const SEARCH_JS: &str = include_str!("../../../assets/site/search.js");
/// The conversation page's script: opens the document a `#fragment` names.
const CONVERSATION_JS: &str = include_str!("../../../assets/site/conversation.js");
/// The site's own styles (the transcript's come from the docstream stylesheet).
const SITE_CSS: &str = include_str!("../../../assets/site/site.css");

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src https: data:; base-uri 'none'; form-action 'none'";

/// What every text of an exported site passes before it is written: the hook for
/// masking secrets (the CLI's masks them with `docstream-redact`). [`KeepAll`] keeps
/// every text.
pub trait Mask {
    /// The conversation with its texts masked, and the count of each kind of value
    /// masked in it (for its page's header); `None` keeps it as it is.
    fn conversation(
        &mut self,
        conversation: &Conversation,
    ) -> Option<(Conversation, Vec<(&'static str, u64)>)>;
    /// A text of the listing masked: a title (cut to a line, ending in `…` when cut),
    /// a project folder, an error.
    fn text(&mut self, text: &str) -> String;
}

/// A [`Mask`] that keeps every text.
#[derive(Debug, Clone, Copy, Default)]
pub struct KeepAll;

impl Mask for KeepAll {
    fn conversation(
        &mut self,
        _: &Conversation,
    ) -> Option<(Conversation, Vec<(&'static str, u64)>)> {
        None
    }
    fn text(&mut self, text: &str) -> String {
        text.to_owned()
    }
}

/// `entry` with its texts passed through `mask` (ids, counts and dates stay).
pub fn masked_entry(entry: &Entry, mask: &mut dyn Mask) -> Entry {
    let mut e = entry.clone();
    e.title = mask.text(&e.title);
    e.project = e.project.as_deref().map(|p| mask.text(p));
    e.error = e.error.as_deref().map(|x| mask.text(x));
    e
}

/// One file of the site: a path relative to the site's folder, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Relative path with `/` separators (`index.html`, `c/abc.html`).
    pub path: String,
    /// Contents.
    pub text: String,
}

/// What the search script gets of one conversation.
#[derive(Serialize)]
struct Record<'a> {
    id: &'a str,
    href: Option<String>,
    title: &'a str,
    agent: &'static str,
    project: Option<&'a str>,
    created: Option<&'a str>,
    messages: usize,
    tools: usize,
    /// Files edited and commands run, searched like the text.
    paths: &'a [String],
    commands: &'a [String],
    /// `[anchor, text]` pairs.
    parts: Vec<(&'a str, &'a str)>,
}

/// A site being written.
pub struct Site {
    title: String,
    options: RenderOptions,
    /// Every entry of the listing, in order.
    all: Vec<Entry>,
    /// The page name of each readable entry, by id.
    names: HashMap<String, String>,
    /// (conversation id, tool call id) → document id, of the pages added so far.
    calls: HashMap<(String, String), String>,
    /// Ids whose page was added.
    pages: HashSet<String>,
    records: Vec<String>,
}

/// A file name for an id: letters, digits, `.`, `-` and `_` kept, unique among `taken`
/// (compared without case, for file systems that ignore it). The Markdown export names
/// its files the same way.
pub fn file_name(id: &str, taken: &mut HashSet<String>) -> String {
    let base: String = id
        .chars()
        .take(80)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = if base.is_empty() || base.starts_with('.') {
        format!("c{base}")
    } else {
        base
    };
    let mut name = base.clone();
    let mut n = 1;
    while !taken.insert(name.to_ascii_lowercase()) {
        n += 1;
        name = format!("{base}-{n}");
    }
    name
}

fn head(title: &str, root: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n<title>{}</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" href=\"{root}docstream.css\">\n<link rel=\"stylesheet\" href=\"{root}site.css\">\n",
        escape(title)
    )
}

fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn facts(e: &Entry) -> String {
    let mut out = vec![e.agent.label().to_owned()];
    if let Some(p) = &e.project {
        out.push(p.clone());
    }
    if let Some(c) = &e.created {
        out.push(c.get(..16).unwrap_or(c).replace('T', " "));
    } else if e.no_times {
        out.push("no times recorded".to_owned());
    }
    if e.error.is_none() {
        out.push(plural(e.messages, "message"));
        out.push(plural(e.tools, "tool call"));
    }
    escape(&out.join(" · "))
}

impl Site {
    /// A site titled `title` for the entries `all`. Add each readable entry's page with
    /// [`Site::add`] in listing order (a sub-agent after the conversation that started
    /// it), then call [`Site::finish`].
    pub fn new(title: &str, options: RenderOptions, all: &[Entry]) -> Site {
        let mut taken = HashSet::new();
        let names = all
            .iter()
            .filter(|e| e.error.is_none())
            .map(|e| (e.id.clone(), file_name(&e.id, &mut taken)))
            .collect();
        Site {
            title: title.to_owned(),
            options,
            all: all.to_vec(),
            names,
            calls: HashMap::new(),
            pages: HashSet::new(),
            records: Vec::new(),
        }
    }

    fn href(&self, id: &str, root: &str) -> Option<String> {
        self.names.get(id).map(|n| format!("{root}c/{n}.html"))
    }

    /// A link to a conversation's page from another page.
    fn link(&self, id: &str, anchor: Option<&str>) -> String {
        let title = self
            .all
            .iter()
            .find(|e| e.id == id)
            .map_or(id, |e| e.title.as_str());
        match self.href(id, "../") {
            Some(h) => {
                let h = match anchor {
                    Some(a) => format!("{h}#{a}"),
                    None => h,
                };
                format!("<a href=\"{}\">{}</a>", escape(&h), escape(title))
            }
            None => escape(title),
        }
    }

    /// Adds a readable entry's page (it must be one of the listing's).
    /// With `masked` (the kinds of values masked in it and their counts), the page's
    /// facts say what was masked.
    pub fn add(
        &mut self,
        entry: &Entry,
        conversation: &Conversation,
        digest: &Digest,
        masked: Option<&[(&'static str, u64)]>,
    ) -> File {
        let href = self.href(&entry.id, "").unwrap_or_default();
        self.pages.insert(entry.id.clone());
        for (call, doc) in &digest.calls {
            self.calls
                .insert((entry.id.clone(), call.clone()), doc.clone());
        }
        let record = Record {
            id: &entry.id,
            href: Some(href.clone()),
            title: &entry.title,
            agent: entry.agent.label(),
            project: entry.project.as_deref(),
            created: entry.created.as_deref(),
            messages: entry.messages,
            tools: entry.tools,
            paths: &digest.paths,
            commands: &digest.commands,
            parts: digest
                .parts
                .iter()
                .map(|p| (p.anchor.as_str(), p.text.as_str()))
                .collect(),
        };
        // A record serialises (strings and numbers only).
        self.records
            .push(serde_json::to_string(&record).unwrap_or_default());

        let mut html = head(&entry.title, "../");
        html.push_str("<script src=\"../conversation.js\" defer></script>\n</head>\n<body class=\"ds-page dss-conversation\">\n<header class=\"dss-bar\">\n<a href=\"../index.html\">← All conversations</a>\n");
        html.push_str(&format!(
            "<h1>{}</h1>\n<p class=\"dss-facts\">{}</p>\n",
            escape(&entry.title),
            facts(entry)
        ));
        // Who ran it where, when, and what it added up to.
        let facts = docstream_html::page::page_facts(conversation, &self.options);
        html.push_str(&match masked {
            Some(counts) => docstream_html::page::with_masked_fact(facts, &self.options, counts),
            None => facts,
        });
        if let Some(p) = &entry.parent {
            let doc = p.tool_call_id.as_ref().and_then(|c| {
                self.calls
                    .get(&(p.conversation.clone(), c.clone()))
                    .cloned()
            });
            // The link leads to the call; its raw id (`toolu_…`) is no label.
            html.push_str(&format!(
                "<p class=\"dss-parent\">Started by {}</p>\n",
                self.link(&p.conversation, doc.as_deref())
            ));
        }
        if !entry.children.is_empty() {
            html.push_str("<nav class=\"dss-children\" aria-label=\"Sub-agents\"><span>Sub-agents:</span><ul>\n");
            for c in &entry.children {
                // The call that started it, so the page can link it from there.
                let doc = self
                    .all
                    .iter()
                    .find(|e| &e.id == c)
                    .and_then(|e| e.parent.as_ref()?.tool_call_id.as_ref())
                    .and_then(|call| digest.calls.iter().find(|(k, _)| k == call).map(|(_, d)| d));
                match doc {
                    Some(d) => html.push_str(&format!(
                        "<li data-doc=\"{}\">{}</li>\n",
                        escape(d),
                        self.link(c, None)
                    )),
                    None => html.push_str(&format!("<li>{}</li>\n", self.link(c, None))),
                }
            }
            html.push_str("</ul></nav>\n");
        }
        html.push_str("</header>\n<main>\n");
        let body = render_conversation(conversation, &self.options);
        html.push_str(&docstream_html::page::dressed(&body, true));
        html.push_str("</main>\n</body>\n</html>\n");
        File {
            path: href,
            text: html,
        }
    }

    /// The index page, the search data and the shared assets; `all` is the listing as
    /// it ends up (with the counts found while reading).
    pub fn finish(self, all: &[Entry]) -> Vec<File> {
        let mut index = head(&self.title, "");
        index.push_str("<script src=\"search-data.js\" defer></script>\n<script src=\"search.js\" defer></script>\n</head>\n<body class=\"dss-index\">\n<header class=\"dss-bar\">\n");
        index.push_str(&format!(
            "<h1>{}</h1>\n<p class=\"dss-facts\">{} · written by docstream</p>\n",
            escape(&self.title),
            plural(all.len(), "conversation")
        ));
        index.push_str("<form class=\"dss-search\" role=\"search\"><label for=\"q\">Search all conversations</label> <input id=\"q\" type=\"search\" placeholder=\"text, a file path, a command\" autocomplete=\"off\"> <output id=\"count\" for=\"q\"></output></form>\n</header>\n<main>\n<ol id=\"results\" class=\"dss-results\" hidden></ol>\n<ul id=\"list\" class=\"dss-list\">\n");
        for e in all {
            let class = match (&e.error, &e.parent) {
                (Some(_), _) => "dss-row dss-error",
                (None, Some(_)) => "dss-row dss-sub",
                _ => "dss-row",
            };
            index.push_str(&format!(
                "<li class=\"{class}\" data-id=\"{}\">",
                escape(&e.id)
            ));
            match self.href(&e.id, "").filter(|_| self.pages.contains(&e.id)) {
                Some(h) => index.push_str(&format!(
                    "<a href=\"{}\">{}</a>",
                    escape(&h),
                    escape(&e.title)
                )),
                None => index.push_str(&format!("<span>{}</span>", escape(&e.title))),
            }
            index.push_str(&format!(" <span class=\"dss-facts\">{}</span>", facts(e)));
            if let Some(err) = &e.error {
                index.push_str(&format!(
                    "<div class=\"dss-error-text\">{}</div>",
                    escape(&one_line(err, 300))
                ));
            }
            index.push_str("</li>\n");
        }
        index.push_str("</ul>\n</main>\n</body>\n</html>\n");
        let data = format!(
            "// Generated by docstream export: what index.html searches.\nwindow.DOCSTREAM_SEARCH = [\n{}\n];\n",
            self.records.join(",\n")
        );
        let file = |path: &str, text: String| File {
            path: path.to_owned(),
            text,
        };
        vec![
            file("index.html", index),
            file("search-data.js", data),
            file("search.js", SEARCH_JS.to_owned()),
            file("conversation.js", CONVERSATION_JS.to_owned()),
            file("site.css", SITE_CSS.to_owned()),
            file("docstream.css", STYLESHEET.to_owned()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_unique() {
        let mut taken = HashSet::new();
        assert_eq!(file_name("abc-1", &mut taken), "abc-1");
        assert_eq!(file_name("ABC-1", &mut taken), "ABC-1-2");
        assert_eq!(file_name("../x y", &mut taken), "c.._x_y");
        assert_eq!(file_name("", &mut taken), "c");
    }
}
