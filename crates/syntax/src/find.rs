//! Finding the nodes of a few kinds in a tree without a cursor for every
//! other node.
//!
//! A walk of a rowan tree through `SyntaxNode::descendants` allocates a
//! cursor for every node it passes. A check that looks for rare kinds
//! (the style lints) walks the green tree instead, which is plain data,
//! and makes cursors only for the nodes it keeps.

use rowan::{GreenNodeData, NodeOrToken, TextRange, TextSize};

use crate::{SyntaxKind, SyntaxNode};

/// The descendants of `root` (itself included) that `wanted` accepts, in
/// preorder, as `root.descendants().filter(...)` gives them. `wanted` sees a
/// node as plain data (its kind, its children's kinds) and its depth below
/// `root` (0 for `root`); it should be cheap and selective, since each node
/// it accepts costs a cursor from the root down.
pub fn descendants_where(
    root: &SyntaxNode,
    wanted: impl Fn(&GreenNodeData, usize) -> bool,
) -> Vec<SyntaxNode> {
    let mut found = Vec::new();
    let green = root.green();
    let mut stack: Vec<(&GreenNodeData, TextSize, usize)> = vec![(&green, root.text_range().start(), 0)];
    while let Some((node, start, depth)) = stack.pop() {
        if wanted(node, depth) {
            let range = TextRange::at(start, node.text_len());
            if let Some(found_node) = node_at(root, range, SyntaxKind::from(node.kind().0)) {
                found.push(found_node);
            }
        }
        // Children pushed last first, so that they come off in order.
        let mut end = start + node.text_len();
        for child in node.children().rev() {
            let child_start = end - child.text_len();
            if let NodeOrToken::Node(child) = child {
                stack.push((child, child_start, depth + 1));
            }
            end = child_start;
        }
    }
    found
}

/// The node of `kind` spanning exactly `range`: the deepest element that
/// covers it, or the nearest of its ancestors that is that node (a node's
/// only child may span the same range).
fn node_at(root: &SyntaxNode, range: TextRange, kind: SyntaxKind) -> Option<SyntaxNode> {
    let start = match root.covering_element(range) {
        NodeOrToken::Node(node) => node,
        NodeOrToken::Token(token) => token.parent()?,
    };
    start.ancestors().take_while(|node| node.text_range() == range).find(|node| node.kind() == kind)
}

#[cfg(test)]
mod tests {
    use crate::{SyntaxKind, SyntaxNode, descendants_where};

    /// The same nodes, in the same order, as a filter over
    /// `SyntaxNode::descendants`, for every parser test input and a few
    /// predicates (by kind, by depth, by children).
    #[test]
    fn descendants_where_is_a_filter_over_descendants() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test-data/parser");
        let mut files = 0;
        for sub in ["ok", "err"] {
            for entry in std::fs::read_dir(dir.join(sub)).expect("test-data/parser") {
                let path = entry.expect("a directory entry").path();
                if path.extension().is_none_or(|ext| ext != "hcl") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("a test input");
                let root = crate::parse(&text).syntax_node();
                let depth = |node: &SyntaxNode| node.ancestors().count() - 1;
                let kinds = [SyntaxKind::QUOTED_TEMPLATE, SyntaxKind::BLOCK, SyntaxKind::BODY];
                let by_kind =
                    descendants_where(&root, |node, _| kinds.contains(&SyntaxKind::from(node.kind().0)));
                let expected: Vec<SyntaxNode> =
                    root.descendants().filter(|node| kinds.contains(&node.kind())).collect();
                assert_eq!(by_kind, expected, "{}", path.display());
                let shallow = descendants_where(&root, |_, depth| depth <= 2);
                let expected: Vec<SyntaxNode> = root.descendants().filter(|node| depth(node) <= 2).collect();
                assert_eq!(shallow, expected, "{}", path.display());
                let with_two_children = descendants_where(&root, |node, _| node.children().len() == 2);
                let expected: Vec<SyntaxNode> =
                    root.descendants().filter(|node| node.children_with_tokens().count() == 2).collect();
                assert_eq!(with_two_children, expected, "{}", path.display());
                files += 1;
            }
        }
        assert!(files > 50, "only {files} parser inputs found");
    }
}
