//! What a `tool_call` document says, read from its arguments and result whatever the
//! format: a file read, a search's matches grouped by file, web results, an MCP call.
//! The HTML renderers and the progress lines both read it, so they say the same.

use std::borrow::Cow;

use serde_json::Value;

use docstream_core::normalize::{ToolKind, kind_in, language_for_path};
use docstream_model::ToolCallMeta;

/// A `tool_call` document as a person reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolView<'a> {
    /// A file read.
    Read(ReadView<'a>),
    /// A search or listing: grep, glob, ls, codebase search.
    Search(SearchView<'a>),
    /// A web search.
    WebSearch(WebSearchView<'a>),
    /// A fetched web page.
    WebFetch(WebFetchView<'a>),
    /// A sub-agent started by the call (its run is a turn of its own).
    Subagent(SubagentView<'a>),
    /// A tool of an MCP server, or any other tool.
    Generic(GenericView<'a>),
}

/// A file read: path, lines, content.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadView<'a> {
    /// The file.
    pub path: &'a str,
    /// First line shown (1-based).
    pub start: u64,
    /// The text read, line numbers removed; `None` until the result came.
    pub content: Option<Cow<'a, str>>,
    /// Lines of the whole file, where the tool says.
    pub total_lines: Option<u64>,
    /// Lines asked for (`limit`), while the result is not there.
    pub limit: Option<u64>,
    /// Language from the path.
    pub language: &'static str,
}

/// What a search looked through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchKind {
    /// File contents (grep).
    Grep,
    /// File names (glob).
    Glob,
    /// A directory listing.
    List,
    /// The codebase, by meaning.
    Codebase,
}

/// One file of a search result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileGroup {
    /// The file's path.
    pub path: String,
    /// Matching lines: line number (where known) and text.
    pub lines: Vec<(Option<u64>, String)>,
    /// Matches in the file (at least the lines listed).
    pub count: u64,
}

/// A search or listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchView<'a> {
    /// What kind.
    pub kind: SearchKind,
    /// The pattern or query.
    pub query: Option<&'a str>,
    /// Where it looked.
    pub path: Option<&'a str>,
    /// Matches grouped by file, in the order given; `None` until the result came or
    /// when it could not be read (then it is shown as text or JSON).
    pub groups: Option<Vec<FileGroup>>,
}

impl SearchView<'_> {
    /// All matches (the files, for a listing).
    pub fn matches(&self) -> u64 {
        self.groups.as_ref().map_or(0, |g| {
            g.iter()
                .map(|f| f.count.max(1))
                .fold(0, u64::saturating_add)
        })
    }
}

/// One web result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebLink {
    /// Its title (the URL when there is none).
    pub title: String,
    /// Its address.
    pub url: String,
    /// A snippet.
    pub snippet: Option<String>,
}

/// A web search.
#[derive(Debug, Clone, PartialEq)]
pub struct WebSearchView<'a> {
    /// The query.
    pub query: Option<&'a str>,
    /// The results with links.
    pub links: Vec<WebLink>,
    /// A text answer, where the tool gives one.
    pub text: Option<String>,
}

/// A fetched page.
#[derive(Debug, Clone, PartialEq)]
pub struct WebFetchView<'a> {
    /// The address.
    pub url: Option<&'a str>,
    /// What the tool was asked about the page (Gemini CLI names the pages in it).
    pub prompt: Option<&'a str>,
    /// The page's text, as the tool returned it.
    pub text: Option<String>,
    /// The HTTP status, where the tool says.
    pub code: Option<u64>,
}

/// A sub-agent: what it was asked, and its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct SubagentView<'a> {
    /// What it was asked to do, in a few words.
    pub description: &'a str,
    /// The kind of agent, where named.
    pub agent_type: Option<&'a str>,
    /// The whole prompt.
    pub prompt: Option<&'a str>,
    /// Its final answer (Markdown), once the call's result came; the line Claude Code
    /// adds for resuming the agent (`agentId: …`) is left out.
    pub answer: Option<String>,
}

