//! Diagnostics as people and programs read them. This is the edge where the
//! plain values of `analysis` become text: the formats of one line per
//! diagnostic here (JSON lines, concise lines, GitHub's workflow commands)
//! and the fingerprint every format that has one shares; SARIF in
//! `sarif.rs`, GitLab's Code Quality report in `gitlab.rs`, Checkstyle and
//! JUnit XML in `xml.rs`; and rustc-style text through `analysis::render`,
//! which the library renders its decoding errors with too.

use std::collections::HashMap;

pub(crate) use halite::host::render::Human;
use halite::host::{LineCol, LocatedDiagnostic, Severity};
use sha2::{Digest, Sha256};
use syntax::TextSize;

use crate::repository::SourceRoot;

/// One diagnostic as one line: `path:line:col: severity[code] message`,
/// as compilers print them for editors and `grep`.
pub(crate) fn concise(located: &LocatedDiagnostic) -> String {
    let diagnostic = &located.diagnostic;
    format!(
        "{}:{}:{}: {}[{}] {}",
        located.path,
        located.start.line,
        located.start.column,
        diagnostic.severity.as_str(),
        diagnostic.code,
        headline(diagnostic)
    )
}

/// A diagnostic in one line for the formats that show no more (concise,
/// GitLab's `description`, Checkstyle's `message`): its message, then,
/// where the notes say what it is about
/// ([`analysis::rules::notes_name_the_subject`]), the first sentence of
/// its first note (`Reference to undeclared input variable: An input
/// variable with the name "q" has not been declared.`), so that two
/// problems of a kind on one line are told apart.
pub(crate) fn headline(diagnostic: &halite::host::Diagnostic) -> String {
    let message = one_line(&diagnostic.message);
    let note = diagnostic.notes.first().filter(|_| analysis::rules::notes_name_the_subject(diagnostic.code));
    match note {
        Some(note) => {
            let note = one_line(note);
            format!("{message}: {}", first_sentence(&note))
        }
        None => message,
    }
}

/// The first sentence of `text`: up to a `.` followed by a space and a
/// capital letter (a path `.` or a name with dots ends none).
fn first_sentence(text: &str) -> &str {
    let ends = text.match_indices(". ").map(|(at, _)| at);
    for end in ends {
        if text[end + 2..].starts_with(|it: char| it.is_uppercase()) {
            return &text[..=end];
        }
    }
    text
}

/// One diagnostic as a GitHub Actions workflow command, which the runner
/// turns into an annotation on the file's line: `::error file=…,line=…,
/// col=…,endLine=…,endColumn=…,title=…::message`, the file relative to the
/// repository's root as GitHub names it. The message carries the notes
/// after a blank line; properties and message are escaped as the runner
/// unescapes them.
pub(crate) fn github(located: &LocatedDiagnostic, root: &SourceRoot) -> String {
    let diagnostic = &located.diagnostic;
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    format!(
        "::{command} file={},line={},col={},endLine={},endColumn={},title={}::{}",
        github_property(root.relative(&located.path).as_str()),
        located.start.line,
        located.start.column,
        located.end.line,
        located.end.column,
        github_property(&format!("halite {}", diagnostic.code)),
        github_data(&message_with_notes(located)),
    )
}

