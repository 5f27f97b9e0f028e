//! Project automation, run as `cargo xtask <command>`: code generation from
//! the ungrammar, the conformance run over `../shared`, whole-program
//! benchmarks (the result cache's among them), the mutation run of `check`
//! over the corpus, the stress run of hostile inputs. It may depend on any
//! crate of the workspace; nothing depends on it.

mod bench;
mod bench_cache;
mod bench_check;
mod bench_watch;
mod codegen;
mod conformance;
mod gen_module;
mod mutate_check;
mod stress;

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    match task.as_deref() {
        Some("bench") => bench::run(&rest),
        Some("bench-cache") => bench_cache::run(&rest),
        Some("bench-check") => bench_check::run(&rest),
        Some("bench-watch") => bench_watch::run(&rest),
        Some("codegen") => codegen::run(&rest),
        Some("conformance") => conformance::run(&rest),
        Some("gen-module") => gen_module::run(&rest).map_err(anyhow::Error::msg),
        Some("mutate-check") => mutate_check::run(&rest),
        Some("stress") => stress::run(&rest),
        _ => anyhow::bail!(
            "usage: cargo xtask <bench|bench-cache|bench-check|bench-watch|codegen|conformance|gen-module|mutate-check|stress> [ARGS…]"
        ),
    }
}

/// The root of the workspace, whatever directory cargo was started in.
pub(crate) fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the root")
        .to_path_buf()
}
