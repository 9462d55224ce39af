//! Cursor's `state.vscdb`, row by row (the host runs the SQL; this reads the values).
//!
//! - `globalStorage/state.vscdb`, table `cursorDiskKV(key, value)`:
//!   `composerData:<composerId>` holds a composer — its name, `createdAt`,
//!   `lastUpdatedAt`, and either the headers `fullConversationHeadersOnly`
//!   (`[{bubbleId, type}]`, the split layout, each bubble in its own row
//!   `bubbleId:<composerId>:<bubbleId>`) or the bubbles inline in `conversation` (the
//!   older layout);
//! - `workspaceStorage/<hash>/state.vscdb`, table `ItemTable(key, value)`: key
//!   `composer.composerData` lists the composers of that workspace
//!   (`allComposers: [{composerId, name, createdAt, lastUpdatedAt}]`), and
//!   `workspace.json` beside it names the folder (`{"folder": "file:///…"}`).
//!
//! [`assemble`] puts a composer and its bubble rows together into the saved-conversation
//! shape the `cursor-store` format reads (seed 003's `conversationMap`); a bubble whose
//! row is missing, malformed or over [`MAX_ROW_BYTES`] becomes a gap (an `error`
//! document naming it), not a failure. The limit is per bubble: the assembled
//! conversation is read with an event limit of its own size (see [`read_limits`]).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::one_line;
use docstream_model::read_json::json_kind;
use docstream_model::time::time_of;

/// Key prefix of a composer row in `cursorDiskKV`.
pub const COMPOSER_PREFIX: &str = "composerData:";
/// Key prefix of a bubble row in `cursorDiskKV`.
pub const BUBBLE_PREFIX: &str = "bubbleId:";
/// Key of the workspace's composer list in `ItemTable`.
pub const WORKSPACE_KEY: &str = "composer.composerData";
/// The file beside a workspace's `state.vscdb` that names its folder.
pub const WORKSPACE_JSON: &str = "workspace.json";
/// The largest `workspace.json` read (a real one is a line).
pub const MAX_WORKSPACE_JSON: u64 = 1 << 20;
/// The key range of the composer rows: `from <= key < to` (the key index serves it).
pub const COMPOSER_RANGE: (&str, &str) = ("composerData:", "composerData;");

/// The largest row value read: one bubble, one composer, one workspace list — the
/// default event limit (`Limits::default().max_event_bytes`, 16 MiB). A bubble over it
/// is that bubble's error; the rest of its conversation is read.
pub const MAX_ROW_BYTES: usize = 16 << 20;

/// A size for messages: `17.0 MiB`, `512 KiB`, `20 bytes`.
pub fn size_text(n: u64) -> String {
    match n {
        0..1024 => format!("{n} bytes"),
        1024..1_048_576 => format!("{} KiB", n / 1024),
        _ if n % 1_048_576 == 0 => format!("{} MiB", n / 1_048_576),
        _ => format!("{:.1} MiB", n as f64 / 1_048_576.0),
    }
}

/// Why a row is not read: it is over [`MAX_ROW_BYTES`].
pub fn too_large(what: &str, n: u64) -> String {
    format!(
        "{what} is {}, over the {} a row may hold (Limits::max_event_bytes); it was not read",
        size_text(n),
        size_text(MAX_ROW_BYTES as u64)
    )
}

/// The limits to read an assembled conversation of `len` bytes with: each bubble was
/// held to [`MAX_ROW_BYTES`] already, so the whole may be as large as it is.
pub fn read_limits(len: usize) -> docstream_core::Limits {
    let limits = docstream_core::Limits::default();
    docstream_core::Limits {
        max_event_bytes: limits.max_event_bytes.max(len.saturating_add(1)),
        ..limits
    }
}

/// The key of one bubble's row.
pub fn bubble_key(composer: &str, bubble: &str) -> String {
    format!("{BUBBLE_PREFIX}{composer}:{bubble}")
}

/// What the list needs of a composer row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Composer {
    /// `composerId` (from the key when the value lacks it).
    pub id: String,
    /// The name Cursor gave it, if any.
    pub name: Option<String>,
    /// `createdAt` as ISO 8601.
    pub created: Option<String>,
    /// `lastUpdatedAt` as ISO 8601.
    pub updated: Option<String>,
    /// Bubble ids of the split layout, in order (their rows hold the bubbles).
    pub bubbles: Vec<String>,
    /// Bubbles held inline (the older layout, or a filled `conversationMap`).
    pub inline: usize,
    /// Prompts plus responses, counted from the bubble types.
    pub messages: usize,
    /// The first prompt's text, when it is inline.
    pub first_prompt: Option<String>,
}

