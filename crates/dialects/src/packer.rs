//! Packer's templates (`*.pkr.hcl`, `*.pkr.json`).
//!
//! The generic model reads them (`var.`, `local.`, `data.TYPE.NAME` as
//! labelled blocks); what Packer adds is left to the module rules' trust by
//! language, which report only what holds whatever Packer provides.

use camino::Utf8Path;
use db::module::{DialectPlugin, DialectRules};

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
        DialectRules { name: "packer".into(), ..DialectRules::generic() }
    }
}
