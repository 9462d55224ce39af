//! The CLI reads each agent format by detection, whole or from standard input.

use serde_json::Value;

/// The CLI reads each of these formats by detection, whole or from standard input.
#[test]
fn the_cli_reads_every_agent_format() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let root =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    for (format, file) in [
        ("codex-exec-json", "session.jsonl"),
        ("codex-session", "session.jsonl"),
        ("gemini-cli-stream-json", "session.jsonl"),
        ("gemini-cli-json", "response.json"),
        ("openai-responses-stream", "web_search.sse"),
        ("openai-responses", "web_search.json"),
        ("ai-sdk-ui-stream", "react_agent.sse"),
        ("agent-client-protocol", "prompt_turn.jsonl"),
    ] {
        let path = root.join(format).join(file);
        let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
            .args(["json", "--chunk", "7"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let conversation: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(conversation["format"], format);
        let stem = file.split('.').next().unwrap();
        let golden =
            std::fs::read_to_string(path.with_file_name(format!("{stem}.expected.json"))).unwrap();
        assert_eq!(
            conversation,
            serde_json::from_str::<Value>(&golden).unwrap(),
            "{format}"
        );

        let mut child = Command::new(env!("CARGO_BIN_EXE_docstream"))
            .args(["text", "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(&std::fs::read(&path).unwrap())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        // One progress line per action; the `json` output has none.
        assert_eq!(
            out.stdout.is_empty(),
            format == "gemini-cli-json",
            "{format}: progress lines"
        );
    }
}

/// Issue 37: `docstream json|html|text <session>.jsonl` reads Claude Code 2.1+'s
/// `<session>/subagents/agent-<id>.jsonl` beside it: the sub-agent's work is nested under
/// the call that started it, on the page, in the objects and in the progress lines;
/// from standard input there is no folder to read.
#[test]
fn the_cli_nests_a_sessions_sub_agent_files() {
    use std::process::Command;
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/claude-code-transcript/subagent_answers.jsonl");
    let run = |command: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
            .args([command, "--chunk", "5"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let conversation: Value = serde_json::from_str(&run("json")).unwrap();
    let runs: Vec<&Value> = conversation["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !t["parent"].is_null())
        .collect();
    assert_eq!(runs.len(), 1, "{conversation}");
    assert_eq!(runs[0]["parent"]["toolCallId"], "toolu_01Tot");
    let html = run("html");
    assert!(
        html.contains("ds-subagent-run") && html.contains("Searching for the total computation."),
        "{}",
        path.display()
    );
    let text = run("text");
    assert!(
        text.lines()
            .any(|l| l.starts_with("  ") && l.contains("computeTotal")),
        "{text}"
    );
}
