//! `codex exec --json`: one event per line — `thread.started`, `turn.started`,
//! `item.started` / `item.updated` / `item.completed`, `item.plan.delta`,
//! `request_user_input`, `turn.completed` (usage), `turn.failed`, `error`.
//!
//! Items by `type` (`item_type` in early versions, where `agent_message` was
//! `assistant_message`): `agent_message` → text, `reasoning` → thinking,
//! `command_execution` → a terminal run, `file_change` → one `file_edit` per changed
//! file, `mcp_tool_call`, `web_search` and `collab_tool_call` → tool calls, `todo_list`
//! → a plan the first time, then live `todo_update`s, `plan` → a plan with its text,
//! `error` → an `error` document. An item's id pairs its events; text that grows over
//! `item.updated` events is appended, never repeated.
//!
//! One turn (`turn.started` … `turn.completed`) is one response; a stream that ends
//! inside a turn is cut off.

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Map, Value, json};
use serde_json_borrow::Value as Tree;

use super::{Tokens, mcp_tool_name, script_of};
use crate::formats::apply_patch::TOOL as EDIT_TOOL;
use crate::formats::common::Written;
use crate::formats::fields::{self, Fields, wire};
use crate::formats::{Adapter, Payload, json_error};
use crate::model::CallStatus;
use crate::normalize::{ErrorInfo, Event, SessionInfo, Sink, ToolOutcome};

wire! {
    /// One line.
    struct Line<'v> {
        kind: str "type" or_default,
        thread_id: string "thread_id",
        usage: object<Tokens> "usage",
        /// `turn.failed`: `{message}`.
        error: value "error",
        /// `error`.
        message: string "message",
        item: object<Item<'v>> "item",
        /// `item.plan.delta`.
        item_id: string "item_id",
        delta: str "delta",
        /// `request_user_input`.
        call_id: string "call_id",
        questions: value "questions",
    }
}

wire! {
    /// An item: its id, `type` and the fields of every item type, flat. A `web_search`
    /// item carries `id` twice (the item's, then the search's: Codex flattens one struct
    /// into the other); the first is the item's.
    struct Item<'v> {
        id: string "id",
        kind: str "type" | "item_type",
        text: str "text",
        command: string "command",
        aggregated_output: str "aggregated_output",
        exit_code: i64 "exit_code",
        status: str "status",
        changes: list<Change> "changes",
        server: str "server",
        tool: value "tool",
        arguments: value "arguments",
        result: value "result",
        error: value "error",
        query: string "query",
        action: value "action",
        items: list<TodoItem> "items",
        message: string "message",
        prompt: string "prompt",
        receiver_thread_ids: value "receiver_thread_ids",
        agents_states: value "agents_states",
    }
}

wire! {
    /// One file of a `file_change` item.
    struct Change {
        /// `add` / `delete` / `update`, or `{type: "update", move_path}`.
        kind: Option<(String, Option<String>)> = |f| match f.get("kind") {
            None => Ok(None),
            Some(Tree::Str(kind)) => Ok(Some((kind.to_string(), None))),
            Some(k) => {
                let k = Fields::of(k, "field `kind`")?;
                Ok(Some((k.string("type")?.unwrap_or_default(), k.string("move_path")?)))
            }
        },
        path: string "path" or_default,
        /// Newer versions: the unified diff of an update, the text of an added file.
        diff: string "diff",
    }
}

wire! {
    #[derive(Clone, PartialEq, Eq)]
    struct TodoItem {
        text: string "text" or_default,
        completed: bool "completed" or_default,
    }
}

/// A `todo_list` item as shown so far.
struct TodoList {
    items: Vec<TodoItem>,
    updates: usize,
}

/// The stream's state.
#[derive(Default)]
pub(in crate::formats) struct CodexExec {
    /// Text shown so far of each message, reasoning and plan item.
    texts: HashMap<String, String>,
    /// The prose being written and the calls started.
    written: Written,
    /// The tool calls each `file_change` item's files are shown as, by path.
    file_calls: HashMap<String, Vec<(String, String)>>,
    todo_lists: HashMap<String, TodoList>,
    /// A todo list was shown as the plan.
    planned: bool,
    /// An `error` event not shown yet: the `turn.failed` that usually follows repeats
    /// its message, and then only that is shown.
    error: Option<String>,
    /// Warnings (`error` items) given before the turn they belong to started.
    warnings: Vec<String>,
    /// A turn is open: warnings go into its response.
    in_turn: bool,
}

