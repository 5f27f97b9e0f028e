//! Dynamic blocks (`spec/ext-dynblock.md`): `dynamic "TYPE" { for_each =
//! …, iterator = …, labels = […], content { … } }` expanded into one block
//! of `TYPE` per element, lazily, as the body's content is asked for.
//!
//! An expanded body wraps the body it came from: asking it for content asks
//! the original for the same schema plus `dynamic` blocks, and replaces each
//! `dynamic` block by the blocks it generates. A generated block's body is
//! itself an expanded body that knows the iteration it belongs to, so that
//! its attributes' expressions (wrapped as [`ExpressionKind::Iterated`])
//! see the iterator variables, and `dynamic` blocks nested inside see the
//! outer iterators too.

mod variables;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use smol_str::SmolStr;
use value::{Type, Value};

use crate::body::BodyKind;
use crate::diagnostic::has_errors;
use crate::expression::ExpressionKind;
use crate::{
    Attribute, AttributeSchema, Block, BlockHeaderSchema, Body, BodyContent, BodySchema, Diagnostic,
    Diagnostics, Expression, Range,
};

pub use variables::{NestedSchema, SchemaTree, expand_variables, reference_variables, variables};

/// One element of a `dynamic` block's `for_each`, as its iterator variable
/// shows it, with the iterations of the `dynamic` blocks around it.
#[derive(Debug)]
pub(crate) struct Iteration {
    name: SmolStr,
    key: Value,
    value: Value,
    /// The outer iterations by iterator name; an inner iterator of the same
    /// name hides an outer one.
    inherited: BTreeMap<SmolStr, Arc<Iteration>>,
}

impl Iteration {
    /// An iteration nested in `parent` (the reference's `MakeChild`).
    fn nested(parent: Option<&Arc<Iteration>>, name: SmolStr, key: Value, value: Value) -> Arc<Iteration> {
        let mut inherited = BTreeMap::new();
        if let Some(parent) = parent {
            inherited.extend(parent.inherited.iter().map(|(name, outer)| (name.clone(), outer.clone())));
            inherited.insert(parent.name.clone(), parent.clone());
        }
        Arc::new(Iteration { name, key, value, inherited })
    }

    /// The iterator variable's value: an object of `key` and `value`.
    fn object(&self) -> Value {
        Value::object_from([("key", self.key.clone()), ("value", self.value.clone())])
    }

    /// `base` extended with this iteration's iterator variables and those
    /// of the iterations around it, which hide variables of the same name.
    pub(crate) fn eval_context(&self, base: &eval::Context) -> eval::Context {
        let mut ctx = base.clone();
        for (name, outer) in &self.inherited {
            ctx.variables.insert(name.to_string(), outer.object());
        }
        ctx.variables.insert(self.name.to_string(), self.object());
        // The iterators are variables, so referring to them is allowed even
        // when the caller's context has none of its own.
        ctx.variables_allowed = true;
        ctx
    }

    /// Whether `root_name` is one of the iterator variables this iteration
    /// defines, and so not a variable the caller must provide.
    pub(crate) fn binds(&self, root_name: &str) -> bool {
        self.name == root_name || self.inherited.contains_key(root_name)
    }
}

fn iteration_context(iteration: Option<&Arc<Iteration>>, base: &eval::Context) -> eval::Context {
    match iteration {
        Some(iteration) => iteration.eval_context(base),
        None => base.clone(),
    }
}

/// The state of an expanded body: the body it wraps and the evaluation
/// context its `for_each` and `content` see.
pub struct ExpandedBody {
    original: Body,
    /// What `for_each` and `labels` of the `dynamic` blocks directly in this
    /// body are evaluated in: the context given to [`expand`], extended by
    /// the iterators around this body.
    for_each_ctx: Arc<eval::Context>,
    /// The iteration this body was generated for, when it is inside a
    /// `dynamic` block's `content` (or a static block nested in one).
    iteration: Option<Arc<Iteration>>,
    /// A body generated from a `dynamic` block whose `for_each` is not
    /// known: every attribute inside is an unknown value (the reference's
    /// `unknownBody`).
    unknown: bool,
    /// Attributes a [`Body::partial_content`] already returned.
    hidden_attributes: Vec<SmolStr>,
    /// Block types a [`Body::partial_content`] already returned, with their
    /// headers, so the original body can still be asked for them without
    /// complaint.
    hidden_blocks: Vec<BlockHeaderSchema>,
}

