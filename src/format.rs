//! `halite fmt`: formats files in place, lists or diffs what would change, or
//! formats standard input to standard output. Each file is formatted in the
//! style its name gives it (`halite::host::format_style`: `terraform fmt`'s
//! for Terraform's files, `hclwrite.Format`'s for the others) unless
//! `--style` chooses one; standard input takes its name, and so its style,
//! from `--stdin-filename`.
//!
//! The module is named `format` rather than `fmt` so that it can never be
//! confused with (or, should the crate depend on it, shadow) the formatter
//! crate `fmt`. The formatting itself is the database's `format` query.
//!
//! A run has three phases. Files are read in parallel, then loaded into one
//! database (which takes `&mut`, so one at a time; it only copies and checks
//! UTF-8). Then each file is formatted, diffed and written in parallel, each
//! worker on its own handle of the database. Last, everything the run has to
//! say is printed in path order, so the output is the same whatever order
//! the workers finished in.
//!
//! Nothing is lost: a file that is not UTF-8 or has syntax errors is never
//! written; a new text is written to a temporary file beside the original
//! and renamed over it, so an interrupted run leaves either the old file or
//! the new one, never half of each. Nothing is written that must not be:
//! only regular files are read, and a file is replaced only if the user may
//! write it (`access(2)`; `terraform fmt`, which writes in place, is refused
//! such a file by the kernel), it has no other hard link (the rename would leave the other names with the
//! old text), its setuid and setgid bits can be kept, and, just before the
//! rename, it is still the file that was read, with the same bytes (an
//! edit saved meanwhile is never overwritten).

use std::{
    fs,
    io::{self, IsTerminal, Read, Write},
};

use anyhow::{Context, Result, anyhow, bail};
use camino::{Utf8Path, Utf8PathBuf};
use db::{File, FormatStyle, RootDatabase, SourceSyntax};
use halite::host::{self, config::RuleLevelsFinder};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use similar::TextDiff;

use vfs::ReadError;

use crate::{Outcome, discover, render};

/// What `halite fmt` was asked to do besides formatting.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options<'a> {
    /// Write nothing; report what would change.
    pub(crate) check: bool,
    /// Print a unified diff of each change instead of the file's name.
    pub(crate) diff: bool,
    /// The style of every file; `None` for the one its name gives it
    /// ([`halite::host::format_style`]).
    pub(crate) style: Option<FormatStyle>,
    /// The name standard input is read as: it chooses the style and names
    /// the input in what is printed. Given, standard input is formatted.
    pub(crate) stdin_filename: Option<&'a Utf8Path>,
}

/// Runs with more files than this show a progress bar, when standard error
/// is a terminal. Smaller runs finish before a bar would be worth drawing.
const PROGRESS_THRESHOLD: usize = 100;

/// The name standard input goes by in diagnostics, lists and diffs.
const STDIN_NAME: &str = "<stdin>";

/// Files formatted between two evictions of parse trees; see `run`.
const FILES_PER_CHUNK: usize = 256;

