//! Stores on disk (feature `cli`): a Cursor `state.vscdb`, a Claude Code `projects/`
//! folder or one project's folder, a folder holding any of these and transcript files,
//! or one file.
//!
//! Everything in a store is read as hostile; what cannot be read costs only itself:
//!
//! - A folder scan takes regular files only: a FIFO, socket or device named like a
//!   store is left out (opening a FIFO would wait forever), and links are followed
//!   only to what is inside the folder given (a link to `/dev/zero`, or to a file
//!   elsewhere, is left out). What was left out is said in [`Library::notes`]; folders
//!   more than 8 levels down are not searched, and said so too.
//! - Files are read in pieces: a line longer than the event limit (16 MiB) is skipped
//!   without being held, so memory is that of the conversation read, not of the file.
//! - SQLite files are opened read-only (`SQLITE_OPEN_READ_ONLY`, `query_only`) and
//!   never get a file made beside them: a write-ahead log (`-wal`) is read through
//!   its `-shm` without writing to it (`readonly_shm`), or, with no `-shm`, with its
//!   index in memory; a `-wal`, `-shm` or `-journal` that is not a regular file is
//!   never opened (the database is read `immutable`, and a note says what was not
//!   read). It works in a folder that cannot be written to. The schema is untrusted
//!   (`trusted_schema` off, no triggers or views, defensive), a value is at most
//!   16 MiB (`SQLITE_LIMIT_LENGTH`: a generated column cannot make a gigabyte per
//!   row), the page cache is 2 MiB whatever the file says, and a statement that makes
//!   no progress for 20 s is stopped.
//! - A database that is locked by a writer, empty, truncated or not SQLite gives an
//!   error naming the file. Inside a folder such a file becomes an error entry, is
//!   named in [`Library::unreadable`], and the other conversations still load.

use std::collections::HashSet;
use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rusqlite::config::DbConfig;
use rusqlite::limits::Limit;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::catalog::{self, Catalog, MAX_SUBAGENT_FILE, Source};
use crate::claude_code::{self, Part, Scanner};
use crate::cursor::{self, Assembler, CursorDb, MAX_ROW_BYTES, WORKSPACE_KEY};
use crate::digest::{Digest, digest};
use crate::opencode::{self, Cell, SessionRow};
use crate::{Entry, FileKind, Reader, parse_with};
use docstream_core::{DocStream, Format, Limits, Options};
use docstream_model::Conversation;

/// Folders deeper than this below the given one are not searched.
const MAX_DEPTH: usize = 8;
/// How long to wait for a writer's lock before saying the database is locked.
const BUSY_WAIT: Duration = Duration::from_millis(250);
/// Bytes read from a file at a time.
const READ_SIZE: usize = 64 << 10;
/// Longest a SQL statement may go without giving a row (a hostile schema can make
/// each row cost as much as it likes).
const STEP_BUDGET: Duration = Duration::from_secs(20);
/// SQLite's page cache per connection, in KiB: its default, set so that a store's
/// header cannot ask for more.
const CACHE_KIB: i64 = 2048;

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

impl LibraryError {
    /// A whole file (not a row of it) could not be read.
    fn is_file_error(&self) -> bool {
        matches!(
            self,
            LibraryError::Io { .. } | LibraryError::Database { .. }
        )
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LibraryError + '_ {
    move |error| LibraryError::Io {
        path: path.to_owned(),
        error,
    }
}

fn not_regular(path: &Path) -> LibraryError {
    LibraryError::Io {
        path: path.to_owned(),
        error: io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file or folder (a FIFO, socket or device is not read)",
        ),
    }
}

/// A SQLite error as a sentence a person can act on.
fn db_error(path: &Path, e: &rusqlite::Error) -> LibraryError {
    let hint = e
        .sqlite_error()
        .map_or("", |f| cursor::sqlite_hint(f.extended_code));
    LibraryError::Database {
        path: path.to_owned(),
        message: format!("{e}{hint}"),
    }
}

/// The conversations of a store or folder.
pub struct Library {
    items: Vec<(Entry, Source<PathBuf>)>,
    entries: Vec<Entry>,
    /// Composers without a bubble, not listed.
    pub empty_skipped: usize,
    /// The folder given (for a file: its folder), as found on disk: links are
    /// followed only to what is inside it.
    root: PathBuf,
    notes: Vec<String>,
    unreadable: Vec<String>,
}

// ---- files --------------------------------------------------------------------------

/// Opens a file the scan found, checking again that it is a regular file (a FIFO
/// would block the open, a device never end).
fn open_regular(path: &Path) -> Result<File, LibraryError> {
    if !fs::metadata(path).map_err(io(path))?.is_file() {
        return Err(not_regular(path));
    }
    let f = File::open(path).map_err(io(path))?;
    if !f.metadata().map_err(io(path))?.is_file() {
        return Err(not_regular(path));
    }
    Ok(f)
}

