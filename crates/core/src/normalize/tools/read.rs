//! Read tools to a [`ReadView`]: the file, the first line read, and its text without
//! the line numbers some tools put before each line.

use serde_json::Value;

use super::super::language::language_for_path;
use super::fields::{PATH, field, named_text, text_field, u64_field};
use crate::model::{ReadView, ViewText};

/// The view of a read; `None` when no file is named (the call is shown as it is).
pub(super) fn read(args: &Value, data: Option<&Value>) -> Option<ReadView> {
    let file = data
        .and_then(|d| field(d, &["file"]))
        .filter(|f| f.is_object());
    let path = text_field(args, PATH)
        .or_else(|| file.and_then(|f| text_field(f, PATH)))
        .or_else(|| data.and_then(|d| text_field(d, PATH)))?;
    let offset = u64_field(args, &["offset", "start_line", "startLine", "line"]);
    let mut start = file
        .and_then(|f| u64_field(f, &["startLine", "start_line"]))
        .or(offset)
        .unwrap_or(1)
        .max(1);
    // The text, and where the result holds it.
    let text = file
        .and_then(|f| text_field(f, &["content"]))
        .map(|t| (t, "/file/content".to_owned()))
        .or_else(|| data.and_then(Value::as_str).map(|t| (t, String::new())))
        .or_else(|| {
            let (t, name) = named_text(data?, &["content", "contents", "text", "output"])?;
            Some((t, format!("/{name}")))
        });
    let content = data.map(|_| match text {
        Some((t, at)) => match strip_numbers(t) {
            Some((first, stripped)) => {
                start = first.max(1);
                ViewText::Made(stripped)
            }
            None => ViewText::InResult(at),
        },
        None => ViewText::Made(String::new()),
    });
    Some(ReadView {
        path: path.to_owned(),
        start,
        content,
        language: language_for_path(path).to_owned(),
    })
}

/// `cat -n` style text (`     1\tline`, `     1→line`): the lines without their numbers
/// and the first number; `None` when not every line is numbered.
fn strip_numbers(text: &str) -> Option<(u64, String)> {
    let mut first = None;
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let t = line.trim_start();
        let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        let rest = &t[digits..];
        let rest = rest
            .strip_prefix('\t')
            .or_else(|| rest.strip_prefix('→'))
            .or_else(|| rest.strip_prefix('|'))?;
        first.get_or_insert_with(|| t[..digits].parse().unwrap_or(1));
        out.push_str(rest);
        out.push('\n');
    }
    Some((first?, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_code_read_drops_line_numbers() {
        let r = read(
            &json!({"file_path": "/r/src/main.rs", "offset": 10}),
            Some(&json!("    10\tfn main() {\n    11→}\n")),
        )
        .unwrap();
        assert_eq!((r.start, r.language.as_str()), (10, "rust"));
        assert_eq!(r.content, Some(ViewText::Made("fn main() {\n}\n".into())));
    }

    #[test]
    fn a_text_read_as_it_is_stays_in_the_result() {
        let text = |data| read(&json!({"path": "a.rs"}), Some(&data)).unwrap().content;
        let at = |p: &str| Some(ViewText::InResult(p.into()));
        assert_eq!(text(json!({"file": {"content": "x"}})), at("/file/content"));
        assert_eq!(text(json!({"contents": "x"})), at("/contents"));
        assert_eq!(text(json!("x")), at(""));
        assert_eq!(
            text(json!({"content": ""})),
            Some(ViewText::Made(String::new()))
        );
    }
}
