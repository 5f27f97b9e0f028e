//! Format throughput beside the reference formatter with mimalloc as the
//! global allocator, as the `halite` binary ships; `format_system_allocator`
//! measures the same with the system allocator, as a library embedder
//! without an allocator of its own sees it. See `benches/format_common/mod.rs`.

mod format_common;

use criterion::{Criterion, criterion_group, criterion_main};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn format(c: &mut Criterion) {
    format_common::format_throughput(c, "format", "mimalloc, as the halite binary ships");
}

criterion_group! {
    name = benches;
    config = benchmarks::criterion_config();
    targets = format
}
criterion_main!(benches);
