//! Link and image policy (SPEC §5).

/// What a link or image target becomes after the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlVerdict {
    /// Safe to use as it is.
    Allowed,
    /// Not allowed: render as text only.
    Blocked,
}

/// Decodes the HTML character references a browser would decode in an attribute value
/// (numeric and the few named ones that matter for schemes).
fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find('&') {
        out.push_str(&rest[..pos]);
        rest = &rest[pos..];
        let end = rest[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '#'))
            .map_or(rest.len(), |i| i + 1);
        let name = &rest[1..end];
        let decoded = if let Some(num) = name.strip_prefix('#') {
            let n = if let Some(hex) = num.strip_prefix(['x', 'X']) {
                u32::from_str_radix(hex, 16).ok()
            } else {
                num.parse::<u32>().ok()
            };
            n.and_then(char::from_u32)
        } else {
            match name.to_ascii_lowercase().as_str() {
                "colon" => Some(':'),
                "tab" => Some('\t'),
                "newline" => Some('\n'),
                "amp" => Some('&'),
                _ => None,
            }
        };
        match decoded {
            Some(c) if end > 1 => {
                out.push(c);
                rest = &rest[end..];
                if rest.starts_with(';') {
                    rest = &rest[1..];
                }
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The URL as a browser would see it before judging its scheme: entities decoded,
/// control characters and whitespace removed.
pub fn normalise(url: &str) -> String {
    decode_entities(url)
        .chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .collect()
}

/// The lower-cased scheme of a normalised URL, if it has one.
fn scheme(url: &str) -> Option<String> {
    let colon = url.find(':')?;
    let before = &url[..colon];
    if before.contains(['/', '?', '#']) {
        return None;
    }
    Some(before.to_ascii_lowercase())
}

/// Judges a link target: only `http`, `https`, `mailto` and relative ones pass.
pub fn check_link(url: &str) -> UrlVerdict {
    let n = normalise(url);
    if n.starts_with("//") || n.starts_with("\\\\") || n.starts_with("/\\") {
        // Protocol-relative: treat as http(s).
        return UrlVerdict::Allowed;
    }
    match scheme(&n) {
        None => UrlVerdict::Allowed,
        Some(s) if matches!(s.as_str(), "http" | "https" | "mailto") => UrlVerdict::Allowed,
        Some(_) => UrlVerdict::Blocked,
    }
}

/// Checks an origin an embedder allows images from (`https://host[:port]`, a final `/`
/// tolerated) and returns it in the form [`check_image`] compares against; `None` when
/// it is not an http(s) origin (a path, query, fragment, user info or no host).
///
/// ```
/// use docstream_html::url::origin;
///
/// assert_eq!(origin("https://img.example.com/").as_deref(), Some("https://img.example.com"));
/// assert_eq!(origin("javascript:alert(1)"), None);
/// ```
pub fn origin(s: &str) -> Option<String> {
    let s = s.trim();
    let (scheme, rest) = s.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let host = rest.strip_suffix('/').unwrap_or(rest);
    let bad = |c: char| c.is_whitespace() || c.is_control() || "/?#@\\".contains(c);
    if host.is_empty() || host.starts_with(':') || host.contains(bad) {
        return None;
    }
    Some(format!("{}://{host}", scheme.to_ascii_lowercase()))
}

/// Judges an image source: loaded only when it is http(s) and its origin is one of
/// `allowed_origins` (such as `https://example.com`).
pub fn check_image(url: &str, allowed_origins: &[String]) -> UrlVerdict {
    let n = normalise(url);
    match scheme(&n).as_deref() {
        Some("http") | Some("https") => {}
        _ => return UrlVerdict::Blocked,
    }
    let allowed = allowed_origins.iter().any(|o| {
        n.len() >= o.len()
            && n[..o.len()].eq_ignore_ascii_case(o)
            && matches!(n.as_bytes().get(o.len()), None | Some(b'/'))
    });
    if allowed {
        UrlVerdict::Allowed
    } else {
        UrlVerdict::Blocked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_checked_and_normalised() {
        assert_eq!(
            origin("HTTPS://a.example:8443").as_deref(),
            Some("https://a.example:8443")
        );
        assert_eq!(
            origin("http://a.example/").as_deref(),
            Some("http://a.example")
        );
        for bad in [
            "a.example",
            "https://",
            "https://a.example/img",
            "https://u@a.example",
            "ftp://a.example",
            "https://a.example?x",
            "https://:80",
            "data:image/png",
        ] {
            assert_eq!(origin(bad), None, "{bad}");
        }
    }

    #[test]
    fn blocks_obfuscated_javascript() {
        for u in [
            "javascript:alert(1)",
            "JaVaScRiPt:x",
            "java\tscript:x",
            "jav&#x61;script:x",
            "javascript&colon;x",
            " \u{1}javascript:x",
            "data:text/html,x",
            "vbscript:x",
        ] {
            assert_eq!(check_link(u), UrlVerdict::Blocked, "{u}");
        }
    }

    #[test]
    fn allows_safe_links() {
        for u in [
            "https://a.b/c",
            "mailto:a@b",
            "/rel",
            "rel/x:y",
            "#frag",
            "?q=a:b",
        ] {
            assert_eq!(check_link(u), UrlVerdict::Allowed, "{u}");
        }
    }

    #[test]
    fn images_need_allowed_origin() {
        // An origin as `origin()` reads it from a URL with a path.
        let allowed = [origin("https://img.example/").unwrap()];
        for (url, verdict) in [
            ("https://img.example/a.png", UrlVerdict::Allowed),
            ("https://img.example.evil/a.png", UrlVerdict::Blocked),
            ("/a.png", UrlVerdict::Blocked),
        ] {
            assert_eq!(check_image(url, &allowed), verdict, "{url}");
        }
    }
}
