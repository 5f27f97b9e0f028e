//! Nomad's jobspecs (`*.nomad`, `*.nomad.hcl`).
//!
//! The generic model reads their `variable` and `locals` blocks; runtime
//! interpolations (`${NOMAD_…}`, `${node.…}`, `${attr.…}`) are Nomad's to
//! expand when it places a task, and are left alone, since the module
//! rules report nothing a Nomad file's roots could provide.

use camino::Utf8Path;
use db::module::{DialectPlugin, DialectRules, Grouping};

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

    /// A root no declaration names is Nomad's to expand when it places a
    /// task (`jobspec2`'s undefined-variable hook keeps `${attr.…}`,
    /// `${node.…}`, `${NOMAD_…}` as text for the client): unknown here.
    fn rules(&self) -> DialectRules {
        DialectRules { name: "nomad".into(), undeclared_roots_unknown: true, ..DialectRules::generic() }
    }

    /// Each job file a unit of its own: Nomad reads one file per job
    /// (`jobspec2/parse.go`'s `Parse(path, r)`), so a directory of jobs is
    /// not one module, and a job's `var.NAME` is declared in its own file.
    fn grouping(&self, path: &Utf8Path) -> Grouping {
        let _ = path;
        Grouping::File
    }
}