pub(crate) fn run(paths: &[Utf8PathBuf], options: Options) -> Result<Outcome> {
    if options.stdin_filename.is_some() {
        if paths.iter().any(|path| path != "-") {
            bail!("`--stdin-filename` names standard input, which cannot be formatted together with paths");
        }
        return run_stdin(options);
    }
    let current = [Utf8PathBuf::from(".")];
    let paths = if paths.is_empty() { &current[..] } else { paths };
    if paths.iter().any(|path| path == "-") {
        if paths.len() > 1 {
            bail!("`-` (standard input) cannot be formatted together with other paths");
        }
        return run_stdin(options);
    }
    // A path that does not exist stops the run before anything is written:
    // a mistyped argument should not leave the others half done.
    let found = discover::hcl_files(paths, discover::Syntaxes::Native, None)?;
    // What a walk could not read is said first; the rest is formatted, and
    // the run then exits 2.
    let unread = found.report_problems();
    found.warn_if_empty(paths);
    // What a `halite.toml` excludes is not formatted either, whether a
    // walk found it or a hook named it (vendored code is someone else's).
    let mut levels = RuleLevelsFinder::from_current_dir().map_err(|error| anyhow!(error))?;
    let excluded = host::config::excluded(&mut levels, &found.files).map_err(|error| anyhow!(error))?;
    let paths: Vec<Utf8PathBuf> = match excluded {
        Some(excluded) => {
            found.files.into_iter().zip(excluded).filter(|(_, out)| !out).map(|(path, _)| path).collect()
        }
        None => found.files,
    };
    // A JSON file named on the command line is not formatted (the reference
    // formatter has no JSON form either); say so rather than pass over it
    // in silence or refuse it as broken native syntax.
    let (json, paths): (Vec<Utf8PathBuf>, Vec<Utf8PathBuf>) =
        paths.into_iter().partition(|path| SourceSyntax::of_path(path) == SourceSyntax::Json);
    for path in &json {
        eprintln!("note: `{path}` is in the JSON syntax, which `halite fmt` does not format; left as it is");
    }
    let mut db = RootDatabase::new();

    // Reading is I/O-bound and the files are independent, so it runs in
    // parallel; loading into the database needs `&mut` and is quick.
    let contents: Vec<Result<(Vec<u8>, Identity), ReadError>> =
        paths.par_iter().map(|path| read_file(path)).collect();
    let files: Vec<(Utf8PathBuf, Loaded)> = paths
        .into_iter()
        .zip(contents)
        .map(|(path, read)| {
            let file = read.map(|(bytes, identity)| (db.set_file_bytes(path.clone(), &bytes), identity));
            (path, file)
        })
        .collect();

    let progress = progress_bar(files.len());
    let mut verdicts: Vec<Verdict> = Vec::with_capacity(files.len());
    // In chunks, evicting parse trees between them: each file's tree is
    // needed once, and keeping every tree of a large repository until the
    // end would cost about twenty bytes of memory per byte of source (and
    // the time the kernel takes to hand that memory over).
    for chunk in files.chunks(FILES_PER_CHUNK) {
        let chunk_verdicts: Vec<Verdict> = chunk
            .par_iter()
            .map_with(db.clone(), |db, (path, file)| {
                let verdict = match file {
                    Ok((file, identity)) => format_file(db, *file, *identity, path, options),
                    Err(ReadError::NotRegular(kind)) => Verdict::NotRegular(kind),
                    // The error cannot be cloned, and it is printed only
                    // once, so the text is all the report needs.
                    Err(error) => Verdict::Unreadable(error.to_string()),
                };
                progress.inc(1);
                verdict
            })
            .collect();
        verdicts.extend(chunk_verdicts);
        db.evict_parse_trees();
    }
    progress.finish_and_clear();

    let outcome = report(&db, &files, &verdicts, options)?;
    Ok(if unread { Outcome::Incomplete } else { outcome })
}

/// A file read and loaded into the database, with the identity of what was
/// read; or why it was not read.
type Loaded = Result<(File, Identity), ReadError>;

