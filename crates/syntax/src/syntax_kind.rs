//! The kinds of tokens and nodes, and the rowan language that ties them to a tree.

mod generated;

pub use self::generated::SyntaxKind;

impl SyntaxKind {
    /// Whitespace and comments: kept in the tree, skipped by the parser.
    /// Newlines are not trivia: the parser decides where they matter.
    pub fn is_trivia(self) -> bool {
        matches!(self, SyntaxKind::WHITESPACE | SyntaxKind::COMMENT)
    }
}

impl From<u16> for SyntaxKind {
    fn from(raw: u16) -> SyntaxKind {
        SyntaxKind::from_u16(raw).unwrap_or(SyntaxKind::ERROR)
    }
}

impl From<SyntaxKind> for rowan::SyntaxKind {
    fn from(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind as u16)
    }
}

impl From<SyntaxKind> for u16 {
    fn from(kind: SyntaxKind) -> u16 {
        kind as u16
    }
}

/// The rowan language of HCL native syntax trees.
#[derive(Debug, Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HclLanguage {}

impl rowan::Language for HclLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from(raw.0)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        rowan::SyntaxKind(kind.into())
    }
}

pub type SyntaxNode = rowan::SyntaxNode<HclLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<HclLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<HclLanguage>;
pub type SyntaxNodeChildren = rowan::SyntaxNodeChildren<HclLanguage>;
