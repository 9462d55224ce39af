//! Claude Code: `--output-format stream-json` lines (`system`/`init`, `assistant` with
//! an Anthropic message, `user` with `tool_result` blocks and `tool_use_result`,
//! `stream_event` with Anthropic's streamed events when partial messages are on,
//! `result`), and the saved transcript (`~/.claude/projects/…/*.jsonl`: `user` and
//! `assistant` lines with `message`, `uuid`, `parentUuid`, `timestamp`,
//! `toolUseResult`; `summary` and other bookkeeping lines).
//!
//! Content blocks go through the Anthropic mapping; tool names (`Bash`, `Edit`,
//! `TodoWrite` …) map to documents in the normaliser. One prompt and what follows it,
//! until `result` (or, in a transcript, the next prompt or the end), is one response.
//! A sub-agent's lines in the stream carry the id of the `Task` (or `Agent`) call that
//! started it as `parent_tool_use_id`: they become that call's nested run, and a
//! `task_notification` ends it. A saved session names no call on a sub-agent's lines
//! (`isSidechain`), only the line each answers (`parentUuid`): a sub-agent's first line
//! is claimed by the `Task` call whose prompt it repeats (else by the oldest call not yet
//! claimed), the lines after it by their parent's owner, and all of them become that
//! call's nested run, as in the stream. Sub-agent lines no call claims are left out: their
//! work comes back as the call's result. A file that starts with a sub-agent's line is
//! that sub-agent's own transcript (`agent-<id>.jsonl`) and is read whole.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use serde_json::Value;
use serde_json_borrow::Value as Tree;

use super::anthropic::blocks::{Block, Content, Message, Role, apply_content};
use super::anthropic::stream::Stream;
use super::common::{RunResult, end_open_response};
use super::fields::{self, Fields, wire};
use super::usage::WireUsage;
use super::{Adapter, Payload, json_error, or_report};
use crate::framing::nests_deeper_than;
use crate::limits::Limits;
use crate::model::{CallStatus, Compaction, PromptFrom, Usage};
use crate::normalize::{
    ErrorInfo, Event, SessionInfo, Sink, ToolKind, ToolNames, ToolOutcome, kind_in,
};

/// Claude Code's tool names (MCP tools are `mcp__<server>__<tool>`).
pub(super) const TOOLS: ToolNames = &[
    ("Bash", ToolKind::Shell),
    ("Edit", ToolKind::Edit),
    ("MultiEdit", ToolKind::Edit),
    ("Write", ToolKind::Write),
    ("NotebookEdit", ToolKind::Edit),
    ("Read", ToolKind::Read),
    ("NotebookRead", ToolKind::Read),
    ("Grep", ToolKind::Grep),
    ("Glob", ToolKind::Glob),
    ("LS", ToolKind::List),
    ("WebSearch", ToolKind::WebSearch),
    ("WebFetch", ToolKind::WebFetch),
    ("TodoWrite", ToolKind::Todo),
    ("Task", ToolKind::Task),
    ("Agent", ToolKind::Task),
    ("ExitPlanMode", ToolKind::Plan),
];

wire! {
    /// One line, flat; the stream's snake_case and the transcript's camelCase both read.
    struct Line<'v> {
        kind: str "type" or_default,
        subtype: str "subtype",
        message: object<Message<'v>> "message",
        session_id: string "session_id" | "sessionId",
        model: string "model",
        cwd: string "cwd",
        timestamp: string "timestamp",
        tool_use_result: value "tool_use_result" | "toolUseResult",
        is_sidechain: bool "isSidechain" or_default,
        /// The line's own id (saved transcripts).
        uuid: string "uuid",
        /// The id of the line this one follows (saved transcripts).
        parent_uuid: string "parentUuid",
        /// A `stream_event`'s Anthropic event, read when the line is applied.
        event: get "event",
        /// The final text of a `result` (other types of `result` have none).
        result: str "result" lenient,
        is_error: bool "is_error",
        duration_ms: u64 "duration_ms",
        duration_api_ms: u64 "duration_api_ms",
        request_id: string "request_id" | "requestId",
        usage: object<WireUsage> "usage",
        /// A failed `result`'s errors (the strings among them are shown).
        errors: array "errors" lenient,
        /// The call whose sub-agent wrote the line (stream-json).
        parent_tool_use_id: string "parent_tool_use_id",
        /// The call a `task_notification` is about.
        tool_use_id: string "tool_use_id",
        /// How a `task_notification`'s task ended.
        status: string "status",
        // Read leniently: a value of another type is not the line's error.
        /// What a `result`'s run cost, in US dollars.
        total_cost_usd: f64 "total_cost_usd" lenient,
        /// A `summary` line's summary of the session.
        summary: string "summary" lenient,
        /// A `custom-title` line's title, the one the user gave the session.
        custom_title: string "customTitle" lenient,
        /// A `compact_boundary` line's `compactMetadata`.
        compaction: Option<Compaction> = |f| Ok(compaction(f)),
        /// A user line that is the summary of a compaction, not a prompt.
        is_compact_summary: bool "isCompactSummary" lenient or_default,
    }
}

