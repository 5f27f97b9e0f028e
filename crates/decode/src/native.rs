//! Native syntax bodies: content under a schema, following the reference's
//! `hclsyntax.Body`, over the HIR with ranges from its source map.
//!
//! The HIR keeps every attribute, even one defined twice in a body (the
//! parser reported that); like the reference, only the first definition of a
//! name counts here.

use std::sync::Arc;

use smol_str::SmolStr;
use syntax::{AstNode, SyntaxNode, TextRange, ast};

use crate::{
    Attribute, Block, Body, BodyContent, BodySchema, Diagnostic, Diagnostics, Expression, Range, SourceFile,
    body::name_suggestion, diagnostic::go_quote, source::trimmed_range,
};

/// The HIR body of a native body (the file's, or a block's), or `None`
/// when `file` has no HIR.
fn hir_body(file: &SourceFile, block: Option<hir::BlockId>) -> Option<&hir::Body> {
    let (hir, _) = file.native_parts()?;
    match block {
        None => Some(&hir.body),
        // Block ids are only ever paired with the file they come from.
        Some(id) => Some(&hir[id].body),
    }
}

/// The attributes of a body, the first definition of each name, in source
/// order. Attributes without a name (after a syntax error) are left out.
fn unique_attributes(file: &SourceFile, body: &hir::Body) -> Vec<hir::AttributeId> {
    let Some((hir, _)) = file.native_parts() else { return Vec::new() };
    let mut seen: rustc_hash::FxHashSet<&SmolStr> = rustc_hash::FxHashSet::default();
    let mut out = Vec::new();
    for &id in &body.attributes {
        let name = &hir[id].name;
        if !name.is_empty() && seen.insert(name) {
            out.push(id);
        }
    }
    out
}

/// The blocks of a body in source order, those without a type name (after
/// a syntax error) left out.
fn named_blocks<'a>(file: &'a SourceFile, body: &'a hir::Body) -> impl Iterator<Item = hir::BlockId> + 'a {
    body.blocks
        .iter()
        .copied()
        .filter(move |&id| file.native_parts().is_some_and(|(hir, _)| !hir[id].type_name.is_empty()))
}

fn syntax_node(file: &SourceFile, ptr: Option<hir::SyntaxNodePtr>) -> Option<SyntaxNode> {
    ptr?.try_to_node(&file.syntax_root())
}

/// An attribute of a native body, with the reference's ranges: the whole
/// definition runs from the name to the end of the expression.
pub(crate) fn attribute(file: &Arc<SourceFile>, id: hir::AttributeId) -> Option<Attribute> {
    let (hir, map) = file.native_parts()?;
    let attribute = &hir[id];
    let node = syntax_node(file, map.attribute_syntax(id)).and_then(ast::Attribute::cast);
    let (range, name_range) = match &node {
        Some(node) => {
            let name = node.name().map_or_else(|| trimmed_range(node.syntax()), |it| it.text_range());
            let end = match node.value() {
                Some(expr) => trimmed_range(expr.syntax()).end(),
                None => trimmed_range(node.syntax()).end(),
            };
            (TextRange::new(name.start(), end.max(name.end())), name)
        }
        None => (TextRange::default(), TextRange::default()),
    };
    Some(Attribute {
        name: attribute.name.clone(),
        expr: Expression::native(file.clone(), attribute.value),
        range: file.range(range),
        name_range: file.range(name_range),
    })
}

/// A block of a native body with its header's ranges, and the range of
/// its opening brace (the subject of label diagnostics).
pub(crate) struct NativeBlock {
    pub(crate) block: Block,
    pub(crate) open_brace_range: Range,
}

