//! What an edit of a module re-runs, by the exact list of executed queries
//! (the style of rust-analyzer's `hir-ty/src/tests/incremental.rs`).

use std::collections::BTreeMap;

use db::{
    RootDatabase,
    module::{Module, attribute_value, module_attributes},
};
use expect_test::expect;

fn load(db: &mut RootDatabase, files: &[(&str, &str)]) -> Module {
    let files = files.iter().map(|(path, text)| db.set_file_text(*path, *text)).collect();
    db.set_module_files("m", files)
}

/// Evaluates every attribute of the module, in declaration order.
fn evaluate_all(db: &RootDatabase, module: Module) {
    for &attr in module_attributes(db, module) {
        let _ = attribute_value(db, attr);
    }
}

/// `address = value` for every attribute, to check the values after an
/// edit as well as what ran.
fn values(db: &RootDatabase, module: Module) -> Vec<String> {
    module_attributes(db, module)
        .iter()
        .map(|&attr| match attribute_value(db, attr) {
            Ok(value) => {
                format!("{} = {}", attr.address(db), value.to_json_string(&value.ty()).unwrap_or_default())
            }
            Err(error) => format!("{}: {error:?}", attr.address(db)),
        })
        .collect()
}

const A: &str = "locals {\n  a = 1\n  b = local.a + 1\n  c = local.b * 10\n}\n";
const B: &str = "locals {\n  d = 5\n  e = local.d\n}\n";

#[test]
fn first_evaluation_runs_everything_once() {
    let mut db = RootDatabase::new();
    let module = load(&mut db, &[("m/a.hcl", A), ("m/b.hcl", B)]);
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "module_attributes(m)",
            "module_index(m)",
            "module_files(m)",
            "file_declarations(m/a.hcl)",
            "lower(m/a.hcl)",
            "lower_with_source_map(m/a.hcl)",
            "parse(m/a.hcl)",
            "file_declarations(m/b.hcl)",
            "lower(m/b.hcl)",
            "lower_with_source_map(m/b.hcl)",
            "parse(m/b.hcl)",
            "attribute_value(local.a)",
            "attribute_resolution(local.a)",
            "file_exprs(m/a.hcl)",
            "attribute_value(local.b)",
            "attribute_resolution(local.b)",
            "attribute_value(local.c)",
            "attribute_resolution(local.c)",
            "attribute_value(local.d)",
            "attribute_resolution(local.d)",
            "file_exprs(m/b.hcl)",
            "attribute_value(local.e)",
            "attribute_resolution(local.e)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn editing_one_expression_reevaluates_it_and_its_dependents() {
    let mut db = RootDatabase::new();
    let module = load(&mut db, &[("m/a.hcl", A), ("m/b.hcl", B)]);
    evaluate_all(&db, module);

    db.set_file_text("m/a.hcl", A.replace("a = 1", "a = 2"));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse(m/a.hcl)",
            "lower_with_source_map(m/a.hcl)",
            "lower(m/a.hcl)",
            "file_declarations(m/a.hcl)",
            "file_exprs(m/a.hcl)",
            "attribute_resolution(local.a)",
            "attribute_value(local.a)",
            "attribute_resolution(local.b)",
            "attribute_value(local.b)",
            "attribute_resolution(local.c)",
            "attribute_value(local.c)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    expect![[r#"
        [
            "local.a = 2",
            "local.b = 3",
            "local.c = 30",
            "local.d = 5",
            "local.e = 5",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));
}

