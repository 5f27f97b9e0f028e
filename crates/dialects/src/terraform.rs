//! Terraform and OpenTofu: `*.tf`, `*.tf.json`, `*.tofu` and
//! `*.tofu.json`, as `docs/architecture.md` ("Dialects") describes.
//!
//! - Roots and scopes ([`rules`]): every root Terraform's addressing knows
//!   (`internal/addrs/parse_ref.go`), so a root that is none of them is a
//!   managed resource's type; `data`, `ephemeral` and `module` checked
//!   against their blocks; `count`, `each`, `path`, `self` unknown; the
//!   meta-arguments that are references by name, not expressions.
//! - Functions ([`functions`]): Terraform's table, with exact signatures.
//! - The unit: a directory's Terraform files, without override files and
//!   without a `.tf` file whose `.tofu` twin is there.
//! - Checks only Terraform makes: namespaced calls a module cannot resolve.
//! - Formatting: `terraform fmt`'s style for the files it formats.
//!
//! How units reference each other (a `module` block's local `source`) is
//! the generic model's `module_calls`, which reads the `module` blocks this
//! dialect makes opaque.

mod functions;

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use camino::Utf8Path;
use db::{
    Db, File, FormatStyle,
    module::{AddressedRoot, DialectPlugin, DialectRules, Module, ModuleDiagnostic, PluginRef, ResourceMode},
};
pub(crate) use functions::unknown_result;
pub use functions::{functions, namespaced_calls, provider_function_diagnostics};
use rustc_hash::FxHashSet;
use smol_str::SmolStr;

/// Terraform's and OpenTofu's dialect.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terraform;

/// The one shared instance of [`Terraform`], which [`crate::standard`]
/// registers: rules that hold it compare equal to the registry's.
pub fn plugin() -> Arc<dyn DialectPlugin> {
    static PLUGIN: std::sync::OnceLock<Arc<dyn DialectPlugin>> = std::sync::OnceLock::new();
    Arc::clone(PLUGIN.get_or_init(|| Arc::new(Terraform)))
}

/// Terraform's rules with their plug-in, for a caller that sets a module's
/// dialect itself rather than by its files' names.
pub fn plugin_rules() -> DialectRules {
    DialectRules { plugin: Some(PluginRef(plugin())), ..rules() }
}

impl DialectPlugin for Terraform {
    fn name(&self) -> &str {
        "terraform"
    }

    fn claims(&self, path: &Utf8Path) -> bool {
        vfs::FileKind::of(path).is_some_and(vfs::FileKind::is_terraform)
    }

    fn rules(&self) -> DialectRules {
        rules()
    }

    fn functions(&self, table: &mut BTreeMap<String, eval::Function>) {
        functions::apply(table);
    }

    fn namespaces(&self) -> BTreeMap<String, eval::Function> {
        functions::namespaces()
    }

    /// Only `*.tf` and `*.tf.json` and OpenTofu's `*.tofu` and
    /// `*.tofu.json` (Terraform itself ignores the others: a
    /// `terragrunt.hcl` or a `*.tftest.hcl` beside them is another
    /// language, which a front end may evaluate as a module of its own),
    /// and not its override files: Terraform merges those into the
    /// declarations they override, which the model does not do, and
    /// reading them as more declarations would report every override as a
    /// duplicate. A `.tf` file whose `.tofu` twin is in the module
    /// (`main.tf` beside `main.tofu`, `main.tf.json` beside
    /// `main.tofu.json`) is left out too, as OpenTofu leaves it out: a
    /// module written for both tools keeps Terraform's version in the `.tf`
    /// file and OpenTofu's in the `.tofu` one, and reading both would
    /// declare everything twice.
    fn reads_file(&self, path: &Utf8Path, siblings: &FxHashSet<&Utf8Path>) -> bool {
        self.claims(path) && !vfs::is_terraform_override_file(path) && !has_tofu_twin(path, siblings)
    }

    fn file_diagnostics(&self, db: &dyn Db, module: Module, file: File) -> Vec<ModuleDiagnostic> {
        provider_function_diagnostics(db, module, file)
    }

    fn read_while_parsed(&self, db: &dyn Db, file: File) {
        let _ = namespaced_calls(db, file);
    }

    /// `terraform fmt`'s style for the files it formats (`*.tf`,
    /// `*.tfvars`, `*.tftest.hcl`, `*.tfmock.hcl`, `*.tfquery.hcl`, and
    /// OpenTofu's `*.tofu` and `*.tofutest.hcl`; see
    /// [`vfs::is_terraform_fmt_file`]).
    fn format_style(&self, path: &Utf8Path) -> Option<FormatStyle> {
        vfs::is_terraform_fmt_file(path).then_some(FormatStyle::Terraform)
    }
}

