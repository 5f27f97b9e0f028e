//! Terragrunt's units (`terragrunt.hcl`, `*.terragrunt.hcl`,
//! `terragrunt.stack.hcl`), after Terragrunt's `pkg/config` package.
//!
//! - Roots: a unit's `locals` and its labelled blocks are the generic
//!   model's. `dependency "X"` and `include "X"` are opaque: their labels
//!   are checked (`dependency.vpcc` is an error), and what they provide is
//!   read where it can be: `include.X.locals`, an exposed included file's
//!   locals, by name; `dependency.X.outputs`, the outputs of the module
//!   X's unit deploys (checked by `dependency_calls`). `feature "X"` (a
//!   feature flag, `feature.X.value`) is opaque too; `values` (what a
//!   stack passes its unit) is unknown, and so are `dependency` and
//!   `feature` in a unit whose includes are not all read.
//! - Functions ([`Terragrunt::functions`]): Terraform's table, as
//!   Terragrunt evaluates with Terraform's functions, without Terraform's
//!   namespaced names (`core::`, `provider::`, which Terragrunt's
//!   evaluation context does not have), and Terragrunt's own, with its
//!   signatures (`createTerragruntEvalContext`). Those that read the
//!   disk, the environment, a command's output or the cloud return an
//!   unknown of their type; the lists of Terraform's commands that take an
//!   argument are the known lists Terragrunt gives.
//!
//! - Units ([`Terragrunt::grouping`]): each `terragrunt.hcl` is a unit of
//!   its own, never part of the Terraform module beside it.
//! - Included files ([`includes`]): read from disk through the host, as
//!   Terragrunt finds them, and merged into the unit as Terragrunt merges
//!   them (`dependency` blocks, `inputs`, `terraform { source }`), a
//!   `terragrunt.hcl.json`'s too. An included file that includes another
//!   is an error (`file_diagnostics`), as Terragrunt reads one level.
//! - Across the Terraform boundary ([`unit_call`]): the module a unit
//!   deploys (a local `terraform { source }`, its own or an included
//!   file's, or the unit's own directory) is called with the keys of
//!   `inputs`, so the module-call checks find an input the module does not
//!   declare, a required variable neither the unit nor its includes set
//!   (where every include is read) and an input of the wrong type.
//!
//! - Files read by `read_terragrunt_config(PATH)` as a local's whole value
//!   ([`includes::unit_config_reads`]): read like an include, and
//!   `local.NAME.locals.X` and `local.NAME.inputs.X` checked by name where
//!   the file gives them exactly (`config_read_diagnostics`). The
//!   function's value is still unknown when evaluated.
//!
//! The path
//! functions, which depend on the file's place, its includes and the
//! repository around it, are unknown strings when evaluated.

pub mod includes;

use std::{collections::BTreeMap, sync::Arc};

use camino::Utf8Path;
use db::{
    Db, File,
    module::{
        Address, ArgumentsAt, Attr, DialectPlugin, DialectRules, FileRead, Grouping, Module, ModuleCall,
        ModuleDiagnostic, ModuleDiagnosticKind, ReadFor, attribute_value, block_labels, declarations_of,
        definition, join_lexically, module_files,
    },
};
use eval::{Function, FunctionError, Param, Type, Value};
use smol_str::SmolStr;

use crate::terragrunt::includes::Source;

/// Terragrunt's dialect.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terragrunt;

impl DialectPlugin for Terragrunt {
    fn name(&self) -> &str {
        "terragrunt"
    }

    fn claims(&self, path: &Utf8Path) -> bool {
        crate::is_language(path, vfs::Language::Terragrunt)
    }

