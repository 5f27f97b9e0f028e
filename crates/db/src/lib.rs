//! The salsa database of Halite.
//!
//! This crate owns the inputs (a [`File`] per source file, with its path, its
//! text and whether it still exists), the table that finds a file's input by
//! path ([`RootDatabase::file`]), the way changes are applied to inputs, and
//! the queries that wire the lower crates together: [`parse`], and
//! [`format()`] and [`lower`] (with [`source_map`] beside it) over it.
//! Everything above it (analyses, the formatter, the command line, a future
//! language server) asks questions of this database, so an edit redoes only
//! the work it affects.
//!
//! It must never depend on the command line (`cli`) or on anything that
//! renders output: front ends depend on the database, not the other way
//! round. Nor does it know any tool built on HCL: each is a dialect
//! plug-in ([`module::DialectPlugin`]) in the registry the database is
//! made with ([`RootDatabase::with_dialects`]), and the `dialects` crate,
//! which holds Halite's own, depends on this one, never the reverse.

mod files;
pub mod graph;
pub mod module;
mod one_or_many;

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicUsize, Ordering},
};

pub use camino::{Utf8Path, Utf8PathBuf};
use hir::{FileHir, SourceMap};
pub use salsa;
use salsa::plumbing::AsId;
use salsa::{Database as _, Setter as _};
use syntax::{
    Parse, SyntaxError,
    ast::{JsonDocument, SourceFile},
};

pub use fmt::Style as FormatStyle;
pub use vfs::SourceSyntax;

pub use crate::files::{File, FileStatus, Files};
pub use crate::module::{Address, Attr, Module};
pub use crate::one_or_many::OneOrMany;

/// The database trait every query of the workspace takes; other crates'
/// tracked functions take `&dyn Db` so that any database (the real one, a
/// test one) can answer them.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The input for a path, if the database has seen it.
    fn file(&self, path: &Utf8Path) -> Option<File>;

    /// Whether modules' indexes are kept in parts (see [`module::index`]).
    fn keeps_index_parts(&self) -> bool;

    /// What each attribute's value reads through a memo of its own (see
    /// [`module::Firewall`]): none once
    /// [`RootDatabase::without_value_firewalls`] was called, else its
    /// expression where indexes are kept in parts, else its resolution.
    fn value_firewall(&self) -> module::Firewall;

    /// A part of a module's index, if it was made.
    fn index_part(&self, module: Module, key: module::PartRef<'_>) -> Option<module::IndexPart>;

    /// The parts' own copy of `address`, if it has a part (see
    /// [`module::IndexView::declared_address`]).
    fn index_address(&self, module: Module, address: &module::Address) -> Option<module::Address>;

    /// The registry of dialects, fixed when the database is made.
    fn dialects(&self) -> &module::Dialects;

    /// Notes that a query looked for `path` and found no file, and returns
    /// the input such a query reads, which changes when a file of a path
    /// looked for is added (see [`file_by_path`]).
    fn missed_file(&self, path: &Utf8Path) -> Option<MissedPaths>;

    /// Notes that a query a front end's statistics count ran (rather than
    /// being reused), when the database counts them (see
    /// [`RootDatabase::count_executions`]).
    fn note_executed(&self, query: CountedQuery);
}

/// The queries [`RootDatabase::executions`] counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountedQuery {
    /// [`parse`] or [`parse_json`].
    Parse,
    /// [`module::attribute_value`].
    AttributeValue,
}

/// How many times the counted queries ran, since the database began
/// counting (see [`RootDatabase::count_executions`]).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Executions {
    pub parsed: usize,
    pub evaluated: usize,
}

impl std::ops::Sub for Executions {
    type Output = Executions;

    fn sub(self, earlier: Executions) -> Executions {
        Executions {
            parsed: self.parsed.saturating_sub(earlier.parsed),
            evaluated: self.evaluated.saturating_sub(earlier.evaluated),
        }
    }
}

#[derive(Debug, Default)]
struct ExecutionCounters {
    parsed: AtomicUsize,
    evaluated: AtomicUsize,
}

/// The paths queries looked for and did not find, as one input: its
/// generation changes when a file of one of them is added, so that a
/// query that read it (through [`file_by_path`]) runs again.
#[salsa::input(debug)]
pub struct MissedPaths {
    pub generation: u64,
}

/// The input of the file at `path`, as a query reads it: where the
/// database has none, the query depends on its being added.
pub fn file_by_path(db: &dyn Db, path: &Utf8Path) -> Option<File> {
    match db.file(path) {
        Some(file) => Some(file),
        None => {
            if let Some(missed) = db.missed_file(path) {
                missed.generation(db);
            }
            None
        }
    }
}

impl File {
    /// The syntax the file is written in, by its name.
    pub fn syntax(self, db: &dyn Db) -> SourceSyntax {
        SourceSyntax::of_path(self.path(db))
    }
}

/// The errors of reading a file in its syntax (see [`SourceSyntax`]), from
/// [`parse`] or [`parse_json`]. A deleted file has none; a file whose bytes
/// are not UTF-8 has the errors of its valid prefix, and
/// [`File::encoding_error`] besides.
pub fn syntax_errors(db: &dyn Db, file: File) -> &[SyntaxError] {
    match file.syntax(db) {
        SourceSyntax::Native => parse(db, file).errors(),
        SourceSyntax::Json => parse_json(db, file).errors(),
    }
}

