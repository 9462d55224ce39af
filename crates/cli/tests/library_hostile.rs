//! Hostile stores and folders cost only themselves (issue 34): a FIFO, a link to
//! `/dev/zero` or out of the folder, a 1 GiB one-line file, a Cursor conversation
//! whose bubbles total more than one event may hold, a SQLite file whose data is in
//! its write-ahead log or whose schema computes a gigabyte per row, the same id in
//! two files, an empty store, a folder too deep to scan. Each run of the CLI here has
//! a time limit and an address-space limit, so a hang or a blow-up fails its test
//! instead of stopping the run.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::fs::symlink;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use docstream_core::model::{DocumentType, Meta};
use docstream_library::store::Library;
use rusqlite::Connection;
use serde_json::{Value, json};

/// A fresh folder under the target directory, removed first if it exists.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("hostile")
        .join(name);
    if dir.exists() {
        // A read-only folder left by an earlier run must be writable to be removed.
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("u+rwx")
            .arg(&dir)
            .status();
        fs::remove_dir_all(&dir).unwrap();
    }
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Address space a run of the CLI may take (KiB): far above what listing these
/// folders needs, far below what reading `/dev/zero` or a gigabyte row takes.
const MAX_VM_KIB: u64 = 1 << 20;

/// What a bounded run of the CLI did.
struct Ran {
    args: String,
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident memory (KiB), from `/usr/bin/time -v`.
    peak_kib: Option<u64>,
    timed_out: bool,
    secs: f64,
}

impl Ran {
    fn ok(&self) -> &Ran {
        assert!(
            !self.timed_out && self.code == Some(0),
            "docstream {}: exit {:?}{}\nstderr: {}",
            self.args,
            self.code,
            if self.timed_out { " (timed out)" } else { "" },
            self.stderr
        );
        self
    }
}

/// Runs `docstream ARGS` in its own process group with at most `MAX_VM_KIB` of
/// address space; after `secs` seconds the group is killed and the run reports it.
fn run(args: &[&OsStr], secs: u64) -> Ran {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("run-{}-{n}", std::process::id()));
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let timed = Path::new("/usr/bin/time").exists();
    let script = if timed {
        "ulimit -v \"$0\"; exec /usr/bin/time -v \"$@\""
    } else {
        "ulimit -v \"$0\"; exec \"$@\""
    };
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(MAX_VM_KIB.to_string())
        .arg(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap())
        .process_group(0)
        .spawn()
        .unwrap();
    let deadline = started + Duration::from_secs(secs);
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            timed_out = true;
            // The whole group: the shell became `time`, whose child is docstream.
            assert!(child.id() > 1);
            let _ = Command::new("kill")
                .args(["-KILL", "--"])
                .arg(format!("-{}", child.id()))
                .status();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let secs = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&fs::read(&out).unwrap()).into_owned();
    let mut stderr = String::from_utf8_lossy(&fs::read(&err).unwrap()).into_owned();
    let mut peak_kib = None;
    if timed {
        peak_kib = stderr.lines().find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")?
                .parse()
                .ok()
        });
        // /usr/bin/time's own lines follow the program's.
        let cut = [
            "Command exited with",
            "Command terminated by",
            "\tCommand being timed",
        ]
        .iter()
        .filter_map(|m| stderr.find(m))
        .min();
        if let Some(at) = cut {
            stderr.truncate(at);
        }
    }
    let code = status.code();
    let _ = fs::remove_dir_all(&dir);
    Ran {
        args: args
            .iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" "),
        code,
        stdout,
        stderr,
        peak_kib,
        timed_out,
        secs,
    }
}

fn list(dir: &Path) -> Ran {
    run(&["list".as_ref(), dir.as_os_str()], 60)
}

fn list_json(dir: &Path) -> (Ran, Vec<Value>) {
    let ran = run(&["list".as_ref(), "--json".as_ref(), dir.as_os_str()], 60);
    let entries = serde_json::from_str(&ran.stdout).unwrap_or_else(|e| {
        panic!(
            "docstream {}: not JSON ({e}): {:?}\nstderr: {}",
            ran.args, ran.stdout, ran.stderr
        )
    });
    (ran, entries)
}

