//! [`Blocks`]: work over a list of items, in blocks that whichever thread
//! is free takes, with one call that helps with what is left, waits for
//! the rest and gives every item's result in order.

use std::sync::{
    Condvar, Mutex,
    atomic::{AtomicUsize, Ordering},
};

use crate::lock;

/// Items per block: each thread takes the next block when done with one.
const BLOCK: usize = 128;

/// A block's results, by the place of its first item.
type Done<T> = (usize, Vec<T>);

/// Work over `len` items, in blocks of [`BLOCK`]: any number of threads
/// call [`Blocks::run`], and one calls [`Blocks::finish`] for the results.
#[derive(Debug)]
pub(crate) struct Blocks<T> {
    len: usize,
    /// The next block to take.
    next: AtomicUsize,
    /// Each block done, and how many are done.
    done: Mutex<(Vec<Done<T>>, usize)>,
    all_done: Condvar,
}

impl<T: Clone> Blocks<T> {
    pub(crate) fn new(len: usize) -> Blocks<T> {
        Blocks { len, next: AtomicUsize::new(0), done: Mutex::default(), all_done: Condvar::new() }
    }

    fn blocks(&self) -> usize {
        self.len.div_ceil(BLOCK)
    }

    /// Takes blocks until none is left, each item's result `work`'s. A
    /// block whose work panics (none is expected) gives `failed` for each
    /// of its items rather than leave [`Blocks::finish`] waiting.
    pub(crate) fn run(&self, work: impl Fn(usize) -> T, failed: T) {
        loop {
            let block = self.next.fetch_add(1, Ordering::Relaxed);
            if block >= self.blocks() {
                return;
            }
            let start = block * BLOCK;
            let end = (start + BLOCK).min(self.len);
            let results =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (start..end).map(&work).collect()))
                    .unwrap_or_else(|_| vec![failed.clone(); end - start]);
            let mut done = lock(&self.done);
            done.0.push((start, results));
            done.1 += 1;
            if done.1 == self.blocks() {
                self.all_done.notify_all();
            }
        }
    }

    /// Takes the blocks left, waits for those other threads took, and
    /// returns every item's result, in order.
    pub(crate) fn finish(&self, work: impl Fn(usize) -> T, failed: T) -> Vec<T> {
        self.run(work, failed.clone());
        let mut done = lock(&self.done);
        while done.1 < self.blocks() {
            done = self.all_done.wait(done).unwrap_or_else(|poisoned| poisoned.into_inner());
        }
        let mut out = vec![failed; self.len];
        for (start, results) in &done.0 {
            out[*start..*start + results.len()].clone_from_slice(results);
        }
        out
    }
}
