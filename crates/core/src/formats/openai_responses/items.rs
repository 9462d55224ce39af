//! The output items of a response, and the response's own fields: what the stream's
//! `response.output_item.done` and the response object's `output` hold.
//!
//! - `message`: its `output_text` and `refusal` parts are prose; two messages one
//!   right after another are two paragraphs.
//! - `reasoning`: its `summary` is thinking, its `content` (`reasoning_text`) only where
//!   there is no summary; `encrypted_content` is never read.
//! - `function_call`, `custom_tool_call`: a call by its `call_id`, the arguments parsed
//!   once, when the item is done (a custom tool's `input` is `{"input": …}`).
//! - `web_search_call`: a search with its sources as links, or a page opened or
//!   searched (`open_page`, `find_in_page`); `file_search_call`: its queries and the
//!   matching files; `code_interpreter_call`: a terminal run of its code with the
//!   logs as output; `image_generation_call`: its prompt and settings (the image itself
//!   is not kept); `mcp_call`: `mcp__<server>__<tool>` with its output or error;
//!   `mcp_approval_request`: that call waiting for the user's approval;
//!   `local_shell_call`, `shell_call` (+ `shell_call_output`): terminal runs;
//!   `apply_patch_call`: a file edit (create, update with its diff, delete).
//! - `mcp_list_tools` and `compaction` (encrypted) have nothing to show; other item
//!   types are counted as not understood.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value, json};
use serde_json_borrow::Value as Tree;

use crate::formats::common::Written;
use crate::formats::common::{iso8601, provider_error, tool_input};
use crate::formats::fields::{Fields, Read, each, wire};
use crate::formats::{Location, Payload};
use crate::model::{CallStatus, Usage};
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolOutcome};

wire! {
    /// One output item, flat: the fields of every item type that are shown.
    ///
    /// Reads an item. The fields that are not shown (`encrypted_content`, an image's
    /// `result`, `mcp_list_tools`' schemas) are not read.
    pub(super) struct Item<'v, 'a> {
        pub(super) id: str "id",
        pub(super) kind: str "type" or_default,
        status: str "status",
        content: array "content",
        summary: array "summary",
        call_id: str "call_id",
        name: str "name",
        arguments: str "arguments",
        input: str "input",
        action: object "action",
        queries: strs "queries",
        results: value "results",
        code: str "code",
        outputs: array "outputs",
        container_id: str "container_id",
        server_label: str "server_label",
        output: get "output",
        error: value "error",
        revised_prompt: str "revised_prompt",
        size: str "size",
        quality: str "quality",
        output_format: str "output_format",
        operation: object "operation",
    }
}

impl<'v, 'a> Item<'v, 'a> {
    /// The id that pairs a call with its output: `call_id`, else the item's id.
    fn call_key(&self) -> String {
        self.call_id.or(self.id).unwrap_or_default().to_owned()
    }
}

wire! {
    /// The response's own fields (`response.*` events carry it as `response`).
    pub(super) struct Head {
        pub(super) id: string "id",
        pub(super) model: string "model",
        pub(super) created_at: u64 "created_at",
        pub(super) status: string "status",
        pub(super) error: value "error",
        /// `incomplete_details.reason`.
        pub(super) incomplete: Option<String> =
            |f| f.object("incomplete_details")?.map_or(Ok(None), |d| d.string("reason")),
        pub(super) usage: Option<Usage> = |f| f.object("usage")?.map(super::usage).transpose(),
    }
}

impl Head {
    /// The session facts of the response's start.
    pub(super) fn info(&self) -> SessionInfo {
        SessionInfo {
            response_id: self.id.clone(),
            model: self.model.clone(),
            created: self.created_at.map(iso8601),
            ..SessionInfo::default()
        }
    }
}

/// Ends a response from its final fields: usage, why it stopped, and its status — a
/// `failed` response is an error, an `incomplete` one says why it stopped early.
pub(super) fn end(head: Head, at: &Location, n: &mut dyn Sink) {
    if let Some(u) = head.usage {
        n.apply(Event::Usage(u));
    }
    n.apply(Event::stopped(head.incomplete.clone()));
    match head.status.as_deref() {
        Some("failed") => {
            let error = head.error.unwrap_or(Value::Null);
            n.apply(Event::Done {
                error: Some(provider_error(&error, at)),
            });
        }
        Some("incomplete") => {
            let reason = head.incomplete.unwrap_or_else(|| "unknown".to_owned());
            n.apply(Event::Error(ErrorInfo {
                at: None,
                code: crate::error::codes::AGENT_ERROR.to_owned(),
                source: "provider".to_owned(),
                message: format!("The response stopped before it was complete ({reason})."),
                details: format!("{at}: incomplete_details.reason: {reason}"),
            }));
            n.apply(Event::Done { error: None });
        }
        _ => n.apply(Event::Done { error: None }),
    }
}

