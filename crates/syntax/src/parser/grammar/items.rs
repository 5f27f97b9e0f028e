//! Bodies: attributes, blocks and one-line blocks.

use super::{
    error_here, expressions::expr, skip_group, skip_to_closer, skip_to_line_end, templates, too_deep,
};
use crate::{
    SyntaxError,
    SyntaxKind::*,
    T,
    parser::{Marker, Parser},
};

pub(crate) fn source_file(p: &mut Parser<'_>) {
    let m = p.start();
    let body_m = p.start();
    body(p, None);
    body_m.complete(p, BODY);
    m.complete(p, SOURCE_FILE);
}

/// The items of a body, up to its closing brace (`open_brace` is the range of
/// the opening one) or, at the top level, the end of the file. The closing
/// brace is left for the caller.
fn body(p: &mut Parser<'_>, open_brace: Option<crate::TextRange>) {
    p.in_body(|p| body_items(p, open_brace));
}

fn body_items(p: &mut Parser<'_>, open_brace: Option<crate::TextRange>) {
    loop {
        match p.current() {
            NEWLINE => p.bump(NEWLINE),
            EOF => {
                if let Some(open) = open_brace {
                    p.error(
                        SyntaxError::new("unclosed-block", "Unclosed configuration block", open).with_detail(
                            "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
                        ),
                    );
                }
                return;
            }
            R_CURLY if open_brace.is_some() => return,
            IDENT => body_item(p),
            QUOTE => {
                p.error(error_here(
                    p,
                    "quoted-argument-name",
                    "Invalid argument name",
                    "Argument names must not be quoted.",
                ));
                let m = p.start();
                skip_to_line_end(p);
                m.complete(p, ERROR);
            }
            _ => {
                p.error(error_here(
                    p,
                    "unexpected-token",
                    "Argument or block definition required",
                    "An argument or block definition is required here.",
                ));
                let m = p.start();
                // A stray `}` at the top level: `skip_to_line_end` stops
                // before a brace, so consume it here and go on with the line.
                p.eat(R_CURLY);
                skip_to_line_end(p);
                m.complete(p, ERROR);
            }
        }
    }
}

fn body_item(p: &mut Parser<'_>) {
    match p.nth(1) {
        T![=] => attribute(p, false),
        QUOTE | L_CURLY | IDENT => block(p),
        _ => {
            let m = p.start();
            p.error(SyntaxError::new(
                "expected-definition",
                "Argument or block definition required",
                p.current_range(),
            ).with_detail(
                "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value.",
            ));
            p.bump(IDENT);
            skip_to_line_end(p);
            p.eat(NEWLINE);
            m.complete(p, ERROR);
        }
    }
}

/// `name = expr`, and the newline that ends it unless it is the single
/// argument of a one-line block.
fn attribute(p: &mut Parser<'_>, single_line: bool) {
    let m = p.start();
    p.record_attribute_name();
    p.bump(IDENT);
    p.bump(T![=]);
    let errors_before = p.error_count();
    expr(p);
    let expr_failed = p.error_count() > errors_before;
    if !single_line {
        match p.current() {
            NEWLINE => p.bump(NEWLINE),
            EOF => {}
            // A `}` right after the value ends the enclosing block: the
            // attribute lacks its newline, but the block is fine.
            R_CURLY if expr_failed => {}
            kind => {
                if !expr_failed {
                    let (message, detail) = if kind == T![,] {
                        (
                            "Unexpected comma after argument",
                            "Argument definitions must be separated by newlines, not commas. An argument definition must end with a newline.",
                        )
                    } else {
                        ("Missing newline after argument", "An argument definition must end with a newline.")
                    };
                    p.error(error_here(p, "missing-newline", message, detail));
                }
                recover_rest_of_line(p);
            }
        }
    }
    m.complete(p, ATTRIBUTE);
}

/// Wraps the rest of a broken line in an `ERROR` node and consumes the
/// newline after it.
fn recover_rest_of_line(p: &mut Parser<'_>) {
    let err = p.start();
    skip_to_line_end(p);
    err.complete(p, ERROR);
    p.eat(NEWLINE);
}

fn block(p: &mut Parser<'_>) {
    let m = p.start();
    if !p.enter_nesting() {
        too_deep_block(p, m);
        return;
    }
    block_inner(p, m);
    p.leave_nesting();
}

fn too_deep_block(p: &mut Parser<'_>, m: Marker) {
    // Keep the header, then the body flat.
    p.bump(IDENT);
    while !matches!(p.current(), L_CURLY | NEWLINE | EOF | R_CURLY) {
        if p.at(QUOTE) {
            // A label: the quotes and what is between them.
            p.bump(QUOTE);
            while !matches!(p.current(), QUOTE | EOF | NEWLINE) {
                skip_group(p);
            }
            p.eat(QUOTE);
        } else {
            p.bump_any();
        }
    }
    if p.at(L_CURLY) {
        too_deep(p);
    }
    p.eat(NEWLINE);
    m.complete(p, BLOCK);
}