/// An MCP tool or a tool docstream has no view for.
#[derive(Debug, Clone, PartialEq)]
pub struct GenericView<'a> {
    /// The MCP server, where known.
    pub server: Option<Cow<'a, str>>,
    /// The tool's name.
    pub tool: Cow<'a, str>,
    /// The arguments (for an MCP call, those given to the server's tool).
    pub arguments: &'a Value,
    /// The result's text, where it is text.
    pub text: Option<String>,
}

fn field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v Value> {
    let obj = v.as_object()?;
    names
        .iter()
        .find_map(|n| obj.get(*n))
        .filter(|v| !v.is_null())
}

fn str_field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v str> {
    field(v, names)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn u64_field(v: &Value, names: &[&str]) -> Option<u64> {
    field(v, names).and_then(|v| {
        v.as_u64()
            .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .or_else(|| v.as_str()?.trim().parse().ok())
    })
}

const PATH: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "target_file",
    "targetFile",
    "absolute_path",
    "relativeWorkspacePath",
    "notebook_path",
    "file",
];

/// The call's kind as its format named it, else (a response saved by an earlier
/// version) by every format's names.
fn kind(m: &ToolCallMeta) -> ToolKind {
    m.tool_kind
        .unwrap_or_else(|| kind_in(docstream_core::formats::ANY_AGENT, &m.tool_name))
}

/// The view of a `tool_call` document.
pub fn tool_view(m: &ToolCallMeta) -> ToolView<'_> {
    let data = m.result.as_ref().map(|r| &r.data);
    let args = &m.arguments;
    if let Some(sub) = &m.subagent {
        return ToolView::Subagent(SubagentView {
            description: &sub.description,
            agent_type: sub.agent_type.as_deref(),
            prompt: str_field(args, &["prompt", "task", "instructions", "message"]),
            answer: data
                .and_then(|d| result_text(d).or_else(|| agent_messages(d)))
                .map(|t| without_resume_line(&t)),
        });
    }
    match kind(m) {
        ToolKind::Read => match read(args, data) {
            Some(v) => ToolView::Read(v),
            None => ToolView::Generic(generic(m)),
        },
        ToolKind::Grep => ToolView::Search(search(SearchKind::Grep, args, data)),
        ToolKind::Glob => ToolView::Search(search(SearchKind::Glob, args, data)),
        ToolKind::List => ToolView::Search(search(SearchKind::List, args, data)),
        ToolKind::CodebaseSearch => ToolView::Search(search(SearchKind::Codebase, args, data)),
        ToolKind::WebSearch => ToolView::WebSearch(web_search(args, data)),
        ToolKind::WebFetch => ToolView::WebFetch(WebFetchView {
            url: str_field(args, &["url", "uri", "href"])
                .or_else(|| data.and_then(|d| str_field(d, &["url"]))),
            prompt: str_field(args, &["prompt", "query"]),
            text: data.and_then(|d| match d {
                Value::String(s) => Some(s.clone()),
                _ => str_field(d, &["result", "markdown", "content", "text", "body"])
                    .map(str::to_owned),
            }),
            code: data.and_then(|d| u64_field(d, &["code", "status", "statusCode"])),
        }),
        _ => ToolView::Generic(generic(m)),
    }
}

/// The text of a result: a string, Cursor's `{content: [{text: {text}}]}`, MCP's
/// `{content: [{type: "text", text}]}` or a list of such blocks.
pub fn result_text(data: &Value) -> Option<String> {
    match data {
        Value::String(s) => Some(s.clone()),
        Value::Array(items) => {
            let texts: Option<Vec<&str>> = items
                .iter()
                .map(|i| {
                    i.as_str()
                        .or_else(|| str_field(i, &["text"]))
                        .or_else(|| field(i, &["text"]).and_then(|t| str_field(t, &["text"])))
                })
                .collect();
            texts.filter(|t| !t.is_empty()).map(|t| t.join("\n"))
        }
        Value::Object(_) => {
            let content = field(data, &["content"])?;
            result_text(content)
        }
        _ => None,
    }
}

