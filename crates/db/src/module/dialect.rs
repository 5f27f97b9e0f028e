//! Dialects: what an application's configuration language adds to a
//! module's scope beyond `var.`, `local.` and labelled blocks.
//!
//! The database knows HCL and modules, never a tool: every language is a
//! [`DialectPlugin`], registered in the database's [`Dialects`] (the same
//! way for the languages Halite ships, in the `dialects` crate, and for an
//! embedder's own). A module's dialect is the one the registry chooses by
//! its files' names, unless the caller set one.
//!
//! A module's dialect is three inputs of one salsa struct, [`Dialect`],
//! owned by its [`Module`](crate::module::Module):
//! - [`DialectRules`], comparable data: root names whose every reference is
//!   unknown, how block types are addressed (`resource "T" "N"` as `T.N`),
//!   which blocks' unwritten attributes are unknown rather than errors,
//!   label counts, the names of functions known without an implementation,
//!   whether the language knows every root (then a name that is none of
//!   its roots is a block type of the language's, and an undeclared one an
//!   error), and the plug-in itself for its hooks;
//! - the values of extra root names ([`Dialect::roots`]), each read through
//!   [`dialect_root`], so that changing one root's value re-evaluates only
//!   the attributes that read that root;
//! - the function table ([`FunctionTable`]).
//!
//! Functions are `eval::Function`s, Rust closures that cannot be compared.
//! They live in the input anyway, wrapped in a [`FunctionTable`] that
//! compares by a generation number taken from a global counter each time a
//! table is built: setting a table is then a change exactly when it is a new
//! table, which is what a revision number beside the database would give,
//! without a second place to keep in step with salsa. Their names are a
//! separate, comparable field ([`Dialect::function_names`]): an attribute
//! reads the table only when its expression calls one of those names, so
//! registering a function re-evaluates only the attributes that call a
//! dialect function (and those that call that name).

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{
        Arc, OnceLock,
        atomic::{AtomicU64, Ordering},
    },
};

use camino::Utf8Path;
use rustc_hash::FxHashSet;
use smol_str::SmolStr;

use crate::{
    Db, File, FormatStyle,
    module::{Module, ModuleDiagnostic, ResourceMode, Value},
};

