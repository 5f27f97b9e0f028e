//! The `halite` binary, run on the fixture folders of `test-data/cli/`.
//!
//! Each case records the command, its exit code, its standard output and its
//! standard error in one file under `test-data/cli/`, compared with
//! `expect_file!`; `UPDATE_EXPECT=1 cargo test -p halite` refreshes them.

use crate::support;

use std::path::{Path, PathBuf};

use expect_test::{ExpectFile, expect_file};

fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data/cli")
}

/// Runs `halite` in `test-data/cli/` (so paths in the output are short and
/// the same on every machine) and returns the exit code and a transcript.
fn halite(args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    halite_in(&test_data(), args, stdin)
}

fn halite_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> (i32, String) {
    support::run_halite(dir, args, stdin.unwrap_or_default())
}

fn check(args: &[&str], expected_code: i32, expected: ExpectFile) {
    let (code, transcript) = halite(args, None);
    expected.assert_eq(&transcript);
    assert_eq!(code, expected_code, "{transcript}");
}

#[test]
fn check_walks_hcl_files_skipping_ignored_hidden_and_terraform_dirs() {
    // The files that must be skipped are not UTF-8: checking one would be an
    // error and exit 1. The summary counts the five that must be checked.
    check(&["check", "valid"], 0, expect_file!["../test-data/cli/valid.check.txt"]);
}

#[test]
fn check_defaults_to_the_current_directory_and_names_files_without_dot_slash() {
    let (code, transcript) = halite_in(&test_data().join("invalid-utf8"), &["check"], None);
    expect_file!["../test-data/cli/default-path.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
}

#[test]
fn check_takes_a_named_file_whatever_its_extension() {
    check(
        &["check", "valid/terragrunt.hcl.example"],
        0,
        expect_file!["../test-data/cli/valid.named-file.txt"],
    );
}

#[test]
fn check_walks_a_hidden_directory_named_on_the_command_line() {
    check(&["check", "valid/.hidden"], 1, expect_file!["../test-data/cli/valid.hidden-root.txt"]);
}

#[test]
fn check_reports_invalid_utf8_at_the_first_bad_byte() {
    check(&["check", "invalid-utf8"], 1, expect_file!["../test-data/cli/invalid-utf8.check.txt"]);
}

#[test]
fn check_json_is_one_object_per_diagnostic_per_line() {
    let (code, transcript) = halite(&["check", "--format", "json", "invalid-utf8"], None);
    expect_file!["../test-data/cli/invalid-utf8.json.txt"].assert_eq(&transcript);
    assert_eq!(code, 1);
    let stdout = transcript.split("--- stdout\n").nth(1).and_then(|rest| rest.split("--- stderr\n").next());
    let lines: Vec<&str> = stdout.unwrap_or_default().lines().collect();
    assert_eq!(lines.len(), 1, "{transcript}");
    let value: serde_json::Value = serde_json::from_str(lines[0]).expect("each line is JSON");
    // The bad byte follows "é", two bytes but one column.
    assert_eq!((value["start"]["line"].as_u64(), value["start"]["column"].as_u64()), (Some(2), Some(22)));
    assert_eq!(value["start"]["byte"], 96);
}

#[test]
fn check_says_a_missing_path_and_checks_the_others() {
    check(&["check", "valid", "no-such-dir"], 2, expect_file!["../test-data/cli/missing-path.txt"]);
}

#[test]
fn a_bad_flag_cannot_run() {
    check(&["check", "--no-such-flag"], 2, expect_file!["../test-data/cli/bad-flag.txt"]);
}

#[test]
fn a_misspelt_subcommand_or_flag_gets_clap_s_hint_and_a_missing_argument_is_named() {
    check(&["chek"], 2, expect_file!["../test-data/cli/misspelt-subcommand.txt"]);
    check(&["check", "--deny-warning"], 2, expect_file!["../test-data/cli/misspelt-flag.txt"]);
    check(&["eval"], 2, expect_file!["../test-data/cli/missing-argument.txt"]);
}

#[test]
fn completions_are_a_script_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, transcript) = halite(&["completions", shell], None);
        assert_eq!(code, 0, "{transcript}");
        // Every subcommand and a flag of one are offered.
        for word in ["check", "fmt", "eval", "watch", "completions", "deny-warnings"] {
            assert!(transcript.contains(word), "{shell}: no {word} in\n{transcript}");
        }
    }
    let (code, transcript) = halite(&["completions", "tcsh"], None);
    assert_eq!(code, 2, "{transcript}");
}

