//! The position-free HIR of an HCL file.
//!
//! This crate owns the lowering of the typed AST (`syntax::ast`) into a
//! [`FileHir`]: the file's [`Body`] (attributes and blocks, each in source
//! order, with nested bodies), an [`Arena`] of [`Expr`]s covering every
//! expression form of the native syntax, and the arenas of attributes and
//! blocks. Text ranges are not in it: they live in a [`SourceMap`] built
//! beside it, as rust-analyzer splits a body from its source map. That split
//! is the point of the crate: an edit to whitespace or comments changes the
//! tree and the source map but leaves the HIR equal, so the database backdates
//! it and nothing that reads only the HIR (evaluation, reference analysis)
//! runs again.
//!
//! Lowering is total: any tree, however broken, lowers without panicking.
//! What the parser could not find becomes [`Expr::Missing`] or an empty name;
//! the parser has already reported it, so lowering reports nothing itself.
//!
//! It must never depend on evaluation, on values (`value`) or on the command
//! line: the HIR records what was written, decoded (escapes, number text), and
//! leaves every question of meaning to the evaluator above it. Literals are
//! therefore kept as their own small types: a number as its normalised source
//! text, a string as decoded text.

mod dump;
mod escape;
mod lower;
mod lower_json;
mod name;
mod references;

use la_arena::{Arena, ArenaMap, Idx, IdxRange, RawIdx};
use smol_str::SmolStr;
use syntax::SyntaxNode;
use thin_vec::ThinVec;

pub use crate::{
    escape::{decode_heredoc_text, decode_quoted_text, normalise_number},
    lower::{lower_expression_file, lower_file, lower_template_file},
    lower_json::{lower_json_file, lower_json_value},
    name::Name,
    references::{ReferenceChain, ReferenceVisitor, references, walk_references},
};
pub use syntax::ast::{BinaryOp, UnaryOp};

/// A pointer to a syntax node that survives as long as the tree it came from
/// is the same: the source map stores these, never nodes, so it does not keep
/// a tree alive.
pub type SyntaxNodePtr = rowan::ast::SyntaxNodePtr<syntax::HclLanguage>;

pub type ExprId = Idx<Expr>;
pub type AttributeId = Idx<Attribute>;
pub type BlockId = Idx<Block>;

/// The id of the expression at position `index` of its arena or copy.
pub fn expr_id(index: u32) -> ExprId {
    Idx::from_raw(RawIdx::from_u32(index))
}

/// Expressions indexed by [`ExprId`]: a file's whole arena, or one
/// attribute's copy kept in a single allocation (`db::module::AttrExpr`).
/// The evaluator and the reference walk read either through this view.
#[derive(Debug, Clone, Copy)]
pub struct Exprs<'a>(&'a [Expr]);

impl<'a> Exprs<'a> {
    /// The expressions of `slice`, whose ids are their positions.
    pub fn new(slice: &'a [Expr]) -> Exprs<'a> {
        Exprs(slice)
    }

    /// The expression `id` names, borrowed for as long as the view's
    /// expressions (indexing borrows only the view).
    pub fn get(self, id: ExprId) -> &'a Expr {
        &self.0[id.into_raw().into_u32() as usize]
    }

    /// Each expression with its id, in id order.
    pub fn iter(self) -> impl Iterator<Item = (ExprId, &'a Expr)> + 'a {
        self.0.iter().enumerate().map(|(at, expr)| (expr_id(at as u32), expr))
    }

    pub fn len(self) -> usize {
        self.0.len()
    }

    pub fn is_empty(self) -> bool {
        self.0.is_empty()
    }
}

impl<'a> From<&'a Arena<Expr>> for Exprs<'a> {
    fn from(arena: &'a Arena<Expr>) -> Exprs<'a> {
        Exprs(&arena[IdxRange::new(expr_id(0)..expr_id(arena.len() as u32))])
    }
}

impl std::ops::Index<ExprId> for Exprs<'_> {
    type Output = Expr;

    fn index(&self, id: ExprId) -> &Expr {
        self.get(id)
    }
}

/// The HIR of one file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileHir {
    /// The top-level body.
    pub body: Body,
    pub attributes: Arena<Attribute>,
    pub blocks: Arena<Block>,
    pub exprs: Arena<Expr>,
}

impl std::ops::Index<ExprId> for FileHir {
    type Output = Expr;
    fn index(&self, id: ExprId) -> &Expr {
        &self.exprs[id]
    }
}

impl std::ops::Index<AttributeId> for FileHir {
    type Output = Attribute;
    fn index(&self, id: AttributeId) -> &Attribute {
        &self.attributes[id]
    }
}

