//! Work counters (deterministic, not timings): streaming costs a small constant times
//! what rendering the same input at once costs. For every fixture split at 1 and 16
//! bytes, every pathological Markdown input of `../shared/corpora` streamed in 16-byte
//! deltas (and 1-byte deltas for its first 8 KB), a long answer, a 2,000-row table and a
//! long code block: the HTML rendered, the Markdown handed to pulldown-cmark, the text
//! read by the preview and the bytes in patches stay within bounds that a renderer
//! doing work proportional to the whole document on every change would break; and no
//! document is replaced whole once blocks of it were finished.

use docstream_testkit as support;

use std::collections::HashSet;

use docstream_core::{DocStream, Format, Options};
use docstream_html::parts::Part;
use docstream_html::patch::{PageModel, Patch, PatchWriter, decode};
use docstream_html::{HtmlView, RenderOptions, Work, render_conversation};

/// What streaming `chunks` cost, and what it gave.
struct Run {
    work: Work,
    patch_bytes: u64,
    html: String,
    /// The first document (turn, index) replaced whole after blocks of it were finished.
    rerendered: Option<(usize, usize)>,
}

/// Pushes each chunk and pulls the patches after it, applying them to a page.
fn stream(format: Option<Format>, chunks: &[&[u8]]) -> Run {
    let mut s = DocStream::new(Options {
        format,
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut w = PatchWriter::new();
    let mut page = PageModel::new();
    let mut finished_blocks = HashSet::new();
    let mut rerendered = None;
    let mut pull = |s: &mut DocStream, w: &mut PatchWriter, page: &mut PageModel| {
        view.update_into(s.conversation(), s.changes(), w);
        s.clear_changes();
        page.apply_wire(w.as_str()).unwrap();
        for patch in decode(w.as_str()).unwrap() {
            match patch {
                Patch::AppendPart {
                    turn,
                    index,
                    part: Part::Blocks,
                    ..
                } => {
                    finished_blocks.insert((turn, index));
                }
                Patch::ReplaceDocument { turn, index, .. }
                    if finished_blocks.contains(&(turn, index)) =>
                {
                    rerendered.get_or_insert((turn, index));
                }
                _ => {}
            }
        }
        w.clear();
    };
    for c in chunks {
        s.push(c).unwrap();
        pull(&mut s, &mut w, &mut page);
    }
    s.finish().unwrap();
    pull(&mut s, &mut w, &mut page);
    let html = page.html();
    assert_eq!(
        html,
        render_conversation(s.conversation(), &RenderOptions::default()),
        "the patched page is the one-shot rendering"
    );
    Run {
        work: view.work(),
        patch_bytes: w.payload_bytes(),
        html,
        rerendered,
    }
}

/// Checks a streamed run against the one-shot run of the same input.
fn check(name: &str, input_len: usize, streamed: &Run, one_shot: &Run) {
    assert_eq!(
        streamed.rerendered, None,
        "{name}: a document (turn, index) was replaced whole after blocks of it were finished"
    );
    let (s, o) = (streamed.work, one_shot.work);
    let input = input_len as u64;
    let html = one_shot.html.len() as u64;
    let bounds = [
        ("markdown", s.markdown, 2 * o.markdown + 1024),
        ("rendered", s.rendered, 3 * o.rendered + 2 * input + 4096),
        ("previewed", s.previewed, 2 * input + 1024),
        (
            "patch bytes",
            streamed.patch_bytes,
            3 * html + 2 * input + 4096,
        ),
    ];
    for (what, got, limit) in bounds {
        assert!(
            got <= limit,
            "{name}: {what} {got} over {limit} (input {input} bytes, one-shot {o:?}, streamed {s:?})"
        );
    }
}

/// Cursor stream-json assistant lines, one per `size`-byte delta of `text`.
fn deltas(text: &str, size: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = size.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let line = serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":&rest[..end]}]},"timestamp_ms":1});
        out.push(format!("{line}\n").into_bytes());
        rest = &rest[end..];
    }
    out.push(b"{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false}\n".to_vec());
    out
}

fn markdown_case(name: &str, text: &str, size: usize) {
    let lines = deltas(text, size);
    let chunks: Vec<&[u8]> = lines.iter().map(Vec::as_slice).collect();
    let whole: Vec<u8> = lines.concat();
    let streamed = stream(Some(Format::CursorStreamJson), &chunks);
    let one_shot = stream(Some(Format::CursorStreamJson), &[&whole]);
    assert_eq!(streamed.html, one_shot.html, "{name}");
    check(name, text.len(), &streamed, &one_shot);
}

#[test]
fn every_fixture_at_1_and_16_bytes() {
    let root =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let Ok(Some(format)) = Format::parse(dir.file_name().unwrap().to_str().unwrap()) else {
            continue;
        };
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            // Goldens, and the README that says where the fixtures come from.
            if file.to_str().unwrap().contains(".expected.")
                || file.file_name().is_some_and(|n| n == "README.md")
            {
                continue;
            }
            let input = std::fs::read(&file).unwrap();
            let one_shot = stream(Some(format), &[&input]);
            for size in [1, 16] {
                let chunks: Vec<&[u8]> = input.chunks(size).collect();
                let streamed = stream(Some(format), &chunks);
                check(
                    &format!("{} in {size}-byte chunks", file.display()),
                    input.len(),
                    &streamed,
                    &one_shot,
                );
            }
        }
    }
}

