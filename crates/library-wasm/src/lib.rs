//! The store readers of `docstream-library` for the viewer's library worker
//! (`www/viewer/library/worker.js`): `www/viewer/vendor/library/library_bg.wasm`, built by
//! `scripts/build-library-wasm.sh`, never part of the npm package.
//!
//! The worker does the IO — it runs SQLite (sqlite-wasm) over the browser's `File`s and
//! reads files in slices — and hands the rows and bytes to the same sans-IO readers the
//! CLI uses: [`CursorDb`] takes a Cursor database's rows, [`Scanner`] a session file in
//! pieces, [`Reader`] a transcript in pieces, [`Catalog`] makes the list of a folder
//! (titles, projects, sub-agent links, error entries, ids, order), [`Assembler`] puts a
//! Cursor conversation together from its bubble rows, [`OpenCodeDb`] and
//! [`OpenCodeAssembler`] do the same for OpenCode's `opencode.db`, and [`Listing::index`] gives each
//! conversation's exact counts and searchable text; [`Listing::subagents`] names the
//! files of a session's sub-agents, read with it ([`Reader::add_subagent`]). So the viewer lists what
//! `docstream list --json` lists, by one set of rules.
//!
//! A row value crosses as a `Uint8Array` or a string, or, when SQLite did not load it
//! because it is over [`maxRowBytes`], as `null` with its length. Results cross as JSON
//! (`JSON.parse` of what Rust wrote). Wrong input is a JS `Error` with a `code`:
//! `DS_BAD_INPUT`, or `DS_UNREADABLE` for a conversation that cannot be read.

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

use std::collections::HashMap;

use serde::Serialize;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use docstream_core::{Format, Limits};
use docstream_library::catalog::{self, Source};
use docstream_library::claude_code;
use docstream_library::cursor::{self, MAX_ROW_BYTES};
use docstream_library::digest::{Digest, digest};
use docstream_library::opencode;
use docstream_library::{Entry, FileKind};

/// A JS `Error` with a `code` property (as the stream's module makes them).
fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

fn bad_input(message: &str) -> JsValue {
    js_error("DS_BAD_INPUT", message)
}

/// A Rust value written as JSON and parsed into JS objects.
fn write<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let json = serde_json::to_string(value).map_err(|e| js_error("DS_INTERNAL", &e.to_string()))?;
    js_sys::JSON::parse(&json).map_err(|_| js_error("DS_INTERNAL", "JSON.parse failed"))
}

/// The bytes of a value: a string (as UTF-8), a `Uint8Array` or an `ArrayBuffer`.
fn bytes_of(v: &JsValue) -> Option<Vec<u8>> {
    if let Some(s) = v.as_string() {
        return Some(s.into_bytes());
    }
    if let Some(a) = v.dyn_ref::<js_sys::Uint8Array>() {
        return Some(a.to_vec());
    }
    v.dyn_ref::<js_sys::ArrayBuffer>()
        .map(|b| js_sys::Uint8Array::new(b).to_vec())
}

/// A row value as the readers take it: its bytes, or its size when SQLite did not load
/// it (`null` with a `length` over [`maxRowBytes`]). `null` within the limit is SQL's
/// NULL: no bytes.
fn row(value: &JsValue, length: f64) -> Result<Vec<u8>, u64> {
    match bytes_of(value) {
        Some(b) => Ok(b),
        None if length > MAX_ROW_BYTES as f64 => Err(length as u64),
        None => Ok(Vec::new()),
    }
}

fn kind_name(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Database => "database",
        FileKind::Lines => "lines",
        FileKind::Other => "other",
    }
}

fn kind_of_name(kind: &str) -> Result<FileKind, JsValue> {
    match kind {
        "database" => Ok(FileKind::Database),
        "lines" => Ok(FileKind::Lines),
        "other" => Ok(FileKind::Other),
        _ => Err(bad_input(&format!(
            "unknown file kind {kind:?} (database, lines, other)"
        ))),
    }
}

