//! The conversation: user turns and responses (seed 000 §2, SPEC §1).

use serde::{Deserialize, Serialize};

use super::changes::DocKey;
use super::document::{Document, Meta};

/// Progress of a response.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum ResponseStatus {
    /// Still receiving.
    #[default]
    Streaming,
    /// Ended normally.
    Completed,
    /// Ended with an error, or cut off.
    Error,
}

/// Token counts (seed 000 `UsageInfo`, plus the cache counts the providers report).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Input tokens.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub prompt_tokens: u64,
    /// Output tokens.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub completion_tokens: u64,
    /// Their sum, or what the format reports.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub total_tokens: u64,
    /// Input tokens read from a cache (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub cache_read_tokens: Option<u64>,
    /// Input tokens written to a cache (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub cache_write_tokens: Option<u64>,
    /// Output tokens spent reasoning, counted within `completion_tokens` (addition):
    /// where the source counts them apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub reasoning_tokens: Option<u64>,
}

/// Response metadata (seed 000 `ResponseMetadata`, plus what the formats add).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ResponseMetadata {
    /// Wall time of the response, as the format reports it.
    #[serde(
        default,
        rename = "duration_ms",
        skip_serializing_if = "Option::is_none"
    )]
    #[serde(deserialize_with = "super::lenient::value")]
    pub duration_ms: Option<u64>,
    /// Tool-backed documents in the response.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub tool_call_count: u32,
    /// Model turns (steps of the agent loop): one, plus one for each return to the model
    /// after tool results.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::value")]
    pub turn_count: u32,
    /// API time, where reported (addition).
    #[serde(
        default,
        rename = "duration_api_ms",
        skip_serializing_if = "Option::is_none"
    )]
    #[serde(deserialize_with = "super::lenient::value")]
    pub duration_api_ms: Option<u64>,
    /// Why the model stopped, where reported (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// Request id, where reported (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// Working directory of the agent, where reported (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// What the response cost in US dollars, where the format states it (Claude Code's
    /// `total_cost_usd`) (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub cost_usd: Option<f64>,
}

/// One response: seed 000 §2's top-level object (`ChatResponse` in seed 000 §6; the
/// name also keeps it apart from fetch's `Response` in TypeScript).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ChatResponse {
    /// Id of this response.
    #[serde(default)]
    pub id: String,
    /// Id of the conversation (session).
    #[serde(default)]
    pub conversation_id: String,
    /// Model name as the format reports it.
    #[serde(default)]
    pub model: String,
    /// `agent`, `plan`, `ask` or `debug`.
    #[serde(default)]
    pub mode: String,
    /// ISO 8601 creation time, where the format carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// Progress.
    #[serde(default)]
    #[serde(deserialize_with = "super::lenient::response_status")]
    pub status: ResponseStatus,
    /// The documents, in order.
    #[serde(default)]
    pub documents: Vec<Document>,
    /// Token counts, where reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// Counts and timings.
    #[serde(default)]
    pub metadata: ResponseMetadata,
    /// For a sub-agent's run: the tool call that started it, in an earlier turn
    /// (addition). Only docstream links runs: a saved value is not read back.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::document::not_read_back"
    )]
    pub parent: Option<ParentCall>,
    /// Set when the user rewound the conversation to before this turn (or a retry
    /// branched off before it): what the agent did next never saw it (addition). Only
    /// docstream marks rewinds: a saved value is not read back.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::document::not_read_back"
    )]
    pub rewound: Option<Rewound>,
}

/// A turn of a branch the user rewound from (Claude Code's `parentUuid` tree): the
/// conversation went on from an earlier point, as if it had not been (addition).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Rewound {
    /// Index of the turn that replaced the branch: the first of the branch taken instead.
    pub replaced_by: usize,
    /// True for the first turn of the abandoned branch, where it forked off.
    pub fork: bool,
}

