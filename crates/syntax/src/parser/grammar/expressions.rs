//! Expressions, with the precedence of the specification: the conditional
//! operator lowest, then `||`, `&&`, equality, comparison, `+ -`, `* / %`,
//! then unary `- !`, then accessors and splats.

use super::{error_here, nesting_too_deep_error, skip_group, skip_to_closer, templates, too_deep};
use crate::{
    SyntaxError,
    SyntaxKind::{self, *},
    T,
    parser::{CompletedMarker, MAX_CHAIN, Marker, Parser},
};

/// How tightly a binary operator binds, loosest first; `None` for a token
/// that is not a binary operator. All binary operators are left-associative.
fn binding_power(kind: SyntaxKind) -> Option<u8> {
    Some(match kind {
        T![||] => 1,
        T![&&] => 2,
        T![==] | T![!=] => 3,
        T![<] | T![<=] | T![>] | T![>=] => 4,
        T![+] | T![-] => 5,
        T![*] | T![/] | T![%] => 6,
        _ => return None,
    })
}

/// Parses one expression. On a token that cannot start one, reports it and
/// returns `None` without consuming anything, leaving recovery to the caller.
pub(super) fn expr(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    if !p.enter_nesting() {
        return Some(too_deep(p));
    }
    let result = conditional(p);
    p.leave_nesting();
    result
}

/// Parses one expression and says whether it went without errors; callers
/// recover from a broken one rather than pile errors on top of it.
pub(super) fn clean_expr(p: &mut Parser<'_>) -> bool {
    let errors_before = p.error_count();
    expr(p).is_some() && p.error_count() == errors_before
}

