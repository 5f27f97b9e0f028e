//! The tree flattened into the token stream the reference formatter reasons
//! about.
//!
//! The reference formats the output of its scanner, not a tree, and a few of
//! its tokens are cut differently from ours: a `#` or `//` comment owns the
//! line break that ends it, `${~` and `~}` are single tokens, and a `}` that
//! closes an interpolation is a token type of its own. Rebuilding exactly
//! that stream here lets the layout rules in `layout.rs` be stated in the
//! reference's terms, so that what they decide agrees with it token for
//! token.
//!
//! Whitespace is dropped: the layout decides every gap between tokens anew.
//! The only whitespace that survives is the run after the last token, which
//! the reference keeps as that many spaces (it never looks at it).

use rowan::{GreenNodeData, NodeOrToken};
use syntax::SyntaxKind::{self, *};

/// What the layout rules need to know about a token: the reference's token
/// type, with the distinctions no rule makes folded together (all template
/// text is `Lit`; the comparison operators are one class, and so on).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    /// `${` or `%{`, with a `~` strip marker if one follows.
    TemplateOpen,
    /// The `}` (or `~}`) that closes an interpolation or directive.
    TemplateClose,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    /// Template text, quoted or heredoc.
    Lit,
    Ident,
    Number,
    /// `=`.
    Equal,
    Minus,
    Bang,
    Dot,
    Comma,
    Ellipsis,
    Colon,
    /// `::`, between the names of a namespaced function.
    Colon2,
    Question,
    /// `+`, `*`, `/`, `%`.
    Arith,
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    Compare,
    /// `&&`, `||`.
    Logic,
    /// A comment that does not end its line: `/* … */`, or a line comment
    /// at the very end of the input.
    Comment,
    /// A `#` or `//` comment together with the line break after it.
    LineComment,
    Newline,
    /// Anything else (`=>`, stray characters of a broken tree): spaced by the
    /// default rule.
    Other,
}

impl Class {
    /// How the token changes bracket nesting, as the reference counts it for
    /// indentation: template sequences count like braces.
    pub(crate) fn bracket_change(self) -> i32 {
        match self {
            Class::OBrace | Class::OBrack | Class::OParen | Class::TemplateOpen => 1,
            Class::CBrace | Class::CBrack | Class::CParen | Class::TemplateClose => -1,
            _ => 0,
        }
    }

    /// Whether the token ends a line.
    pub(crate) fn ends_line(self) -> bool {
        matches!(self, Class::Newline | Class::LineComment)
    }
}

/// One token of the stream. Its text is one tree token, or two glued
/// together (`text` then `tail`) where the reference scans one token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok<'a> {
    pub(crate) class: Class,
    pub(crate) text: &'a str,
    pub(crate) tail: &'a str,
    /// The spaces written before the token; decided by the layout.
    pub(crate) spaces: u32,
}

/// The token stream of a tree, and the number of spaces the reference
/// writes after its last token.
pub(crate) struct Stream<'a> {
    pub(crate) toks: Vec<Tok<'a>>,
    pub(crate) trailing_spaces: u32,
}

/// Scanner state the reference keeps and the tree would otherwise have to be
/// asked for: whether a `"` opens or closes a template, and whether a `}`
/// closes a brace or an interpolation. Tracking it over the tokens, as the
/// reference's scanner does, keeps the answer right even in the odd shapes a
/// broken tree can take.
#[derive(Default)]
struct Modes {
    /// One entry per open quoted template, heredoc or template sequence,
    /// innermost last.
    stack: Vec<Mode>,
    /// Open `{` and template sequences, as the reference's scanner counts.
    braces: i32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Quote,
    Heredoc,
    /// A template sequence, with the brace count at which its `}` closes it.
    Sequence(i32),
}

