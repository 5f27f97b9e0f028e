//! The `format` query: what it returns, and what an edit makes it re-run,
//! checked by the exact list of executed queries.

use db::{FormatStyle, RootDatabase, format, parse};
use expect_test::expect;

#[test]
fn formats_a_valid_file() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a=1\nbbb   =  2\n");
    assert_eq!(format(&db, a, FormatStyle::Hcl).as_deref(), Some("a   = 1\nbbb = 2\n"));
}

#[test]
fn refuses_a_file_with_syntax_errors_a_deleted_file_and_bad_bytes() {
    let mut db = RootDatabase::new();
    let broken = db.set_file_text("broken.hcl", "a = {\n");
    assert_eq!(format(&db, broken, FormatStyle::Hcl), &None);

    let gone = db.set_file_text("gone.hcl", "a = 1\n");
    db.delete_file("gone.hcl".into());
    assert_eq!(format(&db, gone, FormatStyle::Hcl), &None);

    let bytes = db.set_file_bytes("bytes.hcl", b"a = \"\xff\"\n");
    assert_eq!(format(&db, bytes, FormatStyle::Hcl), &None);
}

#[test]
fn editing_one_file_reformats_only_that_file() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a = 1\n");
    let b = db.set_file_text("b.hcl", "b = 2\n");

    let executed = db.log_executed(|| {
        format(&db, a, FormatStyle::Hcl);
        format(&db, b, FormatStyle::Hcl);
    });
    expect![[r#"
        [
            "format(a.hcl, Hcl)",
            "parse(a.hcl)",
            "format(b.hcl, Hcl)",
            "parse(b.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);

    db.set_file_text("b.hcl", "b    = 3\n");
    let executed = db.log_executed(|| {
        format(&db, a, FormatStyle::Hcl);
        format(&db, b, FormatStyle::Hcl);
        parse(&db, a);
    });
    expect![[r#"
        [
            "parse(b.hcl)",
            "format(b.hcl, Hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(format(&db, b, FormatStyle::Hcl).as_deref(), Some("b = 3\n"));
}
