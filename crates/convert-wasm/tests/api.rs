//! The seed 002 conversions' JavaScript API (`pkg/convert_bg.wasm`), run as WebAssembly
//! in Node: each gives what the Rust function gives, errors carry their codes.
#![cfg(any(target_arch = "wasm32", clippy))]

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn code(err: &JsValue) -> Option<String> {
    assert!(err.is_instance_of::<js_sys::Error>(), "{err:?} is an Error");
    get(err, "code").as_string()
}

fn stringify(v: &JsValue) -> String {
    js_sys::JSON::stringify(v).unwrap().as_string().unwrap()
}

fn parse(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

const ANTHROPIC_HISTORY: &str = r#"[
    {"role": "user", "content": "Read main.go"},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "Need the file."},
        {"type": "text", "text": "Let me read that file."},
        {"type": "tool_use", "id": "toolu_01abc", "name": "read_file", "input": {"path": "/src/main.go", "limit": 10}}
    ]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_01abc", "content": "package main"}
    ]}
]"#;

#[wasm_bindgen_test]
fn messages_convert_both_ways_as_the_rust_functions_do() {
    use docstream_convert::messages;
    use docstream_convert_wasm::{messages_to_anthropic, messages_to_openai};
    let history: Vec<serde_json::Value> = serde_json::from_str(ANTHROPIC_HISTORY).unwrap();
    let openai = messages_to_openai(parse(ANTHROPIC_HISTORY)).unwrap();
    assert_eq!(
        stringify(&openai),
        serde_json::to_string(&messages::to_openai(&history)).unwrap()
    );
    let call = Array::from(&get(&Array::from(&openai).get(1), "tool_calls")).get(0);
    // Integers stay integers in the arguments string.
    assert_eq!(
        get(&get(&call, "function"), "arguments")
            .as_string()
            .as_deref(),
        Some(r#"{"path":"/src/main.go","limit":10}"#)
    );
    let tool = Array::from(&openai).get(2);
    assert_eq!(get(&tool, "role").as_string().as_deref(), Some("tool"));
    let back = messages_to_anthropic(openai).unwrap();
    assert_eq!(stringify(&back), serde_json::to_string(&history).unwrap());

    for bad in [
        JsValue::from_str("not messages"),
        JsValue::UNDEFINED,
        js_sys::BigInt::from(1u32).into(),
    ] {
        let err = messages_to_openai(bad).unwrap_err();
        assert_eq!(code(&err).as_deref(), Some("DS_BAD_INPUT"));
    }
    // A cycle cannot be JSON.
    let cyclic = Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).unwrap();
    let err = messages_to_anthropic(Array::of1(&cyclic).into()).unwrap_err();
    assert_eq!(code(&err).as_deref(), Some("DS_BAD_INPUT"));
}

