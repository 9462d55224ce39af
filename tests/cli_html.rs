//! `docstream html --chunk N` builds the page from patches; it must be byte-identical to
//! the one-shot page.

use std::process::Command;

fn html(args: &[&str]) -> Vec<u8> {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/cursor-session.jsonl");
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
