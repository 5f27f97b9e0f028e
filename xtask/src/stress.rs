//! `cargo xtask stress`: the hostile inputs of the reliability issue, each
//! run through the release `halite` under a time and a memory bound.
//!
//! Every case writes its input to a temporary directory (deep nesting,
//! values that explode, long reference cycles, millions of names, floods of
//! errors, huge flat files, numbers with millions of digits, an endless
//! input, a file past the size limit), runs one command on it, and passes
//! when the command ends by itself within the bounds (10 s and 1 GiB of
//! resident memory unless `--time`/`--memory` say otherwise) with the exit
//! status and the text the case expects: a diagnostic naming the problem,
//! or a result. A process is killed as soon as it passes a bound. Time and
//! peak memory (`VmHWM`, read from `/proc` while the process runs) are
//! printed for each case; the bounds are what is asserted, so a busy
//! machine only matters near them.
//!
//! Linux only (`/proc`). The small versions of these inputs are regression
//! tests in the normal suite; these are the sizes that used to crash or hang.

use std::{
    fs,
    io::Read as _,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, bail};

use crate::{bench::build_release_halite, project_root};

pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let mut bounds = Bounds { time: Duration::from_secs(10), memory_kib: 1024 * 1024 };
    let mut only: Option<String> = None;
    let mut halite: Option<PathBuf> = None;
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args.next().with_context(|| format!("{flag} takes a value"))?;
        match flag.as_str() {
            "--only" => only = Some(value.clone()),
            "--bin" => halite = Some(PathBuf::from(value)),
            "--time" => bounds.time = Duration::from_secs(value.parse().context("--time takes seconds")?),
            "--memory" => bounds.memory_kib = value.parse::<u64>().context("--memory takes MiB")? * 1024,
            _ => bail!(
                "usage: cargo xtask stress [--only SUBSTRING] [--bin HALITE] [--time SECONDS] [--memory MIB]"
            ),
        }
    }
    let halite = match halite {
        // The cases run in scratch directories: a relative path would not hold.
        Some(halite) => {
            fs::canonicalize(&halite).with_context(|| format!("no binary at {}", halite.display()))?
        }
        None => build_release_halite(&project_root())?,
    };
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|case| only.as_deref().is_none_or(|only| case.name.contains(only)))
        .collect();
    println!(
        "{} cases, each bounded to {} s and {} MiB\n{:<34} {:>8} {:>9} {:>5}  verdict",
        cases.len(),
        bounds.time.as_secs(),
        bounds.memory_kib / 1024,
        "case",
        "seconds",
        "peak MiB",
        "exit"
    );
    let mut failures = Vec::new();
    for case in &cases {
        let scratch = tempfile::tempdir().context("a temporary directory")?;
        (case.input)(scratch.path()).with_context(|| format!("writing the input of {}", case.name))?;
        let outcome = run_case(&halite, case, scratch.path(), bounds)?;
        let verdict = outcome.verdict(case, bounds);
        println!(
            "{:<34} {:>8.2} {:>9.1} {:>5}  {}",
            case.name,
            outcome.elapsed.as_secs_f64(),
            outcome.peak_kib as f64 / 1024.0,
            outcome.status.map_or_else(|| "-".to_string(), |code| code.to_string()),
            verdict.as_deref().unwrap_or("ok")
        );
        if let Some(verdict) = verdict {
            failures.push(format!("{}: {verdict}", case.name));
        }
    }
    if !failures.is_empty() {
        bail!("{} of {} stress cases failed:\n  {}", failures.len(), cases.len(), failures.join("\n  "));
    }
    println!("all {} stress cases ended within the bounds", cases.len());
    Ok(())
}

#[derive(Clone, Copy)]
struct Bounds {
    time: Duration,
    memory_kib: u64,
}

/// One hostile input and what `halite` must make of it.
struct Case {
    name: &'static str,
    /// Writes the input into the scratch directory.
    input: fn(&Path) -> std::io::Result<()>,
    /// The command line, `{}` standing for the scratch directory.
    args: &'static [&'static str],
    /// Exit statuses that count as an answer.
    statuses: &'static [i32],
    /// Text that must appear in the standard output or error (the
    /// diagnostic's code or the result).
    expect: &'static str,
    /// For `watch`: the process never ends by itself, so the case ends when
    /// this text appears (the first report's statistics) and is then killed.
    until: Option<&'static str>,
}

