//! Round trips between the Anthropic and the OpenAI message forms, on the histories in
//! `tests/convert/`: Anthropic → OpenAI → Anthropic keeps the text, the tool calls and
//! their results; what OpenAI has no place for (signatures, `redacted_thinking`,
//! `is_error`, block-shaped results) is the only loss.

use std::path::Path;

use docstream_convert::messages::{to_anthropic, to_openai};
use docstream_convert::request::{Dialect, convert, detect};
use serde_json::{Value, json};

fn load(name: &str) -> Value {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/convert")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The facts a round trip must keep, message by message: role, text, thinking, tool
/// calls (id, name, input) and tool results (id, text).
fn facts(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .map(|m| {
            let blocks = match &m["content"] {
                Value::String(s) => vec![json!({"text": s})],
                Value::Array(blocks) => blocks
                    .iter()
                    .filter_map(|b| match b["type"].as_str() {
                        Some("text") => Some(json!({"text": b["text"]})),
                        Some("thinking") => Some(json!({"thinking": b["thinking"]})),
                        Some("tool_use") => Some(json!({
                            "call": [b["id"].clone(), b["name"].clone(), b["input"].clone()]
                        })),
                        Some("tool_result") => Some(json!({
                            "result": [b["tool_use_id"].clone(), result_text(&b["content"])]
                        })),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            json!({"role": m["role"], "blocks": blocks})
        })
        .collect()
}

fn result_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
        _ => String::new(),
    }
}

fn array(v: &Value) -> &[Value] {
    v.as_array().expect("a message array")
}

#[test]
fn anthropic_history_with_tools_round_trips_exactly() {
    let original = load("anthropic_tools.json");
    let openai = to_openai(array(&original));
    // Every tool call became a `tool_calls` entry and every result a `tool` message.
    let calls: Vec<&Value> = openai
        .iter()
        .flat_map(|m| m["tool_calls"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(calls.len(), 3);
    assert_eq!(
        calls[1]["function"]["arguments"],
        r#"{"path":"/go.mod","limit":20}"#
    );
    let tool_messages: Vec<&Value> = openai.iter().filter(|m| m["role"] == "tool").collect();
    assert_eq!(tool_messages.len(), 3);
    assert_eq!(tool_messages[1]["tool_call_id"], "toolu_02def");
    assert_eq!(
        openai[6]["reasoning_content"],
        "go test ./... covers every package."
    );
    assert_eq!(to_anthropic(&openai), array(&original));
}

#[test]
fn lossy_parts_go_and_text_calls_results_stay() {
    let original = load("anthropic_lossy.json");
    let back = to_anthropic(&to_openai(array(&original)));
    assert_eq!(facts(&back), facts(array(&original)));
    // What OpenAI has no field for is dropped, as docs/formats.md says.
    let text = serde_json::to_string(&back).unwrap();
    assert!(!text.contains("signature"), "{text}");
    assert!(!text.contains("redacted_thinking"), "{text}");
    assert!(!text.contains("is_error"), "{text}");
    assert_eq!(back[2]["content"][0]["content"], "error: file not found");
}

#[test]
fn openai_history_round_trips_exactly() {
    let original = load("openai_tools.json");
    assert_eq!(detect(&original), Ok(Some(Dialect::OpenAi)));
    let anthropic = convert(&original, Dialect::Anthropic).unwrap();
    assert_eq!(detect(&anthropic), Ok(Some(Dialect::Anthropic)));
    assert_eq!(
        anthropic[1]["content"][0],
        json!({"type": "thinking", "thinking": "The user named /src/main.go earlier."})
    );
    assert_eq!(
        anthropic[2]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "call_abc123", "content": "File content here..."})
    );
    assert_eq!(convert(&anthropic, Dialect::OpenAi).unwrap(), original);
}

#[test]
fn a_request_round_trips_with_system_tools_and_choice() {
    let original = load("anthropic_request.json");
    assert_eq!(detect(&original), Ok(Some(Dialect::Anthropic)));
    let openai = convert(&original, Dialect::OpenAi).unwrap();
    assert_eq!(
        openai["messages"][0],
        json!({"role": "system", "content": "You are a careful coding agent."})
    );
    assert_eq!(
        openai["tool_choice"],
        json!({"type": "function", "function": {"name": "read_file"}})
    );
    assert_eq!(openai["tools"][0]["type"], "function");
    assert_eq!(
        openai["tools"][0]["function"]["parameters"],
        original["tools"][0]["input_schema"]
    );
    assert_eq!(openai["max_tokens"], 1024);
    let back = convert(&openai, Dialect::Anthropic).unwrap();
    assert_eq!(back, original);
}
