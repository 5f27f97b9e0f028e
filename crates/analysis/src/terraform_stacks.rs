//! References in a Terraform Stack's files, resolved against what the
//! Stack's files of the same kind declare.
//!
//! A directory's component configuration files (`*.tfcomponent.hcl`, and
//! `*.tfstack.hcl` before Terraform 1.13) make one Stack, as Terraform's
//! `stackconfig` package loads them: a reference to `var.NAME`,
//! `local.NAME`, `component.NAME`, `stack.NAME` or `provider.TYPE.NAME`
//! that no block of those files declares is an error when the Stack is
//! validated ("Reference to undeclared component", …). A directory's
//! deployment configuration files (`*.tfdeploy.hcl`) make one deployment
//! configuration, with names of their own: `local.NAME`,
//! `deployment.NAME`, `deployment_group.NAME`,
//! `deployment_auto_approve.NAME`, `identity_token.NAME`,
//! `upstream_input.NAME` and `store.TYPE.NAME`.
//!
//! Only those roots are resolved: any other (`each`, `self`, a
//! `dynamic` block's iterator, the `context` of an auto-approval check) is
//! left alone. A `removed` block's `from` names a component that is gone,
//! and is not a reference. A second declaration of a name in the Stack's
//! files of a kind is reported too (`stack_duplicate_diagnostics`). The
//! model's own resolution does not run here:
//! it does not know a Stack's roots, and its findings in these files are
//! not trusted (`module.rs`).

use db::{
    Db, File,
    module::{DuplicateOf, Module, ModuleDiagnostic, ModuleDiagnosticKind, Unresolved},
};
use smol_str::SmolStr;
use syntax::{AstNode, TextRange, ast};
use vfs::TerraformFormat;

/// What one Stack file declares, as the references to it are written: the
/// root and the one or two names after it (`component.NAME`,
/// `provider.TYPE.NAME`), with where each is, in source order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StackDeclarations {
    pub names: Vec<(SmolStr, Vec<SmolStr>)>,
    /// Where each of `names` is declared.
    pub at: Vec<Declared>,
}

/// Where a name of a Stack file is declared: a block, or an attribute of a
/// `locals` block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    Block(hir::BlockId),
    Local(hir::AttributeId),
}

/// The roots a Stack file of `format` resolves, each with how many names
/// follow it.
fn roots(format: TerraformFormat) -> &'static [(&'static str, usize)] {
    match format {
        TerraformFormat::StackComponents => {
            &[("var", 1), ("local", 1), ("component", 1), ("stack", 1), ("provider", 2)]
        }
        TerraformFormat::StackDeployments => &[
            ("local", 1),
            ("deployment", 1),
            ("deployment_group", 1),
            ("deployment_auto_approve", 1),
            ("identity_token", 1),
            ("upstream_input", 1),
            ("store", 2),
        ],
        _ => &[],
    }
}

/// The root a top-level block of a Stack file declares a name under.
fn declared_root(format: TerraformFormat, block_type: &str) -> Option<&'static str> {
    match (format, block_type) {
        (TerraformFormat::StackComponents, "variable") => Some("var"),
        (TerraformFormat::StackComponents, "component") => Some("component"),
        (TerraformFormat::StackComponents, "stack") => Some("stack"),
        (TerraformFormat::StackComponents, "provider") => Some("provider"),
        // Declared once, named by nothing.
        (TerraformFormat::StackComponents, "output") => Some("output"),
        (TerraformFormat::StackComponents, "required_providers") => Some("required_providers"),
        (TerraformFormat::StackDeployments, "publish_output") => Some("publish_output"),
        (TerraformFormat::StackDeployments, "orchestrate") => Some("orchestrate"),
        (TerraformFormat::StackDeployments, _) => {
            roots(format).iter().map(|(root, _)| *root).find(|root| *root != "local" && *root == block_type)
        }
        _ => None,
    }
}

/// How many labels the blocks declaring under `root` have.
fn label_count(format: TerraformFormat, root: &str) -> usize {
    match root {
        "required_providers" => 0,
        "orchestrate" => 2,
        _ => roots(format).iter().find(|(name, _)| *name == root).map_or(1, |(_, count)| *count),
    }
}

/// The declarations of a Stack file (none for another file), kept per
/// file so that an edit of one file of a Stack reads the others' lists,
/// not their trees.
#[salsa::tracked(returns(ref))]
pub fn stack_declarations(db: &dyn Db, file: File) -> StackDeclarations {
    let Some(format) = TerraformFormat::of(file.path(db)).filter(|it| it.is_stack()) else {
        return StackDeclarations::default();
    };
    let hir = db::lower(db, file);
    let mut out = StackDeclarations::default();
    for &id in &hir.body.blocks {
        let block = &hir[id];
        if block.type_name == "locals" {
            for &attribute in &block.body.attributes {
                out.names.push((SmolStr::new("local"), vec![hir[attribute].name.clone()]));
                out.at.push(Declared::Local(attribute));
            }
            continue;
        }
        let Some(root) = declared_root(format, &block.type_name) else { continue };
        if block.labels.len() == label_count(format, root) {
            out.names.push((SmolStr::new(root), block.labels.clone()));
            out.at.push(Declared::Block(id));
        }
    }
    out
}

