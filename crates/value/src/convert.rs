//! Conversion and unification, as go-cty's `convert` package.
//!
//! [`get_conversion`] mirrors `getConversion`: it decides from the two types
//! alone whether a conversion exists and returns a plan ([`Conversion`])
//! that is then applied to values; applying an *unsafe* plan can still fail
//! for a particular value (`"abc"` to number). [`convert`] is `Convert`,
//! [`unify`] and [`unify_unsafe`] are `Unify` and `UnifyUnsafe` (returning
//! only the unified type: convert each value to it with [`convert`]).

use std::collections::BTreeMap;
use std::fmt;

use crate::number::{Number, ParseNumberError};
use crate::ty::{ObjectType, Type};
use crate::value::Value;

/// A conversion that failed for a particular value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError(pub String);

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConvertError {}

fn fail<T>(msg: impl Into<String>) -> Result<T, ConvertError> {
    Err(ConvertError(msg.into()))
}

/// A plan for converting values of one type to another.
#[derive(Clone, Debug)]
pub struct Conversion {
    out: Type,
    kind: Kind,
}

#[derive(Clone, Debug)]
enum Kind {
    /// To the dynamic pseudo-type: the value passes unchanged.
    Passthrough,
    /// From the dynamic pseudo-type (unsafe only): a run-time `Convert`.
    DynamicFixup,
    Primitive,
    ObjectToObject {
        out: ObjectType,
        /// Attributes present in the input; `None` when the types agree.
        attrs: BTreeMap<String, Option<Conversion>>,
    },
    TupleToTuple(Vec<Option<Conversion>>),
    CollectionToList(Type, Option<Box<Conversion>>),
    CollectionToSet(Type, Option<Box<Conversion>>),
    CollectionToMap(Type, Option<Box<Conversion>>),
    TupleToList {
        ety: Type,
        elems: Vec<Option<Conversion>>,
        unsafe_: bool,
    },
    TupleToSet {
        ety: Type,
        elems: Vec<Option<Conversion>>,
    },
    ObjectToMap {
        ety: Type,
        attrs: BTreeMap<String, Option<Conversion>>,
        unsafe_: bool,
    },
    MapToObject {
        out: ObjectType,
        /// Absent: types agree. `None`: an optional attribute whose type the
        /// map's elements cannot convert to (an error only if present).
        attrs: BTreeMap<String, Option<Conversion>>,
    },
}

impl Conversion {
    fn new(out: &Type, kind: Kind) -> Conversion {
        Conversion { out: out.clone(), kind }
    }

    /// Applies the conversion to a value of the conversion's input type.
    /// Unknown and null values convert to unknown and null values of the
    /// target type (its dynamic parts filled in from the input's type).
    pub fn apply(&self, v: &Value) -> Result<Value, ConvertError> {
        if self.out.is_dynamic() {
            return Ok(v.clone());
        }
        if !v.is_known() || v.is_null() {
            let out = self.out.without_optional_attrs_deep();
            let ty = dynamic_replace(Some(&v.ty()), &out);
            return Ok(if v.is_known() { Value::null(ty) } else { unknown_result(&v.range(), ty) });
        }
        self.apply_known(v)
    }

