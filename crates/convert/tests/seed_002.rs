//! Every example of seed 002 (the Cursor/Claude ↔ OpenAI conversions) as a test of
//! `docstream_convert`, read in place from `../shared/seeds/` (skipped, saying so,
//! when absent). The JSON examples come in pairs — the Claude form, then the OpenAI
//! form — and each side must convert into the other. The rules written as code or
//! lists (`tool_choice`, the schema clean-up's fields, the signature rules, the history
//! check, the model lists, the streaming processor's chunk shapes) are read from the
//! seed where they are data and checked against the converter. The proxy's
//! configuration example (`enable_thinking`, rate limits) and its retry-on-signature-
//! error policy describe a server, not a conversion, and have no counterpart here.

use docstream_testkit::seed_blocks;

use docstream_convert::gemini_to_openai::GeminiToOpenAi;
use docstream_convert::messages::{to_anthropic, to_openai};
use docstream_convert::request::{Dialect, detect};
use docstream_convert::schema::clean_for_gemini;
use docstream_convert::thinking::{
    Checked, MIN_SIGNATURE_LEN, SignatureCache, history_disables_thinking, model_supports_thinking,
    thinking_enabled_by_default,
};
use docstream_convert::tools::{
    FlatTool, NestedTool, tool_choice_to_anthropic, tool_choice_to_openai,
};
use seed_blocks::{Block, blocks, js_to_json, tagged};
use serde_json::{Value, json};

const SEED: &str = "002_e1b5b2a84a5093b2.txt";

/// The seed's JSON examples, in order: flat tool, nested tool, Claude `tool_use`
/// message, OpenAI `tool_calls` message, Claude `tool_result`, OpenAI `tool` message,
/// Claude thinking, OpenAI `reasoning_content`, the proxy's configuration.
fn json_examples(blocks: &[Block]) -> Vec<Value> {
    let json: Vec<Value> = tagged(blocks, "json")
        .iter()
        .map(|b| serde_json::from_str(&b.body).expect("a JSON example"))
        .collect();
    assert_eq!(json.len(), 9, "seed 002's JSON examples");
    json
}

fn seed() -> Option<(Vec<Block>, Vec<Value>)> {
    let blocks = blocks(SEED)?;
    let json = json_examples(&blocks);
    Some((blocks, json))
}

/// A message with its tool-call ids set to `id`: the seed's two sides of an example use
/// different ids (`toolu_01abc`, `call_abc123`), which a conversion keeps.
fn with_ids(mut m: Value, id: &str) -> Value {
    if let Some(calls) = m.get_mut("tool_calls").and_then(Value::as_array_mut) {
        for c in calls {
            c["id"] = json!(id);
        }
    }
    if m.get("tool_call_id").is_some() {
        m["tool_call_id"] = json!(id);
    }
    for b in m
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        if b.get("id").is_some() {
            b["id"] = json!(id);
        }
        if b.get("tool_use_id").is_some() {
            b["tool_use_id"] = json!(id);
        }
    }
    m
}

/// Tool-call arguments parsed, so that `{"path": "x"}` and `{"path":"x"}` compare equal.
fn parsed_arguments(mut m: Value) -> Value {
    for c in m
        .get_mut("tool_calls")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let args = c["function"]["arguments"].as_str().unwrap_or("null");
        c["function"]["arguments"] = serde_json::from_str(args).unwrap();
    }
    m
}

#[test]
fn tool_definitions_flat_and_nested() {
    let Some((_, json)) = seed() else { return };
    let flat: FlatTool = serde_json::from_value(json[0].clone()).unwrap();
    let nested: NestedTool = serde_json::from_value(json[1].clone()).unwrap();
    assert_eq!(
        serde_json::to_value(NestedTool::from(flat.clone())).unwrap(),
        json[1]
    );
    assert_eq!(
        serde_json::to_value(FlatTool::from(nested)).unwrap(),
        json[0]
    );
    // "检测请求格式: 检查 tools 是否为扁平格式": the tool's form tells the request's.
    let request = |tool: &Value| json!({"messages": [], "tools": [tool]});
    assert_eq!(detect(&request(&json[0])), Ok(Some(Dialect::Anthropic)));
    assert_eq!(detect(&request(&json[1])), Ok(Some(Dialect::OpenAi)));
}

