//! `halite check`: every diagnostic of every file, then a summary.

use std::io::{self, IsTerminal, Write};

use analysis::{Diagnostic, Severity};
use anyhow::{Context, Result};
use camino::Utf8PathBuf;
use db::RootDatabase;

use crate::{Format, Outcome, discover, render};

pub(crate) fn run(paths: &[Utf8PathBuf], format: Format) -> Result<Outcome> {
    let paths = discover::hcl_files(paths)?;
    let mut db = RootDatabase::new();
    // Every file is read before any is checked: a path that cannot be read
    // stops the run (exit 2) before it prints half a report.
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read `{path}`"))?;
        files.push(db.set_file_bytes(path, &bytes));
    }

    let renderer = render::Human::new(io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let mut stdout = io::stdout().lock();
    let (mut errors, mut warnings) = (0usize, 0usize);
    for &file in &files {
        for diagnostic in analysis::diagnostics(&db, file) {
            match diagnostic.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            print(&mut stdout, &db, &renderer, format, diagnostic)
                .context("cannot write to standard output")?;
        }
    }
    stdout.flush().context("cannot write to standard output")?;
    eprintln!(
        "checked {}: {}, {}",
        plural(files.len(), "file"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    Ok(if errors > 0 { Outcome::FoundErrors } else { Outcome::Clean })
}

fn print(
    out: &mut impl Write,
    db: &RootDatabase,
    renderer: &render::Human,
    format: Format,
    diagnostic: &Diagnostic,
) -> io::Result<()> {
    match format {
        Format::Human => writeln!(out, "{}\n", renderer.render(db, diagnostic)),
        Format::Json => writeln!(out, "{}", render::json(db, diagnostic)),
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}
