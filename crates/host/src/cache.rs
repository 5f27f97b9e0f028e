//! The persistent result cache of `check`: each check unit's diagnostics
//! kept on disk across runs, by what the unit's result depends on, so that
//! a run over an unchanged tree reads and hashes files and parses none.
//!
//! An entry is named by its unit's *key*, a 128-bit XXH3 hash (see
//! [`Key`]) of everything the unit's own result can depend on: Halite's
//! build (its version and the hash of the running executable, so a
//! rebuilt binary trusts no entry of another), the entry format, the
//! limits, the unit's directory, and for each of its files its path
//! (which gives its kind and dialect), its effective rule levels and the
//! hash of its bytes. What a unit reads
//! beyond its own files (the variables of the local modules it calls) is
//! found only by parsing it, so it is not in the key but in the entry: the
//! directories read, each with its files' paths and hashes as the run saw
//! them and the digest of what the unit read of each ([`interface_digest`]).
//! A lookup trusts an entry only when those files still match, or the
//! module there still declares what the digest says, and a re-check writes
//! the entry again under the same key. A module's entry keeps its own
//! interface too ([`StoredInterface`]), for its callers checked again.
//!
//! An entry is a header (magic, format version, the key again, a checksum
//! of the payload) and the payload; anything that does not match, or does
//! not decode to the last byte, is a miss, never an error, and is
//! overwritten by the re-check. Every entry of a build is kept in one
//! file, its [`pack`] (with a small recent pack beside it, for the few
//! entries a warm run stores), read once per run and written whole (a
//! temporary file renamed into place) at the end of a run that stored an
//! entry, so a reader never sees half a pack and two runs at once both
//! succeed (at worst one's new entries are lost, and checked again next
//! time). The pack is bounded:
//! when it would pass its cap, the least recently used entries (by the
//! time kept in the pack for each, refreshed on a hit when older than
//! [`TOUCH_AFTER`]) are left out until it is under three quarters of it,
//! and other builds' packs are removed, least recently written first,
//! while all the packs pass it.
//!
//! Beside the pack, the cache keeps what `stat` said of each file hashed
//! ([`file_index`]) and a record of each directory walk ([`walk`]: the
//! files found, trusted while every directory listed and ignore file read
//! is as it was), so that a warm run lists no directory and reads no
//! unchanged file. A record that holds has its files looked up in the
//! index at once, on a thread of its own ([`stamps`]), while the run goes
//! on; the check takes those lookups.

use std::{
    fs,
    io::{self, Write},
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, SystemTime},
};

use analysis::{Diagnostic, Edit, Label, LineCol, RuleLevels, Severity, Suggestion};
use camino::{Utf8Path, Utf8PathBuf};
use db::File;
use rustc_hash::{FxHashMap, FxHashSet};
use syntax::{TextRange, TextSize};

use crate::{Limits, LocatedDiagnostic, lock};
use db::module::{ModuleInput, ModuleInterface};

mod file_index;
mod pack;
mod stamps;
mod walk;

use file_index::FileIndex;
#[cfg(test)]
pub(crate) use file_index::RACY_MARGIN;
pub(crate) use file_index::Stamp;
use pack::{Pack, Packed};
pub(crate) use stamps::StampsAhead;
pub use walk::{RecordedWalk, WalkInputs, WalkKey};

/// The environment variable naming the cache directory when the command
/// line does not.
pub const CACHE_DIR_ENV: &str = "HALITE_CACHE_DIR";

/// The cap of a cache's pack, in bytes, unless set otherwise.
pub const DEFAULT_MAX_SIZE: u64 = 256 << 20;

/// A hit refreshes its entry's time of last use (what pruning orders by)
/// only when it is older than this, so that a warm run does not write the
/// pack for entries it only read.
pub const TOUCH_AFTER: Duration = Duration::from_secs(60 * 60);

/// Temporary files left by a run that stopped mid-write are removed by a
/// run that writes the pack once they are older than this.
const STALE_TEMPORARY: Duration = Duration::from_secs(60 * 60);

/// Another build's packs not written for this long are removed by a run
/// that writes its main pack: a build not run for that long is most
/// likely gone.
const OTHER_BUILD_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// The names of temporary files.
const TEMPORARY_PREFIX: &str = ".tmp-";

/// The file that keeps the hashes of the executables that used the cache
/// (see [`build_id`]), and how many it keeps.
const BUILDS: &str = "builds-v1";
const MAX_BUILDS: usize = 8;

/// The first bytes of every entry.
const MAGIC: &[u8; 8] = b"HALITE\x00C";

/// The entry format; changing the encoding below (or the pack's) changes
/// it, and the pack's file name with it.
const FORMAT: u32 = 6;

/// What earlier formats kept in the cache's directory (their entries'
/// directories, and the pack and ledger beside them): no build that
/// writes this format reads them, so a run that writes removes them.
const OLDER_FORMATS: &[&str] = &["check-v1", "check-v2", "check-v3"];

/// An entry larger than this is not read (no real unit's diagnostics come
/// near it): a foreign file cannot make a lookup read without bound.
const MAX_ENTRY_SIZE: u64 = 64 << 20;

/// The header: magic, format, key, payload checksum ([`checksum`]).
const HEADER_SIZE: usize = 8 + 4 + KEY_SIZE + 8;

/// The size of a unit's key, in bytes.
pub(crate) const KEY_SIZE: usize = 16;

/// A directory of check results, opened for one run.
#[derive(Debug)]
pub struct ResultCache {
    /// The cache's directory.
    dir: Utf8PathBuf,
    build: blake3::Hash,
    max_size: u64,
    /// Whether this run stored an entry.
    wrote: AtomicBool,
    /// How many entries this run stored: the order the pack lays them
    /// out in.
    stored: AtomicU64,
    /// What `stat` said of each file when its bytes were last hashed.
    files: Arc<FileIndex>,
    /// The lookups of the files of the first recorded walk found to hold,
    /// started as it was read (see [`StampsAhead`]), until the check takes
    /// them.
    stamps_ahead: Mutex<Option<Arc<StampsAhead>>>,
    /// The entries as the main pack held them when the run began.
    pack: Pack,
    /// What `stat` said of the main pack before it was read (`None`: no
    /// pack): when it says otherwise at the end of the run, another run
    /// wrote the pack meanwhile, and it is read again to keep that run's
    /// entries.
    pack_stamp: Option<Stamp>,
    /// The entries as the recent pack held them when the run began, and
    /// what `stat` said of it then.
    recent: Pack,
    recent_stamp: Option<Stamp>,
    /// The entries this run stored, and those it read whose time of last
    /// use is to be refreshed, by key.
    used: Mutex<FxHashMap<[u8; KEY_SIZE], Used>>,
    /// Whether the pack is to be written: this run stored an entry, or
    /// used one whose time of last use is to be refreshed.
    pack_stale: AtomicBool,
    /// Whether a hit's files are read for their text (see
    /// [`ResultCache::without_source_text`]).
    source_text: bool,
}

/// How a run used an entry, where the pack is to know it (an entry only
/// read keeps the time of last use it has: nothing is kept of it).
#[derive(Debug)]
enum Used {
    /// Read from a pack, its time of last use older than [`TOUCH_AFTER`]:
    /// to be refreshed.
    Refreshed,
    /// Stored by this run: how many entries it had stored before, and its
    /// bytes, header and payload.
    Stored(u64, Vec<u8>),
}

