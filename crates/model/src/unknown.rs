//! Values of a saved response that docstream does not know (a todo status or document
//! type of a newer version), noted while deserialising so that the reader can count and
//! name them. Deserialisation keeps them (an `unknown` status, a generic document);
//! this only remembers what they were.

use std::cell::RefCell;

/// At most this many are named; all are counted.
const MAX_NAMED: usize = 20;

thread_local! {
    static NOTED: RefCell<(u64, Vec<String>)> = const { RefCell::new((0, Vec::new())) };
}

/// Notes an unknown value (`todo status "blocked"` …).
pub fn note(what: String) {
    NOTED.with(|n| {
        let mut n = n.borrow_mut();
        n.0 += 1;
        if n.1.len() < MAX_NAMED {
            n.1.push(what);
        }
    });
}

/// The count and names noted on this thread since the last call, forgetting them.
pub fn take() -> (u64, Vec<String>) {
    NOTED.with(|n| std::mem::take(&mut *n.borrow_mut()))
}

/// A value as a note names it: its JSON, cut to about 40 characters.
pub fn shown(v: &serde_json::Value) -> String {
    let mut s = v.to_string();
    if s.len() > 40 {
        let mut end = 40;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        s.truncate(end);
        s.push('…');
    }
    s
}
