//! [`to_value`]: any `Serialize` as a [`Value`], for variables and roots.
//!
//! The mapping is the one [`crate::de`] reads back: booleans, numbers and
//! strings are themselves (a `char` a string of one); `None` and `()` are
//! null; a `Some` is its content; sequences and tuples are tuples (an
//! HCL tuple converts to the list, set or tuple a variable's type asks
//! for); maps and structs are objects, map keys being strings, numbers or
//! booleans written as strings; a unit variant is its name, and a variant
//! with content a one-attribute object naming it. Bytes are a tuple of
//! numbers. A NaN has no HCL value and is an error.

use std::collections::BTreeMap;
use std::fmt;

use serde::ser::{self, Serialize};
use value::{Number, Type, Value};

/// `value` as a [`Value`].
///
/// ```
/// use halite::{Value, Workspace, to_value};
///
/// #[derive(serde::Serialize)]
/// struct Build { profile: &'static str, jobs: u8, features: Vec<&'static str> }
///
/// let build = to_value(&Build { profile: "release", jobs: 4, features: vec!["simd"] })?;
/// assert_eq!(build.entries().unwrap()["jobs"], Value::int(4));
///
/// let mut workspace = Workspace::new("m");
/// workspace.add_file("m/a.hcl", "variable \"build\" {}\nlocals { flags = join(\",\", var.build.features) }");
/// workspace.set_variable("build", build);
/// assert_eq!(workspace.value("local.flags")?, Value::string("simd"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, EncodeError> {
    value.serialize(ValueSerializer)
}

/// Why a Rust value has no HCL value.
///
/// ```
/// let error = halite::to_value(&f64::NAN).unwrap_err();
/// assert_eq!(error.to_string(), "NaN is not a number HCL has");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodeError {
    message: String,
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EncodeError {}

impl ser::Error for EncodeError {
    fn custom<T: fmt::Display>(message: T) -> EncodeError {
        EncodeError { message: message.to_string() }
    }
}

fn error(message: impl Into<String>) -> EncodeError {
    EncodeError { message: message.into() }
}

fn float(v: f64) -> Result<Value, EncodeError> {
    if v.is_nan() {
        return Err(error("NaN is not a number HCL has"));
    }
    let number = if v.is_infinite() {
        if v > 0.0 { Number::pos_inf() } else { Number::neg_inf() }
    } else {
        // The shortest text that reads back as `v`.
        Number::parse(&v.to_string()).ok_or_else(|| error(format!("{v} is not a number HCL reads")))?
    };
    Ok(Value::number(number))
}