/// What became of one file.
enum Verdict {
    /// Already formatted: not written, not listed.
    Unchanged,
    /// Formatting changes it: written, or with `--check` it would be. The
    /// diff is there when `--diff` asked for it.
    Reformatted {
        diff: Option<String>,
    },
    /// Not UTF-8, or it has syntax errors: left alone, its diagnostics
    /// printed.
    Refused,
    /// Not a regular file (a FIFO, a device, a socket): never read, so
    /// that a pipe cannot block the run, and never replaced.
    NotRegular(&'static str),
    Unreadable(String),
    /// Formatting would change it, but the new text could not or must not
    /// be put in place; the file is as it was before the attempt.
    Unwritable(WriteError),
}

fn format_file(
    db: &RootDatabase,
    file: File,
    identity: Identity,
    path: &Utf8Path,
    options: Options,
) -> Verdict {
    let style = options.style.unwrap_or_else(|| halite::host::format_style(path));
    let Some(formatted) = formatted(db, file, style) else {
        return Verdict::Refused;
    };
    let text: &str = file.text(db);
    // Comparing first means an already formatted file is never opened for
    // writing: its modification time stays, and build tools watching it do
    // not wake up.
    if formatted == text {
        return Verdict::Unchanged;
    }
    let diff = options.diff.then(|| unified_diff(path.as_str(), text, formatted));
    if !options.check
        && let Err(error) = write_atomically(path, &AsRead { identity, bytes: text.as_bytes() }, formatted)
    {
        return Verdict::Unwritable(error);
    }
    Verdict::Reformatted { diff }
}

/// The formatted text of `file` in `style`, or `None` when it must not be
/// formatted: its bytes are not UTF-8 (it has no tree), or it has syntax
/// errors (the formatter's output on a broken tree is unspecified, and the
/// user's text must not be reshaped around a mistake). The database's query
/// decides, so every front end refuses the same files.
fn formatted(db: &RootDatabase, file: File, style: FormatStyle) -> Option<&str> {
    db::format(db, file, style).as_deref()
}

/// Prints what the run did, file by file in path order: the names of the
/// files changed (or their diffs) on standard output, diagnostics and errors
/// on standard error.
fn report(
    db: &RootDatabase,
    files: &[(Utf8PathBuf, Loaded)],
    verdicts: &[Verdict],
    options: Options,
) -> Result<Outcome> {
    let renderer = render::Human::new(color_on_stderr());
    let mut stdout = io::stdout().lock();
    let (mut reformatted, mut failed) = (false, false);
    for ((path, file), verdict) in files.iter().zip(verdicts) {
        match verdict {
            Verdict::Unchanged => {}
            Verdict::Reformatted { diff } => {
                reformatted = true;
                match diff {
                    Some(diff) => write!(stdout, "{diff}"),
                    None => writeln!(stdout, "{path}"),
                }
                .context("cannot write to standard output")?;
            }
            Verdict::Refused => {
                failed = true;
                // Standard output may be the same terminal: what was printed
                // there for earlier files must come first.
                stdout.flush().context("cannot write to standard output")?;
                if let Ok((file, _)) = file {
                    eprint!("{}", diagnostics(db, &renderer, *file));
                }
            }
            Verdict::NotRegular(kind) => {
                failed = true;
                stdout.flush().context("cannot write to standard output")?;
                eprintln!("halite: `{path}` is not a regular file but {kind}; left as it is");
            }
            Verdict::Unreadable(error) => {
                failed = true;
                stdout.flush().context("cannot write to standard output")?;
                eprintln!("halite: cannot read `{path}`: {error}");
            }
            Verdict::Unwritable(WriteError::Changed) => {
                failed = true;
                stdout.flush().context("cannot write to standard output")?;
                eprintln!("halite: `{path}` changed while formatting; left as it is now, unformatted");
            }
            Verdict::Unwritable(error) => {
                failed = true;
                stdout.flush().context("cannot write to standard output")?;
                eprintln!("halite: cannot write `{path}` (left as it was): {error}");
            }
        }
    }
    stdout.flush().context("cannot write to standard output")?;
    Ok(outcome(reformatted, failed, options))
}

/// The exit code's meaning. A file that could not be formatted outweighs
/// the check's finding: the run did not do all it was asked to.
fn outcome(reformatted: bool, failed: bool, options: Options) -> Outcome {
    if failed {
        Outcome::Incomplete
    } else if reformatted && options.check {
        Outcome::FoundErrors
    } else {
        Outcome::Clean
    }
}

/// `halite fmt -`: standard input formatted to standard output, as editors
/// use it. With `--check`, the text is not printed; its name (`<stdin>`, or
/// the `--stdin-filename`) is listed if it would change. With `--diff`, the
/// diff is printed instead of the text. The style is the `--stdin-filename`'s
/// by its name, `hclwrite.Format`'s without one, or `--style`'s.
fn run_stdin(options: Options) -> Result<Outcome> {
    let bytes = vfs::read_stream(io::stdin().lock(), crate::limits().max_file_size)
        .context("cannot read standard input")?;
    let name = options.stdin_filename.unwrap_or(Utf8Path::new(STDIN_NAME));
    if SourceSyntax::of_path(name) == SourceSyntax::Json {
        // As a JSON file named on the command line: not formatted, and an
        // editor that pipes its buffer through gets it back as it was.
        eprintln!("note: `{name}` is in the JSON syntax, which `halite fmt` does not format; left as it is");
        if !options.check && !options.diff {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .context("cannot write to standard output")?;
        }
        return Ok(Outcome::Clean);
    }
    let style = options
        .style
        .or_else(|| options.stdin_filename.map(halite::host::format_style))
        .unwrap_or(FormatStyle::Hcl);
    let mut db = RootDatabase::new();
    let file = db.set_file_bytes(name, &bytes);
    let Some(formatted) = formatted(&db, file, style) else {
        eprint!("{}", diagnostics(&db, &render::Human::new(color_on_stderr()), file));
        return Ok(Outcome::Incomplete);
    };
    let text: &str = file.text(&db);
    let changed = formatted != text;
    let mut stdout = io::stdout().lock();
    if options.diff {
        if changed { write!(stdout, "{}", unified_diff(name.as_str(), text, formatted)) } else { Ok(()) }
    } else if options.check {
        if changed { writeln!(stdout, "{name}") } else { Ok(()) }
    } else {
        stdout.write_all(formatted.as_bytes())
    }
    .and_then(|()| stdout.flush())
    .context("cannot write to standard output")?;
    Ok(outcome(changed, false, options))
}

/// A file's syntax diagnostics rendered as `halite check` prints them: each
/// followed by a blank line.
fn diagnostics(db: &RootDatabase, renderer: &render::Human, file: File) -> String {
    let max = crate::limits().max_diagnostics_per_file;
    analysis::cap_diagnostics(db, analysis::syntax_diagnostics(db, file), max)
        .iter()
        .map(|diagnostic| format!("{}\n\n", renderer.render(db, diagnostic)))
        .collect()
}

fn color_on_stderr() -> bool {
    io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// A unified diff with three lines of context, its paths prefixed `a/` and
/// `b/` as git writes them, so the output applies with `git apply` or
/// `patch -p1`.
pub(crate) fn unified_diff(path: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Which file was read, to tell before replacing it that it is still the
/// same one: its device and inode (a file saved by renaming a new one over
/// it has another) and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    device: u64,
    inode: u64,
    len: u64,
}

impl Identity {
    #[cfg(unix)]
    fn of(metadata: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity { device: metadata.dev(), inode: metadata.ino(), len: metadata.len() }
    }

    #[cfg(not(unix))]
    fn of(metadata: &fs::Metadata) -> Identity {
        Identity { device: 0, inode: 0, len: metadata.len() }
    }
}

/// Reads a file to format (see `vfs::read_file`: only a regular file, no
/// larger than the limit), with the identity of what was read.
pub(crate) fn read_file(path: &Utf8Path) -> Result<(Vec<u8>, Identity), ReadError> {
    let read = vfs::read_file(path, crate::limits().max_file_size)?;
    Ok((read.bytes, Identity::of(&read.metadata)))
}

/// What was read of a file: its identity and its bytes.
pub(crate) struct AsRead<'a> {
    pub(crate) identity: Identity,
    pub(crate) bytes: &'a [u8],
}

/// Why a formatted text was not put in place. In every case the file is as
/// it was (or as someone else made it meanwhile) and no temporary file is
/// left.
#[derive(Debug)]
pub(crate) enum WriteError {
    /// `access(2)` says the user may not write the file. Replacing it by a
    /// rename needs only the directory's permission, so without this check
    /// a read-only file, even one owned by someone else, would be replaced.
    NotWritable(io::Error),
    /// Not a regular file any more.
    NotRegular(&'static str),
    /// The file has this many names: renaming over one would cut it off
    /// from the others, which would keep the old text.
    HardLinks(u64),
    /// The file is not the one read, or its bytes are not the ones read:
    /// someone saved it while it was being formatted.
    Changed,
    /// The new file could not be given the original's setuid or setgid
    /// bits with its owner and group (the mode each had).
    SpecialBits {
        original: u32,
        replacement: u32,
    },
    Io(io::Error),
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> WriteError {
        WriteError::Io(error)
    }
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::NotWritable(error) => write!(f, "you may not write it ({})", error.kind()),
            WriteError::NotRegular(kind) => write!(f, "it is now {kind}, not a regular file"),
            WriteError::HardLinks(links) => write!(
                f,
                "it has {links} hard links, and replacing it would leave the other names with the old text"
            ),
            WriteError::Changed => write!(f, "it changed while formatting"),
            WriteError::SpecialBits { original, replacement } => write!(
                f,
                "its setuid or setgid bits could not be kept (mode {original:o} with its owner, {replacement:o} on the replacement)"
            ),
            WriteError::Io(error) => write!(f, "{error}"),
        }
    }
}