    fn apply_known(&self, v: &Value) -> Result<Value, ConvertError> {
        match &self.kind {
            Kind::Passthrough => Ok(v.clone()),
            Kind::DynamicFixup => convert(v, &self.out),
            Kind::Primitive => convert_primitive(v, &self.out),
            Kind::ObjectToObject { out, attrs } => {
                let mut result = BTreeMap::new();
                for (name, e) in v.entries().into_iter().flatten() {
                    let Some(conv) = attrs.get(name) else {
                        continue; // not in the target type: discarded
                    };
                    let e = apply_opt(conv.as_ref(), e)?;
                    result.insert(name.clone(), strip_null(e));
                }
                for name in out.optional() {
                    if !result.contains_key(name) {
                        let t = out.attrs().get(name).cloned().unwrap_or(Type::Dynamic);
                        result.insert(name.clone(), Value::null(t));
                    }
                }
                Ok(Value::object(result))
            }
            Kind::TupleToTuple(convs) => {
                let elems = v.elements().unwrap_or_default();
                let mut out = Vec::with_capacity(elems.len());
                for (e, conv) in elems.iter().zip(convs) {
                    out.push(apply_opt(conv.as_ref(), e)?);
                }
                Ok(Value::tuple(out))
            }
            Kind::CollectionToList(ety, conv) => {
                let in_ety = v.ty().element_type().cloned().unwrap_or(Type::Dynamic);
                let elems = v.elements().unwrap_or_default();
                // A set with unknown elements has an unknown length (they may
                // coalesce), and so does the list made from it.
                if v.ty().is_set() && elems.len() != 1 && !v.is_wholly_known() {
                    return Ok(Value::unknown(Type::list(in_ety)));
                }
                let mut out = Vec::with_capacity(elems.len());
                for e in elems {
                    out.push(strip_null(apply_opt(conv.as_deref(), e)?));
                }
                if out.is_empty() {
                    let t = if ety.is_dynamic() { in_ety } else { ety.without_optional_attrs_deep() };
                    return Ok(Value::list(t, out).unwrap_or_else(|_| Value::dynamic()));
                }
                Value::list_of(out)
                    .map_err(|_| ConvertError("element types must all match for conversion to list".into()))
            }
            Kind::CollectionToSet(ety, conv) => {
                let in_ety = v.ty().element_type().cloned().unwrap_or(Type::Dynamic);
                let mut out = Vec::new();
                for e in v.elements().unwrap_or_default() {
                    out.push(strip_null(apply_opt(conv.as_deref(), e)?));
                }
                if out.is_empty() {
                    let t = if ety.is_dynamic() { in_ety } else { ety.without_optional_attrs_deep() };
                    return Ok(Value::set(t, out).unwrap_or_else(|_| Value::dynamic()));
                }
                Value::set_of(out)
                    .map_err(|_| ConvertError("element types must all match for conversion to set".into()))
            }
            Kind::CollectionToMap(ety, conv) => {
                let in_ety = v.ty().element_type().cloned().unwrap_or(Type::Dynamic);
                let mut out = BTreeMap::new();
                for (k, e) in v.entries().into_iter().flatten() {
                    out.insert(k.clone(), apply_opt(conv.as_deref(), e)?);
                }
                finish_map(out, ety, in_ety, false)
            }
            Kind::TupleToList { elems: convs, unsafe_, .. } => {
                let mut out = Vec::new();
                for (e, conv) in v.elements().unwrap_or_default().iter().zip(convs) {
                    out.push(apply_opt(conv.as_ref(), e)?);
                }
                if convs.is_empty() {
                    return empty_list(&self.kind);
                }
                let out = unify_list_elements(out, *unsafe_)?;
                Value::list_of(out)
                    .map_err(|_| ConvertError("element types must all match for conversion to list".into()))
            }
            Kind::TupleToSet { ety, elems: convs } => {
                if convs.is_empty() {
                    return Ok(Value::set(ety.without_optional_attrs_deep(), Vec::new())
                        .unwrap_or_else(|_| Value::dynamic()));
                }
                let mut out = Vec::new();
                for (e, conv) in v.elements().unwrap_or_default().iter().zip(convs) {
                    out.push(strip_null(apply_opt(conv.as_ref(), e)?));
                }
                Value::set_of(out)
                    .map_err(|_| ConvertError("element types must all match for conversion to set".into()))
            }
            Kind::ObjectToMap { ety, attrs, unsafe_ } => {
                if attrs.is_empty() {
                    return Ok(Value::map(ety.without_optional_attrs_deep(), BTreeMap::new())
                        .unwrap_or_else(|_| Value::dynamic()));
                }
                let mut out = BTreeMap::new();
                for (k, e) in v.entries().into_iter().flatten() {
                    let conv = attrs.get(k).and_then(Option::as_ref);
                    out.insert(k.clone(), apply_opt(conv, e)?);
                }
                finish_map(out, ety, ety.clone(), *unsafe_)
            }
            Kind::MapToObject { out, attrs } => {
                let mut result = BTreeMap::new();
                for (k, e) in v.entries().into_iter().flatten() {
                    let Some(aty) = out.attrs().get(k) else {
                        continue;
                    };
                    let e = match attrs.get(k) {
                        Some(Some(conv)) => conv.apply(e)?,
                        Some(None) => {
                            return fail(format!(
                                "map element type is incompatible with attribute {k:?}: {}",
                                mismatch_message(&e.ty(), aty)
                            ));
                        }
                        None => e.clone(),
                    };
                    result.insert(k.clone(), strip_null(e));
                }
                for (name, aty) in out.attrs() {
                    if !result.contains_key(name) {
                        if out.is_optional(name) {
                            result.insert(name.clone(), Value::null(aty.clone()));
                        } else {
                            return fail(format!("map has no element for required attribute {name:?}"));
                        }
                    }
                }
                Ok(Value::object(result))
            }
        }
    }
}

fn empty_list(kind: &Kind) -> Result<Value, ConvertError> {
    let Kind::TupleToList { ety, .. } = kind else {
        return fail("not a list conversion");
    };
    Ok(Value::list(ety.without_optional_attrs_deep(), Vec::new()).unwrap_or_else(|_| Value::dynamic()))
}

fn apply_opt(conv: Option<&Conversion>, v: &Value) -> Result<Value, ConvertError> {
    match conv {
        Some(c) => c.apply(v),
        None => Ok(v.clone()),
    }
}