#[test]
fn pathological_markdown_streamed_in_small_deltas() {
    let Some(path) = support::shared("corpora/pathological-markdown.json") else {
        support::skip("pathological-markdown.json");
        return;
    };
    let corpus: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 50, "the corpus shrank: {}", cases.len());
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let text = support::expand(case["expand"].as_array().unwrap());
        markdown_case(&format!("{id} in 16-byte deltas"), &text, 16);
        let mut head = text.len().min(8 * 1024);
        while !text.is_char_boundary(head) {
            head -= 1;
        }
        markdown_case(
            &format!("{id} (first 8 KB) in 1-byte deltas"),
            &text[..head],
            1,
        );
    }
}

#[test]
fn long_answers_tables_and_code_stream_in_linear_work() {
    let mut prose = String::new();
    for i in 0..400 {
        prose.push_str(&format!(
            "Paragraph {i} says something *useful* about `code` and links to https://x.y/{i}.\nA second line.\n\n- a list item {i}\n- another\n\n"
        ));
    }
    markdown_case("400 paragraphs and lists", &prose, 16);
    let mut table = String::from("| n | square | note |\n|---|---:|:---|\n");
    for i in 0..2000 {
        table.push_str(&format!("| {i} | {} | **row** {i} |\n", i * i));
    }
    markdown_case("a 2,000-row table", &table, 16);
    let mut code = String::from("Here it is:\n\n```rust\n");
    for i in 0..3000 {
        code.push_str(&format!(
            "    let value_{i} = compute({i}) + 1; // line {i}\n"
        ));
    }
    code.push_str("```\n\nDone.\n");
    markdown_case("a 3,000-line code block", &code, 16);
    let one_line = "word ".repeat(40_000);
    markdown_case("one 200 KB line", &one_line, 16);
}

#[test]
fn a_push_that_ends_many_blocks_is_a_few_records() {
    let mut prose = String::new();
    for i in 0..2000 {
        prose.push_str(&format!("Paragraph {i} of a long answer.\n\n"));
    }
    let lines = deltas(&prose, 40);
    let (first, rest) = lines.split_at(lines.len() / 2);
    let mut s = DocStream::new(Options {
        format: Some(Format::CursorStreamJson),
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut w = PatchWriter::new();
    let mut records = Vec::new();
    for half in [first, rest] {
        s.push(&half.concat()).unwrap();
        let before = w.records();
        view.update_into(s.conversation(), s.changes(), &mut w);
        s.clear_changes();
        records.push(w.records() - before);
        w.clear();
    }
    // The second push ends about 1,000 paragraphs of a document already on the page:
    // they go out as one append, the tail is emptied once, the turn's header and the
    // new tail follow.
    assert!(
        records[1] <= 8,
        "records for a push that ended 1,000 blocks: {records:?}"
    );
}
