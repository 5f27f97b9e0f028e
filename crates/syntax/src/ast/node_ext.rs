//! Hand-written accessors: what the grammar alone cannot say.
//!
//! The generated accessors find the first child of a kind. That is wrong in
//! two situations, and this file covers both:
//!
//! - A node holds several children of one kind in different roles: the two
//!   operands of a binary expression, the three parts of a conditional. Here
//!   each role is found by its position relative to a delimiter token (the
//!   operator, `?`, `:`, `[`), never by counting, so that after a syntax error
//!   a missing child reads as `None` and does not shift the others into the
//!   wrong role: in `a ? : c`, the true branch is missing, not `c`.
//! - HCL has no reserved words. `for`, `in`, `if`, `else`, `endif`, `endfor`,
//!   `true`, `false` and `null` are identifiers, and their meaning comes from
//!   their place (the first identifier of a `for` is the keyword) or their
//!   text (`true` in a literal). The tree keeps what was written; the
//!   accessors here interpret it.

use std::{cell::RefCell, fmt};

use crate::{
    HclLanguage, SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken, T,
    ast::{self, AstChildren, AstNode, support},
};

// ---------------------------------------------------------------------------
// Body and blocks

/// An item of a [`ast::Body`], in source order: the order matters for
/// diagnostics and for the formatter, so a body is not just its attributes
/// followed by its blocks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BodyItem {
    Attribute(ast::Attribute),
    Block(ast::Block),
}

impl AstNode for BodyItem {
    fn can_cast(kind: SyntaxKind) -> bool {
        ast::Attribute::can_cast(kind) || ast::Block::can_cast(kind)
    }
    fn cast(syntax: SyntaxNode) -> Option<Self> {
        match syntax.kind() {
            SyntaxKind::ATTRIBUTE => ast::Attribute::cast(syntax).map(BodyItem::Attribute),
            SyntaxKind::BLOCK => ast::Block::cast(syntax).map(BodyItem::Block),
            _ => None,
        }
    }
    fn syntax(&self) -> &SyntaxNode {
        match self {
            BodyItem::Attribute(it) => it.syntax(),
            BodyItem::Block(it) => it.syntax(),
        }
    }
}

impl fmt::Display for BodyItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.syntax(), f)
    }
}

impl ast::Body {
    /// Attributes and blocks together, in source order.
    pub fn items(&self) -> AstChildren<BodyItem> {
        support::children(self.syntax())
    }
}

impl ast::Attribute {
    /// The attribute's name: the identifier before `=`.
    pub fn name(&self) -> Option<SyntaxToken> {
        self.ident_token()
    }

    /// The expression after `=`.
    pub fn value(&self) -> Option<ast::Expr> {
        self.expr()
    }
}

impl ast::Block {
    /// The block type: `resource` in `resource "a" "b" {}`.
    pub fn type_name(&self) -> Option<SyntaxToken> {
        self.ident_token()
    }

    /// The labels between the type and `{`, in order.
    pub fn labels(&self) -> AstChildren<ast::BlockLabel> {
        self.block_labels()
    }
}

impl ast::BlockLabel {
    /// The label when written as a bare identifier: `b` in `a b {}`.
    pub fn ident(&self) -> Option<SyntaxToken> {
        self.ident_token()
    }

    /// The label when written as a quoted string: `"b"` in `a "b" {}`.
    pub fn quoted(&self) -> Option<ast::QuotedTemplate> {
        self.quoted_template()
    }

    /// The label's text as written, without its quotes (escapes are not
    /// decoded): `b` in `a "b" {}` and in `a b {}`. Read from the green
    /// tree: the label's `SyntaxText` made a red node for each part and
    /// went through `Display`, which cost more than the rest of reading a
    /// block's header.
    pub fn unquoted_text(&self) -> String {
        fn push_leaves(node: &rowan::GreenNodeData, out: &mut String) {
            for child in node.children() {
                match child {
                    rowan::NodeOrToken::Node(node) => push_leaves(node, out),
                    rowan::NodeOrToken::Token(token) => out.push_str(token.text()),
                }
            }
        }
        let green = self.syntax().green();
        let mut text = String::with_capacity(u32::from(green.text_len()) as usize);
        push_leaves(&green, &mut text);
        if text.len() >= 2 && text.starts_with('"') && text.ends_with('"') {
            text.pop();
            text.remove(0);
        }
        text
    }
}

// ---------------------------------------------------------------------------
// Literals, variables, templates

