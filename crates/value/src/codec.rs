//! The cty JSON encoding of values (`ctyjson.Marshal` / `Unmarshal`).
//!
//! One difference, which the eval conformance README asks for: an infinite
//! number is written as the string `"+Inf"` or `"-Inf"` (go-cty refuses to
//! serialise it). Reading accepts those strings anyway, as go-cty does,
//! because a number may be given as a string.

use std::collections::BTreeMap;

use crate::json::{self, Json, JsonError};
use crate::number::{Number, ParseNumberError};
use crate::ty::Type;
use crate::value::Value;

fn err<T>(msg: impl Into<String>) -> Result<T, JsonError> {
    Err(JsonError(msg.into()))
}

pub(crate) fn marshal(v: &Value, ty: &Type, out: &mut String) -> Result<(), JsonError> {
    let vty = v.ty();
    if ty.is_dynamic() && !vty.is_dynamic() {
        // The value's type travels with it, so that it can be read back.
        out.push_str("{\"value\":");
        marshal(v, &vty, out)?;
        out.push_str(",\"type\":");
        vty.write_json(out);
        out.push('}');
        return Ok(());
    }
    if v.is_null() {
        out.push_str("null");
        return Ok(());
    }
    if !v.is_known() {
        return err("value is not known");
    }
    match ty {
        Type::String => {
            let Some(s) = v.as_str() else {
                return err(format!("string required, not {}", vty.friendly_name()));
            };
            json::write_string(out, s);
        }
        Type::Number => {
            let Some(n) = v.as_number() else {
                return err(format!("number required, not {}", vty.friendly_name()));
            };
            if n.is_infinite() {
                json::write_string(out, &n.to_plain_string());
            } else {
                out.push_str(&n.to_plain_string());
            }
        }
        Type::Bool => {
            let Some(b) = v.as_bool() else {
                return err(format!("bool required, not {}", vty.friendly_name()));
            };
            out.push_str(if b { "true" } else { "false" });
        }
        Type::List(ety) | Type::Set(ety) => {
            let same_kind = (ty.is_list() && vty.is_list()) || (ty.is_set() && vty.is_set());
            let Some(elems) = v.elements().filter(|_| same_kind) else {
                return err(format!("{} required", ty.friendly_name()));
            };
            out.push('[');
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                marshal(e, ety, out)?;
            }
            out.push(']');
        }
        Type::Tuple(etys) => {
            let Some(elems) = v.elements().filter(|e| vty.is_tuple() && e.len() == etys.len()) else {
                return err("tuple required");
            };
            out.push('[');
            for (i, (e, t)) in elems.iter().zip(etys).enumerate() {
                if i > 0 {
                    out.push(',');
                }
                marshal(e, t, out)?;
            }
            out.push(']');
        }
        Type::Map(ety) => {
            let Some(entries) = v.entries().filter(|_| vty.is_map()) else {
                return err("map required");
            };
            out.push('{');
            for (i, (k, e)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json::write_string(out, k);
                out.push(':');
                marshal(e, ety, out)?;
            }
            out.push('}');
        }
        Type::Object(oty) => {
            let Some(entries) = v.entries().filter(|_| vty.is_object()) else {
                return err("object required");
            };
            out.push('{');
            for (i, (k, aty)) in oty.attrs().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json::write_string(out, k);
                out.push(':');
                match entries.get(k) {
                    Some(e) => marshal(e, aty, out)?,
                    None => return err(format!("missing attribute {k:?}")),
                }
            }
            out.push('}');
        }
        Type::Dynamic => return err("value of dynamic type cannot be known"),
    }
    Ok(())
}

