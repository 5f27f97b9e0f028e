//! The watcher: notify's events become [`ChangeBatch`]es.
//!
//! Events are only hints of which paths to look at. A thread of the
//! watcher's own collects them until they have been quiet for a moment
//! (so that a burst of hundreds of writes becomes one batch), and only then
//! reads each path it heard about. The batch is the difference between what
//! is on disk then and what the watcher last reported: a rename is a deletion
//! and a creation, an atomic save (write a temporary file, rename it over the
//! original) is one modification, since the temporary name is not a module
//! file's, and a file written twice is one change. With nothing pending the
//! thread blocks on its channel, and notify's thread on the kernel, so an
//! idle watch never wakes.
//!
//! Two things keep the watcher's picture equal to the disk although events
//! and reads interleave: when the watch starts, the directory is compared
//! with what the caller loaded (a change in between raised no event), and
//! after a rename or removal every known file is checked for existence
//! (a file already reported under a middle name of a chain of renames is
//! not always named again).
//!
//! inotify watches directories, and reports a change under the name it was
//! made through, so three kinds of change never reach the root's watch, and
//! each has a watch of its own, kept in step with the files after each batch:
//!
//! - a module file that is a symbolic link (`main.tf -> ../shared/main.tf`)
//!   changes when its target does: the target itself is watched, through
//!   the link (an inotify watch on a file is on its inode, so it hears a
//!   write through any name, and nothing else: a watch on the target's
//!   directory would wake for every file in it). When the target is
//!   replaced (an atomic save) or deleted, that watch's event makes the
//!   link be read again and the watch be set on what is there now. A target
//!   that does not exist is waited for at the nearest directory above it
//!   that does, and a link further along a chain is watched in its
//!   directory, since it can be pointed elsewhere;
//! - a module file with several hard links changes through its other names:
//!   it is watched itself in the same way;
//! - the root itself can go away: its files are then deleted, the nearest
//!   directory above it is watched, and when it is a directory again it is
//!   watched again and its files are created (see [`RootChange`]).
//!
//! Directories linked into a [`Scope::Tree`] are not entered, as
//! [`crate::load`] does not enter them.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap, HashSet},
    ffi::OsStr,
    hash::{Hash as _, Hasher as _},
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
        mpsc,
    },
    time::{Duration, Instant},
};

use camino::{Utf8Path, Utf8PathBuf};
use notify::{
    Config, EventKind, RecommendedWatcher, RecursiveMode, Watcher as _,
    event::{AccessKind, AccessMode, ModifyKind},
};

use crate::{
    Change, ChangeBatch, FileSet, LoadedFile, RootChange, Scope,
    load::{Error, child, list_files, read_file},
};

/// How long the watcher waits before it reports.
#[derive(Debug, Clone, Copy)]
pub struct WatchOptions {
    /// How long no event must come before the batch is formed.
    pub settle: Duration,
    /// The longest a batch waits for activity to settle: under a constant
    /// stream of writes, batches still come this often.
    pub max_delay: Duration,
    /// The largest file read, in bytes (see [`crate::DEFAULT_MAX_FILE_SIZE`]):
    /// a file that grows past it keeps its last state, as one that cannot
    /// be read does.
    pub max_file_size: u64,
    /// Which files are followed; the files the watch is started with
    /// should be the same set's.
    pub files: FileSet,
}

impl Default for WatchOptions {
    /// Short enough that an edit is seen at once, long enough that an
    /// editor's save (a few system calls within a millisecond or two) and a
    /// script's burst of writes are one batch each, even when the writer is
    /// not scheduled for a while on a busy machine.
    fn default() -> WatchOptions {
        WatchOptions {
            settle: Duration::from_millis(100),
            max_delay: Duration::from_secs(1),
            max_file_size: crate::DEFAULT_MAX_FILE_SIZE,
            files: FileSet::Module,
        }
    }
}

