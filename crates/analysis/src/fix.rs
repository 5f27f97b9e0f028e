//! Applying the fixes that diagnostics carry (`halite check --fix`).
//!
//! Whether a fix may be applied without the user's review is the rule's:
//! [`applicability`] decides it by the rule's code, never by a fix's text.
//! [`apply_fixes`] applies, to one file's text, the fixes of its
//! diagnostics that the mode allows, leaving out any whose edits overlap
//! an edit already taken (the caller checks the result again and applies
//! what is left in a further pass).

use syntax::{TextRange, TextSize};

use crate::{Diagnostic, Edit, rules};

/// Whether a rule's fix keeps the file's meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Applicability {
    /// The fix writes the same thing another way: `--fix` applies it.
    Safe,
    /// The fix is a guess (a did-you-mean) or may change what the file
    /// means: only `--unsafe-fixes` applies it.
    Unsafe,
}

impl Applicability {
    /// The lowercase name used in output formats.
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// The applicability of the fixes of the rule `code`.
///
/// The style lints rewrite a deprecated form into the modern form that
/// means the same (their cases check that the result parses and that the
/// HIR keeps its meaning): safe. Every other fix is a did-you-mean, a name
/// replaced by the nearest declared one, which is a guess: unsafe. A code
/// this table does not know is unsafe.
pub fn applicability(code: &str) -> Applicability {
    match code {
        rules::INTERPOLATION_ONLY
        | rules::QUOTED_TYPE_CONSTRAINT
        | rules::LEGACY_INDEX
        | rules::ATTRIBUTE_SPLAT => Applicability::Safe,
        _ => Applicability::Unsafe,
    }
}

/// Which fixes [`apply_fixes`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixMode {
    /// Only the safe ones.
    Safe,
    /// Safe and unsafe ones.
    Unsafe,
}

impl FixMode {
    pub fn allows(self, applicability: Applicability) -> bool {
        match self {
            FixMode::Safe => applicability == Applicability::Safe,
            FixMode::Unsafe => true,
        }
    }
}

/// A file's text with fixes applied, and the code of each diagnostic whose
/// fix was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    pub text: String,
    pub codes: Vec<&'static str>,
}

/// Applies to `text` the first fix of each of `diagnostics` that `mode`
/// allows, in order of position; a fix with an edit that overlaps (or
/// touches at the same point) an edit already taken, or outside the text,
/// is left for a later pass, and a fix equal to one taken counts as
/// applied. `None` when no fix applies.
pub fn apply_fixes<'d>(
    text: &str,
    diagnostics: impl IntoIterator<Item = &'d Diagnostic>,
    mode: FixMode,
) -> Option<Fixed> {
    let mut candidates: Vec<(&'static str, &[Edit])> = diagnostics
        .into_iter()
        .filter(|diagnostic| mode.allows(applicability(diagnostic.code)))
        .filter_map(|diagnostic| {
            let suggestion = diagnostic.suggestions.first()?;
            (!suggestion.edits.is_empty()).then_some((diagnostic.code, suggestion.edits.as_slice()))
        })
        .collect();
    candidates.sort_by_key(|(_, edits)| edits.iter().map(|edit| edit.range.start()).min());
    let len = TextSize::try_from(text.len()).ok()?;
    let mut taken: Vec<&Edit> = Vec::new();
    let mut taken_fixes: Vec<&[Edit]> = Vec::new();
    let mut codes = Vec::new();
    for (code, edits) in candidates {
        if taken_fixes.contains(&edits) {
            codes.push(code);
            continue;
        }
        let fits = edits.iter().enumerate().all(|(index, edit)| {
            edit.range.end() <= len
                && text.is_char_boundary(usize::from(edit.range.start()))
                && text.is_char_boundary(usize::from(edit.range.end()))
                && !taken
                    .iter()
                    .copied()
                    .chain(&edits[..index])
                    .any(|other| overlaps(edit.range, other.range))
        });
        if fits {
            taken.extend(edits);
            taken_fixes.push(edits);
            codes.push(code);
        }
    }
    if taken.is_empty() {
        return None;
    }
    taken.sort_by_key(|edit| edit.range.start());
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in taken {
        out.push_str(&text[at..usize::from(edit.range.start())]);
        out.push_str(&edit.replacement);
        at = usize::from(edit.range.end());
    }
    out.push_str(&text[at..]);
    Some(Fixed { text: out, codes })
}

/// Whether two edits conflict: their ranges share a byte, or they are at
/// one point (two insertions there, or an insertion at a replacement's
/// edge, would depend on the order they are applied in).
fn overlaps(a: TextRange, b: TextRange) -> bool {
    a.start() < b.end() && b.start() < a.end() || a.start() == b.start() || a.end() == b.end()
}

#[cfg(test)]
mod tests {
    use db::RootDatabase;

    use super::*;
    use crate::Suggestion;

    fn fixing(file: db::File, code: &'static str, edits: &[(u32, u32, &str)]) -> Diagnostic {
        Diagnostic::warning(code, "", file, TextRange::default()).with_suggestion(Suggestion {
            message: String::new(),
            edits: edits
                .iter()
                .map(|&(start, end, replacement)| Edit {
                    range: TextRange::new(start.into(), end.into()),
                    replacement: replacement.to_owned(),
                })
                .collect(),
        })
    }

    #[test]
    fn safe_fixes_apply_and_unsafe_ones_wait_for_their_mode() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "a.0 + b");
        let diagnostics = [
            fixing(file, rules::LEGACY_INDEX, &[(1, 3, "[0]")]),
            fixing(file, rules::UNDECLARED_REFERENCE, &[(6, 7, "c")]),
        ];
        let safe = apply_fixes("a.0 + b", &diagnostics, FixMode::Safe).expect("a safe fix");
        assert_eq!(safe, Fixed { text: "a[0] + b".into(), codes: vec![rules::LEGACY_INDEX] });
        let all = apply_fixes("a.0 + b", &diagnostics, FixMode::Unsafe).expect("both fixes");
        assert_eq!(all.text, "a[0] + c");
        assert_eq!(apply_fixes("a.0 + b", &diagnostics[1..], FixMode::Safe), None);
    }

    #[test]
    fn an_overlapping_fix_waits_and_an_equal_one_counts_once_applied() {
        let mut db = RootDatabase::new();
        let file = db.set_file_text("main.tf", "abcdef");
        let diagnostics = [
            fixing(file, rules::LEGACY_INDEX, &[(0, 2, "X")]),
            fixing(file, rules::ATTRIBUTE_SPLAT, &[(1, 3, "Y")]),
            fixing(file, rules::LEGACY_INDEX, &[(0, 2, "X")]),
            // Two insertions at one point conflict; an edit past the end never applies.
            fixing(file, rules::ATTRIBUTE_SPLAT, &[(4, 4, "(")]),
            fixing(file, rules::ATTRIBUTE_SPLAT, &[(4, 4, ")")]),
            fixing(file, rules::ATTRIBUTE_SPLAT, &[(5, 9, "Z")]),
        ];
        let fixed = apply_fixes("abcdef", &diagnostics, FixMode::Safe).expect("fixes");
        assert_eq!(fixed.text, "Xcd(ef");
        assert_eq!(fixed.codes, [rules::LEGACY_INDEX, rules::LEGACY_INDEX, rules::ATTRIBUTE_SPLAT]);
    }
}
