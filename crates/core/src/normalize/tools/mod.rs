//! Tool calls to documents (seed 000 §7, SPEC §3), and the one place that reads a
//! tool's arguments and result. Which kind a tool is comes from its format's table of
//! names (each agent format has one in its module) and then from [`GENERIC`], the
//! names any application may use; [`build`] is the one table of what each kind
//! becomes: a `file_edit`, a `terminal_command`, a `plan`, a `todo_update`, or a
//! `tool_call` whose [`ToolView`] (a read, a search, a sub-agent …) says what it did.
//! Adapters hand over the name, the arguments and the result payload as the format
//! gives them; one file here reads each kind of tool, with the field aliases of
//! [`fields`].

mod fields;
mod file_edit;
mod generic;
mod plan;
mod read;
mod search;
mod subagent;
mod terminal;
mod web;

use serde_json::Value;

pub(crate) use fields::error_message;

use super::events::ToolOutcome;
pub(crate) use crate::model::ToolKind;
use crate::model::{CallStatus, Meta, SearchKind, ToolCallMeta, ToolResult, ToolView};

/// A table of tool names and their kinds. Names compare without case, `_`, `-` or `.`,
/// so `edit_file` and `EditFile` are one name.
pub(crate) type ToolNames = &'static [(&'static str, ToolKind)];

/// The names any application may give its tools, whatever its format.
pub(super) const GENERIC: ToolNames = &[
    ("edit", ToolKind::Edit),
    ("edit_file", ToolKind::Edit),
    ("write", ToolKind::Write),
    ("write_file", ToolKind::Write),
    ("create_file", ToolKind::Write),
    ("delete", ToolKind::Delete),
    ("delete_file", ToolKind::Delete),
    ("remove_file", ToolKind::Delete),
    ("apply_patch", ToolKind::Patch),
    ("shell", ToolKind::Shell),
    ("bash", ToolKind::Shell),
    ("terminal", ToolKind::Shell),
    ("run_command", ToolKind::Shell),
    ("todo", ToolKind::Todo),
    ("todos", ToolKind::Todo),
    ("todo_write", ToolKind::Todo),
    ("update_todos", ToolKind::Todo),
    ("create_plan", ToolKind::Plan),
    ("read", ToolKind::Read),
    ("read_file", ToolKind::Read),
    ("view", ToolKind::Read),
    ("grep", ToolKind::Grep),
    ("rg", ToolKind::Grep),
    ("glob", ToolKind::Glob),
    ("find_files", ToolKind::Glob),
    ("ls", ToolKind::List),
    ("list_dir", ToolKind::List),
    ("list_files", ToolKind::List),
    ("codebase_search", ToolKind::CodebaseSearch),
    ("semantic_search", ToolKind::CodebaseSearch),
    ("search_codebase", ToolKind::CodebaseSearch),
    ("web_search", ToolKind::WebSearch),
    ("search_web", ToolKind::WebSearch),
    ("web_fetch", ToolKind::WebFetch),
    ("fetch", ToolKind::WebFetch),
    ("fetch_url", ToolKind::WebFetch),
    ("read_url", ToolKind::WebFetch),
    ("mcp", ToolKind::Mcp),
    ("task", ToolKind::Task),
    ("agent", ToolKind::Task),
    ("subagent", ToolKind::Task),
];

/// The letters and digits of a name, lower-cased: what names compare by.
fn folded(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
}

/// The kind of the tool `name`: from the first of `tables` that names it, else from
/// [`GENERIC`]. A name starting `mcp__` or `mcp_` is an MCP server's tool (Claude
/// Code's `mcp__<server>__<tool>`, and others after it).
pub(crate) fn kind_in(tables: &[ToolNames], name: &str) -> ToolKind {
    if name.starts_with("mcp__") || name.starts_with("mcp_") {
        return ToolKind::Mcp;
    }
    tables
        .iter()
        .chain(std::iter::once(&GENERIC))
        .flat_map(|t| t.iter())
        .find(|(known, _)| folded(known).eq(folded(name)))
        .map_or(ToolKind::Other, |&(_, kind)| kind)
}