impl Adapter for CodexExec {
    fn payload(&mut self, p: Payload<'_>, n: &mut dyn Sink) {
        let tree = match fields::parse(p.text) {
            Ok(tree) => tree,
            Err(e) => return self.malformed(&e, &p, n),
        };
        let line = match Fields::of(&tree, "the line").and_then(Line::read) {
            Ok(line) => line,
            Err(e) => return self.malformed(&e, &p, n),
        };
        if let Some(error) = self.error.take() {
            let failed = (line.kind == "turn.failed").then(|| failure(&line));
            if failed.as_deref() != Some(error.as_str()) {
                n.apply(Event::Error(ErrorInfo::agent(error)));
            }
        }
        if !line.kind.starts_with("item.") {
            // Only a message right after another one continues its text.
            self.written.prose.end();
        }
        match line.kind {
            "thread.started" => n.apply(Event::Session(SessionInfo {
                conversation_id: line.thread_id,
                ..SessionInfo::default()
            })),
            "turn.started" => {
                n.apply(Event::ResponseStart(SessionInfo::default()));
                self.in_turn = true;
                for w in std::mem::take(&mut self.warnings) {
                    n.apply(Event::Error(ErrorInfo::warning(w)));
                }
            }
            "item.started" | "item.updated" | "item.completed" => match line.item {
                Some(item) => self.item(item, line.kind == "item.completed", n),
                None => n.apply(Event::Unknown),
            },
            "item.plan.delta" => {
                let (Some(id), Some(delta)) = (line.item_id, line.delta) else {
                    return n.apply(Event::Unknown);
                };
                let mut text = self.texts.get(&id).cloned().unwrap_or_default();
                text.push_str(delta);
                self.plan(&id, Cow::Owned(text), n);
            }
            "request_user_input" => {
                n.apply(Event::tool_start(
                    line.call_id.unwrap_or_default(),
                    "request_user_input".to_owned(),
                    json!({ "questions": line.questions.unwrap_or(Value::Null) }),
                ));
            }
            "turn.completed" => {
                self.in_turn = false;
                if let Some(u) = line.usage {
                    n.apply(Event::Usage(u.into()));
                }
                n.apply(Event::Done { error: None });
            }
            "turn.failed" => {
                self.in_turn = false;
                n.apply(Event::Done {
                    error: Some(ErrorInfo::agent(failure(&line))),
                })
            }
            "error" => {
                self.error = Some(
                    line.message
                        .unwrap_or_else(|| "Codex reported an error.".to_owned()),
                );
            }
            _ => n.apply(Event::Unknown),
        }
    }

    fn finish(&mut self, n: &mut dyn Sink) {
        self.flush_error(n);
        // Warnings of a turn that never started: said where they are.
        for w in std::mem::take(&mut self.warnings) {
            n.apply(Event::Error(ErrorInfo::warning(w)));
        }
    }
}

/// The message of a `turn.failed`.
fn failure(line: &Line<'_>) -> String {
    line.error
        .as_ref()
        .and_then(crate::normalize::error_message)
        .unwrap_or_else(|| "The turn failed.".to_owned())
}

impl CodexExec {
    /// A line that is not JSON or not of the shape of Codex's lines.
    fn malformed(&mut self, e: &serde_json::Error, p: &Payload<'_>, n: &mut dyn Sink) {
        self.flush_error(n);
        n.apply(Event::Error(json_error(e, p)));
    }

    fn flush_error(&mut self, n: &mut dyn Sink) {
        if let Some(error) = self.error.take() {
            n.apply(Event::Error(ErrorInfo::agent(error)));
        }
    }