    fn rules(&self) -> DialectRules {
        let names = |list: &[&str]| list.iter().copied().map(SmolStr::new).collect();
        // Every name whose function differs from the standard library's
        // in Terraform's table, but its namespaced ones (and the empty
        // name, which stands for every namespaced one), then Terragrunt's.
        let own_functions = crate::terraform::rules()
            .own_functions
            .into_iter()
            .filter(|name| !name.is_empty() && !name.contains("::"))
            .chain(own_functions().into_keys().map(SmolStr::from))
            .collect();
        DialectRules {
            name: "terragrunt".into(),
            // Declared blocks come first: a unit that declares no
            // `dependency` or `feature` block may have them from an
            // included file, which is not read yet.
            unknown_roots: names(&["values", "dependency", "feature"]),
            opaque_block_types: names(&["dependency", "include", "feature"]),
            // An included file's `dependency` and `feature` blocks are the
            // unit's too.
            importing_block_types: names(&["include"]),
            own_functions,
            knows_every_function: true,
            ..DialectRules::generic()
        }
    }

    /// Terraform's functions, then Terragrunt's over them (Terragrunt's
    /// evaluation context copies Terraform's scope's functions first and
    /// its own after).
    fn functions(&self, table: &mut BTreeMap<String, Function>) {
        crate::terraform::Terraform.functions(table);
        table.retain(|name, _| !name.contains("::") && !NEWER_THAN_TERRAGRUNTS.contains(&name.as_str()));
        table.extend(own_functions());
    }

    /// Each file a unit of its own: a `terragrunt.hcl` is evaluated
    /// apart from the `.tf` files beside it (the module it deploys when
    /// its `terraform` block names no other source), as Terragrunt
    /// evaluates each configuration file alone.
    fn grouping(&self, path: &Utf8Path) -> Grouping {
        let _ = path;
        Grouping::File
    }

    /// The module the unit deploys, called with its `inputs`: the
    /// directory `terraform { source }` names where it is a local path, or
    /// the unit's own directory where it names none (see [`unit_call`]).
    fn unit_calls(&self, db: &dyn Db, module: Module) -> Vec<ModuleCall> {
        unit_call(db, module).into_iter().chain(dependency_calls(db, module)).collect()
    }

    /// What a unit's file says of what it reads, and what it declares for
    /// a unit that includes it or depends on it (a sibling's unit reads
    /// its `terraform { source }`): asked for again after the file's tree
    /// is dropped, they are found while it is parsed.
    fn read_while_parsed(&self, db: &dyn Db, file: File) {
        if includes::is_unit_file(db, file) {
            let _ = includes::unit_file_reads(db, file);
        }
        let _ = includes::included_config(db, file);
    }

    /// The files the unit's `include` blocks name, where their paths are
    /// known without evaluation (see [`includes`]), the configuration
    /// of each unit it depends on (for the module that unit deploys), and
    /// the files its locals read with `read_terragrunt_config`.
    fn reads(&self, db: &dyn Db, module: Module) -> Vec<FileRead> {
        // A search, and the file found beside what it finds once it has.
        let included = includes::unit_includes(db, module).iter().flat_map(|include| {
            let search = include.read.as_ref().map(|read| read.first_read().clone());
            let beside = match &include.read {
                Some(includes::IncludeRead::BesideFound { .. }) => includes::include_read(db, include),
                _ => None,
            };
            search.into_iter().chain(beside)
        });
        let dependencies = includes::unit_dependencies(db, module)
            .iter()
            .filter_map(|dependency| dependency.dir.as_deref().map(includes::dependency_target_read));
        let configs = includes::unit_config_reads(db, module).iter().map(|it| it.read.clone());
        included.chain(dependencies).chain(configs).collect()
    }

    /// The `dependency` and `feature` blocks of the files the unit
    /// includes and merges, where every include was read: a unit
    /// `terragrunt.hcl` sees its own and those, nothing else.
    fn imported_blocks(&self, db: &dyn Db, module: Module, block_type: &str) -> Option<Vec<Box<[SmolStr]>>> {
        // A unit that includes nothing may still be a stack's, given its
        // `dependency` blocks by the stack's generated include
        // (`autoinclude`): its undeclared blocks stay unknown.
        if !matches!(block_type, "dependency" | "feature") || includes::unit_includes(db, module).is_empty() {
            return None;
        }
        let includes = includes::read_includes(db, module)?;
        let labels = includes
            .iter()
            .filter(|(include, _)| include.merged)
            .flat_map(|(_, config)| match block_type {
                "dependency" => config.dependencies.iter().map(|it| &it.label).collect::<Vec<_>>(),
                _ => config.features.iter().collect(),
            })
            .map(|label| Box::from([label.clone()]))
            .collect();
        Some(labels)
    }

