//! The module's diagnostics, with files and ranges.
//!
//! Everything below this point is position-free; here the positions come
//! back, from the files' source maps. These queries therefore re-run after
//! any edit of the module's files, and are the only ones that do besides the
//! per-file projections.

use std::borrow::Cow;

use smol_str::SmolStr;
use syntax::TextRange;

use crate::{
    Db, File,
    module::{
        Attr, AttrError, DeclarationKind, Definition, Location, Module, Unresolved, attribute_value, extract,
        references,
        value::{locate, narrow},
        variable_types,
    },
};

/// A problem in a module, with where it is. `analysis` turns it into the
/// one `Diagnostic` type, its rule code decided by a `match` on
/// [`ModuleDiagnostic::kind`]; this crate keeps its own type because it
/// sits below `analysis`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleDiagnostic {
    pub file: File,
    pub range: TextRange,
    /// What kind of problem, with its data.
    pub kind: ModuleDiagnosticKind,
    /// The reference's detail sentence.
    pub detail: String,
    /// Other places that explain the problem (the first declaration of a
    /// duplicate), and what to say there.
    pub related: Vec<(File, TextRange, String)>,
}

impl ModuleDiagnostic {
    /// The reference's one-line summary ("Unknown variable").
    pub fn summary(&self) -> Cow<'static, str> {
        self.kind.summary()
    }
}

/// What a declaration declared twice is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DuplicateOf {
    Variable,
    Local,
    TopLevelAttribute,
    /// A block (or an attribute of one) of this type.
    Block {
        block_type: SmolStr,
    },
}

/// The kinds of problems the module model finds, each with its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModuleDiagnosticKind {
    /// A second declaration of an address.
    Duplicate(DuplicateOf),
    /// A variable's `type` that is not a type constraint. `legacy` when it
    /// is a quoted string or a bare `list` or `map`: what older tools
    /// accepted.
    InvalidTypeConstraint { summary: String, legacy: bool },
    /// A reference that names nothing.
    Unresolved(Unresolved),
    /// An attribute whose value depends on itself.
    ReferenceCycle,
    /// A referenced variable with no value and no default.
    MissingVariable { name: SmolStr },
    /// An expression that fails to evaluate.
    Eval(eval::EvalErrorKind),
    /// A variable's value (given, or its default) that does not convert to
    /// its type.
    InvalidVariableValue { from_default: bool },
    /// A module call's argument that the child module has no variable for.
    UnsupportedModuleArgument { name: SmolStr, suggestion: Option<SmolStr> },
    /// A required variable of the child module that a call does not set.
    MissingModuleArgument { name: SmolStr },
    /// An input (a member of an object of inputs) the module a unit
    /// deploys has no variable for: the tool passes it through the
    /// environment, where the module ignores it.
    UnusedInput { name: SmolStr, suggestion: Option<SmolStr> },
    /// A required variable of the module a unit deploys that its inputs do
    /// not set (it may still come from the environment or a variables
    /// file).
    MissingInput { name: SmolStr },
    /// A namespaced function a module cannot call (found by its dialect's
    /// `DialectPlugin::file_diagnostics`): `namespace` with its trailing
    /// `::`, `name` the last part.
    UnknownProviderFunction { namespace: SmolStr, name: SmolStr },
    /// A file a unit imports (through its dialect's importing blocks) that
    /// imports another itself, which the tool refuses: only one level of
    /// imports is allowed. Found by the dialect's
    /// `DialectPlugin::file_diagnostics`.
    NestedImport,
    /// A file a unit reads that does not exist, where its tool stops.
    /// Found by the dialect's `DialectPlugin::file_diagnostics`, only
    /// where every candidate of the read was looked for and none exists.
    MissingRead(ReadFor),
    /// A block that breaks its dialect's schema (see
    /// [`crate::module::BlockSchema`]).
    Schema(crate::module::SchemaViolation),
}

/// What a unit reads a file for (see [`ModuleDiagnosticKind::MissingRead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadFor {
    /// To import its declarations (an include).
    Import,
    /// As the configuration of another unit the unit depends on.
    Unit,
    /// As a value (a function that reads a configuration file).
    Value,
}

