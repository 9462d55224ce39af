//! OpenAI's `apply_patch` patch text, as Codex CLI's model writes it:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: docs/new.md
//! +a line of the new file
//! *** Update File: src/app.py
//! *** Move to: src/main.py
//! @@ def greet():
//! -    print("hi")
//! +    print("hello")
//! *** Delete File: old.txt
//! *** End Patch
//! ```
//!
//! [`parse`] reads it into file operations; [`start`] turns them into one tool call per
//! file change (per hunk for an update), so that each becomes a `file_edit` document with
//! a real diff. Text that is not a readable patch is an error that says where; the
//! adapters then keep the call whole as a `tool_call` and add an `error` note.
//!
//! The hunks carry no line numbers (`@@` lines only name a nearby line of context), so
//! the diffs number the lines of each hunk from 1.

use serde_json::{Map, Value};

use crate::error::codes;
use crate::normalize::{ErrorInfo, Event, Sink};

/// The tool name the file edits are reported under.
pub(super) const TOOL: &str = "apply_patch";

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum FileOp<'a> {
    /// `*** Add File:` with the new file's lines.
    Add {
        /// The new file.
        path: &'a str,
        /// Its text, each line ending with a newline.
        content: String,
    },
    /// `*** Delete File:`.
    Delete {
        /// The removed file.
        path: &'a str,
    },
    /// `*** Update File:`, optionally moved, with its hunks.
    Update {
        /// The file changed.
        path: &'a str,
        /// `*** Move to:`, where the file is renamed.
        move_to: Option<&'a str>,
        /// The changes, in order.
        hunks: Vec<Hunk>,
    },
}

/// One hunk of an update: the lines it replaces and the lines it puts in their place,
/// context included in both.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Hunk {
    /// Context and removed lines, joined by newlines.
    pub old: String,
    /// Context and added lines, joined by newlines.
    pub new: String,
}

/// Why a text is not a readable patch, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PatchError {
    /// Line of the text (1-based).
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// The patch inside a shell script or tool input: from its `*** Begin Patch` line on,
/// when the text has one (a heredoc such as `apply_patch <<'EOF'` around it is left out).
pub(super) fn find(text: &str) -> Option<&str> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == BEGIN {
            return Some(&text[at..]);
        }
        at += line.len();
    }
    None
}

/// True when a shell command runs `apply_patch` (or `applypatch`) on a patch it carries.
pub(super) fn in_command(command: &str) -> Option<&str> {
    let patch = find(command)?;
    let before = &command[..command.len() - patch.len()];
    (before.contains("apply_patch") || before.contains("applypatch")).then_some(patch)
}

