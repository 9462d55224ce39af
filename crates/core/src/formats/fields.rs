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

/// The field the closure `read` computes from the fields `f`: what [`wire!`] writes for
/// a field it has no getter for.
pub(crate) fn by<'v, 'a, T>(
    f: Fields<'v, 'a>,
    read: impl FnOnce(Fields<'v, 'a>) -> Read<T>,
) -> Read<T> {
    read(f)
}

/// Declares a wire struct and its `read(f: Fields) -> Read<Self>` from one list of
/// fields: each field's name, the getter of [`Fields`] that reads it and its JSON key.
///
/// ```text
/// wire! {
///     /// `{type, message, code?}`.
///     struct JsonError { kind: string "type", message: string "message" }
/// }
/// ```
///
/// A field is `name: getter "key"`, read as `f.getter("key")?` into an `Option`:
///
/// | getter | the field's type |
/// |---|---|
/// | `str`, `string` | `Option<&'v str>`, `Option<String>` |
/// | `bool`, `u64`, `i64`, `f64` | `Option<bool>` … |
/// | `strs` | `Option<Vec<&'v str>>` |
/// | `value` | `Option<serde_json::Value>` (owned; never an error) |
/// | `get` | `Option<&'v Tree<'a>>` (any value; never an error) |
/// | `array` | `Option<&'v [Tree<'a>]>` |
/// | `object` | `Option<Fields<'v, 'a>>` |
/// | `object<T>` | `Option<T>`, the object read by `T::read` |
/// | `list<T>` | `Option<Vec<T>>`, each element read by `T::read` |
///
/// Keys written `"a" | "b"` are spellings of one field: the first one present is read
/// (the others are not looked at). After the keys, `lenient` reads a value of another
/// type as absent rather than as the payload's error, and `or_default` drops the
/// `Option` (`unwrap_or_default`): `kind: str "type" or_default` is a `&'v str`, empty
/// when absent; `lenient or_default` does both.
///
/// A field computed by hand is `name: Type = |f| …`, a closure from the [`Fields`] to a
/// [`Read`]. Fields are read in the order written, so the first one of the wrong type is
/// the error. The struct takes no lifetime, `<'v>` (it borrows strings of the payload)
/// or `<'v, 'a>` (it keeps parts of the tree; with `<'v>` alone, a tree is a
/// `Tree<'v>`); attributes and doc comments stay on the struct and its fields, and the
/// struct's visibility is its `read`'s.
macro_rules! wire {
    // The struct: no lifetime, the borrowed payload `'v`, or also the tree's `'a`. The
    // lifetimes after the generics: those of the fields' types (a struct with one
    // lifetime holds the tree as `Tree<'v>`), then the tree's in `read`'s `Fields`.
    ($(#[$attr:meta])* $vis:vis struct $name:ident { $($body:tt)* }) => {
        $crate::formats::fields::wire!(
            @munch f [$(#[$attr])*] $vis $name [] ['_ '_ '_] [] [] $($body)*
        );
    };
    ($(#[$attr:meta])* $vis:vis struct $name:ident <$v:lifetime> { $($body:tt)* }) => {
        $crate::formats::fields::wire!(
            @munch f [$(#[$attr])*] $vis $name [<$v>] [$v $v '_] [] [] $($body)*
        );
    };
    ($(#[$attr:meta])* $vis:vis struct $name:ident <$v:lifetime, $a:lifetime> {
        $($body:tt)*
    }) => {
        $crate::formats::fields::wire!(
            @munch f [$(#[$attr])*] $vis $name [<$v, $a>] [$v $a $a] [] [] $($body)*
        );
    };
    // All fields read: the struct and its `read`.
    (@munch $f:ident [$(#[$attr:meta])*] $vis:vis $name:ident [$($gen:tt)*]
        [$v:lifetime $a:lifetime $fa:lifetime]
        [$($fields:tt)*] [$($inits:tt)*]) => {
        $(#[$attr])*
        $vis struct $name $($gen)* { $($fields)* }

        impl $($gen)* $name $($gen)* {
            /// Reads the fields `f`; a field of another type than its getter reads is
            /// an error that names it.
            $vis fn read(
                $f: $crate::formats::fields::Fields<$v, $fa>,
            ) -> $crate::formats::fields::Read<Self> {
                Ok(Self { $($inits)* })
            }
        }
    };
    // A field computed by hand (first: every getter's syntax parses as a type too).
    (@munch $f:ident $head:tt $vis:vis $name:ident $gen:tt [$v:lifetime $a:lifetime $fa:lifetime]
        [$($fields:tt)*] [$($inits:tt)*]
        $(#[$fattr:meta])* $fvis:vis $field:ident : $ty:ty = $read:expr
        $(, $($rest:tt)*)?) => {
        $crate::formats::fields::wire!(@munch $f $head $vis $name $gen [$v $a $fa]
            [$($fields)* $(#[$fattr])* $fvis $field: $ty,]
            [$($inits)* $field: $crate::formats::fields::by($f, $read)?,]
            $($($rest)*)?);
    };
    // A field read by a getter.
    (@munch $f:ident $head:tt $vis:vis $name:ident $gen:tt [$v:lifetime $a:lifetime $fa:lifetime]
        [$($fields:tt)*] [$($inits:tt)*]
        $(#[$fattr:meta])* $fvis:vis $field:ident :
        $get:ident $(<$t:ty>)? $key:literal $(| $alt:literal)* $($modifier:ident)*
        $(, $($rest:tt)*)?) => {
        $crate::formats::fields::wire!(@munch $f $head $vis $name $gen [$v $a $fa]
            [$($fields)* $(#[$fattr])* $fvis $field:
                $crate::formats::fields::wire!(@type [$($modifier)*] [$get $(<$t>)?] $v $a),]
            [$($inits)* $field:
                $crate::formats::fields::wire!(
                    @read [$($modifier)*] $f [$get $(<$t>)?] $key $(| $alt)*
                ),]
            $($($rest)*)?);
    };
    // A field's type: without `or_default`, an `Option`.
    (@type [$(lenient)?] $get:tt $v:lifetime $a:lifetime) => {
        ::std::option::Option<$crate::formats::fields::wire!(@type $get $v $a)>
    };
    (@type [$(lenient)? or_default] $get:tt $v:lifetime $a:lifetime) => {
        $crate::formats::fields::wire!(@type $get $v $a)
    };
    (@type [str] $v:lifetime $a:lifetime) => { &$v str };
    (@type [string] $v:lifetime $a:lifetime) => { ::std::string::String };
    (@type [bool] $v:lifetime $a:lifetime) => { bool };
    (@type [u64] $v:lifetime $a:lifetime) => { u64 };
    (@type [i64] $v:lifetime $a:lifetime) => { i64 };
    (@type [f64] $v:lifetime $a:lifetime) => { f64 };
    (@type [strs] $v:lifetime $a:lifetime) => { ::std::vec::Vec<&$v str> };
    (@type [value] $v:lifetime $a:lifetime) => { ::serde_json::Value };
    (@type [get] $v:lifetime $a:lifetime) => { &$v ::serde_json_borrow::Value<$a> };
    (@type [array] $v:lifetime $a:lifetime) => { &$v [::serde_json_borrow::Value<$a>] };
    (@type [object] $v:lifetime $a:lifetime) => { $crate::formats::fields::Fields<$v, $a> };
    (@type [object<$t:ty>] $v:lifetime $a:lifetime) => { $t };
    (@type [list<$t:ty>] $v:lifetime $a:lifetime) => { ::std::vec::Vec<$t> };
    // How a field is read: its getter's `Read<Option<_>>`, then `?` (or, `lenient`,
    // `None` for a value of another type), then `or_default`.
    (@read [] $f:ident $get:tt $($keys:tt)+) => {
        $crate::formats::fields::wire!(@try $f $get $($keys)+)?
    };
    (@read [or_default] $f:ident $get:tt $($keys:tt)+) => {
        $crate::formats::fields::wire!(@try $f $get $($keys)+)?.unwrap_or_default()
    };
    (@read [lenient] $f:ident $get:tt $($keys:tt)+) => {
        $crate::formats::fields::wire!(@try $f $get $($keys)+).ok().flatten()
    };
    (@read [lenient or_default] $f:ident $get:tt $($keys:tt)+) => {
        $crate::formats::fields::wire!(@try $f $get $($keys)+)
            .ok()
            .flatten()
            .unwrap_or_default()
    };
    (@try $f:ident $get:tt $key:literal | $($alts:tt)+) => {
        match $crate::formats::fields::wire!(@try $f $get $key) {
            ::std::result::Result::Ok(::std::option::Option::None) => {
                $crate::formats::fields::wire!(@try $f $get $($alts)+)
            }
            found => found,
        }
    };
    (@try $f:ident [value] $key:literal) => {
        $crate::formats::fields::Read::Ok($f.value($key))
    };
    (@try $f:ident [get] $key:literal) => { $crate::formats::fields::Read::Ok($f.get($key)) };
    (@try $f:ident [object<$t:ty>] $key:literal) => {
        $f.object($key).and_then(|o| o.map(<$t>::read).transpose())
    };
    (@try $f:ident [list<$t:ty>] $key:literal) => { $f.list($key, <$t>::read) };
    (@try $f:ident [$get:ident] $key:literal) => { $f.$get($key) };
}
pub(crate) use wire;

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

    wire! {
        /// Every getter, `or_default` and a field computed by hand.
        struct Every<'v, 'a> {
            s: str "s",
            owned: string "s",
            kind: str "type" or_default,
            b: bool "b",
            u: u64 "u",
            zero: u64 "absent" or_default,
            n: i64 "n",
            x: f64 "x",
            tags: strs "tags",
            any: value "o",
            raw: get "o",
            a: array "a",
            o: object "o",
            inner: object<Inner> "o",
            items: list<Inner> "items",
            none: list<Inner> "absent" or_default,
            /// By hand: whether `z` is there.
            has_z: bool = |f| Ok(f.get("z").is_some()),
            either: u64 "absent" | "u" | "s",
            loose: str "u" lenient,
            loose_flag: bool "s" lenient or_default,
        }
    }

    wire! {
        struct Inner {
            k: string "k",
        }
    }

    #[test]
    fn wire_structs_read_each_field_by_its_getter() {
        let text = r#"{"s":"a","type":"t","b":false,"u":7,"n":-2,"x":1.5,"tags":["p","q"],
            "o":{"k":"v"},"a":[1,2],"items":[{"k":"i"},{}]}"#;
        with(text, |f| {
            let e = Every::read(f).unwrap();
            assert_eq!(
                (e.s, e.owned.as_deref(), e.kind),
                (Some("a"), Some("a"), "t")
            );
            assert_eq!(
                (e.b, e.u, e.zero, e.n, e.x),
                (Some(false), Some(7), 0, Some(-2), Some(1.5))
            );
            assert_eq!(e.tags, Some(vec!["p", "q"]));
            assert_eq!(e.any, Some(serde_json::json!({"k": "v"})));
            assert!(e.raw.is_some_and(Tree::is_object));
            assert_eq!(e.a.map(<[_]>::len), Some(2));
            assert_eq!(e.o.unwrap().str("k").unwrap(), Some("v"));
            assert_eq!(e.inner.unwrap().k.as_deref(), Some("v"));
            let items: Vec<_> = e.items.unwrap().into_iter().map(|i| i.k).collect();
            assert_eq!(items, [Some("i".to_owned()), None]);
            assert!(e.none.is_empty());
            assert!(!e.has_z);
            assert_eq!(e.either, Some(7));
            assert_eq!((e.loose, e.loose_flag), (None, false));
        });
        with(r#"{"type":null}"#, |f| {
            assert_eq!(Every::read(f).unwrap().kind, "")
        });
    }

    #[test]
    fn a_wire_struct_names_its_first_field_of_another_type() {
        for (text, error) in [
            (
                r#"{"s":1,"u":-1}"#,
                "field `s` should be a string, found a number",
            ),
            (
                r#"{"u":-1}"#,
                "field `u` should be a non-negative integer, found a number",
            ),
            (
                r#"{"o":{"k":true}}"#,
                "field `k` should be a string, found a boolean",
            ),
            (
                r#"{"items":[3]}"#,
                "an element of `items` should be an object, found a number",
            ),
        ] {
            let read = with(text, |f| Every::read(f).err().map(|e| e.to_string()));
            assert_eq!(read.as_deref(), Some(error), "{text}");
        }
    }
}
