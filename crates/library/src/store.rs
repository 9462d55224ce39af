//! Stores on disk (feature `cli`): a Cursor `state.vscdb`, a Claude Code `projects/`
//! folder or one project's folder, a folder holding any of these and transcript files,
//! or one file.
//!
//! SQLite files are opened read-only (`SQLITE_OPEN_READ_ONLY`, `query_only`), so
//! nothing here can write to a store; a database that is locked by a writer, truncated
//! or not SQLite gives an error naming the file. Inside a folder such a file becomes an
//! error entry of the listing and the other conversations still load.

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::Format;
use crate::claude_code::{self, Part};
use crate::cursor::{self, BubbleRow, COMPOSER_PREFIX, WORKSPACE_KEY};
use crate::digest::{Digest, digest};
use crate::{Agent, Entry, one_line, parse};
use docstream_model::Conversation;

/// Folders deeper than this below the given one are not searched.
const MAX_DEPTH: usize = 8;
/// How long to wait for a writer's lock before saying the database is locked.
const BUSY_WAIT: Duration = Duration::from_millis(250);

/// Why a store or a conversation could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum LibraryError {
    /// A file or folder could not be read.
    Io {
        /// The path.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A SQLite file could not be read: locked, truncated, not a database.
    Database {
        /// The file.
        path: PathBuf,
        /// What SQLite said, and what it likely means.
        message: String,
    },
    /// No conversation has this id.
    NotFound(String),
    /// The entry is listed with an error and has nothing to read.
    Unreadable {
        /// The entry's id.
        id: String,
        /// Its error.
        message: String,
    },
}

impl fmt::Display for LibraryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LibraryError::Io { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            LibraryError::Database { path, message } => {
                write!(f, "cannot read {}: {message}", path.display())
            }
            LibraryError::NotFound(id) => write!(f, "no conversation {id:?} in this store"),
            LibraryError::Unreadable { id, message } => {
                write!(f, "conversation {id} cannot be read: {message}")
            }
        }
    }
}

impl std::error::Error for LibraryError {}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LibraryError + '_ {
    move |error| LibraryError::Io {
        path: path.to_owned(),
        error,
    }
}

/// A SQLite error as a sentence a person can act on.
fn db_error(path: &Path, e: &rusqlite::Error) -> LibraryError {
    use rusqlite::ErrorCode as C;
    let hint = match e.sqlite_error_code() {
        Some(C::DatabaseBusy | C::DatabaseLocked) => {
            " (the database is locked by a program writing to it; close Cursor or copy the file)"
        }
        Some(C::NotADatabase) => " (the file is not a SQLite database)",
        Some(C::DatabaseCorrupt) => " (the file is damaged or truncated)",
        Some(C::CannotOpen) => " (the file cannot be opened)",
        _ => "",
    };
    LibraryError::Database {
        path: path.to_owned(),
        message: format!("{e}{hint}"),
    }
}

/// Where an entry's bytes are.
#[derive(Debug, Clone)]
enum Source {
    /// A composer of a Cursor `cursorDiskKV` table.
    Cursor { db: PathBuf, composer: String },
    /// (Part of) a Claude Code session file.
    Claude { file: PathBuf, part: Part },
    /// A transcript file in a format docstream detects.
    File { file: PathBuf },
    /// Nothing: the entry is an error.
    None,
}

/// The conversations of a store or folder.
pub struct Library {
    items: Vec<(Entry, Source)>,
    entries: Vec<Entry>,
    /// Composers without a bubble, not listed.
    pub empty_skipped: usize,
}

/// A read-only connection.
fn open_db(path: &Path) -> Result<Connection, LibraryError> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| db_error(path, &e))?;
    c.busy_timeout(BUSY_WAIT).map_err(|e| db_error(path, &e))?;
    c.pragma_update(None, "query_only", true)
        .map_err(|e| db_error(path, &e))?;
    Ok(c)
}

fn has_table(c: &Connection, path: &Path, name: &str) -> Result<bool, LibraryError> {
    c.query_row(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [name],
        |_| Ok(()),
    )
    .optional()
    .map(|r| r.is_some())
    .map_err(|e| db_error(path, &e))
}

