//! Terragrunt's dialect: a unit calling Terragrunt's functions and reading
//! its dependencies' outputs and its includes evaluates without error,
//! what is read from outside the unit being unknown; a misspelt function
//! or dependency is still an error.

use db::{
    RootDatabase,
    module::{Address, Attr, Module, attr, attribute_value},
};
use expect_test::expect;

use crate::support;
use support::report;

fn load(db: &mut RootDatabase, text: &str) -> Module {
    let file = db.set_file_text("live/dev/app/terragrunt.hcl", text);
    db.set_module_files("live/dev/app", vec![file])
}

const UNIT: &str = r#"
include "root" {
  path   = find_in_parent_folders("root.hcl")
  expose = true
}

terraform {
  source = "${get_repo_root()}//modules/app"

  extra_arguments "vars" {
    commands = get_terraform_commands_that_need_vars()
  }
}

dependency "vpc" {
  config_path = "../vpc"
  mock_outputs = {
    vpc_id = "vpc-1234"
  }
}

locals {
  env        = get_env("ENV", "dev")
  account    = get_aws_account_id()
  region     = include.root.locals.region
  relative   = path_relative_to_include()
  here       = get_terragrunt_dir()
  commit     = run_cmd("--terragrunt-quiet", "git", "rev-parse", "HEAD")
  common     = read_terragrunt_config(find_in_parent_folders("common.hcl"))
  secrets    = jsondecode(sops_decrypt_file("secrets.json"))
  name       = upper(trimspace(" app "))
  bucket     = "${local.env}-${local.account}-state"
  ok_version = constraint_check("1.5.0", ">= 1.0")
}

inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
  name   = local.name
  tags   = merge(local.common.locals.tags, { env = local.env })
}
"#;

