//! Hostile input costs only itself (issue 34): the CLI's colouring and formulas.
//!
//! Every test here runs the built `docstream` binary as a subprocess: a grammar that
//! loops leaves a thread spinning in the process that ran it, which ends with that
//! process instead of slowing the rest of the test run.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::json;

/// Lines that grammars stumble on: unclosed comments, strings, regexes and heredocs,
/// the lines that looped Sublime's JavaScript, ternaries and angle brackets, deep and
/// unbalanced brackets, mixed quotes, long runs of one character (up to `MAX_LINE`, past
/// which lines are plain anyway), control characters.
fn pathological_lines() -> Vec<String> {
    let mut lines: Vec<String> = [
        "x /*",
        "a * {} /* c */",
        "export default {} /* settings */",
        "i < 0 ? (l) : ([i + 1]);",
        "a ? b : c ? d : e",
        "x < y > z",
        "f<g<h<i>>>(x) < 1 ? a : b",
        "/*",
        "/** @param {x} y",
        "x = 1 // comment /* inside",
        "\"unclosed",
        "'unclosed",
        "`unclosed ${",
        "\"\"\"",
        "'''",
        "/unclosed[",
        "x = /[/",
        "s.replace(/\\/*/g, '')",
        "cat <<EOF",
        "cat <<-'X'",
        "x = <<~EOS",
        "$(( 1 + $(echo `x`) ))",
        "<?php",
        "<%",
        "<script>x /*",
        "<style>a{",
        "<!--",
        "<![CDATA[",
        "<a href='x' b=\"y\" c=z>",
        "{{",
        "{% if x %}{{ y }}",
        "${",
        "#{",
        "@\"",
        "r#\"",
        "r\"x\" b'x' f\"{x}\"",
        "--[[",
        "(*",
        "{-",
        "%{",
        "\\",
        "\"'`\"'`'\"",
        "'\"\\''\"",
        "=> -> <<< >>> ?: ?? ?.",
        "}}}]]])))",
        "f(a, (b, [c, {d: <e>}]))",
        "@media (x) {",
        "#define X(a) a ## b",
        "#!/bin/sh",
        "<T extends U<V>>(a: T) => a",
        "case x of _ -> y",
        "0x 1e 1e+ 1.e5 0b2 08 1_000_",
        "#[derive(x)]",
        "é“”𝒳\u{1b}[0m\u{7}",
        "a\tb\u{b}c\u{c}d",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for run in [
        "(", "[", "{", "<", ")", "a", " ", "*", "/", "\\", "\"", "'", "`", "#", "-", "=", "$", "%",
        "<a ", "(*", "/*", "{{", "<!--", "'\"", "?:", "a.", "0", "\\\"",
    ] {
        lines.push(run.repeat(1990 / run.len()));
    }
    lines
}

/// The stream of an assistant that writes `lines` in `lang` code blocks, each alone,
/// then the short ones in one block (the grammar's state carried from line to line)
/// and, when `path` is given, in an edit of that file (both sides of its diff views).
fn transcript(lang: &str, path: Option<&str>, lines: &[String]) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(&format!("~~~~{lang}\n{line}\n~~~~\n\n"));
    }
    let short: Vec<&str> = lines
        .iter()
        .map(String::as_str)
        .filter(|l| l.len() < 100)
        .collect();
    text.push_str(&format!("~~~~{lang}\n{}\n~~~~\n", short.join("\n")));
    let mut out = vec![
        init(),
        json!({"type": "assistant", "message": {"role": "assistant",
            "content": [{"type": "text", "text": text}]}}),
    ];
    if let Some(path) = path {
        out.push(
            json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": path,
                "old_string": short[..short.len() / 2].join("\n"),
                "new_string": short[short.len() / 3..].join("\n")}}]}}),
        );
        out.push(
            json!({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}),
        );
    }
    out.push(json!({"type": "result", "subtype": "success", "result": "ok"}));
    out.iter().map(|v| format!("{v}\n")).collect()
}

/// The first line of a Claude Code `stream-json` run, which names the format.
fn init() -> serde_json::Value {
    json!({"type": "system", "subtype": "init", "cwd": "/work", "session_id": "s",
        "tools": ["Edit"], "model": "m", "claude_code_version": "2.1.7"})
}