fn value_bytes(v: rusqlite::types::ValueRef<'_>) -> Vec<u8> {
    use rusqlite::types::ValueRef as V;
    match v {
        V::Text(b) | V::Blob(b) => b.to_vec(),
        _ => Vec::new(),
    }
}

/// What one Cursor database holds.
#[derive(Default)]
struct CursorDb {
    /// Composers of `cursorDiskKV` (`Err`: a row that could not be read).
    composers: Vec<(String, Result<cursor::Composer, String>)>,
    /// First prompts read from bubble rows, for untitled composers.
    prompts: HashMap<String, String>,
    /// From `ItemTable`: the workspace's composers.
    workspace: Vec<cursor::WorkspaceComposer>,
}

fn read_cursor_db(path: &Path) -> Result<CursorDb, LibraryError> {
    let c = open_db(path)?;
    let mut out = CursorDb::default();
    let err = |e: rusqlite::Error| db_error(path, &e);
    if has_table(&c, path, "cursorDiskKV")? {
        // `key >= 'composerData:' AND key < 'composerData;'` uses the key's index.
        let mut q = c
            .prepare("SELECT key, value FROM cursorDiskKV WHERE key >= ?1 AND key < ?2")
            .map_err(err)?;
        let rows = q
            .query_map(["composerData:", "composerData;"], |r| {
                Ok((r.get::<_, String>(0)?, value_bytes(r.get_ref(1)?)))
            })
            .map_err(err)?;
        for row in rows {
            let (key, value) = row.map_err(err)?;
            let id = key.strip_prefix(COMPOSER_PREFIX).unwrap_or(&key).to_owned();
            out.composers
                .push((id.clone(), cursor::composer(&id, &value)));
        }
        let mut first = c
            .prepare("SELECT value FROM cursorDiskKV WHERE key = ?1")
            .map_err(err)?;
        for (id, comp) in &out.composers {
            let Ok(comp) = comp else { continue };
            if comp.name.is_some() || comp.first_prompt.is_some() {
                continue;
            }
            if let Some(b) = comp.bubbles.first() {
                let v: Option<Vec<u8>> = first
                    .query_row([cursor::bubble_key(id, b)], |r| {
                        Ok(value_bytes(r.get_ref(0)?))
                    })
                    .optional()
                    .map_err(err)?;
                if let Some(p) = v.as_deref().and_then(cursor::prompt_text) {
                    out.prompts.insert(id.clone(), p);
                }
            }
        }
    }
    if has_table(&c, path, "ItemTable")? {
        let v: Option<Vec<u8>> = c
            .query_row(
                "SELECT value FROM ItemTable WHERE key = ?1",
                [WORKSPACE_KEY],
                |r| Ok(value_bytes(r.get_ref(0)?)),
            )
            .optional()
            .map_err(err)?;
        if let Some(v) = v {
            // A workspace list that does not parse only loses the names it had.
            out.workspace = cursor::workspace_composers(&v).unwrap_or_default();
        }
    }
    Ok(out)
}

/// The composer row and bubble rows of one conversation, assembled.
fn read_cursor_conversation(db: &Path, composer: &str) -> Result<Vec<u8>, LibraryError> {
    let c = open_db(db)?;
    let err = |e: rusqlite::Error| db_error(db, &e);
    let value: Vec<u8> = c
        .query_row(
            "SELECT value FROM cursorDiskKV WHERE key = ?1",
            [format!("{COMPOSER_PREFIX}{composer}")],
            |r| Ok(value_bytes(r.get_ref(0)?)),
        )
        .optional()
        .map_err(err)?
        .ok_or_else(|| LibraryError::NotFound(composer.to_owned()))?;
    let comp = cursor::composer(composer, &value).map_err(|message| LibraryError::Unreadable {
        id: composer.to_owned(),
        message,
    })?;
    let prefix = cursor::bubble_key(composer, "");
    // Every bubble row of the composer in one range scan of the key index.
    let mut end = prefix.clone();
    end.pop();
    end.push(';');
    let mut q = c
        .prepare("SELECT key, value FROM cursorDiskKV WHERE key >= ?1 AND key < ?2")
        .map_err(err)?;
    let mut rows: HashMap<String, Vec<u8>> = HashMap::new();
    for row in q
        .query_map([&prefix, &end], |r| {
            Ok((r.get::<_, String>(0)?, value_bytes(r.get_ref(1)?)))
        })
        .map_err(err)?
    {
        let (key, v) = row.map_err(err)?;
        rows.insert(key[prefix.len()..].to_owned(), v);
    }
    let bubbles = comp
        .bubbles
        .iter()
        .map(|b| {
            let row = rows.remove(b).map_or(BubbleRow::Missing, BubbleRow::Found);
            (b.clone(), row)
        })
        .collect();
    cursor::assemble(&value, bubbles).map_err(|message| LibraryError::Unreadable {
        id: composer.to_owned(),
        message,
    })
}