/// go-cty rebuilds null elements as nulls of the type without optional
/// attributes; `Value::null` already drops them, so this only re-creates it.
fn strip_null(v: Value) -> Value {
    if v.is_null() { Value::null(v.ty()) } else { v }
}

fn finish_map(
    elems: BTreeMap<String, Value>,
    ety: &Type,
    empty_ety: Type,
    unsafe_: bool,
) -> Result<Value, ConvertError> {
    if elems.is_empty() {
        let t = if ety.is_dynamic() { empty_ety } else { ety.without_optional_attrs_deep() };
        return Ok(Value::map(t, elems).unwrap_or_else(|_| Value::dynamic()));
    }
    let elems =
        if ety.is_collection() || ety.is_object() { unify_map_elements(elems, unsafe_)? } else { elems };
    let first = elems.values().next().map(Value::ty).unwrap_or(Type::Dynamic);
    Value::map(first, elems)
        .map_err(|_| ConvertError("element types must all match for conversion to map".into()))
}

/// `conversionUnifyListElements`.
fn unify_list_elements(elems: Vec<Value>, unsafe_: bool) -> Result<Vec<Value>, ConvertError> {
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let Some(unified) = unify_impl(&types, unsafe_) else {
        return fail("cannot find a common base type for all elements");
    };
    elems
        .into_iter()
        .map(|e| {
            if e.ty() == unified {
                return Ok(e);
            }
            match get_conversion_impl(&e.ty(), &unified, unsafe_) {
                Some(c) => c.apply(&e),
                None => fail("cannot find a common base type for all elements"),
            }
        })
        .collect()
}

/// `conversionUnifyCollectionElements`.
fn unify_map_elements(
    elems: BTreeMap<String, Value>,
    unsafe_: bool,
) -> Result<BTreeMap<String, Value>, ConvertError> {
    let types: Vec<Type> = elems.values().map(Value::ty).collect();
    let Some(unified) = unify_impl(&types, unsafe_) else {
        return fail("cannot find a common base type for all elements");
    };
    elems
        .into_iter()
        .map(|(k, e)| {
            if e.ty() == unified {
                return Ok((k, e));
            }
            match get_conversion_impl(&e.ty(), &unified, unsafe_) {
                Some(c) => Ok((k, c.apply(&e)?)),
                None => fail("cannot find a common base type for all elements"),
            }
        })
        .collect()
}

fn convert_primitive(v: &Value, out: &Type) -> Result<Value, ConvertError> {
    match out {
        Type::String => {
            if let Some(n) = v.as_number() {
                return Ok(Value::string(&n.to_plain_string()));
            }
            if let Some(b) = v.as_bool() {
                return Ok(Value::string(if b { "true" } else { "false" }));
            }
            Ok(v.clone())
        }
        Type::Number => {
            let Some(s) = v.as_str() else {
                return fail("a number is required");
            };
            match Number::parse_limited(s, crate::number::MAX_DIGITS) {
                Ok(n) => Ok(Value::number(n)),
                Err(ParseNumberError::Invalid) => fail("a number is required"),
                Err(e) => Err(ConvertError(e.to_string())),
            }
        }
        Type::Bool => {
            let Some(s) = v.as_str() else {
                return fail("a bool is required");
            };
            match s {
                "true" | "1" => Ok(Value::bool(true)),
                "false" | "0" => Ok(Value::bool(false)),
                _ => match s.to_lowercase().as_str() {
                    "true" => fail("a bool is required; to convert from string, use lowercase \"true\""),
                    "false" => fail("a bool is required; to convert from string, use lowercase \"false\""),
                    _ => fail("a bool is required"),
                },
            }
        }
        _ => fail("not a primitive type"),
    }
}

/// `convert.GetConversion` (safe) or `GetConversionUnsafe`. There is no
/// conversion from a type to itself unless a dynamic type is involved; check
/// equality first.
pub fn get_conversion(input: &Type, out: &Type, unsafe_: bool) -> Option<Conversion> {
    get_conversion_impl(input, out, unsafe_)
}

