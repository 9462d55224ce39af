//! `docstream md` and `docstream export --to md`: the Markdown of a file is the golden
//! of the html crate's test, the same for every `--chunk`; a store or folder is
//! exported as `index.md` and a file per conversation, or one conversation printed.

use std::fs;
use std::process::{Command, Stdio};

use docstream_testkit::stores::{claude_projects, cursor_user_dir, scratch};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Runs the CLI: exit code, stdout, stderr (also `cli_prices`'s).
pub(crate) fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn md_prints_the_golden_markdown_for_every_chunking() {
    for case in [
        "tests/fixtures/cursor-stream-json/basic",
        "tests/fixtures/claude-code-stream-json/subagents",
    ] {
        let input = format!("{ROOT}/{case}.jsonl");
        let golden = fs::read_to_string(format!("{ROOT}/{case}.expected.md")).unwrap();
        let (code, whole, err) = cli(&["md", &input]);
        assert_eq!(code, 0, "{case}: {err}");
        assert_eq!(whole, golden, "{case}");
        for n in ["1", "7", "100"] {
            let (code, md, err) = cli(&["md", "--chunk", n, &input]);
            assert_eq!((code, &md), (0, &whole), "{case} --chunk {n}: {err}");
        }
    }
}

#[test]
fn md_reads_standard_input() {
    let input = fs::read(format!("{ROOT}/examples/cursor-session.jsonl")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(["md", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), &input).unwrap();
    let out = child.wait_with_output().unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(md.starts_with("# Plan and fix the greeting\n"), "{md}");
    assert!(md.contains("```diff\n") && md.contains("<details>"), "{md}");
}

#[test]
fn wrong_exports_are_usage_errors() {
    let (code, _, err) = cli(&["export", "--to", "pdf", "--out", "x", "y"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("use html or md"), "{err}");
    let (code, _, err) = cli(&["text", "--to", "md", "x"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = cli(&["export", "--to", "md", "x"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs --out DIR"), "{err}");
    let (code, _, err) = cli(&["text", "--conversation", "a", "x"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn export_to_md_writes_an_index_and_a_file_per_conversation() {
    let root = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-cli-md");
    cursor_user_dir(&root);
    claude_projects(&root);
    let r = root.to_str().unwrap();
    let out = root.join("md");
    let (code, _, err) = cli(&["export", "--to", "md", "--out", out.to_str().unwrap(), r]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("conversation files") && err.contains("index.md"),
        "{err}"
    );
    let index = fs::read_to_string(out.join("index.md")).unwrap();
    assert!(
        index.contains("(c/c-split.md)") && index.contains("Louder greeting"),
        "{index}"
    );
    assert!(
        index
            .lines()
            .any(|l| l.contains("c-bad") && l.contains("error")),
        "the bad entry is listed with its error:\n{index}"
    );
    let split = fs::read_to_string(out.join("c/c-split.md")).unwrap();
    assert!(
        split.contains("```diff\n") && split.contains("src/hello.py"),
        "{split}"
    );
    assert!(!out.join("index.html").exists(), "no HTML site");

    // One conversation, printed: Markdown by export --to md and md, a page by export.
    let (code, md, err) = cli(&["export", "--to", "md", "--conversation", "c-split", r]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(md, split);
    let (code, md2, err) = cli(&["md", "--conversation", "c-split", r]);
    assert_eq!((code, &md2), (0, &md), "{err}");
    let (code, page, err) = cli(&["export", "--conversation", "c-split", r]);
    assert_eq!(code, 0, "{err}");
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
}