#[test]
fn whitespace_and_comments_reevaluate_nothing() {
    let mut db = RootDatabase::new();
    let module = load(&mut db, &[("m/a.hcl", A), ("m/b.hcl", B)]);
    evaluate_all(&db, module);

    let edited = "# A comment.\nlocals {\n  a   = 1 // why\n  b = local.a   +   1\n\n  c = local.b * 10\n}\n";
    db.set_file_text("m/a.hcl", edited);
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse(m/a.hcl)",
            "lower_with_source_map(m/a.hcl)",
            "lower(m/a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn editing_one_file_of_several_reparses_only_that_file() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[("m/a.hcl", A), ("m/b.hcl", B), ("m/c.hcl", "locals {\n  f = local.e + local.c\n}\n")],
    );
    evaluate_all(&db, module);

    db.set_file_text("m/b.hcl", B.replace("d = 5", "d = 6"));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse(m/b.hcl)",
            "lower_with_source_map(m/b.hcl)",
            "lower(m/b.hcl)",
            "file_declarations(m/b.hcl)",
            "file_exprs(m/b.hcl)",
            "attribute_resolution(local.d)",
            "attribute_value(local.d)",
            "attribute_resolution(local.e)",
            "attribute_value(local.e)",
            "attribute_value(local.f)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    expect![[r#"
        [
            "local.a = 1",
            "local.b = 2",
            "local.c = 20",
            "local.d = 6",
            "local.e = 6",
            "local.f = 26",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));
}

#[test]
fn adding_a_declaration_reevaluates_only_what_resolves_differently() {
    let mut db = RootDatabase::new();
    let module = load(&mut db, &[("m/a.hcl", A), ("m/b.hcl", "locals {\n  d = 5\n  g = local.f\n}\n")]);
    evaluate_all(&db, module);
    expect![[r#"
        [
            "local.a = 1",
            "local.b = 2",
            "local.c = 20",
            "local.d = 5",
            "local.g: Unresolved { reference: 0, step: 1, kind: UndeclaredLocal { name: \"f\", suggestion: Some(\"a\") }, detail: \"A local value with the name \\\"f\\\" has not been declared. Did you mean \\\"a\\\"?\" }",
        ]
    "#]].assert_debug_eq(&values(&db, module));

    // `f` is declared before `g`, so `g`'s position in the file shifts too.
    db.set_file_text("m/b.hcl", "locals {\n  d = 5\n  f = 7\n  g = local.f\n}\n");
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse(m/b.hcl)",
            "lower_with_source_map(m/b.hcl)",
            "lower(m/b.hcl)",
            "file_declarations(m/b.hcl)",
            "module_index(m)",
            "module_attributes(m)",
            "attribute_resolution(local.a)",
            "attribute_resolution(local.b)",
            "attribute_resolution(local.c)",
            "attribute_resolution(local.d)",
            "file_exprs(m/b.hcl)",
            "attribute_value(local.f)",
            "attribute_resolution(local.f)",
            "attribute_resolution(local.g)",
            "attribute_value(local.g)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    expect![[r#"
        [
            "local.a = 1",
            "local.b = 2",
            "local.c = 20",
            "local.d = 5",
            "local.f = 7",
            "local.g = 7",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));

    // And removing it again.
    db.set_file_text("m/b.hcl", "locals {\n  d = 5\n  g = local.f\n}\n");
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse(m/b.hcl)",
            "lower_with_source_map(m/b.hcl)",
            "lower(m/b.hcl)",
            "file_declarations(m/b.hcl)",
            "module_index(m)",
            "module_attributes(m)",
            "attribute_resolution(local.a)",
            "attribute_resolution(local.b)",
            "attribute_resolution(local.c)",
            "attribute_resolution(local.d)",
            "file_exprs(m/b.hcl)",
            "attribute_resolution(local.g)",
            "attribute_value(local.g)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn changing_a_variable_reevaluates_its_users() {
    let mut db = RootDatabase::new();
    let module = load(
        &mut db,
        &[
            ("m/main.hcl", "locals {\n  p = var.x + 1\n  q = \"${var.y}!\"\n  r = local.p * 2\n}\n"),
            (
                "m/variables.hcl",
                "variable \"x\" {\n  default = 1\n}\n\nvariable \"y\" {\n  type = string\n}\n",
            ),
        ],
    );
    db.set_module_variables(module, BTreeMap::from([("y".to_string(), eval::Value::string("a"))]));
    evaluate_all(&db, module);

    db.set_module_variables(module, BTreeMap::from([("y".to_string(), eval::Value::string("b"))]));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "attribute_value(var.x)",
            "attribute_value(var.y)",
            "attribute_value(local.q)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    expect![[r#"
        [
            "local.p = 2",
            "local.q = \"b!\"",
            "local.r = 4",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));

    // The same values again are no change at all.
    db.set_module_variables(module, BTreeMap::from([("y".to_string(), eval::Value::string("b"))]));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        []
    "#]]
    .assert_debug_eq(&executed);

    // A number where the type says string is converted, as the reference
    // converts a variable's value to its type constraint.
    db.set_module_variables(
        module,
        BTreeMap::from([("y".to_string(), eval::Value::int(3)), ("x".to_string(), eval::Value::int(10))]),
    );
    expect![[r#"
        [
            "local.p = 11",
            "local.q = \"3!\"",
            "local.r = 22",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));
}

/// A rough measure of a large module, for looking at costs by hand:
/// `cargo test --release -p db --test suite incremental_module:: -- --ignored --nocapture`.
#[test]
#[ignore = "a timing run, not a check"]
fn large_module_timings() {
    let files = 10_000;
    let mut db = RootDatabase::new();
    let start = std::time::Instant::now();
    let inputs: Vec<_> = (0..files)
        .map(|i| {
            let previous = if i == 0 { "1".to_string() } else { format!("local.a{} + 1", i - 1) };
            db.set_file_text(
                format!("m/f{i}.hcl"),
                format!("locals {{\n  a{i} = {previous}\n  b{i} = \"${{local.a{i}}}-x\"\n  c{i} = [local.b{i}, {i}]\n}}\n"),
            )
        })
        .collect();
    let module = db.set_module_files("m", inputs);
    println!("load {:?}", start.elapsed());
    let start = std::time::Instant::now();
    evaluate_all(&db, module);
    println!("cold evaluate {:?}", start.elapsed());
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|it| it.parse().ok()).unwrap_or(3);
    for round in 0..rounds {
        let edited = files - 10 + round % 10;
        db.set_file_text(
            format!("m/f{edited}.hcl"),
            format!("locals {{\n  a{edited} = {round}\n  b{edited} = \"${{local.a{edited}}}-x\"\n  c{edited} = [local.b{edited}, {edited}]\n}}\n"),
        );
        let start = std::time::Instant::now();
        evaluate_all(&db, module);
        println!("edit + evaluate all {:?}", start.elapsed());
    }
}

