//! A price table the caller passes, and the cost of a response computed from it.
//!
//! docstream knows no prices: a cost is either stated by the source (Claude Code's
//! `total_cost_usd`) or computed from a table given by whoever renders the run. The
//! table is JSON, one entry per model id, US dollars per million tokens:
//!
//! ```json
//! {
//!   "claude-sonnet-4-5": { "input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75 },
//!   "gpt-5": { "input": 1.25, "output": 10, "cacheRead": 0.125 }
//! }
//! ```
//!
//! `input` and `output` are required, `cacheRead` and `cacheWrite` optional (a response
//! with cache tokens but no rate for them gets no cost). A response's model is looked up
//! by its exact id, then by the longest id that is a prefix of it (`claude-sonnet-4-5`
//! covers `claude-sonnet-4-5-20250929`).
//!
//! The JSON is read by `docstream_core::price_table` (with the reader the formats use);
//! here is the table itself:
//!
//! ```
//! use docstream_model::{Price, Prices, Usage};
//! let m = Price { input: 2.0, output: 10.0, ..Price::default() };
//! let prices = Prices::from_models(vec![("m".to_owned(), m)]).unwrap();
//! let usage = Usage { prompt_tokens: 1_000_000, completion_tokens: 100_000, ..Usage::default() };
//! assert_eq!(prices.cost("m-1", &usage, false), Some(3.0));
//! ```

use std::fmt;

use super::conversation::Usage;

/// US dollars per million tokens of one model.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Price {
    /// Input tokens (not read from or written to a cache).
    pub input: f64,
    /// Output tokens (reasoning included).
    pub output: f64,
    /// Input tokens read from a cache.
    pub cache_read: Option<f64>,
    /// Input tokens written to a cache.
    pub cache_write: Option<f64>,
    /// Output tokens spent reasoning, where they cost other than `output` (counted at
    /// `output` when not given).
    pub reasoning: Option<f64>,
}

/// A price table: model ids and their [`Price`]s, as the caller gave them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Prices {
    /// In the caller's order (a table is a few dozen models: looked up by a scan).
    models: Vec<(String, Price)>,
}

// Every rate is finite (checked by `from_models`), so equality is reflexive.
impl Eq for Prices {}

/// What is wrong with a price table: the model and field where known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceError(pub String);

impl fmt::Display for PriceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PriceError {}

/// The fields of a model's entry, as written in the JSON: `input`, `output` (required),
/// `cacheRead`, `cacheWrite`, `reasoning`.
pub const PRICE_FIELDS: [&str; 5] = ["input", "output", "cacheRead", "cacheWrite", "reasoning"];

impl PriceError {
    /// `field` of `model` is not a number ≥ 0.
    pub fn bad_rate(model: &str, field: &str) -> PriceError {
        PriceError(format!(
            "model {model:?}: field {field:?} should be a number ≥ 0 (US dollars per million tokens)"
        ))
    }
}

impl Prices {
    /// A table of `models` (ids and prices, in any order; the first of a repeated id
    /// counts). An empty id, or a rate that is not a finite number ≥ 0, is an error.
    pub fn from_models(models: Vec<(String, Price)>) -> Result<Prices, PriceError> {
        for (id, p) in &models {
            if id.is_empty() {
                return Err(PriceError(
                    "the price table has an empty model id".to_owned(),
                ));
            }
            let rates = [
                Some(p.input),
                Some(p.output),
                p.cache_read,
                p.cache_write,
                p.reasoning,
            ];
            for (rate, field) in rates.into_iter().zip(PRICE_FIELDS) {
                if rate.is_some_and(|r| !(r.is_finite() && r >= 0.0)) {
                    return Err(PriceError::bad_rate(id, field));
                }
            }
        }
        Ok(Prices { models })
    }

    /// Whether the table has no model.
    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    /// The price of `model`: its exact id, else the longest id that is a prefix of it.
    pub fn price(&self, model: &str) -> Option<&Price> {
        if model.is_empty() {
            return None;
        }
        let exact = self.models.iter().find(|(id, _)| id == model);
        exact
            .or_else(|| {
                self.models
                    .iter()
                    .filter(|(id, _)| model.starts_with(id.as_str()))
                    .max_by_key(|(id, _)| id.len())
            })
            .map(|(_, p)| p)
    }