impl ResultCache {
    /// The directory used when none is given: `$HALITE_CACHE_DIR` when set
    /// and not empty, else `halite` in the user's cache directory
    /// (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on
    /// macOS, `%LOCALAPPDATA%` on Windows). `None` when there is none.
    pub fn default_dir() -> Option<Utf8PathBuf> {
        if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|dir| !dir.is_empty()) {
            return Utf8PathBuf::from_path_buf(dir.into()).ok();
        }
        let dir = dirs::cache_dir()?.join("halite");
        Utf8PathBuf::from_path_buf(dir).ok()
    }

    /// Opens (creating it if need be) the cache in `dir`, for results of
    /// this build of Halite.
    pub fn open(dir: &Utf8Path) -> io::Result<ResultCache> {
        fs::create_dir_all(dir)?;
        // Backup and archiving tools skip a directory tagged so.
        let tag = dir.join("CACHEDIR.TAG");
        if !tag.exists() {
            let _ = fs::write(
                &tag,
                "Signature: 8a477f597d28d172789f06886806bc55\n\
                 # This directory is Halite's result cache; see `halite check --help`.\n",
            );
        }
        let build = build_id(dir)?;
        let current_dir = std::env::current_dir()
            .ok()
            .and_then(|dir| Utf8PathBuf::from_path_buf(dir).ok())
            .ok_or_else(|| io::Error::other("the current directory is not UTF-8"))?;
        let files = FileIndex::open(dir, current_dir);
        let pack_path = pack::path_of(dir, &build);
        let pack_stamp = stamp_of(&pack_path);
        let pack = Pack::read(&pack_path, FORMAT);
        let recent_path = pack::recent_path_of(dir, &build);
        let recent_stamp = stamp_of(&recent_path);
        let recent = Pack::read(&recent_path, FORMAT);
        Ok(ResultCache {
            dir: dir.to_owned(),
            build,
            max_size: DEFAULT_MAX_SIZE,
            wrote: AtomicBool::new(false),
            stored: AtomicU64::new(0),
            files: Arc::new(files),
            stamps_ahead: Mutex::default(),
            pack,
            pack_stamp,
            used: Mutex::default(),
            recent,
            recent_stamp,
            pack_stale: AtomicBool::new(false),
            source_text: true,
        })
    }

    /// The same cache, its pack bounded to `bytes`.
    pub fn with_max_size(mut self, bytes: u64) -> ResultCache {
        self.max_size = bytes;
        self
    }

    /// The same cache for a caller that renders diagnostics without
    /// quoting the source (every format but the human one): the files of a
    /// unit reported from its entry are then not read at all, and the
    /// database handed to `on_file` has them empty.
    pub fn without_source_text(mut self) -> ResultCache {
        self.source_text = false;
        self
    }

    /// Whether a hit's files with diagnostics are read for their text.
    pub(crate) fn reads_source_text(&self) -> bool {
        self.source_text
    }

    /// Whether this run stored an entry.
    pub fn wrote(&self) -> bool {
        self.wrote.load(Ordering::Relaxed)
    }

    /// The hash of the bytes of the file at `path` as the file index has
    /// it, if the file's stamp is now `stamp` and the entry is not racy:
    /// see [`file_index`].
    pub(crate) fn indexed_hash(&self, path: &Utf8Path, stamp: &Stamp) -> Option<blake3::Hash> {
        self.files.hash(path, stamp)
    }

    /// Records in the file index that the file at `path`, stamped `stamp`
    /// before its bytes were read, hashes to `hash`.
    pub(crate) fn index_file(&self, path: &Utf8Path, stamp: Stamp, hash: blake3::Hash) {
        self.files.record(path, stamp, hash);
    }

    /// Ends a run: writes the file index if the run hashed files, and the
    /// pack if the run stored entries (or used old ones). Failures are
    /// only not saving this time.
    pub fn finish(&self) {
        self.files.save();
        self.write_pack();
        if self.wrote() {
            self.remove_older_formats();
        }
    }

    /// Removes what earlier formats left in the cache's directory
    /// ([`OLDER_FORMATS`]); what cannot be removed stays.
    fn remove_older_formats(&self) {
        for name in OLDER_FORMATS {
            let entries = self.dir.join(name);
            if entries.is_dir() {
                let _ = fs::remove_dir_all(&entries);
            }
            for extension in ["pack", "size"] {
                let _ = fs::remove_file(entries.with_extension(extension));
            }
        }
    }

    /// The key of a directory walk's record: `parts` are what decides the
    /// walk besides the file system (see [`walk`]).
    pub fn walk_key(&self, parts: &[&str]) -> WalkKey {
        walk::key(&self.build, parts)
    }

    /// What the walk of `key` found last time, if every directory it
    /// listed and every ignore file it read is as it was then.
    pub fn recorded_walk(&self, key: &WalkKey) -> Option<RecordedWalk> {
        let mut started = false;
        let recorded = walk::recorded(&self.dir, key, |files| {
            let mut ahead = lock(&self.stamps_ahead);
            if ahead.is_none() {
                *ahead = Some(StampsAhead::start(Arc::clone(files), Arc::clone(&self.files)));
                started = true;
            }
        });
        // A walk that no longer holds is walked again, and the files it
        // finds are looked up by the check's own pass: the lookups begun
        // for the record, left to run, would be a second pass over most
        // files.
        if recorded.is_none()
            && started
            && let Some(ahead) = lock(&self.stamps_ahead).take()
        {
            ahead.cancel();
        }
        recorded
    }

    /// The lookups of the files of the recorded walk found first, started
    /// when it was (once: a second call has none).
    pub(crate) fn take_stamps_ahead(&self) -> Option<Arc<StampsAhead>> {
        lock(&self.stamps_ahead).take()
    }

    /// Records what a walk that started at `started` listed and read, and
    /// what it found, for the next run (unless a stamp cannot be taken);
    /// returns the directories it listed that hold no `halite.toml`.
    pub fn record_walk(
        &self,
        key: &WalkKey,
        started: SystemTime,
        inputs: WalkInputs,
        found: &[Utf8PathBuf],
    ) -> Vec<Utf8PathBuf> {
        walk::record(&self.dir, key, started, inputs, found)
    }

    /// The key of a check unit: see the module's documentation.
    pub(crate) fn unit_key(&self, limits: Limits, dir: Option<&Utf8Path>, files: &[UnitFile<'_>]) -> Key {
        // Laid out whole and hashed at once: a hasher fed a few bytes at a
        // time spent more on each call than on the bytes (the same bytes,
        // so the same key).
        let mut input = Vec::with_capacity(128 + files.len() * (80 + 8 + 66));
        input.extend_from_slice(self.build.as_bytes());
        input.extend_from_slice(&FORMAT.to_le_bytes());
        input.extend_from_slice(&limits.max_file_size.to_le_bytes());
        input.extend_from_slice(&(limits.max_diagnostics_per_file as u64).to_le_bytes());
        match dir {
            Some(dir) => {
                input.push(b'm');
                push_str(&mut input, dir.as_str());
            }
            None => input.push(b's'),
        }
        input.extend_from_slice(&(files.len() as u64).to_le_bytes());
        // Short, since hashing the input is most of what a key costs: a
        // file of the unit's directory by its path from there (which the
        // directory written above makes whole), and its levels' digest
        // only where it is not the file's before it (the files of a
        // directory share theirs, most often).
        let mut last_levels = None;
        for file in files {
            let path = file.path.as_str();
            let in_dir =
                dir.and_then(|dir| path.strip_prefix(dir.as_str())).and_then(|rest| rest.strip_prefix('/'));
            match in_dir {
                Some(rest) => {
                    input.push(b'd');
                    push_str(&mut input, rest);
                }
                None => {
                    input.push(b'p');
                    push_str(&mut input, path);
                }
            }
            if last_levels == Some(file.levels) {
                input.push(b'=');
            } else {
                input.push(b'l');
                input.extend_from_slice(file.levels.as_bytes());
                last_levels = Some(file.levels);
            }
            input.extend_from_slice(file.bytes.as_bytes());
        }
        Key(xxhash_rust::xxh3::xxh3_128(&input).to_le_bytes())
    }

    /// The entry of `key`, if there is a whole one written by this build:
    /// the one this run stored, else the recent pack's, else the main
    /// pack's.
    pub(crate) fn load(&self, key: &Key) -> Option<Entry> {
        let name = &key.0;
        if self.wrote()
            && let Some(Used::Stored(_, bytes)) = lock(&self.used).get(name)
        {
            return decode_entry(bytes, key);
        }
        let packed = self.recent.get(name).or_else(|| self.pack.get(name))?;
        let entry = decode_entry(packed.bytes, key)?;
        if age_of(packed.used) > TOUCH_AFTER {
            lock(&self.used).entry(*name).or_insert(Used::Refreshed);
            self.pack_stale.store(true, Ordering::Relaxed);
        }
        Some(entry)
    }

    /// Keeps `entry` under `key`, for the pack this run writes at its end.
    pub(crate) fn store(&self, key: &Key, entry: &Entry) {
        let payload = encode_entry(entry);
        let mut bytes = Vec::with_capacity(HEADER_SIZE + payload.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&FORMAT.to_le_bytes());
        bytes.extend_from_slice(&key.0);
        bytes.extend_from_slice(&checksum(&payload));
        bytes.extend_from_slice(&payload);
        let order = self.stored.fetch_add(1, Ordering::Relaxed);
        lock(&self.used).insert(key.0, Used::Stored(order, bytes));
        self.wrote.store(true, Ordering::Relaxed);
        self.pack_stale.store(true, Ordering::Relaxed);
    }

    /// Writes what this run stored (or used, to be refreshed): into the
    /// recent pack when that stays small beside the main one, else the
    /// main pack anew (see [`pack`]). A failure (a full disk, a read-only
    /// cache) leaves the packs as they were: the next run checks this
    /// run's units again.
    fn write_pack(&self) {
        if !self.pack_stale.load(Ordering::Relaxed) {
            return;
        }
        let now = nanos_since_epoch(SystemTime::now());
        let used = std::mem::take(&mut *lock(&self.used));
        // Another run's recent pack, if one was written since this run
        // read it.
        let recent_path = pack::recent_path_of(&self.dir, &self.build);
        let recent_stamp = stamp_of(&recent_path);
        let newer_recent = (recent_stamp != self.recent_stamp).then(|| Pack::read(&recent_path, FORMAT));
        let recent = newer_recent.as_ref().unwrap_or(&self.recent);
        // In the order this run stored them (see [`pack::encode`]).
        let mut stored: Vec<(u64, Packed<'_>)> = used
            .iter()
            .filter_map(|(key, how)| match how {
                Used::Stored(order, bytes) => Some((*order, Packed { key, bytes, used: now })),
                Used::Refreshed => None,
            })
            .collect();
        stored.sort_unstable_by_key(|(order, _)| *order);
        let mut stored: Vec<Packed<'_>> = stored.into_iter().map(|(_, packed)| packed).collect();
        let refresh = used.values().any(|how| matches!(how, Used::Refreshed));
        let recent_kept = recent.entries().filter(|packed| !used.contains_key(packed.key));
        let recent_size: u64 = stored.iter().map(pack::size_of).sum::<u64>()
            + recent_kept.clone().map(|p| pack::size_of(&p)).sum::<u64>();
        let main_size = self.pack.len() as u64;
        if !refresh
            && recent_size <= main_size / pack::RECENT_SHARE
            && main_size + recent_size <= self.max_size
        {
            stored.extend(recent_kept);
            let _ = write_atomically(&self.dir, &recent_path, &pack::encode(FORMAT, &stored));
            return;
        }
        // The main pack anew: every entry of both packs (another run's,
        // if one wrote them since), this run's first.
        let main_path = pack::path_of(&self.dir, &self.build);
        let newer_main = (stamp_of(&main_path) != self.pack_stamp).then(|| Pack::read(&main_path, FORMAT));
        let main = newer_main.as_ref().unwrap_or(&self.pack);
        let mut entries = stored;
        // Those refreshed in the order their packs have them.
        let mut refreshed: Vec<(bool, usize, Packed<'_>)> = used
            .iter()
            .filter(|(_, how)| matches!(how, Used::Refreshed))
            .filter_map(|(key, _)| match self.recent.get(key) {
                Some(packed) => Some((false, self.recent.offset_of(&packed), packed)),
                None => self.pack.get(key).map(|packed| (true, self.pack.offset_of(&packed), packed)),
            })
            .collect();
        refreshed.sort_unstable_by_key(|&(in_main, offset, _)| (in_main, offset));
        entries.extend(refreshed.into_iter().map(|(_, _, packed)| Packed { used: now, ..packed }));
        let unused = |packed: &Packed<'_>| !used.contains_key(packed.key);
        entries.extend(recent.entries().filter(unused));
        entries.extend(main.entries().filter(unused));
        // Each with its place in that order, which the pack's bytes keep.
        let mut entries: Vec<(usize, Packed<'_>)> = entries.into_iter().enumerate().collect();
        // Stable: where both packs have a key, the first (the recent
        // pack's) is kept.
        entries.sort_by_key(|(_, packed)| *packed.key);
        entries.dedup_by_key(|(_, packed)| *packed.key);
        let mut size: u64 = entries.iter().map(|(_, packed)| pack::size_of(packed)).sum();
        if size > self.max_size {
            // The least recently used first; the same time, by key.
            entries.sort_unstable_by_key(|(_, packed)| (packed.used, *packed.key));
            let target = self.max_size / 4 * 3;
            let dropped = entries
                .iter()
                .take_while(|(_, packed)| {
                    let over = size > target;
                    if over {
                        size -= pack::size_of(packed);
                    }
                    over
                })
                .count();
            entries.drain(..dropped);
        }
        entries.sort_unstable_by_key(|&(place, _)| place);
        let entries: Vec<Packed<'_>> = entries.into_iter().map(|(_, packed)| packed).collect();
        let bytes = pack::encode(FORMAT, &entries);
        if write_atomically(&self.dir, &main_path, &bytes).is_ok()
            && recent_stamp.is_some()
            && stamp_of(&recent_path) == recent_stamp
        {
            // Its entries are in the main pack now. One another run wrote
            // meanwhile is left: its entries stand on their own.
            let _ = fs::remove_file(&recent_path);
        }
        self.tidy(bytes.len() as u64);
    }

    /// Removes from the cache's directory the temporary files that a run
    /// stopped mid-write left, once they are [`STALE_TEMPORARY`] old, and
    /// other builds' packs, the least recently written first, while the
    /// packs take more than the cap with this build's `own` bytes, and
    /// those not written for [`OTHER_BUILD_MAX_AGE`].
    fn tidy(&self, own: u64) {
        let Ok(items) = fs::read_dir(&self.dir) else { return };
        let own_names = [pack::path_of(&self.dir, &self.build), pack::recent_path_of(&self.dir, &self.build)];
        let mut others = Vec::new();
        for item in items.flatten() {
            let name = item.file_name();
            let name = name.to_string_lossy();
            let is_temporary = name.starts_with(TEMPORARY_PREFIX);
            if !is_temporary && !pack::is_pack_name(&name) {
                continue;
            }
            let Ok(metadata) = item.metadata() else { continue };
            let age =
                metadata.modified().ok().and_then(|modified| modified.elapsed().ok()).unwrap_or_default();
            if is_temporary {
                if age > STALE_TEMPORARY {
                    let _ = fs::remove_file(item.path());
                }
            } else if !own_names.iter().any(|own| own.file_name() == Some(&*name)) {
                others.push((age, metadata.len(), item.path()));
            }
        }
        // The oldest first.
        others.sort_unstable_by_key(|(age, _, _)| std::cmp::Reverse(*age));
        let mut size = own.saturating_add(others.iter().map(|(_, len, _)| len).sum());
        for (age, len, path) in others {
            if (size > self.max_size || age > OTHER_BUILD_MAX_AGE) && fs::remove_file(path).is_ok() {
                size -= len;
            }
        }
    }
}

/// What `stat` says of the file at `path`, if there is one.
fn stamp_of(path: &Utf8Path) -> Option<Stamp> {
    fs::metadata(path).ok().map(|metadata| Stamp::of(&metadata))
}

/// `time` in nanoseconds since the Unix epoch (0 before it).
fn nanos_since_epoch(time: SystemTime) -> u64 {
    time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |since| since.as_nanos() as u64)
}

/// How long ago `nanos` since the Unix epoch was (nothing, if later).
fn age_of(nanos: u64) -> Duration {
    let then = SystemTime::UNIX_EPOCH + Duration::from_nanos(nanos);
    SystemTime::now().duration_since(then).unwrap_or_default()
}

/// What makes one build's results its own: the package's version and the
/// hash of the running executable. A build that changes a rule changes the
/// executable, so it trusts no entry of the build before it. Hashing the
/// executable (tens of megabytes with its debug information) would be a
/// good part of a warm run, so the hash is kept in the cache directory
/// (`builds-v1`, the last [`MAX_BUILDS`] executables' hashes) by what
/// `stat` says of the file (its path, size, inode, modification and
/// change times, as `git` trusts its index): a rebuilt or replaced binary
/// is a new file, hashed again. Read once per process.
fn build_id(dir: &Utf8Path) -> io::Result<blake3::Hash> {
    static BUILD: OnceLock<Result<blake3::Hash, String>> = OnceLock::new();
    let build = BUILD.get_or_init(|| {
        let exe = std::env::current_exe().map_err(|error| error.to_string())?;
        let describe = |error: io::Error| format!("{}: {error}", exe.display());
        let metadata = fs::metadata(&exe).map_err(describe)?;
        let mut stamp = blake3::Hasher::new();
        hash_str(&mut stamp, env!("CARGO_PKG_VERSION"));
        hash_str(&mut stamp, &exe.to_string_lossy());
        stamp.update(&metadata.len().to_le_bytes());
        let since_epoch = |time: io::Result<SystemTime>| {
            time.ok().and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok()).unwrap_or_default()
        };
        stamp.update(&since_epoch(metadata.modified()).as_nanos().to_le_bytes());
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            stamp.update(&metadata.dev().to_le_bytes());
            stamp.update(&metadata.ino().to_le_bytes());
            stamp.update(&metadata.ctime().to_le_bytes());
            stamp.update(&metadata.ctime_nsec().to_le_bytes());
        }
        let stamp = *stamp.finalize().as_bytes();
        // Rows of the stamp and the hash, the most recent first.
        let memo = dir.join(BUILDS);
        let mut rows: Vec<[u8; 64]> = read_bounded(&memo, (64 * MAX_BUILDS) as u64)
            .map(|bytes| bytes.chunks_exact(64).filter_map(|row| row.try_into().ok()).collect())
            .unwrap_or_default();
        if let Some(row) = rows.iter().find(|row| row[..32] == stamp) {
            return Ok(blake3::Hash::from_slice(&row[32..]).expect("32 bytes"));
        }
        let mut hasher = blake3::Hasher::new();
        hash_str(&mut hasher, env!("CARGO_PKG_VERSION"));
        hasher.update_reader(fs::File::open(&exe).map_err(describe)?).map_err(describe)?;
        let hash = hasher.finalize();
        let mut row = [0; 64];
        row[..32].copy_from_slice(&stamp);
        row[32..].copy_from_slice(hash.as_bytes());
        rows.insert(0, row);
        rows.truncate(MAX_BUILDS);
        // Not kept is only hashed again next time.
        let _ = write_atomically(dir, &memo, rows.as_flattened());
        Ok(hash)
    });
    build
        .clone()
        .map_err(|message| io::Error::other(format!("cannot identify Halite's executable: {message}")))
}

