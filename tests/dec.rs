//! `halite dec` through the binary: the reference pairs of `test-data/dec/`
//! compared byte for byte, and the official spec suite
//! (`test-data/specsuite/`, vendored) run as its harness
//! (`cmd/hclspecsuite`) runs it, so that it needs no Go.

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::Command,
};

use decode::{AttributeSchema, BlockHeaderSchema, Body, BodySchema, SourceFile, TraversalStep};
use value::{Type, Value, json::Json};

fn test_data(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test-data").join(dir)
}

/// What one run printed.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_dec(dir: &Path, args: &[String]) -> Run {
    run_dec_with_stdin(dir, args, b"")
}

fn run_dec_with_stdin(dir: &Path, args: &[String], stdin: &[u8]) -> Run {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_halite"))
        .arg("dec")
        .args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the halite binary runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // A run that stops before reading its input closes the pipe first.
    match pipe.write_all(stdin) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        result => result.expect("stdin takes the input"),
    }
    drop(pipe);
    let output = child.wait_with_output().expect("halite finishes");
    Run {
        code: output.status.code().expect("halite exits rather than being killed"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Reference pairs where Halite differs, with the reason (see
/// `test-data/dec/README.md`). Each must still differ: one that starts to
/// agree fails the test until it is taken off the list.
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[
    (
        "syntax_error",
        "the parser reports an unterminated quoted string at the end of the file, the reference at the end of its first line",
    ),
    (
        "json_syntax_error",
        "a JSON file whose root object is unclosed: the reference also reports \"Root value must be object\", as its parser returns no root value",
    ),
];

#[test]
fn reference_pairs() {
    let root = test_data("dec");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("test-data/dec exists")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 25, "at least 25 reference pairs, found {}", cases.len());

    let mut differing = BTreeSet::new();
    let mut report = String::new();
    for case in &cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let mut args = vec!["--spec=spec.hcldec".to_string(), "--diags=json".to_string()];
        if let Ok(extra) = std::fs::read_to_string(case.join("args")) {
            args.extend(extra.lines().filter(|line| !line.is_empty()).map(str::to_string));
        }
        let mut inputs: Vec<String> = std::fs::read_dir(case)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|file| file.starts_with("input") && (file.ends_with(".hcl") || file.ends_with(".json")))
            .collect();
        // The generator passes the native files first, then the JSON ones.
        inputs.sort_by_key(|file| (file.ends_with(".json"), file.clone()));
        args.extend(inputs);

        let expected_stdout = std::fs::read_to_string(case.join("expected.json")).unwrap_or_default();
        let expected_stderr = std::fs::read_to_string(case.join("expected-diags.json")).unwrap_or_default();
        let expected_code = if expected_stderr.is_empty() { 0 } else { 2 };
        let run = run_dec(case, &args);
        if run.code != expected_code || run.stdout != expected_stdout || run.stderr != expected_stderr {
            differing.insert(name.clone());
            if !KNOWN_DIFFERENCES.iter().any(|(known, _)| *known == name) {
                report.push_str(&format!(
                    "=== {name}: exit {} (expected {expected_code})\n{}",
                    run.code,
                    similar::TextDiff::from_lines(
                        format!("{expected_stdout}{expected_stderr}"),
                        format!("{}{}", run.stdout, run.stderr)
                    )
                    .unified_diff()
                    .header("reference", "halite")
                ));
            }
        }
        // The same diagnostics as the reference's text writer writes them.
        if let Ok(expected_text) = std::fs::read_to_string(case.join("expected-text.txt")) {
            let text_args: Vec<String> = args.iter().filter(|arg| *arg != "--diags=json").cloned().collect();
            let run = run_dec(case, &text_args);
            if run.code != 2 || run.stderr != expected_text {
                differing.insert(name.clone());
                if !KNOWN_DIFFERENCES.iter().any(|(known, _)| *known == name) {
                    report.push_str(&format!(
                        "=== {name} (text): exit {}\n{}",
                        run.code,
                        similar::TextDiff::from_lines(&expected_text, &run.stderr)
                            .unified_diff()
                            .header("reference", "halite")
                    ));
                }
            }
        }
    }
    let known: BTreeSet<String> = KNOWN_DIFFERENCES.iter().map(|(name, _)| name.to_string()).collect();
    let now_agreeing: Vec<&String> = known.difference(&differing).collect();
    assert!(report.is_empty(), "halite dec differs from the reference:\n{report}");
    assert!(
        now_agreeing.is_empty(),
        "known differences that now agree (take them off the list): {now_agreeing:?}"
    );
}

