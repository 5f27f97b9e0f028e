//! The module rules: what the module model (`db::module`) finds about a
//! directory's files taken together, as [`Diagnostic`]s with rule codes.
//!
//! Two readers, two needs. `halite eval DIR` shows every problem its
//! evaluation meets ([`convert`] on each of `db`'s module diagnostics).
//! `halite check` runs over repositories of tools whose semantics the
//! generic model knows only in part (Terraform, Packer, Nomad, Terragrunt,
//! applications' own formats), where a false alarm costs more than a missed
//! finding: [`module_diagnostics`] keeps only what the file's kind lets it
//! trust (see [`FileKind`]) and adds the unused declarations.
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
    module::{
        self, Address, Attr, AttrError, DeclarationKind, DuplicateOf, Module, ModuleDiagnostic,
        ModuleDiagnosticKind, Target, Unresolved, attribute_targets, attribute_value, module_attributes,
        module_index, references,
    },
};
use eval::EvalErrorKind;
use rustc_hash::{FxHashMap, FxHashSet};
use syntax::{SyntaxKind, TextRange, TextSize};

use crate::{Diagnostic, Edit, Suggestion, rules};

/// The tool a file is written for, by its name: what its roots, functions
/// and blocks mean decides which of the model's findings hold for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `*.tf`, `*.tf.json`, and OpenTofu's `*.tofu`, `*.tofu.json`.
    Terraform,
    /// Terraform's other formats (`*.tftest.hcl`, `*.tfcomponent.hcl`,
    /// `*.tfstack.hcl`, `*.tfdeploy.hcl`, `*.tfmock.hcl`, `*.tfquery.hcl`,
    /// OpenTofu's `*.tofutest.hcl`), with roots of their own (`run.NAME`,
    /// `component.NAME`) and variables declared elsewhere.
    TerraformTool,
    /// `*.pkr.hcl`, `*.pkr.json`.
    Packer,
    /// `*.nomad`, `*.nomad.hcl`, `*.nomad.json`.
    Nomad,
    /// `terragrunt.hcl` (and its JSON twin).
    Terragrunt,
    /// Any other HCL file: an application's own format (tflint's
    /// `.tflint.hcl` among them), with roots and functions the application
    /// registers.
    Generic,
}

impl FileKind {
    pub fn of(path: &str) -> FileKind {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let name = name.strip_suffix(".json").unwrap_or(name);
        // OpenTofu reads a `.tofu` file as a `.tf` one, and its
        // `.tofutest.hcl` as a `.tftest.hcl` (opentofu/opentofu's
        // `internal/configs/parser_config_dir.go`).
        if name.ends_with(".tf") || name.ends_with(".tofu") {
            FileKind::Terraform
        } else if name.rsplit('.').nth(1).is_some_and(|ext| ext.starts_with("tf") || ext == "tofutest")
            && name.ends_with(".hcl")
        {
            FileKind::TerraformTool
        } else if name.ends_with(".pkr.hcl") || name.ends_with(".pkr") {
            FileKind::Packer
        } else if name.ends_with(".nomad") || name.ends_with(".nomad.hcl") {
            FileKind::Nomad
        } else if name == "terragrunt.hcl"
            || name.ends_with(".terragrunt.hcl")
            || name == "terragrunt.stack.hcl"
        {
            FileKind::Terragrunt
        } else {
            FileKind::Generic
        }
    }

    /// Whether several files of a directory make one configuration for the
    /// tool, so that a name declared in two of them is a conflict. Nomad and
    /// Terragrunt read one file at a time; an application may too.
    fn is_multi_file(self) -> bool {
        matches!(self, FileKind::Terraform | FileKind::Packer)
    }

    /// Whether the tool has `var.NAME` (declared by `variable` blocks).
    fn has_variables(self) -> bool {
        matches!(self, FileKind::Terraform | FileKind::Packer | FileKind::Nomad)
    }

    /// Whether the tool has `local.NAME` (declared in `locals` blocks).
    fn has_locals(self) -> bool {
        matches!(self, FileKind::Terraform | FileKind::Packer | FileKind::Nomad | FileKind::Terragrunt)
    }

