//! Expected-output tests: every `test-data/hir/*.hcl` is parsed and lowered,
//! and its HIR dump compared with the `.hir` file beside it. Refresh with
//! `UPDATE_EXPECT=1 cargo test -p hir` and review the diff.

use std::{fs, path::PathBuf};

#[test]
fn hir_dumps() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/hir");
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "hcl"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no test files in {}", dir.display());
    for path in paths {
        let text = fs::read_to_string(&path).expect("test file is UTF-8");
        let parse = syntax::parse(&text);
        let (hir, _) = hir::lower_file(&parse);
        let mut dump = hir.debug_dump();
        for error in parse.errors() {
            dump.push_str(&format!("syntax error {:?}: {}\n", error.range, error.message));
        }
        expect_test::expect_file![path.with_extension("hir")].assert_eq(&dump);
    }
}
