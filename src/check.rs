//! `halite check`: every diagnostic of every file, as configured by the
//! nearest `halite.toml`, then a summary.

use std::{
    io::{self, IsTerminal, Write},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicUsize, Ordering},
    },
    time::Instant,
};

use analysis::{Config, RuleLevels, Severity};
use anyhow::{Context, Result, anyhow};
use camino::{Utf8Path, Utf8PathBuf};
use db::{File, Module, RootDatabase, module};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rustc_hash::FxHashMap;

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
    let units = check_units(&paths);
    let modules = units.iter().filter(|unit| unit.dir.is_some()).count();
    let unit_of_dir: FxHashMap<&Utf8Path, &CheckUnit> =
        units.iter().filter_map(|unit| Some((unit.dir.as_deref()?, unit))).collect();

    let color = io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let renderer = render::Human::new(color);
    let mut stdout = io::stdout().lock();
    let mut sarif = sarif::Log::default();
    let (mut errors, mut warnings) = (0usize, 0usize);
    let progress = progress_bar(paths.len());
    // Modules (and files outside any) are checked and their reports
    // rendered in parallel, a chunk at a time, each chunk in a database of
    // its own that is dropped when its reports are rendered (see
    // `ChunkChecker`). Reports are printed in path order at the end.
    let mut reports: Vec<Option<FileReport>> = (0..paths.len()).map(|_| None).collect();
    // The rule levels are found (a `halite.toml` looked for in every
    // directory and above) on a thread of their own while the workers
    // start checking; a worker waits for them only to render its first
    // report. A bad configuration stops the run (exit 2) and nothing is
    // printed: a report by rules the user did not ask for would be wrong.
    let levels: OnceLock<Result<Vec<Arc<RuleLevels>>>> = OnceLock::new();
    let child_inputs = Mutex::default();
    let checker = ChunkChecker {
        paths: &paths,
        unit_of_dir: &unit_of_dir,
        child_inputs: &child_inputs,
        levels: &levels,
        renderer: &renderer,
        format: options.format,
        progress: &progress,
    };
    // Every report is printed after every file is read: a path that cannot
    // be read stops the run (exit 2) before it prints half a report.
    let done: Result<Vec<Vec<(usize, FileReport)>>> = std::thread::scope(|scope| {
        // Set even if finding them panics, or the workers would wait forever.
        scope.spawn(|| {
            let found = std::panic::catch_unwind(|| rule_levels(&paths))
                .unwrap_or_else(|_| Err(anyhow!("finding the rule levels failed")));
            levels.set(found)
        });
        check_in_order(&checker, &chunks(&units))
    });
    if let Some(Err(error)) = levels.into_inner() {
        return Err(error);
    }
    let done = done?;
    for (index, report) in done.into_iter().flatten() {
        reports[index] = Some(report);
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
        plural(paths.len(), "file"),
        plural(modules, "module"),
        plural(errors, "error"),
        plural(warnings, "warning")
    );
    let failed = errors > 0 || (options.deny_warnings && warnings > 0);
    Ok(if failed { Outcome::FoundErrors } else { Outcome::Clean })
}

/// What one parallel job checks: a module (the files of one directory that
/// `db::module::is_module_file` accepts) or one file that belongs to none
/// (a `.tfvars` file); `files` index the run's paths, in path order.
struct CheckUnit {
    dir: Option<Utf8PathBuf>,
    files: Vec<usize>,
}

/// The run's files grouped into check units, modules by directory, in the
/// order of their first files (so a chunk holds neighbours, which call each
/// other more often than strangers do). No variable is given a value:
/// `analysis::module_diagnostics` reports nothing that depends on one.
fn check_units(paths: &[Utf8PathBuf]) -> Vec<CheckUnit> {
    // Keyed by text: hashing a `Path` walks its components.
    let mut module_of_dir: FxHashMap<&str, usize> = FxHashMap::default();
    let mut units = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        if !vfs::is_module_file(path) {
            units.push(CheckUnit { dir: None, files: vec![index] });
            continue;
        }
        let dir = path.parent().unwrap_or(Utf8Path::new(""));
        match module_of_dir.get(dir.as_str()) {
            Some(&unit) => units[unit].files.push(index),
            None => {
                module_of_dir.insert(dir.as_str(), units.len());
                units.push(CheckUnit { dir: Some(dir.to_owned()), files: vec![index] });
            }
        }
    }
    units
}