/// An expression, then `closer`; without the closer, reports `message` (unless
/// the expression already reported something) and skips to it.
fn expr_then_closer(
    p: &mut Parser<'_>,
    closer: SyntaxKind,
    (code, message, detail): (&'static str, &str, &str),
) {
    let clean = clean_expr(p);
    if !p.eat(closer) {
        if clean {
            p.error(error_here(p, code, message, detail));
        }
        skip_to_closer(p, closer);
    }
}

fn conditional(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let errors_before = p.error_count();
    let cond = binary(p, 1)?;
    if !p.at(T![?]) || p.error_count() > errors_before {
        return Some(cond);
    }
    let m = cond.precede(p);
    p.bump(T![?]);
    // A broken true branch has said what is wrong; the reference stops
    // there rather than also ask for the colon.
    if clean_expr(p) {
        if p.at(T![:]) {
            p.bump(T![:]);
            expr(p);
        } else {
            p.error(error_here(
                p,
                "missing-conditional-false",
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon.",
            ));
        }
    }
    Some(m.complete(p, CONDITIONAL_EXPR))
}

/// Operators binding at least as tightly as `min_power`, by precedence
/// climbing: one loop per level actually used, not a call per level.
fn binary(p: &mut Parser<'_>, min_power: u8) -> Option<CompletedMarker> {
    let mut lhs = postfix_expr(p)?;
    let mut links = 0;
    while let Some(power) = binding_power(p.current()).filter(|&power| power >= min_power) {
        links += 1;
        if links > MAX_CHAIN {
            return Some(chain_too_long(p, lhs));
        }
        let m = lhs.precede(p);
        p.bump_any();
        // Left-associative: the right operand takes only tighter operators.
        binary(p, power + 1);
        lhs = m.complete(p, BINARY_EXPR);
    }
    Some(lhs)
}

/// Reports a chain of operators or accessors longer than [`MAX_CHAIN`] and
/// keeps the rest of the expression flat, in an `ERROR` node after `lhs`.
fn chain_too_long(p: &mut Parser<'_>, lhs: CompletedMarker) -> CompletedMarker {
    p.error(error_here(
        p,
        "expression-too-long",
        "Expression too long",
        &format!(
            "A chain of more than {MAX_CHAIN} operators or accessors cannot be parsed; the rest of this expression was skipped."
        ),
    ));
    let m = lhs.precede(p);
    while !matches!(p.current(), EOF | NEWLINE | T![,] | R_CURLY | R_BRACK | R_PAREN) {
        skip_group(p);
    }
    m.complete(p, ERROR)
}

fn postfix_expr(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let mut lhs = term(p)?;
    let mut links = 0;
    // Inside an attribute-only splat (`a.*.b`), another `.*` is an error.
    let mut in_attr_splat = false;
    loop {
        let kind = p.current();
        if !matches!(kind, T![.] | T!['[']) {
            return Some(lhs);
        }
        links += 1;
        if links > MAX_CHAIN {
            return Some(chain_too_long(p, lhs));
        }
        let m = lhs.precede(p);
        if kind == T![.] {
            p.bump(T![.]);
            match p.current() {
                IDENT => {
                    p.bump(IDENT);
                    lhs = m.complete(p, GET_ATTR_EXPR);
                }
                NUMBER => {
                    let text = p.nth_text(0);
                    if let Some((first, second)) = text.split_once('.') {
                        let detail = if in_attr_splat {
                            format!(
                                "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax with a full splat expression [*] instead, like [{first}][{second}]."
                            )
                        } else {
                            format!(
                                "When using the legacy index syntax, chaining two indexes together is not permitted. Use the proper index syntax instead, like [{first}][{second}]."
                            )
                        };
                        p.error(error_here(
                            p,
                            "invalid-legacy-index",
                            "Invalid legacy index syntax",
                            &detail,
                        ));
                    }
                    p.bump(NUMBER);
                    lhs = m.complete(p, LEGACY_INDEX_EXPR);
                }
                T![*] => {
                    if in_attr_splat {
                        p.error(error_here(
                            p,
                            "nested-splat",
                            "Nested splat expression not allowed",
                            "A splat expression (*) cannot be used inside another attribute-only splat expression.",
                        ));
                    }
                    p.bump(T![*]);
                    in_attr_splat = true;
                    lhs = m.complete(p, ATTR_SPLAT_EXPR);
                }
                _ => {
                    p.error(error_here(
                        p,
                        "missing-attribute-name",
                        "Invalid attribute name",
                        "An attribute name is required after a dot.",
                    ));
                    return Some(m.complete(p, GET_ATTR_EXPR));
                }
            }
        } else {
            in_attr_splat = false;
            p.bump(T!['[']);
            if p.at(T![*]) {
                p.bump(T![*]);
                if !p.eat(T![']']) {
                    p.error(error_here(
                        p,
                        "missing-bracket",
                        "Missing close bracket on splat index",
                        "The star for a full splat operator must be immediately followed by a closing bracket (\"]\").",
                    ));
                    p.with_newlines(false, |p| skip_to_closer(p, T![']']));
                }
                lhs = m.complete(p, FULL_SPLAT_EXPR);
            } else {
                p.with_newlines(false, |p| {
                    expr_then_closer(
                        p,
                        T![']'],
                        (
                            "missing-bracket",
                            "Missing close bracket on index",
                            "The index operator must end with a closing bracket (\"]\").",
                        ),
                    )
                });
                lhs = m.complete(p, INDEX_EXPR);
            }
        }
    }
}

fn term(p: &mut Parser<'_>) -> Option<CompletedMarker> {
    let m = match p.current() {
        NUMBER => {
            let m = p.start();
            let start = p.current_range();
            p.bump(NUMBER);
            // The reference reads `1.2.3` or `1e5.3` as one number token and
            // rejects it; the lexer splits such a run, so join it back here.
            // With a space (`1.2 .3`) it is a legacy index, and valid.
            if p.at_adjacent(T![.]) && p.nth(1) == NUMBER && p.nth_range(1).start() == p.current_range().end()
            {
                while p.at_adjacent(T![.])
                    && p.nth(1) == NUMBER
                    && p.nth_range(1).start() == p.current_range().end()
                {
                    p.bump(T![.]);
                    p.bump(NUMBER);
                }
                p.error(
                    SyntaxError::new("invalid-number", "Invalid number literal", start.cover(p.prev_range()))
                        .with_detail("Failed to recognize the value of this number literal."),
                );
            }
            m.complete(p, LITERAL)
        }
        IDENT => {
            if matches!(p.nth(1), T!['('] | T![::]) {
                return Some(function_call(p));
            }
            let kind = if matches!(p.nth_text(0), "true" | "false" | "null") { LITERAL } else { VARIABLE };
            let m = p.start();
            p.bump(IDENT);
            m.complete(p, kind)
        }
        QUOTE => templates::quoted_template(p),
        HEREDOC_START => templates::heredoc(p),
        T![-] | T![!] => {
            // Each operator nests its operand one level deeper, as a
            // bracket does, and a run of them is one token apiece: counted
            // like every other nesting, or `!!!…` would recurse without
            // bound.
            if !p.enter_nesting() {
                return Some(unary_too_deep(p));
            }
            let m = p.start();
            p.bump_any();
            // On a missing operand the error is reported; the operator
            // stays in its node.
            postfix_expr(p);
            p.leave_nesting();
            m.complete(p, UNARY_EXPR)
        }
        T!['('] => paren_expr(p),
        T!['['] => tuple_or_for(p),
        T!['{'] => object_or_for(p),
        EOF => {
            p.error(error_here(
                p,
                "missing-expression",
                "Missing expression",
                "Expected the start of an expression, but found the end of the file.",
            ));
            return None;
        }
        _ => {
            p.error(error_here(
                p,
                "invalid-expression",
                "Invalid expression",
                "Expected the start of an expression, but found an invalid expression token.",
            ));
            return None;
        }
    };
    Some(m)
}

/// Reports unary operators nested past [`crate::parser::MAX_NESTING`] and
/// keeps the rest of the run, with the term it applies to, flat in an
/// `ERROR` node; accessors and operators after the term are parsed as usual.
fn unary_too_deep(p: &mut Parser<'_>) -> CompletedMarker {
    p.error(nesting_too_deep_error(p));
    let m = p.start();
    while matches!(p.current(), T![-] | T![!]) {
        p.bump_any();
    }
    match p.current() {
        NUMBER => p.bump(NUMBER),
        IDENT => {
            // A variable, a keyword literal or a (namespaced) function call
            // with its arguments.
            p.bump(IDENT);
            while p.at(T![::]) && p.nth(1) == IDENT {
                p.bump(T![::]);
                p.bump(IDENT);
            }
            if p.at(T!['(']) {
                skip_group(p);
            }
        }
        QUOTE => {
            // A quoted template: the lexer balances what is inside it.
            p.bump(QUOTE);
            while !matches!(p.current(), QUOTE | EOF) {
                skip_group(p);
            }
            p.eat(QUOTE);
        }
        T!['('] | T!['['] | T!['{'] | HEREDOC_START => skip_group(p),
        // A missing operand: whatever follows belongs to the enclosing
        // construct, which reports it.
        _ => {}
    }
    m.complete(p, ERROR)
}

fn paren_expr(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    p.bump(T!['(']);
    p.with_newlines(false, |p| {
        expr_then_closer(
            p,
            T![')'],
            (
                "unbalanced-parentheses",
                "Unbalanced parentheses",
                "Expected a closing parenthesis to terminate the expression.",
            ),
        )
    });
    m.complete(p, PAREN_EXPR)
}

fn function_call(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let name_range = p.current_range();
    p.bump(IDENT);
    // A namespaced name, `provider::aws::arn_parse`: each `::` must be
    // followed by a name, and the last name by `(`. The reference reports
    // either mistake at the token where the name or parenthesis should be.
    while p.eat(T![::]) {
        if !p.eat(IDENT) {
            p.error(error_here(
                p,
                "missing-function-name",
                "Missing function name",
                "Function scope resolution symbol :: must be followed by a function name in this scope.",
            ));
            return m.complete(p, FUNCTION_CALL);
        }
    }
    if !p.at(T!['(']) {
        p.error(error_here(
            p,
            "missing-parenthesis",
            "Missing open parenthesis",
            "Function selector must be followed by an open parenthesis to begin the function call.",
        ));
        return m.complete(p, FUNCTION_CALL);
    }
    let args = p.start();
    let open_range = p.current_range();
    p.bump(T!['(']);
    p.with_newlines(false, |p| {
        loop {
            if p.eat(T![')']) {
                return;
            }
            if !clean_expr(p) {
                skip_to_closer(p, T![')']);
                return;
            }
            match p.current() {
                T![')'] => {
                    p.bump(T![')']);
                    return;
                }
                T![...] => {
                    p.bump(T![...]);
                    if !p.eat(T![')']) {
                        p.error(SyntaxError::new(
                            "missing-parenthesis",
                            "Missing closing parenthesis",
                            p.prev_range(),
                        ).with_detail(
                            "An expanded function argument (with ...) must be immediately followed by closing parentheses.",
                        ));
                        skip_to_closer(p, T![')']);
                    }
                    return;
                }
                T![,] => p.bump(T![,]),
                EOF => {
                    p.error(SyntaxError::new(
                        "unterminated-call",
                        "Unterminated function call",
                        name_range.cover(open_range),
                    ).with_detail(
                        "There is no closing parenthesis for this function call before the end of the file. This may be caused by incorrect parenthesis nesting elsewhere in this file.",
                    ));
                    return;
                }
                _ => {
                    p.error(error_here(
                        p,
                        "missing-separator",
                        "Missing argument separator",
                        "A comma is required to separate each function argument from the next.",
                    ));
                    skip_to_closer(p, T![')']);
                    return;
                }
            }
        }
    });
    args.complete(p, ARG_LIST);
    m.complete(p, FUNCTION_CALL)
}

fn tuple_or_for(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let open_range = p.current_range();
    p.bump(T!['[']);
    p.with_newlines(false, |p| {
        if p.at_word("for") { for_rest(p, m, false) } else { tuple_rest(p, m, open_range) }
    })
}

fn tuple_rest(p: &mut Parser<'_>, m: Marker, open_range: crate::TextRange) -> CompletedMarker {
    loop {
        if p.eat(T![']']) {
            break;
        }
        if !clean_expr(p) {
            skip_to_closer(p, T![']']);
            break;
        }
        match p.current() {
            T![']'] => {
                p.bump(T![']']);
                break;
            }
            T![,] => p.bump(T![,]),
            EOF => {
                p.error(SyntaxError::new(
                    "unterminated-tuple",
                    "Unterminated tuple constructor expression",
                    open_range,
                ).with_detail(
                    "There is no corresponding closing bracket before the end of the file. This may be caused by incorrect bracket nesting elsewhere in this file.",
                ));
                break;
            }
            _ => {
                p.error(error_here(
                    p,
                    "missing-separator",
                    "Missing item separator",
                    "Expected a comma to mark the beginning of the next item.",
                ));
                skip_to_closer(p, T![']']);
                break;
            }
        }
    }
    m.complete(p, TUPLE_EXPR)
}

fn object_or_for(p: &mut Parser<'_>) -> CompletedMarker {
    let m = p.start();
    let open_range = p.current_range();
    p.bump(T!['{']);
    let is_for = p.with_newlines(false, |p| p.at_word("for"));
    if is_for {
        p.with_newlines(false, |p| for_rest(p, m, true))
    } else {
        p.with_newlines(true, |p| object_rest(p, m, open_range))
    }
}

fn object_rest(p: &mut Parser<'_>, m: Marker, open_range: crate::TextRange) -> CompletedMarker {
    let unterminated = |p: &mut Parser<'_>| {
        p.error(SyntaxError::new(
            "unterminated-object",
            "Unterminated object constructor expression",
            open_range,
        ).with_detail(
            "There is no corresponding closing brace before the end of the file. This may be caused by incorrect brace nesting elsewhere in this file.",
        ));
    };
    loop {
        match p.current() {
            NEWLINE => {
                p.bump(NEWLINE);
                continue;
            }
            R_CURLY => {
                p.bump(R_CURLY);
                break;
            }
            _ => {}
        }
        let item = p.start();
        let key = p.start();
        let key_ok = clean_expr(p);
        key.complete(p, OBJECT_ITEM_KEY);
        if !key_ok {
            item.complete(p, OBJECT_ITEM);
            p.with_newlines(false, |p| skip_to_closer(p, R_CURLY));
            break;
        }
        match p.current() {
            T![=] | T![:] => p.bump_any(),
            kind => {
                match kind {
                    NEWLINE | T![,] => p.error(error_here(
                        p,
                        "missing-value",
                        "Missing attribute value",
                        "Expected an attribute value, introduced by an equals sign (\"=\").",
                    )),
                    IDENT => p.error(error_here(
                        p,
                        "missing-separator",
                        "Missing key/value separator",
                        "Expected an equals sign (\"=\") to mark the beginning of the attribute value. If you intended to given an attribute name containing periods or spaces, write the name in quotes to create a string literal.",
                    )),
                    EOF => unterminated(p),
                    _ => p.error(error_here(
                        p,
                        "missing-separator",
                        "Missing key/value separator",
                        "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
                    )),
                }
                item.complete(p, OBJECT_ITEM);
                p.with_newlines(false, |p| skip_to_closer(p, R_CURLY));
                break;
            }
        }
        let value_ok = clean_expr(p);
        if !value_ok {
            item.complete(p, OBJECT_ITEM);
            p.with_newlines(false, |p| skip_to_closer(p, R_CURLY));
            break;
        }
        match p.current() {
            R_CURLY => {
                item.complete(p, OBJECT_ITEM);
                p.bump(R_CURLY);
                break;
            }
            T![,] | NEWLINE => {
                p.bump_any();
                item.complete(p, OBJECT_ITEM);
            }
            kind => {
                if kind == EOF {
                    unterminated(p);
                } else {
                    p.error(error_here(
                        p,
                        "missing-separator",
                        "Missing attribute separator",
                        "Expected a newline or comma to mark the beginning of the next attribute.",
                    ));
                }
                item.complete(p, OBJECT_ITEM);
                p.with_newlines(false, |p| skip_to_closer(p, R_CURLY));
                break;
            }
        }
    }
    m.complete(p, OBJECT_EXPR)
}

