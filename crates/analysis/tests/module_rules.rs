//! The module rules on the cases of `test-data/check/<rule>/<case>/`.
//!
//! Each case is a folder checked as one module, as `halite check` does: its
//! files in one module with no variable values, each file's diagnostics and
//! the module's about it. The diagnostics are compared with `<case>.txt`
//! beside the folder (`UPDATE_EXPECT=1 cargo test -p analysis --test
//! module_rules` refreshes them). Besides the expected files, each case
//! asserts what it is for: a `triggers*` case has diagnostics of its
//! folder's rule; any other case has none of that rule and no error at all,
//! since it is a valid configuration that must raise no false alarm.

use std::path::PathBuf;

use analysis::{Diagnostic, LineIndex};
use db::Db as _;
use expect_test::expect_file;

use crate::support;

use support::check_dir;

/// The diagnostics of the module made of `dir`'s files, as text: one line
/// per diagnostic (`file:line:column-line:column severity[code] message`),
/// then its notes and suggested edits.
fn check_module(rule: &str, case: &str) -> (Vec<Diagnostic>, String) {
    let dir = check_dir().join(rule).join(case);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    let mut db = dialects::database();
    // A subfolder is a module of its own that the case's module may call
    // (`source = "./child"`); its diagnostics are not part of the case's.
    for child in
        std::fs::read_dir(&dir).expect("a readable case").map(|entry| entry.expect("an entry").path())
    {
        if !child.is_dir() {
            continue;
        }
        let child_name = child.file_name().and_then(|name| name.to_str()).expect("a UTF-8 name").to_owned();
        let mut child_files = Vec::new();
        for entry in std::fs::read_dir(&child).expect("a readable child") {
            let path = entry.expect("an entry").path();
            let name = path.file_name().and_then(|name| name.to_str()).expect("a UTF-8 name").to_owned();
            let text = std::fs::read_to_string(&path).expect("a readable file");
            child_files.push(db.set_file_text(format!("{case}/{child_name}/{name}"), text.as_str()));
        }
        db.set_module_files(format!("{case}/{child_name}"), child_files);
    }
    let mut files = Vec::new();
    let mut texts = Vec::new();
    for path in &paths {
        let name = path.file_name().and_then(|name| name.to_str()).expect("a UTF-8 name");
        let text = std::fs::read_to_string(path).expect("a readable case");
        files.push(db.set_file_text(format!("{case}/{name}"), text.as_str()));
        texts.push((name.to_owned(), text));
    }
    // As the host groups them: the files a module is made of, and the
    // others (hidden ones, variables files) checked on their own.
    let members: Vec<db::File> =
        files.iter().copied().filter(|file| vfs::is_module_file(file.path(&db))).collect();
    let module = db.set_module_files(case, members.clone());
    // As the host loads what a unit reads: a candidate in the case's
    // directory that the case does not hold is a file looked for and not
    // found (one outside it, not looked for).
    for read in db::module::module_reads(&db, module) {
        for path in read.candidates.iter() {
            if path.starts_with(case) && db.file(path).is_none() {
                db.set_file_text(path.clone(), "");
                db.delete_file(path);
            }
        }
    }

    let facts = analysis::ModuleFacts::build(&db, module);
    let interface_of = |dir: &camino::Utf8Path| db::module::child_interface(&db, db.module(dir)?);
    let mut all = Vec::new();
    let mut out = String::new();
    for (&file, (name, text)) in files.iter().zip(&texts) {
        let module_diagnostics = if members.contains(&file) {
            analysis::file_module_diagnostics(&db, module, file, &facts, interface_of)
        } else {
            Vec::new()
        };
        let diagnostics = analysis::file_diagnostics_in_module(&db, file, &module_diagnostics).into_owned();
        let index = LineIndex::new(text);
        for diagnostic in &diagnostics {
            support::write_diagnostic(&mut out, &format!("{name}:"), text, &index, diagnostic, true);
        }
        all.extend(diagnostics);
    }
    if all.is_empty() {
        out.push_str("no diagnostics\n");
    }
    (all, out)
}

