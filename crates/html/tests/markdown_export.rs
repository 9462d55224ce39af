//! The Markdown export: every fixture's Markdown is a golden `<case>.expected.md`
//! (`UPDATE_GOLDEN=1` rewrites them), the same under every chunking, and hostile text
//! in every place the export writes a run's text stays inside that place.

use docstream_testkit as support;

use docstream_html::RenderOptions;
use docstream_html::markdown_export::{
    KeepAll, Redact, conversation_markdown, conversation_markdown_with, turn_markdown,
};
use support::{check_golden, chunkings, feed, fixtures};

#[test]
fn every_fixture_matches_its_markdown_golden() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let stream = feed(&input, Some(format), &[]);
        let md = conversation_markdown(stream.conversation(), &RenderOptions::default());
        let stem = path.file_stem().unwrap().to_str().unwrap();
        check_golden(&path.with_file_name(format!("{stem}.expected.md")), &md);
    }
}

#[test]
fn the_markdown_is_the_same_under_every_chunking() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let whole = conversation_markdown(
            feed(&input, Some(format), &[]).conversation(),
            &RenderOptions::default(),
        );
        for (name, cuts) in chunkings(input.len()) {
            let md = conversation_markdown(
                feed(&input, Some(format), &cuts).conversation(),
                &RenderOptions::default(),
            );
            assert_eq!(md, whole, "{} chunked {name}", path.display());
        }
    }
}

// ---------------------------------------------------------------------------------------
// Hostile text stays in its place.

use docstream_model::{
    CallStatus, ChatResponse, ClarificationMeta, ClarificationOption, ClarificationQuestion,
    CodeBlockMeta, Conversation, Diff, Document, ErrorMeta, FileEditMeta, FileOperation, Meta,
    PlanMeta, PlanTodo, ResponseStatus, Subagent, SubagentView, TerminalMeta, TextFormat, TextMeta,
    ThinkingMeta, TodoStatus, ToolCallMeta, ToolResult, ToolView, Turn, UserTurn, WebLink,
    WebSearchView,
};
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{Handle, NodeData, RcDom};

/// Strings written to break out of a fence, a fold, a line or the file: fences of every
/// length and kind, raw HTML that closes or opens a fold or hides what follows
/// (comments, `<pre>`, `<script>`, CDATA), containers, line breaks of every kind.
const HOSTILE: &[&str] = &[
    "</details>",
    "\n\n</details>\n\n",
    "</summary></details><details><summary>",
    "<details open>",
    "```",
    "\n```\n",
    "````````",
    "~~~",
    "\n~~~\n",
    "`",
    "``` \n```",
    "<!--",
    "-->",
    "<pre>",
    "<script>",
    "<style>",
    "<textarea>",
    "<![CDATA[",
    "<?php",
    "<!DOCTYPE",
    "\r```\r",
    "\r\n```\r\n",
    "    ```",
    "> ```",
    "- ```",
    "1. <details>",
    "[x]: javascript:alert(1)",
    "\u{0}```\u{0}",
    "\u{1b}[31m```\u{1b}[0m",
    "\u{85}```\u{2028}```",
    "$$",
    "\\",
    "|a|\n|-|",
    "---",
    "<div>\n\n```",
    "&lt;/details&gt;",
    "<details>\n<summary>x</summary>\n\n",
];

/// The hostile strings: ours, and the attack strings of `md-url-vectors.json`.
fn hostile() -> Vec<String> {
    let mut all: Vec<String> = HOSTILE.iter().map(|s| s.to_string()).collect();
    match support::shared("corpora/md-url-vectors.json") {
        Some(path) => {
            let corpus: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
            for v in corpus["vectors"].as_array().unwrap() {
                all.push(v["markdown"].as_str().unwrap().to_owned());
            }
        }
        None => support::skip("md-url-vectors.json (the export's own vectors still run)"),
    }
    all
}

/// Where a slot's text must stay.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// In the one `<details>` it is folded in.
    Fold,
    /// In one `<pre>`.
    Pre,
    /// In one block (a paragraph, list item, heading, summary or table cell), on one line.
    Line,
    /// Anywhere outside every fold.
    Top,
}

