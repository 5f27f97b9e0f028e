//! `halite eval`: the value of every attribute of one file, or of a
//! directory's module, as JSON on standard output, with a rustc-style
//! diagnostic on standard error for each problem.
//!
//! For a file, the order and paths are those of the conformance cases
//! (`test-data/eval/README.md`): in each body, attributes in source order,
//! then blocks in source order, recursively; an attribute in a block is
//! `TYPE.LABEL1.LABEL2.attr`. For a directory, the attributes are the
//! module's (`db::module`): `local.NAME`, `TYPE.LABEL….NAME`, by address,
//! with variables from `--var` and `--var-file`.

use std::io::{self, IsTerminal, Write};

use analysis::Diagnostic;
use anyhow::{Context as _, Result, bail};
use camino::Utf8Path;
use db::{File, RootDatabase};
use eval::{Context, EvalError, ExprId, Value};
use syntax::TextRange;

use crate::{Outcome, render};

pub(crate) mod module;

/// What `halite eval` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EvalFormat {
    /// A JSON document on standard output.
    Json,
}

/// How `halite eval DIR` prints its diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DiagnosticFormat {
    /// rustc-style diagnostics with source snippets, for people.
    Human,
    /// One JSON object per diagnostic per line, as `check --format json`.
    Json,
}

pub(crate) struct Options<'a> {
    pub(crate) context: Option<&'a Utf8Path>,
    pub(crate) with_types: bool,
    /// `--var NAME=VALUE` and `--var-file FILE`, in the order given.
    pub(crate) variable_options: &'a [halite::host::inputs::VariableOption],
    /// `--attr ADDRESS`: only these attributes.
    pub(crate) attrs: &'a [String],
    /// How a module's diagnostics are printed.
    pub(crate) diagnostic_format: DiagnosticFormat,
}

/// The stack of the thread that evaluates a module: 1 GiB of address
/// space, enough for reference cycles of some hundred thousand attributes.
const MODULE_STACK: usize = 1 << 30;

pub(crate) fn run(path: &Utf8Path, options: Options<'_>) -> Result<Outcome> {
    if path != "-" && path.is_dir() {
        // A reference cycle is found by salsa when the walk through it comes
        // back to its start, a few stack frames per link, so a cycle of
        // thousands of attributes needs a deep stack (chains do not: see
        // `db::module::evaluate_in_order`). The memory is reserved, not
        // used, until a module needs it.
        return std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("eval".to_string())
                .stack_size(MODULE_STACK)
                .spawn_scoped(scope, || module::run(path, &options))
                .context("cannot start the evaluation thread")?;
            worker.join().unwrap_or_else(|_| Err(anyhow::anyhow!("the evaluation thread failed")))
        });
    }
    if !options.variable_options.is_empty() || !options.attrs.is_empty() {
        bail!("--var, --var-file and --attr apply to a module: give a directory, not `{path}`");
    }
    let mut ctx = Context::with_stdlib();
    if let Some(vars) = options.context {
        ctx.variables = read_variables(vars)?;
    }
    let mut db = RootDatabase::new();
    // The database keeps its own copy of the text; the bytes read go now.
    let file = db.set_file_bytes(
        if path == "-" { "<stdin>" } else { path.as_str() },
        &crate::read_file_or_stdin(path)?,
    );

    let renderer = render::Human::new(io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let mut stderr = String::new();
    let mut stdout = String::new();

    // As many diagnostics as the host's pipeline reports of a file, and one
    // that counts the rest.
    let max_diagnostics = crate::limits().max_diagnostics_per_file;
    let syntax_errors = analysis::syntax_diagnostics(&db, file);
    let outcome = if let Some(first) = syntax_errors.first() {
        // A file that does not parse has no attributes to evaluate: the
        // reference reports the first error as the parse error.
        for diagnostic in &analysis::cap_diagnostics(&db, syntax_errors, max_diagnostics) {
            stderr.push_str(&renderer.render(&db, diagnostic));
            stderr.push_str("\n\n");
        }
        if options.with_types {
            stdout.push_str("{\n  \"results\": [],\n  \"parse_error\": ");
            value::json::write_string(&mut stdout, &one_line(first));
            stdout.push_str("\n}\n");
        }
        Outcome::FoundErrors
    } else {
        let results = evaluate_file(&db, file, &ctx);
        let failures = results.iter().filter_map(|(_, result)| result.as_ref().err().map(|it| &**it));
        let shown = analysis::cap_diagnostics(&db, failures, max_diagnostics);
        for diagnostic in &shown {
            stderr.push_str(&renderer.render(&db, diagnostic));
            stderr.push_str("\n\n");
        }
        let failed = !shown.is_empty();
        write_results(&mut stdout, &results, options.with_types);
        if failed { Outcome::FoundErrors } else { Outcome::Clean }
    };
    io::stderr().lock().write_all(stderr.as_bytes()).context("cannot write to standard error")?;
    let mut out = io::stdout().lock();
    out.write_all(stdout.as_bytes()).context("cannot write to standard output")?;
    out.flush().context("cannot write to standard output")?;
    Ok(outcome)
}

