//! Plan and todo tools to `plan` and `todo_update` documents: the todos with their
//! status and dependencies, and the user's answer to a plan put to them.

use serde_json::Value;

use super::super::events::ToolOutcome;
use super::fields::{error_message, field, str_field, strings};
use super::folded;
use crate::model::{
    ApprovalStatus, CallStatus, Meta, PlanApproval, PlanMeta, PlanTodo, TodoChange, TodoStatus,
    TodoUpdateMeta,
};

fn todos(args: &Value) -> Vec<(String, Option<String>, TodoStatus, Vec<String>)> {
    let list = match field(args, &["todos", "items", "tasks"]) {
        Some(Value::Array(list)) => list.as_slice(),
        _ => &[],
    };
    list.iter()
        .enumerate()
        .map(|(i, t)| {
            let content = str_field(t, &["content", "title", "text", "description", "task"])
                .map(str::to_owned);
            let id = str_field(t, &["id", "todoId"])
                .map(str::to_owned)
                .or_else(|| field(t, &["id"]).map(|v| v.to_string()))
                .or_else(|| content.clone())
                .unwrap_or_else(|| format!("{}", i + 1));
            let status = str_field(t, &["status", "state"])
                .and_then(TodoStatus::parse)
                .unwrap_or_default();
            let deps = strings(t, &["dependencies", "dependsOn", "depends_on", "blockedBy"]);
            (id, content, status, deps)
        })
        .collect()
}

pub(super) fn plan(
    name: &str,
    call_id: &str,
    args: &Value,
    outcome: Option<&ToolOutcome>,
) -> (Meta, Option<String>) {
    let meta = PlanMeta {
        title: str_field(args, &["title", "name"])
            .unwrap_or_default()
            .to_owned(),
        overview: str_field(args, &["overview", "summary", "description"])
            .unwrap_or_default()
            .to_owned(),
        todos: todos(args)
            .into_iter()
            .map(|(id, content, status, dependencies)| PlanTodo {
                id,
                content: content.unwrap_or_default(),
                status,
                dependencies,
            })
            .collect(),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        approval: outcome.filter(|_| asks_approval(name)).and_then(approval),
        ..PlanMeta::default()
    };
    let content = str_field(args, &["plan", "content", "markdown", "body"]).map(str::to_owned);
    (Meta::Plan(meta), content)
}

/// Whether a plan tool puts the plan to the user (its result is their answer), as
/// Claude Code's `ExitPlanMode` and Cursor's plan request do; other plan tools (Codex's
/// `update_plan` …) only record it.
fn asks_approval(name: &str) -> bool {
    ["exitplanmode", "createplanrequest"]
        .iter()
        .any(|asking| folded(name).eq(asking.chars()))
}

/// The user's answer to a plan put to them, from its call's result: a success is an
/// approval, a refusal or error a rejection with what the user said (Claude Code puts it
/// after "the user said:"; Cursor gives a `reason`).
fn approval(outcome: &ToolOutcome) -> Option<PlanApproval> {
    let status = match outcome.status {
        CallStatus::Success => ApprovalStatus::Approved,
        CallStatus::Rejected | CallStatus::Denied | CallStatus::Error => ApprovalStatus::Rejected,
        // Stopped before the user answered: no answer.
        CallStatus::Running | CallStatus::NoResult | CallStatus::Interrupted => return None,
    };
    let feedback = match status {
        ApprovalStatus::Rejected => error_message(&outcome.data).and_then(|m| {
            const SAID: &str = "the user said:";
            match m.find(SAID) {
                Some(at) => Some(m[at + SAID.len()..].trim().to_owned()),
                // Claude Code's stock refusal says nothing the status does not.
                None if m.contains("doesn't want to proceed") => None,
                None => Some(m.trim().to_owned()),
            }
        }),
        _ => None,
    };
    Some(PlanApproval {
        status,
        feedback: feedback.filter(|f| !f.is_empty()),
    })
}

pub(super) fn todo_update(call_id: &str, args: &Value) -> (Meta, Option<String>) {
    let meta = TodoUpdateMeta {
        todos: todos(args)
            .into_iter()
            .map(|(id, content, status, _)| TodoChange {
                id,
                status,
                content,
            })
            .collect(),
        merge: field(args, &["merge"]).and_then(Value::as_bool),
        tool_call_id: Some(call_id.to_owned()).filter(|s| !s.is_empty()),
        merged_todos: Vec::new(),
    };
    (Meta::TodoUpdate(meta), None)
}
