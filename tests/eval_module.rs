//! `halite eval DIR`: a module's attributes by address, with `--var`,
//! `--var-file` and `--attr`, on the fixture modules of `test-data/modules/`
//! (`UPDATE_EXPECT=1 cargo test -p halite --test suite eval_module::` refreshes the
//! transcripts in `test-data/cli-eval/`).

use crate::support;

use std::path::{Path, PathBuf};

use expect_test::{ExpectFile, expect_file};

fn test_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data")
}

fn eval(args: &[&str], expected_code: i32, expected: ExpectFile) {
    let (code, transcript) = support::run_halite(&test_data(), args, b"");
    expected.assert_eq(&transcript);
    assert_eq!(code, expected_code, "{transcript}");
}

#[test]
fn a_module_with_defaults_and_one_variable() {
    eval(
        &["eval", "modules/basic", "--var", "region=\"us-east-1\""],
        0,
        expect_file!["../test-data/cli-eval/module-basic.txt"],
    );
}

#[test]
fn variables_from_a_file_then_the_command_line() {
    eval(
        &["eval", "modules/basic", "--var-file", "modules/vars/prod.hcl", "--var", "replicas=2 + 3"],
        0,
        expect_file!["../test-data/cli-eval/module-var-file.txt"],
    );
}

#[test]
fn only_the_attributes_asked_for_with_types() {
    eval(
        &[
            "eval",
            "modules/basic",
            "--var-file",
            "modules/vars/prod.hcl",
            "--attr",
            "output.summary.value",
            "--attr",
            "var.settings",
            "--attr",
            "local.ports",
            "--with-types",
        ],
        0,
        expect_file!["../test-data/cli-eval/module-attrs.txt"],
    );
}

#[test]
fn a_required_variable_without_a_value_fails_where_used() {
    eval(&["eval", "modules/basic"], 1, expect_file!["../test-data/cli-eval/module-missing-var.txt"]);
}

#[test]
fn cycles_duplicates_and_unknown_names_are_diagnostics() {
    eval(&["eval", "modules/errors"], 1, expect_file!["../test-data/cli-eval/module-errors.txt"]);
    eval(
        &["eval", "modules/errors", "--attr", "local.uses_a", "--attr", "local.fine", "--with-types"],
        1,
        expect_file!["../test-data/cli-eval/module-errors-attrs.txt"],
    );
}

#[test]
fn bad_variables_and_addresses_exit_2() {
    eval(
        &["eval", "modules/basic", "--var", "region=us-east-1"],
        2,
        expect_file!["../test-data/cli-eval/module-bad-var.txt"],
    );
    eval(
        &["eval", "modules/basic", "--var", "region"],
        2,
        expect_file!["../test-data/cli-eval/module-var-no-equals.txt"],
    );
    eval(
        &["eval", "modules/basic", "--var-file", "modules/vars/broken.hcl"],
        2,
        expect_file!["../test-data/cli-eval/module-broken-var-file.txt"],
    );
    eval(
        &["eval", "modules/basic", "--var", "region=\"x\"", "--attr", "local.nope"],
        2,
        expect_file!["../test-data/cli-eval/module-no-such-attr.txt"],
    );
    eval(
        &["eval", "cli-eval/values.hcl", "--var", "a=1"],
        2,
        expect_file!["../test-data/cli-eval/file-with-var.txt"],
    );
}

#[test]
fn json_files_join_the_module() {
    eval(
        &["eval", "modules/json", "--var", "port=9000"],
        0,
        expect_file!["../test-data/cli-eval/module-json.txt"],
    );
}

#[test]
fn a_value_for_an_undeclared_variable_is_a_warning() {
    eval(
        &["eval", "modules/json", "--var", "port=1", "--var", "prot=2", "--attr", "service.api.port"],
        0,
        expect_file!["../test-data/cli-eval/module-undeclared-var.txt"],
    );
}

/// A reference cycle of ten thousand attributes is a diagnostic, in
/// `eval` and `check` alike, not a stack overflow, and costs time and
/// memory linear in its length: the host finds it on its graph and
/// evaluation stops at it (salsa's own cycle handling, quadratic, took 51 s
/// for 4,000 optimised), its reporter is chosen once, and no member walks
/// it. Its one diagnostic names every step.
#[test]
fn a_long_cycle_is_a_diagnostic() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut text = String::from("locals {\n");
    let length = 10_000;
    for i in 0..length {
        text.push_str(&format!("  a{i} = local.a{} + 1\n", (i + 1) % length));
    }
    text.push_str("  fine = 1\n}\n");
    std::fs::write(dir.path().join("main.tf"), text).expect("the module is written");
    let (code, transcript) =
        support::run_halite(dir.path(), &["eval", ".", "--attr", "local.fine", "--attr", "local.a0"], b"");
    assert_eq!(code, 1, "{transcript}");
    assert!(transcript.contains("\"local.fine\": 1"), "{transcript}");
    assert!(transcript.contains("Reference cycle"), "{}", &transcript[..transcript.len().min(2000)]);
    assert!(transcript.contains("local.a0 -> local.a1 -> local.a2 -> "), "a cycle names its steps");
    assert!(transcript.contains("local.a9999 -> local.a0."), "a cycle names every step");
    let (code, transcript) = support::run_halite(dir.path(), &["check", "."], b"");
    assert_eq!(code, 1, "{transcript}");
    assert_eq!(transcript.matches("error[reference-cycle]").count(), 1, "each cycle once");
    assert!(transcript.contains("local.a9999 -> local.a0."), "a cycle names every step");
}

