//! The HCL formatter.
//!
//! It owns one job: given the lossless tree of a file without syntax errors,
//! produce the text a reference formatter would, byte for byte, in one of
//! two [`Style`]s:
//!
//! - [`Style::Hcl`]: `hclwrite.Format` of Go HCL v2, what Packer, Nomad and
//!   Terragrunt's `hclfmt` write. It changes only whitespace — indentation,
//!   spaces between tokens, alignment of `=` and of trailing comments — and
//!   never adds or removes a line break.
//! - [`Style::Terraform`]: `terraform fmt`, which first rewrites the file
//!   ([`terraform`]: interpolation-only values unwrapped, type constraints
//!   normalised, block labels quoted) and then formats it as `Hcl` does.
//!
//! Which style a file gets by default is decided by its name, in the one
//! table of file kinds (`vfs`), not here.
//!
//! The reference works on its scanner's tokens and on lines, not on a syntax
//! tree, and some of its results (where a minus is a negation, which lines
//! align) follow from that. To agree with it everywhere, this formatter does
//! the same: [`tokens`] flattens the tree into the reference's token stream
//! in one walk over the green tree, and [`layout`] decides every gap from
//! that stream and its lines. Writing the result is one pass into a string
//! sized up front.
//!
//! It depends on the syntax crate, and on `hir` only for how a quoted
//! string's escapes decode (Terraform's label rewrite): never on the
//! database, evaluation or the command line.

mod layout;
mod terraform;
mod tokens;

use syntax::{SyntaxError, SyntaxNode};

/// Which formatter's output to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Style {
    /// `hclwrite.Format`: whitespace only.
    Hcl,
    /// `terraform fmt`: Terraform's rewrites, then `hclwrite.Format`.
    Terraform,
}

/// Formats a file's tree in `style`. The tree should have no syntax errors
/// (see [`format_tree`]). Terraform's rewrites are kept only when the
/// rewritten file parses without errors, which on a valid file they always
/// do (each is checked to); on a broken tree the result is what
/// [`Style::Hcl`] makes of it.
pub fn format_tree_in(root: &SyntaxNode, style: Style) -> String {
    if style == Style::Terraform
        && let Some(rewritten) = terraform::rewrite(root)
    {
        let parse = syntax::parse(&rewritten);
        if parse.errors().is_empty() {
            return format_tree(&parse.syntax_node());
        }
    }
    format_tree(root)
}

/// Formats a file's tree as `hclwrite.Format` does ([`Style::Hcl`]). The tree should have no syntax errors: a broken
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

/// Parses and formats `text` as [`Style::Hcl`], or returns its syntax
/// errors.
pub fn format_text(text: &str) -> Result<String, Vec<SyntaxError>> {
    format_text_in(text, Style::Hcl)
}

/// Parses and formats `text` in `style`, or returns its syntax errors.
pub fn format_text_in(text: &str, style: Style) -> Result<String, Vec<SyntaxError>> {
    let parse = syntax::parse(text);
    if !parse.errors().is_empty() {
        return Err(parse.errors().to_vec());
    }
    Ok(format_tree_in(&parse.syntax_node(), style))
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