fn block_inner(p: &mut Parser<'_>, m: Marker) {
    p.bump(IDENT);
    loop {
        match p.current() {
            IDENT => {
                let label = p.start();
                p.bump(IDENT);
                label.complete(p, BLOCK_LABEL);
            }
            QUOTE => {
                let label = p.start();
                let first_token = p.token_pos();
                templates::quoted_template(p);
                label_is_literal(p, first_token);
                label.complete(p, BLOCK_LABEL);
            }
            L_CURLY => break,
            kind => {
                let detail = match kind {
                    T![=] => {
                        "The equals sign \"=\" indicates an argument definition, and must not be used when defining a block."
                    }
                    NEWLINE => {
                        "A block definition must have block content delimited by \"{\" and \"}\", starting on the same line as the block header."
                    }
                    _ => "Either a quoted string block label or an opening brace (\"{\") is expected here.",
                };
                p.error(error_here(p, "invalid-block-header", "Invalid block definition", detail));
                recover_rest_of_line(p);
                m.complete(p, BLOCK);
                return;
            }
        }
    }
    let open_brace = p.current_range();
    p.bump(L_CURLY);
    match p.current() {
        NEWLINE | EOF | R_CURLY => {
            let body_m = p.start();
            body(p, Some(open_brace));
            body_m.complete(p, BODY);
            if !p.eat(R_CURLY) {
                // `body` reported the missing brace at the end of the file.
                m.complete(p, BLOCK);
                return;
            }
        }
        _ => {
            if !one_line_body(p, open_brace) {
                m.complete(p, BLOCK);
                return;
            }
        }
    }
    match p.current() {
        NEWLINE => p.bump(NEWLINE),
        EOF => {}
        // Anything else, even the closing brace of the enclosing block,
        // needs a newline before it: the reference requires one.
        _ => {
            p.error(error_here(
                p,
                "missing-newline",
                "Missing newline after block definition",
                "A block definition must end with a newline.",
            ));
            recover_rest_of_line(p);
        }
    }
    m.complete(p, BLOCK);
}

/// The body of a one-line block, `label { name = value }`, after its `{`:
/// exactly one attribute, then the closing brace on the same line. Returns
/// whether the closing brace was found.
fn one_line_body(p: &mut Parser<'_>, open_brace: crate::TextRange) -> bool {
    let body_m = p.start();
    if p.at(IDENT) && p.nth(1) == T![=] {
        p.in_body(|p| attribute(p, true));
    } else if p.at(IDENT) && matches!(p.nth(1), QUOTE | L_CURLY | IDENT) {
        let name = p.nth_text(0).to_owned();
        let range = p.current_range().cover(p.nth_range(1));
        p.error(SyntaxError::new("one-line-block", "Argument definition required", range).with_detail(format!(
            "A single-line block definition can contain only a single argument. If you meant to define argument \"{name}\", use an equals sign to assign it a value. To define a nested block, place it on a line of its own within its parent block."
        )));
        let err = p.start();
        skip_to_closer_on_line(p);
        err.complete(p, ERROR);
    } else {
        let detail = if p.at(IDENT) {
            "An argument or block definition is required here. To set an argument, use the equals sign \"=\" to introduce the argument value."
        } else {
            "An argument or block definition is required here."
        };
        p.error(error_here(p, "expected-definition", "Argument or block definition required", detail));
        let err = p.start();
        skip_to_closer_on_line(p);
        err.complete(p, ERROR);
    }
    body_m.complete(p, BODY);
    match p.current() {
        R_CURLY => {
            p.bump(R_CURLY);
            true
        }
        EOF => {
            p.error(SyntaxError::new("unclosed-block", "Unclosed configuration block", open_brace).with_detail(
                "There is no closing brace for this block before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
            ));
            false
        }
        kind => {
            let detail = match kind {
                T![,] => {
                    "Single-line block syntax can include only one argument definition. To define multiple arguments, use the multi-line block syntax with one argument definition per line."
                }
                NEWLINE => {
                    "An argument definition on the same line as its containing block creates a single-line block definition, which must also be closed on the same line. Place the block's closing brace immediately after the argument definition."
                }
                _ => {
                    "A single-line block definition must end with a closing brace immediately after its single argument definition."
                }
            };
            p.error(error_here(p, "one-line-block", "Invalid single-argument block definition", detail));
            let err = p.start();
            let closed = p.with_newlines(false, |p| skip_to_closer(p, R_CURLY));
            err.complete(p, ERROR);
            closed
        }
    }
}

/// A block label is a plain string: reports each template sequence at the
/// top level of the quoted label that starts at token `first_token`.
fn label_is_literal(p: &mut Parser<'_>, first_token: usize) {
    let mut depth = 0u32;
    let mut errors = Vec::new();
    for (kind, range) in p.tokens_since(first_token) {
        match kind {
            DOLLAR_L_CURLY | PERCENT_L_CURLY => {
                if depth == 0 {
                    let which = if kind == DOLLAR_L_CURLY { "$" } else { "%" };
                    errors.push(SyntaxError::new("template-in-label", "Invalid string literal", range).with_detail(
                        format!(
                            "Template sequences are not allowed in this string. To include a literal \"{which}\", double it (as \"{which}{which}\") to escape it."
                        ),
                    ));
                }
                depth += 1;
            }
            L_CURLY => depth += 1,
            R_CURLY => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    for error in errors {
        p.error(error);
    }
}

/// Skips to the `}` that closes a one-line block, without consuming it and
/// without leaving the line.
fn skip_to_closer_on_line(p: &mut Parser<'_>) {
    loop {
        match p.current() {
            R_CURLY | NEWLINE | EOF => return,
            _ => skip_group(p),
        }
    }
}