/// A configuration language built on HCL, as the database sees it: the
/// file kinds it claims, its roots and their scopes (in its
/// [`DialectRules`]), its functions, how a directory's files group into
/// one unit of evaluation, and the checks of a file only it can make.
///
/// Register one with [`Dialects::register`]; the database's registry is
/// given when it is made ([`crate::RootDatabase::with_dialects`]). Every
/// method but [`DialectPlugin::name`], [`DialectPlugin::claims`] and
/// [`DialectPlugin::rules`] has a default that adds nothing.
pub trait DialectPlugin: Send + Sync + 'static {
    /// A short name, for messages and tests.
    fn name(&self) -> &str;

    /// Whether a file of this name is one of the language's: a module with
    /// such a file is given this dialect (see [`Dialects::choose`]).
    fn claims(&self, path: &Utf8Path) -> bool;

    /// Its roots and their scopes, block addressing and label counts: the
    /// comparable part of the dialect. [`DialectRules::plugin`] is filled
    /// in by the registry.
    fn rules(&self) -> DialectRules;

    /// Its functions: `table` is the standard library's, with a stub
    /// returning an unknown value for each of
    /// [`DialectRules::own_functions`] (which must list every name it
    /// adds or changes); the language replaces, adds or
    /// removes what it has differently, with exact signatures (a function
    /// that reads the outside world returns an unknown of its type).
    fn functions(&self, table: &mut BTreeMap<String, eval::Function>) {
        let _ = table;
    }

    /// Functions standing for every name of a namespace (see
    /// `eval::Context::namespaces`), by namespace.
    fn namespaces(&self) -> BTreeMap<String, eval::Function> {
        BTreeMap::new()
    }

    /// How files group into a unit: whether the language reads `path`, one
    /// of a module's files, whose other files are `siblings`. All of them
    /// unless the rules say [`DialectRules::reads_some_files_only`].
    fn reads_file(&self, path: &Utf8Path, siblings: &FxHashSet<&Utf8Path>) -> bool {
        let _ = (path, siblings);
        true
    }

    /// How a file the language claims groups into a unit of evaluation:
    /// with the other module files of its directory, or alone (a unit
    /// evaluated apart from the module files beside it). Asked through
    /// [`Dialects::unit_of`], the one answer the host groups files by.
    fn grouping(&self, path: &Utf8Path) -> Grouping {
        let _ = path;
        Grouping::Directory
    }

    /// How a unit references others: the calls of `module` whose callee is
    /// a unit on disk, with the arguments each passes. By default its
    /// `module` blocks with a local `source`
    /// ([`crate::module::module_block_calls`]); a language whose units
    /// call modules otherwise (a block naming the module deployed, with
    /// an object of inputs) says so here, and the host loads and checks those
    /// callees as it does a module's children.
    fn unit_calls(&self, db: &dyn Db, module: Module) -> Vec<crate::module::ModuleCall> {
        crate::module::module_block_calls(db, module)
    }

    /// The files a unit reads beyond its own (another file it imports:
    /// an included configuration), each the first of its candidates that
    /// exists. The database does no I/O: the host reads them from disk
    /// into the database (a missing candidate as a deleted file, so that
    /// creating it is a change), and the plug-in finds them with
    /// [`crate::module::read_file`], so that an edit of an imported file
    /// re-runs what read it.
    fn reads(&self, db: &dyn Db, module: Module) -> Vec<crate::module::FileRead> {
        let _ = (db, module);
        Vec::new()
    }

    /// The labels of the blocks of `block_type` (one of
    /// [`DialectRules::unknown_roots`]) that the files `module` imports
    /// declare ([`DialectRules::importing_block_types`]), or `None` when
    /// they are not known (an import not read): with a list, a reference
    /// to a block that neither the module nor its imports declare is an
    /// error.
    fn imported_blocks(&self, db: &dyn Db, module: Module, block_type: &str) -> Option<Vec<Box<[SmolStr]>>> {
        let _ = (db, module, block_type);
        None
    }

    /// Every name that may follow `address` (a block of one of
    /// [`DialectRules::opaque_block_types`], its labels and the steps after
    /// them: `include.root.locals`), when the plug-in knows them all (an
    /// imported file's locals, another unit's outputs), so that a
    /// reference to any other is an error; `None` where anything may
    /// follow.
    fn opaque_members(&self, db: &dyn Db, module: Module, address: &[SmolStr]) -> Option<Vec<SmolStr>> {
        let _ = (db, module, address);
        None
    }

    /// The language's own diagnostics of one file of a module that the
    /// generic model cannot find (calls it cannot resolve, say), from the
    /// file's declarations and HIR.
    fn file_diagnostics(&self, db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
        let _ = (db, module, file);
        Vec::new()
    }

    /// Reads what [`DialectPlugin::file_diagnostics`] will need of `file`
    /// while its tree is in memory (the host calls it as it reads each
    /// file once, before evicting trees).
    fn read_while_parsed(&self, db: &dyn Db, file: File) {
        let _ = (db, file);
    }

    /// The style the language formats `path` in, if it is one of the
    /// files its tool formats (which need not be files it
    /// [claims](DialectPlugin::claims): a tool's variables files, say).
    fn format_style(&self, path: &Utf8Path) -> Option<FormatStyle> {
        let _ = path;
        None
    }
}

/// How a file groups into a unit of evaluation (see
/// [`DialectPlugin::grouping`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grouping {
    /// With the other module files of its directory, keyed by the
    /// directory.
    Directory,
    /// Alone, keyed by its own path.
    File,
}

/// A plug-in held by [`DialectRules`]: compares by identity, since a
/// plug-in is registered once and its rules are built once.
#[derive(Clone)]
pub struct PluginRef(pub Arc<dyn DialectPlugin>);

impl PartialEq for PluginRef {
    fn eq(&self, other: &PluginRef) -> bool {
        std::ptr::addr_eq(Arc::as_ptr(&self.0), Arc::as_ptr(&other.0))
    }
}

impl Eq for PluginRef {}

impl std::fmt::Debug for PluginRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PluginRef({})", self.0.name())
    }
}

