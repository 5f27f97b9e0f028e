//! OpenTofu's files in the Terraform dialect: `.tofu` and `.tofu.json`
//! files are Terraform's, and a `.tf` file whose `.tofu` twin is in the
//! module is left out, as OpenTofu leaves it out
//! (opentofu/opentofu's `internal/configs/parser_config_dir.go`).

use db::{
    RootDatabase,
    module::{self, Module, attr, attribute_value, module_diagnostics},
};
use expect_test::expect;

fn load(db: &mut RootDatabase, files: &[(&str, &str)]) -> Module {
    let files = files.iter().map(|(path, text)| db.set_file_text(format!("m/{path}"), *text)).collect();
    db.set_module_files("m", files)
}

/// The module's files the dialect reads, one a line.
fn module_files(db: &RootDatabase, module: Module) -> String {
    module::module_files(db, module).iter().map(|file| format!("{}\n", file.path(db))).collect()
}

/// Every diagnostic as `file "text" summary: detail`, one a line.
fn diagnostics(db: &RootDatabase, module: Module) -> String {
    module_diagnostics(db, module)
        .iter()
        .map(|diagnostic| {
            let text = diagnostic.file.text(db);
            let range = diagnostic.range;
            format!(
                "{} {:?} {}: {}\n",
                diagnostic.file.path(db),
                &text[usize::from(range.start())..usize::from(range.end())],
                diagnostic.summary(),
                diagnostic.detail
            )
        })
        .collect()
}

#[test]
fn tofu_files_are_terraform_files() {
    for name in ["a/main.tofu", "a/main.tofu.json", "a/override.tofu"] {
        assert!(vfs::is_module_file(name.into()), "{name}");
        assert!(vfs::FileKind::of(name.into()).is_some_and(vfs::FileKind::is_terraform), "{name}");
    }
    for name in ["a/override.tofu", "a/x_override.tofu", "a/override.tofu.json", "a/x_override.tofu.json"] {
        assert!(vfs::is_terraform_override_file(name.into()), "{name}");
    }
    for name in ["a/main.tofu", "a/overrides.tofu", "a/override.tofutest.hcl", "a/override.hcl"] {
        assert!(!vfs::is_terraform_override_file(name.into()), "{name}");
    }
    assert!(!vfs::is_module_file("a/terraform.tofuvars".into()));

    // A directory of `.tofu` files alone is a Terraform module: resources
    // are addressed without `resource`, and Terraform's functions are known.
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[
            ("main.tofu", "resource \"aws_instance\" \"web\" {\n  ami = \"ami-1\"\n}\n"),
            (
                "outputs.tofu.json",
                r#"{"output": {"ami": {"value": "${aws_instance.web.ami}"}}, "locals": {"cidr": "${cidrsubnet(\"10.0.0.0/16\", 8, 1)}"}}"#,
            ),
        ],
    );
    assert_eq!(module.dialect(&db).rules(&db).name, "terraform");
    expect![[r#"
        m/main.tofu
        m/outputs.tofu.json
    "#]]
    .assert_eq(&module_files(&db, module));
    expect![""].assert_eq(&diagnostics(&db, module));
    // The JSON file takes Terraform's label counts (`output` has one
    // label), and a resource's attribute is the provider's, unknown (the
    // generic rules would give the written "ami-1").
    let output = attribute_value(&db, attr(&db, module, "output.ami.value"))
        .as_ref()
        .map_err(|error| format!("{error:?}"));
    assert!(output.as_ref().is_ok_and(|value| !value.is_wholly_known()), "{output:?}");
    assert_eq!(
        attribute_value(&db, attr(&db, module, "local.cidr")),
        &Ok(eval::Value::string("10.0.1.0/24"))
    );
}

#[test]
fn a_tofu_file_shadows_its_tf_twin() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[
            // Terraform's version of the module and OpenTofu's, which
            // declare the same variable: OpenTofu reads `main.tofu` only.
            (
                "main.tf",
                "variable \"region\" {\n  default = \"terraform\"\n}\nlocals {\n  only_in_tf = 1\n}\n",
            ),
            ("main.tofu", "variable \"region\" {\n  default = \"tofu\"\n}\n"),
            // The JSON twins shadow the same way, each its own kind only.
            ("data.tf.json", r#"{"locals": {"from_tf_json": 1}}"#),
            ("data.tofu.json", r#"{"locals": {"from_tofu_json": 2}}"#),
            // `versions.tf` has no `.tofu` twin: `versions.tofu.json` is
            // the twin of `versions.tf.json` only, as in OpenTofu.
            ("versions.tf", "locals {\n  versions = local.from_tofu_json\n}\n"),
            ("versions.tofu.json", r#"{"locals": {"json_versions": 3}}"#),
            // Override files shadow too, and are then left out as
            // overrides.
            ("override.tf", "variable \"region\" {}\n"),
            ("override.tofu", "variable \"region\" {}\n"),
            ("uses.tf", "locals {\n  region = var.region\n  tf = local.only_in_tf\n}\n"),
        ],
    );
    expect![[r#"
        m/data.tofu.json
        m/main.tofu
        m/uses.tf
        m/versions.tf
        m/versions.tofu.json
    "#]]
    .assert_eq(&module_files(&db, module));
    // `local.only_in_tf` is declared only in the shadowed `main.tf`.
    expect![[r#"
        m/uses.tf "local.only_in_tf" Reference to undeclared local value: A local value with the name "only_in_tf" has not been declared.
    "#]]
    .assert_eq(&diagnostics(&db, module));
    assert_eq!(attribute_value(&db, attr(&db, module, "local.versions")), &Ok(eval::Value::int(2)));
}

#[test]
fn shadowing_is_by_directory_and_by_the_terraform_dialect() {
    // A twin in another directory shadows nothing: OpenTofu compares whole
    // paths.
    let mut db = dialects::database();
    let files = vec![
        db.set_file_text("m/main.tf", "locals {\n  a = 1\n}\n"),
        db.set_file_text("m/sub/main.tofu", "locals {\n  b = 2\n}\n"),
    ];
    let module = db.set_module_files("m", files);
    expect![[r#"
        m/main.tf
        m/sub/main.tofu
    "#]]
    .assert_eq(&module_files(&db, module));

    // A caller's own dialect reads every file, twins included.
    let mut db = dialects::database();
    let module = load(&mut db, &[("main.tf", "a = 1\n"), ("main.tofu", "b = 2\n")]);
    db.set_dialect_rules(module, module::DialectRules::generic());
    expect![[r#"
        m/main.tf
        m/main.tofu
    "#]]
    .assert_eq(&module_files(&db, module));
}
