//! Codex CLI and Gemini CLI: the cases the fixtures show, named as tests, and no panic
//! on mutated input with each of these formats named.

use docstream_testkit as support;

use docstream_core::model::{
    CallStatus, Document, DocumentType, FileOperation, Meta, ResponseStatus, TodoStatus, Turn,
};
use docstream_core::{DocStream, Format};
use docstream_html::{RenderOptions, render_conversation};
use serde_json::{Value, json};
use support::{assert_errors_at, error_details, feed, json, lines, texts};

const FORMATS: [Format; 8] = [
    Format::CodexExecJson,
    Format::CodexSession,
    Format::GeminiCliStreamJson,
    Format::GeminiCliJson,
    Format::CopilotCliEvents,
    Format::CursorAgentTranscript,
    Format::OpencodeRunJson,
    Format::OpencodeExport,
];

fn record(kind: &str, payload: Value) -> Value {
    json!({"timestamp": "2025-10-14T09:00:00.000Z", "type": kind, "payload": payload})
}

fn docs(stream: &DocStream) -> Vec<&Document> {
    stream
        .conversation()
        .turns
        .iter()
        .filter_map(|t| match t {
            Turn::Assistant(r) => Some(r.documents.iter()),
            Turn::User(_) => None,
        })
        .flatten()
        .collect()
}

fn of_type(stream: &DocStream, t: DocumentType) -> Vec<&Document> {
    docs(stream)
        .into_iter()
        .filter(|d| d.doc_type() == t)
        .collect()
}

fn prompts(stream: &DocStream) -> Vec<&str> {
    stream
        .conversation()
        .turns
        .iter()
        .filter_map(|t| match t {
            Turn::User(u) => Some(u.content.as_str()),
            Turn::Assistant(_) => None,
        })
        .collect()
}

#[test]
fn each_format_is_detected_from_its_first_line() {
    let cases: [(&[u8], Format); 6] = [
        (
            b"{\"type\":\"thread.started\",\"thread_id\":\"t\"}\n{\"type\":\"turn.started\"}\n",
            Format::CodexExecJson,
        ),
        (
            b"{\"type\":\"item.completed\",\"item\":{\"id\":\"item_0\",\"type\":\"agent_message\",\"text\":\"hi\"}}\n",
            Format::CodexExecJson,
        ),
        (
            b"{\"timestamp\":\"t\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"hi\"}}\n",
            Format::CodexSession,
        ),
        (
            b"{\"type\":\"init\",\"timestamp\":\"t\",\"session_id\":\"s\",\"model\":\"m\"}\n",
            Format::GeminiCliStreamJson,
        ),
        (
            b"{\"session_id\":\"s\",\"response\":\"Hello.\",\"stats\":{}}",
            Format::GeminiCliJson,
        ),
        (
            b"{\n  \"session_id\": \"s\",\n  \"error\": {\"type\": \"Error\", \"message\": \"no\"}\n}\n",
            Format::GeminiCliJson,
        ),
    ];
    for (input, format) in cases {
        let s = feed(input, None, &[]);
        assert_eq!(
            s.format(),
            Some(format),
            "{}",
            String::from_utf8_lossy(input)
        );
    }
}

