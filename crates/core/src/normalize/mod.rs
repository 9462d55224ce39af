//! The normaliser (seed 000 §7): applies normalised [`Event`]s to the conversation.
//!
//! Every adapter speaks [`Event`]; this module alone decides what becomes a document.
//! It is incremental: prose is split into text and code as it arrives, tool calls are
//! documents from their start and are rebuilt when their result comes.

mod builder;
mod error_run;
mod events;
mod fences;
mod history;
mod language;
mod sink;
mod subagents;
mod tools;

use std::collections::HashMap;

use serde_json::Value;

pub(crate) use events::{ErrorInfo, Event, SessionInfo, ToolOutcome};
pub(crate) use sink::Sink;
pub(crate) use tools::error_message;
pub(crate) use tools::{ToolKind, ToolNames, kind_in};

use crate::error::codes;
use crate::model::{
    Changes, Conversation, DocKey, DocumentType, ErrorMeta, Meta, PromptFrom, ResponseStatus,
    ThinkingMeta, TodoChange, Turn, Usage, UserTurn,
};
use builder::Builder;
use error_run::{ErrorRun, is_stream_error};
use fences::FenceSplitter;
use subagents::Lane;

/// A tool call being tracked from start to result.
#[derive(Debug)]
struct Call {
    key: DocKey,
    name: String,
    /// The kind its name says, looked up once when it starts (the name does not change).
    kind: ToolKind,
    args: Value,
    /// The result has come.
    done: bool,
    /// It was denied (Claude Code's `permission_denied`): the error result that
    /// follows keeps it denied.
    denied: bool,
}

/// Applies normalised events to a [`Conversation`] and records what changed.
#[derive(Debug, Default)]
pub(crate) struct Normalizer {
    b: Builder,
    /// The tables of tool names of the format being read (see [`tools::kind_in`]).
    tool_names: &'static [ToolNames],
    splitter: FenceSplitter,
    thinking: Option<DocKey>,
    calls: HashMap<String, Call>,
    explicit: HashMap<String, DocKey>,
    /// A tool result came since the model last spoke: its next output is a new turn.
    after_tool_result: bool,
    /// Stream errors (a malformed line …) that came while prose, code or thinking was
    /// open: written when that segment ends, so that a bad line inside a fence does not
    /// close the fence.
    deferred: Vec<ErrorInfo>,
    /// The last stream error's run, which the next one joins if nothing came between.
    error_run: Option<ErrorRun>,
    /// The session's todo list as the last `todo_update` left it (a merging update
    /// applies to it).
    todo_list: Vec<TodoChange>,
    /// The call whose sub-agent's events are being applied; `None` for the main agent.
    lane: Option<String>,
    /// The turn of that sub-agent's run, and how deep it is nested.
    lane_run: Option<usize>,
    lane_depth: u32,
    /// The other sub-agents' lanes, by the call that started them.
    lanes: HashMap<String, Lane>,
    /// The main agent's lane while a sub-agent's events are applied.
    main: Lane,
    /// Who writes the prompts now applied (`None`: the person).
    prompts_from: Option<PromptFrom>,
    /// The time of the line being read ([`Event::Time`]).
    now: Option<String>,
    /// The API calls of each open response and their counts, with their sum
    /// ([`Event::CallUsage`]), by the response's turn.
    call_usage: HashMap<usize, CallUsage>,
    /// Compactions and rewinds.
    history: history::History,
}

/// The API calls of one response: each call's counts, and their sum.
#[derive(Debug, Default)]
struct CallUsage {
    calls: HashMap<String, Usage>,
    sum: Usage,
}

impl Normalizer {
    /// A normaliser with an empty conversation.
    pub(crate) fn new() -> Normalizer {
        Normalizer::default()
    }

    /// Looks tool names up in `tables` first, then in the names any application may
    /// use: the tables of the format being read ([`Format`](crate::Format)'s).
    pub(crate) fn set_tool_names(&mut self, tables: &'static [ToolNames]) {
        self.tool_names = tables;
    }