/// A running watch of a directory. Dropping it stops the watch: no batch is
/// handed over after that.
pub struct Watcher {
    /// To tell the batching thread to stop; it owns notify's watcher, whose
    /// `Drop` stops notify's thread.
    signals: mpsc::Sender<Signal>,
    stopped: Arc<AtomicBool>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").finish_non_exhaustive()
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::Release);
        let _ = self.signals.send(Signal::Stop);
    }
}

/// What notify's handler (and the watcher's `Drop`) pass to the batching
/// thread.
enum Signal {
    /// These paths had events. `vanished` is set when some were renames or
    /// removals (of the root itself, it must be watched again).
    Paths { paths: Vec<PathBuf>, vanished: bool },
    /// Events may have been lost (the kernel's queue overflowed, or notify
    /// reported an error), so every file must be looked at again.
    Rescan,
    /// The watcher was dropped.
    Stop,
}

impl Watcher {
    /// Watches the files of `options.files` under `root` (see [`Scope`]),
    /// knowing that `known` is what they are now (normally what
    /// [`crate::load_set`] returned for the same set),
    /// and calls `sink` on a thread of its own with each batch of changes.
    /// Files that changed between loading and this call are in the first
    /// batch, so nothing is missed however long the caller took in between.
    pub fn start(
        root: &Utf8Path,
        scope: Scope,
        known: &[LoadedFile],
        options: WatchOptions,
        mut sink: impl FnMut(ChangeBatch) + Send + 'static,
    ) -> Result<Watcher, Error> {
        let error = |source| Error { path: root.to_owned(), source };
        // Events name paths under the path the watch was given, and files
        // are read through it too: an absolute one makes them comparable
        // whatever the current directory is, and still names the directory
        // when the current directory is the root and was deleted and made
        // again.
        let absolute_root = std::path::absolute(root).map_err(error)?;
        let absolute_root = Utf8PathBuf::from_path_buf(absolute_root)
            .map_err(|path| error(std::io::Error::other(format!("`{}` is not UTF-8", path.display()))))?;

        let (signals, signals_received) = mpsc::channel::<Signal>();
        let handler = {
            let signals = signals.clone();
            move |result: notify::Result<notify::Event>| {
                let signal = match result {
                    Ok(event) if event.need_rescan() => Signal::Rescan,
                    Ok(event) => {
                        if !is_change(&event.kind) || event.paths.is_empty() {
                            return;
                        }
                        let vanished = matches!(
                            event.kind,
                            EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
                        );
                        Signal::Paths { paths: event.paths, vanished }
                    }
                    Err(_) => Signal::Rescan,
                };
                // The batching thread is gone only when the watcher is being
                // dropped, and then nobody wants the signal.
                let _ = signals.send(signal);
            }
        };
        // Not following links when a tree's directories are watched is what
        // `load` does when it lists them.
        let notify = RecommendedWatcher::new(handler, Config::default().with_follow_symlinks(false))
            .map_err(|err| error(std::io::Error::other(err.to_string())))?;
        let mut state = State {
            root: root.to_owned(),
            absolute_root,
            scope,
            files: options.files,
            max_file_size: options.max_file_size,
            known: known.iter().map(|file| (file.path.clone(), content_hash(&file.bytes))).collect(),
            links: BTreeSet::new(),
            several_names: BTreeSet::new(),
            notify,
            root_watch: RootWatch::Missing { anchor: None },
            watches: HashMap::new(),
            keys: BTreeMap::new(),
        };
        // The root must be watchable when the watch starts; later it may
        // come and go.
        state.watch_root().map_err(|err| error(std::io::Error::other(err.to_string())))?;
        // A file changed between the caller's load and this point raised
        // no event, so the directory is compared with `known` once the
        // watch is in place (from here on, every change raises an event),
        // and any difference is the first batch. It is done here rather than
        // on the batching thread so that it reads the files as they were
        // when the watch started, not in the middle of what follows.
        let initial = state.batch(Pending { rescan: true, ..Pending::default() });

        let stopped = Arc::new(AtomicBool::new(false));
        let stopped_in_thread = Arc::clone(&stopped);
        std::thread::Builder::new()
            .name("vfs batches".to_owned())
            .spawn(move || {
                if !initial.is_empty() && !stopped_in_thread.load(Ordering::Acquire) {
                    sink(initial);
                }
                loop {
                    // Idle: nothing is pending, so the thread sleeps until
                    // an event comes, however long that is.
                    let mut pending = Pending::default();
                    match signals_received.recv() {
                        Ok(Signal::Stop) | Err(_) => return,
                        Ok(signal) => pending.add(signal, &state),
                    }
                    if pending.is_empty() {
                        continue;
                    }
                    let deadline = Instant::now() + options.max_delay;
                    loop {
                        let wait = options.settle.min(deadline.saturating_duration_since(Instant::now()));
                        match signals_received.recv_timeout(wait) {
                            Ok(Signal::Stop) | Err(mpsc::RecvTimeoutError::Disconnected) => return,
                            Ok(signal) => pending.add(signal, &state),
                            Err(mpsc::RecvTimeoutError::Timeout) => break,
                        }
                    }
                    if stopped_in_thread.load(Ordering::Acquire) {
                        return;
                    }
                    let batch = state.batch(pending);
                    if !batch.is_empty() && !stopped_in_thread.load(Ordering::Acquire) {
                        sink(batch);
                    }
                }
            })
            .map_err(error)?;
        Ok(Watcher { signals, stopped })
    }

