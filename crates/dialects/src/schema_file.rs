//! An embedder's language declared in a schema file, as hcldec's spec files
//! declare a body's shape: the dialect a `[[dialect]]` table of
//! `halite.toml` names, so that `halite check` checks an application's own
//! configuration language without the application's code.
//!
//! ```hcl
//! # Roots and functions the tool provides: known names, unknown values.
//! root "project" {}
//! function "shell_words" {}
//!
//! block "target" {
//!   labels = ["name"]
//!   attribute "output" {
//!     type     = string
//!     required = true
//!   }
//!   attribute "deps" {
//!     type = list(string)
//!   }
//!   block "step" {
//!     labels = ["name"]
//!     attribute "run" {
//!       type     = string
//!       required = true
//!     }
//!   }
//! }
//! ```
//!
//! A `block` declares a block type: its labels' names (their count is what
//! a block of the type must have), its attributes (with a type constraint,
//! as a variable's `type`, and whether they are required) and the block
//! types nested in it, declared the same way. The top-level `block`s, with
//! `variable` and `locals`, are every top-level block type of the language.
//! Mistakes in the file are diagnostics with their place, as HCL reports
//! them.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use camino::Utf8Path;
use db::module::{BlockSchema, DialectPlugin, DialectRules};
use decode::{AttributeSchema, BlockHeaderSchema, Body, BodySchema, Diagnostic, Diagnostics, SourceFile};
use smol_str::SmolStr;

/// What a schema file declares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SchemaFile {
    /// The top-level block types, with their shapes.
    pub blocks: BTreeMap<SmolStr, BlockSchema>,
    /// Root names the tool provides (`project.name`), unknown to a check.
    pub roots: BTreeSet<SmolStr>,
    /// Functions the tool provides, whose results are unknown to a check.
    pub functions: BTreeSet<SmolStr>,
}

impl SchemaFile {
    /// Reads the schema file `name` (the name its diagnostics give) of
    /// `text`; its mistakes are the error, in the order of the file.
    pub fn parse(name: &str, text: &str) -> Result<SchemaFile, Diagnostics> {
        let file = SourceFile::native(name, text);
        let mut diagnostics = file.syntax_diagnostics();
        if !diagnostics.is_empty() {
            return Err(diagnostics);
        }
        let (content, found) = file.body().content(&BodySchema {
            attributes: Vec::new(),
            blocks: vec![labelled("root"), labelled("function"), labelled("block")],
        });
        diagnostics.extend(found);
        let mut schema = SchemaFile::default();
        for block in &content.blocks {
            let name = block.labels.first().cloned().unwrap_or_default();
            match block.type_name.as_str() {
                "root" => {
                    diagnostics.extend(block.body.content(&BodySchema::default()).1);
                    schema.roots.insert(name);
                }
                "function" => {
                    diagnostics.extend(block.body.content(&BodySchema::default()).1);
                    schema.functions.insert(name);
                }
                _ => {
                    if schema.blocks.contains_key(&name) {
                        diagnostics.push(duplicate("block", &name, block));
                        continue;
                    }
                    schema.blocks.insert(name, block_schema(&block.body, &mut diagnostics));
                }
            }
        }
        if diagnostics.is_empty() {
            return Ok(schema);
        }
        diagnostics.sort_by_key(|it| it.subject.as_ref().map(|it| it.start.byte));
        Err(diagnostics)
    }

    /// The language's rules: HCL's generic ones, with these blocks checked
    /// against their shapes, and these roots and functions known.
    pub fn rules(&self, name: &str) -> DialectRules {
        DialectRules {
            name: name.into(),
            unknown_roots: self.roots.clone(),
            own_functions: self.functions.clone(),
            block_schemas: self.blocks.clone(),
            closed_block_types: true,
            ..DialectRules::generic()
        }
    }
}

