//! The `halite` command.
//!
//! This crate owns the command line: argument parsing, finding files on
//! disk, loading them into the database, rendering diagnostics (rustc-style
//! text through annotate-snippets, concise lines, JSON lines, SARIF,
//! GitHub's workflow commands, GitLab's Code Quality JSON, Checkstyle and
//! JUnit XML), writing formatted files and
//! exit codes: 0 when all is well, 1 when a check found an error (or a file
//! to format), 2 when the tool could not do its job (bad arguments, a path it
//! cannot read, a file it cannot format).
//!
//! It is a leaf: nothing depends on it. Whatever another front end (watch
//! mode, a language server, an embedding program) also needs belongs in
//! `db` or `analysis`, not here.

mod check;
mod dec;
mod discover;
mod eval;
mod fix;
mod format;
mod gitlab;
mod interrupt;
mod parse;
mod render;
mod repository;
mod rule;
mod sarif;
mod watch;
mod xml;

use std::process::ExitCode;

use camino::Utf8PathBuf;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

/// Parsing allocates a node or token for nearly every token of the input,
/// and mimalloc makes that markedly cheaper than the system allocator (the
/// parse benchmark measures both). The choice belongs to the binary:
/// libraries leave it to whoever embeds them.
///
/// The `system-allocator` feature leaves the system's allocator in place,
/// for heap profilers that watch `malloc` (valgrind's dhat and massif).
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static GLOBAL: Mimalloc = Mimalloc;

/// mimalloc, asked for its plain `mi_malloc` wherever that is aligned
/// enough, as the system allocator's `malloc` is asked. `mimalloc::MiMalloc`
/// asks `mi_malloc_aligned` for every allocation, whose fast path takes the
/// next free block only after checking its alignment, and which, when no
/// block is at hand or the size is over 1 KiB and not a power of two,
/// over-allocates and marks the page as holding interior pointers. Over
/// the corpus, `halite check` spent an eighth of its instructions in
/// mimalloc, and a quarter of those went with this. mimalloc aligns every
/// block of 16 bytes or more to 16 and every smaller one to 8, so
/// `mi_malloc` serves any alignment up to 16 that is no larger than the
/// size.
#[cfg(not(feature = "system-allocator"))]
struct Mimalloc;

#[cfg(not(feature = "system-allocator"))]
impl Mimalloc {
    /// Whether `mi_malloc` gives `layout` its alignment (see above).
    fn is_plain(layout: std::alloc::Layout) -> bool {
        layout.align() <= 16 && layout.align() <= layout.size()
    }
}

