//! The JSON syntax's bodies and expressions, over the cases in
//! `test-data/decode/json/`:
//!
//! - `content/NAME.json` with `NAME.schema` saying what to ask (`content:
//!   SCHEMA`, `partial: SCHEMA | rest: SCHEMA`, `partial: SCHEMA |
//!   just-attributes` or `just-attributes`, schemas as the support module's
//!   `schema` reads them): the content found and the diagnostics in
//!   `NAME.txt`; for `content:` cases, every block's body is then decoded
//!   with an empty schema, as `hcldec` does with an empty `object` spec, and
//!   the diagnostics must be the set the reference reported
//!   (`NAME.oracle.txt`);
//! - `values/NAME.json`: every top-level property evaluated without a
//!   context (strings literal) and with the variables of `values/vars.json`
//!   (strings are templates), values and diagnostics in `NAME.txt`, and the
//!   diagnostics compared with the reference's (`NAME.oracle.txt`,
//!   `NAME.oracle-vars.txt`);
//! - the static analyses and variables of JSON expressions, inline.
//!
//! `python3 test-data/decode/json/oracle.py` remakes the reference's files;
//! `UPDATE_EXPECT=1 cargo test -p decode --test suite json::` the expected outputs.

use crate::support;

use std::{collections::BTreeMap, fs, path::PathBuf};

use decode::{Body, BodySchema, Diagnostic, SourceFile};
use value::Value;

