//! The HCL JSON syntax: a lexer and a recursive-descent parser that build a
//! lossless rowan tree in the same [`SyntaxKind`] world as the native syntax.
//!
//! The tree keeps everything the information model needs from a JSON file:
//! property order and repeated names, the exact text of numbers and strings,
//! and a range for every token. The reference implementation's parser gives
//! up on an object or array at its first problem; this one reports that first
//! problem with the reference's summary and range, then recovers and keeps
//! parsing, so a broken member or element does not lose the rest of the
//! document. Later errors are this parser's own.
//!
//! Recursion is bounded by [`MAX_NESTING`]: a deeper object or array is
//! reported and kept flat in an `ERROR` node.

use rowan::GreenNodeBuilder;

use crate::{
    GreenNode, SyntaxError,
    SyntaxKind::{self, *},
    TextRange, TextSize,
    parser::MAX_NESTING,
};

/// Parses a whole JSON text into a `JSON_DOCUMENT` tree and its errors.
pub(crate) fn parse_document(text: &str) -> (GreenNode, Vec<SyntaxError>) {
    let tokens = lex(text);
    let mut p = JsonParser::new(text, tokens);
    document(&mut p);
    (p.builder.finish(), p.errors)
}

/// One lexed token: its kind and where it is.
#[derive(Debug, Clone, Copy)]
struct Token {
    kind: SyntaxKind,
    range: TextRange,
}

/// Splits the text into tokens the way the reference scanner does, except
/// that it goes on after a character that cannot start a token (an `ERROR`
/// token of one character), so that every byte is in some token.
fn lex(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let first = bytes[i];
        let kind = match first {
            b' ' | b'\n' | b'\r' | b'\t' => {
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                }
                WHITESPACE
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' | b'=' => {
                i += 1;
                match first {
                    b'{' => L_CURLY,
                    b'}' => R_CURLY,
                    b'[' => L_BRACK,
                    b']' => R_BRACK,
                    b',' => COMMA,
                    b':' => COLON,
                    _ => EQ,
                }
            }
            b'"' => {
                i = string_end(bytes, i);
                STRING
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                while i < bytes.len() && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    i += 1;
                }
                NUMBER
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                    i += 1;
                }
                KEYWORD
            }
            _ => {
                // One whole character, so that tokens stay on character
                // boundaries; the reference counts one byte, which is the
                // same start.
                i += text[i..].chars().next().map_or(1, char::len_utf8);
                ERROR
            }
        };
        tokens.push(Token { kind, range: range_of(start, i) });
    }
    tokens
}

fn range_of(start: usize, end: usize) -> TextRange {
    let start = TextSize::try_from(start).unwrap_or_default();
    let end = TextSize::try_from(end).unwrap_or(start);
    TextRange::new(start, end.max(start))
}

/// Where a string token that starts at `start` ends: after the closing quote
/// that no backslash escapes, or before the first control character, or at
/// the end of the text. The reference scanner stops at the same places; the
/// string's validity is checked later, by [`decode_string`].
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    let mut escaping = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => {
                escaping = !escaping;
                i += 1;
            }
            b'"' => {
                i += 1;
                if !escaping {
                    break;
                }
                escaping = false;
            }
            b if b < 0x20 => break,
            _ => {
                i += 1;
                // Step over the rest of a multi-byte character.
                while i < bytes.len() && (bytes[i] & 0xC0) == 0x80 {
                    i += 1;
                }
                escaping = false;
            }
        }
    }
    i
}

/// Decodes a JSON string literal, quotes included, into its value. On a
/// syntax error, returns the offset the reference reports it at: one past the
/// offending byte, or the literal's length when it ends too soon.
pub(crate) fn decode_string(literal: &str) -> Result<String, usize> {
    let bytes = literal.as_bytes();
    if bytes.first() != Some(&b'"') {
        return Err(1);
    }
    let mut out = String::with_capacity(literal.len());
    let mut chars = literal.char_indices().skip(1).peekable();
    while let Some((i, ch)) = chars.next() {
        match ch {
            '"' => {
                // The literal must end here; anything after is an error at
                // the first extra byte.
                return if i + 1 == literal.len() { Ok(out) } else { Err(i + 2) };
            }
            '\\' => {
                let Some((j, escape)) = chars.next() else { return Err(literal.len()) };
                match escape {
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    '/' => out.push('/'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        let unit = hex4(literal, j + 1)?;
                        for _ in 0..4 {
                            chars.next();
                        }
                        if (0xD800..0xDC00).contains(&unit) {
                            // A high surrogate pairs with a following
                            // `\uDC00`–`\uDFFF`; alone, it decodes to the
                            // replacement character, as in Go.
                            let low = literal
                                .get(j + 5..j + 7)
                                .filter(|s| *s == "\\u")
                                .and_then(|_| hex4(literal, j + 7).ok())
                                .filter(|low| (0xDC00..0xE000).contains(low));
                            if let Some(low) = low {
                                for _ in 0..6 {
                                    chars.next();
                                }
                                let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                                out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                            } else {
                                out.push('\u{FFFD}');
                            }
                        } else {
                            out.push(char::from_u32(unit).unwrap_or('\u{FFFD}'));
                        }
                    }
                    _ => return Err(j + 1),
                }
            }
            ch if (ch as u32) < 0x20 => return Err(i + 1),
            ch => out.push(ch),
        }
    }
    Err(literal.len())
}

