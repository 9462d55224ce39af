//! Shared test helpers: feeding input in chunkings, finding `../shared`, goldens.

pub mod seed_blocks;
#[cfg(feature = "stores")]
pub mod stores;

use std::path::{Path, PathBuf};

use docstream_core::{DocStream, Format, Options};
use docstream_model::{Conversation, DocumentType, Meta};

/// Every fixture input under `tests/fixtures/<format>/` (its goldens,
/// `<case>.expected.*`, and the folder's `README.md`, which says where the fixtures'
/// shapes come from, left out), with the format its folder names, sorted by path.
pub fn fixtures() -> Vec<(Format, PathBuf)> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures");
    let mut all = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_owned();
        let format = Format::parse(&name)
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("{name}: folder is not a format name"));
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let name = file.file_name().unwrap().to_str().unwrap();
            // Goldens, the folder's README (where each case comes from) and the folders
            // that hold a case's other files (Claude Code's `<session>/subagents/`).
            if !name.contains(".expected.") && name != "README.md" && !file.is_dir() {
                all.push((format, file));
            }
        }
    }
    all.sort_by(|a, b| a.1.cmp(&b.1));
    assert!(
        all.len() >= 10,
        "fixtures not found under {}",
        root.display()
    );
    all
}

/// The fixtures of these formats, read.
pub fn fixture_inputs(formats: &[Format]) -> Vec<Vec<u8>> {
    fixtures()
        .into_iter()
        .filter(|(format, _)| formats.contains(format))
        .map(|(_, path)| std::fs::read(path).unwrap())
        .collect()
}

/// Each input with 1–8 bytes replaced from `pool`, six times per seed, cut at random,
/// read with each of `formats` named: `check` sees every finished stream (it must not
/// panic; nothing else is asked).
pub fn read_mutated(
    inputs: &[Vec<u8>],
    formats: &[Format],
    pool: &[u8],
    check: impl Fn(&DocStream),
) {
    for seed in seeds() {
        let mut rng = Rng::new(seed);
        for input in inputs {
            for _ in 0..6 {
                let mut bytes = input.clone();
                for _ in 0..1 + rng.below(8) {
                    let i = rng.below(bytes.len());
                    bytes[i] = pool[rng.below(pool.len())];
                }
                let cuts = random_cuts(bytes.len(), seed, 32);
                for &format in formats {
                    check(&feed(&bytes, Some(format), &cuts));
                }
            }
        }
    }
}

/// `../shared` beside the project, if present.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("../shared");
    dir.is_dir().then_some(dir)
}

/// `../shared/<rel>`, or `None` after saying the case is skipped.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let path = shared_dir()?.join(rel);
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

/// Prints that a test was skipped because `../shared` is absent.
pub fn skip(what: &str) {
    eprintln!("skipped {what}: ../shared is absent (it holds the shared samples and corpora)");
}

/// A small deterministic generator (xorshift64*), for reproducible random chunkings.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// The seeds for random chunkings: `DOCSTREAM_SEED` if set, else a fixed few.
pub fn seeds() -> Vec<u64> {
    match std::env::var("DOCSTREAM_SEED") {
        Ok(s) => vec![s.parse().expect("DOCSTREAM_SEED must be a number")],
        Err(_) => vec![1, 2, 3, 42, 2026],
    }
}

/// Cuts `len` bytes into random chunks of 1 to `max` bytes.
pub fn random_cuts(len: usize, seed: u64, max: usize) -> Vec<usize> {
    let mut rng = Rng::new(seed);
    let mut cuts = Vec::new();
    let mut at = 0;
    while at < len {
        at += 1 + rng.below(max);
        cuts.push(at.min(len));
    }
    cuts
}

