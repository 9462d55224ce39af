//! Stores on disk, built here: Cursor `state.vscdb` files with the real tables and keys
//! (the split layout, the older inline layout, a workspace database naming them),
//! Claude Code project folders with sessions and sub-agents, and bad input — malformed
//! and missing rows, a locked database, a truncated one. Then the CLI over them:
//! `list`, `json|html --conversation`, `export`.
#![cfg(feature = "cli")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use docstream::library::store::Library;
use docstream::library::{Agent, Entry};
use docstream::model::{DocumentType, Turn};
use rusqlite::Connection;
use serde_json::{Value, json};

/// A fresh folder under the target directory, removed first if it exists.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn kv_db(path: &Path, table: &str, rows: &[(String, Vec<u8>)]) {
    let c = Connection::open(path).unwrap();
    // Cursor's tables: `key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB`.
    c.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);
         CREATE TABLE IF NOT EXISTS {table} (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);"
    ))
    .unwrap();
    let mut q = c
        .prepare(&format!("INSERT INTO {table} (key, value) VALUES (?1, ?2)"))
        .unwrap();
    for (k, v) in rows {
        q.execute(rusqlite::params![k, v]).unwrap();
    }
}

fn row(key: &str, v: &Value) -> (String, Vec<u8>) {
    (key.to_owned(), v.to_string().into_bytes())
}

fn bubble(composer: &str, id: &str, v: Value) -> (String, Vec<u8>) {
    row(&format!("bubbleId:{composer}:{id}"), &v)
}

/// A Cursor user folder: `globalStorage/state.vscdb` and one workspace.
fn cursor_user_dir(root: &Path) -> PathBuf {
    let user = root.join("User");
    let global = user.join("globalStorage");
    let ws = user.join("workspaceStorage/7f3a");
    fs::create_dir_all(&global).unwrap();
    fs::create_dir_all(&ws).unwrap();
    let rows = vec![
        // The split layout: headers here, each bubble in its own row.
        row(
            "composerData:c-split",
            &json!({"_v": 3, "composerId": "c-split", "createdAt": 1_735_000_000_000u64,
                "lastUpdatedAt": 1_735_000_500_000u64, "unifiedMode": "agent",
                "fullConversationHeadersOnly": [
                    {"bubbleId": "b1", "type": 1}, {"bubbleId": "b2", "type": 2},
                    {"bubbleId": "b3", "type": 2}, {"bubbleId": "b4", "type": 1},
                    {"bubbleId": "b5", "type": 2}],
                "conversationMap": {}}),
        ),
        bubble(
            "c-split",
            "b1",
            json!({"_v": 2, "type": 1, "bubbleId": "b1", "text": "Make the greeting louder"}),
        ),
        bubble(
            "c-split",
            "b2",
            json!({"_v": 2, "type": 2, "bubbleId": "b2", "text": "Editing hello.py.",
                "toolFormerData": {"toolCallId": "call-edit", "name": "edit_file", "status": "completed",
                    "rawArgs": "{\"target_file\": \"src/hello.py\", \"code_edit\": \"print('HELLO')\\n\"}",
                    "result": "{\"isApplied\": true}"}}),
        ),
        bubble(
            "c-split",
            "b3",
            json!({"_v": 2, "type": 2, "bubbleId": "b3",
                "toolFormerData": {"toolCallId": "call-run", "name": "run_terminal_cmd", "status": "completed",
                    "rawArgs": "{\"command\": \"python3 src/hello.py\"}",
                    "result": "{\"output\": \"HELLO\\n\", \"exitCode\": 0}"}}),
        ),
        bubble(
            "c-split",
            "b4",
            json!({"type": 1, "bubbleId": "b4", "text": "Thanks"}),
        ),
        bubble(
            "c-split",
            "b5",
            json!({"type": 2, "bubbleId": "b5", "text": "You're welcome."}),
        ),
        // The older layout: bubbles inline.
        row(
            "composerData:c-inline",
            &json!({"_v": 1, "composerId": "c-inline", "name": "Old chat", "createdAt": 1_700_000_000_000u64,
                "conversation": [
                    {"type": 1, "bubbleId": "i1", "text": "What does the parser do?"},
                    {"type": 2, "bubbleId": "i2", "text": "It splits **lines**."}]}),
        ),
        // Missing and malformed bubble rows: gaps in an otherwise readable conversation.
        row(
            "composerData:c-gaps",
            &json!({"_v": 3, "composerId": "c-gaps", "name": "Gaps", "createdAt": 1_720_000_000_000u64,
                "fullConversationHeadersOnly": [
                    {"bubbleId": "g1", "type": 1}, {"bubbleId": "g2", "type": 2},
                    {"bubbleId": "g3", "type": 2}, {"bubbleId": "g4", "type": 2}]}),
        ),
        bubble(
            "c-gaps",
            "g1",
            json!({"type": 1, "bubbleId": "g1", "text": "Count to three"}),
        ),
        (
            "bubbleId:c-gaps:g3".to_owned(),
            b"{\"type\": 2, \"text\": \"tw".to_vec(),
        ),
        bubble(
            "c-gaps",
            "g4",
            json!({"type": 2, "bubbleId": "g4", "text": "three"}),
        ),
        // A malformed composer row: an error entry; the others still load.
        (
            "composerData:c-bad".to_owned(),
            b"{\"composerId\": \"c-bad\", \"fullConv".to_vec(),
        ),
        // A composer never sent: not listed.
        row(
            "composerData:c-empty",
            &json!({"_v": 3, "composerId": "c-empty", "fullConversationHeadersOnly": []}),
        ),
        // Other keys Cursor keeps in the table.
        row(
            "messageRequestContext:c-split:b1",
            &json!({"terminalFiles": []}),
        ),
        row("checkpointId:c-split:x", &json!({})),
    ];
    kv_db(&global.join("state.vscdb"), "cursorDiskKV", &rows);
    kv_db(
        &ws.join("state.vscdb"),
        "ItemTable",
        &[row(
            "composer.composerData",
            &json!({"allComposers": [
                {"type": "head", "composerId": "c-split", "name": "Louder greeting",
                 "createdAt": 1_735_000_000_000u64, "lastUpdatedAt": 1_735_000_500_000u64},
                {"type": "head", "composerId": "c-inline"}],
                "selectedComposerIds": ["c-split"]}),
        )],
    );
    fs::write(
        ws.join("workspace.json"),
        r#"{"folder": "file:///home/dev/hello%20app"}"#,
    )
    .unwrap();
    user
}

fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A Claude Code `projects/` folder: a session that starts two sub-agents (one in its
/// own file beside the session, joined by `agentId`; one under
/// `<session>/subagents/`, joined by its prompt), an older session with a sub-agent
/// inside it, and a resumed session titled by a `summary` line.
fn claude_projects(root: &Path) -> PathBuf {
    let projects = root.join("projects");
    let p = projects.join("-home-dev-hello-app");
    fs::create_dir_all(p.join("s-main/subagents")).unwrap();
    let base = |uuid: &str, parent: Option<&str>, t: &str| {
        json!({"sessionId": "s-main", "uuid": uuid, "parentUuid": parent, "isSidechain": false,
            "cwd": "/home/dev/hello app", "timestamp": t, "version": "2.0.30", "userType": "external"})
    };
    let with = |mut v: Value, extra: Value| {
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    let main = jsonl(&[
        with(
            base("u1", None, "2025-06-01T09:00:00.000Z"),
            json!({"type": "user", "message": {"role": "user", "content": "Find where greet() is called and rename it"}}),
        ),
        with(
            base("a1", Some("u1"), "2025-06-01T09:00:05.000Z"),
            json!({"type": "assistant", "message": {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [
                {"type": "text", "text": "I'll ask two helpers."},
                {"type": "tool_use", "id": "toolu_find", "name": "Task", "input": {"description": "Find callers", "prompt": "List every caller of greet()", "subagent_type": "general-purpose"}},
                {"type": "tool_use", "id": "toolu_docs", "name": "Task", "input": {"description": "Check docs", "prompt": "Does README mention greet()?", "subagent_type": "general-purpose"}}]}}),
        ),
        with(
            base("u2", Some("a1"), "2025-06-01T09:01:00.000Z"),
            json!({"type": "user", "toolUseResult": {"status": "completed", "agentId": "ab12", "totalToolUseCount": 1},
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_find", "content": "src/app.py:3"}]}}),
        ),
        with(
            base("u3", Some("u2"), "2025-06-01T09:01:10.000Z"),
            json!({"type": "user",
            "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_docs", "content": "No."}]}}),
        ),
        with(
            base("a2", Some("u3"), "2025-06-01T09:02:00.000Z"),
            json!({"type": "assistant", "message": {"id": "msg_2", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "tool_use", "id": "toolu_sed", "name": "Bash", "input": {"command": "sed -i s/greet/welcome/ src/app.py"}}]}}),
        ),
    ]);
    fs::write(p.join("s-main.jsonl"), &main).unwrap();
    let agent_line = |agent: &str, uuid: &str, kind: &str, content: Value| {
        json!({"type": kind, "sessionId": "s-main", "agentId": agent, "isSidechain": true, "uuid": uuid,
            "cwd": "/home/dev/hello app", "timestamp": "2025-06-01T09:00:30.000Z",
            "message": {"role": kind, "content": content}})
    };
    fs::write(
        p.join("agent-ab12.jsonl"),
        jsonl(&[
            agent_line("ab12", "x1", "user", json!("List every caller of greet()")),
            agent_line(
                "ab12",
                "x2",
                "assistant",
                json!([{"type": "tool_use", "id": "toolu_grep", "name": "Grep", "input": {"pattern": "greet\\("}}]),
            ),
        ]),
    )
    .unwrap();
    fs::write(
        p.join("s-main/subagents/agent-cd34.jsonl"),
        jsonl(&[
            agent_line("cd34", "y1", "user", json!("Does README mention greet()?")),
            agent_line(
                "cd34",
                "y2",
                "assistant",
                json!([{"type": "text", "text": "README does not mention it."}]),
            ),
        ]),
    )
    .unwrap();
    // An older session: the sub-agent's lines inside it.
    let old = |uuid: &str, parent: Option<&str>, side: bool, kind: &str, content: Value| {
        json!({"type": kind, "sessionId": "s-old", "uuid": uuid, "parentUuid": parent, "isSidechain": side,
            "cwd": "/home/dev/hello app", "timestamp": "2025-03-01T08:00:00.000Z",
            "message": {"role": kind, "content": content}})
    };
    fs::write(
        p.join("s-old.jsonl"),
        jsonl(&[
            old("o1", None, false, "user", json!("Summarise the repo")),
            old(
                "o2",
                Some("o1"),
                false,
                "assistant",
                json!([{"type": "tool_use", "id": "toolu_old", "name": "Task", "input": {"description": "Survey", "prompt": "Survey the files"}}]),
            ),
            old("o3", None, true, "user", json!("Survey the files")),
            old(
                "o4",
                Some("o3"),
                true,
                "assistant",
                json!([{"type": "text", "text": "Three files."}]),
            ),
            old(
                "o5",
                Some("o2"),
                false,
                "user",
                json!([{"type": "tool_result", "tool_use_id": "toolu_old", "content": "Three files."}]),
            ),
        ]),
    )
    .unwrap();
    // A malformed line does not stop a session.
    let mut resumed = jsonl(&[
        json!({"type": "summary", "summary": "Rename greet to welcome", "leafUuid": "a2"}),
        json!({"type": "user", "sessionId": "s-new", "uuid": "n1", "parentUuid": null, "timestamp": "2025-06-02T10:00:00.000Z",
            "cwd": "/home/dev/hello app", "message": {"role": "user", "content": "Run the tests"}}),
    ]);
    resumed.push_str("{\"type\": \"assistant\", \"mess\n");
    fs::write(p.join("s-new.jsonl"), resumed).unwrap();
    projects
}