    /// The conversation so far.
    pub(crate) fn conversation(&self) -> &Conversation {
        &self.b.conv
    }

    /// Consumes the normaliser, returning the conversation.
    pub(crate) fn into_conversation(self) -> Conversation {
        self.b.conv
    }

    /// Takes the changes made since the last call.
    pub(crate) fn take_changes(&mut self) -> Changes {
        self.b.changes.take()
    }

    /// The documents that may still grow, in document order.
    pub(crate) fn open_documents(&self) -> Vec<DocKey> {
        self.b.open_documents()
    }

    /// The changes made since the last take.
    pub(crate) fn changes(&self) -> &Changes {
        &self.b.changes
    }

    /// Forgets the changes made since the last take, keeping their memory.
    pub(crate) fn clear_changes(&mut self) {
        self.b.changes.clear();
    }

    /// Mutable access to counters and format, which are not document changes.
    pub(crate) fn conversation_mut(&mut self) -> &mut Conversation {
        &mut self.b.conv
    }

    /// Applies one event.
    pub(crate) fn apply(&mut self, event: Event<'_>) {
        self.apply_event(event);
        self.after_event();
    }

    fn apply_event(&mut self, event: Event<'_>) {
        match event {
            Event::Session(info) => self.session(info),
            Event::SessionStart(info) => {
                self.cut_off_runs();
                self.lanes.clear();
                self.end_segment();
                self.b.close_all();
                self.cut_off();
                self.calls.clear();
                self.explicit.clear();
                self.b.latest_plan = None;
                self.todo_list.clear();
                self.session(info);
            }
            Event::ResponseStart(info) if self.in_subagent() => self.session(info),
            Event::ResponseStart(info) => self.response_start(info),
            // A sub-agent's prompt is its call's argument, shown there.
            Event::PromptsFrom(from) => self.prompts_from = from,
            Event::UserPrompt { .. } if self.in_subagent() => {}
            // A sub-agent's compactions and forks stay inside its run.
            Event::Compaction(_) | Event::CompactSummary(_) | Event::Rewind { .. }
                if self.in_subagent() => {}
            Event::Compaction(c) => self.compaction(c),
            Event::CompactSummary(text) => self.compact_summary(text),
            Event::Rewind { turns } => self.rewind(turns),
            Event::UserPrompt { text, attachments } => {
                self.end_response(ResponseStatus::Completed);
                let id = self.b.next_user_id();
                self.b.push_turn(Turn::User(UserTurn {
                    id,
                    content: text.into_owned(),
                    attachments,
                    created: self.now.clone(),
                    from: self.prompts_from,
                    ..UserTurn::default()
                }));
            }
            Event::Text(text) => {
                self.end_thinking();
                self.step();
                self.splitter.feed(&text, &mut self.b);
            }
            Event::Thinking(text) => self.thinking(&text),
            Event::ThinkingDuration(ms) => {
                let Some(key) = self.thinking else { return };
                if let Meta::Thinking(m) = &self.b.doc(key).meta
                    && m.duration_ms != Some(ms)
                {
                    if let Meta::Thinking(m) = &mut self.b.doc_head_mut(key).meta {
                        m.duration_ms = Some(ms);
                    }
                }
            }
            Event::ThinkingEnd {
                signature,
                redacted,
            } => {
                if self.thinking.is_none() && (redacted || signature.is_some()) {
                    self.thinking("");
                }
                if let Some(key) = self.thinking.take() {
                    self.b.close(key);
                    let Meta::Thinking(m) = &self.b.doc(key).meta else {
                        return;
                    };
                    // Only a real change is recorded (an update renders the document again).
                    let signed = signature.is_some() && signature != m.signature;
                    if signed || (redacted && !m.redacted) {
                        if let Meta::Thinking(m) = &mut self.b.doc_mut(key).meta {
                            m.signature = signature.or(m.signature.take());
                            m.redacted |= redacted;
                        }
                    }
                }
            }
            Event::DocStart {
                id,
                doc_type,
                metadata,
            } => {
                self.end_segment();
                let mut meta = metadata
                    .and_then(|m| read_metadata(doc_type, m))
                    .unwrap_or_else(|| Meta::empty(doc_type));
                tools::read_loaded(&mut meta, self.tool_names);
                let content = match doc_type {
                    DocumentType::ToolCall
                    | DocumentType::TerminalCommand
                    | DocumentType::TodoUpdate => None,
                    _ => Some(String::new()),
                };
                if self.explicit.contains_key(&id) {
                    return;
                }
                self.step();
                let key = self.b.add_growing(Some(id.clone()), content, meta);
                self.count_tool(doc_type);
                self.explicit.insert(id, key);
                if doc_type == DocumentType::TodoUpdate {
                    self.apply_todo_update(key);
                }
            }
            Event::DocDelta { id, text } => {
                let key = match self.explicit.get(id.as_ref()) {
                    Some(&k) => k,
                    None => {
                        self.end_segment();
                        let key = self.b.add_growing(
                            Some(id.to_string()),
                            Some(String::new()),
                            Meta::empty(DocumentType::Text),
                        );
                        self.explicit.insert(id.into_owned(), key);
                        key
                    }
                };
                self.b.append(key, &text);
            }
            Event::DocEnd { id, final_content } => {
                if let Some(&key) = self.explicit.get(&id) {
                    if let Some(content) = final_content {
                        if self.b.doc(key).content.as_deref() != Some(content.as_str()) {
                            self.b.doc_mut(key).content = Some(content);
                        }
                    }
                    self.b.close(key);
                }
            }
            Event::Response(mut response) => {
                for d in &mut response.documents {
                    tools::read_loaded(&mut d.meta, self.tool_names);
                }
                self.end_response(ResponseStatus::Completed);
                self.b.push_turn(Turn::Assistant(*response));
            }
            Event::ToolStart {
                call_id,
                name,
                args,
                doc_id,
            } => self.tool_start(call_id, name, tools::args_value(args), doc_id),
            Event::ToolArgs { call_id, args } => {
                if let Some(call) = self.calls.get_mut(&call_id) {
                    call.args = tools::args_value(args);
                    let (meta, content) =
                        tools::build(&call.name, call.kind, &call_id, &call.args, None, None);
                    let key = call.key;
                    self.rebuild(key, meta, content);
                }
            }
            Event::ToolEnd {
                call_id,
                name,
                args,
                outcome,
                duration_ms,
            } => self.tool_end(call_id, name, args, outcome, duration_ms),
            Event::Usage(mut usage) => {
                if usage.total_tokens == 0 {
                    usage.total_tokens =
                        usage.prompt_tokens.saturating_add(usage.completion_tokens);
                }
                let r = self.b.response_mut();
                r.usage = Some(merge_usage(r.usage.take(), usage));
            }
            Event::CallUsage { call, usage } => self.call_usage(call, usage),
            Event::Cost(usd) => {
                if usd.is_finite() && usd >= 0.0 {
                    let m = &mut self.b.response_mut().metadata;
                    m.cost_usd = Some(usd);
                }
            }
            Event::Time(at) => self.time(at),
            Event::Title { text, chosen } => {
                if chosen || self.b.conv.title.is_none() {
                    self.b.conv.title = Some(text);
                }
            }
            Event::ResponseMeta {
                duration_ms,
                duration_api_ms,
                request_id,
                stop_reason,
            } => {
                let m = &mut self.b.response_mut().metadata;
                m.duration_ms = duration_ms.or(m.duration_ms);
                m.duration_api_ms = duration_api_ms.or(m.duration_api_ms);
                m.request_id = request_id.or(m.request_id.take());
                m.stop_reason = stop_reason.or(m.stop_reason.take());
            }
            Event::FinalText(text) => {
                let has_prose = self.b.open_response().is_some_and(|r| {
                    r.documents.iter().any(|d| {
                        matches!(
                            d.doc_type(),
                            DocumentType::Text
                                | DocumentType::CodeBlock
                                | DocumentType::CodeReference
                        )
                    })
                });
                if !has_prose && !text.trim().is_empty() {
                    self.apply(Event::Text(text));
                    self.end_segment();
                }
            }
            Event::Done { error } => {
                // The end of the run is the main agent's.
                self.enter_agent(None);
                self.end_segment();
                let status = match error {
                    Some(info) => {
                        self.error(info);
                        ResponseStatus::Error
                    }
                    None => ResponseStatus::Completed,
                };
                // A `done` with nothing before it still records an (empty) response.
                self.b.response();
                self.end_response(status);
            }
            Event::Error(info) if is_stream_error(&info.code) && self.segment_open() => {
                self.deferred.push(info);
            }
            Event::Error(info) => {
                self.end_segment();
                self.error(info);
            }
            Event::Agent { parent } => self.enter_agent(parent.as_deref()),
            Event::AgentEnd { parent, failed } => {
                let status = if failed {
                    ResponseStatus::Error
                } else {
                    ResponseStatus::Completed
                };
                self.end_run(&parent, status);
            }
            Event::UnknownValues { count, problem } => {
                self.b.conv.stats.unknown_values += count;
                self.b.conv.note_problem(problem);
            }
            Event::Unknown => self.b.conv.stats.unknown_events += 1,
        }
    }

