//! Decoding values into Rust types with serde: [`from_value`] and the
//! [`ValueDeserializer`] behind it.
//!
//! The mapping follows the value's kind, not its type: a known list, set or
//! tuple is a sequence; a known map or object is a map (or a struct, whose
//! unknown attributes are ignored unless the type denies them); a null is
//! `None`, `()` or a missing value; an enum is a string naming a unit
//! variant or a one-attribute object naming a variant with content.
//!
//! Primitive values convert as go-cty's conversions do when HCL decodes
//! into a Go type: a string field takes a number or a bool (`8080` becomes
//! `"8080"`), a number field takes a string that parses as a number, a bool
//! field takes `"true"` or `"false"`. Integers must be whole and in range of
//! the Rust type, or decoding fails saying which. An unknown value anywhere
//! (one that depends on something not known from configuration) is an error:
//! Rust types have no place for it.
//!
//! Errors say where they happened, as a path from the decoded value
//! (`.targets[2].name`).

use std::fmt;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use value::{Number, Value};

/// Decodes `value` into a `T`.
///
/// ```
/// use halite::de::from_value;
/// use halite::Value;
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Target {
///     command: String,
///     jobs: Option<u8>,
/// }
///
/// let value = Value::object_from([("command", Value::string("make")), ("jobs", Value::int(4))]);
/// assert_eq!(from_value::<Target>(&value).unwrap(), Target { command: "make".into(), jobs: Some(4) });
///
/// let too_many = Value::object_from([("command", Value::string("make")), ("jobs", Value::int(300))]);
/// let error = from_value::<Target>(&too_many).unwrap_err();
/// assert_eq!(error.to_string(), "at .jobs: the number 300 is out of range for u8");
/// ```
pub fn from_value<'de, T: de::Deserialize<'de>>(value: &'de Value) -> Result<T, DecodeError> {
    T::deserialize(ValueDeserializer::new(value))
}

/// Why a value could not be decoded, and where in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Steps from the decoded value to the part at fault, outermost first.
    path: Vec<PathStep>,
    message: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum PathStep {
    Index(usize),
    Key(String),
}

impl DecodeError {
    fn new(message: impl Into<String>) -> DecodeError {
        DecodeError { path: Vec::new(), message: message.into() }
    }

    /// The same error, one step further from the decoded value's root.
    fn within(mut self, step: PathStep) -> DecodeError {
        self.path.insert(0, step);
        self
    }

    /// What went wrong, without the path.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where it went wrong, as `.name[0].key`; empty at the root.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                PathStep::Index(i) => out.push_str(&format!("[{i}]")),
                PathStep::Key(key) if is_identifier(key) => {
                    out.push('.');
                    out.push_str(key);
                }
                PathStep::Key(key) => out.push_str(&format!("[{key:?}]")),
            }
        }
        out
    }
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "at {}: {}", self.path(), self.message)
        }
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(message: T) -> DecodeError {
        DecodeError::new(message.to_string())
    }
}

/// A serde deserializer reading one [`Value`].
#[derive(Clone, Copy)]
pub struct ValueDeserializer<'de> {
    value: &'de Value,
}

impl<'de> ValueDeserializer<'de> {
    pub fn new(value: &'de Value) -> ValueDeserializer<'de> {
        ValueDeserializer { value }
    }

    /// The value, or an error if it is not known.
    fn known(&self) -> Result<&'de Value, DecodeError> {
        if self.value.is_known() {
            Ok(self.value)
        } else {
            Err(DecodeError::new(format!(
                "the value is not known from the configuration (an unknown {})",
                self.value.ty().friendly_name()
            )))
        }
    }

    fn unexpected(&self, expected: &str) -> DecodeError {
        let found = if self.value.is_null() { "null".to_string() } else { self.value.ty().friendly_name() };
        DecodeError::new(format!("expected {expected}, found {found}"))
    }

    /// The value as a number, converting a string as go-cty does.
    fn number(&self, expected: &str) -> Result<Number, DecodeError> {
        let value = self.known()?;
        if let Some(number) = value.as_number() {
            return Ok(number.clone());
        }
        if let Some(text) = value.as_str() {
            return Number::parse(text)
                .ok_or_else(|| DecodeError::new(format!("expected {expected}, found the string {text:?}")));
        }
        Err(self.unexpected(expected))
    }

