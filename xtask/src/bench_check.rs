//! `cargo xtask bench-check`: the whole `halite check` program beside the
//! reference `hclfmt -check`, on the same files, as a CI job would run them.
//!
//! The reference has no checker; `hclfmt -check` parses each file and
//! reports its syntax errors, the least a checker does. Halite does the full
//! analysis: syntax, style lints, every module's references, declarations,
//! evaluation with unknown inputs and module calls. The files are every file
//! of `../shared/corpus/input` and `../shared/corpus/json` (real repositories'
//! trees, so that directories make modules), named explicitly to both
//! programs so that both read the same ones (a directory walk would skip the
//! hidden directories the corpus keeps): Halite in one invocation, as a user
//! gives it a list, `hclfmt` through `xargs`, which cuts the list into the
//! invocations it needs. Peak memory is the largest resident set of any
//! process of the run, as `/usr/bin/time` reports it, when that is installed.
//! Halite runs with `--no-cache`, so that every run checks every file
//! (`bench-cache` measures the cache).
//!
//! `--tree DIR` measures every `.hcl` and `.tf` file of DIR instead (a
//! monorepo `cargo xtask gen-terragrunt` wrote), `--hclfmt PATH` takes the
//! reference from elsewhere than `../shared/oracle/bin`.

use std::{
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

use anyhow::{Context, bail, ensure};

use crate::project_root;

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    const USAGE: &str = "usage: cargo xtask bench-check [--runs N] [--tree DIR] [--hclfmt PATH]";
    let mut runs: usize = 5;
    let mut tree: Option<PathBuf> = None;
    let mut hclfmt: Option<PathBuf> = None;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().context(USAGE)?;
        match flag.as_str() {
            "--runs" => {
                runs = value.parse().ok().filter(|n| *n > 0).context("--runs takes a positive number")?
            }
            "--tree" => tree = Some(PathBuf::from(value)),
            "--hclfmt" => hclfmt = Some(PathBuf::from(value)),
            _ => bail!(USAGE),
        }
    }
    let root = project_root();
    // The corpus, or every HCL file of a tree (a generated monorepo:
    // `cargo xtask gen-terragrunt`).
    let (corpus, files) = match tree {
        None => {
            let corpus = root.join("../shared/corpus");
            let corpus =
                corpus.canonicalize().with_context(|| format!("no corpus at {}", corpus.display()))?;
            let files = corpus_files(&corpus)?;
            println!("corpus: {} files under {}/{{input,json}}", files.len(), corpus.display());
            (corpus, files)
        }
        Some(tree) => {
            let tree = tree.canonicalize().with_context(|| format!("no tree at {}", tree.display()))?;
            let files = tree_files(&tree)?;
            let bytes: u64 =
                files.iter().map(|file| std::fs::metadata(tree.join(file)).map_or(0, |it| it.len())).sum();
            println!("tree: {} files, {bytes} bytes, under {}", files.len(), tree.display());
            (tree, files)
        }
    };

    let halite = crate::bench::build_release_halite(&root)?;
    let hclfmt = hclfmt.unwrap_or_else(|| root.join("../shared/oracle/bin/hclfmt"));
    ensure!(
        hclfmt.is_file(),
        "{} is missing: build it with `bash ../shared/oracle/setup.sh`",
        hclfmt.display()
    );
    let time = Path::new("/usr/bin/time");
    let time = time.is_file().then_some(time);

    // The list goes to `xargs` through a file, one NUL-terminated name each.
    let list = tempfile::NamedTempFile::new().context("creating the list of files")?;
    let mut names = Vec::new();
    for file in &files {
        names.extend_from_slice(file.to_str().context("a corpus path that is not UTF-8")?.as_bytes());
        names.push(0);
    }
    std::fs::write(list.path(), names).context("writing the list of files")?;

    let halite_run = |measure: Option<&Path>| {
        let mut command = wrapped(measure, &halite);
        command.args(["check", "--no-cache", "--format", "json"]).args(&files).current_dir(&corpus);
        command
    };
    let hclfmt_run = |measure: Option<&Path>| {
        let mut command = wrapped(measure, Path::new("xargs"));
        command.arg("-0").arg("-a").arg(list.path()).arg(&hclfmt).arg("-check").current_dir(&corpus);
        command
    };

    // One untimed run each first: it brings the files and binaries into
    // the page cache, and its outcome is checked so that the timed runs are
    // known to do the job. Halite exits 1 (the corpus has errors); `xargs`
    // exits 123 when an `hclfmt` found a file with syntax errors.
    let output = halite_run(None).output().context("running halite check")?;
    let summary = String::from_utf8_lossy(&output.stderr);
    // The corpus has errors; a generated tree has none.
    ensure!(matches!(output.status.code(), Some(0 | 1)), "halite check: {}", summary.trim());
    println!("halite: {}", summary.trim());
    let output = hclfmt_run(None).output().context("running hclfmt -check")?;
    ensure!(matches!(output.status.code(), Some(0 | 123)), "hclfmt -check: exit {}", output.status);

    // Interleaved, so that a burst of load from elsewhere slows both.
    let (mut halite_times, mut hclfmt_times) = (Vec::new(), Vec::new());
    let (mut halite_peaks, mut hclfmt_peaks) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        for (run, times, peaks) in [
            (&halite_run as &dyn Fn(Option<&Path>) -> Command, &mut halite_times, &mut halite_peaks),
            (&hclfmt_run, &mut hclfmt_times, &mut hclfmt_peaks),
        ] {
            let started = Instant::now();
            let output = run(time).output().context("running a timed program")?;
            times.push(started.elapsed());
            if time.is_some() {
                peaks.push(peak_kilobytes(&output.stderr)?);
            }
        }
    }
    let (halite_time, hclfmt_time) = (median(&mut halite_times), median(&mut hclfmt_times));
    println!(
        "halite check --format json: median {:.3} s over {runs} runs; hclfmt -check: median {:.3} s",
        halite_time.as_secs_f64(),
        hclfmt_time.as_secs_f64()
    );
    if time.is_some() {
        println!(
            "peak resident memory (median): halite {:.0} MB, hclfmt {:.0} MB (the largest of its invocations)",
            median(&mut halite_peaks) as f64 / 1024.0,
            median(&mut hclfmt_peaks) as f64 / 1024.0
        );
    }
    println!(
        "halite check (full analysis) is {:.1}x faster than hclfmt -check (syntax only) on the same files (target: at least 5x)",
        hclfmt_time.as_secs_f64() / halite_time.as_secs_f64()
    );
    Ok(())
}

