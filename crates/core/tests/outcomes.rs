//! Outcomes as they were (issue 37): a refused, declined or stopped call is never a
//! success, keeps its command or path, and says why where the source says.

use docstream_model::{CallStatus, Meta};
use docstream_testkit::{feed, fixtures};

/// (fixture, what each tool document's status, command or path, and reason must be)
type Expected = &'static [(CallStatus, &'static str, Option<&'static str>)];

const CASES: &[(&str, Expected)] = &[
    (
        "cursor-stream-json/refused.jsonl",
        &[
            (
                CallStatus::Denied,
                "git status --short",
                Some("Command blocked by permissions configuration"),
            ),
            (CallStatus::Rejected, "git push origin HEAD", None),
            (CallStatus::Denied, "cat /etc/hosts", None),
            (
                CallStatus::Rejected,
                "/home/dev/fincal/.git/config",
                Some("User Rejected"),
            ),
        ],
    ),
    (
        "claude-code-transcript/refused.jsonl",
        &[
            (CallStatus::Rejected, "rm -rf \"$SCRATCH\"/*", None),
            (CallStatus::Interrupted, "npm test -- --slow", None),
            (
                CallStatus::Rejected,
                "/home/dev/app/config.py",
                Some("Keep 10 s; add a comment that says why."),
            ),
            (CallStatus::NoResult, "/home/dev/app/config.py", None),
        ],
    ),
    (
        "gemini-cli-stream-json/refused.jsonl",
        &[
            (
                CallStatus::Denied,
                "git push origin release/1.4",
                Some("Tool execution denied by policy."),
            ),
            (
                CallStatus::Interrupted,
                "/home/dev/app/CHANGELOG.md",
                Some("User cancelled the operation."),
            ),
        ],
    ),
];

#[test]
fn refused_calls_keep_their_command_status_and_reason() {
    let all = fixtures();
    for (name, expected) in CASES {
        let (format, path) = all
            .iter()
            .find(|(_, p)| p.ends_with(name))
            .unwrap_or_else(|| panic!("{name}: no such fixture"));
        let input = std::fs::read(path).unwrap();
        let s = feed(&input, Some(*format), &[]);
        let got: Vec<(CallStatus, String, Option<String>)> = s
            .conversation()
            .documents()
            .filter_map(|d| match &d.meta {
                Meta::TerminalCommand(m) => Some((m.status?, m.command.clone(), m.reason.clone())),
                Meta::FileEdit(m) => Some((m.status?, m.file_path.clone(), m.error.clone())),
                _ => None,
            })
            .collect();
        let want: Vec<(CallStatus, String, Option<String>)> = expected
            .iter()
            .map(|(s, c, r)| (*s, (*c).to_owned(), r.map(str::to_owned)))
            .collect();
        assert_eq!(got, want, "{name}");
        // The user's interruption is a line of the response, never a prompt of theirs.
        let prompts = s.conversation().turns.iter().filter(|t| match t {
            docstream_model::Turn::User(u) => u.content.contains("Request interrupted"),
            docstream_model::Turn::Assistant(_) => false,
        });
        assert_eq!(
            prompts.count(),
            0,
            "{name}: an interruption shown as a prompt"
        );
    }
}

/// A sub-agent's transcript read on its own (a Cursor sub-agent's file, which carries no
/// mark): `prompts_from_parent_agent()` makes every prompt its parent agent's, for every
/// split; without it they are the user's.
#[test]
fn a_subagent_transcript_read_alone_has_its_parent_agents_prompts() {
    use docstream_core::{DocStream, Format, Options};
    use docstream_model::{PromptFrom, Turn};
    let input = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/cursor-agent-transcript/aborted.jsonl"),
    )
    .unwrap();
    let froms = |s: &DocStream| -> Vec<Option<PromptFrom>> {
        s.conversation()
            .turns
            .iter()
            .filter_map(|t| match t {
                Turn::User(u) => Some(u.from),
                Turn::Assistant(_) => None,
            })
            .collect()
    };
    let plain = feed(&input, Some(Format::CursorAgentTranscript), &[]);
    assert!(!froms(&plain).is_empty());
    assert!(
        froms(&plain).iter().all(Option::is_none),
        "{:?}",
        froms(&plain)
    );
    for (name, cuts) in docstream_testkit::chunkings(input.len()) {
        let mut s = DocStream::new(Options {
            format: Some(Format::CursorAgentTranscript),
            ..Options::default()
        });
        s.prompts_from_parent_agent();
        let mut at = 0;
        for &cut in cuts.iter().chain([input.len()].iter()) {
            s.push(&input[at..cut]).unwrap();
            at = cut;
        }
        s.finish().unwrap();
        let got = froms(&s);
        assert_eq!(got.len(), froms(&plain).len(), "{name}");
        assert!(
            got.iter().all(|f| *f == Some(PromptFrom::ParentAgent)),
            "{name}: {got:?}"
        );
    }
}