/// Files found below a folder, by kind.
#[derive(Default)]
struct Found {
    databases: Vec<PathBuf>,
    jsonl: Vec<PathBuf>,
    other: Vec<PathBuf>,
}

fn walk(dir: &Path, depth: usize, found: &mut Found) -> Result<(), LibraryError> {
    let mut names: Vec<_> = fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(Result::ok)
        .collect();
    names.sort_by_key(|e| e.file_name());
    for e in names {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                walk(&path, depth + 1, found)?;
            }
        } else if name.ends_with(".vscdb") {
            found.databases.push(path);
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            found.jsonl.push(path);
        } else if (name.ends_with(".json") || name.ends_with(".sse")) && name != "workspace.json" {
            found.other.push(path);
        }
    }
    Ok(())
}

fn is_sqlite(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"SQLite format 3\0")
}

/// A path shown relative to the folder opened.
fn shown(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .ok()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
        .to_string_lossy()
        .replace('\\', "/")
}

impl Library {
    /// Lists the conversations of `path`. A single file that cannot be read is an
    /// error; inside a folder, it becomes an error entry.
    pub fn open(path: &Path) -> Result<Library, LibraryError> {
        let meta = fs::metadata(path).map_err(io(path))?;
        let mut found = Found::default();
        let root = if meta.is_dir() {
            walk(path, 0, &mut found)?;
            path.to_owned()
        } else {
            let name = path.to_string_lossy();
            if name.ends_with(".vscdb") || is_sqlite(path) {
                found.databases.push(path.to_owned());
            } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
                found.jsonl.push(path.to_owned());
            } else {
                found.other.push(path.to_owned());
            }
            path.parent().unwrap_or(Path::new("")).to_owned()
        };
        let single = !meta.is_dir();
        let mut lib = Library {
            items: Vec::new(),
            entries: Vec::new(),
            empty_skipped: 0,
        };
        lib.cursor(&found.databases, &root, single)?;
        lib.claude(&found.jsonl, &root, single)?;
        for file in &found.other {
            lib.file(file, &root, single)?;
        }
        lib.order();
        Ok(lib)
    }

    fn error_entry(&mut self, id: String, agent: Agent, source: String, message: String) {
        let mut e = Entry::new(id, agent, source);
        e.title = if e.id == e.source {
            format!("Could not read {}", e.source)
        } else {
            format!("Unreadable conversation {}", e.id)
        };
        e.error = Some(message);
        self.items.push((e, Source::None));
    }

    fn cursor(&mut self, dbs: &[PathBuf], root: &Path, single: bool) -> Result<(), LibraryError> {
        let mut global = Vec::new();
        // composer id → (workspace folder, what the workspace says of it)
        let mut workspaces: HashMap<String, (Option<String>, cursor::WorkspaceComposer)> =
            HashMap::new();
        for db in dbs {
            match read_cursor_db(db) {
                Ok(d) => {
                    let folder = db
                        .parent()
                        .and_then(|p| fs::read(p.join("workspace.json")).ok())
                        .and_then(|j| cursor::workspace_folder(&j));
                    for w in &d.workspace {
                        workspaces.insert(w.id.clone(), (folder.clone(), w.clone()));
                    }
                    global.push((db.clone(), d));
                }
                Err(e) if single => return Err(e),
                Err(e) => {
                    let s = shown(db, root);
                    self.error_entry(s.clone(), Agent::Cursor, s, e.to_string());
                }
            }
        }
        let mut listed = std::collections::HashSet::new();
        for (db, d) in &global {
            let source = shown(db, root);
            for (id, comp) in &d.composers {
                let comp = match comp {
                    Ok(c) => c,
                    Err(message) => {
                        self.error_entry(
                            id.clone(),
                            Agent::Cursor,
                            source.clone(),
                            message.clone(),
                        );
                        continue;
                    }
                };
                if comp.is_empty() {
                    self.empty_skipped += 1;
                    continue;
                }
                listed.insert(id.clone());
                let mut e = Entry::new(id.clone(), Agent::Cursor, source.clone());
                let ws = workspaces.get(id);
                let mut c = comp.clone();
                if c.name.is_none() {
                    c.name = ws.and_then(|(_, w)| w.name.clone());
                }
                if c.first_prompt.is_none() {
                    c.first_prompt = d.prompts.get(id).cloned();
                }
                e.title = c.title();
                e.project = ws.and_then(|(f, _)| f.clone());
                e.created = c
                    .created
                    .or_else(|| ws.and_then(|(_, w)| w.created.clone()));
                e.updated = c
                    .updated
                    .or_else(|| ws.and_then(|(_, w)| w.updated.clone()));
                e.messages = c.messages;
                self.items.push((
                    e,
                    Source::Cursor {
                        db: db.clone(),
                        composer: id.clone(),
                    },
                ));
            }
        }
        // Composers a workspace names whose conversation is in no database given.
        if global.iter().all(|(_, d)| d.composers.is_empty()) {
            let mut missing: Vec<_> = workspaces
                .iter()
                .filter(|(id, _)| !listed.contains(*id))
                .collect();
            missing.sort_by(|a, b| a.0.cmp(b.0));
            for (id, (folder, w)) in missing {
                let mut e = Entry::new(id.clone(), Agent::Cursor, String::new());
                e.title = w
                    .name
                    .clone()
                    .unwrap_or_else(|| format!("Conversation {id}"));
                e.project.clone_from(folder);
                e.created.clone_from(&w.created);
                e.error = Some(
                    "Its messages are in Cursor's globalStorage/state.vscdb, which was not given; open the folder holding both globalStorage and workspaceStorage.".to_owned(),
                );
                self.items.push((e, Source::None));
            }
        }
        Ok(())
    }

    fn claude(&mut self, files: &[PathBuf], root: &Path, single: bool) -> Result<(), LibraryError> {
        let mut scans = Vec::new();
        let mut paths = Vec::new();
        for f in files {
            let bytes = fs::read(f).map_err(io(f));
            let bytes = match bytes {
                Ok(b) => b,
                Err(e) if single => return Err(e),
                Err(e) => {
                    let s = shown(f, root);
                    self.error_entry(s.clone(), Agent::File, s, e.to_string());
                    continue;
                }
            };
            let scan = claude_code::scan(&bytes);
            if scan.is_transcript {
                scans.push((shown(f, root), scan));
                paths.push(f.clone());
            } else {
                self.file(f, root, single)?;
            }
        }
        for item in claude_code::list(&scans) {
            let file = paths[item.file].clone();
            self.items.push((
                item.entry,
                Source::Claude {
                    file,
                    part: item.part,
                },
            ));
        }
        Ok(())
    }

    fn file(&mut self, f: &Path, root: &Path, single: bool) -> Result<(), LibraryError> {
        let bytes = match fs::read(f).map_err(io(f)) {
            Ok(b) => b,
            Err(e) if single => return Err(e),
            Err(e) => {
                let s = shown(f, root);
                self.error_entry(s.clone(), Agent::File, s, e.to_string());
                return Ok(());
            }
        };
        let conv = parse(&bytes, None);
        // In a folder, JSON that is not a transcript is someone else's file.
        if conv.format.is_none() && !single {
            return Ok(());
        }
        let s = shown(f, root);
        let format = conv.format.as_deref().and_then(|n| Format::parse(n).ok()?);
        let mut e = Entry::new(s.clone(), Agent::of_format(format), s.clone());
        let d = digest(&conv);
        e.title = d
            .first_prompt
            .as_deref()
            .map(|p| one_line(p, 100))
            .unwrap_or(s);
        e.created = d.created.clone();
        e.messages = d.messages;
        e.tools = d.tools;
        self.items.push((e, Source::File { file: f.to_owned() }));
        Ok(())
    }

    /// Newest first; a sub-agent right after the conversation that started it.
    fn order(&mut self) {
        let mut items = std::mem::take(&mut self.items);
        let key = |e: &Entry| e.created.clone().or(e.updated.clone()).unwrap_or_default();
        items.sort_by_key(|b| std::cmp::Reverse(key(&b.0)));
        let (children, top): (Vec<_>, Vec<_>) =
            items.into_iter().partition(|(e, _)| e.parent.is_some());
        let mut children: Vec<Option<(Entry, Source)>> = children.into_iter().map(Some).collect();
        for item in top {
            let id = item.0.id.clone();
            self.items.push(item);
            for c in children.iter_mut() {
                if c.as_ref()
                    .is_some_and(|(e, _)| e.parent.as_ref().is_some_and(|p| p.conversation == id))
                {
                    self.items.extend(c.take());
                }
            }
        }
        // Sub-agents whose conversation is not listed.
        self.items.extend(children.into_iter().flatten());
        self.entries = self.items.iter().map(|(e, _)| e.clone()).collect();
    }

    /// The entries, in listing order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The bytes of a conversation and their format.
    fn bytes(&self, id: &str) -> Result<(Vec<u8>, Option<Format>), LibraryError> {
        let (entry, source) = self
            .items
            .iter()
            .find(|(e, _)| e.id == id)
            .ok_or_else(|| LibraryError::NotFound(id.to_owned()))?;
        match source {
            Source::Cursor { db, composer } => Ok((
                read_cursor_conversation(db, composer)?,
                Some(Format::CursorStore),
            )),
            Source::Claude { file, part } => {
                let bytes = fs::read(file).map_err(io(file))?;
                Ok((part.bytes(&bytes), Some(Format::ClaudeCodeTranscript)))
            }
            Source::File { file } => Ok((fs::read(file).map_err(io(file))?, None)),
            Source::None => Err(LibraryError::Unreadable {
                id: id.to_owned(),
                message: entry.error.clone().unwrap_or_default(),
            }),
        }
    }

    /// Reads one conversation.
    pub fn read(&self, id: &str) -> Result<Conversation, LibraryError> {
        let (bytes, format) = self.bytes(id)?;
        Ok(parse(&bytes, format))
    }

    /// Reads every conversation once: exact message and tool counts in the entries.
    /// `each` gets every entry read with its conversation and digest (errors skip it:
    /// an entry that fails to read becomes an error entry).
    pub fn index(&mut self, mut each: impl FnMut(&Entry, &Conversation, &Digest)) {
        for i in 0..self.items.len() {
            if self.items[i].0.error.is_some() {
                continue;
            }
            let id = self.items[i].0.id.clone();
            match self.read(&id) {
                Ok(conv) => {
                    let d = digest(&conv);
                    let e = &mut self.items[i].0;
                    e.messages = d.messages;
                    e.tools = d.tools;
                    if e.created.is_none() {
                        e.created.clone_from(&d.created);
                    }
                    each(e, &conv, &d);
                }
                Err(err) => self.items[i].0.error = Some(err.to_string()),
            }
        }
        self.entries = self.items.iter().map(|(e, _)| e.clone()).collect();
    }
}

