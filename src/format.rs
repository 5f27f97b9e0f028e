//! `halite fmt`: formats files in place, lists or diffs what would change, or
//! formats standard input to standard output.
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
//! the new one, never half of each.

use std::{
    fs,
    io::{self, IsTerminal, Read, Write},
};

use anyhow::{Context, Result, bail};
use camino::{Utf8Path, Utf8PathBuf};
use db::{File, RootDatabase, SourceSyntax};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use similar::TextDiff;

use crate::{Outcome, discover, render};

/// What `halite fmt` was asked to do besides formatting.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Write nothing; report what would change.
    pub(crate) check: bool,
    /// Print a unified diff of each change instead of the file's name.
    pub(crate) diff: bool,
}

/// Runs with more files than this show a progress bar, when standard error
/// is a terminal. Smaller runs finish before a bar would be worth drawing.
const PROGRESS_THRESHOLD: usize = 100;

/// The name standard input goes by in diagnostics, lists and diffs.
const STDIN_NAME: &str = "<stdin>";

/// Files formatted between two evictions of parse trees; see `run`.
const FILES_PER_CHUNK: usize = 256;

pub(crate) fn run(paths: &[Utf8PathBuf], options: Options) -> Result<Outcome> {
    if paths.iter().any(|path| path == "-") {
        if paths.len() > 1 {
            bail!("`-` (standard input) cannot be formatted together with other paths");
        }
        return run_stdin(options);
    }
    // A path that does not exist stops the run before anything is written:
    // a mistyped argument should not leave the others half done.
    let paths = discover::hcl_files(paths, discover::Syntaxes::Native)?;
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
    let contents: Vec<io::Result<Vec<u8>>> = paths.par_iter().map(fs::read).collect();
    let files: Vec<(Utf8PathBuf, io::Result<File>)> = paths
        .into_iter()
        .zip(contents)
        .map(|(path, bytes)| {
            let file = bytes.map(|bytes| db.set_file_bytes(path.clone(), &bytes));
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
                    Ok(file) => format_file(db, *file, path, options),
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

    report(&db, &files, &verdicts, options)
}

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
    Unreadable(String),
    /// Formatting would change it, but the new text could not be put in
    /// place; the original is intact.
    Unwritable(String),
}

fn format_file(db: &RootDatabase, file: File, path: &Utf8Path, options: Options) -> Verdict {
    let Some(formatted) = formatted(db, file) else {
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
        && let Err(error) = write_atomically(path, formatted)
    {
        return Verdict::Unwritable(error.to_string());
    }
    Verdict::Reformatted { diff }
}

/// The formatted text of `file`, or `None` when it must not be formatted:
/// its bytes are not UTF-8 (it has no tree), or it has syntax errors (the
/// formatter's output on a broken tree is unspecified, and the user's text
/// must not be reshaped around a mistake). The database's query decides, so
/// every front end refuses the same files.
fn formatted(db: &RootDatabase, file: File) -> Option<&str> {
    db::format(db, file).as_deref()
}

/// Prints what the run did, file by file in path order: the names of the
/// files changed (or their diffs) on standard output, diagnostics and errors
/// on standard error.
fn report(
    db: &RootDatabase,
    files: &[(Utf8PathBuf, io::Result<File>)],
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
                if let Ok(file) = file {
                    eprint!("{}", diagnostics(db, &renderer, *file));
                }
            }
            Verdict::Unreadable(error) => {
                failed = true;
                stdout.flush().context("cannot write to standard output")?;
                eprintln!("halite: cannot read `{path}`: {error}");
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
/// use it. With `--check`, the text is not printed; `<stdin>` is listed if
/// it would change. With `--diff`, the diff is printed instead of the text.
fn run_stdin(options: Options) -> Result<Outcome> {
    let mut bytes = Vec::new();
    io::stdin().read_to_end(&mut bytes).context("cannot read standard input")?;
    let mut db = RootDatabase::new();
    let file = db.set_file_bytes(STDIN_NAME, &bytes);
    let Some(formatted) = formatted(&db, file) else {
        eprint!("{}", diagnostics(&db, &render::Human::new(color_on_stderr()), file));
        return Ok(Outcome::Incomplete);
    };
    let text: &str = file.text(&db);
    let changed = formatted != text;
    let mut stdout = io::stdout().lock();
    if options.diff {
        if changed { write!(stdout, "{}", unified_diff(STDIN_NAME, text, formatted)) } else { Ok(()) }
    } else if options.check {
        if changed { writeln!(stdout, "{STDIN_NAME}") } else { Ok(()) }
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
    analysis::syntax_diagnostics(db, file)
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
fn unified_diff(path: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Replaces the file at `path` with `text` through a temporary file in the
/// same directory (so the rename stays on one filesystem and is atomic),
/// carrying over the original's permissions. If anything fails before the
/// rename, the temporary file is removed when it is dropped and the original
/// is untouched.
fn write_atomically(path: &Utf8Path, text: &str) -> io::Result<()> {
    // A symbolic link is followed and its target replaced: renaming over
    // the link itself would turn it into a plain file and cut it off from
    // the file it shared.
    let target = fs::canonicalize(path)?;
    let dir = target
        .parent()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "a file has a parent directory"))?;
    let metadata = fs::metadata(&target)?;

    let mut temp = tempfile::Builder::new().prefix(".halite-fmt-").tempfile_in(dir)?;
    temp.write_all(text.as_bytes())?;
    temp.as_file().set_permissions(metadata.permissions())?;
    keep_owner(temp.as_file(), &metadata);
    // Flushed to disk before the rename, so a crash just after it cannot
    // leave an empty file where the original was.
    temp.as_file().sync_all()?;
    temp.persist(&target).map_err(|error| error.error)?;
    Ok(())
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

        write_atomically(&path, "a = 1\n").expect("the file is replaced");
        assert_eq!(fs::read_to_string(&path).expect("the file is readable"), "a = 1\n");
        let mode = fs::metadata(&path).expect("the file has metadata").permissions().mode();
        assert_eq!(mode & 0o7777, 0o640);
        assert_eq!(names(dir), ["main.tf"]);
    }

    #[cfg(unix)]
    #[test]
    fn writing_through_a_symbolic_link_replaces_its_target_and_keeps_the_link() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let dir = Utf8Path::from_path(dir.path()).expect("a UTF-8 temporary path");
        fs::create_dir(dir.join("real")).expect("a directory");
        fs::write(dir.join("real/main.tf"), "a=1\n").expect("the file is written");
        std::os::unix::fs::symlink("real/main.tf", dir.join("link.tf")).expect("a symbolic link");

        write_atomically(&dir.join("link.tf"), "a = 1\n").expect("the target is replaced");
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
        assert!(write_atomically(&dir.join("gone.tf"), "a = 1\n").is_err());
        assert_eq!(names(dir), Vec::<String>::new());
    }

    #[test]
    fn a_failed_file_outweighs_a_check_finding() {
        let check = Options { check: true, diff: false };
        let write = Options { check: false, diff: false };
        assert_eq!(outcome(true, true, check), Outcome::Incomplete);
        assert_eq!(outcome(true, false, check), Outcome::FoundErrors);
        assert_eq!(outcome(false, false, check), Outcome::Clean);
        assert_eq!(outcome(true, false, write), Outcome::Clean);
        assert_eq!(outcome(false, true, write), Outcome::Incomplete);
    }
}