fn by_id<'a>(entries: &'a [Entry], id: &str) -> &'a Entry {
    entries
        .iter()
        .find(|e| e.id == id)
        .unwrap_or_else(|| panic!("no entry {id}: {:#?}", ids(entries)))
}

fn ids(entries: &[Entry]) -> Vec<&str> {
    entries.iter().map(|e| e.id.as_str()).collect()
}

#[test]
fn cursor_store_both_layouts_workspace_names_and_bad_rows() {
    let user = cursor_user_dir(&scratch("lib-cursor"));
    let mut lib = Library::open(&user).unwrap();
    lib.index(|_, _, _| {});
    let entries = lib.entries();
    assert_eq!(lib.empty_skipped, 1);
    assert_eq!(
        ids(entries),
        ["c-split", "c-gaps", "c-inline", "c-bad"],
        "newest first, the bad row last (no date)"
    );

    let split = by_id(entries, "c-split");
    assert_eq!(split.agent, Agent::Cursor);
    assert_eq!(
        split.title, "Louder greeting",
        "the name from the workspace"
    );
    assert_eq!(split.project.as_deref(), Some("/home/dev/hello app"));
    assert_eq!(split.created.as_deref(), Some("2024-12-24T00:26:40.000Z"));
    assert_eq!((split.messages, split.tools), (4, 2));
    assert_eq!(split.source, "globalStorage/state.vscdb");

    let inline = by_id(entries, "c-inline");
    assert_eq!(inline.title, "Old chat");
    assert_eq!((inline.messages, inline.tools), (2, 0));
    let conv = lib.read("c-inline").unwrap();
    assert!(
        conv.documents()
            .any(|d| d.text().contains("splits **lines**")),
        "{conv:#?}"
    );

    let bad = by_id(entries, "c-bad");
    let err = bad.error.as_deref().unwrap();
    assert!(
        err.contains("composerData:c-bad") && err.contains("not valid JSON"),
        "{err}"
    );

    // Gaps: the missing g2 and the malformed g3 are error documents; g1 and g4 load.
    let gaps = lib.read("c-gaps").unwrap();
    let errors: Vec<String> = gaps
        .documents()
        .filter(|d| d.doc_type() == DocumentType::Error)
        .map(|d| serde_json::to_string(d).unwrap())
        .collect();
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains("MISSING_BUBBLE") && errors[0].contains("g2"),
        "{}",
        errors[0]
    );
    assert!(errors[1].contains("g3"), "{}", errors[1]);
    assert!(gaps.documents().any(|d| d.text() == "three"));
    assert_eq!(by_id(entries, "c-gaps").title, "Gaps");
}

