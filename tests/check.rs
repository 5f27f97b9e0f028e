//! `halite check` end to end: rule levels from `halite.toml`, ignore
//! comments, `--deny-warnings`, the output formats, `--output-file`,
//! `--quiet`, `--color` and `--statistics`, run on the fixture folders of
//! `test-data/check/cli/`.
//!
//! Each case records the command, its exit code and both outputs in a file
//! under `test-data/check/cli/`, compared with `expect_file!`;
//! `UPDATE_EXPECT=1 cargo test -p halite --test suite check::` refreshes them. Each
//! format is also checked against what its consumer reads: SARIF against
//! the official SARIF 2.1.0 schema, Checkstyle and JUnit XML parsed back,
//! GitLab's Code Quality fields, GitHub's workflow command syntax with its
//! escapes, each against the JSON format's diagnostics. `check/cache.rs`
//! tests the result cache.

use crate::support;

#[path = "check/cache.rs"]
mod cache;

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

/// The repository's root as SARIF's `originalUriBaseIds` gives it (a
/// `file:` URI that differs from machine to machine) in a transcript,
/// replaced by a placeholder so that the transcript can be compared.
const SRCROOT: &str = "file:///SRCROOT/";

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
        let (code, transcript, stdout) = halite(args);
        let log: serde_json::Value =
            serde_json::from_str(&stdout).expect("SARIF output is one JSON document");
        // %SRCROOT% is the repository holding the fixtures, as a `file:`
        // URI ending in `/`, and every result's URI is a path under it.
        let root = log["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("a base URI");
        let root_dir = root.strip_prefix("file://").and_then(|it| it.strip_suffix('/')).expect("a file URI");
        assert!(Path::new(root_dir).join(".git").exists(), "{root}");
        for result in log["runs"][0]["results"].as_array().expect("results") {
            let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
            assert_eq!(location["uriBaseId"], "%SRCROOT%");
            let uri = location["uri"].as_str().expect("a URI");
            assert!(Path::new(root_dir).join(uri).is_file(), "{uri}");
            let fingerprint = result["partialFingerprints"]["halite/v1"].as_str().expect("a fingerprint");
            assert_eq!(fingerprint.len(), 32, "{fingerprint}");
        }
        expected.assert_eq(&transcript.replace(root, SRCROOT));
        assert_eq!(code, expected_code, "{transcript}");
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
        // Each rule of the registry says how to change or silence it.
        for rule in rules.iter().filter(|rule| rule["fullDescription"].is_object()) {
            let id = rule["id"].as_str().expect("an id");
            for help in [&rule["help"]["text"], &rule["help"]["markdown"]] {
                let help = help.as_str().expect("help");
                assert!(help.contains(&format!("# halite-ignore: {id}")), "{rule}");
            }
        }
    }
    // The project's suggestions are fixes, each a replacement in its file.
    let (_, _, stdout) = halite(&["check", "--format", "sarif", "project"]);
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let fixes: Vec<&serde_json::Value> = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .flat_map(|result| result["fixes"].as_array().into_iter().flatten())
        .collect();
    assert!(!fixes.is_empty());
    for fix in &fixes {
        // The project's fixes unwrap interpolations and rewrite legacy
        // indexes: the same thing written another way.
        assert_eq!(fix["properties"]["applicability"], "safe", "{fix}");
    }
    for fix in fixes {
        let change = &fix["artifactChanges"][0];
        assert_eq!(change["artifactLocation"]["uriBaseId"], "%SRCROOT%", "{fix}");
        assert!(change["replacements"][0]["insertedContent"]["text"].is_string(), "{fix}");
    }
}

/// Run from a directory inside a repository, the reports name files from
/// the repository's root, and fingerprints do not change with where the
/// check ran.
#[test]
fn ci_reports_name_files_from_the_repository_root() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir_all(dir.path().join(".git")).expect("a directory");
    std::fs::create_dir_all(dir.path().join("infra")).expect("a directory");
    std::fs::write(dir.path().join("infra/main.tf"), "variable \"x\" {\n  default = \"${\"x\"}\"\n}\n")
        .expect("a file");
    let stdout = |cwd: &Path, args: &[&str]| {
        let (_, transcript) = support::run_halite(cwd, args, b"");
        transcript
            .split_once("--- stdout\n")
            .expect("stdout")
            .1
            .split_once("--- stderr\n")
            .expect("stderr")
            .0
            .to_owned()
    };
    let inside: serde_json::Value =
        serde_json::from_str(&stdout(&dir.path().join("infra"), &["check", "--format", "gitlab", "main.tf"]))
            .expect("JSON");
    let above: serde_json::Value =
        serde_json::from_str(&stdout(dir.path(), &["check", "--format", "gitlab", "infra"])).expect("JSON");
    assert_eq!(inside[0]["location"]["path"], "infra/main.tf");
    assert_eq!(inside, above);
    // From outside the repository (a CI step that checks its checkout by
    // an absolute path): the checked files' repository, not the current
    // directory's.
    let infra = dir.path().join("infra");
    let outside: serde_json::Value = serde_json::from_str(&stdout(
        dir.path().parent().expect("a parent"),
        &["check", "--format", "gitlab", infra.to_str().expect("a UTF-8 path")],
    ))
    .expect("JSON");
    assert_eq!(outside, above);
    let github = stdout(&dir.path().join("infra"), &["check", "--format", "github", "."]);
    assert!(github.starts_with("::warning file=infra/main.tf,"), "{github}");
    let sarif: serde_json::Value =
        serde_json::from_str(&stdout(&dir.path().join("infra"), &["check", "--format", "sarif", "main.tf"]))
            .expect("JSON");
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(location["uri"], "infra/main.tf");
    let base = sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("a base");
    assert!(base.starts_with("file:///") && base.ends_with('/'), "{base}");
    assert_eq!(sarif["runs"][0]["results"][0]["partialFingerprints"]["halite/v1"], inside[0]["fingerprint"]);
}

