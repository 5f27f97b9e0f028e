//! `cargo xtask bench-watch`: the whole `halite watch` and `halite eval`
//! programs on generated modules, as a build tool embedding them would run
//! them, at several sizes and in several shapes.
//!
//! For each shape (`layered`, the module of `cargo xtask gen-module`;
//! `chains`, chains of references across files with wide fan-in; and, when
//! `--shape build-tool` asks, `examples/build-tool` scaled up, whose edits
//! change nested `step` blocks' attributes) and size
//! (100, 1,000 and 10,000 files unless `--files` says), it writes the module
//! to a temporary directory and:
//!
//! - runs `halite eval DIR` (cold: a new process) [`EVAL_RUNS`] times and
//!   reports the median time and the highest peak resident memory beside
//!   the source's size, as bytes of memory per byte of source (when
//!   `/usr/bin/time` is there to measure the peak);
//! - starts `halite watch --stats DIR` and, after its first report, makes a
//!   one-attribute edit in each of [`EDITS`] different files (the first
//!   edit of each file), a comment edit, and adds, removes and renames a
//!   file [`FILE_ROUNDS`] times each (a new file each time, and a different
//!   file of the module renamed each time), each time reading the `elapsed_ms` the watcher reports (from the
//!   arrival of the batch to the output) and the number of attribute values
//!   it evaluated, which must be exactly the edited attribute and its
//!   transitive dependents, and the addresses of the changed values it
//!   printed, which must be among theirs, the edited one included (all of
//!   theirs in the build-tool shape, where every dependent changes), as the generator computed them from the graph it
//!   wrote (none for the comment), or the benchmark fails;
//! - reads the watcher's peak resident memory (`VmHWM`) when it is done.
//!
//! Timings are reported, never asserted: the machine may be busy. With
//! `--baseline BIN`, the cold `eval` of another `halite` binary (an older
//! build) is timed on the same module in the same run, each of its runs
//! right after one of this build's, and the ratio of the medians shown.

use std::{
    io::{BufRead as _, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::mpsc::{self, Receiver},
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};

use crate::{
    bench::build_release_halite,
    gen_module::{self, Shape},
    project_root,
};

/// One-attribute edits per module, each in a file of its own.
const EDITS: usize = 24;

/// Cold `eval` runs per module (and as many of the baseline's): one run on
/// a shared two-core machine was off by a third from one time to the next.
const EVAL_RUNS: usize = 3;

/// Additions, removals and renames of a file per module, so that each has a
/// median and a worst as the edits do.
const FILE_ROUNDS: usize = 5;

/// How long to wait for the watcher's report of a change.
const TIMEOUT: Duration = Duration::from_secs(120);

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut sizes = vec![100, 1000, 10_000];
    let mut baseline: Option<PathBuf> = None;
    let mut shapes = vec![Shape::Layered, Shape::Chains];
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().with_context(|| format!("{flag} takes a value"))?;
        match flag.as_str() {
            "--files" => {
                sizes = value
                    .split(',')
                    .map(|it| it.parse::<usize>().ok().filter(|n| *n >= EDITS))
                    .collect::<Option<Vec<_>>>()
                    .with_context(|| {
                        format!("--files takes sizes of at least {EDITS}, separated by commas")
                    })?
            }
            "--baseline" => baseline = Some(PathBuf::from(value)),
            "--shape" => {
                shapes = match value.as_str() {
                    "layered" => vec![Shape::Layered],
                    "chains" => vec![Shape::Chains],
                    "build-tool" => vec![Shape::BuildTool],
                    _ => bail!("--shape is layered, chains or build-tool"),
                }
            }
            _ => bail!(
                "usage: cargo xtask bench-watch [--files N,N…] [--shape layered|chains|build-tool] [--baseline BIN]"
            ),
        }
    }
    let halite = build_release_halite(&project_root())?;
    let time = Path::new("/usr/bin/time");
    let time = time.is_file().then_some(time);
    println!("cpu: {}", cpu_model());
    println!(
        "{:<8} {:>6} {:>7} | {:>8} {:>7} {:>8} | {:>9} {:>8} {:>8} | {:>7} {:>15} {:>15} {:>15} | {:>9}",
        "shape",
        "files",
        "MB",
        "eval s",
        "B/B",
        "vs base",
        "first ms",
        "edit med",
        "edit max",
        "comment",
        "add med/max",
        "remove med/max",
        "rename med/max",
        "watch B/B"
    );
    for &shape in &shapes {
        for &files in &sizes {
            let row = measure(&halite, time, baseline.as_deref(), shape, files)?;
            println!(
                "{:<8} {:>6} {:>7.2} | {:>8.3} {:>7} {:>8} | {:>9.1} {:>8.2} {:>8.2} | {:>7.2} {:>15} {:>15} {:>15} | {:>9}",
                match shape {
                    Shape::Layered => "layered",
                    Shape::Chains => "chains",
                    Shape::BuildTool => "build",
                },
                files,
                row.bytes as f64 / 1e6,
                row.eval.as_secs_f64(),
                ratio(row.eval_peak, row.bytes),
                row.baseline.map_or_else(
                    || "-".to_string(),
                    |base| format!("{:.2}x", base.as_secs_f64() / row.eval.as_secs_f64())
                ),
                row.first_ms,
                median(&row.edits),
                row.edits.iter().copied().fold(0.0, f64::max),
                row.comment_ms,
                median_and_worst(&row.add_ms),
                median_and_worst(&row.remove_ms),
                median_and_worst(&row.rename_ms),
                ratio(row.watch_peak, row.bytes),
            );
        }
    }
    println!(
        "eval s: cold `halite eval DIR`; B/B: peak resident memory per byte of source; vs base: the baseline's eval time over this one's;"
    );
    println!(
        "first ms: the watcher's first report; edit: {EDITS} one-attribute edits in different files (median, worst), each evaluating exactly its dependents;"
    );
    println!(
        "comment: one; add, remove, rename: {FILE_ROUNDS} each (median/worst); all in ms from the batch's arrival to the output."
    );
    Ok(())
}

