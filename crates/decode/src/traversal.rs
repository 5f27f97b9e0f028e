//! Traversals: what an expression reads from its context.
//!
//! The reference's analysis (`spec/traversal-analysis-notes.txt`) loses the
//! steps after an index whose key is not a constant: `foo.x[count.index].name`
//! yields `count.index` and a bare `foo.x`. Halite keeps them: the traversal
//! is `foo.x[…].name`, the dynamic index as [`TraversalStep::DynamicIndex`].
//! [`crate::Expression::reference_variables`] gives the reference's form,
//! which `hcldec --var-refs` prints.
//!
//! For native expressions both walk the HIR the way the reference walks its
//! syntax tree: every operand, argument, element, key and template part; a
//! `for` expression's collection outside its scope and the rest inside it,
//! where its iteration variables are not references; a splat's source and
//! the index keys applied to each element. The reference's parser folds an
//! index into a traversal only when its key is a literal (a number, `true`,
//! `false`, `null`, or a string without interpolation) written without
//! parentheses, and a parenthesised expression ends a traversal; the
//! reference form follows the syntax tree for both, which the HIR only
//! records through its source map. The fixed form also takes a key that is
//! constant without being a literal (`[-1]`, `[(0)]`) as a constant index.

use std::sync::Arc;

use smol_str::SmolStr;
use syntax::{SyntaxKind, SyntaxNode, TextRange};
use value::{Number, Type, Value};

use crate::{Range, SourceFile, source::is_parenthesised, source::trimmed_range};

#[derive(Debug, Clone, PartialEq)]
pub enum TraversalStep {
    Root {
        name: SmolStr,
        range: Range,
    },
    Attr {
        name: SmolStr,
        range: Range,
    },
    /// `[key]` with a constant key (or a legacy `.0`).
    Index {
        key: Value,
        range: Range,
    },
    /// `[expr]` whose key is only known at evaluation.
    DynamicIndex {
        range: Range,
    },
}

impl TraversalStep {
    pub fn range(&self) -> &Range {
        match self {
            TraversalStep::Root { range, .. }
            | TraversalStep::Attr { range, .. }
            | TraversalStep::Index { range, .. }
            | TraversalStep::DynamicIndex { range } => range,
        }
    }
}

/// A root name followed by steps; the first step is always a
/// [`TraversalStep::Root`].
#[derive(Debug, Clone, PartialEq)]
pub struct Traversal {
    pub steps: Vec<TraversalStep>,
}

impl Traversal {
    pub fn root_name(&self) -> &str {
        match self.steps.first() {
            Some(TraversalStep::Root { name, .. }) => name,
            _ => "",
        }
    }

    /// From the root's start to the last step's end.
    pub fn range(&self) -> Range {
        match (self.steps.first(), self.steps.last()) {
            (Some(first), Some(last)) => Range::between(first.range(), last.range()),
            _ => Range::default(),
        }
    }

    /// Whether a step after the root is a dynamic index.
    pub fn has_dynamic_index(&self) -> bool {
        self.steps.iter().any(|step| matches!(step, TraversalStep::DynamicIndex { .. }))
    }
}

/// The traversals a native expression reads: Halite's fixed form when
/// `keep_dynamic` (steps after a dynamic index kept, parentheses no
/// boundary), the reference's otherwise.
pub(crate) fn native_variables(
    file: &Arc<SourceFile>,
    expr: hir::ExprId,
    keep_dynamic: bool,
) -> Vec<Traversal> {
    let Some((hir, map)) = file.native_parts() else { return Vec::new() };
    let mut walker = Walker {
        file,
        hir,
        map,
        root: file.syntax_root(),
        keep_dynamic,
        scopes: Vec::new(),
        out: Vec::new(),
    };
    walker.run(expr);
    walker.out
}

