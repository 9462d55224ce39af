//! Lenient readers for the fields of a saved response (`#[serde(deserialize_with)]`): a
//! value docstream does not know — a status of a newer version, a number written as a
//! string, a number out of range — is noted as unknown ([`super::unknown`]) and read as
//! the nearest thing it knows, so the one field costs nothing else: the document and
//! the response it is in still load. Before, one such field failed the whole response.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::{CallStatus, ResponseStatus};

/// `v` read as a `T`: as it is, else as the number a string holds (`"12"`), else `None`.
/// Either way but the first, the value is noted as unknown.
fn read<T: DeserializeOwned>(v: &Value) -> Option<T> {
    if let Ok(t) = T::deserialize(v) {
        return Some(t);
    }
    let number = v
        .as_str()
        .and_then(|s| serde_json::from_str::<serde_json::Number>(s.trim()).ok());
    let read = number.and_then(|n| T::deserialize(&Value::Number(n)).ok());
    let shown = super::unknown::shown(v);
    super::unknown::note(match read {
        Some(_) => format!("number {shown} written as a string"),
        None => format!("value {shown}"),
    });
    read
}

/// A field of any type with a default: what [`read`] makes of it, else the default.
pub(crate) fn value<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(read(&Value::deserialize(d)?).unwrap_or_default())
}

/// A response's status: an unknown one reads as `completed` (a saved response has ended).
pub(crate) fn response_status<'de, D: Deserializer<'de>>(d: D) -> Result<ResponseStatus, D::Error> {
    Ok(read(&Value::deserialize(d)?).unwrap_or(ResponseStatus::Completed))
}

/// A tool result's status: an unknown one reads as `no_result`, never as a success.
pub(crate) fn call_status<'de, D: Deserializer<'de>>(d: D) -> Result<CallStatus, D::Error> {
    Ok(read(&Value::deserialize(d)?).unwrap_or(CallStatus::NoResult))
}

/// A document's optional call status: an unknown one reads as `no_result`.
pub(crate) fn optional_call_status<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Option<CallStatus>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(match read(&v) {
        Some(status) => status,
        None => Some(CallStatus::NoResult),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unknown;

    #[derive(Deserialize, Debug, PartialEq)]
    struct Fields {
        #[serde(default, deserialize_with = "value")]
        n: u64,
        #[serde(default, deserialize_with = "value")]
        small: u32,
        #[serde(default, deserialize_with = "value")]
        maybe: Option<i64>,
        #[serde(default = "streaming", deserialize_with = "response_status")]
        status: ResponseStatus,
        #[serde(default, deserialize_with = "optional_call_status")]
        call: Option<CallStatus>,
    }

    fn streaming() -> ResponseStatus {
        ResponseStatus::Streaming
    }

    fn fields(json: &str) -> (Fields, u64) {
        unknown::take();
        let f = crate::read_json::from_str(json).unwrap();
        (f, unknown::take().0)
    }

    #[test]
    fn known_values_read_as_they_are_and_note_nothing() {
        let (f, noted) =
            fields(r#"{"n":5,"small":6,"maybe":-7,"status":"error","call":"success"}"#);
        assert_eq!(
            f,
            Fields {
                n: 5,
                small: 6,
                maybe: Some(-7),
                status: ResponseStatus::Error,
                call: Some(CallStatus::Success)
            }
        );
        assert_eq!(noted, 0);
        let (f, noted) = fields(r#"{"maybe":null}"#);
        assert_eq!(
            (f.maybe, f.status, f.call, noted),
            (None, ResponseStatus::Streaming, None, 0)
        );
    }

    #[test]
    fn strange_values_are_noted_and_read_as_the_nearest_thing() {
        let (f, noted) = fields(
            r#"{"n":" 12 ","small":4294967296,"maybe":"x","status":"paused","call":"cancelled"}"#,
        );
        assert_eq!(
            f,
            Fields {
                n: 12,
                small: 0,
                maybe: None,
                status: ResponseStatus::Completed,
                call: Some(CallStatus::NoResult)
            }
        );
        assert_eq!(noted, 5);
        let (f, noted) = fields(r#"{"n":{"deep":[1,2]},"maybe":"-3"}"#);
        assert_eq!((f.n, f.maybe, noted), (0, Some(-3), 2));
    }
}
