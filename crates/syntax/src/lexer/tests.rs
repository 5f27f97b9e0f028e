//! Lexer tests: data-driven token dumps under `test-data/lexer/`, and
//! exhaustive and corpus-wide checks of the invariants every token stream
//! must keep (losslessness, no empty tokens, errors in order and in range).

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use expect_test::expect_file;

use super::{LexedStr, lex};
use crate::SyntaxKind::{self, *};

fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One line a token (`KIND start..end "text"`), then one line an error.
fn dump(lexed: &LexedStr<'_>) -> String {
    let mut out = String::new();
    for i in 0..lexed.len() {
        let range = lexed.text_range(i);
        let _ = writeln!(
            out,
            "{:?} {}..{} {:?}",
            lexed.kind(i),
            u32::from(range.start()),
            u32::from(range.end()),
            lexed.text(i)
        );
    }
    for error in lexed.errors() {
        let _ = write!(
            out,
            "error {}..{} {}: {}",
            u32::from(error.range.start()),
            u32::from(error.range.end()),
            error.code,
            error.message
        );
        if let Some(detail) = &error.detail {
            let _ = write!(out, " ({detail})");
        }
        out.push('\n');
    }
    out
}

/// Checks what must hold for every input, with `what` naming the input in
/// failure messages.
fn check_invariants<'a>(text: &'a str, what: &str) -> LexedStr<'a> {
    let lexed = lex(text);
    let mut rebuilt = String::with_capacity(text.len());
    let mut prev_end = 0u32;
    for i in 0..lexed.len() {
        let range = lexed.text_range(i);
        assert_eq!(
            u32::from(range.start()),
            prev_end,
            "token {i} does not start where the last ended in {what}"
        );
        assert!(!range.is_empty(), "token {i} ({:?}) is empty in {what}", lexed.kind(i));
        let kind = lexed.kind(i);
        assert!(kind > EOF && kind <= ERROR, "token {i} has the non-token kind {kind:?} in {what}");
        prev_end = range.end().into();
        rebuilt.push_str(lexed.text(i));
    }
    assert_eq!(rebuilt, text, "the tokens of {what} do not add up to it");
    assert_eq!(lexed.kind(lexed.len()), EOF, "past the last token of {what}");
    let mut prev_start = 0u32;
    for error in lexed.errors() {
        let start: u32 = error.range.start().into();
        let end: u32 = error.range.end().into();
        assert!(start >= prev_start, "errors out of source order in {what}: {:?}", lexed.errors());
        assert!(end as usize <= text.len(), "error past the end of {what}: {error:?}");
        assert!(
            text.is_char_boundary(start as usize) && text.is_char_boundary(end as usize),
            "error range splits a character in {what}: {error:?}"
        );
        assert!(!error.message.is_empty() && !error.code.is_empty(), "error without words in {what}");
        prev_start = start;
    }
    lexed
}

#[test]
fn data_driven() {
    let dir = project_root().join("test-data/lexer");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("test-data/lexer is readable")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "hcl"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "expected the lexer cases in {}, found {}", dir.display(), cases.len());
    for case in cases {
        let text = fs::read_to_string(&case).expect("a lexer case is UTF-8");
        let lexed = check_invariants(&text, &case.display().to_string());
        expect_file![case.with_extension("txt")].assert_eq(&dump(&lexed));
    }
}

/// Every string of up to `max_len` pieces from `alphabet`.
fn for_all_strings(alphabet: &[&str], max_len: usize, mut f: impl FnMut(&str)) {
    let mut indices: Vec<usize> = Vec::new();
    let mut text = String::new();
    loop {
        text.clear();
        for &i in &indices {
            text.push_str(alphabet[i]);
        }
        f(&text);
        // Count in base `alphabet.len()`, growing the number of digits when
        // all combinations of the current length are done.
        let mut digit = 0;
        loop {
            if digit == indices.len() {
                if indices.len() == max_len {
                    return;
                }
                indices.push(0);
                break;
            }
            indices[digit] += 1;
            if indices[digit] < alphabet.len() {
                break;
            }
            indices[digit] = 0;
            digit += 1;
        }
    }
}

#[test]
fn all_short_strings_of_tricky_characters() {
    let alphabet =
        ["\"", "$", "%", "{", "}", "~", "<", "\n", "\r", "-", "\\", "a", "E", "#", "/", "*", "é", "\u{feff}"];
    let mut count = 0usize;
    for_all_strings(&alphabet, 5, |text| {
        check_invariants(text, &format!("{text:?}"));
        count += 1;
    });
    assert_eq!(count, (0..=5).map(|n| alphabet.len().pow(n)).sum::<usize>());
}

#[test]
fn all_short_strings_of_tricky_pieces() {
    // Whole constructs as letters, so that heredocs, interpolations and
    // strings nest in every order within a few pieces.
    let alphabet =
        ["<<E\n", "<<-E\r\n", "E\n", "  E", "${", "%{~", "~}", "}", "\"", "\\", "$${", "x", "\n", "/*", "*/"];
    for_all_strings(&alphabet, 5, |text| {
        check_invariants(text, &format!("{text:?}"));
    });
}

