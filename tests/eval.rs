//! `halite eval`: the conformance cases of `test-data/eval/` through the
//! binary, and transcripts of a few runs on `test-data/cli-eval/`
//! (`UPDATE_EXPECT=1 cargo test -p halite --test suite eval::` refreshes them).

use crate::support;

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::{ExpectFile, expect_file};
use serde_json::Value as Json;
use value::{Type, Value};

/// How many cases of `test-data/eval/` differ from the reference because it
/// computes with 512-bit binary floats and Halite with exact decimals (the
/// README's one deliberate difference): `cmp_equality.one_third_round_trip`
/// and `tmpl_interpolation.number_fraction`, listed with their reasons in
/// `eval::conformance::KNOWN_DIFFERENCES`.
const KNOWN_DIFFERENCES_MET: usize = 2;

fn test_data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data").join(dir)
}

/// The type and value of one result, decoded from its cty JSON encoding.
/// The value's text is taken from the raw document (`value_text`), since
/// serde_json would round long numbers to float64.
fn decode(ty: &Json, value_text: &str) -> Option<(Type, Value)> {
    let ty = Type::from_json_str(&ty.to_string()).ok()?;
    let value = Value::from_json_str(value_text, &ty).ok()?;
    Some((ty, value))
}

/// The raw text of each result's `value`, in order, through `value`'s own
/// JSON reader (which keeps numbers exact).
fn raw_values(text: &str) -> Vec<Option<String>> {
    let Ok(value::json::Json::Object(doc)) = value::json::parse(text) else {
        panic!("a JSON object: {text}");
    };
    let results = doc.iter().find(|(k, _)| k == "results").map(|(_, v)| v);
    let Some(value::json::Json::Array(results)) = results else { panic!("results: {text}") };
    results
        .iter()
        .map(|result| {
            let value::json::Json::Object(fields) = result else { return None };
            fields.iter().find(|(k, _)| k == "value").map(|(_, v)| json_text(v))
        })
        .collect()
}

/// A parsed document written back as compact JSON, numbers as they were.
fn json_text(json: &value::json::Json) -> String {
    use value::json::Json;
    match json {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => b.to_string(),
        Json::Number(n) => n.clone(),
        Json::String(s) => {
            let mut out = String::new();
            value::json::write_string(&mut out, s);
            out
        }
        Json::Array(items) => format!("[{}]", items.iter().map(json_text).collect::<Vec<_>>().join(",")),
        Json::Object(fields) => {
            let fields: Vec<String> = fields
                .iter()
                .map(|(k, v)| {
                    let mut out = String::new();
                    value::json::write_string(&mut out, k);
                    format!("{out}:{}", json_text(v))
                })
                .collect();
            format!("{{{}}}", fields.join(","))
        }
    }
}

