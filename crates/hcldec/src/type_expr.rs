//! Type expressions of spec files (`cmd/hcldec/type_expr.go`): `string`,
//! `number`, `bool`, `any`, `list(T)`, `set(T)`, `map(T)`,
//! `tuple([T, …])`, `object({name = T, …})`, and null for `any`.
//!
//! The reference evaluates them with the type keywords as variables and the
//! constructors as functions over a capsule type. Values here have no
//! capsule type, so the expression is read by static analysis instead; an
//! expression of another shape is evaluated, and must be null (an absent
//! `type` attribute) to mean `any`.

use std::collections::BTreeMap;

use decode::{Diagnostic, Diagnostics, Expression};
use value::{Type, Value};

use crate::decode::quote;

/// The type `expr` means, or `any` with the diagnostics that say why not.
pub fn type_expr(expr: &Expression) -> (Type, Diagnostics) {
    let mut diags = Diagnostics::new();
    match read_type(expr, &mut diags) {
        Some(ty) => (ty, diags),
        None => {
            // The reference's failed evaluation leaves the dynamic value,
            // which is not a type either; it says so too, without a range.
            if diags.iter().all(|diag| diag.summary != "Invalid type expression") {
                diags.push(Diagnostic::error(
                    "Invalid type expression",
                    "A type is required, not dynamic.",
                    None,
                ));
            }
            (Type::Dynamic, diags)
        }
    }
}

/// The reference's "Did you mean" hint: the first candidate within two
/// edits of `given`.
fn suggestion(given: &str, candidates: &[&str]) -> String {
    candidates
        .iter()
        .find(|candidate| strsim::levenshtein(given, candidate) < 3)
        .map(|candidate| format!(" Did you mean {}?", quote(candidate)))
        .unwrap_or_default()
}

fn read_type(expr: &Expression, diags: &mut Diagnostics) -> Option<Type> {
    if let Some(keyword) = expr.as_keyword() {
        return match keyword.as_str() {
            "string" => Some(Type::String),
            "number" => Some(Type::Number),
            "bool" => Some(Type::Bool),
            "any" => Some(Type::Dynamic),
            // Read as the literal it is, below.
            "null" | "true" | "false" => value_as_type(expr, diags),
            name => {
                diags.push(Diagnostic::error(
                    "Unknown variable",
                    format!(
                        "There is no variable named {}.{}",
                        quote(name),
                        suggestion(name, &["any", "bool", "number", "string"])
                    ),
                    Some(expr.range()),
                ));
                None
            }
        };
    }
    if let Some(call) = expr.as_call() {
        let constructor = call.name.as_str();
        if !matches!(constructor, "list" | "set" | "map" | "tuple" | "object") {
            diags.push(Diagnostic::error(
                "Call to unknown function",
                format!(
                    "There is no function named {}.{}",
                    quote(constructor),
                    suggestion(constructor, &["list", "map", "object", "set", "tuple"])
                ),
                Some(call.name_range()),
            ));
            return None;
        }
        let [arg] = call.arguments.as_slice() else {
            let diag = match call.arguments.get(1) {
                None => {
                    let param = match constructor {
                        "tuple" => "element_types",
                        "object" => "attribute_types",
                        _ => "element_type",
                    };
                    Diagnostic::error(
                        "Not enough function arguments",
                        format!(
                            "Function {} expects 1 argument(s). Missing value for {}.",
                            quote(constructor),
                            quote(param)
                        ),
                        Some(call.arguments_range()),
                    )
                }
                Some(extra) => Diagnostic::error(
                    "Too many function arguments",
                    format!("Function {} expects only 1 argument(s).", quote(constructor)),
                    Some(extra.start_range()),
                ),
            };
            diags.push(diag);
            return None;
        };
        return match constructor {
            "list" => read_type(arg, diags).map(Type::list),
            "set" => read_type(arg, diags).map(Type::set),
            "map" => read_type(arg, diags).map(Type::map),
            "tuple" => {
                let Some(elems) = arg.as_list() else {
                    invalid_argument(arg, "list of type", diags);
                    return None;
                };
                let mut types = Vec::with_capacity(elems.len());
                for elem in &elems {
                    types.push(read_type(elem, diags)?);
                }
                Some(Type::tuple(types))
            }
            _ => {
                let Some(items) = arg.as_map() else {
                    invalid_argument(arg, "map of type", diags);
                    return None;
                };
                let mut attrs = BTreeMap::new();
                for (key, value) in &items {
                    let name = match key.as_keyword() {
                        Some(name) => name.to_string(),
                        None => {
                            let (key_value, more) = key.value(&eval::Context::none());
                            diags.extend(more);
                            match key_value.as_str() {
                                Some(name) => name.to_string(),
                                None => {
                                    invalid_argument(key, "string", diags);
                                    return None;
                                }
                            }
                        }
                    };
                    attrs.insert(name, read_type(value, diags)?);
                }
                Some(Type::object(attrs))
            }
        };
    }
    value_as_type(expr, diags)
}

/// An expression that is not a type constructor: null means `any`, anything
/// else is not a type.
fn value_as_type(expr: &Expression, diags: &mut Diagnostics) -> Option<Type> {
    let (value, more) = expr.value(&eval::Context::none());
    let failed = decode::diagnostic::has_errors(&more);
    diags.extend(more);
    if failed {
        return None;
    }
    if value.is_null() {
        return Some(Type::Dynamic);
    }
    // The reference gives this one no range.
    diags.push(Diagnostic::error(
        "Invalid type expression",
        format!("A type is required, not {}.", friendly_name(&value)),
        None,
    ));
    None
}

fn friendly_name(value: &Value) -> String {
    value.ty().friendly_name()
}

fn invalid_argument(arg: &Expression, wanted: &str, diags: &mut Diagnostics) {
    diags.push(Diagnostic::error(
        "Invalid function argument",
        format!("Invalid value for argument: {wanted} required."),
        Some(arg.range()),
    ));
}
