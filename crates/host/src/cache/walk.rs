//! The walk record of the result cache: which files a directory walk
//! found, with what `stat` said of everything the walk's answer depends
//! on, so that a warm run over an unchanged tree need not list a single
//! directory (as `git`'s untracked cache trusts a directory by its times).
//!
//! A walk's answer depends on each directory it listed (which entries it
//! holds, of which types), on the ignore files it read (their bytes), and
//! on where each symbolic link it took for a file leads (a link to a
//! regular file is one; which, the directory's times do not say).
//! A directory's modification time changes whenever an entry is added to
//! it, removed from it or renamed in or out of it, and its change time on
//! a change of its permissions as well; a file's bytes change its stamp
//! (see [`super::file_index`]). So a record holds the [`Stamp`] of every
//! directory listed and of every ignore file that was there (or that none
//! was, for one looked for outside the listed directories; of a
//! repository's `.git` directory above the root, only that it is one;
//! of a link, only whether it leads to a regular file), and is trusted
//! only while each is as recorded *and* was last touched before the walk
//! started, less the racy margin: a directory changed while it was being
//! listed, or within a clock tick of its listing, is listed again next
//! time. What the walk's settings and the process's surroundings decide
//! (the root as given, the current directory, Halite's build, the global
//! excludes file git's configuration names) is the record's key.
//!
//! A record also says which listed directories hold no `halite.toml` (no
//! entry of that name at all): while the directory is as recorded, none
//! has been added, so the rule levels' search need not look there.
//!
//! A record is one file (`walks-v3/KEY`), written whole (a temporary file
//! renamed over it); anything that does not decode or match its trailing
//! checksum is no record, and the walk is done again.

use std::{
    fs, io,
    sync::Arc,
    time::{Duration, SystemTime},
};

use camino::{Utf8Path, Utf8PathBuf};

use super::file_index::{self, Stamp};

/// The first bytes of a record.
const MAGIC: &[u8; 8] = b"HALITE\x00W";

/// The record's format; changing the encoding below changes it (and the
/// directory's name).
const FORMAT: u32 = 3;

/// The directory of records, beside the entries' directory.
pub(crate) const DIR_NAME: &str = "walks-v3";

/// The directories of records of earlier formats, removed when a record
/// is written.
const EARLIER_DIR_NAMES: [&str; 2] = ["walks-v1", "walks-v2"];

/// A record larger than this is not read.
const MAX_RECORD_SIZE: u64 = 256 << 20;

/// Records not written for this long are removed when another is written:
/// a walk of a root asked for once does not stay for ever.
const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// What decides a walk besides the file system, hashed: see the module's
/// documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkKey(pub(crate) blake3::Hash);

/// What a walk found, as recorded.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RecordedWalk {
    /// The files found, as the walk named them.
    pub files: Vec<Utf8PathBuf>,
    /// The directories listed that hold no entry named `halite.toml`.
    pub without_config: Vec<Utf8PathBuf>,
    /// Whether any directory listed holds an entry named `halite.toml`:
    /// when none does, no configuration applies to the files found but
    /// one in or above the walk's root (see
    /// [`crate::config::RuleLevelsFinder::assume_none_apply`]).
    pub config_in_listed_dirs: bool,
}

/// What a walk listed and read, for [`super::ResultCache::record_walk`].
#[derive(Debug, Default)]
pub struct WalkInputs {
    /// Every directory the walk listed.
    pub dirs: Vec<Utf8PathBuf>,
    /// Every file whose bytes (or absence) the walk's answer depends on
    /// and that no listed directory's stamp covers: the ignore files in
    /// the listed directories and above them, git's exclude files.
    pub files: Vec<Utf8PathBuf>,
    /// Each symbolic link the walk met named as a file it wants, with
    /// whether it leads to a regular file (a file found through it).
    pub links: Vec<(Utf8PathBuf, bool)>,
}

/// A record as stored: its paths owned when it is written, and borrowed
/// from the record's bytes when it is read (a warm run needs most of them
/// only for a `stat`).
struct Record<P> {
    trusted_before: i64,
    dirs: Vec<(P, Stamp, bool)>,
    files: Vec<(P, Watched)>,
    found: Vec<P>,
}

