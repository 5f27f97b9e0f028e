//! A workspace's dialect: the functions and root names an application adds
//! to HCL.
//!
//! The module model takes a dialect as an input of its own
//! (`db::module::Dialect`: extra roots with their values, a function table,
//! and rules such as Terraform's, chosen by the module's file names), and
//! its `attribute_value` and diagnostics read it: there is one evaluation
//! path, with or without a dialect. The workspace keeps the functions and
//! roots the application registered and hands them to the model here.

use std::collections::BTreeMap;

use db::{Module, RootDatabase};
use smol_str::SmolStr;
use value::Value;

/// Sets `module`'s dialect roots and functions to the workspace's. Equal
/// roots are not a change; a function table always is (functions cannot be
/// compared), which re-evaluates the attributes calling a dialect function.
pub(crate) fn sync(
    db: &mut RootDatabase,
    module: Module,
    functions: &BTreeMap<String, eval::Function>,
    roots: &BTreeMap<String, Value>,
) {
    let roots = roots.iter().map(|(name, value)| (SmolStr::new(name), value.clone())).collect();
    db.set_dialect_roots(module, roots);
    db.set_dialect_functions(module, functions.clone());
}
