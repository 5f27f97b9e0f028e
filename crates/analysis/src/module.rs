//! The module rules: what the module model (`db::module`) finds about a
//! directory's files taken together, as [`Diagnostic`]s with rule codes.
//!
//! Two readers, two needs. `halite eval DIR` shows every problem its
//! evaluation meets ([`convert`] on each of `db`'s module diagnostics).
//! `halite check` runs over repositories of tools whose semantics the
//! generic model knows only in part (Terraform, Packer, Nomad, Terragrunt,
//! applications' own formats), where a false alarm costs more than a missed
//! finding: [`module_diagnostics`] keeps only what the file's kind lets it
//! trust (see [`Language`]) and adds the unused declarations.
//!
//! Trust, in short: a reference to `var.`/`local.` that names nothing is an
//! error wherever the tool has those roots; a root the module does not
//! declare is reported only where a dialect knows every root (Terraform's); an
//! attribute a block does not have only in applications' own formats (a
//! tool's blocks have attributes computed outside the configuration);
//! duplicates of blocks only for the block types each tool keys by label;
//! and an evaluation error only when every value it reads is the module's
//! own (locals and literals, variables being unknown inputs), so an error
//! never rests on a value the model made up.

use db::{
    Db, File, SourceSyntax,
    graph::{DependencyGraph, KeyKind, NodeId},
    module::{
        self, Address, Attr, AttrError, DeclarationKind, DuplicateOf, Module, ModuleDiagnostic,
        ModuleDiagnosticKind, SchemaViolation, Target, Unresolved, attribute_targets, attribute_value,
        references,
    },
};
use std::{collections::BTreeSet, sync::Arc};

use eval::EvalErrorKind;
use hir::Name;
use rustc_hash::{FxHashMap, FxHashSet};
use smol_str::SmolStr;
use syntax::{TextRange, TextSize};
use vfs::Language;

use crate::{Diagnostic, Edit, Suggestion, rules};

/// The language of a file by its name, from the one table of file kinds
/// (`vfs`); a file named on the command line whatever its name is an
/// application's format.
pub fn language_of(db: &dyn Db, file: File) -> Language {
    vfs::FileKind::of_named(file.path(db)).language
}

/// What each tool's language means for the module model's findings.
trait ToolSemantics: Copy {
    /// Whether several files of a directory make one configuration for the
    /// tool, so that a name declared in two of them is a conflict. Nomad and
    /// Terragrunt read one file at a time; an application may too.
    fn is_multi_file(self) -> bool;
    /// Whether the tool has `var.NAME` (declared by `variable` blocks).
    fn has_variables(self) -> bool;
    /// Whether the tool has `local.NAME` (declared in `locals` blocks).
    fn has_locals(self) -> bool;
    /// The top-level block types whose blocks are keyed by their labels, and
    /// referred to as `TYPE.LABEL…`: declaring one twice, or referring to a
    /// label none has, is an error for the tool.
    fn labelled_roots(self) -> &'static [&'static str];
    /// The block types a second block of the same labels conflicts with;
    /// `None` for all of them (Terraform's dialect makes the repeatable ones,
    /// `provider`, repeat without conflict).
    fn unique_block_types(self) -> Option<&'static [&'static str]>;
}

impl ToolSemantics for Language {
    fn is_multi_file(self) -> bool {
        matches!(self, Language::Terraform | Language::Packer)
    }

    fn has_variables(self) -> bool {
        matches!(self, Language::Terraform | Language::Packer | Language::Nomad)
    }

    fn has_locals(self) -> bool {
        matches!(self, Language::Terraform | Language::Packer | Language::Nomad | Language::Terragrunt)
    }

    fn labelled_roots(self) -> &'static [&'static str] {
        match self {
            Language::Terraform => &["data", "module"],
            Language::Packer => &["data"],
            // An `include` is the unit's own (an included file includes
            // nothing more), so `include.NAME` names one of its blocks.
            Language::Terragrunt => &["dependency", "include"],
            Language::TerraformTool
            | Language::TerraformVariables
            | Language::PackerVariables
            | Language::Nomad
            | Language::Hcl => &[],
        }
    }

    fn unique_block_types(self) -> Option<&'static [&'static str]> {
        match self {
            Language::Terraform => None,
            Language::Packer => Some(&["source", "data"]),
            Language::Terragrunt => Some(&["dependency"]),
            Language::TerraformTool
            | Language::TerraformVariables
            | Language::PackerVariables
            | Language::Nomad
            | Language::Hcl => Some(&[]),
        }
    }
}

/// What a module's dialect lets a check trust about a file: the generic
/// model's findings, or also those only a dialect can make (every root and
/// every function known).
#[derive(Debug, Clone, Copy)]
struct Trust {
    kind: Language,
    /// The module's dialect is the file's own language (Terraform's, for a
    /// `*.tf` file): it knows every root name and every function.
    dialect: bool,
    /// Another language's dialect claims the file and knows every function
    /// of it (`DialectRules::knows_every_function`): a call its table lacks
    /// is a finding, found by evaluation.
    functions: bool,
}

impl Trust {
    fn of(db: &dyn Db, module: Module, file: File) -> Trust {
        let kind = language_of(db, file);
        let rules = module.dialect(db).rules(db);
        // (A hidden `.tf` file, which Terraform ignores, is never a module's.)
        let dialect = kind == Language::Terraform && rules.knows_every_root;
        let claims = |plugin: &module::PluginRef| plugin.0.claims(file.path(db));
        let functions = !dialect && rules.knows_every_function && rules.plugin.as_ref().is_some_and(claims);
        Trust { kind, dialect, functions }
    }

    /// Whether a call to a function the evaluator does not have is a
    /// finding: only where the dialect lists the language's functions.
    fn knows_every_function(self) -> bool {
        self.dialect || self.functions
    }

    /// Whether a root the module does not declare is a finding: only where
    /// the dialect knows every root of the language.
    fn knows_every_root(self) -> bool {
        self.dialect
    }

    /// Whether the evaluator's functions are the file's: the standard
    /// library's, for an application's own format (where a function by a
    /// standard name behaves as the standard one), and Terraform's, for a
    /// Terraform file in a module of the Terraform dialect (which has each
    /// of Terraform's functions with its own signature), and a file whose
    /// dialect knows every function of its language (Terragrunt's). Packer
    /// has functions of the same names that differ, which its dialect does
    /// not implement yet.
    fn knows_functions_it_has(self) -> bool {
        matches!(self.kind, Language::Hcl | Language::TerraformVariables | Language::PackerVariables)
            || self.dialect
            || self.functions
    }
}