/// A case that ends by itself.
const fn case(
    name: &'static str,
    input: fn(&Path) -> std::io::Result<()>,
    args: &'static [&'static str],
    statuses: &'static [i32],
    expect: &'static str,
) -> Case {
    Case { name, input, args, statuses, expect, until: None }
}

fn cases() -> Vec<Case> {
    // A result, or diagnostics about the input.
    const ANSWERED: &[i32] = &[0, 1];
    vec![
        case(
            "check: 1M unary `!`",
            |dir| unary(dir, "a = ", "!", "true"),
            &["check", "{}/a.hcl"],
            &[1],
            "nesting-too-deep",
        ),
        case(
            "eval: 1M unary `-`",
            |dir| unary(dir, "a = ", "-", "1"),
            &["eval", "{}/a.hcl"],
            &[1],
            "Nesting too deep",
        ),
        case(
            "fmt: 1M unary `!` in a template",
            |dir| unary(dir, "a = \"${", "!", "true}\""),
            &["fmt", "--check", "{}/a.hcl"],
            &[2],
            "nesting-too-deep",
        ),
        case(
            "parse: 1M unary in `for … if`",
            |dir| unary(dir, "a = [for x in y: x if ", "!", "true]"),
            &["parse", "{}/a.hcl"],
            &[1],
            "Nesting too deep",
        ),
        case(
            "dec: 1M unary `!`",
            |dir| {
                write(dir, "spec.hcldec", "object {\n  attr \"a\" {\n    type = any\n  }\n}\n".to_string())?;
                unary(dir, "a = ", "!", "true")
            },
            &["dec", "--spec", "{}/spec.hcldec", "{}/a.hcl"],
            &[2],
            "Nesting too deep",
        ),
        Case {
            until: Some("{\"batch\""),
            ..case(
                "watch: 1M unary `!`",
                |dir| unary(dir, "a = ", "!", "true"),
                &["watch", "--stats", "{}"],
                &[],
                "Nesting too deep",
            )
        },
        case("eval: three nested range(1024)", nested_ranges, &["eval", "{}/a.hcl"], &[1], "too large"),
        case("check: three nested range(1024)", nested_ranges, &["check", "{}/a.hcl"], &[1], "too large"),
        case(
            "eval: format(\"%9999d\") products",
            |dir| {
                let locals = "  a = join(\"\", [for i in range(1024): format(\"%9999d\", i)])\n  \
                              b = [for x in range(1024): local.a]\n";
                write(dir, "main.tf", format!("locals {{\n{locals}}}\n"))
            },
            &["eval", "{}"],
            &[1],
            "too large",
        ),
        case("check: 100 doubling locals", doubling_locals, &["check", "{}"], &[1], "too large"),
        case("eval: 100 doubling locals", doubling_locals, &["eval", "{}"], &[1], "too large"),
        case(
            "eval: 1e500000000",
            |dir| write(dir, "a.hcl", "a = 1e500000000\n".to_string()),
            &["eval", "{}/a.hcl"],
            &[1],
            "Number too large",
        ),
        case("check: 10,000-local cycle", |dir| cycle(dir, 10_000), &["check", "{}"], &[1], "cycle"),
        case("eval: 10,000-local cycle", |dir| cycle(dir, 10_000), &["eval", "{}"], &[1], "cycle"),
        case("check: 100,000-local cycle", |dir| cycle(dir, 100_000), &["check", "{}"], &[1], "cycle"),
        case("eval: 100,000-local cycle", |dir| cycle(dir, 100_000), &["eval", "{}"], &[1], "cycle"),
        case("check: 1M distinct names", distinct_names, &["check", "{}/a.hcl"], &[0], ""),
        case("eval: 1M distinct names", distinct_names, &["eval", "{}/a.hcl"], &[0], "\"n999999\": 999999"),
        case(
            "check: 20,000 syntax errors",
            |dir| write(dir, "a.hcl", "a = = \n".repeat(20_000)),
            &["check", "{}/a.hcl"],
            &[1],
            "more",
        ),
        case("check: 100 KB of NUL", |dir| nul_bytes(dir, 100_000), &["check", "{}/a.hcl"], &[1], "more"),
        case(
            "check --format json: 1 MB of NUL",
            |dir| nul_bytes(dir, 1_000_000),
            &["check", "--format", "json", "{}/a.hcl"],
            &[1],
            "more",
        ),
        case("eval: 1 MB of NUL", |dir| nul_bytes(dir, 1_000_000), &["eval", "{}/a.hcl"], &[1], "more"),
        case("check: 50 MB flat tuple", flat_tuple, &["check", "{}/a.hcl"], &[0], ""),
        // 5.5 million elements: past the limit of a value's size.
        case("eval: 50 MB flat tuple", flat_tuple, &["eval", "{}/a.hcl"], &[1], "Value too large"),
        case("fmt --check: 50 MB flat tuple", flat_tuple, &["fmt", "--check", "{}/a.hcl"], &[0, 1], ""),
        case(
            "eval: parseint of 1M base-36 digits",
            |dir| write(dir, "a.hcl", format!("a = parseint(\"{}\", 36)\n", "z".repeat(1_000_000))),
            &["eval", "{}/a.hcl"],
            ANSWERED,
            "",
        ),
        case(
            "eval: a 10M-digit literal",
            |dir| write(dir, "a.hcl", format!("a = {}\n", "9".repeat(10_000_000))),
            &["eval", "{}/a.hcl"],
            ANSWERED,
            "",
        ),
        case("check: /dev/zero", |_| Ok(()), &["check", "/dev/zero"], &[2], "not a regular file"),
        case(
            "check: a 65 MiB file",
            |dir| fs::File::create(dir.join("a.hcl"))?.set_len(65 << 20),
            &["check", "{}/a.hcl"],
            &[2],
            "larger than the limit",
        ),
    ]
}