/// What a [`ast::Literal`] is; the text of a number is in
/// [`ast::Literal::token`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralKind {
    Number,
    True,
    False,
    Null,
}

impl ast::Literal {
    /// The token the literal is made of: a number, or one of the identifiers
    /// `true`, `false` and `null`.
    pub fn token(&self) -> Option<SyntaxToken> {
        first_token(self.syntax(), |kind| matches!(kind, SyntaxKind::NUMBER | SyntaxKind::IDENT))
    }

    /// The kind of literal, or `None` when the token is not one: the parser
    /// only makes literals of numbers and of the three constant names, but a
    /// tree may come from elsewhere.
    pub fn kind(&self) -> Option<LiteralKind> {
        let token = self.token()?;
        match token.kind() {
            SyntaxKind::NUMBER => Some(LiteralKind::Number),
            _ => match token.text() {
                "true" => Some(LiteralKind::True),
                "false" => Some(LiteralKind::False),
                "null" => Some(LiteralKind::Null),
                _ => None,
            },
        }
    }
}

impl ast::Variable {
    /// The variable's name: `var` in `var.name`.
    pub fn name(&self) -> Option<SyntaxToken> {
        self.ident_token()
    }
}

impl ast::QuotedTemplate {
    /// The closing quote, `None` when the string is not terminated.
    pub fn closing_quote_token(&self) -> Option<SyntaxToken> {
        tokens_of(self.syntax(), SyntaxKind::QUOTE).nth(1)
    }
}

impl ast::TemplateLiteral {
    /// The text tokens, escapes undecoded: one in a quoted string, one a line
    /// in a heredoc.
    pub fn text_tokens(&self) -> impl Iterator<Item = SyntaxToken> + use<> {
        tokens_of(self.syntax(), SyntaxKind::TEMPLATE_TEXT)
    }
}

/// Accessors shared by interpolations and directives, which are all
/// delimited by `${` or `%{` and `}` and may carry a strip marker `~` on
/// either side.
macro_rules! strip_markers {
    ($($ty:ty),*) => {$(
        impl $ty {
            /// Whether `~` follows the opening `${` or `%{`: whitespace
            /// before the interpolation or directive is removed.
            pub fn strip_left(&self) -> bool {
                strip_markers(self.syntax()).0
            }

            /// Whether `~` precedes the closing `}`: whitespace after it is
            /// removed.
            pub fn strip_right(&self) -> bool {
                strip_markers(self.syntax()).1
            }
        }
    )*};
}

strip_markers!(
    ast::TemplateInterpolation,
    ast::IfDirective,
    ast::ElseDirective,
    ast::EndifDirective,
    ast::ForDirective,
    ast::EndforDirective
);

/// Which of the two strip markers a delimited node has. A lone `~` right
/// after the opener (`${~}`, broken input) counts as the left one only.
/// Read from the green children's kinds, which is all it needs: no red node
/// is made.
fn strip_markers(node: &SyntaxNode) -> (bool, bool) {
    let green = node.green();
    let kinds: Vec<SyntaxKind> = green
        .children()
        .map(|child| <HclLanguage as rowan::Language>::kind_from_raw(child.kind()))
        .filter(|kind| !kind.is_trivia() && *kind != SyntaxKind::NEWLINE)
        .collect();
    let opener = kinds.iter().position(|it| matches!(it, T!["${"] | T!["%{"]));
    let left = opener.and_then(|i| kinds.get(i + 1)).is_some_and(|it| *it == T![~]);
    // Without a closing brace (an unterminated directive), the marker would
    // be the last thing written.
    let close = kinds.iter().position(|it| *it == T!['}']).unwrap_or(kinds.len());
    let right = close
        .checked_sub(1)
        .filter(|&i| Some(i) > opener.map(|o| o + usize::from(left)))
        .and_then(|i| kinds.get(i))
        .is_some_and(|it| *it == T![~]);
    (left, right)
}

/// The keyword of a directive: the identifier after `%{` (and `~`).
macro_rules! directive_keyword {
    ($($ty:ty),*) => {$(
        impl $ty {
            /// The directive's keyword (`if`, `else`, `endif`, `for`,
            /// `endfor`), an identifier.
            pub fn keyword_token(&self) -> Option<SyntaxToken> {
                self.ident_token()
            }
        }
    )*};
}

directive_keyword!(
    ast::IfDirective,
    ast::ElseDirective,
    ast::EndifDirective,
    ast::ForDirective,
    ast::EndforDirective
);

