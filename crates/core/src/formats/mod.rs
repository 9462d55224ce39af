//! Wire formats: one module per format, each turning its payloads into normalised
//! [`Event`](crate::normalize::Event)s. Adding a format is one module here, one line of
//! the `formats!` table and one line of detection in [`detect`].

#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod acp;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod ai_sdk_ui;
// The formats outside the default set: without the feature `every-format` only their
// tool names and the sniffing detection uses are reached.
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod anthropic;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod apply_patch;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod claude_code;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod codex;
mod common;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod copilot_cli;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod cursor_agent;
mod cursor_cli;
mod cursor_line;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
pub(crate) mod cursor_store;
mod cursor_wrapper;
pub(crate) mod detect;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod document_sse;
pub mod fields;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod gemini;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod gemini_chat;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod gemini_cli;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod openai;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod openai_responses;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod opencode;
#[cfg_attr(not(feature = "every-format"), allow(dead_code, unused_imports))]
mod response_json;
mod usage;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, codes};
use crate::normalize::{ErrorInfo, Event, Sink, ToolNames};

/// The formats, written once: each line gives the variant of [`Format`], its name, how
/// it is framed, whether naming it fixes that framing (`fixed`) or it comes in several
/// and is still `detected` from the first bytes (SSE, NDJSON, a JSON array), whether
/// every build reads it (`default`) or only builds with the feature `every-format`
/// (`extra`: the browser's default module detects these and hands the stream to the
/// full one), a fresh adapter for it, and the tables its tool names are looked up in.
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $framing:ident, $named:ident, $set:ident, $adapter:expr, $tools:expr;)*) => {
        /// The formats docstream reads. Serialised as its [`name`](Format::name) (the names
        /// are the variants in kebab case; a test keeps the two equal).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        #[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
        #[serde(rename_all = "kebab-case")]
        #[non_exhaustive]
        pub enum Format {
            $($(#[$doc])* $variant,)*
        }

        impl Format {
            /// Every format name accepted by [`Format::parse`], `auto` aside.
            pub const NAMES: &'static [&'static str] = &[$($name,)*];

            const ALL: &'static [Format] = &[$(Format::$variant,)*];

            /// The format's name (`cursor-stream-json` …).
            pub fn name(self) -> &'static str {
                match self {
                    $(Format::$variant => $name,)*
                }
            }

            /// How this format is usually framed.
            pub fn framing(self) -> Framing {
                match self {
                    $(Format::$variant => Framing::$framing,)*
                }
            }

            /// The framing used when the caller names this format: `None` for formats
            /// that come in several framings (SSE, NDJSON, a JSON array), which are then
            /// detected from the first bytes as usual.
            pub fn named_framing(self) -> Option<Framing> {
                match self {
                    $(Format::$variant => formats!(@named $named, Framing::$framing),)*
                }
            }

            /// A fresh adapter for this format, or `None` when this build leaves it out
            /// (see [`Format::in_build`]).
            pub(crate) fn adapter(self) -> Option<Box<dyn Adapter>> {
                match self {
                    $(Format::$variant => formats!(@adapter $set, $adapter),)*
                }
            }

            /// Whether this build reads the format: every build reads the default set
            /// (the Cursor CLI's three formats, which the benchmark and most transcripts
            /// use); the rest only with the feature `every-format`
            /// (on by default). A build without it still detects them, and
            /// [`DocStream::missing_format`](crate::DocStream::missing_format) names
            /// the one a stream turned out to be in.
            pub fn in_build(self) -> bool {
                match self {
                    $(Format::$variant => formats!(@in_build $set),)*
                }
            }

            /// The tables of tool names this format's calls are looked up in, before
            /// the names any application may use.
            pub(crate) fn tools(self) -> &'static [ToolNames] {
                match self {
                    $(Format::$variant => $tools,)*
                }
            }
        }
    };
    (@named fixed, $framing:expr) => { Some($framing) };
    (@named detected, $framing:expr) => { None };
    (@adapter default, $adapter:expr) => { Some(Box::new($adapter) as Box<dyn Adapter>) };
    (@adapter extra, $adapter:expr) => {{
        #[cfg(feature = "every-format")]
        let adapter = Some(Box::new($adapter) as Box<dyn Adapter>);
        #[cfg(not(feature = "every-format"))]
        let adapter = None;
        adapter
    }};
    (@in_build default) => { true };
    (@in_build extra) => { cfg!(feature = "every-format") };
}