    /// The top-level block types whose blocks are keyed by their labels, and
    /// referred to as `TYPE.LABEL…`: declaring one twice, or referring to a
    /// label none has, is an error for the tool.
    fn labelled_roots(self) -> &'static [&'static str] {
        match self {
            FileKind::Terraform => &["data", "module"],
            FileKind::Packer => &["data"],
            FileKind::Terragrunt => &["dependency"],
            FileKind::TerraformTool | FileKind::Nomad | FileKind::Generic => &[],
        }
    }

    /// The block types a second block of the same labels conflicts with;
    /// `None` for all of them (Terraform's dialect makes the repeatable ones,
    /// `provider`, repeat without conflict).
    fn unique_block_types(self) -> Option<&'static [&'static str]> {
        match self {
            FileKind::Terraform => None,
            FileKind::Packer => Some(&["source", "data"]),
            FileKind::Terragrunt => Some(&["dependency"]),
            FileKind::TerraformTool | FileKind::Nomad | FileKind::Generic => Some(&[]),
        }
    }
}

/// What a module's dialect lets a check trust about a file: the generic
/// model's findings, or also those only a dialect can make (every root and
/// every function known).
#[derive(Debug, Clone, Copy)]
struct Trust {
    kind: FileKind,
    /// The module's dialect is the file's own language (Terraform's, for a
    /// `*.tf` file): it knows every root name and every function.
    dialect: bool,
    /// The tool skips the file though its name has the tool's extension
    /// (Terraform ignores `.hidden.tf`, as editors' and systems' hidden
    /// files): nothing it refers to need exist.
    ignored_by_tool: bool,
}

impl Trust {
    fn of(db: &dyn Db, module: Module, file: File) -> Trust {
        let kind = FileKind::of(file.path(db).as_str());
        let rules = module.dialect(db).rules(db);
        let dialect = kind == FileKind::Terraform && rules.name == "terraform";
        let name = file.path(db).file_name().unwrap_or_default();
        // Terraform's `configs.IsIgnoredFile`: hidden files (the editors'
        // backups it also skips do not end in `.tf`).
        let ignored_by_tool = kind == FileKind::Terraform && name.starts_with('.');
        Trust { kind, dialect, ignored_by_tool }
    }

