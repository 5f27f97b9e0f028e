//! Checking many files at once: `halite check` over a repository.
//!
//! The files are grouped into units (a module per directory, and each file
//! that belongs to none), and the units into chunks of about
//! [`FILES_PER_CHUNK`] files. Each chunk is checked start to end by one
//! worker thread in a host of its own: the worker reads the chunk's files,
//! loads the children of its modules' calls beside them (whatever chunk
//! they belong to; read only for their variables) and the files its units
//! read by path (a Terragrunt unit's includes and its dependencies'
//! units), reports every diagnostic, hands each file's to the caller, and
//! drops the host. A check needs nothing incremental across chunks, so
//! this bounds memory (a worker holds one chunk's trees and memos) and
//! costs only what a chunk reads again of files outside it. Since units
//! read their siblings (`config_path = "../vpc"`), a chunk that
//! [`FILES_PER_CHUNK`] files would end inside a directory goes on to that
//! directory's end where it comes within [`MAX_FILES_PER_CHUNK`] files,
//! so that those reads stay inside it. One
//! worker per core takes the chunks in path order (a repository's root
//! module, which its examples call, usually comes before them), and a
//! called module's variables are kept by directory for the whole run, so
//! a module many others call is read once. Meanwhile a thread of its own
//! finds the rule levels (`halite.toml`, one look per directory); a worker
//! waits for them only to report (with the result cache, they are found
//! before the workers start: a unit's key needs them), and, where a
//! configuration declares a language of its own (`[[dialect]]`, see
//! [`crate::config::ConfigDialects`]), to make its host with that
//! registry.
//!
//! [`check_contents`] checks one file's text given rather than read (an
//! editor's buffer on standard input) the same way, in its module.
//!
//! With a [`ResultCache`] ([`check_paths_cached`]), every reported file
//! is first looked up in the cache's file index, by a thread of its own
//! beside the grouping (from when the walk's record was read, if these
//! are its files) and then by a second one too, which checks each chunk
//! holding a file found changed as soon as it is found, the lookups going
//! on meanwhile; the chunks left holding a changed file go first: a
//! changed unit is checked while the other workers report the rest. A
//! worker then hashes each unit of its
//! chunk (by the index, where it holds) and looks its key up: a unit whose
//! entry holds (and whose called modules' files are as the entry recorded
//! them, or declare for callers what they declared then) is reported from
//! the entry, its files' bytes set in a database of their own for
//! rendering, never parsed; only the other units go into the chunk's host,
//! and their results are written back. A unit whose called module is
//! itself checked in the run is put off, and looked up again by the
//! first thread out of chunks (or after every chunk), when that module's
//! interface is known; a called module not checked is read for its
//! interface from its own entry.

use std::{
    io,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicBool, AtomicUsize, Ordering},
    },
};

use analysis::{ConfigError, RuleLevels};
use camino::{Utf8Path, Utf8PathBuf};
use db::{Db, RootDatabase, module::ModuleInterface};
use rustc_hash::FxHashMap;

use crate::{
    AnalysisHost, Change, Contents, HostOptions, Limits, LocatedDiagnostic, Membership, Values,
    blocks::Blocks,
    cache::{self, Dependency, Entry, Key, ResultCache, Stamp, StoredDiagnostic, UnitFile},
    config::RuleLevelsFinder,
    lock,
};

/// Files checked in one host, at least (but in the last chunk). A worker
/// holds one chunk's trees and memos at a time, and smaller chunks peaked
/// lower for no more time (fresh pages cost their zeroing). A module is
/// never split.
pub const FILES_PER_CHUNK: usize = 32;

/// Files a chunk may grow to beyond [`FILES_PER_CHUNK`] so as to end
/// between directories of siblings rather than among them.
pub const MAX_FILES_PER_CHUNK: usize = 4 * FILES_PER_CHUNK;

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
    check_paths_replacing(paths, &Replaced::default(), None, None, None, limits, on_file, on_progress)
        .map(|checked| checked.reports)
}