impl std::ops::Index<BlockId> for FileHir {
    type Output = Block;
    fn index(&self, id: BlockId) -> &Block {
        &self.blocks[id]
    }
}

impl FileHir {
    /// A readable, indented dump of the whole file, the form of the
    /// expected-output tests. It recurses over expressions, so it is meant
    /// for tests and debugging, not for arbitrarily deep input.
    pub fn debug_dump(&self) -> String {
        dump::dump(self)
    }

    /// One expression of the arena in the notation of [`Self::debug_dump`].
    pub fn debug_dump_expr(&self, id: ExprId) -> String {
        dump::expr(self, id)
    }
}

/// A body: the contents of a file or of a block. Attributes and blocks are
/// kept in two lists, each in source order, because the information model
/// treats them apart (an attribute is looked up by name, blocks by type); the
/// ids grow in source order, so the interleaving can still be recovered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Body {
    pub attributes: Vec<AttributeId>,
    pub blocks: Vec<BlockId>,
}

/// `name = value`. An empty name is one the parser found missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    pub name: SmolStr,
    pub value: ExprId,
}

/// `type label… { body }`. Quoted labels are decoded; an empty type name is
/// one the parser found missing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub type_name: SmolStr,
    pub labels: Vec<SmolStr>,
    pub body: Body,
}

/// A literal value, kept apart from any value model.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Literal {
    /// The number's text, normalised so that spellings of the same decimal
    /// that differ only trivially (`1.50` and `1.5`, `1E3` and `1e+3`)
    /// compare equal: see [`normalise_number`]. Exact: the evaluator parses
    /// it as a decimal.
    Number(Name),
    Bool(bool),
    Null,
}

/// Which splat: `.*` absorbs only the attribute and legacy index accessors
/// right after it; `[*]` absorbs every accessor after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplatKind {
    Attr,
    Full,
}

/// A strip marker pair: `~` after the opening `${`/`%{` (strip whitespace
/// before) and before the closing `}` (strip whitespace after).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Strip {
    pub left: bool,
    pub right: bool,
}

/// Whether a template was a quoted string, a heredoc or a bare template; a
/// heredoc's `<<-` (flush) form has its common indentation removed at
/// evaluation, which needs the literal text as written (minus escapes), so it
/// is kept here as a flag rather than done in lowering. A bare template (a
/// whole text read as one, see [`lower_template_file`]) behaves as a heredoc
/// that is not flush: its literal text is taken line by line, as the
/// reference scans it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplateKind {
    Quoted,
    Heredoc { flush: bool },
    Bare,
}

/// A part of a template. Literal text is decoded: backslash escapes in
/// quoted strings, and `$${` / `%%{` in both forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    Literal(SmolStr),
    Interpolation {
        expr: ExprId,
        strip: Strip,
    },
    /// `%{ if cond }then%{ else }else%{ endif }`. Boxed, as is `For`: a
    /// part is kept for every piece of every template, and nearly all are
    /// literals and interpolations, which fit in a third of the size.
    If(Box<TemplateIf>),
    /// `%{ for key, value in collection }body%{ endfor }`.
    For(Box<TemplateFor>),
}

const _: () = assert!(std::mem::size_of::<TemplatePart>() == 24);

/// `%{ if cond }then%{ else }else%{ endif }`, with each directive's strip
/// markers. `else_parts` is `None` without an `%{ else }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateIf {
    pub cond: ExprId,
    pub then_parts: Vec<TemplatePart>,
    pub else_parts: Option<Vec<TemplatePart>>,
    pub if_strip: Strip,
    pub else_strip: Strip,
    pub endif_strip: Strip,
}

/// `%{ for key, value in collection }body%{ endfor }`, with each
/// directive's strip markers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFor {
    pub key_var: Option<SmolStr>,
    pub value_var: SmolStr,
    pub collection: ExprId,
    pub body: Vec<TemplatePart>,
    pub for_strip: Strip,
    pub endfor_strip: Strip,
}

/// The key of an object constructor item.
///
/// The reference reads a bare identifier key (`{ a = 1 }`, and also `true`,
/// `false` and `null` written bare) as the literal string of its name, not as
/// a variable, unless it is wrapped in parentheses. That rule is settled here,
/// so the evaluator never has to look for parentheses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ObjectKey {
    /// A bare identifier: the literal string key.
    Name(SmolStr),
    /// Any other key, evaluated and converted to a string. `parenthesised`
    /// records that the key starts with `(` (the reference's
    /// `ForceNonLiteral`): the reference rejects an unparenthesised
    /// multi-step traversal (`{ a.b = 1 }`, "Ambiguous attribute key") but
    /// evaluates `{ (a.b) = 1 }` and `{ (a).b = 1 }`.
    Expr { expr: ExprId, parenthesised: bool },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: ExprId,
}