    fn item(&mut self, item: Item<'_>, completed: bool, n: &mut dyn Sink) {
        let id = item.id.clone().unwrap_or_default();
        let kind = item.kind.unwrap_or_default();
        match kind {
            "agent_message" | "assistant_message" => {
                if let Some(text) = item.text {
                    self.text(&id, text, n);
                }
            }
            "reasoning" => {
                self.written.prose.end();
                if let Some(text) = item.text {
                    if let Some(new) = new_text(&mut self.texts, &id, text) {
                        n.apply(Event::Thinking(Cow::Owned(new.to_owned())));
                    }
                }
                if completed {
                    n.apply(Event::ThinkingEnd {
                        signature: None,
                        redacted: false,
                    });
                }
            }
            "plan" => {
                if let Some(text) = item.text {
                    self.plan(&id, Cow::Borrowed(text), n);
                }
            }
            "command_execution" => self.command(id, item, completed, n),
            "file_change" => self.file_change(&id, item, n),
            "mcp_tool_call" => {
                let name = mcp_tool_name(
                    item.server.unwrap_or_default(),
                    item.tool
                        .as_ref()
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                );
                let args = item.arguments.unwrap_or(Value::Null);
                let outcome = match item.status {
                    Some("completed") => Some(success(item.result.unwrap_or(Value::Null))),
                    Some("failed") => Some(ToolOutcome {
                        status: CallStatus::Error,
                        data: item.error.unwrap_or(Value::Null),
                    }),
                    _ => None,
                };
                self.written.call(id, name, args, outcome, n);
            }
            "web_search" => {
                // What was searched or opened; the results are not in the stream.
                let args = match (item.action, item.query) {
                    (Some(action @ Value::Object(_)), _) => action,
                    (_, query) => json!({ "query": query.unwrap_or_default() }),
                };
                let outcome = completed.then(|| success(Value::from("")));
                self.written
                    .call(id, "web_search".to_owned(), args, outcome, n);
            }
            "collab_tool_call" => {
                let name = match item.tool.as_ref().and_then(Value::as_str) {
                    Some(tool) => tool.to_owned(),
                    None => "collab_tool_call".to_owned(),
                };
                let args = json!({
                    "prompt": item.prompt,
                    "receiver_thread_ids": item.receiver_thread_ids,
                });
                let outcome = match item.status {
                    Some("completed") => Some(success(item.agents_states.unwrap_or(Value::Null))),
                    Some("failed") => Some(ToolOutcome {
                        status: CallStatus::Error,
                        data: item.agents_states.unwrap_or(Value::Null),
                    }),
                    _ => None,
                };
                self.written.call(id, name, args, outcome, n);
            }
            "todo_list" => self.todo_list(id, item.items.unwrap_or_default(), n),
            // Codex writes its warnings as `error` items (a fallback it took, a setting
            // it ignored); the run goes on. Its errors are `error` events.
            "error" => {
                self.written.prose.end();
                let message = item
                    .message
                    .unwrap_or_else(|| "Codex gave a warning.".to_owned());
                if self.in_turn {
                    n.apply(Event::Error(ErrorInfo::warning(message)));
                } else {
                    self.warnings.push(message);
                }
            }
            _ => n.apply(Event::Unknown),
        }
    }

    /// An agent message: what is new of its text. A message after another one's text
    /// starts a new paragraph.
    fn text(&mut self, id: &str, text: &str, n: &mut dyn Sink) {
        let Some(new) = new_text(&mut self.texts, id, text) else {
            return;
        };
        self.written.prose.write(id, new, n);
    }

    /// A `plan` item (plan mode): a plan document holding the text so far.
    fn plan(&mut self, id: &str, text: Cow<'_, str>, n: &mut dyn Sink) {
        self.written.prose.end();
        if self.texts.get(id).map(String::as_str) == Some(text.as_ref()) {
            return;
        }
        self.texts.insert(id.to_owned(), text.clone().into_owned());
        let args = json!({ "plan": text });
        if self.written.starts(id) {
            n.apply(Event::tool_start(
                id.to_owned(),
                "create_plan".to_owned(),
                args,
            ));
        } else {
            n.apply(Event::ToolArgs {
                call_id: id.to_owned(),
                args,
            });
        }
    }

    fn command(&mut self, id: String, item: Item<'_>, completed: bool, n: &mut dyn Sink) {
        let command = item.command.unwrap_or_default();
        let args = json!({ "command": script_of(&command) });
        let status = match item.status {
            Some("failed") => Some(CallStatus::Error),
            Some("declined") => Some(CallStatus::Rejected),
            Some("completed") => Some(CallStatus::Success),
            _ if completed => Some(CallStatus::Success),
            _ => None,
        };
        let output = item.aggregated_output.unwrap_or_default();
        let outcome = status.map(|status| match status {
            // Declined: not run; its output is the reason (`exec command rejected by
            // user`), its exit code (-1) not one the command gave.
            CallStatus::Rejected => ToolOutcome {
                status,
                data: json!({ "error": if output.trim().is_empty() {
                    "exec command rejected by user"
                } else {
                    output.trim()
                } }),
            },
            _ => ToolOutcome {
                status,
                data: json!({ "exitCode": item.exit_code, "output": output }),
            },
        });
        self.written
            .call(id, "command_execution".to_owned(), args, outcome, n);
    }

