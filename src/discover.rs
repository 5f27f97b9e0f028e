//! Finding the files a command works on.

use anyhow::{Context, Result, anyhow};
use camino::{Utf8Component, Utf8Path, Utf8PathBuf};
use ignore::WalkBuilder;

/// The endings of file names that hold HCL native syntax. `.hcl` also covers
/// `.pkr.hcl` (Packer) and `.tftest.hcl` (Terraform tests).
const HCL_SUFFIXES: &[&str] = &[".hcl", ".tf", ".tfvars", ".nomad"];

/// The endings of file names that hold HCL's JSON syntax: the native ones'
/// twins (`main.tf.json`, `config.hcl.json`).
const JSON_SUFFIXES: &[&str] = &[".hcl.json", ".tf.json", ".tfvars.json", ".nomad.json"];

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
    files.sort();
    files.dedup();
    Ok(files)
}

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
        .build();
    for entry in walker {
        let entry = entry.with_context(|| format!("cannot read `{root}`"))?;
        if !entry.file_type().is_some_and(|file_type| file_type.is_file()) {
            continue;
        }
        let name = entry.file_name().to_string_lossy();
        let wanted = HCL_SUFFIXES.iter().any(|suffix| name.ends_with(suffix))
            || (syntaxes == Syntaxes::All && JSON_SUFFIXES.iter().any(|suffix| name.ends_with(suffix)));
        if !wanted {
            continue;
        }
        let path = Utf8PathBuf::from_path_buf(entry.into_path())
            .map_err(|path| anyhow!("`{}` is not a UTF-8 path", path.display()))?;
        files.push(tidy(&path));
    }
    Ok(())
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&&*name)
}

/// Drops a leading `./`, so `halite check` names `main.tf`, not `./main.tf`.
fn tidy(path: &Utf8Path) -> Utf8PathBuf {
    let rest: Utf8PathBuf = path.components().skip_while(|part| *part == Utf8Component::CurDir).collect();
    if rest.as_str().is_empty() { path.to_owned() } else { rest }
}