/// Feeds `input` cut at `cuts` (end offsets) and returns the stream after `finish`.
pub fn feed(input: &[u8], format: Option<Format>, cuts: &[usize]) -> DocStream {
    let mut stream = DocStream::new(Options {
        format,
        ..Options::default()
    });
    let mut from = 0;
    for &to in cuts {
        stream.push(&input[from..to]).unwrap();
        from = to;
    }
    stream.push(&input[from..]).unwrap();
    stream.finish().unwrap();
    stream
}

/// The conversation as pretty JSON, as the goldens hold it.
pub fn json(stream: &DocStream) -> String {
    serde_json::to_string_pretty(stream.conversation()).unwrap() + "\n"
}

/// Every named chunking of an input: whole, one byte at a time, and seeded random.
pub fn chunkings(len: usize) -> Vec<(String, Vec<usize>)> {
    let mut all = vec![
        ("whole".to_owned(), vec![]),
        ("1-byte".to_owned(), (1..len).collect()),
    ];
    for seed in seeds() {
        for max in [3, 64] {
            all.push((
                format!("random seed {seed} max {max} (DOCSTREAM_SEED={seed})"),
                random_cuts(len, seed, max),
            ));
        }
    }
    all
}

/// Compares with a golden file, or writes it when `UPDATE_GOLDEN=1`.
pub fn check_golden(path: &Path, actual: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|_| {
        panic!(
            "{} is missing; run with UPDATE_GOLDEN=1 to write it",
            path.display()
        )
    });
    if expected != actual {
        panic!(
            "{} differs from the output (run with UPDATE_GOLDEN=1 to accept):\n{}",
            path.display(),
            first_difference(&expected, actual)
        );
    }
}

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e}\n  actual:   {a}", i + 1);
        }
    }
    format!(
        "lengths differ: expected {} lines, got {}",
        expected.lines().count(),
        actual.lines().count()
    )
}

/// Builds an input of `pathological-markdown.json` from its structured form: `lit`,
/// `rep` × `n`, and `seq` [a, b) loops whose body may use the loop index as `n: "i"`.
pub fn expand(parts: &[serde_json::Value]) -> String {
    let mut out = String::new();
    expand_parts(parts, 0, &mut out);
    out
}

fn expand_parts(parts: &[serde_json::Value], index: u64, out: &mut String) {
    for part in parts {
        if let Some(lit) = part["lit"].as_str() {
            out.push_str(lit);
        } else if let Some(rep) = part["rep"].as_str() {
            let n = part["n"].as_u64().unwrap_or(index) as usize;
            out.push_str(&rep.repeat(n));
        } else if let Some(seq) = part["seq"].as_array() {
            let (a, b) = (seq[0].as_u64().unwrap(), seq[1].as_u64().unwrap());
            for i in a..b {
                expand_parts(part["body"].as_array().unwrap(), i, out);
            }
        }
    }
}

/// `values` as NDJSON: one line each.
pub fn lines(values: &[serde_json::Value]) -> Vec<u8> {
    values
        .iter()
        .map(|v| format!("{v}\n"))
        .collect::<String>()
        .into_bytes()
}

/// The details of every error of `c`, in order: a document for a run of bad lines
/// gives a line of details for each of its first errors.
pub fn error_details(c: &Conversation) -> Vec<String> {
    c.documents()
        .filter_map(|d| match &d.meta {
            Meta::Error(e) => Some(e.details.lines().map(str::to_owned).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The text of every text document of `c`, in order.
pub fn texts(c: &Conversation) -> Vec<String> {
    c.documents()
        .filter(|d| d.doc_type() == DocumentType::Text)
        .map(|d| d.text().to_owned())
        .collect()
}

/// Asserts that `errors` are, in order, on these lines and say these things.
pub fn assert_errors_at(errors: &[String], expected: &[(u64, &str)]) {
    assert_eq!(errors.len(), expected.len(), "{errors:?}");
    for (error, (line, says)) in errors.iter().zip(expected) {
        assert!(
            error.contains(&format!("line {line}")) && error.contains(says),
            "expected line {line} to say {says:?}: {error}"
        );
    }
}
