//! The module's index read one name at a time, so that a query depends on
//! the names it reads and not on every file of the module.
//!
//! [`module_index`] builds the whole index from every file's declarations:
//! right for a database that is built once, but adding, removing or
//! renaming one file then rebuilds it, and every query that read it must be
//! checked again. A caller that changes files one at a time (the host) asks
//! the database to keep the index in parts instead
//! ([`crate::RootDatabase::keep_module_index_parts`]): a salsa input per
//! address (its definition and duplicates), per block (its attributes), per
//! file (what it defines and duplicates), for the names under `var` and
//! `local`, for each block type's labels, and for the block types.
//! [`crate::RootDatabase::update_module_index`] patches the parts the
//! changed files' declarations touch, and sets only those whose value
//! changed, so that an attribute's resolution re-runs only when a name it
//! reads changed.
//!
//! The readers below answer the same in both cases, from the parts or from
//! [`module_index`]; `tests/index_parts.rs` compares them.

use std::{
    cmp::Ordering,
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use rustc_hash::{FxHashMap, FxHashSet};
use salsa::Setter as _;
use smol_str::SmolStr;
use thin_vec::ThinVec;

use crate::{
    Db, File, RootDatabase,
    module::{
        Address, BlockEntry, Declaration, DeclarationKind, Definition, DialectRules, Duplicate,
        FileDeclarations, Labels, Module, ModuleIndex,
        declarations::{file_declarations, indexes_nested, module_address, position, repeated_blocks},
        module_files, module_index,
    },
};

/// What one part of a module's index is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PartKey {
    /// One address: its definition and its duplicates.
    Name(Address),
    /// The names under `var` or `local`.
    Names(SmolStr),
    /// One block, by its type and labels: its attributes.
    Block(SmolStr, Vec<SmolStr>),
    /// The labels of every block of one type.
    BlockLabels(SmolStr),
    /// The block types, each with its label counts.
    BlockTypes,
    /// What one file defines and declares again.
    File(File),
    /// A count of the names ever given a part: what a reader that found no
    /// part for a name depends on.
    Created,
}

/// One part of a module's index (see the module's documentation).
#[salsa::input(debug)]
pub struct IndexPart {
    #[returns(ref)]
    pub value: PartValue,
}

/// The value of an [`IndexPart`].
///
/// Salsa keeps each part's value in place in its table, every slot the
/// size of the largest variant, and a module has a part per address: the
/// variants of which there are few (a block's, a file's, the types') are
/// boxed, so that a slot is the size of a name's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartValue {
    Name(NameEntry),
    Names(Vec<SmolStr>),
    Block(Option<Box<BlockEntry>>),
    BlockLabels(Vec<Labels>),
    BlockTypes(Box<BlockTypes>),
    File(Box<FileIndex>),
    Created(u64),
}

#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<PartValue>() <= 32, "a part's slot is the size of a name's entry");

/// An address's first declaration and those after it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NameEntry {
    pub definition: Option<Definition>,
    /// Thin: most addresses are declared once, and every address has an
    /// entry.
    pub duplicates: ThinVec<Duplicate>,
}

/// What one file gives its module: the addresses it defines (declared
/// first there), in declaration order, and its declarations of addresses
/// declared before. The addresses are shared: the host keeps each file's
/// from one report to the next, to compare.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileIndex {
    pub addresses: Arc<[Address]>,
    pub duplicates: Vec<Duplicate>,
}

/// The block types that are root names, each with the label counts its
/// blocks have, in increasing order.
///
/// Two sorted lists rather than an ordered map of vectors: every module
/// keeps one, most have a few types, and a map's node has room for eleven.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockTypes {
    /// Each type, in name order, with the end of its label counts in
    /// `depths` (they start where the previous type's end).
    types: Vec<(SmolStr, u32)>,
    depths: Vec<usize>,
}

impl BlockTypes {
    pub const EMPTY: BlockTypes = BlockTypes { types: Vec::new(), depths: Vec::new() };

    /// The label counts of the blocks of `block_type`, in increasing order,
    /// if the module has any.
    pub fn get(&self, block_type: &str) -> Option<&[usize]> {
        Some(&self.depths[run_of(&self.types, block_type)?])
    }

    pub fn contains_key(&self, block_type: &str) -> bool {
        self.get(block_type).is_some()
    }

    /// The types, in name order.
    pub fn keys(&self) -> impl Iterator<Item = &SmolStr> {
        self.types.iter().map(|(name, _)| name)
    }
}

/// Where the items of `name` are in a list of runs, one per name: `runs`
/// holds each name, in order, with the end of its run (a run starts where
/// the previous one ends).
pub(crate) fn run_of(runs: &[(SmolStr, u32)], name: &str) -> Option<std::ops::Range<usize>> {
    let at = runs.binary_search_by(|(it, _)| it.as_str().cmp(name)).ok()?;
    let start = at.checked_sub(1).map_or(0, |before| runs[before].1 as usize);
    Some(start..runs[at].1 as usize)
}

