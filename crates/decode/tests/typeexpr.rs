//! Type constraint expressions read from files of both syntaxes, in the
//! three modes (exact type, constraint, constraint with defaults), with the
//! reference's diagnostics; and values converted to constraints after their
//! defaults are applied. Expected outputs are in `test-data/decode/typeexpr`.

use crate::support;

use std::fmt::Write as _;
use std::sync::Arc;

use decode::typeexpr::{self, Defaults, TypeConstraint};
use decode::{Diagnostics, SourceFile};
use expect_test::expect_file;

fn load(name: &str) -> Arc<SourceFile> {
    let path = support::test_data("typeexpr").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    if name.ends_with(".json") { SourceFile::json(name, text) } else { SourceFile::native(name, text) }
}

fn outcome<T>(out: &mut String, label: &str, result: Result<T, Diagnostics>, show: impl Fn(&T) -> String) {
    match result {
        Ok(ok) => {
            let _ = writeln!(out, "  {label}: {}", show(&ok));
        }
        Err(diagnostics) => {
            let _ = writeln!(out, "  {label}:");
            let mut text = String::new();
            support::diagnostics(&mut text, &diagnostics);
            for line in text.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
    }
}

fn defaults_text(out: &mut String, defaults: &Defaults, indent: usize) {
    let pad = " ".repeat(indent);
    let _ = writeln!(out, "{pad}defaults for {}", typeexpr::type_string(&defaults.ty));
    for (name, value) in &defaults.defaults {
        let _ = writeln!(out, "{pad}  {name} = {value:?}");
    }
    for (key, child) in &defaults.children {
        let _ = writeln!(out, "{pad}  child {}:", key.as_deref().unwrap_or("(elements)"));
        defaults_text(out, child, indent + 4);
    }
}

fn constraint_text(constraint: &TypeConstraint) -> String {
    let mut out = format!("{} {}", typeexpr::type_string(&constraint.ty), constraint.ty.to_json_string());
    if let Some(defaults) = &constraint.defaults {
        out.push('\n');
        defaults_text(&mut out, defaults, 4);
        out.pop();
    }
    out
}

fn check_file(name: &str, expected: expect_test::ExpectFile) {
    let file = load(name);
    let mut out = String::new();
    support::diagnostics(&mut out, &file.syntax_diagnostics());
    let (attributes, diagnostics) = file.body().just_attributes();
    support::diagnostics(&mut out, &diagnostics);
    for attribute in attributes {
        let _ = writeln!(out, "{}:", attribute.name);
        let show = |ty: &value::Type| format!("{} {}", typeexpr::type_string(ty), ty.to_json_string());
        outcome(&mut out, "exact", typeexpr::exact_type(&attribute.expr), show);
        outcome(&mut out, "constraint", typeexpr::type_constraint(&attribute.expr), show);
        outcome(
            &mut out,
            "with defaults",
            typeexpr::type_constraint_with_defaults(&attribute.expr),
            constraint_text,
        );
    }
    expected.assert_eq(&out);
}

#[test]
fn native_constraints() {
    check_file("constraints.hcl", expect_file!["../../../test-data/decode/typeexpr/constraints.txt"]);
}

/// In the JSON syntax a type is a string holding the native expression, as
/// the reference's JSON expressions answer keyword and call analyses by
/// parsing their string.
#[test]
fn json_constraints() {
    check_file("constraints.json", expect_file!["../../../test-data/decode/typeexpr/constraints.json.txt"]);
}

/// Each `case` block declares a constraint (`type`) and a value; the value
/// is converted to the constraint after its defaults are applied, as a
/// variable declaration does.
#[test]
fn conversions() {
    let file = load("conversions.hcl");
    let mut out = String::new();
    support::diagnostics(&mut out, &file.syntax_diagnostics());
    let (content, diagnostics) = file.body().content(&support::schema(&["case[name]"]));
    support::diagnostics(&mut out, &diagnostics);
    for block in &content.blocks {
        let _ = writeln!(out, "{}:", block.labels.join(" "));
        let (attributes, diagnostics) = block.body.content(&support::schema(&["type!", "value!"]));
        support::diagnostics(&mut out, &diagnostics);
        let (Some(ty), Some(value)) = (attributes.attribute("type"), attributes.attribute("value")) else {
            continue;
        };
        let constraint = match typeexpr::type_constraint_with_defaults(&ty.expr) {
            Ok(constraint) => constraint,
            Err(diagnostics) => {
                support::diagnostics(&mut out, &diagnostics);
                continue;
            }
        };
        let (value, diagnostics) = value.expr.value(&eval::Context::with_stdlib());
        support::diagnostics(&mut out, &diagnostics);
        if let Some(defaults) = &constraint.defaults {
            let _ = writeln!(out, "  applied:   {:?}", defaults.apply(value.clone()));
        }
        match typeexpr::convert_with_defaults(&value, &constraint) {
            Ok(converted) => {
                let _ = writeln!(out, "  converted: {converted:?}");
            }
            Err(error) => {
                let _ = writeln!(out, "  error: {error}");
            }
        }
    }
    expect_file!["../../../test-data/decode/typeexpr/conversions.txt"].assert_eq(&out);
}

/// The reference's parser keeps parentheses as an expression of their own
/// that is neither a keyword, nor a call, nor a static list or map, and a
/// parenthesised object key is never an attribute name: each of these is
/// an invalid type.
#[test]
fn parenthesized_expressions_are_not_types() {
    let file = load("parenthesized.hcl");
    let (attributes, diagnostics) = file.body().just_attributes();
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(attributes.len(), 5);
    let accepted: Vec<String> = attributes
        .iter()
        .filter_map(|attribute| {
            let result = typeexpr::type_constraint(&attribute.expr).ok()?;
            Some(format!("{} gave {result:?}", attribute.name))
        })
        .collect();
    assert!(accepted.is_empty(), "{accepted:#?}");
}
