//! The files a Terragrunt unit includes, read as Terragrunt merges them
//! (its `pkg/config/include.go`): each `include "NAME" { path = … }` of a
//! `terragrunt.hcl`, its path resolved without evaluation where it can be
//! (a literal, `find_in_parent_folders()` with a literal name or none,
//! searched from the unit's parent directory upwards,
//! `"${get_terragrunt_dir()}/…"`, and a path beside the file such a search
//! finds, `"${dirname(find_in_parent_folders("root.hcl"))}/…"`, which is
//! read once the search's file is: [`IncludeRead`]), and what the included file declares
//! that the unit sees: its `dependency` and `feature` blocks and its
//! `inputs` (merged into the unit's unless `merge_strategy = "no_merge"`),
//! its `terraform { source }` (the unit's unless the unit names one), and
//! its locals (`include.NAME.locals.*` when `expose = true`).
//!
//! Both are salsa queries of a file ([`unit_file_reads`] of the unit's,
//! [`included_config`] of the included one), so an included file is read
//! and lowered once for every unit that includes it, a unit's file is
//! not lowered again after its tree is dropped (the host asks for both
//! while it is parsed, [`DialectPlugin::read_while_parsed`]), and an edit
//! of either re-runs only what read it.
//!
//! [`DialectPlugin::read_while_parsed`]: db::module::DialectPlugin::read_while_parsed

use std::{cell::RefCell, sync::Arc};

use camino::{Utf8Path, Utf8PathBuf};
use db::{
    Db, File,
    module::{FileRead, Module, join_lexically, module_files, read_file},
};
use hir::{Expr, FileHir, ObjectKey, TemplatePart};
use smol_str::SmolStr;

/// How many directories above the current one `find_in_parent_folders`
/// looks through for a unit named by a relative path (past the file
/// system's root, `..` stays there).
const PARENT_FOLDERS_ABOVE_CURRENT: usize = 16;

/// One `include` block of a unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Include {
    /// Its label (empty for the old unlabelled `include`).
    pub label: SmolStr,
    /// Its `path` expression in the unit's HIR.
    pub path: Option<hir::ExprId>,
    /// The file it names, where its path is known without evaluation
    /// (see [`include_read`]).
    pub read: Option<IncludeRead>,
    /// `expose = true`: the included file is `include.NAME`.
    pub expose: bool,
    /// Whether the included file's blocks and inputs merge into the unit's
    /// (`merge_strategy` is not `"no_merge"`).
    pub merged: bool,
    /// How Terragrunt finds the file where it is not there, when `path`
    /// searches the directories above the unit.
    pub search: Option<ParentSearch>,
}

/// How an include's file is found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IncludeRead {
    /// The first of its candidates that exists.
    File(FileRead),
    /// `"${dirname(find_in_parent_folders("NAME"))}/REST"`: `REST` in the
    /// directory of the file `search` finds (the form Terragrunt's live
    /// example gives its `_envcommon` includes).
    BesideFound { search: FileRead, rest: String },
}

impl IncludeRead {
    /// The read the unit makes first: the file's own, or the search whose
    /// file the include's file is beside.
    pub fn first_read(&self) -> &FileRead {
        match self {
            IncludeRead::File(read) | IncludeRead::BesideFound { search: read, .. } => read,
        }
    }
}

/// The file an include names, as a read: `None` where its path is not
/// known without evaluation, or is found beside a file that a search
/// has not found (yet).
pub fn include_read(db: &dyn Db, include: &Include) -> Option<FileRead> {
    match include.read.as_ref()? {
        IncludeRead::File(read) => Some(read.clone()),
        IncludeRead::BesideFound { search, rest } => {
            let found = read_file(db, search)?;
            let dir = found.path(db).parent().unwrap_or(Utf8Path::new("."));
            Some(FileRead { candidates: Arc::new([join_lexically(dir, rest)]) })
        }
    }
}

/// An include's `find_in_parent_folders(NAME?, FALLBACK?)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParentSearch {
    /// The name searched for (`terragrunt.hcl` when none is given, as
    /// Terragrunt's message names it).
    pub name: String,
    /// Whether a fallback is given, which Terragrunt returns when it finds
    /// none.
    pub fallback: bool,
}

