//! OpenAI's Codex CLI: the `codex exec --json` stream ([`exec`]) and the saved
//! sessions under `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` ([`session`]).
//!
//! The shapes are those of the Rust types in openai/codex: `codex-rs/exec/src/exec_events.rs`
//! for the stream, `codex-rs/protocol/src/protocol.rs` (`RolloutLine`, `EventMsg`) and
//! `codex-rs/protocol/src/models.rs` (`ResponseItem`) for the sessions. What both share
//! is here: token counts, the text of shell tool output, command lines, MCP tool names.

pub(super) mod exec;
pub(super) mod session;

use std::borrow::Cow;

use super::fields::{self, Fields, wire};
use crate::model::Usage;
use crate::normalize::{ToolKind, ToolNames};

/// Codex CLI's tool names: its shell tools over the versions (`shell`,
/// `shell_command`, `container.exec`, `exec_command`, the Responses API's
/// `local_shell`), `exec --json`'s `command_execution` item, and `apply_patch`.
/// `update_plan` records the plan's steps and stays a tool call; `spawn_agent` (a
/// `collab_tool_call`, in a session a function call whose `message` is the prompt)
/// starts a sub-agent, whose own work is in a session of its own.
pub(super) const TOOLS: ToolNames = &[
    ("shell", ToolKind::Shell),
    ("shell_command", ToolKind::Shell),
    ("container.exec", ToolKind::Shell),
    ("exec_command", ToolKind::Shell),
    ("local_shell", ToolKind::Shell),
    ("command_execution", ToolKind::Shell),
    ("apply_patch", ToolKind::Patch),
    ("spawn_agent", ToolKind::Task),
    ("collaboration.spawn_agent", ToolKind::Task),
];

wire! {
    /// Codex's token counts (`Usage` of the stream, `TokenUsage` of the sessions).
    #[derive(Default, Clone, Copy, PartialEq, Eq)]
    ///
    /// Read from a line's `usage` (or a session's token counts).
    struct Tokens {
        input_tokens: u64 "input_tokens" or_default,
        cached_input_tokens: u64 "cached_input_tokens" or_default,
        output_tokens: u64 "output_tokens" or_default,
        reasoning_output_tokens: u64 "reasoning_output_tokens" or_default,
        total_tokens: u64 "total_tokens" or_default,
    }
}

impl Tokens {
    /// What was used since `base` (a running total earlier in the session).
    fn since(self, base: Tokens) -> Tokens {
        Tokens {
            input_tokens: self.input_tokens.saturating_sub(base.input_tokens),
            cached_input_tokens: self
                .cached_input_tokens
                .saturating_sub(base.cached_input_tokens),
            output_tokens: self.output_tokens.saturating_sub(base.output_tokens),
            reasoning_output_tokens: self
                .reasoning_output_tokens
                .saturating_sub(base.reasoning_output_tokens),
            total_tokens: self.total_tokens.saturating_sub(base.total_tokens),
        }
    }
}

impl From<Tokens> for Usage {
    fn from(t: Tokens) -> Usage {
        Usage {
            prompt_tokens: t.input_tokens,
            // Reasoning tokens are part of the output count.
            completion_tokens: t.output_tokens,
            total_tokens: t
                .total_tokens
                .max(t.input_tokens.saturating_add(t.output_tokens)),
            cache_read_tokens: (t.cached_input_tokens > 0).then_some(t.cached_input_tokens),
            cache_write_tokens: None,
            reasoning_tokens: (t.reasoning_output_tokens > 0).then_some(t.reasoning_output_tokens),
        }
    }
}

/// The status of a call Codex did not run, by the output it gave the model in its
/// place: the user declined its approval (`exec command rejected by user`, `patch
/// rejected by user`), or the approval reviewer refused it (`This action was rejected
/// due to unacceptable risk.`); `None` for any other output.
fn refusal(text: &str) -> Option<crate::model::CallStatus> {
    use crate::model::CallStatus;
    let t = text.trim();
    if t == "exec command rejected by user" || t == "patch rejected by user" {
        Some(CallStatus::Rejected)
    } else if t.starts_with("This action was rejected due to unacceptable risk") {
        Some(CallStatus::Denied)
    } else {
        None
    }
}

/// What a shell tool's output text says: Codex gives the model either JSON
/// (`{"output", "metadata": {"exit_code", "duration_seconds"}}`), or lines of text
/// (`Exit code: 0` / `Process exited with code 0`, `Wall time: 1.2 seconds`, `Output:`
/// and the output after it).
#[derive(Debug, Clone, PartialEq)]
struct ShellOutput {
    exit_code: Option<i64>,
    duration_ms: Option<u64>,
    output: String,
}