/// From each type with its label counts, in any order.
impl FromIterator<(SmolStr, Vec<usize>)> for BlockTypes {
    fn from_iter<I: IntoIterator<Item = (SmolStr, Vec<usize>)>>(iter: I) -> BlockTypes {
        let mut all: Vec<(SmolStr, Vec<usize>)> = iter.into_iter().collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        let mut types = Vec::with_capacity(all.len());
        let mut depths = Vec::with_capacity(all.iter().map(|(_, depths)| depths.len()).sum());
        for (name, counts) in all {
            depths.extend(counts);
            types.push((name, u32::try_from(depths.len()).unwrap_or(u32::MAX)));
        }
        BlockTypes { types, depths }
    }
}

/// A part's key as a reader looks it up, borrowed (see [`PartKey`]).
#[derive(Debug, Clone, Copy)]
pub enum PartRef<'a> {
    Name(&'a Address),
    Names(&'a str),
    Block(&'a str, &'a [SmolStr]),
    BlockLabels(&'a str),
    BlockTypes,
    File(File),
    Created,
}

impl PartKey {
    fn as_ref(&self) -> PartRef<'_> {
        match self {
            PartKey::Name(address) => PartRef::Name(address),
            PartKey::Names(root) => PartRef::Names(root),
            PartKey::Block(block_type, labels) => PartRef::Block(block_type, labels),
            PartKey::BlockLabels(block_type) => PartRef::BlockLabels(block_type),
            PartKey::BlockTypes => PartRef::BlockTypes,
            PartKey::File(file) => PartRef::File(*file),
            PartKey::Created => PartRef::Created,
        }
    }
}

/// One module's parts, each kind by its own key, so that a reader looks
/// one up by what it holds (an address, a type and labels) without making
/// a key.
#[derive(Default)]
pub(crate) struct ModuleParts {
    names: FxHashMap<Address, IndexPart>,
    lists: FxHashMap<SmolStr, IndexPart>,
    blocks: FxHashMap<SmolStr, FxHashMap<Vec<SmolStr>, IndexPart>>,
    labels: FxHashMap<SmolStr, IndexPart>,
    types: Option<IndexPart>,
    files: FxHashMap<File, IndexPart>,
    created: Option<IndexPart>,
}

impl ModuleParts {
    fn get(&self, key: PartRef<'_>) -> Option<IndexPart> {
        match key {
            PartRef::Name(address) => self.names.get(address).copied(),
            PartRef::Names(root) => self.lists.get(root).copied(),
            PartRef::Block(block_type, labels) => self.blocks.get(block_type)?.get(labels).copied(),
            PartRef::BlockLabels(block_type) => self.labels.get(block_type).copied(),
            PartRef::BlockTypes => self.types,
            PartRef::File(file) => self.files.get(&file).copied(),
            PartRef::Created => self.created,
        }
    }

    fn insert(&mut self, key: PartKey, part: IndexPart) {
        match key {
            PartKey::Name(address) => {
                self.names.insert(address, part);
            }
            PartKey::Names(root) => {
                self.lists.insert(root, part);
            }
            PartKey::Block(block_type, labels) => {
                self.blocks.entry(block_type).or_default().insert(labels, part);
            }
            PartKey::BlockLabels(block_type) => {
                self.labels.insert(block_type, part);
            }
            PartKey::BlockTypes => self.types = Some(part),
            PartKey::File(file) => {
                self.files.insert(file, part);
            }
            PartKey::Created => self.created = Some(part),
        }
    }
}

/// The parts of every module: read by queries on any thread, written only
/// while the database is written.
pub(crate) type IndexParts = std::sync::RwLock<FxHashMap<Module, ModuleParts>>;

/// What the database keeps of each module to patch its parts, read and
/// written only while the database is written.
pub(crate) type IndexTables = std::sync::Mutex<FxHashMap<Module, ModuleTable>>;

pub(crate) fn lookup(parts: &IndexParts, module: Module, key: PartRef<'_>) -> Option<IndexPart> {
    parts.read().unwrap_or_else(|poisoned| poisoned.into_inner()).get(&module)?.get(key)
}

pub(crate) fn lookup_address(parts: &IndexParts, module: Module, address: &Address) -> Option<Address> {
    let parts = parts.read().unwrap_or_else(|poisoned| poisoned.into_inner());
    Some(parts.get(&module)?.names.get_key_value(address)?.0.clone())
}

fn part<'db>(db: &'db dyn Db, module: Module, key: PartRef<'_>) -> Option<&'db PartValue> {
    Some(db.index_part(module, key)?.value(db))
}

/// Makes a reader that found no part depend on what creating it changes.
fn missed(db: &dyn Db, module: Module, fallback: PartRef<'_>) {
    if part(db, module, fallback).is_none() {
        let _ = part(db, module, PartRef::Created);
    }
}

/// The definition of `address`: its first declaration, files in path order.
pub fn definition<'db>(db: &'db dyn Db, module: Module, address: &Address) -> Option<&'db Definition> {
    IndexView::of(db, module).definition(address)
}

/// The declarations of `address` after its definition.
pub fn duplicates_of<'db>(db: &'db dyn Db, module: Module, address: &Address) -> Vec<&'db Duplicate> {
    IndexView::of(db, module).duplicates_of(address)
}

