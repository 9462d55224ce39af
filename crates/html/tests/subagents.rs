//! Sub-agents (issue 13): a Claude Code `Task`/`Agent` call's sub-agent is a run of its
//! own, linked to its call both ways, shown folded inside the call; the edge cases of
//! a stream that ends early, a parent that is not known, a background agent, nesting.

use docstream_core::model::{
    CallStatus, Conversation, DocKey, DocumentType, Meta, ResponseStatus, ToolCallMeta, Turn,
};
use docstream_core::{DocStream, Format, Options};
use docstream_html::HtmlView;
use docstream_html::patch::Patch;
use docstream_html::{RenderOptions, render_conversation};
use serde_json::{Value, json};

/// One stream-json line of the main agent (`parent` `None`) or of a sub-agent.
fn line(kind: &str, parent: Option<&str>, content: Value) -> String {
    let role = if kind == "assistant" {
        "assistant"
    } else {
        "user"
    };
    let mut message = json!({"role": role, "content": content});
    if kind == "assistant" {
        message["model"] = json!(if parent.is_some() { "haiku" } else { "sonnet" });
    }
    json!({"type": kind, "message": message, "parent_tool_use_id": parent, "session_id": "s"})
        .to_string()
        + "\n"
}

fn task(id: &str, description: &str) -> String {
    line(
        "assistant",
        None,
        json!([{"type": "tool_use", "id": id, "name": "Task",
            "input": {"description": description, "subagent_type": "Explore", "prompt": "Look."}}]),
    )
}

fn bash(parent: Option<&str>, id: &str) -> String {
    line(
        "assistant",
        parent,
        json!([{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": "ls"}}]),
    )
}

fn result(parent: Option<&str>, id: &str, content: Value) -> String {
    line(
        "user",
        parent,
        json!([{"type": "tool_result", "tool_use_id": id, "content": content}]),
    )
}

const INIT: &str = r#"{"type":"system","subtype":"init","session_id":"s","model":"sonnet"}
"#;
const DONE: &str = r#"{"type":"result","subtype":"success","is_error":false,"result":"ok"}
"#;

fn run(input: &str) -> Conversation {
    run_as(Format::ClaudeCodeStreamJson, input)
}

fn run_as(format: Format, input: &str) -> Conversation {
    let mut s = DocStream::new(Options {
        format: Some(format),
        ..Options::default()
    });
    s.push(input.as_bytes()).unwrap();
    s.finish().unwrap();
    s.conversation().clone()
}

fn response(c: &Conversation, t: usize) -> &docstream_core::model::Response {
    match &c.turns[t] {
        Turn::Assistant(r) => r,
        Turn::User(_) => panic!("turn {t} is a user turn"),
    }
}

fn call(c: &Conversation, t: usize, i: usize) -> &ToolCallMeta {
    match &response(c, t).documents[i].meta {
        Meta::ToolCall(m) => m,
        other => panic!("not a tool call: {other:?}"),
    }
}

#[test]
fn a_sub_agents_lines_are_its_calls_run_and_its_prompt_no_user_turn() {
    let input = [
        INIT.to_owned(),
        task("T", "Find"),
        line(
            "user",
            Some("T"),
            json!([{"type": "text", "text": "Look."}]),
        ),
        bash(Some("T"), "B"),
        result(Some("T"), "B", json!("a\nb")),
        result(None, "T", json!("Found it.")),
        line(
            "assistant",
            None,
            json!([{"type": "text", "text": "Thanks."}]),
        ),
        DONE.to_owned(),
    ]
    .concat();
    let c = run(&input);
    assert_eq!(
        c.turns.len(),
        2,
        "the main response and the run, no prompt turn"
    );
    assert_eq!(c.subagent_parent(1), Some(DocKey { turn: 0, index: 0 }));
    assert_eq!(c.subagent_run(DocKey { turn: 0, index: 0 }), Some(1));
    let main = response(&c, 0);
    assert_eq!(main.model, "sonnet", "the sub-agent's model stays its own");
    assert_eq!(main.metadata.tool_call_count, 1);
    let sub = response(&c, 1);
    assert_eq!(
        (sub.model.as_str(), sub.status),
        ("haiku", ResponseStatus::Completed)
    );
    assert_eq!(sub.metadata.tool_call_count, 1);
    assert_eq!(sub.documents[0].doc_type(), DocumentType::TerminalCommand);
    assert_eq!(
        main.documents[1].text(),
        "Thanks.",
        "no text runs across agents"
    );
    let json = serde_json::to_value(&c).unwrap();
    assert_eq!(json["turns"][1]["parent"]["toolCallId"], "T");
    assert_eq!(
        json["turns"][0]["documents"][0]["metadata"]["subagent"]["turn"],
        1
    );
}

#[test]
fn a_stream_cut_off_in_a_sub_agent_cuts_off_its_run_and_its_call() {
    let input = [INIT.to_owned(), task("T", "Find"), bash(Some("T"), "B")].concat();
    let c = run(&input);
    let sub = response(&c, 1);
    assert_eq!(sub.status, ResponseStatus::Error);
    assert_eq!(
        sub.documents.last().unwrap().doc_type(),
        DocumentType::Error
    );
    match &sub.documents[0].meta {
        Meta::TerminalCommand(m) => assert_eq!(m.status, Some(CallStatus::NoResult)),
        other => panic!("{other:?}"),
    }
    assert_eq!(response(&c, 0).status, ResponseStatus::Error);
    assert_eq!(call(&c, 0, 0).status(), CallStatus::NoResult);
}

#[test]
fn lines_of_an_unknown_parent_stay_with_the_main_agent() {
    let input = [INIT.to_owned(), bash(Some("nobody"), "B"), DONE.to_owned()].concat();
    let c = run(&input);
    assert_eq!(c.turns.len(), 1);
    assert_eq!(
        response(&c, 0).documents[0].doc_type(),
        DocumentType::TerminalCommand
    );
}

#[test]
fn a_background_agent_goes_on_after_its_launch_and_ends_with_its_notification() {
    let launched = r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"T","content":"Async agent launched successfully."}]},"parent_tool_use_id":null,"tool_use_result":{"isAsync":true,"status":"async_launched","agentId":"a1"}}
