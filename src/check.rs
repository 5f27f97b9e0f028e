//! `halite check`: every diagnostic of every file, as configured by the
//! `halite.toml` files that apply, then a summary. The host finds them
//! (`host::check`), applies fixes first with `--fix` (`host::fix`, written
//! by `fix.rs`) and splits the units with `--shard` (`host::shard`); this
//! renders and prints them, in one of the formats of [`Format`], to
//! standard output or to a file written whole or not at all.

use std::{
    collections::BTreeMap,
    io::{self, IsTerminal, Write},
    time::Instant,
};

use anyhow::{Context, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use halite::host::{self, LocatedDiagnostic, RootDatabase, Severity, cache::ResultCache, shard::Shard};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::{
    ColorChoice, Format, Outcome, discover, fix, gitlab, render, repository::SourceRoot, sarif, xml,
};

/// What `halite check` was asked to do, besides which paths.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options<'a> {
    pub(crate) format: Format,
    /// Warnings fail the check (exit 1) as errors do.
    pub(crate) deny_warnings: bool,
    /// Where the report goes instead of standard output.
    pub(crate) output_file: Option<&'a Utf8Path>,
    /// No summary line, no progress bar: only the report.
    pub(crate) quiet: bool,
    /// Whether the human format is coloured.
    pub(crate) color: ColorChoice,
    /// The name standard input is checked as (`-` among the paths).
    pub(crate) stdin_filename: Option<&'a Utf8Path>,
    /// Print how many diagnostics each code has instead of the diagnostics.
    pub(crate) statistics: bool,
    /// Apply fixes first (or show them), then report what remains.
    pub(crate) fix: Option<fix::Request>,
    /// Check only this shard's units.
    pub(crate) shard: Option<Shard>,
    /// Whether results are kept across runs, and where.
    pub(crate) cache: Cache<'a>,
}

/// The result cache a check uses (`host::cache`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cache<'a> {
    /// None (`--no-cache`).
    Off,
    /// The one in this directory (`--cache-dir`), or by default the one
    /// the host names (`$HALITE_CACHE_DIR`, or the user's cache directory).
    At(Option<&'a Utf8Path>),
}

impl Cache<'_> {
    /// The cache opened, or `None` when it is off or cannot be used (said
    /// on standard error unless `quiet`: the check runs without it).
    fn open(self, quiet: bool) -> Option<ResultCache> {
        let Cache::At(dir) = self else { return None };
        let dir = dir.map(Utf8Path::to_owned).or_else(ResultCache::default_dir)?;
        match ResultCache::open(&dir) {
            Ok(cache) => Some(cache),
            Err(error) => {
                if !quiet {
                    eprintln!(
                        "halite: warning: cannot use the cache in `{dir}` ({error}); checking without it"
                    );
                }
                None
            }
        }
    }
}

/// What standard input is called when `--stdin-filename` does not name it:
/// no file's name, so it is checked as a file of no module, by the
/// native syntax.
const STDIN_NAME: &str = "<stdin>";

