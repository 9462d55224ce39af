//! What changed in the conversation since the caller last asked (SPEC §4).
//!
//! The normaliser records every change it makes here; a caller reads the accumulated
//! changes once per frame and hands them to a renderer, which turns them into patches
//! without looking at anything the log does not name. Changes to one document
//! coalesce: an insert followed by appends is still an insert.
//!
//! The log is a few sorted vectors, cleared in place after each read, so that recording
//! the changes of a chunk allocates nothing once the stream is under way.

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
    /// Only what the document's head shows changed (a thinking summary's "Thought for
    /// 3.5 s"): the content, and all else shown, are as they were.
    Head,
}

/// Accumulated changes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[must_use = "changes say what to re-render"]
pub struct Changes {
    turns_added: Vec<usize>,
    turns_updated: Vec<usize>,
    documents: Vec<(DocKey, DocChange)>,
    closed: Vec<DocKey>,
}

/// Inserts into a sorted vector unless present; the common case (the largest so far)
/// is a push.
fn insert_sorted<T: Ord + Copy>(v: &mut Vec<T>, x: T) {
    match v.last() {
        Some(&last) if last < x => v.push(x),
        None => v.push(x),
        _ => {
            if let Err(i) = v.binary_search(&x) {
                v.insert(i, x);
            }
        }
    }
}

impl Changes {
    /// True when nothing changed.
    pub fn is_empty(&self) -> bool {
        self.turns_added.is_empty()
            && self.turns_updated.is_empty()
            && self.documents.is_empty()
            && self.closed.is_empty()
    }

    /// Turns added, in order.
    pub fn turns_added(&self) -> &[usize] {
        &self.turns_added
    }

    /// Turns whose header (model, status, usage, prompt …) changed, not those added.
    pub fn turns_updated(&self) -> &[usize] {
        &self.turns_updated
    }

    /// Documents changed, in document order.
    pub fn documents(&self) -> &[(DocKey, DocChange)] {
        &self.documents
    }

    /// How a document changed, if it did.
    pub fn document(&self, key: DocKey) -> Option<DocChange> {
        self.documents
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|i| self.documents[i].1)
    }

    /// Documents that will not grow any more, in document order: a text, thinking or
    /// code document whose segment ended, or a document that arrived complete. A
    /// renderer finishes what it showed provisionally while the document grew.
    pub fn closed(&self) -> &[DocKey] {
        &self.closed
    }

    /// Moves the accumulated changes out, leaving this empty.
    pub fn take(&mut self) -> Changes {
        std::mem::take(self)
    }

    /// Forgets the changes, keeping the memory for the next ones.
    pub fn clear(&mut self) {
        self.turns_added.clear();
        self.turns_updated.clear();
        self.documents.clear();
        self.closed.clear();
    }

    /// Records that turn `turn` was added (the normaliser records every change).
    pub fn turn_added(&mut self, turn: usize) {
        insert_sorted(&mut self.turns_added, turn);
    }

    /// Records that turn `turn` changed, unless it was added since the last take.
    pub fn turn_updated(&mut self, turn: usize) {
        if self.turns_added.binary_search(&turn).is_err() {
            insert_sorted(&mut self.turns_updated, turn);
        }
    }

    /// Records a change of a document, merged with one already recorded for it.
    pub fn doc(&mut self, key: DocKey, change: DocChange) {
        use DocChange::*;
        let at = match self.documents.last() {
            Some(&(last, _)) if last < key => Err(self.documents.len()),
            _ => self.documents.binary_search_by_key(&key, |&(k, _)| k),
        };
        match at {
            Err(i) => self.documents.insert(i, (key, change)),
            Ok(i) => {
                let merged = match (self.documents[i].1, change) {
                    (Inserted, _) => Inserted,
                    (Updated, _) => Updated,
                    // An append shows the head again.
                    (Appended { from }, Appended { .. } | Head) => Appended { from },
                    (Appended { .. } | Head, c) => c,
                };
                self.documents[i].1 = merged;
            }
        }
    }

    /// Records that a document will not grow any more.
    pub fn close(&mut self, key: DocKey) {
        insert_sorted(&mut self.closed, key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(turn: usize, index: usize) -> DocKey {
        DocKey { turn, index }
    }

    #[test]
    fn changes_coalesce_in_document_order() {
        let mut c = Changes::default();
        c.doc(key(1, 2), DocChange::Appended { from: 4 });
        c.doc(key(1, 0), DocChange::Inserted);
        c.doc(key(1, 2), DocChange::Appended { from: 9 });
        c.doc(key(1, 0), DocChange::Updated);
        c.doc(key(0, 5), DocChange::Updated);
        assert_eq!(
            c.documents(),
            [
                (key(0, 5), DocChange::Updated),
                (key(1, 0), DocChange::Inserted),
                (key(1, 2), DocChange::Appended { from: 4 }),
            ]
        );
        c.turn_added(3);
        c.turn_updated(3);
        c.turn_updated(1);
        c.turn_updated(1);
        assert_eq!((c.turns_added(), c.turns_updated()), (&[3][..], &[1][..]));
        c.clear();
        assert!(c.is_empty());
    }

    #[test]
    fn a_head_change_folds_into_an_append_and_gives_way_to_an_update() {
        let mut c = Changes::default();
        c.doc(key(0, 0), DocChange::Head);
        c.doc(key(0, 0), DocChange::Appended { from: 3 });
        c.doc(key(0, 1), DocChange::Appended { from: 7 });
        c.doc(key(0, 1), DocChange::Head);
        c.doc(key(0, 2), DocChange::Head);
        c.doc(key(0, 3), DocChange::Head);
        c.doc(key(0, 3), DocChange::Updated);
        assert_eq!(
            c.documents(),
            [
                (key(0, 0), DocChange::Appended { from: 3 }),
                (key(0, 1), DocChange::Appended { from: 7 }),
                (key(0, 2), DocChange::Head),
                (key(0, 3), DocChange::Updated),
            ]
        );
    }
}