/// A prompt, an answer and a reasoning summary are saved both as `event_msg` and as
/// `response_item`, in either order: each is shown once.
#[test]
fn codex_session_shows_a_text_saved_twice_once_in_either_order() {
    let user_item = record(
        "response_item",
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix it."}]}),
    );
    let user_event = record(
        "event_msg",
        json!({"type": "user_message", "message": "Fix it.", "images": []}),
    );
    let answer_item = record(
        "response_item",
        json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}),
    );
    let answer_event = record(
        "event_msg",
        json!({"type": "agent_message", "message": "Done."}),
    );
    let thought_item = record(
        "response_item",
        json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "**Plan**"}], "encrypted_content": "secret"}),
    );
    let thought_event = record(
        "event_msg",
        json!({"type": "agent_reasoning", "text": "**Plan**"}),
    );
    for order in [
        [
            &user_item,
            &user_event,
            &thought_event,
            &thought_item,
            &answer_item,
            &answer_event,
        ],
        [
            &user_event,
            &user_item,
            &thought_item,
            &thought_event,
            &answer_event,
            &answer_item,
        ],
    ] {
        let input = lines(&order.map(|v| v.clone()));
        let s = feed(&input, None, &[]);
        assert_eq!(prompts(&s), ["Fix it."]);
        let texts: Vec<&str> = docs(&s).iter().map(|d| d.text()).collect();
        assert_eq!(texts, ["**Plan**", "Done."], "{order:?}");
        assert_eq!(s.conversation().stats.unknown_events, 0);
    }
}

/// Only a repeat from the other kind of record is dropped: the same answer given twice
/// (each saved both ways) is shown twice.
#[test]
fn codex_session_keeps_an_answer_given_twice() {
    let item = record(
        "response_item",
        json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Still failing."}]}),
    );
    let event = record(
        "event_msg",
        json!({"type": "agent_message", "message": "Still failing."}),
    );
    let s = feed(
        &lines(&[item.clone(), event.clone(), item, event]),
        None,
        &[],
    );
    assert_eq!(
        of_type(&s, DocumentType::Text)[0].text(),
        "Still failing.\n\nStill failing."
    );
}

#[test]
fn codex_session_never_reads_encrypted_reasoning() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/codex-session");
    let input = std::fs::read(root.join("session.jsonl")).unwrap();
    assert!(String::from_utf8_lossy(&input).contains("NEVER-SHOWN"));
    let s = feed(&input, None, &[]);
    let html = render_conversation(s.conversation(), &RenderOptions::default());
    assert!(!json(&s).contains("NEVER-SHOWN"));
    assert!(!html.contains("NEVER-SHOWN"));
}

#[test]
fn codex_session_counts_unknown_records_and_goes_on() {
    let input = lines(&[
        record("from_the_future", json!({"x": 1})),
        record("event_msg", json!({"type": "new_kind_of_event"})),
        record("response_item", json!({"type": "new_kind_of_item"})),
        record(
            "event_msg",
            json!({"type": "agent_message", "message": "Still here."}),
        ),
    ]);
    let s = feed(&input, Some(Format::CodexSession), &[]);
    assert_eq!(s.conversation().stats.unknown_events, 3);
    assert_eq!(docs(&s).len(), 1);
    assert_eq!(docs(&s)[0].text(), "Still here.");
    assert_eq!(s.conversation().stats.bad_events, 0);
}

/// Token counts are running totals of the session: each response shows what it used.
#[test]
fn codex_session_usage_is_per_response() {
    let tokens = |input: u64, output: u64| {
        record(
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": {"input_tokens": input, "cached_input_tokens": 0, "output_tokens": output, "reasoning_output_tokens": 0, "total_tokens": input + output}}}),
        )
    };
    let prompt = |t: &str| record("event_msg", json!({"type": "user_message", "message": t}));
    let answer = |t: &str| record("event_msg", json!({"type": "agent_message", "message": t}));
    let input = lines(&[
        prompt("one"),
        answer("1"),
        tokens(100, 10),
        prompt("two"),
        answer("2"),
        tokens(250, 30),
        tokens(400, 45),
    ]);
    let s = feed(&input, None, &[]);
    let usage: Vec<(u64, u64)> = s
        .conversation()
        .turns
        .iter()
        .filter_map(|t| match t {
            Turn::Assistant(r) => r
                .usage
                .as_ref()
                .map(|u| (u.prompt_tokens, u.completion_tokens)),
            Turn::User(_) => None,
        })
        .collect();
    assert_eq!(usage, [(100, 10), (300, 35)]);
}

