//! The event-based parser.
//!
//! The grammar functions (in [`grammar`]) never build a tree: they look at a
//! stream of significant tokens and record events — start a node, consume a
//! token, finish a node — and the errors they find. [`crate::tree_builder`]
//! then replays the events over the lexed tokens, putting whitespace and
//! comments back, so the tree is lossless by construction whatever the
//! grammar does with broken input.
//!
//! Newlines are the one token whose significance depends on context: they end
//! attributes and block headers, separate object items, and are ignored
//! inside parentheses, brackets, interpolations and `for` expressions. The
//! parser keeps a stack of modes; in a mode that ignores them, lookahead looks
//! past them, and they are stepped over just before the next node starts or
//! the next token is consumed, so they never sit at the start of a child
//! node.
//!
//! Recursion is bounded: nesting deeper than [`MAX_NESTING`] is reported and
//! the rest of that bracketed group is kept flat in an `ERROR` node, and so
//! is the rest of an operator or accessor chain longer than [`MAX_CHAIN`], so
//! no input can overflow the stack here or when a deep tree is dropped.

mod grammar;

use std::{cell::OnceCell, collections::HashMap, num::NonZeroU32};

use crate::{
    GreenNode, SyntaxError,
    SyntaxKind::{self, *},
    TextRange, TextSize,
    lexer::{LexedStr, SignificantTokens},
    scratch::{self, Buffers},
    tree_builder,
};

/// The deepest nesting of blocks, brackets, templates, template directives,
/// sub-expressions and unary operators, counted together, that the parser
/// follows. Real configurations stay far below it.
pub(crate) const MAX_NESTING: u32 = 128;

/// The longest chain of binary operators or accessors (`a.b[0].c…`) folded
/// into nested nodes; each link adds a level to the tree.
pub(crate) const MAX_CHAIN: u32 = 4096;

pub(crate) fn parse_source_file(
    lexed: &mut LexedStr<'_>,
    buffers: &mut Buffers,
) -> (GreenNode, Vec<SyntaxError>) {
    parse_with(lexed, buffers, grammar::source_file)
}

/// Parses a whole text as one expression (see [`grammar::expression_file`]).
pub(crate) fn parse_expression_file(
    lexed: &mut LexedStr<'_>,
    buffers: &mut Buffers,
) -> (GreenNode, Vec<SyntaxError>) {
    parse_with(lexed, buffers, grammar::expression_file)
}

/// Parses a text lexed by [`crate::lexer::lex_template`] as a bare template.
pub(crate) fn parse_template_file(
    lexed: &mut LexedStr<'_>,
    buffers: &mut Buffers,
) -> (GreenNode, Vec<SyntaxError>) {
    parse_with(lexed, buffers, grammar::template_file)
}

/// Parses the tokens of `lexed` from `root`, in the vectors of `buffers`
/// (see [`crate::scratch`]), which are left there empty for the next parse.
fn parse_with(
    lexed: &mut LexedStr<'_>,
    buffers: &mut Buffers,
    root: fn(&mut Parser<'_>),
) -> (GreenNode, Vec<SyntaxError>) {
    let significant = lexed.take_significant();
    let lexed = &*lexed;
    let mut p = Parser::new(lexed, significant, std::mem::take(&mut buffers.events));
    root(&mut p);
    let (mut events, mut errors, significant) = p.finish();
    // The parser's token tables go back before the tree is built, and a
    // large file's are freed there, as they were before they were kept.
    let SignificantTokens { mut index, mut kind } = significant;
    scratch::empty(&mut index);
    scratch::empty(&mut kind);
    buffers.significant_index = index;
    buffers.significant_kinds = kind;
    let green = tree_builder::build(lexed, &mut events, buffers);
    buffers.events = events;
    // Lexical errors come first, as in the reference, which reports invalid
    // tokens before it starts parsing; the parser's own follow in the order
    // it found them.
    let mut all = lexed.errors().to_vec();
    all.append(&mut errors);
    (green, all)
}

/// What the grammar records; see the module documentation. Tokens are not
/// events: the grammar consumes them strictly in order and never renames
/// them, so a node's `Start` and `Finish` say which lexed tokens it spans
/// and the tree builder copies the runs between events.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    /// Starts a node whose first token is lexed token `first_token` (or
    /// which is empty, if it finishes before that token). `forward_parent`
    /// is set when a later `precede` wrapped this node in another: the
    /// distance to that parent's `Start` event, never zero. (An event is
    /// 12 bytes, and a parse holds about one per significant token.)
    Start { kind: SyntaxKind, forward_parent: Option<NonZeroU32>, first_token: u32 },
    /// Finishes the innermost open node after lexed token `end_token - 1`,
    /// the last one the grammar consumed.
    Finish { end_token: u32 },
    /// A `Start` that was moved to where its forward parent opens.
    Tombstone,
}

