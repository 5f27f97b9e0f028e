//! What each file declares, and the module's index of declarations.
//!
//! Both are projections of the files' HIR that leave the expressions out, so
//! they compare equal after an edit that changes only expressions: salsa
//! then backdates them and nothing that reads them re-runs.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use camino::Utf8Path;
use rustc_hash::FxHashSet;
use smol_str::SmolStr;
use thin_vec::ThinVec;

use crate::{
    Db, File,
    module::{Address, DialectRules, Module},
};

/// A position in a body's list of attributes, in four bytes with room
/// for `None` beside it: a definition is kept for every name of a module,
/// and two `Option<u32>`s made one two fifths larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BodyPosition(std::num::NonZeroU32);

impl BodyPosition {
    /// The position `at`, if it is below `u32::MAX` (a body that long does
    /// not fit in a file this reads).
    pub fn new(at: u32) -> Option<BodyPosition> {
        std::num::NonZeroU32::new(at.wrapping_add(1)).map(BodyPosition)
    }

    pub fn get(self) -> u32 {
        self.0.get() - 1
    }
}

/// What a declaration is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclarationKind {
    /// `variable "NAME" { … }`, addressed `var.NAME`. `type_attr` and
    /// `default_attr` are the positions of its `type` and `default`
    /// attributes in the block's body, if it has them.
    Variable { type_attr: Option<BodyPosition>, default_attr: Option<BodyPosition> },
    /// An attribute of a `locals` block, addressed `local.NAME`.
    Local,
    /// A top-level block other than `variable` and `locals`, addressed by
    /// its type and labels: an object of its attributes.
    Block,
    /// An attribute of such a block: `TYPE.LABEL….NAME`.
    BlockAttribute,
    /// An attribute at the top level of a file, addressed by its name. It
    /// is evaluated (a `.tfvars`-like file) but nothing can refer to it.
    TopLevelAttribute,
    /// An attribute of a block nested in a top-level block (not `locals`
    /// or `variable`): `TYPE.LABEL….NESTED_TYPE.NESTED_LABEL….NAME`, with
    /// the nested block's position among its kind (`.0`, `.1`) when its
    /// type and labels repeat in its body. A reference reaches it through
    /// its top-level block (see [`BlockEntry::nested`]), except in a
    /// dialect whose tool computes blocks' attributes.
    NestedAttribute,
}

impl DeclarationKind {
    /// Whether the declaration is an attribute with an expression of its own
    /// (what `halite eval DIR` prints).
    pub fn is_attribute(&self) -> bool {
        matches!(
            self,
            DeclarationKind::Local
                | DeclarationKind::BlockAttribute
                | DeclarationKind::TopLevelAttribute
                | DeclarationKind::NestedAttribute
        )
    }

    /// Whether the declaration has a value of its own: an attribute or a
    /// variable (a node of a module's dependency graph).
    pub fn has_value(&self) -> bool {
        self.is_attribute() || matches!(self, DeclarationKind::Variable { .. })
    }
}

/// Where a declaration is in its file: the position of its top-level
/// block in the file's body, and of its attribute in that block's body (or
/// in the file's body for a top-level attribute). Positions, not arena ids:
/// they change only when declarations are added or removed before it.
///
/// In a JSON file, `block` counts the root object's properties, `labels`
/// the properties at each label level below that block type's object (one
/// per label: a `resource` may have two), and
/// `attribute` those of the block's body; an array of objects at any level
/// counts as its objects' properties in order.
///
/// An attribute of a nested block has the positions of the blocks below the
/// top-level one in `nested`, outermost first.
///
/// Thin vectors (one word, no allocation when empty): a location is kept
/// per declaration, and most have neither labels nor nesting, so the two
/// words of a boxed slice or three of a vector were most of its size.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Location {
    pub block: Option<u32>,
    pub attribute: Option<u32>,
    pub labels: ThinVec<u32>,
    pub nested: ThinVec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    pub address: Address,
    pub kind: DeclarationKind,
    pub location: Location,
}

