//! The lexer: source text to a flat list of tokens, whole-file and up front.
//!
//! HCL's lexical grammar is modal (expressions, quoted templates, heredoc
//! templates, nested interpolations), and the mode at any point depends only
//! on the brackets seen so far, so the lexer keeps its own stack of modes and
//! the parser never steers it. The stack lives on the heap, so nesting depth
//! costs memory, never native stack.
//!
//! The lexer works on bytes: every byte that decides a token boundary is
//! ASCII, and the input is a `&str`, so a run of non-ASCII bytes can be
//! skipped without decoding. Characters are decoded only where their class
//! matters (identifiers, and the error for a character that fits nothing).
//!
//! Behaviour follows the reference implementation (Go HCL v2.24.0) where the
//! two could differ, with these choices written down:
//!
//! - A newline inside a quoted template does not end it: the reference keeps
//!   scanning the string up to the next `"`, and so does this lexer. Each run
//!   of `\r`/`\n` there is a `TEMPLATE_TEXT` token of its own with a
//!   `multi-line-string` error on it.
//! - A heredoc closes only on a line that ends with a line break: a closing
//!   marker on the last line of a file without a final newline leaves the
//!   heredoc unterminated, as in the reference and the specification's
//!   grammar (`Identifier Newline`). The closing line may have whitespace
//!   before and after the marker; `HEREDOC_END` covers both, like the
//!   reference's closing token.
//! - `<<` that is not followed by an optional `-`, an identifier and a line
//!   break is not a heredoc: it is two `L_ANGLE` tokens, and the parser
//!   reports what it makes of them.
//! - A `\r` that does not start `\r\n` is an invalid character in an
//!   expression and in a heredoc, and a multi-line string inside a quoted
//!   template, as in the reference.
//! - A `$` or `%` that ends the input inside template text is an invalid
//!   character, as in the reference, which cannot tell whether it was meant
//!   to open a sequence.
//! - A byte order mark at offset 0 is whitespace: the reference's scanner
//!   skips it (the specification forbids it, but Terraform and every tool on
//!   HCL read such files).
//! - `::` is one token wherever it appears, as the reference's scanner makes
//!   it for namespaced function names (`provider::aws::arn_parse`).
//! - Like the reference, repeated complaints about the same stray character
//!   are capped: at most four about bitwise operators, one about `;`, and
//!   backticks and single quotes are reported for every other occurrence (an
//!   opening one, not its closing twin), at most twice.
//!
//! The lexer reports an unterminated quoted template or heredoc itself, when
//! the input ends while it is lexing template text. An interpolation left
//! open at the end is the parser's to report: the reference words that as a
//! parse error at the `${`.

use unicode_ident::{is_xid_continue, is_xid_start};

use crate::{
    SyntaxError,
    SyntaxKind::{self, *},
    TextRange, TextSize,
    scratch::Buffers,
};

#[cfg(test)]
mod tests;

/// Tokens of one source text: kinds and start offsets side by side, plus the
/// lexical errors, in source order.
#[derive(Debug)]
pub struct LexedStr<'a> {
    text: &'a str,
    kind: Vec<SyntaxKind>,
    /// Each token's start, then the text's length: token `i` is
    /// `start[i]..start[i + 1]`.
    start: Vec<u32>,
    errors: Vec<SyntaxError>,
    /// The tokens that are not trivia, as the parser reads them; recorded
    /// as they are lexed, so that the parser does not make a second pass
    /// over every token to find them.
    significant: SignificantTokens,
}

/// The indices and kinds of the tokens that are not trivia, side by side.
#[derive(Debug, Default)]
pub(crate) struct SignificantTokens {
    pub(crate) index: Vec<u32>,
    pub(crate) kind: Vec<SyntaxKind>,
}

