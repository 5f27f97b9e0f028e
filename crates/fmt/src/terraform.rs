//! Terraform's rewrites, made before formatting.
//!
//! `terraform fmt` is `hclwrite.Format` after three rewrites of the file
//! (Terraform's `internal/command/fmt.go`), and this module makes them on
//! the lossless tree:
//!
//! - **Interpolation-only values.** An attribute's value that is a quoted
//!   template of one interpolation and nothing else (`"${var.x}"`) becomes
//!   the expression inside, its leading and trailing line breaks dropped,
//!   and put in parentheses when it still spans lines (a line break would
//!   otherwise end the attribute). Only the attribute's own value is looked
//!   at, never a template nested in it; and the reference decides on its
//!   tokens, so a value with another `${` or `%{` outside a nested quoted
//!   string (in a heredoc inside the interpolation, say) stays as it is.
//! - **Type constraints.** In a top-level `variable` block, `type` is not
//!   unwrapped but normalised: the quoted types of Terraform 0.11
//!   (`"string"`, `"list"`, `"map"`) become `string`, `list(string)` and
//!   `map(string)`, and a bare `list`, `map` or `set` becomes `list(any)`
//!   and so on.
//! - **Block labels.** Every block's labels are written quoted, with
//!   `hclwrite`'s escapes (the label's value, NFC-normalised as go-cty makes
//!   every string, escaped anew: `\u0041` becomes `A`, a character Go does
//!   not count as printable becomes `\uNNNN`). A comment between the block
//!   type and its last label goes: the reference's token-level rewrite
//!   drops it.
//!
//! Each rewrite replaces a range of the source with new text and keeps
//! everything else byte for byte, comments included; the caller parses the
//! result again and formats that. The rewrites change tokens on purpose, but
//! not what the file means to Terraform (see `tests/properties.rs`).
//!
//! The pass walks the green tree, plain data, rather than typed nodes: a
//! cursor for every attribute and block cost as much as the layout itself,
//! and the text of a file is built only when a rewrite applies, which on
//! real Terraform files is one in twenty.
//!
//! Two choices differ from the reference, both where it would damage the
//! file (`tests/properties.rs` has a test for each):
//!
//! - Where unwrapping would give a value that does not parse (a multi-line
//!   `(a)\n+ (b)`, whose outer parentheses are not one pair, or a value that
//!   starts with a line comment), the reference writes the broken text;
//!   here the value is put in parentheses if that makes it parse, and left
//!   quoted otherwise, so the formatter never makes a valid file invalid.
//! - The reference drops a quoted label with a `$` or `%` in it (its
//!   scanner cuts the text there into several tokens, and `hclwrite`'s
//!   label reader skips a label of more than one); here the label is kept.

use std::ops::ControlFlow;

use rowan::{GreenNodeData, GreenTokenData, NodeOrToken, TextRange, TextSize};
use syntax::{
    SyntaxKind::{self, *},
    SyntaxNode,
};
use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

type Element<'a> = NodeOrToken<&'a GreenNodeData, &'a GreenTokenData>;

