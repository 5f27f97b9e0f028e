//! What the host reports: the values and diagnostics that changed since its
//! last report.

use std::sync::Arc;

use analysis::{Diagnostic, LineCol};
use camino::Utf8PathBuf;
use db::module::Address;
use value::Value;

/// What changed since the last report: values added, changed or removed,
/// and diagnostics added or resolved. The first report after files are
/// loaded has every value and every diagnostic, as added.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// In each module's declaration order, modules by directory.
    pub values: Vec<ValueChange>,
    /// Resolved ones first, then added ones, each by file and position.
    pub diagnostics: Vec<DiagnosticChange>,
    /// How much work the report took, for `--stats` and the tests.
    pub stats: ReportStats,
}

impl Report {
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.diagnostics.is_empty()
    }
}

/// One address's value, as it is now.
///
/// A first report has one for every attribute of every module: 56 bytes,
/// with the directory a thin pointer shared by the module's values.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueChange {
    /// The module's directory, shared by the module's values.
    pub module: Arc<Utf8PathBuf>,
    pub address: Address,
    pub state: ValueState,
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<ValueChange>() == 56);

impl ValueChange {
    /// Whether the address is a variable's (`var.NAME`) rather than an
    /// attribute's.
    pub fn is_variable(&self) -> bool {
        self.address.first() == Some("var")
    }
}

/// An address's value, its error, or its absence.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueState {
    Value(Value),
    /// The attribute has no value: why, in a line (its diagnostic, if it
    /// has one of its own, says where).
    Error(String),
    /// The address is no longer declared.
    Removed,
}

/// A diagnostic that appeared or went away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagnosticChange {
    pub diagnostic: LocatedDiagnostic,
    /// The diagnostic was reported before and is no longer.
    pub resolved: bool,
}

/// A diagnostic with the lines and columns of its ranges as they were when
/// it was found: a diagnostic resolved by an edit is shown where it was,
/// though the text has moved since.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedDiagnostic {
    pub diagnostic: Diagnostic,
    pub path: Utf8PathBuf,
    pub start: LineCol,
    pub end: LineCol,
    /// The start and end of each edit of each suggestion, in order.
    pub edits: Vec<(LineCol, LineCol)>,
}

/// The queries a report ran (rather than reused), counted from salsa's
/// events when the host records them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReportStats {
    /// Files parsed (native or JSON).
    pub parsed: usize,
    /// Attribute values evaluated.
    pub evaluated: usize,
}
