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
//!
//! TFLint's `# tflint-ignore: RULE, RULE` comments, which modules written
//! for TFLint carry, silence Halite's rules that find what those TFLint
//! rules find (see [`TFLINT_RULES`]; `all` stands for each of them), on
//! the same lines. A TFLint rule Halite has no counterpart of is TFLint's
//! business, and is passed over without a word. TFLint's
//! `# tflint-ignore-file: RULE, RULE` silences them in the whole file; as
//! in TFLint, it counts only as the file's very first text (written
//! anywhere else it is reported, as TFLint reports it). (TFLint reads one
//! in a JSON file's `"//"` property too; none of the rules it could silence
//! there has diagnostics in a JSON file.)

use db::{Db, File};
use syntax::{SyntaxKind, TextRange, TextSize};

use crate::{Diagnostic, Edit, LineIndex, Suggestion, rules};

/// The marker that makes a comment an ignore comment.
const MARKER: &str = "halite-ignore";

/// The marker of TFLint's ignore comments.
const TFLINT_MARKER: &str = "tflint-ignore";

/// The marker of TFLint's comment that ignores rules in a whole file.
const TFLINT_FILE_MARKER: &str = "tflint-ignore-file";

/// TFLint's rules (its Terraform ruleset's) that find what Halite's rules
/// find, with those rules' codes.
pub(crate) const TFLINT_RULES: &[(&str, &[&str])] = &[
    ("terraform_unused_declarations", &[rules::UNUSED_DECLARATION]),
    ("terraform_deprecated_interpolation", &[rules::INTERPOLATION_ONLY]),
    ("terraform_deprecated_index", &[rules::LEGACY_INDEX, rules::ATTRIBUTE_SPLAT]),
];

/// The ignore comments of a file: which codes are silenced on which lines.
#[derive(Debug, Default, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Ignores {
    /// A line (1-based) and a code silenced on it.
    silenced: Vec<(u32, &'static str)>,
    /// The codes silenced in the whole file.
    silenced_in_file: Vec<&'static str>,
    /// Comments that do not say what they mean to.
    pub(crate) problems: Vec<Diagnostic>,
}

impl Ignores {
    /// Whether no comment silences anything: then there is no need for line
    /// numbers at all.
    pub(crate) fn silences_nothing(&self) -> bool {
        self.silenced.is_empty() && self.silenced_in_file.is_empty()
    }

    /// Whether a comment silences `diagnostic`'s code on its first line,
    /// or in the whole file.
    pub(crate) fn silences(&self, index: &LineIndex, diagnostic: &Diagnostic) -> bool {
        if self.silenced_in_file.contains(&diagnostic.code) {
            return true;
        }
        if self.silenced.is_empty() {
            return false;
        }
        let line = index.line_col(diagnostic.range.start()).line;
        self.silenced.iter().any(|&(silenced_line, code)| silenced_line == line && code == diagnostic.code)
    }
}

/// The Halite codes of the TFLint rules a `tflint-ignore` comment names:
/// `names` is what follows its colon, up to where TFLint stops reading
/// (another comment marker, `*` or `/`, or the line's end).
fn tflint_codes(names: &str) -> impl Iterator<Item = &'static str> + '_ {
    let names = names.split(['\n', '*', '/', '#']).next().unwrap_or_default();
    names.split(',').map(str::trim).flat_map(|name| {
        TFLINT_RULES
            .iter()
            .filter(move |(tflint, _)| name == *tflint || name == "all")
            .flat_map(|(_, codes)| codes.iter().copied())
    })
}

