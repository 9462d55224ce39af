//! The history's shape: where the agent's context was compacted, and which turns
//! belong to a branch the user rewound from.
//!
//! A compaction is a turn of its own (a user turn with `compaction` set), never a
//! prompt: its `content` is the summary that replaced the context. A rewind marks the
//! turns of the branch left (`rewound`, the first of them as the fork); the normaliser
//! keeps the turns of the branch being written, so that each turn is marked once and a
//! rewind costs what it marks.

use std::borrow::Cow;

use super::Normalizer;
use crate::model::{Compaction, Rewound, Turn, UserTurn};

/// What the normaliser keeps of the history's shape.
#[derive(Debug, Default)]
pub(super) struct History {
    /// The main agent's turns of the branch being written, in order (sub-agents' runs
    /// are shown inside their calls and are not listed).
    branch: Vec<usize>,
    /// Turns looked at for `branch` so far.
    seen: usize,
    /// The compaction turn waiting for its summary.
    compaction: Option<usize>,
    /// The fork of the last rewind and the turn to replace its branch, until that turn
    /// is there: the fork's mark names it.
    fork: Option<(usize, usize)>,
}

impl Normalizer {
    /// Starts a compaction turn.
    pub(super) fn compaction(&mut self, c: Compaction) {
        self.end_response(crate::model::ResponseStatus::Completed);
        let id = self.b.next_user_id();
        let t = self.b.push_turn(Turn::User(UserTurn {
            id,
            created: self.now.clone(),
            compaction: Some(c),
            ..UserTurn::default()
        }));
        self.history.compaction = Some(t);
    }

    /// The summary of a compaction: it fills the compaction turn just started, or
    /// starts one.
    pub(super) fn compact_summary(&mut self, text: Cow<'_, str>) {
        let last = self.b.conv.turns.len().checked_sub(1);
        let waiting = self.history.compaction.take().filter(|&t| Some(t) == last);
        let t = match waiting {
            Some(t) => t,
            None => {
                self.compaction(Compaction::default());
                self.history.compaction = None;
                self.b.conv.turns.len() - 1
            }
        };
        if let Some(Turn::User(u)) = self.b.conv.turns.get_mut(t) {
            if u.content.is_empty() {
                u.content = text.into_owned();
            } else {
                u.content.push_str("\n\n");
                u.content.push_str(&text);
            }
            self.b.changes.turn_updated(t);
        }
    }

    /// The history forked where the conversation had `at` turns: the main agent's turns
    /// from there on are a branch left, marked as rewound and replaced by the next turn.
    pub(super) fn rewind(&mut self, at: usize) {
        let len = self.b.conv.turns.len();
        if at >= len {
            return;
        }
        for t in self.history.seen..len {
            if let Some(Turn::User(_))
            | Some(Turn::Assistant(crate::model::Response { parent: None, .. })) =
                self.b.conv.turns.get(t)
            {
                self.history.branch.push(t);
            }
        }
        self.history.seen = len;
        if self.b.open.is_some_and(|open| open >= at) {
            self.end_response(crate::model::ResponseStatus::Completed);
        }
        let replaced_by = self.b.conv.turns.len();
        let mut fork = None;
        while let Some(&t) = self.history.branch.last() {
            if t < at {
                break;
            }
            self.history.branch.pop();
            self.set_rewound(
                t,
                Rewound {
                    replaced_by,
                    fork: false,
                },
            );
            fork = Some(t);
        }
        if let Some(f) = fork {
            self.set_rewound(
                f,
                Rewound {
                    replaced_by,
                    fork: true,
                },
            );
            self.history.fork = Some((f, replaced_by));
        }
    }

    fn set_rewound(&mut self, t: usize, mark: Rewound) {
        let slot = match self.b.conv.turns.get_mut(t) {
            Some(Turn::User(u)) => &mut u.rewound,
            Some(Turn::Assistant(r)) => &mut r.rewound,
            None => return,
        };
        *slot = Some(mark);
        self.b.changes.turn_updated(t);
    }

    /// After each event: once the turn that replaced a rewound branch is there, the
    /// fork's mark, which names it, is shown again.
    pub(super) fn after_event(&mut self) {
        if let Some((fork, by)) = self.history.fork {
            if self.b.conv.turns.len() > by {
                self.history.fork = None;
                self.b.changes.turn_updated(fork);
            }
        }
    }
}
