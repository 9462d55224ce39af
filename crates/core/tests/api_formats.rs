//! The API and protocol formats (OpenAI Responses, the AI SDK UI message stream, the
//! Agent Client Protocol), case by case: detection from the first event, unknown event
//! types counted and skipped, and no panic on mutated input with the format named.

use docstream_testkit as support;

use docstream_core::Format;
use docstream_core::model::{Conversation, Meta};
use serde_json::{Value, json};
use support::{feed, json, lines, texts};

fn sse(events: &[Value]) -> Vec<u8> {
    events
        .iter()
        .map(|e| match e.get("type").and_then(Value::as_str) {
            Some(kind) if kind.starts_with("response.") => format!("event: {kind}\ndata: {e}\n\n"),
            _ => format!("data: {e}\n\n"),
        })
        .collect::<String>()
        .into_bytes()
}

fn errors(c: &Conversation) -> Vec<String> {
    c.documents()
        .filter(|d| matches!(d.meta, Meta::Error(_)))
        .map(|d| d.text().to_owned())
        .collect()
}

/// Each format is told from its first event alone, and from its first bytes: the
/// stream is cut after them and the rest pushed later.
#[test]
fn each_format_is_detected_from_its_first_event() {
    let cases: [(&[u8], Format); 7] = [
        (
            b"event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"in_progress\"}}\n\n",
            Format::OpenaiResponsesStream,
        ),
        (
            b"{\"type\":\"response.in_progress\",\"response\":{\"id\":\"resp_1\"}}\n",
            Format::OpenaiResponsesStream,
        ),
        (
            b"{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"completed\",\"output\":[]}",
            Format::OpenaiResponses,
        ),
        (b"data: {\"type\":\"start\",\"messageId\":\"m\"}\n\n", Format::AiSdkUiStream),
        (b"data: {\"type\":\"start-step\"}\n\n", Format::AiSdkUiStream),
        (b"data: {\"type\":\"data-weather\",\"data\":{}}\n\n", Format::AiSdkUiStream),
        (
            b"{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}\n",
            Format::AgentClientProtocol,
        ),
    ];
    for (input, format) in cases {
        let text = String::from_utf8_lossy(input);
        assert_eq!(feed(input, None, &[]).format(), Some(format), "{text}");
        let mut more = input.to_vec();
        more.extend_from_slice(input);
        let cut = feed(&more, None, &[input.len()]);
        assert_eq!(
            cut.format(),
            Some(format),
            "{text} (cut after the first event)"
        );
    }
}

#[test]
fn an_unknown_responses_event_is_counted_and_the_stream_goes_on() {
    let item = json!({"id": "msg_1", "type": "message", "status": "in_progress", "content": []});
    let input = sse(&[
        json!({"type": "response.created", "response": {"id": "r", "status": "in_progress"}}),
        json!({"type": "response.brand_new_event", "whatever": [1, 2]}),
        json!({"type": "response.output_item.added", "output_index": 0, "item": item}),
        json!({"type": "response.output_text.delta", "item_id": "msg_1", "content_index": 0, "delta": "Hello"}),
        json!({"type": "response.output_item.done", "output_index": 0,
               "item": {"id": "msg_1", "type": "message", "status": "completed",
                        "content": [{"type": "output_text", "text": "Hello"}],
                        "some_new_field": true}}),
        json!({"type": "response.output_item.done", "output_index": 1,
               "item": {"id": "x_1", "type": "brand_new_item"}}),
        json!({"type": "response.completed", "response": {"id": "r", "status": "completed"}}),
    ]);
    let c = feed(&input, None, &[]).into_conversation();
    assert_eq!(
        c.stats.unknown_events,
        2,
        "{}",
        String::from_utf8_lossy(&input)
    );
    assert_eq!(texts(&c), ["Hello"]);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
}

/// A text's `done` brings what its deltas left out, and nothing twice.
#[test]
fn a_responses_text_done_fills_in_missing_deltas() {
    let input = sse(&[
        json!({"type": "response.created", "response": {"id": "r", "status": "in_progress"}}),
        json!({"type": "response.output_text.delta", "item_id": "m", "content_index": 0, "delta": "Hel"}),
        json!({"type": "response.output_text.done", "item_id": "m", "content_index": 0, "text": "Hello, world"}),
        json!({"type": "response.output_item.done", "output_index": 0,
               "item": {"id": "m", "type": "message", "content": [{"type": "output_text", "text": "Hello, world"}]}}),
        json!({"type": "response.reasoning_summary_text.done", "item_id": "rs", "summary_index": 0, "text": "Thought"}),
        json!({"type": "response.output_item.done", "output_index": 1,
               "item": {"id": "rs", "type": "reasoning", "summary": [{"type": "summary_text", "text": "Thought"}]}}),
        json!({"type": "response.completed", "response": {"id": "r", "status": "completed"}}),
    ]);
    let c = feed(&input, None, &[]).into_conversation();
    assert_eq!(texts(&c), ["Hello, world"]);
    let thinking: Vec<_> = c
        .documents()
        .filter(|d| matches!(d.meta, Meta::Thinking(_)))
        .map(|d| d.text().to_owned())
        .collect();
    assert_eq!(thinking, ["Thought"]);
}

#[test]
fn an_unknown_ui_chunk_is_counted_and_done_is_not_an_error() {
    let input = [
        sse(&[
            json!({"type": "start", "messageId": "m"}),
            json!({"type": "text-start", "id": "t"}),
            json!({"type": "brand-new-chunk", "id": "t"}),
            json!({"type": "text-delta", "id": "t", "delta": "Hi"}),
            json!({"type": "text-end", "id": "t"}),
            json!({"type": "finish"}),
        ]),
        b"data: [DONE]\n\n".to_vec(),
    ]
    .concat();
    let c = feed(&input, None, &[]).into_conversation();
    assert_eq!(c.stats.unknown_events, 1);
    assert_eq!(c.stats.bad_events, 0);
    assert_eq!(texts(&c), ["Hi"]);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
}

#[test]
fn an_unknown_acp_update_or_method_is_counted_and_the_session_goes_on() {
    let update = |u: Value| json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": u}});
    let input = lines(&[
        json!({"jsonrpc": "2.0", "id": 1, "method": "session/prompt",
               "params": {"sessionId": "s", "prompt": [{"type": "text", "text": "hi"}]}}),
        update(json!({"sessionUpdate": "brand_new_update", "x": 1})),
        json!({"jsonrpc": "2.0", "method": "_vendor/notice", "params": {}}),
        update(
            json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Hello"}}),
        ),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"stopReason": "end_turn"}}),
    ]);
    let c = feed(&input, None, &[]).into_conversation();
    assert_eq!(c.stats.unknown_events, 2);
    assert_eq!(texts(&c), ["Hello"]);
    assert!(errors(&c).is_empty(), "{:?}", errors(&c));
}

/// Mutated fixtures never panic, with each of these formats named.
#[test]
fn mutated_inputs_never_panic_with_the_format_named() {
    let formats = [
        Format::OpenaiResponsesStream,
        Format::OpenaiResponses,
        Format::AiSdkUiStream,
        Format::AgentClientProtocol,
    ];
    let inputs = support::fixture_inputs(&formats);
    assert!(inputs.len() >= formats.len());
    support::read_mutated(&inputs, &formats, b"{}[]\":,\n\r\\ax\xff0", |s| {
        json(s);
    });
}