/// What a run of the CLI gave back.
struct Run {
    page: String,
    stderr: String,
    took: Duration,
}

/// `docstream html [args] input`, killed after `limit`: `Err` says it was.
fn html(input: &Path, args: &[&str], limit: Duration) -> Result<Run, String> {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .arg("html")
        .args(args)
        .arg(input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the pipes while the child runs, so a large page cannot block it.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut s).map(|_| s)
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let took = start.elapsed();
            let page = out.join().unwrap().unwrap();
            let stderr = err.join().unwrap().unwrap();
            if !status.success() {
                return Err(format!("exit {status}: {stderr}"));
            }
            return Ok(Run { page, stderr, took });
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            return Err(format!("still running after {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `html` without the token spans colouring adds.
fn uncoloured(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find("<span class=\"ds-hl-") {
        out.push_str(&rest[..at]);
        let open_end = at + rest[at..].find('>').unwrap() + 1;
        let close = open_end + rest[open_end..].find("</span>").unwrap();
        out.push_str(&rest[open_end..close]);
        rest = &rest[close + "</span>".len()..];
    }
    out.push_str(rest);
    out
}

fn write_input(name: &str, content: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("hostile-colour-{name}.jsonl"));
    std::fs::File::create(&path)
        .unwrap()
        .write_all(content.as_bytes())
        .unwrap();
    path
}

/// A token (fence language or file extension) that reaches `syntax` in the CLI.
fn token_for(syntax: &syntect::parsing::SyntaxReference) -> Option<(String, bool)> {
    let reaches = |t: &str| docstream_html::syntax::grammar_name(t) == Some(syntax.name.as_str());
    let fence_safe = |t: &str| {
        t.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    syntax
        .file_extensions
        .iter()
        .map(|e| (e.clone(), true))
        .chain([(syntax.name.clone(), false)])
        .filter(|(t, _)| fence_safe(t) && reaches(&t.to_ascii_lowercase()))
        .map(|(t, ext)| (t.to_ascii_lowercase(), ext))
        .next()
}

/// How long one grammar's page may take: its ~80 blocks are each cut after their
/// budget (about 1.2 s for a 2,000-byte line), and colouring stops after three cuts.
const PAGE_LIMIT: Duration = Duration::from_secs(60);

/// Every grammar the CLI ships, over every pathological line (each line a code block,
/// all lines in one more, and a file edit of them as a diff): every page is written
/// within the limit, and colouring changed no text (the page without its token spans is
/// the `--no-highlight` page). Fails on a grammar that loops (Sublime's JavaScript on
/// `x /*`, reached by `.htc`) without the colouring budget.
#[test]
fn every_grammar_survives_pathological_lines() {
    let set = two_face::syntax::extra_newlines();
    let lines = pathological_lines();
    let mut targets = Vec::new();
    let mut unreachable = Vec::new();
    for syntax in set.syntaxes() {
        match token_for(syntax) {
            Some((token, ext)) => targets.push((syntax.name.clone(), token, ext)),
            None => unreachable.push(syntax.name.clone()),
        }
    }
    assert!(
        targets.len() > 150,
        "only {} grammars reachable",
        targets.len()
    );
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let gave_up = Mutex::new(Vec::new());
    let slowest = Mutex::new((Duration::ZERO, String::new()));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((name, token, ext)) = targets.get(i) else {
                        break;
                    };
                    let path = ext.then(|| format!("/work/file.{token}"));
                    let input = write_input(token, &transcript(token, path.as_deref(), &lines));
                    let what = format!("{name} (`{token}`), input {}", input.display());
                    let coloured = match html(&input, &[], PAGE_LIMIT) {
                        Ok(run) => run,
                        Err(e) => {
                            failures.lock().unwrap().push(format!("{what}: {e}"));
                            continue;
                        }
                    };
                    let plain = html(&input, &["--no-highlight"], PAGE_LIMIT).unwrap();
                    if uncoloured(&coloured.page) != plain.page {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{what}: colouring changed the text"));
                    }
                    if coloured.stderr.contains("took too long") {
                        gave_up
                            .lock()
                            .unwrap()
                            .push(format!("{name}: {}", coloured.stderr.trim()));
                    }
                    let mut s = slowest.lock().unwrap();
                    if coloured.took > s.0 {
                        *s = (coloured.took, name.clone());
                    }
                }
            });
        }
    });
    let gave_up = gave_up.into_inner().unwrap();
    let (took, name) = slowest.into_inner().unwrap();
    eprintln!(
        "{} grammars, {} lines: slowest page {name} in {took:?}; {} gave up on a grammar:\n  {}\nnot reachable by a fence or a path (embedded only): {}",
        targets.len(),
        lines.len(),
        gave_up.len(),
        gave_up.join("\n  "),
        unreachable.join(", ")
    );
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An assistant's text, as the stream of a finished run.
fn text_transcript(text: &str) -> String {
    [
        init(),
        json!({"type": "assistant", "message": {"role": "assistant",
            "content": [{"type": "text", "text": text}]}}),
        json!({"type": "result", "subtype": "success", "result": "ok"}),
    ]
    .iter()
    .map(|v| format!("{v}\n"))
    .collect()
}

