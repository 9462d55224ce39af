//! Anthropic content blocks to normalised events: the one mapping shared by message
//! histories, whole blocks in the stream, and Claude Code's messages.

use std::borrow::Cow;

use serde_json::Value;
use serde_json_borrow::Value as Tree;

use super::content::result_data;
use crate::formats::fields::{self, Read, each, wire};
use crate::model::{Attachment, CallStatus};
use crate::normalize::{Event, Sink, ToolOutcome};

wire! {
    /// One content block, flat: every field any block type uses.
    pub(in crate::formats) struct Block<'v> {
        pub kind: str "type" or_default,
        pub text: str "text",
        pub thinking: str "thinking",
        pub signature: string "signature",
        pub id: string "id",
        pub name: string "name",
        pub input: value "input",
        pub tool_use_id: string "tool_use_id",
        pub content: value "content",
        pub is_error: bool "is_error",
        pub title: string "title",
        /// A `compaction` block's summary (its `content` is text).
        pub content_text: str "content" lenient,
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
        "tool_use" | "server_tool_use" | "mcp_tool_use" => n.apply(Event::tool_start(
            b.id.unwrap_or_default(),
            b.name.unwrap_or_else(|| "tool".to_owned()),
            b.input.unwrap_or(Value::Object(Default::default())),
        )),
        kind if is_tool_result(kind) => tool_result(b, None, n),
        "compaction" => super::server_tools::compaction(b.content_text.unwrap_or_default(), n),
        _ => n.apply(Event::Unknown),
    }
}

/// A `tool_result` (or a server tool's `*_tool_result`): the end of its call.
fn tool_result(b: Block<'_>, extra: Option<Value>, n: &mut dyn Sink) {
    if b.kind != "tool_result" && b.kind != "mcp_tool_result" {
        return super::server_tools::result(b.tool_use_id.unwrap_or_default(), b.content, n);
    }
    let failed = b.is_error == Some(true);
    let data = match extra {
        Some(extra) if !failed => extra,
        _ => result_data(b.content),
    };
    let status = if failed {
        data.as_str().map_or(CallStatus::Error, refusal)
    } else {
        CallStatus::Success
    };
    n.apply(Event::tool_end(
        b.tool_use_id.unwrap_or_default(),
        ToolOutcome { status, data },
    ));
}

/// The status of a failed result by what Claude Code answers in its place: the user
/// declined the call ("The user doesn't want to proceed with this tool use", or, asked
/// again, "… doesn't want to take this action right now"), or stopped it ("[Request
/// interrupted by user for tool use]", after any output the command gave).
fn refusal(text: &str) -> CallStatus {
    if text.contains("[Request interrupted by user") {
        CallStatus::Interrupted
    } else if text.contains("The user doesn't want to proceed with this tool use")
        || text.contains("The user doesn't want to take this action")
    {
        CallStatus::Rejected
    } else {
        CallStatus::Error
    }
}

wire! {
    /// One message: `role` and `content`, and for a response message its `id`, `model`,
    /// `stop_reason` and `usage`.
    pub(in crate::formats) struct Message<'v> {
        pub role: str "role" or_default,
        pub content: get "content",
        pub id: string "id",
        pub model: string "model",
        pub stop_reason: string "stop_reason",
        pub usage: object<super::super::usage::WireUsage> "usage",
    }
}
