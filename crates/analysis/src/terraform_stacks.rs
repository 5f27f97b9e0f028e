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
//! and is not a reference. The model's own resolution does not run here:
//! it does not know a Stack's roots, and its findings in these files are
//! not trusted (`module.rs`).

use db::{
    Db, File,
    module::{Module, ModuleDiagnostic, ModuleDiagnosticKind, Unresolved},
};
use smol_str::SmolStr;
use vfs::TerraformFormat;

/// What one Stack file declares, as the references to it are written: the
/// root and the one or two names after it (`component.NAME`,
/// `provider.TYPE.NAME`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StackDeclarations {
    pub names: Vec<(SmolStr, Vec<SmolStr>)>,
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
        (TerraformFormat::StackDeployments, _) => {
            roots(format).iter().map(|(root, _)| *root).find(|root| *root != "local" && *root == block_type)
        }
        _ => None,
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
    let mut names = Vec::new();
    for &block in &hir.body.blocks {
        let block = &hir[block];
        if block.type_name == "locals" {
            for &attribute in &block.body.attributes {
                names.push((SmolStr::new("local"), vec![hir[attribute].name.clone()]));
            }
            continue;
        }
        let Some(root) = declared_root(format, &block.type_name) else { continue };
        let wanted = roots(format).iter().find(|(name, _)| *name == root).map_or(1, |(_, count)| *count);
        if block.labels.len() == wanted {
            names.push((SmolStr::new(root), block.labels.clone()));
        }
    }
    StackDeclarations { names }
}

/// The references of `file`, a native Stack file, to names its Stack's
/// files of the same kind do not declare. None while any of those files
/// has a syntax error: the blocks after it are missing from its
/// declarations, not from the Stack.
pub fn stack_reference_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let path = file.path(db);
    let Some(format) = TerraformFormat::of(path).filter(|it| it.is_stack()) else { return Vec::new() };
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let siblings: Vec<File> = module
        .files(db)
        .iter()
        .copied()
        .filter(|&other| {
            TerraformFormat::of(other.path(db)) == Some(format)
                && vfs::module_dir(other.path(db)) == vfs::module_dir(path)
        })
        .collect();
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