fn get_conversion_impl(input: &Type, out: &Type, unsafe_: bool) -> Option<Conversion> {
    let kind = match (input, out) {
        (_, Type::Dynamic) => Kind::Passthrough,
        (Type::Dynamic, _) if unsafe_ => Kind::DynamicFixup,
        (i, o) if i.is_primitive() && o.is_primitive() => {
            let safe = matches!((i, o), (Type::Number | Type::Bool, Type::String));
            let unsafe_ok = matches!((i, o), (Type::String, Type::Number | Type::Bool));
            if safe || (unsafe_ && unsafe_ok) {
                Kind::Primitive
            } else {
                return None;
            }
        }
        (Type::Object(i), Type::Object(o)) => {
            let mut attrs = BTreeMap::new();
            for (name, oty) in o.attrs() {
                let Some(ity) = i.attrs().get(name) else {
                    if o.is_optional(name) {
                        continue;
                    }
                    return None;
                };
                if ity == oty {
                    attrs.insert(name.clone(), None);
                    continue;
                }
                attrs.insert(name.clone(), Some(get_conversion_impl(ity, oty, unsafe_)?));
            }
            Kind::ObjectToObject { out: ObjectType::clone(o), attrs }
        }
        (Type::Tuple(i), Type::Tuple(o)) => {
            if i.len() != o.len() {
                return None;
            }
            let mut convs = Vec::with_capacity(i.len());
            for (it, ot) in i.iter().zip(o) {
                convs.push(if it == ot { None } else { Some(get_conversion_impl(it, ot, unsafe_)?) });
            }
            Kind::TupleToTuple(convs)
        }
        (Type::List(iety) | Type::Set(iety), Type::List(oety)) => {
            if iety == oety {
                Kind::CollectionToList((**oety).clone(), None)
            } else {
                let c = get_conversion_impl(iety, oety, unsafe_)?;
                Kind::CollectionToList((**oety).clone(), Some(Box::new(c)))
            }
        }
        (Type::List(iety) | Type::Set(iety), Type::Set(oety)) => {
            if input.is_list() && !unsafe_ {
                return None;
            }
            if iety == oety {
                Kind::CollectionToSet((**oety).clone(), None)
            } else {
                let c = get_conversion_impl(iety, oety, unsafe_)?;
                Kind::CollectionToSet((**oety).clone(), Some(Box::new(c)))
            }
        }
        (Type::Map(iety), Type::Map(oety)) => {
            let c = get_conversion_impl(iety, oety, unsafe_)?;
            Kind::CollectionToMap((**oety).clone(), Some(Box::new(c)))
        }
        (Type::Tuple(etys), Type::List(oety)) => {
            let (ety, elems) = tuple_elem_convs(etys, oety, unsafe_)?;
            Kind::TupleToList { ety, elems, unsafe_ }
        }
        (Type::Tuple(etys), Type::Set(oety)) => {
            let (ety, elems) = tuple_elem_convs(etys, oety, unsafe_)?;
            Kind::TupleToSet { ety, elems }
        }
        (Type::Object(i), Type::Map(oety)) => {
            if i.attrs().is_empty() {
                Kind::ObjectToMap { ety: (**oety).clone(), attrs: BTreeMap::new(), unsafe_ }
            } else {
                let ety = if oety.is_dynamic() {
                    let atys: Vec<Type> = i.attrs().values().cloned().collect();
                    unify_impl(&atys, unsafe_)?
                } else {
                    (**oety).clone()
                };
                let mut attrs = BTreeMap::new();
                for (name, aty) in i.attrs() {
                    if *aty == ety {
                        attrs.insert(name.clone(), None);
                        continue;
                    }
                    attrs.insert(name.clone(), Some(get_conversion_impl(aty, &ety, unsafe_)?));
                }
                Kind::ObjectToMap { ety, attrs, unsafe_ }
            }
        }
        (Type::Map(mety), Type::Object(o)) => {
            if !unsafe_ {
                return None;
            }
            let mut attrs = BTreeMap::new();
            for (name, aty) in o.attrs() {
                if aty == &**mety {
                    continue;
                }
                match get_conversion_impl(mety, aty, unsafe_) {
                    Some(c) => {
                        attrs.insert(name.clone(), Some(c));
                    }
                    None if o.is_optional(name) => {
                        attrs.insert(name.clone(), None);
                    }
                    None => return None,
                }
            }
            Kind::MapToObject { out: ObjectType::clone(o), attrs }
        }
        _ => return None,
    };
    Some(Conversion::new(out, kind))
}

/// The element conversions of tuple → list or set, and the element type
/// (unified from the tuple's when the target's is dynamic). An empty tuple
/// converts to an empty collection of the target's element type.
fn tuple_elem_convs(etys: &[Type], oety: &Type, unsafe_: bool) -> Option<(Type, Vec<Option<Conversion>>)> {
    if etys.is_empty() {
        return Some((oety.clone(), Vec::new()));
    }
    let mut ety = oety.clone();
    if ety.is_dynamic() {
        ety = unify_impl(etys, unsafe_)?;
        if ety.is_dynamic() && etys.iter().any(|t| !t.is_dynamic()) {
            return None;
        }
    }
    let mut convs = Vec::with_capacity(etys.len());
    for t in etys {
        convs.push(if *t == ety { None } else { Some(get_conversion_impl(t, &ety, unsafe_)?) });
    }
    Some((ety, convs))
}