    /// What `usage` cost with `model`'s price, in US dollars; `None` when the model has
    /// no price, or the usage has cache tokens the price has no rate for.
    /// `input_counts_cache`: the source's input count includes the cache's tokens
    /// (OpenAI's and Google's APIs), so they are taken out of it before pricing.
    pub fn cost(&self, model: &str, usage: &Usage, input_counts_cache: bool) -> Option<f64> {
        let p = self.price(model)?;
        let per = |n: u64, rate: f64| n as f64 * rate / 1_000_000.0;
        let cached = |n: Option<u64>, rate: Option<f64>| match n.filter(|n| *n > 0) {
            None => Some((0, 0.0)),
            Some(n) => rate.map(|r| (n, per(n, r))),
        };
        let (read, read_usd) = cached(usage.cache_read_tokens, p.cache_read)?;
        let (write, write_usd) = cached(usage.cache_write_tokens, p.cache_write)?;
        let input = if input_counts_cache {
            usage
                .prompt_tokens
                .saturating_sub(read)
                .saturating_sub(write)
        } else {
            usage.prompt_tokens
        };
        // Reasoning at its own rate where the table gives one; else as output.
        let (reasoning, reasoning_rate) = match (usage.reasoning_tokens, p.reasoning) {
            (Some(n), Some(rate)) => (n.min(usage.completion_tokens), rate),
            _ => (0, 0.0),
        };
        let output = usage.completion_tokens - reasoning;
        Some(
            per(input, p.input)
                + per(output, p.output)
                + per(reasoning, reasoning_rate)
                + read_usd
                + write_usd,
        )
    }
}

/// Whether the format (a [`Conversation::format`](crate::Conversation) name) counts
/// cached tokens within its input tokens, as OpenAI's and Google's APIs (and the agents
/// writing their counts: Codex, Gemini CLI) do; Anthropic's API, and the agents copying
/// its counts, keep them apart.
pub fn input_counts_cache(format: Option<&str>) -> bool {
    format.is_some_and(|f| {
        f.starts_with("openai") || f.starts_with("codex") || f.starts_with("gemini")
    })
}

/// A cost in US dollars, and where it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// US dollars.
    pub usd: f64,
    /// Computed from the caller's prices (not stated by the source).
    pub computed: bool,
}

impl crate::ChatResponse {
    /// The cost the source states, if it is a number ≥ 0.
    pub fn stated_cost(&self) -> Option<Cost> {
        let usd = self
            .metadata
            .cost_usd
            .filter(|c| c.is_finite() && *c >= 0.0)?;
        Some(Cost {
            usd,
            computed: false,
        })
    }

