//! Halite as a library: the one public face for programs that define their
//! configuration language on HCL.
//!
//! A [`Workspace`] holds one module: a directory's HCL files (read from
//! disk with [`Workspace::open`], or given in memory with
//! [`Workspace::add_file`]) evaluated together, with the values of its
//! variables ([`Workspace::set_variable`]). An application asks for values
//! by address ([`Workspace::value`], or [`Workspace::value_as`] to decode
//! into a Rust type with serde, see [`de`]), lists what there is
//! ([`Workspace::addresses`]), collects [`Diagnostic`]s, and applies
//! changes ([`Workspace::apply`]), learning which addresses' values
//! changed. [`Workspace::watch`] does the last from the filesystem.
//!
//! Addresses ([`Address`]) are the names the configuration itself uses:
//! `var.NAME`, `local.NAME`, a block by its type and labels, the blocks
//! nested in it, and an attribute of any of them, printed as a traversal
//! with labels that are not identifiers quoted: `service["api.v2"].image`,
//! `target.app.step[1].run`. A block's value is an object of its
//! attributes and nested blocks. [`Workspace::decode`] decodes the whole
//! configuration into the program's own types with serde, blocks and
//! labels included (see [`de`]), and [`to_value`] turns a Rust value into a
//! variable's.
//!
//! ```
//! use halite::{Value, Workspace};
//!
//! let mut workspace = Workspace::new("config");
//! workspace.add_file("config/main.hcl", r#"
//!     variable "name" { default = "world" }
//!     locals { greeting = "hello, ${var.name}" }
//!     job "greet" { command = "echo ${local.greeting}" }
//! "#);
//! assert_eq!(workspace.value("job.greet.command")?, Value::string("echo hello, world"));
//!
//! workspace.set_variable("name", Value::string("halite"));
//! assert_eq!(workspace.value("local.greeting")?, Value::string("hello, halite"));
//! # Ok::<(), halite::Error>(())
//! ```
//!
//! Underneath is the salsa database of the `db` crate: every value is a
//! query that reads exactly the attributes its expression references, so
//! after an edit only the edited attribute and what depends on it are
//! evaluated again, and an edit to whitespace or comments evaluates
//! nothing.
//!
//! It must never depend on the command line (the `cli` package): embedders
//! get everything through this crate, and the binary is one more front end.

mod address;
pub mod de;
mod ser;
mod workspace;

/// The analysis host every front end stands on, the command line's
/// included: its inputs, one `Change` type, and reports of what changed.
pub use host;

pub use camino::{Utf8Path, Utf8PathBuf};
pub use eval::{Function, FunctionError, Param};
pub use value::{Number, Type, Value};

pub use crate::address::{Address, BlockStep};
pub use crate::de::{DecodeError, SourceLocation, from_value};
pub use crate::ser::{EncodeError, to_value};
pub use host::Change;

pub use crate::workspace::{
    Changes, Diagnostic, DiagnosticChange, Dialect, Error, Severity, ToAddress, Workspace,
};

/// Dialects: the languages a module may be written in, as plug-ins of one
/// registry. Halite's own (Terraform/OpenTofu, Terragrunt, Packer, Nomad)
/// are registered in [`dialects::standard`] through the same
/// [`Dialects::register`](dialects::Dialects::register) an embedder calls
/// for its own language; see [`Workspace::with_dialects`]. A language may
/// also be declared in a schema file ([`SchemaFile`](dialects::SchemaFile),
/// the file a `[[dialect]]` table of `halite.toml` names for `halite
/// check`) and registered as a [`SchemaDialect`](dialects::SchemaDialect).
pub mod dialects {
    pub use ::dialects::schema_file::{SchemaDialect, SchemaFile};
    pub use ::dialects::{format_style, standard};
    pub use db::module::{
        AddressedRoot, BlockSchema, DialectPlugin, DialectRules, Dialects, ModuleDiagnostic, SchemaViolation,
    };
}

/// The analysis database under a workspace ([`Workspace::database`]),
/// for what the library does not cover yet.
pub use db::RootDatabase;
/// A watch of a module's directory and the batches of changes it hands
/// over ([`Workspace::watch_channel`], [`Workspace::apply_batch`]).
pub use vfs::{ChangeBatch, Watcher};
