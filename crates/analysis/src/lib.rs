//! Diagnostics and lints shared by every front end.
//!
//! This crate owns the one [`Diagnostic`] type (severity, stable code,
//! message, file and range, labels, notes, suggestions), the [`LineIndex`]
//! that turns byte offsets into the lines and columns people read, and the
//! queries that collect a file's diagnostics ([`diagnostics`]: the syntax
//! ones, [`syntax_diagnostics`], and the lints). Diagnostics are plain
//! values here; [`render`] turns one into rustc-style text, for the command
//! line and for the library's decoding errors alike, and the command line
//! writes JSON and SARIF itself. How many of a file's are reported is capped
//! ([`cap_diagnostics`]: the first hundred by default, then one
//! `too-many-diagnostics` that counts the rest), by the host's pipeline and
//! by the front ends that read a single file.
//!
//! Lints are rules with stable codes in a registry ([`rules::RULES`]); the
//! per-file style lints are in `lints.rs`. Whether a rule's fix keeps the
//! meaning, and applying a file's fixes, is [`applicability`] and
//! [`apply_fixes`] (`fix.rs`). What a file says about them
//! (`# halite-ignore: CODE` comments, `ignore.rs`) is applied here, inside
//! [`diagnostics`], and [`ignore_suggestion`] writes one; what a repository says (`halite.toml`, [`config`]) is
//! applied by the front end, since the database does not know where a
//! repository starts.
//!
//! It must never depend on the command line (`cli`): the watch mode and a
//! language server use the same diagnostics and show them their own way.

pub mod config;
mod diagnostic;
mod fix;
mod ignore;
mod limit;
mod lines;
mod lints;
pub mod module;
pub mod render;
pub mod rules;
pub mod terraform;
pub mod terraform_contexts;
pub mod terraform_stacks;

use std::borrow::Cow;

use db::{Db, File, FileStatus, SourceSyntax};

pub use crate::{
    config::{Config, ConfigChain, ConfigError, DialectDeclaration, Level, RuleLevels},
    diagnostic::{Diagnostic, Edit, Label, Severity, Suggestion},
    fix::{Applicability, FixMode, Fixed, applicability, apply_fixes},
    ignore::ignore_suggestion,
    limit::{DEFAULT_MAX_DIAGNOSTICS_PER_FILE, TOO_MANY_DIAGNOSTICS, cap_diagnostics},
    lines::{LineCol, LineIndex},
    module::{
        CycleReporters, FileReferences, ModuleFacts, Usage, UseChange, check_candidates,
        evaluated_file_module_diagnostics, file_module_diagnostics, file_references, language_of,
    },
    rules::{RULES, Rule},
};

/// The line index of a file's text, kept by the database so that rendering
/// many diagnostics of one file builds it once.
#[salsa::tracked(returns(ref))]
pub fn line_index(db: &dyn Db, file: File) -> LineIndex {
    LineIndex::new(file.text(db))
}

/// Every diagnostic of a file, each lint at its rule's default severity.
///
/// A file with syntax errors has those, in the parser's order, and nothing
/// else: lints read the tree, and the tree of a broken file is a guess.
/// Otherwise the lints' diagnostics come ordered by position, less those a
/// `# halite-ignore` comment silences, with any mistaken ignore comments.
/// Lowering, evaluation and the module's reference lints will add theirs
/// here.
///
/// The lints and the ignore comments are queries of their own, so that an
/// edit that changes neither (most edits of a file without findings) leaves
/// this query's inputs equal, and it does not run again.
///
/// The syntax errors are not copied: a file of a million of them is held
/// once, by [`syntax_diagnostics`].
pub fn diagnostics(db: &dyn Db, file: File) -> &[Diagnostic] {
    let syntax = syntax_diagnostics(db, file);
    if !syntax.is_empty() || file.status(db) == FileStatus::Deleted || file.syntax(db) != SourceSyntax::Native
    {
        return syntax;
    }
    lint_diagnostics(db, file)
}

/// The style lints of a file without syntax errors, less those its ignore
/// comments silence, with the ignore comments' own problems.
#[salsa::tracked(returns(ref))]
fn lint_diagnostics(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    let lints = style_lints(db, file);
    let ignores = ignore_comments(db, file);
    let mut diagnostics: Vec<Diagnostic> = if ignores.silences_nothing() {
        lints.clone()
    } else {
        let index = line_index(db, file);
        lints.iter().filter(|diagnostic| !ignores.silences(index, diagnostic)).cloned().collect()
    };
    diagnostics.extend(ignores.problems.iter().cloned());
    diagnostics.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    diagnostics
}

/// Every diagnostic of a file in a module, as `halite check` reports them:
/// the file's own ([`diagnostics`]) and those of `module` about it
/// ([`module_diagnostics`], computed once per module by the caller and
/// passed here as `module_diagnostics`), ordered by position, less those a
/// `# halite-ignore` comment silences. A file with syntax errors gets only
/// those: what the module model read of it is a guess.
pub fn file_diagnostics_in_module<'db, 'd>(
    db: &'db dyn Db,
    file: File,
    module_diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
) -> Cow<'db, [Diagnostic]> {
    let own = diagnostics(db, file);
    if !syntax_diagnostics(db, file).is_empty() {
        return Cow::Borrowed(own);
    }
    let mut module_diagnostics: Vec<Diagnostic> =
        module_diagnostics.into_iter().filter(|it| it.file == file).cloned().collect();
    if module_diagnostics.is_empty() {
        return Cow::Borrowed(own);
    }
    if file.syntax(db) == SourceSyntax::Native {
        let ignores = ignore_comments(db, file);
        if !ignores.silences_nothing() {
            let index = line_index(db, file);
            module_diagnostics.retain(|diagnostic| !ignores.silences(index, diagnostic));
        }
    }
    let mut all = own.to_vec();
    all.extend(module_diagnostics);
    all.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    Cow::Owned(all)
}

/// The style lints of a native-syntax file (see `lints.rs`), before ignore
/// comments and configuration.
#[salsa::tracked(returns(ref))]
fn style_lints(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    lints::native_lints(db, file)
}

/// The `# halite-ignore` comments of a native-syntax file.
#[salsa::tracked(returns(ref))]
fn ignore_comments(db: &dyn Db, file: File) -> ignore::Ignores {
    ignore::ignores(db, file)
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
