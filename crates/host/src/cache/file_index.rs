//! The file index of the result cache: what `stat` said of each file the
//! last time its bytes were hashed, so that a file `stat` still says the
//! same of is neither read nor hashed again (as `git` trusts its index).
//!
//! An entry is a file's absolute path, its [`Stamp`] (size, modification
//! and change times to the nanosecond, inode and device), the hash of its
//! bytes, and the time before which the stamp was taken. A lookup trusts an
//! entry only when the file's stamp now is the one recorded *and* the file
//! was last modified and changed before that time, less [`RACY_MARGIN`]:
//! a file written again in the same clock tick as the write the entry saw,
//! with the same size, would have the same stamp, so an entry whose file
//! was touched as late as its own recording is *racy* and the file is
//! hashed again (`git`'s racy-timestamp rule, with the time kept per
//! entry rather than taken from the index's own file). The change time is
//! set by the kernel on every write and on every change of the
//! modification time, so a file rewritten and then dated back does not
//! keep its stamp; a file replaced by a rename is another inode.
//!
//! The stamp is taken from the opened file before its bytes are read, so
//! a write between the two leaves a stamp that no longer matches, never a
//! new stamp over old bytes.
//!
//! The index is one file (`files-v2` in the cache's directory), with a
//! recent one beside it (`files-v2-recent`, the entries recorded since
//! the main one was written, over its), each read once per run (mapped,
//! and looked up where its entries lie: see [`Table`]) and written whole (a temporary file renamed over it) only by a run that
//! hashed a file: the recent one while it stays small beside the main one
//! (see [`FileIndex::save`]), else both as one main index. Each entry stands on its own, so two
//! runs sharing the directory at worst lose each other's new entries (the
//! files are hashed again), and anything that does not decode, or whose
//! trailing checksum does not match, is an empty index, never an error.
//! Entries not verified for [`MAX_AGE`] are dropped when the index is
//! written, and at most [`MAX_ENTRIES`] are kept.

use std::{
    fs,
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, SystemTime},
};

use camino::{Utf8Path, Utf8PathBuf};
use rustc_hash::FxHashMap;

/// The first bytes of the index.
const MAGIC: &[u8; 8] = b"HALITE\x00F";

/// The index's format; changing the encoding below changes it (and the
/// file's name).
const FORMAT: u32 = 2;

/// The index's file name in the cache's directory.
pub(crate) const FILE_NAME: &str = "files-v2";

/// The recent index's: the entries recorded since the index was last
/// written whole, which override its.
const RECENT_FILE_NAME: &str = "files-v2-recent";

/// The files of earlier formats, removed when the index is written whole.
const EARLIER_FILE_NAMES: [&str; 2] = ["files-v1", "files-v1-recent"];

/// The recent index is kept to at most this fraction of the entries of
/// the main one: past it, both are written as one main index.
const RECENT_SHARE: usize = 8;

/// A file modified or changed less than this before its stamp was taken
/// is hashed again next time: file systems date writes by a clock coarser
/// than the one read here (a kernel tick; whole seconds on some), so a
/// write just after the stamp could carry the same times.
pub(crate) const RACY_MARGIN: Duration = Duration::from_secs(1);

/// Entries not verified (hashed) for this long are dropped when the index
/// is written: a deleted file's entry does not stay for ever, and a file
/// unchanged that long is only hashed once more.
const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The most entries kept (the most recently verified).
const MAX_ENTRIES: usize = 1 << 20;

/// An index larger than this is not read.
const MAX_INDEX_SIZE: u64 = 512 << 20;

/// What `stat` says of a file that changes when its bytes may have:
/// enough that a file rewritten, replaced or moved has another stamp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    size: u64,
    /// Nanoseconds since the Unix epoch (negative before it).
    modified: i64,
    changed: i64,
    inode: u64,
    device: u64,
}