/// Arguments as an object: a JSON string holding an object is parsed, anything else
/// is kept as it is.
pub(crate) fn args_value(args: Value) -> Value {
    match &args {
        Value::String(s) if s.trim_start().starts_with('{') => {
            docstream_model::read_json::from_str::<Value>(s).unwrap_or(args)
        }
        _ => args,
    }
}

/// Builds the document for a tool call from what is known so far.
///
/// Returns the metadata and the document's content.
pub(crate) fn build(
    name: &str,
    kind: ToolKind,
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
    duration_ms: Option<u64>,
) -> (Meta, Option<String>) {
    // A file editor asked to view a file reads it (Anthropic's text editor tools).
    let kind = match kind {
        ToolKind::Edit if fields::str_field(args, &["command"]) == Some("view") => ToolKind::Read,
        kind => kind,
    };
    let unread = kind == ToolKind::Patch && file_edit::is_unread_envelope(args);
    match kind {
        ToolKind::Edit | ToolKind::Write | ToolKind::Delete | ToolKind::Patch if !unread => {
            return file_edit::file_edit(name, kind, call_id, args, outcome);
        }
        ToolKind::Shell => return terminal::terminal(call_id, args, outcome, duration_ms),
        ToolKind::Plan => return plan::plan(name, call_id, args, outcome),
        ToolKind::Todo => return plan::todo_update(call_id, args),
        _ => {}
    }
    // Any other tool is a `tool_call`: name, arguments and result kept whole, and what
    // it did.
    let mut m = ToolCallMeta {
        tool_name: name.to_owned(),
        tool_call_id: call_id.to_owned(),
        arguments: args.clone(),
        result: outcome.map(|o| ToolResult {
            status: o.status,
            data: o.data.clone(),
        }),
        duration_ms,
        subagent: (kind == ToolKind::Task).then(|| subagent::subagent(args)),
        tool_kind: Some(kind),
        ..ToolCallMeta::default()
    };
    read_view(&mut m, kind);
    (Meta::ToolCall(m), None)
}

/// Reads what a `tool_call` document that came whole (a saved response, a document
/// sent with its metadata) did; its kind, where the document does not say, from the
/// names in `tables`.
pub(crate) fn read_loaded(meta: &mut Meta, tables: &[ToolNames]) {
    if let Meta::ToolCall(m) = meta {
        let kind = m.tool_kind.unwrap_or_else(|| kind_in(tables, &m.tool_name));
        read_view(m, kind);
    }
}

/// Reads what a call of `kind` did from its arguments and result: its view, and the
/// message of a failed or rejected result.
fn read_view(m: &mut ToolCallMeta, kind: ToolKind) {
    let args = &m.arguments;
    let data = m.result.as_ref().map(|r| &r.data);
    let search = |kind| ToolView::Search(search::search(kind, args, data));
    let view = match kind {
        _ if m.subagent.is_some() => ToolView::Subagent(subagent::view(args, data)),
        ToolKind::Read => read::read(args, data).map_or_else(
            || ToolView::Generic(generic::generic(m, kind)),
            ToolView::Read,
        ),
        ToolKind::Grep => search(SearchKind::Grep),
        ToolKind::Glob => search(SearchKind::Glob),
        ToolKind::List => search(SearchKind::List),
        ToolKind::CodebaseSearch => search(SearchKind::Codebase),
        ToolKind::WebSearch => ToolView::WebSearch(web::web_search(args, data)),
        ToolKind::WebFetch => ToolView::WebFetch(web::web_fetch(args, data)),
        _ => ToolView::Generic(generic::generic(m, kind)),
    };
    m.error = m
        .result
        .as_ref()
        .and_then(|r| match r.status {
            CallStatus::Error => fields::error_message(&r.data),
            s if s.refused() => fields::refusal_reason(&r.data),
            _ => None,
        })
        .filter(|e| !e.trim().is_empty());
    m.view = view;
}