/// What a watched path was when the walk was recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Watched {
    /// Nothing: it holds while nothing is there.
    Absent,
    /// A file: it holds while the file's stamp is this one.
    File(Stamp),
    /// A directory (a repository's `.git`): it holds while a directory
    /// is there. What the walker reads in it is watched apart (its
    /// `info/exclude`), and its own times change with every `git`
    /// command, which would make every record stale.
    Dir,
    /// A symbolic link named as a file the walk wants: it holds while
    /// the link leads to a regular file (found through it) or does not,
    /// as then. What a link leads to can change with no change to the
    /// directory the walk listed; the file's bytes are the file index's
    /// business (a `stat` follows the link).
    Link { leads_to_file: bool },
}

impl Watched {
    /// What is at `path` now; `None` when `stat` fails otherwise than
    /// finding nothing.
    fn of(path: &Utf8Path) -> Option<Watched> {
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => Some(Watched::Dir),
            Ok(metadata) => Some(Watched::File(Stamp::of(&metadata))),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Some(Watched::Absent),
            Err(_) => None,
        }
    }

    fn holds(&self, path: &Utf8Path, trusted_before: i64) -> bool {
        match (self, Watched::of(path)) {
            (Watched::File(stamp), Some(Watched::File(now))) => stamp.holds_for(&now, trusted_before),
            (Watched::Absent, Some(Watched::Absent)) | (Watched::Dir, Some(Watched::Dir)) => true,
            (Watched::Link { leads_to_file }, Some(now)) => *leads_to_file == matches!(now, Watched::File(_)),
            _ => false,
        }
    }
}

pub(super) fn key(build: &blake3::Hash, parts: &[&str]) -> WalkKey {
    let mut hasher = blake3::Hasher::new();
    hasher.update(build.as_bytes());
    hasher.update(&FORMAT.to_le_bytes());
    for part in parts {
        super::hash_str(&mut hasher, part);
    }
    WalkKey(hasher.finalize())
}

fn path_of(cache_dir: &Utf8Path, key: &WalkKey) -> Utf8PathBuf {
    cache_dir.join(DIR_NAME).join(key.0.to_hex().as_str())
}

/// The walk recorded under `key`, if every stamp in it holds now; the
/// files it found, in one string, are handed to `on_read` as soon as the
/// record is read, before its stamps are checked and the files copied out
/// one by one (for [`super::stamps::StampsAhead`], which looks them up
/// beside the run).
pub(super) fn recorded(
    cache_dir: &Utf8Path,
    key: &WalkKey,
    on_read: impl FnOnce(&Arc<FoundTexts>),
) -> Option<RecordedWalk> {
    crate::trace::mark("walk record");
    let bytes = crate::cache::read_bounded(&path_of(cache_dir, key), MAX_RECORD_SIZE)?;
    crate::trace::mark("walk record read");
    let record = decode(&bytes, key)?;
    crate::trace::mark("walk record decoded");
    // The paths found, validated as UTF-8 once (by `decode`) and laid end
    // to end: each is read again by the lookups beside the run and copied
    // out below, and checking its bytes at each read was most of the
    // record's reading.
    let mut text = String::with_capacity(record.found.iter().map(|path| path.len()).sum());
    let spans = record
        .found
        .iter()
        .map(|path| {
            let start = text.len();
            text.push_str(path);
            (start, text.len())
        })
        .collect();
    let texts = Arc::new(FoundTexts { text, spans });
    // Handed on before the directories are found to hold, so that the
    // files' lookups go on beside theirs (a warm run's `stat`s are most of
    // its work, and the directories' waited for nothing else); a record
    // found not to hold has them cancelled (`ResultCache::recorded_walk`).
    on_read(&texts);
    let dirs_hold = all_in_parallel(&record.dirs, |(path, stamp, _)| {
        fs::metadata(Utf8Path::new(path)).is_ok_and(|metadata| {
            metadata.is_dir() && stamp.holds_for(&Stamp::of(&metadata), record.trusted_before)
        })
    });
    let files_hold = || {
        record.files.iter().all(|(path, watched)| watched.holds(Utf8Path::new(path), record.trusted_before))
    };
    crate::trace::mark("walk dirs hold");
    if !(dirs_hold && files_hold()) {
        return None;
    }
    crate::trace::mark("walk files hold");
    let files = (0..texts.len()).map(|index| texts.get(index).to_owned()).collect();
    let without_config: Vec<Utf8PathBuf> = record
        .dirs
        .iter()
        .filter(|(_, _, has_config)| !has_config)
        .map(|(path, _, _)| Utf8PathBuf::from(*path))
        .collect();
    let config_in_listed_dirs = without_config.len() != record.dirs.len();
    Some(RecordedWalk { files, without_config, config_in_listed_dirs })
}