/// A record whose payload has a field of another type than Codex writes is one error
/// document naming the field; the records around it are read.
#[test]
fn codex_session_record_with_a_field_of_the_wrong_type_is_an_error_naming_it() {
    let answer = |t: &str| record("event_msg", json!({"type": "agent_message", "message": t}));
    let input = lines(&[
        record(
            "event_msg",
            json!({"type": "user_message", "message": "Go."}),
        ),
        answer("Before."),
        record(
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": 5}]}),
        ),
        record(
            "event_msg",
            json!({"type": "token_count", "info": {"total_token_usage": {"input_tokens": "many"}}}),
        ),
        record(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c", "output": 7}),
        ),
        record("session_meta", json!("not an object")),
        json!({"timestamp": 5, "type": "event_msg", "payload": {"type": "agent_message", "message": "Lost."}}),
        answer("After."),
    ]);
    let s = feed(&input, Some(Format::CodexSession), &[]);
    let errors = error_details(s.conversation());
    let expected = [
        (3, "field `text` should be a string, found a number"),
        (
            4,
            "field `input_tokens` should be a non-negative integer, found a string",
        ),
        (5, "field `output` should be an object, found a number"),
        (6, "field `payload` should be an object, found a string"),
        (7, "field `timestamp` should be a string, found a number"),
    ];
    assert_eq!(errors.len(), expected.len(), "{errors:?}");
    for (details, (line, says)) in errors.iter().zip(expected) {
        assert!(
            details.starts_with(&format!("line {line}: {says};")),
            "{details}"
        );
    }
    assert_eq!(s.conversation().stats.bad_events, expected.len() as u64);
    let texts = of_type(&s, DocumentType::Text);
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].text(), "Before.\n\nAfter.");
    assert!(s.conversation().turns.iter().all(|t| match t {
        Turn::Assistant(r) => r.usage.is_none(),
        Turn::User(_) => true,
    }));
}

/// A patch becomes one file edit per file (per hunk of an update), each with its
/// operation and text, ended together by the call's output.
#[test]
fn codex_apply_patch_becomes_file_edits() {
    let patch = "*** Begin Patch\n*** Add File: a.md\n+hello\n*** Update File: b.rs\n@@\n-let x = 1;\n+let x = 2;\n@@ fn f()\n-old()\n+new()\n*** Delete File: c.txt\n*** Update File: d.py\n*** Move to: e.py\n*** End Patch\n";
    let input = lines(&[
        record(
            "response_item",
            json!({"type": "custom_tool_call", "call_id": "call_1", "name": "apply_patch", "input": patch}),
        ),
        record(
            "response_item",
            json!({"type": "custom_tool_call_output", "call_id": "call_1", "output": "Success. Updated the following files:\nA a.md\nM b.rs\nD c.txt\nM e.py\n"}),
        ),
    ]);
    let s = feed(&input, None, &[]);
    type Edit = (String, FileOperation, Option<(String, String)>, CallStatus);
    let edits: Vec<Edit> = of_type(&s, DocumentType::FileEdit)
        .iter()
        .map(|d| {
            let Meta::FileEdit(m) = &d.meta else {
                unreachable!()
            };
            (
                m.file_path.clone(),
                m.operation,
                m.diff
                    .as_ref()
                    .map(|d| (d.old_string.clone(), d.new_string.clone())),
                m.status.unwrap(),
            )
        })
        .collect();
    let ok = CallStatus::Success;
    assert_eq!(
        edits,
        [
            ("a.md".into(), FileOperation::Create, None, ok),
            (
                "b.rs".into(),
                FileOperation::Edit,
                Some(("let x = 1;".into(), "let x = 2;".into())),
                ok
            ),
            (
                "b.rs".into(),
                FileOperation::Edit,
                Some(("old()".into(), "new()".into())),
                ok
            ),
            ("c.txt".into(), FileOperation::Delete, None, ok),
            ("d.py".into(), FileOperation::Rename, None, ok),
        ]
    );
    assert_eq!(of_type(&s, DocumentType::FileEdit)[0].text(), "hello\n");
    assert!(of_type(&s, DocumentType::ToolCall).is_empty());
}