"#;
    let note = r#"{"type":"system","subtype":"task_notification","task_id":"a1","tool_use_id":"T","status":"completed","summary":"done"}
"#;
    let input = [
        INIT.to_owned(),
        task("T", "Wait"),
        launched.to_owned(),
        bash(Some("T"), "B"),
        DONE.to_owned(),
        result(Some("T"), "B", json!("x")),
        note.to_owned(),
    ]
    .concat();
    let c = run(&input);
    assert_eq!(response(&c, 0).status, ResponseStatus::Completed);
    let sub = response(&c, 1);
    assert_eq!(
        sub.status,
        ResponseStatus::Completed,
        "ended by its notification"
    );
    assert_eq!(sub.documents.len(), 1, "no cut-off error");
}

#[test]
fn runs_nest_up_to_a_depth_and_deeper_ones_join_their_callers_run() {
    let mut input = INIT.to_owned() + &task("T0", "level 0");
    for d in 1..12 {
        let parent = format!("T{}", d - 1);
        input += &line(
            "assistant",
            Some(&parent),
            json!([{"type": "tool_use", "id": format!("T{d}"), "name": "Task",
                "input": {"description": format!("level {d}"), "prompt": "Go."}}]),
        );
    }
    let c = run(&input);
    let nested = (0..c.turns.len())
        .filter(|&t| c.subagent_parent(t).is_some())
        .count();
    assert_eq!(nested, 8, "eight levels of runs");
    let html = render_conversation(&c, &RenderOptions::default());
    assert_eq!(html.matches("<details class=\"ds-turn").count(), 8);
}

