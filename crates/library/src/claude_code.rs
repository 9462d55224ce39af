//! Claude Code's `projects/` folder: one folder per project directory, one JSONL file
//! per session (`<sessionId>.jsonl`), sub-agents either in their own files
//! (`agent-<agentId>.jsonl` beside the sessions, or `<sessionId>/subagents/agent-<id>.jsonl`)
//! or, in older versions, as `isSidechain` lines inside the session that started them.
//!
//! [`scan`] reads what a list needs from one file's bytes; [`list`] puts the files of a
//! folder together: titles (the `summary` line whose `leafUuid` is in the session, else
//! the first prompt), projects (`cwd`), and each sub-agent joined to the `Task` (or
//! `Agent`) tool call that started it — by the `agentId` in that call's result where
//! Claude Code writes one, else by the prompt the call gave the sub-agent.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde::Deserialize;
use serde_json::Value;

use crate::{Agent, Entry, ParentLink, one_line};

/// Tool names that start a sub-agent.
const TASK_TOOLS: [&str; 2] = ["Task", "Agent"];

/// The fields of a line the list needs.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Line {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
    #[serde(rename = "agentId")]
    agent_id: Option<String>,
    #[serde(rename = "isSidechain")]
    sidechain: bool,
    #[serde(rename = "isMeta")]
    meta: bool,
    uuid: Option<String>,
    #[serde(rename = "parentUuid")]
    parent: Option<String>,
    cwd: Option<String>,
    timestamp: Option<String>,
    summary: Option<String>,
    #[serde(rename = "leafUuid")]
    leaf: Option<String>,
    message: Option<Value>,
    #[serde(rename = "toolUseResult")]
    tool_use_result: Option<Value>,
}

/// A `Task` call of the main thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskCall {
    /// The `tool_use` id.
    pub id: String,
    /// `description`, a few words.
    pub description: Option<String>,
    /// `prompt`, what the sub-agent was asked.
    pub prompt: Option<String>,
}

/// Sub-agent lines inside a session file (older Claude Code).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sidechain {
    /// The first prompt of the chain.
    pub prompt: Option<String>,
    /// Byte ranges of its lines (each with its line end).
    pub lines: Vec<Range<usize>>,
}

/// What one file holds, for the list.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    /// Some line looked like a Claude Code transcript line.
    pub is_transcript: bool,
    /// `sessionId` of the lines (for a sub-agent file: the session that started it).
    pub session_id: Option<String>,
    /// `agentId` of the lines, in a sub-agent's file.
    pub agent_id: Option<String>,
    /// The first message line was a sub-agent's: the file is a sub-agent's transcript.
    pub sidechain_file: bool,
    /// Working directory of the first line that names one.
    pub cwd: Option<String>,
    /// First and last timestamps.
    pub first_time: Option<String>,
    /// Last timestamp.
    pub last_time: Option<String>,
    /// The first prompt a person typed.
    pub first_prompt: Option<String>,
    /// `summary` lines: (`leafUuid`, text).
    pub summaries: Vec<(Option<String>, String)>,
    /// Every message `uuid`, for matching summaries.
    pub uuids: HashSet<String>,
    /// `Task` calls of the main thread.
    pub tasks: Vec<TaskCall>,
    /// (`tool_use_id`, `agentId`) from the results of `Task` calls.
    pub task_agents: Vec<(String, String)>,
    /// Sub-agents written inside this file.
    pub sidechains: Vec<Sidechain>,
}

/// The text of a user message: a string, or its `text` blocks; `None` for tool results.
fn prompt_of(message: &Value) -> Option<String> {
    match message.get("content")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text")?.as_str())
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
    .filter(|t| !t.trim().is_empty())
}

/// A prompt fit for a title: not Claude Code's own wrapping (`<command-name>`,
/// `<local-command-stdout>`, caveats); a slash command shows as its name.
fn title_prompt(text: &str) -> Option<String> {
    let t = text.trim();
    if let Some(rest) = t.strip_prefix("<command-name>") {
        return rest.split('<').next().map(str::to_owned);
    }
    if t.starts_with('<') || t.starts_with("Caveat:") {
        return None;
    }
    Some(t.to_owned())
}

