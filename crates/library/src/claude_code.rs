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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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

/// Reads one file's bytes whole (see [`Scanner`] for a file read in pieces).
pub fn scan(bytes: &[u8]) -> Scan {
    let mut s = Scanner::new();
    s.push(bytes);
    s.finish()
}

/// Reads a file in pieces of any size: what [`scan`] finds in the whole. Memory is the
/// [`Scan`] and at most one line: a line longer than the event limit (16 MiB, as the
/// reader's) is skipped without being held, so a 1 GiB line costs a pass over it.
pub struct Scanner {
    scan: Scan,
    first_message: bool,
    /// uuid → index of the sidechain it belongs to.
    chains: HashMap<String, usize>,
    /// The start of a line not yet ended.
    held: Vec<u8>,
    /// Where the unfinished line starts in the file.
    line_start: usize,
    /// The unfinished line is over the limit: its bytes are dropped until its end.
    skipping: bool,
    /// Bytes pushed.
    at: usize,
    max_line: usize,
}

impl Default for Scanner {
    fn default() -> Scanner {
        Scanner::new()
    }
}

impl Scanner {
    /// A scanner with the default line limit (`Limits::default().max_event_bytes`).
    pub fn new() -> Scanner {
        Scanner::with_max_line(docstream_core::Limits::default().max_event_bytes)
    }

    /// A scanner that skips lines longer than `max_line` bytes (without their LF).
    pub fn with_max_line(max_line: usize) -> Scanner {
        Scanner {
            scan: Scan::default(),
            first_message: true,
            chains: HashMap::new(),
            held: Vec::new(),
            line_start: 0,
            skipping: false,
            at: 0,
            max_line,
        }
    }

    /// The next bytes of the file.
    pub fn push(&mut self, mut chunk: &[u8]) {
        while let Some(i) = memchr::memchr(b'\n', chunk) {
            let (piece, rest) = chunk.split_at(i + 1);
            if self.held.is_empty() && !self.skipping {
                // A whole line in the chunk: read in place.
                if piece.len() - 1 <= self.max_line {
                    self.line(self.line_start, piece);
                }
            } else {
                self.hold(&piece[..piece.len() - 1]);
                if !self.skipping {
                    let mut line = std::mem::take(&mut self.held);
                    line.push(b'\n');
                    self.line(self.line_start, &line);
                    line.clear();
                    if line.capacity() <= 1 << 20 {
                        self.held = line;
                    }
                }
            }
            self.skipping = false;
            self.at += piece.len();
            self.line_start = self.at;
            chunk = rest;
        }
        self.hold(chunk);
        self.at += chunk.len();
    }

    /// Holds bytes of an unfinished line; one over the limit is dropped.
    fn hold(&mut self, bytes: &[u8]) {
        if self.skipping || bytes.is_empty() {
            return;
        }
        if self.held.len() + bytes.len() > self.max_line {
            self.skipping = true;
            self.held = Vec::new();
            return;
        }
        self.held.extend_from_slice(bytes);
    }

    /// The end of the file: a last line without LF is still a line.
    pub fn finish(mut self) -> Scan {
        if !self.skipping && !self.held.is_empty() {
            let line = std::mem::take(&mut self.held);
            self.line(self.line_start, &line);
        }
        self.scan
    }

    /// One line, `raw` with its LF if it has one, starting at byte `start`.
    fn line(&mut self, start: usize, raw: &[u8]) {
        let range = start..start + raw.len();
        let s = &mut self.scan;
        let Ok(line) = docstream_model::read_json::from_slice::<Line>(raw) else {
            return;
        };
        let kind = line.kind.as_deref().unwrap_or("");
        if kind == "summary" {
            if let Some(text) = line.summary {
                s.is_transcript = true;
                s.summaries.push((line.leaf, text));
            }
            return;
        }
        if !matches!(kind, "user" | "assistant") || line.message.is_none() {
            return;
        }
        if line.session_id.is_some() || line.uuid.is_some() {
            s.is_transcript = true;
        }
        if self.first_message {
            s.sidechain_file = line.sidechain;
            self.first_message = false;
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
                .and_then(|p| self.chains.get(p).copied())
                .unwrap_or_else(|| {
                    s.sidechains.push(Sidechain::default());
                    s.sidechains.len() - 1
                });
            if let Some(u) = &line.uuid {
                self.chains.insert(u.clone(), chain);
            }
            let c = &mut s.sidechains[chain];
            if c.prompt.is_none() {
                c.prompt.clone_from(&prompt);
            }
            c.lines.push(range);
            return;
        }
        if s.first_prompt.is_none() {
            s.first_prompt = prompt.as_deref().and_then(title_prompt);
        }
        let Some(Value::Array(blocks)) = message.get("content") else {
            return;
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

    #[test]
    fn pieces_of_any_size_scan_as_the_whole() {
        let text = [
            line(serde_json::json!({"type":"summary","summary":"Sum","leafUuid":"u2"})),
            user("s1", "u1", None, "Ünïcödé prompt", false),
            user("s1", "x1", None, "Side job", true),
            user("s1", "x2", Some("x1"), "more", true),
            "{broken\n".to_owned(),
            user("s1", "u2", Some("u1"), "Last, without LF", false)
                .trim_end()
                .to_owned(),
        ]
        .concat();
        let bytes = text.as_bytes();
        let whole = scan(bytes);
        assert!(
            whole.is_transcript && whole.sidechains.len() == 1,
            "{whole:?}"
        );
        assert_eq!(whole.uuids.len(), 4);
        for size in [1, 2, 3, 7, 64, bytes.len()] {
            let mut s = Scanner::new();
            for piece in bytes.chunks(size) {
                s.push(piece);
            }
            let got = s.finish();
            assert_eq!(got, whole, "pieces of {size}");
        }
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_without_being_held() {
        let long = user("s1", "u-long", None, &"x".repeat(500), false);
        let text = [
            user("s1", "u1", None, "first", false),
            long,
            user("s1", "u3", None, "third", false),
        ]
        .concat();
        for size in [1, 16, 4096] {
            let mut s = Scanner::with_max_line(200);
            for piece in text.as_bytes().chunks(size) {
                s.push(piece);
                assert!(s.held.capacity() <= 400, "held {} bytes", s.held.capacity());
            }
            let got = s.finish();
            let mut uuids: Vec<_> = got.uuids.iter().cloned().collect();
            uuids.sort();
            assert_eq!(uuids, ["u1", "u3"], "pieces of {size}");
        }
    }
}
