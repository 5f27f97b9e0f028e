//! The JSON syntax parser: data-driven trees (`test-data/parser/json/{ok,err}`,
//! each `.json` beside the `.rast` it must produce; refresh with
//! `UPDATE_EXPECT=1 cargo test -p syntax --test suite json::` and review the diff),
//! the vendored JSON corpus against the reference's verdicts and first error
//! positions, the typed AST's accessors, and deep nesting.

use std::{
    fs,
    path::{Path, PathBuf},
};

use syntax::ast::{self, JsonKeywordKind};

fn test_data(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data").join(sub)
}

fn run_dir(sub: &str, expect_errors: bool) {
    let dir = test_data(sub);
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no cases in {}", dir.display());
    for path in paths {
        let text = fs::read_to_string(&path).expect("test input is UTF-8");
        let parse = syntax::parse_json(&text);
        assert_eq!(parse.syntax_node().to_string(), text, "{} is not lossless", path.display());
        assert_eq!(
            !parse.errors().is_empty(),
            expect_errors,
            "{}: expected {}, got:\n{}",
            path.display(),
            if expect_errors { "errors" } else { "no errors" },
            parse.debug_dump()
        );
        expect_test::expect_file![path.with_extension("rast")].assert_eq(&parse.debug_dump());
    }
}

#[test]
fn json_parser_ok() {
    run_dir("parser/json/ok", false);
}

#[test]
fn json_parser_err() {
    run_dir("parser/json/err", true);
}

/// One row of `test-data/corpus-json/reference.tsv`.
struct Reference {
    path: String,
    parses: bool,
    /// The reference's first error: its byte offset and summary.
    first_error: Option<(usize, String)>,
}

fn references() -> Vec<Reference> {
    let text = fs::read_to_string(test_data("corpus-json/reference.tsv")).expect("reference.tsv");
    text.lines()
        .skip(1)
        .filter(|line| !line.is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let parses = fields[1] == "yes";
            let first_error =
                (!parses).then(|| (fields[4].parse().expect("byte offset"), fields[5].to_owned()));
            Reference { path: fields[0].to_owned(), parses, first_error }
        })
        .collect()
}

#[test]
fn json_corpus_matches_the_reference() {
    let references = references();
    assert_eq!(references.len(), 40, "the vendored JSON corpus has 40 files");
    let mut failures = Vec::new();
    for reference in &references {
        let bytes = fs::read(test_data("corpus-json/input").join(&reference.path)).expect("corpus file");
        let text = syntax::decode_source(&bytes).expect("the JSON corpus is UTF-8");
        let parse = syntax::parse_json(text);
        if parse.syntax_node().to_string() != text {
            failures.push(format!("{}: not lossless", reference.path));
        }
        let ours = parse.errors().first().map(|e| (usize::from(e.range.start()), e.message.clone()));
        match (&reference.first_error, ours) {
            (None, None) => {}
            (Some(expected), Some(ours)) if *expected == ours => {}
            (expected, ours) => failures.push(format!(
                "{}: reference {} first error {expected:?}, ours {ours:?}",
                reference.path,
                if reference.parses { "parses" } else { "rejects" },
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn accessors_read_members_values_and_text() {
    let text = r#"{"a": 1.50, "a": "x\ty", "b": [true, false, null], "c": {}}"#;
    let parse = syntax::parse_json(text);
    assert!(parse.ok(), "{:?}", parse.errors());
    let Some(ast::JsonValue::JsonObject(object)) = parse.tree().value() else { panic!("not an object") };
    let members: Vec<ast::JsonMember> = object.members().collect();
    let names: Vec<String> = members.iter().map(|m| m.name().and_then(|n| n.value()).unwrap()).collect();
    assert_eq!(names, ["a", "a", "b", "c"]);
    let Some(ast::JsonValue::JsonNumber(number)) = members[0].value() else { panic!("not a number") };
    assert_eq!(number.text(), "1.50");
    let Some(ast::JsonValue::JsonString(string)) = members[1].value() else { panic!("not a string") };
    assert_eq!(string.value().as_deref(), Some("x\ty"));
    assert_eq!(string.literal(), r#""x\ty""#);
    let Some(ast::JsonValue::JsonArray(array)) = members[2].value() else { panic!("not an array") };
    let keywords: Vec<Option<JsonKeywordKind>> = array
        .values()
        .map(|v| match v {
            ast::JsonValue::JsonKeyword(k) => k.kind(),
            _ => None,
        })
        .collect();
    assert_eq!(
        keywords,
        [Some(JsonKeywordKind::True), Some(JsonKeywordKind::False), Some(JsonKeywordKind::Null)]
    );
    let c = members[3].value().unwrap();
    assert_eq!(usize::from(c.start_range().len()), 1, "an object's start range is its brace");
}

#[test]
fn a_broken_member_keeps_the_rest_of_the_document() {
    let parse = syntax::parse_json(r#"{"a": [1 2 : 3], "b": {"c" 3, "e" = 4}, "": , "d": tru}"#);
    assert!(!parse.ok());
    let Some(ast::JsonValue::JsonObject(object)) = parse.tree().value() else { panic!("not an object") };
    let names: Vec<String> = object.members().filter_map(|m| m.name()?.value()).collect();
    assert_eq!(names, ["a", "b", "", "d"]);
}

/// Deeper than any limit, on a thread with the default stack for spawned
/// threads, so that unbounded recursion would overflow here.
fn assert_deep_nesting_is_an_error(open: &'static str, prefix: &'static str) {
    let text = format!("{prefix}{}", open.repeat(100_000));
    let handle = std::thread::Builder::new()
        .spawn(move || {
            let parse = syntax::parse_json(&text);
            let lossless = parse.syntax_node().to_string() == text;
            let codes: Vec<&'static str> = parse.errors().iter().map(|e| e.code).collect();
            (lossless, codes)
        })
        .expect("spawning a thread");
    let (lossless, codes) = handle.join().expect("parsing deep nesting must not panic");
    assert!(lossless);
    assert!(codes.contains(&"nesting-too-deep"), "{codes:?}");
}

#[test]
fn deep_arrays_are_an_error_not_an_overflow() {
    assert_deep_nesting_is_an_error("[", "");
}

#[test]
fn deep_objects_are_an_error_not_an_overflow() {
    assert_deep_nesting_is_an_error("{\"a\":", "");
}

/// Every hand-written error case's first error sits at the reference's byte
/// offset with the reference's summary (`test-data/parser/json/reference-err.tsv`,
/// made by `test-data/corpus-json/make-reference.py`).
#[test]
fn json_error_cases_match_the_reference_first_error() {
    let text = fs::read_to_string(test_data("parser/json/reference-err.tsv")).expect("reference-err.tsv");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in text.lines().skip(1).filter(|line| !line.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let input = fs::read_to_string(test_data("parser/json/err").join(fields[0])).expect("error case");
        let parse = syntax::parse_json(&input);
        let ours =
            parse.errors().first().map(|e| (usize::from(e.range.start()).to_string(), e.message.clone()));
        let reference = (fields[4].to_owned(), fields[5].to_owned());
        if ours.as_ref() != Some(&reference) {
            failures.push(format!("{}: reference {reference:?}, ours {ours:?}", fields[0]));
        }
        count += 1;
    }
    assert!(count >= 20, "only {count} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
