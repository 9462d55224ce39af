//! OpenCode's store, sans-IO: `opencode.db` (`~/.local/share/opencode/`, or
//! `opencode-<channel>.db` beside it for other release channels), a SQLite database
//! whose tables `session`, `message` and `part` hold each session (anomalyco/opencode,
//! formerly sst/opencode: `packages/opencode/src/session/session.sql.ts`). A message's
//! and a part's `data` column is the message or part as JSON, without the ids the row
//! carries.
//!
//! The host reads the rows ([`crate::store`] with SQLite); [`SessionRow::entry`] makes
//! a session's entry, and [`Assembler`] puts a session's rows together as the JSON
//! `opencode export` writes (`{info, messages: [{info, parts}]}`), which docstream
//! reads as `opencode-export`.

use std::fmt::Write as _;

use serde_json::value::RawValue;

use crate::{Agent, Entry, ParentLink};
use docstream_model::time::iso_8601;

/// The folders of OpenCode's data folder that hold no session docstream reads (its
/// files from before the database, snapshots, logs, binaries, tool output): a folder
/// scan that finds `opencode.db` does not search them, nor read the other files beside
/// it (`auth.json` holds credentials).
pub const NOT_SESSIONS: &[&str] = &["storage", "snapshot", "log", "bin", "tool-output"];

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

fn time(ms: Option<i64>) -> Option<String> {
    ms.and_then(|ms| u64::try_from(ms).ok()).map(iso_8601)
}

/// A title OpenCode gives a session before it has one of its own.
fn placeholder(title: &str) -> bool {
    title.starts_with("New session - ") || title.starts_with("Child session - ")
}

impl SessionRow {
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
/// facts, then each message (in the order the host gives them: `time_created`, `id`)
/// with its parts (by `id`, which OpenCode makes ascending in time). A row whose
/// `data` is not a JSON object, or is too large to read, stands as a part (or a
/// message) of a type docstream does not know, counted when the session is read.
#[derive(Debug)]
pub struct Assembler {
    out: String,
    /// A message is open (its `parts` array too).
    open: bool,
    /// The open message's first part is written.
    parted: bool,
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
        }
    }

    /// The next message, `id` with its `data`.
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
    }

    /// The next part of the message last given (a part before any message is left
    /// out: the host gives a message's parts after it).
    pub fn part(&mut self, id: &str, data: RowData) {
        if !self.open {
            return;
        }
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
        a.part("orphan", Ok(b"{}".to_vec()));
        a.message("m1", Ok(br#"{"role":"user"}"#.to_vec()));
        a.part("p1", Ok(br#" {"type":"text","text":"hi"}"#.to_vec()));
        a.part("p2", Ok(b"{}".to_vec()));
        a.message("m2", Ok(b"{\"role\":".to_vec()));
        a.part("p3", Err(20 << 20));
        a.part("p4", Ok(b"[1]".to_vec()));
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
        let empty = Assembler::new(&SessionRow::default()).finish();
        let v: serde_json::Value = serde_json::from_slice(&empty).unwrap();
        assert_eq!(v["messages"], serde_json::json!([]));
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
