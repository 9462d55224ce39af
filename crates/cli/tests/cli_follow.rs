//! `docstream html --follow FILE`: the server's events as a page receives them. A page
//! that connects gets a `reset` and the patches of the file so far; lines appended
//! arrive as patches of only what they changed; a file replaced by a shorter one starts
//! every page afresh with a status saying so; a request naming another host gets 403;
//! wrong command lines are refused. (The page itself, in Chromium:
//! tests/viewer/follow.test.mjs.)

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SESSION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fixtures/claude-code-transcript/session.jsonl"
);

/// The server, stopped when dropped.
struct Served {
    child: Child,
    port: u16,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(file: &std::path::Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(["html", "--follow"])
        .arg(file)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served { child, port }
}

/// A GET with `host` as its Host header: the status line, and the connection to read on.
fn get(port: u16, path: &str, host: &str) -> (String, BufReader<TcpStream>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut r = BufReader::new(s);
    let mut status = String::new();
    r.read_line(&mut status).unwrap();
    // The headers.
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        if h.trim().is_empty() {
            break;
        }
    }
    (status, r)
}

/// The next event: its name and data (within 20 s: the server's keep-alive comments
/// do not count).
fn next_event(r: &mut BufReader<TcpStream>) -> (String, String) {
    let start = Instant::now();
    let (mut name, mut data) = (String::new(), Vec::new());
    loop {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no event in 20 s"
        );
        let mut line = String::new();
        assert!(r.read_line(&mut line).unwrap() > 0, "the events ended");
        let line = line.trim_end_matches('\n');
        if line.is_empty() {
            if !name.is_empty() {
                return (name, data.join("\n"));
            }
        } else if let Some(n) = line.strip_prefix("event: ") {
            name = n.to_owned();
        } else if let Some(d) = line.strip_prefix("data: ") {
            data.push(d.to_owned());
        }
    }
}

/// Events until one named `name` whose data holds `needle`.
fn until(r: &mut BufReader<TcpStream>, name: &str, needle: &str) -> Vec<(String, String)> {
    let start = Instant::now();
    let mut seen = Vec::new();
    loop {
        let e = next_event(r);
        let done = e.0 == name && e.1.contains(needle);
        seen.push(e);
        if done {
            return seen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no {name} with {needle:?}: {seen:?}"
        );
    }
}

#[test]
fn a_followed_file_streams_its_appended_lines_and_restarts_when_replaced() {
    let dir = std::env::temp_dir().join(format!("docstream-follow-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("session.jsonl");
    let whole = std::fs::read_to_string(SESSION).unwrap();
    let lines: Vec<&str> = whole.split_inclusive('\n').collect();
    // The first line is the session's summary: the first prompt is the second.
    std::fs::write(&file, lines[..2].concat()).unwrap();
    let served = serve(&file);

    let (status, mut events) = get(
        served.port,
        "/events",
        &format!("127.0.0.1:{}", served.port),
    );
    assert!(status.contains("200"), "{status}");
    let (name, data) = next_event(&mut events);
    assert_eq!((name.as_str(), data.as_str()), ("reset", "Following"));
    let (name, data) = next_event(&mut events);
    assert_eq!(name, "patches");
    let first: serde_json::Value = serde_json::from_str(&data).unwrap();
    assert_eq!(first[0]["op"], "insert_turn", "{data}");

    // Each appended line arrives as the patches of what it changed, never the page.
    for line in &lines[2..] {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&file)
            .unwrap();
        f.write_all(line.as_bytes()).unwrap();
    }
    let seen = until(&mut events, "patches", "OK, I'll do that.");
    let total: usize = seen.iter().map(|(_, d)| d.len()).sum();
    assert!(
        total < 4 * whole.len(),
        "patches of the appended lines: {total} bytes"
    );
    assert!(seen.iter().all(|(n, _)| n == "patches"), "{seen:?}");

    // A page that joins now catches up in one event.
    let (_, mut late) = get(
        served.port,
        "/events",
        &format!("localhost:{}", served.port),
    );
    assert_eq!(next_event(&mut late).0, "reset");
    let (name, data) = next_event(&mut late);
    assert_eq!(name, "patches");
    assert!(data.contains("OK, I'll do that."), "{data}");

    // Replaced by a shorter file: every page starts afresh, told why.
    std::fs::write(&file, lines[..2].concat()).unwrap();
    let seen = until(&mut events, "reset", "read afresh");
    assert!(seen.last().unwrap().1.contains("truncated"), "{seen:?}");
    let (name, data) = next_event(&mut events);
    assert_eq!(name, "patches");
    assert!(data.contains("insert_turn"), "{data}");

    // Another host name for this address (a page that rebound its name): refused.
    let (status, _) = get(
        served.port,
        "/events",
        &format!("attacker.example:{}", served.port),
    );
    assert!(status.contains("403"), "{status}");
    let (status, mut page) = get(served.port, "/", &format!("127.0.0.1:{}", served.port));
    assert!(status.contains("200"), "{status}");
    let mut html = String::new();
    page.read_to_string(&mut html).unwrap();
    assert!(html.contains("script-src 'self'"), "the page's policy");
    assert!(html.contains("<script type=\"module\" src=\"/follow.js\">"));
    drop(served);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn follow_needs_a_file_and_html() {
    for args in [
        &["md", "--follow", SESSION][..],
        &["html", "--follow", "-"],
        &["html", "--follow", "--chunk", "8", SESSION],
        &["html", "--port", "8080", SESSION],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(["html", "--follow", "/nonexistent/session.jsonl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}