#[test]
fn a_workspace_database_alone_names_its_conversations_and_says_where_they_are() {
    let user = cursor_user_dir(&scratch("lib-cursor-ws"));
    let lib = Library::open(&user.join("workspaceStorage")).unwrap();
    let e = by_id(lib.entries(), "c-split");
    assert_eq!(e.title, "Louder greeting");
    assert!(e.error.as_deref().unwrap().contains("globalStorage"));
}

#[test]
fn a_locked_database_is_an_error_naming_the_file() {
    let user = cursor_user_dir(&scratch("lib-locked"));
    let db = user.join("globalStorage/state.vscdb");
    let writer = Connection::open(&db).unwrap();
    writer.execute_batch("BEGIN EXCLUSIVE;").unwrap();
    let err = Library::open(&db).err().expect("a locked database fails");
    let msg = err.to_string();
    assert!(msg.contains(&db.display().to_string()), "{msg}");
    assert!(msg.contains("locked"), "{msg}");
    // In a folder, the locked file is an error entry and the rest still loads.
    let lib = Library::open(&user).unwrap();
    let e = by_id(lib.entries(), "globalStorage/state.vscdb");
    assert!(e.error.as_deref().unwrap().contains("locked"));
    writer.execute_batch("ROLLBACK;").unwrap();
}