/// The names declared under `root`, `var` or `local`, in name order.
pub fn names_under<'db>(db: &'db dyn Db, module: Module, root: &str) -> &'db [SmolStr] {
    IndexView::of(db, module).names_under(root)
}

/// The block of type `block_type` with exactly `labels`, if it is a root
/// name (see [`crate::module::ModuleIndex::blocks`]).
pub fn block<'db>(
    db: &'db dyn Db,
    module: Module,
    block_type: &str,
    labels: &[SmolStr],
) -> Option<&'db BlockEntry> {
    IndexView::of(db, module).block(block_type, labels)
}

/// The labels of every block of `block_type`, in order.
pub fn block_labels<'db>(db: &'db dyn Db, module: Module, block_type: &str) -> &'db [Labels] {
    IndexView::of(db, module).block_labels(block_type)
}

/// The block types, each with the label counts of its blocks.
pub fn block_types(db: &dyn Db, module: Module) -> &BlockTypes {
    IndexView::of(db, module).block_types()
}

/// What `file` defines and declares again in `module`.
pub fn file_index(db: &dyn Db, module: Module, file: File) -> &FileIndex {
    IndexView::of(db, module).file_index(file)
}

/// The module's index as its readers read it: built whole (found once
/// here, for a reader that looks up many names), or in parts. The free
/// functions above make one for each lookup.
#[derive(Clone, Copy)]
pub struct IndexView<'db> {
    db: &'db dyn Db,
    module: Module,
    whole: Option<&'db ModuleIndex>,
}

impl<'db> IndexView<'db> {
    pub fn of(db: &'db dyn Db, module: Module) -> IndexView<'db> {
        let whole = (!db.keeps_index_parts()).then(|| module_index(db, module));
        IndexView { db, module, whole }
    }

    /// The index's own copy of `address`, if it has one: the whole index's,
    /// or the key of its part when the index is kept in parts (a reader
    /// that keeps an address it looked up shares that copy rather than
    /// keep its own).
    pub fn declared_address(&self, address: &Address) -> Option<Address> {
        match self.whole {
            Some(whole) => Some(whole.definitions.get_key_value(address)?.0.clone()),
            None => self.db.index_address(self.module, address),
        }
    }

    /// The index's own copy of `address` when it is declared: what
    /// [`Self::definition`] and [`Self::declared_address`] tell, with one
    /// lookup where the index is whole (a resolution asks it of every
    /// `var.NAME` and `local.NAME` it reads).
    pub fn declared_copy(&self, address: Address) -> Option<Address> {
        if let Some(whole) = self.whole {
            return whole.definitions.get_key_value(&address).map(|(declared, _)| declared.clone());
        }
        self.definition(&address)?;
        Some(self.db.index_address(self.module, &address).unwrap_or(address))
    }

    /// The definition of `address`: its first declaration, files in path order.
    pub fn definition(&self, address: &Address) -> Option<&'db Definition> {
        if let Some(whole) = self.whole {
            return whole.definitions.get(address);
        }
        match part(self.db, self.module, PartRef::Name(address)) {
            Some(PartValue::Name(entry)) => entry.definition.as_ref(),
            _ => {
                let _ = part(self.db, self.module, PartRef::Created);
                None
            }
        }
    }

    /// The declarations of `address` after its definition.
    pub fn duplicates_of(&self, address: &Address) -> Vec<&'db Duplicate> {
        if let Some(whole) = self.whole {
            return whole.duplicates.iter().filter(|it| it.address == *address).collect();
        }
        match part(self.db, self.module, PartRef::Name(address)) {
            Some(PartValue::Name(entry)) => entry.duplicates.iter().collect(),
            _ => {
                let _ = part(self.db, self.module, PartRef::Created);
                Vec::new()
            }
        }
    }

    /// The names declared under `root`, `var` or `local`, in name order.
    pub fn names_under(&self, root: &str) -> &'db [SmolStr] {
        debug_assert!(matches!(root, "var" | "local"), "names are kept under var and local only");
        if let Some(whole) = self.whole {
            return whole.names(root);
        }
        match part(self.db, self.module, PartRef::Names(root)) {
            Some(PartValue::Names(names)) => names,
            _ => &[],
        }
    }

    /// The block of type `block_type` with exactly `labels`, if it is a root
    /// name (see [`crate::module::ModuleIndex::blocks`]).
    pub fn block(&self, block_type: &str, labels: &[SmolStr]) -> Option<&'db BlockEntry> {
        if let Some(whole) = self.whole {
            return whole.blocks.get(block_type, labels);
        }
        match part(self.db, self.module, PartRef::Block(block_type, labels)) {
            Some(PartValue::Block(entry)) => entry.as_deref(),
            _ => {
                missed(self.db, self.module, PartRef::BlockLabels(block_type));
                None
            }
        }
    }

    /// The labels of every block of `block_type`, in order.
    pub fn block_labels(&self, block_type: &str) -> &'db [Labels] {
        if let Some(whole) = self.whole {
            return whole.blocks.labels(block_type);
        }
        match part(self.db, self.module, PartRef::BlockLabels(block_type)) {
            Some(PartValue::BlockLabels(labels)) => labels,
            _ => {
                missed(self.db, self.module, PartRef::BlockTypes);
                &[]
            }
        }
    }

    /// The block types, each with the label counts of its blocks.
    pub fn block_types(&self) -> &'db BlockTypes {
        if let Some(whole) = self.whole {
            return &whole.block_types;
        }
        static EMPTY: BlockTypes = BlockTypes::EMPTY;
        match part(self.db, self.module, PartRef::BlockTypes) {
            Some(PartValue::BlockTypes(types)) => types,
            _ => &EMPTY,
        }
    }

    /// What `file` defines and declares again in `module`.
    pub fn file_index(&self, file: File) -> &'db FileIndex {
        static EMPTY: std::sync::LazyLock<FileIndex> = std::sync::LazyLock::new(FileIndex::default);
        if let Some(whole) = self.whole {
            return whole.by_file.get(&file).unwrap_or(&EMPTY);
        }
        match part(self.db, self.module, PartRef::File(file)) {
            Some(PartValue::File(index)) => index,
            _ => {
                let _ = part(self.db, self.module, PartRef::Created);
                &EMPTY
            }
        }
    }
}