fn doc(meta: Meta, content: Option<String>) -> Document {
    Document {
        id: "d1".into(),
        sequence: 1,
        content,
        meta,
    }
}

fn tool(name: &str, args: serde_json::Value, result: Option<&str>, view: ToolView) -> ToolCallMeta {
    ToolCallMeta {
        tool_name: name.into(),
        tool_call_id: "c1".into(),
        arguments: args,
        result: result.map(|r| ToolResult {
            status: CallStatus::Success,
            data: serde_json::Value::String(r.into()),
        }),
        view,
        ..ToolCallMeta::default()
    }
}

/// Every place the export writes a run's text, holding `t` (the hostile string between
/// markers): a name, where it must stay, and the documents (or the prompt) that hold it.
fn slots(h: &str) -> Vec<(&'static str, Place, Vec<Document>, Option<String>)> {
    let block = format!("SLOTSTART\n\n{h}\n\nSLOTEND");
    let pre = format!("SLOTSTART\n{h}\nSLOTEND");
    let line = format!("SLOTSTART {h} SLOTEND");
    let text = |s: &str| doc(Meta::Text(TextMeta::default()), Some(s.to_owned()));
    let generic = ToolView::default();
    vec![
        ("prose", Place::Top, vec![text(&block)], None),
        ("prompt", Place::Top, vec![], Some(block.clone())),
        (
            "thinking",
            Place::Fold,
            vec![doc(
                Meta::Thinking(ThinkingMeta::default()),
                Some(block.clone()),
            )],
            None,
        ),
        (
            "plain text",
            Place::Pre,
            vec![doc(
                Meta::Text(TextMeta {
                    format: TextFormat::Plain,
                }),
                Some(pre.clone()),
            )],
            None,
        ),
        (
            "code",
            Place::Pre,
            vec![doc(
                Meta::CodeBlock(CodeBlockMeta {
                    language: h.to_owned(),
                    purpose: String::new(),
                }),
                Some(pre.clone()),
            )],
            None,
        ),
        (
            "command",
            Place::Pre,
            vec![doc(
                Meta::TerminalCommand(TerminalMeta {
                    command: pre.clone(),
                    output: h.to_owned(),
                    working_directory: Some(h.to_owned()),
                    reason: Some(h.to_owned()),
                    ..TerminalMeta::default()
                }),
                None,
            )],
            None,
        ),
        (
            "output",
            Place::Pre,
            vec![doc(
                Meta::TerminalCommand(TerminalMeta {
                    command: h.to_owned(),
                    output: pre.clone(),
                    ..TerminalMeta::default()
                }),
                None,
            )],
            None,
        ),
        (
            "diff",
            Place::Pre,
            vec![doc(
                Meta::FileEdit(FileEditMeta {
                    file_path: h.to_owned(),
                    operation: FileOperation::Edit,
                    diff: Some(Diff {
                        old_string: h.to_owned(),
                        new_string: pre.clone(),
                        start_line: 1,
                        end_line: 1,
                    }),
                    error: Some(h.to_owned()),
                    ..FileEditMeta::default()
                }),
                None,
            )],
            None,
        ),
        (
            "edit path",
            Place::Line,
            vec![doc(
                Meta::FileEdit(FileEditMeta {
                    file_path: line.clone(),
                    operation: FileOperation::Create,
                    ..FileEditMeta::default()
                }),
                Some(h.to_owned()),
            )],
            None,
        ),
        (
            "tool result",
            Place::Fold,
            vec![doc(
                Meta::ToolCall(tool(
                    h,
                    serde_json::json!({"q": h}),
                    Some(&block),
                    generic.clone(),
                )),
                None,
            )],
            None,
        ),
        (
            "tool arguments",
            Place::Fold,
            vec![doc(
                Meta::ToolCall(tool(
                    h,
                    serde_json::json!({"q": {"deep": block}}),
                    Some(h),
                    generic.clone(),
                )),
                None,
            )],
            None,
        ),
        (
            "tool summary",
            Place::Line,
            vec![doc(
                Meta::ToolCall(tool(
                    &line,
                    serde_json::json!({"q": h}),
                    Some(h),
                    generic.clone(),
                )),
                None,
            )],
            None,
        ),
        (
            "tool summary without result",
            Place::Line,
            vec![doc(
                Meta::ToolCall(tool(&line, serde_json::json!({}), None, generic)),
                None,
            )],
            None,
        ),
        (
            "sub-agent prompt and answer",
            Place::Fold,
            vec![doc(
                Meta::ToolCall(ToolCallMeta {
                    subagent: Some(Subagent {
                        description: h.to_owned(),
                        agent_type: Some(h.to_owned()),
                        turn: None,
                    }),
                    ..tool(
                        "Task",
                        serde_json::json!({}),
                        Some(h),
                        ToolView::Subagent(SubagentView {
                            prompt: Some(block.clone()),
                            answer: Some(h.to_owned()),
                            facts: None,
                        }),
                    )
                }),
                None,
            )],
            None,
        ),
        (
            "web link",
            Place::Line,
            vec![doc(
                Meta::ToolCall(tool(
                    "WebSearch",
                    serde_json::json!({}),
                    Some(h),
                    ToolView::WebSearch(WebSearchView {
                        query: Some(h.to_owned()),
                        links: vec![WebLink {
                            title: line.clone(),
                            url: format!("https://example.com/{h}"),
                            snippet: Some(h.to_owned()),
                        }],
                        text: Some(h.to_owned()),
                    }),
                )),
                None,
            )],
            None,
        ),
        (
            "plan",
            Place::Line,
            vec![doc(
                Meta::Plan(PlanMeta {
                    title: h.to_owned(),
                    overview: h.to_owned(),
                    todos: vec![PlanTodo {
                        id: "1".into(),
                        content: line.clone(),
                        status: TodoStatus::Cancelled,
                        dependencies: vec![],
                    }],
                    ..PlanMeta::default()
                }),
                None,
            )],
            None,
        ),
        (
            "question",
            Place::Line,
            vec![doc(
                Meta::Clarification(ClarificationMeta {
                    questions: vec![ClarificationQuestion {
                        id: "q".into(),
                        text: line.clone(),
                        options: vec![ClarificationOption {
                            id: "o".into(),
                            label: h.to_owned(),
                        }],
                    }],
                }),
                None,
            )],
            None,
        ),
        (
            "error",
            Place::Pre,
            vec![doc(
                Meta::Error(ErrorMeta {
                    error_code: h.to_owned(),
                    source: h.to_owned(),
                    details: pre.clone(),
                }),
                Some(h.to_owned()),
            )],
            None,
        ),
    ]
}