impl Declaration {
    /// A declaration by attribute `attribute` of the top-level block at
    /// `block` (a `locals` block's, say), whose block has no labels.
    pub(crate) fn at_attribute(
        address: Address,
        kind: DeclarationKind,
        block: Option<u32>,
        attribute: u32,
    ) -> Declaration {
        let location =
            Location { block, attribute: Some(attribute), labels: ThinVec::new(), nested: ThinVec::new() };
        Declaration { address, kind, location }
    }

    /// `var.NAME`, declared by attribute `attribute` of a `variables`
    /// block at `block`, whose value is its default (see
    /// [`crate::module::DialectRules::variables_blocks`]).
    pub(crate) fn variables_member(name: &str, block: Option<u32>, attribute: u32) -> Declaration {
        let kind = DeclarationKind::Variable { type_attr: None, default_attr: BodyPosition::new(attribute) };
        Declaration::at_attribute(Address::new(["var", name]), kind, block, attribute)
    }
}

/// A file's declarations in source order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileDeclarations {
    pub declarations: Vec<Declaration>,
    /// The data sources declared inside `check` blocks, by type and name:
    /// they are scoped to the check's own expressions, and the index
    /// has no nested blocks.
    pub scoped_data: Vec<(SmolStr, SmolStr)>,
    /// Whether a JSON file's `check` block has a `data` member, whose
    /// labels are inside an expression the declarations do not list: then
    /// any data source may be one of them.
    pub scoped_data_open: bool,
}