impl Stamp {
    /// The stamp of a file as `metadata` describes it.
    pub(crate) fn of(metadata: &fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let nanos =
                |seconds: i64, nanos: i64| seconds.saturating_mul(1_000_000_000).saturating_add(nanos);
            Stamp {
                size: metadata.len(),
                modified: nanos(metadata.mtime(), metadata.mtime_nsec()),
                changed: nanos(metadata.ctime(), metadata.ctime_nsec()),
                inode: metadata.ino(),
                device: metadata.dev(),
            }
        }
        #[cfg(not(unix))]
        {
            let modified = metadata.modified().map_or(i64::MAX, nanos_since_epoch);
            Stamp { size: metadata.len(), modified, changed: modified, inode: 0, device: 0 }
        }
    }

    /// The later of the file's modification and change times.
    fn last_touched(&self) -> i64 {
        self.modified.max(self.changed)
    }

    /// Whether `stamp` is this one, of a file last touched before
    /// `trusted_before` (see [`RACY_MARGIN`]).
    pub(super) fn holds_for(&self, stamp: &Stamp, trusted_before: i64) -> bool {
        self == stamp && stamp.last_touched() < trusted_before
    }

    /// The stamp's bytes, as [`Stamp::read`] reads them.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        for field in
            [self.size, self.modified.cast_unsigned(), self.changed.cast_unsigned(), self.inode, self.device]
        {
            out.extend_from_slice(&field.to_le_bytes());
        }
    }

    pub(super) fn read(input: &mut super::Reader<'_>) -> Option<Stamp> {
        Some(Stamp {
            size: input.u64()?,
            modified: input.u64()?.cast_signed(),
            changed: input.u64()?.cast_signed(),
            inode: input.u64()?,
            device: input.u64()?,
        })
    }
}

/// `time` in nanoseconds since the Unix epoch, less [`RACY_MARGIN`]: what
/// a stamp taken after `time` is trusted for.
pub(super) fn trusted_before(time: SystemTime) -> i64 {
    nanos_since_epoch(time).saturating_sub(RACY_MARGIN.as_nanos() as i64)
}

/// One file's entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Recorded {
    stamp: Stamp,
    /// The time the stamp was taken, less [`RACY_MARGIN`]: the entry is
    /// trusted only for a file last touched before it.
    trusted_before: i64,
    hash: [u8; 32],
}

impl Recorded {
    fn holds_for(&self, stamp: &Stamp) -> bool {
        self.stamp.holds_for(stamp, self.trusted_before)
    }
}

/// The file index, opened for one run.
#[derive(Debug)]
pub(crate) struct FileIndex {
    path: Utf8PathBuf,
    /// The recent index's path.
    recent_path: Utf8PathBuf,
    /// The directory relative paths are relative to.
    current_dir: Utf8PathBuf,
    /// The entries as read, by absolute path.
    loaded: LoadedLater,
    /// The time this run's stamps are taken after, less the margin.
    trusted_before: i64,
    /// The entries this run recorded.
    recorded: Mutex<FxHashMap<Box<str>, Recorded>>,
    changed: AtomicBool,
}

impl FileIndex {
    /// The index in `dir` (the cache's directory); empty when there is
    /// none or it cannot be trusted. Call it before taking any stamp: its
    /// new entries are trusted for files last touched before now.
    pub(crate) fn open(dir: &Utf8Path, current_dir: Utf8PathBuf) -> FileIndex {
        let now = SystemTime::now();
        let loaded = LoadedLater::reading(dir.to_owned());
        FileIndex::with_entries(dir.join(FILE_NAME), current_dir, loaded, now)
    }

    fn with_entries(
        path: Utf8PathBuf,
        current_dir: Utf8PathBuf,
        loaded: LoadedLater,
        now: SystemTime,
    ) -> FileIndex {
        FileIndex {
            recent_path: path.with_file_name(RECENT_FILE_NAME),
            path,
            current_dir,
            loaded,
            trusted_before: trusted_before(now),
            recorded: Mutex::default(),
            changed: AtomicBool::new(false),
        }
    }

    fn key(&self, path: &Utf8Path) -> Box<str> {
        self.with_key(path, |key| key.into())
    }