/// What an included file declares that a unit including it sees.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IncludedConfig {
    /// Its `dependency` blocks.
    pub dependencies: Vec<IncludedDependency>,
    /// The labels of its `feature` blocks.
    pub features: Vec<SmolStr>,
    /// The names its `locals` blocks declare.
    pub locals: Vec<SmolStr>,
    /// The keys of its `inputs`, or `None` where they are not known
    /// without evaluation (an `inputs` that is no object constructor).
    pub inputs: Option<Vec<SmolStr>>,
    /// Its `terraform { source }`.
    pub source: Source,
    /// Whether its `terraform` block has `extra_arguments` (which may pass
    /// variables files).
    pub extra_arguments: bool,
    /// Whether it has an `include` block of its own, or is a file whose
    /// blocks are not read (JSON): what that brings is not known.
    pub includes: bool,
    /// Its own `include` blocks, each its `path` where it is a literal or
    /// else its label: a unit that includes this file fails to parse
    /// (Terragrunt reads one level of includes).
    pub nested_includes: Vec<SmolStr>,
}

/// A `dependency` block of an included file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncludedDependency {
    pub label: SmolStr,
    /// Its `config_path`, where it is known without evaluation (relative
    /// to the including unit, as Terragrunt evaluates it there).
    pub path: Option<StaticPath>,
    /// Whether it has `skip_outputs` (or merges its mocks).
    pub skip_outputs: bool,
    /// Whether it has an `enabled` that may be false.
    pub maybe_disabled: bool,
    /// Its mock outputs' names.
    pub mock_outputs: Vec<SmolStr>,
}

/// A `terraform { source }` as far as it is known without evaluation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Source {
    /// No `source`.
    #[default]
    None,
    /// A literal string (a local path or a remote address).
    Literal(String),
    /// An expression not known without evaluation.
    Unknown,
}

/// The `include` blocks of `module`'s unit file (a `terragrunt.hcl` or a
/// `terragrunt.hcl.json`), in source order; empty for any other file (an
/// included file such as `root.hcl` is read by the units that include
/// it, in their context).
pub fn unit_includes(db: &dyn Db, module: Module) -> &[Include] {
    unit_file(db, module).map_or(&[], |file| &unit_file_reads(db, file).includes)
}

/// What a unit's own file says of the files the unit reads, found from
/// the file's HIR and its place alone: its includes, its own `dependency`
/// blocks and its locals' `read_terragrunt_config` calls. A query of the
/// file, so that the host finds it while the file's tree is in memory
/// ([`Terragrunt::read_while_parsed`](crate::terragrunt::Terragrunt)):
/// the unit's queries (its reads, its dependencies, its calls) are asked
/// after its tree is dropped, and would lower the file again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitFileReads {
    /// Its `include` blocks, in source order.
    pub includes: Vec<Include>,
    /// Its own `dependency` blocks, in source order.
    pub dependencies: Vec<Dependency>,
    /// Its locals whose value is a `read_terragrunt_config` call (see
    /// [`unit_config_reads`]).
    pub config_reads: Vec<ConfigRead>,
    /// Whether the unit may be one a stack generates elsewhere (into its
    /// `.terragrunt-stack` directory), where its relative paths lead
    /// somewhere else: it reads `values` (what a stack passes its units),
    /// or it is kept under a directory named `units` or `catalog`, where
    /// stacks' units are kept by Terragrunt's convention.
    pub may_be_a_stacks_unit: bool,
}

