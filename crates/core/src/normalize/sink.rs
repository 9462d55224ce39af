//! Where a wire format's adapter sends what it reads: the [`Sink`] of events. The
//! normaliser is the sink of a stream; an adapter knows nothing else of it, so each
//! format can be read, and tested, on its own (a sink that records the events).

use super::{Event, Normalizer};

/// What an adapter may do with the normaliser: apply events, and ask whether the main
/// agent has a response open (saved histories end it when the input ends).
pub(crate) trait Sink {
    /// Applies one event.
    fn apply(&mut self, event: Event<'_>);

    /// True while the main agent has a response still receiving.
    fn response_open(&self) -> bool;

    /// How many turns the conversation has: a mark an adapter keeps to say later where
    /// the history forked ([`Event::Rewind`]).
    fn turn_count(&self) -> usize;
}

impl Sink for Normalizer {
    fn apply(&mut self, event: Event<'_>) {
        Normalizer::apply(self, event);
    }

    fn response_open(&self) -> bool {
        self.main_response_open()
    }

    fn turn_count(&self) -> usize {
        self.conversation().turns.len()
    }
}