pub(crate) fn block(file: &Arc<SourceFile>, id: hir::BlockId) -> Option<NativeBlock> {
    let (hir, map) = file.native_parts()?;
    let block = &hir[id];
    let node = syntax_node(file, map.block_syntax(id)).and_then(ast::Block::cast);
    let (type_range, label_ranges, open_brace) = match &node {
        Some(node) => {
            let type_range =
                node.type_name().map_or_else(|| trimmed_range(node.syntax()), |it| it.text_range());
            let labels: Vec<TextRange> = node.labels().map(|label| trimmed_range(label.syntax())).collect();
            let header_end = labels.last().copied().unwrap_or(type_range);
            let open_brace =
                node.l_curly_token().map_or(TextRange::empty(header_end.end()), |it| it.text_range());
            (type_range, labels, open_brace)
        }
        None => (TextRange::default(), Vec::new(), TextRange::default()),
    };
    let type_range = file.range(type_range);
    let label_ranges: Vec<Range> = label_ranges.into_iter().map(|it| file.range(it)).collect();
    let def_range = Range::between(&type_range, label_ranges.last().unwrap_or(&type_range));
    Some(NativeBlock {
        block: Block {
            type_name: block.type_name.clone(),
            labels: block.labels.clone(),
            body: Body::native(file.clone(), Some(id)),
            def_range,
            type_range,
            label_ranges,
        },
        open_brace_range: file.range(open_brace),
    })
}

/// The reference's `MissingItemRange` of a native body: the empty range at
/// the start of the body, which for a block is its opening brace.
pub(crate) fn missing_item_range(file: &Arc<SourceFile>, block_id: Option<hir::BlockId>) -> Range {
    match block_id {
        None => file.native_body_start(),
        Some(id) => match block(file, id) {
            Some(block) => block.open_brace_range.start_point(),
            None => file.native_body_start(),
        },
    }
}

pub(crate) fn partial_content(
    body: &Body,
    file: &Arc<SourceFile>,
    block_id: Option<hir::BlockId>,
    schema: &BodySchema,
) -> (BodyContent, Body, Diagnostics) {
    let missing_item_range = missing_item_range(file, block_id);
    let mut content =
        BodyContent { missing_item_range: missing_item_range.clone(), ..BodyContent::default() };
    let mut diagnostics = Diagnostics::new();
    let mut hidden_attributes: Vec<SmolStr> = body.hidden_attributes.as_ref().clone();
    let mut hidden_blocks: Vec<SmolStr> = body.hidden_blocks.as_ref().clone();
    let Some((hir, _)) = file.native_parts() else {
        return (content, body.clone(), diagnostics);
    };
    let hir_body = hir_body(file, block_id);
    let attribute_ids = hir_body.map(|it| unique_attributes(file, it)).unwrap_or_default();

    let mut found: Vec<hir::AttributeId> = Vec::new();
    for attribute_schema in &schema.attributes {
        let name = &attribute_schema.name;
        let defined = attribute_ids.iter().copied().find(|&id| hir[id].name == *name);
        match defined {
            Some(id) if !hidden_attributes.contains(name) => {
                hidden_attributes.push(name.clone());
                found.push(id);
            }
            _ => {
                if attribute_schema.required {
                    diagnostics.push(Diagnostic::error(
                        "Missing required argument",
                        format!("The argument {} is required, but no definition was found.", go_quote(name)),
                        Some(missing_item_range.clone()),
                    ));
                }
            }
        }
    }
    // The reference's content holds attributes in a map; source order is
    // the deterministic order closest to what a reader sees.
    found.sort();
    content.attributes = found.into_iter().filter_map(|id| attribute(file, id)).collect();

    for id in hir_body.map(|it| named_blocks(file, it).collect::<Vec<_>>()).unwrap_or_default() {
        let type_name = &hir[id].type_name;
        if hidden_blocks.contains(type_name) {
            continue;
        }
        let Some(block_schema) = schema.blocks.iter().find(|it| it.type_name == *type_name) else { continue };
        let Some(NativeBlock { block, open_brace_range }) = block(file, id) else { continue };
        let wanted = block_schema.label_names.len();
        let context = Range::between(&block.type_range, &open_brace_range);
        if block.labels.len() > wanted {
            let detail = if wanted == 0 {
                format!("No labels are expected for {type_name} blocks.")
            } else {
                format!(
                    "Only {wanted} labels ({}) are expected for {type_name} blocks.",
                    block_schema.label_names.join(", ")
                )
            };
            let subject = block.label_ranges.get(wanted).cloned();
            diagnostics.push(Diagnostic {
                context: Some(context),
                ..Diagnostic::error(format!("Extraneous label for {type_name}"), detail, subject)
            });
            continue;
        }
        if block.labels.len() < wanted {
            let missing = &block_schema.label_names[block.labels.len()];
            diagnostics.push(Diagnostic {
                context: Some(context),
                ..Diagnostic::error(
                    format!("Missing {missing} for {type_name}"),
                    format!(
                        "All {type_name} blocks must have {wanted} labels ({}).",
                        block_schema.label_names.join(", ")
                    ),
                    Some(open_brace_range),
                )
            });
            continue;
        }
        content.blocks.push(block);
    }
    // Block types are hidden only once every block has been seen, so that
    // a type may have several blocks.
    for block_schema in &schema.blocks {
        if !hidden_blocks.contains(&block_schema.type_name) {
            hidden_blocks.push(block_schema.type_name.clone());
        }
    }
    let rest = Body {
        kind: body.kind.clone(),
        hidden_attributes: Arc::new(hidden_attributes),
        hidden_blocks: Arc::new(hidden_blocks),
    };
    (content, rest, diagnostics)
}