impl<'a> LexedStr<'a> {
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The number of tokens (an end-of-file token is not stored).
    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kind.is_empty()
    }

    pub fn kind(&self, i: usize) -> SyntaxKind {
        self.kind.get(i).copied().unwrap_or(SyntaxKind::EOF)
    }

    pub fn text(&self, i: usize) -> &'a str {
        let range = self.text_range(i);
        &self.text[range.start().into()..range.end().into()]
    }

    pub fn text_range(&self, i: usize) -> TextRange {
        let start = self.start.get(i).copied().unwrap_or(self.text.len() as u32);
        let end = self.start.get(i + 1).copied().unwrap_or(self.text.len() as u32);
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// Every token's kind, for a pass over all of them.
    pub(crate) fn kinds(&self) -> &[SyntaxKind] {
        &self.kind
    }

    /// Every token's start offset, then the text's length, for a pass over
    /// all of them: token `i` is `bounds[i]..bounds[i + 1]`.
    pub(crate) fn bounds(&self) -> &[u32] {
        &self.start
    }

    /// The tokens that are not trivia, handed to the parser, which frees
    /// them before the tree is built.
    pub(crate) fn take_significant(&mut self) -> SignificantTokens {
        std::mem::take(&mut self.significant)
    }

    /// Puts the token vectors back into `buffers` for the next parse.
    pub(crate) fn give_back(self, buffers: &mut Buffers) {
        buffers.kinds = self.kind;
        buffers.starts = self.start;
    }
}

/// Splits `text` into tokens. Never fails: what fits no token becomes an
/// `ERROR` token with an error beside it.
///
/// Offsets are `u32`, like everywhere in the syntax tree, so the text must be
/// shorter than 4 GiB.
pub fn lex(text: &str) -> LexedStr<'_> {
    let mut lexer = Lexer::new(text);
    lexer.run();
    lexer.finish()
}

/// [`lex`] into the vectors of `buffers`, which [`LexedStr::give_back`]
/// returns.
pub(crate) fn lex_in<'a>(text: &'a str, buffers: &mut Buffers) -> LexedStr<'a> {
    let mut lexer = Lexer::new_in(text, buffers);
    lexer.run();
    lexer.finish()
}

/// [`lex_template`] into the vectors of `buffers`, which
/// [`LexedStr::give_back`] returns.
pub(crate) fn lex_template_in<'a>(text: &'a str, buffers: &mut Buffers) -> LexedStr<'a> {
    let mut lexer = Lexer::new_in(text, buffers);
    lexer.modes.push(Mode::Bare);
    lexer.run();
    lexer.finish()
}

/// Lexes `text` as a bare template: literal text (newlines and quotes
/// included, no backslash escapes) with `${ … }` and `%{ … }` sequences, up
/// to the end of the text. The reference's `LexTemplate`, which the JSON
/// syntax uses for its strings.
pub fn lex_template(text: &str) -> LexedStr<'_> {
    let mut lexer = Lexer::new(text);
    lexer.modes.push(Mode::Bare);
    lexer.run();
    lexer.finish()
}

/// Where the lexer is, beyond plain top-level expression mode (an empty
/// stack).
#[derive(Debug, Clone, Copy)]
enum Mode {
    /// Expression mode inside `${ … }` or `%{ … }`. `depth` counts the `{`
    /// opened inside it and not yet closed, so that the `}` which closes the
    /// interpolation can be told from one that closes an object.
    Interp { depth: usize },
    /// The text of a `"…"` template.
    Quoted,
    /// The body of a heredoc whose marker is `text[marker_start..marker_end]`.
    /// `line_start` is true when the next byte begins a line of the body, the
    /// only place where the closing marker can be.
    Heredoc { marker_start: usize, marker_end: usize, line_start: bool },
    /// A bare template ([`lex_template`]): text to the end of the input.
    /// It is the bottom of the stack and never popped.
    Bare,
}

/// How many complaints of each capped kind have been made, for the caps the
/// reference applies (see the module docs).
#[derive(Default)]
struct Told {
    bitwise: u32,
    semicolon: u32,
    backtick: u32,
    apostrophe: u32,
}

const BOM: &[u8] = "\u{feff}".as_bytes();

const INVALID_CHARACTER: &str = "Invalid character";
const NOT_USED: &str = "This character is not used within the language.";
const UNSUPPORTED_OPERATOR: &str = "Unsupported operator";
const INVALID_ESCAPE: &str = "Invalid escape sequence";

/// The ASCII bytes that continue an identifier.
static IDENT_ASCII: [bool; 256] =
    byte_set(b"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz");
/// Spaces and tabs, which make one `WHITESPACE` token in a run.
static BLANK: [bool; 256] = byte_set(b" \t");
/// Bytes that end a run of literal text in a quoted template.
static QUOTED_STOP: [bool; 256] = byte_set(b"\"$%\\\r\n");
/// Bytes that end a run of literal text in a heredoc line.
static HEREDOC_STOP: [bool; 256] = byte_set(b"$%\r\n");
/// Bytes that end a run of literal text in a bare template.
static BARE_STOP: [bool; 256] = byte_set(b"$%");