/// A module file named on the command line (as a pre-commit hook names
/// the files staged) is checked in its module, as one given on standard
/// input is: what its directory's other files declare is declared, and
/// only the named file is reported (and counted).
#[test]
fn a_named_module_file_is_checked_in_its_module() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let module = dir.path().join("module");
    std::fs::create_dir_all(&module).expect("a directory");
    std::fs::write(module.join("main.tf"), "output \"greeting\" {\n  value = \"hello ${var.name}\"\n}\n")
        .expect("a file");
    // Declared here, and never used: a warning of this file alone.
    std::fs::write(
        module.join("variables.tf"),
        "variable \"name\" {\n  type = string\n}\n\nvariable \"unused\" {\n  type = string\n}\n",
    )
    .expect("a file");
    let run = |cwd: &Path, args: &[&str]| support::run_halite(cwd, args, b"");
    for (cwd, path) in [(dir.path(), "module/main.tf"), (&module, "main.tf"), (&module, "./main.tf")] {
        let (code, transcript) = run(cwd, &["check", "--no-cache", "--format", "concise", path]);
        assert_eq!(code, 0, "{transcript}");
        assert!(transcript.contains("checked 1 file in 1 module: 0 errors, 0 warnings"), "{transcript}");
    }
    let (_, stdin) =
        run(&module, &["check", "--no-cache", "--format", "concise", "-", "--stdin-filename", "main.tf"]);
    let (_, named) = run(&module, &["check", "--no-cache", "--format", "concise", "main.tf"]);
    let output = |transcript: &str| transcript.split_once('\n').expect("the command's line").1.to_owned();
    assert_eq!(output(&stdin), output(&named));
    // The same file named twice, two ways: one file, its siblings read once.
    let (code, twice) = run(
        dir.path(),
        &["check", "--no-cache", "--format", "concise", "module/main.tf", "./module/main.tf"],
    );
    assert_eq!(code, 0, "{twice}");
    assert!(twice.contains("checked 1 file in 1 module: 0 errors, 0 warnings"), "{twice}");
    let (code, both) =
        run(&module, &["check", "--no-cache", "--format", "concise", "main.tf", "variables.tf"]);
    assert_eq!(code, 0, "{both}");
    assert!(both.contains("variables.tf:5:1: warning[unused-declaration]"), "{both}");
    assert!(both.contains("checked 2 files in 1 module: 0 errors, 1 warning"), "{both}");
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

/// A language of an application's own, declared by a `[[dialect]]` table
/// of `halite.toml` and its schema file: each kind of finding triggers in
/// one fixture (unknown block type and attribute with a did-you-mean, a
/// missing required attribute, a wrong type, a wrong label count), and a
/// fixture that keeps to the schema (a number given as a numeric string, a
/// dotted label, the tool's roots and functions) stays quiet.
#[test]
fn an_embedders_schema_from_halite_toml_checks_its_language() {
    check(&["check", "embedder-language"], 1, expect_file!["../test-data/check/cli/embedder-language.txt"]);
    check(
        &["check", "embedder-language-quiet"],
        0,
        expect_file!["../test-data/check/cli/embedder-language-quiet.txt"],
    );
}

/// A schema file with mistakes stops the run, naming the place, as a bad
/// `halite.toml` does.
#[test]
fn a_bad_schema_file_stops_the_run_and_names_the_place() {
    check(&["check", "bad-schema"], 2, expect_file!["../test-data/check/cli/bad-schema.txt"]);
}

#[test]
fn a_file_with_syntax_errors_gets_no_lints() {
    check(&["check", "syntax-error"], 1, expect_file!["../test-data/check/cli/syntax-error.txt"]);
}

#[test]
fn every_format_is_listed_in_help() {
    let (code, transcript, _) = halite(&["check", "--help"]);
    assert_eq!(code, 0);
    for word in [
        "human",
        "concise",
        "json",
        "sarif",
        "github",
        "gitlab",
        "checkstyle",
        "junit",
        "--deny-warnings",
        "--output-file",
        "--quiet",
        "--color",
    ] {
        assert!(transcript.contains(word), "{word}: {transcript}");
    }
}

/// Modules: a directory's files are one module (counted as such), checked
/// with the module rules; a call of a local module is checked against the
/// child's variables; `halite.toml` and ignore comments cover module rules
/// as they do the per-file lints.
#[test]
fn modules_are_checked_with_their_rules_configured() {
    check(&["check", "modules"], 1, expect_file!["../test-data/check/cli/modules.txt"]);
}

/// A `terragrunt.hcl` beside `.tf` files is a unit of its own, checked
/// in Terragrunt's dialect, and its `inputs` against the module it
/// deploys (the one beside it, or the local `terraform { source }`): an
/// input the module does not declare and a required variable left out
/// (Terragrunt's warnings), an input of the wrong type (an error). The
/// unit whose inputs match says nothing.
#[test]
fn terragrunt_units_are_checked_against_the_modules_they_deploy() {
    check(&["check", "terragrunt"], 1, expect_file!["../test-data/check/cli/terragrunt.txt"]);
}

/// The files a unit includes are read from disk as Terragrunt finds them
/// (`find_in_parent_folders("root.hcl")` from the unit's parent
/// directory upwards, `"${get_terragrunt_dir()}/…"`, and
/// `"${dirname(find_in_parent_folders("root.hcl"))}/…"`): a `dependency` an
/// included file declares is the unit's, the included file's `inputs`
/// and `terraform { source }` are the unit's unless it sets its own, and
/// an exposed include's locals are `include.NAME.locals`. So the unit
/// that uses them right says nothing, a misspelt dependency or local is
/// an error with a did-you-mean, and a required variable neither the
/// unit nor its includes set is missing. `dependency.vpc.outputs.X` is
/// read against the outputs of the module the `vpc` unit deploys.
#[test]
fn terragrunt_units_read_the_files_they_include() {
    check(&["check", "terragrunt-include"], 1, expect_file!["../test-data/check/cli/terragrunt-include.txt"]);
}