    /// `f` of the absolute path of `path` (`current_dir.join(path)`'s
    /// text), laid out in a buffer of the thread's: a lookup per file of
    /// a warm run allocated a path each.
    fn with_key<T>(&self, path: &Utf8Path, f: impl FnOnce(&str) -> T) -> T {
        if path.is_absolute() {
            return f(path.as_str());
        }
        thread_local! {
            static KEY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
        }
        KEY.with(|key| {
            let mut key = key.borrow_mut();
            key.clear();
            key.push_str(self.current_dir.as_str());
            if !key.ends_with('/') {
                key.push('/');
            }
            key.push_str(path.as_str());
            f(&key)
        })
    }

    /// The paths of the files whose entries were recorded since the main
    /// index was written (those of the recent index: files found changed
    /// by recent runs), at most `limit`, the most recently recorded first,
    /// each as the index keys it (absolute).
    pub(crate) fn recently_recorded(&self, limit: usize) -> Vec<&str> {
        let mut recent: Vec<(&str, i64)> =
            self.loaded.get().recent.iter().map(|(path, entry)| (path, entry.trusted_before)).collect();
        recent.sort_unstable_by_key(|&(_, recorded)| std::cmp::Reverse(recorded));
        recent.truncate(limit);
        recent.into_iter().map(|(path, _)| path).collect()
    }

    /// `path`, a key of the index, relative to the current directory (as
    /// a walk from there names it), if it is under it.
    pub(crate) fn relative<'p>(&self, path: &'p str) -> Option<&'p str> {
        path.strip_prefix(self.current_dir.as_str().trim_end_matches('/'))?.strip_prefix('/')
    }

    /// How many entries the main index had.
    fn main_entries(&self) -> usize {
        self.loaded.get().main.len()
    }

    /// The hash of the bytes of the file at `path`, whose stamp is now
    /// `stamp`, if its entry holds.
    pub(crate) fn hash(&self, path: &Utf8Path, stamp: &Stamp) -> Option<blake3::Hash> {
        let recorded = self.with_key(path, |key| self.loaded.get().get(key))?;
        recorded.holds_for(stamp).then(|| blake3::Hash::from_bytes(recorded.hash))
    }

    /// Records that the file at `path`, stamped `stamp` before it was
    /// read, has bytes hashing to `hash`.
    pub(crate) fn record(&self, path: &Utf8Path, stamp: Stamp, hash: blake3::Hash) {
        let key = self.key(path);
        let recorded = Recorded { stamp, trusted_before: self.trusted_before, hash: *hash.as_bytes() };
        if self.loaded.get().get(&key) == Some(recorded) {
            return;
        }
        crate::lock(&self.recorded).insert(key, recorded);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Writes the index, when this run recorded anything, whole or not at
    /// all: the recent index with this run's entries over those it has
    /// (another run's too, if one wrote it meanwhile), while it stays
    /// within [`RECENT_SHARE`] of the main one (a run that hashed a few
    /// files writes a few entries, not one per file of the tree); else the
    /// main index, with every entry read and this run's over them, and the
    /// recent one removed. A failure leaves the index as it was.
    pub(crate) fn save(&self) {
        if !self.changed.load(Ordering::Relaxed) {
            return;
        }
        let recorded = std::mem::take(&mut *crate::lock(&self.recorded));
        let Some(dir) = self.path.parent() else { return };
        let recent = read(&self.recent_path);
        let recent_kept = || recent.iter().filter(|(path, _)| !recorded.contains_key(*path));
        if recent_kept().count() + recorded.len() <= self.main_entries() / RECENT_SHARE {
            let mut entries: Vec<(&str, Recorded)> =
                recent_kept().chain(&recorded).map(|(path, entry)| (&**path, *entry)).collect();
            in_walk_order(&mut entries);
            let _ = super::write_atomically(dir, &self.recent_path, &encode(&entries));
            return;
        }
        let oldest = self.trusted_before.saturating_sub(MAX_AGE.as_nanos() as i64);
        let mut entries: Vec<(&str, Recorded)> =
            Vec::with_capacity(self.loaded.get().len() + recent.len() + recorded.len());
        entries.extend(
            self.loaded
                .get()
                .iter()
                .filter(|(path, _)| !recorded.contains_key(*path) && !recent.contains_key(*path))
                .chain(recent_kept().chain(&recorded).map(|(path, entry)| (&**path, *entry)))
                .filter(|(_, entry)| entry.trusted_before >= oldest),
        );
        if entries.len() > MAX_ENTRIES {
            entries.sort_unstable_by_key(|(_, entry)| std::cmp::Reverse(entry.trusted_before));
            entries.truncate(MAX_ENTRIES);
        }
        in_walk_order(&mut entries);
        if super::write_atomically(dir, &self.path, &encode(&entries)).is_ok() {
            if !recent.is_empty() {
                let _ = fs::remove_file(&self.recent_path);
            }
            for earlier in EARLIER_FILE_NAMES {
                let _ = fs::remove_file(dir.join(earlier));
            }
        }
    }
}

