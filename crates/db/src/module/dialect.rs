//! Dialects: what an application's configuration language adds to a
//! module's scope beyond `var.`, `local.` and labelled blocks.
//!
//! A dialect is three inputs of one salsa struct, [`Dialect`], owned by its
//! [`Module`](crate::module::Module):
//! - [`DialectRules`], comparable data: root names whose every reference is
//!   unknown (Terraform's `count`, `each`, `path`), how block types are
//!   addressed (Terraform's `resource "T" "N"` as `T.N`), which blocks'
//!   unwritten attributes are unknown rather than errors, label counts, the
//!   names of functions known without an implementation, whether the
//!   language knows every root (Terraform's does, so a name that is none of
//!   its roots is a resource type, and an undeclared one an error);
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
//!
//! [`DialectRules::terraform`] is the Terraform dialect;
//! [`RootDatabase::set_module_files`](crate::RootDatabase::set_module_files)
//! gives it to a module with `*.tf` or `*.tf.json` files (or OpenTofu's
//! `*.tofu` and `*.tofu.json`) unless the caller set a dialect of its own.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
};

use smol_str::SmolStr;

use crate::{Db, module::Value};

/// Whether `path` is one of Terraform's configuration files, by the one
/// table of file kinds.
fn is_terraform_file(path: &camino::Utf8Path) -> bool {
    vfs::FileKind::of(path).is_some_and(vfs::FileKind::is_terraform)
}

/// The comparable part of a dialect: everything but root values and
/// function implementations.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DialectRules {
    /// A name for messages and tests (`generic`, `terraform`).
    pub name: SmolStr,
    /// Whether the rules were chosen by the module's file names (and are
    /// chosen again when the files change) rather than set by the caller.
    pub chosen_by_files: bool,
    /// Root names whose every reference is unknown: `count.index`,
    /// `each.value`, `path.module`, `self`. Declared blocks of the same type
    /// come first, so `module.vpc` is checked against the `module` blocks.
    pub unknown_roots: BTreeSet<SmolStr>,
    /// Block types addressed without their type name: Terraform's
    /// `resource "aws_instance" "web"` is `aws_instance.web`.
    pub unprefixed_block_types: BTreeSet<SmolStr>,
    /// Block types that are not root names (`output`, `provider`,
    /// `terraform`): their attributes are evaluated, nothing refers to them.
    pub hidden_block_types: BTreeSet<SmolStr>,
    /// Labelled block types that may repeat with the same labels
    /// (Terraform's `provider "aws"` with aliases): each repetition takes
    /// its ordinal after the labels, as unlabelled repeated blocks do.
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
    /// Whether the module is made of its `*.tf`, `*.tf.json`, `*.tofu` and
    /// `*.tofu.json` files only (see [`crate::module::module_files`]).
    pub terraform_files_only: bool,
    /// Labels per block type, for JSON files, where nothing else says how
    /// deep the labels go. (Applied by file name, see `json.rs`.)
    pub label_counts: BTreeMap<SmolStr, usize>,
    /// Functions known by name without an implementation: calls evaluate
    /// to an unknown value, never "Call to unknown function". In
    /// Terraform's rules, the names whose function is not the standard
    /// library's (see `terraform_functions.rs`): Terraform's own, with
    /// their signatures, and the standard library's Terraform lacks.
    pub unknown_functions: BTreeSet<SmolStr>,
    /// Whether references follow Terraform's addressing
    /// (`internal/addrs/parse_ref.go`), which knows every root name: a root
    /// that is neither declared, nor one of [`DialectRules::unknown_roots`],
    /// nor one of [`DialectRules::label_counts`]' block types, is a managed
    /// resource's type, so `aws_instanc.web` names a resource nobody
    /// declared rather than something the tool provides. `data.T.N`,
    /// `ephemeral.T.N` and `module.N` that name no block are reported with
    /// Terraform's own words even when no block of the kind is declared.
    pub terraform_references: bool,
}

