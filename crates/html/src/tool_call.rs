//! Tool calls: a one-line summary of the arguments.

use serde_json::Value;

/// Longest summary, in characters.
pub(crate) const SUMMARY_CHARS: usize = 80;

/// A one-line summary of a tool call's arguments: the scalar arguments as
/// `key: value`, joined by `, `, cut at [`SUMMARY_CHARS`] characters.
pub(crate) fn summarize_arguments(arguments: &Value) -> String {
    let parts: Vec<String> = match arguments {
        Value::Object(map) => map
            .iter()
            .filter_map(|(k, v)| match v {
                Value::String(s) => Some(format!("{k}: {s}")),
                Value::Number(n) => Some(format!("{k}: {n}")),
                Value::Bool(b) => Some(format!("{k}: {b}")),
                _ => None,
            })
            .collect(),
        Value::Null => Vec::new(),
        other => vec![other.to_string()],
    };
    let one_line: String = parts
        .join(", ")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one_line.chars().count() > SUMMARY_CHARS {
        let mut s: String = one_line.chars().take(SUMMARY_CHARS - 1).collect();
        s.push('…');
        s
    } else {
        one_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_is_one_short_line() {
        let v = serde_json::json!({"path": "a\nb", "n": 3, "obj": {}});
        assert_eq!(summarize_arguments(&v), "path: a b, n: 3");
        let long = serde_json::json!({"q": "x".repeat(200)});
        assert_eq!(summarize_arguments(&long).chars().count(), SUMMARY_CHARS);
    }
}