/// What a folder's list reads of a file named `name` (no folders): `"database"`,
/// `"lines"`, `"other"`, or `undefined` for a file it does not read.
#[wasm_bindgen(js_name = fileKind)]
pub fn file_kind(name: &str) -> Option<String> {
    FileKind::of(name).map(|k| kind_name(k).to_owned())
}

/// Whether a folder (or file) named `name` is searched: not hidden, not `node_modules`.
#[wasm_bindgen(js_name = searched)]
pub fn searched(name: &str) -> bool {
    FileKind::searched_folder(name)
}

/// The largest row value read, in bytes (16 MiB, the event limit): a larger one is
/// handed over as its length.
#[wasm_bindgen(js_name = maxRowBytes)]
pub fn max_row_bytes() -> f64 {
    MAX_ROW_BYTES as f64
}

/// The largest sub-agent file read into its session, in bytes (64 MiB).
#[wasm_bindgen(js_name = maxSubagentFile)]
pub fn max_subagent_file() -> f64 {
    catalog::MAX_SUBAGENT_FILE as f64
}

/// The largest `workspace.json` read, in bytes.
#[wasm_bindgen(js_name = maxWorkspaceJson)]
pub fn max_workspace_json() -> f64 {
    cursor::MAX_WORKSPACE_JSON as f64
}

/// Why the database at `path` cannot be read: SQLite's `message` and what its result
/// `code` likely means (locked, not a database, damaged).
#[wasm_bindgen(js_name = databaseError)]
pub fn database_error(path: &str, code: i32, message: &str) -> String {
    format!("cannot read {path}: {message}{}", cursor::sqlite_hint(code))
}

/// Why an empty file at `path` is not read as a database.
#[wasm_bindgen(js_name = emptyDatabase)]
pub fn empty_database(path: &str) -> String {
    format!("cannot read {path}: {}", cursor::EMPTY_FILE)
}

/// The note said when the write-ahead log `wal` (`size` bytes) of `db` is not read.
#[wasm_bindgen(js_name = walNotRead)]
pub fn wal_not_read(wal: &str, size: f64, db: &str, why: &str) -> String {
    cursor::wal_not_read(wal, size as u64, db, why)
}

/// The event limit (`maxEventBytes`) to read an assembled Cursor conversation of
/// `length` bytes with: the limit applies to each bubble, not to the whole.
#[wasm_bindgen(js_name = cursorEventLimit)]
pub fn cursor_event_limit(length: f64) -> f64 {
    cursor::read_limits(length as usize).max_event_bytes as f64
}

/// What the list needs of one Cursor database, row by row (`new CursorDb()`).
#[wasm_bindgen]
#[derive(Default)]
pub struct CursorDb {
    inner: cursor::CursorDb,
}

