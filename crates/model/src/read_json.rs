//! JSON into typed structs, a struct read from a JSON object only.
//!
//! serde's derived `Deserialize` accepts a struct as an object or as an array of its
//! fields in order, and serde_json's `deserialize_struct` takes both, so every struct
//! type is compiled twice: `visit_map` and a `visit_seq` that no stream of any format
//! sends. [`Objects`] wraps a deserializer and everything it hands out (visitors, seeds,
//! map, sequence and enum access), and reads a struct with `deserialize_map`: the array
//! form is never reached, so the compiler drops it. A struct given as an array is an
//! error ("invalid type: sequence, expected struct …"), as it is for any other value
//! that is not an object.
//!
//! In the WebAssembly module this takes 89 KB off (22.7 KB gzip). Everything else is
//! forwarded as it is: borrowed strings, `RawValue` (its marker newtype reaches
//! serde_json untouched), `Value`, enums.

use serde::de::{
    self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, MapAccess,
    SeqAccess, VariantAccess, Visitor,
};
use serde_json::Value;
use std::fmt;

/// Reads `T` from JSON text, as `serde_json::from_str` does (trailing whitespace only).
pub fn from_str<'a, T: Deserialize<'a>>(text: &'a str) -> Result<T, serde_json::Error> {
    whole(serde_json::Deserializer::from_str(text))
}

/// Reads `T` from JSON bytes, as `serde_json::from_slice` does.
pub fn from_slice<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, serde_json::Error> {
    whole(serde_json::Deserializer::from_slice(bytes))
}

/// Reads `T` from all of `de`'s input: one value, then only whitespace.
fn whole<'a, R: serde_json::de::Read<'a>, T: Deserialize<'a>>(
    mut de: serde_json::Deserializer<R>,
) -> Result<T, serde_json::Error> {
    let value = T::deserialize(Objects(&mut de))?;
    de.end()?;
    Ok(value)
}

/// Reads `T` from a JSON value, as `serde_json::from_value` does.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, serde_json::Error> {
    T::deserialize(Objects(value))
}

/// What a JSON value is, for error messages: `null`, `a boolean`, `a number`, `a string`,
/// `an array`, `an object`.
pub fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A deserializer, visitor, seed or access whose structs are read from objects only.
pub struct Objects<T>(pub T);

macro_rules! forward_deserialize {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
            self.0.$method(Objects(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Objects<D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf
        deserialize_option deserialize_unit deserialize_seq deserialize_map
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Objects(visitor))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_unit_struct(name, Objects(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_newtype_struct(name, Objects(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple(len, Objects(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_tuple_struct(name, len, Objects(visitor))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_enum(name, variants, Objects(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident: $ty:ty)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<V::Value, E> {
            self.0.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Objects<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    forward_visit! {
        visit_bool: bool visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64
        visit_i128: i128 visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64
        visit_u128: u128 visit_f32: f32 visit_f64: f64 visit_char: char visit_str: &str
        visit_borrowed_str: &'de str visit_string: String visit_bytes: &[u8]
        visit_borrowed_bytes: &'de [u8] visit_byte_buf: Vec<u8>
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Objects(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Objects(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Objects(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.0.visit_map(Objects(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Objects(data))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Objects<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Objects(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Objects<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Objects(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Objects<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Objects(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Objects(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Objects<A> {
    type Error = A::Error;
    type Variant = Objects<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Objects(seed))?;
        Ok((value, Objects(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Objects<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Objects(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Objects(visitor))
    }

    /// A struct variant's fields, read as a newtype variant's object (the access's own
    /// `struct_variant` would take an array too).
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.newtype_variant_seed(StructFields(visitor))
    }
}

/// A struct variant's fields as a seed: read from an object only.
struct StructFields<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for StructFields<V> {
    type Value = V::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_map(Objects(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;
    use serde_json::value::RawValue;

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Line<'a> {
        #[serde(rename = "type")]
        kind: &'a str,
        #[serde(borrow)]
        text: Option<std::borrow::Cow<'a, str>>,
        parts: Vec<Part>,
        #[serde(default)]
        nested: Option<Box<Line<'a>>>,
        raw: Option<&'a RawValue>,
        #[serde(default)]
        kinds: Vec<Kind>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Part {
        n: u64,
        x: f64,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Unit,
        Newtype(String),
        Tuple(u8, u8),
        Struct { a: bool },
    }

    const LINE: &str = r#"{"type":"t","text":"a\"b","parts":[{"n":1,"x":0.5}],
        "nested":{"type":"u","text":null,"parts":[],"raw":null},
        "raw":{"k":[1, 2]},"kinds":["unit",{"newtype":"s"},{"tuple":[1,2]},{"struct":{"a":true}}]}"#;

    #[test]
    fn reads_what_serde_json_reads() {
        let ours: Line<'_> = from_str(LINE).unwrap();
        let from_bytes: Line<'_> = from_slice(LINE.as_bytes()).unwrap();
        assert_eq!(format!("{ours:?}"), format!("{from_bytes:?}"));
        let theirs: Line<'_> = serde_json::from_str(LINE).unwrap();
        assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        assert_eq!((ours.kind, ours.text.as_deref()), ("t", Some("a\"b")));
        assert_eq!(ours.parts, [Part { n: 1, x: 0.5 }]);
        let nested = ours.nested.as_deref().unwrap();
        assert_eq!(
            (nested.kind, nested.text.is_none(), nested.raw.is_none()),
            ("u", true, true)
        );
        assert_eq!(ours.raw.unwrap().get(), r#"{"k":[1, 2]}"#);
        assert_eq!(ours.kinds[3], Kind::Struct { a: true });
        let value: Value = from_str(LINE).unwrap();
        assert_eq!(value, serde_json::from_str::<Value>(LINE).unwrap());
        #[derive(Debug, Deserialize, PartialEq)]
        struct Owned {
            parts: Vec<Part>,
            kinds: Vec<Kind>,
        }
        let v: Value = serde_json::from_str(LINE).unwrap();
        assert_eq!(
            from_value::<Owned>(v.clone()).unwrap(),
            serde_json::from_value::<Owned>(v).unwrap()
        );
    }

    #[test]
    fn a_struct_is_an_object_only() {
        let array = r#"{"type":"t","parts":[[1, 0.5]]}"#;
        assert!(serde_json::from_str::<Line<'_>>(array).is_ok());
        let e = from_str::<Line<'_>>(array).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("invalid type: sequence, expected struct Part"),
            "{e}"
        );
        let e = from_value::<Part>(json!([1, 0.5])).unwrap_err();
        assert!(e.to_string().contains("expected struct Part"), "{e}");
        let e = from_str::<Kind>(r#"{"struct":[true]}"#).unwrap_err();
        assert!(e.to_string().contains("expected struct variant"), "{e}");
    }

    #[test]
    fn errors_say_where_as_serde_json_does() {
        for bad in [
            r#"{"type":"t","parts":[{"n":"1"}]}"#,
            r#"{"type":"t","parts":[] } x"#,
        ] {
            let ours = from_str::<Line<'_>>(bad).unwrap_err();
            let theirs = serde_json::from_str::<Line<'_>>(bad).unwrap_err();
            assert_eq!(ours.to_string(), theirs.to_string(), "{bad}");
        }
    }
}
