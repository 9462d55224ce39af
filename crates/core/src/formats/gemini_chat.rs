//! Gemini CLI's saved chats, `~/.gemini/tmp/<project-hash>/chats/session-*.json[l]`:
//! the shapes of `packages/core/src/services/chatRecordingTypes.ts` and
//! `chatRecordingService.ts` in google-gemini/gemini-cli.
//!
//! Two forms. Older versions write one `ConversationRecord` (`sessionId`, `projectHash`,
//! `startTime`, `lastUpdated`, `summary`, `messages`), rewritten whole on each change.
//! Newer ones append JSON Lines: a metadata line (`sessionId`, `projectHash`, …), then
//! each message as it is recorded (a message recorded again under the same `id` replaces
//! the earlier copy: its tokens or its tool calls came), `{"$set": {…}}` metadata updates
//! (a `messages` array in one is a checkpoint of the whole history), and
//! `{"$rewindTo": id}` when the user rewound to before message `id`.
//!
//! A checkpoint is the CLI's history as it now stands (its loader reads the last one
//! instead of the messages before it). When the user stops a prompt, or its request
//! fails, the CLI rolls its history back to before the prompt (`rollback` then
//! `updateMessagesFromHistory` in `geminiChat.ts`): the checkpoint then lacks the
//! prompt and what followed it. Those turns are a branch left, folded and marked at
//! their fork as a `$rewindTo`'s are (with the lines, such as "Request cancelled.", that
//! the CLI records before the next message).
//!
//! A message is `{id, timestamp, type, content, displayContent?}`; `user` messages are
//! prompts (a `user` message holding only `functionResponse` parts is the CLI's own
//! record of tool results, already in the calls), `gemini` messages carry `thoughts`,
//! `toolCalls`, `tokens` and `model`; `info`, `warning` and `error` messages are lines in
//! the response. A `user` message holding a `<state_snapshot>` is the summary the CLI's
//! compression replaced the history with: the CLI then records its acknowledgement and
//! the turns it kept again, under new ids, before a `messages` checkpoint; those show
//! nothing (they were shown when they happened).

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Value, json};
use serde_json_borrow::Value as Tree;

use super::common::end_open_response;
use super::fields::{self, Fields, Read};
use super::{Adapter, Payload, or_report};
use crate::model::{CallStatus, Compaction, PromptFrom, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolOutcome};

/// The adapter's state.
#[derive(Default)]
pub(in crate::formats) struct GeminiChat {
    /// For each message read, the number of turns before it: where a rewind to it forks.
    marks: HashMap<String, usize>,
    /// The turn count before the first message (a rewind to an unknown id clears all).
    start: Option<usize>,
    /// The message read last, and what of it was shown: a record that repeats it adds
    /// only what is new.
    last: Option<Shown>,
    /// A todo list was shown as the plan.
    planned: bool,
    /// A compression summary was read: the messages the CLI records again after it
    /// (its acknowledgement, the turns it kept) are history already shown, up to the
    /// checkpoint (`$set` with `messages`) that ends the compression.
    replaying: bool,
    /// The `user` and `gemini` messages of the CLI's history as it stands, in order,
    /// each with whether the CLI keeps it when it loads the history again (it leaves out
    /// empty messages and command lines): a checkpoint without a tail of these rolled
    /// them back.
    history: Vec<(String, bool)>,
    /// Where a rollback forked (the turn count before its first message): marked when
    /// the next message of the history comes, so that the lines recorded after the
    /// rollback ("Request cancelled.") stay in the branch they end.
    rolled_back: Option<usize>,
}

/// What was shown of the last message.
#[derive(Default)]
struct Shown {
    id: String,
    thoughts: usize,
    text: String,
    /// Each call's id, and whether its end was shown.
    calls: Vec<(String, bool)>,
    tokens: bool,
}

/// One record of a chat file, flat.
struct Record<'v, 'a> {
    id: Option<&'v str>,
    rewind_to: Option<&'v str>,
    set: Option<Fields<'v, 'a>>,
    session_id: Option<String>,
    project_hash: Option<&'v str>,
    start_time: Option<String>,
    summary: Option<&'v str>,
    /// `main`, or `subagent` (a sub-agent's own chat, `chats/<parent session>/<id>.jsonl`).
    kind: Option<&'v str>,
    messages: Option<&'v [Tree<'a>]>,
}

