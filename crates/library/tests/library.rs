//! Stores on disk, built here: Cursor `state.vscdb` files with the real tables and keys
//! (the split layout, the older inline layout, a workspace database naming them),
//! Claude Code project folders with sessions and sub-agents, and bad input — malformed
//! and missing rows, a locked database, a truncated one. Then the CLI over them:
//! `list`, `json|html --conversation`, `export`.

use std::fs;
use std::path::Path;

use docstream_core::model::{DocumentType, Turn};
use docstream_library::store::Library;
use docstream_library::{Agent, Entry};
use docstream_testkit::stores::{claude_projects, cursor_user_dir, scratch};
use rusqlite::Connection;

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
    let user = cursor_user_dir(&scratch(env!("CARGO_TARGET_TMPDIR"), "lib-cursor"));
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
    let user = cursor_user_dir(&scratch(env!("CARGO_TARGET_TMPDIR"), "lib-cursor-ws"));
    let lib = Library::open(&user.join("workspaceStorage")).unwrap();
    let e = by_id(lib.entries(), "c-split");
    assert_eq!(e.title, "Louder greeting");
    assert!(e.error.as_deref().unwrap().contains("globalStorage"));
}

#[test]
fn a_locked_database_is_an_error_naming_the_file() {
    let user = cursor_user_dir(&scratch(env!("CARGO_TARGET_TMPDIR"), "lib-locked"));
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
    let user = cursor_user_dir(&scratch(env!("CARGO_TARGET_TMPDIR"), "lib-truncated"));
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
    let projects = claude_projects(&scratch(env!("CARGO_TARGET_TMPDIR"), "lib-claude"));
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
    // Its sub-agent ab12 (named by the call's `toolUseResult.agentId`) is read from its
    // own file as the call's run (issue 37): one response and one tool call more.
    assert_eq!((main.messages, main.tools), (3, 4));
    let read = lib.read("s-main").unwrap();
    let nested = read.turns.iter().find_map(|t| match t {
        Turn::Assistant(r) => r.parent.as_ref(),
        Turn::User(_) => None,
    });
    assert_eq!(
        nested.map(|p| p.tool_call_id.as_str()),
        Some("toolu_find"),
        "{:?}",
        read.turns
    );

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
/// A Codex home's `sessions/YYYY/MM/DD/rollout-*.jsonl` files list as Codex, a saved
/// Gemini CLI run as Gemini CLI, a provider API history as a plain file; JSON that is no
/// transcript is left out.
#[test]
fn a_folder_of_codex_and_gemini_cli_runs_names_each_agent() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-agents");
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
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

/// A Gemini CLI home's `tmp/<project-hash>/chats/`: the legacy `session-*.json` record
/// and the `session-*.jsonl` lines list as Gemini CLI, titled by their summary (else the
/// first prompt), with their dates, messages and tools; the `logs.json` beside them is
/// no transcript.
#[test]
fn a_gemini_cli_home_lists_its_saved_chats() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-gemini-chats");
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    let home = dir.join(".gemini");
    let project = home.join("tmp/9f2c4e7a1b8d3f6e0a5c9b2d7e4f1a8c3b6d9e2f5a8c1b4d7e0f3a6b9c2d5e8f");
    let chats = project.join("chats");
    fs::create_dir_all(&chats).unwrap();
    let json = "session-2025-10-21T09-14-5c1f0d9e.json";
    let jsonl = "session-2026-03-09T16-40-a7e3c9f1.jsonl";
    fs::copy(
        fixtures.join("gemini-cli-chat/session.json"),
        chats.join(json),
    )
    .unwrap();
    fs::copy(
        fixtures.join("gemini-cli-chat/rewind.jsonl"),
        chats.join(jsonl),
    )
    .unwrap();
    fs::write(
        project.join("logs.json"),
        r#"[{"sessionId":"s","messageId":0,"type":"user","message":"hi","timestamp":"t"}]"#,
    )
    .unwrap();

    let mut lib = Library::open(&home).unwrap();
    lib.index(|_, _, _| {});
    let entries = lib.entries();
    let listed: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e.id.as_str(), e.agent.label()))
        .collect();
    let prefix = "tmp/9f2c4e7a1b8d3f6e0a5c9b2d7e4f1a8c3b6d9e2f5a8c1b4d7e0f3a6b9c2d5e8f/chats/";
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            (&*format!("{prefix}{json}"), "Gemini CLI"),
            (&*format!("{prefix}{jsonl}"), "Gemini CLI"),
        ],
        "{listed:?}"
    );
    let legacy = by_id(entries, &format!("{prefix}{json}"));
    assert_eq!(
        legacy.title,
        "The week 53 test fails. Fix parseWeek in src/week.js and run the tests."
    );
    assert_eq!(legacy.created.as_deref(), Some("2025-10-21T09:14:02.118Z"));
    assert_eq!(legacy.tools, 5, "{legacy:?}");
    let lines = by_id(entries, &format!("{prefix}{jsonl}"));
    assert_eq!(lines.title, "Explain the build script and copy the fonts");
    assert!(lines.usage.is_some(), "{lines:?}");
}