#[wasm_bindgen]
impl CursorDb {
    /// A database with nothing read yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> CursorDb {
        CursorDb::default()
    }

    /// The key of the workspace's composer list in `ItemTable`.
    #[wasm_bindgen(js_name = workspaceKey)]
    pub fn workspace_key() -> String {
        cursor::WORKSPACE_KEY.to_owned()
    }

    /// The key range of the composer rows of `cursorDiskKV`: `[from, to)`.
    #[wasm_bindgen(js_name = composerRange, unchecked_return_type = "[string, string]")]
    pub fn composer_range() -> Result<JsValue, JsValue> {
        write(&cursor::COMPOSER_RANGE)
    }

    /// A `composerData:<id>` row.
    #[wasm_bindgen(js_name = composerRow)]
    pub fn composer_row(
        &mut self,
        key: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null")] value: JsValue,
        length: f64,
    ) {
        let v = row(&value, length);
        self.inner.composer_row(key, v.as_deref().map_err(|n| *n));
    }

    /// The bubble rows to read for titles: `[composerId, key][]`.
    #[wasm_bindgen(js_name = titleKeys, unchecked_return_type = "[string, string][]")]
    pub fn title_keys(&self) -> Result<JsValue, JsValue> {
        write(&self.inner.title_keys())
    }

    /// The value of a row [`CursorDb::title_keys`] named.
    #[wasm_bindgen(js_name = titleRow)]
    pub fn title_row(
        &mut self,
        composer: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string")] value: JsValue,
    ) {
        if let Some(v) = bytes_of(&value) {
            self.inner.title_row(composer, &v);
        }
    }

    /// `ItemTable`'s `composer.composerData` row of the database at `path`.
    #[wasm_bindgen(js_name = workspaceRow)]
    pub fn workspace_row(
        &mut self,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null")] value: JsValue,
        length: f64,
    ) {
        let v = row(&value, length);
        self.inner.workspace_row(path, v.as_deref().map_err(|n| *n));
    }

    /// Whether the `workspace.json` beside the database is wanted.
    #[wasm_bindgen(js_name = wantsWorkspaceJson)]
    pub fn wants_workspace_json(&self) -> bool {
        self.inner.wants_workspace_json()
    }

    /// The `workspace.json` at `path`: its bytes, or `null` and its size when over
    /// [`maxWorkspaceJson`].
    #[wasm_bindgen(js_name = workspaceJson)]
    pub fn workspace_json(
        &mut self,
        path: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null")] value: JsValue,
        size: f64,
    ) {
        match bytes_of(&value) {
            Some(b) => self.inner.workspace_json(path, Ok(&b)),
            None => self.inner.workspace_json(path, Err(size as u64)),
        }
    }

    /// Something that could not be read of this database (a write-ahead log).
    pub fn note(&mut self, text: String) {
        self.inner.note(text);
    }
}

/// A value of a row as sqlite-wasm gives it (`null`, a number, a bigint, a string or a
/// `Uint8Array`).
fn cell(v: &JsValue) -> opencode::Cell {
    if let Some(n) = v.as_f64() {
        if n.fract() == 0.0 && n.abs() <= i64::MAX as f64 {
            opencode::Cell::Integer(n as i64)
        } else {
            opencode::Cell::Real(n)
        }
    } else if v.is_bigint() {
        i64::try_from(v.clone()).map_or(opencode::Cell::Null, opencode::Cell::Integer)
    } else if let Some(b) = bytes_of(v) {
        opencode::Cell::Text(String::from_utf8_lossy(&b).into_owned())
    } else {
        opencode::Cell::Null
    }
}

/// A `session` row: its columns' names and values.
fn session_row(names: &[String], values: &js_sys::Array) -> Option<opencode::SessionRow> {
    opencode::SessionRow::from_columns(names, |i| cell(&values.get(i as u32)))
}

/// What the list needs of one OpenCode database (`new OpenCodeDb(columns)`): its
/// `session` rows, read with [`OpenCodeDb::sql`] (`sessions`), whose columns are
/// `columns`.
#[wasm_bindgen]
pub struct OpenCodeDb {
    names: Vec<String>,
    rows: Vec<opencode::SessionRow>,
}

#[wasm_bindgen]
impl OpenCodeDb {
    /// A database whose `session` rows have the columns `columns`.
    #[wasm_bindgen(constructor)]
    pub fn new(columns: Vec<String>) -> OpenCodeDb {
        OpenCodeDb {
            names: columns,
            rows: Vec::new(),
        }
    }

    /// The tables a database must have to be read as OpenCode's (else it is read as
    /// Cursor's).
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn tables() -> Result<JsValue, JsValue> {
        write(&opencode::TABLES)
    }

    /// The SQL of `what`: `"sessions"` (every `session` row), `"session"` (the row of
    /// id `?1`), `"parts"` and `"messages"` (of session `?1`, values over `?2` =
    /// [`maxRowBytes`] bytes as NULL with their length).
    pub fn sql(what: &str) -> Result<String, JsValue> {
        Ok(match what {
            "sessions" => opencode::SESSIONS_SQL,
            "session" => opencode::SESSION_SQL,
            "parts" => opencode::PARTS_SQL,
            "messages" => opencode::MESSAGES_SQL,
            _ => return Err(bad_input(&format!("no OpenCode query {what:?}"))),
        }
        .to_owned())
    }

    /// A `session` row: its values in column order.
    pub fn row(&mut self, values: js_sys::Array) {
        self.rows.extend(session_row(&self.names, &values));
    }
}

