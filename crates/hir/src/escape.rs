//! Decoding what the lexer leaves as written: escapes in template text and
//! the spelling of numbers. Each function takes any text, including text the
//! lexer already reported as malformed, and never fails: a sequence it cannot
//! decode is kept as written, since the error is already a diagnostic.

use smol_str::SmolStr;

/// Decodes the literal text of a quoted template: `\n \r \t \" \\`,
/// `\uNNNN` and `\UNNNNNNNN`, and the template escapes `$${` and `%%{`.
/// An invalid escape (an unknown selector, too few hex digits, a number that
/// is not a Unicode scalar value) is kept as written.
pub fn decode_quoted_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['\\', '$', '%']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        if rest.starts_with('\\') {
            let (decoded, len) = backslash_escape(rest);
            match decoded {
                Some(ch) => out.push(ch),
                None => out.push_str(&rest[..len]),
            }
            rest = &rest[len..];
        } else {
            rest = template_escape(rest, &mut out);
        }
    }
    out.push_str(rest);
    out
}

/// Decodes the literal text of a heredoc: only `$${` and `%%{`; a heredoc
/// takes backslashes literally.
pub fn decode_heredoc_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['$', '%']) {
        out.push_str(&rest[..i]);
        rest = template_escape(&rest[i..], &mut out);
    }
    out.push_str(rest);
    out
}

/// At a `$` or `%`: a doubled one before `{` stands for one; anything else is
/// itself. Returns the text after what was consumed.
fn template_escape<'a>(rest: &'a str, out: &mut String) -> &'a str {
    for (escape, decoded) in [("$${", "${"), ("%%{", "%{")] {
        if let Some(after) = rest.strip_prefix(escape) {
            out.push_str(decoded);
            return after;
        }
    }
    // `$` and `%` are one byte each.
    out.push_str(&rest[..1]);
    &rest[1..]
}

/// The escape at the start of `text` (which starts with a backslash): the
/// character it stands for, if valid, and its length in bytes.
fn backslash_escape(text: &str) -> (Option<char>, usize) {
    let mut chars = text[1..].chars();
    let Some(selector) = chars.next() else {
        return (None, 1);
    };
    let simple = match selector {
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        '"' => Some('"'),
        '\\' => Some('\\'),
        _ => None,
    };
    if simple.is_some() {
        return (simple, 2);
    }
    let digits = match selector {
        'u' => 4,
        'U' => 8,
        _ => return (None, 1 + selector.len_utf8()),
    };
    let hex: &str = &text[2..];
    let available = hex.bytes().take(digits).take_while(u8::is_ascii_hexdigit).count();
    if available < digits {
        return (None, 2 + available);
    }
    let ch = u32::from_str_radix(&hex[..digits], 16).ok().and_then(char::from_u32);
    (ch, 2 + digits)
}

/// Normalises a number's text without changing its exact decimal value:
/// leading zeros of the whole part and trailing zeros of the fraction go, the
/// exponent marker is `e`, and a `+` sign or zero exponent is dropped. So
/// `001.50E+03` becomes `1.5e3`. This is not a full canonical form (`1e3`
/// and `1000` stay apart), which would need decimal arithmetic; it only keeps
/// trivial respellings from changing the HIR. Text that is not a well-formed
/// number is kept as written.
pub fn normalise_number(text: &str) -> SmolStr {
    normalise(text).map(SmolStr::from).unwrap_or_else(|| SmolStr::from(text))
}

fn normalise(text: &str) -> Option<String> {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(i) => (&text[..i], Some(&text[i + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let fraction = fraction.trim_end_matches('0');
    let mut out = String::with_capacity(text.len());
    out.push_str(if whole.is_empty() { "0" } else { whole });
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    if let Some(exponent) = exponent {
        let (negative, digits) = match exponent.as_bytes().first() {
            Some(b'-') => (true, &exponent[1..]),
            Some(b'+') => (false, &exponent[1..]),
            _ => (false, exponent),
        };
        if digits.is_empty() || !all_digits(digits) {
            return None;
        }
        let digits = digits.trim_start_matches('0');
        // Zero times any power of ten is zero, and a zero exponent is no
        // exponent at all.
        if !digits.is_empty() && out != "0" {
            out.push('e');
            if negative {
                out.push('-');
            }
            out.push_str(digits);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_escapes() {
        assert_eq!(decode_quoted_text(r#"a\n\r\t\"\\b"#), "a\n\r\t\"\\b");
        assert_eq!(decode_quoted_text(r"\u00e9\U0001F600"), "é😀");
        assert_eq!(decode_quoted_text("$${x} %%{y} $$ %% $ %"), "${x} %{y} $$ %% $ %");
        assert_eq!(decode_quoted_text("$$${x}"), "$${x}");
    }

    #[test]
    fn malformed_escapes_are_kept() {
        assert_eq!(decode_quoted_text(r"\q"), r"\q");
        assert_eq!(decode_quoted_text(r"\u12"), r"\u12");
        assert_eq!(decode_quoted_text(r"\uD800x"), r"\uD800x");
        assert_eq!(decode_quoted_text(r"\UFFFFFFFF"), r"\UFFFFFFFF");
        assert_eq!(decode_quoted_text("\\"), "\\");
        assert_eq!(decode_quoted_text("\\é"), "\\é");
        assert_eq!(decode_quoted_text(r"\u00é"), r"\u00é");
    }

    #[test]
    fn heredoc_text_keeps_backslashes() {
        assert_eq!(decode_heredoc_text(r"a\nb $${c} %%{d}"), r"a\nb ${c} %{d}");
    }

    #[test]
    fn numbers() {
        for (text, expected) in [
            ("0", "0"),
            ("000", "0"),
            ("42", "42"),
            ("1.50", "1.5"),
            ("1.0", "1"),
            ("001.50E+03", "1.5e3"),
            ("1e-05", "1e-5"),
            ("2e0", "2"),
            ("0e10", "0"),
            ("0.000", "0"),
            ("0.010", "0.01"),
            ("1e", "1e"),
            ("1.2.3", "1.2.3"),
            ("", ""),
        ] {
            assert_eq!(normalise_number(text), expected, "{text}");
        }
    }
}