/// The bytes of one of the cache's files as read: mapped when it is
/// large, on Unix (a warm run reads megabytes of them, and copying each
/// into memory of its own touched as many fresh pages), else read.
#[derive(Debug)]
pub(crate) enum FileBytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl Default for FileBytes {
    fn default() -> FileBytes {
        FileBytes::Read(Vec::new())
    }
}

impl From<Vec<u8>> for FileBytes {
    fn from(bytes: Vec<u8>) -> FileBytes {
        FileBytes::Read(bytes)
    }
}

impl std::ops::Deref for FileBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Read(bytes) => bytes,
        }
    }
}

/// Files smaller than this are read rather than mapped.
const MAP_FROM: u64 = 64 << 10;

/// The whole of the regular file at `path`, if it is one of at most
/// `max_size` bytes: how the cache reads its own files (a pack, the file
/// index, a walk's record), any of which another process may be replacing.
pub(crate) fn read_bounded(path: &Utf8Path, max_size: u64) -> Option<FileBytes> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let metadata = file.metadata().ok()?;
    if !metadata.is_file() || metadata.len() > max_size {
        return None;
    }
    // Not on Windows, where a file mapped cannot be replaced, and this
    // run replaces the pack it read.
    #[cfg(unix)]
    if metadata.len() >= MAP_FROM {
        // SAFETY: the mapping stays as it is mapped for the run. The cache
        // writes its files whole to a temporary file renamed over the old
        // one, never in place, and the file renamed over lives on for as
        // long as it is mapped; only another program writing into the
        // file itself, or cutting it short, could change what is mapped
        // (and a read past a cut end would stop the process). Populated
        // at once: every page is read, and one call maps them all.
        if let Ok(map) = unsafe { memmap2::MmapOptions::new().populate().map(&file) } {
            return Some(FileBytes::Mapped(map));
        }
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).ok()?);
    file.read_to_end(&mut bytes).ok()?;
    Some(FileBytes::Read(bytes))
}

