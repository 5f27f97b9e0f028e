//! Finding the files a command works on.

use std::sync::Mutex;

use anyhow::{Context, Result, anyhow};
use camino::{Utf8Component, Utf8Path, Utf8PathBuf};
use ignore::{DirEntry, WalkBuilder, WalkState};

/// Which syntaxes a directory walk collects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Syntaxes {
    /// Native syntax files only: what the formatter works on.
    Native,
    /// Native and JSON syntax files.
    All,
}

/// Directories never searched, besides hidden ones: Terraform's cache of
/// downloaded modules and providers is someone else's code.
const SKIPPED_DIRS: &[&str] = &[".terraform"];

/// The files to work on, sorted by path and without duplicates, so output
/// is the same from run to run. A file argument is taken whatever its name;
/// a directory is walked for HCL files of the given syntaxes. A path that
/// does not exist or cannot be read is an error: the tool cannot do what it
/// was asked.
pub(crate) fn hcl_files(paths: &[Utf8PathBuf], syntaxes: Syntaxes) -> Result<Vec<Utf8PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        let metadata = std::fs::metadata(path).with_context(|| format!("cannot read `{path}`"))?;
        if metadata.is_dir() {
            walk(path, syntaxes, &mut files)?;
        } else {
            files.push(tidy(path));
        }
    }
    files.sort_unstable_by(|a, b| vfs::path_order(a, b));
    files.dedup();
    Ok(files)
}

/// Walks `root` on several threads (a monorepo has thousands of
/// directories, each read and each `.gitignore` parsed); the caller sorts.
fn walk(root: &Utf8Path, syntaxes: Syntaxes, files: &mut Vec<Utf8PathBuf>) -> Result<()> {
    let walker = WalkBuilder::new(root)
        // Hidden files are still checked (`.tflint.hcl` is configuration
        // people keep); hidden directories are skipped below.
        .hidden(false)
        // `.gitignore` applies even outside a git repository: a folder
        // copied out of one, or a CI checkout without `.git`, is checked
        // the same way.
        .require_git(false)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|file_type| file_type.is_dir());
            // The root itself is never skipped: `halite check .` or
            // `halite check .config` asks for that directory by name.
            !(is_dir && entry.depth() > 0 && is_skipped_dir(entry.file_name()))
        })
        .build_parallel();
    let found: Mutex<Result<Vec<Utf8PathBuf>>> = Mutex::new(Ok(Vec::new()));
    walker.run(|| {
        let found = &found;
        Box::new(move |entry| {
            let wanted = entry
                .with_context(|| format!("cannot read `{root}`"))
                .and_then(|entry| wanted_file(entry, syntaxes));
            let mut found = found.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            match (&mut *found, wanted) {
                (Ok(files), Ok(Some(path))) => files.push(path),
                (Ok(_), Ok(None)) => {}
                // The first error is the one reported; the walk stops.
                (found @ Ok(_), Err(error)) => {
                    *found = Err(error);
                    return WalkState::Quit;
                }
                (Err(_), _) => return WalkState::Quit,
            }
            WalkState::Continue
        })
    });
    files.extend(found.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner())?);
    Ok(())
}

/// The entry's path when it is a file of the wanted syntaxes.
fn wanted_file(entry: DirEntry, syntaxes: Syntaxes) -> Result<Option<Utf8PathBuf>> {
    if !entry.file_type().is_some_and(|file_type| file_type.is_file()) {
        return Ok(None);
    }
    // The one table of file kinds says which names are HCL files.
    let kind = entry.file_name().to_str().and_then(|name| vfs::FileKind::of(camino::Utf8Path::new(name)));
    let wanted =
        kind.is_some_and(|kind| syntaxes == Syntaxes::All || kind.syntax == vfs::SourceSyntax::Native);
    if !wanted {
        return Ok(None);
    }
    let path = Utf8PathBuf::from_path_buf(entry.into_path())
        .map_err(|path| anyhow!("`{}` is not a UTF-8 path", path.display()))?;
    Ok(Some(tidy(&path)))
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&&*name)
}

/// Drops a leading `./`, so `halite check` names `main.tf`, not `./main.tf`,
/// and normalises the rest (no `//`, no inner `.`, no trailing `/`).
fn tidy(path: &Utf8Path) -> Utf8PathBuf {
    let rest: Utf8PathBuf = path.components().skip_while(|part| *part == Utf8Component::CurDir).collect();
    if rest.as_str().is_empty() { path.to_owned() } else { rest }
}
