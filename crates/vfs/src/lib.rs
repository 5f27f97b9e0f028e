//! Files on disk for Halite: the one table of file kinds (which names are
//! HCL files, in which syntax, for which tool, and which belong to a
//! module), reading a file or standard input (regular files only, up to a
//! size limit: [`read_file`], [`read_stream`]), where a repository starts
//! ([`repository_root`]), loading a directory's HCL files, and a watcher that turns filesystem events into
//! batches of changes to apply to the database's inputs.
//!
//! The crate knows bytes and paths, nothing about syntax or the database:
//! a front end (`halite watch`, an embedding build system) loads the files
//! with [`load`], gives them to the database, starts a [`Watcher`] and
//! applies each [`ChangeBatch`] it hands over. A batch says what the files
//! are now, read from disk when the batch is formed, rather than replaying
//! the events: editors save in many ways (in place, through a temporary file
//! renamed over the original, by deleting and recreating), and only the end
//! state matters to the database. The watcher follows module files that
//! are symbolic links to what they point at, sees a file with several hard
//! links written through any of its names, and when the watched directory
//! itself goes away and comes back, says so ([`RootChange`]) and watches
//! the new one. It never wakes while nothing changes.

mod kind;
mod load;
mod path_key;
mod read;
mod repository;
mod tidy;
mod watch;

use camino::Utf8PathBuf;

pub use crate::kind::{
    FileKind, Language, SourceSyntax, TerraformFormat, is_automatic_variables_file, is_ignored_name,
    is_module_file, is_packer_automatic_variables_file, is_terraform_automatic_variables_file,
    is_terraform_fmt_file, is_terraform_override_file, module_dir, parent, path_order, sort_by_path,
    sort_paths, terraform_stem,
};
pub use crate::load::{Error, FileSet, LoadedFile, Scope, list, load, load_set};
pub use crate::path_key::{PathKey, PathMap, normal_text};
pub use crate::read::{
    DEFAULT_MAX_FILE_SIZE, ReadError, ReadFile, describe, open_without_blocking, read_file,
    read_found_regular_file, read_stream,
};
pub use crate::repository::{is_repository_root, repository_root};
pub use crate::tidy::tidy;
pub use crate::watch::{WatchOptions, Watcher};

/// One file's change, as its state on disk when the batch was formed.
#[derive(Clone, PartialEq, Eq)]
pub enum Change {
    /// A file the watcher did not know appeared, with its bytes.
    Created(Utf8PathBuf, Vec<u8>),
    /// A known file's bytes changed; these are the new ones.
    Modified(Utf8PathBuf, Vec<u8>),
    /// A known file is gone (deleted, or renamed to another name).
    Deleted(Utf8PathBuf),
}

impl Change {
    /// The path of the file that changed, as the watcher's root was given
    /// joined with the file's name.
    pub fn path(&self) -> &camino::Utf8Path {
        match self {
            Change::Created(path, _) | Change::Modified(path, _) | Change::Deleted(path) => path,
        }
    }

    /// The new bytes, unless the file was deleted.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Change::Created(_, bytes) | Change::Modified(_, bytes) => Some(bytes),
            Change::Deleted(_) => None,
        }
    }
}

impl std::fmt::Debug for Change {
    /// Bytes are shown by length: a test failure should name the files, not
    /// dump their contents.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Change::Created(path, bytes) => write!(f, "Created({path}, {} bytes)", bytes.len()),
            Change::Modified(path, bytes) => write!(f, "Modified({path}, {} bytes)", bytes.len()),
            Change::Deleted(path) => write!(f, "Deleted({path})"),
        }
    }
}

/// What happened to a watched directory itself. Its files' changes are in
/// the batch as for any other: deleted when it goes, created when it comes
/// back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootChange {
    /// It is gone (deleted, renamed away, or not a directory any more). The
    /// watcher waits for it at the nearest directory above it that exists.
    Vanished,
    /// It is a directory again, and watched again.
    Returned,
    /// Another directory took its place between two looks (deleted and
    /// made again at once, say); the new one is watched.
    Replaced,
}

/// The changes of one burst of filesystem activity, at most one per path,
/// sorted by path, and what happened to the watched directory, if anything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangeBatch {
    pub changes: Vec<Change>,
    pub root: Option<RootChange>,
    /// The files an event named that could not be read (their permissions
    /// changed, or one grew past the size limit), with why: each keeps its
    /// last state, and the next event about it looks again.
    pub unreadable: Vec<(Utf8PathBuf, String)>,
}

