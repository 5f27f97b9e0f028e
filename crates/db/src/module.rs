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
//!   expression or its names' meaning changed; [`attribute_expr`] is the
//!   expression alone. Each is the firewall a value reads its declaration
//!   through, one or the other by how the index is kept ([`Firewall`]);
//! - [`attribute_value`]: evaluation with exactly the referenced values.
//!
//! So editing one attribute's expression re-evaluates it and what depends
//! on it, an edit to whitespace or comments re-evaluates nothing, and adding
//! or removing a declaration re-resolves every attribute but re-evaluates
//! only those whose resolution changed (with the index in parts, only the
//! values reading a name whose definition changed run again). `tests/incremental_module.rs`
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
        call_output_diagnostics, caught_by_try, child_interface, join_lexically, member_access_range,
        member_accesses, module_block_calls, module_call_diagnostics, module_calls, module_inputs,
        module_reads, read_file, read_is_missing,
    },
    declarations::{
        BlockEntry, BodyPosition, Declaration, DeclarationKind, Definition, Duplicate, FileDeclarations,
        Labels, Location, ModuleIndex, declarations_of, file_declarations, module_files, module_index,
        module_parses,
    },
    diagnostics::{
        DuplicateOf, ModuleDiagnostic, ModuleDiagnosticKind, ReadFor, attribute_diagnostic,
        cycle_diagnostic_along, declaration_range, duplicate_diagnostics, file_duplicate_diagnostics,
        later_unresolved_diagnostics, long_cycle, module_diagnostics, type_constraint_diagnostics,
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
        Addresses, AttrKind, Firewall, Instances, Repetition, Resolution, ResourceMode, Target, Unresolved,
        attribute_resolution, attribute_targets, resolve_static_reference,
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
///
/// The segments are kept as their text, each after its length (LEB128),
/// in the one allocation: a module keeps an address for every declaration,
/// and as a slice of strings (24 bytes each, inline or not) an address of
/// two segments took 80 bytes, of three 96; as text, most take 48. They are
/// read as a short list of string slices ([`Address::segments`]).
#[derive(Clone)]
pub struct Address {
    /// The encoded segments, with their hash as the allocation's header.
    inner: triomphe::ThinArc<u64, u8>,
}

/// An address's segments, as [`Address::segments`] reads them: on the
/// stack for all but the deepest addresses.
pub type Segments<'a> = smallvec::SmallVec<[&'a str; 6]>;

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Address").field("segments", &&self.segments()[..]).finish()
    }
}

impl PartialEq for Address {
    fn eq(&self, other: &Address) -> bool {
        // The encoding is one-to-one: equal bytes are equal segments.
        self.inner.ptr() == other.inner.ptr()
            || (self.table_hash() == other.table_hash() && self.inner.slice == other.inner.slice)
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
///
/// Read from the encodings' first difference: the segments before it are
/// equal, and inside a segment's text (of the same length in both) its
/// byte decides; only at a length, which differs, are the two segments
/// compared as text.
impl Ord for Address {
    fn cmp(&self, other: &Address) -> Ordering {
        let (own, theirs) = (&self.inner.slice[..], &other.inner.slice[..]);
        let Some(first_difference) = own.iter().zip(theirs).position(|(a, b)| a != b) else {
            // One encoding is the other's start, so one address is the
            // other's prefix, which comes first.
            return own.len().cmp(&theirs.len());
        };
        let mut at = 0;
        loop {
            let (length, length_bytes) = read_length(&own[at..]);
            if first_difference < at + length_bytes {
                // The segments that start at `at` differ in length.
                let own_segment = SegmentIter { rest: &own[at..] }.next().unwrap_or_default();
                let their_segment = SegmentIter { rest: &theirs[at..] }.next().unwrap_or_default();
                return own_segment.cmp(their_segment);
            }
            if first_difference < at + length_bytes + length {
                return own[first_difference].cmp(&theirs[first_difference]);
            }
            at += length_bytes + length;
        }
    }
}

/// How many bytes a segment's length takes (LEB128).
fn length_size(mut length: usize) -> usize {
    let mut size = 1;
    while length >= 0x80 {
        length >>= 7;
        size += 1;
    }
    size
}

/// The length at the start of `bytes` (LEB128) and how many bytes it takes.
fn read_length(bytes: &[u8]) -> (usize, usize) {
    let mut length = 0usize;
    let mut shift = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        length |= usize::from(byte & 0x7f) << shift;
        if byte & 0x80 == 0 {
            return (length, at + 1);
        }
        shift += 7;
    }
    (length, bytes.len())
}

impl Address {
    pub fn new(segments: impl IntoIterator<Item = impl AsRef<str>>) -> Address {
        use std::hash::{BuildHasher, Hash, Hasher};
        let segments: smallvec::SmallVec<[_; 6]> = segments.into_iter().collect();
        // Hashed as a slice of the segments is (its length, then each
        // one): as the addresses of strings were, so that whatever is
        // ordered by hash stays as it was.
        let mut hasher = rustc_hash::FxBuildHasher.build_hasher();
        hasher.write_usize(segments.len());
        let mut size = 0;
        for segment in &segments {
            let segment = segment.as_ref();
            segment.hash(&mut hasher);
            size += segment.len() + length_size(segment.len());
        }
        let hash = hasher.finish();
        let mut bytes = Vec::with_capacity(size);
        for segment in &segments {
            let segment = segment.as_ref();
            let mut length = segment.len();
            loop {
                let byte = (length & 0x7f) as u8;
                length >>= 7;
                if length == 0 {
                    bytes.push(byte);
                    break;
                }
                bytes.push(byte | 0x80);
            }
            bytes.extend_from_slice(segment.as_bytes());
        }
        Address { inner: triomphe::ThinArc::from_header_and_slice(hash, &bytes) }
    }

