//! What an expression references: the walk shared by every reference
//! analysis above the HIR.
//!
//! A reference is a chain of accessors (`.name`, `[key]`, legacy `.0`) down
//! to a [`Expr::Variable`] that no `for` expression around it binds. The walk
//! visits every operand, argument, element, object key and value and template
//! part; a `for` expression's collection outside its scope and the rest
//! inside it; a splat's source and the expression applied to each element.
//! The key of an index is an expression of its own, walked after the chain
//! it belongs to (or after the chain's base when that is not a variable).
//! Chains are reported in source order.
//!
//! The walk knows nothing of positions or values: `decode` turns a chain into
//! a traversal with ranges and decides where the reference's form cuts it,
//! and `db` keeps the root's name and its leading attribute steps for name
//! resolution.

use smol_str::SmolStr;

use crate::{
    Expr, ExprId, Exprs, ForObjectExpr, ForTupleExpr, ObjectKey, TemplateFor, TemplateIf, TemplatePart,
};

/// A reference: the root variable and the accessors applied to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceChain {
    /// The [`Expr::Variable`] the chain starts from.
    pub root: ExprId,
    /// The accessors in source order, innermost first: each is an
    /// [`Expr::GetAttr`], [`Expr::Index`] or [`Expr::LegacyIndex`] whose base
    /// is the one before it (the first's base is `root`).
    pub links: Vec<ExprId>,
}

impl ReferenceChain {
    /// The root variable's name.
    pub fn root_name<'a>(&self, exprs: impl Into<Exprs<'a>>) -> &'a str {
        match exprs.into().get(self.root) {
            Expr::Variable(name) => name.as_str(),
            // A chain's root is a variable by construction.
            _ => "",
        }
    }
}

/// What a caller of [`walk_references`] does with the walk.
pub trait ReferenceVisitor {
    /// A chain whose root no `for` expression around it binds.
    fn reference(&mut self, chain: ReferenceChain);

    /// Whether the key of the index `link` (an [`Expr::Index`]) is walked.
    /// It is asked for every index of a chain, outermost first, before the
    /// chain is reported, whatever the chain's root; a caller that takes a
    /// constant key as part of its traversal can leave it unwalked.
    fn walk_index_key(&mut self, link: ExprId) -> bool {
        let _ = link;
        true
    }
}

/// The references of the expression at `root`, in source order, with every
/// index key walked.
pub fn references<'a>(exprs: impl Into<Exprs<'a>>, root: ExprId) -> Vec<ReferenceChain> {
    struct Collect(Vec<ReferenceChain>);
    impl ReferenceVisitor for Collect {
        fn reference(&mut self, chain: ReferenceChain) {
            self.0.push(chain);
        }
    }
    let mut collect = Collect(Vec::new());
    walk_references(exprs, root, &mut collect);
    collect.0
}

