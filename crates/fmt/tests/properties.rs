//! Properties of the formatter on any input.
//!
//! - On any tree, broken or not, it neither panics nor touches anything but
//!   the spaces and tabs between tokens: with those removed, input and output
//!   are the same text, line breaks included.
//! - The reference decides every gap between tokens afresh, so on a valid
//!   file the output cannot depend on how wide the gaps were: widening or
//!   narrowing them (to tabs, to several spaces) gives the same output, and
//!   that output is a fixed point.

use proptest::prelude::*;
use syntax::SyntaxKind;

fn format_any(text: &str) -> String {
    fmt::format_tree(&syntax::parse(text).syntax_node())
}

fn without_blanks(text: &str) -> String {
    text.chars().filter(|&c| c != ' ' && c != '\t').collect()
}

/// Pieces that switch the lexer's modes and the formatter's rules (brackets,
/// templates, heredocs, comments, operators, line breaks), so that their
/// concatenations reach unbalanced and odd states.
const FRAGMENTS: &[&str] = &[
    "{", "}", "[", "]", "(", ")", "\"", "${", "%{", "~}", "${~", "<<EOF\n", "<<-EOF\n", "EOF\n", "  EOF\n",
    "\n", "\r\n", " ", "  ", "\t", "# c\n", "// c\n", "/* c */", "/*", "*/", "foo", "a", "in", "for", "if",
    "endif", "0", "1.5", "=", "==", "!=", "<=", "<", "&&", "!", "+", "-", "*", "/", "%", "?", ":", ",", ".",
    "...", "=>", "[*]", ".*", "é", "👍🏽",
];

fn fragments() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(FRAGMENTS), 0..64).prop_map(|parts| parts.concat())
}

/// Valid files whose gaps the tests vary.
const VALID: &[&str] = &[
    "resource \"a\" \"b\" {\n  x = 1 # c\n  yy = [1, 2]\n  z = {\n    k = -1\n  }\n}\n",
    "a = \"${ var.x }\"\nbb = <<EOT\n  keep ${ y }\nEOT\nc = {for k, v in m : k => v if v != null}\n",
    "locals {\n  a = 1 /* b */\n  f = func(1,\n    2)\n  g = x ? -1 : y - 1\n}\n",
    "block {\r\n  inner { x = 1 }\r\n  s = a[0].b[*].c\r\n}\r\n",
];

/// Rewrites every whitespace token of `text` to the width and characters
/// `widths` picks (cycling), leaving the whitespace after the last token
/// alone: the reference keeps that run's length.
fn regap(text: &str, widths: &[u8]) -> String {
    let root = syntax::parse(text).syntax_node();
    let tokens: Vec<_> = root.descendants_with_tokens().filter_map(|e| e.into_token()).collect();
    let last_real = tokens.iter().rposition(|t| t.kind() != SyntaxKind::WHITESPACE);
    let mut out = String::with_capacity(text.len() * 2);
    for (i, token) in tokens.iter().enumerate() {
        if token.kind() == SyntaxKind::WHITESPACE && last_real.is_some_and(|last| i < last) {
            let pick = widths.get(i % widths.len().max(1)).copied().unwrap_or(1);
            for n in 0..=(pick % 4) {
                out.push(if (pick >> 2) % 2 == 1 && n == 0 { '\t' } else { ' ' });
            }
        } else {
            out.push_str(token.text());
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_change_only_blanks(text in any::<String>()) {
        prop_assert_eq!(without_blanks(&format_any(&text)), without_blanks(&text));
    }

    #[test]
    fn hcl_fragments_change_only_blanks(text in fragments()) {
        prop_assert_eq!(without_blanks(&format_any(&text)), without_blanks(&text));
    }

    #[test]
    fn gap_widths_do_not_matter(case in 0..VALID.len(), widths in prop::collection::vec(any::<u8>(), 1..16)) {
        let original = VALID[case];
        let expected = fmt::format_text(original).expect("the case is valid");
        let regapped = regap(original, &widths);
        let actual = fmt::format_text(&regapped).expect("changing gaps keeps the file valid");
        prop_assert_eq!(&actual, &expected);
        prop_assert_eq!(fmt::format_text(&actual).expect("the output is valid"), actual);
    }
}
