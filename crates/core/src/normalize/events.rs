//! The normalised events: the one small vocabulary every format adapter speaks.

use std::borrow::Cow;

use serde_json::Value;

use crate::model::{
    Attachment, CallStatus, Compaction, DocumentType, Problem, PromptFrom, Response, Usage,
};

/// Facts about the session or response, merged into the current response.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct SessionInfo {
    /// Session or conversation id.
    pub conversation_id: Option<String>,
    /// Response id.
    pub response_id: Option<String>,
    /// Model name.
    pub model: Option<String>,
    /// `agent`, `plan`, `ask`, `debug`.
    pub mode: Option<String>,
    /// Working directory.
    pub cwd: Option<String>,
    /// Creation time, ISO 8601.
    pub created: Option<String>,
}

/// The outcome of a tool call as an adapter reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ToolOutcome {
    /// Success, error or rejected.
    pub status: CallStatus,
    /// The tool's payload (the inner `success` / `error` object, a string …).
    pub data: Value,
}

/// A failure to show as an `error` document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ErrorInfo {
    /// Where in the stream, for the stream's own errors (`line 7`, `byte 120`): a run of
    /// them with one code, one right after another, is one document that counts them
    /// (`message` then says where with its last words, `(line 7).`).
    pub at: Option<String>,
    /// One of [`crate::error::codes`], or the format's own code.
    pub code: String,
    /// What failed (`stream`, `line 7`, a tool name …).
    pub source: String,
    /// One sentence for a person.
    pub message: String,
    /// Where and why, in detail.
    pub details: String,
}

impl ErrorInfo {
    /// A warning the agent gave (`AGENT_WARNING`): the run went on.
    pub(crate) fn warning(message: String) -> ErrorInfo {
        ErrorInfo {
            at: None,
            code: crate::error::codes::AGENT_WARNING.to_owned(),
            source: "agent".to_owned(),
            details: format!("warning: {message}"),
            message,
        }
    }

    /// A note the agent gave (`AGENT_NOTE`): neither a failure nor a warning.
    pub(crate) fn note(message: String) -> ErrorInfo {
        ErrorInfo {
            at: None,
            code: crate::error::codes::AGENT_NOTE.to_owned(),
            source: "agent".to_owned(),
            details: message.clone(),
            message,
        }
    }

    /// The user stopped the agent (`USER_INTERRUPTED`), said as the agent wrote it.
    pub(crate) fn interrupted(message: String) -> ErrorInfo {
        ErrorInfo {
            at: None,
            code: crate::error::codes::USER_INTERRUPTED.to_owned(),
            source: "user".to_owned(),
            details: message.clone(),
            message,
        }
    }

    /// An error the agent reported (`agent_error`), its message said as it said it.
    pub(crate) fn agent(message: String) -> ErrorInfo {
        ErrorInfo {
            at: None,
            code: crate::error::codes::AGENT_ERROR.to_owned(),
            source: "agent".to_owned(),
            details: message.clone(),
            message,
        }
    }
}