impl fmt::Debug for ExpandedBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExpandedBody")
            .field("original", &self.original)
            .field("iteration", &self.iteration)
            .field("unknown", &self.unknown)
            .field("hidden_attributes", &self.hidden_attributes)
            .field("hidden_blocks", &self.hidden_blocks)
            .finish_non_exhaustive()
    }
}

/// `dynblock.Expand`: a body in which `dynamic` blocks become the blocks
/// they generate, evaluated in `ctx`.
pub fn expand(body: Body, ctx: &eval::Context) -> Body {
    ExpandedBody::wrap(body, Arc::new(ctx.clone()), None)
}

/// Whether `body` stands for blocks a `dynamic` block would generate from a
/// `for_each` that is not known yet (the reference's `Unknown()` bodies):
/// a decoder should make the whole block's value unknown.
pub fn is_unknown(body: &Body) -> bool {
    matches!(&body.kind, BodyKind::Dynamic(expanded) if expanded.unknown)
}

/// The schema of a `dynamic` block header.
fn dynamic_block_schema() -> BlockHeaderSchema {
    BlockHeaderSchema { type_name: "dynamic".into(), label_names: vec!["type".into()] }
}

/// The schema of a `dynamic` block's body, for a block type with labels or
/// without.
fn dynamic_body_schema(with_labels: bool) -> BodySchema {
    let attribute = |name: &str, required: bool| AttributeSchema { name: name.into(), required };
    let mut attributes = vec![attribute("for_each", true), attribute("iterator", false)];
    if with_labels {
        attributes.push(attribute("labels", true));
    }
    BodySchema {
        attributes,
        blocks: vec![BlockHeaderSchema { type_name: "content".into(), label_names: Vec::new() }],
    }
}

/// A `dynamic` block, read.
struct ExpandSpec {
    block_type: SmolStr,
    block_type_range: Range,
    def_range: Range,
    for_each: Value,
    iterator_name: SmolStr,
    label_exprs: Vec<Expression>,
    content_body: Body,
}

impl ExpandedBody {
    fn wrap(original: Body, for_each_ctx: Arc<eval::Context>, iteration: Option<Arc<Iteration>>) -> Body {
        Body::from_kind(BodyKind::Dynamic(Arc::new(ExpandedBody {
            original,
            for_each_ctx,
            iteration,
            unknown: false,
            hidden_attributes: Vec::new(),
            hidden_blocks: Vec::new(),
        })))
    }

    pub(crate) fn content(&self, schema: &BodySchema) -> (BodyContent, Diagnostics) {
        let (raw, mut diagnostics) = self.original.content(&self.extend_schema(schema));
        let (blocks, block_diagnostics) = self.expand_blocks(schema, raw.blocks, false);
        diagnostics.extend(block_diagnostics);
        (self.finish_content(raw.attributes, blocks), diagnostics)
    }

    pub(crate) fn partial_content(&self, schema: &BodySchema) -> (BodyContent, Body, Diagnostics) {
        // The original's own remainder is of no use: the remainder must still
        // hold every `dynamic` block, for the block types not yet asked for.
        let (raw, _, mut diagnostics) = self.original.partial_content(&self.extend_schema(schema));
        let (blocks, block_diagnostics) = self.expand_blocks(schema, raw.blocks, true);
        diagnostics.extend(block_diagnostics);
        let content = self.finish_content(raw.attributes, blocks);

        let mut hidden_attributes = self.hidden_attributes.clone();
        hidden_attributes.extend(schema.attributes.iter().map(|attribute| attribute.name.clone()));
        let mut hidden_blocks = self.hidden_blocks.clone();
        hidden_blocks.extend(schema.blocks.iter().cloned());
        let remain = Body::from_kind(BodyKind::Dynamic(Arc::new(ExpandedBody {
            original: self.original.clone(),
            for_each_ctx: self.for_each_ctx.clone(),
            iteration: self.iteration.clone(),
            unknown: self.unknown,
            hidden_attributes,
            hidden_blocks,
        })));
        (content, remain, diagnostics)
    }

    /// Every attribute of the original body. Unlike the reference, which
    /// passes this straight to the original body, the attributes see the
    /// iterator variables and leave out those a partial decode took, as
    /// they do in [`ExpandedBody::content`]; the reference's are evaluated
    /// without the iterators, which fails on any reference to them.
    pub(crate) fn just_attributes(&self) -> (Vec<Attribute>, Diagnostics) {
        let (attributes, diagnostics) = self.original.just_attributes();
        (self.prepare_attributes(attributes), diagnostics)
    }

