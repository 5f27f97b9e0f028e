//! Templates: quoted strings and heredocs, with interpolations (`${ … }`)
//! and the `if` and `for` directives (`%{ … }`), which nest.
//!
//! The lexer has already split template text from the expressions inside
//! it, so here a template is a sequence of literal runs, interpolations and
//! directives; directives are matched up into `TemplateIf` and `TemplateFor`
//! nodes with their bodies as `Template` nodes.

use super::{error_here, expressions::expr, skip_to_closer};
use crate::{
    SyntaxError,
    SyntaxKind::{self, *},
    T, TextRange,
    parser::{CompletedMarker, Parser},
};

pub(super) fn quoted_template(p: &mut Parser<'_>) -> CompletedMarker {
    delimited(p, QUOTE, QUOTE, QUOTED_TEMPLATE)
}

pub(super) fn heredoc(p: &mut Parser<'_>) -> CompletedMarker {
    delimited(p, HEREDOC_START, HEREDOC_END, HEREDOC)
}

fn delimited(p: &mut Parser<'_>, open: SyntaxKind, close: SyntaxKind, kind: SyntaxKind) -> CompletedMarker {
    let m = p.start();
    p.bump(open);
    // Inside a template, newlines are part of the literal text; an
    // interpolation sets its own mode.
    p.with_newlines(true, |p| {
        parts(p, close, &[]);
        if !p.eat(close) && p.at(EOF) {
            unterminated(p);
        }
    });
    m.complete(p, kind)
}

/// Reports a template that runs to the end of the file, once: templates
/// nested in it that also reached the end add nothing.
fn unterminated(p: &mut Parser<'_>) {
    let at_end = p.current_range();
    if p.last_error().is_some_and(|error| error.code == "unterminated-template" && error.range == at_end) {
        return;
    }
    p.error(
        SyntaxError::new("unterminated-template", "Unterminated template string", at_end)
            .with_detail("No closing marker was found for the string."),
    );
}

/// Parses template parts up to the template's closer, the end of the file,
/// or a directive whose keyword is in `stop_at` (which the caller handles).
pub(super) fn parts(p: &mut Parser<'_>, close: SyntaxKind, stop_at: &[&str]) {
    loop {
        match p.current() {
            TEMPLATE_TEXT => {
                let m = p.start();
                while p.at(TEMPLATE_TEXT) {
                    p.bump(TEMPLATE_TEXT);
                }
                m.complete(p, TEMPLATE_LITERAL);
            }
            DOLLAR_L_CURLY => interpolation(p, close),
            PERCENT_L_CURLY => {
                let keyword = directive_keyword(p);
                if stop_at.contains(&keyword) {
                    return;
                }
                match keyword {
                    "if" => template_if(p, close),
                    "for" => template_for(p, close),
                    "else" | "endif" | "endfor" => {
                        p.error(
                            SyntaxError::new(
                                "unbalanced-directive",
                                format!("Unexpected {keyword} directive"),
                                p.current_range(),
                            )
                            .with_detail("The control directives within this template are unbalanced."),
                        );
                        bad_directive(p);
                    }
                    _ => {
                        let kw_pos = if p.nth(1) == T![~] { 2 } else { 1 };
                        let (range, word) =
                            p.with_newlines(false, |p| (p.nth_range(kw_pos), p.nth_text(kw_pos)));
                        if keyword.is_empty() && p.with_newlines(false, |p| p.nth(kw_pos)) != IDENT {
                            p.error(SyntaxError::new(
                                "invalid-directive",
                                "Invalid template directive",
                                range,
                            ).with_detail(
                                "A template directive keyword (\"if\", \"for\", etc) is expected at the beginning of a %{ sequence.",
                            ));
                        } else {
                            p.error(
                                SyntaxError::new(
                                    "invalid-directive",
                                    "Invalid template control keyword",
                                    range,
                                )
                                .with_detail(format!("\"{word}\" is not a valid template control keyword.")),
                            );
                        }
                        bad_directive(p);
                    }
                }
            }
            kind if kind == close || kind == EOF => return,
            _ => {
                // The lexer gives nothing else inside a template; should it,
                // keep the token and move on.
                let m = p.start();
                p.bump_any();
                m.complete(p, ERROR);
            }
        }
    }
}

/// The keyword of the directive at the current `%{`, or "" if there is none
/// (nor a `%{`: after a template's closing quote, `"endif` is no directive).
fn directive_keyword<'t>(p: &mut Parser<'t>) -> &'t str {
    if !p.at(PERCENT_L_CURLY) {
        return "";
    }
    p.with_newlines(false, |p| {
        let kw_pos = if p.nth(1) == T![~] { 2 } else { 1 };
        let word = p.nth_text(kw_pos);
        if p.nth(kw_pos) == IDENT {
            match word {
                "if" | "for" | "else" | "endif" | "endfor" => word,
                _ => "?",
            }
        } else {
            ""
        }
    })
}

/// Consumes a directive that does not fit where it is, as an `ERROR` node.
fn bad_directive(p: &mut Parser<'_>) {
    let m = p.start();
    p.bump(PERCENT_L_CURLY);
    p.with_newlines(false, |p| skip_to_closer(p, R_CURLY));
    m.complete(p, ERROR);
}