    /// A name read from a file `read_terragrunt_config` reads that the
    /// file does not declare (see [`config_read_diagnostics`]), and an
    /// included file that includes another, which Terragrunt refuses
    /// (its `TooManyLevelsOfInheritanceError`, worded as it words it), at
    /// the unit's include's `path`.
    fn file_diagnostics(&self, db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
        if includes::unit_file(db, module) != Some(file) {
            return Vec::new();
        }
        let mut out = config_read_diagnostics(db, module, file);
        out.extend(unexposed_include_diagnostics(db, module, file));
        out.extend(missing_read_diagnostics(db, module, file));
        for include in includes::unit_includes(db, module) {
            let Some(included) = includes::included_file(db, include) else { continue };
            let nested = &includes::included_config(db, included).nested_includes;
            if nested.is_empty() {
                continue;
            }
            let range = include
                .path
                .and_then(|path| db::source_map(db, file).expr_syntax(path))
                .map(|pointer| pointer.text_range())
                .unwrap_or_default();
            out.push(ModuleDiagnostic {
                file,
                range,
                kind: ModuleDiagnosticKind::NestedImport,
                detail: format!(
                    "{} includes {}, which itself includes {}. Only one level of includes is allowed.",
                    file.path(db),
                    included.path(db),
                    nested.join(",")
                ),
                related: Vec::new(),
            });
        }
        out
    }

    /// `include.NAME.locals`: the locals of the file an exposed include
    /// reads.
    fn opaque_members(&self, db: &dyn Db, module: Module, address: &[SmolStr]) -> Option<Vec<SmolStr>> {
        let [root, label, locals] = address else { return None };
        if root != "include" || locals != "locals" {
            return None;
        }
        let include =
            includes::unit_includes(db, module).iter().find(|it| it.label == *label && it.expose)?;
        let config = includes::included_config(db, includes::included_file(db, include)?);
        Some(config.locals.clone())
    }
}

