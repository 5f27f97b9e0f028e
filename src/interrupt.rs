//! The temporary files a command has in flight, removed when it is
//! interrupted.
//!
//! Every write of a file goes through a temporary file beside it, renamed
//! into place once whole (`format::write_atomically`, `--output-file`), so
//! a file is never half-written. An interrupt (Ctrl-C, SIGTERM, SIGHUP)
//! ends the process without unwinding, which would leave the temporary
//! files of the writes under way behind, in the user's tree (`git add -A`
//! would commit them). A command that writes asks for
//! [`remove_temporaries_when_interrupted`]: the interrupt then removes
//! those in flight and ends the process with exit code 130, as a shell
//! reports an interrupted command. The files already renamed into place
//! are whole; the others are as they were.

use std::{
    path::PathBuf,
    sync::{Mutex, MutexGuard, Once},
};

/// The temporary files being written, not yet renamed into place.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn in_flight() -> MutexGuard<'static, Vec<PathBuf>> {
    IN_FLIGHT.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A temporary file's place among those in flight, from its creation
/// until it is dropped: once it is renamed into place or removed.
pub(crate) struct InFlight(PathBuf);

impl InFlight {
    /// Creates a temporary file with `create` and registers it, as one
    /// step: the interrupt's handler takes the same lock, so a file is
    /// never created that it does not know of (it holds the lock until the
    /// process ends, and a creation waits for it).
    pub(crate) fn create(
        create: impl FnOnce() -> std::io::Result<tempfile::NamedTempFile>,
    ) -> std::io::Result<(tempfile::NamedTempFile, InFlight)> {
        let mut in_flight = in_flight();
        let file = create()?;
        let path = file.path().to_owned();
        in_flight.push(path.clone());
        Ok((file, InFlight(path)))
    }

    #[cfg(test)]
    fn new(path: &std::path::Path) -> InFlight {
        in_flight().push(path.to_owned());
        InFlight(path.to_owned())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let mut in_flight = in_flight();
        if let Some(at) = in_flight.iter().position(|path| *path == self.0) {
            in_flight.swap_remove(at);
        }
    }
}

/// Has an interrupt remove the temporary files in flight and end the
/// process with exit code 130 (see the module's documentation). The
/// handler is set once, for the whole process.
pub(crate) fn remove_temporaries_when_interrupted() {
    static SET: Once = Once::new();
    SET.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            // Held to the end: a write that registers meanwhile waits,
            // and the process ends before it goes on.
            let in_flight = in_flight();
            for path in in_flight.iter() {
                let _ = std::fs::remove_file(path);
            }
            std::process::exit(130);
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary file is in flight from its registration until it is
    /// dropped, and no longer.
    #[test]
    fn a_temporary_file_is_in_flight_until_dropped() {
        let path = std::path::Path::new("/nonexistent/.halite-fmt-test");
        let registered = InFlight::new(path);
        assert!(in_flight().iter().any(|it| it == path));
        drop(registered);
        assert!(!in_flight().iter().any(|it| it == path));
    }
}
