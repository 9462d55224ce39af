//! Rendered text cut into ASCII runs and the stretches between them, for a binding that
//! hands strings to a UTF-8 decoder with an ASCII fast path.
//!
//! JavaScript engines decode ASCII-only UTF-8 several times faster than UTF-8 with any
//! other character in it (V8: about 0.3 ns a byte against 2–3), and keep it as a
//! one-byte string. A page of HTML is ASCII but for a few characters (a `−` in a diff,
//! a `—` in prose), so decoded as one string it all takes the slow path. Cut into runs,
//! the long ASCII stretches take the fast one and only the short stretches around other
//! characters the slow one; JavaScript joins the runs as a rope, without a copy.

/// ASCII shorter than this stays with the characters around it: a run more costs a
/// crossing into JavaScript and a join, about as much as decoding that much slowly.
pub const MIN_ASCII_RUN: usize = 1024;

/// `text` cut into runs: ASCII stretches of at least `min` bytes, and the text between
/// them (which holds every other character). The runs joined are `text`.
pub fn ascii_runs(text: &str, min: usize) -> AsciiRuns<'_> {
    AsciiRuns {
        rest: text,
        min: min.max(1),
    }
}

/// The iterator of [`ascii_runs`].
#[derive(Debug, Clone)]
pub struct AsciiRuns<'a> {
    rest: &'a str,
    min: usize,
}

impl<'a> Iterator for AsciiRuns<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let bytes = self.rest.as_bytes();
        let lead = ascii_len(bytes);
        let end = if lead == bytes.len() || lead >= self.min {
            lead
        } else {
            // A stretch: past each non-ASCII character and the ASCII after it, until
            // an ASCII run long enough to stand alone begins, or the text ends.
            let mut end = lead;
            loop {
                while end < bytes.len() && !bytes[end].is_ascii() {
                    end += 1;
                }
                let run = ascii_len(&bytes[end..]);
                if run >= self.min {
                    break end;
                }
                end += run;
                if end == bytes.len() {
                    break end;
                }
            }
        };
        // `end` is at the text's end or before an ASCII byte: a character boundary.
        let (run, rest) = self.rest.split_at(end);
        self.rest = rest;
        Some(run)
    }
}

/// How many bytes `bytes` starts with that are ASCII, read eight at a time.
fn ascii_len(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut n = 0;
    for word in words.by_ref() {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0x80; 8]));
        if w & HIGH != 0 {
            // The lowest set high bit is the first non-ASCII byte (little-endian).
            return n + (w & HIGH).trailing_zeros() as usize / 8;
        }
        n += 8;
    }
    n + words
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .unwrap_or(words.remainder().len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(text: &str, min: usize) -> Vec<&str> {
        ascii_runs(text, min).collect()
    }

    #[test]
    fn ascii_text_is_one_run() {
        assert_eq!(runs("plain <b>html</b>", 4), ["plain <b>html</b>"]);
        assert!(runs("", 4).is_empty());
    }

    #[test]
    fn long_ascii_stands_alone_and_short_ascii_stays_with_its_neighbours() {
        assert_eq!(
            runs("abcdef − gh — ijklmnop", 6),
            ["abcdef ", "− gh —", " ijklmnop"]
        );
        // A short lead and a short tail stay in the stretch.
        assert_eq!(runs("ab−cd", 6), ["ab−cd"]);
        assert_eq!(runs("é", 6), ["é"]);
        assert_eq!(runs("ééé abcdefgh", 6), ["ééé", " abcdefgh"]);
    }

    #[test]
    fn runs_join_to_the_text_and_only_stretches_hold_other_characters() {
        let samples = [
            "x".repeat(3000) + "−" + &"y".repeat(10) + "日本" + &"z".repeat(2000),
            "😀".repeat(5) + &"a".repeat(1500) + "ü",
            "a—b".repeat(700),
            "<td class=\"ds-diff-sign\">−</td>".repeat(100),
        ];
        for text in &samples {
            for min in [1, 7, 8, 9, 64, MIN_ASCII_RUN] {
                let cut = runs(text, min);
                assert_eq!(cut.concat(), *text, "min {min}: {text:?}");
                for run in &cut {
                    assert!(!run.is_empty(), "min {min}: an empty run of {text:?}");
                    if run.is_ascii() && cut.len() > 1 {
                        assert!(run.len() >= min, "min {min}: short ASCII run {run:?}");
                    }
                }
                for pair in cut.windows(2) {
                    assert!(
                        !(pair[0].is_ascii() && pair[1].is_ascii()),
                        "min {min}: two ASCII runs in a row in {text:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_ascii_prefix_is_found_at_every_offset() {
        for at in 0..40 {
            let text = "a".repeat(at) + "é" + "bc";
            assert_eq!(ascii_len(text.as_bytes()), at, "non-ASCII at {at}");
            assert_eq!(ascii_len("a".repeat(at).as_bytes()), at);
        }
    }
}