/// The final messages of the agents a call started, as Codex's `agents_states` gives
/// them (`{<thread id>: {status, message}}`), one paragraph each.
fn agent_messages(data: &Value) -> Option<String> {
    let messages: Vec<&str> = data
        .as_object()?
        .values()
        .filter_map(|state| str_field(state, &["message"]))
        .filter(|m| !m.trim().is_empty())
        .collect();
    (!messages.is_empty()).then(|| messages.join("\n\n"))
}

/// A sub-agent's answer without the trailing `agentId: … (for resuming …)` line.
fn without_resume_line(text: &str) -> String {
    let trimmed = text.trim_end();
    match trimmed.rsplit_once('\n') {
        Some((head, last)) if last.starts_with("agentId: ") => head.trim_end().to_owned(),
        None if trimmed.starts_with("agentId: ") => String::new(),
        _ => trimmed.to_owned(),
    }
}

fn generic(m: &ToolCallMeta) -> GenericView<'_> {
    let args = &m.arguments;
    let text = m.result.as_ref().and_then(|r| result_text(&r.data));
    if let Some(rest) = m.tool_name.strip_prefix("mcp__") {
        let (server, tool) = rest.split_once("__").unwrap_or(("", rest));
        return GenericView {
            server: Some(Cow::Borrowed(server)).filter(|s| !s.is_empty()),
            tool: Cow::Borrowed(tool),
            arguments: args,
            text,
        };
    }
    if kind(m) == ToolKind::Mcp {
        let tool = str_field(args, &["toolName", "tool_name", "name", "tool"]).unwrap_or("tool");
        return GenericView {
            server: str_field(
                args,
                &["providerIdentifier", "serverName", "server_name", "server"],
            )
            .map(Cow::Borrowed),
            tool: Cow::Borrowed(tool),
            arguments: field(args, &["args", "arguments", "input"]).unwrap_or(args),
            text,
        };
    }
    GenericView {
        server: None,
        tool: Cow::Borrowed(&m.tool_name),
        arguments: args,
        text,
    }
}

/// `cat -n` style text (`     1\tline`, `     1→line`): the lines without their numbers
/// and the first number; `None` when not every line is numbered.
fn strip_numbers(text: &str) -> Option<(u64, String)> {
    let mut first = None;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        let rest = &t[digits..];
        let rest = rest
            .strip_prefix('\t')
            .or_else(|| rest.strip_prefix('→'))
            .or_else(|| rest.strip_prefix('|'))?;
        first.get_or_insert_with(|| t[..digits].parse().unwrap_or(1));
        out.push_str(rest);
        out.push('\n');
    }
    Some((first?, out))
}

fn read<'a>(args: &'a Value, data: Option<&'a Value>) -> Option<ReadView<'a>> {
    let file = data
        .and_then(|d| field(d, &["file"]))
        .filter(|f| f.is_object());
    let path = str_field(args, PATH)
        .or_else(|| file.and_then(|f| str_field(f, PATH)))
        .or_else(|| data.and_then(|d| str_field(d, PATH)))?;
    let offset = u64_field(args, &["offset", "start_line", "startLine", "line"]);
    let mut start = file
        .and_then(|f| u64_field(f, &["startLine", "start_line"]))
        .or(offset)
        .unwrap_or(1)
        .max(1);
    let text = file
        .and_then(|f| str_field(f, &["content"]))
        .or_else(|| data.and_then(|d| d.as_str()))
        .or_else(|| data.and_then(|d| str_field(d, &["content", "contents", "text", "output"])));
    let content = text.map(|t| match strip_numbers(t) {
        Some((first, stripped)) => {
            start = first.max(1);
            Cow::Owned(stripped)
        }
        None => Cow::Borrowed(t),
    });
    let content = match data {
        Some(_) => Some(content.unwrap_or(Cow::Borrowed(""))),
        None => None,
    };
    Some(ReadView {
        path,
        start,
        content,
        total_lines: file
            .and_then(|f| u64_field(f, &["totalLines", "total_lines"]))
            .or_else(|| data.and_then(|d| u64_field(d, &["totalLines", "total_lines"]))),
        limit: u64_field(args, &["limit", "lines", "end_line"]),
        language: language_for_path(path),
    })
}

