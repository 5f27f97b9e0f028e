//! Parse throughput beside hcl-edit with the system allocator: what a library
//! embedder that installs no allocator of its own sees. See `parse.rs` for
//! the figure with the allocator the `halite` binary ships with.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn parse(c: &mut Criterion) {
    common::parse_throughput(c, "parse-system-allocator", "system allocator");
}

criterion_group! {
    name = benches;
    config = benchmarks::criterion_config();
    targets = parse
}
criterion_main!(benches);
