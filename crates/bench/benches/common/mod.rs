//! The parse-throughput measurement both parse benchmarks run: `syntax::parse`
//! beside hcl-edit's `parse_body` on the same files, in the same run, so that
//! the ratio between them holds even on a noisy machine where absolute
//! figures drift. Each benchmark target picks the global allocator, which
//! both parsers then share.

use std::{hint::black_box, time::SystemTime};

use benchmarks::{Corpus, mean_seconds};
use criterion::{Criterion, Throughput};

/// Runs the comparison as criterion group `group`; `allocator` says which
/// allocator the target installed, for the summary line.
pub fn parse_throughput(c: &mut Criterion, group_name: &str, allocator: &str) {
    let group_id = group_name;
    let started = SystemTime::now();
    let corpus = Corpus::load();
    eprintln!(
        "corpus: {} files, {:.2} MB from {} ({} not UTF-8, left out)",
        corpus.files.len(),
        corpus.bytes as f64 / 1e6,
        corpus.dir.display(),
        corpus.skipped
    );

    let mut group = c.benchmark_group(group_id);
    // One iteration parses every file, so throughput is the corpus's bytes
    // per iteration and criterion reports it in bytes per second.
    group.throughput(Throughput::Bytes(corpus.bytes));
    group.bench_function("halite", |b| {
        b.iter(|| {
            for text in &corpus.files {
                black_box(syntax::parse(black_box(text)));
            }
        })
    });
    group.bench_function("hcl-edit", |b| {
        b.iter(|| {
            for text in &corpus.files {
                // Files hcl-edit rejects are timed too: it still does the
                // work of reading them up to the error, and leaving them out
                // would measure it on a different set of files than Halite.
                let _ = black_box(hcl_edit::parser::parse_body(black_box(text)));
            }
        })
    });
    group.finish();

    let halite = mean_seconds(group_id, "halite", started);
    let hcl_edit = mean_seconds(group_id, "hcl-edit", started);
    if let (Some(halite), Some(hcl_edit)) = (halite, hcl_edit) {
        // MiB, as criterion's own throughput lines count them.
        let mib_per_s = |seconds: f64| corpus.bytes as f64 / seconds / (1024.0 * 1024.0);
        eprintln!(
            "{group_id} ({allocator}): halite {:.1} MiB/s, hcl-edit {:.1} MiB/s: halite is {:.2}x hcl-edit (target: at least 2x)",
            mib_per_s(halite),
            mib_per_s(hcl_edit),
            hcl_edit / halite
        );
    }
}
