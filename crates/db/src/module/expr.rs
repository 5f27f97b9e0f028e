//! One attribute's expression as its own small arena, and what it
//! references.
//!
//! A file's HIR keeps every expression in one arena, so an edit anywhere in
//! the file changes it. Copying one attribute's expression out into an arena
//! of its own gives a value that compares equal as long as that attribute's
//! expression did not change, which is what lets salsa skip re-evaluating it
//! (see [`crate::module::attribute_expr`]). The copy is made in a fixed
//! order, so running it again over the file's HIR gives the same ids and the
//! mapping back to the file's expressions, which diagnostics need for
//! ranges.

use la_arena::Arena;
use smol_str::SmolStr;

use hir::{Expr, ExprId, Exprs, ObjectItem, ObjectKey, TemplateFor, TemplateIf, TemplatePart};

/// An attribute's expression: its nodes only, ids by position, and the
/// root. One allocation holds the root and the nodes: a module keeps one
/// of these for every attribute, shared by its file's copies and its
/// resolution, and a separate arena behind a separate pointer was two
/// allocations and a header more per attribute.
#[derive(Clone)]
pub struct AttrExpr {
    /// The root's index as the header; the nodes as the slice.
    inner: triomphe::ThinArc<u32, Expr>,
}

impl AttrExpr {
    /// The expression of `exprs` (ids by position) rooted at `root`.
    pub fn new(exprs: Vec<Expr>, root: ExprId) -> AttrExpr {
        AttrExpr { inner: triomphe::ThinArc::from_header_and_iter(index(root), exprs.into_iter()) }
    }

    /// A whole arena's expressions, rooted at `root` (a JSON value lowered
    /// on its own).
    pub fn from_arena(exprs: Arena<Expr>, root: ExprId) -> AttrExpr {
        AttrExpr::new(exprs.into_iter().map(|(_, expr)| expr).collect(), root)
    }

    pub fn exprs(&self) -> Exprs<'_> {
        Exprs::new(&self.inner.slice)
    }

    pub fn root(&self) -> ExprId {
        hir::expr_id(self.inner.header.header)
    }
}

impl PartialEq for AttrExpr {
    fn eq(&self, other: &AttrExpr) -> bool {
        self.inner.ptr() == other.inner.ptr()
            || (self.inner.header.header == other.inner.header.header
                && self.inner.slice == other.inner.slice)
    }
}

impl Eq for AttrExpr {}

impl std::fmt::Debug for AttrExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AttrExpr").field("exprs", &&self.inner.slice[..]).field("root", &self.root()).finish()
    }
}

/// Copies the expression at `root` of `exprs` into an arena of its own.
/// Returns the copy and, for each id of the copy in order, the id it came
/// from.
pub fn extract(exprs: &Arena<Expr>, root: ExprId) -> (AttrExpr, Vec<ExprId>) {
    let mut origins = Vec::new();
    let expr = copy(exprs, root, Some(&mut origins));
    (expr, origins)
}

/// [`extract`] without the ids the copy came from: what a module keeps.
pub fn extract_expr(exprs: &Arena<Expr>, root: ExprId) -> AttrExpr {
    copy(exprs, root, None)
}

fn copy(exprs: &Arena<Expr>, root: ExprId, origins: Option<&mut Vec<ExprId>>) -> AttrExpr {
    // Sized exactly: kept for as long as the file is loaded, and a file of
    // one huge expression would otherwise hold a grown arena's slack.
    let subtree = Subtree::of(exprs, root);
    let mut copy = Vec::with_capacity(subtree.count);
    let root = copy_subtree(&mut copy, exprs, root, &subtree, origins);
    AttrExpr::new(copy, root)
}

/// The size of the expression at a root, and the span of ids it covers.
struct Subtree {
    count: usize,
    lowest: u32,
    highest: u32,
}

impl Subtree {
    fn of(exprs: &Arena<Expr>, root: ExprId) -> Subtree {
        let mut subtree = Subtree { count: 0, lowest: index(root), highest: index(root) };
        // Room for most expressions' pending nodes: a copy is made of every
        // attribute, and a stack grown a step at a time reallocates.
        let mut stack = Vec::with_capacity(16);
        stack.push(root);
        while let Some(id) = stack.pop() {
            subtree.count += 1;
            subtree.lowest = subtree.lowest.min(index(id));
            subtree.highest = subtree.highest.max(index(id));
            exprs[id].children(&mut stack);
        }
        subtree
    }
}

fn index(id: ExprId) -> u32 {
    id.into_raw().into_u32()
}

