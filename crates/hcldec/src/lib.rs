//! The `hcldec` spec format (`spec/hcldec-spec-format.md`,
//! `spec/hcldec-readme.md`): a [`Spec`] describes how to map an HCL body of
//! either syntax to one value, and [`decode()`](fn@decode) applies it.
//!
//! The reference's `hcldec` package and its command's spec file language
//! (`cmd/hcldec`) in one crate: the spec kinds and what they imply (the
//! value's type, the schema asked of a body: [`spec`]), decoding a body
//! with its block-count and type checks ([`decode`](mod@decode)), what a
//! decode would read from its context ([`variables()`](fn@variables)), and spec files with
//! their `variables` and `function` blocks, type expressions and spec
//! definition functions ([`load`]).
//!
//! It builds on the `decode` crate's bodies and expressions and never
//! renders diagnostics: `halite dec` (the CLI) does.

pub mod decode;
pub mod functions;
pub mod load;
pub mod spec;
pub mod type_expr;
pub mod variables;

pub use crate::{
    decode::{decode, partial_decode, source_range},
    functions::spec_functions,
    load::{SpecFile, load_spec_file},
    spec::{Spec, child_block_types, implied_schema},
    type_expr::type_expr,
    variables::variables,
};
