//! The evaluator's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod api;
mod conformance;
mod unknowns;
