//! The module benchmark: cold load-and-evaluate of a synthetic module, and
//! the time and number of re-evaluated attributes after a one-attribute edit
//! and after a whitespace edit, for 100, 1,000 and 10,000 files.
//!
//! ```sh
//! cargo bench -p benchmarks --bench module
//! HALITE_MODULE_SIZES=100,1000 cargo bench -p benchmarks --bench module
//! ```
//!
//! The modules are those of `cargo xtask gen-module` (the generator's source
//! is included here), written to `target/bench-module/N/` and opened from
//! disk through the library API, as an embedding build tool would. Each
//! size runs in a child process of its own, so that its peak memory (the
//! kernel's `VmHWM`) is its own.
//!
//! The number of re-evaluated attributes comes from salsa's execution
//! events (`attribute_value` queries run by [`halite::Workspace::apply_logged`]),
//! in a separate run from the timed ones, since recording events costs
//! time. It is compared with the dependents the generator computed from the
//! graph it wrote, by a walk of that graph rather than by evaluation, and
//! the program fails if they differ. Timings are never asserted; the counts
//! are also checked by `crates/halite/tests/module_incremental.rs`.

#[path = "../../../xtask/src/gen_module.rs"]
mod gen_module;

use std::{
    collections::BTreeSet,
    process::Command,
    time::{Duration, Instant},
};

use halite::{Change, Utf8PathBuf, Workspace};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How many times each edit (and its revert) is timed, unless
/// `HALITE_MODULE_BENCH_RUNS` says (more runs, for a profiler).
const EDIT_RUNS: usize = 21;

const CHILD_VARIABLE: &str = "HALITE_MODULE_BENCH_FILES";

fn main() {
    if let Ok(files) = std::env::var(CHILD_VARIABLE) {
        let files: usize = files.parse().expect("a number of files");
        run(files);
        return;
    }
    // `cargo test --benches` runs benchmarks once as tests: a small module
    // then, so that the check of the counts runs without the wait.
    let testing = std::env::args().any(|arg| arg == "--test");
    let sizes = std::env::var("HALITE_MODULE_SIZES")
        .unwrap_or_else(|_| if testing { "100".to_string() } else { "100,1000,10000".to_string() });
    println!(
        "{:>6} {:>6} {:>10} {:>11} | {:>10} | {:>9} {:>9} {:>9} {:>9} {:>9} | {:>9} {:>9} | {:>8}",
        "files",
        "MB",
        "load",
        "evaluate",
        "1st edit",
        "edit med",
        "edit min",
        "edit max",
        "evaluated",
        "expected",
        "ws med",
        "evaluated",
        "peak MB"
    );
    let exe = std::env::current_exe().expect("the benchmark's own path");
    for size in sizes.split(',').map(str::trim).filter(|it| !it.is_empty()) {
        let status = Command::new(&exe).env(CHILD_VARIABLE, size).status().expect("the child runs");
        assert!(status.success(), "the run with {size} files failed");
    }
}

/// One size: generate, load, evaluate, edit; print one line.
fn run(files: usize) {
    let module = gen_module::generate(files, 1);
    let dir =
        Utf8PathBuf::from_path_buf(benchmarks::project_root().join(format!("target/bench-module/{files}")))
            .expect("a UTF-8 path");
    // Leftovers of a run with more files must not join the module.
    let _ = std::fs::remove_dir_all(&dir);
    module.write(dir.as_std_path()).expect("the module is written");
    let bytes: usize = module.files.iter().map(|(_, text)| text.len()).sum();

    let start = Instant::now();
    let mut workspace = Workspace::open(&dir).expect("the module opens");
    let load = start.elapsed();
    let start = Instant::now();
    let values = workspace.values();
    let evaluate = start.elapsed();
    let failed: Vec<String> = values
        .iter()
        .filter_map(|(address, value)| value.as_ref().err().map(|error| format!("{address}: {error}")))
        .take(5)
        .collect();
    assert!(failed.is_empty(), "the generated module has errors: {failed:?}");
    drop(values);

    let (edit_times, evaluated) = edits(&mut workspace, &dir, &module, &module.edit);
    let expected = module.edit.expected.len();
    assert_eq!(
        evaluated,
        module.edit.expected.iter().cloned().collect::<BTreeSet<_>>(),
        "the one-attribute edit evaluated other attributes than its dependents"
    );
    let (whitespace_times, whitespace_evaluated) =
        edits(&mut workspace, &dir, &module, &module.whitespace_edit);
    assert!(whitespace_evaluated.is_empty(), "the whitespace edit evaluated {whitespace_evaluated:?}");

    // The first edit of a file lowers its durability (see
    // `Workspace::apply`), which costs one walk of the whole module; the
    // others are the steady state of a watch loop.
    let (first_edit, edit_times) =
        edit_times.split_first().map(|(first, rest)| (*first, rest)).unwrap_or_default();
    println!(
        "{:>6} {:>6.2} {:>10} {:>11} | {:>10} | {:>9} {:>9} {:>9} {:>9} {:>9} | {:>9} {:>9} | {:>8.1}",
        files,
        bytes as f64 / 1e6,
        millis(load),
        millis(evaluate),
        millis(first_edit),
        millis(median(edit_times)),
        millis(edit_times.iter().copied().min().unwrap_or_default()),
        millis(edit_times.iter().copied().max().unwrap_or_default()),
        evaluated.len(),
        expected,
        millis(median(whitespace_times.get(1..).unwrap_or_default())),
        whitespace_evaluated.len(),
        peak_memory_bytes() as f64 / 1e6,
    );
}

/// Times the edit and its revert [`EDIT_RUNS`] times each (both are edits
/// of the same kind), then makes it once more with salsa's events recorded
/// and returns the addresses whose values were evaluated.
fn edits(
    workspace: &mut Workspace,
    dir: &Utf8PathBuf,
    module: &gen_module::GeneratedModule,
    edit: &gen_module::GeneratedEdit,
) -> (Vec<Duration>, BTreeSet<String>) {
    let path = dir.join(&edit.file);
    let original = &module.files.iter().find(|(name, _)| *name == edit.file).expect("the edited file").1;
    let edited = edit.apply(original);
    let runs = std::env::var("HALITE_MODULE_BENCH_RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(EDIT_RUNS);
    let mut times = Vec::with_capacity(runs * 2);
    for _ in 0..runs {
        for text in [&edited, original] {
            let change = set_file(&path, text);
            let start = Instant::now();
            let changed = workspace.apply(change);
            times.push(start.elapsed());
            std::hint::black_box(changed);
        }
    }
    let (_, executed) = workspace.apply_logged(set_file(&path, &edited));
    workspace.apply(set_file(&path, original));
    let evaluated = executed
        .iter()
        .filter_map(|query| query.strip_prefix("attribute_value(")?.strip_suffix(')'))
        .map(str::to_string)
        .collect();
    (times, evaluated)
}

fn set_file(path: &Utf8PathBuf, text: &str) -> Change {
    let mut change = Change::new();
    change.set_file_text(path.clone(), text);
    change
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

fn millis(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

/// The process's peak resident memory (`VmHWM`), or 0 where there is no
/// `/proc`.
fn peak_memory_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.trim().strip_suffix("kB"))
        .and_then(|kb| kb.trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}