/// The units in chunks of about [`FILES_PER_CHUNK`] files (a module is never
/// split).
fn chunks(units: &[CheckUnit]) -> Vec<&[CheckUnit]> {
    let mut out = Vec::new();
    let (mut start, mut files) = (0, 0);
    for (index, unit) in units.iter().enumerate() {
        files += unit.files.len();
        if files >= FILES_PER_CHUNK || index + 1 == units.len() {
            out.push(&units[start..=index]);
            (start, files) = (index + 1, 0);
        }
    }
    out
}

/// Checks `chunks` on a worker thread per core, each taking the next chunk
/// in path order when it is done with one, and returns their reports (or
/// the first error, after which the workers take no more chunks). In path
/// order, the module a repository's examples call (its root, `../..`) is
/// usually checked before them, and they find its variables known (see
/// [`ChunkChecker::child_inputs`]).
fn check_in_order(
    checker: &ChunkChecker<'_>,
    chunks: &[&[CheckUnit]],
) -> Result<Vec<Vec<(usize, FileReport)>>> {
    let next = AtomicUsize::new(0);
    let next = &next;
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    std::thread::scope(|scope| {
        let handles = (0..workers)
            .map(|_| {
                // Evaluating a module may walk a long chain of references, and
                // salsa finds a cycle by walking all of it: the workers get deep
                // stacks (reserved, not used, unless a module needs them).
                std::thread::Builder::new().stack_size(WORKER_STACK).spawn_scoped(scope, move || {
                    let mut reports = Vec::new();
                    while let Some(chunk) = chunks.get(next.fetch_add(1, Ordering::Relaxed)) {
                        match checker.check(chunk) {
                            Ok(chunk_reports) => reports.push(chunk_reports),
                            Err(error) => {
                                next.store(chunks.len(), Ordering::Relaxed);
                                return Err(error);
                            }
                        }
                    }
                    Ok(reports)
                })
            })
            .collect::<io::Result<Vec<_>>>()
            .context("cannot start the worker threads")?;
        let mut out = Vec::new();
        for handle in handles {
            // A worker's panic is the run's, as if it had happened here.
            let reports = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            out.extend(reports);
        }
        Ok(out)
    })
}

/// Checks a chunk of units start to end on one worker thread, in a
/// database of its own: its files read from disk into it, the children of
/// its module calls loaded beside them (unless another chunk has read their
/// variables already), every diagnostic found and rendered, and the
/// database dropped. A run over a whole monorepo holds a chunk's trees and
/// memos per worker, and the memory a chunk frees is reused by the next on
/// the same thread. A check needs nothing incremental across chunks.
struct ChunkChecker<'a> {
    paths: &'a [Utf8PathBuf],
    unit_of_dir: &'a FxHashMap<&'a Utf8Path, &'a CheckUnit>,
    /// The variables of the modules called so far, by directory: a module
    /// that many others call (the root of a repository of examples) is read
    /// once for all of them, not once per chunk of callers.
    child_inputs: &'a Mutex<FxHashMap<Utf8PathBuf, Option<Arc<[module::ModuleInput]>>>>,
    /// Set by another thread, once (see [`ChunkChecker::levels`]).
    levels: &'a OnceLock<Result<Vec<Arc<RuleLevels>>>>,
    renderer: &'a render::Human,
    format: Format,
    progress: &'a ProgressBar,
}

