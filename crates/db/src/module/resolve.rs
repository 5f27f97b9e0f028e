//! Name resolution: what each reference of an attribute's expression reads.
//!
//! The result names attributes by [`Attr`], never by position, so it stays
//! equal when declarations elsewhere are added or moved: then an attribute
//! is re-resolved but not re-evaluated.

use std::{borrow::Cow, collections::BTreeSet};

use smol_str::SmolStr;
use thin_vec::{ThinVec, thin_vec};

use crate::{
    Db, File,
    module::{
        Address, AddressedRoot, Attr, AttrExpr, BlockEntry, DeclarationKind, DialectRules, Labels, Module,
        PluginRef, Value, declarations::declarations_of, dialect_root_names, index::IndexView, module_files,
        references, value::expr_of,
    },
};

/// What one reference resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The reference reads these attributes. `objects` are the addresses of
    /// the objects it reads whole, which must exist in the evaluation
    /// context even when they have no attributes (`aws_instance.web` with
    /// an empty body is `{}`).
    /// A thin vector and [`Addresses`]: a target is kept for every
    /// reference of every attribute, and most read one attribute and no
    /// object.
    Attributes { objects: ThinVec<Address>, attrs: Addresses },
    /// Nothing is declared there. `step` is the reference's step that found
    /// nothing (0 for the root name); `detail` says so in the reference's
    /// words.
    /// The kind and detail are boxed: a target is kept for every
    /// reference of every attribute, and most resolve.
    Unresolved { step: usize, kind: Box<Unresolved>, detail: Box<str> },
    /// The dialect says the value at `address` is not known from the
    /// configuration (`count.index`, a resource's computed `id`, a module's
    /// output): it evaluates to an unknown value of any type.
    Unknown { address: Address },
    /// A root name of the dialect with a value ([`crate::module::dialect_root`]).
    Root { name: SmolStr },
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Target>() <= 40, "a target is kept for every reference");

/// The attributes a target reads: most references read one, held in place.
pub type Addresses = crate::OneOrMany<Address>;

/// Why a reference names nothing, with the names involved and the
/// did-you-mean, if any. The summary is a function of the kind
/// ([`Unresolved::summary`]); whoever classifies a reference (a rule code,
/// a fix) matches on the kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// `var.NAME` with no `variable "NAME"` block.
    UndeclaredVariable { name: SmolStr, suggestion: Option<SmolStr> },
    /// `local.NAME` that no `locals` block declares.
    UndeclaredLocal { name: SmolStr, suggestion: Option<SmolStr> },
    /// A root name that nothing declares or provides.
    UnknownRoot { name: SmolStr, suggestion: Option<SmolStr> },
    /// An attribute that a declared block does not have.
    UnsupportedAttribute { name: SmolStr, suggestion: Option<SmolStr> },
    /// A name that what an opaque block stands for does not have, where
    /// the dialect's plug-in knows every name it has
    /// ([`crate::module::DialectPlugin::opaque_members`]: an imported
    /// file's locals, another unit's outputs).
    UnsupportedMember { name: SmolStr, suggestion: Option<SmolStr> },
    /// Labels that no block of the root's type has (`label` the first step
    /// none continues with).
    UndeclaredBlock { block_type: SmolStr, label: SmolStr, suggestion: Option<SmolStr> },
    /// A unit call `ROOT.NAME` ([`AddressedRoot::UnitCall`]) with no block
    /// of that name.
    UndeclaredModule { name: SmolStr, suggestion: Option<SmolStr> },
    /// A resource, data source or ephemeral resource the module does not
    /// declare, in a language that knows every root. `suggestion` replaces
    /// the step the reference's range ends with (the type or the name);
    /// `data_source` is the hint of a data source of that type and name.
    UndeclaredResource { mode: ResourceMode, suggestion: Option<SmolStr>, data_source: Option<SmolStr> },
    /// A resource type with no name after it, in a language that knows
    /// every root.
    InvalidReference,
}

impl Unresolved {
    /// The reference's summary of this kind of unresolved reference.
    pub fn summary(&self) -> &'static str {
        match self {
            Unresolved::UndeclaredVariable { .. } => "Reference to undeclared input variable",
            Unresolved::UndeclaredLocal { .. } => "Reference to undeclared local value",
            Unresolved::UnknownRoot { .. } => "Unknown variable",
            Unresolved::UnsupportedAttribute { .. } | Unresolved::UnsupportedMember { .. } => {
                "Unsupported attribute"
            }
            Unresolved::UndeclaredBlock { .. } => "Reference to undeclared block",
            Unresolved::UndeclaredModule { .. } => "Reference to undeclared module",
            Unresolved::UndeclaredResource { .. } => "Reference to undeclared resource",
            Unresolved::InvalidReference => "Invalid reference",
        }
    }

    /// The name suggested in place of the misspelt one, if any.
    pub fn suggestion(&self) -> Option<&SmolStr> {
        match self {
            Unresolved::UndeclaredVariable { suggestion, .. }
            | Unresolved::UndeclaredLocal { suggestion, .. }
            | Unresolved::UnknownRoot { suggestion, .. }
            | Unresolved::UnsupportedAttribute { suggestion, .. }
            | Unresolved::UnsupportedMember { suggestion, .. }
            | Unresolved::UndeclaredBlock { suggestion, .. }
            | Unresolved::UndeclaredModule { suggestion, .. }
            | Unresolved::UndeclaredResource { suggestion, .. } => suggestion.as_ref(),
            Unresolved::InvalidReference => None,
        }
    }
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
    /// expression (`depends_on`): not evaluated, unknown.
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
    /// The attribute's expression, or a variable's default, shared with
    /// [`crate::module::file_exprs`].
    pub expr: Option<AttrExpr>,
    /// Boxed, not a vector: kept for every attribute, it never grows.
    pub targets: Box<[Target]>,
    /// The attributes it reads that are on the same reference cycle as
    /// itself, by the cycles the caller set ([`crate::module::KnownCycles`]):
    /// evaluation stops at them.
    /// Thin: most attributes are on no cycle.
    pub same_cycle: ThinVec<Address>,
    /// How many attributes that cycle has (0 when on none known).
    pub cycle_members: u32,
    /// For an attribute of a block with `count` or `for_each`, which says
    /// how many instances the block has: the attribute has a value only
    /// if it has one (see [`Instances`]).
    pub instances: Option<Instances>,
}

