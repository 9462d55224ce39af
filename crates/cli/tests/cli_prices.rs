//! `--prices FILE` (issue 39): a price table read from JSON, its errors naming the file;
//! costs computed from it in `html`, `md`, `json` and `list --json`, marked as computed.

use std::fs;

use docstream_testkit::stores::scratch;

use crate::cli_md::cli;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
/// claude-sonnet-4-5-20250929: 8050 in, 771 out: 8050 × 3 / 1e6 + 771 × 15 / 1e6.
const INPUT: &str = "tests/fixtures/anthropic-stream/code_execution_tool.sse";
const TABLE: &str = r#"{"claude-sonnet-4-5": {"input": 3, "output": 15}}"#;

fn table(name: &str, json: &str) -> String {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), &format!("cli-prices-{name}"));
    let path = dir.join("prices.json");
    fs::write(&path, json).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn prices_give_computed_costs_in_html_md_and_json() {
    let prices = table("ok", TABLE);
    let input = format!("{ROOT}/{INPUT}");
    let (code, html, err) = cli(&["html", "--prices", &prices, &input]);
    assert_eq!(code, 0, "{err}");
    assert!(html.contains("cost ≈ $0.0357"), "html");
    assert!(html.contains("(from your prices)"), "html page header");
    let (code, md, err) = cli(&["md", "--prices", &prices, &input]);
    assert_eq!(code, 0, "{err}");
    assert!(
        md.contains("| cost | ≈ \\$0.0357 (from your prices) |"),
        "{md}"
    );
    let (code, json, err) = cli(&["json", "--prices", &prices, &input]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let costs: Vec<f64> = v["turns"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["metadata"]["computedCostUsd"].as_f64())
        .collect();
    assert_eq!(costs.len(), 1, "{json}");
    assert!((costs[0] - 0.035715).abs() < 1e-9, "{costs:?}");
    // Without --prices: no cost anywhere.
    let (_, plain, _) = cli(&["json", &input]);
    assert!(!plain.contains("computedCostUsd") && !plain.contains("costUsd"));
}

#[test]
fn list_json_totals_take_the_prices() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "cli-prices-folder");
    fs::copy(format!("{ROOT}/{INPUT}"), dir.join("run.jsonl")).unwrap();
    let prices = table("list", TABLE);
    let d = dir.to_str().unwrap();
    let (code, out, err) = cli(&["list", "--json", "--prices", &prices, d]);
    assert_eq!(code, 0, "{err}");
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(list.len(), 1, "{out}");
    assert!(
        (list[0]["costUsd"].as_f64().unwrap() - 0.035715).abs() < 1e-9,
        "{out}"
    );
    assert_eq!(
        (
            list[0]["costComputed"].as_u64(),
            list[0]["costMissing"].as_u64()
        ),
        (Some(1), Some(0))
    );
    let none = table("list-none", r#"{"gpt-5": {"input": 1, "output": 1}}"#);
    let (_, out, _) = cli(&["list", "--json", "--prices", &none, d]);
    let list: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(list[0]["costUsd"], serde_json::Value::Null, "{out}");
    assert_eq!(list[0]["costMissing"].as_u64(), Some(1), "{out}");
}

#[test]
fn a_bad_price_table_is_an_error_naming_the_file() {
    let input = format!("{ROOT}/{INPUT}");
    let bad = table("bad", r#"{"gpt-5": {"input": "cheap", "output": 1}}"#);
    let (code, _, err) = cli(&["html", "--prices", &bad, &input]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&bad) && err.contains(r#"model "gpt-5": field "input""#),
        "{err}"
    );
    let (code, _, err) = cli(&["md", "--prices", "/no/such/prices.json", &input]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("/no/such/prices.json"), "{err}");
    let (code, _, err) = cli(&["text", "--prices", &bad, &input]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--prices is an option of"), "{err}");
}
