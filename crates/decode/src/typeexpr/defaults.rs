//! Applying [`Defaults`] to a value: the reference's `Defaults.Apply`, a
//! pre-order walk that fills missing or null optional attributes and then
//! descends into the result, so defaults inside a default are applied too.

use std::collections::BTreeMap;

use value::{Type, Value};

use super::Defaults;

/// How a value's element is reached from its parent, which decides which
/// child defaults apply to it.
enum Step<'a> {
    /// An object attribute.
    Attribute(&'a str),
    /// A list, set or tuple element or a map element, by its key.
    Index(&'a Value),
}

impl Defaults {
    /// `Defaults.Apply`: fills missing and null optional attributes with
    /// their defaults, at every depth the defaults describe. The result may
    /// still need conversion to the constraint's type; a value that does
    /// not fit the defaults' shape is left for that conversion to report.
    ///
    /// Where the reference would panic (a list or set whose elements end up
    /// of different types once some of them received defaults, or a map
    /// whose elements do), the result is a tuple (or an object) of the same
    /// elements instead, which the later conversion turns back into the
    /// collection when it can.
    pub fn apply(&self, value: Value) -> Value {
        transform(value, Some(self))
    }

    /// The defaults of an element reached by `step` from a value these
    /// defaults belong to.
    fn child(&self, step: &Step<'_>) -> Option<&Defaults> {
        let key = match (step, &self.ty) {
            (Step::Attribute(name), Type::Object(_)) => Some(name.to_string()),
            // An object literal given where a map is expected reaches its
            // elements by attribute name; a map has one element type, so the
            // name does not matter.
            (Step::Attribute(_), Type::Map(_)) => None,
            (Step::Index(key), Type::Tuple(_)) => Some(key.as_number()?.to_plain_string()),
            (Step::Index(_), Type::List(_) | Type::Set(_) | Type::Map(_)) => None,
            _ => return None,
        };
        self.children.iter().find(|(name, _)| *name == key).map(|(_, defaults)| defaults)
    }
}

fn transform(value: Value, defaults: Option<&Defaults>) -> Value {
    let value = fill(value, defaults);
    if value.is_null() || !value.is_known() {
        return value;
    }
    let child = |step: Step<'_>| defaults.and_then(|defaults| defaults.child(&step));
    match value.ty() {
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            let Some(elements) = value.elements().filter(|elements| !elements.is_empty()) else {
                return value;
            };
            let mut transformed = Vec::with_capacity(elements.len());
            for (index, element) in elements.iter().enumerate() {
                // A set element's key is the element itself; a sequence's is
                // its index.
                let index_value = Value::int(index as i64);
                let key = if value.ty().is_set() { element } else { &index_value };
                transformed.push(transform(element.clone(), child(Step::Index(key))));
            }
            rebuild_sequence(&value.ty(), transformed)
        }
        Type::Map(_) => {
            let Some(entries) = value.entries().filter(|entries| !entries.is_empty()) else {
                return value;
            };
            let mut transformed = BTreeMap::new();
            for (key, element) in entries {
                let key_value = Value::string(key);
                transformed.insert(key.clone(), transform(element.clone(), child(Step::Index(&key_value))));
            }
            match uniform_type(transformed.values()) {
                Some(ety) => {
                    Value::map(ety, transformed.clone()).unwrap_or_else(|_| Value::object(transformed))
                }
                None => Value::object(transformed),
            }
        }
        Type::Object(_) => {
            let Some(entries) = value.entries().filter(|entries| !entries.is_empty()) else {
                return value;
            };
            let transformed = entries
                .iter()
                .map(|(name, element)| {
                    (name.clone(), transform(element.clone(), child(Step::Attribute(name))))
                })
                .collect();
            Value::object(transformed)
        }
        _ => value,
    }
}

/// When this node declares default values and the value is a known object
/// or map, the value becomes an object with every defaulted attribute that
/// was missing or null set to its default. A null value is left null (HCL
/// v2.24 with Terraform: an attribute that is null gets its default, an
/// object that is null gets none; v2.14 filled a null object as an empty
/// one), so `optional(object({…}), null)` stays null where it is absent.
fn fill(value: Value, defaults: Option<&Defaults>) -> Value {
    let Some(defaults) = defaults.filter(|defaults| !defaults.defaults.is_empty()) else {
        return value;
    };
    if !value.is_known() || value.is_null() {
        return value;
    }
    let ty = value.ty();
    if !ty.is_object() && !ty.is_map() {
        return value;
    }
    let mut attributes = value.entries().map(value::Entries::to_map).unwrap_or_default();
    for (name, default) in &defaults.defaults {
        let missing = attributes.get(name).is_none_or(Value::is_null);
        if missing {
            attributes.insert(name.clone(), default.clone());
        }
    }
    Value::object(attributes)
}

/// A list or set of `elements` when they share one type, as the original
/// was, and a tuple otherwise (see [`Defaults::apply`]).
fn rebuild_sequence(original: &Type, elements: Vec<Value>) -> Value {
    let ety = match original {
        Type::List(_) | Type::Set(_) => uniform_type(elements.iter()),
        _ => None,
    };
    match (original, ety) {
        (Type::List(_), Some(ety)) => {
            Value::list(ety, elements.clone()).unwrap_or_else(|_| Value::tuple(elements))
        }
        (Type::Set(_), Some(ety)) => {
            Value::set(ety, elements.clone()).unwrap_or_else(|_| Value::tuple(elements))
        }
        _ => Value::tuple(elements),
    }
}

/// The one type all of `values` have, if they agree.
fn uniform_type<'a>(mut values: impl Iterator<Item = &'a Value>) -> Option<Type> {
    let first = values.next()?.ty();
    values.all(|value| value.ty() == first).then_some(first)
}
