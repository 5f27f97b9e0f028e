//! Traversals: what an expression reads from its context.
//!
//! The reference's analysis (`spec/traversal-analysis-notes.txt`) loses the
//! steps after an index whose key is not a constant: `foo.x[count.index].name`
//! yields `count.index` and a bare `foo.x`. Halite keeps them: the traversal
//! is `foo.x[…].name`, the dynamic index as [`TraversalStep::DynamicIndex`].
//! [`crate::Expression::reference_variables`] gives the reference's form,
//! which `hcldec --var-refs` prints.
//!
//! For native expressions both build on hir's reference walk
//! ([`hir::walk_references`]), which goes over the HIR the way the reference
//! walks its syntax tree: every operand, argument, element, key and
//! template part; a `for` expression's collection outside its scope and the
//! rest inside it, where its iteration variables are not references; a
//! splat's source and the index keys applied to each element. Decode keeps
//! what is its own: ranges, which keys are constant, and where the
//! reference's form cuts a chain. The reference's parser folds an
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
    let Some(native) = Native::of(file) else { return Vec::new() };
    let exprs = &native.hir.exprs;
    let mut collector = Collector { native, keep_dynamic, index_keys: Vec::new(), out: Vec::new() };
    hir::walk_references(exprs, expr, &mut collector);
    collector.out
}

/// `hcl.AbsTraversalForExpr` over a native expression: a root name (or the
/// keywords `true`, `false`, `null`) followed by attribute accesses and
/// indexes with literal keys; parentheses are looked through.
pub(crate) fn native_static_traversal(file: &Arc<SourceFile>, expr: hir::ExprId) -> Option<Traversal> {
    let native = Native::of(file)?;
    let hir = native.hir;
    let mut steps = Vec::new();
    let mut current = expr;
    loop {
        match &hir[current] {
            hir::Expr::Variable(name) => {
                steps.push(TraversalStep::Root {
                    name: SmolStr::from(*name),
                    range: native.expr_range(current),
                });
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
                    range: native.expr_range(current),
                });
                break;
            }
            hir::Expr::GetAttr { base, name } => {
                steps.push(TraversalStep::Attr {
                    name: SmolStr::from(*name),
                    range: native.step_range(current, T_DOT),
                });
                current = *base;
            }
            hir::Expr::LegacyIndex { base, index } => {
                steps.push(TraversalStep::Index {
                    key: number_key(index),
                    range: native.step_range(current, T_DOT),
                });
                current = *base;
            }
            hir::Expr::Index { base, index } => {
                let key = native.literal_key(*index)?;
                steps.push(TraversalStep::Index { key, range: native.step_range(current, T_BRACK) });
                current = *base;
            }
            _ => return None,
        }
    }
    steps.reverse();
    Some(Traversal { steps })
}

/// The key of an index the reference's parser folds into its traversal
/// (see [`Native::literal_key`]), or `None` for an `IndexExpr` of its own.
pub(crate) fn native_literal_index_key(file: &SourceFile, index: hir::ExprId) -> Option<Value> {
    Native::of(file)?.literal_key(index)
}

const T_DOT: SyntaxKind = SyntaxKind::DOT;
const T_BRACK: SyntaxKind = SyntaxKind::L_BRACK;

fn number_key(text: &str) -> Value {
    Number::parse(text).map_or_else(Value::dynamic, Value::number)
}

/// A native file's HIR with its source map and tree: what turning the HIR's
/// reference chains into traversals with ranges needs.
struct Native<'a> {
    file: &'a SourceFile,
    hir: &'a hir::FileHir,
    map: &'a hir::SourceMap,
    root: SyntaxNode,
}

/// Builds [`Traversal`]s from the chains of hir's reference walk, in the
/// fixed form or the reference's.
struct Collector<'a> {
    native: Native<'a>,
    keep_dynamic: bool,
    /// In the fixed form, the constant key (if any) of each index of the
    /// chain being walked, outermost first, as [`hir::ReferenceVisitor`]'s
    /// `walk_index_key` found them: a key is evaluated once, to decide both
    /// whether it is walked and what step it makes.
    index_keys: Vec<(hir::ExprId, Option<Value>)>,
    out: Vec<Traversal>,
}