/// A line's compaction facts, read leniently: a bookkeeping value of another type
/// loses only itself. A transcript's `compactMetadata {preTokens}`, the stream's
/// `compact_metadata {pre_tokens}`.
fn compaction(f: Fields<'_, '_>) -> Option<Compaction> {
    let m = f
        .object("compactMetadata")
        .ok()
        .flatten()
        .or_else(|| f.object("compact_metadata").ok().flatten())?;
    let count = |a: &str, b: &str| m.u64(a).ok().flatten().or_else(|| m.u64(b).ok().flatten());
    Some(Compaction {
        trigger: m.string("trigger").ok().flatten(),
        pre_tokens: count("preTokens", "pre_tokens"),
        post_tokens: count("postTokens", "post_tokens"),
    })
}

/// The adapter's state.
#[derive(Default)]
pub(in crate::formats) struct ClaudeCode {
    /// A saved transcript: its last response ends with the input.
    transcript: bool,
    /// Anthropic events of the message being streamed (`stream_event` lines).
    partial: Option<Stream>,
    /// Messages already streamed as events, whose consolidated line repeats them.
    streamed: HashSet<String>,
    /// Whether the first message line was a sub-agent's (`isSidechain`): then the input
    /// is that sub-agent's transcript and its lines are shown. `None` before any.
    sidechain_file: Option<bool>,
    /// The `parent_tool_use_id` of the last line that had one to say (`None`: the main
    /// agent's).
    agent: Option<String>,
    /// Which `Task` call each sub-agent line of a saved session belongs to.
    sidechains: Sidechains,
    /// The ids of the calls that started sub-agents (`Task`, `Agent`), whose results
    /// carry the sub-agent's answer.
    subagent_calls: HashSet<String>,
    /// Sub-agents' own transcripts given beside the session, by agent id: each is read
    /// as its call's run when the call's result names the agent.
    subagent_files: HashMap<String, Vec<u8>>,
    /// The history's tree (a saved session): the last line of the branch being read,
    /// and for each line read, how many turns the conversation had after it.
    tree: Lineage,
    /// The ids of the calls the agents made, so a `permission_denied` line marks only a
    /// call that was made.
    calls: HashSet<String>,
    /// The last thing the main agent did was compact its context: a `/compact` run's
    /// empty `result` that follows ends no response.
    compacted: bool,
}

/// What a saved session's `parentUuid` links say of the history: a line whose parent
/// is not the line before it continues from an earlier point (the user rewound, or a
/// retry branched), and what came after that point is a branch left.
#[derive(Default)]
struct Lineage {
    last: Option<String>,
    turns_after: HashMap<String, usize>,
    /// A line of the main history has named its parent: the file keeps the tree. Tools
    /// that write the shape without it leave every `parentUuid` null, and a null parent
    /// then marks no return to the start.
    linked: bool,
}

/// The `Task` calls of a saved session and the sub-agent lines they own.
#[derive(Default)]
struct Sidechains {
    /// Calls whose sub-agent has not written yet, oldest first: id and prompt.
    unclaimed: Vec<(String, String)>,
    /// Line id → the call whose sub-agent wrote it.
    owner: HashMap<String, String>,
}