/// What a module of one dialect starts with: its rules, the names of its
/// unknown functions and its function table, built once per registered
/// plug-in and shared (a check creates thousands of modules, and a copy
/// of a language's rules per module took more memory than the modules'
/// declarations).
pub type SharedDialect = (Arc<DialectRules>, Arc<BTreeSet<SmolStr>>, FunctionTable);

struct Registered {
    plugin: Arc<dyn DialectPlugin>,
    shared: OnceLock<SharedDialect>,
}

impl Registered {
    fn shared(&self) -> &SharedDialect {
        self.shared.get_or_init(|| {
            let mut rules = self.plugin.rules();
            rules.plugin = Some(PluginRef(Arc::clone(&self.plugin)));
            rules.chosen_by_files = true;
            share(rules)
        })
    }
}

fn share(rules: DialectRules) -> SharedDialect {
    let functions = FunctionTable::new(&rules, &BTreeMap::new());
    let function_names = Arc::new(rules.own_functions.clone());
    (Arc::new(rules), function_names, functions)
}

/// The registry of dialects: the one place a module's language is chosen
/// from its files' names. The languages Halite ships are registered in it
/// the same way an embedder registers its own.
#[derive(Clone, Default)]
pub struct Dialects {
    registered: Vec<Arc<Registered>>,
}

impl std::fmt::Debug for Dialects {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.registered.iter().map(|it| it.plugin.name())).finish()
    }
}

impl Dialects {
    /// A registry with no dialect: every module is generic HCL.
    pub fn new() -> Dialects {
        Dialects::default()
    }

    /// Adds `plugin`. A later registration wins over an earlier one where
    /// both claim a module's files, so an embedder's dialect registered
    /// after the standard ones takes the files it claims.
    pub fn register(&mut self, plugin: impl DialectPlugin) -> &mut Dialects {
        self.register_shared(Arc::new(plugin))
    }

    /// [`Dialects::register`] of a plug-in already shared.
    pub fn register_shared(&mut self, plugin: Arc<dyn DialectPlugin>) -> &mut Dialects {
        self.registered.push(Arc::new(Registered { plugin, shared: OnceLock::new() }));
        self
    }

    /// The registered plug-ins, latest first (the order they are asked in).
    pub fn plugins(&self) -> impl Iterator<Item = &Arc<dyn DialectPlugin>> {
        self.registered.iter().rev().map(|it| &it.plugin)
    }

    /// The plug-in that claims `path`, if any.
    pub fn claiming(&self, path: &Utf8Path) -> Option<&Arc<dyn DialectPlugin>> {
        self.registered.iter().rev().find(|it| it.plugin.claims(path)).map(|it| &it.plugin)
    }

    /// The key of the unit of evaluation `path` belongs to, or `None` for a
    /// file that is checked on its own (not a module file by the table of
    /// file kinds, `vfs::is_module_file`): its directory (`vfs::module_dir`),
    /// unless the plug-in that claims it groups it alone
    /// ([`Grouping::File`]), when it is the path itself. The one answer to
    /// which files are evaluated together; the host asks it for every file
    /// it is not told the module of.
    pub fn unit_of(&self, path: &Utf8Path) -> Option<camino::Utf8PathBuf> {
        if !vfs::is_module_file(path) {
            return None;
        }
        match self.claiming(path).map(|plugin| plugin.grouping(path)) {
            Some(Grouping::File) => Some(path.to_owned()),
            Some(Grouping::Directory) | None => Some(vfs::module_dir(path).to_owned()),
        }
    }

    /// The rules of the plug-in that claims `path` (built once).
    pub fn rules_of_file(&self, path: &Utf8Path) -> Option<&Arc<DialectRules>> {
        self.registered.iter().rev().find(|it| it.plugin.claims(path)).map(|it| &it.shared().0)
    }

    /// The dialect of a module made of `paths`: the latest registered
    /// plug-in that claims one of them, else generic HCL; built once per
    /// plug-in and shared.
    pub fn choose<'p>(&self, paths: impl IntoIterator<Item = &'p Utf8Path>) -> SharedDialect {
        let paths: Vec<&Utf8Path> = paths.into_iter().collect();
        if let Some(found) =
            self.registered.iter().rev().find(|it| paths.iter().any(|path| it.plugin.claims(path)))
        {
            return found.shared().clone();
        }
        static GENERIC: OnceLock<SharedDialect> = OnceLock::new();
        GENERIC.get_or_init(|| share(DialectRules::generic())).clone()
    }

    /// The style `path` is formatted in unless the user says otherwise:
    /// the one the latest registered plug-in that formats it gives,
    /// `hclwrite.Format`'s for a file no plug-in formats.
    pub fn format_style(&self, path: &Utf8Path) -> FormatStyle {
        self.plugins().find_map(|plugin| plugin.format_style(path)).unwrap_or(FormatStyle::Hcl)
    }
}

