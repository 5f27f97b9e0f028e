//! What decoding a body with a spec would read from the evaluation context
//! (`hcldec.Variables`), in the reference's form: each traversal stops at
//! the first index that is not a constant (see `decode::traversal`).

use decode::{Body, BodyContent, Traversal};

use crate::spec::{BlockCollectionSpec, BlockMapSpec, BlockSpec, Spec, implied_schema, visit};

/// The traversals decoding `body` with `spec` would evaluate, spec by spec
/// in the order the implied schema visits them. A body that does not fit
/// the spec gives what can be found; decoding reports the rest.
pub fn variables(body: &Body, spec: &Spec) -> Vec<decode::Traversal> {
    let (content, _, _) = body.partial_content(&implied_schema(spec));
    let mut traversals = Vec::new();
    visit(spec, &mut |spec| traversals.extend(variables_needed(spec, &content)));
    traversals
}

fn variables_needed(spec: &Spec, content: &BodyContent) -> Vec<Traversal> {
    match spec {
        Spec::Attr(attr) => match content.attribute(&attr.name) {
            Some(found) => found.expr.reference_variables(),
            None => Vec::new(),
        },
        Spec::Expr(expr) => expr.reference_variables(),
        Spec::Block(BlockSpec { type_name, nested, .. }) => {
            match content.blocks.iter().find(|block| block.type_name == *type_name) {
                Some(block) => variables(&block.body, nested),
                None => Vec::new(),
            }
        }
        Spec::BlockList(BlockCollectionSpec { type_name, nested, .. })
        | Spec::BlockSet(BlockCollectionSpec { type_name, nested, .. })
        | Spec::BlockMap(BlockMapSpec { type_name, nested, .. }) => content
            .blocks
            .iter()
            .filter(|block| block.type_name == *type_name)
            .flat_map(|block| variables(&block.body, nested))
            .collect(),
        Spec::BlockAttrs(attrs) => {
            let Some(block) = content.blocks.iter().find(|block| block.type_name == attrs.type_name) else {
                return Vec::new();
            };
            let (found, diags) = block.body.just_attributes();
            if decode::diagnostic::has_errors(&diags) {
                return Vec::new();
            }
            let mut traversals: Vec<Traversal> =
                found.iter().flat_map(|attr| attr.expr.reference_variables()).collect();
            // Source order, so that errors about them come in source order.
            traversals.sort_by_key(|traversal| traversal.range().start.byte);
            traversals
        }
        // Literals and labels read nothing; objects, arrays, defaults and
        // transforms are visited through their same-body children.
        _ => Vec::new(),
    }
}