// SAFETY: each call is mimalloc's for the same layout, and a block from
// either of its allocation functions may be freed or reallocated by the
// other's, as mimalloc documents.
#[cfg(not(feature = "system-allocator"))]
unsafe impl std::alloc::GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        if Self::is_plain(layout) {
            // SAFETY: a plain allocation of a non-zero size (`GlobalAlloc`
            // is never asked for zero bytes).
            unsafe { libmimalloc_sys::mi_malloc(layout.size()).cast() }
        } else {
            // SAFETY: as the caller promised.
            unsafe { std::alloc::GlobalAlloc::alloc(&mimalloc::MiMalloc, layout) }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        if Self::is_plain(layout) {
            // SAFETY: as in `alloc`.
            unsafe { libmimalloc_sys::mi_zalloc(layout.size()).cast() }
        } else {
            // SAFETY: as the caller promised.
            unsafe { std::alloc::GlobalAlloc::alloc_zeroed(&mimalloc::MiMalloc, layout) }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from mimalloc, which frees any block by its
        // pointer alone.
        unsafe { std::alloc::GlobalAlloc::dealloc(&mimalloc::MiMalloc, ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        if layout.align() <= 16 && layout.align() <= new_size {
            // SAFETY: `ptr` came from mimalloc; the new block is aligned as
            // a plain allocation of `new_size` is.
            unsafe { libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast() }
        } else {
            // SAFETY: as the caller promised.
            unsafe { std::alloc::GlobalAlloc::realloc(&mimalloc::MiMalloc, ptr, layout, new_size) }
        }
    }
}

/// An HCL toolkit: check, format and inspect HCL files (Terraform, Packer, Nomad, …).
#[derive(Debug, Parser)]
#[command(name = "halite", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check HCL files for errors and style problems and report every
    /// diagnostic; exit 1 if any is an error.
    ///
    /// A directory is searched recursively for *.hcl, *.tf, *.tofu, *.tfvars,
    /// *.pkr.hcl, *.nomad and *.tftest.hcl files, skipping hidden
    /// directories, .terraform/ and whatever .gitignore excludes; a file is
    /// checked whatever its name. The nearest halite.toml in a file's
    /// directory or above (up to the repository's root, the directory with
    /// .git) switches rules off or changes their severity, and `exclude`
    /// leaves files out; it extends the halite.toml above it, whose
    /// settings it inherits and overrides, unless it says `root = true`.
    /// A `# halite-ignore: CODE` comment silences a rule on its line (or,
    /// alone on a line, on the next). Paths that hold no HCL file at all
    /// get a warning on standard error, and exit 0.
    ///
    /// The report goes to standard output (or to --output-file), in the
    /// format --format names, sorted by path and then as each file reports
    /// them, the same bytes from run to run; the summary line goes to
    /// standard error.
    #[command(group(clap::ArgGroup::new("fixing").multiple(true)))]
    Check {
        /// Files and directories to check (the current directory if none),
        /// or `-` to check standard input.
        paths: Vec<Utf8PathBuf>,
        /// Check standard input (`-`) as the file NAME: its name chooses
        /// its kind and dialect, the halite.toml that applies, its module
        /// (the other files of NAME's directory, read from disk) and is the
        /// file name in diagnostics. NAME itself is not read.
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<Utf8PathBuf>,
        /// How to print diagnostics.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Exit 1 on warnings too.
        #[arg(long)]
        deny_warnings: bool,
        /// Instead of the diagnostics, print how many there are of each
        /// code, one `COUNT  CODE` line per code, the most frequent first
        /// (codes of one count in order). The exit code is as without it.
        #[arg(long, conflicts_with = "format")]
        statistics: bool,
        /// Write the report to FILE instead of standard output: whole, by
        /// renaming a finished temporary file over it, or not at all. The
        /// summary line still goes to standard error.
        #[arg(long, value_name = "FILE")]
        output_file: Option<Utf8PathBuf>,
        /// Print only the report: no summary line, no progress bar.
        #[arg(long, short)]
        quiet: bool,
        /// Colour the human format: `auto` when standard output is a
        /// terminal and NO_COLOR is not set.
        #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
        color: ColorChoice,
        /// Apply the fixes that keep the files' meaning (those of the
        /// style rules: interpolation-only, quoted-type-constraint,
        /// legacy-index, attribute-splat), then report what remains. Each
        /// file is replaced whole, as fmt replaces it, and only if it has
        /// no syntax errors, before or after; fixes are applied again on
        /// the result until none applies (at most 8 passes).
        #[arg(long, group = "fixing")]
        fix: bool,
        /// With --fix or --diff, apply the other fixes too: the
        /// did-you-mean renames of undeclared-reference, unknown-attribute,
        /// unsupported-argument and the like, which are guesses to review.
        #[arg(long, requires = "fixing")]
        unsafe_fixes: bool,
        /// Print a unified diff of what --fix would change, and write
        /// nothing; exit 1 if there is anything to fix, 0 if not. No
        /// diagnostics are printed.
        #[arg(long, group = "fixing", conflicts_with_all = ["statistics", "output_file", "format"])]
        diff: bool,
        /// Check only shard K of N (for example 2/4): the units (a module
        /// per directory, each other file alone) are split by a stable
        /// hash of their path relative to the repository's root, so that
        /// every unit is in exactly one shard and stays there as files are
        /// added. The N shards' reports together are the whole run's.
        #[arg(long, value_name = "K/N")]
        shard: Option<halite::host::shard::Shard>,
        /// Keep each module's results in DIR across runs, by the hash of
        /// everything they depend on (its files, the modules it calls, the
        /// halite.toml levels, this build of halite), and report a module
        /// whose inputs are unchanged from there without checking it again.
        /// The default is $HALITE_CACHE_DIR, else halite/ in the user's
        /// cache directory (~/.cache on Linux). An empty DIR is refused (a
        /// variable left unset, which would put the cache in the current
        /// directory).
        #[arg(long, value_name = "DIR", value_parser = clap::builder::TypedValueParser::map(clap::builder::NonEmptyStringValueParser::new(), Utf8PathBuf::from))]
        cache_dir: Option<Utf8PathBuf>,
        /// Check everything, reading and writing no cache.
        #[arg(long, conflicts_with = "cache_dir")]
        no_cache: bool,
    },
    /// Format HCL files in place, as `terraform fmt` formats Terraform's files
    /// and `hclwrite.Format` every other, and print the name of each file
    /// changed.
    ///
    /// Which files are written: every file whose formatting changes, in
    /// place, unless --check is given; --diff writes them too (and prints
    /// the diff), as `terraform fmt -diff` does. --check never writes.
    /// Standard input (`-`) is never written anywhere but standard output.
    ///
    /// Which style each file gets, by its name: *.tf, *.tofu, *.tfvars,
    /// *.tftest.hcl, *.tfmock.hcl and *.tfquery.hcl get terraform fmt's
    /// (a value of one interpolation, "${x}", unwrapped; a variable's
    /// quoted type unquoted; block labels quoted; then hclwrite's layout);
    /// every other file (Packer, Nomad, Terragrunt, Terraform's Stacks
    /// files, any *.hcl) gets hclwrite.Format's, which changes only
    /// whitespace. --style chooses one for every file. Standard input gets
    /// hclwrite.Format's unless --stdin-filename names a file of Terraform's.
    ///
    /// A directory is searched recursively for *.hcl, *.tf, *.tofu, *.tfvars,
    /// *.pkr.hcl, *.nomad and *.tftest.hcl files, skipping hidden
    /// directories, .terraform/ and whatever .gitignore excludes; a file is
    /// formatted whatever its name. A file that is not UTF-8 or has syntax
    /// errors is left as it was and its errors printed (exit 2). Files in
    /// the JSON syntax are left as they are. Paths that hold no HCL file at
    /// all get a warning on standard error, and exit 0.
    Fmt {
        /// Files and directories to format (the current directory if none),
        /// or `-` to format standard input to standard output.
        paths: Vec<Utf8PathBuf>,
        /// Write nothing: list the files that would change, and exit 1 if
        /// any would.
        #[arg(long)]
        check: bool,
        /// Print a unified diff of each change instead of the file's name.
        /// The files are still written unless --check is given.
        #[arg(long)]
        diff: bool,
        /// Format every file in this style instead of the one its name
        /// gives it.
        #[arg(long, value_enum)]
        style: Option<FmtStyle>,
        /// Read standard input as the file NAME: its name chooses the
        /// style and is the file name in diagnostics, lists and diffs.
        /// NAME is not read or written. Takes no paths, or `-`.
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<Utf8PathBuf>,
    },
    /// Evaluate every attribute of a file, or of a directory's module, and
    /// print the values as JSON.
    ///
    /// For a directory, the module is its *.hcl, *.tf, *.tofu, *.pkr.hcl and
    /// *.nomad files: attributes are named by address (`local.NAME`,
    /// `TYPE.LABEL….NAME`, a top-level attribute by its name) and come in
    /// declaration order, files by path; `var.NAME` comes from `variable`
    /// blocks, `--var-file` and `--var`. A Terragrunt unit's directory
    /// (its `terragrunt.hcl`, evaluated alone) is the unit.
    ///
    /// For a file, attributes come in the order of the conformance cases: in each body,
    /// attributes in source order, then blocks in source order, recursively;
    /// an attribute in a block is named `TYPE.LABEL1.LABEL2.attr`. The
    /// function table is go-cty's standard library with `try` and `can`.
    /// Each failed attribute is a diagnostic on standard error, and the exit
    /// code is 1 if any failed or the file does not parse.
    Eval {
        /// The file or directory to evaluate, or `-` for standard input.
        file: Utf8PathBuf,
        /// A module's variable: NAME=EXPR, an HCL expression evaluated with
        /// functions but no variables (`--var 'name="web"'`). Repeatable;
        /// it wins over --var-file.
        #[arg(long = "var", value_name = "NAME=EXPR")]
        vars: Vec<String>,
        /// A file of a module's variables as HCL attributes (NAME = EXPR).
        /// Repeatable; later files win.
        #[arg(long = "var-file", value_name = "FILE")]
        var_files: Vec<Utf8PathBuf>,
        /// Evaluate only this attribute of a module (an address such as
        /// `local.name`, `service.web.port` or `var.region`). Repeatable.
        #[arg(long = "attr", value_name = "ADDRESS")]
        attrs: Vec<String>,
        /// A JSON object whose keys become root variables (arrays are
        /// tuples, objects objects, `null` a null of the dynamic type).
        #[arg(long, value_name = "VARS.json")]
        context: Option<Utf8PathBuf>,
        /// Print `{"results": [{"path", "value", "type"} | {"path",
        /// "error"}]}` with cty's JSON encodings, rather than an object of
        /// plain values by path (which leaves failed attributes out).
        #[arg(long)]
        with_types: bool,
        /// How to print the values.
        #[arg(long, value_enum, default_value_t = eval::EvalFormat::Json)]
        format: eval::EvalFormat,
        /// How to print the diagnostics on standard error: rustc-style text,
        /// or one JSON object per line as `check --format json` prints them.
        #[arg(long, value_enum, default_value_t = eval::DiagnosticFormat::Human)]
        diagnostic_format: eval::DiagnosticFormat,
    },
    /// Decode HCL files with an hcldec spec file and print the value as
    /// JSON, as the reference `hcldec` does (same flags, output and exit
    /// codes: 2 for error diagnostics, 1 for other failures).
    Dec(dec::DecArgs),
    /// Evaluate a directory's module, then watch its files and print, as
    /// JSON lines, each value that changes and each new diagnostic, until
    /// Ctrl-C.
    ///
    /// The first evaluation prints every attribute; after each change to the
    /// files, only what changed: `{"address", "value"}` (cty's JSON
    /// encoding), `{"address", "error"}` when an attribute now fails,
    /// `{"address", "removed": true}` when it is gone, and
    /// `{"diagnostic": {...}}` for each diagnostic not printed before (as
    /// `check --format json` prints them). With --stats, each evaluation
    /// ends with `{"batch": {"files", "reparsed", "reevaluated",
    /// "elapsed_ms"}}`. A change during an evaluation cancels it, and the
    /// next evaluation covers both.
    Watch(watch::WatchArgs),
    /// Run the language server: the Language Server Protocol on standard
    /// input and output, for an editor to start. Diagnostics are `check`'s,
    /// formatting is `fmt`'s; hover shows values as evaluated.
    Lsp,
    /// Print the script that completes halite's commands and flags in a
    /// shell, to be sourced by it: for bash, `halite completions bash >
    /// ~/.local/share/bash-completion/completions/halite`.
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Explain a lint rule: what it finds, why, its default level, and how
    /// to change its level in halite.toml or silence it with a
    /// `# halite-ignore: CODE` comment. Without a code, list the rules with
    /// their default levels.
    Rule {
        /// The rule's code, as diagnostics print it (`interpolation-only`).
        code: Option<String>,
    },
    /// Print a file's syntax tree and syntax errors, for debugging.
    Parse {
        /// The file to parse, or `-` for standard input.
        file: Utf8PathBuf,
    },
}

/// The output formats of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// rustc-style diagnostics with source snippets, for people.
    Human,
    /// One line per diagnostic: `path:line:col: severity[code] message`.
    Concise,
    /// One JSON object per diagnostic per line, for programs.
    Json,
    /// One SARIF 2.1.0 log, for code-scanning services.
    Sarif,
    /// GitHub Actions workflow commands (`::error file=…::message`), which
    /// annotate the lines in a pull request.
    Github,
    /// One GitLab Code Quality report (JSON), for merge requests.
    Gitlab,
    /// One Checkstyle XML report.
    Checkstyle,
    /// One JUnit XML report: a test suite per file, a failing test per
    /// diagnostic.
    Junit,
}