    /// A `file_change` item: one `file_edit` per file, paired across the item's events
    /// by path (the item's id for the first file, `id#2` … for the others).
    fn file_change(&mut self, id: &str, item: Item<'_>, n: &mut dyn Sink) {
        let outcome = match item.status {
            Some("completed") => Some(success(Value::Null)),
            Some("failed") => Some(ToolOutcome {
                status: CallStatus::Error,
                data: Value::from("Codex could not apply this change."),
            }),
            // The user declined its approval: never applied.
            Some("declined") => Some(ToolOutcome {
                status: CallStatus::Rejected,
                data: json!({ "error": "patch rejected by user" }),
            }),
            _ => None,
        };
        for change in item.changes.unwrap_or_default() {
            let calls = self.file_calls.entry(id.to_owned()).or_default();
            let call_id = match calls.iter().find(|(path, _)| *path == change.path) {
                Some((_, call_id)) => call_id.clone(),
                None => {
                    let call_id = crate::formats::apply_patch::edit_id(id, calls.len());
                    calls.push((change.path.clone(), call_id.clone()));
                    call_id
                }
            };
            let (operation, move_path) = match change.kind {
                Some(kind) => kind,
                None => ("update".to_owned(), None),
            };
            let mut args = Map::new();
            args.insert("path".into(), Value::from(change.path));
            args.insert("operation".into(), Value::from(operation.as_str()));
            if let Some(to) = move_path {
                args.insert("new_path".into(), Value::from(to));
            }
            if let Some(diff) = change.diff.filter(|d| !d.is_empty()) {
                let unified = diff.starts_with("@@") || diff.starts_with("--- ");
                let key = if operation == "add" && !unified {
                    "content"
                } else {
                    "diff"
                };
                args.insert(key.into(), Value::from(diff));
            }
            self.written.call(
                call_id,
                EDIT_TOOL.to_owned(),
                Value::Object(args),
                outcome.clone(),
                n,
            );
        }
    }

    /// A `todo_list`: the first list of the stream is the plan; each later list, and each
    /// change of a list, is a `todo_update` that carries its statuses into the plan.
    fn todo_list(&mut self, id: String, items: Vec<TodoItem>, n: &mut dyn Sink) {
        self.written.prose.end();
        let todos: Vec<Value> = items
            .iter()
            .map(|t| {
                json!({
                    "content": t.text,
                    "status": if t.completed { "completed" } else { "pending" },
                })
            })
            .collect();
        let call_id = match self.todo_lists.get_mut(&id) {
            Some(list) if list.items == items => return,
            Some(list) => {
                list.items = items;
                list.updates += 1;
                format!("{id}@{}", list.updates)
            }
            None => {
                self.todo_lists
                    .insert(id.clone(), TodoList { items, updates: 0 });
                id
            }
        };
        let name = if std::mem::replace(&mut self.planned, true) {
            "update_todos"
        } else {
            "create_plan"
        };
        n.apply(Event::tool_start(
            call_id.clone(),
            name.to_owned(),
            json!({ "todos": todos }),
        ));
        n.apply(Event::tool_end(call_id, success(Value::Null)));
    }
}

fn success(data: Value) -> ToolOutcome {
    ToolOutcome {
        status: CallStatus::Success,
        data,
    }
}

/// What `text` adds to what was shown of item `id`: all of it the first time, the new
/// end when it grows; `None` when nothing is new (or it was rewritten, which cannot be
/// taken back).
fn new_text<'t>(shown: &mut HashMap<String, String>, id: &str, text: &'t str) -> Option<&'t str> {
    let before = shown.entry(id.to_owned()).or_default();
    let new = text.strip_prefix(before.as_str())?;
    if new.is_empty() {
        return None;
    }
    before.push_str(new);
    Some(new)
}