#[test]
fn tool_use_and_tool_calls() {
    let Some((_, json)) = seed() else { return };
    let (claude, openai) = (&json[2], &json[3]);
    assert_eq!(detect(&json!([claude])), Ok(Some(Dialect::Anthropic)));
    assert_eq!(detect(&json!([openai])), Ok(Some(Dialect::OpenAi)));
    let converted = to_openai(std::slice::from_ref(claude));
    assert_eq!(converted.len(), 1);
    assert_eq!(
        parsed_arguments(converted[0].clone()),
        parsed_arguments(with_ids(openai.clone(), "toolu_01abc"))
    );
    let back = to_anthropic(std::slice::from_ref(openai));
    assert_eq!(back, [with_ids(claude.clone(), "call_abc123")]);
}

#[test]
fn tool_result_and_tool_role() {
    let Some((_, json)) = seed() else { return };
    let (claude, openai) = (&json[4], &json[5]);
    assert_eq!(
        to_openai(std::slice::from_ref(claude)),
        [with_ids(openai.clone(), "toolu_01abc")]
    );
    assert_eq!(
        to_anthropic(std::slice::from_ref(openai)),
        [with_ids(claude.clone(), "call_abc123")]
    );
}

#[test]
fn thinking_and_reasoning_content() {
    let Some((_, json)) = seed() else { return };
    let (claude, openai) = (&json[6], &json[7]);
    assert_eq!(
        to_openai(std::slice::from_ref(claude)),
        std::slice::from_ref(openai),
        "thinking 块 → reasoning_content 字段"
    );
    // The signature has no place in the OpenAI form, so it does not come back.
    let mut unsigned = claude.clone();
    unsigned["content"][0]
        .as_object_mut()
        .unwrap()
        .remove("signature");
    assert_eq!(to_anthropic(std::slice::from_ref(openai)), [unsigned]);
}

