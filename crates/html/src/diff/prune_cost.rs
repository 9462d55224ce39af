//! A bound on what imara-diff's Myers preprocessing costs, and the diff to show instead
//! when it would cost more than the edit is long.
//!
//! Before diffing, imara-diff 0.2.0 drops tokens the other side does not have, and
//! decides for every token the other side has many times (a blank line, a `}`) whether
//! to drop it too by scanning its neighbours. The scan back is meant to look at the 100
//! tokens before it, but starts at the 100th token of the input instead
//! (`token_status[start..pos]` with `start = WINDOW_SIZE`), so on a long run of such
//! tokens every token scans the whole run: a 1 MB line of a few repeated words took four
//! minutes to get its word marks, and 20,000 lines drawn from 40 took a quarter of a
//! second. The fix (pascalkuthe/imara-diff#47, bounding the scan to the window) is merged
//! but not released. Until it is, [`costs_too_much`] counts the steps that scan will take,
//! exactly as 0.2.0 takes them, in one pass, and the caller shows the changed middle as
//! one replaced run when they exceed a budget linear in the input (beyond a constant
//! that keeps a few thousand lines of anything exact). What that costs a reader: an input
//! of thousands of lines drawn from a handful, changed in more than one place, shows as
//! replaced between its first and last change rather than line by line.

use std::ops::Range;

use imara_diff::Token;

/// How far imara-diff's pruning scan is meant to look either side of a token.
const WINDOW: usize = 100;

/// Steps of scanning allowed for each token of the input, and for any input: 2^25 steps
/// take about 30 ms natively, so a few thousand lines of anything keep their exact diff.
const STEPS_PER_TOKEN: u64 = 64;
const STEPS_ANYWAY: u64 = 1 << 25;

/// The token ranges left once the common start and end are taken off: the part
/// imara-diff diffs.
pub(super) fn middle(before: &[Token], after: &[Token]) -> (Range<usize>, Range<usize>) {
    let prefix = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let suffix = before[prefix..]
        .iter()
        .rev()
        .zip(after[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (prefix..before.len() - suffix, prefix..after.len() - suffix)
}

/// Whether diffing `before` and `after` (the middle, see [`middle`]) by Myers would
/// spend more than the budget in imara-diff 0.2.0's pruning scan. `num_tokens`: how
/// many distinct tokens there are (the interner's count).
pub(super) fn costs_too_much(before: &[Token], after: &[Token], num_tokens: u32) -> bool {
    let budget = STEPS_ANYWAY
        .saturating_add(STEPS_PER_TOKEN.saturating_mul((before.len() + after.len()) as u64));
    scan_steps(before, after, num_tokens) > budget
}

/// What a token is to the other side, as imara-diff classifies it.
#[derive(Clone, Copy, PartialEq)]
enum Status {
    /// The other side does not have it.
    Absent,
    /// The other side has it, but not often.
    Rare,
    /// The other side has it at least `sqrt(len)` times (at most 1,024).
    Common,
}

/// The steps imara-diff 0.2.0's pruning scan takes on both sides.
fn scan_steps(before: &[Token], after: &[Token], num_tokens: u32) -> u64 {
    let counts = |side: &[Token]| {
        let mut n = vec![0u32; num_tokens as usize];
        for t in side {
            n[t.0 as usize] = n[t.0 as usize].saturating_add(1);
        }
        n
    };
    let (in_before, in_after) = (counts(before), counts(after));
    side_steps(before, &in_after).saturating_add(side_steps(after, &in_before))
}

/// The scan's steps on one side, given how often each token is on the other.
fn side_steps(side: &[Token], in_other: &[u32]) -> u64 {
    let limit = eq_limit(side.len());
    let status = |t: &Token| match in_other[t.0 as usize] {
        0 => Status::Absent,
        n if n >= limit => Status::Common,
        _ => Status::Rare,
    };
    let mut steps = 0u64;
    // Where the scan back from the current token stops: just after the last rare token.
    let mut after_rare = 0;
    for (pos, t) in side.iter().enumerate() {
        match status(t) {
            Status::Rare => after_rare = pos + 1,
            Status::Absent => {}
            Status::Common => {
                let start = if pos > WINDOW { WINDOW } else { 0 };
                let back = pos - after_rare.max(start).min(pos);
                steps = steps.saturating_add(back as u64 + WINDOW as u64);
            }
        }
    }
    steps
}

/// imara-diff's limit above which a token is common: a power of two near the square
/// root of the side's length, at most 1,024.
fn eq_limit(len: usize) -> u32 {
    let bits = (usize::BITS - len.leading_zeros()) / 2;
    (1u32 << bits).min(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(ids: impl IntoIterator<Item = u32>) -> Vec<Token> {
        ids.into_iter().map(Token).collect()
    }

    #[test]
    fn a_long_run_of_common_tokens_is_over_the_budget() {
        // 20,000 lines drawn from 40, in another order on each side: every line is
        // common, no line is rare, so each scans back to the 100th.
        let before = tokens((0..20_000).map(|i| i % 40));
        let after = tokens((0..20_000).map(|i| (i * 7 + 3) % 40));
        let steps = scan_steps(&before, &after, 40);
        assert!(steps > 300_000_000, "{steps} steps");
        assert!(costs_too_much(&before, &after, 40));
    }

    #[test]
    fn rare_tokens_end_the_scan_so_code_stays_under_the_budget() {
        // Code-like: every fourth line a blank or a brace, the rest distinct lines the
        // other side has once.
        let side = |shift: u32| {
            tokens((0..40_000u32).map(move |i| {
                if i % 4 == 0 {
                    i % 3
                } else {
                    3 + (i + shift) % 40_000
                }
            }))
        };
        let (before, after) = (side(0), side(1));
        let steps = scan_steps(&before, &after, 40_003);
        assert!(steps < 64 * 80_000, "{steps} steps");
        assert!(!costs_too_much(&before, &after, 40_003));
    }

    #[test]
    fn the_middle_leaves_out_the_common_ends() {
        let (before, after) = (tokens([1, 2, 3, 4, 5]), tokens([1, 2, 9, 5]));
        assert_eq!(middle(&before, &after), (2..4, 2..3));
        let same = tokens([1, 2]);
        assert_eq!(middle(&same, &same), (2..2, 2..2));
        assert_eq!(middle(&tokens([1, 1]), &tokens([1])), (1..2, 1..1));
    }
}
