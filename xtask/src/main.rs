//! Project automation, run as `cargo xtask <command>`: code generation from
//! the ungrammar, the conformance run over `../shared`, whole-program
//! benchmarks. It may depend on any crate of the workspace; nothing depends
//! on it.

fn main() -> anyhow::Result<()> {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        _ => anyhow::bail!("usage: cargo xtask <codegen|conformance>"),
    }
}
