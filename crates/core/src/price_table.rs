//! The caller's price table read from JSON, with the reader the formats use
//! ([`fields`](crate::formats::fields)): the shape is in [`docstream_model::prices`].
//! The CLI reads `--prices FILE` with [`from_json`]; the browser's module reads the
//! `prices` option with [`read`], from the options' tree.

use docstream_model::{PRICE_FIELDS, Price, PriceError, Prices};
use serde_json_borrow::Value as Tree;

use crate::formats::fields;

/// Reads a price table from JSON text.
pub fn from_json(text: &str) -> Result<Prices, PriceError> {
    let tree =
        fields::parse(text).map_err(|e| PriceError(format!("the price table is not JSON: {e}")))?;
    read(&tree)
}

/// Reads a price table from a JSON tree: an object of model ids, each an object of
/// rates.
pub fn read(tree: &Tree<'_>) -> Result<Prices, PriceError> {
    let Tree::Object(entries) = tree else {
        return Err(PriceError(
            "the price table should be an object of model ids".to_owned(),
        ));
    };
    let mut models = Vec::with_capacity(entries.len());
    for (id, entry) in entries.iter() {
        let Tree::Object(rates) = entry else {
            return Err(PriceError(format!(
                "model {id:?}: should be an object of prices"
            )));
        };
        if let Some((k, _)) = rates.iter().find(|(k, _)| !PRICE_FIELDS.contains(k)) {
            return Err(PriceError(format!(
                "model {id:?}: unknown field {k:?} (fields: {})",
                PRICE_FIELDS.join(", ")
            )));
        }
        // The value is not shown: printing JSON would cost the browser's module a
        // serialiser.
        let rate = |name: &str| match rates.get(name) {
            None | Some(Tree::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| PriceError::bad_rate(id, name)),
        };
        let required = |name: &str| {
            rate(name)?
                .ok_or_else(|| PriceError(format!("model {id:?}: field {name:?} is missing")))
        };
        let price = Price {
            input: required("input")?,
            output: required("output")?,
            cache_read: rate("cacheRead")?,
            cache_write: rate("cacheWrite")?,
            reasoning: rate("reasoning")?,
        };
        models.push((id.to_owned(), price));
    }
    Prices::from_models(models)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_reads_in_the_callers_order_and_finds_by_prefix() {
        let p = from_json(
            r#"{"claude-sonnet-4-5": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": null},
                "claude-sonnet-4": {"input": 1, "output": 1}}"#,
        )
        .unwrap();
        let sonnet = p.price("claude-sonnet-4-5-20250929").unwrap();
        assert_eq!(
            (sonnet.input, sonnet.cache_read, sonnet.cache_write),
            (3.0, Some(0.3), None)
        );
        assert_eq!(p.price("claude-sonnet-4-20250514").unwrap().input, 1.0);
    }

    #[test]
    fn a_bad_table_is_an_error_naming_model_and_field() {
        let cases = [
            ("[]", "should be an object of model ids"),
            ("{", "not JSON"),
            (r#"{"m": 3}"#, r#"model "m": should be an object"#),
            (
                r#"{"m": {"output": 1}}"#,
                r#"model "m": field "input" is missing"#,
            ),
            (
                r#"{"m": {"input": 1}}"#,
                r#"model "m": field "output" is missing"#,
            ),
            (
                r#"{"m": {"input": -1, "output": 1}}"#,
                r#"model "m": field "input" should be a number ≥ 0"#,
            ),
            (
                r#"{"m": {"input": 1, "output": "2"}}"#,
                r#"model "m": field "output" should be a number"#,
            ),
            (
                r#"{"m": {"input": 1, "output": 2, "cache_read": 1}}"#,
                r#"model "m": unknown field "cache_read""#,
            ),
            (r#"{"": {"input": 1, "output": 2}}"#, "empty model id"),
        ];
        for (json, expected) in cases {
            let e = from_json(json).expect_err(json).0;
            assert!(e.contains(expected), "{json}: {e:?} lacks {expected:?}");
        }
        assert!(from_json("{}").unwrap().is_empty());
    }
}
