//! A whole message history or request, converted between the Anthropic/Cursor form and
//! the OpenAI form: what `docstream convert` does.
//!
//! The input is a message array, or an object with `messages` (a request); in a request,
//! `tools` and `tool_choice` are converted too, and the Anthropic top-level `system`
//! becomes a leading `system` message (and back). Other fields are kept as they are.
//! Which form the input is in is told from what only one form has
//! ([`detect`]); input that has nothing of either (plain string messages) is read as
//! the form it is not being converted to.
//!
//! ```
//! use docstream_convert::request::{Dialect, convert};
//! use serde_json::json;
//!
//! let anthropic = json!([{"role": "assistant", "content": [
//!     {"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a.rs"}}
//! ]}]);
//! let openai = convert(&anthropic, Dialect::OpenAi).unwrap();
//! assert_eq!(openai[0]["tool_calls"][0]["function"]["arguments"], r#"{"path":"a.rs"}"#);
//! assert_eq!(convert(&openai, Dialect::Anthropic).unwrap(), anthropic);
//! ```

use std::fmt;

use serde_json::{Map, Value, json};

use crate::messages::{to_anthropic, to_openai};
use crate::tools::{FlatTool, NestedTool, tool_choice_to_anthropic, tool_choice_to_openai};

/// A message format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Anthropic Messages (and Cursor's Claude-like requests): content blocks,
    /// `tool_use`/`tool_result`, flat tools with `input_schema`.
    Anthropic,
    /// OpenAI Chat Completions: `tool_calls`, the `tool` role, nested tools.
    OpenAi,
}

impl Dialect {
    /// `anthropic` or `openai`.
    pub fn parse(name: &str) -> Option<Dialect> {
        match name.to_ascii_lowercase().as_str() {
            "anthropic" | "claude" => Some(Dialect::Anthropic),
            "openai" => Some(Dialect::OpenAi),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Dialect::Anthropic => "Anthropic",
            Dialect::OpenAi => "OpenAI",
        }
    }
}

/// Why an input cannot be converted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertError {
    /// Where (`messages[2].content[0]` …), empty for the whole input.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.at, self.message)
        }
    }
}

impl std::error::Error for ConvertError {}

fn err(at: impl Into<String>, message: impl Into<String>) -> ConvertError {
    ConvertError {
        at: at.into(),
        message: message.into(),
    }
}

/// What each form alone has, with where it was seen.
#[derive(Default)]
struct Signs {
    anthropic: Option<String>,
    openai: Option<String>,
}

impl Signs {
    fn anthropic(&mut self, at: impl FnOnce() -> String) {
        self.anthropic.get_or_insert_with(at);
    }
    fn openai(&mut self, at: impl FnOnce() -> String) {
        self.openai.get_or_insert_with(at);
    }
}

/// The messages of an input: the array itself, or a request's `messages`.
fn messages_of(input: &Value) -> Result<(&Vec<Value>, &str), ConvertError> {
    match input {
        Value::Array(messages) => Ok((messages, "")),
        Value::Object(o) => match o.get("messages") {
            Some(Value::Array(messages)) => Ok((messages, "messages")),
            Some(_) => Err(err("messages", "is not an array")),
            None => Err(err(
                "",
                "an object needs a \"messages\" array (or give the message array itself)",
            )),
        },
        _ => Err(err(
            "",
            "expected a message array or an object with \"messages\"",
        )),
    }
}

