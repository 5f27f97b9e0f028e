//! `cargo xtask stress`: the hostile inputs of the reliability issue, each
//! run through the release `halite` under a time and a memory bound.
//!
//! Every case writes its input to a temporary directory (deep nesting,
//! values that explode, long reference cycles, millions of names, floods of
//! errors, huge flat files, numbers with millions of digits, an endless
//! input), runs one command on it, and passes when the command ends by
//! itself within the bounds (10 s and 1 GiB of resident memory unless
//! `--time`/`--memory` say otherwise) with the exit status and the text the
//! case expects: a diagnostic naming the problem, or a result. A process is
//! killed as soon as it passes a bound. Time and peak memory (`VmHWM`, read
//! from `/proc` while the process runs) are printed for each case; the
//! bounds are what is asserted, so a busy machine only matters near them.
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

fn cases() -> Vec<Case> {
    const EVAL_OK: &[i32] = &[0, 1];
    vec![
        Case {
            name: "check: 1M unary `!`",
            input: |dir| write(dir, "a.hcl", format!("a = {}true\n", "!".repeat(1_000_000))),
            args: &["check", "{}/a.hcl"],
            statuses: &[1],
            expect: "nesting-too-deep",
            until: None,
        },
        Case {
            name: "eval: 1M unary `-`",
            input: |dir| write(dir, "a.hcl", format!("a = {}1\n", "-".repeat(1_000_000))),
            args: &["eval", "{}/a.hcl"],
            statuses: &[1],
            expect: "Nesting too deep",
            until: None,
        },
        Case {
            name: "fmt: 1M unary `!` in a template",
            input: |dir| write(dir, "a.hcl", format!("a = \"${{{}true}}\"\n", "!".repeat(1_000_000))),
            args: &["fmt", "--check", "{}/a.hcl"],
            statuses: &[2],
            expect: "nesting-too-deep",
            until: None,
        },
        Case {
            name: "parse: 1M unary in `for … if`",
            input: |dir| {
                write(dir, "a.hcl", format!("a = [for x in y: x if {}true]\n", "!".repeat(1_000_000)))
            },
            args: &["parse", "{}/a.hcl"],
            statuses: &[1],
            expect: "Nesting too deep",
            until: None,
        },
        Case {
            name: "dec: 1M unary `!`",
            input: |dir| {
                write(dir, "spec.hcldec", "object {\n  attr \"a\" {\n    type = any\n  }\n}\n".to_string())?;
                write(dir, "a.hcl", format!("a = {}true\n", "!".repeat(1_000_000)))
            },
            args: &["dec", "--spec", "{}/spec.hcldec", "{}/a.hcl"],
            statuses: &[2],
            expect: "Nesting too deep",
            until: None,
        },
        Case {
            name: "watch: 1M unary `!`",
            input: |dir| write(dir, "main.hcl", format!("a = {}true\nb = 1\n", "!".repeat(1_000_000))),
            args: &["watch", "--stats", "{}"],
            statuses: &[],
            expect: "Nesting too deep",
            until: Some("{\"batch\""),
        },
        Case {
            name: "eval: three nested range(1024)",
            input: |dir| {
                write(
                    dir,
                    "a.hcl",
                    "a = [for i in range(1024): [for j in range(1024): [for k in range(1024): k]]]\n"
                        .to_string(),
                )
            },
            args: &["eval", "{}/a.hcl"],
            statuses: &[1],
            expect: "too large",
            until: None,
        },
        Case {
            name: "check: three nested range(1024)",
            input: |dir| {
                write(
                    dir,
                    "a.hcl",
                    "a = [for i in range(1024): [for j in range(1024): [for k in range(1024): k]]]\n"
                        .to_string(),
                )
            },
            args: &["check", "{}/a.hcl"],
            statuses: &[0, 1],
            expect: "",
            until: None,
        },
        Case {
            name: "eval: format(\"%9999d\") products",
            input: |dir| {
                write(
                    dir,
                    "main.tf",
                    "locals {\n  a = join(\"\", [for i in range(1024): format(\"%9999d\", i)])\n  \
                     b = [for x in range(1024): local.a]\n}\n"
                        .to_string(),
                )
            },
            args: &["eval", "{}"],
            statuses: &[1],
            expect: "too large",
            until: None,
        },
        Case {
            name: "check: 100 doubling locals",
            input: |dir| write(dir, "main.tf", doubling_locals()),
            args: &["check", "{}"],
            statuses: EVAL_OK,
            expect: "",
            until: None,
        },
        Case {
            name: "eval: 100 doubling locals",
            input: |dir| write(dir, "main.tf", doubling_locals()),
            args: &["eval", "{}"],
            statuses: &[1],
            expect: "too large",
            until: None,
        },
        Case {
            name: "eval: 1e500000000",
            input: |dir| write(dir, "a.hcl", "a = 1e500000000\n".to_string()),
            args: &["eval", "{}/a.hcl"],
            statuses: &[1],
            expect: "",
            until: None,
        },
        Case {
            name: "check: 10,000-local cycle",
            input: |dir| write(dir, "main.tf", cycle(10_000)),
            args: &["check", "{}"],
            statuses: &[1],
            expect: "cycle",
            until: None,
        },
        Case {
            name: "eval: 10,000-local cycle",
            input: |dir| write(dir, "main.tf", cycle(10_000)),
            args: &["eval", "{}"],
            statuses: &[1],
            expect: "cycle",
            until: None,
        },
        Case {
            name: "check: 100,000-local cycle",
            input: |dir| write(dir, "main.tf", cycle(100_000)),
            args: &["check", "{}"],
            statuses: &[1],
            expect: "cycle",
            until: None,
        },
        Case {
            name: "eval: 100,000-local cycle",
            input: |dir| write(dir, "main.tf", cycle(100_000)),
            args: &["eval", "{}"],
            statuses: &[1],
            expect: "cycle",
            until: None,
        },
        Case {
            name: "check: 1M distinct names",
            input: |dir| write(dir, "a.hcl", (0..1_000_000).map(|i| format!("n{i} = {i}\n")).collect()),
            args: &["check", "{}/a.hcl"],
            statuses: &[0],
            expect: "",
            until: None,
        },
        Case {
            name: "eval: 1M distinct names",
            input: |dir| write(dir, "a.hcl", (0..1_000_000).map(|i| format!("n{i} = {i}\n")).collect()),
            args: &["eval", "{}/a.hcl"],
            statuses: &[0],
            expect: "\"n999999\": 999999",
            until: None,
        },
        Case {
            name: "check: 20,000 syntax errors",
            input: |dir| write(dir, "a.hcl", "a = = \n".repeat(20_000)),
            args: &["check", "{}/a.hcl"],
            statuses: &[1],
            expect: "more",
            until: None,
        },
        Case {
            name: "check: 100 KB of NUL",
            input: |dir| write(dir, "a.hcl", "\0".repeat(100_000)),
            args: &["check", "{}/a.hcl"],
            statuses: &[1],
            expect: "more",
            until: None,
        },
        Case {
            name: "check --format json: 1 MB of NUL",
            input: |dir| write(dir, "a.hcl", "\0".repeat(1_000_000)),
            args: &["check", "--format", "json", "{}/a.hcl"],
            statuses: &[1],
            expect: "more",
            until: None,
        },
        Case {
            name: "eval: 1 MB of NUL",
            input: |dir| write(dir, "a.hcl", "\0".repeat(1_000_000)),
            args: &["eval", "{}/a.hcl"],
            statuses: &[1],
            expect: "more",
            until: None,
        },
        Case {
            name: "check: 50 MB flat tuple",
            input: flat_tuple,
            args: &["check", "{}/a.hcl"],
            statuses: &[0],
            expect: "",
            until: None,
        },
        Case {
            name: "eval: 50 MB flat tuple",
            input: flat_tuple,
            args: &["eval", "{}/a.hcl"],
            statuses: &[0],
            expect: "1234567",
            until: None,
        },
        Case {
            name: "fmt --check: 50 MB flat tuple",
            input: flat_tuple,
            args: &["fmt", "--check", "{}/a.hcl"],
            statuses: &[0, 1],
            expect: "",
            until: None,
        },
        Case {
            name: "eval: parseint of 1M base-36 digits",
            input: |dir| write(dir, "a.hcl", format!("a = parseint(\"{}\", 36)\n", "z".repeat(1_000_000))),
            args: &["eval", "{}/a.hcl"],
            statuses: EVAL_OK,
            expect: "",
            until: None,
        },
        Case {
            name: "eval: a 10M-digit literal",
            input: |dir| write(dir, "a.hcl", format!("a = {}\n", "9".repeat(10_000_000))),
            args: &["eval", "{}/a.hcl"],
            statuses: EVAL_OK,
            expect: "",
            until: None,
        },
        Case {
            name: "check: /dev/zero",
            input: |_| Ok(()),
            args: &["check", "/dev/zero"],
            statuses: &[2],
            expect: "",
            until: None,
        },
    ]
}

fn write(dir: &Path, name: &str, text: String) -> std::io::Result<()> {
    fs::write(dir.join(name), text)
}

/// `l1 = "${local.l0}${local.l0}"` and so on: 10 × 2^100 bytes at the end.
fn doubling_locals() -> String {
    let mut text = String::from("locals {\n  l0 = \"xxxxxxxxxx\"\n");
    for i in 1..=100 {
        text.push_str(&format!("  l{i} = \"${{local.l{}}}${{local.l{}}}\"\n", i - 1, i - 1));
    }
    text + "}\n"
}

/// `n` locals, each referring to the next, the last to the first.
fn cycle(n: usize) -> String {
    let mut text = String::from("locals {\n");
    for i in 0..n {
        text.push_str(&format!("  l{i} = local.l{}\n", (i + 1) % n));
    }
    text + "}\n"
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
    let args: Vec<String> = case.args.iter().map(|arg| arg.replace("{}", dir_text)).collect();
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
