//! Compares the formatter with reference outputs kept in a parallel folder:
//! `cargo run --release -p fmt --example compare -- INPUTS REFERENCE`.
//!
//! For every file under `INPUTS`, `REFERENCE/<same path>` holds the
//! reference's output (e.g. `hclfmt FILE > REFERENCE/FILE`), or
//! `REFERENCE/<same path>.err` marks a file the reference refused. This is
//! how the rules are checked on real files beyond the corpus: a mismatch
//! prints the first differing line.

use std::{
    fs,
    path::{Path, PathBuf},
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [inputs, reference] = args.as_slice() else {
        eprintln!("usage: compare INPUTS REFERENCE");
        std::process::exit(2);
    };
    let mut files = Vec::new();
    walk(Path::new(inputs), &mut files);
    files.sort();
    let (mut compared, mut same, mut refused_both, mut verdicts_differ) = (0, 0, 0, 0);
    for file in &files {
        let Ok(rel) = file.strip_prefix(inputs) else { continue };
        let Ok(bytes) = fs::read(file) else { continue };
        let Ok(text) = std::str::from_utf8(&bytes) else { continue };
        let reference_refused = reference_path(reference, rel, ".err").exists();
        let ours = fmt::format_text(text);
        match (ours, fs::read_to_string(reference_path(reference, rel, ""))) {
            (Err(_), _) if reference_refused => refused_both += 1,
            (Ok(actual), Ok(expected)) if !reference_refused => {
                compared += 1;
                if actual == expected {
                    same += 1;
                } else {
                    println!("MISMATCH {}", file.display());
                    let first = actual
                        .split_inclusive('\n')
                        .zip(expected.split_inclusive('\n'))
                        .enumerate()
                        .find(|(_, (a, e))| a != e);
                    if let Some((i, (a, e))) = first {
                        println!("  line {}\n  ours: {a:?}\n  ref:  {e:?}", i + 1);
                    }
                }
            }
            (ours, _) => {
                verdicts_differ += 1;
                println!(
                    "VERDICT {} ours ok: {} reference ok: {}",
                    file.display(),
                    ours.is_ok(),
                    !reference_refused
                );
            }
        }
    }
    println!(
        "{same} of {compared} formatted like the reference; {refused_both} refused by both; {verdicts_differ} parse verdicts differ"
    );
}

fn reference_path(reference: &str, rel: &Path, suffix: &str) -> PathBuf {
    let mut path = Path::new(reference).join(rel).into_os_string();
    path.push(suffix);
    PathBuf::from(path)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}
