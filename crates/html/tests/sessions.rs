//! Several runs in one file, call ids used again, calls without results (issue 13):
//! each run keeps its own plan and todo list, and the JSON, the plan view and the HTML
//! say the same.

use docstream_testkit as support;

use docstream_core::model::{CallStatus, Document, DocumentType, Meta, TodoStatus};
use docstream_html::{RenderOptions, plan_view_by_id, render_conversation};
use support::feed;

fn fixture(rel: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/fixtures/{rel}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    ))
    .unwrap()
}

fn of_type(docs: &[&Document], t: DocumentType) -> Vec<Document> {
    docs.iter()
        .filter(|d| d.doc_type() == t)
        .map(|&d| d.clone())
        .collect()
}

#[test]
fn each_run_keeps_its_own_plan() {
    let s = feed(
        &fixture("cursor-stream-json/appended_runs.jsonl"),
        None,
        &[],
    );
    let conv = s.conversation();
    let docs: Vec<&Document> = conv.documents().collect();
    let plans = of_type(&docs, DocumentType::Plan);
    assert_eq!(plans.len(), 2, "one plan per run");
    let html = render_conversation(conv, &RenderOptions::default());
    let expected = [
        [
            ("edit", TodoStatus::Completed),
            ("test", TodoStatus::Pending),
        ],
        [
            ("edit", TodoStatus::Pending),
            ("test", TodoStatus::InProgress),
        ],
    ];
    for (plan, want) in plans.iter().zip(expected) {
        let Meta::Plan(m) = &plan.meta else {
            unreachable!()
        };
        // The JSON (the document's metadata) …
        let json: Vec<(&str, TodoStatus)> =
            m.todos.iter().map(|t| (t.id.as_str(), t.status)).collect();
        assert_eq!(json, want, "{}: JSON", plan.id);
        // … the plan view …
        let view = plan_view_by_id(conv, &plan.id).expect("plan view");
        let viewed: Vec<(&str, TodoStatus)> = view
            .todos
            .iter()
            .map(|t| (t.id.as_str(), t.status))
            .collect();
        assert_eq!(viewed, want, "{}: planView", plan.id);
        // … and the HTML agree.
        let start = html
            .find(&format!("data-doc-id=\"{}\"", plan.id))
            .expect("plan rendered");
        let element = &html[start..start + html[start..].find("</ol>").unwrap()];
        for (id, status) in want {
            let class = format!("ds-todo-{}", status.as_str());
            let li = element
                .find(&format!("data-todo-id=\"{id}\""))
                .map(|i| &element[..i])
                .and_then(|before| before.rfind("<li "))
                .map(|i| &element[i..])
                .expect("todo rendered");
            assert!(
                li[..li.find('>').unwrap()].contains(&class),
                "{}: HTML of {id} is not {class}",
                plan.id
            );
        }
    }
}

#[test]
fn a_merging_todo_update_shows_the_whole_list() {
    let s = feed(
        &fixture("cursor-stream-json/appended_runs.jsonl"),
        None,
        &[],
    );
    let docs: Vec<&Document> = s.conversation().documents().collect();
    let updates = of_type(&docs, DocumentType::TodoUpdate);
    let Meta::TodoUpdate(last) = &updates.last().unwrap().meta else {
        unreachable!()
    };
    let merged: Vec<(&str, TodoStatus)> = last
        .merged_todos
        .iter()
        .map(|t| (t.id.as_str(), t.status))
        .collect();
    assert_eq!(
        merged,
        [
            ("a", TodoStatus::Pending),
            ("b", TodoStatus::InProgress),
            ("c", TodoStatus::Pending)
        ]
    );
}

#[test]
fn call_ids_used_again_in_a_later_run_are_new_documents() {
    let s = feed(
        &fixture("cursor-stream-json/appended_runs.jsonl"),
        None,
        &[],
    );
    let docs: Vec<&Document> = s.conversation().documents().collect();
    let ids: Vec<Option<&str>> = docs
        .iter()
        .filter_map(|d| match &d.meta {
            Meta::TodoUpdate(m) => Some(m.tool_call_id.as_deref()),
            Meta::TerminalCommand(m) => Some(m.tool_call_id.as_deref()),
            Meta::ToolCall(m) => Some(Some(m.tool_call_id.as_str())),
            _ => None,
        })
        .collect();
    // call_1 and call_2 in each of the three runs, call_3 in the last.
    assert_eq!(
        ids,
        [
            "call_1", "call_2", "call_1", "call_2", "call_1", "call_2", "call_3"
        ]
        .map(Some)
    );
}