/// How references to a root that names a kind of block are checked in a
/// language that knows every root ([`DialectRules::knows_every_root`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddressedRoot {
    /// `ROOT.NAME`: a call of another unit by its block's one label.
    UnitCall,
    /// `ROOT.TYPE.NAME`: a block of two labels of `mode`.
    Resource(ResourceMode),
}

/// The comparable part of a dialect: everything but root values and
/// function implementations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DialectRules {
    /// A name for messages and tests (`generic`, or the plug-in's).
    pub name: SmolStr,
    /// The plug-in whose rules these are, for its hooks; `None` for
    /// generic HCL.
    pub plugin: Option<PluginRef>,
    /// Whether the rules were chosen by the module's file names (and are
    /// chosen again when the files change) rather than set by the caller.
    pub chosen_by_files: bool,
    /// Root names whose every reference is unknown: `count.index`,
    /// `each.value`, `path.module`, `self`. Declared blocks of the same type
    /// come first, so `module.vpc` is checked against the `module` blocks.
    pub unknown_roots: BTreeSet<SmolStr>,
    /// Whether every root no declaration names is a run-time value, unknown
    /// here: a tool that expands what it does not define when it runs (a
    /// job scheduler's `${attr.kernel.name}`) rather than rejecting it.
    pub undeclared_roots_unknown: bool,
    /// Block types addressed without their type name:
    /// `resource "aws_instance" "web"` is `aws_instance.web`.
    pub unprefixed_block_types: BTreeSet<SmolStr>,
    /// Block types that are not root names (`output`, `provider`): their
    /// attributes are evaluated, nothing refers to them.
    pub hidden_block_types: BTreeSet<SmolStr>,
    /// Labelled block types that may repeat with the same labels
    /// (`provider "aws"` with aliases): each repetition takes its ordinal
    /// after the labels, as unlabelled repeated blocks do.
    pub repeatable_block_types: BTreeSet<SmolStr>,
    /// Block types whose labels are checked but whose every attribute is
    /// unknown: `module.vpc.vpc_id` is an output of the child module.
    pub opaque_block_types: BTreeSet<SmolStr>,
    /// Whether a labelled block has attributes beyond those written (a
    /// resource's computed `id`): a reference to an unwritten attribute, or
    /// to the whole block, is unknown rather than an error.
    pub computed_attributes: bool,
    /// Attributes that make a block a collection of instances (`count`,
    /// `for_each`): every reference to such a block is unknown.
    pub repetition_attributes: BTreeSet<SmolStr>,
    /// Attributes that are references by name or keywords, not expressions
    /// (`depends_on`, `lifecycle.ignore_changes`, `moved.from`, a
    /// provisioner's `when = destroy`), by a segment of the address that
    /// encloses them (a block type), `*` for any; a name `*` stands for
    /// every attribute. They are not evaluated, and their value is unknown.
    pub static_attributes: BTreeMap<SmolStr, BTreeSet<SmolStr>>,
    /// Whether a variable not given a value is unknown of its type (a
    /// module's input, which any caller may set) rather than its default,
    /// or an error where used when it has none. Its default is still
    /// checked against its type.
    pub unset_variables_unknown: bool,
    /// Whether the plug-in reads only some of a module's files
    /// ([`DialectPlugin::reads_file`]; see [`crate::module::module_files`]).
    pub reads_some_files_only: bool,
    /// Labels per block type, for JSON files, where nothing else says how
    /// deep the labels go. (Applied by file name, see `json.rs`.)
    pub label_counts: BTreeMap<SmolStr, usize>,
    /// The names whose function in the language is not the standard
    /// library's: its own functions, which its plug-in's
    /// [`DialectPlugin::functions`] implements with their signatures, and
    /// the standard library's it lacks. Each starts as a stub returning an
    /// unknown value (never "Call to unknown function") until the plug-in
    /// replaces or removes it; an attribute calling one of these names
    /// reads the dialect's table rather than the standard library.
    pub own_functions: BTreeSet<SmolStr>,
    /// Whether the language knows every root name: a root that is neither
    /// declared, nor one of [`DialectRules::unknown_roots`], nor one of
    /// [`DialectRules::label_counts`]' block types, is a block of one of
    /// [`DialectRules::unprefixed_block_types`] named by its type, so
    /// `aws_instanc.web` names a block nobody declared rather than
    /// something the tool provides. The [`DialectRules::addressed_roots`]
    /// that name no block are reported in the language's words even when
    /// no block of the kind is declared.
    pub knows_every_root: bool,
    /// In a language that knows every root, the roots that name blocks by
    /// their labels, and how (`module.NAME`, `data.TYPE.NAME`).
    pub addressed_roots: BTreeMap<SmolStr, AddressedRoot>,
    /// The shapes of the language's own top-level block types, checked in
    /// the native files the dialect claims
    /// ([`crate::module::schema_diagnostics`]).
    pub block_schemas: BTreeMap<SmolStr, crate::module::BlockSchema>,
    /// Whether `block_schemas` (with `variable` and `locals`) are every
    /// top-level block type of the language: a block of another type, in
    /// a file the plug-in claims, is "Unsupported block type".
    pub closed_block_types: bool,
    /// Whether the plug-in's function table is every function of the
    /// language: a call to any other name, in a file the plug-in claims,
    /// is a finding of a check (where it is not, the tool may have
    /// functions the table lacks).
    pub knows_every_function: bool,
    /// Block types that bring another file's declarations into the module
    /// (an `include`): where the module declares one, a block of
    /// one of [`DialectRules::unknown_roots`]' types that it does not
    /// declare itself may be that file's, so a reference to it is
    /// unknown rather than undeclared.
    pub importing_block_types: BTreeSet<SmolStr>,
    /// The attribute whose value a `local "NAME" { ATTR = … }` block gives
    /// `local.NAME`, as an attribute of a `locals` block gives it, in a
    /// language that declares locals one at a time too (its other
    /// attributes, such as whether the value is sensitive, are not
    /// evaluated); `None` where such a block is a block like any other.
    /// Applied by file name, as [`DialectRules::label_counts`] is.
    pub local_blocks: Option<SmolStr>,
    /// Whether a `variables { NAME = DEFAULT … }` block declares each
    /// `var.NAME` with that default and no type, as a `variable` block
    /// would (its location is the attribute's, its default the
    /// attribute's value); otherwise it is a block like any other. Applied by file
    /// name, as [`DialectRules::local_blocks`] is.
    pub variables_blocks: bool,
    /// The functions a variable's default may call (none in HCL's generic
    /// rules: a default is a literal there); any other call in a default
    /// is "Function calls not allowed".
    pub default_functions: BTreeSet<SmolStr>,
}