    /// `text` split at each `.`: `aws_instance.web.ami`.
    pub fn parse(text: &str) -> Address {
        Address::new(text.split('.'))
    }

    /// The segments, in order.
    pub fn segments(&self) -> Segments<'_> {
        self.iter().collect()
    }

    /// The segments as strings of their own, for a caller that keeps them
    /// or compares them with labels (no allocation for a segment of up to
    /// 23 bytes).
    pub fn smol_segments(&self) -> smallvec::SmallVec<[SmolStr; 6]> {
        self.iter().map(SmolStr::new).collect()
    }

    /// The segments, in order, one at a time.
    pub fn iter(&self) -> SegmentIter<'_> {
        SegmentIter { rest: &self.inner.slice }
    }

    /// How many segments the address has.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// Whether the address has no segments.
    pub fn is_empty(&self) -> bool {
        self.inner.slice.is_empty()
    }

    /// The segment at `at`, if there is one.
    pub fn segment(&self, at: usize) -> Option<&str> {
        self.iter().nth(at)
    }

    /// The first segment, if any.
    pub fn first(&self) -> Option<&str> {
        self.iter().next()
    }

    /// The last segment, if any.
    pub fn last(&self) -> Option<&str> {
        self.iter().last()
    }

    /// The address of the first `n` segments (all of them if there are
    /// fewer).
    pub fn prefix(&self, n: usize) -> Address {
        Address::new(self.iter().take(n))
    }

    /// Whether this address starts with all of `prefix`'s segments.
    pub fn starts_with(&self, prefix: &Address) -> bool {
        let mut own = self.iter();
        prefix.iter().all(|segment| own.next() == Some(segment))
    }

    /// The address's hash in the tables that hold positions in a list of
    /// addresses rather than addresses (the index's definitions, the
    /// graph's nodes).
    pub(crate) fn table_hash(&self) -> u64 {
        self.inner.header.header
    }
}

/// [`Address::iter`].
#[derive(Clone)]
pub struct SegmentIter<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for SegmentIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let (length, at) = read_length(self.rest);
        let (segment, rest) = self.rest[at..].split_at(length);
        self.rest = rest;
        // SAFETY: only `Address::new` writes an address's bytes, each
        // segment's from a `str`, whole, after its length, and this reads
        // them back at those boundaries.
        Some(unsafe { std::str::from_utf8_unchecked(segment) })
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, segment) in self.iter().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::Address;

    /// Addresses of segments with what the encoding must keep apart: an
    /// empty segment, one of 200 bytes (a length of two bytes), one with a
    /// dot, non-ASCII text, and prefixes of one another.
    fn samples() -> Vec<Vec<String>> {
        let long = "x".repeat(200);
        let longer = format!("{long}y");
        [
            vec![],
            vec![""],
            vec!["", ""],
            vec!["a"],
            vec!["a", ""],
            vec!["a", "b"],
            vec!["a", "b", "c"],
            vec!["a.b"],
            vec!["ab"],
            vec!["b"],
            vec!["é", "z"],
            vec![long.as_str()],
            vec![long.as_str(), "a"],
            vec![longer.as_str()],
            vec!["x", long.as_str()],
            vec!["local", "c0_base"],
            vec!["local", "c0_base2"],
            vec!["local", "c0_bas"],
        ]
        .into_iter()
        .map(|segments| segments.into_iter().map(str::to_owned).collect())
        .collect()
    }

    #[test]
    fn an_address_gives_back_its_segments() {
        for segments in samples() {
            let address = Address::new(&segments);
            let read: Vec<&str> = address.iter().collect();
            assert_eq!(read, segments);
            assert_eq!(&address.segments()[..], &read[..]);
            assert_eq!(address.len(), segments.len());
            assert_eq!(address.is_empty(), segments.is_empty());
            assert_eq!(address.first(), segments.first().map(String::as_str));
            assert_eq!(address.last(), segments.last().map(String::as_str));
            assert_eq!(address.segment(1), segments.get(1).map(String::as_str));
            assert_eq!(address.to_string(), segments.join("."));
        }
    }

    #[test]
    fn addresses_compare_as_their_segments_do() {
        use std::hash::BuildHasher;
        let samples = samples();
        for a in &samples {
            for b in &samples {
                let (x, y) = (Address::new(a), Address::new(b));
                assert_eq!(x.cmp(&y), a.cmp(b), "{a:?} against {b:?}");
                assert_eq!(x == y, a == b, "{a:?} against {b:?}");
                assert_eq!(x.starts_with(&y), a.starts_with(b), "{a:?} against {b:?}");
            }
            // The hash is the one the segments as strings had (see `new`).
            let strings: Vec<smol_str::SmolStr> = a.iter().map(smol_str::SmolStr::new).collect();
            assert_eq!(Address::new(a).table_hash(), rustc_hash::FxBuildHasher.hash_one(&strings[..]));
            assert_eq!(Address::new(a).prefix(1).segments().len(), a.len().min(1));
        }
    }
}
