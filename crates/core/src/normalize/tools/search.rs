//! Search and listing tools (grep, glob, ls, codebase search) to a [`SearchView`]:
//! the query, where it looked, and the matches grouped by file, from the many shapes
//! the tools return (Cursor's workspace results and directory trees, Claude Code's
//! `file:line:text` lines and `- dir/` trees, lists of paths or of results).

use serde_json::Value;

use super::fields::{PATH, field, text_field, u64_field};
use crate::model::{FileGroup, SearchKind, SearchView};

/// A search or listing: its query, where it looked, and its matches by file.
pub(super) fn search(kind: SearchKind, args: &Value, data: Option<&Value>) -> SearchView {
    let query = text_field(
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
    let path = text_field(
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
        query: query.map(str::to_owned),
        path: path.map(str::to_owned),
        groups,
    }
}

/// `path`, relative to the absolute directory `root` and climbing out of it (`../`),
/// as the absolute path it names; `None` for any other path, left as it is.
fn from_root(root: &str, path: &str) -> Option<String> {
    if !root.starts_with('/') || !(path.starts_with("../") || path == "..") {
        return None;
    }
    let mut parts: Vec<&str> = root.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    Some(format!("/{}", parts.join("/")))
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
        for (root, r) in roots {
            // A file outside the workspace is named from its root (`../../tmp/x.py`):
            // shown where it is.
            all.extend(groups(kind, r)?.into_iter().map(|mut g| {
                if let Some(path) = from_root(root, &g.path) {
                    g.path = path;
                }
                g
            }));
        }
        return Some(all);
    }
    if let Some(c) = field(d, &["content"]).filter(|c| c.is_object()) {
        if let Some(Value::Array(files)) = field(c, &["matches"]) {
            return Some(
                files
                    .iter()
                    .filter_map(|f| {
                        let path = text_field(f, &["file", "path"])?;
                        let lines: Vec<(Option<u64>, String)> = field(f, &["matches"])
                            .and_then(Value::as_array)
                            .map(|ms| {
                                ms.iter()
                                    .map(|m| {
                                        (
                                            u64_field(m, &["lineNumber", "line"]),
                                            text_field(m, &["content", "text"])
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
    if let Some(files @ Value::Object(_)) = field(d, &["files"]) {
        return groups(kind, files);
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
                        path: text_field(c, &["file", "path"])?.to_owned(),
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
        let abs = text_field(root, &["absPath", "path"]).unwrap_or_default();
        tree(root, abs, &mut out);
        return Some(out);
    }
    // Claude Code's Grep in content mode: `file:line:text` lines.
    if let (Some("content"), Some(text)) = (text_field(d, &["mode"]), text_field(d, &["content"])) {
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
                let Some(p) =
                    text_field(other, PATH).or_else(|| text_field(other, &["name", "uri"]))
                else {
                    continue;
                };
                let start = u64_field(other, &["startLine", "start_line", "lineNumber", "line"])
                    .or_else(|| {
                        field(other, &["range"])
                            .and_then(|r| field(r, &["startPosition", "start"]))
                            .and_then(|s| u64_field(s, &["line"]))
                    });
                let text = text_field(other, &["content", "text", "snippet"])
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
    let dir = text_field(node, &["absPath", "path", "name"]).unwrap_or_default();
    let rel = dir
        .strip_prefix(root)
        .map_or(dir, |r| r.trim_start_matches('/'));
    if let Some(Value::Array(files)) = field(node, &["childrenFiles", "files"]) {
        for f in files {
            if let Some(n) = f.as_str().or_else(|| text_field(f, &["name"])) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_file_outside_the_workspace_is_named_where_it_is() {
        assert_eq!(
            from_root("/home/user/app", "../../../tmp/scratch/a.py").as_deref(),
            Some("/tmp/scratch/a.py")
        );
        assert_eq!(from_root("/a", "../../../../x").as_deref(), Some("/x"));
        assert_eq!(from_root("/home/user/app", "src/main.rs"), None);
        assert_eq!(from_root("app", "../x"), None);
    }

    #[test]
    fn grep_content_groups_by_file() {
        let s = search(
            SearchKind::Grep,
            &json!({"pattern": "x"}),
            Some(
                &json!({"mode": "content", "content": "a.rs:1:x\na.rs:4:xx\nb.rs:2:x", "numLines": 3}),
            ),
        );
        let g = s.groups.as_ref().unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].count, g[1].count), (2, 1));
        assert_eq!(s.matches(), 3);
    }
}