/// The agent's context was compacted here: what came before was replaced, for the
/// model, by a summary (the turn's `content`) (addition).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Compaction {
    /// What started it, as the source says: `auto` (the context was full) or `manual`
    /// (the user asked, `/compact`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// Tokens in the context before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub pre_tokens: Option<u64>,
    /// Tokens in the context after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub post_tokens: Option<u64>,
}

/// The tool call that started a sub-agent's run (addition).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ParentCall {
    /// Index of the turn holding the call.
    pub turn: usize,
    /// Index of the call's document in that turn's response.
    pub index: usize,
    /// The call's document id.
    pub document_id: String,
    /// The call's tool call id.
    pub tool_call_id: String,
    /// What the call asked the sub-agent to do, in a few words.
    #[serde(default)]
    pub description: String,
    /// The kind of agent, where the call names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

/// Something the user attached to a prompt: a file, a selection, an image.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    /// `file`, `selection`, `image`, `document` ….
    pub kind: String,
    /// Path or name, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// First line of a selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub start_line: Option<u64>,
    /// Last line of a selection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub end_line: Option<u64>,
    /// The attached text, where the format carries it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A user turn: the prompt and its attachments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct UserTurn {
    /// Id of the turn.
    pub id: String,
    /// The prompt text.
    #[serde(default)]
    pub content: String,
    /// What the format attaches to it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
    /// ISO 8601 time, where the format carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// Who wrote the prompt when it was not the person who ran the agent: a
    /// sub-agent's prompt is written by the agent that started it. Absent: the person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub from: Option<PromptFrom>,
    /// Set when this turn is not a prompt but the point where the agent's context was
    /// compacted; `content` is then the summary that replaced the context (Claude Code's
    /// `compact_boundary` and `isCompactSummary` lines, Codex's `compacted` record).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<Compaction>,
    /// Set when the user rewound the conversation to before this turn (see
    /// [`ChatResponse::rewound`]).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "super::document::not_read_back"
    )]
    pub rewound: Option<Rewound>,
}

/// Who wrote a prompt other than the person who ran the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "snake_case")]
pub enum PromptFrom {
    /// The agent that started this one: the prompt of a sub-agent (Claude Code's `Task`
    /// or `Agent`, Codex's `spawn_agent` …), as its own transcript holds it.
    ParentAgent,
}

/// The short name the Rust code uses for [`ChatResponse`].
pub type Response = ChatResponse;

/// One turn of a conversation.
// Deserialize is written by hand below.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(tag = "role", rename_all = "lowercase")]
// Most turns are responses, so boxing them would cost an allocation each for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Turn {
    /// A prompt.
    User(UserTurn),
    /// A response.
    Assistant(ChatResponse),
}

/// Reads `role` and then the turn from one `Value`, which is what serde's derive does
/// for an internally tagged enum, less its buffered `Content` deserialisers (about
/// 20 KB of wasm for this enum's two variants).
impl<'de> Deserialize<'de> for Turn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let v = serde_json::Value::deserialize(d)?;
        let turn = match v.get("role").and_then(serde_json::Value::as_str) {
            Some("user") => crate::read_json::from_value(v).map(Turn::User),
            Some("assistant") => crate::read_json::from_value(v).map(Turn::Assistant),
            Some(other) => return Err(D::Error::unknown_variant(other, &["user", "assistant"])),
            None => return Err(D::Error::missing_field("role")),
        };
        turn.map_err(D::Error::custom)
    }
}

/// What the stream held that docstream did not understand, and how much it read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Events (lines, SSE events, values) read.
    #[serde(deserialize_with = "super::lenient::value")]
    pub events: u64,
    /// Events of a type not understood, ignored.
    #[serde(deserialize_with = "super::lenient::value")]
    pub unknown_events: u64,
    /// Events that became `error` documents (malformed, oversized, too deep).
    #[serde(deserialize_with = "super::lenient::value")]
    pub bad_events: u64,
    /// Lines before the stream that were in no format (a wrapper's banner, a shell's
    /// warning) and were skipped while the format was detected.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub skipped_lines: u64,
    /// Invalid UTF-8 sequences, each shown as U+FFFD.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub invalid_utf8: u64,
    /// Values of a saved response docstream does not know (a new todo status, a new
    /// document type), kept as `unknown` statuses and generic documents.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub unknown_values: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A problem with the input that lost nothing but is worth saying: skipped lines,