/// Reads the ignore comments of a native-syntax file.
pub(crate) fn ignores(db: &dyn Db, file: File) -> Ignores {
    let text = file.text(db);
    let mut ignores = Ignores::default();
    // Nearly no file has one; this keeps the walk over every token for the
    // few that do.
    if !text.contains(MARKER) && !text.contains(TFLINT_MARKER) {
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
        let range = token.text_range();
        let start = range.start();
        let target = || {
            let line = index.line_col(start).line;
            let alone_on_its_line = text[line_start(text, start)..usize::from(start)].trim().is_empty();
            if alone_on_its_line { line + 1 } else { line }
        };
        if let Some(names) =
            body.trim_start().strip_prefix(TFLINT_FILE_MARKER).and_then(|rest| rest.strip_prefix(':'))
        {
            if start == TextSize::from(0) {
                ignores.silenced_in_file.extend(tflint_codes(names));
            } else {
                ignores.problems.push(
                    Diagnostic::warning(
                        rules::INVALID_IGNORE,
                        "A tflint-ignore-file comment counts only at the top of the file",
                        file,
                        range,
                    )
                    .with_note(
                        "TFLint reads it only as the file's first text, at line 1, column 1, \
                         and reports it anywhere else; here it silences nothing.",
                    ),
                );
            }
            continue;
        }
        if let Some(names) =
            body.trim_start().strip_prefix(TFLINT_MARKER).and_then(|rest| rest.strip_prefix(':'))
        {
            let target = target();
            // A comment may go on after the names (`# tflint-ignore:
            // rule # why`).
            ignores.silenced.extend(tflint_codes(names).map(|code| (target, code)));
            continue;
        }
        let Some(rest) = body.trim_start().strip_prefix(MARKER) else { continue };
        let target = target();

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

/// The edit that silences `diagnostic` where it is: a `# halite-ignore`
/// comment of its code on a line of its own before the diagnostic's line,
/// with the line's indentation, or its code added to such a comment
/// already there. `None` for a code that cannot be ignored (a syntax
/// error, a code that is not a rule).
pub fn ignore_suggestion(text: &str, diagnostic: &Diagnostic) -> Option<Suggestion> {
    let rule = rules::rule(diagnostic.code)?;
    let start = line_start(text, diagnostic.range.start());
    let line = &text[start..];
    let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
    let message = format!("ignore `{}` on this line", rule.code);
    // An ignore comment alone on the line before takes one more code.
    if start > 0 {
        let before_end = start - 1;
        let before_start = line_start(text, text_size(before_end));
        let before = text[before_start..before_end].trim_end_matches('\r');
        let trimmed = before.trim_start();
        let body = trimmed.strip_prefix('#').or_else(|| trimmed.strip_prefix("//"));
        if let Some(codes) = body
            .and_then(|it| it.trim_start().strip_prefix(MARKER))
            .and_then(|it| it.trim_start().strip_prefix(':'))
        {
            if codes.split(',').any(|code| code.trim() == rule.code) {
                return None;
            }
            let end = text_size(before_start + before.len());
            let replacement =
                if codes.trim().is_empty() { format!(" {}", rule.code) } else { format!(", {}", rule.code) };
            return Some(Suggestion {
                message,
                edits: vec![Edit { range: TextRange::empty(end), replacement }],
            });
        }
    }
    let replacement = format!("{indent}# {MARKER}: {}\n", rule.code);
    Some(Suggestion { message, edits: vec![Edit { range: TextRange::empty(text_size(start)), replacement }] })
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

    /// An ignore comment is written before the line, indented as it is, or
    /// a code added to the comment already there; the edited file silences
    /// the diagnostic.
    #[test]
    fn ignore_suggestions_silence_the_diagnostic() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "a = 1");
        let apply = |text: &str, at: usize| {
            let diagnostic =
                Diagnostic::warning(rules::LEGACY_INDEX, "x", file, TextRange::empty(text_size(at)));
            let suggestion = ignore_suggestion(text, &diagnostic)?;
            let edit = &suggestion.edits[0];
            let mut out = text.to_string();
            out.replace_range(
                usize::from(edit.range.start())..usize::from(edit.range.end()),
                &edit.replacement,
            );
            Some(out)
        };
        assert_eq!(
            apply("x {\n  a = b.0\n}\n", 9).as_deref(),
            Some("x {\n  # halite-ignore: legacy-index\n  a = b.0\n}\n")
        );
        assert_eq!(
            apply("# halite-ignore: attribute-splat\na = b.0\n", 37).as_deref(),
            Some("# halite-ignore: attribute-splat, legacy-index\na = b.0\n")
        );
        assert_eq!(apply("# halite-ignore: legacy-index\na = b.0\n", 33), None);
        assert_eq!(apply("a = b.0", 4).as_deref(), Some("# halite-ignore: legacy-index\na = b.0"));
        let syntax = Diagnostic::error("syntax-error", "x", file, TextRange::empty(text_size(0)));
        assert!(ignore_suggestion("a = ", &syntax).is_none());
        let edited = apply("locals {\n  a = b.0\n}\n", 15).unwrap();
        let file = db.set_file_text("main.tf", edited.as_str());
        assert_eq!(ignores(&db, file).silenced, [(3, rules::LEGACY_INDEX)]);
    }
}