#[wasm_bindgen_test]
fn tools_choice_and_schema() {
    use docstream_convert_wasm::{
        clean_schema_for_gemini, tool_choice_to_anthropic, tool_choice_to_openai,
        tools_to_anthropic, tools_to_openai,
    };
    let flat = r#"[{"name":"read_file","description":"Read file content","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}]"#;
    let nested = tools_to_openai(parse(flat)).unwrap();
    assert_eq!(
        stringify(&nested),
        r#"[{"type":"function","function":{"name":"read_file","description":"Read file content","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}]"#
    );
    assert_eq!(stringify(&tools_to_anthropic(nested).unwrap()), flat);
    let err = tools_to_openai(parse(r#"[{"description":"no name"}]"#)).unwrap_err();
    assert_eq!(code(&err).as_deref(), Some("DS_BAD_INPUT"));
    assert!(get(&err, "message").as_string().unwrap().contains("name"));

    let choice = |json: &str| stringify(&tool_choice_to_openai(parse(json)).unwrap());
    assert_eq!(choice(r#"{"type":"auto"}"#), r#""auto""#);
    assert_eq!(choice(r#"{"type":"any"}"#), r#""required""#);
    assert_eq!(
        choice(r#"{"type":"tool","name":"grep"}"#),
        r#"{"type":"function","function":{"name":"grep"}}"#
    );
    assert!(
        tool_choice_to_openai(parse(r#"{"type":"weird"}"#))
            .unwrap()
            .is_undefined()
    );
    assert_eq!(
        stringify(&tool_choice_to_anthropic("required".into()).unwrap()),
        r#"{"type":"any"}"#
    );
    assert!(
        tool_choice_to_anthropic(JsValue::from_f64(2.0))
            .unwrap()
            .is_undefined()
    );

    let schema = parse(
        r#"{"$schema":"x","type":"object","title":"T","additionalProperties":false,
            "properties":{"n":{"anyOf":[{"type":"null"},{"type":"integer","default":1}]}}}"#,
    );
    assert_eq!(
        stringify(&clean_schema_for_gemini(schema).unwrap()),
        r#"{"type":"OBJECT","properties":{"n":{"type":"INTEGER"}}}"#
    );
}

#[wasm_bindgen_test]
fn thinking_rules_and_the_signature_cache_class() {
    use docstream_convert_wasm::{
        JsSignatureCache, history_disables_thinking, model_supports_thinking,
        thinking_enabled_by_default,
    };
    assert!(model_supports_thinking("claude-sonnet-4-5"));
    assert!(!model_supports_thinking("gemini-2.5-flash"));
    assert!(thinking_enabled_by_default("claude-opus-4-5"));
    assert!(!thinking_enabled_by_default("claude-sonnet-4-5"));
    let tools_only = r#"[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]}]"#;
    assert!(history_disables_thinking(parse(tools_only)).unwrap());
    assert!(!history_disables_thinking(parse(ANTHROPIC_HISTORY)).unwrap());

    let mut cache = JsSignatureCache::new();
    assert_eq!(cache.longest(), None);
    let check = |c: &mut JsSignatureCache, t: &str, s: &str| stringify(&c.check(t, s).unwrap());
    assert_eq!(check(&mut cache, "hm", "short"), r#"{"action":"text"}"#);
    assert_eq!(check(&mut cache, "", ""), r#"{"action":"drop"}"#);
    let good = "s".repeat(60);
    assert_eq!(
        check(&mut cache, "hm", &good),
        format!(r#"{{"action":"thinking","signature":"{good}"}}"#)
    );
    assert_eq!(
        check(&mut cache, "again", "short"),
        format!(r#"{{"action":"thinking","signature":"{good}"}}"#)
    );
    assert_eq!(cache.longest(), Some(good.clone()));
    // Each cache is its own: a fresh one has seen nothing.
    let mut other = JsSignatureCache::new();
    assert_eq!(check(&mut other, "hm", "short"), r#"{"action":"text"}"#);
    other.observe(&"o".repeat(80));
    assert_eq!(other.longest(), Some("o".repeat(80)));
    assert_eq!(cache.longest(), Some(good.clone()));

    let history = r#"[{"role":"assistant","content":[{"type":"thinking","thinking":"a","signature":"bad"},{"type":"thinking","thinking":""}]}]"#;
    let fixed = cache.repair_history(parse(history)).unwrap();
    assert_eq!(
        stringify(&fixed),
        format!(
            r#"[{{"role":"assistant","content":[{{"type":"thinking","thinking":"a","signature":"{good}"}}]}}]"#
        )
    );
    let err = cache.repair_history(JsValue::from_f64(1.0)).unwrap_err();
    assert_eq!(code(&err).as_deref(), Some("DS_BAD_INPUT"));
}

#[wasm_bindgen_test]
fn gemini_stream_to_openai_chunks() {
    use docstream_convert::gemini_to_openai::GeminiToOpenAi;
    use docstream_convert_wasm::JsGeminiToOpenAi;
    let sig = "q".repeat(64);
    let events = [
        format!(
            r#"{{"response":{{"candidates":[{{"content":{{"parts":[{{"text":"Check the file","thought":true,"thoughtSignature":"{sig}"}}]}}}}]}}}}"#
        ),
        r#"{"candidates":[{"content":{"parts":[{"text":"Reading it."},{"functionCall":{"name":"read_file","args":{"path":"/src/main.go"}}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"thoughtsTokenCount":3,"totalTokenCount":18}}"#.to_owned(),
    ];
    let mut js = JsGeminiToOpenAi::new("chatcmpl-1", "gemini-3-pro");
    let mut rust = GeminiToOpenAi::new("chatcmpl-1", "gemini-3-pro");
    for (i, event) in events.iter().enumerate() {
        // Strings and parsed objects are both accepted.
        let input = if i == 0 {
            JsValue::from_str(event)
        } else {
            parse(event)
        };
        let chunks = js.convert(input).unwrap();
        assert_eq!(
            stringify(&chunks),
            serde_json::to_string(&rust.convert(event).unwrap()).unwrap()
        );
    }
    assert_eq!(js.longest_signature(), Some(sig));
    let err = js.convert("{not json".into()).unwrap_err();
    assert_eq!(code(&err).as_deref(), Some("DS_BAD_INPUT"));
    // The converter goes on after bad input: the tool index continues.
    let chunks = js
        .convert(
            r#"{"candidates":[{"content":{"parts":[{"functionCall":{"name":"b","args":{}}}]}}]}"#
                .into(),
        )
        .unwrap();
    let delta = get(&Array::from(&chunks).get(0), "choices");
    let call = Array::from(&get(
        &get(&Array::from(&delta).get(0), "delta"),
        "tool_calls",
    ))
    .get(0);
    assert_eq!(get(&call, "index").as_f64(), Some(1.0));
}
