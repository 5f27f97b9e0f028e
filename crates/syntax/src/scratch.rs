//! The working buffers of a parse, kept per thread for the next one.
//!
//! A parse fills a handful of vectors sized from its text (the lexer's
//! token kinds and offsets, the parser's significant tokens and events, the
//! tree builder's children) and drops them when the tree is done. Files
//! are mostly small and parsed many in a row, and allocating those vectors
//! afresh each time cost more than their size suggests with the system
//! allocator: each such request larger than glibc's fast bins first merged
//! every small block the previous tree had freed, so the next tree's nodes
//! were then allocated the slow way. Kept here, the vectors are reused
//! without an allocation. Only vectors up to [`KEPT_CAPACITY`] elements and
//! tables up to [`KEPT_ENTRIES`] entries are kept, so what a thread holds
//! between parses stays under a megabyte whatever it parsed last, and a
//! large file's buffers are freed as before.

use std::cell::Cell;

use hashbrown::HashTable;
use rowan::{GreenToken, NodeOrToken};
use rustc_hash::FxHashMap;

use crate::{GreenNode, SyntaxKind, parser::Event};

/// The largest capacity, in elements, of a vector kept for the next parse.
const KEPT_CAPACITY: usize = 1 << 14;

/// The most entries of a hash table kept for the next parse. Lower than
/// for vectors: emptying a table clears its whole control array, so a
/// table kept large makes every small file after a large one pay for it
/// (at 4K entries that was 3% of a parse of the corpus).
const KEPT_ENTRIES: usize = 1 << 10;

/// The vectors one parse works in; all empty between uses.
#[derive(Default)]
pub(crate) struct Buffers {
    pub(crate) kinds: Vec<SyntaxKind>,
    pub(crate) starts: Vec<u32>,
    pub(crate) significant_index: Vec<u32>,
    pub(crate) significant_kinds: Vec<SyntaxKind>,
    pub(crate) events: Vec<Event>,
    pub(crate) children: Vec<NodeOrToken<GreenNode, GreenToken>>,
    /// The tree builder's shared words and leaves (see `tree_builder`).
    pub(crate) words: HashTable<GreenToken>,
    pub(crate) leaves: FxHashMap<(SyntaxKind, usize), GreenNode>,
}

thread_local! {
    static SPARE: Cell<Option<Box<Buffers>>> = const { Cell::new(None) };
}

/// The thread's spare buffers, or new ones when they are in use (a parse
/// inside a parse) or were never made.
pub(crate) fn take() -> Box<Buffers> {
    SPARE.with(Cell::take).unwrap_or_default()
}

/// Gives `buffers` back for the thread's next parse, emptied; a vector
/// grown past [`KEPT_CAPACITY`] is freed instead.
pub(crate) fn give_back(mut buffers: Box<Buffers>) {
    empty(&mut buffers.kinds);
    empty(&mut buffers.starts);
    empty(&mut buffers.significant_index);
    empty(&mut buffers.significant_kinds);
    empty(&mut buffers.events);
    empty(&mut buffers.children);
    // The tree builder empties the tables.
    if buffers.words.capacity() > KEPT_ENTRIES {
        buffers.words = HashTable::new();
    }
    if buffers.leaves.capacity() > KEPT_ENTRIES {
        buffers.leaves = FxHashMap::default();
    }
    // Ignored if the thread is being torn down: the buffers are then freed.
    let _ = SPARE.try_with(|spare| spare.set(Some(buffers)));
}

/// Empties `vec`, and frees it if it is larger than is worth keeping.
pub(crate) fn empty<T>(vec: &mut Vec<T>) {
    if vec.capacity() > KEPT_CAPACITY {
        *vec = Vec::new();
    } else {
        vec.clear();
    }
}
