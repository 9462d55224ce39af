//! Tools that write files (`edit`, `write`, `delete`, `apply_patch` and the formats'
//! names for them) to `file_edit` documents: the operation, the path, and a diff where
//! the old and new text are known.

use serde_json::Value;

use super::super::events::ToolOutcome;
use super::super::language::language_for_path;
use super::fields::{PATH, error_message, field, refusal_reason, str_field, u64_field};
use super::status_of;
use crate::model::{CallStatus, Diff, FileEditMeta, FileOperation, Meta, ToolKind};

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

/// A patch in `apply_patch`'s envelope (`*** Begin Patch` …) with no file named in the
/// arguments: the adapters split a readable one into one call per file, so one that
/// arrives whole could not be read and is kept as a `tool_call`.
pub(super) fn is_unread_envelope(args: &Value) -> bool {
    str_field(args, PATH).is_none()
        && str_field(args, &["patch", "input", "diff"])
            .is_some_and(|p| p.lines().any(|l| l.trim() == "*** Begin Patch"))
}

pub(super) fn file_edit(
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
        meta.error = if o.status.refused() {
            refusal_reason(&o.data)
        } else {
            error_message(&o.data)
        };
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

    // A unified diff from nothing (`--- /dev/null`) writes a new file; one to nothing
    // (`+++ /dev/null`) removes it (Cursor's `editToolCall` and `writeToolCall`).
    let from_nothing = meta
        .diff_string
        .as_deref()
        .is_some_and(|d| diff_side(d, "--- "));
    let to_nothing = meta
        .diff_string
        .as_deref()
        .is_some_and(|d| diff_side(d, "+++ "));
    let mut content = None;
    if kind == ToolKind::Delete || hinted == Some(FileOperation::Delete) || to_nothing {
        meta.operation = FileOperation::Delete;
        content = data
            .and_then(|d| str_field(d, &["prevContent", "previousContent", "content"]))
            .map(str::to_owned);
    } else if from_nothing && str_field(args, OLD).is_none() && meta.new_path.is_none() {
        // Every line is new: shown from the text written, with no removed line.
        meta.operation = FileOperation::Create;
        content = after
            .or_else(|| str_field(args, BODY))
            .map(str::to_owned)
            .or_else(|| meta.diff_string.as_deref().map(added_lines));
        meta.diff_string = None;
        meta.lines_removed = None;
        meta.lines_added = meta
            .lines_added
            .or_else(|| content.as_deref().map(line_count));
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

/// True when the unified diff `diff` names `/dev/null` on its `side` line (`--- ` for
/// the file before, `+++ ` for after), in its header (the lines before the first hunk).
fn diff_side(diff: &str, side: &str) -> bool {
    diff.lines()
        .take_while(|l| !l.starts_with("@@"))
        .filter_map(|l| l.strip_prefix(side))
        .any(|path| path.trim() == "/dev/null")
}

/// The added lines of a unified diff, without their `+`: the text of a file the diff
/// creates, where the tool gave no other copy of it.
fn added_lines(diff: &str) -> String {
    let mut text = String::new();
    for line in diff.lines().skip_while(|l| !l.starts_with("@@")) {
        if let Some(added) = line.strip_prefix('+') {
            text.push_str(added);
            text.push('\n');
        }
    }
    text
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

#[cfg(test)]
mod tests {
    use super::super::build;
    use super::*;
    use serde_json::json;

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
    fn a_diff_from_dev_null_creates_and_one_to_it_deletes() {
        // Cursor's editToolCall writing a new file (a real capture's shape).
        let args = json!({"path": "/tmp/x/hello.txt", "streamContent": "hi\n"});
        let done = ToolOutcome {
            status: CallStatus::Success,
            data: json!({"path": "/tmp/x/hello.txt", "linesAdded": 1, "linesRemoved": 0,
                "diffString": "--- /dev/null\n+++ b//tmp/x/hello.txt\n@@ -1,0 +1 @@\n+hi"}),
        };
        let (meta, content) = build(
            "editToolCall",
            ToolKind::Edit,
            "c",
            &args,
            Some(&done),
            None,
        );
        let Meta::FileEdit(m) = meta else {
            panic!("not a file edit")
        };
        assert_eq!(m.operation, FileOperation::Create);
        assert_eq!((m.lines_added, m.lines_removed), (Some(1), None));
        assert_eq!(m.diff_string, None, "no diff with a phantom removed line");
        assert_eq!(content.as_deref(), Some("hi\n"));
        // No copy of the text but the diff: its added lines.
        let bare = json!({"path": "a.txt"});
        let (meta, content) = build(
            "editToolCall",
            ToolKind::Edit,
            "c",
            &bare,
            Some(&done),
            None,
        );
        assert!(matches!(meta, Meta::FileEdit(m) if m.operation == FileOperation::Create));
        assert_eq!(content.as_deref(), Some("hi\n"));
        let gone = ToolOutcome {
            status: CallStatus::Success,
            data: json!({"diffString": "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x"}),
        };
        let (meta, _) = build(
            "editToolCall",
            ToolKind::Edit,
            "c",
            &bare,
            Some(&gone),
            None,
        );
        assert!(matches!(meta, Meta::FileEdit(m) if m.operation == FileOperation::Delete));
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
}
