//! Files as salsa inputs, found by path.
//!
//! As in ruff's `ruff_db::files`, a file's input is created once per path and
//! lives as long as the database; deleting a file changes its status rather
//! than removing the input, so every query that read it re-runs and sees the
//! deletion instead of holding a dangling id.

use std::sync::{Arc, RwLock};

use camino::{Utf8Path, Utf8PathBuf};
use syntax::SyntaxError;

use crate::Db;

/// One source file: the salsa input every query about it starts from.
#[salsa::input(debug)]
pub struct File {
    /// The path the file was loaded from, as the user named it (relative or
    /// absolute); it identifies the file in the database and in diagnostics.
    #[returns(ref)]
    pub path: Utf8PathBuf,
    /// The source text. When the bytes on disk are not UTF-8, this is the
    /// valid prefix before the first bad byte (see `encoding_error`).
    #[returns(ref)]
    pub text: Arc<str>,
    /// Whether the file still exists.
    #[returns(copy)]
    pub status: FileStatus,
    /// Where the bytes on disk stop being UTF-8, if they do. Such a file has
    /// no tree.
    #[returns(ref)]
    pub encoding_error: Option<SyntaxError>,
    /// A snapshot of [`crate::module::file_declarations`], kept by a caller
    /// that sets it only when the declarations change, with the durability
    /// of the module's structure (see [`crate::module::declarations_of`]).
    #[returns(ref)]
    pub declarations: Option<Arc<crate::module::FileDeclarations>>,
}

/// Whether a file's input describes a file that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileStatus {
    Exists,
    /// The file was deleted (or moved away); its text is empty.
    Deleted,
}

/// The table from paths to file inputs. Cloning shares the table, as cloning
/// the database shares its storage.
#[derive(Debug, Clone, Default)]
pub struct Files {
    /// Fx-hashed, by the path's text ([`vfs::PathKey`]): a batch looks up
    /// every path it loads.
    by_path: Arc<RwLock<rustc_hash::FxHashMap<vfs::PathKey, File>>>,
}

impl Files {
    /// The input for `path`, if the database has one.
    pub fn get(&self, path: &Utf8Path) -> Option<File> {
        self.by_path
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .get(&*vfs::normal_text(path))
            .copied()
    }

    /// Every file input, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = File> {
        let files: Vec<File> =
            self.by_path.read().unwrap_or_else(|poisoned| poisoned.into_inner()).values().copied().collect();
        files.into_iter()
    }

    pub(crate) fn insert(
        &self,
        db: &dyn Db,
        path: Utf8PathBuf,
        text: Arc<str>,
        encoding_error: Option<SyntaxError>,
        durability: crate::InputDurability,
    ) -> File {
        let file = File::builder(path.clone(), text, FileStatus::Exists, encoding_error, None)
            .path_durability(durability.structure)
            .status_durability(durability.structure)
            .encoding_error_durability(durability.text)
            .text_durability(durability.text)
            .declarations_durability(durability.structure)
            .new(db);
        self.by_path
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(vfs::PathKey::new(path), file);
        file
    }
}
