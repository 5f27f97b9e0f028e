//! Checking many files at once: `halite check` over a repository.
//!
//! The files are grouped into units (a module per directory, and each file
//! that belongs to none), and the units into chunks of about
//! [`FILES_PER_CHUNK`] files. Each chunk is checked start to end by one
//! worker thread in a host of its own: the worker reads the chunk's files,
//! loads the children of its modules' calls beside them (whatever chunk
//! they belong to; read only for their variables), reports every
//! diagnostic, hands each file's to the caller, and drops the host. A check
//! needs nothing incremental across chunks, so this costs nothing and
//! bounds memory: a worker holds one chunk's trees and memos. One worker
//! per core takes the chunks in path order (a repository's root module,
//! which its examples call, usually comes before them), and a called
//! module's variables are kept by directory for the whole run, so a module
//! many others call is read once. Meanwhile a thread of its own finds the
//! rule levels (`halite.toml`, one look per directory); a worker waits for
//! them only to report.
//!
//! [`check_contents`] checks one file's text given rather than read (an
//! editor's buffer on standard input) the same way, in its module.

use std::{
    io,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicUsize, Ordering},
    },
};

use analysis::{ConfigError, RuleLevels};
use camino::{Utf8Path, Utf8PathBuf};
use db::{RootDatabase, module::ModuleInput};
use rustc_hash::FxHashMap;

use crate::{
    AnalysisHost, Change, Contents, HostOptions, Limits, LocatedDiagnostic, Membership, Values,
    config::RuleLevelsFinder,
};

/// Files checked in one host. A worker holds one chunk's trees and memos
/// at a time, and smaller chunks peaked lower for no more time (fresh pages
/// cost their zeroing). A module is never split.
pub const FILES_PER_CHUNK: usize = 32;

/// Why a check could not run.
#[derive(Debug)]
pub enum CheckError {
    /// A `halite.toml` is wrong: nothing is reported, since a report by
    /// rules the user did not ask for would be wrong.
    Config(ConfigError),
    /// The worker threads could not be started.
    Threads(io::Error),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Config(error) => error.fmt(f),
            CheckError::Threads(error) => write!(f, "cannot start the worker threads: {error}"),
        }
    }
}

impl std::error::Error for CheckError {}

/// A checked file's diagnostics, or why it could not be read.
pub type FileOutcome<'a> = Result<&'a [LocatedDiagnostic], &'a io::Error>;

/// What one parallel job checks: a module (the module files of one
/// directory) or one file that belongs to none (a `.tfvars` file, a hidden
/// file); `files` index the run's paths, in path order.
#[derive(Clone)]
struct CheckUnit {
    dir: Option<Utf8PathBuf>,
    files: Vec<usize>,
}

/// How many modules a run checked (the units that are modules).
pub fn module_count(paths: &[Utf8PathBuf]) -> usize {
    check_units(paths).iter().filter(|unit| unit.dir.is_some()).count()
}

/// How many modules of `paths` have their files `selected` (a shard's).
pub fn selected_module_count(paths: &[Utf8PathBuf], selected: &[bool]) -> usize {
    check_units(paths)
        .iter()
        .filter(|unit| unit.dir.is_some() && unit.files.iter().any(|&i| selected[i]))
        .count()
}