/// Reads one file.
pub fn scan(bytes: &[u8]) -> Scan {
    let mut s = Scan::default();
    let mut first_message = true;
    // uuid → index of the sidechain it belongs to.
    let mut chains: HashMap<String, usize> = HashMap::new();
    let mut at = 0;
    for raw in bytes.split_inclusive(|&b| b == b'\n') {
        let range = at..at + raw.len();
        at += raw.len();
        let Ok(line) = docstream_model::read_json::from_slice::<Line>(raw) else {
            continue;
        };
        let kind = line.kind.as_deref().unwrap_or("");
        if kind == "summary" {
            if let Some(text) = line.summary {
                s.is_transcript = true;
                s.summaries.push((line.leaf, text));
            }
            continue;
        }
        if !matches!(kind, "user" | "assistant") || line.message.is_none() {
            continue;
        }
        if line.session_id.is_some() || line.uuid.is_some() {
            s.is_transcript = true;
        }
        if first_message {
            s.sidechain_file = line.sidechain;
            first_message = false;
        }
        if s.session_id.is_none() {
            s.session_id.clone_from(&line.session_id);
        }
        if s.agent_id.is_none() {
            s.agent_id.clone_from(&line.agent_id);
        }
        if s.cwd.is_none() {
            s.cwd.clone_from(&line.cwd);
        }
        if let Some(t) = &line.timestamp {
            if s.first_time.is_none() {
                s.first_time = Some(t.clone());
            }
            s.last_time = Some(t.clone());
        }
        if let Some(u) = &line.uuid {
            s.uuids.insert(u.clone());
        }
        let message = line.message.as_ref().expect("checked above");
        let prompt = (kind == "user" && !line.meta)
            .then(|| prompt_of(message))
            .flatten();
        if line.sidechain && !s.sidechain_file {
            // A sub-agent inside the session: follow its chain of parents.
            let chain = line
                .parent
                .as_ref()
                .and_then(|p| chains.get(p).copied())
                .unwrap_or_else(|| {
                    s.sidechains.push(Sidechain::default());
                    s.sidechains.len() - 1
                });
            if let Some(u) = &line.uuid {
                chains.insert(u.clone(), chain);
            }
            let c = &mut s.sidechains[chain];
            if c.prompt.is_none() {
                c.prompt.clone_from(&prompt);
            }
            c.lines.push(range);
            continue;
        }
        if s.first_prompt.is_none() {
            s.first_prompt = prompt.as_deref().and_then(title_prompt);
        }
        let Some(Value::Array(blocks)) = message.get("content") else {
            continue;
        };
        for b in blocks {
            match b.get("type").and_then(Value::as_str) {
                Some("tool_use")
                    if b.get("name")
                        .and_then(Value::as_str)
                        .is_some_and(|n| TASK_TOOLS.contains(&n)) =>
                {
                    let input = b.get("input");
                    let field = |k: &str| {
                        input
                            .and_then(|i| i.get(k))
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    };
                    if let Some(id) = b.get("id").and_then(Value::as_str) {
                        s.tasks.push(TaskCall {
                            id: id.to_owned(),
                            description: field("description"),
                            prompt: field("prompt"),
                        });
                    }
                }
                Some("tool_result") => {
                    let agent = line
                        .tool_use_result
                        .as_ref()
                        .and_then(|r| r.get("agentId"))
                        .and_then(Value::as_str);
                    let id = b.get("tool_use_id").and_then(Value::as_str);
                    if let (Some(id), Some(agent)) = (id, agent) {
                        s.task_agents.push((id.to_owned(), agent.to_owned()));
                    }
                }
                _ => {}
            }
        }
    }
    s
}

/// Which bytes of a file are one conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// The whole file.
    Whole,
    /// These lines of it (a sub-agent inside its session).
    Lines(Vec<Range<usize>>),
}

impl Part {
    /// The conversation's bytes out of its file's bytes.
    pub fn bytes(&self, file: &[u8]) -> Vec<u8> {
        match self {
            Part::Whole => file.to_vec(),
            Part::Lines(ranges) => {
                let mut out = Vec::new();
                for r in ranges {
                    if let Some(line) = file.get(r.clone()) {
                        out.extend_from_slice(line);
                        if !line.ends_with(b"\n") {
                            out.push(b'\n');
                        }
                    }
                }
                out
            }
        }
    }
}

