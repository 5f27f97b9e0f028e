//! Types and values of HCL expressions, as go-cty defines them.
//!
//! This crate owns the value model that evaluation computes with:
//!
//! - [`Type`]: bool, number, string, list, set, map, tuple, object (with
//!   optional attributes) and the dynamic pseudo-type, with cty's JSON
//!   encoding of types ([`Type::to_json_string`], [`Type::from_json_str`]).
//! - [`Value`]: known values of each type, and null and unknown values of any
//!   type, unknowns with go-cty's refinements ([`mod@refine`]: not null, a
//!   string prefix, number bounds, length bounds); cty's equality ([`Value::equals`]), set element order (`set.rs`
//!   says exactly what is reproduced and what approximated), and cty's JSON
//!   encoding of values ([`Value::to_json_string`], [`Value::from_json_str`]).
//! - [`Number`]: exact decimals (bigdecimal) with `+Inf` and `-Inf`, the
//!   project's one deliberate difference from go-cty's binary floats.
//! - [`Size`]: how large a value is written out (elements, bytes of
//!   text), which every collection carries so that asking costs nothing:
//!   what the evaluator's resource limits measure.
//! - [`mod@convert`]: safe and unsafe conversion and type unification.
//!
//! It must never depend on syntax or know about source positions: values
//! are position-free, so that evaluation results compare equal whatever
//! file or range they came from. Marks (go-cty's value annotations) and
//! capsule types are not modelled.
//!
//! No function here panics on any input: constructors that can be given
//! inconsistent parts return errors.
//!
//! # Where this differs from go-cty, on purpose or by approximation
//!
//! - Numbers are exact decimals, not 512-bit binary floats: `1 - 0.9` is
//!   `0.1`. A quotient that does not terminate is rounded to 160 significant
//!   digits; a sum whose exact result would need more than about 100,000
//!   digits is rounded 400 digits below its leading digit, and a remainder
//!   whose quotient has more than 100,000 integer digits is `0` (go-cty's
//!   answers there are rounding noise). Exponents beyond go-cty's range
//!   (about 10^±646456993) overflow to ±Inf or underflow to ±0. Parsing
//!   reads at most [`number::MAX_DIGITS`] significant digits (go-cty reads
//!   any number, rounding it to 512 bits).
//! - Infinities are written to JSON as the strings `"+Inf"` / `"-Inf"` (the
//!   eval conformance format); go-cty refuses to serialise them.
//! - Set order is go-cty's, computed from its rules (`set.rs`); the one
//!   approximation is the ten-digit `%g` text of numbers nested inside
//!   composite set elements, rounded from the exact decimal rather than from
//!   a binary float, and Go's notion of a printable character in `%q`.
//! - Where a conversion's error message walks an object's attributes, it
//!   takes them in name order; go-cty's order is a Go map's, at random.

pub mod convert;
pub mod json;
pub mod number;
pub mod refine;
pub mod set;
pub mod ty;
pub mod value;

mod codec;

pub use convert::{Conversion, ConvertError, convert, get_conversion, unify, unify_unsafe};
pub use json::JsonError;
pub use number::{Number, NumberError, ParseNumberError};
pub use refine::{Bound, Refine, ValueRange};
pub use ty::{ObjectType, Type};
pub use value::{Entries, Size, Value, ValueError};