fn cases(sub: &str) -> Vec<PathBuf> {
    let dir = support::test_data(sub);
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("the test data directory exists")
        .filter_map(|entry| entry.ok().map(|it| it.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .filter(|path| path.file_name().is_some_and(|name| name != "vars.json"))
        .collect();
    cases.sort();
    cases
}

fn name_of(path: &std::path::Path) -> String {
    path.file_name().and_then(|it| it.to_str()).unwrap_or_default().to_owned()
}

fn schema_of(text: &str) -> BodySchema {
    let items: Vec<&str> = text.split_whitespace().collect();
    support::schema(&items)
}

/// Sorted one-line diagnostics without their context ranges, which the
/// reference's JSON output leaves out.
fn diagnostic_lines(diagnostics: &[Diagnostic]) -> Vec<String> {
    let mut out = String::new();
    support::diagnostics(&mut out, diagnostics);
    let mut lines: Vec<String> = out
        .lines()
        .map(|line| match line.find(" | context ") {
            Some(at) => line[..at].to_owned(),
            None => line.to_owned(),
        })
        .collect();
    lines.sort();
    lines
}

fn just_attributes(out: &mut String, all: &mut Vec<Diagnostic>, body: &Body) {
    let (attributes, diagnostics) = body.just_attributes();
    for attribute in &attributes {
        let (value, _) = attribute.expr.value(&eval::Context::none());
        out.push_str(&format!(
            "attribute {} = {} range {} name {}\n",
            attribute.name,
            support::value_text(&value),
            support::range(&attribute.range),
            support::range(&attribute.name_range)
        ));
    }
    support::diagnostics(out, &diagnostics);
    all.extend(diagnostics);
}

/// The output of a content case, and the diagnostics to compare with the
/// reference's: only the syntax errors when there are any, since `hcldec`
/// stops at them.
fn run_content(name: &str, text: &str, directive: &str) -> (String, Vec<Diagnostic>) {
    let file = SourceFile::json(name, text);
    let body = file.body();
    let mut out = String::new();
    let mut all = file.syntax_diagnostics();
    let syntax_errors = all.clone();
    support::diagnostics(&mut out, &all);
    if let Some(schema) = directive.strip_prefix("content:") {
        let (content, diagnostics) = body.content(&schema_of(schema));
        support::content(&mut out, &content);
        support::diagnostics(&mut out, &diagnostics);
        all.extend(diagnostics);
        for block in &content.blocks {
            let (_, diagnostics) = block.body.content(&BodySchema::default());
            if !diagnostics.is_empty() {
                out.push_str(&format!("-- body of {} {:?}\n", block.type_name, block.labels));
                support::diagnostics(&mut out, &diagnostics);
            }
            all.extend(diagnostics);
        }
    } else if let Some(rest) = directive.strip_prefix("partial:") {
        let (first, then) = rest.split_once('|').expect("a partial case says what to do with the rest");
        let (content, remain, diagnostics) = body.partial_content(&schema_of(first));
        out.push_str("-- partial\n");
        support::content(&mut out, &content);
        support::diagnostics(&mut out, &diagnostics);
        all.extend(diagnostics);
        match then.trim().strip_prefix("rest:") {
            Some(schema) => {
                out.push_str("-- rest\n");
                let (content, diagnostics) = remain.content(&schema_of(schema));
                support::content(&mut out, &content);
                support::diagnostics(&mut out, &diagnostics);
                all.extend(diagnostics);
            }
            None => {
                out.push_str("-- rest, just attributes\n");
                just_attributes(&mut out, &mut all, &remain);
            }
        }
    } else if directive == "just-attributes" {
        just_attributes(&mut out, &mut all, &body);
    } else {
        panic!("{name}: unknown directive {directive:?}");
    }
    if syntax_errors.is_empty() { (out, all) } else { (out, syntax_errors) }
}

#[test]
fn json_content_cases() {
    let cases = cases("json/content");
    assert!(cases.len() >= 10, "the cases are there");
    let mut compared = 0;
    for path in cases {
        let name = name_of(&path);
        let text = fs::read_to_string(&path).expect("a readable case");
        let directive = fs::read_to_string(path.with_extension("schema")).expect("a schema beside each case");
        let (out, diagnostics) = run_content(&name, &text, directive.trim());
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);
        if let Ok(oracle) = fs::read_to_string(path.with_extension("oracle.txt")) {
            let theirs: Vec<String> = oracle.lines().map(str::to_owned).collect();
            assert_eq!(diagnostic_lines(&diagnostics), theirs, "{name}: the reference's diagnostics differ");
            compared += 1;
        }
    }
    assert!(compared >= 8, "only {compared} cases were compared with the reference");
}

/// The variables of `values/vars.json` as an evaluation context.
fn context_with_variables() -> eval::Context {
    let text = fs::read_to_string(support::test_data("json/values/vars.json")).expect("vars.json");
    let all = Value::from_json_implied(&text).expect("vars.json is a JSON object");
    let variables: BTreeMap<String, Value> =
        all.entries().expect("an object").iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    eval::Context { variables, ..eval::Context::new() }
}

#[test]
fn json_values_cases() {
    let cases = cases("json/values");
    assert!(cases.len() >= 3, "the cases are there");
    for path in cases {
        let name = name_of(&path);
        let text = fs::read_to_string(&path).expect("a readable case");
        let file = SourceFile::json(name.as_str(), text);
        assert!(file.syntax_diagnostics().is_empty(), "{name} parses cleanly");
        let (attributes, diagnostics) = file.body().just_attributes();
        assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
        let mut out = String::new();
        for (mode, ctx, oracle) in [
            ("no context", eval::Context::none(), "oracle.txt"),
            ("variables", context_with_variables(), "oracle-vars.txt"),
        ] {
            out.push_str(&format!("-- {mode}\n"));
            let mut all = Vec::new();
            for attribute in &attributes {
                let (value, diagnostics) = attribute.expr.value(&ctx);
                out.push_str(&format!("{} = {}\n", attribute.name, support::value_text(&value)));
                support::diagnostics(&mut out, &diagnostics);
                all.extend(diagnostics);
            }
            let reference = fs::read_to_string(path.with_extension(oracle)).expect("the reference's output");
            // The first line is the decoded object as `hcldec` prints it
            // (none when there are errors); each attribute's value must print
            // the same through cty JSON, and a null one is left out.
            if let Some(printed) = reference.lines().find(|line| line.starts_with('{')) {
                let theirs = Value::from_json_implied(printed).expect("the reference prints JSON");
                let theirs = theirs.entries().expect("an object");
                let json = |value: &Value| value.to_json_string(&value.ty()).unwrap_or_default();
                for attribute in &attributes {
                    let (ours, _) = attribute.expr.value(&ctx);
                    match theirs.get(attribute.name.as_str()) {
                        Some(theirs) => {
                            assert_eq!(
                                json(&ours),
                                json(theirs),
                                "{name} ({mode}): {} differs",
                                attribute.name
                            )
                        }
                        None => assert!(ours.is_null(), "{name} ({mode}): {} is not null", attribute.name),
                    }
                }
            }
            let theirs: Vec<String> =
                reference.lines().filter(|line| !line.starts_with('{')).map(str::to_owned).collect();
            assert_eq!(diagnostic_lines(&all), theirs, "{name} ({mode}): the reference's diagnostics differ");
        }
        expect_test::expect_file![path.with_extension("txt")].assert_eq(&out);
    }
}

/// The top-level attributes of a JSON text, by name.
fn attributes_of(text: &str) -> BTreeMap<String, decode::Expression> {
    let file = SourceFile::json("test.json", text);
    let (attributes, diagnostics) = file.body().just_attributes();
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    attributes.into_iter().map(|attribute| (attribute.name.to_string(), attribute.expr)).collect()
}

#[test]
fn variables_come_from_every_string_read_as_a_template() {
    let text =
        r#"{"a": "${x.y} and ${z[0]}", "k": {"${key}": ["${w[count.index].id}"]}, "n": 1, "bad": "${"}"#;
    let attributes = attributes_of(text);
    let mut out = String::new();
    for (name, expr) in &attributes {
        for traversal in expr.variables() {
            out.push_str(&format!("{name}: {}\n", support::traversal(&traversal)));
        }
        for traversal in expr.reference_variables() {
            out.push_str(&format!("{name} (reference): {}\n", support::traversal(&traversal)));
        }
    }
    // Checked against `hcldec --var-refs` for the reference form.
    expect_test::expect![[r#"
        a: x@1:10-1:11 .y@1:11-1:13 (1:10-1:13)
        a: z@1:21-1:22 [0]@1:22-1:25 (1:21-1:25)
        a (reference): x@1:10-1:11 .y@1:11-1:13 (1:10-1:13)
        a (reference): z@1:21-1:22 [0]@1:22-1:25 (1:21-1:25)
        k: key@1:38-1:41 (1:38-1:41)
        k: w@1:49-1:50 […]@1:50-1:63 .id@1:63-1:66 (1:49-1:66)
        k: count@1:51-1:56 .index@1:56-1:62 (1:51-1:62)
        k (reference): key@1:38-1:41 (1:38-1:41)
        k (reference): w@1:49-1:50 (1:49-1:50)
        k (reference): count@1:51-1:56 .index@1:56-1:62 (1:51-1:62)
    "#]]
    .assert_eq(&out);
}

#[test]
fn static_analyses_read_strings_as_expressions_at_the_string_start() {
    let text = r#"{"t": "var.name[0]", "k": "string", "c": "list(object({a=string}))", "l": ["a", 1], "m": {"x": 1, "${y}": 2}, "s": "a + b", "n": 5, "p": "(a).b"}"#;
    let attributes = attributes_of(text);
    let get = |name: &str| &attributes[name];

    let traversal = get("t").as_traversal().expect("a traversal");
    assert_eq!(support::traversal(&traversal), "var@1:7-1:10 .name@1:10-1:15 [0]@1:15-1:18 (1:7-1:18)");
    let error = get("s").as_traversal().expect_err("not a traversal");
    assert_eq!(error[0].summary, "Invalid expression");
    assert_eq!(
        error[0].subject.as_ref().map(support::range).as_deref(),
        Some("test.json:1:116-1:123(115-122)")
    );
    assert!(get("n").as_traversal().is_err());
    assert!(get("p").as_traversal().is_err(), "the reference's traversal parser knows no parentheses");

    assert_eq!(get("k").as_keyword().as_deref(), Some("string"));
    assert_eq!(get("t").as_keyword(), None);
    assert_eq!(get("n").as_keyword(), None);

    let call = get("c").as_call().expect("a call");
    assert_eq!(call.name, "list");
    assert_eq!(support::range(&call.name_range()), "test.json:1:42-1:46(41-45)");
    let [argument] = call.arguments.as_slice() else { panic!("one argument") };
    let inner = argument.as_call().expect("object(...)");
    assert_eq!(inner.name, "object");
    let [pairs] = inner.arguments.as_slice() else { panic!("one argument") };
    let pairs = pairs.as_map().expect("an object constructor");
    assert_eq!(pairs.len(), 1);
    assert_eq!(pairs[0].0.as_keyword().as_deref(), Some("a"));
    assert_eq!(pairs[0].1.as_keyword().as_deref(), Some("string"));
    assert!(get("k").as_call().is_none());

    let list = get("l").as_list().expect("an array");
    let values: Vec<String> =
        list.iter().map(|item| support::value_text(&item.value(&eval::Context::none()).0)).collect();
    assert_eq!(values, [r#""a" : "string""#, r#"1 : "number""#]);
    assert!(get("m").as_list().is_none());

    let map = get("m").as_map().expect("an object");
    let ctx = eval::Context {
        variables: [("y".to_owned(), Value::string("why"))].into_iter().collect(),
        ..eval::Context::new()
    };
    let keys: Vec<String> = map.iter().map(|(key, _)| support::value_text(&key.value(&ctx).0)).collect();
    assert_eq!(keys, [r#""x" : "string""#, r#""why" : "string""#]);
    assert!(get("l").as_map().is_none());
}

#[test]
fn ranges_of_json_expressions() {
    let attributes = attributes_of("{\n  \"o\": {\"a\": [1]},\n  \"s\": \"x\"\n}");
    let o = &attributes["o"];
    assert_eq!(support::range(&o.range()), "test.json:2:8-2:18(9-19)");
    assert_eq!(support::range(&o.start_range()), "test.json:2:8-2:9(9-10)");
    assert_eq!(support::range(&attributes["s"].start_range()), "test.json:3:8-3:11(28-31)");
}

/// Every file of the vendored JSON corpus (`test-data/corpus-json`) read
/// every way a caller might: the root's attributes evaluated with and
/// without a context, their variables and static analyses. Nothing may
/// panic, and the files the reference accepts have no syntax diagnostics.
#[test]
fn the_json_corpus_decodes_without_panics() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/corpus-json");
    let reference = fs::read_to_string(root.join("reference.tsv")).expect("reference.tsv");
    let mut evaluated = 0;
    for line in reference.lines().skip(1).filter(|line| !line.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let text = fs::read_to_string(root.join("input").join(fields[0])).expect("a corpus file");
        let file = SourceFile::json(fields[0], text);
        let syntax_errors = file.syntax_diagnostics();
        assert_eq!(syntax_errors.is_empty(), fields[1] == "yes", "{}: {syntax_errors:?}", fields[0]);
        let (attributes, _) = file.body().just_attributes();
        for attribute in attributes {
            let _ = attribute.expr.value(&eval::Context::none());
            let _ = attribute.expr.value(&context_with_variables());
            let _ = (attribute.expr.variables(), attribute.expr.reference_variables());
            let _ = (attribute.expr.as_traversal(), attribute.expr.as_call(), attribute.expr.as_map());
            evaluated += 1;
        }
    }
    assert!(evaluated >= 30, "only {evaluated} attributes were read");
}

/// Type constraints written as JSON strings, as Terraform's `.tf.json`
/// variables write them: the string is read as a native expression.
#[test]
fn type_constraints_from_json_strings() {
    let attributes = attributes_of(
        r#"{"a": "string", "b": "list(object({name=string, port=optional(number, 80)}))", "c": "map(any)", "d": "nope(1)", "e": 5}"#,
    );
    let text = |name: &str| match decode::typeexpr::type_constraint(&attributes[name]) {
        Ok(ty) => decode::typeexpr::type_string(&ty),
        Err(diagnostics) => {
            let mut out = String::new();
            support::diagnostics(&mut out, &diagnostics);
            out
        }
    };
    expect_test::expect![[r#"
        a: string
        b: error: Invalid type specification | Optional attribute modifier expects only one argument: the attribute type. | test.json:1:61-1:73(60-72) | context test.json:1:53-1:73(52-72)
        c: map(any)
        d: error: Invalid type specification | Keyword "nope" is not a valid type constructor. | test.json:1:102-1:111(101-110)
        e: error: Invalid type specification | A type specification is either a primitive type keyword (bool, number, string) or a complex type constructor call, like list(string). | test.json:1:118-1:119(117-118)"#]]
    .assert_eq(&["a", "b", "c", "d", "e"].map(|name| format!("{name}: {}", text(name).trim_end())).join("\n"));
}
