//! Builds the rowan tree from the lexed tokens and the parser's events.
//!
//! The events say where each node starts and ends in the lexed tokens; the
//! tokens between events are copied into whatever node is open, trivia
//! included. So trivia before a node's first token goes before the node, in
//! its parent, and a node's range starts and ends at real tokens; trivia
//! between a node's tokens stays inside. Whatever remains after the last
//! event belongs to the root.
//!
//! Green nodes are built directly rather than through rowan's
//! `GreenNodeBuilder`, whose general-purpose cache hashes every token and
//! small node: most tokens here are punctuation, newlines and indentation,
//! whose text is fixed by their kind or their length, so [`TokenCache`]
//! shares them with an array lookup, and identifiers, which repeat, through
//! one small hash map. Parsing is about a third faster for it. A node made
//! of one shared token (`true`, `0`, a variable's name) is shared too, as
//! rowan's builder would: a flat list of such values is mostly leaves. Such
//! a node is built straight from its start and finish events, also when
//! others were wrapped around it later (the variable of `var.name`), and its
//! token is only cloned when no equal leaf exists yet, since every clone
//! and its later drop is an atomic operation on the token's count. Both
//! maps stop growing at [`SHARED_MAX`] entries, so a file of a million
//! distinct numbers costs its tokens, not a map of them besides.
//!
//! Larger nodes are not shared. About a fifth of a typical tree's elements
//! sit in subtrees repeated within the file (attributes like `type =
//! string`, accessors like `.id`), but keying every node of shared children
//! by its kind and its children's addresses cost more in hashing and map
//! inserts than it saved in building and dropping: more instructions per
//! parse and a lower ratio to hcl-edit in the same benchmark run. So did
//! keeping open nodes' shared children as indices into the cache, cloned
//! only into nodes that are not themselves shared (nodes of up to four
//! shared children looked up by those indices): the map of such nodes, the
//! extra pass over each unshared node's children and the misses outweighed
//! the allocations and atomic operations it saved (6% more instructions
//! over the corpus, and slower beside hcl-edit with mimalloc).

use std::{hash::Hasher, marker::PhantomData};

use hashbrown::HashTable;
use rowan::{GreenToken, NodeOrToken};
use rustc_hash::{FxHashMap, FxHasher};

use crate::{GreenNode, SyntaxKind, lexer::LexedStr, parser::Event, scratch::Buffers};

/// Builds the tree of `lexed` from `events`, working in the list of
/// children and the sharing tables of `buffers`; those and `events` are
/// left empty for the next parse.
pub(crate) fn build(lexed: &LexedStr<'_>, events: &mut Vec<Event>, buffers: &mut Buffers) -> GreenNode {
    let mut children = std::mem::take(&mut buffers.children);
    children.reserve(lexed.len() + 1);
    let mut leaves = std::mem::take(&mut buffers.leaves);
    // About one node in ten is a leaf of a shared token.
    leaves.reserve((lexed.len() / 16).min(SHARED_MAX));
    let mut builder = Builder {
        lexed,
        pos: 0,
        open: Vec::with_capacity(32),
        children,
        tokens: TokenCache::new(lexed.len(), std::mem::take(&mut buffers.words)),
        last_token_shared: false,
        leaves,
    };
    // Allocated at the first forward parent only: many small files have none.
    let mut forward_parents = Vec::new();
    let mut i = 0;
    while i < events.len() {
        // Events are read by copy: only the `Start`s moved to where their
        // forward parent opens are overwritten, so that they are not
        // opened twice.
        match events[i] {
            Event::Start { kind, forward_parent: None, first_token } if kind != SyntaxKind::TOMBSTONE => {
                if builder.leaf_at(events, i, kind, first_token) {
                    i += 2;
                    continue;
                }
                builder.start_node(kind, first_token as usize);
            }
            Event::Start { forward_parent: None, .. } => {}
            Event::Start { kind, forward_parent: Some(distance), first_token } => {
                // A node that others were wrapped around later: open the
                // outermost first, walking the chain of forward parents.
                forward_parents.push(kind);
                let mut idx = i;
                let mut fp = Some(distance);
                while let Some(distance) = fp {
                    idx += distance.get() as usize;
                    fp = match std::mem::replace(&mut events[idx], Event::Tombstone) {
                        Event::Start { kind, forward_parent, .. } => {
                            forward_parents.push(kind);
                            forward_parent
                        }
                        _ => None,
                    };
                }
                // The parents, outermost first; then the node itself, which
                // may be a leaf (the variable of `var.name`).
                for kind in forward_parents.drain(1..).rev() {
                    if kind != SyntaxKind::TOMBSTONE {
                        builder.start_node(kind, first_token as usize);
                    }
                }
                forward_parents.clear();
                if kind != SyntaxKind::TOMBSTONE {
                    if builder.leaf_at(events, i, kind, first_token) {
                        i += 2;
                        continue;
                    }
                    builder.start_node(kind, first_token as usize);
                }
            }
            Event::Finish { end_token } => builder.finish_node(end_token as usize),
            Event::Tombstone => {}
        }
        i += 1;
    }
    events.clear();
    let root = builder.finish();
    // All empty once the root is out (the maps once cleared), and kept for
    // the next parse.
    let Builder { children, mut leaves, tokens, .. } = builder;
    buffers.children = children;
    leaves.clear();
    buffers.leaves = leaves;
    let mut words = tokens.words;
    words.clear();
    buffers.words = words;
    root
}

