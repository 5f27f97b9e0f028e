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
            diagnostic.kind.name(),
            diagnostic.summary(),
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
                "main.hcl",
                "locals {\n  greeting = \"hello ${var.name}\"\n  n = length(local.items)\n}\n\nservice \"web\" {\n  size = local.n * 2\n  label = upper(local.greeting)\n}\n",
            ),
            (
                "other.hcl",
                "locals {\n  items = [1, 2, 3]\n  whole = service.web\n  size = service.web.size\n}\n",
            ),
            ("variables.hcl", "variable \"name\" {\n  type = string\n  default = \"world\"\n}\n"),
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

#[test]
fn cycles_are_diagnostics_naming_every_step() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            (
                "a.hcl",
                "locals {\n  a = local.b + 1\n  b = local.c\n  c = [local.a]\n  self = local.self\n  user = local.a\n  fine = 1\n}\n",
            ),
            ("b.hcl", "service \"web\" {\n  port = service.web\n}\n"),
        ],
    );
    expect![[r#"
        local.a: Cycle([Address { segments: ["local", "a"] }, Address { segments: ["local", "b"] }, Address { segments: ["local", "c"] }, Address { segments: ["local", "a"] }])
        local.b: Cycle([Address { segments: ["local", "b"] }, Address { segments: ["local", "c"] }, Address { segments: ["local", "a"] }, Address { segments: ["local", "b"] }])
        local.c: Cycle([Address { segments: ["local", "c"] }, Address { segments: ["local", "a"] }, Address { segments: ["local", "b"] }, Address { segments: ["local", "c"] }])
        local.self: Cycle([Address { segments: ["local", "self"] }, Address { segments: ["local", "self"] }])
        local.user: Dependency(Address { segments: ["local", "a"] })
        local.fine = 1
        service.web.port: Cycle([Address { segments: ["service", "web", "port"] }, Address { segments: ["service", "web", "port"] }])
    "#]]
    .assert_eq(&values(&db, module));
    expect![[r#"
        m/a.hcl "local.b" [reference-cycle] Reference cycle: The value of local.a depends on itself: local.a -> local.b -> local.c -> local.a.
        m/a.hcl "local.self" [reference-cycle] Reference cycle: The value of local.self depends on itself: local.self -> local.self.
        m/b.hcl "service.web" [reference-cycle] Reference cycle: The value of service.web.port depends on itself: service.web.port -> service.web.port.
    "#]].assert_eq(&diagnostics(&db, module));
}

#[test]
fn duplicate_declarations() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            ("a.hcl", "locals {\n  a = 1\n}\n\nvariable \"x\" {}\n\nservice \"web\" {\n  port = 80\n}\n"),
            (
                "b.hcl",
                "locals {\n  a = 2\n}\nvariable \"x\" {\n  default = 1\n}\nservice \"web\" {\n  port = 8080\n  extra = true\n}\n",
            ),
            ("c.hcl", "endpoint \"api\" {}\nendpoint \"api\" {}\n"),
        ],
    );
    expect![[r#"
        m/b.hcl "a" [duplicate-declaration] Duplicate local value definition: A local value named "a" was already defined at m/a.hcl:2:3. Local value names must be unique within a module.
          m/a.hcl 11: first declared here
        m/b.hcl "variable \"x\"" [duplicate-declaration] Duplicate variable declaration: A variable named "x" was already declared at m/a.hcl:5:1. Variable names must be unique within a module.
          m/a.hcl 20: first declared here
        m/b.hcl "service \"web\"" [duplicate-declaration] Duplicate service block: A service block "web" was already declared at m/a.hcl:7:1.
          m/a.hcl 37: first declared here
        m/c.hcl "endpoint \"api\"" [duplicate-declaration] Duplicate endpoint block: An endpoint block "api" was already declared at m/c.hcl:1:1.
          m/c.hcl 0: first declared here
    "#]].assert_eq(&diagnostics(&db, module));
    // The first declaration (files by path) is the one that counts.
    expect![[r#"
        local.a = 1
        service.web.port = 80
    "#]]
    .assert_eq(&values(&db, module));
}

#[test]
fn unresolved_references_suggest_a_near_name() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[(
            "a.hcl",
            "locals {\n  count = 1\n  a = local.cuont\n  b = var.regoin\n  c = servce.web.port\n  d = service.wbe.port\n  e = service.web.prot\n  f = nothing\n  g = [for x in [1] : x + local.count]\n}\n\nvariable \"region\" {\n  default = \"eu\"\n}\n\nservice \"web\" {\n  port = 80\n}\n",
        )],
    );
    expect![[r#"
        m/a.hcl "local.cuont" [unresolved-reference] Reference to undeclared local value: A local value with the name "cuont" has not been declared. Did you mean "count"?
        m/a.hcl "var.regoin" [unresolved-reference] Reference to undeclared input variable: An input variable with the name "regoin" has not been declared. Did you mean "region"?
        m/a.hcl "servce" [unresolved-reference] Unknown variable: There is no variable named "servce". Did you mean "service"?
        m/a.hcl "service.wbe" [unresolved-reference] Reference to undeclared block: A block "service" "wbe" has not been declared. Did you mean "web"?
        m/a.hcl "service.web.prot" [unresolved-reference] Unsupported attribute: This object does not have an attribute named "prot". Did you mean "port"?
        m/a.hcl "nothing" [unresolved-reference] Unknown variable: There is no variable named "nothing".
    "#]].assert_eq(&diagnostics(&db, module));
}

#[test]
fn variables_without_values_fail_where_used() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[(
            "a.hcl",
            "variable \"needed\" {}\nvariable \"typed\" {\n  type = object({ a = number, b = optional(string, \"dflt\") })\n}\nvariable \"bad_default\" {\n  type = number\n  default = \"x\"\n}\nvariable \"bad_type\" {\n  type = strang\n}\nlocals {\n  a = var.needed\n  b = var.typed\n  c = var.bad_default\n  d = var.bad_type\n  unused = 1\n}\n",
        )],
    );
    db.set_module_variables(
        module,
        BTreeMap::from([(
            "typed".to_string(),
            eval::Value::object(BTreeMap::from([("a".to_string(), eval::Value::string("5"))])),
        )]),
    );
    expect![[r#"
        local.a: MissingVariable { reference: 0, variable: Address { segments: ["var", "needed"] } }
        local.b = {"a":5,"b":"dflt"}
        local.c: Dependency(Address { segments: ["var", "bad_default"] })
        local.d: MissingVariable { reference: 0, variable: Address { segments: ["var", "bad_type"] } }
        local.unused = 1
    "#]]
    .assert_eq(&values(&db, module));
    expect![[r#"
        m/a.hcl "strang" [invalid-type] Invalid type specification: The keyword "strang" is not a valid type specification.
        m/a.hcl "\"x\"" [invalid-variable-value] Invalid default value for variable: This default value is not compatible with the variable's type constraint: a number is required.
        m/a.hcl "var.needed" [missing-variable] No value for required variable: The input variable "needed" is not set, and has no default value.
        m/a.hcl "var.bad_type" [missing-variable] No value for required variable: The input variable "bad_type" is not set, and has no default value.
    "#]].assert_eq(&diagnostics(&db, module));
}

#[test]
fn json_files_declare_and_reference_like_native_ones() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            ("main.hcl", "locals {\n  port = service.api.port + 1\n  prefix = \"${var.env}-\"\n}\n"),
            (
                "extra.hcl.json",
                r#"{
  "variable": {"env": {"type": "string", "default": "dev"}},
  "locals": [{"name": "${local.prefix}api"}, {"ports": ["${local.port}", 2]}],
  "service": {
    "api": {"port": 8080, "tags": {"${var.env}": true, "plain": null}},
    "db": [{"port": "${service.api.port * 2}"}]
  }
}"#,
            ),
            ("dup.hcl", "locals {\n  name = \"again\"\n}\n"),
        ],
    );
    expect![[r#"
        local.name = "again"
        local.ports = [8081,2]
        service.api.port = 8080
        service.api.tags = {"dev":true,"plain":null}
        service.db.port = 16160
        local.port = 8081
        local.prefix = "dev-"
    "#]]
    .assert_eq(&values(&db, module));
    expect![[r#"
        m/extra.hcl.json "\"name\"" [duplicate-declaration] Duplicate local value definition: A local value named "name" was already defined at m/dup.hcl:2:3. Local value names must be unique within a module.
          m/dup.hcl 11: first declared here
    "#]].assert_eq(&diagnostics(&db, module));
    assert!(vfs::is_module_file("a/main.hcl.json".into()));
    assert!(vfs::is_module_file("a/build.pkr.json".into()));
    assert!(!vfs::is_module_file("a/terraform.tfvars.json".into()));
    assert!(!vfs::is_module_file("a/package.json".into()));
}

#[test]
fn an_expression_the_parser_could_not_read_is_not_reported_again() {
    let mut db = RootDatabase::new();
    let module = load(&mut db, &[("a.hcl", "locals {\n  a = 1 +\n  b = local.a\n  c = \"ok\"\n}\n")]);
    expect![[""]].assert_eq(&diagnostics(&db, module));
    expect![[r#"
        local.a: Eval(EvalError { expr: Idx::<Expr>(0), kind: MissingExpression, detail: "The expression could not be parsed." })
        local.b: Dependency(Address { segments: ["local", "a"] })
        local.c = "ok"
    "#]].assert_eq(&values(&db, module));
}

#[test]
fn an_attribute_holding_a_syntax_error_has_no_value() {
    // The parser recovers `[1 2]` as a tuple of one element and `f(1 x)` as
    // a call of one argument; a value computed from either would be wrong.
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            ("a.hcl", "locals {\n  list = [1 2]\n  call = max(1 x)\n  after = 3\n}\n"),
            ("b.hcl.json", "{\"locals\": {\"j\": [1 2], \"k\": 4}}"),
        ],
    );
    expect![[r#"
        local.list: Eval(EvalError { expr: Idx::<Expr>(0), kind: MissingExpression, detail: "The expression could not be parsed." })
        local.call: Eval(EvalError { expr: Idx::<Expr>(0), kind: MissingExpression, detail: "The expression could not be parsed." })
        local.after = 3
        local.j: Eval(EvalError { expr: Idx::<Expr>(0), kind: MissingExpression, detail: "The expression could not be parsed." })
        local.k = 4
    "#]]
    .assert_eq(&values(&db, module));
}

#[test]
fn nested_blocks_attributes_are_evaluated_by_address() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[(
            "a.hcl",
            "service \"web\" {\n  port = 80\n  health {\n    path = \"/up/${service.web.port}\"\n    check \"tcp\" {\n      timeout = 1 + 1\n    }\n  }\n  rule {\n    allow = true\n  }\n  rule {\n    allow = local.nope\n  }\n  dynamic \"rule\" {\n    for_each = [1]\n    content {\n      allow = rule.value\n    }\n  }\n}\n",
        )],
    );
    expect![[r#"
        service.web.port = 80
        service.web.health.path = "/up/80"
        service.web.health.check.tcp.timeout = 2
        service.web.rule.0.allow = true
        service.web.rule.1.allow: Unresolved { reference: 0, step: 1, kind: UndeclaredLocal { name: "nope", suggestion: None }, detail: "A local value with the name \"nope\" has not been declared." }
    "#]]
    .assert_eq(&values(&db, module));
    expect![[r#"
        m/a.hcl "local.nope" [unresolved-reference] Reference to undeclared local value: A local value with the name "nope" has not been declared.
    "#]].assert_eq(&diagnostics(&db, module));
}

#[test]
fn nested_blocks_attributes_are_referenced_through_their_block() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[(
            "a.hcl",
            r#"target "m0" {
  output = "out"
  step "compile" {
    flags = ["-g"]
  }
  step {
    n = 1
  }
  step {
    n = 2
  }
}
target "use" {
  flags   = target.m0.step.compile.flags
  first   = target.m0.step.compile.flags[0]
  compile = target.m0.step.compile
  second  = target.m0.step[1].n
  legacy  = target.m0.step.0.n
  steps   = sort(keys(target.m0.step))
  whole   = target.m0.step.compile.flags == target["m0"].step["compile"].flags
  misspelt_attribute = target.m0.step.compile.flag
  misspelt_type      = target.m0.stp
}
"#,
        )],
    );
    expect![[r#"
        target.m0.output = "out"
        target.m0.step.compile.flags = ["-g"]
        target.m0.step.0.n = 1
        target.m0.step.1.n = 2
        target.use.flags = ["-g"]
        target.use.first = "-g"
        target.use.compile = {"flags":["-g"]}
        target.use.second = 2
        target.use.legacy = 1
        target.use.steps = ["0","1","compile"]
        target.use.whole = true
        target.use.misspelt_attribute: Unresolved { reference: 0, step: 4, kind: UnsupportedAttribute { name: "flag", suggestion: Some("flags") }, detail: "This object does not have an attribute named \"flag\". Did you mean \"flags\"?" }
        target.use.misspelt_type: Unresolved { reference: 0, step: 2, kind: UnsupportedAttribute { name: "stp", suggestion: Some("step") }, detail: "This object does not have an attribute named \"stp\". Did you mean \"step\"?" }
    "#]]
    .assert_eq(&values(&db, module));
    let resolution = |address: &str| {
        let attr = module::attr(&db, module, address);
        module::attribute_resolution(&db, attr)
            .dependencies()
            .into_iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    // Each reads exactly the attributes it names.
    expect![[r#"
        [
            "target.m0.step.compile.flags",
        ]
    "#]]
    .assert_debug_eq(&resolution("target.use.first"));
    expect![[r#"
        [
            "target.m0.step.0.n",
            "target.m0.step.1.n",
            "target.m0.step.compile.flags",
        ]
    "#]]
    .assert_debug_eq(&{
        let mut all = resolution("target.use.steps");
        all.sort();
        all
    });
}

#[test]
fn a_label_indexed_by_a_literal_key_names_its_block() {
    // Before, `target["test.m0"]` read every block of `target`, the
    // referring block's own attributes included: a false cycle.
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[(
            "a.hcl",
            r#"target "m0" {
  output = "out"
}
target "test.m0" {
  deps = [target["m0"].output]
  log  = "${target["test.m0"].deps[0]}/test.log"
}
"#,
        )],
    );
    expect![[r#"
        target.m0.output = "out"
        target.test.m0.deps = ["out"]
        target.test.m0.log = "out/test.log"
    "#]]
    .assert_eq(&values(&db, module));
    expect![[r#""#]].assert_eq(&diagnostics(&db, module));
}

/// The references of one expression as `root.attr…` strings.
fn references_of(text: &str) -> Vec<String> {
    let parse = syntax::parse_expression(text);
    assert!(parse.errors().is_empty(), "{text}: {:?}", parse.errors());
    let (hir, root, _) = hir::lower_expression_file(&parse.tree());
    let (expr, _) = module::extract(&hir.exprs, root);
    module::references(expr.exprs(), expr.root())
        .into_iter()
        .map(|reference| std::iter::once(reference.root).chain(reference.attrs).collect::<Vec<_>>().join("."))
        .collect()
}

#[test]
fn references_are_roots_and_their_leading_attributes() {
    expect![[r#"
        [
            "local.a.b.0.c",
            "var.x",
        ]
    "#]]
    .assert_debug_eq(&references_of("local.a.b[0].c + var.x"));
    expect![[r#"
        [
            "local.m",
            "var.skip",
        ]
    "#]]
    .assert_debug_eq(&references_of("[for k, v in local.m : v.x if k != var.skip]"));
    expect![[r#"
        [
            "local.l",
            "local.n",
        ]
    "#]]
    .assert_debug_eq(&references_of("{ for x in local.l : x => local.n[x] }"));
    expect![[r#"
        [
            "local.list",
        ]
    "#]]
    .assert_debug_eq(&references_of("local.list[*].name"));
    expect![[r#"
        [
            "service.web",
            "var.i",
        ]
    "#]]
    .assert_debug_eq(&references_of("service.web[var.i].port"));
    expect![[r#"
        [
            "target.test.m0.deps",
            "step.0.run",
            "step.1",
            "x",
        ]
    "#]]
    .assert_debug_eq(&references_of("target[\"test.m0\"].deps + step.0.run + step[1][\"${x}\"]"));
    expect![[r#"
        [
            "local.ss",
            "var.sep",
        ]
    "#]]
    .assert_debug_eq(&references_of("\"%{ for s in local.ss }${s}-${var.sep}%{ endfor }\""));
    expect![[r#"
        [
            "local.x",
            "local.y.z",
            "nope",
        ]
    "#]]
    .assert_debug_eq(&references_of("upper(local.x) == \"${local.y.z}\" ? 1 : can(nope)"));
}

#[test]
fn repeated_blocks_without_labels_are_numbered_not_duplicates() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            (
                "a.hcl",
                "moved {\n  from = \"a\"\n}\nsettings {\n  debug = true\n}\nmoved {\n  from = \"b\"\n}\n",
            ),
            (
                "b.hcl",
                "moved {\n  from = \"c\"\n}\nlocals {\n  debug = settings.debug\n  second = moved.1.from\n}\n",
            ),
        ],
    );
    expect![[r#"
        moved.0.from = "a"
        settings.debug = true
        moved.1.from = "b"
        moved.2.from = "c"
        local.debug = true
        local.second = "b"
    "#]]
    .assert_eq(&values(&db, module));
    expect![[""]].assert_eq(&diagnostics(&db, module));
}

/// `try` and `can` catch a block's missing attribute as HCL evaluates it
/// (the reference's `try(b.x.nope, "d")` is `"d"`), rather than the module
/// model reporting the reference before evaluation; outside them the
/// reference is still an error.
#[test]
fn try_and_can_catch_a_blocks_missing_attribute() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[(
            "a.hcl",
            "service \"web\" {\n  port = 80\n}\n\nlocals {\n  fallback = try(service.web.nope, \"d\")\n  tested = can(service.web.nope)\n  found = try(service.web.port, 1)\n  both = try(service.web.nope, service.web.port)\n  outside = service.web.nope\n}\n",
        )],
    );
    expect![[r#"
        service.web.port = 80
        local.fallback = "d"
        local.tested = false
        local.found = 80
        local.both = 80
        local.outside: Unresolved { reference: 0, step: 2, kind: UnsupportedAttribute { name: "nope", suggestion: None }, detail: "This object does not have an attribute named \"nope\"." }
    "#]]
    .assert_eq(&values(&db, module));
    expect![[r#"
        m/a.hcl "service.web.nope" [unresolved-reference] Unsupported attribute: This object does not have an attribute named "nope".
    "#]]
    .assert_eq(&diagnostics(&db, module));
}

/// The database knows HCL and modules, never a tool: every language is a
/// dialect plug-in outside it (`crates/dialects`, or an embedder's). So no
/// source of this crate, comments included, names one.
#[test]
fn the_database_names_no_dialect() {
    const NAMES: &[&str] = &["terraform", "opentofu", "tofu", "terragrunt", "packer", "nomad"];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pending = vec![root.join("src"), root.join("Cargo.toml")];
    let mut found = Vec::new();
    let mut read = 0;
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            pending.extend(std::fs::read_dir(&path).unwrap().map(|entry| entry.unwrap().path()));
            continue;
        }
        read += 1;
        let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
        for (number, line) in text.lines().enumerate() {
            for name in NAMES.iter().filter(|name| line.contains(*name)) {
                found.push(format!("{}:{}: {name}", path.display(), number + 1));
            }
        }
    }
    assert!(read > 10, "the walk found the sources");
    assert!(found.is_empty(), "crates/db names a dialect:\n{}", found.join("\n"));
}
