//! Message histories between the Anthropic/Cursor form and the OpenAI form (seed 002).
//!
//! Anthropic → OpenAI: `tool_use` blocks become `tool_calls` (arguments as a JSON
//! string), `thinking` blocks `reasoning_content`, each `tool_result` block a `tool`
//! message. OpenAI → Anthropic does the reverse, gathering consecutive `tool` messages
//! into one `user` message of `tool_result` blocks. OpenAI has no place for thinking
//! signatures, `redacted_thinking` or `is_error`, so those do not survive the trip.
//!
//! ```
//! use docstream_convert::messages::{to_anthropic, to_openai};
//! use serde_json::json;
//!
//! let history = json!([{"role": "user", "content": "hi"}]);
//! let openai = to_openai(history.as_array().unwrap());
//! assert_eq!(to_anthropic(&openai), history.as_array().unwrap().clone());
//! ```

use serde_json::{Map, Value, json};

fn text_of(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

/// Converts an Anthropic-style message array to OpenAI Chat Completions messages.
pub fn to_openai(messages: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for message in messages {
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("user");
        let Some(blocks) = message.get("content").and_then(Value::as_array) else {
            out.push(message.clone());
            continue;
        };
        let kind = |b: &Value| b.get("type").and_then(Value::as_str).map(str::to_owned);
        let mut text = String::new();
        let mut reasoning = String::new();
        let mut calls = Vec::new();
        for block in blocks {
            match kind(block).as_deref() {
                Some("text") => text.push_str(block["text"].as_str().unwrap_or("")),
                Some("thinking") => reasoning.push_str(block["thinking"].as_str().unwrap_or("")),
                Some("tool_use") => calls.push(json!({
                    "id": block["id"],
                    "type": "function",
                    "function": {"name": block["name"], "arguments": block["input"].to_string()}
                })),
                Some("tool_result") => out.push(json!({
                    "role": "tool",
                    "tool_call_id": block["tool_use_id"],
                    "content": text_of(&block["content"])
                })),
                _ => {}
            }
        }
        if role == "assistant" {
            let mut m = Map::new();
            m.insert("role".into(), json!("assistant"));
            m.insert(
                "content".into(),
                if text.is_empty() {
                    Value::Null
                } else {
                    json!(text)
                },
            );
            if !reasoning.is_empty() {
                m.insert("reasoning_content".into(), json!(reasoning));
            }
            if !calls.is_empty() {
                m.insert("tool_calls".into(), Value::Array(calls));
            }
            out.push(Value::Object(m));
        } else if !text.is_empty() {
            out.push(json!({"role": role, "content": text}));
        }
    }
    out
}

/// Converts OpenAI Chat Completions messages to an Anthropic-style message array.
pub fn to_anthropic(messages: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for message in messages {
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("user");
        match role {
            "tool" => {
                let block = json!({
                    "type": "tool_result",
                    "tool_use_id": message["tool_call_id"],
                    "content": text_of(&message["content"])
                });
                let merge = out.last_mut().filter(|last| {
                    last["role"] == "user"
                        && last["content"]
                            .as_array()
                            .is_some_and(|blocks| blocks.iter().all(|b| b["type"] == "tool_result"))
                });
                match merge {
                    Some(last) => last["content"].as_array_mut().unwrap().push(block),
                    None => out.push(json!({"role": "user", "content": [block]})),
                }
            }
            "assistant" => {
                let mut blocks = Vec::new();
                for key in ["reasoning_content", "reasoning"] {
                    if let Some(text) = message.get(key).and_then(Value::as_str) {
                        blocks.push(json!({"type": "thinking", "thinking": text}));
                        break;
                    }
                }
                let text = text_of(&message["content"]);
                if !text.is_empty() {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for call in message["tool_calls"].as_array().into_iter().flatten() {
                    let arguments = call["function"]["arguments"].as_str().unwrap_or("{}");
                    let input =
                        docstream_model::read_json::from_str(arguments).unwrap_or(json!({}));
                    blocks.push(json!({
                        "type": "tool_use",
                        "id": call["id"],
                        "name": call["function"]["name"],
                        "input": input
                    }));
                }
                out.push(json!({"role": "assistant", "content": blocks}));
            }
            _ => out.push(message.clone()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_002_tool_use_round_trip() {
        let anthropic = json!([
            {"role": "user", "content": "Read main.go"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Need the file."},
                {"type": "text", "text": "Let me read that file."},
                {"type": "tool_use", "id": "toolu_01abc", "name": "read_file", "input": {"path": "/src/main.go"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01abc", "content": "package main"}
            ]}
        ]);
        let openai = to_openai(anthropic.as_array().unwrap());
        assert_eq!(openai[1]["reasoning_content"], "Need the file.");
        assert_eq!(
            openai[1]["tool_calls"][0]["function"]["arguments"],
            r#"{"path":"/src/main.go"}"#
        );
        assert_eq!(
            openai[2],
            json!({"role": "tool", "tool_call_id": "toolu_01abc", "content": "package main"})
        );
        assert_eq!(to_anthropic(&openai), anthropic.as_array().unwrap().clone());
    }
}
