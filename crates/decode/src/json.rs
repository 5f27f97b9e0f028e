//! The JSON syntax's side of the information model (`spec/json-syntax.md`):
//! bodies and expressions over a `syntax::parse_json` tree.
//!
//! In the JSON syntax a property is an attribute or a block only once a
//! schema says which, so a body is kept as its JSON value (an object, or an
//! array of objects; in a block, whatever value the block's property has)
//! and interpreted on every request, as the reference does. Blocks' labels
//! are levels of nested objects, and each level may also be an array of
//! objects.
//!
//! An expression is a JSON value. With an evaluation context, strings are
//! templates: the decoded string is parsed with the native template parser
//! and evaluated as a native expression whose ranges sit in the JSON file
//! where the reference puts them (one byte after the string's opening quote,
//! counting through the decoded text). Without one (the reference's nil
//! context), strings are literal. The static analyses read strings as native
//! expressions placed at the opening quote, as the reference does.
//!
//! A parsed string is a [`SourceFile`] of its own (a "fragment", see
//! [`crate::source::FileSyntax::Fragment`]), so its expressions are ordinary
//! native expressions for evaluation, variables and the static analyses.

use std::sync::Arc;

use smol_str::SmolStr;
use syntax::{AstNode, SyntaxNode, TextRange, TextSize, ast};
use value::{Number, Type, Value};

use crate::{
    Attribute, Block, Body, BodyContent, BodySchema, Diagnostic, Diagnostics, Expression, Pos, Range,
    SourceFile, StaticCall, Traversal,
    body::{BodyKind, name_suggestion},
    diagnostic::go_quote,
    expression::ExpressionKind,
    source::FileSyntax,
};

// ---------------------------------------------------------------------------
// Nodes and ranges

/// The JSON value a pointer stands for in its file's tree.
fn json_value(file: &SourceFile, ptr: hir::SyntaxNodePtr) -> Option<ast::JsonValue> {
    ptr.try_to_node(&file.syntax_root()).and_then(ast::JsonValue::cast)
}

fn ptr_of(value: &ast::JsonValue) -> hir::SyntaxNodePtr {
    hir::SyntaxNodePtr::new(value.syntax())
}

/// An expression over a JSON value of `file`.
fn expression(file: &Arc<SourceFile>, value: &ast::JsonValue) -> Expression {
    Expression { kind: ExpressionKind::Json { file: file.clone(), value: ptr_of(value) } }
}

/// The body whose content is `value`, or the empty object the reference puts
/// in place of a root that is not an object or array (`None`).
fn body_of(file: &Arc<SourceFile>, value: Option<&ast::JsonValue>) -> Body {
    Body::from_kind(BodyKind::Json { file: file.clone(), values: value.map(ptr_of).into_iter().collect() })
}

/// The value a body stands for: it holds one JSON value, or none for the
/// placeholder root.
fn body_value(file: &SourceFile, values: &[hir::SyntaxNodePtr]) -> Option<ast::JsonValue> {
    values.first().and_then(|&ptr| json_value(file, ptr))
}

fn node_range(file: &SourceFile, node: &SyntaxNode) -> Range {
    file.range(node.text_range())
}

// ---------------------------------------------------------------------------
// Files

/// The top-level body of a JSON file: its root object or array. Any other
/// root (or none, after a syntax error) reads as an empty object, as in the
/// reference, which reports it ([`root_diagnostics`]).
pub(crate) fn file_body(file: &Arc<SourceFile>) -> Body {
    let value = root_value(file).filter(is_object_or_array);
    body_of(file, value.as_ref())
}

fn root_value(file: &SourceFile) -> Option<ast::JsonValue> {
    ast::JsonDocument::cast(file.syntax_root()).and_then(|document| document.value())
}

fn is_object_or_array(value: &ast::JsonValue) -> bool {
    matches!(value, ast::JsonValue::JsonObject(_) | ast::JsonValue::JsonArray(_))
}

