//! The one error type of the API, and the codes of `error` documents.
//!
//! Problems *in the stream* (a malformed line, an oversized event) do not stop
//! anything: they become `error` documents carrying one of the [`codes`], and reading
//! goes on. [`Error`] is for misuse of the API itself, such as pushing after `finish`.

use std::fmt;

/// A call the stream state cannot honour.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// `push` or `finish` after `finish`.
    Finished,
    /// A format name that docstream does not know.
    UnknownFormat(String),
}

impl Error {
    /// A stable code for bindings (`DS_FINISHED` …).
    pub fn code(&self) -> &'static str {
        match self {
            Error::Finished => "DS_FINISHED",
            Error::UnknownFormat(_) => "DS_UNKNOWN_FORMAT",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Finished => f.write_str("the stream is finished; create a new one"),
            Error::UnknownFormat(name) => write!(
                f,
                "unknown format {name:?}; known: {}",
                crate::Format::NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for Error {}

/// `errorCode` values of the `error` documents docstream itself writes.
pub mod codes {
    /// A line or event that is not valid JSON.
    pub const MALFORMED_JSON: &str = "MALFORMED_JSON";
    /// Valid JSON that does not have the shape its event type needs.
    pub const INVALID_EVENT: &str = "INVALID_EVENT";
    /// A line or event over the size limit.
    pub const TOO_LARGE: &str = "EVENT_TOO_LARGE";
    /// JSON nested deeper than the limit.
    pub const TOO_DEEP: &str = "NESTED_TOO_DEEP";
    /// The stream ended without its final event.
    pub const CUT_OFF: &str = "STREAM_CUT_OFF";
    /// The input is in no format docstream reads.
    pub const UNKNOWN_FORMAT: &str = "UNKNOWN_FORMAT";
    /// The input is in a format this build leaves out (and the full build, which reads
    /// it, could not be had): [`DocStream::finish_missing`](crate::DocStream::finish_missing).
    pub const FORMAT_UNAVAILABLE: &str = "FORMAT_UNAVAILABLE";
    /// The agent or model reported a failure.
    pub const AGENT_ERROR: &str = "AGENT_ERROR";
    /// A warning the agent gave (a deprecated setting, a fallback it took): the run
    /// went on; shown as a line in the response, not as an error.
    pub const AGENT_WARNING: &str = "AGENT_WARNING";
    /// A note the agent gave that is neither a failure nor a warning (Claude Code's
    /// `tool_use_summary` of the calls before it): shown as a line in the response.
    pub const AGENT_NOTE: &str = "AGENT_NOTE";
    /// The user stopped the agent (Claude Code's `[Request interrupted by user]`):
    /// shown as a line in the response, not as an error.
    pub const USER_INTERRUPTED: &str = "USER_INTERRUPTED";
    /// A tool call failed.
    pub const TOOL_ERROR: &str = "TOOL_ERROR";

    /// A problem (not an error document): lines before the stream in no format, skipped.
    pub const SKIPPED_LINES: &str = "SKIPPED_LINES";
    /// A problem: invalid UTF-8, shown as U+FFFD.
    pub const INVALID_UTF8: &str = "INVALID_UTF8";
    /// A problem: a value of a saved response docstream does not know, kept as unknown.
    pub const UNKNOWN_VALUE: &str = "UNKNOWN_VALUE";
}
