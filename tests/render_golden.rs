//! Every fixture under `tests/fixtures/<format>/` renders to its golden
//! `<case>.expected.html` (the conversation body, without the page around it).

mod support;

use std::path::{Path, PathBuf};

use docstream::Format;
use docstream::render::{RenderOptions, render_conversation};
use support::{check_golden, feed};

fn fixtures() -> Vec<(Format, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut all = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_str().unwrap().to_owned();
        let Ok(Some(format)) = Format::parse(&name) else {
            continue;
        };
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let file_name = file.file_name().unwrap().to_str().unwrap();
            if !file_name.contains(".expected.") {
                all.push((format, file));
            }
        }
    }
    all.sort_by(|a, b| a.1.cmp(&b.1));
    assert!(!all.is_empty(), "no fixtures under {}", root.display());
    all
}

#[test]
fn every_fixture_matches_its_html_golden() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let stream = feed(&input, Some(format), &[]);
        let html = render_conversation(stream.conversation(), &RenderOptions::default());
        let stem = path.file_stem().unwrap().to_str().unwrap();
        check_golden(&path.with_file_name(format!("{stem}.expected.html")), &html);
    }
}
