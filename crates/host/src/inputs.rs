//! The variables of a module evaluated as the root of a run, read the way
//! its tool reads them: the one owner of that reading, for the command
//! line's `eval DIR` and the library's `Workspace::open` alike.
//!
//! For a Terraform module (its dialect's rules say its variables are a
//! module's inputs, which callers set), what `terraform plan` and `terraform console` read, from
//! lowest precedence to highest, a later value of a name replacing an
//! earlier one:
//!
//! 1. `TF_VAR_NAME` from the environment;
//! 2. `terraform.tfvars`, then `terraform.tfvars.json`, in the module's
//!    directory;
//! 3. `*.auto.tfvars` and `*.auto.tfvars.json` there, in lexical order of
//!    their names;
//! 4. `--var NAME=VALUE` and `--var-file FILE`, in the order given.
//!
//! A value given as text (the environment, `--var`) is read as Terraform
//! reads it for the variable's type: the text itself as a string for a
//! variable of a primitive type or of none, an HCL expression for any
//! other. (Terraform reads the files of steps 2 and 3 from the directory
//! it runs in; here that is the module's own, as `terraform -chdir=DIR`
//! does.) Variables given no value take their defaults, and one without a
//! default is unknown of its type, as `terraform console` evaluates it:
//! the module's role is [`ModuleRole::Root`].
//!
//! For a Packer template (a module of Packer's files), what `packer build`
//! reads (`hcl2template/types.variables.go`), in the same order:
//! `PKR_VAR_NAME`, then `*.auto.pkrvars.hcl` and `*.auto.pkrvars.json` in
//! lexical order, then the command line's; text is the string itself for
//! a variable of type `string`, `number`, `any` or none, an HCL
//! expression for any other.
//!
//! For any other module, only `--var NAME=EXPR` (an HCL expression) and
//! `--var-file FILE`, in the order given; a variable without a value or a
//! default has none.

use std::collections::BTreeMap;

use camino::{Utf8Path, Utf8PathBuf};
use db::module::{self, Address, DeclarationKind, ModuleRole};
use value::Value;

use crate::{
    AnalysisHost, Change,
    load::{VariablesError, variable_argument, variables_file},
};

/// The prefix of the environment variables that set Terraform variables.
pub const ENVIRONMENT_PREFIX: &str = "TF_VAR_";

/// The prefix of the environment variables that set Packer variables.
pub const PACKER_ENVIRONMENT_PREFIX: &str = "PKR_VAR_";

/// Whose way a root module's variables are read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Terraform,
    Packer,
    /// An application's, or a language without such sources.
    Other,
}

/// One of the command line's variable options, kept in the order given
/// (Terraform reads `-var` and `-var-file` in their order on the line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariableOption {
    /// `--var NAME=VALUE`.
    Value(String),
    /// `--var-file FILE`.
    File(Utf8PathBuf),
}

/// Where a variable's value was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariableSource {
    /// `TF_VAR_NAME`.
    Environment,
    /// A variables file: read by itself (`terraform.tfvars`, `*.auto.tfvars`)
    /// or named by `--var-file`.
    File(Utf8PathBuf),
    /// `--var`.
    Argument,
}

/// What [`root_variables`] read.
#[derive(Debug, Clone, Default)]
pub struct RootVariables {
    /// Each variable's value, from its source of highest precedence.
    pub values: BTreeMap<String, Value>,
    /// Where each value came from.
    pub sources: BTreeMap<String, VariableSource>,
    /// The variables files read by themselves (not named on the command
    /// line), in the order read.
    pub automatic_files: Vec<Utf8PathBuf>,
    /// Names given a value that the module does not declare, from a file
    /// or the command line (the environment's are ignored, as Terraform
    /// ignores them: they are often set for many configurations). A value
    /// for no variable changes nothing.
    pub undeclared: Vec<(String, VariableSource)>,
}

/// How Terraform reads a variable's value given as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextMode {
    /// The text is the string.
    Literal,
    /// The text is an HCL expression.
    Expression,
}

