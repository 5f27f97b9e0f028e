//! Packer's dialect: what Packer provides (`path.root`, `path.cwd`,
//! `packer.version`, `env()` in a variable's default) is unknown, never an
//! error, in templates of Packer's own fixtures and in small ones.

use db::{
    RootDatabase, Utf8PathBuf,
    module::{self, Module, attr, attribute_value},
};
use expect_test::expect;

use crate::support;
use support::report;

fn load(db: &mut RootDatabase, files: &[(&str, &str)]) -> Module {
    let files = files.iter().map(|(path, text)| db.set_file_text(format!("m/{path}"), *text)).collect();
    db.set_module_files("m", files)
}

#[test]
fn packer_roots_and_env_in_a_default_are_unknown() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[(
            "build.pkr.hcl",
            r#"
packer {
  required_version = ">= 1.7.0"
}
variable "home" {
  type    = string
  default = env("HOME")
}
locals {
  root    = path.root
  cwd     = "${path.cwd}/out"
  version = packer.version
}
"#,
        )],
    );
    expect![[r#"
        packer.required_version = ">= 1.7.0"
        local.root = unknown("dynamic")
        local.cwd = unknown("string", not null)
        local.version = unknown("dynamic")
    "#]]
    .assert_eq(&report(&db, module));
    // Another function in a default is still not allowed, as in Packer.
    let module = load(&mut db, &[("build.pkr.hcl", "variable \"x\" {\n  default = upper(\"a\")\n}\n")]);
    assert!(matches!(attribute_value(&db, attr(&db, module, "var.x")), Err(module::AttrError::Eval(_))));
}

/// A template of Packer's own fixtures whose variables default to `env()`:
/// no error but the sources its build names and no file declares.
#[test]
fn a_template_of_packers_fixtures_raises_no_error_but_its_unknown_sources() {
    let dir = Utf8PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/input/hashicorp__packer/command/test-fixtures/hcl/inspect");
    if !dir.is_dir() {
        eprintln!("skipped: {dir} is not here");
        return;
    }
    let mut db = dialects::database();
    let mut files = Vec::new();
    for name in ["aws-builds.pkr.hcl", "fruit_string.pkr.hcl", "virtualbox-builds.pkr.hcl"] {
        let path = dir.join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        files.push(db.set_file_text(path, text));
    }
    let module = db.set_module_files(&dir, files);
    let report = report(&db, module);
    assert!(!report.contains("Err") && !report.contains(": Eval"), "{report}");
    // The fixture is `packer inspect`'s, which lists the sources a build
    // names though two are not declared ("we don't want to error there",
    // its comment says); `packer validate` and `build` refuse them.
    let diagnostics: Vec<&str> = report.lines().filter(|line| line.starts_with("diagnostic:")).collect();
    assert_eq!(
        diagnostics,
        [
            "diagnostic: Reference to undeclared block: The template declares no source \"amazon-ebs\" \"example-1\".",
            "diagnostic: Reference to undeclared block: The template declares no source \"amazon-ebs\" \"example-2\".",
        ],
        "{report}"
    );
    for name in ["var.default_from_env", "var.other_default_from_env", "var.fruit"] {
        let value = attribute_value(&db, attr(&db, module, name));
        assert!(value.is_ok(), "{name}: {value:?}");
    }
}

/// Packer's function table: the names it shares with Terraform's evaluate
/// as there, its own give what Packer finds when it runs (unknown here),
/// and a name it lacks is an unknown function, as in Packer.
#[test]
fn packers_functions_are_its_own_table() {
    let mut db = dialects::database();
    let module = load(
        &mut db,
        &[(
            "build.pkr.hcl",
            r#"
locals {
  sum     = sum([1, 2])
  starts  = startswith("packer", "pack")
  now     = timestamp()
  id      = uuidv4()
  secret  = vault("/secret/data/app", "token")
  when    = legacy_isotime("2006-01-02")
}
"#,
        )],
    );
    expect![[r#"
        local.sum = 3
        local.starts = true
        local.now = unknown("string")
        local.id = unknown("string")
        local.secret = unknown("string")
        local.when = unknown("string")
    "#]]
    .assert_eq(&report(&db, module));
    let module = load(&mut db, &[("build.pkr.hcl", "locals {\n  s = tostring(1)\n}\n")]);
    assert!(matches!(
        attribute_value(&db, attr(&db, module, "local.s")),
        Err(module::AttrError::Eval(error)) if matches!(error.kind, eval::EvalErrorKind::UnknownFunction { .. })
    ));
}

/// What Packer fills in when it runs is unknown: a data source's
/// attributes, and `source.name` or `build.ID` in a build; a data source
/// that is not declared is still an error.
#[test]
fn what_packer_fills_in_is_unknown() {
    let mut db = dialects::database();
    let template = r#"
data "amazon-ami" "ubuntu" {
  most_recent = true
}
source "amazon-ebs" "ubuntu" {
  source_ami = data.amazon-ami.ubuntu.id
}
build {
  sources = ["source.amazon-ebs.ubuntu"]
  provisioner "shell" {
    inline = ["echo ${source.name} ${build.ID}"]
  }
}
"#;
    let module = load(&mut db, &[("build.pkr.hcl", template)]);
    for address in ["source.amazon-ebs.ubuntu.source_ami", "build.provisioner.shell.inline"] {
        let value = attribute_value(&db, attr(&db, module, address));
        assert!(value.as_ref().is_ok_and(|value| !value.is_wholly_known()), "{address}: {value:?}");
    }
    let module = load(
        &mut db,
        &[("build.pkr.hcl", &template.replace("data.amazon-ami.ubuntu.id", "data.amazon-ami.nope.id"))],
    );
    assert!(matches!(
        attribute_value(&db, attr(&db, module, "source.amazon-ebs.ubuntu.source_ami")),
        Err(module::AttrError::Unresolved { .. })
    ));
}

/// `local "NAME" { expression = … }` declares `local.NAME` as a `locals`
/// block's attribute does: its value is the expression's (its
/// `sensitive` is not a value), and a reference reads that value. In
/// generic HCL the same block is a block like any other.
#[test]
fn a_local_block_is_one_local() {
    let mut db = dialects::database();
    let template = r#"
variable "suffix" {
  default = "x"
}
local "password" {
  expression = "s3cr3t-${var.suffix}"
  sensitive  = true
}
locals {
  greeting = "echo ${local.password}"
}
"#;
    let module = load(&mut db, &[("build.pkr.hcl", template)]);
    expect![[r#"
        local.password = "s3cr3t-x"
        local.greeting = "echo s3cr3t-x"
    "#]]
    .assert_eq(&report(&db, module));
    let module = load(&mut db, &[("build.hcl", template)]);
    expect![[r#"
        local.password.expression = "s3cr3t-x"
        local.password.sensitive = true
        local.greeting: Dependency(Address { segments: ["local", "password"] })
    "#]]
    .assert_eq(&report(&db, module));
}

/// A JSON template's blocks are read by Packer's labels: two `source`
/// properties of one type are two sources (HCL's JSON syntax keeps a
/// repeated property), `build` has no label, and `local` and `variables`
/// properties declare as their native blocks do.
#[test]
fn a_json_templates_blocks_have_packers_labels() {
    let mut db = dialects::database();
    let template = r#"{
  "source": {"file": {"chocolate": {"target": "c.txt"}},
             "file": {"vanilla": {"target": "v.txt"}}},
  "local": {"pw": {"expression": "secret", "sensitive": true}},
  "variables": {"flavour": "mint"},
  "build": {"name": "b", "sources": ["source.file.chocolate", "source.file.vanilla"]},
  "locals": {"greeting": "${var.flavour} ${local.pw}"}
}"#;
    let module = load(&mut db, &[("build.pkr.json", template)]);
    expect![[r#"
        source.file.chocolate.target = "c.txt"
        source.file.vanilla.target = "v.txt"
        local.pw = "secret"
        build.name = "b"
        build.sources = tuple["source.file.chocolate", "source.file.vanilla"]
        local.greeting = "mint secret"
    "#]]
    .assert_eq(&report(&db, module));
}

/// `variables { NAME = DEFAULT }` declares `var.NAME` with that default,
/// as `variable "NAME" { default = DEFAULT }` does (Packer's
/// `hcl2template/parser.go` reads both), so a reference to it is no
/// undeclared variable.
#[test]
fn a_variables_block_declares_variables() {
    let mut db = dialects::database();
    let template = r#"
variables {
  region = "eu-west-1"
  size   = 2
}
locals {
  where = "${var.region}/${var.size}"
}
"#;
    let module = load(&mut db, &[("build.pkr.hcl", template)]);
    expect![[r#"
        local.where = "eu-west-1/2"
    "#]]
    .assert_eq(&report(&db, module));
}

/// A `build`'s `sources` entry that names no `source` block of the
/// template is an undeclared block, with the nearest declared source;
/// the declared ones say nothing.
#[test]
fn a_builds_unknown_source_is_undeclared() {
    let mut db = dialects::database();
    let template = r#"
source "null" "first" {
  communicator = "none"
}
source "null" "second" {
  communicator = "none"
}
build {
  sources = ["source.null.first", "source.null.secnod"]
}
"#;
    let module = load(&mut db, &[("build.pkr.hcl", template)]);
    let diagnostics: Vec<String> = report(&db, module)
        .lines()
        .filter(|line| line.starts_with("diagnostic:"))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        diagnostics,
        [
            "diagnostic: Reference to undeclared block: The template declares no source \"null\" \"secnod\". Did you mean \"source.null.second\"?"
        ]
    );
}
