//! Times on the page: `<time datetime="…" title="2025-09-01 09:00:08 UTC">09:00</time>`,
//! the time of day as the source wrote it (no clock, no time zone is read: a renderer
//! is a pure function), the whole date and time on hover.

use crate::escape::Markup;

/// The parts of an ISO 8601 time: date, `HH:MM`, `HH:MM:SS` and the zone as written
/// (`UTC` for `Z`); `None` when `s` does not start `YYYY-MM-DDTHH:MM`.
pub(crate) fn parts(s: &str) -> Option<(&str, &str, &str, &str)> {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let shape = digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
        && matches!(b.get(10), Some(b'T' | b't' | b' '))
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16);
    if !shape {
        return None;
    }
    let seconds = if b.get(16) == Some(&b':') && digits(17..19) {
        19
    } else {
        16
    };
    // Past the seconds: a fraction, then the zone.
    let rest = &s[seconds..];
    let zone = rest.trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
    let zone = match zone {
        "Z" | "z" => "UTC",
        z => z,
    };
    Some((&s[..10], &s[11..16], &s[11..seconds], zone))
}

/// Writes `<time>` for an ISO 8601 time: the time of day shown, the full date and time
/// as its title; a time in another form is shown as it is.
pub(crate) fn push_time(out: &mut String, at: &str) {
    match parts(at) {
        Some((date, hm, hms, zone)) => {
            out.raw("<time class=\"ds-time\" datetime=\"")
                .text(at)
                .raw("\" title=\"")
                .text(date)
                .raw(" ")
                .text(hms);
            if !zone.is_empty() {
                out.raw(" ").text(zone);
            }
            out.raw("\">").text(hm).raw("</time>");
        }
        None => {
            out.raw("<time class=\"ds-time\">").text(at).raw("</time>");
        }
    }
}

/// The date of an ISO 8601 time (`2025-09-01`), or the text as it is.
pub(crate) fn date_of(at: &str) -> &str {
    parts(at).map_or(at, |(date, ..)| date)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_show_the_time_of_day_and_the_whole_on_hover() {
        let t = |s: &str| {
            let mut out = String::new();
            push_time(&mut out, s);
            out
        };
        assert_eq!(
            t("2025-09-01T09:00:08.123Z"),
            "<time class=\"ds-time\" datetime=\"2025-09-01T09:00:08.123Z\" title=\"2025-09-01 09:00:08 UTC\">09:00</time>"
        );
        assert_eq!(
            t("2025-09-01T09:00+02:00"),
            "<time class=\"ds-time\" datetime=\"2025-09-01T09:00+02:00\" title=\"2025-09-01 09:00 +02:00\">09:00</time>"
        );
        assert_eq!(
            t("yesterday <b>"),
            "<time class=\"ds-time\">yesterday &lt;b&gt;</time>"
        );
        assert_eq!(
            t("2025-09-01T9:00"),
            "<time class=\"ds-time\">2025-09-01T9:00</time>"
        );
        assert_eq!(t("2025-é"), "<time class=\"ds-time\">2025-é</time>");
        assert_eq!(date_of("2025-09-01T09:00:08Z"), "2025-09-01");
    }
}
