//! Recorded provider streams and Claude Code captures written by others, read in place
//! from `../shared/samples/` (skipped, saying so, when absent): each normalises with no
//! `error` document, holds the tool calls, thinking and text the capture holds, and gives
//! the same state under every chunking.

use docstream_testkit as support;

use docstream_core::Format;
use docstream_core::model::{Conversation, Document, Meta, Response, ResponseStatus, Turn};
use serde_json::{Value, json};
use support::{chunkings, feed, json};

/// The provider captures hold one SSE `data:` payload per line: each line becomes an
/// SSE event.
fn as_sse(raw: &str) -> String {
    raw.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| format!("data: {l}\n\n"))
        .collect()
}

fn docs(c: &Conversation) -> Vec<&Document> {
    c.documents().collect()
}

fn responses(c: &Conversation) -> Vec<&Response> {
    c.turns
        .iter()
        .filter_map(|t| match t {
            Turn::Assistant(r) => Some(r),
            Turn::User(_) => None,
        })
        .collect()
}

/// Asserts no `error` document and no event left not understood.
fn assert_clean(c: &Conversation, name: &str) {
    let errors: Vec<_> = c
        .documents()
        .filter(|d| matches!(d.meta, Meta::Error(_)))
        .map(|d| d.text().to_owned())
        .collect();
    assert!(errors.is_empty(), "{name}: error documents {errors:?}");
    assert_eq!(c.stats.unknown_events, 0, "{name}: events not understood");
}

fn assert_split_invariant(input: &[u8], name: &str) {
    let whole = json(&feed(input, None, &[]));
    for (how, cuts) in chunkings(input.len()) {
        assert!(
            json(&feed(input, None, &cuts)) == whole,
            "{name} fed {how} differs from whole"
        );
    }
}

fn thinking(d: &Document) -> Option<(&str, Option<&str>)> {
    match &d.meta {
        Meta::Thinking(t) => Some((d.text(), t.signature.as_deref())),
        _ => None,
    }
}

fn tool_call(d: &Document) -> Option<(&str, &str, &Value)> {
    match &d.meta {
        Meta::ToolCall(t) => Some((&t.tool_name, &t.tool_call_id, &t.arguments)),
        _ => None,
    }
}

fn texts(c: &Conversation) -> Vec<&str> {
    c.documents()
        .filter(|d| matches!(d.meta, Meta::Text(_)))
        .map(Document::text)
        .collect()
}

/// What each provider capture holds, checked against the conversation.
fn check_provider(name: &str, c: &Conversation) {
    let d = docs(c);
    let r = responses(c);
    assert_eq!(r.len(), 1, "{name}: one response");
    assert_eq!(r[0].status, ResponseStatus::Completed, "{name}");
    match name {
        "vercel-ai__anthropic-clear-thinking.1.chunks.txt" => {
            assert_eq!(c.format.as_deref(), Some("anthropic-stream"));
            assert_eq!(d.len(), 2, "{name}: thinking, text");
            let (text, signature) = thinking(d[0]).expect("thinking first");
            assert_eq!(
                text,
                "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185"
            );
            assert!(signature.is_some_and(|s| s.starts_with("EvQBCkYICxgCKkAxhD4N")));
            assert_eq!(texts(c), ["925 ÷ 5 = 185"]);
            let usage = r[0].usage.as_ref().expect("usage");
            assert_eq!((usage.prompt_tokens, usage.completion_tokens), (69, 53));
            assert_eq!(r[0].metadata.stop_reason.as_deref(), Some("end_turn"));
        }
        "vercel-ai__anthropic-clear-tool-uses.1.chunks.txt" => {
            // The capture's answer after earlier tool uses: text only.
            let t = texts(c);
            assert_eq!(t.len(), 1);
            assert!(t[0].starts_with("Here's a comparison of the weather in both cities:"));
            assert!(t[0].contains("**New York:**\n- Temperature: 65°F"));
            assert!(t[0].ends_with("San Francisco is the better choice right now."));
            assert_eq!(r[0].model, "claude-haiku-4-5-20251001");
        }
        "vercel-ai__anthropic-text.chunks.txt" => {
            assert_eq!(
                texts(c),
                [
                    "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?"
                ]
            );
        }
        "vercel-ai__deepseek-tool-call.chunks.txt" => {
            assert_eq!(c.format.as_deref(), Some("openai-stream"));
            assert_eq!(d.len(), 2, "{name}: thinking, tool call");
            assert_eq!(
                thinking(d[0]).expect("thinking").0,
                "The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to \"San Francisco\"."
            );
            let (tool, id, args) = tool_call(d[1]).expect("tool call");
            assert_eq!((tool, id), ("weather", "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF"));
            assert_eq!(args, &json!({"location": "San Francisco"}));
            let usage = r[0].usage.as_ref().expect("usage");
            assert_eq!((usage.prompt_tokens, usage.completion_tokens), (339, 83));
            assert_eq!(r[0].metadata.stop_reason.as_deref(), Some("tool_calls"));
        }
        "vercel-ai__google-tool-call.chunks.txt" => {
            assert_eq!(c.format.as_deref(), Some("gemini-stream"));
            assert_eq!(d.len(), 2, "{name}: signed thinking, tool call");
            let (text, signature) = thinking(d[0]).expect("signed thinking");
            assert_eq!(text, "", "the thoughts themselves were not sent");
            assert!(signature.is_some_and(|s| s.starts_with("EqUCCqICAb4+9vsh")));
            let (tool, _, args) = tool_call(d[1]).expect("tool call");
            assert_eq!(tool, "weather");
            assert_eq!(args, &json!({"location": "San Francisco"}));
            assert_eq!(r[0].model, "gemini-3-pro-preview");
            assert_eq!(r[0].usage.as_ref().expect("usage").total_tokens, 89);
        }
        "vercel-ai__groq-tool-call.chunks.txt" => {
            assert_eq!(c.format.as_deref(), Some("openai-stream"));
            assert_eq!(d.len(), 1);
            let (tool, id, args) = tool_call(d[0]).expect("tool call");
            assert_eq!((tool, id), ("weather", "tk85n1k4m"));
            assert_eq!(args, &json!({}));
            assert_eq!(r[0].usage.as_ref().expect("usage").total_tokens, 225);
        }
        _ => assert!(!d.is_empty(), "{name}: no documents"),
    }
}

