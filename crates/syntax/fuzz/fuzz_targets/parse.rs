//! Arbitrary bytes through the path a file takes: decoding, then parsing.
//! The parser must never panic, loop or overflow the stack, and the tree it
//! builds must hold exactly the input text.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    // Bytes that are not UTF-8 are an error value, not a tree; that path has
    // nothing more to check.
    if let Ok(text) = syntax::decode_source(bytes) {
        let parse = syntax::parse(text);
        assert_eq!(parse.syntax_node().to_string(), text, "the tree's text differs from the input");
    }
});
