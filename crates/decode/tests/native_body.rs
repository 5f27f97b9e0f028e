//! Native bodies under schemas: `content`, `partial_content` followed by the
//! remainder's content or attributes, and `just_attributes`, over the cases
//! in `test-data/decode/native/content/`.
//!
//! Each case's first line says what to ask: `# content: SCHEMA`,
//! `# partial: SCHEMA | rest: SCHEMA`, `# partial: SCHEMA | just-attributes`
//! or `# just-attributes`, a schema written as the support module's
//! `schema` reads it. The expected output (`.txt`) lists the content found
//! and the diagnostics. The reference's diagnostics for the cases asked
//! with `content` are in `.oracle.txt` (made by
//! `test-data/decode/native/oracle.py` with the reference `hcldec`); ours
//! must be the same set, since the reference reports unsupported arguments
//! in the random order of a Go map.

use crate::support;

use std::fs;

use decode::{Body, SourceFile};

fn schema_of(text: &str) -> decode::BodySchema {
    let items: Vec<&str> = text.split_whitespace().collect();
    support::schema(&items)
}

fn run(name: &str, text: &str) -> (String, Vec<decode::Diagnostic>) {
    let file = SourceFile::native(name, text);
    let body = file.body();
    let mut out = String::new();
    let mut all = file.syntax_diagnostics();
    support::diagnostics(&mut out, &all);
    let first = text.lines().next().unwrap_or_default();
    // The directive is the first line's comment, wherever it starts.
    let directive = first.split_once('#').map_or("", |(_, it)| it.trim());
    let just_attributes = |out: &mut String, all: &mut Vec<decode::Diagnostic>, body: &Body| {
        let (attributes, diagnostics) = body.just_attributes();
        for attribute in &attributes {
            out.push_str(&format!(
                "attribute {} range {}\n",
                attribute.name,
                support::range(&attribute.range)
            ));
        }
        support::diagnostics(out, &diagnostics);
        all.extend(diagnostics);
    };
    if let Some(schema) = directive.strip_prefix("content:") {
        let (content, diagnostics) = body.content(&schema_of(schema));
        support::content(&mut out, &content);
        support::diagnostics(&mut out, &diagnostics);
        all.extend(diagnostics);
    } else if let Some(rest) = directive.strip_prefix("partial:") {
        let (first_schema, then) =
            rest.split_once('|').expect("a partial case says what to do with the rest");
        let (content, remain, diagnostics) = body.partial_content(&schema_of(first_schema));
        out.push_str("-- partial\n");
        support::content(&mut out, &content);
        support::diagnostics(&mut out, &diagnostics);
        all.extend(diagnostics);
        let then = then.trim();
        if let Some(schema) = then.strip_prefix("rest:") {
            out.push_str("-- rest\n");
            let (content, diagnostics) = remain.content(&schema_of(schema));
            support::content(&mut out, &content);
            support::diagnostics(&mut out, &diagnostics);
            all.extend(diagnostics);
        } else {
            out.push_str("-- rest, just attributes\n");
            just_attributes(&mut out, &mut all, &remain);
        }
    } else if directive == "just-attributes" {
        just_attributes(&mut out, &mut all, &body);
    } else {
        panic!("{name}: no directive on the first line");
    }
    (out, all)
}

#[test]
fn native_content_cases() {
    let dir = support::test_data("native/content");
    let mut cases: Vec<_> = fs::read_dir(&dir)
        .expect("the test data directory exists")
        .filter_map(|entry| entry.ok().map(|it| it.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "hcl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "the cases are there");
    for path in cases {
        let name = path.file_name().and_then(|it| it.to_str()).unwrap_or_default().to_owned();
        let text = fs::read_to_string(&path).expect("a readable case");
        let (out, diagnostics) = run(&name, &text);
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);

        let oracle_path = path.with_extension("oracle.txt");
        if let Ok(oracle) = fs::read_to_string(&oracle_path) {
            let mut ours = String::new();
            support::diagnostics(&mut ours, &diagnostics);
            let mut ours: Vec<String> = ours.lines().map(strip_context).collect();
            let mut theirs: Vec<String> = oracle.lines().map(str::to_owned).collect();
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{name}: the reference's diagnostics differ");
        }
    }
}

/// The reference's JSON diagnostics have no context range.
fn strip_context(line: &str) -> String {
    match line.find(" | context ") {
        Some(at) => line[..at].to_owned(),
        None => line.to_owned(),
    }
}
