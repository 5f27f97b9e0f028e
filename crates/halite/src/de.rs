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
//! (`.targets[2].name`), and, for values of the module's files, as a place
//! in them (see [`SourceLocation`]).
//!
//! # A whole configuration
//!
//! [`Workspace::decode`](crate::Workspace::decode) decodes the module's
//! structure, not a value, as `gohcl.DecodeBody` and hcl-rs's `from_str`
//! do:
//!
//! - A body (the configuration's top level, or a block's) is a struct or a
//!   map: its attributes and its block types are the fields. Unknown fields
//!   are ignored unless the type says `#[serde(deny_unknown_fields)]`, and
//!   then each is reported where it is written.
//! - The blocks of one type are, as the field's type asks: a map keyed by
//!   their first label (a map of maps by the next, and so on); a sequence
//!   (`Vec`), in source order, one block included; one struct, when there
//!   is exactly one block (`Option` when there may be none); a missing block
//!   type is a missing field, so a `Vec` of blocks that may be absent wants
//!   `#[serde(default)]`.
//! - Labels not taken as map keys go to the struct's fields named with an
//!   `@` (`#[serde(rename = "@name")]`), in the order the struct declares
//!   them; a block with labels that have no such field is an error, so no
//!   label is dropped unseen.
//! - Attributes are values, converted as above.
//!
//! `variable` and `locals` blocks are the module's own declarations and
//! not fields of the configuration. Without a schema a JSON file's blocks
//! nest one level: what is inside a block is attributes (an object value
//! decodes as a struct or map all the same).

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

/// Why a value could not be decoded, where in the value, and, when it came
/// from the module's files, where in them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// What the path starts from: an address for
    /// [`Workspace::value_as`](crate::Workspace::value_as).
    root: String,
    /// Steps from the decoded value to the part at fault, outermost first.
    path: Vec<PathStep>,
    message: String,
    /// The innermost place in the files the error is about, until it is
    /// turned into a [`SourceLocation`].
    origin: Option<Box<Origin>>,
    location: Option<Box<SourceLocation>>,
}

/// Where in the module a decode error is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    pub(crate) file: db::File,
    pub(crate) location: db::module::Location,
    pub(crate) part: db::module::RangeOf,
}

/// Where a [`DecodeError`] is in the files: the path, the line and column
/// (both from 1, columns in characters), the byte range, and the error
/// rendered as every diagnostic is, with the source lines it points at.
///
/// ```
/// let mut workspace = halite::Workspace::new("m");
/// workspace.add_file("m/a.hcl", "locals {\n  port = \"http\"\n}\n");
/// let halite::Error::Decode(error) = workspace.value_as::<u16>("local.port").unwrap_err() else { panic!() };
/// let location = error.location().expect("a place in the files");
/// assert_eq!((location.path.as_str(), location.line, location.column), ("m/a.hcl", 2, 10));
/// assert_eq!(location.range, 18..24);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLocation {
    pub path: camino::Utf8PathBuf,
    pub line: usize,
    pub column: usize,
    pub range: std::ops::Range<usize>,
    rendered: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PathStep {
    Index(usize),
    Key(String),
}

impl DecodeError {
    pub(crate) fn new(message: impl Into<String>) -> DecodeError {
        DecodeError {
            root: String::new(),
            path: Vec::new(),
            message: message.into(),
            origin: None,
            location: None,
        }
    }

    /// The same error, one step further from the decoded value's root.
    pub(crate) fn within(mut self, step: PathStep) -> DecodeError {
        self.path.insert(0, step);
        self
    }

    /// The same error, at `origin` unless it is at a place already.
    pub(crate) fn at(mut self, origin: Option<Origin>) -> DecodeError {
        if self.origin.is_none() {
            self.origin = origin.map(Box::new);
        }
        self
    }

    /// The same error with its path starting from `root` (an address).
    pub(crate) fn prefixed(mut self, root: &str) -> DecodeError {
        self.root = root.to_string();
        self
    }

    /// The same error with its place in the files worked out, and the
    /// lines it points at rendered.
    pub(crate) fn located(mut self, db: &db::RootDatabase) -> DecodeError {
        let Some(origin) = self.origin.take() else { return self };
        let range = db::module::location_range(db, origin.file, &origin.location, origin.part);
        let start = analysis::line_index(db, origin.file).line_col(range.start());
        let mut diagnostic = analysis::Diagnostic::new(
            analysis::Severity::Error,
            "decode-error",
            self.message.clone(),
            origin.file,
            range,
        );
        if !self.path().is_empty() {
            diagnostic.notes.push(format!("in {}", self.path()));
        }
        self.location = Some(Box::new(SourceLocation {
            path: origin.file.path(db).clone(),
            line: start.line as usize,
            column: start.column as usize,
            range: usize::from(range.start())..usize::from(range.end()),
            rendered: analysis::render::Human::new(false).render(db, &diagnostic),
        }));
        self
    }

