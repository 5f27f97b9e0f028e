//! The workspace's changes: what `apply` reports for edits that add, remove
//! or move declarations, for removed files and for variables, and errors.

use halite::{Change, Error, Function, FunctionError, Param, Type, Value, Workspace};

fn set(path: &str, text: &str) -> Change {
    let mut change = Change::new();
    change.set_file_text(path, text);
    change
}

#[test]
fn a_new_declaration_resolves_what_referred_to_it() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", "locals {\n  a = local.b\n  c = 1\n}\n");
    assert!(workspace.value("local.a").is_err());
    let changed = workspace.apply(set("m/b.hcl", "locals {\n  b = 2\n}\n")).values;
    assert_eq!(changed, ["local.a", "local.b"]);
    assert_eq!(workspace.value("local.a").unwrap(), Value::int(2));
    // Renaming it in place is a change of declarations too: the old name
    // is removed.
    let changes = workspace.apply(set("m/b.hcl", "locals {\n  bb = 2\n}\n"));
    assert_eq!(changes.values, ["local.a", "local.b", "local.bb"]);
    assert_eq!(changes.removed, ["local.b"]);
}

#[test]
fn a_removed_file_changes_its_addresses_and_their_readers() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", "locals {\n  a = 1\n}\n");
    workspace.add_file("m/b.hcl", "locals {\n  b = local.a + 1\n}\n");
    let mut remove = Change::new();
    remove.remove_file("m/a.hcl");
    let changed = workspace.apply(remove).values;
    assert_eq!(changed, ["local.a", "local.b"]);
    assert_eq!(workspace.addresses(), ["local.b"]);
    assert!(matches!(workspace.value("local.a"), Err(Error::NoSuchAddress(_))));
    // Back again, through bytes as the watcher gives them.
    let mut bytes = Change::new();
    bytes.set_file_bytes("m/a.hcl", b"locals { a = 1 }".to_vec());
    let changed = workspace.apply(bytes).values;
    assert_eq!(changed, ["local.a", "local.b"]);
    assert_eq!(workspace.value("local.b").unwrap(), Value::int(2));
}

/// A Terragrunt unit's directory is the unit (keyed by its file in the
/// host), read from disk or given in memory, as `halite eval DIR` reads
/// it: its values, and what an edit changes.
#[test]
fn a_terragrunt_units_directory_is_the_unit() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = halite::Utf8Path::from_path(dir.path()).expect("a UTF-8 directory");
    std::fs::write(dir.join("terragrunt.hcl"), "locals {\n  x = 1\n}\ninputs = {\n  a = local.x\n}\n")
        .expect("a written file");
    let workspace = Workspace::open(dir).expect("an opened unit");
    assert_eq!(workspace.addresses(), ["inputs", "local.x"]);
    assert_eq!(workspace.value("inputs").unwrap(), Value::object_from([("a", Value::int(1))]));

    let mut workspace = Workspace::new("u");
    workspace.add_file("u/terragrunt.hcl", "locals {\n  x = 1\n}\n");
    assert_eq!(workspace.value("local.x").unwrap(), Value::int(1));
    let changed = workspace.apply(set("u/terragrunt.hcl", "locals {\n  x = 2\n}\n")).values;
    assert_eq!(changed, ["local.x"]);
    assert_eq!(workspace.value("local.x").unwrap(), Value::int(2));
}

/// A file named two ways (`./m/a.hcl`, `m/a.hcl`, `m/./a.hcl`) is one
/// file: an edit through another spelling replaces it, not adds a copy.
#[test]
fn a_file_named_two_ways_is_one_file() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("./m/a.hcl", "locals {\n  a = 1\n}\n");
    workspace.add_file("m/a.hcl", "locals {\n  b = 2\n}\n");
    assert_eq!(workspace.addresses(), ["local.b"]);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = halite::Utf8Path::from_path(dir.path()).expect("a UTF-8 directory");
    std::fs::write(dir.join("main.hcl"), "locals {\n  a = 1\n}\n").expect("a written file");
    let mut workspace = Workspace::open(dir).expect("an opened module");
    workspace.apply(set(dir.join("./main.hcl").as_str(), "locals {\n  b = 2\n}\n"));
    assert_eq!(workspace.addresses(), ["local.b"]);
}

