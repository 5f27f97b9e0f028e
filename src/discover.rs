//! Finding the files a command works on.

use std::{fmt, path::Path, sync::Mutex};

use anyhow::{Context, Result};
use camino::{Utf8Path, Utf8PathBuf};
use halite::host::cache::{ResultCache, WalkInputs, WalkKey};
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

/// What a search found: the files to work on, sorted by path and without
/// duplicates, so output is the same from run to run, and what a walk could
/// not read, sorted by path.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub(crate) files: Vec<Utf8PathBuf>,
    pub(crate) problems: Vec<Problem>,
    /// Directories walked that hold no `halite.toml`, when the walk knows
    /// (it was recorded for the result cache, or read from its record):
    /// the search for rule levels need not look there.
    pub(crate) without_config: Vec<Utf8PathBuf>,
    /// The roots walked, when every path searched was a directory whose
    /// walk listed each directory of the files it found and found no
    /// `halite.toml` in any: then only a configuration that applies in a
    /// root (its own or one above it) could apply to a file found.
    /// `None` when a file was named, or a walk does not know.
    pub(crate) config_free_roots: Option<Vec<Utf8PathBuf>>,
}

/// Something a walk met and could not read: a directory it may not list, a
/// file of a wanted kind whose path is not UTF-8, an ignore file it could
/// not parse. The walk goes on without it; the command says so and exits 2,
/// having done the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    /// The path, as written (bytes that are not UTF-8 as `\xNN`).
    pub(crate) path: String,
    pub(crate) reason: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path, self.reason)
    }
}

impl Found {
    /// Prints each problem on standard error, as `halite: cannot read
    /// `PATH`: REASON`; returns whether there was any.
    pub(crate) fn report_problems(&self) -> bool {
        for problem in &self.problems {
            eprintln!("halite: {problem}");
        }
        !self.problems.is_empty()
    }

    /// Adds a problem for each path named on the command line that could
    /// not be read, with why.
    pub(crate) fn cannot_read(&mut self, paths: Vec<(&Utf8PathBuf, std::io::Error)>) {
        for (path, error) in paths {
            self.problems.push(Problem { path: path.to_string(), reason: error.to_string() });
        }
        self.problems.sort_by(|a, b| a.path.cmp(&b.path));
        self.problems.dedup();
    }

    /// Says on standard error when the paths searched hold no file to work
    /// on (`warning: no HCL files found in `PATH``), as ruff does, and
    /// leaves the exit code alone: an empty run is not an error, since a
    /// CI job over a monorepo's changed directories may well have none, but
    /// a mistyped path or a pattern that matched only other files should
    /// not pass in silence.
    pub(crate) fn warn_if_empty(&self, paths: &[Utf8PathBuf]) {
        // A path that could not be read has been said already.
        if self.files.is_empty() && self.problems.is_empty() {
            let paths: Vec<String> = paths.iter().map(|path| format!("`{path}`")).collect();
            eprintln!("warning: no HCL files found in {}", paths.join(", "));
        }
    }
}

/// The files to work on. A file argument is taken whatever its name; a
/// directory is walked for HCL files of the given syntaxes. A path named on
/// the command line that does not exist or cannot be read is an error: the
/// tool cannot do what it was asked, and does nothing. What a walk cannot
/// read below such a path is a [`Problem`], and the walk goes on.
///
/// With a result cache, a directory's walk is recorded in it, and a walk
/// whose record holds (every directory listed and every ignore file read
/// as it was: see [`halite::host::cache::RecordedWalk`]) is not done again.
pub(crate) fn hcl_files(
    paths: &[Utf8PathBuf],
    syntaxes: Syntaxes,
    cache: Option<&ResultCache>,
) -> Result<Found> {
    let mut found = Found::default();
    // Whether the files are in path order already: those of one walk
    // through the cache are (a recorded walk's files are sorted, and the
    // record is of this very build).
    let mut in_order = paths.len() == 1;
    let mut config_free_roots = Some(Vec::new());
    for path in paths {
        let metadata = std::fs::metadata(path).with_context(|| format!("cannot read `{path}`"))?;
        if metadata.is_dir() {
            match cache {
                Some(cache) => {
                    let (ordered, config_free) = walk_recorded(path, syntaxes, cache, &mut found);
                    in_order &= ordered;
                    match config_free_roots.as_mut() {
                        Some(roots) if config_free => roots.push(path.clone()),
                        _ => config_free_roots = None,
                    }
                }
                None => {
                    walk(path, syntaxes, &mut found, None);
                    in_order = false;
                    config_free_roots = None;
                }
            }
        } else {
            found.files.push(vfs::tidy(path));
            config_free_roots = None;
        }
    }
    found.config_free_roots = config_free_roots;
    if !in_order {
        vfs::sort_paths(&mut found.files);
    }
    // By text: the paths are tidied, so two that name a file alike are
    // written alike (comparing them as paths parses their components).
    found.files.dedup_by(|a, b| a.as_str() == b.as_str());
    found.problems.sort_by(|a, b| a.path.cmp(&b.path));
    found.problems.dedup();
    Ok(found)
}

