//! Timestamps of a run's phases on standard error, when `HALITE_TRACE`
//! is set: which thread reached which point when, to find what a run's
//! critical path is, and the process's resident memory then (on Linux),
//! to find in which phase its peak is. Off, a mark costs one load of a
//! flag.

use std::{
    sync::{Mutex, OnceLock},
    time::Instant,
};

/// When the first mark was made, if tracing is on.
fn start() -> Option<Instant> {
    static START: OnceLock<Option<Instant>> = OnceLock::new();
    *START.get_or_init(|| std::env::var_os("HALITE_TRACE").map(|_| Instant::now()))
}

static MARKS: Mutex<Vec<(f64, String, String)>> = Mutex::new(Vec::new());

/// Notes that the current thread reached `what`, if tracing is on.
pub fn mark(what: &str) {
    mark_with(|| what.to_owned());
}

/// [`mark`] with what is reached said by `what`, called only if tracing
/// is on.
pub fn mark_with(what: impl FnOnce() -> String) {
    if let Some(start) = start() {
        let elapsed = start.elapsed().as_secs_f64() * 1000.0;
        let thread = std::thread::current();
        let name = thread.name().map(str::to_owned).unwrap_or_else(|| format!("{:?}", thread.id()));
        let what = match resident() {
            Some(resident) => format!("{} [{resident}]", what()),
            None => what(),
        };
        crate::lock(&MARKS).push((elapsed, name, what));
    }
}

/// The process's resident memory as the kernel says it (`123456 kB`), where
/// it says it.
fn resident() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    Some(line["VmRSS:".len()..].trim().to_owned())
}

/// Prints the marks made so far, in order, if tracing is on.
pub fn print() {
    if start().is_some() {
        for (at, thread, what) in crate::lock(&MARKS).drain(..) {
            eprintln!("{at:8.3} ms  {thread:<20} {what}");
        }
    }
}