/// `convert.Convert`: `v` as type `want`, using unsafe conversions.
pub fn convert(v: &Value, want: &Type) -> Result<Value, ConvertError> {
    let have = v.ty();
    if have == want.without_optional_attrs_deep() {
        return Ok(v.clone());
    }
    match get_conversion_impl(&have, want, true) {
        Some(c) => c.apply(v),
        None => fail(mismatch_message(&have, want)),
    }
}

/// The unknown result of converting an unknown value (go-cty's
/// `prepareUnknownResult`): not null if the input cannot be, and with a
/// length range where conversion keeps the length (an object's attribute
/// count as a map's length, a tuple's as a list's, a collection's own).
fn unknown_result(source: &crate::ValueRange, target: Type) -> Value {
    let mut b = Value::unknown(target.clone()).refine();
    if source.definitely_not_null() {
        b = b.not_null();
    }
    let source_ty = source.ty();
    match (source_ty, &target) {
        (Type::Object(o), Type::Map(_)) => b.length(o.attrs().len() as u64).build(),
        (Type::Tuple(elems), Type::List(_)) => b.length(elems.len() as u64).build(),
        (Type::Tuple(elems), Type::Set(_)) => match elems.len() {
            n @ (0 | 1) => b.length(n as u64).build(),
            n => b.length_lower(1).length_upper(n as u64).build(),
        },
        (source_ty, target) if source_ty.is_collection() && target.is_collection() => {
            if target.is_set() {
                if source.length_lower() > 0 {
                    b = b.length_lower(1);
                }
            } else {
                b = b.length_lower(source.length_lower());
            }
            b.length_upper(source.length_upper()).build()
        }
        _ => b.build(),
    }
}

/// Why `have` does not convert to `want`, in go-cty v1.16's words
/// (`convert.MismatchMessage`). Where go-cty walks a Go map (an object's
/// attributes), this takes them in name order.
pub fn mismatch_message(have: &Type, want: &Type) -> String {
    let constraint = |t: &Type| t.friendly_name_for_constraint();
    match (have, want) {
        (Type::Object(h), Type::Object(w)) => mismatch_objects(h, w),
        (Type::Tuple(_), Type::List(e)) if e.is_dynamic() => {
            "all list elements must have the same type".into()
        }
        (Type::Tuple(_), Type::Set(e)) if e.is_dynamic() => "all set elements must have the same type".into(),
        (Type::Object(_), Type::Map(e)) if e.is_dynamic() => {
            "all map elements must have the same type".into()
        }
        (Type::Tuple(_) | Type::Object(_), want) if want.is_collection() => {
            let kind_ok = match want {
                Type::List(_) | Type::Set(_) => have.is_tuple(),
                _ => have.is_object(),
            };
            if !kind_ok {
                return format!("{} required", constraint(want));
            }
            let wety = want.element_type().cloned().unwrap_or(Type::Dynamic);
            let fits = |t: &Type| *t == wety || get_conversion_impl(t, &wety, true).is_some();
            match have {
                Type::Tuple(elems) => {
                    if let Some((i, t)) = elems.iter().enumerate().find(|(_, t)| !fits(t)) {
                        return format!("element {i}: {}", mismatch_message(t, &wety));
                    }
                }
                Type::Object(o) => {
                    if let Some((name, t)) = o.attrs().iter().find(|(_, t)| !fits(t)) {
                        return format!("element {name:?}: {}", mismatch_message(t, &wety));
                    }
                }
                _ => {}
            }
            format!("all elements must be {}", constraint(&wety))
        }
        (have, want) if have.is_collection() && want.is_collection() => {
            let kind_ok = match want {
                Type::List(_) | Type::Set(_) => have.is_list() || have.is_set(),
                _ => have.is_map(),
            };
            if !kind_ok {
                return format!("{} required", constraint(want));
            }
            let noun = match want {
                Type::List(_) => "list element type",
                Type::Set(_) => "set element type",
                _ => "map element type",
            };
            let (hety, wety) = (have.element_type().cloned(), want.element_type().cloned());
            let (hety, wety) = (hety.unwrap_or(Type::Dynamic), wety.unwrap_or(Type::Dynamic));
            format!("incorrect {noun}: {}", mismatch_message(&hety, &wety))
        }
        (have, want) if !likely_to_confuse(have, want) => {
            format!("{} required, but have {}", want.friendly_name(), have.friendly_name())
        }
        _ => format!("{} required", constraint(want)),
    }
}

