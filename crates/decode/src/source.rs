//! Loaded source files and positions in them.
//!
//! A [`SourceFile`] is one parsed file of either syntax, shared by every
//! [`Body`](crate::Body) and [`Expression`](crate::Expression) made from it
//! through an `Arc`, so a decoded body never borrows from its caller.

use std::sync::Arc;

use syntax::{AstNode, TextRange, TextSize};
use unicode_segmentation::UnicodeSegmentation;

use crate::{Diagnostic, Diagnostics};

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
        TextRange::new(TextSize::from(self.start.byte), TextSize::from(self.end.byte.max(self.start.byte)))
    }

    /// From the start of `start` to the end of `end`, the reference's
    /// `hcl.RangeBetween`.
    pub fn between(start: &Range, end: &Range) -> Range {
        Range { filename: start.filename.clone(), start: start.start, end: end.end }
    }

    /// The empty range at this range's start.
    pub fn start_point(&self) -> Range {
        Range { filename: self.filename.clone(), start: self.start, end: self.start }
    }

    /// The empty range at this range's end.
    pub fn end_point(&self) -> Range {
        Range { filename: self.filename.clone(), start: self.end, end: self.end }
    }
}

impl std::fmt::Display for Range {
    /// The reference's `Range.String`: `file:line,col-col`, or
    /// `file:line,col-line,col` across lines.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.start.line == self.end.line {
            write!(f, "{}:{},{}-{}", self.filename, self.start.line, self.start.column, self.end.column)
        } else {
            write!(
                f,
                "{}:{},{}-{},{}",
                self.filename, self.start.line, self.start.column, self.end.line, self.end.column
            )
        }
    }
}

/// Index of a file in a [`Sources`] table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// The syntax a file was parsed with.
// One of these exists per loaded file, behind an `Arc`, so the size of the
// larger variant costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum FileSyntax {
    /// A native syntax file: its tree, its HIR and the source map between.
    /// The HIR and source map are shared with whoever lowered the file (a
    /// database keeps its own).
    Native {
        parse: syntax::Parse<syntax::ast::SourceFile>,
        hir: Arc<hir::FileHir>,
        source_map: Arc<hir::SourceMap>,
    },
    /// A JSON syntax file: its tree (`syntax::parse_json`).
    Json { parse: syntax::Parse<syntax::ast::JsonDocument> },
    /// A native expression or bare template read from a JSON string (made
    /// by `crate::json`): its tree, HIR and source map. Its positions count
    /// from `base`, where the reference places the string's content in the
    /// JSON file, so its expressions are native ones with JSON ranges.
    Fragment {
        root: syntax::GreenNode,
        errors: Arc<[syntax::SyntaxError]>,
        hir: Arc<hir::FileHir>,
        source_map: Arc<hir::SourceMap>,
        base: Pos,
    },
}

/// One parsed file.
pub struct SourceFile {
    pub name: Arc<str>,
    pub text: Arc<str>,
    pub syntax: FileSyntax,
    line_starts: Vec<TextSize>,
}

/// Only the name and the syntax: every body and expression of a file holds
/// it, and printing one should not print the whole file.
impl std::fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let syntax = match &self.syntax {
            FileSyntax::Native { .. } => "native",
            FileSyntax::Json { .. } => "json",
            FileSyntax::Fragment { .. } => "fragment",
        };
        f.debug_struct("SourceFile")
            .field("name", &self.name)
            .field("syntax", &syntax)
            .finish_non_exhaustive()
    }
}