/// invalid UTF-8, unknown values. Where it was is given as a line and a byte offset
/// where the framing knows them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// `SKIPPED_LINES`, `INVALID_UTF8` or `UNKNOWN_VALUE`.
    pub code: String,
    /// What and where, for a person.
    pub message: String,
    /// 1-based line (NDJSON line, SSE line), where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub line: Option<u64>,
    /// Byte offset in the stream, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "super::lenient::value")]
    pub offset: Option<u64>,
}

impl Problem {
    /// At most this many problems are listed; the counters in [`Stats`] go on.
    pub const MAX_LISTED: usize = 100;
}

/// The whole state: every turn of the conversation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    /// The wire format read (`cursor-stream-json` …), once detected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// What the conversation is called where the source says (Claude Code's
    /// `custom-title` or `summary` line) (addition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Turns in order.
    pub turns: Vec<Turn>,
    /// Counters.
    pub stats: Stats,
    /// Problems with the input that lost nothing (the first [`Problem::MAX_LISTED`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<Problem>,
}

impl Conversation {
    /// Lists a problem (up to [`Problem::MAX_LISTED`]).
    pub fn note_problem(&mut self, problem: Problem) {
        if self.problems.len() < Problem::MAX_LISTED {
            self.problems.push(problem);
        }
    }

    /// The responses, in order.
    pub fn responses(&self) -> impl Iterator<Item = &ChatResponse> {
        self.turns.iter().filter_map(|t| match t {
            Turn::Assistant(r) => Some(r),
            Turn::User(_) => None,
        })
    }

    /// Every document of every response, in order.
    pub fn documents(&self) -> impl Iterator<Item = &Document> {
        self.responses().flat_map(|r| r.documents.iter())
    }

    /// The tool call whose sub-agent run turn `turn` is: `Some` when the turn's response
    /// names an earlier call as its `parent` and that call names this turn as its run.
    /// Such a turn is shown inside the call, not among the top-level turns.
    pub fn subagent_parent(&self, turn: usize) -> Option<DocKey> {
        let Some(Turn::Assistant(r)) = self.turns.get(turn) else {
            return None;
        };
        let p = r.parent.as_ref().filter(|p| p.turn < turn)?;
        let Some(Turn::Assistant(parent)) = self.turns.get(p.turn) else {
            return None;
        };
        match &parent.documents.get(p.index)?.meta {
            Meta::ToolCall(m) if m.subagent.as_ref().and_then(|s| s.turn) == Some(turn) => {
                Some(DocKey {
                    turn: p.turn,
                    index: p.index,
                })
            }
            _ => None,
        }
    }

    /// The sub-agent run shown inside the document at `key`: the turn its `subagent`
    /// names, when that turn names the document as its parent.
    pub fn subagent_run(&self, key: DocKey) -> Option<usize> {
        let Some(Turn::Assistant(r)) = self.turns.get(key.turn) else {
            return None;
        };
        let Meta::ToolCall(m) = &r.documents.get(key.index)?.meta else {
            return None;
        };
        let t = m.subagent.as_ref()?.turn?;
        (self.subagent_parent(t) == Some(key)).then_some(t)
    }

    /// Where turn `turn` was rewound from, if it was.
    pub fn rewound(&self, turn: usize) -> Option<Rewound> {
        match self.turns.get(turn)? {
            Turn::User(u) => u.rewound,
            Turn::Assistant(r) => r.rewound,
        }
    }

    /// The document with this id: the first one, should a stream name an id twice.
    pub fn document(&self, id: &str) -> Option<&Document> {
        self.documents().find(|d| d.id == id)
    }
}
