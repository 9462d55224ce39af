//! `docstream list` with no path: each agent's default place under a fake home
//! (issue 38, "The library finds them").

use std::fs;
use std::path::Path;
use std::process::Command;

use docstream_testkit::stores::{cursor_user_dir, scratch};
use serde_json::Value;

/// Runs the CLI with `HOME` set to `home` and the other variables that move a place
/// removed.
fn cli_at_home(home: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("APPDATA")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("GEMINI_CLI_HOME")
        .env_remove("COPILOT_HOME")
        .env_remove("CURSOR_CONFIG_DIR")
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn fixture(path: &str) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    fs::read(root.join(path)).unwrap()
}

fn put(home: &Path, path: &str, bytes: &[u8]) {
    let path = home.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// A home with Cursor, Claude Code, Codex and Gemini CLI in their places, and no
/// Copilot CLI.
fn fake_home(name: &str) -> std::path::PathBuf {
    let home = scratch(env!("CARGO_TARGET_TMPDIR"), name);
    cursor_user_dir(&home.join(".config/Cursor"));
    put(
        &home,
        ".claude/projects/-home-dev-app/0f7c2a4e-1b3d-4c5e-8f9a-2b4c6d8e0a1c.jsonl",
        &fixture("claude-code-transcript/session.jsonl"),
    );
    put(
        &home,
        ".codex/sessions/2025/10/01/rollout-2025-10-01T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl",
        &fixture("codex-session/session.jsonl"),
    );
    put(
        &home,
        ".gemini/tmp/9f2c4e7a/chats/session-2025-10-21T09-14-5c1f0d9e.json",
        &fixture("gemini-cli-chat/session.json"),
    );
    home
}

#[test]
fn list_with_no_path_reads_each_agents_default_place() {
    let home = fake_home("places-home");
    let (code, out, err) = cli_at_home(&home, &["list"]);
    assert_eq!(code, Some(0), "{err}");
    for line in [
        "Cursor: ~/.config/Cursor/User (found)",
        "Claude Code: ~/.claude/projects (found)",
        "Codex: ~/.codex/sessions (found)",
        "Gemini CLI: ~/.gemini/tmp (found)",
        "Copilot CLI: ~/.copilot/session-state (not found)",
    ] {
        assert!(err.contains(line), "missing {line:?} in:\n{err}");
    }
    assert!(
        err.contains("OpenCode: ~/.local/share/opencode (not found)"),
        "{err}"
    );
    // Each place's entries, listed as `list DIR` lists them, with their agents.
    let agent_of = |id_part: &str| {
        out.lines()
            .find(|l| l.contains(id_part))
            .unwrap_or_else(|| panic!("no entry {id_part:?} in:\n{out}"))
            .split('\t')
            .nth(2)
            .unwrap()
            .to_owned()
    };
    assert_eq!(agent_of("c-split\t"), "Cursor");
    assert_eq!(
        agent_of("b7d2c1a0-3333-4e5f-8a9b-000000000003\t"),
        "Claude Code"
    );
    assert_eq!(agent_of("rollout-2025-10-01"), "Codex");
    assert_eq!(agent_of("session-2025-10-21"), "Gemini CLI");

    // --json: one array of them all.
    let (code, out, err) = cli_at_home(&home, &["list", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    let mut agents: Vec<&str> = list.iter().map(|e| e["agent"].as_str().unwrap()).collect();
    agents.dedup();
    assert_eq!(agents, ["cursor", "claude-code", "codex", "gemini-cli"]);
}

#[test]
fn list_with_no_path_and_an_empty_home_finds_nothing_as_an_empty_folder_does() {
    let home = scratch(env!("CARGO_TARGET_TMPDIR"), "places-empty-home");
    let (code, out, err) = cli_at_home(&home, &["list"]);
    let (empty_code, empty_out, _) = cli_at_home(&home, &["list", home.to_str().unwrap()]);
    assert_eq!(code, empty_code, "{err}");
    assert_eq!(out, empty_out);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("Claude Code: ~/.claude/projects (not found)")
            && err.contains("no conversations found in the default places"),
        "{err}"
    );
    // No home at all: said, not a panic.
    let (code, out, err) = cli_at_home(Path::new(""), &["list"]);
    assert_eq!(code, empty_code, "{err}");
    assert!(out.is_empty() && err.contains("HOME is not set"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_walk_starts_at_a_hidden_folder_but_does_not_enter_one() {
    let home = fake_home("places-hidden");
    let gemini = home.join(".gemini");
    let (code, out, err) = cli_at_home(&home, &["list", gemini.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("session-2025-10-21") && out.contains("Gemini CLI"),
        "{out}"
    );
    let (code, out, err) = cli_at_home(&home, &["list", home.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.is_empty(), "hidden folders are not searched:\n{out}");
}

#[test]
fn export_with_no_path_writes_each_place_found_to_its_own_folder() {
    let home = fake_home("places-export");
    let site = home.join("site");
    let (code, _, err) = cli_at_home(&home, &["export", "--out", site.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("Copilot CLI: ~/.copilot/session-state (not found)"),
        "{err}"
    );
    for (dir, text) in [
        ("cursor", "Louder greeting"),
        ("claude-code", "Rename the site title"),
        ("codex", "Week numbers are off by one"),
        ("gemini-cli", "The week 53 test fails"),
    ] {
        let index = fs::read_to_string(site.join(dir).join("index.html"))
            .unwrap_or_else(|e| panic!("{dir}: {e}\n{err}"));
        assert!(index.contains(text), "{dir}: no {text:?}");
    }
    assert!(!site.join("copilot-cli").exists());
    let md = home.join("md");
    let (code, _, err) = cli_at_home(
        &home,
        &["export", "--to", "md", "--out", md.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(md.join("codex/index.md").exists(), "{err}");
    // One conversation, printed, from whichever place has it.
    let (code, out, err) = cli_at_home(&home, &["export", "--conversation", "c-split"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("<!DOCTYPE html>"), "{err}");
}

#[test]
fn a_conversation_of_the_default_places_by_its_id_alone() {
    let home = fake_home("places-conversation");
    let (code, out, err) = cli_at_home(
        &home,
        &[
            "json",
            "--conversation",
            "b7d2c1a0-3333-4e5f-8a9b-000000000003",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let conv: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(conv["format"], "claude-code-transcript");
    let (code, out, err) = cli_at_home(&home, &["md", "--conversation", "c-split"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("src/hello.py"), "{out}");
    let (code, _, err) = cli_at_home(&home, &["json", "--conversation", "nope"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("no conversation \"nope\" in the default places"),
        "{err}"
    );
}

#[test]
fn codex_home_moves_codex_and_copilot_cli_is_found_in_its_place() {
    let home = scratch(env!("CARGO_TARGET_TMPDIR"), "places-codex-home");
    put(
        &home,
        ".copilot/session-state/7d1f3c2a-8b4e-4f0a-9c6d-2e5b8a1f4c3d/events.jsonl",
        &fixture("copilot-cli-events/session.jsonl"),
    );
    let codex = home.join("elsewhere/codex");
    put(
        &codex,
        "sessions/2025/10/01/rollout-2025-10-01T10-00-00-x.jsonl",
        &fixture("codex-session/session.jsonl"),
    );
    // A Codex folder in the usual place is not read when CODEX_HOME says another.
    put(
        &home,
        ".codex/sessions/2025/10/02/rollout-2025-10-02T10-00-00-y.jsonl",
        &fixture("codex-session/session.jsonl"),
    );
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(["list"])
        .env("HOME", &home)
        .env("CODEX_HOME", &codex)
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .output()
        .unwrap();
    let (stdout, err) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("Copilot CLI: ~/.copilot/session-state (found)")
            && err.contains("Codex: ~/elsewhere/codex/sessions (found)"),
        "{err}"
    );
    let agents: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('\t').nth(2).unwrap())
        .collect();
    assert_eq!(agents, ["Codex", "Copilot CLI"], "{stdout}");
    assert!(!stdout.contains("2025-10-02T10"), "{stdout}");
}

/// Issue 38: Cursor's agent transcripts are found in `~/.cursor/projects`, listed as
/// Cursor with their project folder and "no times recorded", and exported beside
/// Cursor's app data; each agent's own variable moves its place.
#[test]
fn cursor_transcripts_and_the_agents_own_variables() {
    let home = scratch(env!("CARGO_TARGET_TMPDIR"), "places-cursor-transcripts");
    let id = "3f2a9c1e-5b7d-4e8f-a0b1-c2d3e4f5a6b7";
    put(
        &home,
        &format!(".cursor/projects/home-dev-shop/agent-transcripts/{id}/{id}.jsonl"),
        &fixture("cursor-agent-transcript/session.jsonl"),
    );
    let (code, out, err) = cli_at_home(&home, &["list"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("Cursor: ~/.cursor/projects (found)"), "{err}");
    let line = out
        .lines()
        .find(|l| l.contains(id))
        .unwrap_or_else(|| panic!("no transcript in:\n{out}"));
    let fields: Vec<&str> = line.split('\t').collect();
    assert_eq!(fields[1], "no times recorded", "{line}");
    assert_eq!(fields[2], "Cursor", "{line}");
    assert!(
        line.ends_with("The cart total ignores the discount. Fix it and run the tests."),
        "{line}"
    );
    let (_, out, err) = cli_at_home(&home, &["list", "--json"]);
    let list: Vec<Value> = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(list.len(), 1, "{out}");
    assert_eq!(list[0]["project"], "home-dev-shop");
    assert_eq!(list[0]["noTimes"], true);
    assert_eq!(list[0]["created"], Value::Null);

    // Export: Cursor's two places do not share a folder.
    cursor_user_dir(&home.join(".config/Cursor"));
    let site = home.join("site");
    let (code, _, err) = cli_at_home(&home, &["export", "--out", site.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    for (dir, text) in [
        ("cursor", "Louder greeting"),
        ("cursor-projects", "The cart total ignores the discount"),
    ] {
        let index = fs::read_to_string(site.join(dir).join("index.html"))
            .unwrap_or_else(|e| panic!("{dir}: {e}\n{err}"));
        assert!(index.contains(text), "{dir}: no {text:?}");
    }

    // The agents' own variables move their places.
    let moved = home.join("moved");
    put(
        &moved,
        "claude/projects/-home-dev-app/0f7c2a4e-1b3d-4c5e-8f9a-2b4c6d8e0a1c.jsonl",
        &fixture("claude-code-transcript/session.jsonl"),
    );
    put(
        &moved,
        &format!("cursor/projects/p/agent-transcripts/{id}/{id}.jsonl"),
        &fixture("cursor-agent-transcript/aborted.jsonl"),
    );
    fs::create_dir_all(moved.join("gemini-home/.gemini/tmp")).unwrap();
    fs::create_dir_all(moved.join("copilot/session-state")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .arg("list")
        .env("HOME", &home)
        .env("USERPROFILE", &home)
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("APPDATA")
        .env("CLAUDE_CONFIG_DIR", moved.join("claude"))
        .env("GEMINI_CLI_HOME", moved.join("gemini-home"))
        .env("COPILOT_HOME", moved.join("copilot"))
        .env("CURSOR_CONFIG_DIR", moved.join("cursor"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in [
        "Claude Code: ~/moved/claude/projects (found)",
        "Gemini CLI: ~/moved/gemini-home/.gemini/tmp (found)",
        "Copilot CLI: ~/moved/copilot/session-state (found)",
        "Cursor: ~/moved/cursor/projects (found)",
    ] {
        assert!(err.contains(line), "missing {line:?} in:\n{err}");
    }
    assert!(
        stdout.contains("Claude Code") && stdout.contains("Delete the old fixtures"),
        "{stdout}"
    );
}

/// OpenCode's `opencode.db` in its place (`~/.local/share/opencode`): listed as
/// OpenCode, read by id alone, exported to its own folder.
#[test]
fn opencode_is_found_in_its_data_folder() {
    let home = scratch(env!("CARGO_TARGET_TMPDIR"), "places-opencode");
    let data = home.join(".local/share/opencode");
    fs::create_dir_all(data.join("storage/session")).unwrap();
    let export: Value = serde_json::from_slice(&fixture("opencode-export/session.json")).unwrap();
    docstream_testkit::stores::opencode_db(&data.join("opencode.db"), &[export]);
    let id = "ses_3c9d2e1f0ffeK7aLm2Np4Qr6St";

    let (code, out, err) = cli_at_home(&home, &["list"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("OpenCode: ~/.local/share/opencode (found)"),
        "{err}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with(id))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(line.split('\t').nth(2), Some("OpenCode"), "{line}");
    assert!(line.ends_with("Add a verbose flag to the CLI"), "{line}");

    let (code, out, err) = cli_at_home(&home, &["list", "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(list[0]["agent"], "opencode", "{out}");

    let (code, out, err) = cli_at_home(&home, &["json", "--conversation", id]);
    assert_eq!(code, Some(0), "{err}");
    let conversation: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(conversation["format"], "opencode-export");

    let site = home.join("site");
    let (code, _, err) = cli_at_home(&home, &["export", "--out", site.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let index = fs::read_to_string(site.join("opencode/index.html")).unwrap();
    assert!(index.contains("Add a verbose flag to the CLI"), "{err}");
}
