//! The provider and Claude Code adapters, case by case: detection of each form, the
//! cases the fixtures show named as tests, and no panic on mutated input with the
//! format named.

use docstream_testkit as support;

use docstream_core::Format;
use docstream_core::model::{Conversation, Meta, ResponseStatus, Turn};
use serde_json::json;
use support::{assert_errors_at, error_details, feed, json, lines, texts};

fn format_of(input: &str) -> Option<Format> {
    feed(input.as_bytes(), None, &[]).format()
}

fn sse(events: &[serde_json::Value]) -> String {
    events.iter().map(|e| format!("data: {e}\n\n")).collect()
}

fn error_texts(c: &Conversation) -> Vec<String> {
    c.documents()
        .filter(|d| matches!(d.meta, Meta::Error(_)))
        .map(|d| d.text().to_owned())
        .collect()
}

#[test]
fn each_form_is_detected() {
    let cases = [
        (
            r#"[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]}]"#,
            Format::AnthropicMessages,
        ),
        (
            r#"{"model":"m","messages":[{"role":"user","content":"hi"}]}"#,
            Format::AnthropicMessages,
        ),
        (
            r#"{"id":"msg_1","type":"message","role":"assistant","content":[]}"#,
            Format::AnthropicMessages,
        ),
        (
            r#"[{"role":"system","content":"s"},{"role":"user","content":"hi"}]"#,
            Format::OpenaiMessages,
        ),
        (
            r#"[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"c","content":"x"}]"#,
            Format::OpenaiMessages,
        ),
        (
            r#"{"object":"chat.completion","choices":[]}"#,
            Format::OpenaiMessages,
        ),
        (
            "data: {\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n",
            Format::OpenaiStream,
        ),
        (
            "{\"object\":\"chat.completion.chunk\",\"choices\":[]}\n{}\n",
            Format::OpenaiStream,
        ),
        (
            "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{}}\n\n",
            Format::AnthropicStream,
        ),
        ("data: {\"type\":\"ping\"}\n\n", Format::AnthropicStream),
        ("data: {\"candidates\":[]}\n\n", Format::GeminiStream),
        (
            r#"[{"candidates":[]},{"candidates":[]}]"#,
            Format::GeminiStream,
        ),
        (
            "{\"type\":\"system\",\"subtype\":\"init\",\"uuid\":\"u\",\"session_id\":\"s\"}\n{}\n",
            Format::ClaudeCodeStreamJson,
        ),
        (
            "{\"type\":\"summary\",\"summary\":\"s\",\"leafUuid\":\"u\"}\n{}\n",
            Format::ClaudeCodeTranscript,
        ),
        (
            "{\"type\":\"user\",\"sessionId\":\"s\",\"parentUuid\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{}\n",
            Format::ClaudeCodeTranscript,
        ),
        // The Cursor CLI stream still reads as itself.
        (
            "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}\n{}\n",
            Format::CursorStreamJson,
        ),
    ];
    for (input, format) in cases {
        assert_eq!(format_of(input), Some(format), "{input}");
    }
}

#[test]
fn named_stream_formats_detect_their_framing() {
    // Naming a format that comes as SSE or NDJSON leaves the framing to the bytes.
    let lines = "{\"object\":\"chat.completion.chunk\",\"id\":\"a\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n";
    let as_sse = format!("data: {}\n\ndata: [DONE]\n\n", lines.trim_end());
    let named = |input: &str| {
        let s = feed(input.as_bytes(), Some(Format::OpenaiStream), &[]);
        assert_eq!(s.format(), Some(Format::OpenaiStream));
        s.into_conversation()
    };
    for input in [lines, as_sse.as_str()] {
        let c = named(input);
        assert!(error_texts(&c).is_empty(), "{input}: {:?}", error_texts(&c));
        let texts: Vec<_> = c.documents().map(|d| d.text().to_owned()).collect();
        assert_eq!(texts, ["hi"], "{input}");
    }
}

fn anthropic_start(id: &str) -> serde_json::Value {
    json!({"type": "message_start", "message": {"id": id, "model": "m", "usage": {"input_tokens": 3}}})
}

fn anthropic_text(text: &str) -> Vec<serde_json::Value> {
    vec![
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        json!({"type": "content_block_stop", "index": 0}),
    ]
}