/// The reference's check of a JSON file's root, which it makes as it parses:
/// a configuration file's root must be an object or an array (of objects).
pub(crate) fn root_diagnostics(file: &SourceFile) -> Diagnostics {
    let subject = match root_value(file) {
        Some(value) if is_object_or_array(&value) => return Diagnostics::new(),
        Some(value) => value.start_range(),
        // No value at all: the reference's placeholder sits on the first
        // token that is not whitespace, or at the end of the text.
        None => file
            .syntax_root()
            .descendants_with_tokens()
            .filter_map(|element| element.into_token())
            .find(|token| !token.kind().is_trivia())
            .map_or_else(|| TextRange::empty(TextSize::of(&*file.text)), |token| token.text_range()),
    };
    vec![Diagnostic::error(
        "Root value must be object",
        "The root value in a JSON-based configuration must be either a JSON object or a JSON array of objects.",
        Some(file.range(subject)),
    )]
}

// ---------------------------------------------------------------------------
// Bodies

/// One property of an object a body is made of.
struct JsonProperty {
    name: String,
    name_range: TextRange,
    value: ast::JsonValue,
}

impl JsonProperty {
    /// The reference's attribute range: from the name to the value's end.
    fn range(&self, file: &SourceFile) -> Range {
        file.range(self.name_range.cover(self.value.syntax().text_range()))
    }
}

/// The properties of an object, in order, repeated names included. A member
/// without a valid name or value was a syntax error, reported by the parser,
/// and is left out.
fn object_properties(object: &ast::JsonObject) -> impl Iterator<Item = JsonProperty> + '_ {
    object.members().filter_map(|member| {
        let name = member.name()?;
        Some(JsonProperty {
            name: name.value()?,
            name_range: name.syntax().text_range(),
            value: member.value()?,
        })
    })
}

/// The reference's `collectDeepAttrs`: the properties of an object, or of
/// every object of an array; `label_name` says which block label is being
/// read, for the messages about values of the wrong type.
fn collect_deep_properties(
    file: &SourceFile,
    value: Option<&ast::JsonValue>,
    label_name: Option<&str>,
    diagnostics: &mut Diagnostics,
) -> Vec<JsonProperty> {
    let Some(value) = value else { return Vec::new() };
    match value {
        ast::JsonValue::JsonKeyword(keyword) if keyword.kind() == Some(ast::JsonKeywordKind::Null) => {
            Vec::new()
        }
        ast::JsonValue::JsonObject(object) => object_properties(object).collect(),
        ast::JsonValue::JsonArray(array) => {
            let mut properties = Vec::new();
            for element in array.values() {
                match &element {
                    ast::JsonValue::JsonObject(object) => properties.extend(object_properties(object)),
                    _ => {
                        let detail = match label_name {
                            Some(label) => {
                                format!(
                                    "A JSON object is required here, to specify {label} labels for this block."
                                )
                            }
                            None => "A JSON object is required here, to define arguments and child blocks."
                                .to_owned(),
                        };
                        diagnostics.push(Diagnostic::error(
                            "Incorrect JSON value type",
                            detail,
                            Some(file.range(element.start_range())),
                        ));
                    }
                }
            }
            properties
        }
        _ => {
            let detail = match label_name {
                Some(label) => format!(
                    "Either a JSON object or JSON array of objects is required here, to specify {label} labels for this block."
                ),
                None => "Either a JSON object or JSON array of objects is required here, to define arguments and child blocks."
                    .to_owned(),
            };
            diagnostics.push(Diagnostic::error(
                "Incorrect JSON value type",
                detail,
                Some(file.range(value.start_range())),
            ));
            Vec::new()
        }
    }
}

/// Whether a property name was consumed by an earlier partial decode. A JSON
/// body hides attribute and block names alike, as the reference's does.
fn is_hidden(body: &Body, name: &str) -> bool {
    body.is_attribute_hidden(name) || body.is_block_hidden(name)
}

