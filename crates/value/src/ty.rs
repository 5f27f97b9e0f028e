//! Types, as go-cty's `cty.Type`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::Arc;

use crate::json::{self, Json};
use crate::value::{nfc, nfc_keys};

/// A cty type. Object attributes are kept in a `BTreeMap`, whose order
/// (bytewise on UTF-8) is the order of Go's sorted string keys, so iteration
/// matches the reference wherever it sorts attribute names.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Bool,
    Number,
    String,
    /// The dynamic pseudo-type: a placeholder for a type not yet known.
    Dynamic,
    /// Shared, as every compound type is: a type is cloned wherever a value
    /// or a constraint is, and a deep copy of a nested type was a large part
    /// of checking a module's variables.
    List(Arc<Type>),
    Set(Arc<Type>),
    Map(Arc<Type>),
    Tuple(Vec<Type>),
    /// Shared, and out of line: an object type is two maps, and a type is
    /// held in every value (a primitive type would otherwise take their
    /// room).
    Object(Arc<ObjectType>),
}

/// An object type: attribute types and the names of the optional ones.
/// Optional attributes matter only to conversion; a value's own type never
/// has any.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectType {
    attrs: BTreeMap<String, Type>,
    optional: BTreeSet<String>,
}

impl ObjectType {
    /// An object type; optional names that are not attributes are dropped
    /// (go-cty panics on them; dropping is the panic-free equivalent).
    /// Attribute names are NFC-normalised, as go-cty's `cty.Object` does, so
    /// that they agree with the (normalised) names of object values.
    pub fn new(attrs: BTreeMap<String, Type>, optional: BTreeSet<String>) -> ObjectType {
        let attrs = nfc_keys(attrs);
        let optional = if optional.is_empty() {
            optional
        } else {
            optional.into_iter().map(|name| nfc(&name)).filter(|name| attrs.contains_key(name)).collect()
        };
        ObjectType { attrs, optional }
    }

    pub fn attrs(&self) -> &BTreeMap<String, Type> {
        &self.attrs
    }

    pub fn optional(&self) -> &BTreeSet<String> {
        &self.optional
    }

    pub fn is_optional(&self, name: &str) -> bool {
        self.optional.contains(name)
    }
}

impl Type {
    pub fn list(ety: Type) -> Type {
        Type::List(Arc::new(ety))
    }

    pub fn set(ety: Type) -> Type {
        Type::Set(Arc::new(ety))
    }

    pub fn map(ety: Type) -> Type {
        Type::Map(Arc::new(ety))
    }

    pub fn tuple(etys: Vec<Type>) -> Type {
        Type::Tuple(etys)
    }

    /// An object type without optional attributes.
    pub fn object(attrs: BTreeMap<String, Type>) -> Type {
        Type::Object(Arc::new(ObjectType::new(attrs, BTreeSet::new())))
    }

    /// `cty.ObjectWithOptionalAttrs`.
    pub fn object_with_optional(attrs: BTreeMap<String, Type>, optional: BTreeSet<String>) -> Type {
        Type::Object(Arc::new(ObjectType::new(attrs, optional)))
    }

    /// Convenience for tests and callers with literal attribute lists.
    pub fn object_from<I, S>(attrs: I) -> Type
    where
        I: IntoIterator<Item = (S, Type)>,
        S: Into<String>,
    {
        Type::object(attrs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    pub fn empty_object() -> Type {
        Type::object(BTreeMap::new())
    }

    pub fn empty_tuple() -> Type {
        Type::Tuple(Vec::new())
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::Bool | Type::Number | Type::String)
    }

    pub fn is_dynamic(&self) -> bool {
        matches!(self, Type::Dynamic)
    }

    pub fn is_list(&self) -> bool {
        matches!(self, Type::List(_))
    }

    pub fn is_set(&self) -> bool {
        matches!(self, Type::Set(_))
    }

    pub fn is_map(&self) -> bool {
        matches!(self, Type::Map(_))
    }

    pub fn is_tuple(&self) -> bool {
        matches!(self, Type::Tuple(_))
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Type::Object(_))
    }