/// Reads a file in pieces of [`READ_SIZE`] bytes.
fn read_pieces(path: &Path, mut each: impl FnMut(&[u8])) -> Result<(), LibraryError> {
    let mut f = open_regular(path)?;
    let mut buf = vec![0u8; READ_SIZE];
    loop {
        match f.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => each(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(io(path)(e)),
        }
    }
}

/// What the list needs of a session file, read in pieces.
fn scan_file(path: &Path) -> Result<claude_code::Scan, LibraryError> {
    let mut scanner = Scanner::new();
    read_pieces(path, |piece| scanner.push(piece))?;
    Ok(scanner.finish())
}

/// A transcript file read in pieces into a conversation.
fn parse_file(path: &Path, format: Option<Format>) -> Result<Conversation, LibraryError> {
    let mut reader = Reader::new(format, Limits::default());
    read_pieces(path, |piece| reader.push(piece))?;
    Ok(reader.finish())
}

/// A Claude Code session read in pieces, its sub-agents' own files given beside it (each
/// read whole: one over [`MAX_SUBAGENT_FILE`] is left to its own page).
fn parse_session(
    path: &Path,
    subagents: &[(String, PathBuf)],
) -> Result<Conversation, LibraryError> {
    let mut stream = DocStream::new(Options {
        format: Some(Format::ClaudeCodeTranscript),
        ..Options::default()
    });
    for (agent, file) in subagents {
        let Ok(mut f) = open_regular(file) else {
            continue;
        };
        let mut bytes = Vec::new();
        let read = (&mut f).take(MAX_SUBAGENT_FILE + 1).read_to_end(&mut bytes);
        if read.is_ok() && bytes.len() as u64 <= MAX_SUBAGENT_FILE {
            stream.add_subagent(agent, bytes);
        }
    }
    read_pieces(path, |piece| {
        // Cannot fail before finish.
        let _ = stream.push(piece);
        stream.clear_changes();
    })?;
    let _ = stream.finish();
    Ok(stream.into_conversation())
}

/// Some lines of a file (a sub-agent inside its session) read into a conversation.
fn parse_lines(
    path: &Path,
    ranges: &[std::ops::Range<usize>],
    format: Option<Format>,
) -> Result<Conversation, LibraryError> {
    let mut f = open_regular(path)?;
    let mut reader = Reader::new(format, Limits::default());
    let max = Limits::default().max_event_bytes + 1;
    let mut line = Vec::new();
    for r in ranges {
        let len = r.end.saturating_sub(r.start);
        // The scan never gives a longer line; a file changed since is not trusted.
        if len == 0 || len > max {
            continue;
        }
        f.seek(SeekFrom::Start(r.start as u64)).map_err(io(path))?;
        line.clear();
        (&mut f)
            .take(len as u64)
            .read_to_end(&mut line)
            .map_err(io(path))?;
        reader.push_line(&line);
    }
    Ok(reader.finish())
}

/// The start of a file (at most `n` bytes).
fn head(path: &Path, n: u64) -> Result<Vec<u8>, LibraryError> {
    let mut out = Vec::new();
    open_regular(path)?
        .take(n)
        .read_to_end(&mut out)
        .map_err(io(path))?;
    Ok(out)
}

fn is_sqlite(path: &Path) -> bool {
    head(path, 16).is_ok_and(|h| h == b"SQLite format 3\0")
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

// ---- SQLite -------------------------------------------------------------------------

/// When the statement in flight last made progress: the progress handler stops one
/// that makes none for [`STEP_BUDGET`].
struct Clock {
    base: Instant,
    /// Milliseconds since `base`.
    last: AtomicU64,
}

impl Clock {
    fn now(&self) -> u64 {
        self.base.elapsed().as_millis() as u64
    }

    fn tick(&self) {
        self.last.store(self.now(), Ordering::Relaxed);
    }

    fn overdue(&self) -> bool {
        self.now().saturating_sub(self.last.load(Ordering::Relaxed))
            > STEP_BUDGET.as_millis() as u64
    }
}

/// A file beside a database (`-wal`, `-shm`, `-journal`), as the scan sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sibling {
    Absent,
    /// A regular file of this many bytes.
    Regular(u64),
    /// A link, FIFO, device or folder: SQLite must not open it.
    Other,
}

fn sibling(db: &Path, suffix: &str) -> (PathBuf, Sibling) {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    let path = PathBuf::from(name);
    let kind = match fs::symlink_metadata(&path) {
        Err(_) => Sibling::Absent,
        Ok(m) if m.file_type().is_file() => Sibling::Regular(m.len()),
        Ok(_) => Sibling::Other,
    };
    (path, kind)
}

