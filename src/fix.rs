//! `halite check --fix` and `--diff`: the host finds and applies the fixes
//! (`host::fix`); this writes each changed file as `fmt` does (a temporary
//! file renamed over it, only if it is still what was read) or prints a
//! unified diff of it, and says how many were fixed.

use std::io::Write;

use anyhow::{Context, Result, anyhow};
use camino::{Utf8Path, Utf8PathBuf};
use halite::host::{self, fix::FileFix};

use crate::{
    Outcome,
    check::plural,
    format::{AsRead, read_file, unified_diff, write_atomically},
};

/// What `--fix`, `--unsafe-fixes` and `--diff` ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Request {
    /// Which fixes: the safe ones, or the unsafe ones too.
    pub(crate) mode: analysis::FixMode,
    /// Print the fixes as a diff rather than write them.
    pub(crate) diff: bool,
}

/// Applies (or with `diff`, prints) the fixes of `paths` (of the
/// `selected` ones, for a shard). With `diff`, the outcome is the run's:
/// `FoundErrors` when a file would change. Otherwise `Incomplete` when a
/// file could not be written, else `Clean`, and the check that follows
/// says what remains.
pub(crate) fn run(
    paths: &[Utf8PathBuf],
    selected: Option<&[bool]>,
    request: Request,
    quiet: bool,
) -> Result<Outcome> {
    let fixes = host::fix::fix_paths(paths, selected, crate::limits(), request.mode)
        .map_err(|error| anyhow!(error))?;
    say_refused(&fixes);
    if request.diff {
        return print_diff(&fixes, quiet);
    }
    let (mut fixed, mut files, mut failed) = (0, 0, false);
    for file in &fixes.files {
        match write(file) {
            Ok(()) => {
                fixed += file.codes.len();
                files += 1;
            }
            Err(reason) => {
                eprintln!("halite: cannot fix `{}`: {reason}", file.path);
                failed = true;
            }
        }
    }
    if !quiet && fixed > 0 {
        eprintln!("fixed {} in {}", plural(fixed, "diagnostic"), plural(files, "file"));
    }
    Ok(if failed { Outcome::Incomplete } else { Outcome::Clean })
}

/// What `--fix -` or `--diff -` did with standard input.
pub(crate) enum StdinFixed {
    /// The diff is printed: the run's outcome.
    Diff(Outcome),
    /// The fixed text is on standard output, and `bytes` holds it, for
    /// the check of what remains.
    Written,
}

/// Applies (or with `diff`, prints) the fixes of standard input, named
/// `name` (its module's files on disk read with it), as ruff's `--fix -`
/// does: the fixed text on standard output, whole (the input as it was
/// when nothing applies); `bytes` becomes it.
pub(crate) fn stdin(
    name: &Utf8Path,
    bytes: &mut Vec<u8>,
    request: Request,
    quiet: bool,
) -> Result<StdinFixed> {
    let fixes = host::fix::fix_contents(name, bytes.clone(), crate::limits(), request.mode)
        .map_err(|error| anyhow!(error))?;
    say_refused(&fixes);
    if request.diff {
        return print_diff(&fixes, quiet).map(StdinFixed::Diff);
    }
    if let Some(file) = fixes.files.first() {
        *bytes = file.after.clone().into_bytes();
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(bytes).and_then(|()| stdout.flush()).context("cannot write to standard output")?;
    let fixed: usize = fixes.files.iter().map(|file| file.codes.len()).sum();
    if !quiet && fixed > 0 {
        eprintln!("fixed {}", plural(fixed, "diagnostic"));
    }
    Ok(StdinFixed::Written)
}

fn say_refused(fixes: &host::fix::Fixes) {
    for path in &fixes.refused {
        eprintln!("halite: `{path}` is left as it was: its fixes would give it syntax errors");
    }
}

/// Prints the fixes as a unified diff; the outcome is `FoundErrors` when a
/// file would change or has syntax errors.
fn print_diff(fixes: &host::fix::Fixes, quiet: bool) -> Result<Outcome> {
    let mut stdout = std::io::stdout().lock();
    for file in &fixes.files {
        stdout
            .write_all(unified_diff(file.path.as_str(), &file.before, &file.after).as_bytes())
            .context("cannot write to standard output")?;
    }
    stdout.flush().context("cannot write to standard output")?;
    // Such a file is fixed by no one: its errors are `check`'s to
    // show, and the diff's exit says there is something to do.
    for path in &fixes.with_syntax_errors {
        eprintln!("halite: `{path}` has syntax errors and is not fixed; `halite check` shows them");
    }
    if !quiet {
        let fixed: usize = fixes.files.iter().map(|file| file.codes.len()).sum();
        eprintln!("would fix {} in {}", plural(fixed, "diagnostic"), plural(fixes.files.len(), "file"));
    }
    let clean = fixes.files.is_empty() && fixes.with_syntax_errors.is_empty();
    Ok(if clean { Outcome::Clean } else { Outcome::FoundErrors })
}

/// Replaces the file with its fixed text, if it still holds the text the
/// fixes were made on.
fn write(file: &FileFix) -> Result<(), String> {
    let (bytes, identity) = read_file(&file.path).map_err(|error| error.to_string())?;
    if bytes != file.before.as_bytes() {
        return Err("it changed while fixing".to_owned());
    }
    write_atomically(&file.path, &AsRead { identity, bytes: &bytes }, &file.after)
        .map_err(|error| error.to_string())
}
