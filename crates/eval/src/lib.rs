//! Evaluation of HCL expressions over the position-free HIR.
//!
//! This crate owns what an expression means: [`eval_expr`] computes the
//! [`Value`] of an expression of a `hir` arena in an evaluation [`Context`]
//! (root variables and a table of [`Function`]s), following the reference
//! implementation (Go HCL v2.24's `hclsyntax` with go-cty v1.16): templates
//! with their strip markers and heredoc indentation trimming, operators with
//! the reference's operand conversions (`&&` and `||` short-circuiting),
//! conditionals with type unification, collection constructors, `for`
//! expressions, traversals, both splats, function calls with `...`
//! expansion and namespaced names, and unknown values flowing through each
//! with what is known of them (go-cty's refinements: not null, a string
//! prefix, number and length bounds). The function model ([`Function`],
//! [`Param`], a result's refinements, and [`Context::namespaces`] for names
//! only the running tool knows) lets applications add their own functions;
//! [`stdlib`] holds go-cty's standard library and `try`/`can`.
//!
//! Errors are [`EvalError`]s naming the [`ExprId`] of their subject; text
//! ranges come from the HIR's source map at the edge, since the HIR holds
//! none. It must never depend on the command line (the `cli` package) or
//! render diagnostics: front ends do that.
//!
//! No input makes evaluation panic or overflow the stack. Recursion follows
//! the expression tree, whose nesting the parser bounds; long operator
//! chains, which it allows, are evaluated on a thread with a stack sized to
//! the tree's depth, and [`MAX_DEPTH`] caps the depth for arenas built by
//! other means.
//!
//! Nor does any input make it spend unbounded memory or time: the
//! [`Limits`] of the context ([`Context::limits`], [`Limits::DEFAULT`]
//! unless the application sets others) bound the size of every value an
//! evaluation builds (elements and bytes, measured as they are built: a
//! `for` per element, a template per part, a function that could copy an
//! argument many times before it copies), the digits of every number, and
//! the steps of one [`eval_expr`]. Going past one is an
//! [`EvalErrorKind::LimitExceeded`] error about the expression that did,
//! which `try` and `can` do not catch.

pub mod conformance;
mod datetime;
mod error;
mod expr;
mod format;
mod function;
pub mod limits;
pub mod stdlib;
mod template;

use std::collections::BTreeMap;

pub use hir::ExprId;
pub use value::{Type, Value};

pub use crate::error::{EvalError, EvalErrorKind, Operand};
pub use crate::expr::{eval_expr, eval_expr_metered, suggest};
pub use crate::function::{Function, FunctionError, ImplFn, Param, RefineFn, TypeFn};
pub use crate::limits::{Exceeded, Limit, Limits};

/// How deep evaluation recurses before it gives up with an error.
pub const MAX_DEPTH: usize = 10_000;

/// An evaluation context: root variables and functions, and the evaluation
/// mode of `spec/expression-evaluation.rst`. Without variables (the
/// reference's nil `Variables` map, or no context at all) a reference to a
/// variable fails with "Variables not allowed" rather than naming the
/// variable as unknown; without functions a call fails with "Function calls
/// not allowed".
#[derive(Clone)]
pub struct Context {
    pub variables: BTreeMap<String, Value>,
    pub functions: BTreeMap<String, Function>,
    /// Functions that stand for every namespaced name under a namespace
    /// (a key ending in `::`, such as `provider::`) that is not itself in
    /// [`Context::functions`]: an application's extension point whose
    /// names only the running tool knows (Terraform's provider-defined
    /// functions). The longest matching namespace wins; the empty key
    /// matches every namespaced name.
    pub namespaces: BTreeMap<String, Function>,
    pub variables_allowed: bool,
    pub functions_allowed: bool,
    /// What one evaluation may spend ([`Limits::DEFAULT`] unless set).
    pub limits: Limits,
}

impl Default for Context {
    fn default() -> Context {
        Context {
            variables: BTreeMap::new(),
            functions: BTreeMap::new(),
            namespaces: BTreeMap::new(),
            variables_allowed: true,
            functions_allowed: true,
            limits: Limits::DEFAULT,
        }
    }
}

impl Context {
    /// A full context with no variables or functions yet.
    pub fn new() -> Context {
        Context::default()
    }

    /// No context at all (the reference's nil `EvalContext`): neither
    /// variables nor function calls are allowed.
    pub fn none() -> Context {
        Context { variables_allowed: false, functions_allowed: false, ..Context::default() }
    }

    /// A context whose function table is go-cty's standard library (the
    /// names of the conformance README) with `try` and `can`.
    pub fn with_stdlib() -> Context {
        Context { functions: stdlib::functions(), ..Context::default() }
    }
}
