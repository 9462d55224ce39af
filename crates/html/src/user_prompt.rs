//! A user's prompt: Markdown (rendered as safely as the assistant's), with Claude Code's
//! own wrapping shown for what it is. A slash command (`<command-name>` and
//! `<command-args>`; `<command-message>` repeats the name) is a command chip; a local
//! command's output (`<local-command-stdout>`, `<local-command-stderr>`), a
//! `<system-reminder>` and the "Caveat:" paragraph Claude Code adds are folded notes.
//! Tags it does not know stay text; a known tag left open is text too.

use crate::RenderOptions;
use crate::escape::Markup;
use crate::labels::{Label, label};
use crate::markdown::{MarkdownOptions, Slugs, render_markdown_into};

/// The wrapping tags, and what each becomes.
const TAGS: &[(&str, Kind)] = &[
    ("command-name", Kind::Command),
    ("command-message", Kind::Message),
    ("command-args", Kind::Args),
    ("local-command-stdout", Kind::Output),
    ("local-command-stderr", Kind::Output),
    ("system-reminder", Kind::Reminder),
    ("command-contents", Kind::Contents),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Command,
    Message,
    Args,
    Output,
    Reminder,
    /// The text a slash command expands to (Markdown, or Claude Code's
    /// `{"type": "text", "text": …}`).
    Contents,
}

/// One piece of a prompt, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece<'a> {
    Text(&'a str),
    Tagged(Kind, &'a str),
}

/// Cuts `content` at the known tags that are closed.
fn pieces(content: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut rest = content;
    'scan: while !rest.is_empty() {
        let mut from = 0;
        while let Some(lt) = rest[from..].find('<').map(|i| i + from) {
            for &(tag, kind) in TAGS {
                let after = &rest[lt + 1..];
                let Some(inner_start) = after
                    .strip_prefix(tag)
                    .and_then(|a| a.strip_prefix('>'))
                    .map(|_| lt + 1 + tag.len() + 1)
                else {
                    continue;
                };
                let close = format!("</{tag}>");
                let Some(end) = rest[inner_start..].find(&close) else {
                    continue;
                };
                if lt > 0 {
                    out.push(Piece::Text(&rest[..lt]));
                }
                out.push(Piece::Tagged(kind, &rest[inner_start..inner_start + end]));
                rest = &rest[inner_start + end + close.len()..];
                continue 'scan;
            }
            from = lt + 1;
        }
        out.push(Piece::Text(rest));
        break;
    }
    out
}

/// Renders a prompt's content into `out` (inside the element that holds it).
pub(crate) fn render_user_content(
    content: &str,
    anchor_prefix: &str,
    opts: &RenderOptions,
    out: &mut String,
) {
    let md = opts.markdown(anchor_prefix);
    let mut slugs = Slugs::default();
    let pieces = pieces(content);
    let mut i = 0;
    while i < pieces.len() {
        match pieces[i] {
            Piece::Text(text) => text_piece(text, &md, &mut slugs, opts, out),
            Piece::Tagged(Kind::Command, name) => {
                // The arguments may come after the message that repeats the name.
                let mut args = "";
                let mut j = i + 1;
                while let Some(p) = pieces.get(j) {
                    match p {
                        Piece::Tagged(Kind::Message, _) => j += 1,
                        Piece::Text(t) if t.trim().is_empty() => j += 1,
                        Piece::Tagged(Kind::Args, a) => {
                            args = a.trim();
                            i = j;
                            break;
                        }
                        _ => break,
                    }
                }
                out.raw("<p><code class=\"ds-command-chip\">")
                    .text(name.trim());
                if !args.is_empty() {
                    out.raw(" ").text(args);
                }
                out.raw("</code></p>\n");
            }
            Piece::Tagged(Kind::Message, _) => {}
            Piece::Tagged(Kind::Args, args) => {
                if !args.trim().is_empty() {
                    out.raw("<p><code class=\"ds-command-chip\">")
                        .text(args.trim())
                        .raw("</code></p>\n");
                }
            }
            Piece::Tagged(Kind::Output, text) => {
                if !text.trim().is_empty() {
                    note(Label::CommandOutput, opts, out);
                    out.raw("<pre class=\"ds-output\" tabindex=\"0\">")
                        .text(text.trim_end())
                        .raw("</pre></details>\n");
                }
            }
            Piece::Tagged(Kind::Contents, text) => {
                let text = contents_text(text);
                if !text.trim().is_empty() {
                    note(Label::CommandContents, opts, out);
                    out.raw("<div class=\"ds-note-markdown\">");
                    render_markdown_into(&text, &md, &mut slugs, out);
                    out.raw("</div></details>\n");
                }
            }
            Piece::Tagged(Kind::Reminder, text) => {
                note(Label::SystemReminder, opts, out);
                out.raw("<pre class=\"ds-note-text\" tabindex=\"0\">")
                    .text(text.trim())
                    .raw("</pre></details>\n");
            }
        }
        i += 1;
    }
}