    /// Ends the stream: a response still open was cut off; it becomes an `error`
    /// response with an `error` document saying so, and keeps what it received.
    pub(crate) fn finish(&mut self) {
        self.cut_off_runs();
        self.end_segment();
        self.b.close_all();
        self.cut_off();
    }

    /// Ends a response still open as cut off (the stream, or its run, ended first).
    fn cut_off(&mut self) {
        if self.b.open.is_none() {
            return;
        }
        let mut running: Vec<(usize, String)> = self
            .calls
            .iter()
            .filter(|(_, c)| !c.done && Some(c.key.turn) == self.b.open)
            .map(|(id, c)| (c.key.index, format!("{} ({})", id.trim(), c.name)))
            .collect();
        running.sort();
        let mut details =
            "The stream ended before its final event; everything received is kept.".to_owned();
        if !running.is_empty() {
            let names: Vec<String> = running.into_iter().map(|(_, s)| s).collect();
            details.push_str(&format!(
                " {} tool call{} had not finished: {}.",
                names.len(),
                if names.len() == 1 { "" } else { "s" },
                names.join(", ")
            ));
        }
        self.error(ErrorInfo {
            at: None,
            code: codes::CUT_OFF.to_owned(),
            source: "stream".to_owned(),
            message: "The response was cut off.".to_owned(),
            details,
        });
        self.end_response(ResponseStatus::Error);
    }