/// Every file under `corpus/input` and `corpus/json`, sorted.
fn corpus_files(corpus: &Path) -> anyhow::Result<Vec<PathBuf>> {
    every_file_below(corpus, &["input", "json"], |_| true)
}

/// Every `.hcl` and `.tf` file below `tree`, relative to it, sorted.
fn tree_files(tree: &Path) -> anyhow::Result<Vec<PathBuf>> {
    every_file_below(tree, &[""], |name| name.ends_with(".hcl") || name.ends_with(".tf"))
}

/// The files below the directories `starts` of `root` whose names `keep`
/// takes, relative to `root`, sorted; an error when there are none.
/// Hidden ones too (`.terraform.lock.hcl`, `.tflint.hcl`): both tools are
/// given every file, unlike the mutation harnesses' `files_below`, which
/// skips hidden directories.
fn every_file_below(
    root: &Path,
    starts: &[&str],
    keep: impl Fn(&str) -> bool,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut dirs: Vec<PathBuf> = starts.iter().map(PathBuf::from).collect();
    while let Some(dir) = dirs.pop() {
        let entries =
            std::fs::read_dir(root.join(&dir)).with_context(|| format!("reading {}", dir.display()))?;
        for entry in entries {
            let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
            let path = dir.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                dirs.push(path);
            } else if keep(&entry.file_name().to_string_lossy()) {
                files.push(path);
            }
        }
    }
    files.sort();
    ensure!(!files.is_empty(), "no files to check under {}", root.display());
    Ok(files)
}

/// `program`, under `/usr/bin/time -f %M` when `time` is given (the peak
/// resident set in kilobytes, printed last on standard error).
fn wrapped(time: Option<&Path>, program: &Path) -> Command {
    match time {
        Some(time) => {
            let mut command = Command::new(time);
            command.args(["-f", "%M"]).arg(program);
            command
        }
        None => Command::new(program),
    }
}

fn peak_kilobytes(stderr: &[u8]) -> anyhow::Result<u64> {
    let text = String::from_utf8_lossy(stderr);
    let last = text.lines().last().unwrap_or_default();
    last.trim().parse().with_context(|| format!("no peak memory in {last:?}"))
}

/// The middle of the sorted values (the upper middle of an even count).
fn median<T: Ord + Copy>(values: &mut [T]) -> T {
    values.sort();
    values[values.len() / 2]
}