/// The rule code of a kind of module problem: what users configure and
/// ignore. Decided by the kind alone, never by a message's words.
pub fn rule_code(kind: &ModuleDiagnosticKind) -> &'static str {
    match kind {
        ModuleDiagnosticKind::Duplicate(_) => rules::DUPLICATE_DECLARATION,
        ModuleDiagnosticKind::InvalidTypeConstraint { .. } => rules::INVALID_TYPE_CONSTRAINT,
        ModuleDiagnosticKind::Unresolved(
            Unresolved::UnsupportedAttribute { .. } | Unresolved::UnsupportedMember { .. },
        ) => rules::UNKNOWN_ATTRIBUTE,
        ModuleDiagnosticKind::Unresolved(_) => rules::UNDECLARED_REFERENCE,
        ModuleDiagnosticKind::ReferenceCycle => rules::REFERENCE_CYCLE,
        ModuleDiagnosticKind::MissingVariable { .. } => rules::MISSING_VARIABLE,
        ModuleDiagnosticKind::InvalidVariableValue { .. } => rules::INVALID_VARIABLE_VALUE,
        ModuleDiagnosticKind::UnsupportedModuleArgument { .. } => rules::UNSUPPORTED_MODULE_ARGUMENT,
        ModuleDiagnosticKind::MissingModuleArgument { .. } => rules::MISSING_MODULE_ARGUMENT,
        ModuleDiagnosticKind::UnusedInput { .. } => rules::UNUSED_INPUT,
        ModuleDiagnosticKind::MissingInput { .. } => rules::MISSING_INPUT,
        ModuleDiagnosticKind::Eval(kind) => eval_rule_code(kind),
        ModuleDiagnosticKind::UnknownProviderFunction { .. } => rules::UNKNOWN_FUNCTION,
        ModuleDiagnosticKind::NestedImport => rules::NESTED_INCLUDE,
        ModuleDiagnosticKind::MissingRead(_) => rules::FILE_NOT_FOUND,
        ModuleDiagnosticKind::Schema(violation) => match violation {
            SchemaViolation::UnsupportedArgument { .. } => rules::UNSUPPORTED_ARGUMENT,
            SchemaViolation::UnsupportedBlock { .. } => rules::UNSUPPORTED_BLOCK,
            SchemaViolation::MissingArgument { .. } => rules::MISSING_ARGUMENT,
            SchemaViolation::ExtraneousLabel { .. } | SchemaViolation::MissingLabel { .. } => {
                rules::WRONG_LABEL_COUNT
            }
            SchemaViolation::IncorrectType { .. } => rules::TYPE_MISMATCH,
        },
    }
}

/// The rule code of an evaluation error.
fn eval_rule_code(kind: &EvalErrorKind) -> &'static str {
    match kind {
        EvalErrorKind::UnknownFunction { .. } | EvalErrorKind::UnknownNamespacedFunction { .. } => {
            rules::UNKNOWN_FUNCTION
        }
        EvalErrorKind::NotEnoughArguments { .. } | EvalErrorKind::TooManyArguments { .. } => {
            rules::WRONG_ARGUMENT_COUNT
        }
        EvalErrorKind::UnsupportedAttribute { .. } => rules::UNKNOWN_ATTRIBUTE,
        EvalErrorKind::InvalidIndex | EvalErrorKind::MissingMapElement { .. } => rules::INVALID_INDEX,
        EvalErrorKind::InvalidOperand { .. }
        | EvalErrorKind::IncorrectConditionType { .. }
        | EvalErrorKind::InvalidTemplateInterpolation
        | EvalErrorKind::IncorrectKeyType { .. }
        | EvalErrorKind::InvalidForKey
        | EvalErrorKind::InvalidForCondition
        | EvalErrorKind::InvalidExpandingArgument => rules::TYPE_MISMATCH,
        EvalErrorKind::MissingExpression
        | EvalErrorKind::InvalidNumberLiteral
        | EvalErrorKind::VariablesNotAllowed
        | EvalErrorKind::UnknownVariable { .. }
        | EvalErrorKind::AttributeOfNull
        | EvalErrorKind::IndexOfNull
        | EvalErrorKind::AmbiguousAttributeKey
        | EvalErrorKind::NullKey
        | EvalErrorKind::OperationFailed
        | EvalErrorKind::InconsistentConditionalTypes { .. }
        | EvalErrorKind::NullCondition
        | EvalErrorKind::IterationOverNull
        | EvalErrorKind::IterationOverNonIterable { .. }
        | EvalErrorKind::NullForCondition
        | EvalErrorKind::DuplicateForKey { .. }
        | EvalErrorKind::SplatOfNull
        | EvalErrorKind::InvalidNestedSplat
        | EvalErrorKind::FunctionCallsNotAllowed
        | EvalErrorKind::InvalidFunctionArgument { .. }
        | EvalErrorKind::FunctionCallFailed { .. }
        | EvalErrorKind::InvalidFunctionCall { .. }
        | EvalErrorKind::TooDeeplyNested
        | EvalErrorKind::LimitExceeded(_)
        | EvalErrorKind::Internal => rules::EVALUATION_ERROR,
    }
}

/// One of `db`'s module diagnostics as a [`Diagnostic`] with its rule's code
/// and default severity: the detail as a note, a related place in the same
/// file as a label, and for a misspelt name the did-you-mean as a fix.
pub fn convert(db: &dyn Db, diagnostic: &ModuleDiagnostic) -> Diagnostic {
    let mut out = convert_without_fix(diagnostic);
    if let Some(suggestion) = rename_suggestion(db, diagnostic) {
        out = out.with_suggestion(suggestion);
    }
    out
}

/// [`convert`] without the fix, for a caller that has no database at hand.
pub fn convert_without_fix(diagnostic: &ModuleDiagnostic) -> Diagnostic {
    let code = rule_code(&diagnostic.kind);
    let severity = rules::rule(code).map_or(crate::Severity::Error, |rule| rule.default_severity);
    let mut out = Diagnostic::new(severity, code, diagnostic.summary(), diagnostic.file, diagnostic.range);
    for (file, range, message) in &diagnostic.related {
        if *file == diagnostic.file {
            out = out.with_secondary_label(*range, message.clone());
        }
    }
    if !diagnostic.detail.is_empty() {
        out = out.with_note(diagnostic.detail.clone());
    }
    out
}

