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

/// A call of a module on disk: a `module` block with a local `source`,
/// or what a dialect's [`DialectPlugin::unit_calls`] finds (a unit
/// naming the module it deploys, with an object of inputs).
///
/// [`DialectPlugin::unit_calls`]: crate::module::DialectPlugin::unit_calls
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCall {
    /// The block's label: `module.NAME` (the calling block's type where it
    /// has no label).
    pub name: SmolStr,
    /// The `source` as written (`./modules/network`).
    pub source: String,
    /// The child's directory: the calling module's directory joined with
    /// the source, `.` and `..` resolved lexically.
    pub dir: Utf8PathBuf,
    /// The arguments given (attributes other than the meta-arguments), with
    /// where each is declared (for members of an object, the attribute
    /// holding the object: see [`ModuleCall::arguments_at`]).
    pub arguments: Vec<(SmolStr, Location)>,
    /// Where the arguments' values are.
    pub arguments_at: ArgumentsAt,
    /// The arguments another file passes (a file the unit imports, whose
    /// arguments merge into the unit's): they count as given, so a
    /// required variable they set is not missing, but they are that
    /// file's to check, not the call's.
    pub imported_arguments: Vec<SmolStr>,
    /// Whether `arguments` are every argument the call passes: not where
    /// another file may add some (a file the unit includes), so that a
    /// required variable missing from them is not missing from the call.
    pub complete: bool,
    /// Where the caller reads the callee's outputs as an object, when it
    /// does so under one address (`dependency.NAME.outputs`): a read of
    /// an output the callee does not declare there is an error
    /// ([`call_output_diagnostics`]). `None` where the dialect checks
    /// them itself, or they are not read.
    pub outputs_at: Option<Address>,
    /// Outputs the caller gives itself beside the callee's, read there as
    /// the callee's (a dependency's mock outputs, which its tool reads
    /// where the callee has none yet).
    pub caller_outputs: Vec<SmolStr>,
    /// Where those outputs' values are (an object attribute: a
    /// dependency's `mock_outputs`), when the tool passes them on in
    /// place of the callee's (before it has any): another call's argument
    /// that is exactly one of these outputs is checked against its
    /// variable's type with that value too. `None` where the tool may not
    /// pass them to a command that reads variables.
    pub stand_in_outputs: Option<Address>,
    /// Where the block is.
    pub file: File,
    pub location: Location,
}

/// Where a call's arguments' values are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArgumentsAt {
    /// Each is an attribute of this block (`module.NAME`): `module.NAME.ARG`.
    BlockAttributes(Address),
    /// Each is a member of the object this attribute evaluates to
    /// (`inputs = { … }`).
    ObjectMembers(Address),
}

/// A variable of a module, as a caller sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleInput {
    pub name: SmolStr,
    /// No default: every call must set it.
    pub required: bool,
    /// Its type constraint's type, where it has a valid one.
    pub ty: Option<value::Type>,
}

/// A file a unit reads beyond its own (see
/// [`DialectPlugin::reads`](crate::module::DialectPlugin::reads)): the
/// first of `candidates` that exists (one path, or a search up the
/// directories above the unit).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileRead {
    pub candidates: Arc<[Utf8PathBuf]>,
}

/// The files `module` reads beyond its own, as its dialect finds them
/// (none in generic HCL). A host loads them into the database. Not a
/// query of its own: the plug-in's queries it calls are, and a memo here
/// was kept after a file its plug-in read was loaded (salsa 0.28 did not
/// re-run it; `an_include_loaded_later_adds_its_dependencies_to_the_reads`).
pub fn module_reads(db: &dyn Db, module: Module) -> Vec<FileRead> {
    match &module.dialect(db).rules(db).plugin {
        Some(crate::module::PluginRef(plugin)) => plugin.reads(db, module),
        None => Vec::new(),
    }
}

/// The file `read` names: its first candidate the database holds as
/// existing, or `None` (not loaded, or none exists). The caller depends on
/// each candidate's status, and on a candidate not loaded being added
/// ([`crate::file_by_path`]), so a file created or loaded later re-runs it.
pub fn read_file(db: &dyn Db, read: &FileRead) -> Option<File> {
    read.candidates.iter().find_map(|path| {
        let file = crate::file_by_path(db, path)?;
        (file.status(db) == crate::FileStatus::Exists).then_some(file)
    })
}

/// Whether every candidate of `read` was looked for and none exists, the
/// other answer of [`read_file`]: the host loads a missing candidate as a
/// deleted file, and one not loaded yet (the host has not looked) is not
/// known to be missing.
pub fn read_is_missing(db: &dyn Db, read: &FileRead) -> bool {
    read.candidates.iter().all(|path| {
        crate::file_by_path(db, path).is_some_and(|file| file.status(db) == crate::FileStatus::Deleted)
    })
}