impl hir::ReferenceVisitor for Collector<'_> {
    fn walk_index_key(&mut self, link: hir::ExprId) -> bool {
        // The reference's form walks every key: where it cuts a chain at an
        // index the key is an expression of its own, and the keys it folds
        // into a traversal are literals, which reference nothing.
        if !self.keep_dynamic {
            return true;
        }
        let key = self.native.fixed_key(link);
        let dynamic = key.is_none();
        self.index_keys.push((link, key));
        dynamic
    }

    fn reference(&mut self, chain: hir::ReferenceChain) {
        let mut index_keys = std::mem::take(&mut self.index_keys);
        let native = &self.native;
        let hir = native.hir;
        let mut steps = Vec::with_capacity(chain.links.len() + 1);
        steps.push(TraversalStep::Root {
            name: SmolStr::new(chain.root_name(&hir.exprs)),
            range: native.expr_range(chain.root),
        });
        // The keys of this chain's indexes were the last asked for,
        // outermost first, so they come off the end innermost first; keys of
        // chains not reported (bound by a `for`) are left below them and
        // dropped here.
        for &link in &chain.links {
            match &hir[link] {
                hir::Expr::GetAttr { base, name } => {
                    if self.ends_reference_traversal(*base) {
                        break;
                    }
                    steps.push(TraversalStep::Attr {
                        name: SmolStr::from(*name),
                        range: native.step_range(link, T_DOT),
                    });
                }
                hir::Expr::LegacyIndex { base, index } => {
                    if self.ends_reference_traversal(*base) {
                        break;
                    }
                    steps.push(TraversalStep::Index {
                        key: number_key(index),
                        range: native.step_range(link, T_DOT),
                    });
                }
                hir::Expr::Index { base, index } => {
                    let range = native.step_range(link, T_BRACK);
                    if self.keep_dynamic {
                        let key = match index_keys.pop() {
                            Some((asked, key)) if asked == link => key,
                            _ => native.fixed_key(link),
                        };
                        steps.push(match key {
                            Some(key) => TraversalStep::Index { key, range },
                            None => TraversalStep::DynamicIndex { range },
                        });
                    } else {
                        // The reference's `IndexExpr`: a key that is not a
                        // literal, or a parenthesised collection, ends the
                        // traversal, and the steps after it are lost.
                        match native.literal_key(*index) {
                            Some(key) if !self.ends_reference_traversal(*base) => {
                                steps.push(TraversalStep::Index { key, range });
                            }
                            _ => break,
                        }
                    }
                }
                // A link is an accessor by construction.
                _ => break,
            }
        }
        index_keys.clear();
        self.index_keys = index_keys;
        self.out.push(Traversal { steps });
    }
}

impl Collector<'_> {
    /// Whether, in the reference's form, a traversal cannot continue from
    /// `base` to the accessor after it: a parenthesised base is an
    /// expression of its own there.
    fn ends_reference_traversal(&self, base: hir::ExprId) -> bool {
        !self.keep_dynamic && self.native.own_node(base).is_some_and(|node| is_parenthesised(&node))
    }
}

impl<'a> Native<'a> {
    fn of(file: &'a SourceFile) -> Option<Self> {
        let (hir, map) = file.native_parts()?;
        Some(Native { file, hir, map, root: file.syntax_root() })
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

    /// The key the fixed form takes for the index `link` (an
    /// [`hir::Expr::Index`]): a literal, or else a constant.
    fn fixed_key(&self, link: hir::ExprId) -> Option<Value> {
        let hir::Expr::Index { index, .. } = &self.hir[link] else { return None };
        self.literal_key(*index).or_else(|| self.constant_key(*index))
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