/// Every address the module defines, in declaration order (files by
/// path; in a file, its top-level attributes, then its blocks in source
/// order, each with what it holds).
pub fn module_order<'db>(db: &'db dyn Db, module: Module) -> impl Iterator<Item = &'db Address> + 'db {
    let view = IndexView::of(db, module);
    module_files(db, module).iter().flat_map(move |&file| view.file_index(file).addresses.iter())
}

/// Every duplicate declaration of the module, in declaration order.
pub fn module_duplicates<'db>(db: &'db dyn Db, module: Module) -> impl Iterator<Item = &'db Duplicate> + 'db {
    let view = IndexView::of(db, module);
    module_files(db, module).iter().flat_map(move |&file| &view.file_index(file).duplicates)
}

/// The order of two definitions in the module: files by path, then
/// source order.
pub fn declaration_order(db: &dyn Db, a: &Definition, b: &Definition) -> Ordering {
    if a.file == b.file {
        return a.declaration.cmp(&b.declaration);
    }
    vfs::path_order(a.file.path(db), b.file.path(db))
}

/// One declaration of a file as the module addresses it.
#[derive(Debug, Clone)]
struct Site {
    address: Address,
    /// Whether a block is a root name (not of a hidden type), and for its
    /// attributes whether theirs is.
    root_name: bool,
    /// Whether a block's or an attribute's declaration would have had an
    /// ordinal (a block that may repeat).
    repeatable: bool,
    /// Left out: an attribute of a block declared again (see
    /// [`module_index`]'s walk).
    skipped: bool,
}

/// What the database keeps of one module to patch its parts.
#[derive(Default)]
pub(crate) struct ModuleTable {
    rules: Option<Arc<DialectRules>>,
    files: FxHashSet<File>,
    /// Each file's declarations as the module addresses them.
    by_file: FxHashMap<File, FileSites>,
    /// Each address's declarations, in declaration order.
    sites: FxHashMap<Address, Sites>,
    /// (The names under `var` and `local` are kept only in their parts,
    /// sorted lists that each patch merges its changes into.)
    labels: FxHashMap<SmolStr, BTreeSet<Labels>>,
    /// How many blocks of each type have each label count.
    depths: BTreeMap<SmolStr, BTreeMap<usize, usize>>,
    created: u64,
}

/// The declarations of one address, in declaration order, each a file and
/// its number there. Inline when there is one, as there is for most
/// addresses: a vector's own allocation per address was a tenth of the
/// table, and a small vector's room and length beside the one held inline
/// still doubled each entry of the table.
type Sites = crate::OneOrMany<(File, u32)>;

/// A file's declarations as read, and as the module addresses them (a site
/// per declaration, by its number).
struct FileSites {
    /// The snapshot read (see [`crate::File::declarations`]): a file whose
    /// snapshot is still this one and that stays a member is not read
    /// again.
    declarations: Arc<FileDeclarations>,
    sites: Vec<Site>,
}

impl ModuleTable {
    fn site(&self, (file, number): (File, u32)) -> &Site {
        &self.by_file[&file].sites[number as usize]
    }

    fn declaration(&self, (file, number): (File, u32)) -> &Declaration {
        &self.by_file[&file].declarations.declarations[number as usize]
    }