impl ModuleDiagnosticKind {
    /// The reference's one-line summary of this kind.
    pub fn summary(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            ModuleDiagnosticKind::Duplicate(DuplicateOf::Variable) => "Duplicate variable declaration",
            ModuleDiagnosticKind::Duplicate(DuplicateOf::Local) => "Duplicate local value definition",
            ModuleDiagnosticKind::Duplicate(DuplicateOf::TopLevelAttribute) => "Duplicate attribute",
            ModuleDiagnosticKind::Duplicate(DuplicateOf::Block { block_type }) => {
                return Cow::Owned(format!("Duplicate {block_type} block"));
            }
            // The type expression's own reader words these.
            ModuleDiagnosticKind::InvalidTypeConstraint { summary, .. } => {
                return Cow::Owned(summary.clone());
            }
            ModuleDiagnosticKind::Unresolved(unresolved) => unresolved.summary(),
            ModuleDiagnosticKind::ReferenceCycle => "Reference cycle",
            ModuleDiagnosticKind::MissingVariable { .. } => "No value for required variable",
            ModuleDiagnosticKind::Eval(kind) => kind.summary(),
            ModuleDiagnosticKind::InvalidVariableValue { from_default: true } => {
                "Invalid default value for variable"
            }
            ModuleDiagnosticKind::InvalidVariableValue { from_default: false } => {
                "Invalid value for input variable"
            }
            ModuleDiagnosticKind::UnsupportedModuleArgument { .. } => "Unsupported argument",
            ModuleDiagnosticKind::MissingModuleArgument { .. } => "Missing required argument",
            ModuleDiagnosticKind::UnusedInput { .. } => "Unused input",
            ModuleDiagnosticKind::MissingInput { .. } => "Missing required input",
            ModuleDiagnosticKind::UnknownProviderFunction { .. } => "Unknown provider function",
            ModuleDiagnosticKind::NestedImport => "Too many levels of includes",
            ModuleDiagnosticKind::MissingRead(ReadFor::Import) => "Included file not found",
            ModuleDiagnosticKind::MissingRead(ReadFor::Unit) => "Dependency not found",
            ModuleDiagnosticKind::MissingRead(ReadFor::Value) => "File not found",
            ModuleDiagnosticKind::Schema(violation) => return Cow::Owned(violation.summary()),
        })
    }

    /// A short kebab-case name of the kind, for logs and tests (rule codes
    /// are `analysis`'s, by a `match` on the kind).
    pub fn name(&self) -> &'static str {
        match self {
            ModuleDiagnosticKind::Duplicate(_) => "duplicate-declaration",
            ModuleDiagnosticKind::InvalidTypeConstraint { .. } => "invalid-type",
            ModuleDiagnosticKind::Unresolved(_) => "unresolved-reference",
            ModuleDiagnosticKind::ReferenceCycle => "reference-cycle",
            ModuleDiagnosticKind::MissingVariable { .. } => "missing-variable",
            ModuleDiagnosticKind::Eval(_) => "eval",
            ModuleDiagnosticKind::InvalidVariableValue { .. } => "invalid-variable-value",
            ModuleDiagnosticKind::UnsupportedModuleArgument { .. } => "unsupported-module-argument",
            ModuleDiagnosticKind::MissingModuleArgument { .. } => "missing-module-argument",
            ModuleDiagnosticKind::UnusedInput { .. } => "unused-input",
            ModuleDiagnosticKind::MissingInput { .. } => "missing-input",
            ModuleDiagnosticKind::UnknownProviderFunction { .. } => "unknown-provider-function",
            ModuleDiagnosticKind::NestedImport => "nested-import",
            ModuleDiagnosticKind::MissingRead(_) => "missing-read",
            ModuleDiagnosticKind::Schema(_) => "schema",
        }
    }

    /// The name suggested in place of a misspelt one, if any.
    pub fn suggestion(&self) -> Option<&SmolStr> {
        match self {
            ModuleDiagnosticKind::Unresolved(unresolved) => unresolved.suggestion(),
            ModuleDiagnosticKind::Eval(kind) => kind.suggestion(),
            ModuleDiagnosticKind::UnsupportedModuleArgument { suggestion, .. }
            | ModuleDiagnosticKind::UnusedInput { suggestion, .. } => suggestion.as_ref(),
            ModuleDiagnosticKind::Schema(
                crate::module::SchemaViolation::UnsupportedArgument { suggestion, .. }
                | crate::module::SchemaViolation::UnsupportedBlock { suggestion, .. },
            ) => suggestion.as_ref(),
            _ => None,
        }
    }
}