/// What the items of one response have shown so far.
#[derive(Default)]
pub(super) struct Items {
    /// The prose being written and the calls started.
    written: Written,
    /// The reasoning item being shown, and the summary part its text is in.
    thinking: Option<(String, u64)>,
    /// Item id → call id, for the events that name only the item.
    call_ids: HashMap<String, String>,
    /// Bytes of each text part shown so far (`<item>#<part>` for prose,
    /// `<item>~<part>` for thinking): a `done` that brings more (a stream that left
    /// deltas out) shows the rest.
    shown: HashMap<String, usize>,
    /// Reasoning items that have shown summary text (their raw text is left out).
    summarised: Vec<String>,
    /// Input streamed so far for each call (`*.delta`), by item id: kept only for a
    /// stream cut off before its `done`, never parsed while it grows.
    /// The number of the item's `added` keeps their order for a cut-off stream.
    partial: HashMap<String, (usize, String)>,
    /// Calls added so far.
    added: usize,
}

impl Items {
    /// Forgets the items of the response before.
    pub(super) fn reset(&mut self) {
        *self = Items::default();
    }

    /// An item was added (streams only): a call is shown as started, with its name.
    pub(super) fn added(&mut self, item: Item<'_, '_>, n: &mut dyn Sink) {
        let id = item.id.unwrap_or_default().to_owned();
        let (name, args) = match item.kind {
            "function_call" | "custom_tool_call" | "mcp_call" | "mcp_approval_request" => {
                (call_name(&item), json!({}))
            }
            "code_interpreter_call" => ("code_interpreter".to_owned(), json!({"command": ""})),
            "file_search_call" => ("file_search".to_owned(), json!({})),
            "image_generation_call" => ("image_generation".to_owned(), json!({})),
            "local_shell_call" => ("local_shell".to_owned(), json!({"command": ""})),
            "shell_call" => ("shell".to_owned(), json!({"command": ""})),
            "apply_patch_call" => match item.operation.and_then(|o| patch_args(o).ok()) {
                Some(args) => ("apply_patch".to_owned(), args),
                None => return,
            },
            // A search's kind (a search, a page opened) is known when it is done.
            _ => return,
        };
        let call_id = item.call_key();
        self.call_ids.insert(id.clone(), call_id.clone());
        self.added += 1;
        self.partial.insert(id, (self.added, String::new()));
        self.written.call(call_id, name, args, None, n);
    }

    /// Streamed input of the call of item `id` (arguments, code, a diff): kept, not
    /// read, until the item is done.
    pub(super) fn input_delta(&mut self, id: &str, delta: &str) {
        if let Some((_, text)) = self.partial.get_mut(id) {
            text.push_str(delta);
        }
    }

    /// Prose of part `part` of message `id`.
    pub(super) fn text(&mut self, id: &str, part: u64, text: &str, n: &mut dyn Sink) {
        if !text.is_empty() {
            *self.shown.entry(format!("{id}#{part}")).or_default() += text.len();
        }
        self.written.prose.write(id, text, n);
    }

    /// The whole text of part `part` of message `id` (its `done`): what its deltas
    /// did not bring is shown now.
    pub(super) fn text_done(&mut self, id: &str, part: u64, whole: &str, n: &mut dyn Sink) {
        let shown = self
            .shown
            .get(&format!("{id}#{part}"))
            .copied()
            .unwrap_or(0);
        if let Some(rest) = whole.get(shown..) {
            self.text(id, part, rest, n);
        }
    }

    /// Summary text of reasoning item `id`, in summary part `part` (parts are
    /// paragraphs).
    pub(super) fn thinking(&mut self, id: &str, part: u64, text: &str, n: &mut dyn Sink) {
        if text.is_empty() {
            return;
        }
        if !self.summarised.iter().any(|s| s == id) {
            self.summarised.push(id.to_owned());
        }
        *self.shown.entry(format!("{id}~{part}")).or_default() += text.len();
        self.show_thinking(id, part, text, n);
    }

    /// Raw reasoning text of item `id` (`reasoning_text`, part `part`): shown only
    /// where the item has no summary.
    pub(super) fn raw_thinking(&mut self, id: &str, part: u64, text: &str, n: &mut dyn Sink) {
        if text.is_empty() || self.summarised.iter().any(|s| s == id) {
            return;
        }
        *self.shown.entry(format!("{id}^{part}")).or_default() += text.len();
        self.show_thinking(id, part, text, n);
    }