/// In a folder holding an OpenCode database, whether `name` beside it is left unread
/// (`isFile`: a file, else a folder): OpenCode's own files and folders, as the CLI
/// leaves them.
#[wasm_bindgen(js_name = leftBesideOpenCodeDb)]
pub fn left_beside_opencode_db(name: &str, is_file: bool) -> bool {
    opencode::left_beside_db(name, is_file)
}

/// Whether a file named `name` is an OpenCode database (`opencode.db`,
/// `opencode-<channel>.db`).
#[wasm_bindgen(js_name = isOpenCodeDb)]
pub fn is_opencode_db(name: &str) -> bool {
    opencode::is_db_name(name)
}

/// An OpenCode session's rows put together (`new OpenCodeAssembler(session, columns,
/// values)`, the session's row as `OpenCodeDb.sql("session")` gives it, `values`
/// `undefined` when there is none): then every row of `sql("parts")`
/// (`part(messageId, id, data, length)`), every row of `sql("messages")`
/// (`message(id, data, length)`), then `finish()`.
#[wasm_bindgen]
pub struct OpenCodeAssembler {
    inner: opencode::Assembler,
}

#[wasm_bindgen]
impl OpenCodeAssembler {
    /// The session's row; a `DS_NOT_FOUND` error when it has none.
    #[wasm_bindgen(constructor)]
    pub fn new(
        session: &str,
        columns: Vec<String>,
        values: Option<js_sys::Array>,
    ) -> Result<OpenCodeAssembler, JsValue> {
        let row = values
            .and_then(|v| session_row(&columns, &v))
            .ok_or_else(|| {
                js_error(
                    "DS_NOT_FOUND",
                    &format!("no conversation {session:?} in this store"),
                )
            })?;
        Ok(OpenCodeAssembler {
            inner: opencode::Assembler::new(&row),
        })
    }

    /// A row of `sql("parts")`.
    pub fn part(
        &mut self,
        message: &str,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null")] data: JsValue,
        length: f64,
    ) {
        self.inner.part(message, id, row(&data, length));
    }

    /// A row of `sql("messages")`.
    pub fn message(
        &mut self,
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null")] data: JsValue,
        length: f64,
    ) {
        self.inner.message(id, row(&data, length));
    }

    /// The session's bytes (`opencode-export` format), read with [`cursorEventLimit`]
    /// of their length (each row was held to [`maxRowBytes`]).
    pub fn finish(self) -> Vec<u8> {
        self.inner.finish()
    }
}

/// A session file read in pieces of any size (`new Scanner()`, `push` each piece):
/// memory is what the list needs and at most one line.
#[wasm_bindgen]
#[derive(Default)]
pub struct Scanner {
    inner: claude_code::Scanner,
}

#[wasm_bindgen]
impl Scanner {
    /// A scanner at the start of a file.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Scanner {
        Scanner::default()
    }

    /// The next bytes of the file.
    pub fn push(&mut self, bytes: &[u8]) {
        self.inner.push(bytes);
    }
}

/// A conversation read in pieces (`new Reader(format?, maxEventBytes?)`): a format
/// name (`"cursor-store"`, `"claude-code-transcript"`) or none to detect it.
#[wasm_bindgen]
pub struct Reader {
    inner: docstream_library::Reader,
}

#[wasm_bindgen]
impl Reader {
    /// A reader of `format` (detected when absent), with the event limit
    /// `maxEventBytes` (the default when absent).
    #[wasm_bindgen(constructor)]
    pub fn new(format: Option<String>, max_event_bytes: Option<f64>) -> Result<Reader, JsValue> {
        // `Format::parse` gives `None` for "auto": detected.
        let format = match format.as_deref() {
            None => None,
            Some(name) => {
                Format::parse(name).map_err(|_| bad_input(&format!("unknown format {name:?}")))?
            }
        };
        let mut limits = Limits::default();
        if let Some(n) = max_event_bytes {
            limits.max_event_bytes = n as usize;
        }
        Ok(Reader {
            inner: docstream_library::Reader::new(format, limits),
        })
    }

