//! Conversations where they live: Cursor's `state.vscdb`, Claude Code's `projects/`
//! folder, and folders of transcript files, as one list that can be searched.
//!
//! The core is sans-IO like the rest of the crate: [`cursor`] reads the values of
//! Cursor's SQLite rows, [`claude_code`] the bytes of session files, [`catalog`] makes a
//! folder's list of what the host read of each file, [`digest`] a parsed
//! [`Conversation`] (counts and the text search looks at), [`site`] writes the pages of a
//! static site as strings. The host does the reading: [`store`] (feature `sqlite`) opens
//! paths on disk with SQLite read-only; the viewer's worker (`www/viewer/library/`) reads
//! the browser's files with sqlite-wasm and hands the rows and bytes to these same
//! readers, compiled to WebAssembly (`crates/library-wasm`). There is one set of rules.
//!
//! ```no_run
//! # #[cfg(feature = "sqlite")] {
//! use docstream_library::store::Library;
//!
//! let library = Library::open("~/.config/Cursor/User".as_ref())?;
//! for entry in library.entries() {
//!     println!("{} {} {}", entry.id, entry.created.as_deref().unwrap_or("-"), entry.title);
//! }
//! let conversation = library.read(&library.entries()[0].id)?;
//! # }
//! # Ok::<(), docstream_library::store::LibraryError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

pub mod catalog;
pub mod claude_code;
pub mod cursor;
pub mod digest;
pub mod opencode;
pub mod places;
pub mod site;
#[cfg(feature = "sqlite")]
pub mod store;

use serde::Serialize;

use docstream_core::{DocStream, Format, Limits, Options};
use docstream_model::Conversation;

/// Which tool wrote a conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    /// Cursor (its `state.vscdb`).
    Cursor,
    /// Claude Code (a `projects/` folder of session files).
    ClaudeCode,
    /// Codex CLI (a `sessions/` folder of `rollout-*.jsonl` files, or `exec --json`).
    Codex,
    /// Gemini CLI (its saved chats, `tmp/<hash>/chats/session-*.json[l]`, or its
    /// `stream-json` or `json` output saved to a file).
    GeminiCli,
    /// GitHub Copilot CLI (its `session-state/<id>/events.jsonl` files).
    CopilotCli,
    /// OpenCode (its `opencode.db`, or `opencode run --format json` and
    /// `opencode export` output saved to a file).
    #[serde(rename = "opencode")]
    OpenCode,
    /// A transcript file of a provider API or docstream's own formats.
    File,
}

impl Agent {
    /// The name shown in lists: `Cursor`, `Claude Code`, `Codex`, `Gemini CLI`, `file`.
    pub fn label(self) -> &'static str {
        match self {
            Agent::Cursor => "Cursor",
            Agent::ClaudeCode => "Claude Code",
            Agent::Codex => "Codex",
            Agent::GeminiCli => "Gemini CLI",
            Agent::CopilotCli => "Copilot CLI",
            Agent::OpenCode => "OpenCode",
            Agent::File => "file",
        }
    }

    /// The agent whose output a transcript file of this format is: a folder of Codex
    /// rollouts lists as Codex, a provider API's messages as a plain file.
    pub fn of_format(format: Option<Format>) -> Agent {
        match format {
            Some(Format::CursorStreamJson | Format::CursorJson | Format::CursorWrapper) => {
                Agent::Cursor
            }
            Some(Format::CursorStore) => Agent::Cursor,
            Some(Format::ClaudeCodeStreamJson | Format::ClaudeCodeTranscript) => Agent::ClaudeCode,
            Some(Format::CodexExecJson | Format::CodexSession) => Agent::Codex,
            Some(Format::GeminiCliStreamJson | Format::GeminiCliJson | Format::GeminiCliChat) => {
                Agent::GeminiCli
            }
            Some(Format::CopilotCliEvents) => Agent::CopilotCli,
            Some(Format::CursorAgentTranscript) => Agent::Cursor,
            Some(Format::OpencodeRunJson | Format::OpencodeExport) => Agent::OpenCode,
            _ => Agent::File,
        }
    }
}

