//! Diagnostics and lints shared by every front end.
//!
//! This crate owns the one [`Diagnostic`] type (severity, stable code,
//! message, file and range, labels, notes, suggestions), the [`LineIndex`]
//! that turns byte offsets into the lines and columns people read, and the
//! queries that collect a file's diagnostics ([`diagnostics`]; today the
//! syntax ones, [`syntax_diagnostics`]). Diagnostics are plain values here:
//! they are rendered only at the edges (rustc-style text, JSON, SARIF), by
//! the front ends.
//!
//! It must never depend on the command line (`cli`) or on any renderer: the
//! watch mode and a language server use the same diagnostics and show them
//! their own way.

mod diagnostic;
mod lines;

use db::{Db, File, FileStatus};

pub use crate::{
    diagnostic::{Diagnostic, Edit, Label, Severity, Suggestion},
    lines::{LineCol, LineIndex},
};

/// The line index of a file's text, kept by the database so that rendering
/// many diagnostics of one file builds it once.
#[salsa::tracked(returns(ref))]
pub fn line_index(db: &dyn Db, file: File) -> LineIndex {
    LineIndex::new(file.text(db))
}

/// Every diagnostic of a file, ordered by position. Today these are the
/// syntax diagnostics; lowering, evaluation and lints will add theirs here.
#[salsa::tracked(returns(ref))]
pub fn diagnostics(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    syntax_diagnostics(db, file).clone()
}

/// The diagnostics of reading and parsing a file: one error if its bytes
/// are not UTF-8 (such a file has no tree, so there is nothing else to say),
/// otherwise one error per [`syntax::SyntaxError`] of the file's syntax (native
/// or JSON, see [`db::SourceSyntax`]), in the parser's order:
/// lexical errors first, then parse errors as they were found. That is the
/// reference's order, so the first diagnostic is the one it would report,
/// and it puts an error about an unclosed outer bracket after the inner
/// mistake that caused it rather than before.
#[salsa::tracked(returns(ref))]
pub fn syntax_diagnostics(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    if file.status(db) == FileStatus::Deleted {
        return Vec::new();
    }
    if let Some(error) = file.encoding_error(db) {
        return vec![Diagnostic::from_syntax_error(file, error)];
    }
    db::syntax_errors(db, file).iter().map(|error| Diagnostic::from_syntax_error(file, error)).collect()
}