impl<'v, 'a> Record<'v, 'a> {
    fn read(f: Fields<'v, 'a>) -> Read<Self> {
        Ok(Record {
            id: f.str("id")?,
            rewind_to: f.str("$rewindTo")?,
            set: f.object("$set")?,
            session_id: f.string("sessionId")?,
            project_hash: f.str("projectHash")?,
            start_time: f.string("startTime")?,
            summary: f.str("summary")?,
            kind: f.str("kind")?,
            messages: f.array("messages")?,
        })
    }
}

/// A `MessageRecord`.
struct Message<'v, 'a> {
    id: &'v str,
    timestamp: Option<String>,
    kind: Option<&'v str>,
    content: Option<&'v Tree<'a>>,
    display: Option<&'v Tree<'a>>,
    model: Option<String>,
    thoughts: Vec<Thought<'v>>,
    calls: Vec<Call<'v, 'a>>,
    tokens: Option<Usage>,
}

impl<'v, 'a> Message<'v, 'a> {
    fn read(f: Fields<'v, 'a>) -> Read<Self> {
        Ok(Message {
            id: f.str("id")?.unwrap_or_default(),
            timestamp: f.string("timestamp")?,
            kind: f.str("type")?,
            content: f.get("content"),
            display: f.get("displayContent"),
            model: f.string("model")?,
            thoughts: f.list("thoughts", Thought::read)?.unwrap_or_default(),
            calls: f.list("toolCalls", Call::read)?.unwrap_or_default(),
            tokens: f.object("tokens")?.map(tokens).transpose()?.flatten(),
        })
    }
}

/// A thought summary: `{subject, description, timestamp}`.
struct Thought<'v> {
    subject: Option<&'v str>,
    description: Option<&'v str>,
}

impl<'v> Thought<'v> {
    fn read(f: Fields<'v, '_>) -> Read<Self> {
        Ok(Thought {
            subject: f.str("subject")?,
            description: f.str("description")?,
        })
    }

    /// The subject in bold, then the description.
    fn text(&self) -> String {
        let subject = self.subject.map(str::trim).filter(|s| !s.is_empty());
        let description = self.description.map(str::trim).unwrap_or_default();
        match subject {
            Some(s) if description.is_empty() => format!("**{s}**"),
            Some(s) => format!("**{s}**\n\n{description}"),
            None => description.to_owned(),
        }
    }
}

/// A `ToolCallRecord`.
struct Call<'v, 'a> {
    id: &'v str,
    name: &'v str,
    args: Option<Value>,
    result: Option<&'v Tree<'a>>,
    status: Option<&'v str>,
    display: Option<&'v Tree<'a>>,
}

impl<'v, 'a> Call<'v, 'a> {
    fn read(f: Fields<'v, 'a>) -> Read<Self> {
        Ok(Call {
            id: f.str("id")?.unwrap_or_default(),
            name: f.str("name")?.unwrap_or("tool"),
            args: f.value("args"),
            result: f.get("result"),
            status: f.str("status")?,
            display: f.get("resultDisplay"),
        })
    }

    /// The call's status once it ran (`success`, `error`, `cancelled`); `None` while it
    /// waits or runs (`validating`, `scheduled`, `awaiting_approval`, `executing`).
    fn ended(&self) -> Option<&'v str> {
        self.status
            .filter(|s| matches!(*s, "success" | "error" | "cancelled"))
    }
}

/// `TokensSummary`: `{input, output, cached, thoughts?, tool?, total}`; none when all
/// are zero.
fn tokens(f: Fields<'_, '_>) -> Read<Option<Usage>> {
    let count = |key| f.u64(key).map(Option::unwrap_or_default);
    let (input, output, cached) = (count("input")?, count("output")?, count("cached")?);
    let (thoughts, tool, total) = (count("thoughts")?, count("tool")?, count("total")?);
    let prompt = input.saturating_add(tool);
    // Reasoning counts as output, as in the Gemini API's own counts.
    let completion = output.saturating_add(thoughts);
    let total = total.max(prompt.saturating_add(completion));
    Ok((total > 0).then_some(Usage {
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: total,
        cache_read_tokens: (cached > 0).then_some(cached),
        cache_write_tokens: None,
        reasoning_tokens: (thoughts > 0).then_some(thoughts),
    }))
}