/// Whether the file reads without a syntax error: kept when its tree is
/// evicted, so that a rule that holds only for a module whose files all
/// parse (see [`module::module_parses`]) reads no tree of an unchanged
/// file.
#[salsa::tracked(returns(copy))]
pub fn parses_cleanly(db: &dyn Db, file: File) -> bool {
    syntax_errors(db, file).is_empty()
}

/// Parses a JSON syntax file into its lossless tree, as [`parse`] does for
/// the native syntax (deleted or undecodable files parse as empty text).
#[salsa::tracked(returns(ref), lru = 64)]
pub fn parse_json(db: &dyn Db, file: File) -> Parse<JsonDocument> {
    db.note_executed(CountedQuery::Parse);
    if file.status(db) == FileStatus::Deleted || file.encoding_error(db).is_some() {
        return syntax::parse_json("");
    }
    syntax::parse_json(file.text(db))
}

/// How many files' trees, HIRs and source maps the database keeps past a
/// revision's start (the `lru` of [`parse`] and the lowering queries, which
/// salsa's attribute wants as a literal).
pub const PARSE_TREES_KEPT: usize = 64;

/// How many files' expression copies ([`module::file_exprs`]) the database
/// keeps at least past a revision's start; it keeps more when a module has
/// more than half as many files (the `lru` of `file_exprs`, which salsa's
/// attribute wants as a literal). Modules of a few files each are
/// evaluated once and rarely again, so the floor stays low.
pub const EXPRESSIONS_KEPT: usize = 256;

/// How many attributes' values the database keeps at least past a
/// revision's start when values may be evicted (see
/// [`RootDatabase::set_idle_state_evictable`]).
pub const VALUES_KEPT: usize = 4096;

/// How many modules' indexes the database keeps past a revision's start
/// when idle modules' state may be evicted (see
/// [`RootDatabase::set_idle_state_evictable`]).
pub const MODULE_INDEXES_KEPT: usize = 256;

/// Parses a file into its lossless syntax tree.
///
/// This is the native syntax's tree: a JSON file (see [`SourceSyntax`]) has
/// no native tree and parses as empty text here; [`parse_json`] is its
/// parser.
///
/// A file that was deleted, or whose bytes are not UTF-8, has no tree: it
/// parses as empty text. Callers that must not mistake that for an empty file
/// (the formatter, diagnostics) look at [`File::status`] and
/// [`File::encoding_error`] first.
///
/// Trees are the largest values in the database (about twenty bytes per
/// byte of source), so only the 64 most recently used are kept (enough for
/// the files a report looks at after an edit, the edited ones and those of
/// their dependents, and for a check's chunk of files) once a new
/// revision starts or
/// [`salsa::Database::trigger_lru_eviction`] is called; an evicted tree is
/// parsed again if asked for. Batch front ends evict between chunks of
/// files, which keeps a run over a whole monorepo in bounded memory.
#[salsa::tracked(returns(ref), lru = 64)]
pub fn parse(db: &dyn Db, file: File) -> Parse<SourceFile> {
    db.note_executed(CountedQuery::Parse);
    if file.status(db) == FileStatus::Deleted
        || file.encoding_error(db).is_some()
        || file.syntax(db) == SourceSyntax::Json
    {
        return syntax::parse("");
    }
    syntax::parse(file.text(db))
}

/// The style a file is formatted in unless the user says otherwise: its
/// dialect's (see [`module::DialectPlugin::format_style`]), the plain
/// `hclwrite.Format` style for a file no registered dialect claims.
pub fn default_format_style(db: &dyn Db, path: &Utf8Path) -> FormatStyle {
    db.dialects().format_style(path)
}

/// Formats a file in `style` as its reference formatter would.
///
/// `None` when formatting would not be safe: the file has syntax errors, its
/// bytes are not UTF-8, or it was deleted; and for JSON files, which neither
/// reference formats. A formatter must leave such a file alone rather than
/// guess, so the caller gets nothing to write.
pub fn format(db: &dyn Db, file: File, style: FormatStyle) -> &Option<String> {
    format_styled(db, StyledFile::new(db, file, style))
}

/// A file and a style to format it in: the key of [`format_styled`].
#[salsa::interned(debug)]
struct StyledFile {
    file: File,
    style: FormatStyle,
}

/// [`format`], one query per file and style, so that formatting a file in
/// one style never invalidates another.
#[salsa::tracked(returns(ref))]
fn format_styled<'db>(db: &'db dyn Db, styled: StyledFile<'db>) -> Option<String> {
    let (file, style) = (*styled.file(db), *styled.style(db));
    if file.status(db) == FileStatus::Deleted
        || file.encoding_error(db).is_some()
        || file.syntax(db) == SourceSyntax::Json
    {
        return None;
    }
    let parse = parse(db, file);
    if !parse.errors().is_empty() {
        return None;
    }
    Some(fmt::format_tree_in(&parse.syntax_node(), style))
}

