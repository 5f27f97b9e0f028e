//! Project automation, run as `cargo xtask <command>`: code generation from
//! the ungrammar, the conformance run over `../shared`, whole-program
//! benchmarks (the result cache's among them), the mutation run of `check`
//! over the corpus, the run of `check --fix` over it, the stress run of
//! hostile inputs. It may depend on any crate of the workspace; nothing
//! depends on it.

mod bench;
mod bench_cache;
mod bench_check;
mod bench_watch;
mod codegen;
mod conformance;
mod fix_check;
mod gen_module;
mod gen_terragrunt;
mod mutate_check;
mod mutate_files;
mod mutate_terragrunt;
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
        Some("fix-check") => fix_check::run(&rest),
        Some("gen-module") => gen_module::run(&rest).map_err(anyhow::Error::msg),
        Some("gen-terragrunt") => gen_terragrunt::run(&rest),
        Some("mutate-check") => mutate_check::run(&rest),
        Some("stress") => stress::run(&rest),
        _ => anyhow::bail!(
            "usage: cargo xtask <bench|bench-cache|bench-check|bench-watch|codegen|conformance|fix-check|gen-module|gen-terragrunt|mutate-check|stress> [ARGS…]"
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

/// Copies the regular files and directories under `from` to `to`, one
/// directory at a time (a corpus nests deeper than a recursion would like).
pub(crate) fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> anyhow::Result<()> {
    use anyhow::Context as _;
    let mut dirs: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(dir) = dirs.pop() {
        std::fs::create_dir_all(to.join(&dir))?;
        for entry in std::fs::read_dir(from.join(&dir))
            .with_context(|| format!("reading {}", from.join(&dir).display()))?
        {
            let entry = entry?;
            let path = dir.join(entry.file_name());
            let kind = entry.file_type()?;
            if kind.is_dir() {
                dirs.push(path);
            } else if kind.is_file() {
                std::fs::copy(from.join(&path), to.join(&path))?;
            }
        }
    }
    Ok(())
}