/// The fix of a did-you-mean: the reference's last step, at the end of the
/// diagnostic's range, replaced by the suggested name. None when the kind
/// suggests nothing, or the range does not end with a name (a JSON value).
/// Only a misspelt reference or argument is renamed: a function's name is
/// the evaluator's did-you-mean, not one the module's declarations make.
fn rename_suggestion(db: &dyn Db, diagnostic: &ModuleDiagnostic) -> Option<Suggestion> {
    let suggested = match &diagnostic.kind {
        ModuleDiagnosticKind::Unresolved(unresolved) => unresolved.suggestion()?,
        ModuleDiagnosticKind::UnsupportedModuleArgument { suggestion, .. }
        | ModuleDiagnosticKind::UnusedInput { suggestion, .. } => suggestion.as_ref()?,
        ModuleDiagnosticKind::Eval(kind @ EvalErrorKind::UnsupportedAttribute { .. }) => kind.suggestion()?,
        _ => return None,
    };
    if diagnostic.file.syntax(db) != SourceSyntax::Native {
        return None;
    }
    let text = diagnostic.file.text(db);
    let referenced = text.get(usize::from(diagnostic.range.start())..usize::from(diagnostic.range.end()))?;
    let name_start = referenced.rfind('.').map_or(0, |dot| dot + 1);
    let name = &referenced[name_start..];
    let is_name = !name.is_empty()
        && name.chars().all(|it| it.is_alphanumeric() || it == '_' || it == '-')
        && !name.starts_with(|it: char| it.is_ascii_digit());
    if !is_name {
        return None;
    }
    let start = diagnostic.range.start() + TextSize::try_from(name_start).ok()?;
    Some(Suggestion {
        message: format!("replace `{name}` with `{suggested}`"),
        edits: vec![Edit {
            range: TextRange::new(start, diagnostic.range.end()),
            replacement: suggested.to_string(),
        }],
    })
}

/// What the module rules need to know of a module as a whole, which one
/// file's report cannot find out alone: the dependency graph of its
/// attributes (for the cycles, and for whether an attribute reads only
/// values a check can trust), its reference cycles, and which variables and
/// locals something refers to. A batch builds it once per module
/// ([`ModuleFacts::build`]); the host keeps one per module and updates it
/// as files change, a few nodes at a time.
#[derive(Debug, Default)]
pub struct ModuleFacts {
    graph: DependencyGraph,
    /// Each node on a cycle, with its cycle's number in `cycles`.
    cycle_of: FxHashMap<NodeId, usize>,
    cycles: Vec<Vec<NodeId>>,
    usage: Usage,
    /// Whether each node reads only values a check can trust (see
    /// [`ModuleFacts::reads_only_sound_values`]), found as asked and
    /// forgotten when the graph or the inputs change. Behind a lock, since
    /// a report reads the facts on a thread of its own.
    soundness: std::sync::Mutex<FxHashMap<NodeId, bool>>,
    /// Whether each node's expression may fail to evaluate
    /// ([`module::may_fail_to_evaluate`]), by node: 0 not asked yet, 1
    /// no, 2 yes. Forgotten for a node when its targets are set again (its
    /// expression may have changed with them or not): a report asks it of
    /// every attribute of each file it looks at, and finding it reads the
    /// attribute's expression through its file's memo.
    may_fail: Vec<std::sync::atomic::AtomicU8>,
}

impl Clone for ModuleFacts {
    fn clone(&self) -> ModuleFacts {
        ModuleFacts {
            graph: self.graph.clone(),
            cycle_of: self.cycle_of.clone(),
            cycles: self.cycles.clone(),
            usage: self.usage.clone(),
            soundness: std::sync::Mutex::default(),
            may_fail: Vec::new(),
        }
    }
}

/// How many references each variable and local has, by name, and how many
/// whole-object references (`local`, `var`) each root has: kept as counts so
/// that an edit of one file adds and removes its own references only.
#[derive(Debug, Default, Clone)]
pub struct Usage {
    /// By root, then by name: a map keyed by both kept both in each of its
    /// slots, spare ones included, and its lookups built them.
    names: FxHashMap<Name, FxHashMap<Name, u32>>,
    whole: FxHashMap<Name, u32>,
}

impl Usage {
    /// Adds (`by` 1) or removes (`by` -1) a file's references.
    pub fn count(&mut self, references: &FileReferences, by: i32) {
        // Only the names this file refers to are touched: a pass over the
        // whole table per file would make loading a module quadratic.
        fn step(counts: &mut FxHashMap<Name, u32>, key: Name, by: i32) {
            let count = counts.entry(key).or_default();
            *count = count.saturating_add_signed(by);
            if *count == 0 {
                counts.remove(&key);
            }
        }
        for &(root, name) in &references.names {
            let names = self.names.entry(root).or_default();
            step(names, name, by);
            if names.is_empty() {
                self.names.remove(&root);
            }
        }
        for &root in &references.whole {
            step(&mut self.whole, root, by);
        }
    }

    /// Whether `root.name` is referred to anywhere.
    pub fn is_used(&self, root: &str, name: &str) -> bool {
        self.whole.contains_key(root) || self.names.get(root).is_some_and(|names| names.contains_key(name))
    }

    /// Replaces a file's references, `old`, with `new`, and says whose use
    /// that changed: each name either refers to that is now used and was
    /// not (or the reverse), and each root either refers to whole that now
    /// is referred to whole and was not (or the reverse), which changes the
    /// use of every name under it.
    pub fn replace(&mut self, old: &FileReferences, new: &FileReferences) -> Vec<UseChange> {
        let names: BTreeSet<(Name, Name)> = old.names.iter().chain(&new.names).copied().collect();
        let roots: BTreeSet<Name> = old.whole.iter().chain(&new.whole).copied().collect();
        let names_before: Vec<bool> = names.iter().map(|(root, name)| self.is_used(root, name)).collect();
        let roots_before: Vec<bool> = roots.iter().map(|root| self.whole.contains_key(root)).collect();
        self.count(old, -1);
        self.count(new, 1);
        let mut changed = Vec::new();
        for ((root, name), was) in names.into_iter().zip(names_before) {
            if self.is_used(&root, &name) != was {
                changed.push(UseChange::Name(root.into(), name.into()));
            }
        }
        for (root, was) in roots.into_iter().zip(roots_before) {
            if self.whole.contains_key(&root) != was {
                changed.push(UseChange::Whole(root.into()));
            }
        }
        changed
    }
}