fn names(list: &[&str]) -> BTreeSet<SmolStr> {
    list.iter().copied().map(SmolStr::new).collect()
}

impl DialectRules {
    /// HCL with the module model's generic rules only.
    pub fn generic() -> DialectRules {
        DialectRules { name: "generic".into(), chosen_by_files: true, ..DialectRules::default() }
    }

    /// The rules for a module made of `paths`: Terraform's when any is a
    /// Terraform file (`*.tf`, `*.tofu` and their JSON twins), the generic
    /// ones otherwise.
    pub fn for_files<'p>(paths: impl IntoIterator<Item = &'p camino::Utf8Path>) -> DialectRules {
        if paths.into_iter().any(is_terraform_file) {
            DialectRules::terraform()
        } else {
            DialectRules::generic()
        }
    }

    /// The rules of [`DialectRules::for_files`], the names of their
    /// unknown functions and their function table, each built once per
    /// kind of rules and shared: a check creates thousands of modules, and
    /// a copy of Terraform's rules per module took more memory than the
    /// modules' declarations.
    pub fn shared_for_files<'p>(
        paths: impl IntoIterator<Item = &'p camino::Utf8Path>,
    ) -> (Arc<DialectRules>, Arc<BTreeSet<SmolStr>>, FunctionTable) {
        type Shared = (Arc<DialectRules>, Arc<BTreeSet<SmolStr>>, FunctionTable);
        static TERRAFORM: std::sync::OnceLock<Shared> = std::sync::OnceLock::new();
        static GENERIC: std::sync::OnceLock<Shared> = std::sync::OnceLock::new();
        let build = |rules: DialectRules| {
            let functions = FunctionTable::shared(&rules);
            let function_names = Arc::new(rules.unknown_functions.clone());
            (Arc::new(rules), function_names, functions)
        };
        let shared = if paths.into_iter().any(is_terraform_file) {
            TERRAFORM.get_or_init(|| build(DialectRules::terraform()))
        } else {
            GENERIC.get_or_init(|| build(DialectRules::generic()))
        };
        shared.clone()
    }

    /// The Terraform language: see `docs/architecture.md` ("Dialects").
    pub fn terraform() -> DialectRules {
        // Built once: a check makes one per module, thousands of times, and
        // the standard library's table it reads is not small.
        static TERRAFORM: std::sync::OnceLock<DialectRules> = std::sync::OnceLock::new();
        TERRAFORM.get_or_init(DialectRules::build_terraform).clone()
    }

    fn build_terraform() -> DialectRules {
        // The names whose function is not the standard library's: an
        // attribute calling one reads the table of `terraform_functions`.
        let unknown_functions = crate::module::terraform_functions::names_differing_from_stdlib();
        let mut static_attributes = BTreeMap::new();
        static_attributes.insert(
            SmolStr::new("*"),
            names(&["depends_on", "provider", "providers", "ignore_changes", "replace_triggered_by"]),
        );
        static_attributes.insert(SmolStr::new("moved"), names(&["from", "to"]));
        static_attributes.insert(SmolStr::new("import"), names(&["to"]));
        static_attributes.insert(SmolStr::new("removed"), names(&["from"]));
        static_attributes.insert(SmolStr::new("provisioner"), names(&["when", "on_failure"]));
        // `configuration_aliases = [aws.west]` names providers.
        static_attributes.insert(SmolStr::new("required_providers"), names(&["*"]));
        // An output's `type` is a type constraint, as a variable's.
        static_attributes.insert(SmolStr::new("output"), names(&["type"]));
        // `experiments = [name]` and `language = TF2021` are keywords.
        static_attributes.insert(SmolStr::new("terraform"), names(&["experiments", "language"]));
        // Terraform 1.14's actions: `events = [after_create]`.
        static_attributes.insert(SmolStr::new("action_trigger"), names(&["events", "actions"]));
        DialectRules {
            name: "terraform".into(),
            chosen_by_files: true,
            // Every root `parse_ref.go` knows besides `var`, `local` and
            // resource types: `data`, `module` and `ephemeral` are checked
            // against their blocks first (see `terraform_references`);
            // `list` (query files), `caller`, `action` (whose references sit
            // in static attributes) and the reserved `template`, `lazy` and
            // `arg` stay unknown; a bare `string`, `number`, `bool` or `any`
            // is a type constraint, not a resource.
            unknown_roots: names(&[
                "count",
                "each",
                "path",
                "terraform",
                "self",
                "data",
                "module",
                "action",
                "ephemeral",
                "list",
                "caller",
                "template",
                "lazy",
                "arg",
                "string",
                "number",
                "bool",
                "any",
            ]),
            unprefixed_block_types: names(&["resource"]),
            hidden_block_types: names(&[
                "output",
                "provider",
                "terraform",
                "moved",
                "import",
                "removed",
                "check",
            ]),
            repeatable_block_types: names(&["provider"]),
            opaque_block_types: names(&["module"]),
            computed_attributes: true,
            repetition_attributes: names(&["count", "for_each"]),
            static_attributes,
            unset_variables_unknown: true,
            terraform_files_only: true,
            label_counts: [
                ("resource", 2),
                ("data", 2),
                ("ephemeral", 2),
                ("action", 2),
                ("module", 1),
                ("variable", 1),
                ("output", 1),
                ("provider", 1),
                ("check", 1),
                ("locals", 0),
                ("terraform", 0),
                ("moved", 0),
                ("import", 0),
                ("removed", 0),
            ]
            .into_iter()
            .map(|(name, count)| (SmolStr::new(name), count))
            .collect(),
            unknown_functions,
            terraform_references: true,
        }
    }

    /// Whether the attribute at `address` is a reference by name that the
    /// dialect does not evaluate.
    pub fn is_static(&self, address: &[SmolStr]) -> bool {
        let Some((name, enclosing)) = address.split_last() else { return false };
        // Locals are expressions whatever their names; a top-level
        // attribute is not in a block.
        if enclosing.is_empty() || enclosing[0] == "local" {
            return false;
        }
        let names_match = |key: &str| {
            self.static_attributes.get(key).is_some_and(|names| names.contains(name) || names.contains("*"))
        };
        names_match("*") || enclosing.iter().any(|segment| names_match(segment))
    }
}