/// When the human format is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    /// When standard output is a terminal and NO_COLOR is not set.
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

/// The styles of `fmt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FmtStyle {
    /// `terraform fmt`'s: Terraform's rewrites, then hclwrite's layout.
    Terraform,
    /// `hclwrite.Format`'s (Packer, Nomad, Terragrunt's hclfmt): whitespace only.
    Hcl,
}

/// What a command found, as the exit code says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Clean,
    FoundErrors,
    /// Part of the work could not be done (a file could not be read, formatted
    /// or written); the command has already said why, and the rest was done.
    Incomplete,
}

/// `eval`'s or `watch`'s `--var` and `--var-file` options in the order
/// given, which decides which wins (as Terraform reads `-var` and
/// `-var-file`).
fn variable_options(matches: &clap::ArgMatches) -> Vec<halite::host::inputs::VariableOption> {
    let Some(eval) = matches.subcommand_matches("eval").or_else(|| matches.subcommand_matches("watch"))
    else {
        return Vec::new();
    };
    let mut options: Vec<(usize, halite::host::inputs::VariableOption)> = Vec::new();
    if let (Some(values), Some(indices)) = (eval.get_many::<String>("vars"), eval.indices_of("vars")) {
        options.extend(indices.zip(values.map(|it| halite::host::inputs::VariableOption::Value(it.clone()))));
    }
    if let (Some(files), Some(indices)) =
        (eval.get_many::<Utf8PathBuf>("var_files"), eval.indices_of("var_files"))
    {
        options.extend(indices.zip(files.map(|it| halite::host::inputs::VariableOption::File(it.clone()))));
    }
    options.sort_by_key(|(index, _)| *index);
    options.into_iter().map(|(_, option)| option).collect()
}

