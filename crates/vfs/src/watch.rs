//! The watcher: notify's debounced events become [`ChangeBatch`]es.
//!
//! Events are only hints of which paths to look at. notify's debouncer
//! collects them per path until the path has been quiet for a moment; a
//! second stage on its own thread then waits until the debouncer itself has
//! been quiet for a moment (so that a burst of hundreds of writes, which the
//! debouncer hands over in several slices, becomes one batch), and only then
//! reads each path it heard about. The batch is the difference between what
//! is on disk then and what the watcher last reported: a rename is a deletion
//! and a creation, an atomic save (write a temporary file, rename it over the
//! original) is one modification, since the temporary name is not a module
//! file's, and a file written twice is one change.
//!
//! Two things keep the watcher's picture equal to the disk although events
//! and reads interleave: when the watch starts, the directory is compared
//! with what the caller loaded (a change in between raised no event), and
//! after a rename or removal every known file is checked for existence
//! (the debouncer merges a chain of renames, so a file already reported
//! under a middle name would otherwise never be named again).

use std::{
    collections::{BTreeSet, HashMap, HashSet},
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
    EventKind, RecommendedWatcher, RecursiveMode,
    event::{AccessKind, AccessMode, ModifyKind},
};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::{
    Change, ChangeBatch, LoadedFile, Scope,
    kind::is_module_file,
    load::{Error, child, list_files, read_file},
};

/// How long the watcher waits before it reports.
#[derive(Debug, Clone, Copy)]
pub struct WatchOptions {
    /// How long a path must be quiet before notify's debouncer hands its
    /// events over.
    pub debounce: Duration,
    /// How long the debouncer must then hand nothing more over before the
    /// batch is formed.
    pub settle: Duration,
    /// The longest a batch waits for activity to settle: under a constant
    /// stream of writes, batches still come this often.
    pub max_delay: Duration,
}

impl Default for WatchOptions {
    /// Short enough that an edit is seen at once, long enough that an
    /// editor's save (a few system calls within a millisecond or two) and a
    /// script's burst of writes are one batch each.
    fn default() -> WatchOptions {
        WatchOptions {
            debounce: Duration::from_millis(50),
            settle: Duration::from_millis(50),
            max_delay: Duration::from_secs(1),
        }
    }
}

/// A running watch of a directory. Dropping it stops the watch: no batch is
/// handed over after that.
pub struct Watcher {
    /// Kept for its `Drop`, which stops notify's threads.
    _debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
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
    }
}

/// What the debouncer's handler passes to the batching thread.
enum Signal {
    /// These paths had events. `vanished` is set when some were renames or
    /// removals: notify's debouncer merges a chain of renames (`a` to `b`
    /// to `c` becomes `a` to `c`), so a file the watcher already reported
    /// under the middle name is never named again, and the known files must
    /// be checked for existence.
    Paths { paths: Vec<PathBuf>, vanished: bool },
    /// Events may have been lost (the kernel's queue overflowed, or notify
    /// reported an error), so every file must be looked at again.
    Rescan,
}

impl Watcher {
    /// Watches the module files under `root` (see [`Scope`]), knowing that
    /// `known` is what they are now (normally what [`crate::load`] returned),
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
        // Events name paths under the path the watch was given; an absolute
        // one makes them comparable whatever the current directory is.
        let absolute_root = std::path::absolute(root).map_err(error)?;
        let mut state = State {
            root: root.to_owned(),
            absolute_root: absolute_root.clone(),
            scope,
            known: known.iter().map(|file| (file.path.clone(), content_hash(&file.bytes))).collect(),
        };