    /// The value as an integer of `type_name` between `min` and `max`.
    fn integer(&self, type_name: &str, min: i128, max: u128) -> Result<Integer, DecodeError> {
        let number = self.number(&format!("a number ({type_name})"))?;
        if !number.is_integer() {
            return Err(DecodeError::new(format!(
                "the number {} is not a whole number, as {type_name} requires",
                number.to_hash_string()
            )));
        }
        let below = number < Number::parse(&min.to_string()).unwrap_or_else(Number::neg_inf);
        let above = number > Number::parse(&max.to_string()).unwrap_or_else(Number::pos_inf);
        if below || above {
            return Err(DecodeError::new(format!(
                "the number {} is out of range for {type_name}",
                number.to_hash_string()
            )));
        }
        // In range, so the plain text has at most 39 digits.
        let text = number.to_plain_string();
        if let Ok(n) = text.parse::<i128>() {
            return Ok(Integer::Signed(n));
        }
        text.parse::<u128>()
            .map(Integer::Unsigned)
            .map_err(|_| DecodeError::new(format!("the number {text} is out of range for {type_name}")))
    }

    /// The value as a string, converting a number or a bool as go-cty does.
    fn string(&self) -> Result<StringValue<'de>, DecodeError> {
        let value = self.known()?;
        if let Some(text) = value.as_str() {
            return Ok(StringValue::Borrowed(text));
        }
        if let Some(number) = value.as_number() {
            return Ok(StringValue::Owned(number.to_plain_string()));
        }
        if let Some(b) = value.as_bool() {
            return Ok(StringValue::Owned(b.to_string()));
        }
        Err(self.unexpected("a string"))
    }
}

enum Integer {
    Signed(i128),
    Unsigned(u128),
}

enum StringValue<'de> {
    Borrowed(&'de str),
    Owned(String),
}

macro_rules! deserialize_integer {
    ($method:ident, $visit:ident, $ty:ty) => {
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            let integer = self.integer(stringify!($ty), <$ty>::MIN as i128, <$ty>::MAX as u128)?;
            // The range check above makes both casts exact.
            match integer {
                Integer::Signed(n) => visitor.$visit(n as $ty),
                Integer::Unsigned(n) => visitor.$visit(n as $ty),
            }
        }
    };
}