/// A use that a file's references changed (see [`Usage::replace`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UseChange {
    /// `root.name` is now used, or no longer.
    Name(SmolStr, SmolStr),
    /// The root is now referred to whole, or no longer: every name under it.
    Whole(SmolStr),
}

/// The variables and locals one file's expressions refer to: every
/// expression of every body, those the model does not evaluate included (a
/// `dynamic` block's content), by the fixed reference analysis (inside
/// calls, `for` expressions, splats and templates, with the steps after a
/// dynamic index kept). A JSON file's strings are read as templates.
///
/// Interned names: a long-running host keeps every file's references, and
/// a pair of `SmolStr`s was 48 bytes where a pair of names is 8.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileReferences {
    /// `(root, name)` for `var.NAME` and `local.NAME`, sorted, once each.
    pub names: Vec<(Name, Name)>,
    /// Roots referred to whole (`local` alone).
    pub whole: Vec<Name>,
}

/// See [`FileReferences`]. Equal after any edit that adds or removes no
/// reference, so that an edit of a literal stops here. Shared, and sized
/// exactly: a long-running host keeps every file's references beside this
/// memo, to tell what an edit changed.
#[salsa::tracked(returns(ref))]
pub fn file_references(db: &dyn Db, file: File) -> Arc<FileReferences> {
    let hir = db::lower(db, file);
    let mut names = Vec::new();
    let mut whole = Vec::new();
    let mut bodies = vec![&hir.body];
    while let Some(body) = bodies.pop() {
        for &attribute in &body.attributes {
            for reference in references(&hir.exprs, hir[attribute].value) {
                if !matches!(reference.root.as_str(), "var" | "local") {
                    continue;
                }
                match reference.attrs.first() {
                    Some(name) => names.push((Name::new(&reference.root), Name::new(name))),
                    None => whole.push(Name::new(&reference.root)),
                }
            }
        }
        bodies.extend(body.blocks.iter().map(|&block| &hir[block].body));
    }
    names.sort_unstable();
    names.dedup();
    whole.sort_unstable();
    whole.dedup();
    names.shrink_to_fit();
    whole.shrink_to_fit();
    Arc::new(FileReferences { names, whole })
}

impl ModuleFacts {
    /// The facts of `module`, built from every attribute's targets (resolved
    /// without keeping a resolution: a check evaluates a few attributes of
    /// each module and needs the others' targets only once) and every
    /// file's references.
    pub fn build(db: &dyn Db, module: Module) -> ModuleFacts {
        let mut facts = ModuleFacts::default();
        // A node per attribute and variable, as the host keeps them.
        let index = module::IndexView::of(db, module);
        for address in module::module_order(db, module)
            .filter(|address| index.definition(address).is_some_and(|def| def.kind.has_value()))
        {
            facts.graph.set_targets(address, &attribute_targets(db, module, address));
        }
        for &file in module.files(db) {
            facts.usage.count(file_references(db, file), 1);
        }
        facts.find_cycles(None);
        facts
    }

    pub fn graph(&self) -> &DependencyGraph {
        &self.graph
    }

    /// Room for `additional` more attributes (see
    /// [`DependencyGraph::reserve`]).
    pub fn reserve(&mut self, additional: usize) {
        self.graph.reserve(additional);
    }

    /// Sets what the attribute at `address` reads (see
    /// [`DependencyGraph::set_targets`]).
    pub fn set_targets(&mut self, address: &Address, targets: &[Target]) -> NodeId {
        self.update_targets(address, targets).0
    }

    /// [`Self::set_targets`], saying too whether the node's edges changed
    /// (see [`DependencyGraph::update_targets`]). What was found of the
    /// inputs' soundness is kept when the edges stay as they were: it
    /// depends on the graph's shape alone, as the cycles do.
    pub fn update_targets(&mut self, address: &Address, targets: &[Target]) -> (NodeId, bool) {
        let (node, changed) = self.graph.update_targets(address, targets);
        if changed {
            self.soundness.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        }
        self.forget_may_fail(node);
        (node, changed)
    }

    /// Forgets an attribute whose declaration went away.
    pub fn remove(&mut self, address: &Address) {
        self.soundness.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
        if let Some(node) = self.graph.node(address) {
            self.forget_may_fail(node);
        }
        self.graph.remove(address);
    }

    /// Forgets whether `node` may fail, with room for every node now in
    /// the graph.
    fn forget_may_fail(&mut self, node: NodeId) {
        let nodes = self.graph.len();
        if self.may_fail.len() < nodes {
            self.may_fail.resize_with(nodes, Default::default);
        }
        if let Some(known) = self.may_fail.get_mut(node as usize) {
            *known.get_mut() = 0;
        }
    }

    /// [`module::may_fail_to_evaluate`] of `node`, at `address`, found
    /// once until its targets are set again.
    fn may_fail(&self, db: &dyn Db, module: Module, node: NodeId, address: &Address) -> bool {
        use std::sync::atomic::Ordering;
        let known = self.may_fail.get(node as usize);
        match known.map(|it| it.load(Ordering::Relaxed)) {
            Some(1) => false,
            Some(2) => true,
            _ => {
                let found = module::may_fail_to_evaluate(db, module, address);
                if let Some(known) = known {
                    known.store(if found { 2 } else { 1 }, Ordering::Relaxed);
                }
                found
            }
        }
    }

    /// Forgets what was found of the inputs' soundness: a variable was set.
    pub fn inputs_changed(&mut self) {
        self.soundness.get_mut().unwrap_or_else(|poisoned| poisoned.into_inner()).clear();
    }

    pub fn usage_mut(&mut self) -> &mut Usage {
        &mut self.usage
    }

    pub fn usage(&self) -> &Usage {
        &self.usage
    }

