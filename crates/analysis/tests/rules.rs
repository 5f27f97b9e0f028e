//! The lint rules on the cases of `test-data/check/<rule>/`.
//!
//! Every input file there is checked, and its diagnostics, the suggestions'
//! edits and the text after applying the rule's suggestions are compared
//! with `<file>.txt` beside it (`UPDATE_EXPECT=1 cargo test -p analysis`
//! refreshes them). Besides the expected files, each case asserts what it
//! is for: a `triggers*` file has diagnostics of its folder's rule and no
//! other file has any; applying the rule's suggestions gives a file that
//! parses and that the rule no longer fires on.

use std::path::{Path, PathBuf};

use analysis::{Diagnostic, LineIndex};
use db::RootDatabase;
use expect_test::expect_file;

use crate::support;

use support::check_dir;

/// The input files of a folder, sorted.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext != "txt"))
        .collect();
    files.sort();
    files
}

fn diagnostics_of(name: &str, text: &str) -> (RootDatabase, Vec<Diagnostic>) {
    let mut db = dialects::database();
    let file = db.set_file_text(name, text);
    let diagnostics = analysis::diagnostics(&db, file).to_vec();
    (db, diagnostics)
}

/// The text with the edits of every suggestion of `code` applied.
fn apply(text: &str, diagnostics: &[Diagnostic], code: &str) -> String {
    let mut edits: Vec<_> = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.code == code)
        .flat_map(|diagnostic| &diagnostic.suggestions)
        .flat_map(|suggestion| &suggestion.edits)
        .collect();
    edits.sort_by_key(|edit| (edit.range.start(), edit.range.end()));
    for pair in edits.windows(2) {
        assert!(pair[0].range.end() <= pair[1].range.start(), "overlapping edits {pair:?}");
    }
    let mut fixed = text.to_owned();
    for edit in edits.iter().rev() {
        fixed
            .replace_range(usize::from(edit.range.start())..usize::from(edit.range.end()), &edit.replacement);
    }
    fixed
}

fn describe(text: &str, diagnostics: &[Diagnostic]) -> String {
    let index = LineIndex::new(text);
    let mut out = String::new();
    for diagnostic in diagnostics {
        support::write_diagnostic(&mut out, "", text, &index, diagnostic, false);
    }
    if diagnostics.is_empty() {
        out.push_str("no diagnostics\n");
    }
    out
}

fn run_rule_folder(rule: &str) {
    assert!(analysis::rules::rule(rule).is_some(), "{rule} is in the registry");
    let dir = check_dir().join(rule);
    let files = inputs(&dir);
    assert!(!files.is_empty(), "{} has cases", dir.display());
    for path in files {
        let name = path.file_name().and_then(|name| name.to_str()).expect("a UTF-8 name").to_owned();
        let text = std::fs::read_to_string(&path).expect("a readable case");
        let (_, diagnostics) = diagnostics_of(&name, &text);
        assert!(diagnostics.iter().all(|it| it.code == rule), "{name}: only {rule} fires:\n{diagnostics:#?}");
        if name.starts_with("triggers") {
            assert!(!diagnostics.is_empty(), "{name} triggers {rule}");
        } else {
            assert!(
                diagnostics.is_empty(),
                "{name} must not trigger {rule}:\n{}",
                describe(&text, &diagnostics)
            );
        }

        let fixed = apply(&text, &diagnostics, rule);
        let (_, after) = diagnostics_of(&name, &fixed);
        assert!(
            after.iter().all(|it| it.code != rule && !it.is_error()),
            "{name} after the fixes:\n{fixed}\n{after:#?}"
        );

        let mut expected = describe(&text, &diagnostics);
        if fixed != text {
            expected.push_str("--- after the suggestions\n");
            expected.push_str(&fixed);
        }
        expect_file![
            path.with_extension(format!("{}.txt", path.extension().and_then(|e| e.to_str()).unwrap_or("")))
        ]
        .assert_eq(&expected);
    }
}