    /// Thinking text, a paragraph per part.
    fn show_thinking(&mut self, id: &str, part: u64, text: &str, n: &mut dyn Sink) {
        self.written.prose.end();
        match &mut self.thinking {
            Some((open, at)) if open == id => {
                if *at != part {
                    *at = part;
                    n.apply(Event::Thinking(Cow::Borrowed("\n\n")));
                }
            }
            _ => self.thinking = Some((id.to_owned(), part)),
        }
        n.apply(Event::Thinking(Cow::Owned(text.to_owned())));
    }

    /// The whole text of summary part `part` of reasoning item `id` (its `done`): what
    /// its deltas did not bring is shown now.
    pub(super) fn thinking_done(&mut self, id: &str, part: u64, whole: &str, n: &mut dyn Sink) {
        let shown = self
            .shown
            .get(&format!("{id}~{part}"))
            .copied()
            .unwrap_or(0);
        if let Some(rest) = whole.get(shown..) {
            self.thinking(id, part, rest, n);
        }
    }

    /// The whole raw reasoning text of part `part` of item `id`, as
    /// [`thinking_done`](Self::thinking_done).
    pub(super) fn raw_thinking_done(&mut self, id: &str, part: u64, whole: &str, n: &mut dyn Sink) {
        let shown = self
            .shown
            .get(&format!("{id}^{part}"))
            .copied()
            .unwrap_or(0);
        if let Some(rest) = whole.get(shown..) {
            self.raw_thinking(id, part, rest, n);
        }
    }

    /// An item is done: what it is, shown whole (what was streamed of it is not
    /// shown again). `p` says where, for a call's arguments that are not JSON.
    pub(super) fn done(&mut self, item: Item<'_, '_>, p: &Payload<'_>, n: &mut dyn Sink) {
        let id = item.id.unwrap_or_default().to_owned();
        self.partial.remove(&id);
        match item.kind {
            "message" => {
                // Each part whole: what its deltas did not show (all of it, unstreamed).
                for (i, part) in item.content.unwrap_or_default().iter().enumerate() {
                    if let Ok(part) = Fields::of(part, "a content part") {
                        let text = part.str("text").ok().flatten();
                        let refusal = part.str("refusal").ok().flatten();
                        self.text_done(&id, i as u64, text.or(refusal).unwrap_or_default(), n);
                    }
                }
            }
            "reasoning" => {
                self.reasoning_whole(&id, &item, n);
                if self.thinking.as_ref().is_some_and(|(open, _)| *open == id) {
                    self.thinking = None;
                }
                n.apply(Event::ThinkingEnd {
                    signature: None,
                    redacted: false,
                });
            }
            "function_call" | "custom_tool_call" => {
                let call_id = item.call_key();
                let name = call_name(&item);
                let args = match (item.kind, item.arguments, item.input) {
                    ("custom_tool_call", _, input) => json!({ "input": input.unwrap_or_default() }),
                    (_, Some(arguments), _) => tool_input(arguments, &call_id, &name, &p.at, n),
                    _ => json!({}),
                };
                self.written.call(call_id, name, args, None, n);
            }
            "mcp_call" | "mcp_approval_request" => {
                let call_id = item.call_key();
                let name = call_name(&item);
                let args = match item.arguments {
                    Some(arguments) => tool_input(arguments, &call_id, &name, &p.at, n),
                    None => json!({}),
                };
                let outcome = (item.kind == "mcp_call").then(|| match item.error.clone() {
                    Some(error) => failure(error),
                    None => success(item.output.map(Value::from).unwrap_or(Value::from(""))),
                });
                self.written.call(call_id, name, args, outcome, n);
            }
            "web_search_call" => self.web_search(&item, n),
            "file_search_call" => {
                let queries = item.queries.clone().unwrap_or_default();
                let args = json!({ "query": queries.join("; "), "queries": queries });
                let outcome = self.outcome(&item, || {
                    json!({ "results": item.results.clone().unwrap_or(Value::Array(Vec::new())) })
                });
                self.written
                    .call(item.call_key(), "file_search".to_owned(), args, outcome, n);
            }
            "code_interpreter_call" => {
                let mut args = Map::new();
                args.insert("command".into(), item.code.unwrap_or_default().into());
                if let Some(c) = item.container_id {
                    args.insert("container_id".into(), c.into());
                }
                let outcome = self.outcome(&item, || interpreter_output(item.outputs));
                let name = "code_interpreter".to_owned();
                self.written
                    .call(item.call_key(), name, Value::Object(args), outcome, n);
            }
            "image_generation_call" => {
                let mut args = Map::new();
                for (key, value) in [
                    ("prompt", item.revised_prompt),
                    ("size", item.size),
                    ("quality", item.quality),
                    ("output_format", item.output_format),
                ] {
                    if let Some(v) = value {
                        args.insert(key.into(), v.into());
                    }
                }
                let outcome = self.outcome(&item, || {
                    Value::from("The image is not kept in the transcript.")
                });
                let name = "image_generation".to_owned();
                self.written
                    .call(item.call_key(), name, Value::Object(args), outcome, n);
            }
            "local_shell_call" => {
                let args = item
                    .action
                    .map(local_shell_args)
                    .unwrap_or_else(|| json!({}));
                self.written
                    .call(item.call_key(), "local_shell".to_owned(), args, None, n);
            }
            "shell_call" => {
                let args = item.action.map(shell_args).unwrap_or_else(|| json!({}));
                self.written
                    .call(item.call_key(), "shell".to_owned(), args, None, n);
            }
            "apply_patch_call" => {
                let args = match item.operation.map(patch_args) {
                    Some(Ok(args)) => args,
                    _ => json!({}),
                };
                self.written
                    .call(item.call_key(), "apply_patch".to_owned(), args, None, n);
            }
            "shell_call_output"
            | "local_shell_call_output"
            | "function_call_output"
            | "custom_tool_call_output"
            | "apply_patch_call_output" => {
                let failed = item.status == Some("failed");
                let data = match item.output {
                    Some(Tree::Array(runs)) => shell_runs(runs),
                    Some(other) => Value::from(other),
                    None => Value::from(""),
                };
                n.apply(Event::tool_end(
                    item.call_key(),
                    if failed { failure(data) } else { success(data) },
                ));
                self.written.prose.end();
            }
            "mcp_list_tools" | "compaction" => {}
            _ => n.apply(Event::Unknown),
        }
    }