/// Walks the expression at `root`, giving `visitor` each reference in source
/// order.
pub fn walk_references<'a>(exprs: impl Into<Exprs<'a>>, root: ExprId, visitor: &mut impl ReferenceVisitor) {
    let exprs = exprs.into();
    // The walk keeps its own stack: operator and accessor chains can be
    // thousands of links long, too deep for recursion.
    enum Work<'a> {
        Expr(ExprId),
        Parts(&'a [TemplatePart]),
        PushScope(Vec<SmolStr>),
        PopScope,
    }
    // The iteration variables of the `for` expressions around the current
    // point, innermost last.
    let mut scopes: Vec<Vec<SmolStr>> = Vec::new();
    // Room for a typical expression's pending work, so that the stack
    // does not grow a step at a time: the walk runs for every attribute,
    // several times a check.
    let mut stack = Vec::with_capacity(16);
    stack.push(Work::Expr(root));
    while let Some(work) = stack.pop() {
        match work {
            Work::PushScope(names) => scopes.push(names),
            Work::PopScope => {
                scopes.pop();
            }
            Work::Parts(parts) => {
                for part in parts.iter().rev() {
                    match part {
                        TemplatePart::Literal(_) => {}
                        TemplatePart::Interpolation { expr, .. } => stack.push(Work::Expr(*expr)),
                        TemplatePart::If(directive) => {
                            let TemplateIf { cond, then_parts, else_parts, .. } = &**directive;
                            stack.push(Work::Parts(else_parts.as_deref().unwrap_or_default()));
                            stack.push(Work::Parts(then_parts));
                            stack.push(Work::Expr(*cond));
                        }
                        TemplatePart::For(directive) => {
                            let TemplateFor { key_var, value_var, collection, body, .. } = &**directive;
                            stack.push(Work::PopScope);
                            stack.push(Work::Parts(body));
                            stack.push(Work::PushScope(scope_names(key_var, value_var)));
                            stack.push(Work::Expr(*collection));
                        }
                    }
                }
            }
            Work::Expr(id) => match &exprs[id] {
                Expr::Variable(_) | Expr::GetAttr { .. } | Expr::Index { .. } | Expr::LegacyIndex { .. } => {
                    // Down the chain from its outermost link to its base.
                    // The keys go on the stack as they are met, so they come
                    // off it innermost (leftmost) first, after the base.
                    let mut links = Vec::new();
                    let mut current = id;
                    loop {
                        match &exprs[current] {
                            Expr::GetAttr { base, .. } | Expr::LegacyIndex { base, .. } => {
                                links.push(current);
                                current = *base;
                            }
                            Expr::Index { base, index } => {
                                links.push(current);
                                if visitor.walk_index_key(current) {
                                    stack.push(Work::Expr(*index));
                                }
                                current = *base;
                            }
                            _ => break,
                        }
                    }
                    match &exprs[current] {
                        Expr::Variable(name) => {
                            if !scopes.iter().any(|scope| scope.iter().any(|bound| bound == name.as_str())) {
                                links.reverse();
                                visitor.reference(ReferenceChain { root: current, links });
                            }
                        }
                        _ => stack.push(Work::Expr(current)),
                    }
                }
                Expr::Missing | Expr::Literal(_) | Expr::SplatItem => {}
                Expr::Template { parts, .. } => stack.push(Work::Parts(parts)),
                Expr::Splat { source, each, .. } => {
                    stack.push(Work::Expr(*each));
                    stack.push(Work::Expr(*source));
                }
                Expr::Call(call) => stack.extend(call.args.iter().rev().map(|&arg| Work::Expr(arg))),
                Expr::Tuple(args) => stack.extend(args.iter().rev().map(|&arg| Work::Expr(arg))),
                Expr::Object(items) => {
                    for item in items.iter().rev() {
                        stack.push(Work::Expr(item.value));
                        if let ObjectKey::Expr { expr, .. } = &item.key {
                            stack.push(Work::Expr(*expr));
                        }
                    }
                }
                Expr::ForTuple(for_expr) => {
                    let ForTupleExpr { key_var, value_var, collection, value, cond } = &**for_expr;
                    stack.push(Work::PopScope);
                    stack.extend(cond.map(Work::Expr));
                    stack.push(Work::Expr(*value));
                    stack.push(Work::PushScope(scope_names(key_var, value_var)));
                    stack.push(Work::Expr(*collection));
                }
                Expr::ForObject(for_expr) => {
                    let ForObjectExpr { key_var, value_var, collection, key, value, cond, .. } = &**for_expr;
                    stack.push(Work::PopScope);
                    stack.extend(cond.map(Work::Expr));
                    stack.push(Work::Expr(*value));
                    stack.push(Work::Expr(*key));
                    stack.push(Work::PushScope(scope_names(key_var, value_var)));
                    stack.push(Work::Expr(*collection));
                }
                Expr::Unary { operand, .. } => stack.push(Work::Expr(*operand)),
                Expr::Binary { lhs, rhs, .. } => {
                    stack.push(Work::Expr(*rhs));
                    stack.push(Work::Expr(*lhs));
                }
                Expr::Conditional { cond, then_expr, else_expr } => {
                    stack.push(Work::Expr(*else_expr));
                    stack.push(Work::Expr(*then_expr));
                    stack.push(Work::Expr(*cond));
                }
            },
        }
    }
}

/// The names a `for` binds. A name the parser could not find is empty and
/// binds nothing, so a variable can never be taken for it.
fn scope_names(key_var: &Option<SmolStr>, value_var: &SmolStr) -> Vec<SmolStr> {
    key_var.iter().cloned().chain(Some(value_var.clone())).filter(|name| !name.is_empty()).collect()
}