/// A value given for a variable that does not convert to its type is a
/// diagnostic at the variable in a module of any language with typed
/// variables, as in Terraform's.
#[test]
fn a_given_value_that_does_not_fit_its_type_is_a_diagnostic() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", "variable \"port\" {\n  type = number\n}\n");
    assert!(workspace.diagnostics().is_empty());
    workspace.set_variable("port", Value::string("abc"));
    assert!(workspace.value("var.port").is_err());
    let codes: Vec<String> = workspace.diagnostics().iter().map(|it| it.code.to_string()).collect();
    assert_eq!(codes, ["invalid-variable-value"]);
}

/// A configuration that says something wrong is told from a file that
/// cannot be read: `Error::Config`, naming the file.
#[test]
fn a_bad_configuration_is_a_config_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = halite::Utf8Path::from_path(dir.path()).expect("a UTF-8 directory");
    std::fs::write(dir.join("main.tf"), "variable \"a\" {}\n").expect("a written file");
    std::fs::write(dir.join("terraform.tfvars"), "a = \n").expect("a written file");
    match Workspace::open(dir) {
        Err(Error::Config { path, .. }) => assert_eq!(path, dir.join("terraform.tfvars")),
        other => panic!("{:?}", other.err()),
    }
    std::fs::remove_file(dir.join("terraform.tfvars")).expect("removed");
    std::fs::write(dir.join("halite.toml"), "[rules]\nno-such-rule = \"off\"\n").expect("a written file");
    match Workspace::open(dir) {
        Err(Error::Config { path, message }) => {
            assert_eq!(path, dir.join("halite.toml"));
            assert!(message.contains("unknown rule `no-such-rule`"), "{message}");
        }
        other => panic!("{:?}", other.err()),
    }
}

#[test]
fn variables_change_their_readers_only() {
    let mut workspace = Workspace::new("m");
    workspace.add_file(
        "m/a.hcl",
        "variable \"n\" {\n  type    = number\n  default = 1\n}\nlocals {\n  twice = var.n * 2\n  other = 7\n}\n",
    );
    assert_eq!(workspace.value("local.twice").unwrap(), Value::int(2));
    let set_n = || {
        let mut change = Change::new();
        change.set_variable("m", "n", Some(Value::string("4")));
        change
    };
    let (changed, executed) = workspace.apply_logged(set_n());
    let changed = changed.values;
    assert_eq!(changed, ["local.twice", "var.n"]);
    assert!(executed.contains(&"attribute_value(local.twice)".to_string()), "{executed:?}");
    assert!(!executed.contains(&"attribute_value(local.other)".to_string()), "{executed:?}");
    // Converted to the declared type.
    assert_eq!(workspace.value("var.n").unwrap(), Value::int(4));
    // The same value again is no change.
    assert!(workspace.apply(set_n()).values.is_empty());
}

#[test]
fn errors_name_their_cause() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", "locals {\n  a = local.b\n  b = local.a\n  c = 1 + \"x\"\n}\n");
    let error = workspace.value("local.a").unwrap_err();
    assert_eq!(error.to_string(), "`local.a`: Reference cycle: local.a -> local.b -> local.a");
    let error = workspace.value("local.c").unwrap_err().to_string();
    assert!(error.starts_with("`local.c`: Invalid operand"), "{error}");
    let error = workspace.value_as::<u8>("local.a").unwrap_err();
    assert!(matches!(error, Error::Evaluation { .. }));
    workspace.add_file("m/b.hcl", "locals {\n  big = 300\n}\n");
    let error = workspace.value_as::<u8>("local.big").unwrap_err();
    assert_eq!(error.to_string(), "m/b.hcl:2:9: at local.big: the number 300 is out of range for u8");
    assert_eq!(
        workspace.set_variable_expr("x", "var.y").unwrap_err().to_string(),
        "`var.y` is not an expression: Variables not allowed: Variables may not be used here."
    );
}

