//! Builds the rowan tree from the lexed tokens and the parser's events.
//!
//! The parser consumed only significant tokens; everything between two of
//! them (whitespace and comments) is put back here. Trivia before a node's
//! first token goes before the node, in its parent, so a node's range starts
//! at its first real token; trivia before a token inside a node goes inside.
//! Whatever remains after the last event belongs to the root.

use rowan::GreenNodeBuilder;

use crate::{GreenNode, SyntaxKind, lexer::LexedStr, parser::Event};

pub(crate) fn build(lexed: &LexedStr<'_>, mut events: Vec<Event>) -> GreenNode {
    let mut builder = Builder { lexed, pos: 0, inner: GreenNodeBuilder::new(), depth: 0 };
    let mut forward_parents = Vec::new();
    for i in 0..events.len() {
        match std::mem::replace(&mut events[i], Event::Tombstone) {
            Event::Start { kind, forward_parent } => {
                // A node that others were wrapped around later: open the
                // outermost first, walking the chain of forward parents.
                forward_parents.push(kind);
                let mut idx = i;
                let mut fp = forward_parent;
                while let Some(distance) = fp {
                    idx += distance as usize;
                    fp = match std::mem::replace(&mut events[idx], Event::Tombstone) {
                        Event::Start { kind, forward_parent } => {
                            forward_parents.push(kind);
                            forward_parent
                        }
                        _ => None,
                    };
                }
                for kind in forward_parents.drain(..).rev() {
                    if kind != SyntaxKind::TOMBSTONE {
                        builder.start_node(kind);
                    }
                }
            }
            Event::Finish => builder.finish_node(),
            Event::Token { kind, raw } => builder.token(kind, raw as usize),
            Event::Tombstone => {}
        }
    }
    builder.finish()
}

struct Builder<'a, 't> {
    lexed: &'a LexedStr<'t>,
    /// The next lexed token to put in the tree.
    pos: usize,
    inner: GreenNodeBuilder<'static>,
    /// Open nodes; the root stays open until `finish` has added what is left.
    depth: usize,
}

impl Builder<'_, '_> {
    fn start_node(&mut self, kind: SyntaxKind) {
        // The root takes leading trivia; any other node leaves it to its parent.
        if self.depth > 0 {
            self.eat_trivia();
        }
        self.inner.start_node(kind.into());
        self.depth += 1;
    }

    fn finish_node(&mut self) {
        if self.depth == 1 {
            // Keep the root open until the trailing trivia is in.
            return;
        }
        self.inner.finish_node();
        self.depth -= 1;
    }

    fn token(&mut self, kind: SyntaxKind, raw: usize) {
        // Anything skipped up to `raw` is trivia, or a token the grammar
        // never consumed (it cannot happen, but the tree must stay lossless).
        while self.pos < raw {
            self.emit(self.lexed.kind(self.pos));
        }
        self.pos = raw;
        self.emit(kind);
    }

    fn eat_trivia(&mut self) {
        while self.pos < self.lexed.len() && self.lexed.kind(self.pos).is_trivia() {
            self.emit(self.lexed.kind(self.pos));
        }
    }

    fn emit(&mut self, kind: SyntaxKind) {
        self.inner.token(kind.into(), self.lexed.text(self.pos));
        self.pos += 1;
    }

    fn finish(mut self) -> GreenNode {
        while self.pos < self.lexed.len() {
            self.emit(self.lexed.kind(self.pos));
        }
        if self.depth == 1 {
            self.inner.finish_node();
        }
        self.inner.finish()
    }
}