#[test]
fn every_prefix_of_the_cases() {
    // Cutting a valid file anywhere (at character boundaries) exercises every
    // unterminated state the lexer can be in.
    let dir = project_root().join("test-data/lexer");
    for entry in fs::read_dir(&dir).expect("test-data/lexer is readable").flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "hcl") {
            continue;
        }
        let text = fs::read_to_string(&path).expect("a lexer case is UTF-8");
        for (cut, _) in text.char_indices() {
            check_invariants(&text[..cut], &format!("{} cut at {cut}", path.display()));
        }
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 200_000;
    let text = "\"${".repeat(depth) + &"}\"".repeat(depth);
    let lexed = check_invariants(&text, "deeply nested templates");
    assert!(lexed.errors().is_empty(), "{:?}", &lexed.errors()[..1]);
    assert_eq!(lexed.len(), 4 * depth);

    let text = "a = <<E\n${".repeat(depth);
    check_invariants(&text, "deeply nested heredocs");

    let text = "{".repeat(depth) + &"[(".repeat(depth);
    check_invariants(&text, "deeply nested brackets");
}

fn kinds(text: &str) -> Vec<SyntaxKind> {
    let lexed = lex(text);
    (0..lexed.len()).map(|i| lexed.kind(i)).collect()
}

#[test]
fn strip_markers_only_next_to_the_braces() {
    assert_eq!(
        kinds("\"${~x~}\""),
        [QUOTE, DOLLAR_L_CURLY, TILDE, IDENT, TILDE, R_CURLY, QUOTE],
        "strip markers inside an interpolation"
    );
    assert_eq!(kinds("~ }"), [ERROR, WHITESPACE, R_CURLY], "a `~` away from the brace is an operator");
    assert_eq!(lex("~ }").errors()[0].code, "unsupported-operator");
}

#[test]
fn object_braces_inside_an_interpolation() {
    // The first `}` closes the object, the second the interpolation, and
    // the third is template text again.
    assert_eq!(
        kinds("\"${ {a=1}.a }}\""),
        [
            QUOTE,
            DOLLAR_L_CURLY,
            WHITESPACE,
            L_CURLY,
            IDENT,
            EQ,
            NUMBER,
            R_CURLY,
            DOT,
            IDENT,
            WHITESPACE,
            R_CURLY,
            TEMPLATE_TEXT,
            QUOTE
        ]
    );
}

#[test]
fn go_quoting_of_escape_selectors() {
    let detail = |text: &str| lex(text).errors()[0].detail.clone().unwrap_or_default();
    assert_eq!(detail("\"\\q\""), "The symbol \"q\" is not a valid escape sequence selector.");
    assert_eq!(detail("\"\\\t\""), "The symbol \"\\t\" is not a valid escape sequence selector.");
    assert_eq!(detail("\"\\\u{0}\""), "The symbol \"\\x00\" is not a valid escape sequence selector.");
    assert_eq!(detail("\"\\é\""), "The symbol \"é\" is not a valid escape sequence selector.");
    assert_eq!(detail("\"\\\u{a0}\""), "The symbol \"\\u00a0\" is not a valid escape sequence selector.");
    assert_eq!(
        detail("\"\\\u{e0001}\""),
        "The symbol \"\\U000e0001\" is not a valid escape sequence selector."
    );
}

/// Lexes every `.hcl`, `.tf`, `.nomad` and `.tfvars` file under `dir` and
/// checks the invariants, and that a file the reference parses without
/// errors gets no lexical error here. Returns how many files it checked.
fn check_corpus(dir: &Path, manifest: &Path) -> usize {
    let manifest = fs::read_to_string(manifest).expect("the corpus manifest is readable");
    let mut lines = manifest.lines();
    let header = lines.next().unwrap_or_default();
    let column = header.split('\t').position(|name| name == "reference_parses");
    let column = column.expect("the manifest has a reference_parses column");
    let mut checked = 0;
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let (Some(path), Some(&parses)) = (fields.first(), fields.get(column)) else { continue };
        let Ok(bytes) = fs::read(dir.join(path)) else { continue };
        let Ok(text) = std::str::from_utf8(&bytes) else { continue };
        let lexed = check_invariants(text, path);
        if parses == "yes" {
            assert!(
                lexed.errors().is_empty(),
                "{path} parses with the reference, yet lexing it reports {:?}",
                lexed.errors()
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn vendored_corpus() {
    let corpus = project_root().join("test-data/corpus");
    let checked = check_corpus(&corpus.join("input"), &corpus.join("manifest.tsv"));
    assert!(checked > 500, "only {checked} corpus files checked");
}

/// The whole shared corpus, when it is there (it is not part of a clone).
#[test]
#[ignore = "needs ../shared/corpus"]
fn shared_corpus() {
    let corpus = project_root().join("../shared/corpus");
    let checked = check_corpus(&corpus.join("input"), &corpus.join("manifest.tsv"));
    assert!(checked > 7000, "only {checked} corpus files checked");
}
