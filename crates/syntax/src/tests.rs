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

/// Duplicate arguments in a body too large to scan name by name (it is
/// indexed past 32 names): the same errors in the same order as in a small
/// body, each naming where the first definition is, nested bodies checked
/// apart from the body around them. The expected text was made by the
/// linear scan this replaced.
#[test]
fn duplicate_attributes_in_a_large_body() {
    let mut text = String::new();
    for i in 1..=40 {
        text.push_str(&format!("a{i} = {i}\n"));
    }
    text.push_str("a1 = 0\na40 = 0\n/* é */ z = 1\nz = 2\n");
    text.push_str("block {\n  a1 = 1\n  a2 = 2\n  a1 = 3\n}\none { a1 = 1 }\n");
    for i in 1..=40 {
        text.push_str(&format!("  b{i} = {i}\n"));
    }
    text.push_str("a2 = 0\na41 = 1\nb40 = 0\na41 = 2\nz = 3\n");
    let parse = crate::parse(&text);
    let errors: String = parse
        .errors()
        .iter()
        .map(|error| {
            format!("{:?} {}: {}\n", error.range, error.message, error.detail.as_deref().unwrap_or(""))
        })
        .collect();
    expect_test::expect![[r#"
        342..344 Attribute redefined: The argument "a1" was already set at line 1, column 1. Each argument may be set only once.
        349..352 Attribute redefined: The argument "a40" was already set at line 40, column 1. Each argument may be set only once.
        372..373 Attribute redefined: The argument "z" was already set at line 43, column 9. Each argument may be set only once.
        406..408 Attribute redefined: The argument "a1" was already set at line 46, column 3. Each argument may be set only once.
        852..854 Attribute redefined: The argument "a2" was already set at line 2, column 1. Each argument may be set only once.
        867..870 Attribute redefined: The argument "b40" was already set at line 90, column 3. Each argument may be set only once.
        875..878 Attribute redefined: The argument "a41" was already set at line 92, column 1. Each argument may be set only once.
        883..884 Attribute redefined: The argument "z" was already set at line 43, column 9. Each argument may be set only once.
    "#]].assert_eq(&errors);
}

/// A label's text without its quotes is what its `SyntaxText` gives, quotes
/// stripped: escapes stay as written, and a lone quote is kept.
#[test]
fn block_labels_unquoted() {
    use crate::ast::{self, AstNode};
    let text = "a \"b\" c \"\" \"x\\\"y\" \"${z}\" {}\n";
    let parse = crate::parse(text);
    let block = parse.tree().syntax().descendants().find_map(ast::Block::cast).expect("a block");
    let labels: Vec<(String, String)> = block
        .block_labels()
        .map(|label| (label.syntax().text().to_string(), label.unquoted_text()))
        .collect();
    expect_test::expect![[r#"
        [
            (
                "\"b\"",
                "b",
            ),
            (
                "c",
                "c",
            ),
            (
                "\"\"",
                "",
            ),
            (
                "\"x\\\"y\"",
                "x\\\"y",
            ),
            (
                "\"${z}\"",
                "${z}",
            ),
        ]
    "#]]
    .assert_debug_eq(&labels);
}