pub(crate) fn content(
    body: &Body,
    file: &Arc<SourceFile>,
    values: &[hir::SyntaxNodePtr],
    schema: &BodySchema,
) -> (BodyContent, Diagnostics) {
    let (content, rest, mut diagnostics) = partial_content(body, file, values, schema);
    // Names the schema has but this body did not use, and every block type,
    // are the suggestions for a property nothing asked for.
    let mut suggestions: Vec<&str> = schema
        .attributes
        .iter()
        .map(|attribute| attribute.name.as_str())
        .filter(|name| !is_hidden(&rest, name))
        .collect();
    suggestions.extend(schema.blocks.iter().map(|block| block.type_name.as_str()));
    // The reference collects the properties a second time here, and so
    // reports a value of the wrong type twice.
    let value = body_value(file, values);
    let properties = collect_deep_properties(file, value.as_ref(), None, &mut diagnostics);
    for property in properties {
        if property.name == "//" || is_hidden(&rest, &property.name) {
            continue;
        }
        let suggestion = name_suggestion(&property.name, suggestions.iter().copied())
            .map(|name| format!(" Did you mean {}?", go_quote(name)))
            .unwrap_or_default();
        let name_range = file.range(property.name_range);
        diagnostics.push(Diagnostic {
            context: Some(name_range.clone()),
            ..Diagnostic::error(
                "Extraneous JSON object property",
                format!("No argument or block type is named {}.{suggestion}", go_quote(&property.name)),
                Some(name_range),
            )
        });
    }
    (content, diagnostics)
}

pub(crate) fn partial_content(
    body: &Body,
    file: &Arc<SourceFile>,
    values: &[hir::SyntaxNodePtr],
    schema: &BodySchema,
) -> (BodyContent, Body, Diagnostics) {
    let mut diagnostics = Diagnostics::new();
    let value = body_value(file, values);
    let properties = collect_deep_properties(file, value.as_ref(), None, &mut diagnostics);
    let missing_item_range = missing_item_range(file, values);
    let mut content =
        BodyContent { missing_item_range: missing_item_range.clone(), ..BodyContent::default() };
    let mut used: Vec<SmolStr> =
        body.hidden_attributes.iter().chain(body.hidden_blocks.iter()).cloned().collect();
    for property in properties {
        if is_hidden(body, &property.name) {
            continue;
        }
        if schema.attributes.iter().any(|attribute| attribute.name == property.name) {
            if let Some(existing) = content.attribute(&property.name) {
                diagnostics.push(Diagnostic {
                    context: Some(property.range(file)),
                    ..Diagnostic::error(
                        "Duplicate argument",
                        format!(
                            "The argument {} was already set at {}.",
                            go_quote(&property.name),
                            existing.range
                        ),
                        Some(file.range(property.name_range)),
                    )
                });
                continue;
            }
            content.attributes.push(Attribute {
                name: SmolStr::new(&property.name),
                expr: expression(file, &property.value),
                range: property.range(file),
                name_range: file.range(property.name_range),
            });
            used.push(SmolStr::new(&property.name));
        } else if let Some(block_schema) = schema.blocks.iter().find(|block| block.type_name == property.name)
        {
            let header = BlockHeader {
                type_name: &block_schema.type_name,
                type_range: file.range(property.name_range),
                label_names: &block_schema.label_names,
            };
            unpack_block(
                file,
                &property.value,
                &header,
                &mut Vec::new(),
                &mut content.blocks,
                &mut diagnostics,
            );
            used.push(SmolStr::new(&property.name));
        }
    }
    for attribute in schema.attributes.iter().filter(|attribute| attribute.required) {
        if content.attribute(&attribute.name).is_none() {
            diagnostics.push(Diagnostic::error(
                "Missing required argument",
                format!(
                    "The argument {} is required, but no definition was found.",
                    go_quote(&attribute.name)
                ),
                Some(missing_item_range.clone()),
            ));
        }
    }
    let rest =
        Body { kind: body.kind.clone(), hidden_attributes: Arc::new(used), hidden_blocks: Arc::default() };
    (content, rest, diagnostics)
}

