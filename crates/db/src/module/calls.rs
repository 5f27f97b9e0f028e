//! Module calls: `module "x" { source = "./child" }` blocks whose source
//! is a local directory, and the checks of their arguments against the
//! child module's variables.
//!
//! The database does no I/O, so following a call is the front end's job:
//! [`module_calls`] says which directories to load (with
//! [`RootDatabase::set_module_files`](crate::RootDatabase::set_module_files)),
//! [`module_inputs`] lists a loaded module's variables, and
//! [`module_call_diagnostics`] compares the two for every call whose child
//! the caller can find. (That last step is not a query: which modules are
//! loaded is the caller's table, not an input, so a query reading it would
//! miss a child loaded later.)

use std::sync::Arc;

use camino::{Utf8Path, Utf8PathBuf};
use smol_str::SmolStr;

use crate::{
    Db, File,
    module::{
        Address, Attr, DeclarationKind, Location, Module, ModuleDiagnostic, ModuleDiagnosticKind,
        attribute_value, diagnostics::declaration_range, module_files,
    },
};

/// The arguments of a `module` block that are meta-arguments, not the
/// child's variables.
pub const MODULE_META_ARGUMENTS: &[&str] =
    &["source", "version", "count", "for_each", "providers", "depends_on"];

/// A `module` block with a local `source`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCall {
    /// The block's label: `module.NAME`.
    pub name: SmolStr,
    /// The `source` as written (`./modules/network`).
    pub source: String,
    /// The child's directory: the calling module's directory joined with
    /// the source, `.` and `..` resolved lexically.
    pub dir: Utf8PathBuf,
    /// The arguments given (attributes other than the meta-arguments), with
    /// where each is declared.
    pub arguments: Vec<(SmolStr, Location)>,
    /// Where the block is.
    pub file: File,
    pub location: Location,
}

/// A variable of a module, as a caller sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleInput {
    pub name: SmolStr,
    /// No default: every call must set it.
    pub required: bool,
}

/// The module's calls of local modules (a `source` starting with `./` or
/// `../`), in declaration order. Registry and remote sources are left out:
/// their variables are not on disk here.
#[salsa::tracked(returns(ref))]
pub fn module_calls(db: &dyn Db, module: Module) -> Vec<ModuleCall> {
    // Only where the dialect says `module` blocks call modules (it makes
    // them opaque); elsewhere a `module` block is the application's
    // own (HashiCorp's enos passes variables through other blocks).
    if !module.dialect(db).rules(db).opaque_block_types.contains("module") {
        return Vec::new();
    }
    // Each `module "NAME"` block the module defines, in declaration order.
    let mut calls: Vec<(&SmolStr, &crate::module::Definition)> =
        crate::module::block_labels(db, module, "module")
            .iter()
            .filter_map(|labels| {
                let [name] = labels.as_slice() else { return None };
                let definition =
                    crate::module::definition(db, module, &Address::new(["module", name.as_str()]))?;
                (definition.kind == DeclarationKind::Block).then_some((name, definition))
            })
            .collect();
    calls.sort_by(|a, b| crate::module::declaration_order(db, a.1, b.1));
    let mut out = Vec::new();
    for (name, definition) in calls {
        let source_address = Address::new(["module", name.as_str(), "source"]);
        let Ok(source) = attribute_value(db, Attr::new(db, module, source_address)) else { continue };
        let Some(source) = source.as_str().filter(|it| it.starts_with("./") || it.starts_with("../")) else {
            continue;
        };
        let Some(block) = crate::module::block(db, module, "module", std::slice::from_ref(name)) else {
            continue;
        };
        let arguments = block
            .attributes
            .iter()
            .filter(|it| !MODULE_META_ARGUMENTS.contains(&it.as_str()))
            .filter_map(|argument| {
                let address = Address::new(["module", name.as_str(), argument.as_str()]);
                Some((argument.clone(), crate::module::definition(db, module, &address)?.location.clone()))
            })
            .collect();
        out.push(ModuleCall {
            name: name.clone(),
            source: source.to_string(),
            dir: join_lexically(module.dir(db), source),
            arguments,
            file: definition.file,
            location: definition.location.clone(),
        });
    }
    out
}

/// `base` joined with the relative path `source`, `.` and `..` resolved
/// without asking the file system (a `..` past the start stays).
fn join_lexically(base: &Utf8Path, source: &str) -> Utf8PathBuf {
    let mut parts: Vec<&str> = base.as_str().split('/').filter(|it| !it.is_empty() && *it != ".").collect();
    let absolute = base.as_str().starts_with('/');
    for part in source.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|it| *it != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    Utf8PathBuf::from(if absolute { format!("/{joined}") } else { joined })
}

