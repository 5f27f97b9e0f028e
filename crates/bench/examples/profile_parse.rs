//! Parses the corpus in a loop, for a profiler rather than a stopwatch:
//!
//! ```sh
//! cargo build --release -p benchmarks --example profile_parse
//! perf record -g target/release/examples/profile_parse 5
//! perf report
//! ```
//!
//! The argument is the number of rounds over the corpus (default 5); the
//! throughput it prints is a rough guide only — `cargo bench -p benchmarks`
//! measures, beside hcl-edit.

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|arg| arg.parse().ok()).unwrap_or(5);
    let corpus = benchmarks::Corpus::load();
    let started = std::time::Instant::now();
    let mut errors = 0;
    for _ in 0..rounds {
        for file in &corpus.files {
            errors += syntax::parse(file).errors().len();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let megabytes = (corpus.bytes as f64 * rounds as f64) / 1e6;
    println!(
        "{} files, {rounds} rounds: {:.1} MB/s ({errors} errors in all)",
        corpus.files.len(),
        megabytes / seconds
    );
}
