//! Every fuzz target of `fuzz/` replayed over its seeds on the stable toolchain: the
//! fixtures (each with the detected and with its own format, in several chunkings),
//! the examples, and the tracked inputs of `fuzz/regressions/<target>/` (a crash or slow
//! input a fuzzing run found, kept once fixed). The growing, untracked `fuzz/corpus/` is
//! the fuzzer's own and never replayed here, so a test run costs the same every time.
//! The targets are the same functions the fuzzer runs.

#[path = "../../../fuzz/src/lib.rs"]
mod fuzz;

use std::path::{Path, PathBuf};

use docstream_core::Format;

const TARGETS: [&str; 9] = [
    "stream",
    "stream_invariance",
    "saved_response",
    "conversions",
    "math",
    "highlight",
    "store_readers",
    "sqlite_store",
    "folder_scan",
];

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Files under `dir`, recursively, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The fixture inputs (not their goldens) with the format their folder names.
fn fixtures() -> Vec<(PathBuf, Option<Format>)> {
    files(&root().join("tests/fixtures"))
        .into_iter()
        .filter(|p| !p.to_string_lossy().contains(".expected.") && !p.ends_with("README.md"))
        .map(|p| {
            let dir = p.parent().and_then(Path::file_name).unwrap_or_default();
            let format = Format::parse(&dir.to_string_lossy()).ok().flatten();
            (p, format)
        })
        .chain(
            files(&root().join("examples"))
                .into_iter()
                .map(|p| (p, None)),
        )
        .collect()
}

/// The header byte that names `format` (0 detects).
fn format_byte(format: Option<Format>) -> u8 {
    format
        .and_then(|f| Format::NAMES.iter().position(|n| *n == f.name()))
        .map_or(0, |i| i as u8 + 1)
}

/// Seeds of one target: built from the fixtures, plus its tracked regressions.
fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for (path, format) in fixtures() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.strip_prefix(root()).unwrap().display().to_string();
        match target {
            "stream" | "stream_invariance" => {
                for (f, seed) in [(0, 1), (format_byte(format), 2), (0, 200)] {
                    out.push((
                        format!("{name} (format byte {f}, seed {seed})"),
                        fuzz::with_header(f, seed, &bytes),
                    ));
                }
            }
            _ => out.push((name, bytes)),
        }
    }
    for p in files(&root().join("fuzz/regressions").join(target)) {
        let name = p.strip_prefix(root()).unwrap().display().to_string();
        out.push((name, std::fs::read(&p).unwrap()));
    }
    out
}

fn replay(target: &str, run: fn(&[u8])) {
    let seeds = seeds(target);
    assert!(seeds.len() > 20, "{target}: only {} seeds", seeds.len());
    for (name, input) in seeds {
        let result = std::panic::catch_unwind(|| run(&input));
        assert!(result.is_ok(), "fuzz target {target} fails on {name}");
    }
}

#[test]
fn stream_target_replays_its_seeds() {
    replay(TARGETS[0], fuzz::stream);
}

#[test]
fn stream_invariance_target_replays_its_seeds() {
    replay(TARGETS[1], fuzz::stream_invariance);
}

#[test]
fn saved_response_target_replays_its_seeds() {
    replay(TARGETS[2], fuzz::saved_response);
}

#[test]
fn conversions_target_replays_its_seeds() {
    replay(TARGETS[3], fuzz::conversions);
}

#[test]
fn math_target_replays_its_seeds() {
    replay(TARGETS[4], fuzz::math::math);
}

#[test]
fn highlight_target_replays_its_seeds() {
    replay(TARGETS[5], fuzz::highlight::highlight);
}

#[test]
fn store_readers_target_replays_its_seeds() {
    replay(TARGETS[6], fuzz::store_readers);
}

#[test]
fn sqlite_store_target_replays_its_seeds() {
    replay(TARGETS[7], fuzz::sqlite_store);
}

#[test]
fn folder_scan_target_replays_its_seeds() {
    replay(TARGETS[8], fuzz::folder_scan);
}

#[test]
fn the_dictionary_is_read_by_libfuzzer_rules() {
    // Each entry is a quoted string using only \\, \" and \xAB escapes.
    let dict = std::fs::read_to_string(root().join("fuzz/wire.dict")).unwrap();
    let mut entries = 0;
    for line in dict
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        assert!(line.starts_with('"') && line.ends_with('"'), "{line}");
        let inner = &line[1..line.len() - 1];
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('\\' | '"') => {}
                    Some('x') => {
                        let hex: String = chars.by_ref().take(2).collect();
                        assert!(u8::from_str_radix(&hex, 16).is_ok(), "{line}");
                    }
                    other => panic!("{line}: escape {other:?} libFuzzer does not read"),
                }
            } else {
                assert_ne!(c, '"', "{line}: an unescaped quote");
            }
        }
        entries += 1;
    }
    assert!(entries > 100, "{entries} entries");
}

#[test]
fn every_target_of_the_fuzz_crate_is_replayed_here() {
    let manifest = std::fs::read_to_string(root().join("fuzz/Cargo.toml")).unwrap();
    let declared: Vec<&str> = manifest
        .split("[[bin]]")
        .skip(1)
        .filter_map(|bin| {
            let line = bin.lines().find(|l| l.starts_with("name = "))?;
            line.split('"').nth(1)
        })
        .collect();
    assert_eq!(
        declared, TARGETS,
        "fuzz/Cargo.toml's targets and TARGETS here"
    );
}
