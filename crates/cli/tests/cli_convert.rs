//! `docstream convert --to openai|anthropic FILE|-`, run as the built binary: JSON on
//! standard output, a clear message and a non-zero exit on bad input. And `docstream
//! json` reading a Cursor saved conversation.

use docstream_testkit as support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/convert")
        .join(name)
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let (Some(bytes), Some(mut input)) = (stdin, child.stdin.take()) {
        // The binary may exit before reading (a bad option): a closed pipe is fine.
        let _ = input.write_all(bytes);
    }
    child.wait_with_output().unwrap()
}

fn ok(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}

fn fails(out: &Output, says: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "exit 0 for bad input; stderr {stderr}"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout when failing");
    assert!(
        stderr.contains(says),
        "stderr should say {says:?}: {stderr}"
    );
}

#[test]
fn anthropic_file_to_openai_matches_the_golden() {
    let input = data("anthropic_tools.json");
    let out = run(
        &["convert", "--to", "openai", input.to_str().unwrap()],
        None,
    );
    ok(&out);
    support::check_golden(
        &data("anthropic_tools.openai.json"),
        &String::from_utf8(out.stdout).unwrap(),
    );
}

#[test]
fn standard_input_and_back_again() {
    let original = std::fs::read(data("anthropic_tools.json")).unwrap();
    let openai = run(&["convert", "--to", "openai", "-"], Some(&original));
    let openai_json = ok(&openai);
    assert!(openai_json[1]["tool_calls"].is_array());
    let back = run(&["convert", "--to", "anthropic", "-"], Some(&openai.stdout));
    let original: Value = serde_json::from_slice(&original).unwrap();
    assert_eq!(ok(&back), original);
}

#[test]
fn a_request_object_converts_whole() {
    let input = data("anthropic_request.json");
    let out = ok(&run(
        &["convert", "--to", "openai", input.to_str().unwrap()],
        None,
    ));
    assert_eq!(out["messages"][0]["role"], "system");
    assert_eq!(out["tools"][0]["function"]["name"], "read_file");
    assert_eq!(out["tool_choice"]["function"]["name"], "read_file");
    assert_eq!(out["messages"][3]["role"], "tool");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let convert =
        |to: &str, stdin: &str| run(&["convert", "--to", to, "-"], Some(stdin.as_bytes()));
    fails(
        &convert("openai", "{\"messages\": ["),
        "standard input is not JSON",
    );
    fails(&convert("openai", "\"hello\""), "expected a message array");
    fails(
        &convert("openai", "{\"model\": \"x\"}"),
        "\"messages\" array",
    );
    fails(
        &convert(
            "openai",
            r#"[{"role": "user", "content": "a"}, {"content": "b"}]"#,
        ),
        "[1]: a message needs a \"role\"",
    );
    fails(
        &convert(
            "anthropic",
            r#"{"messages": [{"role": "user", "content": 7}]}"#,
        ),
        "messages[0].content",
    );
    fails(
        &convert(
            "openai",
            r#"[{"role": "tool", "tool_call_id": "a", "content": "x"}]"#,
        ),
        "already in the OpenAI form",
    );
    fails(
        &convert(
            "anthropic",
            r#"[{"role": "tool", "tool_call_id": "a", "content": "x"},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a"}]}]"#,
        ),
        "mixes the Anthropic form",
    );
    fails(&run(&["convert", "-"], Some(b"[]")), "needs --to");
    fails(
        &run(&["convert", "--to", "gemini", "-"], Some(b"[]")),
        "unknown form \"gemini\"",
    );
    fails(
        &run(
            &["convert", "--to", "openai", "/nonexistent/history.json"],
            None,
        ),
        "cannot read /nonexistent/history.json",
    );
    fails(&run(&["json", "--to", "openai", "-"], Some(b"[]")), "only");
}

#[test]
fn json_reads_a_cursor_saved_conversation() {
    let fixture = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/cursor-store/tools.json");
    let out = ok(&run(&["json", fixture.to_str().unwrap()], None));
    assert_eq!(out["format"], "cursor-store");
    let types: Vec<&str> = out["turns"][1]["documents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["type"].as_str().unwrap())
        .collect();
    assert!(types.contains(&"terminal_command"), "{types:?}");
    assert!(types.contains(&"file_edit"), "{types:?}");
}
