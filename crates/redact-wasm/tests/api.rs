//! The masking module as JavaScript calls it (run as WebAssembly in Node): a snapshot
//! masked keeps no secret, its title neither, and reads back with its links.
#![cfg(any(target_arch = "wasm32", clippy))]

use docstream_core::{DocStream, Options};
use docstream_model::snapshot::read_snapshot;
use docstream_redact_wasm::mask_snapshot;
use js_sys::{Array, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

const SESSION: &[u8] = include_bytes!("../../redact/tests/corpus/session.jsonl");
const SECRETS: &str = include_str!("../../redact/tests/corpus/session.secrets.txt");
const SUBAGENTS: &[u8] =
    include_bytes!("../../../tests/fixtures/claude-code-stream-json/subagents.jsonl");

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

/// A stream's snapshot, as `__snapshotJson()` writes it.
fn snapshot(input: &[u8]) -> String {
    let mut s = DocStream::new(Options::default());
    s.push(input).unwrap();
    s.finish().unwrap();
    serde_json::to_string(s.conversation()).unwrap()
}

#[wasm_bindgen_test]
fn a_masked_snapshot_keeps_no_secret_and_its_links() {
    let json = snapshot(SESSION);
    let secrets: Vec<&str> = SECRETS.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        secrets.iter().all(|s| json.contains(s)),
        "the session holds them"
    );
    let title = "Deploy with https://example.com/deploy/guide/for/the/shop/service/today?id=ghp_0123456789abcdefghij…";
    let out = mask_snapshot(&json, Some(title.into())).unwrap();
    assert_eq!(
        get(&out, "title").as_string().as_deref(),
        Some("Deploy with [redacted: truncated]…")
    );
    let masked = get(&out, "snapshot").as_string().unwrap();
    for secret in &secrets {
        assert!(!masked.contains(secret), "{secret} left");
    }
    assert!(masked.contains("[redacted: github-token]"));
    let total: f64 = Array::from(&get(&out, "masked"))
        .iter()
        .map(|pair| Array::from(&pair).get(1).as_f64().unwrap())
        .sum();
    assert!(total >= 12.0, "{total} masked");

    // Sub-agent runs stay linked to their calls.
    let json = snapshot(SUBAGENTS);
    let masked = get(&mask_snapshot(&json, None).unwrap(), "snapshot")
        .as_string()
        .unwrap();
    let links = |json: &str| {
        let c = read_snapshot(json).unwrap();
        (0..c.turns.len())
            .map(|t| c.subagent_parent(t))
            .collect::<Vec<_>>()
    };
    assert!(
        links(&json).iter().any(Option::is_some),
        "the fixture has runs"
    );
    assert_eq!(links(&masked), links(&json));

    let error = mask_snapshot("{\"turns\": 1}", None).unwrap_err();
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("DS_BAD_INPUT")
    );
}