pub(crate) fn unmarshal(doc: &Json, ty: &Type) -> Result<Value, JsonError> {
    if *doc == Json::Null {
        return Ok(Value::null(ty.clone()));
    }
    match ty {
        Type::Dynamic => {
            let Json::Object(members) = doc else {
                return err("dynamically-typed value must be an object with \"value\" and \"type\"");
            };
            let mut ty = None;
            let mut value = None;
            for (k, v) in members {
                match k.as_str() {
                    "type" => ty = Some(Type::from_json(v)?),
                    "value" => value = Some(v),
                    _ => return err(format!("invalid key {k:?} in dynamically-typed value")),
                }
            }
            let Some(ty) = ty else {
                return err("missing type in dynamically-typed value");
            };
            let Some(value) = value else {
                return err("missing value in dynamically-typed value");
            };
            unmarshal(value, &ty)
        }
        Type::Bool => match doc {
            Json::Bool(b) => Ok(Value::bool(*b)),
            Json::String(s) => match s.as_str() {
                "true" | "1" => Ok(Value::bool(true)),
                "false" | "0" => Ok(Value::bool(false)),
                _ => err("a bool is required"),
            },
            _ => err("bool is required"),
        },
        Type::Number => match doc {
            Json::Number(s) | Json::String(s) => match Number::parse_limited(s, crate::number::MAX_DIGITS) {
                Ok(n) => Ok(Value::number(n)),
                Err(ParseNumberError::Invalid) => err("a number is required"),
                Err(e) => Err(JsonError(e.to_string())),
            },
            _ => err("number is required"),
        },
        Type::String => match doc {
            Json::String(s) | Json::Number(s) => Ok(Value::string(s)),
            Json::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
            _ => err("string is required"),
        },
        Type::List(ety) | Type::Set(ety) => {
            let Json::Array(items) = doc else {
                return err("missing expected [");
            };
            let elems = items.iter().map(|i| unmarshal(i, ety)).collect::<Result<Vec<_>, _>>()?;
            // As go-cty builds the collection from its elements, an element
            // type with dynamic parts takes the elements' actual type; only
            // an empty collection keeps the given one.
            let result = match (ty.is_list(), elems.is_empty()) {
                (true, true) => Value::list((**ety).clone(), elems),
                (true, false) => Value::list_of(elems),
                (false, true) => Value::set((**ety).clone(), elems),
                (false, false) => Value::set_of(elems),
            };
            result.map_err(|e| JsonError(e.0))
        }
        Type::Map(ety) => {
            let Json::Object(members) = doc else {
                return err("missing expected {");
            };
            let mut elems = BTreeMap::new();
            for (k, v) in members {
                elems.insert(k.clone(), unmarshal(v, ety)?);
            }
            let ety = elems.values().next().map(Value::ty).unwrap_or_else(|| (**ety).clone());
            Value::map(ety, elems).map_err(|e| JsonError(e.0))
        }
        Type::Tuple(etys) => {
            let Json::Array(items) = doc else {
                return err("missing expected [");
            };
            if items.len() > etys.len() {
                return err(format!("too many tuple elements (need {})", etys.len()));
            }
            if items.len() < etys.len() {
                return err(format!("not enough tuple elements (need {})", etys.len()));
            }
            let elems =
                items.iter().zip(etys).map(|(i, t)| unmarshal(i, t)).collect::<Result<Vec<_>, _>>()?;
            Ok(Value::tuple(elems))
        }
        Type::Object(oty) => {
            let Json::Object(members) = doc else {
                return err("missing expected {");
            };
            let mut attrs = BTreeMap::new();
            for (k, v) in members {
                let Some(aty) = oty.attrs().get(k) else {
                    return err(format!("unsupported attribute {k:?}"));
                };
                attrs.insert(k.clone(), unmarshal(v, aty)?);
            }
            // Attributes the document leaves out are nulls of their type.
            for (k, aty) in oty.attrs() {
                if !attrs.contains_key(k) {
                    attrs.insert(k.clone(), Value::null(aty.clone()));
                }
            }
            Ok(Value::object(attrs))
        }
    }
}

/// The value of a JSON document with the types JSON implies.
pub(crate) fn implied(doc: &Json) -> Result<Value, JsonError> {
    Ok(match doc {
        Json::Null => Value::null(Type::Dynamic),
        Json::Bool(b) => Value::bool(*b),
        Json::Number(s) => {
            Value::number(Number::parse_limited(s, crate::number::MAX_DIGITS).map_err(|e| match e {
                ParseNumberError::Invalid => JsonError(format!("invalid number {s}")),
                e => JsonError(e.to_string()),
            })?)
        }
        Json::String(s) => Value::string(s),
        Json::Array(items) => Value::tuple(items.iter().map(implied).collect::<Result<_, _>>()?),
        Json::Object(members) => {
            let mut attrs = BTreeMap::new();
            for (k, v) in members {
                attrs.insert(k.clone(), implied(v)?);
            }
            Value::object(attrs)
        }
    })
}
