//! Tool definitions and `tool_choice` between the flat Anthropic/Cursor form and the
//! nested OpenAI form (seed 002).
//!
//! ```
//! use docstream_convert::tools::{FlatTool, NestedTool};
//! use serde_json::json;
//!
//! let flat: FlatTool = serde_json::from_value(json!({
//!     "name": "read_file",
//!     "description": "Read file content",
//!     "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}
//! })).unwrap();
//! let nested = NestedTool::from(flat.clone());
//! assert_eq!(serde_json::to_value(&nested).unwrap()["function"]["name"], "read_file");
//! assert_eq!(FlatTool::from(nested), flat);
//! ```

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A tool definition in the flat Anthropic/Cursor form: `name`, `description`,
/// `input_schema`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FlatTool {
    /// The tool's name.
    pub name: String,
    /// What the tool does; absent when the caller gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the tool's input.
    #[serde(default)]
    #[cfg_attr(feature = "tsify", tsify(type = "JsonSchema"))]
    pub input_schema: Value,
}

/// A tool definition in the nested OpenAI form: `{type: "function", function: {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct NestedTool {
    /// Always `"function"`.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "tsify", tsify(type = "\"function\""))]
    pub kind: String,
    /// The function itself.
    pub function: FunctionDef,
}

/// The `function` part of a [`NestedTool`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub struct FunctionDef {
    /// The tool's name.
    pub name: String,
    /// What the tool does; absent when the caller gave none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the function's parameters.
    #[serde(default)]
    #[cfg_attr(feature = "tsify", tsify(type = "JsonSchema"))]
    pub parameters: Value,
}

impl From<FlatTool> for NestedTool {
    fn from(tool: FlatTool) -> Self {
        NestedTool {
            kind: "function".to_owned(),
            function: FunctionDef {
                name: tool.name,
                description: tool.description,
                parameters: tool.input_schema,
            },
        }
    }
}

impl From<NestedTool> for FlatTool {
    fn from(tool: NestedTool) -> Self {
        FlatTool {
            name: tool.function.name,
            description: tool.function.description,
            input_schema: tool.function.parameters,
        }
    }
}

/// Converts an Anthropic `tool_choice` to the OpenAI one: `{type: auto}` → `"auto"`,
/// `{type: any}` → `"required"`, `{type: tool, name}` →
/// `{type: function, function: {name}}`. `{type: none}` becomes `"none"`; anything
/// else gives `None` (leave the field out).
///
/// ```
/// use docstream_convert::tools::tool_choice_to_openai;
/// use serde_json::json;
///
/// assert_eq!(tool_choice_to_openai(&json!({"type": "any"})), Some(json!("required")));
/// ```
pub fn tool_choice_to_openai(choice: &Value) -> Option<Value> {
    match choice.get("type").and_then(Value::as_str)? {
        "auto" => Some(json!("auto")),
        "any" => Some(json!("required")),
        "none" => Some(json!("none")),
        "tool" => {
            let name = choice.get("name").and_then(Value::as_str)?;
            Some(json!({"type": "function", "function": {"name": name}}))
        }
        _ => None,
    }
}

/// Converts an OpenAI `tool_choice` back to the Anthropic one (the inverse of
/// [`tool_choice_to_openai`]); `None` for values with no counterpart.
pub fn tool_choice_to_anthropic(choice: &Value) -> Option<Value> {
    match choice {
        Value::String(mode) => match mode.as_str() {
            "auto" => Some(json!({"type": "auto"})),
            "required" => Some(json!({"type": "any"})),
            "none" => Some(json!({"type": "none"})),
            _ => None,
        },
        Value::Object(_) => {
            let name = choice.pointer("/function/name").and_then(Value::as_str)?;
            Some(json!({"type": "tool", "name": name}))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_read_file_becomes_nested_and_back() {
        let flat: FlatTool = docstream_model::read_json::from_value(json!({
            "name": "read_file",
            "description": "Read file content",
            "input_schema": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"]
            }
        }))
        .unwrap();
        let nested = NestedTool::from(flat.clone());
        assert_eq!(
            serde_json::to_value(&nested).unwrap(),
            json!({
                "type": "function",
                "function": {
                    "name": "read_file",
                    "description": "Read file content",
                    "parameters": {
                        "type": "object",
                        "properties": {"path": {"type": "string"}},
                        "required": ["path"]
                    }
                }
            })
        );
        assert_eq!(FlatTool::from(nested), flat);
    }

    #[test]
    fn tool_choice_follows_seed_002() {
        assert_eq!(
            tool_choice_to_openai(&json!({"type": "auto"})),
            Some(json!("auto"))
        );
        assert_eq!(
            tool_choice_to_openai(&json!({"type": "any"})),
            Some(json!("required"))
        );
        let named = json!({"type": "function", "function": {"name": "grep"}});
        assert_eq!(
            tool_choice_to_openai(&json!({"type": "tool", "name": "grep"})),
            Some(named.clone())
        );
        assert_eq!(
            tool_choice_to_anthropic(&named),
            Some(json!({"type": "tool", "name": "grep"}))
        );
        assert_eq!(
            tool_choice_to_anthropic(&json!("required")),
            Some(json!({"type": "any"}))
        );
        assert_eq!(tool_choice_to_openai(&json!({"type": "weird"})), None);
    }
}
