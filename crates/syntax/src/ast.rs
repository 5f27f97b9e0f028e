//! The typed AST: thin, zero-cost views over [`SyntaxNode`]s of one kind.

use crate::{SyntaxKind, SyntaxNode};

/// A typed view of a syntax node.
pub trait AstNode {
    fn can_cast(kind: SyntaxKind) -> bool
    where
        Self: Sized;
    fn cast(syntax: SyntaxNode) -> Option<Self>
    where
        Self: Sized;
    fn syntax(&self) -> &SyntaxNode;
}

/// Placeholder until the generated AST lands.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceFile {
    syntax: SyntaxNode,
}

impl AstNode for SourceFile {
    fn can_cast(kind: SyntaxKind) -> bool {
        kind == SyntaxKind::SOURCE_FILE
    }
    fn cast(syntax: SyntaxNode) -> Option<Self> {
        Self::can_cast(syntax.kind()).then_some(SourceFile { syntax })
    }
    fn syntax(&self) -> &SyntaxNode {
        &self.syntax
    }
}