/// How a block makes instances of itself, by the attribute that says how
/// many: one of the dialect's [`DialectRules::repetition_attributes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repetition {
    /// `count`: a number of instances, held in a tuple.
    Count,
    /// `for_each` (any repetition attribute other than `count`): one
    /// instance per element of a map, set or object, held in an object.
    ForEach,
}

impl Repetition {
    /// The value of a block's attribute when the block has no instances,
    /// as the address of it across instances reads
    /// (`aws_instance.web[*].ami`): an empty tuple for `count`, an empty
    /// object for `for_each`.
    pub fn no_instances(self) -> Value {
        match self {
            Repetition::Count => Value::empty_tuple(),
            Repetition::ForEach => Value::empty_object(),
        }
    }

    /// Whether `value`, the repetition attribute's, is known to make no
    /// instance: a known `count` of 0, a known empty map, set or object
    /// for `for_each`. Anything else (unknown, null, a value the tool
    /// rejects) leaves the block's attributes evaluated as ever.
    pub fn makes_none(self, value: &Value) -> bool {
        if !value.is_known() || value.is_null() {
            return false;
        }
        match self {
            Repetition::Count => value.as_number().is_some_and(value::Number::is_zero),
            Repetition::ForEach => {
                let ty = value.ty();
                (ty.is_map() || ty.is_set() || ty.is_object()) && value.length() == Some(0)
            }
        }
    }
}

/// The attribute that says how many instances the block of an attribute
/// has, read through the target at `target` in the attribute's targets
/// (after those of its references, so that the module's dependency graph
/// sees it as any other read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Instances {
    /// The position of the read in [`Resolution::targets`].
    pub target: u32,
    pub repetition: Repetition,
}

/// Appends to `targets` the read of the `count` or `for_each` of the
/// top-level block `address` is an attribute of (nested blocks' included),
/// when that block has one and `address` is not that attribute itself.
fn instances_target(
    index: &Index<'_>,
    rules: &DialectRules,
    address: &Address,
    targets: &mut Vec<Target>,
) -> Option<Instances> {
    if rules.repetition_attributes.is_empty() {
        return None;
    }
    let segments: Vec<SmolStr> = address.iter().map(SmolStr::new).collect();
    let (root, steps) = segments.split_first()?;
    // The block's labels: the longest run of the steps that names a block
    // and leaves at least the attribute's name.
    let depths = index.view.block_types().get(root)?;
    let (labels, entry) = depths
        .iter()
        .rev()
        .filter(|&&n| n < steps.len())
        .find_map(|&n| Some((&steps[..n], index.block(root, &steps[..n])?)))?;
    let name = entry.attributes.iter().find(|it| rules.repetition_attributes.contains(*it))?;
    let own = &steps[labels.len()..];
    if own.len() == 1 && rules.repetition_attributes.contains(&own[0]) {
        return None;
    }
    let mut prefix: Vec<SmolStr> = Vec::with_capacity(labels.len() + 2);
    prefix.push(root.clone());
    prefix.extend(labels.iter().cloned());
    prefix.push(name.clone());
    let repetition = if name == "count" { Repetition::Count } else { Repetition::ForEach };
    targets
        .push(Target::Attributes { objects: ThinVec::new(), attrs: Addresses::from(Address::new(prefix)) });
    Some(Instances { target: crate::module::declarations::position(targets.len() - 1), repetition })
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
/// module's index. Kept as [`super::attribute_value`]'s values are (see
/// [`crate::RootDatabase::set_idle_state_evictable`]); a database whose
/// values resolve their attributes themselves (see [`Firewall`]) runs this
/// query only for the few readers that ask for it by name (an attribute's
/// diagnostic).
#[salsa::tracked(returns(ref), lru = 0)]
pub fn attribute_resolution<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Resolution {
    resolve_attribute(db, attr)
}

/// What an attribute's value reads of its declaration through a memo of
/// its own: a firewall, behind which an edit that leaves that part as it
/// was re-evaluates nothing. Each memo is kept for every attribute, so the
/// smallest that does the job is chosen (see [`Db::value_firewall`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Firewall {
    /// None: a database evaluated once (`eval DIR`, a check's chunk) has
    /// no next edit (see [`crate::RootDatabase::without_value_firewalls`]).
    None,
    /// The attribute's expression ([`super::attribute_expr`]), for a
    /// database whose indexes are kept in parts: a value then reads only
    /// the parts of the names it resolves, and what else an edit to its
    /// file changes is the file's expressions, which all change when one
    /// does.
    Expression,
    /// The attribute's whole resolution ([`attribute_resolution`]), for a
    /// database whose module index is one memo, which changes whenever a
    /// declaration is added or removed anywhere in the module: an
    /// attribute whose references still name the same targets is then not
    /// evaluated again.
    Resolution,
}

