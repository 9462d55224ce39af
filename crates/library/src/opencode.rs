//! OpenCode's store, sans-IO: `opencode.db` (`~/.local/share/opencode/`, or
//! `opencode-<channel>.db` beside it for other release channels), a SQLite database
//! whose tables `session`, `message` and `part` hold each session (anomalyco/opencode,
//! formerly sst/opencode: `packages/opencode/src/session/session.sql.ts`). A message's
//! and a part's `data` column is the message or part as JSON, without the ids the row
//! carries.
//!
//! The host runs the SQL given here ([`crate::store`] with rusqlite, the viewer's
//! library worker with sqlite-wasm) and hands over the values: [`SessionRow::from_columns`]
//! reads a `session` row by column name, [`SessionRow::entry`] makes a session's entry,
//! and [`Assembler`] puts a session's `part` and `message` rows together as the JSON
//! `opencode export` writes (`{info, messages: [{info, parts}]}`), which docstream
//! reads as `opencode-export`. So the CLI and the viewer read a store by one set of rules.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde_json::value::RawValue;

use crate::{Agent, Entry, ParentLink};
use docstream_model::time::iso_8601;

/// The folders of OpenCode's data folder that hold no session docstream reads (its
/// files from before the database, snapshots, logs, binaries, tool output): a folder
/// scan that finds `opencode.db` does not search them, nor read the other files beside
/// it (`auth.json` holds credentials).
pub const NOT_SESSIONS: &[&str] = &["storage", "snapshot", "log", "bin", "tool-output"];

/// The tables a database must have to be read as OpenCode's (else it is read as
/// Cursor's, which says what is wrong with it).
pub const TABLES: [&str; 3] = ["session", "message", "part"];

/// Every `session` row, all columns (read by name: [`SessionRow::from_columns`]).
pub const SESSIONS_SQL: &str = "SELECT * FROM session";
/// The `session` row of id `?1`.
pub const SESSION_SQL: &str = "SELECT * FROM session WHERE id = ?1";
/// The parts of session `?1`: `id`, `data` when at most `?2` bytes (else NULL), the
/// length of `data`, `message_id`; by message, then by id (ascending in time).
pub const PARTS_SQL: &str = "SELECT id, CASE WHEN octet_length(data) <= ?2 THEN CAST(data AS BLOB) END, octet_length(data), message_id FROM part WHERE session_id = ?1 ORDER BY message_id, id";
/// The messages of session `?1` in time order: `id`, `data` when at most `?2` bytes
/// (else NULL), the length of `data`.
pub const MESSAGES_SQL: &str = "SELECT id, CASE WHEN octet_length(data) <= ?2 THEN CAST(data AS BLOB) END, octet_length(data) FROM message WHERE session_id = ?1 ORDER BY time_created, id";

/// In a folder holding an OpenCode database, whether the entry `name` beside it is
/// left unread: anything named as a folder of [`NOT_SESSIONS`], and, when `is_file`
/// (a regular file, not a folder or a link), every file but the databases (OpenCode's
/// own files: `auth.json` holds credentials).
pub fn left_beside_db(name: &str, is_file: bool) -> bool {
    NOT_SESSIONS.contains(&name) || (is_file && !is_db_name(name))
}

/// Whether a file named `name` is an OpenCode database: `opencode.db`, or
/// `opencode-<channel>.db`.
pub fn is_db_name(name: &str) -> bool {
    name == "opencode.db"
        || name
            .strip_prefix("opencode-")
            .and_then(|rest| rest.strip_suffix(".db"))
            .is_some_and(|channel| !channel.is_empty())
}

/// A row of the `session` table, as far as the list needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionRow {
    /// `id` (`ses_…`).
    pub id: String,
    /// `title`.
    pub title: Option<String>,
    /// `directory`: the project folder.
    pub directory: Option<String>,
    /// `parent_id`: the session whose `task` call started this one.
    pub parent_id: Option<String>,
    /// `time_created`, milliseconds since 1970.
    pub created: Option<i64>,
    /// `time_updated`, milliseconds since 1970.
    pub updated: Option<i64>,
}