/// Terraform's precedence, lowest first: `TF_VAR_NAME`, `terraform.tfvars`,
/// `terraform.tfvars.json`, `*.auto.tfvars(.json)` in lexical order, then
/// `--var` and `--var-file` in command-line order. Each variable of the
/// fixture is set by the sources up to one level, so `output.order.value`
/// names the source that wins at each. Environment text is a string for a
/// variable of a primitive type or none, HCL for any other (`tags`); an
/// undeclared `TF_VAR_` is ignored, an undeclared name in a file warned
/// about; an unset variable with a default takes it, one without is
/// unknown.
#[test]
fn terraform_variables_come_in_terraforms_order() {
    let env = [
        ("TF_VAR_a", "env"),
        ("TF_VAR_b", "env"),
        ("TF_VAR_c", "env"),
        ("TF_VAR_d", "env"),
        ("TF_VAR_e", "env"),
        ("TF_VAR_f", "env"),
        ("TF_VAR_count_from_env", "21"),
        ("TF_VAR_tags", "{ x = \"1\", y = \"2\" }"),
        ("TF_VAR_nobody", "ignored"),
    ];
    let args = [
        "eval",
        "modules/terraform-inputs",
        "--var",
        "g=--var",
        "--var-file",
        "modules/terraform-inputs/vars/cli.tfvars",
        "--var",
        "f=--var",
    ];
    let (code, transcript) = support::run_halite_with_env(&test_data(), &args, &env);
    expect_file!["../test-data/cli-eval/terraform-inputs.txt"].assert_eq(&transcript);
    assert_eq!(code, 0, "{transcript}");
    assert!(
        transcript.contains(
            r#"["env","terraform.tfvars","terraform.tfvars.json","a.auto.tfvars","b.auto.tfvars.json","--var","--var-file"]"#
        ),
        "{transcript}"
    );
}

/// `TF_VAR_` text that is not HCL, for a variable whose type asks for HCL,
/// stops the run (exit 2) naming the variable; a number-typed one's text
/// is a string converted to the type, so `"21"` is fine and `x` fails.
#[test]
fn bad_terraform_variables_from_the_environment() {
    let (code, transcript) = support::run_halite_with_env(
        &test_data(),
        &["eval", "modules/terraform-inputs"],
        &[("TF_VAR_tags", "{ x = ")],
    );
    expect_file!["../test-data/cli-eval/terraform-inputs-bad-env.txt"].assert_eq(&transcript);
    assert_eq!(code, 2, "{transcript}");
}

/// A value given for a variable that does not convert to its type is a
/// diagnostic at the variable (`terraform plan`'s "Invalid value for input
/// variable"), and what reads it fails as depending on it: before, only
/// the readers failed, and nothing said why.
#[test]
fn a_given_value_that_does_not_fit_its_type_is_a_diagnostic() {
    let (code, transcript) = support::run_halite_with_env(
        &test_data(),
        &["eval", "modules/terraform-inputs", "--var", "count_from_env=\"many\""],
        &[],
    );
    assert_eq!(code, 1, "{transcript}");
    assert!(
        transcript.contains("error[invalid-variable-value]: Invalid value for input variable")
            && transcript
                .contains("The given value is not suitable for var.count_from_env: a number is required."),
        "{transcript}"
    );
}

/// Without any input, a Terraform module's variables take their defaults;
/// the files of its directory are still read. Run from another directory,
/// the module's own files count (as `terraform -chdir=DIR`).
#[test]
fn terraform_defaults_and_the_modules_own_files() {
    let (code, transcript) = support::run_halite_with_env(
        &test_data().join("modules"),
        &[
            "eval",
            "terraform-inputs",
            "--with-types",
            "--attr",
            "output.order.value",
            "--attr",
            "output.derived.value",
        ],
        &[],
    );
    expect_file!["../test-data/cli-eval/terraform-inputs-files-only.txt"].assert_eq(&transcript);
    assert_eq!(code, 0, "{transcript}");
}

