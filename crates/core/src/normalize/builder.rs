//! Writes to the conversation and records each change: the only place that mutates
//! documents, so no change goes unrecorded.

use super::events::SessionInfo;
use super::fences::Sink;
use super::language::language_for_path;
use crate::model::{
    Changes, CodeBlockMeta, CodeReferenceMeta, Conversation, DocChange, DocKey, Document, Meta,
    Response, ResponseStatus, TextFormat, TextMeta, Turn,
};

/// The conversation under construction, with its change journal.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    pub(crate) conv: Conversation,
    pub(crate) changes: Changes,
    /// Session facts applied to each new response.
    pub(crate) session: SessionInfo,
    /// Turn index of the open response.
    pub(crate) open: Option<usize>,
    /// Open prose document (index in the open response).
    text: Option<usize>,
    /// Open code document.
    code: Option<usize>,
    /// Whitespace before any prose of a new text document.
    pending_ws: String,
    /// Documents that may still grow (prose, code, thinking, explicit documents); each
    /// is reported closed when its segment ends.
    growing: Vec<DocKey>,
    /// The last plan document, where a `todo_update` applies.
    pub(crate) latest_plan: Option<DocKey>,
    docs_made: u64,
    responses_made: u64,
    users_made: u64,
}

impl Builder {
    /// The open response's turn index, opening one if none is.
    pub(crate) fn response(&mut self) -> usize {
        if let Some(t) = self.open {
            return t;
        }
        let generated = self.next_response_id();
        let s = &self.session;
        let response = Response {
            id: s.response_id.clone().unwrap_or(generated),
            conversation_id: s.conversation_id.clone().unwrap_or_default(),
            model: s.model.clone().unwrap_or_default(),
            mode: s.mode.clone().unwrap_or_else(|| "agent".to_owned()),
            created: s.created.clone(),
            metadata: crate::model::ResponseMetadata {
                cwd: s.cwd.clone(),
                ..Default::default()
            },
            ..Response::default()
        };
        self.session.response_id = None;
        self.session.created = None;
        self.push_turn(Turn::Assistant(response));
        let t = self.conv.turns.len() - 1;
        self.open = Some(t);
        t
    }

    /// Appends a turn; the documents of a response that arrives whole are complete.
    pub(crate) fn push_turn(&mut self, turn: Turn) -> usize {
        let docs = match &turn {
            Turn::Assistant(r) => r.documents.len(),
            Turn::User(_) => 0,
        };
        self.conv.turns.push(turn);
        let t = self.conv.turns.len() - 1;
        self.changes.turn_added(t);
        for index in 0..docs {
            let key = DocKey { turn: t, index };
            self.changes.doc(key, DocChange::Inserted);
            self.changes.close(key);
            self.note_plan(key);
        }
        t
    }

    /// Remembers the document as the latest plan if it is one.
    pub(crate) fn note_plan(&mut self, key: DocKey) {
        if matches!(self.doc(key).meta, Meta::Plan(_)) && self.latest_plan < Some(key) {
            self.latest_plan = Some(key);
        }
    }

    /// The open response, if any.
    pub(crate) fn open_response(&mut self) -> Option<&mut Response> {
        let t = self.open?;
        match &mut self.conv.turns[t] {
            Turn::Assistant(r) => Some(r),
            Turn::User(_) => None,
        }
    }

    /// The open response for a header change, opening one if needed; records the change.
    pub(crate) fn response_mut(&mut self) -> &mut Response {
        let t = self.response();
        self.changes.turn_updated(t);
        match &mut self.conv.turns[t] {
            Turn::Assistant(r) => r,
            Turn::User(_) => unreachable!("open turn is always a response"),
        }
    }

    /// The open response (opening one if needed), for reading.
    pub(crate) fn response_quiet(&mut self) -> &Response {
        let t = self.response();
        match &self.conv.turns[t] {
            Turn::Assistant(r) => r,
            Turn::User(_) => unreachable!("open turn is always a response"),
        }
    }

    /// A new response id (`chat_001` …).
    pub(crate) fn next_response_id(&mut self) -> String {
        self.responses_made += 1;
        format!("chat_{:03}", self.responses_made)
    }

