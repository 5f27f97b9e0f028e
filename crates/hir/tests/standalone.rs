//! Lowering the standalone entry points: a text read as one expression, and
//! a text read as a bare template.

use expect_test::{Expect, expect};
use hir::Expr;

fn check_expression(text: &str, expected: Expect) {
    let parse = syntax::parse_expression(text);
    let (hir, root, map) = hir::lower_expression_file(&parse.tree());
    let node = map.expr_syntax(root).expect("the root has a node").to_node(&parse.syntax_node());
    expected.assert_eq(&format!("{} @ {:?}", hir.debug_dump_expr(root), node.text_range()));
}

fn check_template(text: &str, expected: Expect) {
    let parse = syntax::parse_template(text);
    let (hir, root, _) = hir::lower_template_file(&parse.tree());
    expected.assert_eq(&hir.debug_dump_expr(root));
}

#[test]
fn expressions() {
    check_expression("a.b[0]", expect![[r#"a.b[0] @ 0..6"#]]);
    check_expression("\n  upper(x)\n", expect![[r#"upper(x) @ 3..11"#]]);
    check_expression("", expect![[r#"<missing> @ 0..0"#]]);
}

#[test]
fn bare_templates() {
    check_template("hello ${name}!", expect![[r#"bare["hello ", ${name}, "!"]"#]]);
    check_template(r#"a "quoted" \n $${x}"#, expect![[r#"bare["a \"quoted\" \\n ${x}"]"#]]);
    check_template("", expect![[r#"bare[]"#]]);
}

#[test]
fn json_files_lower_in_just_attributes_mode() {
    let text = r#"{
  "//": "a comment property, not an attribute",
  "name": "web-${var.env}",
  "ports": [80, 443.0, 1e3],
  "tags": {"team": "core", "${var.key}": true, "none": null},
  "broken": tru
}"#;
    let parse = syntax::parse_json(text);
    let (hir, map) = hir::lower_json_file(&parse.tree());
    expect![[r#"
        name = bare["web-", ${var.env}]
        ports = [80, 443, 1e3]
        tags = {team = bare["core"], [(bare[${var.key}])] = true, none = null}
        broken = <missing>
    "#]]
    .assert_eq(&hir.debug_dump());
    // Everything lowered from a string's template maps to the string.
    let root = parse.syntax_node();
    let name = hir.body.attributes[0];
    let Expr::Template { parts, .. } = &hir[hir[name].value] else { panic!("a template") };
    let hir::TemplatePart::Interpolation { expr, .. } = &parts[1] else { panic!("an interpolation") };
    let node = map.expr_syntax(*expr).expect("mapped").to_node(&root);
    assert_eq!(node.text(), r#""web-${var.env}""#);
}

#[test]
fn a_json_value_lowers_on_its_own() {
    let parse = syntax::parse_json(r#"[1, "x", {"a": false}]"#);
    let value = parse.tree().value().expect("a value");
    let (hir, root, _) = hir::lower_json_value(&value);
    expect![[r#"[1, bare["x"], {a = false}]"#]].assert_eq(&hir.debug_dump_expr(root));
}
