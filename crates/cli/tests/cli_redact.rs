//! `docstream html --redact`: no secret of the session reaches the page, the page header
//! and stderr say how many were masked, and the page is the same with `--chunk`.

use std::process::{Command, Output};

const SESSION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../redact/tests/corpus/session.jsonl"
);
const SECRETS: &str = include_str!("../../redact/tests/corpus/session.secrets.txt");

/// `docstream COMMAND ARGS… SESSION`, which must succeed.
fn run(command: &str, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .arg(command)
        .args(args)
        .arg(SESSION)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{command} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn html(args: &[&str]) -> Output {
    run("html", args)
}

#[test]
fn redact_masks_every_secret_and_says_how_many() {
    let plain = String::from_utf8(html(&[]).stdout).unwrap();
    let out = html(&["--redact"]);
    let page = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    for secret in SECRETS.lines().filter(|l| !l.starts_with('#')) {
        assert!(plain.contains(secret), "{secret}: not in the plain page");
        assert!(
            !page.contains(secret),
            "{secret}: left in the --redact page"
        );
    }
    assert!(page.contains("[redacted: github-token]"));
    assert!(!plain.contains("ds-fact-redacted"));
    let fact = page
        .split("<div class=\"ds-fact ds-fact-redacted\">")
        .nth(1)
        .and_then(|s| s.split("</div>").next())
        .unwrap_or_else(|| panic!("no count in the page header"));
    let n: u64 = fact
        .split("<dd>")
        .nth(1)
        .and_then(|s| s.split([' ', '<']).next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no number in {fact:?}"));
    assert!(n >= 12, "{fact}");
    assert!(fact.contains("github-token"), "{fact}");
    assert!(
        stderr.contains(&format!("{n} secrets masked (")),
        "stderr: {stderr}"
    );
    for chunk in ["1", "97"] {
        let chunked = html(&["--redact", "--chunk", chunk]).stdout;
        assert!(
            chunked == page.as_bytes(),
            "--redact --chunk {chunk} differs"
        );
    }
}

/// `html --redact --conversation ID PATH`: a store's conversation, its title (the first
/// prompt's words) included.
#[test]
fn redact_masks_a_stores_conversation_and_its_title() {
    let dir = std::env::temp_dir().join(format!("docstream-redact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(SESSION, dir.join("session.jsonl")).unwrap();
    let run = |redact: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_docstream"));
        cmd.arg("html");
        if redact {
            cmd.arg("--redact");
        }
        let out = cmd
            .args(["--conversation", "session"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (plain, _) = run(false);
    let (page, stderr) = run(true);
    let title = |p: &str| {
        p.split("<title>")
            .nth(1)
            .unwrap()
            .split("</title>")
            .next()
            .unwrap()
            .to_owned()
    };
    assert!(title(&plain).contains("ghp_"), "{}", title(&plain));
    assert!(!title(&page).contains("ghp_"), "{}", title(&page));
    for secret in SECRETS.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            !page.contains(secret),
            "{secret}: left in the --redact page"
        );
    }
    assert!(page.contains("ds-fact-redacted"));
    assert!(
        stderr.contains("session: ") && stderr.contains("secrets masked ("),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn md(args: &[&str]) -> Output {
    run("md", args)
}

#[test]
fn markdown_is_masked_unless_no_redact_is_given() {
    let out = md(&[]);
    let masked = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let kept = String::from_utf8(md(&["--no-redact"]).stdout).unwrap();
    for secret in SECRETS.lines().filter(|l| !l.starts_with('#')) {
        assert!(kept.contains(secret), "{secret}: not kept with --no-redact");
        assert!(!masked.contains(secret), "{secret}: left in the Markdown");
    }
    assert!(masked.contains("[redacted: github-token]"), "{masked}");
    assert!(stderr.contains(" secrets masked ("), "stderr: {stderr}");
    let wrong = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(["html", "--no-redact", SESSION])
        .output()
        .unwrap();
    assert_eq!(
        wrong.status.code(),
        Some(2),
        "--no-redact is not an html option"
    );
}

/// `export` (a site, or `--to md`): every page, the index and the search data masked
/// by default, titles cut inside a credential included; `--no-redact` keeps them.
#[test]
fn export_is_masked_unless_no_redact_is_given() {
    let dir = std::env::temp_dir().join(format!("docstream-export-redact-{}", std::process::id()));
    let store = dir.join("store");
    std::fs::create_dir_all(&store).unwrap();
    let session = std::fs::read_to_string(SESSION).unwrap();
    std::fs::write(store.join("session.jsonl"), &session).unwrap();
    // A first prompt whose title is cut inside a token.
    let cut = session.replacen(
        "Deploy with my token ghp_",
        "Deploy with https://example.com/deploy/guide/for/the/shop/service/today?id=ghp_",
        1,
    );
    assert_ne!(cut, session);
    std::fs::write(store.join("cut.jsonl"), &cut).unwrap();
    let files = |out: &std::path::Path| {
        let mut texts = Vec::new();
        let mut dirs = vec![out.to_path_buf()];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap().map(Result::unwrap) {
                if e.file_type().unwrap().is_dir() {
                    dirs.push(e.path());
                } else if let Ok(text) = std::fs::read_to_string(e.path()) {
                    texts.push((e.path(), text));
                }
            }
        }
        texts
    };
    for to in ["html", "md"] {
        let export = |extra: &[&str], out: &str| {
            let out = dir.join(out);
            let o = Command::new(env!("CARGO_BIN_EXE_docstream"))
                .args(["export", "--to", to, "--out"])
                .arg(&out)
                .args(extra)
                .arg(&store)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{to}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            (out, String::from_utf8(o.stderr).unwrap())
        };
        let (masked, stderr) = export(&[], &format!("masked-{to}"));
        assert!(
            stderr.contains(" secrets masked ("),
            "{to}: stderr: {stderr}"
        );
        let texts = files(&masked);
        assert!(texts.len() >= 3, "{to}: {texts:?}");
        for (path, text) in &texts {
            for secret in SECRETS.lines().filter(|l| !l.starts_with('#')) {
                assert!(
                    !text.contains(secret),
                    "{to}: {secret} left in {}",
                    path.display()
                );
            }
            // What a cut title may hold of the token.
            assert!(
                !text.contains("ghp_0123456789"),
                "{to}: a cut token in {}",
                path.display()
            );
        }
        let (kept, _) = export(&["--no-redact"], &format!("kept-{to}"));
        assert!(
            files(&kept)
                .iter()
                .any(|(_, t)| t.contains("ghp_0123456789abcdefghijABCDEFGHIJ012345")),
            "{to}: --no-redact masked the token"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