/// Every problem of the module: duplicate declarations, invalid variable
/// types, then each attribute's error in declaration order (unresolved
/// references, cycles — each cycle once —, variables with no value where
/// they are used, values that do not fit a variable's type, evaluation
/// errors). An attribute that fails only because something it references
/// failed is not reported again.
#[salsa::tracked(returns(ref))]
pub fn module_diagnostics(db: &dyn Db, module: Module) -> Vec<ModuleDiagnostic> {
    let mut out = duplicate_diagnostics(db, module).clone();
    for &file in crate::module::module_files(db, module) {
        out.extend(type_constraint_diagnostics(db, file));
    }
    for &file in crate::module::module_files(db, module) {
        out.extend(crate::module::dialect_file_diagnostics(db, module, file));
    }
    // Dependencies first, so that a long chain of references does not
    // recurse through the whole chain (see `evaluate_in_order`).
    crate::module::evaluate_in_order(db, crate::module::module_attributes(db, module));
    // The attributes on cycles reported already: each cycle once, and its
    // path found once (a walk around the whole cycle).
    let mut on_reported_cycles: rustc_hash::FxHashSet<crate::module::Address> = Default::default();
    for address in crate::module::module_order(db, module) {
        let Some(def) = crate::module::definition(db, module, address) else { continue };
        if !def.kind.is_attribute() && !matches!(def.kind, DeclarationKind::Variable { .. }) {
            continue;
        }
        let attr = Attr::new(db, module, address.clone());
        if let Err(AttrError::Cycle(_)) = attribute_value(db, attr) {
            if on_reported_cycles.contains(address) {
                continue;
            }
            let path = crate::module::cycle_path(db, attr);
            out.extend(cycle_diagnostic(db, attr, def, &path));
            on_reported_cycles.extend(path);
            continue;
        }
        out.extend(attribute_diagnostic(db, attr));
        out.extend(later_unresolved_diagnostics(db, attr));
    }
    out
}

/// The module's duplicate declarations, each at its second declaration
/// with the first as a related place. Reads the module's index only.
#[salsa::tracked(returns(ref))]
pub fn duplicate_diagnostics(db: &dyn Db, module: Module) -> Vec<ModuleDiagnostic> {
    crate::module::module_duplicates(db, module)
        .map(|duplicate| duplicate_diagnostic(db, duplicate))
        .collect()
}

/// The duplicate declarations in `file`, each at its second declaration
/// with the first as a related place: what [`duplicate_diagnostics`] says
/// of one file, reading only that file's part of the module's index.
pub fn file_duplicate_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    crate::module::file_index(db, module, file)
        .duplicates
        .iter()
        .map(|duplicate| duplicate_diagnostic(db, duplicate))
        .collect()
}