#[test]
fn a_repeated_message_start_adds_nothing() {
    let mut once = vec![anthropic_start("msg_1")];
    once.extend(anthropic_text("Hello"));
    once.push(json!({"type": "message_stop"}));
    let mut twice = once.clone();
    twice.insert(1, anthropic_start("msg_1"));
    // A proxy may also repeat it mid-message.
    twice.insert(4, anthropic_start("msg_1"));
    let a = feed(sse(&once).as_bytes(), None, &[]).into_conversation();
    let b = feed(sse(&twice).as_bytes(), None, &[]).into_conversation();
    assert_eq!(a.turns, b.turns);
    assert_eq!(b.turns.len(), 1);
    assert_eq!(b.documents().count(), 1);
}

#[test]
fn bad_tool_input_is_an_error_and_reading_goes_on() {
    let events = vec![
        anthropic_start("msg_1"),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "lookup", "input": {}}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"q\": tru"}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": "after"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "message_stop"}),
    ];
    let c = feed(sse(&events).as_bytes(), None, &[]).into_conversation();
    let errors = error_texts(&c);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("t1 (lookup)"), "{}", errors[0]);
    assert!(errors[0].contains("line 8"), "says where: {}", errors[0]);
    let Turn::Assistant(r) = &c.turns[0] else {
        panic!("a response")
    };
    assert_eq!(r.status, ResponseStatus::Completed);
    let Meta::ToolCall(t) = &r.documents[0].meta else {
        panic!("the call is kept")
    };
    assert_eq!(t.arguments, json!("{\"q\": tru"), "its input kept as text");
    assert_eq!(r.documents.last().unwrap().text(), "after");
}

#[test]
fn openai_names_are_never_overwritten_by_empty_pieces() {
    let chunk = |delta: serde_json::Value, finish: Option<&str>| json!({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    let events = vec![
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "call_1", "function": {"name": "Bash", "arguments": ""}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "id": "", "function": {"name": "", "arguments": "{\"command\":"}}]}),
            None,
        ),
        chunk(
            json!({"tool_calls": [{"index": 0, "function": {"name": null, "arguments": "\"ls\"}"}}]}),
            None,
        ),
        chunk(json!({}), Some("tool_calls")),
    ];
    let mut input = sse(&events);
    input.push_str("data: [DONE]\n\n");
    let c = feed(input.as_bytes(), None, &[]).into_conversation();
    let docs: Vec<_> = c.documents().collect();
    assert_eq!(docs.len(), 1);
    let Meta::TerminalCommand(t) = &docs[0].meta else {
        panic!("Bash is a terminal run: {:?}", docs[0].meta)
    };
    assert_eq!(t.command, "ls");
    assert_eq!(t.tool_call_id.as_deref(), Some("call_1"));
}

