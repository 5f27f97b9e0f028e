//! Which files belong to a module, and reading them from a directory.

use std::io;

use camino::{Utf8Path, Utf8PathBuf};

use crate::{
    ReadError,
    kind::{is_automatic_variables_file, is_module_file},
};

/// Directories never entered by a walk of a tree, besides hidden ones:
/// Terraform's cache of downloaded modules and providers is someone else's
/// code. (It is hidden too; the name is kept to say so.)
const SKIPPED_DIRS: &[&str] = &[".terraform"];

/// How much of the file tree under a root is loaded and watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The root directory's own files: one module.
    Directory,
    /// Every directory below the root too, except hidden ones and
    /// `.terraform`; symbolic links to directories are not followed, so a
    /// link cannot make the walk loop.
    Tree,
}

impl Scope {
    /// Whether a directory below the root is entered, by its name.
    pub(crate) fn enters(self, dir_name: &str) -> bool {
        self == Scope::Tree && !dir_name.starts_with('.') && !SKIPPED_DIRS.contains(&dir_name)
    }
}

/// Which files of a directory are loaded or watched, by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FileSet {
    /// The module files (see [`is_module_file`]).
    #[default]
    Module,
    /// The module files and the variables files Terraform and Packer read
    /// by themselves (see [`is_automatic_variables_file`]): what
    /// evaluating a directory as the root of a run reads.
    ModuleAndVariables,
    /// The files of one name (a configuration file a front end follows).
    Named(&'static str),
}

impl FileSet {
    /// Whether a file of this name is in the set.
    pub fn contains(self, path: &Utf8Path) -> bool {
        match self {
            FileSet::Module => is_module_file(path),
            FileSet::ModuleAndVariables => is_module_file(path) || is_automatic_variables_file(path),
            FileSet::Named(name) => path.file_name() == Some(name),
        }
    }
}

/// A file read from disk.
#[derive(Clone, PartialEq, Eq)]
pub struct LoadedFile {
    /// The root as it was given, joined with the file's path below it.
    pub path: Utf8PathBuf,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for LoadedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LoadedFile({}, {} bytes)", self.path, self.bytes.len())
    }
}

