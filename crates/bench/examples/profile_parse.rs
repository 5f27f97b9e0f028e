//! Parses the corpus in a loop, for a profiler rather than a stopwatch:
//!
//! ```sh
//! cargo build --release -p benchmarks --example profile_parse
//! perf record -g target/release/examples/profile_parse 5
//! perf report
//! valgrind --tool=callgrind target/release/examples/profile_parse 1
//! valgrind --tool=callgrind target/release/examples/profile_parse 1 hcl-edit
//! ```
//!
//! The first argument is the number of rounds over the corpus (default 5);
//! the second, `hcl-edit`, parses with hcl-edit instead of Halite, so that
//! the two instruction counts callgrind reports compare the parsers on any
//! machine (the corpus loading both runs share is small beside them). The
//! throughput it prints is a rough guide only — `cargo bench -p benchmarks`
//! measures, beside hcl-edit.

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|arg| arg.parse().ok()).unwrap_or(5);
    let hcl_edit = std::env::args().nth(2).is_some_and(|arg| arg == "hcl-edit");
    let corpus = benchmarks::Corpus::load();
    let started = std::time::Instant::now();
    let mut errors = 0;
    for _ in 0..rounds {
        for file in &corpus.files {
            if hcl_edit {
                errors += usize::from(hcl_edit::parser::parse_body(file).is_err());
            } else {
                errors += syntax::parse(file).errors().len();
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let megabytes = (corpus.bytes as f64 * rounds as f64) / 1e6;
    println!(
        "{} files, {rounds} rounds, {}: {:.1} MB/s ({errors} errors in all)",
        corpus.files.len(),
        if hcl_edit { "hcl-edit" } else { "halite" },
        megabytes / seconds
    );
}