    pub(crate) fn next_user_id(&mut self) -> String {
        self.users_made += 1;
        format!("user_{:03}", self.users_made)
    }

    pub(crate) fn next_doc_id(&mut self) -> String {
        self.docs_made += 1;
        format!("doc_{:03}", self.docs_made)
    }

    /// Appends a document to the open response; returns its key.
    pub(crate) fn add(
        &mut self,
        id: Option<String>,
        content: Option<String>,
        meta: Meta,
    ) -> DocKey {
        let id = id.unwrap_or_else(|| self.next_doc_id());
        let turn = self.response();
        let r = self.open_response().expect("just opened");
        let key = push_document(r, turn, id, content, meta);
        self.changes.doc(key, DocChange::Inserted);
        self.note_plan(key);
        key
    }

    /// Appends a complete document to the last turn, a response that has ended (the
    /// caller checked that it is one).
    pub(crate) fn add_to_last(&mut self, content: Option<String>, meta: Meta) -> DocKey {
        let id = self.next_doc_id();
        let turn = self.conv.turns.len() - 1;
        let Turn::Assistant(r) = &mut self.conv.turns[turn] else {
            unreachable!("add_to_last is called when the last turn is a response");
        };
        let key = push_document(r, turn, id, content, meta);
        self.changes.doc(key, DocChange::Inserted);
        self.changes.close(key);
        key
    }

    /// True when `key` is the conversation's last document, in its last turn.
    pub(crate) fn is_last_document(&self, key: DocKey) -> bool {
        match self.conv.turns.last() {
            Some(Turn::Assistant(r)) => {
                key.turn + 1 == self.conv.turns.len() && key.index + 1 == r.documents.len()
            }
            _ => false,
        }
    }

    /// True while a prose or code document is open.
    pub(crate) fn prose_open(&self) -> bool {
        self.text.is_some() || self.code.is_some()
    }

    /// Appends a document that will grow (prose, code, thinking, an explicit document)
    /// until [`close`](Self::close) says it ended.
    pub(crate) fn add_growing(
        &mut self,
        id: Option<String>,
        content: Option<String>,
        meta: Meta,
    ) -> DocKey {
        let key = self.add(id, content, meta);
        self.growing.push(key);
        key
    }

    /// Records that a document will not grow any more.
    pub(crate) fn close(&mut self, key: DocKey) {
        if let Some(i) = self.growing.iter().rposition(|&k| k == key) {
            self.growing.swap_remove(i);
        }
        self.changes.close(key);
    }

    /// The documents still growing (a few), in no particular order.
    pub(crate) fn open_documents(&self) -> Vec<DocKey> {
        self.growing.clone()
    }

    /// Closes every document still growing.
    pub(crate) fn close_all(&mut self) {
        for key in std::mem::take(&mut self.growing) {
            self.changes.close(key);
        }
    }

    /// A document by key.
    pub(crate) fn doc(&self, key: DocKey) -> &Document {
        match &self.conv.turns[key.turn] {
            Turn::Assistant(r) => &r.documents[key.index],
            Turn::User(_) => unreachable!("document keys point into responses"),
        }
    }

    /// A document by key, for a change of its metadata or content (recorded as an update).
    pub(crate) fn doc_mut(&mut self, key: DocKey) -> &mut Document {
        self.changes.doc(key, DocChange::Updated);
        self.doc_raw(key)
    }

    /// A document by key, for a change of what only its head shows (recorded as such, so
    /// that a view replaces the head and keeps the rest).
    pub(crate) fn doc_head_mut(&mut self, key: DocKey) -> &mut Document {
        self.changes.doc(key, DocChange::Head);
        self.doc_raw(key)
    }

    fn doc_raw(&mut self, key: DocKey) -> &mut Document {
        match &mut self.conv.turns[key.turn] {
            Turn::Assistant(r) => &mut r.documents[key.index],
            Turn::User(_) => unreachable!("document keys point into responses"),
        }
    }

    /// Appends to a document's content (recorded as an append).
    pub(crate) fn append(&mut self, key: DocKey, text: &str) {
        if text.is_empty() {
            return;
        }
        let doc = self.doc_raw(key);
        let content = doc.content.get_or_insert_with(String::new);
        let from = content.len();
        content.push_str(text);
        self.changes.doc(key, DocChange::Appended { from });
    }

