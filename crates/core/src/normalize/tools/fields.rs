//! Reading tool payloads, the one place that does: a field is looked up by its known
//! aliases (`file_path`, `filePath`, `path` …), the first of them present and not null
//! wins. The alias lists that name one thing across tools are here; a list one tool
//! alone reads stands where that tool is read.

use serde_json::Value;

/// The file a tool works on (arguments and results alike).
pub(super) const PATH: &[&str] = &[
    "path",
    "file_path",
    "filePath",
    "target_file",
    "targetFile",
    "absolute_path",
    "relativeWorkspacePath",
    "filename",
    "notebook_path",
    "file",
];

/// The first of `names` present in the object `v`, unless it is null.
pub(super) fn field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v Value> {
    let obj = v.as_object()?;
    names
        .iter()
        .find_map(|n| obj.get(*n))
        .filter(|v| !v.is_null())
}

/// [`field`] as a string, empty or not.
pub(super) fn str_field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v str> {
    field(v, names).and_then(Value::as_str)
}

/// [`field`] as a string that is not empty.
pub(super) fn text_field<'v>(v: &'v Value, names: &[&str]) -> Option<&'v str> {
    named_text(v, names).map(|(text, _)| text)
}

/// [`text_field`] and the name it stands under.
pub(super) fn named_text<'v, 'n>(v: &'v Value, names: &[&'n str]) -> Option<(&'v str, &'n str)> {
    let obj = v.as_object()?;
    let (name, v) = names.iter().find_map(|n| Some((*n, obj.get(*n)?)))?;
    Some((v.as_str().filter(|s| !s.is_empty())?, name))
}

/// [`field`] as a list of strings (other items left out); empty when it is none.
pub(super) fn strings(v: &Value, names: &[&str]) -> Vec<String> {
    let items = field(v, names).and_then(Value::as_array);
    let strings = items.into_iter().flatten().filter_map(Value::as_str);
    strings.map(str::to_owned).collect()
}

/// [`field`] as a count: a number that is not negative (a fraction cut), or a string
/// of one.
pub(super) fn u64_field(v: &Value, names: &[&str]) -> Option<u64> {
    field(v, names).and_then(|v| {
        v.as_u64()
            .or_else(|| v.as_f64().filter(|f| *f >= 0.0).map(|f| f as u64))
            .or_else(|| v.as_str()?.trim().parse().ok())
    })
}

/// [`field`] as a whole number, or a string of one.
pub(super) fn i64_field(v: &Value, names: &[&str]) -> Option<i64> {
    field(v, names).and_then(|v| v.as_i64().or_else(|| v.as_str()?.trim().parse().ok()))
}

/// Why a call was refused or stopped, as the person or the rule said it: what the
/// user said after Claude Code's stock refusal ("… the user said: …"), Cursor's
/// `reason`/`error`, Gemini CLI's `Reason:`. `None` where the text only repeats the
/// status: Claude Code's and Codex's stock sentences, Claude Code's interruption mark.
pub(crate) fn refusal_reason(data: &Value) -> Option<String> {
    const SAID: &str = "the user said:";
    const STOCK: &[&str] = &[
        "The user doesn't want to proceed with this tool use",
        "The user doesn't want to take this action",
        "exec command rejected by user",
        "patch rejected by user",
    ];
    let text = error_message(data)?;
    if let Some(at) = text.find(SAID) {
        return Some(text[at + SAID.len()..].trim().to_owned()).filter(|r| !r.is_empty());
    }
    let text = without_interruption(&text);
    // Gemini CLI's `[Operation Cancelled] Reason: …`: the reason.
    let text = match text.trim().strip_prefix("[Operation Cancelled]") {
        Some(rest) => rest.trim_start().strip_prefix("Reason:").unwrap_or(rest),
        None => &text,
    };
    let text = text.trim();
    (!text.is_empty() && !STOCK.iter().any(|s| text.starts_with(s))).then(|| text.to_owned())
}

/// Claude Code's mark of a call the user stopped (`[Request interrupted by user for
/// tool use]`, on a line of its own after any output) taken out of `text`.
pub(crate) fn without_interruption(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("[Request interrupted by user"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The message of an error payload: a string, or its `error`/`message`/`reason` field.
pub(crate) fn error_message(data: &Value) -> Option<String> {
    match data {
        Value::String(s) => Some(s.clone()),
        Value::Object(_) => str_field(
            data,
            &["error", "message", "reason", "stderr", "errorMessage"],
        )
        .map(str::to_owned)
        .or_else(|| field(data, &["error"]).and_then(error_message))
        .or_else(|| str_field(data, &["output"]).map(str::to_owned)),
        _ => None,
    }
}
