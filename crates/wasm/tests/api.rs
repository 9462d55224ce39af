//! The JavaScript API of the stream, run as WebAssembly in Node (`cargo test -p
//! docstream-wasm --target wasm32-unknown-unknown --test api`) and, through
//! `browser.rs`, in headless
//! Chromium: write, end and pull with their patches (read as `push()` and `finish()`
//! read them, by the package's wire reader), applying the patches gives `html()`
//! and the Rust renderer's HTML, chunk invariance on a few fixtures, options, errors
//! with codes, snapshot shape, diff and plan views, progress text.
#![cfg(any(target_arch = "wasm32", clippy))]

use docstream_html::labels::Locale;
use docstream_html::patch::{PageModel, Patch, decode};
use docstream_html::{
    DiffMode, RenderOptions, diff_view_by_id, plan_view_by_id, progress, render_conversation,
};
use docstream_wasm::JsDocStream;
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

#[wasm_bindgen(module = "/../../pkg-template/wire.js")]
extern "C" {
    /// The package's reader of the wire form: the patch objects `push()` and `finish()`
    /// return (src/wasm/push.js).
    #[wasm_bindgen(js_name = readPatches)]
    fn read_patches(wire: &str) -> JsValue;
}

const TOOLS: &[u8] = include_bytes!("../../../tests/fixtures/cursor-stream-json/tools.jsonl");
const FIXTURES: [&[u8]; 6] = [
    TOOLS,
    include_bytes!("../../../tests/fixtures/cursor-stream-json/crlf_bom_error.jsonl"),
    include_bytes!("../../../tests/fixtures/cursor-stream-json/fences.jsonl"),
    include_bytes!("../../../tests/fixtures/document-sse/stream.sse"),
    include_bytes!("../../../tests/fixtures/response-json/response.json"),
    include_bytes!("../../../tests/fixtures/response-json/every-type.json"),
];

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap()
}

fn code(err: &JsValue) -> Option<String> {
    assert!(err.is_instance_of::<js_sys::Error>(), "{err:?} is an Error");
    get(err, "code").as_string()
}

fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

fn stringify(v: &JsValue) -> String {
    js_sys::JSON::stringify(v).unwrap().as_string().unwrap()
}

/// Patch objects read back into the Rust type (which checks their shape).
fn patches(value: JsValue) -> Vec<Patch> {
    assert!(Array::is_array(&value), "patches are an array");
    serde_json::from_str(&stringify(&value)).expect("patches have the Patch shape")
}

/// The patches pulled now, as `push()` and `finish()` hand them out: the wire read by
/// the package's reader, which must give the patches the Rust decoder reads.
fn pulled(s: &mut JsDocStream) -> Vec<Patch> {
    let wire = String::from(s.pull());
    let objects = patches(read_patches(&wire));
    assert_eq!(objects, decode(&wire).unwrap(), "the JS reader of {wire:?}");
    objects
}

/// `push(chunk)`: `write` (or `writeText`), then the pulled patches.
fn push(s: &mut JsDocStream, chunk: &[u8]) -> Vec<Patch> {
    s.write(chunk).unwrap();
    pulled(s)
}

/// `finish()`: `end`, then the pulled patches.
fn finish(s: &mut JsDocStream) -> Vec<Patch> {
    s.end().unwrap();
    pulled(s)
}

/// The same input read by the Rust library directly.
fn native(input: &[u8]) -> docstream_core::DocStream {
    let mut s = docstream_core::DocStream::new(docstream_core::Options::default());
    s.push(input).unwrap();
    s.finish().unwrap();
    s
}

/// Streams `input` in chunks of `size` through the binding, applying every patch to a
/// page; returns the page's HTML, `html()` and the snapshot's JSON.
fn streamed(input: &[u8], size: usize, options: Option<JsValue>) -> (String, String, String) {
    let mut s = JsDocStream::new(options).unwrap();
    let mut page = PageModel::new();
    for c in input.chunks(size.max(1)) {
        for p in push(&mut s, c) {
            page.apply(&p);
        }
    }
    for p in finish(&mut s) {
        page.apply(&p);
    }
    (
        page.html(),
        String::from(s.html()),
        stringify(&s.snapshot().unwrap()),
    )
}

