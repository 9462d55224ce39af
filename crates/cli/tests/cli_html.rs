//! `docstream html --chunk N` builds the page from patches; it must be byte-identical to
//! the one-shot page.

use std::process::Command;

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/cursor-session.jsonl"
);

fn html(args: &[&str]) -> Vec<u8> {
    html_of(SAMPLE, args)
}

fn html_of(sample: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .arg("html")
        .args(args)
        .arg(sample)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn chunked_page_is_byte_identical() {
    let whole = html(&[]);
    assert!(whole.starts_with(b"<!DOCTYPE html>"));
    for n in ["1", "16", "100"] {
        assert!(html(&["--chunk", n]) == whole, "--chunk {n} differs");
    }
}

/// `--locale de` takes every label from the German table: none of the English labels
/// of the every-type fixture is left.
#[test]
fn german_page_has_no_english_labels() {
    let fixture = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fixtures/response-json/every-type.json"
    );
    let page = String::from_utf8(html_of(fixture, &["--locale", "de"])).unwrap();
    for german in [
        ">erledigt<",
        ">Code kopieren<",
        "Dauer",
        "Im Web gesucht",
        "umbenannt",
    ] {
        assert!(page.contains(german), "{german} missing");
    }
    for english in [
        ">completed<",
        ">Copy code<",
        ">Arguments<",
        ">Result<",
        "took ",
        ">renamed<",
        ">Thinking<",
    ] {
        assert!(!page.contains(english), "{english} left in the German page");
    }
}

/// The page has no script: its code is coloured when it is written, with the token
/// classes the browser's highlighter uses, the text unchanged.
#[test]
fn code_in_the_page_is_coloured() {
    let fixture = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fixtures/claude-code-transcript/tool_results.jsonl"
    );
    let page = String::from_utf8(html_of(fixture, &[])).unwrap();
    for token in [
        "<span class=\"ds-hl-keyword\">import</span>",
        "<span class=\"ds-hl-keyword\">def</span> <span class=\"ds-hl-function\">fetch</span>",
        "<span class=\"ds-hl-string\">&quot;TIMEOUT&quot;</span>",
    ] {
        assert!(page.contains(token), "{token} missing");
    }
    let chunked = String::from_utf8(html_of(fixture, &["--chunk", "7"])).unwrap();
    assert!(chunked == page, "--chunk 7 colours differently");
}

/// `--no-highlight` writes the page without colouring its code, the text the same.
#[test]
fn no_highlight_leaves_code_plain() {
    let fixture = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fixtures/claude-code-transcript/tool_results.jsonl"
    );
    let plain = String::from_utf8(html_of(fixture, &["--no-highlight"])).unwrap();
    assert!(
        !plain.contains("class=\"ds-hl-"),
        "a token class in the plain page"
    );
    assert!(plain.contains("<span class=\"ds-line\" data-ln=\"1\">import os</span>"));
    let chunked = String::from_utf8(html_of(fixture, &["--no-highlight", "--chunk", "5"])).unwrap();
    assert!(chunked == plain, "--chunk 5 differs");
}