/// The capture files of `../shared/<rel>`, sorted (at least six), or `None` after
/// saying that `what` was skipped.
fn captures(rel: &str, what: &str) -> Option<Vec<std::path::PathBuf>> {
    let Some(dir) = support::shared(rel) else {
        support::skip(what);
        return None;
    };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 6, "captures in {}", dir.display());
    Some(files)
}

#[test]
fn provider_streams_normalise_with_their_contents() {
    let Some(files) = captures("samples/provider-streams", "the recorded provider streams") else {
        return;
    };
    for path in files {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let raw = std::fs::read_to_string(&path).unwrap();
        let sse = as_sse(&raw);
        let stream = feed(sse.as_bytes(), None, &[]);
        let c = stream.conversation();
        assert_clean(c, &name);
        check_provider(&name, c);
        // The lines as they are (NDJSON) read the same.
        let lines = feed(raw.as_bytes(), None, &[]);
        assert_eq!(json(&lines), json(&stream), "{name}: NDJSON and SSE differ");
        assert_split_invariant(sse.as_bytes(), &name);
    }
}

fn terminal(d: &Document) -> Option<(&str, &str)> {
    match &d.meta {
        Meta::TerminalCommand(t) => Some((&t.command, &t.output)),
        _ => None,
    }
}

fn check_claude_code(name: &str, c: &Conversation) {
    let d = docs(c);
    match name {
        "claude-agent-sdk-gleam__golden_basic_query.ndjson" => {
            assert_eq!(c.format.as_deref(), Some("claude-code-stream-json"));
            let r = responses(c);
            assert_eq!(r.len(), 1);
            assert_eq!(r[0].status, ResponseStatus::Completed);
            assert_eq!(r[0].model, "claude-opus-4-5-20251101");
            assert_eq!(r[0].conversation_id, "1d1e46f9-35c7-4834-b529-846d5bb82288");
            assert_eq!(r[0].metadata.duration_ms, Some(2360));
            assert_eq!(texts(c), ["4"]);
        }
        "claude-agent-sdk-gleam__assistant_message.json" => {
            assert_eq!(d.len(), 1);
            assert_eq!(terminal(d[0]).expect("Bash is a terminal run").0, "ls -la");
        }
        "claude-agent-sdk-gleam__user_message.json" => {
            // A result without its call: kept as a tool call with the structured result.
            assert_eq!(d.len(), 1);
            let Meta::ToolCall(t) = &d[0].meta else {
                panic!("{name}: a tool call")
            };
            assert_eq!(t.tool_call_id, "toolu_01BeipFBP3sUY3EAwVg3qQnE");
            let data = &t.result.as_ref().expect("result").data;
            assert!(data["stdout"].as_str().unwrap().starts_with("total 1976\n"));
        }
        "claude-agent-sdk-gleam__result_success.json" => {
            assert_eq!(texts(c), ["Here are the files in the current directory."]);
            assert_eq!(responses(c)[0].metadata.duration_ms, Some(8722));
        }
        "claude-agent-sdk-gleam__system_message.json" => {
            assert!(c.turns.is_empty(), "{name}: init alone shows nothing");
        }
        "claude-code-log__test_test_data_representative_messages.jsonl" => {
            assert_eq!(c.format.as_deref(), Some("claude-code-transcript"));
            let users: Vec<&str> = c
                .turns
                .iter()
                .filter_map(|t| match t {
                    Turn::User(u) => Some(u.content.as_str()),
                    Turn::Assistant(_) => None,
                })
                .collect();
            assert_eq!(users.len(), 4);
            assert_eq!(
                users[0],
                "Hello Claude! Can you help me understand how Python decorators work?"
            );
            let code = d
                .iter()
                .find(|d| matches!(&d.meta, Meta::CodeBlock(b) if b.language == "python"))
                .expect("the fenced example is a code block");
            assert!(code.text().starts_with("def my_decorator(func):"));
            let edit = d
                .iter()
                .find_map(|d| match &d.meta {
                    Meta::FileEdit(e) => Some(e),
                    _ => None,
                })
                .expect("Edit is a file edit");
            assert_eq!(edit.file_path, "/tmp/decorator_example.py");
            // An Edit of "" into text creates the file: its lines are all new.
            assert_eq!(edit.operation, docstream_core::model::FileOperation::Create);
            let created = d
                .iter()
                .find(|d| matches!(&d.meta, Meta::FileEdit(e) if e.file_path == "/tmp/decorator_example.py"))
                .expect("the edit document");
            assert!(created.text().starts_with("def repeat(times):"));
            let run = d.iter().find_map(|d| terminal(d)).expect("Bash");
            assert_eq!(
                run,
                (
                    "python /tmp/decorator_example.py",
                    "Hello, Alice!\nHello, Alice!\nHello, Alice!"
                )
            );
            assert!(
                responses(c)
                    .iter()
                    .all(|r| r.status == ResponseStatus::Completed)
            );
        }
        _ => assert!(!c.turns.is_empty(), "{name}: nothing read"),
    }
}