struct ValueSerializer;

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = EncodeError;
    type SerializeSeq = Elements;
    type SerializeTuple = Elements;
    type SerializeTupleStruct = Elements;
    type SerializeTupleVariant = Variant<Elements>;
    type SerializeMap = Entries;
    type SerializeStruct = Entries;
    type SerializeStructVariant = Variant<Entries>;

    fn serialize_bool(self, v: bool) -> Result<Value, EncodeError> {
        Ok(Value::bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, EncodeError> {
        Ok(Value::int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, EncodeError> {
        Ok(Value::int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, EncodeError> {
        Ok(Value::int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, EncodeError> {
        Ok(Value::int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value, EncodeError> {
        Number::parse(&v.to_string()).map(Value::number).ok_or_else(|| error("an integer HCL cannot read"))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, EncodeError> {
        Ok(Value::int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, EncodeError> {
        Ok(Value::int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, EncodeError> {
        Ok(Value::int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, EncodeError> {
        Ok(Value::number(Number::from_u64(v)))
    }
    fn serialize_u128(self, v: u128) -> Result<Value, EncodeError> {
        Number::parse(&v.to_string()).map(Value::number).ok_or_else(|| error("an integer HCL cannot read"))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, EncodeError> {
        // Through its own shortest text, not f64's longer one.
        if v.is_finite() {
            return Number::parse(&v.to_string())
                .map(Value::number)
                .ok_or_else(|| error("a number HCL cannot read"));
        }
        float(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<Value, EncodeError> {
        float(v)
    }
    fn serialize_char(self, v: char) -> Result<Value, EncodeError> {
        Ok(Value::string(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<Value, EncodeError> {
        Ok(Value::string(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, EncodeError> {
        Ok(Value::tuple(v.iter().map(|&byte| Value::int(byte.into())).collect()))
    }
    fn serialize_none(self) -> Result<Value, EncodeError> {
        Ok(Value::null(Type::Dynamic))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, EncodeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, EncodeError> {
        Ok(Value::null(Type::Dynamic))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, EncodeError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, EncodeError> {
        Ok(Value::string(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, EncodeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, EncodeError> {
        Ok(Value::object_from([(variant, value.serialize(self)?)]))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Elements, EncodeError> {
        Ok(Elements(Vec::with_capacity(len.unwrap_or_default())))
    }
    fn serialize_tuple(self, len: usize) -> Result<Elements, EncodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Elements, EncodeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Variant<Elements>, EncodeError> {
        Ok(Variant { name: variant, content: Elements(Vec::with_capacity(len)) })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Entries, EncodeError> {
        Ok(Entries::default())
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Entries, EncodeError> {
        Ok(Entries::default())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Variant<Entries>, EncodeError> {
        Ok(Variant { name: variant, content: Entries::default() })
    }
}

struct Elements(Vec<Value>);

impl Elements {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.0.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
}

impl ser::SerializeSeq for Elements {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::tuple(self.0))
    }
}

impl ser::SerializeTuple for Elements {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::tuple(self.0))
    }
}

impl ser::SerializeTupleStruct for Elements {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::tuple(self.0))
    }
}

#[derive(Default)]
struct Entries {
    entries: BTreeMap<String, Value>,
    key: Option<String>,
}

impl ser::SerializeMap for Entries {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), EncodeError> {
        let key = key.serialize(ValueSerializer)?;
        let text = match (key.as_str(), key.as_number(), key.as_bool()) {
            (Some(text), _, _) => text.to_string(),
            (_, Some(number), _) => number.to_plain_string(),
            (_, _, Some(b)) => b.to_string(),
            _ => {
                return Err(error(format!(
                    "a map key must be a string, a number or a bool, not {}",
                    key.ty().friendly_name()
                )));
            }
        };
        self.key = Some(text);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        let key = self.key.take().ok_or_else(|| error("a map value without its key"))?;
        self.entries.insert(key, value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::object(self.entries))
    }
}

impl ser::SerializeStruct for Entries {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.entries.insert(key.to_string(), value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::object(self.entries))
    }
}

/// A variant with content, as a one-attribute object.
struct Variant<T> {
    name: &'static str,
    content: T,
}

impl ser::SerializeTupleVariant for Variant<Elements> {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        self.content.push(value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::object_from([(self.name, Value::tuple(self.content.0))]))
    }
}

impl ser::SerializeStructVariant for Variant<Entries> {
    type Ok = Value;
    type Error = EncodeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), EncodeError> {
        ser::SerializeStruct::serialize_field(&mut self.content, key, value)
    }
    fn end(self) -> Result<Value, EncodeError> {
        Ok(Value::object_from([(self.name, Value::object(self.content.entries))]))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};

    use super::to_value;
    use crate::from_value;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Shape {
        Point,
        Circle(f64),
        Rect { w: u32, h: u32 },
        Pair(i8, i8),
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct All {
        flag: bool,
        small: i8,
        big: u64,
        wide: i128,
        ratio: f32,
        letter: char,
        text: String,
        missing: Option<String>,
        present: Option<u8>,
        shapes: Vec<Shape>,
        by_number: BTreeMap<u16, String>,
        pair: (String, bool),
    }

    #[test]
    fn values_read_back_as_what_was_written() {
        let all = All {
            flag: true,
            small: -8,
            big: u64::MAX,
            wide: -(1 << 100),
            ratio: 0.1,
            letter: 'é',
            text: "a \"b\"".to_string(),
            missing: None,
            present: Some(3),
            shapes: vec![Shape::Point, Shape::Circle(1.5), Shape::Rect { w: 2, h: 3 }, Shape::Pair(-1, 1)],
            by_number: BTreeMap::from([(80, "http".to_string())]),
            pair: ("x".to_string(), false),
        };
        let value = to_value(&all).expect("every field has a value");
        assert_eq!(from_value::<All>(&value).expect("reads back"), all);
        assert_eq!(value.entries().unwrap()["ratio"].as_number().unwrap().to_plain_string(), "0.1");
    }

    #[test]
    fn what_hcl_has_no_value_for_is_an_error() {
        assert!(to_value(&f32::NAN).is_err());
        let key_is_a_list = BTreeMap::from([(vec![1], 2)]);
        assert!(to_value(&key_is_a_list).unwrap_err().to_string().starts_with("a map key must be"));
        assert_eq!(to_value(&f64::INFINITY).unwrap().as_number().map(|n| n.to_f64()), Some(f64::INFINITY));
    }
}