/// Values not known until apply (a resource's computed attribute, an unset
/// required variable) are printed as unknown with their type and what is
/// known of them, not as failures: the run exits 0. A value partly known
/// keeps its known parts. A literal nested block's values are known.
#[test]
fn unknown_values_are_printed_as_unknown_and_exit_0() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        dir.path().join("main.tf"),
        r#"variable "region" {
  type = string
}

resource "aws_instance" "web" {
  ami = "ami-123"
}

terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
  }
}

output "arn" {
  value = "arn:aws:ec2:${var.region}:instance/${aws_instance.web.id}"
}

output "both" {
  value = { id = aws_instance.web.id, fixed = 1 }
}

output "ids" {
  value = [for i in range(3) : aws_instance.web.id]
}

output "id_length" {
  # A number not known, bounded below only: no bound is printed where
  # nothing bounds it (JSON has no infinity).
  value = length(aws_instance.web.id)
}
"#,
    )
    .expect("the module is written");
    for args in [&["eval", "."][..], &["eval", ".", "--with-types"][..]] {
        let (code, transcript) = support::run_halite_with_env(dir.path(), args, &[]);
        assert_eq!(code, 0, "{transcript}");
        let stdout = transcript.split("--- stdout\n").nth(1).and_then(|it| it.split("--- stderr").next());
        let parsed: Result<serde_json::Value, _> = serde_json::from_str(stdout.unwrap_or_default());
        assert!(parsed.is_ok(), "not JSON: {transcript}");
        let expected = if args.len() == 2 { "plain" } else { "with-types" };
        let file = test_data().join(format!("cli-eval/terraform-unknowns-{expected}.txt"));
        expect_test::expect_file![file].assert_eq(&transcript);
    }
}

#[test]
fn addresses_print_as_the_library_prints_them() {
    // A label with a dot quoted, a repeated nested block by its position,
    // and nested blocks' attributes and labels read by reference.
    eval(
        &["eval", "modules/dotted-labels"],
        0,
        expect_file!["../test-data/cli-eval/module-dotted-labels.txt"],
    );
}

#[test]
fn a_terragrunt_units_directory_is_the_unit() {
    // A unit is keyed by its file, not its directory: the directory means
    // the unit, as it does to Terragrunt.
    eval(&["eval", "modules/terragrunt/app"], 0, expect_file!["../test-data/cli-eval/terragrunt-unit.txt"]);
    eval(&["eval", "modules/terragrunt"], 0, expect_file!["../test-data/cli-eval/terragrunt-root.txt"]);
}

/// Packer's order, lowest first: `PKR_VAR_NAME`, then `*.auto.pkrvars.hcl`
/// and `*.auto.pkrvars.json` from the template's directory in name order,
/// then `--var`; text is the string itself for a variable of type string,
/// number or none (`--var size=tiny`). A variables file is no file of the
/// template, so its attributes are not the template's.
#[test]
fn packer_reads_its_automatic_variables_files() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let template = "variable \"region\" {\n  default = \"us-west-2\"\n}\nvariable \"size\" {\n  default = \"small\"\n}\nlocals {\n  bucket = \"images-${var.region}-${var.size}\"\n}\n";
    std::fs::write(dir.path().join("main.pkr.hcl"), template).expect("a file");
    std::fs::write(dir.path().join("a.auto.pkrvars.hcl"), "region = \"eu-west-1\"\nsize = \"medium\"\n")
        .expect("a file");
    std::fs::write(dir.path().join("b.auto.pkrvars.json"), "{\"size\": \"large\"}\n").expect("a file");
    let (code, transcript) = support::run_halite(dir.path(), &["eval", "."], b"");
    assert_eq!(code, 0, "{transcript}");
    assert!(
        transcript.contains("--- stdout\n{\n  \"local.bucket\": \"images-eu-west-1-large\"\n}\n"),
        "{transcript}"
    );
    let (_, transcript) = support::run_halite(dir.path(), &["eval", ".", "--var", "size=tiny"], b"");
    assert!(transcript.contains("\"images-eu-west-1-tiny\""), "{transcript}");
    // The environment is below the files: only a name they leave unset.
    std::fs::remove_file(dir.path().join("b.auto.pkrvars.json")).expect("removed");
    std::fs::write(dir.path().join("a.auto.pkrvars.hcl"), "region = \"eu-west-1\"\n").expect("a file");
    let environment = [("PKR_VAR_region", "ap-south-1"), ("PKR_VAR_size", "huge")];
    let (_, transcript) = support::run_halite_with_env(dir.path(), &["eval", "."], &environment);
    assert!(transcript.contains("\"images-eu-west-1-huge\""), "{transcript}");
}
