//! Plain-text progress lines (seed 001's `text` format): one line per agent action,
//! in the present tense while it runs and the past once done, failures said —
//! "Read src/main.rs (40 lines)", "Ran `cargo test` — exit 1". The tool-call headers
//! of the HTML use the same [`headline`].

use crate::facts::counted;
use crate::labels::{Label, Locale, label};
use crate::tool_call::summarize_arguments;
use docstream_model::{
    ApprovalStatus, CallStatus, Conversation, DocKey, Document, FileOperation, Meta, SearchKind,
    TodoStatus, ToolView, Turn,
};

/// What a document did, as one line: a verb, what it was done to, and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headline {
    /// The verb (`Read`, `Searching` …), in the tense of the call's status.
    pub label: &'static str,
    /// What it was done to, with counts: `src/main.rs (40 lines)`.
    pub summary: String,
    /// How it ended when not as planned: `exit 1`, `failed: …`, `no result`.
    pub outcome: Option<String>,
}

impl Headline {
    /// The progress line (without its newline).
    pub fn line(&self) -> String {
        let mut s = self.label.to_owned();
        if !self.summary.is_empty() {
            s.push(' ');
            s.push_str(&self.summary);
        }
        if let Some(o) = &self.outcome {
            s.push_str(" — ");
            s.push_str(o);
        }
        s
    }
}

/// The progress label of a document, if it is an agent action.
pub fn action_label(doc: &Document) -> Option<Label> {
    Some(match &doc.meta {
        Meta::FileEdit(m) => match m.operation {
            FileOperation::Create => Label::CreatedFile,
            FileOperation::Delete => Label::DeletedFile,
            FileOperation::Edit | FileOperation::Rename => Label::EditedFile,
        },
        Meta::TerminalCommand(_) => Label::RanCommand,
        Meta::ToolCall(m) => match m.view {
            ToolView::Read(_) => Label::ReadFile,
            ToolView::Subagent(_) => Label::RanAgent,
            _ => Label::CalledTool,
        },
        Meta::CodeReference(_) => Label::ReadFile,
        Meta::Plan(_) => Label::WrotePlan,
        Meta::TodoUpdate(_) => Label::UpdatedTodos,
        Meta::Clarification(_) => Label::AskedQuestion,
        _ => return None,
    })
}

/// The first line of a text, cut to `max` characters.
fn short(s: &str, max: usize) -> String {
    let line = s
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let more = s.trim().lines().nth(1).is_some();
    if line.chars().count() > max {
        let mut t: String = line.chars().take(max - 1).collect();
        t.push('…');
        t
    } else if more {
        format!("{line} …")
    } else {
        line.to_owned()
    }
}

fn quoted(s: &str) -> String {
    format!("“{}”", short(s, 60))
}

/// How a call ended when not as planned (with the message of its failure, if any).
fn outcome(status: Option<CallStatus>, error: Option<&str>, l: Locale) -> Option<String> {
    match status? {
        CallStatus::Error => Some(match error {
            Some(msg) => format!("{}: {}", label(l, Label::Failed), short(msg, 100)),
            None => label(l, Label::Failed).to_owned(),
        }),
        CallStatus::Rejected | CallStatus::Denied | CallStatus::Interrupted => {
            let word = label(l, refusal_label(status?));
            Some(match error.filter(|e| !e.trim().is_empty()) {
                Some(why) => format!("{word}: {}", short(why, 100)),
                None => word.to_owned(),
            })
        }
        CallStatus::NoResult => Some(label(l, Label::NoResult).to_owned()),
        CallStatus::Running | CallStatus::Success => None,
    }
}

/// The word of a refused or stopped call.
fn refusal_label(status: CallStatus) -> Label {
    match status {
        CallStatus::Denied => Label::Denied,
        CallStatus::Interrupted => Label::Interrupted,
        _ => Label::Rejected,
    }
}

/// The running form for a call that did not finish (still running, no result, refused
/// or stopped: "Running `make` — denied"), the finished one otherwise.
fn tense(status: Option<CallStatus>, running: Label, done: Label) -> Label {
    match status {
        Some(CallStatus::Running | CallStatus::NoResult) => running,
        Some(s) if s.refused() => running,
        _ => done,
    }
}