type Element = NodeOrToken<GreenNode, GreenToken>;

struct Builder<'a, 't> {
    lexed: &'a LexedStr<'t>,
    /// The next lexed token to put in the tree.
    pos: usize,
    /// Open nodes: their kind and where their children start in `children`.
    open: Vec<(SyntaxKind, usize)>,
    /// The children of all open nodes, innermost last.
    children: Vec<Element>,
    tokens: TokenCache<'t>,
    /// Whether the last token emitted came shared from `tokens`.
    last_token_shared: bool,
    /// Nodes of one token, by kind and the token's address: only tokens
    /// the cache shares come here, so equal addresses mean equal tokens
    /// (the node kept as the value keeps its token, and so the address,
    /// alive).
    leaves: FxHashMap<(SyntaxKind, usize), GreenNode>,
}

impl Builder<'_, '_> {
    /// Opens a node whose first token is `first_token`: the tokens before it
    /// (the parent's, and trivia) go to the parent. The root takes its
    /// leading trivia itself.
    fn start_node(&mut self, kind: SyntaxKind, first_token: usize) {
        if !self.open.is_empty() {
            self.emit_until(first_token);
        }
        self.open.push((kind, self.children.len()));
    }

    /// Closes the innermost node after its last token, `end_token - 1`;
    /// trivia after it goes to the parent. The root stays open until the
    /// trailing trivia is in.
    fn finish_node(&mut self, end_token: usize) {
        self.emit_until(end_token);
        if self.open.len() > 1 {
            self.close_node();
        }
    }

    fn close_node(&mut self) {
        if let Some((kind, first)) = self.open.pop() {
            let node = match &self.children[first..] {
                [NodeOrToken::Token(_)] => match self.children.pop() {
                    // The node's one token is the last one emitted; it moves
                    // into the node rather than being cloned and dropped,
                    // each of which is an atomic operation on its count.
                    Some(NodeOrToken::Token(token)) => self.shared_leaf(kind, token, self.last_token_shared),
                    _ => unreachable!("the node's one child is a token"),
                },
                _ => GreenNode::new(kind.into(), self.children.drain(first..)),
            };
            self.children.push(NodeOrToken::Node(node));
        }
    }

    /// If the node of `kind` that event `i` starts at `first_token` is
    /// finished by the next event right after that one token (a variable's
    /// name, a literal), builds it at once, without cloning the token when
    /// an equal leaf exists, and says so.
    #[inline(always)]
    fn leaf_at(&mut self, events: &[Event], i: usize, kind: SyntaxKind, first_token: u32) -> bool {
        if let Some(&Event::Finish { end_token }) = events.get(i + 1)
            && end_token == first_token + 1
            && !self.open.is_empty()
            && self.pos <= first_token as usize
        {
            self.leaf(kind, first_token as usize);
            return true;
        }
        false
    }