/// go-cty's `typesAreLikelyToCauseConfusion`: whether naming both types
/// would mislead more than it helps (`string required, but have number`
/// makes sense; `number required, but have string` suggests the type is
/// at fault when it is the value).
fn likely_to_confuse(have: &Type, want: &Type) -> bool {
    if have.is_primitive() != want.is_primitive() || *want == Type::String {
        return false;
    }
    if matches!((have, want), (Type::Number, Type::Bool) | (Type::Bool, Type::Number)) {
        return false;
    }
    if let (Some(h), Some(w)) = (have.element_type(), want.element_type())
        && have.is_collection()
        && want.is_collection()
        && !h.has_dynamic_types()
        && w.has_dynamic_types()
    {
        return false;
    }
    !(have.is_tuple() && want.is_object())
}

fn mismatch_objects(have: &ObjectType, want: &ObjectType) -> String {
    let mut missing = Vec::new();
    let (mut unsafe_mismatch, mut safe_mismatch) = (None, None);
    for (name, wty) in want.attrs() {
        let Some(hty) = have.attrs().get(name) else {
            if !want.is_optional(name) {
                missing.push(name);
            }
            continue;
        };
        if hty == wty || unsafe_mismatch.is_some() {
            continue;
        }
        if get_conversion_impl(hty, wty, true).is_none() {
            unsafe_mismatch = Some(format!("attribute {name:?}: {}", mismatch_message(hty, wty)));
        }
        if safe_mismatch.is_none() && get_conversion_impl(hty, wty, false).is_none() {
            safe_mismatch = Some(format!("attribute {name:?}: {}", mismatch_message(hty, wty)));
        }
    }
    match missing.as_slice() {
        [] => unsafe_mismatch.or(safe_mismatch).unwrap_or_else(|| "incorrect object attributes".into()),
        [one] => format!("attribute {one:?} is required"),
        [a, b] => format!("attributes {a:?} and {b:?} are required"),
        [init @ .., last] => {
            let list: Vec<String> = init.iter().map(|n| format!("{n:?}, ")).collect();
            format!("attributes {}and {last:?} are required", list.concat())
        }
    }
}

/// `dynamicReplace`: the target type with its dynamic parts filled from the
/// input type, for the type of an unknown or null result.
fn dynamic_replace(input: Option<&Type>, out: &Type) -> Type {
    let Some(input) = input.filter(|t| !t.is_dynamic()) else {
        return out.clone();
    };
    match out {
        Type::Dynamic => input.clone(),
        Type::Bool | Type::Number | Type::String => out.clone(),
        Type::Map(oety) => {
            let ety = match input {
                Type::Map(iety) => dynamic_replace(Some(iety), oety),
                Type::Object(o) => {
                    let atys: Vec<Type> = o.attrs().values().cloned().collect();
                    dynamic_replace(unify_impl(&atys, true).as_ref(), oety)
                }
                _ => (**oety).clone(),
            };
            Type::map(ety)
        }
        Type::Object(o) => {
            let mut attrs = BTreeMap::new();
            match input {
                Type::Map(iety) => {
                    for (k, t) in o.attrs() {
                        attrs.insert(k.clone(), dynamic_replace(Some(iety), t));
                    }
                }
                Type::Object(i) => {
                    for (k, t) in o.attrs() {
                        attrs.insert(k.clone(), dynamic_replace(i.attrs().get(k), t));
                    }
                }
                _ => {}
            }
            Type::object(attrs)
        }
        Type::Set(oety) | Type::List(oety) => {
            let ety = match input {
                Type::Set(iety) | Type::List(iety) => dynamic_replace(Some(iety), oety),
                Type::Tuple(etys) => dynamic_replace(unify_impl(etys, true).as_ref(), oety),
                _ => (**oety).clone(),
            };
            if out.is_set() { Type::set(ety) } else { Type::list(ety) }
        }
        Type::Tuple(oetys) => {
            let ietys = input.tuple_element_types().unwrap_or_default();
            Type::Tuple(oetys.iter().enumerate().map(|(i, t)| dynamic_replace(ietys.get(i), t)).collect())
        }
    }
}

/// `convert.Unify`: a type all of `types` convert to safely, if any.
pub fn unify(types: &[Type]) -> Option<Type> {
    unify_impl(types, false)
}

/// `convert.UnifyUnsafe`: as [`unify`], allowing unsafe conversions.
pub fn unify_unsafe(types: &[Type]) -> Option<Type> {
    unify_impl(types, true)
}

fn has_conv(from: &Type, to: &Type, unsafe_: bool) -> bool {
    from == to || get_conversion_impl(from, to, unsafe_).is_some()
}

/// How many distinct types [`unify_impl`] looks for before it stops
/// counting them.
const DISTINCT_TYPES_LIMIT: usize = 16;