    fn session(&mut self, info: SessionInfo) {
        if let Some(r) = self.b.open_response() {
            let changed = apply_info(r, &info);
            if changed {
                let t = self.b.open.expect("open response");
                self.b.changes.turn_updated(t);
            }
        }
        if self.in_subagent() {
            return; // a sub-agent's model and ids are its run's, not the session's
        }
        let s = &mut self.b.session;
        s.conversation_id = info.conversation_id.or(s.conversation_id.take());
        s.model = info.model.or(s.model.take());
        s.mode = info.mode.or(s.mode.take());
        s.cwd = info.cwd.or(s.cwd.take());
        if self.b.open.is_none() {
            s.response_id = info.response_id.or(s.response_id.take());
            s.created = info.created.or(s.created.take());
        }
    }

    fn response_start(&mut self, info: SessionInfo) {
        if let (Some(id), Some(r)) = (&info.response_id, self.b.open_response()) {
            if &r.id == id {
                return; // a repeated start (a proxy's retry) adds nothing
            }
        }
        self.end_response(ResponseStatus::Completed);
        self.session(info);
        self.b.response();
    }

    /// Ends the open response with a status, closing prose and thinking.
    fn end_response(&mut self, status: ResponseStatus) {
        self.end_segment();
        if let Some(turn) = self.b.open {
            self.end_calls(turn);
            self.call_usage.remove(&turn);
            self.b.set_status(status);
            self.b.close_response();
            self.explicit.clear();
            self.after_tool_result = false;
        }
    }