fn ids(entries: &[Value]) -> Vec<&str> {
    entries.iter().map(|e| e["id"].as_str().unwrap()).collect()
}

fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A Claude Code session file of one prompt and one answer.
fn session(dir: &Path, name: &str, id: &str, prompt: &str) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    fs::write(
        &path,
        jsonl(&[
            json!({"type": "user", "sessionId": id, "uuid": format!("{id}-u1"), "parentUuid": null,
                "cwd": "/home/dev/app", "timestamp": "2025-06-01T09:00:00.000Z",
                "message": {"role": "user", "content": prompt}}),
            json!({"type": "assistant", "sessionId": id, "uuid": format!("{id}-a1"), "parentUuid": format!("{id}-u1"),
                "timestamp": "2025-06-01T09:00:05.000Z",
                "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "text", "text": format!("Answer to {prompt}")}]}}),
        ]),
    )
    .unwrap();
    path
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// A FIFO named like a session or a store is not a file to read: opening it would
/// wait for a writer forever.
#[test]
fn a_fifo_in_the_folder_is_skipped_not_waited_for() {
    let dir = scratch("fifo");
    session(&dir.join("p"), "s1.jsonl", "s1", "Hello there");
    mkfifo(&dir.join("p/waiting.jsonl"));
    fs::create_dir_all(dir.join("User/globalStorage")).unwrap();
    mkfifo(&dir.join("User/globalStorage/state.vscdb"));
    let (ran, entries) = list_json(&dir);
    ran.ok();
    assert_eq!(ids(&entries), ["s1"], "{}", ran.stderr);
    for name in ["p/waiting.jsonl", "User/globalStorage/state.vscdb"] {
        assert!(
            ran.stderr.contains(name) && ran.stderr.contains("not a regular file"),
            "{name}: {}",
            ran.stderr
        );
    }
    let site = dir.join("site");
    let ran = run(
        &[
            "export".as_ref(),
            "--out".as_ref(),
            site.as_os_str(),
            dir.as_os_str(),
        ],
        60,
    );
    ran.ok();
    assert!(site.join("c/s1.html").exists());
}

/// Links are followed inside the folder only: a link to `/dev/zero` (as a session or
/// as a workspace's `workspace.json`) would be read until memory runs out, and a link
/// to a file elsewhere would list and export what the folder does not hold.
#[test]
fn links_out_of_the_folder_are_not_followed() {
    let root = scratch("links");
    let dir = root.join("store");
    let outside = root.join("elsewhere");
    session(&outside, "secret.jsonl", "secret", "Not in the folder");
    session(&dir.join("p"), "s1.jsonl", "s1", "In the folder");
    symlink("/dev/zero", dir.join("p/zero.jsonl")).unwrap();
    symlink(outside.join("secret.jsonl"), dir.join("p/secret.jsonl")).unwrap();
    symlink(&outside, dir.join("p/linked-folder")).unwrap();
    // A link inside the folder is followed, and what it points to is listed once.
    symlink(dir.join("p/s1.jsonl"), dir.join("p/again.jsonl")).unwrap();
    // A workspace whose workspace.json is /dev/zero.
    let ws = dir.join("User/workspaceStorage/ab12");
    fs::create_dir_all(&ws).unwrap();
    let c = Connection::open(ws.join("state.vscdb")).unwrap();
    c.execute_batch("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);")
        .unwrap();
    c.execute(
        "INSERT INTO ItemTable VALUES ('composer.composerData', ?1)",
        [json!({"allComposers": [{"composerId": "c1", "name": "Named"}]}).to_string()],
    )
    .unwrap();
    drop(c);
    symlink("/dev/zero", ws.join("workspace.json")).unwrap();

    let (ran, entries) = list_json(&dir);
    ran.ok();
    let ids = ids(&entries);
    assert!(ids.contains(&"s1") && ids.contains(&"c1"), "{ids:?}");
    assert!(!ids.contains(&"secret"), "{ids:?}");
    assert_eq!(ids.iter().filter(|i| **i == "s1").count(), 1, "{ids:?}");
    for name in ["p/zero.jsonl", "p/secret.jsonl", "p/linked-folder"] {
        assert!(
            ran.stderr.contains(name) && ran.stderr.contains("out of the folder"),
            "{name}: {}",
            ran.stderr
        );
    }
    assert!(
        ran.stderr.contains("workspace.json"),
        "the workspace.json link is named: {}",
        ran.stderr
    );
    let ran = run(
        &[
            "html".as_ref(),
            "--conversation".as_ref(),
            "secret".as_ref(),
            dir.as_os_str(),
        ],
        60,
    );
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
}

/// A 1 GiB file of one line (sparse: cheap to make) costs `list` what a line over the
/// limit costs, not the file's size four times over.
#[test]
fn a_one_gib_one_line_file_costs_list_little_memory() {
    let dir = scratch("one-gib");
    session(&dir.join("p"), "s1.jsonl", "s1", "Small and fine");
    let big = fs::File::create(dir.join("p/big.jsonl")).unwrap();
    big.set_len(1 << 30).unwrap();
    drop(big);
    let (ran, entries) = list_json(&dir);
    ran.ok();
    assert_eq!(ids(&entries), ["s1"]);
    let peak = ran.peak_kib.expect("/usr/bin/time gives the peak");
    eprintln!(
        "list with a 1 GiB one-line file: {peak} KiB peak, {:.1} s",
        ran.secs
    );
    let _ = fs::remove_dir_all(&dir);
    assert!(peak < 100 << 10, "{peak} KiB at peak");
}

/// One line of JSON text larger than an event may be (48 MiB) is skipped by the
/// listing as by the reader: memory stays near the 16 MiB limit, not a multiple of
/// the line.
#[test]
fn a_long_json_line_is_read_in_pieces() {
    let dir = scratch("long-line");
    session(&dir.join("p"), "s1.jsonl", "s1", "Small and fine");
    let mut line =
        br#"{"type":"user","sessionId":"s2","uuid":"u","message":{"role":"user","content":""#
            .to_vec();
    line.resize(48 << 20, b'a');
    line.extend_from_slice(b"\"}}\n");
    fs::write(dir.join("p/long.jsonl"), &line).unwrap();
    drop(line);
    let (ran, entries) = list_json(&dir);
    ran.ok();
    assert!(ids(&entries).contains(&"s1"), "{entries:?}");
    let peak = ran.peak_kib.expect("/usr/bin/time gives the peak");
    eprintln!(
        "list with a 48 MiB line: {peak} KiB peak, {:.1} s",
        ran.secs
    );
    let _ = fs::remove_dir_all(&dir);
    assert!(peak < 80 << 10, "{peak} KiB at peak");
}

fn kv_db(path: &Path, rows: &[(String, Vec<u8>)]) -> Connection {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    let c = Connection::open(path).unwrap();
    c.execute_batch(
        "CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE IF NOT EXISTS cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);",
    )
    .unwrap();
    for (k, v) in rows {
        c.execute(
            "INSERT INTO cursorDiskKV (key, value) VALUES (?1, ?2)",
            rusqlite::params![k, v],
        )
        .unwrap();
    }
    c
}

/// A composer of `n` bubbles, each holding `text`, as rows.
fn conversation_rows(id: &str, bubbles: &[(String, String)]) -> Vec<(String, Vec<u8>)> {
    let headers: Vec<Value> = bubbles
        .iter()
        .enumerate()
        .map(|(i, (b, _))| json!({"bubbleId": b, "type": if i % 2 == 0 { 1 } else { 2 }}))
        .collect();
    let mut rows = vec![(
        format!("composerData:{id}"),
        json!({"_v": 3, "composerId": id, "name": format!("Conversation {id}"), "createdAt": 1_735_000_000_000u64,
            "fullConversationHeadersOnly": headers})
        .to_string()
        .into_bytes(),
    )];
    for (i, (b, text)) in bubbles.iter().enumerate() {
        rows.push((
            format!("bubbleId:{id}:{b}"),
            json!({"_v": 2, "type": if i % 2 == 0 { 1 } else { 2 }, "bubbleId": b, "text": text})
                .to_string()
                .into_bytes(),
        ));
    }
    rows
}

/// A prompt or document starts with `text`.
fn shows(conv: &docstream_core::model::Conversation, text: &str) -> bool {
    conv.documents().any(|d| d.text().starts_with(text))
        || conv.turns.iter().any(|t| match t {
            docstream_core::model::Turn::User(u) => u.content.starts_with(text),
            _ => false,
        })
}

fn error_docs(conv: &docstream_core::model::Conversation) -> Vec<String> {
    conv.documents()
        .filter(|d| d.doc_type() == DocumentType::Error)
        .map(|d| match &d.meta {
            Meta::Error(e) => format!("{} {} {}", e.error_code, d.text(), e.details),
            _ => d.text().to_owned(),
        })
        .collect()
}

/// The event limit (16 MiB) applies to each bubble, not to the conversation: 40
/// bubbles of 500 KB all show, and one bubble over the limit is its own error.
#[test]
fn a_cursor_conversation_over_16_mb_shows_every_bubble() {
    let dir = scratch("cursor-large");
    let db = dir.join("globalStorage/state.vscdb");
    let bubbles: Vec<(String, String)> = (0..40)
        .map(|i| {
            (
                format!("b{i:02}"),
                format!("bubble {i:02} {}", "x".repeat(500_000)),
            )
        })
        .collect();
    let mut rows = conversation_rows("c-large", &bubbles);
    let mut with_huge = bubbles[..3].to_vec();
    with_huge[1].1 = "y".repeat(17 << 20);
    rows.extend(conversation_rows("c-huge", &with_huge));
    drop(kv_db(&db, &rows));

    let mut lib = Library::open(&dir).unwrap();
    lib.index(|_, _, _| {});
    let conv = lib.read("c-large").unwrap();
    let errors = error_docs(&conv);
    assert!(errors.is_empty(), "{errors:#?}");
    for i in 0..40 {
        assert!(
            shows(&conv, &format!("bubble {i:02} ")),
            "bubble {i} is not shown"
        );
    }
    let e = lib.entries().iter().find(|e| e.id == "c-large").unwrap();
    assert_eq!(e.messages, 40);

    let conv = lib.read("c-huge").unwrap();
    let errors = error_docs(&conv);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains("b01") && errors[0].contains("16 MiB"),
        "{}",
        errors[0]
    );
    assert!(
        shows(&conv, "bubble 00 ") && shows(&conv, "bubble 02 "),
        "the bubbles around the large one are shown"
    );
}

/// Names of the files in a folder.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The files of a folder and their bytes: a store left as it was found.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    names(dir)
        .into_iter()
        .filter(|n| dir.join(n).is_file())
        .map(|n| (n.clone(), fs::read(dir.join(&n)).unwrap()))
        .collect()
}