#[test]
fn a_call_id_used_again_in_a_later_turn_of_one_session_is_a_new_document() {
    let call = |id: &str, cmd: &str| {
        format!(
            "{{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"{id}\",\"tool_call\":{{\"shellToolCall\":{{\"args\":{{\"command\":\"{cmd}\"}}}}}}}}\n\
             {{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"{id}\",\"tool_call\":{{\"shellToolCall\":{{\"args\":{{\"command\":\"{cmd}\"}},\"result\":{{\"success\":{{\"exitCode\":0,\"stdout\":\"\"}}}}}}}}}}\n"
        )
    };
    let user = |t: &str| {
        format!(
            "{{\"type\":\"user\",\"message\":{{\"role\":\"user\",\"content\":[{{\"type\":\"text\",\"text\":\"{t}\"}}]}}}}\n"
        )
    };
    let input = format!(
        "{}{}{}{}",
        user("one"),
        call("call_1", "ls"),
        user("two"),
        call("call_1", "pwd")
    );
    let s = feed(input.as_bytes(), None, &[]);
    let docs: Vec<&Document> = s.conversation().documents().collect();
    let commands: Vec<String> = of_type(&docs, DocumentType::TerminalCommand)
        .into_iter()
        .map(|d| match d.meta {
            Meta::TerminalCommand(m) => m.command,
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(commands, ["ls", "pwd"]);
}

#[test]
fn a_call_without_result_says_so_once_its_turn_ended() {
    let s = feed(
        &fixture("cursor-stream-json/appended_runs.jsonl"),
        None,
        &[],
    );
    let docs: Vec<&Document> = s.conversation().documents().collect();
    let no_result: Vec<&str> = docs
        .iter()
        .filter(|d| match &d.meta {
            Meta::TerminalCommand(m) => m.status == Some(CallStatus::NoResult),
            Meta::ToolCall(m) => m.status() == CallStatus::NoResult,
            _ => false,
        })
        .map(|d| d.id.as_str())
        .collect();
    assert_eq!(
        no_result.len(),
        2,
        "the cut-off run's shell, the last run's read"
    );
    // While the turn is open, the same call is running.
    let input = fixture("cursor-stream-json/appended_runs.jsonl");
    let text = String::from_utf8(input).unwrap();
    let upto = text.find("cargo test farewell").unwrap();
    let upto = upto + text[upto..].find('\n').unwrap() + 1;
    let mut s = docstream_core::DocStream::new(docstream_core::Options::default());
    s.push(&text.as_bytes()[..upto]).unwrap();
    let running = s
        .conversation()
        .documents()
        .filter(|d| matches!(&d.meta, Meta::TerminalCommand(m) if m.status == Some(CallStatus::Running)))
        .count();
    assert_eq!(running, 1);
}

/// The real Cursor captures appended run after run, as a log that keeps every run's
/// output does: every started call is a document of its own run.
#[test]
fn real_appended_runs_keep_every_tool_call() {
    let mut input = Vec::new();
    for name in [
        "internal_events_testdata_full_session",
        "experiments_direct-sleep",
        "experiments_parallel-sleep",
        "internal_events_testdata_full_session",
    ] {
        let rel = format!("samples/cursor-agent/reifying-cursor-hack__{name}.jsonl");
        let Some(path) = support::shared(&rel) else {
            return;
        };
        input.extend(std::fs::read(path).unwrap());
    }
    let text = String::from_utf8_lossy(&input);
    let mut started = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] == "tool_call" && v["subtype"] == "started" {
            started += 1;
        }
    }
    let s = feed(&input, None, &[]);
    let tools = s
        .conversation()
        .documents()
        .filter(|d| d.doc_type() == DocumentType::TerminalCommand)
        .count();
    assert_eq!(tools, started, "one document per started call");
    assert_eq!(
        s.conversation().turns.len(),
        8,
        "four runs, each a prompt and a response"
    );
}