/// The variables of `module`, in name order, each with whether a caller
/// must set it.
#[salsa::tracked(returns(ref))]
pub fn module_inputs(db: &dyn Db, module: Module) -> Vec<ModuleInput> {
    crate::module::names_under(db, module, "var")
        .iter()
        .filter_map(|name| {
            let definition = crate::module::definition(db, module, &Address::new(["var", name.as_str()]))?;
            let DeclarationKind::Variable { default_attr, .. } = definition.kind else { return None };
            Some(ModuleInput { name: name.clone(), required: default_attr.is_none() })
        })
        .collect()
}

/// What a caller sees of a module: the variables it may set and the
/// outputs it may read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleInterface {
    /// The variables, in name order.
    pub inputs: Box<[ModuleInput]>,
    /// The names of the `output` blocks, files in path order.
    pub outputs: Box<[SmolStr]>,
    /// Whether every file of the module parses: only then are its outputs
    /// all known (an `output` block after a syntax error is missing from
    /// the index, not from the module).
    pub complete: bool,
}

/// The variables and outputs of `child` as its callers see them, or
/// `None` when its directory holds no configuration files: not a module to
/// check a call against (its tool reports it as such, not argument by
/// argument).
pub fn child_interface(db: &dyn Db, child: Module) -> Option<Arc<ModuleInterface>> {
    if module_files(db, child).is_empty() {
        return None;
    }
    // Outputs are no root name, so the index does not list them: read
    // from each file's top-level blocks.
    let mut outputs = Vec::new();
    for &file in module_files(db, child) {
        let hir = crate::lower(db, file);
        for &block in &hir.body.blocks {
            let block = &hir.blocks[block];
            if let ("output", [name]) = (block.type_name.as_str(), block.labels.as_slice()) {
                outputs.push(name.clone());
            }
        }
    }
    Some(Arc::new(ModuleInterface {
        inputs: module_inputs(db, child).as_slice().into(),
        outputs: outputs.into(),
        complete: crate::module::module_parses(db, child),
    }))
}

/// The problems of `module`'s calls of local modules whose child's
/// variables `interface_of` finds (by directory, see [`child_interface`]): an
/// argument the child has no variable for, and a required variable the
/// call does not set. A call whose child is not found is skipped; one with
/// `count` or `for_each` is checked like any other, since its arguments do
/// not depend on the instance. The caller finds the children: a database
/// holding them all, or a batch that read each child once for all its
/// callers. With `only`, the calls in that file alone.
pub fn module_call_diagnostics(
    db: &dyn Db,
    module: Module,
    only: Option<File>,
    interface_of: impl Fn(&Utf8Path) -> Option<Arc<ModuleInterface>>,
) -> Vec<ModuleDiagnostic> {
    let mut out = Vec::new();
    for call in module_calls(db, module).iter().filter(|call| only.is_none_or(|file| call.file == file)) {
        let Some(interface) = interface_of(&call.dir) else { continue };
        let inputs = &interface.inputs;
        for (argument, location) in &call.arguments {
            if inputs.iter().any(|input| input.name == *argument) {
                continue;
            }
            let suggestion =
                crate::module::resolve::suggest(argument, inputs.iter().map(|it| it.name.as_str()));
            let detail = match &suggestion {
                Some(suggestion) => format!(
                    "An argument named {:?} is not expected here. Did you mean {suggestion:?}?",
                    argument.as_str()
                ),
                None => format!("An argument named {:?} is not expected here.", argument.as_str()),
            };
            out.push(ModuleDiagnostic {
                file: call.file,
                range: declaration_range(db, call.file, location),
                kind: ModuleDiagnosticKind::UnsupportedModuleArgument {
                    name: argument.clone(),
                    suggestion: suggestion.map(SmolStr::from),
                },
                detail,
                related: Vec::new(),
            });
        }
        // A variable named like a meta-argument (`count`, from an old
        // module) cannot be set by a call: not reported.
        let settable = |input: &&ModuleInput| !MODULE_META_ARGUMENTS.contains(&input.name.as_str());
        for input in inputs.iter().filter(|input| input.required).filter(settable) {
            if call.arguments.iter().any(|(argument, _)| *argument == input.name) {
                continue;
            }
            out.push(ModuleDiagnostic {
                file: call.file,
                range: declaration_range(db, call.file, &call.location),
                kind: ModuleDiagnosticKind::MissingModuleArgument { name: input.name.clone() },
                detail: format!(
                    "The argument {:?} is required, but no definition was found.",
                    input.name.as_str()
                ),
                related: Vec::new(),
            });
        }
    }
    out
}
