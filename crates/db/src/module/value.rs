//! Attribute values: each attribute evaluated with exactly the values its
//! expression references, and variables from their inputs and declarations.

use std::{cell::RefCell, collections::BTreeMap};

use smol_str::SmolStr;

use crate::{
    Db, File,
    module::{
        Address, Attr, AttrExpr, AttrKind, DeclarationKind, Definition, FunctionTable, Location, Module,
        Target, Unresolved, Value, definition, dialect_root, extract_expr, file_declarations, module_order,
        resolve::resolution_of,
    },
};

/// Why an attribute has no value. Ids in [`AttrError::Eval`] are those of
/// the attribute's [`AttrExpr`]; references are counted in the order of
/// [`crate::module::references`]. Nothing here holds a position, so an
/// unchanged error backdates like a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttrError {
    /// The module declares nothing at this address.
    NotDeclared,
    /// A reference names nothing (see [`Target::Unresolved`]).
    /// The kind and detail are boxed (the detail twice, for a thin
    /// pointer), and the evaluation error below, and the numbers are
    /// 32-bit: an attribute's value is kept for every attribute, most have
    /// one, and an error larger than 32 bytes made every one 48 bytes
    /// rather than a value's 40.
    Unresolved { reference: u32, step: u32, kind: Box<Unresolved>, detail: Box<Box<str>> },
    /// The attribute's value depends on itself: the cycle, from this
    /// attribute back to it, when a walk of at most [`CYCLE_PATH_LIMIT`]
    /// attributes finds it (not tried on a cycle the caller set with more
    /// members than that); otherwise empty, since every attribute on a
    /// cycle of n gets this error, and n walks of n steps would cost n² in
    /// time and memory. [`cycle_path`] finds any cycle's path.
    Cycle(Vec<Address>),
    /// A referenced variable has no value and no default.
    MissingVariable { reference: u32, variable: Address },
    /// A referenced attribute has no value; its own error says why.
    Dependency(Address),
    /// Evaluation failed (for a variable: its default's evaluation).
    Eval(Box<eval::EvalError>),
    /// A variable with neither a value nor a default (reported where it is
    /// used, as [`AttrError::MissingVariable`]).
    NoValue,
    /// A variable's `type` is not a valid type constraint ([`variable_types`]
    /// has the diagnostics).
    InvalidType,
    /// A variable's value (given, or its default) does not convert to its
    /// type constraint.
    InvalidValue { message: String, from_default: bool },
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(
    std::mem::size_of::<Result<Value, AttrError>>() == std::mem::size_of::<Value>(),
    "an error fits beside a value"
);

impl AttrError {
    /// The error of the reference at `reference`, which names nothing from
    /// `step` on (see [`Target::Unresolved`]).
    fn unresolved(reference: usize, step: usize, kind: &Unresolved, detail: &str) -> AttrError {
        AttrError::Unresolved {
            reference: narrow(reference),
            step: narrow(step),
            kind: Box::new(kind.clone()),
            detail: Box::new(Box::from(detail)),
        }
    }
}

/// A count or position for an error, in 32 bits (saturating: no module
/// has four billion references in one expression).
pub(crate) fn narrow(it: usize) -> u32 {
    u32::try_from(it).unwrap_or(u32::MAX)
}

/// Every attribute of the module with an expression of its own (locals,
/// block attributes, top-level attributes), in declaration order (see
/// [`crate::module::module_order`]).
#[salsa::tracked(returns(ref))]
pub fn module_attributes(db: &dyn Db, module: Module) -> Vec<Attr<'_>> {
    let index = crate::module::IndexView::of(db, module);
    module_order(db, module)
        .filter(|address| index.definition(address).is_some_and(|def| def.kind.is_attribute()))
        .map(|address| Attr::new(db, module, address.clone()))
        .collect()
}

/// The expression of `def` in its file's HIR: the attribute's value, or a
/// variable's default.
pub(crate) fn locate(db: &dyn Db, hir: &hir::FileHir, def: &Definition) -> Option<hir::ExprId> {
    locate_at(hir, &def.kind, def.location(db))
}

fn locate_declaration(hir: &hir::FileHir, declaration: &crate::module::Declaration) -> Option<hir::ExprId> {
    locate_at(hir, &declaration.kind, &declaration.location)
}

fn locate_at(hir: &hir::FileHir, kind: &DeclarationKind, location: &Location) -> Option<hir::ExprId> {
    let attribute = match kind {
        DeclarationKind::Variable { default_attr, .. } => default_attr.as_ref()?.get(),
        DeclarationKind::Block => return None,
        _ => location.attribute?,
    };
    let body = body_at(hir, location)?;
    Some(hir[*body.attributes.get(attribute as usize)?].value)
}