    /// The next bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        self.inner.push(bytes);
    }

    /// A Claude Code sub-agent's own file (`agent-<agentId>.jsonl`, as
    /// [`Listing::subagents`] names them), before the session's bytes: read as the run
    /// of the call that started it, counted into the session.
    #[wasm_bindgen(js_name = addSubagent)]
    pub fn add_subagent(&mut self, agent_id: &str, transcript: Vec<u8>) {
        self.inner.add_subagent(agent_id, transcript);
    }

    /// One line of a sub-agent inside its session (its line end added if it has none).
    #[wasm_bindgen(js_name = pushLine)]
    pub fn push_line(&mut self, line: &[u8]) {
        self.inner.push_line(line);
    }
}

/// A Cursor conversation's rows put together (`new Assembler(composerId, value,
/// length)`): then every row of `range()`, then `finish()`.
#[wasm_bindgen]
pub struct Assembler {
    inner: cursor::Assembler,
    composer: String,
}

/// A conversation that cannot be read, said as the CLI says it.
fn unreadable(composer: &str, message: &str) -> JsValue {
    js_error(
        "DS_UNREADABLE",
        &format!("conversation {composer} cannot be read: {message}"),
    )
}

#[wasm_bindgen]
impl Assembler {
    /// The key of composer `composer`'s row in `cursorDiskKV`.
    pub fn key(composer: &str) -> String {
        format!("{}{composer}", cursor::COMPOSER_PREFIX)
    }

    /// The composer's row (`undefined` when there is none: a `DS_NOT_FOUND` error); a
    /// `DS_UNREADABLE` error when it cannot be read (over the limit, not JSON).
    #[wasm_bindgen(constructor)]
    pub fn new(
        composer: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null | undefined")]
        value: JsValue,
        length: f64,
    ) -> Result<Assembler, JsValue> {
        if value.is_undefined() {
            return Err(js_error(
                "DS_NOT_FOUND",
                &format!("no conversation {composer:?} in this store"),
            ));
        }
        cursor::Assembler::new(composer, row(&value, length))
            .map(|inner| Assembler {
                inner,
                composer: composer.to_owned(),
            })
            .map_err(|m| unreadable(composer, &m))
    }

    /// The key range of the bubble rows: `[from, to)`.
    #[wasm_bindgen(unchecked_return_type = "[string, string]")]
    pub fn range(&self) -> Result<JsValue, JsValue> {
        write(&self.inner.range())
    }

    /// A row of the range.
    pub fn row(
        &mut self,
        key: &str,
        #[wasm_bindgen(unchecked_param_type = "Uint8Array | string | null")] value: JsValue,
        length: f64,
    ) {
        self.inner.row(key, row(&value, length));
    }

    /// The conversation's bytes (`cursor-store` format), read with
    /// [`cursorEventLimit`] of their length.
    pub fn finish(self) -> Result<Vec<u8>, JsValue> {
        let composer = self.composer;
        self.inner.finish().map_err(|m| unreadable(&composer, &m))
    }
}

/// A folder's list, made of what the worker read of each file (`new Catalog(single)`;
/// files are numbered by the worker).
#[wasm_bindgen]
pub struct Catalog {
    inner: catalog::Catalog<u32>,
    /// Digests of the transcript files, read whole to be listed (not read again).
    digests: HashMap<u32, Digest>,
}

#[wasm_bindgen]
impl Catalog {
    /// An empty catalog; `single`: one file was given, not a folder.
    #[wasm_bindgen(constructor)]
    pub fn new(single: bool) -> Catalog {
        Catalog {
            inner: catalog::Catalog::new(single),
            digests: HashMap::new(),
        }
    }

    /// A Cursor database, read.
    pub fn database(&mut self, path: String, file: u32, db: CursorDb) {
        self.inner.database(path, file, Ok(db.inner));
    }

    /// An OpenCode database at `path`, read.
    pub fn opencode(&mut self, path: String, file: u32, db: OpenCodeDb) {
        let entries = db.rows.iter().map(|r| r.entry(&path)).collect();
        self.inner.opencode(path, file, Ok(entries));
    }