/// What the unit file `file` says of what the unit reads (see
/// [`UnitFileReads`]).
#[salsa::tracked(returns(ref))]
pub fn unit_file_reads(db: &dyn Db, file: File) -> UnitFileReads {
    let hir = db::lower(db, file);
    let syntax = file.syntax(db);
    let unit_dir = vfs::module_dir(file.path(db));
    let mut includes = Vec::new();
    for block in blocks_of(hir, syntax, "include") {
        let path = block.attribute("path");
        let beside = path.and_then(|path| beside_found(hir, path));
        let read = match &beside {
            Some((call, rest)) => find_in_parent_folders(hir, call, unit_dir)
                .map(|search| IncludeRead::BesideFound { search, rest: rest.clone() }),
            None => path.and_then(|path| include_path(hir, path, unit_dir)).map(IncludeRead::File),
        };
        let expose = block
            .attribute("expose")
            .is_some_and(|it| matches!(hir[it], Expr::Literal(hir::Literal::Bool(true))));
        let merged = block
            .attribute("merge_strategy")
            .is_none_or(|it| literal_string(hir, it).as_deref() != Some("no_merge"));
        let searching =
            path.and_then(|path| parent_search(hir, path)).or(beside.as_ref().map(|(call, _)| *call));
        let search = searching.and_then(|call| search_of(hir, call));
        includes.push(Include { label: block.label, path, read, expose, merged, search });
    }
    let dependencies = blocks_of(hir, syntax, "dependency")
        .into_iter()
        .map(|block| Dependency {
            dir: config_path(hir, &block).map(|path| path.resolve(unit_dir)),
            config_path: block.attribute("config_path"),
            included_by: None,
            maybe_disabled: maybe_disabled(hir, &block),
            skip_outputs: skips_outputs(hir, &block),
            mock_outputs: mock_outputs(hir, &block),
            mocks_reach_variables: mocks_reach_variables(hir, &block),
            label: block.label,
        })
        .collect();
    let mut config_reads = Vec::new();
    if syntax == db::SourceSyntax::Native {
        for block in blocks_of(hir, syntax, "locals") {
            for (local, value) in &block.attributes {
                let Expr::Call(call) = &hir[*value] else { continue };
                if call.name != "read_terragrunt_config" || call.args.is_empty() || call.args.len() > 2 {
                    continue;
                }
                let Some(read) = include_path(hir, call.args[0], unit_dir) else { continue };
                config_reads.push(ConfigRead {
                    local: local.clone(),
                    read,
                    path: call.args[0],
                    search: parent_search(hir, call.args[0]).and_then(|search| search_of(hir, search)),
                    has_default: call.args.len() == 2,
                });
            }
        }
    }
    let may_be_a_stacks_unit =
        hir.exprs.iter().any(|(_, expr)| matches!(expr, Expr::Variable(name) if name == "values"))
            || unit_dir.components().any(|part| matches!(part.as_str(), "units" | "catalog"));
    UnitFileReads { includes, dependencies, config_reads, may_be_a_stacks_unit }
}

/// A block of a Terragrunt configuration as far as its type's blocks
/// matter here: its label and its attributes' values.
#[derive(Debug, Clone)]
pub struct BlockOf {
    pub label: SmolStr,
    pub attributes: Vec<(SmolStr, hir::ExprId)>,
}

impl BlockOf {
    /// The value of its attribute `name`.
    pub fn attribute(&self, name: &str) -> Option<hir::ExprId> {
        self.attributes.iter().find(|(it, _)| it == name).map(|(_, value)| *value)
    }
}

/// The blocks of type `block_type` at the top of a file: its native
/// blocks, or in a JSON file (whose HIR has every property as an
/// attribute) the property of that name, as Terragrunt reads it: an
/// object of labels to bodies, or one body with a string `path` for an
/// unlabelled `include` (Terragrunt's `updateBareIncludeBlockJSON`), or an
/// array of those.
pub fn blocks_of(hir: &FileHir, syntax: db::SourceSyntax, block_type: &str) -> Vec<BlockOf> {
    if syntax == db::SourceSyntax::Native {
        return hir
            .body
            .blocks
            .iter()
            .map(|&block| &hir.blocks[block])
            .filter(|block| block.type_name == block_type)
            .map(|block| BlockOf {
                label: block.labels.first().cloned().unwrap_or_default(),
                attributes: block
                    .body
                    .attributes
                    .iter()
                    .map(|&it| (hir.attributes[it].name.clone(), hir.attributes[it].value))
                    .collect(),
            })
            .collect();
    }
    let mut out = Vec::new();
    for &attribute in &hir.body.attributes {
        let attribute = &hir.attributes[attribute];
        if attribute.name != block_type {
            continue;
        }
        let values = match &hir[attribute.value] {
            Expr::Tuple(items) => items.to_vec(),
            _ => vec![attribute.value],
        };
        for value in values {
            let Some(members) = object_members(hir, value) else { continue };
            let bare = block_type == "include"
                && members
                    .iter()
                    .any(|(name, value)| name == "path" && matches!(hir[*value], Expr::Template { .. }));
            if bare {
                out.push(BlockOf { label: SmolStr::default(), attributes: members });
                continue;
            }
            for (label, body) in members {
                if let Some(attributes) = object_members(hir, body) {
                    out.push(BlockOf { label, attributes });
                }
            }
        }
    }
    out
}

