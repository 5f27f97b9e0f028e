//! Decoding a body with a spec (`hcldec.Decode`), and the source range a
//! spec's value came from (`hcldec.SourceRange`).
//!
//! Each spec is decoded against the content its implied schema found in the
//! body, so unexpected items, missing required attributes and wrong label
//! counts are reported by the body (`decode::Body::content`), and the
//! checks of the spec kinds themselves (block counts, types) here, with the
//! reference's messages.

use std::collections::BTreeMap;

use decode::{Block, Body, BodyContent, Diagnostic, Diagnostics, Range, diagnostic::has_errors};
use smol_str::SmolStr;
use value::{Type, Value};

use crate::spec::{BlockAttrsSpec, BlockCollectionSpec, BlockMapSpec, BlockSpec, Spec, implied_schema};

/// A label of the block whose body is being decoded, for
/// [`Spec::BlockLabel`].
#[derive(Debug, Clone)]
pub(crate) struct BlockLabel {
    pub(crate) value: SmolStr,
    pub(crate) range: Range,
}

pub(crate) fn labels_for_block(block: &Block) -> Vec<BlockLabel> {
    block
        .labels
        .iter()
        .zip(&block.label_ranges)
        .map(|(value, range)| BlockLabel { value: value.clone(), range: range.clone() })
        .collect()
}

/// Decodes `body` with `spec`, evaluating expressions in `ctx`. Anything
/// in the body the spec does not ask for is an error. On error the value is
/// as complete as the reference's would be: unknown where a value was wrong.
pub fn decode(body: &Body, spec: &Spec, ctx: &eval::Context) -> (Value, Diagnostics) {
    decode_body(body, &[], ctx, spec)
}

/// Like [`decode()`](fn@decode), but items of the top-level body that the spec does not
/// ask for are returned as a body instead of being errors (nested block
/// bodies are still decoded whole).
pub fn partial_decode(body: &Body, spec: &Spec, ctx: &eval::Context) -> (Value, Body, Diagnostics) {
    let schema = implied_schema(spec);
    let (content, rest, mut diags) = body.partial_content(&schema);
    let (value, more) = decode_content(spec, &content, &[], ctx);
    diags.extend(more);
    (value, rest, diags)
}

fn decode_body(body: &Body, labels: &[BlockLabel], ctx: &eval::Context, spec: &Spec) -> (Value, Diagnostics) {
    let schema = implied_schema(spec);
    let (content, mut diags) = body.content(&schema);
    let (value, more) = decode_content(spec, &content, labels, ctx);
    diags.extend(more);
    (value, diags)
}

fn decode_content(
    spec: &Spec,
    content: &BodyContent,
    labels: &[BlockLabel],
    ctx: &eval::Context,
) -> (Value, Diagnostics) {
    match spec {
        Spec::Object(props) => {
            let mut diags = Diagnostics::new();
            let mut values = BTreeMap::new();
            for (name, prop) in props {
                let (value, more) = decode_content(prop, content, labels, ctx);
                diags.extend(more);
                values.insert(name.clone(), value);
            }
            (Value::object(values), diags)
        }
        Spec::Array(elems) => {
            let mut diags = Diagnostics::new();
            let mut values = Vec::with_capacity(elems.len());
            for elem in elems {
                let (value, more) = decode_content(elem, content, labels, ctx);
                diags.extend(more);
                values.push(value);
            }
            (Value::tuple(values), diags)
        }
        Spec::Attr(attr) => {
            // A missing required attribute was reported with the content.
            let Some(found) = content.attribute(&attr.name) else {
                return (Value::null(attr.ty.clone()), Diagnostics::new());
            };
            let (value, mut diags) = found.expr.value(ctx);
            match value::convert(&value, &attr.ty) {
                Ok(converted) => (converted, diags),
                Err(err) => {
                    let expr_range = found.expr.range();
                    let mut diag = Diagnostic::error(
                        "Incorrect attribute value type",
                        format!("Inappropriate value for attribute {}: {err}.", quote(&attr.name)),
                        Some(expr_range.clone()),
                    );
                    diag.context = Some(range_between(&found.name_range, &expr_range));
                    diags.push(diag);
                    // Unknown of the wanted type, so that the rest of the
                    // result keeps its shape.
                    (Value::unknown(attr.ty.clone()), diags)
                }
            }
        }
        Spec::Literal(value) => (value.clone(), Diagnostics::new()),
        Spec::Expr(expr) => expr.value(ctx),
        Spec::Block(block) => decode_block(block, content, ctx),
        Spec::BlockList(list) => decode_block_collection(list, false, content, ctx),
        Spec::BlockSet(set) => decode_block_collection(set, true, content, ctx),
        Spec::BlockMap(map) => decode_block_map(map, content, ctx),
        Spec::BlockAttrs(attrs) => decode_block_attrs(attrs, content, ctx),
        Spec::BlockLabel { index, .. } => match labels.get(*index) {
            Some(label) => (Value::string(&label.value), Diagnostics::new()),
            // The reference panics: a label spec outside a block is a
            // mistake of the spec's author. A null keeps the result's type.
            None => (Value::null(Type::String), Diagnostics::new()),
        },
        Spec::Default { primary, default } => {
            let (value, mut diags) = decode_content(primary, content, labels, ctx);
            if value.is_null() {
                let (value, more) = decode_content(default, content, labels, ctx);
                diags.extend(more);
                return (value, diags);
            }
            (value, diags)
        }
        Spec::Transform(transform) => {
            let (value, mut diags) = decode_content(&transform.wrapped, content, labels, ctx);
            if has_errors(&diags) {
                // The expression would only add confusing errors about a
                // value that is wrong already.
                return (Value::unknown(spec.implied_type()), diags);
            }
            let (result, more) = transform.expr.value(&transform.context(value));
            diags.extend(more);
            (result, diags)
        }
    }
}

