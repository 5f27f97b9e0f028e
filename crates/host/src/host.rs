//! [`AnalysisHost`]: the inputs, the modules, and the reports of what
//! changed.

use std::{
    borrow::Cow,
    collections::{BTreeMap, BTreeSet},
    hash::{Hash, Hasher},
    panic::AssertUnwindSafe,
    sync::Arc,
};

use analysis::{FileReferences, LineCol, ModuleFacts, RuleLevels, UseChange};
use camino::{Utf8Path, Utf8PathBuf};
use db::{
    Db, File, FileStatus, InputDurability, RootDatabase,
    graph::NodeId,
    module::{
        self, Address, Attr, AttrError, DeclarationKind, Module, ModuleDiagnosticKind, ModuleInterface,
    },
};
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use value::Value;
use vfs::{PathKey, PathMap, normal_text};

use crate::{
    change::{Change, Contents, FileChange, Membership},
    report::{DiagnosticChange, LocatedDiagnostic, Report, ReportStats, ValueChange, ValueState},
};

/// Files read between two evictions of their trees (see
/// [`AnalysisHost::read_files`]).
const FILES_PER_CHUNK: usize = 256;

/// Attributes resolved together when a module's graph is built whole (see
/// [`AnalysisHost::prepare_module`]): enough to keep every thread busy,
/// few enough that their targets cost little beside the module.
const ATTRIBUTES_PER_CHUNK: usize = 4096;

/// The text of a chunk of files above which a check drops their trees
/// once it has read them (see `AnalysisHost::read_files`): a tree and its
/// HIR take more than ten times their text.
const LARGE_CHUNK_TEXT: usize = 4 << 20;

/// The text of a chunk of files up to which its trees (and HIR and source
/// maps) are dropped while the next chunk is read, on the threads that
/// read it, rather than evicted on the one that applies the change.
/// Dropping a tree (a node at a time, freeing memory other threads
/// allocated) was a twentieth of a module's cold evaluation, on one thread
/// while the others waited. The trees of two chunks are then held at once,
/// so only small ones are.
const TREES_DROPPED_LATER: usize = 1 << 20;

/// The most files a module may have for its working state to be dropped
/// after its report when no values are reported (see
/// [`ModuleState::park`]): rebuilding a module this small on its next
/// change costs a few milliseconds, while keeping the state of each of a
/// workspace's thousands of small modules was a quarter of a language
/// server's memory.
const PARKED_MODULE_FILES: usize = 64;

/// Where the variables of a module the host does not hold come from, by its
/// directory.
pub type InputsOf = Arc<dyn Fn(&Utf8Path) -> Option<Arc<ModuleInterface>> + Send + Sync>;

/// What the host computes for its reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostOptions {
    /// What becomes of the modules' values.
    pub values: Values,
    /// Threads a report and the reading of changed files may use: `0` for
    /// one per core. A batch that runs hosts side by side gives each one.
    pub threads: usize,
    /// How much is read and reported.
    pub limits: Limits,
    /// Whether the database can log the queries it runs, which tests of
    /// incremental behaviour read. A front end that never asks turns it
    /// off (see `db::RootDatabase::without_query_log`): salsa builds an
    /// event for every query it runs or reuses while a log can be kept.
    /// [`AnalysisHost::record_stats`] needs no log.
    pub query_log: bool,
    /// Whether the host reports once and is dropped (a check's chunk of
    /// units, `eval DIR`), rather than living on to answer changes (the
    /// language server, `watch`, the library): then nothing is gained by
    /// letting a workspace's idle values go (see
    /// `db::RootDatabase::set_idle_state_evictable`), which costs a little
    /// on every evaluation; values keep no firewall (see
    /// `db::RootDatabase::without_value_firewalls`); and when no values are
    /// reported, every module's working state (its graph, usage counts,
    /// declarations and references) is dropped after its report, whatever
    /// its size (see `ModuleState::park`). The host still answers a later
    /// change, as a parked module's first report does.
    pub reports_once: bool,
    /// Whether each file's block structure (`db::module::file_blocks`) is
    /// read while its tree is in memory, for a reader of values by their
    /// structured addresses (`target["a.b"].step.x`, the library's
    /// `Workspace`): otherwise reading it after the trees were dropped
    /// would parse every file again. A reader of values by module address
    /// (`watch`) has no use for it.
    pub block_structure: bool,
}

impl Default for HostOptions {
    fn default() -> HostOptions {
        HostOptions {
            values: Values::Reported,
            threads: 0,
            limits: Limits::default(),
            query_log: true,
            reports_once: false,
            block_structure: false,
        }
    }
}

/// Bounds on what is read and reported, so that one hostile file costs a
/// run no more than a large honest one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest file read from disk, in bytes (`vfs::read_file`): a
    /// larger one is not read, and says so.
    pub max_file_size: u64,
    /// The most diagnostics reported of one file
    /// (`analysis::cap_diagnostics`): the rest are one
    /// `too-many-diagnostics` diagnostic that counts them. `usize::MAX` for
    /// no cap.
    pub max_diagnostics_per_file: usize,
}

impl Default for Limits {
    /// 64 MiB per file ([`vfs::DEFAULT_MAX_FILE_SIZE`]) and 100 diagnostics
    /// per file ([`analysis::DEFAULT_MAX_DIAGNOSTICS_PER_FILE`]).
    fn default() -> Limits {
        Limits {
            max_file_size: vfs::DEFAULT_MAX_FILE_SIZE,
            max_diagnostics_per_file: analysis::DEFAULT_MAX_DIAGNOSTICS_PER_FILE,
        }
    }
}

/// What a host does with the modules' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// Each report carries the values that changed (`watch`, the library).
    Reported,
    /// Reports carry none; the caller evaluates what it needs
    /// ([`AnalysisHost::evaluate`], [`AnalysisHost::value`]) once they are
    /// in (`eval DIR`). Each value's resolution is kept as its firewall
    /// (see `db::module::Firewall`) unless the host reports once
    /// ([`HostOptions::reports_once`]).
    OnRequest,
    /// Diagnostics only (`check`): the attributes are resolved without
    /// keeping their resolutions, and only those whose errors a check
    /// reports are evaluated.
    None,
}

impl HostOptions {
    fn threads(&self) -> usize {
        match self.threads {
            0 => available_threads(),
            threads => threads,
        }
    }
}

/// How many threads can run at once here, asked once per process: the
/// standard library reads the cgroup's quota from files on each call, and a
/// report asks for every module (in a workspace of 4,000 modules, a quarter
/// of an edit's time).
pub(crate) fn available_threads() -> usize {
    static AVAILABLE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get))
}

/// The stack of each thread a host starts: evaluating a module may walk a
/// long chain of references, and salsa finds a cycle by walking all of it
/// (reserved, not used, unless a module needs it).
pub const DEEP_STACK: usize = 512 << 20;

/// The one owner of Halite's state: the files (and the module each belongs
/// to), the modules' variables and dialects, the rule levels of each file,
/// and what was last reported. Every change goes through
/// [`AnalysisHost::apply_change`]; [`AnalysisHost::report`] says what it
/// changed, having computed only what the change can reach.
pub struct AnalysisHost {
    db: RootDatabase,
    options: HostOptions,
    /// Hashed, by the path's text ([`vfs::PathKey`]): every file applied
    /// looks its module up, and hashing or ordering paths component by
    /// component was a tenth of a check over a monorepo. Boxed: the table
    /// has room for more entries than it holds, and a workspace of
    /// thousands of small modules kept that room at the state's size.
    modules: PathMap<Box<ModuleState>>,
    /// The modules' directories in path order, the order reports go in.
    module_order: Vec<Utf8PathBuf>,
    files: PathMap<HostFile>,
    levels: PathMap<Arc<RuleLevels>>,
    default_levels: Arc<RuleLevels>,
    /// Files of no module whose diagnostics must be found again.
    dirty_standalone: FxHashSet<File>,
    /// The diagnostics last reported, by file.
    shown_diagnostics: FxHashMap<File, Vec<LocatedDiagnostic>>,
    /// The variables of modules outside the host, by directory, for the
    /// calls of its modules (a batch keeps them across its databases).
    external_inputs: Option<InputsOf>,
    record_stats: bool,
    /// The queries changes applied since the last report ran (files parsed
    /// for their declarations), for the next report's statistics.
    pending_stats: ReportStats,
    /// What each module read beyond its own files, by the module's
    /// directory and what the reading is: the candidates of its reads up
    /// to the first that exists (a file created nearer changes what it
    /// reads) as the last [`AnalysisHost::load_reads`] found them, and the
    /// directories of the modules it calls (whose variables and outputs
    /// its calls are checked against) as its last report found them.
    /// Paths are [`PathKey`]s: they are only looked up, and std's `Path`
    /// hashes and compares component by component.
    reads_of: FxHashMap<(PathKey, Reading), Vec<PathKey>>,
    /// The same, by what is read: the modules that read each path. A
    /// change of one of those files changes what its readers report.
    readers: FxHashMap<PathKey, FxHashSet<(PathKey, Reading)>>,
    /// Modules whose reads may have changed since the last
    /// [`AnalysisHost::load_reads`]: those whose files changed, and the
    /// readers of a file that changed or was read.
    stale_reads: FxHashSet<PathKey>,
    /// The files reported on since the trees past the LRU's capacity were
    /// last dropped (see [`AnalysisHost::commit_report`]).
    reported_since_eviction: usize,
}

/// A read, hashed and compared by its candidates' text: std's `Path`
/// hashes and compares component by component, and a chunk of a check
/// looks up thousands of reads.
#[derive(Debug, Clone)]
struct ReadKey(module::FileRead);

impl PartialEq for ReadKey {
    fn eq(&self, other: &ReadKey) -> bool {
        self.0.candidates.len() == other.0.candidates.len()
            && self.0.candidates.iter().zip(other.0.candidates.iter()).all(|(a, b)| a.as_str() == b.as_str())
    }
}

impl Eq for ReadKey {}

impl Hash for ReadKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for candidate in self.0.candidates.iter() {
            candidate.as_str().hash(state);
        }
    }
}

/// How a module reads a path that is not one of its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Reading {
    /// A file it reads by path (`module::module_reads`).
    File,
    /// The directory of a module it calls.
    CalledModule,
}

#[derive(Debug, Clone)]
struct HostFile {
    file: File,
    module: Option<Utf8PathBuf>,
}

struct ModuleState {
    module: Module,
    /// Whether the module is reported on, or only read for its callers.
    reported: bool,
    /// Its files: the database's input of a path is the same for as long
    /// as it lives, so the set needs no paths of its own.
    members: FxHashSet<File>,
    variables: BTreeMap<String, Value>,
    /// Built at the module's first report and kept up to date after, unless
    /// the module is parked.
    facts: Option<Arc<ModuleFacts>>,
    /// Whether the module's working state (`facts`, `declared`,
    /// `references`) was dropped after its last report, to be built again
    /// in full at its next change (see [`ModuleState::park`]).
    parked: bool,
    /// What each file declared (module addresses) at the last report.
    declared: FxHashMap<File, Arc<[Address]>>,
    /// What each file referred to at the last report.
    references: FxHashMap<File, Arc<FileReferences>>,
    /// A hash of each node's value or error as last reported; 0 for none.
    shown_values: Vec<u64>,
    pending: Pending,
    /// The work of a report that a change cancelled, for the next.
    carried: Carried,
}

