//! Bodies and their content under a schema (`spec/information-model.md`,
//! "Structural Elements" and "Schema-driven Processing").

use std::sync::Arc;

use smol_str::SmolStr;

use crate::{Diagnostics, Expression, Range, SourceFile};

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
    Native { file: Arc<SourceFile>, block: Option<hir::BlockId> },
    /// A JSON body: one object, or the objects of an array of objects,
    /// given as the JSON value nodes.
    Json { file: Arc<SourceFile>, values: Vec<hir::SyntaxNodePtr> },
    /// `MergeBodies`: several bodies read as one.
    Merged(Vec<Body>),
    /// A body produced by dynamic block expansion (`crate::dynblock`).
    Dynamic(Arc<crate::dynblock::ExpandedBody>),
}

impl Body {
    pub fn empty() -> Body {
        todo!()
    }

    /// Several bodies read as one (the reference's `hcl.MergeBodies`),
    /// as `hcldec` does for several input files.
    pub fn merge(bodies: Vec<Body>) -> Body {
        todo!()
    }

    /// The content the schema asks for; anything else is an error
    /// ("Unsupported argument", "Unsupported block type", ...).
    pub fn content(&self, schema: &BodySchema) -> (BodyContent, Diagnostics) {
        todo!()
    }

    /// The content the schema asks for, and a body holding the rest.
    pub fn partial_content(&self, schema: &BodySchema) -> (BodyContent, Body, Diagnostics) {
        todo!()
    }

    /// Every item as an attribute; a block is an error ("Unexpected ... block").
    pub fn just_attributes(&self) -> (Vec<Attribute>, Diagnostics) {
        todo!()
    }

    /// Where an item that is missing from this body would have gone.
    pub fn missing_item_range(&self) -> Range {
        todo!()
    }
}
