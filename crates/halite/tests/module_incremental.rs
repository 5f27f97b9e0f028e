//! The synthetic module of `cargo xtask gen-module` (100 files): a
//! one-attribute edit evaluates exactly the edited attribute and its
//! transitive dependents, as the generator computed them from the graph it
//! wrote, and a whitespace edit evaluates nothing. Counts only; the timing
//! is the module benchmark's (`cargo bench -p benchmarks --bench module`).
//!
//! Each test edits its file once and reverts it before the edit it counts.
//! A workspace gives files it has not seen edited medium durability, and
//! the first edit of a file lowers it; salsa does not backdate a result
//! whose durability fell, so on that first edit the queries reading the
//! file's text directly run again even where their results are equal (the
//! file's variables, whose types are read from its text, and the module's
//! index). The first test checks that too.

#[path = "../../../xtask/src/gen_module.rs"]
mod gen_module;

use std::collections::BTreeSet;

use halite::{Change, Workspace};

fn load(module: &gen_module::GeneratedModule) -> Workspace {
    let mut workspace = Workspace::new("module");
    workspace.apply(
        module.files.iter().map(|(name, text)| Change::SetFile {
            path: format!("module/{name}").into(),
            text: text.clone(),
        }),
    );
    workspace
}

/// The addresses whose values the change evaluated, and the changed ones.
fn evaluated(
    workspace: &mut Workspace,
    edit: &gen_module::GeneratedEdit,
    text: &str,
) -> (BTreeSet<String>, Vec<String>) {
    let (changed, executed) = workspace.apply_logged([Change::SetFile {
        path: format!("module/{}", edit.file).into(),
        text: edit.apply(text),
    }]);
    let evaluated = executed
        .iter()
        .filter_map(|query| query.strip_prefix("attribute_value(")?.strip_suffix(')'))
        .map(str::to_string)
        .collect();
    (evaluated, changed)
}

fn revert(workspace: &mut Workspace, edit: &gen_module::GeneratedEdit, text: &str) {
    workspace
        .apply([Change::SetFile { path: format!("module/{}", edit.file).into(), text: text.to_string() }]);
}

#[test]
fn a_one_attribute_edit_evaluates_exactly_its_dependents() {
    let module = gen_module::generate(100, 1);
    let mut workspace = load(&module);
    let errors: Vec<String> = workspace.diagnostics().iter().map(ToString::to_string).collect();
    assert_eq!(errors, Vec::<String>::new());
    for address in workspace.addresses() {
        workspace.value(&address).unwrap_or_else(|error| panic!("{address}: {error}"));
    }
    let text = &module.files.iter().find(|(name, _)| *name == module.edit.file).expect("the edited file").1;
    let expected: BTreeSet<String> = module.edit.expected.iter().cloned().collect();
    let (first, _) = evaluated(&mut workspace, &module.edit, text);
    let extra: Vec<&String> = first.difference(&expected).collect();
    let file_number =
        module.edit.file.trim_start_matches('f').trim_end_matches(".hcl").trim_start_matches('0');
    assert_eq!(extra, [&format!("var.v{file_number}_region"), &format!("var.v{file_number}_replicas")]);
    revert(&mut workspace, &module.edit, text);
    let (evaluated, changed) = evaluated(&mut workspace, &module.edit, text);
    assert_eq!(evaluated, expected);
    // Every expression on the way carries the edit into its value.
    assert_eq!(changed, module.edit.expected);
}

#[test]
fn a_whitespace_edit_evaluates_nothing() {
    let module = gen_module::generate(100, 1);
    let mut workspace = load(&module);
    for address in workspace.addresses() {
        workspace.value(&address).unwrap_or_else(|error| panic!("{address}: {error}"));
    }
    let edit = &module.whitespace_edit;
    let text = &module.files.iter().find(|(name, _)| *name == edit.file).expect("the edited file").1;
    evaluated(&mut workspace, edit, text);
    revert(&mut workspace, edit, text);
    let (evaluated, changed) = evaluated(&mut workspace, edit, text);
    assert_eq!(evaluated, BTreeSet::new());
    assert_eq!(changed, Vec::<String>::new());
}
