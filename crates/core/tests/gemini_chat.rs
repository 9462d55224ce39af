//! Gemini CLI's saved chats (`gemini-cli-chat`), case by case: detection of both forms,
//! a message recorded again adding only what is new, rewinds, bad and unknown records.

use docstream_testkit as support;

use docstream_core::Format;
use serde_json::{Value, json};
use support::{feed, lines, texts};

const META: &str = r#"{"sessionId":"s-1","projectHash":"ab12","startTime":"2026-03-09T16:40:11.204Z","lastUpdated":"2026-03-09T16:40:11.204Z","kind":"main"}"#;

fn chat(records: &[Value]) -> Vec<u8> {
    let mut input = format!("{META}\n").into_bytes();
    input.extend(lines(records));
    input
}

fn user(id: &str, text: &str) -> Value {
    json!({"id": id, "timestamp": "2026-03-09T16:41:00.000Z", "type": "user", "content": [{"text": text}]})
}

fn conversation(input: &[u8]) -> Value {
    let stream = feed(input, None, &[]);
    assert_eq!(
        stream.format(),
        Some(Format::GeminiCliChat),
        "{}",
        String::from_utf8_lossy(input)
    );
    serde_json::to_value(stream.conversation()).unwrap()
}

/// The metadata line, and the legacy whole record (pretty or on one line), are Gemini
/// CLI chats; a Claude Code transcript line (`sessionId`, no `projectHash`) is not.
#[test]
fn both_forms_are_detected_from_their_first_record() {
    let whole = json!({"sessionId": "s", "projectHash": "h", "startTime": "t", "lastUpdated": "t",
        "messages": [{"id": "u", "timestamp": "t", "type": "user", "content": "Hi"}]});
    for input in [
        format!("{META}\n").into_bytes(),
        serde_json::to_vec_pretty(&whole).unwrap(),
        serde_json::to_vec(&whole).unwrap(),
    ] {
        let text = String::from_utf8_lossy(&input).into_owned();
        assert_eq!(
            feed(&input, None, &[]).format(),
            Some(Format::GeminiCliChat),
            "{text}"
        );
    }
    let claude = br#"{"type":"user","sessionId":"s","uuid":"u","parentUuid":null,"message":{"role":"user","content":"Hi"}}"#;
    assert_eq!(
        feed(claude, None, &[]).format(),
        Some(Format::ClaudeCodeTranscript)
    );
}

/// The CLI appends a message again, whole, when its tokens or tool calls come: the text
/// and the calls show once, the tokens count once, and a call that ran later ends then.
#[test]
fn a_message_recorded_again_adds_only_what_is_new() {
    let call = |status: &str| {
        json!({"id": "c1", "name": "run_shell_command", "args": {"command": "ls"}, "status": status,
            "timestamp": "t", "result": if status == "success" {
                json!([{"functionResponse": {"id": "c1", "name": "run_shell_command", "response": {"output": "Output: a.txt\nProcess Group PGID: 1"}}}])
            } else { Value::Null }, "resultDisplay": if status == "success" { json!("a.txt") } else { Value::Null }})
    };
    let g = |extra: Value| {
        let mut m = json!({"id": "g1", "timestamp": "2026-03-09T16:41:01.000Z", "type": "gemini",
            "content": "Listing.", "model": "gemini-2.5-pro", "thoughts": [], "tokens": null});
        m.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        m
    };
    let tokens =
        json!({"input": 100, "output": 10, "cached": 40, "thoughts": 5, "tool": 0, "total": 115});
    let input = chat(&[
        user("u1", "List the files"),
        g(json!({})),
        json!({"$set": {"lastUpdated": "t"}}),
        g(json!({"tokens": tokens})),
        g(json!({"tokens": tokens, "toolCalls": [call("executing")]})),
        g(json!({"tokens": tokens, "toolCalls": [call("success")]})),
    ]);
    let stream = feed(&input, None, &[]);
    assert_eq!(texts(stream.conversation()), ["Listing."]);
    let c = conversation(&input);
    let response = &c["turns"][1];
    assert_eq!(response["usage"]["totalTokens"], 115, "{response:#}");
    assert_eq!(response["usage"]["cacheReadTokens"], 40, "{response:#}");
    let docs = response["documents"].as_array().unwrap();
    let runs: Vec<&Value> = docs
        .iter()
        .filter(|d| d["type"] == "terminal_command")
        .collect();
    assert_eq!(runs.len(), 1, "{docs:#?}");
    assert_eq!(runs[0]["metadata"]["status"], "success", "{:#}", runs[0]);
    assert_eq!(runs[0]["metadata"]["output"], "a.txt", "{:#}", runs[0]);
}