/// The text of the file after Terraform's rewrites, or `None` when none
/// applies and the file is left as it is.
pub(crate) fn rewrite(root: &SyntaxNode) -> Option<String> {
    let green = root.green();
    let (body, body_start) = children_at(&green, root.text_range().start()).find_map(|(child, start)| {
        child.into_node().filter(|node| kind(node) == BODY).map(|node| (node, start))
    })?;
    let mut edits = Vec::new();
    // The labels of a block as they would be written, reused block to block.
    let mut scratch = String::new();
    // Bodies to visit, each with where it is: an explicit stack, since
    // blocks nest as deep as the parser allows.
    let mut bodies = vec![(body, body_start, Place::TopLevel)];
    while let Some((body, start, place)) = bodies.pop() {
        for (child, start) in children_at(body, start) {
            let Some(item) = child.into_node() else { continue };
            match kind(item) {
                ATTRIBUTE => edits.extend(attribute(item, start, place)),
                BLOCK => {
                    edits.extend(labels(item, start, &mut scratch));
                    let is_variable = first_token(item, IDENT).is_some_and(|name| name.text() == "variable");
                    let inner = match place {
                        Place::TopLevel if is_variable => Place::Variable,
                        _ => Place::Nested,
                    };
                    let body = children_at(item, start).find_map(|(child, at)| {
                        child.into_node().filter(|node| kind(node) == BODY).map(|node| (node, at))
                    });
                    if let Some((body, at)) = body {
                        bodies.push((body, at, inner));
                    }
                }
                _ => {}
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|edit| edit.range.start());
    let text = root.text().to_string();
    let base = usize::from(root.text_range().start());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for Edit { range, text: replacement } in edits {
        out.push_str(&text[at..usize::from(range.start()) - base]);
        out.push_str(&replacement);
        at = usize::from(range.end()) - base;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// Where a body is: the file's own, a top-level `variable` block's (whose
/// `type` is a type constraint), or any other block's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    TopLevel,
    Variable,
    Nested,
}

/// A range of the source and the text that replaces it.
struct Edit {
    range: TextRange,
    text: String,
}

fn kind(node: &GreenNodeData) -> SyntaxKind {
    SyntaxKind::from(node.kind().0)
}

fn element_kind(element: Element<'_>) -> SyntaxKind {
    SyntaxKind::from(element.kind().0)
}

/// The children of a node that starts at `start`, each with its own start.
fn children_at(node: &GreenNodeData, start: TextSize) -> impl Iterator<Item = (Element<'_>, TextSize)> {
    let mut offset = start;
    node.children().map(move |child| {
        let at = offset;
        offset += child.text_len();
        (child, at)
    })
}

/// The first token of `kind` among a node's own children.
fn first_token(node: &GreenNodeData, kind: SyntaxKind) -> Option<&GreenTokenData> {
    node.children().filter_map(NodeOrToken::into_token).find(|token| SyntaxKind::from(token.kind().0) == kind)
}

/// A token below a node, with its range and whether a quoted template
/// below that node holds it.
#[derive(Clone, Copy)]
struct Tok<'a> {
    kind: SyntaxKind,
    text: &'a str,
    range: TextRange,
    quoted: bool,
}

/// Calls `visit` with every token below `node` (which starts at `start`),
/// in order, until it breaks. `quoted` is whether `node` itself is inside a
/// quoted template.
fn walk_tokens<'a>(
    node: &'a GreenNodeData,
    start: TextSize,
    quoted: bool,
    visit: &mut impl FnMut(Tok<'a>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let quoted = quoted || kind(node) == QUOTED_TEMPLATE;
    let mut stack = vec![(node.children(), start, quoted)];
    while let Some(top) = stack.last_mut() {
        let Some(child) = top.0.next() else {
            stack.pop();
            continue;
        };
        let (at, quoted) = (top.1, top.2);
        top.1 += child.text_len();
        match child {
            NodeOrToken::Node(node) => {
                stack.push((node.children(), at, quoted || kind(node) == QUOTED_TEMPLATE));
            }
            NodeOrToken::Token(token) => visit(Tok {
                kind: SyntaxKind::from(token.kind().0),
                text: token.text(),
                range: TextRange::at(at, token.text_len()),
                quoted,
            })?,
        }
    }
    ControlFlow::Continue(())
}

/// An attribute's rewrite: its value unwrapped, or in a top-level
/// `variable`, its `type` made explicit.
fn attribute(node: &GreenNodeData, start: TextSize, place: Place) -> Option<Edit> {
    let (value, value_start) =
        children_at(node, start).find_map(|(child, at)| child.into_node().map(|node| (node, at)))?;
    let is_type = first_token(node, IDENT).is_some_and(|name| name.text() == "type");
    if place == Place::Variable && is_type {
        type_constraint(value, value_start)
    } else {
        interpolation_only(value, value_start)
    }
}

/// A token as the reference's scanner would cut it, for the rewrites that
/// decide on tokens: a `#` or `//` comment owns the line break right after
/// it, so that line break is not a newline token of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lexeme {
    Newline,
    Comment,
    OpenParen,
    CloseParen,
    Other,
}

/// The reference's tokens among `tokens` (whitespace dropped), with their
/// ranges.
fn lexemes(tokens: &[Tok<'_>]) -> Vec<(Lexeme, TextRange)> {
    let mut out: Vec<(Lexeme, TextRange)> = Vec::with_capacity(tokens.len());
    let mut after_line_comment = false;
    for token in tokens {
        let line_comment = std::mem::replace(&mut after_line_comment, false);
        let lexeme = match token.kind {
            WHITESPACE => continue,
            NEWLINE if line_comment => {
                if let Some(last) = out.last_mut() {
                    last.1 = last.1.cover(token.range);
                }
                continue;
            }
            NEWLINE => Lexeme::Newline,
            COMMENT => {
                after_line_comment = token.text.starts_with('#') || token.text.starts_with("//");
                Lexeme::Comment
            }
            L_PAREN => Lexeme::OpenParen,
            R_PAREN => Lexeme::CloseParen,
            _ => Lexeme::Other,
        };
        out.push((lexeme, token.range));
    }
    out
}

/// `"${expr}"` as an attribute's value: `expr`.
fn interpolation_only(value: &GreenNodeData, start: TextSize) -> Option<Edit> {
    if kind(value) != QUOTED_TEMPLATE {
        return None;
    }
    // One part, an interpolation: no literal text, no directive.
    let mut parts =
        children_at(value, start).filter_map(|(child, at)| child.into_node().map(|node| (node, at)));
    let (interpolation, interpolation_start) =
        parts.next().filter(|(node, _)| kind(node) == TEMPLATE_INTERPOLATION)?;
    if parts.next().is_some() {
        return None;
    }
    // The tokens between `${` (with its `~`) and `}` (with its `~`): the
    // delimiters are the interpolation's own tokens, the expression a node
    // below it; line breaks and comments around the expression are its
    // own tokens too. Another template sequence outside a nested quoted
    // string (in a heredoc inside the interpolation) makes the reference
    // leave the value alone.
    let mut inside: Vec<Tok<'_>> = Vec::new();
    for (child, at) in children_at(interpolation, interpolation_start) {
        let flow = match child {
            NodeOrToken::Node(node) => walk_tokens(node, at, false, &mut |token| {
                if !token.quoted && matches!(token.kind, DOLLAR_L_CURLY | PERCENT_L_CURLY) {
                    return ControlFlow::Break(());
                }
                inside.push(token);
                ControlFlow::Continue(())
            }),
            NodeOrToken::Token(token) => {
                let token_kind = SyntaxKind::from(token.kind().0);
                if token_kind.is_trivia() || token_kind == NEWLINE {
                    inside.push(Tok {
                        kind: token_kind,
                        text: token.text(),
                        range: TextRange::at(at, token.text_len()),
                        quoted: false,
                    });
                }
                ControlFlow::Continue(())
            }
        };
        if flow.is_break() {
            return None;
        }
    }
    let lexemes = lexemes(&inside);
    let first = lexemes.iter().position(|(lexeme, _)| *lexeme != Lexeme::Newline)?;
    let last = lexemes.iter().rposition(|(lexeme, _)| *lexeme != Lexeme::Newline)?;
    let kept = &lexemes[first..=last];
    let range = kept[0].1.cover(kept[kept.len() - 1].1);
    let inner: String =
        inside.iter().filter(|token| range.contains_range(token.range)).map(|token| token.text).collect();

    let multi_line = kept.iter().any(|(lexeme, _)| *lexeme == Lexeme::Newline);
    let parenthesised = kept[0].0 == Lexeme::OpenParen && kept[kept.len() - 1].0 == Lexeme::CloseParen;
    let text = if multi_line && !parenthesised { format!("({inner})") } else { inner };
    let risky = text.contains('\n') || kept.iter().any(|(lexeme, _)| *lexeme == Lexeme::Comment);
    let text = if !risky || parses_as_value(&text) {
        text
    } else {
        let wrapped = format!("({text})");
        if !parses_as_value(&wrapped) {
            return None;
        }
        wrapped
    };
    Some(Edit { range: TextRange::at(start, value.text_len()), text })
}

/// Whether `text` parses as an attribute's value, alone on its line.
fn parses_as_value(text: &str) -> bool {
    let parse = syntax::parse(&format!("a = {text}\n"));
    parse.errors().is_empty()
        && parse
            .syntax_node()
            .children()
            .find(|node| node.kind() == BODY)
            .is_some_and(|body| body.children().count() == 1)
}

/// A top-level `variable` block's `type`: Terraform 0.11's quoted types and
/// the bare collection types made explicit.
fn type_constraint(value: &GreenNodeData, start: TextSize) -> Option<Edit> {
    // The reference looks at the value's tokens: one identifier, or an
    // opening quote, literal text and a closing quote. Whitespace is not a
    // token; comments and line breaks inside the value are.
    let mut significant: Vec<Tok<'_>> = Vec::with_capacity(4);
    let flow = walk_tokens(value, start, false, &mut |token| {
        if token.kind == WHITESPACE {
            return ControlFlow::Continue(());
        }
        significant.push(token);
        if significant.len() > 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    });
    if flow.is_break() {
        return None;
    }
    let text = match significant.as_slice() {
        [ident] if ident.kind == IDENT => match ident.text {
            name @ ("list" | "map" | "set") => format!("{name}(any)"),
            _ => return None,
        },
        [open, literal, close]
            if open.kind == QUOTE && literal.kind == TEMPLATE_TEXT && close.kind == QUOTE =>
        {
            match literal.text {
                "string" => "string".to_owned(),
                name @ ("list" | "map") => format!("{name}(string)"),
                _ => return None,
            }
        }
        _ => return None,
    };
    let range = significant[0].range.cover(significant[significant.len() - 1].range);
    Some(Edit { range, text })
}

/// A block's labels written in their quoted form, and any comment between
/// the block type and the last label dropped.
fn labels(block: &GreenNodeData, start: TextSize, written: &mut String) -> Option<Edit> {
    written.clear();
    let mut type_end = None;
    let mut last_label_end = None;
    let mut comment = false;
    let mut changed = false;
    for (child, at) in children_at(block, start) {
        match (element_kind(child), child) {
            (IDENT, NodeOrToken::Token(token)) if type_end.is_none() => {
                type_end = Some(at + token.text_len())
            }
            (COMMENT, _) if type_end.is_some() => comment = true,
            (BLOCK_LABEL, NodeOrToken::Node(label)) => {
                written.push(' ');
                changed |= write_label(label, written)?;
                last_label_end = Some(at + label.text_len());
                // A comment after the last label stays: only those before
                // one count.
                if comment {
                    changed = true;
                }
            }
            (L_CURLY | BODY, _) => break,
            _ => {}
        }
    }
    let range = TextRange::new(type_end?, last_label_end?);
    changed.then(|| Edit { range, text: written.clone() })
}

/// Writes a label in its quoted form and says whether that differs from how
/// it is written. `None` for a label with a template sequence, which only a
/// broken file has.
fn write_label(label: &GreenNodeData, out: &mut String) -> Option<bool> {
    let element = label.children().find(|child| !matches!(element_kind(*child), WHITESPACE | COMMENT))?;
    let template = match element {
        NodeOrToken::Token(ident) => {
            out.push_str(&quote_label(ident.text()));
            return Some(true);
        }
        NodeOrToken::Node(template) => template,
    };
    let mut texts = Vec::with_capacity(1);
    for part in template.children() {
        match part {
            NodeOrToken::Token(_) => {}
            NodeOrToken::Node(literal) if kind(literal) == TEMPLATE_LITERAL => {
                texts
                    .extend(literal.children().filter_map(NodeOrToken::into_token).map(GreenTokenData::text));
            }
            NodeOrToken::Node(_) => return None,
        }
    }
    // Plain text is already as `hclwrite` would write it.
    let plain = |text: &str| {
        text.bytes().all(|byte| (0x20..0x7f).contains(&byte) && !matches!(byte, b'\\' | b'"' | b'$' | b'%'))
    };
    if texts.iter().all(|text| plain(text)) {
        out.push('"');
        texts.iter().for_each(|text| out.push_str(text));
        out.push('"');
        return Some(false);
    }
    let raw = texts.concat();
    let quoted = quote_label(&hir::decode_quoted_text(&raw));
    let changed = quoted.get(1..quoted.len() - 1) != Some(raw.as_str());
    out.push_str(&quoted);
    Some(changed)
}

/// A string as `hclwrite` writes a string value: NFC-normalised (go-cty's
/// strings are), quoted, with `\n`, `\r`, `\t`, `"` and `\` escaped, `${`
/// and `%{` doubled, and every character Go's `unicode.IsPrint` rejects
/// written as `\uNNNN` or `\UNNNNNNNN` in lower-case hex.
fn quote_label(value: &str) -> String {
    let value: String = if value.is_ascii() { value.to_owned() } else { value.nfc().collect() };
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if is_printable(c) => out.push(c),
            c if u32::from(c) < 0x10000 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push_str(&format!("\\U{:08x}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols
/// and the ASCII space, by the general categories of Unicode 15.0 (Go's
/// tables; the crate is pinned to that version).
fn is_printable(c: char) -> bool {
    use GeneralCategory::*;
    c == ' '
        || matches!(
            get_general_category(c),
            UppercaseLetter
                | LowercaseLetter
                | TitlecaseLetter
                | ModifierLetter
                | OtherLetter
                | NonspacingMark
                | SpacingMark
                | EnclosingMark
                | DecimalNumber
                | LetterNumber
                | OtherNumber
                | ConnectorPunctuation
                | DashPunctuation
                | OpenPunctuation
                | ClosePunctuation
                | InitialPunctuation
                | FinalPunctuation
                | OtherPunctuation
                | MathSymbol
                | CurrencySymbol
                | ModifierSymbol
                | OtherSymbol
        )
}
