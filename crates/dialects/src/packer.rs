//! Packer's templates (`*.pkr.hcl`, `*.pkr.json`), after Packer's
//! `hcl2template` package.
//!
//! - Roots: `var.`, `local.` and `data.TYPE.NAME` are the generic model's;
//!   `path` (`path.root`, `path.cwd`) and `packer` (`packer.version`) are
//!   what Packer provides when it runs, unknown here.
//! - Functions: Packer's table (`hcl2template/functions.go`): the names it
//!   shares with Terraform's, as Terraform's table has them, and its own
//!   (`env`, the secret stores', the legacy time formats, `uuidv4`, …),
//!   whose results are what Packer finds when it runs, unknown here. A
//!   name Packer lacks (`tostring`) is an unknown function, as in Packer.
//!   `env` is the one function Packer allows in a variable's default;
//!   `convert(value, type)`, whose second argument is a type, is not
//!   read yet.
//! - `source.name`, `source.type` and `build.*` are the source and build
//!   being run, which Packer fills in: unknown here, and `source` and
//!   `build` blocks are no root names (Packer names them by strings). A
//!   data source's attributes are what it finds when Packer runs, unknown
//!   here; its labels are checked.
//!
//! Packer reads a directory's templates as one configuration, which the
//! generic module is; templates do not reference one another.

use std::collections::BTreeMap;

use camino::Utf8Path;
use db::{
    Db, File,
    module::{
        Address, DeclarationKind, DialectPlugin, DialectRules, Module, ModuleDiagnostic,
        ModuleDiagnosticKind, Unresolved, declarations_of, definition, module_files,
    },
};
use eval::{Function, Param, Type};
use smol_str::SmolStr;

use crate::terraform::unknown_result;

/// Packer's dialect.
#[derive(Debug, Clone, Copy, Default)]
pub struct Packer;

impl DialectPlugin for Packer {
    fn name(&self) -> &str {
        "packer"
    }

    fn claims(&self, path: &Utf8Path) -> bool {
        crate::is_language(path, vfs::Language::Packer)
    }

    fn rules(&self) -> DialectRules {
        let names = |list: &[&str]| list.iter().copied().map(SmolStr::new).collect();
        // Every name whose function differs from the standard library's:
        // Terraform's own that Packer shares, Packer's own, and the
        // standard library's Packer lacks.
        let own_functions = crate::terraform::rules()
            .own_functions
            .into_iter()
            .filter(|name| SHARED_WITH_TERRAFORM.contains(&name.as_str()))
            .chain(own_functions().into_keys().map(SmolStr::from))
            .chain(
                eval::stdlib::functions()
                    .into_keys()
                    .filter(|name| !SHARED_WITH_TERRAFORM.contains(&name.as_str()))
                    .map(SmolStr::from),
            )
            .collect();
        DialectRules {
            name: "packer".into(),
            // `source` and `build` in an expression are the source and the
            // build being run (`source.name`, `build.ID`), which Packer
            // fills in, not the blocks of those types: those are named by
            // strings (`sources = ["source.null.a"]`).
            unknown_roots: names(&["path", "packer", "source", "build"]),
            // The `packer { required_version … }` settings block is no
            // value either: `packer.version` is Packer's.
            hidden_block_types: names(&["source", "build", "packer"]),
            // A data source's attributes are what it finds when Packer
            // runs (`data.amazon-ami.ubuntu.id`); its labels are checked.
            opaque_block_types: names(&["data"]),
            own_functions,
            knows_every_function: true,
            default_functions: names(&["env"]),
            // `local "NAME" { expression = … sensitive = true }`: Packer's
            // local of one value (sensitive ones are hidden from its logs).
            local_blocks: Some("expression".into()),
            // `variables { NAME = DEFAULT }`, Packer's variables of no type.
            variables_blocks: true,
            // A JSON template's blocks, by their labels
            // (`hcl2template/parser.go`'s schema).
            label_counts: [
                ("packer", 0),
                ("source", 2),
                ("data", 2),
                ("variable", 1),
                ("variables", 0),
                ("locals", 0),
                ("local", 1),
                ("build", 0),
            ]
            .into_iter()
            .map(|(name, count)| (SmolStr::new(name), count))
            .collect(),
            ..DialectRules::generic()
        }
    }

    /// Terraform's functions of the names Packer shares, then Packer's own.
    fn functions(&self, table: &mut BTreeMap<String, Function>) {
        crate::terraform::Terraform.functions(table);
        table.retain(|name, _| SHARED_WITH_TERRAFORM.contains(&name.as_str()));
        table.extend(own_functions());
    }

    /// A `build` block's `sources` entry that names no `source` block of
    /// the template, which Packer refuses ("Unknown source TYPE.NAME").
    fn file_diagnostics(&self, db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
        unknown_source_diagnostics(db, module, file)
    }

    /// What [`Packer::file_diagnostics`] reads of the file: its builds'
    /// sources.
    fn read_while_parsed(&self, db: &dyn Db, file: File) {
        let _ = build_sources(db, file);
    }
}

/// A `build` block's `sources` entry of `file` (a literal string in a
/// literal list), where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildSource {
    pub text: SmolStr,
    pub range: syntax::TextRange,
}