/// The module's calls of modules on disk, as its dialect finds them
/// ([`DialectPlugin::unit_calls`]; [`module_block_calls`] in generic HCL).
///
/// [`DialectPlugin::unit_calls`]: crate::module::DialectPlugin::unit_calls
#[salsa::tracked(returns(ref))]
pub fn module_calls(db: &dyn Db, module: Module) -> Vec<ModuleCall> {
    match &module.dialect(db).rules(db).plugin {
        Some(crate::module::PluginRef(plugin)) => plugin.unit_calls(db, module),
        None => module_block_calls(db, module),
    }
}

/// The module's `module` blocks with a local `source` (starting with `./`
/// or `../`), in declaration order, where its dialect makes `module`
/// blocks opaque (calls of other modules). Registry and remote sources
/// are left out: their variables are not on disk here.
pub fn module_block_calls(db: &dyn Db, module: Module) -> Vec<ModuleCall> {
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
                let [name] = &labels[..] else { return None };
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
                Some((
                    argument.clone(),
                    crate::module::definition(db, module, &address)?.location(db).clone(),
                ))
            })
            .collect();
        out.push(ModuleCall {
            name: name.clone(),
            source: source.to_string(),
            dir: join_lexically(module.dir(db), source),
            arguments,
            arguments_at: ArgumentsAt::BlockAttributes(Address::new(["module", name.as_str()])),
            imported_arguments: Vec::new(),
            outputs_at: None,
            caller_outputs: Vec::new(),
            stand_in_outputs: None,
            complete: true,
            file: definition.file,
            location: definition.location(db).clone(),
        });
    }
    out
}

