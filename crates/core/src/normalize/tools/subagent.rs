//! Tools that start a sub-agent (`Task`, `Agent`, `spawn_agent`, Cursor's
//! `taskToolCall`): what the agent was asked, and its answer.

use serde_json::Value;

use super::fields::{field, str_field, text_field};
use super::generic::result_text;
use crate::model::{Subagent, SubagentView};

/// The sub-agent a call starts: what it was asked to do, in a few words, and the kind
/// of agent.
pub(super) fn subagent(args: &Value) -> Subagent {
    Subagent {
        description: str_field(args, &["description", "title", "name"])
            .map(str::to_owned)
            .unwrap_or_else(|| first_words(str_field(args, &["prompt", "message"]))),
        agent_type: agent_type(args),
        turn: None,
    }
}

/// The view of a sub-agent's call: its whole prompt, and its answer once the result
/// came (its text, or the messages of the agents it started).
pub(super) fn view(args: &Value, data: Option<&Value>) -> SubagentView {
    SubagentView {
        prompt: text_field(args, &["prompt", "task", "instructions", "message"]).map(str::to_owned),
        answer: data
            .and_then(|d| result_text(d).or_else(|| agent_messages(d)))
            .map(|t| without_resume_line(&t)),
    }
}

/// The final messages of the agents a call started, as Codex's `agents_states` gives
/// them (`{<thread id>: {status, message}}`), one paragraph each.
fn agent_messages(data: &Value) -> Option<String> {
    let messages: Vec<&str> = data
        .as_object()?
        .values()
        .filter_map(|state| text_field(state, &["message"]))
        .filter(|m| !m.trim().is_empty())
        .collect();
    (!messages.is_empty()).then(|| messages.join("\n\n"))
}

/// A sub-agent's answer without the trailing `agentId: … (for resuming …)` line.
fn without_resume_line(text: &str) -> String {
    let trimmed = text.trim_end();
    match trimmed.rsplit_once('\n') {
        Some((head, last)) if last.starts_with("agentId: ") => head.trim_end().to_owned(),
        None if trimmed.starts_with("agentId: ") => String::new(),
        _ => trimmed.to_owned(),
    }
}

/// A call that names no task (Codex's `spawn_agent`) is described by the start of its
/// prompt: its first line, at most 60 characters.
fn first_words(prompt: Option<&str>) -> String {
    const MAX: usize = 60;
    let line = prompt
        .unwrap_or_default()
        .trim()
        .lines()
        .next()
        .unwrap_or_default();
    match line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}…", line[..at].trim_end()),
        None => line.to_owned(),
    }
}

/// The kind of sub-agent a call asks for: a name (`subagent_type`), or Cursor's
/// `subagentType` object, `{custom: {name}}` or `{custom: name}` for an agent the user
/// defined, else keyed by the kind (`{explore: {}}`; `unspecified` names none).
fn agent_type(args: &Value) -> Option<String> {
    let named = match field(args, &["subagent_type", "subagentType", "agentType"])? {
        Value::String(s) => s.as_str(),
        Value::Object(kind) => match kind.iter().next().map(|(k, v)| (k.as_str(), v))? {
            ("custom", Value::String(name)) => name.as_str(),
            ("custom", custom) => custom.get("name").and_then(Value::as_str)?,
            ("unspecified", _) => return None,
            (key, _) => key,
        },
        _ => return None,
    };
    (!named.is_empty()).then(|| named.to_owned())
}

#[cfg(test)]
mod tests {
    use super::super::build;
    use crate::model::{Meta, ToolKind};
    use serde_json::{Value, json};

    #[test]
    fn a_task_without_a_description_is_described_by_its_prompt() {
        let described =
            |args: Value| match build("spawn_agent", ToolKind::Task, "c", &args, None, None).0 {
                Meta::ToolCall(m) => m.subagent.unwrap().description,
                other => panic!("not a tool call: {other:?}"),
            };
        assert_eq!(
            described(json!({"description": "Find", "prompt": "Look."})),
            "Find"
        );
        assert_eq!(
            described(json!({"prompt": "  Check the helpers.\nThen say so."})),
            "Check the helpers."
        );
        let long = "ä".repeat(70);
        assert_eq!(
            described(json!({"prompt": long})),
            format!("{}…", "ä".repeat(60))
        );
        assert_eq!(
            described(json!({"message": "Audit the helpers."})),
            "Audit the helpers."
        );
        assert_eq!(described(json!({})), "");
    }
}
