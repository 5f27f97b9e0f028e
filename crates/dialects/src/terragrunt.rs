//! Terragrunt's units (`terragrunt.hcl`, `*.terragrunt.hcl`,
//! `terragrunt.stack.hcl`).
//!
//! The generic model reads a unit's `locals` and its labelled blocks
//! (`dependency.NAME`, `include.NAME`). How units reference each other
//! (`include`, `dependency`, `read_terragrunt_config`) is not modelled
//! yet: a unit is checked alone, and what another unit or an included file
//! provides is left to the module rules' trust by language.

use camino::Utf8Path;
use db::module::{DialectPlugin, DialectRules};

/// Terragrunt's dialect.
#[derive(Debug, Clone, Copy, Default)]
pub struct Terragrunt;

impl DialectPlugin for Terragrunt {
    fn name(&self) -> &str {
        "terragrunt"
    }

    fn claims(&self, path: &Utf8Path) -> bool {
        crate::is_language(path, vfs::Language::Terragrunt)
    }

    fn rules(&self) -> DialectRules {
        DialectRules { name: "terragrunt".into(), ..DialectRules::generic() }
    }
}
