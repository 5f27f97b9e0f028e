//! Block schemas a dialect declares for its own top-level blocks
//! ([`DialectRules::block_schemas`]), and the check of a native file's
//! blocks against them: HCL's own findings (an argument or a block type
//! the schema does not have, a required argument left out, a wrong number
//! of labels, an argument's value of the wrong type), with HCL's
//! summaries, in nested blocks too where the schema gives their shape.

use std::collections::BTreeMap;

use eval::suggest;
use smol_str::SmolStr;
use syntax::TextRange;
use value::Type;

use crate::{
    Db, File, SourceSyntax,
    module::{
        Attr, DeclarationKind, DialectRules, Module, ModuleDiagnostic, ModuleDiagnosticKind,
        declarations::{declarations_of, module_address, repeated_blocks},
        diagnostics::header_range,
        value::attribute_value,
    },
};

/// The shape of one block type: its labels, its arguments (each with
/// whether it is required, and its type if the schema gives one), and the
/// nested block types it may hold, with their own shapes where the schema
/// gives them (a type in `blocks` without one is not checked inside).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockSchema {
    pub labels: usize,
    /// Each argument's name and whether it is required.
    pub attributes: Vec<(SmolStr, bool)>,
    pub blocks: Vec<SmolStr>,
    /// The types of the arguments that have one: an argument's value must
    /// convert to it (an unknown value always may).
    pub types: BTreeMap<SmolStr, Type>,
    /// The shapes of nested block types, by type.
    pub nested: BTreeMap<SmolStr, BlockSchema>,
}

/// What a block breaks of its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SchemaViolation {
    UnsupportedArgument {
        name: SmolStr,
        suggestion: Option<SmolStr>,
    },
    UnsupportedBlock {
        name: SmolStr,
        suggestion: Option<SmolStr>,
    },
    MissingArgument {
        name: SmolStr,
    },
    /// More labels than the type takes.
    ExtraneousLabel {
        block_type: SmolStr,
    },
    /// Fewer labels than the type takes.
    MissingLabel {
        block_type: SmolStr,
    },
    /// An argument's value that does not convert to its type: `message`
    /// says why (go-cty's words, "a number is required").
    IncorrectType {
        name: SmolStr,
        message: String,
    },
}

impl SchemaViolation {
    /// HCL's summary.
    pub fn summary(&self) -> String {
        match self {
            SchemaViolation::UnsupportedArgument { .. } => "Unsupported argument".into(),
            SchemaViolation::UnsupportedBlock { .. } => "Unsupported block type".into(),
            SchemaViolation::MissingArgument { .. } => "Missing required argument".into(),
            SchemaViolation::ExtraneousLabel { block_type } => format!("Extraneous label for {block_type}"),
            SchemaViolation::MissingLabel { block_type } => format!("Missing name for {block_type}"),
            SchemaViolation::IncorrectType { .. } => "Incorrect attribute value type".into(),
        }
    }

    fn detail(&self) -> String {
        let did_you_mean = |suggestion: &Option<SmolStr>| {
            suggestion.as_ref().map(|it| format!(" Did you mean {it:?}?")).unwrap_or_default()
        };
        match self {
            SchemaViolation::UnsupportedArgument { name, suggestion } => {
                format!("An argument named {name:?} is not expected here.{}", did_you_mean(suggestion))
            }
            SchemaViolation::UnsupportedBlock { name, suggestion } => {
                format!("Blocks of type {name:?} are not expected here.{}", did_you_mean(suggestion))
            }
            SchemaViolation::MissingArgument { name } => {
                format!("The argument {name:?} is required, but no definition was found.")
            }
            SchemaViolation::ExtraneousLabel { .. } => {
                "This block has more labels than its type takes.".into()
            }
            SchemaViolation::MissingLabel { .. } => "This block has fewer labels than its type takes.".into(),
            SchemaViolation::IncorrectType { name, message } => {
                format!("Inappropriate value for attribute {name:?}: {message}.")
            }
        }
    }
}