/// `base` joined with the relative path `source`, `.` and `..` resolved
/// without asking the file system (a `..` past the start stays; nothing
/// left is `.`).
pub fn join_lexically(base: &Utf8Path, source: &str) -> Utf8PathBuf {
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
    // The current directory is `.`, as `vfs::module_dir` names it.
    if joined.is_empty() && !absolute {
        return Utf8PathBuf::from(".");
    }
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
            let DeclarationKind::Variable { default_attr, type_attr } = definition.kind else { return None };
            let ty =
                type_attr.and_then(|_| match crate::module::variable_types(db, definition.file).get(name) {
                    Some(Ok(constraint)) => Some(constraint.ty.clone()),
                    _ => None,
                });
            Some(ModuleInput { name: name.clone(), required: default_attr.is_none(), ty })
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
    // from each file's declarations (its top-level blocks among them),
    // which the database keeps, rather than from its HIR, which a batch
    // has evicted: lowering every file again here kept every tree of the
    // module in memory until the next chunk.
    let mut outputs = Vec::new();
    for &file in module_files(db, child) {
        for declaration in &crate::module::declarations_of(db, file).declarations {
            if declaration.kind == DeclarationKind::Block
                && let [block_type, name] = &declaration.address.segments()[..]
                && *block_type == "output"
            {
                outputs.push(SmolStr::new(name));
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
        // A unit that deploys its own directory, where the caller keyed
        // the unit by that directory: no module of its own to call.
        if call.dir == *module.dir(db) {
            continue;
        }
        let Some(interface) = interface_of(&call.dir) else { continue };
        let inputs = &interface.inputs;
        let object = match &call.arguments_at {
            ArgumentsAt::ObjectMembers(address) => {
                attribute_value(db, Attr::new(db, module, address.clone())).as_ref().ok()
            }
            ArgumentsAt::BlockAttributes(_) => None,
        };
        for (argument, location) in &call.arguments {
            let range = || argument_range(db, call, argument, location);
            if let Some(input) = inputs.iter().find(|input| input.name == *argument) {
                if let Some(problem) = argument_type_problem(db, module, call, object, argument, input) {
                    out.push(ModuleDiagnostic {
                        file: call.file,
                        range: range(),
                        kind: ModuleDiagnosticKind::InvalidVariableValue { from_default: false },
                        detail: format!(
                            "The given value is not suitable for var.{} of the module at {}: {problem}.",
                            argument.as_str(),
                            call.dir
                        ),
                        related: Vec::new(),
                    });
                }
                continue;
            }
            // A block's argument is suggested among every input, as the
            // module tool's own message does (renaming it to one already set
            // would be a syntax error, which its fix is checked for). An
            // object's key is not suggested one it already has: renamed,
            // it would silently replace that key's value.
            let given = |name: &str| {
                matches!(call.arguments_at, ArgumentsAt::ObjectMembers(_))
                    && call.arguments.iter().any(|(given, _)| given == name)
            };
            let suggestion = crate::module::resolve::suggest(
                argument,
                inputs.iter().map(|it| it.name.as_str()).filter(|name| !given(name)),
            );
            let did_you_mean = match &suggestion {
                Some(suggestion) => format!(" Did you mean {suggestion:?}?"),
                None => String::new(),
            };
            let detail = match call.arguments_at {
                ArgumentsAt::BlockAttributes(_) => {
                    format!("An argument named {:?} is not expected here.{did_you_mean}", argument.as_str())
                }
                // The wording of a validation of inputs.
                ArgumentsAt::ObjectMembers(_) => format!(
                    "The input {:?} is unused: the module at {} declares no variable of that name.{did_you_mean}",
                    argument.as_str(),
                    call.dir
                ),
            };
            out.push(ModuleDiagnostic {
                file: call.file,
                range: range(),
                kind: match call.arguments_at {
                    ArgumentsAt::BlockAttributes(_) => ModuleDiagnosticKind::UnsupportedModuleArgument {
                        name: argument.clone(),
                        suggestion: suggestion.map(SmolStr::from),
                    },
                    ArgumentsAt::ObjectMembers(_) => ModuleDiagnosticKind::UnusedInput {
                        name: argument.clone(),
                        suggestion: suggestion.map(SmolStr::from),
                    },
                },
                detail,
                related: Vec::new(),
            });
        }
        if !call.complete {
            continue;
        }
        // A variable named like a meta-argument (`count`, from an old
        // module) cannot be set by a call: not reported.
        let settable = |input: &&ModuleInput| {
            !matches!(call.arguments_at, ArgumentsAt::BlockAttributes(_))
                || !MODULE_META_ARGUMENTS.contains(&input.name.as_str())
        };
        for input in inputs.iter().filter(|input| input.required).filter(settable) {
            if call.arguments.iter().any(|(argument, _)| *argument == input.name)
                || call.imported_arguments.contains(&input.name)
            {
                continue;
            }
            let detail = match call.arguments_at {
                ArgumentsAt::BlockAttributes(_) => {
                    format!(
                        "The argument {:?} is required, but no definition was found.",
                        input.name.as_str()
                    )
                }
                ArgumentsAt::ObjectMembers(_) => format!(
                    "The required input {:?} is missing: the module at {} declares it without a default, and `inputs` does not set it (unless the environment, a variables file or the command line does).",
                    input.name.as_str(),
                    call.dir
                ),
            };
            out.push(ModuleDiagnostic {
                file: call.file,
                range: declaration_range(db, call.file, &call.location),
                kind: match call.arguments_at {
                    ArgumentsAt::BlockAttributes(_) => {
                        ModuleDiagnosticKind::MissingModuleArgument { name: input.name.clone() }
                    }
                    ArgumentsAt::ObjectMembers(_) => {
                        ModuleDiagnosticKind::MissingInput { name: input.name.clone() }
                    }
                },
                detail,
                related: Vec::new(),
            });
        }
    }
    out
}

/// An access of a member by name (`base.name`) whose base is a chain of
/// such accesses from a root variable (`dependency.vpc.outputs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberAccess {
    /// The access, an [`hir::Expr::GetAttr`].
    pub expr: hir::ExprId,
    /// The root and the names before `name`.
    pub base: Vec<SmolStr>,
    pub name: SmolStr,
}

/// The member accesses of a file's expressions, but those inside `try` or
/// `can`, whose fallback a missing member is, not an error.
pub fn member_accesses(hir: &hir::FileHir) -> Vec<MemberAccess> {
    let caught = caught_by_try(hir);
    hir.exprs
        .iter()
        .filter(|(id, _)| !caught.get(id.into_raw().into_u32() as usize).copied().unwrap_or(false))
        .filter_map(|(id, expr)| {
            let hir::Expr::GetAttr { base, name } = expr else { return None };
            Some(MemberAccess { expr: id, base: access_chain(hir, *base)?, name: SmolStr::from(*name) })
        })
        .collect()
}

/// Which expressions of a file (by index) are inside an argument of `try`
/// or `can`, whose evaluation errors the call catches: an attribute or an
/// output a value does not have is such an error, found when it is
/// evaluated (a dialect's tool may check statically only that a module
/// call exists, and leave its outputs to evaluation).
pub fn caught_by_try(hir: &hir::FileHir) -> Vec<bool> {
    let mut caught = vec![false; hir.exprs.len()];
    for (_, expr) in hir.exprs.iter() {
        let hir::Expr::Call(call) = expr else { continue };
        if !matches!(call.name.as_str(), "try" | "can") {
            continue;
        }
        let mut stack: Vec<hir::ExprId> = call.args.to_vec();
        while let Some(id) = stack.pop() {
            let index = id.into_raw().into_u32() as usize;
            if caught.get(index).copied().unwrap_or(true) {
                continue;
            }
            caught[index] = true;
            hir.exprs[id].children(&mut stack);
        }
    }
    caught
}

/// The range of a member access of a native file: from its dot to the
/// end of its name (`.vpc_idd`).
pub fn member_access_range(db: &dyn Db, file: File, access: hir::ExprId) -> Option<syntax::TextRange> {
    let pointer = crate::source_map(db, file).expr_syntax(access)?;
    let node = pointer.to_node(&crate::parse(db, file).syntax_node());
    use syntax::ast::AstNode;
    Some(
        syntax::ast::GetAttrExpr::cast(node.clone())
            .and_then(|get| {
                let name = get.name()?;
                let start = get.dot_token().map_or(name.text_range().start(), |dot| dot.text_range().start());
                Some(syntax::TextRange::new(start, name.text_range().end()))
            })
            .unwrap_or_else(|| node.text_range()),
    )
}

/// Reads in `file` of an output a callee does not declare, for each of
/// `module`'s calls that reads its callee's outputs under one address
/// ([`ModuleCall::outputs_at`]: `dependency.vpc.outputs.vpc_idd`), where
/// `interface_of` finds the callee and all its files parse: "Unsupported
/// attribute", with a did-you-mean among its outputs.
pub fn call_output_diagnostics(
    db: &dyn Db,
    module: Module,
    file: File,
    interface_of: impl Fn(&Utf8Path) -> Option<Arc<ModuleInterface>>,
) -> Vec<ModuleDiagnostic> {
    let calls: Vec<&ModuleCall> =
        module_calls(db, module).iter().filter(|call| call.outputs_at.is_some()).collect();
    if calls.is_empty() || file.syntax(db) != crate::SourceSyntax::Native {
        return Vec::new();
    }
    let hir = crate::lower(db, file);
    let mut out = Vec::new();
    for access in member_accesses(hir) {
        let (id, output) = (access.expr, &access.name);
        let Some(call) = calls.iter().find(|call| {
            let Some(at) = &call.outputs_at else { return false };
            access.base.iter().map(SmolStr::as_str).eq(at.iter())
        }) else {
            continue;
        };
        let Some(interface) = interface_of(&call.dir) else { continue };
        if !interface.complete || interface.outputs.contains(output) || call.caller_outputs.contains(output) {
            continue;
        }
        let Some(range) = member_access_range(db, file, id) else { continue };
        let suggestion =
            crate::module::resolve::suggest(output, interface.outputs.iter().map(SmolStr::as_str));
        let did_you_mean = match &suggestion {
            Some(meant) => format!(" Did you mean {meant:?}?"),
            None => String::new(),
        };
        out.push(ModuleDiagnostic {
            file,
            range,
            kind: ModuleDiagnosticKind::Unresolved(crate::module::Unresolved::UnsupportedMember {
                name: output.clone(),
                suggestion: suggestion.map(SmolStr::from),
            }),
            detail: format!(
                "This object does not have an attribute named {:?}: the module at {} declares no such output.{did_you_mean}",
                output.as_str(),
                call.dir
            ),
            related: Vec::new(),
        });
    }
    out.sort_by_key(|diagnostic| (diagnostic.range.start(), diagnostic.range.end()));
    out
}

/// Why the value `call` passes as `argument` does not convert to the type
/// of the child's variable `input`, if it does not (a value not known,
/// wholly or in the parts the type looks at, converts).
fn argument_type_problem(
    db: &dyn Db,
    module: Module,
    call: &ModuleCall,
    object: Option<&value::Value>,
    argument: &SmolStr,
    input: &ModuleInput,
) -> Option<String> {
    let ty = input.ty.as_ref()?;
    // An object's members reach the module as environment variables of
    // JSON text (`TF_VAR_NAME`, as a unit's tool passes its inputs), which
    // a variable of type `string` reads literally, whatever the value: a
    // list given for it is its JSON, not an error.
    if matches!(call.arguments_at, ArgumentsAt::ObjectMembers(_)) && *ty == value::Type::String {
        return None;
    }
    let value = match &call.arguments_at {
        ArgumentsAt::BlockAttributes(block) => {
            let mut segments: Vec<SmolStr> = block.iter().map(SmolStr::new).collect();
            segments.push(argument.clone());
            attribute_value(db, Attr::new(db, module, Address::new(segments))).as_ref().ok()?
        }
        ArgumentsAt::ObjectMembers(_) => object?.entries()?.get(argument.as_str())?,
    };
    if let Err(error) = value::convert(value, ty) {
        return Some(error.to_string());
    }
    if value.is_wholly_known() {
        return None;
    }
    // Not known: one of another call's outputs, which the tool may pass
    // a stand-in for.
    let (other, output, stand_in) = stand_in_argument(db, module, call, argument)?;
    let error = value::convert(&stand_in, ty).err()?;
    Some(format!(
        "{error} (the value {} gives for output {:?} of {}, passed in its place until {} has outputs)",
        other.stand_in_outputs.as_ref().map(Address::to_string).unwrap_or_default(),
        output.as_str(),
        other.name,
        other.name
    ))
}

/// Where an argument of `call` passed as members of an object (`inputs =
/// { x = dependency.vpc.outputs.id }`) is written as exactly one output of
/// another call that has stand-ins for its outputs, that call, the
/// output, and its stand-in's value where it is wholly known.
fn stand_in_argument<'db>(
    db: &'db dyn Db,
    module: Module,
    call: &ModuleCall,
    argument: &SmolStr,
) -> Option<(&'db ModuleCall, SmolStr, value::Value)> {
    let ArgumentsAt::ObjectMembers(at) = &call.arguments_at else { return None };
    let segments = at.segments();
    let &[name] = &segments[..] else { return None };
    if call.file.syntax(db) != crate::SourceSyntax::Native {
        return None;
    }
    let hir = crate::lower(db, call.file);
    let attribute = hir.body.attributes.iter().map(|&it| &hir.attributes[it]).find(|it| it.name == *name)?;
    let hir::Expr::Object(items) = &hir.exprs[attribute.value] else { return None };
    let item = items.iter().find(|item| match &item.key {
        hir::ObjectKey::Name(key) => key == argument,
        hir::ObjectKey::Expr { .. } => false,
    })?;
    let mut steps = access_chain(hir, item.value)?;
    let output = steps.pop()?;
    let other = module_calls(db, module).iter().find(|other| {
        other.stand_in_outputs.is_some()
            && other.outputs_at.as_ref().is_some_and(|at| at.iter().eq(steps.iter().map(SmolStr::as_str)))
    })?;
    let stand_ins = other.stand_in_outputs.as_ref()?;
    let object = attribute_value(db, Attr::new(db, module, stand_ins.clone())).as_ref().ok()?;
    let value = object.entries()?.get(output.as_str())?;
    value.is_wholly_known().then(|| (other, output, value.clone()))
}

