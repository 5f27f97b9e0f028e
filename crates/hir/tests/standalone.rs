//! Lowering the standalone entry points: a text read as one expression, and
//! a text read as a bare template.

use expect_test::{Expect, expect};

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