/// The work a cancelled report left undone.
#[derive(Default)]
struct Carried {
    nodes: FxHashSet<NodeId>,
    files: FxHashSet<File>,
    removed: Vec<(NodeId, Address)>,
}

/// What happened to a module since its last report.
#[derive(Default)]
struct Pending {
    /// Everything is to be found again (a first report, a dialect change,
    /// blocks whose ordinals depend on other files).
    all: bool,
    /// Files whose contents or membership changed, removed ones included.
    files: FxHashSet<File>,
    /// Variables whose values changed.
    variables: FxHashSet<String>,
    /// Whether the module went from no variables given to some, or back:
    /// what a check may trust changes everywhere.
    inputs_flipped: bool,
}

impl ModuleState {
    /// Drops what only the module's next incremental report would read:
    /// its graph, usage counts, and what each file declared and referred
    /// to. Its next change rebuilds them in full, as its first report did.
    /// Only when no values are reported: shown values are kept by graph
    /// node, and a rebuilt graph numbers its nodes anew. A module with
    /// something pending or carried is left as it is: its next report
    /// reads its state.
    fn park(&mut self) {
        if !self.pending.is_empty() || !self.carried.is_empty() {
            return;
        }
        self.facts = None;
        self.declared = FxHashMap::default();
        self.references = FxHashMap::default();
        self.parked = true;
    }

    /// Whether a report has work to do for the module: a first report, a
    /// change since the last, or work a cancelled report left.
    fn is_due(&self) -> bool {
        self.reported
            && ((self.facts.is_none() && !self.parked)
                || !self.pending.is_empty()
                || !self.carried.is_empty())
    }
}

impl Pending {
    fn is_empty(&self) -> bool {
        !self.all && self.files.is_empty() && self.variables.is_empty() && !self.inputs_flipped
    }
}

impl Carried {
    fn is_empty(&self) -> bool {
        self.nodes.is_empty() && self.files.is_empty() && self.removed.is_empty()
    }
}

impl Default for AnalysisHost {
    fn default() -> AnalysisHost {
        AnalysisHost::new(HostOptions::default())
    }
}

impl AnalysisHost {
    /// A host whose modules take their dialect from the standard
    /// registry ([`dialects::standard`]: Terraform/OpenTofu, Terragrunt,
    /// Packer and Nomad).
    pub fn new(options: HostOptions) -> AnalysisHost {
        AnalysisHost::with_dialects(options, dialects::standard())
    }

    /// A host whose modules take their dialect from `dialects`, by their
    /// files' names: the standard registry with an embedder's own dialect
    /// registered, say.
    pub fn with_dialects(options: HostOptions, dialects: db::module::Dialects) -> AnalysisHost {
        let mut db = if options.query_log {
            RootDatabase::with_dialects(dialects)
        } else {
            RootDatabase::without_query_log(dialects)
        };
        // The durability policy: texts change with every edit, the
        // structure (paths, membership, declarations, dialects) seldom, so
        // that after an edit that keeps every declaration the module-wide
        // queries are verified at a glance, and the first edit of a file
        // costs what later ones do (its text was never more durable).
        db.set_input_durability(InputDurability {
            text: salsa::Durability::LOW,
            structure: salsa::Durability::MEDIUM,
        });
        // A host that reports changes (watch, the library) keeps the
        // module's index in parts, patched per changed file, so that adding,
        // removing or renaming a file re-runs what reads its names and not
        // what reads the whole index. A batch host (`eval DIR`, `check`)
        // applies one change and builds the index whole, which costs less
        // time and memory once.
        if options.values == Values::Reported {
            db.keep_module_index_parts();
        }
        // A host that reports once has no next edit for a firewall between
        // an attribute's declaration and its value to spare work after.
        if options.reports_once {
            db.without_value_firewalls();
            db.keep_all_expressions();
        }
        // A host that shows no values needs a module's values only while its
        // diagnostics are found: a workspace's idle modules keep none.
        if options.values == Values::None && !options.reports_once {
            db.set_idle_state_evictable(true);
        }
        AnalysisHost {
            db,
            options,
            modules: PathMap::default(),
            module_order: Vec::new(),
            files: PathMap::default(),
            levels: PathMap::default(),
            default_levels: Arc::new(RuleLevels::default()),
            dirty_standalone: FxHashSet::default(),
            shown_diagnostics: FxHashMap::default(),
            external_inputs: None,
            record_stats: false,
            pending_stats: ReportStats::default(),
            reads_of: FxHashMap::default(),
            readers: FxHashMap::default(),
            stale_reads: FxHashSet::default(),
            reported_since_eviction: 0,
        }
    }

    /// The database, for reading what the reports name (a file's text to
    /// show a diagnostic's source, a value by address).
    pub fn db(&self) -> &RootDatabase {
        &self.db
    }

    /// Counts the queries each report runs ([`Report::stats`]).
    pub fn record_stats(&mut self, record: bool) {
        if record {
            self.db.count_executions();
        }
        self.record_stats = record;
    }

    /// Where the variables of modules the host does not hold come from,
    /// for the calls of its own (see [`module::child_interface`]).
    pub fn set_external_inputs(&mut self, inputs: InputsOf) {
        self.external_inputs = Some(inputs);
    }

    /// Reads into the database the files the host's modules read beyond
    /// their own (a unit's included files: [`module::module_reads`]) that
    /// it does not have yet: of each read's candidates, in order, up to
    /// the first that exists on disk, a missing one set as a deleted file
    /// (so that creating it later is a change to what read it). They are
    /// not module files: nothing reports on them here. Only the modules
    /// whose reads may have changed since the last call are looked at (see
    /// [`AnalysisHost::apply_change`]), so a front end calls it after each
    /// change. Returns whether any file was read.
    pub fn load_reads(&mut self) -> bool {
        // What a read file says may name more (a dependency's unit named
        // in an included file): read again until nothing new is, a few
        // times at most.
        let mut any = false;
        for _ in 0..4 {
            if !self.load_reads_once() {
                break;
            }
            any = true;
        }
        any
    }

    fn load_reads_once(&mut self) -> bool {
        let mut stale: Vec<PathKey> = self.stale_reads.drain().collect();
        stale.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
        // Units of one directory share their reads (the same root
        // configuration's candidates): each is looked at once, and found
        // to name its candidate at this index (the first that exists, or
        // past the last).
        let mut reads: FxHashMap<ReadKey, usize> = FxHashMap::default();
        let mut read_by: Vec<(PathKey, Vec<module::FileRead>)> = Vec::new();
        for dir in stale {
            let Some(state) = self.modules.get(&dir) else { continue };
            let module_reads = module::module_reads(&self.db, state.module);
            for read in &module_reads {
                reads.entry(ReadKey(read.clone())).or_insert(usize::MAX);
            }
            read_by.push((dir, module_reads));
        }
        let mut loaded: Vec<Utf8PathBuf> = Vec::new();
        for (ReadKey(read), found) in reads.iter_mut() {
            for (index, path) in read.candidates.iter().enumerate() {
                *found = index;
                match self.db.file(path) {
                    Some(file) if file.status(&self.db) == db::FileStatus::Exists => break,
                    Some(_) => continue,
                    None => {}
                }
                loaded.push(path.clone());
                match vfs::read_file(path, self.options.limits.max_file_size) {
                    Ok(file) => {
                        self.db.set_file_bytes(path.clone(), &file.bytes);
                        break;
                    }
                    Err(_) => {
                        self.db.set_file_text(path.clone(), "");
                        self.db.delete_file(path);
                    }
                }
            }
        }
        // What each module reads now: each read's candidates up to the
        // first that exists (after the loading above).
        for (dir, module_reads) in read_by {
            let mut paths: Vec<PathKey> = Vec::new();
            for read in module_reads {
                let upto = reads.get(&ReadKey(read.clone())).copied().unwrap_or(usize::MAX);
                paths.extend(
                    read.candidates.iter().take(upto.saturating_add(1)).map(|it| PathKey::new(it.as_path())),
                );
            }
            paths.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
            paths.dedup();
            self.set_reads_of(dir, Reading::File, paths);
        }
        // A file read now changes what its readers found without it.
        self.mark_readers(loaded.iter().map(Utf8PathBuf::as_path));
        !loaded.is_empty()
    }

    /// Records what the module of `dir` reads (see `reads_of`).
    fn set_reads_of(&mut self, dir: PathKey, reading: Reading, paths: Vec<PathKey>) {
        let key = (dir, reading);
        if self.reads_of.get(&key) == Some(&paths) {
            return;
        }
        for old in self.reads_of.get(&key).into_iter().flatten() {
            if let Some(readers) = self.readers.get_mut(old) {
                readers.remove(&key);
                if readers.is_empty() {
                    self.readers.remove(old);
                }
            }
        }
        for path in &paths {
            self.readers.entry(path.clone()).or_default().insert(key.clone());
        }
        if paths.is_empty() {
            self.reads_of.remove(&key);
        } else {
            self.reads_of.insert(key, paths);
        }
    }

