//! Where Terraform's contextual objects may be read: `count`, `each` and
//! `self` have a value only inside certain blocks, and `terraform
//! validate` reports a reference to one outside them.
//!
//! - `count.index` is the index of an instance of a block with `count`
//!   (a resource, data source, ephemeral resource or module call);
//! - `each.key` and `each.value` are the key and value of an instance of a
//!   block with `for_each` (those blocks, an `import` block, and an
//!   OpenTofu provider);
//! - `self` is the resource itself, inside its `provisioner` and
//!   `connection` blocks and its `lifecycle`'s `postcondition` blocks;
//! - a `removed` block's provisioners may read `count.index` and `each`,
//!   since the instances it removes may have come from either; so may an
//!   override file's blocks, merged into blocks of other files.
//!
//! Anywhere else (a local, an output, a variable's validation, a block
//! without the meta-argument, the `count` or `for_each` expression itself)
//! the reference is an error, and so is any attribute of `count` or
//! `each` other than those. The iteration variables of `for` expressions
//! shadow these names and are not references. A `dynamic` block's own
//! `for_each` binds its iterator, not `each`, so it does not make `each`
//! available.
//!
//! Written from Terraform's behaviour (its `internal/terraform/evaluate.go`
//! and `internal/lang/eval.go`) as a specification; the summaries and
//! details are Terraform's words.

use db::{Db, File, module::references};
use hir::{Body, FileHir};
use smol_str::SmolStr;
use syntax::TextRange;

use crate::{Diagnostic, rules};

/// A reference to one of Terraform's contextual objects where it has no
/// value, or to an attribute it does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContextProblem {
    /// `count.index` outside a block with `count`.
    CountOutsideCountedBlock,
    /// `each.key` or `each.value` outside a block with `for_each`.
    EachOutsideForEach,
    /// `self` outside a provisioner, connection or postcondition.
    SelfOutsideResource,
}

impl ContextProblem {
    pub fn summary(self) -> &'static str {
        match self {
            ContextProblem::CountOutsideCountedBlock => "Reference to \"count\" in non-counted context",
            ContextProblem::EachOutsideForEach => "Reference to \"each\" in context without for_each",
            ContextProblem::SelfOutsideResource => "Invalid \"self\" reference",
        }
    }

    pub fn detail(self) -> &'static str {
        match self {
            ContextProblem::CountOutsideCountedBlock => {
                "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, \
                 and only when the \"count\" argument is set."
            }
            ContextProblem::EachOutsideForEach => {
                "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only \
                 when the \"for_each\" argument is set."
            }
            ContextProblem::SelfOutsideResource => {
                "The \"self\" object is not available in this context. This object can be used only \
                 in resource provisioner, connection, and postcondition blocks."
            }
        }
    }
}

/// What a body's expressions may read: whether its top-level block has
/// `count`, `for_each`, and whether the body is inside a block where
/// `self` is the resource.
#[derive(Debug, Clone, Copy)]
struct Context {
    counted: bool,
    for_each: bool,
    self_available: bool,
}