#[test]
fn parse_reads_stdin() {
    // Only the root is checked here: the shape of the tree below it is the
    // parser's business, tested with the parser's own data.
    let (code, transcript) = halite(&["parse", "-"], Some(b"a = 1\n"));
    let stdout = transcript.split("--- stdout\n").nth(1).unwrap_or_default();
    assert!(stdout.starts_with("SOURCE_FILE@0..6\n"), "{transcript}");
    assert!(stdout.contains("\"a\""), "{transcript}");
    assert!(!stdout.contains("\nerror "), "{transcript}");
    assert_eq!(code, 0, "{transcript}");
}

#[test]
fn parse_invalid_utf8_prints_no_tree_and_the_reason() {
    let (code, transcript) = halite(&["parse", "-"], Some(b"a = \"\xff\"\n"));
    expect_file!["../test-data/cli/parse-invalid-utf8.txt"].assert_eq(&transcript);
    assert_eq!(code, 1);
}

#[test]
fn parse_prints_the_tree_then_the_errors() {
    check(&["parse", "syntax-error/main.tf"], 1, expect_file!["../test-data/cli/syntax-error.parse.txt"]);
}

#[test]
fn check_reports_syntax_errors() {
    check(&["check", "syntax-error"], 1, expect_file!["../test-data/cli/syntax-error.check.txt"]);
}

#[test]
fn check_syntax_errors_as_json() {
    check(
        &["check", "--format", "json", "syntax-error"],
        1,
        expect_file!["../test-data/cli/syntax-error.json.txt"],
    );
}

