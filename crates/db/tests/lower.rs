//! The `lower` query: an edit that only moves text re-runs the lowering but
//! leaves the HIR equal, so queries over the HIR do not re-run; an edit to a
//! value does re-run them. Checked by the exact list of executed queries.

use db::{Db, File, RootDatabase, lower, salsa, source_map};
use expect_test::expect;

/// Stands for any query that reads only the HIR (evaluation, references).
#[salsa::tracked]
fn attribute_names(db: &dyn Db, file: File) -> Vec<String> {
    let hir = lower(db, file);
    hir.body.attributes.iter().map(|&id| hir[id].name.to_string()).collect()
}

#[test]
fn a_trivia_edit_reruns_the_lowering_but_not_what_reads_the_hir() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a = 1\nb = x.y[0] # note\n");

    let executed = db.log_executed(|| {
        attribute_names(&db, a);
        source_map(&db, a);
    });
    expect![[r#"
        [
            "attribute_names(a.hcl)",
            "lower(a.hcl)",
            "lower_with_source_map(a.hcl)",
            "parse(a.hcl)",
            "source_map(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    let before = lower(&db, a).clone();

    // Whitespace and comments only: the tree and the source map change, the
    // HIR does not.
    db.set_file_text("a.hcl", "a   =   1\n\n/* moved */\nb = x . y [ 0 ] # other note\n");
    let executed = db.log_executed(|| {
        attribute_names(&db, a);
        source_map(&db, a);
    });
    expect![[r#"
        [
            "parse(a.hcl)",
            "lower_with_source_map(a.hcl)",
            "lower(a.hcl)",
            "source_map(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_eq!(*lower(&db, a), before);

    // A new value changes the HIR, so what reads it runs again.
    db.set_file_text("a.hcl", "a   =   2\n\n/* moved */\nb = x . y [ 0 ] # other note\n");
    let executed = db.log_executed(|| {
        attribute_names(&db, a);
    });
    expect![[r#"
        [
            "parse(a.hcl)",
            "lower_with_source_map(a.hcl)",
            "lower(a.hcl)",
            "attribute_names(a.hcl)",
        ]
    "#]]
    .assert_debug_eq(&executed);
    assert_ne!(*lower(&db, a), before);
    assert_eq!(*attribute_names(&db, a), vec!["a".to_owned(), "b".to_owned()]);
}

#[test]
fn the_source_map_points_into_the_current_tree() {
    let mut db = RootDatabase::new();
    let a = db.set_file_text("a.hcl", "a = 1\nblock \"x\" {\n  b = foo.bar\n}\n");
    let root = db::parse(&db, a).syntax_node();
    let hir = lower(&db, a);
    let map = source_map(&db, a);

    let block = hir.body.blocks[0];
    let b = hir[block].body.attributes[0];
    let attr_node = map.attribute_syntax(b).expect("mapped").to_node(&root);
    assert_eq!(attr_node.text().to_string(), "b = foo.bar\n");
    let value_node = map.expr_syntax(hir[b].value).expect("mapped").to_node(&root);
    assert_eq!(value_node.text().to_string(), "foo.bar");
    let block_node = map.block_syntax(block).expect("mapped").to_node(&root);
    assert_eq!(map.node_expr(&value_node), Some(hir[b].value));
    assert!(block_node.text().to_string().starts_with("block \"x\" {"));
}
