//! The parse-throughput measurement both parse benchmarks run: `syntax::parse`
//! beside hcl-edit's `parse_body` on the same files, in the same run, so that
//! the ratio between them holds even on a noisy machine where absolute
//! figures drift. Each benchmark target picks the global allocator, which
//! both parsers then share.

use std::{hint::black_box, time::SystemTime};

use benchmarks::{Corpus, mean_seconds};
use criterion::{Criterion, Throughput};

/// The size of the generated file measured beside the corpus.
const LARGE_FILE_BYTES: usize = 8 << 20;

/// Runs the comparison as criterion groups `group_name` (the corpus) and
/// `group_name-large` (one generated large file); `allocator` says which
/// allocator the target installed, for the summary lines.
pub fn parse_throughput(c: &mut Criterion, group_name: &str, allocator: &str) {
    let started = SystemTime::now();
    let corpus = Corpus::load();
    eprintln!(
        "corpus: {} files, {:.2} MB from {} ({} not UTF-8, left out)",
        corpus.files.len(),
        corpus.bytes as f64 / 1e6,
        corpus.dir.display(),
        corpus.skipped
    );
    let large = vec![benchmarks::generated_file(LARGE_FILE_BYTES)];
    let large_bytes = large[0].len() as u64;
    assert!(syntax::parse(&large[0]).ok(), "the generated file has syntax errors");
    assert!(hcl_edit::parser::parse_body(&large[0]).is_ok(), "hcl-edit rejects the generated file");
    eprintln!("generated file: {:.2} MB", large_bytes as f64 / 1e6);

    let large_group = format!("{group_name}-large");
    let mut summaries = Vec::new();
    for (group_id, files, bytes, what) in [
        (group_name, &corpus.files, corpus.bytes, "corpus"),
        (large_group.as_str(), &large, large_bytes, "generated large file"),
    ] {
        measure(c, group_id, files, bytes);
        let halite = mean_seconds(group_id, "halite", started);
        let hcl_edit = mean_seconds(group_id, "hcl-edit", started);
        if let (Some(halite), Some(hcl_edit)) = (halite, hcl_edit) {
            // MiB, as criterion's own throughput lines count them.
            let mib_per_s = |seconds: f64| bytes as f64 / seconds / (1024.0 * 1024.0);
            summaries.push(format!(
                "{group_id} ({allocator}, {what}): halite {:.1} MiB/s, hcl-edit {:.1} MiB/s: halite is {:.2}x hcl-edit (target: at least 2x)",
                mib_per_s(halite),
                mib_per_s(hcl_edit),
                hcl_edit / halite
            ));
        }
    }
    if !summaries.is_empty() {
        eprintln!("CPU: {}", benchmarks::cpu_model());
        for summary in summaries {
            eprintln!("{summary}");
        }
    }
}

/// Times `syntax::parse` and hcl-edit's `parse_body` over `files` as
/// criterion group `group_id`.
fn measure(c: &mut Criterion, group_id: &str, files: &[String], bytes: u64) {
    let mut group = c.benchmark_group(group_id);
    // One iteration parses every file, so throughput is the files' bytes
    // per iteration and criterion reports it in bytes per second.
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("halite", |b| {
        b.iter(|| {
            for text in files {
                black_box(syntax::parse(black_box(text)));
            }
        })
    });
    group.bench_function("hcl-edit", |b| {
        b.iter(|| {
            for text in files {
                // Files hcl-edit rejects are timed too: it still does the
                // work of reading them up to the error, and leaving them out
                // would measure it on a different set of files than Halite.
                let _ = black_box(hcl_edit::parser::parse_body(black_box(text)));
            }
        })
    });
    group.finish();
}