    /// The time of the line being read: a response open without a time takes it, and
    /// so does the next turn to start.
    fn time(&mut self, at: String) {
        if at.is_empty() {
            return;
        }
        match self.b.open_response() {
            Some(r) if r.created.is_none() => {
                r.created = Some(at.clone());
                let t = self.b.open.expect("open response");
                self.b.changes.turn_updated(t);
            }
            Some(_) => {}
            // The next response starts at the first line that belongs to it.
            None => self.b.session.created = Some(at.clone()),
        }
        self.now = Some(at);
    }

    /// One API call's counts: a call seen before is counted once (its latest counts,
    /// each at least what it was: a call's lines repeat its counts as they grow), and
    /// the response's usage is the sum over its calls.
    fn call_usage(&mut self, call: String, mut usage: Usage) {
        if usage.total_tokens == 0 {
            usage.total_tokens = usage.prompt_tokens.saturating_add(usage.completion_tokens);
        }
        let turn = self.b.response();
        let calls = self.call_usage.entry(turn).or_default();
        if let Some(old) = calls.calls.get(&call) {
            usage = max_usage(old, &usage);
            if *old == usage {
                return;
            }
            sub_usage(&mut calls.sum, old);
        }
        crate::model::add_usage(&mut calls.sum, &usage);
        calls.calls.insert(call, usage);
        let sum = calls.sum.clone();
        let r = self.b.response_mut();
        if r.usage.as_ref() != Some(&sum) {
            r.usage = Some(sum);
        }
    }

    /// Marks the calls of a turn that ended without their result.
    fn end_calls(&mut self, turn: usize) {
        let mut open: Vec<DocKey> = self
            .calls
            .values()
            .filter(|c| !c.done && c.key.turn == turn)
            .map(|c| c.key)
            .collect();
        open.sort();
        for key in open {
            let mut meta = self.b.doc(key).meta.clone();
            tools::mark_no_result(&mut meta);
            if meta != self.b.doc(key).meta {
                self.b.doc_mut(key).meta = meta;
            }
        }
    }

    /// Counts a model turn: the first output, and the first after tool results.
    fn step(&mut self) {
        let after = std::mem::take(&mut self.after_tool_result);
        let count = self.b.response_quiet().metadata.turn_count;
        if count == 0 || after {
            self.b.response_mut().metadata.turn_count = count + 1;
        }
    }

    /// Closes prose (flushing held text) and thinking: the next output starts anew.
    /// Stream errors held while they were open are written after them.
    fn end_segment(&mut self) {
        self.splitter.close(&mut self.b);
        self.b.end_prose();
        self.end_thinking();
        for info in std::mem::take(&mut self.deferred) {
            self.error(info);
        }
    }

    /// True while prose, code or thinking is open (more of it may come).
    fn segment_open(&self) -> bool {
        self.thinking.is_some() || self.b.prose_open() || self.splitter.holds_text()
    }

    fn end_thinking(&mut self) {
        if let Some(key) = self.thinking.take() {
            self.b.close(key);
        }
    }

    fn thinking(&mut self, text: &str) {
        if self.thinking.is_none() {
            self.splitter.close(&mut self.b);
            self.b.end_prose();
            self.step();
            let key = self.b.add_growing(
                None,
                Some(String::new()),
                Meta::Thinking(ThinkingMeta::default()),
            );
            self.thinking = Some(key);
        }
        if let Some(key) = self.thinking {
            self.b.append(key, text);
        }
    }

    fn error(&mut self, info: ErrorInfo) {
        let stream_error = is_stream_error(&info.code);
        self.b.conv.stats.bad_events += u64::from(stream_error);
        if stream_error && self.continues_error_run(&info) {
            return;
        }
        let content = Some(info.message.clone());
        let meta = Meta::Error(ErrorMeta {
            error_code: info.code.clone(),
            source: info.source.clone(),
            details: info.details.clone(),
        });
        // A bad line after a response ended (after its `result`) belongs to that
        // response: it must not open a new one, which would then be "cut off".
        let key = match self.b.conv.turns.last() {
            Some(Turn::Assistant(_)) if stream_error && self.b.open.is_none() => {
                self.b.add_to_last(content, meta)
            }
            _ => self.b.add(None, content, meta),
        };
        self.error_run = ErrorRun::start(key, &info);
    }