/// Reads a patch. Lines before `*** Begin Patch` and after `*** End Patch` are ignored
/// (a heredoc around the patch); CRLF line ends are read as LF.
pub(super) fn parse(text: &str) -> Result<Vec<FileOp<'_>>, PatchError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .skip_while(|(_, l)| l.trim() != BEGIN)
        .peekable();
    if lines.next().is_none() {
        return Err(PatchError {
            line: 1,
            message: format!("no `{BEGIN}` line"),
        });
    }
    let mut ops = Vec::new();
    let mut last;
    loop {
        let Some((number, line)) = lines.next() else {
            return Err(PatchError {
                line: text.lines().count().max(1),
                message: format!("the patch ends without `{END}`"),
            });
        };
        last = number;
        if line.trim() == END {
            break;
        }
        if let Some(path) = line.strip_prefix(ADD) {
            let path = file_path(path, number)?;
            let mut content = String::new();
            while let Some(&(n, l)) = lines.peek() {
                if l.starts_with("***") {
                    break;
                }
                let Some(text) = l.strip_prefix('+') else {
                    return Err(PatchError {
                        line: n,
                        message: format!("a line of the added file {path} does not start with `+`"),
                    });
                };
                content.push_str(text);
                content.push('\n');
                lines.next();
            }
            ops.push(FileOp::Add { path, content });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            ops.push(FileOp::Delete {
                path: file_path(path, number)?,
            });
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            let path = file_path(path, number)?;
            let mut move_to = None;
            if let Some(&(n, l)) = lines.peek() {
                if let Some(to) = l.strip_prefix(MOVE) {
                    move_to = Some(file_path(to, n)?);
                    lines.next();
                }
            }
            let mut hunks = Vec::new();
            let mut hunk = HunkLines::default();
            while let Some(&(n, l)) = lines.peek() {
                if l.starts_with("***") && l.trim() != END_OF_FILE {
                    break;
                }
                lines.next();
                if l == "@@" || l.starts_with("@@ ") {
                    hunk.flush(&mut hunks);
                    continue;
                }
                if l.trim() == END_OF_FILE {
                    continue;
                }
                match l.as_bytes().first() {
                    None => hunk.context(""),
                    Some(b' ') => hunk.context(&l[1..]),
                    Some(b'+') => hunk.new.push(&l[1..]),
                    Some(b'-') => hunk.old.push(&l[1..]),
                    Some(_) => {
                        return Err(PatchError {
                            line: n,
                            message: format!(
                                "a line of the update of {path} starts with none of ` `, `+`, `-`"
                            ),
                        });
                    }
                }
            }
            hunk.flush(&mut hunks);
            if hunks.is_empty() && move_to.is_none() {
                return Err(PatchError {
                    line: number,
                    message: format!("the update of {path} changes nothing"),
                });
            }
            ops.push(FileOp::Update {
                path,
                move_to,
                hunks,
            });
        } else {
            return Err(PatchError {
                line: number,
                message: "expected a file header (`*** Add File:`, `*** Update File:`, `*** Delete File:`) or `*** End Patch`".to_owned(),
            });
        }
    }
    if ops.is_empty() {
        return Err(PatchError {
            line: last,
            message: "the patch changes no file".to_owned(),
        });
    }
    Ok(ops)
}

fn file_path(path: &str, line: usize) -> Result<&str, PatchError> {
    let path = path.trim();
    if path.is_empty() {
        return Err(PatchError {
            line,
            message: "a file header names no file".to_owned(),
        });
    }
    Ok(path)
}

/// The lines of the hunk being read.
#[derive(Default)]
struct HunkLines<'a> {
    old: Vec<&'a str>,
    new: Vec<&'a str>,
}

impl<'a> HunkLines<'a> {
    fn context(&mut self, line: &'a str) {
        self.old.push(line);
        self.new.push(line);
    }

    /// Ends the hunk; one with no changed line (only context, or nothing) is dropped.
    fn flush(&mut self, hunks: &mut Vec<Hunk>) {
        if self.old != self.new {
            hunks.push(Hunk {
                old: self.old.join("\n"),
                new: self.new.join("\n"),
            });
        }
        *self = HunkLines::default();
    }
}

