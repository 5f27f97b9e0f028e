//! `cargo xtask bench`: the whole `halite fmt --check` program beside the
//! reference `hclfmt`, timed on the same files, as a user or a pre-commit
//! hook would run them.
//!
//! Throughput of the formatting functions alone is `cargo bench -p
//! benchmarks --bench format`; this measures what a user waits for: start-up,
//! finding and reading the files, parsing, formatting, comparing and
//! reporting. The files are the corpus's files the reference parses (the
//! shared corpus when `../shared` is there, else the vendored subset), copied
//! flat into a temporary directory, because the corpus keeps some files in
//! hidden directories, which `halite fmt DIR` rightly skips and a list of
//! file names given to `hclfmt` would not.
//!
//! `hclfmt` does not walk directories, so it is given the file names through
//! `xargs`. It is run with `-check`, which parses each file and reports its
//! syntax errors as `halite fmt` refuses a file with errors, and with
//! `-require-no-change`, which makes it fail naming the files formatting
//! would change, as `halite fmt --check` does. Without `-w` it writes the
//! formatted text to standard output, which goes to `/dev/null`: neither
//! program writes a file.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
    process::{Command, Output},
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};

use crate::project_root;

/// File names both programs take (`halite fmt` also takes `.pkr.hcl` and
/// `.tftest.hcl`, which end in `.hcl`).
const HCL_SUFFIXES: &[&str] = &[".hcl", ".tf", ".tfvars", ".nomad"];

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let runs: usize = match args {
        [] => 5,
        [flag, n] if flag == "--runs" => {
            n.parse().ok().filter(|n| *n > 0).context("--runs takes a positive number")?
        }
        _ => bail!("usage: cargo xtask bench [--runs N]"),
    };
    let root = project_root();

    let corpus = Corpus::load(&root)?;
    let copy = corpus.copy_to_temp_dir()?;
    let dir = copy.path();
    println!(
        "corpus: {} files, {:.2} MB: the files {} says the reference parses ({} not UTF-8, left out), copied flat to {}",
        corpus.files.len(),
        corpus.bytes as f64 / 1e6,
        corpus.manifest.display(),
        corpus.not_utf8,
        dir.display()
    );
    if let Some(changes) = corpus.reference_changes {
        println!("the manifest says formatting changes {changes} of them");
    }

    let halite = build_release_halite(&root)?;

    let mut programs = vec![Program::halite(&halite, dir)];
    let hclfmt = root.join("../shared/oracle/bin/hclfmt");
    let hclfmt = hclfmt.canonicalize().unwrap_or(hclfmt);
    if hclfmt.is_file() {
        programs.push(Program::hclfmt(&hclfmt, dir));
    } else {
        println!(
            "reference: {} is missing (build it with `bash ../shared/oracle/setup.sh`); timing Halite alone",
            hclfmt.display()
        );
    }

    // One untimed run each first: it brings the files and the binaries into
    // the page cache, and its outcome is checked so that the timed runs are
    // known to do the job.
    let mut flagged = Vec::new();
    for program in &programs {
        println!("$ {}", program.shown);
        let output = program.command().output().with_context(|| format!("running {}", program.shown))?;
        flagged.push((program.name, program.check(&output)?));
    }
    let mut agree = true;
    for (name, files) in &flagged {
        println!("{name}: {} files would change", files.len());
    }
    if let [(_, halite_files), (_, reference_files)] = &flagged[..] {
        if halite_files == reference_files {
            println!("both flag the same {} files, with the expected exit codes", halite_files.len());
        } else {
            agree = false;
            let only_halite: Vec<_> = halite_files.difference(reference_files).take(5).collect();
            let only_reference: Vec<_> = reference_files.difference(halite_files).take(5).collect();
            println!(
                "MISMATCH: the programs flag different files (some only Halite flags: {only_halite:?}; some only the reference flags: {only_reference:?})"
            );
        }
    }

    // Interleaved, so that a burst of load from elsewhere on the machine
    // slows both programs rather than one.
    let mut times = vec![Vec::new(); programs.len()];
    for _ in 0..runs {
        for (program, times) in programs.iter().zip(&mut times) {
            let started = Instant::now();
            let output = program.command().output().with_context(|| format!("running {}", program.shown))?;
            times.push(started.elapsed());
            // Every run must do the same job as the checked one.
            program.check(&output)?;
        }
    }

    let medians: Vec<Duration> = times.iter_mut().map(|times| median(times)).collect();
    for ((program, times), median) in programs.iter().zip(&times).zip(&medians) {
        let all: Vec<String> = times.iter().map(|time| format!("{:.3}", time.as_secs_f64())).collect();
        println!(
            "{}: median {:.3} s over {runs} runs (all, sorted: {} s)",
            program.name,
            median.as_secs_f64(),
            all.join(", ")
        );
    }
    match &medians[..] {
        [halite, reference] => println!(
            "fmt --check, whole program (median wall time of {runs} runs): halite {:.3} s, reference hclfmt {:.3} s: halite is {:.1}x faster (target: at least 10x)",
            halite.as_secs_f64(),
            reference.as_secs_f64(),
            reference.as_secs_f64() / halite.as_secs_f64()
        ),
        [halite] => println!(
            "fmt --check, whole program (median wall time of {runs} runs): halite {:.3} s; the reference was not timed",
            halite.as_secs_f64()
        ),
        _ => unreachable!("Halite is always timed"),
    }
    ensure!(
        agree,
        "the two programs disagree on which files need formatting: the times do not compare the same job"
    );
    Ok(())
}