/// Puts `entries` in the order a walk finds their files (see
/// [`vfs::path_order`]), the order a warm run looks them up in: laid out
/// so, a run's lookups read the index from start to end rather than
/// jumping about in it (in a map's order, each lookup of a warm run over
/// the corpus missed the processor's caches).
fn in_walk_order(entries: &mut [(&str, Recorded)]) {
    entries.sort_unstable_by(|(a, _), (b, _)| vfs::path_order(Utf8Path::new(a), Utf8Path::new(b)));
}

/// The entries of the index at `path`, owned; none when it cannot be
/// trusted.
fn read(path: &Utf8Path) -> FxHashMap<Box<str>, Recorded> {
    Table::read(path).iter().map(|(path, entry)| (Box::from(path), entry)).collect()
}

/// The index's entries, read on a thread of their own from when the index
/// is opened (checking and laying out a table of them was a millisecond of
/// one thread at a warm run's start), and waited for when first asked.
#[derive(Debug)]
struct LoadedLater {
    reading: Mutex<Option<std::thread::JoinHandle<Loaded>>>,
    loaded: std::sync::OnceLock<Loaded>,
}

impl LoadedLater {
    /// The entries of the index in `dir`, read on a thread of their own
    /// (or now, if none can be started).
    fn reading(dir: Utf8PathBuf) -> LoadedLater {
        let dir = std::sync::Arc::new(dir);
        let read = std::sync::Arc::clone(&dir);
        match std::thread::Builder::new().name("halite-index".into()).spawn(move || read_both(&read)) {
            Ok(handle) => {
                LoadedLater { reading: Mutex::new(Some(handle)), loaded: std::sync::OnceLock::new() }
            }
            Err(_) => LoadedLater::now(read_both(&dir)),
        }
    }

    fn now(loaded: Loaded) -> LoadedLater {
        LoadedLater { reading: Mutex::default(), loaded: std::sync::OnceLock::from(loaded) }
    }

    /// The entries, once read; none if the reading thread failed.
    fn get(&self) -> &Loaded {
        self.loaded.get_or_init(|| {
            let handle = crate::lock(&self.reading).take();
            handle.and_then(|handle| handle.join().ok()).unwrap_or_default()
        })
    }
}

/// The main and the recent index in the cache's directory `dir`.
fn read_both(dir: &Utf8Path) -> Loaded {
    Loaded { main: Table::read(&dir.join(FILE_NAME)), recent: Table::read(&dir.join(RECENT_FILE_NAME)) }
}

/// The main index and the recent one as read, the recent one's entries
/// over the main one's.
#[derive(Debug, Default)]
struct Loaded {
    main: Table,
    recent: Table,
}

impl Loaded {
    fn get(&self, path: &str) -> Option<Recorded> {
        self.recent.get(path).or_else(|| self.main.get(path))
    }

    /// Every entry, the recent index's over the main one's.
    fn iter(&self) -> impl Iterator<Item = (&str, Recorded)> {
        let main = self.main.iter().filter(|(path, _)| self.recent.get(path).is_none());
        main.chain(self.recent.iter())
    }

    /// How many entries the two have, those of both counted twice.
    fn len(&self) -> usize {
        self.main.len() + self.recent.len()
    }
}

/// An index file as read: its bytes (mapped, for the main one), and where
/// each entry starts in them, found by its path's hash. Nothing is copied
/// out of the bytes until asked: a warm run looks up each of its files
/// once, and making a table of owned paths was most of what reading the
/// index cost, and a tenth of the run's page faults.
#[derive(Debug, Default)]
struct Table {
    bytes: super::FileBytes,
    /// The offset in `bytes` of each entry (of its path's length).
    entries: hashbrown::HashTable<u32>,
}

