//! `halite check` end to end: rule levels from `halite.toml`, ignore
//! comments, `--deny-warnings`, and the three output formats, run on the
//! fixture folders of `test-data/check/cli/`.
//!
//! Each case records the command, its exit code and both outputs in a file
//! under `test-data/check/cli/`, compared with `expect_file!`;
//! `UPDATE_EXPECT=1 cargo test -p cli --test check` refreshes them. The
//! SARIF output is also validated against the official SARIF 2.1.0 schema.

mod support;

use std::path::{Path, PathBuf};

use expect_test::{ExpectFile, expect_file};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data/check/cli")
}

fn halite(args: &[&str]) -> (i32, String, String) {
    let (code, transcript) = support::run_halite(&fixtures(), args, b"");
    let stdout = transcript
        .split_once("--- stdout\n")
        .and_then(|(_, rest)| rest.split_once("--- stderr\n"))
        .map(|(stdout, _)| stdout.to_owned())
        .unwrap_or_default();
    (code, transcript, stdout)
}

fn check(args: &[&str], expected_code: i32, expected: ExpectFile) -> String {
    let (code, transcript, stdout) = halite(args);
    expected.assert_eq(&transcript);
    assert_eq!(code, expected_code, "{transcript}");
    stdout
}

#[test]
fn levels_come_from_the_nearest_halite_toml_with_overrides_by_path() {
    // main.tf: legacy-index is an error there (exit 1), interpolation-only
    // a warning, one silenced by a comment. legacy/: attribute-splat off,
    // legacy-index back to a warning. legacy/strict/: interpolation-only an
    // error.
    check(&["check", "project"], 1, expect_file!["../test-data/check/cli/project.human.txt"]);
}

#[test]
fn a_walk_finds_opentofu_files_for_check_and_fmt() {
    // `opentofu/`: `main.tofu` (a misspelt local, and unformatted),
    // `subnets.tofu.json`, `outputs.tf` reading both, and `main.tf`, which
    // `main.tofu` shadows (its resource is no duplicate).
    check(&["check", "opentofu"], 1, expect_file!["../test-data/check/cli/opentofu.txt"]);
    check(&["fmt", "--check", "opentofu"], 1, expect_file!["../test-data/check/cli/opentofu.fmt.txt"]);
}

#[test]
fn json_lines_carry_the_code_and_the_suggestions() {
    let stdout = check(
        &["check", "--format", "json", "project"],
        1,
        expect_file!["../test-data/check/cli/project.json.txt"],
    );
    for line in stdout.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("each line is JSON");
        assert!(value["code"].is_string(), "{line}");
    }
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    for (args, expected_code, expected) in [
        (
            &["check", "--format", "sarif", "project"][..],
            1,
            expect_file!["../test-data/check/cli/project.sarif.txt"],
        ),
        (
            &["check", "--format", "sarif", "syntax-error"][..],
            1,
            expect_file!["../test-data/check/cli/syntax-error.sarif.txt"],
        ),
        (
            &["check", "--format", "sarif", "warnings-only"][..],
            0,
            expect_file!["../test-data/check/cli/warnings-only.sarif.txt"],
        ),
    ] {
        let stdout = check(args, expected_code, expected);
        let log: serde_json::Value =
            serde_json::from_str(&stdout).expect("SARIF output is one JSON document");
        let errors: Vec<String> =
            sarif_validator().iter_errors(&log).map(|error| error.to_string()).collect();
        assert!(errors.is_empty(), "{args:?} is not valid SARIF 2.1.0:\n{}", errors.join("\n"));

        // Every result names a rule the driver lists, at its index.
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        for result in run["results"].as_array().expect("results") {
            let index = result["ruleIndex"].as_u64().expect("a rule index") as usize;
            assert_eq!(rules[index]["id"], result["ruleId"]);
        }
        assert_eq!(run["columnKind"], "unicodeCodePoints");
    }
}

/// A schema document that is not valid SARIF must fail, or the validation
/// above proves nothing.
#[test]
fn the_sarif_validator_rejects_an_invalid_log() {
    let invalid = serde_json::json!({
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": { "name": "halite" } },
            "results": [{ "message": { "text": "x" }, "level": "severe" }],
        }],
    });
    assert!(!sarif_validator().is_valid(&invalid));
}

fn sarif_validator() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data/check/sarif-schema-2.1.0.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the vendored schema")).expect("JSON");
    jsonschema::options().should_validate_formats(true).build(&schema).expect("the schema compiles")
}

#[test]
fn warnings_pass_unless_denied() {
    check(&["check", "warnings-only"], 0, expect_file!["../test-data/check/cli/warnings-only.txt"]);
    check(
        &["check", "--deny-warnings", "warnings-only"],
        1,
        expect_file!["../test-data/check/cli/warnings-only.denied.txt"],
    );
}

#[test]
fn a_bad_halite_toml_stops_the_run_and_names_the_place() {
    check(&["check", "bad-config"], 2, expect_file!["../test-data/check/cli/bad-config.txt"]);
}