    pub(crate) fn missing_item_range(&self) -> Range {
        self.original.missing_item_range()
    }

    /// The schema asked for, with `dynamic` blocks and whatever an earlier
    /// partial decode took, so the original does not call those
    /// unsupported; they are filtered out again afterwards.
    fn extend_schema(&self, schema: &BodySchema) -> BodySchema {
        let mut extended = schema.clone();
        extended.blocks.push(dynamic_block_schema());
        extended.blocks.extend(self.hidden_blocks.iter().cloned());
        extended.attributes.extend(
            self.hidden_attributes.iter().map(|name| AttributeSchema { name: name.clone(), required: false }),
        );
        extended
    }

    fn finish_content(&self, attributes: Vec<Attribute>, blocks: Vec<Block>) -> BodyContent {
        let mut content = BodyContent {
            attributes: self.prepare_attributes(attributes),
            blocks,
            missing_item_range: self.original.missing_item_range(),
        };
        if self.unknown {
            for block in &mut content.blocks {
                block.body = mark_unknown(&block.body);
            }
        }
        content
    }

    /// Drops hidden attributes and gives the others' expressions the
    /// iteration (or, in an unknown body, an unknown value).
    fn prepare_attributes(&self, attributes: Vec<Attribute>) -> Vec<Attribute> {
        let mut prepared = Vec::with_capacity(attributes.len());
        for mut attribute in attributes {
            if self.hidden_attributes.contains(&attribute.name) {
                continue;
            }
            if self.unknown {
                attribute.expr = Expression::literal(Value::dynamic(), attribute.expr.range());
            } else if let Some(iteration) = &self.iteration {
                attribute.expr = Expression {
                    kind: ExpressionKind::Iterated {
                        expr: Arc::new(attribute.expr),
                        iteration: iteration.clone(),
                    },
                };
            }
            prepared.push(attribute);
        }
        prepared
    }

    fn expand_blocks(
        &self,
        schema: &BodySchema,
        raw_blocks: Vec<Block>,
        partial: bool,
    ) -> (Vec<Block>, Diagnostics) {
        let mut blocks = Vec::new();
        let mut diagnostics = Diagnostics::new();
        for raw in raw_blocks {
            if raw.type_name != "dynamic" {
                if !self.is_block_hidden(&raw.type_name) {
                    // A static block starts no iteration, but what is inside
                    // may refer to the iterators around it, or hold dynamic
                    // blocks of its own.
                    let body = self.expand_child(raw.body.clone(), self.iteration.clone());
                    blocks.push(Block { body, ..raw });
                }
                continue;
            }
            let (Some(real_type), Some(type_label_range)) = (raw.labels.first(), raw.label_ranges.first())
            else {
                // The original already reported the missing label.
                continue;
            };
            if self.is_block_hidden(real_type) {
                continue;
            }
            let Some(block_schema) = schema.blocks.iter().find(|candidate| candidate.type_name == *real_type)
            else {
                if !partial {
                    diagnostics.push(Diagnostic::error(
                        "Unsupported block type",
                        format!("Blocks of type {:?} are not expected here.", real_type.as_str()),
                        Some(type_label_range.clone()),
                    ));
                }
                continue;
            };

            let (spec, spec_diagnostics) = self.decode_spec(block_schema, &raw);
            diagnostics.extend(spec_diagnostics);
            let Some(spec) = spec else { continue };

            match for_each_elements(&spec.for_each) {
                Some(elements) => {
                    for (key, value) in elements {
                        let iteration = Iteration::nested(
                            self.iteration.as_ref(),
                            spec.iterator_name.clone(),
                            key,
                            value,
                        );
                        let (block, block_diagnostics) = self.new_block(&spec, &iteration);
                        diagnostics.extend(block_diagnostics);
                        if let Some(mut block) = block {
                            block.body = self.expand_child(block.body, Some(iteration));
                            blocks.push(block);
                        }
                    }
                }
                None => {
                    // A for_each that is not known yet stands for one block
                    // whose content is all unknown.
                    let iteration = Iteration::nested(
                        self.iteration.as_ref(),
                        spec.iterator_name.clone(),
                        Value::dynamic(),
                        Value::dynamic(),
                    );
                    let (block, block_diagnostics) = self.new_block(&spec, &iteration);
                    diagnostics.extend(block_diagnostics);
                    if let Some(mut block) = block {
                        block.body = mark_unknown(&self.expand_child(block.body, Some(iteration)));
                        blocks.push(block);
                    }
                }
            }
        }
        (blocks, diagnostics)
    }

