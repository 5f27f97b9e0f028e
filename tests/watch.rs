//! `halite watch` end to end: the binary watches a temporary directory while
//! the test edits, saves atomically, renames and deletes files, and each
//! evaluation's printed lines are checked.
//!
//! Timing never decides the outcome: every wait is for an expected line,
//! with a generous timeout, and `--stats` prints a line after each
//! evaluation, which marks where one evaluation's output ends.

use crate::support;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::mpsc::Receiver,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

/// Long enough for a loaded machine; a passing test waits far less.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A running `halite watch`, killed when dropped.
struct Watch {
    child: Child,
    lines: Receiver<String>,
    dir: tempfile::TempDir,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one evaluation printed: its lines other than the statistics, and
/// the statistics.
#[derive(Debug)]
struct Report {
    lines: BTreeSet<String>,
    stats: Value,
}

impl Watch {
    fn start(files: &[(&str, &str)], args: &[&str]) -> Watch {
        Watch::start_with(files, |_| {}, args, Stdio::inherit())
    }

    /// Starts a watch of a directory with `files`, after `setup` has made
    /// the rest of it (links, say), with its standard error going to
    /// `stderr`.
    fn start_with(files: &[(&str, &str)], setup: impl FnOnce(&Path), args: &[&str], stderr: Stdio) -> Watch {
        let dir = tempfile::tempdir().expect("a temporary directory");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("a written file");
        }
        setup(dir.path());
        let (child, lines) = support::spawn_watch(dir.path(), args, stderr);
        Watch { child, lines, dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) {
        std::fs::write(self.path(name), text).expect("a written file");
    }

    /// The next evaluation's report.
    fn report(&self, deadline: Instant) -> Report {
        let mut lines = BTreeSet::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("timed out waiting for output; so far: {lines:#?}"));
            let value: Value = serde_json::from_str(&line).unwrap_or_else(|err| panic!("{line}: {err}"));
            if let Some(stats) = value.get("batch") {
                return Report { lines, stats: stats.clone() };
            }
            lines.insert(normalize(value));
        }
    }

    /// Reports until every expected line has been printed; returns their
    /// lines together and the reports. (One change to the files normally
    /// gives one report, but a slow machine may see it in two.)
    fn reports_until(&self, expected: &[Value]) -> (BTreeSet<String>, Vec<Report>) {
        let expected: BTreeSet<String> = expected.iter().cloned().map(normalize).collect();
        let deadline = Instant::now() + TIMEOUT;
        let mut seen = BTreeSet::new();
        let mut reports = Vec::new();
        while !expected.is_subset(&seen) || reports.is_empty() {
            let report = self.report(deadline);
            seen.extend(report.lines.iter().cloned());
            reports.push(report);
        }
        (seen, reports)
    }

    /// Asserts that the next reports print exactly `expected`, and returns
    /// the reports.
    fn expect(&self, expected: &[Value]) -> Vec<Report> {
        let (seen, reports) = self.reports_until(expected);
        let expected: BTreeSet<String> = expected.iter().cloned().map(normalize).collect();
        assert_eq!(seen, expected, "{reports:#?}");
        reports
    }
}

/// A JSON value as canonical text (serde_json sorts object keys), so lines
/// compare whatever order the program wrote keys in.
fn normalize(value: Value) -> String {
    value.to_string()
}

fn files_changed(reports: &[Report]) -> u64 {
    reports.iter().map(|report| report.stats["files"].as_u64().expect("a file count")).sum()
}