/// A call saved while it still waited (`awaiting_approval`) has no result recorded:
/// neutral, not an error.
#[test]
fn a_call_saved_before_it_ran_has_no_result_recorded() {
    let input = chat(&[
        user("u1", "Delete the build folder"),
        json!({"id": "g1", "timestamp": "t", "type": "gemini", "content": "",
            "toolCalls": [{"id": "c1", "name": "run_shell_command", "args": {"command": "rm -rf build"},
                "status": "awaiting_approval", "timestamp": "t"}]}),
    ]);
    let c = conversation(&input);
    let run = &c["turns"][1]["documents"][0];
    assert_eq!(run["type"], "terminal_command", "{run:#}");
    assert_eq!(run["metadata"]["status"], "no_result", "{run:#}");
    assert_eq!(c["turns"][1]["status"], "completed", "{c:#}");
}

/// `$rewindTo` an id never read: the CLI clears the whole history, so every turn before
/// is rewound; `$rewindTo` a known prompt rewinds from that prompt on.
#[test]
fn rewinds_fork_where_the_cli_says() {
    let answer = |id: &str, text: &str| json!({"id": id, "timestamp": "t", "type": "gemini", "content": text});
    let input = chat(&[
        user("u1", "One"),
        answer("g1", "First."),
        user("u2", "Two"),
        answer("g2", "Second."),
        json!({"$rewindTo": "u2"}),
        user("u3", "Two, again"),
        answer("g3", "Second, again."),
        json!({"$rewindTo": "gone"}),
        user("u4", "From the start"),
    ]);
    let c = conversation(&input);
    let rewound: Vec<(String, Value)> = c["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let said = t["content"]
                .as_str()
                .map(str::to_owned)
                .unwrap_or_else(|| t["documents"][0]["content"].as_str().unwrap().to_owned());
            (said, t["rewound"].clone())
        })
        .collect();
    let fork = |replaced_by: u64| json!({"replacedBy": replaced_by, "fork": true});
    let not_fork = |replaced_by: u64| json!({"replacedBy": replaced_by, "fork": false});
    assert_eq!(
        rewound,
        [
            ("One".to_owned(), fork(6)),
            ("First.".to_owned(), not_fork(6)),
            ("Two".to_owned(), fork(4)),
            ("Second.".to_owned(), not_fork(4)),
            ("Two, again".to_owned(), not_fork(6)),
            ("Second, again.".to_owned(), not_fork(6)),
            ("From the start".to_owned(), Value::Null),
        ],
        "{c:#}"
    );
}

/// The turns' first words and rewind marks.
fn marks(c: &Value) -> Vec<(String, Value)> {
    c["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let said = t["content"]
                .as_str()
                .map(str::to_owned)
                .or_else(|| t["documents"][0]["content"].as_str().map(str::to_owned))
                .unwrap_or_default();
            (said, t["rewound"].clone())
        })
        .collect()
}