impl Composer {
    /// A composer with no bubble: a chat opened and never sent (Cursor keeps many).
    pub fn is_empty(&self) -> bool {
        self.bubbles.is_empty() && self.inline == 0
    }

    /// The title: the name, else the first prompt, else the id.
    pub fn title(&self) -> String {
        self.name
            .as_deref()
            .or(self.first_prompt.as_deref())
            .map(|t| one_line(t, 100))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("Conversation {}", self.id))
    }
}

fn parse_object(value: &[u8], what: &str) -> Result<Map<String, Value>, String> {
    match docstream_model::read_json::from_slice::<Value>(value) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(other) => Err(format!(
            "{what} is not a JSON object (it is {})",
            json_kind(&other)
        )),
        Err(e) => Err(format!("{what} is not valid JSON: {e}")),
    }
}

fn string(o: &Map<String, Value>, key: &str) -> Option<String> {
    o.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned)
}

/// 1 HUMAN, 2 AI (numbers or names).
fn is_human(t: Option<&Value>) -> Option<bool> {
    match t? {
        Value::Number(n) => match n.as_u64()? {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        },
        Value::String(s) => {
            let s = s.to_ascii_uppercase();
            Some(s.ends_with("HUMAN") || s == "USER")
        }
        _ => None,
    }
}

/// Turns from a sequence of bubble types: every prompt is one, a run of AI bubbles one.
fn count_turns(types: impl Iterator<Item = Option<bool>>) -> usize {
    let mut n = 0;
    let mut in_response = false;
    for human in types {
        match human {
            Some(true) => {
                n += 1;
                in_response = false;
            }
            Some(false) if !in_response => {
                n += 1;
                in_response = true;
            }
            _ => {}
        }
    }
    n
}

/// Reads a `composerData:<id>` row; `key_id` is the id from the key.
pub fn composer(key_id: &str, value: &[u8]) -> Result<Composer, String> {
    let what = format!("{COMPOSER_PREFIX}{key_id}");
    if value.len() > MAX_ROW_BYTES {
        return Err(too_large(&what, value.len() as u64));
    }
    let o = parse_object(value, &what)?;
    let mut c = Composer {
        id: string(&o, "composerId").unwrap_or_else(|| key_id.to_owned()),
        name: string(&o, "name"),
        created: o.get("createdAt").and_then(time_of),
        updated: o.get("lastUpdatedAt").and_then(time_of),
        ..Composer::default()
    };
    if let Some(Value::Array(headers)) = o.get("fullConversationHeadersOnly") {
        c.bubbles = headers
            .iter()
            .filter_map(|h| h.get("bubbleId")?.as_str().map(str::to_owned))
            .collect();
        c.messages = count_turns(headers.iter().map(|h| is_human(h.get("type"))));
    }
    let inline: Vec<&Value> = match o.get("conversation") {
        // The older layout, or the grouped request form.
        Some(Value::Array(list)) => list
            .iter()
            .flat_map(|b| match b.get("messages") {
                Some(Value::Array(m)) => m.iter().collect(),
                _ => vec![b],
            })
            .collect(),
        _ => match o.get("conversationMap") {
            Some(Value::Object(m)) if c.bubbles.is_empty() => m.values().collect(),
            _ => Vec::new(),
        },
    };
    c.inline = inline.len();
    if c.bubbles.is_empty() {
        c.messages = count_turns(inline.iter().map(|b| is_human(b.get("type"))));
    }
    c.first_prompt = inline
        .iter()
        .find(|b| is_human(b.get("type")) == Some(true))
        .and_then(|b| b.get("text")?.as_str())
        .filter(|t| !t.trim().is_empty())
        .map(str::to_owned);
    Ok(c)
}

/// The text of a bubble row, if it is a prompt (for a title).
pub fn prompt_text(value: &[u8]) -> Option<String> {
    let o = parse_object(value, "bubble").ok()?;
    (is_human(o.get("type")) == Some(true))
        .then(|| string(&o, "text"))
        .flatten()
}

/// A composer as a workspace lists it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkspaceComposer {
    /// `composerId`.
    pub id: String,
    /// Its name in that workspace.
    pub name: Option<String>,
    /// `createdAt` as ISO 8601.
    pub created: Option<String>,
    /// `lastUpdatedAt` as ISO 8601.
    pub updated: Option<String>,
}

