//! Lowering JSON syntax values to the HIR.
//!
//! The JSON syntax has no expressions of its own: with an evaluation context
//! its strings are templates (`spec/json-syntax.md`), object keys too, and
//! arrays, objects, numbers and keywords are the constructors and literals
//! of the native syntax. So a JSON value lowers to the same [`Expr`]s as
//! native text does, and evaluation, reference analysis and backdating need
//! nothing JSON-specific. What lowering cannot keep is a position inside a
//! string: a string is parsed as a template of its own text (escapes already
//! decoded, as the reference does), so every expression lowered from it maps
//! to the string's node.
//!
//! Which properties are attributes and which are blocks depends on a schema;
//! [`lower_json_file`] reads a file in the information model's "just
//! attributes" mode, and schema-driven readers (the module model, the
//! decoder) pick values out themselves and lower each with
//! [`lower_json_value`].

use smol_str::SmolStr;
use syntax::{
    AstNode, SyntaxNode,
    ast::{self, JsonKeywordKind},
};

use crate::{
    Attribute, Expr, ExprId, FileHir, Literal, Name, ObjectItem, ObjectKey, SourceMap, SyntaxNodePtr,
    escape::normalise_number, lower::Ctx,
};

/// Lowers a JSON file read in "just attributes" mode: every property of the
/// root object is an attribute, in source order, except the `"//"` comment
/// property. A root that is not an object has no attributes (the parser or
/// the caller reports that).
pub fn lower_json_file(file: &ast::JsonDocument) -> (FileHir, SourceMap) {
    let mut ctx = Ctx::default();
    if let Some(ast::JsonValue::JsonObject(object)) = file.value() {
        for member in object.members() {
            let name = member.name().and_then(|name| name.value()).unwrap_or_default();
            if name == "//" {
                continue;
            }
            let value = json_value_opt(&mut ctx, member.value(), member.syntax());
            let id = ctx.hir.attributes.alloc(Attribute { name: SmolStr::from(name), value });
            ctx.map.attributes.insert(id, SyntaxNodePtr::new(member.syntax()));
            ctx.hir.body.attributes.push(id);
        }
    }
    (ctx.hir, ctx.map)
}

/// Lowers one JSON value as an expression: a HIR with an empty body whose
/// arena holds it, and its root (the shape of
/// [`lower_expression_file`](crate::lower_expression_file)).
pub fn lower_json_value(value: &ast::JsonValue) -> (FileHir, ExprId, SourceMap) {
    let mut ctx = Ctx::default();
    let root = json_value(&mut ctx, value);
    (ctx.hir, root, ctx.map)
}

fn json_value_opt(ctx: &mut Ctx, value: Option<ast::JsonValue>, parent: &SyntaxNode) -> ExprId {
    match value {
        Some(value) => json_value(ctx, &value),
        None => ctx.alloc_detached(Expr::Missing, parent),
    }
}

fn json_value(ctx: &mut Ctx, value: &ast::JsonValue) -> ExprId {
    let node = value.syntax();
    let expr = match value {
        ast::JsonValue::JsonObject(object) => {
            let items = object
                .members()
                .map(|member| {
                    let key = match member.name().and_then(|name| name.value()) {
                        // A key is a template like any string, but one with
                        // no template sequence is its own text, and lowering
                        // it as a name keeps the HIR small.
                        Some(name) if !name.contains("${") && !name.contains("%{") => {
                            ObjectKey::Name(SmolStr::from(name))
                        }
                        Some(name) => ObjectKey::Expr {
                            expr: template(ctx, &name, member.syntax()),
                            parenthesised: true,
                        },
                        None => ObjectKey::Expr {
                            expr: ctx.alloc_detached(Expr::Missing, member.syntax()),
                            parenthesised: true,
                        },
                    };
                    let value = json_value_opt(ctx, member.value(), member.syntax());
                    ObjectItem { key, value }
                })
                .collect();
            Expr::Object(items)
        }
        ast::JsonValue::JsonArray(array) => {
            Expr::Tuple(array.values().map(|value| json_value(ctx, &value)).collect())
        }
        ast::JsonValue::JsonString(string) => match string.value() {
            Some(text) => return template(ctx, &text, node),
            None => Expr::Missing,
        },
        ast::JsonValue::JsonNumber(number) if number.is_valid() => {
            Expr::Literal(Literal::Number(Name::new(&normalise_number(&number.text()))))
        }
        ast::JsonValue::JsonNumber(_) => Expr::Missing,
        ast::JsonValue::JsonKeyword(keyword) => match keyword.kind() {
            Some(JsonKeywordKind::True) => Expr::Literal(Literal::Bool(true)),
            Some(JsonKeywordKind::False) => Expr::Literal(Literal::Bool(false)),
            Some(JsonKeywordKind::Null) => Expr::Literal(Literal::Null),
            None => Expr::Missing,
        },
    };
    ctx.alloc(expr, node)
}

/// A string's text as a bare template, every expression of it mapped to
/// `node`, the string in the JSON tree: the template's own tree is a
/// different tree, which the source map cannot point into. A string that is
/// not a valid template is missing as a whole: the JSON parser saw nothing
/// wrong with it, and what its template's parser found is for the reader
/// that evaluates it to report, with positions (the `decode` crate does).
fn template(ctx: &mut Ctx, text: &str, node: &SyntaxNode) -> ExprId {
    let parse = syntax::parse_template(text);
    if !parse.ok() {
        return ctx.alloc_detached(Expr::Missing, node);
    }
    ctx.lower_detached_from(node, |ctx| ctx.template_file(&parse.tree()))
}
