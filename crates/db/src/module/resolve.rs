//! Name resolution: what each reference of an attribute's expression reads.
//!
//! The result names attributes by [`Attr`], never by position, so it stays
//! equal when declarations elsewhere are added or moved: then an attribute
//! is re-resolved but not re-evaluated.

use std::collections::BTreeSet;

use smol_str::SmolStr;

use crate::{
    Db, File,
    module::{
        Address, Attr, AttrExpr, DeclarationKind, DialectRules, ModuleIndex, dialect_root_names,
        module_index, references, value::expr_of,
    },
};

/// What one reference resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The reference reads these attributes. `objects` are the addresses of
    /// the objects it reads whole, which must exist in the evaluation
    /// context even when they have no attributes (`aws_instance.web` with
    /// an empty body is `{}`).
    Attributes { objects: Vec<Address>, attrs: Vec<Address> },
    /// Nothing is declared there. `step` is the reference's step that found
    /// nothing (0 for the root name).
    Unresolved { step: usize, summary: String, detail: String },
    /// The dialect says the value at `address` is not known from the
    /// configuration (`count.index`, a resource's computed `id`, a module's
    /// output): it evaluates to an unknown value of any type.
    Unknown { address: Address },
    /// A root name of the dialect with a value ([`crate::module::dialect_root`]).
    Root { name: SmolStr },
}

/// What an address names, as much as evaluation needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AttrKind {
    /// Nothing is declared at the address.
    #[default]
    NotDeclared,
    /// An attribute with an expression.
    Expression,
    /// A variable declared in `file`, with or without a `type`.
    Variable { file: File, has_type: bool },
    /// An attribute the dialect reads as references by name, not as an
    /// expression (Terraform's `depends_on`): not evaluated, unknown.
    Static,
}

/// What an attribute is, its expression, and the targets of its
/// references, in the order of [`references`] over the expression.
///
/// The attribute's own kind and expression come with it, so that
/// [`crate::module::attribute_value`] reads this query alone (besides the
/// values it references): never the module's index, which changes whenever
/// a declaration is added, while this result changes only when what the
/// attribute is or reads does. One query rather than three per attribute
/// also makes salsa's check of an unchanged attribute after an edit
/// cheaper, which is most of the cost of re-evaluating a large module.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolution {
    pub kind: AttrKind,
    /// The attribute's expression, or a variable's default (the same as
    /// [`attribute_expr`]).
    pub expr: Option<AttrExpr>,
    pub targets: Vec<Target>,
}

impl Resolution {
    /// Every attribute read, once each, in order of first use.
    pub fn dependencies(&self) -> Vec<&Address> {
        let mut out: Vec<&Address> = Vec::new();
        for target in &self.targets {
            if let Target::Attributes { attrs, .. } = target {
                for attr in attrs {
                    if !out.contains(&attr) {
                        out.push(attr);
                    }
                }
            }
        }
        out
    }
}

/// Resolves `attr` and the references of its expression through the
/// module's index.
#[salsa::tracked(returns(ref))]
pub fn attribute_resolution<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Resolution {
    let module = attr.module(db);
    let index = module_index(db, module);
    let dialect = module.dialect(db);
    let rules = dialect.rules(db);
    let Some(def) = index.definitions.get(attr.address(db)) else { return Resolution::default() };
    let expr = expr_of(db, def);
    if let DeclarationKind::Variable { type_attr, .. } = def.kind {
        // A variable's default is evaluated without a context, so it
        // resolves nothing.
        return Resolution {
            kind: AttrKind::Variable { file: def.file, has_type: type_attr.is_some() },
            expr,
            targets: Vec::new(),
        };
    }
    if rules.is_static(attr.address(db).segments()) {
        return Resolution { kind: AttrKind::Static, expr, targets: Vec::new() };
    }
    // The dialect's root names are read only by a reference that no
    // declaration resolves: most attributes never depend on them.
    let roots = || dialect_root_names(db, dialect);
    let targets = match &expr {
        Some(expr) => references(&expr.exprs, expr.root)
            .into_iter()
            .map(|reference| resolve(index, rules, &roots, &reference.root, &reference.attrs))
            .collect(),
        None => Vec::new(),
    };
    Resolution { kind: AttrKind::Expression, expr, targets }
}