#[test]
fn a_dialect_adds_functions_and_roots_but_not_errors() {
    let mut workspace = Workspace::new("m");
    workspace.add_root("env", Value::object_from([("HOME", Value::string("/home/me"))]));
    workspace.register_function(
        "fail",
        Function::simple(vec![Param::new("why", Type::String)], None, Type::String, |args, _| {
            Err(FunctionError::arg(0, args[0].as_str().unwrap_or_default()))
        }),
    );
    workspace.add_file(
        "m/a.hcl",
        "locals {\n  home = \"${env.HOME}/.cache\"\n  bad  = fail(\"no\")\n  odd  = nothere.x\n  up   = upper(local.home)\n}\n",
    );
    assert_eq!(workspace.value("local.up").unwrap(), Value::string("/HOME/ME/.CACHE"));
    let error = workspace.value("local.bad").unwrap_err().to_string();
    assert!(error.contains("no"), "{error}");
    // The model evaluates with the dialect, so nothing is reported about
    // its names, and the failing call of `local.bad`, which only the
    // dialect's evaluation meets, is. An unknown root fails its value
    // but is no diagnostic: the diagnostics are `halite check`'s, which
    // reports one only where a dialect knows every root of the language.
    let messages: Vec<String> = workspace.diagnostics().iter().map(|d| d.message.clone()).collect();
    assert_eq!(messages, ["Invalid function argument"]);
    assert!(workspace.value("local.odd").is_err());
    // Under the codes `halite check` reports and `halite.toml` configures.
    let codes: Vec<String> = workspace.diagnostics().iter().map(|d| d.code.clone()).collect();
    assert_eq!(codes, ["evaluation-error"]);
    // An edit re-evaluates through the dialect too.
    let changed = workspace
        .apply(set(
            "m/a.hcl",
            "locals {\n  home = \"${env.HOME}/.config\"\n  bad  = fail(\"no\")\n  odd  = nothere.x\n  up   = upper(local.home)\n}\n",
        ))
        .values;
    assert_eq!(changed, ["local.home", "local.up"]);
}

const API: &str = r#"variable "registry" { default = "ghcr.io" }
region = "eu-west-1"

service "api.v2" {
  image    = "${var.registry}/api:2"
  replicas = "3"
  health {
    path     = "/up"
    interval = 10
  }
  port "http" { number = 80 }
  port "admin" { number = 9090 }
  env "prod" "eu" { vars = { LOG = "info" } }
  env "prod" "us" { vars = {} }
  step { run = "migrate" }
  step { run = "serve" }
}
"#;

const WORKER: &str = r#"service "worker" {
  image    = "worker:1"
  replicas = 1
  step { run = "work" }
}
"#;

/// A configuration with nested blocks, repeated blocks and labels holding
/// dots, across two files.
fn services() -> Workspace {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", API);
    workspace.add_file("m/b.hcl", WORKER);
    workspace
}