/// `hcl.AbsTraversalForExpr` over a native expression: a root name (or the
/// keywords `true`, `false`, `null`) followed by attribute accesses and
/// indexes with literal keys; parentheses are looked through.
pub(crate) fn native_static_traversal(file: &Arc<SourceFile>, expr: hir::ExprId) -> Option<Traversal> {
    let (hir, map) = file.native_parts()?;
    let walker = Walker {
        file,
        hir,
        map,
        root: file.syntax_root(),
        keep_dynamic: false,
        scopes: Vec::new(),
        out: Vec::new(),
    };
    let mut steps = Vec::new();
    let mut current = expr;
    loop {
        match &hir[current] {
            hir::Expr::Variable(name) => {
                steps.push(TraversalStep::Root { name: name.clone(), range: walker.expr_range(current) });
                break;
            }
            hir::Expr::Literal(literal @ (hir::Literal::Bool(_) | hir::Literal::Null)) => {
                let name = match literal {
                    hir::Literal::Bool(true) => "true",
                    hir::Literal::Bool(false) => "false",
                    _ => "null",
                };
                steps.push(TraversalStep::Root {
                    name: SmolStr::new(name),
                    range: walker.expr_range(current),
                });
                break;
            }
            hir::Expr::GetAttr { base, name } => {
                steps.push(TraversalStep::Attr {
                    name: name.clone(),
                    range: walker.step_range(current, T_DOT),
                });
                current = *base;
            }
            hir::Expr::LegacyIndex { base, index } => {
                steps.push(TraversalStep::Index {
                    key: number_key(index),
                    range: walker.step_range(current, T_DOT),
                });
                current = *base;
            }
            hir::Expr::Index { base, index } => {
                let key = walker.literal_key(*index)?;
                steps.push(TraversalStep::Index { key, range: walker.step_range(current, T_BRACK) });
                current = *base;
            }
            _ => return None,
        }
    }
    steps.reverse();
    Some(Traversal { steps })
}

/// The key of an index the reference's parser folds into its traversal
/// (see [`Walker::literal_key`]), or `None` for an `IndexExpr` of its own.
pub(crate) fn native_literal_index_key(file: &SourceFile, index: hir::ExprId) -> Option<Value> {
    let (hir, map) = file.native_parts()?;
    let walker = Walker {
        file,
        hir,
        map,
        root: file.syntax_root(),
        keep_dynamic: false,
        scopes: Vec::new(),
        out: Vec::new(),
    };
    walker.literal_key(index)
}

const T_DOT: SyntaxKind = SyntaxKind::DOT;
const T_BRACK: SyntaxKind = SyntaxKind::L_BRACK;

fn number_key(text: &str) -> Value {
    Number::parse(text).map_or_else(Value::dynamic, Value::number)
}

/// One piece of work of the walk, which keeps its own stack: operator and
/// accessor chains can be thousands of links long.
enum Work<'a> {
    Expr(hir::ExprId),
    Part(&'a hir::TemplatePart),
    PushScope(Vec<SmolStr>),
    PopScope,
}

struct Walker<'a> {
    file: &'a SourceFile,
    hir: &'a hir::FileHir,
    map: &'a hir::SourceMap,
    root: SyntaxNode,
    keep_dynamic: bool,
    /// The iteration variables of the `for` expressions around the current
    /// point, innermost last.
    scopes: Vec<Vec<SmolStr>>,
    out: Vec<Traversal>,
}