/// The files of `file`'s Stack of the same kind (components or
/// deployments): the module's files of its format in its directory, itself
/// included, and that format. `None` when `file` is no Stack file.
fn stack_files<'db>(
    db: &'db dyn Db,
    module: Module,
    file: File,
) -> Option<(TerraformFormat, impl Iterator<Item = File> + 'db)> {
    let path = file.path(db);
    let format = TerraformFormat::of(path).filter(|it| it.is_stack())?;
    let dir = vfs::module_dir(path);
    let files = module.files(db).iter().copied().filter(move |&other| {
        TerraformFormat::of(other.path(db)) == Some(format) && vfs::module_dir(other.path(db)) == dir
    });
    Some((format, files))
}

/// The references of `file`, a native Stack file, to names its Stack's
/// files of the same kind do not declare. None while any of those files
/// has a syntax error: the blocks after it are missing from its
/// declarations, not from the Stack.
pub fn stack_reference_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let Some((format, siblings)) = stack_files(db, module, file) else { return Vec::new() };
    let siblings: Vec<File> = siblings.collect();
    if !siblings.contains(&file) || !siblings.iter().all(|&other| db::parses_cleanly(db, other)) {
        return Vec::new();
    }
    let declared: Vec<&(SmolStr, Vec<SmolStr>)> =
        siblings.iter().flat_map(|&other| stack_declarations(db, other).names.iter()).collect();
    let hir = db::lower(db, file);
    let mut values = Vec::new();
    let mut stack: Vec<(&hir::Body, bool)> = vec![(&hir.body, true)];
    while let Some((body, top)) = stack.pop() {
        for &attribute in &body.attributes {
            values.push(hir[attribute].value);
        }
        for &block in &body.blocks {
            let block = &hir[block];
            if top && block.type_name == "removed" {
                // `from` names what is gone; the rest is read as usual.
                for &attribute in &block.body.attributes {
                    if hir[attribute].name != "from" {
                        values.push(hir[attribute].value);
                    }
                }
                for &nested in &block.body.blocks {
                    stack.push((&hir[nested].body, false));
                }
                continue;
            }
            stack.push((&block.body, false));
        }
    }
    let mut out = Vec::new();
    for value in values {
        for reference in db::module::references(&hir.exprs, value) {
            let Some(&(root, count)) = roots(format).iter().find(|(root, _)| *root == reference.root) else {
                continue;
            };
            // `var` alone, or a name in brackets: Terraform's "Invalid
            // reference", another finding.
            if reference.attrs.len() < count {
                continue;
            }
            let written = &reference.attrs[..count];
            let same_root = || declared.iter().filter(|(name, _)| name == root);
            if same_root().any(|(_, names)| names.as_slice() == written) {
                continue;
            }
            // The step that names nothing: the type of a two-name reference
            // when no block has it, else the last name.
            let step =
                if count == 2 && !same_root().any(|(_, names)| names[0] == written[0]) { 1 } else { count };
            let candidates: Vec<&str> = same_root()
                .filter(|(_, names)| names[..step - 1] == written[..step - 1])
                .map(|(_, names)| names[step - 1].as_str())
                .collect();
            let name = written[step - 1].clone();
            let suggestion = eval::suggest(&name, candidates.iter().copied()).map(SmolStr::new);
            let Some(&link) = reference.links.get(step) else { continue };
            let Some(pointer) = db::source_map(db, file).expr_syntax(link) else { continue };
            let (kind, detail) = unresolved(format, root, written, step, name, suggestion);
            out.push(ModuleDiagnostic {
                file,
                range: pointer.text_range(),
                kind: ModuleDiagnosticKind::Unresolved(kind),
                detail,
                related: Vec::new(),
            });
        }
    }
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

/// The finding of a reference whose name at `step` is not declared, with
/// Terraform's detail for a component configuration (HCP Terraform's
/// deployment configuration is written the same way).
fn unresolved(
    format: TerraformFormat,
    root: &str,
    written: &[SmolStr],
    step: usize,
    name: SmolStr,
    suggestion: Option<SmolStr>,
) -> (Unresolved, String) {
    let within = match format {
        TerraformFormat::StackDeployments => "this deployment configuration",
        _ => "this stack",
    };
    let hint = suggestion.as_ref().map(|meant| format!(" Did you mean {meant:?}?")).unwrap_or_default();
    match root {
        "var" => (
            Unresolved::UndeclaredVariable { name: name.clone(), suggestion },
            format!("There is no variable {name:?} block declared in {within}.{hint}"),
        ),
        "local" => (
            Unresolved::UndeclaredLocal { name: name.clone(), suggestion },
            format!("There is no local {name:?} declared in {within}.{hint}"),
        ),
        _ => {
            let detail = if step == 2 {
                format!("There is no {root} {:?} {name:?} block declared in {within}.{hint}", written[0])
            } else if written.len() == 2 {
                format!("There is no {root} block of type {name:?} declared in {within}.{hint}")
            } else {
                format!("There is no {root} {name:?} block declared in {within}.{hint}")
            };
            (Unresolved::UndeclaredBlock { block_type: root.into(), label: name, suggestion }, detail)
        }
    }
}

