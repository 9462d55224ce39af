//! Facts as the export writes them in a line of text: times, durations, usage, cost and
//! a call's status word.

use super::writer::Md;
use crate::facts::push_duration;
use crate::labels::Label;
use crate::time::parts;
use docstream_model::{CallStatus, Cost, Usage};

/// A time as the source wrote it, readable: `2025-09-01 09:00:08 UTC`.
pub(super) fn time_text(at: &str) -> String {
    match parts(at) {
        Some((date, _, hms, "")) => format!("{date} {hms}"),
        Some((date, _, hms, zone)) => format!("{date} {hms} {zone}"),
        None => at.to_owned(),
    }
}

/// `usage 1234 tokens (1000 in · 234 out · 900 cache read)`.
pub(super) fn usage_text(md: &Md<'_>, u: &Usage) -> String {
    let mut s = format!(
        "{} {} {}",
        md.l(Label::Usage),
        u.total_tokens,
        md.l(Label::Tokens)
    );
    let mut first = true;
    for (n, key, _) in crate::facts::token_counts(u) {
        let Some(n) = n else { continue };
        s.push_str(if first { " (" } else { " · " });
        s.push_str(&format!("{n} {}", md.l(key)));
        first = false;
    }
    s.push(')');
    s
}

pub(super) use crate::facts::dollars;

/// `cost $0.0123` as the source states it; `cost ≈ $0.0123 (from your prices)` computed
/// from the caller's prices.
pub(super) fn cost_text(md: &Md<'_>, cost: Cost) -> String {
    let usd = dollars(cost.usd);
    match cost.computed {
        false => format!("{} {usd}", md.l(Label::Cost)),
        true => format!(
            "{} ≈ {usd} ({})",
            md.l(Label::Cost),
            md.l(Label::CostComputed)
        ),
    }
}

/// `2.4 s`.
pub(super) fn duration_text(ms: u64) -> String {
    let mut s = String::new();
    push_duration(&mut s, ms);
    s
}

/// The word of a refused or stopped call.
pub(super) fn status_word(md: &Md<'_>, status: CallStatus) -> &'static str {
    md.l(match status {
        CallStatus::Running => Label::Running,
        CallStatus::Success => Label::Success,
        CallStatus::Error => Label::Error,
        CallStatus::Rejected => Label::Rejected,
        CallStatus::NoResult => Label::NoResult,
        CallStatus::Denied => Label::Denied,
        CallStatus::Interrupted => Label::Interrupted,
    })
}
