//! The block structure of a module as it is written: each block with its
//! type, its labels, its attributes and the blocks nested in it, for
//! embedders that read a whole configuration (the library's addresses and
//! its serde decoding) rather than one attribute at a time.
//!
//! [`file_blocks`] is one file's structure, position-free but for the
//! [`Location`]s the declarations use, so it compares equal after an edit
//! that changes only expressions; [`module_blocks`] joins the files'
//! structures with the module's index, giving each attribute the
//! [`Address`] its value is queried by. It re-runs only when a file's
//! structure or the index changes.
//!
//! `variable` and `locals` blocks are the module's own declarations, not
//! part of its structure; nor are `dynamic` blocks, templates of blocks that
//! only their expansion makes. In a JSON file the module's fixed schema
//! applies (see `json.rs`): a top-level property is a block type with its
//! labels, and what is inside a block is attributes, objects included.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use smol_str::SmolStr;
use syntax::TextRange;
use thin_vec::ThinVec;

use crate::{
    Db, File,
    module::{
        Address, DeclarationKind, Location, Module,
        declarations::{declarations_of, module_files, position},
        index::IndexView,
    },
};

/// A block of one file: its type and labels, where it is, its attributes
/// (by name, with where each is) and the blocks nested in it, in source
/// order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBlock {
    pub type_name: SmolStr,
    pub labels: Box<[SmolStr]>,
    /// Its place among the blocks of its body with the same type and
    /// labels, when there is more than one; a top-level block's is given by
    /// [`module_blocks`], across the module's files.
    pub index: Option<u32>,
    pub location: Location,
    pub attributes: Vec<(SmolStr, Location)>,
    pub blocks: Vec<FileBlock>,
}

/// One file's top-level blocks (not `variable` nor `locals`) and top-level
/// attributes, in source order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileBlocks {
    pub attributes: Vec<(SmolStr, Location)>,
    pub blocks: Vec<FileBlock>,
}

/// The block structure of `file`.
#[salsa::tracked(returns(ref))]
pub fn file_blocks(db: &dyn Db, file: File) -> Arc<FileBlocks> {
    if file.syntax(db) == crate::SourceSyntax::Json {
        return Arc::new(json_blocks(declarations_of(db, file)));
    }
    let hir = crate::lower(db, file);
    let mut out = FileBlocks::default();
    for (i, &attribute) in hir.body.attributes.iter().enumerate() {
        let name = &hir[attribute].name;
        if !name.is_empty() {
            out.attributes.push((name.clone(), location(None, Some(i), &[])));
        }
    }
    for (j, &block) in hir.body.blocks.iter().enumerate() {
        let data = &hir[block];
        if matches!(data.type_name.as_str(), "" | "variable" | "locals" | "dynamic") {
            continue;
        }
        out.blocks.push(native_block(hir, data, position(j), &[], None));
    }
    Arc::new(out)
}

fn location(block: Option<u32>, attribute: Option<usize>, nested: &[u32]) -> Location {
    Location { block, attribute: attribute.map(position), labels: ThinVec::new(), nested: nested.into() }
}

/// A block of a native file and what is nested in it. Recursion is bounded
/// by the parser's nesting limit.
fn native_block(
    hir: &hir::FileHir,
    data: &hir::Block,
    top: u32,
    nested: &[u32],
    index: Option<u32>,
) -> FileBlock {
    let attributes = data
        .body
        .attributes
        .iter()
        .enumerate()
        .filter(|(_, id)| !hir[**id].name.is_empty())
        .map(|(k, &id)| (hir[id].name.clone(), location(Some(top), Some(k), nested)))
        .collect();
    let mut blocks = Vec::new();
    for (n, &child) in data.body.blocks.iter().enumerate() {
        let child_data = &hir[child];
        if matches!(child_data.type_name.as_str(), "" | "dynamic") {
            continue;
        }
        let same = |other: &&hir::BlockId| {
            hir[**other].type_name == child_data.type_name && hir[**other].labels == child_data.labels
        };
        let index = (data.body.blocks.iter().filter(same).count() > 1)
            .then(|| position(data.body.blocks[..n].iter().filter(same).count()));
        let mut path = nested.to_vec();
        path.push(position(n));
        blocks.push(native_block(hir, child_data, top, &path, index));
    }
    FileBlock {
        type_name: data.type_name.clone(),
        labels: data.labels.as_slice().into(),
        index,
        location: location(Some(top), None, nested),
        attributes,
        blocks,
    }
}

