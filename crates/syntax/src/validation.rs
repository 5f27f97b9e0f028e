//! Structural checks the reference makes at parse time that a context-free
//! grammar cannot: an argument set twice in one body, and template sequences
//! in block labels, which must be plain strings.
//!
//! They run over the finished tree, so the parser stays a plain grammar and
//! the checks see exactly what the tree holds.

use std::collections::HashMap;

use crate::{SyntaxError, SyntaxKind::*, SyntaxNode, TextRange, TextSize};

/// Appends the structural errors of the tree under `root` to `errors`.
pub fn validate(root: &SyntaxNode, errors: &mut Vec<SyntaxError>) {
    let text = root.text().to_string();
    for node in root.descendants() {
        match node.kind() {
            BODY => duplicate_attributes(&node, &text, errors),
            BLOCK_LABEL => label_is_literal(&node, errors),
            _ => {}
        }
    }
}

fn duplicate_attributes(body: &SyntaxNode, text: &str, errors: &mut Vec<SyntaxError>) {
    let mut seen: HashMap<String, TextRange> = HashMap::new();
    for attribute in body.children().filter(|n| n.kind() == ATTRIBUTE) {
        let Some(name) = attribute.first_token().filter(|t| t.kind() == IDENT) else { continue };
        match seen.get(name.text()) {
            Some(first) => errors.push(
                SyntaxError::new("duplicate-attribute", "Attribute redefined", name.text_range())
                    .with_detail(format!(
                        "The argument \"{}\" was already set at {}. Each argument may be set only once.",
                        name.text(),
                        line_column(text, first.start())
                    )),
            ),
            None => {
                seen.insert(name.text().to_owned(), name.text_range());
            }
        }
    }
}

fn label_is_literal(label: &SyntaxNode, errors: &mut Vec<SyntaxError>) {
    let Some(template) = label.children().find(|n| n.kind() == QUOTED_TEMPLATE) else { return };
    for part in template.children() {
        let opener = match part.kind() {
            TEMPLATE_INTERPOLATION | TEMPLATE_IF | TEMPLATE_FOR => part.first_token(),
            _ => None,
        };
        if let Some(opener) = opener {
            let which = if opener.kind() == DOLLAR_L_CURLY { "$" } else { "%" };
            errors.push(
                SyntaxError::new("template-in-label", "Invalid string literal", opener.text_range()).with_detail(
                    format!(
                        "Template sequences are not allowed in this string. To include a literal \"{which}\", double it (as \"{which}{which}\") to escape it."
                    ),
                ),
            );
        }
    }
}

/// "line L, column C" (1-based, columns counting characters) of `offset`.
pub(crate) fn line_column(text: &str, offset: TextSize) -> String {
    let offset = usize::from(offset).min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}