/// Writes `bytes` to `path` in `dir` whole or not at all: a temporary file
/// renamed over it.
fn write_atomically(dir: &Utf8Path, path: &Utf8Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = tempfile::Builder::new().prefix(TEMPORARY_PREFIX).tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.persist(path).map_err(|error| error.error)?;
    Ok(())
}

/// `text` as [`hash_str`] hashes it.
fn push_str(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u64).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

fn hash_str(hasher: &mut blake3::Hasher, text: &str) {
    hasher.update(&(text.len() as u64).to_le_bytes());
    hasher.update(text.as_bytes());
}

/// A check unit's key: see [`ResultCache`]. XXH3's 128 bits, not BLAKE3's
/// 256: a warm run takes thousands of keys, each of a few hundred bytes,
/// and BLAKE3 (a block at a time at that length) was a tenth of such a
/// run's instructions. The key is to keep units' results apart by
/// accident, which 128 bits of a well-mixed hash do beyond any cache's
/// size; it guards against no one who can write the cache's files, who
/// could as well write an entry of any key. The files' and
/// configurations' hashes it covers stay BLAKE3's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key([u8; KEY_SIZE]);

/// What the key covers of one file of a unit.
pub(crate) struct UnitFile<'a> {
    pub(crate) path: &'a Utf8Path,
    /// [`levels_digest`] of its rule levels.
    pub(crate) levels: &'a blake3::Hash,
    /// The hash of its bytes.
    pub(crate) bytes: &'a blake3::Hash,
}

/// The hash of a file's bytes, as keys and dependencies record it.
pub(crate) fn hash_bytes(bytes: &[u8]) -> blake3::Hash {
    blake3::hash(bytes)
}

/// The hash of effective rule levels: of their `Debug` form, which lists
/// every rule set and its level in order (a `BTreeMap`), so that two equal
/// configurations hash alike whichever files they came from.
pub(crate) fn levels_digest(levels: &RuleLevels) -> blake3::Hash {
    blake3::hash(format!("{levels:?}").as_bytes())
}