/// Where the report is written: standard output as it is made, or a
/// temporary file beside the one asked for, renamed over it once the
/// report is whole, so that a reader never sees half a report and a run
/// that stops leaves the old one.
enum Sink {
    /// Buffered unless it is a terminal, where the report shows as it is
    /// made, between the progress bar's redraws: written line by line, it
    /// cost a run reported from the cache a `write` per file.
    Stdout(io::BufWriter<io::StdoutLock<'static>>),
    /// Standard error, when standard output carries the fixed text of
    /// standard input (`--fix -`).
    Stderr(io::Stderr),
    File {
        file: io::BufWriter<tempfile::NamedTempFile>,
        path: Utf8PathBuf,
        /// Removed if the run is interrupted before the file is in place.
        _in_flight: crate::interrupt::InFlight,
    },
}

impl Sink {
    fn open(output_file: Option<&Utf8Path>) -> Result<Sink> {
        let Some(path) = output_file else {
            let stdout = io::stdout();
            // No buffer: each write goes to standard output's own line
            // buffer.
            let capacity = if stdout.is_terminal() { 0 } else { 64 << 10 };
            return Ok(Sink::Stdout(io::BufWriter::with_capacity(capacity, stdout.lock())));
        };
        let dir = path.parent().filter(|dir| !dir.as_str().is_empty()).unwrap_or(Utf8Path::new("."));
        let mut builder = tempfile::Builder::new();
        builder.prefix(".halite-report");
        // Readable by all, as a file the shell creates would be (the umask
        // still applies); a temporary file is otherwise its owner's alone.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        // Made when it is not there, as ruff makes it (`--output-file
        // reports/halite.sarif` in a fresh checkout); its own error when
        // it cannot be: the temporary file's would name that file, which
        // the user never asked for.
        std::fs::create_dir_all(dir).with_context(|| format!("cannot write `{path}`"))?;
        crate::interrupt::remove_temporaries_when_interrupted();
        let (file, in_flight) = crate::interrupt::InFlight::create(|| builder.tempfile_in(dir))
            .with_context(|| format!("cannot write `{path}`"))?;
        Ok(Sink::File { file: io::BufWriter::new(file), path: path.to_owned(), _in_flight: in_flight })
    }

    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Sink::Stdout(stdout) => stdout.write_all(bytes).context("cannot write to standard output"),
            Sink::Stderr(stderr) => stderr.write_all(bytes).context("cannot write to standard error"),
            Sink::File { file, path, .. } => {
                file.write_all(bytes).with_context(|| format!("cannot write `{path}`"))
            }
        }
    }

    fn finish(self) -> Result<()> {
        match self {
            Sink::Stdout(mut stdout) => stdout.flush().context("cannot write to standard output"),
            Sink::Stderr(mut stderr) => stderr.flush().context("cannot write to standard error"),
            Sink::File { file, path, _in_flight } => {
                let file = file
                    .into_inner()
                    .map_err(|error| error.into_error())
                    .with_context(|| format!("cannot write `{path}`"))?;
                file.persist(&path)
                    .map_err(|error| error.error)
                    .with_context(|| format!("cannot write `{path}`"))?;
                Ok(())
            }
        }
    }
}