    /// The declarations of `address` that count, in declaration order.
    fn live(&self, address: &Address) -> impl Iterator<Item = (File, u32)> + '_ {
        self.sites
            .get(address)
            .map_or(&[][..], |sites| &sites[..])
            .iter()
            .copied()
            .filter(|&at| !self.site(at).skipped)
    }

    fn definition_at(&self, address: &Address) -> Option<(File, u32)> {
        self.live(address).next()
    }

    fn entry(&self, address: &Address) -> NameEntry {
        let mut live = self.live(address);
        let Some(first) = live.next() else { return NameEntry::default() };
        let site = self.declaration(first);
        let definition = Definition { file: first.0, kind: site.kind.clone(), declaration: first.1 };
        let duplicates = live
            .map(|at| {
                let duplicate = self.declaration(at);
                Duplicate {
                    address: address.clone(),
                    kind: duplicate.kind.clone(),
                    first: (first.0, site.location.clone()),
                    duplicate: (at.0, duplicate.location.clone()),
                }
            })
            .collect();
        NameEntry { definition: Some(definition), duplicates }
    }

    /// The entry of the block at `address` if it is defined by a block
    /// that is a root name: the attributes of that block that it defines.
    fn block_entry(&self, address: &Address) -> Option<BlockEntry> {
        let first = self.definition_at(address)?;
        if self.declaration(first).kind != DeclarationKind::Block
            || !self.site(first).root_name
            || address.is_empty()
        {
            return None;
        }
        let mut attributes = Vec::new();
        let mut nested = Vec::new();
        let file = &self.by_file[&first.0];
        let block = self.declaration(first).location.block;
        let with_nested = self.rules.as_deref().is_some_and(indexes_nested);
        for (number, (attribute, declaration)) in
            file.sites.iter().zip(&file.declarations.declarations).enumerate()
        {
            let counts = !attribute.skipped
                && attribute.root_name
                && self.definition_at(&attribute.address) == Some((first.0, position(number)));
            match declaration.kind {
                DeclarationKind::BlockAttribute => {
                    if counts
                        && attribute.address.len() == address.len() + 1
                        && attribute.address.starts_with(address)
                        && let Some(name) = attribute.address.last()
                    {
                        attributes.push(SmolStr::new(name));
                    }
                }
                DeclarationKind::NestedAttribute
                    if with_nested
                        && declaration.location.block == block
                        && attribute.address.len() > address.len()
                        && attribute.address.starts_with(address)
                        && counts =>
                {
                    nested.push(attribute.address.iter().skip(address.len()).map(SmolStr::new).collect());
                }
                _ => {}
            }
        }
        Some(BlockEntry { attributes, nested })
    }

    /// What `file` defines and declares again.
    fn file_index(&self, file: File) -> FileIndex {
        let mut addresses = Vec::new();
        let mut duplicates = Vec::new();
        let Some(sites) = self.by_file.get(&file) else { return FileIndex::default() };
        for (number, (site, declaration)) in
            sites.sites.iter().zip(&sites.declarations.declarations).enumerate()
        {
            if site.skipped {
                continue;
            }
            let at = (file, position(number));
            match self.definition_at(&site.address) {
                Some(first) if first == at => addresses.push(site.address.clone()),
                Some(first) => {
                    let defined = self.declaration(first);
                    duplicates.push(Duplicate {
                        address: site.address.clone(),
                        kind: declaration.kind.clone(),
                        first: (first.0, defined.location.clone()),
                        duplicate: (file, declaration.location.clone()),
                    });
                }
                None => {}
            }
        }
        FileIndex { addresses: addresses.into(), duplicates }
    }

    /// Marks the attributes of blocks declared again in `file` as left out,
    /// as [`module_index`]'s walk does (the last duplicate block's position
    /// leaves out the attributes at that position after it); returns the
    /// addresses whose marks changed.
    fn mark_skipped(&mut self, file: File, out: &mut Vec<Address>) {
        let Some(sites) = self.by_file.get(&file) else { return };
        let mut skipped_block: Option<u32> = None;
        let mut marks = Vec::with_capacity(sites.sites.len());
        for (number, (site, declaration)) in
            sites.sites.iter().zip(&sites.declarations.declarations).enumerate()
        {
            let skipped = matches!(
                declaration.kind,
                DeclarationKind::BlockAttribute | DeclarationKind::NestedAttribute
            ) && skipped_block.is_some()
                && skipped_block == declaration.location.block;
            marks.push(skipped);
            if skipped {
                continue;
            }
            if declaration.kind == DeclarationKind::Block
                && self.definition_at(&site.address) != Some((file, position(number)))
            {
                skipped_block = declaration.location.block;
            }
        }
        let Some(sites) = self.by_file.get_mut(&file) else { return };
        for (site, skipped) in sites.sites.iter_mut().zip(marks) {
            if site.skipped != skipped {
                site.skipped = skipped;
                out.push(site.address.clone());
            }
        }
    }
}

/// The declarations of `file` as `module` addresses them, with the
/// ordinals of repeated blocks.
fn sites_of(
    db: &dyn Db,
    file: File,
    rules: &DialectRules,
    ordinals: &FxHashMap<(File, u32), usize>,
) -> FileSites {
    let declarations = match file.declarations(db) {
        Some(snapshot) => Arc::clone(snapshot),
        None => Arc::clone(file_declarations(db, file)),
    };
    let mut out = Vec::with_capacity(declarations.declarations.len());
    let mut block_length = 0;
    let mut block_repeatable = false;
    for declaration in &declarations.declarations {
        if declaration.kind == DeclarationKind::Block {
            let segments = declaration.address.segments();
            block_length = segments.len();
            block_repeatable = match segments[..] {
                [_] => true,
                [type_name, ..] => rules.repeatable_block_types.contains(type_name),
                [] => false,
            };
        }
        let ordinal = match declaration.kind {
            DeclarationKind::Block | DeclarationKind::BlockAttribute | DeclarationKind::NestedAttribute => {
                declaration
                    .location
                    .block
                    .and_then(|block| ordinals.get(&(file, block)))
                    .map(|&ordinal| (ordinal, block_length))
            }
            _ => None,
        };
        let address = module_address(declaration, ordinal, rules);
        let root_name = declaration.address.first().is_none_or(|it| !rules.hidden_block_types.contains(it))
            && address.first().is_some_and(|it| !it.is_empty());
        let repeatable = declaration.kind == DeclarationKind::Block && block_repeatable;
        out.push(Site { address, root_name, repeatable, skipped: false });
    }
    FileSites { declarations, sites: out }
}