pub(crate) fn position(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// What `file` declares. Reads the file's HIR, which changes with every
/// expression; the result does not, so an expression edit stops here.
///
/// Never evicted: an edit stops here only by comparing the new result with
/// the old one, and an evicted result has nothing to compare with, so the
/// module index and everything resolved through it would run again (and,
/// with the other files' results evicted too, re-read every file).
#[salsa::tracked(returns(ref))]
pub fn file_declarations(db: &dyn Db, file: File) -> Arc<FileDeclarations> {
    if file.syntax(db) == crate::SourceSyntax::Json {
        let mut declarations = crate::module::json::declarations(db, file);
        declarations.scoped_data_open = declarations.declarations.iter().any(|declaration| {
            matches!(declaration.address.segments()[..], [check, _, data] if check == "check" && data == "data")
        });
        return Arc::new(declarations);
    }
    let hir = crate::lower(db, file);
    let mut declarations = Vec::new();
    for (i, &attribute) in hir.body.attributes.iter().enumerate() {
        let name = &hir[attribute].name;
        if name.is_empty() {
            continue;
        }
        declarations.push(Declaration {
            address: Address::new([name.clone()]),
            kind: DeclarationKind::TopLevelAttribute,
            location: Location {
                block: None,
                attribute: Some(position(i)),
                labels: ThinVec::new(),
                nested: ThinVec::new(),
            },
        });
    }
    for (j, &block) in hir.body.blocks.iter().enumerate() {
        let block_data = &hir[block];
        if block_data.type_name.is_empty() {
            continue;
        }
        let block_position = Some(position(j));
        let attribute_position =
            |name: &str| block_data.body.attributes.iter().position(|&it| hir[it].name == name).map(position);
        match (block_data.type_name.as_str(), block_data.labels.as_slice()) {
            ("variable", [name, ..]) => declarations.push(Declaration {
                address: Address::new(["var", name.as_str()]),
                kind: DeclarationKind::Variable {
                    type_attr: attribute_position("type").and_then(BodyPosition::new),
                    default_attr: attribute_position("default").and_then(BodyPosition::new),
                },
                location: Location {
                    block: block_position,
                    attribute: None,
                    labels: ThinVec::new(),
                    nested: ThinVec::new(),
                },
            }),
            ("local", [name])
                if let Some(attribute) = local_block_attribute(db, file).and_then(attribute_position) =>
            {
                let address = Address::new(["local", name.as_str()]);
                declarations.push(Declaration::at_attribute(
                    address,
                    DeclarationKind::Local,
                    block_position,
                    attribute,
                ));
            }
            ("variables", []) if has_variables_blocks(db, file) => {
                for (k, &attribute) in block_data.body.attributes.iter().enumerate() {
                    let name = &hir[attribute].name;
                    if !name.is_empty() {
                        declarations.push(Declaration::variables_member(name, block_position, position(k)));
                    }
                }
            }
            ("locals", []) => {
                for (k, &attribute) in block_data.body.attributes.iter().enumerate() {
                    let name = &hir[attribute].name;
                    if !name.is_empty() {
                        let address = Address::new(["local", name.as_str()]);
                        let local = DeclarationKind::Local;
                        declarations.push(Declaration::at_attribute(
                            address,
                            local,
                            block_position,
                            position(k),
                        ));
                    }
                }
            }
            (type_name, labels) => {
                let mut segments: Vec<SmolStr> = Vec::with_capacity(labels.len() + 2);
                segments.push(SmolStr::new(type_name));
                segments.extend(labels.iter().cloned());
                declarations.push(Declaration {
                    address: Address::new(segments.iter().cloned()),
                    kind: DeclarationKind::Block,
                    location: Location {
                        block: block_position,
                        attribute: None,
                        labels: ThinVec::new(),
                        nested: ThinVec::new(),
                    },
                });
                for (k, &attribute) in block_data.body.attributes.iter().enumerate() {
                    let name = &hir[attribute].name;
                    if name.is_empty() {
                        continue;
                    }
                    let mut segments = segments.clone();
                    segments.push(name.clone());
                    declarations.push(Declaration {
                        address: Address::new(segments),
                        kind: DeclarationKind::BlockAttribute,
                        location: Location {
                            block: block_position,
                            attribute: Some(position(k)),
                            labels: ThinVec::new(),
                            nested: ThinVec::new(),
                        },
                    });
                }
                nested_declarations(hir, &block_data.body, &segments, block_position, &mut declarations);
            }
        }
    }
    let mut scoped_data = Vec::new();
    for &block in &hir.body.blocks {
        if hir[block].type_name != "check" {
            continue;
        }
        for &nested in &hir[block].body.blocks {
            if let ("data", [type_name, name]) =
                (hir[nested].type_name.as_str(), hir[nested].labels.as_slice())
            {
                scoped_data.push((type_name.clone(), name.clone()));
            }
        }
    }
    // Kept for as long as the file is unchanged: without the growth's
    // slack, which was up to half of the list.
    declarations.shrink_to_fit();
    Arc::new(FileDeclarations { declarations, scoped_data, scoped_data_open: false })
}

/// The attribute whose value a `local "NAME" { … }` block gives
/// `local.NAME` in the language of `file`, if it has such blocks (see
/// [`crate::module::DialectRules::local_blocks`]).
pub(crate) fn local_block_attribute(db: &dyn Db, file: File) -> Option<&str> {
    db.dialects().rules_of_file(file.path(db))?.local_blocks.as_deref()
}

/// Whether `variables { NAME = DEFAULT … }` declares variables in the
/// language of `file` (see [`crate::module::DialectRules::variables_blocks`]).
pub(crate) fn has_variables_blocks(db: &dyn Db, file: File) -> bool {
    db.dialects().rules_of_file(file.path(db)).is_some_and(|rules| rules.variables_blocks)
}

/// What `file` declares, as the module-wide queries read it: the snapshot
/// the host keeps in the file's input ([`File::declarations`]) when there
/// is one, [`file_declarations`] otherwise. The snapshot is an input of the
/// structure's durability, set only when the declarations change, so that
/// after an edit of an expression the module's index is verified at a
/// glance instead of by a walk of every file's queries.
pub fn declarations_of(db: &dyn Db, file: File) -> &FileDeclarations {
    match file.declarations(db) {
        Some(snapshot) => snapshot,
        None => file_declarations(db, file),
    }
}

/// The attributes of the blocks nested in `body` (a top-level block's, at
/// `block`), at any depth, addressed under `prefix`.
fn nested_declarations(
    hir: &hir::FileHir,
    body: &hir::Body,
    prefix: &[SmolStr],
    block: Option<u32>,
    out: &mut Vec<Declaration>,
) {
    // Depth first in source order, by an explicit stack of blocks to visit
    // (each with its address and path): nesting is bounded by the parser,
    // but a walk that cannot overflow costs nothing more.
    let mut stack: Vec<(hir::BlockId, Vec<SmolStr>, Vec<u32>)> = Vec::new();
    push_children(hir, body, prefix, &[], &mut stack);
    while let Some((nested, segments, path)) = stack.pop() {
        let data = &hir[nested];
        for (k, &attribute) in data.body.attributes.iter().enumerate() {
            let name = &hir[attribute].name;
            if name.is_empty() {
                continue;
            }
            let mut address = segments.clone();
            address.push(name.clone());
            out.push(Declaration {
                address: Address::new(address),
                kind: DeclarationKind::NestedAttribute,
                location: Location {
                    block,
                    attribute: Some(position(k)),
                    labels: ThinVec::new(),
                    nested: path.as_slice().into(),
                },
            });
        }
        push_children(hir, &data.body, &segments, &path, &mut stack);
    }
}

/// Pushes the blocks of `body` for [`nested_declarations`], last first so
/// that the first comes off the stack first, each with its address (its
/// position among its kind added when its type and labels repeat).
fn push_children(
    hir: &hir::FileHir,
    body: &hir::Body,
    prefix: &[SmolStr],
    path: &[u32],
    stack: &mut Vec<(hir::BlockId, Vec<SmolStr>, Vec<u32>)>,
) {
    for (n, &nested) in body.blocks.iter().enumerate().rev() {
        let data = &hir[nested];
        // A `dynamic` block (`spec/ext-dynblock.md`) is a template of the
        // blocks it generates: its content refers to its iterator, which
        // only the expansion binds, so its attributes are not the module's.
        if data.type_name.is_empty() || data.type_name == "dynamic" {
            continue;
        }
        let same = |other: &&hir::BlockId| {
            hir[**other].type_name == data.type_name && hir[**other].labels == data.labels
        };
        let mut segments = prefix.to_vec();
        segments.push(data.type_name.clone());
        segments.extend(data.labels.iter().cloned());
        if body.blocks.iter().filter(same).count() > 1 {
            segments.push(SmolStr::new(body.blocks[..n].iter().filter(same).count().to_string()));
        }
        let mut nested_path = path.to_vec();
        nested_path.push(position(n));
        stack.push((nested, segments, nested_path));
    }
}

/// A declaration as the module knows it.
///
/// Its location is read from its file's declarations ([`Self::location`])
/// rather than copied here: the module's index holds a definition per
/// address, and a location (positions and two boxed slices) was most of
/// one. A reader of the location depends on the file's declarations, which
/// change only when the file's declarations do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub file: File,
    pub kind: DeclarationKind,
    /// Its place among its file's declarations (`FileDeclarations`), where
    /// [`crate::module::file_exprs`] keeps its expression.
    pub declaration: u32,
}