/// A workflow command's message: `%`, carriage returns and line feeds
/// percent-encoded, as the runner decodes them.
fn github_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: its message's escapes, and `:` and
/// `,`, which would otherwise end the value.
fn github_property(text: &str) -> String {
    github_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// The message, then each note after a blank line: the whole of what a
/// diagnostic says, for the formats that have one text field for it.
pub(crate) fn message_with_notes(located: &LocatedDiagnostic) -> String {
    let mut text = located.diagnostic.message.clone();
    for note in &located.diagnostic.notes {
        text.push_str("\n\n");
        text.push_str(note);
    }
    text
}

/// A message on one line: a line break becomes a space, so that one
/// diagnostic stays one line for the tools that read lines.
fn one_line(text: &str) -> String {
    text.replace("\r\n", " ").replace(['\r', '\n'], " ")
}

/// A fingerprint of each of a file's diagnostics, in their order: a hash of
/// the file's path (relative to the repository's root, so that it does
/// not change with the directory the check ran in), the code, the message
/// and the notes (which name what the problem is about), and of how many
/// identical diagnostics came before it in the file, so that two are never
/// the same. It depends on nothing of the run (not the time, not the other
/// files) and not on where in the file the problem is, so a service that
/// compares two runs' reports (GitLab's Code Quality, a SARIF consumer)
/// sees the same problem as the same after lines are added or removed
/// above it. 32 hexadecimal digits: the first 128 bits of a SHA-256.
pub(crate) fn fingerprints(diagnostics: &[LocatedDiagnostic], root: &SourceRoot) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    diagnostics
        .iter()
        .map(|located| {
            let diagnostic = &located.diagnostic;
            let key = format!(
                "{}\0{}\0{}\0{}",
                root.relative(&located.path),
                diagnostic.code,
                diagnostic.message,
                diagnostic.notes.join("\0"),
            );
            let occurrence = seen.entry(key.clone()).or_insert(0);
            let hash = Sha256::digest(format!("{key}\0{occurrence}").as_bytes());
            *occurrence += 1;
            hash[..16].iter().map(|byte| format!("{byte:02x}")).collect()
        })
        .collect()
}

/// One diagnostic as one line of JSON, at the lines and columns it was
/// found at.
pub(crate) fn json(located: &LocatedDiagnostic) -> String {
    let mut out = String::new();
    json_into(located, &mut out);
    out
}

/// [`json`], added to `out`: written by hand, as `serde_json` writes the
/// same fields (the tests hold the two to the same bytes), straight into
/// `out`. Serialized through `serde_json` into a buffer, then checked as
/// UTF-8 and copied, it was a third of what a warm run reported from the
/// cache spent on each diagnostic.
pub(crate) fn json_into(located: &LocatedDiagnostic, out: &mut String) {
    let diagnostic = &located.diagnostic;
    out.push_str("{\"file\":");
    json_string(located.path.as_str(), out);
    out.push_str(",\"severity\":");
    json_string(diagnostic.severity.as_str(), out);
    out.push_str(",\"code\":");
    json_string(diagnostic.code, out);
    out.push_str(",\"message\":");
    json_string(&diagnostic.message, out);
    if !diagnostic.notes.is_empty() {
        // The notes, one per line: each escaped, joined by an escaped
        // line feed.
        out.push_str(",\"detail\":\"");
        for (at, note) in diagnostic.notes.iter().enumerate() {
            if at > 0 {
                out.push_str("\\n");
            }
            json_string_body(note, out);
        }
        out.push('"');
    }
    out.push_str(",\"start\":");
    json_position(diagnostic.range.start(), located.start, out);
    out.push_str(",\"end\":");
    json_position(diagnostic.range.end(), located.end, out);
    if !diagnostic.suggestions.is_empty() {
        let mut edit_positions = located.edits.iter();
        let applicability = analysis::applicability(diagnostic.code).as_str();
        out.push_str(",\"suggestions\":[");
        for (at, suggestion) in diagnostic.suggestions.iter().enumerate() {
            if at > 0 {
                out.push(',');
            }
            out.push_str("{\"message\":");
            json_string(&suggestion.message, out);
            out.push_str(",\"applicability\":");
            json_string(applicability, out);
            out.push_str(",\"edits\":[");
            for (at, edit) in suggestion.edits.iter().enumerate() {
                if at > 0 {
                    out.push(',');
                }
                let (start, end) = edit_positions.next().copied().unwrap_or_default();
                out.push_str("{\"start\":");
                json_position(edit.range.start(), start, out);
                out.push_str(",\"end\":");
                json_position(edit.range.end(), end, out);
                out.push_str(",\"replacement\":");
                json_string(&edit.replacement, out);
                out.push('}');
            }
            out.push_str("]}");
        }
        out.push(']');
    }
    out.push('}');
}

