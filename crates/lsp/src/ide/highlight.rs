//! Semantic highlighting: what each token of a file is, from its syntax
//! tree and what its names resolve to by their place (a traversal's root,
//! a call's name, a block's header), without evaluating anything.

use db::File;
use syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};

use super::{Snapshot, chain_from, first_ident, in_for_scope};

/// What a token is to a reader, in the order of the server's legend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HighlightKind {
    /// `var`, `local`, `each`, `for`, `true`: words the language gives.
    Keyword,
    /// The name of a variable or a local (`region` of `var.region`).
    Variable,
    /// An attribute's name, or an attribute read through a traversal.
    Property,
    Function,
    /// A block's type (`resource`, `locals`), or a resource type at the
    /// root of a traversal.
    Type,
    /// A block's label.
    Label,
    String,
    Number,
    Comment,
    /// `${`, `%{` and the `}` that ends them.
    Interpolation,
    /// A name a `for` expression binds.
    Parameter,
}

impl HighlightKind {
    /// Every kind, in the legend's order (its index is the protocol's
    /// token type).
    pub const ALL: [HighlightKind; 11] = [
        HighlightKind::Keyword,
        HighlightKind::Variable,
        HighlightKind::Property,
        HighlightKind::Function,
        HighlightKind::Type,
        HighlightKind::Label,
        HighlightKind::String,
        HighlightKind::Number,
        HighlightKind::Comment,
        HighlightKind::Interpolation,
        HighlightKind::Parameter,
    ];
}

/// One highlighted token: its range (never spanning lines), its kind, and
/// whether it is where a name is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    pub kind: HighlightKind,
    pub declaration: bool,
}

impl Snapshot {
    /// The highlighted tokens of `file` in source order, those overlapping
    /// `within` only when it is given. A JSON file has none (its strings
    /// are all the editor's grammar needs).
    pub fn highlights(&self, file: File, within: Option<TextRange>) -> Vec<Highlight> {
        let Some(root) = self.root(file) else { return Vec::new() };
        let text = file.text(&self.db);
        let mut out = Vec::new();
        let whole = root.text_range();
        let within = within.unwrap_or(whole);
        let start = root.covering_element(within.intersect(whole).unwrap_or(whole));
        let top = match start {
            syntax::SyntaxElement::Node(node) => node,
            syntax::SyntaxElement::Token(token) => token.parent().unwrap_or(root),
        };
        for token in top.descendants_with_tokens().filter_map(|it| it.into_token()) {
            let range = token.text_range();
            if range.end() < within.start() || range.start() > within.end() {
                continue;
            }
            let Some((kind, declaration)) = classify(&token) else { continue };
            // The protocol's tokens are on one line each.
            let mut at = usize::from(range.start());
            for line in text[at..usize::from(range.end())].split_inclusive('\n') {
                let length = line.trim_end_matches(['\n', '\r']).len();
                if length > 0 {
                    let range = TextRange::at((at as u32).into(), (length as u32).into());
                    out.push(Highlight { range, kind, declaration });
                }
                at += line.len();
            }
        }
        out
    }
}

fn classify(token: &SyntaxToken) -> Option<(HighlightKind, bool)> {
    let parent = token.parent()?;
    let kind = match token.kind() {
        SyntaxKind::COMMENT => HighlightKind::Comment,
        SyntaxKind::NUMBER => HighlightKind::Number,
        SyntaxKind::QUOTE
        | SyntaxKind::TEMPLATE_TEXT
        | SyntaxKind::HEREDOC_START
        | SyntaxKind::HEREDOC_END
        | SyntaxKind::STRING => {
            if parent.ancestors().any(|it| it.kind() == SyntaxKind::BLOCK_LABEL) {
                return Some((HighlightKind::Label, true));
            }
            HighlightKind::String
        }
        SyntaxKind::DOLLAR_L_CURLY | SyntaxKind::PERCENT_L_CURLY => HighlightKind::Interpolation,
        SyntaxKind::R_CURLY
            if matches!(
                parent.kind(),
                SyntaxKind::TEMPLATE_INTERPOLATION
                    | SyntaxKind::IF_DIRECTIVE
                    | SyntaxKind::ELSE_DIRECTIVE
                    | SyntaxKind::ENDIF_DIRECTIVE
                    | SyntaxKind::FOR_DIRECTIVE
                    | SyntaxKind::ENDFOR_DIRECTIVE
            ) =>
        {
            HighlightKind::Interpolation
        }
        SyntaxKind::KEYWORD => HighlightKind::Keyword,
        SyntaxKind::IDENT => return classify_ident(token, &parent),
        _ => return None,
    };
    Some((kind, false))
}

