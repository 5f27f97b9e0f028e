//! Diagnostics in the reference's shape: a severity, a summary, a detail, a
//! subject range and an optional wider context range.

use crate::Range;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The reference's summary, like "Unsupported argument".
    pub summary: String,
    pub detail: String,
    /// What the diagnostic is about.
    pub subject: Option<Range>,
    /// The enclosing construct, when it helps to show it.
    pub context: Option<Range>,
}

pub type Diagnostics = Vec<Diagnostic>;

impl Diagnostic {
    pub fn error(
        summary: impl Into<String>,
        detail: impl Into<String>,
        subject: Option<Range>,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            subject,
            context: None,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Whether any of `diagnostics` is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// A string quoted as Go's `%q` quotes it, for messages in the reference's
/// words.
pub(crate) use value::set::go_quoted as go_quote;