/// Checks the input's shape and tells which form it is in: `Ok(None)` when nothing in
/// it belongs to only one form (plain string messages).
///
/// # Errors
/// A message that is not an object, has no `role` or has content of the wrong type;
/// an input that mixes both forms.
pub fn detect(input: &Value) -> Result<Option<Dialect>, ConvertError> {
    let (messages, prefix) = messages_of(input)?;
    let path = |i: usize| {
        if prefix.is_empty() {
            format!("[{i}]")
        } else {
            format!("{prefix}[{i}]")
        }
    };
    let mut signs = Signs::default();
    for (i, m) in messages.iter().enumerate() {
        let Value::Object(m) = m else {
            return Err(err(path(i), "a message must be an object"));
        };
        let role = match m.get("role") {
            Some(Value::String(r)) => r.as_str(),
            Some(_) => return Err(err(path(i), "\"role\" must be a string")),
            None => return Err(err(path(i), "a message needs a \"role\"")),
        };
        match role {
            "tool" | "system" | "developer" | "function" => {
                signs.openai(|| format!("{}: role {role:?}", path(i)))
            }
            "user" | "assistant" | "model" => {}
            other => return Err(err(path(i), format!("unknown role {other:?}"))),
        }
        for key in [
            "tool_calls",
            "tool_call_id",
            "reasoning_content",
            "function_call",
        ] {
            if m.get(key).is_some_and(|v| !v.is_null()) {
                signs.openai(|| format!("{}: {key:?}", path(i)));
            }
        }
        match m.get("content") {
            None | Some(Value::Null | Value::String(_)) => {}
            Some(Value::Array(blocks)) => {
                for (j, b) in blocks.iter().enumerate() {
                    let at = || format!("{}.content[{j}]", path(i));
                    let kind = b.get("type").and_then(Value::as_str);
                    match kind {
                        Some(
                            "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "image"
                            | "document",
                        ) => signs.anthropic(|| format!("{}: {:?} block", at(), kind.unwrap())),
                        Some("image_url" | "input_audio" | "file" | "refusal") => {
                            signs.openai(|| format!("{}: {:?} part", at(), kind.unwrap()))
                        }
                        Some(_) => {}
                        None => return Err(err(at(), "a content block needs a \"type\"")),
                    }
                }
            }
            Some(_) => {
                return Err(err(
                    format!("{}.content", path(i)),
                    "content must be a string, null or an array of blocks",
                ));
            }
        }
    }
    if let Value::Object(o) = input {
        for (j, tool) in o
            .get("tools")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if tool.get("input_schema").is_some() {
                signs.anthropic(|| format!("tools[{j}]: \"input_schema\""));
            } else if tool.get("function").is_some() {
                signs.openai(|| format!("tools[{j}]: \"function\""));
            }
        }
        match o.get("tool_choice") {
            Some(Value::String(_)) => signs.openai(|| "tool_choice: a string".to_owned()),
            Some(c) if c.get("function").is_some() => {
                signs.openai(|| "tool_choice: \"function\"".to_owned())
            }
            Some(c) if c.get("type").is_some() => {
                signs.anthropic(|| "tool_choice: {type}".to_owned())
            }
            _ => {}
        }
        if o.get("system").is_some() {
            signs.anthropic(|| "\"system\"".to_owned());
        }
    }
    match (signs.anthropic, signs.openai) {
        (Some(a), Some(o)) => Err(err(
            "",
            format!("the input mixes the Anthropic form ({a}) and the OpenAI form ({o})"),
        )),
        (Some(_), None) => Ok(Some(Dialect::Anthropic)),
        (None, Some(_)) => Ok(Some(Dialect::OpenAi)),
        (None, None) => Ok(None),
    }
}

