//! Anthropic content blocks to normalised events: the one mapping shared by message
//! histories, whole blocks in the stream, and Claude Code's messages.

use std::borrow::Cow;

use serde_json::Value;
use serde_json_borrow::Value as Tree;

use crate::formats::fields::{self, Fields, Read, each};
use crate::model::{Attachment, CallStatus};
use crate::normalize::{Event, Sink, ToolOutcome};

/// One content block, flat: every field any block type uses.
pub(in crate::formats) struct Block<'v> {
    pub kind: &'v str,
    pub text: Option<&'v str>,
    pub thinking: Option<&'v str>,
    pub signature: Option<String>,
    pub id: Option<String>,
    pub name: Option<String>,
    pub input: Option<Value>,
    pub tool_use_id: Option<String>,
    pub content: Option<Value>,
    pub is_error: Option<bool>,
    pub title: Option<String>,
    /// A `compaction` block's summary (its `content` is text).
    pub content_text: Option<&'v str>,
}

impl<'v> Block<'v> {
    pub(crate) fn read(f: Fields<'v, '_>) -> Read<Self> {
        Ok(Block {
            kind: f.str("type")?.unwrap_or_default(),
            text: f.str("text")?,
            thinking: f.str("thinking")?,
            signature: f.string("signature")?,
            id: f.string("id")?,
            name: f.string("name")?,
            input: f.value("input"),
            tool_use_id: f.string("tool_use_id")?,
            content: f.value("content"),
            is_error: f.bool("is_error")?,
            title: f.string("title")?,
            content_text: f.get("content").and_then(Tree::as_str),
        })
    }
}

/// A message's `content`: a string, or blocks.
pub(in crate::formats) enum Content<'v> {
    /// Plain text.
    Text(&'v str),
    /// Content blocks.
    Blocks(Vec<Block<'v>>),
}

impl<'v> Content<'v> {
    /// Reads `content` kept as its tree (`null` or absent is no content).
    pub(crate) fn read(content: Option<&'v Tree<'v>>) -> Read<Content<'v>> {
        match content {
            None | Some(Tree::Null) => Ok(Content::Blocks(Vec::new())),
            Some(Tree::Str(s)) => Ok(Content::Text(s)),
            Some(Tree::Array(items)) => each(items, "content", Block::read).map(Content::Blocks),
            Some(other) => Err(fields::wrong(
                "field `content`",
                "a string or an array",
                other,
            )),
        }
    }
}

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::formats) enum Role {
    /// The person (and the tool results sent back for the model).
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// `user`, `assistant`; anything else (`system`) is `None`.
    pub(crate) fn parse(role: &str) -> Option<Role> {
        match role {
            "user" | "human" => Some(Role::User),
            "assistant" | "model" => Some(Role::Assistant),
            _ => None,
        }
    }
}

/// Applies one message's content. `tool_use_result` is Claude Code's structured result
/// for a message carrying a single `tool_result` (stdout and stderr apart …); it is used
/// as the result's data when it is an object and the result is not an error.
pub(in crate::formats) fn apply_content(
    role: Role,
    content: Content<'_>,
    tool_use_result: Option<Value>,
    n: &mut dyn Sink,
) {
    match (role, content) {
        (Role::User, Content::Text(text)) => n.apply(Event::UserPrompt {
            text: Cow::Borrowed(text),
            attachments: Vec::new(),
        }),
        (Role::Assistant, Content::Text(text)) => {
            if !text.is_empty() {
                n.apply(Event::Text(Cow::Borrowed(text)));
            }
        }
        (Role::Assistant, Content::Blocks(blocks)) => {
            blocks.into_iter().for_each(|b| assistant_block(b, n));
        }
        (Role::User, Content::Blocks(blocks)) => user_blocks(blocks, tool_use_result, n),
    }
}

/// The user's blocks: tool results go back to their calls; text, images and documents
/// make the prompt.
fn user_blocks(blocks: Vec<Block<'_>>, tool_use_result: Option<Value>, n: &mut dyn Sink) {
    let results = blocks.iter().filter(|b| is_tool_result(b.kind)).count();
    let mut extra = tool_use_result.filter(|v| v.is_object() && results == 1);
    let mut prompt = String::new();
    let mut attachments = Vec::new();
    let mut has_prompt = false;
    for b in blocks {
        match b.kind {
            "text" => {
                if has_prompt {
                    prompt.push_str("\n\n");
                }
                prompt.push_str(b.text.unwrap_or_default());
                has_prompt = true;
            }
            "image" | "document" => {
                attachments.push(Attachment {
                    kind: b.kind.to_owned(),
                    path: b.title,
                    ..Attachment::default()
                });
                has_prompt = true;
            }
            kind if is_tool_result(kind) => tool_result(b, extra.take(), n),
            _ => n.apply(Event::Unknown),
        }
    }
    if has_prompt {
        n.apply(Event::UserPrompt {
            text: Cow::Owned(prompt),
            attachments,
        });
    }
}

