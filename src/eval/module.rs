//! `halite eval DIR`: a directory's module, every attribute by address (or
//! those of `--attr`), with variables from `--var NAME=VALUE` and
//! `--var-file FILE` and, for a Terraform module, what Terraform reads
//! besides (`TF_VAR_NAME`, `terraform.tfvars`, `*.auto.tfvars`).
//!
//! The host loads the module (its files by the one table of file kinds,
//! their `halite.toml`, the children its calls need), reads its variables
//! as the root of a run (`host::inputs`, which owns their order and how
//! text is read), evaluates it and finds its diagnostics, the same as
//! every other front end's; this prints them. A value not known is printed
//! as such (see `Printed`), not as a failure.

use std::{
    fmt::Write as _,
    io::{self, IsTerminal, Write},
};

use anyhow::{Context as _, Result, anyhow, bail};
use camino::Utf8Path;
use db::{
    RootDatabase,
    module::{self, AttrError},
};
use halite::host::{
    self, Address, AnalysisHost, Diagnostic, HostOptions,
    config::RuleLevelsFinder,
    inputs::{RootVariables, VariableOption, VariableSource},
    load::VariablesError,
};
use syntax::TextRange;

use super::{AttrResult, DiagnosticFormat, Options, Printed, ResultsWriter};
use crate::{Outcome, render};