/// Reads a workspace's `composer.composerData` value.
pub fn workspace_composers(value: &[u8]) -> Result<Vec<WorkspaceComposer>, String> {
    let o = parse_object(value, WORKSPACE_KEY)?;
    let Some(Value::Array(all)) = o.get("allComposers") else {
        return Ok(Vec::new());
    };
    Ok(all
        .iter()
        .filter_map(Value::as_object)
        .filter_map(|c| {
            Some(WorkspaceComposer {
                id: string(c, "composerId")?,
                name: string(c, "name"),
                created: c.get("createdAt").and_then(time_of),
                updated: c.get("lastUpdatedAt").and_then(time_of),
            })
        })
        .collect())
}

/// The folder a workspace opened, from its `workspace.json` (`folder`, or the
/// `workspace` file of a multi-root workspace), as a path when it is a `file:` URI.
pub fn workspace_folder(workspace_json: &[u8]) -> Option<String> {
    let o = parse_object(workspace_json, "workspace.json").ok()?;
    let uri = string(&o, "folder").or_else(|| string(&o, "workspace"))?;
    Some(match uri.strip_prefix("file://") {
        Some(path) => percent_decode(path),
        None => uri,
    })
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What a SQLite error likely means, by its primary result code (`SQLITE_BUSY` 5 …), to
/// follow SQLite's own message: ` (the file is damaged or truncated)`; empty when there
/// is nothing to add.
pub fn sqlite_hint(code: i32) -> &'static str {
    match code & 0xff {
        5 | 6 => {
            " (the database is locked by a program writing to it; close Cursor or copy the file)"
        }
        26 => " (the file is not a SQLite database)",
        11 => " (the file is damaged or truncated)",
        14 => " (the file cannot be opened)",
        18 => " (a value is over the 16 MiB a row may hold)",
        9 => {
            " (a statement gave no row for 20 s: the database's schema makes reading it too costly)"
        }
        _ => "",
    }
}

/// Why an empty file is not read as a database.
pub const EMPTY_FILE: &str = "the file is empty (0 bytes): there is no database in it";

/// The note said when a database's write-ahead log (`wal`, `size` bytes) is not read:
/// `why` it could not be.
pub fn wal_not_read(wal: &str, size: u64, db: &str, why: &str) -> String {
    format!(
        "not read: {wal} ({}), the write-ahead log of {db}: {why}; the list is of the database file alone and may miss its newest messages",
        size_text(size)
    )
}

/// What the list needs of one Cursor database, handed over row by row by the host:
/// the composer rows ([`COMPOSER_RANGE`] of `cursorDiskKV`), then the first bubble of
/// each composer that has no title ([`CursorDb::title_keys`]), then `ItemTable`'s
/// [`WORKSPACE_KEY`] row and, when it lists composers, the `workspace.json` beside the
/// database. A row over [`MAX_ROW_BYTES`] is handed over as its size (`Err`), never read.
#[derive(Debug, Clone, Default)]
pub struct CursorDb {
    /// Composers of `cursorDiskKV` (`Err`: a row that could not be read).
    pub(crate) composers: Vec<(String, Result<Composer, String>)>,
    /// First prompts read from bubble rows, for untitled composers.
    pub(crate) prompts: HashMap<String, String>,
    /// From `ItemTable`: the workspace's composers.
    pub(crate) workspace: Vec<WorkspaceComposer>,
    /// The folder its `workspace.json` names.
    pub(crate) folder: Option<String>,
    /// What could not be read (an unmerged log, a workspace list over the limit).
    pub(crate) notes: Vec<String>,
}

impl CursorDb {
    /// An empty database (no table read yet).
    pub fn new() -> CursorDb {
        CursorDb::default()
    }

    /// A `composerData:<id>` row: its value, or its size when over [`MAX_ROW_BYTES`].
    pub fn composer_row(&mut self, key: &str, value: Result<&[u8], u64>) {
        let id = key.strip_prefix(COMPOSER_PREFIX).unwrap_or(key).to_owned();
        let c = match value {
            Ok(v) => composer(&id, v),
            Err(n) => Err(too_large(key, n)),
        };
        self.composers.push((id, c));
    }

    /// The bubble rows to read for titles: (composer id, row key) of the first bubble of
    /// each composer with neither a name nor an inline prompt.
    pub fn title_keys(&self) -> Vec<(String, String)> {
        self.composers
            .iter()
            .filter_map(|(id, c)| {
                let c = c.as_ref().ok()?;
                if c.name.is_some() || c.first_prompt.is_some() {
                    return None;
                }
                Some((id.clone(), bubble_key(id, c.bubbles.first()?)))
            })
            .collect()
    }

