//! Every text of a conversation, walked once: the fields a person reads are masked, the
//! ids, names, numbers and statuses stay.

use docstream_model::{Conversation, Document, Meta, ToolView, Turn, ViewText};
use serde_json::Value;

use crate::{Redactor, Report};

/// Masks every text `conversation` holds with `redactor`, and reports what it masked.
/// See [`mask_conversation`](crate::mask_conversation).
pub fn mask_conversation_with(redactor: &Redactor, conversation: &mut Conversation) -> Report {
    let mut m = Masker {
        r: redactor,
        report: Report::default(),
    };
    m.opt(&mut conversation.title);
    for p in &mut conversation.problems {
        m.s(&mut p.message);
    }
    for turn in &mut conversation.turns {
        match turn {
            Turn::User(u) => {
                m.s(&mut u.content);
                for a in &mut u.attachments {
                    m.opt(&mut a.path);
                    m.opt(&mut a.text);
                }
            }
            Turn::Assistant(r) => {
                m.opt(&mut r.metadata.cwd);
                if let Some(p) = &mut r.parent {
                    m.s(&mut p.description);
                }
                for doc in &mut r.documents {
                    m.document(doc);
                }
            }
        }
    }
    m.report
}

struct Masker<'r> {
    r: &'r Redactor,
    report: Report,
}

impl Masker<'_> {
    fn s(&mut self, s: &mut String) {
        self.r.mask_string(s, &mut self.report);
    }

    fn opt(&mut self, s: &mut Option<String>) {
        if let Some(s) = s {
            self.s(s);
        }
    }

    fn view_text(&mut self, t: &mut Option<ViewText>) {
        // Text kept in the result is masked with the result.
        if let Some(ViewText::Made(s)) = t {
            self.s(s);
        }
    }

    fn document(&mut self, doc: &mut Document) {
        self.opt(&mut doc.content);
        match &mut doc.meta {
            Meta::Text(_) | Meta::CodeBlock(_) | Meta::Thinking(_) => {}
            Meta::CodeReference(c) => self.s(&mut c.file_path),
            Meta::FileEdit(f) => {
                self.s(&mut f.file_path);
                self.opt(&mut f.new_path);
                if let Some(d) = &mut f.diff {
                    self.s(&mut d.old_string);
                    self.s(&mut d.new_string);
                }
                self.opt(&mut f.diff_string);
                self.opt(&mut f.error);
            }
            Meta::ToolCall(t) => {
                self.value(&mut t.arguments);
                if let Some(r) = &mut t.result {
                    self.value(&mut r.data);
                }
                self.opt(&mut t.error);
                if let Some(s) = &mut t.subagent {
                    self.s(&mut s.description);
                }
                self.view(&mut t.view);
            }
            Meta::TerminalCommand(t) => {
                self.s(&mut t.command);
                self.opt(&mut t.working_directory);
                self.s(&mut t.output);
                self.opt(&mut t.reason);
            }
            Meta::Plan(p) => {
                self.s(&mut p.title);
                self.s(&mut p.overview);
                for t in &mut p.todos {
                    self.s(&mut t.content);
                }
                if let Some(a) = &mut p.approval {
                    self.opt(&mut a.feedback);
                }
            }
            Meta::Clarification(c) => {
                for q in &mut c.questions {
                    self.s(&mut q.text);
                    for o in &mut q.options {
                        self.s(&mut o.label);
                    }
                }
            }
            Meta::Error(e) => self.s(&mut e.details),
            Meta::TodoUpdate(t) => {
                for c in t.todos.iter_mut().chain(t.merged_todos.iter_mut()) {
                    self.opt(&mut c.content);
                }
            }
        }
    }

    fn view(&mut self, view: &mut ToolView) {
        match view {
            ToolView::Read(r) => {
                self.s(&mut r.path);
                self.view_text(&mut r.content);
            }
            ToolView::Search(s) => {
                self.opt(&mut s.query);
                self.opt(&mut s.path);
                for g in s.groups.iter_mut().flatten() {
                    self.s(&mut g.path);
                    for (_, line) in &mut g.lines {
                        self.s(line);
                    }
                }
            }
            ToolView::WebSearch(w) => {
                self.opt(&mut w.query);
                for l in &mut w.links {
                    self.s(&mut l.title);
                    self.s(&mut l.url);
                    self.opt(&mut l.snippet);
                }
                self.opt(&mut w.text);
            }
            ToolView::WebFetch(w) => {
                self.opt(&mut w.url);
                self.opt(&mut w.prompt);
                self.view_text(&mut w.text);
            }
            ToolView::Subagent(s) => {
                self.opt(&mut s.prompt);
                self.opt(&mut s.answer);
            }
            ToolView::Generic(g) => self.view_text(&mut g.text),
        }
    }

    /// Every string of a JSON value (no recursion: a value from a stream may be deep);
    /// a string under a key that names a secret is masked whole.
    fn value(&mut self, v: &mut Value) {
        let mut stack: Vec<&mut Value> = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => self.s(s),
                Value::Array(items) => stack.extend(items.iter_mut()),
                Value::Object(map) => {
                    for (key, item) in map.iter_mut() {
                        match item {
                            Value::String(s) if self.r.secret_key(key) => {
                                self.r.mask_keyed(s, &mut self.report);
                            }
                            other => stack.push(other),
                        }
                    }
                }
                Value::Null | Value::Bool(_) | Value::Number(_) => {}
            }
        }
    }
}