/// What one module's run measured.
struct Row {
    bytes: usize,
    eval: Duration,
    eval_peak: Option<u64>,
    baseline: Option<Duration>,
    first_ms: f64,
    edits: Vec<f64>,
    comment_ms: f64,
    add_ms: Vec<f64>,
    remove_ms: Vec<f64>,
    rename_ms: Vec<f64>,
    watch_peak: Option<u64>,
}

fn measure(
    halite: &Path,
    time: Option<&Path>,
    baseline: Option<&Path>,
    shape: Shape,
    files: usize,
) -> anyhow::Result<Row> {
    let module = gen_module::generate_shape(shape, files, 1);
    let temp = tempfile::tempdir().context("a temporary directory")?;
    let dir = temp.path().join("module");
    module.write(&dir).with_context(|| format!("writing {}", dir.display()))?;
    std::fs::remove_file(dir.join("manifest.json")).context("removing the manifest")?;
    let bytes = module.files.iter().map(|(_, text)| text.len()).sum();

    // Alternated, so that a busy moment of the machine falls on both
    // sides; the median time of each, and this build's highest peak.
    let (mut evals, mut baselines, mut eval_peak) = (Vec::new(), Vec::new(), None);
    for _ in 0..EVAL_RUNS {
        let (elapsed, peak) = timed_eval(halite, time, &dir)?;
        evals.push(elapsed.as_secs_f64());
        eval_peak = eval_peak.max(peak);
        if let Some(baseline) = baseline {
            baselines.push(timed_eval(baseline, None, &dir)?.0.as_secs_f64());
        }
    }
    let eval = Duration::from_secs_f64(median(&evals));
    let baseline = baseline.map(|_| Duration::from_secs_f64(median(&baselines)));

    let mut watch = Watch::start(halite, &dir)?;
    let first = watch.next_batch()?;
    let mut edits = Vec::new();
    let step = files / EDITS;
    for k in 0..EDITS {
        let i = k * step + step / 2;
        let edit = gen_module::literal_edit(&module, shape, i, 0);
        let path = dir.join(&edit.file);
        let text = std::fs::read_to_string(&path)?;
        let edited = edit.apply(&text);
        ensure!(edited != text, "the edit of {} found nothing to change", edit.file);
        std::fs::write(&path, edited)?;
        let batch = watch.next_batch()?;
        ensure!(
            batch.reevaluated == edit.expected.len(),
            "editing {} in {} evaluated {} values, not its {} dependents",
            edit.address,
            edit.file,
            batch.reevaluated,
            edit.expected.len()
        );
        // The watcher prints the values that changed: the edited one and
        // dependents only. In the build-tool shape every dependent's value
        // changes, so it prints them all (variables are never printed).
        let printed_all = shape == Shape::BuildTool;
        let expected: Vec<&String> = edit.expected.iter().filter(|it| !it.starts_with("var.")).collect();
        ensure!(
            batch.addresses.contains(&edit.address)
                && batch.addresses.iter().all(|it| edit.expected.contains(it))
                && (!printed_all || batch.addresses.iter().eq(expected.iter().copied())),
            "editing {} in {} reported {:?}, not its dependents {:?}",
            edit.address,
            edit.file,
            batch.addresses,
            expected
        );
        edits.push(batch.elapsed_ms);
    }
    let commented = dir.join(gen_module::file_name(files / 3));
    let text = std::fs::read_to_string(&commented)?;
    std::fs::write(&commented, format!("# A comment.\n{text}"))?;
    let comment = watch.next_batch()?;
    ensure!(comment.reevaluated == 0, "a comment evaluated {} values", comment.reevaluated);

    let (mut add_ms, mut remove_ms, mut rename_ms) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..FILE_ROUNDS {
        let added = dir.join(format!("added{round}.hcl"));
        std::fs::write(
            &added,
            format!(
                "locals {{\n  added{round} = \"new\"\n  added{round}_twice = \"${{local.added{round}}}${{local.added{round}}}\"\n}}\n"
            ),
        )?;
        add_ms.push(watch.next_batch()?.elapsed_ms);
        std::fs::remove_file(&added)?;
        remove_ms.push(watch.next_batch()?.elapsed_ms);
        let renamed = gen_module::file_name(files / 4 + round);
        std::fs::rename(dir.join(&renamed), dir.join(format!("renamed-{renamed}")))?;
        rename_ms.push(watch.next_batch()?.elapsed_ms);
    }
    let watch_peak = watch.peak_kilobytes();
    Ok(Row {
        bytes,
        eval,
        eval_peak,
        baseline,
        first_ms: first.elapsed_ms,
        edits,
        comment_ms: comment.elapsed_ms,
        add_ms,
        remove_ms,
        rename_ms,
        watch_peak,
    })
}