    /// The value of a row [`CursorDb::title_keys`] named (one over the limit is not
    /// handed over).
    pub fn title_row(&mut self, composer: &str, value: &[u8]) {
        if let Some(p) = prompt_text(value) {
            self.prompts.insert(composer.to_owned(), p);
        }
    }

    /// `ItemTable`'s [`WORKSPACE_KEY`] row of the database at `path` (as shown in notes).
    pub fn workspace_row(&mut self, path: &str, value: Result<&[u8], u64>) {
        match value {
            // A workspace list that does not parse only loses the names it had.
            Ok(v) => self.workspace = workspace_composers(v).unwrap_or_default(),
            Err(n) => self.notes.push(format!(
                "{path}: {}; the names of its conversations are not shown",
                too_large(WORKSPACE_KEY, n)
            )),
        }
    }

    /// Whether the workspace list named composers: then the [`WORKSPACE_JSON`] beside
    /// the database is wanted.
    pub fn wants_workspace_json(&self) -> bool {
        !self.workspace.is_empty()
    }

    /// The [`WORKSPACE_JSON`] beside the database (`path` as shown in notes): its bytes,
    /// or its size when over [`MAX_WORKSPACE_JSON`].
    pub fn workspace_json(&mut self, path: &str, value: Result<&[u8], u64>) {
        match value {
            Ok(v) if v.len() as u64 <= MAX_WORKSPACE_JSON => self.folder = workspace_folder(v),
            Ok(v) => self.workspace_json(path, Err(v.len() as u64)),
            Err(n) => self.notes.push(format!(
                "not read: {path} ({}, over {})",
                size_text(n),
                size_text(MAX_WORKSPACE_JSON)
            )),
        }
    }

    /// Something the host could not read of this database, said as a note.
    pub fn note(&mut self, note: String) {
        self.notes.push(note);
    }
}

/// How deep the JSON `bytes` nests (of valid JSON: brackets in strings are skipped).
fn depth(bytes: &[u8]) -> usize {
    let (mut d, mut max, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                d += 1;
                max = max.max(d);
            }
            b'}' | b']' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// One bubble row as the host found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BubbleRow {
    /// The row's value.
    Found(Vec<u8>),
    /// No row for this bubble.
    Missing,
    /// A row of this many bytes, over [`MAX_ROW_BYTES`]: not read.
    TooLarge(u64),
}

