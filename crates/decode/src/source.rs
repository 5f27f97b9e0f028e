//! Loaded source files and positions in them.
//!
//! A [`SourceFile`] is one parsed file of either syntax, shared by every
//! [`Body`](crate::Body) and [`Expression`](crate::Expression) made from it
//! through an `Arc`, so a decoded body never borrows from its caller.

use std::sync::Arc;

use syntax::{TextRange, TextSize};

/// A position, as the reference reports one: 1-based line and column (the
/// column counts characters), and the 0-based byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub byte: u32,
}

/// A range in a named file, the reference's `hcl.Range`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Range {
    pub filename: Arc<str>,
    pub start: Pos,
    pub end: Pos,
}

impl Range {
    /// The byte range, for front ends that work with offsets.
    pub fn text_range(&self) -> TextRange {
        TextRange::new(TextSize::from(self.start.byte), TextSize::from(self.end.byte))
    }
}

/// Index of a file in a [`Sources`] table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// The syntax a file was parsed with.
#[derive(Debug)]
pub enum FileSyntax {
    /// A native syntax file: its tree, its HIR and the source map between.
    Native { parse: syntax::Parse<syntax::ast::SourceFile>, hir: hir::FileHir, source_map: hir::SourceMap },
    /// A JSON syntax file: its tree (`syntax::parse_json`).
    Json { green: syntax::GreenNode, errors: Arc<[syntax::SyntaxError]> },
}

/// One parsed file.
#[derive(Debug)]
pub struct SourceFile {
    pub name: Arc<str>,
    pub text: Arc<str>,
    pub syntax: FileSyntax,
    line_starts: Vec<TextSize>,
}

impl SourceFile {
    /// Parses `text` as the native syntax and lowers it.
    pub fn native(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Arc<SourceFile> {
        todo!()
    }

    /// Parses `text` as the JSON syntax.
    pub fn json(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Arc<SourceFile> {
        todo!()
    }

    /// The syntax errors of the file, as diagnostics.
    pub fn syntax_diagnostics(&self) -> crate::Diagnostics {
        todo!()
    }

    /// The top-level body of the file.
    pub fn body(self: &Arc<Self>) -> crate::Body {
        todo!()
    }

    pub fn pos(&self, offset: TextSize) -> Pos {
        todo!()
    }

    pub fn range(&self, range: TextRange) -> Range {
        todo!()
    }
}

/// A table of loaded files, for front ends that load several.
#[derive(Debug, Default)]
pub struct Sources {
    pub files: Vec<Arc<SourceFile>>,
}
