//! OpenAI Chat Completions (seed 002): message histories ([`messages`]) and streamed
//! `chat.completion.chunk`s ([`stream`]). Tool calls carry their arguments as JSON text.

mod messages;
mod stream;

pub(super) use messages::Messages;
pub(super) use stream::Stream;

use crate::formats::fields::wire;
use crate::model::Usage;

wire! {
    /// Token counts as OpenAI spells them.
    #[derive(Default)]
    struct WireUsage {
        prompt_tokens: u64 "prompt_tokens" or_default,
        completion_tokens: u64 "completion_tokens" or_default,
        total_tokens: u64 "total_tokens" or_default,
        /// `prompt_tokens_details.cached_tokens`.
        cached_tokens: Option<u64> =
            |f| f.object("prompt_tokens_details")?.map_or(Ok(None), |d| d.u64("cached_tokens")),
        /// `completion_tokens_details.reasoning_tokens`.
        reasoning_tokens: Option<u64> = |f| {
            f.object("completion_tokens_details")?
                .map_or(Ok(None), |d| d.u64("reasoning_tokens"))
        },
    }
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Usage {
        Usage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.total_tokens,
            cache_read_tokens: u.cached_tokens,
            cache_write_tokens: None,
            reasoning_tokens: u.reasoning_tokens.filter(|&r| r > 0),
        }
    }
}
