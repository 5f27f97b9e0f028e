//! What a body with `dynamic` blocks needs from its context before it is
//! expanded (the reference's `dynblock.WalkVariables` and
//! `VariablesHCLDec`): the traversals of the attributes a schema asks for,
//! and of each `dynamic` block's `for_each` and `labels`, without those
//! that refer to the iterators themselves.

use std::sync::Arc;

use smol_str::SmolStr;
use value::Value;

use super::{Iteration, dynamic_block_schema};
use crate::{AttributeSchema, BlockHeaderSchema, Body, BodySchema, Expression, Traversal};

/// A schema for a body and, for each of its block types, the schema of those
/// blocks' bodies, as far down as the caller knows them: what a decoder's
/// spec tree gives (`hcldec.ImpliedSchema` and `hcldec.ChildBlockTypes`).
pub trait NestedSchema {
    fn schema(&self) -> BodySchema;
    /// The schema of the bodies of blocks of `block_type`; `None` stops the
    /// walk there.
    fn child(&self, block_type: &str) -> Option<&dyn NestedSchema>;
}

/// A lone schema: nothing below its own body is walked.
impl NestedSchema for BodySchema {
    fn schema(&self) -> BodySchema {
        self.clone()
    }

    fn child(&self, _block_type: &str) -> Option<&dyn NestedSchema> {
        None
    }
}

/// A schema with the schemas of its block types' bodies.
#[derive(Debug, Clone, Default)]
pub struct SchemaTree {
    pub schema: BodySchema,
    pub children: Vec<(SmolStr, SchemaTree)>,
}

impl NestedSchema for SchemaTree {
    fn schema(&self) -> BodySchema {
        self.schema.clone()
    }

    fn child(&self, block_type: &str) -> Option<&dyn NestedSchema> {
        self.children.iter().find(|(name, _)| name == block_type).map(|(_, child)| child as &dyn NestedSchema)
    }
}

/// What the `dynamic` blocks of `body` reference (their `for_each` and
/// `labels`) and what the attributes `schema` asks for reference, for the
/// block types `schema` names, recursively for nested blocks as far as the
/// schema goes (`dynblock.VariablesHCLDec`). Traversals keep the steps after
/// a dynamic index ([`Expression::variables`]).
pub fn variables(body: &Body, schema: &dyn NestedSchema) -> Vec<Traversal> {
    let mut found = Vec::new();
    walk(body, None, schema, Walk { analysis: Expression::variables, attributes: true }, &mut found);
    found
}

/// Only what expanding the `dynamic` blocks needs: their `for_each` and
/// `labels`, at every depth the schema goes, and none of the attributes
/// (`dynblock.ExpandVariablesHCLDec`), for a caller that expands first and
/// evaluates the attributes later.
pub fn expand_variables(body: &Body, schema: &dyn NestedSchema) -> Vec<Traversal> {
    let mut found = Vec::new();
    walk(body, None, schema, Walk { analysis: Expression::variables, attributes: false }, &mut found);
    found
}

/// The same with the reference's traversal analysis
/// ([`Expression::reference_variables`]), for output that must match it.
pub fn reference_variables(body: &Body, schema: &dyn NestedSchema) -> Vec<Traversal> {
    let mut found = Vec::new();
    let how = Walk { analysis: Expression::reference_variables, attributes: true };
    walk(body, None, schema, how, &mut found);
    found
}

/// The schema of a `dynamic` block's body when only its references are
/// wanted: nothing is required, so an incomplete block is still read.
fn inner_schema() -> BodySchema {
    let attribute = |name: &str| AttributeSchema { name: name.into(), required: false };
    BodySchema {
        attributes: vec![attribute("for_each"), attribute("labels"), attribute("iterator")],
        blocks: vec![BlockHeaderSchema { type_name: "content".into(), label_names: Vec::new() }],
    }
}

/// How a walk collects references.
#[derive(Clone, Copy)]
struct Walk {
    /// The traversal analysis: Halite's, or the reference's.
    analysis: fn(&Expression) -> Vec<Traversal>,
    /// Whether the attributes the schema asks for count, or only what the
    /// `dynamic` blocks need to expand.
    attributes: bool,
}

/// One body's references, then those of its child blocks whose types the
/// schema goes on into, in the reference's order.
fn walk(
    body: &Body,
    iteration: Option<&Arc<Iteration>>,
    schema: &dyn NestedSchema,
    how: Walk,
    found: &mut Vec<Traversal>,
) {
    let analysis = how.analysis;
    let mut extended = schema.schema();
    extended.blocks.push(dynamic_block_schema());
    // Problems are for the decode proper to report; this walk only collects
    // what it can read.
    let (container, _, _) = body.partial_content(&extended);
    let bound =
        |traversal: &Traversal| iteration.is_some_and(|iteration| iteration.binds(traversal.root_name()));

    for attribute in container.attributes.iter().filter(|_| how.attributes) {
        found.extend(analysis(&attribute.expr).into_iter().filter(|traversal| !bound(traversal)));
    }

    let mut children: Vec<(SmolStr, Body, Option<Arc<Iteration>>)> = Vec::new();
    for block in &container.blocks {
        if block.type_name != "dynamic" {
            children.push((block.type_name.clone(), block.body.clone(), iteration.cloned()));
            continue;
        }
        let Some(block_type) = block.labels.first() else { continue };
        let (inner, _, _) = block.body.partial_content(&inner_schema());
        let mut iterator_name = block_type.clone();
        if let Some(iterator) = inner.attribute("iterator") {
            match iterator.expr.as_traversal() {
                Ok(traversal) if !traversal.steps.is_empty() => iterator_name = traversal.root_name().into(),
                _ => continue,
            }
        }
        let block_iteration = Iteration::nested(iteration, iterator_name, Value::dynamic(), Value::dynamic());

        // for_each is evaluated outside its own iteration, so a reference to
        // a variable named like its iterator is the caller's.
        if let Some(for_each) = inner.attribute("for_each") {
            found.extend(
                analysis(&for_each.expr)
                    .into_iter()
                    .filter(|traversal| !block_iteration.inherited.contains_key(traversal.root_name())),
            );
        }
        if let Some(labels) = inner.attribute("labels") {
            found.extend(
                analysis(&labels.expr)
                    .into_iter()
                    .filter(|traversal| !block_iteration.binds(traversal.root_name())),
            );
        }
        for content in &inner.blocks {
            children.push((block_type.clone(), content.body.clone(), Some(block_iteration.clone())));
        }
    }

    for (block_type, child_body, child_iteration) in children {
        if let Some(child_schema) = schema.child(&block_type) {
            walk(&child_body, child_iteration.as_ref(), child_schema, how, found);
        }
    }
}
