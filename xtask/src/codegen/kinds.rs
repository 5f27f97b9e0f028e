//! The token table and `crates/syntax/src/syntax_kind/generated.rs`.
//!
//! The grammar names tokens by their text, which is not a Rust identifier, and
//! it leaves out the kinds that no rule mentions (trivia, the end of input,
//! errors). This table supplies both: a name for every token and the fixed
//! kinds around them. Its order is the order of the enum, and so of the raw
//! `u16` values: tokens first, then `ERROR`, then the grammar's nodes, which
//! lets `is_node` be a range check.

use anyhow::bail;
use proc_macro2::{Literal, Punct, Spacing, TokenStream};
use quote::{format_ident, quote};

use super::grammar::Model;

/// Punctuation: its text in the grammar and source, and its kind's name.
pub(super) const PUNCT: &[(&str, &str)] = &[
    ("{", "L_CURLY"),
    ("}", "R_CURLY"),
    ("[", "L_BRACK"),
    ("]", "R_BRACK"),
    ("(", "L_PAREN"),
    (")", "R_PAREN"),
    ("=", "EQ"),
    ("==", "EQ2"),
    ("!=", "NEQ"),
    ("<", "L_ANGLE"),
    ("<=", "LTEQ"),
    (">", "R_ANGLE"),
    (">=", "GTEQ"),
    ("&&", "AMP2"),
    ("||", "PIPE2"),
    ("!", "BANG"),
    ("+", "PLUS"),
    ("-", "MINUS"),
    ("*", "STAR"),
    ("/", "SLASH"),
    ("%", "PERCENT"),
    (".", "DOT"),
    ("...", "DOT3"),
    (",", "COMMA"),
    ("=>", "FAT_ARROW"),
    ("?", "QUESTION"),
    (":", "COLON"),
    ("::", "COLON2"),
    ("~", "TILDE"),
    ("${", "DOLLAR_L_CURLY"),
    ("%{", "PERCENT_L_CURLY"),
];

/// Tokens the grammar names rather than spells: their kind is the name in
/// capitals. HCL has no keywords, so there is no keyword table: `for`, `if`
/// and `true` are `ident` tokens told apart by their text.
pub(super) const NAMED: &[&str] = &[
    "ident",
    "number",
    "quote",
    "template_text",
    "heredoc_start",
    "heredoc_end",
    "newline",
    "string",
    "keyword",
];

/// Kinds no rule mentions, after the named tokens: the parser skips trivia
/// wherever it is, so the grammar does not write it.
const TRIVIA: &[&str] = &["WHITESPACE", "COMMENT"];

/// The kind's name of a grammar token text, if the table knows it.
pub(super) fn token_kind_name(text: &str) -> Option<String> {
    if let Some((_, name)) = PUNCT.iter().find(|(punct, _)| *punct == text) {
        return Some((*name).to_owned());
    }
    NAMED.contains(&text).then(|| text.to_ascii_uppercase())
}

/// `ForTupleExpr` → `FOR_TUPLE_EXPR`.
pub(super) fn node_kind_name(node: &str) -> String {
    let mut name = String::with_capacity(node.len() + 4);
    for (i, ch) in node.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(ch.to_ascii_uppercase());
    }
    name
}

/// The arm pattern of `T![…]` for a token text. Brackets cannot appear bare
/// inside a macro pattern unless balanced, so a lone bracket is written as a
/// char literal and text holding one (`${`) as a string literal; everything
/// else is written as the punctuation itself, so `T![==]` reads like source.
pub(super) fn macro_pattern(text: &str) -> TokenStream {
    let mut chars = text.chars();
    if let (Some(ch), None) = (chars.next(), chars.next())
        && "{}[]()".contains(ch)
    {
        return Literal::character(ch).into_iter_stream();
    }
    if text.contains(['{', '}', '[', ']', '(', ')']) {
        return Literal::string(text).into_iter_stream();
    }
    if text.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_') {
        let ident = format_ident!("{}", text);
        return quote! { #ident };
    }
    let count = text.chars().count();
    text.chars()
        .enumerate()
        .map(|(i, ch)| {
            let spacing = if i + 1 < count { Spacing::Joint } else { Spacing::Alone };
            proc_macro2::TokenTree::from(Punct::new(ch, spacing))
        })
        .collect()
}

