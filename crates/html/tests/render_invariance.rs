//! For every fixture and every chunking, applying the renderer's patches after each
//! chunk gives the same HTML as rendering the final state at once.

use docstream_testkit as support;

use docstream_core::{DocStream, Format, Options};
use docstream_html::HtmlView;
use docstream_html::patch::PageModel;
use docstream_html::{RenderOptions, render_conversation, render_conversation_in_pieces};
use support::{chunkings, fixtures};

/// The page patched after each chunk, and the page rendered at once, with `opts`
/// (also `prices`'s).
pub(crate) fn patched(
    input: &[u8],
    format: Format,
    cuts: &[usize],
    opts: &RenderOptions,
) -> (String, String) {
    let mut stream = DocStream::new(Options {
        format: Some(format),
        ..Options::default()
    });
    let mut view = HtmlView::new(opts.clone());
    let mut page = PageModel::new();
    let mut from = 0;
    let mut step = |stream: &mut DocStream| {
        let changes = stream.take_changes();
        for p in view.update(stream.conversation(), &changes) {
            page.apply(&p);
        }
    };
    for &to in cuts {
        stream.push(&input[from..to]).unwrap();
        step(&mut stream);
        from = to;
    }
    stream.push(&input[from..]).unwrap();
    step(&mut stream);
    stream.finish().unwrap();
    step(&mut stream);
    let one_shot = render_conversation(stream.conversation(), opts);
    (page.html(), one_shot)
}

#[test]
fn patches_give_the_one_shot_html_for_every_chunking() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        for (name, cuts) in chunkings(input.len()) {
            let (patched, one_shot) = patched(&input, format, &cuts, &RenderOptions::default());
            assert_eq!(patched, one_shot, "{} chunked {name}", path.display());
        }
    }
}

#[test]
fn the_page_in_pieces_is_the_page() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let mut stream = DocStream::new(Options {
            format: Some(format),
            ..Options::default()
        });
        stream.push(&input).unwrap();
        stream.finish().unwrap();
        let opts = RenderOptions::default();
        let whole = render_conversation(stream.conversation(), &opts);
        for piece_bytes in [0, 1, 300, usize::MAX] {
            let mut pieces = Vec::new();
            render_conversation_in_pieces(stream.conversation(), &opts, &[], piece_bytes, |p| {
                pieces.push(p.to_owned())
            });
            let documents = stream.conversation().documents().count();
            assert!(pieces.len() <= documents + 1, "{}", path.display());
            assert_eq!(
                pieces.concat(),
                whole,
                "{} in {piece_bytes}-byte pieces",
                path.display()
            );
        }
    }
}

#[test]
fn long_markdown_streamed_in_small_chunks_matches() {
    let text = long_markdown(40);
    let events: String = text
        .as_bytes()
        .chunks(37)
        .map(|c: &[u8]| {
            let s = String::from_utf8_lossy(c);
            let v = serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":s}]}});
            format!("{v}\n")
        })
        .collect();
    let input = events.as_bytes();
    for (name, cuts) in chunkings(input.len()).into_iter().take(4) {
        let (patched, one_shot) = patched(
            input,
            Format::CursorStreamJson,
            &cuts,
            &RenderOptions::default(),
        );
        assert_eq!(patched, one_shot, "chunked {name}");
    }
}

/// A long Markdown text with every kind of block.
fn long_markdown(sections: usize) -> String {
    let mut t = String::new();
    for i in 0..sections {
        t.push_str(&format!(
            "# Section {i}\n\nSome *prose* with `code` and a [link](https://x.y/{i}).\nMore prose.\n\n- item one\n- item two\n\n  still item two\n\nAfter the list.\n\n```rust\nfn f() {{}}\n\nlet x = {i};\n```\n\n| a | b |\n|---|---|\n| {i} | y |\n\n> quote\n\nclosing words.\n\n"
        ));
    }
    t
}