/// Replaces the file at `path` with `text` through a temporary file in the
/// same directory (so the rename stays on one filesystem and is atomic),
/// carrying over the original's owner (when allowed) and mode, setuid and
/// setgid bits included. It refuses, leaving the file as it is, a file the
/// user may not write, one with other hard links, and one that is no
/// longer what `read` says was read: that is checked last, just before the
/// rename, so an edit saved while the file was formatted is not lost. If
/// anything fails before the rename, the temporary file is removed when it
/// is dropped.
pub(crate) fn write_atomically(path: &Utf8Path, read: &AsRead<'_>, text: &str) -> Result<(), WriteError> {
    // A symbolic link is followed and its target replaced: renaming over
    // the link itself would turn it into a plain file and cut it off from
    // the file it shared.
    let target = fs::canonicalize(path)?;
    let dir = target
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a file has a parent directory"))?;
    let metadata = fs::metadata(&target)?;
    may_replace(&target, &metadata)?;
    if Identity::of(&metadata) != read.identity {
        return Err(WriteError::Changed);
    }

    crate::interrupt::remove_temporaries_when_interrupted();
    let (mut temp, _in_flight) = crate::interrupt::InFlight::create(|| {
        tempfile::Builder::new().prefix(".halite-fmt-").tempfile_in(dir)
    })?;
    temp.write_all(text.as_bytes())?;
    // The owner first: changing it clears the setuid and setgid bits, which
    // the mode then sets again.
    keep_owner(temp.as_file(), &metadata);
    temp.as_file().set_permissions(metadata.permissions())?;
    kept_special_bits(&metadata, &temp.as_file().metadata()?)?;
    // Flushed to disk before the rename, so a crash just after it cannot
    // leave an empty file where the original was.
    temp.as_file().sync_all()?;

    // The last look, as close to the rename as it can be: the file must
    // still be the one read, byte for byte.
    let metadata = fs::metadata(&target)?;
    may_replace(&target, &metadata)?;
    if !still_as_read(&target, read)? {
        return Err(WriteError::Changed);
    }
    temp.persist(&target).map_err(|error| error.error)?;
    Ok(())
}

