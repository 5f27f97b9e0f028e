//! The error value every phase of parsing produces.

use std::fmt;

use crate::{TextRange, TextSize};

/// Every [`SyntaxError::code`] the lexers and parsers give, in name order:
/// what a front end looks a code up in (`halite rule CODE`). The test
/// below fails when a code used in this crate is missing.
pub const CODES: &[&str] = &[
    "duplicate-attribute",
    "expected-definition",
    "expression-too-long",
    "extra-characters",
    "invalid-block-header",
    "invalid-character",
    "invalid-directive",
    "invalid-escape",
    "invalid-expression",
    "invalid-for",
    "invalid-legacy-index",
    "invalid-number",
    "invalid-utf8",
    "json-extraneous-data",
    "json-invalid-array-value",
    "json-invalid-keyword",
    "json-invalid-number",
    "json-invalid-property-name",
    "json-invalid-string",
    "json-invalid-value-start",
    "json-mismatched-brackets",
    "json-missing-colon",
    "json-missing-comma",
    "json-missing-object-value",
    "json-missing-value",
    "json-trailing-comma",
    "json-unclosed-array",
    "json-unclosed-object",
    "missing-attribute-name",
    "missing-bracket",
    "missing-conditional-false",
    "missing-expression",
    "missing-function-name",
    "missing-newline",
    "missing-parenthesis",
    "missing-separator",
    "missing-value",
    "multi-line-string",
    "nested-splat",
    "nesting-too-deep",
    "one-line-block",
    "quoted-argument-name",
    "template-in-label",
    "unbalanced-directive",
    "unbalanced-parentheses",
    "unclosed-block",
    "unclosed-interpolation",
    "unexpected-token",
    "unsupported-operator",
    "unterminated-call",
    "unterminated-comment",
    "unterminated-object",
    "unterminated-template",
    "unterminated-tuple",
];

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

#[cfg(test)]
mod tests {
    /// Every kebab-case string this crate's sources (but its tests) write
    /// is a code, and in [`super::CODES`]: a code added without it would
    /// be one `halite rule` does not know.
    #[test]
    fn every_code_used_is_listed() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut pending = vec![src];
        let mut used = std::collections::BTreeSet::new();
        while let Some(path) = pending.pop() {
            if path.is_dir() {
                pending.extend(
                    std::fs::read_dir(&path).expect("a directory").map(|it| it.expect("an entry").path()),
                );
                continue;
            }
            let name = path.file_name().and_then(|it| it.to_str()).unwrap_or_default();
            if !name.ends_with(".rs") || name == "tests.rs" || name == "syntax_error.rs" {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            for literal in text.split('"').skip(1).step_by(2) {
                let kebab = literal.contains('-')
                    && literal.starts_with(|it: char| it.is_ascii_lowercase())
                    && !literal.ends_with('-')
                    && literal.chars().all(|it| it.is_ascii_lowercase() || it.is_ascii_digit() || it == '-');
                if kebab {
                    used.insert(literal.to_owned());
                }
            }
        }
        let listed: std::collections::BTreeSet<String> =
            super::CODES.iter().map(|it| it.to_string()).collect();
        assert!(super::CODES.windows(2).all(|pair| pair[0] < pair[1]), "in name order");
        let missing: Vec<&String> = used.difference(&listed).collect();
        assert!(missing.is_empty(), "codes used but not in CODES: {missing:?}");
    }
}