#[test]
fn the_run_is_inserted_into_its_call_and_a_sub_agent_step_patches_only_its_run() {
    let mut s = DocStream::new(Options {
        format: Some(Format::ClaudeCodeStreamJson),
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    s.push([INIT.to_owned(), task("T", "Find")].concat().as_bytes())
        .unwrap();
    let changes = s.take_changes();
    let _ = view.update(s.conversation(), &changes);
    s.push(bash(Some("T"), "B").as_bytes()).unwrap();
    let changes = s.take_changes();
    let patches = view.update(s.conversation(), &changes);
    let turn = patches
        .iter()
        .find_map(|p| match p {
            &Patch::InsertTurn { turn, ref html } => Some((turn, html.clone())),
            _ => None,
        })
        .expect("the run's turn");
    assert_eq!(turn.0, 1);
    assert!(
        turn.1
            .starts_with("<details class=\"ds-turn ds-assistant ds-subagent\" data-turn-index=\"1\" data-parent-turn=\"0\" data-parent-index=\"0\">"),
        "{}",
        turn.1
    );
    s.push(result(Some("T"), "B", json!("a")).as_bytes())
        .unwrap();
    let changes = s.take_changes();
    let patches = view.update(s.conversation(), &changes);
    assert!(!patches.is_empty());
    for p in &patches {
        match p {
            Patch::ReplacePart {
                turn: 1, index: 0, ..
            }
            | Patch::ReplaceTurnHeader { turn: 1, .. } => {}
            other => panic!("a sub-agent's result touched more than its run: {other:?}"),
        }
    }
}

#[test]
fn a_run_that_arrives_with_its_call_is_inserted_after_it() {
    let mut s = DocStream::new(Options {
        format: Some(Format::ClaudeCodeStreamJson),
        ..Options::default()
    });
    let mut view = HtmlView::new(RenderOptions::default());
    let input = [INIT.to_owned(), task("T", "Find"), bash(Some("T"), "B")].concat();
    s.push(input.as_bytes()).unwrap();
    let changes = s.take_changes();
    let patches = view.update(s.conversation(), &changes);
    let at = |want: &dyn Fn(&Patch) -> bool| patches.iter().position(want).expect("patch");
    let call = at(&|p| {
        matches!(
            p,
            Patch::InsertDocument {
                turn: 0,
                index: 0,
                ..
            }
        )
    });
    let run = at(&|p| matches!(p, Patch::InsertTurn { turn: 1, .. }));
    let step = at(&|p| {
        matches!(
            p,
            Patch::InsertDocument {
                turn: 1,
                index: 0,
                ..
            }
        )
    });
    assert!(
        call < run && run < step,
        "call {call}, run {run}, step {step}"
    );
}

#[test]
fn links_between_runs_are_not_read_back_from_saved_json() {
    let c = run(&[INIT.to_owned(), task("T", "Find"), bash(Some("T"), "B")].concat());
    let json = serde_json::to_string(&c).unwrap();
    let back: Conversation = serde_json::from_str(&json).unwrap();
    assert_eq!(response(&back, 1).parent, None);
    assert_eq!(call(&back, 0, 0).subagent.as_ref().unwrap().turn, None);
    assert_eq!(
        back.subagent_parent(1),
        None,
        "a saved run is a turn of its own"
    );
}

/// A Cursor `taskToolCall` line (`started`, or `completed` with `result`).
fn cursor_task(subtype: &str, id: &str, agent: Value, result: Option<Value>) -> String {
    let mut body =
        json!({"args": {"description": "Look around", "prompt": "Look.", "subagentType": agent}});
    if let Some(result) = result {
        body["result"] = result;
    }
    json!({"type": "tool_call", "subtype": subtype, "call_id": id,
        "tool_call": {"taskToolCall": body}, "session_id": "s"})
    .to_string()
        + "\n"
}

fn cursor_run(input: &str) -> Conversation {
    run_as(Format::CursorStreamJson, input)
}

#[test]
fn a_cursor_task_result_is_its_run_even_without_a_started_line() {
    let steps = json!({"success": {"conversationSteps": [
        {"assistantMessage": {"text": "First."}},
        {"someStepNotYetSeen": {"x": 1}},
        {"assistantMessage": {"text": "Then **second**."}},
    ], "agentId": "exec-1", "durationMs": "1500"}});
    let input = [
        INIT.to_owned(),
        cursor_task(
            "completed",
            "C",
            json!({"custom": {"name": "reviewer"}}),
            Some(steps),
        ),
        DONE.to_owned(),
    ]
    .concat();
    let c = cursor_run(&input);
    let m = call(&c, 0, 0);
    let sub = m.subagent.as_ref().expect("a sub-agent call");
    assert_eq!(sub.agent_type.as_deref(), Some("reviewer"));
    assert_eq!(m.duration_ms, Some(1500));
    let data = &m.result.as_ref().unwrap().data;
    assert!(
        data.get("conversationSteps").is_none(),
        "steps are the run, not the result: {data}"
    );
    let run = sub.turn.expect("the call links its run");
    let r = response(&c, run);
    assert_eq!(r.status, ResponseStatus::Completed);
    assert_eq!(r.parent.as_ref().unwrap().tool_call_id, "C");
    assert_eq!(r.documents.len(), 1);
    assert_eq!(
        r.documents[0].content.as_deref(),
        Some("First.\n\nThen **second**.")
    );
    assert_eq!(
        c.stats.unknown_events, 1,
        "the step of an unknown kind is counted"
    );
}

#[test]
fn a_failed_cursor_task_ends_its_run_as_failed_and_agent_kinds_read_in_every_form() {
    let failed = json!({"error": {"error": "stopped", "conversationSteps": [
        {"assistantMessage": {"text": "Started."}}]}});
    let input = [
        INIT.to_owned(),
        cursor_task("started", "A", json!("explore"), None),
        cursor_task("started", "B", json!({"generalPurpose": {}}), None),
        cursor_task(
            "completed",
            "B",
            json!({"generalPurpose": {}}),
            Some(failed),
        ),
        DONE.to_owned(),
    ]
    .concat();
    let c = cursor_run(&input);
    assert_eq!(
        call(&c, 0, 0)
            .subagent
            .as_ref()
            .unwrap()
            .agent_type
            .as_deref(),
        Some("explore")
    );
    let b = call(&c, 0, 1);
    assert_eq!(
        b.subagent.as_ref().unwrap().agent_type.as_deref(),
        Some("generalPurpose")
    );
    assert_eq!(b.result.as_ref().unwrap().status, CallStatus::Error);
    let run = response(&c, b.subagent.as_ref().unwrap().turn.unwrap());
    assert_eq!(run.status, ResponseStatus::Error);
    assert_eq!(run.documents[0].content.as_deref(), Some("Started."));
    assert!(
        call(&c, 0, 0).subagent.as_ref().unwrap().turn.is_none(),
        "no steps, no run"
    );
}

#[test]
fn a_cursor_run_holds_its_tools_and_its_own_sub_agents_and_goes_on_after_them() {
    let inner = json!({"toolCall": {"taskToolCall": {
        "args": {"description": "Deeper", "subagentType": {"custom": "digger"}},
        "result": {"success": {"conversationSteps": [{"assistantMessage": {"text": "Deep."}}]}}}}});
    let steps = json!({"success": {"conversationSteps": [
        {"toolCall": {"shellToolCall": {"args": {"command": "ls", "toolCallId": "sub_ls"},
            "result": {"success": {"exitCode": 0, "stdout": "a\n"}}}}},
        inner,
        {"assistantMessage": {"text": "Outer again."}},
    ]}});
    let input = [
        INIT.to_owned(),
        cursor_task("completed", "OUT", json!({"unspecified": {}}), Some(steps)),
        DONE.to_owned(),
    ]
    .concat();
    let c = cursor_run(&input);
    let outer = call(&c, 0, 0).subagent.as_ref().unwrap();
    assert_eq!(outer.agent_type, None, "`unspecified` names no kind");
    let run = outer.turn.unwrap();
    let r = response(&c, run);
    let types: Vec<_> = r.documents.iter().map(|d| d.doc_type()).collect();
    assert_eq!(
        types,
        [
            DocumentType::TerminalCommand,
            DocumentType::ToolCall,
            DocumentType::Text
        ]
    );
    assert_eq!(r.documents[2].content.as_deref(), Some("Outer again."));
    let inner = call(&c, run, 1).subagent.as_ref().unwrap();
    assert_eq!(inner.agent_type.as_deref(), Some("digger"));
    let deep = response(&c, inner.turn.unwrap());
    assert_eq!(
        deep.parent.as_ref().unwrap().turn,
        run,
        "the inner run hangs off the outer run"
    );
    assert_eq!(deep.documents[0].content.as_deref(), Some("Deep."));
    assert_eq!(deep.status, ResponseStatus::Completed);
    assert_eq!(r.status, ResponseStatus::Completed);
}

/// Issue 37: a sub-agent's own transcript (`agent-<id>.jsonl`, every line `isSidechain`)
/// opens with the prompt its parent agent wrote: it is labelled as the parent agent's,
/// never "You", on the page and in the objects, and a saved conversation read back
/// keeps who wrote it.
#[test]
fn a_sub_agents_own_transcript_is_prompted_by_its_parent_agent() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/claude-code-transcript/subagent_own_file.jsonl"
    );
    let input = std::fs::read(path).unwrap();
    let mut s = DocStream::new(Options::default());
    s.push(&input).unwrap();
    s.finish().unwrap();
    let Some(Turn::User(prompt)) = s.conversation().turns.first() else {
        panic!("{path}: no prompt first: {:?}", s.conversation().turns);
    };
    assert_eq!(
        prompt.from,
        Some(docstream_core::model::PromptFrom::ParentAgent),
        "{path}"
    );
    let html = render_conversation(s.conversation(), &RenderOptions::default());
    assert!(
        html.contains("ds-from-agent\">Parent agent"),
        "{path}:\n{html}"
    );
    assert!(!html.contains(">You<"), "{path}:\n{html}");

    // Read back as a saved conversation, the prompt is still the parent agent's, and
    // a person's prompt is still the person's.
    let saved = serde_json::to_string(s.conversation()).unwrap();
    let mut back = DocStream::new(Options {
        format: Some(Format::ResponseJson),
        ..Options::default()
    });
    back.push(saved.as_bytes()).unwrap();
    back.finish().unwrap();
    let froms: Vec<_> = back
        .conversation()
        .turns
        .iter()
        .filter_map(|t| match t {
            Turn::User(u) => Some(u.from),
            Turn::Assistant(_) => None,
        })
        .collect();
    assert_eq!(
        froms,
        [Some(docstream_core::model::PromptFrom::ParentAgent)],
        "{saved}"
    );
    let person = run(&(INIT.to_owned() + &line("user", None, json!("Hi.")) + DONE));
    assert!(
        matches!(person.turns.first(), Some(Turn::User(u)) if u.from.is_none()),
        "{:?}",
        person.turns
    );
}