/// One conversation found in a folder: its entry, and where its bytes are.
#[derive(Debug, Clone)]
pub struct Item {
    /// The list entry (counts are filled in by whoever parses it).
    pub entry: Entry,
    /// Index of its file in the slice given to [`list`].
    pub file: usize,
    /// Which bytes of that file.
    pub part: Part,
}

/// The file name without folders and extension.
fn stem(path: &str) -> &str {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.strip_suffix(".jsonl").unwrap_or(name)
}

/// The conversations of a folder's session files: `files` are (path, scan) of every
/// file [`scan`] found to be a transcript.
pub fn list(files: &[(String, Scan)]) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    // Which file holds each message uuid, for summaries.
    let mut owner: HashMap<&str, usize> = HashMap::new();
    for (i, (_, s)) in files.iter().enumerate() {
        for u in &s.uuids {
            owner.insert(u, i);
        }
    }
    let mut summary: HashMap<usize, &str> = HashMap::new();
    for (i, (_, s)) in files.iter().enumerate() {
        for (leaf, text) in &s.summaries {
            let to = leaf.as_deref().and_then(|l| owner.get(l).copied());
            summary.insert(to.unwrap_or(i), text);
        }
    }
    // Main sessions first, so sub-agents can find them.
    let mut by_session: HashMap<String, usize> = HashMap::new();
    for (i, (path, s)) in files.iter().enumerate() {
        if s.sidechain_file || s.uuids.is_empty() {
            continue;
        }
        let id = s
            .session_id
            .clone()
            .unwrap_or_else(|| stem(path).to_owned());
        let mut e = Entry::new(id.clone(), Agent::ClaudeCode, path.clone());
        e.title = summary
            .get(&i)
            .map(|t| t.to_string())
            .or_else(|| s.first_prompt.clone())
            .map(|t| one_line(&t, 100))
            .unwrap_or_else(|| format!("Session {id}"));
        e.project.clone_from(&s.cwd);
        e.created.clone_from(&s.first_time);
        e.updated.clone_from(&s.last_time);
        by_session.insert(id, items.len());
        items.push(Item {
            entry: e,
            file: i,
            part: Part::Whole,
        });
        // Sub-agents inside the session.
        for (n, chain) in s.sidechains.iter().enumerate() {
            let parent = &items.last().expect("just pushed").entry;
            let task = chain
                .prompt
                .as_ref()
                .and_then(|p| s.tasks.iter().find(|t| t.prompt.as_ref() == Some(p)));
            let mut e = Entry::new(
                format!("{}.sidechain-{}", parent.id, n + 1),
                Agent::ClaudeCode,
                path.clone(),
            );
            e.title = sub_title(task, chain.prompt.as_deref());
            e.project.clone_from(&s.cwd);
            e.parent = Some(ParentLink {
                conversation: parent.id.clone(),
                tool_call_id: task.map(|t| t.id.clone()),
            });
            items.push(Item {
                entry: e,
                file: i,
                part: Part::Lines(chain.lines.clone()),
            });
        }
    }
    // Sub-agents in their own files.
    for (i, (path, s)) in files.iter().enumerate() {
        if !s.sidechain_file {
            continue;
        }
        let parent = s
            .session_id
            .as_ref()
            .and_then(|p| by_session.get(p).copied());
        let parent_scan = parent.map(|p| &files[items[p].file].1);
        let agent = s.agent_id.clone().unwrap_or_else(|| {
            let st = stem(path);
            st.strip_prefix("agent-").unwrap_or(st).to_owned()
        });
        let task = parent_scan.and_then(|ps| {
            let by_agent = ps
                .task_agents
                .iter()
                .find(|(_, a)| *a == agent)
                .and_then(|(id, _)| ps.tasks.iter().find(|t| &t.id == id));
            by_agent.or_else(|| {
                let p = s.first_prompt_raw()?;
                ps.tasks.iter().find(|t| t.prompt.as_deref() == Some(p))
            })
        });
        let base = match parent {
            Some(p) => items[p].entry.id.clone(),
            None => s.session_id.clone().unwrap_or_default(),
        };
        let id = if base.is_empty() {
            format!("agent-{agent}")
        } else {
            format!("{base}.agent-{agent}")
        };
        let mut e = Entry::new(id, Agent::ClaudeCode, path.clone());
        e.title = sub_title(task, s.first_prompt.as_deref());
        e.project.clone_from(&s.cwd);
        e.created.clone_from(&s.first_time);
        e.updated.clone_from(&s.last_time);
        e.parent = parent.map(|p| ParentLink {
            conversation: items[p].entry.id.clone(),
            tool_call_id: task.map(|t| t.id.clone()),
        });
        items.push(Item {
            entry: e,
            file: i,
            part: Part::Whole,
        });
    }
    // Children lists.
    let links: Vec<(String, String)> = items
        .iter()
        .filter_map(|it| {
            Some((
                it.entry.parent.as_ref()?.conversation.clone(),
                it.entry.id.clone(),
            ))
        })
        .collect();
    for (parent, child) in links {
        if let Some(p) = by_session.get(&parent) {
            items[*p].entry.children.push(child);
        }
    }
    items
}