/// A prompt the user stopped (or whose request failed) is rolled back: the CLI writes a
/// `$set` whose `messages` is its history without it (`updateMessagesFromHistory` after
/// `rollback`). The turns it dropped are folded and marked at their fork, as for
/// `$rewindTo`, with the "Request cancelled." line the CLI records after the
/// checkpoint; the prompt after them replaces them.
#[test]
fn a_checkpoint_that_drops_the_last_prompt_rewinds_it() {
    let answer = |id: &str, text: &str| json!({"id": id, "timestamp": "t", "type": "gemini", "content": text});
    let ctx = user(
        "ctx",
        "<session_context>\nToday is Monday.\n</session_context>",
    );
    let cancelled =
        json!({"id": "i1", "timestamp": "t", "type": "info", "content": "Request cancelled."});
    let input = chat(&[
        ctx.clone(),
        // The start-up sync: nothing dropped.
        json!({"$set": {"messages": [ctx.clone()]}}),
        user("u1", "One"),
        answer("g1", "First."),
        user("u2", "Two"),
        answer("g2", "Second, half"),
        json!({"$set": {"messages": [ctx.clone(), user("u1", "One"), answer("g1", "First.")], "lastUpdated": "t"}}),
        cancelled,
        json!({"$set": {"lastUpdated": "t"}}),
        user("u3", "Two, smaller"),
        answer("g3", "Second."),
        // A later sync leaves the info line out (it is not history): no rollback.
        json!({"$set": {"messages": [ctx, user("u1", "One"), answer("g1", "First."), user("u3", "Two, smaller"), answer("g3", "Second.")]}}),
    ]);
    let c = conversation(&input);
    let fork = |replaced_by: u64| json!({"replacedBy": replaced_by, "fork": true});
    let not_fork = |replaced_by: u64| json!({"replacedBy": replaced_by, "fork": false});
    assert_eq!(
        marks(&c),
        [
            ("One".to_owned(), Value::Null),
            ("First.".to_owned(), Value::Null),
            ("Two".to_owned(), fork(4)),
            ("Second, half".to_owned(), not_fork(4)),
            ("Two, smaller".to_owned(), Value::Null),
            ("Second.".to_owned(), Value::Null),
        ],
        "{c:#}"
    );
    // The cancelled line stays with the branch it ended.
    let branch = c["turns"][3]["documents"].to_string();
    assert!(branch.contains("Request cancelled."), "{c:#}");
    // Any chunking, the same.
    for (name, cuts) in support::chunkings(input.len()) {
        let json = support::json(&feed(&input, None, &cuts));
        assert_eq!(
            json,
            support::json(&feed(&input, None, &[])),
            "chunked {name}"
        );
    }
}

/// Checkpoints that drop nothing the CLI keeps are no rollback: a stopped first prompt
/// with nothing after it is rewound at the end of the file; a compression (the summary
/// only in the checkpoint) and a history reloaded without a command line (`/…`) or an
/// empty answer leave every turn as it was.
#[test]
fn only_a_dropped_tail_of_the_history_is_a_rollback() {
    let answer = |id: &str, text: &str| json!({"id": id, "timestamp": "t", "type": "gemini", "content": text});
    let stopped = chat(&[user("u1", "One"), json!({"$set": {"messages": []}})]);
    let c = conversation(&stopped);
    assert_eq!(
        marks(&c),
        [("One".to_owned(), json!({"replacedBy": 1, "fork": true}))],
        "{c:#}"
    );
    let snapshot = "<state_snapshot>\n<overall_goal>Ship it.</overall_goal>\n</state_snapshot>";
    let compressed = chat(&[
        user("u1", "One"),
        answer("g1", "First."),
        json!({"$set": {"messages": [user("s", snapshot), answer("ack", "Got it. Thanks for the additional context!")]}}),
    ]);
    let reloaded = chat(&[
        user("u1", "One"),
        answer("g1", "First."),
        user("c1", "/stats"),
        answer("g2", ""),
        json!({"$set": {"messages": [user("u1", "One"), answer("g1", "First.")]}}),
    ]);
    for input in [compressed, reloaded] {
        let c = conversation(&input);
        assert!(
            marks(&c).iter().all(|(_, m)| m.is_null()),
            "{}\n{c:#}",
            String::from_utf8_lossy(&input)
        );
    }
}

/// A line that is not JSON, and one whose field has the wrong type, are error documents
/// that say which line; the records after them are read; an unknown record type and an
/// unknown message type are counted, not errors.
#[test]
fn bad_lines_are_errors_and_unknown_records_are_counted() {
    let mut input = chat(&[user("u1", "Hello")]);
    input.extend_from_slice(b"{\"id\":\"g1\",\"type\":\"gemini\",\"content\":\"cut\n");
    input.extend(lines(&[
        json!({"id": "g2", "type": "gemini", "content": "x", "toolCalls": "not a list"}),
        json!({"$memoryScratchpad": {"version": 1}}),
        json!({"id": "x1", "type": "compression_marker", "content": "?"}),
        json!({"id": "g3", "type": "gemini", "content": "Still read."}),
    ]));
    let stream = feed(&input, None, &[]);
    let c = stream.conversation();
    assert_eq!(texts(c), ["Still read."]);
    support::assert_errors_at(
        &support::error_details(c),
        &[(3, "EOF while parsing"), (4, "toolCalls")],
    );
    assert_eq!(c.stats.unknown_events, 2, "{:#?}", c.stats);
}