    /// A reasoning item whole: its summary, else its reasoning text; what the deltas
    /// did not show (all of it, unstreamed) is shown now.
    fn reasoning_whole(&mut self, id: &str, item: &Item<'_, '_>, n: &mut dyn Sink) {
        let texts = |parts: Option<&[Tree<'_>]>| -> Vec<String> {
            parts
                .unwrap_or_default()
                .iter()
                .map(|p| {
                    let text = Fields::of(p, "a part")
                        .ok()
                        .and_then(|p| p.string("text").ok());
                    text.flatten().unwrap_or_default()
                })
                .collect()
        };
        let summary = texts(item.summary);
        if summary.iter().any(|t| !t.is_empty()) {
            for (i, text) in summary.iter().enumerate() {
                self.thinking_done(id, i as u64, text, n);
            }
        } else {
            for (i, text) in texts(item.content).iter().enumerate() {
                self.raw_thinking_done(id, i as u64, text, n);
            }
        }
    }

    /// A web search: a search shows its sources as links; opening a page or finding in
    /// one is a fetch of that page.
    fn web_search(&mut self, item: &Item<'_, '_>, n: &mut dyn Sink) {
        let action = item.action;
        let get = |key: &str| action.and_then(|a| a.str(key).ok().flatten());
        let (name, args) = match get("type") {
            Some("open_page") => ("open_page", json!({ "url": get("url") })),
            Some("find_in_page") => (
                "find_in_page",
                json!({ "url": get("url"), "query": get("pattern") }),
            ),
            _ => {
                let query = get("query").map(str::to_owned).or_else(|| {
                    let queries = action?.strs("queries").ok()??;
                    Some(queries.join("; "))
                });
                ("web_search", json!({ "query": query }))
            }
        };
        let sources = action.and_then(|a| a.value("sources"));
        let outcome = self.outcome(item, || match sources {
            Some(sources) => json!({ "results": sources }),
            None => Value::from(""),
        });
        self.written
            .call(item.call_key(), name.to_owned(), args, outcome, n);
    }

    /// The outcome of a built-in tool's item by its status: `completed` is `data`,
    /// `failed` an error; otherwise it has none yet.
    fn outcome(&self, item: &Item<'_, '_>, data: impl FnOnce() -> Value) -> Option<ToolOutcome> {
        match item.status {
            Some("failed") => Some(failure(
                item.error
                    .clone()
                    .unwrap_or_else(|| Value::from("The tool call failed.")),
            )),
            Some("completed") | None => Some(success(data())),
            _ => None,
        }
    }