fn is_tool_result(kind: &str) -> bool {
    kind.ends_with("tool_result")
}

/// One block of the model's output.
pub(in crate::formats) fn assistant_block(b: Block<'_>, n: &mut dyn Sink) {
    match b.kind {
        "text" => {
            if let Some(text) = b.text.filter(|t| !t.is_empty()) {
                n.apply(Event::Text(Cow::Borrowed(text)));
            }
        }
        "thinking" => {
            let text = b.thinking.unwrap_or_default();
            let signature = b.signature.filter(|s| !s.is_empty());
            if text.is_empty() && signature.is_none() {
                return; // an empty thinking block says nothing
            }
            if !text.is_empty() {
                n.apply(Event::Thinking(Cow::Borrowed(text)));
            }
            n.apply(Event::ThinkingEnd {
                signature,
                redacted: false,
            });
        }
        "redacted_thinking" => n.apply(Event::ThinkingEnd {
            signature: None,
            redacted: true,
        }),
        "tool_use" | "server_tool_use" | "mcp_tool_use" => n.apply(Event::ToolStart {
            call_id: b.id.unwrap_or_default(),
            name: b.name.unwrap_or_else(|| "tool".to_owned()),
            args: b.input.unwrap_or(Value::Object(Default::default())),
            doc_id: None,
        }),
        kind if is_tool_result(kind) => tool_result(b, None, n),
        "compaction" => compaction(b.content_text.unwrap_or_default(), n),
        _ => n.apply(Event::Unknown),
    }
}

/// A `compaction` block: the summary the API wrote of the conversation before it, shown
/// as a `compaction` call whose result is that summary.
pub(in crate::formats) fn compaction(summary: &str, n: &mut dyn Sink) {
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

/// A `tool_result` (or a server tool's `*_tool_result`): the end of its call.
fn tool_result(b: Block<'_>, extra: Option<Value>, n: &mut dyn Sink) {
    if b.kind != "tool_result" && b.kind != "mcp_tool_result" {
        return server_result(b, n);
    }
    let failed = b.is_error == Some(true);
    let data = match extra {
        Some(extra) if !failed => extra,
        _ => result_data(b.content),
    };
    // Claude Code answers a call the user declined with this sentence.
    let declined = failed
        && data
            .as_str()
            .is_some_and(|t| t.contains("The user doesn't want to proceed with this tool use"));
    n.apply(Event::ToolEnd {
        call_id: b.tool_use_id.unwrap_or_default(),
        name: None,
        args: None,
        outcome: ToolOutcome {
            status: if declined {
                CallStatus::Rejected
            } else if failed {
                CallStatus::Error
            } else {
                CallStatus::Success
            },
            data,
        },
        duration_ms: None,
    });
}

/// The result of one of Anthropic's server tools (`web_search_tool_result`,
/// `web_fetch_tool_result`, `code_execution_tool_result`,
/// `bash_code_execution_tool_result`, `text_editor_code_execution_tool_result` …): the
/// end of its `server_tool_use` call, its content read into what the tool readers take.
/// A content whose `type` ends `_error` is a failure with its `error_code`.
fn server_result(b: Block<'_>, n: &mut dyn Sink) {
    let (status, data) = server_data(b.content.unwrap_or(Value::Null));
    n.apply(Event::ToolEnd {
        call_id: b.tool_use_id.unwrap_or_default(),
        name: None,
        args: None,
        outcome: ToolOutcome { status, data },
        duration_ms: None,
    });
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
        _ => (CallStatus::Success, result_data(Some(content))),
    }
}

/// A result's content: a string as it is; text blocks joined into one string; other
/// blocks (images …) kept whole.
fn result_data(content: Option<Value>) -> Value {
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

/// One message: `role` and `content`, and for a response message its `id`, `model`,
/// `stop_reason` and `usage`.
pub(in crate::formats) struct Message<'v> {
    pub role: &'v str,
    pub content: Option<&'v Tree<'v>>,
    pub id: Option<String>,
    pub model: Option<String>,
    pub stop_reason: Option<String>,
    pub usage: Option<super::super::cursor_cli::WireUsage>,
}

impl<'v> Message<'v> {
    pub(crate) fn read(f: Fields<'v, '_>) -> Read<Self> {
        Ok(Message {
            role: f.str("role")?.unwrap_or_default(),
            content: f.get("content"),
            id: f.string("id")?,
            model: f.string("model")?,
            stop_reason: f.string("stop_reason")?,
            usage: f
                .object("usage")?
                .map(super::super::cursor_cli::WireUsage::read)
                .transpose()?,
        })
    }
}