pub(crate) fn content(
    body: &Body,
    file: &Arc<SourceFile>,
    block_id: Option<hir::BlockId>,
    schema: &BodySchema,
) -> (BodyContent, Diagnostics) {
    let (content, rest, mut diagnostics) = partial_content(body, file, block_id, schema);
    let Some((hir, _)) = file.native_parts() else { return (content, diagnostics) };
    let Some(hir_body) = hir_body(file, block_id) else { return (content, diagnostics) };

    for id in unique_attributes(file, hir_body) {
        let name = &hir[id].name;
        if rest.is_attribute_hidden(name) {
            continue;
        }
        let Some(attribute) = attribute(file, id) else { continue };
        let candidates = schema
            .attributes
            .iter()
            .filter(|it| content.attribute(&it.name).is_none())
            .map(|it| it.name.as_str());
        let suggestion = match name_suggestion(name, candidates) {
            Some(suggestion) => format!(" Did you mean {}?", go_quote(suggestion)),
            None if schema.blocks.iter().any(|it| it.type_name == *name) => {
                format!(" Did you mean to define a block of type {}?", go_quote(name))
            }
            None => String::new(),
        };
        diagnostics.push(Diagnostic::error(
            "Unsupported argument",
            format!("An argument named {} is not expected here.{suggestion}", go_quote(name)),
            Some(attribute.name_range),
        ));
    }

    for id in named_blocks(file, hir_body) {
        let type_name = &hir[id].type_name;
        if rest.is_block_hidden(type_name) {
            continue;
        }
        let Some(NativeBlock { block, .. }) = block(file, id) else { continue };
        let candidates = schema.blocks.iter().map(|it| it.type_name.as_str());
        let suggestion = match name_suggestion(type_name, candidates) {
            Some(suggestion) => format!(" Did you mean {}?", go_quote(suggestion)),
            None if schema.attributes.iter().any(|it| it.name == *type_name) => format!(
                " Did you mean to define argument {}? If so, use the equals sign to assign it a value.",
                go_quote(type_name)
            ),
            None => String::new(),
        };
        diagnostics.push(Diagnostic::error(
            "Unsupported block type",
            format!("Blocks of type {} are not expected here.{suggestion}", go_quote(type_name)),
            Some(block.type_range),
        ));
    }
    (content, diagnostics)
}

pub(crate) fn just_attributes(
    body: &Body,
    file: &Arc<SourceFile>,
    block_id: Option<hir::BlockId>,
) -> (Vec<Attribute>, Diagnostics) {
    let mut diagnostics = Diagnostics::new();
    let Some((hir, _)) = file.native_parts() else { return (Vec::new(), diagnostics) };
    let Some(hir_body) = hir_body(file, block_id) else { return (Vec::new(), diagnostics) };
    // The reference complains about the first block even when an earlier
    // partial decode consumed its type.
    if let Some(first) = named_blocks(file, hir_body).next().and_then(|id| block(file, id)) {
        diagnostics.push(Diagnostic::error(
            format!("Unexpected {} block", go_quote(&first.block.type_name)),
            "Blocks are not allowed here.",
            Some(first.block.type_range),
        ));
    }
    let attributes = unique_attributes(file, hir_body)
        .into_iter()
        .filter(|&id| !body.is_attribute_hidden(&hir[id].name))
        .filter_map(|id| attribute(file, id))
        .collect();
    (attributes, diagnostics)
}