/// The schema findings of `file`'s blocks, by the schemas of `module`'s
/// dialect, when the dialect claims the file: each top-level block of a
/// type with a schema, and the blocks nested in it whose types have one;
/// where the dialect's block types are closed
/// ([`DialectRules::closed_block_types`]), a top-level block of any other
/// type. An argument with a type is evaluated and its value converted. A
/// JSON file is not checked (its blocks have no shape without a schema's
/// labels).
///
/// Asked of every file of every module by the report, and most dialects
/// have no schemas: then nothing is asked of the database but the rules,
/// since the query, keyed by module and file, kept an interned key and a
/// memo per file for an empty list (120 bytes a file).
pub fn schema_diagnostics(db: &dyn Db, module: Module, file: File) -> &[ModuleDiagnostic] {
    let rules = module.dialect(db).rules(db);
    if rules.block_schemas.is_empty() || file.syntax(db) != SourceSyntax::Native || !claims(rules, file, db) {
        return &[];
    }
    file_schema_diagnostics(db, module, file)
}

/// [`schema_diagnostics`] of a file its dialect claims and has schemas for.
#[salsa::tracked(returns(ref))]
fn file_schema_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let rules = module.dialect(db).rules(db);
    let hir = crate::lower(db, file);
    let source_map = crate::source_map(db, file);
    let root = crate::parse(db, file).syntax_node();
    let range_of = |pointer: Option<hir::SyntaxNodePtr>| -> TextRange {
        pointer.and_then(|it| it.try_to_node(&root)).map(|node| header_range(&node)).unwrap_or_default()
    };
    let mut out = Vec::new();
    let mut push = |range: TextRange, violation: SchemaViolation| {
        out.push(ModuleDiagnostic {
            file,
            range,
            detail: violation.detail(),
            kind: ModuleDiagnosticKind::Schema(violation),
            related: Vec::new(),
        });
    };
    let typed = TypedAttributes::new(db, module, file, rules);
    for (position, &id) in hir.body.blocks.iter().enumerate() {
        let block = &hir.blocks[id];
        let Some(schema) = rules.block_schemas.get(&block.type_name) else {
            if rules.closed_block_types && !matches!(block.type_name.as_str(), "variable" | "locals" | "") {
                let types = rules.block_schemas.keys().map(SmolStr::as_str).chain(["variable", "locals"]);
                let suggestion = suggest(&block.type_name, types).map(SmolStr::new);
                let range = range_of(source_map.block_syntax(id));
                push(range, SchemaViolation::UnsupportedBlock { name: block.type_name.clone(), suggestion });
            }
            continue;
        };
        // Each block to check with its schema and its path of nested
        // positions below the top-level one.
        let mut stack: Vec<(hir::BlockId, &BlockSchema, Vec<u32>)> = vec![(id, schema, Vec::new())];
        while let Some((id, schema, path)) = stack.pop() {
            let block = &hir.blocks[id];
            let header = range_of(source_map.block_syntax(id));
            if block.labels.len() > schema.labels {
                push(header, SchemaViolation::ExtraneousLabel { block_type: block.type_name.clone() });
            } else if block.labels.len() < schema.labels {
                push(header, SchemaViolation::MissingLabel { block_type: block.type_name.clone() });
            }
            let names = || schema.attributes.iter().map(|(name, _)| name.as_str());
            for (k, &attribute) in block.body.attributes.iter().enumerate() {
                let name = &hir.attributes[attribute].name;
                if !names().any(|it| it == name) {
                    let suggestion = suggest(name, names()).map(SmolStr::new);
                    let range = range_of(source_map.attribute_syntax(attribute));
                    push(range, SchemaViolation::UnsupportedArgument { name: name.clone(), suggestion });
                } else if let Some(ty) = schema.types.get(name)
                    && let Some(message) = typed.mismatch(position, &path, k, ty)
                {
                    let value = hir.attributes[attribute].value;
                    let range = source_map
                        .expr_syntax(value)
                        .map(|it| it.text_range())
                        .unwrap_or_else(|| range_of(source_map.attribute_syntax(attribute)));
                    push(range, SchemaViolation::IncorrectType { name: name.clone(), message });
                }
            }
            for (n, &nested) in block.body.blocks.iter().enumerate() {
                let name = &hir.blocks[nested].type_name;
                if !schema.blocks.contains(name) && name != "dynamic" {
                    let suggestion =
                        suggest(name, schema.blocks.iter().map(SmolStr::as_str)).map(SmolStr::new);
                    let range = range_of(source_map.block_syntax(nested));
                    push(range, SchemaViolation::UnsupportedBlock { name: name.clone(), suggestion });
                } else if let Some(nested_schema) = schema.nested.get(name) {
                    let mut nested_path = path.clone();
                    nested_path.push(crate::module::declarations::position(n));
                    stack.push((nested, nested_schema, nested_path));
                }
            }
            for (name, _) in schema.attributes.iter().filter(|(_, required)| *required) {
                if !block.body.attributes.iter().any(|&it| hir.attributes[it].name == *name) {
                    push(header, SchemaViolation::MissingArgument { name: name.clone() });
                }
            }
        }
    }
    out.sort_by_key(|it| it.range.start());
    out
}