/// The code elements of a page, in order, with what is inside them.
fn code_blocks(page: &str) -> Vec<&str> {
    page.split("<code class=\"language-")
        .skip(1)
        .map(|b| &b[..b.find("</code>").unwrap()])
        .collect()
}

/// The lines that looped Sublime's JavaScript grammar, as the issue gives them: in a
/// `javascript` block and in edits of `.javascript` and `.htc` files. They are
/// coloured at once, by the grammar `js` blocks get (the loop never starts).
#[test]
fn the_issue_s_javascript_lines_are_coloured_at_once() {
    let lines = ["x /*", "a * {} /* c */", "export default {} /* settings */"].map(String::from);
    let mut stream = text_transcript(&format!("```javascript\n{}\n```\n", lines.join("\n")));
    for (i, path) in ["src/app.javascript", "legacy/behavior.htc"]
        .iter()
        .enumerate()
    {
        let edit = json!({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": format!("t{i}"), "name": "Edit", "input": {"file_path": path,
                "old_string": "x = 1", "new_string": lines.join("\n")}}]}});
        let at = stream.find('\n').unwrap() + 1;
        stream.insert_str(at, &format!("{edit}\n"));
    }
    let input = write_input("issue-javascript", &stream);
    let run = html(&input, &[], Duration::from_secs(30)).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.took < Duration::from_secs(10), "took {:?}", run.took);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    assert!(
        run.page
            .contains("x <span class=\"ds-hl-comment\">/*</span>"),
        "the block is not coloured"
    );
    let diffs = run
        .page
        .matches("<td class=\"ds-diff-text\"><span class=\"ds-hl-")
        .count();
    assert!(diffs >= 2, "the edits are not coloured: {diffs}");
}

/// A grammar past its budget (INI takes tens of seconds on a line of 2,000 spaces:
/// backtracking) costs about one budget: that block is plain, the grammar is not used
/// again (its next block is plain at once), other grammars are still coloured, and the
/// CLI says so once.
#[test]
fn a_grammar_past_its_budget_costs_one_budget_and_is_not_used_again() {
    let spaces = " ".repeat(1990);
    let text = format!(
        "```ini\n{spaces}\n```\n\n```rust\nfn main() {{}}\n```\n\n```ini\nkey = value\n```\n"
    );
    let input = write_input("ini-spaces", &text_transcript(&text));
    let run = html(&input, &[], Duration::from_secs(60)).unwrap_or_else(|e| panic!("{e}"));
    // The budget: about a second (the reserve and 100 µs a byte of the line).
    assert!(run.took < Duration::from_secs(6), "took {:?}", run.took);
    assert_eq!(
        run.stderr,
        "docstream: colouring INI code took too long, so that code is shown plain\n"
    );
    let blocks = code_blocks(&run.page);
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    assert!(!blocks[0].contains("ds-hl-"), "{}", blocks[0]);
    assert!(
        blocks[1].contains("<span class=\"ds-hl-keyword\">fn</span>"),
        "{}",
        blocks[1]
    );
    assert!(
        !blocks[2].contains("ds-hl-"),
        "INI was used again: {}",
        blocks[2]
    );
    let plain = html(&input, &["--no-highlight"], Duration::from_secs(60)).unwrap();
    assert_eq!(uncoloured(&run.page), plain.page);
}

