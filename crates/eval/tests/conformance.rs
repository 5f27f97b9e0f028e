//! The vendored evaluation conformance cases (`test-data/eval`, the format
//! of `../shared/conformance/eval/README.md`): every attribute of every
//! `NAME.hcl` is evaluated with the standard library and the variables of
//! `NAME.vars.json`, and compared with `NAME.expected.json` by the rules of
//! [`eval::conformance`] (success or error, type, and value with the
//! README's number rules). The test prints per-file agreement and fails if
//! fewer cases agree than [`FLOOR`]. The decimal-versus-binary differences
//! are listed, with their reasons, in [`eval::conformance::KNOWN_DIFFERENCES`].

use std::path::{Path, PathBuf};

use eval::conformance::{check_case_file, known_difference};

/// The number of agreeing cases this crate has reached. Raise it as the
/// evaluator and the standard library improve; never lower it.
const FLOOR: usize = 1103;

/// The vendored cases, or the directory `EVAL_CASES_DIR` names (cases made
/// with the reference's `hcleval`, for a differential run; the floor then
/// does not apply).
fn data_dir() -> PathBuf {
    match std::env::var_os("EVAL_CASES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/eval"),
    }
}

#[test]
fn conformance() {
    let (agree, total, _) = run(&data_dir());
    if std::env::var_os("EVAL_CASES_DIR").is_some() {
        return;
    }
    assert!(agree >= FLOOR, "agreement {agree}/{total} fell below the floor {FLOOR}");
}

/// Cases beyond the shared set, written for this crate and expected from
/// the reference's `hcleval` (`../shared/oracle`): every one must agree but
/// the listed known differences.
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
