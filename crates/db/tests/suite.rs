//! The database's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod evaluate;
mod format;
mod incremental;
mod incremental_module;
mod index_parts;
mod json;
mod lower;
mod module;