    /// Adds a stream error to the run of the same code whose document is the last of
    /// the conversation, updating that document; false when there is no such run.
    fn continues_error_run(&mut self, info: &ErrorInfo) -> bool {
        let Some(run) = self.error_run.as_mut() else {
            return false;
        };
        if !self.b.is_last_document(run.key) || !run.take(info) {
            return false;
        }
        let (message, details) = (run.message(), run.details());
        let doc = self.b.doc_mut(run.key);
        doc.content = Some(message);
        if let Meta::Error(e) = &mut doc.meta {
            e.details = details;
        }
        true
    }

    fn count_tool(&mut self, doc_type: DocumentType) {
        if matches!(
            doc_type,
            DocumentType::ToolCall
                | DocumentType::FileEdit
                | DocumentType::TerminalCommand
                | DocumentType::Plan
                | DocumentType::TodoUpdate
        ) {
            self.b.response_mut().metadata.tool_call_count += 1;
        }
    }

    fn tool_start(&mut self, call_id: String, name: String, args: Value, doc_id: Option<String>) {
        // An id seen in an earlier turn is a new call here.
        if self
            .calls
            .get(&call_id)
            .is_some_and(|c| Some(c.key.turn) != self.b.open)
        {
            self.calls.remove(&call_id);
        }
        if let Some(call) = self.calls.get_mut(&call_id) {
            // A repeated start updates the arguments.
            call.args = args;
            let (meta, content) =
                tools::build(&call.name, call.kind, &call_id, &call.args, None, None);
            let key = call.key;
            self.rebuild(key, meta, content);
            return;
        }
        self.end_segment();
        self.step();
        let kind = tools::kind_in(self.tool_names, &name);
        let (meta, content) = tools::build(&name, kind, &call_id, &args, None, None);
        let doc_type = meta.doc_type();
        let key = match doc_id.as_ref().and_then(|id| self.explicit.get(id)) {
            Some(&key) => {
                self.rebuild(key, meta, content);
                key
            }
            None => {
                let key = self.b.add(doc_id, content, meta);
                self.count_tool(doc_type);
                key
            }
        };
        self.calls.insert(
            call_id,
            Call {
                key,
                name,
                kind,
                args,
                done: false,
                denied: false,
            },
        );
    }

    fn tool_end(
        &mut self,
        call_id: String,
        name: Option<String>,
        args: Option<Value>,
        outcome: ToolOutcome,
        duration_ms: Option<u64>,
    ) {
        // The result of a call already answered in an earlier turn is a new call here.
        if self
            .calls
            .get(&call_id)
            .is_some_and(|c| c.done && Some(c.key.turn) != self.b.open)
        {
            self.calls.remove(&call_id);
        }
        if !self.calls.contains_key(&call_id) {
            let name = name.clone().unwrap_or_else(|| "tool".to_owned());
            self.tool_start(
                call_id.clone(),
                name,
                args.clone().map(tools::args_value).unwrap_or(Value::Null),
                None,
            );
        }
        let call = self.calls.get_mut(&call_id).expect("started above");
        if let Some(args) = args {
            call.args = tools::args_value(args);
        }
        if call.args.is_null() {
            call.args = Value::Object(Default::default());
        }
        // A denied call's error result repeats the denial: the call stays denied, for
        // the reason first given.
        if call.denied && call.done && outcome.status == crate::model::CallStatus::Error {
            return;
        }
        call.denied |= outcome.status == crate::model::CallStatus::Denied;
        let (meta, content) = tools::build(
            &call.name,
            call.kind,
            &call_id,
            &call.args,
            Some(&outcome),
            duration_ms,
        );
        call.done = true;
        let key = call.key;
        self.rebuild(key, meta, content);
        self.after_tool_result = true;
        if let Some(status) = subagents::run_status(&outcome) {
            self.end_run(&call_id, status);
        }
        if self.b.doc(key).doc_type() == DocumentType::TodoUpdate {
            self.apply_todo_update(key);
        }
    }

