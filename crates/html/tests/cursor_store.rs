//! Cursor's saved conversations with parts of the wrong type: no panic, the bad part is
//! reported, and the rest is read. The fixtures of `tests/fixtures/cursor-store/` stay
//! valid JSON while a value anywhere inside them is replaced with one of another type.

use docstream_testkit as support;

use std::path::Path;

use docstream_core::Format;
use docstream_core::model::Meta;
use docstream_html::{RenderOptions, render_conversation};
use serde_json::{Value, json};
use support::{Rng, feed};

fn fixtures() -> Vec<Value> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/cursor-store");
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| !p.to_string_lossy().contains(".expected."))
        .collect();
    all.sort();
    all.iter()
        .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
        .collect()
}

/// Every node of a JSON value, as JSON pointers.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, c) in o {
                pointers(
                    c,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                )
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                pointers(c, format!("{at}/{i}"), out)
            }
        }
        _ => {}
    }
    out.push(at);
}

#[test]
fn values_of_the_wrong_type_never_panic() {
    let replacements = [
        json!(null),
        json!(7),
        json!(-1.5),
        json!(true),
        json!("{"),
        json!("[1,"),
        json!("plain"),
        json!([]),
        json!([1, "x", null]),
        json!({}),
        json!({"type": 9, "text": 3}),
        json!(1e300),
    ];
    for seed in support::seeds() {
        let mut rng = Rng::new(seed);
        for fixture in fixtures() {
            let mut all = Vec::new();
            pointers(&fixture, String::new(), &mut all);
            for _ in 0..60 {
                let mut v = fixture.clone();
                for _ in 0..1 + rng.below(3) {
                    let at = &all[rng.below(all.len())];
                    let with = replacements[rng.below(replacements.len())].clone();
                    if at.is_empty() {
                        continue;
                    }
                    if let Some(node) = v.pointer_mut(at) {
                        *node = with;
                    }
                }
                let bytes = serde_json::to_vec_pretty(&v).unwrap();
                let cuts = support::random_cuts(bytes.len(), seed, 64);
                let stream = feed(&bytes, Some(Format::CursorStore), &cuts);
                let _ = render_conversation(stream.conversation(), &RenderOptions::default());
            }
        }
    }
}

#[test]
fn a_bad_bubble_costs_only_itself() {
    let doc = json!({
        "fullConversationHeadersOnly": [
            {"bubbleId": "a", "type": 1}, {"bubbleId": "b", "type": 2},
            {"bubbleId": "c", "type": 2}, {"bubbleId": "d", "type": 2}
        ],
        "conversationMap": {
            "a": {"text": "hi"},
            "b": {"text": {"not": "a string"}},
            "c": {"toolFormerData": {"name": "read_file", "status": 5}},
            "d": {"text": "still here", "toolFormerData": {"name": "grep", "rawArgs": "{\"q\": 1", "status": "completed"}}
        }
    });
    let bytes = serde_json::to_vec(&doc).unwrap();
    let stream = feed(&bytes, None, &[]);
    assert_eq!(stream.format(), Some(Format::CursorStore));
    let c = stream.conversation();
    let errors: Vec<(&str, &str)> = c
        .documents()
        .filter_map(|d| match &d.meta {
            Meta::Error(e) => Some((e.source.as_str(), e.error_code.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        errors,
        [
            ("bubble b", "INVALID_EVENT"),
            ("bubble c", "INVALID_EVENT"),
            ("bubble d", "MALFORMED_JSON")
        ]
    );
    let texts: Vec<&str> = c.documents().map(|d| d.text()).collect();
    assert!(texts.contains(&"still here"), "{texts:?}");
    let calls: Vec<_> = c
        .documents()
        .filter_map(|d| match &d.meta {
            Meta::ToolCall(t) => Some(t),
            _ => None,
        })
        .collect();
    // The read_file call with a bad status is kept, as not finished.
    assert_eq!(calls[0].tool_name, "read_file");
    assert!(calls[0].result.is_none());
    // The grep call is kept, with the arguments it had as text.
    assert_eq!(calls[1].tool_name, "grep");
    assert_eq!(calls[1].arguments, json!("{\"q\": 1"));
}