/// The body a location's attribute is in: the file's, a top-level block's,
/// or a nested block's.
pub(crate) fn body_at<'h>(hir: &'h hir::FileHir, location: &Location) -> Option<&'h hir::Body> {
    let Some(block) = location.block else { return Some(&hir.body) };
    let mut body = &hir[*hir.body.blocks.get(block as usize)?].body;
    for &nested in &location.nested {
        body = &hir[*body.blocks.get(nested as usize)?].body;
    }
    Some(body)
}

/// Every expression of a file that the module model evaluates (each
/// attribute's, each variable's default), copied out of the file's HIR into
/// an arena of its own, by the number of its declaration among
/// [`file_declarations`]'s. Re-runs whenever the file changes, and compares
/// equal unless one of its expressions did.
///
/// This, not the file's HIR, is what the module's resolutions and values
/// read, so that the HIR (and the tree under it) need not stay in memory:
/// they are evicted like trees, and only this copy of the expressions, much
/// smaller, is kept.
///
/// Kept for the most recently used files, as many as twice the largest
/// module has and at least [`crate::EXPRESSIONS_KEPT`] (see
/// [`crate::RootDatabase::set_module_files`]): every file of a module being
/// edited, whose dependents read them, and not every file of a workspace of
/// thousands of modules that nothing edits. An evicted copy is made again
/// from the file when one of its attributes is evaluated again.
#[salsa::tracked(returns(ref), lru = 256)]
pub fn file_exprs(db: &dyn Db, file: File) -> FileExprs {
    let declarations = file_declarations(db, file);
    let exprs = if file.syntax(db) == crate::SourceSyntax::Json {
        declarations
            .declarations
            .iter()
            .map(|it| crate::module::json::attribute_expr(db, file, &it.location, &it.kind))
            .collect()
    } else {
        let hir = crate::lower(db, file);
        declarations
            .declarations
            .iter()
            .map(|it| locate_declaration(hir, it).map(|root| extract_expr(&hir.exprs, root)))
            .collect()
    };
    FileExprs { exprs }
}

/// Sets how many attributes' values [`attribute_value`] are kept, and as
/// many of the firewalls each value reads ([`attribute_expr`],
/// [`super::attribute_resolution`]); 0 for all.
pub(crate) fn set_values_kept(db: &mut dyn Db, attributes: usize) {
    attribute_value::set_lru_capacity(db, attributes);
    attribute_expr::set_lru_capacity(db, attributes);
    super::resolve::set_resolutions_kept(db, attributes);
}

/// Sets how many files' expression copies [`file_exprs`] keeps.
pub(crate) fn set_file_exprs_kept(db: &mut dyn Db, files: usize) {
    file_exprs::set_lru_capacity(db, files);
}

/// The expressions of one file's declarations (see [`file_exprs`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileExprs {
    exprs: Vec<Option<AttrExpr>>,
}

impl FileExprs {
    /// The expression of a file's declaration by its number.
    pub fn get(&self, declaration: u32) -> Option<&AttrExpr> {
        self.exprs.get(declaration as usize)?.as_ref()
    }

    /// Every declaration's expression, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = &AttrExpr> {
        self.exprs.iter().flatten()
    }
}

/// `attr`'s expression (a variable's default), in a memo of its own: a
/// handle on [`file_exprs`]'s copy, equal after an edit to its file that
/// left it as it was. The firewall of a database whose indexes are kept in
/// parts (see [`super::Firewall::Expression`]). Kept as
/// [`attribute_value`]'s values are.
#[salsa::tracked(returns(ref), lru = 0)]
pub fn attribute_expr<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Option<AttrExpr> {
    expr_of(db, definition(db, attr.module(db), attr.address(db))?).cloned()
}

/// The expression of a definition, as [`file_exprs`] keeps it.
pub(crate) fn expr_of<'db>(db: &'db dyn Db, def: &Definition) -> Option<&'db AttrExpr> {
    file_exprs(db, def.file).get(def.declaration)
}

/// Why a variable's `type` is not a type constraint: the type reader's
/// diagnostics, and whether the expression is a legacy form (a quoted
/// string, `"string"`, or a bare `list` or `map`) that older tools accepted
/// and tools of that lineage may still read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidTypeConstraint {
    pub diagnostics: Vec<decode::Diagnostic>,
    pub legacy: bool,
}

/// A variable's type constraint as [`variable_types`] reads it.
pub type VariableType = Result<decode::typeexpr::TypeConstraint, InvalidTypeConstraint>;

