//! One spelling of a path ([`tidy`]).

use camino::{Utf8Component, Utf8Path, Utf8PathBuf};

/// `path` without its leading `./`s, and otherwise normalised (no `//`,
/// no inner `.`, no trailing `/`): one spelling of each path a front end
/// names, so that `./main.tf` and `main.tf` are one file. `..` stays, since
/// only the file system knows where it leads; `.` alone stays `.`.
pub fn tidy(path: &Utf8Path) -> Utf8PathBuf {
    if let Some(tidy) = tidy_by_prefix(path.as_str()) {
        return tidy.into();
    }
    let rest: Utf8PathBuf = path.components().skip_while(|part| *part == Utf8Component::CurDir).collect();
    if rest.as_str().is_empty() { path.to_owned() } else { rest }
}

/// What [`tidy`] makes of `text` when that is only dropping its leading
/// `./`s, as for every path of a walk from `.`: found without splitting
/// the path into components (which was a fifth of a warm check's walk).
/// `None` when there is more to do.
fn tidy_by_prefix(text: &str) -> Option<&str> {
    let mut rest = text;
    while let Some(after) = rest.strip_prefix("./") {
        rest = after;
    }
    let plain = !rest.is_empty()
        && rest != "."
        && (rest.len() == text.len() || !rest.starts_with('/'))
        && !rest.contains("//")
        && !rest.contains("/./")
        && !rest.ends_with('/')
        && !rest.ends_with("/.")
        && !rest.contains('\\');
    plain.then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidying_by_the_prefix_agrees_with_tidying_by_components() {
        let by_components = |text: &str| -> String {
            let path = Utf8Path::new(text);
            let rest: Utf8PathBuf =
                path.components().skip_while(|part| *part == Utf8Component::CurDir).collect();
            if rest.as_str().is_empty() { text.to_owned() } else { rest.into_string() }
        };
        let paths = [
            "main.tf",
            "./main.tf",
            "././a/b.tf",
            "a/b/c.tf",
            "/abs/a.tf",
            "./",
            ".",
            "./.",
            "a//b.tf",
            "./a/./b.tf",
            "a/b/",
            "a/b/.",
            ".//a.tf",
            "../a.tf",
            "./../a/b.tf",
            "a/../b.tf",
            "//a.tf",
        ];
        for text in paths {
            assert_eq!(tidy(Utf8Path::new(text)).as_str(), by_components(text), "{text}");
            if let Some(tidied) = tidy_by_prefix(text) {
                assert_eq!(tidied, by_components(text), "{text}");
            }
        }
        assert_eq!(tidy_by_prefix("./corpus/a/main.tf"), Some("corpus/a/main.tf"));
    }
}