/// A WAL-mode store: `c-old` merged into the database file, `c-new` only in the
/// write-ahead log. Returns the writer, which keeps the log from being merged.
fn wal_store(db: &Path) -> Connection {
    let c = kv_db(db, &[]);
    c.pragma_update(None, "journal_mode", "wal").unwrap();
    for (k, v) in conversation_rows("c-old", &[("o1".into(), "old prompt".into())]) {
        c.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            rusqlite::params![k, v],
        )
        .unwrap();
    }
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    for (k, v) in conversation_rows("c-new", &[("n1".into(), "new prompt".into())]) {
        c.execute(
            "INSERT INTO cursorDiskKV VALUES (?1, ?2)",
            rusqlite::params![k, v],
        )
        .unwrap();
    }
    c
}

/// The store of [`wal_store`] copied without its `-shm`: as a folder copied, or
/// unpacked, while no program had it open.
fn wal_copy(dir: &Path) -> PathBuf {
    let live = dir.join("live/state.vscdb");
    let writer = wal_store(&live);
    let copy = dir.join("copy");
    fs::create_dir_all(&copy).unwrap();
    fs::copy(&live, copy.join("state.vscdb")).unwrap();
    fs::copy(
        dir.join("live/state.vscdb-wal"),
        copy.join("state.vscdb-wal"),
    )
    .unwrap();
    drop(writer);
    copy
}

