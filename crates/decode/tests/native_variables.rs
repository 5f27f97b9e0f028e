//! What native expressions reference, over the cases in
//! `test-data/decode/native/variables/` (each an attribute `a`):
//! `reference_variables` must print exactly what the reference
//! `hcldec --var-refs` printed (`.oracle.txt`, made by
//! `test-data/decode/native/var_refs_oracle.py`), in its order; Halite's
//! fixed `variables` are in the expected `.txt`.

use crate::support;

use std::fs;

use decode::SourceFile;

fn attribute_a(name: &str, text: &str) -> decode::Expression {
    let file = SourceFile::native(name, text);
    assert!(file.syntax_diagnostics().is_empty(), "{name} parses cleanly");
    let (attributes, diagnostics) = file.body().just_attributes();
    assert!(diagnostics.is_empty(), "{name} has only attributes");
    attributes.into_iter().find(|it| it.name == "a").expect("the case defines a").expr
}

fn render(traversals: &[decode::Traversal]) -> String {
    traversals.iter().map(|it| support::traversal(it) + "\n").collect()
}

#[test]
fn native_variables_cases() {
    let dir = support::test_data("native/variables");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("the test data directory exists")
        .filter_map(|entry| entry.ok().map(|it| it.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "hcl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 5, "the cases are there");
    for path in cases {
        let name = path.file_name().and_then(|it| it.to_str()).unwrap_or_default().to_owned();
        let text = fs::read_to_string(&path).expect("a readable case");
        let expr = attribute_a(&name, &text);

        let oracle = fs::read_to_string(path.with_extension("oracle.txt")).expect("the reference's output");
        assert_eq!(render(&expr.reference_variables()), oracle, "{name}: the reference form differs");

        expect_test::expect_file![path.with_extension("txt")].assert_eq(&render(&expr.variables()));
    }
}