    /// Puts a node of `kind` holding only lexed token `token` into the open
    /// node, after the tokens before it. A shared token is looked at, not
    /// cloned, until it is known that no equal leaf exists: a clone and the
    /// drop that follows it are each an atomic operation on its count.
    fn leaf(&mut self, kind: SyntaxKind, token: usize) {
        self.emit_until(token);
        let (kinds, bounds, text) = (self.lexed.kinds(), self.lexed.bounds(), self.lexed.as_str());
        let (start, end) = (bounds[token] as usize, bounds[token + 1] as usize);
        self.pos = token + 1;
        let node = match self.tokens.shared(kinds[token], text, start, end) {
            Some(shared) => {
                let key = (kind, std::ptr::from_ref::<rowan::GreenTokenData>(shared) as usize);
                match self.leaves.get(&key) {
                    Some(node) => node.clone(),
                    None => {
                        let node = GreenNode::new(kind.into(), [NodeOrToken::Token(shared.clone())]);
                        if self.leaves.len() < SHARED_MAX {
                            self.leaves.insert(key, node.clone());
                        }
                        node
                    }
                }
            }
            None => {
                let token = GreenToken::new(kinds[token].into(), &text[start..end]);
                GreenNode::new(kind.into(), [NodeOrToken::Token(token)])
            }
        };
        self.children.push(NodeOrToken::Node(node));
    }

    /// A node of `kind` holding only `token`, shared when the token is (a
    /// token nobody shares makes a node nobody could).
    fn shared_leaf(&mut self, kind: SyntaxKind, token: GreenToken, token_shared: bool) -> GreenNode {
        let key = (kind, std::ptr::from_ref::<rowan::GreenTokenData>(&token) as usize);
        if token_shared && let Some(node) = self.leaves.get(&key) {
            return node.clone();
        }
        let node = GreenNode::new(kind.into(), [NodeOrToken::Token(token)]);
        if token_shared && self.leaves.len() < SHARED_MAX {
            // The key's address stays valid: the node keeps the token alive.
            self.leaves.insert(key, node.clone());
        }
        node
    }

    /// Puts the lexed tokens up to (not including) `end` into the open node.
    fn emit_until(&mut self, end: usize) {
        let (kinds, bounds, text) = (self.lexed.kinds(), self.lexed.bounds(), self.lexed.as_str());
        let end = end.min(kinds.len());
        if self.pos >= end {
            return;
        }
        for pos in self.pos..end {
            let (token, shared) =
                self.tokens.get(kinds[pos], text, bounds[pos] as usize, bounds[pos + 1] as usize);
            self.last_token_shared = shared;
            self.children.push(NodeOrToken::Token(token));
        }
        self.pos = end;
    }

    fn finish(&mut self) -> GreenNode {
        self.emit_until(self.lexed.len());
        if self.open.is_empty() {
            // No events at all: still a root, holding every token.
            self.open.push((SyntaxKind::SOURCE_FILE, 0));
        }
        while !self.open.is_empty() {
            self.close_node();
        }
        match self.children.pop() {
            Some(NodeOrToken::Node(root)) => root,
            _ => GreenNode::new(SyntaxKind::SOURCE_FILE.into(), std::iter::empty()),
        }
    }
}

/// Shares the green tokens of one parse whose kind and text repeat. Its
/// tables are inline so that a parse of a small file allocates nothing here
/// but the map, and that once, sized from the number of tokens.
struct TokenCache<'t> {
    /// Tokens whose text their kind fixes (punctuation, quotes), by kind;
    /// those kinds all come before `TEMPLATE_TEXT`.
    by_kind: [Option<GreenToken>; FIXED_TEXT_KINDS],
    /// Runs of spaces by length, and the two newlines: indentation.
    spaces: [Option<GreenToken>; SHARED_SPACES + 1],
    newline: Option<GreenToken>,
    crlf: Option<GreenToken>,
    /// Identifiers, numbers and short template texts, which repeat, by
    /// [`word_hash`] of their kind and text. The tokens are their own keys,
    /// so the table borrows nothing from the text and is kept for the
    /// next parse.
    words: HashTable<GreenToken>,
    _text: PhantomData<&'t str>,
}

