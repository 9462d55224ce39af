//! The CLI behaves like one: `--help` and `--version` on stdout with exit 0, a wrong
//! command line exits 2, input it cannot read exits 1 with a message naming the file
//! and what was expected, a partial success exits 0 with a one-line summary, the
//! standalone page shows no controls that need a script, and memory stays within 3×
//! the input.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn docstream(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file under `target/cli-tests/` holding `bytes`.
fn file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::File::create(&path)
        .unwrap()
        .write_all(bytes)
        .unwrap();
    path
}

fn cursor_line(kind: &str, text: &str) -> String {
    let text = serde_json::to_string(text).unwrap();
    format!(
        r#"{{"type":"{kind}","message":{{"role":"{kind}","content":[{{"type":"text","text":{text}}}]}},"session_id":"s"}}"#
    )
}

const RESULT: &str =
    r#"{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s"}"#;

#[test]
fn help_goes_to_stdout_and_exits_0() {
    for flag in ["--help", "-h"] {
        let o = docstream(&[flag]);
        assert_eq!(o.status.code(), Some(0), "{flag}");
        assert!(o.stderr.is_empty(), "{}", stderr(&o));
        let out = String::from_utf8(o.stdout).unwrap();
        assert!(out.starts_with("usage: docstream"), "{out}");
    }
    let o = docstream(&["json", "--help"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn version_is_printed() {
    let o = docstream(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("docstream {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_wrong_command_line_exits_2() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/cursor-session.jsonl"
    );
    for args in [
        &["json", "--frobnicate", sample][..],
        &["frobnicate", sample],
        &["json", "--chunk", "0", sample],
        &["json", "--format", "no-such-format", sample],
        &["json"],
        &[],
    ] {
        let o = docstream(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(
            stderr(&o).starts_with("docstream: "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn empty_binary_and_unrecognised_input_fail_naming_the_file() {
    let cases: [(&str, &[u8], &str); 4] = [
        ("empty.jsonl", b"", "is empty"),
        ("blank.jsonl", b"\n\n  \n", "is not in a format"),
        (
            "binary.bin",
            b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0",
            "binary",
        ),
        (
            "prose.txt",
            b"Dear diary,\ntoday I wrote no JSON.\n",
            "is not in a format",
        ),
    ];
    for (name, bytes, says) in cases {
        let path = file(name, bytes);
        for command in ["json", "html", "text"] {
            let o = docstream(&[command, path.to_str().unwrap()]);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{name} {command}: {err}");
            assert!(o.stdout.is_empty(), "{name} {command}: nothing on stdout");
            assert!(err.contains(path.to_str().unwrap()), "{name}: {err}");
            assert!(err.contains(says), "{name}: {err}");
            assert!(err.contains("expected a transcript"), "{name}: {err}");
            assert!(err.contains("cursor-stream-json"), "{name}: {err}");
            assert!(!err.contains("cut off"), "{name}: {err}");
        }
    }
    let o = docstream(&["json", "/no/such/file.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/no/such/file.jsonl"));
}

#[test]
fn partial_success_exits_0_with_a_one_line_summary() {
    let input = format!(
        "Warning: proxy configured\n{}\n{}\n{{\"type\": oops\n{}\n",
        cursor_line("user", "Hi"),
        cursor_line("assistant", "Hello"),
        RESULT
    );
    let path = file("partial.jsonl", input.as_bytes());
    let o = docstream(&["json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    assert!(err.contains("1 malformed or oversized event"), "{err}");
    assert!(err.contains("1 line skipped before the stream"), "{err}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["stats"]["skippedLines"], 1);
    // A clean input says nothing.
    let clean = format!(
        "{}\n{}\n{RESULT}\n",
        cursor_line("user", "Hi"),
        cursor_line("assistant", "Hello")
    );
    let path = file("clean.jsonl", clean.as_bytes());
    let o = docstream(&["json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}

#[test]
fn the_standalone_page_runs_only_its_own_inline_script() {
    let sample = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/cursor-session.jsonl"
    );
    let o = docstream(&["html", sample]);
    assert_eq!(o.status.code(), Some(0));
    let page = String::from_utf8(o.stdout).unwrap();
    // One inline module (its copy controls), named by its hash in the policy; no file
    // fetched, no other origin.
    assert_eq!(page.matches("<script").count(), 1, "one script");
    assert!(page.contains("<script type=\"module\">"), "inline");
    assert!(!page.contains(" src="), "nothing fetched");
    assert!(page.contains("default-src 'none'") && page.contains("script-src 'sha256-"));
    assert!(
        page.contains("class=\"ds-copy\""),
        "the sample has copy controls"
    );
    // Shown once the script runs (tests/viewer/page.test.mjs clicks them).
    assert!(page.contains(".ds-page:not(.ds-scripted) .ds-copy { display: none; }"));
}

#[test]
fn pages_show_formulas_as_mathml_beside_their_tex() {
    let fixture = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fixtures/cursor-stream-json/math.jsonl"
    );
    for args in [
        &["html", fixture][..],
        &["html", "--chunk", "7", fixture],
        &["html", "--no-highlight", fixture],
    ] {
        let o = docstream(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let page = String::from_utf8(o.stdout).unwrap();
        assert!(
            page.contains(r#"<code class="ds-math" data-ds-math="">E = mc^2</code><math display="inline"><mi>E</mi>"#),
            "{args:?}: {page}"
        );
        assert!(page.contains(
            r#"data-ds-math="">\sum_{i=1}^{n} i = \frac{n(n+1)}{2}</code><math display="block">"#
        ));
        assert!(
            page.contains(r#"<code class="ds-math">\frac{a}</code> and"#),
            "bad TeX stays code"
        );
        assert!(page.contains("<mtext>&lt;img src=x onerror=alert(1)&gt;</mtext>"));
        assert!(!page.contains("<img"), "markup in a formula stays text");
        assert!(!page.contains(" style="), "no style attributes");
    }
}

/// A Cursor `stream-json` transcript of about `size` bytes: prompts, answers streamed in
/// small deltas (Markdown), shell tool calls with output.
fn transcript(size: usize) -> String {
    let mut out = String::with_capacity(size + 4096);
    let mut round = 0;
    while out.len() < size {
        round += 1;
        out.push_str(&cursor_line(
            "user",
            &format!("Step {round}: fix the tests"),
        ));
        out.push('\n');
        for i in 0..30 {
            let text = format!(
                "Part {i} of the answer, with **bold**, `code` and a [link](https://example.com/{i}).\n"
            );
            out.push_str(&cursor_line("assistant", &text));
            out.push('\n');
        }
        let output = "test result: ok. 12 passed\n".repeat(20);
        let args = serde_json::json!({"shellToolCall": {"args": {"command": format!("cargo test {round}")}}});
        let done = serde_json::json!({"shellToolCall": {"args": {"command": format!("cargo test {round}")},
            "result": {"success": {"exitCode": 0, "stdout": output, "stderr": ""}}}});
        out.push_str(&format!(
            "{{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c{round}\",\"tool_call\":{args},\"session_id\":\"s\"}}\n"
        ));
        out.push_str(&format!(
            "{{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c{round}\",\"tool_call\":{done},\"session_id\":\"s\"}}\n"
        ));
        out.push_str(RESULT);
        out.push('\n');
    }
    out
}

/// Peak resident memory in KiB of `docstream ARGS`, from `/usr/bin/time -v`.
fn peak_kib(args: &[&str]) -> Option<u64> {
    let o = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .ok()?;
    assert!(o.status.success(), "{}", stderr(&o));
    stderr(&o)
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
}

#[test]
fn memory_stays_within_three_times_the_input() {
    if !Path::new("/usr/bin/time").exists() {
        eprintln!("skipped: /usr/bin/time is absent");
        return;
    }
    let input = transcript(10 << 20);
    let path = file("large.jsonl", input.as_bytes());
    let path = path.to_str().unwrap();
    // What the program needs with an empty conversation (code, allocator, stdio).
    let base = peak_kib(&[
        "json",
        file("one.jsonl", RESULT.as_bytes()).to_str().unwrap(),
    ])
    .expect("a peak");
    let size_kib = input.len() as u64 / 1024;
    // Whole, and fed in 64-byte chunks as a stream would come (patches made per chunk).
    let runs: [&[&str]; 4] = [
        &["json", path],
        &["html", path],
        &["json", "--chunk", "64", path],
        &["html", "--chunk", "64", path],
    ];
    for args in runs {
        let peak = peak_kib(args).expect("a peak");
        let run = args[..args.len() - 1].join(" ");
        eprintln!(
            "{run}: peak {peak} KiB for {size_kib} KiB of input ({:.2}×; {base} KiB with no input)",
            peak as f64 / size_kib as f64
        );
        assert!(
            peak <= 3 * size_kib,
            "{run}: {peak} KiB at peak for {size_kib} KiB of input"
        );
    }
}

/// Characters a terminal acts on: C0 but tab and newline, DEL, C1 (ESC among them).
fn controls(s: &str) -> Vec<char> {
    s.chars()
        .filter(|c| c.is_control() && *c != '\t' && *c != '\n')
        .collect()
}

/// Escape sequences a transcript might carry: a window title (OSC 0), a link (OSC 8),
/// the clipboard (OSC 52), colours and clearing the screen (CSI, also as the C1 byte).
const HOSTILE: &str = "\u{1b}]0;owned\u{7}\u{1b}]8;;https://evil.example\u{7}\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}[31m\u{9b}2J\u{7f}\r";
/// The same in a file name (no `/`).
const HOSTILE_NAME: &str = "\u{1b}]0;owned\u{7}\u{1b}[31m\u{9b}2J\u{7f}\r";

/// `text` shows tool names and paths without their control characters, and the
/// summary on stderr names the file without them; `json` stays exact.
#[test]
fn text_output_and_messages_carry_no_control_characters() {
    let evil = serde_json::to_string(&format!("src/{HOSTILE}x.rs")).unwrap();
    let tool = serde_json::to_string(&format!("{HOSTILE}Tool")).unwrap();
    let input = [
        cursor_line("user", &format!("Read it {HOSTILE}")),
        format!(
            r#"{{"type":"tool_call","subtype":"started","call_id":"r1","tool_call":{{"readToolCall":{{"args":{{"path":{evil}}}}}}},"session_id":"s"}}"#
        ),
        format!(
            r#"{{"type":"tool_call","subtype":"completed","call_id":"r1","tool_call":{{"readToolCall":{{"args":{{"path":{evil}}},"result":{{"success":{{"content":"x"}}}}}}}},"session_id":"s"}}"#
        ),
        format!(
            r#"{{"type":"tool_call","subtype":"started","call_id":"f1","tool_call":{{"function":{{"name":{tool},"arguments":"{{}}"}}}},"session_id":"s"}}"#
        ),
        "{not json".to_owned(),
        RESULT.to_owned(),
    ]
    .join("\n");
    let path = file(&format!("{HOSTILE_NAME}.jsonl"), input.as_bytes());
    let path = path.to_str().unwrap();
    let o = docstream(&["text", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(controls(&out).is_empty(), "text: {out:?}");
    assert!(
        out.contains("src/␛]0;owned␇"),
        "the path is shown, made visible: {out}"
    );
    let err = stderr(&o);
    assert!(err.contains("malformed"), "{err}");
    assert!(controls(&err).is_empty(), "stderr: {err:?}");
    assert!(err.contains("␛]0;owned␇"), "{err}");

    let o = docstream(&["json", path]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(
        json.to_string()
            .contains(&serde_json::to_string(&format!("src/{HOSTILE}x.rs")).unwrap()[1..20]),
        "json keeps the path exact"
    );
    assert!(controls(&stderr(&o)).is_empty(), "{}", stderr(&o));
}

/// `list` shows ids, titles, projects and errors without control characters, a field
/// never holds a tab or newline of its own, and a file it cannot read is named on
/// stderr without them; `list --json` stays exact.
#[test]
fn list_output_and_messages_carry_no_control_characters() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-tests/hostile-list");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("p")).unwrap();
    let id = format!("s{HOSTILE}\tx\ny");
    let line = serde_json::json!({"type": "user", "sessionId": id, "uuid": "u1", "cwd": format!("/home/{HOSTILE}"),
        "timestamp": "2025-06-01T09:00:00.000Z",
        "message": {"role": "user", "content": format!("Title {HOSTILE} end")}});
    std::fs::write(dir.join("p/s.jsonl"), format!("{line}\n")).unwrap();
    // A store that cannot be read, its name hostile.
    std::fs::write(
        dir.join(format!("{HOSTILE_NAME}.vscdb")),
        b"SQLite format 3\0 but truncated",
    )
    .unwrap();
    let d = dir.to_str().unwrap();

    let o = docstream(&["list", d]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(controls(&out).is_empty(), "list: {out:?}");
    assert_eq!(out.lines().count(), 2, "one line per entry: {out}");
    assert!(out.lines().all(|l| l.split('\t').count() == 6), "{out}");
    assert!(out.contains("Title ␛]0;owned␇"), "{out}");
    let err = stderr(&o);
    assert!(controls(&err).is_empty(), "stderr: {err:?}");
    assert!(
        err.contains("␛]0;owned␇") && err.contains(".vscdb"),
        "{err}"
    );

    let o = docstream(&["list", "--json", d]);
    let list: Vec<serde_json::Value> = serde_json::from_slice(&o.stdout).unwrap();
    let s = list.iter().find(|e| e["agent"] == "claude-code").unwrap();
    assert_eq!(s["id"], id.as_str(), "json keeps the id exact");
    assert_eq!(s["project"], format!("/home/{HOSTILE}"));
    assert!(s["title"].as_str().unwrap().contains('\u{1b}'));
    assert!(controls(&stderr(&o)).is_empty());
}
