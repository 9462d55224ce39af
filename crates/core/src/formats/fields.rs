//! A payload read by its fields: one borrowed JSON tree per payload
//! ([serde_json_borrow]) and typed getters on its objects, in place of a
//! serde-derived struct per wire shape.
//!
//! A derived struct costs a visitor, a field matcher and a reader per field type, all
//! compiled for every struct of every format; the formats read a few fields of each
//! line, so the tree and these getters do the same with one parser for all of them.
//! Strings borrow from the payload where they hold no escapes. A field that is absent
//! or `null` is `None`; one of another type than the format reads is an error that
//! names the field, and the line becomes an error document as a line that is not JSON
//! does.

use serde::de::Error as _;
use serde_json_borrow::{ObjectAsVec, Value as Tree};

/// What reading a field, an object or a payload gives.
pub type Read<T> = Result<T, serde_json::Error>;

/// The payload `text` as a tree.
pub fn parse(text: &str) -> Result<Tree<'_>, serde_json::Error> {
    docstream_model::read_json::from_str(text)
}

/// The fields of one JSON object.
#[derive(Clone, Copy)]
pub struct Fields<'v, 'a>(&'v ObjectAsVec<'a>);

/// What a JSON value is, for error messages.
fn kind_of(v: &Tree<'_>) -> &'static str {
    match v {
        Tree::Null => "null",
        Tree::Bool(_) => "a boolean",
        Tree::Number(_) => "a number",
        Tree::Str(_) => "a string",
        Tree::Array(_) => "an array",
        Tree::Object(_) => "an object",
    }
}

/// "`what` should be `expected`, found …": the error of a value of another type.
pub fn wrong(what: &str, expected: &str, found: &Tree<'_>) -> serde_json::Error {
    serde_json::Error::custom(format_args!(
        "{what} should be {expected}, found {}",
        kind_of(found)
    ))
}

impl<'v, 'a> Fields<'v, 'a> {
    /// The fields of `v`, which has to be an object (`what` names it in the error).
    pub fn of(v: &'v Tree<'a>, what: &str) -> Result<Self, serde_json::Error> {
        match v {
            Tree::Object(o) => Ok(Fields(o)),
            other => Err(wrong(what, "an object", other)),
        }
    }

    /// The field `key` unless it is absent or `null` (the first of repeated keys).
    pub fn get(self, key: &str) -> Option<&'v Tree<'a>> {
        self.0.get(key).filter(|v| !v.is_null())
    }

    /// The field `key` read by `read`, which says what it expected where it found
    /// something else.
    fn typed<T>(
        self,
        key: &str,
        expected: &str,
        read: impl FnOnce(&'v Tree<'a>) -> Option<T>,
    ) -> Result<Option<T>, serde_json::Error> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => match read(v) {
                Some(t) => Ok(Some(t)),
                None => Err(wrong(&format!("field `{key}`"), expected, v)),
            },
        }
    }

    /// A string field.
    pub fn str(self, key: &str) -> Result<Option<&'v str>, serde_json::Error> {
        self.typed(key, "a string", |v| match v {
            Tree::Str(s) => Some(s.as_ref()),
            _ => None,
        })
    }

    /// A string field, owned.
    pub fn string(self, key: &str) -> Result<Option<String>, serde_json::Error> {
        Ok(self.str(key)?.map(str::to_owned))
    }

    /// An integer field.
    pub fn i64(self, key: &str) -> Result<Option<i64>, serde_json::Error> {
        self.typed(key, "an integer", Tree::as_i64)
    }

    /// A non-negative integer field.
    pub fn u64(self, key: &str) -> Result<Option<u64>, serde_json::Error> {
        self.typed(key, "a non-negative integer", Tree::as_u64)
    }

    /// A number field, whole or not.
    pub fn f64(self, key: &str) -> Result<Option<f64>, serde_json::Error> {
        self.typed(key, "a number", Tree::as_f64)
    }

    /// A boolean field.
    pub fn bool(self, key: &str) -> Result<Option<bool>, serde_json::Error> {
        self.typed(key, "a boolean", Tree::as_bool)
    }

    /// An object field.
    pub fn object(self, key: &str) -> Result<Option<Fields<'v, 'a>>, serde_json::Error> {
        self.typed(key, "an object", |v| v.as_object().map(Fields))
    }

    /// An array field.
    pub fn array(self, key: &str) -> Result<Option<&'v [Tree<'a>]>, serde_json::Error> {
        self.typed(key, "an array", Tree::as_array)
    }

    /// An array field whose elements are objects, each read by `read`.
    pub fn list<T>(
        self,
        key: &str,
        read: impl FnMut(Fields<'v, 'a>) -> Result<T, serde_json::Error>,
    ) -> Result<Option<Vec<T>>, serde_json::Error> {
        self.array(key)?
            .map(|items| each(items, key, read))
            .transpose()
    }

    /// An array field whose elements are strings.
    pub fn strs(self, key: &str) -> Result<Option<Vec<&'v str>>, serde_json::Error> {
        self.array(key)?
            .map(|items| each_str(items, key))
            .transpose()
    }

    /// Any field, as an owned JSON value.
    pub fn value(self, key: &str) -> Option<serde_json::Value> {
        self.get(key).map(serde_json::Value::from)
    }
}