/// The declarations of `file`, a Stack file, that an earlier one of its
/// Stack's files of the same kind (in path order) or of the file itself
/// already made, as Terraform reports them when it loads the Stack
/// ("Duplicate component declaration", …): a second `component`,
/// `stack`, `variable`, `output`, `provider` configuration, local value or
/// `required_providers` block, or a second deployment-file block of one
/// name (`deployment`, `identity_token`, `store`, …). Files with syntax
/// errors are left out, as their trees are a guess.
pub fn stack_duplicate_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    if file.syntax(db) != db::SourceSyntax::Native || !db::parses_cleanly(db, file) {
        return Vec::new();
    }
    let Some((_, siblings)) = stack_files(db, module, file) else { return Vec::new() };
    let mut siblings: Vec<File> = siblings
        .filter(|&other| other.syntax(db) == db::SourceSyntax::Native && db::parses_cleanly(db, other))
        .collect();
    siblings.sort_by(|a, b| vfs::path_order(a.path(db), b.path(db)));
    let mine = stack_declarations(db, file);
    let mut out = Vec::new();
    for (index, (root, names)) in mine.names.iter().enumerate() {
        let earlier_files = siblings.iter().take_while(|&&other| other != file);
        let first = earlier_files
            .flat_map(|&other| {
                let declarations = stack_declarations(db, other);
                declarations.names.iter().zip(&declarations.at).map(move |(name, at)| (other, name, *at))
            })
            .chain(mine.names[..index].iter().zip(&mine.at).map(|(name, at)| (file, name, *at)))
            .find(|(_, (other_root, other_names), _)| other_root == root && other_names == names);
        let Some((first_file, _, first_at)) = first else { continue };
        let (Some(range), Some(first_range)) =
            (declared_range(db, file, mine.at[index]), declared_range(db, first_file, first_at))
        else {
            continue;
        };
        let first_text = crate::terraform::terraform_range(db, first_file, first_range);
        let (kind, detail) = duplicate(root, names, &first_text);
        out.push(ModuleDiagnostic {
            file,
            range,
            kind: ModuleDiagnosticKind::Duplicate(kind),
            detail,
            related: vec![(first_file, first_range, "first defined here".to_owned())],
        });
    }
    out
}

/// Terraform's kind and detail of a second declaration of `names` under
/// `root`, the first at `first`.
fn duplicate(root: &str, names: &[SmolStr], first: &str) -> (DuplicateOf, String) {
    let name = names.first().map(SmolStr::as_str).unwrap_or_default();
    match root {
        "var" => (
            DuplicateOf::Variable,
            format!("An input variable named {name:?} was already declared at {first}."),
        ),
        "local" => {
            (DuplicateOf::Local, format!("A local value named {name:?} was already declared at {first}."))
        }
        "required_providers" => (
            DuplicateOf::Block { block_type: root.into() },
            format!("This stack's provider requirements were already declared at {first}."),
        ),
        _ => {
            let what = match (root, names) {
                ("provider", [provider, name]) => {
                    format!("A configuration named {name:?} for provider {provider:?}")
                }
                (_, [kind, name]) => format!("A {root} of type {kind:?} named {name:?}"),
                _ => {
                    let article = if root.starts_with(['a', 'e', 'i', 'o', 'u']) { "An" } else { "A" };
                    format!("{article} {root} named {name:?}")
                }
            };
            (
                DuplicateOf::Block { block_type: root.into() },
                format!("{what} was already declared at {first}."),
            )
        }
    }
}

/// Where a declaration is: a block's type and labels, a local's name.
fn declared_range(db: &dyn Db, file: File, at: Declared) -> Option<TextRange> {
    let map = db::source_map(db, file);
    let root = db::parse(db, file).syntax_node();
    match at {
        Declared::Block(id) => {
            let block = ast::Block::cast(map.block_syntax(id)?.try_to_node(&root)?)?;
            let start = block.ident_token()?.text_range();
            Some(block.block_labels().last().map_or(start, |label| start.cover(label.syntax().text_range())))
        }
        Declared::Local(id) => {
            let attribute = ast::Attribute::cast(map.attribute_syntax(id)?.try_to_node(&root)?)?;
            Some(attribute.ident_token()?.text_range())
        }
    }
}