    /// Marks the modules that read the files at `paths` (an included file,
    /// a dependency's unit, a file of a called module's directory) to be
    /// found again, and their reads too.
    fn mark_readers<'p>(&mut self, paths: impl IntoIterator<Item = &'p Utf8Path>) {
        // Each reader once, though it reads many of the paths (every
        // candidate of a search up the directories).
        let mut readers: FxHashSet<&str> = FxHashSet::default();
        for path in paths {
            let dir = path.parent().unwrap_or(Utf8Path::new(""));
            for it in [path, dir] {
                readers.extend(
                    self.readers
                        .get(&*normal_text(it))
                        .into_iter()
                        .flatten()
                        .map(|(reader, _)| reader.as_str()),
                );
            }
        }
        let readers: Vec<PathKey> = readers.into_iter().map(PathKey::new).collect();
        for reader in readers {
            if let Some(state) = self.modules.get_mut(&reader) {
                // What it read changes its diagnostics, not its values:
                // what an included file or a called module declares is
                // read by the checks of the module's calls and opaque
                // blocks, never by evaluation.
                let members: Vec<File> = state.members.iter().copied().collect();
                state.pending.files.extend(members);
            }
            self.stale_reads.insert(reader);
        }
    }

    /// The input of the file at `path`, if the host holds it.
    pub fn file(&self, path: &Utf8Path) -> Option<File> {
        self.files.get(path).map(|it| it.file)
    }

    /// The module of `dir`, if the host holds one.
    pub fn module(&self, dir: &Utf8Path) -> Option<Module> {
        self.modules.get(dir).map(|it| it.module)
    }

    /// Whether the host keeps the working state of the module of `dir`
    /// (its graph and usage counts) between reports, rather than
    /// rebuilding it at the module's next change (see `PARKED_MODULE_FILES`).
    /// `None` when the host holds no such module, or has not reported it.
    #[doc(hidden)]
    pub fn keeps_module_state(&self, dir: &Utf8Path) -> Option<bool> {
        let state = self.modules.get(dir)?;
        (state.facts.is_some() || state.parked).then_some(!state.parked)
    }

    /// The module a front end given `dir` means: the directory's own when
    /// it has files; else the one unit a file of `dir` is alone (a
    /// Terragrunt unit's `terragrunt.hcl`, keyed by its path). `Err` with
    /// those units' keys when there are several; `Ok(dir)` when there is
    /// nothing.
    pub fn module_of_dir(&self, dir: &Utf8Path) -> Result<Utf8PathBuf, Vec<Utf8PathBuf>> {
        if self.modules.get(dir).is_some_and(|state| !state.members.is_empty()) {
            return Ok(dir.to_owned());
        }
        let units: Vec<Utf8PathBuf> = self
            .module_order
            .iter()
            .filter(|key| {
                vfs::module_dir(key) == dir
                    && self.modules.get(key.as_path()).is_some_and(|it| !it.members.is_empty())
            })
            .cloned()
            .collect();
        match <[Utf8PathBuf; 1]>::try_from(units) {
            Ok([unit]) => Ok(unit),
            Err(units) if units.is_empty() => Ok(dir.to_owned()),
            Err(units) => Err(units),
        }
    }

    /// The directories other than `root` whose files the modules hold or
    /// read: those of the modules (the children of calls, units keyed by
    /// their file), of the files read by path (a unit's include, with the
    /// candidates before it, where a nearer one may be created) and the
    /// called modules' directories. A front end that follows changes on
    /// disk (`watch`) follows these too, so that an edit outside its root
    /// is seen.
    pub fn outside_dirs(&self, root: &Utf8Path) -> BTreeSet<Utf8PathBuf> {
        let root = PathKey::new(root);
        let mut dirs: BTreeSet<Utf8PathBuf> = BTreeSet::new();
        for key in &self.module_order {
            let dir =
                if self.files.get(key.as_path()).is_some() { vfs::module_dir(key) } else { key.as_path() };
            dirs.insert(dir.to_owned());
        }
        for (path, readers) in &self.readers {
            let called = readers.iter().any(|(_, reading)| *reading == Reading::CalledModule);
            dirs.insert(if called { path.as_path() } else { vfs::module_dir(path) }.to_owned());
        }
        dirs.retain(|dir| PathKey::new(dir.as_path()) != root);
        dirs
    }

    /// The files of `set` in `dir` as the host has them, for a watcher of
    /// the directory to start from: the modules' and those read by path.
    pub fn known_in(&self, dir: &Utf8Path, set: vfs::FileSet) -> Vec<vfs::LoadedFile> {
        let dir = PathKey::new(dir);
        let in_dir = |path: &Utf8Path| set.contains(path) && PathKey::new(vfs::module_dir(path)) == dir;
        let mut paths: BTreeSet<&Utf8Path> =
            self.files.iter().map(|(path, _)| path).filter(|path| in_dir(path)).collect();
        paths.extend(self.readers.keys().map(|it| it.as_path()).filter(|path| in_dir(path)));
        paths
            .into_iter()
            .filter_map(|path| {
                let file = self.db.file(path)?;
                (file.status(&self.db) == FileStatus::Exists && file.encoding_error(&self.db).is_none()).then(
                    || vfs::LoadedFile {
                        path: path.to_owned(),
                        bytes: file.text(&self.db).as_bytes().to_vec(),
                    },
                )
            })
            .collect()
    }

    /// Whether a module reads the file at `path` by path.
    pub fn is_read(&self, path: &Utf8Path) -> bool {
        self.readers.contains_key(&PathKey::new(path))
    }

    /// The directories of the modules the host holds.
    pub fn module_dirs(&self) -> impl Iterator<Item = &Utf8Path> {
        self.module_order.iter().map(Utf8PathBuf::as_path)
    }

    /// The files of the module of `dir`, by path.
    pub fn module_files(&self, dir: &Utf8Path) -> Vec<File> {
        let files: Vec<File> =
            self.modules.get(dir).map(|it| it.members.iter().copied().collect()).unwrap_or_default();
        sorted_by_path(&self.db, files, |&file| file)
    }

    /// The values given to the variables of the module of `dir`.
    pub fn variables(&self, dir: &Utf8Path) -> Option<&BTreeMap<String, Value>> {
        self.modules.get(dir).map(|it| &it.variables)
    }

    /// Every file the host holds, in no particular order.
    pub fn files(&self) -> impl Iterator<Item = File> + '_ {
        self.files.values().map(|it| it.file)
    }

    /// The attributes with an expression of the module of `dir`, in
    /// declaration order.
    pub fn attributes(&self, dir: &Utf8Path) -> Vec<Address> {
        let Some(module) = self.module(dir) else { return Vec::new() };
        // `module::module_attributes`' addresses, read from the index
        // without interning an `Attr` for each (on one thread, before any
        // other work can start; the evaluation interns them on every
        // thread).
        let index = module::IndexView::of(&self.db, module);
        module::module_order(&self.db, module)
            .filter(|address| index.definition(address).is_some_and(|def| def.kind.is_attribute()))
            .cloned()
            .collect()
    }

    /// The value at `address` of the module of `dir`: an attribute's or a
    /// variable's. `None` when the host holds no such module.
    pub fn value(&self, dir: &Utf8Path, address: &Address) -> Option<&Result<Value, AttrError>> {
        let module = self.module(dir)?;
        Some(module::attribute_value(&self.db, Attr::new(&self.db, module, address.clone())))
    }

    /// Evaluates `addresses` of the module of `dir` and what they read,
    /// dependencies first, so that a long chain of references is never
    /// walked by recursion.
    pub fn evaluate(&self, dir: &Utf8Path, addresses: &[Address]) {
        let Some(module) = self.module(dir) else { return };
        let order = self.evaluation_order_of(dir, module, addresses);
        evaluate(&self.db, module, &order, self.options.threads());
    }

    /// [`Self::evaluate`] for a host that reports once (`eval DIR`, see
    /// [`HostOptions::reports_once`]): the module's working state (its
    /// graph, usage counts, declarations and references) is dropped once
    /// the graph has given the order, before the values are computed
    /// beside it; no later report reads it, and a change would rebuild it.
    pub fn evaluate_once(&mut self, dir: &Utf8Path, addresses: &[Address]) {
        let Some(module) = self.module(dir) else { return };
        let order = self.evaluation_order_of(dir, module, addresses);
        // A host that reports values keeps what it showed by graph node: its
        // graph stays.
        if self.options.values != Values::Reported
            && let Some(state) = self.modules.get_mut(dir)
        {
            state.park();
        }
        evaluate(&self.db, module, &order, self.options.threads());
    }

    /// The order [`Self::evaluate`] evaluates `addresses` of `module` in:
    /// dependencies first.
    fn evaluation_order_of(&self, dir: &Utf8Path, module: Module, addresses: &[Address]) -> Vec<Address> {
        // The module's graph, when its last report left it current, gives
        // the order without a query (walking the resolutions for it was a
        // pass over every attribute on one thread before any evaluation).
        let current = self
            .modules
            .get(dir)
            .and_then(|state| state.facts.as_ref().filter(|_| !state.is_due() && !state.parked));
        let order: Vec<Address> = match current {
            Some(facts) => evaluation_order(&self.db, module, facts, addresses),
            None => {
                let attrs: Vec<Attr<'_>> =
                    addresses.iter().map(|address| Attr::new(&self.db, module, address.clone())).collect();
                module::evaluation_order(&self.db, &attrs)
                    .into_iter()
                    .map(|attr| attr.address(&self.db).clone())
                    .collect()
            }
        };
        crate::trace::mark("evaluate: ordered");
        order
    }

    /// `f` of each of `items`, in order, on the host's threads when there
    /// are many, each with its own handle on the database: for a front end
    /// whose reading of what the host found (printing a module's values)
    /// is work of its own.
    pub fn map_on_threads<I: Copy + Sync, T: Send>(
        &self,
        items: &[I],
        f: impl Fn(&RootDatabase, I) -> T + Sync,
    ) -> Vec<T> {
        parallel_map(&self.db, items, self.options.threads(), f)
    }

    /// [`Self::map_on_threads`], the calling thread doing `first` (work of
    /// its own that reads nothing of the host: writing out what an earlier
    /// call found) before it joins the others.
    pub fn map_on_threads_after<I: Copy + Sync, T: Send>(
        &self,
        items: &[I],
        first: impl FnOnce(),
        f: impl Fn(&RootDatabase, I) -> T + Sync,
    ) -> Vec<T> {
        parallel_map_after(&self.db, items, self.options.threads(), first, f)
    }

    /// What the host reads and reports at most.
    pub fn limits(&self) -> Limits {
        self.options.limits
    }

    /// The diagnostics last reported, by file, in path order.
    pub fn diagnostics(&self) -> Vec<&LocatedDiagnostic> {
        let mut out: Vec<&LocatedDiagnostic> = self.shown_diagnostics.values().flatten().collect();
        out.sort_by(|a, b| {
            vfs::path_order(&a.path, &b.path)
                .then(a.diagnostic.range.start().cmp(&b.diagnostic.range.start()))
        });
        out
    }

    /// The diagnostics last reported about one file.
    pub fn file_diagnostics(&self, file: File) -> &[LocatedDiagnostic] {
        self.shown_diagnostics.get(&file).map_or(&[], Vec::as_slice)
    }

    /// The diagnostics one file gives on its own, now: its syntax errors,
    /// or its style lints and ignore comments' problems, at its rule levels
    /// and capped as a report caps them. They need the file's parse only,
    /// not its module's index, and are a subset of what the next report
    /// says of the file (which adds the module rules'): a front end shows
    /// them while a long first report is under way (the language server).
    pub fn own_diagnostics(&self, file: File) -> Vec<LocatedDiagnostic> {
        if file.status(&self.db) != FileStatus::Exists {
            return Vec::new();
        }
        let levels =
            self.levels.get(file.path(&self.db)).cloned().unwrap_or_else(|| self.default_levels.clone());
        let levels: FxHashMap<File, Arc<RuleLevels>> = [(file, levels)].into_iter().collect();
        let found = analysis::diagnostics(&self.db, file);
        locate(&self.db, &levels, self.options.limits.max_diagnostics_per_file, file, found)
    }

    /// The formatted text of a file in the style its name gives it
    /// ([`db::default_format_style`]: `terraform fmt`'s for Terraform's
    /// files, `hclwrite.Format`'s for the others); `None` for a file that
    /// must not be formatted (syntax errors, bytes that are not UTF-8, the
    /// JSON syntax).
    pub fn formatted(&self, file: File) -> Option<&String> {
        formatted(&self.db, file)
    }

    /// Applies a change to the inputs. Nothing is computed for it but what
    /// each changed file declares (which says whether the change adds,
    /// removes or moves a declaration); the next report computes the rest.
    pub fn apply_change(&mut self, change: Change) {
        let Change { files, variables, variable_updates, dialects, levels, reported, roles } = change;
        // Sized up front: a batch applies thousands of files at once, and
        // growing a map keyed by paths hashes every path in it again.
        self.levels.reserve(levels.len());
        for (path, levels) in levels {
            let file = self.files.get(&path).map(|entry| entry.file);
            // A file at the default levels (most files of most workspaces)
            // has no entry: a copy of each path was a megabyte over a
            // workspace of eight thousand files.
            let previous = if *levels == *self.default_levels {
                self.levels.remove(&path)
            } else {
                self.levels.insert(path, levels.clone())
            };
            if let Some(file) = file
                && *previous.unwrap_or_else(|| self.default_levels.clone()) != *levels
            {
                self.mark_file(file);
            }
        }
        self.files.reserve(files.len());
        let mut touched: Vec<File> = Vec::with_capacity(files.len());
        let mut membership_changed: FxHashSet<Utf8PathBuf> = FxHashSet::default();
        // Each module's files set, removed or moved, for its index.
        let mut indexed: FxHashMap<Utf8PathBuf, Vec<File>> = FxHashMap::default();
        membership_changed.reserve(files.len());
        indexed.reserve(files.len());
        // Every path set or removed, for the modules that read it.
        let mut changed_paths: Vec<Utf8PathBuf> = Vec::new();
        for change in files {
            match change {
                FileChange::Set { path, contents, membership } => {
                    let file = match contents {
                        Contents::Text(text) => self.db.set_file_text(path.clone(), text),
                        Contents::Bytes(bytes) => self.db.set_file_bytes(path.clone(), &bytes),
                    };
                    let membership = match membership {
                        Membership::Read => match self.files.get(&path) {
                            Some(held) => match &held.module {
                                Some(dir) => Membership::Module(dir.clone()),
                                None => Membership::Standalone,
                            },
                            None => {
                                changed_paths.push(path);
                                continue;
                            }
                        },
                        membership => membership,
                    };
                    let module = match membership {
                        Membership::ByName => self.db.dialects().unit_of(&path),
                        // A file its dialect evaluates alone is a unit of its
                        // own in whichever module it is put: the plug-in
                        // decides grouping, so that every front end groups
                        // alike.
                        Membership::Module(dir) => match self.db.dialects().unit_of(&path) {
                            Some(unit) if unit == path => Some(unit),
                            _ => Some(dir),
                        },
                        Membership::Standalone | Membership::Read => None,
                    };
                    let previous = self.files.insert(path.clone(), HostFile { file, module: module.clone() });
                    if let Some(old) =
                        previous.and_then(|it| it.module).filter(|old| Some(old) != module.as_ref())
                        && let Some(state) = self.modules.get_mut(&old)
                    {
                        state.members.remove(&file);
                        state.pending.files.insert(file);
                        indexed.entry(old.clone()).or_default().push(file);
                        membership_changed.insert(old);
                    }
                    changed_paths.push(path.clone());
                    match module {
                        Some(dir) => {
                            self.stale_reads.insert(PathKey::new(dir.as_path()));
                            let state = self.module_state_with(&dir, file);
                            if state.members.insert(file) {
                                membership_changed.insert(dir.clone());
                            }
                            state.pending.files.insert(file);
                            indexed.entry(dir).or_default().push(file);
                        }
                        None => {
                            self.dirty_standalone.insert(file);
                        }
                    }
                    touched.push(file);
                }
                FileChange::Remove { path } => {
                    // A file others read may be gone, though the host did
                    // not hold it.
                    changed_paths.push(path.clone());
                    let Some(entry) = self.files.remove(&path) else {
                        self.db.delete_file(&path);
                        continue;
                    };
                    self.db.delete_file(&path);
                    match entry.module {
                        Some(dir) => {
                            self.stale_reads.insert(PathKey::new(dir.as_path()));
                            if let Some(state) = self.modules.get_mut(&dir) {
                                state.members.remove(&entry.file);
                                state.pending.files.insert(entry.file);
                                indexed.entry(dir.clone()).or_default().push(entry.file);
                                membership_changed.insert(dir);
                            }
                        }
                        None => {
                            self.dirty_standalone.insert(entry.file);
                        }
                    }
                }
            }
        }
        // Each module's list of files patched with the files that joined
        // or left it (those of `indexed` whose membership is now what it
        // says), not rebuilt from every member.
        for dir in &membership_changed {
            let Some(state) = self.modules.get(dir) else { continue };
            let (mut added, mut removed) = (Vec::new(), Vec::new());
            for &file in indexed.get(dir).into_iter().flatten() {
                if state.members.contains(&file) {
                    added.push(file);
                } else {
                    removed.push(file);
                }
            }
            self.db.change_module_files(dir.clone(), &added, &removed);
        }
        crate::trace::mark("apply: files set");
        self.read_files(&touched);
        crate::trace::mark("apply: files read");
        // A file another module reads by path (an included file, a
        // dependency's unit) or a file of a module another calls changes
        // what that module reports, though it is not one of its files.
        if !self.readers.is_empty() {
            self.mark_readers(changed_paths.iter().map(Utf8PathBuf::as_path));
        }
        for (dir, files) in indexed {
            if let Some(state) = self.modules.get(&dir) {
                let module = state.module;
                self.db.update_module_index(module, &files);
            }
        }
        crate::trace::mark("apply: indexed");
        let mut variables = variables;
        for (dir, name, value) in variable_updates {
            let mut values = match variables.iter().rposition(|(it, _)| *it == dir) {
                Some(position) => variables.remove(position).1,
                None => self.module_state(&dir).variables.clone(),
            };
            match value {
                Some(value) => values.insert(name, value),
                None => values.remove(&name),
            };
            variables.push((dir, values));
        }
        for (dir, values) in variables {
            let state = self.module_state(&dir);
            let names: BTreeSet<&String> = state.variables.keys().chain(values.keys()).collect();
            let changed: Vec<String> = names
                .into_iter()
                .filter(|name| state.variables.get(*name) != values.get(*name))
                .cloned()
                .collect();
            if changed.is_empty() {
                continue;
            }
            state.pending.inputs_flipped |= state.variables.is_empty() != values.is_empty();
            state.pending.variables.extend(changed);
            state.variables = values.clone();
            let module = state.module;
            self.db.set_module_variables(module, values);
        }
        for (dir, dialect) in dialects {
            let state = self.module_state(&dir);
            state.pending.all = true;
            let module = state.module;
            if let Some(rules) = dialect.rules {
                self.db.set_dialect_rules(module, rules);
            }
            self.db.set_dialect_roots(module, dialect.roots);
            self.db.set_dialect_functions(module, dialect.functions);
        }
        for (dir, role) in roles {
            let module = self.module_state(&dir).module;
            if module.role(&self.db) != role {
                self.module_state(&dir).pending.all = true;
                self.db.set_module_role(module, role);
            }
        }
        for (dir, reported) in reported {
            let state = self.module_state(&dir);
            if state.reported != reported {
                state.reported = reported;
                state.pending.all = true;
            }
        }
    }

    /// The state of the module of `dir`, made empty if there is none.
    fn module_state(&mut self, dir: &Utf8Path) -> &mut ModuleState {
        self.make_module_state(dir, Vec::new())
    }

    /// The state of the module of `dir`, made with `file` as its one file
    /// if there is none (the module's other files are added once the
    /// change has put every file in place). Its dialect is then chosen by
    /// that file, usually as by all of them: made empty, it was chosen by no
    /// file, and each of the dialect's inputs set again once the files came
    /// was a new revision of the database.
    fn module_state_with(&mut self, dir: &Utf8Path, file: File) -> &mut ModuleState {
        self.make_module_state(dir, vec![file])
    }

    /// The state of the module of `dir`, made with `files` if there is
    /// none.
    fn make_module_state(&mut self, dir: &Utf8Path, files: Vec<File>) -> &mut ModuleState {
        if !self.modules.contains_key(dir) {
            let module = self.db.set_module_files(dir.to_owned(), files);
            self.stale_reads.insert(PathKey::new(dir));
            // Modules mostly come in path order (a walk's): checked against
            // the last first, which is one comparison instead of a search.
            let last_is_before =
                self.module_order.last().is_none_or(|last| vfs::path_order(last, dir).is_lt());
            let at = if last_is_before {
                self.module_order.len()
            } else {
                self.module_order.binary_search_by(|it| vfs::path_order(it, dir)).unwrap_or_else(|at| at)
            };
            self.module_order.insert(at, dir.to_owned());
            self.modules.insert(
                dir.to_owned(),
                Box::new(ModuleState {
                    module,
                    reported: true,
                    members: FxHashSet::default(),
                    variables: BTreeMap::new(),
                    facts: None,
                    parked: false,
                    declared: FxHashMap::default(),
                    references: FxHashMap::default(),
                    shown_values: Vec::new(),
                    pending: Pending { all: true, ..Pending::default() },
                    carried: Carried::default(),
                }),
            );
        }
        self.modules.get_mut(dir).unwrap_or_else(|| unreachable!("inserted above"))
    }

    /// Marks a file's diagnostics to be found again.
    fn mark_file(&mut self, file: File) {
        let module = self.files.get(file.path(&self.db)).and_then(|it| it.module.clone());
        match module.and_then(|dir| self.modules.get_mut(&dir)) {
            Some(state) => {
                state.pending.files.insert(file);
            }
            None => {
                self.dirty_standalone.insert(file);
            }
        }
    }

    /// Reads each changed file now, once, while its tree is in memory:
    /// everything the module model and the diagnostics keep of a file (its
    /// declarations, its expressions, its references, its variables' types,
    /// its syntax errors and style lints) is computed here, on a thread per
    /// core when there are many, a chunk at a time, and the trees of a chunk
    /// are evicted before the next is read: a module of thousands of files
    /// is parsed once and never held whole. Each file's declarations go into
    /// its snapshot, the input the module-wide queries read (see
    /// `db::module::declarations_of`). A change of declarations that gives
    /// blocks ordinals (unlabelled or repeatable blocks: `moved.0`) may
    /// renumber other files' blocks: their modules are found again whole.
    fn read_files(&mut self, files: &[File]) {
        let files: Vec<File> =
            files.iter().copied().filter(|&file| file.status(&self.db) == FileStatus::Exists).collect();
        let threads = self.options.threads();
        let structure = self.options.block_structure;
        // The trees of the chunk read before, each dropped by the thread
        // that reads the file at its position in the next chunk (see
        // `TREES_DROPPED_LATER`).
        let mut trees: Vec<std::sync::Mutex<Option<Box<dyn Send>>>> = Vec::new();
        for chunk in files.chunks(FILES_PER_CHUNK) {
            let in_module: Vec<bool> = chunk
                .iter()
                .map(|&file| self.files.get(file.path(&self.db)).is_some_and(|it| it.module.is_some()))
                .collect();
            let text: usize = chunk.iter().map(|file| file.text(&self.db).len()).sum();
            let keep_trees = text <= TREES_DROPPED_LATER;
            let work: Vec<(usize, File, bool)> = chunk
                .iter()
                .copied()
                .zip(in_module)
                .enumerate()
                .map(|(at, (file, member))| (at, file, member))
                .collect();
            let earlier = &trees;
            // Reading many files (parsing, lowering, each one's checks) is
            // always worth the other threads: they start at once.
            let read = || {
                parallel_map_after(
                    &self.db,
                    &work,
                    threads,
                    || {},
                    |db, (at, file, in_module)| {
                        if let Some(tree) = earlier.get(at) {
                            drop(crate::lock(tree).take());
                        }
                        let _ = analysis::diagnostics(db, file);
                        let _ = db::parses_cleanly(db, file);
                        let tree = (keep_trees && file.syntax(db) != db::SourceSyntax::Json)
                            .then(|| db::parse(db, file).green().clone());
                        if !in_module {
                            return (None, tree.map(|tree| Box::new(tree) as Box<dyn Send>));
                        }
                        let declarations = module::file_declarations(db, file).clone();
                        let _ = module::file_exprs(db, file);
                        if module::declares_variable_types(db, file) {
                            let _ = module::variable_types(db, file);
                        }
                        let _ = analysis::file_references(db, file);
                        if let Some(plugin) = db::Db::dialects(db).claiming(file.path(db)) {
                            plugin.read_while_parsed(db, file);
                        }
                        // Terraform's checks, for the files they read: for any
                        // other, a memo of nothing was kept.
                        if analysis::terraform::has_file_schema(file.path(db)) {
                            let _ = analysis::terraform::schema_diagnostics(db, file);
                        }
                        if analysis::terraform_contexts::is_configuration(db, file) {
                            let _ = analysis::terraform_contexts::context_diagnostics(db, file);
                        }
                        if vfs::TerraformFormat::of(file.path(db)).is_some_and(vfs::TerraformFormat::is_stack)
                        {
                            let _ = analysis::terraform_stacks::stack_declarations(db, file);
                        }
                        if structure {
                            let _ = module::file_blocks(db, file);
                        }
                        // Its HIR and source map, read by its declarations, go
                        // with its tree.
                        let lowered = keep_trees.then(|| db::lower_with_source_map(db, file).clone());
                        (Some(declarations), Some(Box::new((tree, lowered)) as Box<dyn Send>))
                    },
                )
            };
            // The files parsed here count for the next report.
            let before = self.db.executions();
            let declarations = read();
            if self.record_stats {
                self.pending_stats.parsed += (self.db.executions() - before).parsed;
            }
            // What the earlier chunk's trees left is dropped here, and this
            // chunk's are held past their eviction below.
            drop(std::mem::take(&mut trees));
            for (&file, (declarations, tree)) in chunk.iter().zip(declarations) {
                trees.push(std::sync::Mutex::new(tree));
                if let Some(declarations) = declarations {
                    self.snapshot_declarations(file, declarations);
                }
            }
            // A check keeps a chunk's trees for its report (diagnostics'
            // ranges), unless they are large: then the module model's
            // copies would sit beside them, and the few files that need
            // theirs again are parsed again.
            if self.options.values == Values::None && text > LARGE_CHUNK_TEXT {
                self.db.evict_all_parse_trees();
            } else {
                self.db.evict_parse_trees();
            }
        }
        // The last chunk's, on every thread.
        let last: Vec<&std::sync::Mutex<Option<Box<dyn Send>>>> = trees.iter().collect();
        parallel_map_after(&self.db, &last, threads, || {}, |_, tree| drop(crate::lock(tree).take()));
    }

    /// Keeps a file's declarations in its snapshot (see [`Self::read_files`]).
    fn snapshot_declarations(&mut self, file: File, declarations: Arc<module::FileDeclarations>) {
        let previous = file.declarations(&self.db).clone();
        if !self.db.set_file_declarations(file, declarations.clone()) {
            return;
        }
        let dir = self.files.get(file.path(&self.db)).and_then(|it| it.module.clone());
        let Some(state) = dir.and_then(|dir| self.modules.get_mut(&dir)) else { return };
        let rules = state.module.dialect(&self.db).rules(&self.db).clone();
        let ordinal = |declarations: &module::FileDeclarations| {
            declarations.declarations.iter().any(|declaration| {
                declaration.kind == DeclarationKind::Block
                    && match declaration.address.segments()[..] {
                        [_] => true,
                        [type_name, ..] => rules.repeatable_block_types.contains(type_name),
                        [] => false,
                    }
            })
        };
        if previous.as_deref().is_some_and(ordinal) || ordinal(&declarations) {
            state.pending.all = true;
        }
    }

    /// Computes what changed since the last report and reports it: the
    /// values of the attributes an edit can reach (the edited ones and what
    /// reads them), and the diagnostics of the files those are in.
    pub fn report(&mut self) -> Report {
        let job = self.prepare_report();
        crate::trace::mark("report: prepared");
        match job.run() {
            Ok(draft) => self.commit_report(draft),
            // Nothing else holds a handle on this host's database, so
            // nothing can cancel the run; should it happen, the work waits
            // for the next report.
            Err(unfinished) => {
                self.requeue(unfinished);
                Report::default()
            }
        }
    }

    /// Keeps the work of a cancelled report for the next one.
    pub fn requeue(&mut self, unfinished: Unfinished) {
        for work in unfinished.modules {
            let Some(state) = self.modules.get_mut(&work.dir) else { continue };
            state.carried.nodes.extend(work.value_nodes.iter().copied());
            state.carried.files.extend(work.files.into_iter().map(|(file, _)| file));
            state.carried.removed.extend(work.removed);
        }
        self.dirty_standalone.extend(unfinished.standalone);
        self.pending_stats.parsed += unfinished.applied.parsed;
        self.pending_stats.evaluated += unfinished.applied.evaluated;
    }

    /// The first half of a report: brings each module's dependency graph up
    /// to date with the changes applied since the last report, and says
    /// which values to evaluate and which files' diagnostics to find. The
    /// job runs on any thread ([`ReportJob::run`]) on a snapshot of the
    /// database; a change applied meanwhile cancels it, and the next job
    /// covers both.
    pub fn prepare_report(&mut self) -> ReportJob {
        self.prepare_report_part(usize::MAX)
    }

    /// [`Self::prepare_report`] for a part of what is due: the modules in
    /// path order until the job holds about `files` files' diagnostics
    /// (a module is never split), then files of no module up to the same
    /// count. What is left stays due for the next part
    /// ([`Self::report_pending`]). A front end that reports a whole
    /// workspace in parts, committing each ([`Self::commit_report`] drops
    /// the trees it parsed), holds one part's trees at a time rather than
    /// every file's.
    pub fn prepare_report_part(&mut self, files: usize) -> ReportJob {
        let mut modules = Vec::new();
        let mut taken = 0;
        let dirs: Vec<Utf8PathBuf> = self.module_order.clone();
        for dir in dirs {
            if taken >= files {
                break;
            }
            if let Some(job) = self.prepare_module(&dir) {
                // Evaluation stops at the cycles the graph found, rather
                // than going round them (see `db::module::KnownCycles`).
                if job.cycles_changed {
                    self.db.set_module_cycles(job.module, job.facts.known_cycles());
                }
                taken += job.files.len();
                modules.push(job);
            }
        }
        let mut standalone: Vec<File> = Vec::new();
        if taken < files {
            standalone = sorted_by_path(&self.db, self.dirty_standalone.drain().collect(), |&file| file);
            let left = files - taken;
            if standalone.len() > left {
                self.dirty_standalone.extend(standalone.drain(left..));
            }
        }
        let levels_of = |file: File| {
            self.levels.get(file.path(&self.db)).cloned().unwrap_or_else(|| self.default_levels.clone())
        };
        let levels: FxHashMap<File, Arc<RuleLevels>> = modules
            .iter()
            .flat_map(|job: &ModuleJob| job.files.iter().map(|(file, _)| *file))
            .chain(standalone.iter().copied())
            .map(|file| (file, levels_of(file)))
            .collect();
        ReportJob {
            db: self.db.clone(),
            modules,
            standalone,
            levels,
            max_diagnostics: self.options.limits.max_diagnostics_per_file,
            values: self.options.values == Values::Reported,
            threads: self.options.threads(),
            record_stats: self.record_stats,
            applied: std::mem::take(&mut self.pending_stats),
        }
    }

    /// Whether a report is due: changes applied since the last one, or
    /// what a part ([`Self::prepare_report_part`]) left.
    pub fn report_pending(&self) -> bool {
        !self.dirty_standalone.is_empty() || self.modules.values().any(|state| state.is_due())
    }

    fn prepare_module(&mut self, dir: &Utf8Path) -> Option<ModuleJob> {
        let db = &self.db;
        let values = self.options.values == Values::Reported;
        let threads = self.options.threads();
        let state = self.modules.get_mut(dir)?;
        // Nothing changed since the module's last report: nothing to do
        // (and nothing to look up, for each of a workspace's modules
        // when one part of a report is prepared).
        if (state.facts.is_some() || state.parked) && state.pending.is_empty() && state.carried.is_empty() {
            return None;
        }
        let pending = std::mem::take(&mut state.pending);
        let carried = std::mem::take(&mut state.carried);
        if !state.reported {
            return None;
        }
        let module = state.module;
        // Whether a file is one of the module's now (a lookup: the module may
        // have thousands).
        let members = &state.members;
        let is_member = |file: File| members.contains(&file);
        // Every attribute and variable has a node.
        let index = module::IndexView::of(db, module);
        let is_node = |address: &Address| index.definition(address).is_some_and(|def| def.kind.has_value());
        let full = pending.all || state.facts.is_none();
        state.parked = false;
        // The module's attribute count, when it is rebuilt in full: the
        // values kept past a revision are at least twice the largest's.
        let mut attributes = None;
        let facts = Arc::make_mut(state.facts.get_or_insert_with(Default::default));
        let mut dirty_nodes: Vec<NodeId> = Vec::new();
        let mut dirty_files: FxHashSet<File> = FxHashSet::default();
        let mut removed: Vec<(NodeId, Address)> = Vec::new();
        let cycles_changed;
        if full {
            let addresses: Vec<&Address> =
                module::module_order(db, module).filter(|it| is_node(it)).collect();
            let present: FxHashSet<&Address> = if facts.graph().nodes().next().is_some() {
                addresses.iter().copied().collect()
            } else {
                FxHashSet::default()
            };
            let gone: Vec<Address> = facts
                .graph()
                .nodes()
                .map(|node| facts.graph().address(node).clone())
                .filter(|address| !present.contains(address))
                .collect();
            for address in gone {
                if let Some(node) = facts.graph().node(&address) {
                    removed.push((node, address.clone()));
                }
                facts.remove(&address);
            }
            // Resolved on every thread, a chunk of the module's attributes
            // at a time: a chunk's targets are held only until the graph
            // has them (all of a big module's at once were a sixth of a
            // check's peak memory).
            facts.reserve(addresses.len().saturating_sub(facts.graph().nodes().count()));
            attributes = Some(addresses.len());
            crate::trace::mark("prepare: addresses");
            // Each chunk's targets go into the graph a chunk behind: the
            // calling thread adds one chunk's while the others find the
            // next, then joins them, so no core waits while the graph is
            // built.
            let mut found: Vec<(&Address, Vec<module::Target>)> = Vec::new();
            let add_found = |found: Vec<(&Address, Vec<module::Target>)>,
                             facts: &mut ModuleFacts,
                             dirty: &mut Vec<NodeId>| {
                for (address, targets) in found {
                    dirty.push(facts.set_targets(address, &targets));
                }
            };
            for chunk in addresses.chunks(ATTRIBUTES_PER_CHUNK) {
                let earlier = std::mem::take(&mut found);
                let targets = parallel_map_after(
                    db,
                    chunk,
                    threads,
                    || add_found(earlier, facts, &mut dirty_nodes),
                    |db, address| module::attribute_targets(db, module, address),
                );
                found = chunk.iter().copied().zip(targets).collect();
            }
            add_found(found, facts, &mut dirty_nodes);
            facts.inputs_changed();
            crate::trace::mark("prepare: resolved");
            // The names each file uses are counted on a thread of their
            // own while this one finds the graph's cycles and each file's
            // declared addresses: neither reads the other, and done one
            // after the other they held every other thread waiting.
            let files = module.files(db);
            let count_usage = |db: &RootDatabase| {
                let mut usage = analysis::Usage::default();
                let mut references = Vec::with_capacity(files.len());
                for &file in files {
                    let found = analysis::file_references(db, file);
                    usage.count(found, 1);
                    references.push((file, found.clone()));
                }
                (usage, references)
            };
            let mut cycles_and_declared = || {
                let cycles_changed = !facts.find_cycles(None).is_empty();
                let declared: FxHashMap<File, Arc<[Address]>> = module::module_files(db, module)
                    .iter()
                    .map(|&file| (file, module::file_index(db, module, file).addresses.clone()))
                    .filter(|(_, addresses)| !addresses.is_empty())
                    .collect();
                (cycles_changed, declared)
            };
            // The calling thread finds the cycles, and the count, a queue of
            // one, is taken by whichever thread comes to it first (the
            // calling one too, when no other starts).
            let mut found = None;
            let mut counted = share_out(
                db,
                1,
                threads,
                1,
                Helpers::AtOnce,
                || found = Some(cycles_and_declared()),
                |db, _| count_usage(db),
            );
            // Both are found by then: `share_out` does `first`, and every
            // item no other thread took, on the calling thread.
            let (usage, references) = counted.pop().map_or_else(|| count_usage(db), |(_, counted)| counted);
            let (changed, declared) = found.unwrap_or_else(&mut cycles_and_declared);
            *facts.usage_mut() = usage;
            cycles_changed = changed;
            state.declared = declared;
            state.references.clear();
            state.references.extend(references);
            dirty_files.extend(members.iter().copied());
            dirty_files.extend(pending.files.iter().copied());
        } else {
            let mut seeds: FxHashSet<Address> = FxHashSet::default();
            let mut changed: FxHashSet<Address> = FxHashSet::default();
            for &file in &pending.files {
                let old = state.declared.remove(&file).unwrap_or_default();
                let new: Arc<[Address]> = if is_member(file) {
                    module::file_index(db, module, file).addresses.clone()
                } else {
                    Arc::default()
                };
                let old_set: FxHashSet<&Address> = old.iter().collect();
                let new_set: FxHashSet<&Address> = new.iter().collect();
                changed.extend(old_set.symmetric_difference(&new_set).map(|it| (*it).clone()));
                seeds.extend(old.iter().cloned());
                seeds.extend(new.iter().cloned());
                if !new.is_empty() {
                    state.declared.insert(file, new);
                }
            }
            for name in &pending.variables {
                seeds.insert(Address::new(["var", name.as_str()]));
            }
            let mut update: Vec<Address> = seeds.into_iter().collect();
            if !changed.is_empty() {
                update.extend(
                    facts
                        .graph()
                        .affected_by(&changed)
                        .into_iter()
                        .map(|node| facts.graph().address(node).clone()),
                );
            }
            update.sort();
            update.dedup();
            let mut updated: Vec<NodeId> = Vec::new();
            // Whether any edge or node came or went: most edits change a
            // value and not what it reads.
            let mut shape_changed = false;
            for address in &update {
                if is_node(address) {
                    let (node, changed) =
                        facts.update_targets(address, &module::attribute_targets(db, module, address));
                    shape_changed |= changed;
                    updated.push(node);
                } else if let Some(node) = facts.graph().node(address) {
                    if facts.graph().is_present(node) {
                        removed.push((node, address.clone()));
                        shape_changed = true;
                    }
                    facts.remove(address);
                }
            }
            if pending.inputs_flipped || !pending.variables.is_empty() {
                facts.inputs_changed();
            }
            dirty_nodes = facts.graph().dependents(updated.iter().copied());
            // The cycles are the graph's shape: searched again among the
            // dirty nodes only when it changed.
            let cycles_changed_at = if shape_changed {
                let within: FxHashSet<NodeId> = dirty_nodes.iter().copied().collect();
                facts.find_cycles(Some(&within))
            } else {
                Vec::new()
            };
            cycles_changed = !cycles_changed_at.is_empty();
            // References: the names whose use changed are in the files that
            // declare them.
            let mut flipped: Vec<UseChange> = Vec::new();
            for &file in &pending.files {
                let old = state.references.remove(&file).unwrap_or_default();
                let new = if is_member(file) {
                    analysis::file_references(db, file).clone()
                } else {
                    Arc::default()
                };
                if old != new {
                    flipped.extend(facts.usage_mut().replace(&old, &new));
                }
                if is_member(file) {
                    state.references.insert(file, new);
                }
            }
            let file_of = |address: &Address| index.definition(address).map(|def| def.file);
            dirty_files.extend(pending.files.iter().copied());
            dirty_files.extend(
                dirty_nodes
                    .iter()
                    .chain(&cycles_changed_at)
                    .filter_map(|&node| file_of(facts.graph().address(node))),
            );
            for change in &flipped {
                match change {
                    UseChange::Name(root, name) => {
                        dirty_files.extend(file_of(&Address::new([root.clone(), name.clone()])));
                    }
                    UseChange::Whole(root) => dirty_files.extend(
                        module::names_under(db, module, root)
                            .iter()
                            .filter_map(|name| file_of(&Address::new([root.clone(), name.clone()]))),
                    ),
                }
            }
            // A declaration that appeared or went away may make or end a
            // duplicate in another file.
            dirty_files.extend(changed.iter().filter_map(&file_of));
            for address in &changed {
                for duplicate in module::duplicates_of(db, module, address) {
                    dirty_files.insert(duplicate.first.0);
                    dirty_files.insert(duplicate.duplicate.0);
                }
            }
            if pending.inputs_flipped {
                dirty_files.extend(members.iter().copied());
            }
        }
        dirty_nodes.extend(carried.nodes.into_iter().filter(|node| facts.graph().is_present(*node)));
        dirty_nodes.sort_unstable();
        dirty_nodes.dedup();
        dirty_files.extend(carried.files);
        removed.extend(carried.removed);
        if dirty_nodes.is_empty() && dirty_files.is_empty() && removed.is_empty() {
            return None;
        }
        let value_nodes: Vec<NodeId> = if values {
            let present: FxHashSet<NodeId> = dirty_nodes.iter().copied().collect();
            let graph = facts.graph();
            let order = graph.evaluation_order(dirty_nodes.iter().copied());
            // Each with its definition, looked up once: the sort below
            // compares each node several times, and a lookup in the
            // index's parts was most of an edit's sorting.
            let mut out: Vec<(Option<&module::Definition>, NodeId)> = order
                .into_iter()
                .filter(|node| present.contains(node) && graph.is_present(*node))
                .map(|node| (index.definition(graph.address(node)), node))
                .collect();
            // Reported in declaration order; evaluated dependencies first.
            out.sort_by(|(a, _), (b, _)| match (a, b) {
                (Some(a), Some(b)) => module::declaration_order(db, a, b),
                (a, b) => a.is_some().cmp(&b.is_some()),
            });
            out.into_iter().map(|(_, node)| node).collect()
        } else {
            Vec::new()
        };
        let files: Vec<(File, bool)> =
            sorted_by_path(db, dirty_files.into_iter().map(|file| (file, is_member(file))).collect(), |it| {
                it.0
            });
        // The children of the module's calls, whose variables its
        // diagnostics compare the calls with.
        let mut inputs: FxHashMap<Utf8PathBuf, Option<Arc<ModuleInterface>>> = FxHashMap::default();
        let mut called: Vec<PathKey> = Vec::new();
        for call in module::module_calls(db, module) {
            called.push(PathKey::new(call.dir.as_path()));
            let found = match self.modules.get(&call.dir) {
                Some(child) => module::child_interface(db, child.module),
                None => self.external_inputs.as_ref().and_then(|inputs| inputs(&call.dir)),
            };
            inputs.insert(call.dir.clone(), found);
        }
        called.sort_unstable_by(|a, b| a.as_str().cmp(b.as_str()));
        called.dedup();
        self.set_reads_of(PathKey::new(dir), Reading::CalledModule, called);
        if let Some(attributes) = attributes {
            self.db.keep_values_of(attributes);
        }
        let state = self.modules.get_mut(dir)?;
        Some(ModuleJob {
            dir: dir.to_owned(),
            module,
            facts: state.facts.clone().unwrap_or_default(),
            cycles_changed,
            value_nodes,
            removed,
            files,
            inputs,
        })
    }

    /// The second half of a report: compares what the job found with what
    /// was reported before, keeps it as reported, and says what changed.
    pub fn commit_report(&mut self, draft: ReportDraft) -> Report {
        // Reports over more files than the database keeps trees of (the
        // first, or one after a change of configuration, whole or in parts)
        // leave them all until the next revision drops those past the
        // capacity: that would be the next edit's work, thousands of trees,
        // rather than these reports', and the parts of a first report (which
        // make no revision) would hold every tree of the workspace by the
        // last one.
        self.reported_since_eviction = self.reported_since_eviction.saturating_add(draft.diagnostics.len());
        if self.reported_since_eviction > db::PARSE_TREES_KEPT {
            self.db.evict_all_parse_trees();
            self.reported_since_eviction = 0;
        }
        let mut report = Report { stats: draft.stats, ..Report::default() };
        for module in draft.modules {
            let Some(state) = self.modules.get_mut(&module.dir) else { continue };
            let dir = Arc::new(module.dir.clone());
            for (node, address) in module.removed {
                let shown = state.shown_values.get_mut(node as usize).map(std::mem::take).unwrap_or(0);
                if shown != 0 {
                    report.values.push(ValueChange {
                        module: dir.clone(),
                        address,
                        state: ValueState::Removed,
                    });
                }
            }
            let mut values = module.values;
            let mut nodes = module.nodes.into_iter();
            values.retain(|change| {
                let Some(node) = nodes.next() else { return false };
                let hash = stamp(&change.state);
                let index = node as usize;
                if state.shown_values.len() <= index {
                    state.shown_values.resize(index + 1, 0);
                }
                let changed = state.shown_values[index] != hash;
                state.shown_values[index] = hash;
                changed
            });
            if report.values.is_empty() {
                // A first report's values: kept where they were found.
                report.values = values;
            } else {
                report.values.append(&mut values);
            }
            // A host that reports once parks every module: there is no
            // next report for its state to serve. One whose values are read
            // on request keeps the graph, which orders their evaluation.
            let parks = self.options.values == Values::None
                && (self.options.reports_once || state.members.len() <= PARKED_MODULE_FILES);
            if parks {
                state.park();
            }
        }
        let mut resolved = Vec::new();
        let mut added = Vec::new();
        for (file, diagnostics) in draft.diagnostics {
            let old = self.shown_diagnostics.remove(&file).unwrap_or_default();
            for diagnostic in &old {
                if !diagnostics.contains(diagnostic) {
                    resolved.push(DiagnosticChange { diagnostic: diagnostic.clone(), resolved: true });
                }
            }
            for diagnostic in &diagnostics {
                if !old.contains(diagnostic) {
                    added.push(DiagnosticChange { diagnostic: diagnostic.clone(), resolved: false });
                }
            }
            if !diagnostics.is_empty() {
                self.shown_diagnostics.insert(file, diagnostics);
            }
        }
        let order = |a: &DiagnosticChange, b: &DiagnosticChange| {
            let (a, b) = (&a.diagnostic, &b.diagnostic);
            vfs::path_order(&a.path, &b.path)
                .then(a.diagnostic.range.start().cmp(&b.diagnostic.range.start()))
                .then(a.diagnostic.range.end().cmp(&b.diagnostic.range.end()))
        };
        resolved.sort_by(order);
        added.sort_by(order);
        report.diagnostics = resolved;
        report.diagnostics.extend(added);
        report
    }
}

