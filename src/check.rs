//! `halite check`: every diagnostic of every file, then a summary.

use std::io::{self, IsTerminal, Write};

use rayon::prelude::*;

use analysis::{Diagnostic, Severity};
use anyhow::{Context, Result};
use camino::Utf8PathBuf;
use db::{File, RootDatabase};

use crate::{Format, Outcome, discover, render};

pub(crate) fn run(paths: &[Utf8PathBuf], format: Format) -> Result<Outcome> {
    let paths = discover::hcl_files(paths, discover::Syntaxes::All)?;
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
    // Files are checked and their reports rendered in parallel, a chunk at a
    // time, then printed in path order; parse trees are evicted between
    // chunks, so a run over a whole monorepo holds a bounded number of them.
    for chunk in files.chunks(FILES_PER_CHUNK) {
        let reports: Vec<FileReport> = chunk
            .par_iter()
            .map_with(db.clone(), |db, &file| FileReport::new(db, &renderer, format, file))
            .collect();
        for report in reports {
            errors += report.errors;
            warnings += report.warnings;
            stdout.write_all(report.text.as_bytes()).context("cannot write to standard output")?;
        }
        db.evict_parse_trees();
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

/// Files checked between two evictions of parse trees.
const FILES_PER_CHUNK: usize = 256;

/// One file's diagnostics, rendered, and how many of each severity.
struct FileReport {
    text: String,
    errors: usize,
    warnings: usize,
}

impl FileReport {
    fn new(db: &RootDatabase, renderer: &render::Human, format: Format, file: File) -> FileReport {
        let mut report = FileReport { text: String::new(), errors: 0, warnings: 0 };
        for diagnostic in analysis::diagnostics(db, file) {
            match diagnostic.severity {
                Severity::Error => report.errors += 1,
                Severity::Warning => report.warnings += 1,
            }
            render_into(&mut report.text, db, renderer, format, diagnostic);
        }
        report
    }
}

fn render_into(
    out: &mut String,
    db: &RootDatabase,
    renderer: &render::Human,
    format: Format,
    diagnostic: &Diagnostic,
) {
    match format {
        Format::Human => {
            out.push_str(&renderer.render(db, diagnostic).to_string());
            out.push_str("\n\n");
        }
        Format::Json => {
            out.push_str(&render::json(db, diagnostic).to_string());
            out.push('\n');
        }
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}
