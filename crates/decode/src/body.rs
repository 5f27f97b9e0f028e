//! Bodies and their content under a schema (`spec/information-model.md`,
//! "Structural Elements" and "Schema-driven Processing").
//!
//! Each kind of body answers for itself: native bodies here (over the HIR,
//! with ranges from its source map), JSON bodies in `crate::json`, merged
//! bodies as the reference's `MergeBodies` reads them, and bodies of dynamic
//! block expansion in `crate::dynblock`.

use std::sync::Arc;

use smol_str::SmolStr;

use crate::{Diagnostic, Diagnostics, Expression, Range, SourceFile, diagnostic::go_quote, native};

/// An attribute the schema asks for; `required` makes its absence an error
/// ("Missing required argument").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeSchema {
    pub name: SmolStr,
    pub required: bool,
}

/// A block type the schema asks for, with the names of its labels (their
/// count is the number of labels each block of the type must have).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockHeaderSchema {
    pub type_name: SmolStr,
    pub label_names: Vec<SmolStr>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BodySchema {
    pub attributes: Vec<AttributeSchema>,
    pub blocks: Vec<BlockHeaderSchema>,
}

#[derive(Debug, Clone)]
pub struct Attribute {
    pub name: SmolStr,
    pub expr: Expression,
    /// The whole attribute definition.
    pub range: Range,
    pub name_range: Range,
}

#[derive(Debug, Clone)]
pub struct Block {
    pub type_name: SmolStr,
    pub labels: Vec<SmolStr>,
    pub body: Body,
    /// The block's header: type and labels, up to the opening brace.
    pub def_range: Range,
    pub type_range: Range,
    pub label_ranges: Vec<Range>,
}

/// What a schema found in a body: attributes by name (in source order) and
/// blocks in source order.
#[derive(Debug, Clone, Default)]
pub struct BodyContent {
    pub attributes: Vec<Attribute>,
    pub blocks: Vec<Block>,
    /// Where an item that is missing would have gone, for diagnostics.
    pub missing_item_range: Range,
}

impl BodyContent {
    pub fn attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|attribute| attribute.name == name)
    }
}

/// A body of either syntax, or several merged, with the items a partial
/// decode already consumed hidden.
#[derive(Debug, Clone)]
pub struct Body {
    pub(crate) kind: BodyKind,
    /// Attribute names consumed by an earlier [`Body::partial_content`].
    pub(crate) hidden_attributes: Arc<Vec<SmolStr>>,
    /// Block types consumed by an earlier [`Body::partial_content`].
    pub(crate) hidden_blocks: Arc<Vec<SmolStr>>,
}

#[derive(Debug, Clone)]
pub(crate) enum BodyKind {
    Empty,
    /// The top-level body of a native file (`block: None`) or a block's body.
    Native {
        file: Arc<SourceFile>,
        block: Option<hir::BlockId>,
    },
    /// A JSON body: one object, or the objects of an array of objects,
    /// given as the JSON value nodes.
    Json {
        file: Arc<SourceFile>,
        values: Vec<hir::SyntaxNodePtr>,
    },
    /// `MergeBodies`: several bodies read as one.
    Merged(Vec<Body>),
    /// A body produced by dynamic block expansion (`crate::dynblock`).
    Dynamic(Arc<crate::dynblock::ExpandedBody>),
}

impl Body {
    pub(crate) fn from_kind(kind: BodyKind) -> Body {
        Body { kind, hidden_attributes: Arc::default(), hidden_blocks: Arc::default() }
    }

    /// A native file's top-level body (`block: None`) or a block's body.
    pub(crate) fn native(file: Arc<SourceFile>, block: Option<hir::BlockId>) -> Body {
        Body::from_kind(BodyKind::Native { file, block })
    }

    /// A body with nothing in it (the reference's `hcl.EmptyBody`).
    pub fn empty() -> Body {
        Body::from_kind(BodyKind::Empty)
    }

    /// Several bodies read as one (the reference's `hcl.MergeBodies`),
    /// as `hcldec` does for several input files. Merged bodies among
    /// `bodies` are flattened into the result.
    pub fn merge(bodies: Vec<Body>) -> Body {
        let mut flat = Vec::with_capacity(bodies.len());
        for body in bodies {
            match body.kind {
                BodyKind::Merged(children) => flat.extend(children),
                _ => flat.push(body),
            }
        }
        if flat.is_empty() {
            return Body::empty();
        }
        Body::from_kind(BodyKind::Merged(flat))
    }

    /// Whether an attribute of this name was consumed by an earlier
    /// partial decode.
    pub(crate) fn is_attribute_hidden(&self, name: &str) -> bool {
        self.hidden_attributes.iter().any(|hidden| hidden == name)
    }

    /// Whether blocks of this type were consumed by an earlier partial
    /// decode.
    pub(crate) fn is_block_hidden(&self, type_name: &str) -> bool {
        self.hidden_blocks.iter().any(|hidden| hidden == type_name)
    }

    /// The content the schema asks for; anything else is an error
    /// ("Unsupported argument", "Unsupported block type", ...).
    pub fn content(&self, schema: &BodySchema) -> (BodyContent, Diagnostics) {
        match &self.kind {
            // The reference's empty body is a merge of no bodies, so it
            // still reports required attributes as missing.
            BodyKind::Empty => {
                let (content, _, diagnostics) = merged_content(&[], schema, false);
                (content, diagnostics)
            }
            BodyKind::Native { file, block } => native::content(self, file, *block, schema),
            BodyKind::Json { file, values } => crate::json::content(self, file, values, schema),
            BodyKind::Merged(bodies) => {
                let (content, _, diagnostics) = merged_content(bodies, schema, false);
                (content, diagnostics)
            }
            BodyKind::Dynamic(expanded) => expanded.content(schema),
        }
    }

