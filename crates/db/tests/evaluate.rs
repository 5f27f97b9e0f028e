//! What an edit re-runs of evaluation, by the exact list of executed queries.

use db::{RootDatabase, evaluate};
use expect_test::expect;

fn values(db: &RootDatabase, file: db::File) -> Vec<(String, String)> {
    evaluate(db, file)
        .iter()
        .map(|(path, result)| {
            let shown = match result {
                Ok(value) => value.to_json_string(&value.ty()).unwrap_or_else(|_| "?".to_owned()),
                Err(error) => format!("error: {}", error.summary()),
            };
            (path.clone(), shown)
        })
        .collect()
}

#[test]
fn a_trivia_edit_reevaluates_nothing_and_a_value_edit_reevaluates_its_file() {
    let mut db = RootDatabase::new();
    let file = db.set_file_text("a.hcl", "a = 1 + 2\nb = upper(\"x\")\nc = nope\n");
    assert_eq!(
        values(&db, file),
        [
            ("a".to_owned(), "3".to_owned()),
            ("b".to_owned(), "\"X\"".to_owned()),
            ("c".to_owned(), "error: Unknown variable".to_owned()),
        ]
    );

    // Whitespace and a comment: parsed and lowered again, but the HIR is
    // equal, so evaluation is not.
    db.set_file_text("a.hcl", "a   = 1 + 2 # three\nb = upper(\"x\")\nc = nope\n");
    let executed = db.log_executed(|| {
        evaluate(&db, file);
    });
    expect![[r#"
        [
            "parse(a.hcl)",
            "lower_with_source_map(a.hcl)",
            "lower(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);

    db.set_file_text("a.hcl", "a = 1 + 3\nb = upper(\"x\")\nc = nope\n");
    let executed = db.log_executed(|| {
        evaluate(&db, file);
    });
    expect![[r#"
        [
            "parse(a.hcl)",
            "lower_with_source_map(a.hcl)",
            "lower(a.hcl)",
            "evaluate(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(values(&db, file)[0], ("a".to_owned(), "4".to_owned()));
}