/// The targets of `attr`'s references, as [`attribute_resolution`] gives
/// them, without storing a resolution: for a reader that only looks at
/// what every attribute of a module reads (a check looks at all of them
/// and evaluates a few), a memo per attribute with a copy of its
/// expression was most of what the module model kept. A native file's
/// expression is read in place in its HIR; a JSON file's goes through the
/// query, which lowers it.
pub fn attribute_targets<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Vec<Target> {
    let module = attr.module(db);
    let index = module_index(db, module);
    let Some(def) = index.definitions.get(attr.address(db)) else { return Vec::new() };
    if def.file.syntax(db) != crate::SourceSyntax::Native {
        return attribute_resolution(db, attr).targets.clone();
    }
    let dialect = module.dialect(db);
    let rules = dialect.rules(db);
    if matches!(def.kind, DeclarationKind::Variable { .. }) || rules.is_static(attr.address(db).segments()) {
        return Vec::new();
    }
    let hir = crate::lower(db, def.file);
    let Some(root) = crate::module::value::locate(hir, def) else { return Vec::new() };
    let roots = || dialect_root_names(db, dialect);
    references(&hir.exprs, root)
        .into_iter()
        .map(|reference| resolve(index, rules, &roots, &reference.root, &reference.attrs))
        .collect()
}