/// The roots the languages give (as opposed to a resource type's name).
pub(super) const LANGUAGE_ROOTS: &[&str] =
    &["var", "local", "module", "data", "each", "count", "self", "path", "terraform", "ephemeral"];

fn classify_ident(token: &SyntaxToken, parent: &SyntaxNode) -> Option<(HighlightKind, bool)> {
    let is_first = || first_ident(parent).as_ref() == Some(token);
    let found = match parent.kind() {
        SyntaxKind::BLOCK if is_first() => (HighlightKind::Type, false),
        SyntaxKind::BLOCK_LABEL => (HighlightKind::Label, true),
        SyntaxKind::ATTRIBUTE if is_first() => {
            let in_locals = parent
                .parent()
                .and_then(|body| body.parent())
                .filter(|it| it.kind() == SyntaxKind::BLOCK)
                .and_then(|block| first_ident(&block))
                .is_some_and(|it| it.text() == "locals");
            if in_locals { (HighlightKind::Variable, true) } else { (HighlightKind::Property, false) }
        }
        SyntaxKind::FUNCTION_CALL => (HighlightKind::Function, false),
        SyntaxKind::LITERAL => (HighlightKind::Keyword, false),
        SyntaxKind::FOR_INTRO
        | SyntaxKind::IF_DIRECTIVE
        | SyntaxKind::ELSE_DIRECTIVE
        | SyntaxKind::ENDIF_DIRECTIVE
        | SyntaxKind::FOR_DIRECTIVE
        | SyntaxKind::ENDFOR_DIRECTIVE => match token.text() {
            "for" | "in" | "if" | "else" | "endif" | "endfor" => (HighlightKind::Keyword, false),
            _ => (HighlightKind::Parameter, true),
        },
        SyntaxKind::VARIABLE => {
            let name = token.text();
            if parent.parent().is_some_and(|it| it.kind() == SyntaxKind::OBJECT_ITEM_KEY) {
                (HighlightKind::Property, false)
            } else if in_for_scope(parent, name) {
                (HighlightKind::Parameter, false)
            } else if LANGUAGE_ROOTS.contains(&name) {
                (HighlightKind::Keyword, false)
            } else {
                (HighlightKind::Type, false)
            }
        }
        SyntaxKind::GET_ATTR_EXPR => {
            // `region` of `var.region` is a variable; what follows a
            // traversal's second name is an attribute.
            let mut node = parent.clone();
            while let Some(child) = node.first_child()
                && child.kind() == SyntaxKind::GET_ATTR_EXPR
            {
                node = child;
            }
            let root = node.first_child().filter(|it| it.kind() == SyntaxKind::VARIABLE);
            let chain = root.as_ref().map(chain_from).unwrap_or_default();
            let second = chain.get(1).filter(|(_, range)| *range == token.text_range());
            let names_variable = chain.first().is_some_and(|(root, _)| root == "var" || root == "local");
            match second {
                Some(_) if names_variable && !in_for_scope(root.as_ref()?, &chain[0].0) => {
                    (HighlightKind::Variable, false)
                }
                _ => (HighlightKind::Property, false),
            }
        }
        SyntaxKind::OBJECT_ITEM_KEY | SyntaxKind::OBJECT_ITEM => (HighlightKind::Property, false),
        _ => return None,
    };
    Some(found)
}
