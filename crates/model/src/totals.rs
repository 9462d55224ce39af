//! What a conversation adds up to — its tokens, cost, models, place and time span — for
//! a page's header and a library's list. Derived from the turns, never stored.

use super::conversation::{ChatResponse, Conversation, Turn, Usage};
use super::prices::{Cost, Prices};

/// The sums and spans of a conversation, main agent and sub-agents alike.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Token counts summed over every response that reports them; `None` when none does.
    pub usage: Option<Usage>,
    /// Cost in US dollars summed over the responses that have one (stated by the source,
    /// or computed from the caller's prices); `None` when none does.
    pub cost_usd: Option<f64>,
    /// The responses whose cost in `cost_usd` the source states.
    pub cost_stated: usize,
    /// The responses whose cost in `cost_usd` was computed from the caller's prices.
    pub cost_computed: usize,
    /// The responses that report tokens but have no cost (none stated, no price for the
    /// model): left out of `cost_usd`.
    pub cost_missing: usize,
    /// The models that answered, in the order they first did.
    pub models: Vec<String>,
    /// The first working directory a response names.
    pub cwd: Option<String>,
    /// The first time a turn carries (ISO 8601, as the source wrote it).
    pub first: Option<String>,
    /// The last time a turn carries.
    pub last: Option<String>,
    /// The user's prompts.
    pub prompts: usize,
    /// The times the agent's context was compacted.
    pub compactions: usize,
    /// The responses (sub-agents' runs included).
    pub responses: usize,
}

impl Conversation {
    /// Adds up the conversation ([`Totals`]): one pass over its turns, not their
    /// documents. Costs are the ones the source states.
    pub fn totals(&self) -> Totals {
        self.tally(|r, _| r.stated_cost())
    }

    /// [`Conversation::totals`], with the cost of each response that states none
    /// computed from `prices` ([`ChatResponse::cost`](crate::ChatResponse::cost)).
    pub fn totals_priced(&self, prices: Option<&Prices>) -> Totals {
        self.tally(|r, format| r.cost(prices, format))
    }

    /// The totals with each response's cost from `cost` (given the conversation's
    /// format): apart from [`Conversation::totals_priced`] so that a build that never
    /// computes a cost holds no price code.
    fn tally(&self, cost: impl Fn(&ChatResponse, Option<&str>) -> Option<Cost>) -> Totals {
        let mut t = Totals::default();
        for turn in &self.turns {
            let created = match turn {
                Turn::User(u) => {
                    if u.compaction.is_some() {
                        t.compactions += 1;
                    } else {
                        t.prompts += 1;
                    }
                    u.created.as_deref()
                }
                Turn::Assistant(r) => {
                    t.responses += 1;
                    if let Some(u) = &r.usage {
                        let sum = t.usage.get_or_insert_with(Usage::default);
                        add_usage(sum, u);
                    }
                    match cost(r, self.format.as_deref()) {
                        Some(c) => {
                            *t.cost_usd.get_or_insert(0.0) += c.usd;
                            t.cost_computed += usize::from(c.computed);
                            t.cost_stated += usize::from(!c.computed);
                        }
                        None => t.cost_missing += usize::from(r.usage.is_some()),
                    }
                    if !r.model.is_empty() && !t.models.contains(&r.model) {
                        t.models.push(r.model.clone());
                    }
                    if t.cwd.is_none() {
                        t.cwd.clone_from(&r.metadata.cwd);
                    }
                    r.created.as_deref()
                }
            };
            if let Some(at) = created.filter(|s| !s.is_empty()) {
                if t.first.is_none() {
                    t.first = Some(at.to_owned());
                }
                t.last = Some(at.to_owned());
            }
        }
        t
    }
}

/// Adds `u` to `sum`, saturating (counts come from the stream).
pub fn add_usage(sum: &mut Usage, u: &Usage) {
    let opt = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    };
    sum.prompt_tokens = sum.prompt_tokens.saturating_add(u.prompt_tokens);
    sum.completion_tokens = sum.completion_tokens.saturating_add(u.completion_tokens);
    sum.total_tokens = sum.total_tokens.saturating_add(u.total_tokens);
    sum.cache_read_tokens = opt(sum.cache_read_tokens, u.cache_read_tokens);
    sum.cache_write_tokens = opt(sum.cache_write_tokens, u.cache_write_tokens);
    sum.reasoning_tokens = opt(sum.reasoning_tokens, u.reasoning_tokens);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChatResponse, ResponseMetadata, UserTurn};

    #[test]
    fn totals_add_up_the_responses_and_span_the_turns() {
        let response = |model: &str, at: Option<&str>, tokens: u64, cache: Option<u64>, cost| {
            Turn::Assistant(ChatResponse {
                model: model.to_owned(),
                created: at.map(str::to_owned),
                usage: Some(Usage {
                    prompt_tokens: tokens,
                    completion_tokens: 1,
                    total_tokens: tokens.saturating_add(1),
                    cache_read_tokens: cache,
                    cache_write_tokens: None,
                    reasoning_tokens: None,
                }),
                metadata: ResponseMetadata {
                    cost_usd: cost,
                    cwd: Some("/w".to_owned()),
                    ..ResponseMetadata::default()
                },
                ..ChatResponse::default()
            })
        };
        let c = Conversation {
            turns: vec![
                Turn::User(UserTurn {
                    created: Some("2025-01-01T10:00:00Z".to_owned()),
                    ..UserTurn::default()
                }),
                response("a", None, 10, Some(5), Some(0.5)),
                response("b", Some("2025-01-01T10:07:00Z"), 20, None, None),
                response("a", None, u64::MAX, Some(1), Some(0.25)),
            ],
            ..Conversation::default()
        };
        let t = c.totals();
        let u = t.usage.unwrap();
        assert_eq!(u.prompt_tokens, u64::MAX, "saturates");
        assert_eq!((u.completion_tokens, u.cache_read_tokens), (3, Some(6)));
        assert_eq!(u.cache_write_tokens, None);
        assert_eq!(t.cost_usd, Some(0.75));
        assert_eq!(t.models, ["a", "b"]);
        assert_eq!(t.cwd.as_deref(), Some("/w"));
        assert_eq!(t.first.as_deref(), Some("2025-01-01T10:00:00Z"));
        assert_eq!(t.last.as_deref(), Some("2025-01-01T10:07:00Z"));
        assert_eq!((t.prompts, t.responses), (1, 3));
        assert_eq!(
            (t.cost_computed, t.cost_missing),
            (0, 1),
            "b states no cost"
        );
        let b = crate::Price {
            input: 1_000_000.0,
            ..crate::Price::default()
        };
        let prices = Prices::from_models(vec![("b".to_owned(), b)]).unwrap();
        let priced = c.totals_priced(Some(&prices));
        assert_eq!(
            priced.cost_usd,
            Some(20.75),
            "a's stated costs and b's computed one"
        );
        assert_eq!(
            (
                priced.cost_stated,
                priced.cost_computed,
                priced.cost_missing
            ),
            (2, 1, 0)
        );
        assert_eq!(Conversation::default().totals(), Totals::default());
    }
}