/// The same through `write`, `end` and one `pull` every `pull_every` chunks.
fn pulled_every(input: &[u8], size: usize, pull_every: usize) -> String {
    let mut s = JsDocStream::new(None).unwrap();
    let mut page = PageModel::new();
    for (i, c) in input.chunks(size.max(1)).enumerate() {
        s.write(c).unwrap();
        if i % pull_every == 0 {
            page.apply_wire(&String::from(s.pull())).unwrap();
        }
    }
    s.end().unwrap();
    page.apply_wire(&String::from(s.pull())).unwrap();
    assert_eq!(
        String::from(s.pull()),
        "",
        "nothing left after the last pull"
    );
    page.html()
}

/// Issue 37: a Claude Code sub-agent's own file, given with `addSubagent`, is read as
/// its call's run, as natively.
#[wasm_bindgen_test]
fn a_sub_agent_file_given_beside_the_session_is_its_calls_run() {
    const SESSION: &[u8] =
        include_bytes!("../../../tests/fixtures/claude-code-transcript/subagent_answers.jsonl");
    const AGENT: &[u8] = include_bytes!(
        "../../../tests/fixtures/claude-code-transcript/subagent_answers/subagents/agent-a1dd713c82c78b9ed.jsonl"
    );
    let mut s = JsDocStream::new(None).unwrap();
    s.add_subagent("a1dd713c82c78b9ed", AGENT.to_vec());
    s.write(SESSION).unwrap();
    s.end().unwrap();
    let mut native = docstream_core::DocStream::new(docstream_core::Options::default());
    native.add_subagent("a1dd713c82c78b9ed", AGENT.to_vec());
    native.push(SESSION).unwrap();
    native.finish().unwrap();
    let expected = serde_json::to_string(native.conversation()).unwrap();
    assert!(
        expected.contains("\"toolCallId\":\"toolu_01Tot\""),
        "{expected}"
    );
    assert_eq!(stringify(&s.snapshot().unwrap()), expected);
}

#[wasm_bindgen_test]
fn snapshot_has_the_seed_shape() {
    let mut s = JsDocStream::new(None).unwrap();
    s.write_text(std::str::from_utf8(TOOLS).unwrap()).unwrap();
    s.end().unwrap();
    assert_eq!(s.format().as_deref(), Some("cursor-stream-json"));
    let snap = s.snapshot().unwrap();
    let turns: Array = get(&snap, "turns").dyn_into().unwrap();
    let response = turns.get(1);
    assert_eq!(
        get(&response, "status").as_string().as_deref(),
        Some("completed")
    );
    let doc = Array::from(&get(&response, "documents")).get(0);
    assert_eq!(get(&doc, "id").as_string().as_deref(), Some("doc_001"));
    assert_eq!(get(&doc, "sequence").as_f64(), Some(1.0));
    assert_eq!(
        get(&get(&response, "metadata"), "toolCallCount").as_f64(),
        Some(9.0)
    );
    // Plain objects, equal to the Rust serialisation.
    assert_eq!(
        stringify(&snap),
        serde_json::to_string(native(TOOLS).conversation()).unwrap()
    );
}

#[wasm_bindgen_test]
fn patches_give_html_and_the_rust_rendering_for_every_chunking() {
    for input in FIXTURES {
        let one_shot = render_conversation(native(input).conversation(), &RenderOptions::default());
        let (_, _, whole_snapshot) = streamed(input, input.len(), None);
        for size in [input.len(), 1, 7, 64] {
            let (page, html, snapshot) = streamed(input, size, None);
            assert_eq!(page, html, "chunks of {size}: patches give html()");
            assert_eq!(
                html, one_shot,
                "chunks of {size}: html() is the Rust rendering"
            );
            assert_eq!(snapshot, whole_snapshot, "chunks of {size}: same snapshot");
            for every in [1, 5] {
                assert_eq!(
                    pulled_every(input, size, every),
                    one_shot,
                    "chunks of {size}, pulled every {every}: the wire gives the Rust rendering"
                );
            }
        }
    }
}

/// A long Markdown answer streamed in 9-byte text deltas (Cursor `stream-json`).
fn streamed_markdown() -> Vec<u8> {
    let text: String = (0..12)
        .map(|i| {
            format!("## Part {i}\n\nSome *text* for part {i}, with `code`.\n\n- one\n- two\n\n")
        })
        .collect();
    let mut out = String::new();
    for piece in text.as_bytes().chunks(9) {
        let piece = std::str::from_utf8(piece).unwrap();
        let line = serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":piece}]}});
        out.push_str(&format!("{line}\n"));
    }
    let end = serde_json::json!({"type":"result","subtype":"success","result":text});
    out.push_str(&format!("{end}\n"));
    out.into_bytes()
}