#[test]
fn the_readme_example_shows_one_deliberate_error() {
    // Run from the workspace root, as the README's command is.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (code, transcript) = halite_in(root, &["check", "examples/terraform-web-service"], None);
    expect_file!["../test-data/cli/examples.check.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
}

#[test]
fn check_reads_json_twins_in_the_json_syntax_and_skips_other_json() {
    check(&["check", "json"], 1, expect_file!["../test-data/cli/json.check.txt"]);
}

#[test]
fn parse_shows_a_json_file_as_its_json_tree() {
    check(&["parse", "json/broken.tf.json"], 1, expect_file!["../test-data/cli/json.parse.txt"]);
}

/// How deep the command-line test nests unary operators: far past the
/// parser's limit and past where each command used to overflow its stack
/// (`watch` at about 3,600, `eval` 14,500, `dec` 20,000, `parse` and `fmt`
/// 30,800), yet quick to run through every command in a debug build.
const DEEP_UNARY: usize = 100_000;

/// Every command survives deeply nested unary operators: each reports the
/// parser's `nesting-too-deep` and exits with its usual code for a syntax
/// error, rather than being killed by a stack overflow (`run_halite`
/// asserts an exit code, which a killed process does not have).
#[test]
fn deep_unary_operators_are_a_diagnostic_in_every_command() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bangs = "!".repeat(DEEP_UNARY);
    let files = [
        ("not.tf", format!("a = {bangs}true\n")),
        ("minus.tf", format!("b = {}1\n", "-".repeat(DEEP_UNARY))),
        ("template.tf", format!("c = \"${{{bangs}true}}\"\n")),
        ("for_if.tf", format!("d = [for x in [true] : x if {bangs}x]\n")),
        ("fine.tf", "e = !!true\n".to_owned()),
        // As deep as the parser goes: the attribute is one level, its
        // operators the other 127. Lowered, evaluated and formatted whole.
        ("limit.tf", format!("g = {}true\n", "!".repeat(127))),
    ];
    for (name, text) in &files {
        std::fs::write(dir.path().join(name), text).expect("a written file");
    }
    std::fs::write(dir.path().join("spec.hcldec"), "object {\n  attr \"a\" {\n    type = any\n  }\n}\n")
        .expect("a written spec");
    let run = |args: &[&str], expected_code: i32| {
        let (code, transcript) = halite_in(dir.path(), args, None);
        assert_eq!(
            code,
            expected_code,
            "halite {}: {}",
            args.join(" "),
            &transcript[..transcript.len().min(2000)]
        );
        transcript
    };
    let reports_nesting = |transcript: &str, args: &[&str]| {
        assert!(
            transcript.contains("nesting-too-deep") || transcript.contains("Nesting too deep"),
            "halite {}: {}",
            args.join(" "),
            &transcript[..transcript.len().min(2000)]
        );
    };

    for (name, _) in &files[..4] {
        for args in [
            vec!["parse", name],
            vec!["fmt", "--check", name],
            vec!["eval", name],
            vec!["check", name],
            vec!["dec", "--spec", "spec.hcldec", name],
        ] {
            let expected_code = match args[0] {
                // `fmt` could not format the file, `dec` follows `hcldec`.
                "fmt" | "dec" => 2,
                _ => 1,
            };
            let transcript = run(&args, expected_code);
            reports_nesting(&transcript, &args);
        }
    }

    let transcript = run(&["fmt", "--check", "limit.tf"], 0);
    assert!(!transcript.contains("error"), "{transcript}");

    // `fmt` in place leaves a file with a syntax error as it was, and
    // formats the rest.
    std::fs::write(dir.path().join("fine.tf"), "e   = !!true\n").expect("a written file");
    run(&["fmt", "."], 2);
    for (name, text) in &files[..4] {
        let now = std::fs::read_to_string(dir.path().join(name)).expect("a readable file");
        assert!(now == *text, "fmt changed {name}");
    }
    assert_eq!(std::fs::read_to_string(dir.path().join("fine.tf")).ok().as_deref(), Some("e = !!true\n"));

    // A directory: every file's error, and the value of the one that parses.
    let transcript = run(&["check", "."], 1);
    assert_eq!(
        transcript.matches("error[nesting-too-deep]").count(),
        4,
        "{}",
        &transcript[..transcript.len().min(4000)]
    );
    let transcript = run(&["eval", "."], 1);
    let stdout = transcript.split("--- stdout\n").nth(1).and_then(|rest| rest.split("--- stderr\n").next());
    let values: serde_json::Value =
        serde_json::from_str(stdout.unwrap_or_default()).expect("eval prints JSON");
    assert_eq!(
        values,
        serde_json::json!({"e": true, "g": false}),
        "{}",
        &transcript[..transcript.len().min(4000)]
    );
    reports_nesting(&transcript, &["eval", "."]);
}

/// A tree with what a walk cannot read: a directory nobody may list, a
/// directory and a file whose names are not UTF-8 (each holding or being
/// an HCL file), a non-UTF-8 name that is no HCL file, and files to check,
/// one with a syntax error.
fn tree_with_unreadable_entries() -> tempfile::TempDir {
    use std::{ffi::OsStr, fs, os::unix::ffi::OsStrExt, os::unix::fs::PermissionsExt};
    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path();
    fs::write(root.join("good.tf"), "output \"a\" { value = 1 }\n").expect("a file");
    fs::write(root.join("broken.tf"), "b = [1 2]\n").expect("a file");
    let latin1 = root.join(OsStr::from_bytes(b"caf\xe9"));
    fs::create_dir(&latin1).expect("a directory");
    fs::write(latin1.join("main.tf"), "c = 1\n").expect("a file");
    fs::write(root.join(OsStr::from_bytes(b"bad\xff.tf")), "d = 1\n").expect("a file");
    fs::write(root.join(OsStr::from_bytes(b"notes\xff.txt")), "not HCL").expect("a file");
    fs::create_dir_all(root.join("secret/inner")).expect("a directory");
    fs::write(root.join("secret/inner/main.tf"), "e = 1\n").expect("a file");
    // A module with a file that cannot be read: the rest is checked file by
    // file, so `var.x` is not taken for undeclared.
    fs::create_dir(root.join("m")).expect("a directory");
    fs::write(root.join("m/main.tf"), "output \"o\" {\n  value = var.x\n}\n").expect("a file");
    fs::write(root.join("m/variables.tf"), "variable \"x\" {}\n").expect("a file");
    fs::set_permissions(root.join("m/variables.tf"), fs::Permissions::from_mode(0o000))
        .expect("permissions are set");
    fs::create_dir(root.join("z")).expect("a directory");
    fs::write(root.join("z/last.tf"), "output \"f\" { value = 1 }\n").expect("a file");
    fs::set_permissions(root.join("secret"), fs::Permissions::from_mode(0o000)).expect("permissions are set");
    dir
}

