//! One test per boundary case: where a chunk ends, what a bad line holds, how a stream
//! stops. Each compares the chunked result with the whole one, or checks the error
//! document that bad input gives.

use docstream_testkit as support;

use docstream_core::model::{Conversation, Document, DocumentType, Meta, ResponseStatus, Turn};
use docstream_core::{DocStream, Error, Format, Limits, Options};
use support::{feed, json};

fn cursor_line(kind: &str, text: &str, extra: &str) -> String {
    let text = serde_json::to_string(text).unwrap();
    format!(
        r#"{{"type":"{kind}","message":{{"role":"{kind}","content":[{{"type":"text","text":{text}}}]}}{extra}}}"#
    )
}

fn result_line() -> &'static str {
    r#"{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s"}"#
}

fn docs(c: &Conversation) -> Vec<&Document> {
    c.documents().collect()
}

fn errors(c: &Conversation) -> Vec<(String, String)> {
    c.documents()
        .filter_map(|d| match &d.meta {
            Meta::Error(e) => Some((e.error_code.clone(), d.text().to_owned())),
            _ => None,
        })
        .collect()
}

/// Asserts that every 2-way split of `input` gives the whole input's state.
fn every_split_is_whole(input: &[u8], what: &str) {
    let whole = json(&feed(input, None, &[]));
    for i in 0..=input.len() {
        assert_eq!(
            json(&feed(input, None, &[i])),
            whole,
            "{what}: split at byte {i} of {:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn crlf_split_between_cr_and_lf() {
    let input = format!(
        "{}\r\n{}\r\n{}\r\n",
        cursor_line("user", "Hi", ""),
        cursor_line("assistant", "Hello", ""),
        result_line()
    );
    let cr = input.find('\r').unwrap();
    let whole = feed(input.as_bytes(), None, &[]);
    assert_eq!(json(&feed(input.as_bytes(), None, &[cr + 1])), json(&whole));
    assert_eq!(docs(whole.conversation())[0].text(), "Hello");
    every_split_is_whole(input.as_bytes(), "NDJSON with CRLF");
    let sse = "event: document_start\r\ndata: {\"id\":\"d\",\"type\":\"text\"}\r\n\r\nevent: content_delta\r\ndata: {\"documentId\":\"d\",\"delta\":\"x\"}\r\n\r\nevent: done\r\ndata: {}\r\n\r\n";
    every_split_is_whole(sse.as_bytes(), "SSE with CRLF");
    assert_eq!(
        docs(feed(sse.as_bytes(), None, &[]).conversation())[0].text(),
        "x"
    );
}

#[test]
fn bom_split_anywhere() {
    let mut input = b"\xEF\xBB\xBF".to_vec();
    input.extend_from_slice(
        format!(
            "{}\n{}\n",
            cursor_line("assistant", "Hi", ""),
            result_line()
        )
        .as_bytes(),
    );
    let whole = feed(&input, None, &[]);
    assert_eq!(whole.format(), Some(Format::CursorStreamJson));
    assert!(
        errors(whole.conversation()).is_empty(),
        "{:?}",
        errors(whole.conversation())
    );
    for cuts in [vec![1], vec![2], vec![1, 2], vec![1, 2, 3]] {
        assert_eq!(
            json(&feed(&input, None, &cuts)),
            json(&whole),
            "BOM cut at {cuts:?}"
        );
    }
    let mut sse = b"\xEF\xBB\xBF".to_vec();
    sse.extend_from_slice(b"data: {\"type\":\"done\"}\n\n");
    every_split_is_whole(&sse, "SSE with a BOM");
    assert_eq!(feed(&sse, None, &[]).format(), Some(Format::DocumentSse));
}

#[test]
fn multibyte_character_split() {
    let input = format!(
        "{}\n{}\n",
        cursor_line("assistant", "Grüße 👋 — 中文", ""),
        result_line()
    );
    every_split_is_whole(input.as_bytes(), "multi-byte text");
    let got = feed(input.as_bytes(), None, &[input.find('👋').unwrap() + 2]);
    assert_eq!(docs(got.conversation())[0].text(), "Grüße 👋 — 中文");
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let mut input = br#"{"type":"assistant","text":"a"#.to_vec();
    input.extend_from_slice(b"\xF0\x9F\xFFb\"}\n");
    every_split_is_whole(&input, "invalid UTF-8");
    let got = feed(&input, None, &[]);
    assert_eq!(docs(got.conversation())[0].text(), "a\u{FFFD}\u{FFFD}b");
}

#[test]
fn fence_split_across_deltas_at_every_byte() {
    let text = "See:\n```12:14:src/a.rs\nfn a() {}\n```\nthen\n~~~python\nx = 1\n~~~\n";
    let whole_input = format!(
        "{}\n{}\n",
        cursor_line("assistant", text, r#","timestamp_ms":1"#),
        result_line()
    );
    let documents = |s: &DocStream| serde_json::to_string_pretty(&s.conversation().turns).unwrap();
    let whole = documents(&feed(whole_input.as_bytes(), None, &[]));
    let types: Vec<_> = docs(feed(whole_input.as_bytes(), None, &[]).conversation())
        .iter()
        .map(|d| d.doc_type())
        .collect();
    assert_eq!(
        types,
        [
            DocumentType::Text,
            DocumentType::CodeReference,
            DocumentType::Text,
            DocumentType::CodeBlock
        ]
    );
    for i in 1..text.len() {
        if !text.is_char_boundary(i) {
            continue;
        }
        let input = format!(
            "{}\n{}\n{}\n",
            cursor_line("assistant", &text[..i], r#","timestamp_ms":1"#),
            cursor_line("assistant", &text[i..], r#","timestamp_ms":2"#),
            result_line()
        );
        assert_eq!(
            documents(&feed(input.as_bytes(), None, &[])),
            whole,
            "text split into deltas at {i}: {:?} | {:?}",
            &text[..i],
            &text[i..]
        );
    }
}

#[test]
fn consolidated_assistant_line_is_not_appended_twice() {
    let lines = [
        cursor_line("assistant", "Hello ", r#","timestamp_ms":1"#),
        cursor_line("assistant", "world.", r#","timestamp_ms":2"#),
        cursor_line(
            "assistant",
            "Hello world.",
            r#","model_call_id":"m1","timestamp_ms":3"#,
        ),
        cursor_line("assistant", "Hello world.", ""),
        result_line().to_owned(),
    ];
    let got = feed((lines.join("\n") + "\n").as_bytes(), None, &[]);
    let texts: Vec<_> = docs(got.conversation())
        .iter()
        .map(|d| d.text().to_owned())
        .collect();
    assert_eq!(texts, ["Hello world."]);
    // Without partial output the consolidated lines are the only carrier of the text.
    let lines = [
        cursor_line(
            "assistant",
            "Only this.",
            r#","model_call_id":"m1","timestamp_ms":3"#,
        ),
        result_line().to_owned(),
    ];
    let got = feed((lines.join("\n") + "\n").as_bytes(), None, &[]);
    assert_eq!(docs(got.conversation())[0].text(), "Only this.");
}

#[test]
fn dangling_tool_call_at_finish() {
    let input = format!(
        "{}\n{}\n",
        cursor_line("assistant", "Running.", ""),
        r#"{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"shellToolCall":{"args":{"command":"sleep 100"}}}}"#
    );
    let got = feed(input.as_bytes(), None, &[]);
    let response = got.conversation().responses().next().unwrap();
    assert_eq!(response.status, ResponseStatus::Error);
    let errs = errors(got.conversation());
    assert_eq!(
        errs,
        [(
            "STREAM_CUT_OFF".to_owned(),
            "The response was cut off.".to_owned()
        )]
    );
    let Meta::Error(e) = &docs(got.conversation()).last().unwrap().meta else {
        unreachable!()
    };
    assert!(e.details.contains("c1 (shellToolCall)"), "{}", e.details);
    // Everything received is kept.
    assert_eq!(docs(got.conversation()).len(), 3);
}

#[test]
fn malformed_line_in_the_middle() {
    let input = format!(
        "{}\n{{\"type\": \"assistant\", oops\n{}\n{}\n",
        cursor_line("assistant", "One.", ""),
        cursor_line("assistant", " Two.", ""),
        result_line()
    );
    let got = feed(input.as_bytes(), None, &[]);
    let errs = errors(got.conversation());
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].0, "MALFORMED_JSON");
    assert!(errs[0].1.contains("line 2"), "{}", errs[0].1);
    // The bad line does not cut the prose around it in two (issue 17): its error
    // document follows the text.
    assert_eq!(docs(got.conversation())[0].text(), "One. Two.");
    let Meta::Error(e) = &docs(got.conversation())[1].meta else {
        panic!("error second")
    };
    assert!(
        e.details.contains("key must be a string"),
        "the parser's message is kept: {}",
        e.details
    );
    assert_eq!(
        got.conversation().responses().next().unwrap().status,
        ResponseStatus::Completed
    );
}

#[test]
fn oversized_line_is_refused_and_reading_goes_on() {
    let limits = Limits {
        max_event_bytes: 200,
        ..Limits::default()
    };
    let big = cursor_line("assistant", &"x".repeat(500), "");
    let input = format!(
        "{}\n{big}\n{}\n{}\n",
        cursor_line("assistant", "A", ""),
        cursor_line("assistant", "B", ""),
        result_line()
    );
    for cut in [1, 7, 64, 199, 201] {
        let mut s = DocStream::new(Options {
            limits,
            ..Options::default()
        });
        for chunk in input.as_bytes().chunks(cut) {
            s.push(chunk).unwrap();
        }
        s.finish().unwrap();
        let errs = errors(s.conversation());
        assert_eq!(errs.len(), 1, "chunks of {cut}: {errs:?}");
        assert_eq!(errs[0].0, "EVENT_TOO_LARGE");
        assert!(errs[0].1.contains("line 2"), "{}", errs[0].1);
        let texts: Vec<_> = docs(s.conversation())
            .iter()
            .map(|d| d.text().to_owned())
            .collect();
        // The text goes on around the refused line; the error follows it.
        assert_eq!(texts.first().map(String::as_str), Some("AB"));
        assert_eq!(texts.len(), 2, "{texts:?}");
    }
}

#[test]
fn deep_nesting_is_refused() {
    let deep = format!(
        r#"{{"type":"assistant","x":{}{}}}"#,
        "[".repeat(1000),
        "]".repeat(1000)
    );
    let input = format!(
        "{}\n{deep}\n{}\n{}\n",
        cursor_line("assistant", "A", ""),
        cursor_line("assistant", "B", ""),
        result_line()
    );
    let got = feed(input.as_bytes(), None, &[]);
    let errs = errors(got.conversation());
    assert_eq!(
        errs.iter().map(|e| e.0.as_str()).collect::<Vec<_>>(),
        ["NESTED_TOO_DEEP"]
    );
    // A lower configured limit.
    let limits = Limits {
        max_depth: 4,
        ..Limits::default()
    };
    let mut s = DocStream::new(Options {
        limits,
        ..Options::default()
    });
    s.push(
        format!(
            "{}\n{}\n",
            r#"{"type":"assistant","x":[[[[[1]]]]]}"#,
            result_line()
        )
        .as_bytes(),
    )
    .unwrap();
    s.finish().unwrap();
    assert_eq!(errors(s.conversation())[0].0, "NESTED_TOO_DEEP");
    // A whole JSON value too deep.
    let got = feed(
        format!("{}{}", "[".repeat(500), "]".repeat(500)).as_bytes(),
        Some(Format::ResponseJson),
        &[],
    );
    assert_eq!(errors(got.conversation())[0].0, "NESTED_TOO_DEEP");
}

#[test]
fn unknown_events_are_counted_not_shown() {
    let input = format!(
        "{}\n{{\"type\":\"mystery\",\"x\":1}}\n{}\n",
        cursor_line("assistant", "A", ""),
        result_line()
    );
    let got = feed(input.as_bytes(), None, &[]);
    assert_eq!(got.conversation().stats.unknown_events, 1);
    assert!(errors(got.conversation()).is_empty());
}

#[test]
fn unknown_input_gets_an_error_document() {
    let got = feed(b"hello, this is not a stream", None, &[]);
    assert_eq!(errors(got.conversation())[0].0, "UNKNOWN_FORMAT");
    assert!(
        feed(b"", None, &[]).conversation().turns.is_empty(),
        "empty input is an empty conversation"
    );
}

#[test]
fn push_after_finish_is_an_error() {
    let mut s = DocStream::new(Options::default());
    s.finish().unwrap();
    assert_eq!(s.push(b"{}").unwrap_err(), Error::Finished);
    assert_eq!(s.finish().unwrap_err().code(), "DS_FINISHED");
}

#[test]
fn format_names_parse() {
    for name in Format::NAMES {
        assert_eq!(Format::parse(name).unwrap().unwrap().name(), *name);
    }
    assert_eq!(Format::parse("auto").unwrap(), None);
    assert_eq!(
        Format::parse("nope").unwrap_err().code(),
        "DS_UNKNOWN_FORMAT"
    );
}

/// No input makes the code panic: random bytes, and fixtures with bytes flipped.
#[test]
fn arbitrary_bytes_never_panic() {
    let inputs: Vec<Vec<u8>> = support::fixtures()
        .into_iter()
        .map(|(_, path)| std::fs::read(path).unwrap())
        .collect();
    for seed in support::seeds() {
        let mut rng = support::Rng::new(seed);
        for input in &inputs {
            for _ in 0..20 {
                let mut bytes = input.clone();
                for _ in 0..1 + rng.below(8) {
                    let i = rng.below(bytes.len());
                    let pool = b"{}[]\":,\n\r\\ax\xff";
                    bytes[i] = pool[rng.below(pool.len())];
                }
                let cuts = support::random_cuts(bytes.len(), seed, 16);
                for format in [
                    None,
                    Some(Format::ResponseJson),
                    Some(Format::DocumentSse),
                    Some(Format::CursorStreamJson),
                ] {
                    let _ = feed(&bytes, format, &cuts);
                }
            }
        }
        let noise: Vec<u8> = (0..4096).map(|_| rng.below(256) as u8).collect();
        let _ = feed(&noise, None, &[]);
    }
}

#[test]
fn user_turns_and_responses_alternate() {
    let input = format!(
        "{}\n{}\n{}\n{}\n{}\n{}\n",
        cursor_line("user", "First", ""),
        cursor_line("assistant", "One", ""),
        result_line(),
        cursor_line("user", "Second", ""),
        cursor_line("assistant", "Two", ""),
        result_line()
    );
    let got = feed(input.as_bytes(), None, &[]);
    let roles: Vec<_> = got
        .conversation()
        .turns
        .iter()
        .map(|t| matches!(t, Turn::User(_)))
        .collect();
    assert_eq!(roles, [true, false, true, false]);
}