/// Reading never creates `-wal` or `-shm` files beside a store, and reads what is in
/// its write-ahead log: through the `-shm` beside a running writer, or with the log's
/// index in memory when there is no `-shm`. A `-wal` that is not a regular file (a
/// FIFO would block SQLite's open) is not opened: the listing is of the database
/// file, and says so.
#[test]
fn reading_a_store_creates_no_file_beside_it() {
    let dir = scratch("wal");
    let live = dir.join("live/state.vscdb");
    let writer = wal_store(&live);
    let before = names(live.parent().unwrap());
    assert_eq!(
        before,
        ["state.vscdb", "state.vscdb-shm", "state.vscdb-wal"]
    );
    let (ran, entries) = list_json(live.parent().unwrap());
    ran.ok();
    let mut got = ids(&entries);
    got.sort();
    assert_eq!(got, ["c-new", "c-old"], "the log is read: {}", ran.stderr);
    assert_eq!(names(live.parent().unwrap()), before);
    drop(writer);

    // The database and its log without the -shm.
    let copy = wal_copy(&scratch("wal-copy"));
    let before = contents(&copy);
    let (ran, entries) = list_json(&copy);
    assert!(
        contents(&copy) == before,
        "the store and the files beside it are unchanged"
    );
    ran.ok();
    let mut got = ids(&entries);
    got.sort();
    assert_eq!(got, ["c-new", "c-old"], "the log is read: {}", ran.stderr);
    assert!(ran.stderr.is_empty(), "{}", ran.stderr);
    let ran = run(
        &[
            "json".as_ref(),
            "--conversation".as_ref(),
            "c-new".as_ref(),
            copy.as_os_str(),
        ],
        60,
    );
    ran.ok();
    assert!(ran.stdout.contains("new prompt"), "{}", ran.stdout);
    assert!(contents(&copy) == before);

    // A log with nothing to merge (empty, or not a log at all): SQLite would remove
    // it when the connection closes, as a writer tidies up; a reader must not.
    for (name, log) in [("empty", &b""[..]), ("garbage", &[7u8; 100][..])] {
        let copy = wal_copy(&scratch(&format!("wal-{name}")));
        fs::write(copy.join("state.vscdb-wal"), log).unwrap();
        let before = contents(&copy);
        let (ran, entries) = list_json(&copy);
        ran.ok();
        assert!(
            contents(&copy) == before,
            "{name}: the log is left as it is"
        );
        assert_eq!(ids(&entries), ["c-old"], "{name}");
    }

    // A WAL-mode database whose log was merged and removed.
    let merged = dir.join("merged/state.vscdb");
    drop(wal_store(&merged));
    assert_eq!(names(merged.parent().unwrap()), ["state.vscdb"]);
    let (ran, entries) = list_json(merged.parent().unwrap());
    ran.ok();
    assert_eq!(names(merged.parent().unwrap()), ["state.vscdb"]);
    assert_eq!(ids(&entries).len(), 2);
    assert!(ran.stderr.is_empty(), "{}", ran.stderr);

    // A FIFO where the log would be.
    let fifo = dir.join("fifo/state.vscdb");
    drop(wal_store(&fifo));
    mkfifo(&dir.join("fifo/state.vscdb-wal"));
    let (ran, entries) = list_json(fifo.parent().unwrap());
    ran.ok();
    assert_eq!(ids(&entries).len(), 2, "the merged database is read");
    assert!(
        ran.stderr.contains("state.vscdb-wal is not a regular file"),
        "{}",
        ran.stderr
    );
}