/// The `halite` binary of a fresh release build: timing a stale binary
/// would report on code that is not in the checkout.
pub(crate) fn build_release_halite(root: &Path) -> anyhow::Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    println!("$ cargo build --release -p halite");
    let status = Command::new(&cargo)
        .args(["build", "--release", "-p", "halite"])
        .current_dir(root)
        .status()
        .context("running cargo build")?;
    ensure!(status.success(), "cargo build --release -p halite failed");
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let halite = target.join("release/halite");
    ensure!(halite.is_file(), "no halite binary at {} after the build", halite.display());
    Ok(halite)
}

/// Sorts `times` and returns the middle one (the upper middle of an even
/// count).
fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// The files to time, read once from the corpus.
struct Corpus {
    manifest: PathBuf,
    /// Each file's HCL suffix and contents.
    files: Vec<(&'static str, Vec<u8>)>,
    bytes: u64,
    not_utf8: usize,
    /// How many of the files the reference formatter changes, when the
    /// manifest says (the shared corpus's does, the vendored subset's not).
    reference_changes: Option<usize>,
}

impl Corpus {
    /// The shared corpus when `../shared` is beside the project, else the
    /// vendored subset; of it, the files its manifest says the reference
    /// parses, since formatting is defined on those alone. Files that are
    /// not UTF-8 are left out: Halite refuses them, so the two programs
    /// would not do the same job.
    fn load(root: &Path) -> anyhow::Result<Corpus> {
        let shared = root.join("../shared/corpus");
        let dir = if shared.join("manifest.tsv").is_file() { shared } else { root.join("test-data/corpus") };
        let dir = dir.canonicalize().with_context(|| format!("no corpus at {}", dir.display()))?;
        let manifest = dir.join("manifest.tsv");
        let text =
            fs::read_to_string(&manifest).with_context(|| format!("reading {}", manifest.display()))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
        let column = |name: &str| header.iter().position(|column| *column == name);
        let (Some(path_column), Some(parses_column)) = (column("path"), column("reference_parses")) else {
            bail!("{} has no path and reference_parses columns", manifest.display());
        };
        let changes_column = column("reference_fmt_changes");

        let mut corpus = Corpus {
            manifest,
            files: Vec::new(),
            bytes: 0,
            not_utf8: 0,
            reference_changes: changes_column.map(|_| 0),
        };
        for line in lines {
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.get(parses_column) != Some(&"yes") {
                continue;
            }
            let path = fields.get(path_column).context("a manifest line without a path")?;
            let bytes = fs::read(dir.join("input").join(path)).with_context(|| format!("reading {path}"))?;
            if std::str::from_utf8(&bytes).is_err() {
                corpus.not_utf8 += 1;
                continue;
            }
            if let (Some(changes), Some(column)) = (&mut corpus.reference_changes, changes_column)
                && fields.get(column) == Some(&"yes")
            {
                *changes += 1;
            }
            let suffix =
                HCL_SUFFIXES.iter().find(|suffix| path.ends_with(*suffix)).copied().unwrap_or(".hcl");
            corpus.bytes += bytes.len() as u64;
            corpus.files.push((suffix, bytes));
        }
        ensure!(!corpus.files.is_empty(), "no files to time in {}", dir.display());
        Ok(corpus)
    }