    /// List, set or map.
    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    /// The element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(e) | Type::Set(e) | Type::Map(e) => Some(e),
            _ => None,
        }
    }

    pub fn tuple_element_types(&self) -> Option<&[Type]> {
        match self {
            Type::Tuple(etys) => Some(etys),
            _ => None,
        }
    }

    pub fn attribute_types(&self) -> Option<&BTreeMap<String, Type>> {
        match self {
            Type::Object(o) => Some(o.attrs()),
            _ => None,
        }
    }

    pub fn attribute_type(&self, name: &str) -> Option<&Type> {
        self.attribute_types()?.get(name)
    }

    /// True when the dynamic pseudo-type appears anywhere in the type
    /// (`cty.Type.HasDynamicTypes`).
    pub fn has_dynamic_types(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::Bool | Type::Number | Type::String => false,
            Type::List(e) | Type::Set(e) | Type::Map(e) => e.has_dynamic_types(),
            Type::Tuple(etys) => etys.iter().any(Type::has_dynamic_types),
            Type::Object(o) => o.attrs.values().any(Type::has_dynamic_types),
        }
    }

    /// The same type with every optional-attribute annotation removed,
    /// at every depth (`WithoutOptionalAttributesDeep`).
    pub fn without_optional_attrs_deep(&self) -> Type {
        self.without_optional_attrs_if_any().unwrap_or_else(|| self.clone())
    }

    /// [`Type::without_optional_attrs_deep`], or `None` when no object in
    /// the type has an optional attribute: the type is then shared, not
    /// built again (conversions ask this of their target type at every
    /// level of a nested value).
    fn without_optional_attrs_if_any(&self) -> Option<Type> {
        match self {
            Type::Bool | Type::Number | Type::String | Type::Dynamic => None,
            Type::List(e) => e.without_optional_attrs_if_any().map(Type::list),
            Type::Set(e) => e.without_optional_attrs_if_any().map(Type::set),
            Type::Map(e) => e.without_optional_attrs_if_any().map(Type::map),
            Type::Tuple(etys) => {
                let changed: Vec<Option<Type>> =
                    etys.iter().map(Type::without_optional_attrs_if_any).collect();
                changed.iter().any(Option::is_some).then(|| {
                    Type::Tuple(
                        changed
                            .into_iter()
                            .zip(etys)
                            .map(|(new, old)| new.unwrap_or_else(|| old.clone()))
                            .collect(),
                    )
                })
            }
            Type::Object(o) => {
                let changed: Vec<Option<Type>> =
                    o.attrs.values().map(Type::without_optional_attrs_if_any).collect();
                (!o.optional.is_empty() || changed.iter().any(Option::is_some)).then(|| {
                    Type::object(
                        o.attrs
                            .iter()
                            .zip(changed)
                            .map(|((name, old), new)| (name.clone(), new.unwrap_or_else(|| old.clone())))
                            .collect(),
                    )
                })
            }
        }
    }

    /// The reference's `FriendlyName`, used in error messages.
    pub fn friendly_name(&self) -> String {
        match self {
            Type::Bool => "bool".into(),
            Type::Number => "number".into(),
            Type::String => "string".into(),
            Type::Dynamic => "dynamic".into(),
            Type::List(e) => format!("list of {}", e.friendly_name()),
            Type::Set(e) => format!("set of {}", e.friendly_name()),
            Type::Map(e) => format!("map of {}", e.friendly_name()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
        }
    }

    /// The reference's `FriendlyNameForConstraint`: as [`Type::friendly_name`]
    /// but for a type asked for, where the dynamic pseudo-type means "any
    /// type" and a collection of it "any single type".
    pub fn friendly_name_for_constraint(&self) -> String {
        match self {
            Type::Dynamic => "any type".into(),
            Type::List(e) | Type::Set(e) | Type::Map(e) => {
                let kind = match self {
                    Type::List(_) => "list",
                    Type::Set(_) => "set",
                    _ => "map",
                };
                if e.is_dynamic() {
                    format!("{kind} of any single type")
                } else {
                    format!("{kind} of {}", e.friendly_name_for_constraint())
                }
            }
            _ => self.friendly_name(),
        }
    }

    /// The cty JSON encoding of the type (`ctyjson.MarshalType`), compact.
    pub fn to_json_string(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    pub(crate) fn write_json(&self, out: &mut String) {
        match self {
            Type::Bool => out.push_str("\"bool\""),
            Type::Number => out.push_str("\"number\""),
            Type::String => out.push_str("\"string\""),
            Type::Dynamic => out.push_str("\"dynamic\""),
            Type::List(e) | Type::Set(e) | Type::Map(e) => {
                out.push_str(match self {
                    Type::List(_) => "[\"list\",",
                    Type::Set(_) => "[\"set\",",
                    _ => "[\"map\",",
                });
                e.write_json(out);
                out.push(']');
            }
            Type::Tuple(etys) => {
                out.push_str("[\"tuple\",[");
                for (i, t) in etys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    t.write_json(out);
                }
                out.push_str("]]");
            }
            Type::Object(o) => {
                out.push_str("[\"object\",{");
                for (i, (name, t)) in o.attrs.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    json::write_string(out, name);
                    out.push(':');
                    t.write_json(out);
                }
                out.push('}');
                // go-cty adds the sorted optional names only when there are
                // any, so a plain object stays a two-element array.
                if !o.optional.is_empty() {
                    out.push_str(",[");
                    for (i, name) in o.optional.iter().enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        json::write_string(out, name);
                    }
                    out.push(']');
                }
                out.push(']');
            }
        }
    }

    /// Decodes the cty JSON encoding of a type (`ctyjson.UnmarshalType`).
    pub fn from_json_str(text: &str) -> Result<Type, json::JsonError> {
        let doc = json::parse(text)?;
        Type::from_json(&doc)
    }

    pub(crate) fn from_json(doc: &Json) -> Result<Type, json::JsonError> {
        let err = |msg: &str| json::JsonError(msg.to_string());
        match doc {
            Json::String(name) => match name.as_str() {
                "bool" => Ok(Type::Bool),
                "number" => Ok(Type::Number),
                "string" => Ok(Type::String),
                "dynamic" => Ok(Type::Dynamic),
                _ => Err(json::JsonError(format!("invalid primitive type name {name:?}"))),
            },
            Json::Array(items) => {
                let Some(Json::String(kind)) = items.first() else {
                    return Err(err("invalid complex type kind name"));
                };
                let arity_ok = match kind.as_str() {
                    "object" => items.len() == 2 || items.len() == 3,
                    _ => items.len() == 2,
                };
                if !arity_ok {
                    return Err(err("unexpected extra data in type description"));
                }
                let arg = &items[1];
                match kind.as_str() {
                    "list" => Ok(Type::list(Type::from_json(arg)?)),
                    "set" => Ok(Type::set(Type::from_json(arg)?)),
                    "map" => Ok(Type::map(Type::from_json(arg)?)),
                    "tuple" => {
                        let Json::Array(etys) = arg else {
                            return Err(err("tuple element types must be an array"));
                        };
                        let etys = etys.iter().map(Type::from_json).collect::<Result<Vec<_>, _>>()?;
                        Ok(Type::Tuple(etys))
                    }
                    "object" => {
                        let Json::Object(members) = arg else {
                            return Err(err("object attribute types must be an object"));
                        };
                        let mut attrs = BTreeMap::new();
                        for (name, t) in members {
                            // Go decodes into a map: a repeated name keeps
                            // the last.
                            attrs.insert(name.clone(), Type::from_json(t)?);
                        }
                        let mut optional = BTreeSet::new();
                        if let Some(opt) = items.get(2) {
                            let Json::Array(names) = opt else {
                                return Err(err("optional attributes must be an array"));
                            };
                            for n in names {
                                let Json::String(n) = n else {
                                    return Err(err("optional attribute names must be strings"));
                                };
                                if !attrs.contains_key(n) {
                                    return Err(json::JsonError(format!(
                                        "optional attribute {n:?} is not an attribute"
                                    )));
                                }
                                optional.insert(n.clone());
                            }
                        }
                        Ok(Type::Object(Arc::new(ObjectType::new(attrs, optional))))
                    }
                    _ => Err(err("invalid complex type kind name")),
                }
            }
            _ => Err(err("invalid type description")),
        }
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

impl fmt::Debug for ObjectType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Type::Object(Arc::new(self.clone())).to_json_string())
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json_string())
    }
}

#[cfg(test)]
mod tests;
