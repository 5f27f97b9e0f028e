//! The command line's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod support;

mod check;
mod cli;
mod dec;
mod eval;
mod eval_module;
mod format;
mod front_ends;
mod suite_files;
mod watch;
