//! JSON shown to a person: a value pretty-printed as `serde_json::to_string_pretty`
//! prints it, written straight into HTML (escaped as it goes, in one pass), with the
//! control characters that JSON leaves unescaped (DEL, C1) dropped as a terminal would
//! not show them.

use serde_json::Value;

use crate::escape::Markup;

/// Writes `value` pretty-printed, escaped for HTML text.
pub(crate) fn push_json_pretty(out: &mut String, value: &Value) {
    write_value(out, value, 0);
}

fn indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_value(out: &mut String, value: &Value, depth: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                write_value(out, item, depth + 1);
            }
            indent(out, depth);
            out.push(']');
        }
        Value::Object(map) => {
            if map.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                write_string(out, k);
                out.push_str(": ");
                write_value(out, v, depth + 1);
            }
            indent(out, depth);
            out.push('}');
        }
    }
}

/// Bytes that [`write_string`] does not copy as they are: what JSON escapes (controls,
/// `"` and `\\`), what HTML escapes, DEL, and the lead byte of the C1 controls' UTF-8
/// form (`0xc2`, a special only when a C1 control follows).
static JSON_SPECIAL: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = b < 0x20
            || matches!(
                b as u8,
                b'"' | b'\\' | b'&' | b'<' | b'>' | b'\'' | 0x7f | 0xc2
            );
        b += 1;
    }
    table
};

/// A JSON string literal (as serde_json escapes it), escaped for HTML: the runs between
/// special bytes are found by table and copied whole.
fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 12);
    out.raw("&quot;");
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut i = 0;
    while let Some(j) = bytes[i..]
        .iter()
        .position(|&b| JSON_SPECIAL[usize::from(b)])
    {
        i += j;
        let b = bytes[i];
        if b == 0xc2 && !matches!(bytes.get(i + 1), Some(0x80..=0x9f)) {
            i += 1; // an ordinary two-byte character
            continue;
        }
        // Special bytes are ASCII or the lead of a two-byte character, so `run..i` and
        // the position after them are char boundaries.
        out.push_str(&s[run..i]);
        let len = if b == 0xc2 { 2 } else { 1 };
        match b {
            b'"' => out.push_str("\\&quot;"),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            b'&' => out.push_str("&amp;"),
            b'<' => out.push_str("&lt;"),
            b'>' => out.push_str("&gt;"),
            b'\'' => out.push_str("&#39;"),
            0x7f | 0xc2 => {}
            _ => {
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        i += len;
        run = i;
    }
    out.push_str(&s[run..]);
    out.raw("&quot;");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::escape::escape;
    use crate::terminal::strip_ansi;

    #[test]
    fn prints_as_serde_json_pretty_escaped() {
        let v: Value = docstream_model::read_json::from_str(
            r#"{"a":[1,2.5,{"b":null,"c":[]}],"d":{},"e":"q\"\\\n\t<&>'\u0001 é 😀 £©","g":"\u00a0x","f":true}"#,
        )
        .unwrap();
        let mut out = String::new();
        push_json_pretty(&mut out, &v);
        let expected = escape(&strip_ansi(&serde_json::to_string_pretty(&v).unwrap()));
        assert_eq!(out, expected);
    }

    #[test]
    fn drops_controls_json_leaves_alone() {
        let mut out = String::new();
        push_json_pretty(&mut out, &Value::String("a\u{7f}b\u{9b}c".into()));
        assert_eq!(out, "&quot;abc&quot;");
    }
}