/// The most words, and the most leaves, one parse shares.
const SHARED_MAX: usize = 1 << 16;

const FIXED_TEXT_KINDS: usize = SyntaxKind::TEMPLATE_TEXT as usize;

/// Space runs up to this long are shared.
const SHARED_SPACES: usize = 16;

/// Template texts up to this long are shared: longer ones rarely repeat.
const SHARED_TEMPLATE_TEXT: usize = 24;

impl<'t> TokenCache<'t> {
    fn new(tokens: usize, mut words: HashTable<GreenToken>) -> TokenCache<'t> {
        // About one token in four is a word; a table a bit small only
        // grows once more.
        words.reserve((tokens / 4).min(SHARED_MAX), word_hash_of);
        TokenCache {
            by_kind: std::array::from_fn(|_| None),
            spaces: std::array::from_fn(|_| None),
            newline: None,
            crlf: None,
            words,
            _text: PhantomData,
        }
    }

    /// The token of `kind` whose text is `text[start..end]`, and whether
    /// it is shared: handed out to every equal token of the parse.
    #[inline]
    fn get(&mut self, kind: SyntaxKind, text: &'t str, start: usize, end: usize) -> (GreenToken, bool) {
        match self.shared(kind, text, start, end) {
            Some(token) => (token.clone(), true),
            None => (GreenToken::new(kind.into(), &text[start..end]), false),
        }
    }

    /// The shared token of `kind` whose text is `text[start..end]`, made
    /// the first time it is asked for, or `None` for a token nobody shares
    /// (a comment, a long string, or a word once the map is full). The
    /// text is only sliced where it is read: most tokens are punctuation
    /// and indentation, which the kind and the length identify.
    #[inline(always)]
    fn shared(&mut self, kind: SyntaxKind, text: &'t str, start: usize, end: usize) -> Option<&GreenToken> {
        let len = end - start;
        let slot = match kind {
            SyntaxKind::IDENT | SyntaxKind::NUMBER => return self.word(kind, &text[start..end]),
            SyntaxKind::TEMPLATE_TEXT if len <= SHARED_TEMPLATE_TEXT => {
                return self.word(kind, &text[start..end]);
            }
            // Punctuation and quotes: their kinds all come before
            // `TEMPLATE_TEXT`, and each has one text.
            _ if (kind as usize) < FIXED_TEXT_KINDS => &mut self.by_kind[kind as usize],
            SyntaxKind::NEWLINE if len == 1 => &mut self.newline,
            SyntaxKind::NEWLINE => &mut self.crlf,
            SyntaxKind::WHITESPACE
                if len <= SHARED_SPACES && text.as_bytes()[start..end].iter().all(|&b| b == b' ') =>
            {
                &mut self.spaces[len]
            }
            _ => return None,
        };
        Some(slot.get_or_insert_with(|| GreenToken::new(kind.into(), &text[start..end])))
    }

    fn word(&mut self, kind: SyntaxKind, text: &'t str) -> Option<&GreenToken> {
        let full = self.words.len() >= SHARED_MAX;
        let raw = rowan::SyntaxKind::from(kind);
        let hash = word_hash(raw, text);
        // Looked up without the hasher, which only a miss that grows the
        // table needs.
        match self.words.find_entry(hash, |token| token.text() == text && token.kind() == raw) {
            Ok(entry) => Some(entry.into_mut()),
            Err(_) if full => None,
            Err(absent) => Some(
                absent.into_table().insert_unique(hash, GreenToken::new(raw, text), word_hash_of).into_mut(),
            ),
        }
    }
}

/// The hash a word is kept under in [`TokenCache::words`].
#[inline]
fn word_hash(kind: rowan::SyntaxKind, text: &str) -> u64 {
    let mut hasher = FxHasher::default();
    hasher.write_u16(kind.0);
    hasher.write(text.as_bytes());
    hasher.finish()
}

fn word_hash_of(token: &GreenToken) -> u64 {
    word_hash(token.kind(), token.text())
}

#[cfg(test)]
mod tests {
    use rowan::NodeOrToken;

