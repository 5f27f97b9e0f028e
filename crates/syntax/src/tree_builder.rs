//! Builds the rowan tree from the lexed tokens and the parser's events.
