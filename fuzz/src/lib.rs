//! The fuzz targets' bodies, shared by the cargo-fuzz binaries (`fuzz_targets/`) and by
//! the stable test run, which replays every target over its seeds
//! (`tests/fuzz_replay.rs` includes this file).
//!
//! Inputs that choose a format or a chunking start with a small header: byte 0 picks
//! the format (0: detect it, `n`: `Format::NAMES[n - 1]`), byte 1 seeds the chunk
//! sizes; the rest is the stream. [`with_header`] builds such an input from a file.

pub mod highlight;
pub mod math;

use docstream_convert::request::{self, Dialect};
use docstream_core::{DocStream, Format, Options};
use docstream_html::patch::PageModel;
use docstream_html::{HtmlView, RenderOptions, render_conversation};

/// An input for the stream targets: `format` (0 detects), chunk seed, then `bytes`.
pub fn with_header(format: u8, seed: u8, bytes: &[u8]) -> Vec<u8> {
    let mut input = vec![format, seed];
    input.extend_from_slice(bytes);
    input
}

/// The format byte 0 names (`None`: detect it).
fn format_of(b: u8) -> Option<Format> {
    let names = Format::NAMES;
    match usize::from(b) % (names.len() + 1) {
        0 => None,
        i => Format::parse(names[i - 1]).ok().flatten(),
    }
}

/// Chunk ends for `len` bytes: sizes of 1 to 64 bytes from a small generator seeded by
/// `seed`, with a one-byte-at-a-time run now and then.
fn cuts(len: usize, seed: u8) -> Vec<usize> {
    let mut state = u32::from(seed).wrapping_mul(2_654_435_761) | 1;
    let mut at = 0;
    let mut out = Vec::new();
    while at < len {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        at += 1 + (state % 64) as usize;
        out.push(at.min(len));
    }
    out
}

fn split(input: &[u8]) -> (Option<Format>, u8, &[u8]) {
    match input {
        [f, s, rest @ ..] => (format_of(*f), *s, rest),
        _ => (None, 0, input),
    }
}

/// Pushes the stream in chunks with the given format, renders it and applies the
/// patches after each chunk. Nothing may panic.
pub fn stream(input: &[u8]) {
    let (format, seed, bytes) = split(input);
    let mut s = DocStream::new(Options {
        format,
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut page = PageModel::new();
    let mut from = 0;
    for to in cuts(bytes.len(), seed) {
        s.push(&bytes[from..to]).expect("push before finish");
        from = to;
        let changes = s.take_changes();
        for p in view.update(s.conversation(), &changes) {
            page.apply(&p);
        }
    }
    s.finish().expect("first finish");
    assert!(s.push(b"x").is_err(), "push after finish is an error");
    let changes = s.take_changes();
    for p in view.update(s.conversation(), &changes) {
        page.apply(&p);
    }
    let _ = render_conversation(s.conversation(), &RenderOptions::default());
    let _ = docstream_html::progress::progress_lines(
        s.conversation(),
        docstream_html::labels::Locale::En,
    );
}

/// Whole versus split: the conversation, its HTML, and the page built from the split
/// stream's patches must all equal the whole input's.
pub fn stream_invariance(input: &[u8]) {
    let (format, seed, bytes) = split(input);
    let options = Options {
        format,
        ..Options::default()
    };
    let mut whole = DocStream::new(options);
    whole.push(bytes).expect("push");
    whole.finish().expect("finish");
    let mut parts = DocStream::new(options);
    let mut view = HtmlView::new(RenderOptions::default());
    let mut page = PageModel::new();
    let mut from = 0;
    for to in cuts(bytes.len(), seed) {
        parts.push(&bytes[from..to]).expect("push");
        from = to;
        let changes = parts.take_changes();
        for p in view.update(parts.conversation(), &changes) {
            page.apply(&p);
        }
    }
    parts.finish().expect("finish");
    let changes = parts.take_changes();
    for p in view.update(parts.conversation(), &changes) {
        page.apply(&p);
    }
    assert_eq!(
        parts.conversation(),
        whole.conversation(),
        "split and whole conversations differ"
    );
    let html = render_conversation(whole.conversation(), &RenderOptions::default());
    assert_eq!(
        render_conversation(parts.conversation(), &RenderOptions::default()),
        html,
        "split and whole HTML differ"
    );
    assert_eq!(page.html(), html, "the patched page differs from the HTML");
}

/// A saved response or conversation (`response-json`): read, rendered, written back;
/// what is written back reads again to the same documents.
pub fn saved_response(input: &[u8]) {
    let mut s = DocStream::new(Options {
        format: Some(Format::ResponseJson),
        ..Options::default()
    });
    s.push(input).expect("push");
    s.finish().expect("finish");
    let _ = render_conversation(s.conversation(), &RenderOptions::default());
    let json = serde_json::to_string(s.conversation()).expect("a conversation serialises");
    let mut again = DocStream::new(Options {
        format: Some(Format::ResponseJson),
        ..Options::default()
    });
    again.push(json.as_bytes()).expect("push");
    again.finish().expect("finish");
    let docs = |c: &docstream_core::model::Conversation| c.documents().count();
    assert_eq!(
        docs(again.conversation()),
        docs(s.conversation()),
        "a written-back conversation reads to as many documents"
    );
}

/// The seed 002 conversions, both ways: errors are fine, panics are not; a converted
/// history converts again.
pub fn conversions(input: &[u8]) {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(input) else {
        return;
    };
    for to in [Dialect::OpenAi, Dialect::Anthropic] {
        if let Ok(out) = request::convert(&value, to) {
            let back = match to {
                Dialect::OpenAi => Dialect::Anthropic,
                Dialect::Anthropic => Dialect::OpenAi,
            };
            let _ = request::convert(&out, back);
        }
    }
}
