//! `halite watch DIR`: evaluates a directory's module, then re-evaluates it
//! on every change to its files and prints what changed, as JSON lines on
//! standard output:
//!
//! - `{"address": A, "value": V}` for each attribute whose value is new or
//!   changed (V in cty's JSON encoding); `{"address": A, "error": MESSAGE}`
//!   when its evaluation now fails, and `{"address": A, "removed": true}`
//!   when the attribute is gone;
//! - `{"diagnostic": D}` for each diagnostic not printed by the evaluation
//!   before (D as `halite check --format json` prints it; a diagnostic that
//!   moved is new at its new place);
//! - with `--stats`, after each evaluation, `{"batch": {"files", "reparsed",
//!   "reevaluated", "elapsed_ms"}}`: the files changed, the parse and
//!   attribute value queries salsa executed (not reused) since the last
//!   report, and the milliseconds from the arrival of the first batch
//!   (after the watcher's debounce, which adds about a tenth of a second
//!   to what a person sees) to the output.
//!
//! The first evaluation prints every attribute and diagnostic. Evaluation
//! runs on a thread of its own with a handle on the database; when files
//! change meanwhile, the main thread applies the change, which cancels the
//! evaluation (salsa unwinds it at its next query), and evaluation starts
//! again on the new state. Nothing is printed for the state that was never
//! finished, so each line describes a state the files were really in.
//! Ctrl-C ends the command with exit code 0.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, HashSet, hash_map::Entry},
    io::{IsTerminal as _, Write as _},
    panic::AssertUnwindSafe,
    sync::mpsc,
    time::Instant,
};

use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use db::{
    RootDatabase,
    module::{
        Module, attribute_diagnostic, attribute_value, evaluate_in_order, module_attributes,
        module_diagnostics,
    },
    salsa::{self, Database as _},
};
use eval::Value;
use vfs::{Change, ChangeBatch, Scope, WatchOptions};

use crate::{Outcome, eval::module as module_eval, render};

/// The flags of `halite watch`.
#[derive(Debug, clap::Args)]
pub(crate) struct WatchArgs {
    /// The module's directory: its *.hcl, *.tf, *.tofu, *.pkr.hcl and *.nomad files
    /// (and their .json twins) are evaluated together.
    #[arg(default_value = ".")]
    dir: Utf8PathBuf,
    /// A value for `var.NAME`, as an HCL expression (`--var 'n=3'`,
    /// `--var 'names=["a", "b"]'`, `--var 'name="x"'`).
    #[arg(long = "var", value_name = "NAME=EXPR")]
    vars: Vec<String>,
    /// A file of `NAME = EXPR` attributes giving variables' values; later
    /// files and `--var` flags override earlier ones.
    #[arg(long = "var-file", value_name = "FILE")]
    var_files: Vec<Utf8PathBuf>,
    /// After each evaluation, print how much work it took.
    #[arg(long)]
    stats: bool,
}

/// What the main loop waits for.
enum Message {
    Batch(ChangeBatch),
    Evaluated { generation: u64, counts: Counts, ending: Ending },
    Interrupt,
}

/// Queries executed, for `--stats`.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    reparsed: usize,
    reevaluated: usize,
}

/// What one finished evaluation says: a line per attribute, in the
/// module's order, and the diagnostics as JSON.
struct Evaluation {
    attributes: Vec<(String, String)>,
    diagnostics: Vec<String>,
}