    /// What the response cost: the cost the source states (which always wins), else one
    /// computed from `prices` for its model and usage, else `None`. `format` is the
    /// conversation's format ([`input_counts_cache`]).
    pub fn cost(&self, prices: Option<&Prices>, format: Option<&str>) -> Option<Cost> {
        if let Some(stated) = self.stated_cost() {
            return Some(stated);
        }
        let usage = self.usage.as_ref()?;
        let usd = prices?.cost(&self.model, usage, input_counts_cache(format))?;
        Some(Cost {
            usd,
            computed: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(input: f64, output: f64, cache_read: Option<f64>, cache_write: Option<f64>) -> Price {
        Price {
            input,
            output,
            cache_read,
            cache_write,
            reasoning: None,
        }
    }

    /// The table of `docstream_core::price_table`'s tests.
    fn table() -> Prices {
        Prices::from_models(vec![
            (
                "claude-sonnet-4-5".to_owned(),
                price(3.0, 15.0, Some(0.3), Some(3.75)),
            ),
            ("claude-sonnet-4".to_owned(), price(1.0, 1.0, None, None)),
            ("gpt-5".to_owned(), price(1.25, 10.0, Some(0.125), None)),
        ])
        .unwrap()
    }

    #[test]
    fn a_model_is_found_by_exact_id_then_longest_prefix() {
        let p = table();
        assert_eq!(p.price("claude-sonnet-4-5").unwrap().input, 3.0);
        assert_eq!(p.price("claude-sonnet-4-5-20250929").unwrap().input, 3.0);
        assert_eq!(p.price("claude-sonnet-4-20250514").unwrap().input, 1.0);
        assert_eq!(p.price("gpt-5-mini").unwrap().input, 1.25);
        assert_eq!(p.price("claude-opus-4"), None);
        assert_eq!(
            p.price("gpt"),
            None,
            "an id longer than the model is no prefix"
        );
        assert_eq!(p.price(""), None);
    }

    #[test]
    fn a_bad_rate_or_id_is_an_error_naming_model_and_field() {
        let bad = |id: &str, p: Price| Prices::from_models(vec![(id.to_owned(), p)]).unwrap_err().0;
        let e = bad("m", price(-1.0, 1.0, None, None));
        assert!(
            e.contains(r#"model "m": field "input" should be a number ≥ 0"#),
            "{e}"
        );
        let e = bad("m", price(1.0, 1.0, Some(f64::NAN), None));
        assert!(e.contains(r#"field "cacheRead""#), "{e}");
        assert!(bad("", price(1.0, 1.0, None, None)).contains("empty model id"));
        assert!(Prices::from_models(Vec::new()).unwrap().is_empty());
    }

    #[test]
    fn cost_prices_each_count_and_needs_a_rate_for_cache_tokens() {
        let p = table();
        let usage = Usage {
            prompt_tokens: 1_000_000,
            completion_tokens: 100_000,
            total_tokens: 1_100_000,
            cache_read_tokens: Some(2_000_000),
            cache_write_tokens: Some(1_000_000),
            reasoning_tokens: None,
        };
        // 3 + 1.5 + 0.6 + 3.75
        let usd = p.cost("claude-sonnet-4-5-20250929", &usage, false).unwrap();
        assert!((usd - 8.85).abs() < 1e-9, "{usd}");
        // No cache write rate for gpt-5: no cost rather than a guess.
        assert_eq!(p.cost("gpt-5", &usage, true), None);
        let openai = Usage {
            prompt_tokens: 1_000_000,
            completion_tokens: 0,
            cache_read_tokens: Some(800_000),
            ..Usage::default()
        };
        // 200k uncached at 1.25 + 800k cached at 0.125.
        let usd = p.cost("gpt-5", &openai, true).unwrap();
        assert!((usd - 0.35).abs() < 1e-9, "{usd}");
        assert_eq!(p.cost("unknown", &openai, true), None);
    }

    #[test]
    fn reasoning_is_priced_apart_where_the_table_says_so() {
        let mut pricey = price(1.0, 10.0, None, None);
        let usage = Usage {
            completion_tokens: 1_000_000,
            reasoning_tokens: Some(400_000),
            ..Usage::default()
        };
        let table = |p: Price| Prices::from_models(vec![("m".to_owned(), p)]).unwrap();
        // No reasoning rate: all output at 10.
        let usd = table(pricey).cost("m", &usage, true).unwrap();
        assert!((usd - 10.0).abs() < 1e-9, "{usd}");
        // 600k output at 10 and 400k reasoning at 2.
        pricey.reasoning = Some(2.0);
        let usd = table(pricey).cost("m", &usage, true).unwrap();
        assert!((usd - 6.8).abs() < 1e-9, "{usd}");
        // A reasoning count above the output count is read as all of it.
        let odd = Usage {
            reasoning_tokens: Some(5_000_000),
            ..usage
        };
        let usd = table(pricey).cost("m", &odd, true).unwrap();
        assert!((usd - 2.0).abs() < 1e-9, "{usd}");
    }

    #[test]
    fn a_stated_cost_wins_over_a_computed_one() {
        let p = table();
        let mut r = crate::ChatResponse {
            model: "gpt-5".to_owned(),
            usage: Some(Usage {
                prompt_tokens: 1_000_000,
                ..Usage::default()
            }),
            ..crate::ChatResponse::default()
        };
        let computed = r.cost(Some(&p), Some("openai-stream")).unwrap();
        assert!(computed.computed && (computed.usd - 1.25).abs() < 1e-9);
        assert_eq!(r.cost(None, None), None, "no prices, no cost");
        r.metadata.cost_usd = Some(0.5);
        let stated = Cost {
            usd: 0.5,
            computed: false,
        };
        assert_eq!(r.cost(Some(&p), None), Some(stated));
        r.model = "no-price".to_owned();
        r.metadata.cost_usd = None;
        assert_eq!(r.cost(Some(&p), None), None, "a model without a price");
    }
}
