//! Values, as go-cty's `cty.Value`: known values of every type, and null
//! and unknown values of any type.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use crate::number::Number;
use crate::refine::Refinement;
use crate::ty::Type;

/// A cty value. The representation is private so that its invariants hold:
/// strings are NFC, a collection's elements all have its element type, and
/// a set's elements are distinct and in canonical order. Strings and
/// collections are shared, never mutated: a clone costs a reference count,
/// however large the value (evaluation clones what it reads, and a module
/// keeps each attribute's value and reports it). A collection carries its
/// [`Size`], so that asking it costs nothing however the value was built.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Value(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// An unknown value, with what is known of it beyond its type
    /// (`refine.rs`); `None` when nothing is, which is the common case.
    Unknown(Type, Option<Box<Refinement>>),
    Null(Type),
    Bool(bool),
    Number(Number),
    String(Arc<str>),
    List(Type, Arc<Seq>),
    Set(Type, Arc<Seq>),
    Map(Type, Arc<Entries>),
    Tuple(Arc<Seq>),
    Object(Arc<Entries>),
}

/// How large a value is written out: every value in it (itself included,
/// a shared part counted wherever it appears) and the bytes of its text
/// (strings, map keys and attribute names, numbers as
/// [`Number::text_len`] estimates them). It is what rendering the value
/// costs, which sharing does not make smaller, and what resource limits
/// measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Size {
    pub elements: u64,
    pub bytes: u64,
}

impl Size {
    /// One value with `bytes` of text.
    pub const fn scalar(bytes: u64) -> Size {
        Size { elements: 1, bytes }
    }