const _: () = assert!(std::mem::size_of::<Event>() == 12);

pub(crate) struct Parser<'t> {
    lexed: &'t LexedStr<'t>,
    /// Indices of the significant (non-trivia) tokens in `lexed`.
    tokens: Vec<u32>,
    kinds: Vec<SyntaxKind>,
    pos: usize,
    events: Vec<Event>,
    errors: Vec<SyntaxError>,
    /// `true` where newlines are significant; the last entry is in force.
    newline_modes: Vec<bool>,
    /// Blocks, brackets, templates, directives, sub-expressions and unary
    /// operators currently open.
    nesting: u32,
    /// Names of the attributes of the bodies being parsed, innermost body
    /// last, to report an argument set twice; `body_names_start` is where
    /// the innermost body's names begin. A body with more than
    /// [`NAMES_SCANNED`] names moves them to `body_name_index` instead.
    attribute_names: Vec<FirstName<'t>>,
    body_names_start: usize,
    /// The innermost body's names by text, once it has too many to scan;
    /// an enclosing body's index waits in [`Parser::in_body`]'s frame.
    body_name_index: Option<HashMap<&'t str, FirstName<'t>>>,
    /// Where each line of the text starts, built at the first message
    /// that names a line, so that each such message costs a binary search
    /// rather than a count of the newlines before it.
    line_starts: OnceCell<Vec<TextSize>>,
}

/// The first definition of an attribute name in a body, and its "line L,
/// column C" once a duplicate has asked for it (each name's position is
/// worked out once, however often it is set again).
#[derive(Clone)]
struct FirstName<'t> {
    name: &'t str,
    range: TextRange,
    position: Option<String>,
}

/// How many names of one body are compared one by one with each new name;
/// a body with more is indexed by a hash map, so that a body of a hundred
/// thousand attributes costs linear time, not quadratic, while the common
/// small body allocates nothing. The map hashes with the standard
/// library's randomly keyed SipHash: a file is untrusted input, and a
/// fixed hash function would let one crafted to collide make it quadratic
/// again.
const NAMES_SCANNED: usize = 32;