/// `attr`'s resolution: the memo of [`attribute_resolution`] where the
/// database keeps them (see [`Firewall`]), else found again.
pub(crate) fn resolution_of<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Cow<'db, Resolution> {
    if db.value_firewall() == Firewall::Resolution {
        Cow::Borrowed(attribute_resolution(db, attr))
    } else {
        Cow::Owned(resolve_attribute(db, attr))
    }
}

fn resolve_attribute<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Resolution {
    let module = attr.module(db);
    let index = Index { view: IndexView::of(db, module) };
    let dialect = module.dialect(db);
    let rules = dialect.rules(db);
    let Some(def) = index.view.definition(attr.address(db)) else { return Resolution::default() };
    let expr = if db.value_firewall() == Firewall::Expression {
        super::attribute_expr(db, attr).clone()
    } else {
        expr_of(db, def).cloned()
    };
    if let DeclarationKind::Variable { type_attr, .. } = def.kind {
        // A variable's default is evaluated without a context, so it
        // resolves nothing.
        return Resolution {
            kind: AttrKind::Variable { file: def.file, has_type: type_attr.is_some() },
            expr,
            targets: Box::default(),
            same_cycle: ThinVec::new(),
            cycle_members: 0,
            instances: None,
        };
    }
    // A static attribute that references nothing is a value as written
    // (`required_providers`' `aws = { source = "hashicorp/aws" }`,
    // `depends_on = []`): evaluated, with nothing to resolve.
    let references_any =
        || expr.as_ref().is_none_or(|expr| !references(expr.exprs(), expr.root()).is_empty());
    if rules.is_static(attr.address(db)) && references_any() {
        return Resolution { kind: AttrKind::Static, expr, ..Resolution::default() };
    }
    // The dialect's root names are read only by a reference that no
    // declaration resolves: most attributes never depend on them.
    let roots = || dialect_root_names(db, dialect);
    let scope = Scope::new(db, module, rules, attr.address(db), &roots);
    let mut targets = match &expr {
        Some(expr) => references(expr.exprs(), expr.root())
            .into_iter()
            .map(|reference| resolve_shared(&index, rules, &scope, &reference.root, &reference.attrs))
            .collect(),
        None => Vec::new(),
    };
    let instances = instances_target(&index, rules, attr.address(db), &mut targets);
    let mut resolution = Resolution {
        kind: AttrKind::Expression,
        expr,
        targets: targets.into_boxed_slice(),
        instances,
        ..Resolution::default()
    };
    let cycles = module.cycles(db);
    if let Some(cycle) = cycles.get(attr.address(db)) {
        resolution.same_cycle = resolution
            .dependencies()
            .into_iter()
            .filter(|dependency| cycles.get(*dependency) == Some(cycle))
            .cloned()
            .collect();
        resolution.cycle_members = cycle.members;
    }
    resolution
}

/// Sets how many attributes' resolutions [`attribute_resolution`] keeps; 0
/// for all (see [`super::value::set_values_kept`]).
pub(crate) fn set_resolutions_kept(db: &mut dyn Db, attributes: usize) {
    attribute_resolution::set_lru_capacity(db, attributes);
}

/// The targets of `attr`'s references, as [`attribute_resolution`] gives
/// them, without storing a resolution: for a reader that only looks at
/// what every attribute of a module reads (a check looks at all of them
/// and evaluates a few), a memo per attribute was much of what the module
/// model kept, and so was an interned [`Attr`] per attribute: this takes
/// the address.
pub fn attribute_targets(db: &dyn Db, module: Module, address: &Address) -> Vec<Target> {
    let index = Index { view: IndexView::of(db, module) };
    let Some(def) = index.view.definition(address) else { return Vec::new() };
    let dialect = module.dialect(db);
    let rules = dialect.rules(db);
    if matches!(def.kind, DeclarationKind::Variable { .. }) || rules.is_static(address) {
        return Vec::new();
    }
    let Some(expr) = expr_of(db, def) else { return Vec::new() };
    let roots = || dialect_root_names(db, dialect);
    let scope = Scope::new(db, module, rules, address, &roots);
    let mut targets = references(expr.exprs(), expr.root())
        .into_iter()
        .map(|reference| resolve_shared(&index, rules, &scope, &reference.root, &reference.attrs))
        .collect();
    instances_target(&index, rules, address, &mut targets);
    targets
}

/// What a reference by name in an attribute that is not evaluated names
/// (`depends_on = [aws_instance.web]`, `replace_triggered_by`): resolved as
/// a reference in an expression at `address` would be, since such
/// attributes have no value and nothing else resolves them.
pub fn resolve_static_reference(
    db: &dyn Db,
    module: Module,
    address: &Address,
    root: &str,
    steps: &[SmolStr],
) -> Target {
    let index = Index { view: IndexView::of(db, module) };
    let dialect = module.dialect(db);
    let rules = dialect.rules(db);
    let roots = || dialect_root_names(db, dialect);
    let scope = Scope::new(db, module, rules, address, &roots);
    resolve(&index, rules, &scope, root, steps)
}