/// The other module files of the directory of each module file named in
/// `paths` (a file, not a directory walked), named as the file is
/// (`main.tf`'s as `variables.tf`, `./a/main.tf`'s as `a/variables.tf`):
/// a module's file is checked with its module. A directory that cannot
/// be listed adds none.
pub(crate) fn module_siblings(paths: &[Utf8PathBuf]) -> Vec<Utf8PathBuf> {
    let mut dirs: Vec<Utf8PathBuf> = Vec::new();
    let mut siblings = Vec::new();
    for path in paths {
        if !vfs::is_module_file(path) || std::fs::metadata(path).is_ok_and(|metadata| metadata.is_dir()) {
            continue;
        }
        // By the tidied name: `a/main.tf` and `./a/main.tf` are of one
        // directory.
        let named = vfs::tidy(path);
        let parent = named.parent().unwrap_or(Utf8Path::new("")).to_owned();
        if dirs.contains(&parent) {
            continue;
        }
        dirs.push(parent);
        siblings.extend(halite::host::check::module_files_beside(&named));
    }
    siblings
}

/// What a walk's record is kept under: everything that decides the walk
/// besides the directories it lists and the ignore files it reads.
fn walk_key(root: &Utf8Path, syntaxes: Syntaxes, cache: &ResultCache) -> Option<WalkKey> {
    let current_dir = std::env::current_dir().ok()?;
    let current_dir = current_dir.to_str()?;
    // The ignore files above the root are looked for above its canonical
    // path, as the walker looks.
    let canonical = std::fs::canonicalize(root).ok()?;
    let global = ignore::gitignore::gitconfig_excludes_path();
    let global = match &global {
        Some(path) => path.to_str()?,
        None => "",
    };
    let syntaxes = match syntaxes {
        Syntaxes::Native => "native",
        Syntaxes::All => "all",
    };
    Some(cache.walk_key(&[current_dir, root.as_str(), canonical.to_str()?, syntaxes, global]))
}

/// [`walk`], unless the cache's record of it holds; a walk that met no
/// problem is recorded. Returns whether the files it added are in path
/// order, and whether the walk is known to have listed no directory
/// holding a `halite.toml` (each directory of the files it found is
/// listed).
fn walk_recorded(
    root: &Utf8Path,
    syntaxes: Syntaxes,
    cache: &ResultCache,
    found: &mut Found,
) -> (bool, bool) {
    let Some(key) = walk_key(root, syntaxes, cache) else {
        walk(root, syntaxes, found, None);
        return (false, false);
    };
    if let Some(recorded) = cache.recorded_walk(&key) {
        found.files.extend(recorded.files);
        found.without_config.extend(recorded.without_config);
        return (true, !recorded.config_in_listed_dirs);
    }
    let started = std::time::SystemTime::now();
    let mut walked = Found::default();
    let mut listed = None;
    walk(root, syntaxes, &mut walked, Some(&mut listed));
    // Recorded in order, so that a run reading the record need not sort.
    vfs::sort_paths(&mut walked.files);
    let mut config_free = false;
    if walked.problems.is_empty()
        && let Some(Listed { dirs, links }) = listed
        && let Some(files) = watched_files(root, &dirs)
    {
        let listed = dirs.len();
        let inputs = WalkInputs { dirs, files, links };
        let without_config = cache.record_walk(&key, started, inputs, &walked.files);
        // A directory that could not be looked at is not among them.
        config_free = without_config.len() == listed;
        found.without_config.extend(without_config);
    }
    found.files.append(&mut walked.files);
    found.problems.append(&mut walked.problems);
    (true, config_free)
}

