//! `cargo xtask bench-cache [--runs N] [--files N] [--halite BIN]`: `halite check` with
//! its result cache, cold and warm, over a copy of `../shared/corpus/input`
//! with a generated module beside it (`gen-module`, 1,000 files unless
//! `--files` says otherwise), all under a temporary directory.
//!
//! It times, each the median of N runs (5 unless `--runs` says otherwise):
//! a run without the cache (`--no-cache`); a cold run (a new cache
//! directory, so every unit is checked and written); a warm run with
//! nothing changed; and warm runs after one file changed, each time
//! another way (a `locals` block appended that reads a local it does not
//! declare: a new diagnostic in every run), of two kinds: a file of a
//! module no other calls (an example of `terraform-aws-iam`), and
//! `terraform-aws-eks/main.tf`, whose module nine others call, so that
//! their entries are looked up again (they hold: the edit leaves what the
//! module declares for callers as it was). Every run's output is compared byte for
//! byte with the run without the cache over the same files, in the JSON
//! and the human formats, and the figures are printed with the ratio of
//! the cold run to each warm run after one change (the target is at least
//! 20x). `--halite BIN` times that executable (another build, to compare)
//! rather than the release build of this tree.

use std::{
    process::Command,
    time::{Duration, Instant},
};

use anyhow::{Context, bail, ensure};

use crate::project_root;

