//! [`Blocks`]: work over a list of items, in blocks that whichever thread
//! is free takes, and one call that waits for the rest and gives every
//! item's result in order. Items whose result
//! is flagged (a file found changed) are told as each block is done, to
//! a thread that waits for them ([`Blocks::wait_flagged`]) and acts on
//! them before the whole work is done.

use std::sync::{
    Condvar, Mutex,
    atomic::{AtomicUsize, Ordering},
};

use crate::lock;

/// Items per block: each thread takes the next block when done with one.
const BLOCK: usize = 128;

/// A block's results, by the place of its first item.
type Done<T> = (usize, Vec<T>);

/// What is done so far.
#[derive(Debug)]
struct Progress<T> {
    /// Each block done.
    blocks: Vec<Done<T>>,
    /// How many blocks are done.
    count: usize,
    /// The items flagged so far, in the order their blocks were done.
    flagged: Vec<usize>,
}

impl<T> Default for Progress<T> {
    fn default() -> Progress<T> {
        Progress { blocks: Vec::new(), count: 0, flagged: Vec::new() }
    }
}

/// Work over `len` items, in blocks of [`BLOCK`]: any number of threads
/// call [`Blocks::run`] or [`Blocks::run_one`], and one calls
/// [`Blocks::results`] for the results.
#[derive(Debug)]
pub(crate) struct Blocks<T> {
    len: usize,
    /// The next block to take.
    next: AtomicUsize,
    done: Mutex<Progress<T>>,
    /// Told when every block is done, or a block flagged an item.
    changed: Condvar,
    /// Which results are flagged.
    flag: fn(&T) -> bool,
}

impl<T: Clone> Blocks<T> {
    pub(crate) fn new(len: usize, flag: fn(&T) -> bool) -> Blocks<T> {
        Blocks { len, next: AtomicUsize::new(0), done: Mutex::default(), changed: Condvar::new(), flag }
    }

    fn blocks(&self) -> usize {
        self.len.div_ceil(BLOCK)
    }

    /// Takes blocks until none is left, each item's result `work`'s. A
    /// block whose work panics (none is expected) gives `failed` for each
    /// of its items rather than leave [`Blocks::results`] waiting.
    pub(crate) fn run(&self, work: impl Fn(usize) -> T, failed: T) {
        while self.run_one(&work, failed.clone()) {}
    }

    /// Takes the next block, if one is left (see [`Blocks::run`]);
    /// returns whether there was one.
    pub(crate) fn run_one(&self, work: impl Fn(usize) -> T, failed: T) -> bool {
        {
            let block = self.next.fetch_add(1, Ordering::Relaxed);
            if block >= self.blocks() {
                return false;
            }
            let start = block * BLOCK;
            let end = (start + BLOCK).min(self.len);
            let results: Vec<T> =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (start..end).map(&work).collect()))
                    .unwrap_or_else(|_| vec![failed.clone(); end - start]);
            let flagged = results.iter().enumerate().filter(|(_, it)| (self.flag)(it));
            let flagged: Vec<usize> = flagged.map(|(at, _)| start + at).collect();
            let mut done = lock(&self.done);
            let flagged_before = done.flagged.len();
            done.flagged.extend(flagged);
            done.blocks.push((start, results));
            done.count += 1;
            if done.count == self.blocks() || done.flagged.len() > flagged_before {
                self.changed.notify_all();
            }
        }
        true
    }

    /// Leaves the blocks not taken yet untaken: for work whose results
    /// no one will wait for ([`Blocks::each_result`] would wait forever).
    pub(crate) fn cancel(&self) {
        self.next.fetch_max(self.blocks(), Ordering::Relaxed);
    }

    /// Flags `items` ahead of their blocks (whose results stand: an item
    /// may be told twice), for a thread waiting for flagged items to act
    /// on them at once.
    pub(crate) fn flag_ahead(&self, items: &[usize]) {
        if items.is_empty() {
            return;
        }
        lock(&self.done).flagged.extend_from_slice(items);
        self.changed.notify_all();
    }

    /// The items flagged after the first `seen` so far, and whether every
    /// block is done, without waiting.
    pub(crate) fn flagged_since(&self, seen: usize) -> (Vec<usize>, bool) {
        let done = lock(&self.done);
        (done.flagged.get(seen..).unwrap_or_default().to_vec(), done.count == self.blocks())
    }

    /// Waits until more than `seen` items are flagged or every block is
    /// done; returns the items flagged after the first `seen`, and
    /// whether every block is done.
    pub(crate) fn wait_flagged(&self, seen: usize) -> (Vec<usize>, bool) {
        let mut done = lock(&self.done);
        while done.flagged.len() <= seen && done.count < self.blocks() {
            done = self.changed.wait(done).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        (done.flagged.get(seen..).unwrap_or_default().to_vec(), done.count == self.blocks())
    }

    /// Waits for every block (taken by other threads) and returns every
    /// item's result, in order.
    #[cfg(test)]
    pub(crate) fn results(&self, failed: T) -> Vec<T> {
        let mut out = vec![failed; self.len];
        self.each_result(|at, result| out[at] = result.clone());
        out
    }

    /// Waits for every block (taken by other threads) and hands each
    /// item's place and result to `f`, in no particular order: the results
    /// are not copied out (a warm run's lookups of every file, copied into
    /// one list and then another, were fresh pages to fault in).
    pub(crate) fn each_result(&self, mut f: impl FnMut(usize, &T)) {
        let mut done = lock(&self.done);
        while done.count < self.blocks() {
            done = self.changed.wait(done).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        for (start, results) in &done.blocks {
            for (at, result) in results.iter().enumerate() {
                f(start + at, result);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Flagged items are told as their blocks are done, before the whole
    /// work is, and every one exactly once.
    #[test]
    fn flagged_items_are_told_before_the_work_is_done() {
        let len = 10 * BLOCK + 7;
        let blocks: Blocks<usize> = Blocks::new(len, |it| it % 100 == 3);
        let expected: Vec<usize> = (0..len).filter(|it| it % 100 == 3).collect();
        std::thread::scope(|scope| {
            let watcher = scope.spawn(|| {
                let mut seen = Vec::new();
                loop {
                    let (flagged, finished) = blocks.wait_flagged(seen.len());
                    seen.extend(flagged);
                    if finished {
                        return seen;
                    }
                }
            });
            blocks.run(|it| it, usize::MAX);
            let out = blocks.results(usize::MAX);
            assert_eq!(out, (0..len).collect::<Vec<_>>());
            let mut seen = watcher.join().expect("the watcher");
            seen.sort_unstable();
            assert_eq!(seen, expected);
        });
        // Once done, waiting returns at once, with nothing more.
        assert_eq!(blocks.wait_flagged(expected.len()), (Vec::new(), true));
    }

    /// Cancelled, the blocks not taken yet stay so, and those done stand.
    #[test]
    fn cancelled_work_takes_no_more_blocks() {
        let blocks: Blocks<usize> = Blocks::new(3 * BLOCK, |it| *it == 5);
        assert!(blocks.run_one(|it| it, usize::MAX));
        blocks.cancel();
        assert!(!blocks.run_one(|it| it, usize::MAX));
        assert_eq!(blocks.flagged_since(0), (vec![5], false));
    }
}
