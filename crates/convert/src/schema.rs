//! JSON Schema clean-up for Gemini, which accepts only a subset of JSON Schema.
//!
//! Rules (seed 002): the keywords `additionalProperties`, `$schema`, `title` and
//! `default` are dropped; `type` names are upper-cased (`"string"` → `"STRING"`); an
//! `anyOf` is replaced by its first branch that is not `{"type": "null"}`. The rules apply
//! at every level: `properties`, `items` and the branches themselves. Names of
//! properties are left alone, so a property called `title` survives.
//!
//! ```
//! use docstream_convert::schema::clean_for_gemini;
//! use serde_json::json;
//!
//! let schema = json!({
//!     "$schema": "http://json-schema.org/draft-07/schema#",
//!     "type": "object",
//!     "additionalProperties": false,
//!     "properties": {"path": {"type": "string", "title": "Path"}}
//! });
//! assert_eq!(
//!     clean_for_gemini(&schema),
//!     json!({"type": "OBJECT", "properties": {"path": {"type": "STRING"}}})
//! );
//! ```

use serde_json::{Map, Value};

/// Keywords Gemini rejects; they are dropped at every level.
const DROPPED: [&str; 4] = ["additionalProperties", "$schema", "title", "default"];

/// Returns a copy of `schema` cleaned for Gemini (see the module documentation).
pub fn clean_for_gemini(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => clean_object(map),
        Value::Array(items) => Value::Array(items.iter().map(clean_for_gemini).collect()),
        other => other.clone(),
    }
}

fn clean_object(map: &Map<String, Value>) -> Value {
    if let Some(Value::Array(branches)) = map.get("anyOf") {
        let chosen = branches.iter().find(|branch| !is_null_type(branch));
        if let Some(Value::Object(branch)) = chosen {
            // The branch's own keys win; the parent's other keys (a description) stay.
            let mut merged: Map<String, Value> = map
                .iter()
                .filter(|(key, _)| key.as_str() != "anyOf")
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect();
            for (key, value) in branch {
                merged.insert(key.clone(), value.clone());
            }
            return clean_object(&merged);
        }
    }
    let mut out = Map::with_capacity(map.len());
    for (key, value) in map {
        if DROPPED.contains(&key.as_str()) {
            continue;
        }
        let cleaned = match key.as_str() {
            "type" => upper_type(value),
            "properties" => match value {
                Value::Object(properties) => Value::Object(
                    properties
                        .iter()
                        .map(|(name, property)| (name.clone(), clean_for_gemini(property)))
                        .collect(),
                ),
                other => other.clone(),
            },
            "items" | "anyOf" | "oneOf" | "allOf" => clean_for_gemini(value),
            _ => value.clone(),
        };
        out.insert(key.clone(), cleaned);
    }
    Value::Object(out)
}

fn upper_type(value: &Value) -> Value {
    match value {
        Value::String(name) => Value::String(name.to_ascii_uppercase()),
        Value::Array(names) => Value::Array(names.iter().map(upper_type).collect()),
        other => other.clone(),
    }
}

fn is_null_type(branch: &Value) -> bool {
    branch.get("type").and_then(Value::as_str) == Some("null")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn drops_unsupported_keywords_and_upper_cases_types() {
        let schema = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "title": "Read",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "path": {"type": "string", "default": "."},
                "lines": {"type": "array", "items": {"type": "integer", "title": "n"}}
            },
            "required": ["path"]
        });
        assert_eq!(
            clean_for_gemini(&schema),
            json!({
                "type": "OBJECT",
                "properties": {
                    "path": {"type": "STRING"},
                    "lines": {"type": "ARRAY", "items": {"type": "INTEGER"}}
                },
                "required": ["path"]
            })
        );
    }

    #[test]
    fn any_of_becomes_its_first_non_null_branch() {
        let schema = json!({
            "description": "optional limit",
            "anyOf": [{"type": "null"}, {"type": "number", "title": "Limit"}, {"type": "string"}]
        });
        assert_eq!(
            clean_for_gemini(&schema),
            json!({"description": "optional limit", "type": "NUMBER"})
        );
    }

    #[test]
    fn property_names_that_look_like_keywords_survive() {
        let schema = json!({
            "type": "object",
            "properties": {"title": {"type": "string"}, "default": {"type": "boolean"}}
        });
        assert_eq!(
            clean_for_gemini(&schema),
            json!({
                "type": "OBJECT",
                "properties": {"title": {"type": "STRING"}, "default": {"type": "BOOLEAN"}}
            })
        );
    }
}