/// One unreadable directory, file or non-UTF-8 name no longer stops a walk:
/// each is reported on standard error with its own path, everything else is
/// checked, and the run exits 2 (it could not do all it was asked).
#[test]
fn a_walk_reports_what_it_cannot_read_and_checks_the_rest() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree_with_unreadable_entries();
    let human = support::run_halite_unprivileged(dir.path(), &["check", "."]);
    let json = support::run_halite_unprivileged(dir.path(), &["check", "--format", "json", "."]);
    // Listable again, so that the temporary directory can be removed.
    std::fs::set_permissions(dir.path().join("secret"), std::fs::Permissions::from_mode(0o755))
        .expect("permissions are set");
    let (Some((code, transcript)), Some((json_code, json))) = (human, json) else { return };
    expect_file!["../test-data/cli/walk-problems.check.txt"].assert_eq(&transcript);
    assert_eq!(code, 2, "{transcript}");
    expect_file!["../test-data/cli/walk-problems.json.txt"].assert_eq(&json);
    assert_eq!(json_code, 2, "{json}");
}

/// What is not a regular file, named on the command line, is refused
/// unread by every command that reads one, as `fmt` refuses it: a FIFO
/// would block the run until a writer came (for ever, in CI), and
/// `/dev/zero` grew `check` to gigabytes before it gave up. Standard input
/// stays readable through `-`.
#[test]
fn a_fifo_or_a_device_named_on_the_command_line_is_refused_unread() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let status =
        std::process::Command::new("mkfifo").arg(dir.path().join("pipe.tf")).status().expect("mkfifo runs");
    assert!(status.success());
    std::fs::write(dir.path().join("spec.hcldec"), "object {\n  attr \"a\" {\n    type = any\n  }\n}\n")
        .expect("a written spec");
    for (args, reason) in [
        (&["check", "pipe.tf"][..], "halite: cannot read `pipe.tf`: not a regular file but a FIFO\n"),
        (
            &["check", "/dev/zero"],
            "halite: cannot read `/dev/zero`: not a regular file but a character device\n",
        ),
        (&["eval", "pipe.tf"], "halite: cannot read `pipe.tf`: not a regular file but a FIFO\n"),
        (
            &["eval", "/dev/zero"],
            "halite: cannot read `/dev/zero`: not a regular file but a character device\n",
        ),
        (&["parse", "pipe.tf"], "halite: cannot read `pipe.tf`: not a regular file but a FIFO\n"),
        (&["dec", "--spec", "spec.hcldec", "pipe.tf"], "could not be read"),
        (
            &["eval", ".", "--var-file", "pipe.tf"],
            "halite: cannot read `pipe.tf`: not a regular file but a FIFO\n",
        ),
    ] {
        let (code, transcript) = halite_in(dir.path(), args, None);
        assert_eq!(code, 2, "{transcript}");
        assert!(transcript.contains(reason), "{transcript}");
    }
    let (code, transcript) = halite_in(dir.path(), &["eval", "-"], Some(b"a = 1\n"));
    assert_eq!(code, 0, "{transcript}");
}