/// The four hex digits of a `\u` escape starting at byte `at`, or the
/// reference's error offset at the first one that is not a hex digit.
fn hex4(literal: &str, at: usize) -> Result<u32, usize> {
    let bytes = literal.as_bytes();
    let mut unit = 0;
    for k in 0..4 {
        match bytes.get(at + k) {
            Some(&b) if b.is_ascii_hexdigit() => unit = unit * 16 + (b as char).to_digit(16).unwrap_or(0),
            Some(_) => return Err(at + k + 1),
            None => return Err(literal.len()),
        }
    }
    Ok(unit)
}

/// Whether a number token is a JSON number: an optional minus, an integer
/// part without leading zeros, an optional fraction and an optional exponent.
pub(crate) fn is_valid_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if bytes.first() == Some(&b'-') {
        i += 1;
    }
    match bytes.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == bytes.len()
}

/// The parser's state: the tokens, the position among them (trivia
/// included), the tree being built and the errors so far.
struct JsonParser<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// Indices in `tokens` of the significant (non-whitespace) tokens.
    significant: Vec<usize>,
    /// The next token to add to the tree, trivia included.
    pos: usize,
    /// The next significant token, an index in `significant`.
    sig_pos: usize,
    builder: GreenNodeBuilder<'static>,
    errors: Vec<SyntaxError>,
    nesting: u32,
}