/// A unit's cached result: what it read beyond its own files, and each of
/// its files' diagnostics in the unit's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub(crate) dependencies: Vec<Dependency>,
    /// The files it read by path beyond its own and its modules' (a file a
    /// unit includes, and each place searched before it).
    pub(crate) reads: Vec<FileRead>,
    pub(crate) files: Vec<Vec<StoredDiagnostic>>,
    /// For a module, what its callers read of it; `None` for a file of
    /// no module. It depends on the unit's own files alone, so a caller
    /// checked again reads it from here rather than parsing the module.
    pub(crate) interface: Option<StoredInterface>,
}

/// A module's interface as an entry keeps it: encoded, and decoded only
/// when a caller asks (most entries are read only for their diagnostics).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredInterface(Vec<u8>);

impl StoredInterface {
    /// `interface` (`None`: no module there), to be stored.
    pub(crate) fn new(interface: Option<&ModuleInterface>) -> StoredInterface {
        let mut out = Writer(Vec::new());
        match interface {
            None => out.u8(0),
            Some(interface) => {
                out.u8(1);
                out.len(interface.inputs.len());
                for input in &interface.inputs {
                    out.str(&input.name);
                    out.u8(u8::from(input.required));
                    match &input.ty {
                        None => out.u8(0),
                        Some(ty) => {
                            out.u8(1);
                            out.str(&ty.to_json_string());
                        }
                    }
                }
                out.len(interface.outputs.len());
                for output in &interface.outputs {
                    out.str(output);
                }
                out.u8(u8::from(interface.complete));
            }
        }
        StoredInterface(out.0)
    }

    /// The interface stored, or `None` when the bytes are not one.
    pub(crate) fn decode(&self) -> Option<Option<Arc<ModuleInterface>>> {
        let mut input = Reader(&self.0);
        let interface = match input.u8()? {
            0 => None,
            1 => Some(Arc::new(decode_interface(&mut input)?)),
            _ => return None,
        };
        input.0.is_empty().then_some(interface)
    }
}

/// A file a unit read by path: the hash of its bytes, or `None` where no
/// file was there (so that one appearing there is a change).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileRead {
    pub(crate) path: Utf8PathBuf,
    pub(crate) hash: Option<blake3::Hash>,
}

/// A directory a unit read for its result (a local module it calls),
/// that directory's files as the run had them (`None` when the run had
/// none of them, so that the directory was not read at all), and the
/// [`interface_digest`] of what the unit read of it: when the files have
/// changed but what they declare for callers has not, the unit's result
/// holds all the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Dependency {
    pub(crate) dir: Utf8PathBuf,
    pub(crate) files: Option<Vec<(Utf8PathBuf, blake3::Hash)>>,
    pub(crate) interface: blake3::Hash,
}

/// The hash of what a caller reads of a called module: its variables and
/// outputs as [`db::module::child_interface`] gives them, or `None` (no
/// module there). Equal interfaces hash alike; the hash is of this build's
/// `Hash` of each part (a key holds only for the build that wrote it).
pub(crate) fn interface_digest(interface: Option<&ModuleInterface>) -> blake3::Hash {
    use std::hash::{Hash, Hasher};
    /// A `Hasher` laying out what types that derive `Hash` write, for
    /// BLAKE3 to hash at once: fed a few bytes at a time (a name, a
    /// length), a BLAKE3 hasher spent far more on each call than on the
    /// bytes, and a module's interface is written many times a run (once
    /// per caller checked again). The same bytes, so the same digest.
    struct Digest(Vec<u8>);
    impl Hasher for Digest {
        fn write(&mut self, bytes: &[u8]) {
            self.0.extend_from_slice(bytes);
        }
        fn finish(&self) -> u64 {
            0
        }
    }
    let mut digest = Digest(Vec::with_capacity(1024));
    match interface {
        None => digest.write_u8(0),
        Some(interface) => {
            digest.write_u8(1);
            digest.write_usize(interface.inputs.len());
            for input in &interface.inputs {
                input.name.hash(&mut digest);
                input.required.hash(&mut digest);
                input.ty.hash(&mut digest);
            }
            interface.outputs.hash(&mut digest);
            interface.complete.hash(&mut digest);
        }
    }
    blake3::hash(&digest.0)
}

/// A [`LocatedDiagnostic`] without its file and path, which the unit's
/// file gives back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredDiagnostic {
    severity: Severity,
    code: &'static str,
    message: String,
    range: TextRange,
    label: Option<String>,
    labels: Vec<(TextRange, String)>,
    notes: Vec<String>,
    suggestions: Vec<(String, Vec<(TextRange, String)>)>,
    start: LineCol,
    end: LineCol,
    edits: Vec<(LineCol, LineCol)>,
}

impl StoredDiagnostic {
    pub(crate) fn new(located: &LocatedDiagnostic) -> StoredDiagnostic {
        let diagnostic = &located.diagnostic;
        StoredDiagnostic {
            severity: diagnostic.severity,
            code: diagnostic.code,
            message: diagnostic.message.clone(),
            range: diagnostic.range,
            label: diagnostic.label.clone(),
            labels: diagnostic.labels.iter().map(|label| (label.range, label.message.clone())).collect(),
            notes: diagnostic.notes.clone(),
            suggestions: diagnostic
                .suggestions
                .iter()
                .map(|suggestion| {
                    let edits =
                        suggestion.edits.iter().map(|edit| (edit.range, edit.replacement.clone())).collect();
                    (suggestion.message.clone(), edits)
                })
                .collect(),
            start: located.start,
            end: located.end,
            edits: located.edits.clone(),
        }
    }