fn shell_output(text: &str) -> ShellOutput {
    if text.trim_start().starts_with('{') {
        if let Some(out) = structured_output(text) {
            return out;
        }
    }
    let mut out = ShellOutput {
        exit_code: None,
        duration_ms: None,
        output: String::new(),
    };
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim_end();
        if l == "Output:" {
            out.output = text[at + line.len()..].to_owned();
            return out;
        }
        if let Some(code) = l
            .strip_prefix("Exit code: ")
            .or_else(|| l.strip_prefix("Process exited with code "))
        {
            out.exit_code = code.trim().parse().ok();
        } else if let Some(t) = l.strip_prefix("Wall time: ") {
            out.duration_ms = decimal_seconds_to_ms(t.trim_end_matches("seconds").trim());
        } else if !(l.starts_with("Chunk ID: ")
            || l.starts_with("Total output lines: ")
            || l.starts_with("Process running with session ID ")
            || l.starts_with("Warning: "))
        {
            break; // not Codex's header: the text is the output
        }
        at += line.len();
    }
    ShellOutput {
        exit_code: None,
        duration_ms: None,
        output: text.to_owned(),
    }
}

/// The JSON form of a shell tool's output: `{"output", "metadata": {"exit_code",
/// "duration_seconds"}}` (`output` a string; where a field is of another type, the
/// text is not read as this form).
fn structured_output(text: &str) -> Option<ShellOutput> {
    let tree = fields::parse(text).ok()?;
    let f = Fields::of(&tree, "the output").ok()?;
    let output = f.string("output").ok()??;
    let (exit_code, duration_ms) = match f.object("metadata").ok()? {
        Some(m) => (
            m.i64("exit_code").ok()?,
            m.f64("duration_seconds").ok()?.map(seconds_to_ms),
        ),
        None => (None, None),
    };
    Some(ShellOutput {
        exit_code,
        duration_ms,
        output,
    })
}

/// `2.5` (seconds, as text) in milliseconds, without float parsing (`12.0345` → 12035).
fn decimal_seconds_to_ms(s: &str) -> Option<u64> {
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole
            .bytes()
            .chain(fraction.bytes())
            .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut digits = fraction.bytes().map(|b| u64::from(b - b'0'));
    let mut ms = 0;
    for _ in 0..3 {
        ms = ms * 10 + digits.next().unwrap_or(0);
    }
    let round_up = digits.next().is_some_and(|d| d >= 5);
    whole
        .checked_mul(1000)?
        .checked_add(ms + u64::from(round_up))
}

fn seconds_to_ms(s: f64) -> u64 {
    if s.is_finite() && s > 0.0 {
        (s * 1000.0).round().min(u64::MAX as f64) as u64
    } else {
        0
    }
}

/// A command line for display: the script of `bash -lc <script>` (how Codex runs
/// commands), else the words joined, quoted where they hold spaces or quotes.
fn command_line(argv: &[String]) -> String {
    if let [shell, flag, script] = argv {
        let shell = shell.rsplit('/').next().unwrap_or(shell);
        if matches!(shell, "bash" | "sh" | "zsh") && matches!(flag.as_str(), "-lc" | "-c") {
            return script.clone();
        }
    }
    let words: Vec<Cow<'_, str>> = argv
        .iter()
        .map(|w| {
            if !w.is_empty() && !w.contains([' ', '\t', '\n', '\'', '"', '\\', '$', '`']) {
                Cow::Borrowed(w.as_str())
            } else {
                Cow::Owned(format!("'{}'", w.replace('\'', r"'\''")))
            }
        })
        .collect();
    words.join(" ")
}

/// The script of a command line that runs one through a shell (`bash -lc 'npm test'`,
/// `/bin/zsh -lc "ls"`), as `codex exec --json` reports commands; other command lines
/// as they are.
fn script_of(command: &str) -> Cow<'_, str> {
    let mut words = command.splitn(3, ' ');
    let (Some(shell), Some(flag), Some(rest)) = (words.next(), words.next(), words.next()) else {
        return Cow::Borrowed(command);
    };
    let shell = shell.rsplit('/').next().unwrap_or(shell);
    if !matches!(shell, "bash" | "sh" | "zsh") || !matches!(flag, "-lc" | "-c") {
        return Cow::Borrowed(command);
    }
    match one_shell_word(rest) {
        Some(script) => Cow::Owned(script),
        None => Cow::Borrowed(command),
    }
}

/// The text of `s` when it is exactly one POSIX shell word (quoted as a whole or in
/// parts), else `None`.
fn one_shell_word(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    c => out.push(c),
                }
            },
            '"' => loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => match chars.next()? {
                        c @ ('"' | '\\' | '$' | '`') => out.push(c),
                        '\n' => {}
                        c => {
                            out.push('\\');
                            out.push(c);
                        }
                    },
                    c => out.push(c),
                }
            },
            '\\' => out.push(chars.next()?),
            c if c.is_whitespace() => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