/// The unit's includes and dependencies whose files do not exist, where
/// Terragrunt stops (each at its path's expression, or for a dependency
/// an included file declares, at that include's): an include's
/// file (its `DependencyFileNotFoundError`, or with
/// `find_in_parent_folders` and no fallback, its
/// `ParentFileNotFoundError`), and a dependency's `terragrunt.hcl` (its
/// `DependencyConfigNotFound`), unless the dependency's outputs are not
/// read (`skip_outputs`, or an `enabled` that may be false) or its
/// directory holds a stack. Not for a unit that may be a stack's, whose
/// paths are read from where the stack generates it.
fn missing_read_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let reads = includes::unit_file_reads(db, file);
    if reads.may_be_a_stacks_unit {
        return Vec::new();
    }
    let range_of = |expr: Option<hir::ExprId>| {
        expr.and_then(|expr| db::source_map(db, file).expr_syntax(expr))
            .map(|pointer| pointer.text_range())
            .unwrap_or_default()
    };
    let mut out = Vec::new();
    for include in &reads.includes {
        let Some(read) = &include.read else { continue };
        if include.search.as_ref().is_some_and(|search| search.fallback) {
            continue;
        }
        let no_file = |read: &FileRead| {
            let path = read.candidates.first()?;
            Some(format!("No file at {path}: Terragrunt stops (\"Dependency file not found\")."))
        };
        let detail = if db::module::read_is_missing(db, read.first_read()) {
            match &include.search {
                Some(search) => parent_file_not_found(&search.name, file.path(db)),
                None => match no_file(read.first_read()) {
                    Some(detail) => detail,
                    None => continue,
                },
            }
        } else {
            // The search found its file: the one beside it, if that is
            // how the path is found.
            let beside = match read {
                includes::IncludeRead::BesideFound { .. } => includes::include_read(db, include),
                includes::IncludeRead::File(_) => None,
            };
            match beside.filter(|beside| db::module::read_is_missing(db, beside)).as_ref().and_then(no_file) {
                Some(detail) => detail,
                None => continue,
            }
        };
        out.push(ModuleDiagnostic {
            file,
            range: range_of(include.path),
            kind: ModuleDiagnosticKind::MissingRead(ReadFor::Import),
            detail,
            related: Vec::new(),
        });
    }
    // `read_terragrunt_config(PATH)` with no default, where PATH names a
    // file (a directory is read for its configuration) or is a search:
    // its `TerragruntConfigNotFoundError`.
    for config in &reads.config_reads {
        if config.has_default || !db::module::read_is_missing(db, &config.read) {
            continue;
        }
        let Some(path) = config.read.candidates.first() else { continue };
        let detail = match &config.search {
            Some(search) if search.fallback => continue,
            Some(search) => parent_file_not_found(&search.name, file.path(db)),
            None if matches!(path.extension(), Some("hcl" | "json")) => {
                format!("No file at {path}, and read_terragrunt_config gives no default: Terragrunt stops.")
            }
            None => continue,
        };
        out.push(ModuleDiagnostic {
            file,
            range: range_of(Some(config.path)),
            kind: ModuleDiagnosticKind::MissingRead(ReadFor::Value),
            detail,
            related: Vec::new(),
        });
    }
    // The unit's own, then those its includes bring (at the include).
    for dependency in includes::unit_dependencies(db, module) {
        if dependency.skip_outputs || dependency.maybe_disabled {
            continue;
        }
        let Some(dir) = dependency.dir.as_deref() else { continue };
        if !db::module::read_is_missing(db, &includes::dependency_target_read(dir)) {
            continue;
        }
        // Terragrunt names the file itself where the path names one, else
        // the configuration it looked for last in the directory.
        let mut detail = match dir.extension() {
            Some("hcl" | "json") => format!("{dir} does not exist"),
            _ => format!("{} does not exist", db::module::join_lexically(dir, "terragrunt.hcl")),
        };
        if dependency.config_path.is_none() {
            detail.push_str(&format!(" (the dependency \"{}\" an included file declares)", dependency.label));
        }
        out.push(ModuleDiagnostic {
            file,
            range: range_of(dependency.config_path.or(dependency.included_by)),
            kind: ModuleDiagnosticKind::MissingRead(ReadFor::Unit),
            detail,
            related: Vec::new(),
        });
    }
    out
}

/// What Terragrunt says when `find_in_parent_folders(name)` in `unit`
/// finds nothing (its `ParentFileNotFoundError`, in a function call).
fn parent_file_not_found(name: &str, unit: &Utf8Path) -> String {
    format!(
        "Call to function \"find_in_parent_folders\" failed: ParentFileNotFoundError: Could not find a {name} in any of the parent folders of {unit}. Cause: Traversed all the way to the root."
    )
}

