//! What the dialects' tests share.

use db::{
    RootDatabase,
    module::{self, Module, attribute_value, module_attributes, module_diagnostics},
};

/// Every attribute's value or error, then every diagnostic's summary.
pub fn report(db: &RootDatabase, module: Module) -> String {
    let mut out = String::new();
    module::evaluate_in_order(db, module_attributes(db, module));
    for &attr in module_attributes(db, module) {
        match attribute_value(db, attr) {
            Ok(value) => out.push_str(&format!("{} = {value:?}\n", attr.address(db))),
            Err(error) => out.push_str(&format!("{}: {error:?}\n", attr.address(db))),
        }
    }
    for diagnostic in module_diagnostics(db, module) {
        out.push_str(&format!("diagnostic: {}: {}\n", diagnostic.summary(), diagnostic.detail));
    }
    out
}