    fn is_block_hidden(&self, type_name: &str) -> bool {
        self.hidden_blocks.iter().any(|hidden| hidden.type_name == type_name)
    }

    fn expand_child(&self, child: Body, iteration: Option<Arc<Iteration>>) -> Body {
        let ctx = Arc::new(iteration_context(iteration.as_ref(), &self.for_each_ctx));
        ExpandedBody::wrap(child, ctx, iteration)
    }

    /// Reads a `dynamic` block for a block type of the schema; `None` when
    /// it is unusable (the diagnostics say why).
    fn decode_spec(
        &self,
        block_schema: &BlockHeaderSchema,
        raw: &Block,
    ) -> (Option<ExpandSpec>, Diagnostics) {
        let schema = dynamic_body_schema(!block_schema.label_names.is_empty());
        let (content, mut diagnostics) = raw.body.content(&schema);
        if has_errors(&diagnostics) {
            return (None, diagnostics);
        }
        let Some(each) = content.attribute("for_each") else {
            return (None, diagnostics);
        };

        // An error evaluating for_each leaves an unknown value, which makes
        // the unknown block below; the error itself is reported.
        let (for_each, each_diagnostics) = each.expr.value(&self.for_each_ctx);
        diagnostics.extend(each_diagnostics);
        let for_each_ty = for_each.ty();
        let iterable = matches!(
            for_each_ty,
            Type::List(_) | Type::Set(_) | Type::Map(_) | Type::Tuple(_) | Type::Object(_) | Type::Dynamic
        );
        if !iterable {
            diagnostics.push(Diagnostic::error(
                "Invalid dynamic for_each value",
                format!(
                    "Cannot use a {} value in for_each. An iterable collection is required.",
                    for_each_ty.friendly_name()
                ),
                Some(each.expr.range()),
            ));
            return (None, diagnostics);
        }
        if for_each.is_null() {
            diagnostics.push(Diagnostic::error(
                "Invalid dynamic for_each value",
                "Cannot use a null value in for_each.",
                Some(each.expr.range()),
            ));
            return (None, diagnostics);
        }

        let mut iterator_name = block_schema.type_name.clone();
        if let Some(iterator) = content.attribute("iterator") {
            match iterator.expr.as_traversal() {
                Err(traversal_diagnostics) => {
                    diagnostics.extend(traversal_diagnostics);
                    return (None, diagnostics);
                }
                Ok(traversal) if traversal.steps.len() != 1 => {
                    diagnostics.push(Diagnostic::error(
                        "Invalid dynamic iterator name",
                        "Dynamic iterator must be a single variable name.",
                        Some(traversal.range()),
                    ));
                    return (None, diagnostics);
                }
                Ok(traversal) => iterator_name = traversal.root_name().into(),
            }
        }

        let mut label_exprs = Vec::new();
        if let Some(labels) = content.attribute("labels") {
            let Some(exprs) = labels.expr.as_list() else {
                diagnostics.push(Diagnostic::error(
                    "Invalid expression",
                    "A static list expression is required.",
                    Some(labels.expr.range()),
                ));
                return (None, diagnostics);
            };
            let wanted = block_schema.label_names.len();
            let count_detail =
                format!("Blocks of type {:?} require {wanted} label(s).", block_schema.type_name.as_str());
            if exprs.len() > wanted {
                diagnostics.push(Diagnostic::error(
                    "Extraneous dynamic block label",
                    count_detail,
                    Some(exprs[wanted].range()),
                ));
                return (None, diagnostics);
            }
            if exprs.len() < wanted {
                diagnostics.push(Diagnostic::error(
                    "Insufficient dynamic block labels",
                    count_detail,
                    Some(labels.expr.range()),
                ));
                return (None, diagnostics);
            }
            label_exprs = exprs;
        }

        let content_body = match content.blocks.as_slice() {
            [] => {
                diagnostics.push(Diagnostic::error(
                    "Missing dynamic content block",
                    "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
                    Some(content.missing_item_range.clone()),
                ));
                return (None, diagnostics);
            }
            [only] => only.body.clone(),
            [_, second, ..] => {
                diagnostics.push(Diagnostic::error(
                    "Extraneous dynamic content block",
                    "Only one nested content block is allowed for each dynamic block.",
                    Some(second.def_range.clone()),
                ));
                return (None, diagnostics);
            }
        };

        let spec = ExpandSpec {
            block_type: block_schema.type_name.clone(),
            block_type_range: raw.label_ranges.first().cloned().unwrap_or_default(),
            def_range: raw.def_range.clone(),
            for_each,
            iterator_name,
            label_exprs,
            content_body,
        };
        (Some(spec), diagnostics)
    }

