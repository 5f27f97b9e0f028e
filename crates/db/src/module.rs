//! The module model: a directory's files evaluated together, queried one
//! attribute at a time.
//!
//! # API (for the front ends: `halite eval`, `halite watch`, the library)
//!
//! Native files and their JSON twins (with a fixed schema, see `json.rs`)
//! declare the same things and evaluate the same way.
//!
//! Inputs, set through [`crate::RootDatabase`]:
//! - [`Module`]: one per directory, created by
//!   [`RootDatabase::set_module_files`](crate::RootDatabase::set_module_files)
//!   with the module's [`File`]s (re-setting the same list changes nothing),
//!   found again by [`RootDatabase::module`](crate::RootDatabase::module).
//!   Which files belong to a module is the caller's choice;
//!   `vfs::is_module_file` is the rule the host uses.
//! - The module's variables (`var.NAME` values, already [`Value`]s), set by
//!   [`RootDatabase::set_module_variables`](crate::RootDatabase::set_module_variables);
//!   compared by value, so setting the same values again re-runs nothing.
//! - The module's [`Dialect`]: rules chosen by its files' names (by the
//!   registered [`Dialects`], see `dialect.rs`) or set with
//!   `set_dialect_rules`, extra roots (`set_dialect_roots`) and functions
//!   (`set_dialect_functions`).
//!   Names the dialect knows are never reported; values it says are not
//!   known from configuration are unknown, and so is what depends on them.
//!
//! Addresses: [`Address`] (`local.a`, `var.x`, `aws_instance.web.ami`, or a
//! top-level attribute's bare name) and [`Attr`], an address interned with
//! its module: the key of every per-attribute query. Make one with
//! [`Attr::new`] or [`attr`].
//!
//! Queries:
//! - [`module_attributes`]: every evaluable attribute of the module, in
//!   order (files by path, then source order), as [`Attr`]s;
//! - [`attribute_value`]: one attribute's [`Value`], or an [`AttrError`];
//!   `var.NAME` addresses give the variable's value;
//! - [`module_diagnostics`]: duplicate declarations, unresolved references
//!   (with a did-you-mean), reference cycles (every step named), invalid
//!   variable types and values, and evaluation errors, each with a file and
//!   a range, as [`ModuleDiagnostic`]s (converted to `analysis::Diagnostic`
//!   at the edge);
//! - [`attribute_diagnostic`]: the same for one attribute's error;
//! - [`cycle_path`]: the steps of the reference cycle through an attribute
//!   (long cycles leave [`AttrError::Cycle`] without them);
//! - [`module_files`]: the files the dialect reads (all of them, or those
//!   its plug-in's `reads_file` keeps);
//! - [`module_calls`], [`module_inputs`], [`module_call_diagnostics`]: local
//!   child modules, their variables, and the check of a call's arguments;
//! - [`module_blocks`]: the module's blocks as written (types, labels,
//!   attributes with their addresses, nested blocks), for readers of a
//!   whole configuration; [`location_range`] places any of them;
//! - [`evaluate_in_order`]: evaluates attributes dependencies first. Values
//!   ask for the values they reference, so asking for the end of a long
//!   chain first recurses through all of it (and so does salsa's check of
//!   it after an edit); front ends evaluating a whole module go through this
//!   to keep the stack shallow.
//!
//! The layers below them, each a query that backdates so that an edit
//! re-runs as little as possible:
//! - [`file_declarations`]: what one file declares (names, kinds and where
//!   in the file's HIR), equal after any edit that only changes expressions;
//! - [`module_index`]: the module's declarations by address, duplicates
//!   recorded; re-runs only when a declaration is added, removed or moved.
//!   Read through [`definition`], [`block`], [`names_under`], [`file_index`]
//!   and the other readers of [`index`], which answer from it or from the
//!   index kept in parts, a salsa input per name, that a caller changing
//!   files one at a time patches (`RootDatabase::update_module_index`);
//! - [`attribute_resolution`]: the attribute's kind, its expression copied
//!   into its own position-free arena ([`AttrExpr`]), and what the
//!   expression's references resolve to, as [`Address`]es: equal unless that
//!   expression or its names' meaning changed ([`attribute_expr`] is the
//!   expression alone, for readers that want only it);
//! - [`attribute_value`]: evaluation with exactly the referenced values.
//!
//! So editing one attribute's expression re-evaluates it and what depends
//! on it, an edit to whitespace or comments re-evaluates nothing, and adding
//! or removing a declaration re-resolves every attribute (with the index in
//! parts, only those reading a name whose definition changed) but
//! re-evaluates only those whose resolution changed. `tests/incremental_module.rs`
//! asserts each with the exact list of executed queries.

mod blocks;
mod calls;
mod declarations;
mod diagnostics;
mod dialect;
mod expr;
pub mod index;
mod json;
mod resolve;
mod schema;
mod value;

use std::{cmp::Ordering, collections::BTreeMap, fmt, sync::Arc};