fn resolve<'r>(
    index: &ModuleIndex,
    rules: &DialectRules,
    roots: &dyn Fn() -> &'r BTreeSet<SmolStr>,
    root: &str,
    steps: &[SmolStr],
) -> Target {
    let attr_of = |segments: Vec<SmolStr>| Address::new(segments);
    match root {
        "var" | "local" => {
            let Some(name) = steps.first() else {
                let attrs =
                    index.names_under(root).map(|name| attr_of(vec![root.into(), name.clone()])).collect();
                return Target::Attributes { objects: vec![Address::new([root])], attrs };
            };
            let address = Address::new([root, name.as_str()]);
            if index.definitions.contains_key(&address) {
                return Target::Attributes { objects: Vec::new(), attrs: vec![address] };
            }
            let (summary, what) = if root == "var" {
                ("Reference to undeclared input variable", "An input variable")
            } else {
                ("Reference to undeclared local value", "A local value")
            };
            let detail = with_suggestion(
                format!("{what} with the name {:?} has not been declared.", name.as_str()),
                name,
                index.names_under(root).map(SmolStr::as_str),
            );
            Target::Unresolved { step: 1, summary: summary.into(), detail }
        }
        _ if rules.unprefixed_block_types.contains(root) && !steps.is_empty() => {
            // `resource.aws_instance.web.id`: Terraform's explicit prefix
            // for the unprefixed address. The block must be declared; the
            // value is unknown (the evaluation scope holds the reference
            // under the prefix, not the module's address).
            match resolve(index, rules, roots, &steps[0], &steps[1..]) {
                Target::Unresolved { step, summary, detail } => {
                    Target::Unresolved { step: step + 1, summary, detail }
                }
                _ => {
                    let mut address = vec![SmolStr::new(root)];
                    address.extend(steps.iter().cloned());
                    Target::Unknown { address: Address::new(address) }
                }
            }
        }
        _ => {
            let Some(entries) = index.blocks.get(root) else {
                if rules.unknown_roots.contains(root) {
                    return Target::Unknown { address: Address::new([root]) };
                }
                if roots().contains(root) {
                    return Target::Root { name: root.into() };
                }
                let names = ["var", "local"]
                    .into_iter()
                    .chain(index.blocks.keys().map(SmolStr::as_str))
                    .chain(roots().iter().map(SmolStr::as_str));
                let detail = with_suggestion(format!("There is no variable named {root:?}."), root, names);
                return Target::Unresolved { step: 0, summary: "Unknown variable".into(), detail };
            };
            let opaque = rules.opaque_block_types.contains(root);
            let computed = rules.computed_attributes;
            let mut prefix: Vec<SmolStr> = vec![root.into()];
            // The block whose labels the steps start with, the longest if
            // several do (`a.b` and `a.b.c` both declared): one lookup per
            // step.
            let exact = (0..=steps.len()).rev().find_map(|n| entries.get_key_value(&steps[..n]));
            if let Some((labels, entry)) = exact {
                prefix.extend(labels.iter().cloned());
                let n = labels.len();
                let repeated = entry.attributes.iter().any(|it| rules.repetition_attributes.contains(it));
                if opaque || repeated {
                    // A module call's outputs, or one instance of a block
                    // with `count` or `for_each`: nothing is known.
                    return Target::Unknown { address: Address::new(prefix) };
                }
                let Some(name) = steps.get(n) else {
                    if computed {
                        return Target::Unknown { address: Address::new(prefix) };
                    }
                    let attrs = entry
                        .attributes
                        .iter()
                        .map(|name| {
                            let mut segments = prefix.clone();
                            segments.push(name.clone());
                            attr_of(segments)
                        })
                        .collect();
                    return Target::Attributes { objects: vec![Address::new(prefix)], attrs };
                };
                prefix.push(name.clone());
                if entry.attributes.contains(name) {
                    return Target::Attributes { objects: Vec::new(), attrs: vec![attr_of(prefix)] };
                }
                if computed {
                    return Target::Unknown { address: Address::new(prefix) };
                }
                let detail = with_suggestion(
                    format!("This object does not have an attribute named {:?}.", name.as_str()),
                    name,
                    entry.attributes.iter().map(SmolStr::as_str),
                );
                return Target::Unresolved { step: n + 1, summary: "Unsupported attribute".into(), detail };
            }
            // Blocks with more labels than the steps name: the reference
            // reads an object of all of them.
            let under: Vec<_> = entries
                .range::<[SmolStr], _>((std::ops::Bound::Included(steps), std::ops::Bound::Unbounded))
                .take_while(|(labels, _)| labels.starts_with(steps))
                .collect();
            if !under.is_empty() {
                if computed || opaque {
                    prefix.extend(steps.iter().cloned());
                    return Target::Unknown { address: Address::new(prefix) };
                }
                let mut objects = Vec::new();
                let mut attrs = Vec::new();
                for (labels, entry) in under {
                    let mut segments: Vec<SmolStr> = vec![root.into()];
                    segments.extend(labels.iter().cloned());
                    objects.push(Address::new(segments.clone()));
                    for name in &entry.attributes {
                        let mut segments = segments.clone();
                        segments.push(name.clone());
                        attrs.push(attr_of(segments));
                    }
                }
                return Target::Attributes { objects, attrs };
            }
            // The first step no block's labels continue with (an error, so
            // a scan is fine).
            let mut depth = 0;
            while depth < steps.len()
                && entries.keys().any(|labels| labels.len() > depth && labels[..=depth] == steps[..=depth])
            {
                depth += 1;
            }
            let Some(label) = steps.get(depth) else {
                // Unreachable in practice: a step past the labels would have
                // matched a block exactly above.
                return Target::Unresolved {
                    step: 0,
                    summary: "Unknown variable".into(),
                    detail: String::new(),
                };
            };
            let shown: Vec<String> = std::iter::once(root)
                .chain(steps[..=depth].iter().map(SmolStr::as_str))
                .map(|it| format!("{it:?}"))
                .collect();
            let candidates = entries
                .keys()
                .filter(|labels| labels.len() > depth && labels[..depth] == steps[..depth])
                .map(|labels| labels[depth].as_str());
            let detail = with_suggestion(
                format!("A block {} has not been declared.", shown.join(" ")),
                label,
                candidates,
            );
            Target::Unresolved { step: depth + 1, summary: "Reference to undeclared block".into(), detail }
        }
    }
}

/// `detail` followed by "Did you mean …?" when one of `names` is close to
/// `name` (fewer than three edits, as the evaluator's own suggestions).
fn with_suggestion<'n>(detail: String, name: &str, names: impl Iterator<Item = &'n str>) -> String {
    match suggest(name, names) {
        Some(suggestion) => format!("{detail} Did you mean {suggestion:?}?"),
        None => detail,
    }
}

pub(crate) use eval::suggest;
