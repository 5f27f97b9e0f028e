//! Dynamic blocks (`spec/ext-dynblock.md`): `dynamic "TYPE" { for_each =
//! …, iterator = …, labels = […], content { … } }` expanded into one block
//! of `TYPE` per element, lazily, as the body's content is asked for.

use crate::{Body, Traversal};

/// The state of an expanded body: the body it wraps and the evaluation
/// context its `for_each` and `content` see.
#[derive(Debug)]
pub struct ExpandedBody {}

/// `dynblock.Expand`: a body in which `dynamic` blocks become the blocks
/// they generate, evaluated in `ctx`.
pub fn expand(body: Body, ctx: &eval::Context) -> Body {
    todo!()
}

/// What the `dynamic` blocks of `body` reference (their `for_each` and
/// `labels`), for the block types `schema` names, recursively for nested
/// blocks as `hcldec.Variables` needs.
pub fn variables(body: &Body, schema: &crate::BodySchema) -> Vec<Traversal> {
    todo!()
}