/// A file a unit reads that does not exist stops Terragrunt, and is an
/// error at its path: an include's file that
/// `find_in_parent_folders("NAME")` finds in no directory above the
/// unit, and a dependency's directory with no `terragrunt.hcl`. A search
/// with a fallback, and a dependency on a unit that exists, say nothing.
#[test]
fn terragrunt_files_a_unit_reads_that_do_not_exist_are_errors() {
    check(&["check", "terragrunt-missing"], 1, expect_file!["../test-data/check/cli/terragrunt-missing.txt"]);
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

/// The diagnostics of `project` as the JSON format gives them: the
/// reference the other formats are checked against.
fn project_diagnostics() -> Vec<serde_json::Value> {
    let (_, _, stdout) = halite(&["check", "--format", "json", "project"]);
    stdout.lines().map(|line| serde_json::from_str(line).expect("each line is JSON")).collect()
}

/// A fixture's path as GitHub's and GitLab's reports give it: relative to
/// the repository's root (this one), not to the directory the check ran in.
fn from_root(file: &serde_json::Value) -> String {
    format!("test-data/check/cli/{}", file.as_str().expect("a path"))
}

/// The JSON format's message with its detail after a blank line, as the
/// formats with one text field write it.
fn message_with_detail(diagnostic: &serde_json::Value) -> String {
    let message = diagnostic["message"].as_str().expect("a message");
    match diagnostic["detail"].as_str() {
        Some(detail) => format!("{message}\n\n{detail}"),
        None => message.to_owned(),
    }
}

/// A diagnostic in one line, as the one-line formats give it: its message,
/// then, where its notes say what it is about, the first sentence of the
/// first.
fn headline(diagnostic: &serde_json::Value) -> String {
    let message = diagnostic["message"].as_str().expect("a message");
    let code = diagnostic["code"].as_str().expect("a code");
    let note = diagnostic["detail"]
        .as_str()
        .and_then(|detail| detail.lines().next())
        .filter(|_| analysis::rules::notes_name_the_subject(code));
    match note {
        Some(note) => {
            let end = note
                .match_indices(". ")
                .map(|(at, _)| at)
                .find(|&at| note[at + 2..].starts_with(|it: char| it.is_uppercase()));
            format!("{message}: {}", end.map_or(note, |end| &note[..=end]))
        }
        None => message.to_owned(),
    }
}

#[test]
fn concise_lines_give_path_position_severity_code_and_message() {
    let stdout = check(
        &["check", "--format", "concise", "project"],
        1,
        expect_file!["../test-data/check/cli/project.concise.txt"],
    );
    let expected: Vec<String> = project_diagnostics()
        .iter()
        .map(|it| {
            format!(
                "{}:{}:{}: {}[{}] {}",
                it["file"].as_str().expect("a file"),
                it["start"]["line"],
                it["start"]["column"],
                it["severity"].as_str().expect("a severity"),
                it["code"].as_str().expect("a code"),
                headline(it),
            )
        })
        .collect();
    assert_eq!(stdout.lines().collect::<Vec<_>>(), expected);
}

/// One GitHub workflow command, decoded as the runner decodes it.
#[derive(Debug, PartialEq)]
struct WorkflowCommand {
    command: String,
    properties: Vec<(String, String)>,
    message: String,
}

/// Reads `::command key=value,key=value::message`, undoing the escapes of
/// the runner's documentation (`%25`, `%0D`, `%0A` everywhere, `%3A` and
/// `%2C` in properties). An unescaped `:` or `,` in a value, or a line
/// break, would have split it differently, so it is an error here.
fn parse_workflow_command(line: &str) -> WorkflowCommand {
    fn unescape(text: &str) -> String {
        text.replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%25", "%")
    }
    let rest = line.strip_prefix("::").unwrap_or_else(|| panic!("a workflow command: {line}"));
    let (head, message) = rest.split_once("::").unwrap_or_else(|| panic!("a message: {line}"));
    let (command, properties) = head.split_once(' ').unwrap_or((head, ""));
    let properties = properties
        .split(',')
        .map(|property| {
            let (key, value) = property.split_once('=').unwrap_or_else(|| panic!("key=value: {property}"));
            assert!(!value.contains(':'), "an unescaped `:` in {property}");
            (key.to_owned(), unescape(value))
        })
        .collect();
    assert!(!message.contains('\n') && !message.contains('\r'), "{message}");
    WorkflowCommand { command: command.to_owned(), properties, message: unescape(message) }
}

#[test]
fn github_workflow_commands_carry_each_diagnostic_escaped() {
    let stdout = check(
        &["check", "--format", "github", "project"],
        1,
        expect_file!["../test-data/check/cli/project.github.txt"],
    );
    let commands: Vec<WorkflowCommand> = stdout.lines().map(parse_workflow_command).collect();
    let expected: Vec<WorkflowCommand> = project_diagnostics()
        .iter()
        .map(|it| WorkflowCommand {
            command: it["severity"].as_str().expect("a severity").to_owned(),
            properties: vec![
                ("file".to_owned(), from_root(&it["file"])),
                ("line".to_owned(), it["start"]["line"].to_string()),
                ("col".to_owned(), it["start"]["column"].to_string()),
                ("endLine".to_owned(), it["end"]["line"].to_string()),
                ("endColumn".to_owned(), it["end"]["column"].to_string()),
                ("title".to_owned(), format!("halite {}", it["code"].as_str().expect("a code"))),
            ],
            message: message_with_detail(it),
        })
        .collect();
    assert_eq!(commands, expected);
}

/// A path with `,` and `:` (a name a file may have), and notes, which put
/// line breaks in the message: each is escaped, and reads back whole.
#[test]
fn github_escapes_commas_colons_and_line_breaks() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("a,b:c%.tf"), "variable \"x\" {\n  default = \"${\"x\"}\"\n}\n")
        .expect("a written file");
    let (code, transcript) =
        support::run_halite(dir.path(), &["check", "--format", "github", "--quiet"], b"");
    assert_eq!(code, 0, "{transcript}");
    let line = transcript.lines().find(|line| line.contains("interpolation-only")).expect("a warning");
    assert!(line.starts_with("::warning file=a%2Cb%3Ac%25.tf,line=2,"), "{line}");
    let command = parse_workflow_command(line);
    assert_eq!(command.properties[0], ("file".to_owned(), "a,b:c%.tf".to_owned()));
    assert!(command.message.contains("deprecated\n\n"), "{:?}", command.message);
}

