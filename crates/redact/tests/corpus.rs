//! The redaction corpus: one true positive a rule, all masked as expected; look-alikes,
//! none masked.

use std::collections::BTreeSet;

use docstream_redact::{Redactor, Report, kinds, mask_str};

const POSITIVES: &str = include_str!("corpus/positives.txt");
const LOOKALIKES: &str = include_str!("corpus/lookalikes.txt");

/// `(header, body)` of each `=== header` case (comment lines before the first left out).
fn cases(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    for part in text.split("\n=== ").skip(1) {
        let (head, body) = part.split_once('\n').unwrap_or((part, ""));
        out.push((head, body.strip_suffix('\n').unwrap_or(body)));
    }
    out
}

#[test]
fn every_positive_is_masked() {
    let mut failures = Vec::new();
    let mut seen = BTreeSet::new();
    for (kind, body) in cases(POSITIVES) {
        let (input, expected) = body
            .split_once("\n---\n")
            .unwrap_or_else(|| panic!("{kind}: no `---` line"));
        let (masked, report) = mask_str(input);
        if masked != expected {
            failures.push(format!(
                "{kind}:\n  input:    {input:?}\n  masked:   {masked:?}\n  expected: {expected:?}"
            ));
        }
        if report.count(kind) == 0 {
            failures.push(format!("{kind}: not counted ({report}) for {input:?}"));
        }
        // Masking again changes nothing.
        let (again, report) = mask_str(&masked);
        if again != masked || report.total() != 0 {
            failures.push(format!("{kind}: masked again: {again:?}"));
        }
        seen.insert(kind);
    }
    for kind in kinds() {
        if !seen.contains(kind) {
            failures.push(format!("{kind}: no true positive in the corpus"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn no_lookalike_is_masked() {
    let mut failures = Vec::new();
    for (what, text) in cases(LOOKALIKES) {
        let (masked, report) = mask_str(text);
        if masked != text {
            failures.push(format!(
                "{what} ({report}):\n  input:  {text:?}\n  masked: {masked:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn same_value_same_mask_and_counts_add_up() {
    let key = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let text = format!("a {key} b {key} c AKIAIOSFODNN7EXAMPLE");
    let mut report = Report::default();
    let masked = Redactor::global().mask(&text, &mut report);
    assert_eq!(
        masked,
        "a [redacted: github-token] b [redacted: github-token] c [redacted: aws-access-key-id]"
    );
    assert_eq!(report.count("github-token"), 2);
    assert_eq!(report.total(), 3);
    assert_eq!(
        report.to_string(),
        "3 secrets masked (1 aws-access-key-id, 2 github-token)"
    );
}

#[test]
fn hostile_text_is_masked_in_linear_time() {
    // Long runs of what the rules' prefixes and bodies are made of: nothing here may
    // take more than a moment (the regex crate guarantees linear time; this guards a
    // rule that would make the post-checks quadratic).
    let inputs = [
        "sk-".repeat(100_000),
        "a".repeat(300_000),
        "TOKEN=".repeat(50_000),
        "-----BEGIN RSA PRIVATE KEY-----\n".repeat(5_000),
        "eyJ".repeat(100_000) + ".",
        "postgres://u:".repeat(20_000),
    ];
    for input in &inputs {
        let start = std::time::Instant::now();
        let _ = mask_str(input);
        assert!(
            start.elapsed().as_secs() < 10,
            "{:?}…: {:?}",
            &input[..40],
            start.elapsed()
        );
    }
}

#[test]
fn a_title_cut_inside_a_credential_keeps_none_of_it() {
    // Each positive's secret, cut anywhere from 12 characters in to one before its end,
    // as a listing cuts a first prompt to a line: no piece of 12 characters of the
    // secret may stay.
    let mut failures = Vec::new();
    for (kind, body) in cases(POSITIVES) {
        let (input, expected) = body.split_once("\n---\n").unwrap();
        let input = input.lines().next().unwrap_or("");
        let expected = expected.lines().next().unwrap_or("");
        let start = input
            .bytes()
            .zip(expected.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let tail = input
            .bytes()
            .rev()
            .zip(expected.bytes().rev())
            .take_while(|(a, b)| a == b)
            .count();
        if start + tail >= input.len() {
            continue; // The secret is not on the first line.
        }
        let secret = &input[start..input.len() - tail];
        // The public head of a shape is no secret: a PEM header, a webhook's host.
        let public = [
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "https://hooks.slack.com/",
        ]
        .iter()
        .find(|p| secret.starts_with(**p))
        .map_or(0, |p| p.len());
        for cut in (start + 12)..(start + secret.len()) {
            if !input.is_char_boundary(cut) {
                continue;
            }
            let title = format!("{}…", &input[..cut]);
            let mut report = Report::default();
            let masked = Redactor::global().mask_title(&title, &mut report);
            // Pieces of what the title holds of the secret.
            let held = &secret[..cut - start];
            let leaked = (public..held.len().saturating_sub(11))
                .filter(|&i| held.is_char_boundary(i) && held.is_char_boundary(i + 12))
                .map(|i| &held[i..i + 12])
                .find(|piece| masked.contains(piece));
            if let Some(piece) = leaked {
                failures.push(format!(
                    "{kind}: {title:?} masked as {masked:?} keeps {piece:?}"
                ));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_cut_title_of_words_stays() {
    for title in [
        "Refactor the parser so that streaming stays linear in the size of each…",
        "Why does the build of docstream-html take so long on a cold…",
        "Fix issue 1234 in the viewer…",
        "Explain [redacted: jwt]…",
        "not cut at all, with sk-ant-api03 in it",
    ] {
        let mut report = Report::default();
        let masked = Redactor::global().mask_title(title, &mut report);
        assert_eq!(masked, title, "{title:?}");
        assert_eq!(report.total(), 0, "{title:?}");
    }
    let mut report = Report::default();
    let masked = Redactor::global().mask_title("Use the key sk-ant-api03-ahovCJQX…", &mut report);
    assert_eq!(masked, "Use the key [redacted: truncated]…");
    assert_eq!(report.count("truncated"), 1);
}