#[test]
fn claude_code_captures_normalise_with_their_contents() {
    let Some(files) = captures("samples/claude-code", "the Claude Code captures") else {
        return;
    };
    for path in files {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let input = std::fs::read(&path).unwrap();
        let stream = feed(&input, None, &[]);
        assert_clean(stream.conversation(), &name);
        check_claude_code(&name, stream.conversation());
        assert_split_invariant(&input, &name);
    }
}

/// The four single messages of one session (init, the Bash call, its result, the
/// final result), as the stream-json lines they were.
#[test]
fn claude_code_single_messages_make_one_session() {
    let Some(dir) = support::shared("samples/claude-code") else {
        return support::skip("the Claude Code captures");
    };
    let mut lines = String::new();
    for part in [
        "system_message",
        "assistant_message",
        "user_message",
        "result_success",
    ] {
        let path = dir.join(format!("claude-agent-sdk-gleam__{part}.json"));
        let value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        lines.push_str(&value.to_string());
        lines.push('\n');
    }
    let stream = feed(lines.as_bytes(), None, &[]);
    assert_eq!(stream.format(), Some(Format::ClaudeCodeStreamJson));
    let c = stream.conversation();
    assert_clean(c, "session");
    let r = responses(c);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].status, ResponseStatus::Completed);
    assert_eq!(
        r[0].metadata.cwd.as_deref(),
        Some("/home/cyou/claude-agent-sdk-gleam")
    );
    let d = docs(c);
    assert_eq!(d.len(), 2, "the terminal run, then the final text");
    let (command, output) = terminal(d[0]).expect("Bash");
    assert_eq!(command, "ls -la");
    assert!(output.starts_with("total 1976\ndrwxrwxr-x  9 cyou cyou"));
    assert!(
        matches!(&d[0].meta, Meta::TerminalCommand(t) if t.status == Some(docstream_core::model::CallStatus::Success))
    );
    assert_eq!(texts(c), ["Here are the files in the current directory."]);
    assert_split_invariant(lines.as_bytes(), "session");
}
