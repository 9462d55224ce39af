//! OpenAI Chat Completions (seed 002): message histories ([`messages`]) and streamed
//! `chat.completion.chunk`s ([`stream`]). Tool calls carry their arguments as JSON text.

mod messages;
mod stream;

pub(super) use messages::Messages;
pub(super) use stream::Stream;

use crate::formats::fields::Fields;
use crate::model::Usage;

/// Token counts as OpenAI spells them.
#[derive(Default)]
struct WireUsage {
    prompt_tokens: u64,
    completion_tokens: u64,
    total_tokens: u64,
    cached_tokens: Option<u64>,
}

impl WireUsage {
    fn read(f: Fields<'_, '_>) -> Result<WireUsage, serde_json::Error> {
        Ok(WireUsage {
            prompt_tokens: f.u64("prompt_tokens")?.unwrap_or_default(),
            completion_tokens: f.u64("completion_tokens")?.unwrap_or_default(),
            total_tokens: f.u64("total_tokens")?.unwrap_or_default(),
            cached_tokens: match f.object("prompt_tokens_details")? {
                Some(d) => d.u64("cached_tokens")?,
                None => None,
            },
        })
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
        }
    }
}
