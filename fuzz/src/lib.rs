//! The fuzz targets' bodies, shared by the cargo-fuzz binaries (`fuzz_targets/`) and by
//! the stable test run, which replays every target over its seeds
//! (`tests/fuzz_replay.rs` includes this file).
//!
//! Inputs that choose a format or a chunking start with a small header: byte 0 picks
//! the format (0: detect it, `n`: `Format::NAMES[n - 1]`), byte 1 seeds the chunk
//! sizes; the rest is the stream. [`with_header`] builds such an input from a file.

pub mod highlight;
pub mod math;

use docstream_convert::request::{self, Dialect};
use docstream_core::{DocStream, Format, Options};
use docstream_html::patch::PageModel;
use docstream_html::{HtmlView, RenderOptions, render_conversation};

/// An input for the stream targets: `format` (0 detects), chunk seed, then `bytes`.
pub fn with_header(format: u8, seed: u8, bytes: &[u8]) -> Vec<u8> {
    let mut input = vec![format, seed];
    input.extend_from_slice(bytes);
    input
}

/// The format byte 0 names (`None`: detect it).
fn format_of(b: u8) -> Option<Format> {
    let names = Format::NAMES;
    match usize::from(b) % (names.len() + 1) {
        0 => None,
        i => Format::parse(names[i - 1]).ok().flatten(),
    }
}

/// Chunk ends for `len` bytes: sizes of 1 to 64 bytes from a small generator seeded by
/// `seed`, with a one-byte-at-a-time run now and then.
fn cuts(len: usize, seed: u8) -> Vec<usize> {
    let mut state = u32::from(seed).wrapping_mul(2_654_435_761) | 1;
    let mut at = 0;
    let mut out = Vec::new();
    while at < len {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        at += 1 + (state % 64) as usize;
        out.push(at.min(len));
    }
    out
}

fn split(input: &[u8]) -> (Option<Format>, u8, &[u8]) {
    match input {
        [f, s, rest @ ..] => (format_of(*f), *s, rest),
        _ => (None, 0, input),
    }
}