/// Copilot CLI's folder (`~/.copilot`): each `session-state/<id>/events.jsonl` lists as
/// Copilot CLI, titled by its first prompt; the session folder's other files do not list.
#[test]
fn a_copilot_cli_folder_lists_each_sessions_events() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-copilot").join(".copilot");
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    let session = dir.join("session-state/0e5d7b3c-6a2f-4c81-9d4e-b1f8a3c2e7d9");
    fs::create_dir_all(&session).unwrap();
    fs::copy(
        fixtures.join("copilot-cli-events/sdk_stream.jsonl"),
        session.join("events.jsonl"),
    )
    .unwrap();
    fs::write(session.join("workspace.yaml"), "cwd: /work/app\n").unwrap();
    fs::write(dir.join("config.json"), r#"{"model": "gpt-5"}"#).unwrap();

    let mut lib = Library::open(&dir).unwrap();
    lib.index(|_, _, _| {});
    let id = "session-state/0e5d7b3c-6a2f-4c81-9d4e-b1f8a3c2e7d9/events.jsonl";
    let entries = lib.entries();
    assert_eq!(ids(entries), [id]);
    let e = by_id(entries, id);
    assert_eq!(e.agent, Agent::CopilotCli);
    assert_eq!(e.agent.label(), "Copilot CLI");
    assert_eq!(e.title, "What is 17 × 23? Check it with the shell.");
    let c = lib.read(id).unwrap();
    assert_eq!(c.format.as_deref(), Some("copilot-cli-events"));
    assert!(
        c.documents()
            .any(|d| d.doc_type() == DocumentType::TerminalCommand)
    );
}

/// Cursor's agent transcripts (`~/.cursor/projects`): each session and sub-agent
/// transcript lists as Cursor, with the project folder Cursor named and no times (the
/// files record none), titled by the typed query; `export` writes them.
#[test]
fn a_cursor_projects_folder_lists_each_agent_transcript() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-cursor-agent").join(".cursor");
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    let id = "3f2a9c1e-5b7d-4e8f-a0b1-c2d3e4f5a6b7";
    let session = dir.join(format!("projects/home-dev-shop/agent-transcripts/{id}"));
    fs::create_dir_all(session.join("subagents")).unwrap();
    fs::copy(
        fixtures.join("cursor-agent-transcript/session.jsonl"),
        session.join(format!("{id}.jsonl")),
    )
    .unwrap();
    fs::copy(
        fixtures.join("cursor-agent-transcript/aborted.jsonl"),
        session.join("subagents/9b8c7d6e.jsonl"),
    )
    .unwrap();
    fs::write(dir.join("projects/home-dev-shop/worker.log"), "started\n").unwrap();
    fs::write(dir.join("mcp.json"), r#"{"mcpServers": {}}"#).unwrap();

    let mut lib = Library::open(&dir).unwrap();
    lib.index(|_, _, _| {});
    let main = format!("projects/home-dev-shop/agent-transcripts/{id}/{id}.jsonl");
    let sub = format!("projects/home-dev-shop/agent-transcripts/{id}/subagents/9b8c7d6e.jsonl");
    let entries = lib.entries();
    let mut listed = ids(entries);
    listed.sort();
    assert_eq!(listed, [main.as_str(), sub.as_str()]);
    let e = by_id(entries, &main);
    assert_eq!(e.agent, Agent::Cursor);
    assert_eq!(
        e.title,
        "The cart total ignores the discount. Fix it and run the tests."
    );
    assert_eq!(e.project.as_deref(), Some("home-dev-shop"));
    assert!(e.no_times, "{e:?}");
    assert_eq!((e.created.as_deref(), e.updated.as_deref()), (None, None));
    assert_eq!(e.messages, 4, "{e:?}");
    assert!(e.tools >= 6, "{e:?}");
    let s = by_id(entries, &sub);
    assert_eq!(s.title, "Delete the old fixtures and regenerate them.");
    assert!(s.no_times);
    // The sub-agent's transcript is listed right after its session's, linked both ways.
    assert_eq!(ids(entries), [main.as_str(), sub.as_str()]);
    assert_eq!(e.children, [sub.as_str()]);
    assert_eq!(
        s.parent.as_ref().map(|p| p.conversation.as_str()),
        Some(main.as_str())
    );
    let c = lib.read(&main).unwrap();
    assert_eq!(c.format.as_deref(), Some("cursor-agent-transcript"));
    // A sub-agent's prompts are its parent agent's (issue 37), the session's the user's.
    let from = |c: &docstream_model::Conversation| {
        c.turns
            .iter()
            .filter_map(|t| match t {
                Turn::User(u) => Some(u.from),
                Turn::Assistant(_) => None,
            })
            .collect::<Vec<_>>()
    };
    let subagent = lib.read(&sub).unwrap();
    assert!(!from(&subagent).is_empty());
    assert!(
        from(&subagent)
            .iter()
            .all(|f| *f == Some(docstream_model::PromptFrom::ParentAgent)),
        "{:?}",
        from(&subagent)
    );
    assert!(from(&c).iter().all(Option::is_none), "{:?}", from(&c));
    for t in [
        DocumentType::TerminalCommand,
        DocumentType::FileEdit,
        DocumentType::TodoUpdate,
    ] {
        assert!(c.documents().any(|d| d.doc_type() == t), "no {t:?}");
    }
    // No turn carries a time the file does not have.
    assert!(c.turns.iter().all(|t| match t {
        Turn::User(u) => u.created.is_none(),
        Turn::Assistant(r) => r.created.is_none(),
    }));

    let out = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-cursor-agent-export");
    let exported = lib
        .export(
            &out,
            "Cursor",
            docstream_html::RenderOptions::default(),
            &mut docstream_library::site::KeepAll,
        )
        .unwrap();
    assert_eq!((exported.pages, exported.errors), (2, 0));
    let index = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        index.contains("Cursor · home-dev-shop · no times recorded"),
        "{index}"
    );
}