impl ChunkChecker<'_> {
    fn check(&self, chunk: &[CheckUnit]) -> Result<Vec<(usize, FileReport)>> {
        let mut db = RootDatabase::new();
        let loaded: Vec<(Option<Module>, Vec<File>)> =
            chunk.iter().map(|unit| self.load(&mut db, unit)).collect::<Result<_>>()?;
        // A module calling a local module of another chunk (or of none
        // checked yet) has that child loaded here too, unless its variables
        // are known already. Finding the calls parses the calling module,
        // which the check does next anyway, and loading only creates inputs,
        // without a new revision: nothing computed here is computed again.
        let children: Vec<Utf8PathBuf> = loaded
            .iter()
            .filter_map(|(module, _)| *module)
            .flat_map(|module| module::module_calls(&db, module).iter().map(|call| call.dir.clone()))
            .collect();
        for dir in children {
            if db.module(&dir).is_none()
                && !self.lock_child_inputs().contains_key(&dir)
                && let Some(unit) = self.unit_of_dir.get(dir.as_path())
            {
                self.load(&mut db, unit)?;
            }
        }
        // A child of the run, in whichever chunk it was read; one outside
        // the run is not checked against.
        let inputs_of = |dir: &Utf8Path| {
            if let Some(inputs) = self.lock_child_inputs().get(dir) {
                return inputs.clone();
            }
            let inputs = module::child_inputs(&db, db.module(dir)?);
            self.lock_child_inputs().insert(dir.to_owned(), inputs.clone());
            inputs
        };
        let mut out = Vec::new();
        for (unit, (module, files)) in chunk.iter().zip(&loaded) {
            let facts = module.map(|module| analysis::ModuleFacts::build(&db, module));
            if let (Some(module), Some(dir)) = (*module, &unit.dir) {
                // Its variables, for the modules of later chunks that call
                // it: read now, with its index built, they cost nothing.
                let inputs = module::child_inputs(&db, module);
                self.lock_child_inputs().entry(dir.clone()).or_insert(inputs);
            }
            for (&index, &file) in unit.files.iter().zip(files) {
                let module_diagnostics = match (*module, &facts) {
                    (Some(module), Some(facts)) => {
                        analysis::file_module_diagnostics(&db, module, file, facts, inputs_of)
                    }
                    _ => Vec::new(),
                };
                let diagnostics = analysis::file_diagnostics_in_module(&db, file, &module_diagnostics);
                out.push((
                    index,
                    FileReport::new(&db, self.renderer, self.format, &diagnostics, &self.levels()?[index]),
                ));
            }
            self.progress.inc(unit.files.len() as u64);
        }
        Ok(out)
    }

    fn lock_child_inputs(
        &self,
    ) -> std::sync::MutexGuard<'_, FxHashMap<Utf8PathBuf, Option<Arc<[module::ModuleInput]>>>> {
        // A worker that panicked holding the lock left a table of complete
        // entries.
        self.child_inputs.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The rule levels of every file, once they are found; an error when the
    /// configuration is bad (the caller reports the configuration's own).
    fn levels(&self) -> Result<&[Arc<RuleLevels>]> {
        match self.levels.wait() {
            Ok(levels) => Ok(levels),
            Err(_) => Err(anyhow!("the configuration could not be read")),
        }
    }

    /// Reads `unit` into `db`: its module (if it is one) and its files, in
    /// `unit.files`' order.
    fn load(&self, db: &mut RootDatabase, unit: &CheckUnit) -> Result<(Option<Module>, Vec<File>)> {
        let files = unit
            .files
            .iter()
            .map(|&index| {
                let path = &self.paths[index];
                let bytes = std::fs::read(path).with_context(|| format!("cannot read `{path}`"))?;
                Ok(db.set_file_bytes(path.clone(), &bytes))
            })
            .collect::<Result<Vec<File>>>()?;
        let module = unit.dir.as_ref().map(|dir| db.set_module_files(dir.clone(), files.clone()));
        Ok((module, files))
    }
}

/// The stack of each worker thread.
const WORKER_STACK: usize = 512 << 20;

/// Files checked in one database. A worker holds one chunk's trees and
/// memos at a time: over the corpus, chunks of 32 files peaked at 52 MB
/// where chunks of 256 peaked at 90 MB, for no more time (fresh pages cost
/// their zeroing). A module is never split, and each chunk loads the
/// children of its module calls again.
const FILES_PER_CHUNK: usize = 32;

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
    // Keyed by the directory as the run names it (hashing text, not a
    // `Path`'s components): the files of a directory share its answer.
    let mut config_of_dir: FxHashMap<&str, Option<Arc<Config>>> = FxHashMap::default();
    let mut configs: FxHashMap<Utf8PathBuf, Arc<Config>> = FxHashMap::default();
    let mut config_file_of_dir: FxHashMap<Utf8PathBuf, Option<Utf8PathBuf>> = FxHashMap::default();
    let unconfigured = Arc::new(RuleLevels::default());
    let mut levels = Vec::with_capacity(paths.len());
    for path in paths {
        let dir = path.parent().unwrap_or(Utf8Path::new(""));
        let config = match config_of_dir.get(dir.as_str()) {
            Some(config) => config.clone(),
            None => {
                let absolute_dir = current_dir.join(dir);
                let config = match find_config_file(&absolute_dir, &mut config_file_of_dir) {
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
                config_of_dir.insert(dir.as_str(), config.clone());
                config
            }
        };
        levels.push(match config {
            Some(config) => Arc::new(config.levels_for(&current_dir.join(path))),
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
    known: &mut FxHashMap<Utf8PathBuf, Option<Utf8PathBuf>>,
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
