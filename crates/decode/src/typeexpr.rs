//! Type constraint expressions (`spec/ext-typeexpr.md`): `string`,
//! `list(number)`, `object({ a = optional(string, "x") })`, and the defaults
//! `optional()` declares, applied to a value before conversion.
//!
//! A type expression is never evaluated: it is read through the static
//! analyses of [`Expression`] (a keyword, a call by name, a static list or
//! map), so it means the same in either syntax. Only the default value of
//! `optional(T, default)` is evaluated, without any context.

mod defaults;

use std::collections::{BTreeMap, BTreeSet};

use value::{Type, Value};

use crate::{Diagnostic, Diagnostics, Expression, Range};

/// A type constraint with the defaults its `optional()` attributes declare.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeConstraint {
    pub ty: Type,
    /// Boxed: a module keeps a constraint for every variable with a
    /// `type`, and nearly none declares defaults.
    pub defaults: Option<Box<Defaults>>,
}

/// Defaults for the optional attributes of an object type, nested the way
/// the type is (the reference's `typeexpr.Defaults`).
#[derive(Debug, Clone, PartialEq)]
pub struct Defaults {
    /// The type of the node these defaults belong to; it says how a value's
    /// elements find their child defaults.
    pub ty: Type,
    /// Default values of optional attributes, by attribute name, each
    /// already converted to its attribute's type.
    pub defaults: Vec<(String, Value)>,
    /// Defaults deeper down: by attribute name for an object, by decimal
    /// index for a tuple, and under `None` for a collection's elements.
    pub children: Vec<(Option<String>, Defaults)>,
}

const INVALID_TYPE_SUMMARY: &str = "Invalid type specification";

/// `typeexpr.Type`: an exact type, without `any` or `optional()`.
pub fn exact_type(expr: &Expression) -> Result<Type, Diagnostics> {
    let (ty, _, diagnostics) = get_type(expr, Mode::Exact);
    into_result(ty, diagnostics)
}

/// `typeexpr.TypeConstraint`: a type where `any` stands for the dynamic
/// pseudo-type and object attributes may be `optional(T)`.
pub fn type_constraint(expr: &Expression) -> Result<Type, Diagnostics> {
    let (ty, _, diagnostics) = get_type(expr, Mode::Constraint);
    into_result(ty, diagnostics)
}

/// `typeexpr.TypeConstraintWithDefaults`: as [`type_constraint`], and an
/// optional attribute may also give a default, `optional(T, default)`.
pub fn type_constraint_with_defaults(expr: &Expression) -> Result<TypeConstraint, Diagnostics> {
    let (ty, defaults, diagnostics) = get_type(expr, Mode::ConstraintWithDefaults);
    into_result(TypeConstraint { ty, defaults: defaults.map(Box::new) }, diagnostics)
}

/// The reference returns a type and its diagnostics together; a caller here
/// gets the type only when nothing is wrong. Warnings are never produced.
fn into_result<T>(ok: T, diagnostics: Diagnostics) -> Result<T, Diagnostics> {
    if diagnostics.is_empty() { Ok(ok) } else { Err(diagnostics) }
}

/// What a type expression may contain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Exact,
    Constraint,
    ConstraintWithDefaults,
}

impl Mode {
    fn is_constraint(self) -> bool {
        self != Mode::Exact
    }
}

fn invalid(detail: impl Into<String>, subject: Range, context: Option<Range>) -> Diagnostic {
    let mut diagnostic = Diagnostic::error(INVALID_TYPE_SUMMARY, detail, Some(subject));
    diagnostic.context = context;
    diagnostic
}

/// From the start of `first` to the end of `last` (`hcl.RangeBetween`).
fn range_between(first: &Range, last: &Range) -> Range {
    Range { filename: first.filename.clone(), start: first.start, end: last.end }
}

