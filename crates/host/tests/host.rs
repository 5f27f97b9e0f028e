//! The analysis host's change API: what a report says after each kind of
//! change, and exactly which queries a change and its report run (the
//! rust-analyzer style of incremental test: the list of executed queries,
//! not a time).

use std::sync::Arc;

use analysis::{Level, RuleLevels};
use expect_test::{Expect, expect};
use host::{AnalysisHost, Change, DialectChange, HostOptions, Report, ValueState};

/// A host holding the module `m` of `files`, after its first report.
fn host(files: &[(&str, &str)]) -> (AnalysisHost, Report) {
    host_with(HostOptions::default(), files)
}

fn host_with(options: HostOptions, files: &[(&str, &str)]) -> (AnalysisHost, Report) {
    let mut host = AnalysisHost::new(options);
    let mut change = Change::new();
    for (name, text) in files {
        change.set_file_text(format!("m/{name}"), *text);
    }
    host.apply_change(change);
    let report = host.report();
    (host, report)
}

fn set(name: &str, text: &str) -> Change {
    let mut change = Change::new();
    change.set_file_text(format!("m/{name}"), text);
    change
}

/// A value change's state as a report's line shows it.
fn state_text(state: &ValueState) -> String {
    match state {
        ValueState::Value(value) => format!("= {}", value.to_json_string(&value.ty()).unwrap_or_default()),
        ValueState::Error(message) => format!("error: {message}"),
        ValueState::Removed => "removed".to_string(),
    }
}

/// A report as lines: each value change, then each diagnostic change.
fn shown(report: &Report) -> String {
    let mut out = String::new();
    for change in &report.values {
        out.push_str(&format!("{} {}\n", change.address, state_text(&change.state)));
    }
    for change in &report.diagnostics {
        let located = &change.diagnostic;
        out.push_str(&format!(
            "{} {}:{}:{} {}[{}] {}\n",
            if change.resolved { "resolved" } else { "new" },
            located.path,
            located.start.line,
            located.start.column,
            located.diagnostic.severity.as_str(),
            located.diagnostic.code,
            located.diagnostic.message
        ));
    }
    out
}

/// Applies `change`, reports, and checks the report and the queries both
/// ran, in order; returns those queries.
fn apply(host: &mut AnalysisHost, change: Change, report: Expect, queries: Expect) -> Vec<String> {
    let (found, executed) = apply_logged(host, change);
    report.assert_eq(&shown(&found));
    queries.assert_debug_eq(&executed);
    executed
}

/// Applies `change` and reports, with the queries both ran, in order.
fn apply_logged(host: &mut AnalysisHost, change: Change) -> (Report, Vec<String>) {
    let mark = host.db().open_log();
    host.apply_change(change);
    let found = host.report();
    let executed = host.db().describe_all(&host.db().close_log(mark));
    (found, executed)
}

const MAIN: &str = "locals {\n  a = 1\n  b = local.a + 1\n}\noutput \"b\" {\n  value = local.b\n}\n";
const OTHER: &str =
    "locals {\n  c = local.a * 10\n  d = \"fixed\"\n}\noutput \"c\" {\n  value = [local.c, local.d]\n}\n";

