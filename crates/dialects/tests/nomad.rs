//! Nomad's dialect: the roots Nomad expands when it places a task are
//! unknown, never an error; a job's own variables and locals evaluate.

use db::module::{self, Module, attr, attribute_value};
use expect_test::expect;

use crate::support;
use support::report;

fn load(db: &mut db::RootDatabase, text: &str) -> Module {
    let file = db.set_file_text("m/web.nomad", text);
    db.set_module_files("m/web.nomad", vec![file])
}

/// `${attr.kernel.name}`, `${node.datacenter}`, `${NOMAD_ALLOC_ID}`: what
/// `jobspec2`'s undefined-variable hook keeps as text for the client is a
/// run-time value, unknown here; a declared variable still evaluates, and
/// a misspelt one is still an error.
#[test]
fn runtime_interpolations_are_unknown() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        r#"
variable "image" {
  default = "nginx"
}
locals {
  kernel = "${attr.kernel.name}"
  dc     = node.datacenter
  alloc  = "id-${NOMAD_ALLOC_ID}"
  image  = var.image
}
"#,
    );
    expect![[r#"
        local.kernel = unknown("dynamic")
        local.dc = unknown("dynamic")
        local.alloc = unknown("string", not null, prefix "id-")
        local.image = "nginx"
    "#]]
    .assert_eq(&report(&db, module));
    let module = load(&mut db, "locals {\n  image = var.imgae\n}\n");
    assert!(matches!(
        attribute_value(&db, attr(&db, module, "local.image")),
        Err(module::AttrError::Unresolved { .. })
    ));
}