/// `{"line":L,"column":C,"byte":B}`: lines and columns 1-based (columns
/// in Unicode scalar values), bytes 0-based.
fn json_position(offset: TextSize, line_col: LineCol, out: &mut String) {
    out.push_str("{\"line\":");
    push_number(line_col.line, out);
    out.push_str(",\"column\":");
    push_number(line_col.column, out);
    out.push_str(",\"byte\":");
    push_number(offset.into(), out);
    out.push('}');
}

/// The decimal digits of `number`.
fn push_number(number: u32, out: &mut String) {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = number;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

/// `text` as a JSON string, quoted.
fn json_string(text: &str, out: &mut String) {
    out.push('"');
    json_string_body(text, out);
    out.push('"');
}

/// `text` escaped as `serde_json` escapes a string: a quote and a
/// backslash by a backslash, the control characters below U+0020 by
/// their short escapes where JSON has one, else as `\u00XX` (lower-case
/// hexadecimal); everything else as it is.
fn json_string_body(text: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = text.as_bytes();
    // Most texts have nothing to escape: asked of every byte without
    // stopping early, so that it is asked of many at once.
    let escapes =
        bytes.iter().fold(false, |escapes, &byte| escapes | (byte < 0x20) | (byte == b'"') | (byte == b'\\'));
    if !escapes {
        out.push_str(text);
        return;
    }
    let mut plain_from = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0x00..=0x1f => "",
            _ => continue,
        };
        // Cut only before an ASCII byte: a character boundary.
        out.push_str(&text[plain_from..at]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push_str(escape);
        }
        plain_from = at + 1;
    }
    out.push_str(&text[plain_from..]);
}

#[cfg(test)]
mod tests {
    use analysis::{Edit, Suggestion};
    use expect_test::expect;
    use halite::host::{Diagnostic, RootDatabase};
    use syntax::TextRange;

