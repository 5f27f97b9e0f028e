//! HCL's syntax-agnostic information model (`spec/information-model.md`)
//! over both syntaxes.
//!
//! This crate owns what a configuration *means* once a schema is applied:
//! a [`Body`] whose content is asked for with a [`BodySchema`] (attributes
//! and blocks, required items, label names, "just attributes" mode, partial
//! content and merged bodies), the [`Expression`]s of either syntax with their
//! evaluation and the static analyses the spec defines (static list, map,
//! call, traversal, keyword), the analysis of what an expression references
//! ([`Traversal`]s, see [`traversal`]), type constraint expressions with
//! `optional()` and defaults ([`typeexpr`]) and dynamic blocks ([`dynblock`]).
//! Its diagnostics ([`Diagnostic`]) carry [`Range`]s with a file name, line,
//! column and byte offset, as the reference's do.
//!
//! Native files come in as their HIR with its source map; JSON files as their
//! JSON syntax tree, because in the JSON syntax whether a property is an
//! attribute or a block is only known once a schema asks (see
//! `docs/architecture.md`).
//!
//! It must never depend on salsa (`db`), on the command line, or on how
//! diagnostics are rendered: the database and the front ends build on it.

pub mod body;
pub mod diagnostic;
pub mod dynblock;
pub mod expression;
mod failure;
mod json;
mod native;
pub mod source;
pub mod traversal;
pub mod typeexpr;

pub use crate::{
    body::{Attribute, AttributeSchema, Block, BlockHeaderSchema, Body, BodyContent, BodySchema},
    diagnostic::{Diagnostic, Diagnostics, Severity},
    expression::{Expression, StaticCall},
    source::{FileId, Pos, Range, SourceFile, Sources},
    traversal::{Traversal, TraversalStep},
};
