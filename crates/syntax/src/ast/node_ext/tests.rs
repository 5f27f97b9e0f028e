//! The hand-written accessors, on trees from the real parser and on trees
//! made by hand in the shapes error recovery can leave.

use rowan::{GreenNode, GreenToken, NodeOrToken};

use crate::{
    SyntaxKind, SyntaxNode, SyntaxToken, T, TextRange,
    ast::{self, AstNode, BinaryOp, BodyItem, LiteralKind, UnaryOp},
};

fn source_file(text: &str) -> ast::SourceFile {
    let parse = crate::parse(text);
    assert!(parse.errors().is_empty(), "{text:?} should parse without errors: {:?}", parse.errors());
    parse.tree()
}

fn body(text: &str) -> ast::Body {
    source_file(text).body().expect("a source file has a body")
}

/// The value of the one attribute in `x = EXPR`.
fn expr(text: &str) -> ast::Expr {
    let source = format!("x = {text}\n");
    let attribute = body(&source).attributes().next().expect("one attribute");
    attribute.value().expect("the attribute has a value")
}

fn cast<N: AstNode>(expr: ast::Expr) -> N {
    let text = expr.to_string();
    N::cast(expr.syntax().clone()).unwrap_or_else(|| panic!("{text:?} is a {:?}", expr.syntax().kind()))
}

fn text<N: AstNode>(node: Option<N>) -> Option<String> {
    node.map(|it| it.syntax().text().to_string())
}

fn token_text(token: Option<SyntaxToken>) -> Option<String> {
    token.map(|it| it.text().to_owned())
}

fn some(text: &str) -> Option<String> {
    Some(text.to_owned())
}

#[test]
fn attribute_and_block() {
    let body = body("a = 1\nresource \"t\" n {\n  b = true\n}\n");
    let items: Vec<BodyItem> = body.items().collect();
    assert!(matches!(items.as_slice(), [BodyItem::Attribute(_), BodyItem::Block(_)]), "{items:?}");

    let attribute = body.attributes().next().expect("an attribute");
    assert_eq!(token_text(attribute.name()), some("a"));
    assert_eq!(text(attribute.value()), some("1"));

    let block = body.blocks().next().expect("a block");
    assert_eq!(token_text(block.type_name()), some("resource"));
    let labels: Vec<ast::BlockLabel> = block.labels().collect();
    assert_eq!(labels.len(), 2);
    assert_eq!(text(labels[0].quoted()), some("\"t\""));
    assert_eq!(labels[0].ident(), None);
    assert_eq!(token_text(labels[1].ident()), some("n"));
    assert_eq!(labels[1].quoted(), None);
    let inner = block.body().expect("a block body").attributes().next().expect("an inner attribute");
    assert_eq!(token_text(inner.name()), some("b"));
}

#[test]
fn literal_kinds() {
    for (source, kind) in [
        ("42", LiteralKind::Number),
        ("1.5e3", LiteralKind::Number),
        ("true", LiteralKind::True),
        ("false", LiteralKind::False),
        ("null", LiteralKind::Null),
    ] {
        let literal: ast::Literal = cast(expr(source));
        assert_eq!(literal.kind(), Some(kind), "{source}");
        assert_eq!(token_text(literal.token()), some(source));
    }
    assert!(matches!(expr("truth"), ast::Expr::Variable(_)));
}

#[test]
fn binary_and_unary_operators() {
    let binary: ast::BinaryExpr = cast(expr("a + b * c"));
    assert_eq!(binary.op_kind(), Some(BinaryOp::Add));
    assert_eq!(token_text(binary.op_token()), some("+"));
    assert_eq!(text(binary.lhs()), some("a"));
    assert_eq!(text(binary.rhs()), some("b * c"));
    let rhs: ast::BinaryExpr = cast(binary.rhs().expect("a right operand"));
    assert_eq!(rhs.op_kind(), Some(BinaryOp::Mul));

    let binary: ast::BinaryExpr = cast(expr("a - -b"));
    assert_eq!(binary.op_kind(), Some(BinaryOp::Sub));
    let unary: ast::UnaryExpr = cast(binary.rhs().expect("a right operand"));
    assert_eq!(unary.op_kind(), Some(UnaryOp::Neg));
    assert_eq!(text(unary.operand()), some("b"));

    let unary: ast::UnaryExpr = cast(expr("!ok"));
    assert_eq!(unary.op_kind(), Some(UnaryOp::Not));
}

