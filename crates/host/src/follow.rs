//! Following what a run's modules read outside its root directory: a
//! watcher per directory the host says its modules hold or read
//! ([`AnalysisHost::outside_dirs`]: the children of local module calls, a
//! Terragrunt unit's include and the units it depends on), kept in step
//! with them after every change, whose batches
//! [`crate::load::outside_change`] turns into changes. Every front end that
//! follows changes on disk (`halite watch`, the library's
//! `Workspace::watch`) follows these the same way.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::Arc,
};

use camino::{Utf8Path, Utf8PathBuf};
use vfs::{ChangeBatch, Scope, WatchOptions};

use crate::AnalysisHost;

/// The watches of the directories outside a root (see the module's
/// documentation). Dropping it stops them.
pub struct OutsideWatches {
    options: WatchOptions,
    sink: Arc<dyn Fn(ChangeBatch) + Send + Sync>,
    watches: BTreeMap<Utf8PathBuf, vfs::Watcher>,
    /// Directories that could not be watched, tried once each.
    failed: BTreeSet<Utf8PathBuf>,
}

impl std::fmt::Debug for OutsideWatches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutsideWatches").field("dirs", &self.watches.keys()).finish_non_exhaustive()
    }
}

impl OutsideWatches {
    /// No watches yet; each batch of the ones [`OutsideWatches::follow`]
    /// starts goes to `sink`, on the watcher's thread.
    pub fn new(options: WatchOptions, sink: impl Fn(ChangeBatch) + Send + Sync + 'static) -> OutsideWatches {
        OutsideWatches { options, sink: Arc::new(sink), watches: BTreeMap::new(), failed: BTreeSet::new() }
    }

    /// Watches the directories outside `root` that `host`'s modules hold or
    /// read now, and stops watching those they no longer do. Returns the
    /// directories that could not be watched this time, with why (each is
    /// not tried again): their changes will not be seen.
    pub fn follow(&mut self, host: &AnalysisHost, root: &Utf8Path) -> Vec<(Utf8PathBuf, vfs::Error)> {
        let wanted = host.outside_dirs(root);
        self.watches.retain(|dir, _| wanted.contains(dir));
        let mut failed = Vec::new();
        for dir in wanted {
            // A read's candidate may be in a directory that does not exist.
            if self.watches.contains_key(&dir) || self.failed.contains(&dir) || !dir.is_dir() {
                continue;
            }
            let sink = Arc::clone(&self.sink);
            match vfs::Watcher::start(
                &dir,
                Scope::Directory,
                &host.known_in(&dir, self.options.files),
                self.options,
                move |batch| sink(batch),
            ) {
                Ok(watch) => {
                    self.watches.insert(dir, watch);
                }
                Err(error) => {
                    self.failed.insert(dir.clone());
                    failed.push((dir, error));
                }
            }
        }
        failed
    }
}