/// What [`Library::export`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exported {
    /// Conversation pages written.
    pub pages: usize,
    /// Entries listed with an error (no page).
    pub errors: usize,
}

impl Library {
    /// Writes a static site of every conversation into `out` (created if needed): see
    /// [`crate::site`]. Pages are written as they are rendered, one conversation in
    /// memory at a time.
    pub fn export(
        &mut self,
        out: &Path,
        title: &str,
        options: docstream_html::RenderOptions,
    ) -> Result<Exported, LibraryError> {
        use crate::site::{File, Site};
        let write = |f: &File| -> Result<(), LibraryError> {
            let path = out.join(&f.path);
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(io(dir))?;
            }
            fs::write(&path, &f.text).map_err(io(&path))
        };
        fs::create_dir_all(out).map_err(io(out))?;
        let mut site = Site::new(title, options, &self.entries);
        let mut failed = None;
        let mut pages = 0;
        self.index(|entry, conversation, digest| {
            if failed.is_some() {
                return;
            }
            match write(&site.add(entry, conversation, digest)) {
                Ok(()) => pages += 1,
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        for f in site.finish(&self.entries) {
            write(&f)?;
        }
        Ok(Exported {
            pages,
            errors: self.entries.iter().filter(|e| e.error.is_some()).count(),
        })
    }
}