#[test]
fn conditional() {
    let conditional: ast::ConditionalExpr = cast(expr("a ? b : c"));
    assert_eq!(text(conditional.condition()), some("a"));
    assert_eq!(text(conditional.true_expr()), some("b"));
    assert_eq!(text(conditional.false_expr()), some("c"));
}

/// A tree made by hand, to test how the accessors read shapes that error
/// recovery may produce, whatever the parser does with them today.
enum Tree {
    Node(SyntaxKind, Vec<Tree>),
    Token(SyntaxKind, &'static str),
}

fn build(tree: Tree) -> SyntaxNode {
    fn green(tree: Tree) -> NodeOrToken<GreenNode, GreenToken> {
        match tree {
            Tree::Node(kind, children) => {
                NodeOrToken::Node(GreenNode::new(kind.into(), children.into_iter().map(green)))
            }
            Tree::Token(kind, text) => NodeOrToken::Token(GreenToken::new(kind.into(), text)),
        }
    }
    match green(tree) {
        NodeOrToken::Node(node) => SyntaxNode::new_root(node),
        NodeOrToken::Token(_) => panic!("the root of a tree is a node"),
    }
}

fn variable(name: &'static str) -> Tree {
    Tree::Node(SyntaxKind::VARIABLE, vec![Tree::Token(SyntaxKind::IDENT, name)])
}

#[test]
fn a_missing_child_does_not_shift_the_others() {
    use Tree::Token;
    // `a ? : c`: the true branch is missing; `c` is still the false branch.
    let tree = build(Tree::Node(
        SyntaxKind::CONDITIONAL_EXPR,
        vec![
            variable("a"),
            Token(SyntaxKind::WHITESPACE, " "),
            Token(T![?], "?"),
            Token(SyntaxKind::WHITESPACE, " "),
            Token(T![:], ":"),
            Token(SyntaxKind::WHITESPACE, " "),
            variable("c"),
        ],
    ));
    let conditional = ast::ConditionalExpr::cast(tree).expect("a conditional");
    assert_eq!(text(conditional.condition()), some("a"));
    assert_eq!(text(conditional.true_expr()), None);
    assert_eq!(text(conditional.false_expr()), some("c"));

    // `base[]`: no index, and the base is not mistaken for one.
    let tree = build(Tree::Node(
        SyntaxKind::INDEX_EXPR,
        vec![variable("base"), Token(T!['['], "["), Token(T![']'], "]")],
    ));
    let index = ast::IndexExpr::cast(tree).expect("an index expression");
    assert_eq!(text(index.base()), some("base"));
    assert_eq!(text(index.index()), None);

    // `+ b`: an operator without a left operand.
    let tree = build(Tree::Node(SyntaxKind::BINARY_EXPR, vec![Token(T![+], "+"), variable("b")]));
    let binary = ast::BinaryExpr::cast(tree).expect("a binary expression");
    assert_eq!(text(binary.lhs()), None);
    assert_eq!(text(binary.rhs()), some("b"));
    assert_eq!(binary.op_kind(), Some(BinaryOp::Add));
}

#[test]
fn strip_markers_on_broken_delimiters() {
    use Tree::Token;
    // `${~}`: one marker, which is the left one.
    let tree = build(Tree::Node(
        SyntaxKind::TEMPLATE_INTERPOLATION,
        vec![Token(T!["${"], "${"), Token(T![~], "~"), Token(T!['}'], "}")],
    ));
    let interpolation = ast::TemplateInterpolation::cast(tree).expect("an interpolation");
    assert!(interpolation.strip_left());
    assert!(!interpolation.strip_right());

    // `${ a ~` without the closing brace: the marker is still the right one.
    let tree = build(Tree::Node(
        SyntaxKind::TEMPLATE_INTERPOLATION,
        vec![
            Token(T!["${"], "${"),
            Token(SyntaxKind::WHITESPACE, " "),
            variable("a"),
            Token(SyntaxKind::WHITESPACE, " "),
            Token(T![~], "~"),
        ],
    ));
    let interpolation = ast::TemplateInterpolation::cast(tree).expect("an interpolation");
    assert!(!interpolation.strip_left());
    assert!(interpolation.strip_right());
}

#[test]
fn for_names_are_read_by_position() {
    use Tree::Token;
    // `for in, for in xs :`: names that look like keywords are still names.
    let tree = build(Tree::Node(
        SyntaxKind::FOR_INTRO,
        vec![
            Token(SyntaxKind::IDENT, "for"),
            Token(SyntaxKind::WHITESPACE, " "),
            Token(SyntaxKind::IDENT, "in"),
            Token(T![,], ","),
            Token(SyntaxKind::WHITESPACE, " "),
            Token(SyntaxKind::IDENT, "for"),
            Token(SyntaxKind::WHITESPACE, " "),
            Token(SyntaxKind::IDENT, "in"),
            Token(SyntaxKind::WHITESPACE, " "),
            variable("xs"),
            Token(T![:], ":"),
        ],
    ));
    let intro = ast::ForIntro::cast(tree).expect("a for intro");
    assert_eq!(intro.key_name().map(|it| it.text_range()), Some(TextRange::new(4.into(), 6.into())));
    assert_eq!(intro.value_name().map(|it| it.text_range()), Some(TextRange::new(8.into(), 11.into())));
    assert_eq!(intro.in_token().map(|it| it.text_range()), Some(TextRange::new(12.into(), 14.into())));
    assert_eq!(text(intro.collection()), some("xs"));
}

#[test]
fn traversals() {
    let get_attr: ast::GetAttrExpr = cast(expr("var.name"));
    assert_eq!(text(get_attr.base()), some("var"));
    assert_eq!(token_text(get_attr.name()), some("name"));
    let variable: ast::Variable = cast(get_attr.base().expect("a base"));
    assert_eq!(token_text(variable.name()), some("var"));

    let index: ast::IndexExpr = cast(expr("list[i + 1]"));
    assert_eq!(text(index.base()), some("list"));
    assert_eq!(text(index.index()), some("i + 1"));

    let legacy: ast::LegacyIndexExpr = cast(expr("list.0"));
    assert_eq!(text(legacy.base()), some("list"));
    assert_eq!(token_text(legacy.index_token()), some("0"));

    let splat: ast::FullSplatExpr = cast(expr("list[*]"));
    assert_eq!(text(splat.base()), some("list"));
    let splat: ast::AttrSplatExpr = cast(expr("list.*"));
    assert_eq!(text(splat.base()), some("list"));
}

#[test]
fn function_calls() {
    let call: ast::FunctionCall = cast(expr("max(1, b, c...)"));
    assert_eq!(call.name().as_deref(), Some("max"));
    let args: Vec<String> = call.args().map(|it| it.to_string()).collect();
    assert_eq!(args, ["1", "b", "c"]);
    assert!(call.has_expansion());

    let call: ast::FunctionCall = cast(expr("f()"));
    assert_eq!(call.args().count(), 0);
    assert!(!call.has_expansion());

    // A namespaced name is one name; spaces around `::` are not part of it.
    let call: ast::FunctionCall = cast(expr("provider :: aws::arn_parse(x)"));
    assert_eq!(call.name().as_deref(), Some("provider::aws::arn_parse"));
    assert_eq!(call.name_range().map(|r| (u32::from(r.start()), u32::from(r.end()))), Some((4, 30)));
    assert_eq!(call.args().count(), 1);
}

#[test]
fn objects_and_tuples() {
    let object: ast::ObjectExpr = cast(expr("{\n  a = 1\n  \"b\": 2\n}"));
    let items: Vec<ast::ObjectItem> = object.object_items().collect();
    assert_eq!(items.len(), 2);
    let key = items[0].key().expect("a key");
    assert_eq!(token_text(key.bare_ident()), some("a"));
    assert_eq!(text(items[0].value()), some("1"));
    let key = items[1].key().expect("a key");
    assert_eq!(key.bare_ident(), None);
    assert_eq!(text(key.expr()), some("\"b\""));
    assert_eq!(text(items[1].value()), some("2"));

    let tuple: ast::TupleExpr = cast(expr("[1, 2, 3,]"));
    assert_eq!(tuple.exprs().count(), 3);
}

#[test]
fn for_expressions() {
    let for_tuple: ast::ForTupleExpr = cast(expr("[for v in list : upper(v) if v != \"\"]"));
    let intro = for_tuple.for_intro().expect("a for intro");
    assert_eq!(token_text(intro.for_token()), some("for"));
    assert_eq!(intro.key_name(), None);
    assert_eq!(token_text(intro.value_name()), some("v"));
    assert_eq!(token_text(intro.in_token()), some("in"));
    assert_eq!(text(intro.collection()), some("list"));
    assert_eq!(text(for_tuple.value_expr()), some("upper(v)"));
    let cond = for_tuple.for_cond().expect("a condition");
    assert_eq!(token_text(cond.if_token()), some("if"));
    assert_eq!(text(cond.condition()), some("v != \"\""));

    let for_object: ast::ForObjectExpr = cast(expr("{for k, v in map : v => k...}"));
    let intro = for_object.for_intro().expect("a for intro");
    assert_eq!(token_text(intro.key_name()), some("k"));
    assert_eq!(token_text(intro.value_name()), some("v"));
    assert_eq!(text(for_object.key_expr()), some("v"));
    assert_eq!(text(for_object.value_expr()), some("k"));
    assert!(for_object.grouping_token().is_some());
    assert_eq!(for_object.for_cond(), None);

    // No keywords: `in` can name the value.
    let for_tuple: ast::ForTupleExpr = cast(expr("[for in in list : in]"));
    let intro = for_tuple.for_intro().expect("a for intro");
    assert_eq!(token_text(intro.value_name()), some("in"));
    assert_eq!(text(intro.collection()), some("list"));
}

fn template_parts(text: &str) -> Vec<ast::TemplatePart> {
    let quoted: ast::QuotedTemplate = cast(expr(text));
    assert!(quoted.closing_quote_token().is_some());
    quoted.template_parts().collect()
}

#[test]
fn interpolations_and_strip_markers() {
    let parts = template_parts("\"a ${~ b } c ${d~}\"");
    let interpolations: Vec<ast::TemplateInterpolation> = parts
        .iter()
        .filter_map(|part| match part {
            ast::TemplatePart::TemplateInterpolation(it) => Some(it.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(interpolations.len(), 2);
    assert!(interpolations[0].strip_left());
    assert!(!interpolations[0].strip_right());
    assert_eq!(text(interpolations[0].expr()), some("b"));
    assert!(!interpolations[1].strip_left());
    assert!(interpolations[1].strip_right());

    let literal = parts
        .iter()
        .find_map(|part| match part {
            ast::TemplatePart::TemplateLiteral(it) => Some(it.clone()),
            _ => None,
        })
        .expect("a literal part");
    let texts: Vec<String> = literal.text_tokens().map(|it| it.text().to_owned()).collect();
    assert_eq!(texts, ["a "]);
}

#[test]
fn template_directives() {
    let parts = template_parts("\"%{ if a ~}yes%{~ else }no%{ endif }\"");
    let [ast::TemplatePart::TemplateIf(template_if)] = parts.as_slice() else {
        panic!("one if directive: {parts:?}");
    };
    let if_directive = template_if.if_directive().expect("an if directive");
    assert_eq!(token_text(if_directive.keyword_token()), some("if"));
    assert_eq!(text(if_directive.condition()), some("a"));
    assert!(!if_directive.strip_left());
    assert!(if_directive.strip_right());
    let else_directive = template_if.else_directive().expect("an else directive");
    assert!(else_directive.strip_left());
    assert!(!else_directive.strip_right());
    assert_eq!(text(template_if.then_template()), some("yes"));
    assert_eq!(text(template_if.else_template()), some("no"));

    let parts = template_parts("\"%{ if a }yes%{ endif }\"");
    let [ast::TemplatePart::TemplateIf(template_if)] = parts.as_slice() else {
        panic!("one if directive: {parts:?}");
    };
    assert_eq!(text(template_if.then_template()), some("yes"));
    assert_eq!(template_if.else_template(), None);

    let parts = template_parts("\"%{ for k, v in m }${k}%{ endfor }\"");
    let [ast::TemplatePart::TemplateFor(template_for)] = parts.as_slice() else {
        panic!("one for directive: {parts:?}");
    };
    let for_directive = template_for.for_directive().expect("a for directive");
    assert_eq!(token_text(for_directive.key_name()), some("k"));
    assert_eq!(token_text(for_directive.value_name()), some("v"));
    assert_eq!(text(for_directive.collection()), some("m"));
    assert_eq!(text(template_for.template()), some("${k}"));
}

#[test]
fn nodes_display_as_their_source_text() {
    let source = "a = [1,  2] # trailing\n";
    assert_eq!(source_file(source).to_string(), source);
    assert_eq!(expr("f( 1 )").to_string(), "f( 1 )");
}
