//! The stylesheet's selectors stay cheap for the browser on long conversations.

use docstream_html::page::STYLESHEET;

/// The selector lists of a stylesheet: the text before each `{` that opens a rule (not an
/// at-rule), comments removed.
fn selectors(css: &str) -> Vec<String> {
    let mut text = String::new();
    let mut rest = css;
    while let Some(i) = rest.find("/*") {
        text.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    text.push_str(rest);
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => {
                let prelude = text[start..i].trim();
                if !prelude.starts_with('@') {
                    out.push(prelude.to_string());
                }
                start = i + 1;
            }
            '}' | ';' => start = i + 1,
            _ => {}
        }
    }
    out
}

/// Splits `s` at commas outside parentheses.
fn top_level_commas(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The compound after the last sibling combinator (`~` or `+`) of a complex selector
/// whose last combinator is one, outside parentheses.
fn after_last_sibling_combinator(selector: &str) -> Option<&str> {
    let (mut depth, mut last) = (0, None);
    for (i, c) in selector.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '~' | '+' if depth == 0 => last = Some(i),
            '>' | ' ' if depth == 0 && last.is_some_and(|l| selector[l + 1..i].trim() != "") => {
                last = None
            }
            _ => {}
        }
    }
    last.map(|l| selector[l + 1..].trim())
}

/// Whether a compound names something an element is filed under (a class, an id, an
/// attribute or a type) outside `:not(…)`/`:is(…)`, so a browser tries the rule only on
/// elements that have it.
fn is_keyed(compound: &str) -> bool {
    let mut depth = 0;
    let mut prev = ' ';
    for c in compound.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '.' | '#' | '[' if depth == 0 => return true,
            c if depth == 0 && c.is_ascii_alphabetic() && prev == ' ' => return true,
            _ => {}
        }
        prev = if depth == 0 && c != ':' && !c.is_ascii_alphanumeric() && c != '-' {
            ' '
        } else {
            c
        };
    }
    false
}

#[test]
fn no_sibling_combinator_ends_at_any_element() {
    // `A ~ *` makes Chromium walk every earlier sibling of every element: a Markdown
    // answer of 40,000 paragraphs took 50 s of style recalculation (assets/docstream.css).
    let mut bad = Vec::new();
    for list in selectors(STYLESHEET) {
        for selector in top_level_commas(&list) {
            if let Some(last) = after_last_sibling_combinator(selector.trim()) {
                if !is_keyed(last) {
                    bad.push(selector.trim().to_string());
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "selectors whose part after `~` or `+` is any element: {bad:#?}"
    );
}

#[test]
fn the_check_sees_an_unkeyed_sibling_selector() {
    assert_eq!(
        after_last_sibling_combinator(".a:not([open]) ~ *"),
        Some("*")
    );
    assert!(!is_keyed("*"));
    assert!(!is_keyed(":not(.b)"));
    assert!(is_keyed(".ds-footnote"));
    assert!(is_keyed("p:first-child"));
    assert_eq!(after_last_sibling_combinator(".a ~ .b > p"), None);
    assert_eq!(
        selectors("/* x { */ .a ~ * { color: red } @media (x) { .b { c: d } }"),
        [".a ~ *", ".b"]
    );
}
