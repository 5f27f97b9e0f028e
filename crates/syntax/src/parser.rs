//! The event-based parser.

use crate::{GreenNode, SyntaxError, SyntaxKind, lexer::LexedStr};

pub(crate) fn parse_source_file(lexed: &LexedStr<'_>) -> (GreenNode, Vec<SyntaxError>) {
    let mut builder = rowan::GreenNodeBuilder::new();
    builder.start_node(SyntaxKind::SOURCE_FILE.into());
    for i in 0..lexed.len() {
        builder.token(lexed.kind(i).into(), lexed.text(i));
    }
    builder.finish_node();
    (builder.finish(), lexed.errors().to_vec())
}