    /// Finds the reference cycles again among `within` (all nodes when
    /// `None`): a cycle through a changed node is among the nodes that
    /// depend on it, so a caller that changed a few nodes passes their
    /// dependents. Returns the nodes whose cycle changed (they were on one,
    /// or are now).
    pub fn find_cycles(&mut self, within: Option<&FxHashSet<NodeId>>) -> Vec<NodeId> {
        let mut changed: Vec<NodeId> = Vec::new();
        match within {
            None => {
                changed.extend(self.cycle_of.keys().copied());
                self.cycle_of.clear();
                self.cycles.clear();
            }
            Some(nodes) => {
                // The old cycles through any of the nodes go whole.
                let touched: FxHashSet<usize> =
                    nodes.iter().filter_map(|node| self.cycle_of.get(node).copied()).collect();
                for cycle in touched {
                    for node in std::mem::take(&mut self.cycles[cycle]) {
                        self.cycle_of.remove(&node);
                        changed.push(node);
                    }
                }
            }
        }
        for cycle in self.graph.cycles(within) {
            // A node already on a cycle outside `within` cannot be on one
            // within it: cycles are disjoint.
            let number = self.cycles.len();
            for &node in &cycle {
                self.cycle_of.insert(node, number);
                changed.push(node);
            }
            self.cycles.push(cycle);
        }
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// The attributes on cycles with their cycles' numbers, for the
    /// database (`RootDatabase::set_module_cycles`).
    pub fn known_cycles(&self) -> module::KnownCycles {
        self.cycle_of
            .iter()
            .map(|(&node, &cycle)| {
                let members = u32::try_from(self.cycles[cycle].len()).unwrap_or(u32::MAX);
                let number = u32::try_from(cycle).unwrap_or(u32::MAX);
                (self.graph.address(node).clone(), module::KnownCycle { number, members })
            })
            .collect()
    }

    /// The other nodes of the cycle `node` is on, itself included.
    pub fn cycle_of(&self, node: NodeId) -> Option<&[NodeId]> {
        self.cycle_of.get(&node).map(|&cycle| self.cycles[cycle].as_slice())
    }

    /// Whether every value `node`'s value depends on is either the module's
    /// own (literals, and locals that read only such values) or unknown
    /// whatever the inputs are: a variable an unknown of its declared type,
    /// a block's attribute or a dialect's root (`count.index`,
    /// `path.module`) an unknown of any type. Evaluation treats unknowns as
    /// go-cty and HCL do (an error on one holds for every value it may
    /// take), so an error of such an attribute is one a check can report.
    /// Not where the dialect uses a variable's default (Packer's, the
    /// generic model's: a command line may set another) or a block's
    /// written value (a tool may compute or replace it), nor a root the
    /// front end gave a value. An explicit walk, since chains of locals run
    /// to thousands.
    fn reads_only_sound_values(&self, node: NodeId, inputs: SoundInputs) -> bool {
        let mut memo = self.soundness.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut stack = vec![(node, false)];
        let mut on_stack: FxHashSet<NodeId> = FxHashSet::default();
        while let Some((current, children_done)) = stack.pop() {
            if memo.contains_key(&current) {
                continue;
            }
            let mut sound = !self.graph.has_unresolved(current);
            let mut pending = Vec::new();
            for (kind, key) in self.graph.keys(current) {
                match kind {
                    KeyKind::Object => sound &= inputs.reads(root_of(key)).unwrap_or(true),
                    // `count.index`, `each.value`, a computed attribute, a
                    // module's output: unknown of any type.
                    KeyKind::Unknown | KeyKind::Block => {}
                    // A root with a value the front end gave.
                    KeyKind::Root => sound = false,
                }
            }
            for &dependency in self.graph.reads(current) {
                match inputs.reads(root_of(self.graph.address(dependency))) {
                    Some(unknown) => sound &= unknown,
                    None => match memo.get(&dependency) {
                        Some(&dependency_sound) => sound &= dependency_sound,
                        // A cycle has no value to be wrong about.
                        None if on_stack.contains(&dependency) => {}
                        None => pending.push(dependency),
                    },
                }
            }
            if sound && !pending.is_empty() && !children_done {
                on_stack.insert(current);
                stack.push((current, true));
                stack.extend(pending.into_iter().map(|it| (it, false)));
                continue;
            }
            on_stack.remove(&current);
            memo.insert(current, sound);
        }
        memo.get(&node).copied().unwrap_or(false)
    }
}

/// The module's diagnostics about `file` for `halite check` and every other
/// front end: those of `db`'s findings that hold whatever values the
/// inputs take and whatever the tool adds to the model (see the module
/// documentation), the unused variables and locals, and the problems of the
/// file's calls of local modules whose children `interface_of` finds. A check
/// knows no variable's value, so nothing that depends on one is reported.
pub fn file_module_diagnostics(
    db: &dyn Db,
    module: Module,
    file: File,
    facts: &ModuleFacts,
    interface_of: impl Fn(&camino::Utf8Path) -> Option<std::sync::Arc<module::ModuleInterface>>,
) -> Vec<Diagnostic> {
    let candidates = check_candidates(db, module, file, facts);
    // Dependencies first, so that a long chain of locals does not recurse
    // (see `evaluate_in_order`).
    module::evaluate_in_order(db, &candidates);
    evaluated_file_module_diagnostics(
        db,
        module,
        file,
        facts,
        &candidates,
        &CycleReporters::default(),
        interface_of,
    )
}

/// Which member reports each reference cycle (see [`cycle_diagnostic`]),
/// found once per cycle and remembered for one report: every member of a
/// cycle asks, and each looking at every other member would make a cycle
/// of n cost n² (10,000 locals took minutes). Made fresh for each report,
/// since the choice reads values; shared by the report's files, since a
/// cycle may run through several.
#[derive(Debug, Default)]
pub struct CycleReporters {
    /// By the cycle's number in [`ModuleFacts`]: the reporting member, if
    /// any member may report it.
    found: std::sync::Mutex<FxHashMap<usize, Option<NodeId>>>,
}

/// The attributes of `file` a check evaluates. Only two kinds of attributes
/// can have an error a check reports: those with a reference that names
/// nothing, and those whose value is evaluated with every input it reads
/// unknown (see [`ModuleFacts::reads_only_sound_values`]) and whose
/// expression may fail or which may be on a cycle (`may_fail_to_evaluate`:
/// `name = var.name` cannot). The others are not evaluated at all.
pub fn check_candidates<'db>(
    db: &'db dyn Db,
    module: Module,
    file: File,
    facts: &ModuleFacts,
) -> Vec<Attr<'db>> {
    let inputs = SoundInputs::of(db, module);
    let index = module::IndexView::of(db, module);
    index
        .file_index(file)
        .addresses
        .iter()
        .filter(|address| index.definition(address).is_some_and(|def| def.kind.is_attribute()))
        .filter(|address| is_check_candidate(db, module, facts, inputs, address))
        .map(|address| Attr::new(db, module, address.clone()))
        .collect()
}

