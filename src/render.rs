//! Diagnostics as people and programs read them. This is the edge where the
//! plain values of `analysis` become text: rustc-style text and JSON lines
//! here, SARIF in `sarif.rs`.

use annotate_snippets::{AnnotationKind, Group, Level, Patch, Renderer, Snippet};
use halite::host::{Diagnostic, LineCol, LocatedDiagnostic, RootDatabase, Severity};
use serde::Serialize;
use syntax::{TextRange, TextSize};

/// rustc-style text: the message, the file, line and column, the source
/// lines with carets under the range, then the notes.
pub(crate) struct Human {
    renderer: Renderer,
}

impl Human {
    pub(crate) fn new(color: bool) -> Human {
        Human { renderer: if color { Renderer::styled() } else { Renderer::plain() } }
    }

    pub(crate) fn render(&self, db: &RootDatabase, diagnostic: &Diagnostic) -> String {
        let file = diagnostic.file;
        let text: &str = file.text(db);
        let path = file.path(db).as_str();
        let level = match diagnostic.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };

        let mut snippet = Snippet::source(text).path(path).annotation(
            AnnotationKind::Primary.span(span(text, diagnostic.range)).label(diagnostic.label.as_deref()),
        );
        for label in &diagnostic.labels {
            snippet = snippet.annotation(
                AnnotationKind::Context.span(span(text, label.range)).label(label.message.as_str()),
            );
        }
        let mut group = level.primary_title(diagnostic.message.as_str()).id(diagnostic.code).element(snippet);
        for note in &diagnostic.notes {
            group = group.element(Level::NOTE.message(note.as_str()));
        }

        let mut report: Vec<Group<'_>> = vec![group];
        for suggestion in &diagnostic.suggestions {
            let patches = suggestion
                .edits
                .iter()
                .map(|edit| Patch::new(span(text, edit.range), edit.replacement.as_str()));
            report.push(
                Level::HELP
                    .secondary_title(suggestion.message.as_str())
                    .element(Snippet::source(text).path(path).patches(patches)),
            );
        }
        self.renderer.render(&report)
    }
}

/// A range as a span of `text`. A range past the end (the bad bytes of a
/// file that is not UTF-8, whose text stops before them) is shown at the end,
/// where the text stops.
fn span(text: &str, range: TextRange) -> std::ops::Range<usize> {
    let len = TextSize::try_from(text.len()).unwrap_or(TextSize::from(u32::MAX));
    usize::from(range.start().min(len))..usize::from(range.end().min(len))
}

/// One diagnostic as one line of JSON, at the lines and columns it was
/// found at.
pub(crate) fn json(located: &LocatedDiagnostic) -> String {
    let diagnostic = &located.diagnostic;
    let position = |offset: TextSize, line_col: LineCol| Position {
        line: line_col.line,
        column: line_col.column,
        byte: offset.into(),
    };
    let mut edit_positions = located.edits.iter();
    let detail = (!diagnostic.notes.is_empty()).then(|| diagnostic.notes.join("\n"));
    let json = JsonDiagnostic {
        file: located.path.as_str(),
        severity: diagnostic.severity.as_str(),
        code: diagnostic.code,
        message: &diagnostic.message,
        detail: detail.as_deref(),
        start: position(diagnostic.range.start(), located.start),
        end: position(diagnostic.range.end(), located.end),
        suggestions: diagnostic
            .suggestions
            .iter()
            .map(|suggestion| JsonSuggestion {
                message: &suggestion.message,
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
    // Serializing plain strings and numbers cannot fail.
    serde_json::to_string(&json).unwrap_or_default()
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    file: &'a str,
    severity: &'a str,
    code: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'a str>,
    start: Position,
    end: Position,
    /// Fixes, each a set of edits to make together; left out when there
    /// are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suggestions: Vec<JsonSuggestion<'a>>,
}

#[derive(Serialize)]
struct JsonSuggestion<'a> {
    message: &'a str,
    edits: Vec<JsonEdit<'a>>,
}

/// Replace the text from `start` to `end` with `replacement`.
#[derive(Serialize)]
struct JsonEdit<'a> {
    start: Position,
    end: Position,
    replacement: &'a str,
}

#[derive(Serialize)]
struct Position {
    /// 1-based.
    line: u32,
    /// 1-based, in Unicode scalar values.
    column: u32,
    /// 0-based.
    byte: u32,
}

#[cfg(test)]
mod tests {
    use analysis::{Edit, Suggestion};
    use expect_test::expect;

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

    #[test]
    fn human_shows_labels_notes_and_suggestions() {
        let mut db = RootDatabase::new();
        let text = "allowed = [\"a\" \"b\"]\nname = \"é\"";
        let file = db.set_file_text("main.tf", text);
        let diagnostic =
            Diagnostic::error("missing-separator", "Missing item separator", file, range(15, 16))
                .with_label("expected a comma here")
                .with_secondary_label(range(10, 11), "in this list")
                .with_note("Items of a list are separated by commas.")
                .with_suggestion(Suggestion {
                    message: "add a comma".to_owned(),
                    edits: vec![Edit { range: range(14, 14), replacement: ",".to_owned() }],
                });
        expect![[r#"
            error[missing-separator]: Missing item separator
             --> main.tf:1:16
              |
            1 | allowed = ["a" "b"]
              |           -    ^ expected a comma here
              |           |
              |           in this list
              |
              = note: Items of a list are separated by commas.
            help: add a comma
              |
            1 | allowed = ["a", "b"]
              |               +"#]]
        .assert_eq(&Human::new(false).render(&db, &diagnostic));
    }

    #[test]
    fn human_points_at_the_end_of_a_file_without_a_final_newline() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "block {\n  a = 1");
        let diagnostic =
            Diagnostic::warning("unclosed-block", "Unclosed configuration block", file, range(15, 15));
        expect![[r#"
            warning[unclosed-block]: Unclosed configuration block
             --> main.tf:2:8
              |
            2 |   a = 1
              |        ^"#]]
        .assert_eq(&Human::new(false).render(&db, &diagnostic));
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
        expect![[r#"{"file":"main.tf","severity":"warning","code":"attribute-splat","message":"Attribute-only splat","start":{"line":1,"column":6,"byte":5},"end":{"line":1,"column":8,"byte":7},"suggestions":[{"message":"use the full splat","edits":[{"start":{"line":1,"column":5,"byte":4},"end":{"line":1,"column":5,"byte":4},"replacement":"("},{"start":{"line":1,"column":6,"byte":5},"end":{"line":1,"column":8,"byte":7},"replacement":"[*]"},{"start":{"line":1,"column":10,"byte":9},"end":{"line":1,"column":10,"byte":9},"replacement":")"}]}]}"#]]
        .assert_eq(&json(&located(&db, diagnostic)));
    }
}