    /// Whether a call to a function the evaluator does not have is a
    /// finding: only where the dialect lists the language's functions.
    fn knows_every_function(self) -> bool {
        self.dialect
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
    /// of Terraform's functions with its own signature). Packer and
    /// Terragrunt have functions of the same names that differ, which no
    /// dialect implements yet.
    fn knows_functions_it_has(self) -> bool {
        self.kind == FileKind::Generic || self.dialect
    }
}

/// The rule code of a kind of module problem: what users configure and
/// ignore. Decided by the kind alone, never by a message's words.
pub fn rule_code(kind: &ModuleDiagnosticKind) -> &'static str {
    match kind {
        ModuleDiagnosticKind::Duplicate(_) => rules::DUPLICATE_DECLARATION,
        ModuleDiagnosticKind::InvalidTypeConstraint { .. } => rules::INVALID_TYPE_CONSTRAINT,
        ModuleDiagnosticKind::Unresolved(Unresolved::UnsupportedAttribute { .. }) => rules::UNKNOWN_ATTRIBUTE,
        ModuleDiagnosticKind::Unresolved(_) => rules::UNDECLARED_REFERENCE,
        ModuleDiagnosticKind::ReferenceCycle => rules::REFERENCE_CYCLE,
        ModuleDiagnosticKind::MissingVariable { .. } => rules::MISSING_VARIABLE,
        ModuleDiagnosticKind::InvalidVariableValue { .. } => rules::INVALID_VARIABLE_VALUE,
        ModuleDiagnosticKind::UnsupportedModuleArgument { .. } => rules::UNSUPPORTED_MODULE_ARGUMENT,
        ModuleDiagnosticKind::MissingModuleArgument { .. } => rules::MISSING_MODULE_ARGUMENT,
        ModuleDiagnosticKind::Eval(kind) => eval_rule_code(kind),
        ModuleDiagnosticKind::UnknownProviderFunction { .. } => rules::UNKNOWN_FUNCTION,
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
        ModuleDiagnosticKind::UnsupportedModuleArgument { suggestion, .. } => suggestion.as_ref()?,
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

/// The module's diagnostics for `halite check`: those of `db`'s module
/// diagnostics that hold whatever values the inputs take and whatever the
/// tool adds to the model (see the module documentation), then the unused
/// variables and locals. A check knows no variable's value, so nothing that
/// depends on one is reported, whatever the module's variables are set to.
#[salsa::tracked(returns(ref))]
pub fn module_diagnostics(db: &dyn Db, module: Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let index = module_index(db, module);
    let declares = |root: &str| index.names_under(root).next().is_some();
    // Duplicates come with `db`'s module diagnostics, which evaluate every
    // attribute: asked for only in the few modules that have any.
    if !index.duplicates.is_empty() {
        for diagnostic in module::module_diagnostics(db, module) {
            let trust = Trust::of(db, module, diagnostic.file);
            if matches!(diagnostic.kind, ModuleDiagnosticKind::Duplicate(_))
                && trusts_duplicate(db, diagnostic, trust.kind)
            {
                out.push(convert(db, diagnostic));
            }
        }
    }
    for &file in module.files(db) {
        let kind = FileKind::of(file.path(db).as_str());
        for diagnostic in module::type_constraint_diagnostics(db, file) {
            if trusts_type_error(&diagnostic, kind) {
                out.push(convert(db, &diagnostic));
            }
        }
    }
    // Namespaced calls Terraform cannot resolve, found from the
    // declarations: certain in a Terraform file of a module whose files all
    // parse (a `required_providers` block after a syntax error is missing
    // from the index, not from the module).
    let provider_functions = module::provider_function_diagnostics(db, module);
    if !provider_functions.is_empty()
        && module::module_files(db, module).iter().all(|&file| db::syntax_errors(db, file).is_empty())
    {
        for diagnostic in &provider_functions {
            if FileKind::of(diagnostic.file.path(db).as_str()) == FileKind::Terraform {
                out.push(convert(db, diagnostic));
            }
        }
    }

    // Only two kinds of attributes can have an error a check reports: those
    // with a reference that names nothing, and those whose value is
    // evaluated with every input it reads unknown (see
    // `reads_only_sound_values`) and whose expression may fail or which
    // may be on a cycle (`may_fail_to_evaluate`: `name = var.name` cannot).
    // The others are not evaluated at all.
    // Dependencies first, so that a long chain of locals does not recurse
    // (see `evaluate_in_order`).
    let mut sound_values: FxHashMap<Address, bool> = FxHashMap::default();
    let inputs = SoundInputs::of(db, module);
    // The targets of every attribute's references, resolved once: the
    // choice of candidates, the walk through their dependencies and the
    // unused declarations all read them.
    let targets = AttributeTargets::resolve(db, module);
    let on_cycles = targets.on_cycles();
    let candidates: Vec<Attr<'_>> = module_attributes(db, module)
        .iter()
        .copied()
        .filter(|&attr| {
            let attr_targets = targets.get(db, attr.address(db));
            attr_targets.iter().any(|target| matches!(target, Target::Unresolved { .. }))
                || ((module::may_fail_to_evaluate(db, attr) || on_cycles.contains(attr.address(db)))
                    && reads_only_sound_values(db, attr, inputs, &targets, &mut sound_values))
        })
        .collect();
    module::evaluate_in_order(db, &candidates);
    let mut on_reported_cycles: FxHashSet<Address> = FxHashSet::default();
    for &attr in &candidates {
        let error = match attribute_value(db, attr) {
            Err(error @ (AttrError::Unresolved { .. } | AttrError::Eval(_) | AttrError::Cycle(_))) => error,
            _ => continue,
        };
        if let AttrError::Cycle(_) = error {
            if on_reported_cycles.contains(attr.address(db)) {
                continue;
            }
            on_reported_cycles.extend(module::cycle_path(db, attr));
        }
        let Some(diagnostic) = module::attribute_diagnostic(db, attr) else { continue };
        let trust = Trust::of(db, module, diagnostic.file);
        let trusted = match error {
            AttrError::Unresolved { kind, .. } => match kind {
                _ if trust.ignored_by_tool => false,
                // A `variables { NAME = … }` block (Packer, Terraform's
                // tests) declares variables the model does not index.
                Unresolved::UndeclaredVariable { .. } if index.blocks.contains_key("variables") => false,
                Unresolved::UndeclaredVariable { .. } => match trust.kind {
                    FileKind::Terraform | FileKind::Packer | FileKind::Nomad => true,
                    FileKind::Generic => declares("var"),
                    FileKind::TerraformTool | FileKind::Terragrunt => false,
                },
                Unresolved::UndeclaredLocal { .. } => match trust.kind {
                    FileKind::Terraform | FileKind::Packer | FileKind::Nomad | FileKind::Terragrunt => true,
                    FileKind::Generic => declares("local"),
                    FileKind::TerraformTool => false,
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
                | Unresolved::InvalidReference => {
                    trust.knows_every_root()
                        && db::module::module_files(db, module)
                            .iter()
                            .all(|&file| db::syntax_errors(db, file).is_empty())
                }
                // An attribute a block does not set, or a root the module
                // does not declare where no dialect knows every root: only
                // the file's own dialect could know whether the tool
                // computes or provides it.
                Unresolved::UnknownRoot { .. } | Unresolved::UnsupportedAttribute { .. } => false,
            },
            // A cycle among locals and blocks' written attributes: a value
            // depending on itself is an error whatever the inputs are.
            AttrError::Cycle(_) => true,
            AttrError::Eval(error) => match &error.kind {
                EvalErrorKind::UnknownFunction { .. } | EvalErrorKind::UnknownNamespacedFunction { .. } => {
                    trust.knows_every_function()
                }
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
    }
    out.extend(unused_declarations(db, module, &targets));
    out
}

/// The targets of the references of a module's attributes, by address,
/// each resolved once ([`attribute_targets`]).
struct AttributeTargets<'db> {
    module: Module,
    by_address: FxHashMap<&'db Address, Vec<Target>>,
}

impl<'db> AttributeTargets<'db> {
    fn resolve(db: &'db dyn Db, module: Module) -> AttributeTargets<'db> {
        let by_address = module_attributes(db, module)
            .iter()
            .map(|&attr| (attr.address(db), attribute_targets(db, attr)))
            .collect();
        AttributeTargets { module, by_address }
    }

    /// The addresses of the attributes on a reference cycle: in a strongly
    /// connected component of the graph of what each reads (Tarjan's
    /// algorithm, iteratively, since chains of locals run to thousands), of
    /// more than one attribute or of one that reads itself. Only they can
    /// have a cycle error, so only they need evaluating to find one.
    fn on_cycles(&self) -> FxHashSet<&'db Address> {
        let nodes: Vec<&'db Address> = self.by_address.keys().copied().collect();
        let number: FxHashMap<&Address, usize> = nodes.iter().enumerate().map(|(i, &it)| (it, i)).collect();
        let edges: Vec<Vec<usize>> = nodes
            .iter()
            .map(|address| {
                self.by_address[address]
                    .iter()
                    .filter_map(|target| match target {
                        Target::Attributes { attrs, .. } => Some(attrs),
                        _ => None,
                    })
                    .flatten()
                    .filter_map(|dependency| number.get(dependency).copied())
                    .collect()
            })
            .collect();
        let mut out = FxHashSet::default();
        let unvisited = usize::MAX;
        let (mut index, mut low) = (vec![unvisited; nodes.len()], vec![0; nodes.len()]);
        let (mut on_stack, mut stack) = (vec![false; nodes.len()], Vec::new());
        let mut next_index = 0;
        for root in 0..nodes.len() {
            if index[root] != unvisited {
                continue;
            }
            // Frames of (node, next edge to follow).
            let mut frames = vec![(root, 0)];
            index[root] = next_index;
            low[root] = next_index;
            next_index += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&mut (node, ref mut edge)) = frames.last_mut() {
                if let Some(&next) = edges[node].get(*edge) {
                    *edge += 1;
                    if index[next] == unvisited {
                        index[next] = next_index;
                        low[next] = next_index;
                        next_index += 1;
                        stack.push(next);
                        on_stack[next] = true;
                        frames.push((next, 0));
                    } else if on_stack[next] {
                        low[node] = low[node].min(index[next]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == index[node] {
                    let mut component = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component.push(member);
                        if member == node {
                            break;
                        }
                    }
                    if component.len() > 1 || edges[node].contains(&node) {
                        out.extend(component.into_iter().map(|member| nodes[member]));
                    }
                }
            }
        }
        out
    }

    /// The targets of the attribute at `address` (resolved now if it is
    /// not one of the module's attributes: nothing to resolve, then).
    fn get(&self, db: &'db dyn Db, address: &Address) -> std::borrow::Cow<'_, [Target]> {
        match self.by_address.get(address) {
            Some(targets) => std::borrow::Cow::Borrowed(targets),
            None => {
                std::borrow::Cow::Owned(attribute_targets(db, Attr::new(db, self.module, address.clone())))
            }
        }
    }
}

/// Whether an invalid type constraint is one for the file's tool: Terraform
/// reads the bare `list` and `map` of its 0.11 days as `list(any)` and
/// `map(any)`, Terraform 0.12 to 0.14 accepted quoted types (the
/// `quoted-type-constraint` lint warns about both), and its other formats
/// have type keywords of their own.
fn trusts_type_error(diagnostic: &ModuleDiagnostic, kind: FileKind) -> bool {
    match kind {
        FileKind::Terraform => {
            !matches!(diagnostic.kind, ModuleDiagnosticKind::InvalidTypeConstraint { legacy: true, .. })
        }
        FileKind::TerraformTool => false,
        _ => true,
    }
}

/// Whether a duplicate declaration is a conflict for the tool: variables,
/// locals and top-level attributes within one configuration (one file, or
/// files the tool reads together), blocks of the types the tool keys by
/// label.
fn trusts_duplicate(db: &dyn Db, diagnostic: &ModuleDiagnostic, kind: FileKind) -> bool {
    // Terraform merges an override file's declarations into the others.
    let is_override = |file: File| module::is_terraform_override_file(file.path(db));
    if kind == FileKind::Terraform
        && (is_override(diagnostic.file)
            || diagnostic.related.iter().any(|(first, _, _)| is_override(*first)))
    {
        return false;
    }
    let same_configuration = diagnostic.related.iter().all(|(first, _, _)| {
        *first == diagnostic.file || (kind.is_multi_file() && FileKind::of(first.path(db).as_str()) == kind)
    });
    if !same_configuration {
        return false;
    }
    match &diagnostic.kind {
        ModuleDiagnosticKind::Duplicate(DuplicateOf::Variable) => kind.has_variables(),
        ModuleDiagnosticKind::Duplicate(DuplicateOf::Local) => kind.has_locals(),
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

impl SoundInputs {
    fn of(db: &dyn Db, module: Module) -> SoundInputs {
        let rules = module.dialect(db).rules(db);
        // A variable given a value is that value, which holds for one run,
        // not for every input: a check gives none. An override file, which
        // the model does not read, may change a variable's type.
        let overridden = rules.terraform_files_only
            && module.files(db).iter().any(|file| module::is_terraform_override_file(file.path(db)));
        let variables_unknown =
            rules.unset_variables_unknown && module.variables(db).is_empty() && !overridden;
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

/// Whether every value `attr`'s value depends on is either the module's
/// own (literals, and locals that read only such values) or unknown
/// whatever the inputs are: a variable an unknown of its declared type, a
/// block's attribute or a dialect's root (`count.index`, `path.module`) an
/// unknown of any type. Evaluation treats unknowns as go-cty and HCL do
/// (an error on one holds for every value it may take), so an error of
/// such an attribute is one a check can report. Not where the dialect uses
/// a variable's default (Packer's, the generic model's: a command line may
/// set another) or a block's written value (a tool may compute or replace
/// it), nor a root the front end gave a value.
/// An explicit walk, since chains of locals run to thousands.
fn reads_only_sound_values<'db>(
    db: &'db dyn Db,
    attr: Attr<'db>,
    inputs: SoundInputs,
    targets: &AttributeTargets<'db>,
    memo: &mut FxHashMap<Address, bool>,
) -> bool {
    let mut stack = vec![(attr.address(db).clone(), false)];
    let mut on_stack: FxHashSet<Address> = FxHashSet::default();
    while let Some((address, children_done)) = stack.pop() {
        if memo.contains_key(&address) {
            continue;
        }
        let mut sound = true;
        let mut pending = Vec::new();
        for target in targets.get(db, &address).iter() {
            match target {
                Target::Attributes { objects, attrs } => {
                    sound &= objects.iter().all(|object| inputs.reads(root_of(object)).unwrap_or(true));
                    for dependency in attrs {
                        match inputs.reads(root_of(dependency)) {
                            Some(unknown) => sound &= unknown,
                            None => match memo.get(dependency) {
                                Some(&dependency_sound) => sound &= dependency_sound,
                                // A cycle has no value to be wrong about.
                                None if on_stack.contains(dependency) => {}
                                None => pending.push(dependency.clone()),
                            },
                        }
                    }
                }
                // `count.index`, `each.value`, a computed attribute, a
                // module's output: unknown of any type.
                Target::Unknown { .. } => {}
                // Unresolved (reported as such), or a root with a value
                // the front end gave.
                Target::Unresolved { .. } | Target::Root { .. } => sound = false,
            }
        }
        if sound && !pending.is_empty() && !children_done {
            on_stack.insert(address.clone());
            stack.push((address, true));
            stack.extend(pending.into_iter().map(|it| (it, false)));
            continue;
        }
        on_stack.remove(&address);
        memo.insert(address, sound);
    }
    memo.get(attr.address(db)).copied().unwrap_or(false)
}

fn root_of(address: &Address) -> &str {
    address.segments().first().map(|it| it.as_str()).unwrap_or_default()
}

/// Variables and locals declared in a native Terraform, Packer or Nomad
/// file of the module and never referenced anywhere in it. Every expression of every file counts,
/// including those the model does not evaluate (a `dynamic` block's
/// content), and the references of an expression are the fixed analysis's:
/// inside function calls, `for` expressions, splats and templates, with the
/// steps after a dynamic index kept. A whole-object reference (`local`,
/// `var`) uses every name under it.
fn unused_declarations(db: &dyn Db, module: Module, targets: &AttributeTargets<'_>) -> Vec<Diagnostic> {
    let index = module_index(db, module);
    let mut used: FxHashSet<(String, String)> = FxHashSet::default();
    let mut whole: FxHashSet<String> = FxHashSet::default();
    let mut note = |root: &str, name: Option<&str>| match name {
        Some(name) => {
            used.insert((root.to_string(), name.to_string()));
        }
        None => {
            whole.insert(root.to_string());
        }
    };
    for &file in module.files(db) {
        if file.syntax(db) != SourceSyntax::Native {
            continue;
        }
        let hir = db::lower(db, file);
        let mut bodies = vec![&hir.body];
        while let Some(body) = bodies.pop() {
            for &attribute in &body.attributes {
                for reference in references(&hir.exprs, hir[attribute].value) {
                    if matches!(reference.root.as_str(), "var" | "local") {
                        note(&reference.root, reference.attrs.first().map(|it| it.as_str()));
                    }
                }
            }
            bodies.extend(body.blocks.iter().map(|&block| &hir[block].body));
        }
    }
    // JSON files' expressions are the model's own lowering: their
    // references are in the resolutions.
    for attr_targets in targets.by_address.values() {
        for target in attr_targets {
            if let Target::Attributes { objects, attrs } = target {
                for object in objects {
                    if let [root] = object.segments() {
                        note(root, None);
                    }
                }
                for address in attrs {
                    if let [root, name, ..] = address.segments() {
                        note(root, Some(name));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for address in &index.order {
        let Some(def) = index.definitions.get(address) else { continue };
        let (root, what) = match def.kind {
            DeclarationKind::Variable { .. } => ("var", "Variable"),
            DeclarationKind::Local => ("local", "Local value"),
            _ => continue,
        };
        let Some(name) = address.segments().get(1) else { continue };
        if whole.contains(root) || used.contains(&(root.to_string(), name.to_string())) {
            continue;
        }
        // Terragrunt's locals are read by the files that include them, and an
        // application may read its own: only tools whose configuration is
        // the module alone say that nothing reads a declaration.
        let closed = matches!(
            FileKind::of(def.file.path(db).as_str()),
            FileKind::Terraform | FileKind::Packer | FileKind::Nomad
        );
        if !closed || def.file.syntax(db) != SourceSyntax::Native {
            continue;
        }
        let Some(range) = declaration_name_range(db, def.file, &def.location, def.kind.clone()) else {
            continue;
        };
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

/// The range of a declaration's name in a native file: a local's name, or a
/// variable block's header (its type and label).
fn declaration_name_range(
    db: &dyn Db,
    file: File,
    location: &module::Location,
    kind: DeclarationKind,
) -> Option<TextRange> {
    let hir = db::lower(db, file);
    let source_map = db::source_map(db, file);
    let block = *hir.body.blocks.get(location.block? as usize)?;
    let pointer = match kind {
        DeclarationKind::Local => {
            let attribute = *hir[block].body.attributes.get(location.attribute? as usize)?;
            source_map.attribute_syntax(attribute)?
        }
        _ => source_map.block_syntax(block)?,
    };
    let root = db::parse(db, file).syntax_node();
    let node = pointer.try_to_node(&root)?;
    let header: Vec<_> = node
        .children_with_tokens()
        .take_while(|it| !matches!(it.kind(), SyntaxKind::L_CURLY | SyntaxKind::EQ))
        .filter(|it| !it.kind().is_trivia() && it.kind() != SyntaxKind::NEWLINE)
        .collect();
    Some(TextRange::new(header.first()?.text_range().start(), header.last()?.text_range().end()))
}
