//! Lowering is total and bounded in stack: every tree lowers, however broken
//! or deep.

use std::{fs, path::PathBuf};

fn lower(text: &str) -> hir::FileHir {
    let parse = syntax::parse(text);
    hir::lower_file(&parse).0
}

/// Every parser test file, and every prefix of each (cut at character
/// boundaries), which makes unterminated strings, brackets and blocks of
/// every kind.
#[test]
fn every_prefix_of_every_parser_test_lowers() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data");
    let mut count = 0;
    for sub in ["parser/ok", "parser/err", "hir"] {
        for entry in fs::read_dir(root.join(sub)).expect("test directory") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_none_or(|ext| ext != "hcl") {
                continue;
            }
            let Ok(text) = fs::read_to_string(&path) else { continue };
            for (i, _) in text.char_indices() {
                lower(&text[..i]);
                count += 1;
            }
            lower(&text);
        }
    }
    assert!(count > 1000);
}

/// The parser folds up to 4096 operators or accessors into as many levels of
/// tree; lowering walks those chains with loops, so this runs on a test
/// thread's small stack.
#[test]
fn long_chains_lower_without_deep_recursion() {
    let n = 4000;
    let sum = format!("a = {}\n", vec!["x"; n].join(" + "));
    let hir = lower(&sum);
    assert_eq!(hir.exprs.len(), 2 * n - 1);

    let traversal = format!("a = x{}\n", ".b[0]".repeat(n / 2));
    lower(&traversal);

    let splats = format!("a = x{}\n", "[*].b".repeat(n / 2));
    let hir = lower(&splats);
    let splat_count = hir.exprs.values().filter(|e| matches!(e, hir::Expr::Splat { .. })).count();
    assert_eq!(splat_count, n / 2);

    let attr_splats = format!("a = x{}\n", ".*.b[0]".repeat(n / 3));
    lower(&attr_splats);
}

#[test]
fn trivia_does_not_change_the_hir() {
    let a = lower("a = foo.bar[0] + 1.50 # comment\nb { c = \"x ${y}\" }\n");
    let b = lower("a   =   foo . bar [ 0 ]+1.5\n\n/* c */ b {\n  c = \"x ${ y }\"\n}\n");
    assert_eq!(a, b);
    let c = lower("a = foo.bar[0] + 2\nb { c = \"x ${y}\" }\n");
    assert_ne!(a, c);
}

/// Every expression maps to a node of the tree, and every expression with a
/// node of its own maps back from it (holes and splat items have none).
#[test]
fn the_source_map_round_trips() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../test-data/hir");
    for entry in fs::read_dir(dir).expect("test directory") {
        let path = entry.expect("directory entry").path();
        if path.extension().is_none_or(|ext| ext != "hcl") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("UTF-8");
        let parse = syntax::parse(&text);
        let root = parse.syntax_node();
        let (hir, map) = hir::lower_file(&parse);
        for (id, expr) in hir.exprs.iter() {
            let ptr = map.expr_syntax(id).unwrap_or_else(|| panic!("{}: {expr:?} unmapped", path.display()));
            let node = ptr.to_node(&root);
            if matches!(expr, hir::Expr::Missing | hir::Expr::SplatItem) {
                continue;
            }
            // The last accessor a splat absorbed shares its node with the
            // splat, whose text it is; the node answers with the splat.
            let back = map.node_expr(&node).expect("node mapped");
            assert!(
                back == id || matches!(hir[back], hir::Expr::Splat { .. }),
                "{}: {expr:?} at {node:?}",
                path.display()
            );
        }
        for (id, _) in hir.attributes.iter() {
            map.attribute_syntax(id).expect("attribute mapped").to_node(&root);
        }
        for (id, _) in hir.blocks.iter() {
            map.block_syntax(id).expect("block mapped").to_node(&root);
        }
    }
}