/// A chunk whose field has another type than OpenAI's is one error document naming the
/// field; the chunks around it are read as before (the formats read payloads by their
/// fields, `src/formats/fields.rs`), and so is a message history.
#[test]
fn an_openai_field_of_the_wrong_type_is_an_error_naming_it() {
    let chunk = |delta: serde_json::Value| json!({"id": "c", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta}]});
    let mut input = sse(&[
        chunk(json!({"content": "Before "})),
        chunk(json!({"content": 5})),
        chunk(json!({"tool_calls": ["x"]})),
        chunk(json!({"content": "after."})),
        json!({"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
    ]);
    input.push_str("data: [DONE]\n\n");
    let c = feed(input.as_bytes(), None, &[]).into_conversation();
    let details = error_details(&c);
    assert_eq!(details.len(), 2, "{details:?}");
    assert!(
        details[0].contains("field `content` should be a string, found a number"),
        "{}",
        details[0]
    );
    assert!(
        details[1].contains("an element of `tool_calls` should be an object, found a string"),
        "{}",
        details[1]
    );
    let text: Vec<&str> = c
        .documents()
        .filter(|d| matches!(d.meta, Meta::Text(_)))
        .map(|d| d.text())
        .collect();
    assert_eq!(text, ["Before after."]);

    let history =
        r#"[{"role":"user","content":"Hi"},{"role":"assistant","tool_calls":{"id":"x"}}]"#;
    let c = feed(history.as_bytes(), Some(Format::OpenaiMessages), &[]).into_conversation();
    let details = error_details(&c);
    assert_eq!(details.len(), 1, "{details:?}");
    assert!(
        details[0].contains("field `tool_calls` should be an array, found an object"),
        "{}",
        details[0]
    );
}

#[test]
fn an_openai_stream_without_finish_is_cut_off() {
    let input = "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"par\"}}]}\n\n";
    let c = feed(input.as_bytes(), None, &[]).into_conversation();
    let Turn::Assistant(r) = &c.turns[0] else {
        panic!("a response")
    };
    assert_eq!(r.status, ResponseStatus::Error);
    assert_eq!(error_texts(&c), ["The response was cut off."]);
}

#[test]
fn claude_code_sidechain_lines_are_left_out() {
    let lines = [
        json!({"type": "user", "sessionId": "s", "uuid": "1", "message": {"role": "user", "content": "main"}}),
        json!({"type": "user", "sessionId": "s", "uuid": "2", "isSidechain": true, "message": {"role": "user", "content": "sub-agent"}}),
        json!({"type": "assistant", "sessionId": "s", "uuid": "3", "message": {"id": "m", "role": "assistant", "content": [{"type": "text", "text": "done"}]}}),
    ];
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let c = feed(input.as_bytes(), None, &[]).into_conversation();
    assert_eq!(c.turns.len(), 2);
    let Turn::Assistant(r) = &c.turns[1] else {
        panic!("a response")
    };
    assert_eq!(
        r.status,
        ResponseStatus::Completed,
        "a transcript ends complete"
    );
    assert_eq!(r.documents[0].text(), "done");
}

/// A Claude Code line whose field has another type than Claude Code's (the formats read
/// lines by their fields, `src/formats/fields.rs`) is one error document naming the
/// field, where the line was; the lines around it are read as before. So is an Anthropic
/// event inside a `stream_event` line.
#[test]
fn claude_code_line_with_a_field_of_the_wrong_type_is_an_error_naming_it() {
    let assistant = |id: &str, text: &str| json!({"type": "assistant", "session_id": "s", "message": {"id": id, "role": "assistant", "content": [{"type": "text", "text": text}]}});
    let input = lines(&[
        json!({"type": "system", "subtype": "init", "session_id": "s", "model": "m"}),
        json!({"type": "user", "session_id": "s", "message": {"role": "user", "content": "Go."}}),
        assistant("m1", "Before."),
        json!({"type": "assistant", "session_id": "s", "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "lost"}], "usage": {"input_tokens": "3"}}}),
        json!({"type": "user", "session_id": "s", "isSidechain": "no", "message": {"role": "user", "content": "lost"}}),
        json!({"type": "stream_event", "session_id": "s", "event": {"type": "content_block_delta", "index": "0", "delta": {"type": "text_delta", "text": "lost"}}}),
        assistant("m3", "After."),
        json!({"type": "result", "subtype": "success", "session_id": "s", "is_error": false, "result": "After."}),
    ]);
    let c = feed(&input, Some(Format::ClaudeCodeStreamJson), &[]).into_conversation();
    let errors = error_details(&c);
    assert_eq!(errors.len(), 3, "{errors:?}");
    for (error, (line, field, expected)) in errors.iter().zip([
        (4, "input_tokens", "a non-negative integer, found a string"),
        (5, "isSidechain", "a boolean, found a string"),
        (6, "index", "a non-negative integer, found a string"),
    ]) {
        assert!(
            error.contains(&format!("line {line}"))
                && error.contains(&format!("field `{field}` should be {expected}")),
            "{error}"
        );
    }
    let texts: Vec<_> = c
        .documents()
        .filter(|d| !matches!(d.meta, Meta::Error(_)))
        .map(|d| d.text().to_owned())
        .collect();
    assert!(!texts.iter().any(|t| t.contains("lost")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("Before.")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("After.")), "{texts:?}");
    let Some(Turn::Assistant(r)) = c.turns.last() else {
        panic!("a response")
    };
    assert_eq!(r.status, ResponseStatus::Completed);
}

/// The same for Anthropic's streamed events and a message history's content.
#[test]
fn anthropic_event_with_a_field_of_the_wrong_type_is_an_error_naming_it() {
    let mut events = vec![anthropic_start("msg_1")];
    events.extend(anthropic_text("Before. "));
    events.push(json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": 5}}));
    events.push(json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": ["lost"]}}));
    events.extend(anthropic_text("After."));
    events.push(json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": -1}}));
    events.push(json!({"type": "message_stop"}));
    let c = feed(sse(&events).as_bytes(), None, &[]).into_conversation();
    let errors = error_details(&c);
    assert_eq!(errors.len(), 3, "{errors:?}");
    for (error, (line, expected)) in errors.iter().zip([
        (10, "field `text` should be a string, found a number"),
        (12, "field `text` should be a string, found an array"),
        (
            20,
            "field `output_tokens` should be a non-negative integer, found a number",
        ),
    ]) {
        assert!(
            error.contains(&format!("line {line}")) && error.contains(expected),
            "{error}"
        );
    }
    let Turn::Assistant(r) = &c.turns[0] else {
        panic!("a response")
    };
    assert_eq!(r.status, ResponseStatus::Completed);
    let texts: Vec<_> = r.documents.iter().map(|d| d.text().to_owned()).collect();
    assert!(texts.contains(&"Before. After.".to_owned()), "{texts:?}");

    let history = json!([
        {"role": "user", "content": "Hi."},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello."}]},
        {"role": "user", "content": 7},
        {"role": "assistant", "content": [{"type": "text", "text": "Bye."}]},
    ]);
    let s = feed(
        history.to_string().as_bytes(),
        Some(Format::AnthropicMessages),
        &[],
    );
    let c = s.into_conversation();
    let errors = error_details(&c);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("field `content` should be a string or an array, found a number"),
        "{}",
        errors[0]
    );
    let texts: Vec<_> = c.documents().map(|d| d.text().to_owned()).collect();
    assert!(texts.iter().any(|t| t.contains("Hello.")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("Bye.")), "{texts:?}");
}

/// An event whose field has another type than Gemini's is one error document naming
/// the field, where the event was; the events around it are read as before.
#[test]
fn a_gemini_event_with_a_field_of_the_wrong_type_is_an_error_naming_it() {
    let text =
        |t: serde_json::Value| json!({"candidates": [{"content": {"parts": [{"text": t}]}}]});
    let c = feed(
        &lines(&[
            text(json!("Before.")),
            text(json!(5)),
            json!({"candidates": [{"content": {"parts": [{"functionCall": {"name": "f",
            "partialArgs": [{"jsonPath": "$.a", "numberValue": "1"}]}}]}}]}),
            json!({"usageMetadata": {"promptTokenCount": -1}}),
            json!({"response": {"candidates": [{"index": "0"}]}}),
            text(json!(" After.")),
            json!({"candidates": [{"finishReason": "STOP"}]}),
        ]),
        Some(Format::GeminiStream),
        &[],
    )
    .into_conversation();
    assert_errors_at(
        &error_details(&c),
        &[
            (2, "field `text` should be a string, found a number"),
            (3, "field `numberValue` should be a number, found a string"),
            (
                4,
                "field `promptTokenCount` should be a non-negative integer, found a number",
            ),
            (
                5,
                "field `index` should be a non-negative integer, found a string",
            ),
        ],
    );
    assert_eq!(texts(&c).concat(), "Before. After.");
}

/// Mutated fixtures never panic, with each of these formats named (the core's test
/// mutates them with detection).
#[test]
fn mutated_inputs_never_panic_with_the_format_named() {
    let formats = [
        Format::AnthropicMessages,
        Format::AnthropicStream,
        Format::OpenaiMessages,
        Format::OpenaiStream,
        Format::GeminiStream,
        Format::ClaudeCodeStreamJson,
        Format::ClaudeCodeTranscript,
    ];
    let inputs = support::fixture_inputs(&formats);
    assert!(inputs.len() >= formats.len());
    support::read_mutated(&inputs, &formats, b"{}[]\":,\n\r\\ax\xff0", |s| {
        json(s);
    });
}

#[test]
fn a_response_key_alone_is_not_gemini() {
    // Only `{"response": {"candidates": …}}` is Gemini's wrapper.
    let cursor = "{\"type\":\"interaction_query\",\"response\":\"approved\"}\n{}\n";
    assert_eq!(format_of(cursor), Some(Format::CursorStreamJson));
    let wrapped = "{\"response\":{\"candidates\":[]}}\n{}\n";
    assert_eq!(format_of(wrapped), Some(Format::GeminiStream));
}