/// The rest of a `for` expression after its opening bracket, which `m`
/// holds: `for k, v in coll : [key =>] value [...] [if cond]` and the closer.
fn for_rest(p: &mut Parser<'_>, m: Marker, object: bool) -> CompletedMarker {
    let closer = if object { R_CURLY } else { T![']'] };
    let kind = if object { FOR_OBJECT_EXPR } else { FOR_TUPLE_EXPR };
    let invalid = |p: &mut Parser<'_>, detail: &str| {
        p.error(error_here(p, "invalid-for", "Invalid 'for' expression", detail));
    };
    let intro = p.start();
    p.bump(IDENT); // `for`
    let ok = 'intro: {
        if !p.eat(IDENT) {
            invalid(p, "For expression requires variable name after 'for'.");
            break 'intro false;
        }
        if p.eat(T![,]) && !p.eat(IDENT) {
            invalid(p, "For expression requires value variable name after comma.");
            break 'intro false;
        }
        if !p.at_word("in") {
            invalid(p, "For expression requires the 'in' keyword after its name declarations.");
            break 'intro false;
        }
        p.bump(IDENT);
        if !clean_expr(p) {
            break 'intro false;
        }
        if !p.eat(T![:]) {
            invalid(p, "For expression requires a colon after the collection expression.");
            break 'intro false;
        }
        true
    };
    intro.complete(p, FOR_INTRO);
    if !ok {
        skip_to_closer(p, closer);
        return m.complete(p, kind);
    }
    let first_start = p.current_range();
    if !clean_expr(p) {
        skip_to_closer(p, closer);
        return m.complete(p, kind);
    }
    let first_range = first_start.cover(p.prev_range());
    let mut key_range = None;
    if p.at(T![=>]) {
        key_range = Some(first_range);
        p.bump(T![=>]);
        if !clean_expr(p) {
            skip_to_closer(p, closer);
            return m.complete(p, kind);
        }
    }
    let mut ellipsis_range = None;
    if p.at(T![...]) {
        ellipsis_range = Some(p.current_range());
        p.bump(T![...]);
    }
    if p.at_word("if") {
        let cond = p.start();
        p.bump(IDENT);
        let cond_ok = clean_expr(p);
        cond.complete(p, FOR_COND);
        if !cond_ok {
            skip_to_closer(p, closer);
            return m.complete(p, kind);
        }
    }
    if !p.eat(closer) {
        invalid(p, "Extra characters after the end of the 'for' expression.");
        skip_to_closer(p, closer);
    }
    if object {
        if key_range.is_none() {
            p.error(
                SyntaxError::new("invalid-for", "Invalid 'for' expression", first_range)
                    .with_detail("Key expression is required when building an object."),
            );
        }
    } else {
        if let Some(range) = key_range {
            p.error(
                SyntaxError::new("invalid-for", "Invalid 'for' expression", range)
                    .with_detail("Key expression is not valid when building a tuple."),
            );
        }
        if let Some(range) = ellipsis_range {
            p.error(
                SyntaxError::new("invalid-for", "Invalid 'for' expression", range)
                    .with_detail("Grouping ellipsis (...) cannot be used when building a tuple."),
            );
        }
    }
    m.complete(p, kind)
}