        let (signals, signals_received) = mpsc::channel::<Signal>();
        let handler = move |result: DebounceEventResult| {
            let signal = match result {
                Ok(events) => {
                    if events.iter().any(|event| event.need_rescan()) {
                        Signal::Rescan
                    } else {
                        let vanished = events.iter().any(|event| {
                            matches!(
                                event.kind,
                                EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(_))
                            )
                        });
                        let paths: Vec<PathBuf> = events
                            .into_iter()
                            .filter(|event| is_change(&event.kind))
                            .flat_map(|event| event.event.paths)
                            .collect();
                        if paths.is_empty() {
                            return;
                        }
                        Signal::Paths { paths, vanished }
                    }
                }
                Err(_) => Signal::Rescan,
            };
            // The batching thread is gone only when the watcher is being
            // dropped, and then nobody wants the signal.
            let _ = signals.send(signal);
        };
        let mut debouncer = new_debouncer(options.debounce, None, handler)
            .map_err(|err| error(std::io::Error::other(err.to_string())))?;
        let mode = match scope {
            Scope::Directory => RecursiveMode::NonRecursive,
            Scope::Tree => RecursiveMode::Recursive,
        };
        debouncer.watch(&absolute_root, mode).map_err(|err| error(std::io::Error::other(err.to_string())))?;
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
                // The loop ends when the debouncer's thread drops the
                // handler, which happens soon after the watcher is dropped.
                while let Ok(first) = signals_received.recv() {
                    let mut pending = Pending::default();
                    pending.add(first);
                    let deadline = Instant::now() + options.max_delay;
                    loop {
                        let wait = options.settle.min(deadline.saturating_duration_since(Instant::now()));
                        match signals_received.recv_timeout(wait) {
                            Ok(signal) => pending.add(signal),
                            Err(_) => break,
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
        Ok(Watcher { _debouncer: debouncer, stopped })
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
    /// Whether a known file may have gone without being named.
    vanished: bool,
    rescan: bool,
}

impl Pending {
    fn add(&mut self, signal: Signal) {
        match signal {
            Signal::Paths { paths, vanished } => {
                self.paths.extend(paths);
                self.vanished |= vanished;
            }
            Signal::Rescan => self.rescan = true,
        }
    }
}

/// What the batching thread knows: the files as last reported.
struct State {
    /// The root as the caller named it; reported paths start with it.
    root: Utf8PathBuf,
    absolute_root: PathBuf,
    scope: Scope,
    /// A hash of each known file's bytes, to tell a real change from a save
    /// that wrote the same bytes (or a touch).
    known: HashMap<Utf8PathBuf, u64>,
}

impl State {
    fn batch(&mut self, pending: Pending) -> ChangeBatch {
        let mut candidates = BTreeSet::new();
        let mut rescan = pending.rescan;
        for path in &pending.paths {
            match self.relative(path) {
                Some(relative) if relative.as_str().is_empty() => rescan = true,
                Some(relative) => self.add_candidates(&relative, &mut candidates),
                None => {}
            }
        }
        if pending.vanished && !rescan {
            // Only existence is checked here (a name no event mentioned
            // cannot have new contents), so this costs a `stat` per file.
            let gone = self.known.keys().filter(|path| !candidates.contains(*path) && !path.exists());
            candidates.extend(gone.cloned().collect::<Vec<_>>());
        }
        if rescan {
            candidates.extend(self.known.keys().cloned());
            let mut paths = Vec::new();
            // A root that cannot be listed (it was deleted, say) has no
            // files: every known one is reported deleted below.
            let _ = list_files(&self.root, self.scope, &mut paths);
            candidates.extend(paths);
        }

        let mut changes = Vec::new();
        for path in candidates {
            match read_file(&path) {
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
                // say) keeps its last state; the next event about it looks
                // again.
                Err(_) => {}
            }
        }
        ChangeBatch { changes }
    }

    /// The part of an event's path below the root (empty for the root
    /// itself), or `None` for a path outside it or not UTF-8.
    fn relative(&self, path: &Path) -> Option<Utf8PathBuf> {
        let relative = path.strip_prefix(&self.absolute_root).ok()?;
        Utf8PathBuf::from_path_buf(relative.to_owned()).ok()
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
        if is_module_file(Utf8Path::new(name)) {
            candidates.insert(path.clone());
        }
        if self.scope.enters(name) {
            candidates.extend(self.known.keys().filter(|known| known.starts_with(&path)).cloned());
            if std::fs::symlink_metadata(&path).is_ok_and(|metadata| metadata.is_dir()) {
                let mut paths = Vec::new();
                // A directory removed while it is listed has no files.
                let _ = list_files(&path, self.scope, &mut paths);
                candidates.extend(paths);
            }
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
