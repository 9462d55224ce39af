//! Bounds on what one event may cost (SPEC §6).

/// Limits applied while reading; an event over a limit becomes an `error` document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest line, SSE event or whole JSON value, in bytes. Default 16 MiB.
    pub max_event_bytes: usize,
    /// Deepest JSON nesting accepted. Default and maximum 128 (serde_json's own bound,
    /// which keeps parsing off the stack's edge).
    pub max_depth: usize,
}

impl Limits {
    /// The deepest nesting that can be configured.
    pub const MAX_DEPTH: usize = 128;
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_event_bytes: 16 << 20,
            max_depth: Limits::MAX_DEPTH,
        }
    }
}
