//! Native expression values and their diagnostics, over the cases in
//! `test-data/decode/native/values/`: every top-level attribute evaluated
//! in an empty context (no variables or functions, as `hcldec` without
//! `--vars`). The expected `.txt` holds each value; the diagnostics must be
//! the set the reference `hcldec` reported (`.oracle.txt`, made by
//! `test-data/decode/native/oracle.py`, sorted since the reference visits
//! attributes in the random order of a Go map), but for the evaluator's
//! known differences listed in `.known.txt`.

use crate::support;

use std::fs;

use decode::SourceFile;

#[test]
fn native_values_cases() {
    let dir = support::test_data("native/values");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("the test data directory exists")
        .filter_map(|entry| entry.ok().map(|it| it.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "hcl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 3, "the cases are there");
    for path in cases {
        let name = path.file_name().and_then(|it| it.to_str()).unwrap_or_default().to_owned();
        let text = fs::read_to_string(&path).expect("a readable case");
        let file = SourceFile::native(name.as_str(), text);
        assert!(file.syntax_diagnostics().is_empty(), "{name} parses cleanly");
        let (attributes, diagnostics) = file.body().just_attributes();
        assert!(diagnostics.is_empty(), "{name} has only attributes");

        let mut out = String::new();
        let mut all = Vec::new();
        for attribute in &attributes {
            let (value, diagnostics) = attribute.expr.value(&eval::Context::none());
            out.push_str(&format!("{} = {}\n", attribute.name, support::value_text(&value)));
            support::diagnostics(&mut out, &diagnostics);
            all.extend(diagnostics);
        }
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);

        // Known differences that belong to the evaluator, not to decoding,
        // are listed by subject range in `.known.txt`, each with its reason.
        let known = fs::read_to_string(path.with_extension("known.txt")).unwrap_or_default();
        let known: Vec<&str> = known.lines().filter_map(|line| line.split(" #").next()).collect();
        let is_known = |line: &&str| known.iter().any(|subject| line.ends_with(&format!("| {subject}")));
        let mut ours = String::new();
        support::diagnostics(&mut ours, &all);
        let mut ours: Vec<&str> = ours.lines().filter(|line| !is_known(line)).collect();
        ours.sort();
        let oracle = fs::read_to_string(path.with_extension("oracle.txt")).expect("the reference's output");
        let theirs: Vec<&str> = oracle.lines().filter(|line| !is_known(line)).collect();
        assert_eq!(ours, theirs, "{name}: the reference's diagnostics differ");
    }
}

/// A failure inside nested `for` expressions over large collections is
/// reported per element, as the reference does, but the search for those
/// errors is bounded: a million iterations cost a bounded number of
/// evaluations, and the errors found so far are reported.
#[test]
fn nested_for_failures_are_bounded() {
    let elements: Vec<String> = (0..100).map(|i| i.to_string()).collect();
    let list = format!("[{}]", elements.join(", "));
    let text = format!("a = [for x in {list} : [for y in {list} : [for z in {list} : zzz]]]\n");
    let file = SourceFile::native("nested.hcl", text);
    let (attributes, _) = file.body().just_attributes();
    let (value, diagnostics) = attributes[0].expr.value(&eval::Context::none());
    assert!(!value.is_known());
    assert!(diagnostics.len() > 100, "{} errors", diagnostics.len());
    assert!(diagnostics.len() <= 2_000, "{} errors", diagnostics.len());
    assert!(diagnostics.iter().all(|it| it.summary == "Unknown variable"));
}