/// The tool call that started a sub-agent's conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParentLink {
    /// The id of the conversation that made the call.
    pub conversation: String,
    /// The call's id (`toolu_…`), when it could be told.
    pub tool_call_id: Option<String>,
}

/// One conversation of a listing (or a row that could not be read: `error` set).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// Stable id within the listing: Cursor's composer id, Claude Code's session id
    /// (`<session>.agent-<id>` for a sub-agent), a file's path relative to the folder.
    pub id: String,
    /// The tool that wrote it.
    pub agent: Agent,
    /// The conversation's name, else its first prompt (one line, shortened).
    pub title: String,
    /// The workspace folder (Cursor) or project directory (Claude Code), if known.
    pub project: Option<String>,
    /// When it started (ISO 8601), if known.
    pub created: Option<String>,
    /// When it last changed (ISO 8601), if known.
    pub updated: Option<String>,
    /// Prompts plus responses.
    pub messages: usize,
    /// Tool calls, file edits, terminal runs, plans and todo updates.
    pub tools: usize,
    /// The file it is read from.
    pub source: String,
    /// For a sub-agent: the conversation and tool call that started it.
    pub parent: Option<ParentLink>,
    /// Sub-agents started from this conversation (their ids).
    pub children: Vec<String>,
    /// Why this entry could not be read; the other entries are unaffected.
    pub error: Option<String>,
    /// Tokens used, summed over its responses (with the cache's counts where the
    /// source gives them), once it was read; `None` when no response reports any.
    pub usage: Option<docstream_model::Usage>,
    /// What it cost in US dollars, where the source states it.
    pub cost_usd: Option<f64>,
    /// The source records no times at all (Cursor's agent transcripts): `created` and
    /// `updated` are not unknown but never written, and lists say so.
    pub no_times: bool,
}

impl Entry {
    /// Takes what reading the conversation told of it: counts, totals, and the project
    /// and dates where the store did not give them.
    pub fn read_from(&mut self, d: &digest::Digest) {
        self.messages = d.messages;
        self.tools = d.tools;
        self.usage.clone_from(&d.usage);
        self.cost_usd = d.cost_usd;
        if self.project.is_none() {
            self.project.clone_from(&d.project);
        }
        if self.created.is_none() {
            self.created.clone_from(&d.created);
        }
        if self.updated.is_none() {
            self.updated.clone_from(&d.updated);
        }
    }

    /// For a sub-agent's entry (`parent` set), its prompts are its parent agent's: each
    /// prompt that does not say who wrote it is marked [`PromptFrom::ParentAgent`], so no
    /// page labels it "You" (Cursor's agent transcripts of sub-agents carry no such mark;
    /// Claude Code's and Codex's do).
    ///
    /// [`PromptFrom::ParentAgent`]: docstream_model::PromptFrom::ParentAgent
    pub fn mark_prompts(&self, conversation: &mut docstream_model::Conversation) {
        if self.parent.is_none() {
            return;
        }
        for turn in &mut conversation.turns {
            if let docstream_model::Turn::User(u) = turn {
                u.from
                    .get_or_insert(docstream_model::PromptFrom::ParentAgent);
            }
        }
    }

    /// An entry with only its identity set.
    pub fn new(id: impl Into<String>, agent: Agent, source: impl Into<String>) -> Entry {
        Entry {
            id: id.into(),
            agent,
            title: String::new(),
            project: None,
            created: None,
            updated: None,
            messages: 0,
            tools: 0,
            source: source.into(),
            parent: None,
            children: Vec::new(),
            error: None,
            usage: None,
            cost_usd: None,
            no_times: false,
        }
    }

