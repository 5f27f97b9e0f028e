//! Reading modules from disk into changes: the one way every front end
//! loads a module (its files by the one table of file kinds, their rule
//! levels from `halite.toml`, and the children its calls of local modules
//! need).

use std::{collections::BTreeMap, sync::Arc};

use analysis::{ConfigError, Diagnostic};
use camino::{Utf8Path, Utf8PathBuf};
use db::{RootDatabase, module};
use syntax::TextRange;
use value::Value;

use crate::{AnalysisHost, Change, Contents, Limits, Membership, config::RuleLevelsFinder};

/// Why files could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// A directory or file could not be read.
    Io(vfs::Error),
    /// A `halite.toml` is wrong.
    Config(ConfigError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Io(error) => error.fmt(f),
            LoadError::Config(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<vfs::Error> for LoadError {
    fn from(error: vfs::Error) -> LoadError {
        LoadError::Io(error)
    }
}

impl From<ConfigError> for LoadError {
    fn from(error: ConfigError) -> LoadError {
        LoadError::Config(error)
    }
}

/// The module of `dir` as read from disk now: its module files (see
/// `vfs::load`; each of at most `max_file_size` bytes, as
/// [`crate::Limits`] says), with the rule levels of each, and the files
/// a watcher of the module follows, as read (see [`WATCHED_FILES`]), for
/// it to compare the directory with.
pub fn module(
    dir: &Utf8Path,
    levels: &mut RuleLevelsFinder,
    max_file_size: u64,
) -> Result<(Change, Vec<vfs::LoadedFile>), LoadError> {
    let loaded = vfs::load_set(dir, vfs::Scope::Directory, WATCHED_FILES, max_file_size)?;
    let mut change = Change::new();
    for file in loaded.iter().filter(|file| vfs::is_module_file(&file.path)) {
        change.set_rule_levels(file.path.clone(), levels.levels_for(&file.path)?);
        change.set_file(
            file.path.clone(),
            Contents::Bytes(file.bytes.clone()),
            Membership::Module(dir.to_owned()),
        );
    }
    // A directory without files is still the module being asked about.
    change.set_reported(dir, true);
    Ok((change, loaded))
}

/// A watcher's batch of a directory outside the root of the run (one of
/// [`AnalysisHost::outside_dirs`]) as a change: each file as the host has
/// it (a child module's, a unit's, with a new file of a module's
/// directory joining that module), a file read by path as read
/// ([`Membership::Read`]); any other file there is none of the run's and
/// is left out.
pub fn outside_change(host: &AnalysisHost, batch: vfs::ChangeBatch) -> Change {
    let mut change = Change::new();
    for file in batch.changes {
        match file {
            vfs::Change::Created(path, bytes) | vfs::Change::Modified(path, bytes) => {
                let dir = vfs::module_dir(&path);
                let membership = if host.module(dir).is_some() && vfs::is_module_file(&path) {
                    Membership::Module(dir.to_owned())
                } else if host.file(&path).is_some() || host.is_read(&path) {
                    Membership::Read
                } else {
                    continue;
                };
                change.set_file(path, Contents::Bytes(bytes), membership);
            }
            vfs::Change::Deleted(path) => change.remove_file(path),
        }
    }
    change
}

/// The files of a module's directory whose changes change what it
/// evaluates to when it is the root of a run: its module files, and the
/// variables files Terraform reads by itself (see [`crate::inputs`]), which
/// are not module files but inputs: a change to one is a change of
/// variables (see [`crate::inputs::is_input_file`]).
pub const WATCHED_FILES: vfs::FileSet = vfs::FileSet::ModuleAndVariables;

/// Loads, as modules read only for their callers, the children of the
/// host's modules' calls of local modules that the host does not hold and
/// that exist on disk, after the files they read by path
/// ([`AnalysisHost::load_reads`]). Children are read once; their own calls
/// are not followed, since only their variables are needed.
pub fn children(host: &mut AnalysisHost) -> Result<(), LoadError> {
    // The files the modules read by path first (a unit's includes, the
    // units it depends on), which may name more modules to call.
    host.load_reads();
    let mut missing: Vec<Utf8PathBuf> = Vec::new();
    for dir in host.module_dirs() {
        let Some(module) = host.module(dir) else { continue };
        for call in module::module_calls(host.db(), module) {
            if host.module(&call.dir).is_none() && call.dir.is_dir() && !missing.contains(&call.dir) {
                missing.push(call.dir.clone());
            }
        }
    }
    let max_file_size = host.limits().max_file_size;
    for dir in missing {
        host.apply_change(child(&dir, max_file_size)?);
    }
    Ok(())
}

/// The module of `dir` as read from disk for its callers: its module files
/// (each of at most `max_file_size` bytes), members of a module that
/// reports nothing. What [`children`] loads for each child the host lacks,
/// and a check for a module its paths call from outside them.
pub fn child(dir: &Utf8Path, max_file_size: u64) -> Result<Change, LoadError> {
    let loaded = vfs::load(dir, vfs::Scope::Directory, max_file_size)?;
    let mut change = Change::new();
    change.set_reported(dir.to_owned(), false);
    for file in loaded {
        change.set_file(file.path, Contents::Bytes(file.bytes), Membership::Module(dir.to_owned()));
    }
    Ok(change)
}

/// The rule levels of a file read from disk, for a change that does not
/// come from [`module`] (a watcher's batch).
pub fn rule_levels(change: &mut Change, levels: &mut RuleLevelsFinder) -> Result<(), LoadError> {
    let paths: Vec<Utf8PathBuf> = change
        .files()
        .iter()
        .filter_map(|file| match file {
            crate::FileChange::Set { path, .. } => Some(path.clone()),
            crate::FileChange::Remove { .. } => None,
        })
        .collect();
    for path in paths {
        let found: Arc<analysis::RuleLevels> = levels.levels_for(&path)?;
        change.set_rule_levels(path, found);
    }
    Ok(())
}

/// The rule levels of the files of the module of `dir` that `host` holds,
/// found by `levels` (a front end's finder made anew when a configuration
/// changed), as a change.
pub fn module_rule_levels(
    host: &AnalysisHost,
    dir: &Utf8Path,
    levels: &mut RuleLevelsFinder,
) -> Result<Change, LoadError> {
    let mut change = Change::new();
    for file in host.module_files(dir) {
        let path = file.path(host.db()).clone();
        let found = levels.levels_for(&path)?;
        change.set_rule_levels(path, found);
    }
    Ok(change)
}

/// Why the variables given to a command could not be used.
pub enum VariablesError {
    /// A variables file could not be read.
    Read { path: Utf8PathBuf, error: std::io::Error },
    /// A variables file has errors: their diagnostics, with the database
    /// that holds its text to show them.
    Invalid { path: Utf8PathBuf, db: Box<RootDatabase>, diagnostics: Vec<Diagnostic> },
    /// A `NAME=EXPR` that is not one, or whose expression has no value.
    Argument(String),
}

/// The variables' values from `files` (variables files: `NAME = EXPR`
/// attributes, each evaluated with the standard library and no
/// variables; regular files no larger than `limits` allow, whose
/// diagnostics it caps), in order, then from `arguments` (`NAME=EXPR`): a
/// later setting wins.
pub fn variables(
    files: &[Utf8PathBuf],
    arguments: &[String],
    limits: Limits,
) -> Result<BTreeMap<String, Value>, VariablesError> {
    let mut variables = BTreeMap::new();
    for path in files {
        variables.extend(variables_file(path, limits)?);
    }
    for argument in arguments {
        let (name, text) = variable_argument(argument).map_err(VariablesError::Argument)?;
        let value = module::evaluate_variable_expr(text).map_err(|error| {
            VariablesError::Argument(match error {
                module::VariableExprError::Syntax(error) => format!("--var `{argument}`: {}", error.message),
                module::VariableExprError::Eval(error) => format!("--var `{argument}`: {error}"),
            })
        })?;
        variables.insert(name.to_string(), value);
    }
    Ok(variables)
}

/// `NAME=TEXT`: the name (trimmed, an identifier) and the text after the
/// first `=`.
pub(crate) fn variable_argument(argument: &str) -> Result<(&str, &str), String> {
    let (name, text) =
        argument.split_once('=').ok_or_else(|| format!("--var `{argument}` is not NAME=VALUE"))?;
    let name = name.trim();
    if !is_identifier(name) {
        return Err(format!("--var `{argument}`: `{name}` is not a variable name"));
    }
    Ok((name, text))
}

/// An HCL identifier: a letter or `_`, then letters, digits, `_` and `-`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first.is_alphabetic() || first == '_')
        && chars.all(|it| it.is_alphanumeric() || it == '_' || it == '-')
}

/// The top-level attributes of a variables file, evaluated.
pub(crate) fn variables_file(
    path: &Utf8Path,
    limits: Limits,
) -> Result<Vec<(String, Value)>, VariablesError> {
    let bytes = vfs::read_file(path, limits.max_file_size)
        .map_err(|error| VariablesError::Read { path: path.to_owned(), error: error.into() })?
        .bytes;
    let mut db = RootDatabase::new();
    let file = db.set_file_bytes(path, &bytes);
    let invalid = |db: RootDatabase, diagnostics: Vec<Diagnostic>| VariablesError::Invalid {
        path: path.to_owned(),
        db: Box::new(db),
        diagnostics,
    };
    let syntax_errors = analysis::cap_diagnostics(
        &db,
        analysis::syntax_diagnostics(&db, file),
        limits.max_diagnostics_per_file,
    );
    if !syntax_errors.is_empty() {
        return Err(invalid(db, syntax_errors));
    }
    let hir = db::lower(&db, file);
    let source_map = db::source_map(&db, file);
    let context = module::variable_value_context();
    let mut values = Vec::new();
    let mut errors = Vec::new();
    for &attribute in &hir.body.attributes {
        let attribute = &hir[attribute];
        match eval::eval_expr(&hir.exprs, attribute.value, &context) {
            Ok(value) => values.push((attribute.name.to_string(), value)),
            Err(error) => {
                let range = source_map
                    .expr_syntax(error.expr)
                    .map_or_else(|| TextRange::empty(0.into()), |it| it.text_range());
                let diagnostic = Diagnostic::error("evaluation-error", error.summary(), file, range);
                errors.push(if error.detail.is_empty() {
                    diagnostic
                } else {
                    diagnostic.with_note(error.detail)
                });
            }
        }
    }
    if let Some(&block) = hir.body.blocks.first() {
        let range =
            source_map.block_syntax(block).map_or_else(|| TextRange::empty(0.into()), |it| it.text_range());
        errors.push(
            Diagnostic::error("unexpected-block", "Unexpected block", file, range)
                .with_note("A variables file holds attributes only: NAME = VALUE."),
        );
    }
    if errors.is_empty() {
        Ok(values)
    } else {
        let errors = analysis::cap_diagnostics(&db, &errors, limits.max_diagnostics_per_file);
        Err(invalid(db, errors))
    }
}