impl<'t> JsonParser<'t> {
    fn new(text: &'t str, tokens: Vec<Token>) -> JsonParser<'t> {
        let significant =
            tokens.iter().enumerate().filter(|(_, t)| t.kind != WHITESPACE).map(|(i, _)| i).collect();
        JsonParser {
            text,
            tokens,
            significant,
            pos: 0,
            sig_pos: 0,
            builder: GreenNodeBuilder::new(),
            errors: Vec::new(),
            nesting: 0,
        }
    }

    fn end_range(&self) -> TextRange {
        TextRange::empty(TextSize::of(self.text))
    }

    fn nth(&self, n: usize) -> SyntaxKind {
        self.significant.get(self.sig_pos + n).map_or(EOF, |&i| self.tokens[i].kind)
    }

    fn current(&self) -> SyntaxKind {
        self.nth(0)
    }

    fn at(&self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    fn current_range(&self) -> TextRange {
        self.significant.get(self.sig_pos).map_or_else(|| self.end_range(), |&i| self.tokens[i].range)
    }

    fn current_text(&self) -> &'t str {
        let text = self.text;
        &text[self.current_range()]
    }

    /// Adds the whitespace before the next significant token to the node
    /// that is open, so that nodes start and end with significant tokens.
    fn eat_trivia(&mut self) {
        while let Some(token) = self.tokens.get(self.pos)
            && token.kind == WHITESPACE
        {
            self.builder.token(WHITESPACE.into(), &self.text[token.range]);
            self.pos += 1;
        }
    }

    /// Adds the current significant token (and the whitespace before it).
    fn bump(&mut self) {
        self.eat_trivia();
        if let Some(token) = self.tokens.get(self.pos) {
            self.builder.token(token.kind.into(), &self.text[token.range]);
            self.pos += 1;
            self.sig_pos += 1;
        }
    }

    fn start_node(&mut self, kind: SyntaxKind) {
        self.eat_trivia();
        self.builder.start_node(kind.into());
    }

    fn finish_node(&mut self) {
        self.builder.finish_node();
    }

    fn error(&mut self, code: &'static str, message: &str, detail: impl Into<String>, range: TextRange) {
        self.errors.push(SyntaxError::new(code, message, range).with_detail(detail));
    }

    /// The token the reference's parser sees at significant position `k`:
    /// its scanner stops after the first character that cannot start a
    /// token, so past one there is only the end of the input, right after it.
    fn reference_token(&self, k: usize) -> (SyntaxKind, TextRange) {
        for (index, &i) in self.significant.iter().enumerate().take(k + 1) {
            let token = self.tokens[i];
            if index == k {
                return (token.kind, token.range);
            }
            if token.kind == ERROR {
                return (EOF, TextRange::empty(token.range.end()));
            }
        }
        (EOF, self.end_range())
    }

    /// Where a separator error in a group opened by `open` goes: the
    /// reference abandons the group at its first one, so only that one is
    /// placed where the reference's recovery would place it; a later one is
    /// at the current token. `reported` tracks which this is.
    fn separator_error_range(&self, reported: &mut bool, open: SyntaxKind, close: SyntaxKind) -> TextRange {
        let first = !std::mem::replace(reported, true);
        if first {
            self.range_after_reference_recovery(self.sig_pos, open, close)
        } else {
            self.current_range()
        }
    }

    /// Where the reference reports an error after its recovery from the
    /// token at significant position `k`: it reads tokens from there until
    /// the `close` that balances the group it is in, counting nested `open`s,
    /// or the end, and the error is at the token after that.
    fn range_after_reference_recovery(&self, k: usize, open: SyntaxKind, close: SyntaxKind) -> TextRange {
        let mut depth = 1;
        let mut k = k;
        loop {
            let (kind, _) = self.reference_token(k);
            if kind == open {
                depth += 1;
            } else if kind == close {
                depth -= 1;
                if depth <= 1 {
                    break;
                }
            } else if kind == EOF {
                // The reference does not read past its end token, so the
                // error sits on it.
                return self.reference_token(k).1;
            }
            k += 1;
        }
        self.reference_token(k + 1).1
    }

    /// Adds tokens that cannot start a value or separate one to an `ERROR`
    /// node, without reporting them: the error before them said what is
    /// wrong.
    fn skip_junk(&mut self) {
        if !is_junk(self.current()) {
            return;
        }
        self.start_node(ERROR);
        while is_junk(self.current()) {
            self.bump();
        }
        self.finish_node();
    }
}

/// Tokens that can start a JSON value.
fn can_start_value(kind: SyntaxKind) -> bool {
    matches!(kind, L_CURLY | L_BRACK | STRING | NUMBER | KEYWORD)
}

/// Tokens that neither start a value nor delimit one: what recovery skips.
fn is_junk(kind: SyntaxKind) -> bool {
    !can_start_value(kind) && !matches!(kind, COMMA | R_CURLY | R_BRACK | EOF)
}

fn document(p: &mut JsonParser<'_>) {
    // Not `start_node`: the root must hold the leading whitespace too.
    p.builder.start_node(JSON_DOCUMENT.into());
    value(p);
    if !p.at(EOF) {
        if p.errors.is_empty() {
            p.error(
                "json-extraneous-data",
                "Extraneous data after value",
                "Extra characters appear after the JSON value.",
                p.current_range(),
            );
        }
        p.start_node(ERROR);
        while !p.at(EOF) {
            p.bump();
        }
        p.finish_node();
    }
    p.eat_trivia();
    p.finish_node();
}

const VALUE_START_DETAIL: &str =
    "A JSON value must start with a brace, a bracket, a number, a string, or a keyword.";

/// Parses one value, or reports that none starts here and consumes nothing.
/// Returns whether a value (or an `ERROR` node in its place) was added.
fn value(p: &mut JsonParser<'_>) -> bool {
    match p.current() {
        L_CURLY => object(p),
        L_BRACK => array(p),
        STRING => string(p),
        NUMBER => number(p),
        KEYWORD => keyword(p),
        kind => {
            let (code, message, detail) = match kind {
                R_CURLY => ("json-missing-value", "Missing JSON value", VALUE_START_DETAIL),
                R_BRACK => ("json-missing-value", "Missing array element value", VALUE_START_DETAIL),
                EOF => ("json-missing-value", "Missing value", "The JSON data ends prematurely."),
                _ => ("json-invalid-value-start", "Invalid start of value", VALUE_START_DETAIL),
            };
            p.error(code, message, detail, p.current_range());
            return false;
        }
    }
    true
}

fn string(p: &mut JsonParser<'_>) {
    let range = p.current_range();
    if let Err(offset) = decode_string(p.current_text()) {
        let start = range.start() + TextSize::try_from(offset).unwrap_or_default();
        let error_range = TextRange::at(start, TextSize::from(1));
        p.error(
            "json-invalid-string",
            "Invalid JSON string",
            "There is a syntax error in the given JSON string.",
            error_range,
        );
    }
    p.start_node(JSON_STRING);
    p.bump();
    p.finish_node();
}

fn number(p: &mut JsonParser<'_>) {
    if !is_valid_number(p.current_text()) {
        p.error(
            "json-invalid-number",
            "Invalid JSON number",
            "There is a syntax error in the given JSON number.",
            p.current_range(),
        );
    }
    p.start_node(JSON_NUMBER);
    p.bump();
    p.finish_node();
}

fn keyword(p: &mut JsonParser<'_>) {
    let word = p.current_text();
    match word {
        "true" | "false" | "null" => {}
        "undefined" | "NaN" | "Infinity" => p.error(
            "json-invalid-keyword",
            "Invalid JSON keyword",
            format!("The JavaScript identifier \"{word}\" cannot be used in JSON."),
            p.current_range(),
        ),
        _ => {
            let suggestion =
                ["false", "true", "null"].into_iter().find(|keyword| strsim::levenshtein(word, keyword) < 3);
            let did_you_mean = suggestion.map(|s| format!(" Did you mean \"{s}\"?")).unwrap_or_default();
            p.error(
                "json-invalid-keyword",
                "Invalid JSON keyword",
                format!("\"{word}\" is not a valid JSON keyword.{did_you_mean}"),
                p.current_range(),
            );
        }
    }
    p.start_node(JSON_KEYWORD);
    p.bump();
    p.finish_node();
}

/// Enters an object or array, or reports that they nest too deeply and keeps
/// the rest of the group flat in an `ERROR` node; returns whether it entered.
fn enter_nesting(p: &mut JsonParser<'_>) -> bool {
    if p.nesting < MAX_NESTING {
        p.nesting += 1;
        return true;
    }
    p.error(
        "nesting-too-deep",
        "Nesting too deep",
        format!("Objects and arrays may nest at most {MAX_NESTING} levels deep; the rest of this part of the file was not parsed."),
        p.current_range(),
    );
    p.start_node(ERROR);
    let mut depth = 0usize;
    loop {
        match p.current() {
            L_CURLY | L_BRACK => depth += 1,
            R_CURLY | R_BRACK => depth = depth.saturating_sub(1),
            EOF => break,
            _ => {}
        }
        p.bump();
        if depth == 0 {
            break;
        }
    }
    p.finish_node();
    false
}

fn object(p: &mut JsonParser<'_>) {
    if !enter_nesting(p) {
        return;
    }
    let open_range = p.current_range();
    p.start_node(JSON_OBJECT);
    p.bump();
    let unclosed = |p: &mut JsonParser<'_>| {
        p.error(
            "json-unclosed-object",
            "Unclosed object",
            "No closing brace was found for this JSON object.",
            open_range,
        );
    };
    // See `separator_error_range`.
    let mut separator_error_reported = false;
    let closed = loop {
        match p.current() {
            R_CURLY => break true,
            EOF => {
                unclosed(p);
                break false;
            }
            _ => {}
        }
        member(p);
        match p.current() {
            COMMA => {
                let comma_range = p.current_range();
                p.bump();
                if p.at(R_CURLY) {
                    p.error(
                        "json-trailing-comma",
                        "Trailing comma in object",
                        "JSON does not permit a trailing comma after the final property in an object.",
                        comma_range,
                    );
                }
            }
            R_CURLY => break true,
            EOF => {
                unclosed(p);
                break false;
            }
            R_BRACK => {
                let range = p.reference_token(p.sig_pos + 1).1;
                p.error(
                    "json-mismatched-brackets",
                    "Mismatched braces",
                    "A JSON object must be closed with a brace, not a bracket.",
                    range,
                );
                break false;
            }
            _ => {
                let range = p.separator_error_range(&mut separator_error_reported, L_CURLY, R_CURLY);
                p.error(
                    "json-missing-comma",
                    "Missing attribute seperator comma",
                    "A comma must appear between each property definition in an object.",
                    range,
                );
                p.skip_junk();
            }
        }
    };
    if closed {
        p.bump();
    }
    p.finish_node();
    p.nesting -= 1;
}

