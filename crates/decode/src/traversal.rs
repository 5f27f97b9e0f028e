//! Traversals: what an expression reads from its context.
//!
//! The reference's analysis (`spec/traversal-analysis-notes.txt`) loses the
//! steps after an index whose key is not a constant: `foo.x[count.index].name`
//! yields `count.index` and a bare `foo.x`. Halite keeps them: the traversal
//! is `foo.x[…].name`, the dynamic index as [`TraversalStep::DynamicIndex`].
//! [`crate::Expression::reference_variables`] gives the reference's form,
//! which `hcldec --var-refs` prints.

use smol_str::SmolStr;
use value::Value;

use crate::Range;

#[derive(Debug, Clone, PartialEq)]
pub enum TraversalStep {
    Root { name: SmolStr, range: Range },
    Attr { name: SmolStr, range: Range },
    /// `[key]` with a constant key (or a legacy `.0`).
    Index { key: Value, range: Range },
    /// `[expr]` whose key is only known at evaluation.
    DynamicIndex { range: Range },
}

/// A root name followed by steps; the first step is always a
/// [`TraversalStep::Root`].
#[derive(Debug, Clone, PartialEq)]
pub struct Traversal {
    pub steps: Vec<TraversalStep>,
}

impl Traversal {
    pub fn root_name(&self) -> &str {
        match self.steps.first() {
            Some(TraversalStep::Root { name, .. }) => name,
            _ => "",
        }
    }

    /// From the root's start to the last step's end.
    pub fn range(&self) -> Range {
        todo!()
    }
}
