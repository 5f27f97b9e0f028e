//! The reference walk: which chains an expression reports, with which
//! links, in which order, and what the visitor's say over index keys does.

use expect_test::{Expect, expect};
use hir::{Expr, ExprId, FileHir, ReferenceChain, ReferenceVisitor};

fn lower(text: &str) -> (FileHir, ExprId) {
    let parse = syntax::parse_expression(text);
    assert!(parse.errors().is_empty(), "{text:?} parses cleanly: {:?}", parse.errors());
    let (hir, root, _) = hir::lower_expression_file(&parse.tree());
    (hir, root)
}

/// A chain as its root's name and one piece per link: `.name`, `.0` or
/// `[key]` with the key's dump.
fn render(hir: &FileHir, chain: &ReferenceChain) -> String {
    let mut out = chain.root_name(&hir.exprs).to_string();
    let mut base = chain.root;
    for &link in &chain.links {
        match &hir[link] {
            Expr::GetAttr { base: link_base, name } => {
                assert_eq!(*link_base, base, "each link's base is the one before it");
                out.push_str(&format!(".{name}"));
            }
            Expr::LegacyIndex { base: link_base, index } => {
                assert_eq!(*link_base, base, "each link's base is the one before it");
                out.push_str(&format!(".{index}"));
            }
            Expr::Index { base: link_base, index } => {
                assert_eq!(*link_base, base, "each link's base is the one before it");
                out.push_str(&format!("[{}]", hir.debug_dump_expr(*index)));
            }
            other => panic!("a link is an accessor, not {other:?}"),
        }
        base = link;
    }
    out
}

fn check(text: &str, expected: Expect) {
    let (hir, root) = lower(text);
    let chains = hir::references(&hir.exprs, root);
    expected.assert_eq(&chains.iter().map(|chain| render(&hir, chain) + "\n").collect::<String>());
}

#[test]
fn chains_and_their_links() {
    check(
        "a",
        expect![[r#"
        a
    "#]],
    );
    check(
        "a.b.c",
        expect![[r#"
        a.b.c
    "#]],
    );
    check(
        "a.0.b[1][\"k\"]",
        expect![[r#"
        a.0.b[1][quoted["k"]]
    "#]],
    );
    // Parentheses are not in the HIR: the chain goes through them, and
    // `decode` cuts it where its reference form needs to.
    check(
        "(a.b).c",
        expect![[r#"
        a.b.c
    "#]],
    );
}

#[test]
fn index_keys_are_walked_after_their_chain_innermost_first() {
    check(
        "foo.x[count.index].name",
        expect![[r#"
        foo.x[count.index].name
        count.index
    "#]],
    );
    check(
        "a[b][c.d].e[f[g]]",
        expect![[r#"
        a[b][c.d].e[f[g]]
        b
        c.d
        f[g]
        g
    "#]],
    );
}

#[test]
fn a_chain_on_something_else_walks_its_base_then_its_keys() {
    check(
        "f(x)[y].z",
        expect![[r#"
        x
        y
    "#]],
    );
    check(
        "[p, q][r]",
        expect![[r#"
        p
        q
        r
    "#]],
    );
}

#[test]
fn for_variables_are_not_references() {
    check(
        "[for i, v in l: v[i].x + k[v] if v != w]",
        expect![[r#"
        l
        k[v]
        w
    "#]],
    );
    // The collection is outside the scope, so a name it shares with an
    // iteration variable is a reference there.
    check(
        "{for k, v in k: k => v... if m}",
        expect![[r#"
        k
        m
    "#]],
    );
    // A dynamic key of a local chain is still walked.
    check(
        "[for v in l: v[outer]]",
        expect![[r#"
        l
        outer
    "#]],
    );
    // Scopes nest and end with their expression.
    check(
        "[for a in b: [for c in a: c + a + d]] + a",
        expect![[r#"
        b
        d
        a
    "#]],
    );
}

#[test]
fn templates_in_source_order() {
    check(
        "\"${a}%{if b}${c}%{else}${d}%{endif}%{for x in e}${x.y}${f}%{endfor}${x}\"",
        expect![[r#"
        a
        b
        c
        d
        e
        f
        x
    "#]],
    );
}

#[test]
fn operands_arguments_elements_and_splats() {
    check(
        "c ? f(a, b...) : -d * e",
        expect![[r#"
        c
        a
        b
        d
        e
    "#]],
    );
    check(
        "{ k = v, (kk) = vv, \"s\" = w }",
        expect![[r#"
        v
        kk
        vv
        w
    "#]],
    );
    check(
        "a[*].b[c].d",
        expect![[r#"
        a
        c
    "#]],
    );
    check(
        "a.*.b",
        expect![[r#"
        a
    "#]],
    );
}

/// What the walk asks and reports over `text`, with a visitor that
/// declines to walk keys that are themselves indexes.
fn visit(text: &str) -> String {
    struct Recorder<'a> {
        hir: &'a FileHir,
        events: Vec<String>,
    }
    impl ReferenceVisitor for Recorder<'_> {
        fn reference(&mut self, chain: ReferenceChain) {
            self.events.push(format!("reference {}", render(self.hir, &chain)));
        }
        fn walk_index_key(&mut self, link: ExprId) -> bool {
            let Expr::Index { index, .. } = &self.hir[link] else { panic!("asked about a non-index") };
            let walk = !matches!(self.hir[*index], Expr::Index { .. });
            let verdict = if walk { "walk" } else { "skip" };
            self.events.push(format!("key {}: {verdict}", self.hir.debug_dump_expr(*index)));
            walk
        }
    }
    let (hir, root) = lower(text);
    let mut recorder = Recorder { hir: &hir, events: Vec::new() };
    hir::walk_references(&hir.exprs, root, &mut recorder);
    recorder.events.join("\n")
}

#[test]
fn the_visitor_is_asked_about_each_key_outermost_first_before_the_chain() {
    expect![[r#"
        key p[q]: skip
        key y: walk
        reference a[y].b[p[q]]
        reference y"#]]
    .assert_eq(&visit("a[y].b[p[q]]"));
    // Asked also for a chain whose root is bound by a `for`, which is then
    // not reported.
    expect![[r#"
        reference l
        key k: walk
        reference k"#]]
    .assert_eq(&visit("[for v in l: v[k]]"));
}

#[test]
fn long_chains_do_not_overflow_the_stack() {
    // Built directly: the parser limits nesting well below what a HIR from
    // elsewhere (a JSON file, a generated arena) can hold.
    let mut exprs = la_arena::Arena::new();
    let mut chain = exprs.alloc(Expr::Variable("a".into()));
    let mut sum = exprs.alloc(Expr::Variable("x".into()));
    for _ in 0..100_000 {
        let key = exprs.alloc(Expr::Variable("k".into()));
        let index = exprs.alloc(Expr::Index { base: chain, index: key });
        chain = exprs.alloc(Expr::GetAttr { base: index, name: "b".into() });
        let operand = exprs.alloc(Expr::Variable("y".into()));
        sum = exprs.alloc(Expr::Binary { op: hir::BinaryOp::Add, lhs: sum, rhs: operand });
    }
    let root = exprs.alloc(Expr::Tuple([chain, sum].into_iter().collect()));
    let chains = hir::references(&exprs, root);
    assert_eq!(chains.len(), 1 + 100_000 + 1 + 100_000);
    assert_eq!(chains[0].links.len(), 200_000);
    assert_eq!(chains[1].root_name(&exprs), "k");
    assert_eq!(chains[100_001].root_name(&exprs), "x");
}