pub(crate) fn run(dir: &Utf8Path, options: &Options<'_>) -> Result<Outcome> {
    if options.context.is_some() {
        bail!("--context sets root variables of a file; for a module use --var or --var-file");
    }
    let renderer = render::Human::new(io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let mut stderr = String::new();

    let host_options = HostOptions {
        values: host::Values::OnRequest,
        limits: crate::limits(),
        // One report, then the values are read: no resolution is kept for
        // a next edit (see `HostOptions::reports_once`).
        reports_once: true,
        // Nothing reads the query log (salsa builds an event per query
        // while one can be kept).
        query_log: false,
        ..HostOptions::default()
    };
    host::trace::mark("eval starts");
    let mut levels = RuleLevelsFinder::from_current_dir().map_err(|error| anyhow!(error))?;
    let (change, _) = host::load::module(dir, &mut levels, host_options.limits.max_file_size)
        .map_err(|error| anyhow!(error))?;
    host::trace::mark("loaded");
    // The report finds the diagnostics; the values are read below, in
    // order, without a copy of each in a report.
    let registry = levels.registry().map_err(|error| anyhow!(error))?;
    let mut host = AnalysisHost::with_dialects(host_options, registry);
    host.apply_change(change);
    host::trace::mark("applied");
    host::load::children(&mut host).map_err(|error| anyhow!(error))?;
    host::trace::mark("children");
    // The module is the root of this run: its variables are what the
    // command line, and for Terraform its variables files and
    // environment, give, else their defaults.
    let environment = host::inputs::process_environment();
    let read = apply_root_variables(&mut host, dir, options.variable_options, &environment)?;
    stderr.push_str(&undeclared_warnings(dir, &read));
    // A Terragrunt unit's directory means the unit, which is keyed by its
    // file.
    let dir = &host.module_of_dir(dir).map_err(|units| {
        let units: Vec<String> = units.iter().map(|it| format!("`{it}`")).collect();
        anyhow!(
            "`{dir}` holds several units, each evaluated on its own ({}); `halite eval DIR` evaluates a directory of one",
            units.join(", ")
        )
    })?;
    let db = host.db();
    let module = host.module(dir).ok_or_else(|| anyhow!("`{dir}` is not a module"))?;
    let addresses: Vec<Address> = if options.attrs.is_empty() {
        host.attributes(dir)
    } else {
        let mut addresses = Vec::new();
        for address in options.attrs {
            let parsed = Address::parse(address);
            if module::definition(db, module, &parsed).is_none() {
                bail!("`{dir}` declares nothing at `{address}`");
            }
            addresses.push(parsed);
        }
        addresses
    };

    host::trace::mark("addresses");
    let report = host.report();
    host::trace::mark("reported");
    let db = host.db();
    let diagnostics: Vec<&Diagnostic> =
        report.diagnostics.iter().map(|change| &change.diagnostic.diagnostic).collect();
    for change in &report.diagnostics {
        match options.diagnostic_format {
            DiagnosticFormat::Human => {
                stderr.push_str(&renderer.render(db, &change.diagnostic.diagnostic));
                stderr.push_str("\n\n");
            }
            DiagnosticFormat::Json => {
                stderr.push_str(&render::json(&change.diagnostic));
                stderr.push('\n');
            }
        }
    }
    io::stderr().lock().write_all(stderr.as_bytes()).context("cannot write to standard error")?;
    host.evaluate_once(dir, &addresses);
    host::trace::mark("evaluated");
    // Each value is printed as it is read, in chunks: the output of a big
    // module is as large as its values, and held whole beside them it was
    // a tenth of the run's peak memory.
    let mut notes = String::new();
    let mut failed = diagnostics.iter().any(|it| it.is_error());
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut chunk = String::new();
    let mut writer = ResultsWriter::new(&mut chunk, options.with_types);
    // Each value's output is found on every thread, a batch of addresses
    // at a time, then written in order: done on one thread, it was a
    // tenth of the run after the evaluation. A batch's output is written
    // by the calling thread while the others find the next batch's.
    let mut found: Vec<Option<AttrResult>> = Vec::new();
    let mut written: Result<()> = Ok(());
    let mut write = |results: Vec<Option<AttrResult>>| -> Result<()> {
        for result in results.iter().flatten() {
            // A failure the diagnostics do not explain (its cause holds for
            // these inputs only: a variable's default, a block's written
            // value): said in a line after the values, since the value is
            // left out of the output.
            if let Err(failure) = &result.1 {
                failed = true;
                let explained =
                    diagnostics.iter().any(|it| it.file == failure.file && it.range == failure.range);
                let human = options.diagnostic_format == DiagnosticFormat::Human;
                if human && !explained && failure.code != "dependency" {
                    notes.push_str(&format!("note: `{}` has no value: {}", result.0, failure.message));
                    for note in &failure.notes {
                        notes.push_str(": ");
                        notes.push_str(note);
                    }
                    notes.push('\n');
                }
            }
            writer.write(&mut chunk, result);
            if chunk.len() >= OUTPUT_CHUNK {
                out.write_all(chunk.as_bytes()).context("cannot write to standard output")?;
                chunk.clear();
            }
        }
        Ok(())
    };
    for batch in addresses.chunks(PRINT_BATCH) {
        // By position in the batch: a list of every address's reference
        // would be a copy of the list's size for the whole run.
        let positions: Vec<usize> = (0..batch.len()).collect();
        let earlier = std::mem::take(&mut found);
        found = host.map_on_threads_after(
            &positions,
            || {
                if written.is_ok() {
                    written = write(earlier);
                }
            },
            |db, at| result(db, module, &batch[at], options.with_types),
        );
    }
    written?;
    write(found)?;
    writer.finish(&mut chunk);
    out.write_all(chunk.as_bytes()).context("cannot write to standard output")?;
    out.flush().context("cannot write to standard output")?;
    drop(out);
    host::trace::mark("printed");
    io::stderr().lock().write_all(notes.as_bytes()).context("cannot write to standard error")?;
    // The process ends here: freeing the module's every memo one at a time
    // would take a seventh of the run, for memory the exit gives back.
    std::mem::forget(host);
    host::trace::print();
    Ok(if failed { Outcome::FoundErrors } else { Outcome::Clean })
}

/// How much output is gathered before it is written (by `eval DIR` and
/// `watch`).
pub(crate) const OUTPUT_CHUNK: usize = 1 << 16;

/// The room a printed address is given before it is written.
const ADDRESS_ROOM: usize = 48;

/// How many values' output is found at once (see [`run`]): enough to keep
/// every thread busy, few enough that the output held is small beside the
/// values.
const PRINT_BATCH: usize = 4096;

/// Reads the variables of the module of `dir` as its tool does (see
/// `host::inputs`, `environment` the process's `TF_VAR_` variables) and
/// makes it the root of the run. A variables file that cannot be used is
/// rendered on standard error.
pub(crate) fn apply_root_variables(
    host: &mut AnalysisHost,
    dir: &Utf8Path,
    options: &[VariableOption],
    environment: &[(String, String)],
) -> Result<RootVariables> {
    host::inputs::apply_root_variables(host, dir, options, environment.iter().cloned())
        .or_else(variables_error)
}

/// A warning for each value of a variable the module of `dir` does not
/// declare: most likely a misspelt name, it changes nothing, so it is not
/// a failure.
pub(crate) fn undeclared_warnings(dir: &Utf8Path, read: &RootVariables) -> String {
    let mut warnings = String::new();
    for (name, source) in &read.undeclared {
        let from = match source {
            VariableSource::File(path) => format!(" (set in `{path}`)"),
            VariableSource::Argument | VariableSource::Environment => String::new(),
        };
        warnings.push_str(&format!(
            "halite: warning: `{dir}` declares no variable `{name}`{from}; its value is not used\n"
        ));
    }
    warnings
}

/// Why variables could not be read, said: a file's diagnostics rendered on
/// standard error.
fn variables_error<T>(error: VariablesError) -> Result<T> {
    if let VariablesError::Invalid { db, diagnostics, .. } = &error {
        io::stderr()
            .lock()
            .write_all(rendered(db, diagnostics).as_bytes())
            .context("cannot write to standard error")?;
    }
    Err(anyhow!(variables_summary(&error)))
}

/// Why variables could not be read, as a watch says it and goes on: a
/// file's diagnostics rendered, then a line.
pub(crate) fn variables_message(error: &VariablesError) -> String {
    let mut out = match error {
        VariablesError::Invalid { db, diagnostics, .. } => rendered(db, diagnostics),
        _ => String::new(),
    };
    out.push_str(&format!("halite: {}\n", variables_summary(error)));
    out
}

/// The line that says why variables could not be read.
fn variables_summary(error: &VariablesError) -> String {
    match error {
        VariablesError::Read { path, error } => format!("cannot read `{path}`: {error}"),
        VariablesError::Invalid { path, .. } => format!("cannot use the variables of `{path}`"),
        VariablesError::Argument(message) => message.clone(),
    }
}

/// Diagnostics rendered for standard error.
fn rendered(db: &RootDatabase, diagnostics: &[Diagnostic]) -> String {
    let renderer = render::Human::new(io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none());
    let mut out = String::new();
    for diagnostic in diagnostics {
        out.push_str(&renderer.render(db, diagnostic));
        out.push_str("\n\n");
    }
    out
}

/// One attribute's result for the output: its value's JSON encoding and
/// type, or why it has none (its own error's diagnostic when it has one).
/// `None` for an address the module does not declare.
fn result(
    db: &RootDatabase,
    module: module::Module,
    address: &Address,
    with_types: bool,
) -> Option<AttrResult> {
    let index = module::IndexView::of(db, module);
    let file = index.definition(address)?.file;
    let attr = module::Attr::new(db, module, address.clone());
    let outcome = match module::attribute_value(db, attr) {
        // A value not known is printed as such (marked in the JSON), not a
        // failure: `terraform console`'s `(known after apply)`.
        Ok(value) => Printed::encode(value, with_types).map_err(|message| {
            Diagnostic::error("evaluation-error", "Value cannot be printed", file, TextRange::default())
                .with_note(message)
        }),
        // A failure that follows from another attribute's, or a cycle (which
        // the diagnostics report at one of its steps), is said once, at its
        // cause: its code here says so.
        Err(error) => Err(match (module::attribute_diagnostic(db, attr), error) {
            (Some(diagnostic), AttrError::Cycle(_)) => {
                Diagnostic { code: "dependency", ..analysis::module::convert(db, &diagnostic) }
            }
            (Some(diagnostic), _) => analysis::module::convert(db, &diagnostic),
            (None, AttrError::Dependency(_)) => {
                Diagnostic::error("dependency", host::describe(db, attr, error), file, TextRange::default())
            }
            (None, _) => Diagnostic::error(
                "evaluation-error",
                host::describe(db, attr, error),
                file,
                TextRange::default(),
            ),
        }),
    };
    // Printed as the library prints it, as `watch` does, into room for a
    // usual address at once (`to_string` grows its string a few times).
    let mut printed = String::with_capacity(ADDRESS_ROOM);
    let _ = write!(printed, "{}", halite::Address::of_module_index(db, module, index, address));
    Some((printed, outcome.map_err(Box::new)))
}
