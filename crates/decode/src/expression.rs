//! Expressions of either syntax: evaluation and the static analyses of
//! `spec/information-model.md` ("Static Analysis").

use std::sync::Arc;

use smol_str::SmolStr;
use value::Value;

use crate::{Diagnostics, Range, SourceFile, Traversal};

/// An expression of a body.
#[derive(Debug, Clone)]
pub struct Expression {
    pub(crate) kind: ExpressionKind,
}

#[derive(Debug, Clone)]
pub(crate) enum ExpressionKind {
    /// A native syntax expression of a file's HIR.
    Native { file: Arc<SourceFile>, expr: hir::ExprId },
    /// A JSON value, interpreted by the JSON syntax's rules.
    Json { file: Arc<SourceFile>, value: hir::SyntaxNodePtr },
    /// A value known already, with the range it stands for (dynamic blocks'
    /// iterator values, `hcldec` literals).
    Literal { value: Value, range: Range },
}

/// A function call found by static analysis: `name(args…)`.
#[derive(Debug, Clone)]
pub struct StaticCall {
    pub name: SmolStr,
    pub name_range: Range,
    pub arguments: Vec<Expression>,
    pub arguments_range: Range,
}

impl Expression {
    /// A value with the range it stands for.
    pub fn literal(value: Value, range: Range) -> Expression {
        Expression { kind: ExpressionKind::Literal { value, range } }
    }

    /// The expression's value in `ctx`, and what went wrong. On error the
    /// value is unknown of the dynamic type, as the reference's
    /// `cty.DynamicVal`.
    pub fn value(&self, ctx: &eval::Context) -> (Value, Diagnostics) {
        todo!()
    }

    /// Every traversal the expression reads from its context, in source
    /// order, with the steps after a dynamic index kept (see
    /// [`crate::traversal`]).
    pub fn variables(&self) -> Vec<Traversal> {
        todo!()
    }

    /// The same, as the reference's `hcl.Expression.Variables` computes it:
    /// a traversal stops at the first index that is not a constant. What
    /// `hcldec --var-refs` prints.
    pub fn reference_variables(&self) -> Vec<Traversal> {
        todo!()
    }

    pub fn range(&self) -> Range {
        todo!()
    }

    pub fn start_range(&self) -> Range {
        todo!()
    }

    /// `hcl.ExprList`: the elements of a tuple constructor (a JSON array).
    pub fn as_list(&self) -> Option<Vec<Expression>> {
        todo!()
    }

    /// `hcl.ExprMap`: the key and value expressions of an object constructor.
    pub fn as_map(&self) -> Option<Vec<(Expression, Expression)>> {
        todo!()
    }

    /// `hcl.ExprCall`: a function call by name.
    pub fn as_call(&self) -> Option<StaticCall> {
        todo!()
    }

    /// `hcl.AbsTraversalForExpr`: the expression as a traversal from a root
    /// name (a JSON string is parsed as one).
    pub fn as_traversal(&self) -> Result<Traversal, Diagnostics> {
        todo!()
    }

    /// `hcl.ExprAsKeyword`: a bare single name, like `string` in a type
    /// constraint.
    pub fn as_keyword(&self) -> Option<SmolStr> {
        todo!()
    }
}