/// An input past the size limit (64 MiB) is refused with a diagnostic
/// naming it, having read at most one byte past the limit: a sparse file
/// by its length, standard input by counting.
#[test]
fn an_input_larger_than_the_limit_is_refused() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let big = std::fs::File::create(dir.path().join("big.tf")).expect("a file");
    big.set_len((64 << 20) + 1).expect("a sparse file of 64 MiB and a byte");
    let reason = "halite: cannot read `big.tf`: larger than the limit of 64 MiB\n";
    for args in [&["check", "big.tf"][..], &["eval", "big.tf"], &["parse", "big.tf"], &["fmt", "big.tf"]] {
        let (code, transcript) = halite_in(dir.path(), args, None);
        assert_eq!(code, 2, "{transcript}");
        assert!(transcript.contains(reason), "{transcript}");
    }
    // A module with the file cannot be loaded without it.
    let (code, transcript) = halite_in(dir.path(), &["eval", "."], None);
    assert_eq!(code, 2, "{transcript}");
    assert!(transcript.contains(reason), "{transcript}");
    let stdin = vec![b' '; (64 << 20) + 1];
    let (code, transcript) = halite_in(dir.path(), &["eval", "-"], Some(&stdin));
    assert_eq!(code, 2, "{transcript}");
    assert!(
        transcript.contains("halite: cannot read standard input: larger than the limit of 64 MiB\n"),
        "{transcript}"
    );
}

#[test]
fn rule_explains_a_rule_its_level_and_how_to_change_it() {
    check(&["rule", "legacy-index"], 0, expect_file!["../test-data/cli/rule.legacy-index.txt"]);
}

#[test]
fn rule_without_a_code_lists_every_rule_with_its_default_level() {
    check(&["rule"], 0, expect_file!["../test-data/cli/rule.list.txt"]);
}

/// The codes diagnostics print that are not rules (a syntax error's, the
/// cap's) are explained too, as what they are.
#[test]
fn rule_explains_the_codes_that_are_not_rules() {
    for code in ["unclosed-block", "json-trailing-comma", "too-many-diagnostics"] {
        let (code_exit, transcript) = support::run_halite(&test_data(), &["rule", code], b"");
        assert_eq!(code_exit, 0, "{transcript}");
        assert!(transcript.contains(&format!("{code} (")), "{transcript}");
    }
    check(&["rule", "unclosed-block"], 0, expect_file!["../test-data/cli/rule.syntax-error.txt"]);
}

#[test]
fn rule_with_an_unknown_code_cannot_run_and_suggests_the_closest() {
    check(&["rule", "interpolaton-only"], 2, expect_file!["../test-data/cli/rule.misspelt.txt"]);
    check(&["rule", "no-such-thing"], 2, expect_file!["../test-data/cli/rule.unknown.txt"]);
}

#[test]
fn a_directory_without_hcl_files_is_a_warning_not_a_failure() {
    // As ruff does: exit 0, but say so, since a mistyped path or a
    // directory of other files should not pass in silence.
    check(&["check", "no-hcl"], 0, expect_file!["../test-data/cli/no-hcl.check.txt"]);
    check(&["fmt", "--check", "no-hcl"], 0, expect_file!["../test-data/cli/no-hcl.fmt.txt"]);
    let empty = tempfile::tempdir().expect("a temporary directory");
    let (code, transcript) = halite_in(empty.path(), &["check"], None);
    expect_file!["../test-data/cli/empty-dir.check.txt"].assert_eq(&transcript);
    assert_eq!(code, 0, "{transcript}");
}