/// The `sources` entries of a native file's `build` blocks: a query of
/// the file, found while its tree is in memory
/// ([`DialectPlugin::read_while_parsed`]), so that the template's report,
/// asked after the tree is dropped, does not lower the file again.
#[salsa::tracked(returns(ref))]
pub fn build_sources(db: &dyn Db, file: File) -> Vec<BuildSource> {
    if file.syntax(db) != db::SourceSyntax::Native {
        return Vec::new();
    }
    let hir = db::lower(db, file);
    let mut out = Vec::new();
    for &block in &hir.body.blocks {
        let block = &hir[block];
        if block.type_name != "build" {
            continue;
        }
        for &attribute in &block.body.attributes {
            let attribute = &hir[attribute];
            let hir::Expr::Tuple(items) = &hir[attribute.value] else { continue };
            if attribute.name != "sources" {
                continue;
            }
            for &item in items {
                let hir::Expr::Template { parts, .. } = &hir[item] else { continue };
                let [hir::TemplatePart::Literal(text)] = parts.as_slice() else { continue };
                let range = db::source_map(db, file)
                    .expr_syntax(item)
                    .map(|pointer| pointer.text_range())
                    .unwrap_or_default();
                out.push(BuildSource { text: text.clone(), range });
            }
        }
    }
    out
}

/// Each `"source.TYPE.NAME"` of the file's [`build_sources`] whose
/// `source "TYPE" "NAME"` block no file of the template declares, with the
/// nearest declared one.
fn unknown_source_diagnostics(db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
    let mut out = Vec::new();
    let mut declared: Option<Vec<String>> = None;
    for source in build_sources(db, file) {
        let [root, source_type, name] = source.text.split('.').collect::<Vec<_>>()[..] else { continue };
        if root != "source" || definition(db, module, &Address::new([root, source_type, name])).is_some() {
            continue;
        }
        let declared = declared.get_or_insert_with(|| declared_sources(db, module));
        let suggestion = eval::suggest(&source.text, declared.iter().map(String::as_str));
        let mut detail = format!("The template declares no source \"{source_type}\" \"{name}\".");
        if let Some(suggestion) = &suggestion {
            detail.push_str(&format!(" Did you mean \"{suggestion}\"?"));
        }
        out.push(ModuleDiagnostic {
            file,
            range: source.range,
            kind: ModuleDiagnosticKind::Unresolved(Unresolved::UndeclaredBlock {
                block_type: "source".into(),
                label: format!("{source_type}.{name}").into(),
                suggestion: None,
            }),
            detail,
            related: Vec::new(),
        });
    }
    out
}

/// Every source the template declares, as `source.TYPE.NAME`.
fn declared_sources(db: &dyn Db, module: Module) -> Vec<String> {
    module_files(db, module)
        .iter()
        .flat_map(|&file| declarations_of(db, file).declarations.iter())
        .filter(|declaration| declaration.kind == DeclarationKind::Block)
        .filter_map(|declaration| match declaration.address.segments()[..] {
            ["source", source_type, name] => Some(format!("source.{source_type}.{name}")),
            _ => None,
        })
        .collect()
}

/// The functions of Packer's table (`hcl2template/functions.go`) that
/// Terraform's table has too, alike.
const SHARED_WITH_TERRAFORM: &[&str] = &[
    "abs",
    "abspath",
    "alltrue",
    "anytrue",
    "basename",
    "base64decode",
    "base64encode",
    "base64gzip",
    "bcrypt",
    "can",
    "ceil",
    "chomp",
    "chunklist",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "dirname",
    "distinct",
    "element",
    "endswith",
    "file",
    "filebase64",
    "fileexists",
    "fileset",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "log",
    "lookup",
    "lower",
    "max",
    "md5",
    "merge",
    "min",
    "parseint",
    "pathexpand",
    "pow",
    "range",
    "reverse",
    "replace",
    "regex",
    "regexall",
    "rsadecrypt",
    "setintersection",
    "setproduct",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "startswith",
    "strcontains",
    "strrev",
    "substr",
    "sum",
    "textdecodebase64",
    "textencodebase64",
    "timestamp",
    "timeadd",
    "title",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "upper",
    "urlencode",
    "uuidv5",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
    "templatefile",
];

/// Packer's own functions, each a value Packer finds when it runs (the
/// environment, a secret store, the clock, a random identifier): unknown
/// here, of its type.
fn own_functions() -> BTreeMap<String, Function> {
    let string = |params: &[&str]| {
        unknown_result(params.iter().map(|name| Param::new(name, Type::String)).collect(), None, Type::String)
    };
    let object = |param: &str| unknown_result(vec![Param::new(param, Type::String)], None, Type::Dynamic);
    BTreeMap::from([
        // `env(key string) string`: the variable's value when Packer runs.
        ("env".to_owned(), string(&["key"])),
        ("aws_secretsmanager".to_owned(), string(&["name", "key"])),
        ("aws_secretsmanager_raw".to_owned(), string(&["name"])),
        ("consul_key".to_owned(), string(&["key"])),
        ("vault".to_owned(), string(&["path", "key"])),
        ("legacy_isotime".to_owned(), string(&["format"])),
        ("legacy_strftime".to_owned(), string(&["format"])),
        ("regex_replace".to_owned(), string(&["str", "substr", "replace"])),
        ("uuidv4".to_owned(), string(&[])),
        ("rfc3339_parse".to_owned(), object("timestamp")),
        ("unix_timestamp_parse".to_owned(), object("timestamp")),
        // Its second argument is a type, which the evaluator does not read
        // as one yet: known by name, so that a check does not call it
        // unknown.
        (
            "convert".to_owned(),
            unknown_result(
                vec![Param::new("value", Type::Dynamic), Param::new("type", Type::Dynamic)],
                None,
                Type::Dynamic,
            ),
        ),
    ])
}