/// The type constraint of each variable `file` declares with a `type`,
/// or the diagnostics of an invalid one. Type expressions are read through
/// `decode`'s static analyses, which need the file's tree and source map,
/// so this re-runs on every edit of the file; a variable's value reads it
/// only when the variable has a `type`, and is re-run only when the
/// constraint changes.
#[salsa::tracked(returns(ref))]
pub fn variable_types(db: &dyn Db, file: File) -> VariableTypes {
    read_variable_types(db, file).into_iter().collect()
}

/// The type constraints of a file's variables, by name: a sorted list, which
/// a file of two variables keeps in two entries (a map's node would hold
/// room for a dozen).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct VariableTypes(Vec<(SmolStr, VariableType)>);

impl VariableTypes {
    pub fn get(&self, name: &str) -> Option<&VariableType> {
        let index = self.0.binary_search_by(|(it, _)| it.as_str().cmp(name)).ok()?;
        Some(&self.0[index].1)
    }

    pub fn values(&self) -> impl Iterator<Item = &VariableType> {
        self.0.iter().map(|(_, it)| it)
    }
}

impl FromIterator<(SmolStr, VariableType)> for VariableTypes {
    /// From entries in name order, each name once (a map's).
    fn from_iter<I: IntoIterator<Item = (SmolStr, VariableType)>>(entries: I) -> VariableTypes {
        let mut entries: Vec<(SmolStr, VariableType)> = entries.into_iter().collect();
        entries.shrink_to_fit();
        VariableTypes(entries)
    }
}

/// Whether `file` declares a variable with a `type`: [`variable_types`] of
/// any other file is empty, and a caller that asks of every file (the
/// host while each file's tree is in memory, the report's type
/// diagnostics) need not make a memo of it to find that out.
pub fn declares_variable_types(db: &dyn Db, file: File) -> bool {
    file_declarations(db, file)
        .declarations
        .iter()
        .any(|it| matches!(it.kind, DeclarationKind::Variable { type_attr: Some(_), .. }))
}

fn read_variable_types(db: &dyn Db, file: File) -> BTreeMap<SmolStr, VariableType> {
    let mut out = BTreeMap::new();
    if !declares_variable_types(db, file) || file.status(db) == crate::FileStatus::Deleted {
        return out;
    }
    if let Some(known) = known_variable_types(db, file) {
        return known;
    }
    let source = match file.syntax(db) {
        // The database's tree and HIR of the file, which declaring the
        // module's variables built already: parsing the file again here
        // took a tenth of a check. Not for undecodable bytes, whose tree is
        // empty while their text is not.
        crate::SourceSyntax::Native if file.encoding_error(db).is_none() => {
            decode::SourceFile::native_parsed(
                file.path(db).as_str(),
                file.text(db).clone(),
                crate::parse(db, file).clone(),
                crate::lower(db, file).clone(),
                crate::source_map(db, file).clone(),
            )
        }
        crate::SourceSyntax::Native => {
            decode::SourceFile::native(file.path(db).as_str(), file.text(db).clone())
        }
        crate::SourceSyntax::Json => decode::SourceFile::json(file.path(db).as_str(), file.text(db).clone()),
    };
    let body = source.body();
    let schema = decode::BodySchema {
        attributes: Vec::new(),
        blocks: vec![decode::BlockHeaderSchema {
            type_name: "variable".into(),
            label_names: vec!["name".into()],
        }],
    };
    let (content, _, _) = body.partial_content(&schema);
    let type_schema = decode::BodySchema {
        attributes: vec![decode::AttributeSchema { name: "type".into(), required: false }],
        blocks: Vec::new(),
    };
    for block in &content.blocks {
        let Some(name) = block.labels.first() else { continue };
        if out.contains_key(name) {
            continue;
        }
        let (content, _, _) = block.body.partial_content(&type_schema);
        if let Some(attribute) = content.attribute("type") {
            let constraint =
                decode::typeexpr::type_constraint_with_defaults(&attribute.expr).map_err(|diagnostics| {
                    let legacy = attribute.expr.is_quoted_string()
                        || attribute
                            .expr
                            .as_keyword()
                            .is_some_and(|keyword| keyword == "list" || keyword == "map");
                    InvalidTypeConstraint { diagnostics, legacy }
                });
            out.insert(name.clone(), constraint);
        }
    }
    remember_type_constraints(db, file, &out);
    out
}

thread_local! {
    /// Valid type constraints already read, by their text: a repository's
    /// variables repeat a few (`string`, `list(string)`, `map(any)`), and
    /// reading one through `decode` was a twentieth of a check. A
    /// constraint means the same wherever its text is written.
    static KNOWN_TYPE_CONSTRAINTS: RefCell<rustc_hash::FxHashMap<Box<str>, decode::typeexpr::TypeConstraint>> =
        RefCell::default();
}