/// The root variables of `--context`: the keys of a JSON object, with the
/// types JSON implies (arrays are tuples, objects objects, `null` a dynamic
/// null).
fn read_variables(path: &Utf8Path) -> Result<std::collections::BTreeMap<String, Value>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read `{path}`"))?;
    let vars = Value::from_json_implied(&text)
        .map_err(|err| anyhow::anyhow!("`{path}` is not valid JSON: {}", err.0))?;
    let Some(entries) = vars.entries().filter(|_| vars.ty().is_object()) else {
        bail!("`{path}` must hold a JSON object, whose keys become variables");
    };
    Ok(entries.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}

/// A diagnostic as one line (a parse error, a failed attribute): the
/// message, then the detail if any, as the reference words them.
fn one_line(diagnostic: &Diagnostic) -> String {
    match diagnostic.notes.first() {
        Some(detail) => format!("{}: {detail}", diagnostic.message),
        None => diagnostic.message.clone(),
    }
}

/// One attribute's result: its value as printed, or the diagnostic of its
/// failure.
type AttrResult = (String, Result<Printed, Box<Diagnostic>>);

/// A value as printed: its JSON and its type's (cty's encodings), and
/// whether any of it is not known.
pub(crate) struct Printed {
    /// cty's JSON encoding of a known value; a value not known, or a part
    /// of one, is `{"unknown": true, "type": TYPE}` with what is known of
    /// it (`"refinements"`) instead.
    json: String,
    ty: String,
    /// Whether the value is not wholly known: the whole of it
    /// (`Unknown::Whole`: `json` is its mark) or a part.
    unknown: Option<Unknown>,
    /// What is known of a value not known at all (see [`refinements`]).
    refinements: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Unknown {
    Whole,
    Part,
}

impl Printed {
    /// `value`, whose unknown parts are marked as such (see [`Printed`]).
    pub(crate) fn new(value: &Value) -> Result<Printed, String> {
        Printed::encode(value, true)
    }

    /// [`Printed::new`], with the type's encoding only if `typed` (else
    /// empty): output without types prints none, and encoding each value's
    /// type was a fifth of the printing.
    pub(crate) fn encode(value: &Value, typed: bool) -> Result<Printed, String> {
        let ty = value.ty();
        let unknown = if !value.is_known() {
            Some(Unknown::Whole)
        } else if !value.is_wholly_known() {
            Some(Unknown::Part)
        } else {
            None
        };
        let json = match unknown {
            None => value.to_json_string(&ty).map_err(|err| err.0)?,
            Some(_) => {
                let mut out = String::new();
                write_marked(&mut out, value)?;
                out
            }
        };
        let refinements = if unknown == Some(Unknown::Whole) { refinements(value) } else { None };
        let ty = if typed { ty.to_json_string() } else { String::new() };
        Ok(Printed { json, ty, unknown, refinements })
    }

    /// The value's JSON, its unknown parts marked.
    pub(crate) fn into_json(self) -> String {
        self.json
    }

    /// A wholly known value's encodings.
    fn known(json: String, ty: String) -> Printed {
        Printed { json, ty, unknown: None, refinements: None }
    }
}

/// `value` as JSON, each part not known as its mark (see [`Printed`]).
fn write_marked(out: &mut String, value: &Value) -> Result<(), String> {
    let ty = value.ty();
    if !value.is_known() {
        out.push_str("{\"unknown\":true,\"type\":");
        out.push_str(&ty.to_json_string());
        if let Some(refinements) = refinements(value) {
            out.push_str(",\"refinements\":");
            out.push_str(&refinements);
        }
        out.push('}');
        return Ok(());
    }
    if value.is_wholly_known() || value.is_null() {
        out.push_str(&value.to_json_string(&ty).map_err(|err| err.0)?);
        return Ok(());
    }
    if let Some(elements) = value.elements() {
        out.push('[');
        for (i, element) in elements.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_marked(out, element)?;
        }
        out.push(']');
    } else if let Some(entries) = value.entries() {
        out.push('{');
        for (i, (key, element)) in entries.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            value::json::write_string(out, key);
            out.push(':');
            write_marked(out, element)?;
        }
        out.push('}');
    }
    Ok(())
}