/// An expression. Parentheses are not kept: evaluation never needs them,
/// except around an object key, which [`ObjectKey`] records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    /// An expression the parser could not find, after a syntax error.
    Missing,
    Literal(Literal),
    /// Thin, as are the lists of tuples and objects, so that an
    /// expression is 16 bytes.
    Template {
        kind: TemplateKind,
        parts: ThinVec<TemplatePart>,
    },
    /// The root of a traversal: `var` in `var.a`.
    Variable(Name),
    /// `base.name`.
    GetAttr {
        base: ExprId,
        name: Name,
    },
    /// `base[index]`.
    Index {
        base: ExprId,
        index: ExprId,
    },
    /// `base.0`, the legacy index form; the index is a normalised number.
    LegacyIndex {
        base: ExprId,
        index: Name,
    },
    /// A splat: `source.*.each…` or `source[*].each…`. `each` is the
    /// expression applied to every element, built over [`Expr::SplatItem`]
    /// from the accessors the splat absorbed (see [`SplatKind`]); with none,
    /// it is the item itself.
    Splat {
        kind: SplatKind,
        source: ExprId,
        each: ExprId,
    },
    /// The element a splat's `each` is applied to: bound by the nearest
    /// enclosing splat whose `each` holds it.
    SplatItem,
    /// `name(args…)`.
    Call(Box<CallExpr>),
    Tuple(ThinVec<ExprId>),
    Object(ThinVec<ObjectItem>),
    /// `[for key, value in collection : value_expr if cond]`.
    ForTuple(Box<ForTupleExpr>),
    /// `{for key, value in collection : key_expr => value_expr... if cond}`.
    ForObject(Box<ForObjectExpr>),
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Conditional {
        cond: ExprId,
        then_expr: ExprId,
        else_expr: ExprId,
    },
}

// An expression is 16 bytes: a file holds one per expression node, twice
// over for the module's copy (see `db::module::expr`), so the rare large
// variants are boxed, names are interned ([`Name`]) and lists are thin.
const _: () = assert!(std::mem::size_of::<Expr>() == 16);

/// A function call: `name(args…)`; `expand_final` is the `...` after the
/// last argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallExpr {
    pub name: Name,
    pub args: ThinVec<ExprId>,
    pub expand_final: bool,
}

// Boxed in an expression, and kept for every call in a module's copies.
const _: () = assert!(std::mem::size_of::<CallExpr>() == 16);

/// `[for key_var, value_var in collection : value if cond]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForTupleExpr {
    pub key_var: Option<SmolStr>,
    pub value_var: SmolStr,
    pub collection: ExprId,
    pub value: ExprId,
    pub cond: Option<ExprId>,
}

/// `{for key_var, value_var in collection : key => value... if cond}`;
/// `grouping` is the `...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForObjectExpr {
    pub key_var: Option<SmolStr>,
    pub value_var: SmolStr,
    pub collection: ExprId,
    pub key: ExprId,
    pub value: ExprId,
    pub grouping: bool,
    pub cond: Option<ExprId>,
}

impl Expr {
    /// Appends the expressions directly inside this one, in source order:
    /// an object key before its value, a template's parts in order (an
    /// `if` directive's condition, then its branches; a `for`'s collection,
    /// then its body). For walks that must not recurse, over arenas whose
    /// depth the parser does not bound (long operator chains).
    pub fn children(&self, out: &mut Vec<ExprId>) {
        match self {
            Expr::Missing | Expr::Literal(_) | Expr::Variable(_) | Expr::SplatItem => {}
            Expr::Template { parts, .. } => template_children(parts, out),
            Expr::GetAttr { base, .. } | Expr::LegacyIndex { base, .. } => out.push(*base),
            Expr::Index { base, index } => out.extend([*base, *index]),
            Expr::Splat { source, each, .. } => out.extend([*source, *each]),
            Expr::Call(call) => out.extend(call.args.iter().copied()),
            Expr::Tuple(args) => out.extend(args.iter().copied()),
            Expr::Object(items) => {
                for item in items {
                    if let ObjectKey::Expr { expr, .. } = &item.key {
                        out.push(*expr);
                    }
                    out.push(item.value);
                }
            }
            Expr::ForTuple(for_expr) => {
                out.extend([for_expr.collection, for_expr.value]);
                out.extend(for_expr.cond);
            }
            Expr::ForObject(for_expr) => {
                out.extend([for_expr.collection, for_expr.key, for_expr.value]);
                out.extend(for_expr.cond);
            }
            Expr::Unary { operand, .. } => out.push(*operand),
            Expr::Binary { lhs, rhs, .. } => out.extend([*lhs, *rhs]),
            Expr::Conditional { cond, then_expr, else_expr } => out.extend([*cond, *then_expr, *else_expr]),
        }
    }
}

