//! GitLab's Code Quality report (a subset of Code Climate's issue format):
//! one JSON array of every diagnostic, each with its `description`,
//! `check_name` (the code), a `fingerprint` that is the same from run to
//! run for the same problem ([`render::fingerprints`]), a `severity` of
//! GitLab's scale and its `location` (the path, `lines.begin` and
//! `lines.end`). GitLab compares a merge request's report with its target
//! branch's by fingerprint.

use halite::host::{LocatedDiagnostic, Severity};
use serde::Serialize;

use crate::{render, repository::SourceRoot};

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

/// The report of every file's diagnostics, files in the order given.
pub(crate) fn report(files: &[(camino::Utf8PathBuf, Vec<LocatedDiagnostic>)], root: &SourceRoot) -> String {
    let mut issues = Vec::new();
    for (path, diagnostics) in files {
        let path = root.relative(path);
        for (located, fingerprint) in diagnostics.iter().zip(render::fingerprints(diagnostics, root)) {
            let diagnostic = &located.diagnostic;
            issues.push(Issue {
                description: render::headline(diagnostic),
                check_name: diagnostic.code,
                fingerprint,
                severity: severity(diagnostic.severity),
                location: Location {
                    path: path.as_str().to_owned(),
                    lines: Lines { begin: located.start.line, end: located.end.line },
                },
            });
        }
    }
    // Serializing strings and numbers cannot fail.
    serde_json::to_string_pretty(&issues).unwrap_or_default()
}

/// GitLab's scale is `info`, `minor`, `major`, `critical`, `blocker`: an
/// error, which fails the check, is `major`; a warning `minor`.
fn severity(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "major",
        Severity::Warning => "minor",
    }
}