#[test]
fn watch_prints_changed_values_and_new_diagnostics() {
    let watch = Watch::start(
        &[("main.hcl", "locals {\n  a = 1\n  b = local.a + 1\n}\n"), ("other.hcl", "x = \"hi\"\n")],
        &[],
    );

    // The first evaluation prints every value.
    let reports = watch.expect(&[
        json!({"address": "local.a", "value": 1}),
        json!({"address": "local.b", "value": 2}),
        json!({"address": "x", "value": "hi"}),
    ]);
    assert_eq!(files_changed(&reports), 2);

    // An edit in place: the attribute and what depends on it are
    // re-evaluated, nothing else.
    watch.write("main.hcl", "locals {\n  a = 5\n  b = local.a + 1\n}\n");
    let reports =
        watch.expect(&[json!({"address": "local.a", "value": 5}), json!({"address": "local.b", "value": 6})]);
    assert_eq!(files_changed(&reports), 1);
    assert_eq!(reports.last().expect("a report").stats["reparsed"], 1, "{reports:#?}");
    assert_eq!(reports.last().expect("a report").stats["reevaluated"], 2, "{reports:#?}");

    // An atomic save: a temporary file renamed over the original.
    watch.write(".other.hcl.tmp", "x = \"bye\"\n");
    std::fs::rename(watch.path(".other.hcl.tmp"), watch.path("other.hcl")).expect("a renamed file");
    let reports = watch.expect(&[json!({"address": "x", "value": "bye"})]);
    assert_eq!(files_changed(&reports), 1);

    // A rename changes no value: nothing but the statistics is printed.
    std::fs::rename(watch.path("other.hcl"), watch.path("renamed.hcl")).expect("a renamed file");
    let reports = watch.expect(&[]);
    assert_eq!(files_changed(&reports), 2);

    // A syntax error is a new diagnostic, printed once; the attribute it
    // is in has an error, not a value.
    watch.write("broken.hcl", "y = \n");
    let (seen, _) = watch.reports_until(&[]);
    let diagnostics: Vec<Value> = seen
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).expect("JSON"))
        .filter_map(|line| line.get("diagnostic").cloned())
        .collect();
    assert!(diagnostics.iter().any(|d| d["file"] == "broken.hcl" && d["severity"] == "error"), "{seen:#?}");
    assert!(seen.contains(&normalize(json!({"address": "y", "error": "Missing expression"}))), "{seen:#?}");
    watch.write("main.hcl", "locals {\n  a = 6\n  b = local.a + 1\n}\n");
    watch.expect(&[json!({"address": "local.a", "value": 6}), json!({"address": "local.b", "value": 7})]);

    // A deleted file's attributes are gone, and its diagnostics resolved.
    std::fs::remove_file(watch.path("renamed.hcl")).expect("a removed file");
    std::fs::remove_file(watch.path("broken.hcl")).expect("a removed file");
    let (seen, reports) = watch
        .reports_until(&[json!({"address": "x", "removed": true}), json!({"address": "y", "removed": true})]);
    assert_eq!(files_changed(&reports), 2);
    let resolved: Vec<Value> = seen
        .iter()
        .map(|line| serde_json::from_str::<Value>(line).expect("JSON"))
        .filter(|line| line["resolved"] == true)
        .collect();
    assert!(
        !resolved.is_empty() && resolved.iter().all(|it| it["diagnostic"]["file"] == "broken.hcl"),
        "{seen:#?}"
    );
    assert_eq!(seen.len(), 2 + resolved.len(), "{seen:#?}");
}

#[test]
fn watch_prints_addresses_as_the_library_does_and_follows_nested_blocks() {
    // A label with a dot printed unquoted (`target.test.unit.step…`) could
    // be read two ways; the library's printed form cannot. An edit of a
    // nested block's attribute reports it and the attributes that read it,
    // a key naming a label included.
    let build = |flags: &str| {
        format!(
            "target \"lib\" {{\n  step \"compile\" {{\n    flags = {flags}\n  }}\n}}\ntarget \"test.unit\" {{\n  uses = target.lib.step.compile.flags\n  step \"self-test\" {{\n    run = \"t ${{join(\" \", target[\"test.unit\"].uses)}}\"\n  }}\n  step {{\n    n = 1\n  }}\n  step {{\n    n = 2\n  }}\n}}\n"
        )
    };
    let watch = Watch::start(&[("build.hcl", &build("[\"-g\"]"))], &[]);
    watch.expect(&[
        json!({"address": "target.lib.step.compile.flags", "value": ["-g"]}),
        json!({"address": "target[\"test.unit\"].uses", "value": ["-g"]}),
        json!({"address": "target[\"test.unit\"].step.self-test.run", "value": "t -g"}),
        json!({"address": "target[\"test.unit\"].step[0].n", "value": 1}),
        json!({"address": "target[\"test.unit\"].step[1].n", "value": 2}),
    ]);
    watch.write("build.hcl", &build("[\"-O2\"]"));
    let reports = watch.expect(&[
        json!({"address": "target.lib.step.compile.flags", "value": ["-O2"]}),
        json!({"address": "target[\"test.unit\"].uses", "value": ["-O2"]}),
        json!({"address": "target[\"test.unit\"].step.self-test.run", "value": "t -O2"}),
    ]);
    assert_eq!(reports.last().expect("a report").stats["reevaluated"], 3, "{reports:#?}");
}