/// A JSON file's blocks, from its declarations: each block declaration is
/// followed by its attributes'.
fn json_blocks(declarations: &crate::module::FileDeclarations) -> FileBlocks {
    let mut out = FileBlocks::default();
    for declaration in &declarations.declarations {
        match declaration.kind {
            DeclarationKind::Block => {
                let segments = declaration.address.smol_segments();
                let [type_name, labels @ ..] = &segments[..] else { continue };
                out.blocks.push(FileBlock {
                    type_name: type_name.clone(),
                    labels: labels.into(),
                    index: None,
                    location: declaration.location.clone(),
                    attributes: Vec::new(),
                    blocks: Vec::new(),
                });
            }
            DeclarationKind::BlockAttribute => {
                let (Some(block), Some(name)) = (out.blocks.last_mut(), declaration.address.last()) else {
                    continue;
                };
                block.attributes.push((SmolStr::new(name), declaration.location.clone()));
            }
            DeclarationKind::TopLevelAttribute => {
                if let Some(name) = declaration.address.last() {
                    out.attributes.push((SmolStr::new(name), declaration.location.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

/// A block of the module: a [`FileBlock`] with its file, and its attributes
/// with the addresses their values are queried by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleBlock {
    pub type_name: SmolStr,
    pub labels: Box<[SmolStr]>,
    /// Its place among the blocks of its body (for a top-level block, of
    /// the module) with the same type and labels, when there is more than
    /// one.
    pub index: Option<u32>,
    pub file: File,
    pub location: Location,
    pub attributes: Vec<ModuleAttribute>,
    pub blocks: Vec<ModuleBlock>,
}

/// An attribute of the module's structure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleAttribute {
    pub name: SmolStr,
    /// The address of its value (see [`crate::module::attribute_value`]).
    pub address: Address,
    pub file: File,
    pub location: Location,
}

/// The module's structure: its files' top-level attributes and blocks,
/// files in path order. A block declared twice (a duplicate the module
/// reports) is there once, as its first declaration.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleBlocks {
    pub attributes: Vec<ModuleAttribute>,
    pub blocks: Vec<ModuleBlock>,
}

/// The block structure of `module`.
#[salsa::tracked(returns(ref))]
pub fn module_blocks(db: &dyn Db, module: Module) -> Arc<ModuleBlocks> {
    let index = IndexView::of(db, module);
    let mut out = ModuleBlocks::default();
    for &file in module_files(db, module) {
        let addresses: FxHashMap<&Location, &Address> = index
            .file_index(file)
            .addresses
            .iter()
            .filter_map(|address| {
                let definition = index.definition(address)?;
                let kept = matches!(
                    definition.kind,
                    DeclarationKind::Block
                        | DeclarationKind::BlockAttribute
                        | DeclarationKind::NestedAttribute
                        | DeclarationKind::TopLevelAttribute
                );
                kept.then_some((definition.location(db), address))
            })
            .collect();
        let blocks = file_blocks(db, file);
        let attribute = |(name, location): &(SmolStr, Location)| {
            addresses.get(location).map(|&address| ModuleAttribute {
                name: name.clone(),
                address: address.clone(),
                file,
                location: location.clone(),
            })
        };
        out.attributes.extend(blocks.attributes.iter().filter_map(attribute));
        for block in &blocks.blocks {
            // A duplicate's declaration is not the index's.
            if addresses.contains_key(&block.location) {
                out.blocks.push(module_block(block, file, &attribute));
            }
        }
    }
    // Top-level blocks repeat across files: numbered in module order.
    let mut counts: FxHashMap<(&SmolStr, &[SmolStr]), u32> = FxHashMap::default();
    for block in &out.blocks {
        *counts.entry((&block.type_name, &block.labels[..])).or_default() += 1;
    }
    let mut seen: FxHashMap<(SmolStr, Box<[SmolStr]>), u32> = FxHashMap::default();
    let repeated: Vec<bool> =
        out.blocks.iter().map(|block| counts[&(&block.type_name, &block.labels[..])] > 1).collect();
    for (block, repeated) in out.blocks.iter_mut().zip(repeated) {
        if repeated {
            let next = seen.entry((block.type_name.clone(), block.labels.clone())).or_default();
            block.index = Some(*next);
            *next += 1;
        }
    }
    Arc::new(out)
}

fn module_block(
    block: &FileBlock,
    file: File,
    attribute: &impl Fn(&(SmolStr, Location)) -> Option<ModuleAttribute>,
) -> ModuleBlock {
    ModuleBlock {
        type_name: block.type_name.clone(),
        labels: block.labels.clone(),
        index: block.index,
        file,
        location: block.location.clone(),
        attributes: block.attributes.iter().filter_map(attribute).collect(),
        blocks: block.blocks.iter().map(|nested| module_block(nested, file, attribute)).collect(),
    }
}

/// Which part of a declaration a range is wanted for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeOf {
    /// An attribute's name, or a block's header (its type and labels).
    Name,
    /// An attribute's value (a block's header).
    Value,
}

/// The range in `file` of what `location` names, nested blocks included:
/// see [`RangeOf`].
pub fn location_range(db: &dyn Db, file: File, location: &Location, part: RangeOf) -> TextRange {
    if file.syntax(db) == crate::SourceSyntax::Json {
        let value = part == RangeOf::Value && location.attribute.is_some();
        return crate::module::json::range(db, file, location, value).unwrap_or_default();
    }
    let hir = crate::lower(db, file);
    let source_map = crate::source_map(db, file);
    let pointer = match (location.attribute, part) {
        (Some(attribute), _) => {
            let id = crate::module::value::body_at(hir, location)
                .and_then(|body| body.attributes.get(attribute as usize).copied());
            match (id, part) {
                (Some(id), RangeOf::Value) => source_map.expr_syntax(hir[id].value),
                (Some(id), RangeOf::Name) => source_map.attribute_syntax(id),
                (None, _) => None,
            }
        }
        (None, _) => {
            let mut id = location.block.and_then(|block| hir.body.blocks.get(block as usize).copied());
            for &nested in &location.nested {
                id = id.and_then(|id| hir[id].body.blocks.get(nested as usize).copied());
            }
            id.and_then(|id| source_map.block_syntax(id))
        }
    };
    let Some(pointer) = pointer else { return TextRange::empty(0.into()) };
    if part == RangeOf::Value && location.attribute.is_some() {
        return pointer.text_range();
    }
    let root = crate::parse(db, file).syntax_node();
    match pointer.try_to_node(&root) {
        Some(node) => crate::module::diagnostics::header_range(&node),
        None => pointer.text_range(),
    }
}