    /// [`Watcher::start`] with the default options, handing batches over
    /// through a channel.
    pub fn start_with_channel(
        root: &Utf8Path,
        scope: Scope,
        known: &[LoadedFile],
    ) -> Result<(Watcher, mpsc::Receiver<ChangeBatch>), Error> {
        let (sender, receiver) = mpsc::channel();
        let watcher = Watcher::start(root, scope, known, WatchOptions::default(), move |batch| {
            let _ = sender.send(batch);
        })?;
        Ok((watcher, receiver))
    }
}

/// Whether an event can mean that a file's contents or existence changed.
/// Opening and reading cannot, and the watcher's own reads of the files it
/// was told about cause such events: counting them would make it read the
/// files again and again.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// The paths heard about since the last batch.
#[derive(Default)]
struct Pending {
    paths: HashSet<PathBuf>,
    /// Whether the root itself was deleted or renamed: it must be watched
    /// again even if a directory with the same identity is there now (a
    /// file system may give a new directory the inode number just freed).
    root_removed: bool,
    rescan: bool,
}

impl Pending {
    /// Takes in a signal's paths that concern the watch: a directory
    /// watched for a link's target or for the root's return has other
    /// files in it, whose events are dropped here rather than make a batch.
    fn add(&mut self, signal: Signal, state: &State) {
        match signal {
            Signal::Paths { paths, vanished } => {
                let concerning: Vec<PathBuf> =
                    paths.into_iter().filter(|path| state.concerns(path)).collect();
                self.root_removed |=
                    vanished && concerning.iter().any(|path| path == state.absolute_root.as_std_path());
                self.paths.extend(concerning);
            }
            Signal::Rescan => self.rescan = true,
            Signal::Stop => {}
        }
    }

    fn is_empty(&self) -> bool {
        self.paths.is_empty() && !self.rescan
    }
}

/// The identity of a file or directory: a watch is on an inode, so a path
/// that names another one must be watched again.
type FileId = (u64, u64);

#[cfg(unix)]
fn file_id(metadata: &std::fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt as _;
    (metadata.dev(), metadata.ino())
}

#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> FileId {
    (0, 0)
}

/// Whether a file has other names, through which it can be written without
/// an event in its directory.
#[cfg(unix)]
fn has_other_names(metadata: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    metadata.nlink() > 1
}

#[cfg(not(unix))]
fn has_other_names(_: &std::fs::Metadata) -> bool {
    false
}

/// The most links followed from one module file, as the kernel's own
/// bound on a path's resolution: a loop of links ends there.
const MAX_LINK_HOPS: usize = 40;

/// How many times a batch looks again at files whose new watches were set
/// up after it read them (each look can only set up watches further along
/// a chain of links, which is bounded too).
const MAX_PASSES: usize = 8;