    /// The calls of a stream that ended before their items were done: each gets the
    /// input streamed so far (parsed where it is whole JSON, else kept as text).
    pub(super) fn cut_off(&mut self, n: &mut dyn Sink) {
        let mut partial: Vec<_> = std::mem::take(&mut self.partial).into_iter().collect();
        partial.sort_by_key(|(_, (order, _))| *order);
        for (id, (_, text)) in partial {
            let Some(call_id) = self.call_ids.get(&id) else {
                continue;
            };
            if text.trim().is_empty() {
                continue;
            }
            let args = docstream_model::read_json::from_str::<Value>(&text)
                .ok()
                .filter(Value::is_object)
                .unwrap_or_else(|| json!({ "input": text }));
            n.apply(Event::ToolArgs {
                call_id: call_id.clone(),
                args,
            });
        }
    }
}

/// The name a call is shown by: an MCP server's tool as `mcp__<server>__<tool>`.
fn call_name(item: &Item<'_, '_>) -> String {
    let name = item.name.unwrap_or("tool");
    match (item.kind, item.server_label) {
        ("mcp_call" | "mcp_approval_request", Some(server)) => format!("mcp__{server}__{name}"),
        _ => name.to_owned(),
    }
}

fn success(data: Value) -> ToolOutcome {
    ToolOutcome {
        status: CallStatus::Success,
        data,
    }
}

fn failure(data: Value) -> ToolOutcome {
    ToolOutcome {
        status: CallStatus::Error,
        data,
    }
}

/// A code interpreter's outputs: its logs as the output, images by their URLs.
fn interpreter_output(outputs: Option<&[Tree<'_>]>) -> Value {
    let mut logs = Vec::new();
    let mut images = Vec::new();
    for o in outputs.unwrap_or_default() {
        let Ok(o) = Fields::of(o, "an output") else {
            continue;
        };
        match o.str("type").ok().flatten() {
            Some("logs") => logs.extend(o.str("logs").ok().flatten()),
            Some("image") => images.extend(o.str("url").ok().flatten()),
            _ => {}
        }
    }
    let mut data = json!({ "output": logs.join("\n") });
    if !images.is_empty() {
        data["images"] = json!(images);
    }
    data
}

/// A `local_shell_call`'s action: `command` (argv), `working_directory`, `timeout_ms`.
fn local_shell_args(action: Fields<'_, '_>) -> Value {
    let argv = action.strs("command").ok().flatten().unwrap_or_default();
    let mut args = json!({ "command": argv.join(" ") });
    if let Ok(Some(dir)) = action.str("working_directory") {
        args["cwd"] = dir.into();
    }
    args
}

/// A `shell_call`'s action: its `commands`, one a line.
fn shell_args(action: Fields<'_, '_>) -> Value {
    let commands = action.strs("commands").ok().flatten().unwrap_or_default();
    json!({ "command": commands.join("\n") })
}

/// An `apply_patch_call`'s operation as a patch tool's arguments: the file, what is
/// done to it, and the diff (a new file's lines without their `+`, as its content).
fn patch_args(op: Fields<'_, '_>) -> Read<Value> {
    let path = op.str("path")?.unwrap_or_default();
    let diff = op.str("diff")?;
    Ok(match op.str("type")? {
        Some("create_file") => {
            let content: String = diff
                .unwrap_or_default()
                .split_inclusive('\n')
                .map(|l| l.strip_prefix('+').unwrap_or(l))
                .collect();
            json!({ "path": path, "operation": "create", "content": content })
        }
        Some("delete_file") => json!({ "path": path, "operation": "delete" }),
        _ => json!({ "path": path, "operation": "update", "diff": diff.unwrap_or_default() }),
    })
}

/// A hosted shell's output: each command's `stdout` and `stderr`, and the exit code of
/// the last (`outcome: {type: "exit", exit_code}`; a timeout has none).
fn shell_runs(runs: &[Tree<'_>]) -> Value {
    let read = |run: Fields<'_, '_>| -> Read<(String, Option<i64>)> {
        let mut out = run.string("stdout")?.unwrap_or_default();
        if let Some(err) = run.str("stderr")?.filter(|e| !e.is_empty()) {
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(err);
        }
        let code = match run.object("outcome")? {
            Some(o) => o.i64("exit_code")?,
            None => None,
        };
        Ok((out, code))
    };
    let runs = each(runs, "output", read).unwrap_or_default();
    let exit = runs.last().and_then(|(_, code)| *code);
    let output: String = runs.into_iter().map(|(out, _)| out).collect();
    json!({ "output": output, "exitCode": exit })
}
