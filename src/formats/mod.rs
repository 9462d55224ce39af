//! Wire formats: one module per format, each turning its payloads into normalised
//! [`Event`](crate::normalize::Event)s. Adding a format is one module here, one line of
//! the `formats!` table and one line of detection in [`detect`].

mod anthropic;
mod apply_patch;
mod claude_code;
mod codex;
mod common;
mod cursor_cli;
pub(crate) mod cursor_store;
mod cursor_wrapper;
pub mod detect;
mod document_sse;
mod gemini;
mod gemini_cli;
mod openai;
mod response_json;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{Error, codes};
use crate::normalize::{ErrorInfo, Event, Sink};

/// The formats, written once: each line gives the variant of [`Format`], its name, how
/// it is framed, whether naming it fixes that framing (`fixed`) or it comes in several
/// and is still `detected` from the first bytes (SSE, NDJSON, a JSON array), and a
/// fresh adapter for it.
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident = $name:literal, $framing:ident, $named:ident, $adapter:expr;)*) => {
        /// The formats docstream reads. Serialised as its [`name`](Format::name) (the names
        /// are the variants in kebab case; a test keeps the two equal).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
        #[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
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

            /// A fresh adapter for this format.
            pub(crate) fn adapter(self) -> Box<dyn Adapter> {
                match self {
                    $(Format::$variant => Box::new($adapter),)*
                }
            }
        }
    };
    (@named fixed, $framing:expr) => { Some($framing) };
    (@named detected, $framing:expr) => { None };
}

formats! {
    /// The document SSE stream of seed 000 §5.
    DocumentSse = "document-sse", Sse, fixed, document_sse::DocumentSse::default();
    /// A complete response object (seed 000 §2–4), or a saved docstream conversation.
    ResponseJson = "response-json", Values, fixed, response_json::ResponseJson;
    /// Cursor Agent CLI `stream-json` (seed 001), NDJSON.
    CursorStreamJson = "cursor-stream-json", Lines, fixed, cursor_cli::CursorCli::default();
    /// Cursor Agent CLI `json`: one `result` object (seed 001).
    CursorJson = "cursor-json", Values, fixed, cursor_cli::CursorCli::default();
    /// The Python wrapper's event variant of the Cursor CLI stream (seed 004).
    CursorWrapper = "cursor-wrapper", Lines, fixed, cursor_cli::CursorCli::default();
    /// An Anthropic message history (seed 002): an array of messages, a request with
    /// `messages`, or one response `message`.
    AnthropicMessages = "anthropic-messages", Values, fixed, anthropic::Messages;
    /// Anthropic's streamed events (`message_start` … `message_stop`), as SSE, NDJSON
    /// or a JSON array.
    AnthropicStream = "anthropic-stream", Sse, detected, anthropic::Stream::default();
    /// An OpenAI Chat Completions history (seed 002): an array of messages, a request
    /// with `messages`, or one `chat.completion`.
    OpenaiMessages = "openai-messages", Values, fixed, openai::Messages;
    /// OpenAI `chat.completion.chunk`s, as SSE (ending with `[DONE]`) or NDJSON.
    OpenaiStream = "openai-stream", Sse, detected, openai::Stream::default();
    /// Gemini `streamGenerateContent` events (seed 002), as SSE, NDJSON or a JSON array.
    GeminiStream = "gemini-stream", Sse, detected, gemini::GeminiStream::default();
    /// Claude Code `--output-format stream-json` lines.
    ClaudeCodeStreamJson = "claude-code-stream-json", Lines, detected, claude_code::ClaudeCode::default();
    /// A saved Claude Code transcript (`~/.claude/projects/…/*.jsonl`), or saved
    /// stream-json messages.
    ClaudeCodeTranscript = "claude-code-transcript", Lines, detected, claude_code::ClaudeCode::transcript();
    /// Cursor's saved conversation (seed 003): `composerData`, or the grouped
    /// `conversation` request form; one whole JSON value.
    CursorStore = "cursor-store", Values, fixed, cursor_store::CursorStore;
    /// Codex CLI `codex exec --json` lines (`thread.started`, `item.*`, `turn.*`).
    CodexExecJson = "codex-exec-json", Lines, fixed, codex::exec::CodexExec::default();
    /// A saved Codex CLI session (`~/.codex/sessions/…/rollout-*.jsonl`).
    CodexSession = "codex-session", Lines, fixed, codex::session::CodexSession::default();
    /// Gemini CLI `--output-format stream-json` lines.
    GeminiCliStreamJson = "gemini-cli-stream-json", Lines, fixed, gemini_cli::GeminiCli::default();
    /// Gemini CLI `--output-format json`: one object.
    GeminiCliJson = "gemini-cli-json", Values, fixed, gemini_cli::GeminiCli::default();
}

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

    /// A closer format than the one detected, once the payloads have shown it (the
    /// wrapper's variant starts exactly like the Cursor CLI stream).
    fn refined(&self) -> Option<Format> {
        None
    }
}

/// Parses a payload into `T`, reporting a failure as an `error` document.
pub(crate) fn parse<'a, T: Deserialize<'a>>(p: &Payload<'a>, n: &mut dyn Sink) -> Option<T> {
    match serde_json::from_str(p.text) {
        Ok(v) => Some(v),
        Err(e) => {
            n.apply(Event::Error(json_error(&e, p)));
            None
        }
    }
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
