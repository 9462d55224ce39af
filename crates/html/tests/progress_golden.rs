//! The progress lines of every fixture (`docstream text`) against the golden
//! `<case>.expected.txt` (English) beside it, and a German one for the tool fixtures:
//! one line per action, the tense of its status, failures said, counts with their
//! noun in the right number. `UPDATE_GOLDEN=1` rewrites them.

use docstream_testkit as support;

use std::path::{Path, PathBuf};

use docstream_html::labels::Locale;
use docstream_html::progress::progress_lines;
use support::feed;

fn golden(path: &Path, suffix: &str) -> PathBuf {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    path.with_file_name(format!("{stem}.expected{suffix}.txt"))
}

#[test]
fn every_fixture_matches_its_progress_golden() {
    for (_, path) in support::fixtures() {
        let stream = feed(&std::fs::read(&path).unwrap(), None, &[]);
        let en = progress_lines(stream.conversation(), Locale::En);
        assert!(
            !en.contains(" 1 lines") && !en.contains(" 1 matches") && !en.contains(" 1 files"),
            "{}: a count of one with a plural noun:\n{en}",
            path.display()
        );
        assert!(
            en.lines().all(|l| !l.trim().is_empty()),
            "{}: an empty progress line",
            path.display()
        );
        support::check_golden(&golden(&path, ""), &en);
        if path.file_stem().unwrap() == "tool_results" {
            let de = progress_lines(stream.conversation(), Locale::De);
            support::check_golden(&golden(&path, ".de"), &de);
        }
    }
}