impl ast::IfDirective {
    /// The condition after `if`.
    pub fn condition(&self) -> Option<ast::Expr> {
        self.expr()
    }
}

impl ast::TemplateIf {
    /// The parts between `%{ if … }` and `%{ else }` (or `%{ endif }`).
    pub fn then_template(&self) -> Option<ast::Template> {
        child_between(self.syntax(), &[], &[SyntaxKind::ELSE_DIRECTIVE, SyntaxKind::ENDIF_DIRECTIVE])
    }

    /// The parts between `%{ else }` and `%{ endif }`; `None` without an
    /// `else`.
    pub fn else_template(&self) -> Option<ast::Template> {
        child_between(self.syntax(), &[SyntaxKind::ELSE_DIRECTIVE], &[SyntaxKind::ENDIF_DIRECTIVE])
    }
}

// ---------------------------------------------------------------------------
// `for` expressions and directives

/// The identifiers of a `for` header: `for KEY, VALUE in` or `for VALUE in`.
struct ForNames {
    for_kw: Option<SyntaxToken>,
    key: Option<SyntaxToken>,
    value: Option<SyntaxToken>,
    in_kw: Option<SyntaxToken>,
}

/// Reads the header by position, not by text: `for in in list` is valid HCL
/// and names its value `in`. The identifiers and commas before the first
/// child node (the collection) are, in order: the keyword `for`, one name,
/// optionally a comma and a second name, and the keyword `in`.
fn for_names(node: &SyntaxNode) -> ForNames {
    let mut tokens = significant_children(node)
        .take_while(|it| it.as_node().is_none())
        .filter_map(SyntaxElement::into_token)
        .filter(|it| matches!(it.kind(), SyntaxKind::IDENT | SyntaxKind::COMMA))
        .peekable();
    let mut next_ident = || tokens.next_if(|it| it.kind() == SyntaxKind::IDENT);
    let for_kw = next_ident();
    let first = next_ident();
    let (key, value) = if tokens.next_if(|it| it.kind() == T![,]).is_some() {
        (first, tokens.next_if(|it| it.kind() == SyntaxKind::IDENT))
    } else {
        (None, first)
    };
    let in_kw = tokens.next_if(|it| it.kind() == SyntaxKind::IDENT);
    ForNames { for_kw, key, value, in_kw }
}

macro_rules! for_header {
    ($($ty:ty),*) => {$(
        impl $ty {
            /// The keyword `for`.
            pub fn for_token(&self) -> Option<SyntaxToken> {
                for_names(self.syntax()).for_kw
            }

            /// The key (or index) name: `k` in `for k, v in …`; `None` in
            /// the one-name form.
            pub fn key_name(&self) -> Option<SyntaxToken> {
                for_names(self.syntax()).key
            }

            /// The value name: `v` in `for k, v in …` and in `for v in …`.
            pub fn value_name(&self) -> Option<SyntaxToken> {
                for_names(self.syntax()).value
            }

            /// The keyword `in`.
            pub fn in_token(&self) -> Option<SyntaxToken> {
                for_names(self.syntax()).in_kw
            }

            /// The collection iterated over: the expression after `in`.
            pub fn collection(&self) -> Option<ast::Expr> {
                self.expr()
            }
        }
    )*};
}

for_header!(ast::ForIntro, ast::ForDirective);

impl ast::ForTupleExpr {
    /// The expression making each element.
    pub fn value_expr(&self) -> Option<ast::Expr> {
        self.expr()
    }
}

impl ast::ForObjectExpr {
    /// The expression before `=>`, making each key.
    pub fn key_expr(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T![=>]])
    }

    /// The expression after `=>`, making each value.
    pub fn value_expr(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[T![=>]], &[])
    }

    /// The `...` after the value that groups values by key.
    pub fn grouping_token(&self) -> Option<SyntaxToken> {
        self.dot3_token()
    }
}

impl ast::ForCond {
    /// The keyword `if`.
    pub fn if_token(&self) -> Option<SyntaxToken> {
        self.ident_token()
    }

    /// The condition a pair must meet to be kept.
    pub fn condition(&self) -> Option<ast::Expr> {
        self.expr()
    }
}

// ---------------------------------------------------------------------------
// Collections and calls

impl ast::ObjectItem {
    /// The key, before `=` or `:`.
    pub fn key(&self) -> Option<ast::ObjectItemKey> {
        self.object_item_key()
    }

