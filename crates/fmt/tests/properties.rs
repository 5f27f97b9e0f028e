//! Properties of the formatter on any input.
//!
//! - On any tree, broken or not, it neither panics nor touches anything but
//!   the spaces and tabs between tokens: with those removed, input and output
//!   are the same text, line breaks included.
//! - The reference decides every gap between tokens afresh, so on a valid
//!   file the output cannot depend on how wide the gaps were: widening or
//!   narrowing them (to tabs, to several spaces) gives the same output, and
//!   that output is a fixed point.
//! - Formatting keeps a valid file's meaning: generated expressions written
//!   with a space between every two tokens format to a file that parses
//!   without errors, lowers to the same HIR, and formats to itself.
//! - Terraform's style changes tokens on purpose, so its property is the
//!   meaning Terraform gives the file: generated Terraform files (values of
//!   one interpolation, spread over lines or not; type constraints; labels
//!   bare, quoted, escaped, decomposed, with comments between them) format
//!   to a file that parses without errors, is laid out as hclwrite lays it
//!   out, and lowers to the same HIR once both sides are normalised as
//!   evaluation does not tell apart: a quoted template of one
//!   interpolation is its expression (HCL evaluates it to the expression's
//!   value, unconverted), parentheses are not kept (the HIR has none), a
//!   label is NFC (go-cty's strings are), and a top-level variable's type
//!   is the type Terraform reads (`list` is `list(any)`; Terraform 0.11's
//!   `"string"`, `"list"` and `"map"` are `string`, `list(string)` and
//!   `map(string)`, as `terraform 0.12upgrade` read them).

use fmt::Style;
use hir::{Expr, ExprId, FileHir, TemplateKind, TemplatePart};
use proptest::prelude::*;
use syntax::SyntaxKind;
use unicode_normalization::UnicodeNormalization;

fn format_any(text: &str) -> String {
    fmt::format_tree(&syntax::parse(text).syntax_node())
}

fn without_blanks(text: &str) -> String {
    text.chars().filter(|&c| c != ' ' && c != '\t').collect()
}

/// Pieces that switch the lexer's modes and the formatter's rules (brackets,
/// templates, heredocs, comments, operators, line breaks), so that their
/// concatenations reach unbalanced and odd states.
const FRAGMENTS: &[&str] = &[
    "{", "}", "[", "]", "(", ")", "\"", "${", "%{", "~}", "${~", "<<EOF\n", "<<-EOF\n", "EOF\n", "  EOF\n",
    "\n", "\r\n", " ", "  ", "\t", "# c\n", "// c\n", "/* c */", "/*", "*/", "foo", "a", "in", "for", "if",
    "endif", "0", "1.5", "=", "==", "!=", "<=", "<", "&&", "!", "+", "-", "*", "/", "%", "?", ":", ",", ".",
    "...", "=>", "[*]", ".*", "é", "👍🏽",
];

fn fragments() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..64).prop_map(|parts| parts.concat())
}

/// Valid files whose gaps the tests vary.
const VALID: &[&str] = &[
    "resource \"a\" \"b\" {\n  x = 1 # c\n  yy = [1, 2]\n  z = {\n    k = -1\n  }\n}\n",
    "a = \"${ var.x }\"\nbb = <<EOT\n  keep ${ y }\nEOT\nc = {for k, v in m : k => v if v != null}\n",
    "locals {\n  a = 1 /* b */\n  f = func(1,\n    2)\n  g = x ? -1 : y - 1\n}\n",
    "block {\r\n  inner { x = 1 }\r\n  s = a[0].b[*].c\r\n}\r\n",
];