    /// Replaces a tool document's metadata and content when they changed.
    fn rebuild(&mut self, key: DocKey, mut meta: Meta, content: Option<String>) {
        let doc = self.b.doc(key);
        // The link to a sub-agent's run stays.
        if let (Meta::ToolCall(new), Meta::ToolCall(old)) = (&mut meta, &doc.meta) {
            if let (Some(n), Some(o)) = (&mut new.subagent, &old.subagent) {
                n.turn = o.turn;
            }
        }
        if doc.meta != meta || doc.content != content {
            let doc = self.b.doc_mut(key);
            doc.meta = meta;
            doc.content = content;
            self.b.note_plan(key);
        }
    }

    /// Carries a `todo_update`'s statuses into the latest plan of its session before it
    /// (todos the plan does not have are added to it), and into the session's todo list:
    /// a merging update shows the whole list it leaves.
    fn apply_todo_update(&mut self, update: DocKey) {
        self.merge_todo_list(update);
        let Meta::TodoUpdate(u) = &self.b.doc(update).meta else {
            return;
        };
        // The plan is kept indexed as documents arrive: no walk over the conversation.
        let Some(plan) = self.b.latest_plan.filter(|&p| p < update) else {
            return;
        };
        let Meta::Plan(p) = &self.b.doc(plan).meta else {
            return;
        };
        let mut todos = p.todos.clone();
        let mut index: HashMap<String, usize> = todos
            .iter()
            .enumerate()
            .map(|(i, t)| (t.id.clone(), i))
            .collect();
        for c in &u.todos {
            match index.get(&c.id) {
                Some(&i) => {
                    let t = &mut todos[i];
                    t.status = c.status;
                    if let Some(content) = &c.content {
                        t.content.clone_from(content);
                    }
                }
                None if c.content.is_some() => {
                    index.insert(c.id.clone(), todos.len());
                    todos.push(crate::model::PlanTodo {
                        id: c.id.clone(),
                        content: c.content.clone().unwrap_or_default(),
                        status: c.status,
                        dependencies: Vec::new(),
                    });
                }
                None => {}
            }
        }
        if todos != p.todos {
            if let Meta::Plan(p) = &mut self.b.doc_mut(plan).meta {
                p.todos = todos;
            }
        }
    }
}

impl Normalizer {
    /// Applies a `todo_update` to the session's list: a merging one (`merge: true`)
    /// changes the list before it (the plan's todos where the session has a plan), and
    /// records the whole list it leaves; any other one replaces the list.
    fn merge_todo_list(&mut self, update: DocKey) {
        let Meta::TodoUpdate(u) = &self.b.doc(update).meta else {
            return;
        };
        let plan = self.b.latest_plan.filter(|&p| p < update);
        let base: Vec<TodoChange> = match plan.map(|p| &self.b.doc(p).meta) {
            Some(Meta::Plan(p)) => p
                .todos
                .iter()
                .map(|t| TodoChange {
                    id: t.id.clone(),
                    status: t.status,
                    content: Some(t.content.clone()),
                })
                .collect(),
            _ => self.todo_list.clone(),
        };
        if u.merge != Some(true) || base.is_empty() {
            self.todo_list = u.todos.clone();
            return;
        }
        let mut merged = base;
        for c in &u.todos {
            match merged.iter_mut().find(|t| t.id == c.id) {
                Some(t) => {
                    t.status = c.status;
                    if c.content.is_some() {
                        t.content.clone_from(&c.content);
                    }
                }
                None => merged.push(c.clone()),
            }
        }
        // An update that names every todo in order is the whole list already.
        let whole = if merged == u.todos {
            Vec::new()
        } else {
            merged.clone()
        };
        if whole != u.merged_todos {
            if let Meta::TodoUpdate(u) = &mut self.b.doc_mut(update).meta {
                u.merged_todos = whole;
            }
        }
        self.todo_list = merged;
    }
}