/// One normalised event.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event<'a> {
    /// Session facts (init lines, message starts).
    Session(SessionInfo),
    /// A new run starts (an agent's `init` line): a response still open was cut off,
    /// and tool call ids, the plan and the todo list start afresh.
    SessionStart(SessionInfo),
    /// Who writes the prompts that follow (`None`: the person who ran the agent): a
    /// sub-agent's own transcript is prompted by the agent that started it.
    PromptsFrom(Option<PromptFrom>),
    /// A user prompt: starts a new user turn.
    UserPrompt {
        /// The prompt.
        text: Cow<'a, str>,
        /// What it carries.
        attachments: Vec<Attachment>,
    },
    /// The agent's context was compacted (Claude Code's `compact_boundary`, Codex's
    /// `compacted`): a compaction turn starts, its summary to follow.
    Compaction(Compaction),
    /// The summary that replaced the context: it fills the compaction turn just started,
    /// or starts one (Claude Code's `isCompactSummary` line, Codex's `compacted` message).
    CompactSummary(Cow<'a, str>),
    /// The history forked: what follows continues from the point where the conversation
    /// had `turns` turns (a mark the adapter took with [`Sink::turn_count`]); the turns
    /// after it, the branch left, were rewound (Claude Code's `parentUuid` tree).
    ///
    /// [`Sink::turn_count`]: super::Sink::turn_count
    Rewind {
        /// How many turns the conversation had at the fork.
        turns: usize,
    },
    /// Starts a new response even if one is open (a provider's message start).
    ResponseStart(SessionInfo),
    /// Assistant prose, split into text and code documents by its fences.
    Text(Cow<'a, str>),
    /// Reasoning text, appended to the open thinking document.
    Thinking(Cow<'a, str>),
    /// How long the open thinking lasted, where the stream's timestamps say.
    ThinkingDuration(u64),
    /// The thinking document ends.
    ThinkingEnd {
        /// Signature, where the provider signs reasoning.
        signature: Option<String>,
        /// True when the provider withheld the text.
        redacted: bool,
    },
    /// An explicitly typed document begins (document SSE stream).
    DocStart {
        /// Its id.
        id: String,
        /// Its type.
        doc_type: DocumentType,
        /// Metadata sent with the start, if any.
        metadata: Option<Value>,
    },
    /// Text for an explicit document.
    DocDelta {
        /// The document's id.
        id: Cow<'a, str>,
        /// Text to append.
        text: Cow<'a, str>,
    },
    /// An explicit document ends, with its final content where sent.
    DocEnd {
        /// The document's id.
        id: String,
        /// Content that replaces what was streamed.
        final_content: Option<String>,
    },
    /// A complete response, as saved.
    Response(Box<Response>),
    /// A tool call starts.
    ToolStart {
        /// Id pairing it with its result.
        call_id: String,
        /// Tool name as the format spells it.
        name: String,
        /// Arguments so far.
        args: Value,
        /// An explicit document the call belongs to (document SSE stream).
        doc_id: Option<String>,
    },
    /// New arguments for a running call (replace the old ones).
    ToolArgs {
        /// The call.
        call_id: String,
        /// The arguments.
        args: Value,
    },
    /// A tool call finished.
    ToolEnd {
        /// The call.
        call_id: String,
        /// Name, where the end repeats it (a start may be missing).
        name: Option<String>,
        /// Final arguments, where the end repeats them.
        args: Option<Value>,
        /// The result.
        outcome: ToolOutcome,
        /// How long it ran.
        duration_ms: Option<u64>,
    },
    /// Token counts for the current response, as a whole (a `result` line's totals):
    /// they replace what the response's API calls added up to.
    Usage(Usage),
    /// Token counts of one API call of the current response (Claude Code's assistant
    /// lines, keyed by their message id): lines that repeat a call's key count once,
    /// and the response's usage is the sum over its distinct calls.
    CallUsage {
        /// The call's key (a message id, a request id).
        call: String,
        /// Its counts.
        usage: Usage,
    },
    /// What the conversation is called: a title the user chose replaces any other; of
    /// the others (a summary) the first stays.
    Title {
        /// The title.
        text: String,
        /// Chosen by the user (Claude Code's `custom-title`).
        chosen: bool,
    },
    /// What the current response cost in US dollars, where the format states it.
    Cost(f64),
    /// The time (ISO 8601, as the source wrote it) of the line being read: a turn that
    /// starts now carries it as `created`, and so does an open response without one.
    Time(String),
    /// Timings and ids for the current response.
    ResponseMeta {
        /// Wall time.
        duration_ms: Option<u64>,
        /// API time.
        duration_api_ms: Option<u64>,
        /// Request id.
        request_id: Option<String>,
        /// Why the model stopped.
        stop_reason: Option<String>,
    },
    /// The final text of the response as the format repeats it; shown only when no
    /// text was streamed in this response (Cursor's `json` format).
    FinalText(Cow<'a, str>),
    /// The response ended; with an error, its status becomes `error`.
    Done {
        /// The failure, if the response failed.
        error: Option<ErrorInfo>,
    },
    /// A failure that does not end the response.
    Error(ErrorInfo),
    /// The events that follow come from the sub-agent that this tool call started
    /// (Claude Code's `parent_tool_use_id`), or from the main agent (`None`).
    Agent {
        /// The id of the call that started the sub-agent.
        parent: Option<String>,
    },
    /// The sub-agent that this tool call started has ended (Claude Code's
    /// `task_notification`); its run is shown as ended even before the call's result.
    AgentEnd {
        /// The id of the call that started it.
        parent: String,
        /// True when it failed or was stopped.
        failed: bool,
    },
    /// Values of a saved response that docstream does not know (a newer version's
    /// todo status …), kept as unknown: counted in `stats.unknownValues`, and listed.
    UnknownValues {
        /// How many.
        count: u64,
        /// Where, and which.
        problem: Problem,
    },
    /// An event not understood; counted and ignored.
    Unknown,
}

impl Event<'_> {
    /// Why the model stopped, and nothing else known of the response's timings and ids
    /// (what the provider APIs say at the end of a response).
    pub(crate) fn stopped(reason: Option<String>) -> Self {
        Event::ResponseMeta {
            duration_ms: None,
            duration_api_ms: None,
            request_id: None,
            stop_reason: reason,
        }
    }

    /// A call's start, not tied to a document of its own.
    pub(crate) fn tool_start(call_id: String, name: String, args: Value) -> Self {
        Event::ToolStart {
            call_id,
            name,
            args,
            doc_id: None,
        }
    }

    /// A call's end that repeats neither its name nor its arguments, with no time.
    pub(crate) fn tool_end(call_id: String, outcome: ToolOutcome) -> Self {
        Event::ToolEnd {
            call_id,
            name: None,
            args: None,
            outcome,
            duration_ms: None,
        }
    }
}
