//! The JavaScript API, run as WebAssembly in Node (`cargo test --target
//! wasm32-unknown-unknown --features wasm`): push, finish, errors, snapshot shape, and
//! chunk invariance on a few fixtures.
#![cfg(all(target_arch = "wasm32", feature = "wasm"))]

use docstream::wasm::JsDocStream;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const FIXTURES: [&[u8]; 3] = [
    include_bytes!("fixtures/cursor-stream-json/tools.jsonl"),
    include_bytes!("fixtures/cursor-stream-json/crlf_bom_error.jsonl"),
    include_bytes!("fixtures/document-sse/stream.sse"),
];

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn snapshot_json(chunks: &[&[u8]]) -> String {
    let mut s = JsDocStream::new(None).unwrap();
    for c in chunks {
        s.push(Uint8Array::from(*c).into()).unwrap();
    }
    s.finish().unwrap();
    js_sys::JSON::stringify(&s.snapshot().unwrap())
        .unwrap()
        .as_string()
        .unwrap()
}

#[wasm_bindgen_test]
fn snapshot_has_the_seed_shape() {
    let mut s = JsDocStream::new(None).unwrap();
    s.push(JsValue::from_str(std::str::from_utf8(FIXTURES[0]).unwrap()))
        .unwrap();
    s.finish().unwrap();
    assert_eq!(s.format().as_deref(), Some("cursor-stream-json"));
    let snap = s.snapshot().unwrap();
    let turns: js_sys::Array = get(&snap, "turns").dyn_into().unwrap();
    let response = turns.get(1);
    assert_eq!(
        get(&response, "status").as_string().as_deref(),
        Some("completed")
    );
    let doc = js_sys::Array::from(&get(&response, "documents")).get(0);
    assert_eq!(get(&doc, "id").as_string().as_deref(), Some("doc_001"));
    assert_eq!(get(&doc, "sequence").as_f64(), Some(1.0));
    assert_eq!(
        get(&get(&response, "metadata"), "toolCallCount").as_f64(),
        Some(9.0)
    );
}

#[wasm_bindgen_test]
fn chunkings_give_the_same_snapshot() {
    for input in FIXTURES {
        let whole = snapshot_json(&[input]);
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(snapshot_json(&bytes), whole);
        let sevens: Vec<&[u8]> = input.chunks(7).collect();
        assert_eq!(snapshot_json(&sevens), whole);
    }
}

#[wasm_bindgen_test]
fn errors_carry_stable_codes() {
    let mut s = JsDocStream::new(None).unwrap();
    s.finish().unwrap();
    let err = s.push(JsValue::from_str("{}")).unwrap_err();
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("DS_FINISHED")
    );
    let mut s = JsDocStream::new(None).unwrap();
    let err = s.push(JsValue::from_f64(3.0)).unwrap_err();
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("DS_BAD_CHUNK")
    );
    let options = js_sys::Object::new();
    Reflect::set(&options, &"format".into(), &"no-such-format".into()).unwrap();
    let err = JsDocStream::new(Some(options.into())).err().unwrap();
    assert_eq!(
        get(&err, "code").as_string().as_deref(),
        Some("DS_UNKNOWN_FORMAT")
    );
}