/// Copies the expression at `root` of `exprs` (`subtree` measures it) into
/// `into`, children before parents, and returns the copy's id; `origins`
/// gets the id each new node came from.
fn copy_subtree(
    into: &mut Vec<Expr>,
    exprs: &Arena<Expr>,
    root: ExprId,
    subtree: &Subtree,
    mut origins: Option<&mut Vec<ExprId>>,
) -> ExprId {
    // The new id of each old one, by its offset in the subtree's span of ids
    // (a lowered expression's ids are contiguous, so the span is its size).
    let mut new_ids =
        NewIds { lowest: subtree.lowest, ids: vec![None; (subtree.highest - subtree.lowest) as usize + 1] };
    if let Some(origins) = origins.as_deref_mut() {
        origins.reserve(subtree.count);
    }
    // An explicit post-order walk: accessor and operator chains can be
    // thousands of links long, too deep to copy by recursion. Children are
    // copied before their parent, so the parent's copy can name them.
    // Each node is on the stack at most twice (before and after its
    // children), so this never grows.
    let mut stack = Vec::with_capacity(2 * subtree.count);
    stack.push((root, false));
    let mut children = Vec::with_capacity(8);
    while let Some((id, children_done)) = stack.pop() {
        if children_done {
            let new_id = push(into, remap(&exprs[id], &new_ids));
            new_ids.set(id, new_id);
            if let Some(origins) = origins.as_deref_mut() {
                origins.push(id);
            }
            continue;
        }
        stack.push((id, true));
        children.clear();
        exprs[id].children(&mut children);
        // Reversed so that the first child is copied first: the order is
        // only required to be fixed, but source order is easier to read in
        // a debugger.
        stack.extend(children.iter().rev().map(|&child| (child, false)));
    }
    new_ids.get(root).unwrap_or_else(|| push(into, Expr::Missing))
}

/// Appends `expr` to `into`, returning its id (its position).
fn push(into: &mut Vec<Expr>, expr: Expr) -> ExprId {
    into.push(expr);
    hir::expr_id(into.len() as u32 - 1)
}

/// Old ids to new, densely over a subtree's span of ids.
struct NewIds {
    lowest: u32,
    ids: Vec<Option<ExprId>>,
}

impl NewIds {
    fn slot(&self, old: ExprId) -> Option<usize> {
        index(old).checked_sub(self.lowest).map(|offset| offset as usize)
    }

    fn get(&self, old: ExprId) -> Option<ExprId> {
        self.ids.get(self.slot(old)?).copied().flatten()
    }

    fn set(&mut self, old: ExprId, new: ExprId) {
        if let Some(slot) = self.slot(old).and_then(|slot| self.ids.get_mut(slot)) {
            *slot = Some(new);
        }
    }
}

/// Every expression directly under `expr`, in source order.
/// `expr` with its children's ids replaced by their copies' ids.
fn remap(expr: &Expr, new_ids: &NewIds) -> Expr {
    // Every child was copied before its parent; a child missing from the map
    // cannot happen, but `Missing`'s id is no worse than a panic if it did.
    let id = |old: &ExprId| new_ids.get(*old).unwrap_or(*old);
    match expr {
        Expr::Missing | Expr::Literal(_) | Expr::Variable(_) | Expr::SplatItem => expr.clone(),
        Expr::Template { kind, parts } => Expr::Template { kind: *kind, parts: remap_parts(parts, &id) },
        Expr::GetAttr { base, name } => Expr::GetAttr { base: id(base), name: *name },
        Expr::Index { base, index } => Expr::Index { base: id(base), index: id(index) },
        Expr::LegacyIndex { base, index } => Expr::LegacyIndex { base: id(base), index: *index },
        Expr::Splat { kind, source, each } => Expr::Splat { kind: *kind, source: id(source), each: id(each) },
        Expr::Call(call) => Expr::Call(Box::new(hir::CallExpr {
            name: call.name,
            args: call.args.iter().map(id).collect(),
            expand_final: call.expand_final,
        })),
        Expr::Tuple(items) => Expr::Tuple(items.iter().map(id).collect()),
        Expr::Object(items) => Expr::Object(
            items
                .iter()
                .map(|item| ObjectItem {
                    key: match &item.key {
                        ObjectKey::Name(name) => ObjectKey::Name(name.clone()),
                        ObjectKey::Expr { expr, parenthesised } => {
                            ObjectKey::Expr { expr: id(expr), parenthesised: *parenthesised }
                        }
                    },
                    value: id(&item.value),
                })
                .collect(),
        ),
        Expr::ForTuple(for_expr) => Expr::ForTuple(Box::new(hir::ForTupleExpr {
            key_var: for_expr.key_var.clone(),
            value_var: for_expr.value_var.clone(),
            collection: id(&for_expr.collection),
            value: id(&for_expr.value),
            cond: for_expr.cond.as_ref().map(id),
        })),
        Expr::ForObject(for_expr) => Expr::ForObject(Box::new(hir::ForObjectExpr {
            key_var: for_expr.key_var.clone(),
            value_var: for_expr.value_var.clone(),
            collection: id(&for_expr.collection),
            key: id(&for_expr.key),
            value: id(&for_expr.value),
            grouping: for_expr.grouping,
            cond: for_expr.cond.as_ref().map(id),
        })),
        Expr::Unary { op, operand } => Expr::Unary { op: *op, operand: id(operand) },
        Expr::Binary { op, lhs, rhs } => Expr::Binary { op: *op, lhs: id(lhs), rhs: id(rhs) },
        Expr::Conditional { cond, then_expr, else_expr } => {
            Expr::Conditional { cond: id(cond), then_expr: id(then_expr), else_expr: id(else_expr) }
        }
    }
}