pub(crate) fn run(paths: &[Utf8PathBuf], options: Options) -> Result<Outcome> {
    let started = Instant::now();
    host::trace::mark("check");
    let mut stdin = stdin_input(paths, options.stdin_filename)?;
    if stdin.is_some() && options.shard.is_some() {
        bail!("`--shard` works on files, not on standard input");
    }
    // Standard input fixed, as ruff's `--fix -` fixes it: the fixed text on
    // standard output, and what remains of it reported on standard error.
    let mut report_on_stderr = false;
    if let (Some((name, bytes)), Some(request)) = (stdin.as_mut(), options.fix) {
        if options.output_file.is_some() {
            bail!("`--fix -` writes the fixed text to standard output, and its report to standard error");
        }
        match fix::stdin(name, bytes, request, options.quiet)? {
            fix::StdinFixed::Diff(outcome) => return Ok(outcome),
            fix::StdinFixed::Written => report_on_stderr = true,
        }
    }
    let current = [Utf8PathBuf::from(".")];
    let paths = if paths.is_empty() { &current[..] } else { paths };
    // Standard input is never checked with the cache.
    let cache = if stdin.is_some() {
        None
    } else {
        options.cache.open(options.quiet).map(|cache| {
            // Only the human format quotes the source.
            let quotes_source = !options.statistics && matches!(options.format, Format::Human);
            if quotes_source { cache } else { cache.without_source_text() }
        })
    };
    host::trace::mark("cache open");
    let found = match &stdin {
        Some((name, _)) => discover::Found { files: vec![name.clone()], ..discover::Found::default() },
        None => {
            // A path named that cannot be read is said, as a directory a
            // walk cannot list is, and the others are checked (the run then
            // exits 2): a typo in one of a CI job's paths hides nothing else.
            let mut readable = Vec::with_capacity(paths.len());
            let mut unreadable = Vec::new();
            for path in paths {
                match std::fs::metadata(path) {
                    Ok(_) => readable.push(path.clone()),
                    Err(error) => unreadable.push((path, error)),
                }
            }
            let mut found = discover::hcl_files(&readable, discover::Syntaxes::All, cache.as_ref())?;
            found.cannot_read(unreadable);
            found
        }
    };
    // What the walk could not read is said first; everything else is
    // checked, and the run then exits 2, not having done all it was asked.
    host::trace::mark("walked");
    let incomplete = found.report_problems();
    if !options.quiet {
        found.warn_if_empty(paths);
    }
    let root = SourceRoot::find(found.files.first().map(Utf8PathBuf::as_path));
    // The files reported: those no halite.toml excludes, of the shard's
    // units (by their repository-relative paths). The others are read only
    // for what the reported ones read of them.
    // One finder of configurations for what is excluded and then for the
    // rule levels: each directory is looked at once.
    let mut levels = host::config::RuleLevelsFinder::from_current_dir().map_err(|error| anyhow!(error))?;
    // Walks that found no configuration file, under roots where none
    // applies: none applies anywhere, and no directory need be looked at.
    match &found.config_free_roots {
        Some(roots) if stdin.is_none() && roots.iter().all(|root| !levels.applies_in(root)) => {
            levels.assume_none_apply()
        }
        _ => levels.assume_no_config_file_in(found.without_config),
    }
    // Standard input too, by the name `--stdin-filename` gives it, as a
    // file named on the command line is.
    let mut selected = host::config::excluded(&mut levels, &found.files)
        .map_err(|error| anyhow!(error))?
        .map(|excluded| excluded.iter().map(|&excluded| !excluded).collect::<Vec<bool>>());
    let stdin_excluded = stdin.is_some() && selected.as_ref().is_some_and(|selected| selected == &[false]);
    if let Some(shard) = options.shard {
        let in_shard = shard.select(&found.files, |path| root.relative(path));
        selected = Some(match selected {
            Some(kept) => kept.iter().zip(in_shard).map(|(&kept, in_shard)| kept && in_shard).collect(),
            None => in_shard,
        });
    }
    // A module file named on the command line is checked in its module, as
    // one given on standard input is: the directory's other module files
    // are read for it, not reported.
    let (paths, selected) = with_unreported(found.files, selected, discover::module_siblings(paths));
    host::trace::mark("excluded found");
    let mut fixes_incomplete = false;
    if let Some(request) = options.fix.filter(|_| stdin.is_none()) {
        let fixed = fix::run(&paths, selected.as_deref(), request, options.quiet)?;
        if request.diff {
            return Ok(fixed);
        }
        fixes_incomplete = fixed == Outcome::Incomplete;
    }
    let files_checked = match &selected {
        None => paths.len(),
        Some(selected) => selected.iter().filter(|&&it| it).count(),
    };

    let color = match options.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            options.output_file.is_none()
                && io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let renderer = render::Human::new(color);
    let mut sink =
        if report_on_stderr { Sink::Stderr(io::stderr()) } else { Sink::open(options.output_file)? };
    let mut files: Vec<(Utf8PathBuf, Vec<LocatedDiagnostic>)> = Vec::new();
    let (mut errors, mut warnings) = (0usize, 0usize);
    let progress = if options.quiet { ProgressBar::hidden() } else { progress_bar(files_checked) };
    // A hidden bar still asks the clock at each step: a step per unit.
    let shows_progress = !progress.is_hidden();
    // The host checks the files in parallel chunks; each file's report is
    // rendered on the worker that checked it, and printed in path order at
    // the end. A bad configuration stops the run (exit 2) before anything
    // else is printed; a file that cannot be read is said on standard
    // error, and the run goes on and then exits 2.
    // A file with nothing to report is `None`: most files, and a report
    // per path, moved from worker to worker and sorted, was a megabyte
    // of fresh pages each time for a run reported from the cache.
    let report = |db: &RootDatabase, path: &Utf8PathBuf, diagnostics: host::check::FileOutcome<'_>| {
        let report = match diagnostics {
            Ok(diagnostics) => {
                let format = if options.statistics { None } else { Some(options.format) };
                FileReport::new(db, &renderer, &root, format, path, diagnostics)
            }
            Err(error) => FileReport::unreadable(path, error),
        };
        (!report.is_empty()).then(|| Box::new(report))
    };
    let checked = match stdin {
        Some(_) if stdin_excluded => host::check::Checked { reports: Vec::new(), modules: 0 },
        Some((name, bytes)) => host::check::Checked {
            reports: vec![
                host::check::check_contents(&name, bytes, crate::limits(), |db, diagnostics| {
                    report(db, &name, diagnostics)
                })
                .map_err(|error| anyhow!(error))?,
            ],
            modules: usize::from(vfs::is_module_file(&name)),
        },
        None => host::check::check_selected_paths(
            &paths,
            selected.as_deref(),
            levels,
            crate::limits(),
            cache.as_ref(),
            |db, index, diagnostics| report(db, &paths[index], diagnostics),
            |files| {
                if shows_progress {
                    progress.inc(files as u64)
                }
            },
        )
        .map_err(|error| anyhow!(error))?,
    };
    host::trace::mark("checked all");
    let mut unread = found.problems.len();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let modules = checked.modules;
    for report in checked.reports.into_iter().flatten() {
        if let Some(problem) = &report.unreadable {
            progress.suspend(|| eprintln!("halite: {problem}"));
            unread += 1;
        }
        errors += report.errors;
        warnings += report.warnings;
        for code in report.codes {
            *counts.entry(code).or_default() += 1;
        }
        files.extend(report.file);
        progress.suspend(|| sink.write(report.text.as_bytes()))?;
    }
    progress.finish_and_clear();
    let document = match options.format {
        _ if options.statistics => Some(statistics(counts)),
        Format::Human | Format::Concise | Format::Json | Format::Github => None,
        Format::Sarif => Some(sarif::log(&files, &root) + "\n"),
        Format::Gitlab => Some(gitlab::report(&files, &root) + "\n"),
        Format::Checkstyle => Some(xml::checkstyle(&files)),
        Format::Junit => Some(xml::junit(&files)),
    };
    if let Some(document) = document {
        sink.write(document.as_bytes())?;
    }
    sink.finish()?;
    host::trace::mark("written");
    host::trace::print();

    // The time only on a terminal: a log or a test gets the same summary
    // from run to run.
    let elapsed = if io::stderr().is_terminal() {
        format!(" in {:.2}s", started.elapsed().as_secs_f64())
    } else {
        String::new()
    };
    let incomplete = incomplete || unread > 0;
    let unread =
        if incomplete { format!("; {} could not be read", plural(unread, "path")) } else { String::new() };
    if !options.quiet {
        eprintln!(
            "checked {} in {}: {}, {}{unread}{elapsed}",
            plural(files_checked, "file"),
            plural(modules, "module"),
            plural(errors, "error"),
            plural(warnings, "warning")
        );
    }
    let failed = errors > 0 || (options.deny_warnings && warnings > 0);
    Ok(if incomplete || fixes_incomplete {
        Outcome::Incomplete
    } else if failed {
        Outcome::FoundErrors
    } else {
        Outcome::Clean
    })
}