impl SourceFile {
    /// Parses `text` as the native syntax and lowers it.
    pub fn native(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Arc<SourceFile> {
        let text = text.into();
        let parse = syntax::parse(&text);
        let (hir, source_map) = hir::lower_file(&parse);
        let syntax = FileSyntax::Native { parse, hir: Arc::new(hir), source_map: Arc::new(source_map) };
        Arc::new(SourceFile::new(name.into(), text, syntax))
    }

    /// A native syntax file already parsed and lowered elsewhere (a
    /// database's tree and HIR of `text`), so that reading it here does not
    /// parse it again.
    pub fn native_parsed(
        name: impl Into<Arc<str>>,
        text: impl Into<Arc<str>>,
        parse: syntax::Parse<syntax::ast::SourceFile>,
        hir: Arc<hir::FileHir>,
        source_map: Arc<hir::SourceMap>,
    ) -> Arc<SourceFile> {
        let syntax = FileSyntax::Native { parse, hir, source_map };
        Arc::new(SourceFile::new(name.into(), text.into(), syntax))
    }

    /// Parses `text` as the JSON syntax.
    pub fn json(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Arc<SourceFile> {
        let text = text.into();
        let syntax = FileSyntax::Json { parse: syntax::parse_json(&text) };
        Arc::new(SourceFile::new(name.into(), text, syntax))
    }

    /// A native expression or template read from a JSON string (see
    /// [`FileSyntax::Fragment`]).
    pub(crate) fn fragment(name: Arc<str>, text: Arc<str>, syntax: FileSyntax) -> Arc<SourceFile> {
        Arc::new(SourceFile::new(name, text, syntax))
    }

    fn new(name: Arc<str>, text: Arc<str>, syntax: FileSyntax) -> SourceFile {
        let mut line_starts = vec![TextSize::from(0)];
        line_starts.extend(
            text.match_indices('\n').filter_map(|(at, _)| u32::try_from(at + 1).ok()).map(TextSize::from),
        );
        SourceFile { name, text, syntax, line_starts }
    }

    /// The syntax errors of the file, as diagnostics.
    pub fn syntax_diagnostics(&self) -> crate::Diagnostics {
        let errors: &[syntax::SyntaxError] = match &self.syntax {
            FileSyntax::Native { parse, .. } => parse.errors(),
            FileSyntax::Json { parse } => parse.errors(),
            FileSyntax::Fragment { errors, .. } => errors,
        };
        let mut diagnostics = errors
            .iter()
            .map(|error| {
                Diagnostic::error(
                    error.message.clone(),
                    error.detail.clone().unwrap_or_default(),
                    Some(self.range(error.range)),
                )
            })
            .collect::<Diagnostics>();
        if let FileSyntax::Json { .. } = self.syntax {
            // The reference checks a JSON file's root as it parses it.
            diagnostics.extend(crate::json::root_diagnostics(self));
        }
        diagnostics
    }

    /// The top-level body of the file.
    pub fn body(self: &Arc<Self>) -> crate::Body {
        match &self.syntax {
            FileSyntax::Native { .. } => crate::Body::native(self.clone(), None),
            FileSyntax::Json { .. } => crate::json::file_body(self),
            FileSyntax::Fragment { .. } => crate::Body::empty(),
        }
    }

    /// The position of a byte offset. The column counts grapheme clusters
    /// from the start of the line, as the reference's scanner does; an
    /// offset past the end of the text is clamped to it.
    pub fn pos(&self, offset: TextSize) -> Pos {
        let offset = offset.min(TextSize::of(&*self.text));
        let line = self.line_starts.partition_point(|&start| start <= offset).saturating_sub(1);
        let line_start = self.line_starts.get(line).copied().unwrap_or_default();
        let mut before = self.text.get(usize::from(line_start)..usize::from(offset)).unwrap_or("");
        if line_start == TextSize::default() && matches!(self.syntax, FileSyntax::Native { .. }) {
            // The reference's scanner skips a leading byte order mark before
            // it counts columns: the first token is in column 1.
            before = before.strip_prefix('\u{feff}').unwrap_or(before);
        }
        // Most lines are ASCII, where every byte is a grapheme cluster of
        // its own; segmenting is only needed for the rest.
        let mut column = if before.is_ascii() { before.len() } else { before.graphemes(true).count() };
        if let FileSyntax::Json { .. } = self.syntax {
            // The reference's JSON scanner counts a tab as two columns and a
            // carriage return as none; neither can be inside a string token.
            column = (column + before.matches('\t').count()).saturating_sub(before.matches('\r').count());
        }
        let pos = Pos {
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
            byte: offset.into(),
        };
        match &self.syntax {
            FileSyntax::Fragment { base, .. } => Pos {
                line: pos.line + base.line.saturating_sub(1),
                column: if pos.line == 1 { pos.column + base.column.saturating_sub(1) } else { pos.column },
                byte: pos.byte + base.byte,
            },
            _ => pos,
        }
    }

    /// A byte range of the file as a [`Range`] with positions.
    pub fn range(&self, range: TextRange) -> Range {
        Range { filename: self.name.clone(), start: self.pos(range.start()), end: self.pos(range.end()) }
    }

    /// The root of the native syntax tree, or of the JSON tree.
    pub(crate) fn syntax_root(&self) -> syntax::SyntaxNode {
        match &self.syntax {
            FileSyntax::Native { parse, .. } => parse.syntax_node(),
            FileSyntax::Json { parse } => parse.syntax_node(),
            FileSyntax::Fragment { root, .. } => syntax::SyntaxNode::new_root(root.clone()),
        }
    }

    /// The range of the top-level body's missing items: where the
    /// reference's parser starts the file's body, the first token that is
    /// not whitespace or a block comment. A line comment counts: the
    /// reference's lexer turns it into the newline it ends with.
    pub(crate) fn native_body_start(&self) -> Range {
        let root = self.syntax_root();
        let offset = root
            .descendants_with_tokens()
            .filter_map(|it| it.into_token())
            .find(|token| match token.kind() {
                syntax::SyntaxKind::WHITESPACE => false,
                syntax::SyntaxKind::COMMENT => !token.text().starts_with("/*"),
                _ => true,
            })
            .map_or_else(|| TextSize::of(&*self.text), |token| token.text_range().start());
        self.range(TextRange::empty(offset))
    }

    /// The native tree, HIR and source map, for a file known to be native.
    pub(crate) fn native_parts(&self) -> Option<(&hir::FileHir, &hir::SourceMap)> {
        match &self.syntax {
            FileSyntax::Native { hir, source_map, .. } | FileSyntax::Fragment { hir, source_map, .. } => {
                Some((hir, source_map))
            }
            FileSyntax::Json { .. } => None,
        }
    }
}

/// A table of loaded files, for front ends that load several.
#[derive(Debug, Default)]
pub struct Sources {
    pub files: Vec<Arc<SourceFile>>,
}

impl Sources {
    /// Adds a file and returns its id.
    pub fn add(&mut self, file: Arc<SourceFile>) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).unwrap_or(u32::MAX));
        self.files.push(file);
        id
    }

    /// The file of an id from [`Sources::add`].
    pub fn get(&self, id: FileId) -> Option<&Arc<SourceFile>> {
        self.files.get(id.0 as usize)
    }
}

