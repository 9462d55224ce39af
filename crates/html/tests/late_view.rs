//! A view that starts after the stream did (a second reader of a followed file):
//! [`HtmlView::catch_up`] builds on an empty page what the stream holds so far, at any
//! point of it, and the updates that follow keep that page up to date.

use docstream_core::{DocStream, Format, Options};
use docstream_html::patch::PageModel;
use docstream_html::{HtmlView, RenderOptions, render_conversation, render_conversation_live};

fn fixture(rel: &str) -> Vec<u8> {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures"))
        .join(rel);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Starts a view after every prefix of `input` cut at `step` bytes; each catches up,
/// then follows the rest.
fn late_views_agree(name: &str, input: &[u8], format: Format, step: usize) {
    let options = RenderOptions::default();
    let mut at = 0;
    while at <= input.len() {
        let mut stream = DocStream::new(Options {
            format: Some(format),
            ..Options::default()
        });
        stream.push(&input[..at]).unwrap();
        stream.clear_changes();
        let mut view = HtmlView::new(options.clone());
        let mut page = PageModel::new();
        for p in view.catch_up(stream.conversation(), &stream.open_documents()) {
            page.apply(&p);
        }
        let now =
            render_conversation_live(stream.conversation(), &options, &stream.open_documents());
        assert_eq!(page.html(), now, "{name}: a view started after {at} bytes");
        for chunk in input[at..].chunks(step) {
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
        let end = render_conversation(stream.conversation(), &options);
        assert_eq!(
            page.html(),
            end,
            "{name}: a view started after {at} bytes, at the end"
        );
        at += step;
    }
}

#[test]
fn a_late_view_catches_up_at_any_point_of_a_session() {
    for rel in [
        "claude-code-transcript/sidechains.jsonl",
        "claude-code-transcript/rewind.jsonl",
        "codex-session/session.jsonl",
        "anthropic-stream/thinking_fence.sse",
        "openai-responses-stream/reasoning_calls.sse",
    ] {
        // Each fixture's folder is named by its format.
        let dir = rel.split('/').next().unwrap_or_default();
        let format = Format::parse(dir)
            .ok()
            .flatten()
            .expect("a format's folder");
        let input = fixture(rel);
        late_views_agree(rel, &input, format, 97);
    }
}