/// The tool name an MCP call is shown under, spelled as Claude Code spells MCP tools.
fn mcp_tool_name(server: &str, tool: &str) -> String {
    format!("mcp__{server}__{tool}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_output_in_each_of_codexs_shapes() {
        let structured = shell_output(
            r#"{"output":"a\nb\n","metadata":{"exit_code":2,"duration_seconds":0.5}}"#,
        );
        assert_eq!(
            structured,
            ShellOutput {
                exit_code: Some(2),
                duration_ms: Some(500),
                output: "a\nb\n".to_owned()
            }
        );
        let freeform = shell_output("Exit code: 0\nWall time: 1.2 seconds\nOutput:\nhello\n");
        assert_eq!(
            (
                freeform.exit_code,
                freeform.duration_ms,
                freeform.output.as_str()
            ),
            (Some(0), Some(1200), "hello\n")
        );
        let unified = shell_output(
            "Chunk ID: 4f\nWall time: 0.0100 seconds\nProcess exited with code 1\nOutput:\nno\n",
        );
        assert_eq!(
            (unified.exit_code, unified.output.as_str()),
            (Some(1), "no\n")
        );
        let plain = shell_output("Exit code: 0\nsomething else\n");
        assert_eq!(
            (plain.exit_code, plain.output.as_str()),
            (None, "Exit code: 0\nsomething else\n")
        );
        assert_eq!(shell_output("{not json").output, "{not json");
        let whole_seconds = shell_output(r#"{"output":"x","metadata":{"duration_seconds":2}}"#);
        assert_eq!(
            (whole_seconds.exit_code, whole_seconds.duration_ms),
            (None, Some(2000))
        );
        // Not of the JSON form's types: the text is the output.
        for text in [
            r#"{"output":5}"#,
            r#"{"metadata":{"exit_code":1}}"#,
            r#"{"output":"x","metadata":{"exit_code":"1"}}"#,
            r#"{"output":"x","metadata":{"duration_seconds":"1"}}"#,
            r#"{"output":"x","metadata":[]}"#,
        ] {
            assert_eq!(shell_output(text).output, text);
        }
    }

    #[test]
    fn wall_times_in_milliseconds() {
        assert_eq!(decimal_seconds_to_ms("2.3"), Some(2300));
        assert_eq!(decimal_seconds_to_ms("0.0100"), Some(10));
        assert_eq!(decimal_seconds_to_ms("12.0345"), Some(12035));
        assert_eq!(decimal_seconds_to_ms("0"), Some(0));
        assert_eq!(decimal_seconds_to_ms(".5"), Some(500));
        assert_eq!(decimal_seconds_to_ms(""), None);
        assert_eq!(decimal_seconds_to_ms("."), None);
        assert_eq!(decimal_seconds_to_ms("1e3"), None);
        assert_eq!(decimal_seconds_to_ms("-1"), None);
        assert_eq!(decimal_seconds_to_ms("99999999999999999999"), None);
    }

    #[test]
    fn command_lines_read_as_typed() {
        let argv = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            command_line(&argv(&["bash", "-lc", "ls -la | head"])),
            "ls -la | head"
        );
        assert_eq!(command_line(&argv(&["/bin/zsh", "-c", "pwd"])), "pwd");
        assert_eq!(
            command_line(&argv(&["rg", "-n", "fn main", "src"])),
            "rg -n 'fn main' src"
        );
        assert_eq!(command_line(&argv(&["echo", "it's"])), r"echo 'it'\''s'");
        assert_eq!(command_line(&[]), "");
    }

    #[test]
    fn shell_wrappers_are_left_out() {
        assert_eq!(
            script_of("bash -lc 'npm test -- --silent'"),
            "npm test -- --silent"
        );
        assert_eq!(
            script_of(r#"/bin/zsh -lc "echo \"hi\" > out.txt""#),
            r#"echo "hi" > out.txt"#
        );
        assert_eq!(script_of(r"bash -lc 'it'\''s'"), "it's");
        assert_eq!(script_of("bash -lc ls"), "ls");
        assert_eq!(script_of("bash -lc 'a' b"), "bash -lc 'a' b");
        assert_eq!(script_of("bash -lc 'unclosed"), "bash -lc 'unclosed");
        assert_eq!(script_of("python3 -c 'print(1)'"), "python3 -c 'print(1)'");
        assert_eq!(script_of("ls"), "ls");
    }

    #[test]
    fn token_counts_since_a_base() {
        let t = |i, c, o, total| Tokens {
            input_tokens: i,
            cached_input_tokens: c,
            output_tokens: o,
            reasoning_output_tokens: o / 2,
            total_tokens: total,
        };
        let u: Usage = t(300, 100, 50, 350).since(t(100, 0, 20, 120)).into();
        assert_eq!(
            (
                u.prompt_tokens,
                u.completion_tokens,
                u.total_tokens,
                u.cache_read_tokens
            ),
            (200, 30, 230, Some(100))
        );
        // 25 of the 50 reasoning, 10 of the 20 before.
        assert_eq!(u.reasoning_tokens, Some(15));
        let u: Usage = t(1, 0, 1, 2).since(t(5, 5, 5, 5)).into();
        assert_eq!(
            (u.prompt_tokens, u.total_tokens, u.cache_read_tokens),
            (0, 0, None)
        );
    }
}