/// The module's index as resolution reads it: a name, a block, a type's
/// blocks at a time (see [`crate::module::index`]), so that a resolution
/// depends on what its references name and not on every declaration.
#[derive(Clone, Copy)]
struct Index<'db> {
    view: IndexView<'db>,
}

impl<'db> Index<'db> {
    fn contains(&self, address: &Address) -> bool {
        self.view.definition(address).is_some()
    }

    /// `target` with each attribute it reads named by the index's own copy
    /// of its address, so that a module's resolutions and its graph hold
    /// an address once, not once more per reference to it.
    fn shared(&self, mut target: Target) -> Target {
        if let Target::Attributes { attrs, .. } = &mut target {
            for attr in attrs.iter_mut() {
                if let Some(declared) = self.view.declared_address(attr) {
                    *attr = declared;
                }
            }
        }
        target
    }

    fn names_under(&self, root: &str) -> &'db [SmolStr] {
        self.view.names_under(root)
    }

    fn has_type(&self, block_type: &str) -> bool {
        self.view.block_types().contains_key(block_type)
    }

    fn types(&self) -> impl Iterator<Item = &'db SmolStr> + 'db {
        self.view.block_types().keys()
    }

    fn block(&self, block_type: &str, labels: &[SmolStr]) -> Option<&'db BlockEntry> {
        self.view.block(block_type, labels)
    }

    /// The labels of every block of the type, in order.
    fn labels(&self, block_type: &str) -> &'db [Labels] {
        self.view.block_labels(block_type)
    }

    /// The block of the type whose labels `steps` start with, the longest
    /// if several do (`a.b` and `a.b.c` both declared): one lookup per label
    /// count the type's blocks have.
    fn starting(&self, block_type: &str, steps: &[SmolStr]) -> Option<(usize, &'db BlockEntry)> {
        let depths = self.view.block_types().get(block_type)?;
        depths
            .iter()
            .rev()
            .filter(|&&n| n <= steps.len())
            .find_map(|&n| Some((n, self.block(block_type, &steps[..n])?)))
    }

    /// The labels of the blocks of the type that start with `labels`, in
    /// order.
    fn labels_under(&self, block_type: &str, labels: &[SmolStr]) -> &'db [Labels] {
        let all = self.labels(block_type);
        let start = all.partition_point(|it| &it[..] < labels);
        let end = start + all[start..].iter().take_while(|it| it.starts_with(labels)).count();
        &all[start..end]
    }
}

/// What an attribute's references may name beyond the module's index,
/// each read only when a reference needs it.
struct Scope<'s, 'db> {
    db: &'db dyn Db,
    module: Module,
    /// The dialect's root names.
    roots: &'s dyn Fn() -> &'db BTreeSet<SmolStr>,
    /// Whether the language's closed addressing applies to this
    /// attribute's references (see [`DialectRules::knows_every_root`]): not
    /// inside a `dynamic` block of a JSON file, whose content refers to the
    /// block's iterator, a name only its expansion binds. (A native file's
    /// `dynamic` blocks are not attributes of the module at all.)
    closed: bool,
    /// Whether the attribute is a JSON file's `dynamic` block in a language
    /// that knows every root, where a name nothing declares is the block's
    /// iterator: unknown, not an error.
    iterator_scope: bool,
}

impl<'s, 'db> Scope<'s, 'db> {
    fn new(
        db: &'db dyn Db,
        module: Module,
        rules: &DialectRules,
        address: &Address,
        roots: &'s dyn Fn() -> &'db BTreeSet<SmolStr>,
    ) -> Scope<'s, 'db> {
        let dynamic = address.iter().any(|segment| segment == "dynamic");
        let closed = rules.knows_every_root && !dynamic;
        let iterator_scope = rules.knows_every_root && dynamic;
        Scope { db, module, roots, closed, iterator_scope }
    }

    /// The blocks scoped to the module's blocks that scope them.
    fn scoped_data(&self) -> &'db ScopedDataSources {
        scoped_data_sources(self.db, self.module)
    }
}

/// [`resolve`], with each attribute the target reads named by the index's
/// own copy of its address ([`Index::shared`]). A declared `var.NAME` or
/// `local.NAME` (most references) is found with its copy in one lookup,
/// rather than found, then looked up again for the copy.
fn resolve_shared(
    index: &Index<'_>,
    rules: &DialectRules,
    scope: &Scope<'_, '_>,
    root: &str,
    steps: &[SmolStr],
) -> Target {
    if matches!(root, "var" | "local")
        && let Some(name) = steps.first()
        && let Some(declared) = index.view.declared_copy(Address::new([root, name.as_str()]))
    {
        return Target::Attributes { objects: ThinVec::new(), attrs: Addresses::from(declared) };
    }
    index.shared(resolve(index, rules, scope, root, steps))
}