impl<'de> de::Deserializer<'de> for ValueDeserializer<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let value = self.known()?;
        if value.is_null() {
            return visitor.visit_unit();
        }
        if let Some(b) = value.as_bool() {
            return visitor.visit_bool(b);
        }
        if let Some(number) = value.as_number() {
            if number.is_integer() {
                if let Some(n) = number.to_i64() {
                    return visitor.visit_i64(n);
                }
                if let Ok(Integer::Unsigned(n)) = self.integer("u64", 0, u64::MAX.into()) {
                    return visitor.visit_u64(n as u64);
                }
            }
            return visitor.visit_f64(number.to_f64());
        }
        if let Some(text) = value.as_str() {
            return visitor.visit_borrowed_str(text);
        }
        if let Some(elements) = value.elements() {
            return visitor.visit_seq(SeqAccess { elements: elements.iter(), index: 0 });
        }
        if let Some(entries) = value.entries() {
            return visitor.visit_map(MapAccess { entries: entries.iter(), current: None });
        }
        Err(self.unexpected("a value"))
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let value = self.known()?;
        match (value.as_bool(), value.as_str()) {
            (Some(b), _) => visitor.visit_bool(b),
            (_, Some("true")) => visitor.visit_bool(true),
            (_, Some("false")) => visitor.visit_bool(false),
            _ => Err(self.unexpected("a bool")),
        }
    }

    deserialize_integer!(deserialize_i8, visit_i8, i8);
    deserialize_integer!(deserialize_i16, visit_i16, i16);
    deserialize_integer!(deserialize_i32, visit_i32, i32);
    deserialize_integer!(deserialize_i64, visit_i64, i64);
    deserialize_integer!(deserialize_i128, visit_i128, i128);
    deserialize_integer!(deserialize_u8, visit_u8, u8);
    deserialize_integer!(deserialize_u16, visit_u16, u16);
    deserialize_integer!(deserialize_u32, visit_u32, u32);
    deserialize_integer!(deserialize_u64, visit_u64, u64);
    deserialize_integer!(deserialize_u128, visit_u128, u128);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_f32(self.number("a number (f32)")?.to_f64() as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_f64(self.number("a number (f64)")?.to_f64())
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let text = match self.string()? {
            StringValue::Borrowed(text) => text.to_string(),
            StringValue::Owned(text) => text,
        };
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => visitor.visit_char(c),
            _ => Err(DecodeError::new(format!("expected a single character, found {text:?}"))),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.string()? {
            StringValue::Borrowed(text) => visitor.visit_borrowed_str(text),
            StringValue::Owned(text) => visitor.visit_string(text),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.string()? {
            StringValue::Borrowed(text) => visitor.visit_borrowed_bytes(text.as_bytes()),
            StringValue::Owned(text) => visitor.visit_byte_buf(text.into_bytes()),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if self.known()?.is_null() { visitor.visit_none() } else { visitor.visit_some(self) }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if self.known()?.is_null() { visitor.visit_unit() } else { Err(self.unexpected("null")) }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.known()?.elements() {
            Some(elements) => visitor.visit_seq(SeqAccess { elements: elements.iter(), index: 0 }),
            None => Err(self.unexpected("a list, set or tuple")),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.known()?.entries() {
            Some(entries) => visitor.visit_map(MapAccess { entries: entries.iter(), current: None }),
            None => Err(self.unexpected("a map or object")),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        match self.known()?.entries() {
            Some(entries) => visitor.visit_map(MapAccess { entries: entries.iter(), current: None }),
            None => Err(self.unexpected("an object")),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let value = self.known()?;
        if let Some(variant) = value.as_str() {
            let variant: de::value::BorrowedStrDeserializer<'de, DecodeError> =
                de::value::BorrowedStrDeserializer::new(variant);
            return visitor.visit_enum(variant);
        }
        if let Some(entries) = value.entries() {
            let mut iter = entries.iter();
            if let (Some((variant, content)), None) = (iter.next(), iter.next()) {
                return visitor
                    .visit_enum(EnumAccess { variant, content })
                    .map_err(|error| error.within(PathStep::Key(variant.clone())));
            }
        }
        Err(self.unexpected("a string naming a variant, or an object with one attribute"))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        // Whatever it is, unknown or not, nobody reads it.
        visitor.visit_unit()
    }
}

struct SeqAccess<'de> {
    elements: std::slice::Iter<'de, Value>,
    index: usize,
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DecodeError> {
        let Some(element) = self.elements.next() else { return Ok(None) };
        let index = self.index;
        self.index += 1;
        seed.deserialize(ValueDeserializer::new(element))
            .map(Some)
            .map_err(|error| error.within(PathStep::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.elements.len())
    }
}

struct MapAccess<'de> {
    entries: std::collections::btree_map::Iter<'de, String, Value>,
    current: Option<(&'de String, &'de Value)>,
}

impl<'de> de::MapAccess<'de> for MapAccess<'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        self.current = Some((key, value));
        let key_deserializer: de::value::BorrowedStrDeserializer<'de, DecodeError> =
            de::value::BorrowedStrDeserializer::new(key);
        seed.deserialize(key_deserializer).map(Some).map_err(|error| error.within(PathStep::Key(key.clone())))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        let Some((key, value)) = self.current.take() else {
            return Err(DecodeError::new("a map's value was asked for before its key"));
        };
        seed.deserialize(ValueDeserializer::new(value))
            .map_err(|error| error.within(PathStep::Key(key.clone())))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

struct EnumAccess<'de> {
    variant: &'de String,
    content: &'de Value,
}

impl<'de> de::EnumAccess<'de> for EnumAccess<'de> {
    type Error = DecodeError;
    type Variant = ValueDeserializer<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), DecodeError> {
        let variant_deserializer: de::value::BorrowedStrDeserializer<'de, DecodeError> =
            de::value::BorrowedStrDeserializer::new(self.variant);
        let variant = seed.deserialize(variant_deserializer)?;
        Ok((variant, ValueDeserializer::new(self.content)))
    }
}

impl<'de> de::VariantAccess<'de> for ValueDeserializer<'de> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        de::Deserializer::deserialize_unit(self, de::IgnoredAny).map(|_| ())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, DecodeError> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        de::Deserializer::deserialize_seq(self, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}

impl<'de> IntoDeserializer<'de, DecodeError> for ValueDeserializer<'de> {
    type Deserializer = ValueDeserializer<'de>;

    fn into_deserializer(self) -> ValueDeserializer<'de> {
        self
    }
}

#[cfg(test)]
mod tests;
