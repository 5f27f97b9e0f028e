//! Format throughput beside the reference formatter with the system
//! allocator: what a library embedder that installs no allocator of its own
//! sees. See `format.rs` for the figure with the allocator the `halite`
//! binary ships with. The reference is the same Go program in both targets;
//! only Halite's side changes.

mod format_common;

use criterion::{Criterion, criterion_group, criterion_main};

fn format(c: &mut Criterion) {
    format_common::format_throughput(c, "format-system-allocator", "system allocator");
}

criterion_group! {
    name = benches;
    config = benchmarks::criterion_config();
    targets = format
}
criterion_main!(benches);