impl Definition {
    /// Where the declaration is in its file.
    pub fn location<'db>(&self, db: &'db dyn Db) -> &'db Location {
        &declarations_of(db, self.file).declarations[self.declaration as usize].location
    }
}

/// A second declaration of an address already declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub address: Address,
    pub kind: DeclarationKind,
    pub first: (File, Location),
    pub duplicate: (File, Location),
}

/// A labelled block as name resolution needs it: its attributes' names,
/// and the attributes of the blocks nested in it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockEntry {
    pub attributes: Vec<SmolStr>,
    /// The attributes of the blocks nested in it, at any depth, each by
    /// its address after the block's (`step.compile.run`, `step.0.run`
    /// where a nested block repeats), in declaration order: the block's
    /// value holds them, so a reference into them reads exactly the
    /// attributes it names. Empty in a dialect whose tool computes blocks'
    /// attributes ([`DialectRules::computed_attributes`]), where a
    /// reference past a block's own attributes is unknown anyway.
    pub nested: Vec<Box<[SmolStr]>>,
}

/// Whether a module's index lists the attributes of nested blocks
/// ([`BlockEntry::nested`]) under the rules of its dialect.
pub(crate) fn indexes_nested(rules: &DialectRules) -> bool {
    !rules.computed_attributes
}

