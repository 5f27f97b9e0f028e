//! `halite eval DIR`: a directory's module, every attribute by address (or
//! those of `--attr`), with variables from `--var NAME=EXPR` and
//! `--var-file FILE`.
//!
//! The module's files are the directory's own (not its subdirectories')
//! whose names `db::module::is_module_file` accepts. Variable files are
//! read first, in order, then `--var`s, so a later setting wins. A value is
//! an expression evaluated with the standard library and no variables.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};

use analysis::Diagnostic;
use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use db::{
    RootDatabase,
    module::{self, AttrError, ModuleDiagnostic},
};
use eval::Value;
use syntax::TextRange;

use super::{AttrResult, Options, write_plain, write_with_types};
use crate::{Outcome, render};

pub(crate) fn run(dir: &Utf8Path, options: &Options<'_>) -> Result<Outcome> {
    if options.context.is_some() {
        bail!("--context sets root variables of a file; for a module use --var or --var-file");
    }
    let renderer = render::Human::new(io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let mut db = RootDatabase::new();
    let mut files = Vec::new();
    for path in module_files(dir)? {
        let bytes = std::fs::read(&path).with_context(|| format!("cannot read `{path}`"))?;
        files.push(db.set_file_bytes(path, &bytes));
    }
    let module = db.set_module_files(dir, files.clone());

    let mut stderr = String::new();
    let mut variables = BTreeMap::new();
    for var_file in options.var_files {
        match read_var_file(&mut db, var_file)? {
            Ok(values) => variables.extend(values),
            Err(diagnostics) => {
                for diagnostic in &diagnostics {
                    stderr.push_str(&renderer.render(&db, diagnostic));
                    stderr.push_str("\n\n");
                }
                io::stderr().lock().write_all(stderr.as_bytes()).context("cannot write to standard error")?;
                bail!("cannot use the variables of `{var_file}`");
            }
        }
    }
    for var in options.vars {
        let (name, value) = parse_var(var)?;
        variables.insert(name, value);
    }
    // A value for a variable the module does not declare is most likely a
    // misspelt name; it changes nothing, so it is a warning, not a failure.
    let index = module::module_index(&db, module);
    for name in variables.keys() {
        if !index.definitions.contains_key(&module::Address::new(["var", name.as_str()])) {
            stderr.push_str(&format!(
                "halite: warning: `{dir}` declares no variable `{name}`; its value is not used\n"
            ));
        }
    }
    db.set_module_variables(module, variables);

    let attrs: Vec<module::Attr<'_>> = if options.attrs.is_empty() {
        module::module_attributes(&db, module).clone()
    } else {
        let index = module::module_index(&db, module);
        let mut attrs = Vec::new();
        for address in options.attrs {
            let parsed = module::Address::parse(address);
            if !index.definitions.contains_key(&parsed) {
                bail!("`{dir}` declares nothing at `{address}`");
            }
            attrs.push(module::Attr::new(&db, module, parsed));
        }
        attrs
    };

    // Dependencies first, so that a long chain of references cannot
    // overflow the stack (see `db::module::evaluate_in_order`).
    module::evaluate_in_order(&db, &attrs);

    // Syntax errors first, as for a file; then the module's own problems
    // (all of them, or those behind the attributes asked for).
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    for &file in module.files(&db) {
        diagnostics.extend(analysis::syntax_diagnostics(&db, file).iter().cloned());
    }
    if options.attrs.is_empty() {
        diagnostics.extend(
            module::module_diagnostics(&db, module).iter().map(|it| analysis::module::convert(&db, it)),
        );
    } else {
        let mut seen = Vec::new();
        for &attr in &attrs {
            let cause = root_cause(&db, attr);
            if seen.contains(&cause) {
                continue;
            }
            seen.push(cause);
            diagnostics.extend(
                module::attribute_diagnostic(&db, cause).map(|it| analysis::module::convert(&db, &it)),
            );
        }
    }
    let index = module::module_index(&db, module);
    let results: Vec<AttrResult> = attrs
        .iter()
        .filter_map(|&attr| {
            let file = index.definitions.get(attr.address(&db))?.file;
            Some(result(&db, attr, file))
        })
        .collect();

    for diagnostic in &diagnostics {
        stderr.push_str(&renderer.render(&db, diagnostic));
        stderr.push_str("\n\n");
    }
    let mut stdout = String::new();
    if options.with_types {
        write_with_types(&mut stdout, &results);
    } else {
        write_plain(&mut stdout, &results);
    }
    io::stderr().lock().write_all(stderr.as_bytes()).context("cannot write to standard error")?;
    let mut out = io::stdout().lock();
    out.write_all(stdout.as_bytes()).context("cannot write to standard output")?;
    out.flush().context("cannot write to standard output")?;
    let failed = diagnostics.iter().any(Diagnostic::is_error) || results.iter().any(|(_, it)| it.is_err());
    Ok(if failed { Outcome::FoundErrors } else { Outcome::Clean })
}

/// The module files of `dir`, sorted by path.
fn module_files(dir: &Utf8Path) -> Result<Vec<Utf8PathBuf>> {
    let entries = dir.read_dir_utf8().with_context(|| format!("cannot read `{dir}`"))?;
    let mut paths = Vec::new();
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot read `{dir}`"))?;
        let path = entry.path();
        if vfs::is_module_file(path) && path.is_file() {
            paths.push(path.to_owned());
        }
    }
    paths.sort();
    Ok(paths)
}