/// The files a walk of `root` that listed `dirs` read besides those
/// directories' entries (or looked for, and found none), as [`walk`]'s
/// walker reads them: each listed directory's `.gitignore` and
/// `.ignore`, those of every directory above the root (and whether
/// there is one), the exclude file of each repository met, and the
/// global excludes file git's configuration names. `None` when one
/// cannot be named.
fn watched_files(root: &Utf8Path, dirs: &[Utf8PathBuf]) -> Option<Vec<Utf8PathBuf>> {
    const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];
    let mut files = Vec::new();
    // In a listed directory, an ignore file that is not there now can
    // only appear by changing the directory.
    for dir in dirs {
        for name in IGNORE_FILES {
            let path = dir.join(name);
            if std::fs::symlink_metadata(&path).is_ok() {
                files.push(path);
            }
        }
        if std::fs::symlink_metadata(dir.join(".git")).is_ok() {
            git_exclude_files(dir, &mut files)?;
        }
    }
    let canonical = Utf8PathBuf::from_path_buf(std::fs::canonicalize(root).ok()?).ok()?;
    for parent in canonical.ancestors().skip(1) {
        files.extend(IGNORE_FILES.iter().map(|name| parent.join(name)));
        files.push(parent.join(".git"));
        git_exclude_files(parent, &mut files)?;
    }
    if let Some(global) = ignore::gitignore::gitconfig_excludes_path() {
        files.push(Utf8PathBuf::from_path_buf(global).ok()?);
    }
    Some(files)
}

/// The files the walker reads to find the exclude file of the repository
/// whose root is `dir` (nothing when `dir` holds no `.git`): the
/// directory's `.git/info/exclude`, or for a worktree's or submodule's
/// `.git` file, that file, the `commondir` file of the directory it names
/// and the exclude file that one names, as the walker resolves them.
fn git_exclude_files(dir: &Utf8Path, files: &mut Vec<Utf8PathBuf>) -> Option<()> {
    let git = dir.join(".git");
    let Ok(metadata) = std::fs::metadata(&git) else { return Some(()) };
    if !metadata.is_file() {
        files.push(git.join("info/exclude"));
        return Some(());
    }
    files.push(git.clone());
    let first_line = |path: &Utf8Path| -> Option<String> {
        let text = std::fs::read_to_string(path).ok()?;
        Some(text.lines().next()?.to_owned())
    };
    let Some(real) = first_line(&git).and_then(|line| line.strip_prefix("gitdir: ").map(Utf8PathBuf::from))
    else {
        return Some(());
    };
    let commondir = real.join("commondir");
    files.push(commondir.clone());
    let Some(line) = first_line(&commondir) else { return Some(()) };
    let common = if line.starts_with('.') { real.join(line) } else { Utf8PathBuf::from(line) };
    files.push(common.join("info/exclude"));
    Some(())
}

/// Walks `root` on several threads (a monorepo has thousands of
/// directories, each read and each `.gitignore` parsed); the caller sorts.
/// Each directory listed, and each link named as a wanted file, goes into
/// `listed` when asked (`None` there when a directory's path is not
/// UTF-8).
fn walk(root: &Utf8Path, syntaxes: Syntaxes, found: &mut Found, listed: Option<&mut Option<Listed>>) {
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
    let shared = Mutex::new(std::mem::take(found));
    let recording: Option<Mutex<Option<Listed>>> =
        listed.as_ref().map(|_| Mutex::new(Some(Listed::default())));
    walker.run(|| {
        let (shared, recording) = (&shared, &recording);
        Box::new(move |entry| {
            let mut problems = Vec::new();
            let file = match entry {
                Ok(entry) => {
                    if let Some(recording) = recording
                        && entry.file_type().is_some_and(|file_type| file_type.is_dir())
                    {
                        // A directory that cannot be named cannot be
                        // recorded: `None` for the whole walk.
                        let mut recording = recording.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                        match (Utf8Path::from_path(entry.path()), recording.as_mut()) {
                            (Some(dir), Some(listed)) => listed.dirs.push(vfs::tidy(dir)),
                            _ => *recording = None,
                        }
                    }
                    let wanted = wanted_file(entry, syntaxes).unwrap_or_else(|problem| {
                        problems.push(problem);
                        None
                    });
                    if let (Some((path, Some(leads_to_file))), Some(recording)) = (&wanted, recording)
                        && let Some(listed) =
                            recording.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).as_mut()
                    {
                        listed.links.push((path.clone(), *leads_to_file));
                    }
                    wanted.and_then(|(path, link)| (link != Some(false)).then_some(path))
                }
                Err(error) => {
                    problems_of(&error, None, &mut problems);
                    None
                }
            };
            if file.is_some() || !problems.is_empty() {
                let mut shared = shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                shared.files.extend(file);
                shared.problems.append(&mut problems);
            }
            WalkState::Continue
        })
    });
    *found = shared.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let (Some(listed), Some(recording)) = (listed, recording) {
        *listed = recording.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    }
}

