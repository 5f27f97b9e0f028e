//! `cargo xtask conformance`: the whole of `../shared` against Halite.

pub(crate) fn run(_args: &[String]) -> anyhow::Result<()> {
    anyhow::bail!("conformance is not written yet")
}