#[test]
fn the_first_report_has_every_value_and_diagnostic() {
    let (_, report) = host(&[("main.tf", MAIN), ("other.tf", OTHER), ("vars.tfvars", "x = ")]);
    expect![[r#"
        local.a = 1
        local.b = 2
        output.b.value = 2
        local.c = 10
        local.d = "fixed"
        output.c.value = [10,"fixed"]
        new m/vars.tfvars:1:5 error[missing-expression] Missing expression
    "#]]
    .assert_eq(&shown(&report));
}

#[test]
fn an_edit_runs_its_file_and_its_dependents_only_from_the_first_edit_on() {
    let (mut host, _) = host(&[("main.tf", MAIN), ("other.tf", OTHER)]);
    let edited = MAIN.replace("a = 1", "a = 2");
    // The first edit of the file: its text is read again (parse, lower,
    // what the module keeps of it), its attributes resolved again, and
    // the edited attribute and those reading it evaluated; the other
    // file's attributes that do not read it are not even resolved.
    let first = apply(
        &mut host,
        set("main.tf", &edited),
        expect![[r#"
            local.a = 2
            local.b = 3
            output.b.value = 3
            local.c = 20
            output.c.value = [20,"fixed"]
        "#]],
        expect![[r#"
            [
                "parse(m/main.tf)",
                "syntax_diagnostics(m/main.tf)",
                "style_lints(m/main.tf)",
                "ignore_comments(m/main.tf)",
                "parses_cleanly(m/main.tf)",
                "lower_with_source_map(m/main.tf)",
                "lower(m/main.tf)",
                "file_declarations(m/main.tf)",
                "file_exprs(m/main.tf)",
                "file_references(m/main.tf)",
                "namespaced_calls(m/main.tf)",
                "schema_diagnostics(m/main.tf)",
                "context_diagnostics(m/main.tf)",
                "attribute_expr(local.a)",
                "attribute_value(local.a)",
                "attribute_expr(local.b)",
                "attribute_value(local.b)",
                "attribute_expr(output.b.value)",
                "attribute_value(output.b.value)",
                "attribute_value(local.c)",
                "attribute_value(output.c.value)",
                "file_module_blocks(m/main.tf)",
            ]
        "#]],
    );
    // A later edit of the same file runs the same queries.
    let (report, later) = apply_logged(&mut host, set("main.tf", &MAIN.replace("a = 1", "a = 3")));
    expect![[r#"
        local.a = 3
        local.b = 4
        output.b.value = 4
        local.c = 30
        output.c.value = [30,"fixed"]
    "#]]
    .assert_eq(&shown(&report));
    assert_eq!(later, first);
}

#[test]
fn a_comment_evaluates_nothing_and_moves_no_value() {
    let (mut host, _) = host(&[("main.tf", MAIN), ("other.tf", OTHER)]);
    apply(
        &mut host,
        set("main.tf", &format!("# A comment.\n{MAIN}")),
        expect![""],
        expect![[r#"
            [
                "parse(m/main.tf)",
                "syntax_diagnostics(m/main.tf)",
                "style_lints(m/main.tf)",
                "ignore_comments(m/main.tf)",
                "parses_cleanly(m/main.tf)",
                "lower_with_source_map(m/main.tf)",
                "lower(m/main.tf)",
                "schema_diagnostics(m/main.tf)",
            ]
        "#]],
    );
}

#[test]
fn diagnostics_that_go_away_are_reported_resolved_where_they_were() {
    let (mut host, report) =
        host(&[("main.tf", "locals {\n  a = 1\n  b = 2\n}\noutput \"a\" {\n  value = local.a\n}\n")]);
    expect![[r#"
        local.a = 1
        local.b = 2
        output.a.value = 1
        new m/main.tf:3:3 warning[unused-declaration] Local value `b` is never used
    "#]]
    .assert_eq(&shown(&report));
    // Using `local.b` resolves the warning; a line added above moves the
    // new reference's error, which is new where it is.
    host.apply_change(set("main.tf", "# A comment.\nlocals {\n  a = 1\n  b = 2\n}\noutput \"a\" {\n  value = [local.a, local.b, local.nope]\n}\n"));
    expect![[r#"
        output.a.value error: Reference to undeclared local value
        resolved m/main.tf:3:3 warning[unused-declaration] Local value `b` is never used
        new m/main.tf:7:30 error[undeclared-reference] Reference to undeclared local value
    "#]]
    .assert_eq(&shown(&host.report()));
    // Fixed: the error is resolved, and the value is back.
    host.apply_change(set(
        "main.tf",
        "locals {\n  a = 1\n  b = 2\n}\noutput \"a\" {\n  value = [local.a, local.b]\n}\n",
    ));
    expect![[r#"
        output.a.value = [1,2]
        resolved m/main.tf:7:30 error[undeclared-reference] Reference to undeclared local value
    "#]]
    .assert_eq(&shown(&host.report()));
}

#[test]
fn files_added_removed_and_renamed() {
    let (mut host, _) = host(&[("main.tf", MAIN), ("other.tf", OTHER)]);
    let mut change = Change::new();
    change.remove_file("m/other.tf");
    change.set_file_text("m/renamed.tf", OTHER);
    host.apply_change(change);
    // The same declarations under another file's name: no value changes.
    expect![""].assert_eq(&shown(&host.report()));
    let mut change = Change::new();
    change.remove_file("m/renamed.tf");
    host.apply_change(change);
    expect![[r#"
        local.c removed
        local.d removed
        output.c.value removed
    "#]]
    .assert_eq(&shown(&host.report()));
    host.apply_change(set(
        "new.tf",
        "locals {\n  e = local.b + local.a\n}\noutput \"e\" {\n  value = local.e\n}\n",
    ));
    expect![[r#"
        local.e = 3
        output.e.value = 3
    "#]]
    .assert_eq(&shown(&host.report()));
}

/// Adding, removing and renaming a file run that file's queries and those
/// of the attributes that read its names, never the whole module's: the
/// module's index is kept in parts, one per name, so the other attributes'
/// resolutions and values are not even checked again.
#[test]
fn adding_removing_and_renaming_a_file_run_only_what_reads_its_names() {
    const UNRELATED: &str = "locals {\n  u = \"alone\"\n  v = local.u\n}\n";
    let (mut host, _) = host(&[("main.tf", MAIN), ("other.tf", OTHER), ("unrelated.tf", UNRELATED)]);
    // A new file reading `local.b`: its own queries, and its attributes'.
    apply(
        &mut host,
        set("added.tf", "locals {\n  e = local.b + 1\n}\n"),
        expect![[r#"
            local.e = 3
            new m/added.tf:2:3 warning[unused-declaration] Local value `e` is never used
        "#]],
        expect![[r#"
            [
                "syntax_diagnostics(m/added.tf)",
                "parse(m/added.tf)",
                "lint_diagnostics(m/added.tf)",
                "style_lints(m/added.tf)",
                "ignore_comments(m/added.tf)",
                "parses_cleanly(m/added.tf)",
                "file_declarations(m/added.tf)",
                "lower(m/added.tf)",
                "lower_with_source_map(m/added.tf)",
                "file_exprs(m/added.tf)",
                "file_references(m/added.tf)",
                "namespaced_calls(m/added.tf)",
                "schema_diagnostics(m/added.tf)",
                "context_diagnostics(m/added.tf)",
                "module_files(m)",
                "attribute_value(local.e)",
                "attribute_expr(local.e)",
                "has_override_files(m)",
                "module_duplicate_blocks(m)",
                "file_module_blocks(m/added.tf)",
                "module_parses(m)",
                "source_map(m/added.tf)",
                "line_index(m/added.tf)",
            ]
        "#]],
    );
    // Removing it again.
    let mut change = Change::new();
    change.remove_file("m/added.tf");
    apply(
        &mut host,
        change,
        expect![[r#"
            local.e removed
            resolved m/added.tf:2:3 warning[unused-declaration] Local value `e` is never used
        "#]],
        expect![[r#"
            [
                "module_files(m)",
            ]
        "#]],
    );
    // Renaming a file: its attributes are found in another file, so they
    // are evaluated again (equal, so nothing that reads them is, and no
    // value is shown), and the rest of the module is not looked at.
    let mut change = Change::new();
    change.remove_file("m/other.tf");
    change.set_file_text("m/renamed.tf", OTHER);
    apply(
        &mut host,
        change,
        expect![""],
        expect![[r#"
            [
                "syntax_diagnostics(m/renamed.tf)",
                "parse(m/renamed.tf)",
                "lint_diagnostics(m/renamed.tf)",
                "style_lints(m/renamed.tf)",
                "ignore_comments(m/renamed.tf)",
                "parses_cleanly(m/renamed.tf)",
                "file_declarations(m/renamed.tf)",
                "lower(m/renamed.tf)",
                "lower_with_source_map(m/renamed.tf)",
                "file_exprs(m/renamed.tf)",
                "file_references(m/renamed.tf)",
                "namespaced_calls(m/renamed.tf)",
                "schema_diagnostics(m/renamed.tf)",
                "context_diagnostics(m/renamed.tf)",
                "module_files(m)",
                "attribute_value(local.c)",
                "attribute_expr(local.c)",
                "attribute_value(local.d)",
                "attribute_expr(local.d)",
                "attribute_value(output.c.value)",
                "attribute_expr(output.c.value)",
                "has_override_files(m)",
                "module_duplicate_blocks(m)",
                "file_module_blocks(m/renamed.tf)",
                "module_parses(m)",
            ]
        "#]],
    );
    // A file that sorts first declaring a name again takes its definition:
    // the readers follow, and the other declaration is the duplicate.
    let (report, _) = apply_logged(&mut host, set("a.tf", "locals {\n  u = \"first\"\n}\n"));
    expect![[r#"
        local.u = "first"
        local.v = "first"
        new m/unrelated.tf:2:3 error[duplicate-declaration] Duplicate local value definition
    "#]]
    .assert_eq(&shown(&report));
}

#[test]
fn variables_dialects_and_rule_levels_are_changes_too() {
    let (mut host, _) = host(&[(
        "app.hcl",
        "variable \"n\" {\n  default = 1\n}\nlocals {\n  twice = var.n * 2\n  name  = project.name\n  other = 7\n}\n",
    )]);
    let mut change = Change::new();
    change.set_variable("m", "n", Some(value::Value::int(21)));
    host.apply_change(change);
    expect![[r#"
        var.n = 21
        local.twice = 42
    "#]]
    .assert_eq(&shown(&host.report()));
    let mut change = Change::new();
    let roots =
        [("project".into(), value::Value::object_from([("name", value::Value::string("calc"))]))].into();
    change.set_dialect("m", DialectChange { roots, ..Default::default() });
    host.apply_change(change);
    expect![[r#"
        local.name = "calc"
    "#]]
    .assert_eq(&shown(&host.report()));
    // A rule's level: the same diagnostic, resolved as a warning and new as
    // an error.
    host.apply_change(set("main.tf", "locals {\n  unused = 1\n}\n"));
    host.report();
    let mut levels = RuleLevels::default();
    levels.set("unused-declaration", Level::Error);
    let mut change = Change::new();
    change.set_rule_levels("m/main.tf", Arc::new(levels));
    host.apply_change(change);
    expect![[r#"
        resolved m/main.tf:2:3 warning[unused-declaration] Local value `unused` is never used
        new m/main.tf:2:3 error[unused-declaration] Local value `unused` is never used
    "#]]
    .assert_eq(&shown(&host.report()));
}

#[test]
fn referring_to_a_root_whole_uses_every_name_under_it() {
    let (mut host, report) = host(&[("main.tf", "locals {\n  a = 1\n}\n")]);
    expect![[r#"
        local.a = 1
        new m/main.tf:2:3 warning[unused-declaration] Local value `a` is never used
    "#]]
    .assert_eq(&shown(&report));
    // Another file reads `local` whole: `a` is used, though no reference
    // names it.
    host.apply_change(set("other.tf", "output \"o\" {\n  value = local\n}\n"));
    expect![[r#"
        output.o.value = {"a":1}
        resolved m/main.tf:2:3 warning[unused-declaration] Local value `a` is never used
    "#]]
    .assert_eq(&shown(&host.report()));
    host.apply_change(set("other.tf", "output \"o\" {\n  value = 2\n}\n"));
    expect![[r#"
        output.o.value = 2
        new m/main.tf:2:3 warning[unused-declaration] Local value `a` is never used
    "#]]
    .assert_eq(&shown(&host.report()));
}

/// The cap on a file's diagnostics is the host's option: past it, one
/// `too-many-diagnostics` at the file's end counts the rest (a warning,
/// since only warnings were left out), after the rule levels have had
/// their say: a rule switched off leaves nothing to count.
#[test]
fn a_file_reports_as_many_diagnostics_as_the_limits_allow() {
    let limits = host::Limits { max_diagnostics_per_file: 2, ..host::Limits::default() };
    let mut host =
        AnalysisHost::new(HostOptions { values: host::Values::None, limits, ..HostOptions::default() });
    let mut change = Change::new();
    let text = "locals {\n  x = 1\n}\na = \"${local.x}\"\nc = \"${local.x}\"\ne = \"${local.x}\"\n";
    change.set_file_text("m/main.hcl", text);
    host.apply_change(change);
    expect![[r#"
        new m/main.hcl:4:5 warning[interpolation-only] Interpolation-only expressions are deprecated
        new m/main.hcl:5:5 warning[interpolation-only] Interpolation-only expressions are deprecated
        new m/main.hcl:7:1 warning[too-many-diagnostics] 1 more diagnostic in this file not shown
    "#]]
    .assert_eq(&shown(&host.report()));

    let mut levels = RuleLevels::default();
    levels.set("interpolation-only", Level::Off);
    let mut change = Change::new();
    change.set_rule_levels("m/main.hcl", Arc::new(levels));
    host.apply_change(change);
    expect![[r#"
        resolved m/main.hcl:4:5 warning[interpolation-only] Interpolation-only expressions are deprecated
        resolved m/main.hcl:5:5 warning[interpolation-only] Interpolation-only expressions are deprecated
        resolved m/main.hcl:7:1 warning[too-many-diagnostics] 1 more diagnostic in this file not shown
    "#]]
    .assert_eq(&shown(&host.report()));
}

/// The host finds a module's cycles on its graph and sets them in the
/// database, so that evaluating a member stops at its first step instead of
/// going round the cycle (salsa's way, quadratic in its length): a long
/// cycle's members are each evaluated once, with no walk of the cycle each,
/// and its diagnostic, once, names every step. An edit that leaves every
/// reference as it was leaves the cycles as they were; breaking the cycle
/// sets them again, and the members' values follow.
#[test]
fn cycles_are_found_on_the_graph_and_stop_evaluation() {
    let n = 100;
    let module_text = |last: &str| {
        let steps: String = (0..n - 1).map(|i| format!("  l{i} = local.l{}\n", i + 1)).collect();
        format!("locals {{\n{steps}  l{} = {last}\n  after = local.l0\n}}\n", n - 1)
    };
    let (mut host, report) = host(&[("main.tf", &module_text("local.l0"))]);
    let module = host.module(camino::Utf8Path::new("m")).expect("the module");
    assert_eq!(module.cycles(host.db()).len(), n, "every member is on the known cycle");
    let shown_first = shown(&report);
    assert!(shown_first.contains("local.l5 error: Reference cycle\n"), "{shown_first}");
    let cycle_diagnostics: Vec<&str> =
        shown_first.lines().filter(|line| line.contains("reference-cycle")).collect();
    assert_eq!(cycle_diagnostics.len(), 1, "{shown_first}");
    assert!(
        cycle_diagnostics[0].starts_with("new m/main.tf:2:8 error[reference-cycle] Reference cycle"),
        "{shown_first}"
    );

    // An edit of a member's expression that reads what it read leaves the
    // graph's shape, and so the cycle, as it was: the edited member is
    // evaluated again, to the same error, so nothing that reads it is,
    // and nothing is said of the cycle (the second edit moves no
    // diagnostic).
    let member_edited =
        |k: usize| module_text("local.l0").replace("l0 = local.l1", &format!("l0 = local.l1 + {k}"));
    apply_logged(&mut host, set("main.tf", &member_edited(0)));
    let (same_shape, executed) = apply_logged(&mut host, set("main.tf", &member_edited(1)));
    assert_eq!(shown(&same_shape), "", "nothing new to say");
    assert_eq!(module.cycles(host.db()).len(), n, "the cycle is as it was");
    let evaluated = executed.iter().filter(|query| query.starts_with("attribute_value(")).count();
    assert_eq!(evaluated, 1, "{executed:#?}");

    let (broken, _) = apply_logged(&mut host, set("main.tf", &module_text("1")));
    let shown_broken = shown(&broken);
    assert!(shown_broken.contains("local.l0 = 1\n"), "{shown_broken}");
    assert!(shown_broken.contains("local.after = 1\n"), "{shown_broken}");
    assert!(shown_broken.contains("resolved m/main.tf:2:8 error[reference-cycle]"), "{shown_broken}");
    assert!(module.cycles(host.db()).is_empty());
}

#[test]
fn an_edit_at_the_base_of_a_long_chain_is_evaluated_without_recursing_down_it() {
    // 4,000 links over 40 files, each link reading the one before. An
    // evaluation in the wrong order would ask for the end of the chain
    // first and recurse through salsa down the whole chain, a few frames a
    // link: far more than the small stack this test runs on.
    const FILES: usize = 40;
    const PER_FILE: usize = 100;
    let files: Vec<(String, String)> = (0..FILES)
        .map(|f| {
            let mut text = String::from("locals {\n");
            for i in f * PER_FILE..(f + 1) * PER_FILE {
                if i == 0 {
                    text.push_str("  l0 = 0\n");
                } else {
                    text.push_str(&format!("  l{i} = local.l{} + 1\n", i - 1));
                }
            }
            text.push_str("}\n");
            (format!("f{f:03}.tf"), text)
        })
        .collect();
    let run = move || {
        let named: Vec<(&str, &str)> =
            files.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
        let (mut host, first) = host(&named);
        assert_eq!(first.values.len(), FILES * PER_FILE);
        let (edited, _) = apply_logged(&mut host, set("f000.tf", &files[0].1.replace("l0 = 0", "l0 = 1")));
        assert_eq!(edited.values.len(), FILES * PER_FILE, "every link changed");
        let last = edited.values.iter().find(|change| change.address.to_string() == "local.l3999");
        assert!(
            matches!(last.map(|it| &it.state), Some(ValueState::Value(value)) if value.to_json_string(&value.ty()).as_deref() == Ok("4000")),
            "{last:?}"
        );
    };
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(run)
        .expect("a thread")
        .join()
        .expect("the report finished on a small stack");
}

/// A reader of values by their structured addresses (the library's
/// `Workspace`, `HostOptions::block_structure`) reads each file's block
/// structure (`db::module::file_blocks`): after a report over more files
/// than the database keeps trees of, reading every file's structure parses
/// none of them again, since the host found it while each tree was in
/// memory. (Parsing them again after the report had
/// dropped the trees made the next edit drop them all once more: 97 ms
/// of a 10,000-file module's first edit.)
#[test]
fn a_reports_block_structure_is_read_without_parsing_again() {
    let count = db::PARSE_TREES_KEPT + 16;
    let texts: Vec<(String, String)> = (0..count)
        .map(|i| {
            (
                format!("f{i:03}.hcl"),
                format!("target \"t{i}.x\" {{\n  step \"a\" {{\n    run = {i}\n  }}\n}}\n"),
            )
        })
        .collect();
    let files: Vec<(&str, &str)> = texts.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
    let (host, report) = host_with(HostOptions { block_structure: true, ..HostOptions::default() }, &files);
    assert_eq!(report.values.len(), count);
    let module = host.module(camino::Utf8Path::new("m")).expect("the module");
    let mark = host.db().open_log();
    for &file in db::module::module_files(host.db(), module) {
        let _ = db::module::file_blocks(host.db(), file);
    }
    let executed = host.db().describe_all(&host.db().close_log(mark));
    let parsed: Vec<&String> =
        executed.iter().filter(|it| it.starts_with("parse(") || it.starts_with("lower")).collect();
    assert!(parsed.is_empty(), "reading the block structure parsed again: {parsed:?}");
}

/// A Terragrunt unit's reads (its includes, its dependencies' units) and
/// its report are found after its tree is dropped without lowering its
/// file again: the plug-in finds what the file says of them while it is
/// parsed. (Over more units than the database keeps trees of, asking for
/// their reads lowered every unit's file a second time.)
#[test]
fn a_units_reads_are_found_without_lowering_it_again() {
    let count = db::PARSE_TREES_KEPT + 16;
    let options = HostOptions { values: host::Values::None, threads: 1, ..HostOptions::default() };
    let mut host = AnalysisHost::new(options);
    let mut change = Change::new();
    change.set_file_text("live/root.hcl", "locals {\n  region = \"x\"\n}\n");
    for i in 0..count {
        let text = format!(
            "include \"root\" {{\n  path = find_in_parent_folders(\"root.hcl\")\n}}\n\n\
             dependency \"next\" {{\n  config_path = \"../u{:03}\"\n}}\n\n\
             inputs = {{\n  next = dependency.next.outputs.id\n}}\n",
            (i + 1) % count
        );
        change.set_file_text(format!("live/env/u{i:03}/terragrunt.hcl"), text);
    }
    host.apply_change(change);
    let mark = host.db().open_log();
    host.load_reads();
    let report = host.report();
    let executed = host.db().describe_all(&host.db().close_log(mark));
    let lowered: Vec<&String> = executed
        .iter()
        .filter(|it| (it.starts_with("parse(") || it.starts_with("lower")) && it.contains("terragrunt.hcl"))
        .collect();
    assert!(lowered.is_empty(), "a unit's file was lowered again: {lowered:?}");
    assert!(
        executed.iter().any(|it| it.starts_with("unit_dependencies")),
        "the units' dependencies were found: {executed:?}"
    );
    assert!(report.diagnostics.is_empty(), "{}", shown(&report));
}

/// A file a unit includes is read by path, not one of the unit's files:
/// an edit of it reports the unit again, with the diagnostics it brings or
/// takes away (what `watch` prints and the language server publishes).
#[test]
fn an_edit_of_an_included_file_reports_the_units_that_include_it() {
    let mut host = AnalysisHost::new(HostOptions::default());
    let mut change = Change::new();
    let root = "dependency \"vpc\" {\n  mock_outputs = { id = \"x\" }\n}\n";
    change.set_file_text("live/root.hcl", root);
    change.set_file_text(
        "live/app/terragrunt.hcl",
        "include \"root\" {\n  path = \"../root.hcl\"\n}\nlocals {\n  id = dependency.vpc.outputs.id\n}\n",
    );
    host.apply_change(change);
    host.load_reads();
    expect![[r#"
        include.root.path = "../root.hcl"
        local.id = 
        dependency.vpc.mock_outputs = {"id":"x"}
    "#]]
    .assert_eq(&shown(&host.report()));
    // The block the unit reads goes away from the included file.
    let mut change = Change::new();
    change.set_file_text("live/root.hcl", "# Nothing.\n");
    host.apply_change(change);
    host.load_reads();
    expect![[r#"
        local.id error: Reference to undeclared block
        dependency.vpc.mock_outputs removed
        new live/app/terragrunt.hcl:5:8 error[undeclared-reference] Reference to undeclared block
    "#]]
    .assert_eq(&shown(&host.report()));
    // And comes back.
    let mut change = Change::new();
    change.set_file_text("live/root.hcl", root);
    host.apply_change(change);
    host.load_reads();
    expect![[r#"
        local.id = 
        dependency.vpc.mock_outputs = {"id":"x"}
        resolved live/app/terragrunt.hcl:5:8 error[undeclared-reference] Reference to undeclared block
    "#]]
    .assert_eq(&shown(&host.report()));
}

/// An include added by an edit is read at the next `load_reads`, and what
/// it declares counts at once.
#[test]
fn an_include_added_by_an_edit_is_read_and_counts() {
    let mut host = AnalysisHost::new(HostOptions::default());
    let mut change = Change::new();
    change.set_file_text("live/common.hcl", "dependency \"vpc\" {\n}\n");
    change.set_file_text(
        "live/app/terragrunt.hcl",
        "include \"root\" {\n  path = \"../root.hcl\"\n}\nlocals {\n  id = dependency.vpc.outputs.id\n}\n",
    );
    change.set_file_text("live/root.hcl", "# Nothing.\n");
    host.apply_change(change);
    host.load_reads();
    expect![[r#"
        include.root.path = "../root.hcl"
        local.id error: Reference to undeclared block
        new live/app/terragrunt.hcl:5:8 error[undeclared-reference] Reference to undeclared block
    "#]]
    .assert_eq(&shown(&host.report()));
    let mut change = Change::new();
    change.set_file_text(
        "live/app/terragrunt.hcl",
        "include \"root\" {\n  path = \"../root.hcl\"\n}\ninclude \"common\" {\n  path = \"../common.hcl\"\n}\nlocals {\n  id = dependency.vpc.outputs.id\n}\n",
    );
    host.apply_change(change);
    host.load_reads();
    expect![[r#"
        include.common.path = "../common.hcl"
        local.id = 
        resolved live/app/terragrunt.hcl:5:8 error[undeclared-reference] Reference to undeclared block
    "#]]
    .assert_eq(&shown(&host.report()));
}

/// A module's calls are checked against the modules they call: an edit of
/// a called module reports its callers again.
#[test]
fn an_edit_of_a_called_module_reports_its_callers() {
    let mut host = AnalysisHost::new(HostOptions::default());
    let mut change = Change::new();
    change.set_file_text(
        "m/main.tf",
        "module \"net\" {\n  source = \"./net\"\n  cidr   = \"10.0.0.0/16\"\n}\n",
    );
    change.set_file_text("m/net/variables.tf", "variable \"cidr\" {\n  type = string\n}\n");
    host.apply_change(change);
    host.load_reads();
    host.report();
    let mut change = Change::new();
    change.set_file_text("m/net/variables.tf", "variable \"cidr_block\" {\n  type = string\n}\n");
    host.apply_change(change);
    expect![[r#"
        var.cidr removed
        var.cidr_block = 
        resolved m/net/variables.tf:1:1 warning[unused-declaration] Variable `cidr` is never used
        new m/main.tf:1:1 error[missing-module-argument] Missing required argument
        new m/main.tf:3:3 error[unsupported-module-argument] Unsupported argument
        new m/net/variables.tf:1:1 warning[unused-declaration] Variable `cidr_block` is never used
    "#]]
    .assert_eq(&shown(&host.report()));
}

#[test]
fn a_report_in_parts_says_what_the_whole_report_says() {
    let files = [
        ("a/main.tf", MAIN),
        ("a/vars.tfvars", "x = "),
        ("b/main.tf", "locals {\n  e = local.nope\n}\n"),
        ("c/main.tf", OTHER),
        ("c/more.tf", "locals {\n  a = [1 2]\n}\n"),
    ];
    let change = || {
        let mut change = Change::new();
        for (path, text) in files {
            change.set_file_text(path, text);
        }
        change
    };
    let mut whole = AnalysisHost::new(HostOptions::default());
    whole.apply_change(change());
    assert!(whole.report_pending());
    let expected = shown(&whole.report());
    assert!(!whole.report_pending());

    // Parts of one file: a module is never split, so each part is one
    // module, in path order, and then the files of no module.
    let mut parted = AnalysisHost::new(HostOptions::default());
    parted.apply_change(change());
    let mut parts = Vec::new();
    while parted.report_pending() {
        let job = parted.prepare_report_part(1);
        let Ok(draft) = job.run() else { panic!("nothing else holds the database") };
        parts.push(shown(&parted.commit_report(draft)));
        assert!(parts.len() <= files.len(), "the parts never end");
    }
    // Three modules, then the file of none.
    assert_eq!(parts.len(), 4, "{parts:#?}");
    assert!(parts.iter().all(|part| !part.is_empty()), "{parts:#?}");
    let lines = |text: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(lines(&parts.concat()), lines(&expected));

    // After the parts, an edit is one part again.
    let mut change = Change::new();
    change.set_file_text("b/main.tf", "locals {\n  e = 1\n}\n");
    parted.apply_change(change);
    let job = parted.prepare_report_part(1);
    let Ok(draft) = job.run() else { panic!("nothing else holds the database") };
    expect![[r#"
        local.e = 1
        resolved b/main.tf:2:7 error[undeclared-reference] Reference to undeclared local value
    "#]]
    .assert_eq(&shown(&parted.commit_report(draft)));
    assert!(!parted.report_pending());
}

/// When no values are reported (a check, the language server), a small
/// module keeps none of its report's working state between changes (its
/// graph, usage counts, declarations and references): each change
/// rebuilds it, and the report says what a host that kept it says.
#[test]
fn a_small_modules_state_is_rebuilt_at_its_next_change_when_no_values_are_reported() {
    let edits = [
        (
            "m/main.tf",
            "module \"net\" {\n  source = \"./net\"\n  cidr   = local.a\n}\nlocals {\n  a = \"10.0.0.0/16\"\n  b = 2\n}\n",
        ),
        ("m/net/variables.tf", "variable \"cidr\" {\n  type = string\n}\n"),
        (
            "m/main.tf",
            "module \"net\" {\n  source = \"./net\"\n  cidr   = local.b\n}\nlocals {\n  a = local.nope\n  b = 2\n}\n",
        ),
        ("m/net/variables.tf", "variable \"cidr_block\" {\n  type = string\n}\n"),
        (
            "m/main.tf",
            "# Moved down.\nmodule \"net\" {\n  source = \"./net\"\n  cidr_block = local.a\n}\nlocals {\n  a = \"10.0.0.0/16\"\n}\n",
        ),
    ];
    let diagnostics = |report: &Report| -> String {
        shown(report)
            .lines()
            .filter(|it| it.starts_with("new ") || it.starts_with("resolved "))
            .map(|it| format!("{it}\n"))
            .collect()
    };
    let mut kept = AnalysisHost::new(HostOptions::default());
    let mut rebuilt = AnalysisHost::new(HostOptions { values: host::Values::None, ..HostOptions::default() });
    let mut said = Vec::new();
    for (number, (path, text)) in edits.into_iter().enumerate() {
        for host in [&mut kept, &mut rebuilt] {
            let mut change = Change::new();
            change.set_file_text(path, text);
            host.apply_change(change);
            if number == 0 {
                host.load_reads();
            }
        }
        let expected = diagnostics(&kept.report());
        assert_eq!(diagnostics(&rebuilt.report()), expected, "after edit {number}");
        said.push(expected);
        assert!(!rebuilt.report_pending(), "a rebuilt module is not due until its next change");
        for dir in ["m", "m/net"] {
            let dir = camino::Utf8Path::new(dir);
            if kept.module(dir).is_none() {
                continue;
            }
            assert_eq!(kept.keeps_module_state(dir), Some(true), "{dir} after edit {number}");
            assert_eq!(rebuilt.keeps_module_state(dir), Some(false), "{dir} after edit {number}");
        }
    }
    // The edits did change what was said each time.
    expect![[r#"
        [
            "new m/main.tf:7:3 warning[unused-declaration] Local value `b` is never used\n",
            "new m/net/variables.tf:1:1 warning[unused-declaration] Variable `cidr` is never used\n",
            "resolved m/main.tf:7:3 warning[unused-declaration] Local value `b` is never used\nnew m/main.tf:6:3 warning[unused-declaration] Local value `a` is never used\nnew m/main.tf:6:7 error[undeclared-reference] Reference to undeclared local value\n",
            "resolved m/net/variables.tf:1:1 warning[unused-declaration] Variable `cidr` is never used\nnew m/main.tf:1:1 error[missing-module-argument] Missing required argument\nnew m/main.tf:3:3 error[unsupported-module-argument] Unsupported argument\nnew m/net/variables.tf:1:1 warning[unused-declaration] Variable `cidr_block` is never used\n",
            "resolved m/main.tf:1:1 error[missing-module-argument] Missing required argument\nresolved m/main.tf:3:3 error[unsupported-module-argument] Unsupported argument\nresolved m/main.tf:6:3 warning[unused-declaration] Local value `a` is never used\nresolved m/main.tf:6:7 error[undeclared-reference] Reference to undeclared local value\n",
        ]
    "#]]
    .assert_debug_eq(&said);
}

/// A host that reports once and reads values on request (`eval DIR`)
/// keeps no resolution of its own, orders the evaluation by the graph its
/// report built, and drops the module's working state before the values
/// are computed: the values are those a long-lived host finds.
#[test]
fn a_once_reporting_host_evaluates_by_its_graph_then_drops_it() {
    let files = [
        ("a.hcl", "locals {\n  a = 2\n  b = local.a * 3\n}\n"),
        ("b.hcl", "locals {\n  c = \"${local.b}-x\"\n  d = [local.a, local.c]\n}\n"),
    ];
    let once = HostOptions { values: host::Values::OnRequest, reports_once: true, ..HostOptions::default() };
    let (mut host, _) = host_with(once, &files);
    let dir = camino::Utf8Path::new("m");
    assert_eq!(host.keeps_module_state(dir), Some(true), "the report's graph orders the evaluation");
    let addresses = host.attributes(dir);
    let mark = host.db().open_log();
    host.evaluate_once(dir, &addresses);
    let executed = host.db().describe_all(&host.db().close_log(mark));
    assert!(
        !executed.iter().any(|it| it.starts_with("attribute_resolution(")),
        "no resolution is kept: {executed:?}"
    );
    assert_eq!(host.keeps_module_state(dir), Some(false), "the graph is dropped once it gave the order");
    let (kept, _) = host_with(HostOptions::default(), &files);
    for address in &addresses {
        assert_eq!(host.value(dir, address), kept.value(dir, address), "{address}");
    }
    assert_eq!(addresses[2].to_string(), "local.c");
    assert!(
        matches!(host.value(dir, &addresses[2]), Some(Ok(value)) if *value == value::Value::string("6-x"))
    );
}

/// What the reports so far have shown, added up: each address's value (or
/// error) and each diagnostic shown and not yet resolved, as lines.
#[derive(Debug, Default, PartialEq)]
struct Shown {
    values: std::collections::BTreeMap<String, String>,
    diagnostics: std::collections::BTreeSet<String>,
}

impl Shown {
    fn add(&mut self, report: &Report) {
        for change in &report.values {
            let address = change.address.to_string();
            if change.state == ValueState::Removed {
                assert!(self.values.remove(&address).is_some(), "{address} removed but never shown");
            } else {
                self.values.insert(address, state_text(&change.state));
            }
        }
        for change in &report.diagnostics {
            let located = &change.diagnostic;
            let line = format!(
                "{}:{}:{}-{}:{} {}[{}] {}",
                located.path,
                located.start.line,
                located.start.column,
                located.end.line,
                located.end.column,
                located.diagnostic.severity.as_str(),
                located.diagnostic.code,
                located.diagnostic.message
            );
            if change.resolved {
                assert!(self.diagnostics.remove(&line), "resolved but never shown: {line}");
            } else {
                assert!(self.diagnostics.insert(line.clone()), "shown twice: {line}");
            }
        }
    }
}

/// A module of a few files of locals, variables, outputs and resources,
/// each expression a literal, a reference to a local, variable or
/// resource's attribute (in any file, declared or not), or both, each
/// variable's type and default given or not; edited at random (a fixed
/// seed) in every way a watch sees: an expression changed, a declaration
/// added, removed or renamed, a comment, a syntax error made and mended, a
/// file added, removed or renamed, and cycles made and broken by the
/// references. After each edit, one long-lived
/// host's reports, added up, show what a new host's first report shows
/// for the same files: nothing an edit should have re-run was spared.
#[test]
fn every_edit_leaves_the_reports_adding_up_to_a_new_hosts() {
    // A host that reports values keeps each attribute's expression as the
    // firewall before its value; one that does not (the language server)
    // keeps its resolution. Both are edited the same way.
    edits_add_up(HostOptions::default(), 0x5eed);
    edits_add_up(HostOptions { values: host::Values::None, ..HostOptions::default() }, 0x5eed);
}

fn edits_add_up(options: HostOptions, seed: u64) {
    /// A small generator of our own, so that every run edits the same way.
    struct Random(u64);
    impl Random {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n as u64) as usize
        }
    }
    /// What a file declares: a local, a variable (its expression is its
    /// default, a literal, and maybe a `type` it may not convert to), an
    /// output (which nothing refers to), or a resource (a labelled block,
    /// its one attribute read as `null_resource.NAME.triggers`).
    #[derive(Clone, Copy, PartialEq)]
    enum Kind {
        Local,
        Variable,
        Output,
        Resource,
    }
    /// A file: its declarations (kind, name, expression), a comment, and
    /// whether it ends in a syntax error.
    #[derive(Clone)]
    struct File {
        declared: Vec<(Kind, String, String)>,
        comment: usize,
        broken: bool,
    }
    impl File {
        fn text(&self) -> String {
            let mut text = format!("# revision {}\nlocals {{\n", self.comment);
            for (_, name, expr) in self.declared.iter().filter(|it| it.0 == Kind::Local) {
                text.push_str(&format!("  {name} = {expr}\n"));
            }
            text.push_str("}\n");
            for (kind, name, expr) in &self.declared {
                match kind {
                    Kind::Local => {}
                    Kind::Variable => text.push_str(&format!("variable \"{name}\" {{\n{expr}}}\n")),
                    Kind::Output => text.push_str(&format!("output \"{name}\" {{\n  value = {expr}\n}}\n")),
                    Kind::Resource => text.push_str(&format!(
                        "resource \"null_resource\" \"{name}\" {{\n  triggers = {expr}\n}}\n"
                    )),
                }
            }
            if self.broken {
                text.push_str("output \"broken\" {\n  value = [1 2]\n}\n");
            }
            text
        }
    }
    let mut random = Random(seed);
    let mut names = 0;
    let mut fresh_name = || {
        names += 1;
        format!("n{names}")
    };
    let expr = |random: &mut Random, kind: Kind, declared: &[String]| -> String {
        if kind == Kind::Variable {
            let ty = ["", "  type = number\n", "  type = string\n"][random.below(3)];
            let default = ["", "  default = 7\n", "  default = \"text\"\n"][random.below(3)];
            return format!("{ty}{default}");
        }
        let reference = |random: &mut Random| {
            if declared.is_empty() || random.below(8) == 0 {
                "local.undeclared".to_string()
            } else {
                declared[random.below(declared.len())].clone()
            }
        };
        match random.below(4) {
            0 => format!("{}", random.below(100)),
            1 => reference(random),
            2 => format!("{} + {}", reference(random), random.below(10)),
            _ => format!("\"${{{}}}-{}\"", reference(random), random.below(10)),
        }
    };
    let kind_of = |random: &mut Random| {
        [Kind::Local, Kind::Local, Kind::Variable, Kind::Output, Kind::Resource][random.below(5)]
    };
    let mut files: std::collections::BTreeMap<String, File> = std::collections::BTreeMap::new();
    let mut file_names = 0;
    for _ in 0..4 {
        file_names += 1;
        let declared = (0..3).map(|_| (Kind::Local, fresh_name(), random.below(100).to_string())).collect();
        files.insert(format!("f{file_names}.tf"), File { declared, comment: 0, broken: false });
    }
    let texts = |files: &std::collections::BTreeMap<String, File>| -> Vec<(String, String)> {
        files.iter().map(|(name, file)| (name.clone(), file.text())).collect()
    };
    let initial = texts(&files);
    let initial: Vec<(&str, &str)> =
        initial.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
    let (mut host, first) = host_with(options, &initial);
    let mut shown = Shown::default();
    shown.add(&first);
    for step in 0..120 {
        // What a reference may name: every local, variable and resource.
        let declared: Vec<String> = files
            .values()
            .flat_map(|file| &file.declared)
            .filter_map(|(kind, name, _)| match kind {
                Kind::Local => Some(format!("local.{name}")),
                Kind::Variable => Some(format!("var.{name}")),
                Kind::Resource => Some(format!("null_resource.{name}.triggers")),
                Kind::Output => None,
            })
            .collect();
        let paths: Vec<String> = files.keys().cloned().collect();
        let path = paths[random.below(paths.len())].clone();
        let mut change = Change::new();
        let what = random.below(10);
        match what {
            // An expression (a variable's type and default), anywhere in a
            // file.
            0..=3 => {
                let file = files.get_mut(&path).unwrap();
                if !file.declared.is_empty() {
                    let at = random.below(file.declared.len());
                    file.declared[at].2 = expr(&mut random, file.declared[at].0, &declared);
                }
            }
            // A declaration added, removed or renamed.
            4 => {
                let kind = kind_of(&mut random);
                let new = expr(&mut random, kind, &declared);
                let name = fresh_name();
                files.get_mut(&path).unwrap().declared.push((kind, name, new));
            }
            5 => {
                let file = files.get_mut(&path).unwrap();
                if !file.declared.is_empty() {
                    let at = random.below(file.declared.len());
                    file.declared.remove(at);
                }
            }
            6 => {
                let name = fresh_name();
                let file = files.get_mut(&path).unwrap();
                if !file.declared.is_empty() {
                    let at = random.below(file.declared.len());
                    file.declared[at].1 = name;
                }
            }
            // A comment, or a syntax error made or mended.
            7 => {
                let file = files.get_mut(&path).unwrap();
                if random.below(2) == 0 { file.comment += 1 } else { file.broken = !file.broken }
            }
            // A file renamed, removed or added.
            8 => {
                let file = files.remove(&path).unwrap();
                change.remove_file(format!("m/{path}"));
                if random.below(2) == 0 || files.is_empty() {
                    file_names += 1;
                    files.insert(format!("f{file_names}.tf"), file);
                }
            }
            _ => {
                file_names += 1;
                let declared = (0..2)
                    .map(|_| {
                        let kind = kind_of(&mut random);
                        (kind, fresh_name(), expr(&mut random, kind, &declared))
                    })
                    .collect();
                files.insert(format!("f{file_names}.tf"), File { declared, comment: 0, broken: false });
            }
        }
        for (name, text) in texts(&files) {
            change.set_file_text(format!("m/{name}"), text);
        }
        host.apply_change(change);
        shown.add(&host.report());
        let now = texts(&files);
        let now: Vec<(&str, &str)> = now.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
        let mut expected = Shown::default();
        expected.add(&host_with(options, &now).1);
        assert_eq!(shown, expected, "after step {step} (edit kind {what}) of {path}");
    }
}