/// A long chain of references recurses through the queries, a few salsa
/// frames per link, unless evaluated dependencies first; this one would not
/// fit the test thread's stack otherwise, neither at first nor after an
/// edit at its start.
#[test]
fn a_chain_of_four_thousand_references_evaluates_in_order() {
    let mut db = RootDatabase::new();
    let mut text = String::from("locals {\n  a0 = 0\n");
    for i in 1..4_000 {
        text.push_str(&format!("  a{i} = local.a{} + 1\n", i - 1));
    }
    text.push_str("}\n");
    let module = load(&mut db, &[("m/chain.hcl", &text)]);
    db::module::evaluate_in_order(&db, module_attributes(&db, module));
    let last = db::module::attr(&db, module, "local.a3999");
    assert_eq!(attribute_value(&db, last), &Ok(eval::Value::int(3999)));

    db.set_file_text("m/chain.hcl", text.replace("a0 = 0", "a0 = 1"));
    db::module::evaluate_in_order(&db, module_attributes(&db, module));
    let last = db::module::attr(&db, module, "local.a3999");
    assert_eq!(attribute_value(&db, last), &Ok(eval::Value::int(4000)));
}

#[test]
fn editing_a_json_value_reevaluates_it_and_its_dependents() {
    let mut db = RootDatabase::new();
    let json = r#"{"locals": {"j1": 1, "j2": "${local.j1 + 1}", "j3": "${local.a}"}}"#;
    let module = load(&mut db, &[("m/a.hcl", A), ("m/b.hcl.json", json)]);
    evaluate_all(&db, module);

    db.set_file_text("m/b.hcl.json", json.replace("\"j1\": 1", "\"j1\": 5"));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse_json(m/b.hcl.json)",
            "file_declarations(m/b.hcl.json)",
            "file_exprs(m/b.hcl.json)",
            "attribute_resolution(local.j1)",
            "attribute_value(local.j1)",
            "attribute_resolution(local.j2)",
            "attribute_value(local.j2)",
            "attribute_resolution(local.j3)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    expect![[r#"
        [
            "local.a = 1",
            "local.b = 2",
            "local.c = 20",
            "local.j1 = 5",
            "local.j2 = 6",
            "local.j3 = 1",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));

    // Whitespace re-reads the file's declarations and expressions, which
    // compare equal, and evaluates nothing.
    db.set_file_text("m/b.hcl.json", json.replace("\"j1\": 1", "\"j1\" :\n   5 "));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse_json(m/b.hcl.json)",
            "file_declarations(m/b.hcl.json)",
            "file_exprs(m/b.hcl.json)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn whitespace_in_a_file_of_typed_variables_reevaluates_nothing() {
    let mut db = RootDatabase::new();
    let vars = "variable \"x\" {\n  type = number\n  default = 1\n}\nlocals {\n  y = var.x + 1\n}\n";
    let module = load(&mut db, &[("m/a.hcl", vars)]);
    evaluate_all(&db, module);

    db.set_file_text("m/a.hcl", format!("# Comment.\n{vars}"));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "parse(m/a.hcl)",
            "lower_with_source_map(m/a.hcl)",
            "lower(m/a.hcl)",
            "source_map(m/a.hcl)",
            "variable_types(m/a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn whitespace_before_a_block_after_typed_variables_reevaluates_nothing() {
    let mut db = RootDatabase::new();
    let vars = "# Service.\n\nvariable \"v_region\" {\n  type    = string\n  default = \"eu-central-1\"\n}\n\nvariable \"v_replicas\" {\n  type    = number\n  default = 1\n}\n\nlocals {\n  name = \"${var.v_region}-${var.v_replicas}\"\n}\n";
    let module = load(&mut db, &[("m/a.hcl", vars)]);
    evaluate_all(&db, module);
    let evaluate_variables = |db: &RootDatabase| {
        for address in ["var.v_region", "var.v_replicas"] {
            let _ = attribute_value(db, db::module::attr(db, module, address));
        }
    };
    evaluate_variables(&db);

    db.set_file_text("m/a.hcl", vars.replacen("\nlocals {", "\n\n\nlocals  {", 1));
    let executed = db.log_executed(|| {
        evaluate_all(&db, module);
        evaluate_variables(&db);
    });
    expect![[r#"
        [
            "parse(m/a.hcl)",
            "lower_with_source_map(m/a.hcl)",
            "lower(m/a.hcl)",
            "source_map(m/a.hcl)",
            "variable_types(m/a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

/// The cycles of `members` (each list one cycle), as a caller's graph
/// would set them.
fn known_cycles(members: &[&[&str]]) -> db::module::KnownCycles {
    let mut cycles = db::module::KnownCycles::default();
    for (number, cycle) in members.iter().enumerate() {
        let known = db::module::KnownCycle { number: number as u32, members: cycle.len() as u32 };
        for address in *cycle {
            cycles.insert(db::module::Address::parse(address), known);
        }
    }
    cycles
}

/// A cycle the caller found stops evaluation at the first reference to
/// another member: evaluating one member evaluates no other (salsa's own
/// cycle handling goes round the whole cycle, keeping at each step the
/// dependencies of the steps after it, which is quadratic in its length).
/// Only the resolutions the short walk for the path reads run.
#[test]
fn a_known_cycle_stops_at_its_first_step() {
    let mut db = RootDatabase::new();
    let text = "locals {\n  a = local.b\n  b = local.c\n  c = local.a\n  d = local.a\n}\n";
    let module = load(&mut db, &[("m/a.hcl", text)]);
    db.set_module_cycles(module, known_cycles(&[&["local.a", "local.b", "local.c"]]));
    let executed = db.log_executed(|| {
        let _ =
            attribute_value(&db, db::module::Attr::new(&db, module, db::module::Address::parse("local.a")));
    });
    expect![[r#"
        [
            "attribute_value(local.a)",
            "attribute_resolution(local.a)",
            "module_index(m)",
            "module_files(m)",
            "file_declarations(m/a.hcl)",
            "lower(m/a.hcl)",
            "lower_with_source_map(m/a.hcl)",
            "parse(m/a.hcl)",
            "file_exprs(m/a.hcl)",
            "attribute_resolution(local.b)",
            "attribute_resolution(local.c)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    expect![[r#"
        [
            "local.a: Cycle([Address { segments: [\"local\", \"a\"] }, Address { segments: [\"local\", \"b\"] }, Address { segments: [\"local\", \"c\"] }, Address { segments: [\"local\", \"a\"] }])",
            "local.b: Cycle([Address { segments: [\"local\", \"b\"] }, Address { segments: [\"local\", \"c\"] }, Address { segments: [\"local\", \"a\"] }, Address { segments: [\"local\", \"b\"] }])",
            "local.c: Cycle([Address { segments: [\"local\", \"c\"] }, Address { segments: [\"local\", \"a\"] }, Address { segments: [\"local\", \"b\"] }, Address { segments: [\"local\", \"c\"] }])",
            "local.d: Dependency(Address { segments: [\"local\", \"a\"] })",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));
    // The cycle broken: the cycles set again, and its members evaluated
    // again.
    db.set_file_text("m/a.hcl", text.replace("c = local.a", "c = 1"));
    db.set_module_cycles(module, known_cycles(&[]));
    expect![[r#"
        [
            "local.a = 1",
            "local.b = 1",
            "local.c = 1",
            "local.d = 1",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));
}

/// A member of a long cycle the caller found has the cycle's error without
/// its steps, and its diagnostic says how long the cycle is: each of n
/// members walking and naming the whole cycle would be n² steps.
#[test]
fn a_long_known_cycle_is_not_walked_for_each_member() {
    let mut db = RootDatabase::new();
    let n = 100;
    let names: Vec<String> = (0..n).map(|i| format!("local.l{i}")).collect();
    let text: String = (0..n).map(|i| format!("  l{i} = local.l{}\n", (i + 1) % n)).collect();
    let module = load(&mut db, &[("m/a.hcl", &format!("locals {{\n{text}}}\n"))]);
    let members: Vec<&str> = names.iter().map(String::as_str).collect();
    db.set_module_cycles(module, known_cycles(&[&members]));
    let attr = db::module::Attr::new(&db, module, db::module::Address::parse("local.l5"));
    assert_eq!(attribute_value(&db, attr), &Err(db::module::AttrError::Cycle(Vec::new())));
    let diagnostic = db::module::attribute_diagnostic(&db, attr).expect("a cycle's diagnostic");
    expect!["The value of local.l5 depends on itself, through a reference cycle of 100 attributes."]
        .assert_eq(&diagnostic.detail);
}

/// Cold evaluation of a module of many blocks of one type, each reading
/// the one before (name resolution's lookup of a block by its labels), for
/// `cargo test --release -p db --test suite incremental_module:: -- --ignored --nocapture`.
#[test]
#[ignore = "a timing run, not a check"]
fn blocks_of_one_type_timings() {
    let blocks = 20_000;
    let files = 100;
    let mut db = RootDatabase::new();
    let inputs: Vec<_> = (0..files)
        .map(|f| {
            let mut text = String::new();
            for i in (f..blocks).step_by(files) {
                let previous = if i == 0 { "0".to_string() } else { format!("service.s{}.port + 1", i - 1) };
                text.push_str(&format!("service \"s{i}\" {{\n  port = {previous}\n}}\n"));
            }
            db.set_file_text(format!("m/f{f}.hcl"), text)
        })
        .collect();
    let module = db.set_module_files("m", inputs);
    let start = std::time::Instant::now();
    db::module::evaluate_in_order(&db, db::module::module_attributes(&db, module));
    println!("{blocks} blocks of one type: cold evaluate {:?}", start.elapsed());
}

#[test]
fn editing_a_nested_blocks_attribute_reevaluates_exactly_its_readers() {
    const T: &str = "target \"m0\" {\n  output = \"out\"\n  step \"compile\" {\n    flags = [\"-g\"]\n    run = \"cc\"\n  }\n}\ntarget \"use\" {\n  flags = target.m0.step.compile.flags\n  run = target.m0.step.compile.run\n  steps = target.m0.step\n}\n";
    let mut db = RootDatabase::new();
    let module = load(&mut db, &[("m/a.hcl", T)]);
    evaluate_all(&db, module);

    db.set_file_text("m/a.hcl", T.replace("[\"-g\"]", "[\"-O2\"]"));
    let executed = db.log_executed(|| evaluate_all(&db, module));
    let evaluated: Vec<&String> = executed.iter().filter(|it| it.starts_with("attribute_value")).collect();
    expect![[r#"
        [
            "attribute_value(target.m0.step.compile.flags)",
            "attribute_value(target.use.flags)",
            "attribute_value(target.use.steps)",
        ]
    "#]]
    .assert_debug_eq(&evaluated);
    expect![[r#"
        [
            "target.m0.output = \"out\"",
            "target.m0.step.compile.flags = [\"-O2\"]",
            "target.m0.step.compile.run = \"cc\"",
            "target.use.flags = [\"-O2\"]",
            "target.use.run = \"cc\"",
            "target.use.steps = {\"compile\":{\"flags\":[\"-O2\"],\"run\":\"cc\"}}",
        ]
    "#]]
    .assert_debug_eq(&values(&db, module));
}

/// Files `m/f0000.hcl`…: file `i` declares `a{i} = 1` and `b{i}`, which reads
/// the next file's `a`.
fn ring_of_files(db: &mut RootDatabase, dir: &str, count: usize) -> Vec<db::File> {
    (0..count)
        .map(|i| {
            let text = format!("locals {{\n  a{i} = 1\n  b{i} = local.a{}\n}}\n", (i + 1) % count);
            db.set_file_text(format!("{dir}/f{i:04}.hcl"), text)
        })
        .collect()
}

#[test]
fn a_module_larger_than_the_kept_expressions_keeps_every_files_expressions() {
    // More files than the database keeps expression copies of by default:
    // the module's own size raises what is kept, so an edit's dependent in
    // a file evaluated long ago finds its file's expressions still there
    // (the file is not lowered again).
    let count = db::EXPRESSIONS_KEPT + 500;
    let mut db = RootDatabase::new();
    let files = ring_of_files(&mut db, "m", count);
    let module = db.set_module_files("m", files);
    evaluate_all(&db, module);

    db.set_file_text("m/f0005.hcl", "locals {\n  a5 = 2\n  b5 = local.a6\n}\n");
    let executed = db.log_executed(|| evaluate_all(&db, module));
    expect![[r#"
        [
            "file_declarations(m/f0005.hcl)",
            "lower(m/f0005.hcl)",
            "lower_with_source_map(m/f0005.hcl)",
            "parse(m/f0005.hcl)",
            "file_exprs(m/f0005.hcl)",
            "attribute_resolution(local.a5)",
            "attribute_value(local.a5)",
            "attribute_value(local.b4)",
            "attribute_resolution(local.b5)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn the_expressions_of_small_modules_nothing_reads_again_are_not_all_kept() {
    // A workspace of many one-file modules: past the kept count, the
    // expression copies least recently used are dropped at the next
    // revision (and made again if asked for), rather than every module's
    // kept for as long as the workspace is open.
    let count = db::EXPRESSIONS_KEPT + 100;
    let mut db = RootDatabase::new();
    let mut modules = Vec::new();
    for i in 0..count {
        let file = db.set_file_text(format!("w/m{i:04}/main.hcl"), format!("locals {{\n  a = {i}\n}}\n"));
        modules.push((db.set_module_files(format!("w/m{i:04}"), vec![file]), file));
    }
    for &(module, _) in &modules {
        evaluate_all(&db, module);
    }
    db.set_file_text("w/m0001/main.hcl", "locals {\n  a = 100\n}\n");
    let (first, first_file) = modules[0];
    let (last, last_file) = modules[count - 1];
    let executed = db.log_executed(|| {
        evaluate_all(&db, first);
        evaluate_all(&db, last);
        let _ = db::module::file_exprs(&db, first_file);
        let _ = db::module::file_exprs(&db, last_file);
    });
    expect![[r#"
        [
            "file_exprs(w/m0000/main.hcl)",
            "lower(w/m0000/main.hcl)",
            "lower_with_source_map(w/m0000/main.hcl)",
            "parse(w/m0000/main.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
}