/// The time of a cold `halite eval DIR` and its peak resident memory (in
/// kilobytes, under `/usr/bin/time -f %M` when `time` is given).
fn timed_eval(halite: &Path, time: Option<&Path>, dir: &Path) -> anyhow::Result<(Duration, Option<u64>)> {
    let mut command = match time {
        Some(time) => {
            let mut command = Command::new(time);
            command.args(["-f", "%M"]).arg(halite);
            command
        }
        None => Command::new(halite),
    };
    command.arg("eval").arg(dir).stdout(Stdio::null()).stderr(Stdio::piped());
    let start = Instant::now();
    let output = command.output().with_context(|| format!("running {}", halite.display()))?;
    let elapsed = start.elapsed();
    let peak = time.and_then(|_| {
        let stderr = String::from_utf8_lossy(&output.stderr);
        stderr.lines().last()?.trim().parse().ok()
    });
    Ok((elapsed, peak))
}

/// `kilobytes` of memory per byte of source, shown.
fn ratio(kilobytes: Option<u64>, bytes: usize) -> String {
    kilobytes.map_or_else(|| "-".to_string(), |kb| format!("{:.1}", kb as f64 * 1024.0 / bytes as f64))
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

/// `values`' median and worst, shown.
fn median_and_worst(values: &[f64]) -> String {
    format!("{:.2}/{:.2}", median(values), values.iter().copied().fold(0.0, f64::max))
}

/// The CPU the benchmark ran on, from `/proc/cpuinfo`.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split(':').nth(1))
                .map(|it| it.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

/// A running `halite watch --stats`, killed when dropped.
struct Watch {
    child: Child,
    lines: Receiver<String>,
}

/// What one report says: its statistics line, and the addresses of the
/// values it printed, sorted.
struct Batch {
    addresses: Vec<String>,
    reevaluated: usize,
    elapsed_ms: f64,
}

impl Watch {
    fn start(halite: &Path, dir: &Path) -> anyhow::Result<Watch> {
        let mut child = Command::new(halite)
            .args(["watch", "--stats"])
            .arg(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("running {}", halite.display()))?;
        let stdout = child.stdout.take().context("a piped standard output")?;
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                // Only the statistics and the addresses are read; the values
                // are dropped here, so that the channel holds less.
                let sent = if line.starts_with("{\"batch\"") {
                    sender.send(line)
                } else if let Some(rest) = line.strip_prefix("{\"address\":") {
                    // The address's JSON string alone (a quoted label's
                    // quotes are escaped in it), not the value after it.
                    let address = serde_json::Deserializer::from_str(rest).into_iter::<String>().next();
                    sender.send(address.and_then(Result::ok).unwrap_or_default())
                } else {
                    Ok(())
                };
                if sent.is_err() {
                    break;
                }
            }
        });
        Ok(Watch { child, lines })
    }

    /// The next report's addresses and statistics.
    fn next_batch(&mut self) -> anyhow::Result<Batch> {
        let mut addresses = Vec::new();
        let line = loop {
            let line = self.lines.recv_timeout(TIMEOUT).context("no report from the watcher")?;
            if line.starts_with("{\"batch\"") {
                break line;
            }
            addresses.push(line);
        };
        addresses.sort();
        let number = |key: &str| -> anyhow::Result<f64> {
            let start = line.find(&format!("\"{key}\":")).with_context(|| format!("no {key} in {line}"))?;
            let rest = &line[start + key.len() + 3..];
            let end = rest.find([',', '}']).unwrap_or(rest.len());
            rest[..end].parse().with_context(|| format!("{key} in {line}"))
        };
        Ok(Batch {
            addresses,
            reevaluated: number("reevaluated")? as usize,
            elapsed_ms: number("elapsed_ms")?,
        })
    }

    /// The watcher's peak resident memory, in kilobytes (`VmHWM`).
    fn peak_kilobytes(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