/// The root's watch.
enum RootWatch {
    /// The root is watched; the directory's identity when it was.
    Watched(FileId),
    /// The root is not a directory now. `anchor` is the root's path as the
    /// events of the watch on the nearest existing directory above it name
    /// it (if that directory could be found).
    Missing { anchor: Option<PathBuf> },
}

/// What the batching thread knows: the files as last reported, and the
/// watches that keep them up to date.
struct State {
    /// The root as the caller named it; reported paths start with it.
    root: Utf8PathBuf,
    /// The root made absolute, which files are read through and events name.
    absolute_root: Utf8PathBuf,
    scope: Scope,
    files: FileSet,
    max_file_size: u64,
    /// A hash of each known file's bytes, to tell a real change from a save
    /// that wrote the same bytes (or a touch).
    known: HashMap<Utf8PathBuf, u64>,
    /// The module files that are symbolic links, whether their targets
    /// exist or not (a dangling link is no file, until its target appears).
    links: BTreeSet<Utf8PathBuf>,
    /// The known files that had other names (hard links) when last read.
    /// (A name made elsewhere later raises no event here, so it is seen at
    /// the file's next event.)
    several_names: BTreeSet<Utf8PathBuf>,
    notify: RecommendedWatcher,
    root_watch: RootWatch,
    /// The watches besides the root's, by path, with the identity of what
    /// was watched: files (links' targets, through the links, and files
    /// with hard links) and directories (of links further along a chain,
    /// above missing targets, and above the missing root).
    watches: HashMap<PathBuf, FileId>,
    /// The paths, as events name them, whose change is a change to module
    /// files (a link further along a chain, a missing target, a file
    /// watched for several module files), with those files. An event at a
    /// directory above such a path concerns them too (it may have been
    /// deleted or made).
    keys: BTreeMap<PathBuf, BTreeSet<Utf8PathBuf>>,
}

impl State {
    /// Whether an event at `path` can change what the watch reports.
    fn concerns(&self, path: &Path) -> bool {
        path.starts_with(&self.absolute_root)
            || matches!(&self.root_watch, RootWatch::Missing { anchor: Some(anchor) } if anchor.starts_with(path))
            || self.keys_under(path).next().is_some()
    }

