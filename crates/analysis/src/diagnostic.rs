//! The one diagnostic type.

use db::File;
use syntax::{SyntaxError, TextRange};

/// How bad a diagnostic is. Only errors make `halite check` fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Warning,
    Error,
}

impl Severity {
    /// The lowercase name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A problem found in a file, with everything a front end needs to show it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A stable, kebab-case identifier of the kind of problem (such as
    /// `invalid-utf8`); users filter and look up diagnostics by it.
    pub code: &'static str,
    /// A one-line summary.
    pub message: String,
    pub file: File,
    /// The bytes the diagnostic is about; empty when it is about a position.
    pub range: TextRange,
    /// What to say at `range` itself, if a short label helps.
    pub label: Option<String>,
    /// Other places in the same file with something to say about the problem.
    pub labels: Vec<Label>,
    /// Sentences that explain why, or what to do, shown after the snippet.
    pub notes: Vec<String>,
    /// Fixes a tool may offer or apply.
    pub suggestions: Vec<Suggestion>,
}

/// A secondary place in a diagnostic's file and what to say there.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Label {
    pub range: TextRange,
    pub message: String,
}

/// A possible fix: a message and the edits that make it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Suggestion {
    pub message: String,
    pub edits: Vec<Edit>,
}

/// Replace the text in `range` of the diagnostic's file with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    pub range: TextRange,
    pub replacement: String,
}

impl Diagnostic {
    pub fn new(
        severity: Severity,
        code: &'static str,
        message: impl Into<String>,
        file: File,
        range: TextRange,
    ) -> Diagnostic {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            file,
            range,
            label: None,
            labels: Vec::new(),
            notes: Vec::new(),
            suggestions: Vec::new(),
        }
    }

    pub fn error(code: &'static str, message: impl Into<String>, file: File, range: TextRange) -> Diagnostic {
        Diagnostic::new(Severity::Error, code, message, file, range)
    }

    pub fn warning(
        code: &'static str,
        message: impl Into<String>,
        file: File,
        range: TextRange,
    ) -> Diagnostic {
        Diagnostic::new(Severity::Warning, code, message, file, range)
    }

    /// An error diagnostic for a syntax error (or an encoding error, which
    /// `syntax::decode_source` reports as one): the same code and message,
    /// and the detail, when there is one, as a note.
    pub fn from_syntax_error(file: File, error: &SyntaxError) -> Diagnostic {
        let mut diagnostic = Diagnostic::error(error.code, error.message.clone(), file, error.range);
        diagnostic.notes.extend(error.detail.clone());
        diagnostic
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = Some(label.into());
        self
    }

    pub fn with_secondary_label(mut self, range: TextRange, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label { range, message: message.into() });
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }

    pub fn with_suggestion(mut self, suggestion: Suggestion) -> Diagnostic {
        self.suggestions.push(suggestion);
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
