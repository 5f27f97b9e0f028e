//! Arbitrary bytes through the path a JSON file takes: decoding, then the
//! JSON parser. It must never panic, loop or overflow the stack, the tree
//! must hold exactly the input text, and every decodable string must decode.

#![no_main]

use libfuzzer_sys::fuzz_target;
use syntax::AstNode;

fuzz_target!(|bytes: &[u8]| {
    if let Ok(text) = syntax::decode_source(bytes) {
        let parse = syntax::parse_json(text);
        assert_eq!(parse.syntax_node().to_string(), text, "the tree's text differs from the input");
        // The accessors must cope with whatever the recovery built.
        for node in parse.syntax_node().descendants() {
            if let Some(string) = syntax::ast::JsonString::cast(node.clone()) {
                let _ = string.value();
            }
            if let Some(member) = syntax::ast::JsonMember::cast(node) {
                let _ = (member.name(), member.value());
            }
        }
    }
});
