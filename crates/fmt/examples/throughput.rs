//! Formatting throughput over a folder, in the shape of the reference's
//! `gobench fmt DIR [ROUNDS]` so the two figures compare directly:
//! `cargo run --release -p fmt --example throughput -- DIR [ROUNDS]`.
//!
//! It reads every file under `DIR` that is UTF-8, then times, over `ROUNDS`
//! rounds on one thread, formatting already parsed trees (`format_tree`),
//! the same in Terraform's style (`format_tree_in`, its rewrites included),
//! and parsing plus formatting (`format_text`, which is what the reference's
//! `hclwrite.Format` does: it scans the text itself). Figures are MB of
//! source per second of wall time.

use std::{fs, path::Path, time::Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: throughput DIR [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5);
    let mut texts = Vec::new();
    walk(Path::new(dir), &mut texts);
    let total: usize = texts.iter().map(String::len).sum();
    let trees: Vec<_> = texts.iter().map(|t| syntax::parse(t).syntax_node()).collect();

    let started = Instant::now();
    let mut out_bytes = 0;
    for _ in 0..rounds {
        for tree in &trees {
            out_bytes += fmt::format_tree(tree).len();
        }
    }
    let tree_secs = started.elapsed().as_secs_f64();

    let started = Instant::now();
    for _ in 0..rounds {
        for tree in &trees {
            out_bytes += fmt::format_tree_in(tree, fmt::Style::Terraform).len();
        }
    }
    let terraform_secs = started.elapsed().as_secs_f64();

    let started = Instant::now();
    for _ in 0..rounds {
        for text in &texts {
            out_bytes += fmt::format_text(text).map_or(0, |s| s.len());
        }
    }
    let text_secs = started.elapsed().as_secs_f64();

    let mb = (total * rounds) as f64 / 1e6;
    println!(
        "files={} bytes={total} rounds={rounds} format_tree MBps={:.1} terraform MBps={:.1} parse+format MBps={:.1} \
         (output {out_bytes} bytes)",
        texts.len(),
        mb / tree_secs,
        mb / terraform_secs,
        mb / text_secs
    );
}

fn walk(dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out);
        } else if let Ok(text) = fs::read_to_string(&path) {
            out.push(text);
        }
    }
}