/// A composer row and its bubble rows as one saved conversation (`cursor-store`
/// format): the bubbles go into `conversationMap`. A missing row is left out (the
/// reader shows a gap naming the bubble); a row that is not a JSON object, or is over
/// [`MAX_ROW_BYTES`], is kept as a string saying why, which the reader shows as that
/// bubble's error. Read the result with [`read_limits`] of its length.
pub fn assemble(composer: &[u8], bubbles: Vec<(String, BubbleRow)>) -> Result<Vec<u8>, String> {
    let mut o = parse_object(composer, "the composer")?;
    let had_map = o.contains_key("conversationMap");
    let mut map = match o.remove("conversationMap") {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    for (id, row) in bubbles {
        let bytes = match row {
            BubbleRow::Found(bytes) if bytes.len() <= MAX_ROW_BYTES => bytes,
            BubbleRow::Found(bytes) => {
                let why = too_large(&format!("row {id}"), bytes.len() as u64);
                map.insert(id, Value::String(why));
                continue;
            }
            BubbleRow::TooLarge(n) => {
                map.insert(
                    id.clone(),
                    Value::String(too_large(&format!("row {id}"), n)),
                );
                continue;
            }
            BubbleRow::Missing => continue,
        };
        let v = match docstream_model::read_json::from_slice::<Value>(&bytes) {
            // The conversation and its map hold each bubble two levels down.
            Ok(Value::Object(_)) if depth(&bytes) + 2 > docstream_core::Limits::MAX_DEPTH => {
                Value::String(format!(
                    "row {id} is JSON nested deeper than {} levels",
                    docstream_core::Limits::MAX_DEPTH - 2
                ))
            }
            Ok(v @ Value::Object(_)) => v,
            Ok(other) => Value::String(format!(
                "row {} holds {}, not a bubble",
                id,
                json_kind(&other)
            )),
            Err(e) => Value::String(format!("row {id} is not valid JSON: {e}")),
        };
        map.insert(id, v);
    }
    // An empty map would hide the inline `conversation` of the older layout.
    if had_map || !map.is_empty() {
        o.insert("conversationMap".to_owned(), Value::Object(map));
    }
    serde_json::to_vec(&Value::Object(o)).map_err(|e| e.to_string())
}

/// One conversation's rows, handed over by the host, assembled as [`assemble`] does:
/// the composer row, then every row of [`Assembler::range`] (the rows of bubbles the
/// composer does not name are dropped as they come).
#[derive(Debug)]
pub struct Assembler {
    value: Vec<u8>,
    prefix: String,
    bubbles: Vec<String>,
    wanted: HashSet<String>,
    rows: HashMap<String, BubbleRow>,
}

impl Assembler {
    /// The composer `id`'s row: its value, or its size when over [`MAX_ROW_BYTES`].
    pub fn new(id: &str, value: Result<Vec<u8>, u64>) -> Result<Assembler, String> {
        let key = format!("{COMPOSER_PREFIX}{id}");
        let value = value.map_err(|n| too_large(&key, n))?;
        let c = composer(id, &value)?;
        Ok(Assembler {
            value,
            prefix: bubble_key(id, ""),
            wanted: c.bubbles.iter().cloned().collect(),
            bubbles: c.bubbles,
            rows: HashMap::new(),
        })
    }

    /// The key range of the composer's bubble rows: `from <= key < to`, one range scan
    /// of the key index.
    pub fn range(&self) -> (String, String) {
        let mut end = self.prefix.clone();
        end.pop();
        end.push(';');
        (self.prefix.clone(), end)
    }

    /// A row of [`Assembler::range`]: its key and value, or its size when over
    /// [`MAX_ROW_BYTES`].
    pub fn row(&mut self, key: &str, value: Result<Vec<u8>, u64>) {
        let id = key.strip_prefix(&self.prefix).unwrap_or_default();
        if !self.wanted.contains(id) {
            return;
        }
        let row = match value {
            Ok(bytes) => BubbleRow::Found(bytes),
            Err(n) => BubbleRow::TooLarge(n),
        };
        self.rows.insert(id.to_owned(), row);
    }

    /// The conversation (`cursor-store` format); read it with [`read_limits`] of its
    /// length.
    pub fn finish(mut self) -> Result<Vec<u8>, String> {
        let bubbles = std::mem::take(&mut self.bubbles)
            .into_iter()
            .map(|b| {
                let row = self.rows.remove(&b).unwrap_or(BubbleRow::Missing);
                (b, row)
            })
            .collect();
        drop(self.rows);
        assemble(&self.value, bubbles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_inline_composers() {
        let split = br#"{"_v":3,"composerId":"c1","name":"Fix it","createdAt":1700000000000,"lastUpdatedAt":1700000100000,
            "fullConversationHeadersOnly":[{"bubbleId":"b1","type":1},{"bubbleId":"b2","type":2},{"bubbleId":"b3","type":2},{"bubbleId":"b4","type":1}]}"#;
        let c = composer("c1", split).unwrap();
        assert_eq!(c.bubbles, ["b1", "b2", "b3", "b4"]);
        assert_eq!(c.messages, 3);
        assert_eq!(c.created.as_deref(), Some("2023-11-14T22:13:20.000Z"));
        assert_eq!(c.title(), "Fix it");

        let inline = br#"{"_v":1,"composerId":"c2","conversation":[{"type":1,"bubbleId":"x","text":"Why\nis it slow?"},{"type":2,"bubbleId":"y","text":"Because"}]}"#;
        let c = composer("c2", inline).unwrap();
        assert!(c.bubbles.is_empty());
        assert_eq!((c.inline, c.messages), (2, 2));
        assert_eq!(c.title(), "Why is it slow?");

        let empty = composer(
            "c3",
            br#"{"composerId":"c3","fullConversationHeadersOnly":[]}"#,
        );
        assert!(empty.unwrap().is_empty());
        let err = composer("c4", b"{not json").unwrap_err();
        assert!(err.contains("composerData:c4"), "{err}");
        assert!(composer("c5", b"[1]").unwrap_err().contains("an array"));
    }

    #[test]
    fn workspace_rows() {
        let v = br#"{"allComposers":[{"composerId":"c1","name":"One","createdAt":1700000000000},{"name":"no id"}],"selectedComposerIds":["c1"]}"#;
        let w = workspace_composers(v).unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].name.as_deref(), Some("One"));
        assert_eq!(
            workspace_folder(br#"{"folder":"file:///home/me/my%20app"}"#).as_deref(),
            Some("/home/me/my app")
        );
    }

    #[test]
    fn assembled_rows_read_as_a_conversation() {
        let c = br#"{"composerId":"c1","fullConversationHeadersOnly":[{"bubbleId":"b1","type":1},{"bubbleId":"b2","type":2},{"bubbleId":"b3","type":2}]}"#;
        let bytes = assemble(
            c,
            vec![
                (
                    "b1".into(),
                    BubbleRow::Found(br#"{"type":1,"bubbleId":"b1","text":"hello"}"#.to_vec()),
                ),
                ("b2".into(), BubbleRow::Missing),
                ("b3".into(), BubbleRow::Found(b"{oops".to_vec())),
            ],
        )
        .unwrap();
        let conv = crate::parse(&bytes, Some(docstream_core::Format::CursorStore));
        let d = crate::digest::digest(&conv);
        assert_eq!(d.first_prompt.as_deref(), Some("hello"));
        assert_eq!(d.errors, 2, "{conv:#?}");
        let errors: Vec<String> = conv
            .documents()
            .filter(|d| d.doc_type() == docstream_model::DocumentType::Error)
            .map(|d| format!("{} {:?}", d.text(), d.meta))
            .collect();
        assert!(errors[0].contains("b2"), "{errors:?}");
        assert!(errors[1].contains("b3"), "{errors:?}");
    }

    #[test]
    fn the_row_limit_is_the_event_limit_and_applies_per_bubble() {
        assert_eq!(
            MAX_ROW_BYTES,
            docstream_core::Limits::default().max_event_bytes
        );
        assert_eq!(size_text(17 << 20), "17 MiB");
        assert_eq!(size_text(1536), "1 KiB");
        assert_eq!(size_text((3 << 20) / 2), "1.5 MiB");
        let c = br#"{"composerId":"c1","fullConversationHeadersOnly":[{"bubbleId":"b1","type":1},{"bubbleId":"b2","type":2},{"bubbleId":"b3","type":2}]}"#;
        let bytes = assemble(
            c,
            vec![
                (
                    "b1".into(),
                    BubbleRow::Found(br#"{"type":1,"bubbleId":"b1","text":"hello"}"#.to_vec()),
                ),
                ("b2".into(), BubbleRow::TooLarge(20 << 20)),
                (
                    "b3".into(),
                    BubbleRow::Found(br#"{"type":2,"bubbleId":"b3","text":"after"}"#.to_vec()),
                ),
            ],
        )
        .unwrap();
        let conv = crate::parse_with(
            &bytes,
            Some(docstream_core::Format::CursorStore),
            read_limits(bytes.len()),
        );
        let errors: Vec<String> = conv
            .documents()
            .filter(|d| d.doc_type() == docstream_model::DocumentType::Error)
            .map(|d| format!("{} {:?}", d.text(), d.meta))
            .collect();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].contains("b2") && errors[0].contains("20 MiB"),
            "{errors:?}"
        );
        assert!(conv.documents().any(|d| d.text() == "after"));
        assert_eq!(read_limits(10).max_event_bytes, 16 << 20);
        assert_eq!(read_limits(40 << 20).max_event_bytes, (40 << 20) + 1);
        // A bubble nested as deep as a whole event may be would push the conversation
        // over the depth limit: it is the one refused.
        let deep = format!(
            r#"{{"type":2,"bubbleId":"b2","x":{}1{}}}"#,
            "[".repeat(126),
            "]".repeat(126)
        );
        let bytes = assemble(
            c,
            vec![
                ("b2".into(), BubbleRow::Found(deep.into_bytes())),
                (
                    "b3".into(),
                    BubbleRow::Found(br#"{"type":2,"bubbleId":"b3","text":"after"}"#.to_vec()),
                ),
            ],
        )
        .unwrap();
        let conv = crate::parse_with(
            &bytes,
            Some(docstream_core::Format::CursorStore),
            read_limits(bytes.len()),
        );
        assert!(conv.documents().any(|d| d.text() == "after"), "{conv:#?}");
        assert_eq!(depth(br#"{"a":"[[{{","b":[1,{"c":""]"}]}"#), 3);
        let err = composer("big", &vec![b' '; MAX_ROW_BYTES + 1]).unwrap_err();
        assert!(
            err.contains("composerData:big") && err.contains("16 MiB"),
            "{err}"
        );
    }
}