/// The files a record found, as it names them.
#[derive(Debug)]
pub(crate) struct FoundTexts {
    /// The paths, end to end.
    text: String,
    /// Where each path lies in `text`, in the record's order.
    spans: Vec<(usize, usize)>,
}

impl FoundTexts {
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The path of the file at `index`, in the record's order.
    pub(crate) fn get(&self, index: usize) -> &Utf8Path {
        self.text(self.spans[index])
    }

    /// The texts of `paths`, as a record read back would hold them.
    #[cfg(test)]
    pub(crate) fn of(paths: &[&str]) -> FoundTexts {
        let mut text = String::new();
        let mut spans = Vec::new();
        for path in paths {
            spans.push((text.len(), text.len() + path.len()));
            text.push_str(path);
        }
        FoundTexts { text, spans }
    }

    /// The place of the file written `text`, if the record found it: by
    /// a binary search, the record's files being in path order
    /// ([`vfs::sort_paths`]), so a file not found is only not found.
    pub(crate) fn position(&self, text: &str) -> Option<usize> {
        let text = Utf8Path::new(text);
        let at = self.spans.partition_point(|&span| vfs::path_order(self.text(span), text).is_lt());
        (at < self.len() && self.is(at, text.as_str())).then_some(at)
    }

    /// Whether the path of the file at `index` is written `text`.
    pub(crate) fn is(&self, index: usize, text: &str) -> bool {
        let (start, end) = self.spans[index];
        &self.text[start..end] == text
    }

    fn text(&self, (start, end): (usize, usize)) -> &Utf8Path {
        Utf8Path::new(&self.text[start..end])
    }
}

/// Records that a walk started at `started` listed and read `inputs` and
/// found `found`; returns the directories it listed that hold no
/// `halite.toml`. Nothing is recorded when a stamp cannot be taken.
pub(super) fn record(
    cache_dir: &Utf8Path,
    key: &WalkKey,
    started: SystemTime,
    inputs: WalkInputs,
    found: &[Utf8PathBuf],
) -> Vec<Utf8PathBuf> {
    let mut dirs = Vec::with_capacity(inputs.dirs.len());
    let mut complete = true;
    for dir in inputs.dirs {
        // The directory's stamp after what is looked at in it, so that an
        // entry added in between changes the stamp (and makes it racy).
        let has_config = match fs::symlink_metadata(dir.join(analysis::config::CONFIG_FILE_NAME)) {
            Ok(_) => true,
            Err(error) if error.kind() == io::ErrorKind::NotFound => false,
            Err(_) => true,
        };
        match fs::metadata(&dir) {
            Ok(metadata) if metadata.is_dir() => dirs.push((dir, Stamp::of(&metadata), has_config)),
            _ => complete = false,
        }
    }
    let mut files = Vec::with_capacity(inputs.files.len() + inputs.links.len());
    for file in inputs.files {
        match Watched::of(&file) {
            Some(watched) => files.push((file, watched)),
            None => complete = false,
        }
    }
    for (link, leads_to_file) in inputs.links {
        // As the walk found it: a link retargeted since is listed again.
        match Watched::of(&link) {
            Some(now) if leads_to_file == matches!(now, Watched::File(_)) => {
                files.push((link, Watched::Link { leads_to_file }));
            }
            _ => complete = false,
        }
    }
    let without_config = dirs.iter().filter(|(_, _, has)| !has).map(|(path, _, _)| path.clone()).collect();
    if complete {
        let record = Record {
            trusted_before: file_index::trusted_before(started),
            dirs,
            files,
            found: found.to_vec(),
        };
        let dir = cache_dir.join(DIR_NAME);
        if fs::create_dir_all(&dir).is_ok() {
            for earlier in EARLIER_DIR_NAMES {
                let _ = fs::remove_dir_all(cache_dir.join(earlier));
            }
            remove_old_records(&dir);
            let _ = super::write_atomically(&dir, &path_of(cache_dir, key), &encode(&record, key));
        }
    }
    without_config
}

/// Removes the records in `dir` not written for [`MAX_AGE`].
fn remove_old_records(dir: &Utf8Path) {
    let Ok(items) = fs::read_dir(dir) else { return };
    for item in items.flatten() {
        let old = item
            .metadata()
            .and_then(|metadata| metadata.modified())
            .is_ok_and(|modified| modified.elapsed().is_ok_and(|age| age > MAX_AGE));
        if old {
            let _ = fs::remove_file(item.path());
        }
    }
}