/// What every block of one property shares while its labels are read.
struct BlockHeader<'a> {
    type_name: &'a SmolStr,
    type_range: Range,
    label_names: &'a [SmolStr],
}

/// The reference's `unpackBlock`: one level of nested objects per label,
/// then the block bodies (an object, or each element of an array; `null`
/// means no block). `labels` holds the labels read so far, with their ranges.
fn unpack_block(
    file: &Arc<SourceFile>,
    value: &ast::JsonValue,
    header: &BlockHeader<'_>,
    labels: &mut Vec<(SmolStr, Range)>,
    blocks: &mut Vec<Block>,
    diagnostics: &mut Diagnostics,
) {
    if let Some(label_name) = header.label_names.get(labels.len()) {
        let properties = collect_deep_properties(file, Some(value), Some(label_name), diagnostics);
        if properties.is_empty() {
            diagnostics.push(Diagnostic::error(
                "Missing block label",
                format!(
                    "At least one object property is required, whose name represents the {} block's {label_name}.",
                    header.type_name
                ),
                Some(file.range(value.start_range())),
            ));
            return;
        }
        for property in properties {
            labels.push((SmolStr::new(&property.name), file.range(property.name_range)));
            unpack_block(file, &property.value, header, labels, blocks, diagnostics);
            labels.pop();
        }
        return;
    }
    let block = |body_value: &ast::JsonValue, def_range: TextRange| Block {
        type_name: header.type_name.clone(),
        labels: labels.iter().map(|(label, _)| label.clone()).collect(),
        body: body_of(file, Some(body_value)),
        def_range: file.range(def_range),
        type_range: header.type_range.clone(),
        label_ranges: labels.iter().map(|(_, range)| range.clone()).collect(),
    };
    match value {
        ast::JsonValue::JsonKeyword(keyword) if keyword.kind() == Some(ast::JsonKeywordKind::Null) => {}
        ast::JsonValue::JsonObject(_) => blocks.push(block(value, value.start_range())),
        ast::JsonValue::JsonArray(array) => {
            // Each element is a block body, whatever its type: a mistyped
            // one is reported when its content is asked for.
            for element in array.values() {
                blocks.push(block(&element, value.start_range()));
            }
        }
        _ => diagnostics.push(Diagnostic::error(
            "Incorrect JSON value type",
            format!(
                "Either a JSON object or a JSON array is required, representing the contents of one or more {} blocks.",
                go_quote(header.type_name)
            ),
            Some(file.range(value.start_range())),
        )),
    }
}

pub(crate) fn just_attributes(
    body: &Body,
    file: &Arc<SourceFile>,
    values: &[hir::SyntaxNodePtr],
) -> (Vec<Attribute>, Diagnostics) {
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut diagnostics = Diagnostics::new();
    let object = match body_value(file, values) {
        // The placeholder root is an empty object.
        None => return (attributes, diagnostics),
        Some(ast::JsonValue::JsonObject(object)) => object,
        Some(other) => {
            diagnostics.push(Diagnostic::error(
                "Incorrect JSON value type",
                "A JSON object is required here, setting the arguments for this block.",
                Some(file.range(other.start_range())),
            ));
            return (attributes, diagnostics);
        }
    };
    for property in object_properties(&object) {
        if property.name == "//" || is_hidden(body, &property.name) {
            continue;
        }
        if let Some(existing) = attributes.iter().find(|attribute| attribute.name == property.name) {
            diagnostics.push(Diagnostic::error(
                "Duplicate attribute definition",
                format!("The argument {} was already set at {}.", go_quote(&property.name), existing.range),
                Some(file.range(property.name_range)),
            ));
            continue;
        }
        attributes.push(Attribute {
            name: SmolStr::new(&property.name),
            expr: expression(file, &property.value),
            range: property.range(file),
            name_range: file.range(property.name_range),
        });
    }
    (attributes, diagnostics)
}

