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
    let changed = workspace.apply(set("m/b.hcl", "locals {\n  b = 2\n}\n"));
    assert_eq!(changed, ["local.a", "local.b"]);
    assert_eq!(workspace.value("local.a").unwrap(), Value::int(2));
    // Renaming it in place is a change of declarations too.
    let changed = workspace.apply(set("m/b.hcl", "locals {\n  bb = 2\n}\n"));
    assert_eq!(changed, ["local.a", "local.b", "local.bb"]);
}

#[test]
fn a_removed_file_changes_its_addresses_and_their_readers() {
    let mut workspace = Workspace::new("m");
    workspace.add_file("m/a.hcl", "locals {\n  a = 1\n}\n");
    workspace.add_file("m/b.hcl", "locals {\n  b = local.a + 1\n}\n");
    let mut remove = Change::new();
    remove.remove_file("m/a.hcl");
    let changed = workspace.apply(remove);
    assert_eq!(changed, ["local.a", "local.b"]);
    assert_eq!(workspace.addresses(), ["local.b"]);
    assert!(matches!(workspace.value("local.a"), Err(Error::NoSuchAddress(_))));
    // Back again, through bytes as the watcher gives them.
    let mut bytes = Change::new();
    bytes.set_file_bytes("m/a.hcl", b"locals { a = 1 }".to_vec());
    let changed = workspace.apply(bytes);
    assert_eq!(changed, ["local.a", "local.b"]);
    assert_eq!(workspace.value("local.b").unwrap(), Value::int(2));
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
    assert_eq!(changed, ["local.twice", "var.n"]);
    assert!(executed.contains(&"attribute_value(local.twice)".to_string()), "{executed:?}");
    assert!(!executed.contains(&"attribute_value(local.other)".to_string()), "{executed:?}");
    // Converted to the declared type.
    assert_eq!(workspace.value("var.n").unwrap(), Value::int(4));
    // The same value again is no change.
    assert!(workspace.apply(set_n()).is_empty());
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
    let changed = workspace.apply(set(
        "m/a.hcl",
        "locals {\n  home = \"${env.HOME}/.config\"\n  bad  = fail(\"no\")\n  odd  = nothere.x\n  up   = upper(local.home)\n}\n",
    ));
    assert_eq!(changed, ["local.home", "local.up"]);
}