/// What is known of an unknown value, as a JSON object: that it is not
/// null, a string's prefix, a number's bounds, a collection's length
/// bounds; `None` when nothing is.
fn refinements(value: &Value) -> Option<String> {
    let range = value.range();
    let ty = value.ty();
    let mut fields: Vec<(&str, String)> = Vec::new();
    if range.definitely_not_null() {
        fields.push(("not_null", "true".to_string()));
    }
    if ty == value::Type::String && !range.string_prefix().is_empty() {
        let mut prefix = String::new();
        value::json::write_string(&mut prefix, range.string_prefix());
        fields.push(("string_prefix", prefix));
    }
    if ty == value::Type::Number {
        for (name, bound) in [("number_lower", range.number_lower()), ("number_upper", range.number_upper())]
        {
            // An infinite bound is none: JSON has no infinity, and
            // `ValueRange` gives one where nothing bounds the number.
            if let Some(bound) = bound.filter(|bound| !bound.value.is_infinite()) {
                fields
                    .push((name, format!("{{\"value\":{},\"inclusive\":{}}}", bound.value, bound.inclusive)));
            }
        }
    }
    if ty.is_list() || ty.is_set() || ty.is_map() {
        if range.length_lower() > 0 {
            fields.push(("length_lower", range.length_lower().to_string()));
        }
        if range.length_upper() < value::refine::MAX_LENGTH {
            fields.push(("length_upper", range.length_upper().to_string()));
        }
    }
    if fields.is_empty() {
        return None;
    }
    let mut out = String::from("{");
    for (i, (name, json)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        value::json::write_string(&mut out, name);
        out.push(':');
        out.push_str(json);
    }
    out.push('}');
    Some(out)
}

fn evaluate_file(db: &RootDatabase, file: File, ctx: &Context) -> Vec<AttrResult> {
    let hir = db::lower(db, file);
    let source_map = db::source_map(db, file);
    let range_of = |expr: ExprId| {
        source_map.expr_syntax(expr).map_or_else(|| TextRange::empty(0.into()), |ptr| ptr.text_range())
    };
    eval::conformance::attribute_paths(hir)
        .into_iter()
        .map(|(path, expr)| {
            let result = match eval::eval_expr(&hir.exprs, expr, ctx) {
                Ok(value) => {
                    let ty = value.ty();
                    // An unknown value (possible only through a function)
                    // has no JSON encoding.
                    value.to_json_string(&ty).map(|json| Printed::known(json, ty.to_json_string())).map_err(
                        |err| {
                            Box::new(
                                Diagnostic::error(
                                    "evaluation-error",
                                    "Value cannot be printed",
                                    file,
                                    range_of(expr),
                                )
                                .with_note(err.0),
                            )
                        },
                    )
                }
                Err(error) => {
                    let range =
                        source_map.expr_syntax(error.expr).map_or_else(|| range_of(expr), |p| p.text_range());
                    Err(Box::new(diagnostic(file, range, &error)))
                }
            };
            (path, result)
        })
        .collect()
}

fn diagnostic(file: File, range: TextRange, error: &EvalError) -> Diagnostic {
    let diagnostic = Diagnostic::error("eval", error.summary(), file, range);
    if error.detail.is_empty() { diagnostic } else { diagnostic.with_note(error.detail.clone()) }
}

/// Writes results one at a time, so that a module's output is never held
/// whole beside its values: with types, `{"results": [{"path", "value",
/// "type"} | {"path", "error"}]}`, the format of the conformance cases'
/// `NAME.expected.json`; without, a JSON object of plain values by path,
/// a failed attribute left out.
struct ResultsWriter {
    with_types: bool,
    /// Whether a result has been written (the separators depend on it).
    written: bool,
}

impl ResultsWriter {
    fn new(out: &mut String, with_types: bool) -> ResultsWriter {
        out.push_str(if with_types { "{\n  \"results\": [" } else { "{" });
        ResultsWriter { with_types, written: false }
    }

    fn write(&mut self, out: &mut String, (path, result): &AttrResult) {
        if !self.with_types {
            let Ok(Printed { json, .. }) = result else { return };
            out.push_str(if self.written { ",\n  " } else { "\n  " });
            self.written = true;
            value::json::write_string(out, path);
            out.push_str(": ");
            out.push_str(json);
            return;
        }
        out.push_str(if self.written { ",\n    {\n      \"path\": " } else { "\n    {\n      \"path\": " });
        self.written = true;
        value::json::write_string(out, path);
        match result {
            Ok(Printed { json, ty, unknown: Some(Unknown::Whole), refinements }) => {
                out.push_str(",\n      \"unknown\": true,\n      \"type\": ");
                out.push_str(ty);
                let _ = json;
                if let Some(refinements) = refinements {
                    out.push_str(",\n      \"refinements\": ");
                    out.push_str(refinements);
                }
            }
            Ok(Printed { json, ty, unknown, .. }) => {
                out.push_str(",\n      \"value\": ");
                out.push_str(json);
                out.push_str(",\n      \"type\": ");
                out.push_str(ty);
                if unknown.is_some() {
                    out.push_str(",\n      \"unknown\": true");
                }
            }
            Err(diagnostic) => {
                out.push_str(",\n      \"error\": ");
                value::json::write_string(out, &one_line(diagnostic));
            }
        }
        out.push_str("\n    }");
    }

    fn finish(self, out: &mut String) {
        out.push_str(match (self.with_types, self.written) {
            (true, false) => "]\n}\n",
            (true, true) => "\n  ]\n}\n",
            (false, false) => "}\n",
            (false, true) => "\n}\n",
        });
    }
}

/// Every result in one string: the output of a single file.
fn write_results(out: &mut String, results: &[AttrResult], with_types: bool) {
    let mut writer = ResultsWriter::new(out, with_types);
    for result in results {
        writer.write(out, result);
    }
    writer.finish(out);
}
