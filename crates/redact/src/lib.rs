//! Secrets masked before a run leaves the machine: credential-shaped values in the texts
//! of a conversation replaced by `[redacted: kind]`.
//!
//! The rules ([`kinds`]) are data in `rules.rs`, each with the documented shape it
//! follows: provider API keys (OpenAI, Anthropic, Google, Azure, AWS, GitHub, GitLab,
//! Slack, Stripe, Twilio, npm, Hugging Face), JWTs, private key blocks, passwords in
//! connection strings, bearer tokens, and `KEY=value` assignments whose name says
//! secret, token, password or key. The same value always gets the same mask (the mask
//! names its kind only), and a masked text is masked again unchanged.
//!
//! ```
//! let (masked, report) = docstream_redact::mask_str("export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345");
//! assert_eq!(masked, "export GITHUB_TOKEN=[redacted: github-token]");
//! assert_eq!(report.total(), 1);
//! ```
//!
//! Masking works on a finished state ([`mask_conversation`]): it is a function of the
//! conversation, so a masked page is the same however the stream was cut.
#![forbid(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod conversation;
mod rules;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use regex::Regex;

pub use conversation::mask_conversation_with;
use rules::{Check, RULES, Rule};

/// How many values of each kind were masked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    counts: BTreeMap<&'static str, u64>,
}

impl Report {
    /// Values masked in all.
    pub fn total(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The count of each kind masked, by kind name (`github-token` …), in name order.
    pub fn counts(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.counts.iter().map(|(k, n)| (*k, *n))
    }

    /// The count of one kind.
    pub fn count(&self, kind: &str) -> u64 {
        self.counts.get(kind).copied().unwrap_or(0)
    }

    /// Adds another report's counts to this one.
    pub fn add(&mut self, other: &Report) {
        for (k, n) in other.counts() {
            *self.counts.entry(k).or_default() += n;
        }
    }

    fn one(&mut self, kind: &'static str) {
        *self.counts.entry(kind).or_default() += 1;
    }
}

/// `3 secrets masked (2 github-token, 1 jwt)`; `no secrets masked`.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.total() {
            0 => return f.write_str("no secrets masked"),
            1 => f.write_str("1 secret masked (")?,
            n => write!(f, "{n} secrets masked (")?,
        }
        for (i, (kind, n)) in self.counts().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n} {kind}")?;
        }
        f.write_str(")")
    }
}

/// The rules compiled once; [`Redactor::global`] shares one.
#[derive(Debug)]
pub struct Redactor {
    rules: Vec<(Regex, &'static Rule)>,
    key_name: Regex,
}

impl Default for Redactor {
    fn default() -> Self {
        Redactor::new()
    }
}

/// Texts shorter than this hold no credential any rule finds.
const SHORTEST: usize = 8;

impl Redactor {
    /// Compiles every rule (about 50 ms on the 2-core machine: prefer
    /// [`Redactor::global`], compiled once).
    pub fn new() -> Redactor {
        let rules = RULES
            .iter()
            .map(|r| (compile(r.pattern), r))
            .collect::<Vec<_>>();
        Redactor {
            rules,
            key_name: compile(rules::SECRET_KEY_NAME),
        }
    }

    /// One redactor for the whole process, compiled on first use.
    pub fn global() -> &'static Redactor {
        static GLOBAL: OnceLock<Redactor> = OnceLock::new();
        GLOBAL.get_or_init(Redactor::new)
    }