fn resolve(
    index: &Index<'_>,
    rules: &DialectRules,
    scope: &Scope<'_, '_>,
    root: &str,
    steps: &[SmolStr],
) -> Target {
    let roots = scope.roots;
    let attr_of = |segments: Vec<SmolStr>| Address::new(segments);
    match root {
        "var" | "local" => {
            let Some(name) = steps.first() else {
                let attrs = index
                    .names_under(root)
                    .iter()
                    .map(|name| attr_of(vec![root.into(), name.clone()]))
                    .collect();
                return Target::Attributes { objects: thin_vec![Address::new([root])], attrs };
            };
            let address = Address::new([root, name.as_str()]);
            if index.contains(&address) {
                return Target::Attributes { objects: ThinVec::new(), attrs: Addresses::from(address) };
            }
            let what = if root == "var" { "An input variable" } else { "A local value" };
            let (detail, suggestion) = with_suggestion(
                format!("{what} with the name {:?} has not been declared.", name.as_str()),
                name,
                index.names_under(root).iter().map(SmolStr::as_str),
            );
            let name = name.clone();
            let kind = if root == "var" {
                Unresolved::UndeclaredVariable { name, suggestion }
            } else {
                Unresolved::UndeclaredLocal { name, suggestion }
            };
            Target::Unresolved { step: 1, kind: kind.into(), detail: detail.into() }
        }
        _ if rules.unprefixed_block_types.contains(root) && !steps.is_empty() => {
            // `resource.aws_instance.web.id`: the explicit prefix of the
            // unprefixed address. The block must be declared; the
            // value is unknown (the evaluation scope holds the reference
            // under the prefix, not the module's address).
            match resolve(index, rules, scope, &steps[0], &steps[1..]) {
                Target::Unresolved { step, kind, detail } => {
                    Target::Unresolved { step: step + 1, kind, detail }
                }
                _ => {
                    let mut address = vec![SmolStr::new(root)];
                    address.extend(steps.iter().cloned());
                    Target::Unknown { address: Address::new(address) }
                }
            }
        }
        _ if scope.closed
            && let Some(undeclared) = undeclared_in_closed_scope(index, rules, scope, root, steps) =>
        {
            undeclared
        }
        _ => {
            if !index.has_type(root) {
                // A root the language provides is unknown, unless the
                // caller gave it a value (an application running its own
                // language knows its roots).
                if roots().contains(root) {
                    return Target::Root { name: root.into() };
                }
                if rules.unknown_roots.contains(root) || rules.undeclared_roots_unknown {
                    // Blocks the module's imports may declare: checked
                    // where the plug-in read them all.
                    if let Some(target) = imported_block(scope, root, steps, &[]) {
                        return target;
                    }
                    return Target::Unknown { address: Address::new([root]) };
                }
                if scope.iterator_scope {
                    return Target::Unknown { address: Address::new([root]) };
                }
                let names = ["var", "local"]
                    .into_iter()
                    .chain(index.types().map(SmolStr::as_str))
                    .chain(roots().iter().map(SmolStr::as_str));
                let (detail, suggestion) =
                    with_suggestion(format!("There is no variable named {root:?}."), root, names);
                let kind = Unresolved::UnknownRoot { name: root.into(), suggestion };
                return Target::Unresolved { step: 0, kind: kind.into(), detail: detail.into() };
            }
            let opaque = rules.opaque_block_types.contains(root);
            let computed = rules.computed_attributes;
            let mut prefix: Vec<SmolStr> = vec![root.into()];
            // The block whose labels the steps start with, the longest if
            // several do (`a.b` and `a.b.c` both declared): one lookup per
            // step.
            if let Some((n, entry)) = index.starting(root, steps) {
                prefix.extend(steps[..n].iter().cloned());
                let repeated = entry.attributes.iter().any(|it| rules.repetition_attributes.contains(it));
                if opaque && let Some(target) = opaque_member(scope, &prefix, &steps[n..]) {
                    return target;
                }
                if opaque || repeated {
                    // A module call's outputs, or one instance of a block
                    // with `count` or `for_each`: nothing is known.
                    return Target::Unknown { address: Address::new(prefix) };
                }
                let Some(name) = steps.get(n) else {
                    if computed {
                        return Target::Unknown { address: Address::new(prefix) };
                    }
                    let attrs = block_attributes(&prefix, entry).collect();
                    return Target::Attributes { objects: thin_vec![Address::new(prefix)], attrs };
                };
                if entry.attributes.contains(name) {
                    prefix.push(name.clone());
                    return Target::Attributes {
                        objects: ThinVec::new(),
                        attrs: Addresses::from(attr_of(prefix)),
                    };
                }
                if computed {
                    prefix.push(name.clone());
                    return Target::Unknown { address: Address::new(prefix) };
                }
                return nested_target(&prefix, entry, n, &steps[n..]);
            }
            // Blocks with more labels than the steps name: the reference
            // reads an object of all of them.
            let under = index.labels_under(root, steps);
            if !under.is_empty() {
                if computed || opaque {
                    prefix.extend(steps.iter().cloned());
                    return Target::Unknown { address: Address::new(prefix) };
                }
                let mut objects = ThinVec::new();
                let mut attrs = ThinVec::new();
                for labels in under {
                    let Some(entry) = index.block(root, labels) else { continue };
                    let mut segments: Vec<SmolStr> = vec![root.into()];
                    segments.extend(labels.iter().cloned());
                    attrs.extend(block_attributes(&segments, entry));
                    objects.push(Address::new(segments));
                }
                return Target::Attributes { objects, attrs: Addresses::from(attrs) };
            }
            // The first step no block's labels continue with (an error, so
            // a scan is fine).
            let mut depth = 0;
            let entries = index.labels(root);
            while depth < steps.len()
                && entries.iter().any(|labels| labels.len() > depth && labels[..=depth] == steps[..=depth])
            {
                depth += 1;
            }
            // A block another file may declare: one of the roots the
            // language provides, in a module that declares a block
            // bringing in another file's declarations.
            if rules.unknown_roots.contains(root)
                && rules.importing_block_types.iter().any(|it| index.has_type(it))
            {
                let own: Vec<&[SmolStr]> = entries.iter().map(|labels| &labels[..]).collect();
                if let Some(target) = imported_block(scope, root, steps, &own) {
                    return target;
                }
                return Target::Unknown { address: Address::new([root]) };
            }
            let Some(label) = steps.get(depth) else {
                // Unreachable in practice: a step past the labels would have
                // matched a block exactly above.
                return Target::Unresolved {
                    step: 0,
                    kind: Box::new(Unresolved::UnknownRoot { name: root.into(), suggestion: None }),
                    detail: Box::default(),
                };
            };
            let shown: Vec<String> = std::iter::once(root)
                .chain(steps[..=depth].iter().map(SmolStr::as_str))
                .map(|it| format!("{it:?}"))
                .collect();
            let candidates = entries
                .iter()
                .filter(|labels| labels.len() > depth && labels[..depth] == steps[..depth])
                .map(|labels| labels[depth].as_str());
            let (detail, suggestion) = with_suggestion(
                format!("A block {} has not been declared.", shown.join(" ")),
                label,
                candidates,
            );
            let kind =
                Unresolved::UndeclaredBlock { block_type: root.into(), label: label.clone(), suggestion };
            Target::Unresolved { step: depth + 1, kind: kind.into(), detail: detail.into() }
        }
    }
}