/// `paths` (each reported where `selected` says, every one when it is
/// `None`) with `unreported` added where they are not among them, in path
/// order, to be read for the units they belong to and not reported.
fn with_unreported(
    paths: Vec<Utf8PathBuf>,
    selected: Option<Vec<bool>>,
    unreported: Vec<Utf8PathBuf>,
) -> (Vec<Utf8PathBuf>, Option<Vec<bool>>) {
    let known: std::collections::HashSet<&str> = paths.iter().map(|path| path.as_str()).collect();
    let mut added: Vec<Utf8PathBuf> =
        unreported.into_iter().filter(|path| !known.contains(path.as_str())).collect();
    if added.is_empty() {
        return (paths, selected);
    }
    added.sort_unstable();
    added.dedup();
    let reported = selected.unwrap_or_else(|| vec![true; paths.len()]);
    let mut all: Vec<(Utf8PathBuf, bool)> =
        paths.into_iter().zip(reported).chain(added.into_iter().map(|path| (path, false))).collect();
    all.sort_by(|(a, _), (b, _)| vfs::path_order(a, b));
    let (paths, reported) = all.into_iter().unzip();
    (paths, Some(reported))
}

/// The name standard input is checked as and its bytes, when the paths
/// are `-` (or none, with `--stdin-filename`); `None` when they are paths
/// to search. As `fmt` takes them: `-` alone, and `--stdin-filename` only
/// with it or with no path.
fn stdin_input(
    paths: &[Utf8PathBuf],
    stdin_filename: Option<&Utf8Path>,
) -> Result<Option<(Utf8PathBuf, Vec<u8>)>> {
    let reads_stdin = paths.iter().any(|path| path == "-") || (paths.is_empty() && stdin_filename.is_some());
    if reads_stdin && paths.len() > 1 {
        bail!("`-` (standard input) cannot be checked together with other paths");
    }
    if stdin_filename.is_some() && !reads_stdin {
        bail!("`--stdin-filename` names standard input, which `check -` reads; it takes no other paths");
    }
    if !reads_stdin {
        return Ok(None);
    }
    let bytes = crate::read_file_or_stdin(Utf8Path::new("-"))?;
    let name = stdin_filename.unwrap_or(Utf8Path::new(STDIN_NAME));
    Ok(Some((name.to_owned(), bytes)))
}

