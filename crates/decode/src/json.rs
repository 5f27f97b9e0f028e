//! The JSON syntax's side of the information model (owned by the JSON
//! work; these are placeholders with the signatures the body and expression
//! dispatch call, answering as an empty body and a null expression until
//! the real interpretation lands).

use std::sync::Arc;

use smol_str::SmolStr;
use syntax::{AstNode, TextRange};
use value::{Type, Value};

use crate::{
    Attribute, Body, BodyContent, BodySchema, Diagnostics, Expression, Range, SourceFile, StaticCall,
    Traversal, body::BodyKind,
};

/// The top-level body of a JSON file: its root value.
pub(crate) fn file_body(file: &Arc<SourceFile>) -> Body {
    let root = file.syntax_root();
    let values = syntax::ast::JsonDocument::cast(root)
        .and_then(|document| document.syntax().first_child())
        .map(|value| vec![hir::SyntaxNodePtr::new(&value)])
        .unwrap_or_default();
    Body::from_kind(BodyKind::Json { file: file.clone(), values })
}

pub(crate) fn content(
    body: &Body,
    file: &Arc<SourceFile>,
    values: &[hir::SyntaxNodePtr],
    schema: &BodySchema,
) -> (BodyContent, Diagnostics) {
    let (content, _, diagnostics) = partial_content(body, file, values, schema);
    (content, diagnostics)
}

pub(crate) fn partial_content(
    body: &Body,
    file: &Arc<SourceFile>,
    values: &[hir::SyntaxNodePtr],
    _schema: &BodySchema,
) -> (BodyContent, Body, Diagnostics) {
    let content =
        BodyContent { missing_item_range: missing_item_range(file, values), ..BodyContent::default() };
    (content, body.clone(), Diagnostics::new())
}

pub(crate) fn just_attributes(
    _body: &Body,
    _file: &Arc<SourceFile>,
    _values: &[hir::SyntaxNodePtr],
) -> (Vec<Attribute>, Diagnostics) {
    (Vec::new(), Diagnostics::new())
}

pub(crate) fn missing_item_range(file: &Arc<SourceFile>, values: &[hir::SyntaxNodePtr]) -> Range {
    let start = values.first().map_or_else(Default::default, |value| value.text_range().start());
    file.range(TextRange::empty(start))
}

pub(crate) fn value(
    _file: &Arc<SourceFile>,
    _value: hir::SyntaxNodePtr,
    _ctx: &eval::Context,
) -> (Value, Diagnostics) {
    (Value::null(Type::Dynamic), Diagnostics::new())
}

pub(crate) fn variables(_file: &Arc<SourceFile>, _value: hir::SyntaxNodePtr) -> Vec<Traversal> {
    Vec::new()
}

pub(crate) fn reference_variables(_file: &Arc<SourceFile>, _value: hir::SyntaxNodePtr) -> Vec<Traversal> {
    Vec::new()
}

pub(crate) fn range(file: &Arc<SourceFile>, value: hir::SyntaxNodePtr) -> Range {
    file.range(value.text_range())
}

pub(crate) fn start_range(file: &Arc<SourceFile>, value: hir::SyntaxNodePtr) -> Range {
    range(file, value)
}

pub(crate) fn as_list(_file: &Arc<SourceFile>, _value: hir::SyntaxNodePtr) -> Option<Vec<Expression>> {
    None
}

pub(crate) fn as_map(
    _file: &Arc<SourceFile>,
    _value: hir::SyntaxNodePtr,
) -> Option<Vec<(Expression, Expression)>> {
    None
}

pub(crate) fn as_call(_file: &Arc<SourceFile>, _value: hir::SyntaxNodePtr) -> Option<StaticCall> {
    None
}

pub(crate) fn as_traversal(
    file: &Arc<SourceFile>,
    value: hir::SyntaxNodePtr,
) -> Result<Traversal, Diagnostics> {
    Err(vec![crate::Diagnostic::error(
        "Invalid expression",
        "A single static variable reference is required: only attribute access and indexing with constant keys. \
         No calculations, function calls, template expressions, etc are allowed here.",
        Some(range(file, value)),
    )])
}

pub(crate) fn as_keyword(_file: &Arc<SourceFile>, _value: hir::SyntaxNodePtr) -> Option<SmolStr> {
    None
}
