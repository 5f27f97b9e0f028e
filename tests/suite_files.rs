//! Every file of a crate's integration tests is a module of the crate's
//! one test binary (`tests/suite.rs`, built with `autotests = false`):
//! a file the suite does not declare would never be compiled, and its
//! tests would never run.

use std::{collections::BTreeSet, fs, path::Path};

/// The names of the `.rs` files directly in `dir`, without the suffix.
fn rust_files(dir: &Path) -> BTreeSet<String> {
    let Ok(entries) = fs::read_dir(dir) else { return BTreeSet::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
        .collect()
}

#[test]
fn every_test_file_is_a_module_of_its_crates_suite() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut packages = vec![root.to_path_buf()];
    let crates = fs::read_dir(root.join("crates")).expect("the crates directory");
    packages.extend(crates.filter_map(|entry| Some(entry.ok()?.path())).filter(|path| path.is_dir()));
    let mut suites = 0;
    for package in packages {
        let manifest = fs::read_to_string(package.join("Cargo.toml")).expect("a manifest");
        let tests = package.join("tests");
        let suite = tests.join("suite.rs");
        if !suite.exists() {
            assert!(!manifest.contains("autotests = false"), "{}: no tests/suite.rs", package.display());
            continue;
        }
        suites += 1;
        assert!(
            manifest.contains("autotests = false") && manifest.contains("path = \"tests/suite.rs\""),
            "{}: tests/suite.rs is not the crate's one test binary",
            package.display()
        );
        let declared: BTreeSet<String> = fs::read_to_string(&suite)
            .expect("the suite")
            .lines()
            .filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';').map(str::to_owned))
            .collect();
        let mut files = rust_files(&tests);
        files.remove("suite");
        if tests.join("support").is_dir() {
            files.insert("support".to_owned());
        }
        assert_eq!(files, declared, "{}: the test files and the suite's modules", package.display());
    }
    assert!(suites >= 10, "the suites found: {suites}");
}