/// `NAME=EXPR`: the name, and the expression's value.
pub(crate) fn parse_var(var: &str) -> Result<(String, Value)> {
    let (name, text) = var.split_once('=').ok_or_else(|| anyhow!("--var `{var}` is not NAME=EXPR"))?;
    let name = name.trim();
    if !is_identifier(name) {
        bail!("--var `{var}`: `{name}` is not a variable name");
    }
    let value = module::evaluate_variable_expr(text).map_err(|error| match error {
        module::VariableExprError::Syntax(error) => anyhow!("--var `{var}`: {}", error.message),
        module::VariableExprError::Eval(error) => anyhow!("--var `{var}`: {error}"),
    })?;
    Ok((name.to_string(), value))
}

/// An HCL identifier: a letter or `_`, then letters, digits, `_` and `-`.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|first| first.is_alphabetic() || first == '_')
        && chars.all(|it| it.is_alphanumeric() || it == '_' || it == '-')
}

/// A variables file's values by name, or the diagnostics of what is wrong
/// with it.
pub(crate) type VarFileValues = Result<Vec<(String, Value)>, Vec<Diagnostic>>;

/// The top-level attributes of a variables file, evaluated; or its
/// diagnostics.
pub(crate) fn read_var_file(db: &mut RootDatabase, path: &Utf8Path) -> Result<VarFileValues> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read `{path}`"))?;
    let file = db.set_file_bytes(path, &bytes);
    let syntax_errors = analysis::syntax_diagnostics(db, file);
    if !syntax_errors.is_empty() {
        return Ok(Err(syntax_errors.clone()));
    }
    let hir = db::lower(db, file);
    let source_map = db::source_map(db, file);
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
                let diagnostic = Diagnostic::error("eval", error.summary(), file, range);
                errors.push(if error.detail.is_empty() {
                    diagnostic
                } else {
                    diagnostic.with_note(error.detail)
                });
            }
        }
    }
    if !hir.body.blocks.is_empty() {
        let block = hir.body.blocks[0];
        let range =
            source_map.block_syntax(block).map_or_else(|| TextRange::empty(0.into()), |it| it.text_range());
        errors.push(
            Diagnostic::error("unexpected-block", "Unexpected block", file, range)
                .with_note("A variables file holds attributes only: NAME = VALUE."),
        );
    }
    Ok(if errors.is_empty() { Ok(values) } else { Err(errors) })
}

/// The attribute whose own error makes `attr` fail: itself, or the first
/// failing attribute down its chain of failed dependencies.
fn root_cause<'db>(db: &'db RootDatabase, attr: module::Attr<'db>) -> module::Attr<'db> {
    let mut current = attr;
    // A chain of dependencies is at most as long as the module has
    // attributes; the bound only guards against a mistake looping forever.
    for _ in 0..10_000 {
        match module::attribute_value(db, current) {
            Err(AttrError::Dependency(address)) => {
                current = module::Attr::new(db, current.module(db), address.clone())
            }
            _ => break,
        }
    }
    current
}

/// One attribute's result for the output: its address, and its value's JSON
/// encoding and type or a diagnostic saying why it has none. `file` is where the
/// attribute is declared.
fn result(db: &RootDatabase, attr: module::Attr<'_>, file: db::File) -> AttrResult {
    let address = attr.address(db).to_string();
    let failure = |summary: String, detail: String| {
        let diagnostic = Diagnostic::error("eval", summary, file, TextRange::empty(0.into()));
        if detail.is_empty() { diagnostic } else { diagnostic.with_note(detail) }
    };
    let outcome = match module::attribute_value(db, attr) {
        Ok(value) => {
            let ty = value.ty();
            value
                .to_json_string(&ty)
                .map(|json| (json, ty.to_json_string()))
                .map_err(|err| failure("Value cannot be printed".to_string(), err.0))
        }
        Err(error) => {
            if let Some(diagnostic) = module::attribute_diagnostic(db, attr) {
                return (address, Err(analysis::module::convert(db, &diagnostic)));
            }
            let (summary, detail) = match error {
                AttrError::Dependency(address) => {
                    ("Depends on a failed attribute".to_string(), format!("{address} has no value."))
                }
                AttrError::NoValue => (
                    "No value for required variable".to_string(),
                    format!("The input variable {} is not set, and has no default value.", attr.address(db)),
                ),
                AttrError::InvalidType => ("Invalid type specification".to_string(), String::new()),
                AttrError::Eval(error) => (error.summary().to_string(), error.detail.clone()),
                other => ("Evaluation failed".to_string(), format!("{other:?}")),
            };
            Err(failure(summary, detail))
        }
    };
    (address, outcome)
}

/// The command line's diagnostic for a module's, without the fix a
/// misspelt name gets from [`analysis::module::convert`] (for callers with
/// no database at hand).
pub(crate) fn convert(diagnostic: &ModuleDiagnostic) -> Diagnostic {
    analysis::module::convert_without_fix(diagnostic)
}
