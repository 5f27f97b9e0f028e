//! The typed AST: thin, zero-cost views over [`SyntaxNode`]s of one kind.
//!
//! The rowan tree is untyped: every node is a `SyntaxNode` with a kind, and
//! any node may hold any children, which is what lets the parser keep broken
//! input. The types here put the grammar back on top: an [`Attribute`] is a
//! `SyntaxNode` of kind `ATTRIBUTE`, and its accessors find the children the
//! grammar says it has. Each accessor returns an `Option` or an iterator,
//! because after a syntax error any child may be missing.
//!
//! The code is split three ways, as in rust-analyzer:
//!
//! - `generated.rs`, written by `cargo xtask codegen` from `hcl.ungram`: one
//!   struct per node with an accessor per kind of child, and one enum per
//!   alternation of nodes ([`Expr`], [`TemplatePart`]);
//! - `node_ext.rs`, by hand: accessors the grammar cannot name, where a node
//!   holds two children of the same kind (the operands of [`BinaryExpr`]) or
//!   where a token's meaning depends on its text (HCL has no keywords, so
//!   `for`, `in` and `true` are identifiers);
//! - this file: the [`AstNode`] trait, [`AstChildren`] and the `support`
//!   functions the generated accessors call.

mod generated;
mod json_ext;
mod node_ext;

use std::marker::PhantomData;

pub use self::{generated::*, json_ext::*, node_ext::*};
use crate::{SyntaxKind, SyntaxNode};

/// A typed view of a syntax node.
///
/// Casting checks only the node's kind, so it is cheap, and it never fails
/// on a node of the right kind, however broken its children are.
pub trait AstNode {
    fn can_cast(kind: SyntaxKind) -> bool
    where
        Self: Sized;
    fn cast(syntax: SyntaxNode) -> Option<Self>
    where
        Self: Sized;
    fn syntax(&self) -> &SyntaxNode;
}

/// The children of a node that cast to `N`, in source order; children of
/// other kinds are skipped by their green kind, without a red node made
/// for them (a red node is an allocation).
#[derive(Debug, Clone)]
pub struct AstChildren<N> {
    next: Option<SyntaxNode>,
    ph: PhantomData<N>,
}

impl<N: AstNode> AstChildren<N> {
    fn new(parent: &SyntaxNode) -> Self {
        AstChildren { next: parent.first_child_by_kind(&N::can_cast), ph: PhantomData }
    }
}

impl<N: AstNode> Iterator for AstChildren<N> {
    type Item = N;

    fn next(&mut self) -> Option<N> {
        let node = self.next.take()?;
        self.next = node.next_sibling_by_kind(&N::can_cast);
        N::cast(node)
    }
}

/// What the generated accessors are made of: the first child node of a type,
/// all of them, or the first direct token of a kind. Each looks at the green
/// children's kinds and makes a red node only for what it returns: the
/// accessors run over every node of a file several times a check (lowering,
/// lints, schemas), and a red node made for each child passed over cost more
/// than the rest of those walks.
mod support {
    use super::{AstChildren, AstNode};
    use crate::{SyntaxKind, SyntaxNode, SyntaxToken};

    pub(super) fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
        parent.first_child_by_kind(&N::can_cast).and_then(N::cast)
    }

    pub(super) fn children<N: AstNode>(parent: &SyntaxNode) -> AstChildren<N> {
        AstChildren::new(parent)
    }

    pub(super) fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
        parent.first_child_or_token_by_kind(&|it| it == kind).and_then(|it| it.into_token())
    }
}
