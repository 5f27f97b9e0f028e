//! The HCL formatter.
//!
//! It owns one job: given the lossless tree of a file without syntax errors,
//! produce the text the reference formatter (`hclwrite.Format` of Go HCL v2,
//! the core of `terraform fmt`) would, byte for byte. It changes only
//! whitespace — indentation, spaces between tokens, alignment of `=` and of
//! trailing comments — and never adds or removes a line break.
//!
//! The reference works on its scanner's tokens and on lines, not on a syntax
//! tree, and some of its results (where a minus is a negation, which lines
//! align) follow from that. To agree with it everywhere, this formatter does
//! the same: [`tokens`] flattens the tree into the reference's token stream
//! in one walk over the green tree, and [`layout`] decides every gap from
//! that stream and its lines. Writing the result is one pass into a string
//! sized up front.
//!
//! It depends on the syntax crate alone: never on the database, evaluation
//! or the command line.

mod layout;
mod tokens;

use syntax::{SyntaxError, SyntaxNode};

/// Formats a file's tree. The tree should have no syntax errors: a broken
/// tree is formatted by the same rules, which never panic and never drop a
/// non-whitespace byte, but the result is whatever those rules make of it.
pub fn format_tree(root: &SyntaxNode) -> String {
    let green = root.green();
    let text_len = usize::from(root.text_range().len());
    // Real files average several bytes a token; over-reserving a little is
    // cheaper than growing the vector.
    let mut stream = tokens::flatten(&green, text_len / 3 + 16);
    layout::layout(&mut stream.toks);

    // Indentation usually grows a file a little; a tenth is plenty for real
    // files and the string grows by itself in the rare case it is not.
    let mut out = String::with_capacity(text_len + text_len / 10 + 64);
    for tok in &stream.toks {
        push_spaces(&mut out, tok.spaces);
        out.push_str(tok.text);
        out.push_str(tok.tail);
    }
    push_spaces(&mut out, stream.trailing_spaces);
    out
}

/// Parses and formats `text`, or returns its syntax errors.
pub fn format_text(text: &str) -> Result<String, Vec<SyntaxError>> {
    let parse = syntax::parse(text);
    if !parse.errors().is_empty() {
        return Err(parse.errors().to_vec());
    }
    Ok(format_tree(&parse.syntax_node()))
}

fn push_spaces(out: &mut String, n: u32) {
    const SPACES: &str = "                                                                ";
    let mut n = n as usize;
    while n > 0 {
        let chunk = n.min(SPACES.len());
        out.push_str(&SPACES[..chunk]);
        n -= chunk;
    }
}