/// The values of a file's attributes by where they are written, for the
/// check of their types: each found through its declaration (the module's
/// address of it, a repeated top-level block's ordinal included).
struct TypedAttributes<'db> {
    db: &'db dyn Db,
    module: Module,
    file: File,
    rules: &'db DialectRules,
    ordinals: std::cell::OnceCell<rustc_hash::FxHashMap<(File, u32), usize>>,
}

impl<'db> TypedAttributes<'db> {
    fn new(db: &'db dyn Db, module: Module, file: File, rules: &'db DialectRules) -> TypedAttributes<'db> {
        TypedAttributes { db, module, file, rules, ordinals: std::cell::OnceCell::new() }
    }

    /// Why the value of the attribute at `attribute` in the block at
    /// `nested` below the file's top-level block `block` does not convert
    /// to `ty`, if it does not; nothing when it has no value (its own
    /// diagnostic says why) or is not known.
    fn mismatch(&self, block: usize, nested: &[u32], attribute: usize, ty: &Type) -> Option<String> {
        let block = crate::module::declarations::position(block);
        let attribute = crate::module::declarations::position(attribute);
        let declarations = &declarations_of(self.db, self.file).declarations;
        let declaration = declarations.iter().find(|it| {
            matches!(it.kind, DeclarationKind::BlockAttribute | DeclarationKind::NestedAttribute)
                && it.location.block == Some(block)
                && it.location.attribute == Some(attribute)
                && *it.location.nested == *nested
        })?;
        let top = declarations
            .iter()
            .find(|it| it.kind == DeclarationKind::Block && it.location.block == Some(block))?;
        // Only a block that may repeat has an ordinal, which takes every
        // file's declarations to find: not read for the others.
        let may_repeat = match top.address.segments()[..] {
            [_] => true,
            [type_name, ..] => self.rules.repeatable_block_types.contains(type_name),
            [] => false,
        };
        let ordinal = may_repeat
            .then(|| self.ordinals.get_or_init(|| repeated_blocks(self.db, self.module, self.rules)))
            .and_then(|ordinals| ordinals.get(&(self.file, block)))
            .map(|&ordinal| (ordinal, top.address.segments().len()));
        let address = module_address(declaration, ordinal, self.rules);
        let value = attribute_value(self.db, Attr::new(self.db, self.module, address)).as_ref().ok()?;
        value::convert(value, ty).err().map(|error| error.to_string())
    }
}

fn claims(rules: &DialectRules, file: File, db: &dyn Db) -> bool {
    rules.plugin.as_ref().is_some_and(|plugin| plugin.0.claims(file.path(db)))
}
