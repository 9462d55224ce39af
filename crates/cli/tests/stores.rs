//! The CLI over stores built on disk: `list`, `json|html --conversation`, `export`.

use std::fs;
use std::process::Command;

use docstream_testkit::stores::{claude_projects, cursor_user_dir, scratch};
use serde_json::Value;

fn cli(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_docstream"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_list_render_and_export_a_folder_of_both_stores() {
    let root = scratch(env!("CARGO_TARGET_TMPDIR"), "lib-cli");
    cursor_user_dir(&root);
    claude_projects(&root);
    fs::write(
        root.join("loose.sse"),
        "event: document_start\ndata: {\"type\":\"document_start\",\"document\":{\"id\":\"doc_001\",\"type\":\"text\"}}\n\n",
    )
    .unwrap();
    let r = root.to_str().unwrap();

    let (ok, out, err) = cli(&["list", "--json", r]);
    assert!(ok, "{err}");
    let list: Vec<Value> = serde_json::from_str(&out).unwrap();
    let agents: Vec<&str> = list.iter().map(|e| e["agent"].as_str().unwrap()).collect();
    assert!(
        agents.contains(&"cursor") && agents.contains(&"claude-code") && agents.contains(&"file")
    );
    let split = list.iter().find(|e| e["id"] == "c-split").unwrap();
    assert_eq!(split["tools"], 2);
    assert_eq!(split["project"], "/home/dev/hello app");

    let (ok, out, err) = cli(&["list", r]);
    assert!(ok, "{err}");
    let line = out.lines().find(|l| l.starts_with("c-split\t")).unwrap();
    assert!(
        line.contains("4 messages") && line.contains("Louder greeting"),
        "{line}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("c-bad\t") && l.contains("error"))
    );

    let (ok, out, err) = cli(&["html", "--conversation", "c-split", r]);
    assert!(ok, "{err}");
    assert!(out.starts_with("<!DOCTYPE html>") && out.contains("src/hello.py"));
    let (ok, out, err) = cli(&["json", "--conversation", "s-main.agent-ab12", r]);
    assert!(ok, "{err}");
    let conv: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(conv["format"], "claude-code-transcript");
    let (ok, _, err) = cli(&["json", "--conversation", "nope", r]);
    assert!(!ok && err.contains("no conversation \"nope\""), "{err}");

    let site = root.join("site");
    let (ok, _, err) = cli(&["export", "--out", site.to_str().unwrap(), r]);
    assert!(ok, "{err}");
    assert!(err.contains("conversation pages"), "{err}");
    let index = fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("c/c-split.html") && index.contains("Louder greeting"));
    assert!(
        index.contains("dss-error"),
        "the bad row is listed with its error"
    );
    let data = fs::read_to_string(site.join("search-data.js")).unwrap();
    assert!(data.contains("sed -i s/greet/welcome/ src/app.py") && data.contains("src/hello.py"));
    let page = fs::read_to_string(site.join("c/s-main.agent-ab12.html")).unwrap();
    assert!(
        page.contains("href=\"../c/s-main.html#doc_"),
        "the sub-agent links to the call that started it"
    );
    // Issue 37: its prompt is the parent agent's, and the call's raw id is no label.
    assert!(
        page.contains("ds-from-agent\">Parent agent") && !page.contains(">You<"),
        "{page}"
    );
    assert!(!page.contains("<code>toolu_"), "{page}");
    let parent = fs::read_to_string(site.join("c/s-main.html")).unwrap();
    assert!(parent.contains("<li data-doc=\"doc_"), "{parent}");
    for f in [
        "search.js",
        "conversation.js",
        "site.css",
        "docstream.css",
        "c/s-old.sidechain-1.html",
    ] {
        assert!(site.join(f).exists(), "{f}");
    }
    assert!(
        !index.contains("<script>") && !index.contains("style=\""),
        "no inline script or style"
    );
}
