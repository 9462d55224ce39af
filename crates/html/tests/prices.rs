//! A price table the caller passes (issue 39): costs computed from it are marked, a cost
//! the source states wins, a model without a price gets none and the totals count it,
//! and the streamed page is the one-shot page with prices as without.

use docstream_testkit as support;

use docstream_core::{DocStream, Format, Options};
use docstream_html::markdown_export::conversation_markdown;
use docstream_html::page::page_facts;
use docstream_html::{RenderOptions, render_conversation};
use docstream_model::Conversation;
use support::{chunkings, fixtures};

fn read(format: Format, path: &str) -> Conversation {
    let input = std::fs::read(format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut stream = DocStream::new(Options {
        format: Some(format),
        ..Options::default()
    });
    stream.push(&input).unwrap();
    stream.finish().unwrap();
    stream.conversation().clone()
}

fn priced(json: &str) -> RenderOptions {
    RenderOptions {
        prices: Some(docstream_core::price_table::from_json(json).unwrap()),
        ..RenderOptions::default()
    }
}

#[test]
fn a_cost_computed_from_prices_is_marked_in_turn_page_and_markdown() {
    // claude-sonnet-4-5-20250929: 8050 in, 771 out, no cache tokens.
    let c = read(
        Format::AnthropicStream,
        "tests/fixtures/anthropic-stream/code_execution_tool.sse",
    );
    let opts = priced(r#"{"claude-sonnet-4-5": {"input": 3, "output": 15}}"#);
    // 8050 × 3 / 1e6 + 771 × 15 / 1e6 = 0.035715
    let html = render_conversation(&c, &opts);
    let meter =
        "<span class=\"ds-cost ds-cost-computed\" title=\"from your prices\">cost ≈ $0.0357</span>";
    assert!(html.contains(meter), "turn header: {html}");
    let facts = page_facts(&c, &opts);
    assert!(
        facts.contains(&format!(
            "{meter} <span class=\"ds-cost-source\">(from your prices)</span>"
        )),
        "{facts}"
    );
    let md = conversation_markdown(&c, &opts);
    assert!(md.contains("cost ≈ \\$0.0357 (from your prices)"), "{md}");
    assert!(
        md.contains("| cost | ≈ \\$0.0357 (from your prices) |"),
        "{md}"
    );
    // Without prices: no cost at all (none is invented).
    let plain = RenderOptions::default();
    assert!(!render_conversation(&c, &plain).contains("ds-cost"));
    assert!(!page_facts(&c, &plain).contains("ds-cost"));
}

#[test]
fn a_model_without_a_price_gets_no_cost_and_the_total_says_so() {
    let c = read(
        Format::AnthropicStream,
        "tests/fixtures/anthropic-stream/code_execution_tool.sse",
    );
    let opts = priced(r#"{"gpt-5": {"input": 1.25, "output": 10}}"#);
    assert!(!render_conversation(&c, &opts).contains("ds-cost"));
    let facts = page_facts(&c, &opts);
    assert!(
        facts.contains(
            "<span class=\"ds-cost ds-cost-missing\">cost: 1 response without a price</span>"
        ),
        "{facts}"
    );
    let md = conversation_markdown(&c, &opts);
    assert!(md.contains("| responses without a price | 1 |"), "{md}");
}

#[test]
fn a_stated_cost_wins_over_prices() {
    let c = read(
        Format::ClaudeCodeStreamJson,
        "tests/fixtures/claude-code-stream-json/session.jsonl",
    );
    let opts = priced(r#"{"claude": {"input": 1000, "output": 1000}}"#);
    let facts = page_facts(&c, &opts);
    assert!(
        facts.contains(
            "cost $0.0412</span> <span class=\"ds-cost-source\">(stated by the source)</span>"
        ),
        "{facts}"
    );
    assert!(!facts.contains('≈'), "{facts}");
    let md = conversation_markdown(&c, &opts);
    assert!(
        md.contains("| cost | \\$0.0412 (stated by the source) |"),
        "{md}"
    );
}

#[test]
fn priced_patches_give_the_one_shot_html_for_every_chunking() {
    let opts = priced(
        r#"{"claude": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75},
            "gpt": {"input": 2, "output": 8, "cacheRead": 0.5},
            "gemini": {"input": 1.25, "output": 10, "cacheRead": 0.31}}"#,
    );
    let formats = [
        Format::AnthropicStream,
        Format::OpenaiStream,
        Format::ClaudeCodeStreamJson,
        Format::GeminiStream,
    ];
    let mut computed = 0;
    for (format, path) in fixtures().into_iter().filter(|(f, _)| formats.contains(f)) {
        let input = std::fs::read(&path).unwrap();
        for (name, cuts) in chunkings(input.len()) {
            let (patched, one_shot) =
                crate::render_invariance::patched(&input, format, &cuts, &opts);
            assert_eq!(patched, one_shot, "{} chunked {name}", path.display());
            computed += usize::from(name == "whole" && one_shot.contains("ds-cost-computed"));
        }
    }
    assert!(computed >= 3, "prices reach the fixtures: {computed}");
}
