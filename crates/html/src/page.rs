//! A standalone HTML page: styles included, no script needed to read it. The frame is
//! `assets/page.html`, which the package's `<docstream-view>.page()` fills too, so the
//! CLI's pages and the viewer's export are the same page.

use std::borrow::Cow;

use crate::escape::{Markup, escape};
use crate::facts::{counted, push_cost, push_usage, title_line};
use crate::labels::{Label, label};
use crate::time::{date_of, push_time};
use crate::{RenderOptions, labels::Locale, render_conversation};
use docstream_model::{Conversation, Cost, Totals, Turn};

/// The stylesheet (class names in `docs/classes.md`).
pub const STYLESHEET: &str = include_str!("../../../assets/docstream.css");

/// The page frame, with `{lang}`, `{attributes}`, `{title}`, `{style}` and `{body}` to
/// fill.
const FRAME: &str = include_str!("../../../assets/page.html");

/// A page body as a page without a script shows it: formulas also as MathML (feature
/// `math`) and, with `colours`, code coloured (feature `highlight`). The passes a page
/// gets in one place, for the CLI's pages and the library's site alike.
pub fn dressed(body: &str, colours: bool) -> Cow<'_, str> {
    #[cfg(feature = "math")]
    let body = crate::math::math_html(body);
    #[cfg(not(feature = "math"))]
    let body = Cow::Borrowed(body);
    #[cfg(feature = "highlight")]
    if colours && let Cow::Owned(coloured) = crate::syntax::highlight_html(&body) {
        return Cow::Owned(coloured);
    }
    #[cfg(not(feature = "highlight"))]
    let _ = colours;
    body
}

/// The policy the frame states (the element's `page()`, which fills the frame in
/// JavaScript, keeps it): no script, no connection, images over https only.
const FRAME_POLICY: &str =
    "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src https:\"";

/// The standalone page's own script, inline (no request: it works from `file://`): the
/// copy controls put their text on the clipboard. What each copies is the element's own
/// rule (`pkg-template/element-copy.js`). A module: `docstream html --follow` serves it
/// to its page as a file of its own.
pub const PAGE_SCRIPT: &str = concat!(
    include_str!("../../../pkg-template/element-copy.js"),
    include_str!("../../../assets/page-script.js"),
);

/// A standalone page's policy: the frame's, and the one inline script, by its SHA-256
/// (`the_policy_names_the_script` checks it; a change to the script prints the new one).
const PAGE_POLICY: &str = "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src https:; \
                           script-src 'sha256-F+DwBC1xyiwzQ+Yl10ZiXfKKkOJEhsjhrAOwW36Z3Ug='\"";

/// The policy of a served page ([`wrap_served_page`]): the frame's, and scripts and
/// connections of its own origin.
const SERVED_POLICY: &str = "content=\"default-src 'none'; style-src 'unsafe-inline'; img-src https:; \
                             script-src 'self'; connect-src 'self'\"";

/// Wraps rendered conversation HTML into a standalone page: one file, its styles and
/// its small script inline, that asks nothing of any origin.
pub fn wrap_page(body: &str, title: &str, locale: Locale) -> String {
    let mut script = String::with_capacity(PAGE_SCRIPT.len() + 40);
    script.push_str("<script type=\"module\">");
    script.push_str(PAGE_SCRIPT);
    script.push_str("</script>\n");
    framed(body, title, locale, PAGE_POLICY, &script)
}

/// Wraps rendered conversation HTML into a standalone page without a script, as the
/// element's `page()` makes it (its copy controls hidden): a page that runs nothing.
pub fn wrap_page_without_script(body: &str, title: &str, locale: Locale) -> String {
    framed(body, title, locale, FRAME_POLICY, "")
}

