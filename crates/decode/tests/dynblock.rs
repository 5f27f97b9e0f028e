//! Dynamic block expansion over native files: the blocks `dynamic` blocks
//! generate, their labels and ranges, the values of their attributes with
//! the iterators in scope, unknown `for_each` values, partial decoding, the
//! reference's diagnostics, and the variables a body needs before it is
//! expanded. Expected outputs are in `test-data/decode/dynblock`.

use crate::support;

use std::fmt::Write as _;
use std::sync::Arc;

use decode::dynblock::{self, SchemaTree};
use decode::{Body, SourceFile};
use expect_test::expect_file;
use value::{Type, Value};

fn load(name: &str) -> Arc<SourceFile> {
    let path = support::test_data("dynblock").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    SourceFile::native(name, text)
}

/// A schema tree from `(schema items, [(block type, subtree)])`.
fn tree(items: &[&str], children: Vec<(&str, SchemaTree)>) -> SchemaTree {
    SchemaTree {
        schema: support::schema(items),
        children: children.into_iter().map(|(name, child)| (name.into(), child)).collect(),
    }
}

/// The context the tests expand and evaluate in: the standard library and
/// a few variables.
fn context() -> eval::Context {
    let mut ctx = eval::Context::with_stdlib();
    let strings = |items: &[&str]| {
        Value::list(Type::String, items.iter().map(|item| Value::string(item)).collect()).expect("a list")
    };
    let var = Value::object_from([
        ("items", strings(&["i0", "i1"])),
        ("unknown_list", Value::unknown(Type::list(Type::String))),
    ]);
    ctx.variables.insert("var".into(), var);
    ctx.variables.insert("greeting".into(), Value::string("hello"));
    ctx
}

/// The content of `body` under `schema`, each block's body rendered in
/// turn under its block type's schema, attributes evaluated in `ctx`.
fn render(out: &mut String, body: &Body, schema: &SchemaTree, ctx: &eval::Context, depth: usize) {
    let pad = "  ".repeat(depth);
    let (content, diagnostics) = body.content(&schema.schema);
    diagnostics_at(out, &pad, &diagnostics);
    for attribute in &content.attributes {
        let (value, diagnostics) = attribute.expr.value(ctx);
        // What the attribute needs from the caller: never an iterator.
        let references: Vec<String> =
            attribute.expr.variables().iter().map(|traversal| traversal.root_name().to_string()).collect();
        let references =
            if references.is_empty() { String::new() } else { format!(" needs [{}]", references.join(", ")) };
        let _ = writeln!(out, "{pad}{} = {value:?}{references}", attribute.name);
        diagnostics_at(out, &pad, &diagnostics);
    }
    for block in &content.blocks {
        let labels: Vec<String> = block.labels.iter().map(|label| format!("{label:?}")).collect();
        let label_ranges: Vec<String> = block.label_ranges.iter().map(support::range).collect();
        let unknown = if dynblock::is_unknown(&block.body) { " (unknown)" } else { "" };
        let _ = writeln!(
            out,
            "{pad}{} {}{unknown} def {} type {} labels [{}]",
            block.type_name,
            labels.join(" "),
            support::range(&block.def_range),
            support::range(&block.type_range),
            label_ranges.join(", ")
        );
        let child = schema.children.iter().find(|(name, _)| *name == block.type_name).map(|(_, child)| child);
        if let Some(child) = child {
            render(out, &block.body, child, ctx, depth + 1);
        }
    }
}

fn diagnostics_at(out: &mut String, pad: &str, diagnostics: &[decode::Diagnostic]) {
    let mut text = String::new();
    support::diagnostics(&mut text, diagnostics);
    for line in text.lines() {
        let _ = writeln!(out, "{pad}{line}");
    }
}

fn check_expansion(name: &str, schema: &SchemaTree, expected: expect_test::ExpectFile) {
    let file = load(name);
    let mut out = String::new();
    support::diagnostics(&mut out, &file.syntax_diagnostics());
    let ctx = context();
    let body = dynblock::expand(file.body(), &ctx);
    render(&mut out, &body, schema, &ctx, 0);
    expected.assert_eq(&out);
}

#[test]
fn expand_static_and_nested_dynamic_blocks() {
    let c = tree(&["val0", "val1"], Vec::new());
    let schema = tree(
        &["a[key]", "b[]"],
        vec![("a", tree(&["val"], Vec::new())), ("b", tree(&["c[]"], vec![("c", c)]))],
    );
    check_expansion("expand.hcl", &schema, expect_file!["../../../test-data/decode/dynblock/expand.txt"]);
}

#[test]
fn expand_every_kind_of_for_each() {
    let schema = tree(&["item[kind]"], vec![("item", tree(&["key", "value", "port", "item"], Vec::new()))]);
    check_expansion(
        "iterables.hcl",
        &schema,
        expect_file!["../../../test-data/decode/dynblock/iterables.txt"],
    );
}

#[test]
fn unknown_for_each_makes_one_unknown_block() {
    let nested = tree(&["deep"], Vec::new());
    let item = tree(&["value", "fixed", "nested[]"], vec![("nested", nested)]);
    let schema = tree(&["item[kind]"], vec![("item", item)]);
    check_expansion("unknown.hcl", &schema, expect_file!["../../../test-data/decode/dynblock/unknown.txt"]);
}

#[test]
fn diagnostics_of_bad_dynamic_blocks() {
    let schema = tree(&["item[kind]"], vec![("item", tree(&[], Vec::new()))]);
    check_expansion("errors.hcl", &schema, expect_file!["../../../test-data/decode/dynblock/errors.txt"]);
}

