//! What each file declares, and the module's index of declarations.
//!
//! Both are projections of the files' HIR that leave the expressions out, so
//! they compare equal after an edit that changes only expressions: salsa
//! then backdates them and nothing that reads them re-runs.

use std::collections::BTreeMap;

use smol_str::SmolStr;

use crate::{
    Db, File,
    module::{Address, Module},
};

/// What a declaration is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeclarationKind {
    /// `variable "NAME" { … }`, addressed `var.NAME`. `type_attr` and
    /// `default_attr` are the positions of its `type` and `default`
    /// attributes in the block's body, if it has them.
    Variable { type_attr: Option<u32>, default_attr: Option<u32> },
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
}

impl DeclarationKind {
    /// Whether the declaration is an attribute with an expression of its own
    /// (what `halite eval DIR` prints).
    pub fn is_attribute(&self) -> bool {
        matches!(
            self,
            DeclarationKind::Local | DeclarationKind::BlockAttribute | DeclarationKind::TopLevelAttribute
        )
    }
}

/// Where a declaration is in its file: the position of its top-level
/// block in the file's body, and of its attribute in that block's body (or
/// in the file's body for a top-level attribute). Positions, not arena ids:
/// they change only when declarations are added or removed before it.
///
/// In a JSON file, `block` counts the root object's properties, `label` the
/// properties of that block type's object (the block's one label), and
/// `attribute` those of the block's body; an array of objects at any level
/// counts as its objects' properties in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    pub block: Option<u32>,
    pub attribute: Option<u32>,
    pub label: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    pub address: Address,
    pub kind: DeclarationKind,
    pub location: Location,
}

/// A file's declarations in source order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileDeclarations {
    pub declarations: Vec<Declaration>,
}

pub(crate) fn position(index: usize) -> u32 {
    u32::try_from(index).unwrap_or(u32::MAX)
}

/// What `file` declares. Reads the file's HIR, which changes with every
/// expression; the result does not, so an expression edit stops here.
#[salsa::tracked(returns(ref))]
pub fn file_declarations(db: &dyn Db, file: File) -> FileDeclarations {
    if file.syntax(db) == crate::SourceSyntax::Json {
        return crate::module::json::declarations(db, file);
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
            location: Location { block: None, attribute: Some(position(i)), label: None },
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
                    type_attr: attribute_position("type"),
                    default_attr: attribute_position("default"),
                },
                location: Location { block: block_position, attribute: None, label: None },
            }),
            ("locals", []) => {
                for (k, &attribute) in block_data.body.attributes.iter().enumerate() {
                    let name = &hir[attribute].name;
                    if name.is_empty() {
                        continue;
                    }
                    declarations.push(Declaration {
                        address: Address::new(["local", name.as_str()]),
                        kind: DeclarationKind::Local,
                        location: Location {
                            block: block_position,
                            attribute: Some(position(k)),
                            label: None,
                        },
                    });
                }
            }
            (type_name, labels) => {
                let mut segments: Vec<SmolStr> = Vec::with_capacity(labels.len() + 2);
                segments.push(SmolStr::new(type_name));
                segments.extend(labels.iter().cloned());
                declarations.push(Declaration {
                    address: Address { segments: segments.clone() },
                    kind: DeclarationKind::Block,
                    location: Location { block: block_position, attribute: None, label: None },
                });
                for (k, &attribute) in block_data.body.attributes.iter().enumerate() {
                    let name = &hir[attribute].name;
                    if name.is_empty() {
                        continue;
                    }
                    let mut segments = segments.clone();
                    segments.push(name.clone());
                    declarations.push(Declaration {
                        address: Address { segments },
                        kind: DeclarationKind::BlockAttribute,
                        location: Location {
                            block: block_position,
                            attribute: Some(position(k)),
                            label: None,
                        },
                    });
                }
            }
        }
    }
    FileDeclarations { declarations }
}

/// A declaration as the module knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub file: File,
    pub kind: DeclarationKind,
    pub location: Location,
}

/// A second declaration of an address already declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub address: Address,
    pub kind: DeclarationKind,
    pub first: (File, Location),
    pub duplicate: (File, Location),
}

/// A labelled block as name resolution needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockEntry {
    pub labels: Vec<SmolStr>,
    pub attributes: Vec<SmolStr>,
}

/// The module's declarations by address, and what was declared twice.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleIndex {
    /// Every address's first declaration (files in path order).
    pub definitions: BTreeMap<Address, Definition>,
    /// Addresses in declaration order.
    pub order: Vec<Address>,
    pub duplicates: Vec<Duplicate>,
    /// Blocks other than `variable` and `locals`, by type.
    pub blocks: BTreeMap<SmolStr, Vec<BlockEntry>>,
}

impl ModuleIndex {
    /// The names declared under a root (`var`, `local`): the second segment
    /// of every address that starts with it.
    pub fn names_under<'a>(&'a self, root: &'a str) -> impl Iterator<Item = &'a SmolStr> + 'a {
        self.definitions
            .range(Address::new([root])..)
            .take_while(move |(address, _)| address.segments.first().is_some_and(|it| it == root))
            .filter_map(|(address, _)| address.segments.get(1).filter(|_| address.segments.len() == 2))
    }
}

/// The module's index, from its files' declarations only: an edit that
/// changes no declaration leaves it equal.
#[salsa::tracked(returns(ref))]
pub fn module_index(db: &dyn Db, module: Module) -> ModuleIndex {
    let mut index = ModuleIndex::default();
    for &file in module.files(db) {
        // The position of a block whose declaration was a duplicate: its
        // attributes are left out, so each address has one definition.
        let mut skipped_block = None;
        for declaration in &file_declarations(db, file).declarations {
            if declaration.kind == DeclarationKind::BlockAttribute
                && skipped_block.is_some()
                && skipped_block == declaration.location.block
            {
                continue;
            }
            if let Some(first) = index.definitions.get(&declaration.address) {
                index.duplicates.push(Duplicate {
                    address: declaration.address.clone(),
                    kind: declaration.kind.clone(),
                    first: (first.file, first.location),
                    duplicate: (file, declaration.location),
                });
                if declaration.kind == DeclarationKind::Block {
                    skipped_block = declaration.location.block;
                }
                continue;
            }
            match declaration.kind {
                DeclarationKind::Block => {
                    let segments = declaration.address.segments();
                    index
                        .blocks
                        .entry(segments[0].clone())
                        .or_default()
                        .push(BlockEntry { labels: segments[1..].to_vec(), attributes: Vec::new() });
                }
                DeclarationKind::BlockAttribute => {
                    let segments = declaration.address.segments();
                    if let Some((name, block)) = segments.split_last()
                        && let Some(entry) = index
                            .blocks
                            .get_mut(&block[0])
                            .and_then(|entries| entries.iter_mut().rev().find(|it| it.labels == block[1..]))
                    {
                        entry.attributes.push(name.clone());
                    }
                }
                _ => {}
            }
            index.order.push(declaration.address.clone());
            index.definitions.insert(
                declaration.address.clone(),
                Definition { file, kind: declaration.kind.clone(), location: declaration.location },
            );
        }
    }
    index
}