use camino::Utf8PathBuf;
use smol_str::SmolStr;

pub use eval::Value;

pub(crate) use self::declarations::set_module_indexes_kept;
pub(crate) use self::value::{set_file_exprs_kept, set_values_kept};
pub use crate::module::{
    blocks::{
        FileBlock, FileBlocks, ModuleAttribute, ModuleBlock, ModuleBlocks, RangeOf, file_blocks,
        location_range, module_blocks,
    },
    calls::{
        ArgumentsAt, FileRead, MODULE_META_ARGUMENTS, MemberAccess, ModuleCall, ModuleInput, ModuleInterface,
        call_output_diagnostics, child_interface, join_lexically, member_access_range, member_accesses,
        module_block_calls, module_call_diagnostics, module_calls, module_inputs, module_reads, read_file,
    },
    declarations::{
        BlockEntry, Declaration, DeclarationKind, Definition, Duplicate, FileDeclarations, Labels, Location,
        ModuleIndex, declarations_of, file_declarations, module_files, module_index, module_parses,
    },
    diagnostics::{
        DuplicateOf, ModuleDiagnostic, ModuleDiagnosticKind, attribute_diagnostic, cycle_diagnostic_along,
        duplicate_diagnostics, file_duplicate_diagnostics, long_cycle, module_diagnostics,
        type_constraint_diagnostics,
    },
    dialect::{
        AddressedRoot, Dialect, DialectPlugin, DialectRules, Dialects, FunctionTable, Grouping, PluginRef,
        SharedDialect, dialect_file_diagnostics, dialect_root, dialect_root_names, unknown_function,
    },
    expr::{AttrExpr, Reference, extract, extract_expr, references},
    index::{
        BlockTypes, FileIndex, IndexPart, IndexView, NameEntry, PartKey, PartRef, PartValue, block,
        block_labels, block_types, declaration_order, definition, duplicates_of, file_index,
        module_duplicates, module_order, names_under,
    },
    resolve::{
        AttrKind, Instances, Repetition, Resolution, ResourceMode, Target, Unresolved, attribute_resolution,
        attribute_targets, resolve_static_reference,
    },
    schema::{BlockSchema, SchemaViolation, schema_diagnostics},
    value::{
        AttrError, CYCLE_PATH_LIMIT, FileExprs, InvalidTypeConstraint, VariableType, VariableTypes,
        attribute_expr, attribute_value, cycle_path, declares_variable_types, evaluate_in_order,
        evaluation_order, file_exprs, may_fail_to_evaluate, module_attributes, variable_types,
    },
};
use crate::{Db, File};

/// The files of one directory, evaluated together, and the values of its
/// variables.
#[salsa::input(debug)]
pub struct Module {
    /// The directory, as the caller named it.
    #[returns(ref)]
    pub dir: Utf8PathBuf,
    /// The module's files, sorted by path (the order of evaluation output and
    /// of "first declared" for duplicates).
    #[returns(ref)]
    pub files: Vec<File>,
    /// The values given for `var.NAME`, by name.
    #[returns(ref)]
    pub variables: Arc<BTreeMap<String, Value>>,
    /// What the module's language adds to its scope (see [`Dialect`]):
    /// chosen by its files' names unless the caller set one.
    #[returns(copy)]
    pub dialect: Dialect,
    /// The reference cycles a caller found on its dependency graph (see
    /// [`KnownCycles`]); empty unless one set them.
    #[returns(ref)]
    pub cycles: Arc<KnownCycles>,
    /// Whether the module is the root of a run, whose variables are all its
    /// caller gives (see [`ModuleRole`]).
    #[default]
    #[returns(copy)]
    pub role: ModuleRole,
}

/// How a module is used, which decides what an unset variable is in a
/// dialect whose variables are a module's inputs
/// ([`DialectRules::unset_variables_unknown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ModuleRole {
    /// Any caller may call it with any inputs: a variable not given is
    /// unknown of its type, whatever its default (what a check assumes).
    #[default]
    Called,
    /// The root of a run (a tool's console, or plan): the variables given
    /// are all there are, so one not given is its default, and one without
    /// a default is unknown of its type (as a console evaluates an unset
    /// variable).
    Root,
}

/// The attributes on reference cycles, each with its cycle, as a caller
/// that keeps the module's dependency graph found them (the host,
/// by one walk, `db::graph`): [`attribute_value`] of an attribute on a
/// cycle stops at its first reference to a member of the same cycle with
/// [`AttrError::Cycle`], instead of asking for its value and going round.
/// Salsa's own cycle handling still catches a cycle no one set, but costs
/// time and memory quadratic in its length (each step of a cycle keeps the
/// dependencies of the steps after it).
pub type KnownCycles = rustc_hash::FxHashMap<Address, KnownCycle>;

