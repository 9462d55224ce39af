//! A tool result's content as the Messages API sends it, read once for client and
//! server tools.

use serde_json::Value;

/// A result's content: a string as it is; text blocks joined into one string; other
/// blocks (images …) kept whole.
pub(super) fn result_data(content: Option<Value>) -> Value {
    match content {
        None | Some(Value::Null) => Value::String(String::new()),
        Some(Value::Array(items)) => {
            let texts: Option<Vec<&str>> = items
                .iter()
                .map(|i| {
                    (i.get("type").and_then(Value::as_str) == Some("text"))
                        .then(|| i.get("text").and_then(Value::as_str))
                        .flatten()
                })
                .collect();
            match texts {
                Some(texts) => Value::String(texts.join("\n")),
                None => Value::Array(items),
            }
        }
        Some(other) => other,
    }
}