impl DialectRules {
    /// HCL with the module model's generic rules only.
    pub fn generic() -> DialectRules {
        DialectRules { name: "generic".into(), chosen_by_files: true, ..DialectRules::default() }
    }

    /// The root that names blocks of the given kind, if the language has
    /// one.
    pub fn addressed_root(&self, kind: AddressedRoot) -> Option<&SmolStr> {
        self.addressed_roots.iter().find(|(_, it)| **it == kind).map(|(name, _)| name)
    }

    /// Whether the attribute at `address` is a reference by name that the
    /// dialect does not evaluate. A dialect without such attributes (most)
    /// answers without reading the address's segments.
    pub fn is_static(&self, address: &crate::module::Address) -> bool {
        if self.static_attributes.is_empty() {
            return false;
        }
        let segments = address.segments();
        let Some((&name, enclosing)) = segments.split_last() else { return false };
        // Locals are expressions whatever their names; a top-level
        // attribute is not in a block.
        if enclosing.is_empty() || enclosing[0] == "local" {
            return false;
        }
        let names_match = |key: &str| {
            self.static_attributes.get(key).is_some_and(|names| names.contains(name) || names.contains("*"))
        };
        names_match("*") || enclosing.iter().any(|&segment| names_match(segment))
    }
}

/// The functions of a dialect: the standard library, a stub returning an
/// unknown value for each of [`DialectRules::own_functions`], and the
/// functions registered, which win over both. Compares by generation (see
/// the module's documentation).
#[derive(Clone)]
pub struct FunctionTable {
    generation: u64,
    functions: Arc<BTreeMap<String, eval::Function>>,
    /// Functions standing for every name of a namespace (see
    /// `eval::Context::namespaces`): a provider's functions, say.
    namespaces: Arc<BTreeMap<String, eval::Function>>,
}

