//! What kind of tool a call is, whatever the format calls it.

use serde::{Deserialize, Serialize};

/// The kind of a tool, across the formats' names for it (each format's names are in
/// its own module; the normaliser's `tools` module holds the names any application
/// may use). The first seven become documents of their own type (`file_edit`,
/// `terminal_command`, `plan`, `todo_update`); the rest are `tool_call` documents that
/// the renderers show in a view of their kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Writes or changes a file.
    Edit,
    /// Writes a whole file.
    Write,
    /// Removes a file.
    Delete,
    /// Applies a patch (a unified diff).
    Patch,
    /// Runs a shell command.
    Shell,
    /// Writes a plan.
    Plan,
    /// Updates todos.
    Todo,
    /// Reads a file.
    Read,
    /// Searches file contents (grep).
    Grep,
    /// Finds files by name (glob).
    Glob,
    /// Lists a directory.
    List,
    /// Searches the codebase by meaning.
    CodebaseSearch,
    /// Searches the web.
    WebSearch,
    /// Fetches a web page.
    WebFetch,
    /// A tool of an MCP server.
    Mcp,
    /// Starts a sub-agent.
    Task,
    /// Anything else.
    Other,
}
