//! The formatter's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod data;
mod properties;