/// The members of an object constructor whose keys are names or literal
/// strings, in order; `None` for any other expression.
fn object_members(hir: &FileHir, expr: hir::ExprId) -> Option<Vec<(SmolStr, hir::ExprId)>> {
    let Expr::Object(items) = &hir[expr] else { return None };
    items
        .iter()
        .map(|item| match &item.key {
            ObjectKey::Name(name) => Some((name.clone(), item.value)),
            ObjectKey::Expr { expr, .. } => {
                literal_string(hir, *expr).map(|key| (SmolStr::from(key), item.value))
            }
        })
        .collect()
}

/// The unit file of `module` whose includes are read: a
/// `terragrunt.hcl`, or its JSON form `terragrunt.hcl.json`.
pub fn unit_file(db: &dyn Db, module: Module) -> Option<File> {
    module_files(db, module).iter().copied().find(|&file| is_unit_file(db, file))
}

/// Whether `file` is a unit file whose includes are read: a
/// `terragrunt.hcl`, or its JSON form `terragrunt.hcl.json`.
pub fn is_unit_file(db: &dyn Db, file: File) -> bool {
    let name = file.path(db).file_name().unwrap_or_default();
    match file.syntax(db) {
        db::SourceSyntax::Native => name == "terragrunt.hcl",
        db::SourceSyntax::Json => name == "terragrunt.hcl.json",
    }
}

/// What the file an include names declares (see [`IncludedConfig`]).
#[salsa::tracked(returns(ref))]
pub fn included_config(db: &dyn Db, file: File) -> IncludedConfig {
    let mut config = IncludedConfig { inputs: Some(Vec::new()), ..IncludedConfig::default() };
    let hir = db::lower(db, file);
    config.nested_includes = blocks_of(hir, file.syntax(db), "include")
        .into_iter()
        .map(|block| match block.attribute("path").and_then(|path| literal_string(hir, path)) {
            Some(path) => SmolStr::from(path),
            // Terragrunt's name for an include without a label.
            None if block.label.is_empty() => SmolStr::new("(bare include)"),
            None => SmolStr::from(format!("include {:?}", block.label)),
        })
        .collect();
    if file.syntax(db) != db::SourceSyntax::Native {
        // Only a JSON configuration's includes are read here: nothing
        // else of it is known.
        return IncludedConfig { inputs: None, source: Source::Unknown, includes: true, ..config };
    }
    for &attribute in &hir.body.attributes {
        let attribute = &hir.attributes[attribute];
        if attribute.name == "inputs" {
            config.inputs = object_keys(hir, attribute.value);
        }
    }
    for dependency in blocks_of(hir, file.syntax(db), "dependency") {
        config.dependencies.push(IncludedDependency {
            label: dependency.label.clone(),
            path: config_path(hir, &dependency),
            skip_outputs: skips_outputs(hir, &dependency),
            maybe_disabled: maybe_disabled(hir, &dependency),
            mock_outputs: mock_outputs(hir, &dependency),
        });
    }
    for &block in &hir.body.blocks {
        let block = &hir.blocks[block];
        let label = || block.labels.first().cloned().unwrap_or_default();
        match block.type_name.as_str() {
            "feature" => config.features.push(label()),
            "include" => config.includes = true,
            "locals" => {
                config.locals.extend(block.body.attributes.iter().map(|&it| hir.attributes[it].name.clone()))
            }
            "terraform" => {
                for &attribute in &block.body.attributes {
                    let attribute = &hir.attributes[attribute];
                    if attribute.name == "source" {
                        config.source = match literal_string(hir, attribute.value) {
                            Some(source) => Source::Literal(source),
                            None => Source::Unknown,
                        };
                    }
                }
                config.extra_arguments |=
                    block.body.blocks.iter().any(|&it| hir.blocks[it].type_name == "extra_arguments");
            }
            _ => {}
        }
    }
    config
}

/// The included file of `include`, when its path is known and the file
/// was read.
pub fn included_file(db: &dyn Db, include: &Include) -> Option<File> {
    read_file(db, &include_read(db, include)?)
}