pub(crate) fn run(args: WatchArgs) -> Result<Outcome> {
    let dir = args.dir.as_path();
    if !dir.is_dir() {
        bail!("cannot watch `{dir}`: not a directory");
    }
    let started = Instant::now();
    let mut db = RootDatabase::new();
    // Variables are read once: a change to a variables file is not watched.
    let variables = read_variables(&mut db, &args.vars, &args.var_files)?;

    let (messages, received) = mpsc::channel();
    {
        let messages = messages.clone();
        ctrlc::set_handler(move || {
            let _ = messages.send(Message::Interrupt);
        })
        .context("cannot handle Ctrl-C")?;
    }

    let loaded = vfs::load(dir, Scope::Directory).map_err(|err| anyhow!(err))?;
    // The watch starts before the first evaluation, so that a change made
    // while it runs is seen.
    let watcher = {
        let messages = messages.clone();
        vfs::Watcher::start(dir, Scope::Directory, &loaded, WatchOptions::default(), move |batch| {
            let _ = messages.send(Message::Batch(batch));
        })
        .map_err(|err| anyhow!(err))?
    };

    let mut members = BTreeSet::new();
    for file in &loaded {
        db.set_file_bytes(file.path.clone(), &file.bytes);
        members.insert(file.path.clone());
    }
    let mut module = set_module(&mut db, dir, &members, &variables);

    let mut shown = Shown::default();
    let mut generation = 0;
    let mut report = Report { files: loaded.len(), counts: Counts::default(), since: started };
    let mut evaluating = true;
    spawn_evaluation(&db, module, generation, args.stats, messages.clone());

    // The loop holds a sender itself, so the channel never closes.
    while let Ok(message) = received.recv() {
        match message {
            Message::Interrupt => break,
            Message::Batch(batch) => {
                if !evaluating {
                    report = Report { files: 0, counts: Counts::default(), since: Instant::now() };
                }
                report.files += batch.len();
                // Each write waits until the running evaluation has let go
                // of its handle, which it does at its next query, unwinding
                // with `salsa::Cancelled`.
                apply(&mut db, batch, &mut members);
                module = set_module(&mut db, dir, &members, &variables);
                generation += 1;
                evaluating = true;
                spawn_evaluation(&db, module, generation, args.stats, messages.clone());
            }
            Message::Evaluated { generation: finished, counts, ending } => {
                report.counts.reparsed += counts.reparsed;
                report.counts.reevaluated += counts.reevaluated;
                let evaluation = match ending {
                    Ending::Panicked => bail!("the evaluation failed unexpectedly (a bug in halite)"),
                    // Cancelled, or finished on a state since replaced: its
                    // work is counted, its output never printed.
                    _ if finished != generation => continue,
                    Ending::Finished(evaluation) => evaluation,
                    Ending::Cancelled => {
                        // Only a write cancels, and every write starts a
                        // newer generation, so this is not expected; start
                        // again rather than stall.
                        spawn_evaluation(&db, module, generation, args.stats, messages.clone());
                        continue;
                    }
                };
                evaluating = false;
                let mut out = shown.update(evaluation);
                if args.stats {
                    out.push_str(&report.line());
                }
                let mut stdout = std::io::stdout().lock();
                stdout.write_all(out.as_bytes()).context("cannot write to standard output")?;
                stdout.flush().context("cannot write to standard output")?;
            }
        }
    }
    drop(watcher);
    Ok(Outcome::Clean)
}

/// The work since the last output, for `--stats`.
struct Report {
    files: usize,
    counts: Counts,
    since: Instant,
}

impl Report {
    fn line(&self) -> String {
        let elapsed_ms = self.since.elapsed().as_secs_f64() * 1000.0;
        format!(
            "{{\"batch\":{{\"files\":{},\"reparsed\":{},\"reevaluated\":{},\"elapsed_ms\":{elapsed_ms:.3}}}}}\n",
            self.files, self.counts.reparsed, self.counts.reevaluated,
        )
    }
}

/// Applies a batch of changes to the database's file inputs and to the set
/// of the module's files.
fn apply(db: &mut RootDatabase, batch: ChangeBatch, members: &mut BTreeSet<Utf8PathBuf>) {
    for change in batch.changes {
        match change {
            Change::Created(path, bytes) | Change::Modified(path, bytes) => {
                db.set_file_bytes(path.clone(), &bytes);
                members.insert(path);
            }
            Change::Deleted(path) => {
                db.delete_file(&path);
                members.remove(&path);
            }
        }
    }
}