/// `listed` (sorted) without `removed`, with `added` (sorted, none of them
/// listed), in order.
fn merge_names(listed: &[SmolStr], removed: &FxHashSet<SmolStr>, added: Vec<SmolStr>) -> Vec<SmolStr> {
    let mut out = Vec::with_capacity((listed.len() + added.len()).saturating_sub(removed.len()));
    let mut kept = listed.iter().filter(|name| !removed.contains(*name)).peekable();
    let mut added = added.into_iter().peekable();
    loop {
        let next = match (kept.peek(), added.peek()) {
            (Some(old), Some(new)) if *old < new => kept.next().cloned(),
            (_, Some(_)) => added.next(),
            (Some(_), None) => kept.next().cloned(),
            (None, None) => break,
        };
        out.extend(next);
    }
    out
}

impl RootDatabase {
    /// Keeps every module's index in parts from now on (see
    /// [`crate::module::index`]), brought up to date by
    /// [`RootDatabase::update_module_index`], which the caller must call
    /// after changing a module's files or their declarations. Set before
    /// any module is read.
    pub fn keep_module_index_parts(&mut self) {
        self.keep_index_parts = true;
    }

    /// Brings the parts of `module`'s index up to date with the
    /// declarations (their snapshots) and the membership of `changed`, its
    /// files whose declarations changed, that joined it or that left it.
    /// The first call, a change of the dialect's rules, and a change of a
    /// block that may repeat (whose ordinal depends on the other files)
    /// read every file again.
    pub fn update_module_index(&mut self, module: Module, changed: &[File]) {
        if !self.keep_index_parts {
            return;
        }
        let rules = Arc::clone(module.dialect(self).rules(self));
        let tables = Arc::clone(&self.index_tables);
        let mut tables = tables.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut table = tables.remove(&module).unwrap_or_default();
        let updates = self.patch(module, &mut table, &rules, changed);
        self.set_parts(module, &mut table, updates);
        tables.insert(module, table);
    }

    /// The part of `module` at `key`, if there is one.
    fn existing_part(&self, module: Module, key: &PartKey) -> Option<IndexPart> {
        lookup(&self.index_parts, module, key.as_ref())
    }