/// The keys of an object constructor whose keys are names or literal
/// strings; `None` for any other expression.
fn object_keys(hir: &FileHir, expr: hir::ExprId) -> Option<Vec<SmolStr>> {
    let Expr::Object(items) = &hir[expr] else { return None };
    items
        .iter()
        .map(|item| match &item.key {
            ObjectKey::Name(name) => Some(name.clone()),
            ObjectKey::Expr { expr, .. } => literal_string(hir, *expr).map(SmolStr::from),
        })
        .collect()
}

/// The string an expression is when it is a template of literal text only.
fn literal_string(hir: &FileHir, expr: hir::ExprId) -> Option<String> {
    let Expr::Template { parts, .. } = &hir[expr] else { return None };
    let mut out = String::new();
    for part in parts {
        let TemplatePart::Literal(text) = part else { return None };
        out.push_str(text);
    }
    Some(out)
}

/// A path as far as it is known without evaluation: the text of a
/// literal, or of a template of literal text and `get_terragrunt_dir()`
/// (the directory of the unit evaluated, which is the including unit's
/// for an included file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StaticPath {
    /// Relative to the unit's directory (or absolute).
    Relative(String),
    /// A path that starts with the unit's directory.
    FromUnit(String),
}

impl StaticPath {
    /// The path, for a unit in `unit_dir`, `.` and `..` resolved lexically.
    pub fn resolve(&self, unit_dir: &Utf8Path) -> Utf8PathBuf {
        let (text, base) = match self {
            StaticPath::Relative(text) => (text.clone(), unit_dir),
            StaticPath::FromUnit(rest) => (format!("{unit_dir}{rest}"), Utf8Path::new(".")),
        };
        let base = if text.starts_with('/') { Utf8Path::new("/") } else { base };
        join_lexically(base, &text)
    }
}

/// The [`StaticPath`] an expression is, if it is one.
fn static_path(hir: &FileHir, expr: hir::ExprId) -> Option<StaticPath> {
    let Expr::Template { parts, .. } = &hir[expr] else { return None };
    let mut from_unit = false;
    let mut text = String::new();
    for (index, part) in parts.iter().enumerate() {
        match part {
            TemplatePart::Literal(literal) => text.push_str(literal),
            TemplatePart::Interpolation { expr, .. } => match &hir[*expr] {
                Expr::Call(call)
                    if call.name == "get_terragrunt_dir" && call.args.is_empty() && index == 0 =>
                {
                    from_unit = true;
                }
                _ => return None,
            },
            _ => return None,
        }
    }
    Some(if from_unit { StaticPath::FromUnit(text) } else { StaticPath::Relative(text) })
}

/// Whether a `dependency` block has `skip_outputs` (its outputs are then
/// its mocks, or none) other than a literal `false`, or merges its mocks
/// into its outputs.
fn skips_outputs(hir: &FileHir, block: &BlockOf) -> bool {
    block.attributes.iter().any(|(name, value)| match name.as_str() {
        "skip_outputs" => !matches!(hir[*value], Expr::Literal(hir::Literal::Bool(false))),
        "mock_outputs_merge_strategy_with_state" | "mock_outputs_merge_with_state" => true,
        _ => false,
    })
}

/// Whether a `dependency` block has an `enabled` that is not a literal
/// `true`: a disabled dependency's outputs are its mocks, and its unit is
/// not read.
fn maybe_disabled(hir: &FileHir, block: &BlockOf) -> bool {
    block.attribute("enabled").is_some_and(|it| !matches!(hir[it], Expr::Literal(hir::Literal::Bool(true))))
}

/// The keys of a `dependency` block's `mock_outputs`, where it is an
/// object constructor.
fn mock_outputs(hir: &FileHir, block: &BlockOf) -> Vec<SmolStr> {
    block.attribute("mock_outputs").and_then(|it| object_keys(hir, it)).unwrap_or_default()
}

/// Whether a `dependency` block's mocks may be passed to a Terraform
/// command that reads variables: Terragrunt passes them to every command
/// unless `mock_outputs_allowed_terraform_commands` lists some, and
/// `validate`, `init` and the like read no variable values.
fn mocks_reach_variables(hir: &FileHir, block: &BlockOf) -> bool {
    let Some(allowed) = block.attribute("mock_outputs_allowed_terraform_commands") else { return true };
    let Expr::Tuple(items) = &hir[allowed] else { return false };
    items.iter().any(|&item| {
        literal_string(hir, item).is_some_and(|command| {
            matches!(command.as_str(), "plan" | "apply" | "destroy" | "refresh" | "import" | "console")
        })
    })
}