fn blocks_of_type<'a>(content: &'a BodyContent, type_name: &'a str) -> impl Iterator<Item = &'a Block> {
    content.blocks.iter().filter(move |block| block.type_name == type_name)
}

fn decode_block(spec: &BlockSpec, content: &BodyContent, ctx: &eval::Context) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut found: Option<&Block> = None;
    for candidate in blocks_of_type(content, &spec.type_name) {
        if let Some(first) = found {
            diags.push(Diagnostic::error(
                format!("Duplicate {} block", spec.type_name),
                format!(
                    "Only one block of type {} is allowed. Previous definition was at {}.",
                    quote(&spec.type_name),
                    first.def_range
                ),
                Some(candidate.def_range.clone()),
            ));
            break;
        }
        found = Some(candidate);
    }
    let Some(block) = found else {
        if spec.required {
            diags.push(Diagnostic::error(
                format!("Missing {} block", spec.type_name),
                format!("A block of type {} is required here.", quote(&spec.type_name)),
                Some(content.missing_item_range.clone()),
            ));
        }
        return (Value::null(spec.nested.implied_type()), diags);
    };
    let (value, more) = decode_body(&block.body, &labels_for_block(block), ctx, &spec.nested);
    diags.extend(more);
    (value, diags)
}

fn decode_block_collection(
    spec: &BlockCollectionSpec,
    is_set: bool,
    content: &BodyContent,
    ctx: &eval::Context,
) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut elems = Vec::new();
    let mut source_ranges = Vec::new();
    for block in blocks_of_type(content, &spec.type_name) {
        let labels = labels_for_block(block);
        let (value, more) = decode_body(&block.body, &labels, ctx, &spec.nested);
        diags.extend(more);
        elems.push(value);
        source_ranges.push(source_range_in(&block.body, &labels, &spec.nested));
    }

    if elems.len() < spec.min_items {
        diags.push(Diagnostic::error(
            format!("Insufficient {} blocks", spec.type_name),
            format!("At least {} {} blocks are required.", spec.min_items, quote(&spec.type_name)),
            Some(content.missing_item_range.clone()),
        ));
    } else if spec.max_items > 0 && elems.len() > spec.max_items {
        diags.push(Diagnostic::error(
            format!("Too many {} blocks", spec.type_name),
            format!("No more than {} {} blocks are allowed", spec.max_items, quote(&spec.type_name)),
            Some(source_ranges[spec.max_items].clone()),
        ));
    }

    let collection =
        |ety: Type, elems: Vec<Value>| if is_set { Value::set(ety, elems) } else { Value::list(ety, elems) };
    if elems.is_empty() {
        return match collection(spec.nested.implied_type(), Vec::new()) {
            Ok(value) => (value, diags),
            Err(_) => (Value::dynamic(), diags),
        };
    }

    // The nested spec may hold attributes of any type, so the blocks'
    // values can differ in type; a list or set needs them to agree.
    let types: Vec<Type> = elems.iter().map(Value::ty).collect();
    let Some(ety) = value::unify_unsafe(&types) else {
        diags.push(inconsistent_types(
            &spec.type_name,
            "Corresponding attributes in all blocks of this type must be the same.".to_string(),
            &source_ranges[0],
        ));
        return (Value::dynamic(), diags);
    };
    let mut converted = Vec::with_capacity(elems.len());
    for (i, elem) in elems.iter().enumerate() {
        match value::convert(elem, &ety) {
            Ok(value) => converted.push(value),
            Err(err) => {
                diags.push(inconsistent_types(
                    &spec.type_name,
                    format!("Block with index {i} has inconsistent argument types: {err}."),
                    &source_ranges[i],
                ));
                return (Value::dynamic(), diags);
            }
        }
    }
    match collection(ety, converted) {
        Ok(value) => (value, diags),
        Err(err) => {
            diags.push(inconsistent_types(&spec.type_name, format!("{err}."), &source_ranges[0]));
            (Value::dynamic(), diags)
        }
    }
}