/// A `file:` URI for SQLite, with `params`.
fn uri(path: &Path, params: &str) -> String {
    use std::fmt::Write;
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = {
        let p = path.to_string_lossy().replace('\\', "/");
        if path.is_absolute() && !p.starts_with('/') {
            format!("/{p}").into_bytes()
        } else {
            p.into_bytes()
        }
    };
    let mut out = String::from("file:");
    for b in bytes {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) || (cfg!(not(unix)) && b == b':') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out.push('?');
    out.push_str(params);
    out
}

/// A read-only connection to a store, hardened against what the file holds.
struct Db {
    c: Connection,
    path: PathBuf,
    clock: Arc<Clock>,
}

impl Db {
    /// Opens `path` read-only without making a file beside it; the note says what
    /// could not be read.
    ///
    /// - No `-wal` file: the database as it is (`mode=ro`, with locks, so a writer
    ///   mid-transaction is seen as one), or, in WAL mode, `immutable` (SQLite would
    ///   make a `-wal` and `-shm` to open it otherwise).
    /// - A `-wal` with its `-shm`: both read, the `-shm` opened read-only
    ///   (`readonly_shm`), as a reader beside a running Cursor.
    /// - A `-wal` alone (no program has the store open): read with its index in memory
    ///   (`unix-none` without locks, exclusive locking mode), making no `-shm`.
    /// - A `-wal`, `-shm` or `-journal` that is not a regular file (a FIFO would block
    ///   SQLite's open of it), or a log that cannot be read: the database file alone
    ///   (`immutable`), and the note says so.
    fn open(path: &Path) -> Result<(Db, Option<String>), LibraryError> {
        let head = head(path, 100)?;
        if head.is_empty() {
            return Err(LibraryError::Database {
                path: path.to_owned(),
                message: cursor::EMPTY_FILE.to_owned(),
            });
        }
        let wal_header = head.len() >= 20 && (head[18] == 2 || head[19] == 2);
        let (wal, wal_kind) = sibling(path, "-wal");
        let (_, shm_kind) = sibling(path, "-shm");
        let (_, journal_kind) = sibling(path, "-journal");
        let odd = [
            ("-wal", wal_kind),
            ("-shm", shm_kind),
            ("-journal", journal_kind),
        ]
        .into_iter()
        .find(|(_, k)| *k == Sibling::Other);
        let why = if let Some((suffix, _)) = odd {
            format!(
                "{}{suffix} is not a regular file, and is not opened",
                path.display()
            )
        } else if let Sibling::Regular(_) = wal_kind {
            let attempt = if shm_kind == Sibling::Absent {
                Db::connect(path, "mode=ro&vfs=unix-none", true)
            } else {
                Db::connect(path, "mode=ro&readonly_shm=1", false)
            };
            match attempt.and_then(|db| db.probe().map(|()| db)) {
                Ok(db) => return Ok((db, None)),
                Err(e) => format!("it could not be read ({e})"),
            }
        } else if wal_header {
            // WAL mode, the log merged and gone: the file holds everything.
            return Ok((Db::connect(path, "immutable=1", false)?, None));
        } else {
            // The classic rollback journal: locks tell a writer mid-transaction.
            return Ok((Db::connect(path, "mode=ro", false)?, None));
        };
        let db = Db::connect(path, "immutable=1", false)?;
        let note = match wal_kind {
            Sibling::Regular(n) if n > 0 => cursor::wal_not_read(
                &wal.display().to_string(),
                n,
                &path.display().to_string(),
                &why,
            ),
            _ => format!(
                "{} is read without the files beside it: {why}",
                path.display()
            ),
        };
        Ok((db, Some(note)))
    }

