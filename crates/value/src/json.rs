//! A small JSON reader and writer for the cty JSON encodings.
//!
//! A hand-written one because numbers must keep every digit (a number can
//! have 160 significant digits, more than `f64` or serde_json's default
//! `Number` holds; its `arbitrary_precision` feature would change
//! serde_json for the whole workspace), and because object members must keep
//! their order and repeats, which `ctyjson.Unmarshal` reads in sequence.

use std::fmt;

/// Deepest nesting the reader accepts; deeper input is an error rather than
/// a stack overflow.
pub const MAX_DEPTH: usize = 256;

/// A parsed JSON document. Numbers keep their source text.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

/// A JSON syntax error or a value that does not fit the wanted type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError(pub String);

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JsonError {}

/// Parses one JSON document (surrounding whitespace allowed, nothing else).
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser { s: text.as_bytes(), text, i: 0 };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(JsonError(format!("extraneous data at offset {}", p.i)));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
}

impl Parser<'_> {
    fn err<T>(&self, what: &str) -> Result<T, JsonError> {
        Err(JsonError(format!("{what} at offset {}", self.i)))
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return self.err("nesting too deep");
        }
        match self.s.get(self.i) {
            None => self.err("unexpected end of JSON input"),
            Some(b'n') if self.eat("null") => Ok(Json::Null),
            Some(b't') if self.eat("true") => Ok(Json::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Json::Bool(false)),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Array(items));
                }
                loop {
                    self.ws();
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Array(items));
                        }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Object(members));
                }
                loop {
                    self.ws();
                    if self.s.get(self.i) != Some(&b'"') {
                        return self.err("expected object key");
                    }
                    let key = self.string()?;
                    self.ws();
                    if self.s.get(self.i) != Some(&b':') {
                        return self.err("expected ':'");
                    }
                    self.i += 1;
                    self.ws();
                    let v = self.value(depth + 1)?;
                    members.push((key, v));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Object(members));
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => self.err("invalid character"),
        }
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.i;
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        match self.s.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = self.s.get(self.i) {
                    self.i += 1;
                }
            }
            _ => return self.err("invalid number"),
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            let d = self.i;
            while let Some(b'0'..=b'9') = self.s.get(self.i) {
                self.i += 1;
            }
            if d == self.i {
                return self.err("invalid number");
            }
        }
        if let Some(b'e' | b'E') = self.s.get(self.i) {
            self.i += 1;
            if let Some(b'+' | b'-') = self.s.get(self.i) {
                self.i += 1;
            }
            let d = self.i;
            while let Some(b'0'..=b'9') = self.s.get(self.i) {
                self.i += 1;
            }
            if d == self.i {
                return self.err("invalid number");
            }
        }
        Ok(Json::Number(self.text[start..self.i].to_string()))
    }

    fn hex4(&mut self) -> Result<u32, JsonError> {
        let Some(h) = self.text.get(self.i..self.i + 4) else {
            return self.err("invalid escape");
        };
        let Ok(v) = u32::from_str_radix(h, 16) else {
            return self.err("invalid escape");
        };
        if !h.bytes().all(|b| b.is_ascii_hexdigit()) {
            return self.err("invalid escape");
        }
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, JsonError> {
        self.i += 1; // opening quote
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(&b) = self.s.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[start..self.i]);
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    let Some(&c) = self.s.get(self.i) else {
                        return self.err("unterminated string");
                    };
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi) {
                                // A surrogate pair, or (as Go does) U+FFFD
                                // for a lone half.
                                let save = self.i;
                                if self.eat("\\u") {
                                    let lo = self.hex4()?;
                                    if (0xDC00..0xE000).contains(&lo) {
                                        char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                    } else {
                                        self.i = save;
                                        None
                                    }
                                } else {
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            out.push(c.unwrap_or('\u{FFFD}'));
                        }
                        _ => return self.err("invalid escape"),
                    }
                }
                _ => return self.err("unterminated string"),
            }
        }
    }
}

/// Writes `s` as a JSON string the way Go's `encoding/json` does: `<`, `>`,
/// `&`, U+2028 and U+2029 escaped as `\u…`, control characters as `\n`,
/// `\r`, `\t` or `\u00XX`.
pub fn write_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Runs of characters written as they are go in one copy: most strings
    // have nothing to escape, and a push per character was most of the
    // time spent printing a module's values.
    let bytes = s.as_bytes();
    let mut run = 0;
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        let escape: Option<&str> = match byte {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            b'<' => Some("\\u003c"),
            b'>' => Some("\\u003e"),
            b'&' => Some("\\u0026"),
            // U+2028 and U+2029, the only characters of more than one
            // byte that are escaped: E2 80 A8 and E2 80 A9.
            0xE2 if bytes.get(at + 1) == Some(&0x80) && matches!(bytes.get(at + 2), Some(0xA8 | 0xA9)) => {
                Some(if bytes[at + 2] == 0xA8 { "\\u2028" } else { "\\u2029" })
            }
            _ => None,
        };
        let control = escape.is_none() && byte < 0x20;
        if escape.is_none() && !control {
            at += 1;
            continue;
        }
        out.push_str(&s[run..at]);
        match escape {
            Some(escaped) => {
                out.push_str(escaped);
                at += if byte == 0xE2 { 3 } else { 1 };
            }
            None => {
                out.push_str(&format!("\\u{byte:04x}"));
                at += 1;
            }
        }
        run = at;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_table() {
        let cases: &[(&str, Result<Json, ()>)] = &[
            ("null", Ok(Json::Null)),
            (" true ", Ok(Json::Bool(true))),
            ("1.50e3", Ok(Json::Number("1.50e3".into()))),
            ("\"a\\u00e9\\ud83d\\ude00\"", Ok(Json::String("aé😀".into()))),
            ("\"\\ud800x\"", Ok(Json::String("\u{FFFD}x".into()))),
            (
                "{\"a\":1,\"a\":[]}",
                Ok(Json::Object(vec![
                    ("a".into(), Json::Number("1".into())),
                    ("a".into(), Json::Array(vec![])),
                ])),
            ),
            ("01", Err(())),
            ("1.", Err(())),
            ("[1,]", Err(())),
            ("{} x", Err(())),
            ("\"\u{1}\"", Err(())),
            ("", Err(())),
            ("\"\\u12\"", Err(())),
        ];
        for (text, want) in cases {
            let got = parse(text).map_err(|_| ());
            assert_eq!(&got, want, "{text:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let text = "[".repeat(100_000);
        assert!(parse(&text).is_err());
    }

    #[test]
    fn write_string_table() {
        let cases = [
            ("a", "\"a\""),
            ("<&>", "\"\\u003c\\u0026\\u003e\""),
            ("\n\t\r\u{8}\"\\", "\"\\n\\t\\r\\u0008\\\"\\\\\""),
            ("é\u{2028}", "\"é\\u2028\""),
            // U+2029 is escaped; U+2026 and U+20AC share its first bytes
            // and are not.
            ("x\u{2029}y\u{2026}€", "\"x\\u2029y\u{2026}€\""),
            ("ab\u{1f}cd<", "\"ab\\u001fcd\\u003c\""),
            ("", "\"\""),
        ];
        for (s, want) in cases {
            let mut out = String::new();
            write_string(&mut out, s);
            assert_eq!(out, want);
        }
    }
}