/// The `config_path` of a `dependency` block, where it is a static path.
fn config_path(hir: &FileHir, block: &BlockOf) -> Option<StaticPath> {
    static_path(hir, block.attribute("config_path")?)
}

/// The file an include's `path` names, where it is known without
/// evaluation: a [`StaticPath`], or `find_in_parent_folders` with a
/// literal name or none (each directory above the unit's, nearest first).
fn include_path(hir: &FileHir, expr: hir::ExprId, unit_dir: &Utf8Path) -> Option<FileRead> {
    if let Some(call) = parent_search(hir, expr) {
        return find_in_parent_folders(hir, call, unit_dir);
    }
    let path = static_path(hir, expr)?.resolve(unit_dir);
    Some(FileRead { candidates: Arc::new([path]) })
}

/// The search `call` makes, where it is `find_in_parent_folders(…)` with
/// a literal name.
fn search_of(hir: &FileHir, call: &hir::CallExpr) -> Option<ParentSearch> {
    let name = searched_name(hir, call)?;
    // Terragrunt names its configuration when none is given.
    let name = if name.is_empty() { "terragrunt.hcl".to_owned() } else { name };
    Some(ParentSearch { name, fallback: call.args.len() == 2 })
}

/// The call of a path that is a call (or a template of a single
/// interpolation of one, other than `get_terragrunt_dir()`, which begins
/// a [`StaticPath`]).
fn parent_search(hir: &FileHir, expr: hir::ExprId) -> Option<&hir::CallExpr> {
    match &hir[expr] {
        Expr::Call(call) => Some(call),
        Expr::Template { parts, .. } => match parts.as_slice() {
            [TemplatePart::Interpolation { expr, .. }] => match &hir[*expr] {
                Expr::Call(call) if call.name != "get_terragrunt_dir" => Some(call),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The candidates of `find_in_parent_folders(name?)`: `name` (Terragrunt's
/// default configuration's name when none is given) in each directory
/// above the unit's, nearest first, as Terragrunt searches them.
fn find_in_parent_folders(hir: &FileHir, call: &hir::CallExpr, unit_dir: &Utf8Path) -> Option<FileRead> {
    let name = searched_name(hir, call)?;
    if unit_dir.as_str() == "/" {
        return Some(FileRead { candidates: Arc::new([]) });
    }
    // The list depends on the unit's parent directory and the name alone,
    // so the units of one directory share it: the last one built on this
    // thread is kept (building it was a thirtieth of a check of a live
    // repository, where a relative path has some twenty candidates).
    /// The parent directory a list was built from, the name, the list.
    type Built = (String, String, Arc<[Utf8PathBuf]>);
    thread_local! {
        static LAST: RefCell<Option<Built>> = const { RefCell::new(None) };
    }
    let first = parent_dir(unit_dir.as_str());
    let kept = LAST.with_borrow(|last| match last {
        Some((dir, kept_name, candidates)) if *dir == first && *kept_name == name => Some(candidates.clone()),
        _ => None,
    });
    if let Some(candidates) = kept {
        return Some(FileRead { candidates });
    }
    // Built by string operations on the lexical path (join_lexically per
    // step was a twentieth of a check of a live repository).
    // With no name, each directory's configuration, as Terragrunt's
    // `GetDefaultConfigPath` finds it: the JSON one first.
    let names: &[&str] =
        if name.is_empty() { &["terragrunt.hcl.json", "terragrunt.hcl"] } else { &[name.as_str()] };
    let plain = !name.split('/').any(|part| matches!(part, "" | "." | ".."));
    let mut candidates = Vec::new();
    let mut dir = first.clone();
    let mut above = 0;
    loop {
        if dir == "." || dir.ends_with("..") {
            above += 1;
        }
        for &name in names {
            let candidate = match (dir.as_str(), plain) {
                (".", true) => Utf8PathBuf::from(name),
                (_, true) => {
                    let separator = if dir.ends_with('/') { "" } else { "/" };
                    Utf8PathBuf::from([dir.as_str(), separator, name].concat())
                }
                (_, false) => join_lexically(Utf8Path::new(&dir), name),
            };
            candidates.push(candidate);
        }
        if dir == "/" || above > PARENT_FOLDERS_ABOVE_CURRENT {
            break;
        }
        dir = parent_dir(&dir);
    }
    let candidates: Arc<[Utf8PathBuf]> = candidates.into();
    LAST.set(Some((first, name, candidates.clone())));
    Some(FileRead { candidates })
}

/// `"${dirname(find_in_parent_folders(…))}/REST"` (REST literal text): the
/// search's call and REST without its leading `/`.
fn beside_found(hir: &FileHir, expr: hir::ExprId) -> Option<(&hir::CallExpr, String)> {
    let Expr::Template { parts, .. } = &hir[expr] else { return None };
    let [TemplatePart::Interpolation { expr: dirname, .. }, rest @ ..] = parts.as_slice() else {
        return None;
    };
    let Expr::Call(dirname) = &hir[*dirname] else { return None };
    let [search] = dirname.args.as_slice() else { return None };
    let Expr::Call(search) = &hir[*search] else { return None };
    if dirname.name != "dirname" || search.name != "find_in_parent_folders" {
        return None;
    }
    let mut text = String::new();
    for part in rest {
        let TemplatePart::Literal(literal) = part else { return None };
        text.push_str(literal);
    }
    let rest = text.strip_prefix('/')?;
    (!rest.is_empty()).then(|| (&**search, rest.to_owned()))
}

/// The name `find_in_parent_folders(NAME?, FALLBACK?)` looks for, where
/// the call is one and its name a literal: empty when none is given (then
/// it looks for either of Terragrunt's configurations' names).
fn searched_name(hir: &FileHir, call: &hir::CallExpr) -> Option<String> {
    if call.name != "find_in_parent_folders" || call.args.len() > 2 {
        return None;
    }
    match call.args.first() {
        Some(&arg) => literal_string(hir, arg),
        None => Some(String::new()),
    }
}

/// The directory above `dir`, a lexical path (`.` and `..` resolved):
/// `..` above `.` and above a path of `..`s, `/` above `/`.
fn parent_dir(dir: &str) -> String {
    if dir == "." {
        return "..".to_owned();
    }
    if dir == ".." || dir.ends_with("/..") {
        return format!("{dir}/..");
    }
    match dir.rfind('/') {
        Some(0) => "/".to_owned(),
        Some(at) => dir[..at].to_owned(),
        None => ".".to_owned(),
    }
}

/// The includes of `module` whose files are read, with what each declares;
/// `None` when one is not (a path not known without evaluation, a file
/// not found, one with includes of its own).
pub fn read_includes(db: &dyn Db, module: Module) -> Option<Vec<(&Include, &IncludedConfig)>> {
    unit_file(db, module)?;
    unit_includes(db, module)
        .iter()
        .map(|include| {
            let config = included_config(db, included_file(db, include)?);
            (!config.includes).then_some((include, config))
        })
        .collect()
}

/// A `dependency` block of a unit (its own, or one an include merges in
/// that the unit does not override).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependency {
    pub label: SmolStr,
    /// The directory of the other unit, where `config_path` is known
    /// without evaluation.
    pub dir: Option<Utf8PathBuf>,
    /// Its `config_path` in the unit's HIR, for the unit's own blocks
    /// (`None` for an included file's).
    pub config_path: Option<hir::ExprId>,
    /// For an included file's block, the `path` in the unit's HIR of the
    /// include that brings it.
    pub included_by: Option<hir::ExprId>,
    /// Whether it has an `enabled` that is not a literal `true`: a
    /// disabled dependency's outputs are its mocks, and its unit is not
    /// read.
    pub maybe_disabled: bool,
    /// Whether the block has `skip_outputs` (then its outputs are its
    /// mocks, or none), or merges its mocks into the outputs
    /// (`mock_outputs_merge_strategy_with_state`): what it reads is not
    /// the module's outputs alone.
    pub skip_outputs: bool,
    /// The keys of its `mock_outputs`, where it is an object constructor:
    /// outputs Terragrunt reads where the unit has none yet.
    pub mock_outputs: Vec<SmolStr>,
    /// Whether it is the unit's own block and its mocks may be passed to a
    /// command that reads the module's variables (`plan`, `apply`…): no
    /// `mock_outputs_allowed_terraform_commands`, or a literal list with
    /// one of those.
    pub mocks_reach_variables: bool,
}

/// The `dependency` blocks of `module`'s unit file, then those of the
/// files it includes and merges (a block of the same label in the unit
/// wins, as Terragrunt's shallow merge by name does).
#[salsa::tracked(returns(ref))]
pub fn unit_dependencies(db: &dyn Db, module: Module) -> Vec<Dependency> {
    let Some(file) = unit_file(db, module) else { return Vec::new() };
    let unit_dir = vfs::module_dir(file.path(db));
    let mut out: Vec<Dependency> = unit_file_reads(db, file).dependencies.clone();
    for include in unit_includes(db, module).iter().filter(|include| include.merged) {
        let Some(included) = included_file(db, include) else { continue };
        for dependency in &included_config(db, included).dependencies {
            if out.iter().any(|it| it.label == dependency.label) {
                continue;
            }
            out.push(Dependency {
                label: dependency.label.clone(),
                dir: dependency.path.as_ref().map(|path| path.resolve(unit_dir)),
                config_path: None,
                included_by: include.path,
                maybe_disabled: dependency.maybe_disabled,
                skip_outputs: dependency.skip_outputs,
                mock_outputs: dependency.mock_outputs.clone(),
                mocks_reach_variables: false,
            });
        }
    }
    out
}

/// The configuration file of the unit in `dir`.
pub fn unit_config_read(dir: &Utf8Path) -> FileRead {
    FileRead { candidates: Arc::new([join_lexically(dir, "terragrunt.hcl")]) }
}

/// What a `dependency` block's `config_path` (`path`) may name, as
/// Terragrunt's `getCleanedTargetConfigPath` finds it: the file itself,
/// or in the directory, the unit's configuration (JSON or native), or a
/// stack's (whose units' outputs Terragrunt reads as the dependency's).
/// The native configuration is [`unit_config_read`]'s, so that the host
/// loads it for both where the JSON one is not there.
pub fn dependency_target_read(path: &Utf8Path) -> FileRead {
    FileRead {
        candidates: Arc::new([
            path.to_owned(),
            join_lexically(path, "terragrunt.hcl.json"),
            join_lexically(path, "terragrunt.hcl"),
            join_lexically(path, "terragrunt.stack.hcl"),
        ]),
    }
}

/// The directory of the module the unit in `dir` deploys, from its own
/// file: a local literal `terraform { source }` (`//` read as `/`), or
/// `dir` itself where it names no source and includes nothing (an
/// include may name one). `None` where the unit is not read or its source
/// is remote or not known.
pub fn deployed_module(db: &dyn Db, dir: &Utf8Path) -> Option<Utf8PathBuf> {
    let file = read_file(db, &unit_config_read(dir))?;
    let config = included_config(db, file);
    match &config.source {
        Source::None if !config.includes => Some(dir.to_owned()),
        Source::Literal(source) if is_local_path(source) && !source.contains('?') => {
            Some(join_lexically(dir, source))
        }
        _ => None,
    }
}

/// Whether a `terraform { source }` is a local path: `.` or `..`, or
/// starting with `./`, `../` or `/` (anything else is an address a getter
/// fetches).
pub fn is_local_path(source: &str) -> bool {
    matches!(source, "." | "..")
        || source.starts_with("./")
        || source.starts_with("../")
        || source.starts_with('/')
}

/// A local of a unit whose value is `read_terragrunt_config(PATH)` (or
/// with a default), PATH known without evaluation as an include's is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigRead {
    /// The local's name: `local.NAME` is the other file's configuration.
    pub local: SmolStr,
    /// The file it reads.
    pub read: FileRead,
    /// The call's path in the unit's HIR.
    pub path: hir::ExprId,
    /// How Terragrunt finds the file where it is not there, when the path
    /// searches the directories above the unit.
    pub search: Option<ParentSearch>,
    /// Whether the call gives a default, which Terragrunt returns where
    /// the file does not exist.
    pub has_default: bool,
}

/// The `read_terragrunt_config` calls of `module`'s unit file that are
/// the whole value of one of its locals, whose path is known without
/// evaluation (relative to the unit's directory, as Terragrunt reads it).
pub fn unit_config_reads(db: &dyn Db, module: Module) -> &[ConfigRead] {
    unit_file(db, module).map_or(&[], |file| &unit_file_reads(db, file).config_reads)
}