/// Checks `paths` (sorted, each once) and hands each file's diagnostics, on
/// the worker that found them, to `on_file` with the database that holds
/// the file (to read its text for rendering). Returns what `on_file` made
/// of each path, in path order; a path with no diagnostics gets `on_file`
/// too, with none, and a file that could not be read gets its error (it is
/// left out of its module, and the rest is checked): one that is not a
/// regular file or is larger than `limits` allow is not read at all. Each
/// file's diagnostics are capped as `limits` say.
pub fn check_paths<R: Send>(
    paths: &[Utf8PathBuf],
    limits: Limits,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Vec<R>, CheckError> {
    check_paths_replacing(paths, &Replaced::default(), None, limits, on_file, on_progress)
}

/// [`check_paths`] reporting only the files `selected` says (by index in
/// `paths`: a shard's, [`crate::shard::Shard::select`], less those
/// [`crate::config::excluded`]); the others are read only for what the
/// selected files' modules read of them (their module's other files, a
/// called module's variables). A path not selected gets no `on_file` and
/// no place in the result.
pub fn check_selected_paths<R: Send>(
    paths: &[Utf8PathBuf],
    selected: &[bool],
    limits: Limits,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Vec<R>, CheckError> {
    check_paths_replacing(paths, &Replaced::default(), Some(selected), limits, on_file, on_progress)
}

/// Files whose contents are these bytes rather than what is on disk.
pub(crate) type Replaced = FxHashMap<Utf8PathBuf, Vec<u8>>;

/// [`check_paths`], with the files at some paths read from these bytes
/// rather than from disk.
pub(crate) fn check_paths_replacing<R: Send>(
    paths: &[Utf8PathBuf],
    replaced: &Replaced,
    selected: Option<&[bool]>,
    limits: Limits,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Vec<R>, CheckError> {
    let units = check_units(paths);
    let reported: Vec<CheckUnit> = match selected {
        None => Vec::new(),
        Some(selected) => {
            units.iter().filter(|unit| unit.files.iter().any(|&i| selected[i])).cloned().collect()
        }
    };
    let reported = if selected.is_some() { &reported[..] } else { &units[..] };
    let unit_of_dir: FxHashMap<&Utf8Path, &CheckUnit> =
        units.iter().filter_map(|unit| Some((unit.dir.as_deref()?, unit))).collect();
    let levels: OnceLock<Result<Vec<Arc<RuleLevels>>, ConfigError>> = OnceLock::new();
    let child_inputs: ChildInputs = Arc::default();
    let checker = ChunkChecker {
        paths,
        replaced,
        selected,
        limits,
        unit_of_dir: &unit_of_dir,
        child_inputs,
        levels: &levels,
        on_file: &on_file,
        on_progress: &on_progress,
    };
    let chunks = chunks(reported);
    let done = std::thread::scope(|scope| {
        // Set even if finding them panics, or the workers would wait forever.
        scope.spawn(|| {
            let found = std::panic::catch_unwind(|| rule_levels(paths)).unwrap_or_else(|_| {
                Err(ConfigError {
                    path: Utf8PathBuf::from("."),
                    position: None,
                    message: "finding the rule levels failed".into(),
                })
            });
            levels.set(found)
        });
        check_in_order(&checker, &chunks)
    });
    if let Some(Err(error)) = levels.into_inner() {
        return Err(CheckError::Config(error));
    }
    let mut out: Vec<Option<R>> = (0..paths.len()).map(|_| None).collect();
    for (index, report) in done?.into_iter().flatten() {
        out[index] = Some(report);
    }
    Ok(out.into_iter().flatten().collect())
}

/// Checks `bytes` (standard input, say) as the file at `path` would be
/// checked on disk: its name gives its kind and dialect, the nearest
/// `halite.toml` its rule levels, and a module file is checked in its
/// module, the directory's other module files read from disk beside
/// `bytes` (which replace `path`'s own, if it exists). `path` need not
/// exist; a directory that cannot be listed leaves the file a module of its
/// own. Hands only `path`'s diagnostics to `on_file`.
pub fn check_contents<R: Send>(
    path: &Utf8Path,
    bytes: Vec<u8>,
    limits: Limits,
    on_file: impl Fn(&RootDatabase, FileOutcome<'_>) -> R + Sync,
) -> Result<R, CheckError> {
    let mut paths = vec![path.to_owned()];
    if vfs::is_module_file(path) {
        let parent = path.parent().unwrap_or(Utf8Path::new(""));
        // Named as `path` is named (`main.tf` or `./main.tf`), so that
        // `path` is one of them, not a second file beside itself.
        let siblings = vfs::load(vfs::module_dir(path), vfs::Scope::Directory, limits.max_file_size)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|file| Some(parent.join(file.path.file_name()?)));
        paths.extend(siblings);
    }
    paths.sort_unstable_by(|a, b| vfs::path_order(a, b));
    paths.dedup();
    let replaced = Replaced::from_iter([(path.to_owned(), bytes)]);
    let reports = check_paths_replacing(
        &paths,
        &replaced,
        None,
        limits,
        |db, index, outcome| (paths[index] == path).then(|| on_file(db, outcome)),
        |_| {},
    )?;
    Ok(reports.into_iter().flatten().next().expect("the file checked is among the paths"))
}

/// The run's files grouped into check units, modules by directory, in the
/// order of their first files (so a chunk holds neighbours, which call each
/// other more often than strangers do).
fn check_units(paths: &[Utf8PathBuf]) -> Vec<CheckUnit> {
    // Keyed by text: hashing a `Path` walks its components.
    let mut module_of_dir: FxHashMap<&str, usize> = FxHashMap::default();
    let mut units = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        if !vfs::is_module_file(path) {
            units.push(CheckUnit { dir: None, files: vec![index] });
            continue;
        }
        let dir = vfs::module_dir(path);
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

/// The units in chunks of about [`FILES_PER_CHUNK`] files.
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

type Reports<R> = Vec<Vec<(usize, R)>>;

/// The variables of the modules called so far, by directory, for the whole
/// run.
type ChildInputs = Arc<Mutex<FxHashMap<Utf8PathBuf, Option<Arc<[ModuleInput]>>>>>;

/// Checks `chunks` on a worker thread per core, each taking the next chunk
/// in path order when it is done with one, and returns their reports (or
/// the first error, after which the workers take no more chunks).
fn check_in_order<R: Send>(
    checker: &ChunkChecker<'_, R>,
    chunks: &[&[CheckUnit]],
) -> Result<Reports<R>, CheckError> {
    let next = AtomicUsize::new(0);
    let next = &next;
    let workers = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    std::thread::scope(|scope| {
        let handles = (0..workers)
            .map(|_| {
                std::thread::Builder::new().stack_size(crate::DEEP_STACK).spawn_scoped(scope, move || {
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
            .map_err(CheckError::Threads)?;
        let mut out = Vec::new();
        for handle in handles {
            // A worker's panic is the run's, as if it had happened here.
            let reports = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
            out.extend(reports);
        }
        Ok(out)
    })
}

struct ChunkChecker<'a, R> {
    paths: &'a [Utf8PathBuf],
    /// Paths whose contents are these bytes, not the file's on disk.
    replaced: &'a Replaced,
    /// The paths reported, when not all are.
    selected: Option<&'a [bool]>,
    limits: Limits,
    unit_of_dir: &'a FxHashMap<&'a Utf8Path, &'a CheckUnit>,
    /// The variables of the modules called so far, by directory.
    child_inputs: ChildInputs,
    levels: &'a OnceLock<Result<Vec<Arc<RuleLevels>>, ConfigError>>,
    on_file: &'a (dyn Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync),
    on_progress: &'a (dyn Fn(usize) + Sync),
}

impl<R: Send> ChunkChecker<'_, R> {
    fn check(&self, chunk: &[CheckUnit]) -> Result<Vec<(usize, R)>, CheckError> {
        let mut host =
            AnalysisHost::new(HostOptions { values: Values::None, threads: 1, limits: self.limits });
        let cache = Arc::clone(&self.child_inputs);
        host.set_external_inputs(Arc::new(move |dir: &Utf8Path| lock(&cache).get(dir).cloned().flatten()));
        let mut change = Change::new();
        let mut unreadable: FxHashMap<usize, io::Error> = FxHashMap::default();
        for unit in chunk {
            self.read(&mut change, unit, true, &mut unreadable);
        }
        host.apply_change(change);
        // A module calling a local module of another chunk (or of none
        // checked yet) has that child read here too, unless its variables
        // are known already.
        let mut children = Change::new();
        let mut loaded: Vec<Utf8PathBuf> = Vec::new();
        for dir in host.module_dirs().map(Utf8Path::to_owned).collect::<Vec<_>>() {
            let Some(module) = host.module(&dir) else { continue };
            for call in db::module::module_calls(host.db(), module) {
                if host.module(&call.dir).is_none()
                    && !loaded.contains(&call.dir)
                    && !lock(&self.child_inputs).contains_key(&call.dir)
                    && let Some(unit) = self.unit_of_dir.get(call.dir.as_path())
                {
                    // A child's unreadable file is reported where it is
                    // checked, in its own chunk.
                    self.read(&mut children, unit, false, &mut FxHashMap::default());
                    loaded.push(call.dir.clone());
                }
            }
        }
        host.apply_change(children);
        let levels = self.levels()?;
        let mut with_levels = Change::new();
        for unit in chunk {
            for &index in &unit.files {
                with_levels.set_rule_levels(self.paths[index].clone(), levels[index].clone());
            }
        }
        host.apply_change(with_levels);
        let report = host.report();
        // Every module's variables, for the modules of later chunks that
        // call it: read now, with its index built, they cost nothing.
        for dir in host.module_dirs().map(Utf8Path::to_owned).collect::<Vec<_>>() {
            if let Some(module) = host.module(&dir) {
                let inputs = db::module::child_inputs(host.db(), module);
                lock(&self.child_inputs).entry(dir).or_insert(inputs);
            }
        }
        let mut by_path: FxHashMap<&Utf8Path, Vec<LocatedDiagnostic>> = FxHashMap::default();
        for change in &report.diagnostics {
            by_path.entry(change.diagnostic.path.as_path()).or_default().push(change.diagnostic.clone());
        }
        let mut out = Vec::new();
        for unit in chunk {
            for &index in &unit.files {
                if self.selected.is_some_and(|selected| !selected[index]) {
                    continue;
                }
                if let Some(error) = unreadable.get(&index) {
                    out.push((index, (self.on_file)(host.db(), index, Err(error))));
                    continue;
                }
                let mut diagnostics = by_path.remove(self.paths[index].as_path()).unwrap_or_default();
                diagnostics.sort_by_key(|it| (it.diagnostic.range.start(), it.diagnostic.range.end()));
                out.push((index, (self.on_file)(host.db(), index, Ok(&diagnostics))));
            }
            (self.on_progress)(unit.files.len());
        }
        Ok(out)
    }

    /// Adds `unit`'s files, read from disk, to `change`: as a reported
    /// module (or a file of none), or as a module read for its variables.
    /// A file that cannot be read goes into `unreadable` instead, and the
    /// others of its module are checked each on its own: the module's rules
    /// would take what the missing file declares for undeclared.
    fn read(
        &self,
        change: &mut Change,
        unit: &CheckUnit,
        reported: bool,
        unreadable: &mut FxHashMap<usize, io::Error>,
    ) {
        let mut read = Vec::with_capacity(unit.files.len());
        for &index in &unit.files {
            if let Some(bytes) = self.replaced.get(&self.paths[index]) {
                read.push((index, bytes.to_vec()));
                continue;
            }
            match vfs::read_file(&self.paths[index], self.limits.max_file_size) {
                Ok(file) => read.push((index, file.bytes)),
                Err(error) => {
                    unreadable.insert(index, error.into());
                }
            }
        }
        let whole = read.len() == unit.files.len();
        for (index, bytes) in read {
            let path = self.paths[index].clone();
            if whole {
                change.set_file_bytes(path, bytes);
            } else if reported {
                change.set_file(path, Contents::Bytes(bytes), Membership::Standalone);
            }
        }
        if let Some(dir) = &unit.dir
            && whole
        {
            change.set_reported(dir.clone(), reported);
        }
    }

    /// The rule levels of every file, once they are found.
    fn levels(&self) -> Result<&[Arc<RuleLevels>], CheckError> {
        match self.levels.wait() {
            Ok(levels) => Ok(levels),
            Err(error) => Err(CheckError::Config(error.clone())),
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A worker that panicked holding the lock left a table of complete
    // entries.
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The rule levels of each file, from the nearest `halite.toml` in the
/// file's directory or above.
fn rule_levels(paths: &[Utf8PathBuf]) -> Result<Vec<Arc<RuleLevels>>, ConfigError> {
    let mut finder = RuleLevelsFinder::from_current_dir()?;
    paths.iter().map(|path| finder.levels_for(path)).collect()
}