/// A reference to a block of `root`'s type that the module does not
/// declare itself (its own blocks are `own`), resolved against the blocks
/// its imports declare, where its plug-in knows them
/// ([`crate::module::DialectPlugin::imported_blocks`]): unknown when one
/// of them matches (or an error from [`opaque_member`] about what follows
/// its labels), an undeclared block otherwise. `None` when the imports
/// are not known.
fn imported_block(
    scope: &Scope<'_, '_>,
    root: &str,
    steps: &[SmolStr],
    own: &[&[SmolStr]],
) -> Option<Target> {
    let PluginRef(plugin) = scope.module.dialect(scope.db).rules(scope.db).plugin.as_ref()?;
    let imported = plugin.imported_blocks(scope.db, scope.module, root)?;
    if let Some(labels) = imported.iter().find(|labels| steps.starts_with(labels)) {
        let mut prefix: Vec<SmolStr> = vec![root.into()];
        prefix.extend(labels.iter().cloned());
        return Some(
            opaque_member(scope, &prefix, &steps[labels.len()..])
                .unwrap_or(Target::Unknown { address: Address::new(prefix) }),
        );
    }
    let label = steps.first()?;
    let candidates = own
        .iter()
        .copied()
        .chain(imported.iter().map(|labels| &labels[..]))
        .filter_map(|labels| labels.first().map(SmolStr::as_str));
    let (detail, suggestion) = with_suggestion(
        format!("A block {root:?} {:?} has not been declared.", label.as_str()),
        label,
        candidates,
    );
    let kind = Unresolved::UndeclaredBlock { block_type: root.into(), label: label.clone(), suggestion };
    Some(Target::Unresolved { step: 1, kind: kind.into(), detail: detail.into() })
}

/// What `rest` reads of the opaque block at `block` (its type and
/// labels), where the plug-in knows every name that may follow a prefix
/// of it ([`crate::module::DialectPlugin::opaque_members`]): an
/// unsupported attribute at the first step that is none of them, `None`
/// when every step is (or may be) there.
fn opaque_member(scope: &Scope<'_, '_>, block: &[SmolStr], rest: &[SmolStr]) -> Option<Target> {
    let PluginRef(plugin) = scope.module.dialect(scope.db).rules(scope.db).plugin.as_ref()?;
    let mut address: Vec<SmolStr> = block.to_vec();
    for (depth, name) in rest.iter().enumerate() {
        if let Some(names) = plugin.opaque_members(scope.db, scope.module, &address)
            && !names.contains(name)
        {
            let (detail, suggestion) = with_suggestion(
                format!("This object does not have an attribute named {:?}.", name.as_str()),
                name,
                names.iter().map(SmolStr::as_str),
            );
            let kind = Unresolved::UnsupportedMember { name: name.clone(), suggestion };
            return Some(Target::Unresolved {
                step: block.len() + depth,
                kind: kind.into(),
                detail: detail.into(),
            });
        }
        address.push(name.clone());
    }
    None
}

/// The addresses of every attribute in the value of the block at `block`:
/// its own, then those of the blocks nested in it.
fn block_attributes<'e>(block: &'e [SmolStr], entry: &'e BlockEntry) -> impl Iterator<Item = Address> + 'e {
    let own = entry.attributes.iter().map(move |name| Address::new(block.iter().chain([name]).cloned()));
    let nested = entry.nested.iter().map(move |path| Address::new(block.iter().chain(path.iter()).cloned()));
    own.chain(nested)
}