/// The range of a node without the trivia and newlines at its edges.
pub(crate) fn trimmed_range(node: &syntax::SyntaxNode) -> TextRange {
    let significant = |token: &syntax::SyntaxToken| {
        !token.kind().is_trivia() && token.kind() != syntax::SyntaxKind::NEWLINE
    };
    let mut first = node.first_token();
    while let Some(token) = first.as_ref().filter(|it| !significant(it)) {
        first = token.next_token().filter(|it| node.text_range().contains_range(it.text_range()));
    }
    let mut last = node.last_token();
    while let Some(token) = last.as_ref().filter(|it| !significant(it)) {
        last = token.prev_token().filter(|it| node.text_range().contains_range(it.text_range()));
    }
    match (first, last) {
        (Some(first), Some(last)) if first.text_range().start() <= last.text_range().end() => {
            TextRange::new(first.text_range().start(), last.text_range().end())
        }
        _ => TextRange::empty(node.text_range().start()),
    }
}

/// Whether `node` is wrapped in parentheses (the HIR drops them, but the
/// reference keeps them as a node that ends a traversal).
pub(crate) fn is_parenthesised(node: &syntax::SyntaxNode) -> bool {
    node.parent().is_some_and(|parent| syntax::ast::ParenExpr::can_cast(parent.kind()))
}