/// A conversation: a prompt, a response holding `docs` then the text `AFTERMARK`.
fn conversation(prompt: Option<String>, docs: Vec<Document>, model: &str) -> Conversation {
    let mut documents = docs;
    documents.push(doc(
        Meta::Text(TextMeta::default()),
        Some("AFTERMARK".into()),
    ));
    Conversation {
        title: Some("Title".to_owned()),
        turns: vec![
            Turn::User(UserTurn {
                id: "u".into(),
                content: prompt.unwrap_or_else(|| "Hello".into()),
                created: Some(model.to_owned()),
                ..UserTurn::default()
            }),
            Turn::Assistant(ChatResponse {
                id: "r".into(),
                model: model.to_owned(),
                mode: model.to_owned(),
                status: ResponseStatus::Completed,
                documents,
                ..ChatResponse::default()
            }),
        ],
        ..Conversation::default()
    }
}

/// The HTML a Markdown viewer makes of the export: GitHub-flavoured Markdown with raw
/// HTML passed through (as GitHub does before it sanitises), parsed as a browser would.
fn viewed(md: &str) -> RcDom {
    use pulldown_cmark::{Options, Parser, html};
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_GFM
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_MATH;
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md, options));
    html5ever::parse_document(RcDom::default(), Default::default())
        .from_utf8()
        .read_from(&mut out.as_bytes())
        .unwrap()
}