/// The headline of a document, if it is an agent action.
pub fn headline(doc: &Document, l: Locale) -> Option<Headline> {
    let h = |label_key: Label, summary: String, outcome: Option<String>| Headline {
        label: label(l, label_key),
        summary,
        outcome,
    };
    Some(match &doc.meta {
        Meta::FileEdit(m) => {
            let path = m.file_path.clone();
            match m.status {
                // Refused or stopped: what it was going to do, how it ended, and why.
                Some(status) if status.refused() => {
                    let running = match m.operation {
                        FileOperation::Create => Label::Creating,
                        FileOperation::Delete => Label::Deleting,
                        FileOperation::Rename => Label::Renaming,
                        FileOperation::Edit => Label::Editing,
                    };
                    h(running, path, outcome(Some(status), m.error.as_deref(), l))
                }
                Some(CallStatus::Error) => h(
                    Label::EditFailed,
                    path,
                    m.error.as_deref().map(|e| short(e, 100)),
                ),
                status => {
                    let (running, done) = match m.operation {
                        FileOperation::Create => (Label::Creating, Label::Created2),
                        FileOperation::Delete => (Label::Deleting, Label::Deleted2),
                        FileOperation::Rename => (Label::Renaming, Label::Renamed2),
                        FileOperation::Edit => (Label::Editing, Label::Edited),
                    };
                    let mut summary = path;
                    if let Some(new) = &m.new_path {
                        summary.push_str(" → ");
                        summary.push_str(new);
                    }
                    let done_now =
                        !matches!(status, Some(CallStatus::Running | CallStatus::NoResult));
                    if done_now {
                        let lines = match m.operation {
                            FileOperation::Create => m
                                .lines_added
                                .or_else(|| doc.content.as_deref().map(crate::lines::line_count)),
                            _ => None,
                        };
                        if let Some(n) = lines.filter(|&n| n > 0) {
                            summary.push_str(&format!(
                                " ({})",
                                counted(n, Label::Line, Label::Lines, l)
                            ));
                        } else if m.operation == FileOperation::Edit {
                            if let (Some(a), Some(r)) = (m.lines_added, m.lines_removed) {
                                summary.push_str(&format!(" (+{a} −{r})"));
                            }
                        }
                    }
                    h(
                        tense(status, running, done),
                        summary,
                        outcome(status, None, l),
                    )
                }
            }
        }
        Meta::TerminalCommand(m) => {
            let mut out = outcome(m.status, m.reason.as_deref(), l);
            if let Some(code) = m
                .exit_code
                .filter(|&c| c != 0 && !m.status.is_some_and(CallStatus::refused))
            {
                out = Some(format!("{} {code}", label(l, Label::ExitCodeShort)));
            }
            h(
                tense(m.status, Label::RunningCommand, Label::Ran),
                format!("`{}`", short(&m.command, 80)),
                out,
            )
        }
        Meta::ToolCall(m) => {
            let status = Some(m.status());
            let failed = outcome(status, m.error.as_deref(), l);
            let ok = failed.is_none() && m.result.is_some();
            let (running, done, summary) = match &m.view {
                ToolView::Read(r) => {
                    let mut s = r.path.clone();
                    let text = r.content.as_ref().map(|t| m.view_text(t));
                    if let (true, Some(c)) = (ok, text.filter(|c| !c.is_empty())) {
                        let n = crate::lines::line_count(c);
                        s.push_str(&format!(" ({})", counted(n, Label::Line, Label::Lines, l)));
                    }
                    (Label::Reading, Label::ReadDone, s)
                }
                ToolView::Search(v) => {
                    let (running, done) = match v.kind {
                        SearchKind::Grep => (Label::Searching, Label::Searched),
                        SearchKind::Glob => (Label::FindingFiles, Label::FoundFiles),
                        SearchKind::List => (Label::Listing, Label::Listed),
                        SearchKind::Codebase => (Label::SearchingCodebase, Label::SearchedCodebase),
                    };
                    let mut s = match (v.kind, &v.query) {
                        (SearchKind::List, _) | (_, None) => String::new(),
                        (SearchKind::Glob, Some(q)) => short(q, 60),
                        (_, Some(q)) => quoted(q),
                    };
                    if let Some(p) = &v.path {
                        if !s.is_empty() {
                            s.push(' ');
                            s.push_str(label(l, Label::InWhere));
                            s.push(' ');
                        }
                        s.push_str(p);
                    }
                    if let (true, Some(groups)) = (ok, &v.groups) {
                        let files = groups.len() as u64;
                        let count = match v.kind {
                            SearchKind::Grep if groups.iter().all(|g| g.lines.is_empty()) => {
                                counted(files, Label::File, Label::Files, l)
                            }
                            SearchKind::Grep => format!(
                                "{} {} {}",
                                counted(v.matches(), Label::Match, Label::Matches, l),
                                label(l, Label::InWhere),
                                counted(files, Label::File, Label::Files, l)
                            ),
                            SearchKind::Glob => counted(files, Label::File, Label::Files, l),
                            SearchKind::List => counted(files, Label::Entry, Label::Entries, l),
                            SearchKind::Codebase => {
                                counted(v.matches(), Label::ResultOne, Label::Results, l)
                            }
                        };
                        if !s.is_empty() {
                            s.push(' ');
                        }
                        s.push_str(&format!("({count})"));
                    }
                    (running, done, s)
                }
                ToolView::WebSearch(v) => {
                    let mut s = v.query.as_deref().map(quoted).unwrap_or_default();
                    if ok && !v.links.is_empty() {
                        s.push_str(&format!(
                            " ({})",
                            counted(v.links.len() as u64, Label::ResultOne, Label::Results, l)
                        ));
                    }
                    // A search without a query (a step's sources) is its results.
                    (
                        Label::SearchingWeb,
                        Label::SearchedWeb,
                        s.trim_start().to_owned(),
                    )
                }
                ToolView::Subagent(_) => {
                    let sub = m.subagent.as_ref();
                    let mut s = quoted(sub.map_or("", |s| &s.description));
                    if let Some(t) = sub.and_then(|s| s.agent_type.as_ref()) {
                        s.push_str(&format!(" ({t})"));
                    }
                    (Label::StartingAgent, Label::RanAgent, s.trim().to_owned())
                }
                ToolView::WebFetch(v) => (
                    Label::Fetching,
                    Label::Fetched,
                    v.url
                        .as_deref()
                        .or(v.prompt.as_deref())
                        .map(|u| short(u, 100))
                        .unwrap_or_default(),
                ),
                ToolView::Generic(g) => {
                    let tool = g.tool.as_deref().unwrap_or(&m.tool_name);
                    let mut s = match &g.server {
                        Some(server) => format!("{server} · {tool}"),
                        None => tool.to_owned(),
                    };
                    let args = summarize_arguments(m.shown_arguments());
                    if !args.is_empty() {
                        s.push_str(&format!(" ({args})"));
                    }
                    (Label::Calling, Label::Called, s)
                }
            };
            h(tense(status, running, done), summary, failed)
        }
        Meta::CodeReference(m) => h(Label::ReadDone, m.file_path.clone(), None),
        Meta::Plan(m) => {
            let mut s = String::new();
            if !m.title.is_empty() {
                s.push_str(&quoted(&m.title));
            }
            if !m.todos.is_empty() {
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(&format!(
                    "({})",
                    counted(m.todos.len() as u64, Label::Todo, Label::Todos, l)
                ));
            }
            let answer = m.approval.as_ref().and_then(|a| match a.status {
                ApprovalStatus::Approved => Some(label(l, Label::PlanApproved).to_owned()),
                ApprovalStatus::Rejected => Some(match &a.feedback {
                    Some(f) => format!("{}: {}", label(l, Label::PlanRejected), short(f, 100)),
                    None => label(l, Label::PlanRejected).to_owned(),
                }),
                ApprovalStatus::Unknown => None,
            });
            h(Label::WrotePlan, s, answer)
        }
        Meta::TodoUpdate(m) => {
            let list = if m.merged_todos.is_empty() {
                &m.todos
            } else {
                &m.merged_todos
            };
            let done = list
                .iter()
                .filter(|t| t.status == TodoStatus::Completed)
                .count();
            let s = if list.is_empty() {
                String::new()
            } else {
                format!(
                    "({done}/{} {})",
                    list.len(),
                    label(l, Label::UpdatedTodosDone)
                )
            };
            h(Label::UpdatedTodos, s, None)
        }
        Meta::Clarification(_) => h(Label::AskedQuestion, String::new(), None),
        _ => return None,
    })
}

