//! `halite check`: every diagnostic of every file, as configured by the
//! nearest `halite.toml`, then a summary.

use std::{
    collections::{BTreeSet, HashMap},
    io::{self, IsTerminal, Write},
    sync::Arc,
    time::Instant,
};

use analysis::{Config, RuleLevels, Severity};
use anyhow::{Context, Result, anyhow};
use camino::{Utf8Path, Utf8PathBuf};
use db::{File, RootDatabase};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

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
    let paths = discover::hcl_files(paths, discover::Syntaxes::All)?;
    // A bad configuration stops the run (exit 2) before anything is
    // checked: checking with rules the user did not ask for would be wrong.
    let levels = rule_levels(&paths)?;
    let modules =
        paths.iter().map(|path| path.parent().unwrap_or(Utf8Path::new(""))).collect::<BTreeSet<_>>().len();

    let mut db = RootDatabase::new();
    // Every file is read before any is checked: a path that cannot be read
    // stops the run (exit 2) before it prints half a report.
    let mut files = Vec::with_capacity(paths.len());
    for path in &paths {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read `{path}`"))?;
        files.push(db.set_file_bytes(path.clone(), &bytes));
    }

    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let renderer = render::Human::new(color);
    let mut stdout = io::stdout().lock();
    let mut sarif = sarif::Log::default();
    let (mut errors, mut warnings) = (0usize, 0usize);
    let progress = progress_bar(files.len());
    // Files are checked and their reports rendered in parallel, a chunk at a
    // time, then printed in path order; parse trees are evicted between
    // chunks, so a run over a whole monorepo holds a bounded number of them.
    let jobs: Vec<(File, &RuleLevels)> = files.iter().copied().zip(levels.iter().map(|it| &**it)).collect();
    for chunk in jobs.chunks(FILES_PER_CHUNK) {
        let reports: Vec<FileReport> = chunk
            .par_iter()
            .map_with(db.clone(), |db, &(file, levels)| {
                let report = FileReport::new(db, &renderer, options.format, file, levels);
                progress.inc(1);
                report
            })
            .collect();
        for report in reports {
            errors += report.errors;
            warnings += report.warnings;
            sarif.results.extend(report.sarif_results);
            progress
                .suspend(|| stdout.write_all(report.text.as_bytes()))
                .context("cannot write to standard output")?;
        }
        db.evict_parse_trees();
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
    eprintln!(
        "checked {} in {}: {}, {}{elapsed}",
        plural(files.len(), "file"),
        plural(modules, "module"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    let failed = errors > 0 || (options.deny_warnings && warnings > 0);
    Ok(if failed { Outcome::FoundErrors } else { Outcome::Clean })
}

/// Files checked between two evictions of parse trees.
const FILES_PER_CHUNK: usize = 256;

/// Runs with more files than this show a progress bar, when standard error
/// is a terminal. Smaller runs finish before a bar would be worth drawing.
const PROGRESS_THRESHOLD: usize = 100;

/// The rule levels of each file, from the nearest `halite.toml` in the
/// file's directory or above. Each directory is searched and each
/// configuration file read once.
fn rule_levels(paths: &[Utf8PathBuf]) -> Result<Vec<Arc<RuleLevels>>> {
    let current_dir = std::env::current_dir().context("cannot read the current directory")?;
    let current_dir = Utf8PathBuf::from_path_buf(current_dir)
        .map_err(|dir| anyhow!("the current directory `{}` is not UTF-8", dir.display()))?;
    let mut config_of_dir: HashMap<Utf8PathBuf, Option<Arc<Config>>> = HashMap::new();
    let mut configs: HashMap<Utf8PathBuf, Arc<Config>> = HashMap::new();
    let unconfigured = Arc::new(RuleLevels::default());
    let mut levels = Vec::with_capacity(paths.len());
    for path in paths {
        let absolute = current_dir.join(path);
        let dir = absolute.parent().unwrap_or(&current_dir).to_owned();
        let config = match config_of_dir.get(&dir) {
            Some(config) => config.clone(),
            None => {
                let config = match Config::find_file(&dir) {
                    None => None,
                    Some(config_path) => match configs.get(&config_path) {
                        Some(config) => Some(config.clone()),
                        None => {
                            let config = Arc::new(Config::load(&config_path).map_err(|mut error| {
                                // Named as the user would type it from here.
                                if let Ok(relative) = error.path.strip_prefix(&current_dir) {
                                    error.path = relative.to_owned();
                                }
                                error
                            })?);
                            configs.insert(config_path, config.clone());
                            Some(config)
                        }
                    },
                };
                config_of_dir.insert(dir, config.clone());
                config
            }
        };
        levels.push(match config {
            Some(config) => Arc::new(config.levels_for(&absolute)),
            None => unconfigured.clone(),
        });
    }
    Ok(levels)
}

/// One file's diagnostics, rendered, and how many of each severity.
struct FileReport {
    text: String,
    sarif_results: Vec<sarif::SarifResult>,
    errors: usize,
    warnings: usize,
}

impl FileReport {
    fn new(
        db: &RootDatabase,
        renderer: &render::Human,
        format: Format,
        file: File,
        levels: &RuleLevels,
    ) -> FileReport {
        let mut report =
            FileReport { text: String::new(), sarif_results: Vec::new(), errors: 0, warnings: 0 };
        for diagnostic in &levels.apply(analysis::diagnostics(db, file)) {
            match diagnostic.severity {
                Severity::Error => report.errors += 1,
                Severity::Warning => report.warnings += 1,
            }
            match format {
                Format::Human => {
                    report.text.push_str(&renderer.render(db, diagnostic));
                    report.text.push_str("\n\n");
                }
                Format::Json => {
                    report.text.push_str(&render::json(db, diagnostic));
                    report.text.push('\n');
                }
                Format::Sarif => report.sarif_results.push(sarif::SarifResult::new(db, diagnostic)),
            }
        }
        report
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