    /// `text` with every credential-shaped value replaced by `[redacted: kind]`, counted
    /// in `report`; borrowed when there is none.
    pub fn mask<'a>(&self, text: &'a str, report: &mut Report) -> Cow<'a, str> {
        let found = self.find(text);
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end, kind) in found {
            out.push_str(&text[at..start]);
            push_mask(&mut out, kind);
            report.one(kind);
            at = end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// Where `text` holds credential-shaped values: `(start, end, kind)` byte ranges, in
    /// order, none overlapping (what [`Redactor::mask`] replaces), for a caller that
    /// masks text laid out in pieces (a page's text nodes).
    pub fn find(&self, text: &str) -> Vec<(usize, usize, &'static str)> {
        if text.len() < SHORTEST {
            return Vec::new();
        }
        let mut found: Vec<(usize, usize, usize)> = Vec::new();
        for (i, (re, rule)) in self.rules.iter().enumerate() {
            if re.captures_len() == 1 {
                for m in re.find_iter(text) {
                    if passes(rule.check, m.as_str()) {
                        found.push((m.start(), m.end(), i));
                    }
                }
            } else {
                for caps in re.captures_iter(text) {
                    let Some(m) = caps.iter().skip(1).flatten().next() else {
                        continue;
                    };
                    if passes(rule.check, m.as_str()) {
                        found.push((m.start(), m.end(), i));
                    }
                }
            }
        }
        // Leftmost first; at the same start the longest; at the same length the rule
        // listed first.
        found.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
        let mut out = Vec::with_capacity(found.len());
        let mut at = 0;
        for (start, end, i) in found {
            if start < at {
                continue;
            }
            out.push((start, end, self.rules[i].1.kind));
            at = end;
        }
        out
    }

    /// A title or other line cut short (ending in `…`, as listings cut a first prompt
    /// to a line) masked: as [`Redactor::mask`], and its last word, which the cut may
    /// have taken out of the middle of a credential where no rule can see its shape any
    /// more, masked as `[redacted: truncated]` when it is shaped like one: 12 characters
    /// and more with a letter and a digit, or both cases with `_`, `-` or a capital
    /// after a small letter, or capitals only; or 24 characters and more. A
    /// text not cut is masked as [`Redactor::mask`] masks it.
    pub fn mask_title<'a>(&self, text: &'a str, report: &mut Report) -> Cow<'a, str> {
        let masked = self.mask(text, report);
        let Some(body) = masked.strip_suffix('…') else {
            return masked;
        };
        let start = body.rfind(char::is_whitespace).map_or(0, |i| {
            i + body[i..].chars().next().map_or(1, char::len_utf8)
        });
        if !cut_looks_secret(&body[start..]) {
            return masked;
        }
        report.one(TRUNCATED);
        let mut out = String::with_capacity(start + 32);
        out.push_str(&body[..start]);
        push_mask(&mut out, TRUNCATED);
        out.push('…');
        Cow::Owned(out)
    }

    /// Masks `text` in place; true when it changed.
    pub fn mask_string(&self, text: &mut String, report: &mut Report) -> bool {
        match self.mask(text, report) {
            Cow::Borrowed(_) => false,
            Cow::Owned(masked) => {
                *text = masked;
                true
            }
        }
    }

    /// True when a JSON object key names a secret (`api_key`, `client_secret`,
    /// `password` …): its string value is masked whole, when it is shaped like one.
    pub(crate) fn secret_key(&self, key: &str) -> bool {
        key.len() <= 64 && self.key_name.is_match(key)
    }

    /// Masks the string value of a key that names a secret: the whole value.
    pub(crate) fn mask_keyed(&self, value: &mut String, report: &mut Report) -> bool {
        if rules::is_secret_like(value) && !value.contains(char::is_whitespace) {
            *value = mask_of("secret-assignment");
            report.one("secret-assignment");
            true
        } else {
            self.mask_string(value, report)
        }
    }
}

/// The kind of a word masked because a cut may have left part of a credential in it.
const TRUNCATED: &str = "truncated";

/// True when the last word of a cut line may be the start of a credential: see
/// [`Redactor::mask_title`]. A mask (`[redacted: …]`) is not.
fn cut_looks_secret(word: &str) -> bool {
    if word.len() < 12 || word.ends_with(']') {
        return false;
    }
    let has = |f: fn(&u8) -> bool| word.as_bytes().iter().any(f);
    let (digit, alpha) = (has(u8::is_ascii_digit), has(u8::is_ascii_alphabetic));
    let (upper, lower) = (has(u8::is_ascii_uppercase), has(u8::is_ascii_lowercase));
    let joined = word.contains(['_', '-']);
    // `eyJhbGciOiJI`, `wJalrXUtnFEM`: a capital after a small letter.
    let humps = word
        .as_bytes()
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    (digit && alpha)
        || (upper && lower && (joined || humps))
        || (upper && !lower)
        || word.len() >= 24
}

fn compile(pattern: &str) -> Regex {
    // The rules are constants, tested to compile: a failure is a bug in this crate.
    Regex::new(pattern).unwrap_or_else(|e| panic!("rule {pattern:?}: {e}"))
}

fn passes(check: Check, value: &str) -> bool {
    match check {
        Check::None => true,
        Check::NotPlaceholder => !rules::is_placeholder(value),
        Check::SecretLike => rules::is_secret_like(value),
    }
}

fn push_mask(out: &mut String, kind: &str) {
    out.push_str("[redacted: ");
    out.push_str(kind);
    out.push(']');
}

/// The mask of a kind: `[redacted: jwt]`.
pub fn mask_of(kind: &str) -> String {
    let mut s = String::with_capacity(kind.len() + 12);
    push_mask(&mut s, kind);
    s
}

/// Every kind a rule names, in the order the rules are tried ([`Redactor::mask_title`]
/// adds `truncated`).
pub fn kinds() -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = Vec::new();
    for r in RULES {
        if !kinds.contains(&r.kind) {
            kinds.push(r.kind);
        }
    }
    kinds
}

/// Masks one text with the shared [`Redactor`].
pub fn mask_str(text: &str) -> (Cow<'_, str>, Report) {
    let mut report = Report::default();
    let masked = Redactor::global().mask(text, &mut report);
    (masked, report)
}

/// Masks every text a conversation holds (prompts and attachments, prose, code, file
/// edits and diffs, commands and their output, tool arguments and results and what
/// their views show, plans, questions, errors, thinking, sub-agent runs, the title and
/// problems) with the shared [`Redactor`]; ids, names and numbers stay.
pub fn mask_conversation(conversation: &mut docstream_model::Conversation) -> Report {
    mask_conversation_with(Redactor::global(), conversation)
}