/// The text of a `PartListUnion` (a string, a part, or a list of them): its text parts
/// and its thought parts, each joined.
#[derive(Default)]
struct Parts {
    text: String,
    thought: String,
    /// It held a `functionResponse` part.
    responses: bool,
    /// It held a `functionCall` part.
    calls: bool,
}

impl Parts {
    fn of(v: Option<&Tree<'_>>) -> Parts {
        let mut parts = Parts::default();
        if let Some(v) = v {
            parts.add(v, 0);
        }
        parts
    }

    fn add(&mut self, v: &Tree<'_>, depth: usize) {
        match v {
            Tree::Str(s) => self.text.push_str(s),
            Tree::Array(items) if depth == 0 => {
                for item in items {
                    self.add(item, depth + 1);
                }
            }
            Tree::Object(_) => {
                let text = v.get("text").as_str();
                if v.get("functionResponse").as_object().is_some() {
                    self.responses = true;
                }
                if v.get("functionCall").as_object().is_some() {
                    self.calls = true;
                }
                match text {
                    Some(t) if v.get("thought").as_bool() == Some(true) => {
                        push_paragraph(&mut self.thought, t)
                    }
                    Some(t) => self.text.push_str(t),
                    None => {}
                }
            }
            _ => {}
        }
    }
}

fn push_paragraph(to: &mut String, text: &str) {
    if !to.is_empty() && !text.is_empty() {
        to.push_str("\n\n");
    }
    to.push_str(text);
}

impl Adapter for GeminiChat {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let Some(tree) = or_report(fields::parse(p.text), &p, n) else {
            return;
        };
        let Some(record) = or_report(
            Fields::of(&tree, "the record").and_then(Record::read),
            &p,
            n,
        ) else {
            return;
        };
        if let Some(to) = record.rewind_to {
            self.rewind(to, n);
        } else if record.id.is_some() {
            self.message(&tree, &p, n);
        } else if let Some(set) = record.set {
            self.set(set, &p, n);
        } else if record.session_id.is_some() || record.project_hash.is_some() {
            // The metadata line, or the whole record of older versions.
            n.apply(Event::Session(SessionInfo {
                conversation_id: record.session_id,
                created: record.start_time,
                ..SessionInfo::default()
            }));
            if record.kind == Some("subagent") {
                // Its prompts are the main agent's.
                n.apply(Event::PromptsFrom(Some(PromptFrom::ParentAgent)));
            }
            if let Some(summary) = record.summary {
                title(summary, n);
            }
            for m in record.messages.unwrap_or_default() {
                self.message(m, &p, n);
            }
        } else {
            n.apply(Event::Unknown);
        }
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        self.mark_rollback(n);
        end_open_response(n);
    }
}

/// The session's summary, as its title.
fn title(summary: &str, n: &mut dyn Sink) {
    let summary = summary.trim();
    if !summary.is_empty() {
        n.apply(Event::Title {
            text: summary.to_owned(),
            chosen: false,
        });
    }
}

impl GeminiChat {
    /// `$set`: a summary is the title; a `messages` checkpoint adds the messages not
    /// read yet (and what is new of the last one); the rest (`lastUpdated`, the
    /// directories, the memory scratchpad) shows nothing.
    fn set(&mut self, set: Fields<'_, '_>, p: &Payload<'_>, n: &mut dyn Sink) {
        let read = set
            .str("summary")
            .and_then(|s| Ok((s, set.array("messages")?)));
        let Some((summary, messages)) = or_report(read, p, n) else {
            return;
        };
        if let Some(summary) = summary {
            title(summary, n);
        }
        if let Some(messages) = messages {
            if !self.replaying {
                self.rollback(messages);
            }
            for m in messages {
                self.message(m, p, n);
            }
            self.replaying = false;
            // The checkpoint is the history now (a compression's summary and the turns
            // it kept included).
            let keeps: HashMap<&str, bool> = self
                .history
                .iter()
                .map(|(id, k)| (id.as_str(), *k))
                .collect();
            self.history = messages
                .iter()
                .filter_map(|m| m.get("id").as_str())
                .filter_map(|id| Some((id.to_owned(), *keeps.get(id)?)))
                .collect();
        }
    }

