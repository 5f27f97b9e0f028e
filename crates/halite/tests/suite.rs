//! The embedding library's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod build_tool;
mod module_incremental;
mod workspace;