formats! {
    /// The document SSE stream of seed 000 §5.
    DocumentSse = "document-sse", Sse, fixed, extra, document_sse::DocumentSse::default(), ANY_AGENT;
    /// A complete response object (seed 000 §2–4), or a saved docstream conversation.
    ResponseJson = "response-json", Values, fixed, extra, response_json::ResponseJson, ANY_AGENT;
    /// Cursor Agent CLI `stream-json` (seed 001), NDJSON.
    CursorStreamJson = "cursor-stream-json", Lines, fixed, default, cursor_cli::CursorCli::default(), CURSOR;
    /// Cursor Agent CLI `json`: one `result` object (seed 001).
    CursorJson = "cursor-json", Values, fixed, default, cursor_cli::CursorCli::default(), CURSOR;
    /// The Python wrapper's event variant of the Cursor CLI stream (seed 004).
    CursorWrapper = "cursor-wrapper", Lines, fixed, default, cursor_cli::CursorCli::default(), CURSOR;
    /// An Anthropic message history (seed 002): an array of messages, a request with
    /// `messages`, or one response `message`.
    AnthropicMessages = "anthropic-messages", Values, fixed, extra, anthropic::Messages, ANY_AGENT;
    /// Anthropic's streamed events (`message_start` … `message_stop`), as SSE, NDJSON
    /// or a JSON array.
    AnthropicStream = "anthropic-stream", Sse, detected, extra, anthropic::Stream::default(), ANY_AGENT;
    /// An OpenAI Chat Completions history (seed 002): an array of messages, a request
    /// with `messages`, or one `chat.completion`.
    OpenaiMessages = "openai-messages", Values, fixed, extra, openai::Messages, ANY_AGENT;
    /// OpenAI `chat.completion.chunk`s, as SSE (ending with `[DONE]`) or NDJSON.
    OpenaiStream = "openai-stream", Sse, detected, extra, openai::Stream::default(), ANY_AGENT;
    /// Gemini `streamGenerateContent` events (seed 002), as SSE, NDJSON or a JSON array.
    GeminiStream = "gemini-stream", Sse, detected, extra, gemini::GeminiStream::default(), ANY_AGENT;
    /// Claude Code `--output-format stream-json` lines.
    ClaudeCodeStreamJson = "claude-code-stream-json", Lines, detected, extra, claude_code::ClaudeCode::default(), &[claude_code::TOOLS];
    /// A saved Claude Code transcript (`~/.claude/projects/…/*.jsonl`), or saved
    /// stream-json messages.
    ClaudeCodeTranscript = "claude-code-transcript", Lines, detected, extra, claude_code::ClaudeCode::transcript(), &[claude_code::TOOLS];
    /// Cursor's saved conversation (seed 003): `composerData`, or the grouped
    /// `conversation` request form; one whole JSON value.
    CursorStore = "cursor-store", Values, fixed, extra, cursor_store::CursorStore, &[cursor_store::TOOLS];
    /// Codex CLI `codex exec --json` lines (`thread.started`, `item.*`, `turn.*`).
    CodexExecJson = "codex-exec-json", Lines, fixed, extra, codex::exec::CodexExec::default(), &[codex::TOOLS];
    /// A saved Codex CLI session (`~/.codex/sessions/…/rollout-*.jsonl`).
    CodexSession = "codex-session", Lines, fixed, extra, codex::session::CodexSession::default(), &[codex::TOOLS];
    /// Gemini CLI `--output-format stream-json` lines.
    GeminiCliStreamJson = "gemini-cli-stream-json", Lines, fixed, extra, gemini_cli::GeminiCli::default(), &[gemini_cli::TOOLS];
    /// Gemini CLI `--output-format json`: one object.
    GeminiCliJson = "gemini-cli-json", Values, fixed, extra, gemini_cli::GeminiCli::default(), &[gemini_cli::TOOLS];
    /// OpenAI Responses API events (`response.created` … `response.completed`), as SSE, NDJSON or a JSON array.
    OpenaiResponsesStream = "openai-responses-stream", Sse, detected, extra, openai_responses::ResponsesStream::default(), ANY_AGENT;
    /// An OpenAI Responses API response object (`"object": "response"`).
    OpenaiResponses = "openai-responses", Values, fixed, extra, openai_responses::ResponseObject, ANY_AGENT;
    /// The Vercel AI SDK's UI message stream (v1): `start` … `finish`, `[DONE]`.
    AiSdkUiStream = "ai-sdk-ui-stream", Sse, detected, extra, ai_sdk_ui::AiSdkUi::default(), ANY_AGENT;
    /// The Agent Client Protocol as a client sees it: JSON-RPC messages both ways, one a line.
    AgentClientProtocol = "agent-client-protocol", Lines, fixed, extra, acp::Acp::default(), &[acp::TOOLS];
    // Last, so that the fuzz corpus's format bytes keep naming the formats they named.
    /// A saved Gemini CLI chat (`~/.gemini/tmp/<hash>/chats/session-*.json` or `.jsonl`).
    GeminiCliChat = "gemini-cli-chat", Values, detected, extra, gemini_chat::GeminiChat::default(), &[gemini_cli::TOOLS];
    /// GitHub Copilot CLI's session log, `~/.copilot/session-state/<id>/events.jsonl`.
    CopilotCliEvents = "copilot-cli-events", Lines, fixed, extra, copilot_cli::CopilotCli::default(), &[copilot_cli::TOOLS];
    /// Cursor's agent transcript, `~/.cursor/projects/<project>/agent-transcripts/<id>/<id>.jsonl`.
    CursorAgentTranscript = "cursor-agent-transcript", Lines, fixed, extra, cursor_agent::CursorAgent::default(), &[cursor_agent::TOOLS, cursor_cli::TOOLS];
    /// OpenCode's `opencode run --format json` events, one a line.
    OpencodeRunJson = "opencode-run-json", Lines, fixed, extra, opencode::OpenCode::run(), &[opencode::TOOLS];
    /// An OpenCode session as `opencode export` writes it (and as the library reads
    /// it from `opencode.db`): `{info, messages: [{info, parts}]}`.
    OpencodeExport = "opencode-export", Values, fixed, extra, opencode::OpenCode::export(), &[opencode::TOOLS];
}

