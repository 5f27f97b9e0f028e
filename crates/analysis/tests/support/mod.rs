//! What the rule tests share: where the cases are, and how a diagnostic is
//! written in the expected files.

use std::path::{Path, PathBuf};

use analysis::{Diagnostic, LineIndex};

pub fn check_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/check")
}

/// Appends `diagnostic` of the file `text` to `out`: a line
/// `{prefix}line:column-line:column severity[code] message`, its notes when
/// `with_notes`, and each suggestion with its edits (the text replaced and
/// the replacement).
pub fn write_diagnostic(
    out: &mut String,
    prefix: &str,
    text: &str,
    index: &LineIndex,
    diagnostic: &Diagnostic,
    with_notes: bool,
) {
    let position = |offset| {
        let line_col = index.line_col(offset);
        format!("{}:{}", line_col.line, line_col.column)
    };
    out.push_str(&format!(
        "{prefix}{}-{} {}[{}] {}\n",
        position(diagnostic.range.start()),
        position(diagnostic.range.end()),
        diagnostic.severity.as_str(),
        diagnostic.code,
        diagnostic.message
    ));
    if with_notes {
        for note in &diagnostic.notes {
            out.push_str(&format!("  note: {note}\n"));
        }
    }
    for suggestion in &diagnostic.suggestions {
        out.push_str(&format!("  help: {}\n", suggestion.message));
        for edit in &suggestion.edits {
            out.push_str(&format!(
                "    {}-{} {:?} -> {:?}\n",
                position(edit.range.start()),
                position(edit.range.end()),
                &text[usize::from(edit.range.start())..usize::from(edit.range.end())],
                edit.replacement
            ));
        }
    }
}