/// Parses one `"name": value` member, or reports what stands in its place.
fn member(p: &mut JsonParser<'_>) {
    let kind = p.current();
    if !can_start_value(kind) {
        // Not even a name: the reference reports why no value starts here.
        value(p);
        p.skip_junk();
        return;
    }
    p.start_node(JSON_MEMBER);
    let name_start = p.current_range();
    value(p);
    if kind != STRING {
        p.error(
            "json-invalid-property-name",
            "Invalid object property name",
            "A JSON object property name must be a string",
            name_start,
        );
    }
    match p.current() {
        COLON => p.bump(),
        EQ => {
            p.error(
                "json-missing-colon",
                "Missing property value colon",
                "JSON uses a colon as its name/value delimiter, not an equals sign.",
                p.current_range(),
            );
            p.bump();
        }
        R_CURLY | COMMA => {
            p.error(
                "json-missing-object-value",
                "Missing object value",
                "A JSON object attribute must have a value, introduced by a colon.",
                p.current_range(),
            );
            p.finish_node();
            return;
        }
        _ => {
            p.error(
                "json-missing-colon",
                "Missing property value colon",
                "A colon must appear between an object property's name and its value.",
                p.current_range(),
            );
            if !can_start_value(p.current()) {
                p.finish_node();
                return;
            }
        }
    }
    if !value(p) {
        p.skip_junk();
    }
    p.finish_node();
}