fn element_detail(constructor: &str) -> String {
    match constructor {
        "object" => {
            "The object type constructor requires one argument specifying the attribute types and values as a map."
                .to_string()
        }
        "tuple" => "The tuple type constructor requires one argument specifying the element types as a list.".to_string(),
        _ => format!("The {constructor} type constructor requires one argument specifying the element type."),
    }
}

/// The reference's `getType`: the type, the defaults found inside it, and
/// every problem. On a problem the type is the dynamic pseudo-type, so a
/// caller that goes on finds no further errors from it.
fn get_type(expr: &Expression, mode: Mode) -> (Type, Option<Defaults>, Diagnostics) {
    if let Some(keyword) = expr.as_keyword() {
        let detail = match keyword.as_str() {
            "bool" => return (Type::Bool, None, Vec::new()),
            "string" => return (Type::String, None, Vec::new()),
            "number" => return (Type::Number, None, Vec::new()),
            "any" if mode.is_constraint() => return (Type::Dynamic, None, Vec::new()),
            "any" => {
                format!(
                    "The keyword {keyword:?} cannot be used in this type specification: an exact type is required."
                )
            }
            "list" | "map" | "set" | "object" | "tuple" => element_detail(&keyword),
            _ => format!("The keyword {keyword:?} is not a valid type specification."),
        };
        return (Type::Dynamic, None, vec![invalid(detail, expr.range(), None)]);
    }

    let Some(call) = expr.as_call() else {
        let detail = "A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string).";
        return (Type::Dynamic, None, vec![invalid(detail, expr.range(), None)]);
    };

    let name = call.name.as_str();
    match name {
        "bool" | "string" | "number" => {
            let detail = format!("Primitive type keyword {name:?} does not expect arguments.");
            return (Type::Dynamic, None, vec![invalid(detail, call.arguments_range(), None)]);
        }
        "any" => {
            let detail = format!("Type constraint keyword {name:?} does not expect arguments.");
            return (Type::Dynamic, None, vec![invalid(detail, call.arguments_range(), None)]);
        }
        _ => {}
    }

    let argument = match call.arguments.as_slice() {
        [only] => Some(only),
        arguments => {
            if matches!(name, "list" | "set" | "map" | "object" | "tuple") {
                // Too many arguments are pointed at themselves; too few at
                // the parentheses that should hold one.
                let subject = match arguments {
                    [_, second, .., last] => range_between(&second.range(), &last.range()),
                    [_, second] => second.range(),
                    _ => call.arguments_range(),
                };
                let diagnostic = invalid(element_detail(name), subject, Some(call.arguments_range()));
                return (Type::Dynamic, None, vec![diagnostic]);
            }
            None
        }
    };

    match (name, argument) {
        ("list", Some(argument)) => {
            let (ety, defaults, diagnostics) = get_type(argument, mode);
            let ty = Type::list(ety);
            (ty.clone(), collection_defaults(ty, defaults), diagnostics)
        }
        ("set", Some(argument)) => {
            let (ety, defaults, diagnostics) = get_type(argument, mode);
            let ty = Type::set(ety);
            (ty.clone(), collection_defaults(ty, defaults), diagnostics)
        }
        ("map", Some(argument)) => {
            let (ety, defaults, diagnostics) = get_type(argument, mode);
            let ty = Type::map(ety);
            (ty.clone(), collection_defaults(ty, defaults), diagnostics)
        }
        ("object", Some(argument)) => object_type(expr, argument, mode),
        ("tuple", Some(argument)) => {
            let Some(elements) = argument.as_list() else {
                let detail = "Tuple type constructor requires a list of element types.";
                return (Type::Dynamic, None, vec![invalid(detail, argument.range(), Some(expr.range()))]);
            };
            let mut diagnostics = Vec::new();
            let mut etys = Vec::with_capacity(elements.len());
            let mut children = Vec::new();
            for (index, element) in elements.iter().enumerate() {
                let (ety, defaults, element_diagnostics) = get_type(element, mode);
                diagnostics.extend(element_diagnostics);
                etys.push(ety);
                if let Some(defaults) = defaults {
                    children.push((Some(index.to_string()), defaults));
                }
            }
            let ty = Type::tuple(etys);
            (ty.clone(), structured_defaults(ty, Vec::new(), children), diagnostics)
        }
        ("optional", _) => {
            let detail = format!("Keyword {name:?} is valid only as a modifier for object type attributes.");
            (Type::Dynamic, None, vec![invalid(detail, call.name_range(), None)])
        }
        _ => {
            let detail = format!("Keyword {name:?} is not a valid type constructor.");
            (Type::Dynamic, None, vec![invalid(detail, expr.range(), None)])
        }
    }
}

