//! The HCL formatter.
//!
//! It owns one job: given the lossless tree of a file without syntax errors,
//! produce the text the reference formatter (`hclwrite.Format` of Go HCL v2,
//! the core of `terraform fmt`) would, byte for byte. It changes only
//! whitespace — indentation, spaces between tokens, alignment of `=` and of
//! trailing comments — and never adds or removes a line break.
//!
//! It depends on the syntax crate alone: never on the database, evaluation
//! or the command line.

use syntax::{SyntaxError, SyntaxNode};

/// Formats a file's tree. The tree must have no syntax errors: what the
/// formatter does with a broken tree is unspecified (though it never panics
/// and never loses a byte).
pub fn format_tree(root: &SyntaxNode) -> String {
    // Placeholder until the formatting rules land: the text unchanged.
    root.text().to_string()
}

/// Parses and formats `text`, or returns its syntax errors.
pub fn format_text(text: &str) -> Result<String, Vec<SyntaxError>> {
    let parse = syntax::parse(text);
    if !parse.errors().is_empty() {
        return Err(parse.errors().to_vec());
    }
    Ok(format_tree(&parse.syntax_node()))
}
