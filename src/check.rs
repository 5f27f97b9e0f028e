//! `halite check`: every diagnostic of every file, as configured by the
//! nearest `halite.toml`, then a summary.

use std::{
    collections::{BTreeMap, HashMap},
    io::{self, IsTerminal, Write},
    sync::Arc,
    time::Instant,
};

use analysis::{Config, RuleLevels, Severity};
use anyhow::{Context, Result, anyhow};
use camino::{Utf8Path, Utf8PathBuf};
use db::{File, Module, RootDatabase, module};
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

    let mut db = RootDatabase::new();
    // Every file is read before any is checked: a path that cannot be read
    // stops the run (exit 2) before it prints half a report.
    let mut files = Vec::with_capacity(paths.len());
    for path in &paths {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read `{path}`"))?;
        files.push(db.set_file_bytes(path.clone(), &bytes));
    }
    let units = check_units(&mut db, &paths, &files);
    let modules = units.iter().filter(|unit| unit.module.is_some()).count();

    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let renderer = render::Human::new(color);
    let mut stdout = io::stdout().lock();
    let mut sarif = sarif::Log::default();
    let (mut errors, mut warnings) = (0usize, 0usize);
    let progress = progress_bar(files.len());
    // Modules (and files outside any) are checked and their reports
    // rendered in parallel, a chunk at a time; parse trees are evicted
    // between chunks, so a run over a whole monorepo holds a bounded number
    // of them. Reports are printed in path order at the end.
    let mut reports: Vec<Option<FileReport>> = (0..files.len()).map(|_| None).collect();
    // Evaluating a module may walk a long chain of references, and salsa
    // finds a cycle by walking all of it: the workers get deep stacks
    // (reserved, not used, unless a module needs them).
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(WORKER_STACK)
        .build()
        .context("cannot start the worker threads")?;
    let mut chunk = Vec::new();
    let mut chunk_files = 0;
    let mut remaining = units.iter().peekable();
    while let Some(unit) = remaining.next() {
        chunk_files += unit.files.len();
        chunk.push(unit);
        if chunk_files < FILES_PER_CHUNK && remaining.peek().is_some() {
            continue;
        }
        // The workers take a handle of their own: one is not shared
        // between threads.
        let worker_db = db.clone();
        let (jobs, files, levels, renderer, progress) = (&chunk, &files, &levels, &renderer, &progress);
        let done: Vec<Vec<(usize, FileReport)>> = pool.install(move || {
            jobs.par_iter()
                .map_with(worker_db, |db, unit| {
                    let mut module_diagnostics: Vec<analysis::Diagnostic> = Vec::new();
                    if let Some(module) = unit.module {
                        module_diagnostics.extend(analysis::module_diagnostics(db, module).iter().cloned());
                        // Calls of local Terraform modules, against the
                        // modules of this run (a child outside it is not
                        // checked).
                        if db::module::module_index(db, module).blocks.contains_key("module") {
                            module_diagnostics.extend(
                                db.module_call_diagnostics(module)
                                    .iter()
                                    .map(|it| analysis::module::convert(db, it)),
                            );
                        }
                    }
                    let module_diagnostics = &module_diagnostics;
                    let out = unit
                        .files
                        .iter()
                        .map(|&index| {
                            let diagnostics =
                                analysis::file_diagnostics_in_module(db, files[index], module_diagnostics);
                            let report =
                                FileReport::new(db, renderer, options.format, &diagnostics, &levels[index]);
                            (index, report)
                        })
                        .collect();
                    progress.inc(unit.files.len() as u64);
                    out
                })
                .collect()
        });
        for (index, report) in done.into_iter().flatten() {
            reports[index] = Some(report);
        }
        chunk.clear();
        chunk_files = 0;
        db.evict_parse_trees();
    }
    for report in reports.into_iter().flatten() {
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
    eprintln!(
        "checked {} in {}: {}, {}{elapsed}",
        plural(files.len(), "file"),
        plural(modules, "module"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    // The process ends here: freeing every query's memo one by one would
    // take a tenth of a large run's time, for nothing.
    std::mem::forget(db);
    let failed = errors > 0 || (options.deny_warnings && warnings > 0);
    Ok(if failed { Outcome::FoundErrors } else { Outcome::Clean })
}

/// What one parallel job checks: a module and its files, or one file that
/// belongs to no module (a `.tfvars` file); `files` index the run's paths.
struct CheckUnit {
    module: Option<Module>,
    files: Vec<usize>,
}

/// The run's files grouped into modules, one per directory (of the files
/// `db::module::is_module_file` accepts), and the other files alone. No
/// variable is given a value: `analysis::module_diagnostics` reports nothing
/// that depends on one (setting them unknown would need every module's
/// declarations first, one module after another, before any is checked in
/// parallel).
fn check_units(db: &mut RootDatabase, paths: &[Utf8PathBuf], files: &[File]) -> Vec<CheckUnit> {
    let mut by_dir: BTreeMap<&Utf8Path, Vec<usize>> = BTreeMap::new();
    let mut units = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        if module::is_module_file(path) {
            by_dir.entry(path.parent().unwrap_or(Utf8Path::new(""))).or_default().push(index);
        } else {
            units.push(CheckUnit { module: None, files: vec![index] });
        }
    }
    for (dir, indexes) in by_dir {
        let module = db.set_module_files(dir, indexes.iter().map(|&index| files[index]).collect());
        units.push(CheckUnit { module: Some(module), files: indexes });
    }
    units
}

/// The stack of each worker thread.
const WORKER_STACK: usize = 512 << 20;

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
    let mut config_file_of_dir: HashMap<Utf8PathBuf, Option<Utf8PathBuf>> = HashMap::new();
    let unconfigured = Arc::new(RuleLevels::default());
    let mut levels = Vec::with_capacity(paths.len());
    for path in paths {
        let absolute = current_dir.join(path);
        let dir = absolute.parent().unwrap_or(&current_dir).to_owned();
        let config = match config_of_dir.get(&dir) {
            Some(config) => config.clone(),
            None => {
                let config = match find_config_file(&dir, &mut config_file_of_dir) {
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

/// The configuration file that applies in `dir`, as `Config::find_file`
/// finds it (the nearest `halite.toml` in `dir` or above, stopping at the
/// repository's root), with each directory's answer remembered: the
/// directories of a repository share their ancestors, and looking at every
/// ancestor of every directory was a twentieth of a check's time.
fn find_config_file(
    dir: &Utf8Path,
    known: &mut HashMap<Utf8PathBuf, Option<Utf8PathBuf>>,
) -> Option<Utf8PathBuf> {
    // The directories looked at so far, nearest first, that take the
    // answer found further up.
    let mut pending: Vec<&Utf8Path> = Vec::new();
    let mut found = None;
    for ancestor in dir.ancestors() {
        if let Some(answer) = known.get(ancestor) {
            found = answer.clone();
            break;
        }
        pending.push(ancestor);
        let candidate = ancestor.join(analysis::config::CONFIG_FILE_NAME);
        if candidate.is_file() {
            found = Some(candidate);
            break;
        }
        if ancestor.join(".git").exists() {
            break;
        }
    }
    for ancestor in pending {
        known.insert(ancestor.to_owned(), found.clone());
    }
    found
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
        diagnostics: &[analysis::Diagnostic],
        levels: &RuleLevels,
    ) -> FileReport {
        let mut report =
            FileReport { text: String::new(), sarif_results: Vec::new(), errors: 0, warnings: 0 };
        for diagnostic in &levels.apply(diagnostics) {
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