/// Sets the module's inputs from the current files; setting what is already
/// there changes nothing, so nothing re-runs for it.
fn set_module(
    db: &mut RootDatabase,
    dir: &Utf8Path,
    members: &BTreeSet<Utf8PathBuf>,
    variables: &BTreeMap<String, Value>,
) -> Module {
    let files = members.iter().filter_map(|path| db.files().get(path)).collect();
    let module = db.set_module_files(dir, files);
    db.set_module_variables(module, variables.clone());
    module
}

/// How an evaluation ended.
enum Ending {
    Finished(Evaluation),
    /// A write cancelled it.
    Cancelled,
    /// It panicked (a bug; the panic hook has printed the message).
    Panicked,
}

/// Evaluates the module on a thread of its own, with its own handle on the
/// database, and sends how it ended.
fn spawn_evaluation(
    db: &RootDatabase,
    module: Module,
    generation: u64,
    stats: bool,
    messages: mpsc::Sender<Message>,
) {
    let db = db.clone();
    std::thread::spawn(move || {
        let mut ending = Ending::Panicked;
        let run = || {
            // The handle's queries unwind with `salsa::Cancelled` when the
            // main thread writes; any other panic is a bug, reported to the
            // main thread so that the command ends instead of waiting for a
            // result that never comes.
            ending = match std::panic::catch_unwind(AssertUnwindSafe(|| evaluate(&db, module))) {
                Ok(evaluation) => Ending::Finished(evaluation),
                Err(payload) if payload.is::<salsa::Cancelled>() => Ending::Cancelled,
                Err(_) => Ending::Panicked,
            };
        };
        let counts = if stats { count_executed(&db, run) } else { run_uncounted(run) };
        // The main thread cannot write while this handle lives.
        drop(db);
        let _ = messages.send(Message::Evaluated { generation, counts, ending });
    });
}

fn run_uncounted(run: impl FnOnce()) -> Counts {
    run();
    Counts::default()
}

/// Runs `run` while recording salsa's events, and counts the parse and
/// attribute value queries it executed.
fn count_executed(db: &RootDatabase, run: impl FnOnce()) -> Counts {
    let events = db.log(run);
    let mut counts = Counts::default();
    for event in events {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            match &*db.ingredient_debug_name(database_key.ingredient_index()) {
                "parse" | "parse_json" => counts.reparsed += 1,
                "attribute_value" => counts.reevaluated += 1,
                _ => {}
            }
        }
    }
    counts
}

/// Every attribute's line and every diagnostic of the module.
fn evaluate(db: &RootDatabase, module: Module) -> Evaluation {
    let attrs = module_attributes(db, module);
    // Dependencies first: in the module's order, the end of a long chain of
    // references could come first and recurse through the whole chain (see
    // `evaluate_in_order`); after this, every value below is memoized.
    evaluate_in_order(db, attrs);
    let attributes = attrs
        .iter()
        .map(|&attr| {
            let address = attr.address(db).to_string();
            let mut line = String::from("{\"address\":");
            value::json::write_string(&mut line, &address);
            match attribute_value(db, attr) {
                Ok(value) => match value.to_json_string(&value.ty()) {
                    Ok(json) => {
                        line.push_str(",\"value\":");
                        line.push_str(&json);
                    }
                    Err(err) => {
                        line.push_str(",\"error\":");
                        value::json::write_string(&mut line, &format!("Value cannot be printed: {}", err.0));
                    }
                },
                Err(_) => {
                    // The diagnostic says what failed and where; the line
                    // keeps its summary.
                    let summary = attribute_diagnostic(db, attr).map_or_else(
                        || "The value cannot be evaluated".to_owned(),
                        |diagnostic| diagnostic.summary().into_owned(),
                    );
                    line.push_str(",\"error\":");
                    value::json::write_string(&mut line, &summary);
                }
            }
            line.push('}');
            (address, line)
        })
        .collect();
    let mut diagnostics = Vec::new();
    for &file in module.files(db) {
        for diagnostic in analysis::syntax_diagnostics(db, file) {
            diagnostics.push(render::json(db, diagnostic));
        }
    }
    for diagnostic in module_diagnostics(db, module) {
        diagnostics.push(render::json(db, &module_eval::convert(diagnostic)));
    }
    Evaluation { attributes, diagnostics }
}

