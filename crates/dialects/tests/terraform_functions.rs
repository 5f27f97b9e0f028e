//! Terraform's functions in the Terraform dialect: Terraform's own semantics
//! where they differ from go-cty's standard library, exact signatures for
//! the functions whose result is not computed (an unknown of their return
//! type), and the standard library's functions Terraform lacks unknown.

use db::{
    RootDatabase,
    module::{self, Module, attr, attribute_value, module_attributes, module_diagnostics},
};
use expect_test::{Expect, expect, expect_file};

fn load(db: &mut RootDatabase, path: &str, text: &str) -> Module {
    let file = db.set_file_text(format!("m/{path}"), text.to_string());
    db.set_module_files("m", vec![file])
}

/// Each local as `name = value` (JSON when wholly known, the value with its
/// unknowns otherwise) or `name: summary: detail` for its error.
fn locals_report(source: &str) -> String {
    let mut db = dialects::database();
    let module = load(&mut db, "main.tf", source);
    assert_eq!(module.dialect(&db).rules(&db).name, "terraform");
    module::evaluate_in_order(&db, module_attributes(&db, module));
    let mut out = String::new();
    for &attr in module_attributes(&db, module) {
        let address = attr.address(&db).to_string();
        let Some(name) = address.strip_prefix("local.") else { continue };
        match attribute_value(&db, attr) {
            Ok(value) if value.is_wholly_known() => {
                out.push_str(&format!("{name} = {}\n", value.to_json_string(&value.ty()).unwrap_or_default()))
            }
            Ok(value) => out.push_str(&format!("{name} = {value:?}\n")),
            Err(module::AttrError::Eval(error)) => {
                out.push_str(&format!("{name}: {}: {}\n", error.summary(), error.detail))
            }
            Err(error) => out.push_str(&format!("{name}: {error:?}\n")),
        }
    }
    out
}

fn check(source: &str, expected: Expect) {
    expected.assert_eq(&locals_report(source));
}

