//! Diagnostics as people read them: rustc-style text, the message, the
//! file, line and column, the source lines with the range underlined, then
//! the notes and suggestions. The command line prints it; the library
//! renders its decoding errors with it, so that they look like every other
//! diagnostic.

use annotate_snippets::{AnnotationKind, Group, Level, Origin, Patch, Renderer, Snippet};
use db::RootDatabase;
use syntax::{TextRange, TextSize};

use crate::{Diagnostic, LineCol, LineIndex, Severity};

/// rustc-style text: the message, the file, line and column, the source
/// lines with carets under the range, then the notes.
///
/// ```
/// use analysis::{Diagnostic, render::Human};
///
/// let mut db = db::RootDatabase::new();
/// let file = db.set_file_text("main.tf", "a = = 1\n");
/// let diagnostic = Diagnostic::error("bad", "Invalid expression", file, syntax::TextRange::new(4.into(), 5.into()));
/// assert!(Human::new(false).render(&db, &diagnostic).starts_with("error[bad]: Invalid expression\n --> main.tf:1:5"));
/// ```
///
/// Only the lines a diagnostic points at are handed to the renderer (found
/// with the file's line index, which the database builds once per file),
/// so that a diagnostic costs what its lines cost, not what the file does:
/// a file of twenty thousand errors is rendered in linear time. A line too
/// long to show whole (a minified file, a megabyte of NUL bytes) is cut to
/// a window around the range.
pub struct Human {
    renderer: Renderer,
}

/// How much of a long line is kept on each side of what a diagnostic
/// points at, in characters. The renderer shows less still (it fits a
/// terminal's width); this only bounds the work.
const LINE_WINDOW: usize = 256;

impl Human {
    pub fn new(color: bool) -> Human {
        Human { renderer: if color { Renderer::styled() } else { Renderer::plain() } }
    }

    pub fn render(&self, db: &RootDatabase, diagnostic: &Diagnostic) -> String {
        let file = diagnostic.file;
        let text: &str = file.text(db);
        let index = crate::line_index(db, file);
        let path = file.path(db).as_str();
        let level = match diagnostic.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };

        let spans = std::iter::once(diagnostic.range)
            .chain(diagnostic.labels.iter().map(|label| label.range))
            .chain(diagnostic.suggestions.iter().flat_map(|it| &it.edits).map(|edit| edit.range))
            .map(|range| span(text, range));
        let excerpt = Excerpt::new(text, index, spans);

        let mut primary = excerpt.snippet(path).annotation(
            AnnotationKind::Primary
                .span(excerpt.span(text, diagnostic.range))
                .label(diagnostic.label.as_deref()),
        );
        for label in &diagnostic.labels {
            primary = primary.annotation(
                AnnotationKind::Context.span(excerpt.span(text, label.range)).label(label.message.as_str()),
            );
        }
        let title = || level.clone().primary_title(diagnostic.message.as_str()).id(diagnostic.code);
        let mut group = Group::with_title(title()).element(primary);
        for note in &diagnostic.notes {
            group = group.element(Level::NOTE.message(note.as_str()));
        }

        let mut report: Vec<Group<'_>> = vec![group];
        for suggestion in &diagnostic.suggestions {
            let patches = suggestion
                .edits
                .iter()
                .map(|edit| Patch::new(excerpt.span(text, edit.range), edit.replacement.as_str()));
            report.push(
                Level::HELP
                    .secondary_title(suggestion.message.as_str())
                    .element(excerpt.snippet(path).patches(patches)),
            );
        }
        let rendered = self.renderer.render(&report);
        if !excerpt.cut {
            return rendered;
        }
        // A window's columns are not its line's, so the snippet is rendered
        // without its path, and the position line, which would have said
        // the window's column, is rendered on its own with the right one
        // and put where it goes: after the title, indented past the line
        // numbers.
        let start = index.line_col(diagnostic.range.start());
        let origin = Origin::path(path).line(start.line as usize).char_column(start.column as usize);
        let heading = self.renderer.render(&[Group::with_title(title()).element(origin)]);
        let (title_lines, origin_line) = heading.rsplit_once('\n').unwrap_or((heading.as_str(), ""));
        let rest = rendered.strip_prefix(title_lines).unwrap_or(&rendered);
        let indent = " ".repeat(excerpt.last_line.to_string().len());
        format!("{title_lines}\n{indent}{origin_line}{rest}")
    }
}

/// The part of a file's text a diagnostic shows: the whole lines its spans
/// touch, or of a line too long to show whole, a window around them.
struct Excerpt<'a> {
    text: &'a str,
    /// Where `text` starts in the file.
    start: usize,
    /// The 1-based numbers of its first and last lines.
    first_line: usize,
    last_line: usize,
    /// Whether a line was cut (its columns are then not the window's).
    cut: bool,
}