#[wasm_bindgen_test]
fn streamed_markdown_appends_blocks_and_matches_the_rust_rendering() {
    let input = streamed_markdown();
    let one_shot = render_conversation(native(&input).conversation(), &RenderOptions::default());
    let mut ops = std::collections::BTreeSet::new();
    let mut s = JsDocStream::new(None).unwrap();
    let mut page = PageModel::new();
    for c in input.chunks(50) {
        for p in push(&mut s, c) {
            ops.insert(
                format!("{p:?}")
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_owned(),
            );
            page.apply(&p);
        }
    }
    for p in finish(&mut s) {
        page.apply(&p);
    }
    assert!(
        ops.contains("AppendPart") && ops.contains("AppendText") && ops.contains("ReplacePart"),
        "{ops:?}"
    );
    assert_eq!(page.html(), String::from(s.html()));
    assert_eq!(String::from(s.html()), one_shot);
    for size in [1, 7, 64] {
        let (page, html, _) = streamed(&input, size, None);
        assert_eq!(page, one_shot, "chunks of {size}");
        assert_eq!(html, one_shot, "chunks of {size}");
    }
}

/// `html()` and `pull()` hand their text over in ASCII runs and the stretches between
/// them: long ASCII around other characters (two-, three- and four-byte ones, a run of
/// them, one at a 64 KiB piece's edge) comes out whole and in order.
#[wasm_bindgen_test]
fn text_with_other_characters_crosses_whole() {
    let mut text = String::new();
    for (i, odd) in ["ü", "—", "😀", "日本語", "é—😀ü"].iter().enumerate() {
        text.push_str(&"a".repeat(900 + 700 * i));
        text.push_str(odd);
    }
    text.push_str(&"b".repeat(70_000));
    text.push('−');
    let mut input = String::new();
    for piece in [&text[..2000], &text[2000..]] {
        let line = serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":piece}]}});
        input.push_str(&format!("{line}\n"));
    }
    let input = input.into_bytes();
    let one_shot = render_conversation(native(&input).conversation(), &RenderOptions::default());
    assert!(one_shot.contains("é—😀ü") && one_shot.contains('−'));
    for size in [input.len(), 64] {
        let (page, html, _) = streamed(&input, size, None);
        assert_eq!(html, one_shot, "chunks of {size}: html()");
        assert_eq!(page, one_shot, "chunks of {size}: the patches");
        assert_eq!(
            pulled_every(&input, size, 3),
            one_shot,
            "chunks of {size}: the wire"
        );
    }
}

#[wasm_bindgen_test]
fn push_returns_the_patches_of_its_chunk() {
    let mut s = JsDocStream::new(None).unwrap();
    let line = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hello"}]}}"#;
    let first = push(&mut s, line.as_bytes());
    assert!(first.is_empty(), "no line end yet: nothing to render");
    let second = push(&mut s, b"\n");
    assert!(
        matches!(second.first(), Some(Patch::InsertTurn { turn: 0, .. })),
        "{second:?}"
    );
    assert!(
        second
            .iter()
            .any(|p| matches!(p, Patch::InsertDocument { html, .. } if html.contains("doc_001"))),
        "{second:?}"
    );
    // The JS shape: `op` in snake case, then the fields.
    s.write_text(
        r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":" world"}]}}
"#,
    )
    .unwrap();
    let raw = read_patches(&String::from(s.pull()));
    let p = Array::from(&raw).get(0);
    assert_eq!(get(&p, "op").as_string().as_deref(), Some("append_text"));
    assert_eq!(get(&p, "turn").as_f64(), Some(0.0));
    assert_eq!(get(&p, "index").as_f64(), Some(0.0));
    assert_eq!(get(&p, "part").as_string().as_deref(), Some("tail"));
    assert_eq!(get(&p, "text").as_string().as_deref(), Some(" world"));
    // finish() marks the cut-off response and returns the patches saying so.
    let last = finish(&mut s);
    assert!(
        last.iter()
            .any(|p| matches!(p, Patch::InsertDocument { html, .. } if html.contains("ds-error"))),
        "{last:?}"
    );
}