/// `local.NAME.locals.X` and `local.NAME.inputs.X` where the local NAME
/// is `read_terragrunt_config(PATH)` and the file PATH names was read and
/// declares no X: "Unsupported attribute", with a did-you-mean. Only
/// where what the file gives is exact: a native file with no `include`
/// (whose inputs would merge in), of locals it declares some of (with
/// none, Terragrunt's result has no `locals` at all), of inputs an
/// object whose keys are known; never inside `try` or `can`. A stack or
/// values file, which Terragrunt reads otherwise, is left alone.
fn config_read_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let reads = includes::unit_config_reads(db, module);
    if reads.is_empty() {
        return Vec::new();
    }
    let mut known: Vec<(&SmolStr, &str, &[SmolStr], &Utf8Path)> = Vec::new();
    for read in reads {
        let Some(read_file) = db::module::read_file(db, &read.read) else { continue };
        let path = read_file.path(db);
        let name = path.file_name().unwrap_or_default();
        if read_file.syntax(db) != db::SourceSyntax::Native
            || name == "terragrunt.stack.hcl"
            || name.ends_with("terragrunt.values.hcl")
            || name.ends_with(".stack.hcl")
        {
            continue;
        }
        let config = includes::included_config(db, read_file);
        if config.includes {
            continue;
        }
        if !config.locals.is_empty() {
            known.push((&read.local, "locals", &config.locals, path));
        }
        if let Some(inputs) = config.inputs.as_deref().filter(|it| !it.is_empty()) {
            known.push((&read.local, "inputs", inputs, path));
        }
    }
    if known.is_empty() {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    let mut out = Vec::new();
    for access in db::module::member_accesses(hir) {
        let [root, local, part] = access.base.as_slice() else { continue };
        if root != "local" {
            continue;
        }
        let Some((_, what, names, path)) =
            known.iter().find(|(name, what, ..)| *name == local && what == part)
        else {
            continue;
        };
        if names.contains(&access.name) {
            continue;
        }
        let Some(range) = db::module::member_access_range(db, file, access.expr) else { continue };
        let suggestion = eval::suggest(&access.name, names.iter().map(SmolStr::as_str));
        let did_you_mean = match &suggestion {
            Some(meant) => format!(" Did you mean {meant:?}?"),
            None => String::new(),
        };
        let declares = if *what == "locals" { "declares no such local" } else { "sets no such input" };
        out.push(ModuleDiagnostic {
            file,
            range,
            kind: ModuleDiagnosticKind::Unresolved(db::module::Unresolved::UnsupportedMember {
                name: access.name.clone(),
                suggestion: suggestion.map(SmolStr::from),
            }),
            detail: format!(
                "This object does not have an attribute named {:?}: {path}, which read_terragrunt_config reads, {declares}.{did_you_mean}",
                access.name.as_str()
            ),
            related: Vec::new(),
        });
    }
    out
}

/// Terraform's functions newer than the Terraform v0.15.3 whose table
/// Terragrunt evaluates with (its `go.mod`; `config/config_helpers.go`
/// adds back only `startswith`, `endswith`, `strcontains` and `timecmp` of
/// the later ones): calls of these are unknown functions to Terragrunt.
const NEWER_THAN_TERRAGRUNTS: &[&str] =
    &["templatestring", "plantimestamp", "issensitive", "ephemeralasnull"];

/// `include.NAME` where the unit's include NAME has no `expose = true`:
/// Terragrunt's `include` holds the exposed includes only (an empty object
/// when none is), so the access is "Unsupported attribute"
/// (`config/cty_helpers.go`). Not inside `try` or `can`.
fn unexposed_include_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let unexposed: Vec<&SmolStr> = includes::unit_includes(db, module)
        .iter()
        .filter(|include| !include.expose && !include.label.is_empty())
        .map(|include| &include.label)
        .collect();
    // Looked for first in the expressions kept past the file's tree (a
    // report must not lower a unit's file again), and lowered only for
    // the ranges of what is found.
    let reads_unexposed = db::module::file_exprs(db, file).iter().any(|expr| {
        expr.exprs().iter().any(|(_, it)| {
            matches!(it, hir::Expr::GetAttr { base, name }
                if unexposed.iter().any(|label| label.as_str() == name.as_str())
                    && matches!(expr.exprs().get(*base), hir::Expr::Variable(root) if root.as_str() == "include"))
        })
    });
    if !reads_unexposed {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    let mut out = Vec::new();
    for access in db::module::member_accesses(hir) {
        if access.base.as_slice() != ["include"] || !unexposed.contains(&&access.name) {
            continue;
        }
        let Some(range) = db::module::member_access_range(db, file, access.expr) else { continue };
        out.push(ModuleDiagnostic {
            file,
            range,
            kind: ModuleDiagnosticKind::Unresolved(db::module::Unresolved::UnsupportedMember {
                name: access.name.clone(),
                suggestion: None,
            }),
            detail: format!(
                "This object does not have an attribute named {:?}: the include {:?} is not exposed; set `expose = true` in it to read what it declares.",
                access.name.as_str(),
                access.name.as_str()
            ),
            related: Vec::new(),
        });
    }
    out
}