/// The reference's message for blocks whose values do not unify (its
/// misspelling of "inconsistent" included).
fn inconsistent_types(type_name: &str, detail: String, subject: &Range) -> Diagnostic {
    Diagnostic::error(
        format!("Unconsistent argument types in {type_name} blocks"),
        detail,
        Some(subject.clone()),
    )
}

/// One level of a block map under construction: decoded values at the last
/// label, further maps above it.
enum MapNode {
    Value(Value),
    Map(BTreeMap<String, MapNode>),
}

fn decode_block_map(spec: &BlockMapSpec, content: &BodyContent, ctx: &eval::Context) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    let depth = spec.label_names.len();
    let mut root: BTreeMap<String, MapNode> = BTreeMap::new();
    for block in blocks_of_type(content, &spec.type_name) {
        // The schema asked for the labels, so a block without enough of
        // them was reported and left out; this only guards the indexing.
        if depth == 0 || block.labels.len() < depth {
            continue;
        }
        let labels = labels_for_block(block);
        let (value, more) = decode_body(&block.body, &labels[depth..], ctx, &spec.nested);
        diags.extend(more);

        let Some(target) = map_level(&mut root, &block.labels[..depth - 1]) else { continue };
        let key = block.labels[depth - 1].to_string();
        if target.contains_key(&key) {
            let labels: String = block.labels.iter().map(|label| format!(" {}", quote(label))).collect();
            diags.push(Diagnostic::error(
                format!("Duplicate {} block", spec.type_name),
                format!(
                    "A block for {}{labels} was already defined. The {} labels must be unique.",
                    spec.type_name, spec.type_name
                ),
                Some(block.def_range.clone()),
            ));
            continue;
        }
        target.insert(key, MapNode::Value(value));
    }

    if root.is_empty() {
        let ety = spec.nested.implied_type();
        return (Value::map(ety, BTreeMap::new()).unwrap_or_else(|_| Value::dynamic()), diags);
    }
    match map_value(root) {
        Ok(value) => (value, diags),
        Err(err) => {
            diags.push(Diagnostic::error(
                format!("Invalid {} blocks", spec.type_name),
                format!("The {} blocks' values differ in type: {err}.", spec.type_name),
                Some(content.missing_item_range.clone()),
            ));
            (Value::unknown(spec_type_of_map(spec)), diags)
        }
    }
}

/// The map at the end of the path `keys` under `root`, made as needed.
/// Every path has the same length, so a value never sits where a map is
/// wanted; if one did, the block is left out.
fn map_level<'a>(
    root: &'a mut BTreeMap<String, MapNode>,
    keys: &[SmolStr],
) -> Option<&'a mut BTreeMap<String, MapNode>> {
    let mut target = root;
    for key in keys {
        match target.entry(key.to_string()).or_insert_with(|| MapNode::Map(BTreeMap::new())) {
            MapNode::Map(map) => target = map,
            MapNode::Value(_) => return None,
        }
    }
    Some(target)
}

fn spec_type_of_map(spec: &BlockMapSpec) -> Type {
    Spec::BlockMap(spec.clone()).implied_type()
}

/// The map of `nodes`, its element type taken from its first element as
/// `cty.MapVal` does.
fn map_value(nodes: BTreeMap<String, MapNode>) -> Result<Value, value::ValueError> {
    let mut elems = BTreeMap::new();
    for (key, node) in nodes {
        let value = match node {
            MapNode::Value(value) => value,
            MapNode::Map(map) => map_value(map)?,
        };
        elems.insert(key, value);
    }
    let ety = elems.values().next().map(Value::ty).unwrap_or(Type::Dynamic);
    Value::map(ety, elems)
}