mod config {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Config {
        pub region: String,
        pub service: BTreeMap<String, Service>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Service {
        pub image: String,
        pub replicas: u8,
        pub health: Option<Health>,
        #[serde(default)]
        pub port: Vec<Port>,
        #[serde(default)]
        pub env: BTreeMap<String, BTreeMap<String, Env>>,
        pub step: Vec<Step>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Health {
        pub path: String,
        pub interval: u32,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Port {
        #[serde(rename = "@name")]
        pub name: String,
        pub number: u16,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    pub struct Env {
        pub vars: BTreeMap<String, String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    pub struct Step {
        pub run: String,
    }
}

#[test]
fn a_whole_configuration_decodes_into_nested_structs_and_maps() {
    use config::*;

    let workspace = services();
    let config: Config = workspace.decode().expect("the configuration decodes");
    let step = |run: &str| Step { run: run.to_string() };
    let api = Service {
        image: "ghcr.io/api:2".to_string(),
        replicas: 3,
        health: Some(Health { path: "/up".to_string(), interval: 10 }),
        port: vec![
            Port { name: "http".to_string(), number: 80 },
            Port { name: "admin".to_string(), number: 9090 },
        ],
        env: [(
            "prod".to_string(),
            [
                ("eu".to_string(), Env { vars: [("LOG".to_string(), "info".to_string())].into() }),
                ("us".to_string(), Env { vars: Default::default() }),
            ]
            .into(),
        )]
        .into(),
        step: vec![step("migrate"), step("serve")],
    };
    let worker = Service {
        image: "worker:1".to_string(),
        replicas: 1,
        health: None,
        port: Vec::new(),
        env: Default::default(),
        step: vec![step("work")],
    };
    assert_eq!(
        config,
        Config {
            region: "eu-west-1".to_string(),
            service: [("api.v2".to_string(), api), ("worker".to_string(), worker)].into()
        }
    );
    // One block decoded by its address, its label needing no field.
    let health: Health = workspace.value_as(r#"service["api.v2"].health"#).expect("decodes");
    assert_eq!(health.interval, 10);
}

#[test]
fn what_does_not_fit_the_types_is_an_error_where_it_is_written() {
    use config::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code, reason = "only decoded")]
    struct OnePort {
        port: Port,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code, reason = "only decoded")]
    struct Ports {
        port: Vec<Unlabelled>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code, reason = "only decoded")]
    struct Unlabelled {
        number: u16,
    }

    let mut workspace = services();
    let error =
        |workspace: &Workspace, decode: &dyn Fn(&Workspace) -> Result<(), Error>| match decode(workspace) {
            Err(Error::Decode(error)) => error,
            other => panic!("expected a decoding error, got {other:?}"),
        };
    // Two blocks where one is taken: the second is at fault.
    let second = error(&workspace, &|w| w.value_as::<OnePort>(r#"service["api.v2"]"#).map(drop));
    assert_eq!(
        second.to_string(),
        r#"m/a.hcl:12:3: at service["api.v2"].port: a second `port` block where the type takes one (a sequence or a map takes several)"#
    );
    // Labels with nowhere to go are not dropped.
    let labels = error(&workspace, &|w| w.value_as::<Ports>(r#"service["api.v2"]"#).map(drop));
    assert!(
        labels
            .to_string()
            .starts_with(r#"m/a.hcl:11:3: at service["api.v2"].port[0]: the block's labels "http""#),
        "{labels}"
    );
    // An attribute a type denies.
    workspace.add_file(
        "m/b.hcl",
        "service \"worker\" {\n  image = \"w\"\n  replicas = 1\n  step { run = \"work\" }\n  cpu = 2\n}\n",
    );
    let unknown = error(&workspace, &|w| w.decode::<Config>().map(drop));
    assert_eq!(unknown.location().map(|it| (it.line, it.column)), Some((5, 3)));
    assert!(unknown.message().starts_with("unknown field `cpu`"), "{unknown}");
    // A value of the wrong type: file, line, column and the lines at fault.
    workspace.add_file(
        "m/b.hcl",
        "service \"worker\" {\n  image    = \"w\"\n  replicas = [1, 2]\n  step { run = \"work\" }\n}\n",
    );
    let mismatch = error(&workspace, &|w| w.decode::<Config>().map(drop));
    assert_eq!(
        mismatch.to_string(),
        "m/b.hcl:3:14: at .service.worker.replicas: expected a number (u8), found tuple"
    );
    expect_test::expect![[r#"
        error[decode-error]: expected a number (u8), found tuple
         --> m/b.hcl:3:14
          |
        3 |   replicas = [1, 2]
          |              ^^^^^^
          |
          = note: in .service.worker.replicas"#]]
    .assert_eq(&mismatch.render());
    // An attribute whose evaluation fails is reported at its expression.
    workspace.add_file(
        "m/b.hcl",
        "service \"worker\" {\n  image    = upper(1, 2)\n  replicas = 1\n  step { run = \"work\" }\n}\n",
    );
    let failed = error(&workspace, &|w| w.decode::<Config>().map(drop));
    assert_eq!(failed.location().map(|it| (it.line, it.column)), Some((2, 14)));
}

type BTreeMapOf<T> = std::collections::BTreeMap<String, T>;

#[test]
fn every_block_and_attribute_is_addressable_and_reads_back() {
    let workspace = services();
    let blocks = workspace.block_addresses();
    let printed: Vec<String> = blocks.iter().map(ToString::to_string).collect();
    assert_eq!(
        printed,
        [
            r#"service["api.v2"]"#,
            r#"service["api.v2"].health"#,
            r#"service["api.v2"].port.http"#,
            r#"service["api.v2"].port.admin"#,
            r#"service["api.v2"].env.prod.eu"#,
            r#"service["api.v2"].env.prod.us"#,
            r#"service["api.v2"].step[0]"#,
            r#"service["api.v2"].step[1]"#,
            "service.worker",
            "service.worker.step",
        ]
    );
    let attributes = workspace.addresses();
    assert_eq!(attributes.len(), 15, "{attributes:?}");
    for address in blocks.iter().chain(&attributes) {
        let text = address.to_string();
        assert_eq!(workspace.address(&text).as_ref(), Ok(address), "{text}");
        workspace.value(address).unwrap_or_else(|error| panic!("{text}: {error}"));
    }
    assert_eq!(workspace.value(r#"service["api.v2"].step[1].run"#), Ok(Value::string("serve")));
    assert_eq!(workspace.value("service.worker.step.run"), Ok(Value::string("work")));
    assert_eq!(workspace.value("region"), Ok(Value::string("eu-west-1")));
    assert_eq!(workspace.blocks("service", &["worker"]), ["service.worker"]);
    // A block's value holds its nested blocks.
    let api = workspace.value(r#"service["api.v2"]"#).expect("a value");
    let api = api.entries().expect("an object");
    assert_eq!(api["step"].elements().map(<[Value]>::len), Some(2));
    assert_eq!(api["port"].entries().map(|ports| ports.len()), Some(2));
    assert_eq!(api["health"].entries().map(|health| health.len()), Some(2));
    // What is not there, or not an address, is an error.
    for text in
        ["service.api", r#"service["api.v2"].step.run"#, "service.worker.step[0]", "service", "var.nope"]
    {
        assert!(matches!(workspace.address(text), Err(Error::NoSuchAddress(_))), "{text}");
    }
    assert!(matches!(workspace.address("service..x"), Err(Error::InvalidAddress { .. })));
}

#[test]
fn repeated_top_level_blocks_are_addressed_by_position() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", "rule {\n  x = 1\n}\nrule {\n  x = 2\n  check { y = 3 }\n}\n");
    assert_eq!(workspace.addresses(), ["rule[0].x", "rule[1].x", "rule[1].check.y"]);
    assert_eq!(workspace.block_addresses(), ["rule[0]", "rule[1]", "rule[1].check"]);
    for address in workspace.addresses().iter().chain(&workspace.block_addresses()) {
        assert_eq!(workspace.address(&address.to_string()).as_ref(), Ok(address));
    }
    assert_eq!(workspace.value("rule[1].check.y"), Ok(Value::int(3)));
    // The database's `rule.0` is not the printed form of a position.
    assert!(workspace.address(r#"rule["0"].x"#).is_err());
    let changed =
        workspace.apply(set("m/a.hcl", "rule {\n  x = 1\n}\nrule {\n  x = 2\n  check { y = 4 }\n}\n")).values;
    assert_eq!(changed, ["rule[1].check.y"]);
}

#[test]
fn changes_are_reported_by_structured_address() {
    let mut workspace = services();
    let changed = workspace.apply(set("m/a.hcl", &API.replace("interval = 10", "interval = 30"))).values;
    assert_eq!(changed, [r#"service["api.v2"].health.interval"#]);
    let mut remove = Change::new();
    remove.remove_file("m/b.hcl");
    let changed = workspace.apply(remove).values;
    assert_eq!(changed, ["service.worker.image", "service.worker.replicas", "service.worker.step.run"]);
}

/// The serde examples of hcl-rs's README (martinohmann/hcl-rs: decoding
/// an arbitrary configuration into `serde_json::Value`, and turning such a
/// value into HCL's), written again for Halite's API: the same data gives
/// the same Rust values.
#[test]
fn hcl_rs_readme_examples_decode_to_the_same_values() {
    let mut workspace = Workspace::new("m");
    workspace.add_file(
        "m/main.hcl",
        "some_attr = {\n  foo = [1, 2]\n  bar = true\n}\n\nsome_block \"some_block_label\" {\n  attr = \"value\"\n}\n",
    );
    let expected = serde_json::json!({
        "some_attr": { "foo": [1, 2], "bar": true },
        "some_block": { "some_block_label": { "attr": "value" } }
    });
    let decoded: serde_json::Value = workspace.decode().expect("decodes");
    assert_eq!(decoded, expected);

    // The same into types of one's own.
    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    struct Config {
        some_attr: SomeAttr,
        some_block: BTreeMapOf<SomeBlock>,
    }
    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    struct SomeAttr {
        foo: Vec<u8>,
        bar: bool,
    }
    #[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
    struct SomeBlock {
        attr: String,
    }
    let config: Config = workspace.decode().expect("decodes");
    let typed = Config {
        some_attr: SomeAttr { foo: vec![1, 2], bar: true },
        some_block: [("some_block_label".to_string(), SomeBlock { attr: "value".to_string() })].into(),
    };
    assert_eq!(config, typed);

    // And back: a Rust value as an HCL value, for a variable.
    let value = halite::to_value(&expected).expect("every JSON value has an HCL value");
    assert_eq!(halite::from_value::<serde_json::Value>(&value).expect("reads back"), expected);
    assert_eq!(halite::from_value::<Config>(&halite::to_value(&typed).unwrap()).unwrap(), typed);
    workspace.add_file(
        "m/main.hcl",
        "variable \"config\" {}\nlocals { label = keys(var.config.some_block)[0] }\n",
    );
    workspace.set_variable("config", value);
    assert_eq!(workspace.value("local.label"), Ok(Value::string("some_block_label")));
}

#[test]
fn watch_reads_a_module_an_edit_calls_and_follows_it() {
    let dir = tempfile::tempdir().unwrap();
    let dir = halite::Utf8Path::from_path(dir.path()).unwrap().to_owned();
    std::fs::create_dir_all(dir.join("root")).unwrap();
    std::fs::create_dir_all(dir.join("net")).unwrap();
    std::fs::write(dir.join("root/main.tf"), "locals {\n  a = 1\n}\n").unwrap();
    std::fs::write(dir.join("net/variables.tf"), "variable \"cidr_block\" {\n  type = string\n}\n").unwrap();
    let mut workspace = Workspace::open(dir.join("root")).unwrap();
    let writer = {
        let dir = dir.clone();
        std::thread::spawn(move || {
            // Once the watch is in place: a call of the module beside the
            // root, with an argument it does not declare.
            std::thread::sleep(std::time::Duration::from_millis(500));
            std::fs::write(
                dir.join("root/main.tf"),
                "module \"net\" {\n  source = \"../net\"\n  cidr   = \"10.0.0.0/16\"\n}\n",
            )
            .unwrap();
            // Then the module declares it.
            std::thread::sleep(std::time::Duration::from_millis(1500));
            std::fs::write(dir.join("net/variables.tf"), "variable \"cidr\" {\n  type = string\n}\n")
                .unwrap();
            // Should either not be seen, a change of the root's own past
            // the deadline ends the watch, and the assertion below fails.
            std::thread::sleep(std::time::Duration::from_secs(30));
            let _ = std::fs::write(dir.join("root/extra.tf"), "locals {\n  x = 1\n}\n");
        })
    };
    let mut seen: Vec<Vec<(String, bool)>> = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(25);
    workspace
        .watch(|_, changes| {
            let codes: Vec<(String, bool)> = changes
                .diagnostics
                .iter()
                .filter(|it| it.diagnostic.code.ends_with("module-argument"))
                .map(|it| (it.diagnostic.code.to_string(), it.resolved))
                .collect();
            if !codes.is_empty() {
                seen.push(codes);
            }
            if seen.len() == 2 || std::time::Instant::now() > deadline {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
        .unwrap();
    let (broken, mended) = (false, true);
    assert_eq!(
        seen,
        [
            vec![
                ("missing-module-argument".to_string(), broken),
                ("unsupported-module-argument".to_string(), broken)
            ],
            vec![
                ("missing-module-argument".to_string(), mended),
                ("unsupported-module-argument".to_string(), mended)
            ],
        ]
    );
    drop(writer);
}

/// A watch follows what `halite watch` follows, through the same code: a
/// variables file Terraform reads by itself, written while it runs, changes
/// the values that read the variable; a `halite.toml` written while it
/// runs turns a rule off, which resolves its diagnostic.
#[test]
fn a_watch_follows_variables_files_and_halite_toml() {
    let dir = tempfile::tempdir().unwrap();
    let dir = halite::Utf8Path::from_path(dir.path()).unwrap().to_owned();
    std::fs::write(
        dir.join("main.tf"),
        "variable \"env\" {\n  default = \"dev\"\n}\nlocals {\n  name = \"web-${var.env}\"\n  broken = local.nope\n}\n",
    )
    .unwrap();
    let mut workspace = Workspace::open(&dir).unwrap();
    assert_eq!(workspace.value("local.name").unwrap(), Value::string("web-dev"));
    let writer = {
        let dir = dir.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(500));
            std::fs::write(dir.join("terraform.tfvars"), "env = \"prod\"\n").unwrap();
            std::thread::sleep(std::time::Duration::from_millis(1500));
            std::fs::write(dir.join("halite.toml"), "[rules]\nundeclared-reference = \"off\"\n").unwrap();
        })
    };
    let mut names: Vec<Value> = Vec::new();
    let mut resolved: Vec<String> = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(25);
    workspace
        .watch(|workspace, changes| {
            if changes.values.iter().any(|it| it == "local.name") {
                names.push(workspace.value("local.name").unwrap());
            }
            resolved.extend(
                changes.diagnostics.iter().filter(|it| it.resolved).map(|it| it.diagnostic.code.clone()),
            );
            if (!names.is_empty() && !resolved.is_empty()) || std::time::Instant::now() > deadline {
                std::ops::ControlFlow::Break(())
            } else {
                std::ops::ControlFlow::Continue(())
            }
        })
        .unwrap();
    writer.join().unwrap();
    assert_eq!(names, [Value::string("web-prod")]);
    assert_eq!(resolved, ["undeclared-reference"]);
}

/// What a watcher's batch could not read is in the batch's changes: a
/// variables file that says something wrong keeps the values it gave
/// last.
#[test]
fn a_batch_says_what_it_could_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let dir = halite::Utf8Path::from_path(dir.path()).unwrap().to_owned();
    std::fs::write(dir.join("main.tf"), "variable \"env\" {\n  default = \"dev\"\n}\n").unwrap();
    let mut workspace = Workspace::open(&dir).unwrap();
    let (_watcher, batches) = workspace.watch_channel().unwrap();
    std::fs::write(dir.join("terraform.tfvars"), "env = \n").unwrap();
    let batch = batches.recv_timeout(std::time::Duration::from_secs(10)).expect("a batch");
    let changes = workspace.apply_batch(batch);
    assert!(
        matches!(&changes.unread[..], [Error::Config { path, .. }] if *path == dir.join("terraform.tfvars")),
        "{:?}",
        changes.unread
    );
    assert_eq!(workspace.value("var.env").unwrap(), Value::string("dev"));
}