#[test]
fn tool_choice_rules_from_the_request_flow() {
    let Some((blocks, _)) = seed() else { return };
    let flow = blocks
        .iter()
        .find(|b| b.lang.is_empty() && b.body.contains("处理 tool_choice"))
        .expect("the request conversion flow");
    let rules: Vec<(Value, Value)> = flow
        .body
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- {type:"))
        .map(|rule| {
            let (from, to) = rule.split_once('→').unwrap();
            let parse = |s: &str| -> Value { serde_json::from_str(&js_to_json(s.trim())).unwrap() };
            (parse(&format!("{{type:{from}")), parse(to))
        })
        .collect();
    assert_eq!(rules.len(), 3, "auto, any, tool");
    for (anthropic, openai) in rules {
        assert_eq!(tool_choice_to_openai(&anthropic), Some(openai.clone()));
        assert_eq!(tool_choice_to_anthropic(&openai), Some(anthropic));
    }
}

#[test]
fn schema_clean_up_for_gemini() {
    let Some((blocks, _)) = seed() else { return };
    let go = tagged(&blocks, "go")
        .into_iter()
        .find(|b| b.body.contains("skipFields"))
        .expect("the schema clean-up");
    let skipped: Vec<&str> = go
        .body
        .lines()
        .filter(|l| l.trim_end().ends_with("true,"))
        .filter_map(|l| l.trim().strip_prefix('"')?.split('"').next())
        .collect();
    assert_eq!(
        skipped,
        ["additionalProperties", "$schema", "title", "default"]
    );
    let mut nested = json!({"type": "string"});
    let mut schema = json!({"type": "object", "properties": {"p": null}});
    for field in &skipped {
        nested[*field] = json!("x");
        schema[*field] = json!("x");
    }
    schema["properties"]["p"] = nested;
    let cleaned = clean_for_gemini(&schema);
    assert_eq!(
        cleaned,
        json!({"type": "OBJECT", "properties": {"p": {"type": "STRING"}}})
    );
    // `// "string" → "STRING"` and the like.
    let upper: Vec<&str> = go.body.lines().filter(|l| l.contains('→')).collect();
    assert_eq!(upper.len(), 2, "string and object");
    for line in upper {
        let (from, to) = line.trim_start_matches([' ', '/']).split_once('→').unwrap();
        let (from, to) = (from.trim().trim_matches('"'), to.trim().trim_matches('"'));
        assert_eq!(
            clean_for_gemini(&json!({"type": from})),
            json!({"type": to}),
            "{line}"
        );
    }
    // "anyOf 处理: 简化为第一个非 null 选项".
    assert!(go.body.contains("第一个非 null 选项"));
    assert_eq!(
        clean_for_gemini(
            &json!({"anyOf": [{"type": "null"}, {"type": "integer"}, {"type": "string"}]})
        ),
        json!({"type": "INTEGER"})
    );
}

#[test]
fn thinking_signature_rules() {
    let Some((blocks, json)) = seed() else { return };
    let text = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("../shared/seeds")
            .join(SEED),
    )
    .unwrap();
    // "有效签名: signature 长度 >= 50 字符"
    let limit: usize = text
        .split("长度 >= ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .expect("the signature length rule");
    assert_eq!(MIN_SIGNATURE_LEN, limit);
    let thinking = json[6]["content"][0]["thinking"].as_str().unwrap();
    let mut cache = SignatureCache::default();
    let short = "s".repeat(limit - 1);
    // No valid signature seen: an invalid one downgrades the block to text.
    assert_eq!(cache.check(thinking, &short), Checked::Text);
    // Empty thinking with any signature is valid; empty thinking without one is dropped.
    assert_eq!(
        cache.check("", "x"),
        Checked::Thinking {
            signature: "x".to_owned()
        }
    );
    assert_eq!(cache.check("", ""), Checked::Drop);
    // The store keeps the longest signature seen and repairs with it.
    let valid = "v".repeat(limit);
    let longer = "w".repeat(limit + 20);
    assert!(matches!(
        cache.check(thinking, &valid),
        Checked::Thinking { .. }
    ));
    cache.observe(&longer);
    cache.observe(&valid);
    assert_eq!(cache.longest(), Some(longer.as_str()));
    assert_eq!(
        cache.check(thinking, &short),
        Checked::Thinking { signature: longer }
    );
    // The python store the seed shows keeps a signature only when it is longer.
    let store = tagged(&blocks, "python")
        .into_iter()
        .find(|b| b.body.contains("global_thought_signature_store"))
        .expect("the signature store");
    assert!(
        store
            .body
            .contains("len(sig) > len(_global_thought_signature)")
    );
}

#[test]
fn history_check_disables_thinking_after_tools_without_it() {
    let Some((_, json)) = seed() else { return };
    let user = json!({"role": "user", "content": "Read /src/main.go"});
    // The seed's tool_use message has no thinking block: thinking must be disabled.
    assert!(history_disables_thinking(&[user.clone(), json[2].clone()]));
    // The seed's thinking message, and one with thinking and tool use, are fine.
    assert!(!history_disables_thinking(&[user.clone(), json[6].clone()]));
    let mut both = json[6].clone();
    both["content"]
        .as_array_mut()
        .unwrap()
        .push(json[2]["content"][1].clone());
    assert!(!history_disables_thinking(&[user.clone(), both]));
    // Only the last assistant message counts; string content is not tool use.
    assert!(!history_disables_thinking(&[
        json[2].clone(),
        json[7].clone()
    ]));
    assert!(!history_disables_thinking(&[user]));
}

/// The strings a python function of the seed tests the model name with.
fn model_rules(blocks: &[Block], function: &str) -> (Vec<String>, Vec<String>) {
    let body = &tagged(blocks, "python")
        .into_iter()
        .find(|b| b.body.contains(&format!("def {function}")))
        .unwrap_or_else(|| panic!("{function}"))
        .body;
    let quoted = |line: &str| line.split('"').nth(1).map(str::to_owned);
    let contains = body
        .lines()
        .filter(|l| l.contains(" in model_lower"))
        .flat_map(|l| l.split(" or ").filter_map(quoted).collect::<Vec<_>>())
        .collect();
    let prefixes = body
        .lines()
        .filter(|l| l.contains("startswith("))
        .filter_map(quoted)
        .collect();
    (contains, prefixes)
}

#[test]
fn models_that_think() {
    let Some((blocks, _)) = seed() else { return };
    let (contains, prefixes) = model_rules(&blocks, "model_supports_thinking");
    assert_eq!(contains, ["-thinking", "gemini-3-pro"]);
    assert_eq!(prefixes, ["claude-"]);
    for s in &contains {
        assert!(model_supports_thinking(&format!("Vendor{s}-X")), "{s}");
    }
    for p in &prefixes {
        assert!(
            model_supports_thinking(&format!("{}Model", p.to_uppercase())),
            "{p}"
        );
    }
    // "普通 Gemini 模型不支持"
    assert!(!model_supports_thinking("gemini-2.5-pro"));
    let (contains, _) = model_rules(&blocks, "should_enable_thinking_by_default");
    assert_eq!(contains, ["opus-4-5", "opus-4.5", "-thinking"]);
    for s in &contains {
        assert!(thinking_enabled_by_default(&format!("claude{s}x")), "{s}");
    }
    assert!(!thinking_enabled_by_default("claude-sonnet-4-5"));
}

#[test]
fn gemini_parts_become_the_chunks_the_streaming_processor_writes() {
    let Some((blocks, _)) = seed() else { return };
    let processor = tagged(&blocks, "python")
        .into_iter()
        .find(|b| b.body.contains("class CursorStreamingProcessor"))
        .expect("the streaming processor");
    // The deltas the seed's processor writes, one per kind of part.
    for shape in [
        "\"reasoning_content\": text",
        "\"index\": self.current_tool_index",
        "\"arguments\": json.dumps(tool_args)",
        "{\"content\": text}",
    ] {
        assert!(processor.body.contains(shape), "{shape}");
    }
    let mut conv = GeminiToOpenAi::new("abc", "gemini-3-pro");
    let event = json!({"candidates": [{"content": {"parts": [
        {"text": "Let me analyze this problem...", "thought": true},
        {"functionCall": {"name": "read_file", "args": {"path": "/src/main.go"}}},
        {"functionCall": {"name": "read_file", "args": {"path": "/go.mod"}}},
        {"text": "Here's my answer..."}
    ]}}]});
    let chunks = conv.convert(&event.to_string()).unwrap();
    let deltas: Vec<&Value> = chunks.iter().map(|c| &c["choices"][0]["delta"]).collect();
    assert_eq!(deltas.len(), 4);
    assert_eq!(
        *deltas[0],
        json!({"role": "assistant", "content": null, "reasoning_content": "Let me analyze this problem..."})
    );
    for (i, path) in ["/src/main.go", "/go.mod"].iter().enumerate() {
        let call = &deltas[i + 1]["tool_calls"][0];
        assert_eq!(call["index"], i);
        assert_eq!(call["type"], "function");
        assert_eq!(call["function"]["name"], "read_file");
        let args: Value =
            serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args, json!({"path": path}));
        assert!(call["id"].as_str().is_some_and(|id| !id.is_empty()));
    }
    assert_eq!(*deltas[3], json!({"content": "Here's my answer..."}));
    for c in &chunks {
        assert_eq!(c["object"], "chat.completion.chunk");
    }
}