impl Sidechains {
    /// Notes the sub-agent calls among a main-agent message's blocks.
    fn note_calls(&mut self, blocks: &[Block<'_>]) {
        for b in blocks {
            let (Some(id), Some(name)) = (&b.id, &b.name) else {
                continue;
            };
            if b.kind == "tool_use" && kind_in(&[TOOLS], name) == ToolKind::Task {
                let prompt = b
                    .input
                    .as_ref()
                    .and_then(|i| i.get("prompt"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                self.unclaimed.push((id.clone(), prompt.trim().to_owned()));
            }
        }
    }

    /// The call that owns a sub-agent line: its parent line's owner, or, for the first
    /// line of a sub-agent, the unclaimed call whose prompt it repeats, else the oldest
    /// unclaimed call. `None` when no call is left to own it.
    fn owner_of(&mut self, line: &Line<'_>) -> Option<String> {
        let inherited = line
            .parent_uuid
            .as_ref()
            .and_then(|parent| self.owner.get(parent))
            .cloned();
        let call = match inherited {
            Some(call) => call,
            None => {
                let prompt = line.message.as_ref().and_then(prompt_of);
                let at = prompt
                    .and_then(|p| self.unclaimed.iter().position(|(_, q)| *q == p.trim()))
                    .unwrap_or(0);
                if at >= self.unclaimed.len() {
                    return None;
                }
                self.unclaimed.remove(at).0
            }
        };
        if let Some(uuid) = &line.uuid {
            self.owner.insert(uuid.clone(), call.clone());
        }
        Some(call)
    }
}

/// True for a user line that is only an empty `<local-command-stdout>` (or `-stderr`):
/// what Claude Code saves after a slash command that printed nothing.
fn is_empty_command_output(text: &str) -> bool {
    ["stdout", "stderr"].iter().any(|stream| {
        text.trim()
            .strip_prefix(&format!("<local-command-{stream}>"))
            .and_then(|t| t.strip_suffix(&format!("</local-command-{stream}>")))
            .is_some_and(|inside| inside.trim().is_empty())
    })
}

/// The agent a sub-agent's result names in the line Claude Code appends to its text
/// (`agentId: a1dd… (for resuming …)`).
fn trailer_agent_id(content: &Value) -> Option<String> {
    let texts: Vec<&str> = match content {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect(),
        _ => return None,
    };
    texts
        .iter()
        .flat_map(|t| t.lines())
        .find_map(|l| l.trim().strip_prefix("agentId: "))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
}

/// The words of Claude Code's interruption mark (`[Request interrupted by user]`, `…
/// for tool use]`) when a user message is that mark and nothing else.
fn interruption<'c>(content: &'c Content<'_>) -> Option<&'c str> {
    let text = match content {
        Content::Text(t) => *t,
        Content::Blocks(blocks) => match blocks.as_slice() {
            [b] if b.kind == "text" => b.text?,
            _ => return None,
        },
    };
    text.trim()
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .filter(|t| t.starts_with("Request interrupted by user"))
}

/// The text of a plain user message (a sub-agent's prompt).
fn prompt_of(m: &Message<'_>) -> Option<String> {
    match Content::read(m.content).ok()? {
        Content::Text(t) => Some(t.to_owned()),
        Content::Blocks(blocks) => blocks
            .into_iter()
            .find(|b| b.kind == "text")
            .and_then(|b| b.text)
            .map(str::to_owned),
    }
}

impl ClaudeCode {
    /// The adapter for saved transcripts.
    pub(in crate::formats) fn transcript() -> ClaudeCode {
        ClaudeCode {
            transcript: true,
            ..ClaudeCode::default()
        }
    }
}

impl Adapter for ClaudeCode {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        self.line(p, None, n);
    }

    fn subagent(&mut self, agent_id: String, transcript: Vec<u8>) {
        self.subagent_files.insert(agent_id, transcript);
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        if self.transcript {
            end_open_response(n);
        }
    }
}

impl ClaudeCode {
    /// One line: of the stream, or (`run_of` a call) of the sub-agent file that call
    /// started, read as that call's run.
    fn line(&mut self, p: Payload<'_>, run_of: Option<&str>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        if run_of.is_none() && self.notice(&tree, n) {
            return;
        }
        let Some(mut line) = or_report(Fields::of(&tree, "the line").and_then(Line::read), &p, n)
        else {
            return;
        };
        if let Some(call) = run_of {
            if !matches!(line.kind, "user" | "assistant") {
                return; // the file's bookkeeping
            }
            line.parent_tool_use_id = Some(call.to_owned());
        }
        if matches!(line.kind, "user" | "assistant") {
            if self.sidechain_file.is_none() && line.is_sidechain {
                // A sub-agent's own transcript: its prompts are its parent agent's.
                n.apply(Event::PromptsFrom(Some(PromptFrom::ParentAgent)));
            }
            let own = *self.sidechain_file.get_or_insert(line.is_sidechain);
            if line.is_sidechain && !own && line.parent_tool_use_id.is_none() {
                match self.sidechains.owner_of(&line) {
                    Some(call) => line.parent_tool_use_id = Some(call),
                    None => return,
                }
            }
        }
        // The main history of this file: the main agent's lines, or a sub-agent's in
        // its own transcript.
        let main_chain = self.transcript
            && run_of.is_none()
            && line.is_sidechain == self.sidechain_file.unwrap_or(false);
        if main_chain && matches!(line.kind, "user" | "assistant") {
            self.fork(&line, n);
        }
        if line.kind != "system" && line.parent_tool_use_id != self.agent {
            self.agent.clone_from(&line.parent_tool_use_id);
            n.apply(Event::Agent {
                parent: line.parent_tool_use_id.clone(),
            });
        }
        if matches!(line.kind, "user" | "assistant") {
            if let Some(at) = &line.timestamp {
                n.apply(Event::Time(at.clone()));
            }
        }
        if matches!(line.kind, "user" | "assistant" | "stream_event") {
            self.compacted = false;
        }
        let uuid = line.uuid.clone().filter(|_| main_chain);
        let linked = line.parent_uuid.is_some();
        self.apply_line(line, main_chain, &p, n);
        if let Some(uuid) = uuid {
            self.tree.linked |= linked;
            self.tree.turns_after.insert(uuid.clone(), n.turn_count());
            self.tree.last = Some(uuid);
        }
    }

    /// A line whose parent is known but is not the line before it: the history forked
    /// there, and the turns since are a branch left (only a line that writes a turn's
    /// content forks it; a tool result answering an earlier line of its own response
    /// leaves no turn behind, and nothing is marked).
    fn fork(&mut self, line: &Line<'_>, n: &mut dyn Sink) {
        let Some(last) = &self.tree.last else {
            return;
        };
        let turns = match &line.parent_uuid {
            Some(parent) if parent == last => return,
            Some(parent) => self.tree.turns_after.get(parent).copied(),
            // A prompt with no parent after the first line of a linked file: the user
            // went back to the start.
            None => (self.tree.linked
                && line.kind == "user"
                && !line.is_compact_summary
                && line.message.as_ref().and_then(prompt_of).is_some())
            .then_some(0),
        };
        if let Some(turns) = turns {
            n.apply(Event::Rewind { turns });
        }
    }

    /// Applies one line's events.
    fn apply_line(&mut self, line: Line<'_>, main_chain: bool, p: &Payload<'_>, n: &mut dyn Sink) {
        match line.kind {
            "system" if line.subtype == Some("task_notification") => {
                if let Some(parent) = line.tool_use_id {
                    let failed = line.status.as_deref().is_some_and(|s| s != "completed");
                    n.apply(Event::AgentEnd { parent, failed });
                }
            }
            "system" if line.subtype == Some("compact_boundary") => {
                // The main agent's (a sub-agent's compaction stays inside its run).
                let main = if self.transcript {
                    main_chain
                } else {
                    line.parent_tool_use_id.is_none()
                };
                if main {
                    self.compacted = true;
                    if let Some(at) = &line.timestamp {
                        n.apply(Event::Time(at.clone()));
                    }
                    n.apply(Event::Compaction(line.compaction.unwrap_or_default()));
                }
            }
            "system" => {
                if line.subtype == Some("init") {
                    // Each run of an appended log starts with its own `init`.
                    n.apply(Event::SessionStart(SessionInfo {
                        conversation_id: line.session_id,
                        model: line.model,
                        cwd: line.cwd,
                        ..SessionInfo::default()
                    }));
                }
            }
            "assistant" => self.assistant(line, p, n),
            "user" => {
                let Some(m) = line.message else {
                    return n.apply(Event::Unknown);
                };
                match Content::read(m.content) {
                    // The summary that replaced the context: not a prompt.
                    Ok(c) if line.is_compact_summary => {
                        let text = match c {
                            Content::Text(t) => t.to_owned(),
                            Content::Blocks(blocks) => blocks
                                .iter()
                                .filter_map(|b| b.text)
                                .collect::<Vec<_>>()
                                .join("\n\n"),
                        };
                        n.apply(Event::CompactSummary(Cow::Owned(text)));
                    }
                    // A local command that printed nothing: nothing to show, not a turn.
                    Ok(Content::Text(t)) if is_empty_command_output(t) => {}
                    // Claude Code's mark that the user stopped the agent: a line in the
                    // response, not a prompt the user wrote.
                    Ok(c) if interruption(&c).is_some() => {
                        let mark = interruption(&c).unwrap_or_default().to_owned();
                        n.apply(Event::Error(ErrorInfo::interrupted(mark)));
                    }
                    Ok(c) => {
                        self.replay_subagents(&c, line.tool_use_result.as_ref(), p, n);
                        let extra = self.with_answer(&c, line.tool_use_result);
                        apply_content(Role::User, c, extra, n);
                    }
                    Err(e) => n.apply(Event::Error(json_error(&e, p))),
                }
            }
            "stream_event" => {
                let Some(event) = line.event else {
                    return n.apply(Event::Unknown);
                };
                let stream = self.partial.get_or_insert_with(Stream::nested);
                let read =
                    Fields::of(event, "field `event`").and_then(|f| stream.read_event(f, p, n));
                if let Err(e) = read {
                    n.apply(Event::Error(json_error(&e, p)));
                }
                if let Some(id) = stream.message_id() {
                    if !self.streamed.contains(id) {
                        self.streamed.insert(id.to_owned());
                    }
                }
            }
            // A `/compact` run's own result: nothing was said, the compaction shows it.
            "result"
                if self.compacted
                    && !n.response_open()
                    && line.result.is_none_or(|t| t.trim().is_empty())
                    && line.is_error != Some(true) => {}
            "result" => result(line, n),
            // Bookkeeping with nothing to show.
            // What the session is called: the title the user gave it wins.
            "summary" => {
                if let Some(text) = line.summary.filter(|s| !s.trim().is_empty()) {
                    n.apply(Event::Title {
                        text,
                        chosen: false,
                    });
                }
            }
            "custom-title" => {
                if let Some(text) = line.custom_title.filter(|s| !s.trim().is_empty()) {
                    n.apply(Event::Title { text, chosen: true });
                }
            }
            // The prompt to offer again and the permission mode the session was in:
            // nothing to show.
            "file-history-snapshot" | "queue-operation" | "last-prompt" | "permission-mode" => {}
            _ => n.apply(Event::Unknown),
        }
    }

    /// The stream's notices, read before (and instead of) a [`Line`], whose fields
    /// they spell in their own ways (`permission_denied`'s `message` is a string): the
    /// per-token `thinking_tokens` lines, `tool_progress`, `tool_use_summary`, and the
    /// `system` lines `status`, `hook_*`, `api_retry` and `permission_denied`. True
    /// when the line was one of them.
    fn notice(&mut self, tree: &Tree<'_>, n: &mut dyn Sink) -> bool {
        let Ok(f) = Fields::of(tree, "the line") else {
            return false;
        };
        let text = |key: &str| {
            f.str(key)
                .ok()
                .flatten()
                .map(str::trim)
                .filter(|t| !t.is_empty())
        };
        let kind = text("type").unwrap_or_default();
        let subtype = text("subtype").unwrap_or_default();
        match (kind, subtype) {
            // Per-token counts and progress ticks: nothing to show, nothing unknown.
            ("thinking_tokens" | "tool_progress", _) => {}
            ("tool_use_summary", _) => {
                if let Some(summary) = text("summary") {
                    n.apply(Event::Error(ErrorInfo::note(summary.to_owned())));
                }
            }
            ("system", "status" | "hook_started" | "hook_progress") => {}
            ("system", "hook_response") => {
                // A hook that ran well says nothing; one that failed is a warning.
                let outcome = text("outcome").unwrap_or("success");
                let code = f.i64("exit_code").ok().flatten();
                if outcome != "success" || code.is_some_and(|c| c != 0) {
                    let name = text("hook_name").unwrap_or("a hook");
                    let said = text("stderr").or_else(|| text("output"));
                    let how = match code {
                        Some(c) => format!("{outcome}, exit code {c}"),
                        None => outcome.to_owned(),
                    };
                    let message = match said {
                        Some(s) => format!("Hook {name} failed ({how}): {s}"),
                        None => format!("Hook {name} failed ({how})."),
                    };
                    n.apply(Event::Error(ErrorInfo::warning(message)));
                }
            }
            ("system", "api_retry") => {
                let num = |key: &str| f.u64(key).ok().flatten();
                let mut message = match (num("attempt"), num("max_retries")) {
                    (Some(a), Some(m)) => format!("API call failed; retry {a} of {m}"),
                    (Some(a), None) => format!("API call failed; retry {a}"),
                    _ => "API call failed; retrying".to_owned(),
                };
                let status = num("error_status").map(|s| s.to_string());
                let error = match (text("error"), status) {
                    (Some(e), Some(s)) => Some(format!("{e}, HTTP {s}")),
                    (e, s) => e.map(str::to_owned).or(s.map(|s| format!("HTTP {s}"))),
                };
                if let Some(error) = error {
                    message.push_str(&format!(" ({error})"));
                }
                if let Some(ms) = num("retry_delay_ms") {
                    message.push_str(&format!(" in {:.1} s", ms as f64 / 1000.0));
                }
                message.push('.');
                n.apply(Event::Error(ErrorInfo::warning(message)));
            }
            ("system", "permission_denied") => {
                let tool = text("tool_name").unwrap_or("A tool");
                let reason = text("decision_reason").or_else(|| text("message"));
                let message = match reason {
                    Some(r) => format!("{tool} was denied: {r}"),
                    None => format!("{tool} was denied."),
                };
                // A call that was made is shown denied, with the reason; of another
                // only the note is left.
                match text("tool_use_id").filter(|id| self.calls.contains(*id)) {
                    Some(id) => n.apply(Event::ToolEnd {
                        call_id: id.to_owned(),
                        name: None,
                        args: None,
                        outcome: ToolOutcome {
                            status: CallStatus::Denied,
                            data: Value::String(reason.unwrap_or(&message).to_owned()),
                        },
                        duration_ms: None,
                    }),
                    None => n.apply(Event::Error(ErrorInfo::warning(message))),
                }
            }
            _ => return false,
        }
        true
    }

    /// Before the results of sub-agent calls: the transcript of each agent a result
    /// names (`toolUseResult.agentId`, or the `agentId: …` line of its text), when it
    /// was given, read as the call's run; then back to the agent whose line this is.
    fn replay_subagents(
        &mut self,
        content: &Content<'_>,
        rollup: Option<&Value>,
        p: &Payload<'_>,
        n: &mut dyn Sink,
    ) {
        let Content::Blocks(blocks) = content else {
            return;
        };
        if self.subagent_files.is_empty() {
            return;
        }
        let results: Vec<&Block<'_>> = blocks.iter().filter(|b| b.kind == "tool_result").collect();
        let here = self.agent.clone();
        for b in &results {
            let Some(call) = b
                .tool_use_id
                .as_ref()
                .filter(|id| self.subagent_calls.contains(*id))
            else {
                continue;
            };
            let from_rollup = rollup
                .filter(|_| results.len() == 1)
                .and_then(|r| r.get("agentId"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            let Some(id) = from_rollup.or_else(|| b.content.as_ref().and_then(trailer_agent_id))
            else {
                continue;
            };
            let Some(transcript) = self.subagent_files.remove(&id) else {
                continue;
            };
            // Its lines are its run: no older sidechain line may claim the call.
            self.sidechains.unclaimed.retain(|(c, _)| c != call);
            for raw in transcript.split(|&b| b == b'\n') {
                let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
                if raw.iter().all(u8::is_ascii_whitespace)
                    || nests_deeper_than(raw, Limits::MAX_DEPTH)
                {
                    continue;
                }
                let text = String::from_utf8_lossy(raw);
                let at = Payload {
                    text: &text,
                    event: None,
                    at: p.at,
                };
                self.line(at, Some(call), n);
            }
        }
        if self.agent != here {
            self.agent.clone_from(&here);
            n.apply(Event::Agent { parent: here });
        }
    }

    /// Notes the calls among a message's blocks that start a sub-agent.
    fn note_subagent_calls(&mut self, blocks: &[Block<'_>]) {
        for b in blocks {
            if let (Some(id), Some(name)) = (&b.id, &b.name) {
                if b.kind == "tool_use" && kind_in(&[TOOLS], name) == ToolKind::Task {
                    self.subagent_calls.insert(id.clone());
                }
            }
        }
    }

    /// A sub-agent's `toolUseResult` with its answer: Claude Code's rollup
    /// (`{agentId, status, totalTokens, …}`) says how the run went, while the answer
    /// the main agent got is the `tool_result`'s content, which the rollup may lack
    /// (or hold as `null`). Other results are left as they are.
    fn with_answer(&self, content: &Content<'_>, extra: Option<Value>) -> Option<Value> {
        let Some(Value::Object(mut rollup)) = extra else {
            return extra;
        };
        let Content::Blocks(blocks) = content else {
            return Some(Value::Object(rollup));
        };
        let mut results = blocks.iter().filter(|b| b.kind == "tool_result");
        let (Some(block), None) = (results.next(), results.next()) else {
            return Some(Value::Object(rollup));
        };
        let is_subagent = rollup.contains_key("agentId")
            || block
                .tool_use_id
                .as_ref()
                .is_some_and(|id| self.subagent_calls.contains(id));
        let has_answer = match rollup.get("content") {
            None | Some(Value::Null) => false,
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Array(a)) => !a.is_empty(),
            Some(_) => true,
        };
        if is_subagent && !has_answer {
            if let Some(answer) = block.content.clone().filter(|c| !c.is_null()) {
                rollup.insert("content".to_owned(), answer);
            }
        }
        Some(Value::Object(rollup))
    }

    fn assistant(&mut self, line: Line<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
        let Some(mut m) = line.message else {
            return n.apply(Event::Unknown);
        };
        if m.id.as_ref().is_some_and(|id| self.streamed.contains(id)) {
            return; // its events came first (partial messages)
        }
        // One API call's lines share its message id (a line per content block), each
        // repeating the call's usage: the call is counted once.
        let call = m.id.clone().or_else(|| line.request_id.clone());
        n.apply(Event::Session(SessionInfo {
            conversation_id: line.session_id,
            response_id: m.id.take(),
            model: m.model.take(),
            cwd: line.cwd,
            created: line.timestamp,
            ..SessionInfo::default()
        }));
        let usage = m.usage.take().map(Usage::from);
        let stop_reason = m.stop_reason.take();
        match Content::read(m.content) {
            Ok(c) => {
                if let Content::Blocks(blocks) = &c {
                    self.note_subagent_calls(blocks);
                    let ids = blocks.iter().filter(|b| b.kind == "tool_use");
                    self.calls.extend(ids.filter_map(|b| b.id.clone()));
                }
                // Only a saved session leaves its sub-agents' lines to be claimed.
                if let (Content::Blocks(blocks), true, false) =
                    (&c, self.transcript, line.is_sidechain)
                {
                    self.sidechains.note_calls(blocks);
                }
                apply_content(Role::Assistant, c, None, n);
            }
            Err(e) => n.apply(Event::Error(json_error(&e, p))),
        }
        if stop_reason.is_some() || line.request_id.is_some() {
            n.apply(Event::ResponseMeta {
                duration_ms: None,
                duration_api_ms: None,
                request_id: line.request_id,
                stop_reason,
            });
        }
        match (usage, call) {
            (Some(usage), Some(call)) => n.apply(Event::CallUsage { call, usage }),
            (Some(u), None) => n.apply(Event::Usage(u)),
            (None, _) => {}
        }
    }
}

/// The final `result`: timings, usage, the text, and the end of the response.
fn result(line: Line<'_>, n: &mut dyn Sink) {
    let text = line.result;
    let failed = line.is_error == Some(true) || line.subtype.is_some_and(|s| s != "success");
    let answer = if failed {
        Err(text
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .or_else(|| {
                let texts: Vec<&str> = line.errors?.iter().filter_map(Tree::as_str).collect();
                (!texts.is_empty()).then(|| texts.join("\n"))
            })
            .unwrap_or_else(|| {
                format!(
                    "Claude Code reported an error ({}).",
                    line.subtype.unwrap_or("error")
                )
            }))
    } else {
        Ok(text.map(Cow::Borrowed))
    };
    RunResult {
        session_id: line.session_id,
        duration_ms: line.duration_ms,
        duration_api_ms: line.duration_api_ms,
        request_id: None,
        usage: line.usage.map(Into::into),
        cost_usd: line.total_cost_usd,
        answer,
    }
    .apply(n);
}