/// The call of the Terraform module a unit deploys: the unit's directory
/// joined with `terraform { source }` when it is a local path (`./x`,
/// `../x`, an absolute path; a `//` between the module's root and its
/// subdirectory read as `/`), or the unit's directory when the unit names
/// no source, with the keys of `inputs` as its arguments. `None` where the
/// source is remote or not known (a path function's result), or where
/// `inputs` is not an object whose keys are known (a `merge` of an
/// included file's inputs). The arguments are complete only when the unit
/// has no `include` block (an included file's `inputs` merge into the
/// unit's), no `extra_arguments` (which may pass `-var-file`), and an
/// `inputs` attribute (a unit without one sets its module's variables
/// some other way).
pub fn unit_call(db: &dyn Db, module: Module) -> Option<ModuleCall> {
    // A root configuration (`root.hcl`) is included by units, and its
    // relative paths are read from theirs: it deploys nothing itself.
    let unit_file = *module_files(db, module).iter().find(|file| {
        let path = file.path(db);
        Terragrunt.claims(path) && !matches!(path.file_name(), Some("root.hcl" | "root.terragrunt.hcl"))
    })?;
    let unit_dir = vfs::module_dir(unit_file.path(db));
    let source_address = Address::new(["terraform", "source"]);
    // The includes read, merged into the unit (`None` where one is not
    // read: what it brings is not known).
    let included: Option<Vec<&includes::IncludedConfig>> = includes::read_includes(db, module).map(|read| {
        read.into_iter().filter(|(include, _)| include.merged).map(|(_, config)| config).collect()
    });
    let local_dir = |source: &str| {
        if !includes::is_local_path(source) {
            return None;
        }
        // A query string (`?ref=`) belongs to remote sources only.
        if source.contains('?') {
            return None;
        }
        Some(join_lexically(unit_dir, source))
    };
    let dir = match definition(db, module, &source_address) {
        None if block_labels(db, module, "include").is_empty() => unit_dir.to_owned(),
        // The source of the last included file that names one, read
        // from the unit's directory (the included configuration is
        // evaluated in the unit's place).
        None => match included.as_ref()?.iter().rev().map(|it| &it.source).find(|it| **it != Source::None) {
            None => unit_dir.to_owned(),
            Some(Source::Literal(source)) => local_dir(source)?,
            Some(_) => return None,
        },
        Some(_) => {
            let source = attribute_value(db, Attr::new(db, module, source_address)).as_ref().ok()?;
            local_dir(source.as_str()?)?
        }
    };
    let inputs_address = Address::new(["inputs"]);
    // Variables set otherwise than by `inputs`: an included file's
    // `inputs`, or `-var`/`-var-file` arguments and var files
    // (`extra_arguments`) make the list incomplete.
    let extra_arguments = declarations_of(db, unit_file).declarations.iter().any(|it| {
        matches!(it.address.segments()[..], [terraform, extra, ..] if terraform == "terraform" && extra == "extra_arguments")
    });
    // Every included file read, its inputs' keys known, none passing
    // extra arguments.
    let included_inputs: Option<Vec<SmolStr>> = match &included {
        None => None,
        Some(configs) => configs
            .iter()
            .map(|config| if config.extra_arguments { None } else { config.inputs.clone() })
            .collect::<Option<Vec<Vec<SmolStr>>>>()
            .map(|keys| keys.concat()),
    };
    let complete = included_inputs.is_some()
        && !extra_arguments
        && (definition(db, module, &Address::new(["inputs"])).is_some()
            || included_inputs.as_ref().is_some_and(|it| !it.is_empty()));
    let (arguments, file, location) = match definition(db, module, &inputs_address) {
        Some(inputs) => {
            let value = attribute_value(db, Attr::new(db, module, inputs_address.clone())).as_ref().ok()?;
            let keys = value.entries()?.keys();
            let arguments =
                keys.map(|key| (SmolStr::from(key.as_str()), inputs.location(db).clone())).collect();
            (arguments, inputs.file, inputs.location(db).clone())
        }
        None => {
            // The call is the unit itself: its `terraform` block, or its
            // file's start.
            let location = definition(db, module, &Address::new(["terraform"]))
                .map(|it| it.location(db).clone())
                .unwrap_or(db::module::Location {
                    block: None,
                    attribute: None,
                    labels: Default::default(),
                    nested: Default::default(),
                });
            (Vec::new(), unit_file, location)
        }
    };
    Some(ModuleCall {
        name: "terraform".into(),
        source: dir.to_string(),
        dir,
        arguments,
        arguments_at: ArgumentsAt::ObjectMembers(inputs_address),
        imported_arguments: included_inputs.unwrap_or_default(),
        outputs_at: None,
        caller_outputs: Vec::new(),
        stand_in_outputs: None,
        complete,
        file,
        location,
    })
}