    /// The diagnostic again, of `file` at `path`.
    pub(crate) fn located(&self, file: File, path: &Utf8Path) -> LocatedDiagnostic {
        LocatedDiagnostic {
            diagnostic: Diagnostic {
                severity: self.severity,
                code: self.code,
                message: self.message.clone(),
                file,
                range: self.range,
                label: self.label.clone(),
                labels: self
                    .labels
                    .iter()
                    .map(|(range, message)| Label { range: *range, message: message.clone() })
                    .collect(),
                notes: self.notes.clone(),
                suggestions: self
                    .suggestions
                    .iter()
                    .map(|(message, edits)| Suggestion {
                        message: message.clone(),
                        edits: edits
                            .iter()
                            .map(|(range, replacement)| Edit {
                                range: *range,
                                replacement: replacement.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            },
            path: path.to_owned(),
            start: self.start,
            end: self.end,
            edits: self.edits.clone(),
        }
    }
}

/// A rule code read back: the codes are `&'static str` everywhere, and a
/// code read from an entry is one of a few dozen, so each distinct one is
/// kept for the process's life, at most [`MAX_CODES`] of them (more means
/// a foreign entry, which is then refused).
fn intern_code(code: &str) -> Option<&'static str> {
    static CODES: OnceLock<Mutex<FxHashSet<&'static str>>> = OnceLock::new();
    const MAX_CODES: usize = 4096;
    if let Some(rule) = analysis::rules::rule(code) {
        return Some(rule.code);
    }
    let mut codes = CODES.get_or_init(Mutex::default).lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&known) = codes.get(code) {
        return Some(known);
    }
    if codes.len() >= MAX_CODES {
        return None;
    }
    let leaked: &'static str = Box::leak(code.to_owned().into_boxed_str());
    codes.insert(leaked);
    Some(leaked)
}

fn encode_entry(entry: &Entry) -> Vec<u8> {
    let mut out = Writer(Vec::new());
    out.len(entry.dependencies.len());
    for dependency in &entry.dependencies {
        out.str(dependency.dir.as_str());
        match &dependency.files {
            None => out.u8(0),
            Some(files) => {
                out.u8(1);
                out.len(files.len());
                for (path, hash) in files {
                    out.str(path.as_str());
                    out.0.extend_from_slice(hash.as_bytes());
                }
            }
        }
        out.0.extend_from_slice(dependency.interface.as_bytes());
    }
    match &entry.interface {
        None => out.u8(0),
        Some(StoredInterface(bytes)) => {
            out.u8(1);
            out.len(bytes.len());
            out.0.extend_from_slice(bytes);
        }
    }
    out.len(entry.reads.len());
    for read in &entry.reads {
        out.str(read.path.as_str());
        match &read.hash {
            None => out.u8(0),
            Some(hash) => {
                out.u8(1);
                out.0.extend_from_slice(hash.as_bytes());
            }
        }
    }
    out.len(entry.files.len());
    for diagnostics in &entry.files {
        out.len(diagnostics.len());
        for diagnostic in diagnostics {
            out.u8(match diagnostic.severity {
                Severity::Warning => 0,
                Severity::Error => 1,
            });
            out.str(diagnostic.code);
            out.str(&diagnostic.message);
            out.range(diagnostic.range);
            match &diagnostic.label {
                None => out.u8(0),
                Some(label) => {
                    out.u8(1);
                    out.str(label);
                }
            }
            out.len(diagnostic.labels.len());
            for (range, message) in &diagnostic.labels {
                out.range(*range);
                out.str(message);
            }
            out.len(diagnostic.notes.len());
            for note in &diagnostic.notes {
                out.str(note);
            }
            out.len(diagnostic.suggestions.len());
            for (message, edits) in &diagnostic.suggestions {
                out.str(message);
                out.len(edits.len());
                for (range, replacement) in edits {
                    out.range(*range);
                    out.str(replacement);
                }
            }
            out.line_col(diagnostic.start);
            out.line_col(diagnostic.end);
            out.len(diagnostic.edits.len());
            for (start, end) in &diagnostic.edits {
                out.line_col(*start);
                out.line_col(*end);
            }
        }
    }
    out.0
}

/// The checksum of an entry's payload that its header keeps, and the one
/// that ends the file index and each walk record: a 64-bit hash
/// (`rustc-hash`'s), not BLAKE3. It only tells bytes changed or cut since
/// they were written (an entry is found by its key, a 128-bit hash, and one
/// who can write the cache could write a matching hash of any kind), and a
/// warm run checks every entry it reports from and both files before its
/// first `stat`: BLAKE3 over thousands of payloads of a few hundred bytes
/// each, one block at a time, was most of what reading an entry cost, and
/// over the index and the record a millisecond each on the run's one
/// thread.
fn checksum(payload: &[u8]) -> [u8; 8] {
    use std::hash::Hasher;
    let mut hasher = rustc_hash::FxHasher::default();
    hasher.write(payload);
    hasher.finish().to_le_bytes()
}

/// The entry in `bytes`, if they are a whole entry of this format for
/// `key` whose payload is what its checksum says and decodes to its last
/// byte.
fn decode_entry(bytes: &[u8], key: &Key) -> Option<Entry> {
    let (header, payload) = bytes.split_at_checked(HEADER_SIZE)?;
    let (magic, rest) = header.split_at(8);
    let (format, rest) = rest.split_at(4);
    let (stored_key, sum) = rest.split_at(KEY_SIZE);
    if magic != MAGIC || format != FORMAT.to_le_bytes() || stored_key != key.0 || sum != checksum(payload) {
        return None;
    }
    let mut input = Reader(payload);
    let mut dependencies = Vec::new();
    for _ in 0..input.len()? {
        let dir = Utf8PathBuf::from(input.str()?);
        let files = match input.u8()? {
            0 => None,
            1 => {
                let mut files = Vec::new();
                for _ in 0..input.len()? {
                    let path = Utf8PathBuf::from(input.str()?);
                    files.push((path, blake3::Hash::from_bytes(input.array()?)));
                }
                Some(files)
            }
            _ => return None,
        };
        let interface = blake3::Hash::from_bytes(input.array()?);
        dependencies.push(Dependency { dir, files, interface });
    }
    let interface = match input.u8()? {
        0 => None,
        1 => {
            let len = input.len()?;
            Some(StoredInterface(input.take(len)?.to_vec()))
        }
        _ => return None,
    };
    let mut reads = Vec::new();
    for _ in 0..input.len()? {
        let path = Utf8PathBuf::from(input.str()?);
        let hash = match input.u8()? {
            0 => None,
            1 => Some(blake3::Hash::from_bytes(input.array()?)),
            _ => return None,
        };
        reads.push(FileRead { path, hash });
    }
    let mut files = Vec::new();
    for _ in 0..input.len()? {
        let mut diagnostics = Vec::new();
        for _ in 0..input.len()? {
            let severity = match input.u8()? {
                0 => Severity::Warning,
                1 => Severity::Error,
                _ => return None,
            };
            let code = intern_code(input.str()?)?;
            let message = input.str()?.to_owned();
            let range = input.range()?;
            let label = match input.u8()? {
                0 => None,
                1 => Some(input.str()?.to_owned()),
                _ => return None,
            };
            let mut labels = Vec::new();
            for _ in 0..input.len()? {
                labels.push((input.range()?, input.str()?.to_owned()));
            }
            let mut notes = Vec::new();
            for _ in 0..input.len()? {
                notes.push(input.str()?.to_owned());
            }
            let mut suggestions = Vec::new();
            for _ in 0..input.len()? {
                let message = input.str()?.to_owned();
                let mut edits = Vec::new();
                for _ in 0..input.len()? {
                    edits.push((input.range()?, input.str()?.to_owned()));
                }
                suggestions.push((message, edits));
            }
            let (start, end) = (input.line_col()?, input.line_col()?);
            let mut edits = Vec::new();
            for _ in 0..input.len()? {
                edits.push((input.line_col()?, input.line_col()?));
            }
            diagnostics.push(StoredDiagnostic {
                severity,
                code,
                message,
                range,
                label,
                labels,
                notes,
                suggestions,
                start,
                end,
                edits,
            });
        }
        files.push(diagnostics);
    }
    input.0.is_empty().then_some(Entry { dependencies, reads, files, interface })
}

/// A module's interface as [`encode_entry`] wrote it. A type is kept in
/// cty's JSON encoding, and trusted only if it encodes back to the same
/// text: then it is the type that was written.
fn decode_interface(input: &mut Reader<'_>) -> Option<ModuleInterface> {
    let flag = |byte: u8| match byte {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    };
    let mut inputs = Vec::new();
    for _ in 0..input.len()? {
        let name = input.str()?.into();
        let required = flag(input.u8()?)?;
        let ty = match input.u8()? {
            0 => None,
            1 => {
                let text = input.str()?;
                let ty = value::Type::from_json_str(text).ok()?;
                (ty.to_json_string() == text).then_some(ty)?.into()
            }
            _ => return None,
        };
        inputs.push(ModuleInput { name, required, ty });
    }
    let mut outputs = Vec::new();
    for _ in 0..input.len()? {
        outputs.push(input.str()?.into());
    }
    let complete = flag(input.u8()?)?;
    Some(ModuleInterface { inputs: inputs.into(), outputs: outputs.into(), complete })
}

struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, value: u8) {
        self.0.push(value);
    }

    fn u32(&mut self, value: u32) {
        self.0.extend_from_slice(&value.to_le_bytes());
    }

    fn len(&mut self, len: usize) {
        self.u32(u32::try_from(len).unwrap_or(u32::MAX));
    }

    fn str(&mut self, text: &str) {
        self.len(text.len());
        self.0.extend_from_slice(text.as_bytes());
    }

    fn range(&mut self, range: TextRange) {
        self.u32(range.start().into());
        self.u32(range.end().into());
    }

    fn line_col(&mut self, line_col: LineCol) {
        self.u32(line_col.line);
        self.u32(line_col.column);
    }
}