/// Converts a message array, or a request with `messages`, to the `to` form.
///
/// # Errors
/// What [`detect`] reports, and an input already in the `to` form.
pub fn convert(input: &Value, to: Dialect) -> Result<Value, ConvertError> {
    if let Some(from) = detect(input)? {
        if from == to {
            return Err(err(
                "",
                format!("the input is already in the {} form", to.label()),
            ));
        }
    }
    let (messages, _) = messages_of(input)?;
    let converted = match to {
        Dialect::OpenAi => to_openai(messages),
        Dialect::Anthropic => to_anthropic(messages),
    };
    let Value::Object(request) = input else {
        return Ok(Value::Array(converted));
    };
    let mut out = Map::new();
    for (key, value) in request {
        match key.as_str() {
            "messages" | "system" => {}
            "tools" => {
                out.insert(key.clone(), convert_tools(value, to)?);
            }
            "tool_choice" => {
                let choice = match to {
                    Dialect::OpenAi => tool_choice_to_openai(value),
                    Dialect::Anthropic => tool_choice_to_anthropic(value),
                };
                match choice {
                    Some(c) => {
                        out.insert(key.clone(), c);
                    }
                    None => return Err(err("tool_choice", "has no counterpart")),
                }
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    let mut messages = converted;
    match to {
        Dialect::OpenAi => {
            if let Some(system) = request.get("system") {
                let text = match system {
                    Value::String(s) => s.clone(),
                    Value::Array(blocks) => blocks
                        .iter()
                        .filter_map(|b| b.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n"),
                    _ => return Err(err("system", "must be a string or an array of blocks")),
                };
                messages.insert(0, json!({"role": "system", "content": text}));
            }
        }
        Dialect::Anthropic => {
            let leading = messages
                .iter()
                .take_while(|m| matches!(m["role"].as_str(), Some("system" | "developer")))
                .count();
            if leading > 0 {
                let system: Vec<String> = messages
                    .drain(..leading)
                    .map(|m| match &m["content"] {
                        Value::String(s) => s.clone(),
                        other => other
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|b| b.get("text").and_then(Value::as_str))
                            .collect(),
                    })
                    .collect();
                out.insert("system".to_owned(), json!(system.join("\n")));
            }
        }
    }
    out.insert("messages".to_owned(), Value::Array(messages));
    Ok(Value::Object(out))
}

fn convert_tools(tools: &Value, to: Dialect) -> Result<Value, ConvertError> {
    let Value::Array(tools) = tools else {
        return Err(err("tools", "is not an array"));
    };
    let mut out = Vec::with_capacity(tools.len());
    for (i, tool) in tools.iter().enumerate() {
        let at = format!("tools[{i}]");
        let converted = match to {
            Dialect::OpenAi => docstream_model::read_json::from_value::<FlatTool>(tool.clone())
                .map(|t| serde_json::to_value(NestedTool::from(t))),
            Dialect::Anthropic => {
                docstream_model::read_json::from_value::<NestedTool>(tool.clone())
                    .map(|t| serde_json::to_value(FlatTool::from(t)))
            }
        };
        match converted {
            Ok(Ok(v)) => out.push(v),
            Ok(Err(e)) | Err(e) => return Err(err(at, format!("not a tool definition ({e})"))),
        }
    }
    Ok(Value::Array(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_form() {
        let anthropic = json!([{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": "x"}]}]);
        assert_eq!(detect(&anthropic), Ok(Some(Dialect::Anthropic)));
        let openai = json!({"messages": [{"role": "tool", "tool_call_id": "t", "content": "x"}]});
        assert_eq!(detect(&openai), Ok(Some(Dialect::OpenAi)));
        let plain = json!([{"role": "user", "content": "hi"}]);
        assert_eq!(detect(&plain), Ok(None));
        let request = json!({"messages": [], "tools": [{"name": "a", "input_schema": {}}]});
        assert_eq!(detect(&request), Ok(Some(Dialect::Anthropic)));
    }

    #[test]
    fn bad_inputs_say_where() {
        let e = detect(&json!([{"role": "user"}, {"content": "x"}])).unwrap_err();
        assert_eq!(e.at, "[1]");
        let e = detect(&json!({"messages": [{"role": "user", "content": 5}]})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "messages[0].content: content must be a string, null or an array of blocks"
        );
        assert!(detect(&json!("text")).is_err());
        assert!(detect(&json!({"model": "x"})).is_err());
        let mixed = json!([
            {"role": "tool", "tool_call_id": "a", "content": "x"},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a"}]}
        ]);
        assert!(detect(&mixed).unwrap_err().message.contains("mixes"));
        let already = json!([{"role": "tool", "tool_call_id": "a", "content": "x"}]);
        assert!(convert(&already, Dialect::OpenAi).is_err());
    }

    #[test]
    fn a_request_converts_tools_choice_and_system() {
        let request = json!({
            "model": "claude-sonnet-4-5",
            "system": "Be brief.",
            "tool_choice": {"type": "any"},
            "tools": [{"name": "read_file", "description": "Read file content",
                       "input_schema": {"type": "object"}}],
            "messages": [{"role": "user", "content": "hi"}]
        });
        let openai = convert(&request, Dialect::OpenAi).unwrap();
        assert_eq!(
            openai,
            json!({
                "model": "claude-sonnet-4-5",
                "tool_choice": "required",
                "tools": [{"type": "function", "function": {"name": "read_file",
                           "description": "Read file content", "parameters": {"type": "object"}}}],
                "messages": [{"role": "system", "content": "Be brief."},
                             {"role": "user", "content": "hi"}]
            })
        );
        let back = convert(&openai, Dialect::Anthropic).unwrap();
        assert_eq!(back["system"], "Be brief.");
        assert_eq!(back["tool_choice"], request["tool_choice"]);
        assert_eq!(back["tools"], request["tools"]);
        assert_eq!(back["messages"], request["messages"]);
    }
}