/// The module's declarations by address, and what was declared twice, built
/// whole. Read it through the readers of `index.rs` ([`crate::module::definition`]
/// and the others), which answer from it or from the parts a caller that
/// changes files one at a time keeps.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleIndex {
    /// Every address's first declaration (files in path order). Hashed:
    /// ordering addresses segment by segment was a tenth of a check.
    pub definitions: Definitions,
    /// The names under `var` and under `local` (the second segment of
    /// their addresses), each in name order: the only roots whose names
    /// are listed.
    variables: Vec<SmolStr>,
    locals: Vec<SmolStr>,
    /// What each file defines and declares again, for readers that look at
    /// one file of a module.
    pub by_file: rustc_hash::FxHashMap<File, crate::module::FileIndex>,
    pub duplicates: Vec<Duplicate>,
    /// The label counts of each block type's blocks.
    pub block_types: crate::module::BlockTypes,
    /// The blocks that are root names (not `variable`, `locals`, nor a
    /// dialect's hidden types), by their address's first segment, then by
    /// the rest of their address (their labels).
    pub blocks: Blocks,
}

/// The blocks of a module's index, sorted by type, then by labels: a
/// reference finds its block by a binary search per step, not a scan of
/// every block of the type.
///
/// Three sorted slices rather than a map of maps: a module of a few files
/// declares a handful of blocks of each of a few types, and an ordered
/// map's node (room for eleven entries) per type was the largest part of
/// the index of every small module, kept for every module of a workspace.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Blocks {
    /// Each block type, in name order, with the end of its blocks in
    /// `labels` and `entries` (they start where the previous type's end).
    types: Box<[(SmolStr, u32)]>,
    /// Every block's labels, by type, in order.
    labels: Box<[Labels]>,
    /// Every block's entry, in the order of `labels`.
    entries: Box<[BlockEntry]>,
}

impl Blocks {
    /// The positions of the blocks of `block_type` in `labels` and
    /// `entries`.
    fn of_type(&self, block_type: &str) -> std::ops::Range<usize> {
        crate::module::index::run_of(&self.types, block_type).unwrap_or(0..0)
    }

    /// The block of type `block_type` with exactly `labels`.
    pub fn get(&self, block_type: &str, labels: &[SmolStr]) -> Option<&BlockEntry> {
        let range = self.of_type(block_type);
        let at = self.labels[range.clone()].binary_search_by(|it| it[..].cmp(labels)).ok()?;
        Some(&self.entries[range.start + at])
    }

    /// The labels of every block of `block_type`, in order.
    pub fn labels(&self, block_type: &str) -> &[Labels] {
        &self.labels[self.of_type(block_type)]
    }
}

impl From<BTreeMap<SmolStr, BTreeMap<Labels, BlockEntry>>> for Blocks {
    fn from(map: BTreeMap<SmolStr, BTreeMap<Labels, BlockEntry>>) -> Blocks {
        let mut types = Vec::with_capacity(map.len());
        let count = map.values().map(BTreeMap::len).sum();
        let (mut labels, mut entries) = (Vec::with_capacity(count), Vec::with_capacity(count));
        for (block_type, blocks) in map {
            for (block_labels, mut entry) in blocks {
                entry.attributes.shrink_to_fit();
                entry.nested.shrink_to_fit();
                labels.push(block_labels);
                entries.push(entry);
            }
            types.push((block_type, position(labels.len())));
        }
        Blocks { types: types.into(), labels: labels.into(), entries: entries.into() }
    }
}

/// A block's labels, shared by the index's map of blocks and its lists of
/// each type's labels.
pub type Labels = Arc<[SmolStr]>;

/// Every address's first declaration, in the order the module declares
/// them. The hash table holds only positions in that list, hashed and
/// compared through it: a map of addresses kept room for a key and a
/// value in each of its spare slots, a quarter of the index.
#[derive(Debug, Clone, Default)]
pub struct Definitions {
    entries: Vec<(Address, Definition)>,
    table: hashbrown::HashTable<u32>,
}

impl PartialEq for Definitions {
    fn eq(&self, other: &Definitions) -> bool {
        // The table is a function of the entries.
        self.entries == other.entries
    }
}

impl Eq for Definitions {}

impl Definitions {
    pub fn get(&self, address: &Address) -> Option<&Definition> {
        Some(self.get_key_value(address)?.1)
    }

    /// The address as the list holds it and its definition, if it has one.
    pub fn get_key_value(&self, address: &Address) -> Option<(&Address, &Definition)> {
        let at = self.table.find(address.table_hash(), |&at| &self.entries[at as usize].0 == address)?;
        let (address, definition) = &self.entries[*at as usize];
        Some((address, definition))
    }