#[test]
fn check_reads_stdin_as_the_file_stdin_filename_names_in_its_module() {
    // `var.region` is declared by valid/main.tf: resolved, not undeclared.
    let input = b"locals {\n  b = \"${var.region}\"\n}\n";
    let (code, transcript) =
        halite(&["check", "--format", "concise", "--stdin-filename", "valid/extra.tf", "-"], Some(input));
    expect_file!["../test-data/cli/stdin.module.txt"].assert_eq(&transcript);
    assert_eq!(code, 0, "{transcript}");
    // Standard input replaces the file on disk: the declarations of
    // valid/main.tf are not declared twice, and only its text is checked.
    let input = b"variable \"region\" {}\noutput \"x\" {\n  value = local.missing\n}\n";
    let (code, transcript) =
        halite(&["check", "--format", "concise", "--stdin-filename", "valid/main.tf"], Some(input));
    expect_file!["../test-data/cli/stdin.replaced.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    // The name picks the dialect: JSON here.
    let (code, transcript) = halite(&["check", "--stdin-filename", "x.tf.json", "-"], Some(b"{\"a\": }\n"));
    expect_file!["../test-data/cli/stdin.json.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
    // Unnamed, it is `<stdin>`, a file of no module in the native syntax.
    let (code, transcript) = halite(&["check", "--format", "concise", "-"], Some(b"a = \n"));
    expect_file!["../test-data/cli/stdin.unnamed.txt"].assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
}

#[test]
fn check_stdin_with_other_paths_cannot_run() {
    check(&["check", "-", "valid"], 2, expect_file!["../test-data/cli/stdin.with-paths.txt"]);
    check(
        &["check", "--stdin-filename", "a.tf", "valid"],
        2,
        expect_file!["../test-data/cli/stdin-filename.with-paths.txt"],
    );
}

/// Each hook `.pre-commit-hooks.yaml` offers runs as pre-commit runs it
/// (its `entry`, then the staged files when `pass_filenames` is true) and
/// passes on a clean repository; the README names these hooks.
#[test]
fn the_pre_commit_hooks_run_as_pre_commit_runs_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let hooks = std::fs::read_to_string(root.join(".pre-commit-hooks.yaml")).expect("the hooks file");
    let mut found: Vec<(String, String, bool)> = Vec::new();
    for line in hooks.lines() {
        if let Some(id) = line.strip_prefix("- id: ") {
            found.push((id.to_owned(), String::new(), true));
        } else if let (Some(entry), Some(hook)) = (line.strip_prefix("  entry: "), found.last_mut()) {
            hook.1 = entry.to_owned();
        } else if let (Some(pass), Some(hook)) = (line.strip_prefix("  pass_filenames: "), found.last_mut()) {
            hook.2 = pass == "true";
        }
    }
    let ids: Vec<&str> = found.iter().map(|(id, _, _)| id.as_str()).collect();
    assert_eq!(ids, ["halite-fmt", "halite-check"]);
    // `halite-fmt` is given exactly the files `halite fmt` formats when it
    // walks a directory: those of a native-syntax kind.
    let fmt_files = hooks
        .split("- id: ")
        .find(|hook| hook.starts_with("halite-fmt"))
        .and_then(|hook| hook.lines().find_map(|line| line.strip_prefix("  files: ")))
        .expect("halite-fmt's files");
    let fmt_files = regex::Regex::new(fmt_files.trim_matches('\'')).expect("a regular expression");
    for name in [
        "main.tf",
        "main.tofu",
        "main.tf.json",
        "a.tfvars",
        "a.tfvars.json",
        "b.pkr.hcl",
        "job.nomad",
        "t.tftest.hcl",
        "t.tofutest.hcl",
        "c.hcl",
        "d/terragrunt.hcl",
        "notes.txt",
        "main.tf.bak",
        "x.tfstate",
        "halite.toml",
    ] {
        let formatted = vfs::FileKind::of(camino::Utf8Path::new(name))
            .is_some_and(|kind| kind.syntax == vfs::SourceSyntax::Native);
        assert_eq!(fmt_files.is_match(name), formatted, "halite-fmt is given {name}: {formatted}");
    }
    // `halite-check` runs on every commit (see the hooks file).
    let check = hooks.split("- id: ").find(|hook| hook.starts_with("halite-check")).expect("halite-check");
    assert!(check.contains("\n  always_run: true\n"), "{check}");
    let repo = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(repo.path().join("main.tf"), "variable \"a\" {}\n\noutput \"a\" {\n  value = var.a\n}\n")
        .expect("a written file");
    std::fs::write(repo.path().join("notes.txt"), "not HCL\n").expect("a written file");
    for (id, entry, pass_filenames) in &found {
        let mut args: Vec<&str> = entry.split_whitespace().collect();
        assert_eq!(args.remove(0), "halite", "{id} runs halite");
        if *pass_filenames {
            args.push("main.tf");
        }
        let (code, transcript) = halite_in(repo.path(), &args, None);
        assert_eq!(code, 0, "{id}: {transcript}");
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("the README");
    for id in ids {
        assert!(readme.contains(&format!("id: {id}")), "the README shows how to use {id}");
    }
}