    /// The entry of something that could not be read: a whole file (`id` is its path,
    /// as `source`) or one conversation of a store.
    pub fn unreadable(
        id: impl Into<String>,
        agent: Agent,
        source: impl Into<String>,
        message: impl Into<String>,
    ) -> Entry {
        let mut e = Entry::new(id, agent, source);
        e.title = if e.id == e.source {
            format!("Could not read {}", e.source)
        } else {
            format!("Unreadable conversation {}", e.id)
        };
        e.error = Some(message.into());
        e
    }
}

/// What a file's name says it holds, for a folder's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `*.vscdb`, `opencode.db`, `opencode-<channel>.db`: a Cursor or OpenCode database.
    Database,
    /// `*.jsonl`, `*.ndjson`: session files (Claude Code's), else transcripts.
    Lines,
    /// `*.json`, `*.sse` (not `workspace.json`): a transcript, if one.
    Other,
}

impl FileKind {
    /// The kind of a file named `name` (no folders), `None` for a file a folder's list
    /// does not read.
    pub fn of(name: &str) -> Option<FileKind> {
        if name.ends_with(".vscdb") || opencode::is_db_name(name) {
            Some(FileKind::Database)
        } else if name.ends_with(".jsonl") || name.ends_with(".ndjson") {
            Some(FileKind::Lines)
        } else if (name.ends_with(".json") || name.ends_with(".sse"))
            && name != cursor::WORKSPACE_JSON
        {
            Some(FileKind::Other)
        } else {
            None
        }
    }

    /// Whether a folder named `name` is searched: not hidden, not `node_modules`.
    pub fn searched_folder(name: &str) -> bool {
        !name.starts_with('.') && name != "node_modules"
    }
}

/// A conversation read in pieces of any size: memory is the conversation's, not the
/// file's.
pub struct Reader {
    stream: DocStream,
}

impl Reader {
    /// A reader of a known (or, with `None`, detected) format.
    pub fn new(format: Option<Format>, limits: Limits) -> Reader {
        Reader {
            stream: DocStream::new(Options { format, limits }),
        }
    }

    /// The next bytes.
    pub fn push(&mut self, bytes: &[u8]) {
        // Cannot fail before finish.
        let _ = self.stream.push(bytes);
        self.stream.clear_changes();
    }

    /// A Claude Code sub-agent's own transcript (`agent-<agent_id>.jsonl`), given before
    /// the session's bytes: read as the run of the call that started it
    /// (`DocStream::add_subagent`).
    pub fn add_subagent(&mut self, agent_id: &str, transcript: Vec<u8>) {
        self.stream.add_subagent(agent_id, transcript);
    }

    /// One line of [`claude_code::Part::Lines`] (its line end added when it has none).
    pub fn push_line(&mut self, line: &[u8]) {
        self.push(line);
        if !line.ends_with(b"\n") {
            self.push(b"\n");
        }
    }

    /// The conversation read.
    pub fn finish(mut self) -> Conversation {
        let _ = self.stream.finish();
        self.stream.into_conversation()
    }
}

/// Parses bytes of a known (or, with `None`, detected) format into a conversation.
pub fn parse(bytes: &[u8], format: Option<Format>) -> Conversation {
    parse_with(bytes, format, Limits::default())
}

/// [`parse`] with other limits (an assembled Cursor conversation is read with
/// [`cursor::read_limits`]: the event limit applies to each bubble, not to the whole).
pub fn parse_with(bytes: &[u8], format: Option<Format>, limits: Limits) -> Conversation {
    let mut reader = Reader::new(format, limits);
    reader.push(bytes);
    reader.finish()
}

/// One line of text, at most `max` characters (an ellipsis marks a cut).
pub fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut n = 0;
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
            n += 1;
        }
        for c in word.chars() {
            if n + 1 >= max {
                out.push('…');
                return out;
            }
            out.push(c);
            n += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_cuts_and_joins() {
        assert_eq!(one_line("  a\n\nb  c ", 80), "a b c");
        assert_eq!(one_line("abcdef", 4), "abc…");
        assert_eq!(one_line("", 4), "");
    }
}