/// A module's part of a [`ReportJob`].
pub struct ModuleJob {
    dir: Utf8PathBuf,
    module: Module,
    facts: Arc<ModuleFacts>,
    /// Whether the graph's cycles changed, to be set in the database.
    cycles_changed: bool,
    /// The values to evaluate, in declaration order: nodes of `facts`'
    /// graph, which holds their addresses (a first report's are every
    /// attribute's, and a copy of each address beside its node was a
    /// fifth of that report's own memory).
    value_nodes: Vec<NodeId>,
    removed: Vec<(NodeId, Address)>,
    /// The files whose diagnostics to find, each with whether it is one of
    /// the module's (a file that left has none).
    files: Vec<(File, bool)>,
    inputs: FxHashMap<Utf8PathBuf, Option<Arc<ModuleInterface>>>,
}

/// The work of a report, on a snapshot of the database (see
/// [`AnalysisHost::prepare_report`]).
pub struct ReportJob {
    db: RootDatabase,
    modules: Vec<ModuleJob>,
    standalone: Vec<File>,
    levels: FxHashMap<File, Arc<RuleLevels>>,
    max_diagnostics: usize,
    values: bool,
    threads: usize,
    record_stats: bool,
    /// What applying the changes cost, counted with the report's own work.
    applied: ReportStats,
}

