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

use rowan::{NodeOrToken, TextRange};
use syntax::{
    SyntaxKind::*,
    SyntaxNode, SyntaxToken,
    ast::{self, AstNode, BodyItem},
};
use unicode_general_category::{GeneralCategory, get_general_category};
use unicode_normalization::UnicodeNormalization;

/// The text of the file after Terraform's rewrites, or `None` when none
/// applies and the file is left as it is.
pub(crate) fn rewrite(root: &SyntaxNode) -> Option<String> {
    let body = ast::SourceFile::cast(root.clone())?.body()?;
    let mut edits = Vec::new();
    // Bodies to visit, each with whether it is a top-level `variable`
    // block's: an explicit stack, since blocks nest as deep as the parser
    // allows.
    let mut bodies = vec![(body, Place::TopLevel)];
    while let Some((body, place)) = bodies.pop() {
        for item in body.items() {
            match item {
                BodyItem::Attribute(attribute) => {
                    let Some(value) = attribute.value() else { continue };
                    let is_type = attribute.name().is_some_and(|name| name.text() == "type");
                    let edit = if place == Place::Variable && is_type {
                        type_constraint(value.syntax())
                    } else {
                        interpolation_only(value.syntax())
                    };
                    edits.extend(edit);
                }
                BodyItem::Block(block) => {
                    edits.extend(labels(&block));
                    let Some(inner) = block.body() else { continue };
                    let is_variable = block.type_name().is_some_and(|name| name.text() == "variable");
                    let place = match place {
                        Place::TopLevel if is_variable => Place::Variable,
                        _ => Place::Nested,
                    };
                    bodies.push((inner, place));
                }
            }
        }
    }
    if edits.is_empty() {
        return None;
    }
    edits.sort_by_key(|edit| edit.range.start());
    let text = root.text().to_string();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for Edit { range, text: replacement } in edits {
        out.push_str(&text[at..usize::from(range.start())]);
        out.push_str(&replacement);
        at = usize::from(range.end());
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

/// The reference's tokens of `tokens` (whitespace dropped), with their
/// ranges.
fn lexemes(tokens: impl Iterator<Item = SyntaxToken>) -> Vec<(Lexeme, TextRange)> {
    let mut out: Vec<(Lexeme, TextRange)> = Vec::new();
    let mut after_line_comment = false;
    for token in tokens {
        let kind = token.kind();
        let range = token.text_range();
        let line_comment = std::mem::replace(&mut after_line_comment, false);
        let lexeme = match kind {
            WHITESPACE => continue,
            NEWLINE if line_comment => {
                if let Some(last) = out.last_mut() {
                    last.1 = last.1.cover(range);
                }
                continue;
            }
            NEWLINE => Lexeme::Newline,
            COMMENT => {
                after_line_comment = is_line_comment(token.text());
                Lexeme::Comment
            }
            L_PAREN => Lexeme::OpenParen,
            R_PAREN => Lexeme::CloseParen,
            _ => Lexeme::Other,
        };
        out.push((lexeme, range));
    }
    out
}

fn is_line_comment(text: &str) -> bool {
    text.starts_with('#') || text.starts_with("//")
}

/// The tokens of a node, in order.
fn tokens(node: &SyntaxNode) -> impl Iterator<Item = SyntaxToken> + use<> {
    node.descendants_with_tokens().filter_map(NodeOrToken::into_token)
}

/// `"${expr}"` as an attribute's value: `expr`.
fn interpolation_only(value: &SyntaxNode) -> Option<Edit> {
    let template = ast::QuotedTemplate::cast(value.clone())?;
    let mut parts = template.template_parts();
    let Some(ast::TemplatePart::TemplateInterpolation(interpolation)) = parts.next() else {
        return None;
    };
    if parts.next().is_some() {
        return None;
    }
    let interpolation = interpolation.syntax();
    // The tokens between `${` (with its `~`) and `}` (with its `~`): the
    // delimiters are the interpolation's own tokens; the expression is a
    // node below it, and line breaks and comments around the expression
    // are its tokens too.
    let inside: Vec<SyntaxToken> = interpolation
        .children_with_tokens()
        .flat_map(|element| match element {
            NodeOrToken::Node(node) => tokens(&node).collect(),
            NodeOrToken::Token(token) if token.kind().is_trivia() || token.kind() == NEWLINE => vec![token],
            NodeOrToken::Token(_) => Vec::new(),
        })
        .collect();
    // Another template sequence outside a nested quoted string (in a heredoc
    // inside the interpolation) makes the reference leave the value alone.
    let mut depth = 0usize;
    for token in &inside {
        match token.kind() {
            QUOTE if opens_template(token) => depth += 1,
            QUOTE => depth = depth.saturating_sub(1),
            DOLLAR_L_CURLY | PERCENT_L_CURLY if depth == 0 => return None,
            _ => {}
        }
    }
    let lexemes = lexemes(inside.into_iter());
    let start = lexemes.iter().position(|(lexeme, _)| *lexeme != Lexeme::Newline)?;
    let end = lexemes.iter().rposition(|(lexeme, _)| *lexeme != Lexeme::Newline)?;
    let kept = &lexemes[start..=end];
    let range = kept[0].1.cover(kept[kept.len() - 1].1);
    let source = value.text();
    let offset = value.text_range().start();
    let inner = source.slice(range - offset).to_string();

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
    Some(Edit { range: value_range(value)?, text })
}

/// Whether a `"` opens a quoted template rather than closing one.
fn opens_template(quote: &SyntaxToken) -> bool {
    quote.parent().and_then(|parent| parent.first_token()).is_some_and(|first| first == *quote)
}

/// Whether `text` parses as an attribute's value, alone on its line.
fn parses_as_value(text: &str) -> bool {
    let parse = syntax::parse(&format!("a = {text}\n"));
    parse.errors().is_empty()
        && ast::SourceFile::cast(parse.syntax_node())
            .and_then(|file| file.body())
            .is_some_and(|body| body.items().count() == 1)
}

/// The range of a value from its first token to its last, which is what the
/// reference's expression covers: trivia at either end are not part of it.
fn value_range(value: &SyntaxNode) -> Option<TextRange> {
    let significant = |token: &SyntaxToken| !token.kind().is_trivia() && token.kind() != NEWLINE;
    let first = tokens(value).find(significant)?;
    let last = tokens(value).filter(significant).last()?;
    Some(first.text_range().cover(last.text_range()))
}

/// A top-level `variable` block's `type`: Terraform 0.11's quoted types and
/// the bare collection types made explicit.
fn type_constraint(value: &SyntaxNode) -> Option<Edit> {
    // The reference looks at the value's tokens: one identifier, or an
    // opening quote, literal text and a closing quote. Whitespace is not a
    // token; comments and line breaks inside the value are.
    let significant: Vec<SyntaxToken> = tokens(value).filter(|token| token.kind() != WHITESPACE).collect();
    let range = value_range(value)?;
    let text = match significant.as_slice() {
        [ident] if ident.kind() == IDENT => match ident.text() {
            name @ ("list" | "map" | "set") => format!("{name}(any)"),
            _ => return None,
        },
        [open, literal, close]
            if open.kind() == QUOTE && literal.kind() == TEMPLATE_TEXT && close.kind() == QUOTE =>
        {
            match literal.text() {
                "string" => "string".to_owned(),
                name @ ("list" | "map") => format!("{name}(string)"),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(Edit { range, text })
}

/// A block's labels written in their quoted form, and any comment between
/// the block type and the last label dropped.
fn labels(block: &ast::Block) -> Option<Edit> {
    let type_name = block.type_name()?;
    let labels: Vec<ast::BlockLabel> = block.labels().collect();
    let last = labels.last()?;
    let mut written = String::new();
    let mut changed = false;
    for label in &labels {
        let value = label_value(label)?;
        let quoted = quote_label(&value);
        changed |= label.syntax().text() != quoted.as_str();
        written.push(' ');
        written.push_str(&quoted);
    }
    let range = TextRange::new(type_name.text_range().end(), last.syntax().text_range().end());
    let header_comment = block
        .syntax()
        .children_with_tokens()
        .any(|element| element.kind() == COMMENT && range.contains_range(element.text_range()));
    (changed || header_comment).then_some(Edit { range, text: written })
}

/// The value of a label: an identifier's name, or a quoted label's text
/// with its escapes decoded. `None` for a label with a template sequence,
/// which only a broken file has.
fn label_value(label: &ast::BlockLabel) -> Option<String> {
    if let Some(ident) = label.ident() {
        return Some(ident.text().to_owned());
    }
    let quoted = label.quoted()?;
    let mut raw = String::new();
    for part in quoted.template_parts() {
        let ast::TemplatePart::TemplateLiteral(literal) = part else { return None };
        for token in literal.text_tokens() {
            raw.push_str(token.text());
        }
    }
    Some(hir::decode_quoted_text(&raw))
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
