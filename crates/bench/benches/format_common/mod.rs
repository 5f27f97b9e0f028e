//! The format-throughput measurement both format benchmarks run:
//! `fmt::format_text` beside the reference formatter, Go's
//! `hclwrite.Format`, on the same files in the same run, so that the ratio
//! between them holds even on a noisy machine where absolute figures drift.
//!
//! The reference runs in its own process: `../shared/oracle/bin/gobench fmt
//! DIR ROUNDS` reads every HCL file under `DIR` into memory, formats all of
//! them `ROUNDS` times and prints how long that loop took. Criterion drives
//! it through `iter_custom`, passing its iteration count as `ROUNDS` and
//! taking gobench's own timing, so process start-up and file reading are
//! never counted and both sides get the same statistics. gobench needs a
//! directory, so it is given a temporary one holding exactly the measured
//! files.

use std::{
    fs,
    hint::black_box,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, SystemTime},
};

use benchmarks::{collect_files, corpus_dir, mean_seconds, project_root};
use criterion::{Criterion, SamplingMode, Throughput};

/// File names the reference's gobench reads (it skips any other); Halite's
/// command takes the same endings, `.pkr.hcl` and `.tftest.hcl` included.
const HCL_SUFFIXES: &[&str] = &[".hcl", ".tf", ".tfvars", ".nomad"];

/// The files one format benchmark measures, loaded into memory beforehand
/// so that reading them is not timed.
struct FormatCorpus {
    dir: PathBuf,
    /// The suffix each file is copied under for gobench, and its text.
    files: Vec<(&'static str, String)>,
    bytes: u64,
    /// How the files were picked, for the first line printed.
    selection: String,
}

impl FormatCorpus {
    /// The same directory the parse benchmarks measure (the shared corpus,
    /// else the vendored subset, unless `HALITE_BENCH_CORPUS` names
    /// another), but only the files that parse: formatting is defined on
    /// those alone, and both formatters refuse or mangle the others.
    fn load() -> FormatCorpus {
        let dir = corpus_dir();
        let mut corpus = FormatCorpus { dir, files: Vec::new(), bytes: 0, selection: String::new() };
        match reference_parses(&corpus.dir) {
            // Both corpora carry the reference parser's verdict on every
            // file, so the choice is the reference's, not Halite's.
            Some(paths) => {
                let (mut not_utf8, mut refused) = (0, 0);
                for path in &paths {
                    let Some(text) = read_utf8(&corpus.dir.join(path)) else {
                        not_utf8 += 1;
                        continue;
                    };
                    // Timed all the same if it happens: Halite still did the
                    // work of parsing the file up to its verdict.
                    if fmt::format_text(&text).is_err() {
                        refused += 1;
                    }
                    corpus.push(suffix_of(path), text);
                }
                corpus.selection = format!(
                    "the {} files manifest.tsv says the reference parses ({not_utf8} of them not UTF-8, left out; Halite refuses {refused} of the rest)",
                    paths.len()
                );
            }
            // Another directory has no verdicts: Halite's parser decides.
            None => {
                let mut paths = Vec::new();
                collect_files(&corpus.dir, &mut paths);
                paths.retain(|path| {
                    HCL_SUFFIXES.iter().any(|suffix| path.to_string_lossy().ends_with(suffix))
                });
                // Sorted so that every run formats the files in the same order.
                paths.sort();
                let total = paths.len();
                for path in &paths {
                    if let Some(text) = read_utf8(path)
                        && fmt::format_text(&text).is_ok()
                    {
                        corpus.push(suffix_of(&path.to_string_lossy()), text);
                    }
                }
                corpus.selection = format!(
                    "the HCL files Halite's parser accepts (no manifest.tsv beside the directory): {} of {total}",
                    corpus.files.len()
                );
            }
        }
        assert!(!corpus.files.is_empty(), "no files to benchmark in {}", corpus.dir.display());
        corpus
    }

    fn push(&mut self, suffix: &'static str, text: String) {
        self.bytes += text.len() as u64;
        self.files.push((suffix, text));
    }

    /// Writes the files into a new temporary directory, flat and numbered in
    /// order, for gobench. Flat, because the corpus has files in hidden
    /// directories and files of the same name in different places; the
    /// numbers keep their order, and the suffixes keep them in what gobench
    /// reads.
    fn copy_to_temp_dir(&self) -> tempfile::TempDir {
        let temp = tempfile::Builder::new()
            .prefix("halite-bench-format-")
            .tempdir()
            .expect("creating a temporary directory for the reference's copy of the corpus");
        for (index, (suffix, text)) in self.files.iter().enumerate() {
            let path = temp.path().join(format!("{index:05}{suffix}"));
            fs::write(&path, text).unwrap_or_else(|err| panic!("writing {}: {err}", path.display()));
        }
        temp
    }
}

/// The paths (relative to `input`) of the files `manifest.tsv`, beside
/// `input`, says the reference parses, in the manifest's order; `None` when
/// there is no such manifest.
fn reference_parses(input: &Path) -> Option<Vec<String>> {
    if input.file_name()? != "input" {
        return None;
    }
    let manifest = fs::read_to_string(input.parent()?.join("manifest.tsv")).ok()?;
    let mut lines = manifest.lines();
    let header: Vec<&str> = lines.next()?.split('\t').collect();
    let path_column = header.iter().position(|name| *name == "path")?;
    let parses_column = header.iter().position(|name| *name == "reference_parses")?;
    let paths = lines
        .filter_map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            if fields.get(parses_column) != Some(&"yes") {
                return None;
            }
            fields.get(path_column).map(|path| path.to_string())
        })
        .collect();
    Some(paths)
}