    /// Both measures added, saturating (a value shared a billion times in a
    /// nesting of tuples has no size that fits, and needs none).
    #[must_use]
    pub const fn plus(self, other: Size) -> Size {
        Size {
            elements: self.elements.saturating_add(other.elements),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }
}

/// The elements of a list, set or tuple, and their size.
struct Seq {
    size: Size,
    items: Box<[Value]>,
}

impl Seq {
    fn new(items: Vec<Value>) -> Arc<Seq> {
        let size = items.iter().fold(Size::scalar(0), |total, v| total.plus(v.size()));
        Arc::new(Seq { size, items: items.into_boxed_slice() })
    }
}

/// The elements of a known map or the attributes of a known object, by
/// key in Go's (bytewise) order, and their size.
///
/// Sorted pairs in one allocation rather than a `BTreeMap`: a B-tree's
/// leaf has room for eleven entries, about 700 bytes for an object of two,
/// and a module keeps a value for every attribute.
pub struct Entries {
    size: Size,
    items: Box<[(String, Value)]>,
}

impl Entries {
    fn new(map: BTreeMap<String, Value>) -> Arc<Entries> {
        let size = map.iter().fold(Size::scalar(0), |total, (k, v)| {
            total.plus(v.size()).plus(Size { elements: 0, bytes: k.len() as u64 })
        });
        Arc::new(Entries { size, items: map.into_iter().collect() })
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The value at `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        let at = self.items.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        Some(&self.items[at].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Each key and its value, in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&String, &Value)> + ExactSizeIterator {
        self.items.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &String> + ExactSizeIterator {
        self.items.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.items.iter().map(|(_, v)| v)
    }

    /// A map of the same entries, for a caller that builds on them.
    pub fn to_map(&self) -> BTreeMap<String, Value> {
        self.items.iter().cloned().collect()
    }
}

impl<'a> IntoIterator for &'a Entries {
    type Item = (&'a String, &'a Value);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (String, Value)>, fn(&'a (String, Value)) -> Self::Item>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter().map(|(k, v)| (k, v))
    }
}

impl std::ops::Index<&str> for Entries {
    type Output = Value;

    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or_else(|| panic!("no entry `{key}`"))
    }
}

impl fmt::Debug for Entries {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

// A size is a function of the elements, so equality and hashing look at
// the elements alone.
impl PartialEq for Seq {
    fn eq(&self, other: &Seq) -> bool {
        self.items == other.items
    }
}

impl Eq for Seq {}

impl std::hash::Hash for Seq {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.items.hash(state);
    }
}

impl PartialEq for Entries {
    fn eq(&self, other: &Entries) -> bool {
        self.items == other.items
    }
}

impl Eq for Entries {}

impl std::hash::Hash for Entries {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.items.hash(state);
    }
}

/// A value that could not be built: elements of the wrong type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError(pub String);

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ValueError {}

/// `map` with NFC-normalised keys, as it is when they already are (the
/// common case: no key is copied and the map is not rebuilt).
pub(crate) fn nfc_keys<V>(map: BTreeMap<String, V>) -> BTreeMap<String, V> {
    if map.keys().all(|key| key.is_ascii() || is_nfc_quick(key.chars()) == IsNormalized::Yes) {
        return map;
    }
    map.into_iter().map(|(key, value)| (nfc(&key), value)).collect()
}

/// NFC-normalises `s`, cheaply when it already is (the common case).
pub fn nfc(s: &str) -> String {
    // ASCII text is always in NFC; checking so is much cheaper than the
    // quick check's table lookups per character.
    if s.is_ascii() {
        return s.to_string();
    }
    match is_nfc_quick(s.chars()) {
        IsNormalized::Yes => s.to_string(),
        _ => s.nfc().collect(),
    }
}

impl Value {
    // ---- constructors ----------------------------------------------------

    /// An unknown value of `ty`, of which nothing more is known; see
    /// [`Value::refine`] to say more.
    pub fn unknown(ty: Type) -> Value {
        Value(Repr::Unknown(ty, None))
    }

    pub(crate) fn unknown_refined(ty: Type, refinement: Refinement) -> Value {
        Value(Repr::Unknown(ty, Some(Box::new(refinement))))
    }

    /// The type of an unknown value and its refinements, if it has any.
    pub(crate) fn unknown_parts(&self) -> Option<(&Type, Option<&Refinement>)> {
        match &self.0 {
            Repr::Unknown(t, r) => Some((t, r.as_deref())),
            _ => None,
        }
    }

    /// `cty.DynamicVal`: the unknown value of the dynamic pseudo-type.
    pub fn dynamic() -> Value {
        Value(Repr::Unknown(Type::Dynamic, None))
    }

    /// A null of `ty`; optional-attribute annotations are dropped, as a
    /// value's type never carries them.
    pub fn null(ty: Type) -> Value {
        Value(Repr::Null(ty.without_optional_attrs_deep()))
    }

    pub fn bool(b: bool) -> Value {
        Value(Repr::Bool(b))
    }

    pub fn number(n: Number) -> Value {
        Value(Repr::Number(n))
    }

    pub fn int(n: i64) -> Value {
        Value(Repr::Number(Number::from_i64(n)))
    }

    /// A string, NFC-normalised as `cty.StringVal` does.
    pub fn string(s: &str) -> Value {
        Value(Repr::String(nfc(s).into()))
    }

    /// A list whose elements must all be of type `ety` exactly.
    pub fn list(ety: Type, elems: Vec<Value>) -> Result<Value, ValueError> {
        check_elements(&ety, elems.iter(), "list")?;
        Ok(Value(Repr::List(ety, Seq::new(elems))))
    }

    /// `cty.ListVal`: the element type is the first element's.
    pub fn list_of(elems: Vec<Value>) -> Result<Value, ValueError> {
        let ety = elems
            .first()
            .map(Value::ty)
            .ok_or_else(|| ValueError("a list needs at least one element to take its type from".into()))?;
        Value::list(ety, elems)
    }

    /// A set of the given elements, deduplicated and put in canonical order.
    pub fn set(ety: Type, elems: Vec<Value>) -> Result<Value, ValueError> {
        check_elements(&ety, elems.iter(), "set")?;
        let elems = crate::set::canonicalize(elems);
        Ok(Value(Repr::Set(ety, Seq::new(elems))))
    }

    /// `cty.SetVal`: the element type is the first element's.
    pub fn set_of(elems: Vec<Value>) -> Result<Value, ValueError> {
        let ety = elems
            .first()
            .map(Value::ty)
            .ok_or_else(|| ValueError("a set needs at least one element to take its type from".into()))?;
        Value::set(ety, elems)
    }

    /// A map whose elements must all be of type `ety` exactly. Keys are
    /// NFC-normalised, as cty's map keys are strings.
    pub fn map(ety: Type, elems: BTreeMap<String, Value>) -> Result<Value, ValueError> {
        check_elements(&ety, elems.values(), "map")?;
        Ok(Value(Repr::Map(ety, Entries::new(nfc_keys(elems)))))
    }

    pub fn tuple(elems: Vec<Value>) -> Value {
        Value(Repr::Tuple(Seq::new(elems)))
    }

    pub fn empty_tuple() -> Value {
        Value(Repr::Tuple(Seq::new(Vec::new())))
    }

    /// An object; its type is implied by the attributes' values. Attribute
    /// names are NFC-normalised.
    pub fn object(attrs: BTreeMap<String, Value>) -> Value {
        Value(Repr::Object(Entries::new(nfc_keys(attrs))))
    }

    pub fn object_from<I, S>(attrs: I) -> Value
    where
        I: IntoIterator<Item = (S, Value)>,
        S: Into<String>,
    {
        Value::object(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    pub fn empty_object() -> Value {
        Value(Repr::Object(Entries::new(BTreeMap::new())))
    }

    // ---- inspection ------------------------------------------------------

    /// The value's type. For a known collection or structure this is built
    /// from the elements, so it costs time in proportion to the type's size.
    pub fn ty(&self) -> Type {
        match &self.0 {
            Repr::Unknown(t, _) | Repr::Null(t) => t.clone(),
            Repr::Bool(_) => Type::Bool,
            Repr::Number(_) => Type::Number,
            Repr::String(_) => Type::String,
            Repr::List(e, _) => Type::list(e.clone()),
            Repr::Set(e, _) => Type::set(e.clone()),
            Repr::Map(e, _) => Type::map(e.clone()),
            Repr::Tuple(elems) => Type::Tuple(elems.items.iter().map(Value::ty).collect()),
            Repr::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), v.ty())).collect()),
        }
    }

    pub fn is_known(&self) -> bool {
        !matches!(self.0, Repr::Unknown(..))
    }

    pub fn is_null(&self) -> bool {
        matches!(self.0, Repr::Null(_))
    }

    /// Known and not null, or unknown and refined as not null.
    pub fn definitely_not_null(&self) -> bool {
        match &self.0 {
            Repr::Null(_) => false,
            Repr::Unknown(_, r) => r.as_ref().is_some_and(|r| r.not_null),
            _ => true,
        }
    }

    /// Known at every depth (`IsWhollyKnown`).
    pub fn is_wholly_known(&self) -> bool {
        match &self.0 {
            Repr::Unknown(..) => false,
            Repr::List(_, e) | Repr::Set(_, e) | Repr::Tuple(e) => e.items.iter().all(Value::is_wholly_known),
            Repr::Map(_, m) | Repr::Object(m) => m.values().all(Value::is_wholly_known),
            _ => true,
        }
    }

    /// `HasWhollyKnownType`: no unknown value of the dynamic pseudo-type
    /// (nor an unknown collection whose type has dynamic parts) anywhere
    /// inside. Nulls count as known, whatever their type.
    pub fn has_wholly_known_type(&self) -> bool {
        match &self.0 {
            Repr::Null(_) => true,
            Repr::Unknown(t, _) => !t.has_dynamic_types(),
            Repr::List(_, e) | Repr::Set(_, e) | Repr::Tuple(e) => {
                e.items.iter().all(Value::has_wholly_known_type)
            }
            Repr::Map(_, m) | Repr::Object(m) => m.values().all(Value::has_wholly_known_type),
            _ => true,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.0 {
            Repr::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<&Number> {
        match &self.0 {
            Repr::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            Repr::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of a known list, set (canonical order) or tuple.
    pub fn elements(&self) -> Option<&[Value]> {
        match &self.0 {
            Repr::List(_, e) | Repr::Set(_, e) | Repr::Tuple(e) => Some(&e.items),
            _ => None,
        }
    }

    /// The elements of a known map or the attributes of a known object, by
    /// key in Go's (bytewise) order.
    pub fn entries(&self) -> Option<&Entries> {
        match &self.0 {
            Repr::Map(_, m) | Repr::Object(m) => Some(m),
            _ => None,
        }
    }

    /// Number of elements of a known collection or structure.
    pub fn length(&self) -> Option<usize> {
        self.elements().map(<[Value]>::len).or_else(|| self.entries().map(Entries::len))
    }

    /// How large the value is written out ([`Size`]); it costs nothing,
    /// since collections carry theirs.
    pub fn size(&self) -> Size {
        match &self.0 {
            Repr::Unknown(..) | Repr::Null(_) | Repr::Bool(_) => Size::scalar(0),
            Repr::Number(n) => Size::scalar(n.text_len()),
            Repr::String(s) => Size::scalar(s.len() as u64),
            Repr::List(_, e) | Repr::Set(_, e) | Repr::Tuple(e) => e.size,
            Repr::Map(_, m) | Repr::Object(m) => m.size,
        }
    }

    /// go-cty's `Value.Length` of a collection or tuple (never null): a
    /// tuple's length is in its type; an unknown collection's is an unknown
    /// number in the range its refinements allow; a set holding unknown
    /// elements has at most as many elements as it holds, and at least one,
    /// since unknowns may turn out equal to others.
    pub fn length_value(&self) -> Value {
        if let Some(types) = self.ty().tuple_element_types() {
            return Value::int(types.len() as i64);
        }
        if !self.is_known() {
            let range = self.range();
            return Value::unknown(Type::Number)
                .refine()
                .not_null()
                .number_range_inclusive(
                    Some(Number::from_u64(range.length_lower())),
                    Some(Number::from_u64(range.length_upper())),
                )
                .build();
        }
        let length = self.length().unwrap_or(0);
        if let Repr::Set(..) = &self.0
            && length != 1
            && !self.is_wholly_known()
        {
            return Value::unknown(Type::Number)
                .refine()
                .not_null()
                .number_range_inclusive(Some(Number::from_i64(1)), Some(Number::from_u64(length as u64)))
                .build();
        }
        Value::int(length as i64)
    }

    // ---- operations ------------------------------------------------------

    /// `cty.Value.Equals`: `Some(b)` when known, `None` for an unknown
    /// result (an unknown operand, or types not yet known).
    pub fn equals(&self, other: &Value) -> Option<bool> {
        let (a, b) = (self, other);
        // A null is unequal to what cannot be null, and a known value to an
        // unknown one whose refinements rule it out.
        if (a.is_null() && b.definitely_not_null()) || (b.is_null() && a.definitely_not_null()) {
            return Some(false);
        }
        if a.is_known() && !b.is_known() && b.range().includes(a) == Some(false) {
            return Some(false);
        }
        if b.is_known() && !a.is_known() && a.range().includes(b) == Some(false) {
            return Some(false);
        }
        match (a.is_known(), b.is_known()) {
            (false, false) => return None,
            (true, false) => {
                if a.is_null() || b.ty().has_dynamic_types() {
                    return None;
                }
                return if a.ty() != b.ty() { Some(false) } else { None };
            }
            (false, true) => {
                if b.is_null() || a.ty().has_dynamic_types() {
                    return None;
                }
                return if a.ty() != b.ty() { Some(false) } else { None };
            }
            (true, true) => {}
        }
        match (a.is_null(), b.is_null()) {
            (true, true) => return Some(true),
            (true, false) | (false, true) => return Some(false),
            _ => {}
        }
        let (aty, bty) = (a.ty(), b.ty());
        if !a.has_wholly_known_type() || !b.has_wholly_known_type() {
            // An unknown of the dynamic type inside stands for an element of
            // any type; the result is false only when the types cannot
            // possibly agree.
            if !conforms(&aty, &bty) && !conforms(&bty, &aty) {
                return Some(false);
            }
            return None;
        }
        if aty != bty {
            return Some(false);
        }
        match (&a.0, &b.0) {
            (Repr::Number(x), Repr::Number(y)) => Some(x == y),
            (Repr::Bool(x), Repr::Bool(y)) => Some(x == y),
            (Repr::String(x), Repr::String(y)) => Some(x == y),
            (Repr::List(_, x), Repr::List(_, y)) | (Repr::Tuple(x), Repr::Tuple(y)) => {
                let (x, y) = (&x.items, &y.items);
                if x.len() != y.len() {
                    return Some(false);
                }
                all_equal(x.iter().zip(y.iter()))
            }
            (Repr::Object(x), Repr::Object(y)) => all_equal(x.values().zip(y.values())),
            (Repr::Map(_, x), Repr::Map(_, y)) => {
                let (x, y) = (&**x, &**y);
                if x.len() != y.len() || !x.keys().eq(y.keys()) {
                    return Some(false);
                }
                all_equal(x.values().zip(y.values()))
            }
            (Repr::Set(_, x), Repr::Set(_, y)) => {
                let (x, y) = (&x.items, &y.items);
                // Any unknown element makes the comparison unknown; else each
                // side must contain every element of the other.
                if x.iter().chain(y.iter()).any(|v| !v.is_known()) {
                    return None;
                }
                let contains = |s: &[Value], v: &Value| s.iter().any(|e| e.equals(v) == Some(true));
                Some(x.iter().all(|v| contains(y, v)) && y.iter().all(|v| contains(x, v)))
            }
            _ => Some(false),
        }
    }

    /// `RawEquals`: the same type and the same value, unknowns and nulls
    /// compared like any other value. `-0` and `0` are equal, as
    /// `big.Float.Cmp` says.
    pub fn raw_equals(&self, other: &Value) -> bool {
        self == other
    }

    /// The cty JSON encoding of the value as `ty` (`ctyjson.Marshal`).
    pub fn to_json_string(&self, ty: &Type) -> Result<String, crate::json::JsonError> {
        let mut out = String::new();
        crate::codec::marshal(self, ty, &mut out)?;
        Ok(out)
    }

    /// Decodes the cty JSON encoding of a value of type `ty`
    /// (`ctyjson.Unmarshal`).
    pub fn from_json_str(text: &str, ty: &Type) -> Result<Value, crate::json::JsonError> {
        let doc = crate::json::parse(text)?;
        crate::codec::unmarshal(&doc, ty)
    }

    /// The value JSON implies, as `ctyjson.ImpliedType` then `Unmarshal`:
    /// arrays are tuples, objects are objects, `null` a dynamic null.
    pub fn from_json_implied(text: &str) -> Result<Value, crate::json::JsonError> {
        let doc = crate::json::parse(text)?;
        crate::codec::implied(&doc)
    }
}

fn check_elements<'a>(
    ety: &Type,
    elems: impl Iterator<Item = &'a Value>,
    what: &str,
) -> Result<(), ValueError> {
    for (i, e) in elems.enumerate() {
        let t = e.ty();
        if &t != ety {
            return Err(ValueError(format!("{what} element {i} has type {t}, not the element type {ety}")));
        }
    }
    Ok(())
}

/// Folds element comparisons: any unknown makes the result unknown; go-cty
/// returns unknown at the first unknown pair even after a false one, and so
/// does this, scanning in order until the first false or unknown.
fn all_equal<'a>(pairs: impl Iterator<Item = (&'a Value, &'a Value)>) -> Option<bool> {
    for (x, y) in pairs {
        match x.equals(y) {
            None => return None,
            Some(false) => return Some(false),
            Some(true) => {}
        }
    }
    Some(true)
}

/// `cty.Type.TestConformance` as a predicate: `have` conforms to `want` when
/// they are equal with `want`'s dynamic parts matching anything.
pub(crate) fn conforms(have: &Type, want: &Type) -> bool {
    match (have, want) {
        (_, Type::Dynamic) => true,
        (Type::List(a), Type::List(b)) | (Type::Set(a), Type::Set(b)) | (Type::Map(a), Type::Map(b)) => {
            conforms(a, b)
        }
        (Type::Tuple(a), Type::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| conforms(x, y))
        }
        (Type::Object(a), Type::Object(b)) => {
            a.attrs().len() == b.attrs().len()
                && a.attrs().iter().all(|(k, t)| b.attrs().get(k).is_some_and(|u| conforms(t, u)))
        }
        _ => have == want,
    }
}

impl fmt::Debug for Value {
    /// A compact, cty-like rendering for test failures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Unknown(t, None) => write!(f, "unknown({t})"),
            Repr::Unknown(t, Some(r)) => {
                write!(f, "unknown({t}")?;
                if r.not_null {
                    write!(f, ", not null")?;
                }
                if !r.prefix.is_empty() {
                    write!(f, ", prefix {:?}", r.prefix)?;
                }
                if let Some(b) = &r.lower {
                    write!(f, ", {} {}", if b.inclusive { ">=" } else { ">" }, b.value)?;
                }
                if let Some(b) = &r.upper {
                    write!(f, ", {} {}", if b.inclusive { "<=" } else { "<" }, b.value)?;
                }
                if r.min_length != 0 || r.max_length != crate::refine::MAX_LENGTH {
                    write!(f, ", length {}..={}", r.min_length, r.max_length)?;
                }
                write!(f, ")")
            }
            Repr::Null(t) => write!(f, "null({t})"),
            Repr::Bool(b) => write!(f, "{b}"),
            Repr::Number(n) => write!(f, "{n}"),
            Repr::String(s) => write!(f, "{s:?}"),
            Repr::List(t, e) => write!(f, "list<{t}>{:?}", e.items),
            Repr::Set(t, e) => write!(f, "set<{t}>{:?}", e.items),
            Repr::Map(t, m) => write!(f, "map<{t}>{:?}", m),
            Repr::Tuple(e) => write!(f, "tuple{:?}", e.items),
            Repr::Object(m) => write!(f, "object{:?}", m),
        }
    }
}

#[cfg(test)]
mod tests;