/// The references of `file` to `count`, `each` and `self` that have no
/// value where they are, and to attributes those objects do not have, as
/// `terraform validate` reports them. A native Terraform configuration
/// file without syntax errors only: a broken file's tree is a guess, and a
/// JSON file's expressions are strings the model evaluates. A query per
/// file, read by the host while the file's tree is in memory, as
/// Terraform's schema checks are.
#[salsa::tracked(returns(ref))]
pub fn context_diagnostics(db: &dyn Db, file: File) -> Vec<Diagnostic> {
    if !is_configuration(db, file) || !crate::syntax_diagnostics(db, file).is_empty() {
        return Vec::new();
    }
    // An override file's block is merged into the block it overrides,
    // whose `count` or `for_each` it keeps: which one is not known from
    // this file alone, so both are taken to be available.
    let overrides = vfs::is_terraform_override_file(file.path(db));
    let hir = db::lower(db, file);
    let mut found: Vec<(hir::ExprId, Finding)> = Vec::new();
    for &block in &hir.body.blocks {
        let body = &hir[block].body;
        let has = |name: &str| body.attributes.iter().any(|&it| hir[it].name == name);
        // A `removed` block's provisioners run for instances that may have
        // come from `count` or `for_each`: both are available there, and it
        // is up to the configuration to use the right one.
        let removed = hir[block].type_name == "removed";
        let context = Context {
            counted: overrides || removed || has("count"),
            for_each: overrides || removed || has("for_each"),
            self_available: false,
        };
        walk(hir, body, context, true, &mut found);
    }
    if found.is_empty() {
        return Vec::new();
    }
    // The source map only where something is wrong: most files have none.
    let source_map = db::source_map(db, file);
    let mut out: Vec<Diagnostic> = found
        .into_iter()
        .filter_map(|(expr, finding)| {
            let range = source_map.expr_syntax(expr)?.text_range();
            Some(finding.diagnostic(file, range))
        })
        .collect();
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

/// One wrong reference: out of its context, or naming an attribute the
/// object does not have.
#[derive(Debug, Clone)]
enum Finding {
    Context(ContextProblem),
    UnsupportedAttribute { object: &'static str, name: SmolStr },
}

impl Finding {
    fn diagnostic(&self, file: File, range: TextRange) -> Diagnostic {
        let (code, summary, detail) = match self {
            Finding::Context(problem) => {
                (rules::OUT_OF_CONTEXT_REFERENCE, problem.summary().to_owned(), problem.detail().to_owned())
            }
            Finding::UnsupportedAttribute { object: "count", name } => (
                rules::UNKNOWN_ATTRIBUTE,
                "Invalid \"count\" attribute".to_owned(),
                format!(
                    "The \"count\" object does not have an attribute named {:?}. The only supported \
                     attribute is count.index, which is the index of each instance of a resource \
                     block that has the \"count\" argument set.",
                    name.as_str()
                ),
            ),
            Finding::UnsupportedAttribute { name, .. } => (
                rules::UNKNOWN_ATTRIBUTE,
                "Invalid \"each\" attribute".to_owned(),
                format!(
                    "The \"each\" object does not have an attribute named {:?}. The supported \
                     attributes are each.key and each.value, the current key and value pair of the \
                     \"for_each\" attribute set.",
                    name.as_str()
                ),
            ),
        };
        let severity = rules::rule(code).map_or(crate::Severity::Error, |rule| rule.default_severity);
        Diagnostic::new(severity, code, summary, file, range).with_note(detail)
    }
}

/// Collects the wrong references of `body`'s attributes and nested blocks.
/// `top` is whether `body` is a top-level block's, whose `count` and
/// `for_each` are evaluated before any instance exists.
fn walk(hir: &FileHir, body: &Body, context: Context, top: bool, found: &mut Vec<(hir::ExprId, Finding)>) {
    // Explicit stack: nested blocks may be deep.
    let mut stack = vec![(body, context, top)];
    while let Some((body, context, top)) = stack.pop() {
        for &attribute in &body.attributes {
            let attribute = &hir[attribute];
            let own = if top && matches!(attribute.name.as_str(), "count" | "for_each") {
                Context { counted: false, for_each: false, ..context }
            } else {
                context
            };
            for reference in references(&hir.exprs, attribute.value) {
                check(&reference, own, found);
            }
        }
        for &nested in &body.blocks {
            let nested = &hir[nested];
            let self_available = context.self_available
                || matches!(nested.type_name.as_str(), "provisioner" | "connection" | "postcondition");
            stack.push((&nested.body, Context { self_available, ..context }, false));
        }
    }
}

fn check(reference: &db::module::Reference, context: Context, found: &mut Vec<(hir::ExprId, Finding)>) {
    // The whole reference as far as its first attribute (`count.index`), as
    // Terraform's subject covers it; the root alone for `self`.
    let through_first = reference.links.get(1).or(reference.links.first()).copied();
    let root = reference.links[0];
    match reference.root.as_str() {
        "count" => {
            let Some(name) = reference.attrs.first() else { return };
            let Some(at) = through_first else { return };
            if name != "index" {
                found.push((at, Finding::UnsupportedAttribute { object: "count", name: name.clone() }));
            } else if !context.counted {
                found.push((at, Finding::Context(ContextProblem::CountOutsideCountedBlock)));
            }
        }
        "each" => {
            let Some(name) = reference.attrs.first() else { return };
            let Some(at) = through_first else { return };
            if name != "key" && name != "value" {
                found.push((at, Finding::UnsupportedAttribute { object: "each", name: name.clone() }));
            } else if !context.for_each {
                found.push((at, Finding::Context(ContextProblem::EachOutsideForEach)));
            }
        }
        "self" if !context.self_available => {
            found.push((root, Finding::Context(ContextProblem::SelfOutsideResource)));
        }
        _ => {}
    }
}

/// Whether [`context_diagnostics`] reads the file at all (a Terraform
/// configuration file in the native syntax): it finds nothing in any
/// other, and a caller that asks of every file need not make it a memo to
/// say so.
pub fn is_configuration(db: &dyn Db, file: File) -> bool {
    vfs::FileKind::of_named(file.path(db)).language == vfs::Language::Terraform
        && file.syntax(db) == db::SourceSyntax::Native
}