/// One attribute's cycle in [`KnownCycles`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KnownCycle {
    /// The cycle's number: the same for every member of one cycle.
    pub number: u32,
    /// How many attributes the cycle has (a strongly connected component of
    /// the graph: every member depends on every other).
    pub members: u32,
}

/// Where a variable's value given as text is evaluated (`--var NAME=EXPR`,
/// a variables file, the library's `set_variable_expr`): the standard
/// library, but no variables, since a value cannot refer to anything.
pub fn variable_value_context() -> eval::Context {
    eval::Context { variables_allowed: false, ..eval::Context::with_stdlib() }
}

/// Why a variable's value given as text has no value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariableExprError {
    /// The text is not one expression: its first syntax error.
    Syntax(syntax::SyntaxError),
    Eval(eval::EvalError),
}

/// A variable's value given as text: `text` read as one HCL expression and
/// evaluated in [`variable_value_context`].
pub fn evaluate_variable_expr(text: &str) -> Result<Value, VariableExprError> {
    let parse = syntax::parse_expression(text);
    if let Some(error) = parse.errors().first() {
        return Err(VariableExprError::Syntax(error.clone()));
    }
    let (hir, root, _) = hir::lower_expression_file(&parse.tree());
    eval::eval_expr(&hir.exprs, root, &variable_value_context()).map_err(VariableExprError::Eval)
}

/// Where an attribute lives in a module's scope, as segments: `local.a` is
/// `["local", "a"]`, `aws_instance.web.ami` is `["aws_instance", "web",
/// "ami"]`. Shown joined by dots (a label with a dot in it shows
/// ambiguously; the segments never are). The segments are shared: an
/// address is kept by a file's declarations, the module's index, the
/// interned [`Attr`] and the dependency graph, and a clone is a pointer.
/// Its hash is computed once, when it is made: an address is looked up in
/// the index, the graph and the interned attributes far more often than one
/// is made, and hashing its segments' text at each look-up was about a
/// hundredth of a check's instructions. The hash lives beside the segments,
/// behind one thin pointer: an address is a word wherever it is kept.
#[derive(Clone)]
pub struct Address {
    /// The segments, with their hash as the allocation's header.
    inner: triomphe::ThinArc<u64, SmolStr>,
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Address").field("segments", &self.segments()).finish()
    }
}

impl PartialEq for Address {
    fn eq(&self, other: &Address) -> bool {
        self.inner.ptr() == other.inner.ptr()
            || (self.table_hash() == other.table_hash() && self.segments() == other.segments())
    }
}

impl Eq for Address {}

impl std::hash::Hash for Address {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.table_hash());
    }
}

impl PartialOrd for Address {
    fn partial_cmp(&self, other: &Address) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// By segments, as the segments order themselves (not by hash).
impl Ord for Address {
    fn cmp(&self, other: &Address) -> Ordering {
        self.segments().cmp(other.segments())
    }
}

impl Address {
    pub fn new(segments: impl IntoIterator<Item = impl Into<SmolStr>>) -> Address {
        use std::hash::BuildHasher;
        let segments: Vec<SmolStr> = segments.into_iter().map(Into::into).collect();
        let hash = rustc_hash::FxBuildHasher.hash_one(&segments[..]);
        Address { inner: triomphe::ThinArc::from_header_and_iter(hash, segments.into_iter()) }
    }

    /// `text` split at each `.`: `aws_instance.web.ami`.
    pub fn parse(text: &str) -> Address {
        Address::new(text.split('.'))
    }

    pub fn segments(&self) -> &[SmolStr] {
        &self.inner.slice
    }

    /// The address of the first `n` segments (all of them if there are
    /// fewer).
    pub fn prefix(&self, n: usize) -> Address {
        Address::new(self.segments().iter().take(n).cloned())
    }

    /// Whether this address starts with all of `prefix`'s segments.
    pub fn starts_with(&self, prefix: &Address) -> bool {
        self.segments().starts_with(prefix.segments())
    }

    /// The address's hash in the tables that hold positions in a list of
    /// addresses rather than addresses (the index's definitions, the
    /// graph's nodes).
    pub(crate) fn table_hash(&self) -> u64 {
        self.inner.header.header
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.segments().iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(segment)?;
        }
        Ok(())
    }
}

/// An attribute of a module by its address: the key of the per-attribute
/// queries. Interned, so the same address in the same module is the same
/// `Attr` in every revision, however the files around it change (unlike an
/// arena index, which shifts when an attribute is added above it). Kept for
/// the database's lifetime (never collected), though a handle borrows the
/// database as salsa's interned values do.
#[salsa::interned(debug, revisions = usize::MAX)]
pub struct Attr<'db> {
    #[returns(copy)]
    pub module: Module,
    #[returns(ref)]
    pub address: Address,
}

/// The [`Attr`] of `address` (text such as `local.a`) in `module`.
pub fn attr<'db>(db: &'db dyn Db, module: Module, address: &str) -> Attr<'db> {
    Attr::new(db, module, Address::parse(address))
}
