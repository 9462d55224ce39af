//! Anthropic's Messages API (seed 002): message histories ([`messages`]) and the
//! streamed events ([`stream`]), both read through one content-block mapping
//! ([`blocks`]), which Claude Code's adapter uses too.

pub(super) mod blocks;
mod content;
mod messages;
mod server_tools;
pub(super) mod stream;

pub(super) use messages::Messages;
pub(super) use stream::Stream;

use crate::normalize::{ToolKind, ToolNames};

/// The Anthropic API's own tools (the text editor tool, over its versions, and the
/// server's code execution tools: Python code, bash commands and the file editor of
/// its sandbox); the
/// tools an application defines are named in the agents' tables and
/// [`GENERIC`](crate::normalize::GENERIC).
pub(super) const TOOLS: ToolNames = &[
    ("str_replace_editor", ToolKind::Edit),
    ("str_replace_based_edit_tool", ToolKind::Edit),
    ("bash", ToolKind::Shell),
    ("code_execution", ToolKind::Shell),
    ("bash_code_execution", ToolKind::Shell),
    ("text_editor_code_execution", ToolKind::Edit),
];
