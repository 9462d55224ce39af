//! OpenAI's Responses API: the streamed events ([`stream`]: `response.created` …
//! `response.completed`, `failed` or `incomplete`) and the response object
//! ([`object`]), both read through one mapping of output items ([`items`]).
//!
//! The shapes are those of OpenAI's API reference (`ResponseStreamEvent`, the
//! `Response` object and its output items), as the recorded streams in
//! `tests/fixtures/openai-responses-stream/` show them.

mod items;
mod object;
mod stream;

pub(super) use object::ResponseObject;
pub(super) use stream::ResponsesStream;

use crate::formats::fields::{Fields, Read};
use crate::model::Usage;
use crate::normalize::{ToolKind, ToolNames};

/// The Responses API's built-in tools, under the names their items are shown by:
/// `code_interpreter` runs code (a terminal run of it), `local_shell` and `shell`
/// commands, `file_search` searches files in a vector store, and a `web_search_call`
/// that opens a page or finds in one is a fetch. `web_search` and `apply_patch` are
/// names every application uses ([`GENERIC`](crate::normalize::GENERIC)).
pub(super) const TOOLS: ToolNames = &[
    ("code_interpreter", ToolKind::Shell),
    ("local_shell", ToolKind::Shell),
    ("file_search", ToolKind::CodebaseSearch),
    ("open_page", ToolKind::WebFetch),
    ("find_in_page", ToolKind::WebFetch),
];

/// Token counts as the Responses API spells them (`input_tokens`, `output_tokens`,
/// `total_tokens`, `input_tokens_details.cached_tokens`,
/// `output_tokens_details.reasoning_tokens`).
fn usage(f: Fields<'_, '_>) -> Read<Usage> {
    let cached = match f.object("input_tokens_details")? {
        Some(d) => d.u64("cached_tokens")?,
        None => None,
    };
    let reasoning = match f.object("output_tokens_details")? {
        Some(d) => d.u64("reasoning_tokens")?,
        None => None,
    };
    Ok(Usage {
        prompt_tokens: f.u64("input_tokens")?.unwrap_or_default(),
        completion_tokens: f.u64("output_tokens")?.unwrap_or_default(),
        total_tokens: f.u64("total_tokens")?.unwrap_or_default(),
        cache_read_tokens: cached.filter(|&c| c > 0),
        cache_write_tokens: None,
        reasoning_tokens: reasoning.filter(|&r| r > 0),
    })
}
