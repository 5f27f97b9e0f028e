//! Halite as a library: see [`de`].

pub mod de;

pub use value::{Number, Type, Value};
