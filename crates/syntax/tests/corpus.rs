//! The vendored corpus subset (`test-data/corpus`) against the reference's
//! verdicts: every file round-trips through the tree byte for byte, files the
//! reference accepts have no error, files it rejects have at least one, and
//! the first error we report on a rejected file should sit where the
//! reference's first error does.
//!
//! The whole corpus (`../shared/corpus`) gets the same checks from
//! `cargo xtask conformance`; this test keeps a subset in the plain
//! `cargo test` run so a fresh clone covers every dialect without `../shared`.

use std::{
    collections::{HashMap, HashSet},
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    sync::OnceLock,
};

use syntax::{SyntaxError, TextSize};

/// How many rejected files must have our first error at the reference's first
/// error line and column. It is a ratchet: the test fails when a change makes
/// fewer agree, and the number goes up, never down, as the parser gets closer
/// to the reference. The parser puts every one of the 118 files HCL v2.24
/// rejects where the reference does; a change that moves one needs an entry
/// with its reason in `known-differences.tsv` and a lower floor here, argued
/// in the commit.
// raise this as the parser improves
const FIRST_ERROR_POSITION_FLOOR: usize = 118;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/corpus")
}

/// Reads a tab-separated file with a header line into rows of fields.
fn read_tsv(name: &str) -> Vec<Vec<String>> {
    let path = corpus_dir().join(name);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    text.lines()
        .skip(1)
        .filter(|line| !line.is_empty())
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect()
}

/// The outcome of reading and parsing one vendored file.
struct Outcome {
    path: String,
    reference_parses: bool,
    /// False when the tree's text differs from the input.
    lossless: bool,
    errors: Vec<SyntaxError>,
    /// The first error's start as a 1-based line and column, columns counted
    /// in Unicode scalar values as the reference counts them on this corpus.
    first_error_at: Option<(usize, usize)>,
}

fn outcomes() -> &'static [Outcome] {
    static OUTCOMES: OnceLock<Vec<Outcome>> = OnceLock::new();
    OUTCOMES.get_or_init(|| {
        let input = corpus_dir().join("input");
        read_tsv("manifest.tsv")
            .into_iter()
            .map(|row| {
                let path = row[0].clone();
                let reference_parses = match row[1].as_str() {
                    "yes" => true,
                    "no" => false,
                    other => panic!("{path}: reference verdict {other:?} is neither yes nor no"),
                };
                let bytes =
                    fs::read(input.join(&path)).unwrap_or_else(|err| panic!("cannot read {path}: {err}"));
                let (lossless, errors) = match syntax::decode_source(&bytes) {
                    // Bytes that are not UTF-8 have no tree, so there is
                    // nothing to lose; the decoding error is the file's error.
                    Err(err) => (true, vec![err]),
                    Ok(text) => {
                        let parse = syntax::parse(text);
                        (parse.syntax_node().to_string() == text, parse.errors().to_vec())
                    }
                };
                let first_error_at = errors.first().map(|err| line_column(&bytes, err.range.start()));
                Outcome { path, reference_parses, lossless, errors, first_error_at }
            })
            .collect()
    })
}

/// Converts a byte offset into a 1-based line and column, the way the
/// reference's positions count them.
fn line_column(bytes: &[u8], offset: TextSize) -> (usize, usize) {
    let offset = usize::from(offset).min(bytes.len());
    let before = &bytes[..offset];
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = String::from_utf8_lossy(&before[line_start..]).chars().count() + 1;
    (line, column)
}

/// Paths whose verdict differs from the reference on purpose, with the reason
/// written down in `known-differences.tsv` (shared with `cargo xtask
/// conformance`).
fn known_verdict_differences() -> HashSet<String> {
    read_tsv("known-differences.tsv")
        .into_iter()
        .filter(|row| row.get(1).is_some_and(|what| what == "verdict"))
        .map(|row| row[0].clone())
        .collect()
}

fn describe(errors: &[SyntaxError]) -> String {
    match errors.first() {
        None => "no error".to_owned(),
        Some(first) => {
            format!("{} errors, first {:?} at {:?}: {}", errors.len(), first.code, first.range, first.message)
        }
    }
}

#[test]
fn corpus_files_are_lossless() {
    let failures: Vec<&str> = outcomes().iter().filter(|o| !o.lossless).map(|o| o.path.as_str()).collect();
    assert!(
        failures.is_empty(),
        "{} files do not round-trip through the tree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_verdicts_match_the_reference() {
    let known = known_verdict_differences();
    let mut report = String::new();
    let mut count = 0;
    for o in outcomes() {
        if o.reference_parses != o.errors.is_empty() && !known.contains(&o.path) {
            count += 1;
            let reference = if o.reference_parses { "parses" } else { "rejects" };
            writeln!(report, "{}: the reference {reference} it; we report {}", o.path, describe(&o.errors))
                .unwrap();
        }
    }
    assert!(count == 0, "{count} files disagree with the reference's verdict:\n{report}");
}

#[test]
fn corpus_first_errors_match_the_reference_positions() {
    let reference: HashMap<String, (usize, usize, String)> = read_tsv("reference-errors.tsv")
        .into_iter()
        .map(|row| {
            let number = |i: usize| {
                row[i].parse::<usize>().unwrap_or_else(|err| panic!("reference-errors.tsv: {row:?}: {err}"))
            };
            (row[0].clone(), (number(1), number(2), row[4].clone()))
        })
        .collect();
    let rejected: Vec<&Outcome> = outcomes().iter().filter(|o| !o.reference_parses).collect();
    let mut agree = 0;
    let mut report = String::new();
    for o in &rejected {
        let (line, column, summary) = reference
            .get(&o.path)
            .unwrap_or_else(|| panic!("{}: rejected but missing from reference-errors.tsv", o.path));
        if o.first_error_at == Some((*line, *column)) {
            agree += 1;
        } else {
            let ours = match (o.first_error_at, o.errors.first()) {
                (Some((l, c)), Some(err)) => format!("{l}:{c} {}", err.message),
                _ => "no error".to_owned(),
            };
            writeln!(report, "  {}: reference {line}:{column} {summary}; ours {ours}", o.path).unwrap();
        }
    }
    println!("first error at the reference's line and column: {agree} of {} rejected files", rejected.len());
    print!("{report}");
    // Written as a shortfall so that the comparison stays meaningful while
    // the floor is zero.
    let shortfall = FIRST_ERROR_POSITION_FLOOR.saturating_sub(agree);
    assert!(
        shortfall == 0,
        "only {agree} first errors sit where the reference's do, {shortfall} below the floor of {FIRST_ERROR_POSITION_FLOOR}"
    );
}