/// The variables of the module of `dir`, which `host` holds already (its
/// declarations and types decide how text is read), from `options` and,
/// for a Terraform module, `environment` (the process's, or any other:
/// `(name, value)` pairs) and the variables files of its directory. See
/// the module's documentation for the order.
pub fn root_variables(
    host: &AnalysisHost,
    dir: &Utf8Path,
    options: &[VariableOption],
    environment: impl IntoIterator<Item = (String, String)>,
) -> Result<RootVariables, VariablesError> {
    let limits = host.limits();
    let db = host.db();
    let module = host.module(dir);
    // A dialect whose variables are a module's inputs, which any caller
    // sets (Terraform's), or a module of Packer's files: its variables are
    // read as its tool reads them.
    let is_packer_file = |file: &db::File| {
        vfs::FileKind::of(file.path(db)).is_some_and(|kind| kind.language == vfs::Language::Packer)
    };
    let tool = match module {
        Some(module) if module.dialect(db).rules(db).unset_variables_unknown => Tool::Terraform,
        Some(module) if module::module_files(db, module).iter().any(is_packer_file) => Tool::Packer,
        _ => Tool::Other,
    };
    // What a declared variable's text means, by its type constraint.
    let mode = |name: &str| -> TextMode {
        if tool == Tool::Other {
            return TextMode::Expression;
        }
        let Some(module) = module else { return TextMode::Literal };
        let Some(definition) = module::definition(db, module, &Address::new(["var", name])) else {
            return TextMode::Literal;
        };
        match definition.kind {
            DeclarationKind::Variable { type_attr: None, .. } => TextMode::Literal,
            _ => match module::variable_types(db, definition.file).get(name) {
                Some(Ok(constraint)) if tool == Tool::Terraform && constraint.ty.is_primitive() => {
                    TextMode::Literal
                }
                Some(Ok(constraint))
                    if tool == Tool::Packer
                        && matches!(
                            constraint.ty,
                            value::Type::String | value::Type::Number | value::Type::Dynamic
                        ) =>
                {
                    TextMode::Literal
                }
                _ => TextMode::Expression,
            },
        }
    };
    let declared = |name: &str| {
        module.is_some_and(|module| module::definition(db, module, &Address::new(["var", name])).is_some())
    };

    let mut read = RootVariables::default();
    let set = |read: &mut RootVariables, name: String, value: Value, source: VariableSource| {
        if !declared(&name) && source != VariableSource::Environment {
            read.undeclared.push((name.clone(), source.clone()));
        }
        read.values.insert(name.clone(), value);
        read.sources.insert(name, source);
    };
    let (prefix, files) = match tool {
        Tool::Terraform => (ENVIRONMENT_PREFIX, automatic_files(dir)),
        Tool::Packer => (PACKER_ENVIRONMENT_PREFIX, packer_automatic_files(dir)),
        Tool::Other => ("", Vec::new()),
    };
    if tool != Tool::Other {
        let mut environment: Vec<(String, String)> = environment
            .into_iter()
            .filter_map(|(key, text)| Some((key.strip_prefix(prefix)?.to_string(), text)))
            .collect();
        environment.sort();
        for (name, text) in environment {
            // Set for many configurations: a name this one does not declare
            // is no concern of its.
            if !declared(&name) {
                continue;
            }
            let value = text_value(&text, mode(&name))
                .map_err(|message| VariablesError::Argument(format!("{prefix}{name}: {message}")))?;
            set(&mut read, name, value, VariableSource::Environment);
        }
        for path in files {
            for (name, value) in variables_file(&path, limits)? {
                set(&mut read, name, value, VariableSource::File(path.clone()));
            }
            read.automatic_files.push(path);
        }
    }
    for option in options {
        match option {
            VariableOption::Value(argument) => {
                let (name, text) = variable_argument(argument).map_err(VariablesError::Argument)?;
                let value = text_value(text, mode(name))
                    .map_err(|message| VariablesError::Argument(format!("--var `{argument}`: {message}")))?;
                set(&mut read, name.to_string(), value, VariableSource::Argument);
            }
            VariableOption::File(path) => {
                for (name, value) in variables_file(path, limits)? {
                    set(&mut read, name, value, VariableSource::File(path.clone()));
                }
            }
        }
    }
    Ok(read)
}