/// OpenCode's data folder (`~/.local/share/opencode`): each session of `opencode.db`
/// lists as OpenCode with its title, folder, times and sub-agent link, and reads into
/// the very conversation `opencode export` of it gives; the folders beside the database
/// (the files from before it, snapshots, logs) are not searched.
#[test]
fn an_opencode_database_lists_and_reads_each_session() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-opencode").join("opencode");
    fs::create_dir_all(dir.join("storage/part/msg_1")).unwrap();
    fs::create_dir_all(dir.join("log")).unwrap();
    // A part file from before the database: an OpenCode text part, not a transcript.
    fs::write(
        dir.join("storage/part/msg_1/prt_1.json"),
        r#"{"id":"prt_1","sessionID":"ses_old","messageID":"msg_1","type":"text","text":"old","timestamp":1}"#,
    )
    .unwrap();
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    let export = fs::read(fixtures.join("opencode-export/session.json")).unwrap();
    // Beside the database: OpenCode's credentials, not read (a transcript there would be
    // listed if they were).
    fs::write(dir.join("auth.json"), &export).unwrap();
    let session: serde_json::Value = serde_json::from_slice(&export).unwrap();
    let mut child = serde_json::json!({
        "info": {"id": "ses_child", "parentID": session["info"]["id"], "directory": "/home/dev/tool",
                 "title": "Child session - 2026-10-05", "time": {"created": 1791200009000_i64}},
        "messages": [{"info": {"id": "msg_child", "role": "user", "time": {"created": 1791200009000_i64}},
                      "parts": [{"id": "prt_child", "type": "text", "text": "Check the docs"}]}]
    });
    child["info"]["time"]["updated"] = child["info"]["time"]["created"].clone();
    docstream_testkit::stores::opencode_db(&dir.join("opencode.db"), &[session.clone(), child]);

    let mut lib = Library::open(&dir).unwrap();
    lib.index(|_, _, _| {});
    let entries = lib.entries();
    let id = "ses_3c9d2e1f0ffeK7aLm2Np4Qr6St";
    assert_eq!(ids(entries), [id, "ses_child"], "{:?}", lib.notes());
    let e = by_id(entries, id);
    assert_eq!(e.agent, Agent::OpenCode);
    assert_eq!(e.agent.label(), "OpenCode");
    assert_eq!(e.title, "Add a verbose flag to the CLI");
    assert_eq!(e.project.as_deref(), Some("/home/dev/tool"));
    assert_eq!(e.created.as_deref(), Some("2026-10-05T11:33:20.000Z"));
    assert_eq!(e.source, "opencode.db");
    assert_eq!(e.children, ["ses_child"]);
    assert!(e.tools >= 5, "{e:?}");
    assert!((e.cost_usd.unwrap() - 0.0386).abs() < 1e-9, "{e:?}");
    let child = by_id(entries, "ses_child");
    assert_eq!(child.parent.as_ref().unwrap().conversation, id);
    assert_eq!(child.title, "OpenCode session ses_child");

    // The database's rows read as the export of the session reads.
    let from_db = lib.read(id).unwrap();
    let exported = docstream_library::parse(&export, None);
    assert_eq!(from_db.format.as_deref(), Some("opencode-export"));
    assert_eq!(
        serde_json::to_value(&from_db).unwrap(),
        serde_json::to_value(&exported).unwrap()
    );
    // Given alone, the database lists the same.
    let alone = Library::open(&dir.join("opencode.db")).unwrap();
    assert_eq!(ids(alone.entries()), [id, "ses_child"]);
}

/// A damaged `opencode.db` in a folder is an error entry naming the file, as OpenCode's.
#[test]
fn a_damaged_opencode_database_is_an_opencode_error_entry() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-opencode-bad").join("opencode");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("opencode.db"),
        b"SQLite format 3\0 and then nothing",
    )
    .unwrap();
    let lib = Library::open(&dir).unwrap();
    let e = &lib.entries()[0];
    assert_eq!(e.agent, Agent::OpenCode);
    assert!(e.error.as_deref().unwrap().contains("opencode.db"), "{e:?}");
    assert_eq!(lib.unreadable().len(), 1);
}
