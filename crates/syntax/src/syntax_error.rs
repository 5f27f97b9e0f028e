//! The error value every phase of parsing produces.

use std::fmt;

use crate::{TextRange, TextSize};

/// A problem found while lexing, parsing or checking the structure of a
/// file. Errors are values: the tree is complete whatever they say.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    /// A stable, kebab-case identifier of the kind of error, such as
    /// `unclosed-block`; tools filter and document errors by it.
    pub code: &'static str,
    /// A one-line summary, in the reference implementation's words where it
    /// has words for the same problem.
    pub message: String,
    /// A sentence or two saying why and what to do, when there is more to say.
    pub detail: Option<String>,
    /// The bytes the error is about; empty when it is about a position.
    pub range: TextRange,
}

impl SyntaxError {
    pub fn new(code: &'static str, message: impl Into<String>, range: TextRange) -> SyntaxError {
        SyntaxError { code, message: message.into(), detail: None, range }
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> SyntaxError {
        self.detail = Some(detail.into());
        self
    }

    pub fn at_offset(code: &'static str, message: impl Into<String>, offset: TextSize) -> SyntaxError {
        SyntaxError::new(code, message, TextRange::empty(offset))
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)?;
        if let Some(detail) = &self.detail {
            write!(f, ": {detail}")?;
        }
        Ok(())
    }
}