#[test]
fn a_patch_that_cannot_be_read_is_kept_as_a_tool_call_with_a_note() {
    let patch = "*** Begin Patch\n*** Update File: b.rs\nlet x = 2;\n*** End Patch\n";
    let input = lines(&[
        record(
            "response_item",
            json!({"type": "function_call", "call_id": "call_9", "name": "apply_patch", "arguments": json!({"input": patch}).to_string()}),
        ),
        record(
            "response_item",
            json!({"type": "function_call_output", "call_id": "call_9", "output": "apply_patch verification failed: invalid hunk"}),
        ),
    ]);
    let s = feed(&input, None, &[]);
    assert!(of_type(&s, DocumentType::FileEdit).is_empty());
    let calls = of_type(&s, DocumentType::ToolCall);
    let Meta::ToolCall(call) = &calls[0].meta else {
        unreachable!()
    };
    assert_eq!(call.tool_name, "apply_patch");
    assert_eq!(call.arguments["input"], patch);
    assert_eq!(call.status(), CallStatus::Error);
    let errors = of_type(&s, DocumentType::Error);
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].text().contains("line 3 of the patch"),
        "{}",
        errors[0].text()
    );
}

/// `codex exec --json` prints a web search item with two `id` keys (the item's and the
/// search's); the item's, first, pairs its events.
#[test]
fn codex_exec_reads_a_web_search_item_with_two_ids() {
    let input = concat!(
        "{\"type\":\"turn.started\"}\n",
        "{\"type\":\"item.started\",\"item\":{\"id\":\"item_3\",\"type\":\"web_search\",\"id\":\"ws_1\",\"query\":\"q\"}}\n",
        "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_3\",\"type\":\"web_search\",\"id\":\"ws_1\",\"query\":\"q\"}}\n",
        "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,\"cached_input_tokens\":0,\"output_tokens\":1}}\n",
    );
    let s = feed(input.as_bytes(), None, &[]);
    let calls = of_type(&s, DocumentType::ToolCall);
    assert_eq!(calls.len(), 1);
    let Meta::ToolCall(call) = &calls[0].meta else {
        unreachable!()
    };
    assert_eq!(
        (call.tool_call_id.as_str(), call.status()),
        ("item_3", CallStatus::Success)
    );
    assert_eq!(s.conversation().stats.bad_events, 0);
}

#[test]
fn codex_exec_appends_text_that_grows_and_never_repeats_it() {
    let item = |kind: &str, text: &str| json!({"type": kind, "item": {"id": "item_0", "type": "agent_message", "text": text}});
    let input = lines(&[
        item("item.started", "Look"),
        item("item.updated", "Looking at"),
        item("item.updated", "Looking at"),
        item("item.completed", "Looking at the tests."),
        json!({"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": "Done."}}),
    ]);
    let s = feed(&input, None, &[]);
    let texts = of_type(&s, DocumentType::Text);
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].text(), "Looking at the tests.\n\nDone.");
}

/// A Gemini CLI line whose field has another type than Gemini CLI's is one error
/// document naming the field, where the line was; the lines around it are read as before.
#[test]
fn gemini_cli_line_with_a_field_of_the_wrong_type_is_an_error_naming_it() {
    let msg = |content: Value| json!({"type": "message", "role": "assistant", "content": content, "delta": true});
    let input = lines(&[
        json!({"type": "init", "session_id": "s", "model": "m"}),
        msg(json!("Before.")),
        msg(json!(["x"])),
        json!({"type": "tool_result", "tool_id": "1", "error": "failed"}),
        json!({"type": "result", "status": "success", "stats": {"duration_ms": "5"}}),
        msg(json!(" After.")),
        json!({"type": "result", "status": "success"}),
    ]);
    let s = feed(&input, Some(Format::GeminiCliStreamJson), &[]);
    assert_errors_at(
        &error_details(s.conversation()),
        &[
            (3, "field `content` should be a string, found an array"),
            (4, "field `error` should be an object, found a string"),
            (
                5,
                "field `duration_ms` should be a non-negative integer, found a string",
            ),
        ],
    );
    assert_eq!(texts(s.conversation()).concat(), "Before. After.");

    // Gemini CLI's `json` output: the object, unread, is an error; then the response it
    // would have ended is cut off.
    let input = lines(&[json!({"session_id": "s", "response": "Hi.", "warnings": ["w", 3]})]);
    let s = feed(&input, Some(Format::GeminiCliJson), &[]);
    let errors = error_details(s.conversation());
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains("an element of `warnings` should be a string, found a number"),
        "{}",
        errors[0]
    );
}