#[test]
fn gitlab_code_quality_has_its_fields_and_stable_unique_fingerprints() {
    let stdout = check(
        &["check", "--format", "gitlab", "project"],
        1,
        expect_file!["../test-data/check/cli/project.gitlab.txt"],
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON document");
    let issues = report.as_array().expect("an array of issues");
    let diagnostics = project_diagnostics();
    assert_eq!(issues.len(), diagnostics.len());
    let mut fingerprints = std::collections::HashSet::new();
    for (issue, diagnostic) in issues.iter().zip(&diagnostics) {
        assert_eq!(issue["description"], headline(diagnostic));
        assert_eq!(issue["check_name"], diagnostic["code"]);
        let severity = issue["severity"].as_str().expect("a severity");
        assert!(["info", "minor", "major", "critical", "blocker"].contains(&severity), "{issue}");
        assert_eq!(severity == "major", diagnostic["severity"] == "error", "{issue}");
        assert_eq!(issue["location"]["path"], from_root(&diagnostic["file"]));
        assert_eq!(issue["location"]["lines"]["begin"], diagnostic["start"]["line"]);
        assert_eq!(issue["location"]["lines"]["end"], diagnostic["end"]["line"]);
        let fingerprint = issue["fingerprint"].as_str().expect("a fingerprint");
        assert!(fingerprint.len() == 32 && fingerprint.bytes().all(|b| b.is_ascii_hexdigit()), "{issue}");
        assert!(fingerprints.insert(fingerprint.to_owned()), "a fingerprint twice: {issue}");
    }
}

/// Two identical diagnostics in one file (the same code, range and
/// message) still get two fingerprints, as GitLab needs them unique.
#[test]
fn identical_diagnostics_get_different_fingerprints() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Two NUL bytes side by side: two invalid characters, at two places;
    // the same text twice in two files: the path tells them apart.
    std::fs::write(dir.path().join("a.tf"), "a = 1\nb = [\n").expect("a written file");
    std::fs::write(dir.path().join("b.tf"), "a = 1\nb = [\n").expect("a written file");
    let (_, transcript) = support::run_halite(dir.path(), &["check", "--format", "gitlab", "-q"], b"");
    let stdout = transcript
        .split_once("--- stdout\n")
        .expect("stdout")
        .1
        .split_once("--- stderr\n")
        .expect("stderr")
        .0;
    let report: serde_json::Value = serde_json::from_str(stdout).expect("one JSON document");
    let fingerprints: std::collections::HashSet<&str> = report
        .as_array()
        .expect("issues")
        .iter()
        .map(|it| it["fingerprint"].as_str().expect("a string"))
        .collect();
    assert_eq!(fingerprints.len(), report.as_array().expect("issues").len(), "{stdout}");
    assert!(fingerprints.len() >= 2, "{stdout}");
}

/// An XML element read back: its name, attributes, children and text.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attributes: std::collections::BTreeMap<String, String>,
    children: Vec<Element>,
    text: String,
}

impl Element {
    fn attribute(&self, key: &str) -> &str {
        self.attributes.get(key).unwrap_or_else(|| panic!("`{key}` on {self:?}"))
    }
}

/// Parses `xml` with quick-xml's reader (entities and character references
/// resolved), checking that it is well-formed: one root, every element
/// closed.
fn parse_xml(xml: &str) -> Element {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(xml);
    reader.config_mut().check_end_names = true;
    let open = |start: &quick_xml::events::BytesStart<'_>| Element {
        name: String::from_utf8(start.name().as_ref().to_vec()).expect("UTF-8"),
        attributes: start
            .attributes()
            .map(|attribute| {
                let attribute = attribute.expect("a well-formed attribute");
                (
                    String::from_utf8(attribute.key.as_ref().to_vec()).expect("UTF-8"),
                    attribute.unescape_value().expect("a well-formed value").into_owned(),
                )
            })
            .collect(),
        ..Element::default()
    };
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(start) => stack.push(open(&start)),
            Event::Empty(start) => stack.last_mut().expect("a parent").children.push(open(&start)),
            Event::End(_) => {
                let element = stack.pop().expect("an open element");
                stack.last_mut().expect("a parent").children.push(element);
            }
            Event::Text(text) => {
                stack.last_mut().expect("an element").text.push_str(&text.decode().expect("UTF-8"))
            }
            Event::GeneralRef(reference) => {
                let text = match reference.resolve_char_ref().expect("a character reference") {
                    Some(c) => c.to_string(),
                    None => {
                        let name = reference.decode().expect("UTF-8");
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .expect("a predefined entity")
                            .to_owned()
                    }
                };
                stack.last_mut().expect("an element").text.push_str(&text);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let mut document = stack.pop().expect("the document");
    assert!(stack.is_empty(), "unclosed elements");
    assert_eq!(document.children.len(), 1, "one root element");
    document.children.remove(0)
}