impl<'a> Walker<'a> {
    fn run(&mut self, start: hir::ExprId) {
        let hir = self.hir;
        let mut stack = vec![Work::Expr(start)];
        while let Some(work) = stack.pop() {
            match work {
                Work::PushScope(names) => self.scopes.push(names),
                Work::PopScope => {
                    self.scopes.pop();
                }
                Work::Part(part) => match part {
                    hir::TemplatePart::Literal(_) => {}
                    hir::TemplatePart::Interpolation { expr, .. } => stack.push(Work::Expr(*expr)),
                    hir::TemplatePart::If { cond, then_parts, else_parts, .. } => {
                        for part in else_parts.iter().flatten().rev() {
                            stack.push(Work::Part(part));
                        }
                        for part in then_parts.iter().rev() {
                            stack.push(Work::Part(part));
                        }
                        stack.push(Work::Expr(*cond));
                    }
                    hir::TemplatePart::For { key_var, value_var, collection, body, .. } => {
                        stack.push(Work::PopScope);
                        for part in body.iter().rev() {
                            stack.push(Work::Part(part));
                        }
                        stack.push(Work::PushScope(scope_names(key_var, value_var)));
                        stack.push(Work::Expr(*collection));
                    }
                },
                Work::Expr(id) => match &hir[id] {
                    hir::Expr::Missing | hir::Expr::Literal(_) | hir::Expr::SplatItem => {}
                    hir::Expr::Template { parts, .. } => {
                        for part in parts.iter().rev() {
                            stack.push(Work::Part(part));
                        }
                    }
                    hir::Expr::Variable(_)
                    | hir::Expr::GetAttr { .. }
                    | hir::Expr::LegacyIndex { .. }
                    | hir::Expr::Index { .. } => self.chain(id, &mut stack),
                    hir::Expr::Splat { source, each, .. } => {
                        stack.push(Work::Expr(*each));
                        stack.push(Work::Expr(*source));
                    }
                    hir::Expr::Call { args, .. } | hir::Expr::Tuple(args) => {
                        stack.extend(args.iter().rev().map(|&arg| Work::Expr(arg)));
                    }
                    hir::Expr::Object(items) => {
                        for item in items.iter().rev() {
                            stack.push(Work::Expr(item.value));
                            if let hir::ObjectKey::Expr { expr, .. } = &item.key {
                                stack.push(Work::Expr(*expr));
                            }
                        }
                    }
                    hir::Expr::ForTuple { key_var, value_var, collection, value, cond } => {
                        stack.push(Work::PopScope);
                        stack.extend(cond.map(Work::Expr));
                        stack.push(Work::Expr(*value));
                        stack.push(Work::PushScope(scope_names(key_var, value_var)));
                        stack.push(Work::Expr(*collection));
                    }
                    hir::Expr::ForObject { key_var, value_var, collection, key, value, cond, .. } => {
                        stack.push(Work::PopScope);
                        stack.extend(cond.map(Work::Expr));
                        stack.push(Work::Expr(*value));
                        stack.push(Work::Expr(*key));
                        stack.push(Work::PushScope(scope_names(key_var, value_var)));
                        stack.push(Work::Expr(*collection));
                    }
                    hir::Expr::Unary { operand, .. } => stack.push(Work::Expr(*operand)),
                    hir::Expr::Binary { lhs, rhs, .. } => {
                        stack.push(Work::Expr(*rhs));
                        stack.push(Work::Expr(*lhs));
                    }
                    hir::Expr::Conditional { cond, then_expr, else_expr } => {
                        stack.push(Work::Expr(*else_expr));
                        stack.push(Work::Expr(*then_expr));
                        stack.push(Work::Expr(*cond));
                    }
                },
            }
        }
    }