    /// A connection with `params`; `exclusive`: the locking mode that keeps a log's
    /// index in memory, set before anything is read.
    fn connect(path: &Path, params: &str, exclusive: bool) -> Result<Db, LibraryError> {
        let err = |e: rusqlite::Error| db_error(path, &e);
        let c = Connection::open_with_flags(
            uri(path, params),
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(err)?;
        if exclusive {
            c.pragma_update(None, "locking_mode", "EXCLUSIVE")
                .map_err(err)?;
        }
        // The schema comes from the file: its functions, triggers and views are not
        // run as the program's own. And a connection that closes does not merge the
        // log into the database, nor remove a log that had nothing to merge (as a
        // writer tidies up): nothing beside the store changes.
        for (config, on) in [
            (DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true),
            (DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false),
            (DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true),
            (DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false),
            (DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW, false),
        ] {
            c.set_db_config(config, on).map_err(err)?;
        }
        c.set_limit(Limit::SQLITE_LIMIT_LENGTH, MAX_ROW_BYTES as i32)
            .map_err(err)?;
        c.busy_timeout(BUSY_WAIT).map_err(err)?;
        let clock = Arc::new(Clock {
            base: Instant::now(),
            last: AtomicU64::new(0),
        });
        let watch = Arc::clone(&clock);
        c.progress_handler(1000, Some(move || watch.overdue()));
        let db = Db {
            c,
            path: path.to_owned(),
            clock,
        };
        db.tick();
        for (name, value) in [
            ("query_only", 1),
            ("cache_size", -CACHE_KIB),
            ("cell_size_check", 1),
        ] {
            db.c.pragma_update(None, name, value).map_err(err)?;
        }
        Ok(db)
    }

    /// Reads the schema: where a database that cannot be read says so.
    fn probe(&self) -> Result<(), LibraryError> {
        self.tick();
        self.c
            .query_row("SELECT count(*) FROM sqlite_master", [], |_| Ok(()))
            .map_err(|e| self.err(e))
    }

    fn tick(&self) {
        self.clock.tick();
    }

    fn err(&self, e: rusqlite::Error) -> LibraryError {
        db_error(&self.path, &e)
    }

    fn has_table(&self, name: &str) -> Result<bool, LibraryError> {
        self.tick();
        self.c
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [name],
                |_| Ok(()),
            )
            .optional()
            .map(|r| r.is_some())
            .map_err(|e| self.err(e))
    }

    /// Every `(key, value)` of `table` with `from <= key < to`; a value over
    /// [`MAX_ROW_BYTES`] is `Err(its size)`, never loaded.
    fn range(
        &self,
        table: &str,
        from: &str,
        to: &str,
        mut each: impl FnMut(String, Result<Vec<u8>, u64>),
    ) -> Result<(), LibraryError> {
        self.tick();
        let mut q = self
            .c
            .prepare(&format!(
                "SELECT key, CASE WHEN octet_length(value) <= ?3 THEN value END, octet_length(value) FROM {table} WHERE key >= ?1 AND key < ?2"
            ))
            .map_err(|e| self.err(e))?;
        let mut rows = q
            .query(rusqlite::params![from, to, MAX_ROW_BYTES as i64])
            .map_err(|e| self.err(e))?;
        while let Some(r) = rows.next().map_err(|e| self.err(e))? {
            self.tick();
            let key = text(r.get_ref(0).map_err(|e| self.err(e))?);
            let value = guarded(r).map_err(|e| self.err(e))?;
            each(key, value);
        }
        Ok(())
    }

    /// The value of `key` in `table`, as [`Db::range`] gives it.
    fn value(&self, table: &str, key: &str) -> Result<Option<Result<Vec<u8>, u64>>, LibraryError> {
        self.tick();
        self.c
            .query_row(
                &format!(
                    "SELECT key, CASE WHEN octet_length(value) <= ?2 THEN value END, octet_length(value) FROM {table} WHERE key = ?1"
                ),
                rusqlite::params![key, MAX_ROW_BYTES as i64],
                guarded,
            )
            .optional()
            .map_err(|e| self.err(e))
    }
}

/// A key as text (a blob key is read as UTF-8, lossily).
fn text(v: ValueRef<'_>) -> String {
    match v {
        ValueRef::Text(b) | ValueRef::Blob(b) => String::from_utf8_lossy(b).into_owned(),
        ValueRef::Integer(i) => i.to_string(),
        ValueRef::Real(f) => f.to_string(),
        ValueRef::Null => String::new(),
    }
}