/// The first index from `i` on whose byte is not in `set`, or the length.
/// A free function over the slice, so that the loop keeps the slice's start
/// and length in registers rather than reloading them through `&mut self`
/// at every byte.
#[inline(always)]
fn skip_in(bytes: &[u8], mut i: usize, set: &[bool; 256]) -> usize {
    while let Some(&b) = bytes.get(i)
        && set[b as usize]
    {
        i += 1;
    }
    i
}

/// The first index from `i` on whose byte is in `stop`, or the length.
#[inline(always)]
fn skip_until(bytes: &[u8], mut i: usize, stop: &[bool; 256]) -> usize {
    while let Some(&b) = bytes.get(i)
        && !stop[b as usize]
    {
        i += 1;
    }
    i
}

const fn byte_set(bytes: &[u8]) -> [bool; 256] {
    let mut set = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        set[bytes[i] as usize] = true;
        i += 1;
    }
    set
}

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// The start of the next token; always on a character boundary.
    pos: usize,
    kind: Vec<SyntaxKind>,
    start: Vec<u32>,
    errors: Vec<SyntaxError>,
    significant: SignificantTokens,
    modes: Vec<Mode>,
    told: Told,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer::new_in(text, &mut Buffers::default())
    }

    /// A lexer that fills the (empty) vectors of `buffers`, taken from it.
    fn new_in(text: &'a str, buffers: &mut Buffers) -> Lexer<'a> {
        // Real files average a little over four bytes a token; reserving that
        // up front makes regrowing the vectors rare.
        let estimate = text.len() / 4 + 16;
        fn reserved<T>(vec: &mut Vec<T>, len: usize) -> Vec<T> {
            let mut vec = std::mem::take(vec);
            vec.reserve(len);
            vec
        }
        // (`start` also takes the end of the text after the last token.)
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            kind: reserved(&mut buffers.kinds, estimate),
            start: reserved(&mut buffers.starts, estimate),
            errors: Vec::new(),
            // About three tokens in five are not trivia.
            significant: SignificantTokens {
                index: reserved(&mut buffers.significant_index, estimate * 2 / 3),
                kind: reserved(&mut buffers.significant_kinds, estimate * 2 / 3),
            },
            modes: Vec::new(),
            told: Told::default(),
        }
    }

    fn run(&mut self) {
        // A leading byte order mark is skipped, as the reference's scanner
        // and Terraform skip it: it is whitespace before the first token,
        // kept in the tree like any other, and the formatter drops it.
        if self.modes.is_empty() && self.bytes.starts_with(BOM) {
            self.push_trivia(WHITESPACE, BOM.len());
        }
        while self.pos < self.bytes.len() {
            match self.modes.last() {
                None | Some(Mode::Interp { .. }) => self.expr_token(),
                Some(Mode::Quoted) => self.quoted_text(),
                Some(&Mode::Heredoc { marker_start, marker_end, line_start }) => {
                    self.heredoc_text(marker_start, marker_end, line_start)
                }
                Some(Mode::Bare) => self.bare_text(),
            }
        }
        // A template still open at the end of the input is reported by the
        // parser when it reaches it, as the reference does: reported here,
        // it would come before errors earlier in the file that caused it.
    }

    fn finish(mut self) -> LexedStr<'a> {
        self.start.push(self.text.len() as u32);
        LexedStr {
            text: self.text,
            kind: self.kind,
            start: self.start,
            errors: self.errors,
            significant: self.significant,
        }
    }

    /// Ends the current token, which is not trivia, at `end` (exclusive),
    /// which must be past `self.pos`.
    #[inline]
    fn push(&mut self, kind: SyntaxKind, end: usize) {
        debug_assert!(!kind.is_trivia(), "{kind:?} pushed as significant");
        self.significant.index.push(self.kind.len() as u32);
        self.significant.kind.push(kind);
        self.push_trivia(kind, end);
    }

    /// Ends the current token, whitespace or a comment, at `end`
    /// (exclusive), which must be past `self.pos`.
    #[inline]
    fn push_trivia(&mut self, kind: SyntaxKind, end: usize) {
        debug_assert!(end > self.pos, "empty {kind:?} token at {}", self.pos);
        self.kind.push(kind);
        self.start.push(self.pos as u32);
        self.pos = end;
    }

    fn error(&mut self, code: &'static str, message: &str, detail: &str, start: usize, end: usize) {
        let range = TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32));
        self.errors.push(SyntaxError::new(code, message, range).with_detail(detail));
    }

    /// The byte at `i`, or 0 past the end. Callers only compare the result
    /// with non-zero bytes, so a NUL in the text cannot be mistaken for the
    /// end or the other way round.
    #[inline]
    fn byte(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    /// The character starting at byte `i`, which must be a character
    /// boundary inside the text.
    fn char_at(&self, i: usize) -> char {
        self.text.get(i..).and_then(|rest| rest.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    // Expression mode.

    fn expr_token(&mut self) {
        let pos = self.pos;
        let b = self.bytes[pos];
        let next = self.byte(pos + 1);
        match b {
            b' ' | b'\t' => {
                let end = skip_in(self.bytes, pos + 1, &BLANK);
                self.push_trivia(WHITESPACE, end);
            }
            b'\n' => self.push(NEWLINE, pos + 1),
            b'\r' if next == b'\n' => self.push(NEWLINE, pos + 2),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                // Most identifiers are ASCII: scanned here, without a call.
                let mut end = skip_in(self.bytes, pos + 1, &IDENT_ASCII);
                if self.byte(end) >= 0x80 {
                    end = self.ident_rest(end);
                }
                self.push(IDENT, end);
            }
            b'0'..=b'9' => self.number(),
            b'#' => self.line_comment(),
            b'/' if next == b'/' => self.line_comment(),
            b'/' if next == b'*' => self.block_comment(),
            b'/' => self.push(SLASH, pos + 1),
            b'"' => {
                self.push(QUOTE, pos + 1);
                self.modes.push(Mode::Quoted);
            }
            b'{' => {
                if let Some(Mode::Interp { depth }) = self.modes.last_mut() {
                    *depth += 1;
                }
                self.push(L_CURLY, pos + 1);
            }
            b'}' => {
                if let Some(Mode::Interp { depth }) = self.modes.last_mut() {
                    if *depth == 0 {
                        self.modes.pop();
                    } else {
                        *depth -= 1;
                    }
                }
                self.push(R_CURLY, pos + 1);
            }
            b'<' if next == b'<' => {
                if !self.heredoc_start() {
                    self.push(L_ANGLE, pos + 1);
                }
            }
            b'<' if next == b'=' => self.push(LTEQ, pos + 2),
            b'<' => self.push(L_ANGLE, pos + 1),
            b'>' if next == b'=' => self.push(GTEQ, pos + 2),
            b'>' => self.push(R_ANGLE, pos + 1),
            b'=' if next == b'=' => self.push(EQ2, pos + 2),
            b'=' if next == b'>' => self.push(FAT_ARROW, pos + 2),
            b'=' => self.push(EQ, pos + 1),
            b'!' if next == b'=' => self.push(NEQ, pos + 2),
            b'!' => self.push(BANG, pos + 1),
            b'&' if next == b'&' => self.push(AMP2, pos + 2),
            b'|' if next == b'|' => self.push(PIPE2, pos + 2),
            b'.' if next == b'.' && self.byte(pos + 2) == b'.' => self.push(DOT3, pos + 3),
            b'.' => self.push(DOT, pos + 1),
            // A strip marker before the `}` that closes an interpolation or
            // directive. The reference lexes `~}` as one closing token
            // wherever it appears, so this does not check that the brace
            // really closes one; the parser does.
            b'~' if next == b'}' => self.push(TILDE, pos + 1),
            b'[' => self.push(L_BRACK, pos + 1),
            b']' => self.push(R_BRACK, pos + 1),
            b'(' => self.push(L_PAREN, pos + 1),
            b')' => self.push(R_PAREN, pos + 1),
            b',' => self.push(COMMA, pos + 1),
            b'?' => self.push(QUESTION, pos + 1),
            // The scope separator of a namespaced function name
            // (`provider::aws::arn_parse`), one token wherever it appears,
            // as the reference's scanner makes it.
            b':' if next == b':' => self.push(COLON2, pos + 2),
            b':' => self.push(COLON, pos + 1),
            b'+' => self.push(PLUS, pos + 1),
            b'-' => self.push(MINUS, pos + 1),
            b'*' => self.push(STAR, pos + 1),
            b'%' => self.push(PERCENT, pos + 1),
            b'&' => self.bitwise(" Did you mean boolean AND (\"&&\")?"),
            b'|' => self.bitwise(" Did you mean boolean OR (\"||\")?"),
            b'~' => self.bitwise(" Did you mean boolean NOT (\"!\")?"),
            b'^' => self.bitwise(""),
            b';' => {
                if self.told.semicolon < 1 {
                    self.told.semicolon += 1;
                    self.invalid_character(
                        "The \";\" character is not valid. Use newlines to separate arguments and blocks, \
                         and commas to separate items in collection values.",
                        1,
                    );
                }
                self.push(ERROR, pos + 1);
            }
            b'`' => {
                if self.told.backtick.is_multiple_of(2) {
                    self.invalid_character(
                        "The \"`\" character is not valid. To create a multi-line string, \
                         use the \"heredoc\" syntax, like \"<<EOT\".",
                        1,
                    );
                }
                if self.told.backtick <= 2 {
                    self.told.backtick += 1;
                }
                self.push(ERROR, pos + 1);
            }
            b'\'' => {
                if self.told.apostrophe.is_multiple_of(2) {
                    self.invalid_character(
                        "Single quotes are not valid. Use double quotes (\") to enclose strings.",
                        1,
                    );
                }
                if self.told.apostrophe <= 2 {
                    self.told.apostrophe += 1;
                }
                self.push(ERROR, pos + 1);
            }
            0x80..=0xff => self.non_ascii(),
            _ => {
                self.invalid_character(NOT_USED, 1);
                self.push(ERROR, pos + 1);
            }
        }
    }

    /// A token starting with a non-ASCII character: an identifier or an
    /// invalid character.
    fn non_ascii(&mut self) {
        let pos = self.pos;
        let ch = self.char_at(pos);
        let end = pos + ch.len_utf8();
        if is_xid_start(ch) {
            let end = self.ident_rest(end);
            self.push(IDENT, end);
            return;
        }
        let detail = if ch == '\u{201c}' || ch == '\u{201d}' {
            "\"Curly quotes\" are not valid here. These can sometimes be inadvertently introduced when \
             sharing code via documents or discussion forums. It might help to replace the character \
             with a \"straight quote\"."
        } else {
            NOT_USED
        };
        self.invalid_character(detail, ch.len_utf8());
        self.push(ERROR, end);
    }

    /// An `invalid-character` error on the `len` bytes at `self.pos`.
    fn invalid_character(&mut self, detail: &str, len: usize) {
        self.error("invalid-character", INVALID_CHARACTER, detail, self.pos, self.pos + len);
    }

    /// A one-byte bitwise operator, which HCL does not have.
    fn bitwise(&mut self, suggestion: &str) {
        let pos = self.pos;
        if self.told.bitwise < 4 {
            self.told.bitwise += 1;
            let detail = format!("Bitwise operators are not supported.{suggestion}");
            self.error("unsupported-operator", UNSUPPORTED_OPERATOR, &detail, pos, pos + 1);
        }
        self.push(ERROR, pos + 1);
    }

    /// The end of an identifier whose first character ends at `i`:
    /// `(ID_Continue | '-')*`.
    fn ident_rest(&self, mut i: usize) -> usize {
        loop {
            i = skip_in(self.bytes, i, &IDENT_ASCII);
            let b = self.byte(i);
            if b >= 0x80 {
                let ch = self.char_at(i);
                // Unicode 15.1 made the zero-width joiners identifier
                // characters; the reference predates that and rejects these
                // invisible characters, and so does this lexer.
                if !is_xid_continue(ch) || ch == '\u{200c}' || ch == '\u{200d}' {
                    return i;
                }
                i += ch.len_utf8();
            } else {
                return i;
            }
        }
    }

    /// The end of an identifier starting at `i`, if one does: the reference
    /// accepts `_` as well as `ID_Start` as the first character.
    fn ident_at(&self, i: usize) -> Option<usize> {
        let b = self.byte(i);
        if b.is_ascii_alphabetic() || b == b'_' {
            Some(self.ident_rest(i + 1))
        } else if b >= 0x80 {
            let ch = self.char_at(i);
            is_xid_start(ch).then(|| self.ident_rest(i + ch.len_utf8()))
        } else {
            None
        }
    }

    /// `[0-9]+ ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?`, taking the fraction and
    /// the exponent only when digits follow, so that `1.` is a number and a
    /// dot and `1e` a number and an identifier.
    fn number(&mut self) {
        let mut i = self.pos + 1;
        while self.byte(i).is_ascii_digit() {
            i += 1;
        }
        if self.byte(i) == b'.' && self.byte(i + 1).is_ascii_digit() {
            i += 2;
            while self.byte(i).is_ascii_digit() {
                i += 1;
            }
        }
        if matches!(self.byte(i), b'e' | b'E') {
            let mut j = i + 1;
            if matches!(self.byte(j), b'+' | b'-') {
                j += 1;
            }
            if self.byte(j).is_ascii_digit() {
                i = j + 1;
                while self.byte(i).is_ascii_digit() {
                    i += 1;
                }
            }
        }
        self.push(NUMBER, i);
    }

    /// `# …` or `// …`, up to but not including the line break, so that the
    /// break is a `NEWLINE` token the parser can see.
    fn line_comment(&mut self) {
        let rest = &self.bytes[self.pos..];
        let end = match rest.iter().position(|&b| b == b'\n') {
            // Keep the `\r` of a `\r\n` out of the comment; a comment is at
            // least its one or two introducing bytes, so this stays past pos.
            Some(nl) if nl > 0 && rest[nl - 1] == b'\r' => self.pos + nl - 1,
            Some(nl) => self.pos + nl,
            None => self.bytes.len(),
        };
        self.push_trivia(COMMENT, end);
    }

    /// `/* … */`, which may span lines. Unterminated, it runs to the end of
    /// the input.
    fn block_comment(&mut self) {
        let pos = self.pos;
        let body = &self.bytes[pos + 2..];
        let end = match body.windows(2).position(|w| w == b"*/") {
            Some(i) => pos + 2 + i + 2,
            None => {
                self.error(
                    "unterminated-comment",
                    "Unterminated comment",
                    "There is no \"*/\" to close this comment before the end of the file.",
                    pos,
                    pos + 2,
                );
                self.bytes.len()
            }
        };
        self.push_trivia(COMMENT, end);
    }

    /// At `<<`: lexes `<<ID` or `<<-ID` and its line break as one
    /// `HEREDOC_START` and enters the heredoc, or returns false when what
    /// follows is not a heredoc introducer.
    fn heredoc_start(&mut self) -> bool {
        let mut i = self.pos + 2;
        if self.byte(i) == b'-' {
            i += 1;
        }
        let marker_start = i;
        let Some(marker_end) = self.ident_at(i) else {
            return false;
        };
        let end = match (self.byte(marker_end), self.byte(marker_end + 1)) {
            (b'\n', _) => marker_end + 1,
            (b'\r', b'\n') => marker_end + 2,
            _ => return false,
        };
        self.push(HEREDOC_START, end);
        self.modes.push(Mode::Heredoc { marker_start, marker_end, line_start: true });
        true
    }

    // Template modes.

    /// At `${` or `%{` in template text: the opening token, a strip marker
    /// if one follows, and expression mode until the matching `}`.
    fn template_open(&mut self, kind: SyntaxKind) {
        let pos = self.pos;
        self.push(kind, pos + 2);
        if self.byte(pos + 2) == b'~' {
            self.push(TILDE, pos + 3);
        }
        // The rest of a heredoc line after an interpolation can never be the
        // closing marker.
        if let Some(Mode::Heredoc { line_start, .. }) = self.modes.last_mut() {
            *line_start = false;
        }
        self.modes.push(Mode::Interp { depth: 0 });
    }

    /// One piece of a quoted template: a run of literal text, or the token
    /// that ends the run.
    fn quoted_text(&mut self) {
        let start = self.pos;
        let mut i = start;
        loop {
            i = skip_until(self.bytes, i, &QUOTED_STOP);
            let Some(&b) = self.bytes.get(i) else { break };
            match b {
                b'"' => {
                    if i > start {
                        self.push(TEMPLATE_TEXT, i);
                    }
                    self.push(QUOTE, i + 1);
                    self.modes.pop();
                    return;
                }
                b'$' | b'%' => match self.template_sequence(i) {
                    Some(kind) => {
                        if i > start {
                            self.push(TEMPLATE_TEXT, i);
                        }
                        self.template_open(kind);
                        return;
                    }
                    None => i = self.literal_sign(i),
                },
                b'\\' => i = self.escape(i),
                _ => {
                    // `\r` or `\n`: the reference keeps the string going, and
                    // so does this lexer, with an error on the line break.
                    if i > start {
                        self.push(TEMPLATE_TEXT, i);
                    }
                    let mut end = i + 1;
                    while matches!(self.byte(end), b'\r' | b'\n') {
                        end += 1;
                    }
                    self.error(
                        "multi-line-string",
                        "Invalid multi-line string",
                        "Quoted strings may not be split over multiple lines. To produce a multi-line \
                         string, either use the \\n escape to represent a newline character or use the \
                         \"heredoc\" multi-line template syntax.",
                        i,
                        end,
                    );
                    self.push(TEMPLATE_TEXT, end);
                    return;
                }
            }
        }
        if i > start {
            self.push(TEMPLATE_TEXT, i);
        }
    }

    /// Skips a `$` or `%` at `i` that does not open a template sequence,
    /// together with the `{` after a doubled one (the `$${` and `%%{`
    /// escapes).
    fn literal_sign(&mut self, i: usize) -> usize {
        if i + 1 == self.bytes.len() {
            // The reference needs to see the byte after a `$` or `%` to
            // decide, and calls one that ends the input invalid.
            self.error("invalid-character", INVALID_CHARACTER, NOT_USED, i, i + 1);
            return i + 1;
        }
        let sign = self.bytes[i];
        if self.byte(i + 1) == sign && self.byte(i + 2) == b'{' { i + 3 } else { i + 1 }
    }

    /// The kind of the template sequence opening at `i` (a `$` or `%`), if
    /// one does.
    #[inline]
    fn template_sequence(&self, i: usize) -> Option<SyntaxKind> {
        match (self.byte(i), self.byte(i + 1)) {
            (b'$', b'{') => Some(DOLLAR_L_CURLY),
            (b'%', b'{') => Some(PERCENT_L_CURLY),
            _ => None,
        }
    }

    /// Checks the escape sequence whose backslash is at `i` and returns where
    /// it ends. Escapes stay in the text undecoded; only their validity is
    /// the lexer's business.
    fn escape(&mut self, i: usize) -> usize {
        match self.byte(i + 1) {
            b'n' | b'r' | b't' | b'"' | b'\\' => i + 2,
            b'u' => self.unicode_escape(i, 4, "four"),
            b'U' => self.unicode_escape(i, 8, "eight"),
            // The reference does not pair a backslash with a line break or
            // the end of the input; alone, it is an invalid character.
            0 if i + 1 >= self.bytes.len() => self.lone_backslash(i),
            b'\r' | b'\n' => self.lone_backslash(i),
            _ => {
                let selector = self.char_at(i + 1);
                let end = i + 1 + selector.len_utf8();
                let detail = format!(
                    "The symbol {} is not a valid escape sequence selector.",
                    go_quote_char(selector)
                );
                self.error("invalid-escape", INVALID_ESCAPE, &detail, i, end);
                end
            }
        }
    }

    fn lone_backslash(&mut self, i: usize) -> usize {
        self.error("invalid-character", INVALID_CHARACTER, NOT_USED, i, i + 1);
        i + 1
    }

    /// `\u` with up to four or `\U` with up to eight hexadecimal digits; the
    /// reference takes as many as there are, then complains if too few or if
    /// the code point cannot be a character.
    fn unicode_escape(&mut self, i: usize, digits: usize, digits_word: &str) -> usize {
        let hex_start = i + 2;
        let mut end = hex_start;
        let mut value: u64 = 0;
        while end < hex_start + digits {
            let Some(d) = (self.byte(end) as char).to_digit(16) else { break };
            value = value * 16 + u64::from(d);
            end += 1;
        }
        if end - hex_start < digits {
            let selector = self.bytes[i + 1] as char;
            let detail = format!(
                "The \\{selector} escape sequence must be followed by {digits_word} hexadecimal digits."
            );
            self.error("invalid-escape", INVALID_ESCAPE, &detail, i, end);
        } else if u32::try_from(value).ok().and_then(char::from_u32).is_none() {
            let detail = format!("Cannot encode character U+{value:04x} in UTF-8.");
            self.error("invalid-escape", INVALID_ESCAPE, &detail, i, end);
        }
        end
    }

    /// One piece of a heredoc body: the closing marker line, a run of literal
    /// text ending at a line break (included) or at an interpolation, or the
    /// interpolation's opening token.
    fn heredoc_text(&mut self, marker_start: usize, marker_end: usize, line_start: bool) {
        let start = self.pos;
        if line_start && let Some(end) = self.heredoc_end(marker_start, marker_end) {
            self.push(HEREDOC_END, end);
            self.modes.pop();
            return;
        }
        let mut i = start;
        loop {
            i = skip_until(self.bytes, i, &HEREDOC_STOP);
            let Some(&b) = self.bytes.get(i) else { break };
            match b {
                b'\n' => return self.heredoc_line_end(i + 1),
                b'\r' if self.byte(i + 1) == b'\n' => return self.heredoc_line_end(i + 2),
                b'\r' => {
                    // The reference's heredoc scanner has no rule for a lone
                    // `\r` and gives up on the rest of the file; keeping it as
                    // text with an error recovers at once.
                    self.error("invalid-character", INVALID_CHARACTER, NOT_USED, i, i + 1);
                    i += 1;
                }
                _ => match self.template_sequence(i) {
                    Some(kind) => {
                        if i > start {
                            self.push(TEMPLATE_TEXT, i);
                        }
                        self.template_open(kind);
                        return;
                    }
                    None => i = self.literal_sign(i),
                },
            }
        }
        if i > start {
            self.push(TEMPLATE_TEXT, i);
        }
    }

    /// One piece of a bare template: a run of literal text, or the template
    /// sequence that ends it.
    fn bare_text(&mut self) {
        let start = self.pos;
        let mut i = start;
        loop {
            i = skip_until(self.bytes, i, &BARE_STOP);
            if i == self.bytes.len() {
                break;
            }
            match self.template_sequence(i) {
                Some(kind) => {
                    if i > start {
                        self.push(TEMPLATE_TEXT, i);
                    }
                    self.template_open(kind);
                    return;
                }
                // Unlike in a quoted template, the reference takes a sign
                // at the very end of a bare template as text: JSON strings
                // like "100%" are fine.
                None if i + 1 == self.bytes.len() => i += 1,
                None => i = self.literal_sign(i),
            }
        }
        if i > start {
            self.push(TEMPLATE_TEXT, i);
        }
    }

    fn heredoc_line_end(&mut self, end: usize) {
        self.push(TEMPLATE_TEXT, end);
        if let Some(Mode::Heredoc { line_start, .. }) = self.modes.last_mut() {
            *line_start = true;
        }
    }

    /// If the line at `self.pos` closes the heredoc, the end of its closing
    /// token: the marker with the whitespace around it, not the line break
    /// after it, which must be there.
    fn heredoc_end(&self, marker_start: usize, marker_end: usize) -> Option<usize> {
        let marker = &self.bytes[marker_start..marker_end];
        let i = self.skip_heredoc_space(self.pos);
        if !self.bytes[i..].starts_with(marker) {
            return None;
        }
        let end = self.skip_heredoc_space(i + marker.len());
        match (self.byte(end), self.byte(end + 1)) {
            (b'\n', _) | (b'\r', b'\n') => Some(end),
            _ => None,
        }
    }

    /// Skips the whitespace the reference trims from a heredoc line before
    /// comparing it with the marker (Go's `unicode.IsSpace`), except line
    /// breaks, which end the line.
    fn skip_heredoc_space(&self, mut i: usize) -> usize {
        loop {
            match self.byte(i) {
                b' ' | b'\t' | 0x0b | 0x0c => i += 1,
                0x80..=0xff => {
                    let ch = self.char_at(i);
                    if !ch.is_whitespace() {
                        return i;
                    }
                    i += ch.len_utf8();
                }
                _ => return i,
            }
        }
    }
}

/// A character as Go's `%q` writes it, for messages worded like the
/// reference's. Go leaves printable characters alone and escapes the rest;
/// without Unicode category tables this treats controls, whitespace and the
/// common invisible formatting characters as unprintable, which covers the
/// characters people actually type after a backslash.
fn go_quote_char(ch: char) -> String {
    let escaped = match ch {
        '"' => "\\\"".to_owned(),
        '\\' => "\\\\".to_owned(),
        '\u{7}' => "\\a".to_owned(),
        '\u{8}' => "\\b".to_owned(),
        '\u{c}' => "\\f".to_owned(),
        '\n' => "\\n".to_owned(),
        '\r' => "\\r".to_owned(),
        '\t' => "\\t".to_owned(),
        '\u{b}' => "\\v".to_owned(),
        ' ' => " ".to_owned(),
        c if c.is_ascii_control() => format!("\\x{:02x}", c as u32),
        c if c.is_ascii() => c.to_string(),
        c if is_go_printable(c) => c.to_string(),
        c if (c as u32) < 0x10000 => format!("\\u{:04x}", c as u32),
        c => format!("\\U{:08x}", c as u32),
    };
    format!("\"{escaped}\"")
}

/// An approximation of Go's `unicode.IsPrint` for non-ASCII characters.
fn is_go_printable(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_control()
        || matches!(c,
            '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{e000}'..='\u{f8ff}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{fffe}'..='\u{ffff}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
            | '\u{f0000}'..)
        || (c as u32) & 0xfffe == 0xfffe)
}
