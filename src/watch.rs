//! `halite watch DIR`: evaluates a directory's module, then reports, on
//! every change to its files, what changed, as JSON lines on standard
//! output:
//!
//! - `{"address": A, "value": V}` for each attribute whose value is new or
//!   changed (A as the library's `Address` prints it, a label that is not
//!   an identifier quoted and a repeated block's position in brackets:
//!   `target["test.unit"].step[0].run`; V in cty's JSON encoding, a value
//!   not known, or a part of one, marked as `eval` marks it:
//!   `{"unknown": true, "type": T}`); `{"address": A, "error": MESSAGE}`
//!   when its evaluation now fails, and `{"address": A, "removed": true}`
//!   when the attribute is gone;
//! - `{"diagnostic": D}` for each diagnostic that appeared, and
//!   `{"diagnostic": D, "resolved": true}` for each that went away (D as
//!   `halite check --format json` prints it, where it was found; a
//!   diagnostic that moved is resolved at its old place and new at its new
//!   one);
//! - with `--stats`, after each report, `{"batch": {"files", "reparsed",
//!   "reevaluated", "elapsed_ms"}}`: the files changed, the parse and
//!   attribute value queries salsa executed (not reused), and the
//!   milliseconds from the arrival of the first batch (after the watcher's
//!   settling time, which adds about a tenth of a second to what a person sees)
//!   to the output being flushed.
//!
//! Everything is the host's: this front end loads the module through it,
//! feeds it the watcher's batches, and prints its reports. A report's work
//! runs on a thread of its own with a handle on the database; a batch that
//! arrives meanwhile is applied at once, which cancels it (salsa unwinds it
//! at its next query), and the next report covers both. Nothing is printed
//! for a state that was never finished, so each line describes a state the
//! files were really in. Ctrl-C ends the command with exit code 0.
//!
//! The directories outside DIR whose files its modules hold or read (the
//! children of local module calls, a Terragrunt unit's include and the
//! units it depends on) are watched too, kept in step with what the
//! modules read after every batch (a module an edit starts calling is read
//! then): an edit there is reported as one in DIR is.
//!
//! The watcher follows module files that are symbolic links to their
//! targets and files with several hard links to their inode (see `vfs`'s
//! watcher). When the directory itself goes away, a line on standard error
//! says so, its files are removed as any deleted file is, and the watch
//! waits for it; when it is back, a line says so and its files are read
//! as new.

use std::{io::Write as _, sync::mpsc, time::Instant};