/// Columns 1 (the value if small enough) and 2 (its length) of a row.
fn guarded(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<Vec<u8>, u64>> {
    let len: Option<i64> = r.get(2)?;
    Ok(match r.get_ref(1)? {
        ValueRef::Text(b) | ValueRef::Blob(b) => Ok(b.to_vec()),
        _ => match len {
            Some(n) if n as u64 > MAX_ROW_BYTES as u64 => Err(n as u64),
            _ => Ok(Vec::new()),
        },
    })
}

/// The rows of a Cursor database the list needs, handed to [`CursorDb`]; the
/// `workspace.json` beside it is read by the caller.
fn read_cursor_db(path: &Path) -> Result<CursorDb, LibraryError> {
    let (db, note) = Db::open(path)?;
    db.probe()?;
    let mut out = CursorDb::new();
    if let Some(note) = note {
        out.note(note);
    }
    if db.has_table("cursorDiskKV")? {
        let (from, to) = cursor::COMPOSER_RANGE;
        db.range("cursorDiskKV", from, to, |key, value| {
            out.composer_row(&key, value.as_deref().map_err(|n| *n));
        })?;
        for (id, key) in out.title_keys() {
            if let Some(Ok(v)) = db.value("cursorDiskKV", &key)? {
                out.title_row(&id, &v);
            }
        }
    }
    if db.has_table("ItemTable")? {
        if let Some(v) = db.value("ItemTable", WORKSPACE_KEY)? {
            out.workspace_row(&path.display().to_string(), v.as_deref().map_err(|n| *n));
        }
    }
    Ok(out)
}

/// The composer row and bubble rows of one conversation, assembled.
fn read_cursor_conversation(path: &Path, composer: &str) -> Result<Vec<u8>, LibraryError> {
    let (db, _) = Db::open(path)?;
    let unreadable = |message| LibraryError::Unreadable {
        id: composer.to_owned(),
        message,
    };
    let key = format!("{}{composer}", cursor::COMPOSER_PREFIX);
    let value = db
        .value("cursorDiskKV", &key)?
        .ok_or_else(|| LibraryError::NotFound(composer.to_owned()))?;
    let mut a = Assembler::new(composer, value).map_err(unreadable)?;
    let (from, to) = a.range();
    db.range("cursorDiskKV", &from, &to, |key, v| a.row(&key, v))?;
    a.finish().map_err(unreadable)
}

/// An OpenCode database's session entries, and the note of [`Db::open`].
type OpenCodeList = (Vec<Entry>, Option<String>);

/// A database's OpenCode sessions, or `None` when it does not have OpenCode's tables
/// (`session`, `message`, `part`).
fn read_opencode_db(path: &Path, shown: &str) -> Result<Option<OpenCodeList>, LibraryError> {
    let (db, note) = Db::open(path)?;
    db.probe()?;
    for table in opencode::TABLES {
        if !db.has_table(table)? {
            return Ok(None);
        }
    }
    let rows = opencode_sessions(&db, None)?;
    Ok(Some((rows.iter().map(|r| r.entry(shown)).collect(), note)))
}

/// The `session` table's rows (only session `id`'s, when given): see
/// [`SessionRow::from_columns`].
fn opencode_sessions(db: &Db, id: Option<&str>) -> Result<Vec<SessionRow>, LibraryError> {
    db.tick();
    let sql = match id {
        Some(_) => opencode::SESSION_SQL,
        None => opencode::SESSIONS_SQL,
    };
    let mut q = db.c.prepare(sql).map_err(|e| db.err(e))?;
    let names: Vec<String> = q.column_names().iter().map(|n| n.to_string()).collect();
    let mut rows = match id {
        Some(id) => q.query([id]),
        None => q.query([]),
    }
    .map_err(|e| db.err(e))?;
    let mut out = Vec::new();
    while let Some(r) = rows.next().map_err(|e| db.err(e))? {
        db.tick();
        let cell = |i: usize| match r.get_ref(i) {
            Ok(ValueRef::Integer(i)) => Cell::Integer(i),
            Ok(ValueRef::Real(f)) => Cell::Real(f),
            Ok(v @ (ValueRef::Text(_) | ValueRef::Blob(_))) => Cell::Text(text(v)),
            Ok(ValueRef::Null) | Err(_) => Cell::Null,
        };
        out.extend(SessionRow::from_columns(&names, cell));
    }
    Ok(out)
}

/// One OpenCode session's rows, assembled as `opencode export` writes it.
fn read_opencode_conversation(path: &Path, session: &str) -> Result<Vec<u8>, LibraryError> {
    let (db, _) = Db::open(path)?;
    let row = opencode_sessions(&db, Some(session))?
        .into_iter()
        .next()
        .ok_or_else(|| LibraryError::NotFound(session.to_owned()))?;
    let mut a = opencode::Assembler::new(&row);
    each_row_of(&db, opencode::PARTS_SQL, session, |r| {
        let id = text(r.get_ref(0)?);
        let data = guarded(r)?;
        a.part(&text(r.get_ref(3)?), &id, data);
        Ok(())
    })?;
    each_row_of(&db, opencode::MESSAGES_SQL, session, |r| {
        a.message(&text(r.get_ref(0)?), guarded(r)?);
        Ok(())
    })?;
    Ok(a.finish())
}

/// Runs `sql` on `session`'s rows (its parameters: the session, the row size limit) and
/// calls `each` on every row, a tick of the time limit before each.
fn each_row_of(
    db: &Db,
    sql: &str,
    session: &str,
    mut each: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<()>,
) -> Result<(), LibraryError> {
    db.tick();
    let mut q = db.c.prepare(sql).map_err(|e| db.err(e))?;
    let mut rows = q
        .query(rusqlite::params![session, MAX_ROW_BYTES as i64])
        .map_err(|e| db.err(e))?;
    while let Some(r) = rows.next().map_err(|e| db.err(e))? {
        db.tick();
        each(r).map_err(|e| db.err(e))?;
    }
    Ok(())
}

// ---- the folder scan ----------------------------------------------------------------

/// Files found below a folder, by kind, and what was left out.
#[derive(Default)]
struct Found {
    databases: Vec<PathBuf>,
    jsonl: Vec<PathBuf>,
    other: Vec<PathBuf>,
    notes: Vec<String>,
    /// Folders that could not be read.
    unreadable: Vec<String>,
    /// Folders below the depth searched.
    too_deep: Vec<PathBuf>,
}

/// A folder scan: regular files, links only to what is inside `root`, each folder and
/// file once.
struct Walk {
    /// The folder given, as found on disk.
    root: PathBuf,
    found: Found,
    dirs: HashSet<PathBuf>,
    files: HashSet<PathBuf>,
}

impl Walk {
    fn dir(&mut self, dir: &Path, depth: usize) -> Result<(), LibraryError> {
        let listing = match fs::read_dir(dir) {
            Ok(l) => l,
            Err(e) if depth == 0 => return Err(io(dir)(e)),
            Err(e) => {
                self.found.unreadable.push(io(dir)(e).to_string());
                return Ok(());
            }
        };
        let mut names: Vec<_> = listing.filter_map(Result::ok).collect();
        names.sort_by_key(|e| e.file_name());
        // OpenCode's data folder: its database holds the sessions.
        let opencode_home = names
            .iter()
            .any(|e| opencode::is_db_name(&e.file_name().to_string_lossy()));
        for e in names {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if !FileKind::searched_folder(&name) {
                continue;
            }
            let Ok(kind) = e.file_type() else { continue };
            // Beside the database, OpenCode keeps its own files (`auth.json` holds
            // credentials) and folders: not read.
            if opencode_home && opencode::left_beside_db(&name, kind.is_file()) {
                continue;
            }
            if kind.is_symlink() {
                self.link(&path, &name, depth)?;
            } else if kind.is_dir() {
                let real = fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                self.subdir(&path, real, depth)?;
            } else if kind.is_file() {
                let real = fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
                self.file(path, real, &name);
            } else if FileKind::of(&name).is_some() {
                self.found.notes.push(format!(
                    "not read: {} is not a regular file (a FIFO, socket or device)",
                    path.display()
                ));
            }
        }
        Ok(())
    }

    fn link(&mut self, path: &Path, name: &str, depth: usize) -> Result<(), LibraryError> {
        let target = match fs::canonicalize(path) {
            Ok(t) => t,
            Err(e) => {
                if FileKind::of(name).is_some() {
                    self.found.notes.push(format!(
                        "not read: {} is a broken link ({e})",
                        path.display()
                    ));
                }
                return Ok(());
            }
        };
        let meta = fs::metadata(&target).ok();
        let is_dir = meta.as_ref().is_some_and(fs::Metadata::is_dir);
        if FileKind::of(name).is_none() && !is_dir {
            return Ok(());
        }
        if !target.starts_with(&self.root) {
            self.found.notes.push(format!(
                "not read: {} is a link out of the folder (to {}); links are followed inside the folder given only",
                path.display(),
                target.display()
            ));
            return Ok(());
        }
        match meta {
            Some(m) if m.is_dir() => self.subdir(path, target, depth)?,
            Some(m) if m.is_file() => self.file(path.to_owned(), target, name),
            _ => self.found.notes.push(format!(
                "not read: {} links to {}, which is not a regular file",
                path.display(),
                target.display()
            )),
        }
        Ok(())
    }

    fn subdir(&mut self, path: &Path, real: PathBuf, depth: usize) -> Result<(), LibraryError> {
        if !self.dirs.insert(real) {
            return Ok(()); // Seen already, through a link or directly.
        }
        if depth >= MAX_DEPTH {
            self.found.too_deep.push(path.to_owned());
            return Ok(());
        }
        self.dir(path, depth + 1)
    }

    fn file(&mut self, path: PathBuf, real: PathBuf, name: &str) {
        let Some(kind) = FileKind::of(name) else {
            return;
        };
        if !self.files.insert(real) {
            return;
        }
        match kind {
            FileKind::Database => self.found.databases.push(path),
            FileKind::Lines => self.found.jsonl.push(path),
            FileKind::Other => self.found.other.push(path),
        }
    }
}

impl Library {
    /// Lists the conversations of `path`. A single file that cannot be read is an
    /// error; inside a folder, it becomes an error entry (and is named in
    /// [`Library::unreadable`]).
    pub fn open(path: &Path) -> Result<Library, LibraryError> {
        let meta = fs::metadata(path).map_err(io(path))?;
        let mut found = Found::default();
        let (given, root) = if meta.is_dir() {
            let root = fs::canonicalize(path).map_err(io(path))?;
            let mut walk = Walk {
                root: root.clone(),
                found: Found::default(),
                dirs: HashSet::from([root.clone()]),
                files: HashSet::new(),
            };
            walk.dir(path, 0)?;
            found = walk.found;
            (path.to_owned(), root)
        } else if meta.is_file() {
            let name = path.to_string_lossy();
            if name.ends_with(".vscdb") || is_sqlite(path) {
                found.databases.push(path.to_owned());
            } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
                found.jsonl.push(path.to_owned());
            } else {
                found.other.push(path.to_owned());
            }
            let parent = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let root = fs::canonicalize(parent).unwrap_or_else(|_| parent.to_owned());
            (parent.to_owned(), root)
        } else {
            return Err(not_regular(path));
        };
        let single = !meta.is_dir();
        let mut lib = Library {
            items: Vec::new(),
            entries: Vec::new(),
            empty_skipped: 0,
            root,
            notes: std::mem::take(&mut found.notes),
            unreadable: std::mem::take(&mut found.unreadable),
        };
        if let Some(first) = found.too_deep.first() {
            lib.notes.push(format!(
                "not searched: {}{}: more than {MAX_DEPTH} folders below {}",
                first.display(),
                match found.too_deep.len() {
                    1 => String::new(),
                    n => format!(" and {} other folders", n - 1),
                },
                path.display()
            ));
        }
        let root = if single {
            given.clone()
        } else {
            path.to_owned()
        };
        let mut catalog = Catalog::new(single);
        for db in &found.databases {
            let name = db.file_name().unwrap_or_default().to_string_lossy();
            match read_opencode_db(db, &shown(db, &root)) {
                Ok(Some((entries, note))) => {
                    lib.notes.extend(note);
                    catalog.opencode(shown(db, &root), db.clone(), Ok(entries));
                    continue;
                }
                Ok(None) => {}
                Err(e) if single => return Err(e),
                Err(e) if opencode::is_db_name(&name) => {
                    catalog.opencode(shown(db, &root), db.clone(), Err(e.to_string()));
                    continue;
                }
                // Read as Cursor's, which says what is wrong with it.
                Err(_) => {}
            }
            let read = read_cursor_db(db).map(|mut d| {
                if d.wants_workspace_json() {
                    lib.workspace_json(db, &mut d);
                }
                d
            });
            match read {
                Err(e) if single => return Err(e),
                read => catalog.database(
                    shown(db, &root),
                    db.clone(),
                    read.map_err(|e| e.to_string()),
                ),
            }
        }
        for f in &found.jsonl {
            match scan_file(f) {
                Err(e) if single => return Err(e),
                scan => {
                    let shown = shown(f, &root);
                    if catalog.session_file(
                        shown.clone(),
                        f.clone(),
                        scan.map_err(|e| e.to_string()),
                    ) {
                        lib.file(&mut catalog, FileKind::Lines, f, shown, single)?;
                    }
                }
            }
        }
        for f in &found.other {
            lib.file(&mut catalog, FileKind::Other, f, shown(f, &root), single)?;
        }
        let listing = catalog.finish();
        lib.notes.extend(listing.notes);
        lib.unreadable.extend(listing.unreadable);
        lib.empty_skipped = listing.empty_skipped;
        lib.items = listing.items;
        lib.entries = lib.items.iter().map(|(e, _)| e.clone()).collect();
        Ok(lib)
    }

    /// What was left out or read only in part, one sentence each naming the file:
    /// links out of the folder, files that are not regular files, folders deeper than
    /// the scan goes, a write-ahead log that could not be read. Not errors.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The stores, files and folders that could not be read, one message each naming
    /// the file (their conversations are error entries, or missing). A folder with
    /// any is listed in part, as `ls` and `grep -r` list what they can.
    pub fn unreadable(&self) -> &[String] {
        &self.unreadable
    }

    /// The `workspace.json` beside a workspace database, if it is a regular file
    /// inside the folder, handed to `d`.
    fn workspace_json(&self, db: &Path, d: &mut CursorDb) {
        let Some(path) = db.parent().map(|p| p.join(cursor::WORKSPACE_JSON)) else {
            return;
        };
        let Ok(meta) = fs::symlink_metadata(&path) else {
            return;
        };
        let target = if meta.file_type().is_symlink() {
            let Ok(t) = fs::canonicalize(&path) else {
                return;
            };
            if !t.starts_with(&self.root) {
                d.note(format!(
                    "not read: {} is a link out of the folder (to {})",
                    path.display(),
                    t.display()
                ));
                return;
            }
            t
        } else {
            path.clone()
        };
        let Ok(meta) = fs::metadata(&target) else {
            return;
        };
        let shown = path.display().to_string();
        if !meta.is_file() {
            d.note(format!("not read: {shown} (not a regular file)"));
        } else if meta.len() > cursor::MAX_WORKSPACE_JSON {
            d.workspace_json(&shown, Err(meta.len()));
        } else if let Ok(bytes) = head(&target, cursor::MAX_WORKSPACE_JSON) {
            d.workspace_json(&shown, Ok(&bytes));
        }
    }

    /// A transcript file read whole into `catalog` (in a folder, one that cannot be
    /// read is an error entry; given alone, an error).
    fn file(
        &self,
        catalog: &mut Catalog<PathBuf>,
        kind: FileKind,
        f: &Path,
        shown: String,
        single: bool,
    ) -> Result<(), LibraryError> {
        match parse_file(f, None) {
            Err(e) if single => Err(e),
            conv => {
                let _ = catalog.file(
                    kind,
                    shown,
                    f.to_owned(),
                    conv.as_ref().map_err(|e| e.to_string()),
                );
                Ok(())
            }
        }
    }

    /// The entries, in listing order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The files of a Claude Code session's sub-agents that have one: see
    /// [`catalog::subagent_files`].
    fn subagent_files(&self, entry: &Entry) -> Vec<(String, PathBuf)> {
        catalog::subagent_files(&self.items, entry)
            .into_iter()
            .map(|(agent, file)| (agent, file.clone()))
            .collect()
    }

    /// Reads one conversation.
    pub fn read(&self, id: &str) -> Result<Conversation, LibraryError> {
        let (entry, source) = self
            .items
            .iter()
            .find(|(e, _)| e.id == id)
            .ok_or_else(|| LibraryError::NotFound(id.to_owned()))?;
        let mut conversation = self.read_source(id, entry, source)?;
        entry.mark_prompts(&mut conversation);
        Ok(conversation)
    }

    fn read_source(
        &self,
        id: &str,
        entry: &Entry,
        source: &Source<PathBuf>,
    ) -> Result<Conversation, LibraryError> {
        match source {
            Source::Cursor { db, composer } => {
                let bytes = read_cursor_conversation(db, composer)?;
                let limits = cursor::read_limits(bytes.len());
                Ok(parse_with(&bytes, Some(Format::CursorStore), limits))
            }
            Source::Claude {
                file,
                part: Part::Whole,
            } => parse_session(file, &self.subagent_files(entry)),
            Source::Claude {
                file,
                part: Part::Lines(ranges),
            } => parse_lines(file, ranges, Some(Format::ClaudeCodeTranscript)),
            Source::OpenCode { db, session } => {
                let bytes = read_opencode_conversation(db, session)?;
                let limits = cursor::read_limits(bytes.len());
                Ok(parse_with(&bytes, Some(Format::OpencodeExport), limits))
            }
            Source::File { file } => parse_file(file, None),
            Source::None => Err(LibraryError::Unreadable {
                id: id.to_owned(),
                message: entry.error.clone().unwrap_or_default(),
            }),
        }
    }

    /// Reads every conversation once: exact message and tool counts in the entries.
    /// `each` gets every entry read with its conversation and digest (errors skip it:
    /// an entry that fails to read becomes an error entry; a file that fails is also
    /// named in [`Library::unreadable`]).
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
                    e.read_from(&d);
                    each(e, &conv, &d);
                }
                Err(err) => {
                    let message = err.to_string();
                    if err.is_file_error() && !self.unreadable.contains(&message) {
                        self.unreadable.push(message.clone());
                    }
                    self.items[i].0.error = Some(message);
                }
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
    /// memory at a time. Every text passes `mask` first ([`crate::site::KeepAll`] keeps
    /// them): titles, projects and errors of the listing, each conversation (its page
    /// and its search data are made from the masked one).
    pub fn export(
        &mut self,
        out: &Path,
        title: &str,
        options: docstream_html::RenderOptions,
        mask: &mut dyn crate::site::Mask,
    ) -> Result<Exported, LibraryError> {
        use crate::site::{File, Site, masked_entry};
        let write = |f: &File| -> Result<(), LibraryError> {
            let path = out.join(&f.path);
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(io(dir))?;
            }
            fs::write(&path, &f.text).map_err(io(&path))
        };
        fs::create_dir_all(out).map_err(io(out))?;
        let listing: Vec<Entry> = self.entries.iter().map(|e| masked_entry(e, mask)).collect();
        let mut site = Site::new(title, options, &listing);
        let mut failed = None;
        let mut pages = 0;
        self.index(|entry, conversation, digest| {
            if failed.is_some() {
                return;
            }
            let entry = masked_entry(entry, mask);
            let file = match mask.conversation(conversation) {
                Some((masked, counts)) => site.add(
                    &entry,
                    &masked,
                    &crate::digest::digest(&masked),
                    Some(&counts),
                ),
                None => site.add(&entry, conversation, digest, None),
            };
            match write(&file) {
                Ok(()) => pages += 1,
                Err(e) => failed = Some(e),
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let listing: Vec<Entry> = self.entries.iter().map(|e| masked_entry(e, mask)).collect();
        for f in site.finish(&listing) {
            write(&f)?;
        }
        Ok(Exported {
            pages,
            errors: self.entries.iter().filter(|e| e.error.is_some()).count(),
        })
    }
}