#[test]
fn a_truncated_database_is_an_error_naming_the_file() {
    let user = cursor_user_dir(&scratch("lib-truncated"));
    let db = user.join("globalStorage/state.vscdb");
    // Enough rows for several pages, then cut the file short.
    {
        let c = Connection::open(&db).unwrap();
        let filler = "x".repeat(2000);
        for i in 0..200 {
            c.execute(
                "INSERT INTO cursorDiskKV (key, value) VALUES (?1, ?2)",
                rusqlite::params![format!("bubbleId:filler:{i:04}"), filler],
            )
            .unwrap();
        }
    }
    let bytes = fs::read(&db).unwrap();
    fs::write(&db, &bytes[..bytes.len() / 3]).unwrap();
    let msg = Library::open(&db).err().expect("fails").to_string();
    assert!(msg.contains(&db.display().to_string()), "{msg}");
    assert!(
        msg.contains("damaged or truncated") || msg.contains("not a SQLite database"),
        "{msg}"
    );
    fs::write(&db, &bytes[..50]).unwrap();
    let msg = Library::open(&db).err().expect("fails").to_string();
    assert!(msg.contains("state.vscdb"), "{msg}");
}

#[test]
fn claude_code_projects_sessions_and_sub_agents() {
    let projects = claude_projects(&scratch("lib-claude"));
    let mut lib = Library::open(&projects).unwrap();
    lib.index(|_, _, _| {});
    let entries = lib.entries();
    assert_eq!(
        ids(entries),
        [
            "s-new",
            "s-main",
            "s-main.agent-ab12",
            "s-main.agent-cd34",
            "s-old",
            "s-old.sidechain-1"
        ]
    );
    let main = by_id(entries, "s-main");
    assert_eq!(main.title, "Rename greet to welcome", "the summary line");
    assert_eq!(main.project.as_deref(), Some("/home/dev/hello app"));
    assert_eq!(main.children, ["s-main.agent-ab12", "s-main.agent-cd34"]);
    assert_eq!((main.messages, main.tools), (2, 3));

    let by_agent_id = by_id(entries, "s-main.agent-ab12");
    assert_eq!(by_agent_id.title, "Sub-agent: Find callers");
    let p = by_agent_id.parent.as_ref().unwrap();
    assert_eq!(
        (p.conversation.as_str(), p.tool_call_id.as_deref()),
        ("s-main", Some("toolu_find"))
    );
    assert_eq!(by_agent_id.tools, 1, "its Grep call is shown");

    let by_prompt = by_id(entries, "s-main.agent-cd34");
    assert_eq!(
        by_prompt.parent.as_ref().unwrap().tool_call_id.as_deref(),
        Some("toolu_docs")
    );
    let conv = lib.read("s-main.agent-cd34").unwrap();
    assert!(
        conv.documents()
            .any(|d| d.text().contains("README does not mention"))
    );

    let inside = by_id(entries, "s-old.sidechain-1");
    assert_eq!(inside.title, "Sub-agent: Survey");
    assert_eq!(
        inside.parent.as_ref().unwrap().tool_call_id.as_deref(),
        Some("toolu_old")
    );
    assert_eq!(inside.messages, 2);
    // The session itself shows its sub-agent's lines as the Task call's run.
    let old = lib.read("s-old").unwrap();
    let run = old
        .turns
        .iter()
        .find_map(|t| match t {
            Turn::Assistant(r) if r.parent.is_some() => Some(r),
            _ => None,
        })
        .expect("the sub-agent's run");
    assert_eq!(run.parent.as_ref().unwrap().tool_call_id, "toolu_old");
    assert!(run.documents.iter().any(|d| d.text() == "Three files."));

    // The malformed last line of s-new is an error document; the prompt still shows.
    let new = lib.read("s-new").unwrap();
    assert!(new.documents().any(|d| d.doc_type() == DocumentType::Error));
    assert_eq!(by_id(entries, "s-new").title, "Run the tests");
}