impl ChangeBatch {
    /// Whether the batch says nothing: no file changed and the watched
    /// directory is as it was.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.root.is_none() && self.unreadable.is_empty()
    }

    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// Folds a later batch into this one, so that a consumer that fell
    /// behind applies one batch: per path the later change wins, except that
    /// a file created and then modified is still new, and a file created and
    /// then deleted was never there. The directory's change is the later
    /// one, except that a directory that vanished and then returned was
    /// replaced.
    pub fn merge(&mut self, later: ChangeBatch) {
        self.root = match (self.root, later.root) {
            (Some(RootChange::Vanished), Some(RootChange::Returned)) => Some(RootChange::Replaced),
            (earlier, None) => earlier,
            (_, later) => later,
        };
        let mut by_path: std::collections::BTreeMap<Utf8PathBuf, Change> = std::mem::take(&mut self.changes)
            .into_iter()
            .map(|change| (change.path().to_owned(), change))
            .collect();
        let read_later: std::collections::BTreeSet<Utf8PathBuf> =
            later.changes.iter().map(|change| change.path().to_owned()).collect();
        for change in later.changes {
            let path = change.path().to_owned();
            let merged = match (by_path.remove(&path), change) {
                (Some(Change::Created(..)), Change::Modified(path, bytes)) => {
                    Some(Change::Created(path, bytes))
                }
                (Some(Change::Created(..)), Change::Deleted(_)) => None,
                (Some(Change::Deleted(_)), Change::Created(path, bytes)) => {
                    Some(Change::Modified(path, bytes))
                }
                (_, change) => Some(change),
            };
            if let Some(merged) = merged {
                by_path.insert(path, merged);
            }
        }
        // A file unreadable earlier and read since is not; one unreadable
        // again is said with the later reason.
        self.unreadable.retain(|(path, _)| {
            !read_later.contains(path) && !later.unreadable.iter().any(|(it, _)| it == path)
        });
        self.unreadable.extend(later.unreadable);
        self.changes = by_path.into_values().collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created(path: &str, text: &str) -> Change {
        Change::Created(path.into(), text.into())
    }

    fn modified(path: &str, text: &str) -> Change {
        Change::Modified(path.into(), text.into())
    }

    fn deleted(path: &str) -> Change {
        Change::Deleted(path.into())
    }

    #[test]
    fn merging_keeps_the_last_state_of_each_path() {
        let mut batch = ChangeBatch {
            changes: vec![created("a.tf", "1"), modified("b.tf", "1"), deleted("c.tf")],
            root: None,
            unreadable: vec![("e.tf".into(), "too large".into())],
        };
        batch.merge(ChangeBatch {
            changes: vec![modified("a.tf", "2"), deleted("b.tf"), created("c.tf", "3"), created("d.tf", "4")],
            root: None,
            unreadable: vec![("a.tf".into(), "denied".into())],
        });
        // A file unreadable at the end is said; one read since is not.
        assert_eq!(
            batch.unreadable,
            vec![("e.tf".into(), "too large".into()), ("a.tf".into(), "denied".into())]
        );
        batch.merge(ChangeBatch { changes: vec![modified("e.tf", "5")], root: None, unreadable: Vec::new() });
        assert_eq!(batch.unreadable, vec![("a.tf".into(), "denied".into())]);
        batch.changes.retain(|change| change.path() != "e.tf");
        assert_eq!(
            batch.changes,
            vec![created("a.tf", "2"), deleted("b.tf"), modified("c.tf", "3"), created("d.tf", "4")]
        );
        batch.merge(ChangeBatch { changes: vec![deleted("a.tf")], root: None, unreadable: Vec::new() });
        assert_eq!(batch.changes, vec![deleted("b.tf"), modified("c.tf", "3"), created("d.tf", "4")]);
    }

    #[test]
    fn a_directory_that_vanished_and_returned_was_replaced() {
        let mut batch = ChangeBatch {
            changes: vec![deleted("a.tf")],
            root: Some(RootChange::Vanished),
            unreadable: Vec::new(),
        };
        batch.merge(ChangeBatch::default());
        assert_eq!(batch.root, Some(RootChange::Vanished));
        batch.merge(ChangeBatch {
            changes: vec![created("a.tf", "2")],
            root: Some(RootChange::Returned),
            unreadable: Vec::new(),
        });
        assert_eq!(batch.root, Some(RootChange::Replaced));
        assert_eq!(batch.changes, vec![modified("a.tf", "2")]);
        batch.merge(ChangeBatch {
            changes: vec![],
            root: Some(RootChange::Vanished),
            unreadable: Vec::new(),
        });
        assert_eq!(batch.root, Some(RootChange::Vanished));
    }
}