/// A report's job that a change applied meanwhile cancelled, with its work,
/// for [`AnalysisHost::requeue`].
pub struct Unfinished {
    modules: Vec<ModuleJob>,
    standalone: Vec<File>,
    applied: ReportStats,
}

/// What a [`ReportJob`] found, for [`AnalysisHost::commit_report`].
pub struct ReportDraft {
    modules: Vec<ModuleDraft>,
    diagnostics: Vec<(File, Vec<LocatedDiagnostic>)>,
    stats: ReportStats,
}

struct ModuleDraft {
    dir: Utf8PathBuf,
    removed: Vec<(NodeId, Address)>,
    /// Each value found as the report would carry it, and beside it (by
    /// position) its node: the report keeps those that changed, in place,
    /// rather than copy a first report's every value into a second list.
    /// The hash a value is compared by is taken then, from the value: kept
    /// beside it, it was a sixth of a first report's own memory.
    values: Vec<ValueChange>,
    /// The job's `value_nodes`, handed over when it has run.
    nodes: Vec<NodeId>,
}

impl ReportJob {
    /// Evaluates the values and finds the diagnostics the report needs.
    /// Salsa unwinds it when a change is applied meanwhile (the host's
    /// write waits until it has let go of its handle).
    pub fn run(mut self) -> Result<ReportDraft, Unfinished> {
        let before = self.db.executions();
        match std::panic::catch_unwind(AssertUnwindSafe(|| self.run_uncaught())) {
            Ok(mut found) => {
                if self.record_stats {
                    let ran = self.db.executions() - before;
                    found.stats = ReportStats {
                        parsed: ran.parsed + self.applied.parsed,
                        evaluated: ran.evaluated + self.applied.evaluated,
                    };
                }
                // One draft per module job, in order.
                for (module, job) in found.modules.iter_mut().zip(&mut self.modules) {
                    module.nodes = std::mem::take(&mut job.value_nodes);
                }
                Ok(found)
            }
            Err(payload) if payload.is::<salsa::Cancelled>() => {
                Err(Unfinished { modules: self.modules, standalone: self.standalone, applied: self.applied })
            }
            Err(payload) => std::panic::resume_unwind(payload),
        }
    }