/// Partial content takes `a` blocks (static and dynamic) and `name`; the
/// rest still holds the `b` blocks, dynamic ones included, and asking it
/// for `a` or `name` again finds nothing.
#[test]
fn partial_content_and_the_rest() {
    let file = load("partial.hcl");
    let ctx = context();
    let body = dynblock::expand(file.body(), &ctx);
    let mut out = String::new();
    let leaf = tree(&["val"], Vec::new());

    let (content, rest, diagnostics) = body.partial_content(&support::schema(&["name", "a[key]"]));
    out.push_str("# partial: name, a\n");
    support::diagnostics(&mut out, &diagnostics);
    let first = SchemaTree {
        schema: support::schema(&["name", "a[key]"]),
        children: vec![("a".into(), leaf.clone())],
    };
    render_content(&mut out, &content, &first, &ctx);

    out.push_str("# rest: name, a, b\n");
    let all = tree(&["name", "a[key]", "b[]"], vec![("a", leaf.clone()), ("b", leaf.clone())]);
    render(&mut out, &rest, &all, &ctx, 0);

    out.push_str("# rest without b in the schema\n");
    render(&mut out, &rest, &tree(&["name", "a[key]"], vec![("a", leaf.clone())]), &ctx, 0);

    out.push_str("# partial of the rest: nothing asked\n");
    let (content, _, diagnostics) = rest.partial_content(&support::schema(&[]));
    support::diagnostics(&mut out, &diagnostics);
    let _ = writeln!(out, "{} attributes, {} blocks", content.attributes.len(), content.blocks.len());

    out.push_str("# content of the whole body with a schema lacking b\n");
    render(&mut out, &body, &tree(&["name", "a[key]"], vec![("a", leaf)]), &ctx, 0);

    expect_file!["../../../test-data/decode/dynblock/partial.txt"].assert_eq(&out);
}

fn render_content(out: &mut String, content: &decode::BodyContent, schema: &SchemaTree, ctx: &eval::Context) {
    for attribute in &content.attributes {
        let (value, _) = attribute.expr.value(ctx);
        let _ = writeln!(out, "{} = {value:?}", attribute.name);
    }
    for block in &content.blocks {
        let _ = writeln!(out, "{} {:?}", block.type_name, block.labels);
        if let Some((_, child)) = schema.children.iter().find(|(name, _)| *name == block.type_name) {
            render(out, &block.body, child, ctx, 1);
        }
    }
}

/// A generated block's body read attribute by attribute still sees its
/// iterator.
#[test]
fn just_attributes_of_a_generated_block() {
    let file = load("iterables.hcl");
    let ctx = context();
    let body = dynblock::expand(file.body(), &ctx);
    let (content, diagnostics) = body.content(&support::schema(&["item[kind]"]));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let first = content.blocks.first().expect("a generated block");
    let (attributes, diagnostics) = first.body.just_attributes();
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let values: Vec<String> = attributes
        .iter()
        .map(|attribute| format!("{} = {:?}", attribute.name, attribute.expr.value(&ctx).0))
        .collect();
    assert_eq!(values, ["key = 0", "value = \"l0\""]);
    // The iterator is the expansion's own variable, not one the caller
    // must provide.
    for attribute in &attributes {
        assert_eq!(attribute.expr.variables(), Vec::new(), "{}", attribute.name);
    }
    let last = content.blocks.last().expect("a generated block");
    let (attributes, _) = last.body.just_attributes();
    let roots: Vec<String> = attributes
        .iter()
        .flat_map(|attribute| attribute.expr.variables())
        .map(|traversal| traversal.root_name().to_string())
        .collect();
    assert!(roots.is_empty(), "{roots:?}");
}

/// What the body needs before expansion: attribute references the schema
/// asks for, `for_each` and `labels`, inside `content` as far as the schema
/// tree goes, never the iterators themselves.
#[test]
fn variables_before_expansion() {
    let file = load("variables.hcl");
    let b = tree(&["val"], Vec::new());
    let a = tree(&["val", "b[]"], vec![("b", b)]);
    let schema = tree(&["top", "a[key,name]", "c[]"], vec![("a", a), ("c", tree(&["val"], Vec::new()))]);
    let lines = |traversals: Vec<decode::Traversal>| -> String {
        traversals.iter().map(|traversal| format!("{}\n", support::traversal(traversal))).collect()
    };
    let mut out = String::new();
    out.push_str("# variables\n");
    out.push_str(&lines(dynblock::variables(&file.body(), &schema)));
    out.push_str("# reference_variables\n");
    out.push_str(&lines(dynblock::reference_variables(&file.body(), &schema)));
    out.push_str("# expand_variables: for_each and labels only\n");
    out.push_str(&lines(dynblock::expand_variables(&file.body(), &schema)));
    out.push_str("# a lone schema: the top level only\n");
    out.push_str(&lines(dynblock::variables(&file.body(), &support::schema(&["top", "a[key,name]"]))));
    expect_file!["../../../test-data/decode/dynblock/variables.txt"].assert_eq(&out);
}

/// `dynamic` blocks in the JSON syntax: for_each and labels as templates, a
/// `dynamic` property holding several blocks of one type.
#[test]
fn expand_json_bodies() {
    let path = support::test_data("dynblock").join("json.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let file = SourceFile::json("json.json", text);
    let mut out = String::new();
    support::diagnostics(&mut out, &file.syntax_diagnostics());
    let ctx = context();
    let body = dynblock::expand(file.body(), &ctx);
    let schema = tree(&["item[kind]"], vec![("item", tree(&["key", "value"], Vec::new()))]);
    render(&mut out, &body, &schema, &ctx, 0);
    assert!(out.contains("item \"i0\""), "{out}");
    expect_file!["../../../test-data/decode/dynblock/json.txt"].assert_eq(&out);
}
