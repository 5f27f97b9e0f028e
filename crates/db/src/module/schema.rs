//! Block schemas a dialect declares for its own top-level blocks
//! ([`DialectRules::block_schemas`]), and the check of a native file's
//! blocks against them: HCL's own findings (an argument or a nested block
//! type the schema does not have, a required argument left out, a wrong
//! number of labels), with HCL's summaries.

use eval::suggest;
use smol_str::SmolStr;
use syntax::TextRange;

use crate::{
    Db, File, SourceSyntax,
    module::{DialectRules, Module, ModuleDiagnostic, ModuleDiagnosticKind, diagnostics::header_range},
};

/// The shape of one top-level block type: its labels, its arguments, and
/// the nested block types it may hold (their contents not checked).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockSchema {
    pub labels: usize,
    /// Each argument's name and whether it is required.
    pub attributes: Vec<(SmolStr, bool)>,
    pub blocks: Vec<SmolStr>,
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
        }
    }
}

/// The schema findings of `file`'s top-level blocks, by the schemas of
/// `module`'s dialect, when the dialect claims the file. A JSON file is
/// not checked (its blocks have no shape without a schema's labels).
#[salsa::tracked(returns(ref))]
pub fn schema_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let rules = module.dialect(db).rules(db);
    if rules.block_schemas.is_empty() || file.syntax(db) != SourceSyntax::Native || !claims(rules, file, db) {
        return Vec::new();
    }
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
    for &id in &hir.body.blocks {
        let block = &hir.blocks[id];
        let Some(schema) = rules.block_schemas.get(&block.type_name) else { continue };
        let header = range_of(source_map.block_syntax(id));
        if block.labels.len() > schema.labels {
            push(header, SchemaViolation::ExtraneousLabel { block_type: block.type_name.clone() });
        } else if block.labels.len() < schema.labels {
            push(header, SchemaViolation::MissingLabel { block_type: block.type_name.clone() });
        }
        let names = || schema.attributes.iter().map(|(name, _)| name.as_str());
        for &attribute in &block.body.attributes {
            let name = &hir.attributes[attribute].name;
            if !names().any(|it| it == name) {
                let suggestion = suggest(name, names()).map(SmolStr::new);
                let range = range_of(source_map.attribute_syntax(attribute));
                push(range, SchemaViolation::UnsupportedArgument { name: name.clone(), suggestion });
            }
        }
        for &nested in &block.body.blocks {
            let name = &hir.blocks[nested].type_name;
            if !schema.blocks.contains(name) {
                let suggestion = suggest(name, schema.blocks.iter().map(SmolStr::as_str)).map(SmolStr::new);
                let range = range_of(source_map.block_syntax(nested));
                push(range, SchemaViolation::UnsupportedBlock { name: name.clone(), suggestion });
            }
        }
        for (name, _) in schema.attributes.iter().filter(|(_, required)| *required) {
            if !block.body.attributes.iter().any(|&it| hir.attributes[it].name == *name) {
                push(header, SchemaViolation::MissingArgument { name: name.clone() });
            }
        }
    }
    out
}

fn claims(rules: &DialectRules, file: File, db: &dyn Db) -> bool {
    rules.plugin.as_ref().is_some_and(|plugin| plugin.0.claims(file.path(db)))
}
