//! Format detection: the framing from the first bytes, then the format from the first
//! payload. A caller who names the format skips both.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::IgnoredAny;

use super::{Format, Framing};

/// Decides the framing from the first bytes, incrementally (each byte is looked at
/// once, so a long first line costs linear time).
///
/// Lines before the stream that are in no format (a wrapper's `Warning: proxy
/// configured`, a shell banner) are skipped: detection starts again on the next line,
/// up to [`MAX_NOISE_LINES`] lines and [`MAX_NOISE_BYTES`] bytes of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct FramingDetector {
    /// Bytes seen.
    seen: usize,
    /// First non-blank byte of the current line, once seen.
    first: Option<u8>,
    /// For SSE: the current line's bytes, up to a field name's length.
    head: Vec<u8>,
    depth: usize,
    in_string: bool,
    escaped: bool,
    /// The first JSON value closed (a line must then end with only blanks after it).
    closed: bool,
    /// Inside a line that is in no format, until its LF.
    in_noise: bool,
    /// LFs seen.
    newlines: u64,
    /// What was skipped.
    noise: Noise,
}

/// The lines skipped before the stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Noise {
    /// Lines skipped.
    pub lines: u64,
    /// Bytes up to the end of the last skipped line (with its LF).
    pub bytes: usize,
    /// Lines (counting blank ones) up to there.
    pub newlines: u64,
    /// The start of the first skipped line, for the message.
    pub excerpt: Vec<u8>,
}

/// What the detector knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detection {
    /// More bytes are needed.
    Undecided,
    /// The framing.
    Framing(Framing),
    /// No format docstream reads starts like this.
    Unknown,
}

/// A first line longer than this without closing its JSON value is taken as a whole
/// JSON value.
const MAX_FIRST_LINE: usize = 1 << 20;
/// At most this many lines in no format are skipped before the stream.
pub(crate) const MAX_NOISE_LINES: u64 = 64;
/// At most this many bytes of lines in no format are skipped before the stream.
pub(crate) const MAX_NOISE_BYTES: usize = 64 << 10;
/// Bytes of the first skipped line kept for the message.
const EXCERPT: usize = 80;

const SSE_FIELDS: [&[u8]; 5] = [b"event", b"data", b"id", b"retry", b""];

impl FramingDetector {
    /// Looks at more bytes (after any BOM); `at_end` when the stream has ended.
    pub(crate) fn feed(&mut self, bytes: &[u8], at_end: bool) -> Detection {
        for &b in bytes {
            self.seen += 1;
            if b == b'\n' {
                self.newlines += 1;
            }
            if self.in_noise {
                if let Some(d) = self.noise_byte(b) {
                    return d;
                }
                continue;
            }
            let Some(first) = self.first else {
                if b.is_ascii_whitespace() {
                    continue;
                }
                self.first = Some(b);
                if matches!(b, b'{' | b'[') {
                    self.depth = 1;
                } else {
                    self.head.push(b);
                    if let Some(d) = self.sse_byte(b) {
                        return d;
                    }
                }
                continue;
            };
            if matches!(first, b'{' | b'[') {
                // Checked per byte, so that the decision does not depend on chunking.
                if self.seen - self.noise.bytes > MAX_FIRST_LINE {
                    return Detection::Framing(Framing::Values);
                }
                if let Some(d) = self.json_byte(b) {
                    return d;
                }
            } else {
                self.head.push(b);
                if let Some(d) = self.sse_byte(b) {
                    return d;
                }
            }
        }
        match self.first {
            _ if self.in_noise && at_end => Detection::Unknown,
            None if at_end && self.noise.lines > 0 => Detection::Unknown,
            None => Detection::Undecided,
            Some(b'{' | b'[') if at_end => Detection::Framing(Framing::Values),
            Some(b'{' | b'[') => Detection::Undecided,
            Some(_) if at_end => self.sse_decision(true).unwrap_or(Detection::Unknown),
            Some(_) => Detection::Undecided,
        }
    }

    /// What was skipped before the stream.
    pub(crate) fn noise(&self) -> &Noise {
        &self.noise
    }