fn array(p: &mut JsonParser<'_>) {
    if !enter_nesting(p) {
        return;
    }
    let open_range = p.current_range();
    p.start_node(JSON_ARRAY);
    p.bump();
    // See `separator_error_range`.
    let mut separator_error_reported = false;
    let closed = loop {
        if p.at(R_BRACK) {
            break true;
        }
        if !value(p) {
            p.skip_junk();
        }
        match p.current() {
            COMMA => {
                let comma_range = p.current_range();
                p.bump();
                if p.at(R_BRACK) {
                    p.error(
                        "json-trailing-comma",
                        "Trailing comma in array",
                        "JSON does not permit a trailing comma after the final value in an array.",
                        comma_range,
                    );
                }
            }
            R_BRACK => break true,
            EOF => {
                p.error(
                    "json-unclosed-array",
                    "Unclosed object",
                    "No closing bracket was found for this JSON array.",
                    open_range,
                );
                break false;
            }
            COLON => {
                let range = p.separator_error_range(&mut separator_error_reported, L_BRACK, R_BRACK);
                p.error(
                    "json-invalid-array-value",
                    "Invalid array value",
                    "A colon is not used to introduce values in a JSON array.",
                    range,
                );
                p.skip_junk();
            }
            R_CURLY => {
                let range = p.separator_error_range(&mut separator_error_reported, L_BRACK, R_BRACK);
                p.error(
                    "json-mismatched-brackets",
                    "Mismatched brackets",
                    "A JSON array must be closed with a bracket, not a brace.",
                    range,
                );
                break false;
            }
            _ => {
                let range = p.separator_error_range(&mut separator_error_reported, L_BRACK, R_BRACK);
                p.error(
                    "json-missing-comma",
                    "Missing attribute seperator comma",
                    "A comma must appear between each value in an array.",
                    range,
                );
                p.skip_junk();
            }
        }
    };
    if closed {
        p.bump();
    }
    p.finish_node();
    p.nesting -= 1;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_escapes_and_surrogate_pairs() {
        assert_eq!(decode_string(r#""a\"b\\c\/\n\u00e9\ud83e\udd80""#), Ok("a\"b\\c/\né🦀".to_owned()));
        assert_eq!(decode_string(r#""\ud800x""#), Ok("\u{FFFD}x".to_owned()));
    }

    #[test]
    fn string_errors_are_one_past_the_offending_byte() {
        assert_eq!(decode_string(r#""\q""#), Err(3));
        assert_eq!(decode_string(r#""\u12x4""#), Err(6));
        assert_eq!(decode_string(r#""abc"#), Err(4));
        assert_eq!(decode_string(r#""ab\"#), Err(4));
    }

    #[test]
    fn numbers_follow_the_json_grammar() {
        for ok in ["0", "-0", "1", "12.5", "1e10", "1E+2", "-3.25e-7"] {
            assert!(is_valid_number(ok), "{ok}");
        }
        for bad in ["", "-", "+1", "01", "1.", ".5", "1e", "1.2.3", "1-2", "--1"] {
            assert!(!is_valid_number(bad), "{bad}");
        }
    }

    #[test]
    fn keyword_distance() {
        assert_eq!(strsim::levenshtein("ture", "true"), 2);
        assert_eq!(strsim::levenshtein("nul", "null"), 1);
        assert_eq!(strsim::levenshtein("", "abc"), 3);
    }
}