/// The files the warm runs change, under the copy of the corpus: one of a
/// module nothing calls, one of a module nine others call.
const EDITED_LEAF: &str = "corpus/terraform-aws-modules__terraform-aws-iam/examples/iam-role/main.tf";
const EDITED_CALLED: &str = "corpus/terraform-aws-modules__terraform-aws-eks/main.tf";

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let (mut runs, mut generated_files, mut given_halite) = (5usize, 1000usize, None);
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().with_context(|| format!("{flag} takes a value"))?;
        if flag == "--halite" {
            given_halite = Some(std::path::PathBuf::from(value));
            continue;
        }
        let number: usize = value.parse().ok().filter(|n| *n > 0).context("a positive number")?;
        match flag.as_str() {
            "--runs" => runs = number,
            "--files" => generated_files = number,
            _ => bail!("usage: cargo xtask bench-cache [--runs N] [--files N] [--halite BIN]"),
        }
    }
    let root = project_root();
    let corpus = root.join("../shared/corpus/input");
    let corpus = corpus.canonicalize().with_context(|| format!("no corpus at {}", corpus.display()))?;
    let halite = match given_halite {
        Some(halite) => {
            halite.canonicalize().with_context(|| format!("no executable at {}", halite.display()))?
        }
        None => crate::bench::build_release_halite(&root)?,
    };

    let scratch = tempfile::Builder::new().prefix("halite-bench-cache").tempdir()?;
    let tree = scratch.path().join("tree");
    crate::copy_tree(&corpus, &tree.join("corpus"))?;
    crate::gen_module::generate(generated_files, 1).write(&tree.join("generated"))?;
    for edited in [EDITED_LEAF, EDITED_CALLED] {
        ensure!(tree.join(edited).is_file(), "the corpus has no {edited}");
    }
    let cache = scratch.path().join("cache");
    println!(
        "tree: {} (a copy of {}) and a generated module of {generated_files} files",
        tree.display(),
        corpus.display()
    );

    // Each run's wall time, processor time (user and system, all threads)
    // and peak resident memory; the processor time is steadier on a
    // machine that other work shares.
    let halite_run = |format: &str, cache_args: &[&str]| -> anyhow::Result<(Measured, Vec<u8>)> {
        let mut command = Command::new("/usr/bin/time");
        command
            .args(["-f", "%U %S %M"])
            .arg(&halite)
            .args(["check", "--format", format])
            .args(cache_args)
            .arg(".")
            .current_dir(&tree);
        let started = Instant::now();
        let output = command.output().context("running halite check under /usr/bin/time")?;
        let elapsed = started.elapsed();
        ensure!(
            matches!(output.status.code(), Some(0 | 1)),
            "halite check failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or_default();
        let fields: Vec<&str> = last.split_whitespace().collect();
        let [user, system, peak] = fields[..] else { bail!("no times in {last:?}") };
        let seconds = |field: &str| field.parse::<f64>().map(Duration::from_secs_f64);
        let measured = Measured {
            wall: elapsed,
            processor: seconds(user)? + seconds(system)?,
            peak_kib: peak.parse().context("no peak memory")?,
        };
        Ok((measured, output.stdout))
    };
    let cache_dir = cache.to_str().context("a UTF-8 temporary directory")?;
    let with_cache = ["--cache-dir", cache_dir];

    // The reference output of each format, and the page cache warmed.
    let expected = |format: &str| halite_run(format, &["--no-cache"]).map(|(_, output)| output);
    let (expected_json, expected_human) = (expected("json")?, expected("human")?);

    let mut timings: Vec<(&str, Vec<Measured>)> = Vec::new();
    let mut time = |name: &'static str, run: &mut dyn FnMut() -> anyhow::Result<Measured>| {
        let measured = (0..runs).map(|_| run()).collect::<anyhow::Result<Vec<_>>>()?;
        timings.push((name, measured));
        anyhow::Ok(())
    };
    let same = |output: &[u8], expected: &[u8], what: &str| {
        ensure!(output == expected, "{what}: the output differs from the run without the cache");
        Ok(())
    };

    time("--no-cache", &mut || {
        let (measured, output) = halite_run("json", &["--no-cache"])?;
        same(&output, &expected_json, "--no-cache")?;
        Ok(measured)
    })?;
    // Each cold run in a new directory: files created where as many were
    // just removed cost the file system more than a first run pays.
    let mut cold_runs = 0;
    time("cold (empty cache)", &mut || {
        cold_runs += 1;
        let cold = scratch.path().join(format!("cold-{cold_runs}"));
        let cold = cold.to_str().context("a UTF-8 temporary directory")?;
        let (measured, output) = halite_run("json", &["--cache-dir", cold])?;
        same(&output, &expected_json, "cold")?;
        Ok(measured)
    })?;
    // Each format read back from the cache as it was written.
    same(&halite_run("human", &with_cache)?.1, &expected_human, "warm, human format")?;
    same(&halite_run("json", &with_cache)?.1, &expected_json, "warm, JSON format")?;
    time("warm, nothing changed", &mut || {
        let (measured, output) = halite_run("json", &with_cache)?;
        same(&output, &expected_json, "warm")?;
        Ok(measured)
    })?;
    // The cold runs' caches, no longer needed.
    for run in 1..=cold_runs {
        let _ = std::fs::remove_dir_all(scratch.path().join(format!("cold-{run}")));
    }
    let mut round = 0;
    for (name, edited) in
        [("warm, a leaf module edited", EDITED_LEAF), ("warm, a called module edited", EDITED_CALLED)]
    {
        let edited = tree.join(edited);
        let original = std::fs::read(&edited)?;
        time(name, &mut || {
            round += 1;
            let mut text = original.clone();
            text.extend_from_slice(
                format!("\nlocals {{\n  bench_edit_{round} = local.undeclared_{round}\n}}\n").as_bytes(),
            );
            std::fs::write(&edited, &text)?;
            let (measured, output) = halite_run("json", &with_cache)?;
            let expected = halite_run("json", &["--no-cache"])?.1;
            same(&output, &expected, "warm after one change")?;
            ensure!(output != expected_json, "the edit changed no diagnostic");
            Ok(measured)
        })?;
        std::fs::write(&edited, &original)?;
        // The cache as it was before the edit, for the next kind.
        halite_run("json", &with_cache)?;
    }

    println!(
        "halite check --format json . (medians of {runs} runs): wall, processor (user + system), peak memory"
    );
    let mut medians = Vec::new();
    for (name, measured) in &timings {
        let wall = median(&mut measured.iter().map(|it| it.wall).collect::<Vec<_>>());
        let processor = median(&mut measured.iter().map(|it| it.processor).collect::<Vec<_>>());
        let peak = median(&mut measured.iter().map(|it| it.peak_kib).collect::<Vec<_>>());
        println!(
            "  {name:<30} {:>8.3} s {:>8.3} s {:>6.0} MB",
            wall.as_secs_f64(),
            processor.as_secs_f64(),
            peak as f64 / 1024.0
        );
        medians.push((wall, processor));
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    for (kind, (warm_wall, warm_processor)) in
        [("a leaf module", medians[3]), ("a called module", medians[4])]
    {
        println!(
            "cold / warm after one change in {kind}: {:.1}x wall, {:.1}x processor ({:.1}x and {:.1}x against --no-cache); target: at least 20x",
            ratio(medians[1].0, warm_wall),
            ratio(medians[1].1, warm_processor),
            ratio(medians[0].0, warm_wall),
            ratio(medians[0].1, warm_processor)
        );
    }
    println!("every run's output equals the run without the cache, byte for byte (JSON; human once)");
    Ok(())
}

/// What one run took.
struct Measured {
    wall: Duration,
    processor: Duration,
    peak_kib: u64,
}

/// The middle of the sorted values (the upper middle of an even count).
fn median<T: Ord + Copy>(values: &mut [T]) -> T {
    values.sort();
    values[values.len() / 2]
}
