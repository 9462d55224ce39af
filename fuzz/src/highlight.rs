//! The `highlight` target: the CLI's colouring of code elements and diff views
//! (src/render/syntax.rs).

use docstream_html::escape::escape;
use docstream_html::syntax::highlight_html;

/// Fence languages and file extensions the pages name.
const LANGS: &[&str] = &[
    "rust",
    "python",
    "js",
    "javascript",
    "ts",
    "tsx",
    "html",
    "css",
    "json",
    "bash",
    "sh",
    "yaml",
    "toml",
    "c",
    "cpp",
    "go",
    "java",
    "rb",
    "php",
    "sql",
    "md",
    "diff",
    "xml",
    "ini",
    "lua",
    "swift",
    "kt",
    "hs",
    "scala",
    "svelte",
    "vue",
    "dockerfile",
    "makefile",
    "tex",
];

/// `html` without the token spans colouring adds.
fn uncoloured(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("<span class=\"ds-hl-") {
        out.push_str(&rest[..at]);
        let open_end = at + rest[at..].find('>').map_or(rest.len() - at, |e| e + 1);
        let close = open_end + rest[open_end..].find("</span>").unwrap_or(0);
        out.push_str(&rest[open_end..close]);
        rest = rest.get(close + "</span>".len()..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// The pages the renderer writes around `text` in `lang`: a code block of lines, a
/// code element without line markup, and a file edit's unified and split diff views.
fn pages(lang: &str, text: &str) -> String {
    let mut html = String::from("<pre class=\"ds-code\"><code class=\"language-");
    html.push_str(lang);
    html.push_str("\">");
    for (i, line) in text.split('\n').enumerate() {
        html.push_str(&format!(
            "<span class=\"ds-line\" data-ln=\"{}\">{}</span>\n",
            i + 1,
            escape(line)
        ));
    }
    html.push_str("</code></pre><p><code class=\"language-");
    html.push_str(lang);
    html.push_str("\">");
    html.push_str(&escape(text));
    html.push_str("</code></p><span class=\"ds-path\">src/file.");
    html.push_str(lang);
    html.push_str("</span><table class=\"ds-diff-unified\">\n");
    const ROWS: [&str; 3] = ["ds-diff-context", "ds-diff-removed", "ds-diff-added"];
    for (i, line) in text.split('\n').enumerate() {
        html.push_str(&format!(
            "<tr class=\"{}\"><td class=\"ds-ln\">{i}</td><td class=\"ds-diff-text\">{}</td></tr>\n",
            ROWS[i % 3],
            escape(line)
        ));
    }
    html.push_str("</table><table class=\"ds-diff-split\">\n");
    for (i, line) in text.split('\n').enumerate() {
        let left = if i % 2 == 0 {
            "ds-diff-removed"
        } else {
            "ds-diff-empty"
        };
        html.push_str(&format!(
            "<tr><td class=\"ds-diff-text {left}\">{0}</td><td class=\"ds-diff-text ds-diff-added\">{0}</td></tr>\n",
            escape(line)
        ));
    }
    html.push_str("</table>");
    html
}

/// The input's first byte picks a language, the rest is code: colouring the pages the
/// renderer writes around it adds token spans and changes nothing else. The input as
/// HTML of its own (cut tags, stray markers) is coloured too. Nothing panics, and no
/// grammar takes more than its budget (src/render/syntax.rs).
pub fn highlight(input: &[u8]) {
    let (lang, text) = match input {
        [b, rest @ ..] => (
            LANGS[usize::from(*b) % LANGS.len()],
            String::from_utf8_lossy(rest),
        ),
        [] => ("rust", "".into()),
    };
    let html = pages(lang, &text);
    let coloured = highlight_html(&html);
    assert!(
        uncoloured(&coloured) == html,
        "colouring changed the text of {lang} code"
    );
    let _ = highlight_html(&text);
}