/// The names of a chain of attribute accesses from a root variable
/// (`dependency.vpc.outputs.id`), root first.
fn access_chain(hir: &hir::FileHir, mut id: hir::ExprId) -> Option<Vec<SmolStr>> {
    let mut steps = Vec::new();
    loop {
        match &hir.exprs[id] {
            hir::Expr::GetAttr { base, name } => {
                steps.push(SmolStr::from(*name));
                id = *base;
            }
            hir::Expr::Variable(root) => {
                steps.push(SmolStr::from(*root));
                steps.reverse();
                return Some(steps);
            }
            _ => return None,
        }
    }
}

/// Where `argument` of `call` is written: the attribute's name, or for a
/// member of an object, its key (the attribute's name where the key is not
/// found, or the object is not written out).
fn argument_range(db: &dyn Db, call: &ModuleCall, argument: &str, location: &Location) -> syntax::TextRange {
    let attribute = declaration_range(db, call.file, location);
    if !matches!(call.arguments_at, ArgumentsAt::ObjectMembers(_))
        || call.file.syntax(db) != crate::SourceSyntax::Native
    {
        return attribute;
    }
    use syntax::ast::AstNode;
    let root = crate::parse(db, call.file).syntax_node();
    let Some(token) = root.token_at_offset(attribute.start()).right_biased() else { return attribute };
    let Some(node) = token.parent_ancestors().find_map(syntax::ast::Attribute::cast) else {
        return attribute;
    };
    let Some(syntax::ast::Expr::ObjectExpr(object)) = node.expr() else { return attribute };
    for item in object.object_items() {
        let Some(key) = item.object_item_key() else { continue };
        let text = key.syntax().text().to_string();
        let text = text.trim();
        let name = text.strip_prefix('"').and_then(|it| it.strip_suffix('"')).unwrap_or(text);
        if name == argument {
            return key.syntax().text_range();
        }
    }
    attribute
}
