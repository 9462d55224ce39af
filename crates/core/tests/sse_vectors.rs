//! The WHATWG Server-Sent Events conformance vectors of
//! `../shared/corpora/sse-vectors.json`, each fed whole, one byte at a time, split at
//! every offset, and in the chunking the vector names.

use docstream_testkit as support;

use docstream_core::framing::{SseItem, SseParser};
use serde_json::Value;

#[derive(Debug, PartialEq)]
struct Outcome {
    events: Vec<(String, String, String)>,
    retry: Vec<u64>,
    last_event_id: String,
}

fn run(chunks: &[&[u8]]) -> Outcome {
    let mut parser = SseParser::new(1 << 20);
    let mut out = Outcome {
        events: vec![],
        retry: vec![],
        last_event_id: String::new(),
    };
    let mut sink = |item: SseItem| match item {
        SseItem::Event(e) => out.events.push((e.event, e.data, e.last_event_id)),
        SseItem::Retry(ms) => out.retry.push(ms),
        SseItem::TooLarge { line } => panic!("unexpected size refusal at line {line}"),
    };
    for c in chunks {
        parser.push(c, &mut sink);
    }
    parser.finish(&mut sink);
    out.last_event_id = parser.last_event_id().to_owned();
    out
}

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn expected(v: &Value) -> Outcome {
    let events = v["expected_events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let kind = e["type"].as_str().unwrap_or("");
            (
                if kind.is_empty() { "message" } else { kind }.to_owned(),
                e["data"].as_str().unwrap().to_owned(),
                e["last_event_id"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    Outcome {
        events,
        retry: v["expected_retry"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_u64().unwrap())
            .collect(),
        last_event_id: v["expected_final_last_event_id"]
            .as_str()
            .unwrap_or("")
            .to_owned(),
    }
}

#[test]
fn conformance_vectors_under_every_chunking() {
    let Some(path) = support::shared("corpora/sse-vectors.json") else {
        return support::skip("the SSE conformance vectors");
    };
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let vectors = corpus["vectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 56, "the corpus holds 56 vectors");
    for v in vectors {
        let id = v["id"].as_str().unwrap();
        let input = match v["input_hex"].as_str() {
            Some(h) => hex(h),
            None => v["input"].as_str().unwrap().as_bytes().to_vec(),
        };
        let want = expected(v);
        let name = |how: &str| {
            format!(
                "vector {id} fed {how}; input {:?}",
                String::from_utf8_lossy(&input)
            )
        };
        assert_eq!(run(&[&input]), want, "{}", name("whole"));
        let bytes: Vec<&[u8]> = input.chunks(1).collect();
        assert_eq!(run(&bytes), want, "{}", name("one byte at a time"));
        for i in 0..=input.len() {
            assert_eq!(
                run(&[&input[..i], &input[i..]]),
                want,
                "{}",
                name(&format!("split at {i}"))
            );
        }
        let named: Option<Vec<Vec<u8>>> = v["chunks_hex"]
            .as_array()
            .map(|c| c.iter().map(|h| hex(h.as_str().unwrap())).collect())
            .or_else(|| {
                v["chunks"].as_array().map(|c| {
                    c.iter()
                        .map(|s| s.as_str().unwrap().as_bytes().to_vec())
                        .collect()
                })
            });
        if let Some(chunks) = named {
            let chunks: Vec<&[u8]> = chunks.iter().map(Vec::as_slice).collect();
            assert_eq!(run(&chunks), want, "{}", name("in its own chunks"));
        }
    }
}