#[test]
fn a_file_with_syntax_errors_gets_no_lints() {
    check(&["check", "syntax-error"], 1, expect_file!["../test-data/check/cli/syntax-error.txt"]);
}

#[test]
fn the_sarif_format_is_listed_in_help() {
    let (code, transcript, _) = halite(&["check", "--help"]);
    assert_eq!(code, 0);
    assert!(transcript.contains("sarif") && transcript.contains("--deny-warnings"), "{transcript}");
}

/// Modules: a directory's files are one module (counted as such), checked
/// with the module rules; a call of a local module is checked against the
/// child's variables; `halite.toml` and ignore comments cover module rules
/// as they do the per-file lints.
#[test]
fn modules_are_checked_with_their_rules_configured() {
    check(&["check", "modules"], 1, expect_file!["../test-data/check/cli/modules.txt"]);
}

/// A file with more diagnostics than the cap (a hundred) reports the first
/// hundred and one `too-many-diagnostics` diagnostic at its end counting
/// the rest, in each format: an error when errors were left out (so the
/// exit status still says so), a warning when only warnings were. Before
/// the cap, a megabyte of NUL bytes printed a million diagnostics (251 MB
/// of JSON), and each human one indexed the whole file.
#[test]
fn a_file_reports_its_first_hundred_diagnostics_and_counts_the_rest() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // 150 invalid characters, then the parser's error: 151 errors.
    std::fs::write(dir.path().join("nul.tf"), [0u8; 150]).expect("a written file");
    let run = |args: &[&str], expected_code: i32| {
        let (code, transcript) = support::run_halite(dir.path(), args, b"");
        assert_eq!(code, expected_code, "{transcript}");
        let stdout = transcript
            .split_once("--- stdout\n")
            .and_then(|(_, rest)| rest.split_once("--- stderr\n"))
            .map(|(stdout, _)| stdout.to_owned())
            .unwrap_or_default();
        (transcript, stdout)
    };

    let (human, _) = run(&["check", "nul.tf"], 1);
    assert_eq!(human.matches("error[invalid-character]").count(), 100, "{human}");
    assert!(
        human.contains(
            "error[too-many-diagnostics]: 51 more diagnostics in this file not shown\n --> nul.tf:1:151\n"
        ),
        "{human}"
    );
    assert!(
        human.contains(
            "= note: Only the first 100 diagnostics of a file are reported; 51 errors were left out."
        ),
        "{human}"
    );
    assert!(human.ends_with("checked 1 file in 1 module: 101 errors, 0 warnings\n"), "{human}");

    let (_, json) = run(&["check", "--format", "json", "nul.tf"], 1);
    let lines: Vec<serde_json::Value> =
        json.lines().map(|line| serde_json::from_str(line).expect("each line is JSON")).collect();
    assert_eq!(lines.len(), 101, "{json}");
    let summary = &lines[100];
    assert_eq!(summary["code"], "too-many-diagnostics", "{summary}");
    assert_eq!(summary["severity"], "error", "{summary}");
    assert_eq!(summary["start"], serde_json::json!({"line": 1, "column": 151, "byte": 150}), "{summary}");

    let (_, sarif) = run(&["check", "--format", "sarif", "nul.tf"], 1);
    let log: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF output is one JSON document");
    let errors: Vec<String> = sarif_validator().iter_errors(&log).map(|error| error.to_string()).collect();
    assert!(errors.is_empty(), "not valid SARIF 2.1.0:\n{}", errors.join("\n"));
    let run_log = &log["runs"][0];
    let results = run_log["results"].as_array().expect("results");
    assert_eq!(results.len(), 101);
    assert_eq!(results[100]["ruleId"], "too-many-diagnostics");
    let index = results[100]["ruleIndex"].as_u64().expect("a rule index") as usize;
    assert_eq!(
        run_log["tool"]["driver"]["rules"][index]["shortDescription"]["text"],
        "Too many diagnostics in one file"
    );

    // `eval` of a file prints its syntax errors the same way.
    let (eval, _) = run(&["eval", "nul.tf"], 1);
    assert_eq!(eval.matches("error[invalid-character]").count(), 100, "{eval}");
    assert!(
        eval.contains("error[too-many-diagnostics]: 51 more diagnostics in this file not shown"),
        "{eval}"
    );

    // Warnings alone left out are a warning: the check passes unless
    // warnings are denied.
    let lints: String = (0..120).map(|i| format!("a{i} = \"${{var.x}}\"\n")).collect();
    std::fs::create_dir(dir.path().join("app")).expect("a directory");
    std::fs::write(dir.path().join("app/main.hcl"), lints).expect("a written file");
    let (warnings, _) = run(&["check", "app"], 0);
    assert_eq!(warnings.matches("warning[interpolation-only]").count(), 100, "{warnings}");
    assert!(
        warnings.contains("warning[too-many-diagnostics]: 20 more diagnostics in this file not shown"),
        "{warnings}"
    );
    run(&["check", "--deny-warnings", "app"], 1);
}