/// Issue 37: Claude Code 2.1+ keeps each sub-agent in `<session>/subagents/agent-<id>.jsonl`.
/// Given beside the session, the file is read as the run of the call whose result names
/// the agent (`toolUseResult.agentId`): its tools inside the call, its prompt no turn,
/// the run ended by the call's result; the same state and page for every chunking of
/// the session, patches included; the page is the golden `*.with_subagents.expected.html`.
#[test]
fn a_sub_agent_file_beside_the_session_is_its_calls_run() {
    use docstream_html::patch::PageModel;
    use docstream_testkit as support;
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/claude-code-transcript"
    );
    let session = std::fs::read(format!("{dir}/subagent_answers.jsonl")).unwrap();
    let agent_file = format!("{dir}/subagent_answers/subagents/agent-a1dd713c82c78b9ed.jsonl");
    let agent = std::fs::read(&agent_file).unwrap();
    let read = |cuts: &[usize]| {
        let mut s = DocStream::new(Options::default());
        s.add_subagent("a1dd713c82c78b9ed", agent.clone());
        s.add_subagent("not-in-the-session", b"{\"type\":\"user\"}\n".to_vec());
        let mut view = HtmlView::new(RenderOptions::default());
        let mut page = PageModel::new();
        let mut from = 0;
        for &to in cuts.iter().chain([session.len()].iter()) {
            s.push(&session[from..to]).unwrap();
            let changes = s.take_changes();
            for p in view.update(s.conversation(), &changes) {
                page.apply(&p);
            }
            from = to;
        }
        s.finish().unwrap();
        let changes = s.take_changes();
        for p in view.update(s.conversation(), &changes) {
            page.apply(&p);
        }
        (s, page.html())
    };
    let (whole, _) = read(&[]);
    let c = whole.conversation();
    let html = render_conversation(c, &RenderOptions::default());
    support::check_golden(
        std::path::Path::new(&format!(
            "{dir}/subagent_answers.with_subagents.expected.html"
        )),
        &html,
    );
    // The first call's run holds the agent's Grep; the other calls have none.
    let runs: Vec<_> = c
        .turns
        .iter()
        .filter_map(|t| match t {
            Turn::Assistant(r) if r.parent.is_some() => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(runs.len(), 1, "{agent_file}: {:?}", c.turns);
    let run = runs[0];
    assert_eq!(run.parent.as_ref().unwrap().tool_call_id, "toolu_01Tot");
    assert_eq!(run.status, ResponseStatus::Completed, "{agent_file}");
    assert!(
        run.documents
            .iter()
            .any(|d| d.doc_type() == DocumentType::ToolCall),
        "{agent_file}: {:?}",
        run.documents
    );
    assert!(
        !c.turns
            .iter()
            .any(|t| matches!(t, Turn::User(u) if u.content.starts_with("Find where"))),
        "the sub-agent's prompt is no turn of the session"
    );
    assert!(html.contains("Searched"), "{html}");
    let expected = support::json(&whole);
    for (name, cuts) in support::chunkings(session.len()) {
        let (s, patched) = read(&cuts);
        assert_eq!(support::json(&s), expected, "{agent_file}: chunked {name}");
        assert_eq!(patched, html, "{agent_file}: patches chunked {name}");
    }
}
