//! Evaluation errors as typed kinds.
//!
//! Every error the evaluator reports is an [`EvalErrorKind`] with the data
//! a reader needs (the names involved, a did-you-mean, the types that did
//! not fit), and a detail sentence in the reference's words. The summary is
//! a function of the kind, so that whoever classifies an error (a rule code,
//! a severity, a diagnostic's range) matches on the kind and never on text.

use std::fmt;

use smol_str::SmolStr;
use value::Type;

use crate::ExprId;
use crate::limits::Exceeded;

/// An evaluation error: what went wrong, about which expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// The expression the error is about (its subject range, at the edge).
    pub expr: ExprId,
    pub kind: EvalErrorKind,
    /// The reference's detail sentence for this error.
    pub detail: String,
}

impl EvalError {
    pub fn new(expr: ExprId, kind: EvalErrorKind, detail: impl Into<String>) -> EvalError {
        EvalError { expr, kind, detail: detail.into() }
    }

    /// The reference's one-line summary, like "Unsupported attribute".
    pub fn summary(&self) -> &'static str {
        self.kind.summary()
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail.is_empty() {
            f.write_str(self.summary())
        } else {
            write!(f, "{}: {}", self.summary(), self.detail)
        }
    }
}

impl std::error::Error for EvalError {}

/// Which operand of an operator did not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Left,
    Right,
    /// The operand of `!` or `-`.
    Unary,
}

/// What kind of evaluation error, with its data. Each variant is one of the
/// reference's summaries ([`EvalErrorKind::summary`]). Types are boxed to
/// keep errors small: they travel in every `Result` of the evaluator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalErrorKind {
    /// An expression the parser could not read (its syntax error says why).
    MissingExpression,
    InvalidNumberLiteral,
    /// A variable reference where a context allows none.
    VariablesNotAllowed,
    UnknownVariable {
        name: SmolStr,
        suggestion: Option<SmolStr>,
    },
    /// An attribute an object does not have, or attribute access on a value
    /// that has no attributes (`suggestion` is then `None`).
    UnsupportedAttribute {
        name: SmolStr,
        suggestion: Option<SmolStr>,
    },
    MissingMapElement {
        key: SmolStr,
    },
    AttributeOfNull,
    IndexOfNull,
    InvalidIndex,
    AmbiguousAttributeKey,
    NullKey,
    IncorrectKeyType {
        found: Box<Type>,
    },
    /// An operand that does not convert to what its operator takes.
    InvalidOperand {
        operand: Operand,
        expected: Box<Type>,
        found: Box<Type>,
    },
    /// An operator's arithmetic failed, or an operand was null.
    OperationFailed,
    /// A conditional whose results have no common type (`found` the
    /// true and false results' types), or whose result does not convert to
    /// it (`found` empty).
    InconsistentConditionalTypes {
        found: Vec<Type>,
    },
    NullCondition,
    IncorrectConditionType {
        found: Box<Type>,
    },
    IterationOverNull,
    IterationOverNonIterable {
        found: Box<Type>,
    },
    /// A `for` expression's `if` clause that is null when type-checked.
    NullForCondition,
    InvalidForCondition,
    InvalidForKey,
    DuplicateForKey {
        key: SmolStr,
    },
    SplatOfNull,
    /// A splat inside a splat over a list whose results have different
    /// types, which no list can hold.
    InvalidNestedSplat,
    InvalidTemplateInterpolation,
    FunctionCallsNotAllowed,
    UnknownFunction {
        name: SmolStr,
        suggestion: Option<SmolStr>,
    },
    /// A namespaced function (`provider::aws::arn_parse`) that is not in
    /// the table: `namespace` with its trailing `::`, `name` the last part.
    /// `namespace_known` says whether any function is in that namespace;
    /// `suggestion` is a whole namespaced name.
    UnknownNamespacedFunction {
        namespace: SmolStr,
        name: SmolStr,
        namespace_known: bool,
        suggestion: Option<SmolStr>,
    },
    InvalidExpandingArgument,
    NotEnoughArguments {
        function: SmolStr,
    },
    TooManyArguments {
        function: SmolStr,
    },
    /// An argument that does not convert to its parameter's type, or that
    /// the function itself rejects.
    InvalidFunctionArgument {
        function: SmolStr,
        parameter: SmolStr,
    },
    /// The function failed as a whole (go-cty's error not about one
    /// argument).
    FunctionCallFailed {
        function: SmolStr,
    },
    /// `try` or `can` called with the wrong number of arguments.
    InvalidFunctionCall {
        function: SmolStr,
    },
    TooDeeplyNested,
    /// A limit of [`crate::Limits`] reached: a value too large, a number
    /// with too many digits, too many steps.
    LimitExceeded(Exceeded),
    /// The evaluator itself stopped (a bug, caught at its thread's edge).
    Internal,
}