    /// A checkpoint that lacks a tail of the history (and keeps the rest as it was, in
    /// order): the CLI rolled those messages back. A compression, which replaces the
    /// history with its summary, is none.
    fn rollback(&mut self, messages: &[Tree<'_>]) {
        let kept: Vec<&str> = self
            .history
            .iter()
            .filter(|(_, keeps)| *keeps)
            .map(|(id, _)| id.as_str())
            .collect();
        if kept.is_empty() || messages.iter().any(is_compression_summary) {
            return;
        }
        let known: std::collections::HashSet<&str> = kept.iter().copied().collect();
        let mut still = 0;
        for id in messages.iter().filter_map(|m| m.get("id").as_str()) {
            if !known.contains(id) {
                continue;
            }
            if kept.get(still) != Some(&id) {
                return; // not the history's start, in order: no rollback
            }
            still += 1;
        }
        let Some(&fork) = kept.get(still) else {
            return;
        };
        let Some(&turns) = self.marks.get(fork) else {
            return;
        };
        self.rolled_back = Some(self.rolled_back.map_or(turns, |t| t.min(turns)));
        if let Some(at) = self.history.iter().position(|(id, _)| id == fork) {
            self.history.truncate(at);
        }
        self.last = None;
    }

    /// Marks the branch a rollback left, once.
    fn mark_rollback(&mut self, n: &mut dyn Sink) {
        if let Some(turns) = self.rolled_back.take() {
            n.apply(Event::Rewind { turns });
        }
    }

    /// `$rewindTo`: the message and all after it were taken back; the branch they
    /// started is marked rewound, replaced by what follows.
    fn rewind(&mut self, to: &str, n: &mut dyn Sink) {
        // The CLI clears the whole history when the id is not found.
        self.mark_rollback(n);
        let Some(turns) = self.marks.get(to).copied().or(self.start) else {
            return;
        };
        let at = self.history.iter().position(|(id, _)| id == to);
        self.history.truncate(at.unwrap_or(0));
        n.apply(Event::Rewind { turns });
        self.last = None;
        self.replaying = false;
    }

    /// One message record (a line, or an element of `messages`).
    fn message(&mut self, v: &Tree<'_>, p: &Payload<'_>, n: &mut dyn Sink) {
        let read = Fields::of(v, "a message").and_then(Message::read);
        let Some(m) = or_report(read, p, n) else {
            return;
        };
        let again = self.last.as_ref().is_some_and(|s| s.id == m.id);
        if !again && self.marks.contains_key(m.id) {
            // An earlier message recorded again (a checkpoint, or tool output masked
            // later): it was shown as it was.
            return;
        }
        let in_history = matches!(m.kind, Some("user" | "gemini"));
        if in_history {
            let keeps = kept_on_reload(&m);
            match self.history.last_mut() {
                Some((id, k)) if again && id.as_str() == m.id => *k = keeps,
                _ if again => {}
                _ => {
                    // A message of the history after a rollback: the branch left ends.
                    self.mark_rollback(n);
                    self.history.push((m.id.to_owned(), keeps));
                }
            }
        }
        if !again {
            let turns = n.turn_count();
            self.start.get_or_insert(turns);
            self.marks.insert(m.id.to_owned(), turns);
            if self.replaying {
                self.last = None;
                return;
            }
            if let Some(at) = &m.timestamp {
                n.apply(Event::Time(at.clone()));
            }
        }
        match m.kind {
            Some("user") => {
                self.last = None;
                self.prompt(&m, n);
            }
            Some("gemini") => {
                let mut shown = match self.last.take() {
                    Some(s) if again => s,
                    _ => Shown {
                        id: m.id.to_owned(),
                        ..Shown::default()
                    },
                };
                self.answer(&m, &mut shown, n);
                self.last = Some(shown);
            }
            Some(kind @ ("info" | "warning" | "error")) => {
                self.last = None;
                note(kind, &m, n);
            }
            _ => {
                self.last = None;
                n.apply(Event::Unknown);
            }
        }
    }

    /// A `user` message: a prompt (as typed, `displayContent`, where the CLI kept it), a
    /// compression summary, the context the CLI sets up (`<session_context>`,
    /// `<hook_context>`, not shown, as the CLI's own session list leaves it out), or the
    /// CLI's record of tool results (shown with the calls).
    fn prompt(&mut self, m: &Message<'_, '_>, n: &mut dyn Sink) {
        let content = Parts::of(m.content);
        let trimmed = content.text.trim_start();
        if trimmed.starts_with("<session_context>") || trimmed.starts_with("<hook_context>") {
            return;
        }
        if content.text.contains("<state_snapshot>") {
            n.apply(Event::Compaction(Compaction::default()));
            n.apply(Event::CompactSummary(Cow::Borrowed(content.text.trim())));
            self.replaying = true;
            return;
        }
        let shown = match m.display {
            Some(d) => Parts::of(Some(d)),
            None => content,
        };
        let text = shown.text.trim();
        if text.is_empty() {
            return;
        }
        n.apply(Event::UserPrompt {
            text: Cow::Borrowed(text),
            attachments: Vec::new(),
        });
    }

    /// A `gemini` message, or what a later record of it adds.
    fn answer(&mut self, m: &Message<'_, '_>, shown: &mut Shown, n: &mut dyn Sink) {
        let content = Parts::of(m.content);
        if let Some(model) = &m.model {
            n.apply(Event::Session(SessionInfo {
                model: Some(model.clone()),
                ..SessionInfo::default()
            }));
        }
        for t in m.thoughts.iter().skip(shown.thoughts) {
            let mut text = t.text();
            if shown.thoughts > 0 {
                text.insert_str(0, "\n\n");
            }
            n.apply(Event::Thinking(Cow::Owned(text)));
            shown.thoughts += 1;
        }
        if !content.thought.is_empty() && shown.thoughts == 0 && shown.text.is_empty() {
            n.apply(Event::Thinking(Cow::Borrowed(&content.thought)));
            shown.thoughts = 1;
        }
        // Text recorded again is the same text, or more of it.
        if let Some(new) = content.text.strip_prefix(shown.text.as_str())
            && !new.is_empty()
        {
            n.apply(Event::Text(Cow::Borrowed(new)));
            shown.text = content.text.clone();
        }
        for call in &m.calls {
            self.call(call, shown, n);
        }
        if let Some(usage) = m.tokens.clone()
            && !shown.tokens
        {
            shown.tokens = true;
            n.apply(Event::CallUsage {
                call: m.id.to_owned(),
                usage,
            });
        }
    }

    /// A tool call: its start when first seen, its end once it ran.
    fn call(&mut self, call: &Call<'_, '_>, shown: &mut Shown, n: &mut dyn Sink) {
        let at = match shown.calls.iter().position(|(id, _)| id == call.id) {
            Some(at) => at,
            None => {
                // The first todo list is the plan; later ones update its todos.
                let name =
                    if call.name == "write_todos" && !std::mem::replace(&mut self.planned, true) {
                        "create_plan"
                    } else {
                        call.name
                    };
                n.apply(Event::tool_start(
                    call.id.to_owned(),
                    name.to_owned(),
                    call.args
                        .clone()
                        .unwrap_or(Value::Object(Default::default())),
                ));
                shown.calls.push((call.id.to_owned(), false));
                shown.calls.len() - 1
            }
        };
        let Some(status) = call.ended() else {
            return;
        };
        if std::mem::replace(&mut shown.calls[at].1, true) {
            return;
        }
        n.apply(Event::tool_end(call.id.to_owned(), outcome(call, status)));
    }
}

/// Whether the CLI keeps a `user` or `gemini` message in the history it loads again
/// (`convertSessionToClientHistory`): not an empty message, nor a command line (`/…`,
/// `?…`) or the context it sets up.
fn kept_on_reload(m: &Message<'_, '_>) -> bool {
    let content = Parts::of(m.content);
    match m.kind {
        Some("user") => {
            let t = content.text.trim();
            !(t.is_empty()
                || t.starts_with(['/', '?'])
                || t.starts_with("<session_context>")
                || t.starts_with("<hook_context>"))
        }
        _ => {
            !content.text.is_empty()
                || !content.thought.is_empty()
                || content.calls
                || !m.thoughts.is_empty()
                || !m.calls.is_empty()
        }
    }
}

/// A `user` message holding a compression's summary.
fn is_compression_summary(v: &Tree<'_>) -> bool {
    v.get("type").as_str() == Some("user")
        && Parts::of(Some(v.get("content")))
            .text
            .contains("<state_snapshot>")
}

/// What a call that ran gave: its status, and its output (for a shell command, the
/// output and exit code of a terminal run).
fn outcome(call: &Call<'_, '_>, status: &str) -> ToolOutcome {
    let response = Response::of(call.result);
    let display = call.display.and_then(Tree::as_str);
    let said = response.error.as_deref().or(response.output.as_deref());
    let refused = match status {
        _ if said.is_some_and(|s| s.starts_with("Tool execution denied by policy")) => {
            Some(CallStatus::Denied)
        }
        "cancelled" => Some(CallStatus::Interrupted),
        _ => None,
    };
    let mut failed = status == "error" || response.error.is_some();
    let data = if let Some(error) = &response.error {
        Value::from(error.clone())
    } else if call.name == "run_shell_command" && refused.is_none() {
        let llm = response.output.as_deref().unwrap_or_default();
        let exit_code = exit_code(llm).or_else(|| {
            display
                .and_then(|d| d.trim().strip_prefix("Command exited with code: "))
                .and_then(|c| c.parse::<i64>().ok())
        });
        failed |= exit_code.is_some_and(|c| c != 0);
        // What the user saw is the command's own output; the model's copy frames it.
        let output = display.map_or_else(|| shell_output(llm), str::to_owned);
        json!({ "output": output, "exitCode": exit_code })
    } else {
        match response.output.or(display.map(str::to_owned)) {
            Some(output) => Value::from(output),
            None => Value::Null,
        }
    };
    ToolOutcome {
        status: match refused {
            Some(s) => s,
            None if failed => CallStatus::Error,
            None => CallStatus::Success,
        },
        data,
    }
}

/// The `Exit Code: N` line of a shell command's output as the model got it.
fn exit_code(llm: &str) -> Option<i64> {
    llm.lines()
        .find_map(|l| l.strip_prefix("Exit Code: "))
        .and_then(|c| c.trim().parse().ok())
}

/// The command's output in what the model got (`Command: …`, `Output: …`, `Error: …`,
/// `Exit Code: …` lines): the `Output:` section, or all of it when it has none.
fn shell_output(llm: &str) -> String {
    const AFTER: [&str; 6] = [
        "\nError: ",
        "\nExit Code: ",
        "\nSignal: ",
        "\nBackground PIDs: ",
        "\nProcess Group PGID: ",
        "\nDirectory: ",
    ];
    let Some(start) = llm
        .strip_prefix("Output: ")
        .or_else(|| llm.find("\nOutput: ").map(|i| &llm[i + 9..]))
    else {
        return llm.to_owned();
    };
    let end = AFTER
        .iter()
        .filter_map(|a| start.find(a))
        .min()
        .unwrap_or(start.len());
    let output = &start[..end];
    if output == "(empty)" {
        String::new()
    } else {
        output.to_owned()
    }
}

/// A call's `result`: the `functionResponse` parts' `response` (`{output}` or
/// `{error}`), or its text parts.
#[derive(Default)]
struct Response {
    output: Option<String>,
    error: Option<String>,
}

impl Response {
    fn of(result: Option<&Tree<'_>>) -> Response {
        let mut r = Response::default();
        let Some(result) = result else {
            return r;
        };
        let single = std::slice::from_ref(result);
        let parts = result.as_array().unwrap_or(single);
        let mut text = String::new();
        for part in parts {
            let response = part.get("functionResponse").get("response");
            if let Some(output) = response.get("output").as_str() {
                push_paragraph(r.output.get_or_insert_with(String::new), output);
            } else if let Some(error) = response.get("error").as_str() {
                push_paragraph(r.error.get_or_insert_with(String::new), error);
            } else if let Some(t) = part.get("text").as_str().or(part.as_str()) {
                text.push_str(t);
            }
        }
        if r.output.is_none() && r.error.is_none() && !text.is_empty() {
            r.output = Some(text);
        }
        r
    }
}

/// An `info`, `warning` or `error` message: a line in the response (an error, an error
/// document).
fn note(kind: &str, m: &Message<'_, '_>, n: &mut dyn Sink) {
    let text = Parts::of(m.content).text.trim().to_owned();
    if text.is_empty() {
        return;
    }
    let info = match kind {
        "error" => ErrorInfo::agent(text),
        "info" if text.starts_with("Request cancelled") => ErrorInfo::interrupted(text),
        "info" => ErrorInfo {
            details: format!("info: {text}"),
            ..ErrorInfo::warning(text)
        },
        _ => ErrorInfo::warning(text),
    };
    n.apply(Event::Error(info));
}