use anyhow::{Context as _, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use halite::host::{
    self, AnalysisHost, HostOptions, Report, ReportDraft, ReportJob, Unfinished, ValueState,
    config::RuleLevelsFinder,
    follow::OutsideWatches,
    inputs::VariableOption,
    watch::{Applied, Seen, WatchedRoot},
};
use vfs::{ChangeBatch, RootChange, Scope, WatchOptions};

use crate::{
    Outcome,
    eval::{Printed, module as module_eval},
    render,
};

/// The flags of `halite watch`.
#[derive(Debug, clap::Args)]
pub(crate) struct WatchArgs {
    /// The module's directory: its *.hcl, *.tf, *.tofu, *.pkr.hcl and *.nomad files
    /// (and their .json twins) are evaluated together.
    #[arg(default_value = ".")]
    dir: Utf8PathBuf,
    /// A module's variable: NAME=VALUE, read as `eval --var` reads it.
    /// Repeatable; later options win.
    #[arg(long = "var", value_name = "NAME=VALUE")]
    vars: Vec<String>,
    /// A file of a module's variables as HCL attributes (NAME = EXPR).
    /// Repeatable; later options win.
    #[arg(long = "var-file", value_name = "FILE")]
    var_files: Vec<Utf8PathBuf>,
    /// After each report, print how much work it took.
    #[arg(long)]
    stats: bool,
}

/// What the main loop waits for.
enum Message {
    /// A watcher's batch: the root's, or (`outside`) one of a directory
    /// outside it that the modules read.
    Batch {
        batch: ChangeBatch,
        outside: bool,
    },
    Reported {
        generation: u64,
        outcome: Result<ReportDraft, Unfinished>,
    },
    /// A `halite.toml` that applies, or could, was written, added or
    /// removed.
    Configuration,
    Interrupt,
}

/// Watches `args.dir`; `variable_options` are its `--var` and `--var-file`
/// options in the order given.
pub(crate) fn run(args: WatchArgs, variable_options: &[VariableOption]) -> Result<Outcome> {
    let dir = args.dir.as_path();
    match std::fs::metadata(dir) {
        Ok(metadata) if metadata.is_dir() => {}
        Ok(_) => bail!("cannot watch `{dir}`: not a directory"),
        Err(error) => bail!("cannot watch `{dir}`: {error}"),
    }
    let started = Instant::now();
    let environment = host::inputs::process_environment();

    let (messages, received) = mpsc::channel();
    {
        let messages = messages.clone();
        ctrlc::set_handler(move || {
            let _ = messages.send(Message::Interrupt);
        })
        .context("cannot handle Ctrl-C")?;
    }

    // Statistics are counted without the query log (`record_stats`).
    let options = HostOptions { limits: crate::limits(), query_log: false, ..HostOptions::default() };
    let mut levels = RuleLevelsFinder::from_current_dir().map_err(|error| anyhow!(error))?;
    let (change, loaded) =
        host::load::module(dir, &mut levels, options.limits.max_file_size).map_err(|error| anyhow!(error))?;
    let watch_options = WatchOptions {
        max_file_size: options.limits.max_file_size,
        files: host::load::WATCHED_FILES,
        ..WatchOptions::default()
    };
    // The watch starts before the first report, so that a change made
    // while it runs is seen.
    let watcher = {
        let messages = messages.clone();
        vfs::Watcher::start(dir, Scope::Directory, &loaded, watch_options, move |batch| {
            let _ = messages.send(Message::Batch { batch, outside: false });
        })
        .map_err(|err| anyhow!(err))?
    };
    // The watcher keeps a hash of each file and the change a copy of its
    // bytes: this third copy of the module's text would last the whole run.
    let loaded_files = loaded.len();
    drop(loaded);
    // A language the module's `halite.toml` declares is checked as
    // `check` checks it (its schema as read now).
    let registry = levels.registry().map_err(|error| anyhow!(error))?;
    let mut host = AnalysisHost::with_dialects(options, registry);
    host.record_stats(args.stats);
    host.apply_change(change);
    host::load::children(&mut host).map_err(|error| anyhow!(error))?;
    // The module is the root of the run, its variables read as `eval DIR`
    // reads them.
    let read = module_eval::apply_root_variables(&mut host, dir, variable_options, &environment)?;
    eprint!("{}", module_eval::undeclared_warnings(dir, &read));
    let mut undeclared = read.undeclared;
    let mut root = WatchedRoot::new(dir, levels, variable_options.to_vec(), environment);
    let mut outside_watches = {
        let messages = messages.clone();
        OutsideWatches::new(watch_options, move |batch| {
            let _ = messages.send(Message::Batch { batch, outside: true });
        })
    };
    follow(&mut outside_watches, &host, dir);
    let _configuration_watches = {
        let messages = messages.clone();
        let on_change = move || {
            let _ = messages.send(Message::Configuration);
        };
        let (watches, failed) = host::watch::configuration_watches(dir, watch_options, on_change);
        for (dir, error) in failed {
            eprintln!("halite: changes of `halite.toml` in `{dir}` will not be seen: {error}");
        }
        watches
    };

    let mut stats = Stats { files: loaded_files, parsed: 0, evaluated: 0, since: started };
    let mut first_reported = false;
    // The files said to be unreadable, and not read since.
    let mut unreadable: std::collections::BTreeSet<Utf8PathBuf> = std::collections::BTreeSet::new();
    let mut reports = Reports {
        reporter: start_reporter(messages.clone())?,
        generation: 0,
        running: false,
        waiting: false,
    };
    reports.changed(&mut host)?;

    // The loop holds a sender itself, so the channel never closes.
    while let Ok(message) = received.recv() {
        match message {
            Message::Interrupt => break,
            Message::Configuration => {
                let applied = root.apply(&mut host, Seen::Configuration);
                say_unread(&applied);
                reports.changed(&mut host)?;
            }
            Message::Batch { batch, outside } => {
                if let Some(root) = batch.root.filter(|_| !outside) {
                    eprintln!("{}", root_message(dir, root));
                }
                // Said once, until the file is read again.
                for change in &batch.changes {
                    unreadable.remove(change.path());
                }
                for (path, reason) in &batch.unreadable {
                    if unreadable.insert(path.clone()) {
                        eprintln!("halite: cannot read `{path}`: {reason}; its last contents stay in use");
                    }
                }
                if !reports.running && !reports.waiting {
                    stats = Stats { files: 0, parsed: 0, evaluated: 0, since: Instant::now() };
                }
                stats.files += batch.len();
                let seen = if outside { Seen::Outside(batch) } else { Seen::Module(batch) };
                let applied = root.apply(&mut host, seen);
                say_unread(&applied);
                // A warning is said again only when what it says changed.
                if let Some(Ok(read)) = applied.variables
                    && read.undeclared != undeclared
                {
                    eprint!("{}", module_eval::undeclared_warnings(dir, &read));
                    undeclared = read.undeclared;
                }
                follow(&mut outside_watches, &host, dir);
                reports.changed(&mut host)?;
            }
            Message::Reported { generation: finished, outcome } => {
                debug_assert_eq!(finished, reports.generation);
                reports.running = false;
                match outcome {
                    Ok(draft) => {
                        let report = host.commit_report(draft);
                        stats.parsed += report.stats.parsed;
                        stats.evaluated += report.stats.evaluated;
                        // When a later state is on its way, its report says
                        // what changed since this one, which was a state
                        // the files were in: its lines are printed, and the
                        // statistics go with the later report's.
                        print(&host, &report, (args.stats && !reports.waiting).then_some(&stats))?;
                        drop(report);
                        // The marks of what this report took, when
                        // `HALITE_TRACE` asks for them.
                        host::trace::print();
                        // The module is loaded and its first report out:
                        // from now on freed memory waits a little before it
                        // is handed back, so that an edit's allocations
                        // find pages in place (see `FreedMemory`).
                        if !first_reported {
                            first_reported = true;
                            crate::freed_memory(crate::FreedMemory::Deferred);
                        }
                    }
                    Err(unfinished) => host.requeue(unfinished),
                }
                reports.ended(&mut host)?;
            }
        }
    }
    drop(watcher);
    drop(outside_watches);
    Ok(Outcome::Clean)
}

/// The reports of the watch's states: one runs at a time, on the report
/// thread, and a change applied while one runs is reported when it ends.
struct Reports {
    reporter: mpsc::Sender<(ReportJob, u64)>,
    /// The number of the report last started.
    generation: u64,
    running: bool,
    /// A change was applied while the running report runs.
    waiting: bool,
}

impl Reports {
    /// After a change to `host`: its report starts now, or when the one
    /// running ends (cancelled or not).
    fn changed(&mut self, host: &mut AnalysisHost) -> Result<()> {
        if self.running {
            self.waiting = true;
            return Ok(());
        }
        self.start(host)
    }

    /// After a report ended: the report of a change applied meanwhile.
    fn ended(&mut self, host: &mut AnalysisHost) -> Result<()> {
        if !std::mem::take(&mut self.waiting) {
            return Ok(());
        }
        self.start(host)
    }

    fn start(&mut self, host: &mut AnalysisHost) -> Result<()> {
        self.generation += 1;
        self.running = true;
        self.reporter
            .send((host.prepare_report(), self.generation))
            .map_err(|_| anyhow!("the report thread stopped"))
    }
}

/// Says what applying a batch could not read: the host keeps the last
/// state that could be.
fn say_unread(applied: &Applied) {
    if let Some(error) = &applied.configuration {
        eprintln!("halite: {error}");
    }
    if let Some(error) = &applied.children {
        eprintln!("halite: cannot read a called module: {error}");
    }
    if let Some(Err(error)) = &applied.variables {
        eprint!("{}", module_eval::variables_message(error));
    }
}

/// Follows what the modules read outside `dir` now, saying which
/// directories cannot be watched.
fn follow(outside: &mut OutsideWatches, host: &AnalysisHost, dir: &Utf8Path) {
    for (failed, error) in outside.follow(host, dir) {
        eprintln!("halite: changes in `{failed}` will not be seen: {error}");
    }
}

/// What the line on standard error says when the watched directory itself
/// changed.
fn root_message(dir: &camino::Utf8Path, root: RootChange) -> String {
    match root {
        RootChange::Vanished => {
            format!(
                "halite: `{dir}` is gone; its files count as deleted, and the watch waits for it to come back"
            )
        }
        RootChange::Returned => format!("halite: `{dir}` is back; watching it again"),
        RootChange::Replaced => {
            format!("halite: `{dir}` was replaced by a new directory; watching the new one")
        }
    }
}

/// The work since the last output, for `--stats`.
struct Stats {
    files: usize,
    parsed: usize,
    evaluated: usize,
    since: Instant,
}

/// Starts the thread that runs reports' jobs, one at a time, and sends how
/// each ended. One thread for the whole watch: starting one per report cost
/// a tenth of a small edit's time. Its stack is deep, since salsa walks a
/// whole reference cycle to find it.
fn start_reporter(messages: mpsc::Sender<Message>) -> Result<mpsc::Sender<(ReportJob, u64)>> {
    let (jobs, received) = mpsc::channel::<(ReportJob, u64)>();
    std::thread::Builder::new()
        .name("report".to_string())
        .stack_size(host::DEEP_STACK)
        .spawn(move || {
            for (job, generation) in received {
                let outcome = job.run();
                if messages.send(Message::Reported { generation, outcome }).is_err() {
                    break;
                }
            }
        })
        .context("cannot start the report thread")?;
    Ok(jobs)
}

/// Prints a report's lines: changed attributes in the module's order,
/// resolved diagnostics, then new ones, then the statistics. Addresses are
/// printed as the library prints them (`target["test.unit"].step[0].run`).
///
/// Written a chunk at a time: a first report's lines are as large as the
/// module's values, and gathered whole they were a tenth of the run's peak
/// memory.
fn print(host: &AnalysisHost, report: &Report, stats: Option<&Stats>) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    let mut out = String::new();
    let mut write_full = |out: &mut String| -> Result<()> {
        if out.len() >= module_eval::OUTPUT_CHUNK {
            stdout.write_all(out.as_bytes()).context("cannot write to standard output")?;
            out.clear();
        }
        Ok(())
    };
    for change in report.values.iter().filter(|change| !change.is_variable()) {
        out.push_str("{\"address\":");
        let address = halite::Address::of_host(host, &change.module, &change.address);
        value::json::write_string(&mut out, &address.to_string());
        match &change.state {
            // A value not known, or a part of one, is marked as `eval`
            // marks it (`{"unknown": true, "type": T}`), not a failure.
            ValueState::Value(value) => match Printed::new(value) {
                Ok(printed) => {
                    out.push_str(",\"value\":");
                    out.push_str(&printed.into_json());
                }
                Err(message) => {
                    out.push_str(",\"error\":");
                    value::json::write_string(&mut out, &format!("Value cannot be printed: {message}"));
                }
            },
            ValueState::Error(message) => {
                out.push_str(",\"error\":");
                value::json::write_string(&mut out, message);
            }
            ValueState::Removed => out.push_str(",\"removed\":true"),
        }
        out.push_str("}\n");
        write_full(&mut out)?;
    }
    for change in &report.diagnostics {
        out.push_str("{\"diagnostic\":");
        out.push_str(&render::json(&change.diagnostic));
        if change.resolved {
            out.push_str(",\"resolved\":true");
        }
        out.push_str("}\n");
        write_full(&mut out)?;
    }
    stdout.write_all(out.as_bytes()).context("cannot write to standard output")?;
    if let Some(stats) = stats {
        // Taken after the report's lines are written: what a reader of the
        // output waited, but for the flush.
        let elapsed_ms = stats.since.elapsed().as_secs_f64() * 1000.0;
        writeln!(
            stdout,
            "{{\"batch\":{{\"files\":{},\"reparsed\":{},\"reevaluated\":{},\"elapsed_ms\":{elapsed_ms:.3}}}}}",
            stats.files, stats.parsed, stats.evaluated,
        )
        .context("cannot write to standard output")?;
    }
    stdout.flush().context("cannot write to standard output")?;
    Ok(())
}