    /// The SSE decision after a byte of a line that does not start JSON: a line that
    /// is not SSE starts skipping.
    fn sse_byte(&mut self, b: u8) -> Option<Detection> {
        match self.sse_decision(false)? {
            Detection::Unknown => {
                self.in_noise = true;
                self.noise_byte(b)
            }
            d => Some(d),
        }
    }

    /// A byte of a line being skipped.
    fn noise_byte(&mut self, b: u8) -> Option<Detection> {
        if self.noise.lines == 0 {
            if !self.head.is_empty() {
                // The line so far, `b` included.
                self.noise.excerpt.append(&mut self.head);
                if b == b'\n' {
                    self.noise.excerpt.pop();
                }
            } else if self.noise.excerpt.len() < EXCERPT && b != b'\n' {
                self.noise.excerpt.push(b);
            }
        }
        if b == b'\n' {
            self.noise.lines += 1;
            self.noise.bytes = self.seen;
            self.noise.newlines = self.newlines;
            self.in_noise = false;
            self.first = None;
            self.head.clear();
            if self.noise.lines > MAX_NOISE_LINES {
                return Some(Detection::Unknown);
            }
        }
        (self.in_noise && self.seen > MAX_NOISE_BYTES).then_some(Detection::Unknown)
    }

    fn json_byte(&mut self, b: u8) -> Option<Detection> {
        if self.in_string {
            match (self.escaped, b) {
                (true, _) => self.escaped = false,
                (false, b'\\') => self.escaped = true,
                (false, b'"') => self.in_string = false,
                _ => {}
            }
            return None;
        }
        if b == b'\n' {
            let lines = self.closed;
            return Some(Detection::Framing(if lines {
                Framing::Lines
            } else {
                Framing::Values
            }));
        }
        if self.closed {
            // Something after the first value on its line: not one value per line.
            if !b.is_ascii_whitespace() {
                return Some(Detection::Framing(Framing::Values));
            }
            return None;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth -= 1;
                self.closed = self.depth == 0;
            }
            _ => {}
        }
        None
    }

    /// SSE when the first line starts with a field name and `:` (or is a bare field
    /// name, or a comment).
    fn sse_decision(&self, at_end: bool) -> Option<Detection> {
        let head = &self.head;
        let name_end = head.iter().position(|&b| matches!(b, b':' | b'\n' | b'\r'));
        match name_end {
            Some(i) => {
                let name = &head[..i];
                Some(if SSE_FIELDS.contains(&name) {
                    Detection::Framing(Framing::Sse)
                } else {
                    Detection::Unknown
                })
            }
            None if at_end => Some(if SSE_FIELDS[..4].contains(&head.as_slice()) {
                Detection::Framing(Framing::Sse)
            } else {
                Detection::Unknown
            }),
            None if SSE_FIELDS[..4].iter().any(|f| f.starts_with(head)) => None,
            None => Some(Detection::Unknown),
        }
    }
}

/// The keys that tell JSON formats apart.
#[derive(Deserialize)]
struct Sniff<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(default)]
    documents: Option<IgnoredAny>,
    #[serde(default)]
    turns: Option<IgnoredAny>,
    #[serde(borrow, default)]
    object: Option<Cow<'a, str>>,
    #[serde(default)]
    choices: Option<IgnoredAny>,
    #[serde(default)]
    candidates: Option<IgnoredAny>,
    #[serde(default, rename = "usageMetadata")]
    usage_metadata: Option<IgnoredAny>,
    #[serde(default)]
    response: Option<WrappedSniff>,
    #[serde(default)]
    messages: Option<Vec<MessageSniff>>,
    #[serde(default)]
    role: Option<IgnoredAny>,
    #[serde(default)]
    uuid: Option<IgnoredAny>,
    #[serde(default)]
    claude_code_version: Option<IgnoredAny>,
    #[serde(default, rename = "sessionId")]
    session_id_camel: Option<IgnoredAny>,
    #[serde(default, rename = "session_id")]
    session_id_snake: Option<IgnoredAny>,
    #[serde(default, rename = "leafUuid")]
    leaf_uuid: Option<IgnoredAny>,
    #[serde(default)]
    stats: Option<IgnoredAny>,
    #[serde(default)]
    error: Option<IgnoredAny>,
    #[serde(default)]
    jsonrpc: Option<IgnoredAny>,
    #[serde(default, rename = "projectHash")]
    project_hash: Option<IgnoredAny>,
    #[serde(default)]
    message: Option<IgnoredAny>,
}

