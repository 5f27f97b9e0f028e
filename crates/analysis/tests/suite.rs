//! The analysis crate's tests, linked into one test binary: one link for
//! the crate's integration tests rather than one per file.

mod support;

mod diagnostics;
mod module_rules;
mod rules;
