//! A conversation as GitHub-flavoured Markdown, to share a run: paste it into an issue,
//! read it in any Markdown viewer. Read from the model only, like every renderer.
//!
//! - the title and the facts of the run (agent, project, models, when), then each turn
//!   under a heading with its role and time;
//! - prose as written ([`prose`] keeps it from reaching past its place), code as fenced
//!   blocks with their language, file edits as `diff` blocks with the path, terminal
//!   runs as the command and its output;
//! - tool calls as one summary line each with the result folded (`<details>`), thinking
//!   and sub-agents folded, plans and todo lists as task lists, clarifying questions and
//!   errors as short blocks;
//! - each response's status and usage after it, the totals at the end.
//!
//! Every text of the run passes the [`Redact`] hook before it is escaped: the export
//! masks secrets by handing in a `Redact` that does ([`conversation_markdown_with`]).
//!
//! ```
//! use docstream_html::{RenderOptions, markdown_export::conversation_markdown};
//! let md = conversation_markdown(&docstream_model::Conversation::default(), &RenderOptions::default());
//! assert!(md.starts_with("# docstream\n"));
//! ```

mod documents;
mod edits;
mod escape;
mod plan;
mod prose;
mod terminal;
mod tools;
mod turn;
mod words;
mod writer;

pub use writer::{KeepAll, Redact};

use crate::RenderOptions;
use docstream_model::Conversation;
use writer::Md;

/// Writes turn `index` of a conversation at `depth` (a sub-agent's run, inside its
/// call's fold, comes back to the turn writer through this).
type WriteRun = fn(&mut Md<'_>, &Conversation, usize, usize);

/// The whole conversation as Markdown, every text kept as it is.
pub fn conversation_markdown(conversation: &Conversation, opts: &RenderOptions) -> String {
    conversation_markdown_with(conversation, opts, &mut KeepAll)
}

/// The whole conversation as Markdown, every text of the run passed through `redact`
/// first (the hook of secret masking).
pub fn conversation_markdown_with(
    conversation: &Conversation,
    opts: &RenderOptions,
    redact: &mut dyn Redact,
) -> String {
    let mut md = Md::new(opts, redact);
    turn::header(&mut md, conversation);
    for i in 0..conversation.turns.len() {
        // A sub-agent's run is written inside the call that started it.
        if conversation.subagent_parent(i).is_none() {
            turn::turn(&mut md, conversation, i, 0);
        }
    }
    turn::totals(&mut md, conversation);
    finish(md.out)
}

/// One turn as Markdown (a response with the sub-agent runs inside its calls): what a
/// "Copy as Markdown" control copies. Empty for an index past the end.
pub fn turn_markdown(
    conversation: &Conversation,
    index: usize,
    opts: &RenderOptions,
    redact: &mut dyn Redact,
) -> String {
    let mut md = Md::new(opts, redact);
    if index < conversation.turns.len() {
        turn::turn(&mut md, conversation, index, 0);
    }
    finish(md.out)
}

/// A text as inline Markdown (one line, every character that could start Markdown or
/// HTML syntax escaped): for what is written around an export, such as an index of
/// exported conversations.
pub fn inline_text(text: &str) -> String {
    escape::inline(text)
}

/// One line break at the end, not a blank line.
fn finish(mut out: String) -> String {
    let end = out.trim_end_matches('\n').len();
    out.truncate(end);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}