/// A value of a row as SQLite gives it.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// NULL.
    Null,
    /// An integer.
    Integer(i64),
    /// A floating-point number.
    Real(f64),
    /// Text, or a blob read as UTF-8 (lossily).
    Text(String),
}

impl Cell {
    fn text(&self) -> Option<String> {
        match self {
            Cell::Null => None,
            Cell::Integer(i) => Some(i.to_string()),
            Cell::Real(f) => Some(f.to_string()),
            Cell::Text(t) => Some(t.clone()),
        }
    }

    fn int(&self) -> Option<i64> {
        match self {
            Cell::Integer(i) => Some(*i),
            Cell::Real(f) if f.is_finite() => Some(*f as i64),
            _ => None,
        }
    }
}

fn time(ms: Option<i64>) -> Option<String> {
    ms.and_then(|ms| u64::try_from(ms).ok()).map(iso_8601)
}

/// A title OpenCode gives a session before it has one of its own.
fn placeholder(title: &str) -> bool {
    title.starts_with("New session - ") || title.starts_with("Child session - ")
}

impl SessionRow {
    /// A row of [`SESSIONS_SQL`] or [`SESSION_SQL`], its columns named `names` and
    /// `cell(i)` the value of column `i`: read by name, so that a column added or missing
    /// in another version costs nothing. `None` for a row without an id.
    pub fn from_columns<S: AsRef<str>>(
        names: &[S],
        mut cell: impl FnMut(usize) -> Cell,
    ) -> Option<SessionRow> {
        let mut get = |name: &str| {
            names
                .iter()
                .position(|n| n.as_ref() == name)
                .map_or(Cell::Null, &mut cell)
        };
        let id = get("id").text().filter(|s| !s.is_empty())?;
        Some(SessionRow {
            id,
            title: get("title").text(),
            directory: get("directory").text(),
            parent_id: get("parent_id").text().filter(|s| !s.is_empty()),
            created: get("time_created").int(),
            updated: get("time_updated").int(),
        })
    }

    /// The session's entry in a list of `db` (the path shown).
    pub fn entry(&self, db: &str) -> Entry {
        let mut e = Entry::new(self.id.clone(), Agent::OpenCode, db);
        e.title = match self.title.as_deref().map(str::trim) {
            Some(t) if !t.is_empty() && !placeholder(t) => crate::one_line(t, 100),
            _ => format!("OpenCode session {}", self.id),
        };
        e.project.clone_from(&self.directory);
        e.created = time(self.created);
        e.updated = time(self.updated);
        e.parent = self.parent_id.clone().map(|p| ParentLink {
            conversation: p,
            tool_call_id: None,
        });
        e
    }
}

/// Links each sub-agent session to the session that started it: the parents' entries
/// list their children.
pub fn link_children(entries: &mut [Entry]) {
    let links: Vec<(String, String)> = entries
        .iter()
        .filter_map(|e| Some((e.parent.as_ref()?.conversation.clone(), e.id.clone())))
        .collect();
    for (parent, child) in links {
        if let Some(p) = entries.iter_mut().find(|e| e.id == parent) {
            p.children.push(child);
        }
    }
}

/// A value too large to be read (its size), or the row's JSON text.
pub type RowData = Result<Vec<u8>, u64>;

/// One session's rows put together as `opencode export` writes it: the session's
/// facts, then each message (in the order the host gives them, [`MESSAGES_SQL`]'s:
/// `time_created`, `id`) with its parts (given first, [`PARTS_SQL`]'s order: by
/// `id`, which OpenCode makes ascending in time). A row whose
/// `data` is not a JSON object, or is too large to read, stands as a part (or a
/// message) of a type docstream does not know, counted when the session is read.
#[derive(Debug)]
pub struct Assembler {
    out: String,
    /// A message is open (its `parts` array too).
    open: bool,
    /// The open message's first part is written.
    parted: bool,
    /// The parts given, by message id, until their message comes.
    parts: HashMap<String, Vec<(String, RowData)>>,
}