impl EvalErrorKind {
    /// The reference's summary of this kind of error (Halite's own for a
    /// limit, which the reference does not have).
    pub fn summary(&self) -> &'static str {
        match self {
            EvalErrorKind::LimitExceeded(exceeded) => exceeded.summary(),
            EvalErrorKind::MissingExpression => "Missing expression",
            EvalErrorKind::InvalidNumberLiteral => "Invalid number literal",
            EvalErrorKind::VariablesNotAllowed => "Variables not allowed",
            EvalErrorKind::UnknownVariable { .. } => "Unknown variable",
            EvalErrorKind::UnsupportedAttribute { .. } => "Unsupported attribute",
            EvalErrorKind::MissingMapElement { .. } => "Missing map element",
            EvalErrorKind::AttributeOfNull => "Attempt to get attribute from null value",
            EvalErrorKind::IndexOfNull => "Attempt to index null value",
            EvalErrorKind::InvalidIndex => "Invalid index",
            EvalErrorKind::AmbiguousAttributeKey => "Ambiguous attribute key",
            EvalErrorKind::NullKey => "Null value as key",
            EvalErrorKind::IncorrectKeyType { .. } => "Incorrect key type",
            EvalErrorKind::InvalidOperand { .. } => "Invalid operand",
            EvalErrorKind::OperationFailed => "Operation failed",
            EvalErrorKind::InconsistentConditionalTypes { .. } => "Inconsistent conditional result types",
            EvalErrorKind::NullCondition => "Null condition",
            EvalErrorKind::IncorrectConditionType { .. } => "Incorrect condition type",
            EvalErrorKind::IterationOverNull => "Iteration over null value",
            EvalErrorKind::IterationOverNonIterable { .. } => "Iteration over non-iterable value",
            EvalErrorKind::NullForCondition => "Condition is null",
            EvalErrorKind::InvalidForCondition => "Invalid 'for' condition",
            EvalErrorKind::InvalidForKey => "Invalid object key",
            EvalErrorKind::DuplicateForKey { .. } => "Duplicate object key",
            EvalErrorKind::SplatOfNull => "Splat of null value",
            EvalErrorKind::InvalidNestedSplat => "Invalid nested splat expressions",
            EvalErrorKind::InvalidTemplateInterpolation => "Invalid template interpolation value",
            EvalErrorKind::FunctionCallsNotAllowed => "Function calls not allowed",
            EvalErrorKind::UnknownFunction { .. } | EvalErrorKind::UnknownNamespacedFunction { .. } => {
                "Call to unknown function"
            }
            EvalErrorKind::InvalidExpandingArgument => "Invalid expanding argument value",
            EvalErrorKind::NotEnoughArguments { .. } => "Not enough function arguments",
            EvalErrorKind::TooManyArguments { .. } => "Too many function arguments",
            EvalErrorKind::InvalidFunctionArgument { .. } => "Invalid function argument",
            EvalErrorKind::FunctionCallFailed { .. } => "Error in function call",
            EvalErrorKind::InvalidFunctionCall { .. } => "Invalid function call",
            EvalErrorKind::TooDeeplyNested => "Expression too deeply nested",
            EvalErrorKind::Internal => "Evaluation failed",
        }
    }

    /// The did-you-mean of a misspelt name, when there is one.
    pub fn suggestion(&self) -> Option<&SmolStr> {
        match self {
            EvalErrorKind::UnknownVariable { suggestion, .. }
            | EvalErrorKind::UnsupportedAttribute { suggestion, .. }
            | EvalErrorKind::UnknownFunction { suggestion, .. }
            | EvalErrorKind::UnknownNamespacedFunction { suggestion, .. } => suggestion.as_ref(),
            _ => None,
        }
    }

    /// Whether the error comes from a function's own implementation or its
    /// parameters (go-cty's errors), rather than from HCL's expressions.
    pub fn is_function_error(&self) -> bool {
        matches!(
            self,
            EvalErrorKind::InvalidFunctionArgument { .. } | EvalErrorKind::FunctionCallFailed { .. }
        )
    }
}
