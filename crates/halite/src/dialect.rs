//! A dialect: the functions and root names an application adds to HCL, and
//! evaluation with them.
//!
//! The module model of the `db` crate evaluates with the standard library
//! and the module's own names (`var`, `local`, blocks) only. Until it takes
//! a dialect as an input of its own, this module evaluates on top of it:
//! [`dialect_value`] is its `attribute_value` with the dialect's functions
//! added to the function table and its roots to the scope, reusing the
//! model's position-free expressions and name resolution, so it is exactly
//! as incremental (it reads only what the expression references, and an
//! attribute is evaluated again only when something it reads changed).
//! A workspace without a dialect uses the model's own query.
//!
//! Diagnostics still come from the model, which evaluates without the
//! dialect: the workspace drops those about the dialect's names ("Unknown
//! variable" for a root, "Call to unknown function" for a function), but an
//! error only the dialect's evaluation meets (a registered function that
//! fails) is not reported as a diagnostic yet, only by
//! [`crate::Workspace::value`]: turning it into one needs the model's
//! ranges for an attribute's error, which it keeps to itself.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, OnceLock};

use db::Db;
use db::module::{self, Address, Attr, AttrError, DeclarationKind, Target};
use smol_str::SmolStr;
use value::Value;

/// The functions and roots a workspace adds, as a salsa input: changing
/// them re-evaluates the attributes evaluated with them.
#[salsa::input(debug)]
pub(crate) struct DialectInput {
    #[returns(ref)]
    pub(crate) functions: Arc<BTreeMap<String, eval::Function>>,
    #[returns(ref)]
    pub(crate) roots: Arc<BTreeMap<String, Value>>,
}

/// The standard library and the dialect's functions, which win over the
/// standard library's of the same name.
fn function_table(db: &dyn Db, dialect: DialectInput) -> BTreeMap<String, eval::Function> {
    static STDLIB: OnceLock<BTreeMap<String, eval::Function>> = OnceLock::new();
    let mut functions = STDLIB.get_or_init(eval::stdlib::functions).clone();
    functions.extend(dialect.functions(db).iter().map(|(name, function)| (name.clone(), function.clone())));
    functions
}

/// The value of `attr` with the dialect: as the model's `attribute_value`,
/// but a reference whose root name the module does not declare reads the
/// dialect's root of that name, and calls find the dialect's functions.
#[salsa::tracked(returns(ref), cycle_result = dialect_value_in_cycle)]
pub(crate) fn dialect_value<'db>(
    db: &'db dyn Db,
    dialect: DialectInput,
    attr: Attr<'db>,
) -> Result<Value, AttrError> {
    let module = attr.module(db);
    let index = module::module_index(db, module);
    let Some(definition) = index.definitions.get(attr.address(db)) else {
        return Err(AttrError::NotDeclared);
    };
    if matches!(definition.kind, DeclarationKind::Variable { .. }) {
        // A variable's value does not depend on the dialect: its default is
        // evaluated with no context at all.
        return module::attribute_value(db, attr).clone();
    }
    let Some(expr) = module::attribute_expr(db, attr) else { return Err(AttrError::NotDeclared) };
    let resolution = module::attribute_resolution(db, attr);
    let references = module::references(&expr.exprs, expr.root);
    let roots = dialect.roots(db);
    let mut scope = Scope::default();
    for (reference, target) in resolution.targets.iter().enumerate() {
        match target {
            Target::Unresolved { step, summary, detail } => {
                let root = references.get(reference).map(|it| it.root.as_str()).unwrap_or_default();
                match roots.get(root) {
                    Some(value) if *step == 0 => scope.insert_value(&[SmolStr::new(root)], value.clone()),
                    _ => {
                        return Err(AttrError::Unresolved {
                            reference,
                            step: *step,
                            summary: summary.clone(),
                            detail: detail.clone(),
                        });
                    }
                }
            }
            Target::Attributes { objects, attrs } => {
                for object in objects {
                    scope.object_at(object.segments());
                }
                for dependency in attrs {
                    match dialect_value(db, dialect, Attr::new(db, module, dependency.clone())) {
                        Ok(value) => scope.insert_value(dependency.segments(), value.clone()),
                        Err(AttrError::NoValue) => {
                            return Err(AttrError::MissingVariable {
                                reference,
                                variable: dependency.clone(),
                            });
                        }
                        Err(_) => return Err(AttrError::Dependency(dependency.clone())),
                    }
                }
            }
        }
    }
    let context = eval::Context {
        variables: scope.into_variables(),
        functions: function_table(db, dialect),
        ..eval::Context::new()
    };
    eval::eval_expr(&expr.exprs, expr.root, &context).map_err(AttrError::Eval)
}

/// What salsa gives each attribute on a reference cycle: the cycle, found
/// on the resolved references (which never cycle themselves).
fn dialect_value_in_cycle<'db>(
    db: &'db dyn Db,
    _id: salsa::Id,
    _dialect: DialectInput,
    attr: Attr<'db>,
) -> Result<Value, AttrError> {
    Err(AttrError::Cycle(find_cycle(db, attr)))
}

/// The shortest path of references from `start` back to itself, both ends
/// included; just `start` if there is none.
fn find_cycle(db: &dyn Db, start: Attr<'_>) -> Vec<Address> {
    let module = start.module(db);
    let start = start.address(db).clone();
    let mut came_from: BTreeMap<Address, Address> = BTreeMap::new();
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(address) = queue.pop_front() {
        let attr = Attr::new(db, module, address.clone());
        for dependency in module::attribute_resolution(db, attr).dependencies() {
            if *dependency == start {
                let mut path = vec![address.clone()];
                let mut current = address.clone();
                while current != start {
                    let Some(previous) = came_from.get(&current) else { break };
                    path.push(previous.clone());
                    current = previous.clone();
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(entry) = came_from.entry(dependency.clone()) {
                entry.insert(address.clone());
                queue.push_back(dependency.clone());
            }
        }
    }
    vec![start]
}

/// The root variables of an evaluation, built from values at their
/// addresses: `local.a` becomes `local = { a = … }`.
#[derive(Default)]
struct Scope {
    roots: BTreeMap<String, Node>,
}

enum Node {
    Value(Value),
    Object(BTreeMap<String, Node>),
}

impl Scope {
    fn object_at(&mut self, segments: &[SmolStr]) -> Option<&mut BTreeMap<String, Node>> {
        let mut current = &mut self.roots;
        for segment in segments {
            let node = current.entry(segment.to_string()).or_insert_with(|| Node::Object(BTreeMap::new()));
            match node {
                Node::Object(children) => current = children,
                // A value where an object was expected (overlapping
                // addresses): the value stays.
                Node::Value(_) => return None,
            }
        }
        Some(current)
    }

    fn insert_value(&mut self, segments: &[SmolStr], value: Value) {
        let Some((last, parents)) = segments.split_last() else { return };
        if let Some(object) = self.object_at(parents) {
            object.entry(last.to_string()).or_insert(Node::Value(value));
        }
    }

    fn into_variables(self) -> BTreeMap<String, Value> {
        self.roots.into_iter().map(|(name, node)| (name, node.into_value())).collect()
    }
}

impl Node {
    fn into_value(self) -> Value {
        match self {
            Node::Value(value) => value,
            Node::Object(children) => {
                Value::object(children.into_iter().map(|(name, node)| (name, node.into_value())).collect())
            }
        }
    }
}
