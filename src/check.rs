//! `halite check`: every diagnostic of every file, as configured by the
//! nearest `halite.toml`, then a summary. The host finds them
//! (`host::check`); this renders and prints them.

use std::{
    io::{self, IsTerminal, Write},
    time::Instant,
};

use anyhow::{Context, Result, anyhow};
use camino::Utf8PathBuf;
use halite::host::{self, LocatedDiagnostic, RootDatabase, Severity};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{Format, Outcome, discover, render, sarif};

/// What `halite check` was asked to do, besides which paths.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    pub(crate) format: Format,
    /// Warnings fail the check (exit 1) as errors do.
    pub(crate) deny_warnings: bool,
}

pub(crate) fn run(paths: &[Utf8PathBuf], options: Options) -> Result<Outcome> {
    let started = Instant::now();
    let found = discover::hcl_files(paths, discover::Syntaxes::All)?;
    // What the walk could not read is said first; everything else is
    // checked, and the run then exits 2, not having done all it was asked.
    let incomplete = found.report_problems();
    let paths = found.files;
    let modules = host::check::module_count(&paths);

    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let renderer = render::Human::new(color);
    let mut stdout = io::stdout().lock();
    let mut sarif = sarif::Log::default();
    let (mut errors, mut warnings) = (0usize, 0usize);
    let progress = progress_bar(paths.len());
    // The host checks the files in parallel chunks; each file's report is
    // rendered on the worker that checked it, and printed in path order at
    // the end. A bad configuration stops the run (exit 2) before anything
    // else is printed; a file that cannot be read is said on standard
    // error, and the run goes on and then exits 2.
    let reports = host::check::check_paths(
        &paths,
        crate::limits(),
        |db, index, diagnostics| match diagnostics {
            Ok(diagnostics) => FileReport::new(db, &renderer, options.format, diagnostics),
            Err(error) => FileReport::unreadable(&paths[index], error),
        },
        |files| progress.inc(files as u64),
    )
    .map_err(|error| anyhow!(error))?;
    let mut unread = found.problems.len();
    for report in reports {
        if let Some(problem) = &report.unreadable {
            progress.suspend(|| eprintln!("halite: {problem}"));
            unread += 1;
        }
        errors += report.errors;
        warnings += report.warnings;
        sarif.results.extend(report.sarif_results);
        progress
            .suspend(|| stdout.write_all(report.text.as_bytes()))
            .context("cannot write to standard output")?;
    }
    progress.finish_and_clear();
    if options.format == Format::Sarif {
        stdout.write_all(sarif.into_json().as_bytes()).context("cannot write to standard output")?;
        stdout.write_all(b"\n").context("cannot write to standard output")?;
    }
    stdout.flush().context("cannot write to standard output")?;

    // The time only on a terminal: a log or a test gets the same summary
    // from run to run.
    let elapsed = if io::stderr().is_terminal() {
        format!(" in {:.2}s", started.elapsed().as_secs_f64())
    } else {
        String::new()
    };
    let incomplete = incomplete || unread > 0;
    let unread =
        if incomplete { format!("; {} could not be read", plural(unread, "path")) } else { String::new() };
    eprintln!(
        "checked {} in {}: {}, {}{unread}{elapsed}",
        plural(paths.len(), "file"),
        plural(modules, "module"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    let failed = errors > 0 || (options.deny_warnings && warnings > 0);
    Ok(if incomplete {
        Outcome::Incomplete
    } else if failed {
        Outcome::FoundErrors
    } else {
        Outcome::Clean
    })
}

/// Runs with more files than this show a progress bar, when standard error
/// is a terminal. Smaller runs finish before a bar would be worth drawing.
const PROGRESS_THRESHOLD: usize = 100;

/// One file's diagnostics, rendered, and how many of each severity; or why
/// it could not be read.
struct FileReport {
    text: String,
    sarif_results: Vec<sarif::SarifResult>,
    errors: usize,
    warnings: usize,
    unreadable: Option<String>,
}

impl FileReport {
    fn new(
        db: &RootDatabase,
        renderer: &render::Human,
        format: Format,
        diagnostics: &[LocatedDiagnostic],
    ) -> FileReport {
        let mut report = FileReport {
            text: String::new(),
            sarif_results: Vec::new(),
            errors: 0,
            warnings: 0,
            unreadable: None,
        };
        for located in diagnostics {
            match located.diagnostic.severity {
                Severity::Error => report.errors += 1,
                Severity::Warning => report.warnings += 1,
            }
            match format {
                Format::Human => {
                    report.text.push_str(&renderer.render(db, &located.diagnostic));
                    report.text.push_str("\n\n");
                }
                Format::Json => {
                    report.text.push_str(&render::json(located));
                    report.text.push('\n');
                }
                Format::Sarif => report.sarif_results.push(sarif::SarifResult::new(located)),
            }
        }
        report
    }

    fn unreadable(path: &Utf8PathBuf, error: &io::Error) -> FileReport {
        FileReport {
            text: String::new(),
            sarif_results: Vec::new(),
            errors: 0,
            warnings: 0,
            unreadable: Some(format!("cannot read `{path}`: {error}")),
        }
    }
}

/// A progress bar on standard error for a long run on a terminal; hidden
/// otherwise, so pipes and CI logs get only the report.
fn progress_bar(files: usize) -> ProgressBar {
    if files <= PROGRESS_THRESHOLD || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    // The template is a constant; should it ever be rejected, the default
    // style is as good.
    if let Ok(style) = ProgressStyle::with_template("checking {bar:40} {pos}/{len} files") {
        bar.set_style(style);
    }
    bar
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}