/// One line per code, `COUNT  CODE`, the most frequent first and codes of
/// one count in order: where a repository's problems are, at a glance.
fn statistics(counts: BTreeMap<&'static str, usize>) -> String {
    let mut counts: Vec<(&str, usize)> = counts.into_iter().collect();
    counts.sort_unstable_by(|(a_code, a_count), (b_code, b_count)| {
        b_count.cmp(a_count).then(a_code.cmp(b_code))
    });
    let width = counts.first().map_or(0, |(_, count)| count.to_string().len());
    counts.iter().map(|(code, count)| format!("{count:>width$}  {code}\n")).collect()
}

/// Runs with more files than this show a progress bar, when standard error
/// is a terminal. Smaller runs finish before a bar would be worth drawing.
const PROGRESS_THRESHOLD: usize = 100;

/// One file's diagnostics, counted by code (no format: `--statistics`), rendered (the formats of a line or a block per
/// diagnostic) or kept for the report made at the end (the formats of one
/// document), and how many of each severity; or why it could not be read.
struct FileReport {
    text: String,
    /// Each diagnostic's code, for `--statistics`.
    codes: Vec<&'static str>,
    file: Option<(Utf8PathBuf, Vec<LocatedDiagnostic>)>,
    errors: usize,
    warnings: usize,
    unreadable: Option<String>,
}

impl FileReport {
    fn new(
        db: &RootDatabase,
        renderer: &render::Human,
        root: &SourceRoot,
        format: Option<Format>,
        path: &Utf8Path,
        diagnostics: &[LocatedDiagnostic],
    ) -> FileReport {
        let mut report = FileReport {
            text: String::new(),
            codes: Vec::new(),
            file: None,
            errors: 0,
            warnings: 0,
            unreadable: None,
        };
        for located in diagnostics {
            match located.diagnostic.severity {
                Severity::Error => report.errors += 1,
                Severity::Warning => report.warnings += 1,
            }
            let Some(format) = format else {
                report.codes.push(located.diagnostic.code);
                continue;
            };
            match format {
                Format::Human => {
                    report.text.push_str(&renderer.render(db, &located.diagnostic));
                    report.text.push_str("\n\n");
                }
                Format::Json => {
                    render::json_into(located, &mut report.text);
                    report.text.push('\n');
                }
                Format::Concise => {
                    report.text.push_str(&render::concise(located));
                    report.text.push('\n');
                }
                Format::Github => {
                    report.text.push_str(&render::github(located, root));
                    report.text.push('\n');
                }
                Format::Sarif | Format::Gitlab | Format::Checkstyle | Format::Junit => {}
            }
        }
        if format.is_some_and(|format| {
            matches!(format, Format::Sarif | Format::Gitlab | Format::Checkstyle | Format::Junit)
        }) {
            report.file = Some((path.to_owned(), diagnostics.to_vec()));
        }
        report
    }

    /// Whether there is nothing to say of the file: no diagnostic, and
    /// no place in a document of the whole run.
    fn is_empty(&self) -> bool {
        let FileReport { text, codes, file, errors, warnings, unreadable } = self;
        text.is_empty()
            && codes.is_empty()
            && file.is_none()
            && *errors == 0
            && *warnings == 0
            && unreadable.is_none()
    }

    fn unreadable(path: &Utf8PathBuf, error: &io::Error) -> FileReport {
        FileReport {
            text: String::new(),
            codes: Vec::new(),
            file: None,
            errors: 0,
            warnings: 0,
            unreadable: Some(format!("cannot read `{path}`: {error}")),
        }
    }
}

/// A progress bar on standard error for a long run on a terminal; hidden
/// otherwise, so pipes and CI logs get only the report.
fn progress_bar(files: usize) -> ProgressBar {
    if files <= PROGRESS_THRESHOLD || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    // The template is a constant; should it ever be rejected, the default
    // style is as good.
    if let Ok(style) = ProgressStyle::with_template("checking {bar:40} {pos}/{len} files") {
        bar.set_style(style);
    }
    bar
}

pub(crate) fn plural(count: usize, noun: &str) -> String {
    if count == 1 { format!("1 {noun}") } else { format!("{count} {noun}s") }
}