#[test]
fn interpolation_only() {
    run_rule_folder("interpolation-only");
}

#[test]
fn quoted_type_constraint() {
    run_rule_folder("quoted-type-constraint");
}

#[test]
fn legacy_index() {
    run_rule_folder("legacy-index");
}

#[test]
fn attribute_splat() {
    run_rule_folder("attribute-splat");
}

/// The case `halite-ignore/NAME`'s text and diagnostics, and the lines
/// (1-based) where those of a code start.
fn ignore_case(name: &str) -> (std::path::PathBuf, String, Vec<Diagnostic>, impl Fn(&str) -> Vec<u32>) {
    let path = check_dir().join("halite-ignore").join(name);
    let text = std::fs::read_to_string(&path).expect("a readable case");
    let (_, diagnostics) = diagnostics_of(name, &text);
    let index = LineIndex::new(&text);
    let starts: Vec<(&'static str, u32)> =
        diagnostics.iter().map(|it| (it.code, index.line_col(it.range.start()).line)).collect();
    let lines_of = move |code: &str| -> Vec<u32> {
        starts.iter().filter(|(it, _)| *it == code).map(|(_, line)| *line).collect()
    };
    (path, text, diagnostics, lines_of)
}

/// `halite-ignore` comments: which diagnostics they silence, and the
/// mistaken ones reported.
#[test]
fn ignore_comments() {
    let (path, text, diagnostics, lines_of) = ignore_case("comments.tf");
    // a, b, c and i are silenced; d (another rule named), e (no codes),
    // f (misspelt), h (the comment is two lines up) are not.
    assert_eq!(lines_of("interpolation-only"), [7, 9, 10, 15]);
    // The bare comment, the misspelt code, and the colon with no codes.
    assert_eq!(lines_of("invalid-ignore"), [8, 10, 11]);
    assert_eq!(lines_of("legacy-index"), [11]);
    expect_file![path.with_extension("tf.txt")].assert_eq(&describe(&text, &diagnostics));
}

/// TFLint's `tflint-ignore` comments silence the rules that find what the
/// TFLint rules they name find, and nothing else; they are never reported.
#[test]
fn tflint_ignore_comments() {
    let (_, _, _, lines_of) = ignore_case("tflint.tf");
    assert_eq!(lines_of("interpolation-only"), [9]);
    assert_eq!(lines_of("legacy-index"), [10]);
    assert_eq!(lines_of("invalid-ignore"), Vec::<u32>::new());
}

/// TFLint's `tflint-ignore-file` comment silences those rules in the
/// whole file when it is the file's first text, and is reported (silencing
/// nothing) anywhere else, as TFLint reports it.
#[test]
fn tflint_ignore_file_comments() {
    let (_, _, _, lines_of) = ignore_case("tflint-file.tf");
    assert_eq!(lines_of("interpolation-only"), Vec::<u32>::new());
    assert_eq!(lines_of("legacy-index"), [5]);
    assert_eq!(lines_of("invalid-ignore"), Vec::<u32>::new());
    let (path, text, diagnostics, lines_of) = ignore_case("tflint-file-late.tf");
    assert_eq!(lines_of("invalid-ignore"), [2]);
    assert_eq!(lines_of("interpolation-only"), [3]);
    expect_file![path.with_extension("tf.txt")].assert_eq(&describe(&text, &diagnostics));
}

/// A file with syntax errors gets those and no lints: its tree is a guess.
#[test]
fn no_lints_on_a_file_with_syntax_errors() {
    let (_, diagnostics) = diagnostics_of("main.tf", "a = \"${var.a}\"\nb = [\n");
    assert!(!diagnostics.is_empty());
    assert!(diagnostics.iter().all(Diagnostic::is_error), "{diagnostics:#?}");
}

/// JSON files have no native tree; the style lints are native-syntax only.
#[test]
fn no_lints_on_json_files() {
    let (_, diagnostics) = diagnostics_of("main.tf.json", r#"{"locals": {"a": "${var.a}"}}"#);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}