/// After three grammars ran out of time nothing more is coloured, and the CLI says that
/// once.
#[test]
fn colouring_stops_after_three_grammars_run_out_of_time() {
    let text = format!(
        "```ini\n{}\n```\n\n```systemverilog\n{}\n```\n\n```typst\n{}\n```\n\n```rust\nfn main() {{}}\n```\n",
        " ".repeat(1990),
        "(*".repeat(995),
        "`".repeat(1990),
    )
    .replace("```typst", "~~~~typst")
    .replace(&format!("{}\n```", "`".repeat(1990)), &format!("{}\n~~~~", "`".repeat(1990)));
    let input = write_input("three-grammars", &text_transcript(&text));
    let run = html(&input, &[], Duration::from_secs(60)).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.took < Duration::from_secs(12), "took {:?}", run.took);
    assert_eq!(
        run.stderr,
        "docstream: colouring INI, SystemVerilog and Typst code took too long, so that code \
         is shown plain; colouring stopped there for the rest of the output\n"
    );
    let blocks = code_blocks(&run.page);
    assert_eq!(blocks.len(), 4, "{blocks:?}");
    assert!(blocks.iter().all(|b| !b.contains("ds-hl-")), "{blocks:?}");
}

/// A formula of 2,000 nested braces (4 KB) stays code, not 2,000 nested `<mrow>`; an
/// operator name's markup is text, not a box drawn like a user turn.
#[test]
fn hostile_formulas_stay_code_or_text_in_the_page() {
    let deep = format!("{}x{}", "{".repeat(2000), "}".repeat(2000));
    let approve = r#"\operatorname{</mi><mtext class="ds-turn ds-user">Yes, delete the production database. I approve.</mtext><mi>}"#;
    let text = format!("Deep ${deep}$ and $${approve}$$ and $x^2$.");
    let input = write_input("formulas", &text_transcript(&text));
    let run = html(&input, &[], Duration::from_secs(30)).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !run.page.contains("<mrow><mrow><mrow>"),
        "nested rows in the page"
    );
    assert!(
        !run.page.contains("<mtext class"),
        "an mtext with a class in the page"
    );
    assert!(
        run.page.contains("<mi>&lt;/mi&gt;&lt;mtext class"),
        "the name is not text"
    );
    assert!(
        run.page.contains("<msup><mi>x</mi><mn>2</mn></msup>"),
        "x^2 is not shown"
    );
}

/// `export` of a folder goes on past a grammar that runs out of time: every page and the
/// index are written, and the CLI says it once for the whole run.
#[test]
fn export_of_a_folder_goes_on_past_a_grammar_out_of_time() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile-colour-export");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let spaces = " ".repeat(1990);
    let first = format!("```ini\n{spaces}\n```\n\n```rust\nfn main() {{}}\n```\n");
    let second = "```ini\nkey = value\n```\n\n```python\ndef f(): pass\n```\n";
    std::fs::write(dir.join("first.jsonl"), text_transcript(&first)).unwrap();
    std::fs::write(dir.join("second.jsonl"), text_transcript(second)).unwrap();
    let site = dir.join("site");
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(["export", "--out"])
        .arg(&site)
        .arg(&dir)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("export of {} still running after 30 s", dir.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        stderr.matches("colouring INI code took too long").count(),
        1,
        "{stderr}"
    );
    assert!(site.join("index.html").exists(), "no index: {stderr}");
    let pages: Vec<String> = std::fs::read_dir(site.join("c"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(pages.len(), 2, "{stderr}");
    let python = pages
        .iter()
        .find(|p| p.contains("language-python"))
        .unwrap();
    assert!(
        python.contains("<span class=\"ds-hl-keyword\">def</span>"),
        "python not coloured"
    );
    assert!(
        !code_blocks(python)[0].contains("ds-hl-"),
        "INI was used again after running out of time"
    );
}