    /// The value, after `=` or `:`. The key's expression sits inside the
    /// `OBJECT_ITEM_KEY` node, so the item's own expression is the value.
    pub fn value(&self) -> Option<ast::Expr> {
        self.expr()
    }
}

impl ast::ObjectItemKey {
    /// The identifier when the key is a bare name (`a` in `{ a = 1 }`), which
    /// the evaluator takes as the literal string, not as a variable.
    pub fn bare_ident(&self) -> Option<SyntaxToken> {
        match self.expr()? {
            ast::Expr::Variable(variable) => variable.name(),
            _ => None,
        }
    }
}

impl ast::FunctionCall {
    /// The identifiers of the function's name, in order: one for `upper(…)`,
    /// three for `provider::aws::arn_parse(…)`.
    pub fn name_tokens(&self) -> impl Iterator<Item = SyntaxToken> + use<> {
        tokens_of(self.syntax(), T![ident])
    }

    /// The function's name as the reference spells it: the identifiers
    /// joined by `::`, with any spaces around a `::` left out
    /// (`provider::aws::arn_parse`). `None` when there is no name at all.
    pub fn name(&self) -> Option<String> {
        let mut tokens = self.name_tokens();
        let mut name = tokens.next()?.text().to_string();
        for token in tokens {
            name.push_str("::");
            name.push_str(token.text());
        }
        Some(name)
    }

    /// From the name's first identifier to its last.
    pub fn name_range(&self) -> Option<crate::TextRange> {
        let mut tokens = self.name_tokens();
        let first = tokens.next()?.text_range();
        Some(tokens.last().map_or(first, |last| first.cover(last.text_range())))
    }

    /// The arguments, in order; none when the argument list is missing.
    pub fn args(&self) -> impl Iterator<Item = ast::Expr> + use<> {
        self.arg_list().into_iter().flat_map(|list| list.args())
    }

    /// Whether the last argument ends with `...`, expanding a list or tuple
    /// into the remaining arguments.
    pub fn has_expansion(&self) -> bool {
        self.arg_list().is_some_and(|list| list.dot3_token().is_some())
    }
}

impl ast::ArgList {
    /// The arguments, in order.
    pub fn args(&self) -> AstChildren<ast::Expr> {
        self.exprs()
    }
}

// ---------------------------------------------------------------------------
// Operators

/// A binary operator, in the order of the reference's precedence table from
/// loosest to tightest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinaryOp {
    /// The token kinds of all binary operators.
    pub const KINDS: &[SyntaxKind] =
        &[T![||], T![&&], T![==], T![!=], T![<], T![<=], T![>], T![>=], T![+], T![-], T![*], T![/], T![%]];

    pub fn from_kind(kind: SyntaxKind) -> Option<BinaryOp> {
        Some(match kind {
            T![||] => BinaryOp::Or,
            T![&&] => BinaryOp::And,
            T![==] => BinaryOp::Eq,
            T![!=] => BinaryOp::NotEq,
            T![<] => BinaryOp::Lt,
            T![<=] => BinaryOp::LtEq,
            T![>] => BinaryOp::Gt,
            T![>=] => BinaryOp::GtEq,
            T![+] => BinaryOp::Add,
            T![-] => BinaryOp::Sub,
            T![*] => BinaryOp::Mul,
            T![/] => BinaryOp::Div,
            T![%] => BinaryOp::Rem,
            _ => return None,
        })
    }

    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::NotEq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::LtEq => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::GtEq => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
        }
    }
}

impl fmt::Display for BinaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A prefix operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `!`
    Not,
}

impl UnaryOp {
    pub fn from_kind(kind: SyntaxKind) -> Option<UnaryOp> {
        match kind {
            T![-] => Some(UnaryOp::Neg),
            T![!] => Some(UnaryOp::Not),
            _ => None,
        }
    }

    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "!",
        }
    }
}

impl fmt::Display for UnaryOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ast::UnaryExpr {
    pub fn op_token(&self) -> Option<SyntaxToken> {
        first_token(self.syntax(), |kind| UnaryOp::from_kind(kind).is_some())
    }

    pub fn op_kind(&self) -> Option<UnaryOp> {
        UnaryOp::from_kind(self.op_token()?.kind())
    }

    /// The expression the operator applies to.
    pub fn operand(&self) -> Option<ast::Expr> {
        self.expr()
    }
}