impl Assembler {
    /// Starts the session `row`.
    pub fn new(row: &SessionRow) -> Assembler {
        let mut info = serde_json::Map::new();
        info.insert("id".into(), row.id.clone().into());
        for (key, value) in [
            ("title", &row.title),
            ("directory", &row.directory),
            ("parentID", &row.parent_id),
        ] {
            if let Some(v) = value {
                info.insert(key.into(), v.clone().into());
            }
        }
        let mut time = serde_json::Map::new();
        for (key, value) in [("created", row.created), ("updated", row.updated)] {
            if let Some(v) = value {
                time.insert(key.into(), v.into());
            }
        }
        info.insert("time".into(), time.into());
        let info = serde_json::Value::Object(info);
        Assembler {
            out: format!("{{\"info\":{info},\"messages\":["),
            open: false,
            parted: false,
            parts: HashMap::new(),
        }
    }

    /// A part of message `message`, `id` with its `data`: held until its message comes
    /// (a part of no message given is left out).
    pub fn part(&mut self, message: &str, id: &str, data: RowData) {
        self.parts
            .entry(message.to_owned())
            .or_default()
            .push((id.to_owned(), data));
    }

    /// The next message, `id` with its `data`, and the parts given for it.
    pub fn message(&mut self, id: &str, data: RowData) {
        self.close_message();
        if self.out.ends_with('}') {
            self.out.push(',');
        }
        self.out.push_str("{\"info\":");
        push_with_id(&mut self.out, id, data, "docstream-unreadable-message");
        self.out.push_str(",\"parts\":[");
        self.open = true;
        self.parted = false;
        for (part, data) in self.parts.remove(id).unwrap_or_default() {
            self.push_part(&part, data);
        }
    }

    fn push_part(&mut self, id: &str, data: RowData) {
        if self.parted {
            self.out.push(',');
        }
        push_with_id(&mut self.out, id, data, "docstream-unreadable-part");
        self.parted = true;
    }

    fn close_message(&mut self) {
        if self.open {
            self.out.push_str("]}");
            self.open = false;
        }
    }

    /// The session's JSON.
    pub fn finish(mut self) -> Vec<u8> {
        self.close_message();
        self.out.push_str("]}");
        self.out.into_bytes()
    }
}