/// Whether the file at `target`, whose metadata is `metadata`, may be
/// replaced at all: a regular file, with one name, that the user may write.
fn may_replace(target: &std::path::Path, metadata: &fs::Metadata) -> Result<(), WriteError> {
    if !metadata.is_file() {
        return Err(WriteError::NotRegular(vfs::describe(metadata.file_type())));
    }
    let links = link_count(metadata);
    if links > 1 {
        return Err(WriteError::HardLinks(links));
    }
    may_write(target, metadata).map_err(WriteError::NotWritable)
}

/// Whether the user may write the file, by `access(2)`: the kernel's
/// answer for the real user, with its groups, ACLs and read-only mounts.
#[cfg(unix)]
fn may_write(target: &std::path::Path, _metadata: &fs::Metadata) -> io::Result<()> {
    rustix::fs::access(target, rustix::fs::Access::WRITE_OK).map_err(io::Error::from)
}

#[cfg(not(unix))]
fn may_write(_target: &std::path::Path, metadata: &fs::Metadata) -> io::Result<()> {
    if metadata.permissions().readonly() {
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, "the file is read-only"));
    }
    Ok(())
}

#[cfg(unix)]
fn link_count(metadata: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn link_count(_metadata: &fs::Metadata) -> u64 {
    1
}

/// Whether `target` is still the file `read` describes, with the same
/// bytes. Its identity alone would miss an edit written in place within
/// one tick of the modification time, so the bytes are compared; only
/// files being rewritten are read again, and they are read just once.
fn still_as_read(target: &std::path::Path, read: &AsRead<'_>) -> io::Result<bool> {
    let file = vfs::open_without_blocking(target)?;
    let metadata = file.metadata()?;
    if Identity::of(&metadata) != read.identity {
        return Ok(false);
    }
    let mut bytes = Vec::with_capacity(read.bytes.len());
    // One byte more than was read is enough to see that it grew.
    file.take(read.bytes.len() as u64 + 1).read_to_end(&mut bytes)?;
    Ok(bytes == read.bytes)
}

/// Refuses a replacement whose setuid or setgid bits differ from the
/// original's (see [`special_bits_kept`]).
#[cfg(unix)]
fn kept_special_bits(original: &fs::Metadata, replacement: &fs::Metadata) -> Result<(), WriteError> {
    use std::os::unix::fs::MetadataExt;
    let owned =
        |metadata: &fs::Metadata| Owned { mode: metadata.mode(), uid: metadata.uid(), gid: metadata.gid() };
    if special_bits_kept(owned(original), owned(replacement)) {
        Ok(())
    } else {
        Err(WriteError::SpecialBits {
            original: original.mode() & 0o7777,
            replacement: replacement.mode() & 0o7777,
        })
    }
}

#[cfg(not(unix))]
fn kept_special_bits(_original: &fs::Metadata, _replacement: &fs::Metadata) -> Result<(), WriteError> {
    Ok(())
}

/// A file's mode with its owner and group.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(not(unix), allow(dead_code))]
struct Owned {
    mode: u32,
    uid: u32,
    gid: u32,
}

/// Whether a replacement keeps the original's setuid and setgid bits: the
/// same bits, each for the same owner or group as before (a user who may
/// write someone else's setgid file makes a new file of their own, which
/// must not carry the bit for their group).
#[cfg_attr(not(unix), allow(dead_code))]
fn special_bits_kept(original: Owned, replacement: Owned) -> bool {
    const SETUID: u32 = 0o4000;
    const SETGID: u32 = 0o2000;
    let special = original.mode & (SETUID | SETGID);
    replacement.mode & (SETUID | SETGID) == special
        && (special & SETUID == 0 || replacement.uid == original.uid)
        && (special & SETGID == 0 || replacement.gid == original.gid)
}

/// Gives the new file the original's owner and group when they differ from
/// the temporary file's (as when an administrator formats someone else's
/// files). Only a privileged user can do this; anyone else keeps their own
/// ownership, as an editor saving the file would, so a failure is not an
/// error.
#[cfg(unix)]
fn keep_owner(file: &fs::File, original: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(current) = file.metadata() else { return };
    if (current.uid(), current.gid()) != (original.uid(), original.gid()) {
        let _ = std::os::unix::fs::fchown(file, Some(original.uid()), Some(original.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &fs::File, _original: &fs::Metadata) {}

/// A progress bar on standard error for a long run on a terminal; hidden
/// otherwise, so pipes and CI logs get only the file names.
fn progress_bar(files: usize) -> ProgressBar {
    if files <= PROGRESS_THRESHOLD || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    // The template is a constant; should it ever be rejected, the default
    // style is as good.
    if let Ok(style) = ProgressStyle::with_template("formatting {bar:40} {pos}/{len} files") {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;

    #[test]
    fn the_diff_names_both_sides_as_git_does_and_marks_a_missing_final_newline() {
        expect![[r#"
            --- a/dir/main.tf
            +++ b/dir/main.tf
            @@ -1,2 +1,2 @@
             x = 0
            -a=1
            \ No newline at end of file
            +a = 1
            \ No newline at end of file
        "#]]
        .assert_eq(&unified_diff("dir/main.tf", "x = 0\na=1", "x = 0\na = 1"));
    }

    /// The names in `dir`, to show that no temporary file is left behind.
    fn names(dir: &Utf8Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("the directory is readable")
            .map(|entry| entry.expect("the directory is readable").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn writing_replaces_the_text_and_keeps_the_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        let path = dir.join("main.tf");
        fs::write(&path, "a=1\n").expect("the file is written");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("permissions are set");

        replace(&path, "a = 1\n").expect("the file is replaced");
        assert_eq!(fs::read_to_string(&path).expect("the file is readable"), "a = 1\n");
        let mode = fs::metadata(&path).expect("the file has metadata").permissions().mode();
        assert_eq!(mode & 0o7777, 0o640);
        assert_eq!(names(dir), ["main.tf"]);
    }

    /// Reads `path` as a run does, then writes `text` over it.
    fn replace(path: &Utf8Path, text: &str) -> Result<(), WriteError> {
        let (bytes, identity) = read(path);
        write_atomically(path, &AsRead { identity, bytes: &bytes }, text)
    }

    fn read(path: &Utf8Path) -> (Vec<u8>, Identity) {
        read_file(path).unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    /// The user's own setuid and setgid file, and, when the tests run as
    /// root, another user's: changing the owner of a file clears those
    /// bits, so they must be set after it.
    #[cfg(unix)]
    #[test]
    fn writing_keeps_setuid_and_setgid_bits() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        let path = dir.join("main.tf");
        fs::write(&path, "a=1\n").expect("the file is written");
        let mut owners = vec![None];
        if fs::metadata(&path).expect("the file has metadata").uid() == 0 {
            owners.push(Some(4321));
        } else {
            eprintln!("not root: another user's setuid file is not tried");
        }
        for owner in owners {
            fs::write(&path, "a=1\n").expect("the file is written");
            std::os::unix::fs::chown(&path, owner, owner).expect("the owner is set");
            fs::set_permissions(&path, fs::Permissions::from_mode(0o6754)).expect("permissions are set");
            let before = fs::metadata(&path).expect("the file has metadata");
            replace(&path, "a = 1\n").expect("the file is replaced");
            assert_eq!(fs::read_to_string(&path).expect("the file is readable"), "a = 1\n");
            let after = fs::metadata(&path).expect("the file has metadata");
            assert_eq!(after.mode() & 0o7777, 0o6754, "owner {owner:?}: mode {:o}", after.mode());
            assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()), "owner {owner:?}");
            assert_ne!(after.ino(), before.ino(), "owner {owner:?}: replaced by a rename");
            assert_eq!(names(dir), ["main.tf"]);
        }
    }

    #[test]
    fn special_bits_are_kept_only_with_their_owner_and_group() {
        let file = |mode, uid, gid| Owned { mode, uid, gid };
        // Nothing special: the owner may change, as when a user saves a
        // file someone else let them write.
        assert!(special_bits_kept(file(0o644, 1, 1), file(0o644, 2, 2)));
        assert!(special_bits_kept(file(0o4755, 1, 1), file(0o4755, 1, 2)));
        assert!(special_bits_kept(file(0o2755, 1, 1), file(0o2755, 2, 1)));
        assert!(special_bits_kept(file(0o6755, 1, 1), file(0o6755, 1, 1)));
        // Lost, gained, or kept for someone else.
        assert!(!special_bits_kept(file(0o6755, 1, 1), file(0o0755, 1, 1)));
        assert!(!special_bits_kept(file(0o2755, 1, 1), file(0o0755, 1, 1)));
        assert!(!special_bits_kept(file(0o0755, 1, 1), file(0o4755, 1, 1)));
        assert!(!special_bits_kept(file(0o4755, 1, 1), file(0o4755, 2, 1)));
        assert!(!special_bits_kept(file(0o2755, 1, 1), file(0o2755, 1, 2)));
    }

    /// An edit saved between the read and the rename, in each way an editor
    /// saves: the run refuses, the edit stays, and no temporary file is
    /// left behind.
    #[test]
    fn a_file_changed_after_it_was_read_is_not_replaced() {
        type Edit = fn(&Utf8Path);
        let edits: [(&str, Edit); 4] = [
            // In place, same length: only the bytes tell.
            ("rewritten in place", |path| fs::write(path, "b=2\n").expect("an edit")),
            ("grown", |path| fs::write(path, "a=1\nb=2\n").expect("an edit")),
            ("replaced by a rename", |path| {
                let new = path.with_file_name("new.tmp");
                fs::write(&new, "a=1\n").expect("an edit");
                fs::rename(&new, path).expect("a rename");
            }),
            ("deleted and written again", |path| {
                fs::remove_file(path).expect("a deletion");
                fs::write(path, "c=3\n").expect("an edit");
            }),
        ];
        for (how, edit) in edits {
            let dir = tempfile::tempdir().expect("a temporary directory");
            let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
            let path = dir.join("main.tf");
            fs::write(&path, "a=1\n").expect("the file is written");
            let (bytes, identity) = read(&path);
            edit(&path);
            let edited = fs::read(&path).expect("the edit is readable");
            let result = write_atomically(&path, &AsRead { identity, bytes: &bytes }, "a = 1\n");
            assert!(matches!(result, Err(WriteError::Changed)), "{how}: {result:?}");
            assert_eq!(fs::read(&path).expect("readable"), edited, "{how}");
            assert_eq!(names(dir), ["main.tf"], "{how}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_file_with_other_hard_links_is_not_replaced() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        let path = dir.join("main.tf");
        fs::write(&path, "a=1\n").expect("the file is written");
        fs::hard_link(&path, dir.join("other.tf")).expect("a hard link");
        let result = replace(&path, "a = 1\n");
        assert!(matches!(result, Err(WriteError::HardLinks(2))), "{result:?}");
        assert_eq!(fs::read_to_string(&path).expect("readable"), "a=1\n");
        assert_eq!(names(dir), ["main.tf", "other.tf"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_being_opened() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        let path = dir.join("pipe.tf");
        rustix::fs::mknodat(rustix::fs::CWD, path.as_std_path(), rustix::fs::FileType::Fifo, 0o644.into(), 0)
            .expect("a FIFO");
        // Opening it for reading would wait for a writer: the test would
        // hang rather than fail.
        assert!(matches!(read_file(&path), Err(ReadError::NotRegular("a FIFO"))));
        assert!(matches!(read_file(dir), Err(ReadError::NotRegular("a directory"))));
    }

    #[cfg(unix)]
    #[test]
    fn writing_through_a_symbolic_link_replaces_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        fs::create_dir(dir.join("real")).expect("a directory");
        fs::write(dir.join("real/main.tf"), "a=1\n").expect("the file is written");
        std::os::unix::fs::symlink("real/main.tf", dir.join("link.tf")).expect("a symbolic link");

        replace(&dir.join("link.tf"), "a = 1\n").expect("the target is replaced");
        let link = fs::symlink_metadata(dir.join("link.tf")).expect("the link is there");
        assert!(link.file_type().is_symlink(), "the link became a plain file");
        assert_eq!(fs::read_to_string(dir.join("real/main.tf")).expect("readable"), "a = 1\n");
        assert_eq!(names(dir), ["link.tf", "real"]);
        assert_eq!(names(&dir.join("real")), ["main.tf"]);
    }

    #[test]
    fn writing_a_missing_file_fails_and_creates_nothing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        let read = AsRead { identity: Identity { device: 0, inode: 0, len: 0 }, bytes: b"" };
        assert!(write_atomically(&dir.join("gone.tf"), &read, "a = 1\n").is_err());
        assert_eq!(names(dir), Vec::<String>::new());
    }

    #[test]
    fn a_failed_file_outweighs_a_check_finding() {
        let check = Options { check: true, diff: false, style: None, stdin_filename: None };
        let write = Options { check: false, diff: false, style: None, stdin_filename: None };
        assert_eq!(outcome(true, true, check), Outcome::Incomplete);
        assert_eq!(outcome(true, false, check), Outcome::FoundErrors);
        assert_eq!(outcome(false, false, check), Outcome::Clean);
        assert_eq!(outcome(true, false, write), Outcome::Clean);
        assert_eq!(outcome(false, true, write), Outcome::Incomplete);
    }
}