#[wasm_bindgen_test]
fn write_says_when_there_is_something_to_pull() {
    let mut s = JsDocStream::new(None).unwrap();
    let line = r#"{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Hi"}]}}"#;
    assert!(!s.write_text(line).unwrap(), "no line end yet");
    assert_eq!(String::from(s.pull()), "");
    assert!(s.write(b"\n").unwrap(), "a line: a turn and a document");
    let wire = String::from(s.pull());
    assert!(wire.starts_with("t 0 "), "{wire}");
    assert!(!s.write(b"").unwrap(), "pulled: nothing new");
    assert_eq!(String::from(s.pull()), "");
    s.end().unwrap();
    assert!(s.end().is_err(), "end twice");
    let mut page = PageModel::new();
    page.apply_wire(&wire).unwrap();
    page.apply_wire(&String::from(s.pull())).unwrap();
    assert_eq!(page.html(), String::from(s.html()));
}

#[wasm_bindgen_test]
fn string_and_byte_chunks_agree() {
    let text = std::str::from_utf8(TOOLS).unwrap();
    let mut a = JsDocStream::new(None).unwrap();
    a.write_text(text).unwrap();
    a.end().unwrap();
    let mut b = JsDocStream::new(None).unwrap();
    b.write(TOOLS).unwrap();
    b.end().unwrap();
    assert_eq!(a.html(), b.html());
    assert_eq!(
        stringify(&a.snapshot().unwrap()),
        stringify(&b.snapshot().unwrap())
    );
}

#[wasm_bindgen_test]
fn options_reach_the_renderer() {
    let options = object(&[
        ("locale", "de".into()),
        ("diff", "split".into()),
        (
            "images",
            object(&[("allow", Array::of1(&"https://img.example/".into()).into())]),
        ),
        ("format", "cursor-stream-json".into()),
        (
            "prices",
            object(&[(
                "claude",
                object(&[("input", 3.0.into()), ("output", 15.0.into())]),
            )]),
        ),
    ]);
    let (page, html, _) = streamed(TOOLS, 13, Some(options));
    let expected = render_conversation(
        native(TOOLS).conversation(),
        &RenderOptions {
            locale: Locale::De,
            image_origins_allowed: vec!["https://img.example".to_owned()],
            diff_mode: DiffMode::SideBySide,
            prices: Some(
                docstream_core::price_table::from_json(r#"{"claude": {"input": 3, "output": 15}}"#)
                    .unwrap(),
            ),
        },
    );
    assert_eq!(page, expected);
    assert_eq!(html, expected);
    assert!(html.contains("ds-diff-split") && !html.contains("ds-diff-unified"));

    // A language tag as browsers give it (`navigator.language`): the region is ignored.
    let mut s = JsDocStream::new(Some(object(&[("locale", "de-DE".into())]))).unwrap();
    s.write(TOOLS).unwrap();
    s.end().unwrap();
    assert_eq!(
        s.text(),
        progress::progress_lines(native(TOOLS).conversation(), Locale::De)
    );
    assert_ne!(
        s.text(),
        progress::progress_lines(native(TOOLS).conversation(), Locale::En)
    );

    // An image from an allowed origin loads; others do not.
    let md = |text: &str| {
        format!(
            "{}\n",
            serde_json::json!({"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":text}]}})
        )
    };
    let input = md("![a](https://img.example/a.png) ![b](https://other.example/b.png)");
    let allow = object(&[(
        "images",
        object(&[("allow", Array::of1(&"https://img.example".into()).into())]),
    )]);
    let mut s = JsDocStream::new(Some(allow)).unwrap();
    s.write_text(&input).unwrap();
    // Ended: mid-stream, html() shows the open block as its preview does (one state, one
    // page), where an image is its alt text until the block ends.
    s.end().unwrap();
    let html = String::from(s.html());
    assert!(
        html.contains("<img src=\"https://img.example/a.png\""),
        "{html}"
    );
    assert!(!html.contains("<img src=\"https://other.example"), "{html}");
}