/// Elements whose text a reader does not see as text.
const HIDDEN: &[&str] = &[
    "script",
    "style",
    "textarea",
    "title",
    "template",
    "noscript",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "plaintext",
    "head",
];

/// Every text node holding `marker`, each with its ancestors (element name and node).
fn find(
    node: &Handle,
    marker: &str,
    path: &mut Vec<(String, Handle)>,
    out: &mut Vec<Vec<(String, Handle)>>,
) {
    match &node.data {
        NodeData::Text { contents } if contents.borrow().contains(marker) => {
            out.push(path.clone());
        }
        NodeData::Element { name, .. } => {
            path.push((name.local.to_string(), node.clone()));
            for child in node.children.borrow().iter() {
                find(child, marker, path, out);
            }
            path.pop();
        }
        _ => {
            for child in node.children.borrow().iter() {
                find(child, marker, path, out);
            }
        }
    }
}

fn count(node: &Handle, tag: &str) -> usize {
    let own = matches!(&node.data, NodeData::Element { name, .. } if &*name.local == tag);
    usize::from(own)
        + node
            .children
            .borrow()
            .iter()
            .map(|c| count(c, tag))
            .sum::<usize>()
}

/// Where a marker is seen, in document order: the ancestors of each.
fn seen_all(dom: &RcDom, marker: &str) -> Vec<Vec<(String, Handle)>> {
    let mut found = Vec::new();
    find(&dom.document, marker, &mut Vec::new(), &mut found);
    found
        .into_iter()
        .filter(|p| !p.iter().any(|(n, _)| HIDDEN.contains(&n.as_str())))
        .collect()
}

/// The one place a marker is seen: its ancestors; an error when it is not seen once.
fn seen(dom: &RcDom, marker: &str) -> Result<Vec<(String, Handle)>, String> {
    let visible = seen_all(dom, marker);
    match visible.len() {
        1 => Ok(visible.into_iter().next().unwrap()),
        n => Err(format!("{marker} is seen {n} times")),
    }
}

/// The innermost ancestor named one of `names`.
fn nearest<'a>(path: &'a [(String, Handle)], names: &[&str]) -> Option<&'a Handle> {
    path.iter()
        .rev()
        .find(|(n, _)| names.contains(&n.as_str()))
        .map(|(_, h)| h)
}

