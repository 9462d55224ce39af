//! Web search and fetch (`tool_call`): titles linked through the URL policy (only
//! http(s) addresses become links), their domains and snippets; a fetched page's
//! address and its text, folded when long.

use super::fold_text;
use crate::RenderOptions;
use crate::escape::Markup;
use crate::url::{UrlVerdict, check_link, normalise};
use docstream_model::{WebFetchView, WebSearchView};

/// A link to an http(s) address the policy allows; anything else is text.
fn link(out: &mut String, url: &str, title: &str) {
    let n = normalise(url).to_ascii_lowercase();
    let web = n.starts_with("http://") || n.starts_with("https://");
    if web && check_link(url) == UrlVerdict::Allowed {
        out.raw("<a class=\"ds-web-link\" href=\"")
            .text(url)
            .raw("\" rel=\"noopener noreferrer\">")
            .text(title)
            .raw("</a>");
    } else {
        out.raw("<span class=\"ds-link-blocked\">")
            .text(title)
            .raw("</span>");
        if title != url {
            out.raw(" <span class=\"ds-link-url\">(")
                .text(url)
                .raw(")</span>");
        }
    }
    if let Some(d) = domain(url) {
        out.raw(" <span class=\"ds-domain\">")
            .text(d)
            .raw("</span>");
    }
}

/// The results with their links, then the search's answer, Markdown written by
/// `markdown`.
pub(super) fn search(
    w: &WebSearchView,
    _opts: &RenderOptions,
    out: &mut String,
    markdown: &mut dyn FnMut(&str, &mut String),
) {
    if !w.links.is_empty() {
        out.raw("<ul class=\"ds-web-results\">");
        for r in &w.links {
            out.raw("<li class=\"ds-web-result\">");
            link(out, &r.url, &r.title);
            if let Some(s) = &r.snippet {
                out.raw("<div class=\"ds-snippet\">").text(s).raw("</div>");
            }
            out.raw("</li>");
        }
        out.raw("</ul>");
    }
    if let Some(t) = &w.text {
        markdown(t, out);
    }
}

pub(super) fn fetch(f: &WebFetchView, text: Option<&str>, opts: &RenderOptions, out: &mut String) {
    if let Some(url) = &f.url {
        out.raw("<div class=\"ds-fetch-url\">");
        link(out, url, url);
        if let Some(code) = f.code {
            out.raw(" <span class=\"ds-http-code\">HTTP ")
                .num(code)
                .raw("</span>");
        }
        out.raw("</div>");
    }
    if let Some(t) = text {
        fold_text(out, t, opts);
    }
}

/// The host of an http(s) address (`docs.rs`), for showing a link's domain.
fn domain(url: &str) -> Option<&str> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?;
    let host = host.strip_prefix("www.").unwrap_or(host);
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains() {
        assert_eq!(
            domain("https://www.rust-lang.org/learn"),
            Some("rust-lang.org")
        );
        assert_eq!(domain("javascript:alert(1)"), None);
    }
}
