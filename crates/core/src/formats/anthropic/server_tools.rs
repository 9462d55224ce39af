//! Anthropic's server tools (web search, web fetch, code execution and its bash and
//! file editor tools) and the `compaction` block: what their result blocks hold, read
//! into the data the tool readers take.

use serde_json::Value;

use crate::model::CallStatus;
use crate::normalize::{Event, Sink, ToolOutcome};

/// A `compaction` block: the summary the API wrote of the conversation before it, shown
/// as a `compaction` call whose result is that summary.
pub(super) fn compaction(summary: &str, n: &mut dyn Sink) {
    n.apply(Event::ToolEnd {
        call_id: "compaction".to_owned(),
        name: Some("compaction".to_owned()),
        args: Some(Value::Object(Default::default())),
        outcome: ToolOutcome {
            status: CallStatus::Success,
            data: Value::String(summary.to_owned()),
        },
        duration_ms: None,
    });
}

/// The result of one of Anthropic's server tools (`web_search_tool_result`,
/// `web_fetch_tool_result`, `code_execution_tool_result`,
/// `bash_code_execution_tool_result`, `text_editor_code_execution_tool_result` …): the
/// end of its `server_tool_use` call, its content read into what the tool readers take.
/// A content whose `type` ends `_error` is a failure with its `error_code`.
pub(super) fn result(call_id: String, content: Option<Value>, n: &mut dyn Sink) {
    let (status, data) = server_data(content.unwrap_or(Value::Null));
    n.apply(Event::tool_end(call_id, ToolOutcome { status, data }));
}

/// A server tool's content as a status and the result's data: search results as
/// links (never their `encrypted_content`), a fetched document as its text, a run's
/// `stdout`, `stderr` and exit code (a non-zero one is an error), an editor's view as
/// the text read.
fn server_data(content: Value) -> (CallStatus, Value) {
    let str_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    let kind = str_of(&content, "type").unwrap_or_default();
    if kind.ends_with("_error") {
        let code = str_of(&content, "error_code").unwrap_or_else(|| "unknown".to_owned());
        return (
            CallStatus::Error,
            Value::String(format!("The tool failed: {code}.")),
        );
    }
    match kind.as_str() {
        "" if content.is_array() => {
            // Web search results.
            let items = content.as_array().map(Vec::as_slice).unwrap_or_default();
            let results: Vec<Value> = items
                .iter()
                .map(|r| {
                    let mut link = serde_json::Map::new();
                    for key in ["title", "url", "page_age"] {
                        if let Some(v) = r.get(key).filter(|v| !v.is_null()) {
                            link.insert(key.to_owned(), v.clone());
                        }
                    }
                    Value::Object(link)
                })
                .collect();
            (CallStatus::Success, Value::Array(results))
        }
        "web_fetch_result" => {
            let doc = content.get("content");
            let source = doc.and_then(|d| d.get("source"));
            let text = match source.and_then(|s| str_of(s, "type")).as_deref() {
                Some("text") => source.and_then(|s| str_of(s, "data")),
                _ => source.map(|s| {
                    let media = str_of(s, "media_type").unwrap_or_default();
                    let len = s.get("data").and_then(Value::as_str).map_or(0, str::len);
                    format!("({media} document of {len} bytes, not kept)")
                }),
            };
            let mut data = serde_json::Map::new();
            for (key, value) in [
                ("url", str_of(&content, "url")),
                ("title", doc.and_then(|d| str_of(d, "title"))),
                ("retrieved_at", str_of(&content, "retrieved_at")),
                ("content", text),
            ] {
                if let Some(v) = value {
                    data.insert(key.to_owned(), Value::String(v));
                }
            }
            (CallStatus::Success, Value::Object(data))
        }
        "code_execution_result" | "bash_code_execution_result" => {
            let code = content.get("return_code").and_then(Value::as_i64);
            let files: Vec<Value> = content
                .get("content")
                .and_then(Value::as_array)
                .map(|files| {
                    files
                        .iter()
                        .filter_map(|f| f.get("file_id").cloned())
                        .collect()
                })
                .unwrap_or_default();
            let mut data = serde_json::json!({
                "stdout": str_of(&content, "stdout").unwrap_or_default(),
                "stderr": str_of(&content, "stderr").unwrap_or_default(),
                "exitCode": code,
            });
            if !files.is_empty() {
                data["files"] = Value::Array(files);
            }
            let status = match code {
                Some(c) if c != 0 => CallStatus::Error,
                _ => CallStatus::Success,
            };
            (status, data)
        }
        "text_editor_code_execution_view_result" => {
            let mut data = serde_json::Map::new();
            if let Some(text) = str_of(&content, "content") {
                data.insert("content".to_owned(), Value::String(text));
            }
            if let Some(start) = content.get("start_line").filter(|v| v.is_u64()) {
                data.insert("startLine".to_owned(), start.clone());
            }
            (CallStatus::Success, Value::Object(data))
        }
        "text_editor_code_execution_str_replace_result" => {
            let start = content.get("old_start").filter(|v| v.is_u64()).cloned();
            let data = match start {
                Some(start) => serde_json::json!({ "startLine": start }),
                None => serde_json::json!({}),
            };
            (CallStatus::Success, data)
        }
        "text_editor_code_execution_create_result" => (CallStatus::Success, Value::Null),
        _ => (
            CallStatus::Success,
            super::content::result_data(Some(content)),
        ),
    }
}