/// A one-token stream; `TokenStream` has no such constructor.
trait IntoIterStream {
    fn into_iter_stream(self) -> TokenStream;
}

impl IntoIterStream for Literal {
    fn into_iter_stream(self) -> TokenStream {
        proc_macro2::TokenTree::from(self).into()
    }
}

pub(super) fn generate(model: &Model) -> anyhow::Result<String> {
    // A token the grammar uses but the table lacks would get no kind; say
    // which, rather than generating code that does not compile.
    for token in &model.tokens {
        if token_kind_name(token).is_none() {
            bail!(
                "hcl.ungram uses the token '{token}', which the token table in xtask/src/codegen/kinds.rs lacks"
            );
        }
    }

    let punct: Vec<_> = PUNCT.iter().map(|(_, name)| format_ident!("{}", name)).collect();
    let named: Vec<_> = NAMED.iter().map(|name| format_ident!("{}", name.to_ascii_uppercase())).collect();
    let trivia: Vec<_> = TRIVIA.iter().map(|name| format_ident!("{}", name)).collect();
    let nodes: Vec<_> =
        model.nodes.iter().map(|node| format_ident!("{}", node_kind_name(&node.name))).collect();

    let macro_arms = PUNCT
        .iter()
        .map(|(text, name)| (*text, name.to_string()))
        .chain(NAMED.iter().map(|name| (*name, name.to_ascii_uppercase())));
    let macro_arms: Vec<TokenStream> = macro_arms
        .map(|(text, name)| {
            let pattern = macro_pattern(text);
            let name = format_ident!("{}", name);
            quote! { [#pattern] => { $crate::SyntaxKind::#name }; }
        })
        .collect();

    let code = quote! {
        #![allow(bad_style, missing_docs, unreachable_pub)]

        /// The kind of syntax node, e.g. `IDENT`, `ATTRIBUTE`, or `BINARY_EXPR`.
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        #[repr(u16)]
        pub enum SyntaxKind {
            #[doc(hidden)]
            TOMBSTONE,
            #[doc(hidden)]
            EOF,
            #(#punct,)*
            #(#named,)*
            #(#trivia,)*
            ERROR,
            #(#nodes,)*
            #[doc(hidden)]
            __LAST,
        }
        use self::SyntaxKind::*;

        impl SyntaxKind {
            /// Every kind, indexed by its raw value, so that `from_u16` is a
            /// bounds-checked lookup rather than a transmute.
            const ALL: &'static [SyntaxKind] = &[
                TOMBSTONE, EOF, #(#punct,)* #(#named,)* #(#trivia,)* ERROR, #(#nodes,)*
            ];

            pub fn is_punct(self) -> bool {
                matches!(self, #(#punct)|*)
            }

            pub fn is_node(self) -> bool {
                self > ERROR && self < __LAST
            }

            pub fn from_u16(raw: u16) -> Option<SyntaxKind> {
                Self::ALL.get(usize::from(raw)).copied()
            }
        }

        /// The kind of a token written by its text: `T![=]`, `T![${]`.
        #[macro_export]
        macro_rules! T {
            #(#macro_arms)*
        }
    };
    Ok(format!("{}{code}", super::preamble()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_nodes_in_screaming_snake_case() {
        assert_eq!(node_kind_name("ForTupleExpr"), "FOR_TUPLE_EXPR");
        assert_eq!(node_kind_name("Body"), "BODY");
    }

    #[test]
    fn macro_patterns_are_valid_in_a_macro_arm() {
        assert_eq!(macro_pattern("{").to_string(), "'{'");
        assert_eq!(macro_pattern("${").to_string(), "\"${\"");
        assert_eq!(macro_pattern("...").to_string(), "...");
        assert_eq!(macro_pattern("==").to_string(), "==");
        assert_eq!(macro_pattern("ident").to_string(), "ident");
    }

    #[test]
    fn every_punct_and_name_is_distinct() {
        let mut names: Vec<String> = PUNCT.iter().map(|(_, name)| (*name).to_owned()).collect();
        names.extend(NAMED.iter().map(|name| name.to_ascii_uppercase()));
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