/// Pushes the stream in chunks with the given format, renders it and applies the
/// patches after each chunk. Nothing may panic.
pub fn stream(input: &[u8]) {
    let (format, seed, bytes) = split(input);
    let mut s = DocStream::new(Options {
        format,
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut page = PageModel::new();
    let mut from = 0;
    for to in cuts(bytes.len(), seed) {
        s.push(&bytes[from..to]).expect("push before finish");
        from = to;
        let changes = s.take_changes();
        for p in view.update(s.conversation(), &changes) {
            page.apply(&p);
        }
    }
    s.finish().expect("first finish");
    assert!(s.push(b"x").is_err(), "push after finish is an error");
    let changes = s.take_changes();
    for p in view.update(s.conversation(), &changes) {
        page.apply(&p);
    }
    let _ = render_conversation(s.conversation(), &RenderOptions::default());
    let _ = docstream_html::progress::progress_lines(
        s.conversation(),
        docstream_html::labels::Locale::En,
    );
}

/// Whole versus split: the conversation, its HTML, and the page built from the split
/// stream's patches must all equal the whole input's.
pub fn stream_invariance(input: &[u8]) {
    let (format, seed, bytes) = split(input);
    let options = Options {
        format,
        ..Options::default()
    };
    let mut whole = DocStream::new(options);
    whole.push(bytes).expect("push");
    whole.finish().expect("finish");
    let mut parts = DocStream::new(options);
    let mut view = HtmlView::new(RenderOptions::default());
    let mut page = PageModel::new();
    let mut from = 0;
    for to in cuts(bytes.len(), seed) {
        parts.push(&bytes[from..to]).expect("push");
        from = to;
        let changes = parts.take_changes();
        for p in view.update(parts.conversation(), &changes) {
            page.apply(&p);
        }
    }
    parts.finish().expect("finish");
    let changes = parts.take_changes();
    for p in view.update(parts.conversation(), &changes) {
        page.apply(&p);
    }
    assert_eq!(
        parts.conversation(),
        whole.conversation(),
        "split and whole conversations differ"
    );
    let html = render_conversation(whole.conversation(), &RenderOptions::default());
    assert_eq!(
        render_conversation(parts.conversation(), &RenderOptions::default()),
        html,
        "split and whole HTML differ"
    );
    assert_eq!(page.html(), html, "the patched page differs from the HTML");
}

/// A saved response or conversation (`response-json`): read, rendered, written back;
/// what is written back reads again to the same documents.
pub fn saved_response(input: &[u8]) {
    let mut s = DocStream::new(Options {
        format: Some(Format::ResponseJson),
        ..Options::default()
    });
    s.push(input).expect("push");
    s.finish().expect("finish");
    let _ = render_conversation(s.conversation(), &RenderOptions::default());
    let json = serde_json::to_string(s.conversation()).expect("a conversation serialises");
    let mut again = DocStream::new(Options {
        format: Some(Format::ResponseJson),
        ..Options::default()
    });
    again.push(json.as_bytes()).expect("push");
    again.finish().expect("finish");
    let docs = |c: &docstream_core::model::Conversation| c.documents().count();
    assert_eq!(
        docs(again.conversation()),
        docs(s.conversation()),
        "a written-back conversation reads to as many documents"
    );
}

/// The seed 002 conversions, both ways: errors are fine, panics are not; a converted
/// history converts again.
pub fn conversions(input: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(input) else {
        return;
    };
    for to in [Dialect::OpenAi, Dialect::Anthropic] {
        if let Ok(out) = request::convert(&value, to) {
            let back = match to {
                Dialect::OpenAi => Dialect::Anthropic,
                Dialect::Anthropic => Dialect::OpenAi,
            };
            let _ = request::convert(&out, back);
        }
    }
}

pub use stores::{folder_scan, sqlite_store, store_readers};

/// The library's readers: Cursor's rows and Claude Code's session files (sans-IO),
/// a SQLite store built from the input and then damaged, and the scan of a generated
/// folder.
mod stores {
    use std::collections::HashSet;
    use std::fs;
    use std::path::{Path, PathBuf};

    use docstream_core::Format;
    use docstream_library::claude_code::{self, Scanner};
    use docstream_library::cursor::{self, BubbleRow};
    use docstream_library::digest::digest;
    use docstream_library::parse_with;
    use docstream_library::store::Library;
    use serde_json::Value;

    /// Pieces of the input, split at NUL bytes (JSON text has none), at most 16.
    fn pieces(input: &[u8]) -> Vec<&[u8]> {
        input.split(|&b| b == 0).take(16).collect()
    }

    /// A small hash of the input, for choices the input does not spell out.
    fn hash(input: &[u8]) -> u64 {
        input.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    }

    /// Cursor's rows and Claude Code's session files as the readers get them from a
    /// host, over arbitrary bytes: a composer, bubbles (found, missing, over the row
    /// limit), a workspace list, a `workspace.json`, their assembly read as a
    /// conversation; session files scanned whole and in pieces (the same scan either
    /// way), and listed together. Nothing may panic.
    pub fn store_readers(input: &[u8]) {
        let parts = pieces(input);
        let composer = parts[0];
        for p in &parts {
            let _ = cursor::prompt_text(p);
            let _ = cursor::workspace_composers(p);
            let _ = cursor::workspace_folder(p);
        }
        let ids: Vec<String> = match cursor::composer("c", composer) {
            Ok(c) if !c.bubbles.is_empty() => c.bubbles.into_iter().take(64).collect(),
            _ => (1..parts.len()).map(|i| format!("b{i}")).collect(),
        };
        let bubbles = ids
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let row = match parts.get(i + 1) {
                    Some(p) if p.len() % 7 == 3 => {
                        BubbleRow::TooLarge(p.len() as u64 + cursor::MAX_ROW_BYTES as u64)
                    }
                    Some(p) => BubbleRow::Found(p.to_vec()),
                    None => BubbleRow::Missing,
                };
                (id.clone(), row)
            })
            .collect();
        if let Ok(bytes) = cursor::assemble(composer, bubbles) {
            let conv = parse_with(
                &bytes,
                Some(Format::CursorStore),
                cursor::read_limits(bytes.len()),
            );
            let _ = digest(&conv);
        }

        // Session files: a short line limit so that long lines are skipped too.
        let h = hash(input);
        let max_line = 64 + (h % 4096) as usize;
        let mut whole = Scanner::with_max_line(max_line);
        whole.push(input);
        let whole = whole.finish();
        let mut split = Scanner::with_max_line(max_line);
        let mut at = 0;
        let mut state = h | 1;
        while at < input.len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let to = (at + 1 + (state % 97) as usize).min(input.len());
            split.push(&input[at..to]);
            at = to;
        }
        assert_eq!(
            split.finish(),
            whole,
            "a scan in pieces differs from the whole"
        );
        let files: Vec<(String, claude_code::Scan, &[u8])> = parts
            .iter()
            .enumerate()
            .map(|(i, p)| (format!("p/f{i}.jsonl"), claude_code::scan(p), *p))
            .filter(|(_, s, _)| s.is_transcript)
            .collect();
        let scans: Vec<(String, claude_code::Scan)> = files
            .iter()
            .map(|(n, s, _)| (n.clone(), s.clone()))
            .collect();
        for item in claude_code::list(&scans) {
            let _ = item.part.bytes(files[item.file].2);
        }
    }

    /// A folder of its own for one target in this process.
    fn scratch(what: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "docstream-fuzz-{what}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    /// The rows a store is built of: a saved Cursor conversation (seed 003's shape) as
    /// its composer row and a row per bubble; else each NUL-separated piece as a
    /// composer, a bubble of composer `c0`, the workspace list, or `key=value`, by its
    /// first byte.
    fn rows(payload: &[u8]) -> Vec<(&'static str, String, Vec<u8>)> {
        let mut rows = Vec::new();
        if let Ok(Value::Object(mut o)) = serde_json::from_slice::<Value>(payload) {
            let id = o
                .get("composerId")
                .and_then(Value::as_str)
                .unwrap_or("c0")
                .to_owned();
            if let Some(Value::Object(map)) = o.remove("conversationMap") {
                let headers: Vec<Value> = map
                    .iter()
                    .map(|(b, v)| serde_json::json!({"bubbleId": b, "type": v.get("type")}))
                    .collect();
                o.entry("fullConversationHeadersOnly")
                    .or_insert(Value::Array(headers));
                for (b, v) in map {
                    rows.push((
                        "cursorDiskKV",
                        format!("bubbleId:{id}:{b}"),
                        v.to_string().into_bytes(),
                    ));
                }
            }
            rows.push((
                "cursorDiskKV",
                format!("composerData:{id}"),
                Value::Object(o).to_string().into_bytes(),
            ));
            return rows;
        }
        for (i, p) in pieces(payload).into_iter().enumerate() {
            let Some((&kind, rest)) = p.split_first() else {
                continue;
            };
            let row = match kind % 4 {
                0 => ("cursorDiskKV", format!("composerData:c{i}"), rest.to_vec()),
                1 => ("cursorDiskKV", format!("bubbleId:c0:{i}"), rest.to_vec()),
                2 => (
                    "ItemTable",
                    "composer.composerData".to_owned(),
                    rest.to_vec(),
                ),
                _ => {
                    let at = rest.iter().position(|&b| b == b'=').unwrap_or(rest.len());
                    (
                        "cursorDiskKV",
                        String::from_utf8_lossy(&rest[..at]).into_owned(),
                        rest.get(at + 1..).unwrap_or_default().to_vec(),
                    )
                }
            };
            rows.push(row);
        }
        rows
    }

    /// Writes a store of `rows` at `dir/state.vscdb`: `flags` pick the page size, and
    /// whether the rows stay in a write-ahead log (copied out without, or with, its
    /// `-shm`). Returns the store's files.
    fn build(dir: &Path, rows: &[(&str, String, Vec<u8>)], flags: u64) -> Vec<PathBuf> {
        let work = dir.join("work.db");
        let store = dir.join("state.vscdb");
        let Ok(c) = rusqlite::Connection::open(&work) else {
            return Vec::new();
        };
        let page = 512u32 << (flags % 8);
        let wal = flags & 8 != 0;
        let ok = c
            .execute_batch(&format!(
                "PRAGMA page_size = {page}; PRAGMA synchronous = OFF;
                 CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
                 CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);{}",
                if wal {
                    "PRAGMA journal_mode = wal; PRAGMA wal_autocheckpoint = 0;"
                } else {
                    ""
                }
            ))
            .is_ok();
        if !ok {
            return Vec::new();
        }
        // One transaction, never synced: a store is built in a millisecond.
        let _ = c.execute_batch("BEGIN");
        for (table, key, value) in rows.iter().take(256) {
            let _ = c.execute(
                &format!("INSERT INTO {table} (key, value) VALUES (?1, ?2)"),
                rusqlite::params![key, value],
            );
        }
        let _ = c.execute_batch("COMMIT");
        let mut files = vec![store.clone()];
        let _ = fs::copy(&work, &store);
        if wal {
            let mut suffixes = vec!["-wal"];
            if flags & 16 != 0 {
                suffixes.push("-shm");
            }
            for suffix in suffixes {
                let (mut from, mut to) = (
                    work.clone().into_os_string(),
                    store.clone().into_os_string(),
                );
                from.push(suffix);
                to.push(suffix);
                if fs::copy(&from, &to).is_ok() {
                    files.push(to.into());
                }
            }
        }
        drop(c);
        let _ = fs::remove_file(&work);
        files
    }

    /// Damages a store's files: `(offset, byte)` triples after a `\0MUT` marker in the
    /// input (offset: two bytes, little-endian, into the whole of the files), else a
    /// few chosen by the input's hash.
    fn damage(files: &[PathBuf], input: &[u8], h: u64) {
        let mut bytes: Vec<Vec<u8>> = files
            .iter()
            .map(|f| fs::read(f).unwrap_or_default())
            .collect();
        let total: usize = bytes.iter().map(Vec::len).sum();
        if total == 0 {
            return;
        }
        let marker = input.windows(4).position(|w| w == b"\0MUT");
        let edits: Vec<(usize, u8)> = match marker {
            Some(at) => input[at + 4..]
                .chunks_exact(3)
                .take(64)
                .map(|t| (usize::from(u16::from_le_bytes([t[0], t[1]])), t[2]))
                .collect(),
            None => (0..h % 4)
                .map(|i| {
                    let x = h
                        .rotate_left(17 * i as u32 + 5)
                        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    ((x >> 8) as usize, x as u8)
                })
                .collect(),
        };
        for (offset, value) in edits {
            let mut at = offset % total;
            for b in bytes.iter_mut() {
                if at < b.len() {
                    b[at] = value;
                    break;
                }
                at -= b.len();
            }
        }
        for (f, b) in files.iter().zip(bytes) {
            let _ = fs::write(f, b);
        }
    }

    /// The files of a folder and their bytes.
    fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
            .map(|r| {
                r.filter_map(Result::ok)
                    .map(|e| {
                        let bytes = fs::read(e.path()).unwrap_or_default();
                        (e.file_name().to_string_lossy().into_owned(), bytes)
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    /// A Cursor store built from the input's rows (a saved conversation, or pieces),
    /// in rollback or WAL mode, then damaged, opened by the store code: listed, every
    /// conversation read. Nothing may panic, and the store's files stay as they were,
    /// with none added.
    pub fn sqlite_store(input: &[u8]) {
        let h = hash(input);
        let payload = match input.windows(4).position(|w| w == b"\0MUT") {
            Some(at) => &input[..at],
            None => input,
        };
        let dir = scratch("sqlite");
        let store = dir.join("store");
        fs::create_dir_all(&store).expect("a folder");
        let files = build(&store, &rows(payload), h);
        damage(&files, input, h >> 8);
        let before = contents(&store);
        if let Ok(mut lib) = Library::open(&store) {
            lib.index(|_, _, _| {});
            let ids: Vec<String> = lib.entries().iter().map(|e| e.id.clone()).collect();
            for id in ids {
                let _ = lib.read(&id);
            }
        }
        assert!(
            contents(&store) == before,
            "the store or a file beside it changed, or one appeared"
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// A session id nothing inside the generated folder has.
    const OUTSIDE: &str = "outside-7c1e9b04d2f35a68";

    /// A small folder generated from the input — folders, session files, JSON files,
    /// stores (raw bytes, or built from rows), links inside it, out of it (to a
    /// session, a folder, `/dev/zero`, nowhere) and back up it (cycles), sockets, a
    /// `workspace.json` — scanned, listed and every conversation read. Nothing may
    /// panic or hang; ids are unique; nothing outside the folder is listed.
    pub fn folder_scan(input: &[u8]) {
        use std::os::unix::fs::symlink;
        let dir = scratch("folder");
        let root = dir.join("root");
        let outside = dir.join("outside");
        fs::create_dir_all(&root).expect("a folder");
        fs::create_dir_all(outside.join("sub")).expect("a folder");
        let secret = format!(
            "{}\n",
            serde_json::json!({"type": "user", "sessionId": OUTSIDE, "uuid": OUTSIDE,
                "message": {"role": "user", "content": "outside"}})
        );
        let _ = fs::write(outside.join("secret.jsonl"), &secret);
        let _ = fs::write(outside.join("sub/secret.jsonl"), &secret);

        let parts = pieces(input);
        let (plan, contents): (&[u8], Vec<&[u8]>) = if parts.len() > 1 {
            (parts[0], parts[1..].to_vec())
        } else {
            (input, vec![input])
        };
        let mut dirs = vec![root.clone()];
        let mut made: Vec<PathBuf> = Vec::new();
        // At most 16 entries of at most 4 KiB: a few runs a second even so, as every
        // file is read two or three times.
        for (i, &b) in plan.iter().take(16).enumerate() {
            let pick = usize::from(b >> 3);
            let parent = dirs[pick % dirs.len()].clone();
            let content = contents[i % contents.len()];
            let content = &content[..content.len().min(4096)];
            let path = match b % 8 {
                0 => {
                    let d = parent.join(format!("d{i}"));
                    if fs::create_dir_all(&d).is_ok() {
                        dirs.push(d.clone());
                    }
                    d
                }
                1 => parent.join(format!("s{i}.jsonl")),
                2 => parent.join(format!("x{i}.json")),
                3 => {
                    let p = parent.join("state.vscdb");
                    if b & 0x20 != 0 {
                        let built = build(&parent, &rows(content), hash(content));
                        made.extend(built);
                        continue;
                    }
                    p
                }
                4 => {
                    let all: Vec<&PathBuf> = dirs.iter().chain(made.iter()).collect();
                    let target = all[pick % all.len()];
                    let name = if target.is_dir() {
                        format!("l{i}")
                    } else {
                        format!("l{i}.jsonl")
                    };
                    let _ = symlink(target, parent.join(name));
                    continue;
                }
                5 => {
                    let targets = [
                        outside.join("secret.jsonl"),
                        outside.clone(),
                        PathBuf::from("/dev/zero"),
                        dir.join("nowhere"),
                    ];
                    let target = &targets[pick % targets.len()];
                    let name = if pick % 4 == 1 {
                        format!("l{i}")
                    } else {
                        format!("l{i}.jsonl")
                    };
                    let _ = symlink(target, parent.join(name));
                    continue;
                }
                6 => {
                    let up = &dirs[pick % dirs.len()];
                    let _ = symlink(up, parent.join(format!("up{i}")));
                    continue;
                }
                _ if pick % 2 == 0 => {
                    // A socket named like a session: not a file to read.
                    let _ =
                        std::os::unix::net::UnixListener::bind(parent.join(format!("k{i}.jsonl")));
                    continue;
                }
                _ => parent.join("workspace.json"),
            };
            if b % 8 != 0 && fs::write(&path, content).is_ok() {
                made.push(path);
            }
        }

        if let Ok(mut lib) = Library::open(&root) {
            lib.index(|_, _, _| {});
            let entries = lib.entries().to_vec();
            let ids: HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
            assert_eq!(ids.len(), entries.len(), "ids are not unique");
            assert!(
                !entries.iter().any(|e| e.id.contains(OUTSIDE)),
                "a conversation from outside the folder is listed"
            );
            for e in &entries {
                let _ = lib.read(&e.id);
            }
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