/// Rewrites every whitespace token of `text` to the width and characters
/// `widths` picks (cycling), leaving the whitespace after the last token
/// alone: the reference keeps that run's length.
fn regap(text: &str, widths: &[u8]) -> String {
    let root = syntax::parse(text).syntax_node();
    let tokens: Vec<_> = root.descendants_with_tokens().filter_map(|e| e.into_token()).collect();
    let last_real = tokens.iter().rposition(|t| t.kind() != SyntaxKind::WHITESPACE);
    let mut out = String::with_capacity(text.len() * 2);
    for (i, token) in tokens.iter().enumerate() {
        if token.kind() == SyntaxKind::WHITESPACE && last_real.is_some_and(|last| i < last) {
            let pick = widths.get(i % widths.len().max(1)).copied().unwrap_or(1);
            for n in 0..=(pick % 4) {
                out.push(if (pick >> 2) % 2 == 1 && n == 0 { '\t' } else { ' ' });
            }
        } else {
            out.push_str(token.text());
        }
    }
    out
}

/// An expression as tokens, a space between every two, built from the
/// constructs whose gaps the formatter closes: traversals with legacy
/// numeric indexes, calls, indexes, splats, unary and binary operators,
/// conditionals, collections, `for` and templates.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        prop::sample::select(vec!["a", "local.l", "var.x", "true", "null", "0", "1", "10", "1.5", "2e3"])
            .prop_map(str::to_owned),
        prop::sample::select(vec!["\"s\"", "\"${ a }\"", "\"x%{ if a }y%{ endif }\""])
            .prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![". b", ". 0", ". 12", "[ 0 ]", ". *", "[ * ]", "[ * ] . c"])
            )
                .prop_map(|(e, step)| format!("( {e} ) {step}")),
            prop::sample::select(vec!["a . 1 . 0", "a . 1 . 2 . c", "a [ 0 ] . 1", "a . * . 0"])
                .prop_map(str::to_owned),
            (prop::sample::select(vec!["-", "!"]), inner.clone()).prop_map(|(op, e)| format!("{op} {e}")),
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*", "/", "%", "==", "<=", "&&", "||"]),
                inner.clone()
            )
                .prop_map(|(l, op, r)| format!("{l} {op} {r}")),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, t, f)| format!("{c} ? {t} : {f}")),
            prop::collection::vec(inner.clone(), 0..3).prop_map(|items| format!("[ {} ]", items.join(" , "))),
            (inner.clone(), inner.clone()).prop_map(|(k, v)| format!("{{ k = {k} , ( v ) = {v} }}")),
            (inner.clone(), inner.clone()).prop_map(|(args, last)| format!("f ( {args} , {last} ... )")),
            (inner.clone(), inner.clone()).prop_map(|(c, v)| format!("[ for i , x in {c} : {v} if x ]")),
            (inner.clone(), inner).prop_map(|(c, v)| format!("{{ for x in {c} : x => {v} ... }}")),
        ]
    })
}

/// A Terraform file whose values, type constraints and labels take the
/// shapes Terraform's rewrites look at, and shapes they must leave alone.
fn terraform_file() -> impl Strategy<Value = String> {
    let value = || {
        (expression(), 0..7usize).prop_map(|(e, wrap)| match wrap {
            0 => format!("\"${{ {e} }}\""),
            1 => format!("\"${{\n{e}\n}}\""),
            2 => format!("\"${{~ {e} ~}}\""),
            3 => format!("\"${{ {e} # c\n}}\""),
            4 => format!("\"${{ {e} ?\n1 : 2 }}\""),
            5 => format!("\"${{ ( {e} ) +\n( 1 ) }}\""),
            _ => e,
        })
    };
    let type_constraint = prop::sample::select(vec![
        "\"string\"",
        "\"list\"",
        "\"map\"",
        "\"set\"",
        "\"number\"",
        "list",
        "map",
        "set",
        "string",
        "list(string)",
        "\"${string}\"",
    ]);
    let label = prop::sample::select(vec![
        "a",
        "\"a\"",
        "\"\\u0041\"",
        "\"e\\u0301\"",
        "\"a$b\"",
        "\"100%\"",
        "\"\\t\"",
        "\"\\u00a0\"",
        "\"\\U0001F600\"",
        "\"\"",
        "/* c */ \"b\"",
    ]);
    let labels = prop::collection::vec(label, 0..3).prop_map(|labels| labels.join(" "));
    (value(), type_constraint, value(), labels.clone(), value(), labels, value()).prop_map(
        |(top, ty, default, outer, inner, nested, deep)| {
            format!(
                "top = {top}\nvariable \"x\" {{\n  type = {ty}\n  default = {default}\n}}\n\
                 resource {outer} {{\n  inner = {inner}\n  nested {nested} {{ x = {deep} }}\n}}\n"
            )
        },
    )
}