    /// Ends prose and code documents: the next prose starts a new document.
    pub(crate) fn end_prose(&mut self) {
        self.end_text();
        if let Some(i) = self.code.take() {
            let key = self.key(i);
            self.close(key);
        }
        self.pending_ws.clear();
    }

    fn end_text(&mut self) {
        if let Some(i) = self.text.take() {
            let key = self.key(i);
            if is_one_json_value(self.doc(key).text()) {
                if let Meta::Text(m) = &mut self.doc_mut(key).meta {
                    m.format = TextFormat::Json;
                }
            }
            self.close(key);
        }
    }

    /// Forgets the open response (it was ended); its documents are complete.
    pub(crate) fn close_response(&mut self) {
        self.end_prose();
        self.close_all();
        self.open = None;
    }

    fn key(&self, index: usize) -> DocKey {
        DocKey {
            turn: self
                .open
                .expect("a prose document implies an open response"),
            index,
        }
    }
}

/// True when `text` is one JSON object or array and nothing else (an agent's answer
/// given as JSON): read once, when its document ends, without building it.
fn is_one_json_value(text: &str) -> bool {
    let t = text.trim();
    let shaped =
        (t.starts_with('{') && t.ends_with('}')) || (t.starts_with('[') && t.ends_with(']'));
    shaped && serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok()
}

/// Parses `startLine:endLine:path` (Cursor's code-reference fence).
fn code_reference(info: &str) -> Option<(u64, u64, &str)> {
    let mut parts = info.splitn(3, ':');
    let start = parts.next()?.parse().ok()?;
    let end = parts.next()?.parse().ok()?;
    let path = parts.next()?.trim();
    (!path.is_empty()).then_some((start, end, path))
}

impl Sink for Builder {
    fn prose(&mut self, text: &str) {
        if let Some(i) = self.text {
            let key = self.key(i);
            self.append(key, text);
            return;
        }
        if text.trim().is_empty() {
            self.pending_ws.push_str(text);
            return;
        }
        // Leading blank lines of a document are dropped; indentation on its first line
        // is kept.
        let mut text = std::mem::take(&mut self.pending_ws) + text;
        let ws_len = text.len() - text.trim_start().len();
        if let Some(i) = text[..ws_len].rfind('\n') {
            text.drain(..=i);
        }
        let key = self.add_growing(None, Some(text), Meta::Text(TextMeta::default()));
        self.text = Some(key.index);
    }

    fn open_code(&mut self, info: &str) {
        self.end_text();
        self.pending_ws.clear();
        let meta = match code_reference(info) {
            Some((start, end, path)) => Meta::CodeReference(CodeReferenceMeta {
                file_path: path.to_owned(),
                start_line: start,
                end_line: end,
                language: language_for_path(path).to_owned(),
            }),
            None => Meta::CodeBlock(CodeBlockMeta {
                language: info.split_whitespace().next().unwrap_or("").to_owned(),
                purpose: "new_code".to_owned(),
            }),
        };
        let key = self.add_growing(None, Some(String::new()), meta);
        self.code = Some(key.index);
    }

    fn code(&mut self, text: &str) {
        match self.code {
            Some(i) => {
                let key = self.key(i);
                self.append(key, text);
            }
            None => self.prose(text),
        }
    }

    fn close_code(&mut self) {
        if let Some(i) = self.code.take() {
            let key = self.key(i);
            self.close(key);
        }
    }
}

impl Builder {
    /// Marks the open response as ended with this status.
    pub(crate) fn set_status(&mut self, status: ResponseStatus) {
        if self.open.is_some() {
            self.response_mut().status = status;
        }
    }
}

/// Appends a document to response `r` (turn `turn`), numbered after the ones before it.
fn push_document(
    r: &mut Response,
    turn: usize,
    id: String,
    content: Option<String>,
    meta: Meta,
) -> DocKey {
    let index = r.documents.len();
    r.documents.push(Document {
        id,
        sequence: index as u32 + 1,
        content,
        meta,
    });
    DocKey { turn, index }
}