    /// The content the schema asks for, and a body holding the rest.
    pub fn partial_content(&self, schema: &BodySchema) -> (BodyContent, Body, Diagnostics) {
        match &self.kind {
            BodyKind::Empty => merged_content(&[], schema, true),
            BodyKind::Native { file, block } => native::partial_content(self, file, *block, schema),
            BodyKind::Json { file, values } => crate::json::partial_content(self, file, values, schema),
            BodyKind::Merged(bodies) => merged_content(bodies, schema, true),
            BodyKind::Dynamic(expanded) => expanded.partial_content(schema),
        }
    }

    /// Every item as an attribute; a block is an error ("Unexpected ... block").
    pub fn just_attributes(&self) -> (Vec<Attribute>, Diagnostics) {
        match &self.kind {
            BodyKind::Empty => (Vec::new(), Diagnostics::new()),
            BodyKind::Native { file, block } => native::just_attributes(self, file, *block),
            BodyKind::Json { file, values } => crate::json::just_attributes(self, file, values),
            BodyKind::Merged(bodies) => merged_just_attributes(bodies),
            BodyKind::Dynamic(expanded) => expanded.just_attributes(),
        }
    }

    /// Where an item that is missing from this body would have gone.
    pub fn missing_item_range(&self) -> Range {
        match &self.kind {
            BodyKind::Empty => empty_range(),
            BodyKind::Native { file, block } => native::missing_item_range(file, *block),
            BodyKind::Json { file, values } => crate::json::missing_item_range(file, values),
            BodyKind::Merged(bodies) => bodies.first().map_or_else(empty_range, Body::missing_item_range),
            BodyKind::Dynamic(expanded) => expanded.missing_item_range(),
        }
    }
}

/// The missing-item range of an empty body, the reference's: no position,
/// in a file named `<empty>`.
fn empty_range() -> Range {
    Range { filename: Arc::from("<empty>"), ..Range::default() }
}

/// The reference's message for an attribute defined in two merged bodies.
fn duplicate_argument(name: &str, existing: &Attribute, duplicate: &Attribute) -> Diagnostic {
    Diagnostic::error(
        "Duplicate argument",
        format!("Argument {} was already set at {}", go_quote(name), existing.name_range),
        Some(duplicate.name_range.clone()),
    )
}

/// The content of merged bodies: each body decoded with the schema (its
/// required attributes made optional, since another body may define them),
/// an attribute defined twice an error, and required attributes checked
/// over the union.
fn merged_content(bodies: &[Body], schema: &BodySchema, partial: bool) -> (BodyContent, Body, Diagnostics) {
    let lenient = BodySchema {
        attributes: schema
            .attributes
            .iter()
            .map(|attribute| AttributeSchema { name: attribute.name.clone(), required: false })
            .collect(),
        blocks: schema.blocks.clone(),
    };
    let mut content = BodyContent {
        missing_item_range: bodies.first().map_or_else(empty_range, Body::missing_item_range),
        ..BodyContent::default()
    };
    let mut leftovers = Vec::new();
    let mut diagnostics = Diagnostics::new();
    for body in bodies {
        let (this, this_diagnostics) = if partial {
            let (this, rest, this_diagnostics) = body.partial_content(&lenient);
            leftovers.push(rest);
            (this, this_diagnostics)
        } else {
            body.content(&lenient)
        };
        diagnostics.extend(this_diagnostics);
        for attribute in this.attributes {
            if let Some(existing) = content.attribute(&attribute.name) {
                diagnostics.push(duplicate_argument(&attribute.name, existing, &attribute));
                continue;
            }
            content.attributes.push(attribute);
        }
        content.blocks.extend(this.blocks);
    }
    for attribute in schema.attributes.iter().filter(|attribute| attribute.required) {
        if content.attribute(&attribute.name).is_none() {
            diagnostics.push(Diagnostic::error(
                "Missing required argument",
                format!("The argument {} is required, but was not set.", go_quote(&attribute.name)),
                None,
            ));
        }
    }
    (content, Body::merge(leftovers), diagnostics)
}

fn merged_just_attributes(bodies: &[Body]) -> (Vec<Attribute>, Diagnostics) {
    let mut attributes: Vec<Attribute> = Vec::new();
    let mut diagnostics = Diagnostics::new();
    for body in bodies {
        let (these, these_diagnostics) = body.just_attributes();
        diagnostics.extend(these_diagnostics);
        for attribute in these {
            if let Some(existing) = attributes.iter().find(|it| it.name == attribute.name) {
                diagnostics.push(duplicate_argument(&attribute.name, existing, &attribute));
                continue;
            }
            attributes.push(attribute);
        }
    }
    (attributes, diagnostics)
}

/// The closest of `candidates` to `given`, as the reference suggests
/// names: the first whose Levenshtein distance is under 3.
pub(crate) fn name_suggestion<'a>(
    given: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates.into_iter().find(|candidate| strsim::levenshtein(given, candidate) < 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_suggestion_is_the_first_name_within_two_edits() {
        assert_eq!(name_suggestion("fooo", ["x", "foo", "fo"]), Some("foo"));
        assert_eq!(name_suggestion("b", ["a", "foo"]), Some("a"));
        assert_eq!(name_suggestion("bar", ["x", "svc"]), None);
    }
}