/// The arguments of the tool call each file change is shown as: the path, the
/// operation, and the text it needs (`content`, `old_string` / `new_string`,
/// `new_path`), which the normaliser's tool mapping reads into a `file_edit`.
pub(super) fn edit_args(ops: &[FileOp<'_>]) -> Vec<Value> {
    let mut out = Vec::new();
    for op in ops {
        let mut args = Map::new();
        match op {
            FileOp::Add { path, content } => {
                args.insert("path".into(), Value::from(*path));
                args.insert("operation".into(), Value::from("add"));
                args.insert("content".into(), Value::from(content.as_str()));
                out.push(Value::Object(args));
            }
            FileOp::Delete { path } => {
                args.insert("path".into(), Value::from(*path));
                args.insert("operation".into(), Value::from("delete"));
                out.push(Value::Object(args));
            }
            FileOp::Update {
                path,
                move_to,
                hunks,
            } => {
                args.insert("path".into(), Value::from(*path));
                args.insert("operation".into(), Value::from("update"));
                if let Some(to) = move_to {
                    args.insert("new_path".into(), Value::from(*to));
                }
                if hunks.is_empty() {
                    out.push(Value::Object(args.clone()));
                }
                for h in hunks {
                    let mut a = args.clone();
                    a.insert("old_string".into(), Value::from(h.old.as_str()));
                    a.insert("new_string".into(), Value::from(h.new.as_str()));
                    out.push(Value::Object(a));
                }
            }
        }
    }
    out
}

/// The call id of the `index`th file edit of call `call_id`: the call's own id for the
/// first, `call_id#2`, `call_id#3` … for the rest.
pub(super) fn edit_id(call_id: &str, index: usize) -> String {
    if index == 0 {
        call_id.to_owned()
    } else {
        format!("{call_id}#{}", index + 1)
    }
}

/// Starts the file edits of a patch sent by call `call_id`; returns their call ids, to
/// end them when the call's output comes. A patch that cannot be read starts one call
/// `name` with `args` kept whole (a `tool_call`, or a terminal run for a shell command)
/// and adds an `error` document saying where the patch went wrong.
pub(super) fn start(
    call_id: &str,
    patch: &str,
    name: &str,
    args: Value,
    n: &mut dyn Sink,
) -> Vec<String> {
    match parse(patch) {
        Ok(ops) => edit_args(&ops)
            .into_iter()
            .enumerate()
            .map(|(i, args)| {
                let id = edit_id(call_id, i);
                n.apply(Event::tool_start(id.clone(), TOOL.to_owned(), args));
                id
            })
            .collect(),
        Err(e) => {
            n.apply(Event::tool_start(call_id.to_owned(), name.to_owned(), args));
            n.apply(Event::Error(ErrorInfo {
                at: None,
                code: codes::TOOL_ERROR.to_owned(),
                source: TOOL.to_owned(),
                message: format!(
                    "The patch of call {} could not be read (line {} of the patch: {}); the call is shown as sent.",
                    call_id.trim(),
                    e.line,
                    e.message
                ),
                details: format!(
                    "{TOOL} text of call {}: line {}: {}",
                    call_id.trim(),
                    e.line,
                    e.message
                ),
            }));
            vec![call_id.to_owned()]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PATCH: &str = r#"*** Begin Patch
*** Add File: docs/hello.md
+# Hello
+
+World
*** Update File: src/app.py
*** Move to: src/main.py
@@ def greet():
-    print("hi")
+    print("hello")
     return None
@@ def main():
-    greet()
+    greet()
+    greet()
*** End of File
*** Delete File: old.txt
*** End Patch
"#;

    #[test]
    fn reads_every_operation() {
        let ops = parse(PATCH).unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(
            ops[0],
            FileOp::Add {
                path: "docs/hello.md",
                content: "# Hello\n\nWorld\n".to_owned()
            }
        );
        let FileOp::Update {
            path,
            move_to,
            hunks,
        } = &ops[1]
        else {
            panic!("not an update: {:?}", ops[1]);
        };
        assert_eq!((*path, *move_to), ("src/app.py", Some("src/main.py")));
        assert_eq!(
            hunks,
            &[
                Hunk {
                    old: "    print(\"hi\")\n    return None".to_owned(),
                    new: "    print(\"hello\")\n    return None".to_owned(),
                },
                Hunk {
                    old: "    greet()".to_owned(),
                    new: "    greet()\n    greet()".to_owned(),
                },
            ]
        );
        assert_eq!(ops[2], FileOp::Delete { path: "old.txt" });
    }

    #[test]
    fn the_first_hunk_needs_no_header_and_blank_lines_are_context() {
        let ops = parse(
            "*** Begin Patch\r\n*** Update File: a.txt\r\n one\r\n\r\n-two\r\n+2\r\n*** End Patch",
        )
        .unwrap();
        assert_eq!(
            ops,
            [FileOp::Update {
                path: "a.txt",
                move_to: None,
                hunks: vec![Hunk {
                    old: "one\n\ntwo".to_owned(),
                    new: "one\n\n2".to_owned(),
                }],
            }]
        );
    }

    #[test]
    fn a_heredoc_around_the_patch_is_left_out() {
        let script = "cd web && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n";
        let patch = in_command(script).unwrap();
        assert!(patch.starts_with("*** Begin Patch"));
        assert_eq!(parse(patch).unwrap(), [FileOp::Delete { path: "x" }]);
        assert_eq!(
            in_command("cat <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF"),
            None,
            "a patch shown by another command is not applied"
        );
        assert_eq!(in_command("ls -la"), None);
    }

    #[test]
    fn a_rename_alone_is_an_update_without_hunks() {
        let ops =
            parse("*** Begin Patch\n*** Update File: a.rs\n*** Move to: b.rs\n*** End Patch\n")
                .unwrap();
        assert_eq!(
            ops,
            [FileOp::Update {
                path: "a.rs",
                move_to: Some("b.rs"),
                hunks: vec![]
            }]
        );
        let args = edit_args(&ops);
        assert_eq!(args.len(), 1);
        assert_eq!(args[0]["new_path"], "b.rs");
        assert!(args[0].get("old_string").is_none());
    }

    #[test]
    fn one_call_per_file_and_hunk() {
        let args = edit_args(&parse(PATCH).unwrap());
        let ops: Vec<(&str, &str)> = args
            .iter()
            .map(|a| {
                (
                    a["path"].as_str().unwrap(),
                    a["operation"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            ops,
            [
                ("docs/hello.md", "add"),
                ("src/app.py", "update"),
                ("src/app.py", "update"),
                ("old.txt", "delete")
            ]
        );
        assert_eq!(args[2]["new_string"], "    greet()\n    greet()");
        assert_eq!(edit_id("call_1", 0), "call_1");
        assert_eq!(edit_id("call_1", 3), "call_1#4");
    }

    fn error(text: &str) -> PatchError {
        parse(text).expect_err(text)
    }

    #[test]
    fn malformed_patches_say_where() {
        assert_eq!(error("").line, 1);
        assert!(error("just text").message.contains("Begin Patch"));
        let e = error("*** Begin Patch\n*** Update File: a\n-x\n");
        assert_eq!(e.line, 3);
        assert!(e.message.contains("End Patch"), "{e:?}");
        let e = error("*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch\n");
        assert_eq!(e.line, 3);
        let e = error("*** Begin Patch\n*** Update File: a\n@@\n?what\n*** End Patch\n");
        assert_eq!(e.line, 4);
        let e = error("*** Begin Patch\n*** Update File: a\n*** End Patch\n");
        assert_eq!(
            (e.line, e.message.as_str()),
            (2, "the update of a changes nothing")
        );
        let e = error("*** Begin Patch\n*** Copy File: a\n*** End Patch\n");
        assert_eq!(e.line, 2);
        let e = error("*** Begin Patch\n*** Add File:   \n*** End Patch\n");
        assert!(e.message.contains("names no file"));
        let e = error("*** Begin Patch\n*** End Patch\n");
        assert_eq!(e.message, "the patch changes no file");
    }

    #[test]
    fn arbitrary_text_never_panics() {
        let pieces = [
            "*** Begin Patch",
            "*** End Patch",
            "*** Add File: a",
            "*** Update File: b",
            "*** Move to: c",
            "*** Delete File: d",
            "*** End of File",
            "@@",
            "@@ ctx",
            "+x",
            "-y",
            " z",
            "",
            "é",
            "\r",
            "***",
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..(seed % 12) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
                text.push('\n');
            }
            if let Ok(ops) = parse(&text) {
                assert!(!ops.is_empty());
                let _ = edit_args(&ops);
            }
        }
    }
}
