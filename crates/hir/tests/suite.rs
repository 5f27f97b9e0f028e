//! The HIR's tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod corpus;
mod data;
mod references;
mod standalone;
mod total;
