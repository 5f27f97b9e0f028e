//! The synthetic module of `cargo xtask gen-module` (100 files): a
//! one-attribute edit evaluates exactly the edited attribute and its
//! transitive dependents, as the generator computed them from the graph it
//! wrote, and a whitespace edit evaluates nothing. Counts only; the timing
//! is the module benchmark's (`cargo bench -p benchmarks --bench module`).
//!
//! The first edit of a file counts as much as later ones: the host keeps
//! every file's text at one durability from the start, so no first edit
//! walks the module or evaluates more than a later one would.

#[path = "../../../xtask/src/gen_module.rs"]
mod gen_module;

use std::collections::BTreeSet;

use halite::{Change, Workspace};

fn load(module: &gen_module::GeneratedModule) -> Workspace {
    let mut workspace = Workspace::new("module");
    let mut change = Change::new();
    for (name, text) in &module.files {
        change.set_file_text(format!("module/{name}"), text.as_str());
    }
    workspace.apply(change);
    workspace
}

/// The addresses whose values the change evaluated, and the changed ones.
fn evaluated(
    workspace: &mut Workspace,
    edit: &gen_module::GeneratedEdit,
    text: &str,
) -> (BTreeSet<String>, Vec<String>) {
    let mut change = Change::new();
    change.set_file_text(format!("module/{}", edit.file), edit.apply(text));
    let (changed, executed) = workspace.apply_logged(change);
    let evaluated = executed
        .iter()
        .filter_map(|query| query.strip_prefix("attribute_value(")?.strip_suffix(')'))
        .map(str::to_string)
        .collect();
    (evaluated, changed.values.iter().map(ToString::to_string).collect())
}

fn revert(workspace: &mut Workspace, edit: &gen_module::GeneratedEdit, text: &str) {
    let mut change = Change::new();
    change.set_file_text(format!("module/{}", edit.file), text);
    workspace.apply(change);
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
    // The first edit of the file, and a later one, evaluate exactly the
    // edited attribute and its dependents; every expression on the way
    // carries the edit into its value.
    let (first, changed) = evaluated(&mut workspace, &module.edit, text);
    assert_eq!(first, expected);
    assert_eq!(changed, module.edit.expected);
    revert(&mut workspace, &module.edit, text);
    let (evaluated, changed) = evaluated(&mut workspace, &module.edit, text);
    assert_eq!(evaluated, expected);
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