    /// What went wrong, without the path.
    ///
    /// ```
    /// let error = halite::from_value::<u8>(&halite::Value::int(-1)).unwrap_err();
    /// assert_eq!(error.message(), "the number -1 is out of range for u8");
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Where in the files it went wrong, if the value came from them.
    ///
    /// ```
    /// assert!(halite::from_value::<u8>(&halite::Value::int(-1)).unwrap_err().location().is_none());
    /// ```
    pub fn location(&self) -> Option<&SourceLocation> {
        self.location.as_deref()
    }

    /// The error as the command line renders a diagnostic: the message,
    /// the file, line and column, and the source lines with the part at
    /// fault underlined; without a place in the files, its one line.
    ///
    /// ```
    /// let mut workspace = halite::Workspace::new("m");
    /// workspace.add_file("m/a.hcl", "locals {\n  port = \"http\"\n}\n");
    /// let halite::Error::Decode(error) = workspace.value_as::<u16>("local.port").unwrap_err() else { panic!() };
    /// assert_eq!(error.render(), "\
    /// error[decode-error]: expected a number (u16), found the string \"http\"
    ///  --> m/a.hcl:2:10
    ///   |
    /// 2 |   port = \"http\"
    ///   |          ^^^^^^
    ///   |
    ///   = note: in local.port");
    /// ```
    pub fn render(&self) -> String {
        match &self.location {
            Some(location) => location.rendered.clone(),
            None => self.to_string(),
        }
    }

    /// Where it went wrong, as `.name[0].key` from the decoded value (or
    /// from the address it was decoded from); empty at the root.
    ///
    /// ```
    /// use halite::Value;
    ///
    /// let value = Value::object_from([("ports", Value::tuple(vec![Value::string("x")]))]);
    /// let error = halite::from_value::<std::collections::BTreeMap<String, Vec<u16>>>(&value).unwrap_err();
    /// assert_eq!(error.path(), ".ports[0]");
    /// ```
    pub fn path(&self) -> String {
        let mut out = self.root.clone();
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
    crate::address::is_identifier(key)
}

impl fmt::Display for DecodeError {
    /// `path:line:column: at PATH: message`, without what is not known.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(location) = &self.location {
            write!(f, "{}:{}:{}: ", location.path, location.line, location.column)?;
        }
        let path = self.path();
        if path.is_empty() { f.write_str(&self.message) } else { write!(f, "at {path}: {}", self.message) }
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
            return visitor.visit_map(MapAccess { entries: entries.into_iter(), current: None });
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
            Some(entries) => visitor.visit_map(MapAccess { entries: entries.into_iter(), current: None }),
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
            Some(entries) => visitor.visit_map(MapAccess { entries: entries.into_iter(), current: None }),
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
    entries: <&'de value::Entries as IntoIterator>::IntoIter,
    current: Option<(&'de String, &'de Value)>,
}

impl<'de> de::MapAccess<'de> for MapAccess<'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        let Some((key, value)) = self.entries.next() else { return Ok(None) };
        self.current = Some((key, value));
        seed.deserialize(KeyDeserializer(key))
            .map(Some)
            .map_err(|error| error.within(PathStep::Key(key.clone())))
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

/// A map's key or a block's label: a string, read as a number or a bool
/// where the type asks for one (a `BTreeMap<u16, _>`), as go-cty converts
/// a string.
pub(crate) struct KeyDeserializer<'de>(pub(crate) &'de str);

macro_rules! deserialize_parsed {
    ($($method:ident $visit:ident $ty:ty),*) => {
        $(fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            match self.0.parse::<$ty>() {
                Ok(parsed) => visitor.$visit(parsed),
                Err(_) => Err(DecodeError::new(format!(
                    "expected {}, found the string {:?}", stringify!($ty), self.0
                ))),
            }
        })*
    };
}

impl<'de> de::Deserializer<'de> for KeyDeserializer<'de> {
    type Error = DecodeError;

    deserialize_parsed!(
        deserialize_bool visit_bool bool, deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64, deserialize_i128 visit_i128 i128,
        deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16, deserialize_u32 visit_u32 u32,
        deserialize_u64 visit_u64 u64, deserialize_u128 visit_u128 u128, deserialize_f32 visit_f32 f32,
        deserialize_f64 visit_f64 f64, deserialize_char visit_char char
    );

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_borrowed_str(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let variant: de::value::BorrowedStrDeserializer<'de, DecodeError> =
            de::value::BorrowedStrDeserializer::new(self.0);
        visitor.visit_enum(variant)
    }

    serde::forward_to_deserialize_any! {
        str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
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

pub(crate) mod body;
#[cfg(test)]
mod tests;
