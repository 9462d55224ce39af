//! Real captures written by others, read in place from `../shared/samples/` (skipped,
//! saying so, when absent), and the complete response example of seed 000 §4.

use docstream_testkit as support;

use docstream_core::model::{DocumentType, Meta, Turn};
use serde_json::Value;
use support::{chunkings, feed, json};

fn types_of(input: &[u8]) -> Vec<DocumentType> {
    feed(input, None, &[])
        .conversation()
        .documents()
        .map(|d| d.doc_type())
        .collect()
}

#[test]
fn cursor_agent_captures_normalise_without_errors() {
    use DocumentType::*;
    let cases: [(&str, &[DocumentType]); 3] = [
        (
            "reifying-cursor-hack__experiments_direct-sleep.jsonl",
            &[Thinking, Text, TerminalCommand, TerminalCommand, Text],
        ),
        (
            "reifying-cursor-hack__experiments_parallel-sleep.jsonl",
            &[Text, TerminalCommand, TerminalCommand, Text],
        ),
        (
            "reifying-cursor-hack__internal_events_testdata_full_session.jsonl",
            &[Thinking, Text, TerminalCommand, Text],
        ),
    ];
    for (name, expected) in cases {
        let Some(path) = support::shared(&format!("samples/cursor-agent/{name}")) else {
            return support::skip("the Cursor Agent captures");
        };
        let input = std::fs::read(&path).unwrap();
        let stream = feed(&input, None, &[]);
        let c = stream.conversation();
        let errors: Vec<_> = c
            .documents()
            .filter(|d| matches!(d.meta, Meta::Error(_)))
            .map(|d| d.text().to_owned())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert_eq!(types_of(&input), expected, "{name}");
        assert_eq!(c.stats.unknown_events, 0, "{name}");
        for d in c.documents() {
            if let Meta::TerminalCommand(t) = &d.meta {
                assert!(t.command.starts_with("sleep "), "{name}: {}", t.command);
                assert_eq!(t.exit_code, Some(0), "{name}");
            }
        }
        let whole = json(&stream);
        for (how, cuts) in chunkings(input.len())
            .into_iter()
            .filter(|(n, _)| n != "1-byte")
        {
            assert!(
                json(&feed(&input, None, &cuts)) == whole,
                "{name} fed {how} differs from whole"
            );
        }
    }
}

/// The JSON of seed 000 §4 (the complete response example), taken from the seed.
fn section_4_example() -> Option<String> {
    let seed = std::fs::read_to_string(support::shared("seeds/000_09b1c9a9d6cf8b8b.txt")?).ok()?;
    let from = seed.find("## 4.")?;
    let section = &seed[from..from + seed[from..].find("## 5.")?];
    // The example's own text holds a fence, so its end is the section's last one.
    let start = section.find("```json")? + "```json".len();
    let end = section.rfind("```")?;
    Some(section[start..end].to_owned())
}

#[test]
fn seed_000_example_loads_and_round_trips() {
    let Some(example) = section_4_example() else {
        return support::skip("the seed 000 §4 example");
    };
    let original: Value = serde_json::from_str(&example).expect("the example is JSON");
    let stream = feed(example.as_bytes(), None, &[]);
    let c = stream.conversation();
    assert_eq!(c.turns.len(), 1);
    let Turn::Assistant(response) = &c.turns[0] else {
        panic!("a response")
    };
    assert_eq!(response.documents.len(), 9);
    let types: Vec<_> = response
        .documents
        .iter()
        .map(|d| d.doc_type().as_str())
        .collect();
    assert_eq!(
        types,
        [
            "text",
            "tool_call",
            "tool_call",
            "code_reference",
            "text",
            "file_edit",
            "file_edit",
            "terminal_command",
            "text"
        ]
    );
    let back = serde_json::to_value(response).unwrap();
    assert_eq!(
        back, original,
        "serialising the loaded response gives back the example"
    );
    for (how, cuts) in chunkings(example.len()) {
        assert_eq!(
            json(&feed(example.as_bytes(), None, &cuts)),
            json(&stream),
            "§4 example fed {how}"
        );
    }
}
