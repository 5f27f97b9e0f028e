//! Terraform's formatting style: chosen by a file's name through the
//! registry, one query per style.

use db::{FormatStyle, default_format_style, format};
use expect_test::expect;

#[test]
fn a_file_is_formatted_in_either_style_and_its_name_gives_the_default() {
    let mut db = dialects::database();
    let main = db.set_file_text("main.tf", "a = \"${var.x}\"\n");
    assert_eq!(format(&db, main, FormatStyle::Terraform).as_deref(), Some("a = var.x\n"));
    assert_eq!(format(&db, main, FormatStyle::Hcl).as_deref(), Some("a = \"${var.x}\"\n"));
    assert_eq!(default_format_style(&db, "main.tf".into()), FormatStyle::Terraform);
    assert_eq!(default_format_style(&db, "dir/test.tftest.hcl".into()), FormatStyle::Terraform);
    assert_eq!(default_format_style(&db, "build.pkr.hcl".into()), FormatStyle::Hcl);
    assert_eq!(default_format_style(&db, "stack.tfcomponent.hcl".into()), FormatStyle::Hcl);

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
            "format(main.tf, Terraform)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}