/// An object's closing brace, an array's opening bracket, another value's
/// start. The placeholder root has the reference's zero range (no file name,
/// no position), since its closing brace was never set.
pub(crate) fn missing_item_range(file: &Arc<SourceFile>, values: &[hir::SyntaxNodePtr]) -> Range {
    match body_value(file, values) {
        None => Range { filename: Arc::from(""), ..Range::default() },
        Some(ast::JsonValue::JsonObject(object)) => match object.close_token() {
            Some(close) => file.range(close.text_range()),
            // Unclosed (a syntax error): where the brace is missing.
            None => file.range(TextRange::empty(object.syntax().text_range().end())),
        },
        Some(other) => file.range(other.start_range()),
    }
}

// ---------------------------------------------------------------------------
// Strings read as native syntax

/// How a string's content is read: as a bare template (evaluation and
/// variables) or as one expression (the static analyses).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    Template,
    Expression,
}

/// The decoded content of a JSON string parsed as native syntax, as a
/// fragment file positioned where the reference positions it: a template one
/// byte and one column after the string's start, an expression at the start
/// itself.
fn parse_string(
    file: &SourceFile,
    text: &str,
    string_start: TextSize,
    reading: Reading,
) -> (Arc<SourceFile>, hir::ExprId) {
    let start = file.pos(string_start);
    let base = match reading {
        Reading::Template => Pos { line: start.line, column: start.column + 1, byte: start.byte + 1 },
        Reading::Expression => start,
    };
    let (root, errors, hir, source_map, root_expr) = match reading {
        Reading::Template => {
            let parse = syntax::parse_template(text);
            let (hir, root_expr, source_map) = hir::lower_template_file(&parse.tree());
            (parse.green().clone(), Arc::from(parse.errors()), hir, source_map, root_expr)
        }
        Reading::Expression => {
            let parse = syntax::parse_expression(text);
            let (hir, root_expr, source_map) = hir::lower_expression_file(&parse.tree());
            (parse.green().clone(), Arc::from(parse.errors()), hir, source_map, root_expr)
        }
    };
    let syntax =
        FileSyntax::Fragment { root, errors, hir: Arc::new(hir), source_map: Arc::new(source_map), base };
    (SourceFile::fragment(file.name.clone(), Arc::from(text), syntax), root_expr)
}

/// A JSON string value's decoded text and where its literal starts.
fn string_parts(string: &ast::JsonString) -> Option<(String, TextSize)> {
    Some((string.value()?, string.syntax().text_range().start()))
}

fn has_syntax_errors(fragment: &SourceFile) -> bool {
    match &fragment.syntax {
        FileSyntax::Fragment { errors, .. } => !errors.is_empty(),
        _ => false,
    }
}

/// A string's content read as native syntax, when it parses without error.
fn parsed_string(
    file: &SourceFile,
    value: &ast::JsonValue,
    reading: Reading,
) -> Option<(Arc<SourceFile>, hir::ExprId)> {
    let ast::JsonValue::JsonString(string) = value else { return None };
    let (text, start) = string_parts(string)?;
    let (fragment, root) = parse_string(file, &text, start, reading);
    (!has_syntax_errors(&fragment)).then_some((fragment, root))
}

// ---------------------------------------------------------------------------
// Evaluation

/// Whether `ctx` is the reference's nil context, in which JSON strings are
/// literal rather than templates.
fn is_literal_mode(ctx: &eval::Context) -> bool {
    !ctx.variables_allowed && !ctx.functions_allowed
}

pub(crate) fn value(
    file: &Arc<SourceFile>,
    ptr: hir::SyntaxNodePtr,
    ctx: &eval::Context,
) -> (Value, Diagnostics) {
    let mut diagnostics = Diagnostics::new();
    let value = match json_value(file, ptr) {
        Some(node) => evaluate(file, &node, ctx, &mut diagnostics),
        None => Value::dynamic(),
    };
    (value, diagnostics)
}

