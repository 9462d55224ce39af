//! The history's shape (issue 37): a compaction is a divider with its summary folded,
//! never a prompt; the turns of a branch the user rewound from are folded and marked at
//! the fork, and the page the patches build shows what `html()` shows after every
//! line, the rewind's marks included.

use docstream_core::model::{Conversation, Rewound, Turn};
use docstream_core::{DocStream, Format, Options};
use docstream_html::patch::PageModel;
use docstream_html::{HtmlView, RenderOptions, render_conversation, render_conversation_live};

fn fixture(rel: &str) -> Vec<u8> {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures"))
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Streams `input` a line at a time; after each, the page the patches built is the
/// page of the state so far. Returns the final conversation.
fn streamed_line_by_line(name: &str, input: &[u8], format: Format) -> Conversation {
    let mut stream = DocStream::new(Options {
        format: Some(format),
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut page = PageModel::new();
    for (i, line) in input.split_inclusive(|&b| b == b'\n').enumerate() {
        stream.push(line).unwrap();
        let changes = stream.take_changes();
        for p in view.update(stream.conversation(), &changes) {
            page.apply(&p);
        }
        let now = render_conversation_live(
            stream.conversation(),
            &RenderOptions::default(),
            &stream.open_documents(),
        );
        assert_eq!(page.html(), now, "{name}: after line {}", i + 1);
    }
    stream.finish().unwrap();
    let changes = stream.take_changes();
    for p in view.update(stream.conversation(), &changes) {
        page.apply(&p);
    }
    let end = render_conversation(stream.conversation(), &RenderOptions::default());
    assert_eq!(page.html(), end, "{name}: at the end");
    stream.conversation().clone()
}

fn prompt(c: &Conversation, t: usize) -> &str {
    match &c.turns[t] {
        Turn::User(u) => &u.content,
        Turn::Assistant(_) => panic!("turn {t} is a response"),
    }
}

#[test]
fn a_claude_code_compaction_is_a_divider_with_its_summary_not_a_prompt() {
    let input = fixture("claude-code-transcript/compaction.jsonl");
    let c = streamed_line_by_line("compaction.jsonl", &input, Format::ClaudeCodeTranscript);
    let compactions: Vec<(usize, String, Option<u64>, Option<u64>)> = c
        .turns
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Turn::User(u) => u.compaction.as_ref().map(|m| {
                (
                    i,
                    m.trigger.clone().unwrap_or_default(),
                    m.pre_tokens,
                    m.post_tokens,
                )
            }),
            Turn::Assistant(_) => None,
        })
        .collect();
    assert_eq!(
        compactions,
        [
            (2, "auto".to_owned(), Some(155_025), Some(12_062)),
            (5, "manual".to_owned(), Some(31_877), None)
        ]
    );
    assert!(prompt(&c, 2).starts_with("This session is being continued"));
    assert!(prompt(&c, 5).contains("`selectinload` (38 ms)"));
    let totals = c.totals();
    assert_eq!((totals.prompts, totals.compactions), (3, 2));
    let html = render_conversation(&c, &RenderOptions::default());
    assert!(html.contains(
        "<span class=\"ds-compaction-mark\">Context compacted <span class=\"ds-compaction-facts\">(auto, 155k → 12k tokens)</span></span>"
    ));
    assert!(html.contains("(manual, 32k tokens)"));
    // The summaries are folded notes, and no compaction reads as the person's prompt.
    assert_eq!(
        html.matches("<details class=\"ds-note ds-compaction-summary\">")
            .count(),
        2
    );
    assert_eq!(html.matches("ds-role\">You ").count(), 3, "{html}");
}

#[test]
fn a_codex_compaction_and_its_event_are_one_divider() {
    let input = fixture("codex-session/compaction.jsonl");
    let c = streamed_line_by_line("codex compaction.jsonl", &input, Format::CodexSession);
    let at: Vec<usize> = (0..c.turns.len())
        .filter(|&t| matches!(&c.turns[t], Turn::User(u) if u.compaction.is_some()))
        .collect();
    assert_eq!(
        at,
        [2, 4],
        "the record and the event after it are one compaction"
    );
    assert!(prompt(&c, 2).contains("Left: the `budgets` table"));
    assert_eq!(prompt(&c, 4), "", "a server compaction saves no summary");
    assert_eq!(c.stats.unknown_events, 0);
}

#[test]
fn a_rewound_branch_is_folded_and_marked_at_its_fork() {
    let input = fixture("claude-code-transcript/rewind.jsonl");
    let c = streamed_line_by_line("rewind.jsonl", &input, Format::ClaudeCodeTranscript);
    let marks: Vec<Option<Rewound>> = (0..c.turns.len()).map(|t| c.rewound(t)).collect();
    let mark = |replaced_by, fork| Some(Rewound { replaced_by, fork });
    assert_eq!(
        marks,
        [
            // The second rewind went back to the start: everything before turn 8.
            mark(8, true),
            mark(8, false),
            // The first one left "Now make it print timings too." and its answer.
            mark(4, true),
            mark(4, false),
            mark(8, false),
            mark(8, false),
            mark(8, false),
            mark(8, false),
            None,
            None,
        ]
    );
    assert_eq!(
        prompt(&c, 4),
        "Instead of printing them, write the timings to `timings.log`."
    );
    let html = render_conversation(&c, &RenderOptions::default());
    assert!(html.contains(
        "<summary class=\"ds-rewound-mark ds-fork\">Rewound — replaced by <q class=\"ds-replaced-by\">Instead of printing them, write the timings to `timings.log`.</q></summary>"
    ));
    assert_eq!(html.matches("<details class=\"ds-rewound\"").count(), 8);
}

#[test]
fn calls_answered_out_of_line_and_progress_lines_are_no_fork() {
    // The first response alone: two calls on two lines, each result answering its own
    // call's line, and a progress line beside a result.
    let input = fixture("claude-code-transcript/rewind.jsonl");
    let head: Vec<u8> = input
        .split_inclusive(|&b| b == b'\n')
        .take(11)
        .flatten()
        .copied()
        .collect();
    let c = streamed_line_by_line(
        "rewind.jsonl, 11 lines",
        &head,
        Format::ClaudeCodeTranscript,
    );
    assert_eq!(c.turns.len(), 4);
    assert!((0..4).all(|t| c.rewound(t).is_none()));
}

#[test]
fn a_transcript_without_parent_links_has_no_rewind() {
    // Tools that write Claude Code's shape without its tree leave `parentUuid` null on
    // every line: a null parent marks a return to the start only where the file links
    // its lines.
    let input = fixture("claude-code-transcript/unlinked.jsonl");
    let c = streamed_line_by_line("unlinked.jsonl", &input, Format::ClaudeCodeTranscript);
    assert_eq!(c.turns.len(), 5);
    let rewound: Vec<usize> = (0..5).filter(|&t| c.rewound(t).is_some()).collect();
    assert_eq!(
        rewound,
        Vec::<usize>::new(),
        "unlinked.jsonl: turns marked rewound"
    );
    assert_eq!(prompt(&c, 4), "Thanks.");
}

#[test]
fn a_compact_run_in_the_stream_is_a_divider_and_no_empty_response() {
    let input = fixture("claude-code-stream-json/compaction.jsonl");
    let c = streamed_line_by_line(
        "stream compaction.jsonl",
        &input,
        Format::ClaudeCodeStreamJson,
    );
    assert_eq!(c.turns.len(), 2, "{:#?}", c.turns);
    let Turn::User(u) = &c.turns[1] else {
        panic!("turn 1 is a response");
    };
    let m = u.compaction.as_ref().expect("a compaction");
    assert_eq!(
        (m.trigger.as_deref(), m.pre_tokens, m.post_tokens),
        (Some("manual"), Some(33_919), Some(3_337))
    );
}