/// The unit's reads of other units' outputs: for each `dependency` whose
/// unit is found and deploys a local module, that module called with no
/// arguments, its outputs read as `dependency.NAME.outputs`, so that an
/// output the module does not declare is an error. A dependency with
/// `skip_outputs` (its outputs are its mocks) is left out.
fn dependency_calls(db: &dyn Db, module: Module) -> Vec<ModuleCall> {
    let Some(file) = includes::unit_file(db, module) else { return Vec::new() };
    let mut out = Vec::new();
    for dependency in includes::unit_dependencies(db, module) {
        if dependency.skip_outputs {
            continue;
        }
        let Some(dir) = dependency.dir.as_deref() else { continue };
        let Some(deployed) = includes::deployed_module(db, dir) else { continue };
        let block = Address::new(["dependency", dependency.label.as_str()]);
        let location = definition(db, module, &block).map(|it| it.location(db).clone()).unwrap_or(
            db::module::Location {
                block: None,
                attribute: None,
                labels: Default::default(),
                nested: Default::default(),
            },
        );
        out.push(ModuleCall {
            name: dependency.label.clone(),
            source: dir.to_string(),
            dir: deployed,
            arguments: Vec::new(),
            arguments_at: ArgumentsAt::ObjectMembers(block),
            imported_arguments: Vec::new(),
            outputs_at: Some(Address::new(["dependency", dependency.label.as_str(), "outputs"])),
            caller_outputs: dependency.mock_outputs.clone(),
            // The mocks Terragrunt passes as the outputs until the
            // dependency is applied: an input that is one of them gets
            // the mock's value then.
            stand_in_outputs: dependency
                .mocks_reach_variables
                .then(|| Address::new(["dependency", dependency.label.as_str(), "mock_outputs"])),
            complete: false,
            file,
            location,
        });
    }
    out
}

