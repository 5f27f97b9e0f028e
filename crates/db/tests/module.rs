//! The module model: values across files, variables, diagnostics.

use std::collections::BTreeMap;

use db::{
    RootDatabase,
    module::{self, Module, attribute_value, module_attributes, module_diagnostics},
};
use expect_test::expect;

fn load(db: &mut RootDatabase, files: &[(&str, &str)]) -> Module {
    let files = files.iter().map(|(path, text)| db.set_file_text(format!("m/{path}"), *text)).collect();
    db.set_module_files("m", files)
}

/// Every attribute as `address = value` or `address: error`, one a line.
fn values(db: &RootDatabase, module: Module) -> String {
    let mut out = String::new();
    for &attr in module_attributes(db, module) {
        let address = attr.address(db);
        match attribute_value(db, attr) {
            Ok(value) => out.push_str(&format!(
                "{address} = {}\n",
                value.to_json_string(&value.ty()).unwrap_or_default()
            )),
            Err(error) => out.push_str(&format!("{address}: {error:?}\n")),
        }
    }
    out
}

fn diagnostics(db: &RootDatabase, module: Module) -> String {
    let mut out = String::new();
    for diagnostic in module_diagnostics(db, module) {
        let text = diagnostic.file.text(db);
        let range = diagnostic.range;
        out.push_str(&format!(
            "{} {:?} [{}] {}: {}\n",
            diagnostic.file.path(db),
            &text[usize::from(range.start())..usize::from(range.end())],
            diagnostic.code,
            diagnostic.summary,
            diagnostic.detail
        ));
        for (file, range, message) in &diagnostic.related {
            out.push_str(&format!("  {} {:?}: {message}\n", file.path(db), u32::from(range.start())));
        }
    }
    out
}

#[test]
fn values_across_files() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            (
                "main.tf",
                "locals {\n  greeting = \"hello ${var.name}\"\n  n = length(local.items)\n}\n\nservice \"web\" {\n  size = local.n * 2\n  label = upper(local.greeting)\n}\n",
            ),
            (
                "other.tf",
                "locals {\n  items = [1, 2, 3]\n  whole = service.web\n  size = service.web.size\n}\n",
            ),
            ("variables.tf", "variable \"name\" {\n  type = string\n  default = \"world\"\n}\n"),
        ],
    );
    expect![[r#"
        local.greeting = "hello world"
        local.n = 3
        service.web.size = 6
        service.web.label = "HELLO WORLD"
        local.items = [1,2,3]
        local.whole = {"label":"HELLO WORLD","size":6}
        local.size = 6
    "#]]
    .assert_eq(&values(&db, module));
    expect![[""]].assert_eq(&diagnostics(&db, module));

    db.set_module_variables(module, BTreeMap::from([("name".to_string(), eval::Value::string("you"))]));
    assert_eq!(
        attribute_value(&db, module::attr(&db, module, "service.web.label")),
        &Ok(eval::Value::string("HELLO YOU"))
    );
}