#[test]
fn conformance_cases_agree_through_the_binary() {
    let dir = test_data("eval");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("test-data/eval")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "hcl"))
        // Two groups need a context `halite eval` cannot give: the cases
        // of namespaced calls a function table with `provider::test::upper`
        // and `core::lower`, the refinement cases unknown inputs. The eval
        // crate's conformance test runs them with both.
        .filter(|path| {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            !(stem.starts_with("ns_") || path.with_extension("unknowns.json").exists())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 60, "the vendored cases are there");
    let (mut total, mut known_met) = (0, 0);
    let mut mismatches = Vec::new();
    for path in names {
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 name").to_owned();
        let hcl = format!("{stem}.hcl");
        let vars = format!("{stem}.vars.json");
        let mut args = vec!["eval", hcl.as_str(), "--with-types", "--format", "json"];
        if dir.join(&vars).exists() {
            args.extend(["--context", vars.as_str()]);
        }
        let output = Command::new(env!("CARGO_BIN_EXE_halite"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .expect("halite runs");
        let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
        let got: Json = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{stem}: {e}: {stdout}"));
        let want_text = std::fs::read_to_string(dir.join(format!("{stem}.expected.json"))).expect("expected");
        let want: Json = serde_json::from_str(&want_text).expect("expected JSON");

        let code = output.status.code().expect("an exit code");
        if want.get("parse_error").is_some() {
            total += 1;
            let ok = got.get("parse_error").is_some_and(Json::is_string)
                && got["results"].as_array().is_some_and(Vec::is_empty)
                && code == 1;
            if !ok {
                mismatches.push(format!("{stem}: want a parse error, got {got} (exit {code})"));
            }
            continue;
        }
        assert!(got.get("parse_error").is_none(), "{stem}: unexpected parse error {got}");
        let got_results = got["results"].as_array().expect("results");
        let want_results = want["results"].as_array().expect("results");
        let got_raw = raw_values(&stdout);
        let want_raw = raw_values(&want_text);
        assert_eq!(got_results.len(), want_results.len(), "{stem}: number of results");
        let mut any_error = false;
        for (i, (ours, theirs)) in got_results.iter().zip(want_results).enumerate() {
            total += 1;
            let name = theirs["path"].as_str().expect("a path");
            any_error |= ours.get("error").is_some();
            let ok = ours["path"] == theirs["path"]
                && match (ours.get("error"), theirs.get("error")) {
                    (Some(_), Some(_)) => true,
                    (None, None) => {
                        let decoded = (
                            decode(&ours["type"], got_raw[i].as_deref().unwrap_or("")),
                            decode(&theirs["type"], want_raw[i].as_deref().unwrap_or("")),
                        );
                        match decoded {
                            (Some((t1, v1)), Some((t2, v2))) => {
                                t1 == t2 && eval::conformance::values_agree(&v1, &v2)
                            }
                            _ => false,
                        }
                    }
                    _ => false,
                };
            if ok {
                continue;
            }
            let case = format!("{stem}.{name}");
            if eval::conformance::known_difference(&case).is_some() {
                known_met += 1;
            } else {
                mismatches.push(format!("{case}: got {ours}, want {theirs}"));
            }
        }
        assert_eq!(code, i32::from(any_error), "{stem}: exit code");
    }
    assert!(
        mismatches.is_empty(),
        "{} of {total} cases disagree:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert_eq!(known_met, KNOWN_DIFFERENCES_MET, "the listed differences of these cases still differ");
}

fn eval(args: &[&str], expected_code: i32, expected: ExpectFile) {
    let (code, transcript) = support::run_halite(&test_data("cli-eval"), args, b"");
    expected.assert_eq(&transcript);
    assert_eq!(code, expected_code, "{transcript}");
}

#[test]
fn plain_values_by_path() {
    eval(
        &["eval", "values.hcl", "--context", "vars.json"],
        0,
        expect_file!["../test-data/cli-eval/values.plain.txt"],
    );
}

#[test]
fn values_with_types() {
    eval(
        &["eval", "values.hcl", "--context", "vars.json", "--with-types", "--format", "json"],
        0,
        expect_file!["../test-data/cli-eval/values.with-types.txt"],
    );
}

#[test]
fn failed_attributes_are_diagnostics_on_stderr_and_exit_1() {
    eval(&["eval", "errors.hcl"], 1, expect_file!["../test-data/cli-eval/errors.plain.txt"]);
    eval(
        &["eval", "errors.hcl", "--with-types"],
        1,
        expect_file!["../test-data/cli-eval/errors.with-types.txt"],
    );
}

#[test]
fn a_file_that_does_not_parse_is_a_parse_error() {
    eval(
        &["eval", "syntax-error.hcl", "--with-types", "--format", "json"],
        1,
        expect_file!["../test-data/cli-eval/syntax-error.with-types.txt"],
    );
    eval(&["eval", "syntax-error.hcl"], 1, expect_file!["../test-data/cli-eval/syntax-error.plain.txt"]);
}

#[test]
fn unreadable_files_and_bad_contexts_exit_2() {
    eval(&["eval", "missing.hcl"], 2, expect_file!["../test-data/cli-eval/missing-file.txt"]);
    eval(
        &["eval", "values.hcl", "--context", "not-an-object.json"],
        2,
        expect_file!["../test-data/cli-eval/not-an-object.txt"],
    );
    eval(
        &["eval", "values.hcl", "--format", "yaml"],
        2,
        expect_file!["../test-data/cli-eval/bad-format.txt"],
    );
}

#[test]
fn standard_input() {
    let (code, transcript) = support::run_halite(&test_data("cli-eval"), &["eval", "-"], b"x = 1 + 2\n");
    expect_test::expect![[r#"
        $ halite eval -
        exit: 0
        --- stdout
        {
          "x": 3
        }
        --- stderr
    "#]]
    .assert_eq(&transcript);
    assert_eq!(code, 0);
}

/// A value too large, a number too long: each is a diagnostic with a
/// range, the other attributes still evaluate, and nothing crashes.
#[test]
fn a_limit_is_a_diagnostic_not_a_crash() {
    let src = b"a = 1e500000000\nb = [for x in range(1024): join(\"\", [for i in range(1024): format(\"%9999d\", i)])]\nc = 1\n";
    let (code, transcript) = support::run_halite(&test_data("cli-eval"), &["eval", "-"], src);
    expect_test::expect![[r#"
        $ halite eval -
        exit: 1
        --- stdout
        {
          "c": 1
        }
        --- stderr
        error[eval]: Number too large
         --> <stdin>:1:5
          |
        1 | a = 1e500000000
          |     ^^^^^^^^^^^
          |
          = note: 500000001 digits written out (the limit is 10000).

        error[eval]: Value too large
         --> <stdin>:2:5
          |
        2 | b = [for x in range(1024): join("", [for i in range(1024): format("%9999d", i)])]
          |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
          |
          = note: 20477952 bytes of text (the limit is 16777216).

    "#]]
    .assert_eq(&transcript);
    assert_eq!(code, 1, "{transcript}");
}