/// Terragrunt's own functions, by name, with their signatures.
/// Terragrunt declares most of them as taking any number of strings and
/// counts the arguments when called; here the count is checked from the
/// arguments' types, so that a wrong count is an error even when the
/// arguments are unknown.
fn own_functions() -> BTreeMap<String, Function> {
    let string = || Type::String;
    let strings = || Type::list(Type::String);
    // Those of strings only: name, fewest and most arguments, result.
    let of_strings = [
        // Paths, from the file's place, its includes and the repository.
        ("find_in_parent_folders", 0, 2, string()),
        ("path_relative_to_include", 0, 1, string()),
        ("path_relative_from_include", 0, 1, string()),
        ("get_parent_terragrunt_dir", 0, 1, string()),
        ("get_terragrunt_dir", 0, 0, string()),
        ("get_original_terragrunt_dir", 0, 0, string()),
        ("get_repo_root", 0, 0, string()),
        ("get_path_from_repo_root", 0, 0, string()),
        ("get_path_to_repo_root", 0, 0, string()),
        ("get_working_dir", 0, 0, string()),
        // The environment, the command line, commands and the cloud.
        ("get_env", 1, 2, string()),
        ("run_cmd", 1, usize::MAX, string()),
        ("get_platform", 0, 0, string()),
        ("get_terraform_command", 0, 0, string()),
        ("get_terraform_cli_args", 0, 0, strings()),
        ("get_terragrunt_source_cli_flag", 0, 0, string()),
        ("get_default_retryable_errors", 0, 0, strings()),
        ("get_aws_account_alias", 0, 0, string()),
        ("get_aws_account_id", 0, 0, string()),
        ("get_aws_caller_identity_arn", 0, 0, string()),
        ("get_aws_caller_identity_user_id", 0, 0, string()),
        // Files read from disk.
        ("sops_decrypt_file", 1, 1, string()),
        ("read_tfvars_file", 1, 1, string()),
        ("mark_as_read", 1, 1, string()),
        ("mark_glob_as_read", 1, 1, strings()),
        // `constraint_check(version, constraint)`: whether a version
        // meets a constraint.
        ("constraint_check", 2, 2, Type::Bool),
    ];
    let mut table: BTreeMap<String, Function> = of_strings
        .into_iter()
        .map(|(name, min, max, ret)| (name.to_string(), strings_to(name, min, max, ret)))
        .collect();
    let any = || Param::new("value", Type::Dynamic).allow_null().allow_unknown().allow_dynamic();
    // `read_terragrunt_config(path, default?)`: the other file's
    // configuration, or the default when it is missing.
    let read_terragrunt_config = Function::new(
        vec![Param::new("config_path", Type::String)],
        Some(any()),
        Arc::new(|args| count("read_terragrunt_config", args, 1, 2).map(|()| Type::Dynamic)),
        Arc::new(|_, _| Ok(Value::dynamic())),
    );
    table.insert("read_terragrunt_config".into(), read_terragrunt_config);
    // `deep_merge(maps…)`, an experiment: a merge of the maps or objects.
    let deep_merge = Function::simple(Vec::new(), Some(any()), Type::Dynamic, |_, _| Ok(Value::dynamic()));
    table.insert("deep_merge".into(), deep_merge);
    // Static lists: the Terraform commands that take an argument.
    let commands_taking = [
        ("vars", &["apply", "console", "destroy", "import", "plan", "push", "refresh"][..]),
        ("locking", &["apply", "destroy", "import", "plan", "refresh", "taint", "untaint"]),
        ("input", &["apply", "import", "init", "plan", "refresh"]),
        ("parallelism", &["apply", "plan", "destroy"]),
    ];
    for (what, names) in commands_taking {
        table.insert(format!("get_terraform_commands_that_need_{what}"), commands(names));
    }
    table
}

/// A function of between `min` and `max` strings whose result, read from
/// outside the configuration, is an unknown of type `ret`.
fn strings_to(name: &'static str, min: usize, max: usize, ret: Type) -> Function {
    let var_param = (max > 0).then(|| Param::new("args", Type::String));
    Function::new(
        Vec::new(),
        var_param,
        Arc::new(move |args| count(name, args, min, max).map(|()| ret.clone())),
        Arc::new(|_, ret| Ok(Value::unknown(ret.clone()))),
    )
}

/// Terragrunt's error for a call with the wrong number of arguments.
fn count(name: &str, args: &[Value], min: usize, max: usize) -> Result<(), FunctionError> {
    if (min..=max).contains(&args.len()) {
        return Ok(());
    }
    let expected = match (min, max) {
        (min, max) if min == max => min.to_string(),
        (min, usize::MAX) => format!("at least {min}"),
        (min, max) if max == min + 1 => format!("{min} or {max}"),
        (min, max) => {
            let fewer: Vec<String> = (min..max).map(|n| n.to_string()).collect();
            format!("{}, or {max}", fewer.join(", "))
        }
    };
    Err(FunctionError::new(format!("Expected {expected} params for function {name}, but got {}", args.len())))
}

/// A function of no arguments that returns the list `names`.
fn commands(names: &'static [&'static str]) -> Function {
    Function::simple(Vec::new(), None, Type::list(Type::String), move |_, _| {
        let names = names.iter().map(|name| Value::string(name)).collect();
        Value::list(Type::String, names).map_err(|error| FunctionError::new(error.to_string()))
    })
}
