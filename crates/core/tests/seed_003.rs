//! Every data example of seed 003 (Cursor's saved conversation), read in place from
//! `../shared/seeds/` (skipped, saying so, when absent), loaded and checked against what
//! the seed says it holds. The JavaScript examples are object literals with comments
//! and `[...]` elisions; they are read as JSON after dropping both
//! (`seed_blocks::js_to_json`). The type sketches ("Individual Message Format", "Full
//! Conversation Structure", "Local Storage Structure") and the code excerpts describe
//! shapes, not data; the fixtures in `tests/fixtures/cursor-store/` follow them.

use docstream_testkit as support;
use docstream_testkit::seed_blocks;

use docstream_core::model::{DocumentType, Meta, Turn};
use docstream_core::{DocStream, Format, Options};
use seed_blocks::{Block, blocks, js_to_json, under};
use serde_json::{Value, json};
use support::{chunkings, feed};

const SEED: &str = "003_8914948f329c9004.txt";

/// Loads an example and checks that every chunking gives the same state.
fn load(example: &str) -> DocStream {
    let stream = feed(example.as_bytes(), None, &[]);
    assert_eq!(stream.format(), Some(Format::CursorStore), "{example}");
    let whole = support::json(&stream);
    for (how, cuts) in chunkings(example.len()) {
        assert_eq!(
            support::json(&feed(example.as_bytes(), None, &cuts)),
            whole,
            "fed {how}"
        );
    }
    stream
}

/// The turns as (role, text): a prompt's content, a response's documents' text.
fn outline(stream: &DocStream) -> Vec<(String, String)> {
    stream
        .conversation()
        .turns
        .iter()
        .map(|t| match t {
            Turn::User(u) => ("user".to_owned(), u.content.clone()),
            Turn::Assistant(r) => (
                "assistant".to_owned(),
                r.documents.iter().map(|d| d.text()).collect::<String>(),
            ),
        })
        .collect()
}

/// The (role, text) the seed's `conversation` array names, group by group.
fn expected_outline(request: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for group in request["conversation"].as_array().unwrap() {
        let role = match group["kind"].as_str().unwrap() {
            "HUMAN" => "user",
            _ => "assistant",
        };
        for m in group["messages"].as_array().unwrap() {
            out.push((role.to_owned(), m["text"].as_str().unwrap().to_owned()));
        }
    }
    out
}