fn search<'a>(kind: SearchKind, args: &'a Value, data: Option<&'a Value>) -> SearchView<'a> {
    let query = str_field(
        args,
        &[
            "pattern",
            "query",
            "globPattern",
            "glob_pattern",
            "glob",
            "regex",
            "searchTerm",
            "search_term",
        ],
    );
    let path = str_field(
        args,
        &[
            "path",
            "targetDirectory",
            "target_directory",
            "dir_path",
            "directory",
            "relative_workspace_path",
            "relativeWorkspacePath",
            "absolute_path",
        ],
    );
    let groups = data.and_then(|d| groups(kind, d));
    SearchView {
        kind,
        query,
        path,
        groups,
    }
}

/// A path-only group.
fn file(path: &str) -> FileGroup {
    FileGroup {
        path: path.to_owned(),
        lines: Vec::new(),
        count: 1,
    }
}

/// Matches grouped by file, from the shapes the tools return.
fn groups(kind: SearchKind, d: &Value) -> Option<Vec<FileGroup>> {
    // Cursor's grep: `{workspaceResults: {<root>: {content|files|count: …}}}`.
    if let Some(Value::Object(roots)) = field(d, &["workspaceResults"]) {
        let mut all = Vec::new();
        for r in roots.values() {
            all.extend(groups(kind, r)?);
        }
        return Some(all);
    }
    if let Some(c) = field(d, &["content"]).filter(|c| c.is_object()) {
        if let Some(Value::Array(files)) = field(c, &["matches"]) {
            return Some(
                files
                    .iter()
                    .filter_map(|f| {
                        let path = str_field(f, &["file", "path"])?;
                        let lines: Vec<(Option<u64>, String)> = field(f, &["matches"])
                            .and_then(Value::as_array)
                            .map(|ms| {
                                ms.iter()
                                    .map(|m| {
                                        (
                                            u64_field(m, &["lineNumber", "line"]),
                                            str_field(m, &["content", "text"])
                                                .unwrap_or_default()
                                                .to_owned(),
                                        )
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        Some(FileGroup {
                            path: path.to_owned(),
                            count: lines.len() as u64,
                            lines,
                        })
                    })
                    .collect(),
            );
        }
    }
    if let Some(Value::Object(files)) = field(d, &["files"]) {
        return groups(kind, &Value::Object(files.clone()));
    }
    if let Some(Value::Array(counts)) = field(d, &["counts"]).or_else(|| {
        field(d, &["count"])
            .filter(|c| c.is_object())
            .and_then(|c| field(c, &["counts"]))
    }) {
        return Some(
            counts
                .iter()
                .filter_map(|c| {
                    Some(FileGroup {
                        path: str_field(c, &["file", "path"])?.to_owned(),
                        lines: Vec::new(),
                        count: u64_field(c, &["count"]).unwrap_or(1),
                    })
                })
                .collect(),
        );
    }
    // Cursor's ls: a directory tree.
    if let Some(root) = field(d, &["directoryTreeRoot"]) {
        let mut out = Vec::new();
        let abs = str_field(root, &["absPath", "path"]).unwrap_or_default();
        tree(root, abs, &mut out);
        return Some(out);
    }
    // Claude Code's Grep in content mode: `file:line:text` lines.
    if let (Some("content"), Some(text)) = (str_field(d, &["mode"]), str_field(d, &["content"])) {
        return grep_lines(text);
    }
    // Lists of paths (`filenames`, `files`) or of results.
    if let Some(Value::Array(items)) = field(
        d,
        &[
            "filenames",
            "files",
            "paths",
            "results",
            "matches",
            "entries",
        ],
    ) {
        return Some(path_items(kind, items));
    }
    match d {
        Value::Array(items) => Some(path_items(kind, items)),
        Value::String(text) if kind == SearchKind::Grep => grep_lines(text),
        Value::String(text) if kind == SearchKind::List => dash_tree(text),
        Value::String(text) if kind == SearchKind::Glob => {
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            // Only a list of paths; a sentence ("Found 3 files") stays text.
            (!lines.is_empty() && lines.iter().all(|l| looks_like_path(l)))
                .then(|| lines.into_iter().map(file).collect())
        }
        _ => None,
    }
}

/// Paths or results: strings (`path` or `path:line`) or objects with a path.
fn path_items(kind: SearchKind, items: &[Value]) -> Vec<FileGroup> {
    let mut out: Vec<FileGroup> = Vec::new();
    for item in items {
        let (path, line, text) = match item {
            Value::String(s) => match s.rsplit_once(':') {
                Some((p, n)) if kind != SearchKind::Glob && n.parse::<u64>().is_ok() => {
                    (p.to_owned(), n.parse().ok(), String::new())
                }
                _ => (s.clone(), None, String::new()),
            },
            other => {
                let Some(p) = str_field(other, PATH).or_else(|| str_field(other, &["name", "uri"]))
                else {
                    continue;
                };
                let start = u64_field(other, &["startLine", "start_line", "lineNumber", "line"])
                    .or_else(|| {
                        field(other, &["range"])
                            .and_then(|r| field(r, &["startPosition", "start"]))
                            .and_then(|s| u64_field(s, &["line"]))
                    });
                let text = str_field(other, &["content", "text", "snippet"])
                    .and_then(|t| t.lines().find(|l| !l.trim().is_empty()))
                    .unwrap_or_default()
                    .trim()
                    .to_owned();
                (p.to_owned(), start, text)
            }
        };
        add_line(&mut out, path, line, text);
    }
    out
}

fn add_line(out: &mut Vec<FileGroup>, path: String, line: Option<u64>, text: String) {
    let has_line = line.is_some() || !text.is_empty();
    match out.last_mut().filter(|g| g.path == path) {
        Some(g) => {
            g.count += 1;
            if has_line {
                g.lines.push((line, text));
            }
        }
        None => out.push(FileGroup {
            path,
            lines: if has_line {
                vec![(line, text)]
            } else {
                Vec::new()
            },
            count: 1,
        }),
    }
}

/// A path: no whitespace, and a `/` or a `.` in it.
fn looks_like_path(s: &str) -> bool {
    !s.contains(char::is_whitespace) && s.contains(['/', '.'])
}

/// Grep output: `file:line:text` or `file:text` per line; `None` when a line is
/// neither (a sentence such as "Found 2 matches" stays text).
fn grep_lines(text: &str) -> Option<Vec<FileGroup>> {
    let mut out = Vec::new();
    for l in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut parts = l.splitn(3, ':');
        let (a, b, c) = (parts.next(), parts.next(), parts.next());
        match (a, b, c) {
            (Some(p), Some(n), Some(t)) if looks_like_path(p) && n.parse::<u64>().is_ok() => {
                add_line(&mut out, p.to_owned(), n.parse().ok(), t.to_owned());
            }
            (Some(p), Some(t), _) if looks_like_path(p) => {
                let t = c.map_or_else(|| t.to_owned(), |c| format!("{t}:{c}"));
                add_line(&mut out, p.to_owned(), None, t);
            }
            (Some(p), None, None) if looks_like_path(p.trim()) => {
                add_line(&mut out, p.trim().to_owned(), None, String::new());
            }
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Claude Code's `LS` text: `- /root/` then `  - dir/`, `    - file` by indentation;
/// the files as paths under the root. `None` for any other text.
fn dash_tree(text: &str) -> Option<Vec<FileGroup>> {
    let mut stack: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    let mut lines = text.lines().filter(|l| !l.trim().is_empty()).peekable();
    let root_indent = lines.peek().map(|l| l.len() - l.trim_start().len())?;
    for l in lines {
        let indent = l.len() - l.trim_start().len();
        let Some(name) = l.trim_start().strip_prefix("- ") else {
            // Claude Code adds a note after the tree; the tree ends there.
            if out.is_empty() && stack.len() <= 1 {
                return None;
            }
            break;
        };
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        if indent == root_indent && stack.is_empty() {
            stack.push((indent, String::new()));
            continue;
        }
        let parent = stack.last().map(|(_, p)| p.as_str()).unwrap_or_default();
        let path = format!("{parent}{name}");
        if name.ends_with('/') {
            stack.push((indent, path));
        } else {
            out.push(file(&path));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Cursor's directory tree: `{absPath, childrenDirs: [...], childrenFiles: [{name}]}`,
/// as paths relative to the listed directory.
fn tree(node: &Value, root: &str, out: &mut Vec<FileGroup>) {
    if out.len() > 10_000 {
        return;
    }
    let dir = str_field(node, &["absPath", "path", "name"]).unwrap_or_default();
    let rel = dir
        .strip_prefix(root)
        .map_or(dir, |r| r.trim_start_matches('/'));
    if let Some(Value::Array(files)) = field(node, &["childrenFiles", "files"]) {
        for f in files {
            if let Some(n) = f.as_str().or_else(|| str_field(f, &["name"])) {
                out.push(file(&if rel.is_empty() {
                    n.to_owned()
                } else {
                    format!("{rel}/{n}")
                }));
            }
        }
    }
    if let Some(Value::Array(dirs)) = field(node, &["childrenDirs", "dirs"]) {
        for d in dirs {
            tree(d, root, out);
        }
    }
}

fn web_search<'a>(args: &'a Value, data: Option<&'a Value>) -> WebSearchView<'a> {
    let query = str_field(args, &["query", "searchTerm", "search_term", "q"]);
    let mut links = Vec::new();
    let mut texts = Vec::new();
    if let Some(d) = data {
        collect_links(d, &mut links, &mut texts, 0);
    }
    WebSearchView {
        query,
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
            if let Some(url) = str_field(v, &["url", "link", "uri", "href"]) {
                links.push(WebLink {
                    title: str_field(v, &["title", "name"]).unwrap_or(url).to_owned(),
                    url: url.to_owned(),
                    snippet: str_field(v, &["snippet", "chunk", "description", "summary"])
                        .map(str::to_owned),
                });
                return;
            }
            for key in ["references", "results", "content", "links", "sources"] {
                if let Some(inner) = field(v, &[key]) {
                    collect_links(inner, links, texts, depth + 1);
                }
            }
            if let Some(s) = str_field(v, &["text", "answer", "output"]) {
                texts.push(s.to_owned());
            }
        }
        _ => {}
    }
}

/// The host of an http(s) address (`docs.rs`), for showing a link's domain.
pub fn domain(url: &str) -> Option<&str> {
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
    use docstream_model::{CallStatus, ToolResult};
    use serde_json::json;

    fn meta(name: &str, args: Value, data: Option<Value>) -> ToolCallMeta {
        ToolCallMeta {
            tool_name: name.into(),
            arguments: args,
            result: data.map(|data| ToolResult {
                status: CallStatus::Success,
                data,
            }),
            ..ToolCallMeta::default()
        }
    }

    #[test]
    fn claude_code_read_drops_line_numbers() {
        let m = meta(
            "Read",
            json!({"file_path": "/r/src/main.rs", "offset": 10}),
            Some(json!("    10\tfn main() {\n    11→}\n")),
        );
        let ToolView::Read(r) = tool_view(&m) else {
            panic!()
        };
        assert_eq!((r.start, r.language), (10, "rust"));
        assert_eq!(r.content.as_deref(), Some("fn main() {\n}\n"));
    }

    #[test]
    fn grep_content_groups_by_file() {
        let m = meta(
            "Grep",
            json!({"pattern": "x"}),
            Some(
                json!({"mode": "content", "content": "a.rs:1:x\na.rs:4:xx\nb.rs:2:x", "numLines": 3}),
            ),
        );
        let ToolView::Search(s) = tool_view(&m) else {
            panic!()
        };
        let g = s.groups.as_ref().unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].count, g[1].count), (2, 1));
        assert_eq!(s.matches(), 3);
    }

    #[test]
    fn mcp_names_split() {
        let m = meta("mcp__github__get_issue", json!({"n": 1}), None);
        let ToolView::Generic(g) = tool_view(&m) else {
            panic!()
        };
        assert_eq!(
            (g.server.as_deref(), g.tool.as_ref()),
            (Some("github"), "get_issue")
        );
    }

    #[test]
    fn domains() {
        assert_eq!(
            domain("https://www.rust-lang.org/learn"),
            Some("rust-lang.org")
        );
        assert_eq!(domain("javascript:alert(1)"), None);
    }
}
