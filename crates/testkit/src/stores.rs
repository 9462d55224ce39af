//! Stores built on disk for tests (feature `stores`): Cursor `state.vscdb` files with the
//! real tables and keys (the split layout, the older inline layout, a workspace database
//! naming them) and Claude Code project folders with sessions and sub-agents.

use std::fs;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use serde_json::{Value, json};

/// A fresh folder `name` under `base` (a test's `CARGO_TARGET_TMPDIR`), removed first if
/// it exists.
pub fn scratch(base: &str, name: &str) -> PathBuf {
    let dir = Path::new(base).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn kv_db(path: &Path, table: &str, rows: &[(String, Vec<u8>)]) {
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

pub fn row(key: &str, v: &Value) -> (String, Vec<u8>) {
    (key.to_owned(), v.to_string().into_bytes())
}

pub fn bubble(composer: &str, id: &str, v: Value) -> (String, Vec<u8>) {
    row(&format!("bubbleId:{composer}:{id}"), &v)
}

/// A Cursor user folder: `globalStorage/state.vscdb` and one workspace.
pub fn cursor_user_dir(root: &Path) -> PathBuf {
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

pub fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A Claude Code `projects/` folder: a session that starts two sub-agents (one in its
/// own file beside the session, joined by `agentId`; one under
/// `<session>/subagents/`, joined by its prompt), an older session with a sub-agent
/// inside it, and a resumed session titled by a `summary` line.
pub fn claude_projects(root: &Path) -> PathBuf {
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

/// OpenCode's `opencode.db` at `path`, with the tables of its schema
/// (`session.sql.ts` of anomalyco/opencode: `session`, `message`, `part`, their `data`
/// columns the message or part without the ids the row holds), holding each session
/// of `exports` (`opencode export` output: `{info, messages: [{info, parts}]}`).
pub fn opencode_db(path: &Path, exports: &[Value]) {
    let c = Connection::open(path).unwrap();
    c.execute_batch(
        "PRAGMA journal_mode = WAL;
         CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text,
           parent_id text, slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL,
           version text NOT NULL, share_url text, summary_additions integer,
           summary_deletions integer, summary_files integer, summary_diffs text,
           cost real NOT NULL DEFAULT 0, revert text, permission text, agent text, model text,
           time_created integer NOT NULL, time_updated integer NOT NULL,
           time_compacting integer, time_archived integer);
         CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL,
           time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
         CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL,
           session_id text NOT NULL, time_created integer NOT NULL,
           time_updated integer NOT NULL, data text NOT NULL);
         CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL,
           status text NOT NULL, priority text NOT NULL, position integer NOT NULL,
           time_created integer NOT NULL, time_updated integer NOT NULL);",
    )
    .unwrap();
    let without = |v: &Value, keys: &[&str]| {
        let mut v = v.clone();
        for k in keys {
            v.as_object_mut().unwrap().remove(*k);
        }
        v.to_string()
    };
    for export in exports {
        let info = &export["info"];
        let session = info["id"].as_str().unwrap();
        let created = info["time"]["created"].as_i64().unwrap();
        c.execute(
            "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version,
               time_created, time_updated) VALUES (?1, 'prj', ?2, 'slug', ?3, ?4, '1.0.0', ?5, ?6)",
            rusqlite::params![
                session,
                info["parentID"].as_str(),
                info["directory"].as_str().unwrap_or(""),
                info["title"].as_str().unwrap_or(""),
                created,
                info["time"]["updated"].as_i64().unwrap_or(created),
            ],
        )
        .unwrap();
        for m in export["messages"].as_array().unwrap() {
            let id = m["info"]["id"].as_str().unwrap();
            let at = m["info"]["time"]["created"].as_i64().unwrap();
            c.execute(
                "INSERT INTO message VALUES (?1, ?2, ?3, ?3, ?4)",
                rusqlite::params![id, session, at, without(&m["info"], &["id", "sessionID"])],
            )
            .unwrap();
            for p in m["parts"].as_array().unwrap() {
                c.execute(
                    "INSERT INTO part VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
                    rusqlite::params![
                        p["id"].as_str().unwrap(),
                        id,
                        session,
                        at,
                        without(p, &["id", "sessionID", "messageID"])
                    ],
                )
                .unwrap();
            }
        }
    }
}