/// In a folder the reader cannot write to (as root, the run drops to `nobody`), a
/// store whose newest conversation is in its write-ahead log, without a `-shm`,
/// lists whole.
#[test]
fn a_store_in_a_read_only_folder_lists() {
    let store = wal_copy(&scratch("read-only"));
    let store = store.as_path();
    let ok = Command::new("chmod")
        .arg("-R")
        .arg("a+rX,a-w")
        .arg(store)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let root = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    let out = if root {
        // `nobody` must reach the binary and the folder: both are under the target
        // directory, which may not be open to others; copy them out.
        let tmp = std::env::temp_dir().join(format!("docstream-ro-{}", std::process::id()));
        let _ = Command::new("rm").arg("-rf").arg(&tmp).status();
        fs::create_dir_all(&tmp).unwrap();
        fs::copy(env!("CARGO_BIN_EXE_docstream"), tmp.join("docstream")).unwrap();
        let copied = tmp.join("store");
        let status = Command::new("cp")
            .arg("-a")
            .arg(store)
            .arg(&copied)
            .status()
            .unwrap();
        assert!(status.success());
        let _ = Command::new("chmod").arg("a+rx").arg(&tmp).status();
        let Ok(out) = Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(tmp.join("docstream"))
            .args(["list", "--json"])
            .arg(&copied)
            .output()
        else {
            eprintln!("skipped: setpriv is absent");
            return;
        };
        assert_eq!(names(&copied), ["state.vscdb", "state.vscdb-wal"]);
        let _ = Command::new("rm").arg("-rf").arg(&tmp).status();
        out
    } else {
        Command::new(env!("CARGO_BIN_EXE_docstream"))
            .args(["list", "--json"])
            .arg(store)
            .output()
            .unwrap()
    };
    let _ = Command::new("chmod")
        .arg("-R")
        .arg("u+w")
        .arg(store)
        .status();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let entries: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let mut got = ids(&entries);
    got.sort();
    assert_eq!(got, ["c-new", "c-old"], "{stderr}");
}