/// What has been printed: each attribute's last line and the diagnostics of
/// the last evaluation.
///
/// A module may have tens of thousands of attributes and an edit changes a
/// few, so the table is updated in place rather than rebuilt.
#[derive(Default)]
struct Shown {
    /// By address: the last line printed, and the evaluation that last
    /// had the attribute.
    attributes: HashMap<String, (String, u64)>,
    diagnostics: HashSet<String>,
    evaluations: u64,
}

impl Shown {
    /// The lines that tell what changed since the last evaluation, and
    /// remembers the new one: changed attributes in the module's order,
    /// removed ones by address, then new diagnostics.
    fn update(&mut self, evaluation: Evaluation) -> String {
        self.evaluations += 1;
        let current = self.evaluations;
        let mut out = String::new();
        for (address, line) in evaluation.attributes {
            match self.attributes.entry(address) {
                Entry::Occupied(mut entry) => {
                    let (shown, seen) = entry.get_mut();
                    *seen = current;
                    if *shown != line {
                        out.push_str(&line);
                        out.push('\n');
                        *shown = line;
                    }
                }
                Entry::Vacant(entry) => {
                    out.push_str(&line);
                    out.push('\n');
                    entry.insert((line, current));
                }
            }
        }
        let mut removed: Vec<String> = self
            .attributes
            .iter()
            .filter(|(_, (_, seen))| *seen != current)
            .map(|(address, _)| address.clone())
            .collect();
        removed.sort();
        for address in removed {
            self.attributes.remove(&address);
            out.push_str("{\"address\":");
            value::json::write_string(&mut out, &address);
            out.push_str(",\"removed\":true}\n");
        }
        let diagnostics: HashSet<String> = evaluation.diagnostics.iter().cloned().collect();
        for diagnostic in &evaluation.diagnostics {
            if !self.diagnostics.contains(diagnostic) {
                out.push_str("{\"diagnostic\":");
                out.push_str(diagnostic);
                out.push_str("}\n");
            }
        }
        self.diagnostics = diagnostics;
        out
    }
}

