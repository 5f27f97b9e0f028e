//! JSON syntax files in the database: chosen by name, parsed by their own
//! query, never formatted, and re-parsed only when they change.

use db::{RootDatabase, SourceSyntax, format, parse, parse_json, syntax_errors};
use expect_test::expect;

#[test]
fn the_name_decides_the_syntax() {
    for (path, syntax) in [
        ("main.tf", SourceSyntax::Native),
        ("main.tf.json", SourceSyntax::Json),
        ("config.hcl.json", SourceSyntax::Json),
        ("x.json.hcl", SourceSyntax::Native),
    ] {
        assert_eq!(SourceSyntax::of_path(path.into()), syntax, "{path}");
    }
}

#[test]
fn a_json_file_has_json_errors_no_native_tree_and_no_formatting() {
    let mut db = RootDatabase::new();
    let file = db.set_file_text("main.tf.json", "{\"a\": 1,}\n");
    assert_eq!(file.syntax(&db), SourceSyntax::Json);
    assert!(!syntax_errors(&db, file).is_empty(), "a trailing comma is an error in JSON");
    assert_eq!(syntax_errors(&db, file), parse_json(&db, file).errors());
    assert_eq!(parse(&db, file).syntax_node().to_string(), "", "no native tree for a JSON file");
    assert_eq!(format(&db, file, db::FormatStyle::Terraform), &None);

    let file = db.set_file_text("main.tf.json", "{\"a\": 1}\n");
    assert!(syntax_errors(&db, file).is_empty());
    assert_eq!(
        format(&db, file, db::FormatStyle::Terraform),
        &None,
        "JSON files are not formatted, even when valid"
    );
}

#[test]
fn editing_a_json_file_reparses_only_it() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl.json", "{\"a\": 1}");
    let b = db.set_file_text("b.hcl", "b = 2\n");
    db.log_executed(|| {
        syntax_errors(&db, a);
        syntax_errors(&db, b);
    });
    db.set_file_text("a.hcl.json", "{\"a\": 2}");
    let executed = db.log_executed(|| {
        syntax_errors(&db, a);
        syntax_errors(&db, b);
    });
    expect![[r#"
        [
            "parse_json(a.hcl.json)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn a_json_file_evaluates_in_just_attributes_mode() {
    let mut db = RootDatabase::new();
    let file = db.set_file_text(
        "config.hcl.json",
        r#"{"//": "not an attribute", "name": "app-${upper(\"x\")}", "ports": [80, 443], "bad": "${1 +"}"#,
    );
    let results: Vec<String> = db::evaluate(&db, file)
        .iter()
        .map(|(path, result)| match result {
            Ok(value) => format!("{path} = {value:?}"),
            Err(error) => format!("{path}: {}", error.summary()),
        })
        .collect();
    expect![[r#"
        [
            "name = \"app-X\"",
            "ports = tuple[80, 443]",
            "bad: Missing expression",
        ]
    "#]]
    .assert_debug_eq(&results);
}
