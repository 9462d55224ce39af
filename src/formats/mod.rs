//! Wire formats: one module per format, each turning its payloads into normalised
//! [`Event`](crate::normalize::Event)s. Adding a format is one module here, one variant
//! of [`Format`] and one line of detection in [`detect`].

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

/// The formats docstream reads. Serialised as its [`name`](Format::name) (the names
/// are the variants in kebab case; a test keeps the two equal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "wasm", derive(tsify::Tsify))]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Format {
    /// The document SSE stream of seed 000 §5.
    DocumentSse,
    /// A complete response object (seed 000 §2–4), or a saved docstream conversation.
    ResponseJson,
    /// Cursor Agent CLI `stream-json` (seed 001), NDJSON.
    CursorStreamJson,
    /// Cursor Agent CLI `json`: one `result` object (seed 001).
    CursorJson,
    /// The Python wrapper's event variant of the Cursor CLI stream (seed 004).
    CursorWrapper,
    /// An Anthropic message history (seed 002): an array of messages, a request with
    /// `messages`, or one response `message`.
    AnthropicMessages,
    /// Anthropic's streamed events (`message_start` … `message_stop`), as SSE, NDJSON
    /// or a JSON array.
    AnthropicStream,
    /// An OpenAI Chat Completions history (seed 002): an array of messages, a request
    /// with `messages`, or one `chat.completion`.
    OpenaiMessages,
    /// OpenAI `chat.completion.chunk`s, as SSE (ending with `[DONE]`) or NDJSON.
    OpenaiStream,
    /// Gemini `streamGenerateContent` events (seed 002), as SSE, NDJSON or a JSON array.
    GeminiStream,
    /// Claude Code `--output-format stream-json` lines.
    ClaudeCodeStreamJson,
    /// A saved Claude Code transcript (`~/.claude/projects/…/*.jsonl`), or saved
    /// stream-json messages.
    ClaudeCodeTranscript,
    /// Cursor's saved conversation (seed 003): `composerData`, or the grouped
    /// `conversation` request form; one whole JSON value.
    CursorStore,
    /// Codex CLI `codex exec --json` lines (`thread.started`, `item.*`, `turn.*`).
    CodexExecJson,
    /// A saved Codex CLI session (`~/.codex/sessions/…/rollout-*.jsonl`).
    CodexSession,
    /// Gemini CLI `--output-format stream-json` lines.
    GeminiCliStreamJson,
    /// Gemini CLI `--output-format json`: one object.
    GeminiCliJson,
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
    /// Every format name accepted by [`Format::parse`], `auto` aside.
    pub const NAMES: &'static [&'static str] = &[
        "document-sse",
        "response-json",
        "cursor-stream-json",
        "cursor-json",
        "cursor-wrapper",
        "anthropic-messages",
        "anthropic-stream",
        "openai-messages",
        "openai-stream",
        "gemini-stream",
        "claude-code-stream-json",
        "claude-code-transcript",
        "cursor-store",
        "codex-exec-json",
        "codex-session",
        "gemini-cli-stream-json",
        "gemini-cli-json",
    ];

    /// The format's name (`cursor-stream-json` …).
    pub fn name(self) -> &'static str {
        match self {
            Format::DocumentSse => "document-sse",
            Format::ResponseJson => "response-json",
            Format::CursorStreamJson => "cursor-stream-json",
            Format::CursorJson => "cursor-json",
            Format::CursorWrapper => "cursor-wrapper",
            Format::AnthropicMessages => "anthropic-messages",
            Format::AnthropicStream => "anthropic-stream",
            Format::OpenaiMessages => "openai-messages",
            Format::OpenaiStream => "openai-stream",
            Format::GeminiStream => "gemini-stream",
            Format::ClaudeCodeStreamJson => "claude-code-stream-json",
            Format::ClaudeCodeTranscript => "claude-code-transcript",
            Format::CursorStore => "cursor-store",
            Format::CodexExecJson => "codex-exec-json",
            Format::CodexSession => "codex-session",
            Format::GeminiCliStreamJson => "gemini-cli-stream-json",
            Format::GeminiCliJson => "gemini-cli-json",
        }
    }

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

    const ALL: [Format; 17] = [
        Format::DocumentSse,
        Format::ResponseJson,
        Format::CursorStreamJson,
        Format::CursorJson,
        Format::CursorWrapper,
        Format::AnthropicMessages,
        Format::AnthropicStream,
        Format::OpenaiMessages,
        Format::OpenaiStream,
        Format::GeminiStream,
        Format::ClaudeCodeStreamJson,
        Format::ClaudeCodeTranscript,
        Format::CursorStore,
        Format::CodexExecJson,
        Format::CodexSession,
        Format::GeminiCliStreamJson,
        Format::GeminiCliJson,
    ];

    /// How this format is usually framed.
    pub fn framing(self) -> Framing {
        match self {
            Format::DocumentSse => Framing::Sse,
            Format::ResponseJson | Format::CursorJson => Framing::Values,
            Format::CursorStreamJson | Format::CursorWrapper => Framing::Lines,
            Format::AnthropicMessages | Format::OpenaiMessages => Framing::Values,
            Format::AnthropicStream | Format::OpenaiStream | Format::GeminiStream => Framing::Sse,
            Format::ClaudeCodeStreamJson | Format::ClaudeCodeTranscript => Framing::Lines,
            Format::CursorStore => Framing::Values,
            Format::CodexExecJson | Format::CodexSession | Format::GeminiCliStreamJson => {
                Framing::Lines
            }
            Format::GeminiCliJson => Framing::Values,
        }
    }

    /// The framing used when the caller names this format: `None` for formats that
    /// come in several framings (SSE, NDJSON, a JSON array), which are then detected
    /// from the first bytes as usual.
    pub fn named_framing(self) -> Option<Framing> {
        match self {
            Format::AnthropicStream
            | Format::OpenaiStream
            | Format::GeminiStream
            | Format::ClaudeCodeStreamJson
            | Format::ClaudeCodeTranscript => None,
            other => Some(other.framing()),
        }
    }

    /// A fresh adapter for this format.
    pub(crate) fn adapter(self) -> Box<dyn Adapter> {
        match self {
            Format::DocumentSse => Box::new(document_sse::DocumentSse::default()),
            Format::ResponseJson => Box::new(response_json::ResponseJson),
            Format::CursorStreamJson | Format::CursorJson | Format::CursorWrapper => {
                Box::new(cursor_cli::CursorCli::default())
            }
            Format::AnthropicMessages => Box::new(anthropic::Messages),
            Format::AnthropicStream => Box::new(anthropic::Stream::default()),
            Format::OpenaiMessages => Box::new(openai::Messages),
            Format::OpenaiStream => Box::new(openai::Stream::default()),
            Format::GeminiStream => Box::new(gemini::GeminiStream::default()),
            Format::ClaudeCodeStreamJson => Box::new(claude_code::ClaudeCode::default()),
            Format::ClaudeCodeTranscript => Box::new(claude_code::ClaudeCode::transcript()),
            Format::CursorStore => Box::new(cursor_store::CursorStore),
            Format::CodexExecJson => Box::new(codex::exec::CodexExec::default()),
            Format::CodexSession => Box::new(codex::session::CodexSession::default()),
            Format::GeminiCliStreamJson | Format::GeminiCliJson => {
                Box::new(gemini_cli::GeminiCli::default())
            }
        }
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