/// `data` (a JSON object) with `"id": id` first; anything else as an object of type
/// `unreadable` that says why.
fn push_with_id(out: &mut String, id: &str, data: RowData, unreadable: &str) {
    let id_json = serde_json::Value::from(id);
    let object = match &data {
        Ok(bytes) => std::str::from_utf8(bytes)
            .ok()
            .filter(|t| serde_json::from_str::<&RawValue>(t).is_ok())
            .map(str::trim_start)
            .and_then(|t| t.strip_prefix('{')),
        Err(_) => None,
    };
    match object {
        Some(rest) if rest.trim_start().starts_with('}') => {
            let _ = write!(out, "{{\"id\":{id_json}}}");
        }
        Some(rest) => {
            let _ = write!(out, "{{\"id\":{id_json},{rest}");
        }
        None => {
            let why = match data {
                Err(size) => format!("over {} bytes ({size})", crate::cursor::MAX_ROW_BYTES),
                Ok(_) => "not a JSON object".to_owned(),
            };
            let why = serde_json::Value::from(why);
            let _ = write!(
                out,
                "{{\"id\":{id_json},\"type\":\"{unreadable}\",\"role\":\"{unreadable}\",\"why\":{why}}}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> SessionRow {
        SessionRow {
            id: "ses_1".into(),
            title: Some("Fix \"it\"".into()),
            directory: Some("/p".into()),
            parent_id: None,
            created: Some(1_700_000_000_000),
            updated: Some(1_700_000_001_000),
        }
    }

    #[test]
    fn database_names() {
        assert!(is_db_name("opencode.db"));
        assert!(is_db_name("opencode-dev.db"));
        assert!(!is_db_name("opencode-.db"));
        assert!(!is_db_name("opencode.db-wal"));
        assert!(!is_db_name("state.vscdb"));
    }

    #[test]
    fn rows_assemble_into_an_export() {
        let mut a = Assembler::new(&row());
        // Parts come first (PARTS_SQL), each held until its message.
        a.part("nowhere", "orphan", Ok(b"{}".to_vec()));
        a.part("m1", "p1", Ok(br#" {"type":"text","text":"hi"}"#.to_vec()));
        a.part("m1", "p2", Ok(b"{}".to_vec()));
        a.part("m2", "p3", Err(20 << 20));
        a.part("m2", "p4", Ok(b"[1]".to_vec()));
        a.message("m1", Ok(br#"{"role":"user"}"#.to_vec()));
        a.message("m2", Ok(b"{\"role\":".to_vec()));
        a.message("m3", Ok(br#"{"role":"assistant"}"#.to_vec()));
        let v: serde_json::Value = serde_json::from_slice(&a.finish()).unwrap();
        assert_eq!(v["info"]["title"], "Fix \"it\"");
        assert_eq!(v["info"]["time"]["created"], 1_700_000_000_000_i64);
        let m = v["messages"].as_array().unwrap();
        assert_eq!(m.len(), 3);
        assert_eq!(m[0]["info"]["id"], "m1");
        assert_eq!(m[0]["parts"][0]["id"], "p1");
        assert_eq!(m[0]["parts"][0]["text"], "hi");
        assert_eq!(m[0]["parts"][1], serde_json::json!({"id": "p2"}));
        assert_eq!(m[1]["info"]["role"], "docstream-unreadable-message");
        assert_eq!(m[1]["parts"][0]["type"], "docstream-unreadable-part");
        assert_eq!(m[1]["parts"][1]["why"], "not a JSON object");
        assert_eq!(m[2]["parts"], serde_json::json!([]));
        assert!(!v.to_string().contains("orphan"), "{v}");
        let empty = Assembler::new(&SessionRow::default()).finish();
        let v: serde_json::Value = serde_json::from_slice(&empty).unwrap();
        assert_eq!(v["messages"], serde_json::json!([]));
    }

    /// A `session` row is read by column name, whatever the columns' order, with the
    /// columns another version lacks or adds costing nothing.
    #[test]
    fn session_rows_by_column_name() {
        let names = [
            "time_updated",
            "extra",
            "parent_id",
            "id",
            "title",
            "time_created",
        ];
        let cells = [
            Cell::Integer(1_700_000_001_000),
            Cell::Text("x".into()),
            Cell::Text(String::new()),
            Cell::Text("ses_1".into()),
            Cell::Text("Fix \"it\"".into()),
            Cell::Real(1_700_000_000_000.0),
        ];
        let r = SessionRow::from_columns(&names, |i| cells[i].clone()).unwrap();
        assert_eq!(
            r,
            SessionRow {
                directory: None,
                ..row()
            }
        );
        let none = SessionRow::from_columns(&["id"], |_| Cell::Null);
        assert_eq!(none, None, "a row without an id is not a session");
        assert!(left_beside_db("auth.json", true));
        assert!(!left_beside_db("opencode-dev.db", true));
        assert!(left_beside_db("storage", false));
        assert!(!left_beside_db("projects", false));
    }

    #[test]
    fn entries_and_their_sub_agents() {
        let mut child = row();
        child.id = "ses_2".into();
        child.parent_id = Some("ses_1".into());
        child.title = Some("Child session - 2025-01-01".into());
        let mut entries = vec![row().entry("opencode.db"), child.entry("opencode.db")];
        link_children(&mut entries);
        assert_eq!(entries[0].title, "Fix \"it\"");
        assert_eq!(entries[0].agent, Agent::OpenCode);
        assert_eq!(
            entries[0].created.as_deref(),
            Some("2023-11-14T22:13:20.000Z")
        );
        assert_eq!(entries[0].children, ["ses_2"]);
        assert_eq!(entries[1].title, "OpenCode session ses_2");
        assert_eq!(entries[1].parent.as_ref().unwrap().conversation, "ses_1");
    }
}