/// Lowers a file to its HIR and the source map beside it, in one pass over
/// the tree. Nothing but [`lower`] and [`source_map`] should read it: the
/// pair changes with every edit, since the source map holds positions, and
/// the two projections are what let salsa tell the halves apart (the shape
/// of rust-analyzer's `body_with_source_map`).
///
/// Like trees, this pair, the HIR and the source maps are kept for the
/// most recently used files once eviction runs: every reader that must stay
/// in memory for a module (its declarations, its expressions, its
/// references) is a query of its own that compares equal after an edit
/// that only moves text, so an edit stops there even when the HIR it was
/// made from was evicted.
#[salsa::tracked(returns(ref), lru = 64)]
pub fn lower_with_source_map(db: &dyn Db, file: File) -> (Arc<FileHir>, Arc<SourceMap>) {
    // Without a schema, a JSON file is read in "just attributes" mode: each
    // property of its root object an attribute (see `hir::lower_json_file`).
    let (hir, source_map) = match file.syntax(db) {
        SourceSyntax::Native => hir::lower_file(parse(db, file)),
        SourceSyntax::Json => hir::lower_json_file(&parse_json(db, file).tree()),
    };
    (Arc::new(hir), Arc::new(source_map))
}

/// A file's position-free HIR. An edit that only moves text (whitespace,
/// comments) re-runs this query, but its result compares equal to the old
/// one (when it was not evicted, see [`lower_with_source_map`]), so salsa
/// keeps the old revision and nothing that reads only the HIR runs again.
#[salsa::tracked(lru = 64)]
pub fn lower(db: &dyn Db, file: File) -> Arc<FileHir> {
    lower_with_source_map(db, file).0.clone()
}

/// Every attribute of the file evaluated as `halite eval` evaluates it with
/// no `--context`: the standard library, no variables. Each path (in the
/// order of the evaluation conformance cases) has a value or an error. It
/// reads only the file's HIR, so an edit to whitespace or comments re-runs
/// nothing here. (Evaluation per attribute, with variables and references
/// across files, is the module model's job.)
#[salsa::tracked(returns(ref))]
pub fn evaluate(db: &dyn Db, file: File) -> Vec<(String, Result<eval::Value, eval::EvalError>)> {
    let hir = lower(db, file);
    let context = eval::Context::with_stdlib();
    eval::conformance::attribute_paths(hir)
        .into_iter()
        .map(|(path, expr)| {
            let result = eval::eval_expr(&hir.exprs, expr, &context);
            (path, result)
        })
        .collect()
}

/// Where each part of a file's HIR came from: for diagnostics, which need
/// positions, and should be the only readers of it.
#[salsa::tracked(lru = 64)]
pub fn source_map(db: &dyn Db, file: File) -> Arc<SourceMap> {
    lower_with_source_map(db, file).1.clone()
}

/// The queries keyed by [`Attr`], whose log entries show the address.
const ATTR_QUERIES: &[&str] = &["attribute_expr", "attribute_resolution", "attribute_value"];

/// How durable the database's inputs are, by what they hold: salsa verifies
/// a query that reads only inputs of some durability without walking its
/// dependencies when no input of that durability changed. Texts change
/// with every edit; the structure (paths, the module's files and dialect,
/// each file's declarations) seldom does, so a caller that edits files (the
/// host) gives the structure a higher durability than the texts, and the
/// module's index, which reads every file's declarations, is then
/// verified at a glance after an edit that keeps them. Both are low by
/// default, as for a batch that never edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputDurability {
    pub text: salsa::Durability,
    pub structure: salsa::Durability,
}

impl Default for InputDurability {
    fn default() -> InputDurability {
        InputDurability { text: salsa::Durability::LOW, structure: salsa::Durability::LOW }
    }
}

/// The database: salsa's storage, the table of files, and a log of the
/// queries executed while one is open, for tests that check what an edit
/// re-ran and for statistics.
///
/// Cloning it gives another handle on the same storage (for another thread);
/// a write through one handle waits for, or cancels, queries on the others.
#[salsa::db]
#[derive(Clone)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    files: Files,
    /// The module of each directory, found by its path's text
    /// ([`vfs::PathKey`]).
    modules: Arc<Mutex<rustc_hash::FxHashMap<vfs::PathKey, Module>>>,
    /// The queries executed (rather than reused) while a log is open, in
    /// order (see [`RootDatabase::open_log`]).
    executed: Arc<Mutex<Vec<salsa::DatabaseKeyIndex>>>,
    /// How many logs are open: salsa reports an event for every query it
    /// runs or reuses, and threads checking files in parallel must not
    /// queue on the log's lock when nobody records.
    recording: Arc<AtomicUsize>,
    /// The durability the setters give the inputs they set.
    durability: InputDurability,
    /// An empty file of the database's own, not in the path table, for
    /// [`RootDatabase::evict_all_parse_trees`].
    scratch: Option<File>,
    /// Whether modules' indexes are kept in parts, and the parts (see
    /// [`module::index`]).
    keep_index_parts: bool,
    /// Whether values read their attributes through firewalls (see
    /// [`Db::value_firewall`]).
    value_firewalls: bool,
    index_parts: Arc<module::index::IndexParts>,
    index_tables: Arc<module::index::IndexTables>,
    /// The dialects a module's files choose from (see [`module::Dialects`]).
    dialects: module::Dialects,
    /// The capacity of [`module::file_exprs`]'s LRU (see
    /// [`RootDatabase::set_module_files`]).
    expressions_kept: usize,
    /// The capacity of [`module::attribute_value`]'s LRU when values may be
    /// evicted (see [`RootDatabase::set_idle_state_evictable`]); `None` when
    /// every value is kept.
    values_kept: Option<usize>,
    /// The paths looked for by queries and not found, and the input they
    /// read (see [`file_by_path`]).
    missed: Arc<Mutex<rustc_hash::FxHashSet<vfs::PathKey>>>,
    missed_paths: Option<MissedPaths>,
    /// Whether salsa reports its events, so that a log can be kept (see
    /// [`RootDatabase::without_query_log`]).
    keeps_log: bool,
    /// How many times the counted queries ran, when they are counted (see
    /// [`RootDatabase::count_executions`]).
    executions: Option<Arc<ExecutionCounters>>,
}