/// Whether `path` is a `.tf` or `.tf.json` file that OpenTofu ignores
/// because `paths` has the same name ending in `.tofu` or `.tofu.json`
/// (`filterTfPathsWithTofuAlternatives` in opentofu/opentofu's
/// `internal/configs/parser_config_dir.go`). The twin is looked for in the
/// same directory, since OpenTofu compares whole paths.
fn has_tofu_twin(path: &Utf8Path, paths: &FxHashSet<&Utf8Path>) -> bool {
    // Only `.tf` and `.tf.json` have a twin: `.tofu` does not start with
    // `.tf`.
    let Some((stem, extension)) = vfs::terraform_stem(path) else { return false };
    let Some(json) = extension.strip_prefix(".tf") else { return false };
    let twin = path.with_file_name(format!("{stem}.tofu{json}"));
    paths.contains(twin.as_path())
}

fn names(list: &[&str]) -> BTreeSet<SmolStr> {
    list.iter().copied().map(SmolStr::new).collect()
}

/// The Terraform language's rules, built once: a check makes a module
/// per directory, thousands of times, and the standard library's table
/// they read is not small.
pub fn rules() -> DialectRules {
    static RULES: std::sync::OnceLock<DialectRules> = std::sync::OnceLock::new();
    RULES.get_or_init(build_rules).clone()
}

fn build_rules() -> DialectRules {
    // The names whose function is not the standard library's: an
    // attribute calling one reads the dialect's table.
    let own_functions = functions::names_differing_from_stdlib();
    let mut static_attributes = BTreeMap::new();
    static_attributes.insert(
        SmolStr::new("*"),
        names(&["depends_on", "provider", "providers", "ignore_changes", "replace_triggered_by"]),
    );
    static_attributes.insert(SmolStr::new("moved"), names(&["from", "to"]));
    static_attributes.insert(SmolStr::new("import"), names(&["to"]));
    static_attributes.insert(SmolStr::new("removed"), names(&["from"]));
    static_attributes.insert(SmolStr::new("provisioner"), names(&["when", "on_failure"]));
    // `configuration_aliases = [aws.west]` names providers.
    static_attributes.insert(SmolStr::new("required_providers"), names(&["*"]));
    // An output's `type` is a type constraint, as a variable's.
    static_attributes.insert(SmolStr::new("output"), names(&["type"]));
    // `experiments = [name]` and `language = TF2021` are keywords.
    static_attributes.insert(SmolStr::new("terraform"), names(&["experiments", "language"]));
    // Terraform 1.14's actions: `events = [after_create]`.
    static_attributes.insert(SmolStr::new("action_trigger"), names(&["events", "actions"]));
    DialectRules {
        // A root no declaration names is an error, not a run-time value.
        undeclared_roots_unknown: false,
        name: "terraform".into(),
        plugin: None,
        chosen_by_files: true,
        // Every root `parse_ref.go` knows besides `var`, `local` and
        // resource types: `data`, `module` and `ephemeral` are checked
        // against their blocks first (see `addressed_roots`); `list`
        // (query files), `caller`, `action` (whose references sit in static
        // attributes) and the reserved `template`, `lazy` and `arg` stay
        // unknown; a bare `string`, `number`, `bool` or `any` is a type
        // constraint, not a resource.
        unknown_roots: names(&[
            "count",
            "each",
            "path",
            "terraform",
            "self",
            "data",
            "module",
            "action",
            "ephemeral",
            "list",
            "caller",
            "template",
            "lazy",
            "arg",
            "string",
            "number",
            "bool",
            "any",
        ]),
        unprefixed_block_types: names(&["resource"]),
        hidden_block_types: names(&[
            "output",
            "provider",
            "terraform",
            "moved",
            "import",
            "removed",
            "check",
        ]),
        repeatable_block_types: names(&["provider"]),
        opaque_block_types: names(&["module"]),
        computed_attributes: true,
        repetition_attributes: names(&["count", "for_each"]),
        static_attributes,
        unset_variables_unknown: true,
        reads_some_files_only: true,
        label_counts: [
            ("resource", 2),
            ("data", 2),
            ("ephemeral", 2),
            ("action", 2),
            ("module", 1),
            ("variable", 1),
            ("output", 1),
            ("provider", 1),
            ("check", 1),
            ("locals", 0),
            ("terraform", 0),
            ("moved", 0),
            ("import", 0),
            ("removed", 0),
        ]
        .into_iter()
        .map(|(name, count)| (SmolStr::new(name), count))
        .collect(),
        own_functions,
        knows_every_root: true,
        addressed_roots: [
            ("module", AddressedRoot::UnitCall),
            ("data", AddressedRoot::Resource(ResourceMode::Data)),
            ("ephemeral", AddressedRoot::Resource(ResourceMode::Ephemeral)),
        ]
        .into_iter()
        .map(|(name, kind)| (SmolStr::new(name), kind))
        .collect(),
        // Terraform's own blocks are checked by `analysis::terraform`,
        // whose schemas are richer than this generic form.
        block_schemas: BTreeMap::new(),
        closed_block_types: false,
        default_functions: BTreeSet::new(),
        local_blocks: None,
        variables_blocks: false,
        importing_block_types: BTreeSet::new(),
        // Terraform's unknown functions are found without evaluation
        // (`analysis::terraform`), in every Terraform file.
        knows_every_function: true,
    }
}
