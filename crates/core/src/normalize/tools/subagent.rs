//! Tools that start a sub-agent (`Task`, `Agent`, `spawn_agent`, Cursor's
//! `taskToolCall`): what the agent was asked, and its answer.

use serde_json::Value;

use super::fields::{field, str_field, text_field};
use super::generic::result_text;
use crate::model::{RunFacts, Subagent, SubagentView};

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
/// came (its text, or the messages of the agents it started), with what the result
/// says of the run.
pub(super) fn view(args: &Value, data: Option<&Value>) -> SubagentView {
    let text = data.and_then(|d| result_text(d).or_else(|| agent_messages(d)));
    let (answer, trailer) = match text {
        Some(t) => {
            let (answer, trailer) = split_trailer(&t);
            // A result that is only the lines Claude Code adds has no answer to show.
            ((!answer.trim().is_empty()).then_some(answer), trailer)
        }
        None => (None, RunFacts::default()),
    };
    let reported = data.map(reported_facts).unwrap_or_default();
    SubagentView {
        prompt: text_field(args, &["prompt", "task", "instructions", "message"]).map(str::to_owned),
        answer,
        facts: Some(RunFacts {
            agent_id: reported.agent_id.or(trailer.agent_id),
            status: reported.status,
            tokens: reported.tokens.or(trailer.tokens),
            tool_uses: reported.tool_uses.or(trailer.tool_uses),
            duration_ms: reported.duration_ms.or(trailer.duration_ms),
        })
        .filter(|f| *f != RunFacts::default())
        .map(Box::new),
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

/// What Claude Code's `toolUseResult` of a sub-agent says of its run (`agentId`,
/// `status`, `totalTokens`, `totalToolUseCount`, `totalDurationMs`; a `null` says
/// nothing).
fn reported_facts(data: &Value) -> RunFacts {
    let number = |key: &str| data.get(key).and_then(Value::as_u64);
    let text = |key: &str| {
        data.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
            .map(str::to_owned)
    };
    RunFacts {
        agent_id: text("agentId"),
        status: text("status"),
        tokens: number("totalTokens"),
        tool_uses: number("totalToolUseCount"),
        duration_ms: number("totalDurationMs"),
    }
}

/// A sub-agent's answer without the lines Claude Code adds after it for the model
/// (`agentId: … (for resuming …)`, then `<usage>total_tokens: …</usage>`), and what
/// those lines say.
fn split_trailer(text: &str) -> (String, RunFacts) {
    let trimmed = text.trim_end();
    let mut facts = RunFacts::default();
    // The `<usage>` block, if the text ends with one.
    let mut body = trimmed;
    if let Some(open) = trimmed.rfind("<usage>") {
        if trimmed.ends_with("</usage>") {
            let inside = &trimmed[open + "<usage>".len()..trimmed.len() - "</usage>".len()];
            for line in inside.lines() {
                let Some((key, value)) = line.split_once(':') else {
                    continue;
                };
                let value = value.trim().parse::<u64>().ok();
                match key.trim() {
                    "total_tokens" => facts.tokens = value,
                    "tool_uses" => facts.tool_uses = value,
                    "duration_ms" => facts.duration_ms = value,
                    _ => {}
                }
            }
            body = trimmed[..open].trim_end();
        }
    }
    // The `agentId:` line, the last of what is left.
    let (head, last) = body.rsplit_once('\n').unwrap_or(("", body));
    if let Some(rest) = last.trim().strip_prefix("agentId: ") {
        if let Some(id) = rest.split_whitespace().next() {
            facts.agent_id = Some(id.to_owned());
        }
        return (head.trim_end().to_owned(), facts);
    }
    if body.len() < trimmed.len() {
        return (body.to_owned(), facts);
    }
    (trimmed.to_owned(), RunFacts::default())
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
