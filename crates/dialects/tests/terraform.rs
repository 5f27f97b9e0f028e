//! The Terraform dialect: a real-world shaped module evaluates with no
//! diagnostics, values not known from the configuration are unknown, and
//! mistakes are still reported; the dialect input's roots and functions
//! re-evaluate only their readers.

use std::collections::BTreeMap;

use db::{
    RootDatabase, Utf8Path, Utf8PathBuf,
    module::{self, Module, attr, attribute_value, module_attributes, module_diagnostics},
};
use expect_test::{expect, expect_file};

/// Loads the module files directly in `dir` (not those of subdirectories).
fn load_dir(db: &mut RootDatabase, dir: &Utf8Path) -> Module {
    let mut files = Vec::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("fixture directory").flatten().collect();
    entries.sort_by_key(|entry| entry.path());
    for entry in entries {
        let Ok(path) = Utf8PathBuf::from_path_buf(entry.path()) else { continue };
        if path.is_file() && vfs::is_module_file(&path) {
            let text = std::fs::read_to_string(&path).expect("fixture file");
            files.push(db.set_file_text(path, text));
        }
    }
    db.set_module_files(dir, files)
}

fn load(db: &mut RootDatabase, files: &[(&str, &str)]) -> Module {
    let files = files.iter().map(|(path, text)| db.set_file_text(format!("m/{path}"), *text)).collect();
    db.set_module_files("m", files)
}

fn fixture(name: &str) -> Utf8PathBuf {
    Utf8PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/modules").join(name)
}

/// Every attribute as `address = value` (JSON when wholly known, else the
/// value with its unknowns shown) or `address: error`, then every
/// diagnostic.
fn report(db: &RootDatabase, module: Module) -> String {
    let mut out = String::new();
    module::evaluate_in_order(db, module_attributes(db, module));
    for &attr in module_attributes(db, module) {
        let address = attr.address(db);
        match attribute_value(db, attr) {
            Ok(value) if value.is_wholly_known() => out.push_str(&format!(
                "{address} = {}\n",
                value.to_json_string(&value.ty()).unwrap_or_default()
            )),
            Ok(value) => out.push_str(&format!("{address} = {value:?}\n")),
            Err(error) => out.push_str(&format!("{address}: {error:?}\n")),
        }
    }
    out.push_str("\ndiagnostics:\n");
    for diagnostic in module_diagnostics(db, module) {
        let text = diagnostic.file.text(db);
        let range = diagnostic.range;
        out.push_str(&format!(
            "{} {:?} [{}] {}: {}\n",
            diagnostic.file.path(db).file_name().unwrap_or_default(),
            &text[usize::from(range.start())..usize::from(range.end())],
            diagnostic.kind.name(),
            diagnostic.summary(),
            diagnostic.detail
        ));
    }
    out
}

#[test]
fn a_real_world_shaped_module_has_no_diagnostics() {
    let mut db = dialects::database();
    let module = load_dir(&mut db, &fixture("terraform-app"));
    assert_eq!(module.dialect(&db).rules(&db).name, "terraform");
    assert!(module_diagnostics(&db, module).is_empty(), "{}", report(&db, module));
    expect_file!["expected/terraform-app.txt"].assert_eq(&report(&db, module));
    let child = load_dir(&mut db, &fixture("terraform-app/modules/network"));
    assert!(module_diagnostics(&db, child).is_empty(), "{}", report(&db, child));
    expect_file!["expected/terraform-app-network.txt"].assert_eq(&report(&db, child));
}

#[test]
fn a_module_of_hcl_files_stays_generic() {
    let mut db = dialects::database();
    let module = load(&mut db, &[("a.hcl", "locals {\n  a = count.index\n}\n")]);
    assert_eq!(module.dialect(&db).rules(&db).name, "generic");
    let mut db = dialects::database();
    let module = load(&mut db, &[("a.hcl", "locals {\n  a = 1\n}\n"), ("b.tf.json", "{}")]);
    assert_eq!(module.dialect(&db).rules(&db).name, "terraform");
    // Terraform reads its `.tf` files only, and merges override files
    // rather than adding their declarations.
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[
            ("main.tf", "variable \"a\" {}\n"),
            ("terragrunt.hcl", "inputs = { a = get_env(\"A\") }\n"),
            ("main.tftest.hcl", "run \"x\" {}\n"),
            ("main_override.tf", "variable \"a\" {\n  default = 1\n}\n"),
            ("override.tf.json", "{}"),
        ],
    );
    let files: Vec<&str> =
        module::module_files(&db, module).iter().map(|file| file.path(&db).as_str()).collect();
    assert_eq!(files, ["m/main.tf"]);
    assert!(module_diagnostics(&db, module).is_empty());
}