fn template_children(parts: &[TemplatePart], out: &mut Vec<ExprId>) {
    for part in parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation { expr, .. } => out.push(*expr),
            TemplatePart::If(directive) => {
                let TemplateIf { cond, then_parts, else_parts, .. } = &**directive;
                out.push(*cond);
                template_children(then_parts, out);
                template_children(else_parts.as_deref().unwrap_or_default(), out);
            }
            TemplatePart::For(directive) => {
                let TemplateFor { collection, body, .. } = &**directive;
                out.push(*collection);
                template_children(body, out);
            }
        }
    }
}

fn index_of(id: ExprId) -> usize {
    id.into_raw().into_u32() as usize
}

/// Where each piece of the HIR came from, kept apart from it so that the HIR
/// compares equal across edits that only move text.
///
/// It is a file's second-largest structure after the tree, so it holds one
/// 12-byte pointer per expression (ids are dense: every expression gets one
/// as it is allocated) and no reverse index: the node-to-expression direction
/// is asked for rarely, and answered by a scan.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    exprs: Vec<SyntaxNodePtr>,
    /// The expressions with no node of their own (a hole, a splat's item),
    /// in increasing order: each points at a node that does not point back.
    detached: Vec<ExprId>,
    /// Parenthesised expressions, which leave no expression of their own:
    /// each node with the expression inside it.
    parens: Vec<(SyntaxNodePtr, ExprId)>,
    attributes: ArenaMap<AttributeId, SyntaxNodePtr>,
    blocks: ArenaMap<BlockId, SyntaxNodePtr>,
}

impl SourceMap {
    /// Records the node of the expression just allocated as `id`; a
    /// `detached` one points at `node` without `node` pointing back.
    pub(crate) fn push_expr(&mut self, id: ExprId, node: &SyntaxNode, detached: bool) {
        debug_assert_eq!(index_of(id), self.exprs.len(), "expression ids are dense");
        self.exprs.push(SyntaxNodePtr::new(node));
        if detached {
            self.detached.push(id);
        }
    }

    pub(crate) fn push_paren(&mut self, paren: &SyntaxNode, inner: ExprId) {
        self.parens.push((SyntaxNodePtr::new(paren), inner));
    }

    /// The node an expression was lowered from. A [`Expr::Missing`] points at
    /// the node that should have held it; an expression made from a
    /// splat's absorbed accessor points at that accessor's node, and a
    /// [`Expr::SplatItem`] at the splat.
    pub fn expr_syntax(&self, id: ExprId) -> Option<SyntaxNodePtr> {
        self.exprs.get(index_of(id)).copied()
    }

    /// The expression lowered from a node, if any. Parentheses answer with
    /// the expression inside. The node of a splat's last absorbed accessor
    /// (`.b` in `a[*].b`) answers with the splat, which is what its text
    /// denotes; the accessor applied to each element inside the splat's
    /// `each` maps to that node but not back. Linear in the file's
    /// expressions: for one-off questions, not for loops over a file.
    /// Whether `expr` is written in parentheses (which leave no expression
    /// of their own). From the map alone, without finding the syntax node.
    pub fn is_parenthesised(&self, expr: ExprId) -> bool {
        self.parens.iter().any(|(_, inner)| *inner == expr)
    }

    pub fn node_expr(&self, node: &SyntaxNode) -> Option<ExprId> {
        let ptr = SyntaxNodePtr::new(node);
        if let Some((_, inner)) = self.parens.iter().find(|(paren, _)| *paren == ptr) {
            return Some(*inner);
        }
        // The last expression allocated for a node answers for it (a splat
        // is allocated after the accessor it absorbed).
        (0..self.exprs.len())
            .rev()
            .filter(|&index| self.exprs[index] == ptr)
            .map(|index| ExprId::from_raw(la_arena::RawIdx::from_u32(index as u32)))
            .find(|id| self.detached.binary_search(id).is_err())
    }

    pub fn attribute_syntax(&self, id: AttributeId) -> Option<SyntaxNodePtr> {
        self.attributes.get(id).copied()
    }

    pub fn block_syntax(&self, id: BlockId) -> Option<SyntaxNodePtr> {
        self.blocks.get(id).copied()
    }
}