#[test]
fn checkstyle_xml_lists_every_file_and_each_diagnostic() {
    let stdout = check(
        &["check", "--format", "checkstyle", "project"],
        1,
        expect_file!["../test-data/check/cli/project.checkstyle.txt"],
    );
    assert!(stdout.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"), "{stdout}");
    let root = parse_xml(&stdout);
    assert_eq!((root.name.as_str(), root.attribute("version")), ("checkstyle", "4.3"));
    let mut errors = Vec::new();
    for file in &root.children {
        assert_eq!(file.name, "file");
        for error in &file.children {
            assert_eq!(error.name, "error");
            errors.push((
                file.attribute("name").to_owned(),
                error.attribute("line").parse::<u64>().expect("a line"),
                error.attribute("column").parse::<u64>().expect("a column"),
                error.attribute("severity").to_owned(),
                error.attribute("message").to_owned(),
                error.attribute("source").to_owned(),
            ));
        }
    }
    let expected: Vec<_> = project_diagnostics()
        .iter()
        .map(|it| {
            (
                it["file"].as_str().expect("a file").to_owned(),
                it["start"]["line"].as_u64().expect("a line"),
                it["start"]["column"].as_u64().expect("a column"),
                it["severity"].as_str().expect("a severity").to_owned(),
                headline(it),
                format!("halite.{}", it["code"].as_str().expect("a code")),
            )
        })
        .collect();
    assert_eq!(errors, expected);
    // A file without diagnostics is listed too, as Checkstyle lists it.
    let names: Vec<&str> = root.children.iter().map(|file| file.attribute("name")).collect();
    assert_eq!(names, ["project/legacy/old.tf", "project/legacy/strict/new.tf", "project/main.tf"]);
}

#[test]
fn junit_xml_has_a_suite_per_file_and_a_failing_case_per_diagnostic() {
    let stdout = check(
        &["check", "--format", "junit", "project"],
        1,
        expect_file!["../test-data/check/cli/project.junit.txt"],
    );
    let root = parse_xml(&stdout);
    assert_eq!(root.name, "testsuites");
    let diagnostics = project_diagnostics();
    let (mut tests, mut failures) = (0, 0);
    let mut read = Vec::new();
    for suite in &root.children {
        assert_eq!(suite.name, "testsuite");
        let cases = &suite.children;
        let failed = cases.iter().filter(|case| !case.children.is_empty()).count();
        assert!(cases.iter().all(|case| case.name == "testcase"), "{suite:?}");
        assert_eq!(suite.attribute("tests"), cases.len().to_string());
        assert_eq!(suite.attribute("failures"), failed.to_string());
        (tests, failures) = (tests + cases.len(), failures + failed);
        for case in cases {
            assert_eq!(case.attribute("classname"), suite.attribute("name"));
            for failure in &case.children {
                assert_eq!(failure.name, "failure");
                read.push((
                    suite.attribute("name").to_owned(),
                    failure.attribute("type").to_owned(),
                    failure.attribute("message").to_owned(),
                    failure.text.clone(),
                ));
            }
        }
    }
    assert_eq!(root.attribute("tests"), tests.to_string());
    assert_eq!(root.attribute("failures"), failures.to_string());
    let expected: Vec<_> = diagnostics
        .iter()
        .map(|it| {
            let file = it["file"].as_str().expect("a file");
            let severity = it["severity"].as_str().expect("a severity");
            let message = it["message"].as_str().expect("a message");
            let line = format!(
                "{file}:{}:{}: {severity}[{}] ",
                it["start"]["line"],
                it["start"]["column"],
                it["code"].as_str().expect("a code")
            );
            let detail = it["detail"].as_str().map(|detail| format!("\n\n{detail}")).unwrap_or_default();
            (
                file.to_owned(),
                severity.to_owned(),
                message.to_owned(),
                format!("{line}{}{detail}", headline(it)),
            )
        })
        .collect();
    assert_eq!(read, expected);
}

/// Markup characters, line breaks and a control character in a message
/// (here a file's name, which the XML reports carry as an attribute) come
/// back as they were, the control character as U+FFFD, which XML 1.0
/// cannot hold even escaped.
#[test]
fn xml_reports_escape_what_they_carry() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let name = "<a&\"b'\n\u{1}>.tf";
    std::fs::write(dir.path().join(name), "a = \n").expect("a written file");
    for format in ["checkstyle", "junit"] {
        let (code, transcript) =
            support::run_halite(dir.path(), &["check", "--format", format, "-q", "."], b"");
        assert_eq!(code, 1, "{transcript}");
        let stdout = transcript
            .split_once("--- stdout\n")
            .expect("stdout")
            .1
            .split_once("--- stderr\n")
            .expect("stderr")
            .0;
        let root = parse_xml(stdout);
        let file = &root.children[0];
        assert_eq!(file.attribute("name"), "<a&\"b'\n\u{FFFD}>.tf", "{stdout}");
    }
}

/// Every format gives the same bytes from run to run.
#[test]
fn every_format_is_deterministic() {
    for format in ["human", "concise", "json", "sarif", "github", "gitlab", "checkstyle", "junit"] {
        let first = halite(&["check", "--format", format, "project", "modules", "syntax-error"]).1;
        let second = halite(&["check", "--format", format, "project", "modules", "syntax-error"]).1;
        assert_eq!(first, second, "{format}");
    }
}