fn read_utf8(path: &Path) -> Option<String> {
    let bytes = fs::read(path).unwrap_or_else(|err| panic!("reading {}: {err}", path.display()));
    String::from_utf8(bytes).ok()
}

/// The HCL suffix `path` ends with; `.hcl` for any other name, which the
/// formatters do not look at.
fn suffix_of(path: &str) -> &'static str {
    HCL_SUFFIXES.iter().find(|suffix| path.ends_with(*suffix)).copied().unwrap_or(".hcl")
}

/// The reference's throughput probe, built by `../shared/oracle/setup.sh`.
fn gobench() -> PathBuf {
    project_root().join("../shared/oracle/bin/gobench")
}

/// Runs `gobench fmt DIR ROUNDS` and returns the time it measured for its
/// formatting loop, after checking that it saw exactly the measured files.
fn run_gobench(gobench: &Path, dir: &Path, rounds: u64, corpus: &FormatCorpus) -> Duration {
    let output = Command::new(gobench)
        .arg("fmt")
        .arg(dir)
        .arg(rounds.to_string())
        .output()
        .unwrap_or_else(|err| panic!("running {}: {err}", gobench.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{} fmt {} {rounds} failed ({}): {stdout}{}",
        gobench.display(),
        dir.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // One line of `key=value` fields:
    // `op=fmt files=N bytes=N rounds=N seconds=S.sss MBps=M.m errors=N`.
    let field = |key: &str| {
        stdout
            .split_whitespace()
            .find_map(|field| field.strip_prefix(key)?.strip_prefix('='))
            .unwrap_or_else(|| panic!("no `{key}=` in gobench's output: {stdout}"))
    };
    let files: usize = field("files").parse().expect("gobench's files= is a number");
    let bytes: u64 = field("bytes").parse().expect("gobench's bytes= is a number");
    assert!(
        files == corpus.files.len() && bytes == corpus.bytes,
        "gobench formatted {files} files, {bytes} bytes, but the benchmark measures {} files, {} bytes",
        corpus.files.len(),
        corpus.bytes
    );
    let seconds: f64 = field("seconds").parse().expect("gobench's seconds= is a number");
    Duration::from_secs_f64(seconds)
}

/// Runs the comparison as criterion group `group_id`; `allocator` says which
/// allocator the target installed, for the summary line.
pub fn format_throughput(c: &mut Criterion, group_id: &str, allocator: &str) {
    let started = SystemTime::now();
    let corpus = FormatCorpus::load();
    eprintln!(
        "corpus: {} files, {:.2} MB from {}: {}",
        corpus.files.len(),
        corpus.bytes as f64 / 1e6,
        corpus.dir.display(),
        corpus.selection
    );
    let gobench = gobench();
    let reference_dir = gobench.is_file().then(|| corpus.copy_to_temp_dir());
    if reference_dir.is_none() {
        eprintln!(
            "reference: {} is missing (build it with `bash ../shared/oracle/setup.sh`); measuring Halite alone",
            gobench.display()
        );
    }

    let mut group = c.benchmark_group(group_id);
    // One iteration formats every file, so throughput is the corpus's bytes
    // per iteration and criterion reports it in bytes per second.
    group.throughput(Throughput::Bytes(corpus.bytes));
    // One iteration of the reference takes most of a second: linear
    // sampling would ask for 55 of them. Flat sampling keeps the run short
    // (criterion then warns that it could not fit 10 samples in the
    // measurement time, which is expected) and is used for both sides, so
    // that they are measured alike.
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function("halite", |b| {
        b.iter(|| {
            for (_, text) in &corpus.files {
                let _ = black_box(fmt::format_text(black_box(text)));
            }
        })
    });
    if let Some(dir) = &reference_dir {
        group.bench_function("reference", |b| {
            b.iter_custom(|rounds| run_gobench(&gobench, dir.path(), rounds, &corpus))
        });
    }
    group.finish();

    // MiB, as criterion's own throughput lines count them, on both sides.
    let mib_per_s = |seconds: f64| corpus.bytes as f64 / seconds / (1024.0 * 1024.0);
    let halite = mean_seconds(group_id, "halite", started);
    let reference = mean_seconds(group_id, "reference", started);
    match (halite, reference) {
        (Some(halite), Some(reference)) => eprintln!(
            "{group_id} ({allocator}): halite {:.1} MiB/s, reference {:.1} MiB/s: halite is {:.2}x the reference (target: at least 4x)",
            mib_per_s(halite),
            mib_per_s(reference),
            reference / halite
        ),
        (Some(halite), None) if reference_dir.is_none() => eprintln!(
            "{group_id} ({allocator}): halite {:.1} MiB/s; the reference was not measured (no gobench)",
            mib_per_s(halite)
        ),
        // A filtered or test-mode run: criterion's own lines say what it did.
        _ => {}
    }
}
