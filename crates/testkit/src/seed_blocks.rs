//! The fenced code blocks of a seed document, read in place from `../shared/seeds/`,
//! and a reader for the JavaScript object literals some of them use.

/// One fenced block: its language tag, its text and the heading above it.
#[derive(Debug, Clone)]
pub struct Block {
    pub lang: String,
    pub body: String,
    pub heading: String,
}

/// The blocks of `../shared/seeds/<name>`, or `None` after saying why the test is
/// skipped.
pub fn blocks(name: &str) -> Option<Vec<Block>> {
    let dir =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("../shared/seeds");
    let path = dir.join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "skipped: {} is absent (../shared holds the seed documents)",
            path.display()
        );
        return None;
    };
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        match &mut open {
            Some((lang, body)) => {
                if trimmed.starts_with("```") {
                    out.push(Block {
                        lang: std::mem::take(lang),
                        body: std::mem::take(body),
                        heading: heading.clone(),
                    });
                    open = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
            None => {
                if let Some(lang) = trimmed.strip_prefix("```") {
                    open = Some((lang.trim().to_owned(), String::new()));
                } else if trimmed.starts_with('#') {
                    heading = trimmed.trim_start_matches('#').trim().to_owned();
                }
            }
        }
    }
    Some(out)
}

/// The blocks tagged `lang`, in order.
pub fn tagged<'b>(blocks: &'b [Block], lang: &str) -> Vec<&'b Block> {
    blocks.iter().filter(|b| b.lang == lang).collect()
}

/// The one block under a heading (a panic names the heading when there is not exactly
/// one, so a changed seed fails loudly).
pub fn under<'b>(blocks: &'b [Block], heading: &str) -> &'b Block {
    let found: Vec<&Block> = blocks.iter().filter(|b| b.heading == heading).collect();
    assert_eq!(found.len(), 1, "blocks under {heading:?}");
    found[0]
}

/// A JavaScript object literal as JSON: `//` comments dropped, bare keys quoted,
/// elisions (`...` as in `[...]`) dropped, trailing commas removed. Strings are kept as
/// they are.
pub fn js_to_json(js: &str) -> String {
    let chars: Vec<char> = js.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            // A string, copied whole.
            out.push(c);
            i += 1;
            while i < chars.len() {
                out.push(chars[i]);
                if chars[i] == '\\' && i + 1 < chars.len() {
                    out.push(chars[i + 1]);
                    i += 2;
                    continue;
                }
                i += 1;
                if chars[i - 1] == '"' {
                    break;
                }
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '.' && chars.get(i + 1) == Some(&'.') && chars.get(i + 2) == Some(&'.') {
            i += 3;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            if chars.get(j) == Some(&':') {
                out.push('"');
                out.push_str(&word);
                out.push('"');
            } else {
                out.push_str(&word);
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    remove_trailing_commas(&out)
}

fn remove_trailing_commas(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' && i + 1 < chars.len() {
                out.push(chars[i + 1]);
                i += 2;
                continue;
            }
            in_string = c != '"';
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if !matches!(next, Some('}' | ']')) {
                out.push(c);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}
