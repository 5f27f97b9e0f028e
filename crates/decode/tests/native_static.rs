//! The static analyses of native expressions (`spec/information-model.md`,
//! "Static Analysis"): the elements of a tuple constructor, the items of an
//! object constructor (a bare name key as a keyword), a function call, a
//! static traversal or the reference's "Invalid expression", a keyword, and
//! each expression's range and start range, over
//! `test-data/decode/native/static.hcl`, and standalone expressions parsed
//! from strings.

use crate::support;

use std::fmt::Write;
use std::fs;

use decode::{Expression, SourceFile};

fn describe(out: &mut String, expr: &Expression) {
    let _ = writeln!(
        out,
        "  range {} start {}",
        support::short_range(&expr.range()),
        support::short_range(&expr.start_range())
    );
    if let Some(items) = expr.as_list() {
        let items: Vec<String> = items.iter().map(|it| support::short_range(&it.range())).collect();
        let _ = writeln!(out, "  list [{}]", items.join(", "));
    }
    if let Some(pairs) = expr.as_map() {
        for (key, value) in pairs {
            let (key_value, _) = key.value(&eval::Context::none());
            let _ = writeln!(
                out,
                "  map key {} keyword {:?} value {} at {}",
                support::value_text(&key_value),
                key.as_keyword(),
                support::short_range(&key.range()),
                support::short_range(&value.range())
            );
        }
    }
    if let Some(call) = expr.as_call() {
        let args: Vec<String> = call.arguments.iter().map(|it| support::short_range(&it.range())).collect();
        let _ = writeln!(
            out,
            "  call {} name {} args {} [{}]",
            call.name,
            support::short_range(&call.name_range()),
            support::short_range(&call.arguments_range()),
            args.join(", ")
        );
    }
    match expr.as_traversal() {
        Ok(traversal) => {
            let _ = writeln!(out, "  traversal {}", support::traversal(&traversal));
        }
        Err(diagnostics) => {
            out.push_str("  ");
            support::diagnostics(out, &diagnostics);
        }
    }
    if let Some(keyword) = expr.as_keyword() {
        let _ = writeln!(out, "  keyword {keyword}");
    }
}

#[test]
fn native_static_analyses() {
    let path = support::test_data("native/static.hcl");
    let text = fs::read_to_string(&path).expect("the case is there");
    let file = SourceFile::native("static.hcl", text);
    assert!(file.syntax_diagnostics().is_empty(), "the case parses cleanly");
    let (attributes, diagnostics) = file.body().just_attributes();
    assert!(diagnostics.is_empty());
    let mut out = String::new();
    for attribute in &attributes {
        let _ = writeln!(out, "{}", attribute.name);
        describe(&mut out, &attribute.expr);
    }
    expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);
}

#[test]
fn standalone_expressions() {
    let mut out = String::new();
    for text in ["var.a[0]", "  upper(\"x\")  ", "1 +", "a.b\n.c", "[for x in y : x]"] {
        let (expr, diagnostics) = Expression::parse("<expr>", text);
        let _ = writeln!(out, "{text:?}");
        support::diagnostics(&mut out, &diagnostics);
        describe(&mut out, &expr);
        let _ = writeln!(
            out,
            "  variables {:?}",
            expr.variables().iter().map(support::traversal).collect::<Vec<_>>()
        );
    }
    let (template, diagnostics) = Expression::parse_template("<template>", "Hello, ${name}! $${literal}");
    assert!(diagnostics.is_empty());
    let (value, _) = template.value(&eval::Context {
        variables: [("name".to_owned(), value::Value::string("world"))].into_iter().collect(),
        ..eval::Context::new()
    });
    let _ = writeln!(out, "template {}", support::value_text(&value));
    expect_test::expect_file!["../../../test-data/decode/native/standalone.txt"].assert_eq(&out);
}
