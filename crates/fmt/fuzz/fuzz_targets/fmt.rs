//! Arbitrary bytes through the path `halite fmt` takes: decoding, parsing,
//! formatting. On any tree, broken or not, the formatter must not panic and
//! may change only the spaces and tabs between tokens (and drop a leading
//! byte order mark). On a file without syntax errors it must also keep the
//! meaning: the output parses without errors, lowers to the same HIR, and
//! formats to itself. Terraform's style, which rewrites tokens on purpose,
//! must on such a file give a file that parses without errors and is laid
//! out as hclwrite lays it out.

#![no_main]

use libfuzzer_sys::fuzz_target;

fn without_blanks(text: &str) -> String {
    text.chars().filter(|&c| c != ' ' && c != '\t').collect()
}

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = syntax::decode_source(bytes) else { return };
    let parse = syntax::parse(text);
    let formatted = fmt::format_tree(&parse.syntax_node());
    // A leading byte order mark is dropped, on purpose.
    let content = text.strip_prefix('\u{feff}').unwrap_or(text);
    assert_eq!(without_blanks(&formatted), without_blanks(content), "formatting changed more than blanks");
    if !parse.errors().is_empty() {
        return;
    }
    let reparsed = syntax::parse(&formatted);
    assert!(reparsed.errors().is_empty(), "the output has syntax errors: {:?}", reparsed.errors());
    assert!(hir::lower_file(&parse).0 == hir::lower_file(&reparsed).0, "the output means something else");
    let again = fmt::format_tree(&reparsed.syntax_node());
    assert_eq!(again, formatted, "formatting the output changes it");

    let terraform = fmt::format_tree_in(&parse.syntax_node(), fmt::Style::Terraform);
    let reparsed = syntax::parse(&terraform);
    assert!(reparsed.errors().is_empty(), "Terraform's style has syntax errors: {:?}", reparsed.errors());
    assert_eq!(fmt::format_tree(&reparsed.syntax_node()), terraform, "Terraform's style is not laid out");
});
