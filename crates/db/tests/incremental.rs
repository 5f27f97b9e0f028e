//! What an edit re-runs, checked by the exact list of executed queries (the
//! style of rust-analyzer's `hir-ty/src/tests/incremental.rs`): timing says
//! nothing reliable, the list says everything.

use db::{FileStatus, RootDatabase, parse};
use expect_test::expect;

#[test]
fn editing_one_file_reparses_only_that_file() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a = 1\n");
    let b = db.set_file_text("b.hcl", "b = 2\n");

    let executed = db.log_executed(|| {
        parse(&db, a);
        parse(&db, b);
    });
    expect![[r#"
        [
            "parse(a.hcl)",
            "parse(b.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);

    db.set_file_text("b.hcl", "b = 3\n");
    let executed = db.log_executed(|| {
        parse(&db, a);
        parse(&db, b);
    });
    expect![[r#"
        [
            "parse(b.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(parse(&db, b).syntax_node().to_string(), "b = 3\n");
}

#[test]
fn setting_the_same_text_reruns_nothing() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a = 1\n");
    parse(&db, a);

    db.set_file_text("a.hcl", "a = 1\n");
    let executed = db.log_executed(|| {
        parse(&db, a);
    });
    expect![[r#"
        []
    "#]]
    .assert_debug_eq(&executed);
}

#[test]
fn deleting_a_file_reparses_it_as_empty() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a = 1\n");
    parse(&db, a);

    db.delete_file("a.hcl".into());
    assert_eq!(a.status(&db), FileStatus::Deleted);
    let executed = db.log_executed(|| {
        parse(&db, a);
    });
    expect![[r#"
        [
            "parse(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(parse(&db, a).syntax_node().to_string(), "");
}

#[test]
fn invalid_utf8_keeps_the_valid_prefix_and_has_no_tree() {
    let mut db = RootDatabase::new();
    let file = db.set_file_bytes("bad.hcl", b"a = 1\nb = \"\xff\"\n");
    assert_eq!(&**file.text(&db), "a = 1\nb = \"");
    let error = file.encoding_error(&db).clone().expect("the bytes are not UTF-8");
    assert_eq!(error.code, "invalid-utf8");
    assert_eq!(u32::from(error.range.start()), 11);
    assert_eq!(parse(&db, file).syntax_node().to_string(), "");

    // Fixing the bytes clears the error and brings the tree back.
    db.set_file_bytes("bad.hcl", b"a = 1\n");
    assert_eq!(file.encoding_error(&db), &None);
    assert_eq!(parse(&db, file).syntax_node().to_string(), "a = 1\n");
}

#[test]
fn evicting_keeps_only_the_most_recently_used_trees() {
    let mut db = RootDatabase::new();
    // More files than the parse query keeps (256), each parsed once, in order.
    let files: Vec<_> =
        (0..300).map(|i| db.set_file_text(format!("f{i}.hcl"), format!("a = {i}\n"))).collect();
    for &file in &files {
        parse(&db, file);
    }
    db.evict_parse_trees();

    // The oldest trees were dropped and are parsed again; the newest stayed.
    let executed = db.log_executed(|| {
        parse(&db, files[0]);
        parse(&db, files[299]);
    });
    expect![[r#"
        [
            "parse(f0.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(parse(&db, files[0]).syntax_node().to_string(), "a = 0\n");
}

/// Evicting every tree drops the newest too (a check that has read one huge
/// file must not keep its tree and HIR beside the module model), and the
/// LRU keeps its capacity afterwards.
#[test]
fn evicting_every_tree_drops_the_newest_too() {
    let mut db = RootDatabase::new();
    let files: Vec<_> = (0..3).map(|i| db.set_file_text(format!("f{i}.hcl"), format!("a = {i}\n"))).collect();
    for &file in &files {
        let _ = db::lower(&db, file);
    }
    db.evict_all_parse_trees();
    let executed = db.log_executed(|| {
        let _ = db::lower(&db, files[2]);
    });
    expect![[r#"
        [
            "lower(f2.hcl)",
            "lower_with_source_map(f2.hcl)",
            "parse(f2.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    // The capacity is back: recent trees stay through an ordinary eviction.
    for &file in &files {
        parse(&db, file);
    }
    db.evict_parse_trees();
    let executed = db.log_executed(|| {
        parse(&db, files[0]);
    });
    assert!(executed.is_empty(), "{executed:?}");
}