fn apply_info(r: &mut crate::model::Response, info: &SessionInfo) -> bool {
    let before = (
        r.model.clone(),
        r.conversation_id.clone(),
        r.mode.clone(),
        r.metadata.cwd.clone(),
    );
    if let Some(m) = &info.model {
        r.model.clone_from(m);
    }
    if let Some(c) = &info.conversation_id {
        r.conversation_id.clone_from(c);
    }
    if let Some(m) = &info.mode {
        r.mode.clone_from(m);
    }
    if info.cwd.is_some() {
        r.metadata.cwd.clone_from(&info.cwd);
    }
    before
        != (
            r.model.clone(),
            r.conversation_id.clone(),
            r.mode.clone(),
            r.metadata.cwd.clone(),
        )
}

/// Each count of `a` and `b`, the larger.
fn max_usage(a: &Usage, b: &Usage) -> Usage {
    let opt = |x: Option<u64>, y: Option<u64>| x.max(y);
    Usage {
        prompt_tokens: a.prompt_tokens.max(b.prompt_tokens),
        completion_tokens: a.completion_tokens.max(b.completion_tokens),
        total_tokens: a.total_tokens.max(b.total_tokens),
        cache_read_tokens: opt(a.cache_read_tokens, b.cache_read_tokens),
        cache_write_tokens: opt(a.cache_write_tokens, b.cache_write_tokens),
        reasoning_tokens: opt(a.reasoning_tokens, b.reasoning_tokens),
    }
}

/// Takes `u` (counted in `sum` before) back out of `sum`.
fn sub_usage(sum: &mut Usage, u: &Usage) {
    let opt = |s: Option<u64>, x: Option<u64>| s.map(|s| s.saturating_sub(x.unwrap_or(0)));
    sum.prompt_tokens = sum.prompt_tokens.saturating_sub(u.prompt_tokens);
    sum.completion_tokens = sum.completion_tokens.saturating_sub(u.completion_tokens);
    sum.total_tokens = sum.total_tokens.saturating_sub(u.total_tokens);
    sum.cache_read_tokens = opt(sum.cache_read_tokens, u.cache_read_tokens);
    sum.cache_write_tokens = opt(sum.cache_write_tokens, u.cache_write_tokens);
    sum.reasoning_tokens = opt(sum.reasoning_tokens, u.reasoning_tokens);
}

fn merge_usage(old: Option<Usage>, new: Usage) -> Usage {
    match old {
        None => new,
        Some(o) => {
            let mut merged = Usage {
                prompt_tokens: if new.prompt_tokens > 0 {
                    new.prompt_tokens
                } else {
                    o.prompt_tokens
                },
                completion_tokens: if new.completion_tokens > 0 {
                    new.completion_tokens
                } else {
                    o.completion_tokens
                },
                total_tokens: 0,
                cache_read_tokens: new.cache_read_tokens.or(o.cache_read_tokens),
                cache_write_tokens: new.cache_write_tokens.or(o.cache_write_tokens),
                reasoning_tokens: new.reasoning_tokens.or(o.reasoning_tokens),
            };
            // The total reported, or the sum when that is larger.
            merged.total_tokens = new.total_tokens.max(
                merged
                    .prompt_tokens
                    .saturating_add(merged.completion_tokens),
            );
            merged
        }
    }
}

/// A `DocStart`'s metadata as the document type's. Only the document SSE stream (seed 000
/// §5) sends `DocStart`, and only builds with the feature `every-format` read that format:
/// without it the typed readers of every document type's metadata (about 37 KB of the
/// browser's default module) are left out (`formats!` in src/formats/mod.rs).
#[cfg(feature = "every-format")]
fn read_metadata(doc_type: DocumentType, metadata: Value) -> Option<Meta> {
    crate::model::meta_from_value(doc_type, metadata).ok()
}

/// Without the feature `every-format` no adapter sends `DocStart` (see above).
#[cfg(not(feature = "every-format"))]
fn read_metadata(_: DocumentType, _: Value) -> Option<Meta> {
    None
}