impl<'a> Excerpt<'a> {
    fn new(
        text: &'a str,
        index: &LineIndex,
        spans: impl Iterator<Item = std::ops::Range<usize>>,
    ) -> Excerpt<'a> {
        let (low, high) =
            spans.fold((text.len(), 0), |(low, high), span| (low.min(span.start), high.max(span.end)));
        let low = low.min(high);
        let offset = |at: usize| TextSize::try_from(at).unwrap_or(TextSize::from(u32::MAX));
        let first_line = index.line_col(offset(low)).line;
        let last_line = index.line_col(offset(high)).line;
        let line_start = |line: u32| index.offset(LineCol { line, column: 1 }).map(usize::from);
        let mut start = line_start(first_line).unwrap_or(0);
        // The last line's newline too, as the whole text would have it.
        let mut end = line_start(last_line.saturating_add(1)).unwrap_or(text.len());
        // Counted in characters: a window wider than a terminal is always
        // shortened further by the renderer, which then marks the cut.
        let mut cut = false;
        if let Some((at, _)) = text[start..low].char_indices().nth_back(LINE_WINDOW - 1) {
            start += at;
            cut = true;
        }
        if let Some((at, _)) = text[high..end].char_indices().nth(LINE_WINDOW) {
            end = high + at;
        }
        // A span wider than a window (a whole 50 MB one-line value) is shown
        // from its start: the renderer lays out every character it is given
        // before shortening the line, at tens of bytes each.
        if let Some((at, _)) = text[low..end].char_indices().nth(2 * LINE_WINDOW) {
            end = low + at;
        }
        Excerpt {
            text: &text[start..end],
            start,
            first_line: first_line as usize,
            last_line: last_line as usize,
            cut,
        }
    }

    /// A snippet of the excerpt, named by `path` unless a line was cut.
    fn snippet<T: Clone>(&self, path: &'a str) -> Snippet<'a, T> {
        let snippet = Snippet::source(self.text).line_start(self.first_line);
        if self.cut { snippet } else { snippet.path(path) }
    }

    /// A range of the file as a span of the excerpt.
    fn span(&self, text: &str, range: TextRange) -> std::ops::Range<usize> {
        let span = span(text, range);
        let clamp = |at: usize| at.saturating_sub(self.start).min(self.text.len());
        clamp(span.start)..clamp(span.end)
    }
}

/// A range as a span of `text`. A range past the end (the bad bytes of a
/// file that is not UTF-8, whose text stops before them) is shown at the end,
/// where the text stops.
fn span(text: &str, range: TextRange) -> std::ops::Range<usize> {
    let len = TextSize::try_from(text.len()).unwrap_or(TextSize::from(u32::MAX));
    usize::from(range.start().min(len))..usize::from(range.end().min(len))
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::{Edit, Suggestion};

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(start.into(), end.into())
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
    fn human_shows_only_the_lines_pointed_at_with_their_numbers() {
        let mut db = RootDatabase::new();
        let text = format!("{}b = = 1\nc = 2\n", "a = 1\n".repeat(20_000));
        let file = db.set_file_text("main.tf", text);
        let diagnostic = Diagnostic::error("bad", "Invalid expression", file, range(120_004, 120_005))
            .with_secondary_label(range(120_008, 120_013), "and the next line");
        expect![[r#"
            error[bad]: Invalid expression
                 --> main.tf:20001:5
                  |
            20001 | b = = 1
                  |     ^
            20002 | c = 2
                  | ----- and the next line"#]]
        .assert_eq(&Human::new(false).render(&db, &diagnostic));
    }

    /// The renderer is handed the lines a diagnostic points at, not the
    /// file: it indexes what it is given, and twenty thousand diagnostics
    /// of a twenty-thousand-line file each indexing all of it took minutes.
    #[test]
    fn an_excerpt_holds_only_the_lines_pointed_at() {
        let text = format!("{}b = = 1\nc = 2\n", "a = 1\n".repeat(20_000));
        let index = LineIndex::new(&text);
        let excerpt = Excerpt::new(&text, &index, std::iter::once(120_004..120_005));
        assert_eq!(
            (excerpt.text, excerpt.start, excerpt.first_line, excerpt.cut),
            ("b = = 1\n", 120_000, 20_001, false)
        );
        let excerpt = Excerpt::new(&text, &index, [120_004..120_005, 120_008..120_013].into_iter());
        assert_eq!(excerpt.text, "b = = 1\nc = 2\n");
        let long = format!("a = [{}]", "1, ".repeat(10_000));
        let excerpt = Excerpt::new(&long, &LineIndex::new(&long), std::iter::once(20_000..20_001));
        assert_eq!((excerpt.start, excerpt.text.len(), excerpt.cut), (20_000 - 256, 513, true));
    }

    #[test]
    fn a_span_wider_than_a_window_is_shown_from_its_start() {
        let mut db = RootDatabase::new();
        let text = format!("a = [{}]\n", "1234567, ".repeat(100_000));
        let end = text.len() as u32 - 1;
        let file = db.set_file_text("main.tf", text.clone());
        // The renderer is given a window of the 900 kB line, not all of
        // it, which it would lay out character by character.
        let excerpt = Excerpt::new(&text, crate::line_index(&db, file), std::iter::once(4..end as usize));
        assert_eq!(excerpt.text.len(), 2 * LINE_WINDOW + 4);
        assert!(excerpt.text.starts_with("a = [1234567, "));
        let diagnostic = Diagnostic::error("too-large", "Value too large", file, range(4, end));
        let rendered = Human::new(false).render(&db, &diagnostic);
        assert!(rendered.contains(" --> main.tf:1:5\n"), "{rendered}");
        assert!(rendered.contains("1 | a = [1234567, 1234567,"), "{rendered}");
    }

    #[test]
    fn human_cuts_a_long_line_to_a_window_and_keeps_its_column() {
        let mut db = RootDatabase::new();
        let text = format!("a = \"{}\" = 1\nb = 2\n", "é".repeat(5_000));
        let file = db.set_file_text("main.tf", text);
        // The second `=`, after 5,000 two-byte characters.
        let diagnostic = Diagnostic::error("extra-token", "Extra characters", file, range(10_007, 10_008))
            .with_note("One value per attribute.");
        expect![[r#"
            error[extra-token]: Extra characters
             --> main.tf:1:5008
              |
            1 | ...éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé" = 1
              |                                                                    ^
              |
              = note: One value per attribute."#]]
        .assert_eq(&Human::new(false).render(&db, &diagnostic));
    }
}