/// Each element of `items` read by `read`, as the elements of the field `key`
/// (objects, which `read` takes the fields of).
pub fn each<'v, 'a, T>(
    items: &'v [Tree<'a>],
    key: &str,
    mut read: impl FnMut(Fields<'v, 'a>) -> Result<T, serde_json::Error>,
) -> Result<Vec<T>, serde_json::Error> {
    items
        .iter()
        .map(|v| read(Fields::of(v, &format!("an element of `{key}`"))?))
        .collect()
}

/// The elements of the array field `key`, which have to be strings.
pub fn each_str<'v>(items: &'v [Tree<'_>], key: &str) -> Result<Vec<&'v str>, serde_json::Error> {
    items
        .iter()
        .map(|v| match v {
            Tree::Str(s) => Ok(s.as_ref()),
            other => Err(wrong(&format!("an element of `{key}`"), "a string", other)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with<T>(text: &str, f: impl FnOnce(Fields<'_, '_>) -> T) -> T {
        let tree = parse(text).unwrap();
        f(Fields::of(&tree, "the line").unwrap())
    }

    #[test]
    fn getters_read_their_type_and_treat_null_as_absent() {
        with(
            r#"{"s":"a\"b","n":-3,"u":7,"b":true,"o":{"k":"v"},"a":[1],"z":null}"#,
            |f| {
                assert_eq!(f.str("s").unwrap(), Some("a\"b"));
                assert_eq!(f.i64("n").unwrap(), Some(-3));
                assert_eq!(f.u64("u").unwrap(), Some(7));
                assert_eq!(f.f64("n").unwrap(), Some(-3.0));
                assert_eq!(f.bool("b").unwrap(), Some(true));
                assert_eq!(f.object("o").unwrap().unwrap().str("k").unwrap(), Some("v"));
                assert_eq!(f.array("a").unwrap().unwrap().len(), 1);
                assert_eq!(f.str("z").unwrap(), None);
                assert_eq!(f.str("missing").unwrap(), None);
                assert_eq!(f.value("o"), Some(serde_json::json!({"k": "v"})));
                assert_eq!(f.value("z"), None);
            },
        );
    }

    #[test]
    fn a_field_of_another_type_is_an_error_naming_it() {
        with(r#"{"text":5,"n":-1,"items":["x"]}"#, |f| {
            let e = f.str("text").unwrap_err();
            assert_eq!(
                e.to_string(),
                "field `text` should be a string, found a number"
            );
            assert!(e.is_data());
            let e = f.u64("n").unwrap_err();
            assert_eq!(
                e.to_string(),
                "field `n` should be a non-negative integer, found a number"
            );
            let items = f.array("items").unwrap().unwrap();
            let e = each(items, "items", |i| i.str("text")).unwrap_err();
            assert_eq!(
                e.to_string(),
                "an element of `items` should be an object, found a string"
            );
            assert_eq!(each_str(items, "items").unwrap(), ["x"]);
            let e = each_str(f.array("items").unwrap().unwrap(), "items")
                .and(each_str(&[Tree::Bool(true)], "tags"));
            let e = e.unwrap_err();
            assert_eq!(
                e.to_string(),
                "an element of `tags` should be a string, found a boolean"
            );
            let e = f.f64("items").unwrap_err();
            assert_eq!(
                e.to_string(),
                "field `items` should be a number, found an array"
            );
        });
        let tree = parse("[1]").unwrap();
        let e = Fields::of(&tree, "the line").err().unwrap();
        assert_eq!(
            e.to_string(),
            "the line should be an object, found an array"
        );
    }

    #[test]
    fn a_repeated_key_keeps_its_first_value() {
        with(r#"{"id":"item","id":"search"}"#, |f| {
            assert_eq!(f.str("id").unwrap(), Some("item"));
        });
    }
}