/// The variables' values from `--var-file` files, then `--var` flags, as
/// `halite eval DIR` reads them. A variables file that cannot be used is
/// rendered on standard error.
fn read_variables(
    db: &mut RootDatabase,
    vars: &[String],
    var_files: &[Utf8PathBuf],
) -> Result<BTreeMap<String, Value>> {
    let mut variables = BTreeMap::new();
    for path in var_files {
        match module_eval::read_var_file(db, path)? {
            Ok(values) => variables.extend(values),
            Err(diagnostics) => {
                let renderer = render::Human::new(
                    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
                );
                let mut stderr = String::new();
                for diagnostic in &diagnostics {
                    stderr.push_str(&renderer.render(db, diagnostic));
                    stderr.push_str("\n\n");
                }
                std::io::stderr()
                    .lock()
                    .write_all(stderr.as_bytes())
                    .context("cannot write to standard error")?;
                bail!("cannot use the variables of `{path}`");
            }
        }
    }
    for var in vars {
        let (name, value) = module_eval::parse_var(var)?;
        variables.insert(name, value);
    }
    Ok(variables)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module whose evaluation takes long enough (a few hundred attribute
    /// queries, each building a long list) that a write made right after it
    /// starts always finds it running.
    fn heavy_module(value: u32) -> String {
        let mut text = format!("locals {{\n  base = {value}\n");
        for i in 0..300 {
            text.push_str(&format!("  l{i} = length(range(local.base, local.base + 1000))\n"));
        }
        text.push_str("}\n");
        text
    }

    fn next_ending(received: &mpsc::Receiver<Message>) -> (u64, Ending) {
        match received.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(Message::Evaluated { generation, ending, .. }) => (generation, ending),
            Ok(_) => panic!("an unexpected message"),
            Err(err) => panic!("no evaluation ended: {err}"),
        }
    }

    #[test]
    fn a_write_cancels_the_running_evaluation_and_the_next_sees_the_new_state() {
        let mut db = RootDatabase::new();
        let dir = Utf8Path::new("module");
        let members = BTreeSet::from([Utf8PathBuf::from("module/main.hcl")]);
        db.set_file_text("module/main.hcl", heavy_module(1));
        let module = set_module(&mut db, dir, &members, &BTreeMap::new());
        let (messages, received) = mpsc::channel();
        spawn_evaluation(&db, module, 0, true, messages.clone());

        // The write waits for the evaluation to let go of its handle, which
        // it does by unwinding at its next query.
        db.set_file_text("module/main.hcl", heavy_module(7));
        let module = set_module(&mut db, dir, &members, &BTreeMap::new());
        spawn_evaluation(&db, module, 1, true, messages);

        let (generation, ending) = next_ending(&received);
        assert_eq!(generation, 0);
        assert!(matches!(ending, Ending::Cancelled), "the first evaluation was not cancelled");
        let (generation, ending) = next_ending(&received);
        assert_eq!(generation, 1);
        let Ending::Finished(evaluation) = ending else { panic!("the second evaluation did not finish") };
        assert_eq!(evaluation.attributes.len(), 301);
        assert_eq!(evaluation.attributes[0].1, r#"{"address":"local.base","value":7}"#);
        assert_eq!(evaluation.attributes[1].1, r#"{"address":"local.l0","value":1000}"#);
    }

    #[test]
    fn a_long_chain_of_references_is_evaluated_and_re_evaluated_on_a_thread() {
        // Each local refers to the next, so evaluating in the module's
        // order would start at the far end of a chain of thousands.
        let chain = |end: u32| {
            let mut text = String::from("locals {\n");
            for i in 0..5000 {
                text.push_str(&format!("  l{i} = local.l{} + 1\n", i + 1));
            }
            text.push_str(&format!("  l5000 = {end}\n}}\n"));
            text
        };
        let mut db = RootDatabase::new();
        let dir = Utf8Path::new("module");
        let members = BTreeSet::from([Utf8PathBuf::from("module/main.hcl")]);
        for (generation, end) in [(0, 0), (1, 10)] {
            db.set_file_text("module/main.hcl", chain(end));
            let module = set_module(&mut db, dir, &members, &BTreeMap::new());
            let (messages, received) = mpsc::channel();
            spawn_evaluation(&db, module, generation, false, messages);
            let (finished, ending) = next_ending(&received);
            assert_eq!(finished, generation);
            let Ending::Finished(evaluation) = ending else { panic!("the evaluation did not finish") };
            let expected = format!("{{\"address\":\"local.l0\",\"value\":{}}}", 5000 + end);
            assert_eq!(evaluation.attributes[0].1, expected);
        }
    }

    #[test]
    fn changed_lines_are_printed_once() {
        let mut shown = Shown::default();
        let evaluation = |attributes: &[(&str, &str)], diagnostics: &[&str]| Evaluation {
            attributes: attributes.iter().map(|(a, l)| (a.to_string(), l.to_string())).collect(),
            diagnostics: diagnostics.iter().map(|d| d.to_string()).collect(),
        };
        assert_eq!(
            shown.update(evaluation(&[("a", "A1"), ("b", "B1")], &["D1"])),
            "A1\nB1\n{\"diagnostic\":D1}\n"
        );
        assert_eq!(
            shown.update(evaluation(&[("a", "A2"), ("b", "B1")], &["D1", "D2"])),
            "A2\n{\"diagnostic\":D2}\n"
        );
        assert_eq!(shown.update(evaluation(&[("b", "B1")], &[])), "{\"address\":\"a\",\"removed\":true}\n");
        assert_eq!(shown.update(evaluation(&[("b", "B1")], &["D1"])), "{\"diagnostic\":D1}\n");
    }
}