/// A line whose field has another type than Codex's (the formats read lines by their
/// fields, `src/formats/fields.rs`) is one error document naming the field, where the
/// line was; the lines around it are read as before.
#[test]
fn codex_exec_line_with_a_field_of_the_wrong_type_is_an_error_naming_it() {
    let input = lines(&[
        json!({"type": "turn.started"}),
        json!({"type": "item.completed", "item": {"id": "item_0", "type": "agent_message", "text": "Before."}}),
        json!({"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": 5}}),
        json!({"type": "item.completed", "item": {"id": "item_2", "type": "todo_list", "items": ["a"]}}),
        json!({"type": "item.completed", "item": {"id": "item_3", "type": "agent_message", "text": "After."}}),
        json!({"type": "turn.completed"}),
    ]);
    let s = feed(&input, None, &[]);
    assert_errors_at(
        &error_details(s.conversation()),
        &[
            (3, "field `text` should be a string, found a number"),
            (
                4,
                "an element of `items` should be an object, found a string",
            ),
        ],
    );
    let texts = of_type(&s, DocumentType::Text);
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].text(), "Before.\n\nAfter.");
}

#[test]
fn codex_exec_shows_an_error_repeated_by_turn_failed_once() {
    let input = lines(&[
        json!({"type": "turn.started"}),
        json!({"type": "error", "message": "stream disconnected"}),
        json!({"type": "turn.failed", "error": {"message": "stream disconnected"}}),
        json!({"type": "turn.started"}),
        json!({"type": "error", "message": "first"}),
        json!({"type": "turn.failed", "error": {"message": "second"}}),
    ]);
    let s = feed(&input, None, &[]);
    let errors: Vec<&str> = of_type(&s, DocumentType::Error)
        .iter()
        .map(|d| d.text())
        .collect();
    assert_eq!(errors, ["stream disconnected", "first", "second"]);
    for t in &s.conversation().turns {
        let Turn::Assistant(r) = t else { continue };
        assert_eq!(r.status, ResponseStatus::Error);
    }
}

/// The first todo list is the plan; each change of it is a todo update whose statuses
/// the plan shows.
#[test]
fn codex_exec_todo_list_is_a_live_plan() {
    let list = |kind: &str, done: [bool; 2]| {
        json!({"type": kind, "item": {"id": "item_0", "type": "todo_list", "items": [
            {"text": "a", "completed": done[0]}, {"text": "b", "completed": done[1]}]}})
    };
    let input = lines(&[
        list("item.started", [false, false]),
        list("item.updated", [true, false]),
        list("item.updated", [true, false]),
        list("item.completed", [true, true]),
    ]);
    let s = feed(&input, None, &[]);
    let plans = of_type(&s, DocumentType::Plan);
    assert_eq!(plans.len(), 1);
    let Meta::Plan(plan) = &plans[0].meta else {
        unreachable!()
    };
    let statuses: Vec<TodoStatus> = plan.todos.iter().map(|t| t.status).collect();
    assert_eq!(statuses, [TodoStatus::Completed, TodoStatus::Completed]);
    assert_eq!(of_type(&s, DocumentType::TodoUpdate).len(), 2);
}