#[wasm_bindgen_test]
fn errors_carry_stable_codes() {
    let mut s = JsDocStream::new(None).unwrap();
    s.end().unwrap();
    let err = s.write_text("{}").unwrap_err();
    assert_eq!(code(&err).as_deref(), Some("DS_FINISHED"));
    assert_eq!(code(&s.end().unwrap_err()).as_deref(), Some("DS_FINISHED"));
    // DS_BAD_CHUNK (a chunk of another type) is push()'s, in JavaScript:
    // tests/js/package-node.mjs.

    let unknown = object(&[("format", "no-such-format".into())]);
    let err = JsDocStream::new(Some(unknown)).err().unwrap();
    assert_eq!(code(&err).as_deref(), Some("DS_UNKNOWN_FORMAT"));

    let bad_options = [
        JsValue::from_f64(5.0),
        object(&[("locale", "fr".into())]),
        object(&[("diff", "sideways".into())]),
        object(&[("format", JsValue::from_f64(1.0))]),
        object(&[("images", object(&[("allow", "https://a.example".into())]))]),
        object(&[(
            "images",
            object(&[("allow", Array::of1(&"javascript:alert(1)".into()).into())]),
        )]),
        object(&[("limits", object(&[("maxDepth", JsValue::from_f64(-1.0))]))]),
        object(&[("prices", object(&[("m", object(&[("input", 1.0.into())]))]))]),
    ];
    let says = [
        "the options should be an object, found a number",
        "locale \"fr\" has no labels",
        "diff \"sideways\" is not one of \"unified\", \"split\", \"both\"",
        "field `format` should be a string, found a number",
        "field `allow` should be an array, found a string",
        "javascript:alert(1)",
        "field `maxDepth` should be a non-negative integer, found a number",
        "prices: model \"m\": field \"output\" is missing",
    ];
    for (options, says) in bad_options.into_iter().zip(says) {
        let shown = format!("{options:?}");
        let err = JsDocStream::new(Some(options)).err().expect(&shown);
        assert_eq!(code(&err).as_deref(), Some("DS_BAD_OPTIONS"), "{shown}");
        let message = get(&err, "message").as_string().unwrap();
        assert!(message.contains(says), "{shown}: {message}");
    }
    // undefined and null mean the defaults.
    JsDocStream::new(Some(JsValue::UNDEFINED)).unwrap();
    JsDocStream::new(Some(JsValue::NULL)).unwrap();
}

#[wasm_bindgen_test]
fn limits_apply() {
    let options = object(&[("limits", object(&[("maxEventBytes", 64.into())]))]);
    let mut s = JsDocStream::new(Some(options)).unwrap();
    s.write(TOOLS).unwrap();
    s.end().unwrap();
    let snap = stringify(&s.snapshot().unwrap());
    assert!(snap.contains("EVENT_TOO_LARGE"), "{snap}");
}

#[wasm_bindgen_test]
fn diff_and_plan_views_are_the_rust_objects() {
    let mut s = JsDocStream::new(None).unwrap();
    s.write(TOOLS).unwrap();
    s.end().unwrap();
    let rust = native(TOOLS);
    let diff = s.diff_view("doc_005").unwrap();
    assert_eq!(
        stringify(&diff),
        serde_json::to_string(&diff_view_by_id(rust.conversation(), "doc_005").unwrap()).unwrap()
    );
    assert_eq!(
        get(&diff, "path").as_string().as_deref(),
        Some("/repo/src/main.rs")
    );
    let hunk = Array::from(&get(&diff, "hunks")).get(0);
    assert!(Array::from(&get(&hunk, "lines")).length() > 0);

    let plan = s.plan_view("doc_002").unwrap();
    assert_eq!(
        stringify(&plan),
        serde_json::to_string(&plan_view_by_id(rust.conversation(), "doc_002").unwrap()).unwrap()
    );
    assert_eq!(
        get(&plan, "title").as_string().as_deref(),
        Some("Fix greeting")
    );
    assert_eq!(get(&plan, "total").as_f64(), Some(2.0));

    // Another type, or no such id: undefined.
    assert!(s.diff_view("doc_002").unwrap().is_undefined());
    assert!(s.plan_view("doc_005").unwrap().is_undefined());
    assert!(s.diff_view("nope").unwrap().is_undefined());
    assert!(s.plan_view("").unwrap().is_undefined());
}