fn duplicate_diagnostic(db: &dyn Db, duplicate: &crate::module::Duplicate) -> ModuleDiagnostic {
    {
        let (first_file, first_location) = &duplicate.first;
        let (file, location) = &duplicate.duplicate;
        let (first_file, file) = (*first_file, *file);
        let first_range = declaration_range(db, first_file, first_location);
        let at = format!("{}:{}", first_file.path(db), line_column(db, first_file, first_range));
        let name = duplicate.address.last().unwrap_or_default();
        let (of, detail) = match duplicate.kind {
            DeclarationKind::Variable { .. } => (
                DuplicateOf::Variable,
                format!(
                    "A variable named {name:?} was already declared at {at}. Variable names must be unique within a module."
                ),
            ),
            DeclarationKind::Local => (
                DuplicateOf::Local,
                format!(
                    "A local value named {name:?} was already defined at {at}. Local value names must be unique within a module."
                ),
            ),
            DeclarationKind::TopLevelAttribute => (
                DuplicateOf::TopLevelAttribute,
                format!("An attribute named {name:?} was already defined at {at}."),
            ),
            DeclarationKind::Block | DeclarationKind::BlockAttribute | DeclarationKind::NestedAttribute => {
                let shown: Vec<String> =
                    duplicate.address.iter().skip(1).map(|it| format!("{it:?}")).collect();
                let type_name = SmolStr::new(duplicate.address.first().unwrap_or_default());
                let article = if type_name.starts_with(['a', 'e', 'i', 'o', 'u']) { "An" } else { "A" };
                let detail =
                    format!("{article} {type_name} block {} was already declared at {at}.", shown.join(" "));
                (DuplicateOf::Block { block_type: type_name }, detail)
            }
        };
        ModuleDiagnostic {
            file,
            range: declaration_range(db, file, location),
            kind: ModuleDiagnosticKind::Duplicate(of),
            detail,
            related: vec![(first_file, first_range, "first declared here".to_string())],
        }
    }
}

/// The diagnostics of the invalid type constraints of `file`'s variables.
pub fn type_constraint_diagnostics(db: &dyn Db, file: File) -> Vec<ModuleDiagnostic> {
    let mut out = Vec::new();
    if !crate::module::value::declares_variable_types(db, file) {
        return out;
    }
    for result in variable_types(db, file).values() {
        let Err(invalid) = result else { continue };
        for diagnostic in &invalid.diagnostics {
            let range = diagnostic.subject.as_ref().map_or_else(
                || TextRange::empty(0.into()),
                |range| TextRange::new(range.start.byte.into(), range.end.byte.into()),
            );
            out.push(ModuleDiagnostic {
                file,
                range,
                kind: ModuleDiagnosticKind::InvalidTypeConstraint {
                    summary: diagnostic.summary.clone(),
                    legacy: invalid.legacy,
                },
                detail: diagnostic.detail.clone(),
                related: Vec::new(),
            });
        }
    }
    out
}

/// The diagnostics of the references of `attr` that name nothing after the
/// first, whose error is `attr`'s own ([`attribute_diagnostic`]): the
/// evaluation stops at the first, and a tool's static check reports each
/// (a fix-and-run round per name otherwise). Those a
/// `try` or `can` catches are left out, as the evaluation leaves them out.
/// Empty unless `attr`'s error is such a reference.
pub fn later_unresolved_diagnostics<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Vec<ModuleDiagnostic> {
    let Err(AttrError::Unresolved { reference: first, .. }) = attribute_value(db, attr) else {
        return Vec::new();
    };
    let Some(def) = crate::module::definition(db, attr.module(db), attr.address(db)) else {
        return Vec::new();
    };
    let resolution = crate::module::resolve::resolution_of(db, attr);
    let Some(expr) = &resolution.expr else { return Vec::new() };
    let mut caught = super::value::CaughtReferences::new(expr);
    let mut out = Vec::new();
    for (reference, target) in resolution.targets.iter().enumerate().skip(*first as usize + 1) {
        let crate::module::Target::Unresolved { step, kind, detail } = target else { continue };
        if resolution.instances.is_some_and(|it| it.target as usize == reference)
            || caught.catches(kind, reference)
        {
            continue;
        }
        out.push(ModuleDiagnostic {
            file: def.file,
            range: attribute_range(
                db,
                attr,
                RangeOf::Reference {
                    reference: super::value::narrow(reference),
                    step: super::value::narrow(*step),
                },
            ),
            kind: ModuleDiagnosticKind::Unresolved(Unresolved::clone(kind)),
            detail: detail.to_string(),
            related: Vec::new(),
        });
    }
    out
}