/// The Cursor CLI's names: its `stream-json` and `json` output, and the wrapper's variant.
const CURSOR: &[ToolNames] = &[cursor_cli::TOOLS];

/// Every agent's names, and the Anthropic API's own tools: provider streams and the
/// document formats carry the tools of whichever application wrote them, agents among
/// them (Claude Code over the Anthropic API, Codex over OpenAI's, Cursor's names in
/// seed 000). A call saved without its kind (by an earlier version) is looked up here.
pub const ANY_AGENT: &[ToolNames] = &[
    cursor_cli::TOOLS,
    cursor_store::TOOLS,
    claude_code::TOOLS,
    codex::TOOLS,
    gemini_cli::TOOLS,
    anthropic::TOOLS,
    openai_responses::TOOLS,
    ai_sdk_ui::TOOLS,
    acp::TOOLS,
];

/// How a format's bytes are cut into payloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// Server-Sent Events.
    Sse,
    /// One JSON value per line.
    Lines,
    /// Whole JSON values, however laid out.
    Values,
}

impl Format {
    /// Parses a format name; `auto` gives `None` (detect from the first bytes).
    pub fn parse(name: &str) -> Result<Option<Format>, Error> {
        if name == "auto" {
            return Ok(None);
        }
        Format::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Some(Format::ALL[i]))
            .ok_or_else(|| Error::UnknownFormat(name.to_owned()))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a payload came from, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// Line number (1-based), for line-based framings.
    pub line: Option<u64>,
    /// Byte offset in the stream.
    pub offset: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}"),
            None => write!(f, "byte {}", self.offset),
        }
    }
}

/// One framed payload: an NDJSON line, an SSE event's data, a whole JSON value.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a> {
    /// The JSON text.
    pub text: &'a str,
    /// The SSE event type, for SSE framing.
    pub event: Option<&'a str>,
    /// Where it came from.
    pub at: Location,
}

/// A format adapter: payloads in, normalised events out.
pub(crate) trait Adapter {
    /// Reads one payload, applying its events to the sink (the normaliser).
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink);

    /// The stream ended. Formats that have no final event of their own (saved
    /// transcripts) end their response here; the rest leave it open so that the
    /// normaliser reports it cut off.
    fn finish(&mut self, _n: &mut dyn Sink) {}

    /// A sub-agent's own transcript, given beside the stream (Claude Code's
    /// `<session>/subagents/agent-<id>.jsonl`): formats that can nest it under the call
    /// that started it keep it; the rest drop it.
    fn subagent(&mut self, _agent_id: String, _transcript: Vec<u8>) {}

    /// A closer format than the one detected, once the payloads have shown it (the
    /// wrapper's variant starts exactly like the Cursor CLI stream).
    fn refined(&self) -> Option<Format> {
        None
    }
}

/// Parses a payload into `T`, reporting a failure as an `error` document.
pub(crate) fn parse<'a, T: Deserialize<'a>>(p: &Payload<'a>, n: &mut dyn Sink) -> Option<T> {
    or_report(docstream_model::read_json::from_str(p.text), p, n)
}

/// What was read of payload `p`, or `None` after an `error` document saying what was
/// wrong with it.
pub(crate) fn or_report<T>(
    read: Result<T, serde_json::Error>,
    p: &Payload<'_>,
    n: &mut dyn Sink,
) -> Option<T> {
    read.map_err(|e| n.apply(Event::Error(json_error(&e, p))))
        .ok()
}