/// Constraints remembered per thread, at most: the few common ones are
/// what it is for.
const KNOWN_TYPE_CONSTRAINTS_LIMIT: usize = 4096;

/// The `type` of each `variable` block of a native file that [`variable_types`]
/// reads as `decode` does (one label, `type` set once; the first block of a
/// name), with the text of its expression.
fn variable_type_texts(db: &dyn Db, file: File) -> Option<Vec<(&SmolStr, &str)>> {
    if file.syntax(db) != crate::SourceSyntax::Native || file.encoding_error(db).is_some() {
        return None;
    }
    let hir = crate::lower(db, file);
    let source_map = crate::source_map(db, file);
    let text = file.text(db);
    let mut out: Vec<(&SmolStr, &str)> = Vec::new();
    for &block in &hir.body.blocks {
        let block = &hir[block];
        if block.type_name != "variable" {
            continue;
        }
        // `decode` leaves out a block with other labels; and which `type`
        // it reads of two is its business.
        let [name] = block.labels.as_slice() else { return None };
        let mut types = block.body.attributes.iter().filter(|&&it| hir[it].name == "type");
        let attribute = match (types.next(), types.next()) {
            (None, _) => continue,
            (Some(&attribute), None) => attribute,
            (Some(_), Some(_)) => return None,
        };
        if out.iter().any(|(seen, _)| *seen == name) {
            continue;
        }
        let range = source_map.expr_syntax(hir[attribute].value)?.text_range();
        out.push((name, text.get(usize::from(range.start())..usize::from(range.end()))?));
    }
    Some(out)
}

/// [`variable_types`] of a native file whose every `type` is a constraint
/// read before (see [`KNOWN_TYPE_CONSTRAINTS`]), without reading the file
/// through `decode`; `None` when one is not known.
fn known_variable_types(db: &dyn Db, file: File) -> Option<BTreeMap<SmolStr, VariableType>> {
    let texts = variable_type_texts(db, file)?;
    KNOWN_TYPE_CONSTRAINTS.with_borrow(|known| {
        texts.into_iter().map(|(name, text)| Some((name.clone(), Ok(known.get(text)?.clone())))).collect()
    })
}

/// Remembers the valid constraints `decode` read in `file`, by their text.
fn remember_type_constraints(db: &dyn Db, file: File, types: &BTreeMap<SmolStr, VariableType>) {
    let Some(texts) = variable_type_texts(db, file) else { return };
    KNOWN_TYPE_CONSTRAINTS.with_borrow_mut(|known| {
        for (name, text) in texts {
            if known.len() >= KNOWN_TYPE_CONSTRAINTS_LIMIT {
                return;
            }
            if let Some(Ok(constraint)) = types.get(name) {
                known.entry(text.into()).or_insert_with(|| constraint.clone());
            }
        }
    });
}

thread_local! {
    /// Contexts with a function table, kept per thread with the generation
    /// of the table each holds (0 for the standard library alone), the most
    /// recently used last: building the table (or cloning it) for every
    /// attribute cost more than evaluating most attributes, and a check
    /// goes back and forth between the standard library and a dialect's
    /// table from one module to the next.
    static CONTEXTS: RefCell<Vec<(u64, eval::Context)>> = const { RefCell::new(Vec::new()) };
}

/// Contexts kept per thread, at most.
const CONTEXTS_KEPT: usize = 4;

/// Evaluates `expr` with `variables` as its roots and the standard library,
/// or `functions` when given.
fn evaluate(
    expr: &AttrExpr,
    variables: BTreeMap<String, Value>,
    functions: Option<&FunctionTable>,
) -> Result<Value, eval::EvalError> {
    let generation = functions.map_or(0, FunctionTable::generation);
    CONTEXTS.with(|cell| {
        // Taken out rather than borrowed: evaluation never comes back here,
        // but if it ever did, the inner call would build a context of its
        // own instead of failing on the borrow.
        let cached = {
            let mut kept = cell.borrow_mut();
            let position = kept.iter().position(|(cached, _)| *cached == generation);
            position.map(|position| kept.remove(position).1)
        };
        let mut context = cached.unwrap_or_else(|| match functions {
            Some(table) => eval::Context {
                functions: table.functions().clone(),
                namespaces: table.namespaces().clone(),
                ..eval::Context::new()
            },
            None => eval::Context::with_stdlib(),
        });
        context.variables = variables;
        let result = eval::eval_expr(expr.exprs(), expr.root(), &context);
        context.variables.clear();
        let mut kept = cell.borrow_mut();
        if kept.len() >= CONTEXTS_KEPT {
            kept.remove(0);
        }
        kept.push((generation, context));
        result
    })
}