/// The text of `<command-contents>`: the `text` of a `{"type": "text", "text"}` object,
/// else the contents as they are.
fn contents_text(contents: &str) -> std::borrow::Cow<'_, str> {
    let t = contents.trim();
    if t.starts_with('{') {
        if let Ok(v) = docstream_model::read_json::from_str::<serde_json::Value>(t) {
            if let Some(text) = v.get("text").and_then(serde_json::Value::as_str) {
                return std::borrow::Cow::Owned(text.to_owned());
            }
        }
    }
    std::borrow::Cow::Borrowed(contents)
}

/// Opens a folded note: `<details class="ds-note"><summary>…</summary>`.
fn note(name: Label, opts: &RenderOptions, out: &mut String) {
    out.raw("<details class=\"ds-note\"><summary>")
        .text(label(opts.locale, name))
        .raw("</summary>");
}

/// Text between tags: Markdown, but a leading "Caveat:" paragraph is a folded note.
fn text_piece(
    text: &str,
    md: &MarkdownOptions<'_>,
    slugs: &mut Slugs,
    opts: &RenderOptions,
    out: &mut String,
) {
    let trimmed = text.trim_start();
    let rest = if trimmed.starts_with("Caveat:") {
        let end = trimmed.find("\n\n").unwrap_or(trimmed.len());
        note(Label::Note, opts, out);
        out.raw("<p>")
            .text(trimmed[..end].trim())
            .raw("</p></details>\n");
        &trimmed[end..]
    } else {
        text
    };
    if !rest.trim().is_empty() {
        render_markdown_into(rest, md, slugs, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(content: &str) -> String {
        let mut out = String::new();
        render_user_content(content, "u1", &RenderOptions::default(), &mut out);
        out
    }

    #[test]
    fn command_contents_are_a_folded_note() {
        let h = html(
            "<command-name>/grammar</command-name>\n<command-contents>{\"type\": \"text\", \"text\": \"# Review\\n\\nCheck *all* docs\"}</command-contents>",
        );
        assert_eq!(
            h,
            "<p><code class=\"ds-command-chip\">/grammar</code></p>\n<details class=\"ds-note\"><summary>Command text</summary><div class=\"ds-note-markdown\"><h1 id=\"u1-review\">Review</h1>\n<p>Check <em>all</em> docs</p>\n</div></details>\n"
        );
        let h = html("<command-contents>plain **text**</command-contents>");
        assert!(h.contains("<p>plain <strong>text</strong></p>"), "{h}");
        assert_eq!(html("<command-contents>  </command-contents>"), "");
    }

    #[test]
    fn a_slash_command_is_a_chip() {
        let h = html(
            "<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>src/lib.rs</command-args>",
        );
        assert_eq!(
            h,
            "<p><code class=\"ds-command-chip\">/review src/lib.rs</code></p>\n"
        );
        let h = html(
            "<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>",
        );
        assert_eq!(h, "<p><code class=\"ds-command-chip\">/clear</code></p>\n");
    }

    #[test]
    fn output_reminders_and_caveats_are_folded_notes() {
        let h = html("<local-command-stdout>Compacted <b>x</b></local-command-stdout>");
        assert_eq!(
            h,
            "<details class=\"ds-note\"><summary>Command output</summary><pre class=\"ds-output\" tabindex=\"0\">Compacted &lt;b&gt;x&lt;/b&gt;</pre></details>\n"
        );
        assert_eq!(html("<local-command-stdout></local-command-stdout>"), "");
        let h = html("Fix it\n<system-reminder>Do not <script>.</system-reminder>");
        assert!(
            h.starts_with(
                "<p>Fix it</p>\n<details class=\"ds-note\"><summary>System reminder</summary>"
            ),
            "{h}"
        );
        assert!(h.contains("Do not &lt;script&gt;."), "{h}");
        let h = html("Caveat: The messages below were generated by the user.\n\nAnd **this**");
        assert!(h.starts_with("<details class=\"ds-note\"><summary>Note</summary><p>Caveat: The messages below were generated by the user.</p></details>\n"), "{h}");
        assert!(h.ends_with("<p>And <strong>this</strong></p>\n"), "{h}");
    }

    #[test]
    fn prompts_are_markdown_and_unknown_or_open_tags_stay_text() {
        assert_eq!(
            html("Use `cargo` **now**"),
            "<p>Use <code>cargo</code> <strong>now</strong></p>\n"
        );
        let h = html("<command-name>/x and no end");
        assert!(h.contains("&lt;command-name&gt;/x and no end"), "{h}");
        let h = html("<img src=x onerror=alert(1)> <other>y</other>");
        assert!(!h.contains("<img") && !h.contains("<other>"), "{h}");
    }
}
