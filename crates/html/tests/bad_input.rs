//! Issue 17's eight bad inputs, each a named regression test fed whole, one byte at a
//! time and in seeded random chunks (`DOCSTREAM_SEED=N` replays one seed): every
//! chunking must give the same conversation, and that conversation must lose nothing.

use docstream_testkit as support;

use docstream_core::model::{
    Conversation, Document, DocumentType, Meta, ResponseStatus, TodoStatus,
};
use docstream_core::{DocStream, Format, Limits, Options};
use docstream_html::{RenderOptions, render_conversation};
use support::chunkings;

/// Feeds `input` in every chunking with these options; asserts all give the same
/// conversation and returns it.
fn every_chunking(input: &[u8], options: Options, what: &str) -> Conversation {
    let mut whole: Option<(String, Conversation)> = None;
    for (name, cuts) in chunkings(input.len()) {
        let mut stream = DocStream::new(options);
        let mut from = 0;
        for &to in &cuts {
            stream.push(&input[from..to]).unwrap();
            from = to;
        }
        stream.push(&input[from..]).unwrap();
        stream.finish().unwrap();
        let json = serde_json::to_string_pretty(stream.conversation()).unwrap();
        match &whole {
            None => whole = Some((json, stream.into_conversation())),
            Some((expected, _)) => assert_eq!(
                &json, expected,
                "{what}: chunking {name} differs from the whole input"
            ),
        }
    }
    whole.unwrap().1
}

fn auto() -> Options {
    Options::default()
}

fn cursor_line(kind: &str, text: &str) -> String {
    let text = serde_json::to_string(text).unwrap();
    format!(
        r#"{{"type":"{kind}","message":{{"role":"{kind}","content":[{{"type":"text","text":{text}}}]}},"session_id":"s"}}"#
    )
}

const RESULT: &str =
    r#"{"type":"result","subtype":"success","is_error":false,"result":"","session_id":"s"}"#;

/// A small Cursor stream: a prompt, an answer in two deltas, the result.
fn cursor_stream() -> String {
    [
        cursor_line("user", "Hi"),
        cursor_line("assistant", "Hello "),
        cursor_line("assistant", "there."),
        RESULT.to_owned(),
    ]
    .join("\n")
        + "\n"
}

fn docs(c: &Conversation) -> Vec<&Document> {
    c.documents().collect()
}

/// The documents without ids (so that two conversations can be compared by content).
fn contents(c: &Conversation) -> Vec<(DocumentType, String)> {
    c.documents()
        .map(|d| (d.doc_type(), d.text().to_owned()))
        .collect()
}