/// Which of an expression's references that name nothing a `try` or `can`
/// catches: a block's missing attribute (or a plug-in's missing member)
/// inside one is an error the call catches, as HCL evaluates it. Which
/// references a call holds is found only when one may be caught.
pub(crate) struct CaughtReferences<'a> {
    expr: &'a AttrExpr,
    inside: Option<Vec<bool>>,
}

impl<'a> CaughtReferences<'a> {
    pub(crate) fn new(expr: &'a AttrExpr) -> CaughtReferences<'a> {
        CaughtReferences { expr, inside: None }
    }

    /// Whether the reference at `reference`, which names nothing as
    /// `kind` says, is caught.
    pub(crate) fn catches(&mut self, kind: &Unresolved, reference: usize) -> bool {
        matches!(kind, Unresolved::UnsupportedAttribute { .. } | Unresolved::UnsupportedMember { .. })
            && self.inside.get_or_insert_with(|| references_caught(self.expr)).get(reference) == Some(&true)
    }
}

/// For each reference of `expr` (in [`crate::module::references`]' order),
/// whether it is inside an argument of `try` or `can`.
fn references_caught(expr: &AttrExpr) -> Vec<bool> {
    let mut inside = rustc_hash::FxHashSet::default();
    let mut stack = Vec::new();
    for (_, it) in expr.exprs().iter() {
        if let hir::Expr::Call(call) = it
            && matches!(call.name.as_str(), "try" | "can")
        {
            stack.extend(call.args.iter().copied());
        }
    }
    let mut children = Vec::new();
    while let Some(id) = stack.pop() {
        if inside.insert(id) {
            children.clear();
            expr.exprs().get(id).children(&mut children);
            stack.extend(children.iter().copied());
        }
    }
    crate::module::references(expr.exprs(), expr.root())
        .iter()
        .map(|reference| reference.links.first().is_some_and(|root| inside.contains(root)))
        .collect()
}

/// Whether `expr` calls one of `names`; the empty name stands for every
/// namespaced name (`provider::aws::arn_parse`), which a dialect may
/// resolve by its namespace.
fn calls_any(expr: &AttrExpr, names: &std::collections::BTreeSet<SmolStr>) -> bool {
    !names.is_empty()
        && expr.exprs().iter().any(|(_, it)| {
            matches!(it, hir::Expr::Call(call)
                if names.contains(call.name.as_str()) || (call.name.contains("::") && names.contains("")))
        })
}

/// Whether `expr` calls a function by a name without a namespace that the
/// standard library does not have.
fn calls_outside_stdlib(expr: &AttrExpr) -> bool {
    static STDLIB: std::sync::OnceLock<std::collections::BTreeSet<String>> = std::sync::OnceLock::new();
    let stdlib = STDLIB.get_or_init(|| eval::stdlib::functions().into_keys().collect());
    expr.exprs().iter().any(|(_, it)| {
        matches!(it, hir::Expr::Call(call) if !call.name.contains("::") && !stdlib.contains(call.name.as_str()))
    })
}

/// The value of `attr`: a variable's value, or the attribute's expression
/// evaluated with the values of exactly what it references (each through
/// this query, so that an edit re-evaluates only what depends on it).
/// A reference cycle gives every attribute on it [`AttrError::Cycle`]
/// (salsa's cycle fallback), never a hang.
///
/// Every value is kept unless the database is told that values may be
/// evicted (see [`crate::RootDatabase::set_idle_state_evictable`]), for a
/// front end that shows no values: then only the most recently used are.
#[salsa::tracked(returns(ref), cycle_result = attribute_value_in_cycle, lru = 0)]
pub fn attribute_value<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Result<Value, AttrError> {
    db.note_executed(crate::CountedQuery::AttributeValue);
    let resolution = resolution_of(db, attr);
    let resolution = &*resolution;
    match resolution.kind {
        AttrKind::NotDeclared => return Err(AttrError::NotDeclared),
        AttrKind::Variable { file, has_type } => {
            return variable_value(db, attr, resolution.expr.as_ref(), file, has_type);
        }
        AttrKind::Static => return Ok(Value::dynamic()),
        AttrKind::Expression => {}
    }
    let Some(expr) = &resolution.expr else { return Err(AttrError::NotDeclared) };
    let dialect = attr.module(db).dialect(db);
    let computed_attributes = dialect.rules(db).computed_attributes;
    let mut scope = Scope::default();
    // A reference a `try` or `can` catches is left out of the scope, so
    // that evaluation fails there instead (see `CaughtReferences`).
    let mut caught = CaughtReferences::new(expr);
    let mut is_caught = |kind: &Unresolved, reference: usize| caught.catches(kind, reference);
    // A block with no instances (`count = 0`, an empty `for_each`) has no
    // attributes to evaluate, as its tool never evaluates them: only its
    // references must name something.
    if let Some(instances) = resolution.instances
        && let Some(Target::Attributes { attrs, .. }) = resolution.targets.get(instances.target as usize)
        && let Some(decides) = attrs.first()
        && let Ok(value) = attribute_value(db, Attr::new(db, attr.module(db), decides.clone()))
        && instances.repetition.makes_none(value)
    {
        for (reference, target) in resolution.targets.iter().enumerate() {
            if let Target::Unresolved { step, kind, detail } = target
                && !is_caught(kind, reference)
            {
                return Err(AttrError::unresolved(reference, *step, kind, detail));
            }
        }
        return Ok(instances.repetition.no_instances());
    }
    for (reference, target) in resolution.targets.iter().enumerate() {
        // The read of the block's `count` or `for_each`, done above.
        if resolution.instances.is_some_and(|it| it.target as usize == reference) {
            continue;
        }
        match target {
            // Left out of the scope (see `is_caught`).
            Target::Unresolved { kind, .. } if is_caught(kind, reference) => {}
            Target::Unresolved { step, kind, detail } => {
                return Err(AttrError::unresolved(reference, *step, kind, detail));
            }
            Target::Unknown { address } => scope.insert_unknown(&address.segments()),
            Target::Root { name } => match dialect_root(db, dialect, name.clone()) {
                Some(value) => scope.insert_value(std::slice::from_ref(name), value.clone()),
                None => scope.insert_unknown(std::slice::from_ref(name)),
            },
            Target::Attributes { objects, attrs } => {
                for object in objects {
                    scope.insert_object(&object.segments());
                }
                for address in attrs {
                    // A member of the attribute's own cycle, as the caller's
                    // graph found it: its value would need this one's.
                    if resolution.same_cycle.contains(address) {
                        // The walk for the path is left out where it cannot
                        // be short: a walk of up to the limit per member.
                        let short = resolution.cycle_members as usize <= CYCLE_PATH_LIMIT;
                        let path = if short { find_cycle(db, attr, CYCLE_PATH_LIMIT) } else { Vec::new() };
                        return Err(AttrError::Cycle(path));
                    }
                    match attribute_value(db, Attr::new(db, attr.module(db), address.clone())) {
                        // A block's attribute in a dialect whose tool computes
                        // attributes (a provider's, say) is what the tool
                        // makes of the written value: converted to its
                        // schema's type, computed when written null. Its value
                        // is still asked for, so that a cycle through it is
                        // found and its error stops the reader.
                        Ok(_) if computed_attributes && is_block_attribute(address) => {
                            scope.insert_unknown(&address.segments())
                        }
                        Ok(value) => scope.insert_value(&address.segments(), value.clone()),
                        Err(AttrError::NoValue) => {
                            return Err(AttrError::MissingVariable {
                                reference: narrow(reference),
                                variable: address.clone(),
                            });
                        }
                        Err(_) => return Err(AttrError::Dependency(address.clone())),
                    }
                }
            }
        }
    }
    // The dialect's function table is read only by attributes that call
    // one of its functions, so that changing it re-evaluates only those,
    // or a function the standard library does not have, so that the error
    // suggests the dialect's name nearest to it.
    let calls = expr.exprs().iter().any(|(_, it)| matches!(it, hir::Expr::Call(_)));
    let reads_table = calls && (calls_any(expr, dialect.function_names(db)) || calls_outside_stdlib(expr));
    let functions = reads_table.then(|| dialect.functions(db));
    evaluate(expr, scope.into_variables(), functions).map_err(|error| AttrError::Eval(Box::new(error)))
}

/// Whether evaluating `attr` may fail for some value of what it reads: not
/// when its expression is a literal, a reference whose value is its whole
/// result (`var.name`, `local.tags`, and where the dialect makes blocks'
/// attributes unknown, `aws_subnet.a.id` or `each.value.name`), or a tuple
/// or an object of those. A front end that reports only evaluation errors
/// can skip such an attribute (most of an infrastructure module's arguments are
/// of that kind). Read in place in a native file's HIR; a JSON file's
/// expressions count as fallible. By address, so that a check need not
/// intern an [`Attr`] for each of a module's attributes.
pub fn may_fail_to_evaluate(db: &dyn Db, module: Module, address: &Address) -> bool {
    let Some(def) = definition(db, module, address) else { return true };
    if def.file.syntax(db) != crate::SourceSyntax::Native
        || matches!(def.kind, DeclarationKind::Variable { .. })
    {
        return true;
    }
    let blocks_unknown = module.dialect(db).rules(db).computed_attributes;
    let Some(expr) = expr_of(db, def) else { return true };
    let mut stack = vec![expr.root()];
    while let Some(id) = stack.pop() {
        match expr.exprs().get(id) {
            hir::Expr::Literal(_) | hir::Expr::Variable(_) => {}
            hir::Expr::Template { parts, .. } => {
                if !parts.iter().all(|part| matches!(part, hir::TemplatePart::Literal(_))) {
                    return true;
                }
            }
            hir::Expr::Tuple(items) => stack.extend(items.iter().copied()),
            hir::Expr::Object(items) => {
                for item in items {
                    if !matches!(item.key, hir::ObjectKey::Name(_)) {
                        return true;
                    }
                    stack.push(item.value);
                }
            }
            hir::Expr::GetAttr { .. } => {
                // A chain of attribute steps from a root: the step after
                // `var` or `local` names the value, and steps past it read
                // into a value of a known type, which may not have them.
                // Another root is unknown from the step its reference
                // resolves to on, where the dialect makes blocks'
                // attributes unknown (and a dialect's roots always are).
                let mut steps = 0;
                let mut current = id;
                while let hir::Expr::GetAttr { base, .. } = expr.exprs().get(current) {
                    steps += 1;
                    current = *base;
                }
                let hir::Expr::Variable(root) = expr.exprs().get(current) else { return true };
                let infallible = match root.as_str() {
                    "var" | "local" => steps == 1,
                    _ => blocks_unknown,
                };
                if !infallible {
                    return true;
                }
            }
            _ => return true,
        }
    }
    false
}

/// Whether `address` is an attribute of a block (not a variable or a local).
fn is_block_attribute(address: &Address) -> bool {
    !matches!(address.first(), Some("var" | "local"))
}

/// Where a variable's default is evaluated: no variables (a default cannot
/// refer to anything) and no functions, but those the dialect allows there
/// ([`super::DialectRules::default_functions`]), from its table.
fn default_context(db: &dyn Db, module: super::Module) -> eval::Context {
    let dialect = module.dialect(db);
    let allowed = &dialect.rules(db).default_functions;
    if allowed.is_empty() {
        return eval::Context::none();
    }
    let table = dialect.functions(db).functions();
    let functions = allowed
        .iter()
        .filter_map(|name| Some((name.to_string(), table.get(name.as_str())?.clone())))
        .collect();
    eval::Context { variables_allowed: false, functions, ..eval::Context::default() }
}

/// What a variable's query answers: the value given, else its default
/// (evaluated with no variables: a default cannot refer to anything),
/// converted to its type constraint with the constraint's defaults applied.
fn variable_value<'db>(
    db: &'db dyn Db,
    attr: Attr<'db>,
    default: Option<&AttrExpr>,
    file: File,
    has_type: bool,
) -> Result<Value, AttrError> {
    let name = SmolStr::new(attr.address(db).segment(1).unwrap_or_default());
    let given = attr.module(db).variables(db).get(name.as_str()).cloned();
    // A module's inputs in a dialect that says a caller sets them: a
    // variable not given is unknown of its type, whatever
    // its default, since any caller may set it. The default is still
    // checked against the type.
    let inputs_unknown = attr.module(db).dialect(db).rules(db).unset_variables_unknown;
    // A root module's defaults are its values: only its caller sets it.
    let defaults_unknown = inputs_unknown && attr.module(db).role(db) == super::ModuleRole::Called;
    let (value, from_default) = match given {
        Some(value) => (value, false),
        None => match default {
            Some(expr) => (
                eval::eval_expr(expr.exprs(), expr.root(), &default_context(db, attr.module(db)))
                    .map_err(|error| AttrError::Eval(Box::new(error)))?,
                true,
            ),
            None if inputs_unknown => (Value::dynamic(), false),
            None => return Err(AttrError::NoValue),
        },
    };
    let value = if defaults_unknown && from_default {
        if has_type && let Some(Ok(constraint)) = variable_types(db, file).get(&name) {
            decode::typeexpr::convert_with_defaults(&value, constraint)
                .map_err(|message| AttrError::InvalidValue { message, from_default })?;
        }
        Value::dynamic()
    } else {
        value
    };
    if !has_type {
        return Ok(value);
    }
    match variable_types(db, file).get(&name) {
        Some(Ok(constraint)) => decode::typeexpr::convert_with_defaults(&value, constraint)
            .map_err(|message| AttrError::InvalidValue { message, from_default }),
        Some(Err(_)) => Err(AttrError::InvalidType),
        None => Ok(value),
    }
}