fn interpolation(p: &mut Parser<'_>, close: SyntaxKind) {
    let m = p.start();
    let open_range = p.current_range();
    p.bump(DOLLAR_L_CURLY);
    p.with_newlines(false, |p| {
        p.eat(T![~]);
        let errors_before = p.error_count();
        expr(p);
        p.eat(T![~]);
        if p.eat(R_CURLY) {
            return;
        }
        if p.error_count() == errors_before {
            let error = match p.current() {
                EOF => SyntaxError::new("unclosed-interpolation", "Unclosed template interpolation sequence", open_range)
                    .with_detail("There is no closing brace for this interpolation sequence before the end of the file. This might be caused by incorrect nesting inside the given expression."),
                T![:] => error_here(
                    p,
                    "extra-characters",
                    "Extra characters after interpolation expression",
                    "Template interpolation doesn't expect a colon at this location. Did you intend this to be a literal sequence to be processed as part of another language? If so, you can escape it by starting with \"$${\" instead of just \"${\".",
                ),
                QUOTE if close == QUOTE => SyntaxError::new("unclosed-interpolation", "Unclosed template interpolation sequence", open_range)
                    .with_detail("There is no closing brace for this interpolation sequence before the end of the quoted template. This might be caused by incorrect nesting inside the given expression."),
                _ => error_here(
                    p,
                    "extra-characters",
                    "Extra characters after interpolation expression",
                    "Expected a closing brace to end the interpolation expression, but found extra characters.\n\nThis can happen when you include interpolation syntax for another language, such as shell scripting, but forget to escape the interpolation start token. If this is an embedded sequence for another language, escape it by starting with \"$${\" instead of just \"${\".",
                ),
            };
            p.error(error);
        }
        skip_to_closer(p, R_CURLY);
    });
    m.complete(p, TEMPLATE_INTERPOLATION);
}

/// One directive, `%{ keyword … }`, as a node of `kind`; `inner` parses what
/// follows the keyword and returns `false` when it reported an error.
fn directive(p: &mut Parser<'_>, kind: SyntaxKind, inner: impl FnOnce(&mut Parser<'_>) -> bool) -> TextRange {
    let m = p.start();
    let start = p.current_range();
    p.bump(PERCENT_L_CURLY);
    p.with_newlines(false, |p| {
        p.eat(T![~]);
        let keyword = p.nth_text(0);
        p.bump(IDENT);
        let errors_before = p.error_count();
        let ok = inner(p);
        p.eat(T![~]);
        if p.eat(R_CURLY) {
            return;
        }
        if ok && p.error_count() == errors_before {
            p.error(error_here(
                p,
                "extra-characters",
                &format!("Extra characters in {keyword} marker"),
                "Expected a closing brace to end the sequence, but found extra characters.",
            ));
        }
        skip_to_closer(p, R_CURLY);
    });
    m.complete(p, kind);
    start.cover(p.prev_range())
}

fn template_body(p: &mut Parser<'_>, close: SyntaxKind, stop_at: &[&str]) {
    let m = p.start();
    parts(p, close, stop_at);
    m.complete(p, TEMPLATE);
}

fn template_if(p: &mut Parser<'_>, close: SyntaxKind) {
    directive_block(p, TEMPLATE_IF, ("if", "endif"), ENDIF_DIRECTIVE, |p| {
        let if_range = directive(p, IF_DIRECTIVE, |p| expr(p).is_some());
        template_body(p, close, &["else", "endif"]);
        if directive_keyword(p) == "else" {
            directive(p, ELSE_DIRECTIVE, |_| true);
            template_body(p, close, &["endif"]);
        }
        if_range
    });
}

fn template_for(p: &mut Parser<'_>, close: SyntaxKind) {
    directive_block(p, TEMPLATE_FOR, ("for", "endfor"), ENDFOR_DIRECTIVE, |p| {
        let for_range = directive(p, FOR_DIRECTIVE, |p| {
            let invalid = |p: &mut Parser<'_>, detail: &str| {
                p.error(error_here(p, "invalid-for", "Invalid 'for' directive", detail));
                false
            };
            if !p.eat(IDENT) {
                return invalid(p, "For directive requires variable name after 'for'.");
            }
            if p.eat(T![,]) && !p.eat(IDENT) {
                return invalid(p, "For directive requires value variable name after comma.");
            }
            if !p.at_word("in") {
                return invalid(p, "For directive requires 'in' keyword after names.");
            }
            p.bump(IDENT);
            expr(p).is_some()
        });
        template_body(p, close, &["endfor"]);
        for_range
    });
}

/// A directive and its matching end directive, `%{ if … }…%{ endif }` or
/// `%{ for … }…%{ endfor }`, as a node of `kind`. `opening` parses the
/// opening directive and everything up to the end directive, and returns
/// the opening directive's range, for the message when the end is missing.
fn directive_block(
    p: &mut Parser<'_>,
    kind: SyntaxKind,
    (keyword, end_keyword): (&str, &str),
    end_kind: SyntaxKind,
    opening: impl FnOnce(&mut Parser<'_>) -> TextRange,
) {
    let m = p.start();
    if !p.enter_nesting() {
        super::too_deep(p);
        m.complete(p, kind);
        return;
    }
    let opening_range = opening(p);
    if directive_keyword(p) == end_keyword {
        directive(p, end_kind, |_| true);
    } else {
        p.error(
            SyntaxError::new("unbalanced-directive", "Unexpected end of template", p.current_range())
                .with_detail(format!(
                    "The {keyword} directive at {} is missing its corresponding {end_keyword} directive.",
                    describe(p, opening_range)
                )),
        );
    }
    p.leave_nesting();
    m.complete(p, kind);
}

/// Where `range` starts, for messages that refer to another place.
fn describe(p: &Parser<'_>, range: TextRange) -> String {
    p.line_column(range.start())
}