/// The diagnostic of one attribute's error, if it has one of its own.
pub fn attribute_diagnostic<'db>(db: &'db dyn Db, attr: Attr<'db>) -> Option<ModuleDiagnostic> {
    let error = attribute_value(db, attr).as_ref().err()?;
    let def = crate::module::definition(db, attr.module(db), attr.address(db))?;
    let file = def.file;
    let diagnostic =
        |kind, range, detail: String| ModuleDiagnostic { file, range, kind, detail, related: Vec::new() };
    match error {
        AttrError::NotDeclared | AttrError::Dependency(_) | AttrError::NoValue | AttrError::InvalidType => {
            None
        }
        AttrError::Unresolved { reference, step, kind, detail } => Some(diagnostic(
            ModuleDiagnosticKind::Unresolved(Unresolved::clone(kind)),
            attribute_range(db, attr, RangeOf::Reference { reference: *reference, step: *step }),
            detail.to_string(),
        )),
        // Every member of a cycle has this error, so its path is the short
        // one the error holds: walking a long cycle for each of its n
        // members would take n² steps, and listing it n² names.
        AttrError::Cycle(path) if path.is_empty() => long_cycle_diagnostic(db, attr, def),
        AttrError::Cycle(path) => cycle_diagnostic(db, attr, def, path),
        AttrError::MissingVariable { reference, variable } => {
            let name = SmolStr::new(variable.segment(1).unwrap_or_default());
            Some(diagnostic(
                ModuleDiagnosticKind::MissingVariable { name: name.clone() },
                attribute_range(db, attr, RangeOf::Reference { reference: *reference, step: 1 }),
                format!("The input variable {:?} is not set, and has no default value.", name.as_str()),
            ))
        }
        AttrError::Eval(error)
            if crate::module::attribute_resolution(db, attr).expr.as_ref().is_some_and(|expr| {
                expr.exprs().iter().any(|(id, it)| id == error.expr && matches!(it, hir::Expr::Missing))
            }) =>
        {
            // An expression the parser could not read: its syntax error is
            // the diagnostic, and "Missing expression" would only repeat it.
            None
        }
        AttrError::Eval(error) => {
            let detail = error.detail.clone();
            Some(diagnostic(
                ModuleDiagnosticKind::Eval(error.kind.clone()),
                attribute_range(db, attr, RangeOf::Expr(Some(error.expr.into_raw().into_u32()))),
                detail,
            ))
        }
        AttrError::InvalidValue { message, from_default } => {
            if *from_default {
                Some(diagnostic(
                    ModuleDiagnosticKind::InvalidVariableValue { from_default: true },
                    attribute_range(db, attr, RangeOf::Expr(None)),
                    format!(
                        "This default value is not compatible with the variable's type constraint: {message}."
                    ),
                ))
            } else {
                Some(diagnostic(
                    ModuleDiagnosticKind::InvalidVariableValue { from_default: false },
                    declaration_range(db, file, def.location(db)),
                    format!("The given value is not suitable for {}: {message}.", attr.address(db)),
                ))
            }
        }
    }
}

/// The diagnostic of the cycle `path` (from `attr` round to it, as a
/// dependency graph finds it), pointing at the reference that leads to its
/// next step; none if `path` is not a cycle.
pub fn cycle_diagnostic_along(
    db: &dyn Db,
    attr: Attr<'_>,
    path: &[crate::module::Address],
) -> Option<ModuleDiagnostic> {
    let def = crate::module::definition(db, attr.module(db), attr.address(db))?;
    cycle_diagnostic(db, attr, def, path)
}

/// The diagnostic of a cycle through `attr`, pointing at the reference
/// that leads to its next step; none if `path` is not a cycle.
fn cycle_diagnostic(
    db: &dyn Db,
    attr: Attr<'_>,
    def: &Definition,
    path: &[crate::module::Address],
) -> Option<ModuleDiagnostic> {
    let next = path.get(1)?;
    let diagnostic = |kind, range, detail: String| ModuleDiagnostic {
        file: def.file,
        range,
        kind,
        detail,
        related: Vec::new(),
    };
    let reference = crate::module::attribute_resolution(db, attr).targets.iter().position(
        |target| matches!(target, crate::module::Target::Attributes { attrs, .. } if attrs.contains(next)),
    );
    let range = match reference {
        Some(reference) => attribute_range(db, attr, RangeOf::reference(reference, usize::MAX)),
        None => attribute_range(db, attr, RangeOf::Expr(None)),
    };
    let steps: Vec<String> = path.iter().map(|address| address.to_string()).collect();
    Some(diagnostic(
        ModuleDiagnosticKind::ReferenceCycle,
        range,
        format!("The value of {} depends on itself: {}.", attr.address(db), steps.join(" -> ")),
    ))
}