/// [`check_paths`], reporting the units whose entry in `cache` holds from
/// it, and writing the others' results to it (then pruning it, if this run
/// wrote any). What `on_file` is handed is the same either way.
pub fn check_paths_cached<R: Send>(
    paths: &[Utf8PathBuf],
    limits: Limits,
    cache: Option<&ResultCache>,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Vec<R>, CheckError> {
    let levels = RuleLevelsFinder::from_current_dir().map_err(CheckError::Config)?;
    check_selected_paths(paths, None, levels, limits, cache, on_file, on_progress)
        .map(|checked| checked.reports)
}

/// What a check made of its files: what `on_file` made of each reported
/// one, in path order, and how many modules those belong to.
#[derive(Debug)]
pub struct Checked<R> {
    pub reports: Vec<R>,
    pub modules: usize,
}

/// [`check_paths_cached`] reporting only the files `selected` says, when it
/// says (by index in `paths`: a shard's, [`crate::shard::Shard::select`],
/// less those [`crate::config::excluded`]); the others are read only for
/// what the selected files' modules read of them (their module's other
/// files, a called module's variables). A path not selected gets no
/// `on_file` and no place in the result, unless it cannot be read (the
/// module it is read for is checked without it); a unit's cache entry holds all its
/// files' diagnostics either way. The rule levels are found by `levels`:
/// the finder that found the excluded files, so that no directory is
/// looked at twice.
pub fn check_selected_paths<R: Send>(
    paths: &[Utf8PathBuf],
    selected: Option<&[bool]>,
    levels: RuleLevelsFinder,
    limits: Limits,
    cache: Option<&ResultCache>,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Checked<R>, CheckError> {
    let out = check_paths_replacing(
        paths,
        &Replaced::default(),
        selected,
        Some(levels),
        cache,
        limits,
        on_file,
        on_progress,
    )?;
    if let Some(cache) = cache {
        crate::trace::mark("cache finish");
        cache.finish();
        crate::trace::mark("cache finished");
    }
    Ok(out)
}

/// Files whose contents are these bytes rather than what is on disk.
pub(crate) type Replaced = FxHashMap<Utf8PathBuf, Vec<u8>>;

/// [`check_paths`], with the files at some paths read from these bytes
/// rather than from disk, reporting only the `selected` ones, their rule
/// levels found by `levels_finder` (by a new one for the current
/// directory if `None`).
// Internal: each caller passes a different few of these.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_paths_replacing<R: Send>(
    paths: &[Utf8PathBuf],
    replaced: &Replaced,
    selected: Option<&[bool]>,
    levels_finder: Option<RuleLevelsFinder>,
    cache: Option<&ResultCache>,
    limits: Limits,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Checked<R>, CheckError> {
    // Bytes given for a path are not what a key of the path's file would
    // say.
    let cache = cache.filter(|_| replaced.is_empty());
    let stamps = cache.map(|cache| StampPass::new(cache, paths, selected, limits));
    std::thread::scope(|scope| {
        // Started first: it needs only the paths, and runs beside the
        // grouping and the rule levels, which are one thread's work.
        if let Some(stamps) = stamps.as_ref().filter(|stamps| stamps.ahead.is_none()) {
            let _ = std::thread::Builder::new().spawn_scoped(scope, || stamps.run());
        }
        check_grouped(
            paths,
            replaced,
            selected,
            levels_finder,
            cache,
            stamps.as_ref(),
            limits,
            on_file,
            on_progress,
        )
    })
}

/// [`check_paths_replacing`] once the stamp pass (with a cache) has
/// started.
#[allow(clippy::too_many_arguments)]
fn check_grouped<R: Send>(
    paths: &[Utf8PathBuf],
    replaced: &Replaced,
    selected: Option<&[bool]>,
    levels_finder: Option<RuleLevelsFinder>,
    cache: Option<&ResultCache>,
    stamps: Option<&StampPass<'_>>,
    limits: Limits,
    on_file: impl Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync,
    on_progress: impl Fn(usize) + Sync,
) -> Result<Checked<R>, CheckError> {
    crate::trace::mark("grouping");
    let units = check_units(paths);
    crate::trace::mark("grouped");
    let reported: Vec<CheckUnit> = match selected {
        None => Vec::new(),
        Some(selected) => {
            units.iter().filter(|unit| unit.files.iter().any(|&i| selected[i])).cloned().collect()
        }
    };
    let reported = if selected.is_some() { &reported[..] } else { &units[..] };
    // Keyed by text, as `check_units` groups them: a directory is named
    // one way (`vfs::module_dir` of a walk's tidy path, or a call's
    // directory resolved lexically), and hashing a `Path` walks its
    // components.
    let mut unit_of_dir: FxHashMap<&str, &CheckUnit> =
        FxHashMap::with_capacity_and_hasher(units.len(), Default::default());
    unit_of_dir.extend(units.iter().filter_map(|unit| Some((unit.dir.as_deref()?.as_str(), unit))));
    let levels: OnceLock<Result<Configured, ConfigError>> = OnceLock::new();
    let child_inputs: ChildInputs = Arc::default();
    let checker = ChunkChecker {
        paths,
        replaced,
        selected,
        cache,
        hashes: Mutex::new(vec![None; paths.len()]),
        read_hashes: Mutex::default(),
        index_of_path: OnceLock::new(),
        limits,
        unit_of_dir: &unit_of_dir,
        child_inputs,
        outside: Mutex::default(),
        levels: &levels,
        levels_digests: Mutex::default(),
        deferring: AtomicBool::new(true),
        deferred: Mutex::default(),
        on_file: &on_file,
        on_progress: &on_progress,
    };
    let chunks = chunks(reported, paths);
    // For a cached run: the chunk of each file, and which chunks a thread
    // has claimed (see below).
    let chunk_of = match stamps {
        Some(_) => chunk_of_files(&chunks, paths.len()),
        None => Vec::new(),
    };
    let taken: Vec<AtomicBool> = chunks.iter().map(|_| AtomicBool::new(false)).collect();
    let queue = Queue { chunks: OnceLock::new(), next: AtomicUsize::new(0) };
    let done = std::thread::scope(|scope| {
        if let Some(stamps) = stamps {
            // Found here before the workers start: a cached run's first
            // key needs them, and a thread of their own would only be one
            // more for a busy machine to schedule before the workers can
            // go on.
            let _ = levels.set(rule_levels(levels_finder, paths));
            crate::trace::mark("levels found");
            // From here the lookups are this thread's and another's (the
            // one that began them): one that, besides looking blocks up,
            // checks each chunk holding a file found changed from the
            // moment it is found, the other lookups going on meanwhile on
            // the other thread alone. Checking a changed unit is most of
            // a warm run's work after an edit: waiting for every lookup
            // before starting it left it the run's last, lone work, and
            // sharing a core with two threads of lookups slowed it down.
            let (checker, chunks, chunk_of, taken, queue) = (&checker, &chunks, &chunk_of, &taken, &queue);
            let early = std::thread::Builder::new()
                .stack_size(crate::DEEP_STACK)
                .spawn_scoped(scope, move || checker.check_early(stamps, chunks, chunk_of, taken, queue))
                .map_err(CheckError::Threads)?;
            // The files whose stamps the index does not know are those
            // changed: the chunks left that hold one are checked first,
            // each on a worker of its own, while the other workers (the
            // thread above among them, once it is done) report the rest
            // from the cache.
            let changed = stamps.finish(&checker.hashes, false);
            crate::trace::mark("stamps finished");
            let mut rest: Vec<&[CheckUnit]> = chunks
                .iter()
                .zip(taken)
                .filter(|(_, taken)| !taken.swap(true, Ordering::SeqCst))
                .map(|(chunk, _)| *chunk)
                .collect();
            changed_first(&mut rest, &changed);
            let _ = queue.chunks.set(rest);
            return check_in_order(checker, queue, Some(early));
        }
        // Set even if finding them panics, or the workers would wait forever.
        scope.spawn(|| {
            let find = std::panic::AssertUnwindSafe(|| rule_levels(levels_finder, paths));
            let found = std::panic::catch_unwind(find).unwrap_or_else(|_| {
                Err(ConfigError {
                    path: Utf8PathBuf::from("."),
                    position: None,
                    message: "finding the rule levels failed".into(),
                })
            });
            levels.set(found)
        });
        let _ = queue.chunks.set(chunks.clone());
        check_in_order(&checker, &queue, None)
    });
    if let Some(Err(error)) = levels.into_inner() {
        return Err(CheckError::Config(error));
    }
    let mut out: Vec<Option<R>> = (0..paths.len()).map(|_| None).collect();
    for (index, report) in done?.into_iter().flatten() {
        out[index] = Some(report);
    }
    let modules = reported.iter().filter(|unit| unit.dir.is_some()).count();
    Ok(Checked { reports: out.into_iter().flatten().collect(), modules })
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
    paths.extend(module_files_beside(path));
    paths.sort_unstable_by(|a, b| vfs::path_order(a, b));
    paths.dedup();
    let replaced = Replaced::from_iter([(path.to_owned(), bytes)]);
    let reports = check_paths_replacing(
        &paths,
        &replaced,
        None,
        None,
        None,
        limits,
        |db, index, outcome| (paths[index] == path).then(|| on_file(db, outcome)),
        |_| {},
    )?;
    Ok(reports.reports.into_iter().flatten().next().expect("the file checked is among the paths"))
}

/// The module files of the directory of the module file `path`, its own
/// among them, named as `path` is named (`main.tf`'s as `variables.tf`,
/// `a/main.tf`'s as `a/variables.tf`, so that `path` is one of them, not a
/// second file beside itself), listed and not read: a module's file is
/// checked in its module. None when `path` is no module file or its
/// directory cannot be listed.
pub fn module_files_beside(path: &Utf8Path) -> Vec<Utf8PathBuf> {
    if !vfs::is_module_file(path) {
        return Vec::new();
    }
    let parent = path.parent().unwrap_or(Utf8Path::new(""));
    vfs::list(vfs::module_dir(path), vfs::Scope::Directory, vfs::FileSet::Module)
        .unwrap_or_default()
        .iter()
        .filter_map(|file| Some(parent.join(file.file_name()?)))
        .collect()
}

/// The run's files grouped into check units, modules by directory, in the
/// order of their first files (so a chunk holds neighbours, which call each
/// other more often than strangers do).
fn check_units(paths: &[Utf8PathBuf]) -> Vec<CheckUnit> {
    // Keyed by text: hashing a `Path` walks its components.
    // Sized for a unit per file at once: grown, it was rehashed a dozen
    // times over a tree.
    let mut module_of_dir: FxHashMap<&str, usize> =
        FxHashMap::with_capacity_and_hasher(paths.len(), Default::default());
    let mut units: Vec<CheckUnit> = Vec::with_capacity(paths.len());
    // The unit of the last module file: in path order, a directory's files
    // mostly come one after another, and one of them is then known by its
    // text alone, without taking its directory apart or hashing it.
    let mut last: Option<usize> = None;
    for (index, path) in paths.iter().enumerate() {
        if !vfs::is_module_file(path) {
            units.push(CheckUnit { dir: None, files: vec![index] });
            continue;
        }
        if let Some(unit) = last
            && let Some(dir) = &units[unit].dir
            && in_dir(path.as_str(), dir.as_str())
        {
            units[unit].files.push(index);
            continue;
        }
        let dir = vfs::module_dir(path);
        let unit = match module_of_dir.get(dir.as_str()) {
            Some(&unit) => {
                units[unit].files.push(index);
                unit
            }
            None => {
                module_of_dir.insert(dir.as_str(), units.len());
                units.push(CheckUnit { dir: Some(dir.to_owned()), files: vec![index] });
                units.len() - 1
            }
        };
        last = Some(unit);
    }
    units
}

/// Whether `path` is written as a name in the directory written `dir`
/// (`dir/name`, the name a plain one), so that its module's directory,
/// as [`vfs::module_dir`] finds it, is `dir`.
fn in_dir(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .and_then(|rest| rest.strip_prefix('/'))
        .is_some_and(|name| !matches!(name, "" | "." | "..") && !name.contains('/'))
}

/// Whether a unit reads its sibling units by path
/// ([`vfs::FileKind::reads_sibling_units`]: a Terragrunt unit does). A
/// module reads only its children, which its chunk loads beside it
/// wherever they are, and its larger chunk would only hold more at once
/// (over the corpus, 2% more work and 10 MB more).
fn reads_siblings(unit: &CheckUnit, paths: &[Utf8PathBuf]) -> bool {
    unit.files
        .iter()
        .any(|&file| vfs::FileKind::of(&paths[file]).is_some_and(vfs::FileKind::reads_sibling_units))
}

/// The units in chunks of at least [`FILES_PER_CHUNK`] files (but the
/// last). Where that many would end a chunk inside a directory (between
/// two units whose directories share it) after a unit that reads its
/// siblings ([`reads_siblings`]), the chunk goes on to the end of that
/// directory if it comes within [`MAX_FILES_PER_CHUNK`] files: what a chunk
/// reads of a unit in another chunk is read and parsed again there. A
/// directory of more units than that (a flat directory of units) is cut
/// every [`FILES_PER_CHUNK`] files.
fn chunks<'u>(units: &'u [CheckUnit], paths: &[Utf8PathBuf]) -> Vec<&'u [CheckUnit]> {
    // By text: where a chunk ends is only a matter of what it reads
    // twice, and taking paths apart into components was most of the cost
    // of cutting a tree into chunks.
    let places: Vec<&str> = units
        .iter()
        .map(|unit| match &unit.dir {
            Some(dir) => dir.as_str(),
            None => {
                let path = paths[unit.files[0]].as_str();
                path.rfind('/').map_or("", |at| &path[..at.max(1)])
            }
        })
        .collect();
    // How many components the directory of the unit at `index` shares
    // with that of the unit before it: how deep in the tree a chunk that
    // ends between them ends.
    let shared = |index: usize| shared_components(places[index - 1], places[index]);
    let mut out = Vec::new();
    let mut start = 0;
    while start < units.len() {
        let (mut end, mut files) = (start, 0);
        while end < units.len() && files < FILES_PER_CHUNK {
            files += units[end].files.len();
            end += 1;
        }
        if end < units.len() && reads_siblings(&units[end - 1], paths) {
            let depth = shared(end);
            let (mut further, mut grown) = (end, files);
            while further < units.len() {
                grown += units[further].files.len();
                further += 1;
                if grown > MAX_FILES_PER_CHUNK {
                    break;
                }
                if further == units.len() || shared(further) < depth {
                    end = further;
                    break;
                }
            }
        }
        out.push(&units[start..end]);
        start = end;
    }
    out
}