/// A prompt as typed (`displayContent`) is shown over the expanded `content`; the
/// context the CLI sets up (`<session_context>`) and the tool results' `user` records
/// are not prompts.
#[test]
fn only_what_the_user_typed_is_a_prompt() {
    let input = chat(&[
        json!({"$set": {"messages": [user("env", "<session_context>\nThis is the Gemini CLI.\n</session_context>")]}}),
        json!({"id": "u1", "timestamp": "t", "type": "user",
            "content": [{"text": "Explain @a.ts\n--- Content from referenced files ---\n..."}],
            "displayContent": [{"text": "Explain @a.ts"}]}),
        json!({"id": "r1", "timestamp": "t", "type": "user",
            "content": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "x"}}}]}),
    ]);
    let c = conversation(&input);
    let prompts: Vec<&Value> = c["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["role"] == "user")
        .map(|t| &t["content"])
        .collect();
    assert_eq!(prompts, [&json!("Explain @a.ts")], "{c:#}");
}

/// A sub-agent's own chat (`"kind": "subagent"`) is prompted by the main agent, not by
/// the person who ran the CLI.
#[test]
fn a_sub_agents_chat_is_prompted_by_its_parent_agent() {
    let meta = META.replace("\"main\"", "\"subagent\"");
    let mut input = format!("{meta}\n").into_bytes();
    input.extend(lines(&[user("u1", "Survey the tests folder")]));
    let c = conversation(&input);
    assert_eq!(c["turns"][0]["from"], "parent_agent", "{c:#}");
    let main = conversation(&chat(&[user("u1", "Survey the tests folder")]));
    assert_eq!(main["turns"][0]["from"], Value::Null, "{main:#}");
}

/// A compression: the summary is a compaction, not a prompt; the acknowledgement and
/// the kept turns the CLI records again (as lines before the checkpoint, or only in the
/// checkpoint) are not shown twice; what follows the checkpoint is read again.
#[test]
fn a_compression_is_a_compaction_and_nothing_shows_twice() {
    let snapshot = "<state_snapshot>\n<overall_goal>Ship it.</overall_goal>\n</state_snapshot>";
    let ack = json!({"id": "ack", "timestamp": "t", "type": "gemini",
        "content": [{"text": "Got it. Thanks for the additional context!"}]});
    let kept = json!({"id": "kept", "timestamp": "t", "type": "gemini", "content": [{"text": "Shipped."}]});
    let before = [
        user("u1", "Ship it"),
        json!({"id": "g1", "timestamp": "t", "type": "gemini", "content": "Shipped."}),
    ];
    let after = [
        user("u2", "Next"),
        json!({"id": "g2", "timestamp": "t", "type": "gemini", "content": "Next done."}),
    ];
    let lines_first = [
        user("s", snapshot),
        ack.clone(),
        kept.clone(),
        json!({"$set": {"messages": [user("s", snapshot), ack.clone(), kept.clone()]}}),
    ];
    let checkpoint_only =
        [json!({"$set": {"messages": [user("s", snapshot), ack.clone(), kept.clone()]}})];
    for compression in [&lines_first[..], &checkpoint_only[..]] {
        let records: Vec<Value> = before
            .iter()
            .chain(compression)
            .chain(&after)
            .cloned()
            .collect();
        let input = chat(&records);
        let stream = feed(&input, None, &[]);
        assert_eq!(
            texts(stream.conversation()),
            ["Shipped.", "Next done."],
            "{}",
            String::from_utf8_lossy(&input)
        );
        let c = conversation(&input);
        let compaction = &c["turns"][2];
        assert!(compaction["compaction"].is_object(), "{c:#}");
        assert_eq!(compaction["content"], snapshot, "{c:#}");
        assert_eq!(c["turns"][3]["content"], "Next", "{c:#}");
    }
}