    /// A chain of accessors from the outermost link `id` down to its base.
    /// When the base is a variable, the chain is a traversal; otherwise its
    /// base is walked like any expression. The keys of dynamic indexes are
    /// walked after the traversal, in source order.
    fn chain(&mut self, id: hir::ExprId, stack: &mut Vec<Work<'a>>) {
        let hir = self.hir;
        let mut steps = Vec::new();
        let mut dynamic_keys = Vec::new();
        let mut current = id;
        let base = loop {
            match &hir[current] {
                hir::Expr::Variable(name) => {
                    let local = self.scopes.iter().any(|scope| scope.contains(name));
                    if !local {
                        steps.push(TraversalStep::Root {
                            name: name.clone(),
                            range: self.expr_range(current),
                        });
                        steps.reverse();
                        self.out.push(Traversal { steps });
                    }
                    break None;
                }
                hir::Expr::GetAttr { base, name } => {
                    if self.ends_reference_traversal(*base) {
                        break Some(*base);
                    }
                    steps.push(TraversalStep::Attr {
                        name: name.clone(),
                        range: self.step_range(current, T_DOT),
                    });
                    current = *base;
                }
                hir::Expr::LegacyIndex { base, index } => {
                    if self.ends_reference_traversal(*base) {
                        break Some(*base);
                    }
                    steps.push(TraversalStep::Index {
                        key: number_key(index),
                        range: self.step_range(current, T_DOT),
                    });
                    current = *base;
                }
                hir::Expr::Index { base, index } => {
                    let key = match self.literal_key(*index) {
                        None if self.keep_dynamic => self.constant_key(*index),
                        key => key,
                    };
                    match key {
                        Some(key) if !self.ends_reference_traversal(*base) => {
                            steps
                                .push(TraversalStep::Index { key, range: self.step_range(current, T_BRACK) });
                        }
                        _ if self.keep_dynamic => {
                            steps.push(TraversalStep::DynamicIndex {
                                range: self.step_range(current, T_BRACK),
                            });
                            dynamic_keys.push(*index);
                        }
                        _ => {
                            // The reference's `IndexExpr`: its collection
                            // and key are walked, and the steps after it
                            // are lost.
                            stack.push(Work::Expr(*index));
                            break Some(*base);
                        }
                    }
                    current = *base;
                }
                _ => break Some(current),
            }
        };
        // Pushed so that the base comes off the stack first, then the keys
        // from the innermost (leftmost) out.
        stack.extend(dynamic_keys.into_iter().map(Work::Expr));
        stack.extend(base.map(Work::Expr));
    }

    /// Whether, in the reference's form, a traversal cannot continue from
    /// `base` to the accessor after it: a parenthesised base is an
    /// expression of its own there.
    fn ends_reference_traversal(&self, base: hir::ExprId) -> bool {
        !self.keep_dynamic && self.own_node(base).is_some_and(|node| is_parenthesised(&node))
    }

    fn own_node(&self, id: hir::ExprId) -> Option<SyntaxNode> {
        self.map.expr_syntax(id)?.try_to_node(&self.root)
    }

    /// The key of an index the reference's parser folds into a traversal:
    /// a literal written without parentheses, or a string with no
    /// interpolation.
    fn literal_key(&self, index: hir::ExprId) -> Option<Value> {
        let key = match &self.hir[index] {
            hir::Expr::Literal(hir::Literal::Number(text)) => number_key(text),
            hir::Expr::Literal(hir::Literal::Bool(b)) => Value::bool(*b),
            hir::Expr::Literal(hir::Literal::Null) => Value::null(Type::Dynamic),
            hir::Expr::Template {
                kind: hir::TemplateKind::Quoted | hir::TemplateKind::Heredoc { flush: false },
                parts,
            } => match parts.as_slice() {
                [] => Value::string(""),
                [hir::TemplatePart::Literal(text)] => Value::string(text),
                _ => return None,
            },
            _ => return None,
        };
        if self.own_node(index).is_some_and(|node| is_parenthesised(&node)) {
            return None;
        }
        Some(key)
    }

    /// The key of an index whose expression is constant though not a
    /// literal (`[-1]`, `[(0)]`, `["a-${"b"}"]`): it evaluates without
    /// variables or functions to a wholly known value. Only the fixed form
    /// folds these; the reference's parser does not.
    fn constant_key(&self, index: hir::ExprId) -> Option<Value> {
        let value = eval::eval_expr(&self.hir.exprs, index, &eval::Context::none()).ok()?;
        value.is_wholly_known().then_some(value)
    }

    fn expr_range(&self, id: hir::ExprId) -> Range {
        match self.own_node(id) {
            Some(node) => self.file.range(trimmed_range(&node)),
            None => self.file.range(TextRange::default()),
        }
    }

    fn step_range(&self, id: hir::ExprId, opener: SyntaxKind) -> Range {
        crate::expression::step_range(self.file, id, opener)
    }
}

fn scope_names(key_var: &Option<SmolStr>, value_var: &SmolStr) -> Vec<SmolStr> {
    key_var.iter().cloned().chain(Some(value_var.clone())).filter(|name| !name.is_empty()).collect()
}