/// How many attributes the walk for a cycle's path in
/// [`AttrError::Cycle`] visits before giving up.
pub const CYCLE_PATH_LIMIT: usize = 64;

/// The fallback salsa gives each attribute on a reference cycle: the cycle's
/// path if it is short (see [`AttrError::Cycle`]).
fn attribute_value_in_cycle<'db>(
    db: &'db dyn Db,
    _id: salsa::Id,
    attr: Attr<'db>,
) -> Result<Value, AttrError> {
    Err(AttrError::Cycle(find_cycle(db, attr, CYCLE_PATH_LIMIT)))
}

/// The cycle of references through `attr`, from it back to it
/// (`local.a -> local.b -> local.a`), found on the resolved references
/// (which never cycle themselves); just `attr` if it is on none.
pub fn cycle_path<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Vec<Address> {
    match attribute_value(db, attr) {
        Err(AttrError::Cycle(path)) if !path.is_empty() => path.clone(),
        _ => find_cycle(db, attr, usize::MAX),
    }
}

/// The shortest path of references from `start` back to itself, both ends
/// included (`local.a -> local.b -> local.a`), found on the resolutions
/// (which never cycle themselves) by the graph's walk, giving up after
/// `limit` attributes (then empty); just `start` if there is none.
pub(crate) fn find_cycle<'db>(db: &'db dyn Db, start: Attr<'db>, limit: usize) -> Vec<Address> {
    match crate::graph::shortest_cycle(start, limit, |attr| dependency_attrs(db, attr)) {
        crate::graph::CycleSearch::Found(path) => {
            path.into_iter().map(|attr| attr.address(db).clone()).collect()
        }
        crate::graph::CycleSearch::GaveUp => Vec::new(),
        crate::graph::CycleSearch::NoCycle => vec![start.address(db).clone()],
    }
}