/// What a walk that is recorded lists besides the files it finds: each
/// directory, and each symbolic link named as a wanted file, with whether
/// it leads to a regular file (found through it).
#[derive(Default)]
struct Listed {
    dirs: Vec<Utf8PathBuf>,
    links: Vec<(Utf8PathBuf, bool)>,
}

/// The entry's path when it is a file of the wanted syntaxes, or a
/// symbolic link named as one that leads to a regular file (Terraform
/// reads a module's files through their links, as `vfs::load` does), with
/// `Some(true)` for a link; a problem when its path is not UTF-8 (the
/// command could not name it), or when it is a link that leads to no
/// regular file.
fn wanted_file(entry: DirEntry, syntaxes: Syntaxes) -> Result<Option<(Utf8PathBuf, Option<bool>)>, Problem> {
    let Some(file_type) = entry.file_type() else { return Ok(None) };
    if !file_type.is_file() && !file_type.is_symlink() {
        return Ok(None);
    }
    // The one table of file kinds says which names are HCL files; a name
    // that is not UTF-8 is judged by its UTF-8 parts, so that `caf\xE9.tf`
    // is reported and `caf\xE9.txt` passed over like any other file.
    let name = entry.file_name().to_string_lossy();
    let kind = vfs::FileKind::of(camino::Utf8Path::new(&*name));
    let wanted =
        kind.is_some_and(|kind| syntaxes == Syntaxes::All || kind.syntax == vfs::SourceSyntax::Native);
    if !wanted {
        return Ok(None);
    }
    // A link is followed only to a regular file: one to a directory is
    // not entered (a walk could loop). A link named as a file of the
    // module that leads to no file is a file that cannot be read, as
    // Terraform's "Failed to read file" says of it: reported, not passed
    // over, or the module would be checked without it.
    let link = match file_type.is_symlink().then(|| std::fs::metadata(entry.path())) {
        None => None,
        Some(Ok(target)) if target.is_file() => Some(true),
        Some(target) => {
            let reason = match target {
                Ok(target) => format!("it is a link to {}, not a file", vfs::describe(target.file_type())),
                Err(error) => format!("it is a link to nothing that can be read: {error}"),
            };
            return Err(Problem { path: escaped(entry.path()), reason });
        }
    };
    match Utf8PathBuf::from_path_buf(entry.into_path()) {
        Ok(path) => Ok(Some((vfs::tidy(&path), link))),
        Err(path) => Err(Problem { path: escaped(&path), reason: "its path is not UTF-8".to_owned() }),
    }
}

/// The problems a walk's error stands for, each naming the path it is
/// about: the directory that could not be listed, the ignore file that
/// could not be parsed (`ignore` gathers several in one error).
fn problems_of(error: &ignore::Error, path: Option<&Path>, problems: &mut Vec<Problem>) {
    match error {
        ignore::Error::Partial(errors) => {
            for error in errors {
                problems_of(error, path, problems);
            }
        }
        ignore::Error::WithPath { path, err } => problems_of(err, Some(path), problems),
        ignore::Error::WithDepth { err, .. } => problems_of(err, path, problems),
        ignore::Error::Loop { child, .. } => {
            problems.push(Problem { path: escaped(child), reason: error.to_string() });
        }
        _ => problems
            .push(Problem { path: path.map_or_else(|| "?".to_owned(), escaped), reason: error.to_string() }),
    }
}

/// `path` as text: its UTF-8 parts as they are, other bytes as `\xNN`, so
/// that the name printed is the name on disk, not U+FFFD.
fn escaped(path: &Path) -> String {
    let tidied = path.strip_prefix(".").unwrap_or(path);
    let path = if tidied.as_os_str().is_empty() { path } else { tidied };
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut text = String::new();
        for chunk in path.as_os_str().as_bytes().utf8_chunks() {
            text.push_str(chunk.valid());
            for byte in chunk.invalid() {
                text.push_str(&format!("\\x{byte:02X}"));
            }
        }
        text
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned()
    }
}

fn is_skipped_dir(name: &std::ffi::OsStr) -> bool {
    let name = name.to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&&*name)
}