/// `response`: Gemini's Code Assist wrapper holds an event; anything else is not it.
#[derive(Deserialize)]
#[serde(untagged)]
enum WrappedSniff {
    Gemini {
        #[serde(rename = "candidates")]
        _candidates: IgnoredAny,
    },
    /// Gemini CLI's `json` output: the response text.
    Text(#[allow(dead_code)] String),
    Other(IgnoredAny),
}

/// Anthropic's error event: its `error` is an object (`type`, `message`).
#[derive(Deserialize)]
struct AnthropicError<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(rename = "error")]
    _error: serde_json::Map<String, serde_json::Value>,
}

/// What a message of a history shows of its provider.
#[derive(Deserialize)]
struct MessageSniff {
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    tool_calls: Option<IgnoredAny>,
    #[serde(default)]
    tool_call_id: Option<IgnoredAny>,
    #[serde(default)]
    reasoning_content: Option<IgnoredAny>,
    #[serde(default)]
    function_call: Option<IgnoredAny>,
    #[serde(default)]
    content: Option<ContentSniff>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ContentSniff {
    Blocks(Vec<BlockSniff>),
    Other(IgnoredAny),
}

#[derive(Deserialize)]
struct BlockSniff {
    #[serde(rename = "type", default)]
    kind: Option<String>,
}

/// Anthropic's streamed event types.
const ANTHROPIC_EVENTS: [&str; 7] = [
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
];

/// The chunk types a Vercel AI SDK UI message stream starts with.
const UI_CHUNKS: [&str; 9] = [
    "start",
    "start-step",
    "text-start",
    "reasoning-start",
    "tool-input-start",
    "tool-input-available",
    "message-metadata",
    "finish-step",
    "finish",
];

/// Whose message history this is: OpenAI's shows itself by `tool` messages,
/// `tool_calls`, reasoning fields, `system` messages or its content part types;
/// Anthropic's by its block types. Plain text histories read the same either way.
fn history_format(messages: &[MessageSniff]) -> Format {
    for m in messages {
        let openai_role = matches!(
            m.role.as_deref(),
            Some("tool" | "function" | "system" | "developer")
        );
        if openai_role
            || m.tool_calls.is_some()
            || m.tool_call_id.is_some()
            || m.reasoning_content.is_some()
            || m.function_call.is_some()
        {
            return Format::OpenaiMessages;
        }
        if let Some(ContentSniff::Blocks(blocks)) = &m.content {
            for b in blocks {
                match b.kind.as_deref() {
                    Some("tool_use" | "tool_result" | "thinking" | "redacted_thinking") => {
                        return Format::AnthropicMessages;
                    }
                    Some("image_url" | "input_audio" | "file") => return Format::OpenaiMessages,
                    _ => {}
                }
            }
        }
    }
    Format::AnthropicMessages
}

/// The format of a JSON payload (an NDJSON line or a whole value); `None` if unknown.
pub(crate) fn json_format(text: &str) -> Option<Format> {
    let text = text.trim_start();
    if text.starts_with('[') {
        return array_format(text);
    }
    if !text.starts_with('{') {
        return None;
    }
    if super::cursor_store::sniff(text) {
        return Some(Format::CursorStore);
    }
    if let Some(f) = super::opencode::sniff(text) {
        return Some(f);
    }
    let sniff: Sniff<'_> = docstream_model::read_json::from_str(text).ok()?;
    if sniff.documents.is_some() || sniff.turns.is_some() {
        return Some(Format::ResponseJson);
    }
    if sniff.jsonrpc.is_some() {
        return Some(Format::AgentClientProtocol);
    }
    if sniff.project_hash.is_some() && sniff.session_id_camel.is_some() {
        return Some(Format::GeminiCliChat);
    }
    if let Some(f) = provider_format(&sniff) {
        return Some(f);
    }
    if cursor_agent_line(&sniff) {
        return Some(Format::CursorAgentTranscript);
    }
    if let Some(f) = agent_cli_format(&sniff) {
        return Some(f);
    }
    match sniff.kind.as_deref()? {
        "system" | "user" | "assistant" | "thinking" | "tool_call" | "result"
        | "interaction_query" | "connection" | "retry" => Some(Format::CursorStreamJson),
        "tool-call-started" | "tool-call-completed" => Some(Format::CursorWrapper),
        _ => None,
    }
}

/// A line of Cursor's agent transcript: a message (`role`, `message`, no `type`), or a
/// turn's end.
fn cursor_agent_line(sniff: &Sniff<'_>) -> bool {
    match sniff.kind.as_deref() {
        None => sniff.role.is_some() && sniff.message.is_some(),
        Some(kind) => super::cursor_agent::is_line_type(kind),
    }
}

/// Codex CLI and Gemini CLI, from an object's `type` (or, for Gemini CLI's `json`
/// output, which has none, its keys).
fn agent_cli_format(sniff: &Sniff<'_>) -> Option<Format> {
    let Some(kind) = sniff.kind.as_deref() else {
        let text = matches!(sniff.response, Some(WrappedSniff::Text(_)));
        return (text
            || (sniff.stats.is_some() && sniff.candidates.is_none())
            || (sniff.error.is_some() && sniff.session_id_snake.is_some()))
        .then_some(Format::GeminiCliJson);
    };
    if ["thread.", "turn.", "item."]
        .iter()
        .any(|p| kind.starts_with(p))
    {
        return Some(Format::CodexExecJson);
    }
    if super::copilot_cli::is_event_type(kind) {
        return Some(Format::CopilotCliEvents);
    }
    match kind {
        "session_meta" | "turn_context" | "response_item" | "event_msg" | "compacted" => {
            Some(Format::CodexSession)
        }
        "init" => Some(Format::GeminiCliStreamJson),
        // A run that failed before it started has only its `result`.
        "result" if sniff.stats.is_some() => Some(Format::GeminiCliStreamJson),
        _ => None,
    }
}

/// The provider formats and Claude Code, from an object's keys.
fn provider_format(sniff: &Sniff<'_>) -> Option<Format> {
    let kind = sniff.kind.as_deref();
    if let Some(messages) = &sniff.messages {
        return Some(history_format(messages));
    }
    if sniff.session_id_camel.is_some()
        || sniff.leaf_uuid.is_some()
        || matches!(kind, Some("summary" | "file-history-snapshot"))
    {
        return Some(Format::ClaudeCodeTranscript);
    }
    if sniff.uuid.is_some() || sniff.claude_code_version.is_some() || kind == Some("stream_event") {
        return Some(Format::ClaudeCodeStreamJson);
    }
    if kind.is_some_and(|k| ANTHROPIC_EVENTS.contains(&k)) {
        return Some(Format::AnthropicStream);
    }
    if kind.is_some_and(|k| UI_CHUNKS.contains(&k) || k.starts_with("data-")) {
        return Some(Format::AiSdkUiStream);
    }
    if kind == Some("message") && sniff.role.is_some() {
        return Some(Format::AnthropicMessages);
    }
    match sniff.object.as_deref() {
        Some("chat.completion.chunk") => return Some(Format::OpenaiStream),
        Some("chat.completion") => return Some(Format::OpenaiMessages),
        Some("response") => return Some(Format::OpenaiResponses),
        _ if kind.is_some_and(|k| k.starts_with("response.")) => {
            return Some(Format::OpenaiResponsesStream);
        }
        _ => {}
    }
    let wrapped = matches!(sniff.response, Some(WrappedSniff::Gemini { .. }));
    if sniff.candidates.is_some() || sniff.usage_metadata.is_some() || wrapped {
        return Some(Format::GeminiStream);
    }
    sniff.choices.is_some().then_some(Format::OpenaiStream)
}

/// A JSON array: a message history, or events of a stream, by its first element.
fn array_format(text: &str) -> Option<Format> {
    let items: Vec<&serde_json::value::RawValue> =
        docstream_model::read_json::from_str(text).ok()?;
    let first: Sniff<'_> = docstream_model::read_json::from_str(items.first()?.get()).ok()?;
    if first.documents.is_some() {
        return Some(Format::ResponseJson);
    }
    if first.role.is_some() && first.kind.as_deref() != Some("message") {
        let messages: Vec<MessageSniff> = docstream_model::read_json::from_str(text).ok()?;
        return Some(history_format(&messages));
    }
    match provider_format(&first)? {
        f @ (Format::AnthropicStream | Format::GeminiStream | Format::OpenaiStream) => Some(f),
        f @ (Format::OpenaiResponsesStream | Format::AiSdkUiStream) => Some(f),
        _ => None,
    }
}

/// The format of an SSE stream from its first event; `None` if unknown.
pub(crate) fn sse_format(event: &str, data: &str) -> Option<Format> {
    const DOC_EVENTS: [&str; 8] = [
        "document_start",
        "content_delta",
        "tool_call_start",
        "tool_call_arguments",
        "tool_result",
        "document_end",
        "done",
        "error",
    ];
    if event == "error" || event == "message" {
        // Anthropic's error event, `{"type":"error","error":{…}}`, may come first: an
        // overloaded API answers with nothing else.
        if docstream_model::read_json::from_str::<AnthropicError>(data)
            .is_ok_and(|e| e.kind == "error")
        {
            return Some(Format::AnthropicStream);
        }
    }
    if DOC_EVENTS.contains(&event) {
        return Some(Format::DocumentSse);
    }
    let sniff: Sniff<'_> = docstream_model::read_json::from_str(data).ok()?;
    if sniff
        .kind
        .as_deref()
        .is_some_and(|k| DOC_EVENTS.contains(&k))
    {
        return Some(Format::DocumentSse);
    }
    match provider_format(&sniff)? {
        f @ (Format::AnthropicStream | Format::GeminiStream | Format::OpenaiStream) => Some(f),
        f @ (Format::OpenaiResponsesStream | Format::AiSdkUiStream) => Some(f),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect(input: &[u8]) -> Detection {
        let mut d = FramingDetector::default();
        let mut last = Detection::Undecided;
        for b in input.chunks(1) {
            last = d.feed(b, false);
            if last != Detection::Undecided {
                return last;
            }
        }
        if last == Detection::Undecided {
            d.feed(&[], true)
        } else {
            last
        }
    }

    #[test]
    fn framings() {
        assert_eq!(
            detect(b"{\"a\":\"{\\n\"}\n{}"),
            Detection::Framing(Framing::Lines)
        );
        assert_eq!(
            detect(b"  {\n  \"a\": 1\n}"),
            Detection::Framing(Framing::Values)
        );
        assert_eq!(detect(b"{\"a\":1}"), Detection::Framing(Framing::Values));
        assert_eq!(detect(b"[1] [2]\n"), Detection::Framing(Framing::Values));
        assert_eq!(
            detect(b"event: x\ndata: y\n\n"),
            Detection::Framing(Framing::Sse)
        );
        assert_eq!(detect(b": comment\n"), Detection::Framing(Framing::Sse));
        assert_eq!(detect(b"data"), Detection::Framing(Framing::Sse));
        assert_eq!(detect(b"hello world"), Detection::Unknown);
        assert_eq!(detect(b"dat"), Detection::Unknown);
    }

    #[test]
    fn lines_in_no_format_are_skipped() {
        let input = b"Warning: proxy\n\nbanner\n{\"a\":1}\n";
        let mut d = FramingDetector::default();
        assert_eq!(d.feed(input, false), Detection::Framing(Framing::Lines));
        assert_eq!(d.noise().lines, 2);
        assert_eq!(d.noise().newlines, 3);
        assert_eq!(d.noise().bytes, 23);
        assert_eq!(d.noise().excerpt, b"Warning: proxy");
        assert_eq!(
            detect(b"Warning\ndata: x\n\n"),
            Detection::Framing(Framing::Sse)
        );
        assert_eq!(detect(b"a\nb\nc\n"), Detection::Unknown);
        let many = "noise\n".repeat(MAX_NOISE_LINES as usize + 1) + "{}\n";
        assert_eq!(detect(many.as_bytes()), Detection::Unknown);
        let long = "x".repeat(MAX_NOISE_BYTES + 1) + "\n{}\n";
        assert_eq!(detect(long.as_bytes()), Detection::Unknown);
    }
}
