//! Times as the model keeps them: ISO 8601 strings, whatever the source wrote.

use serde_json::Value;

/// A time as ISO 8601: strings are kept, numbers are Unix time in milliseconds (or in
/// seconds when too small to be milliseconds of this century).
pub fn time_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => {
            let t = n.as_f64()?;
            if !(0.0..=1e15).contains(&t) {
                return None;
            }
            let ms = if t < 1e11 { t * 1000.0 } else { t } as u64;
            Some(iso_8601(ms))
        }
        _ => None,
    }
}

/// Milliseconds since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` (proleptic Gregorian calendar).
pub fn iso_8601(ms: u64) -> String {
    let (secs, millis) = (ms / 1000, ms % 1000);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Days to civil date (H. Hinnant's algorithm), for days since 1970-01-01 ≥ 0.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert_eq!(iso_8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_8601(1_735_689_599_999), "2024-12-31T23:59:59.999Z");
        assert_eq!(
            time_of(&Value::from(1_700_000_000u64)).as_deref(),
            Some("2023-11-14T22:13:20.000Z")
        );
        assert_eq!(time_of(&Value::from(-1)), None);
    }
}