    /// Patches `table` with the changed files' declarations and returns
    /// the parts to set.
    fn patch(
        &self,
        module: Module,
        table: &mut ModuleTable,
        rules: &Arc<DialectRules>,
        changed: &[File],
    ) -> Vec<(PartKey, PartValue)> {
        let mut full = table.rules.as_ref().is_none_or(|old| **old != **rules);
        let members = module_files(self, module);
        // Whether a file is one the dialect reads: a search of the sorted
        // list, unless the dialect leaves some of the module's files out
        // (then a file added may leave out another, its twin).
        let filtered = rules.reads_some_files_only || full;
        let member_set: FxHashSet<File> =
            if filtered { members.iter().copied().collect() } else { FxHashSet::default() };
        let is_member = |file: File| {
            if filtered {
                member_set.contains(&file)
            } else {
                let path = file.path(self);
                members.binary_search_by(|other| vfs::path_order(other.path(self), path)).is_ok()
            }
        };
        // The files whose sites change: those given whose declarations or
        // membership changed, and those that joined or left the files the
        // dialect reads.
        let unchanged = |file: File| {
            table.files.contains(&file)
                && file.declarations(self).as_ref().is_some_and(|snapshot| {
                    table.by_file.get(&file).is_some_and(|read| Arc::ptr_eq(&read.declarations, snapshot))
                })
                && is_member(file)
        };
        let mut files: FxHashSet<File> = changed.iter().copied().filter(|&file| !unchanged(file)).collect();
        if filtered {
            files.extend(member_set.symmetric_difference(&table.files).copied());
        }
        // Each member's new sites, read once; a block that may repeat, now
        // or before, takes an ordinal that depends on the other files.
        let mut fresh: FxHashMap<File, FileSites> = FxHashMap::default();
        if !full {
            let none = FxHashMap::default();
            for &file in &files {
                full |= table
                    .by_file
                    .get(&file)
                    .is_some_and(|read| read.sites.iter().any(|site| site.repeatable));
                if is_member(file) {
                    let sites = sites_of(self, file, rules, &none);
                    full |= sites.sites.iter().any(|site| site.repeatable);
                    fresh.insert(file, sites);
                }
            }
        }
        let mut touched: FxHashSet<Address> = FxHashSet::default();
        let ordinals = if full {
            // Every file, with the ordinals of repeated blocks; every part
            // the module had is checked again.
            files = members.iter().copied().chain(table.files.iter().copied()).collect();
            touched.extend(table.sites.keys().cloned());
            repeated_blocks(self, module, rules)
        } else {
            FxHashMap::default()
        };
        table.rules = Some(Arc::clone(rules));
        // Out with each changed file's old sites, in with its new ones.
        for &file in &files {
            if let Some(old) = table.by_file.remove(&file) {
                for (number, site) in old.sites.iter().enumerate() {
                    let at = (file, position(number));
                    if let Some(sites) = table.sites.get_mut(&site.address) {
                        sites.retain(|it| *it != at);
                    }
                    touched.insert(site.address.clone());
                }
            }
            table.files.remove(&file);
        }
        for &file in &files {
            if !is_member(file) {
                continue;
            }
            let sites = match fresh.remove(&file) {
                Some(sites) if !full => sites,
                _ => sites_of(self, file, rules, &ordinals),
            };
            for (number, site) in sites.sites.iter().enumerate() {
                let at = (file, position(number));
                let list = table.sites.entry(site.address.clone()).or_default();
                let at_list = list
                    .binary_search_by(|&(other, n)| {
                        if other == file {
                            n.cmp(&at.1)
                        } else {
                            vfs::path_order(other.path(self), file.path(self))
                        }
                    })
                    .unwrap_or_else(|it| it);
                list.insert(at_list, at);
                touched.insert(site.address.clone());
            }
            table.by_file.insert(file, sites);
            table.files.insert(file);
        }
        // Attributes of blocks declared again are left out; which blocks
        // those are depends on which declaration of each block address is
        // first, so marks and definitions are found again until they hold.
        let mut rescan: FxHashSet<File> =
            files.iter().copied().filter(|file| table.files.contains(file)).collect();
        let mut all_touched = touched.clone();
        loop {
            for address in &touched {
                let sites = table.sites.get(address).map_or(&[][..], |sites| &sites[..]);
                if sites.iter().any(|&at| table.declaration(at).kind == DeclarationKind::Block) {
                    rescan.extend(sites.iter().map(|&(file, _)| file));
                }
            }
            let mut remarked = Vec::new();
            for file in rescan.drain() {
                table.mark_skipped(file, &mut remarked);
            }
            touched = remarked.into_iter().filter(|address| all_touched.insert(address.clone())).collect();
            if touched.is_empty() {
                break;
            }
        }
        // The parts to set: each touched address, the blocks they are
        // attributes of, the files declaring them, and what lists them.
        let mut file_parts: FxHashSet<File> = files.iter().copied().collect();
        let mut block_addresses: FxHashSet<Address> = FxHashSet::default();
        let mut updates: Vec<(PartKey, PartValue)> = Vec::new();
        // The names under `var` and `local` as their parts list them, and
        // those that appeared (in any order) or went away, merged into the
        // lists at the end: the parts are the names' only copy, and loading
        // a module adds every name.
        let listed = |root: &str| match self.existing_part(module, &PartKey::Names(SmolStr::new(root))) {
            Some(part) => match part.value(self) {
                PartValue::Names(names) => names.as_slice(),
                _ => &[],
            },
            None => &[],
        };
        let (listed_var, listed_local) = (listed("var"), listed("local"));
        let mut names_added: FxHashMap<SmolStr, Vec<SmolStr>> = FxHashMap::default();
        let mut names_removed: FxHashMap<SmolStr, FxHashSet<SmolStr>> = FxHashMap::default();
        for address in &all_touched {
            file_parts.extend(
                table.sites.get(address).map_or(&[][..], |sites| &sites[..]).iter().map(|&(file, _)| file),
            );
            let entry = table.entry(address);
            let exists = entry.definition.is_some();
            if let [root, name] = &address.smol_segments()[..]
                && matches!(root.as_str(), "var" | "local")
            {
                let listed = if root == "var" { listed_var } else { listed_local };
                match (exists, listed.binary_search(name).is_ok()) {
                    (true, false) => names_added.entry(root.clone()).or_default().push(name.clone()),
                    (false, true) => {
                        names_removed.entry(root.clone()).or_default().insert(name.clone());
                    }
                    _ => {}
                }
            }
            block_addresses.insert(address.clone());
            if address.len() > 1 {
                block_addresses.insert(address.prefix(address.len() - 1));
            }
            updates.push((PartKey::Name(address.clone()), PartValue::Name(entry)));
        }
        let mut types_changed: BTreeSet<SmolStr> = BTreeSet::new();
        let mut depths_changed = false;
        for address in &block_addresses {
            let segments = address.smol_segments();
            let Some((block_type, labels)) = segments.split_first() else { continue };
            let key = PartKey::Block(block_type.clone(), labels.to_vec());
            let entry = table.block_entry(address);
            let list = table.labels.entry(block_type.clone()).or_default();
            let depths = table.depths.entry(block_type.clone()).or_default();
            match (list.contains(labels), entry.is_some()) {
                (true, false) => {
                    list.remove(labels);
                    let count = depths.entry(labels.len()).or_default();
                    *count -= 1;
                    if *count == 0 {
                        depths.remove(&labels.len());
                        depths_changed = true;
                    }
                    types_changed.insert(block_type.clone());
                }
                (false, true) => {
                    list.insert(Labels::from(labels));
                    let count = depths.entry(labels.len()).or_default();
                    depths_changed |= *count == 0;
                    *count += 1;
                    types_changed.insert(block_type.clone());
                }
                _ => {}
            }
            if depths.is_empty() {
                table.depths.remove(block_type);
            }
            if entry.is_some() || self.existing_part(module, &key).is_some() {
                updates.push((key, PartValue::Block(entry.map(Box::new))));
            }
        }
        for (root, listed) in [("var", listed_var), ("local", listed_local)] {
            let key = PartKey::Names(SmolStr::new(root));
            let mut added = names_added.remove(root).unwrap_or_default();
            let removed = names_removed.remove(root).unwrap_or_default();
            if added.is_empty() && removed.is_empty() && self.existing_part(module, &key).is_some() {
                continue;
            }
            added.sort_unstable();
            updates.push((key, PartValue::Names(merge_names(listed, &removed, added))));
        }
        for block_type in types_changed {
            let labels = table
                .labels
                .get(&block_type)
                .map(|labels| labels.iter().cloned().collect())
                .unwrap_or_default();
            updates.push((PartKey::BlockLabels(block_type), PartValue::BlockLabels(labels)));
        }
        if depths_changed || self.existing_part(module, &PartKey::BlockTypes).is_none() {
            let types: BlockTypes = table
                .depths
                .iter()
                .map(|(block_type, depths)| (block_type.clone(), depths.keys().copied().collect()))
                .collect();
            updates.push((PartKey::BlockTypes, PartValue::BlockTypes(Box::new(types))));
        }
        for file in file_parts {
            updates.push((PartKey::File(file), PartValue::File(Box::new(table.file_index(file)))));
        }
        updates
    }

