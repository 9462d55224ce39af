//! Tool calls to documents (seed 000 §7, SPEC §3). Which kind a tool is comes from
//! its format's table of names (each agent format has one in its module) and then from
//! [`GENERIC`], the names any application may use; [`build`] is the one table of what
//! each kind becomes. Adapters hand over the name, the arguments and the result payload
//! as the format gives them; field names are looked up by their known aliases
//! (`file_path`, `filePath`, `path`, `target_file` …).

use serde_json::Value;

use super::events::ToolOutcome;
use super::language::language_for_path;
pub use crate::model::ToolKind;
use crate::model::{
    ApprovalStatus, CallStatus, Diff, FileEditMeta, FileOperation, Meta, PlanApproval, PlanMeta,
    PlanTodo, Subagent, TerminalMeta, TodoChange, TodoStatus, TodoUpdateMeta, ToolCallMeta,
    ToolResult,
};

/// A table of tool names and their kinds. Names compare without case, `_`, `-` or `.`,
/// so `edit_file` and `EditFile` are one name.
pub type ToolNames = &'static [(&'static str, ToolKind)];

/// The names any application may give its tools, whatever its format.
pub const GENERIC: ToolNames = &[
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
pub fn kind_in(tables: &[ToolNames], name: &str) -> ToolKind {
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

/// The kind of the tool `name` by the names any application may use ([`GENERIC`]).
pub fn kind_of(name: &str) -> ToolKind {
    kind_in(&[], name)
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

fn field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v Value> {
    let obj = v.as_object()?;
    names
        .iter()
        .find_map(|n| obj.get(*n))
        .filter(|v| !v.is_null())
}

fn str_field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v str> {
    field(v, names).and_then(Value::as_str)
}

fn u64_field(v: &Value, names: &[&str]) -> Option<u64> {
    field(v, names).and_then(|v| v.as_u64().or_else(|| v.as_f64().map(|f| f.max(0.0) as u64)))
}

fn i64_field(v: &Value, names: &[&str]) -> Option<i64> {
    field(v, names).and_then(|v| v.as_i64().or_else(|| v.as_str()?.trim().parse().ok()))
}

const PATH: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "target_file",
    "targetFile",
    "relativeWorkspacePath",
    "filename",
    "file",
    "notebook_path",
];
const OLD: &[&str] = &[
    "old_string",
    "oldString",
    "old_str",
    "oldText",
    "old_text",
    "search",
];
const NEW: &[&str] = &[
    "new_string",
    "newString",
    "new_str",
    "newText",
    "new_text",
    "replace",
];
const BODY: &[&str] = &[
    "contents",
    "content",
    "fileText",
    "file_text",
    "streamContent",
    "streamingContent",
    "code_edit",
    "codeEdit",
    "text",
];

/// The message of an error payload: a string, or its `error`/`message`/`reason` field.
pub fn error_message(data: &Value) -> Option<String> {
    match data {
        Value::String(s) => Some(s.clone()),
        Value::Object(_) => str_field(
            data,
            &["error", "message", "reason", "stderr", "errorMessage"],
        )
        .map(str::to_owned)
        .or_else(|| field(data, &["error"]).and_then(error_message))
        .or_else(|| str_field(data, &["output"]).map(str::to_owned)),
        _ => None,
    }
}

fn line_count(s: &str) -> u64 {
    if s.is_empty() {
        1
    } else {
        s.lines().count().max(1) as u64
    }
}

/// The diff of `old` replaced by `new` from line `start` (a number from the stream: the
/// last line saturates rather than overflows).
fn diff_of(old: String, new: String, start: u64) -> Diff {
    Diff {
        end_line: start.saturating_add(line_count(&old) - 1),
        old_string: old,
        new_string: new,
        start_line: start,
    }
}

/// A change of the file's text: a rename when it also moves.
fn edit_or_rename(meta: &FileEditMeta) -> FileOperation {
    if meta.new_path.is_some() {
        FileOperation::Rename
    } else {
        FileOperation::Edit
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
    let other = |kind| other(name, kind, call_id, args, outcome, duration_ms);
    if kind == ToolKind::Patch && is_unread_envelope(args) {
        return other(kind);
    }
    match kind {
        ToolKind::Edit | ToolKind::Write | ToolKind::Delete | ToolKind::Patch => {
            file_edit(name, kind, call_id, args, outcome)
        }
        ToolKind::Shell => terminal(call_id, args, outcome, duration_ms),
        ToolKind::Plan => plan(name, call_id, args, outcome),
        ToolKind::Todo => todo_update(call_id, args),
        ToolKind::Task => {
            let (mut meta, content) = other(kind);
            if let Meta::ToolCall(m) = &mut meta {
                m.subagent = Some(Subagent {
                    description: str_field(args, &["description", "title", "name"])
                        .map(str::to_owned)
                        .unwrap_or_else(|| first_words(str_field(args, &["prompt", "message"]))),
                    agent_type: agent_type(args),
                    turn: None,
                });
            }
            (meta, content)
        }
        _ => other(kind),
    }
}

/// A call that names no task (Codex's `spawn_agent`) is described by the start of its
/// prompt: its first line, at most 60 characters.
fn first_words(prompt: Option<&str>) -> String {
    const MAX: usize = 60;
    let line = prompt
        .unwrap_or_default()
        .trim()
        .lines()
        .next()
        .unwrap_or_default();
    match line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", line[..at].trim_end()),
        None => line.to_owned(),
    }
}

/// The kind of sub-agent a call asks for: a name (`subagent_type`), or Cursor's
/// `subagentType` object, `{custom: {name}}` or `{custom: name}` for an agent the user
/// defined, else keyed by the kind (`{explore: {}}`; `unspecified` names none).
fn agent_type(args: &Value) -> Option<String> {
    let named = match field(args, &["subagent_type", "subagentType", "agentType"])? {
        Value::String(s) => s.as_str(),
        Value::Object(kind) => match kind.iter().next().map(|(k, v)| (k.as_str(), v))? {
            ("custom", Value::String(name)) => name.as_str(),
            ("custom", custom) => custom.get("name").and_then(Value::as_str)?,
            ("unspecified", _) => return None,
            (key, _) => key,
        },
        _ => return None,
    };
    (!named.is_empty()).then(|| named.to_owned())
}

/// A `tool_call` document: name, arguments and result kept whole.
fn other(
    name: &str,
    kind: ToolKind,
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
    duration_ms: Option<u64>,
) -> (Meta, Option<String>) {
    (
        Meta::ToolCall(ToolCallMeta {
            tool_name: name.to_owned(),
            tool_call_id: call_id.to_owned(),
            arguments: args.clone(),
            result: outcome.map(|o| ToolResult {
                status: o.status,
                data: o.data.clone(),
            }),
            duration_ms,
            status: None,
            document_type: None,
            subagent: None,
            tool_kind: Some(kind),
        }),
        None,
    )
}

/// A patch in `apply_patch`'s envelope (`*** Begin Patch` …) with no file named in the
/// arguments: the adapters split a readable one into one call per file, so one that
/// arrives whole could not be read and is kept as a `tool_call`.
fn is_unread_envelope(args: &Value) -> bool {
    str_field(args, PATH).is_none()
        && str_field(args, &["patch", "input", "diff"])
            .is_some_and(|p| p.lines().any(|l| l.trim() == "*** Begin Patch"))
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

fn status_of(outcome: Option<&ToolOutcome>) -> CallStatus {
    outcome.map_or(CallStatus::Running, |o| o.status)
}

fn file_edit(
    name: &str,
    kind: ToolKind,
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
) -> (Meta, Option<String>) {
    // A patch split into files names each file's operation (`add`, `update`, `delete`).
    let hinted = str_field(args, &["operation"])
        .filter(|_| kind == ToolKind::Patch)
        .and_then(|op| match op {
            "add" | "create" => Some(FileOperation::Create),
            "update" | "edit" => Some(FileOperation::Edit),
            "delete" => Some(FileOperation::Delete),
            _ => None,
        });
    let data = outcome
        .filter(|o| o.status == CallStatus::Success)
        .map(|o| &o.data);
    let path = str_field(args, PATH)
        .or_else(|| data.and_then(|d| str_field(d, PATH)))
        .unwrap_or_default()
        .to_owned();
    let mut meta = FileEditMeta {
        language: language_for_path(&path).to_owned(),
        file_path: path,
        tool_name: Some(name.to_owned()),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        status: Some(status_of(outcome)),
        ..FileEditMeta::default()
    };
    if let Some(o) = outcome.filter(|o| o.status != CallStatus::Success) {
        meta.error = error_message(&o.data);
    }
    let before =
        data.and_then(|d| str_field(d, &["beforeFullFileContent", "before", "originalContent"]));
    let after = data.and_then(|d| str_field(d, &["afterFullFileContent", "after", "newContent"]));
    meta.diff_string = data
        .and_then(|d| str_field(d, &["diffString", "diff", "patch"]))
        .or_else(|| {
            str_field(args, &["patch", "diff", "input"]).filter(|_| kind == ToolKind::Patch)
        })
        .map(str::to_owned);
    meta.lines_added =
        data.and_then(|d| u64_field(d, &["linesAdded", "lines_added", "linesCreated"]));
    meta.lines_removed = data.and_then(|d| u64_field(d, &["linesRemoved", "lines_removed"]));
    if meta.diff_string.is_none() {
        if let Some((diff, added, removed)) = data.and_then(chunked_diff) {
            meta.diff_string = Some(diff);
            meta.lines_added = meta.lines_added.or(Some(added));
            meta.lines_removed = meta.lines_removed.or(Some(removed));
        }
    }
    meta.new_path =
        str_field(args, &["new_path", "newPath", "renameTo", "destination"]).map(str::to_owned);

    let mut content = None;
    if kind == ToolKind::Delete || hinted == Some(FileOperation::Delete) {
        meta.operation = FileOperation::Delete;
        content = data
            .and_then(|d| str_field(d, &["prevContent", "previousContent", "content"]))
            .map(str::to_owned);
    } else if meta.new_path.is_some() && str_field(args, OLD).is_none() {
        meta.operation = FileOperation::Rename;
    } else if let (Some(""), Some(new), None) =
        (str_field(args, OLD), str_field(args, NEW), &meta.new_path)
    {
        // An edit of nothing into text writes a new file.
        meta.operation = FileOperation::Create;
        content = Some(new.to_owned());
    } else if let (Some(old), Some(new)) = (str_field(args, OLD), str_field(args, NEW)) {
        let start = data
            .and_then(|d| u64_field(d, &["startLine", "start_line"]))
            .unwrap_or(1);
        meta.operation = edit_or_rename(&meta);
        meta.diff = Some(diff_of(old.to_owned(), new.to_owned(), start));
        content = Some(new.to_owned());
    } else if let Some(edits) = field(args, &["edits"]).and_then(Value::as_array) {
        // MultiEdit: the edits in order, each old/new pair one after the other.
        let (mut old, mut new) = (Vec::new(), Vec::new());
        for e in edits {
            old.push(str_field(e, OLD).unwrap_or_default());
            new.push(str_field(e, NEW).unwrap_or_default());
        }
        let (old, new) = (old.join("\n"), new.join("\n"));
        meta.operation = FileOperation::Edit;
        meta.diff = Some(diff_of(old, new.clone(), 1));
        content = Some(new);
    } else if before.is_some_and(|b| !b.is_empty()) && after.is_some() {
        let (old, new) = (before.unwrap_or_default(), after.unwrap_or_default());
        meta.operation = edit_or_rename(&meta);
        meta.diff = Some(diff_of(old.to_owned(), new.to_owned(), 1));
        content = Some(new.to_owned());
    } else if before == Some("") && after.is_some() {
        // The file did not exist: every line is new (the tool's diff of an empty file
        // has a removed empty line, which is not there).
        meta.operation = FileOperation::Create;
        meta.diff_string = None;
        meta.lines_removed = None;
        meta.lines_added = after.map(line_count);
        content = after.map(str::to_owned);
    } else if meta.diff_string.is_some() && kind != ToolKind::Write {
        meta.operation = FileOperation::Edit;
        content = after.map(str::to_owned);
    } else if let Some(op) = hinted {
        meta.operation = op;
        content = after.or_else(|| str_field(args, BODY)).map(str::to_owned);
    } else {
        meta.operation = if kind == ToolKind::Edit
            && before.is_none()
            && after.is_none()
            && str_field(args, BODY).is_none()
        {
            FileOperation::Edit
        } else {
            FileOperation::Create
        };
        content = after.or_else(|| str_field(args, BODY)).map(str::to_owned);
    }
    (Meta::FileEdit(meta), content)
}

/// A diff stored as hunks, `{diff: {chunks: [{diffString, oldStart, oldLines, newStart,
/// newLines, linesAdded, linesRemoved}]}}` (Cursor's saved `edit_file` results), as one
/// unified diff with its line counts.
fn chunked_diff(data: &Value) -> Option<(String, u64, u64)> {
    let chunks = field(data, &["diff"])
        .and_then(|d| field(d, &["chunks"]))
        .and_then(Value::as_array)?;
    let (mut diff, mut added, mut removed) = (String::new(), 0u64, 0u64);
    for c in chunks {
        let Some(body) = str_field(c, &["diffString"]) else {
            continue;
        };
        let n = |names: &[&str]| u64_field(c, names);
        diff.push_str(&format!(
            "@@ -{},{} +{},{} @@\n{}\n",
            n(&["oldStart"]).unwrap_or(1),
            n(&["oldLines"]).unwrap_or(0),
            n(&["newStart"]).unwrap_or(1),
            n(&["newLines"]).unwrap_or(0),
            body.trim_end_matches('\n')
        ));
        added = added.saturating_add(n(&["linesAdded"]).unwrap_or(0));
        removed = removed.saturating_add(n(&["linesRemoved"]).unwrap_or(0));
    }
    (!diff.is_empty()).then_some((diff, added, removed))
}

fn terminal(
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
    duration_ms: Option<u64>,
) -> (Meta, Option<String>) {
    let command = match field(args, &["command", "cmd", "commandLine", "script"]) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" "),
        _ => String::new(),
    };
    let mut meta = TerminalMeta {
        command,
        working_directory: str_field(
            args,
            &[
                "workingDirectory",
                "cwd",
                "working_directory",
                "workdir",
                "directory",
                "dir_path",
            ],
        )
        .filter(|s| !s.is_empty())
        .map(str::to_owned),
        permissions: field(
            args,
            &["permissions", "required_permissions", "requiredPermissions"],
        )
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default(),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        status: Some(status_of(outcome)),
        is_background: field(
            args,
            &["isBackground", "is_background", "run_in_background"],
        )
        .and_then(Value::as_bool),
        duration_ms,
        ..TerminalMeta::default()
    };
    if let Some(o) = outcome {
        let d = &o.data;
        meta.exit_code = i64_field(
            d,
            &["exitCode", "exit_code", "code", "returncode", "exitCodeV2"],
        );
        let interleaved = str_field(d, &["interleavedOutput", "output", "combinedOutput"])
            .filter(|s| !s.is_empty());
        meta.output = match interleaved {
            Some(s) => s.to_owned(),
            None => {
                let stdout = str_field(d, &["stdout"]).unwrap_or_default();
                let stderr = str_field(d, &["stderr"]).unwrap_or_default();
                match (stdout.is_empty(), stderr.is_empty()) {
                    (_, true) => stdout.to_owned(),
                    (true, false) => stderr.to_owned(),
                    (false, false) => format!("{}\n{stderr}", stdout.trim_end_matches('\n')),
                }
            }
        };
        if meta.output.is_empty() {
            if let Value::String(s) = d {
                meta.output = s.clone();
            } else if o.status != CallStatus::Success {
                meta.output = error_message(d).unwrap_or_default();
            }
        }
        if meta.exit_code.is_none() {
            // Claude Code reports a failed command as text starting `Exit code N`.
            meta.exit_code = meta
                .output
                .strip_prefix("Exit code ")
                .and_then(|rest| rest.lines().next())
                .and_then(|n| n.trim().parse().ok());
        }
        if meta.working_directory.is_none() {
            meta.working_directory = str_field(d, &["workingDirectory", "cwd"])
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
        }
        if meta.duration_ms.is_none() {
            meta.duration_ms = u64_field(d, &["executionTime", "duration_ms", "durationMs"]);
        }
    }
    (Meta::TerminalCommand(meta), None)
}

fn todos(args: &Value) -> Vec<(String, Option<String>, TodoStatus, Vec<String>)> {
    let list = match field(args, &["todos", "items", "tasks"]) {
        Some(Value::Array(list)) => list.as_slice(),
        _ => &[],
    };
    list.iter()
        .enumerate()
        .map(|(i, t)| {
            let content = str_field(t, &["content", "title", "text", "description", "task"])
                .map(str::to_owned);
            let id = str_field(t, &["id", "todoId"])
                .map(str::to_owned)
                .or_else(|| field(t, &["id"]).map(|v| v.to_string()))
                .or_else(|| content.clone())
                .unwrap_or_else(|| format!("{}", i + 1));
            let status = str_field(t, &["status", "state"])
                .and_then(TodoStatus::parse)
                .unwrap_or_default();
            let deps = field(t, &["dependencies", "dependsOn", "depends_on", "blockedBy"])
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            (id, content, status, deps)
        })
        .collect()
}

fn plan(
    name: &str,
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
) -> (Meta, Option<String>) {
    let meta = PlanMeta {
        title: str_field(args, &["title", "name"])
            .unwrap_or_default()
            .to_owned(),
        overview: str_field(args, &["overview", "summary", "description"])
            .unwrap_or_default()
            .to_owned(),
        todos: todos(args)
            .into_iter()
            .map(|(id, content, status, dependencies)| PlanTodo {
                id,
                content: content.unwrap_or_default(),
                status,
                dependencies,
            })
            .collect(),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        approval: outcome.filter(|_| asks_approval(name)).and_then(approval),
        ..PlanMeta::default()
    };
    let content = str_field(args, &["plan", "content", "markdown", "body"]).map(str::to_owned);
    (Meta::Plan(meta), content)
}

/// Whether a plan tool puts the plan to the user (its result is their answer), as
/// Claude Code's `ExitPlanMode` and Cursor's plan request do; other plan tools (Codex's
/// `update_plan` …) only record it.
fn asks_approval(name: &str) -> bool {
    ["exitplanmode", "createplanrequest"]
        .iter()
        .any(|asking| folded(name).eq(asking.chars()))
}

/// The user's answer to a plan put to them, from its call's result: a success is an
/// approval, a refusal or error a rejection with what the user said (Claude Code puts it
/// after "the user said:"; Cursor gives a `reason`).
fn approval(outcome: &ToolOutcome) -> Option<PlanApproval> {
    let status = match outcome.status {
        CallStatus::Success => ApprovalStatus::Approved,
        CallStatus::Rejected | CallStatus::Error => ApprovalStatus::Rejected,
        CallStatus::Running | CallStatus::NoResult => return None,
    };
    let feedback = match status {
        ApprovalStatus::Rejected => error_message(&outcome.data).and_then(|m| {
            const SAID: &str = "the user said:";
            match m.find(SAID) {
                Some(at) => Some(m[at + SAID.len()..].trim().to_owned()),
                // Claude Code's stock refusal says nothing the status does not.
                None if m.contains("doesn't want to proceed") => None,
                None => Some(m.trim().to_owned()),
            }
        }),
        _ => None,
    };
    Some(PlanApproval {
        status,
        feedback: feedback.filter(|f| !f.is_empty()),
    })
}

fn todo_update(call_id: &str, args: &Value) -> (Meta, Option<String>) {
    let meta = TodoUpdateMeta {
        todos: todos(args)
            .into_iter()
            .map(|(id, content, status, _)| TodoChange {
                id,
                status,
                content,
            })
            .collect(),
        merge: field(args, &["merge"]).and_then(Value::as_bool),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        merged_todos: Vec::new(),
    };
    (Meta::TodoUpdate(meta), None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_compare_without_case_or_separators() {
        for n in ["edit_file", "EditFile", "edit-file", "EDIT_FILE"] {
            assert_eq!(kind_of(n), ToolKind::Edit, "{n}");
        }
        assert_eq!(kind_of("Bash"), ToolKind::Shell);
        assert_eq!(kind_of("mcp__github__get_issue"), ToolKind::Mcp);
        assert_eq!(kind_of("mcp_linear_create"), ToolKind::Mcp);
        for n in ["", "get_weather", "readToolCall", "edit_files"] {
            assert_eq!(kind_of(n), ToolKind::Other, "{n}");
        }
    }

    #[test]
    fn a_task_without_a_description_is_described_by_its_prompt() {
        let described =
            |args: Value| match build("spawn_agent", ToolKind::Task, "c", &args, None, None).0 {
                Meta::ToolCall(m) => m.subagent.unwrap().description,
                other => panic!("not a tool call: {other:?}"),
            };
        assert_eq!(
            described(json!({"description": "Find", "prompt": "Look."})),
            "Find"
        );
        assert_eq!(
            described(json!({"prompt": "  Check the helpers.\nThen say so."})),
            "Check the helpers."
        );
        let long = "ä".repeat(70);
        assert_eq!(
            described(json!({"prompt": long})),
            format!("{}…", "ä".repeat(60))
        );
        assert_eq!(
            described(json!({"message": "Audit the helpers."})),
            "Audit the helpers."
        );
        assert_eq!(described(json!({})), "");
    }

    #[test]
    fn a_formats_table_comes_before_the_generic_names() {
        const MINE: ToolNames = &[("read", ToolKind::WebFetch), ("frob", ToolKind::Grep)];
        assert_eq!(kind_in(&[MINE], "Read"), ToolKind::WebFetch);
        assert_eq!(kind_in(&[MINE], "frob"), ToolKind::Grep);
        assert_eq!(kind_in(&[MINE], "glob"), ToolKind::Glob);
        assert_eq!(kind_in(&[], "frob"), ToolKind::Other);
    }

    #[test]
    fn patch_edits_name_their_operation() {
        let op = |args: Value| match build("apply_patch", ToolKind::Patch, "c", &args, None, None).0
        {
            Meta::FileEdit(m) => (m.operation, m.new_path),
            other => panic!("not a file edit: {other:?}"),
        };
        let path = |op: &str| json!({"path": "a.rs", "operation": op});
        assert_eq!(op(path("add")).0, FileOperation::Create);
        assert_eq!(op(path("delete")).0, FileOperation::Delete);
        assert_eq!(op(path("update")).0, FileOperation::Edit);
        let moved = json!({"path": "a.rs", "operation": "update", "new_path": "b.rs",
            "old_string": "x", "new_string": "y"});
        assert_eq!(op(moved), (FileOperation::Rename, Some("b.rs".to_owned())));
    }

    #[test]
    fn an_edit_at_the_last_line_number_there_is_does_not_overflow() {
        let args = json!({"path": "a.rs", "old_string": "x\ny", "new_string": "z"});
        let done = ToolOutcome {
            status: CallStatus::Success,
            data: json!({"startLine": u64::MAX}),
        };
        let Meta::FileEdit(m) = build("edit_file", ToolKind::Edit, "c", &args, Some(&done), None).0
        else {
            panic!("not a file edit");
        };
        let diff = m.diff.unwrap();
        assert_eq!((diff.start_line, diff.end_line), (u64::MAX, u64::MAX));
    }

    #[test]
    fn an_unread_apply_patch_envelope_is_a_tool_call() {
        let args = json!({"input": "*** Begin Patch\n*** Frobnicate: x\n*** End Patch\n"});
        let (meta, _) = build("apply_patch", ToolKind::Patch, "c", &args, None, None);
        assert!(matches!(meta, Meta::ToolCall(m) if m.arguments == args));
        let unified = json!({"patch": "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"});
        let (meta, _) = build("apply_patch", ToolKind::Patch, "c", &unified, None, None);
        assert!(
            matches!(meta, Meta::FileEdit(_)),
            "a unified diff stays a file edit"
        );
    }

    #[test]
    fn edit_with_old_and_new_has_a_diff() {
        let (meta, content) = build(
            "Edit",
            ToolKind::Edit,
            "c1",
            &json!({"file_path": "src/a.rs", "old_string": "a\nb", "new_string": "a\nc"}),
            None,
            None,
        );
        let Meta::FileEdit(m) = meta else {
            panic!("not a file edit")
        };
        assert_eq!(m.operation, FileOperation::Edit);
        assert_eq!(m.language, "rust");
        assert_eq!(m.status, Some(CallStatus::Running));
        let d = m.diff.expect("diff");
        assert_eq!((d.start_line, d.end_line), (1, 2));
        assert_eq!(content.as_deref(), Some("a\nc"));
    }

    #[test]
    fn shell_result_fields() {
        let outcome = ToolOutcome {
            status: CallStatus::Success,
            data: json!({"exitCode": 2, "stdout": "out\n", "stderr": "err", "executionTime": 12}),
        };
        let (meta, _) = build(
            "shellToolCall",
            ToolKind::Shell,
            "c",
            &json!({"command": "make"}),
            Some(&outcome),
            None,
        );
        let Meta::TerminalCommand(m) = meta else {
            panic!("not terminal")
        };
        assert_eq!(m.exit_code, Some(2));
        assert_eq!(m.output, "out\nerr");
        assert_eq!(m.duration_ms, Some(12));
    }
}