#[test]
fn a_unit_with_terragrunts_functions_dependencies_and_includes_evaluates() {
    let mut db = dialects::database();
    let module = load(&mut db, UNIT);
    expect![[r#"
        inputs = object{"name": "APP", "tags": unknown("dynamic"), "vpc_id": unknown("dynamic")}
        include.root.path = unknown("string")
        include.root.expose = true
        terraform.source = unknown("string", not null)
        terraform.extra_arguments.vars.commands = list<"string">["apply", "console", "destroy", "import", "plan", "push", "refresh"]
        dependency.vpc.config_path = "../vpc"
        dependency.vpc.mock_outputs = object{"vpc_id": "vpc-1234"}
        local.env = unknown("string")
        local.account = unknown("string")
        local.region = unknown("dynamic")
        local.relative = unknown("string")
        local.here = unknown("string")
        local.commit = unknown("string")
        local.common = unknown("dynamic")
        local.secrets = unknown("dynamic")
        local.name = "APP"
        local.bucket = unknown("string", not null)
        local.ok_version = unknown("bool")
    "#]]
    .assert_eq(&report(&db, module));
}

#[test]
fn dependencies_and_feature_flags_of_an_included_file_are_unknown() {
    let mut db = dialects::database();
    let text = r#"
include "root" {
  path = find_in_parent_folders("common.hcl")
}
inputs = {
  vpc_id = dependency.vpc.outputs.vpc_id
  flag   = feature.new_thing.value
  env    = values.env
}
"#;
    let module = load(&mut db, text);
    expect![[r#"
        inputs = object{"env": unknown("dynamic"), "flag": unknown("dynamic"), "vpc_id": unknown("dynamic")}
        include.root.path = unknown("string")
    "#]]
    .assert_eq(&report(&db, module));
}

#[test]
fn a_misspelt_function_is_an_error_with_a_suggestion() {
    let mut db = dialects::database();
    let module = load(&mut db, "locals {\n  root = find_in_parent_folder(\"root.hcl\")\n}\n");
    expect![[r#"
        local.root: Eval(EvalError { expr: Idx::<Expr>(1), kind: UnknownFunction { name: "find_in_parent_folder", suggestion: Some("find_in_parent_folders") }, detail: "There is no function named \"find_in_parent_folder\". Did you mean \"find_in_parent_folders\"?" })
        diagnostic: Call to unknown function: There is no function named "find_in_parent_folder". Did you mean "find_in_parent_folders"?
    "#]]
    .assert_eq(&report(&db, module));
}

/// Terragrunt evaluates with Terraform v0.15.3's functions and four of the
/// later ones: a function Terraform added after those is unknown to it.
#[test]
fn terraforms_newer_functions_are_unknown_to_terragrunt() {
    let mut db = dialects::database();
    let module = load(&mut db, "locals {\n  at = plantimestamp()\n  ok = startswith(\"abc\", \"a\")\n}\n");
    expect![[r#"
        local.at: Eval(EvalError { expr: Idx::<Expr>(0), kind: UnknownFunction { name: "plantimestamp", suggestion: None }, detail: "There is no function named \"plantimestamp\"." })
        local.ok = true
        diagnostic: Call to unknown function: There is no function named "plantimestamp".
    "#]]
    .assert_eq(&report(&db, module));
}

#[test]
fn a_misspelt_dependency_and_a_wrong_argument_count_are_errors() {
    let mut db = dialects::database();
    let text = r#"
dependency "vpc" {
  config_path = "../vpc"
}
locals {
  vpc_id = dependency.vpcc.outputs.vpc_id
  env    = get_env()
  dir    = get_terragrunt_dir("..")
  root   = find_in_parent_folders("a", "b", "c")
}
"#;
    let module = load(&mut db, text);
    for local in ["local.vpc_id", "local.env", "local.dir", "local.root"] {
        assert!(attribute_value(&db, attr(&db, module, local)).is_err(), "{local}");
    }
    expect![[r#"
        dependency.vpc.config_path = "../vpc"
        local.vpc_id: Unresolved { reference: 0, step: 1, kind: UndeclaredBlock { block_type: "dependency", label: "vpcc", suggestion: Some("vpc") }, detail: "A block \"dependency\" \"vpcc\" has not been declared. Did you mean \"vpc\"?" }
        local.env: Eval(EvalError { expr: Idx::<Expr>(0), kind: FunctionCallFailed { function: "get_env" }, detail: "Call to function \"get_env\" failed: Expected 1 or 2 params for function get_env, but got 0." })
        local.dir: Eval(EvalError { expr: Idx::<Expr>(0), kind: TooManyArguments { function: "get_terragrunt_dir" }, detail: "Function \"get_terragrunt_dir\" expects only 0 argument(s)." })
        local.root: Eval(EvalError { expr: Idx::<Expr>(3), kind: FunctionCallFailed { function: "find_in_parent_folders" }, detail: "Call to function \"find_in_parent_folders\" failed: Expected 0, 1, or 2 params for function find_in_parent_folders, but got 3." })
        diagnostic: Reference to undeclared block: A block "dependency" "vpcc" has not been declared. Did you mean "vpc"?
        diagnostic: Error in function call: Call to function "get_env" failed: Expected 1 or 2 params for function get_env, but got 0.
        diagnostic: Too many function arguments: Function "get_terragrunt_dir" expects only 0 argument(s).
        diagnostic: Error in function call: Call to function "find_in_parent_folders" failed: Expected 0, 1, or 2 params for function find_in_parent_folders, but got 3.
    "#]]
    .assert_eq(&report(&db, module));
}

/// A module made before its files (as the host makes them) takes the
/// registry's function table when its files choose the dialect, rather
/// than building one of its own: Terragrunt's table is as large as
/// Terraform's, and a repository has thousands of units.
#[test]
fn a_unit_shares_the_registrys_function_table() {
    let mut db = dialects::database();
    let direct = load(&mut db, "locals {\n  dir = get_terragrunt_dir()\n}\n");
    let later = db.set_module_files("live/prod/app", Vec::new());
    let file =
        db.set_file_text("live/prod/app/terragrunt.hcl", "locals {\n  dir = get_terragrunt_dir()\n}\n");
    db.set_module_files("live/prod/app", vec![file]);
    let generation = |module: Module| module.dialect(&db).functions(&db).generation();
    assert_eq!(later.dialect(&db).rules(&db).name, "terragrunt");
    assert_eq!(generation(later), generation(direct));
    assert!(attribute_value(&db, attr(&db, later, "local.dir")).is_ok());
}

/// A `terragrunt.hcl` is a unit of its own, keyed by its path, never a
/// file of the Terraform module beside it; `root.hcl` too.
#[test]
fn a_terragrunt_file_is_its_own_unit_and_tf_files_group_by_directory() {
    let dialects = dialects::standard();
    let unit = |path: &str| dialects.unit_of(camino::Utf8Path::new(path)).map(|it| it.to_string());
    assert_eq!(unit("live/app/terragrunt.hcl").as_deref(), Some("live/app/terragrunt.hcl"));
    assert_eq!(unit("live/root.hcl").as_deref(), Some("live/root.hcl"));
    assert_eq!(unit("live/app/main.tf").as_deref(), Some("live/app"));
    assert_eq!(unit("live/app/env.hcl").as_deref(), Some("live/app"));
    assert_eq!(unit("live/app/terraform.tfvars"), None);
}

/// A unit and the module it deploys: `inputs` checked against the
/// module's variables (an input it does not declare, with a
/// did-you-mean; a required variable left out; a known value of the
/// wrong type), with the key of each input as the place.
fn unit_and_module(db: &mut RootDatabase, unit: &str, source_dir: &str, module_text: &str) -> String {
    let main = db.set_file_text(format!("{source_dir}/variables.tf"), module_text);
    let child = db.set_module_files(source_dir, vec![main]);
    let file = db.set_file_text("live/app/terragrunt.hcl", unit);
    let module = db.set_module_files("live/app/terragrunt.hcl", vec![file]);
    let text = file.text(db).clone();
    let inputs = db::module::child_interface(db, child);
    let mut out = String::new();
    for call in db::module::module_calls(db, module) {
        out.push_str(&format!("call {} complete={}\n", call.dir, call.complete));
    }
    for diagnostic in db::module::module_call_diagnostics(db, module, None, |_| inputs.clone()) {
        let at = &text[diagnostic.range.start().into()..diagnostic.range.end().into()];
        out.push_str(&format!("{} at `{at}`: {}\n", diagnostic.summary(), diagnostic.detail));
    }
    out
}

const VARIABLES: &str = r#"
variable "name" {
  type = string
}
variable "instance_count" {
  type    = number
  default = 1
}
variable "tags" {
  type    = map(string)
  default = {}
}
"#;

#[test]
fn inputs_are_checked_against_the_variables_of_a_local_source() {
    let mut db = dialects::database();
    let unit = r#"
terraform {
  source = "../modules//app"
}
inputs = {
  nmae           = "app"
  instance_count = "three"
  tags           = { team = "core" }
}
"#;
    expect![[r#"
        call live/modules/app complete=true
        Invalid value for input variable at `instance_count`: The given value is not suitable for var.instance_count of the module at live/modules/app: a number is required.
        Unused input at `nmae`: The input "nmae" is unused: the module at live/modules/app declares no variable of that name. Did you mean "name"?
        Missing required input at `inputs`: The required input "name" is missing: the module at live/modules/app declares it without a default, and `inputs` does not set it (unless the environment, a variables file or the command line does).
    "#]]
    .assert_eq(&unit_and_module(&mut db, unit, "live/modules/app", VARIABLES));
}

/// An include not read (its file is not in the database) may name the
/// module deployed: the unit calls none.
#[test]
fn a_unit_without_a_source_whose_include_is_not_read_calls_no_module() {
    let mut db = dialects::database();
    let unit = r#"
include "root" {
  path = find_in_parent_folders("root.hcl")
}
inputs = {
  name = "app"
  tags = { team = "core" }
}
"#;
    assert_eq!(unit_and_module(&mut db, unit, "live/app", VARIABLES), "");
}

#[test]
fn a_remote_or_unknown_source_is_not_followed() {
    let mut db = dialects::database();
    for source in ["git::https://example.com/modules.git//app?ref=v1", "${get_repo_root()}/modules/app"] {
        let unit = format!("terraform {{\n  source = \"{source}\"\n}}\ninputs = {{\n  nmae = 1\n}}\n");
        assert_eq!(unit_and_module(&mut db, &unit, "live/modules/app", VARIABLES), "", "{source}");
    }
}

/// A unit that declares a `dependency` and includes a file may use the
/// included file's dependencies too (Terragrunt's `hclvalidate` fixture,
/// `test/fixtures/hclvalidate/second/c`): unknown, not undeclared; with
/// no include, a label it does not declare is still an error.
#[test]
fn a_dependency_the_unit_does_not_declare_may_come_from_its_include() {
    let mut db = dialects::database();
    let text = r#"
include "b" {
  path = "../../first/b/terragrunt.hcl"
}
inputs = {
  c = dependency.a.outputs.z
}
dependency iam {
}
"#;
    let module = load(&mut db, text);
    expect![[r#"
        inputs = object{"c": unknown("dynamic")}
        include.b.path = "../../first/b/terragrunt.hcl"
    "#]]
    .assert_eq(&report(&db, module));
    let module = load(&mut db, "inputs = {\n  c = dependency.a.outputs.z\n}\ndependency iam {\n}\n");
    assert!(attribute_value(&db, attr(&db, module, "inputs")).is_err());
}

/// `source = ".//"` in a unit of the current directory deploys the module
/// of `.`, as the host names it (it was the empty path, which names no
/// module, so the unit's inputs were never checked).
#[test]
fn a_source_of_the_units_own_directory_is_that_directory() {
    let mut db = dialects::database();
    let file = db.set_file_text("terragrunt.hcl", "terraform {\n  source = \".//\"\n}\ninputs = {}\n");
    let module = db.set_module_files("terragrunt.hcl", vec![file]);
    let dirs: Vec<String> =
        db::module::module_calls(&db, module).iter().map(|it| it.dir.to_string()).collect();
    assert_eq!(dirs, ["."]);
}

/// The file an include names is read through the database: where it is
/// found (`find_in_parent_folders` from the unit's parent directory up),
/// its inputs count as the unit's and its `dependency` blocks are the
/// unit's, and an edit of it changes what the unit resolves to.
#[test]
fn an_included_file_is_read_and_an_edit_of_it_reaches_the_unit() {
    let mut db = dialects::database();
    let main = db.set_file_text("live/modules/app/variables.tf", VARIABLES);
    db.set_module_files("live/modules/app", vec![main]);
    db.set_file_text("live/root.hcl", "inputs = {\n  name = \"app\"\n}\n");
    let unit = r#"
include "root" {
  path = find_in_parent_folders("root.hcl")
}
terraform {
  source = "../../modules/app"
}
locals {
  vpc = dependency.vpc.outputs.id
}
inputs = {
  tags = { team = "core" }
}
"#;
    let file = db.set_file_text("live/dev/app/terragrunt.hcl", unit);
    let module = db.set_module_files("live/dev/app/terragrunt.hcl", vec![file]);
    let reads = db::module::module_reads(&db, module);
    assert_eq!(
        reads[0].candidates[..2],
        [camino::Utf8PathBuf::from("live/dev/root.hcl"), camino::Utf8PathBuf::from("live/root.hcl")]
    );
    let calls = db::module::module_calls(&db, module);
    assert_eq!((calls[0].complete, calls[0].imported_arguments.as_slice()), (true, &["name".into()][..]));
    let inputs = |db: &RootDatabase| {
        let attr = Attr::new(db, module, Address::new(["local", "vpc"]));
        match attribute_value(db, attr) {
            Ok(_) => "ok".to_owned(),
            Err(error) => format!("{error:?}"),
        }
    };
    assert!(inputs(&db).contains("UndeclaredBlock"), "{}", inputs(&db));
    db.set_file_text("live/root.hcl", "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n");
    assert_eq!(inputs(&db), "ok");
    // The included file's inputs no longer set `name`.
    let calls = db::module::module_calls(&db, module);
    assert!(calls[0].imported_arguments.is_empty());
}

/// A unit whose include is read after its reads were first asked for
/// reads the included file's dependencies' units then (the host loads
/// reads until nothing new is found).
#[test]
fn an_include_loaded_later_adds_its_dependencies_to_the_reads() {
    let mut db = dialects::database();
    let unit = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
    let file = db.set_file_text("live/app/terragrunt.hcl", unit);
    let module = db.set_module_files("live/app/terragrunt.hcl", vec![file]);
    assert_eq!(db::module::module_reads(&db, module).len(), 1);
    db.set_file_text("live/root.hcl", "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n");
    let reads = db::module::module_reads(&db, module);
    assert_eq!(reads.len(), 2, "{reads:?}");
    // The path itself, or in the directory its unit's configuration
    // (JSON or native) or a stack's.
    let candidates: Vec<&str> = reads[1].candidates.iter().map(|it| it.as_str()).collect();
    assert_eq!(
        candidates,
        [
            "live/vpc",
            "live/vpc/terragrunt.hcl.json",
            "live/vpc/terragrunt.hcl",
            "live/vpc/terragrunt.stack.hcl"
        ]
    );
}

/// The same for the calls: the module a dependency's unit deploys is
/// called once the include and that unit are loaded.
#[test]
fn an_include_loaded_later_adds_its_dependencies_to_the_calls() {
    let mut db = dialects::database();
    let unit = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
    let file = db.set_file_text("live/app/terragrunt.hcl", unit);
    let module = db.set_module_files("live/app/terragrunt.hcl", vec![file]);
    assert_eq!(db::module::module_calls(&db, module).len(), 0);
    db.set_file_text("live/root.hcl", "dependency \"vpc\" {\n  config_path = \"../vpc\"\n}\n");
    db.set_file_text("live/vpc/terragrunt.hcl", "# deploys the module beside it\n");
    let calls = db::module::module_calls(&db, module);
    // The unit deploys its own directory (no include names a source),
    // and reads the outputs of the one the `vpc` unit deploys.
    assert_eq!(calls.iter().map(|it| it.dir.as_str()).collect::<Vec<_>>(), ["live/app", "live/vpc"]);
}

/// An included file's `terraform { source = "." }` is the unit's own
/// directory, read from the unit's place (Terragrunt's `init-cache`
/// fixture): its inputs are checked against the module there.
#[test]
fn an_included_source_of_dot_is_the_units_directory() {
    let mut db = dialects::database();
    db.set_file_text("live/root.hcl", "terraform {\n  source = \".\"\n}\n");
    let unit = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\ninputs = {\n  nmae = \"app\"\n}\n";
    expect![[r#"
        call live/app complete=true
        Unused input at `nmae`: The input "nmae" is unused: the module at live/app declares no variable of that name. Did you mean "name"?
        Missing required input at `inputs`: The required input "name" is missing: the module at live/app declares it without a default, and `inputs` does not set it (unless the environment, a variables file or the command line does).
    "#]].assert_eq(&unit_and_module(&mut db, unit, "live/app", VARIABLES));
}

/// A root configuration deploys nothing of its own: its `source = "."`
/// is read from each unit that includes it (Terragrunt's fixture
/// `regressions/dependency-include-error/root.hcl`).
#[test]
fn a_root_configuration_calls_no_module() {
    let mut db = dialects::database();
    let main = db.set_file_text("live/variables.tf", VARIABLES);
    db.set_module_files("live", vec![main]);
    let root =
        db.set_file_text("live/root.hcl", "terraform {\n  source = \".\"\n}\ninputs = {\n  nmae = 1\n}\n");
    let module = db.set_module_files("live/root.hcl", vec![root]);
    assert!(db::module::module_calls(&db, module).is_empty());
}

/// The units of one directory search the same directories for the file
/// `find_in_parent_folders` names: they share one list of candidates,
/// built once, and it is the list Terragrunt searches (nearest first, up
/// past the current directory).
#[test]
fn sibling_units_share_the_candidates_of_a_search_up_the_directories() {
    let mut db = dialects::database();
    let unit = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n";
    let reads: Vec<_> = ["vpc", "app"]
        .into_iter()
        .map(|name| {
            let path = format!("live/dev/{name}/terragrunt.hcl");
            let file = db.set_file_text(&path, unit);
            let module = db.set_module_files(&path, vec![file]);
            db::module::module_reads(&db, module)
        })
        .collect();
    let (first, second) = (&reads[0][0].candidates, &reads[1][0].candidates);
    assert!(std::sync::Arc::ptr_eq(first, second), "{first:?} and {second:?}");
    let nearest: Vec<&str> = first.iter().take(5).map(|it| it.as_str()).collect();
    assert_eq!(nearest, ["live/dev/root.hcl", "live/root.hcl", "root.hcl", "../root.hcl", "../../root.hcl"]);
}