    fn reserve(&mut self, additional: usize) {
        let entries = &self.entries;
        self.table.reserve(additional, |&at| entries[at as usize].0.table_hash());
        self.entries.reserve_exact(additional);
    }

    /// Adds the definition of an address that has none.
    fn insert_new(&mut self, address: Address, definition: Definition) {
        let entries = &self.entries;
        let at = u32::try_from(entries.len()).unwrap_or(u32::MAX);
        self.table.insert_unique(address.table_hash(), at, |&at| entries[at as usize].0.table_hash());
        self.entries.push((address, definition));
    }
}

impl ModuleIndex {
    /// The names declared under a root (`var`, `local`): the second segment
    /// of every address that starts with it, in name order.
    pub fn names(&self, root: &str) -> &[SmolStr] {
        match root {
            "var" => &self.variables,
            "local" => &self.locals,
            _ => &[],
        }
    }
}

/// The blocks that repeat and are not duplicates, each with its ordinal
/// among the blocks of the same type and labels, by file and position: a
/// block type without labels declared more than once (`moved`, `import`,
/// `rule`), and the dialect's repeatable labelled types (`provider "aws"`
/// with aliases). Each such block is addressed with its
/// ordinal after its labels: `moved.0.from`, `provider.aws.1.region`.
pub(crate) fn repeated_blocks(
    db: &dyn Db,
    module: Module,
    rules: &DialectRules,
) -> rustc_hash::FxHashMap<(File, u32), usize> {
    let mut by_address: BTreeMap<&Address, Vec<(File, u32)>> = BTreeMap::new();
    for &file in module_files(db, module) {
        for declaration in &declarations_of(db, file).declarations {
            if declaration.kind == DeclarationKind::Block
                && let Some(block) = declaration.location.block
                && let [type_name, labels @ ..] = &declaration.address.segments()[..]
                && (labels.is_empty() || rules.repeatable_block_types.contains(*type_name))
            {
                by_address.entry(&declaration.address).or_default().push((file, block));
            }
        }
    }
    by_address
        .into_values()
        .filter(|blocks| blocks.len() > 1)
        .flat_map(|blocks| blocks.into_iter().enumerate().map(|(ordinal, block)| (block, ordinal)))
        .collect()
}

/// The files of `module` that its dialect reads: all of them, unless its
/// plug-in reads only some ([`DialectPlugin::reads_file`]: a language that
/// ignores the other files of its directory, or merges some files into
/// others, which the model does not do).
///
/// [`DialectPlugin::reads_file`]: crate::module::DialectPlugin::reads_file
#[salsa::tracked(returns(ref))]
pub fn module_files(db: &dyn Db, module: Module) -> Vec<File> {
    let rules = module.dialect(db).rules(db);
    let files = module.files(db);
    let Some(plugin) = rules.plugin.as_ref().filter(|_| rules.reads_some_files_only) else {
        return files.clone();
    };
    let paths: FxHashSet<&Utf8Path> = files.iter().map(|file| file.path(db).as_path()).collect();
    files.iter().copied().filter(|file| plugin.0.reads_file(file.path(db), &paths)).collect()
}

/// Whether every file of `module` that its dialect reads parses without a
/// syntax error. A rule that concludes from the index that something is not
/// declared holds only then: the blocks after a syntax error are missing
/// from the index, not from the module.
#[salsa::tracked(returns(copy))]
pub fn module_parses(db: &dyn Db, module: Module) -> bool {
    module_files(db, module).iter().all(|&file| crate::parses_cleanly(db, file))
}

/// The address the module gives a declaration: a repeated block's ordinal
/// after its labels, and without the type name of the dialect's unprefixed
/// types (`resource`).
pub(crate) fn module_address(
    declaration: &Declaration,
    ordinal: Option<(usize, usize)>,
    rules: &DialectRules,
) -> Address {
    let segments = declaration.address.segments();
    let unprefixed = matches!(
        declaration.kind,
        DeclarationKind::Block | DeclarationKind::BlockAttribute | DeclarationKind::NestedAttribute
    ) && segments.len() > 1
        && rules.unprefixed_block_types.contains(segments[0]);
    if ordinal.is_none() && !unprefixed {
        return declaration.address.clone();
    }
    let mut segments: Vec<SmolStr> = segments.iter().copied().map(SmolStr::new).collect();
    if let Some((ordinal, at)) = ordinal {
        segments.insert(at.min(segments.len()), SmolStr::new(ordinal.to_string()));
    }
    if unprefixed {
        segments.remove(0);
    }
    Address::new(segments)
}

