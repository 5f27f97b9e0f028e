//! Data-driven tests over `test-data/fmt/`: the hand-written cases (one per
//! rule, `NAME.hcl` with the reference's output in `NAME.expected.hcl`), the
//! vendored corpus subset (`corpus/input/…`, with the reference's output
//! in `corpus/expected/…` where it changes the file), and Terraform's style
//! (`terraform/NAME.tf`, with `terraform fmt`'s output in
//! `terraform/NAME.expected.tf`: one case per rewrite, with inputs that
//! trigger it and inputs that must not).
//!
//! The expected files come from the reference formatter, never from this
//! one, so they are compared directly rather than through expect-test: an
//! `UPDATE_EXPECT` run must not be able to overwrite the reference's word
//! with ours. Every case is also checked for idempotence and for changing
//! nothing but whitespace, as taplo's, ruff's and gleam's formatter tests do.

use std::{
    fs,
    path::{Path, PathBuf},
};

use fmt::Style;
use syntax::SyntaxKind;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/fmt")
}

/// Checks one input against the reference's output and returns a
/// description of each way it fails.
fn check(name: &str, input: &str, expected: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let actual = match fmt::format_text(input) {
        Ok(actual) => actual,
        Err(errors) => return vec![format!("{name}: syntax errors: {errors:?}")],
    };
    if actual != expected {
        failures.push(format!("{name}: differs from the reference\n{}", first_difference(&actual, expected)));
    }
    match fmt::format_text(&actual) {
        Ok(again) if again == actual => {}
        Ok(again) => failures.push(format!(
            "{name}: formatting twice differs from once\n{}",
            first_difference(&again, &actual)
        )),
        Err(errors) => failures.push(format!("{name}: the output does not parse: {errors:?}")),
    }
    if significant_tokens(input) != significant_tokens(&actual) {
        failures.push(format!("{name}: formatting changed more than whitespace"));
    }
    failures
}

/// Every token but whitespace, with its text: what formatting must keep.
/// Newlines are kept in the list, since formatting never adds or removes a
/// line break.
fn significant_tokens(text: &str) -> Vec<(SyntaxKind, String)> {
    syntax::parse(text)
        .syntax_node()
        .descendants_with_tokens()
        .filter_map(|element| element.into_token())
        .filter(|token| token.kind() != SyntaxKind::WHITESPACE)
        .map(|token| (token.kind(), token.text().to_owned()))
        .collect()
}

fn first_difference(actual: &str, expected: &str) -> String {
    let mut actual_lines = actual.split_inclusive('\n');
    let mut expected_lines = expected.split_inclusive('\n');
    for line in 1.. {
        match (actual_lines.next(), expected_lines.next()) {
            (None, None) => return "(no line differs)".to_owned(),
            (a, e) if a != e => return format!("line {line}:\n  ours:      {a:?}\n  reference: {e:?}"),
            _ => {}
        }
    }
    unreachable!("the loop returns at the end of both texts")
}

#[test]
fn cases() {
    let dir = data_dir();
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("test-data/fmt exists")
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".hcl") && !name.ends_with(".expected.hcl"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "expected the rule cases in {}, found {}", dir.display(), names.len());
    let mut failures = Vec::new();
    for name in &names {
        let input = fs::read_to_string(dir.join(name)).expect("readable case");
        let expected_name = format!("{}.expected.hcl", name.trim_end_matches(".hcl"));
        let expected = fs::read_to_string(dir.join(&expected_name))
            .unwrap_or_else(|_| panic!("{name} has no {expected_name}: make it with the reference hclfmt"));
        failures.extend(check(name, &input, &expected));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn vendored_corpus() {
    let corpus = data_dir().join("corpus");
    let mut inputs = Vec::new();
    walk(&corpus.join("input"), &mut inputs);
    inputs.sort();
    assert!(inputs.len() >= 600, "expected the vendored corpus, found {} files", inputs.len());
    let mut failures = Vec::new();
    let mut changed = 0;
    for path in &inputs {
        let rel = path.strip_prefix(corpus.join("input")).expect("walked under input");
        let input = fs::read_to_string(path).expect("corpus files are UTF-8");
        let expected = match fs::read_to_string(corpus.join("expected").join(rel)) {
            Ok(expected) => {
                changed += 1;
                expected
            }
            Err(_) => input.clone(),
        };
        failures.extend(check(&rel.display().to_string(), &input, &expected));
    }
    assert!(changed >= 400, "expected files the reference changes, found {changed}");
    assert!(
        failures.is_empty(),
        "{} of {} files fail:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n\n")
    );
}

#[test]
fn terraform_cases() {
    let dir = data_dir().join("terraform");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("test-data/fmt/terraform exists")
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.ends_with(".tf") && !name.ends_with(".expected.tf"))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "expected the Terraform cases in {}, found {}", dir.display(), names.len());
    let mut failures = Vec::new();
    for name in &names {
        let input = fs::read_to_string(dir.join(name)).expect("readable case");
        let expected_name = format!("{}.expected.tf", name.trim_end_matches(".tf"));
        let expected = fs::read_to_string(dir.join(&expected_name))
            .unwrap_or_else(|_| panic!("{name} has no {expected_name}: make it with `terraform fmt -`"));
        let actual = match fmt::format_text_in(&input, Style::Terraform) {
            Ok(actual) => actual,
            Err(errors) => {
                failures.push(format!("{name}: syntax errors: {errors:?}"));
                continue;
            }
        };
        if actual != expected {
            failures.push(format!(
                "{name}: differs from terraform fmt\n{}",
                first_difference(&actual, &expected)
            ));
        }
        // `terraform fmt` is not a fixed point (`"${"${x}"}"` loses one
        // wrapping a run), but its output is laid out as hclwrite lays out.
        match fmt::format_text_in(&actual, Style::Hcl) {
            Ok(again) if again == actual => {}
            Ok(again) => failures.push(format!(
                "{name}: the output is not laid out as hclwrite lays it out\n{}",
                first_difference(&again, &actual)
            )),
            Err(errors) => failures.push(format!("{name}: the output does not parse: {errors:?}")),
        }
        // The rewrites are Terraform's alone: hclwrite's style changes only
        // whitespace in the same files.
        let hcl = fmt::format_text_in(&input, Style::Hcl).expect("the case is valid");
        if significant_tokens(&input) != significant_tokens(&hcl) {
            failures.push(format!("{name}: hclwrite's style changed more than whitespace"));
        }
        if hcl == actual {
            failures.push(format!("{name}: Terraform's style changed nothing hclwrite's does not"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}
