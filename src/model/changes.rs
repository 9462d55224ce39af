//! What changed in the conversation since the caller last asked (SPEC §4).
//!
//! The normaliser records every change it makes here; a caller takes the accumulated
//! changes once per frame and hands them to a renderer, which turns them into patches
//! without looking at anything the log does not name. Changes to one document
//! coalesce: an insert followed by appends is still an insert.

use std::collections::{BTreeMap, BTreeSet};

/// Where a document lives: turn index, then index within that turn's response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DocKey {
    /// Index into [`Conversation::turns`](super::Conversation::turns).
    pub turn: usize,
    /// Index into that response's documents.
    pub index: usize,
}

/// How one document changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocChange {
    /// New since the last take.
    Inserted,
    /// Only content was appended, starting at this byte offset.
    Appended {
        /// Length of the content before the first append.
        from: usize,
    },
    /// Metadata (and perhaps content) changed in place.
    Updated,
}

/// Accumulated changes; empty after [`Changes::take`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use = "changes say what to re-render"]
pub struct Changes {
    /// Turns added.
    pub turns_added: BTreeSet<usize>,
    /// Turns whose header (model, status, usage, prompt …) changed (not those added).
    pub turns_updated: BTreeSet<usize>,
    /// Documents changed, in document order.
    pub documents: BTreeMap<DocKey, DocChange>,
    /// Documents that will not grow any more: a text, thinking or code document whose
    /// segment ended, or a document that arrived complete. A renderer finishes what it
    /// showed provisionally while the document grew.
    pub closed: BTreeSet<DocKey>,
}

impl Changes {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.turns_added.is_empty()
            && self.turns_updated.is_empty()
            && self.documents.is_empty()
            && self.closed.is_empty()
    }

    /// Moves the accumulated changes out, leaving this empty.
    pub fn take(&mut self) -> Changes {
        std::mem::take(self)
    }

    pub(crate) fn turn_added(&mut self, turn: usize) {
        self.turns_added.insert(turn);
    }

    pub(crate) fn turn_updated(&mut self, turn: usize) {
        if !self.turns_added.contains(&turn) {
            self.turns_updated.insert(turn);
        }
    }

    pub(crate) fn doc(&mut self, key: DocKey, change: DocChange) {
        use DocChange::*;
        let merged = match (self.documents.get(&key).copied(), change) {
            (None, c) => c,
            (Some(Inserted), _) => Inserted,
            (Some(Updated), _) => Updated,
            (Some(Appended { from }), Appended { .. }) => Appended { from },
            (Some(Appended { .. }), c) => c,
        };
        self.documents.insert(key, merged);
    }

    pub(crate) fn close(&mut self, key: DocKey) {
        self.closed.insert(key);
    }
}
