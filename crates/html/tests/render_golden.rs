//! Every fixture under `tests/fixtures/<format>/` renders to its golden
//! `<case>.expected.html` (the conversation body, without the page around it).

use docstream_testkit as support;

use docstream_html::{RenderOptions, render_conversation};
use support::{check_golden, feed, fixtures};

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