    use crate::{GreenNode, SyntaxKind};

    /// The green children of the tuple in `a = [...]`.
    fn tuple_children(text: &str) -> Vec<NodeOrToken<GreenNode, rowan::GreenToken>> {
        let parse = crate::parse(text);
        let tuple = parse.syntax_node().descendants().find(|it| it.kind() == SyntaxKind::TUPLE_EXPR);
        tuple.expect("a tuple").green().children().map(|it| it.to_owned()).collect()
    }

    fn leaves(children: &[NodeOrToken<GreenNode, rowan::GreenToken>]) -> Vec<&GreenNode> {
        children.iter().filter_map(|it| it.as_node()).collect()
    }

    #[test]
    fn a_node_of_one_shared_token_is_shared() {
        let children = tuple_children("a = [1, 1, true, 1]\n");
        let leaves = leaves(&children);
        assert_eq!(leaves.len(), 4);
        // The same green node, not equal ones.
        assert!(std::ptr::eq::<rowan::GreenNodeData>(&**leaves[0], &**leaves[1]));
        assert!(std::ptr::eq::<rowan::GreenNodeData>(&**leaves[0], &**leaves[3]));
        assert!(!std::ptr::eq::<rowan::GreenNodeData>(&**leaves[0], &**leaves[2]));
    }

    #[test]
    fn a_leaf_that_others_were_wrapped_around_is_shared() {
        // `var` starts as a node of its own and is wrapped in an accessor
        // once the `.` is seen: it is still built as a shared leaf.
        let text = "a = [var.x, var.y[0], var]\n";
        let parse = crate::parse(text);
        assert!(parse.ok());
        assert_eq!(parse.syntax_node().text().to_string(), text);
        let variables: Vec<GreenNode> = parse
            .syntax_node()
            .descendants()
            .filter(|it| it.kind() == SyntaxKind::VARIABLE)
            .map(|it| it.green().into_owned())
            .collect();
        assert_eq!(variables.len(), 3);
        assert!(std::ptr::eq::<rowan::GreenNodeData>(&*variables[0], &*variables[1]));
        assert!(std::ptr::eq::<rowan::GreenNodeData>(&*variables[0], &*variables[2]));
    }

    #[test]
    fn a_leaf_of_a_token_nobody_shares_is_built_whole_and_not_shared() {
        // Template texts longer than the shared bound are tokens of their
        // own, so their one-token literals are equal but not the same node.
        let long = "x".repeat(super::SHARED_TEMPLATE_TEXT + 1);
        let text = format!("a = [\"{long}\", /* c */ \"{long}\"]\n");
        let parse = crate::parse(&text);
        assert!(parse.ok());
        assert_eq!(parse.syntax_node().text().to_string(), text);
        let literals: Vec<GreenNode> = parse
            .syntax_node()
            .descendants()
            .filter(|it| it.kind() == SyntaxKind::TEMPLATE_LITERAL)
            .map(|it| it.green().into_owned())
            .collect();
        assert_eq!(literals.len(), 2);
        assert_eq!(literals[0], literals[1]);
        assert!(!std::ptr::eq::<rowan::GreenNodeData>(&*literals[0], &*literals[1]));
    }

    #[test]
    fn sharing_stops_at_its_bound_and_the_tree_stays_whole() {
        // More distinct numbers than the cache keeps, then one of the last
        // twice: past the bound, equal leaves are no longer shared, but the
        // tree is the same text either way.
        let count = super::SHARED_MAX + 10;
        let mut text = String::from("a = [");
        for i in 0..count {
            text.push_str(&format!("{i}, "));
        }
        text.push_str(&format!("{}, {}]\n", count - 1, count - 1));
        let parse = crate::parse(&text);
        assert!(parse.ok());
        assert_eq!(parse.syntax_node().text().to_string(), text);
        let children = tuple_children(&text);
        let leaves = leaves(&children);
        assert_eq!(leaves.len(), count + 2);
        let [.., last, again] = leaves.as_slice() else { unreachable!() };
        assert_eq!(last, again);
        assert!(!std::ptr::eq::<rowan::GreenNodeData>(&***last, &***again));
    }
}