/// The bytes that follow an entry's path: its stamp, the time it is
/// trusted before, its hash.
const AFTER_PATH: usize = 5 * 8 + 8 + 32;

fn path_hash(path: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(path);
    hasher.finish()
}

/// The path of the entry at `at` in an index's `bytes` (empty if there is
/// none there: the offsets are those [`Table::from_bytes`] checked).
fn path_at(bytes: &[u8], at: u32) -> &[u8] {
    let at = at as usize;
    let path = || {
        let len = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        bytes.get(at + 4..at + 4 + len)
    };
    path().unwrap_or_default()
}

impl Table {
    fn read(path: &Utf8Path) -> Table {
        crate::cache::read_bounded(path, MAX_INDEX_SIZE).and_then(Table::from_bytes).unwrap_or_default()
    }

    /// The table of a whole index of this format in `bytes`, or `None`.
    fn from_bytes(bytes: super::FileBytes) -> Option<Table> {
        let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
        if super::checksum(body) != sum {
            return None;
        }
        let mut input = super::Reader(body);
        if input.take(MAGIC.len())? != MAGIC || input.u32()? != FORMAT {
            return None;
        }
        let count = input.u32()? as usize;
        // Each entry takes more than 80 bytes: a count past what is left is
        // not believed.
        let mut entries = hashbrown::HashTable::with_capacity(count.min(input.0.len() / 80));
        for _ in 0..count {
            let at = u32::try_from(body.len() - input.0.len()).ok()?;
            let len = input.u32()? as usize;
            let path = input.take(len)?;
            input.take(AFTER_PATH)?;
            // A path twice: the later entry, as a map would keep it.
            match entries.entry(
                path_hash(path),
                |&other| path_at(body, other) == path,
                |&other| path_hash(path_at(body, other)),
            ) {
                hashbrown::hash_table::Entry::Occupied(mut entry) => *entry.get_mut() = at,
                hashbrown::hash_table::Entry::Vacant(entry) => {
                    entry.insert(at);
                }
            }
        }
        if !input.0.is_empty() {
            return None;
        }
        Some(Table { bytes, entries })
    }

    fn get(&self, path: &str) -> Option<Recorded> {
        let path = path.as_bytes();
        let at = *self.entries.find(path_hash(path), |&at| path_at(&self.bytes, at) == path)?;
        self.recorded_at(at, path.len())
    }

    /// The entry at `at`, an offset the table holds.
    fn entry_at(&self, at: u32) -> Option<(&str, Recorded)> {
        let path = path_at(&self.bytes, at);
        Some((std::str::from_utf8(path).ok()?, self.recorded_at(at, path.len())?))
    }

    /// What the entry at `at`, whose path is `path_len` bytes long,
    /// records.
    fn recorded_at(&self, at: u32, path_len: usize) -> Option<Recorded> {
        let start = at as usize + 4 + path_len;
        let mut input = super::Reader(self.bytes.get(start..start + AFTER_PATH)?);
        let stamp = Stamp {
            size: input.u64()?,
            modified: input.u64()?.cast_signed(),
            changed: input.u64()?.cast_signed(),
            inode: input.u64()?,
            device: input.u64()?,
        };
        let trusted_before = input.u64()?.cast_signed();
        let hash = input.array()?;
        Some(Recorded { stamp, trusted_before, hash })
    }

    fn iter(&self) -> impl Iterator<Item = (&str, Recorded)> {
        self.entries.iter().filter_map(|&at| self.entry_at(at))
    }

    fn len(&self) -> usize {
        self.entries.len()
    }
}

fn nanos_since_epoch(time: SystemTime) -> i64 {
    match time.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_nanos()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_nanos()).map_or(i64::MIN, |nanos| -nanos),
    }
}