/// `a.hcl`: `before`, a million `operator`s, then `after`.
fn unary(dir: &Path, before: &str, operator: &str, after: &str) -> std::io::Result<()> {
    write(dir, "a.hcl", format!("{before}{}{after}\n", operator.repeat(1_000_000)))
}

/// A tuple of 1024³ numbers.
fn nested_ranges(dir: &Path) -> std::io::Result<()> {
    let text = "a = [for i in range(1024): [for j in range(1024): [for k in range(1024): k]]]\n";
    write(dir, "a.hcl", text.to_string())
}

/// `n0 = 0` … `n999999 = 999999`: 16.8 MB.
fn distinct_names(dir: &Path) -> std::io::Result<()> {
    write(dir, "a.hcl", (0..1_000_000).map(|i| format!("n{i} = {i}\n")).collect())
}

fn nul_bytes(dir: &Path, n: usize) -> std::io::Result<()> {
    write(dir, "a.hcl", "\0".repeat(n))
}

fn write(dir: &Path, name: &str, text: String) -> std::io::Result<()> {
    fs::write(dir.join(name), text)
}

/// `l1 = "${local.l0}${local.l0}"` and so on: 10 × 2^100 bytes at the end.
fn doubling_locals(dir: &Path) -> std::io::Result<()> {
    let mut text = String::from("locals {\n  l0 = \"xxxxxxxxxx\"\n");
    for i in 1..=100 {
        text.push_str(&format!("  l{i} = \"${{local.l{}}}${{local.l{}}}\"\n", i - 1, i - 1));
    }
    write(dir, "main.tf", text + "}\n")
}

/// `n` locals, each referring to the next, the last to the first.
fn cycle(dir: &Path, n: usize) -> std::io::Result<()> {
    let mut text = String::from("locals {\n");
    for i in 0..n {
        text.push_str(&format!("  l{i} = local.l{}\n", (i + 1) % n));
    }
    write(dir, "main.tf", text + "}\n")
}

