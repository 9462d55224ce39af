//! Codex spawned threads (issue 37): a child thread's file starts with the history it
//! was given from its parent; it shows only what the child did, its prompt is the
//! parent agent's, and it names the thread and call that spawned it. The parent's spawn
//! call names the child's thread.

use docstream_core::Format;
use docstream_model::{Meta, PromptFrom, SpawnedBy, Turn};
use docstream_testkit::{chunkings, feed};

const PARENT: &str = "019a3c10-5e2f-7a41-8b62-0c1d2e3f4a5b";
const CHILD: &str = "019a3c12-9d8e-7f60-a1b2-c3d4e5f60718";

fn read(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/codex-session/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn a_forked_child_shows_only_its_own_turns_prompted_by_its_parent() {
    let input = read("spawned_child.jsonl");
    for (name, cuts) in chunkings(input.len()) {
        let stream = feed(&input, Some(Format::CodexSession), &cuts);
        let c = stream.conversation();
        let prompts: Vec<_> = c
            .turns
            .iter()
            .filter_map(|t| match t {
                Turn::User(u) => Some(u),
                Turn::Assistant(_) => None,
            })
            .collect();
        assert_eq!(
            prompts.len(),
            1,
            "spawned_child.jsonl ({name}): the parent's copied prompt is not the child's: {prompts:#?}"
        );
        let p = prompts[0];
        assert!(
            p.content.starts_with("Find every function"),
            "{name}: {p:?}"
        );
        assert_eq!(p.from, Some(PromptFrom::ParentAgent), "{name}");
        assert_eq!(
            p.spawned_by,
            Some(SpawnedBy {
                thread_id: PARENT.to_owned(),
                call_id: Some("call_spawn_sums".to_owned()),
                nickname: Some("Hypatia".to_owned()),
                role: Some("explorer".to_owned()),
                depth: Some(1),
                parent_history: Some(1),
            }),
            "{name}"
        );
        let r = c.responses().next().expect("the child's response");
        assert_eq!(r.conversation_id, CHILD, "{name}");
        assert_eq!(r.model, "gpt-5.1-codex-mini", "{name}");
        // Usage since the history it was given: the copied token count is the base.
        let u = r.usage.as_ref().expect("usage");
        assert_eq!(
            (u.prompt_tokens, u.completion_tokens),
            (3200, 220),
            "{name}"
        );
        assert_eq!(c.stats.unknown_events, 0, "{name}");
        assert_eq!(c.responses().count(), 1, "{name}");
    }
}

#[test]
fn a_child_given_no_history_names_its_parent_thread() {
    let stream = feed(
        &read("spawned_fresh.jsonl"),
        Some(Format::CodexSession),
        &[],
    );
    let c = stream.conversation();
    let Some(Turn::User(p)) = c.turns.first() else {
        panic!("spawned_fresh.jsonl: no prompt first: {:#?}", c.turns);
    };
    assert_eq!(p.from, Some(PromptFrom::ParentAgent));
    let by = p.spawned_by.as_ref().expect("spawned_by");
    assert_eq!(
        (
            by.thread_id.as_str(),
            by.call_id.as_deref(),
            by.parent_history
        ),
        (PARENT, None, None)
    );
}

#[test]
fn the_parents_spawn_call_names_the_child_thread() {
    let stream = feed(
        &read("spawned_parent.jsonl"),
        Some(Format::CodexSession),
        &[],
    );
    let c = stream.conversation();
    let spawn = c
        .documents()
        .find_map(|d| match &d.meta {
            Meta::ToolCall(m) if m.tool_name == "spawn_agent" => Some(m),
            _ => None,
        })
        .expect("spawn_agent call");
    let facts = match &spawn.view {
        docstream_model::ToolView::Subagent(v) => v.facts.as_deref().cloned(),
        other => panic!("spawned_parent.jsonl: not a sub-agent view: {other:?}"),
    };
    assert_eq!(facts.and_then(|f| f.agent_id).as_deref(), Some(CHILD));
    // The collab events repeat the calls: bookkeeping, not "not understood".
    assert_eq!(c.stats.unknown_events, 0);
}

/// The child file with its copy's end replaced by `line` (or by nothing).
fn child_ending_copy_with(line: Option<&str>) -> Vec<u8> {
    let text = String::from_utf8(read("spawned_child.jsonl")).unwrap();
    let mut out = String::new();
    for l in text.lines() {
        if l.contains("You are the newly spawned agent") {
            if let Some(line) = line {
                out.push_str(line);
                out.push('\n');
            }
        } else {
            out.push_str(l);
            out.push('\n');
        }
    }
    out.into_bytes()
}

#[test]
fn a_message_from_another_agent_also_ends_the_copy() {
    let input = child_ending_copy_with(Some(
        r#"{"timestamp":"2025-11-03T14:00:05.500Z","type":"inter_agent_communication_metadata","payload":{"trigger_turn":true}}"#,
    ));
    for (name, cuts) in chunkings(input.len()) {
        let stream = feed(&input, Some(Format::CodexSession), &cuts);
        let c = stream.conversation();
        let prompts: Vec<_> = c
            .turns
            .iter()
            .filter_map(|t| match t {
                Turn::User(u) => Some(u),
                Turn::Assistant(_) => None,
            })
            .collect();
        assert_eq!(prompts.len(), 1, "{name}: {prompts:#?}");
        let by = prompts[0].spawned_by.as_ref().expect("spawned_by");
        assert_eq!(
            (by.call_id.as_deref(), by.parent_history),
            (None, Some(1)),
            "{name}"
        );
        assert_eq!(c.stats.unknown_events, 0, "{name}");
    }
}

#[test]
fn a_copy_that_never_ends_is_said_not_shown_as_the_childs() {
    let input = child_ending_copy_with(None);
    let stream = feed(&input, Some(Format::CodexSession), &[]);
    let c = stream.conversation();
    assert!(
        c.turns.iter().all(|t| !matches!(t, Turn::User(_))),
        "no prompt of the parent's is the child's: {:#?}",
        c.turns
    );
    let said: Vec<&str> = c.documents().map(|d| d.text()).collect();
    assert!(
        said.iter()
            .any(|t| t.contains("does not mark where its own work begins")),
        "{said:?}"
    );
}