/// The index's bytes: magic, format, count, the entries, and the hash of
/// everything before it.
fn encode(entries: &[(&str, Recorded)]) -> Vec<u8> {
    // Sized exactly: grown as it was written, the buffer was copied and
    // its pages touched twice over.
    const ENTRY_SIZE: usize = 4 + 5 * 8 + 8 + 32;
    let size = 16 + entries.iter().map(|(path, _)| ENTRY_SIZE + path.len()).sum::<usize>() + 8;
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&u32::try_from(entries.len()).unwrap_or(u32::MAX).to_le_bytes());
    for (path, entry) in entries {
        out.extend_from_slice(&u32::try_from(path.len()).unwrap_or(u32::MAX).to_le_bytes());
        out.extend_from_slice(path.as_bytes());
        let stamp = &entry.stamp;
        out.extend_from_slice(&stamp.size.to_le_bytes());
        out.extend_from_slice(&stamp.modified.to_le_bytes());
        out.extend_from_slice(&stamp.changed.to_le_bytes());
        out.extend_from_slice(&stamp.inode.to_le_bytes());
        out.extend_from_slice(&stamp.device.to_le_bytes());
        out.extend_from_slice(&entry.trusted_before.to_le_bytes());
        out.extend_from_slice(&entry.hash);
    }
    let sum = super::checksum(&out);
    out.extend_from_slice(&sum);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> &Utf8Path {
        Utf8Path::new(text)
    }

    fn stamp(modified_secs: i64) -> Stamp {
        let modified = modified_secs * 1_000_000_000;
        Stamp { size: 10, modified, changed: modified, inode: 7, device: 1 }
    }

    fn index_at(dir: &Utf8Path, now_secs: u64) -> FileIndex {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(now_secs);
        FileIndex::with_entries(dir.join(FILE_NAME), "/repo".into(), LoadedLater::now(read_both(dir)), now)
    }

    #[test]
    fn a_run_that_hashed_a_few_files_writes_them_to_the_recent_index() {
        let dir = tempfile::tempdir().expect("a directory");
        let dir = Utf8Path::from_path(dir.path()).expect("UTF-8");
        let hash = blake3::hash(b"bytes");
        let first = index_at(dir, 1_000);
        for file in 0..16 {
            first.record(Utf8Path::new(&format!("{file}.tf")), stamp(990), hash);
        }
        first.save();
        let main = std::fs::read(dir.join(FILE_NAME)).expect("the index");
        // Two new entries, an eighth of the main index's: written apart,
        // the main index as it was.
        let second = index_at(dir, 2_000);
        second.record(path("0.tf"), stamp(1_990), blake3::hash(b"new"));
        second.record(path("new.tf"), stamp(1_990), hash);
        second.save();
        assert_eq!(std::fs::read(dir.join(FILE_NAME)).expect("the index"), main);
        assert!(dir.join(RECENT_FILE_NAME).exists());
        let third = index_at(dir, 3_000);
        assert_eq!(third.hash(path("0.tf"), &stamp(1_990)), Some(blake3::hash(b"new")), "the recent one's");
        assert_eq!(third.hash(path("0.tf"), &stamp(990)), None);
        assert_eq!(third.hash(path("new.tf"), &stamp(1_990)), Some(hash));
        assert_eq!(third.hash(path("1.tf"), &stamp(990)), Some(hash));
        // One more: past the share, both are written as one.
        third.record(path("newer.tf"), stamp(2_990), hash);
        third.save();
        assert!(!dir.join(RECENT_FILE_NAME).exists());
        let fourth = index_at(dir, 4_000);
        assert_eq!(fourth.main_entries(), 18);
        assert_eq!(fourth.hash(path("0.tf"), &stamp(1_990)), Some(blake3::hash(b"new")));
        assert_eq!(fourth.hash(path("newer.tf"), &stamp(2_990)), Some(hash));
    }

    #[test]
    fn an_entry_holds_for_the_same_stamp_of_a_file_touched_before_it_was_taken() {
        let dir = tempfile::tempdir().expect("a directory");
        let dir = Utf8Path::from_path(dir.path()).expect("UTF-8");
        let hash = blake3::hash(b"bytes");
        let first = index_at(dir, 1_000);
        // Touched 10 s before the stamp was taken, and just before.
        first.record(path("a.tf"), stamp(990), hash);
        first.record(path("/repo/b.tf"), stamp(1_000), hash);
        first.save();

        let second = index_at(dir, 2_000);
        assert_eq!(second.hash(path("a.tf"), &stamp(990)), Some(hash), "relative and absolute alike");
        assert_eq!(second.hash(path("/repo/a.tf"), &stamp(990)), Some(hash));
        // Written again within the margin of the stamp: the same stamp
        // could be another content, so it is hashed again.
        assert_eq!(second.hash(path("b.tf"), &stamp(1_000)), None, "racy");
        for changed in [
            Stamp { size: 11, ..stamp(990) },
            Stamp { modified: stamp(990).modified + 1, ..stamp(990) },
            Stamp { changed: stamp(990).changed + 1, ..stamp(990) },
            Stamp { inode: 8, ..stamp(990) },
            Stamp { device: 2, ..stamp(990) },
        ] {
            assert_eq!(second.hash(path("a.tf"), &changed), None, "{changed:?}");
        }
        assert_eq!(second.hash(path("c.tf"), &stamp(990)), None);

        // Hashed again by a later run, it is trusted after that.
        second.record(path("b.tf"), stamp(1_000), hash);
        second.save();
        let third = index_at(dir, 3_000);
        assert_eq!(third.hash(path("b.tf"), &stamp(1_000)), Some(hash));
        assert_eq!(third.hash(path("a.tf"), &stamp(990)), Some(hash), "kept from the first");
    }

    #[test]
    fn a_key_is_the_current_directory_joined_with_the_path() {
        for (current_dir, path) in
            [("/repo", "a/b.tf"), ("/", "a.tf"), ("/repo/", "a.tf"), ("/repo", "/abs/c.tf")]
        {
            let index = FileIndex::with_entries(
                "/nowhere/files".into(),
                current_dir.into(),
                LoadedLater::now(Loaded::default()),
                SystemTime::UNIX_EPOCH,
            );
            let joined = Utf8Path::new(current_dir).join(path);
            assert_eq!(&*index.key(Utf8Path::new(path)), joined.as_str(), "{current_dir} {path}");
        }
    }

    #[test]
    fn a_run_that_recorded_nothing_new_writes_nothing() {
        let dir = tempfile::tempdir().expect("a directory");
        let dir = Utf8Path::from_path(dir.path()).expect("UTF-8");
        let index = index_at(dir, 1_000);
        index.save();
        assert!(!dir.join(FILE_NAME).exists());
    }

    #[test]
    fn every_cut_and_every_changed_byte_is_an_empty_index() {
        let entry = Recorded { stamp: stamp(5), trusted_before: 9, hash: [3; 32] };
        let other = Recorded { hash: [4; 32], ..entry };
        let bytes = encode(&[("/repo/a.tf", entry), ("/repo/b.tf", entry), ("/repo/a.tf", other)]);
        let table = Table::from_bytes(bytes.clone().into()).expect("an index");
        assert_eq!(table.len(), 2);
        assert_eq!(table.get("/repo/a.tf"), Some(other), "the later of two");
        assert_eq!(table.get("/repo/b.tf"), Some(entry));
        assert_eq!(table.get("/repo/c.tf"), None);
        for len in 0..bytes.len() {
            assert!(Table::from_bytes(bytes[..len].to_vec().into()).is_none(), "cut at {len}");
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 1;
            assert!(Table::from_bytes(changed.into()).is_none(), "byte {at} changed");
        }
    }

    #[test]
    fn entries_long_unverified_are_dropped() {
        let dir = tempfile::tempdir().expect("a directory");
        let dir = Utf8Path::from_path(dir.path()).expect("UTF-8");
        let hash = blake3::hash(b"bytes");
        let first = index_at(dir, 1_000);
        first.record(path("old.tf"), stamp(1), hash);
        first.save();
        let later = index_at(dir, 1_000 + MAX_AGE.as_secs() + 10);
        assert_eq!(later.hash(path("old.tf"), &stamp(1)), Some(hash));
        later.record(path("new.tf"), stamp(1), hash);
        later.save();
        let last = index_at(dir, 1_000 + MAX_AGE.as_secs() + 20);
        assert_eq!(last.hash(path("old.tf"), &stamp(1)), None);
        assert_eq!(last.hash(path("new.tf"), &stamp(1)), Some(hash));
    }
}