fn no_errors(stream: &DocStream) {
    let errors: Vec<&str> = stream
        .conversation()
        .documents()
        .filter(|d| matches!(d.meta, Meta::Error(_)))
        .map(|d| d.text())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// Code fences leave the text documents: the outline of a response joins its
/// documents' text, so the seed's text is compared without its fence lines.
fn without_fence_lines(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("```"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("\n\n", "\n")
        .trim_end()
        .to_owned()
}

fn normalise(outline: Vec<(String, String)>) -> Vec<(String, String)> {
    outline
        .into_iter()
        .map(|(role, text)| (role, without_fence_lines(&text)))
        .collect()
}

fn seed() -> Option<Vec<Block>> {
    blocks(SEED)
}

#[test]
fn the_three_turn_examples_load_as_the_conversations_they_show() {
    let Some(blocks) = seed() else { return };
    for heading in [
        "Turn 1 - User asks:",
        "Turn 2 - AI responds, then user follows up:",
        "Turn 3 - Continues building on full history:",
    ] {
        let block = under(&blocks, heading);
        assert_eq!(block.lang, "json", "{heading}");
        let request: Value = serde_json::from_str(&block.body).expect(heading);
        let stream = load(&block.body);
        no_errors(&stream);
        assert_eq!(
            normalise(outline(&stream)),
            normalise(expected_outline(&request)),
            "{heading}"
        );
    }
    // Turn 3's second answer holds the component with props as a jsx code block.
    let turn3 = under(&blocks, "Turn 3 - Continues building on full history:");
    let stream = load(&turn3.body);
    let code: Vec<_> = stream
        .conversation()
        .documents()
        .filter(|d| d.doc_type() == DocumentType::CodeBlock)
        .collect();
    assert_eq!(code.len(), 1);
    assert_eq!(
        code[0].text(),
        "function MyComponent({ name }) {\n  return <div>Hello {name}</div>;\n}"
    );
    let Meta::CodeBlock(m) = &code[0].meta else {
        panic!("code block")
    };
    assert_eq!(m.language, "jsx");
}

#[test]
fn the_actual_api_request_example_loads_with_its_context() {
    let Some(blocks) = seed() else { return };
    let block = under(&blocks, "Actual API Request Format");
    let example = js_to_json(&block.body);
    let request: Value = serde_json::from_str(&example).expect("the request reads as JSON");
    let stream = load(&example);
    no_errors(&stream);
    assert_eq!(outline(&stream), expected_outline(&request));
    assert_eq!(
        outline(&stream),
        [
            ("user", "How do I implement authentication?"),
            ("assistant", "Here's how to implement authentication..."),
            ("user", "Can you show me the login route?"),
        ]
        .map(|(r, t)| (r.to_owned(), t.to_owned()))
    );
    let response = stream.conversation().responses().next().unwrap();
    assert_eq!(response.conversation_id, "conv-xyz");
    assert_eq!(response.model, "claude-sonnet-4.5");
    // `unified_mode: 1, // CHAT`: Cursor's chat mode is the ask mode.
    assert_eq!(response.mode, "ask");
}

#[test]
fn the_summarisation_example_keeps_its_summary() {
    let Some(blocks) = seed() else { return };
    let block = under(&blocks, "3. **Optimization: Conversation Summarization**");
    let example = js_to_json(&block.body);
    let stream = load(&example);
    no_errors(&stream);
    let turns = &stream.conversation().turns;
    assert_eq!(turns.len(), 1, "the summary, on the prompt still to come");
    let Turn::User(u) = &turns[0] else {
        panic!("a user turn")
    };
    assert_eq!(u.content, "");
    assert_eq!(u.attachments.len(), 1);
    assert_eq!(u.attachments[0].kind, "summary");
    assert_eq!(
        u.attachments[0].text.as_deref(),
        Some("User asked about authentication. I explained OAuth2 flow...")
    );
}

#[test]
fn cursors_format_example_loads_once_its_elisions_are_dropped() {
    let Some(blocks) = seed() else { return };
    let block = under(&blocks, "Cursor's Format:");
    assert!(
        serde_json::from_str::<Value>(&block.body).is_err(),
        "the example elides arrays as [...]; if it is valid JSON now, read it as it is"
    );
    let example = js_to_json(&block.body);
    let stream = load(&example);
    no_errors(&stream);
    assert_eq!(
        outline(&stream),
        [("user", "Hello"), ("assistant", "...Hi there!")]
            .map(|(r, t)| (r.to_owned(), t.to_owned()))
    );
    let response = stream.conversation().responses().next().unwrap();
    assert_eq!(response.model, "claude-sonnet-4.5");
    let types: Vec<_> = response.documents.iter().map(|d| d.doc_type()).collect();
    assert_eq!(types, [DocumentType::Thinking, DocumentType::Text]);
}

#[test]
fn the_standard_format_example_is_the_same_in_both_forms() {
    use docstream_convert::request::{Dialect, convert, detect};
    let Some(blocks) = seed() else { return };
    let block = under(&blocks, "Standard OpenAI/Anthropic Format:");
    let example: Value = serde_json::from_str(&block.body).unwrap();
    // Plain string messages belong to neither form alone: as OpenAI messages they stay
    // as they are; as Anthropic ones the assistant's text becomes a text block.
    assert_eq!(detect(&example), Ok(None));
    assert_eq!(convert(&example, Dialect::OpenAi).unwrap(), example);
    let anthropic = convert(&example, Dialect::Anthropic).unwrap();
    assert_eq!(
        anthropic["messages"][1]["content"],
        json!([{"type": "text", "text": "Hi there!"}])
    );
    assert_eq!(convert(&anthropic, Dialect::OpenAi).unwrap(), example);
    // It is not a Cursor conversation: the store format does not claim it.
    let mut s = DocStream::new(Options {
        format: None,
        ..Options::default()
    });
    s.push(block.body.as_bytes()).unwrap();
    s.finish().unwrap();
    assert_ne!(s.format(), Some(Format::CursorStore));
}