/// A language `halite.toml` declares with a schema file is checked in
/// watch mode as `check` checks it: an edit that gives an attribute a
/// value of the wrong type reports the finding, and fixing it resolves it.
#[test]
fn watch_checks_a_language_declared_in_halite_toml() {
    let watch = Watch::start(
        &[
            (
                "halite.toml",
                "[[dialect]]\nname = \"build\"\nfiles = [\"*.hcl\"]\nschema = \"build.schema\"\n",
            ),
            (
                "build.schema",
                "block \"target\" {\n  labels = [\"name\"]\n  attribute \"timeout\" {\n    type = number\n  }\n}\n",
            ),
            ("build.hcl", "target \"lib\" {\n  timeout = 60\n}\n"),
        ],
        &[],
    );
    watch.expect(&[json!({"address": "target.lib.timeout", "value": 60})]);
    watch.write("build.hcl", "target \"lib\" {\n  timeout = \"soon\"\n}\n");
    let (seen, _) = watch.reports_until(&[]);
    let lines: Vec<Value> = seen.iter().map(|line| serde_json::from_str(line).expect("JSON")).collect();
    assert!(
        lines.iter().any(|it| it["diagnostic"]["code"] == "type-mismatch"
            && it["diagnostic"]["start"]["line"] == 2
            && it.get("resolved").is_none()),
        "{seen:#?}"
    );
    watch.write("build.hcl", "target \"lib\" {\n  timeout = 30\n}\n");
    let (seen, _) = watch.reports_until(&[]);
    let lines: Vec<Value> = seen.iter().map(|line| serde_json::from_str(line).expect("JSON")).collect();
    assert!(
        lines.iter().any(|it| it["diagnostic"]["code"] == "type-mismatch" && it["resolved"] == true),
        "{seen:#?}"
    );
}

#[test]
fn watch_coalesces_a_burst_of_files() {
    let watch = Watch::start(&[("main.hcl", "locals {\n  n = 0\n}\n")], &["--var", "unused=1"]);
    watch.expect(&[json!({"address": "local.n", "value": 0})]);

    let expected: Vec<Value> = (0..200).map(|i| json!({"address": format!("v{i:03}"), "value": i})).collect();
    for i in 0..200 {
        watch.write(&format!("f{i:03}.hcl"), &format!("v{i:03} = {i}\n"));
    }
    let reports = watch.expect(&expected);
    assert_eq!(files_changed(&reports), 200);
    // Written in a few milliseconds, they settle into one batch; a busy
    // machine might split them, but never file by file.
    assert!(reports.len() <= 3, "{} reports", reports.len());
}

#[test]
fn watch_takes_variables() {
    let watch = Watch::start(
        &[
            ("main.hcl", "variable \"n\" {\n  type = number\n}\nlocals {\n  twice = var.n * 2\n}\n"),
            ("vars.hcl.txt", "n = 21\n"),
        ],
        &["--var-file", "vars.hcl.txt"],
    );
    watch.expect(&[json!({"address": "local.twice", "value": 42})]);
}

