//! One state, one page (issue 37): at any moment, `html()` of the stream's state is the
//! page the patches built so far — mid-stream Markdown repair (an unclosed `**`, a lone
//! backtick, a link whose target has not arrived) included, not only once the stream is
//! finished.
//!
//! Nothing is normalised: the two are compared byte for byte after every chunk.

use docstream_testkit as support;

use docstream_core::{DocStream, Format, Options};
use docstream_html::patch::{PageModel, PatchWriter};
use docstream_html::{HtmlView, RenderOptions, render_conversation_in_pieces};

/// `html()` of the stream's state now, as the WebAssembly binding writes it.
fn html_now(stream: &DocStream) -> String {
    let mut out = String::new();
    render_conversation_in_pieces(
        stream.conversation(),
        &RenderOptions::default(),
        &stream.open_documents(),
        64 * 1024,
        |piece| out.push_str(piece),
    );
    out
}

/// Pushes `input` cut at `cuts`; after each chunk (and after `finish`) the page the
/// patches built equals `html()`. Returns the last page.
fn replay(name: &str, input: &[u8], format: Format, cuts: &[usize]) -> String {
    let mut stream = DocStream::new(Options {
        format: Some(format),
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let mut wire = PatchWriter::new();
    let mut page = PageModel::new();
    let mut from = 0;
    for (i, &to) in cuts.iter().chain([&input.len()]).enumerate() {
        stream.push(&input[from..to]).unwrap();
        view.update_into(stream.conversation(), stream.changes(), &mut wire);
        stream.clear_changes();
        page.apply_wire(wire.as_str()).unwrap();
        wire.clear();
        let (built, now) = (page.html(), html_now(&stream));
        if built != now {
            panic!(
                "{name}: after chunk {} (bytes {from}..{to}: {:?}) the page the patches built is not html():\n{}",
                i + 1,
                String::from_utf8_lossy(&input[from..to]),
                first_difference(&built, &now),
            );
        }
        from = to;
    }
    stream.finish().unwrap();
    view.update_into(stream.conversation(), stream.changes(), &mut wire);
    stream.clear_changes();
    page.apply_wire(wire.as_str()).unwrap();
    let (built, now) = (page.html(), html_now(&stream));
    assert!(
        built == now,
        "{name}: after finish:\n{}",
        first_difference(&built, &now)
    );
    built
}

/// The lines around the first place two pages differ.
fn first_difference(built: &str, now: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (built.lines().collect(), now.lines().collect());
    let at = (0..a.len().max(b.len()))
        .find(|&i| a.get(i) != b.get(i))
        .unwrap_or(0);
    let from = at.saturating_sub(2);
    let show = |l: &[&str]| l[from.min(l.len())..(at + 3).min(l.len())].join("\n");
    format!(
        "--- the patches built (line {}):\n{}\n--- html():\n{}",
        at + 1,
        show(&a),
        show(&b)
    )
}

/// Cuts after every line.
fn line_cuts(input: &[u8]) -> Vec<usize> {
    let mut cuts: Vec<usize> = memchr_lines(input);
    cuts.retain(|&c| c < input.len());
    cuts
}

fn memchr_lines(input: &[u8]) -> Vec<usize> {
    input
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn every_fixture_after_every_chunk() {
    for (format, path) in support::fixtures() {
        let input = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        replay(
            &format!("{name} by line"),
            &input,
            format,
            &line_cuts(&input),
        );
        let seed = support::seeds()[0];
        replay(
            &format!("{name} in random chunks (DOCSTREAM_SEED={seed})"),
            &input,
            format,
            &support::random_cuts(input.len(), seed, 64),
        );
    }
}

/// A Cursor `stream-json` delta line carrying `text`.
fn delta_line(text: &str) -> String {
    let line = serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":text}]},"timestamp_ms":1});
    format!("{line}\n")
}

/// A stream of `text` in deltas of `step` characters, then stopped (no `result`).
fn deltas(text: &str, step: usize) -> (Vec<u8>, Vec<usize>) {
    let chars: Vec<char> = text.chars().collect();
    let mut input = String::new();
    let mut cuts = Vec::new();
    for piece in chars.chunks(step) {
        input.push_str(&delta_line(&piece.iter().collect::<String>()));
        cuts.push(input.len());
    }
    cuts.pop();
    (input.into_bytes(), cuts)
}

#[test]
fn a_stream_stopped_mid_markup_shows_what_the_patches_show() {
    for (name, text, repaired) in [
        (
            "mid **bold",
            "First paragraph.\n\nThe fix is **not in main",
            "<strong>not in main</strong>",
        ),
        (
            "mid `code",
            "Run it:\n\nthen `cargo te",
            "<code>cargo te</code>",
        ),
        (
            "mid [link](http://ex",
            "See the docs.\n\nRead [the guide](http://ex",
            "the guide",
        ),
        (
            "mid table",
            // A table row is held until it is complete.
            "Counts:\n\n| a | b |\n|---|---|\n| `x` | **y** |\n| `z` | **w",
            "<td><strong>y</strong></td>",
        ),
        ("mid list", "then:\n\n- one\n- *two", "<em>two</em>"),
        (
            "mid fence",
            "Code:\n\n```rust\nfn main() {\n    let x = 1;",
            "let x = 1;",
        ),
        (
            "mid fence, between CR and LF",
            "Code:\n\n```sh\nls -l\r\n",
            "ls -l",
        ),
        (
            "reference definition",
            "Some [text][r] and more.\n\nSecond **block\n\n[r]: https://example.com\n\nThird *par",
            "<em>par</em>",
        ),
    ] {
        for step in [1, 3, 1000] {
            let (input, cuts) = deltas(text, step);
            let mut s = DocStream::new(Options {
                format: Some(Format::CursorStreamJson),
                ..Options::default()
            });
            s.push(&input).unwrap();
            let now = html_now(&s);
            assert!(
                now.contains(repaired),
                "{name} in steps of {step}: html() does not show {repaired:?}:\n{now}"
            );
            if !name.starts_with("mid fence") {
                assert!(
                    !now.contains("**") && !now.contains('`') && !now.contains("http://ex"),
                    "{name} in steps of {step}: html() shows a raw marker or a live half target:\n{now}"
                );
            }
            replay(
                &format!("{name} in steps of {step}"),
                &input,
                Format::CursorStreamJson,
                &cuts,
            );
        }
    }
}

#[test]
fn a_thinking_stream_stopped_mid_markup_shows_what_the_patches_show() {
    let lines = [
        r#"{"type":"thinking","subtype":"delta","text":"Looking at **the bu"}"#,
        r#"{"type":"thinking","subtype":"delta","text":"ild** first.\n\nThen `car"}"#,
    ];
    let input = lines.map(|l| format!("{l}\n")).concat();
    let mut s = DocStream::new(Options {
        format: Some(Format::CursorWrapper),
        ..Options::default()
    });
    s.push(input.as_bytes()).unwrap();
    let now = html_now(&s);
    assert!(
        now.contains("<strong>the build</strong>") && now.contains("<code>car</code>"),
        "{now}"
    );
    replay(
        "thinking",
        input.as_bytes(),
        Format::CursorWrapper,
        &line_cuts(input.as_bytes()),
    );
}