#[wasm_bindgen_test]
fn patch_objects_spell_parts_tags_and_attrs_as_serde_does() {
    // The wire form, and so push()'s patch objects, spell them with name(); serde
    // reads the objects back.
    use docstream_html::parts::{Attr, Part, Tag};
    let serde_name = |v: serde_json::Value| v.as_str().unwrap().to_owned();
    for p in Part::ALL {
        assert_eq!(serde_name(serde_json::to_value(p).unwrap()), p.name());
    }
    for t in Tag::ALL {
        assert_eq!(serde_name(serde_json::to_value(t).unwrap()), t.name());
    }
    for a in Attr::ALL {
        assert_eq!(serde_name(serde_json::to_value(a).unwrap()), a.name());
    }
}

/// Issue 39: `markdown()` is the Rust export of the conversation, in the stream's
/// locale; `markdown(i)` one turn of it.
#[wasm_bindgen_test]
fn markdown_is_the_rust_export_and_a_turn_of_it() {
    use docstream_html::markdown_export::{KeepAll, conversation_markdown, turn_markdown};
    for input in FIXTURES {
        let mut s = JsDocStream::new(None).unwrap();
        for chunk in input.chunks(17) {
            s.write(chunk).unwrap();
        }
        s.end().unwrap();
        let native = native(input);
        let c = native.conversation();
        let opts = RenderOptions::default();
        assert_eq!(s.markdown(None), conversation_markdown(c, &opts));
        for i in 0..c.turns.len() {
            assert_eq!(
                s.markdown(Some(i as u32)),
                turn_markdown(c, i, &opts, &mut KeepAll)
            );
        }
        assert_eq!(s.markdown(Some(c.turns.len() as u32)), "");
    }
    let mut s = JsDocStream::new(Some(object(&[("locale", "de".into())]))).unwrap();
    s.write(TOOLS).unwrap();
    s.end().unwrap();
    let german = s.markdown(None);
    assert!(
        german.contains("## Du") || german.contains("## Assistent"),
        "{german}"
    );
}

/// Issue 36: the full module's Markdown of another module's snapshot (`__markdownOf`,
/// what the element asks for a stream the default module reads) is its own Markdown
/// of the stream, whole and turn by turn, in the stream's options: the views, error
/// messages and sub-agent links a snapshot leaves out are read back (the snapshot
/// deserialised alone gives other Markdown for these fixtures).
#[wasm_bindgen_test]
fn the_markdown_of_a_snapshot_is_the_markdown_of_the_stream() {
    use docstream_html::markdown_export::conversation_markdown;
    use docstream_wasm::markdown_of_snapshot;
    let inputs: [(&str, &[u8]); 3] = [
        (
            "cursor-stream-json/subagents",
            include_bytes!("../../../tests/fixtures/cursor-stream-json/subagents.jsonl"),
        ),
        (
            "claude-code-stream-json/subagents",
            include_bytes!("../../../tests/fixtures/claude-code-stream-json/subagents.jsonl"),
        ),
        ("cursor-stream-json/tools", TOOLS),
    ];
    for (name, input) in inputs {
        for locale in ["en", "de"] {
            let options = || Some(object(&[("locale", locale.into())]));
            let mut s = JsDocStream::new(options()).unwrap();
            s.write(input).unwrap();
            s.end().unwrap();
            let json = s.snapshot_json().unwrap();
            let turns = native(input).conversation().turns.len() as u32;
            assert_eq!(
                markdown_of_snapshot(&json, options(), None).unwrap(),
                s.markdown(None),
                "{name}, {locale}"
            );
            for i in 0..=turns {
                assert_eq!(
                    markdown_of_snapshot(&json, options(), Some(i)).unwrap(),
                    s.markdown(Some(i)),
                    "{name}, {locale}, turn {i}"
                );
            }
        }
        // What the restoring is for: the snapshot deserialised alone loses them.
        let mut s = JsDocStream::new(None).unwrap();
        s.write(input).unwrap();
        s.end().unwrap();
        let json = s.snapshot_json().unwrap();
        let bare: docstream_core::model::Conversation =
            docstream_core::model::read_json::from_str(&json).unwrap();
        assert_ne!(
            conversation_markdown(&bare, &RenderOptions::default()),
            s.markdown(None),
            "{name}: a bare snapshot gives the same Markdown, so this test shows nothing"
        );
    }
    let error = markdown_of_snapshot("{\"turns\": 1}", None, None).unwrap_err();
    assert_eq!(
        get(&error, "code").as_string().as_deref(),
        Some("DS_BAD_INPUT")
    );
}