/// A Terraform module's variables come from where `eval DIR` reads them
/// (`TF_VAR_`, `terraform.tfvars`, `*.auto.tfvars`, the command line), and
/// a change to a variables file Terraform reads by itself, or to a
/// declaration, re-evaluates the variables' dependents.
#[test]
fn watch_reads_terraform_inputs_and_follows_its_variables_files() {
    const MAIN: &str = "variable \"env\" {\n  default = \"dev\"\n}\nvariable \"region\" {\n  type = string\n}\n\
        variable \"size\" {\n  type    = number\n  default = 1\n}\n\
        locals {\n  name   = \"web-${var.env}-${var.region}\"\n  double = var.size * 2\n}\n\
        output \"name\" {\n  value = local.name\n}\noutput \"double\" {\n  value = local.double\n}\n";
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("main.tf"), MAIN).expect("a written file");
    std::fs::write(dir.path().join("terraform.tfvars"), "env = \"staging\"\n").expect("a written file");
    let environment = [("TF_VAR_region", "eu"), ("TF_VAR_zone", "b")];
    let (child, lines) =
        support::spawn_watch_with_env(dir.path(), &["--var", "size=3"], &environment, Stdio::null());
    let watch = Watch { child, lines, dir };
    watch.expect(&[
        json!({"address": "local.name", "value": "web-staging-eu"}),
        json!({"address": "output.name.value", "value": "web-staging-eu"}),
        json!({"address": "local.double", "value": 6}),
        json!({"address": "output.double.value", "value": 6}),
    ]);

    watch.write("terraform.tfvars", "env = \"prod\"\n");
    watch.expect(&[
        json!({"address": "local.name", "value": "web-prod-eu"}),
        json!({"address": "output.name.value", "value": "web-prod-eu"}),
    ]);
    // `--var` wins over an automatic file.
    watch.write("a.auto.tfvars", "size = 5\nenv = \"test\"\n");
    watch.expect(&[
        json!({"address": "local.name", "value": "web-test-eu"}),
        json!({"address": "output.name.value", "value": "web-test-eu"}),
    ]);
    std::fs::remove_file(watch.path("a.auto.tfvars")).expect("a removed file");
    std::fs::remove_file(watch.path("terraform.tfvars")).expect("a removed file");
    watch.expect(&[
        json!({"address": "local.name", "value": "web-dev-eu"}),
        json!({"address": "output.name.value", "value": "web-dev-eu"}),
    ]);
    // A variable declared while watching takes its `TF_VAR_` value.
    watch.write("zone.tf", "variable \"zone\" {}\noutput \"zone\" {\n  value = var.zone\n}\n");
    watch.expect(&[json!({"address": "output.zone.value", "value": "b"})]);
}

/// A block's `count` set from `terraform.tfvars`: with none, its other
/// attributes are not evaluated (an empty tuple of instances); when an
/// edit gives it one, they are, since they read its `count`.
#[test]
fn watch_evaluates_a_block_once_a_variables_file_gives_it_instances() {
    const MAIN: &str = "variable \"create\" {\n  type    = bool\n  default = false\n}\n\
        resource \"aws_db_subnet_group\" \"this\" {\n  count = var.create ? 1 : 0\n  name  = lower(\"DB\")\n}\n";
    let watch = Watch::start_with(&[("main.tf", MAIN)], |_| {}, &[], Stdio::null());
    watch.expect(&[
        json!({"address": "aws_db_subnet_group.this.count", "value": 0}),
        json!({"address": "aws_db_subnet_group.this.name", "value": []}),
    ]);
    watch.write("terraform.tfvars", "create = true\n");
    watch.expect(&[
        json!({"address": "aws_db_subnet_group.this.count", "value": 1}),
        json!({"address": "aws_db_subnet_group.this.name", "value": "db"}),
    ]);
}