fn is_check_candidate(
    db: &dyn Db,
    module: Module,
    facts: &ModuleFacts,
    inputs: SoundInputs,
    address: &Address,
) -> bool {
    let Some(node) = facts.graph.node(address) else { return false };
    facts.graph.has_unresolved(node)
        || ((facts.may_fail(db, module, node, address) || facts.cycle_of(node).is_some())
            && facts.reads_only_sound_values(node, inputs))
}

/// [`file_module_diagnostics`] for a front end that evaluates many files'
/// [`check_candidates`] at once, in one walk (`evaluate_in_order` over
/// them all): `candidates` are the file's, already evaluated.
pub fn evaluated_file_module_diagnostics(
    db: &dyn Db,
    module: Module,
    file: File,
    facts: &ModuleFacts,
    candidates: &[Attr<'_>],
    reporters: &CycleReporters,
    interface_of: impl Fn(&camino::Utf8Path) -> Option<std::sync::Arc<module::ModuleInterface>>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let trust = Trust::of(db, module, file);
    let declares = |root: &str| !module::names_under(db, module, root).is_empty();
    for diagnostic in module::file_duplicate_diagnostics(db, module, file) {
        if trusts_duplicate(db, &diagnostic, trust.kind) {
            out.push(convert(db, &diagnostic));
        }
    }
    for diagnostic in module::type_constraint_diagnostics(db, file) {
        if trusts_type_error(&diagnostic, trust.kind) {
            out.push(convert(db, &diagnostic));
        }
    }
    // An application's dialect (an embedder's plug-in that claims the
    // file): its block schemas and its own checks are its word.
    if trust.kind == Language::Hcl {
        out.extend(module::schema_diagnostics(db, module, file).iter().map(|it| convert(db, it)));
        let rules = module.dialect(db).rules(db);
        if rules.plugin.as_ref().is_some_and(|plugin| plugin.0.claims(file.path(db))) {
            let own = module::dialect_file_diagnostics(db, module, file);
            out.extend(own.iter().map(|diagnostic| convert(db, diagnostic)));
        }
    }
    // Terragrunt's own checks of a unit (an included file that includes
    // another, a file it reads that does not exist) and Packer's of a
    // template (a build's unknown source), from their plug-ins.
    if matches!(trust.kind, Language::Terragrunt | Language::Packer) {
        let own = module::dialect_file_diagnostics(db, module, file);
        out.extend(own.iter().map(|diagnostic| convert(db, diagnostic)));
    }
    // Terraform's schemas for its own blocks, read from the file alone,
    // then the blocks a module has once, across its files.
    if trust.dialect {
        out.extend(crate::terraform::schema_diagnostics(db, file).iter().cloned());
        // `count`, `each` and `self` where they have no value.
        out.extend(crate::terraform_contexts::context_diagnostics(db, file).iter().cloned());
        out.extend(crate::terraform::module_block_diagnostics(db, module, file));
    }
    // Terraform's test, mock, query and Stack files, by their own schemas;
    // a Stack file's references against its Stack's declarations.
    if trust.kind == Language::TerraformTool {
        out.extend(crate::terraform::schema_diagnostics(db, file).iter().cloned());
        let stack_references = crate::terraform_stacks::stack_reference_diagnostics(db, module, file);
        out.extend(stack_references.iter().map(|diagnostic| convert(db, diagnostic)));
        let stack_duplicates = crate::terraform_stacks::stack_duplicate_diagnostics(db, module, file);
        out.extend(stack_duplicates.iter().map(|diagnostic| convert(db, diagnostic)));
    }
    // Namespaced calls Terraform cannot resolve, found from the
    // declarations: certain in a Terraform file of a module whose files all
    // parse (a `required_providers` block after a syntax error is missing
    // from the index, not from the module).
    if trust.dialect {
        let provider_functions = module::dialect_file_diagnostics(db, module, file);
        if !provider_functions.is_empty() && module::module_parses(db, module) {
            out.extend(provider_functions.iter().map(|diagnostic| convert(db, diagnostic)));
        }
        // Calls of functions Terraform does not have, wherever they are.
        let unknown_functions = crate::terraform::unknown_function_diagnostics(db, module, file);
        out.extend(unknown_functions.iter().map(|diagnostic| convert(db, diagnostic)));
        // References by name in `depends_on` and `replace_triggered_by`,
        // trusted as the undeclared resources of expressions are.
        if module::module_parses(db, module) {
            let references = crate::terraform::static_reference_diagnostics(db, module, file);
            out.extend(references.iter().map(|diagnostic| convert(db, diagnostic)));
            // And `var.`/`local.` in `dynamic` blocks, which the model leaves out.
            let dynamic = crate::terraform::dynamic_block_reference_diagnostics(db, module, file);
            out.extend(dynamic.iter().map(|diagnostic| convert(db, diagnostic)));
            // Outputs of local child modules that they do not declare.
            let outputs = crate::terraform::module_output_diagnostics(db, module, file, &interface_of);
            out.extend(outputs.iter().map(|diagnostic| convert(db, diagnostic)));
        }
    }
    // Defaults and given values that do not convert to their variable's
    // type, which nothing else reports: in every language with typed
    // variables (Terraform's, Packer's, an application's), as each
    // evaluates them alike.
    let values = variable_value_diagnostics(db, module, file);
    out.extend(values.iter().map(|diagnostic| convert(db, diagnostic)));

    // Whether a reference that names nothing is certain to be wrong, by
    // what names the file's language knows.
    let trusted_unresolved = |kind: &Unresolved| match kind {
        // A `variables { NAME = … }` block (Packer, Terraform's
        // tests) declares variables the model does not index.
        Unresolved::UndeclaredVariable { .. }
            if module::block_types(db, module).contains_key("variables") =>
        {
            false
        }
        Unresolved::UndeclaredVariable { .. } => match trust.kind {
            Language::Terraform | Language::Packer | Language::Nomad => true,
            Language::Hcl | Language::TerraformVariables | Language::PackerVariables => declares("var"),
            Language::TerraformTool | Language::Terragrunt => false,
        },
        Unresolved::UndeclaredLocal { .. } => match trust.kind {
            Language::Terraform | Language::Packer | Language::Nomad | Language::Terragrunt => true,
            Language::Hcl | Language::TerraformVariables | Language::PackerVariables => declares("local"),
            Language::TerraformTool => false,
        },
        Unresolved::UndeclaredBlock { block_type, .. } => {
            trust.kind.labelled_roots().contains(&block_type.as_str())
        }
        // Terraform's dialect knows every root of a Terraform file
        // (`DialectRules::terraform_references`): a resource, data
        // source or module call it does not find is not declared,
        // and a bare name is no reference at all. Unless a file of
        // the module does not parse: the blocks after its error
        // are missing from the index, not from the module.
        Unresolved::UndeclaredResource { .. }
        | Unresolved::UndeclaredModule { .. }
        | Unresolved::InvalidReference => trust.knows_every_root() && module::module_parses(db, module),
        // An attribute a block does not set, or a root the module
        // does not declare where no dialect knows every root: only
        // the file's own dialect could know whether the tool
        // computes or provides it.
        Unresolved::UnknownRoot { .. } | Unresolved::UnsupportedAttribute { .. } => false,
        // What the dialect's plug-in knows every name of.
        Unresolved::UnsupportedMember { .. } => true,
    };
    let inputs = SoundInputs::of(db, module);
    let is_candidate = |attr: Attr<'_>| is_check_candidate(db, module, facts, inputs, attr.address(db));
    for &attr in candidates {
        let error = match attribute_value(db, attr) {
            Err(error @ (AttrError::Unresolved { .. } | AttrError::Eval(_) | AttrError::Cycle(_))) => error,
            _ => continue,
        };
        if let AttrError::Cycle(_) = error {
            // Each cycle once, at its first member in declaration order that
            // a check looks at.
            if let Some(diagnostic) = cycle_diagnostic(db, module, facts, attr, reporters, &is_candidate) {
                out.push(convert(db, &diagnostic));
            }
            continue;
        }
        let Some(diagnostic) = module::attribute_diagnostic(db, attr) else { continue };
        let trusted = match error {
            AttrError::Unresolved { kind, .. } => trusted_unresolved(kind),
            AttrError::Eval(error) => match &error.kind {
                // Only a dialect that knows every function of the file's
                // language can tell; in a Terraform file every call is
                // checked without evaluation
                // (`terraform::unknown_function_diagnostics`).
                EvalErrorKind::UnknownFunction { .. } => trust.functions,
                EvalErrorKind::UnknownNamespacedFunction { .. } => trust.knows_every_function(),
                EvalErrorKind::NotEnoughArguments { .. } | EvalErrorKind::TooManyArguments { .. } => {
                    trust.knows_functions_it_has()
                }
                kind if kind.is_function_error() => trust.knows_functions_it_has(),
                _ => true,
            },
            _ => false,
        };
        if trusted {
            out.push(convert(db, &diagnostic));
        }
        // The references after it that name nothing, each reported as
        // Terraform reports them.
        for later in module::later_unresolved_diagnostics(db, attr) {
            if let ModuleDiagnosticKind::Unresolved(kind) = &later.kind
                && trusted_unresolved(kind)
            {
                out.push(convert(db, &later));
            }
        }
    }
    out.extend(unused_declarations(db, module, file, facts.usage()));
    out.extend(
        module::module_call_diagnostics(db, module, Some(file), &interface_of)
            .iter()
            .map(|diagnostic| convert(db, diagnostic)),
    );
    out.extend(
        module::call_output_diagnostics(db, module, file, &interface_of)
            .iter()
            .map(|diagnostic| convert(db, diagnostic)),
    );
    out
}

/// The diagnostic of the cycle through `attr`, if `attr` is the member that
/// reports it: the first in declaration order that is a candidate and
/// whose value is a cycle error (found once per cycle, in `reporters`). It
/// points at the reference that leads to the next step of the shortest way
/// round, found on the graph.
fn cycle_diagnostic<'db>(
    db: &'db dyn Db,
    module: Module,
    facts: &ModuleFacts,
    attr: Attr<'db>,
    reporters: &CycleReporters,
    is_candidate: &dyn Fn(Attr<'db>) -> bool,
) -> Option<ModuleDiagnostic> {
    let node = facts.graph.node(attr.address(db))?;
    let &cycle = facts.cycle_of.get(&node)?;
    let find = || {
        let definition = |node: NodeId| module::definition(db, module, facts.graph.address(node));
        facts.cycles[cycle]
            .iter()
            .copied()
            .filter(|&member| {
                let member = Attr::new(db, module, facts.graph.address(member).clone());
                is_candidate(member) && matches!(attribute_value(db, member), Err(AttrError::Cycle(_)))
            })
            .min_by(|&a, &b| match (definition(a), definition(b)) {
                (Some(a), Some(b)) => module::declaration_order(db, a, b),
                (a, b) => a.is_some().cmp(&b.is_some()),
            })
    };
    // Found outside the lock (it evaluates), so two files' threads may both
    // find it; they find the same member.
    let known = reporters.found.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&cycle).copied();
    let reporter = match known {
        Some(reporter) => reporter,
        None => {
            let reporter = find();
            reporters.found.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(cycle, reporter);
            reporter
        }
    };
    if reporter != Some(node) {
        return None;
    }
    let path: Vec<Address> =
        facts.graph.cycle_path(node).into_iter().map(|step| facts.graph.address(step).clone()).collect();
    module::cycle_diagnostic_along(db, attr, &path)
}

