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
        ("copilot-cli-events", "session.jsonl"),
        ("cursor-agent-transcript", "session.jsonl"),
        ("opencode-run-json", "session.jsonl"),
        ("opencode-export", "session.json"),
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

/// Issue 38: `docstream list` on Copilot CLI's folder finds each session's
/// `session-state/<id>/events.jsonl`, names the agent and titles it by its first prompt;
/// the session's other files are not listed, and `json --conversation` reads one.
#[test]
fn the_cli_lists_copilot_cli_sessions() {
    use std::process::Command;
    let root =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    let home = docstream_testkit::stores::scratch(env!("CARGO_TARGET_TMPDIR"), "cli-copilot");
    let copilot = home.join(".copilot");
    let sessions = [
        ("7d1f3c2a-8b4e-4f0a-9c6d-2e5b8a1f4c3d", "session.jsonl"),
        ("c2a8e6f0-1d4b-4e3a-b7c9-5f0e2d1a6b84", "refused.jsonl"),
    ];
    for (id, fixture) in sessions {
        let dir = copilot.join("session-state").join(id);
        std::fs::create_dir_all(dir.join("checkpoints")).unwrap();
        std::fs::copy(
            root.join("copilot-cli-events").join(fixture),
            dir.join("events.jsonl"),
        )
        .unwrap();
        std::fs::write(dir.join("workspace.yaml"), format!("id: {id}\n")).unwrap();
        std::fs::write(dir.join("plan.md"), "# Plan\n").unwrap();
    }
    let list = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let dir = copilot.to_str().unwrap();
    let json: Vec<Value> = serde_json::from_str(&list(&["list", "--json", dir])).unwrap();
    let mut found: Vec<(&str, &str, &str)> = json
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default();
            (s("id"), s("agent"), s("title"))
        })
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            (
                "session-state/7d1f3c2a-8b4e-4f0a-9c6d-2e5b8a1f4c3d/events.jsonl",
                "copilot-cli",
                "The stock report says 'Low stock' for items at the threshold. Fix it so only items below the thresh…"
            ),
            (
                "session-state/c2a8e6f0-1d4b-4e3a-b7c9-5f0e2d1a6b84/events.jsonl",
                "copilot-cli",
                "Deploy the site and clean up the old build folder."
            ),
        ],
        "{json:#?}"
    );
    let text = list(&["list", dir]);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.lines().all(|l| l.contains("Copilot CLI")), "{text}");
    let one = list(&[
        "json",
        "--conversation",
        "session-state/c2a8e6f0-1d4b-4e3a-b7c9-5f0e2d1a6b84/events.jsonl",
        dir,
    ]);
    let conversation: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(conversation["format"], "copilot-cli-events");
}
