//! Every fixture under `tests/fixtures/<format>/`: its conversation equals the golden
//! `<case>.expected.json`, the format is detected as the folder names it, naming the
//! format gives the same result, and every chunking gives the same state.

use docstream_testkit as support;

use std::path::{Path, PathBuf};

use support::{chunkings, feed, fixtures, json};

fn golden(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    path.with_file_name(format!("{stem}.expected.json"))
}

#[test]
fn fixtures_match_their_goldens() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let stream = feed(&input, None, &[]);
        assert_eq!(
            stream.format(),
            Some(format),
            "{}: detected format",
            path.display()
        );
        let actual = json(&stream);
        support::check_golden(&golden(&path), &actual);
        let named = json(&feed(&input, Some(format), &[]));
        assert_eq!(
            named,
            actual,
            "{}: naming the format changes the result",
            path.display()
        );
    }
}

#[test]
fn every_chunking_gives_the_same_state() {
    for (_, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let whole = feed(&input, None, &[]);
        let expected = json(&whole);
        for (name, cuts) in chunkings(input.len()) {
            let actual = json(&feed(&input, None, &cuts));
            assert!(
                actual == expected,
                "{} fed {name} differs from whole:\n{}",
                path.display(),
                similar_lines(&expected, &actual)
            );
        }
    }
}

fn similar_lines(expected: &str, actual: &str) -> String {
    expected
        .lines()
        .zip(actual.lines())
        .enumerate()
        .find(|(_, (e, a))| e != a)
        .map(|(i, (e, a))| format!("line {}: whole {e}\n         chunked {a}", i + 1))
        .unwrap_or_else(|| "line counts differ".to_owned())
}