    fn run_uncaught(&self) -> ReportDraft {
        let db = &self.db;
        let levels = &self.levels;
        let max = self.max_diagnostics;
        let mut modules = Vec::new();
        let mut diagnostics = Vec::new();
        for job in &self.modules {
            let graph = job.facts.graph();
            if self.values {
                let order = evaluation_order(
                    db,
                    job.module,
                    &job.facts,
                    job.value_nodes.iter().map(|&node| graph.address(node)),
                );
                evaluate(db, job.module, &order, self.threads);
            }
            // The attributes each file's check evaluates, evaluated in one
            // walk for all the files (a walk per file would go down the
            // same dependencies again for each), then each file's
            // diagnostics.
            let checked =
                |db: &RootDatabase, file: File, member: bool| member && file.status(db) == FileStatus::Exists;
            let candidates: Vec<Vec<Address>> =
                parallel_map(db, &job.files, self.threads, |db, (file, member)| {
                    if !checked(db, file, member) {
                        return Vec::new();
                    }
                    analysis::check_candidates(db, job.module, file, &job.facts)
                        .into_iter()
                        .map(|attr| attr.address(db).clone())
                        .collect()
                });
            crate::trace::mark("run: candidates");
            let order = evaluation_order(db, job.module, &job.facts, candidates.iter().flatten());
            evaluate(db, job.module, &order, self.threads);
            drop(order);
            crate::trace::mark("run: candidates evaluated");
            let inputs_of = |dir: &Utf8Path| job.inputs.get(dir).cloned().flatten();
            let reporters = analysis::CycleReporters::default();
            let work: Vec<(usize, File, bool)> =
                job.files.iter().enumerate().map(|(at, &(file, member))| (at, file, member)).collect();
            diagnostics.extend(parallel_map(db, &work, self.threads, |db, (at, file, member)| {
                let found = if checked(db, file, member) {
                    let candidates: Vec<Attr<'_>> = candidates[at]
                        .iter()
                        .map(|address| Attr::new(db, job.module, address.clone()))
                        .collect();
                    let module_part = analysis::evaluated_file_module_diagnostics(
                        db,
                        job.module,
                        file,
                        &job.facts,
                        &candidates,
                        &reporters,
                        inputs_of,
                    );
                    analysis::file_diagnostics_in_module(db, file, &module_part)
                } else {
                    Cow::Borrowed(&[][..])
                };
                (file, locate(db, levels, max, file, &found))
            }));
            crate::trace::mark("run: diagnostics");
            drop((candidates, work));
            // The values as the report carries them, read from their memos
            // once the diagnostics' own work is let go: a first report's
            // are as many as the module's attributes, and were held through
            // that work, the report's largest.
            let mut values = Vec::with_capacity(if self.values { job.value_nodes.len() } else { 0 });
            // One path for all the module's values.
            let dir = Arc::new(job.dir.clone());
            if self.values {
                for &node in &job.value_nodes {
                    let address = graph.address(node);
                    let attr = Attr::new(db, job.module, address.clone());
                    let result = module::attribute_value(db, attr);
                    let state = match result {
                        Ok(value) => ValueState::Value(value.clone()),
                        Err(error) => ValueState::Error(describe(db, attr, error)),
                    };
                    values.push(ValueChange { module: dir.clone(), address: address.clone(), state });
                }
            }
            modules.push(ModuleDraft {
                dir: job.dir.clone(),
                removed: job.removed.clone(),
                values,
                nodes: Vec::new(),
            });
        }
        diagnostics.extend(parallel_map(db, &self.standalone, self.threads, |db, file| {
            let found: &[analysis::Diagnostic] =
                if file.status(db) == FileStatus::Exists { analysis::diagnostics(db, file) } else { &[] };
            (file, locate(db, levels, max, file, found))
        }));
        ReportDraft { modules, diagnostics, stats: ReportStats::default() }
    }
}