/// What `rest`, the steps of a reference after the `labels` labels of the
/// block at `block` that are not one of its own attributes, reads of the
/// blocks nested in it: a nested block's attribute (and what is inside its
/// value), every attribute under a nested block (its object), or nothing,
/// reported at the first step no nested attribute's address continues
/// with, with a did-you-mean among the names that would.
fn nested_target(block: &[SmolStr], entry: &BlockEntry, labels: usize, rest: &[SmolStr]) -> Target {
    let under = |path: &[SmolStr]| Address::new(block.iter().chain(path).cloned());
    if let Some(path) = entry.nested.iter().find(|path| rest.starts_with(path)) {
        return Target::Attributes { objects: ThinVec::new(), attrs: Addresses::from(under(path)) };
    }
    let attrs: Addresses =
        entry.nested.iter().filter(|path| path.starts_with(rest)).map(|path| under(path)).collect();
    if !attrs.is_empty() {
        return Target::Attributes { objects: thin_vec![under(rest)], attrs };
    }
    // The deepest step some nested attribute's address reaches.
    let depth = entry
        .nested
        .iter()
        .map(|path| path.iter().zip(rest).take_while(|(a, b)| a == b).count())
        .max()
        .unwrap_or(0);
    let name = &rest[depth];
    let candidates: Vec<&str> = if depth == 0 {
        entry
            .attributes
            .iter()
            .map(SmolStr::as_str)
            .chain(entry.nested.iter().map(|path| path[0].as_str()))
            .collect()
    } else {
        entry
            .nested
            .iter()
            .filter(|path| path.len() > depth && path[..depth] == rest[..depth])
            .map(|path| path[depth].as_str())
            .collect()
    };
    let (detail, suggestion) = with_suggestion(
        format!("This object does not have an attribute named {:?}.", name.as_str()),
        name,
        candidates.into_iter(),
    );
    let kind = Unresolved::UnsupportedAttribute { name: name.clone(), suggestion };
    Target::Unresolved { step: labels + depth + 1, kind: kind.into(), detail: detail.into() }
}

/// The error for a reference to a block of one of the language's addressed
/// kinds ([`DialectRules::addressed_roots`]: unit calls, blocks of a mode)
/// or of an unprefixed type that the module does not declare, in a
/// language that knows every root, or `None` when the reference names
/// something declared or something the language provides, which the
/// generic resolution then finds.
///
/// A root that is none of the language's is an unprefixed block's type
/// (`aws_instanc.web`). The did-you-mean is on the name when the type is
/// declared, on the type otherwise, and the reference's range ends at the
/// step it is about, so that a fix replaces that step.
fn undeclared_in_closed_scope(
    index: &Index<'_>,
    rules: &DialectRules,
    scope: &Scope<'_, '_>,
    root: &str,
    steps: &[SmolStr],
) -> Option<Target> {
    // Whether a block of type `block_type` has labels that `labels` starts
    // with, or that start with `labels`: the generic resolution finds it
    // (a block with fewer labels than the language's is another tool's
    // business, and not the language's to report).
    // Lookups, not a scan: a reference to a declared block, the common
    // case, costs a few searches of its type's blocks.
    let declared = |block_type: &str, labels: &[SmolStr]| {
        index.starting(block_type, labels).is_some() || !index.labels_under(block_type, labels).is_empty()
    };
    let data_root = rules.addressed_root(AddressedRoot::Resource(ResourceMode::Data));
    match rules.addressed_roots.get(root) {
        Some(AddressedRoot::UnitCall) => {
            let name = steps.first()?;
            if declared(root, std::slice::from_ref(name)) {
                return None;
            }
            let names = index.labels(root).iter();
            let (detail, suggestion) = with_suggestion(
                format!("No module call named {:?} is declared in this module.", name.as_str()),
                name,
                names.filter_map(|labels| labels.first()).map(SmolStr::as_str),
            );
            let kind = Unresolved::UndeclaredModule { name: name.clone(), suggestion };
            Some(Target::Unresolved { step: 1, kind: kind.into(), detail: detail.into() })
        }
        Some(&AddressedRoot::Resource(mode)) => {
            let [type_name, name, ..] = steps else { return None };
            let labels = [type_name.clone(), name.clone()];
            if declared(root, &labels) {
                return None;
            }
            let is_data = mode == ResourceMode::Data;
            if is_data && scope.scoped_data().declares(&labels) {
                // Not in the index, which has no nested blocks: its
                // attributes are the data source's, unknown.
                return Some(Target::Unknown { address: Address::new([root, type_name, name]) });
            }
            let declared = index.labels(root).iter().filter_map(|labels| match &labels[..] {
                [type_name, name] => Some((type_name.as_str(), name.as_str())),
                _ => None,
            });
            let declared: Vec<(&str, &str)> = if is_data {
                declared
                    .chain(scope.scoped_data().labels.iter().map(|(t, n)| (t.as_str(), n.as_str())))
                    .collect()
            } else {
                declared.collect()
            };
            let (step, kind, detail) = undeclared_resource(mode, type_name, name, &declared, None);
            Some(Target::Unresolved { step: step + 1, kind: kind.into(), detail: detail.into() })
        }
        None if rules.unknown_roots.contains(root)
            || rules.label_counts.contains_key(root)
            || (scope.roots)().contains(root) =>
        {
            None
        }
        None => {
            let Some(name) = steps.first() else {
                if index.has_type(root) {
                    return None;
                }
                return Some(Target::Unresolved {
                    step: 0,
                    kind: Box::new(Unresolved::InvalidReference),
                    detail: "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.".into(),
                });
            };
            if declared(root, std::slice::from_ref(name)) {
                return None;
            }
            // The managed resources: the blocks of every type that is not
            // one of the language's own block types.
            let declared: Vec<(&str, &str)> = index
                .types()
                .filter(|type_name| {
                    !rules.label_counts.contains_key(*type_name) && !rules.unknown_roots.contains(*type_name)
                })
                .flat_map(|type_name| {
                    index.labels(type_name).iter().filter_map(move |labels| match &labels[..] {
                        [name] => Some((type_name.as_str(), name.as_str())),
                        _ => None,
                    })
                })
                .collect();
            // The hint for a data source referred to without its prefix.
            let data_source = [SmolStr::new(root), name.clone()];
            let data_source = data_root
                .filter(|data| {
                    declared_in(index, data, &data_source) || scope.scoped_data().declares(&data_source)
                })
                .map(|data| SmolStr::new(format!("{data}.{root}.{name}")));
            let (step, kind, detail) =
                undeclared_resource(ResourceMode::Managed, root, name, &declared, data_source);
            Some(Target::Unresolved { step, kind: kind.into(), detail: detail.into() })
        }
    }
}

