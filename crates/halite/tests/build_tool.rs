//! The build-tool example's logic run once over `examples/build-tool`, and
//! an edit applied to a copy of it: the values the tool reads, the plan's
//! order, and the addresses an edit changes.

#[path = "../examples/build_tool.rs"]
#[allow(dead_code, reason = "the example's main is not called here")]
mod example;

use halite::{Change, Utf8Path, Utf8PathBuf, Value};

fn example_dir() -> Utf8PathBuf {
    Utf8PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/build-tool"))
}

#[test]
fn plans_the_example() {
    let workspace = example::load(&example_dir(), &[]).expect("the example loads");
    assert_eq!(workspace.diagnostics(), []);
    assert_eq!(workspace.value("local.out_dir").unwrap(), Value::string("target/debug"));
    assert_eq!(workspace.value("local.banner").unwrap(), Value::string("build-tool (debug)"));
    let plan = example::plan(&workspace).expect("a plan");
    let rendered = example::render(&plan);
    expect_test::expect![[r#"
        1. lib -> target/debug/libcalc.a
           compile: $ cc -g -O0 -c src/parse.c src/eval.c
           archive: $ ar rcs target/debug/libcalc.a *.o
        2. app -> target/debug/calc
           link: $ cc -g -O0 -o target/debug/calc src/main.c target/debug/libcalc.a
        3. test.unit -> target/debug/test.log
           self-test (at most 60 s): $ target/debug/calc --self-test > target/debug/test.log
    "#]]
    .assert_eq(&rendered);
}

#[test]
fn a_variable_changes_every_output() {
    let variables = [("profile".to_string(), "\"release\"".to_string())];
    let workspace = example::load(&example_dir(), &variables).expect("the example loads");
    let plan = example::plan(&workspace).expect("a plan");
    assert_eq!(
        plan[1].1.step[0].run,
        "cc -O2 -DNDEBUG -o target/release/calc src/main.c target/release/libcalc.a"
    );
}

#[test]
fn an_edit_changes_its_dependents_only() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 path");
    std::fs::create_dir(dir.join("schema")).expect("a directory");
    for name in ["project.hcl", "library.hcl", "app.hcl", "test.hcl", "schema/build.hcl"] {
        std::fs::copy(example_dir().join(name), dir.join(name)).expect("copied");
    }
    let mut workspace = example::load(dir, &[]).expect("the copy loads");
    example::plan(&workspace).expect("a plan");
    let path = dir.join("app.hcl");
    let text = std::fs::read_to_string(&path).expect("readable");
    let edited = text.replace("\"${local.out_dir}/calc\"", "\"${local.out_dir}/calculator\"");
    let mut change = Change::new();
    change.set_file_text(path.clone(), edited.clone());
    let changed = workspace.apply(change).values;
    assert_eq!(
        changed,
        [
            "target.app.output",
            "target.app.step.link.run",
            r#"target["test.unit"].deps"#,
            r#"target["test.unit"].step.self-test.run"#,
        ]
    );
    let plan = example::plan(&workspace).expect("a plan");
    assert_eq!(plan[2].1.step[0].run, "target/debug/calculator --self-test > target/debug/test.log");
    // Whitespace and comments change nothing.
    let mut change = Change::new();
    change.set_file_text(path, format!("# A comment.\n\n{edited}"));
    let changed = workspace.apply(change).values;
    assert!(changed.is_empty(), "{changed:?}");
}

/// The tool's schema through the library: the example keeps to it; a
/// file with a mistake of each kind gets each finding, where it is.
#[test]
fn the_schema_checks_the_configuration() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 path");
    std::fs::create_dir(dir.join("schema")).expect("a directory");
    std::fs::copy(example_dir().join("schema/build.hcl"), dir.join("schema/build.hcl")).expect("a copy");
    std::fs::write(dir.join("quiet.hcl"), "target \"ok\" {\n  sources = []\n  output  = \"ok\"\n  deps    = []\n  step \"run\" {\n    run     = \"true\"\n    timeout = \"5\"\n  }\n}\n").expect("a file");
    let workspace = example::load(dir, &[]).expect("the configuration loads");
    assert_eq!(workspace.diagnostics(), []);

    std::fs::write(
        dir.join("bad.hcl"),
        "target \"bad\" {\n  sources = \"x.c\"\n  outptu  = \"x\"\n  deps    = []\n  step \"run\" {\n    timeout = \"soon\"\n  }\n}\ntargte \"t\" {}\n",
    )
    .expect("a file");
    let workspace = example::load(dir, &[]).expect("the configuration loads");
    let messages: Vec<String> =
        workspace.diagnostics().iter().map(|it| it.to_string().replace(dir.as_str(), "DIR")).collect();
    expect_test::expect![[r#"
        [
            "DIR/bad.hcl:1:1: error: Missing required argument",
            "DIR/bad.hcl:2:13: error: Incorrect attribute value type",
            "DIR/bad.hcl:3:3: error: Unsupported argument",
            "DIR/bad.hcl:5:3: error: Missing required argument",
            "DIR/bad.hcl:6:15: error: Incorrect attribute value type",
            "DIR/bad.hcl:9:1: error: Unsupported block type",
        ]
    "#]]
    .assert_debug_eq(&messages);
}