/// The progress lines of a conversation, one per action, each ending in `\n`.
///
/// A sub-agent's actions follow the line of the call that started it, indented by two
/// spaces for each level of nesting.
pub fn progress_lines(conversation: &Conversation, locale: Locale) -> String {
    let mut out = String::new();
    for t in 0..conversation.turns.len() {
        if conversation.subagent_parent(t).is_some() {
            continue;
        }
        // The history's shape: where a branch was rewound from, where the context was
        // compacted.
        if let Some(mark) = conversation.rewound(t).filter(|m| m.fork) {
            let mut line = String::new();
            crate::facts::rewound_mark_text(
                mark,
                conversation.turns.get(mark.replaced_by),
                locale,
                &mut line,
            );
            out.push_str(&line);
            out.push('\n');
        }
        if let Turn::User(u) = &conversation.turns[t] {
            if let Some(c) = &u.compaction {
                out.push_str(label(locale, Label::ContextCompacted));
                let facts = crate::facts::compaction_facts(c, locale);
                if !facts.is_empty() {
                    out.push_str(&format!(" ({facts})"));
                }
                out.push('\n');
            }
        }
        turn_lines(conversation, t, 0, locale, &mut out);
    }
    out
}

fn turn_lines(conversation: &Conversation, turn: usize, depth: usize, l: Locale, out: &mut String) {
    let Turn::Assistant(r) = &conversation.turns[turn] else {
        return;
    };
    for (index, doc) in r.documents.iter().enumerate() {
        if let Some(h) = headline(doc, l) {
            out.extend(std::iter::repeat_n("  ", depth));
            out.push_str(&h.line());
            out.push('\n');
        }
        if let Some(run) = conversation.subagent_run(DocKey { turn, index }) {
            turn_lines(conversation, run, depth + 1, l, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use docstream_model::{ReadView, TerminalMeta, ToolCallMeta, ToolResult, ViewText};
    use serde_json::json;

    fn doc(meta: Meta) -> Document {
        Document {
            id: "d".into(),
            sequence: 1,
            content: None,
            meta,
        }
    }

    #[test]
    fn terminal_lines_say_tense_and_exit() {
        let mut m = TerminalMeta {
            command: "cargo test".into(),
            status: Some(CallStatus::Running),
            ..TerminalMeta::default()
        };
        let line = |m: &TerminalMeta, l| {
            headline(&doc(Meta::TerminalCommand(m.clone())), l)
                .unwrap()
                .line()
        };
        assert_eq!(line(&m, Locale::En), "Running `cargo test`");
        m.status = Some(CallStatus::Success);
        m.exit_code = Some(1);
        assert_eq!(line(&m, Locale::En), "Ran `cargo test` — exit 1");
        assert_eq!(
            line(&m, Locale::De),
            "Ausgeführt: `cargo test` — Exit-Code 1"
        );
    }

    #[test]
    fn read_lines_count_lines_never_1_lines() {
        let m = |content: &str| ToolCallMeta {
            tool_name: "readToolCall".into(),
            result: Some(ToolResult {
                status: CallStatus::Success,
                data: json!({"content": content}),
            }),
            view: ToolView::Read(ReadView {
                path: "src/main.rs".into(),
                start: 1,
                content: Some(ViewText::InResult("/content".into())),
                language: "rust".into(),
            }),
            ..ToolCallMeta::default()
        };
        let line = |c: &str| {
            headline(&doc(Meta::ToolCall(m(c))), Locale::En)
                .unwrap()
                .line()
        };
        assert_eq!(line("fn main() {}\n"), "Read src/main.rs (1 line)");
        assert_eq!(line("a\nb\n"), "Read src/main.rs (2 lines)");
    }
}