/// The diagnostic of a cycle through `attr` longer than
/// [`crate::module::CYCLE_PATH_LIMIT`] steps, without its steps (see
/// [`attribute_diagnostic`]), pointing at a reference to the next member
/// when the caller's graph found the cycle.
fn long_cycle_diagnostic(db: &dyn Db, attr: Attr<'_>, def: &Definition) -> Option<ModuleDiagnostic> {
    let resolution = crate::module::attribute_resolution(db, attr);
    let reference = resolution.same_cycle.first().and_then(|next| {
        resolution.targets.iter().position(
            |target| matches!(target, crate::module::Target::Attributes { attrs, .. } if attrs.contains(next)),
        )
    });
    let range = match reference {
        Some(reference) => attribute_range(db, attr, RangeOf::reference(reference, usize::MAX)),
        None => attribute_range(db, attr, RangeOf::Expr(None)),
    };
    Some(ModuleDiagnostic {
        file: def.file,
        range,
        kind: ModuleDiagnosticKind::ReferenceCycle,
        detail: format!("The value of {}.", long_cycle(db, attr)),
        related: Vec::new(),
    })
}

/// That `attr` depends on itself through a long cycle, in words, without
/// the cycle's steps: "local.a depends on itself, through a reference cycle
/// of 10000 attributes" (the cycle the caller set, see
/// [`crate::module::KnownCycles`]; else salsa found it, and a walk of
/// [`crate::module::CYCLE_PATH_LIMIT`] attributes did not get round it).
pub fn long_cycle(db: &dyn Db, attr: Attr<'_>) -> String {
    let address = attr.address(db);
    match crate::module::attribute_resolution(db, attr).cycle_members {
        0 => format!(
            "{address} depends on itself, through a reference cycle of more than {} attributes",
            crate::module::CYCLE_PATH_LIMIT
        ),
        members => format!("{address} depends on itself, through a reference cycle of {members} attributes"),
    }
}

/// The range of a declaration: an attribute's name, or a block's header
/// (its type and labels), where a reader looks for the name.
pub fn declaration_range(db: &dyn Db, file: File, location: &Location) -> TextRange {
    if file.syntax(db) == crate::SourceSyntax::Json {
        return crate::module::json::range(db, file, location, false).unwrap_or_default();
    }
    let hir = crate::lower(db, file);
    let source_map = crate::source_map(db, file);
    let pointer = match location.attribute {
        Some(attribute) => crate::module::value::body_at(hir, location)
            .and_then(|body| body.attributes.get(attribute as usize))
            .and_then(|&id| source_map.attribute_syntax(id)),
        None => location
            .block
            .and_then(|block| hir.body.blocks.get(block as usize))
            .and_then(|&block| source_map.block_syntax(block)),
    };
    let Some(pointer) = pointer else { return TextRange::empty(0.into()) };
    let root = crate::parse(db, file).syntax_node();
    let Some(node) = pointer.try_to_node(&root) else { return pointer.text_range() };
    header_range(&node)
}

/// The range of a block's header (its tokens before the body's `{`) or an
/// attribute's name (before the `=`).
pub(crate) fn header_range(node: &syntax::SyntaxNode) -> TextRange {
    let header: Vec<_> = node
        .children_with_tokens()
        .take_while(|it| !matches!(it.kind(), syntax::SyntaxKind::L_CURLY | syntax::SyntaxKind::EQ))
        .filter(|it| !it.kind().is_trivia() && it.kind() != syntax::SyntaxKind::NEWLINE)
        .collect();
    match (header.first(), header.last()) {
        (Some(first), Some(last)) => TextRange::new(first.text_range().start(), last.text_range().end()),
        _ => node.text_range(),
    }
}

