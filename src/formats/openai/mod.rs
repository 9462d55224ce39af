//! OpenAI Chat Completions (seed 002): message histories ([`messages`]) and streamed
//! `chat.completion.chunk`s ([`stream`]). Tool calls carry their arguments as JSON text.

mod messages;
mod stream;

pub(super) use messages::Messages;
pub(super) use stream::Stream;

use serde::Deserialize;

use crate::model::Usage;

/// Token counts as OpenAI spells them.
#[derive(Deserialize, Default)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default)]
    total_tokens: u64,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Deserialize, Default)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Usage {
        Usage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.total_tokens,
            cache_read_tokens: u.prompt_tokens_details.and_then(|d| d.cached_tokens),
            cache_write_tokens: None,
        }
    }
}