/// How many leading components (split at `/`) the directories written
/// `a` and `b` share, none if either is empty: the separators within
/// their common prefix, and the component it ends in if it ends one in
/// both.
fn shared_components(a: &str, b: &str) -> usize {
    if a.is_empty() || b.is_empty() {
        return 0;
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let common = a.iter().zip(b).take_while(|(a, b)| a == b).count();
    let ends_one = |text: &[u8]| text.get(common).is_none_or(|&byte| byte == b'/');
    a[..common].iter().filter(|&&byte| byte == b'/').count() + usize::from(ends_one(a) && ends_one(b))
}

type Reports<R> = Vec<Vec<(usize, R)>>;

/// Puts the chunks that hold a file `changed` says changed (by index in
/// the run's paths) first, each kind in the order it had.
fn changed_first(chunks: &mut [&[CheckUnit]], changed: &[bool]) {
    chunks.sort_by_key(|chunk| !chunk.iter().any(|unit| unit.files.iter().any(|&file| changed[file])));
}

/// The hash of the file at `path` from the file index, when `stat` says of
/// it what it said when it was hashed.
fn indexed_hash(cache: &ResultCache, path: &Utf8Path, limits: Limits) -> Option<blake3::Hash> {
    indexed_hash_of(cache, path, &std::fs::metadata(path).ok()?, limits)
}

/// [`indexed_hash`], with what `stat` said of the file.
fn indexed_hash_of(
    cache: &ResultCache,
    path: &Utf8Path,
    metadata: &std::fs::Metadata,
    limits: Limits,
) -> Option<blake3::Hash> {
    let fits = metadata.is_file() && metadata.len() <= limits.max_file_size;
    fits.then(|| cache.indexed_hash(path, &Stamp::of(metadata)))?
}

/// The reported files of a cached run looked up in the file index before
/// their units are, in blocks taken by whichever thread is free: by a
/// thread of its own from the start of the run, then by the one that
/// checks the changed chunks as they are found as well (see
/// [`ChunkChecker::check_early`]). What it finds tells which units
/// changed before any is looked up, so that those are checked first.
struct StampPass<'a> {
    /// The same lookups begun when the walk's record was read, if these
    /// are its files: the pass is then theirs.
    ahead: Option<Arc<cache::StampsAhead>>,
    cache: &'a ResultCache,
    paths: &'a [Utf8PathBuf],
    /// The files looked up (by index in `paths`).
    files: Vec<usize>,
    limits: Limits,
    /// Each file's hash as found, by its place in `files` (`None` for a
    /// file the index does not know as it is).
    work: Blocks<Option<blake3::Hash>>,
}

impl<'a> StampPass<'a> {
    fn new(
        cache: &'a ResultCache,
        paths: &'a [Utf8PathBuf],
        selected: Option<&[bool]>,
        limits: Limits,
    ) -> StampPass<'a> {
        let ahead = cache.take_stamps_ahead().filter(|ahead| ahead.covers(paths));
        let files = match ahead {
            Some(_) => Vec::new(),
            None => {
                (0..paths.len()).filter(|&index| selected.is_none_or(|selected| selected[index])).collect()
            }
        };
        let work = Blocks::new(files.len(), Option::is_none);
        StampPass { ahead, cache, paths, files, limits, work }
    }

    /// One file's hash as the index knows it, by its place in `files`.
    fn look_up(&self, at: usize) -> Option<blake3::Hash> {
        indexed_hash(self.cache, &self.paths[self.files[at]], self.limits)
    }

    /// Looks up blocks until none is left. A block that panics (none is
    /// expected) is found empty, and its files are looked up by their
    /// units.
    fn run(&self) {
        match &self.ahead {
            Some(ahead) => ahead.run(),
            None => self.work.run(|at| self.look_up(at), None),
        }
    }

    /// Waits until more than `seen` files are found changed or every file
    /// is looked up; returns the changed ones after the first `seen` (by
    /// index in the paths), and whether every file is looked up.
    fn wait_changed(&self, seen: usize) -> (Vec<usize>, bool) {
        match &self.ahead {
            Some(ahead) => ahead.wait_changed(seen),
            None => self.in_paths(self.work.wait_flagged(seen)),
        }
    }

    /// The changed files found after the first `seen` so far (by index in
    /// the paths), and whether every file is looked up, without waiting.
    fn changed_since(&self, seen: usize) -> (Vec<usize>, bool) {
        match &self.ahead {
            Some(ahead) => ahead.changed_since(seen),
            None => self.in_paths(self.work.flagged_since(seen)),
        }
    }

    /// The work's flagged files (by index in this pass's files) by index in
    /// the paths, and whether the pass is finished.
    fn in_paths(&self, (changed, finished): (Vec<usize>, bool)) -> (Vec<usize>, bool) {
        (changed.into_iter().map(|at| self.files[at]).collect(), finished)
    }

    /// Looks up the next block, if one is left; returns whether there was
    /// one.
    fn run_one(&self) -> bool {
        match &self.ahead {
            Some(ahead) => ahead.run_one(),
            None => self.work.run_one(|at| self.look_up(at), None),
        }
    }

    /// Takes the blocks left (when `help`), waits for those other threads
    /// took, and sets each file's hash the index knew in `hashes` (as the
    /// run's, by index in its paths); returns, by index in the paths,
    /// whether each file was found changed (or not there).
    /// A hash found already (by a chunk checked early, from the bytes it
    /// read) is kept. `hashes` is locked only once every file is looked
    /// up, so that such a chunk is not kept waiting meanwhile.
    fn finish(&self, hashes: &Mutex<Vec<Option<Option<blake3::Hash>>>>, help: bool) -> Vec<bool> {
        let mut changed = vec![false; self.paths.len()];
        // Locked once the lookups are done (the calls below wait for
        // them first).
        let mut locked = None;
        let mut found = |index: usize, hash: Option<blake3::Hash>| {
            let hashes = locked.get_or_insert_with(|| lock(hashes));
            match hash {
                Some(hash) => {
                    hashes[index].get_or_insert(Some(hash));
                }
                None => changed[index] = true,
            }
        };
        match &self.ahead {
            Some(ahead) => ahead.finish(help, |index, looked| match *looked {
                Some((hash, size)) if size <= self.limits.max_file_size => found(index, Some(hash)),
                _ => found(index, None),
            }),
            None => {
                if help {
                    self.work.run(|at| self.look_up(at), None);
                }
                self.work.each_result(|at, hash| found(self.files[at], *hash));
            }
        }
        changed
    }
}

/// What the cache holds for a unit.
enum Lookup {
    /// An entry that holds.
    Hit(Entry),
    /// None that holds: the unit is checked.
    Miss,
    /// An entry whose called module changed and is checked in this run:
    /// looked up again once it is.
    Later,
}

/// A unit's file as a cached run found it.
enum Hashed {
    /// Its hash from the file index: the file was not read.
    Indexed(blake3::Hash),
    /// Read, and hashed.
    Read(Vec<u8>, blake3::Hash),
    Unreadable(io::Error),
}

impl From<io::Result<(Vec<u8>, blake3::Hash)>> for Hashed {
    fn from(read: io::Result<(Vec<u8>, blake3::Hash)>) -> Hashed {
        match read {
            Ok((bytes, hash)) => Hashed::Read(bytes, hash),
            Err(error) => Hashed::Unreadable(error),
        }
    }
}

impl Hashed {
    fn hash(&self) -> Option<blake3::Hash> {
        match self {
            Hashed::Indexed(hash) | Hashed::Read(_, hash) => Some(*hash),
            Hashed::Unreadable(_) => None,
        }
    }
}

/// A unit's files as read: each one's index among the run's paths, and its
/// bytes or why they could not be read.
type UnitBytes = Vec<(usize, io::Result<Vec<u8>>)>;

/// The variables of the modules called so far, by directory, for the whole
/// run.
type ChildInputs = Arc<Mutex<FxHashMap<Utf8PathBuf, Option<Arc<ModuleInterface>>>>>;

/// A module that a unit of the run calls, in a directory that holds no
/// unit of the run (outside the paths checked, or left out of them): read
/// from disk once for the run, as `eval` and `watch` read a called module
/// ([`crate::load::children`]), so that checking one directory reports
/// on its calls what checking the whole tree does.
struct OutsideModule {
    /// Its module files with the hashes of their bytes, in path order;
    /// `None` when there are none (no module there).
    files: Option<Vec<(Utf8PathBuf, blake3::Hash)>>,
    /// What a caller reads of it, found when first asked: a warm run whose
    /// entries' record of it holds parses none of it.
    interface: OnceLock<Option<Arc<ModuleInterface>>>,
}

/// The chunk (by place in `chunks`) of each of a run's `paths` files,
/// `usize::MAX` for a file of none (one not reported).
fn chunk_of_files(chunks: &[&[CheckUnit]], paths: usize) -> Vec<usize> {
    let mut chunk_of = vec![usize::MAX; paths];
    for (at, chunk) in chunks.iter().enumerate() {
        for unit in *chunk {
            for &file in &unit.files {
                chunk_of[file] = at;
            }
        }
    }
    chunk_of
}

/// A thread's reports, or why the check could not run.
type Checking<'scope, R> = std::thread::ScopedJoinHandle<'scope, Result<Reports<R>, CheckError>>;

/// The chunks the workers take in order, each the next when done with
/// one; set once they are known (in a cached run, once every file is
/// looked up).
struct Queue<'u> {
    chunks: OnceLock<Vec<&'u [CheckUnit]>>,
    next: AtomicUsize,
}