#[test]
fn mistakes_are_still_reported() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[(
            "main.tf",
            r#"
resource "aws_instance" "web" {
  ami = "ami-1"
}

data "aws_ami" "ubuntu" {
  owners = ["self"]
}

module "net" {
  source = "./net"
}

locals {
  ok       = aws_instance.web.id
  ok_ami   = aws_instance.web.ami
  typo     = aws_instance.wbe.id
  no_type  = aws_instanse.web.id
  no_data  = data.aws_ami.debian.id
  no_mod   = module.nett.vpc_id
  no_var   = var.nope
  no_local = local.nope
  output   = output.x
  fn       = no_such_function(1)
  known    = upper(cidrsubnet("10.0.0.0/16", 8, 1))
  each_key = each.key
  prefixed = resource.aws_instance.web.id
  prefix_typo = resource.aws_instance.wbe.id
}

output "x" {
  value = local.ok
}
"#,
        )],
    );
    expect![[r#"
        aws_instance.web.ami = "ami-1"
        data.aws_ami.ubuntu.owners = ["self"]
        module.net.source = "./net"
        local.ok = unknown("dynamic")
        local.ok_ami = unknown("dynamic")
        local.typo: Unresolved { reference: 0, step: 1, kind: UndeclaredResource { mode: Managed, suggestion: Some("web"), data_source: None }, detail: "A managed resource \"aws_instance\" \"wbe\" has not been declared in this module. Did you mean \"web\"?" }
        local.no_type: Unresolved { reference: 0, step: 0, kind: UndeclaredResource { mode: Managed, suggestion: Some("aws_instance"), data_source: None }, detail: "A managed resource \"aws_instanse\" \"web\" has not been declared in this module. Did you mean \"aws_instance\"?" }
        local.no_data: Unresolved { reference: 0, step: 2, kind: UndeclaredResource { mode: Data, suggestion: None, data_source: None }, detail: "A data resource \"aws_ami\" \"debian\" has not been declared in this module." }
        local.no_mod: Unresolved { reference: 0, step: 1, kind: UndeclaredModule { name: "nett", suggestion: Some("net") }, detail: "No module call named \"nett\" is declared in this module. Did you mean \"net\"?" }
        local.no_var: Unresolved { reference: 0, step: 1, kind: UndeclaredVariable { name: "nope", suggestion: None }, detail: "An input variable with the name \"nope\" has not been declared." }
        local.no_local: Unresolved { reference: 0, step: 1, kind: UndeclaredLocal { name: "nope", suggestion: None }, detail: "A local value with the name \"nope\" has not been declared." }
        local.output: Unresolved { reference: 0, step: 0, kind: UnknownRoot { name: "output", suggestion: None }, detail: "There is no variable named \"output\"." }
        local.fn: Eval(EvalError { expr: Idx::<Expr>(1), kind: UnknownFunction { name: "no_such_function", suggestion: None }, detail: "There is no function named \"no_such_function\"." })
        local.known = "10.0.1.0/24"
        local.each_key = unknown("dynamic")
        local.prefixed = unknown("dynamic")
        local.prefix_typo: Unresolved { reference: 0, step: 2, kind: UndeclaredResource { mode: Managed, suggestion: Some("web"), data_source: None }, detail: "A managed resource \"aws_instance\" \"wbe\" has not been declared in this module. Did you mean \"web\"?" }
        output.x.value = unknown("dynamic")
    "#]]
    .assert_eq(&values(&db, module));
}

/// With no `data`, `module` or `ephemeral` block declared, references to
/// them are still undeclared (Terraform knows every root); a check's scoped
/// data source, a JSON `dynamic` block's iterator, Terraform's other roots
/// and keywords are not.
#[test]
fn every_terraform_root_is_known() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[
            (
                "main.tf",
                r#"
terraform {
  language = TF2021
}

resource "aws_instance" "web" {}

check "health" {
  data "http" "endpoint" {
    url = "https://example.com"
  }
  assert {
    condition     = data.http.endpoint.status_code == 200
    error_message = "Unhealthy."
  }
}

locals {
  no_data      = data.aws_ami.ubuntu.id
  no_module    = module.net.vpc_id
  no_ephemeral = ephemeral.random_password.db.result
  bare         = True
  no_prefix    = aws_ami.ubuntu.id
  type_word    = string
  reserved     = template.x
  query        = list.aws_instance.all
  caller       = caller.x
  workspace    = terraform.workspace
}
"#,
            ),
            (
                "sg.tf.json",
                r#"{"resource": {"aws_security_group": {"web": {
  "dynamic": {"ingress": {"for_each": "${[1]}", "iterator": "rule", "content": {"port": "${rule.value}"}}},
  "name": "${aws_instance.wbe.id}"
}}}}"#,
            ),
        ],
    );
    expect![[r#"
        terraform.language = unknown("dynamic")
        check.health.data.http.endpoint.url = "https://example.com"
        check.health.assert.condition = unknown("bool", not null)
        check.health.assert.error_message = "Unhealthy."
        local.no_data: Unresolved { reference: 0, step: 2, kind: UndeclaredResource { mode: Data, suggestion: None, data_source: None }, detail: "A data resource \"aws_ami\" \"ubuntu\" has not been declared in this module." }
        local.no_module: Unresolved { reference: 0, step: 1, kind: UndeclaredModule { name: "net", suggestion: None }, detail: "No module call named \"net\" is declared in this module." }
        local.no_ephemeral: Unresolved { reference: 0, step: 2, kind: UndeclaredResource { mode: Ephemeral, suggestion: None, data_source: None }, detail: "An ephemeral resource \"random_password\" \"db\" has not been declared in this module." }
        local.bare: Unresolved { reference: 0, step: 0, kind: InvalidReference, detail: "A reference to a resource type must be followed by at least one attribute access, specifying the resource name." }
        local.no_prefix: Unresolved { reference: 0, step: 1, kind: UndeclaredResource { mode: Managed, suggestion: None, data_source: None }, detail: "A managed resource \"aws_ami\" \"ubuntu\" has not been declared in this module." }
        local.type_word = unknown("dynamic")
        local.reserved = unknown("dynamic")
        local.query = unknown("dynamic")
        local.caller = unknown("dynamic")
        local.workspace = unknown("dynamic")
        aws_security_group.web.dynamic = object{"ingress": object{"content": object{"port": unknown("dynamic")}, "for_each": tuple[1], "iterator": "rule"}}
        aws_security_group.web.name: Unresolved { reference: 0, step: 1, kind: UndeclaredResource { mode: Managed, suggestion: Some("web"), data_source: None }, detail: "A managed resource \"aws_instance\" \"wbe\" has not been declared in this module. Did you mean \"web\"?" }
    "#]]
    .assert_eq(&values(&db, module));
}

fn values(db: &RootDatabase, module: Module) -> String {
    let report = report(db, module);
    report.split("\ndiagnostics:").next().unwrap_or_default().to_string()
}

#[test]
fn changing_a_root_re_evaluates_only_its_readers() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[("a.hcl", "locals {\n  a = env.HOME\n  b = project.name\n  c = local.a\n  d = 1\n}\n")],
    );
    let roots = |home: &str| {
        BTreeMap::from([
            ("env".into(), eval::Value::object_from([("HOME", eval::Value::string(home))])),
            ("project".into(), eval::Value::object_from([("name", eval::Value::string("calc"))])),
        ])
    };
    db.set_dialect_roots(module, roots("/home/a"));
    let evaluate_all = |db: &RootDatabase| {
        for &attr in module_attributes(db, module) {
            let _ = attribute_value(db, attr);
        }
    };
    evaluate_all(&db);
    assert_eq!(attribute_value(&db, attr(&db, module, "local.c")), &Ok(eval::Value::string("/home/a")));
    db.set_dialect_roots(module, roots("/home/b"));
    let executed = db.log_executed(|| evaluate_all(&db));
    expect![[r#"
        [
            "dialect_root_names(m)",
            "dialect_root(Id(280))",
            "attribute_value(local.a)",
            "dialect_root(Id(281))",
            "attribute_value(local.c)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(attribute_value(&db, attr(&db, module, "local.c")), &Ok(eval::Value::string("/home/b")));
    // Setting the same roots again changes nothing.
    db.set_dialect_roots(module, roots("/home/b"));
    assert!(db.log_executed(|| evaluate_all(&db)).is_empty());
}

#[test]
fn registering_a_function_re_evaluates_only_its_callers() {
    let mut db = dialects::database();
    let module =
        load(&mut db, &[("a.hcl", "locals {\n  a = double(2)\n  b = upper(\"x\")\n  c = local.a + 1\n}\n")]);
    let double = |factor: i64| {
        eval::Function::simple(
            vec![eval::Param::new("n", eval::Type::Number)],
            None,
            eval::Type::Number,
            move |args, _| {
                let n = args[0].as_number().and_then(|n| n.to_i64()).unwrap_or_default();
                Ok(eval::Value::int(n * factor))
            },
        )
    };
    db.set_dialect_functions(module, BTreeMap::from([("double".to_string(), double(2))]));
    let evaluate_all = |db: &RootDatabase| {
        for &attr in module_attributes(db, module) {
            let _ = attribute_value(db, attr);
        }
    };
    evaluate_all(&db);
    assert_eq!(attribute_value(&db, attr(&db, module, "local.c")), &Ok(eval::Value::int(5)));
    db.set_dialect_functions(module, BTreeMap::from([("double".to_string(), double(3))]));
    let executed = db.log_executed(|| evaluate_all(&db));
    expect![[r#"
        [
            "attribute_value(local.a)",
            "attribute_value(local.c)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(attribute_value(&db, attr(&db, module, "local.c")), &Ok(eval::Value::int(7)));
}

#[test]
fn module_calls_are_checked_against_the_child_variables() {
    let mut db = dialects::database();
    let app = load_dir(&mut db, &fixture("terraform-app"));
    let calls = module::module_calls(&db, app);
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].dir, fixture("terraform-app").join("modules/network"));
    // The child is not loaded yet: nothing to check against.
    assert!(db.module_call_diagnostics(app).is_empty());
    let network = load_dir(&mut db, &fixture("terraform-app/modules/network"));
    let inputs: Vec<String> = module::module_inputs(&db, network)
        .iter()
        .map(|input| format!("{}{}", input.name, if input.required { " (required)" } else { "" }))
        .collect();
    assert_eq!(inputs, ["cidr_block (required)", "enable_nat", "name (required)", "zones"]);
    assert!(db.module_call_diagnostics(app).is_empty());

    let files = [
        (
            "m/main.tf",
            "module \"net\" {\n  source = \"./child\"\n  nmae   = \"x\"\n  count  = 2\n}\n\nmodule \"remote\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n  anything = 1\n}\n",
        ),
        ("m/child/variables.tf", "variable \"name\" {}\nvariable \"size\" {\n  default = 1\n}\n"),
    ];
    let mut db = dialects::database();
    let parent = db.set_file_text(files[0].0, files[0].1);
    let parent = db.set_module_files("m", vec![parent]);
    let child = db.set_file_text(files[1].0, files[1].1);
    db.set_module_files("m/child", vec![child]);
    let shown: Vec<String> = db
        .module_call_diagnostics(parent)
        .iter()
        .map(|it| {
            let text = it.file.text(&db);
            format!(
                "{:?} [{}] {}: {}",
                &text[usize::from(it.range.start())..usize::from(it.range.end())],
                it.kind.name(),
                it.summary(),
                it.detail
            )
        })
        .collect();
    expect![[r#"
        "nmae" [unsupported-module-argument] Unsupported argument: An argument named "nmae" is not expected here. Did you mean "name"?
        "module \"net\"" [missing-module-argument] Missing required argument: The argument "name" is required, but no definition was found."#]].assert_eq(&shown.join("\n"));
}

#[test]
fn json_twins_take_terraform_label_counts() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[(
            "main.tf.json",
            r#"{
  "resource": {"aws_instance": {"web": {"ami": "ami-1", "tags": {"Name": "${aws_instance.wbe.id}"}}}},
  "terraform": {"required_version": ">= 1.0"}
}"#,
        )],
    );
    let shown: Vec<String> = module_diagnostics(&db, module)
        .iter()
        .map(|it| {
            let text = it.file.text(&db);
            format!(
                "{:?} {}: {}",
                &text[usize::from(it.range.start())..usize::from(it.range.end())],
                it.summary(),
                it.detail
            )
        })
        .collect();
    expect![[r#""{\"Name\": \"${aws_instance.wbe.id}\"}" Reference to undeclared resource: A managed resource "aws_instance" "wbe" has not been declared in this module. Did you mean "web"?"#]].assert_eq(&shown.join("\n"));
    assert_eq!(
        attribute_value(&db, attr(&db, module, "aws_instance.web.ami")),
        &Ok(eval::Value::string("ami-1"))
    );
    assert_eq!(
        attribute_value(&db, attr(&db, module, "terraform.required_version")),
        &Ok(eval::Value::string(">= 1.0"))
    );
}

/// The module-call check over every directory of a tree (`HALITE_TF_TREE`),
/// for reports on real repositories:
/// `HALITE_TF_TREE=path cargo test -p dialects --test suite terraform:: -- --ignored --nocapture`.
#[test]
#[ignore = "reads a tree named by HALITE_TF_TREE"]
fn module_calls_in_a_tree() {
    let Ok(tree) = std::env::var("HALITE_TF_TREE") else { return };
    let mut dirs = vec![Utf8PathBuf::from(tree)];
    let mut modules = Vec::new();
    let mut db = dialects::database();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let Ok(path) = Utf8PathBuf::from_path_buf(entry.path()) else { continue };
            if path.is_dir() && !path.file_name().unwrap_or_default().starts_with('.') {
                dirs.push(path);
            }
        }
        modules.push(load_dir(&mut db, &dir));
    }
    let (mut calls, mut followed, mut problems) = (0, 0, 0);
    for &module in &modules {
        for call in module::module_calls(&db, module) {
            calls += 1;
            followed += usize::from(db.module(&call.dir).is_some());
        }
        for diagnostic in db.module_call_diagnostics(module) {
            problems += 1;
            println!("{}: {}: {}", diagnostic.file.path(&db), diagnostic.summary(), diagnostic.detail);
        }
    }
    println!(
        "{} modules, {calls} local module calls, {followed} followed, {problems} problems",
        modules.len()
    );
}

/// A block whose `count` is known to be 0, or whose `for_each` is known to
/// be empty, has no instances: Terraform never evaluates its arguments, so
/// they fail nowhere and read as the empty tuple (or object) of instances.
/// Its references must still name something, and a block with instances,
/// or whose number of them is unknown, is evaluated as ever.
#[test]
fn a_block_without_instances_is_not_evaluated() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[(
            "main.tf",
            r#"variable "name" {
  type    = string
  default = ""
}
variable "enabled" {
  type = bool
}
resource "aws_db_subnet_group" "none" {
  count = 0
  name  = coalesce(var.name, "")
  ebs {
    size = coalesce(var.name, "")
  }
}
data "aws_ami" "none" {
  for_each = {}
  name     = coalesce(var.name, "")
}
resource "aws_subnet" "none" {
  for_each = toset([])
  name     = coalesce(var.name, "")
}
resource "aws_subnet" "misspelt" {
  count = 0
  name  = local.nope
}
resource "aws_subnet" "one" {
  count = 1
  name  = coalesce(var.name, "")
}
resource "aws_subnet" "maybe" {
  count = var.enabled ? 1 : 0
  name  = coalesce(var.name, "")
}
resource "aws_subnet" "list" {
  for_each = []
  name     = coalesce(var.name, "")
}
"#,
        )],
    );
    db.set_module_role(module, module::ModuleRole::Root);
    expect![[r#"
        aws_db_subnet_group.none.count = 0
        aws_db_subnet_group.none.name = []
        aws_db_subnet_group.none.ebs.size = []
        data.aws_ami.none.for_each = {}
        data.aws_ami.none.name = {}
        aws_subnet.none.for_each = []
        aws_subnet.none.name = {}
        aws_subnet.misspelt.count = 0
        aws_subnet.misspelt.name: Unresolved { reference: 0, step: 1, kind: UndeclaredLocal { name: "nope", suggestion: None }, detail: "A local value with the name \"nope\" has not been declared." }
        aws_subnet.one.count = 1
        aws_subnet.one.name: Eval(EvalError { expr: Idx::<Expr>(3), kind: FunctionCallFailed { function: "coalesce" }, detail: "Call to function \"coalesce\" failed: no non-null, non-empty-string arguments." })
        aws_subnet.maybe.count = unknown("number", not null, >= 0, <= 1)
        aws_subnet.maybe.name: Eval(EvalError { expr: Idx::<Expr>(3), kind: FunctionCallFailed { function: "coalesce" }, detail: "Call to function \"coalesce\" failed: no non-null, non-empty-string arguments." })
        aws_subnet.list.for_each = []
        aws_subnet.list.name: Eval(EvalError { expr: Idx::<Expr>(3), kind: FunctionCallFailed { function: "coalesce" }, detail: "Call to function \"coalesce\" failed: no non-null, non-empty-string arguments." })

        diagnostics:
        main.tf "local.nope" [unresolved-reference] Reference to undeclared local value: A local value with the name "nope" has not been declared.
        main.tf "coalesce(var.name, \"\")" [eval] Error in function call: Call to function "coalesce" failed: no non-null, non-empty-string arguments.
        main.tf "coalesce(var.name, \"\")" [eval] Error in function call: Call to function "coalesce" failed: no non-null, non-empty-string arguments.
        main.tf "coalesce(var.name, \"\")" [eval] Error in function call: Call to function "coalesce" failed: no non-null, non-empty-string arguments.
    "#]]
    .assert_eq(&report(&db, module));
}