/// Marks a tool document whose turn or stream ended before its result came.
pub(crate) fn mark_no_result(meta: &mut Meta) {
    match meta {
        Meta::ToolCall(m) if m.result.is_none() => m.status = Some(CallStatus::NoResult),
        Meta::FileEdit(m) if m.status == Some(CallStatus::Running) => {
            m.status = Some(CallStatus::NoResult);
        }
        Meta::TerminalCommand(m) if m.status == Some(CallStatus::Running) => {
            m.status = Some(CallStatus::NoResult);
        }
        _ => {}
    }
}

/// Running until the outcome came, then its status.
fn status_of(outcome: Option<&ToolOutcome>) -> CallStatus {
    outcome.map_or(CallStatus::Running, |o| o.status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Conversation, Turn};
    use crate::{DocStream, Format, Options};

    fn read(format: Option<Format>, input: &[u8]) -> Conversation {
        let mut s = DocStream::new(Options {
            format,
            ..Options::default()
        });
        s.push(input).unwrap();
        s.finish().unwrap();
        s.into_conversation()
    }

    /// Each `tool_call` document: its id, view and error message.
    fn views(c: &Conversation) -> Vec<(String, ToolView, Option<String>)> {
        let responses = c.turns.iter().filter_map(|t| match t {
            Turn::Assistant(r) => Some(r),
            Turn::User(_) => None,
        });
        let docs = responses.flat_map(|r| &r.documents);
        docs.filter_map(|d| match &d.meta {
            Meta::ToolCall(m) => Some((d.id.clone(), m.view.clone(), m.error.clone())),
            _ => None,
        })
        .collect()
    }

    /// Views are not saved: a conversation saved as JSON and loaded again (the
    /// `response-json` format) reads every call's view again, as it was streamed; and
    /// so does one saved before calls had a `toolKind`, by every format's names.
    #[test]
    fn a_saved_conversation_loads_with_the_views_it_was_streamed_with() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures");
        let mut calls = 0;
        for dir in std::fs::read_dir(root).unwrap() {
            let dir = dir.unwrap().path();
            let format = Format::parse(dir.file_name().unwrap().to_str().unwrap()).unwrap();
            for file in std::fs::read_dir(&dir).unwrap() {
                let file = file.unwrap().path();
                let name = file.to_string_lossy();
                if name.contains(".expected.") || name.ends_with("README.md") || file.is_dir() {
                    continue;
                }
                let streamed = read(format, &std::fs::read(&file).unwrap());
                let saved = serde_json::to_string(&streamed).unwrap();
                let loaded = read(Some(Format::ResponseJson), saved.as_bytes());
                let name = file.display();
                assert_eq!(views(&loaded), views(&streamed), "{name} saved and loaded");
                let old = saved.replace("\"toolKind\":", "\"notYetKnown\":");
                let old = read(Some(Format::ResponseJson), old.as_bytes());
                assert_eq!(views(&old), views(&streamed), "{name} saved without kinds");
                calls += views(&streamed).len();
            }
        }
        assert!(calls > 50, "only {calls} tool calls in the fixtures");
    }

    #[test]
    fn names_compare_without_case_or_separators() {
        for n in ["edit_file", "EditFile", "edit-file", "EDIT_FILE"] {
            assert_eq!(kind_in(&[], n), ToolKind::Edit, "{n}");
        }
        assert_eq!(kind_in(&[], "Bash"), ToolKind::Shell);
        assert_eq!(kind_in(&[], "mcp__github__get_issue"), ToolKind::Mcp);
        assert_eq!(kind_in(&[], "mcp_linear_create"), ToolKind::Mcp);
        for n in ["", "get_weather", "readToolCall", "edit_files"] {
            assert_eq!(kind_in(&[], n), ToolKind::Other, "{n}");
        }
    }

    #[test]
    fn a_formats_table_comes_before_the_generic_names() {
        const MINE: ToolNames = &[("read", ToolKind::WebFetch), ("frob", ToolKind::Grep)];
        assert_eq!(kind_in(&[MINE], "Read"), ToolKind::WebFetch);
        assert_eq!(kind_in(&[MINE], "frob"), ToolKind::Grep);
        assert_eq!(kind_in(&[MINE], "glob"), ToolKind::Glob);
        assert_eq!(kind_in(&[], "frob"), ToolKind::Other);
    }
}