/// Reads the variables of the module of `dir` as [`root_variables`] does
/// and makes it the root of a run with them: one change of its variables
/// and its role, applied to `host`.
pub fn apply_root_variables(
    host: &mut AnalysisHost,
    dir: &Utf8Path,
    options: &[VariableOption],
    environment: impl IntoIterator<Item = (String, String)>,
) -> Result<RootVariables, VariablesError> {
    let read = root_variables(host, dir, options, environment)?;
    let mut change = Change::new();
    change.set_variables(dir, read.values.clone());
    change.set_role(dir, ModuleRole::Root);
    host.apply_change(change);
    Ok(read)
}

/// Whether `path`, a file a watcher of a module's directory follows (see
/// [`crate::load::WATCHED_FILES`]), is one of the module's inputs rather
/// than one of its files: a variables file Terraform reads by itself.
pub fn is_input_file(path: &Utf8Path) -> bool {
    vfs::is_automatic_variables_file(path) && !vfs::is_module_file(path)
}

/// A watcher's batch for the directory of a root module (see
/// [`crate::load::WATCHED_FILES`]) as the change of its module files: its
/// inputs (see [`is_input_file`]) are no files of the module, and are read
/// again with the rest of its variables ([`apply_root_variables`]) after
/// every batch.
pub fn watched_change(mut batch: vfs::ChangeBatch) -> Change {
    batch.changes.retain(|change| !is_input_file(change.path()));
    Change::from(batch)
}

/// The process's environment variables that set Terraform or Packer
/// variables (`TF_VAR_NAME`, `PKR_VAR_NAME`), those whose name and value
/// are Unicode.
pub fn process_environment() -> Vec<(String, String)> {
    std::env::vars_os()
        .filter_map(|(key, value)| Some((key.into_string().ok()?, value.into_string().ok()?)))
        .filter(|(key, _)| key.starts_with(ENVIRONMENT_PREFIX) || key.starts_with(PACKER_ENVIRONMENT_PREFIX))
        .collect()
}

/// The variables files Packer reads by itself from `dir`, in name order:
/// `*.auto.pkrvars.hcl` and `*.auto.pkrvars.json`.
fn packer_automatic_files(dir: &Utf8Path) -> Vec<Utf8PathBuf> {
    files_named(dir, vfs::is_packer_automatic_variables_file)
}

/// The variables files Terraform reads by itself in `dir`, in its order:
/// `terraform.tfvars`, `terraform.tfvars.json`, then the names ending in
/// `.auto.tfvars` or `.auto.tfvars.json` in lexical (byte) order. Only
/// regular files, or links to them, count.
pub fn automatic_files(dir: &Utf8Path) -> Vec<Utf8PathBuf> {
    const FIRST: [&str; 2] = ["terraform.tfvars", "terraform.tfvars.json"];
    let mut files: Vec<Utf8PathBuf> =
        FIRST.into_iter().map(|name| dir.join(name)).filter(|path| is_file(path)).collect();
    files.extend(files_named(dir, |name| {
        vfs::is_terraform_automatic_variables_file(name) && !FIRST.contains(&name.as_str())
    }));
    files
}

/// The regular files (or links to them) of `dir` whose names `wanted`
/// takes, in lexical (byte) order of their names.
fn files_named(dir: &Utf8Path, wanted: impl Fn(&Utf8Path) -> bool) -> Vec<Utf8PathBuf> {
    let mut files: Vec<Utf8PathBuf> = dir
        .read_dir_utf8()
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| wanted(Utf8Path::new(entry.file_name())))
        .map(|entry| entry.path().to_owned())
        .filter(|path| is_file(path))
        .collect();
    files.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    files
}

fn is_file(path: &Utf8Path) -> bool {
    path.metadata().is_ok_and(|it| it.is_file())
}

/// A variable's value given as text, read in `mode`; why it has none.
fn text_value(text: &str, mode: TextMode) -> Result<Value, String> {
    match mode {
        TextMode::Literal => Ok(Value::string(text)),
        TextMode::Expression => module::evaluate_variable_expr(text).map_err(|error| match error {
            module::VariableExprError::Syntax(error) => error.message,
            module::VariableExprError::Eval(error) => error.to_string(),
        }),
    }
}