fn error_codes(c: &Conversation) -> Vec<String> {
    c.documents()
        .filter_map(|d| match &d.meta {
            Meta::Error(e) => Some(e.error_code.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn leading_noise_lines_are_skipped_counted_and_reported() {
    let clean = every_chunking(cursor_stream().as_bytes(), auto(), "clean");
    for noise in [
        "Warning: proxy configured\n",
        "Warning: proxy configured\r\nLast login: Mon Nov 23 on ttys001\n\n",
        "not json at all\n{oops: not JSON either}\n",
    ] {
        let input = format!("{noise}{}", cursor_stream());
        let got = every_chunking(input.as_bytes(), auto(), noise);
        assert_eq!(
            got.format.as_deref(),
            Some("cursor-stream-json"),
            "{noise:?}"
        );
        assert_eq!(contents(&got), contents(&clean), "{noise:?}: nothing lost");
        let lines = noise.lines().filter(|l| !l.trim().is_empty()).count() as u64;
        assert_eq!(got.stats.skipped_lines, lines, "{noise:?}");
        let p = &got.problems[0];
        assert_eq!(p.code, "SKIPPED_LINES", "{noise:?}");
        assert_eq!(p.line, Some(1), "{noise:?}");
        assert!(
            p.message.contains("Warning") || p.message.contains("not json"),
            "{p:?}"
        );
        assert!(error_codes(&got).is_empty(), "{:?}", error_codes(&got));
    }
    // The same before an SSE stream.
    let sse = "event: document_start\ndata: {\"id\":\"d\",\"type\":\"text\"}\n\nevent: content_delta\ndata: {\"documentId\":\"d\",\"delta\":\"x\"}\n\nevent: done\ndata: {}\n\n";
    let input = format!("Warning: proxy configured\n{sse}");
    let got = every_chunking(input.as_bytes(), auto(), "SSE after noise");
    assert_eq!(got.format.as_deref(), Some("document-sse"));
    assert_eq!(docs(&got)[0].text(), "x");
    assert_eq!(got.stats.skipped_lines, 1);
    // Noise alone is still no format.
    let got = every_chunking(b"Warning: proxy configured\nhello\n", auto(), "noise only");
    assert_eq!(got.format, None);
    assert_eq!(error_codes(&got), ["UNKNOWN_FORMAT"]);
}

#[test]
fn bom_broken_bom_and_leading_whitespace_detect_the_same_for_every_split() {
    let clean = every_chunking(cursor_stream().as_bytes(), auto(), "clean");
    for prefix in [
        &b"\xEF\xBB\xBF"[..],
        b"\xEF",
        b"\xEF\xBB",
        b"\xBB\xBF",
        b"  \n\t\r\n",
        b"\xEF\xBB\xBF \n",
        b"\xEF \n",
    ] {
        let mut input = prefix.to_vec();
        input.extend_from_slice(cursor_stream().as_bytes());
        let what = format!("prefix {prefix:?}");
        let got = every_chunking(&input, auto(), &what);
        assert_eq!(got.format.as_deref(), Some("cursor-stream-json"), "{what}");
        assert_eq!(contents(&got), contents(&clean), "{what}");
        let broken = matches!(prefix, b"\xEF" | b"\xEF\xBB" | b"\xBB\xBF" | b"\xEF \n");
        assert_eq!(
            got.stats.invalid_utf8 > 0 || got.stats.skipped_lines > 0,
            broken,
            "{what}: a broken BOM is reported, a BOM or whitespace is not: {:?}",
            got.problems
        );
    }
}

#[test]
fn an_oversized_sse_event_is_reported_at_the_same_line_for_every_chunking() {
    let big = "y".repeat(200);
    let input = format!(
        "event: document_start\ndata: {{\"id\":\"d\",\"type\":\"text\"}}\n\nevent: content_delta\ndata: {{\"documentId\":\"d\",\"delta\":\"{big}\"}}\n\nevent: content_delta\ndata: {{\"documentId\":\"d\",\"delta\":\"ok\"}}\n\nevent: done\ndata: {{}}\n\n"
    );
    let options = Options {
        format: None,
        limits: Limits {
            max_event_bytes: 100,
            ..Limits::default()
        },
    };
    let got = every_chunking(input.as_bytes(), options, "oversized SSE event");
    let err = docs(&got)
        .into_iter()
        .find(|d| matches!(&d.meta, Meta::Error(e) if e.error_code == "EVENT_TOO_LARGE"))
        .expect("an error document");
    // The oversized `data` line is line 5.
    assert!(err.text().contains("line 5"), "{}", err.text());
    assert_eq!(docs(&got)[0].text(), "ok");
    // The same for a data line that is not over the limit alone but makes the event so.
    let half = "z".repeat(60);
    let input = format!(
        "event: document_start\ndata: {{\"id\":\"d\",\"type\":\"text\"}}\n\nevent: content_delta\ndata: {half}\ndata: {half}\n\nevent: done\ndata: {{}}\n\n"
    );
    let got = every_chunking(
        input.as_bytes(),
        options,
        "event over the limit by its lines",
    );
    let err = docs(&got)
        .into_iter()
        .find(|d| matches!(&d.meta, Meta::Error(e) if e.error_code == "EVENT_TOO_LARGE"))
        .expect("an error document");
    assert!(err.text().contains("line 6"), "{}", err.text());
}

#[test]
fn a_malformed_line_inside_a_streamed_fence_leaves_the_fence_open() {
    let input = [
        cursor_line("user", "Show me"),
        cursor_line("assistant", "Here:\n\n```rust\nfn a() {\n"),
        r#"{"type":"assistant", oops"#.to_owned(),
        cursor_line("assistant", "    b();\n}\n```\n\nAfter the code, prose."),
        RESULT.to_owned(),
    ]
    .join("\n")
        + "\n";
    let got = every_chunking(input.as_bytes(), auto(), "malformed line in a fence");
    let clean: String = input
        .lines()
        .filter(|l| !l.contains("oops"))
        .map(|l| format!("{l}\n"))
        .collect();
    let clean = every_chunking(clean.as_bytes(), auto(), "the same without it");
    let kinds = contents(&got);
    assert_eq!(
        kinds[..kinds.len() - 1],
        contents(&clean)[..],
        "the bad line changes nothing else"
    );
    assert_eq!(
        kinds[1],
        (DocumentType::CodeBlock, "fn a() {\n    b();\n}".to_owned())
    );
    assert_eq!(kinds[2].0, DocumentType::Text);
    assert_eq!(kinds[2].1.trim(), "After the code, prose.");
    assert_eq!(
        kinds[3].0,
        DocumentType::Error,
        "the error is kept: {kinds:?}"
    );
    assert_eq!(error_codes(&got), ["MALFORMED_JSON"]);
    assert_eq!(got.stats.bad_events, 1);
    let html = render_conversation(&got, &RenderOptions::default());
    assert!(!html.contains("<code>After"), "prose stays prose: {html}");
}

#[test]
fn a_malformed_line_after_the_result_makes_no_phantom_turn() {
    let input = format!("{}{{\"type\":\"assistant\", oops\n", cursor_stream());
    let got = every_chunking(input.as_bytes(), auto(), "malformed line after result");
    assert_eq!(got.responses().count(), 1, "{:#?}", got.turns);
    let r = got.responses().next().unwrap();
    assert_eq!(r.status, ResponseStatus::Completed);
    assert_eq!(
        error_codes(&got),
        ["MALFORMED_JSON"],
        "reported, not cut off"
    );
    assert_eq!(docs(&got)[0].text(), "Hello there.");
}

#[test]
fn a_saved_response_with_unknown_values_keeps_them_and_loads_the_rest() {
    let input = r#"{"id":"chat_1","status":"completed","documents":[
  {"id":"d1","type":"text","sequence":1,"content":"Before.","metadata":{"format":"markdown"}},
  {"id":"d2","type":"plan","sequence":2,"content":"","metadata":{"title":"P","overview":"","todos":[
    {"id":"a","content":"Build","status":"blocked","dependencies":[]},
    {"id":"b","content":"Ship","status":"completed","dependencies":["a"]}],"format":"markdown"}},
  {"id":"d3","type":"todo_update","sequence":3,"content":null,"metadata":{"todos":[{"id":"b","status":"awaiting_review"}]}},
  {"id":"d4","type":"diagram","sequence":4,"content":"graph TD; a-->b","metadata":{"kind":"mermaid"}},
  {"id":"d5","type":"text","sequence":5,"content":"After.","metadata":{"format":"markdown"}}
]}"#;
    let got = every_chunking(input.as_bytes(), auto(), "unknown values");
    assert_eq!(got.format.as_deref(), Some("response-json"));
    assert!(error_codes(&got).is_empty(), "{:?}", got);
    let d = docs(&got);
    assert_eq!(d.len(), 5);
    assert_eq!(d[0].text(), "Before.");
    assert_eq!(d[4].text(), "After.");
    let Meta::Plan(plan) = &d[1].meta else {
        panic!("a plan: {:?}", d[1])
    };
    assert_eq!(plan.todos[0].status, TodoStatus::Unknown);
    let Meta::TodoUpdate(update) = &d[2].meta else {
        panic!("a todo update: {:?}", d[2])
    };
    assert_eq!(update.todos[0].status, TodoStatus::Unknown);
    // The unknown document type is kept as a generic document with its content and
    // metadata, and written back under its own type.
    let Meta::ToolCall(generic) = &d[3].meta else {
        panic!("a generic document: {:?}", d[3])
    };
    assert_eq!(generic.document_type.as_deref(), Some("diagram"));
    assert_eq!(generic.arguments["kind"], "mermaid");
    assert_eq!(d[3].text(), "graph TD; a-->b");
    let json = serde_json::to_value(&got).unwrap();
    assert_eq!(json["turns"][0]["documents"][3]["type"], "diagram");
    assert_eq!(
        json["turns"][0]["documents"][3]["metadata"]["kind"],
        "mermaid"
    );
    assert_eq!(
        json["turns"][0]["documents"][1]["metadata"]["todos"][0]["status"],
        "unknown"
    );
    assert_eq!(got.stats.unknown_values, 3);
    assert!(
        got.problems.iter().any(|p| p.code == "UNKNOWN_VALUE"
            && p.message.contains("blocked")
            && p.message.contains("diagram")),
        "{:?}",
        got.problems
    );
    let html = render_conversation(&got, &RenderOptions::default());
    assert!(html.contains("graph TD; a--&gt;b"), "{html}");
}

#[test]
fn pathological_markdown_html_stays_under_ten_times_its_size() {
    let Some(path) = support::shared("corpora/pathological-markdown.json") else {
        support::skip("pathological-markdown.json");
        return;
    };
    let corpus: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    for id in [
        "nested-block-quotes",
        "emph-in-deep-blockquote",
        "marked-many-refs",
    ] {
        let case = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id} is in the corpus"));
        let md = support::expand(case["expand"].as_array().unwrap());
        let input = serde_json::json!({"documents": [
            {"id": "d", "type": "text", "sequence": 1, "content": md, "metadata": {"format": "markdown"}}
        ]})
        .to_string();
        let got = every_chunking(input.as_bytes(), auto(), id);
        let html = render_conversation(&got, &RenderOptions::default());
        assert!(
            html.len() <= 10 * md.len(),
            "{id}: {} bytes of HTML from {} bytes of Markdown",
            html.len(),
            md.len()
        );
    }
}

#[test]
fn invalid_utf8_is_counted_and_reported_where_it_is() {
    let mut input = format!("{}\n", cursor_line("user", "Hi")).into_bytes();
    input.extend_from_slice(
        br#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"a"#,
    );
    input.extend_from_slice(b"\xF0\x9F\xFFb\"}]},\"session_id\":\"s\"}\n");
    input.extend_from_slice(format!("{RESULT}\n").as_bytes());
    let got = every_chunking(&input, auto(), "invalid UTF-8 in NDJSON");
    assert_eq!(docs(&got)[0].text(), "a\u{FFFD}\u{FFFD}b", "kept, replaced");
    assert_eq!(got.stats.invalid_utf8, 2);
    let p = got
        .problems
        .iter()
        .find(|p| p.code == "INVALID_UTF8")
        .expect("reported");
    assert_eq!(p.line, Some(2));
    let line2 = input.iter().position(|&b| b == b'\n').unwrap() as u64 + 1;
    let bad = input.iter().position(|&b| b == 0xF0).unwrap() as u64;
    assert_eq!(p.offset, Some(bad), "line 2 starts at {line2}");
    assert!(p.message.contains("line 2"), "{p:?}");
    // In SSE, the line of the event's data.
    let mut sse = b"event: document_start\ndata: {\"id\":\"d\",\"type\":\"text\"}\n\nevent: content_delta\ndata: {\"documentId\":\"d\",\"delta\":\"x".to_vec();
    sse.extend_from_slice(b"\xC3(\"}\n\nevent: done\ndata: {}\n\n");
    let got = every_chunking(&sse, auto(), "invalid UTF-8 in SSE");
    assert_eq!(docs(&got)[0].text(), "x\u{FFFD}(");
    assert_eq!(got.stats.invalid_utf8, 1);
    let p = &got.problems[0];
    assert_eq!(
        (p.code.as_str(), p.line),
        ("INVALID_UTF8", Some(5)),
        "{p:?}"
    );
    // With the format named, the same.
    let named = Options {
        format: Some(Format::CursorStreamJson),
        ..Options::default()
    };
    assert_eq!(
        every_chunking(&input, named, "named format")
            .stats
            .invalid_utf8,
        2
    );
}

/// Line numbers a stream gives are numbers like any other: the largest there is, as the
/// first line of quoted code, of an edit and of a file read, renders (numbers stop
/// at the largest rather than overflow), streamed in 16-byte chunks and at once.
#[test]
fn the_largest_line_number_renders_without_overflow() {
    let max = u64::MAX;
    let events = [
        ("document_start", format!(r#"{{"id":"d1","type":"code_reference","sequence":1,"metadata":{{"filePath":"a.py","startLine":{max},"endLine":{max},"language":"python"}}}}"#)),
        ("content_delta", r#"{"documentId":"d1","delta":"a = 1\nb = 2\nc = 3\n"}"#.to_owned()),
        ("document_end", r#"{"documentId":"d1"}"#.to_owned()),
        ("document_start", r#"{"id":"d2","type":"file_edit","sequence":2}"#.to_owned()),
        ("tool_call_start", r#"{"documentId":"d2","toolName":"edit_file","toolCallId":"c2"}"#.to_owned()),
        ("tool_call_arguments", r#"{"documentId":"d2","arguments":{"path":"a.py","old_string":"a\nb\n","new_string":"a\nc\n"}}"#.to_owned()),
        ("tool_result", format!(r#"{{"documentId":"d2","result":{{"status":"success","data":{{"startLine":{max}}}}}}}"#)),
        ("document_end", r#"{"documentId":"d2"}"#.to_owned()),
        ("document_start", r#"{"id":"d3","type":"tool_call","sequence":3}"#.to_owned()),
        ("tool_call_start", r#"{"documentId":"d3","toolName":"read_file","toolCallId":"c3"}"#.to_owned()),
        ("tool_call_arguments", format!(r#"{{"documentId":"d3","arguments":{{"path":"a.py","offset":{max}}}}}"#)),
        ("tool_result", r#"{"documentId":"d3","result":{"status":"success","data":"x\ny\nz\n"}}"#.to_owned()),
        ("document_end", r#"{"documentId":"d3"}"#.to_owned()),
        ("done", "{}".to_owned()),
    ];
    let sse: String = events
        .iter()
        .map(|(kind, data)| format!("event: {kind}\ndata: {data}\n\n"))
        .collect();
    let whole = support::feed(sse.as_bytes(), Some(Format::DocumentSse), &[]);
    let c = whole.conversation();
    assert_eq!(error_codes(c), Vec::<String>::new(), "{c:#?}");
    let html = render_conversation(c, &RenderOptions::default());
    assert!(html.contains(&max.to_string()), "{html}");
    let mut s = DocStream::new(Options {
        format: Some(Format::DocumentSse),
        ..Options::default()
    });
    let mut view = docstream_html::HtmlView::new(RenderOptions::default());
    for chunk in sse.as_bytes().chunks(16) {
        s.push(chunk).unwrap();
        let changes = s.take_changes();
        view.update(s.conversation(), &changes);
    }
    s.finish().unwrap();
}

/// Token counts at the largest number there is add up without overflow (the total is
/// the largest number), in the formats that sum them.
#[test]
fn the_largest_token_counts_add_up_without_overflow() {
    let max = u64::MAX;
    let cursor = format!(
        "{}\n{{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ok\",\"usage\":{{\"inputTokens\":{max},\"outputTokens\":{max}}}}}\n",
        cursor_line("assistant", "hi")
    );
    let gemini = format!(
        "data: {{\"candidates\":[{{\"content\":{{\"role\":\"model\",\"parts\":[{{\"text\":\"hi\"}}]}},\"index\":0,\"finishReason\":\"STOP\"}}],\"usageMetadata\":{{\"promptTokenCount\":{max},\"candidatesTokenCount\":{max},\"thoughtsTokenCount\":{max}}}}}\n\n"
    );
    for (format, input) in [
        (Format::CursorStreamJson, cursor),
        (Format::GeminiStream, gemini),
    ] {
        let s = support::feed(input.as_bytes(), Some(format), &[]);
        let c = s.conversation();
        let usage = c
            .turns
            .iter()
            .find_map(|t| match t {
                docstream_core::model::Turn::Assistant(r) => r.usage.clone(),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{format}: no usage in {c:#?}"));
        assert_eq!(usage.total_tokens, max, "{format}");
        render_conversation(c, &RenderOptions::default());
    }
}

/// Every number outside a string in `input` replaced by `to`.
fn numbers_replaced(input: &[u8], to: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if in_string {
            (in_string, escaped) = (escaped || b != b'"', !escaped && b == b'\\');
        } else if b == b'"' {
            in_string = true;
        } else if b.is_ascii_digit()
            || (b == b'-' && input.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let end = input[i + 1..]
                .iter()
                .position(|c| !matches!(c, b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-'))
                .map_or(input.len(), |n| i + 1 + n);
            out.extend_from_slice(to.as_bytes());
            i = end;
            continue;
        }
        out.push(b);
        i += 1;
    }
    out
}

/// Every fixture with all its numbers at an extreme (the largest and smallest integers
/// JSON readers keep, a huge float, -1, 0) reads and renders without a panic, at once
/// and patched after every 64-byte chunk: no arithmetic on a number from the stream
/// overflows (the test run's debug build checks every addition).
#[test]
fn every_fixture_with_extreme_numbers_reads_and_renders() {
    for (format, path) in support::fixtures() {
        let input = std::fs::read(&path).unwrap();
        for to in [
            "18446744073709551615",
            "-9223372036854775808",
            "1e308",
            "-1",
            "0",
        ] {
            let mutated = numbers_replaced(&input, to);
            let s = support::feed(&mutated, Some(format), &[]);
            render_conversation(s.conversation(), &RenderOptions::default());
            let mut s = DocStream::new(Options {
                format: Some(format),
                ..Options::default()
            });
            let mut view = docstream_html::HtmlView::new(RenderOptions::default());
            for chunk in mutated.chunks(64) {
                s.push(chunk).unwrap();
                let changes = s.take_changes();
                view.update(s.conversation(), &changes);
            }
            s.finish().unwrap();
            let changes = s.take_changes();
            view.update(s.conversation(), &changes);
        }
    }
}

/// The page a stream's patches build when fed in `chunk`-byte pieces.
fn patched_page(input: &[u8], chunk: usize) -> String {
    let mut s = DocStream::new(auto());
    let mut view = docstream_html::HtmlView::new(RenderOptions::default());
    let mut page = docstream_html::patch::PageModel::new();
    let mut apply = |s: &mut DocStream| {
        let changes = s.take_changes();
        for p in view.update(s.conversation(), &changes) {
            page.apply(&p);
        }
    };
    for piece in input.chunks(chunk) {
        s.push(piece).unwrap();
        apply(&mut s);
    }
    s.finish().unwrap();
    apply(&mut s);
    let mut html = String::new();
    page.write_html(|piece| html.push_str(piece));
    html
}

/// Issue 34: a run of malformed lines is one error document that counts them and names
/// the first lines, so no output outgrows its input tenfold; the prose around the run is
/// kept, and every chunking gives the same conversation and the same page.
#[test]
fn a_run_of_bad_lines_is_one_error_document() {
    let mut input = cursor_line("user", "Hi") + "\n";
    input.push_str(&"{\n".repeat(2_000));
    input += &(cursor_line("assistant", "Still here.") + "\n");
    input.push_str(&"not json\n".repeat(3));
    input += &(RESULT.to_owned() + "\n");
    let c = every_chunking(input.as_bytes(), auto(), "two runs of bad lines");
    assert_eq!(c.stats.bad_events, 2_003, "every bad line is counted");
    let errors: Vec<(String, String)> = c
        .documents()
        .filter_map(|d| match &d.meta {
            Meta::Error(e) => Some((e.error_code.clone(), d.text().to_owned())),
            _ => None,
        })
        .collect();
    assert_eq!(
        errors,
        [
            (
                "MALFORMED_JSON".to_owned(),
                "2000 lines were not valid JSON (lines 2, 3, 4, 5, 6 …).".to_owned()
            ),
            (
                "MALFORMED_JSON".to_owned(),
                "3 lines were not valid JSON (lines 2003, 2004, 2005).".to_owned()
            ),
        ],
        "{:?}",
        &errors[..errors.len().min(3)]
    );
    assert!(contents(&c).contains(&(DocumentType::Text, "Still here.".to_owned())));
    let whole = render_conversation(&c, &RenderOptions::default());
    for chunk in [1, 7, 64] {
        assert_eq!(
            patched_page(input.as_bytes(), chunk),
            whole,
            "chunk {chunk}"
        );
    }
}

/// Issue 34: 1 MB of malformed lines made 199 MB of HTML and 193 MB of JSON; every
/// output stays within ten times its input.
#[test]
fn output_stays_within_ten_times_the_input() {
    let init = r#"{"type":"system","subtype":"init","session_id":"s","model":"m"}"#;
    for bad in ["{", "x", "[1,", "{\"type\":\"assistant\",\"message\":{bad"] {
        let mut input = init.to_owned() + "\n";
        while input.len() < 200_000 {
            input.push_str(bad);
            input.push('\n');
        }
        let c = support::feed(input.as_bytes(), None, &[]).into_conversation();
        let html = render_conversation(&c, &RenderOptions::default());
        let json = serde_json::to_string_pretty(&c).unwrap();
        let text = docstream_html::progress::progress_lines(&c, docstream_html::labels::Locale::En);
        for (what, len) in [
            ("html", html.len()),
            ("json", json.len()),
            ("text", text.len()),
        ] {
            assert!(
                len <= 10 * input.len(),
                "{bad:?} lines: {what} is {len} bytes for {} bytes of input",
                input.len()
            );
        }
    }
}

/// Issue 34: a saved response whose status docstream does not know, or whose numbers
/// came as strings, kept nothing; now every document is kept and each such value is
/// counted as unknown (a number written as a string is read as that number).
#[test]
fn a_saved_response_with_an_unknown_status_or_numbers_as_strings_keeps_every_document() {
    let input = r#"{"id":"chat_1","status":"paused","model":"m","usage":{"promptTokens":"120","completionTokens":7},
"documents":[
  {"id":"d1","type":"text","sequence":"1","content":"Before.","metadata":{"format":"rich"}},
  {"id":"d2","type":"code_reference","sequence":2,"content":"fn a() {}","metadata":{"filePath":"a.rs","startLine":"12","endLine":"twelve","language":"rust"}},
  {"id":"d3","type":"terminal_command","sequence":3,"content":"ok","metadata":{"command":"ls","exitCode":"0","duration_ms":"5","status":"cancelled"}},
  {"id":"d4","type":"file_edit","sequence":4,"content":null,"metadata":{"filePath":"b.rs","operation":"truncate","linesAdded":"3"}},
  {"id":"d5","type":"text","sequence":5,"content":"After.","metadata":{"format":"markdown"}}
]}"#;
    let got = every_chunking(
        input.as_bytes(),
        auto(),
        "unknown status, numbers as strings",
    );
    assert_eq!(got.format.as_deref(), Some("response-json"));
    assert!(error_codes(&got).is_empty(), "{:?}", error_codes(&got));
    let d = docs(&got);
    assert_eq!(d.len(), 5, "{d:#?}");
    assert_eq!((d[0].text(), d[4].text()), ("Before.", "After."));
    let Meta::CodeReference(code) = &d[1].meta else {
        panic!("a code reference: {:?}", d[1])
    };
    assert_eq!((code.start_line, code.end_line), (12, 0));
    let Meta::TerminalCommand(run) = &d[2].meta else {
        panic!("a terminal run: {:?}", d[2])
    };
    assert_eq!((run.exit_code, run.duration_ms), (Some(0), Some(5)));
    let usage = got
        .turns
        .iter()
        .find_map(|t| match t {
            docstream_core::model::Turn::Assistant(r) => r.usage.clone(),
            _ => None,
        })
        .unwrap();
    assert_eq!(usage.prompt_tokens, 120);
    // status, sequence, format, startLine, endLine, exitCode, durationMs, the call's
    // status, operation, linesAdded, promptTokens.
    assert_eq!(got.stats.unknown_values, 11, "{:?}", got.problems);
    render_conversation(&got, &RenderOptions::default());
}