/// The functions of a dialect: the standard library, a stub returning an
/// unknown value for each of [`DialectRules::unknown_functions`], and the
/// functions registered, which win over both. Compares by generation (see
/// the module's documentation).
#[derive(Clone)]
pub struct FunctionTable {
    generation: u64,
    functions: Arc<BTreeMap<String, eval::Function>>,
    /// Functions standing for every name of a namespace (see
    /// `eval::Context::namespaces`): Terraform's provider functions.
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
        for name in &rules.unknown_functions {
            functions.insert(name.to_string(), unknown_function());
        }
        let mut namespaces = BTreeMap::new();
        if rules.name == "terraform" {
            crate::module::terraform_functions::apply(&mut functions);
            namespaces = crate::module::terraform_functions::namespaces();
        }
        functions.extend(registered.iter().map(|(name, function)| (name.clone(), function.clone())));
        FunctionTable {
            generation: GENERATIONS.fetch_add(1, Ordering::Relaxed),
            functions: Arc::new(functions),
            namespaces: Arc::new(namespaces),
        }
    }

    /// The table of `rules` with nothing registered, shared by every caller
    /// with equal rules: a new module gets it without building the standard
    /// library's table again (a check creates thousands of modules).
    pub fn shared(rules: &DialectRules) -> FunctionTable {
        static SHARED: std::sync::Mutex<Vec<(DialectRules, FunctionTable)>> =
            std::sync::Mutex::new(Vec::new());
        let mut shared = SHARED.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, table)) = shared.iter().find(|(known, _)| known == rules) {
            return table.clone();
        }
        let table = FunctionTable::new(rules, &BTreeMap::new());
        shared.push((rules.clone(), table.clone()));
        table
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
    /// [`DialectRules::unknown_functions`].
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