    /// Writes the files, numbered, into a new temporary directory with
    /// nothing else in it, so both programs see exactly these files.
    fn copy_to_temp_dir(&self) -> anyhow::Result<tempfile::TempDir> {
        let temp = tempfile::Builder::new()
            .prefix("halite-xtask-bench-")
            .tempdir()
            .context("creating a temporary directory")?;
        for (index, (suffix, bytes)) in self.files.iter().enumerate() {
            let path = temp.path().join(format!("{index:05}{suffix}"));
            fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(temp)
    }
}

/// One of the programs timed.
struct Program {
    name: &'static str,
    program: PathBuf,
    args: Vec<String>,
    /// The command as a shell would take it, for the report.
    shown: String,
    /// Which outcome is a success and which files it flagged.
    check: fn(&Output) -> anyhow::Result<BTreeSet<String>>,
}

impl Program {
    fn halite(halite: &Path, dir: &Path) -> Program {
        Program {
            name: "halite",
            program: halite.to_owned(),
            args: vec!["fmt".into(), "--check".into(), dir.display().to_string()],
            shown: format!("{} fmt --check {}", halite.display(), dir.display()),
            check: halite_flagged,
        }
    }

    fn hclfmt(hclfmt: &Path, dir: &Path) -> Program {
        // The paths are passed to the script as arguments rather than pasted
        // into it, so no quoting can go wrong.
        let script = r#"find "$1" -type f -print0 | xargs -0 "$2" -check -require-no-change >/dev/null"#;
        Program {
            name: "reference hclfmt",
            program: "sh".into(),
            args: vec![
                "-c".into(),
                script.into(),
                "sh".into(),
                dir.display().to_string(),
                hclfmt.display().to_string(),
            ],
            shown: format!(
                "find {} -type f -print0 | xargs -0 {} -check -require-no-change >/dev/null",
                dir.display(),
                hclfmt.display()
            ),
            check: hclfmt_flagged,
        }
    }

    fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args);
        command
    }

    fn check(&self, output: &Output) -> anyhow::Result<BTreeSet<String>> {
        (self.check)(output).with_context(|| format!("unexpected outcome of {}", self.shown))
    }
}

/// `halite fmt --check` lists the files it would change on standard output,
/// one a line, and exits 1 when there is any, 0 when there is none; anything
/// on standard error (a refused file) or another exit code is a failure.
fn halite_flagged(output: &Output) -> anyhow::Result<BTreeSet<String>> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    ensure!(stderr.is_empty(), "it printed errors: {}", first_lines(&stderr));
    let flagged: BTreeSet<String> = String::from_utf8_lossy(&output.stdout).lines().map(file_name).collect();
    let expected = if flagged.is_empty() { 0 } else { 1 };
    ensure!(
        output.status.code() == Some(expected),
        "exit {} with {} files listed",
        output.status,
        flagged.len()
    );
    Ok(flagged)
}

/// Each `hclfmt -require-no-change` that finds files to change exits 1 and
/// names them on standard error, on one line after `file(s) were changed: `,
/// separated by `, ` (the numbered names hold no comma); `xargs` may start
/// several, and exits 123 when any of them failed, 0 when none did. Anything
/// else on standard error (syntax diagnostics) is a failure.
fn hclfmt_flagged(output: &Output) -> anyhow::Result<BTreeSet<String>> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let mut flagged = BTreeSet::new();
    for line in stderr.lines() {
        let Some(names) = line.strip_prefix("file(s) were changed: ") else {
            bail!("it printed something else than changed files: {}", first_lines(&stderr));
        };
        flagged.extend(names.split(", ").map(file_name));
    }
    let expected = if flagged.is_empty() { 0 } else { 123 };
    ensure!(
        output.status.code() == Some(expected),
        "exit {} with {} files listed",
        output.status,
        flagged.len()
    );
    Ok(flagged)
}

/// The last component of a path either program printed: they name the same
/// files in different ways (`DIR/00001.tf` or `./00001.tf`).
fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_owned()
}

fn first_lines(text: &str) -> String {
    text.lines().take(5).collect::<Vec<_>>().join("\n")
}
