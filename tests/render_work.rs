//! Streaming a long transcript in 16-byte chunks hands pulldown-cmark a number of bytes
//! bounded by a small constant times the final text length (finished blocks are rendered
//! once), not growing with its square.
//!
//! This binary has one test so that the global byte counter is not shared.

use docstream::render::HtmlView;
use docstream::render::RenderOptions;
use docstream::render::markdown::markdown_bytes_rendered;
use docstream::render::patch::PageModel;
use docstream::{DocStream, Format, Options};

#[test]
fn markdown_work_is_linear() {
    let mut text = String::new();
    for i in 0..400 {
        text.push_str(&format!(
            "Paragraph {i} says something *useful* about `code` and links to https://x.y/{i}.\nA second line.\n\n"
        ));
    }
    let input: String = text
        .as_bytes()
        .chunks(16)
        .map(|c| {
            let v = serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":String::from_utf8_lossy(c)}]}});
            format!("{v}\n")
        })
        .collect();
    let mut stream = DocStream::new(Options {
        format: Some(Format::CursorStreamJson),
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut page = PageModel::new();
    let before = markdown_bytes_rendered();
    for chunk in input.as_bytes().chunks(16) {
        stream.push(chunk).unwrap();
        let changes = stream.take_changes();
        for p in view.update(stream.conversation(), &changes) {
            page.apply(&p);
        }
    }
    stream.finish().unwrap();
    let changes = stream.take_changes();
    for p in view.update(stream.conversation(), &changes) {
        page.apply(&p);
    }
    let work = markdown_bytes_rendered() - before;
    let final_len: usize = stream
        .conversation()
        .documents()
        .map(|d| d.text().len())
        .sum();
    assert!(final_len >= text.len() - 2, "text arrived: {final_len}");
    assert!(
        work <= 12 * final_len as u64,
        "{work} bytes rendered for {final_len} bytes of text"
    );
}