fn unify_impl(types: &[Type], unsafe_: bool) -> Option<Type> {
    if types.is_empty() {
        return None;
    }
    // The answer depends on which types there are, not on how many of
    // each: a list of a thousand strings is unified as one string, not by
    // sorting a thousand equal types (a `for` over `range(1024)` made that
    // a twentieth of a check). The first of equal types stands for them,
    // so the order among the others stays.
    // (Only while there are few kinds: many distinct types are sorted as
    // they come.)
    let mut distinct: Vec<&Type> = Vec::new();
    for ty in types {
        if distinct.len() > DISTINCT_TYPES_LIMIT {
            break;
        }
        if !distinct.contains(&ty) {
            distinct.push(ty);
        }
    }
    if distinct.len() > DISTINCT_TYPES_LIMIT {
        distinct = types.iter().collect();
    }
    if let [only] = distinct.as_slice() {
        return Some((*only).clone());
    }
    if distinct.len() < types.len() {
        let distinct: Vec<Type> = distinct.into_iter().cloned().collect();
        return unify_impl(&distinct, unsafe_);
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let maps = count(Type::is_map);
    let lists = count(Type::is_list);
    let sets = count(Type::is_set);
    let objects = count(Type::is_object);
    let tuples = count(Type::is_tuple);
    let dynamics = count(Type::is_dynamic);
    let n = types.len();
    if maps > 0 && maps + dynamics == n {
        return unify_collections(types, unsafe_, dynamics > 0, Type::map);
    } else if maps > 0 && maps + objects + dynamics == n {
        if let Some(t) = unify_objects_as_maps(types, unsafe_) {
            return Some(t);
        }
    } else if lists > 0 && lists + dynamics == n {
        return unify_collections(types, unsafe_, dynamics > 0, Type::list);
    } else if lists > 0 && lists + tuples + dynamics == n {
        if let Some(t) = unify_tuples_as_list(types, unsafe_) {
            return Some(t);
        }
    } else if sets > 0 && sets + dynamics == n {
        return unify_collections(types, unsafe_, dynamics > 0, Type::set);
    } else if objects > 0 && objects + dynamics == n {
        return unify_object_types(types, unsafe_, dynamics > 0);
    } else if tuples > 0 && tuples + dynamics == n {
        return unify_tuple_types(types, unsafe_, dynamics > 0);
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    // Try each type as the target, most preferred first.
    'preferences: for want_idx in sort_types(types) {
        let want = &types[want_idx];
        for (i, t) in types.iter().enumerate() {
            if i != want_idx && !has_conv(t, want, unsafe_) {
                continue 'preferences;
            }
        }
        return Some(want.clone());
    }
    None
}

fn all_convert(types: &[Type], to: &Type, unsafe_: bool) -> bool {
    types.iter().all(|t| has_conv(t, to, unsafe_))
}

fn unify_collections(
    types: &[Type],
    unsafe_: bool,
    has_dynamic: bool,
    make: fn(Type) -> Type,
) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let etys: Vec<Type> = types.iter().filter_map(|t| t.element_type().cloned()).collect();
    let ety = unify_impl(&etys, unsafe_)?;
    let ret = make(ety);
    all_convert(types, &ret, unsafe_).then_some(ret)
}

fn unify_tuples_as_list(types: &[Type], unsafe_: bool) -> Option<Type> {
    let tuples: Vec<Type> = types.iter().filter(|t| t.is_tuple()).cloned().collect();
    let list = unify_tuple_types_to_list(&tuples, unsafe_)?;
    let listed: Vec<Type> =
        types.iter().map(|t| if t.is_tuple() { list.clone() } else { t.clone() }).collect();
    unify_impl(&listed, unsafe_).filter(Type::is_list)
}

fn unify_objects_as_maps(types: &[Type], unsafe_: bool) -> Option<Type> {
    let objects: Vec<Type> = types.iter().filter(|t| t.is_object()).cloned().collect();
    let map = unify_object_types_to_map(&objects, unsafe_)?;
    let mapped: Vec<Type> =
        types.iter().map(|t| if t.is_object() { map.clone() } else { t.clone() }).collect();
    unify_impl(&mapped, unsafe_).filter(Type::is_map)
}

fn unify_object_types(types: &[Type], unsafe_: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let first = types[0].attribute_types().cloned().unwrap_or_default();
    for t in &types[1..] {
        let attrs = t.attribute_types().cloned().unwrap_or_default();
        if attrs.len() != first.len() || attrs.keys().any(|k| !first.contains_key(k)) {
            return unify_object_types_to_map(types, unsafe_);
        }
    }
    let mut ret = BTreeMap::new();
    for name in first.keys() {
        let across: Vec<Type> =
            types.iter().map(|t| t.attribute_type(name).cloned().unwrap_or(Type::Dynamic)).collect();
        ret.insert(name.clone(), unify_impl(&across, unsafe_)?);
    }
    let ret = Type::object(ret);
    if all_convert(types, &ret, unsafe_) { Some(ret) } else { unify_object_types_to_map(types, unsafe_) }
}

