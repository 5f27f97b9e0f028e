//! Real files: each vendored corpus file lowers, and formatting it (which
//! only changes whitespace) leaves its HIR equal, which is what lets the
//! database stop an edit at the HIR. Set `HIR_CORPUS` to a directory to run
//! the same check over a larger corpus (`../shared/corpus/input`).

use std::{
    fs,
    path::{Path, PathBuf},
};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "hcl" || ext == "tf" || ext == "nomad") {
            out.push(path);
        }
    }
}

fn check(dir: &Path) -> usize {
    let mut paths = Vec::new();
    files(dir, &mut paths);
    paths.sort();
    let mut checked = 0;
    for path in &paths {
        let Ok(text) = fs::read_to_string(path) else { continue };
        let parse = syntax::parse(&text);
        let (hir, _) = hir::lower_file(&parse);
        if !parse.errors().is_empty() {
            continue;
        }
        let formatted = fmt::format_tree(&parse.syntax_node());
        let reparsed = syntax::parse(&formatted);
        let (hir_after, _) = hir::lower_file(&reparsed);
        assert!(hir == hir_after, "formatting changed the HIR of {}", path.display());
        checked += 1;
    }
    checked
}

#[test]
fn formatting_the_vendored_corpus_leaves_the_hir_equal() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let checked = check(&root.join("corpus/input")) + check(&root.join("fmt"));
    assert!(checked > 100, "only {checked} files checked");
    if let Some(dir) = std::env::var_os("HIR_CORPUS") {
        let checked = check(Path::new(&dir));
        eprintln!("{checked} files of {} checked", Path::new(&dir).display());
    }
}