fn main() -> ExitCode {
    halite::host::trace::mark("main");
    huge_blocks_from_the_os();
    // clap's whole message on a bad command line: the reason, its hint ("a
    // similar subcommand exists"), the usage line and where help is, on
    // standard error with exit 2; help and version on standard output with
    // exit 0.
    let (cli, variable_options) = Cli::command()
        .try_get_matches()
        .and_then(|matches| Ok((Cli::from_arg_matches(&matches)?, variable_options(&matches))))
        .unwrap_or_else(|err| err.exit());
    let result = match cli.command {
        Command::Check {
            paths,
            stdin_filename,
            format,
            deny_warnings,
            statistics,
            output_file,
            quiet,
            color,
            fix,
            unsafe_fixes,
            diff,
            shard,
            cache_dir,
            no_cache,
        } => {
            freed_memory(FreedMemory::Kept);
            check::run(
                &paths,
                check::Options {
                    format,
                    deny_warnings,
                    output_file: output_file.as_deref(),
                    quiet,
                    color,
                    stdin_filename: stdin_filename.as_deref(),
                    statistics,
                    fix: (fix || diff).then_some(fix::Request {
                        mode: if unsafe_fixes { analysis::FixMode::Unsafe } else { analysis::FixMode::Safe },
                        diff,
                    }),
                    shard,
                    cache: if no_cache { check::Cache::Off } else { check::Cache::At(cache_dir.as_deref()) },
                },
            )
        }
        Command::Fmt { paths, check, diff, style, stdin_filename } => {
            freed_memory(FreedMemory::Kept);
            let style = style.map(|style| match style {
                FmtStyle::Terraform => db::FormatStyle::Terraform,
                FmtStyle::Hcl => db::FormatStyle::Hcl,
            });
            format::run(
                &paths,
                format::Options { check, diff, style, stdin_filename: stdin_filename.as_deref() },
            )
        }
        Command::Parse { file } => parse::run(&file),
        Command::Rule { code } => rule::run(code.as_deref()),
        Command::Completions { shell } => {
            clap_complete::generate(
                shell,
                &mut <Cli as clap::CommandFactory>::command(),
                "halite",
                &mut std::io::stdout(),
            );
            return ExitCode::SUCCESS;
        }
        Command::Dec(args) => return dec::run(args),
        Command::Watch(args) => {
            // Until its first report is out (see `FreedMemory::Soon`).
            freed_memory(FreedMemory::Soon);
            watch::run(args, &variable_options)
        }
        Command::Lsp => {
            freed_memory(FreedMemory::HandedBack);
            lsp::run_stdio().map(|()| Outcome::Clean).map_err(|error| anyhow::anyhow!(error))
        }
        Command::Eval {
            file,
            context,
            with_types,
            format: eval::EvalFormat::Json,
            diagnostic_format,
            vars: _,
            var_files: _,
            attrs,
        } => {
            freed_memory(FreedMemory::Soon);
            eval::run(
                &file,
                eval::Options {
                    context: context.as_deref(),
                    with_types,
                    variable_options: &variable_options,
                    attrs: &attrs,
                    diagnostic_format,
                },
            )
        }
    };
    match result {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::FoundErrors) => ExitCode::from(1),
        Ok(Outcome::Incomplete) => ExitCode::from(2),
        Err(err) => {
            eprintln!("halite: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Has the allocator take blocks over 16 MiB straight from the kernel and
/// give them straight back when freed, for every command. Only a huge file
/// makes such blocks (its token table, the tree builder's list of children,
/// a flat node's children, an arena of expressions), and each is transient
/// or lives as long as the file: kept in mimalloc's arenas instead, a freed
/// one stays resident (see [`FreedMemory::Kept`]) and a later one rarely fits
/// the hole, so a 50 MB one-line file peaked 40% above what it held at once.
/// Freshly mapped pages cost a zeroing, which for blocks this size is small
/// beside filling them.
#[cfg(feature = "system-allocator")]
fn huge_blocks_from_the_os() {}

#[cfg(not(feature = "system-allocator"))]
fn huge_blocks_from_the_os() {
    /// mimalloc's `mi_option_arena_max_object_size`, in KiB (libmimalloc-sys
    /// does not name it): larger blocks are mapped from the kernel on their
    /// own.
    const MI_OPTION_ARENA_MAX_OBJECT_SIZE: libmimalloc_sys::mi_option_t = 45;
    // SAFETY: as in `freed_memory`: the value is only stored, before
    // any allocation that it could concern.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_MAX_OBJECT_SIZE, 16 * 1024) };
}

/// When the allocator hands memory the process frees back to the kernel.
#[derive(Debug, Clone, Copy)]
pub(crate) enum FreedMemory {
    /// Kept for the allocator's own later allocations, for a batch command.
    /// A batch frees each chunk's trees and memos and allocates the next
    /// chunk's: pages handed back come again as fresh pages, which the
    /// kernel zeroes first. That zeroing was a third of `halite check`'s
    /// time over the corpus; kept, the run is a quarter faster at the same
    /// peak memory.
    Kept,
    /// Handed back as soon as it is free, for the language server, whose
    /// resident memory should follow what it holds. With mimalloc's default
    /// (see [`FreedMemory::Deferred`]: handed back only by the freeing
    /// thread's own later calls, and late), its peak over a 10,000-file
    /// module stood 10–20 MiB above it, for pages its workers had freed
    /// while they kept allocating. It costs a request that allocates much
    /// (a completion list) the faults of fresh pages, a few milliseconds.
    HandedBack,
    /// Handed back a millisecond after it is free, by the freeing thread's
    /// next call, for a front end that loads a module whole (`eval`, and
    /// `watch` until its first report is out): loading frees each chunk's
    /// trees on some threads while others allocate, and kept, those pages
    /// stood a tenth above `eval`'s peak over the chains-shaped 10,000-file
    /// module. Handed back at once instead, the peak is a megabyte or two
    /// lower still, but the pages each next allocation finds fresh cost
    /// `watch`'s first report 4–6% of its time and `eval` a few percent of
    /// its processor time.
    Soon,
    /// mimalloc's default, for `watch` after its first report: it answers
    /// an edit within a few milliseconds, which fresh pages' faults would
    /// stretch, and its edits free little. The default is a second in
    /// mimalloc v3, which the `mimalloc` crate builds (it was 10 ms in v2).
    Deferred,
}

#[cfg(feature = "system-allocator")]
pub(crate) fn freed_memory(_: FreedMemory) {}

#[cfg(not(feature = "system-allocator"))]
pub(crate) fn freed_memory(policy: FreedMemory) {
    /// mimalloc's `mi_option_purge_delay` (libmimalloc-sys does not name it):
    /// how long, in milliseconds, freed memory waits before it is handed
    /// back; -1 for never.
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    /// The delay before any policy changed it: mimalloc's default, or what
    /// `MIMALLOC_PURGE_DELAY` says.
    static DEFAULT: std::sync::OnceLock<std::ffi::c_long> = std::sync::OnceLock::new();
    // SAFETY: `mi_option_get` only reads the option table.
    let default = *DEFAULT.get_or_init(|| unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) });
    let delay = match policy {
        FreedMemory::Kept => -1,
        FreedMemory::HandedBack => 0,
        FreedMemory::Soon => 1,
        FreedMemory::Deferred => default,
    };
    // SAFETY: `mi_option_set` only stores the value in mimalloc's option
    // table, which the allocator reads atomically; any value is valid for
    // this option, and no memory is touched.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, delay) };
}

/// What the command line reads and reports at most (the largest input, the
/// diagnostics shown per file): the host's defaults, which no flag changes
/// yet. Every front end takes its bounds from here, so that a flag would
/// set them in one place.
pub(crate) fn limits() -> halite::host::Limits {
    halite::host::Limits::default()
}

/// The bytes of the file at `path`, or of standard input when `path` is `-`,
/// with a one-line reason when they cannot be read: a path that is not a
/// regular file (a FIFO would block, `/dev/zero` never ends) or an input
/// larger than the limit ([`limits`]) is refused, having
/// read at most one byte past the limit.
fn read_file_or_stdin(path: &camino::Utf8Path) -> anyhow::Result<Vec<u8>> {
    use anyhow::Context as _;
    let limit = limits().max_file_size;
    if path == "-" {
        vfs::read_stream(std::io::stdin().lock(), limit).context("cannot read standard input")
    } else {
        Ok(vfs::read_file(path, limit).with_context(|| format!("cannot read `{path}`"))?.bytes)
    }
}

#[cfg(all(test, not(feature = "system-allocator")))]
mod allocator_tests {
    use std::alloc::{GlobalAlloc, Layout};

    use super::Mimalloc;

    /// Every block is aligned as its layout asks, on both of the
    /// allocator's paths (plain `mi_malloc` for an alignment up to 16 and
    /// no larger than the size, the aligned allocation otherwise), zeroed
    /// when asked, and keeps its bytes when it grows or shrinks.
    #[test]
    fn blocks_are_aligned_as_their_layouts_ask() {
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 3, 8, 12, 16, 24, 40, 48, 100, 1000, 1200, 5000, 70_000] {
                let Ok(layout) = Layout::from_size_align(size, align) else { continue };
                let aligned = |block: *mut u8| !block.is_null() && (block as usize).is_multiple_of(align);
                // SAFETY: each block is used within its size and freed once,
                // with the layout it was allocated or reallocated with.
                unsafe {
                    let block = Mimalloc.alloc(layout);
                    assert!(aligned(block), "size {size}, alignment {align}");
                    block.write_bytes(0xab, size);
                    for new_size in [size * 3 + 1, size.div_ceil(2)] {
                        let block = Mimalloc.alloc(layout);
                        block.write_bytes(0xab, size);
                        let moved = Mimalloc.realloc(block, layout, new_size);
                        assert!(aligned(moved), "size {size} to {new_size}, alignment {align}");
                        let kept = std::slice::from_raw_parts(moved, size.min(new_size));
                        assert!(kept.iter().all(|&byte| byte == 0xab), "size {size} to {new_size}");
                        Mimalloc.dealloc(moved, Layout::from_size_align_unchecked(new_size, align));
                    }
                    Mimalloc.dealloc(block, layout);
                    let zeroed = Mimalloc.alloc_zeroed(layout);
                    assert!(aligned(zeroed), "zeroed, size {size}, alignment {align}");
                    assert!(std::slice::from_raw_parts(zeroed, size).iter().all(|&byte| byte == 0));
                    Mimalloc.dealloc(zeroed, layout);
                }
            }
        }
    }
}