#[test]
fn ctrl_c_ends_watch_cleanly() {
    // Ctrl-C, and the signals a build system or a terminal sends to stop
    // what it started: each ends the watch with status 0.
    for signal in ["INT", "TERM", "HUP"] {
        let mut watch = Watch::start(&[("main.hcl", "a = 1\n")], &[]);
        watch.expect(&[json!({"address": "a", "value": 1})]);
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &watch.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = watch.child.try_wait().expect("the child's status") {
                assert!(status.success(), "SIG{signal}: {status}");
                break;
            }
            assert!(Instant::now() < deadline, "halite watch did not end after SIG{signal}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn watch_refuses_a_missing_directory() {
    let output = Command::new(env!("CARGO_BIN_EXE_halite"))
        .args(["watch", "no/such/dir"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("halite runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("cannot watch `no/such/dir`: No such file or directory"), "{stderr}");
}

#[test]
fn a_change_during_an_evaluation_is_not_lost() {
    // A module whose evaluation takes a while, edited at once: whether the
    // edit lands before the first evaluation, during it (cancelling it) or
    // after, the last value printed is the edited one.
    let module = |base: u32| {
        let mut text = format!("locals {{\n  base = {base}\n");
        for i in 0..300 {
            text.push_str(&format!("  l{i} = length(range(local.base, local.base + 1000))\n"));
        }
        text + "}\n"
    };
    let watch = Watch::start(&[("main.hcl", &module(1))], &[]);
    watch.write("main.hcl", &module(2));
    let deadline = Instant::now() + TIMEOUT;
    let mut last_base = None;
    while last_base != Some(json!(2)) {
        let report = watch.report(deadline);
        for line in &report.lines {
            let line: Value = serde_json::from_str(line).expect("JSON");
            if line["address"] == "local.base" {
                last_base = Some(line["value"].clone());
            }
        }
    }
    // Nothing follows: the state printed last is the files' state.
    let quiet = watch.lines.recv_timeout(Duration::from_millis(500));
    assert!(quiet.is_err(), "unexpected output: {quiet:?}");
}

#[test]
fn watch_reports_diagnostics_as_check_does_and_says_when_they_are_resolved() {
    // Terraform's rules: an unused local is a warning, an undeclared one an
    // error, and the diagnostics are those `halite check` reports.
    let watch = Watch::start(
        &[
            ("main.tf", "locals {\n  a = 1\n  b = local.a + 1\n}\n"),
            ("halite.toml", "[rules]\nunused-declaration = \"error\"\n"),
        ],
        &[],
    );
    let unused_b = json!({"diagnostic": {
        "code": "unused-declaration",
        "detail": "Nothing in this module refers to local.b. Remove the declaration, or use it where it was meant to be used.",
        "end": {"byte": 20, "column": 4, "line": 3},
        "file": "main.tf",
        "message": "Local value `b` is never used",
        "severity": "error",
        "start": {"byte": 19, "column": 3, "line": 3},
    }});
    watch.expect(&[
        json!({"address": "local.a", "value": 1}),
        json!({"address": "local.b", "value": 2}),
        unused_b.clone(),
    ]);

    // Using `local.b` resolves its warning; the new reference names nothing.
    watch.write("main.tf", "locals {\n  a = 1\n  b = local.a + 1\n  c = local.b + local.nope\n}\n");
    let (seen, _) = watch.reports_until(&[]);
    let lines: Vec<Value> = seen.iter().map(|line| serde_json::from_str(line).expect("JSON")).collect();
    let mut resolved = unused_b.clone();
    resolved["resolved"] = json!(true);
    assert!(lines.contains(&resolved), "{seen:#?}");
    assert!(
        lines
            .iter()
            .any(|it| it["diagnostic"]["code"] == "undeclared-reference" && it.get("resolved").is_none()),
        "{seen:#?}"
    );
    assert!(lines.iter().any(|it| it["address"] == "local.c" && it.get("error").is_some()), "{seen:#?}");

    // A comment evaluates nothing and prints nothing.
    watch.write(
        "main.tf",
        "# a comment\nlocals {\n  a = 1\n  b = local.a + 1\n  c = local.b + local.nope\n}\n",
    );
    let (seen, reports) = watch.reports_until(&[]);
    let moved: Vec<Value> = seen.iter().map(|line| serde_json::from_str(line).expect("JSON")).collect();
    // The diagnostics moved a line down: resolved where they were, new
    // where they are.
    assert!(moved.iter().all(|it| it.get("diagnostic").is_some()), "{seen:#?}");
    assert_eq!(reports.iter().map(|it| it.stats["reevaluated"].as_u64().expect("a count")).sum::<u64>(), 0);
}

/// A `halite.toml` written, changed or removed while the watch runs
/// applies from the next report, as a watch started then would apply it:
/// the diagnostics it turns off are resolved, those whose level it
/// changes are reported again at the new level.
#[test]
fn watch_applies_a_halite_toml_written_while_it_runs() {
    let watch = Watch::start_with(
        &[("main.tf", "locals {\n  a = 1\n}\n")],
        // A repository's root: the search for a configuration stops there.
        |dir| std::fs::create_dir(dir.join(".git")).expect("a directory"),
        &[],
        Stdio::inherit(),
    );
    let unused = |severity: &str| {
        json!({"diagnostic": {
            "code": "unused-declaration",
            "detail": "Nothing in this module refers to local.a. Remove the declaration, or use it where it was meant to be used.",
            "end": {"byte": 12, "column": 4, "line": 2},
            "file": "main.tf",
            "message": "Local value `a` is never used",
            "severity": severity,
            "start": {"byte": 11, "column": 3, "line": 2},
        }})
    };
    let resolved = |severity: &str| {
        let mut it = unused(severity);
        it["resolved"] = json!(true);
        it
    };
    watch.expect(&[json!({"address": "local.a", "value": 1}), unused("warning")]);
    watch.write("halite.toml", "[rules]\nunused-declaration = \"error\"\n");
    watch.expect(&[resolved("warning"), unused("error")]);
    watch.write("halite.toml", "[rules]\nunused-declaration = \"off\"\n");
    watch.expect(&[resolved("error")]);
    std::fs::remove_file(watch.path("halite.toml")).expect("removed");
    watch.expect(&[unused("warning")]);
}

/// `watch` survives unary operators nested far past the parser's limit,
/// whether in a file it starts with or in an edit: the attribute has an
/// error, the file a `nesting-too-deep` diagnostic, and the watch goes on
/// (it used to overflow its stack at about 3,600 operators).
#[test]
fn watch_survives_deeply_nested_unary_operators() {
    const DEPTH: usize = 100_000;
    let deep = |name: &str, op: &str, operand: &str| format!("{name} = {}{operand}\n", op.repeat(DEPTH));
    let watch = Watch::start(&[("a.hcl", &deep("a", "!", "true")), ("fine.hcl", "f = 1\n")], &[]);
    let nesting_in = |seen: &BTreeSet<String>, file: &str| {
        seen.iter().map(|line| serde_json::from_str::<Value>(line).expect("JSON")).any(|line| {
            line["diagnostic"]["code"] == "nesting-too-deep"
                && line["diagnostic"]["file"] == file
                && line.get("resolved").is_none()
        })
    };
    let (seen, _) = watch.reports_until(&[
        json!({"address": "a", "error": "Missing expression"}),
        json!({"address": "f", "value": 1}),
    ]);
    assert!(nesting_in(&seen, "a.hcl"), "{seen:#?}");

    watch.write("b.hcl", &deep("b", "-", "1"));
    watch.write("c.hcl", &format!("c = \"${{{}true}}\"\n", "!".repeat(DEPTH)));
    let (seen, _) = watch.reports_until(&[
        json!({"address": "b", "error": "Missing expression"}),
        json!({"address": "c", "error": "Missing expression"}),
    ]);
    assert!(nesting_in(&seen, "b.hcl") && nesting_in(&seen, "c.hcl"), "{seen:#?}");

    // Still watching.
    watch.write("fine.hcl", "f = 2\n");
    watch.expect(&[json!({"address": "f", "value": 2})]);
}

/// A module file that is a link to a file outside the module (a file shared
/// by several modules): an edit to the shared file changes the module's
/// value.
#[cfg(unix)]
#[test]
fn watch_follows_a_linked_file_to_its_target() {
    let shared = tempfile::tempdir().expect("a temporary directory");
    let common = shared.path().join("common.hcl");
    std::fs::write(&common, "shared = 1\n").expect("a written file");
    let watch = Watch::start_with(
        &[("own.hcl", "own = 1\n")],
        |dir| std::os::unix::fs::symlink(&common, dir.join("main.hcl")).expect("a symbolic link"),
        &[],
        Stdio::inherit(),
    );
    watch.expect(&[json!({"address": "own", "value": 1}), json!({"address": "shared", "value": 1})]);

    std::fs::write(&common, "shared = 2\n").expect("a written file");
    watch.expect(&[json!({"address": "shared", "value": 2})]);
}

/// A module file with a second name elsewhere: an edit through that name
/// changes the module's value.
#[cfg(unix)]
#[test]
fn watch_sees_an_edit_through_a_hard_link() {
    let elsewhere = tempfile::tempdir().expect("a temporary directory");
    let other_name = elsewhere.path().join("copy.hcl");
    std::fs::write(&other_name, "linked = 1\n").expect("a written file");
    let watch = Watch::start_with(
        &[],
        |dir| std::fs::hard_link(&other_name, dir.join("main.hcl")).expect("a hard link"),
        &[],
        Stdio::inherit(),
    );
    watch.expect(&[json!({"address": "linked", "value": 1})]);

    std::fs::write(&other_name, "linked = 2\n").expect("a written file");
    watch.expect(&[json!({"address": "linked", "value": 2})]);
}

/// The watched directory (the current directory of `halite watch .`)
/// deleted and made again: a line on standard error says it is gone, its
/// values are removed, and when it is back another line says so and its
/// values are printed again.
#[test]
fn watch_recovers_when_its_directory_is_deleted_and_made_again() {
    let mut watch = Watch::start_with(&[("main.hcl", "a = 1\n")], |_| {}, &[], Stdio::piped());
    let errors = stderr_lines(&mut watch.child);
    watch.expect(&[json!({"address": "a", "value": 1})]);

    std::fs::remove_dir_all(watch.dir.path()).expect("a removed directory");
    watch.expect(&[json!({"address": "a", "removed": true})]);
    let gone = errors.recv_timeout(TIMEOUT).expect("a line on standard error");
    assert!(gone.contains("is gone"), "{gone}");

    std::fs::create_dir(watch.dir.path()).expect("a directory");
    watch.write("main.hcl", "a = 2\n");
    watch.expect(&[json!({"address": "a", "value": 2})]);
    let back = errors.recv_timeout(TIMEOUT).expect("a line on standard error");
    assert!(back.contains("is back"), "{back}");

    // Still watching the new directory.
    watch.write("main.hcl", "a = 3\n");
    watch.expect(&[json!({"address": "a", "value": 3})]);
}

/// The lines `child` writes on its standard error (which must be piped),
/// as they come.
fn stderr_lines(child: &mut Child) -> Receiver<String> {
    use std::io::BufRead as _;
    let stderr = child.stderr.take().expect("a piped standard error");
    let (sender, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// An idle watch does not wake: over a few seconds with no change, its
/// threads are not scheduled (the debouncer it used woke 80 times a
/// second) and use no processor time.
#[cfg(target_os = "linux")]
#[test]
fn an_idle_watch_does_not_wake() {
    let watch = Watch::start(&[("main.hcl", "a = 1\n")], &[]);
    watch.expect(&[json!({"address": "a", "value": 1})]);
    let pid = watch.child.id();
    let before = (wakeups(pid), cpu_ticks(pid));
    std::thread::sleep(Duration::from_secs(3));
    let after = (wakeups(pid), cpu_ticks(pid));
    let woke = after.0.saturating_sub(before.0);
    let ticks = after.1.saturating_sub(before.1);
    // A handful at most, for whatever the system does to a sleeping
    // process; waking on a timer would be hundreds.
    assert!(woke <= 10, "{woke} context switches in 3 s of idling");
    assert!(ticks <= 2, "{ticks} clock ticks of processor time in 3 s of idling");
}

/// How many times the threads of process `pid` have been scheduled off
/// the processor, whether they gave it up or not.
#[cfg(target_os = "linux")]
fn wakeups(pid: u32) -> u64 {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).expect("the process's threads") {
        let Ok(status) = std::fs::read_to_string(task.expect("a thread").path().join("status")) else {
            continue;
        };
        total += status
            .lines()
            .filter_map(|line| {
                line.strip_prefix("voluntary_ctxt_switches:")
                    .or(line.strip_prefix("nonvoluntary_ctxt_switches:"))
            })
            .map(|count| count.trim().parse::<u64>().expect("a count"))
            .sum::<u64>();
    }
    total
}

/// The processor time process `pid` has used, user and system, in clock
/// ticks.
#[cfg(target_os = "linux")]
fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("the process's status");
    // The fields after the command's name, which is in parentheses and may
    // hold spaces: state is the first, utime and stime the 12th and 13th.
    let after_name = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
}

/// A watch of `watched` (a directory below the temporary one, which holds
/// `files`): what its modules read elsewhere in the temporary directory is
/// outside it.
fn watch_below(files: &[(&str, &str)], watched: &str) -> Watch {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, text).expect("a written file");
    }
    let (child, lines) = support::spawn_watch(&dir.path().join(watched), &[], Stdio::inherit());
    Watch { child, lines, dir }
}

#[test]
fn watch_follows_what_its_modules_read_outside_its_directory() {
    // A child module beside the root, called by an edit: the call's
    // arguments are checked against it at once; naming its variable as
    // the call does mends it, and renaming it again breaks it.
    let watch = watch_below(
        &[
            ("root/main.tf", "output \"x\" {\n  value = 1\n}\n"),
            ("net/variables.tf", "variable \"cidr_block\" {\n  type = string\n}\n"),
        ],
        "root",
    );
    watch.expect(&[json!({"address": "output.x.value", "value": 1})]);
    watch.write(
        "root/main.tf",
        "module \"net\" {\n  source = \"../net\"\n  cidr   = \"10.0.0.0/16\"\n}\noutput \"x\" {\n  value = 1\n}\n",
    );
    let codes = |seen: &BTreeSet<String>, resolved: bool| -> BTreeSet<String> {
        seen.iter()
            .map(|line| serde_json::from_str::<Value>(line).expect("JSON"))
            .filter(|it| it.get("resolved").is_some() == resolved)
            .filter_map(|it| it["diagnostic"]["code"].as_str().map(str::to_string))
            .collect()
    };
    let broken =
        BTreeSet::from(["missing-module-argument".to_string(), "unsupported-module-argument".to_string()]);
    let (seen, _) = watch.reports_until(&[
        json!({"address": "module.net.source", "value": "../net"}),
        json!({"address": "module.net.cidr", "value": "10.0.0.0/16"}),
    ]);
    assert_eq!(codes(&seen, false), broken, "{seen:#?}");
    watch.write("net/variables.tf", "variable \"cidr\" {\n  type = string\n}\n");
    let (seen, _) = watch.reports_until(&[]);
    assert_eq!(codes(&seen, true), broken, "{seen:#?}");
    watch.write("net/variables.tf", "variable \"cidr_block\" {\n  type = string\n}\n");
    let (seen, _) = watch.reports_until(&[]);
    assert_eq!(codes(&seen, false), broken, "{seen:#?}");

    // A Terragrunt unit whose include, in the directory above, sets an
    // input its module requires; the include's path is not known to the
    // evaluation, and is printed as a value not known.
    let watch = watch_below(
        &[
            ("modules/app/variables.tf", "variable \"region\" {\n  type = string\n}\n"),
            ("live/root.hcl", "inputs = {\n  region = \"us-east-1\"\n}\n"),
            (
                "live/app/terragrunt.hcl",
                "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\nterraform {\n  source = \"../../modules/app\"\n}\n",
            ),
        ],
        "live/app",
    );
    watch.expect(&[
        json!({"address": "include.root.path", "value": {"unknown": true, "type": "string"}}),
        json!({"address": "terraform.source", "value": "../../modules/app"}),
    ]);
    watch.write("live/root.hcl", "inputs = {\n  regio = \"us-east-1\"\n}\n");
    let (seen, _) = watch.reports_until(&[]);
    assert!(
        seen.iter().any(|line| line.contains("\"missing-input\"") && !line.contains("\"resolved\"")),
        "{seen:#?}"
    );
}
