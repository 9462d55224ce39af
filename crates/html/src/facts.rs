//! Facts in words, shared by the page, the turns, the documents, the progress lines
//! and the Markdown export: counts with their nouns, durations, token usage and cost,
//! a prompt's title line, and the marks of compactions and rewinds.

use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::{Label, Locale, label};
use docstream_model::{Compaction, Cost, Rewound, Turn, Usage};

/// `1 line`, `40 lines`, `1 Treffer`.
pub(crate) fn counted(n: u64, one: Label, many: Label, locale: Locale) -> String {
    format!("{n} {}", label(locale, if n == 1 { one } else { many }))
}

/// Writes a duration in milliseconds: `850 ms`, `2.4 s`, `3 min 5 s`.
pub(crate) fn push_duration(out: &mut String, ms: u64) {
    if ms < 1000 {
        out.num(ms).raw(" ms");
    } else if ms < 60_000 {
        out.num(ms / 1000).raw(".").num((ms % 1000) / 100).raw(" s");
    } else {
        out.num(ms / 60_000)
            .raw(" min ")
            .num((ms % 60_000) / 1000)
            .raw(" s");
    }
}

/// Each count of a usage the pages and the Markdown show, with its label and class
/// (`ds-tokens-…`), in their order; `None` where the source gives none. Reasoning is
/// within the output count.
pub(crate) fn token_counts(u: &Usage) -> [(Option<u64>, Label, &'static str); 5] {
    [
        (Some(u.prompt_tokens), Label::TokensIn, "in"),
        (Some(u.completion_tokens), Label::TokensOut, "out"),
        (u.reasoning_tokens, Label::Reasoning, "reasoning"),
        (u.cache_read_tokens, Label::CacheRead, "cache-read"),
        (u.cache_write_tokens, Label::CacheWrite, "cache-write"),
    ]
}

/// Token counts: the total, then input and output, and the reasoning and cache counts
/// where the source gives them: `usage 1234 tokens (1000 in · 234 out · 900 cache read)`.
pub(crate) fn push_usage(out: &mut String, u: &Usage, opts: &RenderOptions) {
    let l = |k| label(opts.locale, k);
    out.raw("<span class=\"ds-usage\">")
        .text(l(Label::Usage))
        .raw(" ")
        .num(u.total_tokens)
        .raw(" ")
        .text(l(Label::Tokens));
    let mut first = true;
    for (n, key, class) in token_counts(u) {
        let Some(n) = n else { continue };
        out.raw(if first { " (" } else { " · " })
            .raw("<span class=\"ds-tokens-")
            .raw(class)
            .raw("\">")
            .num(n)
            .raw(" ")
            .text(l(key))
            .raw("</span>");
        first = false;
    }
    out.raw(")</span>");
}

/// `$0.0123`: four decimals under a dollar, two above.
pub(crate) fn dollars(usd: f64) -> String {
    if usd < 1.0 {
        format!("${usd:.4}")
    } else {
        format!("${usd:.2}")
    }
}

/// A cost in US dollars: `cost $0.0123` as the source states it; one computed from the
/// caller's prices is marked: `cost ≈ $0.0123`, titled "from your prices".
pub(crate) fn push_cost(out: &mut String, cost: Cost, opts: &RenderOptions) {
    // Without price tables no cost is computed (and the lite module holds no branch for it).
    let computed = cfg!(feature = "prices") && cost.computed;
    out.raw("<span class=\"ds-cost");
    if computed {
        out.raw(" ds-cost-computed\" title=\"")
            .text(label(opts.locale, Label::CostComputed));
    }
    out.raw("\">")
        .text(label(opts.locale, Label::Cost))
        .raw(if computed { " ≈ " } else { " " })
        .text(&dollars(cost.usd))
        .raw("</span>");
}

/// The first line of a prompt that a person wrote (not an agent's wrapping such as
/// `<command-name>` or a `Caveat:`), its Markdown heading marks gone, cut at a word.
pub(crate) fn title_line(text: &str) -> Option<String> {
    const MAX: usize = 80;
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('<') && !l.starts_with("Caveat:"))?;
    let line = line.trim_start_matches('#').trim();
    if line.chars().count() <= MAX {
        return Some(line.to_owned());
    }
    let end = line
        .char_indices()
        .nth(MAX - 1)
        .map_or(line.len(), |(i, _)| i);
    let cut = &line[..end];
    let cut = match cut.rfind(' ') {
        Some(space) if space > MAX / 2 => &cut[..space],
        _ => cut,
    };
    Some(format!("{}…", cut.trim_end()))
}

/// What is known of a compaction, in a few words: `auto, 155k → 12k tokens`.
pub(crate) fn compaction_facts(c: &Compaction, locale: Locale) -> String {
    let tokens = label(locale, Label::Tokens);
    let count = match (c.pre_tokens, c.post_tokens) {
        (Some(pre), Some(post)) => Some(format!(
            "{} → {} {tokens}",
            short_count(pre),
            short_count(post)
        )),
        (Some(pre), None) => Some(format!("{} {tokens}", short_count(pre))),
        (None, Some(post)) => Some(format!("→ {} {tokens}", short_count(post))),
        (None, None) => None,
    };
    let facts: Vec<String> = c
        .trigger
        .clone()
        .filter(|t| !t.trim().is_empty())
        .into_iter()
        .chain(count)
        .collect();
    facts.join(", ")
}

/// A count of tokens in a few characters: `812`, `12k`, `155k`, `1.2M`.
fn short_count(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..999_500 => format!("{}k", (n + 500) / 1_000),
        _ => {
            let tenths = n.saturating_add(50_000) / 100_000;
            format!("{}.{}M", tenths / 10, tenths % 10)
        }
    }
}

/// The fork's mark as a line of text (the progress lines): `Rewound — replaced by
/// “Start over”`.
pub(crate) fn rewound_mark_text(
    mark: Rewound,
    replacing: Option<&Turn>,
    locale: Locale,
    out: &mut String,
) {
    let prompt = match replacing {
        Some(Turn::User(u)) if u.compaction.is_none() => title_line(&u.content),
        _ => None,
    };
    match (mark.fork, prompt) {
        (false, _) => out.push_str(label(locale, Label::Rewound)),
        (true, Some(p)) => {
            out.push_str(label(locale, Label::RewoundReplacedBy));
            out.push_str(" “");
            out.push_str(&p);
            out.push('”');
        }
        (true, None) => out.push_str(label(locale, Label::RewoundByResponse)),
    }
}