fn same(a: Option<&Handle>, b: Option<&Handle>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::rc::Rc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

fn check_slot(place: Place, md: &str, folds: usize) -> Result<(), String> {
    let dom = viewed(md);
    let after = seen(&dom, "AFTERMARK")?;
    if let Some((n, _)) = after
        .iter()
        .find(|(n, _)| matches!(n.as_str(), "details" | "pre" | "code" | "summary"))
    {
        return Err(format!("the text after it is inside <{n}>"));
    }
    let folds_seen = count(&dom.document, "details");
    if folds_seen != folds {
        return Err(format!("{folds_seen} folds, not {folds}"));
    }
    // A text may be written twice (a path in the line and in the diff's header): each
    // time, its start and end are in one place.
    let starts = seen_all(&dom, "SLOTSTART");
    let ends = seen_all(&dom, "SLOTEND");
    if starts.is_empty() || starts.len() != ends.len() {
        return Err(format!(
            "its start is seen {} times, its end {}",
            starts.len(),
            ends.len()
        ));
    }
    let (names, must_have): (&[&str], bool) = match place {
        Place::Fold => (&["details"], true),
        Place::Pre => (&["pre"], true),
        Place::Line => (
            &["p", "li", "h1", "h2", "h3", "summary", "td", "th", "pre"],
            true,
        ),
        Place::Top => (&["details"], false),
    };
    for (start, end) in starts.iter().zip(&ends) {
        let (s, e) = (nearest(start, names), nearest(end, names));
        if !same(s, e) || (must_have && s.is_none()) {
            return Err(format!("its start and end are not in one {names:?}"));
        }
    }
    Ok(())
}

#[test]
fn hostile_text_stays_in_its_place() {
    let opts = RenderOptions::default();
    let mut problems = Vec::new();
    for h in hostile() {
        let benign = slots("benign");
        for (i, (name, place, docs, prompt)) in slots(&h).into_iter().enumerate() {
            // The folds the export writes for this slot, from the same slot holding
            // harmless text.
            let (_, _, bdocs, bprompt) = benign[i].clone();
            let folds = count(
                &viewed(&conversation_markdown(
                    &conversation(bprompt, bdocs, "m"),
                    &opts,
                ))
                .document,
                "details",
            );
            let c = conversation(prompt, docs, &h);
            let md = conversation_markdown(&c, &opts);
            if let Err(e) = check_slot(place, &md, folds) {
                problems.push(format!(
                    "{name} holding {h:?}: {e}\n--- markdown:\n{md}\n---"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}\nthe first:\n{}",
        problems.len(),
        problems
            .iter()
            .map(|p| p.lines().next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n"),
        problems
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// A mask for the hook's test: `SECRET-…` words become `[redacted: test]`.
struct Mask(usize);

impl Redact for Mask {
    fn redact<'t>(&mut self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if !text.contains("SECRET") {
            return std::borrow::Cow::Borrowed(text);
        }
        self.0 += text.matches("SECRET").count();
        std::borrow::Cow::Owned(text.replace("SECRET", "[redacted: test]"))
    }
}

#[test]
fn every_text_of_the_run_passes_the_redaction_hook() {
    let opts = RenderOptions::default();
    for (name, _, docs, prompt) in slots("SECRET") {
        let c = conversation(prompt, docs, "SECRET");
        let plain = conversation_markdown_with(&c, &opts, &mut KeepAll);
        assert!(plain.contains("SECRET"), "{name}: the text is not written");
        let mut mask = Mask(0);
        let md = conversation_markdown_with(&c, &opts, &mut mask);
        assert!(
            !md.contains("SECRET"),
            "{name}: a text escaped the hook:\n{md}"
        );
        assert!(mask.0 > 0 && md.contains("redacted: test"), "{name}");
    }
}

#[test]
fn a_turn_alone_is_the_same_as_in_the_whole() {
    for (format, path) in fixtures() {
        let input = std::fs::read(&path).unwrap();
        let stream = feed(&input, Some(format), &[]);
        let c = stream.conversation();
        let whole = conversation_markdown(c, &RenderOptions::default());
        for i in 0..c.turns.len() {
            let turn = turn_markdown(c, i, &RenderOptions::default(), &mut KeepAll);
            if c.subagent_parent(i).is_none() && !turn.is_empty() {
                assert!(
                    whole.contains(turn.trim_end()),
                    "{} turn {i}:\n{turn}",
                    path.display()
                );
            }
        }
        assert_eq!(
            turn_markdown(c, c.turns.len(), &RenderOptions::default(), &mut KeepAll),
            ""
        );
    }
}

/// The inputs known to drive Markdown parsers into quadratic time, as prose and
/// thinking: the export reads each a few times at most (its containment) and writes
/// about what it read.
#[test]
fn pathological_markdown_exports_in_bounded_size() {
    let Some(path) = support::shared("corpora/pathological-markdown.json") else {
        support::skip("pathological-markdown.json");
        return;
    };
    let corpus: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let opts = RenderOptions::default();
    for case in corpus["cases"].as_array().unwrap() {
        let Some(expand) = case.get("expand") else {
            continue;
        };
        let input = support::expand(expand.as_array().unwrap());
        let docs = vec![
            doc(Meta::Text(TextMeta::default()), Some(input.clone())),
            doc(Meta::Thinking(ThinkingMeta::default()), Some(input.clone())),
        ];
        let md = conversation_markdown(&conversation(None, docs, "m"), &opts);
        assert!(
            md.len() <= 4 * (2 * input.len()) + 2000,
            "{}: {} bytes of Markdown from {} bytes",
            case["id"],
            md.len(),
            input.len()
        );
    }
}
