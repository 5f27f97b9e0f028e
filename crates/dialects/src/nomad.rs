//! Nomad's jobspecs (`*.nomad`, `*.nomad.hcl`).
//!
//! The generic model reads their `variable` and `locals` blocks; runtime
//! interpolations (`${NOMAD_…}`, `${node.…}`, `${attr.…}`) are Nomad's to
//! expand when it places a task, and are left alone, since the module
//! rules report nothing a Nomad file's roots could provide.

use camino::Utf8Path;
use db::module::{DialectPlugin, DialectRules};

/// Nomad's dialect.
#[derive(Debug, Clone, Copy, Default)]
pub struct Nomad;

impl DialectPlugin for Nomad {
    fn name(&self) -> &str {
        "nomad"
    }

    fn claims(&self, path: &Utf8Path) -> bool {
        crate::is_language(path, vfs::Language::Nomad)
    }

    fn rules(&self) -> DialectRules {
        DialectRules { name: "nomad".into(), ..DialectRules::generic() }
    }
}