/// Whether `holds` is true of every item, asked on a thread per core: a
/// record has a stamp per directory of the tree, and a `stat` is mostly
/// the kernel's walk of its path. The calling thread asks too, and each
/// thread takes the next block of items when done with one, so that on a
/// machine whose cores are busy a helper that is not run soon costs the
/// caller one block, not a share of the items.
fn all_in_parallel<T: Sync>(items: &[T], holds: impl Fn(&T) -> bool + Sync) -> bool {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    const BLOCK: usize = 64;
    let threads = crate::host::available_threads().min(4);
    if threads == 1 || items.len() < 4 * BLOCK {
        return items.iter().all(holds);
    }
    let (failed, next) = (AtomicBool::new(false), AtomicUsize::new(0));
    let ask = || {
        while !failed.load(Ordering::Relaxed) {
            let start = next.fetch_add(BLOCK, Ordering::Relaxed);
            let Some(block) = items.get(start..items.len().min(start + BLOCK)) else { return };
            if !block.iter().all(&holds) {
                failed.store(true, Ordering::Relaxed);
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(ask);
        }
        ask();
    });
    !failed.into_inner()
}

fn encode(record: &Record<Utf8PathBuf>, key: &WalkKey) -> Vec<u8> {
    let mut out = super::Writer(Vec::new());
    out.0.extend_from_slice(MAGIC);
    out.u32(FORMAT);
    out.0.extend_from_slice(key.0.as_bytes());
    out.0.extend_from_slice(&record.trusted_before.to_le_bytes());
    out.len(record.dirs.len());
    for (path, stamp, has_config) in &record.dirs {
        out.str(path.as_str());
        stamp.write(&mut out.0);
        out.u8(u8::from(*has_config));
    }
    out.len(record.files.len());
    for (path, watched) in &record.files {
        out.str(path.as_str());
        match watched {
            Watched::Absent => out.u8(0),
            Watched::File(stamp) => {
                out.u8(1);
                stamp.write(&mut out.0);
            }
            Watched::Dir => out.u8(2),
            Watched::Link { leads_to_file } => out.u8(3 + u8::from(*leads_to_file)),
        }
    }
    out.len(record.found.len());
    for path in &record.found {
        out.str(path.as_str());
    }
    let sum = super::checksum(&out.0);
    out.0.extend_from_slice(&sum);
    out.0
}

