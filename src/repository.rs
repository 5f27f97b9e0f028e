//! The repository a check runs in: where the paths that CI services read
//! start. GitHub's annotations, GitLab's Code Quality report and SARIF's
//! URIs name files relative to the repository's root, whatever directory
//! the check ran in, and fingerprints hash that path, so that they do not
//! change with it.

use std::borrow::Cow;

use camino::{Utf8Component, Utf8Path, Utf8PathBuf};

/// The repository's root: the nearest directory with a `.git` (a
/// directory, or a worktree's file) at or above the first file checked,
/// else at or above the current directory, else
/// the current directory. A CI step that runs outside its checkout
/// (`halite check $GITHUB_WORKSPACE/infra`) names files as one run in it
/// does.
pub(crate) struct SourceRoot {
    /// Absolute; `None` when the current directory is not a UTF-8 path
    /// (paths are then written as given, relative to it).
    current_dir: Option<Utf8PathBuf>,
    root: Option<Utf8PathBuf>,
}

impl SourceRoot {
    /// The root of the repository of `checked`, a path checked (as given:
    /// relative to the current directory, or absolute).
    pub(crate) fn find(checked: Option<&Utf8Path>) -> SourceRoot {
        let current_dir = std::env::current_dir().ok().and_then(|dir| Utf8PathBuf::try_from(dir).ok());
        let root = current_dir.as_deref().map(|dir| {
            let of_checked = checked.and_then(|path| {
                let absolute = normalize(&dir.join(path));
                let start = if absolute.is_dir() { absolute.as_path() } else { absolute.parent()? };
                vfs::repository_root(start).map(Utf8Path::to_owned)
            });
            of_checked.unwrap_or_else(|| vfs::repository_root(dir).unwrap_or(dir).to_owned())
        });
        SourceRoot { current_dir, root }
    }

    /// A root given rather than found, for tests.
    #[cfg(test)]
    pub(crate) fn fixed(current_dir: &str, root: &str) -> SourceRoot {
        SourceRoot { current_dir: Some(current_dir.into()), root: Some(root.into()) }
    }

    /// The root, absolute.
    pub(crate) fn root(&self) -> Option<&Utf8Path> {
        self.root.as_deref()
    }

    /// `path` (as given: relative to the current directory, or absolute)
    /// relative to the root, `/` separated; absolute when it is outside
    /// the root.
    pub(crate) fn relative<'a>(&self, path: &'a Utf8Path) -> Cow<'a, Utf8Path> {
        let (Some(current_dir), Some(root)) = (&self.current_dir, &self.root) else {
            return Cow::Borrowed(path);
        };
        let absolute = normalize(&current_dir.join(path));
        match absolute.strip_prefix(root) {
            Ok(relative) => Cow::Owned(relative.to_owned()),
            Err(_) => Cow::Owned(absolute),
        }
    }
}

/// `path` without `.` and with each `..` taking away the name before it,
/// as the file system would read it (links apart).
fn normalize(path: &Utf8Path) -> Utf8PathBuf {
    let mut normal = Utf8PathBuf::new();
    for component in path.components() {
        match component {
            Utf8Component::CurDir => {}
            Utf8Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other.as_str()),
        }
    }
    normal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_root_or_absolute_outside_it() {
        let root = SourceRoot::fixed("/repo/infra", "/repo");
        assert_eq!(root.relative("main.tf".into()), Utf8Path::new("infra/main.tf"));
        assert_eq!(root.relative("./a/../b/c.tf".into()), Utf8Path::new("infra/b/c.tf"));
        assert_eq!(root.relative("../modules/x.tf".into()), Utf8Path::new("modules/x.tf"));
        assert_eq!(root.relative("../../elsewhere.tf".into()), Utf8Path::new("/elsewhere.tf"));
        assert_eq!(root.relative("/repo/y.tf".into()), Utf8Path::new("y.tf"));
        let unknown = SourceRoot { current_dir: None, root: None };
        assert_eq!(unknown.relative("./x.tf".into()), Utf8Path::new("./x.tf"));
    }
}