    /// Sets the parts whose value changed and creates the new ones. A new
    /// part makes the readers that found none look again (`Created`), and
    /// that write comes first: like every write, it waits for the queries
    /// running on other handles, which may be reading the table of parts.
    fn set_parts(&mut self, module: Module, table: &mut ModuleTable, updates: Vec<(PartKey, PartValue)>) {
        let durability = self.durability.structure;
        let mut new = Vec::new();
        for (key, value) in updates {
            match self.existing_part(module, &key) {
                Some(part) => {
                    if *part.value(self) != value {
                        part.set_value(self).with_durability(durability).to(value);
                    }
                }
                None => new.push((key, value)),
            }
        }
        let created = self.existing_part(module, &PartKey::Created);
        if new.is_empty() && created.is_some() {
            return;
        }
        table.created += 1;
        let count = PartValue::Created(table.created);
        match created {
            Some(part) => {
                part.set_value(self).with_durability(durability).to(count);
            }
            None => new.push((PartKey::Created, count)),
        }
        let made: Vec<(PartKey, IndexPart)> = new
            .into_iter()
            .map(|(key, value)| (key, IndexPart::builder(value).durability(durability).new(self)))
            .collect();
        let mut parts = self.index_parts.write().unwrap_or_else(|poisoned| poisoned.into_inner());
        let parts = parts.entry(module).or_default();
        for (key, part) in made {
            parts.insert(key, part);
        }
    }
}

#[cfg(test)]
mod tests {
    use rustc_hash::FxHashSet;
    use smol_str::SmolStr;

    use super::{Sites, merge_names};
    use crate::RootDatabase;

    fn names(list: &[&str]) -> Vec<SmolStr> {
        list.iter().map(SmolStr::new).collect()
    }

    #[test]
    fn names_merge_in_order_without_the_removed() {
        let listed = names(&["a", "c", "e", "g"]);
        let removed: FxHashSet<SmolStr> = names(&["c", "g"]).into_iter().collect();
        assert_eq!(
            merge_names(&listed, &removed, names(&["b", "f", "h"])),
            names(&["a", "b", "e", "f", "h"])
        );
        assert_eq!(merge_names(&[], &FxHashSet::default(), names(&["x"])), names(&["x"]));
        assert_eq!(merge_names(&listed, &listed.iter().cloned().collect(), Vec::new()), names(&[]));
    }

    #[test]
    fn sites_hold_one_in_place_and_keep_their_order() {
        let mut db = RootDatabase::default();
        let a = db.set_file_bytes("/m/a.hcl", b"");
        let b = db.set_file_bytes("/m/b.hcl", b"");
        let mut sites = Sites::default();
        assert!(&sites[..].is_empty());
        sites.insert(0, (b, 1));
        assert!(matches!(sites, Sites::One(_)));
        sites.insert(0, (a, 4));
        sites.insert(2, (b, 7));
        assert_eq!(&sites[..], &[(a, 4), (b, 1), (b, 7)]);
        sites.retain(|&(file, _)| file == b);
        assert_eq!(&sites[..], &[(b, 1), (b, 7)]);
        sites.retain(|&(_, number)| number == 7);
        assert!(matches!(sites, Sites::One((file, 7)) if file == b));
        sites.retain(|_| false);
        assert!(&sites[..].is_empty());
    }
}