fn decode<'a>(bytes: &'a [u8], key: &WalkKey) -> Option<Record<&'a str>> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if super::checksum(body) != sum {
        return None;
    }
    let mut input = super::Reader(body);
    if input.take(MAGIC.len())? != MAGIC || input.u32()? != FORMAT || input.take(32)? != key.0.as_bytes() {
        return None;
    }
    let trusted_before = input.u64()?.cast_signed();
    let count = input.len()?;
    let mut dirs = Vec::with_capacity(count);
    for _ in 0..count {
        let path = input.str()?;
        let stamp = Stamp::read(&mut input)?;
        let has_config = match input.u8()? {
            0 => false,
            1 => true,
            _ => return None,
        };
        dirs.push((path, stamp, has_config));
    }
    let count = input.len()?;
    let mut files = Vec::with_capacity(count);
    for _ in 0..count {
        let path = input.str()?;
        let watched = match input.u8()? {
            0 => Watched::Absent,
            1 => Watched::File(Stamp::read(&mut input)?),
            2 => Watched::Dir,
            3 => Watched::Link { leads_to_file: false },
            4 => Watched::Link { leads_to_file: true },
            _ => return None,
        };
        files.push((path, watched));
    }
    let count = input.len()?;
    let mut found = Vec::with_capacity(count);
    for _ in 0..count {
        found.push(input.str()?);
    }
    input.0.is_empty().then_some(Record { trusted_before, dirs, files, found })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`super::recorded`]'s walk, its files named alike in the record's
    /// bytes, in its order.
    fn recorded(cache_dir: &Utf8Path, key: &WalkKey) -> Option<RecordedWalk> {
        let mut handed = None;
        let walk = super::recorded(cache_dir, key, |texts| handed = Some(Arc::clone(texts)))?;
        let texts = handed.expect("the files handed on");
        let named: Vec<&Utf8Path> = (0..texts.len()).map(|index| texts.get(index)).collect();
        assert_eq!(named, walk.files.iter().map(Utf8PathBuf::as_path).collect::<Vec<_>>());
        Some(walk)
    }

    #[test]
    fn a_record_holds_until_a_directory_or_a_watched_file_changes() {
        let dir = tempfile::tempdir().expect("a directory");
        let root = Utf8Path::from_path(dir.path()).expect("UTF-8");
        let tree = root.join("tree");
        fs::create_dir_all(tree.join("sub")).expect("directories");
        fs::write(tree.join("sub/a.tf"), "").expect("a file");
        fs::write(tree.join(".gitignore"), "x\n").expect("a file");
        let cache = root.join("cache");
        let key = key(&blake3::hash(b"build"), &["tree"]);
        fs::create_dir(root.join(".git")).expect("a repository above");
        let inputs = || WalkInputs {
            dirs: vec![tree.clone(), tree.join("sub")],
            files: vec![tree.join(".gitignore"), tree.join("sub/.gitignore"), root.join(".git")],
            links: Vec::new(),
        };
        let found = vec![tree.join("sub/a.tf")];
        // Started now: every stamp is racy.
        record(&cache, &key, SystemTime::now(), inputs(), &found);
        assert_eq!(recorded(&cache, &key), None, "racy");
        let started = SystemTime::now() + Duration::from_secs(5);
        let without = record(&cache, &key, started, inputs(), &found);
        assert_eq!(without.len(), 2);
        let walked = recorded(&cache, &key).expect("a record");
        assert_eq!(walked.files, found);
        assert_eq!(walked.without_config, without);
        assert!(!walked.config_in_listed_dirs);
        assert_eq!(recorded(&cache, &super::key(&blake3::hash(b"build"), &["other"])), None);
        // A repository's directory changes with every `git` command: only
        // that it is one is watched.
        fs::write(root.join(".git/index"), "").expect("a file");
        assert!(recorded(&cache, &key).is_some());
        fs::remove_file(root.join(".git/index")).expect("removed");
        fs::remove_dir(root.join(".git")).expect("removed");
        fs::write(root.join(".git"), "gitdir: elsewhere\n").expect("a worktree's file");
        assert_eq!(recorded(&cache, &key), None, "a directory no more");
        fs::remove_file(root.join(".git")).expect("removed");
        fs::create_dir(root.join(".git")).expect("a repository again");
        assert!(recorded(&cache, &key).is_some());

        // An ignore file appearing where none was.
        fs::write(tree.join("sub/.gitignore"), "").expect("a file");
        assert_eq!(recorded(&cache, &key), None);
        fs::remove_file(tree.join("sub/.gitignore")).expect("removed");
        record(&cache, &key, started, inputs(), &found);
        assert!(recorded(&cache, &key).is_some());
        // An ignore file's bytes changed.
        fs::write(tree.join(".gitignore"), "y\n").expect("rewritten");
        assert_eq!(recorded(&cache, &key), None);
        record(&cache, &key, started, inputs(), &found);
        assert!(recorded(&cache, &key).is_some());
        // A directory's entries changed.
        fs::write(tree.join("sub/b.tf"), "").expect("a file");
        assert_eq!(recorded(&cache, &key), None);
    }

    #[test]
    fn every_cut_and_every_changed_byte_is_no_record() {
        let key = key(&blake3::hash(b"build"), &["tree"]);
        let dir = tempfile::tempdir().expect("a directory");
        let metadata = fs::metadata(dir.path()).expect("metadata");
        let record = Record {
            trusted_before: 9,
            dirs: vec![("a".into(), Stamp::of(&metadata), false)],
            files: vec![
                ("a/.gitignore".into(), Watched::Absent),
                ("b".into(), Watched::File(Stamp::of(&metadata))),
                ("c/.git".into(), Watched::Dir),
                ("d/linked.tf".into(), Watched::Link { leads_to_file: true }),
                ("d/dangling.tf".into(), Watched::Link { leads_to_file: false }),
            ],
            found: vec!["a/main.tf".into()],
        };
        let bytes = encode(&record, &key);
        let decoded = decode(&bytes, &key).expect("the record");
        let watched = |files: Vec<(String, Watched)>| files;
        assert_eq!(
            watched(decoded.files.iter().map(|(path, it)| (path.to_string(), *it)).collect()),
            watched(record.files.iter().map(|(path, it)| (path.to_string(), *it)).collect()),
        );
        for len in 0..bytes.len() {
            assert!(decode(&bytes[..len], &key).is_none(), "cut at {len}");
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 1;
            assert!(decode(&changed, &key).is_none(), "byte {at} changed");
        }
    }
}
