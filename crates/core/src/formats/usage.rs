//! Token counts as the Cursor CLI, Anthropic's API and Claude Code write them (camelCase
//! or snake_case, cache reads and writes): one reader for the adapters that share the shape.

use serde::Deserialize;

use crate::model::Usage;

/// Token counts as Cursor spells them (camelCase), or as providers do.
#[derive(Deserialize, Default)]
pub(super) struct WireUsage {
    #[serde(
        default,
        alias = "inputTokens",
        alias = "input_tokens",
        alias = "promptTokens"
    )]
    input: u64,
    #[serde(
        default,
        alias = "outputTokens",
        alias = "output_tokens",
        alias = "completionTokens"
    )]
    output: u64,
    #[serde(default, alias = "totalTokens", alias = "total_tokens")]
    total: Option<u64>,
    #[serde(default, alias = "cacheReadTokens", alias = "cache_read_input_tokens")]
    cache_read: Option<u64>,
    #[serde(
        default,
        alias = "cacheWriteTokens",
        alias = "cache_creation_input_tokens"
    )]
    cache_write: Option<u64>,
}

impl WireUsage {
    /// Read by its fields (the formats that read lines as trees, `super::fields`): the
    /// names and aliases its derive reads, the first of them present.
    pub(super) fn read(f: super::fields::Fields<'_, '_>) -> Result<WireUsage, serde_json::Error> {
        let first = |names: &[&str]| -> Result<Option<u64>, serde_json::Error> {
            for name in names {
                if let Some(v) = f.u64(name)? {
                    return Ok(Some(v));
                }
            }
            Ok(None)
        };
        Ok(WireUsage {
            input: first(&["input", "inputTokens", "input_tokens", "promptTokens"])?
                .unwrap_or_default(),
            output: first(&[
                "output",
                "outputTokens",
                "output_tokens",
                "completionTokens",
            ])?
            .unwrap_or_default(),
            total: first(&["total", "totalTokens", "total_tokens"])?,
            cache_read: first(&["cache_read", "cacheReadTokens", "cache_read_input_tokens"])?,
            cache_write: first(&[
                "cache_write",
                "cacheWriteTokens",
                "cache_creation_input_tokens",
            ])?,
        })
    }
}

impl From<WireUsage> for Usage {
    fn from(u: WireUsage) -> Usage {
        Usage {
            prompt_tokens: u.input,
            completion_tokens: u.output,
            total_tokens: u.total.unwrap_or(u.input.saturating_add(u.output)),
            cache_read_tokens: u.cache_read,
            cache_write_tokens: u.cache_write,
            reasoning_tokens: None,
        }
    }
}