fn cli(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_list_render_and_export_a_folder_of_both_stores() {
    let root = scratch("lib-cli");
    cursor_user_dir(&root);
    claude_projects(&root);
    fs::write(
        root.join("loose.sse"),
        "event: document_start\ndata: {\"type\":\"document_start\",\"document\":{\"id\":\"doc_001\",\"type\":\"text\"}}\n\n",
    )
    .unwrap();
    let r = root.to_str().unwrap();

    let (ok, out, err) = cli(&["list", "--json", r]);
    assert!(ok, "{err}");
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    let agents: Vec<&str> = list.iter().map(|e| e["agent"].as_str().unwrap()).collect();
    assert!(
        agents.contains(&"cursor") && agents.contains(&"claude-code") && agents.contains(&"file")
    );
    let split = list.iter().find(|e| e["id"] == "c-split").unwrap();
    assert_eq!(split["tools"], 2);
    assert_eq!(split["project"], "/home/dev/hello app");

    let (ok, out, err) = cli(&["list", r]);
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.starts_with("c-split\t")).unwrap();
    assert!(
        line.contains("4 messages") && line.contains("Louder greeting"),
        "{line}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("c-bad\t") && l.contains("error"))
    );

    let (ok, out, err) = cli(&["html", "--conversation", "c-split", r]);
    assert!(ok, "{err}");
    assert!(out.starts_with("<!DOCTYPE html>") && out.contains("src/hello.py"));
    let (ok, out, err) = cli(&["json", "--conversation", "s-main.agent-ab12", r]);
    assert!(ok, "{err}");
    let conv: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(conv["format"], "claude-code-transcript");
    let (ok, _, err) = cli(&["json", "--conversation", "nope", r]);
    assert!(!ok && err.contains("no conversation \"nope\""), "{err}");

    let site = root.join("site");
    let (ok, _, err) = cli(&["export", "--out", site.to_str().unwrap(), r]);
    assert!(ok, "{err}");
    assert!(err.contains("conversation pages"), "{err}");
    let index = fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("c/c-split.html") && index.contains("Louder greeting"));
    assert!(
        index.contains("dss-error"),
        "the bad row is listed with its error"
    );
    let data = fs::read_to_string(site.join("search-data.js")).unwrap();
    assert!(data.contains("sed -i s/greet/welcome/ src/app.py") && data.contains("src/hello.py"));
    let page = fs::read_to_string(site.join("c/s-main.agent-ab12.html")).unwrap();
    assert!(
        page.contains("href=\"../c/s-main.html#doc_"),
        "the sub-agent links to the call that started it"
    );
    let parent = fs::read_to_string(site.join("c/s-main.html")).unwrap();
    assert!(parent.contains("<li data-doc=\"doc_"), "{parent}");
    for f in [
        "search.js",
        "conversation.js",
        "site.css",
        "docstream.css",
        "c/s-old.sidechain-1.html",
    ] {
        assert!(site.join(f).exists(), "{f}");
    }
    assert!(
        !index.contains("<script>") && !index.contains("style=\""),
        "no inline script or style"
    );
}

/// A Codex home's `sessions/YYYY/MM/DD/rollout-*.jsonl` files list as Codex, a saved
/// Gemini CLI run as Gemini CLI, a provider API history as a plain file; JSON that is no
/// transcript is left out.
#[test]
fn a_folder_of_codex_and_gemini_cli_runs_names_each_agent() {
    let dir = scratch("lib-agents");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let day = dir.join("sessions/2025/10/01");
    fs::create_dir_all(&day).unwrap();
    let rollout = "rollout-2025-10-01T09-00-00-5973b6c0.jsonl";
    fs::copy(
        fixtures.join("codex-session/session.jsonl"),
        day.join(rollout),
    )
    .unwrap();
    fs::copy(
        fixtures.join("gemini-cli-stream-json/session.jsonl"),
        dir.join("gemini-run.jsonl"),
    )
    .unwrap();
    fs::copy(
        fixtures.join("openai-messages/history.json"),
        dir.join("history.json"),
    )
    .unwrap();
    fs::write(dir.join("package.json"), r#"{"name": "not-a-transcript"}"#).unwrap();

    let mut lib = Library::open(&dir).unwrap();
    lib.index(|_, _, _| {});
    let agents: Vec<(&str, &str)> = lib
        .entries()
        .iter()
        .map(|e| (e.id.as_str(), e.agent.label()))
        .collect();
    let mut sorted = agents.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            ("gemini-run.jsonl", "Gemini CLI"),
            ("history.json", "file"),
            (&*format!("sessions/2025/10/01/{rollout}"), "Codex"),
        ],
        "{agents:?}"
    );
}
