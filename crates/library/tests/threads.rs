//! Codex spawned threads in a list (issue 37): each child's entry names the entry of
//! the thread that spawned it and the spawning call, the parent's lists its children,
//! and the list puts them right after their parent — in `list --json` too.

use std::fs;
use std::path::Path;

use docstream_library::store::Library;
use docstream_library::{Entry, ParentLink};
use docstream_testkit::stores::scratch;

const PARENT: &str =
    "sessions/2025/11/03/rollout-2025-11-03T14-00-00-019a3c10-5e2f-7a41-8b62-0c1d2e3f4a5b.jsonl";
const CHILD: &str =
    "sessions/2025/11/03/rollout-2025-11-03T14-00-05-019a3c12-9d8e-7f60-a1b2-c3d4e5f60718.jsonl";
const FRESH: &str =
    "sessions/2025/11/03/rollout-2025-11-03T15-10-00-019a3c20-1a2b-7c3d-8e4f-5a6b7c8d9e0f.jsonl";

fn entry<'a>(entries: &'a [Entry], id: &str) -> &'a Entry {
    entries.iter().find(|e| e.id == id).unwrap_or_else(|| {
        panic!(
            "no entry {id}: {:?}",
            entries.iter().map(|e| &e.id).collect::<Vec<_>>()
        )
    })
}

#[test]
fn spawned_codex_threads_link_to_their_parent_both_ways() {
    let dir = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-codex-threads");
    let fixtures = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/codex-session");
    fs::create_dir_all(dir.join("sessions/2025/11/03")).unwrap();
    for (fixture, to) in [
        ("spawned_parent.jsonl", PARENT),
        ("spawned_child.jsonl", CHILD),
        ("spawned_fresh.jsonl", FRESH),
    ] {
        fs::copy(fixtures.join(fixture), dir.join(to)).unwrap();
    }
    let mut lib = Library::open(&dir).unwrap();
    lib.index(|_, _, _| {});
    let entries = lib.entries();

    let child = entry(entries, CHILD);
    assert_eq!(
        child.parent,
        Some(ParentLink {
            conversation: PARENT.to_owned(),
            tool_call_id: Some("call_spawn_sums".to_owned()),
        }),
        "the forked child names its parent and the spawning call"
    );
    assert!(
        child.title.starts_with("Find every function"),
        "{}",
        child.title
    );
    // A child whose file names no call: its parent's file has no call naming it either.
    assert_eq!(
        entry(entries, FRESH).parent,
        Some(ParentLink {
            conversation: PARENT.to_owned(),
            tool_call_id: None,
        })
    );
    let parent = entry(entries, PARENT);
    assert_eq!(parent.parent, None);
    assert_eq!(parent.children, [CHILD, FRESH]);

    // Each child right after its parent.
    let order: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    let at = |id: &str| order.iter().position(|e| *e == id).unwrap();
    assert!(
        at(PARENT) < at(CHILD) && at(PARENT) < at(FRESH),
        "{order:?}"
    );

    // What `list --json` prints of them.
    let json = serde_json::to_value(child).unwrap();
    assert_eq!(json["parent"]["conversation"], PARENT);
    assert_eq!(json["parent"]["toolCallId"], "call_spawn_sums");
    let json = serde_json::to_value(parent).unwrap();
    assert_eq!(json["children"], serde_json::json!([CHILD, FRESH]));
}
