//! The `format` query: what it returns, and what an edit makes it re-run,
//! checked by the exact list of executed queries.

use db::{FormatStyle, RootDatabase, default_format_style, format, parse};
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
            "format_hcl(a.hcl)",
            "parse(a.hcl)",
            "format_hcl(b.hcl)",
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
            "format_hcl(b.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(format(&db, b, FormatStyle::Hcl).as_deref(), Some("b = 3\n"));
}

#[test]
fn a_file_is_formatted_in_either_style_and_its_name_gives_the_default() {
    let mut db = RootDatabase::new();
    let main = db.set_file_text("main.tf", "a = \"${var.x}\"\n");
    assert_eq!(format(&db, main, FormatStyle::Terraform).as_deref(), Some("a = var.x\n"));
    assert_eq!(format(&db, main, FormatStyle::Hcl).as_deref(), Some("a = \"${var.x}\"\n"));
    assert_eq!(default_format_style("main.tf".into()), FormatStyle::Terraform);
    assert_eq!(default_format_style("dir/test.tftest.hcl".into()), FormatStyle::Terraform);
    assert_eq!(default_format_style("build.pkr.hcl".into()), FormatStyle::Hcl);
    assert_eq!(default_format_style("stack.tfcomponent.hcl".into()), FormatStyle::Hcl);

    // The two styles are two queries: formatting in one does not run the
    // other.
    let executed = db.log_executed(|| {
        format(&db, main, FormatStyle::Terraform);
    });
    assert_eq!(executed, Vec::<String>::new());
    db.set_file_text("main.tf", "a = \"${var.y}\"\n");
    let executed = db.log_executed(|| {
        format(&db, main, FormatStyle::Terraform);
    });
    expect![[r#"
        [
            "parse(main.tf)",
            "format_terraform(main.tf)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}
