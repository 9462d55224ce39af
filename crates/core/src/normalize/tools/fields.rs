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