/// Why a directory could not be loaded or watched.
#[derive(Debug)]
pub struct Error {
    pub path: Utf8PathBuf,
    pub source: io::Error,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path, self.source)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Reads the module files under `root` (see [`is_module_file`] and
/// [`Scope`]), sorted by path, each of at most `max_file_size` bytes (see
/// [`crate::DEFAULT_MAX_FILE_SIZE`]).
///
/// The root must be a readable directory. Below it, a file that vanishes
/// between listing and reading is simply not there, nor is what is not a
/// regular file (a FIFO, a link to a directory: never read, as a walk
/// passes over them), and a name that is not UTF-8 cannot be a module
/// file's; any other error reading a file or a directory is returned (a
/// file larger than the limit among them), since a module with a file
/// missing would evaluate to something it is not.
pub fn load(root: &Utf8Path, scope: Scope, max_file_size: u64) -> Result<Vec<LoadedFile>, Error> {
    load_set(root, scope, FileSet::Module, max_file_size)
}

/// [`load`] of the files of `set`.
pub fn load_set(
    root: &Utf8Path,
    scope: Scope,
    set: FileSet,
    max_file_size: u64,
) -> Result<Vec<LoadedFile>, Error> {
    let mut listed = Vec::new();
    list_files(root, scope, set, &mut |path, regular| listed.push((path, regular)))?;
    crate::sort_by_path(&mut listed, |(path, _)| path);
    let read = read_files(&listed, max_file_size);
    let mut files = Vec::with_capacity(listed.len());
    for ((path, _), read) in listed.into_iter().zip(read) {
        match read {
            Ok(Some(bytes)) => files.push(LoadedFile { path, bytes }),
            Ok(None) => {}
            Err(source) => return Err(Error { path, source }),
        }
    }
    Ok(files)
}

/// The paths of the files of `set` under `root` that [`load_set`] would
/// read (regular files, and links to regular files), sorted by path,
/// without reading them.
pub fn list(root: &Utf8Path, scope: Scope, set: FileSet) -> Result<Vec<Utf8PathBuf>, Error> {
    let mut listed = Vec::new();
    list_files(root, scope, set, &mut |path, regular| {
        if regular || std::fs::metadata(&path).is_ok_and(|target| target.is_file()) {
            listed.push(path);
        }
    })?;
    crate::sort_paths(&mut listed);
    Ok(listed)
}

/// What [`read_file`] gives.
type Read = io::Result<Option<Vec<u8>>>;

/// [`read_file`] of each of `paths` (each with whether its listing found
/// it a regular file), in order, on a few threads when there are many: a
/// module of thousands of small files spent most of its loading waiting on
/// each file's system calls in turn.
fn read_files(paths: &[(Utf8PathBuf, bool)], max_file_size: u64) -> Vec<Read> {
    /// Files a thread reads at a time.
    const RUN: usize = 32;
    /// At most this many threads: reading is not worth more.
    const MAX_THREADS: usize = 4;
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(MAX_THREADS);
    if threads < 2 || paths.len() < 2 * RUN {
        return paths.iter().map(|(path, regular)| read_file(path, *regular, max_file_size)).collect();
    }
    let runs: Vec<&[(Utf8PathBuf, bool)]> = paths.chunks(RUN).collect();
    let results: Vec<std::sync::Mutex<Vec<Read>>> =
        runs.iter().map(|_| std::sync::Mutex::default()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        loop {
            let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(run) = runs.get(at) else { break };
            let read: Vec<_> =
                run.iter().map(|(path, regular)| read_file(path, *regular, max_file_size)).collect();
            *results[at].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = read;
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    results
        .into_iter()
        .flat_map(|it| it.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
        .collect()
}

/// Hands `found` the path of each file of `set` under `dir` (see [`load`]),
/// in no particular order, with whether its directory entry says it is a
/// regular file (not a link to one, nor anything else).
pub(crate) fn list_files(
    dir: &Utf8Path,
    scope: Scope,
    set: FileSet,
    found: &mut dyn FnMut(Utf8PathBuf, bool),
) -> Result<(), Error> {
    let error = |source| Error { path: dir.to_owned(), source };
    for entry in std::fs::read_dir(dir).map_err(error)? {
        let entry = entry.map_err(error)?;
        let Ok(name) = entry.file_name().into_string() else { continue };
        // `file_type` does not follow symbolic links, so a link to a
        // directory is never entered; a link to a file is listed, and read
        // through the link.
        let Ok(file_type) = entry.file_type() else { continue };
        if file_type.is_dir() {
            if scope.enters(&name) {
                list_files(&child(dir, &name), scope, set, found)?;
            }
        } else if set.contains(Utf8Path::new(&name)) {
            found(child(dir, &name), file_type.is_file());
        }
    }
    Ok(())
}

/// The bytes of the file at `path`, or `None` if there is no regular file
/// there (never was, was removed, or is a directory or a FIFO now);
/// `listed_regular` when a listing just found a regular file there (see
/// [`crate::read::read_found_regular_file`]).
pub(crate) fn read_file(
    path: &Utf8Path,
    listed_regular: bool,
    max_file_size: u64,
) -> io::Result<Option<Vec<u8>>> {
    let read = if listed_regular {
        crate::read::read_found_regular_file(path, max_file_size)
    } else {
        crate::read_file(path, max_file_size)
    };
    match read {
        Ok(read) => Ok(Some(read.bytes)),
        Err(ReadError::NotRegular(_)) => Ok(None),
        // A symbolic link whose target is gone reads as not found; a path
        // whose parent became a file reads as "not a directory".
        Err(ReadError::Io(err))
            if matches!(
                err.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::IsADirectory | io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(None)
        }
        Err(err) => Err(err.into()),
    }
}

/// `dir/name`, without a leading `./` when the root is `.`, so that paths
/// read as the user would write them.
pub(crate) fn child(dir: &Utf8Path, name: &str) -> Utf8PathBuf {
    if dir == "." { Utf8PathBuf::from(name) } else { dir.join(name) }
}