#[test]
fn gemini_cli_does_not_repeat_a_whole_message_after_its_deltas() {
    let msg = |content: &str, delta: bool| json!({"type": "message", "timestamp": "t", "role": "assistant", "content": content, "delta": delta});
    let input = lines(&[
        json!({"type": "init", "timestamp": "t", "session_id": "s", "model": "m"}),
        msg("Hel", true),
        msg("lo", true),
        msg("Hello, world.", false),
        json!({"type": "result", "timestamp": "t", "status": "success"}),
    ]);
    let s = feed(&input, None, &[]);
    assert_eq!(of_type(&s, DocumentType::Text)[0].text(), "Hello, world.");
}

#[test]
fn gemini_cli_tools_map_like_claude_codes() {
    let tool = |name: &str, id: &str, params: Value| json!({"type": "tool_use", "timestamp": "t", "tool_name": name, "tool_id": id, "parameters": params});
    let input = lines(&[
        json!({"type": "init", "timestamp": "t", "session_id": "s", "model": "m"}),
        tool(
            "run_shell_command",
            "1",
            json!({"command": "ls", "dir_path": "/w"}),
        ),
        tool(
            "replace",
            "2",
            json!({"file_path": "a.rs", "old_string": "a", "new_string": "b"}),
        ),
        tool(
            "write_file",
            "3",
            json!({"file_path": "b.rs", "content": "x"}),
        ),
        tool(
            "write_todos",
            "4",
            json!({"todos": [{"description": "t", "status": "pending"}]}),
        ),
        tool(
            "write_todos",
            "5",
            json!({"todos": [{"description": "t", "status": "completed"}]}),
        ),
        tool("google_web_search", "6", json!({"query": "q"})),
    ]);
    let s = feed(&input, None, &[]);
    let types: Vec<DocumentType> = docs(&s).iter().map(|d| d.doc_type()).collect();
    assert_eq!(
        types,
        [
            DocumentType::TerminalCommand,
            DocumentType::FileEdit,
            DocumentType::FileEdit,
            DocumentType::Plan,
            DocumentType::TodoUpdate,
            DocumentType::ToolCall,
            // The stream ended without its result.
            DocumentType::Error,
        ]
    );
    let Meta::TerminalCommand(t) = &docs(&s)[0].meta else {
        unreachable!()
    };
    assert_eq!(t.working_directory.as_deref(), Some("/w"));
}

/// Mutated fixtures never panic, with each of these formats named.
#[test]
fn mutated_inputs_never_panic_with_the_format_named() {
    let inputs = support::fixture_inputs(&FORMATS);
    assert!(inputs.len() >= 12);
    support::read_mutated(&inputs, &FORMATS, b"{}[]\":,\n\r\\ax\xff0*+-@", |s| {
        render_conversation(s.conversation(), &RenderOptions::default());
    });
}

/// Issue 38: Cursor's agent transcripts record no times; the page header and the
/// Markdown export say so where the time would be, and invent none. A conversation of
/// another format that has no times just leaves the fact out.
#[test]
fn a_cursor_agent_transcript_says_its_times_are_not_recorded() {
    use docstream_html::page::page_facts;
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/cursor-agent-transcript/session.jsonl");
    let mut s = DocStream::new(docstream_core::Options::default());
    s.push(&std::fs::read(root).unwrap()).unwrap();
    s.finish().unwrap();
    let c = s.into_conversation();
    assert_eq!(c.format.as_deref(), Some("cursor-agent-transcript"));
    let facts = page_facts(&c, &RenderOptions::default());
    assert!(
        facts.contains("<dt>When</dt><dd>not recorded (the source keeps no times)</dd>"),
        "{facts}"
    );
    assert!(!facts.contains("<time"), "{facts}");
    let mut other = c.clone();
    other.format = Some("anthropic-messages".to_owned());
    assert!(!page_facts(&other, &RenderOptions::default()).contains("When"));
}