/// Whether an invalid type constraint is one for the file's tool: Terraform
/// reads the bare `list` and `map` of its 0.11 days as `list(any)` and
/// `map(any)`, Terraform 0.12 to 0.14 accepted quoted types (the
/// `quoted-type-constraint` lint warns about both), and its other formats
/// have type keywords of their own.
fn trusts_type_error(diagnostic: &ModuleDiagnostic, kind: Language) -> bool {
    match kind {
        Language::Terraform => {
            !matches!(diagnostic.kind, ModuleDiagnosticKind::InvalidTypeConstraint { legacy: true, .. })
        }
        Language::TerraformTool => false,
        _ => true,
    }
}

/// Whether a duplicate declaration is a conflict for the tool: variables,
/// locals and top-level attributes within one configuration (one file, or
/// files the tool reads together), blocks of the types the tool keys by
/// label.
fn trusts_duplicate(db: &dyn Db, diagnostic: &ModuleDiagnostic, kind: Language) -> bool {
    // Terraform merges an override file's declarations into the others.
    let is_override = |file: File| vfs::is_terraform_override_file(file.path(db));
    if kind == Language::Terraform
        && (is_override(diagnostic.file)
            || diagnostic.related.iter().any(|(first, _, _)| is_override(*first)))
    {
        return false;
    }
    let same_configuration = diagnostic.related.iter().all(|(first, _, _)| {
        *first == diagnostic.file || (kind.is_multi_file() && language_of(db, *first) == kind)
    });
    if !same_configuration {
        return false;
    }
    match &diagnostic.kind {
        // A generic module's `variable` and `locals` blocks are Halite's
        // (the evaluation gives `var.NAME` and `local.NAME` from them): a
        // second declaration is hidden by the first there too.
        ModuleDiagnosticKind::Duplicate(DuplicateOf::Variable) => {
            kind.has_variables() || kind == Language::Hcl
        }
        ModuleDiagnosticKind::Duplicate(DuplicateOf::Local) => kind.has_locals() || kind == Language::Hcl,
        ModuleDiagnosticKind::Duplicate(DuplicateOf::TopLevelAttribute) => true,
        ModuleDiagnosticKind::Duplicate(DuplicateOf::Block { block_type }) => {
            kind.unique_block_types().is_none_or(|types| types.contains(&block_type.as_str()))
        }
        _ => false,
    }
}