/// `object({ name = T, other = optional(T, default) })`.
fn object_type(
    expr: &Expression,
    argument: &Expression,
    mode: Mode,
) -> (Type, Option<Defaults>, Diagnostics) {
    let Some(attribute_definitions) = argument.as_map() else {
        let detail = "Object type constructor requires a map whose keys are attribute names and whose values are the corresponding attribute types.";
        return (Type::Dynamic, None, vec![invalid(detail, argument.range(), Some(expr.range()))]);
    };

    let mut diagnostics = Vec::new();
    let mut attribute_types = BTreeMap::new();
    let mut optional = BTreeSet::new();
    // By name, so that a repeated attribute keeps its last definition as the
    // reference's maps do.
    let mut default_values: BTreeMap<String, Value> = BTreeMap::new();
    let mut children: BTreeMap<String, Defaults> = BTreeMap::new();

    for (key, type_expr) in &attribute_definitions {
        let Some(name) = key.as_keyword() else {
            let detail = "Object constructor map keys must be attribute names.";
            diagnostics.push(invalid(detail, key.range(), Some(expr.range())));
            continue;
        };
        let name = name.to_string();
        let mut type_expr = type_expr.clone();
        let mut default_expr = None;

        if let Some(call) = type_expr.as_call().filter(|call| call.name == "optional") {
            // Found only for a diagnostic: finding the range walks the tree.
            let context = || Some(type_expr.range());
            let Some(inner) = call.arguments.first().cloned() else {
                let detail = "Optional attribute modifier requires the attribute type as its argument.";
                diagnostics.push(invalid(detail, call.arguments_range(), context()));
                continue;
            };
            match (mode, call.arguments.len()) {
                (Mode::Exact, _) => {
                    let detail =
                        "Optional attribute modifier is only for type constraints, not for exact types.";
                    diagnostics.push(invalid(detail, call.name_range(), context()));
                }
                (Mode::Constraint, 1) | (Mode::ConstraintWithDefaults, 1) => {
                    optional.insert(name.clone());
                }
                (Mode::Constraint, _) => {
                    let detail = "Optional attribute modifier expects only one argument: the attribute type.";
                    diagnostics.push(invalid(detail, call.arguments_range(), context()));
                }
                (Mode::ConstraintWithDefaults, 2) => {
                    let default = call.arguments[1].clone();
                    // A default is a constant: it sees no variables and no
                    // functions, like the reference's evaluation without a
                    // context.
                    let (value, value_diagnostics) = default.value(&eval::Context::none());
                    let failed = crate::diagnostic::has_errors(&value_diagnostics);
                    diagnostics.extend(value_diagnostics);
                    if !failed {
                        optional.insert(name.clone());
                        default_values.insert(name.clone(), value);
                    }
                    default_expr = Some(default);
                }
                (Mode::ConstraintWithDefaults, _) => {
                    let detail = "Optional attribute modifier expects at most two arguments: the attribute type, and a default value.";
                    diagnostics.push(invalid(detail, call.arguments_range(), context()));
                }
            }
            type_expr = inner;
        }

        let (attribute_type, attribute_defaults, attribute_diagnostics) = get_type(&type_expr, mode);
        diagnostics.extend(attribute_diagnostics);

        // A default must fit its attribute's type; it is kept converted, so
        // that applying it gives a value of the declared type.
        if let (Some(default), Some(default_expr)) = (default_values.remove(&name), default_expr) {
            match value::convert(&default, &attribute_type) {
                Ok(converted) => {
                    default_values.insert(name.clone(), converted);
                }
                Err(error) => diagnostics.push(Diagnostic::error(
                    "Invalid default value for optional attribute",
                    format!(
                        "This default value is not compatible with the attribute's type constraint: {error}."
                    ),
                    Some(default_expr.range()),
                )),
            }
        }

        attribute_types.insert(name.clone(), attribute_type);
        match attribute_defaults {
            Some(attribute_defaults) => {
                children.insert(name, attribute_defaults);
            }
            None => {
                children.remove(&name);
            }
        }
    }

    let ty = Type::object_with_optional(attribute_types, optional);
    let default_values = default_values.into_iter().collect();
    let children = children.into_iter().map(|(name, defaults)| (Some(name), defaults)).collect();
    (ty.clone(), structured_defaults(ty, default_values, children), diagnostics)
}