fn remap_parts<Parts: FromIterator<TemplatePart>>(
    parts: &[TemplatePart],
    id: &impl Fn(&ExprId) -> ExprId,
) -> Parts {
    parts
        .iter()
        .map(|part| match part {
            TemplatePart::Literal(text) => TemplatePart::Literal(text.clone()),
            TemplatePart::Interpolation { expr, strip } => {
                TemplatePart::Interpolation { expr: id(expr), strip: *strip }
            }
            TemplatePart::If(directive) => TemplatePart::If(Box::new(TemplateIf {
                cond: id(&directive.cond),
                then_parts: remap_parts(&directive.then_parts, id),
                else_parts: directive.else_parts.as_ref().map(|parts| remap_parts(parts, id)),
                ..**directive
            })),
            TemplatePart::For(directive) => TemplatePart::For(Box::new(TemplateFor {
                key_var: directive.key_var.clone(),
                value_var: directive.value_var.clone(),
                collection: id(&directive.collection),
                body: remap_parts(&directive.body, id),
                for_strip: directive.for_strip,
                endfor_strip: directive.endfor_strip,
            })),
        })
        .collect()
}

/// A name an expression reads from the module's scope: a root variable and
/// the steps that follow it statically (`local.a`, `var.x`,
/// `aws_instance.web.ami`): attribute names, and index keys written as
/// literals (`target["test.unit"].output`, `step[0]`, `step.0`), which name
/// a label or a repeated block's position as an attribute step names an
/// attribute. An index by anything else, or a splat, ends the static part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub root: SmolStr,
    pub attrs: Vec<SmolStr>,
    /// The expression of each step: `links[0]` is the root variable,
    /// `links[i]` the `.attrs[i-1]` access; a diagnostic about a step points
    /// at its link, which covers the traversal up to that step.
    pub links: Vec<ExprId>,
}

/// The references of the expression at `root`, in source order, without
/// the iteration variables of the `for` expressions around them.
///
/// The walk is hir's, shared with `decode`'s traversal analysis; name
/// resolution keeps of each chain its root and leading static steps.
pub fn references<'a>(exprs: impl Into<Exprs<'a>>, root: ExprId) -> Vec<Reference> {
    let exprs = exprs.into();
    hir::references(exprs, root)
        .into_iter()
        .map(|chain| {
            // Sized for every link, so that pushing never grows them.
            let mut links = Vec::with_capacity(chain.links.len() + 1);
            links.push(chain.root);
            let mut reference = Reference {
                root: SmolStr::new(chain.root_name(exprs)),
                attrs: Vec::with_capacity(chain.links.len()),
                links,
            };
            for &link in &chain.links {
                let Some(name) = static_step(exprs, link) else { break };
                reference.attrs.push(name);
                reference.links.push(link);
            }
            reference
        })
        .collect()
}

/// The name a link of a traversal reads when it is known without
/// evaluation: an attribute's name, or an index key written as a string
/// without interpolation or as a whole number (the text a label or a
/// repeated block's position has in an address).
fn static_step(exprs: Exprs<'_>, link: ExprId) -> Option<SmolStr> {
    match &exprs[link] {
        Expr::GetAttr { name, .. } => Some(SmolStr::from(*name)),
        Expr::LegacyIndex { index, .. } => whole_number(index),
        Expr::Index { index, .. } => match &exprs[*index] {
            Expr::Template { kind: hir::TemplateKind::Quoted, parts } => match parts.as_slice() {
                [] => Some(SmolStr::default()),
                [hir::TemplatePart::Literal(text)] => Some(text.clone()),
                _ => None,
            },
            Expr::Literal(hir::Literal::Number(text)) => whole_number(text),
            _ => None,
        },
        _ => None,
    }
}

/// `text`, a normalised number, if it is a whole number written as digits.
fn whole_number(text: &hir::Name) -> Option<SmolStr> {
    (!text.is_empty() && text.bytes().all(|it| it.is_ascii_digit())).then(|| SmolStr::from(*text))
}