#[test]
fn exit_codes_without_diagnostics() {
    let dir = test_data("dec/attr_basic");
    let no_spec = run_dec(&dir, &["input.hcl".to_string()]);
    assert_eq!(
        (no_spec.code, no_spec.stderr.as_str()),
        (1, "Error: the --spec=... argument is required\n\n")
    );
    let bad_format = run_dec(&dir, &["--spec=spec.hcldec".into(), "--diags=xml".into(), "input.hcl".into()]);
    assert_eq!(
        (bad_format.code, bad_format.stderr.as_str()),
        (2, "Invalid diagnostics format \"xml\": only \"json\" is supported.\n")
    );
    let missing = run_dec(&dir, &["--spec=spec.hcldec".into(), "--diags=json".into(), "nowhere.hcl".into()]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("\"summary\": \"Failed to read file\""), "{}", missing.stderr);
}

#[test]
fn output_file_and_text_diagnostics() {
    let dir = test_data("dec/attr_basic");
    let out = tempfile::NamedTempFile::new().unwrap();
    let out_path = out.path().to_string_lossy().into_owned();
    let run = run_dec(&dir, &["--spec=spec.hcldec".into(), format!("--out={out_path}"), "input.hcl".into()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    let written = std::fs::read_to_string(out.path()).unwrap();
    assert_eq!(written, std::fs::read_to_string(dir.join("expected.json")).unwrap());

    // Without files, standard input is the one native input, named
    // `<stdin>` in diagnostics.
    let input = std::fs::read(dir.join("input.hcl")).unwrap();
    let run = run_dec_with_stdin(&dir, &["--spec=spec.hcldec".into()], &input);
    assert_eq!((run.code, run.stdout.as_str()), (0, written.as_str()));
    let run =
        run_dec_with_stdin(&dir, &["--spec=spec.hcldec".into(), "--diags=json".into()], b"name = 1 +\n");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains(r#""filename": "\u003cstdin\u003e""#), "{}", run.stderr);

    let dir = test_data("dec/attr_unexpected");
    let run = run_dec(&dir, &["--spec=spec.hcldec".into(), "input.hcl".into()]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "Error: Unsupported argument\n\n  on input.hcl line 2:\n   2: colour = \"blue\"\n\n\
         An argument named \"colour\" is not expected here.\n\n"
    );
}

// ---- the spec suite ------------------------------------------------------

/// Spec suite checks where Halite differs, with the reason. Each must still
/// fail exactly so.
const SPEC_SUITE_KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "expressions/operators: Incorrect result value at arithmetic.mod_frac",
    "11 % 5.1: the reference computes with binary floats and expects 0.8000…00024; Halite's exact decimals give 0.8",
)];

/// A position as the test files give one.
type Pos = (u32, u32, u32);

struct ExpectDiag {
    severity: String,
    from: Pos,
    to: Pos,
}

#[derive(Debug, PartialEq)]
enum Step {
    Root(String),
    Attr(String),
    Index(Value),
}

struct ExpectTraversal {
    steps: Vec<Step>,
    from: Pos,
    to: Pos,
}

/// A `.t` file: what decoding the test's input must give.
struct TestFile {
    result: Option<Value>,
    result_type: Type,
    traversals: Option<Vec<ExpectTraversal>>,
    diagnostics: Vec<ExpectDiag>,
}

fn schema(attributes: &[(&str, bool)], blocks: &[&str]) -> BodySchema {
    BodySchema {
        attributes: attributes
            .iter()
            .map(|(name, required)| AttributeSchema { name: (*name).into(), required: *required })
            .collect(),
        blocks: blocks
            .iter()
            .map(|name| BlockHeaderSchema { type_name: (*name).into(), label_names: Vec::new() })
            .collect(),
    }
}

fn check(diags: decode::Diagnostics, what: &str) -> Result<(), String> {
    match diags.iter().find(|diag| diag.is_error()) {
        Some(diag) => Err(format!("{what}: {}: {}", diag.summary, diag.detail)),
        None => Ok(()),
    }
}

/// `from { line, column, byte }` and `to { … }` of a body.
fn read_range(body: &Body) -> Result<(Pos, Pos, Body), String> {
    let (content, rest, diags) = body.partial_content(&schema(&[], &["from", "to"]));
    check(diags, "range")?;
    let mut ends = Vec::new();
    for name in ["from", "to"] {
        let block =
            content.blocks.iter().find(|block| block.type_name == name).ok_or(format!("no {name} block"))?;
        let (pos, diags) =
            block.body.content(&schema(&[("line", true), ("column", true), ("byte", true)], &[]));
        check(diags, name)?;
        let mut numbers = Vec::new();
        for field in ["line", "column", "byte"] {
            let attr = pos.attribute(field).ok_or(format!("no {field}"))?;
            let (value, diags) = attr.expr.value(&eval::Context::none());
            check(diags, field)?;
            numbers
                .push(value.as_number().and_then(|n| n.to_i64()).ok_or(format!("{field} is not a number"))?
                    as u32);
        }
        ends.push((numbers[0], numbers[1], numbers[2]));
    }
    Ok((ends[0], ends[1], rest))
}

fn load_test_file(path: &Path) -> Result<TestFile, String> {
    let text = std::fs::read_to_string(path).map_err(|err| err.to_string())?;
    let file = SourceFile::native(path.to_string_lossy().into_owned(), text);
    check(file.syntax_diagnostics(), "syntax")?;
    let (content, diags) = file
        .body()
        .content(&schema(&[("result", false), ("result_type", false)], &["traversals", "diagnostics"]));
    check(diags, "test file")?;
    let mut test =
        TestFile { result: None, result_type: Type::Dynamic, traversals: None, diagnostics: Vec::new() };
    if let Some(attr) = content.attribute("result_type") {
        test.result_type = decode::typeexpr::type_constraint(&attr.expr).map_err(|diags| {
            check(diags, "result_type").err().unwrap_or_else(|| "result_type".to_string())
        })?;
    }
    if let Some(attr) = content.attribute("result") {
        let (value, diags) = attr.expr.value(&eval::Context::none());
        check(diags, "result")?;
        test.result =
            Some(value::convert(&value, &test.result_type).map_err(|err| format!("result: {err}"))?);
    }
    for block in &content.blocks {
        if block.type_name == "traversals" {
            let (expects, diags) = block.body.content(&schema(&[], &["expect"]));
            check(diags, "traversals")?;
            let mut traversals = Vec::new();
            for expect in &expects.blocks {
                let (from, to, rest) = read_range(&expect.body)?;
                let (content, diags) = rest.content(&schema(&[("ref", true)], &[]));
                check(diags, "expect")?;
                let reference = content.attribute("ref").ok_or("no ref")?;
                let traversal = reference.expr.as_traversal().map_err(|diags| {
                    check(diags, "ref").err().unwrap_or_else(|| "ref is not a traversal".to_string())
                })?;
                let steps = traversal
                    .steps
                    .iter()
                    .map(|step| match step {
                        TraversalStep::Root { name, .. } => Step::Root(name.to_string()),
                        TraversalStep::Attr { name, .. } => Step::Attr(name.to_string()),
                        TraversalStep::Index { key, .. } => Step::Index(key.clone()),
                        TraversalStep::DynamicIndex { .. } => Step::Attr("[…]".into()),
                    })
                    .collect();
                traversals.push(ExpectTraversal { steps, from, to });
            }
            test.traversals = Some(traversals);
        } else {
            let (expects, diags) = block.body.content(&schema(&[], &["error", "warning"]));
            check(diags, "diagnostics")?;
            for expect in &expects.blocks {
                let (from, to, rest) = read_range(&expect.body)?;
                check(rest.content(&BodySchema::default()).1, "diagnostic")?;
                test.diagnostics.push(ExpectDiag { severity: expect.type_name.to_string(), from, to });
            }
        }
    }
    Ok(test)
}

fn member<'a>(json: &'a Json, key: &str) -> Option<&'a Json> {
    match json {
        Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn json_u32(json: Option<&Json>) -> u32 {
    match json {
        Some(Json::Number(n)) => n.parse().unwrap_or(0),
        _ => 0,
    }
}

fn json_pos(json: Option<&Json>) -> Pos {
    let json = json.unwrap_or(&Json::Null);
    (json_u32(member(json, "line")), json_u32(member(json, "column")), json_u32(member(json, "byte")))
}

/// A range from the JSON of `--diags=json` or `--var-refs`.
fn json_range(json: Option<&Json>) -> (String, Pos, Pos) {
    let json = json.unwrap_or(&Json::Null);
    let filename = match member(json, "filename") {
        Some(Json::String(s)) => s.clone(),
        _ => String::new(),
    };
    (filename, json_pos(member(json, "start")), json_pos(member(json, "end")))
}

/// `TestConformance`: `got` is `want`, with the dynamic type in `want`
/// standing for any type.
fn conforms(got: &Type, want: &Type) -> bool {
    if want.is_dynamic() {
        return true;
    }
    if let (Some(g), Some(w)) = (got.tuple_element_types(), want.tuple_element_types()) {
        return g.len() == w.len() && g.iter().zip(w).all(|(g, w)| conforms(g, w));
    }
    if let (Some(g), Some(w)) = (got.attribute_types(), want.attribute_types()) {
        return g.len() == w.len() && g.iter().zip(w).all(|((gk, g), (wk, w))| gk == wk && conforms(g, w));
    }
    let same_kind = (got.is_list() && want.is_list())
        || (got.is_set() && want.is_set())
        || (got.is_map() && want.is_map());
    if same_kind {
        return conforms(got.element_type().unwrap(), want.element_type().unwrap());
    }
    got == want
}

/// The paths at which two values differ.
fn differences(want: &Value, got: &Value, path: &str, out: &mut Vec<String>) {
    if want.raw_equals(got) {
        return;
    }
    let join = |key: &str| if path.is_empty() { key.to_string() } else { format!("{path}.{key}") };
    if let (Some(w), Some(g)) = (want.entries(), got.entries())
        && w.keys().eq(g.keys())
    {
        for (key, w) in w {
            differences(w, &g[key], &join(key), out);
        }
        return;
    }
    if let (Some(w), Some(g)) = (want.elements(), got.elements())
        && w.len() == g.len()
    {
        for (i, (w, g)) in w.iter().zip(g).enumerate() {
            differences(w, g, &join(&i.to_string()), out);
        }
        return;
    }
    out.push(if path.is_empty() { "the root".to_string() } else { path.to_string() });
}

/// Runs one input of one test as the reference harness does, returning its
/// failures.
fn run_test_input(suite: &Path, spec: &str, input: &str, test: &TestFile) -> Vec<String> {
    let mut failures = Vec::new();
    if let Some(expected) = &test.traversals {
        let run = run_dec(
            suite,
            &[format!("--spec={spec}"), "--diags=json".into(), "--var-refs".into(), input.into()],
        );
        if run.code != 0 {
            failures.push(format!("--var-refs failed: {}", run.stderr));
        } else {
            let got = match value::json::parse(&run.stdout) {
                Ok(Json::Array(items)) => items,
                _ => {
                    failures.push(format!("--var-refs printed no JSON array: {}", run.stdout));
                    Vec::new()
                }
            };
            let mut got_traversals = Vec::new();
            for item in &got {
                let Some(Json::Array(steps)) = member(item, "steps") else { continue };
                let mut traversal = Vec::new();
                let mut ranges = Vec::new();
                for step in steps {
                    let name = match member(step, "name") {
                        Some(Json::String(s)) => s.clone(),
                        _ => String::new(),
                    };
                    ranges.push(json_range(member(step, "range")));
                    traversal.push(match member(step, "kind") {
                        Some(Json::String(kind)) if kind == "root" => Step::Root(name),
                        Some(Json::String(kind)) if kind == "attr" => Step::Attr(name),
                        _ => {
                            let mut key = String::new();
                            if let Some(json) = member(step, "key") {
                                write_json(json, &mut key);
                            }
                            Step::Index(Value::from_json_implied(&key).unwrap_or_else(|_| Value::dynamic()))
                        }
                    });
                }
                let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else { continue };
                got_traversals.push((traversal, first.0.clone(), first.1, last.2));
            }
            for (steps, filename, from, to) in &got_traversals {
                match expected.iter().find(|e| e.steps == *steps) {
                    None => failures.push(format!("Unexpected traversal {steps:?}")),
                    Some(_) if filename != input => {
                        failures.push(format!("Incorrect filename in detected traversal {filename}"))
                    }
                    Some(e) if (e.from, e.to) != (*from, *to) => {
                        failures.push(format!("Incorrect range of traversal {steps:?}: {from:?}-{to:?}"))
                    }
                    Some(_) => {}
                }
            }
            for e in expected {
                if !got_traversals.iter().any(|(steps, ..)| *steps == e.steps) {
                    failures.push(format!("Missing expected traversal {:?}", e.steps));
                }
            }
        }
    }

    let run = run_dec(
        suite,
        &[
            format!("--spec={spec}"),
            "--diags=json".into(),
            "--with-type".into(),
            "--keep-nulls".into(),
            input.into(),
        ],
    );
    let mut got_diags = BTreeSet::new();
    let mut value = None;
    if run.code != 0 {
        let diagnostics = value::json::parse(&run.stderr).ok();
        let Some(Json::Array(diagnostics)) = diagnostics.as_ref().and_then(|doc| member(doc, "diagnostics"))
        else {
            failures.push(format!("exit {} without JSON diagnostics: {}", run.code, run.stderr));
            return failures;
        };
        for diag in diagnostics {
            let severity = match member(diag, "severity") {
                Some(Json::String(s)) => s.clone(),
                _ => String::new(),
            };
            let summary = match member(diag, "summary") {
                Some(Json::String(s)) => s.clone(),
                _ => String::new(),
            };
            match member(diag, "subject") {
                Some(subject) => {
                    let (filename, from, to) = json_range(Some(subject));
                    if filename == input {
                        got_diags.insert((severity, from, to, summary));
                    } else {
                        failures.push(format!("{severity} in {filename}: {summary}"));
                    }
                }
                None => failures.push(format!("{severity} without a subject: {summary}")),
            }
        }
    } else {
        match Value::from_json_str(&run.stdout, &Type::Dynamic) {
            Ok(v) => value = Some(v),
            Err(err) => failures.push(format!("Failed to parse hcldec result: {}", err.0)),
        }
    }

    if test.diagnostics.is_empty() {
        for (severity, from, to, summary) in &got_diags {
            failures.push(format!("Unexpected {severity} {from:?}-{to:?}: {summary}"));
        }
        let Some(value) = value else { return failures };
        if !conforms(&value.ty(), &test.result_type) {
            failures.push(format!("Incorrect result type: {} for {}", value.ty(), test.result_type));
        }
        if let Some(result) = &test.result
            && !value.raw_equals(result)
        {
            let mut paths = Vec::new();
            differences(result, &value, "", &mut paths);
            failures.push(format!("Incorrect result value at {}", paths.join(", ")));
        }
    } else {
        let want: BTreeSet<(String, Pos, Pos)> =
            test.diagnostics.iter().map(|d| (d.severity.clone(), d.from, d.to)).collect();
        let got: BTreeSet<(String, Pos, Pos)> =
            got_diags.iter().map(|(s, f, t, _)| (s.clone(), *f, *t)).collect();
        for (severity, from, to, summary) in &got_diags {
            if !want.contains(&(severity.clone(), *from, *to)) {
                failures.push(format!("Unexpected {severity} {from:?}-{to:?}: {summary}"));
            }
        }
        for missing in want.difference(&got) {
            failures.push(format!("Missing expected diagnostic {missing:?}"));
        }
    }
    failures
}

/// Compact JSON, for reading a step's key back as a value.
fn write_json(json: &Json, out: &mut String) {
    match json {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(n),
        Json::String(s) => value::json::write_string(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value::json::write_string(out, key);
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

/// Every `.t` file under `dir`, as paths relative to `root`, in the
/// harness's order: a directory's tests by name, then its subdirectories.
fn test_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).unwrap().map(|entry| entry.unwrap().path()).collect();
    entries.sort();
    for path in entries.iter().filter(|path| path.extension().is_some_and(|ext| ext == "t")) {
        out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
    }
    for path in entries.iter().filter(|path| path.is_dir()) {
        test_files(root, path, out);
    }
}

#[test]
fn spec_suite() {
    let suite = test_data("specsuite");
    let mut tests = Vec::new();
    test_files(&suite, &suite, &mut tests);
    assert!(tests.len() >= 15, "the vendored suite's tests, found {}", tests.len());

    let mut failures = BTreeSet::new();
    for test in &tests {
        let base = test.strip_suffix(".t").unwrap();
        let test_file = match load_test_file(&suite.join(test)) {
            Ok(test_file) => test_file,
            Err(err) => {
                failures.insert(format!("{base}: cannot load the test file: {err}"));
                continue;
            }
        };
        let spec = format!("{base}.hcldec");
        for input in [format!("{base}.hcl"), format!("{base}.hcl.json")] {
            if suite.join(&input).exists() {
                for failure in run_test_input(&suite, &spec, &input, &test_file) {
                    failures.insert(format!("{base}: {failure}"));
                }
            }
        }
    }
    let known: BTreeSet<String> =
        SPEC_SUITE_KNOWN_DIFFERENCES.iter().map(|(failure, _)| failure.to_string()).collect();
    let unexpected: Vec<&String> = failures.difference(&known).collect();
    let now_passing: Vec<&String> = known.difference(&failures).collect();
    assert!(
        unexpected.is_empty(),
        "spec suite failures:\n{}",
        unexpected.iter().map(|f| format!("  {f}\n")).collect::<String>()
    );
    assert!(
        now_passing.is_empty(),
        "known differences that no longer occur (take them off the list): {now_passing:?}"
    );
}