/// The defaults of a list, set or map: those of its element type, if any.
fn collection_defaults(ty: Type, element_defaults: Option<Defaults>) -> Option<Defaults> {
    let element_defaults = element_defaults?;
    Some(Defaults { ty, defaults: Vec::new(), children: vec![(None, element_defaults)] })
}

/// The defaults of an object or tuple, or none when it has nothing to add.
fn structured_defaults(
    ty: Type,
    defaults: Vec<(String, Value)>,
    children: Vec<(Option<String>, Defaults)>,
) -> Option<Defaults> {
    if defaults.is_empty() && children.is_empty() {
        return None;
    }
    Some(Defaults { ty, defaults, children })
}

/// `value` converted to the constraint's type after its defaults are
/// applied: what a variable declaration with a `type` does to the value it
/// is given. The error is the conversion's message.
pub fn convert_with_defaults(value: &Value, constraint: &TypeConstraint) -> Result<Value, String> {
    let with_defaults = match &constraint.defaults {
        Some(defaults) => defaults.apply(value.clone()),
        None => value.clone(),
    };
    value::convert(&with_defaults, &constraint.ty).map_err(|error| error.to_string())
}

/// `typeexpr.TypeString`: the type as the constraint expression that means
/// it. Like the reference, optional attributes are written as plain ones.
pub fn type_string(ty: &Type) -> String {
    let mut out = String::new();
    write_type(&mut out, ty);
    out
}

fn write_type(out: &mut String, ty: &Type) {
    match ty {
        Type::String => out.push_str("string"),
        Type::Bool => out.push_str("bool"),
        Type::Number => out.push_str("number"),
        Type::Dynamic => out.push_str("any"),
        Type::List(ety) | Type::Set(ety) | Type::Map(ety) => {
            out.push_str(match ty {
                Type::List(_) => "list(",
                Type::Set(_) => "set(",
                _ => "map(",
            });
            write_type(out, ety);
            out.push(')');
        }
        Type::Object(object) => {
            out.push_str("object({");
            // Attribute names sort bytewise, as Go's sort.Strings does.
            for (index, (name, aty)) in object.attrs().iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                if is_identifier(name) {
                    out.push_str(name);
                } else {
                    value::set::go_quote(out, name);
                }
                out.push('=');
                write_type(out, aty);
            }
            out.push_str("})");
        }
        Type::Tuple(etys) => {
            out.push_str("tuple([");
            for (index, ety) in etys.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                write_type(out, ety);
            }
            out.push_str("])");
        }
    }
}

/// Whether `name` is one identifier of the native syntax
/// (`hclsyntax.ValidIdentifier`).
fn is_identifier(name: &str) -> bool {
    let lexed = syntax::lexer::lex(name);
    lexed.len() == 1 && lexed.kind(0) == syntax::SyntaxKind::IDENT && lexed.errors().is_empty()
}

#[cfg(test)]
mod tests;
