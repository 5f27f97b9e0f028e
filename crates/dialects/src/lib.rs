//! The configuration languages Halite ships, each a dialect plug-in
//! ([`db::module::DialectPlugin`]) registered through the same public path
//! an embedder uses for its own language ([`db::module::Dialects::register`]):
//!
//! - [`terraform`]: Terraform and OpenTofu (`*.tf`, `*.tofu` and their JSON
//!   twins): its roots and addressing, its function table with exact
//!   signatures, which of a directory's files make the module (no override
//!   files, no `.tf` file beside its `.tofu` twin), its checks of
//!   namespaced calls, and `terraform fmt`'s style for the files that tool
//!   formats;
//! - [`packer`], [`nomad`] and [`terragrunt`]: the file kinds they claim and
//!   what the model knows of their scopes; Terragrunt's units are each
//!   `terragrunt.hcl` alone, reading the files they include, calling the
//!   Terraform module they deploy with their `inputs` and reading the
//!   outputs of the modules their dependencies deploy;
//! - [`schema_file`]: an application's own language, declared in a schema
//!   file (its block types, attributes and their types) that `halite.toml`
//!   names, as a plug-in claiming the files the configuration says.
//!
//! [`standard`] is the registry of all four; [`database`] a database with it.
//!
//! This crate owns what each tool adds to HCL. It depends on `db` (for the
//! plug-in interface and the generic model it fills in), `eval` (functions),
//! `decode` (reading a schema file) and `vfs` (the one table of file kinds), and must never depend on the
//! host or a front end: they choose a module's dialect through the registry,
//! not by naming one. `db` must never depend on this crate.

pub mod nomad;
pub mod packer;
pub mod schema_file;
pub mod terraform;
pub mod terragrunt;

use db::{RootDatabase, module::Dialects};

/// The registry of the dialects Halite ships. Terraform is registered last,
/// so that a directory with Terraform's files and another tool's (a
/// `*.pkr.hcl` beside `main.tf`) is a Terraform module, as Terraform reads
/// it; a `terragrunt.hcl` is a unit of its own
/// ([`terragrunt::Terragrunt`]'s grouping), not one of the directory's
/// files. An embedder registers its own after these, and wins where it
/// claims a module's files.
///
/// Every call returns the same registry: each plug-in's rules and function
/// table are built the first time a module needs them, once per process.
/// A batch makes a database per chunk of files, and building Terraform's
/// table for each was a tenth of `check`'s time over a monorepo.
pub fn standard() -> Dialects {
    shared_standard().clone()
}

fn shared_standard() -> &'static Dialects {
    static STANDARD: std::sync::OnceLock<Dialects> = std::sync::OnceLock::new();
    STANDARD.get_or_init(|| {
        let mut dialects = Dialects::new();
        dialects
            .register(terragrunt::Terragrunt)
            .register(nomad::Nomad)
            .register(packer::Packer)
            .register_shared(terraform::plugin());
        dialects
    })
}

/// The style `path` is formatted in unless the user says otherwise, by the
/// [`standard`] dialects: `terraform fmt`'s for the files that tool
/// formats, `hclwrite.Format`'s for every other file, as Packer, Nomad and
/// Terragrunt's `hclfmt` write theirs.
pub fn format_style(path: &camino::Utf8Path) -> db::FormatStyle {
    shared_standard().format_style(path)
}

/// A database whose modules take their dialect from [`standard`].
pub fn database() -> RootDatabase {
    RootDatabase::with_dialects(standard())
}

/// Whether `path` is of `language` in the one table of file kinds.
fn is_language(path: &camino::Utf8Path, language: vfs::Language) -> bool {
    vfs::FileKind::of(path).is_some_and(|kind| kind.language == language)
}