fn run_module_rule(rule: &str) {
    assert!(analysis::rules::rule(rule).is_some(), "{rule} is in the registry");
    let dir = check_dir().join(rule);
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.is_dir())
        .map(|path| path.file_name().and_then(|name| name.to_str()).expect("a UTF-8 name").to_owned())
        .collect();
    cases.sort();
    assert!(cases.iter().any(|case| case.starts_with("triggers")), "{rule} has a case that triggers it");
    for case in cases {
        let (diagnostics, text) = check_module(rule, &case);
        if case.starts_with("triggers") {
            assert!(diagnostics.iter().any(|it| it.code == rule), "{rule}/{case} triggers {rule}:\n{text}");
        } else {
            // A quoted type is an error of its own in Terraform's files
            // (`quoted-type-constraint`), which the legacy cases of
            // `invalid-type-constraint` write on purpose.
            let quoted = |it: &analysis::Diagnostic| it.code == analysis::rules::QUOTED_TYPE_CONSTRAINT;
            assert!(
                diagnostics.iter().all(|it| it.code != rule && (!it.is_error() || quoted(it))),
                "{rule}/{case} must raise no {rule} and no error:\n{text}"
            );
        }
        expect_file![dir.join(format!("{case}.txt"))].assert_eq(&text);
    }
}

#[test]
fn undeclared_reference() {
    run_module_rule("undeclared-reference");
}

#[test]
fn unknown_attribute() {
    run_module_rule("unknown-attribute");
}

#[test]
fn duplicate_declaration() {
    run_module_rule("duplicate-declaration");
}

/// The must-show: a local used only inside `concat()`, a `for` expression,
/// a splat, a template, after a dynamic index or in a dynamic block's
/// content is used (the `quiet-uses` case has no warning about them).
#[test]
fn unused_declaration() {
    run_module_rule("unused-declaration");
    let (diagnostics, text) = check_module("unused-declaration", "quiet-uses");
    assert!(diagnostics.is_empty(), "{text}");
}

#[test]
fn reference_cycle() {
    run_module_rule("reference-cycle");
}

#[test]
fn type_mismatch() {
    run_module_rule("type-mismatch");
}

#[test]
fn invalid_index() {
    run_module_rule("invalid-index");
}

#[test]
fn unknown_function() {
    run_module_rule("unknown-function");
}

#[test]
fn wrong_argument_count() {
    run_module_rule("wrong-argument-count");
}

#[test]
fn evaluation_error() {
    run_module_rule("evaluation-error");
}

#[test]
fn unsupported_module_argument() {
    run_module_rule("unsupported-module-argument");
}

/// A Terragrunt unit's input its module (`./module`) has no variable for.
#[test]
fn unused_input() {
    run_module_rule("unused-input");
}

/// A Terragrunt unit whose inputs leave out a required variable, where no
/// include may add it.
#[test]
fn missing_input() {
    run_module_rule("missing-input");
}

#[test]
fn nested_include() {
    run_module_rule("nested-include");
}

#[test]
fn file_not_found() {
    run_module_rule("file-not-found");
}

#[test]
fn missing_module_argument() {
    run_module_rule("missing-module-argument");
}

#[test]
fn invalid_type_constraint() {
    run_module_rule("invalid-type-constraint");
}

#[test]
fn unsupported_argument() {
    run_module_rule("unsupported-argument");
}

#[test]
fn unsupported_block() {
    run_module_rule("unsupported-block");
}

#[test]
fn misplaced_block() {
    run_module_rule("misplaced-block");
}

#[test]
fn missing_argument() {
    run_module_rule("missing-argument");
}

#[test]
fn missing_block() {
    run_module_rule("missing-block");
}

#[test]
fn wrong_label_count() {
    run_module_rule("wrong-label-count");
}

#[test]
fn duplicate_block() {
    run_module_rule("duplicate-block");
}

#[test]
fn conflicting_arguments() {
    run_module_rule("conflicting-arguments");
}

#[test]
fn out_of_context_reference() {
    run_module_rule("out-of-context-reference");
}

/// Every rule `halite check` reports has a folder of cases; the two about
/// variables' values are `halite eval`'s (a check knows no values).
#[test]
fn every_rule_has_cases() {
    for rule in analysis::RULES {
        if matches!(rule.code, "missing-variable" | "invalid-ignore") {
            continue;
        }
        assert!(check_dir().join(rule.code).is_dir(), "test-data/check/{} is missing", rule.code);
    }
}

#[test]
fn invalid_address() {
    run_module_rule("invalid-address");
}

/// A check reports a default that does not convert to its variable's
/// type; a value given to `halite eval` is the other half of the rule.
#[test]
fn invalid_variable_value() {
    run_module_rule("invalid-variable-value");
}

#[test]
fn invalid_json_body() {
    run_module_rule("invalid-json-body");
}