impl Scan {
    /// The first prompt as written (a sub-agent's is the `Task` call's `prompt`).
    fn first_prompt_raw(&self) -> Option<&str> {
        self.first_prompt.as_deref()
    }
}

fn sub_title(task: Option<&TaskCall>, prompt: Option<&str>) -> String {
    let text = task
        .and_then(|t| t.description.as_deref())
        .or(prompt)
        .unwrap_or("sub-agent");
    format!("Sub-agent: {}", one_line(text, 90))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(v: Value) -> String {
        format!("{v}\n")
    }

    fn user(session: &str, uuid: &str, parent: Option<&str>, text: &str, side: bool) -> String {
        line(
            serde_json::json!({"type":"user","sessionId":session,"uuid":uuid,"parentUuid":parent,
            "isSidechain":side,"cwd":"/work/app","timestamp":"2025-05-01T10:00:00Z",
            "message":{"role":"user","content":text}}),
        )
    }

    #[test]
    fn sessions_summaries_and_sub_agents() {
        let main = [
            user("s1", "u1", None, "Refactor the parser", false),
            line(serde_json::json!({"type":"assistant","sessionId":"s1","uuid":"a1","parentUuid":"u1","isSidechain":false,
                "message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Task",
                "input":{"description":"Find callers","prompt":"List the callers of parse()"}}]}})),
            user("s1", "s-u1", None, "Read the old code", true),
            line(serde_json::json!({"type":"user","sessionId":"s1","uuid":"u2","parentUuid":"a1","isSidechain":false,
                "toolUseResult":{"agentId":"ab12","status":"completed"},
                "message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"3 callers"}]}})),
        ]
        .concat();
        let agent = [user("s1", "x1", None, "List the callers of parse()", true)].concat();
        let resumed = [
            line(serde_json::json!({"type":"summary","summary":"Parser refactor","leafUuid":"u2"})),
            user(
                "s2",
                "v1",
                None,
                "<command-name>/clear</command-name>",
                false,
            ),
        ]
        .concat();
        let files = vec![
            ("p/s1.jsonl".to_owned(), scan(main.as_bytes())),
            ("p/agent-ab12.jsonl".to_owned(), scan(agent.as_bytes())),
            ("p/s2.jsonl".to_owned(), scan(resumed.as_bytes())),
        ];
        let items = list(&files);
        let ids: Vec<&str> = items.iter().map(|i| i.entry.id.as_str()).collect();
        assert_eq!(ids, ["s1", "s1.sidechain-1", "s2", "s1.agent-ab12"]);
        let s1 = &items[0].entry;
        assert_eq!(s1.title, "Parser refactor");
        assert_eq!(s1.project.as_deref(), Some("/work/app"));
        assert_eq!(s1.children, ["s1.sidechain-1", "s1.agent-ab12"]);
        assert_eq!(items[2].entry.title, "/clear");
        let agent = &items[3].entry;
        assert_eq!(agent.title, "Sub-agent: Find callers");
        assert_eq!(
            agent.parent,
            Some(ParentLink {
                conversation: "s1".into(),
                tool_call_id: Some("toolu_1".into())
            })
        );
        // The in-file sidechain: no Task prompt matches it, so no tool call is named.
        assert_eq!(items[1].entry.parent.as_ref().unwrap().tool_call_id, None);
        let Part::Lines(r) = &items[1].part else {
            panic!("lines")
        };
        assert_eq!(r.len(), 1);
        assert!(
            String::from_utf8(items[1].part.bytes(main.as_bytes()))
                .unwrap()
                .contains("Read the old code")
        );
    }
}
