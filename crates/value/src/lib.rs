//! Types and values of HCL expressions, as go-cty defines them.
//!
//! This crate owns the value model that evaluation computes with:
//!
//! - [`Type`]: bool, number, string, list, set, map, tuple, object (with
//!   optional attributes) and the dynamic pseudo-type, with cty's JSON
//!   encoding of types ([`Type::to_json_string`], [`Type::from_json_str`]).
//! - [`Value`]: known values of each type, and null and unknown values of any
//!   type; cty's equality ([`Value::equals`]), set element order (`set.rs`
//!   says exactly what is reproduced and what approximated), and cty's JSON
//!   encoding of values ([`Value::to_json_string`], [`Value::from_json_str`]).
//! - [`Number`]: exact decimals (bigdecimal) with `+Inf` and `-Inf`, the
//!   project's one deliberate difference from go-cty's binary floats.
//! - [`convert`]: safe and unsafe conversion and type unification.
//!
//! It must never depend on syntax or know about source positions: values
//! are position-free, so that evaluation results compare equal whatever
//! file or range they came from. Marks (go-cty's value annotations) and
//! capsule types are not modelled.
//!
//! No function here panics on any input: constructors that can be given
//! inconsistent parts return errors.

pub mod convert;
pub mod json;
pub mod number;
pub mod set;
pub mod ty;
pub mod value;

mod codec;

pub use convert::{Conversion, ConvertError, convert, get_conversion, unify, unify_unsafe};
pub use json::JsonError;
pub use number::{Number, NumberError};
pub use ty::{ObjectType, Type};
pub use value::{Value, ValueError};