    /// The keys at or below `path`: since paths sort component by
    /// component, they follow it in order.
    fn keys_under<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a BTreeSet<Utf8PathBuf>> + 'a {
        self.keys
            .range(path.to_owned()..)
            .take_while(move |(key, _)| key.starts_with(path))
            .map(|(_, files)| files)
    }

    fn batch(&mut self, pending: Pending) -> ChangeBatch {
        let mut batch = ChangeBatch::default();
        // Watches whose path had an event are set up again: notify forgets
        // a watch when its path is deleted or renamed, though the same
        // inode may be back under it.
        let mut touched: HashSet<PathBuf> =
            pending.paths.iter().filter(|path| self.watches.contains_key(*path)).cloned().collect();
        let mut candidates = self.candidates(&pending);
        let mut root_removed = pending.root_removed;
        for _ in 0..MAX_PASSES {
            let root = self.check_root(std::mem::take(&mut root_removed));
            if root.is_some() {
                candidates.extend(self.everything());
            }
            let (changes, unreadable) = self.read(candidates);
            batch.merge(ChangeBatch { changes, root, unreadable });
            candidates = self.update_watches(&touched);
            touched.clear();
            // A root that came back while the watch above it was being set
            // up raised no event there.
            let root_is_back =
                matches!(self.root_watch, RootWatch::Missing { .. }) && self.absolute_root.is_dir();
            if candidates.is_empty() && !root_is_back {
                break;
            }
        }
        batch
    }

    /// The files the pending events may have changed.
    fn candidates(&mut self, pending: &Pending) -> BTreeSet<Utf8PathBuf> {
        let mut candidates = BTreeSet::new();
        let mut rescan = pending.rescan;
        for path in &pending.paths {
            for files in self.keys_under(path) {
                candidates.extend(files.iter().cloned());
            }
            match self.relative(path) {
                Some(relative) if relative.as_str().is_empty() => rescan = true,
                Some(relative) => self.add_candidates(&relative, &mut candidates),
                None => {}
            }
        }
        // A removal or rename names every path it changes (notify's raw
        // events, not a debouncer's merged ones): a file that went is a
        // candidate by its own name, or by its directory's
        // (`add_candidates`), so the known files are not each looked at.
        if rescan {
            candidates.extend(self.everything());
        }
        candidates
    }

    /// Every file the watch knows of and every module file under the root
    /// now, to be read again.
    fn everything(&self) -> Vec<Utf8PathBuf> {
        let mut paths = Vec::new();
        // A root that cannot be listed (it was deleted, say) has no files:
        // every known one is reported deleted.
        let _ = list_files(&self.absolute_root, self.scope, self.files, &mut |path, _| paths.push(path));
        let mut everything: Vec<Utf8PathBuf> = paths.iter().filter_map(|path| self.reported(path)).collect();
        everything.extend(self.tracked().cloned());
        everything
    }

    /// The files known, and the links whose targets are missing.
    fn tracked(&self) -> impl Iterator<Item = &Utf8PathBuf> {
        self.known.keys().chain(&self.links)
    }

    /// Reads the candidates and compares them with what was last reported;
    /// returns the changes, and the files that could not be read, with why.
    fn read(&mut self, candidates: BTreeSet<Utf8PathBuf>) -> (Vec<Change>, Vec<(Utf8PathBuf, String)>) {
        let mut changes = Vec::new();
        let mut unreadable = Vec::new();
        for path in candidates {
            let on_disk = self.on_disk(&path);
            if on_disk.symlink_metadata().is_ok_and(|metadata| metadata.is_symlink()) {
                self.links.insert(path.clone());
            } else {
                self.links.remove(&path);
            }
            if std::fs::metadata(&on_disk).is_ok_and(|metadata| has_other_names(&metadata)) {
                self.several_names.insert(path.clone());
            } else {
                self.several_names.remove(&path);
            }
            match read_file(&on_disk, false, self.max_file_size) {
                Ok(Some(bytes)) => {
                    let hash = content_hash(&bytes);
                    match self.known.insert(path.clone(), hash) {
                        None => changes.push(Change::Created(path, bytes)),
                        Some(old) if old != hash => changes.push(Change::Modified(path, bytes)),
                        Some(_) => {}
                    }
                }
                Ok(None) => {
                    if self.known.remove(&path).is_some() {
                        changes.push(Change::Deleted(path));
                    }
                }
                // A file that cannot be read now (its permissions changed,
                // say) keeps its last state, and the consumer is told; the
                // next event about it looks again.
                Err(error) => unreadable.push((path, error.to_string())),
            }
        }
        (changes, unreadable)
    }

    /// Watches the root, which must be a directory.
    fn watch_root(&mut self) -> notify::Result<()> {
        let mode = match self.scope {
            Scope::Directory => RecursiveMode::NonRecursive,
            Scope::Tree => RecursiveMode::Recursive,
        };
        let id = std::fs::metadata(&self.absolute_root).map_err(notify::Error::io)?;
        self.notify.watch(self.absolute_root.as_std_path(), mode)?;
        self.root_watch = RootWatch::Watched(file_id(&id));
        Ok(())
    }

    /// Compares the root with what is watched: whether it is gone, back, or
    /// another directory now (or `removed`, as an event said), with the
    /// watch changed to match.
    fn check_root(&mut self, removed: bool) -> Option<RootChange> {
        let now = std::fs::metadata(&self.absolute_root).ok().filter(|metadata| metadata.is_dir());
        match (&self.root_watch, now) {
            (RootWatch::Watched(id), Some(now)) if *id == file_id(&now) && !removed => None,
            (RootWatch::Watched(_), now) => {
                // notify has already forgotten a watch whose directory was
                // deleted, but not one whose directory was renamed away.
                let _ = self.notify.unwatch(self.absolute_root.as_std_path());
                self.root_watch = RootWatch::Missing { anchor: None };
                if now.is_some() && self.watch_root().is_ok() {
                    Some(RootChange::Replaced)
                } else {
                    Some(RootChange::Vanished)
                }
            }
            (RootWatch::Missing { .. }, Some(_)) => self.watch_root().is_ok().then_some(RootChange::Returned),
            (RootWatch::Missing { .. }, None) => None,
        }
    }

    /// Sets up the watches the files need now and drops those they no
    /// longer need; returns the files to read again because a watch was
    /// added for them (a change just before it raised no event).
    fn update_watches(&mut self, touched: &HashSet<PathBuf>) -> BTreeSet<Utf8PathBuf> {
        // What each watch is for: the files it serves.
        let mut wanted: BTreeMap<PathBuf, BTreeSet<Utf8PathBuf>> = BTreeMap::new();
        let mut keys: BTreeMap<PathBuf, BTreeSet<Utf8PathBuf>> = BTreeMap::new();

        if let RootWatch::Missing { anchor } = &mut self.root_watch {
            *anchor = None;
            if let Some((dir, key)) = anchor_of(self.absolute_root.as_std_path()) {
                wanted.entry(dir).or_default();
                *anchor = Some(key);
            }
        }
        let canonical_root = match self.root_watch {
            RootWatch::Watched(_) => std::fs::canonicalize(&self.absolute_root).ok(),
            RootWatch::Missing { .. } => None,
        };
        for link in &self.links {
            for (dir, key) in link_hops(self.on_disk(link).as_std_path()) {
                // A directory the root's watch covers already: a second
                // watch on it would be the same inotify watch, and notify
                // would name its events under one of the two paths only.
                let covered = canonical_root.as_ref().and_then(|canonical_root| {
                    let below = dir.strip_prefix(canonical_root).ok()?;
                    (below.as_os_str().is_empty() || self.scope == Scope::Tree).then_some(canonical_root)
                });
                let key = match covered {
                    Some(canonical_root) => match key.strip_prefix(canonical_root) {
                        Ok(below) => self.absolute_root.as_std_path().join(below),
                        Err(_) => key,
                    },
                    None => {
                        wanted.entry(dir).or_default().insert(link.clone());
                        key
                    }
                };
                keys.entry(key).or_default().insert(link.clone());
            }
        }
        // The files links end at and the files with other names: a watch
        // on the file itself, through the module file's path, is on its
        // inode, whichever name it is written through, and hears nothing
        // else (a watch on a busy directory would hear everything in it).
        // One watch per inode: two would be one inotify watch, named under
        // one path.
        let mut by_inode: BTreeMap<FileId, BTreeSet<Utf8PathBuf>> = BTreeMap::new();
        for path in self.links.iter().chain(&self.several_names) {
            if let Ok(metadata) = std::fs::metadata(self.on_disk(path))
                && metadata.is_file()
            {
                by_inode.entry(file_id(&metadata)).or_default().insert(path.clone());
            }
        }
        for files in by_inode.into_values() {
            let Some(first) = files.first() else { continue };
            let watched = self.on_disk(first).into_std_path_buf();
            keys.entry(watched.clone()).or_default().extend(files.iter().cloned());
            wanted.entry(watched).or_default().extend(files);
        }

        let mut reread = BTreeSet::new();
        for (path, files) in &wanted {
            let Ok(metadata) = std::fs::metadata(path) else { continue };
            let id = file_id(&metadata);
            if self.watches.get(path) == Some(&id) && !touched.contains(path) {
                continue;
            }
            if self.watches.remove(path).is_some() {
                let _ = self.notify.unwatch(path);
            }
            if self.notify.watch(path, RecursiveMode::NonRecursive).is_ok() {
                self.watches.insert(path.clone(), id);
                reread.extend(files.iter().cloned());
            }
        }
        let unwanted: Vec<PathBuf> =
            self.watches.keys().filter(|path| !wanted.contains_key(*path)).cloned().collect();
        for path in unwanted {
            self.watches.remove(&path);
            let _ = self.notify.unwatch(&path);
        }
        self.keys = keys;
        reread
    }

    /// The part of an event's path below the root (empty for the root
    /// itself), or `None` for a path outside it or not UTF-8.
    fn relative(&self, path: &Path) -> Option<Utf8PathBuf> {
        let relative = path.strip_prefix(&self.absolute_root).ok()?;
        Utf8PathBuf::from_path_buf(relative.to_owned()).ok()
    }

    /// A path under the root as the caller named the root, from the path
    /// on disk.
    fn reported(&self, on_disk: &Utf8Path) -> Option<Utf8PathBuf> {
        let relative = on_disk.strip_prefix(&self.absolute_root).ok()?;
        Some(relative.iter().fold(self.root.clone(), |path, part| child(&path, part)))
    }

    /// The path on disk of a path reported under the root.
    fn on_disk(&self, reported: &Utf8Path) -> Utf8PathBuf {
        let relative =
            if self.root == "." { reported } else { reported.strip_prefix(&self.root).unwrap_or(reported) };
        self.absolute_root.join(relative)
    }

    /// The files an event at `relative` may have changed: the file itself if
    /// its name is a module file's, the known files below it if it was a
    /// directory (removed or renamed away), and the files now below it if it
    /// is a directory now (created or renamed into the tree: no events come
    /// from inside a directory moved in whole).
    fn add_candidates(&self, relative: &Utf8Path, candidates: &mut BTreeSet<Utf8PathBuf>) {
        let mut dirs: Vec<&str> = relative.iter().collect();
        let Some(name) = dirs.pop() else { return };
        if !dirs.iter().all(|dir| self.scope.enters(dir)) {
            return;
        }
        let path = dirs.iter().chain([&name]).fold(self.root.clone(), |path, part| child(&path, part));
        if self.files.contains(Utf8Path::new(name)) {
            candidates.insert(path.clone());
        }
        if self.scope.enters(name) {
            candidates.extend(self.tracked().filter(|known| known.starts_with(&path)).cloned());
            let on_disk = self.on_disk(&path);
            if std::fs::symlink_metadata(&on_disk).is_ok_and(|metadata| metadata.is_dir()) {
                let mut paths = Vec::new();
                // A directory removed while it is listed has no files.
                let _ = list_files(&on_disk, self.scope, self.files, &mut |path, _| paths.push(path));
                candidates.extend(paths.iter().filter_map(|path| self.reported(path)));
            }
        }
    }
}