impl<'t> Parser<'t> {
    fn new(lexed: &'t LexedStr<'t>, significant: SignificantTokens, mut events: Vec<Event>) -> Parser<'t> {
        let SignificantTokens { index: tokens, kind: kinds } = significant;
        // About one event per significant token in real files (two per node,
        // and a node for every token or two); a little more, so that the
        // common case never reallocates. Capacity is only touched as it is
        // used, but a reallocation copies.
        events.reserve(tokens.len() + tokens.len() / 4 + 16);
        Parser {
            lexed,
            tokens,
            kinds,
            pos: 0,
            events,
            errors: Vec::new(),
            // Empty means significant, as at the top of a file: most small
            // files never push a mode, and then this allocates nothing.
            newline_modes: Vec::new(),
            nesting: 0,
            attribute_names: Vec::new(),
            body_names_start: 0,
            body_name_index: None,
            line_starts: OnceCell::new(),
        }
    }

    /// The events and errors, and the parser's token tables, which are no
    /// part of the tree builder's work.
    fn finish(self) -> (Vec<Event>, Vec<SyntaxError>, SignificantTokens) {
        let Parser { events, errors, tokens, kinds, .. } = self;
        (events, errors, SignificantTokens { index: tokens, kind: kinds })
    }

    fn newlines_significant(&self) -> bool {
        self.newline_modes.last().copied().unwrap_or(true)
    }

    /// The position of the `n`th significant token from here, looking past
    /// newlines where they are ignored.
    fn nth_pos(&self, n: usize) -> usize {
        let mut pos = self.pos;
        let skip_newlines = !self.newlines_significant();
        let mut remaining = n;
        loop {
            if skip_newlines {
                while self.kinds.get(pos) == Some(&NEWLINE) {
                    pos += 1;
                }
            }
            if remaining == 0 || pos >= self.kinds.len() {
                return pos;
            }
            remaining -= 1;
            pos += 1;
        }
    }

    pub(crate) fn nth(&self, n: usize) -> SyntaxKind {
        self.kinds.get(self.nth_pos(n)).copied().unwrap_or(EOF)
    }

    pub(crate) fn current(&self) -> SyntaxKind {
        // The common case, checked first: the next token is not a newline,
        // so the mode does not matter.
        match self.kinds.get(self.pos) {
            Some(&kind) if kind != NEWLINE => kind,
            _ => self.nth(0),
        }
    }

    pub(crate) fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    /// The text of the `n`th significant token ahead ("" at the end).
    pub(crate) fn nth_text(&self, n: usize) -> &'t str {
        match self.tokens.get(self.nth_pos(n)) {
            Some(&raw) => self.lexed.text(raw as usize),
            None => "",
        }
    }

    /// Whether the `n`th token ahead is the identifier `word`: HCL has no
    /// reserved words, so `for`, `in`, `if` and the rest are identifiers that
    /// only mean something in their place.
    pub(crate) fn nth_at_word(&self, n: usize, word: &str) -> bool {
        self.nth(n) == IDENT && self.nth_text(n) == word
    }

    /// Whether the current token is `kind` and directly follows the last
    /// token consumed, with nothing between them.
    pub(crate) fn at_adjacent(&self, kind: SyntaxKind) -> bool {
        self.at(kind) && self.current_range().start() == self.prev_range().end()
    }

    pub(crate) fn at_word(&self, word: &str) -> bool {
        self.nth_at_word(0, word)
    }

    /// The source range of the `n`th significant token ahead; an empty range
    /// at the end of the text past the last token.
    pub(crate) fn nth_range(&self, n: usize) -> TextRange {
        match self.tokens.get(self.nth_pos(n)) {
            Some(&raw) => self.token_range(raw as usize),
            None => TextRange::empty(TextSize::of(self.lexed.as_str())),
        }
    }

    /// The range of lexed token `raw` as the reference sees it: a newline
    /// that ends a `#` or `//` comment starts at the comment, so an error
    /// "at the end of the line" points where the line's content ends.
    fn token_range(&self, raw: usize) -> TextRange {
        let range = self.lexed.text_range(raw);
        if self.lexed.kind(raw) == NEWLINE
            && let Some(before) = raw.checked_sub(1)
            && self.lexed.kind(before) == COMMENT
            && !self.lexed.text(before).starts_with("/*")
        {
            return self.lexed.text_range(before).cover(range);
        }
        range
    }

    pub(crate) fn current_range(&self) -> TextRange {
        self.nth_range(0)
    }

    /// The range of the last token consumed, or an empty range at the start.
    pub(crate) fn prev_range(&self) -> TextRange {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(&raw) => self.lexed.text_range(raw as usize),
            None => TextRange::empty(TextSize::from(0)),
        }
    }

    /// Steps over the newlines that the current mode ignores, so that what
    /// comes next starts at a significant token; they stay with whatever
    /// node is open, as every token between consumed ones does.
    fn skip_ignored_newlines(&mut self) {
        if self.newlines_significant() {
            return;
        }
        while self.kinds.get(self.pos) == Some(&NEWLINE) {
            self.pos += 1;
        }
    }

    /// Consumes the current token, whatever it is.
    pub(crate) fn bump_any(&mut self) {
        self.skip_ignored_newlines();
        if self.pos < self.tokens.len() {
            self.pos += 1;
        }
    }

    /// The lexed index of the next significant token (the number of lexed
    /// tokens at the end).
    fn next_lexed_index(&self) -> u32 {
        self.tokens.get(self.pos).copied().unwrap_or(self.lexed.len() as u32)
    }

    /// The lexed index just past the last token consumed.
    fn consumed_lexed_end(&self) -> u32 {
        self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)).map_or(0, |&raw| raw + 1)
    }

    pub(crate) fn bump(&mut self, kind: SyntaxKind) {
        debug_assert_eq!(self.current(), kind);
        self.bump_any();
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump_any();
            true
        } else {
            false
        }
    }

    pub(crate) fn start(&mut self) -> Marker {
        self.skip_ignored_newlines();
        let pos = self.events.len() as u32;
        let first_token = self.next_lexed_index();
        self.events.push(Event::Start { kind: TOMBSTONE, forward_parent: None, first_token });
        Marker { pos, completed: false }
    }

    pub(crate) fn error(&mut self, error: SyntaxError) {
        self.errors.push(error);
    }

    pub(crate) fn last_error(&self) -> Option<&SyntaxError> {
        self.errors.last()
    }

    pub(crate) fn error_count(&self) -> usize {
        self.errors.len()
    }

    /// Runs `f` as the parse of one body: attribute names recorded inside
    /// are checked against each other only.
    pub(crate) fn in_body<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer_start = self.body_names_start;
        let outer_index = self.body_name_index.take();
        self.body_names_start = self.attribute_names.len();
        let result = f(self);
        self.attribute_names.truncate(self.body_names_start);
        self.body_names_start = outer_start;
        self.body_name_index = outer_index;
        result
    }

    /// Records the current token as the name of an attribute of the
    /// innermost body, and reports it if the body already has one of that
    /// name. Constant time a name: a short scan, or a lookup in the body's
    /// index once it is large (see [`NAMES_SCANNED`]).
    pub(crate) fn record_attribute_name(&mut self) {
        let name = self.nth_text(0);
        let range = self.current_range();
        let earlier = match &mut self.body_name_index {
            Some(index) => index.get_mut(name),
            None => self.attribute_names[self.body_names_start..].iter_mut().find(|seen| seen.name == name),
        };
        if let Some(first) = earlier {
            let line_starts = self.line_starts.get_or_init(|| line_starts(self.lexed.as_str()));
            let position = first
                .position
                .get_or_insert_with(|| line_column_in(self.lexed.as_str(), line_starts, first.range.start()));
            let detail = format!(
                "The argument \"{name}\" was already set at {position}. Each argument may be set only once."
            );
            self.error(
                SyntaxError::new("duplicate-attribute", "Attribute redefined", range).with_detail(detail),
            );
            return;
        }
        let new = FirstName { name, range, position: None };
        if let Some(index) = &mut self.body_name_index {
            index.insert(name, new);
        } else if self.attribute_names.len() - self.body_names_start < NAMES_SCANNED {
            self.attribute_names.push(new);
        } else {
            let mut index: HashMap<&'t str, FirstName<'t>> =
                self.attribute_names.drain(self.body_names_start..).map(|seen| (seen.name, seen)).collect();
            index.insert(name, new);
            self.body_name_index = Some(index);
        }
    }

    /// "line L, column C" of `offset`, for messages that refer to another
    /// place in the file.
    pub(crate) fn line_column(&self, offset: TextSize) -> String {
        let text = self.lexed.as_str();
        line_column_in(text, self.line_starts.get_or_init(|| line_starts(text)), offset)
    }

    /// The index of the next significant token, to look back at what a
    /// grammar function consumed with [`Parser::kinds_since`].
    pub(crate) fn token_pos(&self) -> usize {
        self.pos
    }

    /// The kinds and ranges of the significant tokens consumed since `pos`.
    pub(crate) fn tokens_since(&self, pos: usize) -> impl Iterator<Item = (SyntaxKind, TextRange)> + '_ {
        (pos..self.pos).map(|i| (self.kinds[i], self.lexed.text_range(self.tokens[i] as usize)))
    }

    /// Runs `f` with newlines significant (`true`) or ignored (`false`).
    pub(crate) fn with_newlines<R>(&mut self, significant: bool, f: impl FnOnce(&mut Self) -> R) -> R {
        self.newline_modes.push(significant);
        let result = f(self);
        self.newline_modes.pop();
        result
    }

    /// Enters one level of nesting, or reports that the input nests too
    /// deeply and returns `false`; see [`MAX_NESTING`].
    pub(crate) fn enter_nesting(&mut self) -> bool {
        if self.nesting >= MAX_NESTING {
            return false;
        }
        self.nesting += 1;
        true
    }

    pub(crate) fn leave_nesting(&mut self) {
        self.nesting = self.nesting.saturating_sub(1);
    }
}

