//! Anthropic's Messages API (seed 002): message histories ([`messages`]) and the
//! streamed events ([`stream`]), both read through one content-block mapping
//! ([`blocks`]), which Claude Code's adapter uses too.

pub(super) mod blocks;
mod messages;
pub(super) mod stream;

pub(super) use messages::Messages;
pub(super) use stream::Stream;