    /// A file of `kind` that could not be read, and why (a sentence naming it); an
    /// OpenCode database (by its name) is OpenCode's error entry.
    pub fn unreadable(
        &mut self,
        kind: &str,
        path: String,
        file: u32,
        message: String,
    ) -> Result<(), JsValue> {
        let name = path.rsplit('/').next().unwrap_or_default();
        match kind_of_name(kind)? {
            FileKind::Database if opencode::is_db_name(name) => {
                self.inner.opencode(path, file, Err(message));
            }
            FileKind::Database => self.inner.database(path, file, Err(message)),
            FileKind::Lines => {
                let _ = self.inner.session_file(path, file, Err(message));
            }
            kind => {
                let _ = self.inner.file(kind, path, file, Err(message));
            }
        }
        Ok(())
    }

    /// A `lines` file, scanned; `true` when it is not a session file: then read it
    /// whole with a `Reader` and hand it to `file("lines", …)`.
    #[wasm_bindgen(js_name = sessionFile)]
    pub fn session_file(&mut self, path: String, file: u32, scanner: Scanner) -> bool {
        self.inner
            .session_file(path, file, Ok(scanner.inner.finish()))
    }

    /// A transcript file of `kind` read whole; `true` when it is listed (in a folder, a
    /// file that is not a transcript is not).
    pub fn file(
        &mut self,
        kind: &str,
        path: String,
        file: u32,
        reader: Reader,
    ) -> Result<bool, JsValue> {
        let kind = kind_of_name(kind)?;
        let conv = reader.inner.finish();
        let d = self.inner.file(kind, path, file, Ok(&conv));
        let listed = d.is_some();
        if let Some(d) = d {
            self.digests.insert(file, d);
        }
        Ok(listed)
    }

    /// Something left out or read in part, said with the list.
    pub fn note(&mut self, text: String) {
        self.inner.note(text);
    }

    /// The list.
    pub fn finish(self) -> Listing {
        let listing = self.inner.finish();
        Listing {
            listing,
            digests: self.digests,
        }
    }
}

/// Where an entry's bytes are, for the worker.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
enum JsSource<'a> {
    Cursor {
        file: u32,
        composer: &'a str,
    },
    Claude {
        file: u32,
        /// Byte ranges `[start, end)` of its lines, or none for the whole file.
        lines: Option<Vec<(usize, usize)>>,
    },
    #[serde(rename = "opencode")]
    OpenCode {
        file: u32,
        session: &'a str,
    },
    File {
        file: u32,
    },
}

/// One conversation read: its entry with exact counts, and what search needs.
#[derive(Serialize)]
struct Indexed<'a> {
    entry: &'a Entry,
    /// `[anchor, text]` of every prompt and document with searchable text.
    parts: Vec<(&'a str, &'a str)>,
    /// `[toolCallId, documentId]` of every tool call.
    calls: &'a [(String, String)],
}

/// A folder's list (from `Catalog.finish()`): entries in order, where each one's bytes
/// are, and each conversation's counts once read.
#[wasm_bindgen]
pub struct Listing {
    listing: catalog::Listing<u32>,
    digests: HashMap<u32, Digest>,
}

impl Listing {
    fn at(&mut self, i: usize) -> Result<&mut (Entry, Source<u32>), JsValue> {
        let n = self.listing.items.len();
        self.listing
            .items
            .get_mut(i)
            .ok_or_else(|| bad_input(&format!("no entry {i} (the list has {n})")))
    }

    fn indexed(entry: &Entry, d: &Digest) -> Result<JsValue, JsValue> {
        write(&Indexed {
            entry,
            parts: d
                .parts
                .iter()
                .map(|p| (p.anchor.as_str(), p.text.as_str()))
                .collect(),
            calls: &d.calls,
        })
    }
}

