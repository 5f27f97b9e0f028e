//! The files of a recorded walk looked up in the file index as soon as
//! the record is found to hold, on a thread of their own, while the run
//! goes on with what needs one thread (the configurations, the grouping
//! into units): a warm run's `stat` of every file, most of its work, then
//! waits for nothing. The check takes what was found (see
//! [`super::ResultCache::take_stamps_ahead`]) for the same paths in the same
//! order, and helps with what is left.

use std::{
    fs,
    sync::{
        Arc, Condvar, Mutex,
        atomic::{AtomicUsize, Ordering},
    },
};

use camino::{Utf8Path, Utf8PathBuf};

use super::{
    file_index::{FileIndex, Stamp},
    lock,
    walk::FoundTexts,
};

/// Files per block: each thread takes the next block when done with one.
const BLOCK: usize = 128;

/// What the index says of one file: its hash and size when `stat` says of
/// it what it said when it was hashed (a regular file), else nothing.
pub(crate) type Looked = Option<(blake3::Hash, u64)>;

/// A block's lookups, by the place of its first file.
type Block = (usize, Vec<Looked>);

/// The lookups of a recorded walk's files, in blocks.
#[derive(Debug)]
pub(crate) struct StampsAhead {
    files: Arc<FoundTexts>,
    index: Arc<FileIndex>,
    /// The next block to take.
    next: AtomicUsize,
    /// Each block done, by its first file, and how many are done.
    done: Mutex<(Vec<Block>, usize)>,
    all_done: Condvar,
}

impl StampsAhead {
    /// Starts looking `files` up on a thread of its own (or leaves them
    /// all to [`StampsAhead::finish`] if none can be started).
    pub(crate) fn start(files: Arc<FoundTexts>, index: Arc<FileIndex>) -> Arc<StampsAhead> {
        let ahead = Arc::new(StampsAhead {
            files,
            index,
            next: AtomicUsize::new(0),
            done: Mutex::default(),
            all_done: Condvar::new(),
        });
        let runner = Arc::clone(&ahead);
        let _ = std::thread::Builder::new().name("halite-stamps".into()).spawn(move || runner.run());
        ahead
    }

    /// Whether these are the lookups of `paths`, in their order (by text:
    /// comparing them as paths parses their components).
    pub(crate) fn covers(&self, paths: &[Utf8PathBuf]) -> bool {
        paths.len() == self.files.len()
            && paths.iter().enumerate().all(|(index, path)| self.files.is(index, path.as_str()))
    }

    fn blocks(&self) -> usize {
        self.files.len().div_ceil(BLOCK)
    }

    /// Looks blocks up until none is left to take.
    pub(crate) fn run(&self) {
        loop {
            let block = self.next.fetch_add(1, Ordering::Relaxed);
            if block >= self.blocks() {
                return;
            }
            let start = block * BLOCK;
            let end = (start + BLOCK).min(self.files.len());
            // A panic (none is expected) must not leave `finish` waiting:
            // the block is then found empty, and its files are looked up
            // by their units.
            let looked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                (start..end).map(|index| look_up(&self.index, self.files.get(index))).collect()
            }))
            .unwrap_or_else(|_| vec![None; end - start]);
            let mut done = lock(&self.done);
            done.0.push((start, looked));
            done.1 += 1;
            if done.1 == self.blocks() {
                self.all_done.notify_all();
            }
        }
    }

    /// Takes the blocks left, waits for those the other thread took, and
    /// returns every file's lookup, in the record's order.
    pub(crate) fn finish(&self) -> Vec<Looked> {
        self.run();
        let mut done = lock(&self.done);
        while done.1 < self.blocks() {
            done = self.all_done.wait(done).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        let mut out = vec![None; self.files.len()];
        for (start, looked) in &done.0 {
            out[*start..*start + looked.len()].copy_from_slice(looked);
        }
        out
    }
}

/// What the index says of the file at `path` as `stat` finds it now.
fn look_up(index: &FileIndex, path: &Utf8Path) -> Looked {
    let metadata = fs::metadata(path).ok()?;
    if !metadata.is_file() {
        return None;
    }
    Some((index.hash(path, &Stamp::of(&metadata))?, metadata.len()))
}
