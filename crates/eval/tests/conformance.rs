//! The vendored evaluation conformance cases (`test-data/eval`, a copy of
//! `../shared/conformance/hcl-v2.24/eval`, in the format of its README):
//! every attribute of every `NAME.hcl` is evaluated with the standard
//! library, the variables of `NAME.vars.json` and the refined unknowns of
//! `NAME.unknowns.json`, and compared with `NAME.expected.json` by the rules
//! of [`eval::conformance`] (success or error, type, value with the
//! README's number rules, and what is known of an unknown result). Every
//! case must agree but the decimal-versus-binary differences listed, with
//! their reasons, in [`eval::conformance::KNOWN_DIFFERENCES`].

use std::path::{Path, PathBuf};

use eval::conformance::{check_case_file, known_difference};

/// The vendored cases, or the directory `EVAL_CASES_DIR` names (cases made
/// with the reference's `hcleval`, for a differential run).
fn data_dir() -> PathBuf {
    match std::env::var_os("EVAL_CASES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/eval"),
    }
}

#[test]
fn conformance() {
    let (agree, total, known) = run(&data_dir());
    assert_eq!(agree + known, total, "a case disagrees (run with EVAL_VERBOSE=1 to see which)");
}

/// Refined unknowns (`refine_unknowns.*`) agree with the reference on what
/// is known of every unknown result: its type, non-nullness, string prefix,
/// length and number ranges. The whole run checks them too; this names
/// them, so that a regression says which part broke.
#[test]
fn refined_unknowns_agree_with_the_reference() {
    let cases = check_case_file(&data_dir().join("refine_unknowns.hcl")).expect("the refinement cases");
    let disagreeing: Vec<String> = cases
        .iter()
        .filter(|c| !c.agrees)
        .map(|c| format!("{}: got {}; want {}", c.name, c.got, c.want))
        .collect();
    assert!(cases.len() >= 40, "the refinement cases are missing");
    assert!(disagreeing.is_empty(), "{}", disagreeing.join("\n"));
}

/// Cases beyond the shared set, written for this crate and expected from
/// the reference's `hcleval` (the program of `../shared/oracle`, built over
/// HCL v2.24.0 and go-cty v1.16.3, with refined unknown inputs from a
/// case's `NAME.unknowns.json`): every one must agree but the listed known
/// differences.
#[test]
fn reference_made_cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference-cases");
    let (agree, total, known) = run(&dir);
    assert_eq!(
        agree + known,
        total,
        "a reference-made case disagrees (run with EVAL_VERBOSE=1 to see which)"
    );
}

/// Evaluates every case under `dir`, prints per-file agreement, and returns
/// the number of agreeing cases, the total, and the number of listed known
/// differences met.
fn run(dir: &Path) -> (usize, usize, usize) {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a directory of cases")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "hcl"))
        .collect();
    names.sort();
    let (mut total, mut agree, mut known_met) = (0, 0, 0);
    let mut report = String::new();
    for path in names {
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        let cases = check_case_file(&path).expect("a readable case file");
        let (mut file_total, mut file_agree) = (0, 0);
        for case in &cases {
            file_total += 1;
            if case.agrees {
                file_agree += 1;
            } else if let Some(why) = known_difference(&case.name) {
                known_met += 1;
                report.push_str(&format!("  known difference {}: {why}\n", case.name));
            } else if std::env::var_os("EVAL_VERBOSE").is_some() {
                report.push_str(&format!("  MISMATCH {}: got {}; want {}\n", case.name, case.got, case.want));
            }
        }
        total += file_total;
        agree += file_agree;
        report.push_str(&format!("{stem}: {file_agree}/{file_total}\n"));
    }
    println!("{report}agreement: {agree}/{total}");
    (agree, total, known_met)
}