/// The block whose attributes [`module_index`] is reading: they follow
/// their block, so they are gathered here and the block's entry is put in
/// the ordered map of blocks with them when it closes, one search of the
/// map per block rather than one per attribute (or two per block).
#[derive(Default)]
struct OpenBlock {
    address: Option<Address>,
    attributes: Vec<SmolStr>,
    nested: Vec<Box<[SmolStr]>>,
}

impl OpenBlock {
    fn open(&mut self, address: Address) {
        self.address = Some(address);
    }

    /// Adds `name` if `block` is the open block's address.
    fn add(&mut self, block: &[SmolStr], name: &SmolStr) -> bool {
        let open =
            self.address.as_ref().is_some_and(|address| address.iter().eq(block.iter().map(SmolStr::as_str)));
        if open {
            self.attributes.push(name.clone());
        }
        open
    }

    /// Adds the nested attribute at `address` if it is under the open
    /// block's address (a nested attribute follows its block's
    /// declaration, which opened it if it is a root name).
    fn add_nested(&mut self, address: &Address) {
        if let Some(block) = &self.address
            && address.len() > block.len()
            && address.starts_with(block)
        {
            self.nested.push(address.iter().skip(block.len()).map(SmolStr::new).collect());
        }
    }

    fn close(&mut self, blocks: &mut BTreeMap<SmolStr, BTreeMap<Labels, BlockEntry>>) {
        let Some(address) = self.address.take() else { return };
        let attributes = std::mem::take(&mut self.attributes);
        let nested = std::mem::take(&mut self.nested);
        if let [type_name, labels @ ..] = &address.smol_segments()[..] {
            // A block's address is declared once (a duplicate is skipped
            // before it opens), so its labels have no entry yet.
            blocks
                .entry(type_name.clone())
                .or_default()
                .insert(Labels::from(labels), BlockEntry { attributes, nested });
        }
    }
}

/// Sorts `names` (distinct), leaving no spare room. Sorted as `&str`s
/// beside their positions: comparing `SmolStr`s reads each one's
/// representation again at every comparison, which made sorting a large
/// module's forty thousand local names a third of building its index, on
/// one thread before any other work can start.
fn sort_names(names: &mut Vec<SmolStr>) {
    let mut keyed: Vec<(&str, usize)> =
        names.iter().enumerate().map(|(at, name)| (name.as_str(), at)).collect();
    keyed.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let sorted: Vec<SmolStr> = keyed.iter().map(|&(_, at)| names[at].clone()).collect();
    drop(keyed);
    *names = sorted;
}

/// Sets how many modules' indexes [`module_index`] keeps; 0 for all.
pub(crate) fn set_module_indexes_kept(db: &mut dyn Db, modules: usize) {
    module_index::set_lru_capacity(db, modules);
}

