//! A file's diagnostics, as values, and what an edit re-runs to get them.

use analysis::{Diagnostic, LineCol, Severity, diagnostics, line_index};
use db::RootDatabase;
use expect_test::expect;
use syntax::{SyntaxError, TextRange};

/// Diagnostics as one line each: severity, code, start and end as
/// line:column, message, then the notes.
fn show(db: &RootDatabase, diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for diagnostic in diagnostics {
        let index = line_index(db, diagnostic.file);
        let LineCol { line, column } = index.line_col(diagnostic.range.start());
        let end = index.line_col(diagnostic.range.end());
        out += &format!(
            "{} [{}] {}:{line}:{column}-{}:{}: {}\n",
            diagnostic.severity.as_str(),
            diagnostic.code,
            diagnostic.file.path(db),
            end.line,
            end.column,
            diagnostic.message
        );
        for note in &diagnostic.notes {
            out += &format!("  note: {note}\n");
        }
    }
    out
}

#[test]
fn invalid_utf8_is_one_error_at_the_first_bad_byte() {
    let mut db = dialects::database();
    let file = db.set_file_bytes(
        "bad.tf",
        "a = \"é\"\nb = \"".bytes().chain([0xC3, b'(', b'"']).collect::<Vec<_>>().as_slice(),
    );
    expect![[r#"
        error [invalid-utf8] bad.tf:2:6-2:7: Invalid character encoding
          note: All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in your editor.
    "#]]
    .assert_eq(&show(&db, diagnostics(&db, file)));
}

#[test]
fn a_syntax_error_becomes_an_error_with_its_detail_as_a_note() {
    let mut db = dialects::database();
    let file = db.set_file_text("main.tf", "a = 1\n");
    let error = SyntaxError::new(
        "unclosed-block",
        "Unclosed configuration block",
        TextRange::new(2.into(), 3.into()),
    )
    .with_detail("There is no closing brace for this block before the end of the file.");
    let diagnostic = Diagnostic::from_syntax_error(file, &error);
    assert_eq!(diagnostic.severity, Severity::Error);
    expect![[r#"
        error [unclosed-block] main.tf:1:3-1:4: Unclosed configuration block
          note: There is no closing brace for this block before the end of the file.
    "#]]
    .assert_eq(&show(&db, &[diagnostic]));
}

#[test]
fn valid_files_have_no_diagnostics() {
    let mut db = dialects::database();
    let file = db.set_file_text("main.tf", "");
    assert_eq!(diagnostics(&db, file), &Vec::<Diagnostic>::new());
}

#[test]
fn parse_errors_become_diagnostics() {
    let mut db = dialects::database();
    let file = db.set_file_text("main.tf", "resource \"a\" \"b\" {\n  x = \n}\n");
    expect![[r#"
        error [invalid-expression] main.tf:2:7-3:1: Invalid expression
          note: Expected the start of an expression, but found an invalid expression token.
    "#]]
    .assert_eq(&show(&db, diagnostics(&db, file)));
}

#[test]
fn editing_one_file_recomputes_only_its_diagnostics() {
    let mut db = dialects::database();
    let a = db.set_file_text("a.hcl", "a = 1\n");
    let b = db.set_file_text("b.hcl", "b = 2\n");
    let executed = db.log_executed(|| {
        diagnostics(&db, a);
        diagnostics(&db, b);
    });
    expect![[r#"
        [
            "syntax_diagnostics(a.hcl)",
            "parse(a.hcl)",
            "lint_diagnostics(a.hcl)",
            "style_lints(a.hcl)",
            "ignore_comments(a.hcl)",
            "syntax_diagnostics(b.hcl)",
            "parse(b.hcl)",
            "lint_diagnostics(b.hcl)",
            "style_lints(b.hcl)",
            "ignore_comments(b.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);

    db.set_file_text("a.hcl", "a = 10\n");
    let executed = db.log_executed(|| {
        diagnostics(&db, a);
        diagnostics(&db, b);
    });
    // The new tree makes the syntax diagnostics, the style lints and the
    // ignore comments re-run; each is the same (none) as before, so salsa
    // keeps the old values and `lint_diagnostics`, the query above them, does not
    // re-run. Nothing of `b.hcl` re-runs.
    expect![[r#"
        [
            "parse(a.hcl)",
            "syntax_diagnostics(a.hcl)",
            "style_lints(a.hcl)",
            "ignore_comments(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}