/// Wraps HTML into a page a local server hands out with its script (`script`: the
/// module's path on that server, as `docstream html --follow` serves it): the
/// standalone page's frame, whose policy lets scripts and connections of the page's
/// own origin run.
pub fn wrap_served_page(body: &str, title: &str, locale: Locale, script: &str) -> String {
    let mut tag = String::with_capacity(script.len() + 40);
    tag.raw("<script type=\"module\" src=\"")
        .text(script)
        .raw("\"></script>\n");
    framed(body, title, locale, SERVED_POLICY, &tag)
}

/// The frame filled, its policy `policy`, with `script` at the end of its head.
fn framed(body: &str, title: &str, locale: Locale, policy: &str, script: &str) -> String {
    let lang = match locale {
        Locale::En => "en",
        Locale::De => "de",
    };
    let title = escape(title);
    let value = |slot: &str| match slot {
        "lang" => Some(lang),
        "attributes" => Some(""),
        "title" => Some(title.as_str()),
        "style" => Some(STYLESHEET),
        "body" => Some(body),
        _ => None,
    };
    let end = FRAME.find("</head>").unwrap_or(FRAME.len());
    // The frame states its policy once (tested below).
    let head = FRAME[..end].replacen(FRAME_POLICY, policy, 1);
    let mut out = String::with_capacity(FRAME.len() + STYLESHEET.len() + body.len() + script.len());
    fill_frame(&head, value, &mut out);
    out.push_str(script);
    fill_frame(&FRAME[end..], value, &mut out);
    out
}

