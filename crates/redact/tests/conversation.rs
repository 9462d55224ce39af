//! A whole session with secrets in every kind of text: masked the same under every
//! chunking, nothing of a secret left in its JSON or HTML, the Markdown around a mask
//! unchanged.

use docstream_core::Format;
use docstream_html::{RenderOptions, render_conversation};
use docstream_model::{Document, Meta, Turn};
use docstream_redact::{Report, mask_conversation};
use docstream_testkit::{chunkings, feed};

const SESSION: &[u8] = include_bytes!("corpus/session.jsonl");
const SECRETS: &str = include_str!("corpus/session.secrets.txt");

fn secrets() -> Vec<&'static str> {
    SECRETS.lines().filter(|l| !l.starts_with('#')).collect()
}

fn masked(cuts: &[usize]) -> (String, String, Report) {
    let stream = feed(SESSION, Some(Format::ClaudeCodeStreamJson), cuts);
    let mut conversation = stream.conversation().clone();
    let report = mask_conversation(&mut conversation);
    let json = serde_json::to_string_pretty(&conversation).unwrap();
    let html = render_conversation(&conversation, &RenderOptions::default());
    (json, html, report)
}

#[test]
fn every_text_is_masked_under_every_chunking() {
    let (json, html, report) = masked(&[]);
    // The unmasked session does hold them (the test could not pass by losing text).
    let plain = serde_json::to_string(
        feed(SESSION, Some(Format::ClaudeCodeStreamJson), &[]).conversation(),
    )
    .unwrap();
    for secret in secrets() {
        assert!(plain.contains(secret), "{secret}: not in the session");
        assert!(!json.contains(secret), "{secret}: left in the masked JSON");
        assert!(!html.contains(secret), "{secret}: left in the masked HTML");
    }
    for kind in [
        "github-token",
        "aws-access-key-id",
        "aws-secret-access-key",
        "jwt",
        "openai-api-key",
        "stripe-key",
        "slack-token",
        "npm-token",
        "huggingface-token",
        "connection-string-password",
        "secret-assignment",
    ] {
        assert!(report.count(kind) > 0, "{kind}: none masked ({report})");
        assert!(
            html.contains(&format!("[redacted: {kind}]")),
            "{kind}: no mask in the HTML"
        );
    }
    // The look-alikes of the session stay.
    assert!(html.contains("3f786850e387550fdab836ed7e6dc881de23001b"));
    assert!(html.contains("<code>sk-</code>"));
    for (name, cuts) in chunkings(SESSION.len()) {
        let (j, h, r) = masked(&cuts);
        assert!(j == json, "{name}: the masked JSON differs");
        assert!(h == html, "{name}: the masked HTML differs");
        assert_eq!(r, report, "{name}: the counts differ");
    }
}

/// The tags of an HTML fragment, in order, without their attributes.
fn tags(html: &str) -> Vec<&str> {
    html.split('<')
        .skip(1)
        .map(|t| t.split(['>', ' ']).next().unwrap_or(""))
        .collect()
}

#[test]
fn markdown_around_a_mask_keeps_its_structure() {
    let stream = feed(SESSION, Some(Format::ClaudeCodeStreamJson), &[]);
    let plain = stream.conversation().clone();
    let mut conversation = plain.clone();
    let _ = mask_conversation(&mut conversation);
    let opts = RenderOptions::default();
    let text_docs = |c: &docstream_model::Conversation| -> Vec<Document> {
        c.turns
            .iter()
            .filter_map(|t| match t {
                Turn::Assistant(r) => Some(r.documents.clone()),
                Turn::User(_) => None,
            })
            .flatten()
            .filter(|d| matches!(d.meta, Meta::Text(_)))
            .collect()
    };
    let before = text_docs(&plain);
    let after = text_docs(&conversation);
    assert!(before.len() >= 3);
    let mut changed = 0;
    for (b, a) in before.iter().zip(&after) {
        if a.content != b.content {
            changed += 1;
        }
        let one = |d: &Document| {
            let mut c = plain.clone();
            if let Some(Turn::Assistant(r)) = c.turns.get_mut(1) {
                r.documents = vec![d.clone()];
            }
            c.turns.truncate(2);
            render_conversation(&c, &opts)
        };
        let (hb, ha) = (one(b), one(a));
        assert_eq!(
            tags(&hb),
            tags(&ha),
            "the structure changed around a mask:\n{:?}\n{hb}\n{ha}",
            a.content
        );
    }
    assert!(changed >= 2, "the test's text documents hold no secret");
}