impl PartialEq for FunctionTable {
    fn eq(&self, other: &FunctionTable) -> bool {
        self.generation == other.generation
    }
}

impl Eq for FunctionTable {}

impl std::fmt::Debug for FunctionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FunctionTable(generation {}, {} functions)", self.generation, self.functions.len())
    }
}

static GENERATIONS: AtomicU64 = AtomicU64::new(1);

impl FunctionTable {
    /// The table of `rules` and `registered`, with a new generation.
    pub fn new(rules: &DialectRules, registered: &BTreeMap<String, eval::Function>) -> FunctionTable {
        let mut functions = eval::stdlib::functions();
        for name in &rules.own_functions {
            functions.insert(name.to_string(), unknown_function());
        }
        let mut namespaces = BTreeMap::new();
        if let Some(PluginRef(plugin)) = &rules.plugin {
            plugin.functions(&mut functions);
            namespaces = plugin.namespaces();
        }
        functions.extend(registered.iter().map(|(name, function)| (name.clone(), function.clone())));
        FunctionTable {
            generation: GENERATIONS.fetch_add(1, Ordering::Relaxed),
            functions: Arc::new(functions),
            namespaces: Arc::new(namespaces),
        }
    }

    /// A number that changes whenever the table does.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    pub fn functions(&self) -> &BTreeMap<String, eval::Function> {
        &self.functions
    }

    pub fn namespaces(&self) -> &BTreeMap<String, eval::Function> {
        &self.namespaces
    }
}

/// A function known by name whose result is not computed: any arguments,
/// an unknown result of any type.
pub fn unknown_function() -> eval::Function {
    let any = eval::Param::new("args", eval::Type::Dynamic).allow_null().allow_unknown().allow_dynamic();
    eval::Function::simple(Vec::new(), Some(any), eval::Type::Dynamic, |_, _| Ok(Value::dynamic()))
}

/// A module's dialect, as salsa inputs.
#[salsa::input(debug)]
pub struct Dialect {
    #[returns(ref)]
    pub rules: Arc<DialectRules>,
    /// Extra root names and their values (possibly unknown).
    #[returns(ref)]
    pub roots: Arc<BTreeMap<SmolStr, Value>>,
    /// The names that [`Dialect::functions`] adds to or changes in the
    /// standard library: the registered functions and
    /// [`DialectRules::own_functions`].
    #[returns(ref)]
    pub function_names: Arc<BTreeSet<SmolStr>>,
    #[returns(ref)]
    pub functions: FunctionTable,
    /// The functions registered by the caller, kept to rebuild the table
    /// when the rules change.
    #[returns(ref)]
    pub registered: Arc<BTreeMap<String, eval::Function>>,
}

/// The names of the dialect's roots: a projection of [`Dialect::roots`]
/// that stays equal when only a value changes, so that name resolution
/// does not re-run then.
#[salsa::tracked(returns(ref))]
pub fn dialect_root_names(db: &dyn Db, dialect: Dialect) -> BTreeSet<SmolStr> {
    dialect.roots(db).keys().cloned().collect()
}

/// One root's value: a projection of [`Dialect::roots`], so that changing
/// one root re-evaluates only the attributes that read it.
#[salsa::tracked(returns(ref))]
pub fn dialect_root(db: &dyn Db, dialect: Dialect, name: SmolStr) -> Option<Value> {
    dialect.roots(db).get(&name).cloned()
}

/// The diagnostics of `file` that only `module`'s dialect finds
/// ([`DialectPlugin::file_diagnostics`]); none in generic HCL.
pub fn dialect_file_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    match &module.dialect(db).rules(db).plugin {
        Some(PluginRef(plugin)) => plugin.file_diagnostics(db, module, file),
        None => Vec::new(),
    }
}