/// `frame` with each `{slot}` replaced by `value(slot)`, in one pass over the frame only
/// (a value that holds `{body}` stays as it is); unknown slots are kept.
fn fill_frame<'a>(frame: &str, value: impl Fn(&str) -> Option<&'a str>, out: &mut String) {
    let mut rest = frame;
    while let Some(open) = rest.find('{') {
        let (before, from) = rest.split_at(open);
        out.push_str(before);
        let slot = from[1..].find('}').map(|end| &from[1..1 + end]);
        match slot.and_then(|s| value(s).map(|v| (s, v))) {
            Some((s, v)) => {
                out.push_str(v);
                rest = &from[s.len() + 2..];
            }
            None => {
                out.push('{');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
}

/// Renders a conversation as a standalone page, opening with its [`page_header`].
pub fn render_page(conversation: &Conversation, title: &str, opts: &RenderOptions) -> String {
    let mut body = page_header(conversation, title, opts);
    body.push_str(&render_conversation(conversation, opts));
    wrap_page(&body, title, opts.locale)
}

/// The agent whose output a format is (`claude-code-transcript` → `Claude Code`), or
/// the format's name.
pub fn agent_name(format: &str) -> &str {
    const AGENTS: &[(&str, &str)] = &[
        ("cursor-", "Cursor"),
        ("claude-code-", "Claude Code"),
        ("codex-", "Codex CLI"),
        ("gemini-cli-", "Gemini CLI"),
        ("copilot-cli-", "Copilot CLI"),
        ("anthropic-", "Anthropic API"),
        ("openai-", "OpenAI API"),
        ("gemini-stream", "Gemini API"),
        ("opencode-", "OpenCode"),
    ];
    AGENTS
        .iter()
        .find(|(prefix, _)| format.starts_with(prefix))
        .map_or(format, |(_, name)| name)
}

/// Whether a format's source records no times at all (Cursor's agent transcripts):
/// where a time would be, a page says so instead of leaving it out.
pub(crate) fn keeps_no_times(format: &str) -> bool {
    format == "cursor-agent-transcript"
}

/// A title for a page of `conversation`: the title the source gives (a custom title, a
/// summary), else its first prompt, as one line of at most 80 characters cut at a word;
/// else `docstream`. Never a file's path.
pub fn conversation_title(conversation: &Conversation) -> String {
    if let Some(title) = conversation.title.as_deref().and_then(title_line) {
        return title;
    }
    let prompt = conversation.turns.iter().find_map(|t| match t {
        Turn::User(u) if u.compaction.is_none() => title_line(&u.content),
        _ => None,
    });
    prompt.unwrap_or_else(|| "docstream".to_owned())
}

/// The header a standalone page opens with: its title, then [`page_facts`].
pub fn page_header(conversation: &Conversation, title: &str, opts: &RenderOptions) -> String {
    let mut out = String::with_capacity(512);
    out.raw("<header class=\"ds-page-header\">\n<h1 class=\"ds-page-title\">")
        .text(title)
        .raw("</h1>\n");
    out.push_str(&page_facts(conversation, opts));
    out.raw("</header>\n");
    out
}

/// [`page_header`] of a page whose secrets were masked: one more fact, how many values
/// were masked and of which kinds (`masked`: each kind with its count, as
/// `docstream-redact`'s report gives them), shown even when none were.
pub fn page_header_masked(
    conversation: &Conversation,
    title: &str,
    opts: &RenderOptions,
    masked: &[(&str, u64)],
) -> String {
    with_masked_fact(page_header(conversation, title, opts), opts, masked)
}

/// `facts` (a page's header or [`page_facts`]) with one more fact at the end of its
/// list: how many values were masked, and of which kinds (see [`page_header_masked`]).
pub fn with_masked_fact(mut facts: String, opts: &RenderOptions, masked: &[(&str, u64)]) -> String {
    let mut fact = String::with_capacity(160);
    fact.raw("<div class=\"ds-fact ds-fact-redacted\"><dt>")
        .text(label(opts.locale, Label::SecretsMasked))
        .raw("</dt><dd>")
        .num(masked.iter().map(|(_, n)| n).sum());
    for (i, (kind, n)) in masked.iter().enumerate() {
        fact.raw(if i == 0 { " (" } else { ", " })
            .num(*n)
            .raw(" ")
            .text(kind);
    }
    if !masked.is_empty() {
        fact.raw(")");
    }
    fact.raw("</dd></div>\n");
    if let Some(at) = facts.rfind("</dl>") {
        facts.insert_str(at, &fact);
    }
    facts
}

/// What a conversation is and adds up to, as a list: the agent, the project (working
/// directory), the models, when it ran (first and last time) and its totals (tokens
/// with the cache's, cost where stated, prompts and responses). Facts the source does
/// not give are left out.
pub fn page_facts(conversation: &Conversation, opts: &RenderOptions) -> String {
    let l = |k| label(opts.locale, k);
    let t = opts.totals_of(conversation);
    let mut out = String::with_capacity(512);
    out.raw("<dl class=\"ds-page-facts\">\n");
    let fact = |out: &mut String, class: &str, key: Label, value: &mut dyn FnMut(&mut String)| {
        out.raw("<div class=\"ds-fact ds-fact-")
            .raw(class)
            .raw("\"><dt>")
            .text(label(opts.locale, key))
            .raw("</dt><dd>");
        value(out);
        out.raw("</dd></div>\n");
    };
    if let Some(format) = &conversation.format {
        fact(&mut out, "agent", Label::Agent, &mut |out| {
            out.text(agent_name(format));
        });
    }
    if let Some(cwd) = &t.cwd {
        fact(&mut out, "project", Label::Project, &mut |out| {
            out.raw("<code>").text(cwd).raw("</code>");
        });
    }
    if !t.models.is_empty() {
        fact(&mut out, "models", Label::Models, &mut |out| {
            out.text(&t.models.join(", "));
        });
    }
    if let Some(first) = &t.first {
        fact(&mut out, "time", Label::When, &mut |out| {
            push_date_time(out, first);
            if let Some(last) = t.last.as_ref().filter(|last| *last != first) {
                out.raw(" – ");
                if date_of(last) == date_of(first) {
                    push_time(out, last);
                } else {
                    push_date_time(out, last);
                }
            }
        });
    }
    if t.first.is_none() && conversation.format.as_deref().is_some_and(keeps_no_times) {
        fact(&mut out, "time", Label::When, &mut |out| {
            out.text(l(Label::NotRecorded));
        });
    }
    fact(&mut out, "totals", Label::Totals, &mut |out| {
        if let Some(u) = &t.usage {
            push_usage(out, u, opts);
            out.raw(" · ");
        }
        push_total_cost(out, &t, opts);
        out.num(t.prompts as u64)
            .raw(" ")
            .text(l(Label::Prompts))
            .raw(" · ")
            .num(t.responses as u64)
            .raw(" ")
            .text(l(Label::Responses));
        if t.compactions > 0 {
            out.raw(" · ")
                .num(t.compactions as u64)
                .raw(" ")
                .text(l(Label::Compactions));
        }
    });
    out.raw("</dl>\n");
    out
}

/// The cost of the run, and where it came from: `cost $0.42 (stated by the source) · `,
/// `cost ≈ $0.42 (from your prices; 2 responses without a price) · `. Responses without
/// a cost are counted when prices were given (a source's stated cost may cover them, as
/// Claude Code's covers its sub-agents). Nothing when no response has a cost and no
/// prices were given.
fn push_total_cost(out: &mut String, t: &Totals, opts: &RenderOptions) {
    let l = |k| label(opts.locale, k);
    let missing = |out: &mut String| {
        out.text(&counted(
            t.cost_missing as u64,
            Label::ResponseOne,
            Label::Responses,
            opts.locale,
        ))
        .raw(" ")
        .text(l(Label::CostMissing));
    };
    let Some(usd) = t.cost_usd else {
        if opts.has_prices() && t.cost_missing > 0 {
            out.raw("<span class=\"ds-cost ds-cost-missing\">")
                .text(l(Label::Cost))
                .raw(": ");
            missing(out);
            out.raw("</span> · ");
        }
        return;
    };
    let computed = t.cost_computed > 0;
    push_cost(out, Cost { usd, computed }, opts);
    out.raw(" <span class=\"ds-cost-source\">(");
    if t.cost_stated > 0 {
        out.text(l(Label::CostStated));
        if computed {
            out.raw(", ");
        }
    }
    if computed {
        out.text(l(Label::CostComputed));
    }
    if t.cost_missing > 0 && opts.has_prices() {
        out.raw("; ");
        missing(out);
    }
    out.raw(")</span> · ");
}

/// A time with its date: `2025-09-01 <time>09:00</time>`.
fn push_date_time(out: &mut String, at: &str) {
    if date_of(at) != at {
        out.text(date_of(at)).raw(" ");
    }
    push_time(out, at);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_is_filled_once() {
        let page = wrap_page("<p>{title}</p>\n", "a {body} <b>", Locale::De);
        assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"de\">\n"));
        assert!(page.contains("<title>a {body} &lt;b&gt;</title>"));
        assert!(page.contains("<body class=\"ds-page\">\n<p>{title}</p>\n</body>\n</html>\n"));
        assert!(page.contains(".ds-page:not(.ds-scripted) .ds-copy { display: none; }"));
        assert!(page.contains(STYLESHEET));
    }

    #[test]
    fn the_policy_names_the_script() {
        use base64::Engine;
        use sha2::Digest;
        let hash =
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(PAGE_SCRIPT));
        assert!(
            PAGE_POLICY.contains(&format!("'sha256-{hash}'")),
            "the page's script changed: its hash is now sha256-{hash}"
        );
        assert_eq!(FRAME.matches(FRAME_POLICY).count(), 1);
        let page = wrap_page("<p>x</p>\n", "t", Locale::En);
        assert!(page.contains(PAGE_POLICY) && !page.contains(FRAME_POLICY));
        assert!(page.contains(&format!(
            "<script type=\"module\">{PAGE_SCRIPT}</script>\n</head>"
        )));
    }

    #[test]
    fn a_served_page_runs_scripts_of_its_origin() {
        let page = wrap_served_page("<p>x</p>", "t", Locale::En, "/follow.js");
        assert!(page.contains(SERVED_POLICY) && !page.contains(FRAME_POLICY));
        assert!(page.contains("<script type=\"module\" src=\"/follow.js\"></script>\n</head>"));
    }
}
