//! Type constraint expressions (`spec/ext-typeexpr.md`): `string`,
//! `list(number)`, `object({ a = optional(string, "x") })`, and the defaults
//! `optional()` declares, applied to a value before conversion.

use value::{Type, Value};

use crate::{Diagnostics, Expression};

/// A type constraint with the defaults its `optional()` attributes declare.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeConstraint {
    pub ty: Type,
    pub defaults: Option<Defaults>,
}

/// Defaults for the optional attributes of an object type, nested the way
/// the type is.
#[derive(Debug, Clone, PartialEq)]
pub struct Defaults {
    pub ty: Type,
    pub defaults: Vec<(String, Value)>,
    pub children: Vec<(Option<String>, Defaults)>,
}

/// `typeexpr.TypeConstraint`: a type without `optional()`.
pub fn type_constraint(expr: &Expression) -> Result<Type, Diagnostics> {
    todo!()
}

/// `typeexpr.TypeConstraintWithDefaults`.
pub fn type_constraint_with_defaults(expr: &Expression) -> Result<TypeConstraint, Diagnostics> {
    todo!()
}

impl Defaults {
    /// `Defaults.Apply`: fills null optional attributes with their defaults.
    pub fn apply(&self, value: Value) -> Value {
        todo!()
    }
}

/// `typeexpr.TypeString`: the type as the constraint expression that means it.
pub fn type_string(ty: &Type) -> String {
    todo!()
}