/// `--output-file` writes the report there, whole, and only there: the
/// summary stays on standard error; a file already there is replaced; a
/// directory that does not exist is made, and one that cannot be (a file
/// is in its place) is an error (exit 2) that leaves nothing.
#[test]
fn output_file_gets_the_report_and_stderr_the_summary() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join("main.tf"), "variable \"x\" {\n  default = \"${\"x\"}\"\n}\n")
        .expect("a file");
    std::fs::write(dir.path().join("report.xml"), "old").expect("a file");
    let (code, transcript) = support::run_halite(
        dir.path(),
        &["check", "--format", "junit", "--output-file", "report.xml", "main.tf"],
        b"",
    );
    assert_eq!(code, 0, "{transcript}");
    assert!(
        transcript.contains("--- stdout\n--- stderr\nchecked 1 file in 1 module: 0 errors, 2 warnings\n"),
        "{transcript}"
    );
    let report = std::fs::read_to_string(dir.path().join("report.xml")).expect("the report");
    let (_, stdout_run) = support::run_halite(dir.path(), &["check", "--format", "junit", "main.tf"], b"");
    assert!(stdout_run.contains(&format!("--- stdout\n{report}--- stderr\n")), "{stdout_run}\n{report}");
    parse_xml(&report);
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("a directory")
        .map(|entry| entry.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let (code, transcript) =
        support::run_halite(dir.path(), &["check", "--output-file", "reports/a/report.txt", "main.tf"], b"");
    assert_eq!(code, 0, "{transcript}");
    assert!(dir.path().join("reports/a/report.txt").is_file());

    let (code, transcript) =
        support::run_halite(dir.path(), &["check", "--output-file", "main.tf/report.txt", "main.tf"], b"");
    assert_eq!(code, 2, "{transcript}");
    assert!(transcript.contains("halite: cannot write `main.tf/report.txt`: "), "{transcript}");
    // The temporary file the report would have gone to is no concern of
    // the user's.
    assert!(!transcript.contains(".halite-report"), "{transcript}");
}

#[test]
fn quiet_prints_only_the_diagnostics() {
    let (code, transcript, _) = halite(&["check", "--quiet", "--format", "concise", "warnings-only"]);
    assert_eq!(code, 0);
    assert!(transcript.ends_with("--- stderr\n"), "{transcript}");
    assert!(transcript.contains("warnings-only/main.tf:1:1: warning[unused-declaration]"), "{transcript}");
}

/// `--color auto` (the default) colours only a terminal, which a test's
/// pipe is not; `always` colours a pipe, `never` nothing.
#[test]
fn color_follows_the_flag() {
    let escape = "\u{1b}[";
    let (_, auto, _) = halite(&["check", "warnings-only"]);
    assert!(!auto.contains(escape), "{auto}");
    let (_, always, _) = halite(&["check", "--color", "always", "warnings-only"]);
    assert!(always.contains(escape), "{always}");
    let (_, never, _) = halite(&["check", "--color", "never", "warnings-only"]);
    assert_eq!(never.replace("--color never ", ""), auto);
}

#[test]
fn statistics_count_each_code_the_most_frequent_first() {
    // 5 undeclared-reference, then interpolation-only (3), then the codes
    // of 2 and of 1, each count's codes in order; the exit code is the
    // check's (errors: 1), and the summary line is unchanged.
    let stdout = check(
        &["check", "--statistics", "project", "modules"],
        1,
        expect_file!["../test-data/check/cli/statistics.txt"],
    );
    let counts: Vec<usize> =
        stdout.lines().filter_map(|line| line.split_whitespace().next()?.parse().ok()).collect();
    assert!(counts.windows(2).all(|pair| pair[0] >= pair[1]), "{stdout}");
    assert_eq!(counts.iter().sum::<usize>(), 14, "every diagnostic counted once: {stdout}");
    // The statistics replace the report: no format to choose.
    check(
        &["check", "--statistics", "--format", "json", "project"],
        2,
        expect_file!["../test-data/check/cli/statistics.with-format.txt"],
    );
}

/// A copy of `test-data/check/cli/fixable/` in a temporary directory, for
/// the runs that write.
fn fixable_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let from = fixtures().join("fixable");
    for relative in ["main.tf", "terraform.tfvars", "broken/main.tf"] {
        let to = dir.path().join(relative);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("a directory");
        std::fs::copy(from.join(relative), to).expect("a copy");
    }
    dir
}

fn read(dir: &Path, relative: &str) -> String {
    std::fs::read_to_string(dir.join(relative)).expect("a readable file")
}