/// A file's diagnostics at the levels its configuration sets, the first
/// `max` of them (and one that counts the rest: `analysis::cap_diagnostics`),
/// with their lines and columns.
fn locate(
    db: &RootDatabase,
    levels: &FxHashMap<File, Arc<RuleLevels>>,
    max: usize,
    file: File,
    diagnostics: &[analysis::Diagnostic],
) -> Vec<LocatedDiagnostic> {
    // Neither step copies what it does not change: a file of a million
    // syntax errors costs a pass over them here, and the copy of a hundred.
    let diagnostics = match levels.get(&file) {
        Some(levels) => levels.apply(diagnostics),
        None => Cow::Borrowed(diagnostics),
    };
    let diagnostics = analysis::cap_diagnostics(db, diagnostics.iter(), max);
    if diagnostics.is_empty() {
        return Vec::new();
    }
    let index = analysis::line_index(db, file);
    let position = |offset| index.line_col(offset);
    diagnostics
        .into_iter()
        .map(|diagnostic| {
            let edits: Vec<(LineCol, LineCol)> = diagnostic
                .suggestions
                .iter()
                .flat_map(|suggestion| &suggestion.edits)
                .map(|edit| (position(edit.range.start()), position(edit.range.end())))
                .collect();
            LocatedDiagnostic {
                path: file.path(db).clone(),
                start: position(diagnostic.range.start()),
                end: position(diagnostic.range.end()),
                edits,
                diagnostic,
            }
        })
        .collect()
}

/// [`AnalysisHost::formatted`] on a handle of the host's database, for a
/// front end that answers on another thread (the language server).
pub fn formatted(db: &RootDatabase, file: File) -> Option<&String> {
    let style = db::default_format_style(db, file.path(db));
    db::format(db, file, style).as_ref()
}