/// The directories to watch for a change to what the symbolic link at
/// `link` reads as, besides the link itself and the file it ends at, each
/// with the path its events name the next step by: the directory of each
/// further link the chain goes through (which can be pointed elsewhere),
/// and, if the chain ends at nothing, the nearest existing directory above
/// where it ends (where its target will appear).
fn link_hops(link: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut hops = Vec::new();
    let mut hop = link.to_owned();
    for _ in 0..MAX_LINK_HOPS {
        let (Ok(target), Some(dir)) = (std::fs::read_link(&hop), hop.parent()) else { break };
        let next = dir.join(target);
        let next_is_link = match next.symlink_metadata() {
            // The end, which is watched itself.
            Ok(metadata) if !metadata.is_symlink() => break,
            Ok(_) => true,
            Err(_) => false,
        };
        let Some((watched, key)) = anchor_of(&next) else { break };
        hops.push((watched, key.clone()));
        if !next_is_link {
            break;
        }
        hop = key;
    }
    hops
}

/// The directory to watch for a change at `path`, which need not exist,
/// with `path` as the events of that watch name it: the nearest directory
/// above it that exists, without links (so that each directory has one
/// watch under one name).
fn anchor_of(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut below: Vec<&OsStr> = Vec::new();
    let mut at = path;
    loop {
        below.push(at.file_name()?);
        at = at.parent()?;
        if let Ok(dir) = std::fs::canonicalize(at)
            && dir.is_dir()
        {
            let key = below.iter().rev().fold(dir.clone(), |path, part| path.join(part));
            return Some((dir, key));
        }
    }
}

/// A hash of a file's bytes. `DefaultHasher::new` uses fixed keys, and a
/// collision (one in 2^64) would only hide one edit until the next.
fn content_hash(bytes: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}
