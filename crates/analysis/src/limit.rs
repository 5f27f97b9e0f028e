//! A cap on how many diagnostics one file reports.

use db::{Db, File};
use syntax::{TextRange, TextSize};

use crate::{Diagnostic, Severity};

/// How many diagnostics of one file are reported by default. Enough to fix
/// a file by (the first is the one that matters most, and the reference
/// reports only it), few enough that a file of garbage (a megabyte of NUL
/// bytes is a million invalid characters) costs no more to show than a
/// file with a hundred mistakes, in every format.
pub const DEFAULT_MAX_DIAGNOSTICS_PER_FILE: usize = 100;

/// The code of the one diagnostic that stands for those a file's cap left
/// out. It is not a rule: it cannot be switched off or ignored.
pub const TOO_MANY_DIAGNOSTICS: &str = "too-many-diagnostics";

/// The first `limit` of `diagnostics` (one file's), in their order, and,
/// when more are left out, one [`TOO_MANY_DIAGNOSTICS`] diagnostic saying
/// how many: an error if any of them is an error, so that whatever a
/// command's exit status says of errors still holds; a warning otherwise.
/// It is placed at the end of the file, so that it comes after the others
/// however a front end orders them by position.
///
/// Only what is kept is cloned: capping a million diagnostics costs a pass
/// over them to count the severities, nothing more, and they may come from
/// wherever the caller holds them (a slice, or the failures among a file's
/// results).
pub fn cap_diagnostics<'a>(
    db: &dyn Db,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
    limit: usize,
) -> Vec<Diagnostic> {
    let mut kept = Vec::new();
    let mut left_out: Option<LeftOut> = None;
    for diagnostic in diagnostics {
        if kept.len() < limit {
            kept.push(diagnostic.clone());
            continue;
        }
        let counts = left_out.get_or_insert(LeftOut { file: diagnostic.file, errors: 0, warnings: 0 });
        match diagnostic.severity {
            Severity::Error => counts.errors += 1,
            _ => counts.warnings += 1,
        }
    }
    if let Some(left_out) = left_out {
        kept.push(too_many(db, left_out, limit));
    }
    kept
}

/// What a cap left out of one file.
struct LeftOut {
    file: File,
    errors: usize,
    warnings: usize,
}

fn too_many(db: &dyn Db, LeftOut { file, errors, warnings }: LeftOut, limit: usize) -> Diagnostic {
    let severity = if errors > 0 { Severity::Error } else { Severity::Warning };
    let end = TextSize::try_from(file.text(db).len()).unwrap_or(TextSize::from(u32::MAX));
    let message = format!("{} in this file not shown", count(errors + warnings, "more diagnostic"));
    let what = match (errors, warnings) {
        (_, 0) => count(errors, "error"),
        (0, _) => count(warnings, "warning"),
        _ => format!("{} and {}", count(errors, "error"), count(warnings, "warning")),
    };
    Diagnostic::new(severity, TOO_MANY_DIAGNOSTICS, message, file, TextRange::empty(end)).with_note(format!(
        "Only the first {} of a file are reported; {what} were left out. Fix these and run again.",
        count(limit, "diagnostic")
    ))
}

/// `1 error`, `999,901 errors`: a count with its noun, digits grouped by
/// thousands.
fn count(n: usize, noun: &str) -> String {
    let digits = n.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if n == 1 { format!("{grouped} {noun}") } else { format!("{grouped} {noun}s") }
}

#[cfg(test)]
mod tests {
    use db::RootDatabase;

    use super::*;

    fn diagnostics(db: &mut RootDatabase, text: &str, severities: &[Severity]) -> Vec<Diagnostic> {
        let file = db.set_file_text("main.tf", text);
        severities
            .iter()
            .enumerate()
            .map(|(at, &severity)| {
                let at = TextSize::from(at as u32);
                Diagnostic::new(
                    severity,
                    "extra-token",
                    "Extra",
                    file,
                    TextRange::new(at, at + TextSize::from(1)),
                )
            })
            .collect()
    }

    #[test]
    fn the_first_are_kept_and_the_rest_counted_at_the_end_of_the_file() {
        let mut db = RootDatabase::new();
        let all = diagnostics(
            &mut db,
            "abcdef\n",
            &[Severity::Error, Severity::Warning, Severity::Warning, Severity::Error, Severity::Warning],
        );
        let capped = cap_diagnostics(&db, &all, 2);
        assert_eq!(capped[..2], all[..2]);
        let summary = &capped[2];
        assert_eq!(capped.len(), 3);
        assert_eq!(summary.code, TOO_MANY_DIAGNOSTICS);
        assert_eq!(summary.severity, Severity::Error, "an error was left out");
        assert_eq!(summary.range, TextRange::empty(TextSize::from(7)));
        assert_eq!(summary.message, "3 more diagnostics in this file not shown");
        assert_eq!(
            summary.notes,
            ["Only the first 2 diagnostics of a file are reported; 1 error and 2 warnings were left out. \
              Fix these and run again."]
        );
    }

    #[test]
    fn warnings_alone_left_out_are_a_warning_and_a_file_under_the_cap_is_unchanged() {
        let mut db = RootDatabase::new();
        let all = diagnostics(&mut db, "abc", &[Severity::Error, Severity::Warning]);
        let capped = cap_diagnostics(&db, &all, 1);
        assert_eq!(capped[1].severity, Severity::Warning);
        assert_eq!(capped[1].message, "1 more diagnostic in this file not shown");
        assert_eq!(cap_diagnostics(&db, &all, 2), all);
        assert_eq!(cap_diagnostics(&db, &all, 3), all);
        let none = cap_diagnostics(&db, &all, 0);
        assert_eq!(none.len(), 1);
        assert_eq!(none[0].severity, Severity::Error);
    }

    #[test]
    fn counts_group_digits_by_thousands() {
        assert_eq!(count(999_901, "error"), "999,901 errors");
        assert_eq!(count(1_000_000, "error"), "1,000,000 errors");
        assert_eq!(count(100, "error"), "100 errors");
        assert_eq!(count(1, "error"), "1 error");
        assert_eq!(count(0, "error"), "0 errors");
    }
}
