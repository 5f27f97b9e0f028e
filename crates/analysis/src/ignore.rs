//! `# halite-ignore: CODE, CODE` comments, which silence rules on one line.
//!
//! A comment alone on its line applies to the next line; a comment after
//! code applies to its own line. A diagnostic is on the line where its
//! range starts. Both `#` and `//` comments are read; block comments are
//! not, since a comment that spans lines has no one line to apply to.
//!
//! The comment must name its codes. A bare `# halite-ignore` silences
//! nothing and is itself reported (`invalid-ignore`): a blanket ignore would
//! also hide every problem found on that line later, by rules that did not
//! exist when it was written. A code that is not a rule is reported too,
//! since a misspelt code silences nothing. Syntax errors cannot be ignored:
//! a file that does not parse is broken whatever a comment says.

use db::{Db, File};
use syntax::{SyntaxKind, TextRange, TextSize};

use crate::{Diagnostic, Edit, LineIndex, Suggestion, rules};

/// The marker that makes a comment an ignore comment.
const MARKER: &str = "halite-ignore";

/// The ignore comments of a file: which codes are silenced on which lines.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Ignores {
    /// A line (1-based) and a code silenced on it.
    silenced: Vec<(u32, &'static str)>,
    /// Comments that do not say what they mean to.
    pub(crate) problems: Vec<Diagnostic>,
}

impl Ignores {
    /// Whether no comment silences anything: then there is no need for line
    /// numbers at all.
    pub(crate) fn silences_nothing(&self) -> bool {
        self.silenced.is_empty()
    }

    /// Whether a comment silences `diagnostic`'s code on its first line.
    pub(crate) fn silences(&self, index: &LineIndex, diagnostic: &Diagnostic) -> bool {
        if self.silenced.is_empty() {
            return false;
        }
        let line = index.line_col(diagnostic.range.start()).line;
        self.silenced.iter().any(|&(silenced_line, code)| silenced_line == line && code == diagnostic.code)
    }
}

/// Reads the ignore comments of a native-syntax file.
pub(crate) fn ignores(db: &dyn Db, file: File) -> Ignores {
    let text = file.text(db);
    let mut ignores = Ignores::default();
    // Nearly no file has one; this keeps the walk over every token for the
    // few that do.
    if !text.contains(MARKER) {
        return ignores;
    }
    let index = crate::line_index(db, file);
    let root = db::parse(db, file).syntax_node();
    for token in root.descendants_with_tokens().filter_map(|it| it.into_token()) {
        if token.kind() != SyntaxKind::COMMENT {
            continue;
        }
        let comment = token.text();
        let Some(body) = comment.strip_prefix('#').or_else(|| comment.strip_prefix("//")) else {
            continue;
        };
        let Some(rest) = body.trim_start().strip_prefix(MARKER) else { continue };
        let range = token.text_range();
        let start = range.start();
        let line = index.line_col(start).line;
        let alone_on_its_line = text[line_start(text, start)..usize::from(start)].trim().is_empty();
        let target = if alone_on_its_line { line + 1 } else { line };

        // `codes` stays a suffix of `comment` (nothing is trimmed off its
        // end), so that its length says where it starts.
        let Some(codes) = rest.trim_start().strip_prefix(':') else {
            // `# halite-ignored` or `# halite-ignore-next` are other words,
            // not ignore comments; only `halite-ignore` alone is a mistake.
            if rest.trim().is_empty() {
                ignores.problems.push(
                    Diagnostic::warning(
                        rules::INVALID_IGNORE,
                        "This ignore comment names no rules",
                        file,
                        range,
                    )
                    .with_note(
                        "Name the codes to silence, as in `# halite-ignore: interpolation-only`; \
                         an ignore comment without codes silences nothing.",
                    ),
                );
            }
            continue;
        };
        let mut offset = usize::from(start) + (comment.len() - codes.len());
        let mut named_any = false;
        for code in codes.split(',') {
            let code_start = offset + (code.len() - code.trim_start().len());
            offset += code.len() + 1;
            let code = code.trim();
            if code.is_empty() {
                continue;
            }
            named_any = true;
            match rules::rule(code) {
                Some(rule) => ignores.silenced.push((target, rule.code)),
                None => {
                    let code_range = TextRange::at(text_size(code_start), text_size(code.len()));
                    let mut problem = Diagnostic::warning(
                        rules::INVALID_IGNORE,
                        format!("`{code}` is not a rule that can be ignored"),
                        file,
                        code_range,
                    );
                    problem = match rules::similar_rule(code) {
                        Some(rule) => problem.with_suggestion(Suggestion {
                            message: format!("did you mean `{}`?", rule.code),
                            edits: vec![Edit { range: code_range, replacement: rule.code.to_owned() }],
                        }),
                        None => problem.with_note(format!(
                            "The rules are: {}. Syntax errors cannot be ignored.",
                            rules::RULES.iter().map(|rule| rule.code).collect::<Vec<_>>().join(", ")
                        )),
                    };
                    ignores.problems.push(problem);
                }
            }
        }
        if !named_any {
            ignores.problems.push(
                Diagnostic::warning(rules::INVALID_IGNORE, "This ignore comment names no rules", file, range)
                    .with_note("List the codes after the colon, separated by commas."),
            );
        }
    }
    ignores
}

/// The offset of the start of the line holding `offset`.
fn line_start(text: &str, offset: TextSize) -> usize {
    let offset = usize::from(offset).min(text.len());
    text[..offset].rfind('\n').map_or(0, |newline| newline + 1)
}

/// Offsets within a file's text fit in `TextSize`, since the tree does.
fn text_size(offset: usize) -> TextSize {
    TextSize::try_from(offset).unwrap_or(TextSize::from(u32::MAX))
}

#[cfg(test)]
mod tests {
    use db::RootDatabase;

    use super::*;

    /// The ranges of unknown codes are exact whatever the spacing around
    /// them, trailing whitespace included.
    #[test]
    fn code_ranges_survive_odd_spacing() {
        let mut db = RootDatabase::new();
        let text = "a = 1 #halite-ignore :  nope ,legacy-index,  other   \n";
        let file = db.set_file_text("main.tf", text);
        let ignores = ignores(&db, file);
        let named: Vec<&str> = ignores
            .problems
            .iter()
            .map(|problem| &text[usize::from(problem.range.start())..usize::from(problem.range.end())])
            .collect();
        assert_eq!(named, ["nope", "other"]);
        assert_eq!(ignores.silenced, [(1, rules::LEGACY_INDEX)]);
    }
}