fn decode_block_attrs(
    spec: &BlockAttrsSpec,
    content: &BodyContent,
    ctx: &eval::Context,
) -> (Value, Diagnostics) {
    let mut diags = Diagnostics::new();
    let mut blocks = blocks_of_type(content, &spec.type_name);
    let Some(block) = blocks.next() else {
        if spec.required {
            diags.push(Diagnostic::error(
                format!("Missing {} block", spec.type_name),
                format!("A block of type {} is required here.", quote(&spec.type_name)),
                Some(content.missing_item_range.clone()),
            ));
        }
        return (Value::null(Type::map(spec.element_type.clone())), diags);
    };
    if let Some(other) = blocks.next() {
        diags.push(Diagnostic::error(
            format!("Duplicate {} block", spec.type_name),
            format!(
                "Only one block of type {} is allowed. Previous definition was at {}.",
                quote(&spec.type_name),
                block.def_range
            ),
            Some(other.def_range.clone()),
        ));
    }

    let (attrs, more) = block.body.just_attributes();
    diags.extend(more);
    let mut values = BTreeMap::new();
    for attr in &attrs {
        let (value, more) = attr.expr.value(ctx);
        diags.extend(more);
        let value = match value::convert(&value, &spec.element_type) {
            Ok(value) => value,
            Err(err) => {
                let expr_range = attr.expr.range();
                let mut diag = Diagnostic::error(
                    "Invalid attribute value",
                    format!("Invalid value for attribute of {} block: {err}.", quote(&spec.type_name)),
                    Some(expr_range.clone()),
                );
                diag.context = Some(range_between(&attr.name_range, &expr_range));
                diags.push(diag);
                Value::unknown(spec.element_type.clone())
            }
        };
        values.insert(attr.name.to_string(), value);
    }
    if values.is_empty() {
        return (Value::map(spec.element_type.clone(), values).unwrap_or_else(|_| Value::dynamic()), diags);
    }
    // With an element type of `any` the values keep their own types, and a
    // map needs one. The reference requires them to be the same (it
    // crashes otherwise); they are unified here, and an error only when
    // they have no common type.
    let ety = if spec.element_type.has_dynamic_types() {
        let types: Vec<Type> = values.values().map(Value::ty).collect();
        value::unify_unsafe(&types)
    } else {
        Some(spec.element_type.clone())
    };
    let map = ety.and_then(|ety| {
        let converted: Option<BTreeMap<String, Value>> =
            values.into_iter().map(|(k, v)| value::convert(&v, &ety).ok().map(|v| (k, v))).collect();
        Value::map(ety, converted?).ok()
    });
    match map {
        Some(value) => (value, diags),
        None => {
            diags.push(Diagnostic::error(
                "Invalid attribute value",
                format!(
                    "Invalid value for attribute of {} block: the attributes' values have no common type.",
                    quote(&spec.type_name)
                ),
                Some(block.def_range.clone()),
            ));
            (Value::unknown(Type::map(spec.element_type.clone())), diags)
        }
    }
}

/// Where the value decoding `body` with `spec` gives came from, or where it
/// would go (`hcldec.SourceRange`), for diagnostics an application makes
/// about decoded values.
pub fn source_range(body: &Body, spec: &Spec) -> Range {
    source_range_in(body, &[], spec)
}

fn source_range_in(body: &Body, labels: &[BlockLabel], spec: &Spec) -> Range {
    let (content, _, _) = body.partial_content(&implied_schema(spec));
    spec_source_range(spec, &content, labels)
}

fn spec_source_range(spec: &Spec, content: &BodyContent, labels: &[BlockLabel]) -> Range {
    match spec {
        // The whole body; the reference has nothing better either.
        Spec::Object(_) | Spec::Array(_) => content.missing_item_range.clone(),
        Spec::Attr(attr) => match content.attribute(&attr.name) {
            Some(found) => found.expr.range(),
            None => content.missing_item_range.clone(),
        },
        Spec::Literal(_) => Range { filename: "<unknown>".into(), ..Range::default() },
        Spec::Expr(expr) => expr.range(),
        Spec::Block(BlockSpec { type_name, nested, .. })
        | Spec::BlockList(BlockCollectionSpec { type_name, nested, .. })
        | Spec::BlockSet(BlockCollectionSpec { type_name, nested, .. })
        | Spec::BlockMap(BlockMapSpec { type_name, nested, .. }) => {
            match blocks_of_type(content, type_name).next() {
                Some(block) => source_range_in(&block.body, &labels_for_block(block), nested),
                None => content.missing_item_range.clone(),
            }
        }
        Spec::BlockAttrs(attrs) => match blocks_of_type(content, &attrs.type_name).next() {
            Some(block) => block.def_range.clone(),
            None => content.missing_item_range.clone(),
        },
        Spec::BlockLabel { index, .. } => match labels.get(*index) {
            Some(label) => label.range.clone(),
            None => content.missing_item_range.clone(),
        },
        Spec::Default { primary, .. } => spec_source_range(primary, content, labels),
        Spec::Transform(transform) => spec_source_range(&transform.wrapped, content, labels),
    }
}

/// `s` quoted as Go's `%q` quotes it.
pub(crate) use value::set::go_quoted as quote;

/// `hcl.RangeBetween`: from the earlier start to the later end.
pub(crate) fn range_between(a: &Range, b: &Range) -> Range {
    let start = if a.start.byte <= b.start.byte { a.start } else { b.start };
    let end = if a.end.byte >= b.end.byte { a.end } else { b.end };
    Range { filename: a.filename.clone(), start, end }
}