impl ast::BinaryExpr {
    /// The operator token between the operands.
    pub fn op_token(&self) -> Option<SyntaxToken> {
        first_token(self.syntax(), |kind| BinaryOp::from_kind(kind).is_some())
    }

    pub fn op_kind(&self) -> Option<BinaryOp> {
        BinaryOp::from_kind(self.op_token()?.kind())
    }

    /// The operand before the operator.
    pub fn lhs(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], BinaryOp::KINDS)
    }

    /// The operand after the operator.
    pub fn rhs(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), BinaryOp::KINDS, &[])
    }
}

impl ast::ConditionalExpr {
    /// The expression before `?`.
    pub fn condition(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T![?]])
    }

    /// The expression between `?` and `:`.
    pub fn true_expr(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[T![?]], &[T![:]])
    }

    /// The expression after `:`.
    pub fn false_expr(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[T![:]], &[])
    }
}

// ---------------------------------------------------------------------------
// Traversals

impl ast::GetAttrExpr {
    /// The expression whose attribute is taken.
    pub fn base(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T![.]])
    }

    /// The attribute's name, after `.`. The base is a child node, so the
    /// only identifier directly in this node is the name.
    pub fn name(&self) -> Option<SyntaxToken> {
        self.ident_token()
    }
}

impl ast::LegacyIndexExpr {
    /// The expression being indexed.
    pub fn base(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T![.]])
    }

    /// The index, a whole number after `.`: `0` in `list.0`.
    pub fn index_token(&self) -> Option<SyntaxToken> {
        self.number_token()
    }
}

impl ast::IndexExpr {
    /// The expression being indexed.
    pub fn base(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T!['[']])
    }

    /// The key, between the brackets.
    pub fn index(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[T!['[']], &[T![']']])
    }
}

impl ast::AttrSplatExpr {
    /// The expression being splatted, before `.*`.
    pub fn base(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T![.]])
    }
}

impl ast::FullSplatExpr {
    /// The expression being splatted, before `[*]`.
    pub fn base(&self) -> Option<ast::Expr> {
        child_between(self.syntax(), &[], &[T!['[']])
    }
}

// ---------------------------------------------------------------------------
// Helpers

/// Direct children that carry meaning: everything but whitespace, comments
/// and newlines, none of which separates the roles of the other children.
fn significant_children(node: &SyntaxNode) -> impl Iterator<Item = SyntaxElement> + use<> {
    node.children_with_tokens().filter(|it| !it.kind().is_trivia() && it.kind() != SyntaxKind::NEWLINE)
}

/// The first direct child, node or token, whose kind `pick` accepts. `pick`
/// sees the children's kinds in order until it accepts one, from the green
/// tree: only the child it accepts is made a red node (an allocation each).
fn first_element(node: &SyntaxNode, pick: impl FnMut(SyntaxKind) -> bool) -> Option<SyntaxElement> {
    let pick = RefCell::new(pick);
    node.first_child_or_token_by_kind(&|kind| (pick.borrow_mut())(kind))
}

/// The first direct token whose kind `pick` accepts (which only token kinds
/// should be).
fn first_token(node: &SyntaxNode, pick: impl Fn(SyntaxKind) -> bool) -> Option<SyntaxToken> {
    node.children_with_tokens().by_kind(pick).find_map(SyntaxElement::into_token)
}

fn tokens_of(node: &SyntaxNode, kind: SyntaxKind) -> impl Iterator<Item = SyntaxToken> + use<> {
    node.children_with_tokens().by_kind(move |it| it == kind).filter_map(SyntaxElement::into_token)
}

/// The first child of type `N` that comes after the first direct child of a
/// kind in `after` and before the first one (following it) of a kind in
/// `before`. An empty `after` starts at the beginning and an empty `before`
/// runs to the end; an `after` that is not there means there is no such
/// child, while a missing `before` means the child may be anywhere after.
fn child_between<N: AstNode>(node: &SyntaxNode, after: &[SyntaxKind], before: &[SyntaxKind]) -> Option<N> {
    let mut started = after.is_empty();
    let mut ended = false;
    first_element(node, |kind| {
        if ended {
            false
        } else if !started {
            started = after.contains(&kind);
            false
        } else if before.contains(&kind) {
            ended = true;
            false
        } else {
            N::can_cast(kind)
        }
    })
    .and_then(SyntaxElement::into_node)
    .and_then(N::cast)
}

#[cfg(test)]
mod tests;