fn labelled(type_name: &str) -> BlockHeaderSchema {
    BlockHeaderSchema { type_name: type_name.into(), label_names: vec!["name".into()] }
}

fn duplicate(what: &str, name: &str, block: &decode::Block) -> Diagnostic {
    Diagnostic::error(
        format!("Duplicate {what}"),
        format!("The {what} {name:?} is declared twice; each name is declared once."),
        Some(block.def_range.clone()),
    )
}

/// The shape a `block` declaration's body gives.
fn block_schema(body: &Body, diagnostics: &mut Diagnostics) -> BlockSchema {
    let (content, found) = body.content(&BodySchema {
        attributes: vec![AttributeSchema { name: "labels".into(), required: false }],
        blocks: vec![labelled("attribute"), labelled("block")],
    });
    diagnostics.extend(found);
    let mut schema = BlockSchema::default();
    if let Some(labels) = content.attribute("labels") {
        let (value, found) = labels.expr.value(&eval::Context::none());
        diagnostics.extend(found);
        let strings = value.elements().filter(|elements| elements.iter().all(|it| it.as_str().is_some()));
        match strings {
            Some(elements) => schema.labels = elements.len(),
            None => diagnostics.push(Diagnostic::error(
                "Invalid labels",
                "The labels are a list of their names, as strings: `labels = [\"name\"]`.",
                Some(labels.expr.range()),
            )),
        }
    }
    for block in &content.blocks {
        let name = block.labels.first().cloned().unwrap_or_default();
        if block.type_name == "block" {
            if schema.blocks.contains(&name) {
                diagnostics.push(duplicate("block", &name, block));
                continue;
            }
            schema.blocks.push(name.clone());
            schema.nested.insert(name, block_schema(&block.body, diagnostics));
            continue;
        }
        if schema.attributes.iter().any(|(it, _)| *it == name) {
            diagnostics.push(duplicate("attribute", &name, block));
            continue;
        }
        let (content, found) = block.body.content(&BodySchema {
            attributes: vec![
                AttributeSchema { name: "type".into(), required: false },
                AttributeSchema { name: "required".into(), required: false },
            ],
            blocks: Vec::new(),
        });
        diagnostics.extend(found);
        let mut required = false;
        if let Some(attribute) = content.attribute("required") {
            let (value, found) = attribute.expr.value(&eval::Context::none());
            diagnostics.extend(found);
            match value.as_bool() {
                Some(it) => required = it,
                _ => diagnostics.push(Diagnostic::error(
                    "Invalid required",
                    "`required` is `true` or `false`.",
                    Some(attribute.expr.range()),
                )),
            }
        }
        if let Some(attribute) = content.attribute("type") {
            match decode::typeexpr::type_constraint(&attribute.expr) {
                Ok(ty) => {
                    schema.types.insert(name.clone(), ty);
                }
                Err(found) => diagnostics.extend(found),
            }
        }
        schema.attributes.push((name, required));
    }
    schema
}

/// A language a schema file declares, claiming the files `claims` says
/// (a configuration's globs, say): a plug-in of the registry like any
/// other, registered after the standard ones so that it wins where it
/// claims a module's files.
pub struct SchemaDialect {
    name: String,
    claims: Arc<dyn Fn(&Utf8Path) -> bool + Send + Sync>,
    rules: DialectRules,
}

impl SchemaDialect {
    pub fn new(
        name: impl Into<String>,
        schema: &SchemaFile,
        claims: Arc<dyn Fn(&Utf8Path) -> bool + Send + Sync>,
    ) -> SchemaDialect {
        let name = name.into();
        let rules = schema.rules(&name);
        SchemaDialect { name, claims, rules }
    }
}

impl DialectPlugin for SchemaDialect {
    fn name(&self) -> &str {
        &self.name
    }

    fn claims(&self, path: &Utf8Path) -> bool {
        (self.claims)(path)
    }

    fn rules(&self) -> DialectRules {
        self.rules.clone()
    }
}