    /// The block one iteration generates, its labels evaluated with the
    /// iterator; `None` when a label is unusable.
    fn new_block(&self, spec: &ExpandSpec, iteration: &Iteration) -> (Option<Block>, Diagnostics) {
        let mut diagnostics = Diagnostics::new();
        let label_ctx = iteration.eval_context(&self.for_each_ctx);
        let mut labels = Vec::with_capacity(spec.label_exprs.len());
        let mut label_ranges = Vec::with_capacity(spec.label_exprs.len());
        for label_expr in &spec.label_exprs {
            let (label, label_diagnostics) = label_expr.value(&label_ctx);
            let failed = has_errors(&label_diagnostics);
            diagnostics.extend(label_diagnostics);
            if failed {
                return (None, diagnostics);
            }
            let problem = match value::convert(&label, &Type::String) {
                Err(error) => Some(format!("Cannot use this value as a dynamic block label: {error}.")),
                Ok(label) if label.is_null() => {
                    Some("Cannot use a null value as a dynamic block label.".to_string())
                }
                Ok(label) => match label.as_str() {
                    Some(text) => {
                        labels.push(SmolStr::from(text));
                        None
                    }
                    None => Some(
                        "This value is not yet known. Dynamic block labels must be immediately-known values."
                            .to_string(),
                    ),
                },
            };
            if let Some(detail) = problem {
                diagnostics.push(Diagnostic::error(
                    "Invalid dynamic block label",
                    detail,
                    Some(label_expr.range()),
                ));
                return (None, diagnostics);
            }
            label_ranges.push(label_expr.range());
        }
        let block = Block {
            type_name: spec.block_type.clone(),
            labels,
            body: spec.content_body.clone(),
            def_range: spec.def_range.clone(),
            type_range: spec.block_type_range.clone(),
            label_ranges,
        };
        (Some(block), diagnostics)
    }
}

/// The (key, value) pairs a known `for_each` iterates over, in cty's
/// element order: list and tuple elements by index, set elements keyed by
/// themselves, map elements and object attributes by name. `None` when the
/// value is not known.
fn for_each_elements(for_each: &Value) -> Option<Vec<(Value, Value)>> {
    if !for_each.is_known() {
        return None;
    }
    if let Some(entries) = for_each.entries() {
        return Some(entries.iter().map(|(key, value)| (Value::string(key), value.clone())).collect());
    }
    let elements = for_each.elements().unwrap_or_default();
    let is_set = for_each.ty().is_set();
    Some(
        elements
            .iter()
            .enumerate()
            .map(|(index, element)| {
                let key = if is_set { element.clone() } else { Value::int(index as i64) };
                (key, element.clone())
            })
            .collect(),
    )
}

/// `body` with every attribute inside it unknown, at any depth.
fn mark_unknown(body: &Body) -> Body {
    let expanded = match &body.kind {
        BodyKind::Dynamic(expanded) => ExpandedBody {
            original: expanded.original.clone(),
            for_each_ctx: expanded.for_each_ctx.clone(),
            iteration: expanded.iteration.clone(),
            unknown: true,
            hidden_attributes: expanded.hidden_attributes.clone(),
            hidden_blocks: expanded.hidden_blocks.clone(),
        },
        // Every block an expanded body returns has an expanded body, so this
        // is only for completeness: expansion in an empty context, whose
        // results are all unknown anyway.
        _ => ExpandedBody {
            original: body.clone(),
            for_each_ctx: Arc::new(eval::Context::none()),
            iteration: None,
            unknown: true,
            hidden_attributes: Vec::new(),
            hidden_blocks: Vec::new(),
        },
    };
    Body::from_kind(BodyKind::Dynamic(Arc::new(expanded)))
}