/// What a module's evaluation makes of the values a check cannot know.
#[derive(Debug, Clone, Copy)]
struct SoundInputs {
    /// A variable no caller set is an unknown of its type (the dialect's
    /// `unset_variables_unknown`: Terraform's), not its default.
    variables_unknown: bool,
    /// A block's attribute is unknown (the dialect's `computed_attributes`:
    /// a Terraform provider converts and computes what is written), not
    /// its written value.
    block_attributes_unknown: bool,
}

/// Whether `module` has Terraform override files (`override.tf`,
/// `*_override.tf`), which its dialect leaves out of the module's files:
/// they may change what the others declare.
#[salsa::tracked(returns(copy))]
pub fn has_override_files(db: &dyn Db, module: Module) -> bool {
    module.files(db).iter().any(|file| vfs::is_terraform_override_file(file.path(db)))
}

impl SoundInputs {
    fn of(db: &dyn Db, module: Module) -> SoundInputs {
        let rules = module.dialect(db).rules(db);
        // A variable given a value is that value, which holds for one run,
        // not for every input: a check gives none. An override file, which
        // the model does not read, may change a variable's type.
        let overridden = rules.reads_some_files_only && has_override_files(db, module);
        // The root of a run takes its variables' defaults, which hold for
        // that run only: its variables are unknown only when none has one.
        let root_defaults = || {
            module.role(db) == module::ModuleRole::Root
                && module::names_under(db, module, "var").iter().any(|name| {
                    module::definition(db, module, &Address::new(["var", name.as_str()])).is_some_and(|it| {
                        matches!(it.kind, DeclarationKind::Variable { default_attr: Some(_), .. })
                    })
                })
        };
        let variables_unknown = rules.unset_variables_unknown
            && module.variables(db).is_empty()
            && !overridden
            && !root_defaults();
        SoundInputs { variables_unknown, block_attributes_unknown: rules.computed_attributes }
    }

    /// Whether a value read at an address of `root` is one whose errors
    /// hold whatever the inputs are: a local (when what it reads is), a
    /// variable or a block's attribute when they are unknown.
    fn reads(self, root: &str) -> Option<bool> {
        match root {
            "local" => None,
            "var" => Some(self.variables_unknown),
            _ => Some(self.block_attributes_unknown),
        }
    }
}

fn root_of(address: &Address) -> &str {
    address.first().unwrap_or_default()
}

/// Variables of `file` whose value has an error of its own: a `default`
/// that does not evaluate (it may name no variable, and call only what
/// its language allows there: "Variables not allowed", as `terraform
/// validate` and `packer validate` report it), or does not convert to the
/// variable's `type` ("Invalid default value for variable"), and a value
/// a run gives (`eval --var`, a variables file) that does not convert
/// ("Invalid value for input variable", as `terraform plan` reports it).
/// The module model finds the error when it reads the variable's value;
/// a check evaluates no variable otherwise, and an attribute that reads it
/// fails only as depending on it, so each variable is read here. What a
/// default may call is known for Terraform's and Packer's files; an
/// application's own language may allow more there (Waypoint's
/// `configdynamic()`), so a generic file's default is held only to its
/// type.
fn variable_value_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let index = module::IndexView::of(db, module);
    let defaults_known = matches!(language_of(db, file), Language::Terraform | Language::Packer);
    let mut out = Vec::new();
    for address in index.file_index(file).addresses.iter() {
        let Some(definition) = index.definition(address) else { continue };
        if !matches!(definition.kind, module::DeclarationKind::Variable { .. }) || definition.file != file {
            continue;
        }
        let attr = module::Attr::new(db, module, address.clone());
        if let Some(diagnostic) = module::attribute_diagnostic(db, attr)
            && match diagnostic.kind {
                ModuleDiagnosticKind::InvalidVariableValue { .. } => true,
                ModuleDiagnosticKind::Eval(_) => defaults_known,
                _ => false,
            }
        {
            out.push(diagnostic);
        }
    }
    out
}

/// Variables and locals declared in `file`, a native Terraform, Packer or
/// Nomad file of the module, that nothing in the module refers to (see
/// [`FileReferences`]; a whole-object reference, `local` or `var`, uses
/// every name under it).
fn unused_declarations(db: &dyn Db, module: Module, file: File, usage: &Usage) -> Vec<Diagnostic> {
    // Terragrunt's locals are read by the files that include them, and an
    // application may read its own: only tools whose configuration is the
    // module alone say that nothing reads a declaration.
    let closed = matches!(language_of(db, file), Language::Terraform | Language::Packer | Language::Nomad);
    if !closed || file.syntax(db) != SourceSyntax::Native {
        return Vec::new();
    }
    let mut out = Vec::new();
    for address in module::file_index(db, module, file).addresses.iter() {
        let Some(def) = module::definition(db, module, address) else { continue };
        let (root, what) = match def.kind {
            DeclarationKind::Variable { .. } => ("var", "Variable"),
            DeclarationKind::Local => ("local", "Local value"),
            _ => continue,
        };
        let Some(name) = address.segment(1) else { continue };
        if usage.is_used(root, name) {
            continue;
        }
        let range = module::declaration_range(db, def.file, def.location(db));
        out.push(
            Diagnostic::warning(
                rules::UNUSED_DECLARATION,
                format!("{what} `{name}` is never used"),
                def.file,
                range,
            )
            .with_note(format!(
                "Nothing in this module refers to {address}. Remove the declaration, or use it where it was meant to be used."
            )),
        );
    }
    out
}