/// Which range of an attribute's expression [`attribute_range`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum RangeOf {
    /// The expression with this id in the attribute's copy
    /// ([`crate::module::AttrExpr`]), or the whole expression.
    Expr(Option<u32>),
    /// A reference of the expression up to a step (see [`reference_range`]).
    Reference { reference: u32, step: u32 },
}

impl RangeOf {
    fn reference(reference: usize, step: usize) -> RangeOf {
        RangeOf::Reference { reference: narrow(reference), step: narrow(step) }
    }
}

/// Where in its file a part of `attr`'s expression is, for its error's
/// diagnostic. Memoized: finding it lowers the attribute's file, whose
/// tree is seldom still kept when the error is reported after an edit of
/// another file, while a memo of the range is verified through the file's
/// text without lowering anything.
#[salsa::tracked(returns(copy))]
fn attribute_range<'db>(db: &'db dyn Db, attr: Attr<'db>, of: RangeOf) -> TextRange {
    let Some(def) = crate::module::definition(db, attr.module(db), attr.address(db)) else {
        return TextRange::default();
    };
    match of {
        RangeOf::Expr(local) => expr_range(db, def, local.map(hir::expr_id)),
        RangeOf::Reference { reference, step } => reference_range(db, def, reference as usize, step as usize),
    }
}

/// The range of an expression of `def`'s attribute: `local` an id of its
/// [`crate::module::AttrExpr`], or the whole expression.
fn expr_range(db: &dyn Db, def: &Definition, local: Option<hir::ExprId>) -> TextRange {
    if def.file.syntax(db) == crate::SourceSyntax::Json {
        // A JSON value's HIR has no source map: the whole value it is.
        return json_value_range(db, def);
    }
    let hir = crate::lower(db, def.file);
    let source_map = crate::source_map(db, def.file);
    let Some(root) = locate(db, hir, def) else { return declaration_range(db, def.file, def.location(db)) };
    let (_, origins) = extract(&hir.exprs, root);
    let file_expr =
        local.and_then(|local| origins.get(local.into_raw().into_u32() as usize).copied()).unwrap_or(root);
    source_map
        .expr_syntax(file_expr)
        .or_else(|| source_map.expr_syntax(root))
        .map_or_else(|| declaration_range(db, def.file, def.location(db)), |pointer| pointer.text_range())
}

/// The range of a reference of `def`'s expression up to `step` (0 the root
/// name; past the last step, the whole static traversal).
fn reference_range(db: &dyn Db, def: &Definition, reference: usize, step: usize) -> TextRange {
    if def.file.syntax(db) == crate::SourceSyntax::Json {
        return json_value_range(db, def);
    }
    let hir = crate::lower(db, def.file);
    let Some(root) = locate(db, hir, def) else { return declaration_range(db, def.file, def.location(db)) };
    let (expr, _) = extract(&hir.exprs, root);
    let references = references(expr.exprs(), expr.root());
    let link =
        references.get(reference).and_then(|it| it.links.get(step.min(it.links.len().saturating_sub(1))));
    expr_range(db, def, link.copied())
}

/// The range of a JSON declaration's value (a variable's default).
fn json_value_range(db: &dyn Db, def: &Definition) -> TextRange {
    let location = match def.kind {
        DeclarationKind::Variable { default_attr: Some(default), .. } => {
            Location { attribute: Some(default.get()), ..def.location(db).clone() }
        }
        _ => def.location(db).clone(),
    };
    crate::module::json::range(db, def.file, &location, true)
        .or_else(|| crate::module::json::range(db, def.file, def.location(db), false))
        .unwrap_or_default()
}

/// `LINE:COLUMN` of a range's start, 1-based, counting characters.
fn line_column(db: &dyn Db, file: File, range: TextRange) -> String {
    let text = file.text(db);
    let offset = usize::from(range.start()).min(text.len());
    let before = text.get(..offset).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
    format!("{line}:{column}")
}