/// An attribute's error in a line: its diagnostic's summary when it has one
/// of its own, or what it is about.
pub fn describe(db: &RootDatabase, attr: Attr<'_>, error: &AttrError) -> String {
    // A cycle's summary, without the diagnostic: that walks the whole cycle
    // for its path, and every member of a cycle of n is described.
    if let AttrError::Cycle(_) = error {
        return ModuleDiagnosticKind::ReferenceCycle.summary().into_owned();
    }
    if let Some(diagnostic) = module::attribute_diagnostic(db, attr) {
        return diagnostic.summary().into_owned();
    }
    match error {
        AttrError::NotDeclared => "Nothing is declared here".to_string(),
        AttrError::Unresolved { kind, .. } => kind.summary().to_string(),
        AttrError::Cycle(_) => "Reference cycle".to_string(),
        AttrError::MissingVariable { .. } | AttrError::NoValue => {
            "No value for required variable".to_string()
        }
        AttrError::Dependency(address) => format!("Depends on a failed attribute: {address} has no value."),
        AttrError::Eval(error) => error.summary().to_string(),
        AttrError::InvalidType => "Invalid type specification".to_string(),
        AttrError::InvalidValue { .. } => "Invalid value for variable".to_string(),
    }
}

/// The hash a value or error is compared by with what was last reported
/// (0 means nothing was).
fn stamp(state: &ValueState) -> u64 {
    let mut hasher = FxHasher::default();
    match state {
        ValueState::Value(value) => Some(value).hash(&mut hasher),
        ValueState::Error(message) => {
            None::<&Value>.hash(&mut hasher);
            message.hash(&mut hasher);
        }
        ValueState::Removed => {}
    }
    hasher.finish().max(1)
}

/// `addresses` of `module` and what they read, dependencies first, by the
/// module's graph, which `prepare_module` keeps current with the
/// resolutions: the order then costs no queries. (Finding it through the
/// resolutions again, as `db::module::evaluation_order` does where there is
/// no graph, was most of an edit's work: it visits every attribute the
/// changed ones read, however far down.) An address the graph does not
/// hold is ordered through its resolutions.
fn evaluation_order<'a>(
    db: &RootDatabase,
    module: Module,
    facts: &ModuleFacts,
    addresses: impl IntoIterator<Item = &'a Address>,
) -> Vec<Address> {
    let graph = facts.graph();
    let mut roots = Vec::new();
    let mut elsewhere = Vec::new();
    for address in addresses {
        match graph.node(address) {
            Some(node) if graph.is_present(node) => roots.push(node),
            _ => elsewhere.push(Attr::new(db, module, address.clone())),
        }
    }
    let mut order: Vec<Address> = graph
        .evaluation_order(roots)
        .into_iter()
        .filter(|node| graph.is_present(*node))
        .map(|node| graph.address(node).clone())
        .collect();
    if !elsewhere.is_empty() {
        order.extend(
            module::evaluation_order(db, &elsewhere).into_iter().map(|attr| attr.address(db).clone()),
        );
    }
    order
}

/// Evaluates `order`'s attributes of `module`, an order with dependencies
/// first (see `db::module::evaluate_in_order`), on up to `threads`
/// threads: each takes the next run of attributes in that order, so that
/// the attributes a thread asks for are mostly done or being done (salsa
/// makes a thread wait for a value another is computing, and never
/// computes one twice).
fn evaluate(db: &RootDatabase, module: Module, order: &[Address], threads: usize) {
    for_each(db, order, threads, |db, address| {
        let _ = module::attribute_value(db, Attr::new(db, module, address.clone()));
    });
}

/// `items` in the path order of each one's file ([`vfs::sort_by_path`],
/// each path read from its input once), stably.
fn sorted_by_path<T>(db: &RootDatabase, items: Vec<T>, file: impl Fn(&T) -> File) -> Vec<T> {
    let mut keyed: Vec<(&Utf8Path, T)> =
        items.into_iter().map(|item| (file(&item).path(db).as_path(), item)).collect();
    vfs::sort_by_path(&mut keyed, |it| it.0);
    keyed.into_iter().map(|(_, item)| item).collect()
}

/// When the threads beside the calling one start on a share of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Helpers {
    /// At once: the work is known to be worth them (reading many files),
    /// or the calling thread has work of its own to do meanwhile.
    AtOnce,
    /// Once the work left, at the pace the calling thread kept alone,
    /// would take longer than [`WORTH_A_THREAD`]. Most of a report after
    /// an edit is a few hundred attributes or files, each mostly a memo
    /// read: done in a millisecond or two on one thread, and starting
    /// another (its stack and heap to fault in, a database handle, and
    /// waits on the first where the work is a chain of dependencies) cost
    /// more than the share it took.
    WhenWorthIt,
}

/// The work left, at the calling thread's pace, that is worth starting the
/// other threads for (see [`Helpers::WhenWorthIt`]). On two cores, `watch`'s
/// edits of the chains module (`gen-module --shape chains`), each about
/// 1.5 ms of evaluation, took 14% less time (201 attributes fanning in
/// from one) and 19% less (up to 162 along chains) than with a second
/// thread started for each step of their reports: the medians of 64
/// edits of each kind.
const WORTH_A_THREAD: std::time::Duration = std::time::Duration::from_millis(2);

/// `f` of each of `items`, in order, on the calling thread, and on up to
/// `threads` threads in all, each with its own handle on the database,
/// when the work proves long enough to be worth them (see
/// [`Helpers::WhenWorthIt`]).
fn parallel_map<I: Copy + Sync, T: Send>(
    db: &RootDatabase,
    items: &[I],
    threads: usize,
    f: impl Fn(&RootDatabase, I) -> T + Sync,
) -> Vec<T> {
    map_in_runs(db, items, threads, Helpers::WhenWorthIt, || {}, f)
}

/// [`parallel_map`] with the other threads started at once when there are
/// many items (work known to be worth them), the calling thread doing
/// `first` (work of its own that needs no other thread) meanwhile.
fn parallel_map_after<I: Copy + Sync, T: Send>(
    db: &RootDatabase,
    items: &[I],
    threads: usize,
    first: impl FnOnce(),
    f: impl Fn(&RootDatabase, I) -> T + Sync,
) -> Vec<T> {
    const MANY: usize = 64;
    let threads = if items.len() < MANY { 1 } else { threads };
    map_in_runs(db, items, threads, Helpers::AtOnce, first, f)
}

/// `f` of each of `items`, in order, in runs shared out as `helpers` says.
fn map_in_runs<I: Copy + Sync, T: Send>(
    db: &RootDatabase,
    items: &[I],
    threads: usize,
    helpers: Helpers,
    first: impl FnOnce(),
    f: impl Fn(&RootDatabase, I) -> T + Sync,
) -> Vec<T> {
    // Several runs per thread, taken in turn: a thread the system leaves
    // waiting (the machine is shared) then holds up one run, not a
    // thread's whole share.
    const RUNS_PER_THREAD: usize = 8;
    let run = items.len().div_ceil(threads.max(1) * RUNS_PER_THREAD);
    let mut made = share_out(db, items.len(), threads, run, helpers, first, |db, range| {
        items[range].iter().map(|&item| f(db, item)).collect::<Vec<T>>()
    });
    made.sort_unstable_by_key(|(start, _)| *start);
    made.into_iter().flat_map(|(_, made)| made).collect()
}

/// `f` of each of `items`, on the calling thread and on others as
/// [`parallel_map`] starts them. Each thread takes the next run of items in
/// order, so that with an order of dependencies first the items a thread
/// needs are mostly done or being done.
fn for_each<I: Sync>(db: &RootDatabase, items: &[I], threads: usize, f: impl Fn(&RootDatabase, &I) + Sync) {
    /// Items a thread takes at a time.
    const RUN: usize = 64;
    share_out(
        db,
        items.len(),
        threads,
        RUN,
        Helpers::WhenWorthIt,
        || {},
        |db, range| {
            for item in &items[range] {
                f(db, item);
            }
        },
    );
}

/// `f` of runs of the positions `0..len`, on the calling thread (which does
/// `first` before) and on up to `threads - 1` others, started as `helpers`
/// says, each with its own handle on the database and a deep stack: what
/// `f` made of each run, with the run's start, in no order. A thread takes
/// the next `run` positions when done with its last, from a shared queue,
/// so a thread the system will not start leaves its share to the others;
/// the calling thread, while alone, takes one at a time, so that it sees
/// the pace of the work as soon as it can. A panic, salsa's cancellation
/// among them, is raised again on the calling thread.
fn share_out<T: Send>(
    db: &RootDatabase,
    len: usize,
    threads: usize,
    run: usize,
    helpers: Helpers,
    first: impl FnOnce(),
    f: impl Fn(&RootDatabase, std::ops::Range<usize>) -> T + Sync,
) -> Vec<(usize, T)> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    /// How long the calling thread works alone before it judges the pace:
    /// the first items are the slowest (their memos not yet in the cache).
    const SAMPLED: u128 = WORTH_A_THREAD.as_nanos() / 8;
    let run = run.max(1);
    let next = AtomicUsize::new(0);
    let made = std::sync::Mutex::new(Vec::new());
    let take = |size: usize| {
        let start = next.fetch_add(size, Ordering::Relaxed);
        (start < len).then(|| start..(start + size).min(len))
    };
    let run_one = |db: &RootDatabase, range: std::ops::Range<usize>| {
        let start = range.start;
        let found = f(db, range);
        crate::lock(&made).push((start, found));
    };
    let work = |db: &RootDatabase, size: usize| {
        while let Some(range) = take(size) {
            run_one(db, range);
        }
    };
    // A helper per run at most, and, when they start at once, one more
    // share for the calling thread's `first`.
    let threads = threads.min(len.div_ceil(run) + usize::from(helpers == Helpers::AtOnce));
    if threads < 2 {
        first();
        work(db, len.max(1));
        return made.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    let work = &work;
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        let start_helpers = |handles: &mut Vec<_>| {
            // As many as there are runs left for them.
            let left = len.saturating_sub(next.load(Ordering::Relaxed)).div_ceil(run);
            handles.extend((1..threads.min(left + 1)).filter_map(|_| {
                let db = db.clone();
                std::thread::Builder::new()
                    .stack_size(DEEP_STACK)
                    .spawn_scoped(scope, move || work(&db, run))
                    .ok()
            }));
        };
        if helpers == Helpers::AtOnce {
            start_helpers(&mut handles);
        }
        let own = std::panic::catch_unwind(AssertUnwindSafe(|| {
            first();
            if handles.is_empty() {
                let began = std::time::Instant::now();
                let mut done: u128 = 0;
                while let Some(range) = take(1) {
                    run_one(db, range);
                    done += 1;
                    let left = len.saturating_sub(next.load(Ordering::Relaxed)) as u128;
                    let alone = began.elapsed().as_nanos();
                    if left > 0 && alone >= SAMPLED && alone * left / done > WORTH_A_THREAD.as_nanos() {
                        crate::trace::mark_with(|| format!("threads started after {done} of {len} items"));
                        start_helpers(&mut handles);
                        break;
                    }
                }
            }
            work(db, run);
        }));
        for handle in handles {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        if let Err(panic) = own {
            std::panic::resume_unwind(panic);
        }
    });
    made.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner)
}
