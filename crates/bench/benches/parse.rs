//! Parse throughput beside hcl-edit with mimalloc as the global allocator,
//! as the `halite` binary ships; `parse_system_allocator` measures the same
//! with the system allocator, as a library embedder without an allocator of
//! its own sees it. See `benches/common/mod.rs`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn parse(c: &mut Criterion) {
    common::parse_throughput(c, "parse", "mimalloc, as the halite binary ships");
}

criterion_group! {
    name = benches;
    config = benchmarks::criterion_config();
    targets = parse
}
criterion_main!(benches);