/// `attrs` and everything they reference, dependencies before their users
/// (cycles broken anywhere), for [`evaluate_in_order`].
pub fn evaluation_order<'db>(db: &'db dyn Db, attrs: &[Attr<'db>]) -> Vec<Attr<'db>> {
    crate::graph::dependencies_first(attrs.iter().copied(), |attr| dependency_attrs(db, attr))
}

/// The attributes `attr`'s resolution reads, in its module.
fn dependency_attrs<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Vec<Attr<'db>> {
    let module = attr.module(db);
    resolution_of(db, attr)
        .dependencies()
        .into_iter()
        .map(|address| Attr::new(db, module, address.clone()))
        .collect()
}

/// Evaluates `attrs` (and what they reference) dependencies first.
///
/// [`attribute_value`] asks for each referenced value in turn, so asking
/// for the end of a chain of references first recurses through the whole
/// chain, a few stack frames of salsa's per link; so does salsa's check of
/// a chain after an edit. Asked in this order, every value's references are
/// already known (or checked) when it is asked for, and the stack stays
/// shallow however long the chains are. Front ends that evaluate a whole
/// module should go through here.
pub fn evaluate_in_order<'db>(db: &'db dyn Db, attrs: &[Attr<'db>]) {
    for attr in evaluation_order(db, attrs) {
        let _ = attribute_value(db, attr);
    }
}

