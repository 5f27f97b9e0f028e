//! The grammar of HCL native syntax, as functions recording parser events.
//!
//! Error messages follow the reference implementation's wording and point at
//! the same token it does, so that people moving between tools recognise
//! them; recovery differs on purpose: the reference often skips to the end
//! of the enclosing body after an error, while this parser skips to the end
//! of the broken line (respecting brackets), so one mistake hides no others.

mod expressions;
mod items;
mod templates;

use super::{CompletedMarker, MAX_NESTING, Parser};
use crate::{SyntaxError, SyntaxKind::*};

pub(crate) use items::source_file;

/// A whole text as one expression, newlines ignored as inside parentheses
/// (the reference's `ParseExpression`); anything after the expression is an
/// error, kept in an `ERROR` node.
pub(crate) fn expression_file(p: &mut Parser<'_>) {
    let m = p.start();
    p.with_newlines(false, |p| {
        expressions::expr(p);
        if !p.at(EOF) {
            p.error(error_here(
                p,
                "extra-characters",
                "Extra characters after expression",
                "An expression was successfully parsed, but extra characters were found after it.",
            ));
            let rest = p.start();
            while !p.at(EOF) {
                p.bump_any();
            }
            rest.complete(p, ERROR);
        }
    });
    m.complete(p, EXPRESSION_FILE);
}

/// A whole text as a bare template (the reference's `ParseTemplate`).
pub(crate) fn template_file(p: &mut Parser<'_>) {
    let m = p.start();
    p.with_newlines(true, |p| templates::parts(p, EOF, &[]));
    m.complete(p, TEMPLATE_FILE);
}

/// Builds an error at the current token.
fn error_here(p: &Parser<'_>, code: &'static str, message: &str, detail: &str) -> SyntaxError {
    SyntaxError::new(code, message, p.current_range()).with_detail(detail)
}

/// The error for nesting past [`MAX_NESTING`], at the current token.
fn nesting_too_deep_error(p: &Parser<'_>) -> SyntaxError {
    error_here(
        p,
        "nesting-too-deep",
        "Nesting too deep",
        &format!(
            "Blocks, brackets, templates, operators and expressions may nest at most {MAX_NESTING} levels deep; the rest of this part of the file was not parsed."
        ),
    )
}

/// Reports that nesting went past [`MAX_NESTING`] and keeps the rest of the
/// group that starts at the current token flat, in an `ERROR` node.
fn too_deep(p: &mut Parser<'_>) -> CompletedMarker {
    p.error(nesting_too_deep_error(p));
    let m = p.start();
    skip_group(p);
    m.complete(p, ERROR)
}

/// Whether a token opens a group that the matching closer ends, for skipping
/// balanced token runs. Quotes are not counted: what is between two quotes is
/// balanced already, the lexer sees to that.
fn opens_group(kind: crate::SyntaxKind) -> bool {
    matches!(kind, L_CURLY | L_BRACK | L_PAREN | DOLLAR_L_CURLY | PERCENT_L_CURLY | HEREDOC_START)
}

fn closes_group(kind: crate::SyntaxKind) -> bool {
    matches!(kind, R_CURLY | R_BRACK | R_PAREN | HEREDOC_END)
}

/// Consumes the current token and, if it opens a group, everything up to and
/// including its closer (or to the end of the file).
fn skip_group(p: &mut Parser<'_>) {
    let mut depth = 0u32;
    loop {
        let kind = p.current();
        if kind == EOF {
            return;
        }
        p.bump_any();
        if opens_group(kind) {
            depth += 1;
        } else if closes_group(kind) {
            depth = depth.saturating_sub(1);
        }
        if depth == 0 {
            return;
        }
    }
}

/// Skips to the end of the line, counting brackets so that a bracketed group
/// spanning lines is skipped whole. Stops before a newline or before a `}`
/// that closes the enclosing block, so the caller can resume there.
fn skip_to_line_end(p: &mut Parser<'_>) {
    p.with_newlines(true, |p| {
        loop {
            let kind = p.current();
            if matches!(kind, EOF | NEWLINE | R_CURLY) {
                return;
            }
            if opens_group(kind) {
                p.with_newlines(false, skip_group);
            } else {
                p.bump_any();
            }
        }
    })
}

/// Skips to the closer of the group the parser is inside (`closer`), which it
/// consumes, counting nested groups on the way. Gives up before a `}` that
/// closes an enclosing group instead, and at the end of the file.
fn skip_to_closer(p: &mut Parser<'_>, closer: crate::SyntaxKind) -> bool {
    loop {
        let kind = p.current();
        if kind == closer {
            p.bump_any();
            return true;
        }
        if kind == EOF || (closes_group(kind) && kind != closer) {
            return false;
        }
        if opens_group(kind) {
            skip_group(p);
        } else {
            p.bump_any();
        }
    }
}