#[test]
fn length_takes_strings_collections_and_structures() {
    check(
        r#"
variable "s" {
  type = string
}
locals {
  string    = length("héllo")
  list      = length(["a", "b"])
  map       = length({ a = 1 })
  object    = length({ a = 1, b = "x" })
  unknown   = length(var.s)
  number    = length(1)
}
"#,
        expect![[r#"
            string = 5
            list = 2
            map = 1
            object = 2
            unknown = unknown("number", not null, >= 0)
            number: Error in function call: Call to function "length" failed: argument must be a string, a collection type, or a structural type.
        "#]],
    );
}

#[test]
fn lookup_takes_two_or_three_arguments() {
    check(
        r#"
variable "m" {
  type = map(string)
}
locals {
  two         = lookup({ a = 1 }, "a")
  default     = lookup({ a = 1 }, "b", 2)
  map_default = lookup(tomap({ a = "x" }), "b", "y")
  unknown     = lookup(var.m, "a")
  missing     = lookup({ a = 1 }, "b")
  four        = lookup({ a = 1 }, "a", 1, 2)
  one         = lookup({ a = 1 })
  not_a_map   = lookup(["a"], "a")
}
"#,
        expect![[r#"
            two = 1
            default = 2
            map_default = "y"
            unknown = unknown("string")
            missing: Invalid function argument: Invalid value for "inputMap" parameter: the given object has no attribute "b".
            four: Error in function call: Call to function "lookup" failed: lookup() takes two or three arguments, got 4.
            one: Not enough function arguments: Function "lookup" expects 2 argument(s). Missing value for "key".
            not_a_map: Invalid function argument: Invalid value for "inputMap" parameter: lookup() requires a map as the first argument.
        "#]],
    );
}

#[test]
fn conversions_follow_terraform() {
    check(
        r#"
variable "v" {}
locals {
  string   = tostring(1)
  number   = tonumber("2")
  bool     = tobool("true")
  list     = tolist(["a", 1])
  set      = toset(["b", "a", "b"])
  map      = tomap({ a = 1, b = "x" })
  null     = tostring(null)
  unknown  = tostring(var.v)
  bad_bool = tobool("yes")
  bad_num  = tonumber("one")
  bad_list = tolist("a")
}
"#,
        expect![[r#"
            string = "1"
            number = 2
            bool = true
            list = ["a","1"]
            set = ["a","b"]
            map = {"a":"1","b":"x"}
            null = null
            unknown = unknown("string")
            bad_bool: Invalid function argument: Invalid value for "v" parameter: cannot convert "yes" to bool; only the strings "true" or "false" are allowed.
            bad_num: Invalid function argument: Invalid value for "v" parameter: cannot convert "one" to number; given string must be a decimal representation of a number.
            bad_list: Invalid function argument: Invalid value for "v" parameter: cannot convert string to list of any single type.
        "#]],
    );
}

#[test]
fn collection_functions_follow_terraform() {
    check(
        r#"
locals {
  element_negative = element(["a", "b", "c"], -1)
  element_wraps    = element(["a", "b", "c"], 4)
  element_tuple    = element(["a", 1], -2)
  coalesce_empty   = coalesce("", "x")
  coalesce_none    = coalesce("", null)
  sum              = sum([1, 2, 3.5])
  sum_empty        = sum([])
  sum_strings      = sum(["a"])
  one_empty        = one([])
  one_single       = one(["a"])
  one_two          = one(["a", "b"])
  alltrue          = alltrue([true, "true"])
  alltrue_empty    = alltrue([])
  anytrue          = anytrue([false, null, true])
  contains_null    = contains(["a", null], tostring(null))
  # A null of no type where the parameter takes no such type: go-cty
  # (v1.13.1 and later) gives an unknown without calling the function.
  contains_dyn_null = contains(["a", null], null)
  index            = index(["a", "b"], "b")
  index_missing    = index(["a", "b"], "c")
  matchkeys        = matchkeys(["a", "b", "c"], [1, 2, 3], [1, "3"])
  matchkeys_none   = matchkeys(["a"], ["x"], ["y"])
  matchkeys_uneven = matchkeys(["a"], ["x", "y"], ["y"])
  transpose        = transpose({ a = ["1", "2"], b = ["2", "3"] })
  list             = list("a")
  map              = map("a", 1)
}
"#,
        expect![[r#"
            element_negative = "c"
            element_wraps = "b"
            element_tuple = "a"
            coalesce_empty = "x"
            coalesce_none: Error in function call: Call to function "coalesce" failed: no non-null, non-empty-string arguments.
            sum = 6.5
            sum_empty: Invalid function argument: Invalid value for "list" parameter: cannot sum an empty list.
            sum_strings: Invalid function argument: Invalid value for "list" parameter: argument must be list, set, or tuple of number values.
            one_empty = null
            one_single = "a"
            one_two: Invalid function argument: Invalid value for "list" parameter: must be a list, set, or tuple value with either zero or one elements.
            alltrue = true
            alltrue_empty = true
            anytrue = true
            contains_null = true
            contains_dyn_null = unknown("dynamic")
            index = 1
            index_missing: Error in function call: Call to function "index" failed: item not found.
            matchkeys = ["a","c"]
            matchkeys_none = []
            matchkeys_uneven: Error in function call: Call to function "matchkeys" failed: length of keys and values should be equal.
            transpose = {"1":["a"],"2":["a","b"],"3":["b"]}
            list: Error in function call: Call to function "list" failed: the "list" function was deprecated in Terraform v0.12 and is no longer available; use tolist([ ... ]) syntax to write a literal list.
            map: Error in function call: Call to function "map" failed: the "map" function was deprecated in Terraform v0.12 and is no longer available; use tomap({ ... }) syntax to write a literal map.
        "#]],
    );
}

#[test]
fn string_functions_follow_terraform() {
    check(
        r#"
variable "s" {
  type = string
}
locals {
  startswith         = startswith("hello", "he")
  startswith_unknown = startswith(var.s, "x")
  startswith_empty   = startswith(var.s, "")
  endswith           = endswith("hello", "lo")
  strcontains        = strcontains("hello", "ell")
  replace            = replace("a-b-c", "-", "+")
  replace_regex      = replace("abbc", "/b+/", "X")
  replace_slash      = replace("a/b", "/", "|")
  base64encode       = base64encode("héllo")
  base64decode       = base64decode("aMOpbGxv")
  base64decode_bad   = base64decode("!")
  urlencode          = urlencode("a b&c=d/é")
}
"#,
        expect![[r#"
            startswith = true
            startswith_unknown = unknown("bool", not null)
            startswith_empty = true
            endswith = true
            strcontains = true
            replace = "a+b+c"
            replace_regex = "aXc"
            replace_slash = "a|b"
            base64encode = "aMOpbGxv"
            base64decode = "héllo"
            base64decode_bad: Error in function call: Call to function "base64decode" failed: failed to decode base64 data "!".
            urlencode = "a+b%26c%3Dd%2F%C3%A9"
        "#]],
    );
}

#[test]
fn network_functions_compute_ipv4_and_leave_ipv6_unknown() {
    check(
        r#"
locals {
  host          = cidrhost("10.12.112.0/20", 16)
  host_last     = cidrhost("10.12.112.0/20", -2)
  host_over     = cidrhost("10.0.0.0/30", 4)
  host_first    = cidrhost("192.168.1.0/24", -256)
  host_zeros    = cidrhost("010.001.0.0/24", 6)
  netmask       = cidrnetmask("172.16.0.0/12")
  subnet        = cidrsubnet("10.1.2.0/24", 4, 15)
  subnet_zeros  = cidrsubnet("010.001.0.0/016", 8, 2)
  subnet_num    = cidrsubnet("10.0.0.0/16", 8, 256)
  subnet_bits   = cidrsubnet("10.0.0.0/30", 8, 1)
  subnet_bad    = cidrsubnet("10.0.0.300/16", 8, 1)
  subnet_ipv6   = cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)
  subnets       = cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)
  subnets_none  = cidrsubnets("10.1.0.0/16")
  subnets_full  = cidrsubnets("10.0.0.0/30", 1, 1, 1)
  subnets_short = cidrsubnets("10.0.0.0/30", 0)
  subnets_long  = cidrsubnets("10.0.0.0/16", 20)
  subnets_order = cidrsubnets("10.0.0.0/8", 1, 1, 1, 0)
  subnets_21    = cidrsubnets("10.0.0.0/21", 3, 3, 3, 4, 4, 4, 7, 7, 7)
}
"#,
        expect![[r#"
            host = "10.12.112.16"
            host_last = "10.12.127.254"
            host_over: Error in function call: Call to function "cidrhost" failed: prefix of 30 does not accommodate a host numbered 4.
            host_first = "192.168.1.0"
            host_zeros = "10.1.0.6"
            netmask = "255.240.0.0"
            subnet = "10.1.2.240/28"
            subnet_zeros = "10.1.2.0/24"
            subnet_num: Error in function call: Call to function "cidrsubnet" failed: prefix extension of 8 does not accommodate a subnet numbered 256.
            subnet_bits: Error in function call: Call to function "cidrsubnet" failed: insufficient address space to extend prefix of 30 by 8.
            subnet_bad: Error in function call: Call to function "cidrsubnet" failed: invalid CIDR expression: invalid CIDR address: 10.0.0.300/16.
            subnet_ipv6 = unknown("string", not null)
            subnets = ["10.1.0.0/20","10.1.16.0/20","10.1.32.0/24","10.1.48.0/20"]
            subnets_none = []
            subnets_full: Invalid function argument: Invalid value for "newbits" parameter: not enough remaining address space for a subnet with a prefix of 31 bits after 10.0.0.2/31.
            subnets_short: Invalid function argument: Invalid value for "newbits" parameter: must extend prefix by at least one bit.
            subnets_long: Invalid function argument: Invalid value for "newbits" parameter: would extend prefix to 36 bits, which is too long for an IPv4 address.
            subnets_order: Invalid function argument: Invalid value for "newbits" parameter: not enough remaining address space for a subnet with a prefix of 9 bits after 10.128.0.0/9.
            subnets_21 = ["10.0.0.0/24","10.0.1.0/24","10.0.2.0/24","10.0.3.0/25","10.0.3.128/25","10.0.4.0/25","10.0.4.128/28","10.0.4.144/28","10.0.4.160/28"]
        "#]],
    );
}

#[test]
fn functions_not_computed_have_exact_signatures_and_unknown_results() {
    check(
        r#"
variable "prefix" {
  type = string
}
locals {
  file          = file("x")
  file_two      = file("x", "y")
  fileset       = fileset(".", "*.tf")
  templatefile  = templatefile("x.tpl", {})
  cidrsubnet    = cidrsubnet(var.prefix, 8, 1)
  cidr_short    = cidrsubnet("10.0.0.0/16", 8)
  cidr_type     = cidrsubnet("10.0.0.0/16", "eight", 1)
  cidrsubnets   = cidrsubnets(var.prefix, 8, 8)
  uuid          = uuid()
  uuid_arg      = uuid(1)
  sha256        = sha256("x")
  bcrypt        = bcrypt("x", 10)
  timestamp     = timestamp()
  yamldecode    = yamldecode("a: 1")
  file_null     = file(null)
  sensitive     = sensitive("x")
  issensitive   = issensitive("x")
  strlen        = strlen("x")
}
"#,
        expect![[r#"
            file = unknown("string", not null)
            file_two: Too many function arguments: Function "file" expects only 1 argument(s).
            fileset = unknown(["set","string"], not null)
            templatefile = unknown("dynamic")
            cidrsubnet = unknown("string", not null)
            cidr_short: Not enough function arguments: Function "cidrsubnet" expects 3 argument(s). Missing value for "netnum".
            cidr_type: Invalid function argument: Invalid value for "newbits" parameter: a number is required.
            cidrsubnets = unknown(["list","string"], not null)
            uuid = unknown("string", not null)
            uuid_arg: Too many function arguments: Function "uuid" expects only 0 argument(s).
            sha256 = unknown("string", not null)
            bcrypt = unknown("string", not null)
            timestamp = unknown("string")
            yamldecode = unknown("dynamic")
            file_null: Invalid function argument: Invalid value for "path" parameter: argument must not be null.
            sensitive = "x"
            issensitive = unknown("bool")
            strlen: Call to unknown function: There is no function named "strlen". Did you mean "strrev"?
        "#]],
    );
}

/// Every Terraform function is in the dialect's table, and the standard
/// library's functions Terraform lacks are not.
#[test]
fn the_table_has_terraform_functions_only() {
    let table = dialects::terraform::functions();
    let missing: Vec<&str> =
        TERRAFORM_FUNCTIONS.iter().copied().filter(|name| !table.contains_key(*name)).collect();
    assert_eq!(missing, Vec::<&str>::new());
    for name in ["strlen", "int", "regex_replace"] {
        assert!(!table.contains_key(name), "{name}");
    }
    let extra: Vec<&str> =
        table.keys().map(String::as_str).filter(|name| !TERRAFORM_FUNCTIONS.contains(name)).collect();
    // `convert` is Terraform 1.14's.
    assert_eq!(extra, ["convert"]);
}

/// A generic module keeps the standard library's functions: `length` of a
/// string is an error there, `strlen` a function.
#[test]
fn a_generic_module_keeps_the_standard_library() {
    let mut db = dialects::database();
    let module = load(&mut db, "app.hcl", "a = length(\"abc\")\nb = strlen(\"abc\")\n");
    assert_eq!(module.dialect(&db).rules(&db).name, "generic");
    assert!(attribute_value(&db, attr(&db, module, "a")).is_err());
    assert_eq!(attribute_value(&db, attr(&db, module, "b")).as_ref().ok(), Some(&module::Value::int(3)));
    let diagnostics: Vec<String> =
        module_diagnostics(&db, module).iter().map(|diagnostic| diagnostic.summary().into_owned()).collect();
    expect_file!["expected/terraform_functions_generic.txt"].assert_debug_eq(&diagnostics);
}

/// Terraform's built-in functions: the table of `internal/lang/functions.go`
/// in hashicorp/terraform (commit 06c309c7, read through the search
/// corpus), plus those added after it that the language documentation
/// lists (`plantimestamp`, `strcontains` in 1.5, `issensitive` in 1.8,
/// `templatestring` in 1.9, `ephemeralasnull` in 1.10) and `type`
/// (`terraform console` only). The dialect's table
/// (`crates/db/src/module/terraform_functions.rs`) must hold exactly these:
/// this list is the oracle, kept apart from the code it checks.
const TERRAFORM_FUNCTIONS: &[&str] = &[
    "abs",
    "abspath",
    "alltrue",
    "anytrue",
    "basename",
    "base64decode",
    "base64encode",
    "base64gzip",
    "base64sha256",
    "base64sha512",
    "bcrypt",
    "can",
    "ceil",
    "chomp",
    "cidrhost",
    "cidrnetmask",
    "cidrsubnet",
    "cidrsubnets",
    "coalesce",
    "coalescelist",
    "compact",
    "concat",
    "contains",
    "csvdecode",
    "dirname",
    "distinct",
    "element",
    "endswith",
    "chunklist",
    "ephemeralasnull",
    "file",
    "fileexists",
    "fileset",
    "filebase64",
    "filebase64sha256",
    "filebase64sha512",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "flatten",
    "floor",
    "format",
    "formatdate",
    "formatlist",
    "indent",
    "index",
    "issensitive",
    "join",
    "jsondecode",
    "jsonencode",
    "keys",
    "length",
    "list",
    "log",
    "lookup",
    "lower",
    "map",
    "matchkeys",
    "max",
    "md5",
    "merge",
    "min",
    "nonsensitive",
    "one",
    "parseint",
    "pathexpand",
    "plantimestamp",
    "pow",
    "range",
    "regex",
    "regexall",
    "replace",
    "reverse",
    "rsadecrypt",
    "sensitive",
    "setintersection",
    "setproduct",
    "setsubtract",
    "setunion",
    "sha1",
    "sha256",
    "sha512",
    "signum",
    "slice",
    "sort",
    "split",
    "startswith",
    "strcontains",
    "strrev",
    "substr",
    "sum",
    "templatefile",
    "templatestring",
    "textdecodebase64",
    "textencodebase64",
    "timeadd",
    "timecmp",
    "timestamp",
    "title",
    "tobool",
    "tolist",
    "tomap",
    "tonumber",
    "toset",
    "tostring",
    "transpose",
    "trim",
    "trimprefix",
    "trimspace",
    "trimsuffix",
    "try",
    "type",
    "upper",
    "urlencode",
    "uuid",
    "uuidv5",
    "values",
    "yamldecode",
    "yamlencode",
    "zipmap",
];

/// Namespaced calls: the built-in functions under `core::`; a provider's
/// functions under `provider::NAME::` for a provider the module requires,
/// whose results are unknown (only the provider knows them) but whose
/// arguments are evaluated, errors and all; the built-in `terraform`
/// provider's three functions with their signatures; and Terraform's errors
/// for the namespaces it cannot resolve, from the declarations.
#[test]
fn namespaced_functions_follow_terraform() {
    let source = r#"
terraform {
  required_providers {
    aws = {
      source = "hashicorp/aws"
    }
    terraform = {
      source = "terraform.io/builtin/terraform"
    }
  }
}
variable "arn" {
  type = string
}
locals {
  core_upper   = core::upper("abc")
  core_length  = core::length("abc")
  provider     = provider::aws::arn_parse(var.arn)
  provider_arg = provider::aws::arn_parse(1 + "a")
  tfvars       = provider::terraform::encode_tfvars({ a = 1 })
  tfvars_null  = provider::terraform::encode_tfvars(null)
  decoded      = provider::terraform::decode_tfvars("a = 1")
  undeclared   = provider::google::f(1)
  no_core      = core::nosuch(1)
}
"#;
    check(
        source,
        expect![[r#"
            core_upper = "ABC"
            core_length = 3
            provider = unknown("dynamic")
            provider_arg: Invalid operand: Unsuitable value for right operand: a number is required.
            tfvars = unknown("string")
            tfvars_null: Invalid function argument: Invalid value for "value" parameter: argument must not be null.
            decoded = unknown("dynamic")
            undeclared = unknown("dynamic")
            no_core = unknown("dynamic")
        "#]],
    );
    let mut db = dialects::database();
    let module = load(&mut db, "main.tf", source);
    let file = module::module_files(&db, module)[0];
    let report: Vec<String> = dialects::terraform::provider_function_diagnostics(&db, module, file)
        .iter()
        .map(|d| format!("{}: {}", d.summary(), d.detail))
        .collect();
    expect![[r#"
        [
            "Unknown provider function: There is no function named \"provider::google::f\". Ensure that provider name \"google\" is declared in this module's required_providers block, and that this provider offers a function named \"f\".",
            "Unknown provider function: The function namespace \"core\" is not valid. Provider function calls must use the \"provider::\" namespace prefix.",
        ]
    "#]]
    .assert_debug_eq(&report);
}