fn declared_in(index: &Index<'_>, block_type: &str, labels: &[SmolStr]) -> bool {
    index.block(block_type, labels).is_some()
}

/// The modes of a language's addressed blocks (see [`AddressedRoot`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceMode {
    Managed,
    Data,
    Ephemeral,
}

/// The detail for an undeclared resource `type_name.name` among the
/// `declared` ones (type and name) of its mode, with a did-you-mean on the
/// name among those of the same type, else on the type, and the step (0 the
/// type, 1 the name) the diagnostic's range should end with: the one the
/// suggestion replaces, the name when there is none. `data_source` is a data
/// source of the same type and name, suggested for a managed resource.
fn undeclared_resource(
    mode: ResourceMode,
    type_name: &str,
    name: &str,
    declared: &[(&str, &str)],
    data_source: Option<SmolStr>,
) -> (usize, Unresolved, String) {
    let (article, adjective) = match mode {
        ResourceMode::Managed => ("A", "managed"),
        ResourceMode::Data => ("A", "data"),
        ResourceMode::Ephemeral => ("An", "ephemeral"),
    };
    let detail = format!(
        "{article} {adjective} resource {type_name:?} {name:?} has not been declared in this module."
    );
    if let Some(data_source) = data_source {
        let detail = format!("{detail}\n\nDid you mean the data resource {data_source}?");
        return (
            1,
            Unresolved::UndeclaredResource { mode, suggestion: None, data_source: Some(data_source) },
            detail,
        );
    }
    let names_of_type: Vec<&str> = declared
        .iter()
        .filter(|(declared_type, _)| *declared_type == type_name)
        .map(|(_, name)| *name)
        .collect();
    let kind = |suggestion| Unresolved::UndeclaredResource { mode, suggestion, data_source: None };
    if !names_of_type.is_empty() {
        let (detail, suggestion) = with_suggestion(detail, name, names_of_type.into_iter());
        return (1, kind(suggestion), detail);
    }
    let mut types: Vec<&str> = declared.iter().map(|(declared_type, _)| *declared_type).collect();
    types.dedup();
    match suggest(type_name, types.into_iter()) {
        Some(suggestion) => {
            let detail = format!("{detail} Did you mean {suggestion:?}?");
            (0, kind(Some(suggestion.into())), detail)
        }
        None => (1, kind(None), detail),
    }
}

/// The data sources declared inside `check` blocks, which only the check's
/// own expressions may read (a reference from elsewhere is reported as
/// "Reference to scoped resource", which a check does not).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct ScopedDataSources {
    /// Their type and name.
    labels: BTreeSet<(SmolStr, SmolStr)>,
    /// Whether a JSON file's `check` block has a `data` member, whose
    /// labels are inside an expression the index does not list: then any
    /// data source may be one of them.
    open: bool,
}

impl ScopedDataSources {
    fn declares(&self, labels: &[SmolStr]) -> bool {
        self.open
            || matches!(labels, [type_name, name] if self.labels.contains(&(type_name.clone(), name.clone())))
    }
}

/// The data sources of the module's `check` blocks, from the files'
/// declarations.
#[salsa::tracked(returns(ref))]
pub(crate) fn scoped_data_sources(db: &dyn Db, module: Module) -> ScopedDataSources {
    let mut scoped = ScopedDataSources::default();
    for &file in module_files(db, module) {
        let declarations = declarations_of(db, file);
        scoped.open |= declarations.scoped_data_open;
        scoped.labels.extend(declarations.scoped_data.iter().cloned());
    }
    scoped
}

/// `detail` followed by "Did you mean …?" when one of `names` is close to
/// `name` (fewer than three edits, as the evaluator's own suggestions), and
/// the name suggested.
fn with_suggestion<'n>(
    detail: String,
    name: &str,
    names: impl Iterator<Item = &'n str>,
) -> (String, Option<SmolStr>) {
    match suggest(name, names) {
        Some(suggestion) => (format!("{detail} Did you mean {suggestion:?}?"), Some(suggestion.into())),
        None => (detail, None),
    }
}

pub(crate) use eval::suggest;

#[cfg(test)]
mod addresses_tests {
    use thin_vec::thin_vec;

    use super::Addresses;
    use crate::module::Address;

    #[test]
    fn one_address_is_held_in_place_and_equal_however_it_was_made() {
        let a = Address::new(["local", "a"]);
        let b = Address::new(["local", "b"]);
        let one: Addresses = [a.clone()].into_iter().collect();
        assert!(matches!(one, Addresses::One(_)));
        assert_eq!(one, Addresses::from(thin_vec![a.clone()]));
        assert_eq!(one, Addresses::Many(thin_vec![a.clone()]));
        assert_ne!(one, Addresses::from(thin_vec![a.clone(), b.clone()]));
        let two: Addresses = [a.clone(), b.clone()].into_iter().collect();
        assert_eq!(&*two, &[a, b][..]);
        assert!(Addresses::default().is_empty());
    }
}