/// Checks `queue`'s chunks on a worker thread per core (one fewer with
/// `early`, the thread that checked the changed chunks found first and
/// then works through the queue too), and returns their reports (or the
/// first error, after which the workers take no more chunks), then checks
/// the units put off that no worker checked.
fn check_in_order<R: Send>(
    checker: &ChunkChecker<'_, R>,
    queue: &Queue<'_>,
    early: Option<Checking<'_, R>>,
) -> Result<Reports<R>, CheckError> {
    let workers = crate::host::available_threads().saturating_sub(usize::from(early.is_some())).max(1);
    std::thread::scope(|scope| {
        let handles = (0..workers)
            .map(|_| {
                std::thread::Builder::new().stack_size(crate::DEEP_STACK).spawn_scoped(scope, move || {
                    let mut reports = Vec::new();
                    // The database of the files reported from the cache,
                    // for the worker's whole run: creating one per chunk
                    // was a tenth of a warm run.
                    let mut hits: Option<RootDatabase> = None;
                    crate::trace::mark("worker starts");
                    checker.work_through(queue, &mut hits, &mut reports)?;
                    crate::trace::mark("worker ends");
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
        if let Some(early) = early {
            out.extend(early.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?);
        }
        crate::trace::mark("workers done");
        // The units put off that are left: what their called modules
        // declare is known now (or is read for them).
        checker.deferring.store(false, Ordering::Relaxed);
        let deferred = std::mem::take(&mut *lock(&checker.deferred));
        if !deferred.is_empty() {
            let last = std::thread::Builder::new()
                .stack_size(crate::DEEP_STACK)
                .spawn_scoped(scope, move || checker.check(&deferred, &mut None))
                .map_err(CheckError::Threads)?;
            out.push(last.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))?);
            crate::trace::mark("deferred done");
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
    cache: Option<&'a ResultCache>,
    /// The hash of each file read so far, by index in `paths` (`None`
    /// for one not read yet), or `None` when it could not be read: a
    /// unit's key and what its entry says of the modules it calls are
    /// checked against them. Sized for every path at once: a map grown
    /// file after file cost a warm run fresh pages at each rehash.
    hashes: Mutex<Vec<Option<Option<blake3::Hash>>>>,
    /// The hash of each file read by path so far (see [`ChunkChecker::reads`]).
    read_hashes: Mutex<FxHashMap<Utf8PathBuf, Option<blake3::Hash>>>,
    /// Each of `paths` by its text (see [`ChunkChecker::index_of`]).
    index_of_path: OnceLock<FxHashMap<&'a str, usize>>,
    limits: Limits,
    unit_of_dir: &'a FxHashMap<&'a str, &'a CheckUnit>,
    /// The variables of the modules called so far, by directory.
    child_inputs: ChildInputs,
    /// The modules called whose directories hold no unit of the run, as
    /// read from disk (see [`OutsideModule`]), by directory; `None` for
    /// one that could not be read.
    outside: Mutex<FxHashMap<Utf8PathBuf, Option<Arc<OutsideModule>>>>,
    levels: &'a OnceLock<Result<Configured, ConfigError>>,
    /// The digest of each of the run's rule levels, by the address of
    /// its `Arc` (held by `levels` for the whole run).
    levels_digests: Mutex<FxHashMap<usize, blake3::Hash>>,
    /// Whether a unit whose entry waits on a called module checked again
    /// in this run is put off (to `deferred`) until the other chunks are
    /// done, rather than reading that module for what it declares.
    deferring: AtomicBool,
    deferred: Mutex<Vec<CheckUnit>>,
    on_file: &'a (dyn Fn(&RootDatabase, usize, FileOutcome<'_>) -> R + Sync),
    on_progress: &'a (dyn Fn(usize) + Sync),
}

impl<R: Send> ChunkChecker<'_, R> {
    /// Looks up blocks of `stamps` beside the thread that began them, and
    /// checks each chunk of `chunks` (by `chunk_of` each file) that holds
    /// a file found changed as soon as it is found, claiming it in
    /// `taken` first so that it is checked once; once every file is
    /// looked up, works through `queue` as a worker does.
    fn check_early(
        &self,
        stamps: &StampPass<'_>,
        chunks: &[&[CheckUnit]],
        chunk_of: &[usize],
        taken: &[AtomicBool],
        queue: &Queue<'_>,
    ) -> Result<Reports<R>, CheckError> {
        let mut reports = Vec::new();
        let mut hits: Option<RootDatabase> = None;
        let mut seen = 0;
        loop {
            let (changed, finished) = stamps.changed_since(seen);
            seen += changed.len();
            for file in changed {
                let Some(&at) = chunk_of.get(file).filter(|&&at| at != usize::MAX) else { continue };
                if taken[at].swap(true, Ordering::SeqCst) {
                    continue;
                }
                crate::trace::mark("early chunk");
                reports.push(self.check(chunks[at], &mut hits)?);
            }
            if finished {
                break;
            }
            // No block left to take: the other thread's last ones, which
            // may find a file changed.
            if !stamps.run_one() {
                stamps.wait_changed(seen);
            }
        }
        self.work_through(queue, &mut hits, &mut reports)?;
        Ok(reports)
    }

    /// Checks `queue`'s chunks, each the next not taken, then the units
    /// put off so far.
    fn work_through(
        &self,
        queue: &Queue<'_>,
        hits: &mut Option<RootDatabase>,
        reports: &mut Reports<R>,
    ) -> Result<(), CheckError> {
        let chunks = queue.chunks.wait();
        while let Some(chunk) = chunks.get(queue.next.fetch_add(1, Ordering::Relaxed)) {
            match self.check(chunk, hits) {
                Ok(chunk_reports) => reports.push(chunk_reports),
                Err(error) => {
                    queue.next.store(chunks.len(), Ordering::Relaxed);
                    return Err(error);
                }
            }
        }
        reports.extend(self.check_deferred(hits)?);
        Ok(())
    }

    /// Checks the units put off so far, as a thread that has no more
    /// chunks to check finds them (those whose called module is still
    /// being checked are put off again, for the last pass): a caller of
    /// a changed module is then checked as soon as the module is, not
    /// after every other chunk.
    fn check_deferred(&self, hits: &mut Option<RootDatabase>) -> Result<Option<Vec<(usize, R)>>, CheckError> {
        let deferred = std::mem::take(&mut *lock(&self.deferred));
        if deferred.is_empty() {
            return Ok(None);
        }
        crate::trace::mark("deferred, early");
        self.check(&deferred, hits).map(Some)
    }

    /// Checks `chunk`, setting the files of units reported from the cache
    /// in `hits` (created on the first).
    fn check(
        &self,
        chunk: &[CheckUnit],
        hits: &mut Option<RootDatabase>,
    ) -> Result<Vec<(usize, R)>, CheckError> {
        let mut out = Vec::new();
        // The units to check, with their files' bytes and their keys.
        let mut to_check: Vec<(&CheckUnit, UnitBytes, Option<Key>)> = Vec::new();
        for unit in chunk {
            let Some(cache) = self.cache else {
                to_check.push((unit, self.read_bytes(unit), None));
                continue;
            };
            let mut hashed = self.hash_unit(cache, unit);
            let hashes: Vec<(usize, Option<blake3::Hash>)> =
                hashed.iter().map(|(index, file)| (*index, file.hash())).collect();
            let found = match self.unit_key(cache, unit, &hashes)? {
                Some(key) => self.lookup(cache, &key, unit),
                None => Lookup::Miss,
            };
            if let Lookup::Later = found {
                lock(&self.deferred).push(unit.clone());
                continue;
            }
            if let Lookup::Hit(entry) = found
                && self.read_for_rendering(cache, &mut hashed, &entry)
            {
                let db = hits.get_or_insert_with(RootDatabase::new);
                self.report_hit(db, hashed, &entry, &mut out);
                (self.on_progress)(unit.files.len());
                continue;
            }
            // The key again, of the bytes checked: a file known by the
            // index is read now, and may have changed since.
            let (read, hashes) = self.read_hashed(cache, hashed);
            let key = self.unit_key(cache, unit, &hashes)?;
            to_check.push((unit, read, key));
        }
        if to_check.is_empty() {
            return Ok(out);
        }
        crate::trace::mark_with(|| format!("checking {} units from {:?}", to_check.len(), to_check[0].0.dir));
        // A language a configuration declares is in the registry the host
        // chooses modules' dialects from: the configurations are needed
        // before any module is made.
        let mut host = self.chunk_host(self.configured()?);
        let inputs = Arc::clone(&self.child_inputs);
        host.set_external_inputs(Arc::new(move |dir: &Utf8Path| lock(&inputs).get(dir).cloned().flatten()));
        let mut change = Change::new();
        let mut unreadable: FxHashMap<usize, io::Error> = FxHashMap::default();
        let mut keys = Vec::with_capacity(to_check.len());
        for (unit, read, key) in to_check {
            Self::add(&mut change, unit, read, true, &mut unreadable, self.paths, host.db().dialects());
            keys.push((unit, key));
        }
        host.apply_change(change);
        // The files units include and the units they depend on, read once
        // per chunk for all of them, before the modules they call are
        // looked for (a dependency's unit names the module it deploys).
        host.load_reads();
        // A module calling a local module of another chunk (or of none
        // checked yet) has that child read here too, unless its variables
        // are known already.
        let mut children = Change::new();
        let mut loaded: Vec<Utf8PathBuf> = Vec::new();
        for dir in host.module_dirs().map(Utf8Path::to_owned).collect::<Vec<_>>() {
            let Some(module) = host.module(&dir) else { continue };
            for call in db::module::module_calls(host.db(), module) {
                if host.module(&call.dir).is_some()
                    || loaded.contains(&call.dir)
                    || lock(&self.child_inputs).contains_key(&call.dir)
                {
                    continue;
                }
                let Some(unit) = self.unit_of_dir.get(call.dir.as_str()) else {
                    // No file of the run there: the module as it is on
                    // disk, read once for the run.
                    if let Some(outside) = self.outside_module(&call.dir) {
                        let interface = self.outside_interface(&call.dir, &outside);
                        lock(&self.child_inputs).entry(call.dir.clone()).or_insert(interface);
                    }
                    continue;
                };
                // Unchanged since its entry was written: what the caller
                // reads of it is there.
                if let Some(interface) = self.stored_interface(unit) {
                    lock(&self.child_inputs).entry(call.dir.clone()).or_insert(interface);
                    continue;
                }
                // A child's unreadable file is reported where it is
                // checked, in its own chunk.
                let read = self.read_bytes(unit);
                let dialects = host.db().dialects();
                Self::add(&mut children, unit, read, false, &mut FxHashMap::default(), self.paths, dialects);
                loaded.push(call.dir.clone());
            }
        }
        host.apply_change(children);
        let levels = self.levels()?;
        let mut with_levels = Change::new();
        for (unit, _) in &keys {
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
                let inputs = db::module::child_interface(host.db(), module);
                lock(&self.child_inputs).entry(dir).or_insert(inputs);
            }
        }
        let mut by_path: FxHashMap<&Utf8Path, Vec<LocatedDiagnostic>> = FxHashMap::default();
        for change in &report.diagnostics {
            by_path.entry(change.diagnostic.path.as_path()).or_default().push(change.diagnostic.clone());
        }
        for (unit, key) in keys {
            // Stored only when every file was read and the unit's module
            // calls' files could be hashed.
            let mut stored = key.is_some().then(|| Vec::with_capacity(unit.files.len()));
            for &index in &unit.files {
                if let Some(error) = unreadable.get(&index) {
                    // Said even of a file not reported (a named file's
                    // module sibling, an excluded file): the reported
                    // files' module was checked without it.
                    out.push((index, (self.on_file)(host.db(), index, Err(error))));
                    stored = None;
                    continue;
                }
                let mut diagnostics = by_path.remove(self.paths[index].as_path()).unwrap_or_default();
                diagnostics.sort_by_key(|it| (it.diagnostic.range.start(), it.diagnostic.range.end()));
                if let Some(stored) = &mut stored {
                    stored.push(diagnostics.iter().map(StoredDiagnostic::new).collect());
                }
                if self.is_selected(index) {
                    out.push((index, (self.on_file)(host.db(), index, Ok(&diagnostics))));
                }
            }
            if let (Some(cache), Some(key), Some(files)) = (self.cache, key, stored)
                && let Some(dependencies) = self.dependencies(&host, unit)
            {
                // What a caller reads of it, for callers checked again
                // while it is not.
                let interface = unit.dir.as_deref().map(|dir| {
                    let interface =
                        host.module(dir).and_then(|module| db::module::child_interface(host.db(), module));
                    cache::StoredInterface::new(interface.as_deref())
                });
                let reads = self.reads(&host, unit);
                cache.store(&key, &Entry { dependencies, reads, files, interface });
            }
            (self.on_progress)(unit.files.len());
        }
        crate::trace::mark("checked");
        Ok(out)
    }

    /// Reads `unit`'s files from disk (or the bytes given for one), and
    /// records the hash of each for the cache (a called module's, read for
    /// its variables).
    fn read_bytes(&self, unit: &CheckUnit) -> UnitBytes {
        let read: UnitBytes = unit
            .files
            .iter()
            .map(|&index| {
                if let Some(bytes) = self.replaced.get(&self.paths[index]) {
                    return (index, Ok(bytes.clone()));
                }
                let read = vfs::read_file(&self.paths[index], self.limits.max_file_size);
                (index, read.map(|file| file.bytes).map_err(io::Error::from))
            })
            .collect();
        if self.cache.is_some() {
            let mut hashes = lock(&self.hashes);
            for (index, bytes) in &read {
                hashes[*index] = Some(bytes.as_ref().ok().map(|bytes| cache::hash_bytes(bytes)));
            }
        }
        read
    }

    /// Adds `unit`'s files, as read, to `change`: as a reported module (or
    /// a file of none), or as a module read for its variables. A file that
    /// could not be read goes into `unreadable` instead, and the others of
    /// its module are checked each on its own: the module's rules would
    /// take what the missing file declares for undeclared.
    fn add(
        change: &mut Change,
        unit: &CheckUnit,
        read: UnitBytes,
        reported: bool,
        unreadable: &mut FxHashMap<usize, io::Error>,
        paths: &[Utf8PathBuf],
        dialects: &db::module::Dialects,
    ) {
        let mut whole = true;
        let mut bytes_read = Vec::with_capacity(read.len());
        for (index, bytes) in read {
            match bytes {
                Ok(bytes) => bytes_read.push((index, bytes)),
                Err(error) => {
                    whole = false;
                    unreadable.insert(index, error);
                }
            }
        }
        for (index, bytes) in bytes_read {
            let path = paths[index].clone();
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
            // The units its dialects group apart from the directory's
            // module (a `terragrunt.hcl` beside `.tf` files).
            for &index in &unit.files {
                if let Some(key) = dialects.unit_of(&paths[index]).filter(|key| key != dir) {
                    change.set_reported(key, reported);
                }
            }
        }
    }

    /// The key of `unit` whose files (by index) hash so, or `None` when a
    /// file could not be read (such a unit is checked every time).
    fn unit_key(
        &self,
        cache: &ResultCache,
        unit: &CheckUnit,
        hashes: &[(usize, Option<blake3::Hash>)],
    ) -> Result<Option<Key>, CheckError> {
        let levels = self.levels()?;
        let mut digests: Vec<(blake3::Hash, blake3::Hash)> = Vec::with_capacity(hashes.len());
        // The files of a directory share their levels, most often.
        let mut last: Option<(&Arc<RuleLevels>, blake3::Hash)> = None;
        for &(index, hash) in hashes {
            let Some(hash) = hash else { return Ok(None) };
            let file_levels = &levels[index];
            let levels_digest = match last {
                Some((seen, digest)) if Arc::ptr_eq(seen, file_levels) => digest,
                _ => self.levels_digest(file_levels)?,
            };
            last = Some((file_levels, levels_digest));
            digests.push((levels_digest, hash));
        }
        let files: Vec<UnitFile<'_>> = hashes
            .iter()
            .zip(&digests)
            .map(|((index, _), (levels, bytes))| UnitFile { path: &self.paths[*index], levels, bytes })
            .collect();
        Ok(Some(cache.unit_key(self.limits, unit.dir.as_deref(), &files)))
    }

    /// The hash of each of `unit`'s files: as found already in this run
    /// (for a caller's entry, when the unit is a called module), else from
    /// the file index when what `stat` says of the file is as it was when
    /// it was last hashed, else read and hashed (the bytes kept for the
    /// check). A hash found already is taken as the index's would be: the
    /// bytes are read only if the unit is checked or quoted.
    fn hash_unit(&self, cache: &ResultCache, unit: &CheckUnit) -> Vec<(usize, Hashed)> {
        let known: Vec<Option<blake3::Hash>> = {
            let hashes = lock(&self.hashes);
            unit.files.iter().map(|&index| hashes[index].flatten()).collect()
        };
        let hashed: Vec<(usize, Hashed)> = unit
            .files
            .iter()
            .zip(known)
            .map(|(&index, known)| match known {
                Some(hash) => (index, Hashed::Indexed(hash)),
                None => (index, self.hash_file(cache, index)),
            })
            .collect();
        let mut hashes = lock(&self.hashes);
        for (index, file) in &hashed {
            hashes[*index] = Some(file.hash());
        }
        hashed
    }

    /// The file at `paths[index]` hashed, by the file index if it can be.
    fn hash_file(&self, cache: &ResultCache, index: usize) -> Hashed {
        let path = &self.paths[index];
        let metadata = std::fs::metadata(path).ok();
        if let Some(metadata) = &metadata
            && let Some(hash) = indexed_hash_of(cache, path, metadata, self.limits)
        {
            return Hashed::Indexed(hash);
        }
        self.read_and_index(cache, index, metadata.is_some_and(|it| it.is_file())).into()
    }

    /// The file at `paths[index]` read and hashed, and recorded in the
    /// file index as `stat` found the file opened before reading it.
    /// `found_regular`: a `stat` just found a regular file there (the
    /// file index's lookup, or the caller's own), so it is opened without
    /// another `stat` first (a warm run that shows source text reads every
    /// file with a diagnostic, and one after an edit every changed file).
    fn read_and_index(
        &self,
        cache: &ResultCache,
        index: usize,
        found_regular: bool,
    ) -> io::Result<(Vec<u8>, blake3::Hash)> {
        let path = &self.paths[index];
        let max_size = self.limits.max_file_size;
        let file = if found_regular {
            vfs::read_found_regular_file(path, max_size)?
        } else {
            vfs::read_file(path, max_size)?
        };
        let hash = cache::hash_bytes(&file.bytes);
        cache.index_file(path, Stamp::of(&file.metadata), hash);
        Ok((file.bytes, hash))
    }

    /// The files of a unit to check, every one read (those the index
    /// hashed read now), and the hash of each.
    fn read_hashed(
        &self,
        cache: &ResultCache,
        hashed: Vec<(usize, Hashed)>,
    ) -> (UnitBytes, Vec<(usize, Option<blake3::Hash>)>) {
        let mut unit_bytes = Vec::with_capacity(hashed.len());
        let mut hashes = Vec::with_capacity(hashed.len());
        for (index, file) in hashed {
            let read = match file {
                Hashed::Indexed(_) => self.read_and_index(cache, index, true),
                Hashed::Read(bytes, hash) => Ok((bytes, hash)),
                Hashed::Unreadable(error) => Err(error),
            };
            hashes.push((index, read.as_ref().ok().map(|(_, hash)| *hash)));
            unit_bytes.push((index, read.map(|(bytes, _)| bytes)));
        }
        let mut known = lock(&self.hashes);
        for &(index, hash) in &hashes {
            known[index] = Some(hash);
        }
        drop(known);
        (unit_bytes, hashes)
    }

    /// Reads the files of a unit whose entry holds that have diagnostics
    /// to show, for the renderers to quote their lines; `false` when one
    /// no longer has the bytes its hash says (changed since: the unit is
    /// checked again).
    fn read_for_rendering(&self, cache: &ResultCache, hashed: &mut [(usize, Hashed)], entry: &Entry) -> bool {
        if !cache.reads_source_text() {
            return true;
        }
        for ((index, file), stored) in hashed.iter_mut().zip(&entry.files) {
            if stored.is_empty() || !self.is_selected(*index) {
                continue;
            }
            if let Hashed::Indexed(hash) = *file {
                *file = self.read_and_index(cache, *index, true).into();
                if file.hash() != Some(hash) {
                    return false;
                }
            }
        }
        true
    }

    /// The entry of `key`, if it is `unit`'s, the
    /// files it read by path are as they were, and the modules it read are
    /// as they were or declare for callers what they did: a called
    /// module whose files changed is read for its interface (once per run),
    /// and where that is the same, the entry holds and is written again
    /// with the called module's files as they are now, so that the next
    /// run need not read them.
    fn lookup(&self, cache: &ResultCache, key: &Key, unit: &CheckUnit) -> Lookup {
        let Some(mut entry) = cache.load(key) else { return Lookup::Miss };
        if entry.files.len() != unit.files.len()
            || !entry.reads.iter().all(|read| self.read_hash(&read.path) == read.hash)
        {
            return Lookup::Miss;
        }
        let mut refreshed = false;
        for dependency in &mut entry.dependencies {
            if self.dependency_holds(dependency) {
                continue;
            }
            // A called module checked again in this run: what it declares
            // is known once its chunk is done, without reading it here.
            if self.deferring.load(Ordering::Relaxed)
                && !lock(&self.child_inputs).contains_key(&dependency.dir)
                && self
                    .unit_of_dir
                    .get(dependency.dir.as_str())
                    .is_some_and(|called| self.stored_interface(called).is_none())
            {
                return Lookup::Later;
            }
            let Some((interface, files)) = self.interface_now(&dependency.dir) else { return Lookup::Miss };
            if interface != dependency.interface {
                return Lookup::Miss;
            }
            dependency.files = files;
            refreshed = true;
        }
        if refreshed {
            cache.store(key, &entry);
        }
        Lookup::Hit(entry)
    }

    /// The [`cache::interface_digest`] of the module in `dir` as a caller
    /// checked now would read it, with its files and their hashes as read
    /// for it (`None` for a directory of no file of the run); `None` when
    /// a file of it cannot be read. Read in a host of its own, and kept
    /// for the run's callers.
    #[allow(clippy::type_complexity)]
    fn interface_now(
        &self,
        dir: &Utf8Path,
    ) -> Option<(blake3::Hash, Option<Vec<(Utf8PathBuf, blake3::Hash)>>)> {
        let Some(unit) = self.unit_of_dir.get(dir.as_str()) else {
            // No file of the run there: the module on disk, if any.
            let outside = self.outside_module(dir)?;
            let interface = self.outside_interface(dir, &outside);
            return Some((cache::interface_digest(interface.as_deref()), outside.files.clone()));
        };
        let mut known = lock(&self.child_inputs).get(dir).cloned();
        if known.is_none()
            && let Some(interface) = self.stored_interface(unit)
        {
            known = Some(lock(&self.child_inputs).entry(dir.to_owned()).or_insert(interface).clone());
        }
        let (interface, files) = match known {
            // Found by a chunk of this run, from the files as it read them.
            Some(interface) => {
                let files = unit
                    .files
                    .iter()
                    .map(|&index| Some((self.paths[index].clone(), self.file_hash(index)?)))
                    .collect::<Option<Vec<_>>>()?;
                (interface, files)
            }
            None => {
                let read = self.read_bytes(unit);
                let mut files = Vec::with_capacity(read.len());
                for (index, bytes) in &read {
                    files.push((self.paths[*index].clone(), cache::hash_bytes(bytes.as_ref().ok()?)));
                }
                let mut host = self.chunk_host(self.configured().ok()?);
                let mut change = Change::new();
                let dialects = host.db().dialects();
                Self::add(&mut change, unit, read, false, &mut FxHashMap::default(), self.paths, dialects);
                host.apply_change(change);
                let interface =
                    host.module(dir).and_then(|module| db::module::child_interface(host.db(), module));
                let interface = lock(&self.child_inputs).entry(dir.to_owned()).or_insert(interface).clone();
                (interface, files)
            }
        };
        Some((cache::interface_digest(interface.as_deref()), Some(files)))
    }

    /// The module called in `dir`, a directory of no unit of the run, as
    /// it is on disk (looked at once for the run); `None` when it cannot be
    /// read (a caller's entry is then not stored: it is checked each
    /// time).
    fn outside_module(&self, dir: &Utf8Path) -> Option<Arc<OutsideModule>> {
        if let Some(known) = lock(&self.outside).get(dir) {
            return known.clone();
        }
        let read = self.read_outside_module(dir).map(Arc::new);
        lock(&self.outside).entry(dir.to_owned()).or_insert(read).clone()
    }

    /// Its files listed and hashed (through the file index: an unchanged
    /// file is not read), not parsed.
    fn read_outside_module(&self, dir: &Utf8Path) -> Option<OutsideModule> {
        let none = OutsideModule { files: None, interface: OnceLock::new() };
        if !dir.is_dir() {
            return Some(none);
        }
        let listed = vfs::list(dir, vfs::Scope::Directory, vfs::FileSet::Module).ok()?;
        if listed.is_empty() {
            return Some(none);
        }
        let files = listed
            .into_iter()
            .map(|path| {
                let hash = self.read_hash(&path)?;
                Some((path, hash))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(OutsideModule { files: Some(files), interface: OnceLock::new() })
    }

    /// What a caller reads of the module `outside` in `dir`: its files read
    /// and parsed in a host of their own, once for the run.
    fn outside_interface(&self, dir: &Utf8Path, outside: &OutsideModule) -> Option<Arc<ModuleInterface>> {
        outside
            .interface
            .get_or_init(|| {
                outside.files.as_ref()?;
                let change = crate::load::child(dir, self.limits.max_file_size).ok()?;
                let mut host = self.chunk_host(self.configured().ok()?);
                host.apply_change(change);
                host.module(dir).and_then(|module| db::module::child_interface(host.db(), module))
            })
            .clone()
    }

    /// What callers read of the module `unit`, as the cache's entry for
    /// its files as they are now holds it, if there is one.
    fn stored_interface(&self, unit: &CheckUnit) -> Option<Option<Arc<ModuleInterface>>> {
        let cache = self.cache?;
        let hashes: Vec<(usize, Option<blake3::Hash>)> =
            unit.files.iter().map(|&index| (index, self.file_hash(index))).collect();
        let key = self.unit_key(cache, unit, &hashes).ok()??;
        cache.load(&key)?.interface?.decode()
    }

    /// Whether a directory a unit read has the module files it had, with
    /// the same bytes (or, as then, none): the run's files there, or else
    /// the module on disk there ([`OutsideModule`]).
    fn dependency_holds(&self, dependency: &Dependency) -> bool {
        match (self.unit_of_dir.get(dependency.dir.as_str()), &dependency.files) {
            (None, files) => {
                self.outside_module(&dependency.dir).is_some_and(|outside| outside.files == *files)
            }
            (Some(unit), Some(files)) => {
                // The paths by text, as the entry recorded the run's
                // (comparing them as paths parses their components).
                unit.files.len() == files.len()
                    && unit.files.iter().zip(files).all(|(&index, (path, hash))| {
                        self.paths[index].as_str() == path.as_str() && self.file_hash(index) == Some(*hash)
                    })
            }
            _ => false,
        }
    }

    /// The hash of the file at `paths[index]`, found now unless it was.
    fn file_hash(&self, index: usize) -> Option<blake3::Hash> {
        if let Some(hash) = lock(&self.hashes)[index] {
            return hash;
        }
        let hash = match self.cache {
            Some(cache) => self.hash_file(cache, index).hash(),
            None => vfs::read_file(&self.paths[index], self.limits.max_file_size)
                .ok()
                .map(|file| cache::hash_bytes(&file.bytes)),
        };
        lock(&self.hashes)[index] = Some(hash);
        hash
    }

    /// The host's modules of `unit`'s files: its directory's, and each file
    /// its dialect groups alone (a Terragrunt unit beside the Terraform
    /// module it deploys), in the order of its files.
    fn modules_of(&self, host: &AnalysisHost, unit: &CheckUnit) -> Vec<db::module::Module> {
        let mut out = Vec::new();
        for &index in &unit.files {
            if let Some(key) = host.db().dialects().unit_of(&self.paths[index])
                && let Some(module) = host.module(&key)
                && !out.contains(&module)
            {
                out.push(module);
            }
        }
        out
    }

    /// The files a checked `unit` read by path (see
    /// [`db::module::module_reads`]): each read's candidates up to the
    /// first that exists, with its hash, as the cache checks them again.
    fn reads(&self, host: &AnalysisHost, unit: &CheckUnit) -> Vec<cache::FileRead> {
        let mut out: Vec<cache::FileRead> = Vec::new();
        let modules = self.modules_of(host, unit);
        for read in modules.iter().flat_map(|&module| db::module::module_reads(host.db(), module)) {
            for path in read.candidates.iter() {
                let hash = self.read_hash(path);
                out.push(cache::FileRead { path: path.clone(), hash });
                if hash.is_some() {
                    break;
                }
            }
        }
        out
    }

    /// The hash of the bytes of the file at `path` as read now, `None`
    /// when there is none to read (read once per run; by the file index
    /// when `stat` says of the file what it said when it was hashed).
    fn read_hash(&self, path: &Utf8Path) -> Option<blake3::Hash> {
        // One of the run's files (a Terragrunt unit's include is most
        // often one): hashed once for the run, with its unit's.
        if let Some(index) = self.index_of(path) {
            return self.file_hash(index);
        }
        if let Some(&hash) = lock(&self.read_hashes).get(path) {
            return hash;
        }
        let read = || {
            let file = vfs::read_file(path, self.limits.max_file_size).ok()?;
            let hash = cache::hash_bytes(&file.bytes);
            if let Some(cache) = self.cache {
                cache.index_file(path, Stamp::of(&file.metadata), hash);
            }
            Some(hash)
        };
        let hash = match self.cache {
            // Most of these are candidates with no file there (each
            // directory above a Terragrunt unit, say): one `stat` says so.
            Some(cache) => match std::fs::metadata(path) {
                Err(error) if error.kind() == io::ErrorKind::NotFound => None,
                metadata => {
                    metadata.ok().and_then(|metadata| indexed_hash_of(cache, path, &metadata, self.limits))
                }
                .or_else(read),
            },
            None => read(),
        };
        lock(&self.read_hashes).insert(path.to_owned(), hash);
        hash
    }

    /// The index among the run's paths of the one written as `path` is,
    /// if any (the table made on the first question: a run without
    /// Terragrunt units asks none).
    fn index_of(&self, path: &Utf8Path) -> Option<usize> {
        let index_of_path = self.index_of_path.get_or_init(|| {
            self.paths.iter().enumerate().map(|(index, path)| (path.as_str(), index)).collect()
        });
        index_of_path.get(path.as_str()).copied()
    }

    /// What a checked `unit` read beyond its own files: the directories of
    /// the local modules it calls, each with its files' hashes. `None`
    /// when one of those files could not be read (the result is then not
    /// stored).
    fn dependencies(&self, host: &AnalysisHost, unit: &CheckUnit) -> Option<Vec<Dependency>> {
        let mut dirs: Vec<&Utf8Path> = self
            .modules_of(host, unit)
            .into_iter()
            .flat_map(|module| db::module::module_calls(host.db(), module))
            .map(|call| call.dir.as_path())
            .collect();
        dirs.sort_unstable();
        dirs.dedup();
        dirs.into_iter()
            .map(|dir| {
                let files = match self.unit_of_dir.get(dir.as_str()) {
                    None => self.outside_module(dir)?.files.clone(),
                    Some(called) => Some(
                        called
                            .files
                            .iter()
                            .map(|&index| Some((self.paths[index].clone(), self.file_hash(index)?)))
                            .collect::<Option<Vec<_>>>()?,
                    ),
                };
                // What the report read of it: as the host finds a call's
                // child, in the host or else among the run's.
                let interface = match host.module(dir) {
                    Some(child) => db::module::child_interface(host.db(), child),
                    None => lock(&self.child_inputs).get(dir).cloned().flatten(),
                };
                let interface = cache::interface_digest(interface.as_deref());
                Some(Dependency { dir: dir.to_owned(), files, interface })
            })
            .collect()
    }

    /// Hands each file of a unit whose entry held (as `hashed`) its
    /// diagnostics from the entry, its bytes set in `db` (which only
    /// decodes them) when it has any, for rendering; a file not read (the
    /// caller quotes no source) is set empty.
    fn report_hit(
        &self,
        db: &mut RootDatabase,
        hashed: Vec<(usize, Hashed)>,
        entry: &Entry,
        out: &mut Vec<(usize, R)>,
    ) {
        for ((index, file), stored) in hashed.into_iter().zip(&entry.files) {
            if !self.is_selected(index) {
                continue;
            }
            let path = &self.paths[index];
            let diagnostics: Vec<LocatedDiagnostic> = match file {
                _ if stored.is_empty() => Vec::new(),
                Hashed::Read(bytes, _) => {
                    let file = db.set_file_bytes(path.clone(), &bytes);
                    stored.iter().map(|diagnostic| diagnostic.located(file, path)).collect()
                }
                Hashed::Indexed(_) => {
                    let file = db.set_file_bytes(path.clone(), &[]);
                    stored.iter().map(|diagnostic| diagnostic.located(file, path)).collect()
                }
                Hashed::Unreadable(_) => Vec::new(),
            };
            out.push((index, (self.on_file)(db, index, Ok(&diagnostics))));
        }
    }

    /// Whether the file at `paths[index]` is reported.
    fn is_selected(&self, index: usize) -> bool {
        self.selected.is_none_or(|selected| selected[index])
    }

    /// The rule levels of every file, once they are found.
    fn levels(&self) -> Result<&[Arc<RuleLevels>], CheckError> {
        Ok(&self.configured()?.levels)
    }

    /// What the configurations say, once they are found.
    /// A host for one chunk of units (or one unit's interface): one
    /// thread, no values, no query log, dropped after its report, with
    /// the dialects the configuration declares.
    fn chunk_host(&self, configured: &Configured) -> AnalysisHost {
        let options = HostOptions {
            values: Values::None,
            threads: 1,
            limits: self.limits,
            query_log: false,
            reports_once: true,
            block_structure: false,
        };
        match &configured.dialects {
            Some(dialects) => AnalysisHost::with_dialects(options, dialects.registry.clone()),
            None => AnalysisHost::new(options),
        }
    }

    fn configured(&self) -> Result<&Configured, CheckError> {
        match self.levels.wait() {
            Ok(configured) => Ok(configured),
            Err(error) => Err(CheckError::Config(error.clone())),
        }
    }

    /// The digest of `levels` (one of the run's, which live as long as
    /// it does) with what the configurations' languages declare, found
    /// once per run for each configuration: most files share one.
    fn levels_digest(&self, levels: &Arc<RuleLevels>) -> Result<blake3::Hash, CheckError> {
        let address = Arc::as_ptr(levels) as usize;
        if let Some(&digest) = lock(&self.levels_digests).get(&address) {
            return Ok(digest);
        }
        let digest = self.with_dialects(cache::levels_digest(levels))?;
        lock(&self.levels_digests).insert(address, digest);
        Ok(digest)
    }

    /// A file's levels' digest, with what the configurations' languages
    /// declare when they declare one: a cached result holds for the
    /// schemas it was checked against.
    fn with_dialects(&self, levels: blake3::Hash) -> Result<blake3::Hash, CheckError> {
        Ok(match &self.configured()?.dialects {
            Some(dialects) => {
                let mut hasher = blake3::Hasher::new();
                hasher.update(levels.as_bytes());
                hasher.update(dialects.digest.as_bytes());
                hasher.finalize()
            }
            None => levels,
        })
    }
}

/// What the configurations say of a check's files: each file's rule
/// levels, and the languages they declare.
struct Configured {
    levels: Vec<Arc<RuleLevels>>,
    dialects: Option<crate::config::ConfigDialects>,
}

/// The rule levels of each file, from the nearest `halite.toml` in the
/// file's directory or above.
fn rule_levels(finder: Option<RuleLevelsFinder>, paths: &[Utf8PathBuf]) -> Result<Configured, ConfigError> {
    let mut finder = match finder {
        Some(finder) => finder,
        None => RuleLevelsFinder::from_current_dir()?,
    };
    let levels = paths.iter().map(|path| finder.levels_for(path)).collect::<Result<_, _>>()?;
    Ok(Configured { levels, dialects: finder.dialects()? })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many units each chunk of `paths` holds.
    fn chunk_sizes(paths: &[String]) -> Vec<usize> {
        let mut paths: Vec<Utf8PathBuf> = paths.iter().map(Utf8PathBuf::from).collect();
        vfs::sort_paths(&mut paths);
        let units = check_units(&paths);
        chunks(&units, &paths).iter().map(|chunk| chunk.len()).collect()
    }

    /// Units whose siblings are read (a Terragrunt unit's dependencies)
    /// are checked with them: a chunk ends at the end of the directory it
    /// would have ended in when that is within reach (a file of the
    /// directory itself among its units' directories is inside it), and a
    /// longer run of siblings is cut every [`FILES_PER_CHUNK`] files until
    /// the rest of it is within reach.
    #[test]
    fn a_chunk_ends_between_directories_of_siblings() {
        let mut paths = Vec::new();
        for env in ["dev", "prod"] {
            // The directory's own file comes among its units'.
            let name = |unit: usize| if unit < 35 { format!("c{unit:03}") } else { format!("g{unit:03}") };
            paths.extend((0..40).map(|unit| format!("live/{env}/{}/terragrunt.hcl", name(unit))));
            paths.push(format!("live/{env}/env.hcl"));
        }
        paths.extend((0..200).map(|unit| format!("live/stage/u{unit:03}/terragrunt.hcl")));
        assert_eq!(chunk_sizes(&paths), [41, 41, 32, 32, 32, 104]);
    }

    /// The chunks whose files changed are checked first (a changed unit
    /// found last in path order was a warm run's last, lone work), the
    /// others after them, each kind in path order.
    #[test]
    fn chunks_with_a_changed_file_come_first() {
        let mut paths: Vec<Utf8PathBuf> =
            (0..100).map(|module| Utf8PathBuf::from(format!("m{module:03}/main.tf"))).collect();
        vfs::sort_paths(&mut paths);
        let units = check_units(&paths);
        let mut ordered = chunks(&units, &paths);
        let first_files = |chunks: &[&[CheckUnit]]| -> Vec<usize> {
            chunks.iter().map(|chunk| chunk[0].files[0]).collect()
        };
        assert_eq!(first_files(&ordered), [0, 32, 64, 96]);
        let mut changed = vec![false; paths.len()];
        changed[70] = true;
        changed[99] = true;
        changed_first(&mut ordered, &changed);
        assert_eq!(first_files(&ordered), [64, 96, 0, 32]);
    }

    /// The stamp pass finds, block by block on two threads, which files
    /// the file index no longer knows as they are (those changed since
    /// they were hashed), and the hash of every other.
    #[test]
    fn the_stamp_pass_finds_the_files_changed_since_they_were_hashed() {
        let tree = tempfile::tempdir().expect("a temporary directory");
        let cache_dir = tempfile::tempdir().expect("a temporary directory");
        let root = Utf8Path::from_path(tree.path()).expect("a UTF-8 directory");
        let cache_dir = Utf8Path::from_path(cache_dir.path()).expect("a UTF-8 directory");
        // More than two blocks.
        let paths: Vec<Utf8PathBuf> =
            (0..300).map(|file| root.join(format!("m{:03}/f{file:03}.tf", file / 2))).collect();
        let text = |file: usize| format!("locals {{\n  a = {file}\n}}\n");
        for (file, path) in paths.iter().enumerate() {
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            std::fs::write(path, text(file)).expect("a file");
        }
        // Past the racy margin, so that the index trusts its entries.
        std::thread::sleep(cache::RACY_MARGIN + std::time::Duration::from_millis(100));
        let cache = ResultCache::open(cache_dir).expect("a cache");
        for path in &paths {
            let file = vfs::read_file(path, u64::MAX).expect("a file");
            cache.index_file(path, Stamp::of(&file.metadata), cache::hash_bytes(&file.bytes));
        }
        cache.finish();
        for file in [5, 200] {
            std::fs::write(&paths[file], format!("{}\n", text(file))).expect("a file");
        }
        let cache = ResultCache::open(cache_dir).expect("a cache");
        let pass = StampPass::new(&cache, &paths, None, Limits::default());
        let hashes = Mutex::new(vec![None; paths.len()]);
        let (changed, told) = std::thread::scope(|scope| {
            scope.spawn(|| pass.run());
            // The changed files as they are found, before the pass ends.
            let watcher = scope.spawn(|| {
                let mut told = Vec::new();
                loop {
                    let (changed, finished) = pass.wait_changed(told.len());
                    told.extend(changed);
                    if finished {
                        return told;
                    }
                }
            });
            let changed = pass.finish(&hashes, true);
            (changed, watcher.join().expect("the watcher"))
        });
        let hashes = hashes.into_inner().expect("the hashes");
        let changed: Vec<usize> = (0..paths.len()).filter(|&file| changed[file]).collect();
        assert_eq!(changed, [5, 200]);
        let mut told = told;
        told.sort_unstable();
        assert_eq!(told, changed);
        for (file, hash) in hashes.iter().enumerate() {
            let expected = (!changed.contains(&file)).then(|| Some(cache::hash_bytes(text(file).as_bytes())));
            assert_eq!(*hash, expected, "file {file}");
        }
    }

    /// A flat directory of modules (every unit a sibling of the next) is
    /// cut every [`FILES_PER_CHUNK`] files.
    #[test]
    fn siblings_alone_are_cut_as_files_say() {
        let paths: Vec<String> = (0..50)
            .flat_map(|module| ["main.tf", "variables.tf"].map(|name| format!("modules/m{module:02}/{name}")))
            .collect();
        assert_eq!(chunk_sizes(&paths), [16, 16, 16, 2]);
    }

    /// Modules read only their children, which a chunk loads wherever they
    /// are: a chunk of modules is not grown to its directory's end (it
    /// would only hold more at once), where one of Terragrunt units is.
    #[test]
    fn only_units_that_read_their_siblings_grow_a_chunk() {
        let tree = |file: &str| -> Vec<String> {
            ["a", "b"]
                .into_iter()
                .flat_map(|dir| (0..20).map(move |unit| (dir, unit)))
                .flat_map(|(dir, unit)| [file, "extra.hcl"].map(|name| format!("{dir}/u{unit:02}/{name}")))
                .collect()
        };
        assert_eq!(chunk_sizes(&tree("main.tf")), [16, 16, 8]);
        assert_eq!(chunk_sizes(&tree("terragrunt.hcl")), [20, 20]);
    }

    /// A module's files are grouped by [`vfs::module_dir`], whether the
    /// file before is of the same directory (found by text) or not, for
    /// paths tidy or not.
    #[test]
    fn units_are_modules_by_the_directory_module_dir_finds() {
        let paths: Vec<Utf8PathBuf> = [
            "main.tf",
            "./b.tf",
            "a/main.tf",
            "a/x.tfvars",
            "a/variables.tf",
            "a/sub/main.tf",
            "a/vars.tf",
            "a/./c.tf",
            "a/./d.tf",
            "a//e.tf",
            "a/sub/../f.tf",
            "a/sub/../g.tf",
            "/abs/main.tf",
            "/abs/other.tf",
            "/top.tf",
            "/other.tf",
            "a/sub/",
            "a/sub/.",
        ]
        .into_iter()
        .map(Utf8PathBuf::from)
        .collect();
        let mut expected: Vec<(Option<String>, Vec<usize>)> = Vec::new();
        for (index, path) in paths.iter().enumerate() {
            if !vfs::is_module_file(path) {
                expected.push((None, vec![index]));
                continue;
            }
            let dir = vfs::module_dir(path).as_str().to_owned();
            match expected.iter_mut().find(|(unit, _)| unit.as_deref() == Some(dir.as_str())) {
                Some((_, files)) => files.push(index),
                None => expected.push((Some(dir), vec![index])),
            }
        }
        let units: Vec<(Option<String>, Vec<usize>)> = check_units(&paths)
            .into_iter()
            .map(|unit| (unit.dir.map(Utf8PathBuf::into_string), unit.files))
            .collect();
        assert_eq!(units, expected);
        assert!(units.contains(&(Some("a".to_owned()), vec![2, 4, 6, 7, 8, 9])), "{units:?}");
    }

    /// The components two directories share, by bytes, as splitting them
    /// at `/` counts them.
    #[test]
    fn shared_components_are_counted_as_split_components_are() {
        let dirs =
            ["", ".", "a", "ab", "a/b", "a/bc", "a/b/c", "a/bc/d", "/", "/a", "/a/b", "/ab", "b/a", "a/b/"];
        for a in dirs {
            for b in dirs {
                let by_split = if a.is_empty() || b.is_empty() {
                    0
                } else {
                    a.split('/').zip(b.split('/')).take_while(|(a, b)| a == b).count()
                };
                assert_eq!(shared_components(a, b), by_split, "{a:?} and {b:?}");
            }
        }
    }

    /// A file read only for the module of the files reported (a named
    /// file's sibling) that cannot be read is said, not passed over: the
    /// module was checked without it.
    #[test]
    fn an_unreadable_file_read_for_a_reported_one_is_said() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 directory");
        std::fs::write(dir.join("main.tf"), "output \"a\" {\n  value = var.a\n}\n").expect("a file");
        std::fs::write(dir.join("variables.tf"), format!("variable \"a\" {{}}\n{}", " ".repeat(200)))
            .expect("a file");
        let paths = [dir.join("main.tf"), dir.join("variables.tf")];
        let limits = Limits { max_file_size: 100, ..Limits::default() };
        let levels = RuleLevelsFinder::from_current_dir().expect("a finder");
        let on_file = |_: &RootDatabase, index: usize, outcome: FileOutcome<'_>| (index, outcome.is_err());
        let checked =
            check_selected_paths(&paths, Some(&[true, false]), levels, limits, None, on_file, |_| {})
                .expect("a check");
        let mut said = checked.reports;
        said.sort_unstable();
        assert_eq!(said, [(0, false), (1, true)]);
    }
}