    use super::*;

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(start.into(), end.into())
    }

    /// `diagnostic` with its positions, as the host reports it.
    fn located(db: &RootDatabase, diagnostic: Diagnostic) -> LocatedDiagnostic {
        let index = analysis::line_index(db, diagnostic.file);
        let edits = diagnostic
            .suggestions
            .iter()
            .flat_map(|it| &it.edits)
            .map(|edit| (index.line_col(edit.range.start()), index.line_col(edit.range.end())))
            .collect();
        LocatedDiagnostic {
            path: diagnostic.file.path(db).clone(),
            start: index.line_col(diagnostic.range.start()),
            end: index.line_col(diagnostic.range.end()),
            edits,
            diagnostic,
        }
    }

    /// `%`, line breaks, and in properties `:` and `,`, are what the runner
    /// unescapes; anything else it would read as the end of a value.
    #[test]
    fn github_escapes_as_the_runner_unescapes() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("dir,1/a:b%.tf", "a = 1\n");
        let diagnostic = Diagnostic::error("bad", "100% wrong:\r\nreally, yes", file, range(0, 1))
            .with_note("Notes: after, a blank line.");
        expect!["::error file=dir%2C1/a%3Ab%25.tf,line=1,col=1,endLine=1,endColumn=2,title=halite bad::100%25 wrong:%0D%0Areally, yes%0A%0ANotes: after, a blank line."]
        .assert_eq(&github(&located(&db, diagnostic), &SourceRoot::fixed("/repo", "/repo")));
    }

    #[test]
    fn concise_is_one_line() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "a = 1\nb = 2\n");
        let diagnostic = Diagnostic::warning("odd", "two\nlines", file, range(6, 7)).with_note("not shown");
        expect!["main.tf:2:1: warning[odd] two lines"].assert_eq(&concise(&located(&db, diagnostic)));
    }

    /// A headline ends its note at its first sentence, not at a path `.`.
    #[test]
    fn a_first_sentence_ends_before_a_capital() {
        assert_eq!(
            first_sentence("The module at . declares none. Add one."),
            "The module at . declares none."
        );
        assert_eq!(first_sentence("No \"a.b\" here"), "No \"a.b\" here");
    }

    /// A fingerprint is a function of the diagnostic alone: pinned here, so
    /// that a change to what it hashes (which would make every service see
    /// every problem as new) is a decision, not an accident.
    #[test]
    fn fingerprints_are_stable_and_tell_repeats_apart() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "a = 1\n");
        let diagnostic = Diagnostic::error("bad", "Bad", file, range(0, 1));
        let located = located(&db, diagnostic);
        let root = SourceRoot::fixed("/repo", "/repo");
        let twice = fingerprints(&[located.clone(), located.clone()], &root);
        expect![[r#"
            [
                "6b759bbb61f8ee769c8513bd950ca66d",
                "0a26b90306d148faf40fa19cbfbcfc71",
            ]
        "#]]
        .assert_debug_eq(&twice);
        assert_ne!(twice[0], twice[1]);
        assert_eq!(fingerprints(std::slice::from_ref(&located), &root)[0], twice[0]);
        // Run from another directory of the repository, the same file has
        // the same fingerprint.
        let mut moved = located.clone();
        moved.path = "../main.tf".into();
        assert_eq!(fingerprints(&[moved], &SourceRoot::fixed("/repo/sub", "/repo"))[0], twice[0]);
        // Lines added above it move it, and leave its fingerprint.
        let file = db.set_file_text("main.tf", "# added\n\na = 1\n");
        let shifted = self::located(&db, Diagnostic::error("bad", "Bad", file, range(9, 10)));
        assert_ne!(shifted.start, located.start);
        assert_eq!(fingerprints(&[shifted], &root)[0], twice[0]);
        // What the notes say of the problem (the name it is about) tells
        // two problems of one kind apart.
        let named = |name: &str| {
            let diagnostic = Diagnostic::error("bad", "Bad", file, range(9, 10)).with_note(name);
            self::located(&db, diagnostic)
        };
        assert_ne!(fingerprints(&[named("a")], &root), fingerprints(&[named("b")], &root));
    }

    #[test]
    fn json_counts_columns_in_scalar_values_and_bytes_from_zero() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "a = 1\r\nname = \"é\" x\r\n");
        let diagnostic =
            Diagnostic::error("extra-token", "Extra characters after the value", file, range(19, 20));
        expect![[r#"{"file":"main.tf","severity":"error","code":"extra-token","message":"Extra characters after the value","start":{"line":2,"column":12,"byte":19},"end":{"line":2,"column":13,"byte":20}}"#]]
        .assert_eq(&json(&located(&db, diagnostic)));
    }

    #[test]
    fn json_lists_suggestions_with_their_edits() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text(
            "main.tf",
            "v = a.*.b[0]
",
        );
        let diagnostic = Diagnostic::warning("attribute-splat", "Attribute-only splat", file, range(5, 7))
            .with_suggestion(Suggestion {
                message: "use the full splat".to_owned(),
                edits: vec![
                    Edit { range: range(4, 4), replacement: "(".to_owned() },
                    Edit { range: range(5, 7), replacement: "[*]".to_owned() },
                    Edit { range: range(9, 9), replacement: ")".to_owned() },
                ],
            });
        expect![[r#"{"file":"main.tf","severity":"warning","code":"attribute-splat","message":"Attribute-only splat","start":{"line":1,"column":6,"byte":5},"end":{"line":1,"column":8,"byte":7},"suggestions":[{"message":"use the full splat","applicability":"safe","edits":[{"start":{"line":1,"column":5,"byte":4},"end":{"line":1,"column":5,"byte":4},"replacement":"("},{"start":{"line":1,"column":6,"byte":5},"end":{"line":1,"column":8,"byte":7},"replacement":"[*]"},{"start":{"line":1,"column":10,"byte":9},"end":{"line":1,"column":10,"byte":9},"replacement":")"}]}]}"#]]
        .assert_eq(&json(&located(&db, diagnostic)));
    }

    /// The JSON form as `serde_json` writes it, which the hand-written
    /// [`json_into`] must match byte for byte.
    fn json_by_serde(located: &LocatedDiagnostic) -> String {
        #[derive(serde::Serialize)]
        struct JsonDiagnostic<'a> {
            file: &'a str,
            severity: &'a str,
            code: &'a str,
            message: &'a str,
            #[serde(skip_serializing_if = "Option::is_none")]
            detail: Option<String>,
            start: Position,
            end: Position,
            #[serde(skip_serializing_if = "Vec::is_empty")]
            suggestions: Vec<JsonSuggestion<'a>>,
        }
        #[derive(serde::Serialize)]
        struct JsonSuggestion<'a> {
            message: &'a str,
            applicability: &'static str,
            edits: Vec<JsonEdit<'a>>,
        }
        #[derive(serde::Serialize)]
        struct JsonEdit<'a> {
            start: Position,
            end: Position,
            replacement: &'a str,
        }
        #[derive(serde::Serialize)]
        struct Position {
            line: u32,
            column: u32,
            byte: u32,
        }
        let diagnostic = &located.diagnostic;
        let position = |offset: TextSize, line_col: LineCol| Position {
            line: line_col.line,
            column: line_col.column,
            byte: offset.into(),
        };
        let mut edit_positions = located.edits.iter();
        let json = JsonDiagnostic {
            file: located.path.as_str(),
            severity: diagnostic.severity.as_str(),
            code: diagnostic.code,
            message: &diagnostic.message,
            detail: (!diagnostic.notes.is_empty()).then(|| diagnostic.notes.join("\n")),
            start: position(diagnostic.range.start(), located.start),
            end: position(diagnostic.range.end(), located.end),
            suggestions: diagnostic
                .suggestions
                .iter()
                .map(|suggestion| JsonSuggestion {
                    message: &suggestion.message,
                    applicability: analysis::applicability(diagnostic.code).as_str(),
                    edits: suggestion
                        .edits
                        .iter()
                        .map(|edit| {
                            let (start, end) = edit_positions.next().copied().unwrap_or_default();
                            JsonEdit {
                                start: position(edit.range.start(), start),
                                end: position(edit.range.end(), end),
                                replacement: &edit.replacement,
                            }
                        })
                        .collect(),
                })
                .collect(),
        };
        serde_json::to_string(&json).expect("serializable")
    }

    #[test]
    fn json_is_written_as_serde_json_writes_it() {
        // Every character JSON escapes, and some it does not.
        let awkward: String = (0u8..0x20).map(char::from).collect::<String>()
            + "\"quoted\" back\\slash /slash \u{7f} é 漢 🦀 \u{2028} \\u0041";
        let mut db = RootDatabase::new();
        let text = "v = a.*.b[0]\nw = \"é\"\n".repeat(1000);
        let file = db.set_file_text("dir/ma\"in \\ é.tf", text.as_str());
        let long = u32::try_from(text.len()).expect("a short text") - 1;
        let diagnostics = [
            Diagnostic::error("extra-token", awkward.clone(), file, range(0, 0)),
            Diagnostic::warning("attribute-splat", "Attribute-only splat", file, range(5, 7))
                .with_note(awkward.clone())
                .with_note("")
                .with_note("second\nline")
                .with_suggestion(Suggestion { message: awkward.clone(), edits: Vec::new() })
                .with_suggestion(Suggestion {
                    message: "two".to_owned(),
                    edits: vec![
                        Edit { range: range(4, 4), replacement: awkward.clone() },
                        Edit { range: range(long, long + 1), replacement: String::new() },
                    ],
                }),
            Diagnostic::error("undeclared-reference", "", file, range(1234, long)).with_note("one"),
        ];
        for diagnostic in diagnostics {
            let located = located(&db, diagnostic);
            let mut written = String::from("before");
            json_into(&located, &mut written);
            assert_eq!(written, format!("before{}", json_by_serde(&located)));
        }
    }
}