/// The value of a JSON value in `ctx`. Recursion follows the JSON nesting,
/// which the parser bounds.
fn evaluate(
    file: &Arc<SourceFile>,
    node: &ast::JsonValue,
    ctx: &eval::Context,
    diagnostics: &mut Diagnostics,
) -> Value {
    match node {
        ast::JsonValue::JsonString(string) => evaluate_string(file, string, ctx, diagnostics),
        ast::JsonValue::JsonNumber(number) => Number::parse(&number.text())
            .filter(|_| number.is_valid())
            .map_or_else(Value::dynamic, Value::number),
        ast::JsonValue::JsonKeyword(keyword) => match keyword.kind() {
            Some(ast::JsonKeywordKind::True) => Value::bool(true),
            Some(ast::JsonKeywordKind::False) => Value::bool(false),
            Some(ast::JsonKeywordKind::Null) => Value::null(Type::Dynamic),
            None => Value::dynamic(),
        },
        ast::JsonValue::JsonArray(array) => {
            Value::tuple(array.values().map(|element| evaluate(file, &element, ctx, diagnostics)).collect())
        }
        ast::JsonValue::JsonObject(object) => evaluate_object(file, object, ctx, diagnostics),
    }
}

fn evaluate_string(
    file: &Arc<SourceFile>,
    string: &ast::JsonString,
    ctx: &eval::Context,
    diagnostics: &mut Diagnostics,
) -> Value {
    let Some((text, start)) = string_parts(string) else { return Value::dynamic() };
    if is_literal_mode(ctx) {
        return Value::string(&text);
    }
    let (fragment, root) = parse_string(file, &text, start, Reading::Template);
    let syntax_errors = fragment.syntax_diagnostics();
    if !syntax_errors.is_empty() {
        diagnostics.extend(syntax_errors);
        return Value::dynamic();
    }
    let (value, value_diagnostics) = Expression::native(fragment, root).value(ctx);
    diagnostics.extend(value_diagnostics);
    value
}

/// An object's value: names are templates too (literal without a context),
/// converted to strings; a name used twice is an error, and an unknown name
/// makes the whole object unknown.
fn evaluate_object(
    file: &Arc<SourceFile>,
    object: &ast::JsonObject,
    ctx: &eval::Context,
    diagnostics: &mut Diagnostics,
) -> Value {
    let mut attributes = std::collections::BTreeMap::new();
    let mut name_ranges: Vec<(String, Range)> = Vec::new();
    let mut known = true;
    for member in object.members() {
        let (Some(name), Some(member_value)) = (member.name(), member.value()) else { continue };
        let name_value = evaluate_string(file, &name, ctx, diagnostics);
        let value = evaluate(file, &member_value, ctx, diagnostics);
        let name_range = node_range(file, name.syntax());
        let name_value = match value::convert(&name_value, &Type::String) {
            Ok(converted) => converted,
            Err(error) => {
                diagnostics.push(Diagnostic::error(
                    "Invalid object key expression",
                    format!("Cannot use this expression as an object key: {error}."),
                    Some(name_range),
                ));
                continue;
            }
        };
        if name_value.is_null() {
            diagnostics.push(Diagnostic::error(
                "Invalid object key expression",
                "Cannot use null value as an object key.",
                Some(name_range),
            ));
            continue;
        }
        let Some(key) = name_value.as_str().filter(|_| name_value.is_known()) else {
            known = false;
            continue;
        };
        if let Some((_, first)) = name_ranges.iter().find(|(seen, _)| seen == key) {
            diagnostics.push(Diagnostic::error(
                "Duplicate object attribute",
                format!("An attribute named {} was already defined at {first}.", go_quote(key)),
                Some(name_range),
            ));
            continue;
        }
        name_ranges.push((key.to_owned(), name_range));
        attributes.insert(key.to_owned(), value);
    }
    if !known {
        return Value::dynamic();
    }
    Value::object(attributes)
}

// ---------------------------------------------------------------------------
// Variables

