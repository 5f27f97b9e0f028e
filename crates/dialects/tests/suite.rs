//! The dialects' tests, linked into one test binary: one link for the
//! crate's integration tests rather than one per file.

mod support;

mod format;
mod nomad;
mod opentofu;
mod packer;
mod schema_file;
mod terraform;
mod terraform_functions;
mod terragrunt;