/// `a = [1234567, 1234567, …]` on one line, 50 MB.
fn flat_tuple(dir: &Path) -> std::io::Result<()> {
    let element = "1234567, ";
    let count = 50_000_000 / element.len();
    let mut text = String::with_capacity(count * element.len() + 8);
    text.push_str("a = [");
    for _ in 0..count {
        text.push_str(element);
    }
    text.push_str("]\n");
    write(dir, "a.hcl", text)
}

/// How one run ended.
struct Outcome {
    elapsed: Duration,
    peak_kib: u64,
    /// The exit status; `None` when killed (by a bound, or a signal of its own).
    status: Option<i32>,
    killed_for: Option<String>,
    found: bool,
}

impl Outcome {
    /// Why the case failed, or `None`.
    fn verdict(&self, case: &Case, bounds: Bounds) -> Option<String> {
        if let Some(reason) = &self.killed_for {
            return Some(reason.clone());
        }
        if self.peak_kib > bounds.memory_kib {
            return Some(format!("peak memory {} MiB is past the bound", self.peak_kib / 1024));
        }
        if case.until.is_none() {
            match self.status {
                None => return Some("ended by a signal".to_string()),
                Some(code) if !case.statuses.contains(&code) => {
                    return Some(format!("exit status {code}, expected one of {:?}", case.statuses));
                }
                Some(_) => {}
            }
        }
        (!self.found).then(|| format!("the output does not contain {:?}", case.expect))
    }
}

fn run_case(halite: &Path, case: &Case, dir: &Path, bounds: Bounds) -> anyhow::Result<Outcome> {
    let dir_text = dir.to_str().context("a UTF-8 temporary directory")?;
    let mut args: Vec<String> = case.args.iter().map(|arg| arg.replace("{}", dir_text)).collect();
    // What a check costs, not what reading the result cache costs, and
    // nothing of these inputs written to the user's cache.
    if args.first().is_some_and(|arg| arg == "check") {
        args.insert(1, "--no-cache".to_owned());
    }
    // Both outputs go to files: some cases print tens of megabytes.
    let stdout_path = dir.join(".stdout");
    let stderr_path = dir.join(".stderr");
    let start = Instant::now();
    let mut child = Command::new(halite)
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(fs::File::create(&stdout_path)?)
        .stderr(fs::File::create(&stderr_path)?)
        .spawn()
        .with_context(|| format!("running {}", halite.display()))?;
    let mut peak_kib = 0;
    let mut killed_for = None;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status.code();
        }
        peak_kib = peak_kib.max(high_water_mark(&child).unwrap_or(0));
        let elapsed = start.elapsed();
        if let Some(until) = case.until
            && contains(&stdout_path, until)?
        {
            kill(&mut child);
            break None;
        }
        if elapsed > bounds.time {
            killed_for = Some(format!("killed after {} s", bounds.time.as_secs()));
        } else if peak_kib > bounds.memory_kib {
            killed_for = Some(format!("killed at {} MiB", peak_kib / 1024));
        }
        if killed_for.is_some() {
            kill(&mut child);
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let found = contains(&stdout_path, case.expect)? || contains(&stderr_path, case.expect)?;
    Ok(Outcome { elapsed, peak_kib, status, killed_for, found })
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// The process's peak resident memory so far, in KiB (`VmHWM`).
fn high_water_mark(child: &Child) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether the file holds `needle` (read in pieces: outputs can be large).
fn contains(path: &Path, needle: &str) -> anyhow::Result<bool> {
    if needle.is_empty() {
        return Ok(true);
    }
    let mut file = fs::File::open(path)?;
    let needle = needle.as_bytes();
    let mut window: Vec<u8> = Vec::new();
    let mut chunk = vec![0; 1 << 20];
    loop {
        let read = file.read(&mut chunk)?;
        if read == 0 {
            return Ok(false);
        }
        window.extend_from_slice(&chunk[..read]);
        if window.windows(needle.len()).any(|it| it == needle) {
            return Ok(true);
        }
        // Keep the tail that could start a match across pieces.
        let keep = needle.len().saturating_sub(1).min(window.len());
        window.drain(..window.len() - keep);
    }
}