pub(crate) fn variables(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Vec<Traversal> {
    collect_variables(file, ptr, true)
}

pub(crate) fn reference_variables(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Vec<Traversal> {
    collect_variables(file, ptr, false)
}

/// The traversals of every string read as a template, in source order:
/// array elements, and object names and values. A string that is not a
/// valid template has none, as in the reference.
fn collect_variables(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr, keep_dynamic: bool) -> Vec<Traversal> {
    let mut out = Vec::new();
    let Some(start) = json_value(file, ptr) else { return out };
    // Nodes in source order are a pre-order walk, which visits an object's
    // names and values, and an array's elements, in the reference's order.
    for node in start.syntax().descendants() {
        let Some(string) = ast::JsonString::cast(node) else { continue };
        if let Some((fragment, root)) =
            parsed_string(file, &ast::JsonValue::JsonString(string), Reading::Template)
        {
            out.extend(crate::traversal::native_variables(&fragment, root, keep_dynamic));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Ranges and static analyses

pub(crate) fn range(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Range {
    match json_value(file, ptr) {
        Some(value) => node_range(file, value.syntax()),
        None => file.range(ptr.text_range()),
    }
}

pub(crate) fn start_range(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Range {
    match json_value(file, ptr) {
        Some(value) => file.range(value.start_range()),
        None => file.range(ptr.text_range()),
    }
}

pub(crate) fn as_list(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Option<Vec<Expression>> {
    match json_value(file, ptr)? {
        ast::JsonValue::JsonArray(array) => {
            Some(array.values().map(|element| expression(file, &element)).collect())
        }
        _ => None,
    }
}

/// An object's properties as key and value expressions; a key is the name
/// string, which evaluates as a template like any string.
pub(crate) fn as_map(
    file: &Arc<SourceFile>,
    ptr: hir::SyntaxNodePtr,
) -> Option<Vec<(Expression, Expression)>> {
    let ast::JsonValue::JsonObject(object) = json_value(file, ptr)? else { return None };
    let pairs = object
        .members()
        .filter_map(|member| {
            let name = ast::JsonValue::JsonString(member.name()?);
            Some((expression(file, &name), expression(file, &member.value()?)))
        })
        .collect();
    Some(pairs)
}

/// A string holding a function call, read as a native expression.
pub(crate) fn as_call(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Option<StaticCall> {
    let (fragment, root) = parsed_string(file, &json_value(file, ptr)?, Reading::Expression)?;
    Expression::native(fragment, root).as_call()
}

/// A string holding a static traversal (`var.name[0]`), read as a native
/// expression; anything else is the reference's error about the whole value.
pub(crate) fn as_traversal(
    file: &Arc<SourceFile>,
    ptr: hir::SyntaxNodePtr,
) -> Result<Traversal, Diagnostics> {
    json_value(file, ptr)
        .and_then(|value| parsed_string(file, &value, Reading::Expression))
        // The reference reads the string with its traversal parser, which
        // knows no parentheses; the native analysis looks through them.
        .filter(|(fragment, _)| {
            !fragment.syntax_root().descendants().any(|node| node.kind() == syntax::SyntaxKind::PAREN_EXPR)
        })
        .and_then(|(fragment, root)| Expression::native(fragment, root).as_traversal().ok())
        .ok_or_else(|| {
            vec![Diagnostic::error(
                "Invalid expression",
                "A single static variable reference is required: only attribute access and indexing with constant keys. \
                 No calculations, function calls, template expressions, etc are allowed here.",
                Some(range(file, ptr)),
            )]
        })
}

/// A string holding a single name, like `"string"` in a type constraint.
pub(crate) fn as_keyword(file: &Arc<SourceFile>, ptr: hir::SyntaxNodePtr) -> Option<SmolStr> {
    let traversal = as_traversal(file, ptr).ok()?;
    match traversal.steps.as_slice() {
        [crate::TraversalStep::Root { name, .. }] => Some(name.clone()),
        _ => None,
    }
}
