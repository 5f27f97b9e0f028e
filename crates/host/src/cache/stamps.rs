//! The files of a recorded walk looked up in the file index as soon as
//! the record is found to hold, on a thread of their own, while the run
//! goes on with what needs one thread (the configurations, the grouping
//! into units): a warm run's `stat` of every file, most of its work, then
//! waits for nothing. The check takes what was found (see
//! [`super::ResultCache::take_stamps_ahead`]) for the same paths in the same
//! order, and helps with what is left.

use std::{fs, sync::Arc};

use camino::{Utf8Path, Utf8PathBuf};

use super::{
    file_index::{FileIndex, Stamp},
    walk::FoundTexts,
};
use crate::blocks::Blocks;

/// What the index says of one file: its hash and size when `stat` says of
/// it what it said when it was hashed (a regular file), else nothing.
pub(crate) type Looked = Option<(blake3::Hash, u64)>;

/// The lookups of a recorded walk's files, in blocks.
#[derive(Debug)]
pub(crate) struct StampsAhead {
    files: Arc<FoundTexts>,
    index: Arc<FileIndex>,
    work: Blocks<Looked>,
}

impl StampsAhead {
    /// Starts looking `files` up on a thread of its own (or leaves them
    /// all to [`StampsAhead::finish`] if none can be started).
    pub(crate) fn start(files: Arc<FoundTexts>, index: Arc<FileIndex>) -> Arc<StampsAhead> {
        let work = Blocks::new(files.len(), Option::is_none);
        let ahead = Arc::new(StampsAhead { files, index, work });
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

    /// One file's lookup, by its place in the record.
    fn look_up_file(&self, index: usize) -> Looked {
        look_up(&self.index, self.files.get(index))
    }

    /// Looks blocks up until none is left to take. A block that panics
    /// (none is expected) is found empty, and its files are looked up by
    /// their units.
    pub(crate) fn run(&self) {
        crate::trace::mark("stamps ahead");
        self.work.run(|index| self.look_up_file(index), None);
        crate::trace::mark("stamps ahead done");
    }

    /// Waits until more than `seen` files are found changed (the index
    /// does not know them as they are) or every file is looked up;
    /// returns the changed ones after the first `seen` (by place in the
    /// record), and whether every file is looked up.
    pub(crate) fn wait_changed(&self, seen: usize) -> (Vec<usize>, bool) {
        self.work.wait_flagged(seen)
    }

    /// The changed files found after the first `seen` so far, and whether
    /// every file is looked up, without waiting.
    pub(crate) fn changed_since(&self, seen: usize) -> (Vec<usize>, bool) {
        self.work.flagged_since(seen)
    }

    /// Looks up the next block, if one is left; returns whether there was
    /// one.
    pub(crate) fn run_one(&self) -> bool {
        self.work.run_one(|index| self.look_up_file(index), None)
    }

    /// Takes the blocks left (when `help`), waits for those other threads
    /// took, and hands each file's place in the record and lookup to `f`,
    /// in no particular order.
    pub(crate) fn finish(&self, help: bool, f: impl FnMut(usize, &Looked)) {
        if help {
            self.work.run(|index| self.look_up_file(index), None);
        }
        self.work.each_result(f);
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