/// A 12 KB store whose `value` column is generated as a 500 MB zero blob: each row
/// would cost a gigabyte. It is refused with a message; memory stays small.
#[test]
fn a_generated_column_does_not_allocate_a_gigabyte_per_row() {
    let dir = scratch("zeroblob");
    let db = dir.join("state.vscdb");
    let c = Connection::open(&db).unwrap();
    c.execute_batch(
        "CREATE TABLE cursorDiskKV (key TEXT UNIQUE, value BLOB GENERATED ALWAYS AS (zeroblob(500000000)) VIRTUAL);
         INSERT INTO cursorDiskKV (key) VALUES ('composerData:c1'), ('composerData:c2');",
    )
    .unwrap();
    drop(c);
    assert!(fs::metadata(&db).unwrap().len() < 16 << 10);
    let ran = list(&dir);
    let peak = ran.peak_kib.expect("/usr/bin/time gives the peak");
    eprintln!(
        "list of the zeroblob store: {peak} KiB peak; stderr {}",
        ran.stderr
    );
    assert!(!ran.timed_out, "{}", ran.stderr);
    assert!(peak < 100 << 10, "{peak} KiB at peak");
    assert!(
        ran.stderr.contains("state.vscdb") || ran.stdout.contains("state.vscdb"),
        "the store is named: {} {}",
        ran.stdout,
        ran.stderr
    );
}

