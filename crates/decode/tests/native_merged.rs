//! Merged bodies (the reference's `MergeBodies`, what `hcldec` does with
//! several files): `test-data/decode/native/merged/*.hcl` decoded together
//! with the schema of `merged/spec.hcldec`. The content's diagnostics must
//! be the set the reference `hcldec` reported (`merged/oracle.txt`, made by
//! `test-data/decode/native/oracle.py`); partial content with the rest's
//! content, and just attributes, are in the expected `merged/expected.txt`.

use crate::support;

use std::fs;

use decode::{Body, SourceFile};

fn merged_body() -> Body {
    let dir = support::test_data("native/merged");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("the test data directory exists")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".hcl"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 2, "two files to merge");
    let bodies = names
        .iter()
        .map(|name| {
            let text = fs::read_to_string(dir.join(name)).expect("a readable file");
            SourceFile::native(name.as_str(), text).body()
        })
        .collect();
    Body::merge(bodies)
}

#[test]
fn merged_content_matches_the_reference() {
    let body = merged_body();
    let (content, diagnostics) = body.content(&support::schema(&["a", "b", "c!", "svc[name]"]));
    let mut ours = String::new();
    support::diagnostics(&mut ours, &diagnostics);
    let mut ours: Vec<&str> = ours.lines().collect();
    ours.sort();
    let oracle =
        fs::read_to_string(support::test_data("native/merged/oracle.txt")).expect("the reference's output");
    assert_eq!(ours, oracle.lines().collect::<Vec<_>>());

    let mut out = String::from("-- content\n");
    support::content(&mut out, &content);

    let (content, rest, diagnostics) = body.partial_content(&support::schema(&["a", "svc[name]"]));
    out.push_str("-- partial\n");
    support::content(&mut out, &content);
    support::diagnostics(&mut out, &diagnostics);
    let (content, diagnostics) = rest.content(&support::schema(&["b", "extra", "other[]"]));
    out.push_str("-- rest\n");
    support::content(&mut out, &content);
    support::diagnostics(&mut out, &diagnostics);

    let (attributes, diagnostics) = body.just_attributes();
    out.push_str("-- just attributes\n");
    for attribute in attributes {
        out.push_str(&format!("attribute {} at {}\n", attribute.name, support::range(&attribute.range)));
    }
    support::diagnostics(&mut out, &diagnostics);

    let empty = Body::merge(Vec::new());
    let (content, diagnostics) = empty.content(&support::schema(&["a!"]));
    out.push_str("-- empty\n");
    support::content(&mut out, &content);
    support::diagnostics(&mut out, &diagnostics);
    expect_test::expect_file![support::test_data("native/merged/expected.txt")].assert_eq(&out);
}
