//! Set element order and identity, as go-cty's `setRules`.
//!
//! go-cty lists a set's elements (for iteration, JSON, conversion to a list)
//! sorted by `setRules.Less`:
//!
//! 1. known, non-null elements first, then unknown ones, then nulls;
//! 2. strings bytewise, numbers by value, `false` before `true`;
//! 3. elements of every other type by their *hash bytes*
//!    (`makeSetHashBytes`), compared bytewise;
//! 4. elements that none of these tell apart (`-0` and `0`; composite
//!    elements with equal hash bytes) keep the order of go-cty's hash
//!    buckets: by the CRC-32 of their hash bytes, then insertion order.
//!
//! The hash bytes are reproduced exactly but for numbers, which go-cty writes
//! with `big.Float.String()` (ten significant digits, `%g`); Halite rounds
//! its exact decimal to ten digits instead of rounding the binary float's
//! expansion, so a number whose binary approximation lands on the other side
//! of a rounding boundary at the tenth digit can order differently inside a
//! list, tuple, map or object element. Strings in hash bytes use Go's `%q`
//! quoting, approximated in [`go_quote`].
//!
//! Identity: an element is dropped when an earlier one has the same hash
//! bytes and `Equals` it (go-cty compares only within a hash bucket), so
//! unknown elements never merge and `1` and `1.0` do.

use std::cmp::Ordering;
use std::collections::HashMap;

use crate::number::Number;
use crate::value::Value;

/// How an element sorts: by class first, then by the key of its type.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Known,
    Unknown,
    Null,
}

enum Key {
    Str(String),
    Num(Number),
    Bool(bool),
    Bytes(Vec<u8>),
    None,
}

fn compare_keys(a: &(Class, Key), b: &(Class, Key)) -> Ordering {
    a.0.cmp(&b.0).then_with(|| match (&a.1, &b.1) {
        (Key::Str(x), Key::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Key::Num(x), Key::Num(y)) => x.cmp(y),
        (Key::Bool(x), Key::Bool(y)) => x.cmp(y),
        (Key::Bytes(x), Key::Bytes(y)) => x.cmp(y),
        // Mixed kinds cannot occur within one set (all elements share a
        // type); treat them as ties rather than panic.
        _ => Ordering::Equal,
    })
}

fn sort_key(v: &Value) -> (Class, Key) {
    if v.is_null() {
        return (Class::Null, Key::None);
    }
    if !v.is_known() {
        return (Class::Unknown, Key::None);
    }
    if let Some(s) = v.as_str() {
        return (Class::Known, Key::Str(s.to_string()));
    }
    if let Some(n) = v.as_number() {
        return (Class::Known, Key::Num(n.clone()));
    }
    if let Some(b) = v.as_bool() {
        return (Class::Known, Key::Bool(b));
    }
    (Class::Known, Key::Bytes(hash_bytes(v)))
}

/// Deduplicates and sorts set elements into go-cty's canonical order.
pub(crate) fn canonicalize(elems: Vec<Value>) -> Vec<Value> {
    let mut keyed: Vec<(Vec<u8>, Value)> = Vec::with_capacity(elems.len());
    // Elements kept so far, by hash bytes, so that a large set is built in
    // about linear time.
    let mut by_hash: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
    for v in elems {
        let h = hash_bytes(&v);
        let same_hash = by_hash.entry(h.clone()).or_default();
        if same_hash.iter().any(|&i| keyed[i].1.equals(&v) == Some(true)) {
            continue;
        }
        same_hash.push(keyed.len());
        keyed.push((h, v));
    }
    // go-cty first lists elements by hash bucket (CRC-32 of the hash bytes,
    // ascending), in insertion order within a bucket; then it sorts stably.
    keyed.sort_by_key(|(h, _)| crc32(h));
    let mut with_keys: Vec<((Class, Key), Value)> =
        keyed.into_iter().map(|(_, v)| (sort_key(&v), v)).collect();
    // A stable sort on a total order: ties keep bucket order (point 4).
    with_keys.sort_by(|a, b| compare_keys(&a.0, &b.0));
    with_keys.into_iter().map(|(_, v)| v).collect()
}

