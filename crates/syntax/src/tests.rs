//! Data-driven parser tests: every `test-data/parser/ok/*.hcl` must parse
//! without errors and every `test-data/parser/err/*.hcl` with at least one;
//! each tree (and its errors) is compared with the `.rast` file beside it.
//! `test-data/parser/expression/` and `test-data/parser/template/` do the
//! same for the standalone entry points, mixing cases with and without
//! errors (the `.rast` shows which).
//! Refresh those with `UPDATE_EXPECT=1 cargo test -p syntax` and review the
//! diff.

use std::{fs, path::PathBuf};

fn test_data_dir(sub: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data").join(sub)
}

fn cases(sub: &str, extension: &str) -> Vec<PathBuf> {
    let dir = test_data_dir(sub);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no cases in {}", dir.display());
    paths
}

/// Each case through one entry point: lossless, and the tree and errors as
/// the `.rast` file beside it says.
fn run_entry_dir<T>(sub: &str, extension: &str, parse: fn(&str) -> crate::Parse<T>) {
    for path in cases(sub, extension) {
        let text = fs::read_to_string(&path).expect("test input is UTF-8");
        let parse = parse(&text);
        assert_eq!(parse.syntax_node().text().to_string(), text, "{} is not lossless", path.display());
        expect_test::expect_file![path.with_extension("rast")].assert_eq(&parse.debug_dump());
    }
}

#[test]
fn parser_expression() {
    run_entry_dir("parser/expression", "hcl", crate::parse_expression);
}

#[test]
fn parser_template() {
    run_entry_dir("parser/template", "txt", crate::parse_template);
}

fn run_dir(sub: &str, expect_errors: bool) {
    for path in cases(sub, "hcl") {
        let text = fs::read_to_string(&path).expect("test input is UTF-8");
        let parse = crate::parse(&text);
        assert_eq!(parse.syntax_node().text().to_string(), text, "{} is not lossless", path.display());
        let has_errors = !parse.errors().is_empty();
        assert_eq!(
            has_errors,
            expect_errors,
            "{}: expected {}, got:\n{}",
            path.display(),
            if expect_errors { "errors" } else { "no errors" },
            parse.debug_dump()
        );
        expect_test::expect_file![path.with_extension("rast")].assert_eq(&parse.debug_dump());
    }
}

#[test]
fn parser_ok() {
    run_dir("parser/ok", false);
}

#[test]
fn parser_err() {
    run_dir("parser/err", true);
}
