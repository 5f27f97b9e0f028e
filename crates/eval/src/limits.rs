//! Resource limits of one evaluation: how large the values it builds may
//! be, how many digits a number may have, and how much work one call of
//! [`crate::eval_expr`] may do.
//!
//! The evaluator counts its own work and checks every value it builds (a
//! value's [`Size`] costs nothing to ask). A function of the standard
//! library that could build far more than it is given (`join`, `split`,
//! `format`, `replace`, `concat`...) checks what it is about to build
//! against the limits of the evaluation that called it, which
//! [`crate::eval_expr`] installs for the thread it runs on
//! ([`current`]): a function's signature has no context to carry them.

use std::cell::Cell;
use std::fmt;

use value::Size;

/// What one evaluation may spend. [`Limits::default`] is what every
/// front end uses; an application sets its own in
/// [`crate::Context::limits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most values one value built by evaluation may hold, nested ones
    /// included ([`Size::elements`]).
    pub max_elements: u64,
    /// The most bytes of text one value built by evaluation may hold
    /// ([`Size::bytes`]: strings, keys, numbers written out).
    pub max_bytes: u64,
    /// The most digits a number may have written out in full: a literal,
    /// a result of arithmetic or of a function. `1e500000000` is 15 bytes
    /// of source and 500,000,001 digits.
    pub max_number_digits: u64,
    /// The most steps one call of [`crate::eval_expr`] (one attribute) may
    /// take: one per expression evaluated and per element a `for`
    /// iterates, and for a value built or passed to a function, one per 4
    /// of its elements and per 64 of its bytes.
    pub max_steps: u64,
}

impl Limits {
    /// Limits no real configuration reaches: a value of two million
    /// elements takes about 200 MB, ten million steps a few seconds.
    pub const DEFAULT: Limits = Limits {
        max_elements: 2_000_000,
        max_bytes: 16 * 1024 * 1024,
        max_number_digits: value::number::MAX_DIGITS,
        max_steps: 10_000_000,
    };

    /// No limits at all, as the reference has none.
    pub const UNLIMITED: Limits = Limits {
        max_elements: u64::MAX,
        max_bytes: u64::MAX,
        max_number_digits: u64::MAX,
        max_steps: u64::MAX,
    };

    /// The limit `size` goes past, with its amount and bound, if any.
    pub fn check_size(&self, size: Size) -> Result<(), Exceeded> {
        if size.elements > self.max_elements {
            return Err(Exceeded { limit: Limit::Elements, amount: size.elements, max: self.max_elements });
        }
        if size.bytes > self.max_bytes {
            return Err(Exceeded { limit: Limit::Bytes, amount: size.bytes, max: self.max_bytes });
        }
        Ok(())
    }

    /// The work of building or handing over a value of `size`, in steps.
    pub(crate) fn work(size: Size) -> u64 {
        size.elements / 4 + size.bytes / 64
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// Which limit of [`Limits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    Elements,
    Bytes,
    NumberDigits,
    Steps,
}

/// A limit reached: how much was asked for (at least) and the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Exceeded {
    pub limit: Limit,
    pub amount: u64,
    pub max: u64,
}

impl Exceeded {
    /// The summary of the error it makes.
    pub fn summary(&self) -> &'static str {
        match self.limit {
            Limit::Elements | Limit::Bytes => "Value too large",
            Limit::NumberDigits => "Number too large",
            Limit::Steps => "Evaluation too long",
        }
    }
}

/// The detail sentence: "2000001 elements (the limit is 2000000)."
impl fmt::Display for Exceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Exceeded { amount, max, .. } = self;
        match self.limit {
            Limit::Elements => write!(f, "{amount} elements (the limit is {max})."),
            Limit::Bytes => write!(f, "{amount} bytes of text (the limit is {max})."),
            Limit::NumberDigits => write!(f, "{amount} digits written out (the limit is {max})."),
            Limit::Steps => write!(f, "more than {max} evaluation steps (the limit)."),
        }
    }
}

thread_local! {
    static CURRENT: Cell<Limits> = const { Cell::new(Limits::DEFAULT) };
}

/// The limits of the evaluation running on this thread (the defaults
/// outside one), for functions to check what they build against.
pub fn current() -> Limits {
    CURRENT.with(Cell::get)
}

/// Installs `limits` for this thread until the guard is dropped.
pub(crate) fn install(limits: Limits) -> Installed {
    Installed { previous: CURRENT.with(|c| c.replace(limits)) }
}

pub(crate) struct Installed {
    previous: Limits,
}

impl Drop for Installed {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.previous));
    }
}