/// CRC-32 (IEEE), as Go's `crc32.ChecksumIEEE`, which names go-cty's hash
/// buckets.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            let mask = (crc & 1).wrapping_neg();
            crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
        }
    }
    !crc
}

/// go-cty's `makeSetHashBytes`.
pub fn hash_bytes(v: &Value) -> Vec<u8> {
    let mut out = String::new();
    append_hash(v, &mut out);
    out.into_bytes()
}

fn append_hash(v: &Value, out: &mut String) {
    if !v.is_known() {
        out.push('?');
        return;
    }
    if v.is_null() {
        out.push('~');
        return;
    }
    if let Some(n) = v.as_number() {
        out.push_str(&n.to_hash_string());
        return;
    }
    if let Some(b) = v.as_bool() {
        out.push(if b { 'T' } else { 'F' });
        return;
    }
    if let Some(s) = v.as_str() {
        go_quote(out, s);
        return;
    }
    let ty = v.ty();
    if ty.is_map() {
        out.push('{');
        for (k, e) in v.entries().into_iter().flatten() {
            go_quote(out, k);
            out.push(':');
            append_hash(e, out);
            out.push(';');
        }
        out.push('}');
    } else if ty.is_list() || ty.is_set() {
        out.push('[');
        for e in v.elements().unwrap_or_default() {
            append_hash(e, out);
            out.push(';');
        }
        out.push(']');
    } else if ty.is_object() {
        out.push('<');
        for e in v.entries().into_iter().flatten().map(|(_, e)| e) {
            append_hash(e, out);
            out.push(';');
        }
        out.push('>');
    } else {
        out.push('<');
        for e in v.elements().unwrap_or_default() {
            append_hash(e, out);
            out.push(';');
        }
        out.push('>');
    }
}

/// Go's `%q` of a string (`strconv.Quote`): printable characters as they
/// are, the usual backslash escapes, other control characters as `\xNN` or
/// `\uNNNN`. Go's notion of "printable" (`unicode.IsPrint`) is approximated
/// by [`is_go_printable`].
pub fn go_quote(out: &mut String, s: &str) {
    quote_into(out, s.chars(), '"');
}

/// [`go_quote`] into a new string.
pub fn go_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    go_quote(&mut out, s);
    out
}

/// Go's `%q` of a rune (`strconv.QuoteRune`): the character in single
/// quotes, escaped as [`go_quote`] escapes it.
pub fn go_quoted_rune(c: char) -> String {
    let mut out = String::with_capacity(3);
    quote_into(&mut out, std::iter::once(c), '\'');
    out
}

fn quote_into(out: &mut String, chars: impl Iterator<Item = char>, quote: char) {
    out.push(quote);
    for c in chars {
        match c {
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
}

/// An approximation of Go's `unicode.IsPrint`: not a control character,
/// not a separator other than the space, and none of the invisible format
/// characters and private use code points Go does not print.
fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(c as u32, 0x80..=0x9f | 0xad | 0xfeff | 0xfff9..=0xfffb | 0xe000..=0xf8ff)
        || matches!(c as u32, 0x200b..=0x200f | 0x202a..=0x202e | 0x2060..=0x206f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_matches_go() {
        // crc32.ChecksumIEEE values printed by Go.
        assert_eq!(crc32(b"-0"), 1_193_965_756);
        assert_eq!(crc32(b"0"), 4_108_050_209);
    }

    #[test]
    fn hash_bytes_table() {
        let cases = [
            (Value::string("a\"\n\u{1}é"), r#""a\"\n\x01é""#),
            (Value::unknown(crate::Type::String), "?"),
            (Value::null(crate::Type::String), "~"),
            (Value::bool(true), "T"),
            (
                Value::object_from([("b", Value::int(1)), ("a", Value::tuple(vec![Value::bool(false)]))]),
                "<<F;>;1;>",
            ),
            (
                Value::map(crate::Type::Number, [("k".to_string(), Value::int(12345678901))].into()).unwrap(),
                r#"{"k":1.23456789e+10;}"#,
            ),
        ];
        for (v, want) in cases {
            assert_eq!(String::from_utf8(hash_bytes(&v)).unwrap(), want, "{v:?}");
        }
    }
}
