//! Packer's templates (`*.pkr.hcl`, `*.pkr.json`), after Packer's
//! `hcl2template` package.
//!
//! - Roots: `var.`, `local.` and `data.TYPE.NAME` are the generic model's;
//!   `path` (`path.root`, `path.cwd`) and `packer` (`packer.version`) are
//!   what Packer provides when it runs, unknown here.
//! - Functions: the standard library, and `env(name)`, which reads the
//!   environment (an unknown string here). `env` is the one function
//!   Packer allows in a variable's default.
//! - `source` and `build` blocks are read as labelled blocks; what a
//!   build's provisioners read of its sources (`source.name`,
//!   `build.ID`) is Packer's to provide, left to the module rules' trust
//!   by language.
//!
//! Packer reads a directory's templates as one configuration, which the
//! generic module is; templates do not reference one another.

use std::collections::BTreeMap;

use camino::Utf8Path;
use db::module::{DialectPlugin, DialectRules};
use eval::{Function, Param, Type, Value};
use smol_str::SmolStr;

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
        DialectRules {
            name: "packer".into(),
            unknown_roots: names(&["path", "packer"]),
            own_functions: names(&["env"]),
            default_functions: names(&["env"]),
            ..DialectRules::generic()
        }
    }

    fn functions(&self, table: &mut BTreeMap<String, Function>) {
        // `env(key string) string`: the variable's value when Packer runs.
        let env = Function::simple(vec![Param::new("key", Type::String)], None, Type::String, |_, _| {
            Ok(Value::unknown(Type::String))
        });
        table.insert("env".into(), env);
    }
}
