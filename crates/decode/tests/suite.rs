//! The decoder's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod support;

mod dynblock;
mod json;
mod native_body;
mod native_corpus;
mod native_merged;
mod native_static;
mod native_values;
mod native_variables;
mod typeexpr;