/// Flattens `root` into the reference's token stream.
pub(crate) fn flatten(root: &GreenNodeData, capacity: usize) -> Stream<'_> {
    let mut toks: Vec<Tok<'_>> = Vec::with_capacity(capacity);
    let mut modes = Modes::default();
    // Bytes of whitespace since the last token: the reference counts the
    // trailing run of the input in bytes, so a tab there becomes one space.
    let mut trailing_spaces: u32 = 0;
    // Whether whitespace came between the previous token and this one: a `~`
    // is a strip marker only when it touches its brace.
    let mut spaced = false;
    // A `~` waiting to learn whether a `}` follows it.
    let mut pending_tilde: Option<&str> = None;

    let mut stack = Vec::with_capacity(32);
    stack.push(root.children());
    while let Some(children) = stack.last_mut() {
        let Some(child) = children.next() else {
            stack.pop();
            continue;
        };
        let token = match child {
            NodeOrToken::Node(node) => {
                stack.push(node.children());
                continue;
            }
            NodeOrToken::Token(token) => token,
        };
        let kind = SyntaxKind::from(token.kind().0);
        let text = token.text();
        if kind == WHITESPACE {
            trailing_spaces = trailing_spaces.saturating_add(u32::try_from(text.len()).unwrap_or(u32::MAX));
            spaced = true;
            continue;
        }
        trailing_spaces = 0;
        let was_spaced = std::mem::replace(&mut spaced, false);

        if let Some(tilde) = pending_tilde.take() {
            if kind == R_CURLY && !was_spaced {
                let class = modes.close_brace();
                // The reference reads `~}` as the end of a sequence even
                // where no sequence is open.
                let class = if class == Class::CBrace { Class::TemplateClose } else { class };
                toks.push(Tok { class, text: tilde, tail: text, spaces: 0 });
                continue;
            }
            toks.push(Tok { class: Class::Other, text: tilde, tail: "", spaces: 0 });
        }

        let class = match kind {
            TILDE => {
                if let Some(last) = toks.last_mut()
                    && last.class == Class::TemplateOpen
                    && last.tail.is_empty()
                    && !was_spaced
                {
                    last.tail = text;
                } else {
                    pending_tilde = Some(text);
                }
                continue;
            }
            NEWLINE => {
                if let Some(last) = toks.last_mut()
                    && last.class == Class::Comment
                    && last.tail.is_empty()
                    && !was_spaced
                    && is_line_comment(last.text)
                {
                    last.class = Class::LineComment;
                    last.tail = text;
                    continue;
                }
                Class::Newline
            }
            COMMENT => Class::Comment,
            L_CURLY => {
                modes.braces += 1;
                Class::OBrace
            }
            R_CURLY => modes.close_brace(),
            DOLLAR_L_CURLY | PERCENT_L_CURLY => {
                modes.braces += 1;
                modes.stack.push(Mode::Sequence(modes.braces));
                Class::TemplateOpen
            }
            QUOTE => {
                if modes.stack.last() == Some(&Mode::Quote) {
                    modes.stack.pop();
                    Class::CQuote
                } else {
                    modes.stack.push(Mode::Quote);
                    Class::OQuote
                }
            }
            HEREDOC_START => {
                modes.stack.push(Mode::Heredoc);
                Class::OHeredoc
            }
            HEREDOC_END => {
                if modes.stack.last() == Some(&Mode::Heredoc) {
                    modes.stack.pop();
                }
                Class::CHeredoc
            }
            TEMPLATE_TEXT => Class::Lit,
            L_BRACK => Class::OBrack,
            R_BRACK => Class::CBrack,
            L_PAREN => Class::OParen,
            R_PAREN => Class::CParen,
            IDENT => Class::Ident,
            NUMBER => Class::Number,
            EQ => Class::Equal,
            MINUS => Class::Minus,
            BANG => Class::Bang,
            DOT => Class::Dot,
            COMMA => Class::Comma,
            DOT3 => Class::Ellipsis,
            COLON => Class::Colon,
            COLON2 => Class::Colon2,
            QUESTION => Class::Question,
            PLUS | STAR | SLASH | PERCENT => Class::Arith,
            EQ2 | NEQ | L_ANGLE | LTEQ | R_ANGLE | GTEQ => Class::Compare,
            AMP2 | PIPE2 => Class::Logic,
            _ => Class::Other,
        };
        toks.push(Tok { class, text, tail: "", spaces: 0 });
    }
    if let Some(tilde) = pending_tilde {
        toks.push(Tok { class: Class::Other, text: tilde, tail: "", spaces: 0 });
    }
    Stream { toks, trailing_spaces }
}

impl Modes {
    /// Classifies a `}` as the reference's scanner does: it closes the
    /// innermost template sequence if the brace count is back at that
    /// sequence's opening, and is a plain brace otherwise.
    fn close_brace(&mut self) -> Class {
        let class = match self.stack.last() {
            Some(&Mode::Sequence(level)) if level == self.braces => {
                self.stack.pop();
                Class::TemplateClose
            }
            _ => Class::CBrace,
        };
        self.braces -= 1;
        class
    }
}

fn is_line_comment(text: &str) -> bool {
    text.starts_with('#') || text.starts_with("//")
}
