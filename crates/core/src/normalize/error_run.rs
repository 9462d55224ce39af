//! Runs of the stream's own errors: a malformed, oversized or too-deep line right after
//! another of the same kind joins its `error` document, which counts them and names the
//! first places. A megabyte of bad lines is then one document, not half a million, and
//! no output outgrows its input: the document's text is bounded, whatever the run's
//! length, so each line of a run costs the same small update.

use super::events::ErrorInfo;
use crate::error::codes;
use crate::model::DocKey;

/// Places named in a run's message; the rest are counted.
const PLACES_NAMED: usize = 5;
/// Lines of detail kept from a run's first errors.
const DETAILS_KEPT: usize = 5;

/// True for the errors a stream itself causes (as against a tool's or the agent's).
pub(super) fn is_stream_error(code: &str) -> bool {
    plural(code).is_some()
}

/// What a run of `code` errors says before its count: `{n} lines were not valid JSON`.
fn plural(code: &str) -> Option<&'static str> {
    Some(match code {
        codes::MALFORMED_JSON => "lines were not valid JSON",
        codes::INVALID_EVENT => "events did not have the expected shape",
        codes::TOO_LARGE => "lines or events were over the size limit and were skipped",
        codes::TOO_DEEP => "JSON values nested too deeply were skipped",
        _ => return None,
    })
}

/// The stream errors of one code in a row, shown as one document.
#[derive(Debug)]
pub(super) struct ErrorRun {
    /// The document showing the run.
    pub(super) key: DocKey,
    code: String,
    count: u64,
    /// The first places (`line 7` …).
    places: Vec<String>,
    /// The first errors' details.
    details: Vec<String>,
}

impl ErrorRun {
    /// A run of one: `info`, shown as the document `key`. `None` for an error that does
    /// not say where in the stream it was.
    pub(super) fn start(key: DocKey, info: &ErrorInfo) -> Option<ErrorRun> {
        let place = info.at.clone()?;
        plural(&info.code)?;
        Some(ErrorRun {
            key,
            code: info.code.clone(),
            count: 1,
            places: vec![place],
            details: vec![info.details.clone()],
        })
    }

    /// Adds `info` when it continues the run (same code, a place in the stream).
    pub(super) fn take(&mut self, info: &ErrorInfo) -> bool {
        let Some(place) = &info.at else {
            return false;
        };
        if info.code != self.code {
            return false;
        }
        self.count = self.count.saturating_add(1);
        if self.places.len() < PLACES_NAMED {
            self.places.push(place.clone());
        }
        if self.details.len() < DETAILS_KEPT {
            self.details.push(info.details.clone());
        }
        true
    }

    /// The document's text: `2000 lines were not valid JSON (lines 2, 3, 4, 5, 6 …).`
    pub(super) fn message(&self) -> String {
        let what = plural(&self.code).unwrap_or("errors");
        let more = if self.count > self.places.len() as u64 {
            " …"
        } else {
            ""
        };
        format!("{} {what} ({}{more}).", self.count, places(&self.places))
    }

    /// The details of the first errors, and how many more there were.
    pub(super) fn details(&self) -> String {
        let mut out = self.details.join("\n");
        let rest = self.count.saturating_sub(self.details.len() as u64);
        if rest > 0 {
            out.push_str(&format!("\n… and {rest} more."));
        }
        out
    }
}

/// `line 2`, `line 3` as `lines 2, 3`; places of different kinds as they are.
fn places(all: &[String]) -> String {
    for (one, many) in [("line ", "lines "), ("byte ", "bytes ")] {
        let numbers: Option<Vec<&str>> = all.iter().map(|p| p.strip_prefix(one)).collect();
        if let Some(numbers) = numbers {
            return format!("{many}{}", numbers.join(", "));
        }
    }
    all.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bad(line: u64) -> ErrorInfo {
        ErrorInfo {
            at: Some(format!("line {line}")),
            code: codes::MALFORMED_JSON.to_owned(),
            source: "stream".to_owned(),
            message: format!("A line was not valid JSON (line {line})."),
            details: format!("line {line}: EOF"),
        }
    }

    #[test]
    fn a_run_counts_its_errors_and_names_the_first_places() {
        let key = DocKey { turn: 0, index: 0 };
        let mut run = ErrorRun::start(key, &bad(2)).unwrap();
        for line in 3..=9 {
            assert!(run.take(&bad(line)));
        }
        assert_eq!(
            run.message(),
            "8 lines were not valid JSON (lines 2, 3, 4, 5, 6 …)."
        );
        assert_eq!(
            run.details(),
            "line 2: EOF\nline 3: EOF\nline 4: EOF\nline 5: EOF\nline 6: EOF\n… and 3 more."
        );
        let mut other = bad(10);
        other.code = codes::TOO_DEEP.to_owned();
        assert!(!run.take(&other), "another code starts another run");
        other = bad(10);
        other.at = None;
        assert!(!run.take(&other), "an error without a place is its own");
        assert_eq!(
            places(&["line 1".into(), "byte 9".into()]),
            "line 1, byte 9"
        );
        assert_eq!(places(&["byte 1".into(), "byte 9".into()]), "bytes 1, 9");
    }

    #[test]
    fn only_the_streams_own_errors_run() {
        let mut agent = bad(1);
        agent.code = codes::AGENT_ERROR.to_owned();
        assert!(ErrorRun::start(DocKey { turn: 0, index: 0 }, &agent).is_none());
        assert!(!is_stream_error(codes::TOOL_ERROR));
        assert!(is_stream_error(codes::TOO_LARGE));
    }
}