/// Where a log opened with [`RootDatabase::open_log`] starts.
#[derive(Debug, Clone, Copy)]
pub struct LogMark(usize);

impl Default for RootDatabase {
    fn default() -> RootDatabase {
        RootDatabase::build(true)
    }
}

impl RootDatabase {
    /// A database, with a log of executed queries when `keeps_log` (see
    /// [`RootDatabase::without_query_log`]).
    fn build(keeps_log: bool) -> RootDatabase {
        let executed: Arc<Mutex<Vec<salsa::DatabaseKeyIndex>>> = Arc::default();
        let recording = Arc::new(AtomicUsize::new(0));
        let callback = {
            let executed = Arc::clone(&executed);
            let recording = Arc::clone(&recording);
            move |event: salsa::Event| {
                if recording.load(Ordering::Relaxed) == 0 {
                    return;
                }
                if let salsa::EventKind::WillExecute { database_key } = event.kind {
                    // A poisoned lock only means a test panicked while
                    // holding it; the log is still usable, and the callback
                    // must not panic.
                    executed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(database_key);
                }
            }
        };
        type Callback = Box<dyn Fn(salsa::Event) + Send + Sync + 'static>;
        let mut db = RootDatabase {
            storage: salsa::Storage::new(keeps_log.then(|| Box::new(callback) as Callback)),
            files: Files::default(),
            modules: Arc::default(),
            executed,
            recording,
            durability: InputDurability::default(),
            scratch: None,
            keep_index_parts: false,
            value_firewalls: true,
            index_parts: Arc::default(),
            index_tables: Arc::default(),
            dialects: module::Dialects::new(),
            expressions_kept: EXPRESSIONS_KEPT,
            values_kept: None,
            missed: Arc::default(),
            missed_paths: None,
            keeps_log,
            executions: None,
        };
        db.missed_paths = Some(MissedPaths::new(&db, 0));
        db
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {
    fn note_executed(&self, query: CountedQuery) {
        if let Some(counters) = &self.executions {
            let counter = match query {
                CountedQuery::Parse => &counters.parsed,
                CountedQuery::AttributeValue => &counters.evaluated,
            };
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn file(&self, path: &Utf8Path) -> Option<File> {
        self.files.get(path)
    }

    fn missed_file(&self, path: &Utf8Path) -> Option<MissedPaths> {
        let mut missed = self.missed.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // Looked up before a key is made: the same paths are missed again
        // and again (each unit's search up the directories).
        if !missed.contains(&*vfs::normal_text(path)) {
            missed.insert(vfs::PathKey::new(path));
        }
        self.missed_paths
    }

    fn keeps_index_parts(&self) -> bool {
        self.keep_index_parts
    }

    fn value_firewall(&self) -> module::Firewall {
        if !self.value_firewalls {
            module::Firewall::None
        } else if self.keep_index_parts {
            module::Firewall::Expression
        } else {
            module::Firewall::Resolution
        }
    }

    fn index_part(&self, module: Module, key: module::PartRef<'_>) -> Option<module::IndexPart> {
        module::index::lookup(&self.index_parts, module, key)
    }

    fn index_address(&self, module: Module, address: &module::Address) -> Option<module::Address> {
        module::index::lookup_address(&self.index_parts, module, address)
    }

    fn dialects(&self) -> &module::Dialects {
        &self.dialects
    }
}

impl RootDatabase {
    /// A database whose modules are all generic HCL: no dialect is
    /// registered (see [`RootDatabase::with_dialects`]).
    pub fn new() -> RootDatabase {
        RootDatabase::default()
    }

    /// A database whose modules take their dialect from `dialects` by
    /// their files' names.
    pub fn with_dialects(dialects: module::Dialects) -> RootDatabase {
        RootDatabase { dialects, ..RootDatabase::default() }
    }

    /// [`RootDatabase::with_dialects`] without the log of executed queries
    /// ([`RootDatabase::open_log`] must not be called on it). Salsa builds
    /// an event for every query it runs or reuses when a log can be kept,
    /// whether or not one is open: a batch that never asks saves that (a
    /// fiftieth of a check).
    pub fn without_query_log(dialects: module::Dialects) -> RootDatabase {
        RootDatabase { dialects, ..RootDatabase::build(false) }
    }

    /// Counts from now on how many times files are parsed and attribute
    /// values evaluated, by this database and its clones made after (see
    /// [`RootDatabase::executions`]): a front end's statistics, without
    /// the query log, for which salsa builds an event for every query it
    /// runs or reuses.
    pub fn count_executions(&mut self) {
        self.executions.get_or_insert_with(Arc::default);
    }

    /// How many times the counted queries ran since
    /// [`RootDatabase::count_executions`] (nothing before it).
    pub fn executions(&self) -> Executions {
        self.executions.as_ref().map_or_else(Executions::default, |counters| Executions {
            parsed: counters.parsed.load(Ordering::Relaxed),
            evaluated: counters.evaluated.load(Ordering::Relaxed),
        })
    }

    /// The table of files; see [`Files`].
    pub fn files(&self) -> &Files {
        &self.files
    }

    /// Sets the durability of the inputs set from now on (see
    /// [`InputDurability`]).
    pub fn set_input_durability(&mut self, durability: InputDurability) {
        self.durability = durability;
    }

    /// Sets the snapshot of a file's declarations that the module's index
    /// reads (see [`module::declarations_of`]), unless it is equal to the
    /// one there. Returns whether it changed.
    pub fn set_file_declarations(&mut self, file: File, declarations: Arc<module::FileDeclarations>) -> bool {
        if file.declarations(self).as_deref() == Some(&*declarations) {
            return false;
        }
        let durability = self.durability.structure;
        file.set_declarations(self).with_durability(durability).to(Some(declarations));
        true
    }

    /// Sets the text of the file at `path`, creating its input the first time
    /// and marking it as existing. Setting the same text again is not a
    /// change, so nothing downstream re-runs.
    pub fn set_file_text(&mut self, path: impl Into<Utf8PathBuf>, text: impl Into<Arc<str>>) -> File {
        let path = path.into();
        let text = text.into();
        let Some(file) = self.files.get(&path) else {
            let file = self.files.insert(self, path, text, None, self.durability);
            self.found_missed(file);
            return file;
        };
        if **file.text(self) != *text {
            let durability = self.durability.text;
            file.set_text(self).with_durability(durability).to(text);
        }
        self.set_existing(file, None);
        file
    }

    /// Sets the contents of the file at `path` from the bytes on disk. Bytes
    /// that are not UTF-8 are kept out of the tree: the input's text is the
    /// valid prefix, so diagnostics can still point at the line of the first
    /// bad byte, and [`File::encoding_error`] says where it is.
    pub fn set_file_bytes(&mut self, path: impl Into<Utf8PathBuf>, bytes: &[u8]) -> File {
        let path = path.into();
        let (text, error) = match syntax::decode_source(bytes) {
            Ok(text) => (Arc::<str>::from(text), None),
            Err(error) => {
                let valid = usize::from(error.range.start());
                // `decode_source` reports the first invalid byte, so the bytes
                // before it are valid UTF-8 and this cannot fail.
                let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
                (Arc::<str>::from(prefix), Some(error))
            }
        };
        let Some(file) = self.files.get(&path) else {
            let file = self.files.insert(self, path, text, error, self.durability);
            self.found_missed(file);
            return file;
        };
        if **file.text(self) != *text {
            let durability = self.durability.text;
            file.set_text(self).with_durability(durability).to(text);
        }
        self.set_existing(file, error);
        file
    }

    /// After `file` was added: if a query looked for its path before,
    /// a change of the input such queries read (see [`file_by_path`]).
    fn found_missed(&mut self, file: File) {
        let found = self
            .missed
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(&*vfs::normal_text(file.path(self)));
        if found && let Some(missed) = self.missed_paths {
            let generation: u64 = *missed.generation(self);
            missed.set_generation(self).to(generation + 1);
        }
    }

    /// The module of `dir`, if one was set.
    pub fn module(&self, dir: &Utf8Path) -> Option<Module> {
        self.modules
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&*vfs::normal_text(dir))
            .copied()
    }

    /// Sets the files of the module of `dir` (creating it the first time,
    /// with no variables). The list is kept sorted by path; setting the same
    /// files again is not a change.
    pub fn set_module_files(&mut self, dir: impl Into<Utf8PathBuf>, files: Vec<File>) -> Module {
        let files = self.sorted_by_path(files);
        self.set_sorted_module_files(dir.into(), files)
    }

    /// [`RootDatabase::set_module_files`] with the files sorted by path
    /// already, once each.
    fn set_sorted_module_files(&mut self, dir: Utf8PathBuf, files: Vec<File>) -> Module {
        self.keep_expressions_of(files.len());
        let (chosen, function_names, functions) =
            self.dialects.choose(files.iter().map(|file| file.path(self).as_path()));
        let structure = self.durability.structure;
        if let Some(module) = self.module(&dir) {
            if *module.files(self) != files {
                module.set_files(self).with_durability(structure).to(files);
            }
            let dialect = module.dialect(self);
            let rules = dialect.rules(self);
            if rules.chosen_by_files && !Arc::ptr_eq(rules, &chosen) && **rules != *chosen {
                if dialect.registered(self).is_empty() {
                    // The registry's table, built once per plug-in, rather
                    // than one per module: a dialect's table is not small.
                    let durability = self.durability.structure;
                    if **dialect.function_names(self) != *function_names {
                        dialect.set_function_names(self).with_durability(durability).to(function_names);
                    }
                    dialect.set_functions(self).with_durability(durability).to(functions);
                    dialect.set_rules(self).with_durability(durability).to(chosen);
                } else {
                    self.set_dialect_rules(module, (*chosen).clone());
                }
            }
            return module;
        }
        let dialect =
            module::Dialect::builder(chosen, Arc::default(), function_names, functions, Arc::default())
                .durability(structure)
                .new(self);
        let module = Module::builder(dir.clone(), files, Arc::default(), dialect, Arc::default())
            .durability(structure)
            .variables_durability(self.durability.text)
            .new(self);
        self.modules
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(vfs::PathKey::new(dir), module);
        module
    }

    /// Adds `added` to the files of the module of `dir` and takes `removed`
    /// out (creating the module the first time): what
    /// [`RootDatabase::set_module_files`] does with the whole list, at the
    /// cost of the files changed, for a caller that adds or removes a few
    /// files of a large module.
    pub fn change_module_files(
        &mut self,
        dir: impl Into<Utf8PathBuf>,
        added: &[File],
        removed: &[File],
    ) -> Module {
        let dir = dir.into();
        let Some(module) = self.module(&dir) else {
            let files = added.iter().copied().filter(|file| !removed.contains(file)).collect();
            return self.set_module_files(dir, files);
        };
        let gone: rustc_hash::FxHashSet<File> = removed.iter().copied().collect();
        let mut files: Vec<File> =
            module.files(self).iter().copied().filter(|file| !gone.contains(file)).collect();
        let added: Vec<File> = added.iter().copied().filter(|file| !gone.contains(file)).collect();
        if added.len() <= Self::FEW_ADDED {
            for file in added {
                let path = file.path(self);
                if let Err(at) = files.binary_search_by(|other| vfs::path_order(other.path(self), path)) {
                    files.insert(at, file);
                }
            }
        } else {
            // Sorted once, each path read once, rather than each added file
            // searched for by reading the paths it passes: a new module's
            // files come in one change.
            files.extend(added);
            files = self.sorted_by_path(files);
        }
        self.set_sorted_module_files(dir, files)
    }

    /// Keeps the expression copies of at least twice `files` files, so that
    /// every file of a module that large stays in memory while it is edited
    /// (see [`module::file_exprs`]).
    fn keep_expressions_of(&mut self, files: usize) {
        let wanted = files.saturating_mul(2).max(EXPRESSIONS_KEPT);
        if wanted > self.expressions_kept {
            self.expressions_kept = wanted;
            module::set_file_exprs_kept(self, wanted);
        }
    }

    /// Keeps every file's expression copies ([`module::file_exprs`]) and
    /// records no use of them: for a database evaluated once, which would
    /// not evict them anyway (it keeps twice as many as its largest module
    /// has files and at least [`EXPRESSIONS_KEPT`], and a check's chunk is
    /// one module or at most 128 files), and where recording each read (a
    /// lock and an update of a list, shared by every thread) was 3–4% of
    /// `eval DIR`'s processor time.
    pub fn keep_all_expressions(&mut self) {
        self.expressions_kept = usize::MAX;
        module::set_file_exprs_kept(self, 0);
    }

    /// Keeps no firewall between an attribute's declaration and its value
    /// from now on (see [`module::Firewall`]): each value resolves its
    /// attribute as it is evaluated. A firewall spares work after an edit,
    /// and a database evaluated once (`eval DIR`, a check's chunk) has no
    /// next edit; the resolutions were a fifth of its memory. Set before
    /// any attribute is read.
    pub fn without_value_firewalls(&mut self) {
        self.value_firewalls = false;
    }

    /// Lets the state of modules not read lately go past a revision's start:
    /// the indexes of all but the [`MODULE_INDEXES_KEPT`] most recently
    /// used modules ([`module::module_index`]), and all but the most
    /// recently used attributes' values ([`module::attribute_value`]) and
    /// resolutions ([`module::attribute_resolution`]), at least
    /// [`VALUES_KEPT`] and twice the attributes of the largest module
    /// [`Self::keep_values_of`] was told of. For a long-lived front end that
    /// shows no values (a language server), to which a workspace's values
    /// matter only while its diagnostics are found. What was evicted is
    /// found again when read. `false` (the default) keeps everything, and
    /// records no use of it.
    pub fn set_idle_state_evictable(&mut self, evictable: bool) {
        self.values_kept = evictable.then_some(VALUES_KEPT);
        let capacity = self.values_kept.unwrap_or(0);
        module::set_values_kept(self, capacity);
        module::set_module_indexes_kept(self, if evictable { MODULE_INDEXES_KEPT } else { 0 });
    }

    /// Keeps the values of at least twice `attributes` attributes when
    /// they may be evicted (see [`Self::set_idle_state_evictable`]), so that
    /// every value of a module that large stays in memory while it is
    /// edited.
    pub fn keep_values_of(&mut self, attributes: usize) {
        let Some(kept) = self.values_kept else { return };
        let wanted = attributes.saturating_mul(2).max(kept);
        if wanted > kept {
            self.values_kept = Some(wanted);
            module::set_values_kept(self, wanted);
        }
    }

    /// How many files added to a module are put in place one at a time.
    const FEW_ADDED: usize = 8;

    /// `files` in path order, each once. Each path is read from its input
    /// once: reading an input's field costs more than comparing the paths.
    fn sorted_by_path(&self, files: Vec<File>) -> Vec<File> {
        let mut by_path: Vec<(&Utf8Path, File)> =
            files.iter().map(|&file| (file.path(self).as_path(), file)).collect();
        vfs::sort_by_path(&mut by_path, |it| it.0);
        by_path.dedup_by_key(|it| it.1);
        by_path.into_iter().map(|(_, file)| file).collect()
    }

    /// Sets the values of `module`'s variables (`var.NAME`). Setting the
    /// same values again is not a change, so nothing re-runs.
    pub fn set_module_variables(
        &mut self,
        module: Module,
        variables: std::collections::BTreeMap<String, eval::Value>,
    ) {
        if **module.variables(self) != variables {
            let durability = self.durability.text;
            module.set_variables(self).with_durability(durability).to(Arc::new(variables));
        }
    }

    /// Sets whether `module` is the root of a run (see
    /// [`module::ModuleRole`]). Setting the same role again is not a change.
    pub fn set_module_role(&mut self, module: Module, role: module::ModuleRole) {
        if module.role(self) != role {
            let durability = self.durability.text;
            module.set_role(self).with_durability(durability).to(role);
        }
    }

    /// Sets the reference cycles of `module` as the caller's dependency
    /// graph has them (see [`module::KnownCycles`]). Setting the same cycles
    /// again is not a change; a change re-resolves the module's attributes
    /// and re-evaluates those whose cycle changed.
    pub fn set_module_cycles(&mut self, module: Module, cycles: module::KnownCycles) {
        if **module.cycles(self) != cycles {
            let durability = self.durability.structure;
            module.set_cycles(self).with_durability(durability).to(Arc::new(cycles));
        }
    }

    /// Sets the rules of `module`'s dialect (see [`module::Dialect`]); rules
    /// with `chosen_by_files` unset stay when the files change. Setting
    /// equal rules again is not a change.
    pub fn set_dialect_rules(&mut self, module: Module, rules: module::DialectRules) {
        let dialect = module.dialect(self);
        if **dialect.rules(self) == rules {
            return;
        }
        let registered = Arc::clone(dialect.registered(self));
        self.set_dialect_functions_with(module, &rules, registered);
        let durability = self.durability.structure;
        dialect.set_rules(self).with_durability(durability).to(Arc::new(rules));
    }

    /// Sets the extra root names of `module`'s dialect and their values;
    /// only the attributes reading a root whose value changed re-evaluate.
    pub fn set_dialect_roots(
        &mut self,
        module: Module,
        roots: std::collections::BTreeMap<smol_str::SmolStr, eval::Value>,
    ) {
        let dialect = module.dialect(self);
        if **dialect.roots(self) != roots {
            let durability = self.durability.structure;
            dialect.set_roots(self).with_durability(durability).to(Arc::new(roots));
        }
    }

    /// Sets the functions registered in `module`'s dialect, which win over
    /// the standard library's and the dialect's own. The attributes calling
    /// a function of the dialect re-evaluate.
    pub fn set_dialect_functions(
        &mut self,
        module: Module,
        functions: std::collections::BTreeMap<String, eval::Function>,
    ) {
        let rules = Arc::clone(module.dialect(self).rules(self));
        self.set_dialect_functions_with(module, &rules, Arc::new(functions));
    }

    fn set_dialect_functions_with(
        &mut self,
        module: Module,
        rules: &module::DialectRules,
        registered: Arc<std::collections::BTreeMap<String, eval::Function>>,
    ) {
        let dialect = module.dialect(self);
        let names: std::collections::BTreeSet<smol_str::SmolStr> = rules
            .own_functions
            .iter()
            .cloned()
            .chain(registered.keys().map(smol_str::SmolStr::new))
            .collect();
        let table = module::FunctionTable::new(rules, &registered);
        let durability = self.durability.structure;
        if **dialect.function_names(self) != names {
            dialect.set_function_names(self).with_durability(durability).to(Arc::new(names));
        }
        dialect.set_functions(self).with_durability(durability).to(table);
        dialect.set_registered(self).with_durability(durability).to(registered);
    }

    /// The problems of `module`'s calls of local modules loaded in this
    /// database (see [`module::module_call_diagnostics`]).
    pub fn module_call_diagnostics(&self, module: Module) -> Vec<module::ModuleDiagnostic> {
        module::module_call_diagnostics(self, module, None, |dir| {
            module::child_interface(self, self.module(dir)?)
        })
    }

    /// Drops all but the most recently used parse trees (see [`parse`]):
    /// batch front ends call it between chunks of files, so that a run over
    /// thousands of files holds a bounded number of trees. Like a write, it
    /// waits for queries running on other handles.
    pub fn evict_parse_trees(&mut self) {
        salsa::Database::trigger_lru_eviction(self);
    }

    /// Drops every file's tree, HIR and source map, not only those past the
    /// LRU's capacity: for a batch front end done with a few very large
    /// files, whose trees would otherwise stay beside everything the module
    /// model keeps of them (a tree and its HIR take more than ten times the
    /// text). A query that needs one again parses the file again.
    ///
    /// Salsa's LRU keeps at least one value (a capacity of 0 means no
    /// limit), so the capacity is set to one, the queries are run on an
    /// empty text of the database's own (not in the path table) so that it
    /// is the one kept, and the capacity is put back.
    pub fn evict_all_parse_trees(&mut self) {
        const KEPT: usize = PARSE_TREES_KEPT;
        let scratch = match self.scratch {
            Some(file) => file,
            None => {
                let file = File::builder(Utf8PathBuf::new(), Arc::from(""), FileStatus::Exists, None, None)
                    .new(self);
                self.scratch = Some(file);
                file
            }
        };
        parse::set_lru_capacity(self, 1);
        parse_json::set_lru_capacity(self, 1);
        lower_with_source_map::set_lru_capacity(self, 1);
        lower::set_lru_capacity(self, 1);
        source_map::set_lru_capacity(self, 1);
        let _ = parse(self, scratch);
        let _ = parse_json(self, scratch);
        let _ = lower_with_source_map(self, scratch);
        let _ = lower(self, scratch);
        let _ = source_map(self, scratch);
        salsa::Database::trigger_lru_eviction(self);
        parse::set_lru_capacity(self, KEPT);
        parse_json::set_lru_capacity(self, KEPT);
        lower_with_source_map::set_lru_capacity(self, KEPT);
        lower::set_lru_capacity(self, KEPT);
        source_map::set_lru_capacity(self, KEPT);
    }

    /// Marks the file at `path` as deleted, if the database knows it. The
    /// input stays (salsa inputs live as long as the database), so queries
    /// that read it re-run and see the deletion.
    pub fn delete_file(&mut self, path: &Utf8Path) -> Option<File> {
        let file = self.files.get(path)?;
        if file.status(self) != FileStatus::Deleted {
            let durability = self.durability.structure;
            file.set_status(self).with_durability(durability).to(FileStatus::Deleted);
        }
        Some(file)
    }

    fn set_existing(&mut self, file: File, error: Option<syntax::SyntaxError>) {
        if file.status(self) != FileStatus::Exists {
            let durability = self.durability.structure;
            file.set_status(self).with_durability(durability).to(FileStatus::Exists);
        }
        if *file.encoding_error(self) != error {
            let durability = self.durability.text;
            file.set_encoding_error(self).with_durability(durability).to(error);
        }
    }

    /// Opens a log of the queries executed from now on, on every handle of
    /// the database, until [`RootDatabase::close_log`]; logs nest. Unlike
    /// [`RootDatabase::log`], nothing is borrowed meanwhile, so writes may
    /// happen while it is open.
    pub fn open_log(&self) -> LogMark {
        debug_assert!(self.keeps_log, "a database made without a query log");
        let mark = self.executed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).len();
        self.recording.fetch_add(1, Ordering::Relaxed);
        LogMark(mark)
    }

    /// The queries executed since `mark` was opened, in order.
    pub fn close_log(&self, mark: LogMark) -> Vec<salsa::DatabaseKeyIndex> {
        let mut executed = self.executed.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let since = executed.get(mark.0..).map(<[_]>::to_vec).unwrap_or_default();
        if self.recording.fetch_sub(1, Ordering::Relaxed) == 1 {
            executed.clear();
        }
        since
    }

    /// Runs `f` and returns the queries it executed (rather than reused), in
    /// order.
    pub fn log(&self, f: impl FnOnce()) -> Vec<salsa::DatabaseKeyIndex> {
        let mark = self.open_log();
        f();
        self.close_log(mark)
    }

    /// Runs `f` and returns the queries it executed (rather than reused), in
    /// order, as `query(argument)`: a query on a file shows the file's path,
    /// any other its salsa id. Tests of incremental behaviour assert this
    /// list exactly.
    pub fn log_executed(&self, f: impl FnOnce()) -> Vec<String> {
        let executed = self.log(f);
        self.describe_all(&executed)
    }

    /// Executed queries as [`RootDatabase::log_executed`] shows them.
    pub fn describe_all(&self, executed: &[salsa::DatabaseKeyIndex]) -> Vec<String> {
        executed.iter().map(|&key| self.describe(key)).collect()
    }

    /// The name of an executed query (`parse`, `attribute_value`).
    pub fn query_name(&self, key: salsa::DatabaseKeyIndex) -> String {
        self.ingredient_debug_name(key.ingredient_index()).to_string()
    }

    fn describe(&self, key: salsa::DatabaseKeyIndex) -> String {
        let query = self.ingredient_debug_name(key.ingredient_index());
        let id = key.key_index();
        if let Some(file) = self.files.iter().find(|file| file.as_id() == id) {
            return format!("{query}({})", file.path(self));
        }
        let modules: Vec<Module> =
            self.modules.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).values().copied().collect();
        if let Some(module) = modules.iter().find(|module| module.as_id() == id) {
            return format!("{query}({})", module.dir(self));
        }
        // A module's dialect shows its module's directory.
        if let Some(module) = modules.iter().find(|module| module.dialect(self).as_id() == id) {
            return format!("{query}({})", module.dir(self));
        }
        if &*query == "format_styled" {
            let styled: StyledFile<'_> = salsa::plumbing::FromId::from_id(id);
            return format!("format({}, {:?})", styled.file(self).path(self), styled.style(self));
        }
        // The per-attribute queries take an `Attr`: show its address.
        if ATTR_QUERIES.contains(&&*query) {
            let attr: Attr<'_> = salsa::plumbing::FromId::from_id(id);
            return format!("{query}({})", attr.address(self));
        }
        format!("{query}({id:?})")
    }
}
