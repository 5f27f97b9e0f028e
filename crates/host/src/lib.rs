//! The analysis host: the one owner of Halite's state and of its changes,
//! which every front end (the command line's `check`, `eval`, `watch` and
//! `fmt`, the library's `Workspace`, `halite lsp`) goes through.
//!
//! It owns the files (and which module each belongs to, by the one table of
//! file kinds in `vfs`), the modules' variables and dialects (each
//! module's chosen from the registry it is made with, `dialects::standard`
//! unless an embedder gives its own: [`AnalysisHost::with_dialects`]), the rule
//! levels of each file (`halite.toml`), the durability policy of the
//! database's inputs, each module's dependency graph (and for a host that
//! reports changes, its index kept in parts, patched per changed file), and
//! what it last reported. Everything changes through one [`Change`] applied with
//! [`AnalysisHost::apply_change`], the model being rust-analyzer's
//! `AnalysisHost::apply_change`. It answers values, diagnostics (syntax,
//! style lints and module rules, with rule levels and ignore comments
//! applied) and formatted text, and [`AnalysisHost::report`] says what
//! changed since the last report: values added, changed or removed, and
//! diagnostics added or resolved.
//!
//! A report's work is proportional to the change: an edit re-evaluates the
//! attributes it touches and those that read them (the graph's reverse
//! edges), and finds the diagnostics of the files those are in, never
//! walking the whole module. The first report after files are loaded finds
//! everything.
//!
//! [`load`] reads modules from disk into changes; [`inputs`] reads the
//! variables of a module that is a run's root as its tool reads them
//! (Terraform's `TF_VAR_`, `*.tfvars` and command-line order), for every
//! front end that evaluates one; [`check`] checks many
//! files in parallel batches of hosts, [`cache`] keeps its results on
//! disk across runs, by the hash of what each unit's result depends on
//! (and what `stat` said of each file it hashed, so that an unchanged
//! file is not read again), [`fix`] applies their fixes pass after pass (writing nothing), and
//! [`shard`] splits a check's units across CI jobs; [`follow`] watches what
//! a run's modules read outside its root, for the front ends that follow
//! changes on disk. [`Limits`] bound what one file may
//! cost: the size read (through `vfs::read_file`) and the diagnostics
//! reported (the first hundred, then one that counts the rest).
//!
//! It must never depend on a front end: the command line and the library
//! depend on it, not the other way round.

mod blocks;
pub mod cache;
mod change;
pub mod check;
pub mod config;
pub mod fix;
pub mod follow;
mod host;
pub mod inputs;
pub mod load;
mod report;
pub mod shard;
pub mod trace;
pub mod watch;

pub use analysis::{Diagnostic, LineCol, RuleLevels, Severity, render};
pub use db::{File, RootDatabase, module::Address};
pub use dialects::format_style;

pub use crate::{
    change::{Change, Contents, DialectChange, FileChange, Membership},
    host::{
        AnalysisHost, DEEP_STACK, HostOptions, InputsOf, Limits, ReportDraft, ReportJob, Unfinished, Values,
        describe, formatted,
    },
    report::{DiagnosticChange, LocatedDiagnostic, Report, ReportStats, ValueChange, ValueState},
};

/// The value behind `mutex`, even if a thread panicked holding it: every
/// table the host locks is left whole between two writes (a panicking
/// worker's entries are complete or absent).
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