/// The offset of the start of each line of `text`.
fn line_starts(text: &str) -> Vec<TextSize> {
    std::iter::once(TextSize::from(0))
        .chain(text.match_indices('\n').map(|(at, _)| TextSize::from(at as u32 + 1)))
        .collect()
}

/// "line L, column C" (1-based, columns counting characters) of `offset`,
/// given where `text`'s lines start.
fn line_column_in(text: &str, line_starts: &[TextSize], offset: TextSize) -> String {
    let offset = offset.min(TextSize::of(text));
    let line = line_starts.partition_point(|&start| start <= offset).max(1);
    let start = usize::from(line_starts[line - 1]);
    let column = text.get(start..usize::from(offset)).map_or(0, |prefix| prefix.chars().count()) + 1;
    format!("line {line}, column {column}")
}

/// A node being built; dropping one without completing or abandoning it is a
/// bug in the grammar.
pub(crate) struct Marker {
    pos: u32,
    completed: bool,
}

impl Marker {
    pub(crate) fn complete(mut self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        self.completed = true;
        if let Some(Event::Start { kind: slot, .. }) = p.events.get_mut(self.pos as usize) {
            *slot = kind;
        }
        let end_token = p.consumed_lexed_end();
        p.events.push(Event::Finish { end_token });
        CompletedMarker { pos: self.pos }
    }
}

impl Drop for Marker {
    fn drop(&mut self) {
        if !self.completed && !std::thread::panicking() {
            debug_assert!(false, "a marker was dropped without being completed");
        }
    }
}

#[derive(Clone, Copy)]
pub(crate) struct CompletedMarker {
    pos: u32,
}

impl CompletedMarker {
    /// Starts a node that will contain this one: `a + b` starts as `a` and is
    /// wrapped in a binary expression once the `+` is seen.
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Marker {
        let new_pos = p.events.len() as u32;
        let mut first_token = 0;
        if let Some(Event::Start { forward_parent, first_token: inner_first, .. }) =
            p.events.get_mut(self.pos as usize)
        {
            *forward_parent = NonZeroU32::new(new_pos - self.pos);
            first_token = *inner_first;
        }
        p.events.push(Event::Start { kind: TOMBSTONE, forward_parent: None, first_token });
        Marker { pos: new_pos, completed: false }
    }
}