/// Reads what [`Writer`] wrote; every read is checked against what is
/// left, so no count read makes it allocate more than the entry holds.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.0.split_at_checked(count)?;
        self.0 = rest;
        Some(taken)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.array()?))
    }

    /// A count of items, each at least a byte long: no more than are left.
    fn len(&mut self) -> Option<usize> {
        let len = self.u32()? as usize;
        (len <= self.0.len()).then_some(len)
    }

    fn str(&mut self) -> Option<&'a str> {
        let len = self.len()?;
        std::str::from_utf8(self.take(len)?).ok()
    }

    fn range(&mut self) -> Option<TextRange> {
        let (start, end) = (self.u32()?, self.u32()?);
        (start <= end).then(|| TextRange::new(TextSize::from(start), TextSize::from(end)))
    }

    fn line_col(&mut self) -> Option<LineCol> {
        Some(LineCol { line: self.u32()?, column: self.u32()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> Key {
        Key([byte; KEY_SIZE])
    }

    fn entry() -> Entry {
        let diagnostic = StoredDiagnostic {
            severity: Severity::Warning,
            code: "interpolation-only",
            message: "Interpolation-only expression".into(),
            range: TextRange::new(4.into(), 12.into()),
            label: Some("here".into()),
            labels: vec![(TextRange::new(0.into(), 1.into()), "there".into())],
            notes: vec!["a note".into()],
            suggestions: vec![("unwrap".into(), vec![(TextRange::new(4.into(), 12.into()), "x".into())])],
            start: LineCol { line: 1, column: 5 },
            end: LineCol { line: 1, column: 13 },
            edits: vec![(LineCol { line: 1, column: 5 }, LineCol { line: 1, column: 13 })],
        };
        let syntax =
            StoredDiagnostic { code: "a-code-of-no-rule", severity: Severity::Error, ..diagnostic.clone() };
        Entry {
            dependencies: vec![
                Dependency {
                    dir: "modules/net".into(),
                    files: Some(vec![("modules/net/main.tf".into(), blake3::hash(b"x"))]),
                    interface: interface_digest(None),
                },
                Dependency { dir: "elsewhere".into(), files: None, interface: blake3::hash(b"y") },
            ],
            reads: vec![
                FileRead { path: "root.hcl".into(), hash: Some(blake3::hash(b"y")) },
                FileRead { path: "../root.hcl".into(), hash: None },
            ],
            files: vec![vec![diagnostic, syntax], Vec::new()],
            interface: Some(StoredInterface::new(Some(&ModuleInterface {
                inputs: vec![
                    ModuleInput { name: "name".into(), required: true, ty: Some(value::Type::String) },
                    ModuleInput {
                        name: "tags".into(),
                        required: false,
                        ty: Some(value::Type::object_with_optional(
                            [("a".to_owned(), value::Type::list(value::Type::Number))].into(),
                            ["a".to_owned()].into(),
                        )),
                    },
                    ModuleInput { name: "any".into(), required: false, ty: None },
                ]
                .into(),
                outputs: vec!["id".into()].into(),
                complete: true,
            }))),
        }
    }

    #[test]
    fn an_interface_reads_back_as_written() {
        let stored = entry().interface.expect("an interface");
        let interface = stored.decode().expect("decoded").expect("a module");
        assert_eq!(StoredInterface::new(Some(&interface)), stored);
        assert_eq!(interface.inputs.len(), 3);
        assert_eq!(StoredInterface::new(None).decode(), Some(None));
        assert_eq!(StoredInterface(vec![1, 0]).decode(), None, "cut short");
    }

    /// An interface's digest is that of what it declares for callers:
    /// equal for an equal one, different where a variable's name, whether
    /// it is required, an output or whether the module parses differ, and
    /// the same bytes a BLAKE3 hasher fed piece by piece would hash.
    #[test]
    fn an_interface_digest_tells_what_callers_read() {
        let interface: ModuleInterface =
            (*entry().interface.expect("an interface").decode().expect("decoded").expect("a module")).clone();
        let digest = interface_digest(Some(&interface));
        assert_eq!(interface_digest(Some(&interface.clone())), digest);
        assert_ne!(interface_digest(None), digest);
        let mut renamed = interface.clone();
        renamed.inputs[0].name = "other".into();
        let mut optional = interface.clone();
        optional.inputs[0].required = !optional.inputs[0].required;
        let mut output = interface.clone();
        output.outputs = vec![smol_str::SmolStr::new("more")].into();
        let mut incomplete = interface.clone();
        incomplete.complete = !incomplete.complete;
        for changed in [renamed, optional, output, incomplete] {
            assert_ne!(interface_digest(Some(&changed)), digest, "{changed:?}");
        }
        // What the digest was before its bytes were laid out at once.
        use std::hash::{Hash, Hasher};
        struct Streamed(blake3::Hasher);
        impl Hasher for Streamed {
            fn write(&mut self, bytes: &[u8]) {
                self.0.update(bytes);
            }
            fn finish(&self) -> u64 {
                0
            }
        }
        let mut streamed = Streamed(blake3::Hasher::new());
        streamed.write_u8(1);
        streamed.write_usize(interface.inputs.len());
        for input in &interface.inputs {
            input.name.hash(&mut streamed);
            input.required.hash(&mut streamed);
            input.ty.hash(&mut streamed);
        }
        interface.outputs.hash(&mut streamed);
        interface.complete.hash(&mut streamed);
        assert_eq!(streamed.0.finalize(), digest);
    }

    /// A cache in `dir`, for the tests.
    fn open(dir: &tempfile::TempDir) -> ResultCache {
        ResultCache::open(Utf8Path::from_path(dir.path()).expect("UTF-8")).expect("opened")
    }

    /// The bytes of the entry of `key` in the pack on disk.
    fn packed_bytes(cache: &ResultCache, key: &Key) -> Vec<u8> {
        let pack = Pack::read(&pack::path_of(&cache.dir, &cache.build), FORMAT);
        pack.get(&key.0).expect("in the pack").bytes.to_vec()
    }

    #[test]
    fn an_entry_reads_back_as_written_and_only_under_its_key() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = open(&dir);
        assert!(cache.load(&key(1)).is_none());
        cache.store(&key(1), &entry());
        assert!(cache.wrote());
        assert_eq!(cache.load(&key(1)), Some(entry()), "stored by this run");
        cache.finish();
        let again = open(&dir);
        assert_eq!(again.load(&key(1)), Some(entry()), "from the pack");
        assert!(!again.wrote());
        // The same bytes under another key are that key's: refused.
        assert_eq!(decode_entry(&packed_bytes(&again, &key(1)), &key(2)), None);
    }

    #[test]
    fn every_cut_and_every_changed_byte_is_refused() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = open(&dir);
        cache.store(&key(1), &entry());
        cache.finish();
        let bytes = packed_bytes(&cache, &key(1));
        for len in 0..bytes.len() {
            assert_eq!(decode_entry(&bytes[..len], &key(1)), None, "cut at {len}");
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 1;
            assert_eq!(decode_entry(&changed, &key(1)), None, "byte {at} changed");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode_entry(&longer, &key(1)), None);
    }

    #[test]
    fn a_spoilt_entry_in_the_pack_is_a_miss_and_is_replaced_when_stored_again() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = open(&dir);
        for byte in 1..=3 {
            cache.store(&key(byte), &entry());
        }
        cache.finish();
        // The last byte of entry 2's payload changed in place.
        let path = pack::path_of(&cache.dir, &cache.build);
        let mut bytes = std::fs::read(&path).expect("the pack");
        let range = {
            let pack = Pack::read(&path, FORMAT);
            pack.range_of(&pack.get(&key(2).0).expect("packed"))
        };
        bytes[range.end - 1] ^= 0x55;
        std::fs::write(&path, &bytes).expect("spoilt");

        let spoilt = open(&dir);
        assert_eq!(spoilt.load(&key(1)), Some(entry()));
        assert_eq!(spoilt.load(&key(2)), None, "its payload's checksum no longer matches");
        assert_eq!(spoilt.load(&key(3)), Some(entry()));
        // Nothing stored: nothing written.
        spoilt.finish();
        assert_eq!(std::fs::read(&path).expect("the pack"), bytes);
        // The unit checked again stores its entry: the pack is mended,
        // and keeps the entries this run did not use.
        let mended = open(&dir);
        assert_eq!(mended.load(&key(2)), None);
        mended.store(&key(2), &entry());
        mended.finish();
        let after = open(&dir);
        for byte in 1..=3 {
            assert_eq!(after.load(&key(byte)), Some(entry()), "entry {byte}");
        }
        // Not a pack at all: every key a miss.
        std::fs::write(&path, b"not a pack").expect("spoilt");
        assert_eq!(open(&dir).load(&key(1)), None);
    }

    #[test]
    fn a_run_keeps_the_entries_another_run_wrote_meanwhile() {
        let dir = tempfile::tempdir().expect("a directory");
        let (first, second) = (open(&dir), open(&dir));
        first.store(&key(1), &entry());
        second.store(&key(2), &entry());
        first.finish();
        second.finish();
        let after = open(&dir);
        assert_eq!(after.load(&key(1)), Some(entry()), "the first run's, though the second wrote last");
        assert_eq!(after.load(&key(2)), Some(entry()));
    }

    #[test]
    fn pruning_leaves_out_the_least_recently_used_entries_past_the_cap() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = open(&dir);
        let path = pack::path_of(&cache.dir, &cache.build);
        for byte in 0..10u8 {
            cache.store(&key(byte), &entry());
        }
        cache.finish();
        // Entry 0 the least recently used, 9 the most; all used more than
        // an hour ago, so that a hit refreshes them.
        let now = nanos_since_epoch(SystemTime::now() - 2 * TOUCH_AFTER);
        let pack = Pack::read(&path, FORMAT);
        let entries: Vec<Packed<'_>> = pack
            .entries()
            .map(|packed| Packed { used: now - 1_000_000 * u64::from(100 - packed.key[0]), ..packed })
            .collect();
        let size = pack::size_of(&entries[0]);
        std::fs::write(&path, pack::encode(FORMAT, &entries)).expect("dated");

        // A hit on an entry last used more than an hour ago writes the
        // pack, with the entry's time refreshed.
        let hit = open(&dir).with_max_size(20 * size);
        assert_eq!(hit.load(&key(4)), Some(entry()));
        hit.finish();
        let refreshed = Pack::read(&path, FORMAT);
        assert!(age_of(refreshed.get(&key(4).0).expect("packed").used) < TOUCH_AFTER);
        assert!(age_of(refreshed.get(&key(5).0).expect("packed").used) > TOUCH_AFTER);
        // Under the cap: a run that stores an entry keeps them all, the
        // new one in the recent pack.
        let under_cap = open(&dir).with_max_size(20 * size);
        under_cap.store(&key(10), &entry());
        under_cap.finish();
        assert_eq!(Pack::read(&path, FORMAT).entries().count(), 10);
        let recent = pack::recent_path_of(&under_cap.dir, &under_cap.build);
        assert_eq!(Pack::read(&recent, FORMAT).entries().count(), 1);

        // Past a cap of 8 entries, down to 6 (three quarters): the oldest
        // go, but not entry 4, which a run used since, nor 10, stored
        // then, nor 11, stored now.
        let small = open(&dir).with_max_size(8 * size);
        small.store(&key(11), &entry());
        small.finish();
        let kept = Pack::read(&path, FORMAT);
        let kept: Vec<u8> = kept.entries().map(|packed| packed.key[0]).collect();
        assert_eq!(kept, [4, 7, 8, 9, 10, 11]);
        assert!(!recent.exists(), "its entries are in the main pack");
        assert!(std::fs::metadata(&path).expect("the pack").len() <= 8 * size + 16);
    }

    #[test]
    fn another_build_s_packs_are_removed_past_the_cap_and_when_old() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = open(&dir);
        let (old, older, oldest) = (blake3::hash(b"old"), blake3::hash(b"older"), blake3::hash(b"oldest"));
        let now = SystemTime::now();
        let other = |build: &blake3::Hash, age: Duration| {
            let path = pack::path_of(&cache.dir, build);
            std::fs::write(&path, vec![0; 1000]).expect("written");
            std::fs::File::options()
                .append(true)
                .open(&path)
                .expect("opened")
                .set_modified(now - age)
                .expect("dated");
            path
        };
        let old = other(&old, Duration::from_secs(10));
        let older = other(&older, Duration::from_secs(20));
        let oldest = other(&oldest, OTHER_BUILD_MAX_AGE + Duration::from_secs(1));
        let unrelated = dir.path().join("unrelated");
        std::fs::write(&unrelated, vec![0; 5000]).expect("written");
        cache.store(&key(1), &entry());
        cache.finish();
        let own = std::fs::metadata(pack::path_of(&cache.dir, &cache.build)).expect("the pack").len();
        assert!(old.exists() && older.exists() && !oldest.exists(), "only the one too old");
        // Room for this build's pack and one other: the older goes.
        let small = open(&dir).with_max_size(own + 1500);
        small.store(&key(1), &entry());
        small.finish();
        assert_eq!(std::fs::metadata(pack::path_of(&cache.dir, &cache.build)).expect("the pack").len(), own);
        assert!(old.exists() && !older.exists());
        assert!(unrelated.exists(), "only packs count");
    }

    #[test]
    fn an_old_stale_temporary_file_is_removed_by_a_run_that_writes() {
        let dir = tempfile::tempdir().expect("a directory");
        let cache = open(&dir);
        let (stale, fresh) = (
            dir.path().join(format!("{TEMPORARY_PREFIX}stale")),
            dir.path().join(format!("{TEMPORARY_PREFIX}new")),
        );
        for path in [&stale, &fresh] {
            std::fs::write(path, "half").expect("written");
        }
        std::fs::File::options()
            .append(true)
            .open(&stale)
            .expect("opened")
            .set_modified(SystemTime::now() - 2 * STALE_TEMPORARY)
            .expect("dated");
        cache.store(&key(1), &entry());
        cache.finish();
        assert!(!stale.exists());
        assert!(fresh.exists(), "perhaps another run's, writing now");
    }

    /// The lookups begun as a recorded walk is read are the check's to
    /// take when the record holds, and dropped when it does not.
    #[test]
    fn the_lookups_begun_for_a_record_that_no_longer_holds_are_dropped() {
        let dir = tempfile::tempdir().expect("a directory");
        let root = Utf8Path::from_path(dir.path()).expect("UTF-8");
        let tree = root.join("tree");
        fs::create_dir_all(&tree).expect("a directory");
        fs::write(tree.join("a.tf"), "").expect("a file");
        let cache_dir = root.join("cache");
        let inputs = || WalkInputs { dirs: vec![tree.clone()], files: Vec::new(), links: Vec::new() };
        let found = [tree.join("a.tf")];
        // Started later than every stamp: none is racy.
        let started = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        let cache = ResultCache::open(&cache_dir).expect("a cache");
        let key = cache.walk_key(&["tree"]);
        cache.record_walk(&key, started, inputs(), &found);
        let walked = cache.recorded_walk(&key).expect("the record holds");
        assert_eq!(walked.files, found);
        let ahead = cache.take_stamps_ahead().expect("lookups begun");
        assert!(ahead.covers(&found));
        assert!(cache.take_stamps_ahead().is_none(), "taken once");
        // A file added: the directory's record no longer holds.
        fs::write(tree.join("b.tf"), "").expect("a file");
        let cache = ResultCache::open(&cache_dir).expect("a cache");
        assert!(cache.recorded_walk(&key).is_none());
        assert!(cache.take_stamps_ahead().is_none(), "dropped with the record");
    }
}