/// The same session id in two project folders: two entries, two pages, each
/// reachable by `--conversation`.
#[test]
fn the_same_id_twice_gets_two_pages() {
    let dir = scratch("same-id");
    session(&dir.join("a"), "s1.jsonl", "s1", "First copy prompt");
    session(&dir.join("b"), "s1.jsonl", "s1", "Second copy prompt");
    let (ran, entries) = list_json(&dir);
    ran.ok();
    let mut got = ids(&entries);
    got.sort();
    assert_eq!(got, ["s1", "s1~2"]);
    for (id, want) in [("s1", "First copy"), ("s1~2", "Second copy")] {
        let ran = run(
            &[
                "json".as_ref(),
                "--conversation".as_ref(),
                id.as_ref(),
                dir.as_os_str(),
            ],
            60,
        );
        ran.ok();
        assert!(ran.stdout.contains(want), "{id}: {}", ran.stdout);
    }
    let site = dir.join("site");
    run(
        &[
            "export".as_ref(),
            "--out".as_ref(),
            site.as_os_str(),
            dir.as_os_str(),
        ],
        60,
    )
    .ok();
    let pages: Vec<String> = names(&site.join("c"))
        .into_iter()
        .map(|n| fs::read_to_string(site.join("c").join(n)).unwrap())
        .collect();
    assert_eq!(pages.len(), 2);
    assert!(pages.iter().any(|p| p.contains("First copy prompt")));
    assert!(pages.iter().any(|p| p.contains("Second copy prompt")));
}

/// An empty (0-byte) store and a folder deeper than the scan goes are named on
/// stderr; the rest lists.
#[test]
fn an_empty_store_and_a_too_deep_folder_say_so() {
    let dir = scratch("empty-deep");
    session(&dir.join("p"), "s1.jsonl", "s1", "Shallow");
    fs::create_dir_all(dir.join("User/globalStorage")).unwrap();
    fs::write(dir.join("User/globalStorage/state.vscdb"), b"").unwrap();
    let deep = (0..12).fold(dir.clone(), |p, i| p.join(format!("d{i}")));
    session(&deep, "deep.jsonl", "deep", "Too deep");
    let (ran, entries) = list_json(&dir);
    assert!(ids(&entries).contains(&"s1"), "{entries:?}");
    assert!(!ids(&entries).contains(&"deep"), "{entries:?}");
    assert!(
        ran.stderr.contains("User/globalStorage/state.vscdb") && ran.stderr.contains("empty"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.contains("d0/d1/d2/d3/d4/d5/d6/d7/d8") && ran.stderr.contains("deep"),
        "{}",
        ran.stderr
    );
    assert_eq!(
        ran.code,
        Some(1),
        "an empty store is a store that could not be read"
    );
}

/// `list DIR` lists what it can and exits 1 when a store in it could not be read,
/// naming the file on stderr (as `ls` and `grep -r` do).
#[test]
fn list_exits_1_when_a_store_could_not_be_read() {
    let dir = scratch("exit-1");
    session(&dir.join("p"), "s1.jsonl", "s1", "Readable");
    let db = dir.join("User/globalStorage/state.vscdb");
    drop(kv_db(
        &db,
        &conversation_rows("c1", &[("b1".into(), "hi".into())]),
    ));
    let bytes = fs::read(&db).unwrap();
    fs::write(&db, &bytes[..bytes.len() / 2]).unwrap();
    for json in [false, true] {
        let mut args: Vec<&OsStr> = vec!["list".as_ref()];
        if json {
            args.push("--json".as_ref());
        }
        args.push(dir.as_os_str());
        let ran = run(&args, 60);
        assert_eq!(ran.code, Some(1), "{}", ran.stderr);
        assert!(ran.stdout.contains("s1"), "{}", ran.stdout);
        assert!(
            ran.stderr.contains("User/globalStorage/state.vscdb"),
            "{}",
            ran.stderr
        );
    }
    // A bad row is not a store that could not be read: listed with its error, exit 0.
    let dir = scratch("exit-0");
    let mut rows = conversation_rows("c1", &[("b1".into(), "hi".into())]);
    rows.push(("composerData:c-bad".into(), b"{not json".to_vec()));
    drop(kv_db(&dir.join("state.vscdb"), &rows));
    let ran = list(&dir);
    ran.ok();
    assert!(ran.stdout.contains("c-bad"), "{}", ran.stdout);
}