/// The module's index, from its files' declarations and its dialect's
/// rules only: an edit that changes no declaration leaves it equal.
///
/// Every index is kept unless the state of idle modules may be evicted
/// (see [`crate::RootDatabase::set_idle_state_evictable`]): a workspace of
/// thousands of small modules kept every module's index, about a kilobyte
/// each, though a change reads only its own module's and its callers'. An
/// evicted index is built again from the declarations when asked for.
#[salsa::tracked(returns(ref), lru = 0)]
pub fn module_index(db: &dyn Db, module: Module) -> ModuleIndex {
    let mut index = ModuleIndex::default();
    let rules = module.dialect(db).rules(db);
    let ordinals = repeated_blocks(db, module, rules);
    let files = module_files(db, module);
    // Sized once: the index of a large module is rebuilt whenever a
    // declaration is added or removed, and growing it was a part of that.
    let declared: usize = files.iter().map(|&file| declarations_of(db, file).declarations.len()).sum();
    index.definitions.reserve(declared);
    index.by_file.reserve(files.len());
    let mut open_block = OpenBlock::default();
    // Gathered in ordered maps, then kept as sorted slices (see [`Blocks`]).
    let mut blocks: BTreeMap<SmolStr, BTreeMap<Labels, BlockEntry>> = BTreeMap::new();
    for &file in files {
        let declarations = &declarations_of(db, file).declarations;
        // Sized for every declaration: kept whole, and grown it kept up to
        // half again as much room.
        let mut file_addresses = Vec::with_capacity(declarations.len());
        let mut file_duplicates = Vec::new();
        // The position of a block whose declaration was a duplicate: its
        // attributes are left out, so each address has one definition.
        let mut skipped_block = None;
        // The current block's label count, where a repeated block's ordinal
        // goes in its attributes' addresses.
        let mut block_length = 0;
        for (number, declaration) in declarations.iter().enumerate() {
            if matches!(declaration.kind, DeclarationKind::BlockAttribute | DeclarationKind::NestedAttribute)
                && skipped_block.is_some()
                && skipped_block == declaration.location.block
            {
                continue;
            }
            if declaration.kind == DeclarationKind::Block {
                block_length = declaration.address.len();
            }
            let ordinal = match declaration.kind {
                DeclarationKind::Block
                | DeclarationKind::BlockAttribute
                | DeclarationKind::NestedAttribute => declaration
                    .location
                    .block
                    .and_then(|block| ordinals.get(&(file, block)))
                    .map(|&ordinal| (ordinal, block_length)),
                _ => None,
            };
            let address = module_address(declaration, ordinal, rules);
            if let Some((first_address, first)) = index.definitions.get_key_value(&address) {
                let duplicate = Duplicate {
                    address: first_address.clone(),
                    kind: declaration.kind.clone(),
                    first: (first.file, first.location(db).clone()),
                    duplicate: (file, declaration.location.clone()),
                };
                file_duplicates.push(duplicate.clone());
                index.duplicates.push(duplicate);
                if declaration.kind == DeclarationKind::Block {
                    skipped_block = declaration.location.block;
                }
                continue;
            }
            let is_root_name = |type_name: &SmolStr| {
                declaration.address.first().is_none_or(|it| !rules.hidden_block_types.contains(it))
                    && !type_name.is_empty()
            };
            // The segments as strings once, for the patterns below and the
            // index's lists of names and labels.
            let segments = address.smol_segments();
            match declaration.kind {
                DeclarationKind::Block => {
                    open_block.close(&mut blocks);
                    if let [type_name, ..] = &segments[..]
                        && is_root_name(type_name)
                    {
                        open_block.open(address.clone());
                    }
                }
                DeclarationKind::BlockAttribute => {
                    if let Some((name, block @ [type_name, labels @ ..])) = segments.split_last()
                        && is_root_name(type_name)
                        && !open_block.add(block, name)
                        && let Some(entry) =
                            blocks.get_mut(type_name).and_then(|entries| entries.get_mut(labels))
                    {
                        entry.attributes.push(name.clone());
                    }
                }
                DeclarationKind::NestedAttribute if indexes_nested(rules) => open_block.add_nested(&address),
                _ => {}
            }
            match &segments[..] {
                [root, name] if root == "var" => index.variables.push(name.clone()),
                [root, name] if root == "local" => index.locals.push(name.clone()),
                _ => {}
            }
            file_addresses.push(address.clone());
            index.definitions.insert_new(
                address,
                Definition { file, kind: declaration.kind.clone(), declaration: position(number) },
            );
        }
        if !file_addresses.is_empty() || !file_duplicates.is_empty() {
            index.by_file.insert(
                file,
                crate::module::FileIndex { addresses: file_addresses.into(), duplicates: file_duplicates },
            );
        }
    }
    open_block.close(&mut blocks);
    for names in [&mut index.variables, &mut index.locals] {
        sort_names(names);
    }
    index.block_types = blocks
        .iter()
        .map(|(block_type, entries)| {
            let depths: BTreeSet<usize> = entries.keys().map(|it| it.len()).collect();
            (block_type.clone(), depths.into_iter().collect())
        })
        .collect();
    index.blocks = Blocks::from(blocks);
    index
}