/// `--diff` shows the safe fixes (a nested interpolation in two passes)
/// and writes nothing, exit 1; `--unsafe-fixes` adds the did-you-mean. A
/// fix silenced by an ignore comment is not applied, and a file with
/// syntax errors is not touched.
#[test]
fn diff_shows_the_fixes_and_writes_nothing() {
    let dir = fixable_copy();
    let before = read(dir.path(), "main.tf");
    let (code, transcript) = support::run_halite(dir.path(), &["check", "--diff"], b"");
    expect_file!["../test-data/check/cli/fixable.diff.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    assert_eq!(read(dir.path(), "main.tf"), before);
    let (code, transcript) = support::run_halite(dir.path(), &["check", "--diff", "--unsafe-fixes"], b"");
    expect_file!["../test-data/check/cli/fixable.diff-unsafe.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    assert_eq!(read(dir.path(), "main.tf"), before);
}

/// `--fix` writes the safe fixes and reports what remains (the
/// misspelling, the syntax error); a second check finds none of the fixed
/// diagnostics, and `--diff` nothing more (exit 0). `--unsafe-fixes` then
/// fixes the misspelling too.
#[test]
fn fix_writes_the_safe_fixes_and_reports_what_remains() {
    let dir = fixable_copy();
    let broken = read(dir.path(), "broken/main.tf");
    let (code, transcript) = support::run_halite(dir.path(), &["check", "--fix", "--format", "concise"], b"");
    expect_file!["../test-data/check/cli/fixable.fix.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    expect_file!["../test-data/check/cli/fixable.fixed.tf.txt"].assert_eq(&read(dir.path(), "main.tf"));
    assert_eq!(read(dir.path(), "broken/main.tf"), broken);

    let (_, again) = support::run_halite(dir.path(), &["check", "--format", "concise"], b"");
    for code in ["quoted-type-constraint", "legacy-index", "attribute-splat"] {
        assert!(!again.contains(code), "{again}");
    }
    // The ignored one stays, silenced.
    assert!(read(dir.path(), "main.tf").contains("kept = \"${var.region}\""));
    // Nothing more to fix; the file with syntax errors is said, not
    // passed over, and the exit says there is something to do.
    let (code, nothing) = support::run_halite(dir.path(), &["check", "--diff"], b"");
    assert_eq!(code, 1, "{nothing}");
    assert!(
        nothing.contains(
            "--- stdout\n--- stderr\nhalite: `broken/main.tf` has syntax errors and is not fixed; `halite check` shows them\nwould fix 0 diagnostics in 0 files\n"
        ),
        "{nothing}"
    );

    let (code, transcript) =
        support::run_halite(dir.path(), &["check", "--fix", "--unsafe-fixes", "main.tf"], b"");
    assert_eq!(code, 0, "{transcript}");
    assert!(read(dir.path(), "main.tf").contains("misspelt = var.region\n"));
}

/// `--fix -` fixes standard input as ruff's does: the fixed text, whole,
/// on standard output, and what remains reported on standard error; its
/// module's files on disk are read with it, so a did-you-mean sees what
/// they declare. `--diff -` prints the diff instead. Nothing is written.
#[test]
fn fix_of_standard_input_prints_the_fixed_text() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let variables = "variable \"region\" {\n  type = string\n}\n";
    std::fs::write(dir.path().join("variables.tf"), variables).expect("a file");
    let input = b"output \"o\" {\n  value = \"${var.regoin}\"\n}\n";
    let run = |args: &[&str]| support::run_halite(dir.path(), args, input);
    let (code, transcript) =
        run(&["check", "--fix", "--format", "concise", "--stdin-filename", "main.tf", "-"]);
    assert_eq!(code, 1, "{transcript}");
    assert!(
        transcript.starts_with(
            "$ halite check --fix --format concise --stdin-filename main.tf -\nexit: 1\n--- stdout\noutput \"o\" {\n  value = var.regoin\n}\n--- stderr\nfixed 1 diagnostic\nmain.tf:2:11: error[undeclared-reference]"
        ),
        "{transcript}"
    );
    let (code, transcript) = run(&["check", "--fix", "--unsafe-fixes", "--stdin-filename", "main.tf", "-"]);
    assert_eq!(code, 0, "{transcript}");
    assert!(
        transcript.contains(
            "--- stdout\noutput \"o\" {\n  value = var.region\n}\n--- stderr\nfixed 2 diagnostics\n"
        ),
        "{transcript}"
    );
    let (code, transcript) = run(&["check", "--diff", "--stdin-filename", "main.tf", "-"]);
    assert_eq!(code, 1, "{transcript}");
    assert!(transcript.contains("+  value = var.regoin\n"), "{transcript}");
    assert!(!dir.path().join("main.tf").exists());
    assert_eq!(std::fs::read_to_string(dir.path().join("variables.tf")).expect("a file"), variables);
}

/// Nomad reads one file per job: a directory of job files is not one
/// module, and a job's `var.NAME` is declared in its own file.
#[test]
fn each_nomad_job_file_is_a_unit_of_its_own() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let job = |name: &str, declares: bool| {
        let variable = if declares { "variable \"image\" {\n  type = string\n}\n\n" } else { "" };
        format!(
            "{variable}job \"{name}\" {{\n  group \"g\" {{\n    task \"t\" {{\n      driver = \"docker\"\n      config {{\n        image = var.image\n      }}\n    }}\n  }}\n}}\n"
        )
    };
    std::fs::write(dir.path().join("api.nomad"), job("api", true)).expect("a file");
    std::fs::write(dir.path().join("worker.nomad"), job("worker", false)).expect("a file");
    let (code, transcript) =
        support::run_halite(dir.path(), &["check", "--no-cache", "--format", "concise", "."], b"");
    assert_eq!(code, 1, "{transcript}");
    assert!(transcript.contains("worker.nomad:6:17: error[undeclared-reference]"), "{transcript}");
    assert!(!transcript.contains("api.nomad:"), "{transcript}");
}

/// An empty `--cache-dir` (a CI variable left unset) is refused rather
/// than taken for the current directory, where the cache's files would
/// land in the user's tree.
#[test]
fn an_empty_cache_dir_is_refused() {
    let (code, transcript, _) = halite(&["check", "--cache-dir", "", "fixable"]);
    assert_eq!(code, 2, "{transcript}");
    assert!(transcript.contains("a value is required for '--cache-dir <DIR>'"), "{transcript}");
}

#[test]
fn unsafe_fixes_need_fix_or_diff() {
    let (code, transcript, _) = halite(&["check", "--unsafe-fixes", "fixable"]);
    assert_eq!(code, 2, "{transcript}");
    assert!(transcript.contains("<--fix|--diff>"), "{transcript}");
    // `--diff` prints a diff, not a report: no format to choose.
    for other in [&["--statistics"][..], &["--format", "json"], &["--output-file", "out"]] {
        let (code, transcript, _) = halite(&[&["check", "--diff"][..], other, &["fixable"]].concat());
        assert_eq!(code, 2, "{transcript}");
        assert!(transcript.contains("cannot be used with"), "{transcript}");
    }
}

/// The checks of several modules, lone files and a syntax error, split
/// into N shards for N = 1..8: every diagnostic line is in exactly one
/// shard, and together they are the unsharded run's, each shard's output
/// the same bytes from run to run.
#[test]
fn shards_together_are_the_whole_run() {
    let paths = ["project", "modules", "opentofu", "warnings-only", "syntax-error", "fixable"];
    let run = |shard: Option<String>| {
        let mut args = vec!["check", "--quiet", "--format", "concise"];
        args.extend(paths);
        if let Some(shard) = &shard {
            args.extend(["--shard", shard.as_str()]);
            let (code, transcript, stdout) = halite(&args);
            assert_eq!(transcript, halite(&args).1, "shard {shard} is deterministic");
            (code, stdout)
        } else {
            let (code, _, stdout) = halite(&args);
            (code, stdout)
        }
    };
    let (whole_code, whole) = run(None);
    let mut whole: Vec<&str> = whole.lines().collect();
    whole.sort_unstable();
    assert!(whole.len() > 20, "{whole:?}");
    for count in 1..=8 {
        let shards: Vec<(i32, String)> =
            (1..=count).map(|index| run(Some(format!("{index}/{count}")))).collect();
        let mut union: Vec<&str> = shards.iter().flat_map(|(_, stdout)| stdout.lines()).collect();
        union.sort_unstable();
        assert_eq!(union, whole, "{count} shards");
        let worst = shards.iter().map(|(code, _)| *code).max().expect("a shard");
        assert_eq!(worst, whole_code, "{count} shards");
    }
}

/// A unit stays in its shard when another is added: each shard of a run
/// with one more module holds what it held, and the new module's lines.
#[test]
fn a_unit_keeps_its_shard_as_others_are_added() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::create_dir(dir.path().join(".git")).expect("a directory");
    let module = |name: &str| {
        let path = dir.path().join(name).join("main.tf");
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, "locals {\n  a = \"${\"x\"}\"\n}\n").expect("a file");
    };
    let shards = || -> Vec<String> {
        (1..=3)
            .map(|index| {
                let shard = format!("{index}/3");
                let args = ["check", "--quiet", "--format", "concise", "--shard", shard.as_str()];
                support::run_halite(dir.path(), &args, b"").1
            })
            .collect()
    };
    for name in ["a", "b", "c", "d", "e", "f"] {
        module(name);
    }
    let before = shards();
    module("g");
    let after = shards();
    for (before, after) in before.iter().zip(&after) {
        let kept: Vec<&str> = after.lines().filter(|line| !line.starts_with("g/")).collect();
        assert_eq!(before.lines().collect::<Vec<_>>(), kept);
    }
    assert_eq!(after.iter().filter(|shard| shard.contains("g/main.tf")).count(), 1, "{after:?}");
}