/// An `error` document's facts for a JSON parse failure at `p`.
pub(crate) fn json_error(e: &serde_json::Error, p: &Payload<'_>) -> ErrorInfo {
    let deep = e.to_string().contains("recursion limit");
    let (code, message) = if deep {
        (codes::TOO_DEEP, "JSON nested too deeply")
    } else if e.is_data() {
        (
            codes::INVALID_EVENT,
            "An event did not have the expected shape",
        )
    } else {
        (codes::MALFORMED_JSON, "A line was not valid JSON")
    };
    ErrorInfo {
        at: Some(p.at.to_string()),
        code: code.to_owned(),
        source: "stream".to_owned(),
        message: format!("{message} ({}).", p.at),
        details: format!("{}: {e}; starts with {}", p.at, preview(p.text)),
    }
}

/// The first characters of a payload, quoted, for error details.
pub(crate) fn preview(text: &str) -> String {
    let mut end = text.len().min(80);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let more = if end < text.len() { "…" } else { "" };
    format!("{:?}{more}", &text[..end])
}

#[cfg(test)]
mod serde_name_tests {
    use super::Format;

    #[test]
    fn serialised_names_are_the_format_names() {
        for name in Format::NAMES {
            let format = Format::parse(name).unwrap().unwrap();
            assert_eq!(format.name(), *name);
            assert_eq!(
                serde_json::to_value(format).unwrap(),
                serde_json::json!(name)
            );
        }
    }
}

#[cfg(test)]
mod tool_name_tests {
    use super::Format;
    use crate::normalize::{ToolKind, kind_in};

    /// Each format's own names, and what they are.
    #[test]
    fn each_format_knows_its_own_tool_names() {
        use ToolKind::*;
        let cases: &[(Format, &[(&str, ToolKind)])] = &[
            (
                Format::CursorStreamJson,
                &[
                    ("editToolCall", Edit),
                    ("shellToolCall", Shell),
                    ("readToolCall", Read),
                    ("lsToolCall", List),
                    ("semSearchToolCall", CodebaseSearch),
                    ("updateTodosToolCall", Todo),
                    ("createPlanToolCall", Plan),
                    ("taskToolCall", Task),
                    ("mcpToolCall", Mcp),
                    ("StrReplace", Edit),
                    ("frobnicateToolCall", Other),
                ],
            ),
            (
                Format::CursorStore,
                &[
                    ("search_replace", Edit),
                    ("run_terminal_cmd", Shell),
                    ("run_terminal_command_v2", Shell),
                    ("edit_file_v2", Edit),
                    ("ripgrep_raw_search", Grep),
                    ("glob_file_search", Glob),
                    ("todo_write", Todo),
                ],
            ),
            (
                Format::ClaudeCodeStreamJson,
                &[
                    ("MultiEdit", Edit),
                    ("NotebookEdit", Edit),
                    ("ExitPlanMode", Plan),
                    ("TodoWrite", Todo),
                    ("LS", List),
                    ("Agent", Task),
                    ("mcp__linear__create_issue", Mcp),
                ],
            ),
            (
                Format::CodexSession,
                &[
                    ("shell_command", Shell),
                    ("container.exec", Shell),
                    ("exec_command", Shell),
                    ("local_shell", Shell),
                    ("apply_patch", Patch),
                    ("update_plan", Other),
                    ("collaboration.spawn_agent", Task),
                ],
            ),
            (
                Format::CodexExecJson,
                &[("command_execution", Shell), ("spawn_agent", Task)],
            ),
            (
                Format::GeminiCliStreamJson,
                &[
                    ("run_shell_command", Shell),
                    ("replace", Edit),
                    ("search_file_content", Grep),
                    ("list_directory", List),
                    ("google_web_search", WebSearch),
                    ("write_todos", Todo),
                ],
            ),
            (
                Format::AnthropicStream,
                &[
                    ("str_replace_based_edit_tool", Edit),
                    ("Bash", Shell),
                    ("editToolCall", Edit),
                    ("get_weather", Other),
                ],
            ),
        ];
        for (format, names) in cases {
            for &(name, kind) in *names {
                assert_eq!(kind_in(format.tools(), name), kind, "{format:?} {name}");
            }
        }
    }

    /// An agent's names are its own: another agent's spelling is not read as its tool.
    #[test]
    fn an_agents_names_do_not_leak_into_another_agents_format() {
        assert_eq!(
            kind_in(Format::ClaudeCodeStreamJson.tools(), "readToolCall"),
            ToolKind::Other
        );
        assert_eq!(
            kind_in(Format::GeminiCliStreamJson.tools(), "MultiEdit"),
            ToolKind::Other
        );
        assert_eq!(
            kind_in(Format::CursorStreamJson.tools(), "run_shell_command"),
            ToolKind::Other
        );
    }
}