/// What a file means to Terraform, as text: its HIR with the differences
/// evaluation does not see normalised away (see the module's comment).
fn terraform_meaning(hir: &FileHir) -> String {
    let ids: Vec<ExprId> = hir.exprs.iter().map(|(id, _)| id).collect();
    let mut out = String::new();
    let mut bodies = vec![(&hir.body, 0usize, false)];
    while let Some((body, depth, in_variable)) = bodies.pop() {
        for &attribute in &body.attributes {
            let attribute = &hir.attributes[attribute];
            let value = if in_variable && attribute.name == "type" {
                type_meaning(hir, &ids, attribute.value)
            } else {
                expr_meaning(hir, &ids, attribute.value)
            };
            out.push_str(&format!("{depth} {} = {value}\n", attribute.name));
        }
        for &block in body.blocks.iter().rev() {
            let block = &hir.blocks[block];
            let labels: Vec<String> = block.labels.iter().map(|label| label.nfc().collect()).collect();
            out.push_str(&format!("{depth} {} {labels:?}\n", block.type_name));
            bodies.push((&block.body, depth + 1, depth == 0 && block.type_name == "variable"));
        }
    }
    out
}

fn expr_meaning(hir: &FileHir, ids: &[ExprId], id: ExprId) -> String {
    if let Expr::Template { kind: TemplateKind::Quoted, parts } = &hir[id]
        && let [TemplatePart::Interpolation { expr, .. }] = parts.as_slice()
    {
        return expr_meaning(hir, ids, *expr);
    }
    // The expression's own fields, each child written out in its place.
    let debug = format!("{:?}", hir[id]);
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug.as_str();
    while let Some(at) = rest.find("Idx::<Expr>(") {
        out.push_str(&rest[..at]);
        rest = &rest[at + "Idx::<Expr>(".len()..];
        let end = rest.find(')').expect("an index's closing parenthesis");
        let raw: usize = rest[..end].parse().expect("an index's number");
        out.push_str(&expr_meaning(hir, ids, ids[raw]));
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A type constraint as the type Terraform reads from it.
fn type_meaning(hir: &FileHir, ids: &[ExprId], id: ExprId) -> String {
    match &hir[id] {
        Expr::Variable(name) if matches!(name.as_str(), "list" | "map" | "set") => format!("{name}(any)"),
        Expr::Variable(name) => name.to_string(),
        Expr::Template { kind: TemplateKind::Quoted, parts } => match parts.as_slice() {
            [TemplatePart::Literal(text)] if text == "string" => "string".to_owned(),
            [TemplatePart::Literal(text)] if text == "list" || text == "map" => format!("{text}(string)"),
            _ => expr_meaning(hir, ids, id),
        },
        Expr::Call(call) if !call.expand_final => {
            let args: Vec<String> = call.args.iter().map(|&arg| type_meaning(hir, ids, arg)).collect();
            format!("{}({})", call.name, args.join(", "))
        }
        _ => expr_meaning(hir, ids, id),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn terraform_style_keeps_terraform_meaning(text in terraform_file()) {
        let parse = syntax::parse(&text);
        prop_assume!(parse.errors().is_empty());
        let formatted = fmt::format_text_in(&text, Style::Terraform).expect("the input is valid");
        let reparsed = syntax::parse(&formatted);
        prop_assert!(reparsed.errors().is_empty(), "{:?} formats to {:?}, which has errors {:?}", text, formatted, reparsed.errors());
        prop_assert_eq!(
            terraform_meaning(&hir::lower_file(&parse).0),
            terraform_meaning(&hir::lower_file(&reparsed).0),
            "{:?} formats to {:?}", text, formatted
        );
        prop_assert_eq!(fmt::format_text(&formatted).expect("the output is valid"), formatted);
    }

    #[test]
    fn arbitrary_strings_change_only_blanks(text in any::<String>()) {
        prop_assert_eq!(without_blanks(&format_any(&text)), without_blanks(&text));
    }

    #[test]
    fn hcl_fragments_change_only_blanks(text in fragments()) {
        prop_assert_eq!(without_blanks(&format_any(&text)), without_blanks(&text));
    }

    #[test]
    fn gap_widths_do_not_matter(case in 0..VALID.len(), widths in prop::collection::vec(any::<u8>(), 1..16)) {
        let original = VALID[case];
        let expected = fmt::format_text(original).expect("the case is valid");
        let regapped = regap(original, &widths);
        let actual = fmt::format_text(&regapped).expect("changing gaps keeps the file valid");
        prop_assert_eq!(&actual, &expected);
        prop_assert_eq!(fmt::format_text(&actual).expect("the output is valid"), actual);
    }

    #[test]
    fn formatting_keeps_meaning(expr in expression()) {
        let text = format!("attr = {expr}\n");
        let parse = syntax::parse(&text);
        prop_assume!(parse.errors().is_empty());
        let formatted = fmt::format_text(&text).expect("the input is valid");
        let reparsed = syntax::parse(&formatted);
        prop_assert!(reparsed.errors().is_empty(), "{:?} formats to {:?}, which has errors {:?}", text, formatted, reparsed.errors());
        prop_assert_eq!(hir::lower_file(&parse).0, hir::lower_file(&reparsed).0, "{:?} formats to {:?}", text, formatted);
        prop_assert_eq!(fmt::format_text(&formatted).expect("the output is valid"), formatted);
    }
}

/// The reference closes the gap in `local.l.1 .0`, which makes the number
/// `1.0` of the legacy indexes `1` and `0`: an error. The space stays.
#[test]
fn a_gap_that_separates_two_numbers_stays() {
    assert_eq!(fmt::format_text("a = local.l.1 .0\n").unwrap(), "a = local.l.1 .0\n");
    assert_eq!(fmt::format_text("a = local.l.1  .0.x\n").unwrap(), "a = local.l.1 .0.x\n");
    // Where no number can form, the gap closes as the reference closes it.
    assert_eq!(fmt::format_text("a = local.l.1 .x\n").unwrap(), "a = local.l.1.x\n");
}

/// Where unwrapping a value of one interpolation gives text that does not
/// parse, `terraform fmt` writes it anyway (`a = (x)\n+ (y)`, whose line
/// break ends the attribute; `b = # c\nx`, whose value is missing). Halite
/// puts such a value in parentheses, which keeps the file valid.
#[test]
fn terraform_unwrapping_never_breaks_a_file() {
    let terraform = |text: &str| fmt::format_text_in(text, Style::Terraform).unwrap();
    assert_eq!(terraform("a = \"${(x)\n+ (y)}\"\n"), "a = ((x)\n+ (y))\n");
    assert_eq!(terraform("b = \"${# c\nx}\"\n"), "b = ( # c\nx)\n");
    // One pair of parentheses around the whole value is enough, as
    // `terraform fmt` judges too.
    assert_eq!(terraform("c = \"${(x\n+ y)}\"\n"), "c = (x\n+ y)\n");
    assert_eq!(terraform("d = \"${x\n+ y}\"\n"), "d = (x\n+ y)\n");
}

/// `terraform fmt` drops a quoted block label with a `$` or `%` in it (its
/// scanner cuts the label's text into several tokens there, and
/// `hclwrite`'s label reader then skips the label), which changes what the
/// block is. Halite keeps the label.
#[test]
fn terraform_labels_with_dollar_or_percent_are_kept() {
    let terraform = |text: &str| fmt::format_text_in(text, Style::Terraform).unwrap();
    assert_eq!(terraform("data a \"a$b\" {}\n"), "data \"a\" \"a$b\" {}\n");
    assert_eq!(terraform("data \"a\" \"$${x} %%{y} 100%\" {}\n"), "data \"a\" \"$${x} %%{y} 100%\" {}\n");
    assert_eq!(terraform("data \"a\" \"\\u0024{x}\" {}\n"), "data \"a\" \"$${x}\" {}\n");
}