#[wasm_bindgen]
impl Listing {
    /// How many entries.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> usize {
        self.listing.items.len()
    }

    /// The entries, in order (as `docstream list --json` writes them).
    #[wasm_bindgen(unchecked_return_type = "Entry[]")]
    pub fn entries(&self) -> Result<JsValue, JsValue> {
        let entries: Vec<&Entry> = self.listing.items.iter().map(|(e, _)| e).collect();
        write(&entries)
    }

    /// What was left out or read only in part, one sentence each.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn notes(&self) -> Result<JsValue, JsValue> {
        write(&self.listing.notes)
    }

    /// Files that could not be read, one message each.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn unreadable(&self) -> Result<JsValue, JsValue> {
        write(&self.listing.unreadable)
    }

    /// Cursor chats without a message, not listed.
    #[wasm_bindgen(getter, js_name = emptySkipped)]
    pub fn empty_skipped(&self) -> usize {
        self.listing.empty_skipped
    }

    /// Where entry `i`'s bytes are: `{kind: "cursor", file, composer}`,
    /// `{kind: "opencode", file, session}`,
    /// `{kind: "claude", file, lines}` (`lines`: byte ranges, or `null` for the whole
    /// file), `{kind: "file", file}`, or `null` for an error entry.
    pub fn source(&mut self, i: usize) -> Result<JsValue, JsValue> {
        let (_, source) = self.at(i)?;
        let s = match source {
            Source::Cursor { db, composer } => JsSource::Cursor {
                file: *db,
                composer,
            },
            Source::Claude { file, part } => JsSource::Claude {
                file: *file,
                lines: match part {
                    claude_code::Part::Whole => None,
                    claude_code::Part::Lines(r) => {
                        Some(r.iter().map(|r| (r.start, r.end)).collect())
                    }
                },
            },
            Source::File { file } => JsSource::File { file: *file },
            Source::OpenCode { db, session } => JsSource::OpenCode { file: *db, session },
            Source::None => return Ok(JsValue::NULL),
        };
        write(&s)
    }

    /// The files of entry `i`'s sub-agents that have one (a Claude Code session's
    /// `subagents/agent-<id>.jsonl`): `[{agent, file}]`, to read (each up to
    /// [`maxSubagentFile`] bytes; a larger or unreadable one is left out) and hand to
    /// the session's reader (`Reader.addSubagent`) and, when it is shown, to its
    /// stream, as the CLI reads the session.
    #[wasm_bindgen(unchecked_return_type = "{agent: string, file: number}[]")]
    pub fn subagents(&self, i: usize) -> Result<JsValue, JsValue> {
        #[derive(Serialize)]
        struct Sub<'a> {
            agent: &'a str,
            file: u32,
        }
        let items = &self.listing.items;
        let (entry, _) = items
            .get(i)
            .ok_or_else(|| bad_input(&format!("no entry {i} (the list has {})", items.len())))?;
        let files = catalog::subagent_files(items, entry);
        let subs: Vec<Sub<'_>> = files
            .iter()
            .map(|(agent, file)| Sub {
                agent,
                file: **file,
            })
            .collect();
        write(&subs)
    }

    /// Entry `i` read: its counts set from `reader`'s conversation; gives
    /// `{entry, parts, calls}`. A transcript file (read whole to be listed) needs no
    /// reader: `index(i)`.
    pub fn index(&mut self, i: usize, reader: Option<Reader>) -> Result<JsValue, JsValue> {
        let file = match &self.at(i)?.1 {
            Source::File { file } => Some(*file),
            _ => None,
        };
        let cached = file.and_then(|f| self.digests.remove(&f));
        let d = match (cached, reader) {
            (Some(d), _) => d,
            (None, Some(r)) => digest(&r.inner.finish()),
            (None, None) => return Err(bad_input(&format!("entry {i} needs a reader"))),
        };
        let (entry, _) = self.at(i)?;
        entry.read_from(&d);
        Listing::indexed(entry, &d)
    }

    /// Entry `i` could not be read: it becomes an error entry; gives the entry.
    pub fn failed(&mut self, i: usize, message: String) -> Result<JsValue, JsValue> {
        let (entry, _) = self.at(i)?;
        entry.error = Some(message);
        write(entry)
    }
}