fn unify_object_types_to_map(types: &[Type], unsafe_: bool) -> Option<Type> {
    let atys: Vec<Type> = types
        .iter()
        .flat_map(|t| t.attribute_types().into_iter().flat_map(|a| a.values().cloned()))
        .collect();
    let ety = unify_impl(&atys, unsafe_)?;
    let ret = Type::map(ety);
    all_convert(types, &ret, unsafe_).then_some(ret)
}

fn unify_tuple_types(types: &[Type], unsafe_: bool, has_dynamic: bool) -> Option<Type> {
    if has_dynamic {
        return Some(Type::Dynamic);
    }
    let first = types[0].tuple_element_types().unwrap_or_default();
    if types[1..].iter().any(|t| t.tuple_element_types().unwrap_or_default().len() != first.len()) {
        return unify_tuple_types_to_list(types, unsafe_);
    }
    let mut ret = Vec::with_capacity(first.len());
    for i in 0..first.len() {
        let across: Vec<Type> = types
            .iter()
            .map(|t| t.tuple_element_types().and_then(|e| e.get(i).cloned()).unwrap_or(Type::Dynamic))
            .collect();
        ret.push(unify_impl(&across, unsafe_)?);
    }
    let ret = Type::Tuple(ret);
    if all_convert(types, &ret, unsafe_) { Some(ret) } else { unify_tuple_types_to_list(types, unsafe_) }
}

fn unify_tuple_types_to_list(types: &[Type], unsafe_: bool) -> Option<Type> {
    let etys: Vec<Type> =
        types.iter().flat_map(|t| t.tuple_element_types().unwrap_or_default().iter().cloned()).collect();
    let ety = unify_impl(&etys, unsafe_)?;
    let ret = Type::list(ety);
    all_convert(types, &ret, unsafe_).then_some(ret)
}

/// `sortTypes`: a topological order of the types by preference
/// (`compareTypes`), Kahn's algorithm with a FIFO queue as go-cty runs it.
/// Types in a preference cycle never reach in-degree zero and are left out,
/// as in the reference.
fn sort_types(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n.saturating_sub(1) {
        for j in i + 1..n {
            match compare_types(&types[i], &types[j]) {
                c if c < 0 => edges[i].push(j),
                c if c > 0 => edges[j].push(i),
                _ => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let i = order[head];
        head += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                order.push(j);
            }
        }
    }
    order
}

/// `compareTypes`: negative when `a` is preferred (more general) over `b`.
fn compare_types(a: &Type, b: &Type) -> i32 {
    if a.is_dynamic() || b.is_dynamic() {
        return match (a.is_dynamic(), b.is_dynamic()) {
            (false, _) => -1,
            (_, false) => 1,
            _ => 0,
        };
    }
    if a.is_primitive() && b.is_primitive() && (*a == Type::String || *b == Type::String) {
        return match (*a == Type::String, *b == Type::String) {
            (false, _) => 1,
            (_, false) => -1,
            _ => 0,
        };
    }
    match (a, b) {
        (Type::List(x), Type::List(y)) | (Type::Set(x), Type::Set(y)) | (Type::Map(x), Type::Map(y)) => {
            return compare_types(x, y);
        }
        _ => {}
    }
    let (a, b, swap) = match (a, b) {
        (Type::Tuple(_), Type::List(_))
        | (Type::Object(_), Type::Map(_))
        | (Type::Set(_), Type::Tuple(_))
        | (Type::Set(_), Type::List(_)) => (b, a, -1),
        _ => (a, b, 1),
    };
    if b.is_set() && (a.is_tuple() || a.is_list()) {
        return -swap;
    }
    if a.is_list() && b.is_tuple() {
        return -swap;
    }
    if a.is_map() && b.is_object() {
        return -swap;
    }
    let pairwise = |pairs: Vec<(&Type, &Type)>| {
        let (mut a_super, mut b_super) = (false, false);
        for (x, y) in pairs {
            let c = compare_types(x, y);
            if c < 0 {
                a_super = true;
            } else if c > 0 {
                b_super = true;
            }
        }
        match (a_super, b_super) {
            (true, false) => -swap,
            (false, true) => swap,
            _ => 0,
        }
    };
    match (a, b) {
        (Type::Object(x), Type::Object(y)) => {
            if x.attrs().len() != y.attrs().len() {
                return 0;
            }
            let mut pairs = Vec::new();
            for (k, t) in x.attrs() {
                let Some(u) = y.attrs().get(k) else {
                    return 0;
                };
                pairs.push((t, u));
            }
            pairwise(pairs)
        }
        (Type::Tuple(x), Type::Tuple(y)) => {
            if x.len() != y.len() {
                return 0;
            }
            pairwise(x.iter().zip(y.iter()).collect())
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests;