/// The root variables of an evaluation, built from the referenced values at
/// their addresses: `local.a` becomes `local = { a = … }`.
#[derive(Default)]
struct Scope {
    roots: BTreeMap<String, Node>,
}

enum Node {
    Value(Value),
    Object(BTreeMap<String, Node>),
}

impl Scope {
    fn object_at(&mut self, segments: &[impl AsRef<str>]) -> Option<&mut BTreeMap<String, Node>> {
        let mut current = &mut self.roots;
        for segment in segments {
            let node =
                current.entry(segment.as_ref().to_owned()).or_insert_with(|| Node::Object(BTreeMap::new()));
            match node {
                Node::Object(children) => current = children,
                // A value where an object was expected: two declarations
                // with overlapping addresses; the value stays.
                Node::Value(_) => return None,
            }
        }
        Some(current)
    }

    fn insert_object(&mut self, segments: &[impl AsRef<str>]) {
        self.object_at(segments);
    }

    /// An unknown value at `segments`, in place of whatever was there: an
    /// object built from the known attributes of a block would make the
    /// unknown ones errors.
    fn insert_unknown(&mut self, segments: &[impl AsRef<str>]) {
        let Some((last, parents)) = segments.split_last() else { return };
        if let Some(object) = self.object_at(parents) {
            object.insert(last.as_ref().to_owned(), Node::Value(Value::dynamic()));
        }
    }

    fn insert_value(&mut self, segments: &[impl AsRef<str>], value: Value) {
        let Some((last, parents)) = segments.split_last() else { return };
        if let Some(object) = self.object_at(parents) {
            object.entry(last.as_ref().to_owned()).or_insert(Node::Value(value));
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