#[test]
fn a_shard_that_does_not_exist_is_a_usage_error() {
    for shard in ["0/3", "4/3", "1/0", "3", "a/b"] {
        let (code, transcript, _) = halite(&["check", "--shard", shard, "project"]);
        assert_eq!(code, 2, "{transcript}");
        assert!(transcript.contains("invalid value") && transcript.contains("--shard <K/N>"), "{transcript}");
    }
}

/// A nested `halite.toml` extends the one above it (its `[rules]` after
/// the parent's), `root = true` stops that, and `exclude` leaves out a
/// directory (the parent's, relative to the parent) and a glob of files,
/// found by a walk or named: each case a line of the report.
#[test]
fn nested_configurations_extend_their_parents_and_exclude_files() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path();
    let text = "locals {\n  l = [1]\n  a = local.l.0\n  b = \"${local.l}\"\n}\noutput \"o\" {\n  value = [local.a, local.b]\n}\n";
    for (path, contents) in [
        (".git/HEAD", "ref: refs/heads/main\n"),
        ("halite.toml", "exclude = [\"vendor\"]\n[rules]\nlegacy-index = \"error\"\n"),
        ("main.tf", text),
        ("vendor/main.tf", text),
        ("app/halite.toml", "exclude = [\"*.generated.tf\"]\n[rules]\ninterpolation-only = \"off\"\n"),
        ("app/main.tf", text),
        ("app/x.generated.tf", "locals {\n  c = \"${local.l}\"\n}\n"),
        ("app/fresh/halite.toml", "root = true\n"),
        ("app/fresh/main.tf", text),
    ] {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        std::fs::write(path, contents).expect("a file");
    }
    let (code, transcript) = support::run_halite(root, &["check", "--format", "concise"], b"");
    expect_file!["../test-data/check/cli/nested-config.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    // Named on the command line, an excluded file is still left out.
    let (code, transcript) = support::run_halite(
        root,
        &["check", "--format", "concise", "vendor/main.tf", "app/x.generated.tf"],
        b"",
    );
    assert_eq!(code, 0, "{transcript}");
    assert!(transcript.contains("--- stdout\n--- stderr\nchecked 0 files in 0 modules"), "{transcript}");
    // So is standard input named as one (an editor's or a hook's).
    let (code, transcript) = support::run_halite(
        root,
        &["check", "--format", "concise", "--stdin-filename", "vendor/main.tf", "-"],
        text.as_bytes(),
    );
    assert_eq!(code, 0, "{transcript}");
    assert!(transcript.contains("--- stdout\n--- stderr\nchecked 0 files in 0 modules"), "{transcript}");
    // A mistake in the parent's file stops a check of the nested one's files.
    std::fs::write(root.join("halite.toml"), "[rules]\nlegacy-idx = \"error\"\n").expect("a file");
    let (code, transcript) = support::run_halite(root, &["check", "app"], b"");
    assert_eq!(code, 2, "{transcript}");
    assert!(transcript.contains("halite.toml:2:1: unknown rule `legacy-idx`"), "{transcript}");
}
