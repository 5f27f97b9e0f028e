//! The files of a recorded walk looked up in the file index as soon as
//! the record is read, on a thread of their own, while the run goes on
//! with what needs one thread or two (the record's directories checked,
//! the configurations, the grouping into units): a warm run's `stat` of
//! every file, most of its work, then waits for nothing. A record found
//! not to hold cancels them ([`StampsAhead::cancel`]). The check takes
//! what was found (see [`super::ResultCache::take_stamps_ahead`]) for the
//! same paths in the same order, and helps with what is left.

use std::{fs, sync::Arc};

use camino::{Utf8Path, Utf8PathBuf};

use super::{
    file_index::{FileIndex, Stamp},
    walk::FoundTexts,
};
use crate::blocks::Blocks;

/// How many of the files recent runs found changed are looked up before
/// the others (see [`StampsAhead::look_up_hot_files`]).
const HOT_FILES: usize = 32;

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

    /// Takes no more blocks: for lookups no check will take (the record
    /// did not hold). Nothing may wait for their results then.
    pub(crate) fn cancel(&self) {
        self.work.cancel();
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

    /// Looks blocks up until none is left to take, after the files found
    /// changed by recent runs ([`HOT_FILES`]). A block that panics (none is
    /// expected) is found empty, and its files are looked up by their
    /// units.
    pub(crate) fn run(&self) {
        crate::trace::mark("stamps ahead");
        self.look_up_hot_files();
        self.work.run(|index| self.look_up_file(index), None);
        crate::trace::mark("stamps ahead done");
    }

    /// Looks up first the files recent runs found changed (the file
    /// index's recent entries), and tells those changed again ahead of
    /// their blocks: a file being edited is most often edited again, and
    /// its unit's check, most of a warm run's work, then starts as soon
    /// as the check can start it, not when the lookups reach the file in
    /// path order. The blocks look them up again, and what the run makes
    /// of each file is their answer: this only tells the check sooner.
    fn look_up_hot_files(&self) {
        let changed: Vec<usize> = self
            .index
            .recently_recorded(HOT_FILES)
            .into_iter()
            // Named as the walk names it: from the current directory, or
            // whole.
            .filter_map(|path| {
                let relative = self.index.relative(path).and_then(|relative| self.files.position(relative));
                relative.or_else(|| self.files.position(path))
            })
            .filter(|&index| self.look_up_file(index).is_none())
            .collect();
        crate::trace::mark_with(|| format!("hot files looked up, {} changed", changed.len()));
        self.work.flag_ahead(&changed);
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A file that recent runs found changed is looked up, and told
    /// changed, before the files ahead of it in path order; what the pass
    /// finds of each file is as without it.
    #[test]
    fn the_files_recently_found_changed_are_told_first() {
        let tree = tempfile::tempdir().expect("a temporary directory");
        let cache_dir = tempfile::tempdir().expect("a temporary directory");
        let root = Utf8Path::from_path(tree.path()).expect("a UTF-8 directory");
        let cache_dir = Utf8Path::from_path(cache_dir.path()).expect("a UTF-8 directory");
        // Several blocks.
        let mut paths: Vec<Utf8PathBuf> =
            (0..600).map(|file| root.join(format!("m{:03}/f{file:03}.tf", file / 3))).collect();
        vfs::sort_paths(&mut paths);
        let write = |file: usize, version: usize| {
            let path = &paths[file];
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            std::fs::write(path, format!("locals {{\n  a = {file}\n  b = {version}\n}}\n")).expect("a file");
        };
        let index_all = |files: &[usize]| {
            let index = FileIndex::open(cache_dir, root.to_owned());
            for &file in files {
                let read = vfs::read_file(&paths[file], u64::MAX).expect("a file");
                index.record(&paths[file], Stamp::of(&read.metadata), blake3::hash(&read.bytes));
            }
            index.save();
        };
        let margin =
            || std::thread::sleep(super::super::file_index::RACY_MARGIN + Duration::from_millis(100));
        for file in 0..paths.len() {
            write(file, 0);
        }
        margin();
        index_all(&(0..paths.len()).collect::<Vec<_>>());
        // Edited and looked up again by a later run: in the recent index.
        write(550, 1);
        margin();
        index_all(&[550]);
        assert!(cache_dir.join("files-v2-recent").is_file(), "a recent index");
        // Then edited again, with a file that comes first.
        write(550, 2);
        write(10, 1);
        let texts: Vec<&str> = paths.iter().map(|path| path.as_str()).collect();
        let ahead = StampsAhead {
            files: Arc::new(FoundTexts::of(&texts)),
            index: Arc::new(FileIndex::open(cache_dir, root.to_owned())),
            work: Blocks::new(paths.len(), Option::is_none),
        };
        ahead.run();
        let (told, finished) = ahead.changed_since(0);
        assert!(finished);
        assert_eq!(told, [550, 10, 550], "the recently changed file first, then in path order");
        let mut changed = Vec::new();
        ahead.finish(false, |file, looked| {
            if looked.is_none() {
                changed.push(file);
            }
        });
        changed.sort_unstable();
        assert_eq!(changed, [10, 550]);
    }
}
